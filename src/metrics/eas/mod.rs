//! EAS (Engine Aggressiveness Statistics, `eas.md`): per-game labels from the
//! moves' material columns, then the per-engine score with the reference's
//! integer arithmetic ([`rules`]).
//!
//! The labels are computed once per dataset (they only depend on the games) and
//! stored as `DATASET/derived/eas_labels.parquet` ([`crate::derived`]); the
//! score is a cheap pass
//! over them. Both steps walk rows in Rust rather than in polars expressions:
//! the rules are sequential (runs of 8 or 12 plies) and the reference's
//! truncating integer helpers decide the numbers.

pub mod labels;
pub mod rules;
pub mod score;

pub use labels::{cols, labels};
pub use score::{EasOptions, Globals, Rules, score};
