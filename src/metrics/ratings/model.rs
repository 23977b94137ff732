//! Ordo's game model (docs/definitions/ratings.md, R1–R3): the expected score
//! is logistic in the rating difference, and the draw probability follows
//! from the expected score and the draw rate between equal opponents.

/// Probabilities below this are clamped (R3): a simulated game can always
/// end either way, and `ln` stays finite.
const MIN_PROB: f64 = 1e-32;

/// The logistic slope for a scale: a difference of `scale` Elo expects 76 %
/// (`ordo -z`, default 202).
pub fn beta(scale: f64) -> f64 {
    (0.76f64 / 0.24).ln() / scale
}

/// The expected score of a side `diff` Elo stronger (white advantage included).
pub fn expected(diff: f64, beta: f64) -> f64 {
    1.0 / (1.0 + (-diff * beta).exp())
}

/// The draw probability at expected score `p` when equal opponents draw at
/// `d0`: the root of `d² (1 − 2 d0)/d0² + 2 d + 4 p(p − 1) = 0` (R2), i.e.
/// `d = ν √(win · loss)` with `ν = 2 d0/(1 − d0)`. Written as
/// `−c/(1 + √(1 − a c))`, which is stable at `d0 = 1/2` (a = 0).
pub fn draw_prob(p: f64, d0: f64) -> f64 {
    if d0 <= 0.0 {
        return 0.0;
    }
    let a = (1.0 - 2.0 * d0) / (d0 * d0);
    let c = 4.0 * p * (p - 1.0);
    -c / (1.0 + (1.0 - a * c).max(0.0).sqrt())
}

/// (win, draw, loss) for a side `diff` Elo stronger, computed on the favoured
/// side's terms and mirrored, with the smallest probabilities clamped (R3).
pub fn wdl(diff: f64, d0: f64, beta: f64) -> (f64, f64, f64) {
    let p = expected(diff.abs(), beta);
    let draw = draw_prob(p, d0);
    let lose = 1.0 - p - draw / 2.0;
    let win = 1.0 - lose - draw;
    let (lose, draw) = (lose.max(MIN_PROB), draw.max(MIN_PROB));
    if diff < 0.0 {
        (lose, draw, win)
    } else {
        (win, draw, lose)
    }
}

/// The standard normal CDF (Abramowitz–Stegun 7.1.26 refined: erf by a
/// continued series is not needed; |error| < 1.5e-7, far below print precision).
pub fn normal_cdf(z: f64) -> f64 {
    0.5 * erfc(-z / std::f64::consts::SQRT_2)
}

/// The complementary error function (Numerical Recipes' erfcc, |rel. error| < 1.2e-7).
fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let r = t
        * (-z * z - 1.265_512_23
            + t * (1.000_023_68
                + t * (0.374_091_96
                    + t * (0.096_784_18
                        + t * (-0.186_288_06
                            + t * (0.278_868_07
                                + t * (-1.135_203_98
                                    + t * (1.488_515_87
                                        + t * (-0.822_152_23 + t * 0.170_872_77)))))))))
            .exp();
    if x >= 0.0 { r } else { 2.0 - r }
}

/// The two-sided normal quantile for a confidence in (0, 1): 0.95 → 1.96.
pub fn confidence_z(confidence: f64) -> f64 {
    let (mut lo, mut hi) = (0.0, 10.0);
    for _ in 0..100 {
        let mid = (lo + hi) / 2.0;
        if 2.0 * normal_cdf(mid) - 1.0 < confidence {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    (lo + hi) / 2.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scale_202_expects_76_percent() {
        let b = beta(202.0);
        assert!((expected(202.0, b) - 0.76).abs() < 1e-12);
        assert_eq!(expected(0.0, b), 0.5);
        // Ordo's INVBETA: 175.25 Elo per logit at the default scale.
        assert!((1.0 / b - 175.25).abs() < 0.01, "{}", 1.0 / b);
    }

    #[test]
    fn draws_between_equals_are_the_draw_rate() {
        let b = beta(202.0);
        for d0 in [0.1, 0.3, 0.5, 0.6, 0.9] {
            let (w, d, l) = wdl(0.0, d0, b);
            assert!((d - d0).abs() < 1e-12, "{d0}: {d}");
            assert!((w - l).abs() < 1e-12);
        }
        // d0 = 1/2: d = 2 p (1 − p) (a = 0): at p = 0.76, 0.3648.
        assert!((draw_prob(0.76, 0.5) - 0.3648).abs() < 1e-12);
        // d = ν √(win · loss), ν = 2 d0/(1 − d0), at any p.
        let (w, d, l) = wdl(150.0, 0.6, b);
        assert!((w + d + l - 1.0).abs() < 1e-12);
        assert!((d - 3.0 * (w * l).sqrt()).abs() < 1e-12);
        assert!((w + d / 2.0 - expected(150.0, b)).abs() < 1e-12);
        let (w2, d2, l2) = wdl(-150.0, 0.6, b);
        assert_eq!((w2, d2, l2), (l, d, w));
    }

    #[test]
    fn normal_quantiles() {
        assert!((confidence_z(0.95) - 1.959_964).abs() < 1e-5);
        assert!((normal_cdf(1.0) - 0.841_344_7).abs() < 1e-6);
        assert!((normal_cdf(-2.0) - 0.022_750_1).abs() < 1e-6);
    }
}
