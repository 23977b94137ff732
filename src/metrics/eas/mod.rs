//! EAS (Engine Aggressiveness Statistics, `eas.md`): per-game labels from the
//! reference's material-pattern files ([`patterns`], matched as pgn-extract
//! does by [`matcher`]), then the per-engine score with the reference's
//! integer arithmetic ([`rules`], [`mod@score`]).
//!
//! The labels are computed once per dataset, part by part ([`labels()`]), and
//! stored as the dataset's derived table `eas_labels` ([`stored`]); the
//! score is a cheap pass over them.
//!
//! # Readings
//!
#![doc = include_str!("readings.md")]

pub mod games;
pub mod labels;
pub mod matcher;
pub mod patterns;
pub mod rules;
pub mod score;
pub mod stored;

pub use games::{Behind, games_behind};
pub use labels::{Labeller, cols, labels, mark_duplicates};
pub use score::{EasOptions, GLOBALS, Globals, Rules, score, score_by};
pub use stored::stored_labels;
