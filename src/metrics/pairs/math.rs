//! Pentanomial statistics of colour-swapped game pairs: counts, score, Elo and
//! normalized Elo with their errors, and the GSPRT log-likelihood ratio.
//!
//! The formulas follow fastchess (`app/src/matchmaking/elo/elo_pentanomial.cpp`,
//! `elo_wdl.cpp`, `sprt/sprt.cpp`), which follows Van den Bergh's notes for
//! fishtest; docs/definitions/pairs.md states them.

use std::f64::consts::LN_10;

/// z of a two-sided 95 % interval (fastchess's `CI95ZSCORE`).
pub const Z95: f64 = 1.959963984540054;

/// Normalized Elo per unit of t = (score − ½) / σ: 800 / ln 10.
const NELO_PER_T: f64 = 800.0 / LN_10;

/// fastchess's stand-in for an empty bin in the LLR, so that the maximum
/// likelihood distributions have no zero probability.
const EMPTY_BIN: f64 = 1e-3;

/// Pair counts from one engine's view, indexed by the pair score in half
/// points: `[LL, LD, DD + WL, WD, WW]` (pair scores 0, ½, 1, 1½, 2).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Penta(pub [u64; 5]);

impl Penta {
    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }
}

/// Game counts from one engine's view.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Trinomial {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
}

/// Logistic Elo of a score in (0, 1); None at 0 and 1 (not finite).
pub fn elo(score: f64) -> Option<f64> {
    // `+ 0.0`: an even score is 0, not the -0 of -400 · log10(1).
    (score > 0.0 && score < 1.0).then(|| -400.0 * (1.0 / score - 1.0).log10() + 0.0)
}

/// The mean and variance of a distribution: values `xs`, counts `n`.
fn moments(xs: &[f64], n: &[f64]) -> (f64, f64, f64) {
    let total: f64 = n.iter().sum();
    let mu = xs.iter().zip(n).map(|(x, c)| x * c).sum::<f64>() / total;
    let var = xs
        .iter()
        .zip(n)
        .map(|(x, c)| c * (x - mu) * (x - mu))
        .sum::<f64>()
        / total;
    (total, mu, var)
}

/// A score estimate with its 95 % interval on the score, Elo and normalized
/// Elo scales. Values that are not identified are None.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Estimate {
    /// Mean score per game.
    pub score: f64,
    /// Standard error of `score`.
    pub score_se: f64,
    pub elo: Option<f64>,
    /// The interval's ends: Elo of score ∓ z·se (None where that leaves (0, 1)).
    pub elo_lo: Option<f64>,
    pub elo_hi: Option<f64>,
    /// Half the interval's width, as fastchess prints `elo ± error`.
    pub elo_error: Option<f64>,
    pub nelo: Option<f64>,
    pub nelo_error: Option<f64>,
}

/// Why an [`Estimate`] lacks values, if it does.
pub fn reason(e: &Estimate) -> Option<&'static str> {
    if e.elo.is_none() {
        Some("score 0 % or 100 %: Elo is not finite")
    } else if e.score_se == 0.0 {
        Some("every unit in one bin: the variance is 0, no error")
    } else if e.elo_error.is_none() {
        Some("the interval reaches a score of 0 % or 100 %: its Elo end is not finite")
    } else {
        None
    }
}

/// The estimate from units of score `xs` seen `n` times; `k` is the number of
/// games per unit for the normalized Elo (σ of a game = σ of a unit × √k).
fn estimate(xs: &[f64], n: &[f64], k: f64) -> Option<Estimate> {
    let (total, mu, var) = moments(xs, n);
    if total == 0.0 {
        return None;
    }
    let se = (var / total).sqrt();
    let (lo, hi) = (mu - Z95 * se, mu + Z95 * se);
    let elo_mu = elo(mu);
    let (elo_lo, elo_hi) = (elo(lo), elo(hi));
    let identified = elo_mu.is_some() && var > 0.0;
    let sigma = (k * var).sqrt();
    Some(Estimate {
        score: mu,
        score_se: se,
        elo: elo_mu,
        elo_lo: elo_lo.filter(|_| identified),
        elo_hi: elo_hi.filter(|_| identified),
        elo_error: match (elo_lo, elo_hi) {
            (Some(l), Some(h)) if identified => Some((h - l) / 2.0),
            _ => None,
        },
        nelo: (var > 0.0).then(|| (mu - 0.5) / sigma * NELO_PER_T),
        nelo_error: (var > 0.0).then(|| Z95 * se / sigma * NELO_PER_T),
    })
}

const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];
const GAME_SCORES: [f64; 3] = [0.0, 0.5, 1.0];

/// The pentanomial estimate (None without pairs): the unit is a pair, its
/// score the pair's points / 2.
pub fn pentanomial(p: &Penta) -> Option<Estimate> {
    estimate(&PAIR_SCORES, &p.0.map(|c| c as f64), 2.0)
}

/// The trinomial estimate (None without games): games as independent units.
pub fn trinomial(t: &Trinomial) -> Option<Estimate> {
    estimate(
        &GAME_SCORES,
        &[t.losses as f64, t.draws as f64, t.wins as f64],
        1.0,
    )
}

/// The Elo model of the SPRT's hypotheses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SprtModel {
    #[default]
    Normalized,
    Logistic,
}

impl crate::choice::Choice for SprtModel {
    const ALL: &'static [Self] = &[SprtModel::Normalized, SprtModel::Logistic];
    fn name(self) -> &'static str {
        match self {
            SprtModel::Normalized => "normalized",
            SprtModel::Logistic => "logistic",
        }
    }
    fn help(self) -> &'static str {
        match self {
            SprtModel::Normalized => "Normalized Elo (fishtest's and fastchess's default)",
            SprtModel::Logistic => "Logistic Elo",
        }
    }
}
crate::display_choice!(SprtModel);

/// A GSPRT: H0 elo = elo0 against H1 elo = elo1, error rates alpha and beta.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
    pub model: SprtModel,
}

/// The test's verdict for an LLR.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// LLR ≥ the upper bound.
    H1,
    /// LLR ≤ the lower bound.
    H0,
    Continue,
}

impl Verdict {
    pub fn name(self) -> &'static str {
        match self {
            Verdict::H1 => "H1 accepted",
            Verdict::H0 => "H0 accepted",
            Verdict::Continue => "continue",
        }
    }
}

impl Sprt {
    /// `elo0,elo1[,alpha,beta]` (alpha and beta 0.05 when left out), checked
    /// as fastchess does.
    pub fn parse(spec: &str, model: SprtModel) -> Result<Sprt, String> {
        let v = spec
            .split(',')
            .map(|s| s.trim().parse::<f64>().map_err(|_| s.trim().to_string()))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|bad| format!("`{bad}` in `{spec}` is not a number"))?;
        let (elo0, elo1, alpha, beta) = match v[..] {
            [e0, e1] => (e0, e1, 0.05, 0.05),
            [e0, e1, a, b] => (e0, e1, a, b),
            _ => return Err(format!("expected elo0,elo1[,alpha,beta], got `{spec}`")),
        };
        if let Some(bad) = v.iter().find(|x| !x.is_finite()) {
            return Err(format!("`{bad}` in `{spec}` is not a finite number"));
        }
        if elo0 >= elo1 {
            return Err(format!("elo0 ({elo0}) must be less than elo1 ({elo1})"));
        }
        for (name, x) in [("alpha", alpha), ("beta", beta)] {
            if !(x > 0.0 && x < 1.0) {
                return Err(format!("{name} ({x}) must be between 0 and 1"));
            }
        }
        if alpha + beta >= 1.0 {
            return Err(format!(
                "alpha + beta ({}) must be less than 1",
                alpha + beta
            ));
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
            model,
        })
    }

    /// The bounds (lower, upper) = (ln(β / (1 − α)), ln((1 − β) / α)).
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    pub fn verdict(&self, llr: f64) -> Verdict {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Verdict::H1
        } else if llr <= lower {
            Verdict::H0
        } else {
            Verdict::Continue
        }
    }

    /// The pentanomial LLR of the pairs (None without pairs).
    pub fn llr(&self, p: &Penta) -> Option<f64> {
        if p.pairs() == 0 {
            return None;
        }
        let n = p.0.map(|c| if c == 0 { EMPTY_BIN } else { c as f64 });
        let total: f64 = n.iter().sum();
        let probs = n.map(|c| c / total);
        Some(match self.model {
            SprtModel::Logistic => {
                let s = |e: f64| 1.0 / (1.0 + 10f64.powf(-e / 400.0));
                llr_logistic(total, &PAIR_SCORES, &probs, s(self.elo0), s(self.elo1))
            }
            SprtModel::Normalized => {
                // A pair's σ is the game's / √2: t per pair = √2 · nElo / (800 / ln 10).
                let t = |e: f64| 2f64.sqrt() * e / NELO_PER_T;
                llr_normalized(total, &PAIR_SCORES, &probs, t(self.elo0), t(self.elo1))
            }
        })
    }
}

/// The root of a decreasing function on the open interval (lo, hi) where it
/// goes from +∞ to −∞, by bisection to the last bit.
fn root(f: impl Fn(f64) -> f64, mut lo: f64, mut hi: f64) -> f64 {
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if mid <= lo || mid >= hi {
            break;
        }
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// The distribution closest (maximum likelihood) to the empirical `probs`
/// with Σ p·φ = 0: p_i = p̂_i / (1 + θ φ_i), θ the root of Σ p̂ φ / (1 + θ φ).
fn tilt(probs: &[f64], phi: &[f64]) -> Vec<f64> {
    let max = phi.iter().cloned().fold(f64::MIN, f64::max);
    let min = phi.iter().cloned().fold(f64::MAX, f64::min);
    let f = |th: f64| {
        probs
            .iter()
            .zip(phi)
            .map(|(p, x)| p * x / (1.0 + th * x))
            .sum::<f64>()
    };
    let theta = root(f, -1.0 / max, -1.0 / min);
    probs
        .iter()
        .zip(phi)
        .map(|(p, x)| p / (1.0 + theta * x))
        .collect()
}

/// N · Σ p̂ ln(p1 / p0).
fn llr_of(total: f64, probs: &[f64], p0: &[f64], p1: &[f64]) -> f64 {
    total
        * probs
            .iter()
            .zip(p0.iter().zip(p1))
            .map(|(p, (a, b))| p * (b.ln() - a.ln()))
            .sum::<f64>()
}

/// Logistic GSPRT: the ML distributions with mean score s0 and s1
/// (Van den Bergh, "Comparing the approximations for the GLLR of a
/// multinomial distribution", Proposition 1.1).
fn llr_logistic(total: f64, scores: &[f64], probs: &[f64], s0: f64, s1: f64) -> f64 {
    let mle = |s: f64| {
        let phi: Vec<f64> = scores.iter().map(|a| a - s).collect();
        tilt(probs, &phi)
    };
    llr_of(total, probs, &mle(s0), &mle(s1))
}

/// Normalized GSPRT: the ML distributions with t = (μ − ½) / σ equal to t0
/// and t1 (Van den Bergh, "Comments on normalized Elo", §4.1), by fastchess's
/// iteration from the uniform distribution (at most 10 steps, until no
/// probability moves by 1e-4).
fn llr_normalized(total: f64, scores: &[f64], probs: &[f64], t0: f64, t1: f64) -> f64 {
    let mle = |t: f64| {
        let mut p = vec![1.0 / scores.len() as f64; scores.len()];
        for _ in 0..10 {
            let (_, mu, var) = moments(scores, &p);
            let sigma = var.sqrt();
            let phi: Vec<f64> = scores
                .iter()
                .map(|a| a - 0.5 - 0.5 * t * sigma * (1.0 + ((a - mu) / sigma).powi(2)))
                .collect();
            let next = tilt(probs, &phi);
            let moved = next
                .iter()
                .zip(&p)
                .map(|(a, b)| (a - b).abs())
                .fold(0.0, f64::max);
            p = next;
            if moved < 1e-4 {
                break;
            }
        }
        p
    };
    llr_of(total, probs, &mle(t0), &mle(t1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, rel: f64) -> bool {
        (a - b).abs() <= rel * b.abs()
    }

    /// fastchess's `Stats(ll, ld, wl, dd, wd, ww)` as our bins.
    fn fc(ll: u64, ld: u64, wl: u64, dd: u64, wd: u64, ww: u64) -> Penta {
        Penta([ll, ld, wl + dd, wd, ww])
    }

    /// fastchess's app/tests/elo_test.cpp, "EloPentanomial 1..3" (its
    /// tolerance, 1 %).
    #[test]
    fn pentanomial_elo_matches_fastchess() {
        for (p, nelo, nerr, elo_, err, score) in [
            (
                fc(34, 54, 31, 32, 64, 75),
                57.94,
                28.28,
                55.58,
                27.65,
                0.579,
            ),
            (
                fc(332, 433, 457, 41, 333, 334),
                -9.17,
                10.96,
                -8.64,
                10.33,
                0.488,
            ),
            (
                fc(7895, 8757, 5485, 200, 568, 9999),
                -19.01,
                2.65,
                -21.04,
                2.95,
                0.470,
            ),
        ] {
            let e = pentanomial(&p).unwrap();
            assert!(close(e.nelo.unwrap(), nelo, 0.01), "{e:?}");
            assert!(close(e.nelo_error.unwrap(), nerr, 0.01), "{e:?}");
            assert!(close(e.elo.unwrap(), elo_, 0.01), "{e:?}");
            assert!(close(e.elo_error.unwrap(), err, 0.01), "{e:?}");
            assert!(close(e.score, score, 0.01), "{e:?}");
        }
    }

    /// fastchess's "EloWDL 2", `Stats(wins 136, losses 96, draws 111)`.
    #[test]
    fn trinomial_elo_matches_fastchess() {
        let e = trinomial(&Trinomial {
            wins: 136,
            draws: 111,
            losses: 96,
        })
        .unwrap();
        assert!(close(e.nelo.unwrap(), 49.77, 0.01), "{e:?}");
        assert!(close(e.nelo_error.unwrap(), 36.77, 0.01), "{e:?}");
        assert!(close(e.elo.unwrap(), 40.70, 0.01), "{e:?}");
        assert!(close(e.elo_error.unwrap(), 30.43, 0.01), "{e:?}");
    }

    /// Six pairs by hand, A's view: pair scores 2, 1.5, 1, 1, 0.5, 2
    /// → [LL, LD, DD+WL, WD, WW] = [0, 1, 2, 1, 2]; points 8 of 12 → score
    /// 2/3. Per pair score/2: 1, .75, .5, .5, .25, 1 → mean 4/6 = 2/3;
    /// variance = (2·(1/3)² + (1/12)² + 2·(1/6)² + (5/12)²) / 6
    /// = (8/36 + 1/144 + 8/144 + 25/144) / 6 = (32 + 1 + 8 + 25)/144/6 = 66/864;
    /// se = √(66/864 / 6) = 0.112836; Elo(2/3) = 400·log10 2 = 120.412.
    #[test]
    fn pentanomial_by_hand() {
        let p = Penta([0, 1, 2, 1, 2]);
        let e = pentanomial(&p).unwrap();
        assert!((e.score - 2.0 / 3.0).abs() < 1e-12);
        assert!((e.score_se - (66.0f64 / 864.0 / 6.0).sqrt()).abs() < 1e-12);
        assert!((e.elo.unwrap() - 400.0 * 2f64.log10()).abs() < 1e-9);
        assert!(elo(0.5).unwrap().is_sign_positive());
        // The interval: Elo(2/3 ∓ 1.96·0.112834) = −38.0100, 359.3585; ± 198.6843.
        assert!((e.elo_lo.unwrap() + 38.010038).abs() < 1e-6, "{e:?}");
        assert!((e.elo_hi.unwrap() - 359.358531).abs() < 1e-6, "{e:?}");
        assert!((e.elo_error.unwrap() - 198.684284).abs() < 1e-6, "{e:?}");
        assert_eq!(reason(&e), None);
        // nElo = (2/3 − 1/2) / √(2 · 66/864) · 800 / ln 10 = 148.147.
        let nelo = (1.0 / 6.0) / (2.0 * 66.0f64 / 864.0).sqrt() * 800.0 / LN_10;
        assert!((e.nelo.unwrap() - nelo).abs() < 1e-9);
        assert!((nelo - 148.147).abs() < 0.001);
        // The opponent's view: the counts reversed, score 1/3.
        let s = pentanomial(&Penta([2, 1, 2, 1, 0])).unwrap();
        assert!((s.score - 1.0 / 3.0).abs() < 1e-12);
    }

    #[test]
    fn unidentified_values_are_none() {
        assert_eq!(pentanomial(&Penta::default()), None);
        let all_won = pentanomial(&Penta([0, 0, 0, 0, 3])).unwrap();
        assert_eq!(all_won.elo, None);
        assert_eq!(
            reason(&all_won),
            Some("score 0 % or 100 %: Elo is not finite")
        );
        let one_bin = pentanomial(&Penta([0, 0, 4, 0, 0])).unwrap();
        assert_eq!(one_bin.elo, Some(0.0));
        assert_eq!((one_bin.elo_error, one_bin.nelo), (None, None));
        assert_eq!(
            reason(&one_bin),
            Some("every unit in one bin: the variance is 0, no error")
        );
    }

    /// fastchess's app/tests/sprt_test.cpp pentanomial cases (its tolerance, 1 %).
    #[test]
    fn llr_matches_fastchess() {
        let norm = |e0, e1| Sprt::parse(&format!("{e0},{e1}"), SprtModel::Normalized).unwrap();
        let logi = |e0, e1| Sprt::parse(&format!("{e0},{e1}"), SprtModel::Logistic).unwrap();
        for (sprt, p, llr) in [
            (norm(0.0, 2.0), fc(365, 16618, 36029, 200, 16974, 390), 2.25),
            (
                norm(-1.75, 0.25),
                fc(127, 4883, 10311, 401, 5150, 104),
                3.01,
            ),
            (norm(0.0, 5.0), fc(0, 0, 0, 0, 0, 5550), 111.82),
            (
                logi(0.5, 2.5),
                fc(223, 9863, 20279, 1000, 10037, 246),
                -3.07,
            ),
            (
                logi(0.0, 2.0),
                fc(871, 26175, 55003, 980, 26678, 821),
                -4.98,
            ),
        ] {
            let got = sprt.llr(&p).unwrap();
            assert!(close(got, llr, 0.01), "{sprt:?} {p:?}: {got} vs {llr}");
        }
    }

    /// A small case recomputed with fishtest's `LLRcalc.py` (server/fishtest/stats,
    /// `LLR(pdf, s0, s1)` and `statistic="t_value"`, scipy's brentq replaced
    /// by bisection): pairs [LL, LD, DD+WL, WD, WW] = [1, 3, 10, 5, 1], pdf =
    /// [(i/4, c_i/20)], times N = 20:
    ///   logistic, s = 1/(1 + 10^(−elo/400)) for elo 0, 10 → 0.1012164;
    ///   normalized, t = √2·elo/(800/ln 10) for elo 0, 10, ref ½ → 0.0735409.
    #[test]
    fn llr_by_reference_formula() {
        let logistic = Sprt::parse("0,10", SprtModel::Logistic).unwrap();
        let got = logistic.llr(&Penta([1, 3, 10, 5, 1])).unwrap();
        assert!((got - 0.1012164).abs() < 1e-6, "{got}");
        let normalized = Sprt::parse("0,10", SprtModel::Normalized).unwrap();
        let got = normalized.llr(&Penta([1, 3, 10, 5, 1])).unwrap();
        // fastchess stops at 1e-4 where fishtest goes on to 1e-9.
        assert!((got - 0.0735409).abs() < 1e-4, "{got}");
        assert_eq!(logistic.llr(&Penta::default()), None);
    }

    #[test]
    fn sprt_bounds_verdicts_and_checks() {
        let s = Sprt::parse("0,5,0.05,0.1", SprtModel::Normalized).unwrap();
        let (lo, hi) = s.bounds();
        assert!((lo - (0.1f64 / 0.95).ln()).abs() < 1e-12);
        assert!((hi - (0.9f64 / 0.05).ln()).abs() < 1e-12);
        assert!((hi - 2.890372).abs() < 1e-6 && (lo + 2.251292).abs() < 1e-6);
        assert_eq!(s.verdict(3.0), Verdict::H1);
        assert_eq!(s.verdict(-2.3), Verdict::H0);
        assert_eq!(s.verdict(0.0), Verdict::Continue);
        let d = Sprt::parse("0, 2", SprtModel::Logistic).unwrap();
        assert_eq!((d.alpha, d.beta), (0.05, 0.05));
        for (bad, msg) in [
            ("2,0", "elo0 (2) must be less than elo1 (0)"),
            ("0", "expected elo0,elo1[,alpha,beta], got `0`"),
            ("0,2,0.5", "expected elo0,elo1[,alpha,beta], got `0,2,0.5`"),
            ("0,x", "`x` in `0,x` is not a number"),
            ("0,inf", "`inf` in `0,inf` is not a finite number"),
            ("0,2,0,0.1", "alpha (0) must be between 0 and 1"),
            ("0,2,0.6,0.5", "alpha + beta (1.1) must be less than 1"),
        ] {
            assert_eq!(Sprt::parse(bad, SprtModel::Normalized).unwrap_err(), msg);
        }
    }
}
