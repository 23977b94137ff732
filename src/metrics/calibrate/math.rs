//! The pure math of the x_0_5 recalibration: the three estimates of one group
//! of games and their bootstrap intervals.

use std::collections::BTreeMap;

use rayon::prelude::*;

use crate::metrics::relevance::math::prob_exp;

/// One game from one engine's side.
#[derive(Debug, Clone, Default)]
pub struct GameObs {
    pub won: bool,
    /// Own POV result, hollow wins as ½.
    pub result: f64,
    /// Maximum own eval (own-eval scale, cp), if any.
    pub max_own: Option<i64>,
    /// Own evals in cp (mates left out).
    pub evals: Vec<i32>,
}

/// An estimate with its bootstrap interval (pawns); without a value, the
/// reason the method has none.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Estimate {
    pub value: Option<f64>,
    pub lo: Option<f64>,
    pub hi: Option<f64>,
    pub reason: Option<&'static str>,
}

/// Why a method has no estimate (the CSV's `*_reason` columns, the TOML's
/// `[x05_missing]`). A non-positive value is never an estimate of x05.
pub mod reason {
    pub const NO_WINS: &str = "no wins";
    pub const FEW_NON_WON: &str = "fewer non-won games with an own eval than wins";
    pub const NOT_POSITIVE: &str = "not positive";
    pub const NO_NON_WON: &str = "no non-won game with an own eval";
    pub const NO_WON_EVAL: &str = "no won game with an own eval";
    pub const BELOW_HALF: &str = "win rate below 50 % at every maximum";
    pub const NO_EVALS: &str = "no positions with an own eval";
    pub const ONE_GAME: &str = "own evals from one game only (no error estimate)";
    pub const FLAT: &str = "no interior maximum of the likelihood in 0.02-50 pawns";
}

/// W-th largest maximum over non-won games (the rank method), own-eval scale.
pub fn rank_x05(games: &[&GameObs]) -> Option<i64> {
    let w = games.iter().filter(|g| g.won).count();
    let mut maxima: Vec<i64> = games
        .iter()
        .filter(|g| !g.won)
        .filter_map(|g| g.max_own)
        .collect();
    if w == 0 || maxima.len() < w {
        return None;
    }
    maxima.sort_unstable_by(|a, b| b.cmp(a));
    Some(maxima[w - 1])
}

/// Lowest x among the games' maxima with P(win | max ≥ x) ≥ 0.5.
///
/// ```
/// use evallab::metrics::calibrate::{threshold_x05, GameObs};
/// let g = |won, m| GameObs { won, max_own: Some(m), ..Default::default() };
/// // Maxima (won?): 300 W, 175 -, 100 W, 62 W, 62 -, 40 -.
/// // P(≥300)=1, P(≥175)=1/2, P(≥100)=2/3, P(≥62)=3/5, P(≥40)=3/6=1/2 → 40.
/// let games = [g(true, 300), g(false, 175), g(true, 100), g(true, 62), g(false, 62), g(false, 40)];
/// let refs: Vec<_> = games.iter().collect();
/// assert_eq!(threshold_x05(&refs), Some(40));
/// // One more non-won game at 10: P(≥10) = 3/7 < 0.5, so 40 stays the answer.
/// let more = [&games[..], &[g(false, 10)]].concat();
/// let refs: Vec<_> = more.iter().collect();
/// assert_eq!(threshold_x05(&refs), Some(40));
/// ```
pub fn threshold_x05(games: &[&GameObs]) -> Option<i64> {
    let mut obs: Vec<(i64, bool)> = games
        .iter()
        .filter_map(|g| g.max_own.map(|m| (m, g.won)))
        .collect();
    obs.sort_unstable_by_key(|o| std::cmp::Reverse(o.0));
    let (mut wins, mut n, mut best) = (0usize, 0usize, None);
    let mut i = 0;
    while i < obs.len() {
        let x = obs[i].0;
        while i < obs.len() && obs[i].0 == x {
            wins += usize::from(obs[i].1);
            n += 1;
            i += 1;
        }
        if 2 * wins >= n {
            best = Some(x);
        }
    }
    best
}

/// The search range of x05 (pawns): an estimate on its edge is none.
pub const X05_RANGE: (f64, f64) = (0.02, 50.0);

/// The positions with own evals of some games, binned by centipawn
/// (eval in pawns, count, sum of outcomes): their log-likelihood under P(x).
#[derive(Debug, Clone, Default)]
pub struct Positions(Vec<(f64, f64, f64)>);

impl Positions {
    pub fn of(games: &[&GameObs]) -> Self {
        let mut bins: BTreeMap<i32, (f64, f64)> = BTreeMap::new();
        for g in games {
            for &cp in &g.evals {
                let b = bins.entry(cp).or_default();
                b.0 += 1.0;
                b.1 += g.result;
            }
        }
        Positions(
            bins.into_iter()
                .map(|(cp, (n, s))| (f64::from(cp) / 100.0, n, s))
                .collect(),
        )
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// A group's games with their evals' bins found once, for the bootstrap's
/// resamples: [`Positions::of`] a resample without a search per position.
/// The sums are of whole and half points, exact in any order, so a
/// resample's positions are the same numbers as [`Positions::of`] its games.
struct Binned {
    /// The group's distinct evals (cp), ascending: [`Positions::of`]'s order.
    cps: Vec<i32>,
    /// Each game's evals as indices into `cps`.
    of_game: Vec<Vec<u32>>,
}

impl Binned {
    fn new(games: &[&GameObs]) -> Binned {
        let mut cps: Vec<i32> = games.iter().flat_map(|g| g.evals.iter().copied()).collect();
        cps.sort_unstable();
        cps.dedup();
        let of_game = games
            .iter()
            .map(|g| {
                let bin = |cp| cps.binary_search(cp).expect("an eval of the group") as u32;
                g.evals.iter().map(bin).collect()
            })
            .collect();
        Binned { cps, of_game }
    }

    /// The positions of the games `pick` (indices into the games of [`Binned::new`]).
    fn positions(&self, games: &[&GameObs], pick: &[u32]) -> Positions {
        let mut bins = vec![(0.0, 0.0); self.cps.len()];
        for &g in pick {
            let result = games[g as usize].result;
            for &b in &self.of_game[g as usize] {
                bins[b as usize].0 += 1.0;
                bins[b as usize].1 += result;
            }
        }
        Positions(
            self.cps
                .iter()
                .zip(bins)
                .filter(|(_, (n, _))| *n > 0.0)
                .map(|(&cp, (n, s))| (f64::from(cp) / 100.0, n, s))
                .collect(),
        )
    }
}

/// A log-likelihood in θ = ln x05 ([`Positions`], or any function of θ):
/// what the pool's posterior mode maximises.
pub trait LogLik {
    fn loglik(&self, theta: f64) -> f64;
}

impl<F: Fn(f64) -> f64> LogLik for F {
    fn loglik(&self, theta: f64) -> f64 {
        self(theta)
    }
}

/// The log-likelihood of the outcomes at θ = ln x05, each position a
/// Bernoulli trial with a fractional outcome.
impl LogLik for Positions {
    fn loglik(&self, theta: f64) -> f64 {
        let x05 = theta.exp();
        self.0
            .iter()
            .map(|&(x, n, s)| {
                let small = ln_tail(x, x05);
                let (k_small, k_large) = if x <= 0.0 { (s, n - s) } else { (n - s, s) };
                // A side without outcomes adds nothing: no logarithm for it.
                let large = if k_large > 0.0 {
                    k_large * (-small.exp()).ln_1p()
                } else {
                    0.0
                };
                k_small * small + large
            })
            .sum()
    }
}

/// ln 1e-12: the least probability a position's outcome is given.
const LN_FLOOR: f64 = -27.631_021_115_928_547;

/// The logarithm of the smaller of P(x; x05) and 1 − P, ½·2^(−|x|/x05) (P
/// for x ≤ 0), at least ln 1e-12: exact without a `ln`. The larger's is
/// `(-ln_tail.exp()).ln_1p()`. (1 − P by subtraction kept only about 7
/// digits of a confident eval's 2^−30: a likelihood wiggled by 1e-5 over
/// steps of 1e-4 in x05, and the search stopped on a wiggle 1.4e-4 (in
/// ln x05) from the maximum for an engine of 224 games.)
pub fn ln_tail(x: f64, x05: f64) -> f64 {
    ((-x.abs() / x05 - 1.0) * std::f64::consts::LN_2).max(LN_FLOOR)
}

/// Maximum-likelihood x05 (pawns) of P(x) for positions with own evals.
///
/// Returns `None` without positions or when the likelihood has no interior
/// maximum in [`X05_RANGE`] (e.g. every position of won games only).
pub fn ml_x05(games: &[&GameObs]) -> Option<f64> {
    ml_of(&Positions::of(games))
}

/// [`ml_x05`] of the positions.
fn ml_of(positions: &Positions) -> Option<f64> {
    if positions.is_empty() {
        return None;
    }
    let loglik = |t: f64| positions.loglik(t);
    let (lo, hi) = (X05_RANGE.0.ln(), X05_RANGE.1.ln());
    let x = golden_max(loglik, lo, hi, 1e-7);
    // A maximum on the edge of the search range is not an estimate, nor is
    // one that does not beat both edges (a likelihood flat to rounding, as
    // with only wins at positive evals, where P is 1 − 1e-12 everywhere).
    let top = loglik(x);
    let interior = x > lo + 1e-3
        && x < hi - 1e-3
        && top > loglik(lo).max(loglik(hi)) + 1e-9 * top.abs().max(1.0);
    interior.then(|| x.exp())
}

/// P(x; x05) and its derivative in θ = ln x05 at own eval `x` (pawns):
/// with u = x·ln 2 / x05, P = ½·2^(x/x05) and dP/dθ = −u·P for x ≤ 0;
/// P = 1 − ½·2^(−x/x05) and dP/dθ = −u·(1 − P) for x > 0.
fn prob_and_slope(x: f64, x05: f64) -> (f64, f64) {
    let p = prob_exp(x, x05);
    let u = x * std::f64::consts::LN_2 / x05;
    (p, if x <= 0.0 { -u * p } else { -u * (1.0 - p) })
}

/// The cluster-robust (sandwich) error of ln x05 at the estimate `x05`,
/// games as clusters: the positions of a game share its result, so their
/// Bernoulli information would overstate the precision many times.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sandwich {
    /// V = n/(n−1) · Σ_g S_g² / H², with S_g a game's score in θ = ln x05
    /// and H the Fisher information of all positions (fractional outcomes:
    /// the quasi-likelihood's); this is √V.
    pub se_log: f64,
    /// V·H: how many times the positions' own information overstates the
    /// precision (the design effect of the games as clusters).
    pub deff: f64,
}

/// The [`Sandwich`] at `x05`. None with fewer than two games with own
/// evals or without information.
pub fn ml_sandwich(games: &[&GameObs], x05: f64) -> Option<Sandwich> {
    let (mut n, mut info, mut scores) = (0usize, 0.0, 0.0);
    for g in games.iter().filter(|g| !g.evals.is_empty()) {
        n += 1;
        let mut score = 0.0;
        for &cp in &g.evals {
            let (p, slope) = prob_and_slope(f64::from(cp) / 100.0, x05);
            let p = p.clamp(1e-12, 1.0 - 1e-12);
            let v = p * (1.0 - p);
            score += (g.result - p) * slope / v;
            info += slope * slope / v;
        }
        scores += score * score;
    }
    if n < 2 || info <= 0.0 {
        return None;
    }
    let var = n as f64 / (n - 1) as f64 * scores / (info * info);
    (var > 0.0 && var.is_finite()).then(|| Sandwich {
        se_log: var.sqrt(),
        deff: var * info,
    })
}

/// Golden-section search for the maximum of a unimodal function on [a, b].
pub fn golden_max(f: impl Fn(f64) -> f64, mut a: f64, mut b: f64, tol: f64) -> f64 {
    let r = (5f64.sqrt() - 1.0) / 2.0;
    let mut c = b - r * (b - a);
    let mut d = a + r * (b - a);
    let (mut fc, mut fd) = (f(c), f(d));
    while b - a > tol {
        if fc > fd {
            b = d;
            d = c;
            fd = fc;
            c = b - r * (b - a);
            fc = f(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + r * (b - a);
            fd = f(d);
        }
    }
    (a + b) / 2.0
}

/// SplitMix64: a tiny, well-mixed, reproducible generator for the bootstrap.
#[derive(Debug, Clone)]
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform index below `n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }
}

/// The three estimates of one group.
#[derive(Debug, Clone, Default)]
pub struct Calibration {
    pub games: usize,
    /// Games with at least one own eval (the ml's clusters).
    pub games_with_evals: usize,
    pub positions: usize,
    pub rank: Estimate,
    pub threshold: Estimate,
    pub ml: Estimate,
    /// The sandwich error of ln x05 at the ml estimate ([`ml_sandwich`]).
    pub ml_sandwich: Option<Sandwich>,
}

/// Why rank has no estimate at `value` (None: it has one).
fn rank_reason(games: &[&GameObs], value: Option<i64>) -> Option<&'static str> {
    match value {
        Some(v) if v > 0 => None,
        Some(_) => Some(reason::NOT_POSITIVE),
        None if !games.iter().any(|g| g.won) => Some(reason::NO_WINS),
        None => Some(reason::FEW_NON_WON),
    }
}

/// Why threshold has no estimate at `value` (None: it has one).
fn threshold_reason(games: &[&GameObs], value: Option<i64>) -> Option<&'static str> {
    let with_max = |won: bool| games.iter().any(|g| g.won == won && g.max_own.is_some());
    if !games.iter().any(|g| g.max_own.is_some()) {
        Some(reason::NO_EVALS)
    } else if !with_max(true) {
        Some(if games.iter().any(|g| g.won) {
            reason::NO_WON_EVAL
        } else {
            reason::NO_WINS
        })
    } else if !with_max(false) {
        // Every maximum is a win's: the lowest one says nothing of x05.
        Some(reason::NO_NON_WON)
    } else {
        match value {
            Some(v) if v > 0 => None,
            Some(_) => Some(reason::NOT_POSITIVE),
            None => Some(reason::BELOW_HALF),
        }
    }
}

fn pawns(cp: i64) -> f64 {
    cp as f64 / 100.0
}

/// Estimates and bootstrap intervals (2.5 % and 97.5 % percentiles over
/// `bootstrap` resamples of the games; none when `bootstrap` is 0).
pub fn calibrate_group(games: &[GameObs], bootstrap: usize, seed: u64) -> Calibration {
    let all: Vec<&GameObs> = games.iter().collect();
    // Centipawns in (the reasons read them), pawns out.
    let estimate = |rank: Option<i64>, threshold: Option<i64>, positions: &Positions| {
        [rank.map(pawns), threshold.map(pawns), ml_of(positions)]
    };
    let (rank, threshold) = (rank_x05(&all), threshold_x05(&all));
    let point = estimate(rank, threshold, &Positions::of(&all));
    let ml_se = point[2].and_then(|x| ml_sandwich(&all, x));
    let reasons = [
        rank_reason(&all, rank),
        threshold_reason(&all, threshold),
        if all.iter().all(|g| g.evals.is_empty()) {
            Some(reason::NO_EVALS)
        } else if point[2].is_none() {
            Some(reason::FLAT)
        } else if ml_se.is_none() {
            Some(reason::ONE_GAME)
        } else {
            None
        },
    ];
    let mut samples: [Vec<f64>; 3] = Default::default();
    let binned = Binned::new(&all);
    let mut rng = SplitMix64(seed);
    // The resamples drawn in order, a block at a time, and estimated in
    // parallel: the same samples whatever the number of threads, and at
    // most a block of draws in memory.
    const BLOCK: usize = 64;
    let mut left = if all.is_empty() { 0 } else { bootstrap };
    while left > 0 {
        let n = left.min(BLOCK);
        left -= n;
        let picks: Vec<Vec<u32>> = (0..n)
            .map(|_| {
                (0..all.len())
                    .map(|_| rng.below(all.len()) as u32)
                    .collect()
            })
            .collect();
        let block: Vec<[Option<f64>; 3]> = picks
            .par_iter()
            .map(|p| {
                let gs: Vec<&GameObs> = p.iter().map(|&i| all[i as usize]).collect();
                estimate(
                    rank_x05(&gs),
                    threshold_x05(&gs),
                    &binned.positions(&all, p),
                )
            })
            .collect();
        for est in block {
            for (s, v) in samples.iter_mut().zip(est) {
                s.extend(v);
            }
        }
    }
    let mut est = |i: usize| {
        if reasons[i].is_some() {
            return Estimate {
                reason: reasons[i],
                ..Estimate::default()
            };
        }
        let s = &mut samples[i];
        s.sort_unstable_by(f64::total_cmp);
        let q = |p: f64| (!s.is_empty()).then(|| s[((s.len() - 1) as f64 * p).round() as usize]);
        Estimate {
            value: point[i],
            lo: q(0.025),
            hi: q(0.975),
            reason: None,
        }
    };
    Calibration {
        games: games.len(),
        games_with_evals: games.iter().filter(|g| !g.evals.is_empty()).count(),
        positions: games.iter().map(|g| g.evals.len()).sum(),
        rank: est(0),
        threshold: est(1),
        ml: est(2),
        ml_sandwich: ml_se,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(won: bool, result: f64, max: Option<i64>, evals: &[i32]) -> GameObs {
        GameObs {
            won,
            result,
            max_own: max,
            evals: evals.to_vec(),
        }
    }

    #[test]
    fn rank_matches_the_spec_rule() {
        let games = [
            g(true, 1.0, Some(300), &[]),
            g(false, 0.5, Some(175), &[]),
            g(false, 0.5, Some(62), &[]),
            g(false, 0.0, Some(40), &[]),
            g(true, 1.0, Some(100), &[]),
        ];
        let refs: Vec<_> = games.iter().collect();
        // W = 2, non-won maxima 175, 62, 40 → 62.
        assert_eq!(rank_x05(&refs), Some(62));
        assert_eq!(rank_x05(&refs[..2]), Some(175));
        assert_eq!(rank_x05(&refs[1..4]), None);
    }

    /// Positions drawn exactly from P(x; 0.8): the likelihood is maximal at the
    /// true x05 when outcomes are the expected fractions.
    #[test]
    fn ml_recovers_x05_from_expected_outcomes() {
        let games: Vec<GameObs> = (-300..=300)
            .step_by(5)
            .map(|cp| g(false, prob_exp(f64::from(cp) / 100.0, 0.8), None, &[cp]))
            .collect();
        let refs: Vec<_> = games.iter().collect();
        let x = ml_x05(&refs).unwrap();
        assert!((x - 0.8).abs() < 1e-4, "{x}");
        // Draws at 0.00 carry no information (P(0) = 0.5 for every x05): the
        // likelihood is flat, the search ends on an edge, and there is no estimate.
        let flat = [g(false, 0.5, None, &[0, 0])];
        assert_eq!(ml_x05(&flat.iter().collect::<Vec<_>>()), None);
    }

    /// A confident position's log-likelihood is exact (x05 = 1): lost at
    /// +30.3 pawns, ln(1 − P) = ln(½·2^−30.3) = −31.3·ln 2, where 1 − P by
    /// subtraction misses it by about 1e-7; won there ln_1p of minus that
    /// probability; at 0.00 each side −ln 2; beyond the floor ln 1e-12.
    #[test]
    fn the_likelihood_is_exact_at_confident_evals() {
        use std::f64::consts::LN_2;
        let ll = |x: f64, n: f64, s: f64| Positions(vec![(x, n, s)]).loglik(0.0);
        let tail = (-30.3 - 1.0) * LN_2;
        assert_eq!(ll(30.3, 1.0, 0.0), tail);
        assert_eq!(ll(-30.3, 1.0, 1.0), tail);
        assert_eq!(ll(30.3, 1.0, 1.0), (-tail.exp()).ln_1p());
        assert!((ll(0.0, 2.0, 1.0) + 2.0 * LN_2).abs() < 1e-15);
        assert_eq!(ll(90.0, 1.0, 0.0), 1e-12f64.ln());
        assert_eq!(LN_FLOOR, 1e-12f64.ln());
        let by_subtraction = (1.0 - prob_exp(30.3, 1.0)).ln();
        assert!(
            (by_subtraction - tail).abs() > 1e-9,
            "{by_subtraction} {tail}"
        );
    }

    #[test]
    fn bootstrap_is_reproducible_and_brackets_the_estimate() {
        let games: Vec<GameObs> = (0..60)
            .map(|i| {
                let won = i % 3 == 0;
                let m = 20 + (i * 7) % 150;
                g(
                    won,
                    if won { 1.0 } else { 0.5 },
                    Some(m),
                    &[m as i32, (m / 2) as i32],
                )
            })
            .collect();
        let a = calibrate_group(&games, 200, 7);
        // Golden values from an independent Python re-implementation of the
        // rank and threshold methods and of this resampling (SplitMix64, seed 7,
        // 200 resamples, percentiles at round((n − 1)·p)).
        let triple = |e: Estimate| (e.value.unwrap(), e.lo.unwrap(), e.hi.unwrap());
        assert_eq!(triple(a.rank), (0.9, 0.34, 1.26));
        assert_eq!(triple(a.threshold), (1.43, 0.35, 1.67));
        let b = calibrate_group(&games, 200, 7);
        assert_eq!(a.rank, b.rank);
        assert_eq!(a.ml, b.ml);
        for e in [a.rank, a.threshold] {
            let (v, lo, hi) = (e.value.unwrap(), e.lo.unwrap(), e.hi.unwrap());
            assert!(lo <= v && v <= hi, "{lo} {v} {hi}");
        }
        let c = calibrate_group(&games, 200, 8);
        assert_ne!(
            (a.rank.lo, a.rank.hi, a.ml.lo),
            (c.rank.lo, c.rank.hi, c.ml.lo)
        );
        assert_eq!(calibrate_group(&games, 0, 1).rank.lo, None);
        // The resamples are estimated in parallel, drawn in order: the same
        // intervals on one thread as on three (150 resamples: blocks of 64,
        // 64 and 22).
        let on = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let c = pool.install(|| calibrate_group(&games, 150, 7));
            [c.rank, c.threshold, c.ml].map(|e| (e.lo, e.hi))
        };
        assert_eq!(on(1), on(3));
    }

    /// A resample's positions from the group's bins are Positions::of its
    /// games, repeats included (the same bins, counts and sums, bit for bit).
    #[test]
    fn binned_resamples_are_positions_of_their_games() {
        let games = [
            g(true, 1.0, Some(300), &[30, -12, 30, 250]),
            g(false, 0.5, Some(40), &[-12, 0, 40]),
            g(false, 0.0, Some(5), &[]),
            g(false, 0.0, None, &[-300, 0, 5]),
        ];
        let all: Vec<&GameObs> = games.iter().collect();
        let binned = Binned::new(&all);
        for pick in [
            vec![0u32, 1, 2, 3],
            vec![3, 3, 1],
            vec![2],
            vec![1, 0, 1, 1],
        ] {
            let gs: Vec<&GameObs> = pick.iter().map(|&i| all[i as usize]).collect();
            assert_eq!(
                binned.positions(&all, &pick).0,
                Positions::of(&gs).0,
                "{pick:?}"
            );
        }
        // Games 3, 3 and 1: -300 twice (lost), -12 once (drawn), 0 three
        // times (2 lost, 1 drawn), 5 twice (lost), 40 once (drawn).
        let p = binned.positions(&all, &[3, 3, 1]).0;
        assert_eq!(
            p,
            [
                (-3.0, 2.0, 0.0),
                (-0.12, 1.0, 0.5),
                (0.0, 3.0, 0.5),
                (0.05, 2.0, 0.0),
                (0.4, 1.0, 0.5)
            ]
        );
    }

    #[test]
    fn each_method_says_why_it_has_no_estimate() {
        let none = |games: &[GameObs]| {
            let c = calibrate_group(games, 10, 1);
            (c.rank, c.threshold, c.ml)
        };
        // One win at +3.00 and one draw whose best was −0.19: rank's W-th
        // largest non-won maximum is −0.19, threshold's 50 % point too.
        let (r, t, m) = none(&[
            g(true, 1.0, Some(300), &[100, 300]),
            g(false, 0.5, Some(-19), &[-19, -19]),
        ]);
        assert_eq!(
            (r.value, r.lo, r.reason),
            (None, None, Some(reason::NOT_POSITIVE))
        );
        assert_eq!((t.value, t.reason), (None, Some(reason::NOT_POSITIVE)));
        assert!(m.value.is_some() && m.reason.is_none(), "{m:?}");
        // Only wins: nothing to set them against.
        let wins = [
            g(true, 1.0, Some(250), &[250]),
            g(true, 1.0, Some(90), &[90]),
        ];
        let (r, t, m) = none(&wins);
        assert_eq!(r.reason, Some(reason::FEW_NON_WON));
        assert_eq!(t.reason, Some(reason::NO_NON_WON));
        assert_eq!(m.reason, Some(reason::FLAT));
        // Wins without evals, draws at 0.00.
        let (r, t, m) = none(&[
            g(true, 1.0, None, &[]),
            g(false, 0.5, Some(0), &[0, 0]),
            g(false, 0.5, Some(0), &[0]),
        ]);
        assert_eq!(r.reason, Some(reason::NOT_POSITIVE));
        assert_eq!(t.reason, Some(reason::NO_WON_EVAL));
        assert_eq!(m.reason, Some(reason::FLAT));
        let (r, t, m) = none(&[g(false, 0.5, None, &[])]);
        assert_eq!(
            (r.reason, t.reason, m.reason),
            (
                Some(reason::NO_WINS),
                Some(reason::NO_EVALS),
                Some(reason::NO_EVALS)
            )
        );
        // ml from one game has no error estimate, so no estimate.
        let one = [g(true, 1.0, Some(80), &[80, -40, 20, 60])];
        assert_eq!(none(&one).2.reason, Some(reason::ONE_GAME));
    }

    /// The sandwich on a hand-made example: two games, one position each, at
    /// x = x05 (P = 3/4, dP/dθ = −ln 2 · 1/4): a win and a draw. Scores
    /// (s − P)·g/(P(1 − P)) = (1/4)(−ln2/4)/(3/16) = −ln2/3 and
    /// (−1/4)(−ln2/4)/(3/16) = +ln2/3; information 2·(ln2/4)²/(3/16) =
    /// 2 ln²2/3; V = 2/1 · (2 ln²2/9) / (4 ln⁴2/9) = 1/ln²2.
    #[test]
    fn sandwich_error_by_hand() {
        let games = [
            g(true, 1.0, Some(62), &[62]),
            g(false, 0.5, Some(62), &[62]),
        ];
        let refs: Vec<_> = games.iter().collect();
        let s = ml_sandwich(&refs, 0.62).unwrap();
        let ln2 = std::f64::consts::LN_2;
        assert!((s.se_log - 1.0 / ln2).abs() < 1e-12, "{s:?}");
        // V·H = (1/ln²2)·(2 ln²2/3).
        assert!((s.deff - 2.0 / 3.0).abs() < 1e-12, "{s:?}");
        assert_eq!(ml_sandwich(&refs[..1], 0.62), None);
    }

    #[test]
    fn splitmix_matches_the_reference_sequence() {
        // The published SplitMix64 outputs for seed 1234567.
        let mut r = SplitMix64(1_234_567);
        let first: Vec<u64> = (0..3).map(|_| r.next_u64()).collect();
        assert_eq!(
            first,
            [
                6_457_827_717_110_365_317,
                3_203_168_211_198_807_973,
                9_817_491_932_198_370_423
            ]
        );
    }

    #[test]
    fn splitmix_is_uniform_enough() {
        let mut r = SplitMix64(1);
        let mut counts = [0usize; 4];
        for _ in 0..40_000 {
            counts[r.below(4)] += 1;
        }
        assert!(
            counts.iter().all(|&c| (9_500..10_500).contains(&c)),
            "{counts:?}"
        );
    }
}
