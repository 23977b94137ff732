//! The engine inputs per position from the `analysis` and `policy` tables,
//! the puzzles' table of line features and its rank correlations with the
//! rating (overall and per theme), the expected rating of game positions,
//! and the tables of the models' cross-validation and of predictions.

use std::collections::HashMap;

use polars::prelude::*;
use rayon::prelude::*;

use super::cols;
use super::line::{Board, EngineStep, FEATURES, board, features, forced, step};
use super::math::{Estimate, correlations};
use super::measures::{Line, Position, measures};
use super::model::{Assessed, CvScore, RatingModel, Sample, errors};
use super::puzzles::{SOLVER_FIRST_PLY, cols as pcols, puzzles};
use crate::dataset::game_ids;
use crate::metrics::ease::math::Form;
use crate::metrics::ease::query::{EaseOptions, used_lines};
use crate::metrics::start_position;
use crate::schema::{col, policy_col};

/// Which analysis and policy runs, how many lines.
#[derive(Debug, Clone)]
pub struct DifficultyOptions {
    pub analysis_label: String,
    pub policy_label: String,
    /// The reference's top N lines (as `ease --top`).
    pub top: u8,
}

/// The inputs of [`measures`] for every position of `keys` (game_id, ply).
pub fn positions(
    analysis: LazyFrame,
    policy: LazyFrame,
    keys: LazyFrame,
    opts: &DifficultyOptions,
) -> PolarsResult<HashMap<(i64, u32), Position>> {
    let on = || [col(col::GAME_ID), col(col::PLY)];
    let only = |lf: LazyFrame| lf.join(keys.clone(), on(), on(), JoinArgs::new(JoinType::Semi));
    let ease = EaseOptions {
        analysis_label: opts.analysis_label.clone(),
        policy_label: opts.policy_label.clone(),
        top: opts.top,
        form: Form::Sum,
    };
    let mine = only(
        analysis
            .clone()
            .filter(col(col::LABEL).eq(lit(opts.analysis_label.as_str()))),
    );
    let mut out: HashMap<(i64, u32), Position> = HashMap::new();
    let key = |df: &DataFrame| -> PolarsResult<Vec<(i64, u32)>> {
        let g = df.column(col::GAME_ID)?.i64()?.clone();
        let p = df.column(col::PLY)?.u32()?.clone();
        Ok(g.into_no_null_iter().zip(p.into_no_null_iter()).collect())
    };
    let strs = |df: &DataFrame, c: &str| -> PolarsResult<Vec<String>> {
        let s = df.column(c)?.str()?.clone();
        Ok(s.iter()
            .map(|v| v.unwrap_or_default().to_string())
            .collect())
    };
    // The lines ease uses; a final line without a Q (a bound) is listed
    // without one, and is superseded by the same MultiPV's line with a Q.
    let lines = only(used_lines(analysis.clone(), &ease)?).collect()?;
    let (k, mv) = (key(&lines)?, strs(&lines, col::MOVE)?);
    let multipv = lines.column(col::MULTIPV)?.u8()?.clone();
    let q = lines.column("q")?.f64()?.clone();
    for (i, (k, mv)) in k.into_iter().zip(mv).enumerate() {
        let (multipv, q) = (multipv.get(i).unwrap_or_default(), q.get(i));
        let lines = &mut out.entry(k).or_default().lines;
        match lines.iter_mut().find(|l| l.multipv == multipv) {
            Some(l) if q.is_some() => *l = Line { multipv, mv, q },
            Some(_) => {}
            None => lines.push(Line { multipv, mv, q }),
        }
    }
    // The MultiPV 1 move per depth (the last row of a depth), and the final one.
    let best = mine
        .clone()
        .filter(col(col::MULTIPV).eq(lit(1u8)))
        .with_column(
            col(col::IS_FINAL)
                .not()
                .cast(DataType::UInt32)
                .sum()
                .over(on())?
                .gt(lit(0))
                .alias("all_depths"),
        )
        .with_row_index("row", None)
        .sort(
            [col::GAME_ID, col::PLY, col::DEPTH, "row"],
            SortMultipleOptions::default(),
        )
        .collect()?;
    let (k, mv) = (key(&best)?, strs(&best, col::MOVE)?);
    let depth = best.column(col::DEPTH)?.u16()?.clone();
    let fin = best.column(col::IS_FINAL)?.bool()?.clone();
    let all = best.column("all_depths")?.bool()?.clone();
    for (i, (k, mv)) in k.into_iter().zip(mv).enumerate() {
        let p = out.entry(k).or_default();
        if fin.get(i) == Some(true) {
            p.final_best = Some(mv.clone());
        }
        if all.get(i) == Some(true) {
            let d = depth.get(i).unwrap_or_default();
            match p.best_by_depth.last_mut() {
                Some(last) if last.0 == d => last.1 = mv,
                _ => p.best_by_depth.push((d, mv)),
            }
        }
    }
    let priors = only(
        policy
            .filter(col(col::LABEL).eq(lit(opts.policy_label.as_str())))
            .select([
                col(col::GAME_ID),
                col(col::PLY),
                col(col::MOVE),
                col(policy_col::PRIOR).cast(DataType::Float64),
            ]),
    )
    .collect()?;
    let (k, mv) = (key(&priors)?, strs(&priors, col::MOVE)?);
    let prior = priors.column(policy_col::PRIOR)?.f64()?.clone();
    for (i, (k, mv)) in k.into_iter().zip(mv).enumerate() {
        if let Some(v) = prior.get(i) {
            out.entry(k).or_default().priors.push((mv, v));
        }
    }
    Ok(out)
}

/// A game's start and moves, for replaying its lines.
struct Replay {
    start_fen: Option<String>,
    chess960: bool,
    /// The moves in UCI, and whether each captured.
    moves: Vec<String>,
    captures: Vec<bool>,
}

/// The start and moves of each game of `ids`.
fn replays(games: LazyFrame, moves: LazyFrame, ids: &[i64]) -> PolarsResult<HashMap<i64, Replay>> {
    let keep = Series::new("ids".into(), ids);
    let only =
        |lf: LazyFrame| lf.filter(col(col::GAME_ID).is_in(lit(keep.clone()).implode(false), false));
    let g = only(games.select([col(col::GAME_ID), col(col::START_FEN), col(col::VARIANT)]))
        .collect()?;
    let mut out: HashMap<i64, Replay> = HashMap::with_capacity(g.height());
    let (gid, fen, var) = (
        g.column(col::GAME_ID)?.i64()?,
        g.column(col::START_FEN)?.str()?,
        g.column(col::VARIANT)?.str()?,
    );
    for i in 0..g.height() {
        let Some(id) = gid.get(i) else { continue };
        out.insert(
            id,
            Replay {
                start_fen: fen.get(i).map(str::to_string),
                chess960: var.get(i) == Some("chess960"),
                moves: Vec::new(),
                captures: Vec::new(),
            },
        );
    }
    let m = only(moves.select([
        col(col::GAME_ID),
        col(col::PLY),
        col(col::UCI),
        col(col::IS_CAPTURE),
    ]))
    .sort([col::GAME_ID, col::PLY], SortMultipleOptions::default())
    .collect()?;
    let (gid, uci, cap) = (
        m.column(col::GAME_ID)?.i64()?,
        m.column(col::UCI)?.str()?,
        m.column(col::IS_CAPTURE)?.bool()?,
    );
    for i in 0..m.height() {
        if let (Some(r), Some(u)) = (gid.get(i).and_then(|g| out.get_mut(&g)), uci.get(i)) {
            r.moves.push(u.to_string());
            r.captures.push(cap.get(i).unwrap_or(false));
        }
    }
    Ok(out)
}

impl Replay {
    /// The board of the line from the position before `ply` through
    /// `solver_steps` solver moves (the opponent's replies between them),
    /// `first` the solver's first move, the game's after it.
    fn board(&self, ply: u32, solver_steps: usize, first: &str) -> Result<Board, String> {
        let mut pos = start_position(self.start_fen.as_deref(), self.chess960)?;
        let from = ply as usize - 1;
        for m in &self.moves[..from] {
            let uci: shakmaty::uci::UciMove = m.parse().map_err(|e| format!("`{m}`: {e}"))?;
            let mv = uci.to_move(&pos).map_err(|e| format!("`{m}`: {e}"))?;
            shakmaty::Position::play_unchecked(&mut pos, mv);
        }
        let to = (from + 2 * solver_steps - 1).min(self.moves.len());
        let after_capture = from > 0 && self.captures[from - 1];
        let mut line = self.moves[from..to].to_vec();
        if let Some(m) = line.first_mut() {
            first.clone_into(m);
        }
        board(&pos, &line, after_capture)
    }
}

/// A puzzle's solver plies: 2, 4, … up to its last move.
fn solver_plies(moves: usize) -> Vec<u32> {
    (1..=moves as u32 / 2).map(|k| 2 * k).collect()
}

/// The feature names: the line's, then `theme:NAME` for each of `themes`.
#[must_use]
pub fn feature_names(themes: &[String]) -> Vec<String> {
    FEATURES
        .iter()
        .map(|f| f.0.to_string())
        .chain(themes.iter().map(|t| format!("{THEME_PREFIX}{t}")))
        .collect()
}

/// A theme feature's name starts with this.
pub const THEME_PREFIX: &str = "theme:";

/// Themes held by at least this share of the puzzles become features
/// (`--themes`).
pub const THEME_MIN_SHARE: f64 = 0.01;

/// The themes of at least [`THEME_MIN_SHARE`] of `puzzles`, most common first.
pub fn common_themes(puzzles: &DataFrame) -> PolarsResult<Vec<String>> {
    let themes = puzzles.column(pcols::THEMES)?.str()?;
    let mut count: HashMap<&str, usize> = HashMap::new();
    for t in themes.iter() {
        for t in t.unwrap_or_default().split_ascii_whitespace() {
            *count.entry(t).or_default() += 1;
        }
    }
    let min = (THEME_MIN_SHARE * puzzles.height() as f64).ceil() as usize;
    let mut v: Vec<(&str, usize)> = count.into_iter().filter(|c| c.1 >= min.max(1)).collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    Ok(v.into_iter().map(|t| t.0.to_string()).collect())
}

/// One row per puzzle (its whole solution line): the puzzle's fields, every
/// line feature ([`FEATURES`]), and why the engine features are missing.
/// In puzzle id order.
pub fn puzzle_features(
    (games, moves, analysis, policy): (LazyFrame, LazyFrame, LazyFrame, LazyFrame),
    opts: &DifficultyOptions,
) -> PolarsResult<DataFrame> {
    let mut table = puzzles(games.clone(), moves.clone())
        .sort([pcols::PUZZLE_ID], SortMultipleOptions::default())
        .collect()?;
    let ids = game_ids(&table)?;
    let games = replays(games, moves, &ids)?;
    let (mut kg, mut kp) = (Vec::new(), Vec::new());
    for id in &ids {
        for q in solver_plies(games.get(id).map_or(0, |r| r.moves.len())) {
            kg.push(*id);
            kp.push(q);
        }
    }
    let keys = df![col::GAME_ID => kg, col::PLY => kp]?.lazy();
    let inputs = positions(analysis, policy, keys, opts)?;
    let none = Position::default();
    let rows: Vec<(Vec<Option<f64>>, Option<String>)> = ids
        .par_iter()
        .map(|id| {
            let Some(r) = games.get(id) else {
                return (
                    vec![None; FEATURES.len()],
                    Some("the puzzle's moves are missing".into()),
                );
            };
            let plies = solver_plies(r.moves.len());
            let Some(solution) = r.moves.get(SOLVER_FIRST_PLY as usize - 1) else {
                return (
                    vec![None; FEATURES.len()],
                    Some("the puzzle has no solver move".into()),
                );
            };
            let b = match r.board(SOLVER_FIRST_PLY, plies.len(), solution) {
                Ok(b) => b,
                Err(e) => return (vec![None; FEATURES.len()], Some(e)),
            };
            let missing: Vec<String> = plies
                .iter()
                .filter(|q| {
                    inputs
                        .get(&(*id, **q))
                        .is_none_or(|p| p.lines.is_empty() || p.priors.is_empty())
                })
                .map(|q| q.to_string())
                .collect();
            let steps: Vec<EngineStep> = plies
                .iter()
                .map(|&q| {
                    step(
                        inputs.get(&(*id, q)).unwrap_or(&none),
                        &r.moves[q as usize - 1],
                    )
                })
                .collect();
            let why = (!missing.is_empty())
                .then(|| format!("no analysis or no policy before ply {}", missing.join(", ")));
            (features(&b, &steps), why)
        })
        .collect();
    for (j, (name, _)) in FEATURES.iter().enumerate() {
        let v: Vec<Option<f64>> = rows.iter().map(|r| r.0[j]).collect();
        table.with_column(Column::new((*name).into(), v))?;
    }
    table.with_column(Column::new(
        col::REASON.into(),
        rows.iter().map(|r| r.1.clone()).collect::<Vec<_>>(),
    ))?;
    Ok(table)
}

/// Puzzle id and rating of each training row (the model's training hash).
pub type Keys = Vec<(String, f64)>;

/// The training rows: each puzzle with every engine feature's steps known
/// (the line features, then one 0/1 per theme of `themes`), its rating
/// and deviation.
pub fn samples(puzzles: &DataFrame, themes: &[String]) -> PolarsResult<(Vec<Sample>, Keys)> {
    let rating = puzzles.column(pcols::RATING)?.f64()?.clone();
    let dev = puzzles.column(pcols::RATING_DEVIATION)?.f64()?.clone();
    let ids = puzzles.column(pcols::PUZZLE_ID)?.str()?.clone();
    let tags = puzzles.column(pcols::THEMES)?.str()?.clone();
    let reason = puzzles.column(col::REASON)?.str()?.clone();
    let feats: Vec<Float64Chunked> = FEATURES
        .iter()
        .map(|m| Ok(puzzles.column(m.0)?.f64()?.clone()))
        .collect::<PolarsResult<_>>()?;
    let (mut rows, mut keys) = (Vec::new(), Vec::new());
    for i in 0..puzzles.height() {
        let (Some(r), Some(id), None) = (rating.get(i), ids.get(i), reason.get(i)) else {
            continue;
        };
        let has: Vec<&str> = tags
            .get(i)
            .unwrap_or_default()
            .split_ascii_whitespace()
            .collect();
        let mut features: Vec<Option<f64>> = feats.iter().map(|f| f.get(i)).collect();
        features.extend(
            themes
                .iter()
                .map(|t| Some(f64::from(u8::from(has.contains(&t.as_str()))))),
        );
        rows.push(Sample {
            features,
            rating: r,
            deviation: dev.get(i),
        });
        keys.push((id.to_string(), r));
    }
    Ok((rows, keys))
}

/// How the correlations are computed.
#[derive(Debug, Clone, Copy)]
pub struct CorrelationOptions {
    pub resamples: usize,
    pub seed: u64,
    /// Themes with fewer puzzles are listed without correlations.
    pub min_theme: usize,
}

/// Per theme (`all` first, then the themes by puzzles, most first) and
/// measure: n (puzzles with the measure), Spearman's rho and Kendall's tau-b
/// against the rating with their bootstrap intervals; a theme below the
/// minimum gets n and a reason.
pub fn correlation_table(puzzles: &DataFrame, opts: CorrelationOptions) -> PolarsResult<DataFrame> {
    let rating = puzzles.column(pcols::RATING)?.f64()?.clone();
    let themes = puzzles.column(pcols::THEMES)?.str()?.clone();
    let mut groups: Vec<(String, Vec<usize>)> =
        vec![(cols::ALL.into(), (0..puzzles.height()).collect())];
    let mut by_theme: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, t) in themes.iter().enumerate() {
        for t in t.unwrap_or_default().split_ascii_whitespace() {
            by_theme.entry(t).or_default().push(i);
        }
    }
    let mut named: Vec<(String, Vec<usize>)> = by_theme
        .into_iter()
        .map(|(t, v)| (t.to_string(), v))
        .collect();
    named.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then(a.0.cmp(&b.0)));
    groups.extend(named);
    let feats: Vec<Float64Chunked> = FEATURES
        .iter()
        .map(|m| Ok(puzzles.column(m.0)?.f64()?.clone()))
        .collect::<PolarsResult<_>>()?;
    let tasks: Vec<(usize, usize)> = (0..groups.len())
        .flat_map(|g| (0..FEATURES.len()).map(move |m| (g, m)))
        .collect();
    let rows: Vec<(usize, Option<[Estimate; 2]>)> = tasks
        .par_iter()
        .map(|&(g, m)| {
            let (x, y): (Vec<f64>, Vec<f64>) = groups[g]
                .1
                .iter()
                .filter_map(|&i| Some((feats[m].get(i)?, rating.get(i)?)))
                .unzip();
            let ok = groups[g].1.len() >= opts.min_theme || g == 0;
            (
                x.len(),
                ok.then(|| correlations(&x, &y, opts.resamples, opts.seed)),
            )
        })
        .collect();
    let pick = |f: fn(&[Estimate; 2]) -> Option<f64>| -> Vec<Option<f64>> {
        rows.iter().map(|r| r.1.as_ref().and_then(f)).collect()
    };
    let min = opts.min_theme;
    DataFrame::new(
        tasks.len(),
        vec![
            Column::new(
                cols::THEME.into(),
                tasks
                    .iter()
                    .map(|t| groups[t.0].0.clone())
                    .collect::<Vec<_>>(),
            ),
            Column::new(
                cols::PUZZLES.into(),
                tasks
                    .iter()
                    .map(|t| groups[t.0].1.len() as u32)
                    .collect::<Vec<_>>(),
            ),
            Column::new(
                cols::MEASURE.into(),
                tasks.iter().map(|t| FEATURES[t.1].0).collect::<Vec<_>>(),
            ),
            Column::new(
                cols::N.into(),
                rows.iter().map(|r| r.0 as u32).collect::<Vec<_>>(),
            ),
            Column::new(cols::RHO.into(), pick(|e| e[0].value)),
            Column::new(cols::RHO_LO.into(), pick(|e| e[0].lo)),
            Column::new(cols::RHO_HI.into(), pick(|e| e[0].hi)),
            Column::new(cols::TAU.into(), pick(|e| e[1].value)),
            Column::new(cols::TAU_LO.into(), pick(|e| e[1].lo)),
            Column::new(cols::TAU_HI.into(), pick(|e| e[1].hi)),
            Column::new(
                col::REASON.into(),
                rows.iter()
                    .map(|r| match r {
                        (_, None) => Some(format!("fewer than {min} puzzles")),
                        (n, Some(e)) if e[0].value.is_none() => Some(if *n < 2 {
                            "fewer than 2 puzzles with the measure".to_string()
                        } else {
                            "the measure or the rating is constant".to_string()
                        }),
                        (_, Some(e)) if e[0].lo.is_none() && opts.resamples > 0 => {
                            Some("no bootstrap resample varies: no interval".to_string())
                        }
                        _ => None,
                    })
                    .collect::<Vec<_>>(),
            ),
        ],
    )
}

/// `expected_rating` of every position of `per_position` (game_id, ply
/// columns, e.g. ease's positions): `model` on the line the analysis found
/// from it (docs/definitions/difficulty.md, reading 7): the game's
/// continuation while it is forced ([`forced`]). Null where the position
/// lacks the analysis or the policy.
pub fn with_expected_rating(
    per_position: DataFrame,
    (games, moves, analysis, policy): (LazyFrame, LazyFrame, LazyFrame, LazyFrame),
    opts: &DifficultyOptions,
    model: &RatingModel,
) -> PolarsResult<DataFrame> {
    let index = feature_index(model, &feature_names(&[]))?;
    let keys = per_position.select([col::GAME_ID, col::PLY])?;
    let g = keys.column(col::GAME_ID)?.i64()?.clone();
    let p = keys.column(col::PLY)?.u32()?.clone();
    let mut ids: Vec<i64> = g.into_no_null_iter().collect();
    ids.sort_unstable();
    ids.dedup();
    let games = replays(games, moves, &ids)?;
    // Every position of those games: the lines run past the priced ones.
    let all = df![col::GAME_ID => ids.clone()]?.lazy();
    let every = analysis
        .clone()
        .filter(col(col::LABEL).eq(lit(opts.analysis_label.as_str())))
        .select([col(col::GAME_ID), col(col::PLY)])
        .unique(None, UniqueKeepStrategy::First)
        .join(
            all,
            [col(col::GAME_ID)],
            [col(col::GAME_ID)],
            JoinArgs::new(JoinType::Semi),
        );
    let inputs = positions(analysis, policy, every, opts)?;
    let priced = |p: &Position| !p.lines.is_empty() && !p.priors.is_empty();
    let expected: Vec<Option<f64>> = g
        .into_no_null_iter()
        .zip(p.into_no_null_iter())
        .collect::<Vec<_>>()
        .par_iter()
        .map(|&(id, ply)| {
            let r = games.get(&id)?;
            let played = |q: u32| r.moves.get(q as usize - 1);
            let first = inputs.get(&(id, ply)).filter(|p| priced(p))?;
            // The solution is the analysis' best move; the game's moves
            // continue the line only where the game played it.
            let best = measures(first).best_move?;
            let steps = forced(step(first, &best), |k| {
                if k == 1 && played(ply) != Some(&best) {
                    return None;
                }
                let q = ply + 2 * k as u32;
                Some(step(
                    inputs.get(&(id, q)).filter(|p| priced(p))?,
                    played(q)?,
                ))
            });
            let b = r.board(ply, steps.len(), &best).ok()?;
            let f = features(&b, &steps);
            model.predict(&index.iter().map(|&i| f[i]).collect::<Vec<_>>())
        })
        .collect();
    let mut out = per_position;
    out.with_column(Column::new(cols::EXPECTED_RATING.into(), expected))?;
    Ok(out)
}

/// The positions of `model`'s features among `names`; an error naming the
/// first it lacks (a theme feature: the model prices puzzles only).
fn feature_index(model: &RatingModel, names: &[String]) -> PolarsResult<Vec<usize>> {
    model
        .features
        .iter()
        .map(|f| {
            names.iter().position(|n| n == f).ok_or_else(|| {
                if f.starts_with(THEME_PREFIX) {
                    polars_err!(ComputeError: "the model reads the puzzles' themes (`{f}`), which game positions do not have: fit one without --themes")
                } else {
                    polars_err!(ColumnNotFound: "the model's feature `{f}` is not one evallab computes: refit it with this version")
                }
            })
        })
        .collect()
}

/// `model`'s expected rating of each row of `puzzles` ([`puzzle_features`]),
/// in row order; NaN where the puzzle is not priced (a solver position
/// lacks the analysis or the policy).
pub fn predict_puzzles(puzzles: &DataFrame, model: &RatingModel) -> PolarsResult<Vec<f64>> {
    let themes: Vec<String> = model
        .features
        .iter()
        .filter_map(|f| f.strip_prefix(THEME_PREFIX).map(str::to_string))
        .collect();
    let index = feature_index(model, &feature_names(&themes))?;
    let (rows, keys) = samples(puzzles, &themes)?;
    let values: Vec<f64> = rows
        .iter()
        .map(|r| {
            let x: Vec<Option<f64>> = index.iter().map(|&i| r.features[i]).collect();
            model.predict(&x).unwrap_or(f64::NAN)
        })
        .collect();
    aligned(puzzles, &keys, &values)
}

/// `values`, one per training row of [`samples`] (keyed by puzzle id), on
/// `puzzles`' rows; NaN where a puzzle was not a training row.
pub fn aligned(
    puzzles: &DataFrame,
    keys: &[(String, f64)],
    values: &[f64],
) -> PolarsResult<Vec<f64>> {
    let by_id: HashMap<&str, f64> = keys
        .iter()
        .map(|k| k.0.as_str())
        .zip(values.iter().copied())
        .collect();
    let ids = puzzles.column(pcols::PUZZLE_ID)?.str()?;
    Ok(ids
        .iter()
        .map(|id| id.and_then(|id| by_id.get(id).copied()).unwrap_or(f64::NAN))
        .collect())
}

/// One row per puzzle: `puzzle_id`, `rating`, `rating_deviation` and
/// `expected` as `expected_rating` (null where NaN).
pub fn predictions_table(puzzles: &DataFrame, expected: &[f64]) -> PolarsResult<DataFrame> {
    let mut out = puzzles.select([pcols::PUZZLE_ID, pcols::RATING, pcols::RATING_DEVIATION])?;
    out.with_column(Column::new(
        cols::EXPECTED_RATING.into(),
        expected
            .iter()
            .map(|v| (!v.is_nan()).then_some(*v))
            .collect::<Vec<_>>(),
    ))?;
    Ok(out)
}

/// The nested cross-validation as a table: per family (then the whole
/// choice, `selected`): the settings each outer fold chose, n, Spearman,
/// MAE and RMSE over all puzzles and over the settled ones, RMSE over the
/// settled ratings' sd, and which family the shipped model is.
pub fn models_table(assessed: &[Assessed], shipped: Option<&str>) -> PolarsResult<DataFrame> {
    let name = |a: &Assessed| a.family.map_or("selected", |f| f.name());
    // Null where the family priced no puzzle (of those counted by `n`) or the
    // measure is undefined (Spearman's rho of a constant).
    let f = |g: fn(&CvScore) -> f64, n: fn(&CvScore) -> usize| -> Vec<Option<f64>> {
        assessed
            .iter()
            .map(|a| {
                let v = g(&a.score);
                (n(&a.score) > 0 && v.is_finite()).then_some(v)
            })
            .collect()
    };
    let all = |s: &CvScore| s.n;
    let settled = |s: &CvScore| s.n_settled;
    let u = |g: fn(&CvScore) -> usize| -> Vec<u32> {
        assessed.iter().map(|a| g(&a.score) as u32).collect()
    };
    DataFrame::new(
        assessed.len(),
        vec![
            Column::new(
                cols::KIND.into(),
                assessed.iter().map(name).collect::<Vec<_>>(),
            ),
            Column::new(
                cols::SETTINGS.into(),
                assessed
                    .iter()
                    .map(|a| a.chosen.join("; "))
                    .collect::<Vec<_>>(),
            ),
            Column::new(cols::N.into(), u(|s| s.n)),
            Column::new(cols::CV_RHO.into(), f(|s| s.spearman, all)),
            Column::new(cols::CV_MAE.into(), f(|s| s.mae, all)),
            Column::new(cols::CV_MAE_SE.into(), f(|s| s.mae_se, all)),
            Column::new(cols::CV_RMSE.into(), f(|s| s.rmse, all)),
            Column::new(cols::N_SETTLED.into(), u(|s| s.n_settled)),
            Column::new(
                cols::CV_RHO_SETTLED.into(),
                f(|s| s.spearman_settled, settled),
            ),
            Column::new(cols::CV_MAE_SETTLED.into(), f(|s| s.mae_settled, settled)),
            Column::new(cols::CV_RMSE_SETTLED.into(), f(|s| s.rmse_settled, settled)),
            Column::new(
                cols::RMSE_OVER_SD.into(),
                f(|s| s.rmse_settled / s.sd_settled, settled),
            ),
            Column::new(
                cols::CHOSEN.into(),
                assessed
                    .iter()
                    .map(|a| a.family.is_some_and(|f| Some(f.name()) == shipped))
                    .collect::<Vec<_>>(),
            ),
        ],
    )
}

/// How [`breakdown`] groups the puzzles.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Breakdown {
    /// By rating band, [`BAND`] points wide.
    Band,
    /// By theme (a puzzle counts in each of its themes).
    Theme,
}

impl crate::choice::Choice for Breakdown {
    const ALL: &'static [Self] = &[Breakdown::Band, Breakdown::Theme];
    fn name(self) -> &'static str {
        match self {
            Breakdown::Band => "band",
            Breakdown::Theme => "theme",
        }
    }
    fn help(self) -> &'static str {
        match self {
            Breakdown::Band => "per rating band of 200 points",
            Breakdown::Theme => "per Lichess theme (a puzzle in each of its themes)",
        }
    }
}
crate::display_choice!(Breakdown);

/// Width of a rating band.
pub const BAND: f64 = 200.0;

/// Predictions against ratings per group: n, the mean rating, the mean,
/// sd, 10th and 90th percentile of the expected rating, Spearman, MAE and
/// RMSE, and the MAE of the mean rating of all the puzzles (the constant
/// to beat). `expected` NaN: not priced, left out.
pub fn breakdown(
    puzzles: &DataFrame,
    expected: &[f64],
    by: Breakdown,
    min_n: usize,
) -> PolarsResult<DataFrame> {
    let rating = puzzles.column(pcols::RATING)?.f64()?.clone();
    let themes = puzzles.column(pcols::THEMES)?.str()?.clone();
    let priced: Vec<usize> = (0..puzzles.height())
        .filter(|&i| !expected[i].is_nan() && rating.get(i).is_some())
        .collect();
    let r = |i: usize| rating.get(i).unwrap_or(f64::NAN);
    let overall = priced.iter().map(|&i| r(i)).sum::<f64>() / priced.len().max(1) as f64;
    let mut groups: Vec<(String, Vec<usize>)> = vec![(cols::ALL.into(), priced.clone())];
    let mut by_key: HashMap<String, Vec<usize>> = HashMap::new();
    for &i in &priced {
        match by {
            Breakdown::Band => {
                let lo = (r(i) / BAND).floor() * BAND;
                by_key
                    .entry(format!("{lo:04}-{:04}", lo + BAND - 1.0))
                    .or_default()
                    .push(i);
            }
            Breakdown::Theme => {
                for t in themes.get(i).unwrap_or_default().split_ascii_whitespace() {
                    by_key.entry(t.to_string()).or_default().push(i);
                }
            }
        }
    }
    let mut named: Vec<(String, Vec<usize>)> =
        by_key.into_iter().filter(|g| g.1.len() >= min_n).collect();
    match by {
        Breakdown::Band => named.sort_by(|a, b| a.0.cmp(&b.0)),
        Breakdown::Theme => named.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then(a.0.cmp(&b.0))),
    }
    groups.extend(named);
    let mut c: Vec<Vec<Option<f64>>> = vec![Vec::new(); 9];
    for (_, idx) in &groups {
        let x: Vec<f64> = idx.iter().map(|&i| expected[i]).collect();
        let y: Vec<f64> = idx.iter().map(|&i| r(i)).collect();
        let n = x.len() as f64;
        let mean = |v: &[f64]| v.iter().sum::<f64>() / n;
        let mx = mean(&x);
        let mut sorted = x.clone();
        sorted.sort_by(f64::total_cmp);
        let q = |p: f64| sorted[((p * (n - 1.0)).round() as usize).min(sorted.len() - 1)];
        let e = errors(&x, &y);
        let vals = [
            mean(&y),
            mx,
            (x.iter().map(|v| (v - mx).powi(2)).sum::<f64>() / n).sqrt(),
            q(0.1),
            q(0.9),
            e.spearman,
            e.mae,
            e.rmse,
            y.iter().map(|v| (v - overall).abs()).sum::<f64>() / n,
        ];
        // Null where undefined (Spearman's rho of one puzzle or a constant).
        for (col, v) in c.iter_mut().zip(vals) {
            col.push(v.is_finite().then_some(v));
        }
    }
    let names = [
        cols::RATING_MEAN,
        cols::EXPECTED_MEAN,
        cols::EXPECTED_SD,
        cols::EXPECTED_P10,
        cols::EXPECTED_P90,
        cols::RHO,
        cols::MAE,
        cols::RMSE,
        cols::MAE_CONSTANT,
    ];
    let mut columns = vec![
        Column::new(
            cols::GROUP.into(),
            groups.iter().map(|g| g.0.clone()).collect::<Vec<_>>(),
        ),
        Column::new(
            cols::N.into(),
            groups.iter().map(|g| g.1.len() as u32).collect::<Vec<_>>(),
        ),
    ];
    columns.extend(
        names
            .iter()
            .zip(c)
            .map(|(n, v)| Column::new((*n).into(), v)),
    );
    DataFrame::new(groups.len(), columns)
}
