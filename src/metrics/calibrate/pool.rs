//! The pooled x05: empirical Bayes shrinkage of each group's ml estimate
//! toward the mean of all groups of the run, by its precision.
//!
//! On θ = ln x05 (x05 is positive and its error is multiplicative), each
//! group's θ̂ᵢ has the sandwich variance sᵢ² of [`super::ml_sandwich`]; the
//! groups' true θᵢ are taken as drawn from N(μ, τ²). μ and τ² come from
//! DerSimonian and Laird's moment estimator: closed form, no iteration, and
//! with the hundred-odd engines of an archive its small-sample weakness
//! (τ² from few groups) does not arise. Given μ and τ², θᵢ's posterior has
//! mean (1 − Bᵢ)·θ̂ᵢ + Bᵢ·μ with Bᵢ = sᵢ² / (sᵢ² + τ²), and variance
//! (1 − Bᵢ)·sᵢ² + Bᵢ²·Var(μ̂) + (∂mean/∂τ²)²·Var(τ̂²): the uncertainty of μ
//! and of τ² both count (Morris's approach; Var(τ̂²) is the DerSimonian–Laird
//! estimator's own, by Biggerstaff and Tweedie's formula, where Morris's
//! 2/(k − 3) is for equal variances). In a simulated population the 90 %
//! intervals cover 86–88 % with the τ² term, 85–87 % without it, and 88–90 %
//! with the true τ²: a first-order term recovers only part of what τ̂²'s
//! error costs (docs/definitions/balance-calibrate.md).
//!
//! Only groups with at least [`PRIOR_MIN_GAMES`] games with own evals
//! estimate μ and τ²: a sandwich variance from a handful of games (clusters)
//! is itself so noisy that weighting by it lets the small groups inflate τ²
//! (on the whole TCEC archive: τ = 0.72 from all 1,827 engines, 0.38 from
//! the 761 with 20 games or more, and 0.37–0.38 for any floor from 20 to 100
//! games). For the same reason a smaller group's variance is at least the
//! typical variance of one game's worth of evidence over its games,
//! median(sᵢ²·nᵢ)/n over the groups that estimate the prior.
//!
//! A group with own evals but no usable ml (no interior maximum in range, as
//! with two games both lost, or one game and so no error) is not left out:
//! its value is the posterior mode of its positions' likelihood under the
//! same prior ([`posterior`]), the likelihood tempered by the design effect
//! of the games as clusters (the median of the basis groups' sandwich over
//! model variance) and its information held to the small groups' floor. On
//! a normal likelihood this is exactly the shrinkage above.
//!
//! Why everyone's mean and not a family's or an event's: TCEC families have
//! one to three versions and events two to twenty engines, too few to estimate
//! a τ² of their own, while the spread between all engines is estimated from
//! the ones with hundreds of games.

use super::math::LogLik;

/// Groups with fewer games do not estimate the prior (module docs).
pub const PRIOR_MIN_GAMES: usize = 20;

/// One group's raw estimate: θ̂ = ln x05, its sandwich variance and design
/// effect ([`super::math::Sandwich`]), and the number of games with own
/// evals it came from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Raw {
    pub theta: f64,
    pub s2: f64,
    pub deff: f64,
    pub games: usize,
}

/// What one group brings to the pool.
#[derive(Debug, Clone)]
pub enum Evidence<L> {
    /// An identified ml with its sandwich variance: normal on θ.
    Ml(Raw),
    /// Own evals but no usable ml (no interior maximum, or one game and so no
    /// error): the positions' log-likelihood, and the games.
    Likelihood { loglik: L, games: usize },
    /// No own evals: nothing to pool.
    None,
}

/// The prior from the groups with at least [`PRIOR_MIN_GAMES`] games (all
/// groups when fewer than three have that many), and each group's pooled
/// estimate at normal quantile `z`: an ml shrunk toward the prior
/// ([`shrink`]), a likelihood's posterior mode under it ([`posterior`]).
pub fn pool<L: LogLik>(groups: &[Evidence<L>], z: f64) -> (Option<Prior>, Vec<Option<Pooled>>) {
    let all: Vec<Raw> = groups
        .iter()
        .filter_map(|e| match e {
            Evidence::Ml(r) => Some(*r),
            _ => None,
        })
        .collect();
    let large: Vec<Raw> = all
        .iter()
        .filter(|r| r.games >= PRIOR_MIN_GAMES)
        .copied()
        .collect();
    let basis = if large.len() >= 3 { large } else { all };
    let estimates: Vec<(f64, f64)> = basis.iter().map(|r| (r.theta, r.s2)).collect();
    let Some(prior) = prior(&estimates) else {
        return (None, vec![None; groups.len()]);
    };
    let median = |mut v: Vec<f64>| {
        v.sort_unstable_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let floor = median(basis.iter().map(|r| r.s2 * r.games as f64).collect());
    let deff = median(basis.iter().map(|r| r.deff).collect());
    let pooled = groups
        .iter()
        .map(|e| match e {
            &Evidence::Ml(r) => {
                let s2 = if r.games < PRIOR_MIN_GAMES {
                    r.s2.max(floor / r.games as f64)
                } else {
                    r.s2
                };
                Some(shrink(r.theta, s2, &prior, z))
            }
            Evidence::Likelihood { loglik, games } => {
                let cap = *games as f64 / floor;
                Some(posterior(loglik, deff, cap, &prior, z))
            }
            Evidence::None => None,
        })
        .collect();
    (Some(prior), pooled)
}

/// The prior N(μ, τ²) on ln x05, estimated from the groups' estimates.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Prior {
    pub mu: f64,
    pub tau2: f64,
    /// The variance of μ̂.
    pub var_mu: f64,
    /// The variance of τ̂² (Biggerstaff and Tweedie 1997, at τ̂²).
    pub var_tau2: f64,
    /// How many groups it was estimated from.
    pub groups: usize,
}

/// A pooled estimate (pawns) with its interval and the weight of the
/// group's own estimate (1 − B: 1 keeps it, 0 replaces it by the mean).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pooled {
    pub value: f64,
    pub lo: f64,
    pub hi: f64,
    pub weight: f64,
}

/// DerSimonian–Laird on (θ̂ᵢ, sᵢ²): μ the precision-weighted mean under
/// τ². One group: τ² = 0 (nothing to spread), μ its own θ̂. None without
/// groups or with a non-positive variance.
pub fn prior(estimates: &[(f64, f64)]) -> Option<Prior> {
    if estimates.is_empty()
        || estimates
            .iter()
            .any(|&(t, s2)| s2.is_nan() || s2 <= 0.0 || !t.is_finite())
    {
        return None;
    }
    let w: Vec<f64> = estimates.iter().map(|&(_, s2)| 1.0 / s2).collect();
    let sw: f64 = w.iter().sum();
    let fixed = estimates
        .iter()
        .zip(&w)
        .map(|(&(t, _), w)| w * t)
        .sum::<f64>()
        / sw;
    let q: f64 = estimates
        .iter()
        .zip(&w)
        .map(|(&(t, _), w)| w * (t - fixed).powi(2))
        .sum();
    let k = estimates.len() as f64;
    let c = sw - w.iter().map(|w| w * w).sum::<f64>() / sw;
    let tau2 = if c > 0.0 {
        ((q - (k - 1.0)) / c).max(0.0)
    } else {
        0.0
    };
    // Var(Q) under the random-effects model, over c²: Biggerstaff and
    // Tweedie (1997), eq. 6, with the fixed-effect weights.
    let (s1, s2, s3) = w.iter().fold((0.0, 0.0, 0.0), |(a, b, c), w| {
        (a + w, b + w * w, c + w * w * w)
    });
    let var_q = 2.0 * (k - 1.0)
        + 4.0 * c * tau2
        + 2.0 * (s2 - 2.0 * s3 / s1 + (s2 / s1).powi(2)) * tau2 * tau2;
    let var_tau2 = if c > 0.0 { var_q / (c * c) } else { 0.0 };
    let wr: Vec<f64> = estimates.iter().map(|&(_, s2)| 1.0 / (s2 + tau2)).collect();
    let swr: f64 = wr.iter().sum();
    let mu = estimates
        .iter()
        .zip(&wr)
        .map(|(&(t, _), w)| w * t)
        .sum::<f64>()
        / swr;
    Some(Prior {
        mu,
        tau2,
        var_mu: 1.0 / swr,
        var_tau2,
        groups: estimates.len(),
    })
}

/// θ̂ with variance s² shrunk toward `prior`, as x05 with its two-sided
/// interval at normal quantile `z` (1.96 for 95 %).
pub fn shrink(theta: f64, s2: f64, prior: &Prior, z: f64) -> Pooled {
    // B, and ∂mean/∂τ² = B·(θ̂ − μ)/(s² + τ²) (defined at τ² = 0 too).
    let total = s2 + prior.tau2;
    let (b, slope) = if total > 0.0 {
        let b = s2 / total;
        (b, b * (theta - prior.mu) / total)
    } else {
        (1.0, 0.0)
    };
    let mean = (1.0 - b) * theta + b * prior.mu;
    normal(
        mean,
        (1.0 - b) * s2 + b * b * prior.var_mu,
        slope,
        prior,
        b,
        z,
    )
}

/// A posterior N(`mean`, `var`) on θ as x05 with its interval at normal
/// quantile `z`, the prior's share of it `b`; the uncertainty of τ̂² adds
/// `slope`² · Var(τ̂²), `slope` being ∂mean/∂τ².
fn normal(mean: f64, var: f64, slope: f64, prior: &Prior, b: f64, z: f64) -> Pooled {
    let var = var + slope * slope * prior.var_tau2;
    let half = z * var.max(0.0).sqrt();
    Pooled {
        value: mean.exp(),
        lo: (mean - half).exp(),
        hi: (mean + half).exp(),
        weight: 1.0 - b,
    }
}

/// The posterior mode of θ = ln x05 under `prior` for a group without a
/// usable ml, from its positions' log-likelihood: the maximum of
/// ℓ(θ)/D − (θ − μ)²/(2τ²) in [`super::math::X05_RANGE`], with D the
/// basis groups' median design effect (positions of a game share its
/// result: ℓ alone would overstate the evidence D times), and the
/// information ℓ''/D at most `cap` (the small groups' floor of
/// [`pool`], games over the per-game variance; D is raised to meet it).
/// The variance is the normal approximation at the mode, v = 1/(I + 1/τ²),
/// plus B²·Var(μ̂) with B = v/τ² and the τ² term with ∂mode/∂τ² =
/// B·(mode − μ)/τ², as in [`shrink`], which this equals when ℓ is quadratic.
/// τ² = 0 gives μ itself.
pub fn posterior(loglik: &impl LogLik, deff: f64, cap: f64, prior: &Prior, z: f64) -> Pooled {
    let (mu, tau2) = (prior.mu, prior.tau2);
    if tau2 <= 0.0 {
        return normal(mu, prior.var_mu, 0.0, prior, 1.0, z);
    }
    let (lo, hi) = (super::math::X05_RANGE.0.ln(), super::math::X05_RANGE.1.ln());
    let loglik = |t: f64| loglik.loglik(t);
    let mode = |d: f64| {
        let t = super::math::golden_max(
            |t| loglik(t) / d - (t - mu).powi(2) / (2.0 * tau2),
            lo,
            hi,
            1e-9,
        );
        // The observed information at the mode, by central differences.
        let h = 1e-3;
        let info = (2.0 * loglik(t) - loglik(t + h) - loglik(t - h)) / (h * h) / d;
        (t, info.max(0.0))
    };
    let d = deff.max(f64::MIN_POSITIVE);
    let (mut theta, mut info) = mode(d);
    if info > cap {
        (theta, info) = mode(d * info / cap);
    }
    let v = 1.0 / (info + 1.0 / tau2);
    let b = v / tau2;
    let slope = b * (theta - mu) / tau2;
    normal(theta, v + b * b * prior.var_mu, slope, prior, b, z)
}

/// The standard normal quantile (Acklam's rational approximation, relative
/// error below 1.2e-9), for p in (0, 1).
pub fn normal_quantile(p: f64) -> f64 {
    const A: [f64; 6] = [
        -3.969_683_028_665_376e1,
        2.209_460_984_245_205e2,
        -2.759_285_104_469_687e2,
        1.383_577_518_672_69e2,
        -3.066_479_806_614_716e1,
        2.506_628_277_459_239,
    ];
    const B: [f64; 5] = [
        -5.447_609_879_822_406e1,
        1.615_858_368_580_409e2,
        -1.556_989_798_598_866e2,
        6.680_131_188_771_972e1,
        -1.328_068_155_288_572e1,
    ];
    const C: [f64; 6] = [
        -7.784_894_002_430_293e-3,
        -3.223_964_580_411_365e-1,
        -2.400_758_277_161_838,
        -2.549_732_539_343_734,
        4.374_664_141_464_968,
        2.938_163_982_698_783,
    ];
    const D: [f64; 4] = [
        7.784_695_709_041_462e-3,
        3.224_671_290_700_398e-1,
        2.445_134_137_142_996,
        3.754_408_661_907_416,
    ];
    let tail = |q: f64| {
        (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5])
            / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0)
    };
    if p < 0.02425 {
        tail((-2.0 * p.ln()).sqrt())
    } else if p > 1.0 - 0.02425 {
        -tail((-2.0 * (1.0 - p).ln()).sqrt())
    } else {
        let q = p - 0.5;
        let r = q * q;
        (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q
            / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normal_quantiles_match_the_tables() {
        for (p, z) in [
            (0.5, 0.0),
            (0.95, 1.644_853_626_951_472_2),
            (0.975, 1.959_963_984_540_054),
            (0.995, 2.575_829_303_548_900_4),
            (0.01, -2.326_347_874_040_840_8),
        ] {
            assert!(
                (normal_quantile(p) - z).abs() < 1e-8,
                "{p}: {}",
                normal_quantile(p)
            );
        }
    }

    /// Three groups by hand: θ̂ = 0, 1, 2 with s² = 1, 1, 1.
    /// Fixed-effect mean 1, Q = 1 + 0 + 1 = 2 = k − 1, so τ² = 0: every
    /// group is shrunk all the way to μ = 1 (B = 1), with Var(μ̂) = 1/3.
    #[test]
    fn dersimonian_laird_by_hand() {
        let p = prior(&[(0.0, 1.0), (1.0, 1.0), (2.0, 1.0)]).unwrap();
        assert_eq!((p.mu, p.tau2, p.groups), (1.0, 0.0, 3));
        assert!((p.var_mu - 1.0 / 3.0).abs() < 1e-15);
        let s = shrink(2.0, 1.0, &p, 1.959_963_984_540_054);
        assert_eq!(s.weight, 0.0);
        assert!((s.value - 1f64.exp()).abs() < 1e-12);
        // θ̂ = 0, 3, 6 with s² = 1: Q = 9 + 0 + 9 = 18, c = 3 − 3/3 = 2,
        // τ² = (18 − 2)/2 = 8, B = 1/9; θ = 6 → 6·8/9 + 3/9 = 5.666…;
        // Var(μ̂) = 9/3 = 3. Var(Q) = 2·2 + 4·2·8 + 2·(3 − 2 + 1)·64 = 324,
        // Var(τ̂²) = 324/2² = 81 (= 2(s² + τ²)²/(k − 1) for equal
        // variances); ∂mean/∂τ² = B·(6 − 3)/(1 + 8) = 1/27, so
        // var = (8/9)·1 + (1/81)·3 + 81/27² = 28/27.
        let p = prior(&[(0.0, 1.0), (3.0, 1.0), (6.0, 1.0)]).unwrap();
        assert_eq!((p.mu, p.tau2, p.var_mu, p.var_tau2), (3.0, 8.0, 3.0, 81.0));
        let s = shrink(6.0, 1.0, &p, 1.0);
        assert!((s.value.ln() - 17.0 / 3.0).abs() < 1e-12);
        assert!((s.weight - 8.0 / 9.0).abs() < 1e-15);
        let sd = (28.0 / 27.0f64).sqrt();
        assert!((s.hi.ln() - (17.0 / 3.0 + sd)).abs() < 1e-12);
        assert!((s.lo.ln() - (17.0 / 3.0 - sd)).abs() < 1e-12);
    }

    /// The prior comes from the large groups; a small group's variance is
    /// floored at the median per-game variance over its games.
    #[test]
    fn small_groups_neither_set_the_prior_nor_escape_it() {
        type E = Evidence<fn(f64) -> f64>;
        let big = |theta: f64| {
            E::Ml(Raw {
                theta,
                s2: 0.01,
                deff: 1.0,
                games: 100,
            })
        };
        // Per-game variance 0.01·100 = 1; the small group's own s² = 0.001
        // would keep it (weight ~1), the floor 1/4 shrinks it.
        let small = E::Ml(Raw {
            theta: 3.0,
            s2: 0.001,
            deff: 1.0,
            games: 4,
        });
        let (p, pooled) = pool(
            &[big(0.0), big(0.3), big(-0.3), small.clone(), E::None],
            1.96,
        );
        let p = p.unwrap();
        assert_eq!(p.groups, 3);
        assert!(p.mu.abs() < 1e-12);
        // Q = (0.09 + 0.09)/0.01 = 18, c = 300 − 3e4/300 = 200, τ² = 16/200.
        assert!((p.tau2 - 0.08).abs() < 1e-12, "{}", p.tau2);
        let s = pooled[3].unwrap();
        assert!(
            (s.weight - 0.08 / (0.08 + 0.25)).abs() < 1e-12,
            "{}",
            s.weight
        );
        assert_eq!(pooled[4], None);
        // Fewer than three large groups: every group estimates the prior.
        let (p, _) = pool(&[big(0.0), small], 1.96);
        assert_eq!(p.unwrap().groups, 2);
        let none = pool(&[E::None, E::None], 1.96);
        assert_eq!(none, (None, vec![None, None]));
    }

    /// A quadratic log-likelihood D·(−(θ − a)²/(2s²)) is a normal estimate a
    /// with variance s² once tempered by D: its posterior is [`shrink`]'s.
    /// A flat one leaves the prior: μ, weight 0, variance τ² + Var(μ̂). A cap
    /// below 1/s² holds the information there: shrink with s² = 1/cap.
    #[test]
    fn posterior_mode_is_shrink_for_a_normal_likelihood_and_the_prior_for_a_flat_one() {
        let p = Prior {
            mu: -0.2,
            tau2: 0.16,
            var_mu: 0.0004,
            var_tau2: 0.002,
            groups: 100,
        };
        let (a, s2, d, z) = (0.9, 0.09, 3.5, 1.96);
        let quad = |t: f64| -d * (t - a).powi(2) / (2.0 * s2);
        let close = |x: Pooled, y: Pooled| {
            for (u, v) in [
                (x.value, y.value),
                (x.lo, y.lo),
                (x.hi, y.hi),
                (x.weight, y.weight),
            ] {
                assert!((u - v).abs() < 1e-6, "{x:?} vs {y:?}");
            }
        };
        close(
            posterior(&quad, d, f64::INFINITY, &p, z),
            shrink(a, s2, &p, z),
        );
        close(posterior(&quad, d, 4.0, &p, z), shrink(a, 0.25, &p, z));
        let flat = posterior(&|_| -7.0, d, f64::INFINITY, &p, z);
        assert!((flat.value.ln() - p.mu).abs() < 1e-6, "{flat:?}");
        assert_eq!(flat.weight, 0.0);
        let sd = (p.tau2 + p.var_mu).sqrt();
        assert!((flat.hi.ln() - (p.mu + z * sd)).abs() < 1e-6, "{flat:?}");
        // No spread between groups: every group is μ.
        let tight = Prior { tau2: 0.0, ..p };
        assert_eq!(
            posterior(&quad, d, f64::INFINITY, &tight, z).value,
            p.mu.exp()
        );
    }

    /// In [`pool`], a likelihood is tempered by the basis groups' median
    /// design effect and capped at the small groups' floor (games over the
    /// median per-game variance).
    #[test]
    fn pool_tempers_a_likelihood_by_the_median_design_effect() {
        let big = |theta: f64, deff: f64| {
            Evidence::Ml(Raw {
                theta,
                s2: 0.01,
                deff,
                games: 100,
            })
        };
        // Design effects 2, 4, 8: the median is 4. Per-game variance 1.
        let quad = |t: f64| -4.0 * (t - 1.0).powi(2) / (2.0 * 0.5);
        let groups = [
            big(0.0, 2.0),
            big(0.3, 8.0),
            big(-0.3, 4.0),
            Evidence::Likelihood {
                loglik: quad,
                games: 10,
            },
            Evidence::Likelihood {
                loglik: quad,
                games: 1,
            },
        ];
        let (p, pooled) = pool(&groups, 1.96);
        let p = p.unwrap();
        // 10 games: information 1/0.5 = 2 < cap 10, kept.
        let want = shrink(1.0, 0.5, &p, 1.96);
        assert!((pooled[3].unwrap().value - want.value).abs() < 1e-6);
        // One game: the cap 1/1 holds it at s² = 1.
        let want = shrink(1.0, 1.0, &p, 1.96);
        assert!((pooled[4].unwrap().value - want.value).abs() < 1e-6);
        assert!((pooled[4].unwrap().weight - want.weight).abs() < 1e-6);
    }

    #[test]
    fn a_single_group_keeps_its_estimate_and_bad_input_has_no_prior() {
        let p = prior(&[(0.5, 0.04)]).unwrap();
        assert_eq!((p.mu, p.tau2), (0.5, 0.0));
        // τ² = 0 gives B = 1, but μ is the group's own θ̂: the value stays.
        assert!((shrink(0.5, 0.04, &p, 1.96).value - 0.5f64.exp()).abs() < 1e-15);
        assert_eq!(prior(&[]), None);
        assert_eq!(prior(&[(0.1, 0.0)]), None);
        assert_eq!(prior(&[(f64::NAN, 1.0)]), None);
    }
}
