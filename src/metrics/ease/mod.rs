//! Ease of a position (`metrics.md` §4): [`math`] holds the formula (both
//! forms) on plain values, [`query`] the per-position polars query over the
//! `analysis` (Q) and `policy` (P) tables.

pub mod math;
pub mod query;
