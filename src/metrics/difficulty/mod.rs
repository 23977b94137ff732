//! Human difficulty against Lichess puzzle ratings (docs/definitions/difficulty.md):
//! [`puzzles`] reads the puzzle games and marks the solver's positions,
//! [`measures`] the candidate measures of a position (plain values),
//! [`math`] the rank correlations and their bootstrap intervals, [`query`]
//! the tables, [`model`] the expected-rating model and its file.

pub mod math;
pub mod measures;
pub mod model;
pub mod puzzles;
pub mod query;

use measures::Measures;

/// Column names of the difficulty tables.
pub mod cols {
    pub const BEST_MOVE: &str = "best_move";
    pub const BEST_IS_SOLUTION: &str = "best_is_solution";
    pub const EASE_SUM: &str = "ease_sum";
    pub const EASE_PER_TERM: &str = "ease_per_term";
    pub const PRIOR_BEST: &str = "prior_best";
    pub const POLICY_RANK: &str = "policy_rank";
    pub const POLICY_ENTROPY: &str = "policy_entropy";
    pub const GOOD_MOVES: &str = "good_moves";
    pub const Q_GAP: &str = "q_gap";
    pub const PRIOR_LOSING: &str = "prior_losing";
    pub const DEPTH_TO_FIND: &str = "depth_to_find";
    pub const THEME: &str = "theme";
    /// The [`THEME`] of the whole sample.
    pub const ALL: &str = "all";
    pub const PUZZLES: &str = "puzzles";
    pub const MEASURE: &str = "measure";
    pub const N: &str = "n";
    pub const RHO: &str = "rho";
    pub const RHO_LO: &str = "rho_lo";
    pub const RHO_HI: &str = "rho_hi";
    pub const TAU: &str = "tau";
    pub const TAU_LO: &str = "tau_lo";
    pub const TAU_HI: &str = "tau_hi";
    pub const EXPECTED_RATING: &str = "expected_rating";
    pub const KIND: &str = "kind";
    pub const MEASURES: &str = "measures";
    pub const CV_RHO: &str = "cv_rho";
    pub const CV_MAE: &str = "cv_mae";
    pub const CV_MAE_SE: &str = "cv_mae_se";
    pub const CHOSEN: &str = "chosen";
}

/// A measure's value as a number.
pub type Get = fn(&Measures) -> Option<f64>;

/// Every candidate measure, by its column name.
pub const MEASURES: [(&str, Get); 9] = [
    (cols::EASE_SUM, |m| m.ease_sum),
    (cols::EASE_PER_TERM, |m| m.ease_per_term),
    (cols::PRIOR_BEST, |m| m.prior_best),
    (cols::POLICY_RANK, |m| m.policy_rank.map(f64::from)),
    (cols::POLICY_ENTROPY, |m| m.policy_entropy),
    (cols::GOOD_MOVES, |m| m.good_moves.map(f64::from)),
    (cols::Q_GAP, |m| m.q_gap),
    (cols::PRIOR_LOSING, |m| m.prior_losing),
    (cols::DEPTH_TO_FIND, |m| m.depth_to_find.map(f64::from)),
];
