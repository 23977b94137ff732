//! The per-move arithmetic of the agreement statistics (lichess's win% and
//! accuracy), as plain functions; [`super::query`] is the same in polars.

/// lichess's logistic constant: win% = 50 + 50·(2/(1+e^(−k·cp)) − 1).
pub const WIN_K: f64 = 0.003_682_08;

/// Centipawns are clamped to ±this before win% and losses (lichess's ceiling;
/// a mate counts as this with its sign).
pub const CP_CEILING: f64 = 1000.0;

/// Win% of the side whose eval is `cp` (clamped to ±[`CP_CEILING`]).
///
/// ```
/// use evallab::metrics::agreement::math::win_percent;
/// assert_eq!(win_percent(0.0), 50.0);
/// assert!((win_percent(100.0) - 59.1).abs() < 0.05);
/// assert_eq!(win_percent(5000.0), win_percent(1000.0));
/// ```
pub fn win_percent(cp: f64) -> f64 {
    let cp = cp.clamp(-CP_CEILING, CP_CEILING);
    50.0 + 50.0 * (2.0 / (1.0 + (-WIN_K * cp).exp()) - 1.0)
}

/// lichess's move accuracy from the mover's win% before the move (the best
/// line) and after it (the played move), with lichess's +1 "uncertainty
/// bonus", clamped to 0..100.
///
/// ```
/// use evallab::metrics::agreement::math::accuracy;
/// assert_eq!(accuracy(60.0, 60.0), 100.0);
/// assert!((accuracy(60.0, 50.0) - 64.580).abs() < 0.001);
/// ```
pub fn accuracy(win_before: f64, win_after: f64) -> f64 {
    let raw = 103.166_810_071_164_9 * (-0.043_544_153_867_539_51 * (win_before - win_after)).exp()
        - 3.166_924_740_191_411;
    (raw + 1.0).clamp(0.0, 100.0)
}

/// Pearson's correlation from the sums n, Σx, Σy, Σx², Σy², Σxy (`None`
/// when either side has no variance).
///
/// ```
/// use evallab::metrics::agreement::math::pearson;
/// // y = 2x + 1 over x = 1, 2, 3.
/// let r = pearson(3.0, 6.0, 15.0, 14.0, 83.0, 34.0).unwrap();
/// assert!((r - 1.0).abs() < 1e-12);
/// ```
pub fn pearson(n: f64, sx: f64, sy: f64, sxx: f64, syy: f64, sxy: f64) -> Option<f64> {
    let vx = n * sxx - sx * sx;
    let vy = n * syy - sy * sy;
    (vx > 0.0 && vy > 0.0).then(|| (n * sxy - sx * sy) / (vx * vy).sqrt())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn win_percent_is_symmetric_and_clamped() {
        for cp in [0.0, 35.0, 250.0, 999.0, 2000.0] {
            assert!((win_percent(cp) + win_percent(-cp) - 100.0).abs() < 1e-9);
        }
        // By hand: 2/(1+e^-3.68208) − 1 = 0.95090, so 97.545%.
        assert!((win_percent(1000.0) - 97.545).abs() < 0.001);
    }

    #[test]
    fn accuracy_falls_with_the_win_percent_lost() {
        // By hand: 103.16681·e^(−0.0435442·20) − 3.16692 + 1 = 41.017.
        assert!((accuracy(70.0, 50.0) - 41.017).abs() < 0.001);
        assert_eq!(accuracy(50.0, 70.0), 100.0);
        assert_eq!(accuracy(100.0, 0.0), 0.0);
    }
}
