//! Human difficulty against Lichess puzzle ratings (docs/definitions/difficulty.md):
//! [`puzzles`] reads the puzzle games and marks the solver's positions,
//! [`measures`] the measures of one position and [`mod@line`] the features of a
//! whole solution line (plain values), [`math`] the rank correlations and
//! their bootstrap intervals, [`gbt`] boosted trees, [`model`] the
//! expected-rating models, their nested cross-validation and the model
//! file, [`query`] the tables.

pub mod gbt;
pub mod line;
pub mod math;
pub mod measures;
pub mod model;
pub mod puzzles;
pub mod query;

/// Column names of the difficulty tables.
pub mod cols {
    pub const THEME: &str = "theme";
    /// The [`THEME`] or group of the whole sample.
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
    pub const SETTINGS: &str = "settings";
    pub const CV_RHO: &str = "cv_rho";
    pub const CV_MAE: &str = "cv_mae";
    pub const CV_MAE_SE: &str = "cv_mae_se";
    pub const CV_RMSE: &str = "cv_rmse";
    pub const N_SETTLED: &str = "n_settled";
    pub const CV_RHO_SETTLED: &str = "cv_rho_settled";
    pub const CV_MAE_SETTLED: &str = "cv_mae_settled";
    pub const CV_RMSE_SETTLED: &str = "cv_rmse_settled";
    pub const RMSE_OVER_SD: &str = "rmse_over_sd_settled";
    pub const CHOSEN: &str = "chosen";
    pub const GROUP: &str = "group";
    pub const RATING_MEAN: &str = "rating_mean";
    pub const EXPECTED_MEAN: &str = "expected_mean";
    pub const EXPECTED_SD: &str = "expected_sd";
    pub const EXPECTED_P10: &str = "expected_p10";
    pub const EXPECTED_P90: &str = "expected_p90";
    pub const MAE: &str = "mae";
    pub const RMSE: &str = "rmse";
    pub const MAE_CONSTANT: &str = "mae_constant";
}
