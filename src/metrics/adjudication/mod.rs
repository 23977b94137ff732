//! Adjudication lab (`adjudication.md`): resign and draw rules — cutechess,
//! TCEC and Terra — replayed over archived games: when each rule would have
//! ended a game, with which result, and what that would have saved or got wrong.
//!
//! - [`rules`]: rule sets as data (TOML presets, overrides, sweeps);
//! - [`replay`]: the pure per-game replay, TCEC's Rd/Rr clocks included;
//! - [`castling`]: which rook moves cutechess counts as irreversible;
//! - [`query`]: the moves into plies, per-game outcomes and their sums;
//! - [`clocks`]: the replay's TCEC clocks and rule ends against the archive's
//!   (`--check-clocks`);
//! - [`sweep`]: one summary row per point of a parameter grid;
//! - [`tables`]: the summary under its rule set, the games behind a verdict,
//!   the clock check;
//! - [`tablebase`]: Syzygy tables as the replay's tablebase probe.

pub mod castling;
pub mod clocks;
pub mod query;
pub mod replay;
pub mod rules;
pub mod sweep;
pub mod tablebase;
pub mod tables;

pub use rules::{Compiled, RuleSet};
