//! Relevance reduction (`metrics.md` §2): [`math`] holds the pure math (relevance,
//! area, probabilistic result, position and move symbols and their inverses),
//! [`query`] the per-move and per-engine polars queries built on it.

pub mod math;
pub mod query;

pub use query::*;
