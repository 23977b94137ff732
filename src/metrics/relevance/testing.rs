//! Test helpers shared by the tests of [`super::math`] and [`super::symbols`].

use proptest::prelude::*;

/// The Stockfish value of the worked example in §1.
pub(super) const X05: f64 = 0.62;

pub(super) fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

pub(super) fn x05s() -> impl Strategy<Value = f64> {
    0.05f64..5.0
}

pub(super) fn evals() -> impl Strategy<Value = f64> {
    -30.0f64..30.0
}
