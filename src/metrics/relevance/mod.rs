//! Relevance reduction (`metrics.md` §2): [`symbols`] holds the position and
//! move symbols and their schemes, [`math`] the pure math (relevance, area,
//! probabilistic result, the symbols' thresholds on the area and their
//! inverses), [`query`] the per-move and per-engine polars queries built on it.

pub mod math;
pub mod query;
pub mod symbols;

pub use query::*;
