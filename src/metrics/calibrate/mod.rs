//! Recalibrating x_0_5 from the data (`metrics.md` §1, last paragraph): three
//! estimates per engine (or event and engine), each with a bootstrap confidence
//! interval over games.
//!
//! - **rank**: the win-draw balance of [`super::balance`].
//! - **threshold**: the lowest maximum own eval x at which P(win | the engine's
//!   maximum own eval in the game ≥ x) is at least 0.5.
//! - **ml**: the x05 maximising the likelihood of the game outcomes (1, ½, 0, own
//!   POV) of every position with an own eval under the probabilistic-result curve
//!   P(x) of §2.3, each position a Bernoulli trial with a fractional outcome.
//!
//! A method with too little data says why instead of giving a number
//! ([`math::reason`]); the **pooled** estimate ([`pool`]) shrinks each group's
//! ml toward the mean of all groups by its precision (sandwich standard
//! errors, games as clusters), or without a usable ml is the posterior mode
//! of its likelihood under that prior, and is what `--toml` writes for
//! later steps.
//!
//! Hollow wins count as non-wins in rank and threshold, and as draws in ml:
//! they are the positions a tablebase adjudication called won that were not
//! winnable. Mates are kept in rank and threshold (above every cp value) and
//! left out of ml (P is 0 or 1 there and carries no information on x05).

pub mod math;
pub mod pool;
pub mod query;
pub mod run;

pub use math::*;
pub use query::observations;
pub use run::{Calibrated, Settings, calibrate};
