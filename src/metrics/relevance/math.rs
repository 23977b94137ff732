//! Evaluation relevance reduction: the pure maths of `metrics.md` §2.
//!
//! An eval change matters less the further it is from 0.00 (losing a piece when
//! already −9 changes nothing). With the engine's win-draw balance `x05` (§1, in
//! pawns, `x05 > 0`) every eval `x` gets a *relevance* `f(x) = 0.5^(|x| / x05)`; its
//! integral `C` maps evals onto a bounded "relevance area" of total size
//! `2·x05 / ln 2`, and everything else here is arithmetic on that area:
//!
//! * [`relevance`], [`cumulative`], [`total_area`], [`rr`]: §2 proper;
//! * [`reference_swing`]: the swing a move symbol is read from (§2.5);
//! * [`prob_exp`], [`prob_sigmoid`]: probabilistic game result (§2.3);
//! * [`inverse_fraction`]: the eval a given fraction of the area away (§2.6).
//!
//! All evals are `f64` pawns. Every function is pure and never panics. `x05` must be
//! finite and strictly positive; for other values results are unspecified (typically
//! NaN), except that [`inverse_fraction`] returns `None`.
//! A NaN eval propagates as NaN through the numeric functions.
//!
//! The NAG symbols and their schemes (§2.4–§2.6: boundaries, thresholds, the
//! classifiers, the inverse) are in `symbols.rs`, which measures them on this area;
//! nothing here knows them.

#![forbid(unsafe_code)]

use std::f64::consts::LN_2;

/// Half of the relevance area, `x05 / ln 2` (= C(0) = C(+∞) − C(0)).
fn half_area(x05: f64) -> f64 {
    x05 / LN_2
}

/// `C(x)` in units of the half area, `T(x) = C(x) / (x05 / ln 2) = 2·P(x)` ∈ [0, 2]
/// (the `T` of §2.6). Everything is computed in these units first and scaled by
/// `x05 / ln 2` last: these values are exact at integer multiples of x05 (T(x05) = 1.5,
/// T(2·x05) = 1.75),
/// which keeps e.g. the econ8 thresholds exact (see [`rr`]).
fn unit_cumulative(x: f64, x05: f64) -> f64 {
    // Two branches so that each one exponentiates a non-positive number: no
    // overflow, and full relative precision in the left tail.
    if x <= 0.0 {
        (x / x05).exp2()
    } else {
        2.0 - (-x / x05).exp2()
    }
}

/// Relevance `f(x) = 0.5^(|x| / x05)` of an eval: 1 at 0.00, 0.5 at ±x05, → 0 at ±∞.
///
/// ```
/// use evallab::metrics::relevance::math::relevance;
/// assert_eq!(relevance(0.0, 0.62), 1.0);
/// assert_eq!(relevance(0.62, 0.62), 0.5);
/// assert_eq!(relevance(-1.24, 0.62), 0.25); // two half-lives away
/// ```
#[must_use]
pub fn relevance(x: f64, x05: f64) -> f64 {
    // exp2 of a negative exponent is the same as 0.5^(…) and exact on integers.
    (-x.abs() / x05).exp2()
}

/// Cumulative relevance `C(x) = ∫_{−∞}^{x} f`, strictly increasing from 0 to
/// [`total_area`]:
///
/// * `x ≤ 0`: `C(x) = (x05 / ln 2) · 2^(x / x05)`
/// * `x > 0`: `C(x) = 2·x05 / ln 2 − (x05 / ln 2) · 2^(−x / x05)`
///
/// ```
/// use evallab::metrics::relevance::math::cumulative;
/// use std::f64::consts::LN_2;
/// let x05 = 0.62;
/// // Half of the area lies left of 0.00: C(0) = x05 / ln 2 ≈ 0.894471.
/// assert_eq!(cumulative(0.0, x05), x05 / LN_2);
/// // C(x05) = 2h − h/2 = 1.5·h ≈ 1.341706 (h = x05 / ln 2).
/// assert!((cumulative(x05, x05) - 1.341706388026736).abs() < 1e-12);
/// assert_eq!(cumulative(f64::NEG_INFINITY, x05), 0.0);
/// ```
#[must_use]
pub fn cumulative(x: f64, x05: f64) -> f64 {
    half_area(x05) * unit_cumulative(x, x05)
}

/// Total relevance area `C(+∞) = 2·x05 / ln 2`; each half (below and above 0.00) is
/// `x05 / ln 2`.
///
/// ```
/// use evallab::metrics::relevance::math::total_area;
/// // 2 · 0.62 / 0.693147… ≈ 1.788942
/// assert!((total_area(0.62) - 1.7889418507023147).abs() < 1e-12);
/// ```
#[must_use]
pub fn total_area(x05: f64) -> f64 {
    // Written via half_area so that total == 2·C(0) exactly (scaling by 2 is exact).
    2.0 * half_area(x05)
}

/// Relevance-reduced difference `rr(a, b) = C(b) − C(a)` from eval `a` to eval `b`.
///
/// Signed (positive when `b > a`), antisymmetric, additive
/// (`rr(a, b) + rr(b, c) = rr(a, c)`) and bounded: `|rr| ≤ 2·x05 / ln 2`.
///
/// ```
/// use evallab::metrics::relevance::math::rr;
/// use std::f64::consts::LN_2;
/// let x05 = 0.62;
/// // From 0.00 to x05: C(x05) − C(0) = 1.5h − h = h/2 = x05 / (2 ln 2) ≈ 0.447235.
/// assert!((rr(0.0, x05, x05) - x05 / LN_2 * 0.5).abs() < 1e-15);
/// // From 2.00 to −1.00 is a 3-pawn drop, but far less in relevance terms:
/// // h·(2^(−1/0.62) − (2 − 2^(−2/0.62))) = 0.894471·(0.326793 − 1.893193) ≈ −1.400894
/// assert!((rr(2.0, -1.0, x05) + 1.400894085131447).abs() < 1e-12);
/// ```
#[must_use]
pub fn rr(a: f64, b: f64, x05: f64) -> f64 {
    // Subtract in half-area units, then scale: h·(T(b) − T(a)) rather than
    // C(b) − C(a). Mathematically equal, but e.g. rr(0, x05) = h·(1.5 − 1) = h/2 is
    // then exactly the econ8 `!` threshold (2/8)·2h, where C(x05) = 1.5·h would round.
    half_area(x05) * (unit_cumulative(b, x05) - unit_cumulative(a, x05))
}

/// The swing a move symbol is read from with a reference analysis (§2.5's own
/// reading, MultiPV ≥ 2): the reference's first choice played earns its margin
/// over the second-best line, rr(second, best) ≥ 0 (!?, !, !!); any other move
/// what it loses against the best line, rr(best, played) ≤ 0 (?!, ?, ??).
/// Centipawns in the mover's POV; `None` without the line it needs.
///
/// ```
/// use evallab::metrics::relevance::math::{reference_swing, rr};
/// // The only good move: best +1.00, the second best −2.00.
/// assert_eq!(reference_swing(true, 100.0, Some(-200.0), None, 0.62), Some(rr(-2.0, 1.0, 0.62)));
/// // Not the first choice, and the played move has no line of its own.
/// assert_eq!(reference_swing(false, 0.0, Some(-10.0), None, 0.62), None);
/// ```
#[must_use]
pub fn reference_swing(
    top1: bool,
    best_cp: f64,
    second_cp: Option<f64>,
    played_cp: Option<f64>,
    x05: f64,
) -> Option<f64> {
    let (a, b) = if top1 {
        (second_cp?, best_cp)
    } else {
        (best_cp, played_cp?)
    };
    Some(rr(a / 100.0, b / 100.0, x05))
}

/// Probabilistic game result `P(x) = C(x) / (2·x05 / ln 2)` (§2.3), White POV:
/// 0 = Black wins, 1 = White wins.
///
/// Closed form: `x ≤ 0 → 2^(x/x05 − 1)`, `x > 0 → 1 − 2^(−x/x05 − 1)`, so
/// `P(0) = 0.5`, `P(x05) = 0.75`, `P(2·x05) = 0.875`.
///
/// ```
/// use evallab::metrics::relevance::math::prob_exp;
/// assert_eq!(prob_exp(0.0, 0.62), 0.5);
/// assert_eq!(prob_exp(0.62, 0.62), 0.75);   // 1 − 2^(−2)
/// assert_eq!(prob_exp(-1.24, 0.62), 0.125); // 2^(−3)
/// ```
#[must_use]
pub fn prob_exp(x: f64, x05: f64) -> f64 {
    // T(x)/2 is the closed form above (halving is exact) and avoids the rounding of
    // the division C/total; exact at multiples of x05.
    0.5 * unit_cumulative(x, x05)
}

/// Alternative sigmoid result curve `P_s(x) = x / (2·sqrt(3·x05² + x²)) + 1/2`
/// (§2.3), White POV; also `P_s(0) = 0.5` and `P_s(x05) = 0.75`, but with a fatter
/// tail (`P_s(2·x05) = 1/2 + 1/√7 ≈ 0.878` vs 0.875).
///
/// `±∞` map to 1 and 0 (the formula alone would give ∞/∞).
///
/// ```
/// use evallab::metrics::relevance::math::prob_sigmoid;
/// let x05 = 0.62;
/// assert_eq!(prob_sigmoid(0.0, x05), 0.5);
/// // x = x05: x05 / (2·sqrt(4·x05²)) = 1/4
/// assert!((prob_sigmoid(x05, x05) - 0.75).abs() < 1e-15);
/// // x = 2·x05: 2·x05 / (2·sqrt(7·x05²)) = 1/√7
/// assert!((prob_sigmoid(1.24, x05) - (0.5 + 1.0 / 7f64.sqrt())).abs() < 1e-15);
/// ```
#[must_use]
pub fn prob_sigmoid(x: f64, x05: f64) -> f64 {
    if x.is_infinite() {
        return if x > 0.0 { 1.0 } else { 0.0 };
    }
    // hypot(√3·x05, x) = sqrt(3·x05² + x²) without overflow for huge |x|, and
    // |x| ≤ hypot keeps the result inside [0, 1].
    x / (2.0 * (3f64.sqrt() * x05).hypot(x)) + 0.5
}

/// §2.6 for an arbitrary signed area fraction `F`: the eval `x_new` with
/// `C(x_new) = C(x_old) + F · 2·x05 / ln 2`.
///
/// With `T = 2^(x_old/x05)` for `x_old ≤ 0`, else `2 − 2^(−x_old/x05)` (i.e.
/// `T = 2·P(x_old)`) and `T' = T + 2F`: `x_new = x05·log2(T')` if `T' ≤ 1`, else
/// `−x05·log2(2 − T')`. `None` when `T' ≤ 0` or `T' ≥ 2` (the shift leaves the
/// area), and also for NaN inputs or an `x05` that is not finite and positive.
///
/// ```
/// use evallab::metrics::relevance::math::inverse_fraction;
/// // Half the area up from 0.00: T' = 1 + 1 = 2 → no finite eval.
/// assert_eq!(inverse_fraction(0.0, 0.5, 0.62), None);
/// // A quarter: T' = 1.5 → x_new = −x05·log2(0.5) = x05.
/// assert_eq!(inverse_fraction(0.0, 0.25, 0.62), Some(0.62));
/// ```
#[must_use]
pub fn inverse_fraction(x_old: f64, fraction: f64, x05: f64) -> Option<f64> {
    if !(x05 > 0.0 && x05.is_finite()) || x_old.is_nan() {
        return None;
    }
    let t = unit_cumulative(x_old, x05);
    let tp = t + 2.0 * fraction;
    // Written as a negated range test so that a NaN fraction also yields None.
    if !(tp > 0.0 && tp < 2.0) {
        return None;
    }
    Some(if tp <= 1.0 {
        x05 * tp.log2()
    } else {
        -x05 * (2.0 - tp).log2()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::relevance::testing::{X05, close, evals, x05s};
    use proptest::prelude::*;

    #[test]
    fn hand_values_at_0_62() {
        // h = x05 / ln 2 = 0.62 / 0.6931471805599453 = 0.8944709253511574
        let h = 0.894_470_925_351_157_4;
        assert!(close(cumulative(0.0, X05), h, 1e-15));
        assert!(close(total_area(X05), 2.0 * h, 1e-15)); // 1.7889418507023147
        // f(−0.31) = 0.5^(0.31/0.62) = 0.5^0.5 = 1/√2 = 0.7071067811865476
        assert!(close(
            relevance(-0.31, X05),
            std::f64::consts::FRAC_1_SQRT_2,
            1e-15
        ));
        assert_eq!(relevance(1.24, X05), 0.25); // 0.5^2
        // C(−0.62) = h·2^(−1) = 0.4472354626755787
        assert!(close(
            cumulative(-0.62, X05),
            0.447_235_462_675_578_7,
            1e-15
        ));
        // C(0.62) = 2h − h/2 = 1.5h = 1.341706388026736
        assert!(close(cumulative(0.62, X05), 1.341_706_388_026_736, 1e-15));
        // rr(1.24, −0.62) = C(−0.62) − C(1.24) = h/2 − (2h − h/4) = −1.25h
        //                 = −1.1180886566889465
        assert!(close(rr(1.24, -0.62, X05), -1.25 * h, 1e-14));
        assert!(close(rr(1.24, -0.62, X05), -1.118_088_656_688_946_5, 1e-14));
        // P(0.31) = 1 − 2^(−0.5 − 1) = 1 − 0.3535533905932738 = 0.6464466094067263
        assert!(close(prob_exp(0.31, X05), 0.646_446_609_406_726_2, 1e-15));
        assert!(close(prob_exp(-0.31, X05), 0.353_553_390_593_273_8, 1e-15));
        assert_eq!(prob_exp(1.24, X05), 0.875); // 1 − 2^(−3)
        // P_s(1.24) = 1.24 / (2·sqrt(3·0.3844 + 1.5376)) + 0.5 = 1/√7 + 0.5
        //           = 0.8779644730092272
        assert!(close(
            prob_sigmoid(1.24, X05),
            0.877_964_473_009_227_2,
            1e-15
        ));
        assert!(close(prob_sigmoid(-0.62, X05), 0.25, 1e-15));
        assert_eq!(prob_sigmoid(f64::INFINITY, X05), 1.0);
        assert_eq!(prob_sigmoid(f64::NEG_INFINITY, X05), 0.0);
    }

    #[test]
    fn inverse_fraction_edge_cases() {
        // T' ≤ 0 / NaN: no eval.
        assert_eq!(inverse_fraction(0.0, f64::NAN, X05), None);
        assert_eq!(inverse_fraction(0.0, -0.5, X05), None); // T' = 0 exactly
        // T' = 1 exactly → 0.00 (the `≤ 1` branch): from −x05 a quarter up.
        assert_eq!(inverse_fraction(-X05, 0.25, X05), Some(0.0));
    }

    proptest! {
        #[test]
        fn rr_antisymmetric_and_additive(a in evals(), b in evals(), c in evals(), x05 in x05s()) {
            // IEEE subtraction is exactly antisymmetric.
            prop_assert_eq!(rr(a, b, x05), -rr(b, a, x05));
            let total = total_area(x05);
            let lhs = rr(a, b, x05) + rr(b, c, x05);
            // A few roundings of values ≤ total apart.
            prop_assert!(close(lhs, rr(a, c, x05), 1e-14 * total));
        }

        #[test]
        fn rr_bounded(a in evals(), b in evals(), x05 in x05s()) {
            let total = total_area(x05);
            prop_assert!(rr(a, b, x05).abs() <= total);
            // Strictly below the total as long as both tails are representable next to
            // total (2^(−|x|/x05) ≫ ε); at e.g. ±30 with x05 = 0.05 both C values round
            // to 0 and total, and |rr| = total exactly, as the spec's "≤" allows.
            if a.abs() <= 30.0 * x05 && b.abs() <= 30.0 * x05 {
                prop_assert!(rr(a, b, x05).abs() < total);
            }
        }

        #[test]
        fn prob_exp_properties(a in evals(), b in evals(), x05 in x05s()) {
            prop_assert_eq!(prob_exp(0.0, x05), 0.5);
            prop_assert_eq!(prob_exp(x05, x05), 0.75);
            let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
            prop_assert!(prob_exp(lo, x05) <= prob_exp(hi, x05));
            prop_assert!((0.0..=1.0).contains(&prob_exp(a, x05)));
            // Same quantity as C/total; tolerance relative in the small left tail.
            let p = prob_exp(a, x05);
            let q = cumulative(a, x05) / total_area(x05);
            prop_assert!(close(p, q, 1e-15 + 1e-13 * p), "{} vs {}", p, q);
            prop_assert!(close(prob_exp(-a, x05), 1.0 - p, 1e-15));
        }

        #[test]
        fn prob_sigmoid_properties(a in evals(), b in evals(), x05 in x05s()) {
            prop_assert_eq!(prob_sigmoid(0.0, x05), 0.5);
            prop_assert!(close(prob_sigmoid(x05, x05), 0.75, 1e-15));
            let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
            // Ratio of two rounded values: monotone up to an ulp.
            prop_assert!(prob_sigmoid(lo, x05) <= prob_sigmoid(hi, x05) + 1e-15);
            prop_assert!((0.0..=1.0).contains(&prob_sigmoid(a, x05)));
        }
    }
}
