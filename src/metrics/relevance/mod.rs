//! Relevance reduction (`metrics.md` §2): [`math`] holds the pure math
//! (relevance, area, probabilistic result, the inverse of an area fraction),
//! [`symbols`] the position and move symbols and their schemes measured on that
//! area (boundaries, thresholds, classifiers, the inverse of §2.6), [`query`] the
//! per-move and per-engine polars queries built on both.

pub mod math;
pub mod query;
pub mod symbols;
#[cfg(test)]
mod testing;

pub use query::*;
