//! The measures per position from the `analysis` and `policy` tables, the
//! puzzles' table of measures, and its rank correlations with the rating
//! (overall and per theme).

use std::collections::HashMap;

use polars::prelude::*;
use rayon::prelude::*;

use super::math::{Estimate, correlations};
use super::measures::{Line, Measures, Position, measures};
use super::model::{CvScore, RatingModel, Sample, Scored, Spec, choose};
use super::puzzles::{SOLVER_FIRST_PLY, cols as pcols, puzzles};
use super::{MEASURES, cols};
use crate::metrics::ease::math::Form;
use crate::metrics::ease::query::{EaseOptions, used_lines};
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

/// The measures as columns (in [`MEASURES`] order), and the reasons.
fn measure_columns(all: &[Measures]) -> Vec<Column> {
    let mut out: Vec<Column> = MEASURES
        .iter()
        .map(|(name, f)| {
            let v: Vec<Option<f64>> = all.iter().map(f).collect();
            Column::new((*name).into(), v)
        })
        .collect();
    out.push(Column::new(
        cols::BEST_MOVE.into(),
        all.iter().map(|m| m.best_move.clone()).collect::<Vec<_>>(),
    ));
    out.push(Column::new(
        col::REASON.into(),
        all.iter()
            .map(|m| (!m.reasons.is_empty()).then(|| m.reasons.join("; ")))
            .collect::<Vec<_>>(),
    ));
    out
}

/// One row per puzzle (its solver's first position): the puzzle's fields,
/// the measures, the best move and whether it is the puzzle's solution, and
/// why measures are missing. In puzzle id order.
pub fn puzzle_measures(
    (games, moves, analysis, policy): (LazyFrame, LazyFrame, LazyFrame, LazyFrame),
    opts: &DifficultyOptions,
) -> PolarsResult<DataFrame> {
    let mut table = puzzles(games, moves)
        .with_column(lit(SOLVER_FIRST_PLY).alias(col::PLY))
        .sort([pcols::PUZZLE_ID], SortMultipleOptions::default())
        .collect()?;
    let keys = table.select([col::GAME_ID, col::PLY])?.lazy();
    let inputs = positions(analysis, policy, keys, opts)?;
    let ids = table.column(col::GAME_ID)?.i64()?.clone();
    let all: Vec<Measures> = ids
        .into_no_null_iter()
        .map(|g| {
            inputs
                .get(&(g, SOLVER_FIRST_PLY))
                .map_or_else(|| measures(&Position::default()), measures)
        })
        .collect();
    for c in measure_columns(&all) {
        table.with_column(c)?;
    }
    let table = table
        .lazy()
        .with_column(
            col(cols::BEST_MOVE)
                .eq(col(pcols::SOLUTION))
                .alias(cols::BEST_IS_SOLUTION),
        )
        .collect()?;
    let mut order = vec![
        col::GAME_ID,
        pcols::PUZZLE_ID,
        pcols::RATING,
        pcols::RATING_DEVIATION,
        pcols::PLAYS,
        pcols::THEMES,
        pcols::SOLUTION,
        cols::BEST_MOVE,
        cols::BEST_IS_SOLUTION,
    ];
    order.extend(MEASURES.iter().map(|m| m.0));
    order.push(col::REASON);
    table.select(order)
}

/// Puzzle id and rating of each training row (the model's training hash).
pub type Keys = Vec<(String, f64)>;

/// The training rows of a model: each puzzle's measures and rating.
pub fn samples(puzzles: &DataFrame) -> PolarsResult<(Vec<Sample>, Keys)> {
    let rating = puzzles.column(pcols::RATING)?.f64()?.clone();
    let ids = puzzles.column(pcols::PUZZLE_ID)?.str()?.clone();
    let feats: Vec<Float64Chunked> = MEASURES
        .iter()
        .map(|m| Ok(puzzles.column(m.0)?.f64()?.clone()))
        .collect::<PolarsResult<_>>()?;
    let (mut rows, mut keys) = (Vec::new(), Vec::new());
    for i in 0..puzzles.height() {
        let (Some(r), Some(id)) = (rating.get(i), ids.get(i)) else {
            continue;
        };
        rows.push(Sample {
            features: feats.iter().map(|f| f.get(i)).collect(),
            rating: r,
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
    let feats: Vec<Float64Chunked> = MEASURES
        .iter()
        .map(|m| Ok(puzzles.column(m.0)?.f64()?.clone()))
        .collect::<PolarsResult<_>>()?;
    let tasks: Vec<(usize, usize)> = (0..groups.len())
        .flat_map(|g| (0..MEASURES.len()).map(move |m| (g, m)))
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
                tasks.iter().map(|t| MEASURES[t.1].0).collect::<Vec<_>>(),
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
/// columns, e.g. ease's positions), from `model`'s measures; null when one
/// of them is missing.
pub fn with_expected_rating(
    per_position: DataFrame,
    (analysis, policy): (LazyFrame, LazyFrame),
    opts: &DifficultyOptions,
    model: &RatingModel,
) -> PolarsResult<DataFrame> {
    let keys = per_position.select([col::GAME_ID, col::PLY])?;
    let inputs = positions(analysis, policy, keys.clone().lazy(), opts)?;
    let features: Vec<_> = model
        .features
        .iter()
        .map(|f| {
            MEASURES
                .iter()
                .find(|m| m.0 == f)
                .map(|m| m.1)
                .ok_or_else(|| polars_err!(ColumnNotFound: "the model's measure `{f}` is not one evallab computes"))
        })
        .collect::<PolarsResult<_>>()?;
    let g = keys.column(col::GAME_ID)?.i64()?.clone();
    let p = keys.column(col::PLY)?.u32()?.clone();
    let expected: Vec<Option<f64>> = g
        .into_no_null_iter()
        .zip(p.into_no_null_iter())
        .map(|k| {
            let m = measures(inputs.get(&k)?);
            model.predict(&features.iter().map(|f| f(&m)).collect::<Vec<_>>())
        })
        .collect();
    let mut out = per_position;
    out.with_column(Column::new(cols::EXPECTED_RATING.into(), expected))?;
    Ok(out)
}

/// The candidate models' cross-validated scores (best first), and the
/// constant model's last: kind, measures, n, cv_rho, cv_mae, cv_mae_se, and
/// which one [`choose`] keeps.
pub fn models_table(scored: &[Scored], constant: Option<CvScore>) -> PolarsResult<DataFrame> {
    let mut kind: Vec<&str> = Vec::new();
    let mut feats: Vec<String> = Vec::new();
    let (mut n, mut rho, mut mae, mut se) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let kept = choose(scored).map(|s| &s.spec);
    let mut chosen = Vec::new();
    for s in scored {
        chosen.push(Some(&s.spec) == kept);
        se.push(s.cv.mae_se);
        let (k, f) = match &s.spec {
            Spec::Isotonic(f) => ("isotonic", vec![*f]),
            Spec::LinearRanks(f) => ("linear-ranks", f.clone()),
        };
        kind.push(k);
        feats.push(
            f.iter()
                .map(|&i| MEASURES[i].0)
                .collect::<Vec<_>>()
                .join(" "),
        );
        n.push(s.cv.n as u32);
        rho.push(Some(s.cv.spearman));
        mae.push(s.cv.mae);
    }
    if let Some(c) = constant {
        kind.push("constant");
        feats.push(String::new());
        n.push(c.n as u32);
        rho.push(None);
        mae.push(c.mae);
        se.push(c.mae_se);
        chosen.push(false);
    }
    DataFrame::new(
        kind.len(),
        vec![
            Column::new(cols::KIND.into(), kind),
            Column::new(cols::MEASURES.into(), feats),
            Column::new(cols::N.into(), n),
            Column::new(cols::CV_RHO.into(), rho),
            Column::new(cols::CV_MAE.into(), mae),
            Column::new(cols::CV_MAE_SE.into(), se),
            Column::new(cols::CHOSEN.into(), chosen),
        ],
    )
}
