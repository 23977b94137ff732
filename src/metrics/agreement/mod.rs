//! Agreement of the archived games with a reference analysis (`evallab
//! analyze`): how close the engines' own evals are to the reference's, how
//! often the played move is the reference's first choice, and what the played
//! move cost by the reference (centipawns and lichess-style accuracy).
//! Readings are numbered in docs/definitions/agreement.md.

pub mod math;
pub mod query;
