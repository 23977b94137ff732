//! A simulation study of the x05 estimates (issue 27): games drawn from the
//! probabilistic-result model with a known x05 per engine, for engines of 5,
//! 20, 100 and 1,000 games in one population, estimated as `calibrate` does
//! (ml with its sandwich error, then pooled). Seeded: the table is the same
//! on every run (`cargo test --release calibrate_sim -- --nocapture`).
//!
//! The game model is exact at every position, not only at the end: the
//! expected score p_t follows a martingale, p_{t+1} ~ Beta(κ·p_t, κ·(1 − p_t)),
//! the engine's own eval is x_t = P⁻¹(p_t; x05) in centipawns, and the result
//! s has E[s] = p_T (a win with probability 2p_T − 1 if p_T > ½, else a draw;
//! a loss with probability 1 − 2p_T if p_T < ½, else a draw). So E[s | x_t] =
//! P(x_t; x05) at every position, as the ml fit assumes, while the positions
//! of a game share one result, as in real games.

use evallab::metrics::calibrate::pool::{self, Evidence, normal_quantile};
use evallab::metrics::calibrate::run::evidence;
use evallab::metrics::calibrate::{GameObs, SplitMix64, calibrate_group};

const SIZES: [usize; 5] = [2, 5, 20, 100, 1000];
const ENGINES_PER_SIZE: usize = 8;
const REPLICATES: usize = 50;
const POSITIONS: usize = 60;
const KAPPA: f64 = 200.0;
const LEVEL: f64 = 0.90;

struct Rng(SplitMix64);

impl Rng {
    /// Uniform in (0, 1).
    fn uniform(&mut self) -> f64 {
        ((self.0.next_u64() >> 11) as f64 + 0.5) / (1u64 << 53) as f64
    }

    fn normal(&mut self) -> f64 {
        let (u, v) = (self.uniform(), self.uniform());
        (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
    }

    /// Marsaglia and Tsang's method; shape < 1 by the boost G(a) = G(a+1)·U^(1/a).
    fn gamma(&mut self, shape: f64) -> f64 {
        if shape < 1.0 {
            return self.gamma(shape + 1.0) * self.uniform().powf(1.0 / shape);
        }
        let d = shape - 1.0 / 3.0;
        let c = 1.0 / (9.0 * d).sqrt();
        loop {
            let x = self.normal();
            let v = (1.0 + c * x).powi(3);
            if v <= 0.0 {
                continue;
            }
            let u = self.uniform();
            if u.ln() < 0.5 * x * x + d - d * v + d * v.ln() {
                return d * v;
            }
        }
    }

    fn beta(&mut self, a: f64, b: f64) -> f64 {
        let x = self.gamma(a);
        x / (x + self.gamma(b))
    }
}

/// P⁻¹: the own eval (pawns) at which the expected score is p.
fn eval_at(p: f64, x05: f64) -> f64 {
    if p > 0.5 {
        -x05 * (2.0 * (1.0 - p)).log2()
    } else {
        x05 * (2.0 * p).log2()
    }
}

fn game(rng: &mut Rng, x05: f64) -> GameObs {
    let mut p = 0.35 + 0.3 * rng.uniform();
    let mut evals = Vec::with_capacity(POSITIONS);
    for _ in 0..POSITIONS {
        p = rng
            .beta(KAPPA * p, KAPPA * (1.0 - p))
            .clamp(1e-6, 1.0 - 1e-6);
        evals.push((100.0 * eval_at(p, x05)).round() as i32);
    }
    let u = rng.uniform();
    let result = if p > 0.5 {
        if u < 2.0 * p - 1.0 { 1.0 } else { 0.5 }
    } else if u < 1.0 - 2.0 * p {
        0.0
    } else {
        0.5
    };
    GameObs {
        won: result == 1.0,
        result,
        max_own: evals.iter().max().map(|&m| i64::from(m)),
        evals,
    }
}

#[derive(Default)]
struct Tally {
    engines: usize,
    identified: usize,
    raw_err: Vec<f64>,
    raw_covered: usize,
    /// Every engine's pooled value: the identified ones shrunk, the others
    /// their posterior mode.
    pooled_err: Vec<f64>,
    pooled_covered: usize,
    /// The same over the identified engines alone, to set beside raw.
    pooled_err_identified: Vec<f64>,
    /// Engines without a usable ml: (posterior mode − truth, 0.62 − truth).
    unidentified: Vec<(f64, f64)>,
}

fn rmse(e: &[f64]) -> f64 {
    (e.iter().map(|e| e * e).sum::<f64>() / e.len() as f64).sqrt()
}

fn mean(e: &[f64]) -> f64 {
    e.iter().sum::<f64>() / e.len() as f64
}

#[test]
fn pooled_estimates_beat_raw_ones_on_small_samples_and_cover_on_large_ones() {
    let mut rng = Rng(SplitMix64(20_261_124));
    let z = normal_quantile(0.5 + LEVEL / 2.0);
    let mut tallies: Vec<Tally> = SIZES.iter().map(|_| Tally::default()).collect();
    for _ in 0..REPLICATES {
        // One population: every size, true x05 ~ log-normal around 0.7 pawns.
        let mut truth = Vec::new();
        let mut groups = Vec::new();
        for (s, &n) in SIZES.iter().enumerate() {
            for _ in 0..ENGINES_PER_SIZE {
                let x05 = (0.7f64.ln() + 0.25 * rng.normal()).exp();
                let games: Vec<GameObs> = (0..n).map(|_| game(&mut rng, x05)).collect();
                let c = calibrate_group(&games, 0, 1);
                truth.push((s, x05));
                groups.push(evidence(&games, &c));
            }
        }
        let (_, pooled) = pool::pool(&groups, z);
        for (((s, x05), e), pooled) in truth.into_iter().zip(&groups).zip(&pooled) {
            let t = &mut tallies[s];
            t.engines += 1;
            let p = pooled.expect("every simulated engine has own evals");
            t.pooled_err.push(p.value - x05);
            t.pooled_covered += usize::from(p.lo <= x05 && x05 <= p.hi);
            let Evidence::Ml(raw) = e else {
                t.unidentified.push((p.value - x05, 0.62 - x05));
                continue;
            };
            t.identified += 1;
            let se = raw.s2.sqrt();
            t.raw_err.push(raw.theta.exp() - x05);
            t.raw_covered += usize::from((raw.theta - x05.ln()).abs() <= z * se);
            t.pooled_err_identified.push(p.value - x05);
        }
    }
    println!(
        "games  engines  identified  raw_bias  raw_rmse  raw_cover90  pooled_rmse(identified)  pooled_bias  pooled_rmse  pooled_cover90"
    );
    for (n, t) in SIZES.iter().zip(&tallies) {
        let k = t.identified as f64;
        println!(
            "{n:>5}  {:>7}  {:>9.1}%  {:>8.3}  {:>8.3}  {:>10.1}%  {:>23.3}  {:>11.3}  {:>11.3}  {:>13.1}%",
            t.engines,
            100.0 * k / t.engines as f64,
            mean(&t.raw_err),
            rmse(&t.raw_err),
            100.0 * t.raw_covered as f64 / k,
            rmse(&t.pooled_err_identified),
            mean(&t.pooled_err),
            rmse(&t.pooled_err),
            100.0 * t.pooled_covered as f64 / t.engines as f64,
        );
    }
    for (n, t) in SIZES.iter().zip(&tallies) {
        // Every engine is valued, the unidentified ones too, and the
        // intervals of all of them cover at about their level; on few games
        // the pooled values beat the raw ones where those exist.
        assert_eq!(t.pooled_err.len(), t.engines);
        let cover = t.pooled_covered as f64 / t.engines as f64;
        assert!(
            (0.84..=0.96).contains(&cover),
            "{n} games: pooled 90 % intervals cover {cover}"
        );
        if *n <= 20 {
            assert!(
                rmse(&t.pooled_err_identified) < rmse(&t.raw_err),
                "{n} games: pooled RMSE {} ≥ raw {}",
                rmse(&t.pooled_err_identified),
                rmse(&t.raw_err)
            );
        }
    }
    // The engines without a usable ml took `--x05`'s 0.62 before they had a
    // posterior mode: the modes are closer to the truth.
    let (post, default): (Vec<f64>, Vec<f64>) = tallies
        .iter()
        .flat_map(|t| t.unidentified.iter().copied())
        .unzip();
    println!(
        "without a usable ml: {} engines, RMSE posterior mode {:.3}, the default 0.62 {:.3}",
        post.len(),
        rmse(&post),
        rmse(&default)
    );
    assert!(post.len() >= 20, "{}", post.len());
    assert!(rmse(&post) < rmse(&default));
}

#[test]
fn the_simulated_games_follow_the_model() {
    // E[s] = p_T and the evals invert P: a check of the generator itself.
    let mut rng = Rng(SplitMix64(7));
    let games: Vec<GameObs> = (0..4000).map(|_| game(&mut rng, 0.8)).collect();
    let (mut se, mut sp) = (0.0, 0.0);
    for g in &games {
        let last = f64::from(*g.evals.last().unwrap()) / 100.0;
        se += g.result;
        sp += evallab::metrics::relevance::math::prob_exp(last, 0.8);
    }
    let n = games.len() as f64;
    assert!(((se - sp) / n).abs() < 0.01, "{} vs {}", se / n, sp / n);
    assert!((eval_at(0.75, 0.8) - 0.8).abs() < 1e-12);
    assert!((eval_at(0.25, 0.8) + 0.8).abs() < 1e-12);
    // The ml fit recovers x05 from many such games.
    let c = calibrate_group(&games, 0, 1);
    let x = c.ml.value.unwrap();
    assert!((x / 0.8 - 1.0).abs() < 0.05, "{x}");
}
