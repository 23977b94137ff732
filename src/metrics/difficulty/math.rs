//! Rank correlations and their bootstrap intervals, on plain values.
//!
//! Spearman's rho is Pearson's correlation of the average ranks (ties share
//! the mean of their ranks), Kendall's tau-b counts concordant and discordant
//! pairs with the tie correction of both variables (in O(n log n)); both as scipy's
//! `spearmanr` and `kendalltau` (the tests hold scipy's numbers). Intervals
//! are bootstrap percentiles (2.5 %, 97.5 %) over resamples of the pairs.

use crate::metrics::calibrate::math::SplitMix64;

/// Average ranks (1-based; ties share the mean of their ranks).
#[must_use]
pub fn ranks(x: &[f64]) -> Vec<f64> {
    let mut order: Vec<usize> = (0..x.len()).collect();
    order.sort_by(|&a, &b| x[a].total_cmp(&x[b]));
    let mut out = vec![0.0; x.len()];
    let mut i = 0;
    while i < order.len() {
        let mut j = i;
        while j + 1 < order.len() && x[order[j + 1]] == x[order[i]] {
            j += 1;
        }
        // Ranks i+1 ..= j+1 share their mean.
        let r = (i + j) as f64 / 2.0 + 1.0;
        for &k in &order[i..=j] {
            out[k] = r;
        }
        i = j + 1;
    }
    out
}

/// Pearson's correlation; `None` when either variable is constant or n < 2.
#[must_use]
pub fn pearson(x: &[f64], y: &[f64]) -> Option<f64> {
    let n = x.len() as f64;
    if x.len() < 2 {
        return None;
    }
    let (mx, my) = (x.iter().sum::<f64>() / n, y.iter().sum::<f64>() / n);
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (a, b) in x.iter().zip(y) {
        sxy += (a - mx) * (b - my);
        sxx += (a - mx) * (a - mx);
        syy += (b - my) * (b - my);
    }
    (sxx > 0.0 && syy > 0.0).then(|| sxy / (sxx * syy).sqrt())
}

/// Spearman's rho; `None` when either variable is constant.
#[must_use]
pub fn spearman(x: &[f64], y: &[f64]) -> Option<f64> {
    pearson(&ranks(x), &ranks(y))
}

/// Kendall's tau-b (ties in either variable corrected); `None` when either
/// variable is constant. Knight's O(n log n) algorithm, as scipy's: sort by
/// (x, y), count the inversions of y (the discordant pairs) while merge
/// sorting it, and the tied pairs in x, in y and in both.
#[must_use]
pub fn kendall_tau_b(x: &[f64], y: &[f64]) -> Option<f64> {
    let n = x.len();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| x[a].total_cmp(&x[b]).then(y[a].total_cmp(&y[b])));
    let xs: Vec<f64> = order.iter().map(|&i| x[i]).collect();
    let mut ys: Vec<f64> = order.iter().map(|&i| y[i]).collect();
    let joint: Vec<(f64, f64)> = xs.iter().copied().zip(ys.iter().copied()).collect();
    let (tie_x, tie_xy) = (tied_pairs(&xs), tied_pairs(&joint));
    let discordant = inversions(&mut ys);
    let tie_y = tied_pairs(&ys);
    let total = (n as u64) * (n as u64).saturating_sub(1) / 2;
    let d = ((total - tie_x) as f64 * (total - tie_y) as f64).sqrt();
    let con_minus_dis =
        total as f64 - tie_x as f64 - tie_y as f64 + tie_xy as f64 - 2.0 * discordant as f64;
    (d > 0.0).then(|| con_minus_dis / d)
}

/// Pairs within the runs of equal values of a sorted sequence.
fn tied_pairs<T: PartialEq>(sorted: &[T]) -> u64 {
    let (mut total, mut run) = (0u64, 1u64);
    for w in sorted.windows(2) {
        if w[0] == w[1] {
            run += 1;
        } else {
            total += run * (run - 1) / 2;
            run = 1;
        }
    }
    total + run * (run - 1) / 2
}

/// Sorts `v` (merge sort) and returns its strict inversions: pairs i < j
/// with v[i] > v[j].
fn inversions(v: &mut [f64]) -> u64 {
    let n = v.len();
    if n < 2 {
        return 0;
    }
    let mid = n / 2;
    let mut count = inversions(&mut v[..mid]) + inversions(&mut v[mid..]);
    let mut merged = Vec::with_capacity(n);
    let (mut i, mut j) = (0, mid);
    while i < mid && j < n {
        // Equal values are no inversion: the left one goes first.
        if v[i] <= v[j] {
            merged.push(v[i]);
            i += 1;
        } else {
            merged.push(v[j]);
            count += (mid - i) as u64;
            j += 1;
        }
    }
    merged.extend_from_slice(&v[i..mid]);
    merged.extend_from_slice(&v[j..n]);
    v.copy_from_slice(&merged);
    count
}

/// A statistic with its bootstrap percentile interval.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Estimate {
    pub value: Option<f64>,
    pub lo: Option<f64>,
    pub hi: Option<f64>,
}

/// The 2.5 % and 97.5 % percentiles of `samples` (sorted here; nearest rank).
#[must_use]
pub fn percentile_interval(samples: &mut [f64]) -> Option<(f64, f64)> {
    if samples.is_empty() {
        return None;
    }
    samples.sort_unstable_by(f64::total_cmp);
    let at = |q: f64| samples[(q * (samples.len() - 1) as f64).round() as usize];
    Some((at(0.025), at(0.975)))
}

/// Spearman's rho and Kendall's tau-b of the pairs, each with its bootstrap
/// interval over `resamples` resamples of the pairs (`seed`: the same
/// resamples for both). A resample where a variable is constant is skipped.
#[must_use]
pub fn correlations(x: &[f64], y: &[f64], resamples: usize, seed: u64) -> [Estimate; 2] {
    let stats = |a: &[f64], b: &[f64]| [spearman(a, b), kendall_tau_b(a, b)];
    let point = stats(x, y);
    let mut samples: [Vec<f64>; 2] = Default::default();
    let mut rng = SplitMix64(seed);
    let (mut bx, mut by) = (vec![0.0; x.len()], vec![0.0; y.len()]);
    for _ in 0..if x.is_empty() { 0 } else { resamples } {
        for k in 0..x.len() {
            let i = rng.below(x.len());
            (bx[k], by[k]) = (x[i], y[i]);
        }
        for (s, v) in samples.iter_mut().zip(stats(&bx, &by)) {
            s.extend(v);
        }
    }
    [0, 1].map(|i| {
        let iv = percentile_interval(&mut samples[i]);
        Estimate {
            value: point[i],
            lo: iv.map(|v| v.0),
            hi: iv.map(|v| v.1),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Tau-b by definition, pair by pair: the reference of the fast one.
    fn tau_b_pairwise(x: &[f64], y: &[f64]) -> Option<f64> {
        let (mut conc, mut disc, mut tie_x, mut tie_y) = (0i64, 0i64, 0i64, 0i64);
        for i in 0..x.len() {
            for j in i + 1..x.len() {
                let dx = x[i].total_cmp(&x[j]) as i64;
                let dy = y[i].total_cmp(&y[j]) as i64;
                match (dx, dy) {
                    (0, 0) => {}
                    (0, _) => tie_x += 1,
                    (_, 0) => tie_y += 1,
                    _ if dx == dy => conc += 1,
                    _ => disc += 1,
                }
            }
        }
        let d = ((conc + disc + tie_x) as f64 * (conc + disc + tie_y) as f64).sqrt();
        (d > 0.0).then(|| (conc - disc) as f64 / d)
    }

    /// Knight's algorithm equals the pairwise definition, ties and all.
    #[test]
    fn tau_b_fast_equals_pairwise() {
        let mut rng = SplitMix64(9);
        for n in [0, 1, 2, 3, 10, 57, 300] {
            for levels in [2, 5, 1000] {
                let x: Vec<f64> = (0..n).map(|_| rng.below(levels) as f64).collect();
                let y: Vec<f64> = (0..n).map(|_| rng.below(levels) as f64).collect();
                let (a, b) = (kendall_tau_b(&x, &y), tau_b_pairwise(&x, &y));
                match (a, b) {
                    (Some(a), Some(b)) => assert!((a - b).abs() < 1e-12, "n {n}: {a} {b}"),
                    _ => assert_eq!(a, b, "n {n}"),
                }
            }
        }
        let mut v = [3.0, 1.0, 2.0, 2.0, 0.0];
        // (3,1) (3,2) (3,2) (3,0) (1,0) (2,0) (2,0)
        assert_eq!(inversions(&mut v), 7);
        assert_eq!(v, [0.0, 1.0, 2.0, 2.0, 3.0]);
    }

    #[test]
    fn ranks_share_ties() {
        assert_eq!(
            ranks(&[10.0, 20.0, 20.0, 5.0, 20.0]),
            [2.0, 4.0, 4.0, 1.0, 4.0]
        );
    }

    /// scipy 1.x: `spearmanr(x, y)[0]`, `kendalltau(x, y)[0]` (tau-b).
    #[test]
    fn against_scipy() {
        let x = [1.0, 2.0, 2.0, 3.0, 5.0, 4.0, 7.0, 7.0, 7.0, 10.0];
        let y = [2.0, 1.0, 4.0, 3.0, 3.0, 6.0, 5.0, 9.0, 8.0, 8.0];
        assert!((spearman(&x, &y).unwrap() - 0.8111805000620896).abs() < 1e-12);
        assert!((kendall_tau_b(&x, &y).unwrap() - 0.6430394361098802).abs() < 1e-12);
        let x = [0.1, 0.4, 0.35, 0.8, 0.9, 0.2];
        let y = [1500.0, 1200.0, 1300.0, 900.0, 1000.0, 1400.0];
        assert!((spearman(&x, &y).unwrap() + 0.942857142857143).abs() < 1e-12);
        assert!((kendall_tau_b(&x, &y).unwrap() + 0.8666666666666666).abs() < 1e-12);
    }

    /// By hand: x = 1 2 3, y = 1 3 2: d² = 0 + 1 + 1, rho = 1 − 6·2/(3·8) =
    /// 0.5; pairs (12 +, 13 +, 23 −): tau = 1/3.
    #[test]
    fn by_hand() {
        let (x, y) = ([1.0, 2.0, 3.0], [1.0, 3.0, 2.0]);
        assert!((spearman(&x, &y).unwrap() - 0.5).abs() < 1e-12);
        assert!((kendall_tau_b(&x, &y).unwrap() - 1.0 / 3.0).abs() < 1e-12);
        assert_eq!(spearman(&[1.0, 1.0], &[1.0, 2.0]), None);
        assert_eq!(kendall_tau_b(&[1.0, 1.0], &[1.0, 2.0]), None);
    }

    /// A perfect relation has the degenerate interval [1, 1]; a noisy one an
    /// interval around its estimate; the same seed, the same interval.
    #[test]
    fn bootstrap_intervals() {
        let x: Vec<f64> = (0..50).map(f64::from).collect();
        let [rho, tau] = correlations(&x, &x, 200, 7);
        assert_eq!(
            (rho.value, rho.lo, rho.hi),
            (Some(1.0), Some(1.0), Some(1.0))
        );
        assert_eq!((tau.lo, tau.hi), (Some(1.0), Some(1.0)));
        let mut rng = SplitMix64(3);
        let y: Vec<f64> = x.iter().map(|v| v + rng.below(40) as f64).collect();
        let [rho, tau] = correlations(&x, &y, 300, 11);
        for e in [rho, tau] {
            let (v, lo, hi) = (e.value.unwrap(), e.lo.unwrap(), e.hi.unwrap());
            assert!(lo < v && v < hi && hi <= 1.0, "{e:?}");
        }
        assert_eq!(correlations(&x, &y, 300, 11), [rho, tau]);
        assert_eq!(correlations(&[], &[], 10, 1)[0], Estimate::default());
    }
}
