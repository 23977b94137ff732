//! Ease per position, and its summaries, as polars queries over the
//! `analysis` table (Q from the reference's MultiPV lines) and the `policy`
//! table (P); [`super::math`] is the same arithmetic on plain values.

use polars::prelude::*;

use super::math::{Form, WIN_K};
use crate::metrics::agreement::query::selected_per_move;
use crate::metrics::{Selection, divided};
use crate::schema::{col, metric, policy_col};

/// Column names of the per-position ease frame.
pub mod cols {
    pub const EASE: &str = "ease";
    pub const CANDIDATES: &str = "candidates";
    pub const CANDIDATE_MOVES: &str = "candidate_moves";
    pub const Q_MAX: &str = "q_max";
    pub const PRIOR_BEST: &str = "prior_best";
    pub const MEAN_EASE: &str = "mean_ease";
    pub const TREACHEROUS: &str = "treacherous";
    pub const TREACHEROUS_SHARE: &str = "treacherous_share";
    pub const LOSS_TREACHEROUS: &str = "mean_loss_cp_treacherous";
    pub const LOSS_OTHER: &str = "mean_loss_cp_other";
    pub const EASE_BAND: &str = "ease_band";
}

/// Which analysis and policy runs, how many candidates, which form.
#[derive(Debug, Clone)]
pub struct EaseOptions {
    pub analysis_label: String,
    pub policy_label: String,
    /// Candidates: the reference's top N lines (N ≤ 5 in the spec).
    pub top: u8,
    pub form: Form,
}

/// Q of a final line, side-to-move POV: a mate is ±1; a bound is no Q.
fn q_expr() -> Expr {
    let cp = col(col::SCORE_CP).cast(DataType::Float64);
    let q = lit(2.0) / (lit(1.0) + lit(std::f64::consts::E).pow(lit(-WIN_K) * cp)) - lit(1.0);
    when(col(col::BOUND).neq(lit("exact")))
        .then(lit(NULL).cast(DataType::Float64))
        .when(col(col::SCORE_MATE).is_not_null())
        .then(
            when(col(col::SCORE_MATE).gt(lit(0)))
                .then(lit(1.0))
                .otherwise(lit(-1.0)),
        )
        .otherwise(q)
}

/// The reference's lines (the top N) with the Q the ease uses, and every
/// final line (so that each analysed position has a row; a line not used has
/// no Q). A bound is never read as an exact value (`analysis.md` §4), and a
/// node limit often stops Stockfish mid-iteration with a line still bound:
/// - the final lines when all are exact (their depths may differ);
/// - else, when the run kept all depths, the deepest depth at which every
///   line is exact;
/// - else the exact final lines if the best one is exact (the bound lines
///   have no Q); else none — without the best line's value, Q_max is unknown
///   and any ease would be a guess.
pub(crate) fn used_lines(analysis: LazyFrame, opts: &EaseOptions) -> PolarsResult<LazyFrame> {
    let pos = [col(col::GAME_ID), col(col::PLY)];
    let count = |e: Expr| e.cast(DataType::UInt32).sum();
    let exact = col(col::BOUND).eq(lit("exact"));
    let is_final = col(col::IS_FINAL);
    let full_depth = count(exact.clone())
        .over([col(col::GAME_ID), col(col::PLY), col(col::DEPTH)])?
        .eq(col("n_final"));
    let keep = when(col("final_exact"))
        .then(is_final.clone())
        .when(col("complete_depth").is_not_null())
        .then(col(col::DEPTH).eq(col("complete_depth")))
        .when(col("best_exact"))
        .then(is_final.clone().and(exact.clone()))
        .otherwise(lit(false));
    Ok(analysis
        .filter(
            col(col::LABEL)
                .eq(lit(opts.analysis_label.as_str()))
                .and(col(col::MULTIPV).lt_eq(lit(u32::from(opts.top)))),
        )
        .with_columns([
            count(is_final.clone()).over(pos.clone())?.alias("n_final"),
            count(is_final.clone().and(exact.clone().not()))
                .over(pos.clone())?
                .eq(lit(0))
                .alias("final_exact"),
            count(
                is_final
                    .clone()
                    .and(col(col::MULTIPV).eq(lit(1)))
                    .and(exact.clone()),
            )
            .over(pos.clone())?
            .gt(lit(0))
            .alias("best_exact"),
        ])
        .with_column(
            when(full_depth)
                .then(col(col::DEPTH))
                .otherwise(lit(NULL).cast(DataType::UInt16))
                .max()
                .over(pos)?
                .alias("complete_depth"),
        )
        .with_column(keep.alias("keep"))
        .filter(is_final.or(col("keep")))
        .select([
            col(col::GAME_ID),
            col(col::PLY),
            col(col::MULTIPV),
            col(col::MOVE),
            when(col("keep"))
                .then(q_expr())
                .otherwise(lit(NULL).cast(DataType::Float64))
                .alias("q"),
        ])
        // A move once (reading 6): Stockfish stopped by a node limit
        // mid-iteration may print a move again in a later MultiPV slot; the
        // repeat would count its prior twice.
        .filter(
            col("q").is_null().or(col(col::MULTIPV).eq(col(col::MULTIPV)
                .filter(col("q").is_not_null())
                .min()
                .over([col(col::GAME_ID), col(col::PLY), col(col::MOVE)])?)),
        ))
}

/// One row per analysed position: game_id, ply, ease, candidates (lines with
/// both P and Q), the candidates used (UCI moves in MultiPV order), q_max and
/// the best used line's prior.
pub fn per_position(
    analysis: LazyFrame,
    policy: LazyFrame,
    opts: &EaseOptions,
) -> PolarsResult<LazyFrame> {
    let keys = [col(col::GAME_ID), col(col::PLY), col(col::MOVE)];
    let lines = used_lines(analysis, opts)?;
    let priors = policy
        .filter(col(col::LABEL).eq(lit(opts.policy_label.as_str())))
        .select([
            col(col::GAME_ID),
            col(col::PLY),
            col(col::MOVE),
            col(policy_col::PRIOR),
        ]);
    let q_max = col("q").max().over([col(col::GAME_ID), col(col::PLY)])?;
    let valid = col(policy_col::PRIOR)
        .is_not_null()
        .and(col("q").is_not_null());
    // Priors in percent: a table whose largest prior is above 1 (a user's
    // table may hold either; one value alone cannot tell 0.5 % from 50 %).
    let p = when(col(policy_col::PRIOR).max().gt(lit(1.0)))
        .then(divided(col(policy_col::PRIOR), 100.0))
        .otherwise(col(policy_col::PRIOR));
    let gap = (col(cols::Q_MAX) - col("q")).clip_min(lit(0.0));
    let term = when(valid.clone())
        .then(p.pow(lit(1.5)) * gap / lit(2.0))
        .otherwise(lit(NULL).cast(DataType::Float64));
    let total = match opts.form {
        Form::Sum => col("term").sum().pow(lit(1.0 / 3.0)),
        Form::PerTerm => col("term").pow(lit(1.0 / 3.0)).sum(),
    };
    Ok(lines
        .join(priors, keys.clone(), keys, JoinArgs::new(JoinType::Left))
        .with_column(q_max.alias(cols::Q_MAX))
        .with_column(term.alias("term"))
        .group_by([col(col::GAME_ID), col(col::PLY)])
        .agg([
            col("term").count().alias(cols::CANDIDATES),
            col(col::MOVE)
                .sort_by([col(col::MULTIPV)], SortMultipleOptions::default())
                .filter(
                    col("term")
                        .sort_by([col(col::MULTIPV)], SortMultipleOptions::default())
                        .is_not_null(),
                )
                .alias(cols::CANDIDATE_MOVES),
            total.alias("total"),
            col(cols::Q_MAX).first(),
            col(policy_col::PRIOR)
                .sort_by([col(col::MULTIPV)], SortMultipleOptions::default())
                .filter(
                    col("q")
                        .sort_by([col(col::MULTIPV)], SortMultipleOptions::default())
                        .is_not_null(),
                )
                .first()
                .alias(cols::PRIOR_BEST),
        ])
        .with_column(
            when(col(cols::CANDIDATES).gt(lit(0)))
                .then(lit(1.0) - col("total"))
                .otherwise(lit(NULL).cast(DataType::Float64))
                .alias(cols::EASE),
        )
        .select([
            col(col::GAME_ID),
            col(col::PLY),
            col(cols::EASE),
            col(cols::CANDIDATES),
            col(cols::CANDIDATE_MOVES).list().join(lit(" "), true),
            col(cols::Q_MAX),
            col(cols::PRIOR_BEST),
        ])
        .sort([col::GAME_ID, col::PLY], SortMultipleOptions::default()))
}

/// The `--bands` edges are not finite and ascending.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("edges must be finite and ascending, got {0:?}")]
pub struct BadEdges(pub Vec<f64>);

/// Checks the edges of [`bands`].
pub fn check_edges(edges: &[f64]) -> Result<(), BadEdges> {
    if edges.is_sorted_by(|a, b| a < b) && edges.iter().all(|e| e.is_finite()) {
        Ok(())
    } else {
        Err(BadEdges(edges.to_vec()))
    }
}

/// What the per-group table of [`per_group`] holds.
#[derive(Debug, Clone, Copy)]
pub enum View<'a> {
    /// The [`summary`], positions below `cut` treacherous.
    Summary { cut: f64 },
    /// The played move's loss per ease band ([`bands`], edges checked by [`check_edges`]).
    Bands(&'a [f64]),
}

/// The priced positions whose mover the selection keeps (its events, its
/// engines after the families): what `ease --positions` lists. Without an
/// event or engine filter, every position.
pub fn selected_positions(
    per_position: LazyFrame,
    (games, moves, analysis): (LazyFrame, LazyFrame, LazyFrame),
    analysis_label: &str,
    sel: &Selection,
) -> PolarsResult<LazyFrame> {
    if sel.event.is_none() && sel.engine.is_none() {
        return Ok(per_position);
    }
    let kept = selected_per_move(games, moves, analysis, analysis_label, sel)?
        .select([col(col::GAME_ID), col(col::PLY)])
        .unique(None, UniqueKeepStrategy::Any);
    Ok(per_position.join(
        kept,
        [col(col::GAME_ID), col(col::PLY)],
        [col(col::GAME_ID), col(col::PLY)],
        JoinArgs::new(JoinType::Semi),
    ))
}

/// [`summary`] or [`bands`] per group (`keys`) of the selection's movers:
/// the played moves' losses against the reference analysis `analysis_label`
/// (`agreement`'s per-move rows) joined to the priced positions.
pub fn per_group(
    per_position: LazyFrame,
    (games, moves, analysis): (LazyFrame, LazyFrame, LazyFrame),
    analysis_label: &str,
    sel: &Selection,
    keys: &[&str],
    view: View,
) -> PolarsResult<LazyFrame> {
    let moves = selected_per_move(games, moves, analysis, analysis_label, sel)?;
    Ok(match view {
        View::Summary { cut } => summary(per_position, moves, cut, keys),
        View::Bands(edges) => bands(per_position, moves, edges, keys),
    })
}

/// Per group (`keys`, e.g. engine or event and engine, of the player facing
/// the position): positions with an ease, mean ease, the treacherous ones
/// (ease < `cut`) and their share, and the played move's mean loss (cp,
/// [`crate::metrics::agreement::query::per_move`]'s `loss_cp`) overall, in
/// treacherous and in the other positions: how errors relate to ease.
pub fn summary(per_position: LazyFrame, per_move: LazyFrame, cut: f64, keys: &[&str]) -> LazyFrame {
    let keys_e: Vec<Expr> = keys.iter().map(|k| col(*k)).collect();
    let treacherous = col(cols::EASE).lt(lit(cut));
    let loss = col(metric::LOSS_CP);
    with_loss(per_position, per_move, keys)
        .group_by(keys_e.clone())
        .agg([
            len().alias(metric::POSITIONS),
            col(cols::EASE).mean().alias(cols::MEAN_EASE),
            treacherous
                .clone()
                .cast(DataType::UInt32)
                .sum()
                .alias(cols::TREACHEROUS),
            treacherous
                .clone()
                .cast(DataType::Float64)
                .mean()
                .alias(cols::TREACHEROUS_SHARE),
            loss.clone().mean().alias(metric::MEAN_LOSS_CP),
            loss.clone()
                .filter(treacherous.clone())
                .mean()
                .alias(cols::LOSS_TREACHEROUS),
            loss.filter(treacherous.not())
                .mean()
                .alias(cols::LOSS_OTHER),
        ])
        .sort_by_exprs(keys_e, SortMultipleOptions::default())
}

/// The priced positions with the played move's loss and the group keys.
fn with_loss(per_position: LazyFrame, per_move: LazyFrame, keys: &[&str]) -> LazyFrame {
    // The join keys come once, whether or not they are also group keys.
    let mut sel: Vec<Expr> = keys
        .iter()
        .filter(|k| **k != col::GAME_ID && **k != col::PLY)
        .map(|k| col(*k))
        .collect();
    sel.extend([col(col::GAME_ID), col(col::PLY), col(metric::LOSS_CP)]);
    per_position.filter(col(cols::EASE).is_not_null()).join(
        per_move.select(sel),
        [col(col::GAME_ID), col(col::PLY)],
        [col(col::GAME_ID), col(col::PLY)],
        JoinArgs::new(JoinType::Inner),
    )
}

/// Per group and ease band (cut at `edges`, ascending; a band holds its
/// lower edge): positions, mean ease and the played move's mean loss (cp).
/// How errors relate to ease, in more steps than treacherous/other.
pub fn bands(
    per_position: LazyFrame,
    per_move: LazyFrame,
    edges: &[f64],
    keys: &[&str],
) -> LazyFrame {
    let mut keys_e: Vec<Expr> = keys.iter().map(|k| col(*k)).collect();
    let label = |i: usize| match (i.checked_sub(1).map(|j| edges[j]), edges.get(i)) {
        (None, Some(hi)) => format!("< {hi}"),
        (Some(lo), Some(hi)) => format!("[{lo}, {hi})"),
        (Some(lo), None) => format!(">= {lo}"),
        (None, None) => "all".to_string(),
    };
    // The band's index orders the rows; its label is what users read.
    let mut index = lit(edges.len() as u32);
    let mut name = lit(label(edges.len()));
    for (i, hi) in edges.iter().enumerate().rev() {
        let below = col(cols::EASE).lt(lit(*hi));
        index = when(below.clone()).then(lit(i as u32)).otherwise(index);
        name = when(below).then(lit(label(i))).otherwise(name);
    }
    keys_e.extend([col("band_index"), col(cols::EASE_BAND)]);
    let mut out: Vec<Expr> = keys.iter().map(|k| col(*k)).collect();
    out.extend([
        col(cols::EASE_BAND),
        col(metric::POSITIONS),
        col(cols::MEAN_EASE),
        col(metric::MEAN_LOSS_CP),
    ]);
    with_loss(per_position, per_move, keys)
        .with_columns([index.alias("band_index"), name.alias(cols::EASE_BAND)])
        .group_by(keys_e.clone())
        .agg([
            len().alias(metric::POSITIONS),
            col(cols::EASE).mean().alias(cols::MEAN_EASE),
            col(metric::LOSS_CP).mean().alias(metric::MEAN_LOSS_CP),
        ])
        .sort_by_exprs(keys_e, SortMultipleOptions::default())
        .select(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn band_edges_are_finite_and_ascending() {
        assert_eq!(check_edges(&[0.5, 0.7, 0.9]), Ok(()));
        assert_eq!(check_edges(&[]), Ok(()));
        assert_eq!(check_edges(&[0.7, 0.5]), Err(BadEdges(vec![0.7, 0.5])));
        assert_eq!(check_edges(&[0.5, 0.5]), Err(BadEdges(vec![0.5, 0.5])));
        let nan = check_edges(&[0.5, f64::INFINITY]).unwrap_err();
        assert_eq!(
            nan.to_string(),
            "edges must be finite and ascending, got [0.5, inf]"
        );
    }
    use crate::metrics::ease::math::{Candidate, ease, q_of};

    fn frames() -> (LazyFrame, LazyFrame) {
        // Position (1, 5): three lines; (1, 6): a mate line and a bound line;
        // (1, 7): no priors at all. Lines out of MultiPV order at ply 5.
        let analysis = df!(
            col::GAME_ID => [1i64, 1, 1, 1, 1, 1, 1],
            col::PLY => [5u32, 5, 5, 6, 6, 6, 7],
            col::LABEL => ["a"; 7],
            col::IS_FINAL => [true; 7],
            col::DEPTH => [12u16; 7],
            col::MULTIPV => [2u8, 1, 3, 1, 2, 3, 1],
            col::MOVE => ["d2d4", "e2e4", "g1f3", "h5f7", "d1d2", "a2a3", "b1c3"],
            col::SCORE_CP => [Some(20), Some(50), Some(-40), None, Some(100), Some(0), Some(10)],
            col::SCORE_MATE => [None, None, None, Some(2i16), None, None, None],
            col::BOUND => ["exact", "exact", "exact", "exact", "exact", "lower", "exact"],
        )
        .unwrap()
        .lazy();
        let policy = df!(
            col::GAME_ID => [1i64, 1, 1, 1, 1, 1],
            col::PLY => [5u32, 5, 5, 6, 6, 6],
            col::LABEL => ["p"; 6],
            col::MOVE => ["e2e4", "d2d4", "g1f3", "h5f7", "d1d2", "a2a3"],
            policy_col::PRIOR => [0.5, 0.3, 0.2, 0.1, 0.85, 0.05],
        )
        .unwrap()
        .lazy();
        (analysis, policy)
    }

    /// The query equals [`math::ease`] on the same candidates, both forms.
    #[test]
    fn per_position_matches_the_math() {
        let q = |cp: f64| q_of(Some(cp), None);
        let c = |p: f64, q: Option<f64>| Candidate { prior: Some(p), q };
        let want5 = [c(0.5, q(50.0)), c(0.3, q(20.0)), c(0.2, q(-40.0))];
        // The lower bound line has no Q; the mate is Q = 1.
        let want6 = [
            c(0.1, q_of(None, Some(2))),
            c(0.85, q(100.0)),
            c(0.05, None),
        ];
        for form in Form::ALL {
            let (a, p) = frames();
            let opts = EaseOptions {
                analysis_label: "a".into(),
                policy_label: "p".into(),
                top: 5,
                form,
            };
            let df = per_position(a, p, &opts).unwrap().collect().unwrap();
            let e = df.column(cols::EASE).unwrap().f64().unwrap().clone();
            let n = df
                .column(cols::CANDIDATES)
                .unwrap()
                .cast(&DataType::UInt32)
                .unwrap();
            let n = n.u32().unwrap();
            assert!((e.get(0).unwrap() - ease(&want5, form).unwrap()).abs() < 1e-12);
            assert!((e.get(1).unwrap() - ease(&want6, form).unwrap()).abs() < 1e-12);
            assert_eq!((n.get(0), n.get(1), n.get(2)), (Some(3), Some(2), Some(0)));
            // No prior: undefined.
            assert_eq!(e.get(2), None);
            // The candidates used, in MultiPV order; the bound line is not one.
            let used = df.column(cols::CANDIDATE_MOVES).unwrap().str().unwrap();
            assert_eq!(used.get(0), Some("e2e4 d2d4 g1f3"));
            assert_eq!(used.get(1), Some("h5f7 d1d2"));
            assert!(matches!(used.get(2), None | Some("")));
        }
    }

    /// A move repeated in a later MultiPV slot counts once, at its first.
    #[test]
    fn a_repeated_move_counts_once() {
        let (a, p) = frames();
        let repeat = df!(
            col::GAME_ID => [1i64],
            col::PLY => [5u32],
            col::LABEL => ["a"],
            col::IS_FINAL => [true],
            col::DEPTH => [12u16],
            col::MULTIPV => [4u8],
            col::MOVE => ["e2e4"],
            col::SCORE_CP => [Some(45)],
            col::SCORE_MATE => [None::<i16>],
            col::BOUND => ["exact"],
        )
        .unwrap()
        .lazy();
        let opts = EaseOptions {
            analysis_label: "a".into(),
            policy_label: "p".into(),
            top: 5,
            form: Form::Sum,
        };
        let once = per_position(a.clone(), p.clone(), &opts).unwrap();
        let twice = per_position(concat([a, repeat], UnionArgs::default()).unwrap(), p, &opts);
        let (once, twice) = (once.collect().unwrap(), twice.unwrap().collect().unwrap());
        assert_eq!(once, twice);
        let used = twice.column(cols::CANDIDATE_MOVES).unwrap().str().unwrap();
        assert_eq!(used.get(0), Some("e2e4 d2d4 g1f3"));
    }

    #[test]
    fn top_limits_the_candidates() {
        let (a, p) = frames();
        let opts = EaseOptions {
            analysis_label: "a".into(),
            policy_label: "p".into(),
            top: 1,
            form: Form::Sum,
        };
        let df = per_position(a, p, &opts).unwrap().collect().unwrap();
        // One candidate: nothing to lose, ease 1.
        assert_eq!(
            df.column(cols::EASE).unwrap().f64().unwrap().get(0),
            Some(1.0)
        );
    }

    /// A best line left bound by the limit: the deepest depth with every line
    /// exact when the run kept all depths, else no ease (Q_max is unknown).
    #[test]
    fn a_bound_best_line_uses_the_last_complete_depth() {
        let analysis = |all_depths: bool| {
            // Final: depth 13, the best line a fail-low (upper bound), the
            // second still at depth 12. Depth 12 complete; depth 11 complete.
            let mut rows = vec![
                (13u16, 1u8, "e2e4", 10, "upper", true),
                (12, 2, "d2d4", 30, "exact", true),
            ];
            if all_depths {
                rows.extend([
                    (12, 1, "e2e4", 60, "exact", false),
                    (11, 1, "g1f3", 40, "exact", false),
                    (11, 2, "e2e4", 35, "exact", false),
                ]);
            }
            let n = rows.len();
            df!(
                col::GAME_ID => vec![1i64; n],
                col::PLY => vec![5u32; n],
                col::LABEL => vec!["a"; n],
                col::IS_FINAL => rows.iter().map(|r| r.5).collect::<Vec<_>>(),
                col::DEPTH => rows.iter().map(|r| r.0).collect::<Vec<_>>(),
                col::MULTIPV => rows.iter().map(|r| r.1).collect::<Vec<_>>(),
                col::MOVE => rows.iter().map(|r| r.2).collect::<Vec<_>>(),
                col::SCORE_CP => rows.iter().map(|r| Some(r.3)).collect::<Vec<_>>(),
                col::SCORE_MATE => vec![None::<i16>; n],
                col::BOUND => rows.iter().map(|r| r.4).collect::<Vec<_>>(),
            )
            .unwrap()
            .lazy()
        };
        let policy = df!(
            col::GAME_ID => [1i64, 1, 1],
            col::PLY => [5u32, 5, 5],
            col::LABEL => ["p"; 3],
            col::MOVE => ["e2e4", "d2d4", "g1f3"],
            policy_col::PRIOR => [0.2, 0.7, 0.1],
        )
        .unwrap()
        .lazy();
        let opts = EaseOptions {
            analysis_label: "a".into(),
            policy_label: "p".into(),
            top: 5,
            form: Form::Sum,
        };
        let q = |cp: f64| q_of(Some(cp), None);
        let c = |p: f64, cp: f64| Candidate {
            prior: Some(p),
            q: q(cp),
        };
        let run = |all| {
            per_position(analysis(all), policy.clone(), &opts)
                .unwrap()
                .collect()
                .unwrap()
        };
        let df = run(true);
        assert_eq!(df.height(), 1);
        let e = df
            .column(cols::EASE)
            .unwrap()
            .f64()
            .unwrap()
            .get(0)
            .unwrap();
        assert!((e - ease(&[c(0.2, 60.0), c(0.7, 30.0)], Form::Sum).unwrap()).abs() < 1e-12);
        let used = df.column(cols::CANDIDATE_MOVES).unwrap().str().unwrap();
        assert_eq!(used.get(0), Some("e2e4 d2d4"));
        let best = df.column(cols::PRIOR_BEST).unwrap().f64().unwrap();
        assert_eq!(best.get(0), Some(0.2));
        // Final lines only: the position is listed, without an ease.
        let df = run(false);
        assert_eq!(df.height(), 1);
        assert_eq!(df.column(cols::EASE).unwrap().f64().unwrap().get(0), None);
        assert_eq!(df.column(cols::Q_MAX).unwrap().f64().unwrap().get(0), None);
    }

    /// Summary and bands on hand-made positions: engine A faces plies 1, 3
    /// and 5 (no ease: left out), B plies 2, 4 and 6.
    #[test]
    fn summary_and_bands_by_hand() {
        let pos = || {
            df!(
                col::GAME_ID => [1i64; 6],
                col::PLY => [1u32, 2, 3, 4, 5, 6],
                cols::EASE => [Some(0.3), Some(0.6), Some(0.8), Some(0.95), None, Some(0.45)],
            )
            .unwrap()
            .lazy()
        };
        let moves = || {
            df!(
                col::GAME_ID => [1i64; 6],
                col::PLY => [1u32, 2, 3, 4, 5, 6],
                metric::ENGINE => ["A", "B", "A", "B", "A", "B"],
                metric::LOSS_CP => [50.0, 0.0, 10.0, 20.0, 99.0, 30.0],
            )
            .unwrap()
            .lazy()
        };
        let f = |df: &DataFrame, c: &str| -> Vec<Option<f64>> {
            let s = df.column(c).unwrap().cast(&DataType::Float64).unwrap();
            let s = s.f64().unwrap();
            (0..s.len()).map(|i| s.get(i)).collect()
        };
        let close = |a: Vec<Option<f64>>, b: &[f64]| {
            assert_eq!(a.len(), b.len(), "{a:?} vs {b:?}");
            for (x, y) in a.iter().zip(b) {
                assert!((x.unwrap() - y).abs() < 1e-12, "{a:?} vs {b:?}");
            }
        };
        let s = summary(pos(), moves(), 0.5, &[metric::ENGINE])
            .collect()
            .unwrap();
        close(f(&s, metric::POSITIONS), &[2.0, 3.0]);
        close(f(&s, cols::MEAN_EASE), &[0.55, 2.0 / 3.0]);
        close(f(&s, cols::TREACHEROUS), &[1.0, 1.0]);
        close(f(&s, cols::TREACHEROUS_SHARE), &[0.5, 1.0 / 3.0]);
        close(f(&s, metric::MEAN_LOSS_CP), &[30.0, 50.0 / 3.0]);
        close(f(&s, cols::LOSS_TREACHEROUS), &[50.0, 30.0]);
        close(f(&s, cols::LOSS_OTHER), &[10.0, 10.0]);
        let b = bands(pos(), moves(), &[0.5, 0.9], &[metric::ENGINE])
            .collect()
            .unwrap();
        let names = b.column(cols::EASE_BAND).unwrap().str().unwrap().clone();
        let names: Vec<_> = (0..names.len()).filter_map(|i| names.get(i)).collect();
        assert_eq!(
            names,
            ["< 0.5", "[0.5, 0.9)", "< 0.5", "[0.5, 0.9)", ">= 0.9"]
        );
        close(f(&b, metric::POSITIONS), &[1.0; 5]);
        close(f(&b, cols::MEAN_EASE), &[0.3, 0.8, 0.45, 0.6, 0.95]);
        close(f(&b, metric::MEAN_LOSS_CP), &[50.0, 10.0, 30.0, 0.0, 20.0]);
    }
}
