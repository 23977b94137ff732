//! Which eval → outcome model predicts game results best, out of sample
//! (docs/definitions/wdl.md, W10–W12): every model is fitted on the training
//! events and scored on the test events' positions, each position's
//! predicted expected score (own POV) against its game's score (1, ½, 0).
//!
//! Log loss −[s·ln p + (1−s)·ln(1−p)] and Brier (p − s)², each with a 95 %
//! interval clustered by game (the positions of one game share one result),
//! and the paired difference to P(x) at the best single x05, likewise.

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::sync::Arc;

use polars::prelude::*;
use rayon::prelude::*;

use super::math::{self, Grid, Model, Outcome, Prior, Settings};
use super::query::{self, cols};
use crate::metrics::balance::{BalanceOptions, Group as BalanceGroup, game_facts};
use crate::metrics::calibrate::{self, SplitMix64, golden_max, ln_tail, pool::normal_quantile};
use crate::metrics::chunks::CHUNK_PLIES;
use crate::metrics::relevance::math::prob_exp;
use crate::metrics::{Field, PLATEAU_CP, Selection, check_regex};
use crate::schema::{col, metric};

/// TCEC's published curve as an expected score: win% = 200·e^(kx)/(e^(kx)+1) − 100
/// with k = 0.575517 is 2σ(kx) − 1 of the games, so the score is σ(kx)
/// (0.75 at x ≈ 1.91).
pub fn tcec_score(x: f64) -> f64 {
    1.0 / (1.0 + (-0.575_517 * x).exp())
}

/// How the positions are split into a training and a test set.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Split {
    /// The --train events against the --test events.
    #[default]
    Events,
    /// The games of the --train events, each to one half by a seeded hash of
    /// its id: the same events (and engines) on both sides.
    Games,
}

impl crate::choice::Choice for Split {
    const ALL: &'static [Self] = &[Split::Events, Split::Games];
    fn name(self) -> &'static str {
        match self {
            Split::Events => "events",
            Split::Games => "games",
        }
    }
    fn help(self) -> &'static str {
        match self {
            Split::Events => "Train on the --train events, test on the --test events",
            Split::Games => {
                "Train on half of the --train events' games, test on the other half (by --seed; no --test)"
            }
        }
    }
}
crate::display_choice!(Split);

impl Split {
    /// Whether a game of a training event is in the test half (`Games`).
    fn test_half(seed: u64, game: i64) -> bool {
        SplitMix64(seed ^ game as u64).next_u64() >> 63 == 1
    }
}

/// The split and the settings of the validation.
#[derive(Debug, Clone)]
pub struct Options {
    /// Events of the training set (regex) and of the test set (`Split::Events`).
    pub train: String,
    pub test: String,
    pub split: Split,
    /// `Split::Games`: the seed of the halves.
    pub seed: u64,
    pub selection: Selection,
    pub settings: Settings,
    pub bin_width: i32,
    /// An engine's own WDL model needs this many training positions in the
    /// fit's window; others take the pooled model.
    pub min_engine_positions: f64,
    /// The pooled positions each engine's prior counts (the model "per engine,
    /// with the pooled prior", every engine with training positions).
    pub prior_positions: f64,
    /// The seed's default x05 (pawns), scored as one of the models.
    pub default_x05: f64,
}

/// One scored position of the test set.
struct Obs {
    game: i64,
    /// Shared by its engine's positions (an own string each would take more
    /// than the rest of the position).
    engine: Arc<str>,
    x_pawns: f64,
    material: f64,
    score: f64,
}

/// A model's predicted score for a test position.
type Predict<'a> = Box<dyn Fn(&Obs) -> f64 + 'a>;

/// A WDL model per engine, the pooled one for an engine without.
fn by_engine(models: &BTreeMap<String, Model>, pooled: Model) -> Predict<'_> {
    Box::new(move |o: &Obs| {
        models
            .get(&*o.engine)
            .unwrap_or(&pooled)
            .score(o.x_pawns * 100.0, o.material)
    })
}

/// A mean over positions with its interval clustered by game.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Mean {
    pub value: f64,
    pub lo: f64,
    pub hi: f64,
}

/// The games of a list of positions as clusters: each position's cluster,
/// numbered in game id order (the order in which [`clustered`] sums them).
struct Clusters {
    of: Vec<usize>,
    count: usize,
}

impl Clusters {
    fn new(games: &[i64]) -> Clusters {
        let mut ids = games.to_vec();
        ids.sort_unstable();
        ids.dedup();
        let of = games
            .iter()
            .map(|g| ids.binary_search(g).expect("a game of the list"))
            .collect();
        Clusters {
            of,
            count: ids.len(),
        }
    }
}

/// The mean of per-position values and its cluster-robust interval: the
/// ratio estimator's variance Σ_g (S_g − n_g·mean)² / N². The clusters are
/// found once per list of positions, not once per measure of every model.
fn clustered(values: &[f64], clusters: &Clusters, z: f64) -> Mean {
    let n = values.len() as f64;
    let mean = values.iter().sum::<f64>() / n;
    let mut per = vec![(0.0, 0.0); clusters.count];
    for (v, &c) in values.iter().zip(&clusters.of) {
        per[c].0 += v;
        per[c].1 += 1.0;
    }
    let var: f64 = per.iter().map(|(s, k)| (s - k * mean).powi(2)).sum::<f64>() / (n * n);
    let g = clusters.count as f64;
    // Small-sample factor G/(G−1) of the cluster variance.
    let se = (var * g / (g - 1.0).max(1.0)).sqrt();
    Mean {
        value: mean,
        lo: mean - z * se,
        hi: mean + z * se,
    }
}

fn log_loss(p: f64, s: f64) -> f64 {
    let p = p.clamp(1e-12, 1.0 - 1e-12);
    -(s * p.ln() + (1.0 - s) * (1.0 - p).ln())
}

/// The test positions a score is over.
pub const SUBSETS: [&str; 3] = ["all", "fit window", "outside the window"];

/// A model's scores on one subset of the test positions.
#[derive(Debug, Clone)]
pub struct SubsetScore {
    pub subset: &'static str,
    pub positions: usize,
    pub games: usize,
    pub log_loss: Mean,
    pub brier: Mean,
    /// Log loss minus that of P(x) at the best single x05 (paired).
    pub vs_best_x05: Mean,
    /// Brier minus that of P(x) at the best single x05 (paired).
    pub brier_vs_best_x05: Mean,
}

/// One model's scores on the test set.
#[derive(Debug, Clone)]
pub struct Scored {
    pub model: String,
    /// What it was fitted to, in words (its parameter).
    pub parameter: String,
    /// Per subset of [`SUBSETS`], in that order.
    pub scores: Vec<SubsetScore>,
    /// (mean predicted, mean observed, positions) per decile of the prediction.
    pub reliability: Vec<(f64, f64, usize)>,
}

/// The validation's result.
#[derive(Debug, Clone)]
pub struct Validation {
    pub train_positions: usize,
    pub train_games: usize,
    pub test_positions: usize,
    pub test_games: usize,
    pub models: Vec<Scored>,
}

/// The x05 whose P(x) minimises the log loss of positions, given as (eval in
/// pawns, score, how many) (golden section on ln x05 over 0.05–20 pawns).
fn best_x05(positions: &[(f64, f64, f64)]) -> f64 {
    let loss = |lx: f64| -> f64 {
        let x05 = lx.exp();
        // Each side's logarithm exact where P is confident (calibrate's
        // likelihood, `ln_tail`): the search stops on no rounding wiggle.
        positions
            .iter()
            .map(|&(x, score, n)| {
                let small = ln_tail(x, x05);
                let large = (-small.exp()).ln_1p();
                let (ln_p, ln_q) = if x <= 0.0 {
                    (small, large)
                } else {
                    (large, small)
                };
                -n * (score * ln_p + (1.0 - score) * ln_q)
            })
            .sum()
    };
    golden_max(|lx| -loss(lx), 0.05f64.ln(), 20f64.ln(), 1e-6).exp()
}

/// What the models need of the training positions, added up as they are
/// read: the WDL grids, the positions per (eval, score) for the best single
/// x05, and the totals. No position is kept: the memory grows with the
/// engines, the cells they fill and the games, not with the plies.
struct Training {
    pooled: Grid,
    /// The same counts on every eval up to the ±10-pawn clamp.
    wide: Grid,
    /// Each engine's index in `cells`, by name.
    engines: BTreeMap<Arc<str>, usize>,
    /// Per (engine, cell of `pooled`): the positions by outcome. Sparse:
    /// most engines fill a few of a grid's cells, and a dense grid (1.2 MB)
    /// is made for one engine at a time, to be fitted.
    cells: BTreeMap<(usize, usize), [f64; 3]>,
    /// Positions per (eval in pawns, score), both as their bits.
    eval_scores: BTreeMap<(u64, u64), f64>,
    positions: usize,
    score_sum: f64,
    games: BTreeSet<i64>,
}

impl Training {
    fn new(s: &Settings, wide: &Settings) -> Training {
        Training {
            pooled: Grid::new(s),
            wide: Grid::new(wide),
            engines: BTreeMap::new(),
            cells: BTreeMap::new(),
            eval_scores: BTreeMap::new(),
            positions: 0,
            score_sum: 0.0,
            games: BTreeSet::new(),
        }
    }

    fn add(&mut self, s: &Settings, wide: &Settings, o: &Obs, outcome: Outcome, mv: i32, key: i32) {
        let m = o.material as i32;
        if let Some(cell) = self.pooled.cell(s, mv, m, key) {
            self.pooled.add_to(cell, outcome, 1.0);
            let next = self.engines.len();
            let engine = *self.engines.entry(o.engine.clone()).or_insert(next);
            self.cells.entry((engine, cell)).or_default()[outcome as usize] += 1.0;
        }
        self.wide.add(wide, outcome, mv, m, key, 1.0);
        *self
            .eval_scores
            .entry((o.x_pawns.to_bits(), o.score.to_bits()))
            .or_default() += 1.0;
        self.positions += 1;
        self.score_sum += o.score;
        self.games.insert(o.game);
    }

    /// The grid of the engine at `index` in `cells`.
    fn engine_grid(&self, s: &Settings, index: usize) -> Grid {
        let mut g = Grid::new(s);
        for (&(_, cell), counts) in self.cells.range((index, 0)..(index + 1, 0)) {
            for o in [Outcome::Win, Outcome::Draw, Outcome::Loss] {
                g.add_to(cell, o, counts[o as usize]);
            }
        }
        g
    }

    /// (eval in pawns, score, positions), for [`best_x05`].
    fn eval_scores(&self) -> Vec<(f64, f64, f64)> {
        self.eval_scores
            .iter()
            .map(|(&(x, score), &n)| (f64::from_bits(x), f64::from_bits(score), n))
            .collect()
    }
}

/// Reads the positions of the standard games with a cp eval (mates and
/// plateaus out), each with its event.
/// A position with its event, outcome, move number and eval key.
type Observation = (Arc<str>, Obs, Outcome, i32, i32);

fn observations(df: &DataFrame, names: &mut HashSet<Arc<str>>) -> PolarsResult<Vec<Observation>> {
    let mut name = |s: Option<&str>| -> Arc<str> {
        let s = s.unwrap_or("");
        if let Some(a) = names.get(s) {
            return a.clone();
        }
        let a: Arc<str> = s.into();
        names.insert(a.clone());
        a
    };
    let event = df.column(col::EVENT)?.str()?;
    let game = df.column(col::GAME_ID)?.i64()?;
    let engine = df.column(metric::ENGINE)?.str()?;
    let cp = df.column(cols::OWN_CP)?.i32()?;
    let material = df.column(cols::MATERIAL)?.i32()?;
    let score = df.column(metric::SCORE)?.f64()?;
    let outcome = df.column(cols::OUTCOME)?.str()?;
    let mv = df.column(cols::MOVE)?.i32()?;
    let key = df.column(cols::EVAL)?.i32()?;
    let mut out = Vec::with_capacity(df.height());
    for i in 0..df.height() {
        let (Some(cp), Some(m)) = (cp.get(i), material.get(i)) else {
            continue;
        };
        out.push((
            name(event.get(i)),
            Obs {
                game: game.get(i).unwrap_or(0),
                engine: name(engine.get(i)),
                x_pawns: f64::from(cp) / 100.0,
                material: f64::from(m),
                score: score.get(i).unwrap_or(0.5),
            },
            outcome
                .get(i)
                .and_then(|o| o.chars().next())
                .and_then(Outcome::from_letter)
                .unwrap_or(Outcome::Draw),
            mv.get(i).unwrap_or(0),
            key.get(i).unwrap_or(0),
        ));
    }
    Ok(out)
}

/// Fits every model on the training events and scores it on the test events.
pub fn validate(
    games: LazyFrame,
    moves: LazyFrame,
    opts: &Options,
) -> Result<Validation, crate::Error> {
    let regexes: &[&String] = match opts.split {
        Split::Events => &[&opts.train, &opts.test],
        Split::Games => &[&opts.train],
    };
    for re in regexes {
        check_regex(Field::Event, re)?;
    }
    let regex = |re: &str| regex::Regex::new(re).map_err(|e| crate::Error::Usage(e.to_string()));
    let train_re = regex(&opts.train)?;
    let test_re = match opts.split {
        Split::Events => Some(regex(&opts.test)?),
        Split::Games => None,
    };
    // The test positions' games, kept out of calibrate's fit (its selection
    // is the --train events, which hold the test half with `Split::Games`).
    let mut test_games = BTreeSet::new();
    let s = &opts.settings;
    // The same model fitted on every eval up to the ±10-pawn clamp, not only
    // the reference's ±4 pawns: how much of the loss is extrapolation.
    let wide_settings = Settings {
        eval_max: query::EVAL_CLAMP,
        ..*s
    };
    // Chunk by chunk, each training position added into the counts, each
    // test position kept (the reliability deciles sort them).
    let mut train = Training::new(s, &wide_settings);
    let mut test = Vec::new();
    let mut names = HashSet::new();
    query::in_chunks(
        games.clone(),
        moves.clone(),
        &opts.selection,
        CHUNK_PLIES,
        |g, m| {
            let df = query::positions(g, m, &opts.selection, opts.bin_width)
                .filter(
                    col(col::VARIANT)
                        .eq(lit("standard"))
                        .and(col(cols::OWN_CP).abs().lt(lit(PLATEAU_CP))),
                )
                .collect()?;
            for (event, o, outcome, mv, key) in observations(&df, &mut names)? {
                let is_test = match &test_re {
                    Some(re) => re.is_match(&event),
                    None => train_re.is_match(&event) && Split::test_half(opts.seed, o.game),
                };
                if is_test {
                    test_games.insert(o.game);
                    test.push(o);
                } else if train_re.is_match(&event) {
                    train.add(s, &wide_settings, &o, outcome, mv, key);
                }
            }
            Ok(())
        },
    )?;
    if train.positions == 0 || test.is_empty() {
        return Err(crate::Error::Usage(format!(
            "the split leaves {} training and {} test positions: --train and --test must each match events with evals (--split games: --train events with games on both halves)",
            train.positions,
            test.len()
        )));
    }
    // The WDL models: pooled, and per engine where it has enough positions.
    let wide = math::fit(&train.wide, &wide_settings)
        .map_err(|e| crate::Error::InputData(format!("the pooled WDL model to ±10 pawns: {e}")))?
        .model;
    let pooled = math::fit(&train.pooled, s)
        .map_err(|e| crate::Error::InputData(format!("the pooled WDL model: {e}")))?
        .model;
    let per_engine: BTreeMap<String, Model> = train
        .engines
        .iter()
        .filter_map(|(e, &index)| {
            let g = train.engine_grid(s, index);
            (g.retained().iter().sum::<f64>() >= opts.min_engine_positions)
                .then(|| Some((e.to_string(), math::fit(&g, s).ok()?.model)))?
        })
        .collect();
    // Every engine with training positions, its fit leaning on the pool.
    let prior = Prior::new(&train.pooled, &pooled, s, opts.prior_positions);
    let with_prior: BTreeMap<String, Model> = match &prior {
        Some(p) => train
            .engines
            .par_iter()
            .filter_map(|(e, &index)| {
                let g = train.engine_grid(s, index);
                Some((e.to_string(), math::fit_with_prior(&g, s, p).ok()?.model))
            })
            .collect(),
        None => BTreeMap::new(),
    };
    let best = best_x05(&train.eval_scores());
    let mean_score = train.score_sum / train.positions as f64;
    // calibrate's pooled per-engine x05 on the training events; an engine it
    // has no value for takes the pool's mean.
    let cal_opts = BalanceOptions {
        group: BalanceGroup::Engine,
        selection: Selection {
            event: Some(opts.train.clone()),
            ..opts.selection.clone()
        },
    };
    let test_ids = Series::new("test".into(), test_games.into_iter().collect::<Vec<i64>>());
    let facts = game_facts(games, moves, &cal_opts, true)?.filter(
        col(col::GAME_ID)
            .is_in(lit(test_ids).implode(false), false)
            .not(),
    );
    let cal = calibrate::calibrate(
        facts,
        &cal_opts,
        calibrate::Settings {
            bootstrap: 0,
            seed: 1,
            level: 0.95,
        },
        &crate::metrics::Ticker::default(),
    )?;
    let cal_mean = cal.prior.map_or(opts.default_x05, |p| p.mu.exp());
    let cal_x05: BTreeMap<String, f64> = cal
        .results
        .iter()
        .zip(&cal.pooled)
        .filter_map(|((k, _), p)| Some((k.first()?.clone(), p.as_ref()?.value)))
        .collect();
    let d = opts.default_x05;
    let models: Vec<(String, String, Predict)> = vec![
        (
            "constant".into(),
            format!("training mean score {mean_score:.4}"),
            Box::new(move |_: &Obs| mean_score),
        ),
        (
            "P(x), default x05".into(),
            format!("x05 {d}"),
            Box::new(move |o: &Obs| prob_exp(o.x_pawns, d)),
        ),
        (
            "TCEC formula".into(),
            "score σ(0.575517·x): x05 ≈ 1.91".into(),
            Box::new(|o: &Obs| tcec_score(o.x_pawns)),
        ),
        (
            "P(x), best single x05".into(),
            format!("x05 {best:.3} (max likelihood on the training positions)"),
            Box::new(move |o: &Obs| prob_exp(o.x_pawns, best)),
        ),
        (
            "P(x), calibrate per engine".into(),
            format!(
                "pooled x05 of {} engines (others {cal_mean:.3})",
                cal_x05.len()
            ),
            Box::new(|o: &Obs| {
                prob_exp(
                    o.x_pawns,
                    cal_x05.get(&*o.engine).copied().unwrap_or(cal_mean),
                )
            }),
        ),
        (
            "WDL model, pooled".into(),
            format!(
                "a({}) = {:.1} cp; b = {:.1} cp",
                s.mom_target,
                pooled.a(f64::from(s.mom_target)),
                pooled.b(f64::from(s.mom_target))
            ),
            Box::new(|o: &Obs| pooled.score(o.x_pawns * 100.0, o.material)),
        ),
        (
            "WDL model, pooled, evals to ±10 pawns".into(),
            format!(
                "--eval-max 1000: a({}) = {:.1} cp; b = {:.1} cp",
                s.mom_target,
                wide.a(f64::from(s.mom_target)),
                wide.b(f64::from(s.mom_target))
            ),
            Box::new(|o: &Obs| wide.score(o.x_pawns * 100.0, o.material)),
        ),
        (
            "WDL model, per engine".into(),
            format!(
                "{} engines with ≥ {} positions (others pooled)",
                per_engine.len(),
                opts.min_engine_positions
            ),
            by_engine(&per_engine, pooled),
        ),
        (
            "WDL model, per engine, pooled prior".into(),
            format!(
                "{} engines, each with the pool as {} positions (others pooled)",
                with_prior.len(),
                opts.prior_positions
            ),
            by_engine(&with_prior, pooled),
        ),
    ];
    let z = normal_quantile(0.975);
    // The subsets: every test position; those inside the fit's window
    // (|x| ≤ --eval-max, material in range); those outside.
    let inside: Vec<bool> = test
        .iter()
        .map(|o| {
            (o.x_pawns * 100.0).abs() <= f64::from(s.eval_max)
                && (f64::from(s.material_min)..=f64::from(s.material_max)).contains(&o.material)
        })
        .collect();
    // Per subset of SUBSETS: whether a test position belongs to it.
    let keep = |k: usize, i: usize| match k {
        0 => true,
        1 => inside[i],
        _ => !inside[i],
    };
    let base: Vec<(f64, f64)> = test
        .iter()
        .map(|o| {
            let p = prob_exp(o.x_pawns, best);
            (log_loss(p, o.score), (p - o.score).powi(2))
        })
        .collect();
    // Each subset's positions and their games, the same for every model.
    let subsets: Vec<(Vec<usize>, Clusters)> = (0..SUBSETS.len())
        .map(|k| {
            let idx: Vec<usize> = (0..test.len()).filter(|&i| keep(k, i)).collect();
            let games: Vec<i64> = idx.iter().map(|&i| test[i].game).collect();
            (idx, Clusters::new(&games))
        })
        .collect();
    let scored = models
        .into_iter()
        .map(|(name, parameter, f)| {
            let p: Vec<f64> = test.iter().map(&f).collect();
            let scores = SUBSETS
                .iter()
                .zip(&subsets)
                .map(|(subset, (idx, games))| {
                    let ll: Vec<f64> = idx.iter().map(|&i| log_loss(p[i], test[i].score)).collect();
                    let br: Vec<f64> = idx
                        .iter()
                        .map(|&i| (p[i] - test[i].score).powi(2))
                        .collect();
                    let diff: Vec<f64> = idx.iter().zip(&ll).map(|(&i, l)| l - base[i].0).collect();
                    let bdiff: Vec<f64> =
                        idx.iter().zip(&br).map(|(&i, b)| b - base[i].1).collect();
                    SubsetScore {
                        subset,
                        positions: idx.len(),
                        games: games.count,
                        log_loss: clustered(&ll, games, z),
                        brier: clustered(&br, games, z),
                        vs_best_x05: clustered(&diff, games, z),
                        brier_vs_best_x05: clustered(&bdiff, games, z),
                    }
                })
                .collect();
            Scored {
                model: name,
                parameter,
                scores,
                reliability: reliability(&p, &test),
            }
        })
        .collect();
    let games: Vec<i64> = test.iter().map(|o| o.game).collect();
    Ok(Validation {
        train_positions: train.positions,
        train_games: train.games.len(),
        test_positions: test.len(),
        test_games: games
            .iter()
            .collect::<std::collections::BTreeSet<_>>()
            .len(),
        models: scored,
    })
}

/// Mean predicted and observed score per decile of the prediction.
fn reliability(p: &[f64], test: &[Obs]) -> Vec<(f64, f64, usize)> {
    let mut idx: Vec<usize> = (0..p.len()).collect();
    idx.sort_by(|&a, &b| p[a].total_cmp(&p[b]));
    let n = idx.len();
    (0..10)
        .map(|k| {
            let part = &idx[k * n / 10..(k + 1) * n / 10];
            let m = part.len().max(1) as f64;
            (
                part.iter().map(|&i| p[i]).sum::<f64>() / m,
                part.iter().map(|&i| test[i].score).sum::<f64>() / m,
                part.len(),
            )
        })
        .collect()
}

/// Validation output columns.
pub mod out {
    pub const MODEL: &str = "model";
    pub const PARAMETER: &str = "parameter";
    pub const SUBSET: &str = "positions";
    pub const POSITIONS: &str = "test_positions";
    pub const GAMES: &str = "test_games";
    pub const LOG_LOSS: [&str; 3] = ["log_loss", "log_loss_lo", "log_loss_hi"];
    pub const BRIER: [&str; 3] = ["brier", "brier_lo", "brier_hi"];
    pub const VS_BEST: [&str; 3] = ["log_loss_vs_best_x05", "vs_best_lo", "vs_best_hi"];
    pub const BRIER_VS_BEST: [&str; 3] =
        ["brier_vs_best_x05", "brier_vs_best_lo", "brier_vs_best_hi"];
    pub const DECILE: &str = "decile";
    pub const PREDICTED: &str = "predicted";
    pub const OBSERVED: &str = "observed";
}

impl Validation {
    /// One row per model and subset of the test positions.
    pub fn table(&self) -> PolarsResult<DataFrame> {
        let rows: Vec<(&Scored, &SubsetScore)> = self
            .models
            .iter()
            .flat_map(|m| m.scores.iter().map(move |s| (m, s)))
            .collect();
        let mut columns = vec![
            Column::new(
                out::MODEL.into(),
                rows.iter()
                    .map(|(m, _)| m.model.clone())
                    .collect::<Vec<_>>(),
            ),
            Column::new(
                out::PARAMETER.into(),
                rows.iter()
                    .map(|(m, _)| m.parameter.clone())
                    .collect::<Vec<_>>(),
            ),
            Column::new(
                out::SUBSET.into(),
                rows.iter().map(|(_, s)| s.subset).collect::<Vec<_>>(),
            ),
            Column::new(
                out::POSITIONS.into(),
                rows.iter()
                    .map(|(_, s)| s.positions as u64)
                    .collect::<Vec<_>>(),
            ),
            Column::new(
                out::GAMES.into(),
                rows.iter().map(|(_, s)| s.games as u64).collect::<Vec<_>>(),
            ),
        ];
        for (names, f) in [
            (
                out::LOG_LOSS,
                (|s: &SubsetScore| s.log_loss) as fn(&SubsetScore) -> Mean,
            ),
            (out::BRIER, |s: &SubsetScore| s.brier),
            (out::VS_BEST, |s: &SubsetScore| s.vs_best_x05),
            (out::BRIER_VS_BEST, |s: &SubsetScore| s.brier_vs_best_x05),
        ] {
            for (k, g) in [|m: Mean| m.value, |m: Mean| m.lo, |m: Mean| m.hi]
                .into_iter()
                .enumerate()
            {
                columns.push(Column::new(
                    names[k].into(),
                    rows.iter().map(|(_, s)| g(f(s))).collect::<Vec<_>>(),
                ));
            }
        }
        DataFrame::new_infer_height(columns)
    }

    /// The reliability table: per model and decile of its prediction, the
    /// mean predicted and observed score.
    pub fn reliability_table(&self) -> PolarsResult<DataFrame> {
        let (mut model, mut decile, mut pred, mut obs, mut n) =
            (vec![], vec![], vec![], vec![], vec![]);
        for s in &self.models {
            for (k, (p, o, c)) in s.reliability.iter().enumerate() {
                model.push(s.model.clone());
                decile.push(k as u32 + 1);
                pred.push(*p);
                obs.push(*o);
                n.push(*c as u64);
            }
        }
        DataFrame::new_infer_height(vec![
            Column::new(out::MODEL.into(), model),
            Column::new(out::DECILE.into(), decile),
            Column::new(out::PREDICTED.into(), pred),
            Column::new(out::OBSERVED.into(), obs),
            Column::new(out::POSITIONS.into(), n),
        ])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tcec_score_is_three_quarters_at_1_91() {
        assert!((tcec_score(1.909) - 0.75).abs() < 1e-3);
        assert_eq!(tcec_score(0.0), 0.5);
    }

    #[test]
    fn clustered_interval_widens_with_correlated_games() {
        // Two games, each with identical values: the clusters carry the variance.
        let v = [1.0, 1.0, 1.0, 0.0, 0.0, 0.0];
        let m = clustered(&v, &Clusters::new(&[1, 1, 1, 2, 2, 2]), 1.96);
        assert_eq!(m.value, 0.5);
        // Σ (S_g − n_g·0.5)² / N² = (1.5² + 1.5²)/36 = 0.125, × G/(G−1) = 2 → se 0.5.
        assert!((m.hi - m.value - 1.96 * 0.5).abs() < 1e-12);
        // Clusters numbered in game id order, whatever the positions' order.
        let c = Clusters::new(&[5, 2, 5, 9, 2]);
        assert_eq!((c.of, c.count), (vec![1, 0, 1, 2, 0], 3));
    }

    #[test]
    fn best_x05_recovers_the_curve_of_its_data() {
        // Positions whose scores are P(x) at x05 = 1.2 exactly (fractional outcomes).
        let positions: Vec<(f64, f64, f64)> = (-40..=40)
            .map(|i| {
                let x = f64::from(i) / 10.0;
                (x, prob_exp(x, 1.2), 1.0)
            })
            .collect();
        assert!((best_x05(&positions) - 1.2).abs() < 1e-4);
        // Counted positions weigh as that many single ones: 3 wins and a
        // loss at +1 pawn make P(1) = 3/4, so x05 = 1 (P(x05) = 3/4).
        let counted = best_x05(&[(1.0, 1.0, 3.0), (1.0, 0.0, 1.0)]);
        let single = best_x05(&[
            (1.0, 1.0, 1.0),
            (1.0, 1.0, 1.0),
            (1.0, 1.0, 1.0),
            (1.0, 0.0, 1.0),
        ]);
        assert!((counted - single).abs() < 1e-9);
        assert!((counted - 1.0).abs() < 1e-4, "{counted}");
    }

    /// Training's sparse cells give each engine the grid that adding its
    /// positions one by one gives, the pooled grid all of them, and the
    /// totals count every position (those outside the window too).
    #[test]
    fn training_counts_are_the_positions_grids() {
        let s = Settings::default();
        let wide = Settings {
            eval_max: query::EVAL_CLAMP,
            ..s
        };
        let mut t = Training::new(&s, &wide);
        let (mut pooled, mut per_engine) = (Grid::new(&s), BTreeMap::new());
        let outcomes = [Outcome::Win, Outcome::Draw, Outcome::Loss];
        for i in 0..300 {
            let engine: Arc<str> = ["a", "b", "c"][i % 3].into();
            // Material 10–79 and evals to ±600: some outside the window.
            let (material, key, mv) = (
                10 + (i * 7) % 70,
                (i as i32 * 37) % 1201 - 600,
                1 + i as i32 % 130,
            );
            let o = Obs {
                game: (i / 10) as i64,
                engine: engine.clone(),
                x_pawns: f64::from(key) / 100.0,
                material: material as f64,
                score: [1.0, 0.5, 0.0][i % 3],
            };
            let outcome = outcomes[(i / 3) % 3];
            t.add(&s, &wide, &o, outcome, mv, key);
            pooled.add(&s, outcome, mv, material as i32, key, 1.0);
            per_engine
                .entry(engine)
                .or_insert_with(|| Grid::new(&s))
                .add(&s, outcome, mv, material as i32, key, 1.0);
        }
        assert_eq!(t.pooled, pooled);
        assert!(pooled.retained().iter().sum::<f64>() > 0.0);
        for (name, grid) in &per_engine {
            assert_eq!(&t.engine_grid(&s, t.engines[name]), grid, "{name}");
        }
        assert_eq!((t.positions, t.games.len()), (300, 30));
        assert_eq!(t.eval_scores().iter().map(|p| p.2).sum::<f64>(), 300.0);
        assert_eq!(t.score_sum, 150.0);
    }

    #[test]
    fn log_loss_is_binary_cross_entropy_with_fractional_outcomes() {
        assert!((log_loss(0.5, 0.5) - std::f64::consts::LN_2).abs() < 1e-15);
        assert!((log_loss(0.75, 1.0) + 0.75f64.ln()).abs() < 1e-15);
    }
}
