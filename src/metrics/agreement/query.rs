//! Agreement of the archive with a reference analysis, as polars queries:
//! one row per analysed position ([`per_move`]), then per group ([`summary`]).

use polars::prelude::*;

use super::math::{CP_CEILING, WIN_K};
use crate::dataset::{game_id_in, game_ids};
use crate::metrics::{Families, Selection, divided};
use crate::schema::{col, metric};

/// A line's score on the mover's (side to move's) centipawn scale, clamped to
/// ±[`CP_CEILING`]; a mate counts as the ceiling with its sign.
fn stm_cp() -> Expr {
    when(col(col::SCORE_MATE).is_not_null())
        .then(
            when(col(col::SCORE_MATE).gt(lit(0)))
                .then(lit(CP_CEILING))
                .otherwise(lit(-CP_CEILING)),
        )
        .otherwise(
            col(col::SCORE_CP)
                .cast(DataType::Float64)
                .clip(lit(-CP_CEILING), lit(CP_CEILING)),
        )
}

/// The mover's win% from a clamped centipawn column (`math::win_percent`).
fn win_percent(cp: Expr) -> Expr {
    let e = lit(std::f64::consts::E).pow(lit(-WIN_K) * cp);
    lit(50.0) + lit(50.0) * (lit(2.0) / (lit(1.0) + e) - lit(1.0))
}

/// lichess accuracy from win% before and after (`math::accuracy`).
fn accuracy(before: Expr, after: Expr) -> Expr {
    let e = lit(std::f64::consts::E).pow(lit(-0.043_544_153_867_539_51) * (before - after));
    (lit(103.166_810_071_164_9) * e - lit(3.166_924_740_191_411) + lit(1.0))
        .clip(lit(0.0), lit(100.0))
}

/// [`per_move`] of a selection: its events' games, its families, and the
/// positions whose mover is one of its engines. Only the analysed games'
/// moves are read (their ids are collected first): a join would read the
/// moves of every selected game, however few the analysis covers.
pub fn selected_per_move(
    games: LazyFrame,
    moves: LazyFrame,
    analysis: LazyFrame,
    label: &str,
    sel: &Selection,
) -> PolarsResult<LazyFrame> {
    let (games, _) = sel.events(games, moves.clone());
    let analysed = analysis
        .clone()
        .filter(col(col::LABEL).eq(lit(label)))
        .select([col(col::GAME_ID)])
        .unique(None, UniqueKeepStrategy::Any)
        .join(
            games.clone().select([col(col::GAME_ID)]),
            [col(col::GAME_ID)],
            [col(col::GAME_ID)],
            JoinArgs::new(JoinType::Semi),
        )
        .collect()?;
    let moves = moves.filter(game_id_in(&game_ids(&analysed)?));
    let lf = per_move(games, moves, analysis, label, &sel.families);
    Ok(sel.engines(lf, metric::ENGINE))
}

/// One row per analysed position of the label whose move is in the archive.
///
/// Columns: game_id, ply, event, season, engine (the mover, after family merging),
/// side, uci (the move played), ref_move, top1 (played == reference's
/// first choice), archived_pawns and ref_pawns (White POV, clipped to ±10,
/// null unless both are centipawn evals), best_cp, second_cp (the second
/// line, MultiPV ≥ 2) and played_cp (the mover's POV, clamped to ±1000),
/// loss_cp, accuracy.
///
/// The played move's value is its own MultiPV line when the reference
/// searched it, else minus the reference's best line one ply later (null at
/// the end of the analysed plies).
pub fn per_move(
    games: LazyFrame,
    moves: LazyFrame,
    analysis: LazyFrame,
    label: &str,
    families: &Families,
) -> LazyFrame {
    let finals = analysis
        .filter(col(col::LABEL).eq(lit(label)).and(col(col::IS_FINAL)))
        .select([
            col(col::GAME_ID),
            col(col::PLY),
            col(col::MULTIPV),
            col(col::MOVE),
            col(col::WHITE_CP),
            stm_cp().alias("stm_cp"),
        ]);
    let best = finals.clone().filter(col(col::MULTIPV).eq(lit(1))).select([
        col(col::GAME_ID),
        col(col::PLY),
        col(col::MOVE).alias(metric::REF_MOVE),
        col(col::WHITE_CP).alias("ref_white_cp"),
        col("stm_cp").alias(metric::BEST_CP),
    ]);
    let played_line = finals.clone().select([
        col(col::GAME_ID),
        col(col::PLY),
        col(col::MOVE).alias(col::UCI),
        col("stm_cp").alias("line_cp"),
    ]);
    let second = finals.clone().filter(col(col::MULTIPV).eq(lit(2))).select([
        col(col::GAME_ID),
        col(col::PLY),
        col("stm_cp").alias(metric::SECOND_CP),
    ]);
    let next_best = best.clone().select([
        col(col::GAME_ID),
        (col(col::PLY) - lit(1u32)).alias(col::PLY),
        (-col(metric::BEST_CP)).alias("next_cp"),
    ]);
    let keys = || [col(col::GAME_ID), col(col::PLY)];
    let left = || JoinArgs::new(JoinType::Left);
    let engine = when(col(col::SIDE).eq(lit("w")))
        .then(families.apply(col(col::WHITE)))
        .otherwise(families.apply(col(col::BLACK)));
    let archived = when(col(col::EVAL_KIND).eq(lit("cp")))
        .then(col(col::EVAL_CP).cast(DataType::Float64))
        .otherwise(lit(NULL).cast(DataType::Float64));
    let both = archived
        .clone()
        .is_not_null()
        .and(col("ref_white_cp").is_not_null());
    let pawns = |e: Expr| {
        when(both.clone())
            .then(divided(e, 100.0).clip(lit(-10.0), lit(10.0)))
            .otherwise(lit(NULL).cast(DataType::Float64))
    };
    let played = col("line_cp").fill_null(col("next_cp"));
    moves
        .select([
            col(col::GAME_ID),
            col(col::PLY),
            col(col::SIDE),
            col(col::UCI),
            col(col::EVAL_KIND),
            col(col::EVAL_CP),
        ])
        .join(best, keys(), keys(), JoinArgs::new(JoinType::Inner))
        .join(
            played_line,
            [col(col::GAME_ID), col(col::PLY), col(col::UCI)],
            [col(col::GAME_ID), col(col::PLY), col(col::UCI)],
            left(),
        )
        .join(second, keys(), keys(), left())
        .join(next_best, keys(), keys(), left())
        .join(
            games.select([
                col(col::GAME_ID),
                col(col::EVENT),
                col(col::WHITE),
                col(col::BLACK),
            ]),
            [col(col::GAME_ID)],
            [col(col::GAME_ID)],
            JoinArgs::new(JoinType::Inner),
        )
        .select([
            col(col::GAME_ID),
            col(col::PLY),
            col(col::EVENT),
            crate::metrics::season(col(col::EVENT)).alias(metric::SEASON),
            engine.alias(metric::ENGINE),
            col(col::SIDE),
            col(col::UCI),
            col(metric::REF_MOVE),
            col(col::UCI).eq(col(metric::REF_MOVE)).alias(metric::TOP1),
            pawns(archived).alias(metric::ARCHIVED_PAWNS),
            pawns(col("ref_white_cp")).alias(metric::REF_PAWNS),
            col(metric::BEST_CP),
            col(metric::SECOND_CP),
            played.clone().alias(metric::PLAYED_CP),
            (col(metric::BEST_CP) - played.clone())
                .clip(lit(0.0), lit(2.0 * CP_CEILING))
                .alias(metric::LOSS_CP),
            accuracy(win_percent(col(metric::BEST_CP)), win_percent(played))
                .alias(metric::ACCURACY),
        ])
        .sort([col::GAME_ID, col::PLY], SortMultipleOptions::default())
}

/// Per group: positions, top-1 share, eval agreement (pairs, mean |Δ| in
/// pawns, Pearson's r), and the played move's mean loss and accuracy.
pub fn summary(per_move: LazyFrame, keys: &[&str]) -> LazyFrame {
    let x = col(metric::ARCHIVED_PAWNS);
    let y = col(metric::REF_PAWNS);
    let pair = x.clone().is_not_null().and(y.clone().is_not_null());
    let only = |e: Expr| {
        when(pair.clone())
            .then(e)
            .otherwise(lit(NULL).cast(DataType::Float64))
    };
    let kcols: Vec<Expr> = keys.iter().map(|k| col(*k)).collect();
    let n = col(metric::EVAL_PAIRS).cast(DataType::Float64);
    let (sx, sy) = (col("sx"), col("sy"));
    let vx = n.clone() * col("sxx") - sx.clone() * sx.clone();
    let vy = n.clone() * col("syy") - sy.clone() * sy.clone();
    let r = when(vx.clone().gt(lit(0.0)).and(vy.clone().gt(lit(0.0))))
        .then((n.clone() * col("sxy") - sx.clone() * sy.clone()) / (vx * vy).sqrt())
        .otherwise(lit(NULL).cast(DataType::Float64));
    per_move
        .group_by(kcols.clone())
        .agg([
            len().alias(metric::POSITIONS),
            col(metric::TOP1)
                .cast(DataType::Float64)
                .mean()
                .alias(metric::TOP1_SHARE),
            pair.clone()
                .cast(DataType::UInt32)
                .sum()
                .alias(metric::EVAL_PAIRS),
            (x.clone() - y.clone())
                .abs()
                .mean()
                .alias(metric::MEAN_ABS_DIFF_PAWNS),
            only(x.clone()).sum().alias("sx"),
            only(y.clone()).sum().alias("sy"),
            only(x.clone() * x.clone()).sum().alias("sxx"),
            only(y.clone() * y.clone()).sum().alias("syy"),
            only(x * y).sum().alias("sxy"),
            col(metric::LOSS_CP).count().alias(metric::LOSS_MOVES),
            col(metric::LOSS_CP).mean().alias(metric::MEAN_LOSS_CP),
            col(metric::ACCURACY).mean().alias(metric::MEAN_ACCURACY),
        ])
        .with_column(r.alias(metric::EVAL_CORR))
        .select(
            kcols
                .into_iter()
                .chain([
                    col(metric::POSITIONS),
                    col(metric::TOP1_SHARE),
                    col(metric::EVAL_PAIRS),
                    col(metric::MEAN_ABS_DIFF_PAWNS),
                    col(metric::EVAL_CORR),
                    col(metric::LOSS_MOVES),
                    col(metric::MEAN_LOSS_CP),
                    col(metric::MEAN_ACCURACY),
                ])
                .collect::<Vec<_>>(),
        )
        .sort(keys.to_vec(), SortMultipleOptions::default())
}

#[cfg(test)]
mod tests {
    use super::super::math::{accuracy, pearson, win_percent};
    use super::*;

    /// One game, A (White) against B: 1. e4 (book line) e5 (not among the
    /// reference's lines) 2. Nf3 (the reference sees mate).
    fn frames() -> (LazyFrame, LazyFrame, LazyFrame) {
        let games = df!(
            col::GAME_ID => [1i64],
            col::EVENT => ["E"],
            col::WHITE => ["A"],
            col::BLACK => ["B"],
        )
        .unwrap();
        let moves = df!(
            col::GAME_ID => [1i64, 1, 1],
            col::PLY => [1u32, 2, 3],
            col::SIDE => ["w", "b", "w"],
            col::UCI => ["e2e4", "e7e5", "g1f3"],
            col::EVAL_KIND => [Some("cp"), Some("cp"), Some("mate")],
            col::EVAL_CP => [Some(30i32), Some(20), None],
        )
        .unwrap();
        let analysis = df!(
            col::GAME_ID => [1i64, 1, 1, 1, 1, 1, 1],
            col::PLY => [1u32, 1, 2, 2, 3, 3, 3],
            col::LABEL => ["L", "L", "L", "L", "L", "L", "other"],
            col::MULTIPV => [1u8, 2, 1, 2, 1, 2, 1],
            col::MOVE => ["e2e4", "d2d4", "c7c5", "d7d5", "g1f3", "b1c3", "a2a3"],
            col::SCORE_CP => [Some(40i32), Some(30), Some(10), Some(5), None, Some(500), Some(0)],
            col::SCORE_MATE => [None, None, None, None, Some(3i16), None, None],
            col::WHITE_CP => [Some(40i32), Some(30), Some(-10), Some(-5), None, Some(500), Some(0)],
            col::IS_FINAL => [true; 7],
        )
        .unwrap();
        (games.lazy(), moves.lazy(), analysis.lazy())
    }

    #[test]
    fn per_move_values_by_hand() {
        let (g, m, a) = frames();
        let df = per_move(g, m, a, "L", &Families::default())
            .collect()
            .unwrap();
        let f =
            |c: &str| -> Vec<Option<f64>> { df.column(c).unwrap().f64().unwrap().iter().collect() };
        let top1: Vec<_> = df
            .column(metric::TOP1)
            .unwrap()
            .bool()
            .unwrap()
            .iter()
            .collect();
        assert_eq!(top1, [Some(true), Some(false), Some(true)]);
        assert_eq!(f(metric::ARCHIVED_PAWNS), [Some(0.3), Some(0.2), None]);
        assert_eq!(f(metric::REF_PAWNS), [Some(0.4), Some(-0.1), None]);
        assert_eq!(f(metric::BEST_CP), [Some(40.0), Some(10.0), Some(1000.0)]);
        assert_eq!(f(metric::SECOND_CP), [Some(30.0), Some(5.0), Some(500.0)]);
        // e5 is not among the lines: minus the best line after it (mate for White).
        assert_eq!(
            f(metric::PLAYED_CP),
            [Some(40.0), Some(-1000.0), Some(1000.0)]
        );
        assert_eq!(f(metric::LOSS_CP), [Some(0.0), Some(1010.0), Some(0.0)]);
        let acc = f(metric::ACCURACY);
        assert_eq!(acc[0], Some(100.0));
        let want = accuracy(win_percent(10.0), win_percent(-1000.0));
        assert!((acc[1].unwrap() - want).abs() < 1e-9, "{acc:?} vs {want}");
    }

    #[test]
    fn summary_per_engine_by_hand() {
        let (g, m, a) = frames();
        let per = per_move(g, m, a, "L", &Families::default());
        let df = summary(per, &[metric::ENGINE]).collect().unwrap();
        let f = |c: &str| -> Vec<Option<f64>> {
            df.column(c)
                .unwrap()
                .cast(&DataType::Float64)
                .unwrap()
                .f64()
                .unwrap()
                .iter()
                .collect()
        };
        assert_eq!(f(metric::POSITIONS), [Some(2.0), Some(1.0)]);
        assert_eq!(f(metric::TOP1_SHARE), [Some(1.0), Some(0.0)]);
        assert_eq!(f(metric::EVAL_PAIRS), [Some(1.0), Some(1.0)]);
        // 0.1 and 0.3 pawns by hand, up to the floats' last bit.
        let diff = f(metric::MEAN_ABS_DIFF_PAWNS);
        assert!((diff[0].unwrap() - 0.1).abs() < 1e-15 && (diff[1].unwrap() - 0.3).abs() < 1e-15);
        // One pair per engine: no variance, no correlation.
        assert_eq!(f(metric::EVAL_CORR), [None, None]);
        assert_eq!(f(metric::MEAN_LOSS_CP), [Some(0.0), Some(1010.0)]);
        let b = accuracy(win_percent(10.0), win_percent(-1000.0));
        let acc = f(metric::MEAN_ACCURACY);
        assert_eq!(acc[0], Some(100.0));
        assert!((acc[1].unwrap() - b).abs() < 1e-12, "{acc:?} vs {b}");
    }

    #[test]
    fn correlation_is_pearsons_over_the_pairs_only() {
        let (x, y) = ([0.1, 0.5, -0.3, 1.2], [0.0, 0.7, -0.2, 0.9]);
        let per = df!(
            metric::ENGINE => ["A"; 5],
            metric::TOP1 => [true, false, true, true, false],
            metric::ARCHIVED_PAWNS => [Some(x[0]), Some(x[1]), Some(x[2]), Some(x[3]), None],
            metric::REF_PAWNS => [Some(y[0]), Some(y[1]), Some(y[2]), Some(y[3]), None],
            metric::LOSS_CP => [Some(0.0), Some(20.0), None, Some(0.0), Some(50.0)],
            metric::ACCURACY => [Some(100.0), Some(80.0), None, Some(100.0), Some(60.0)],
        )
        .unwrap();
        let df = summary(per.lazy(), &[metric::ENGINE]).collect().unwrap();
        let r = df
            .column(metric::EVAL_CORR)
            .unwrap()
            .f64()
            .unwrap()
            .get(0)
            .unwrap();
        let sum = |v: &[f64]| v.iter().sum::<f64>();
        let dot = |a: &[f64], b: &[f64]| a.iter().zip(b).map(|(p, q)| p * q).sum::<f64>();
        let want = pearson(4.0, sum(&x), sum(&y), dot(&x, &x), dot(&y, &y), dot(&x, &y)).unwrap();
        assert!((r - want).abs() < 1e-12, "{r} vs {want}");
        // Python's statistics.correlation gives 0.944728680… for these pairs.
        assert!((want - 0.944_728_68).abs() < 1e-8, "{want}");
        let n = |c: &str| {
            df.column(c)
                .unwrap()
                .cast(&DataType::Float64)
                .unwrap()
                .f64()
                .unwrap()
                .get(0)
        };
        assert_eq!(n(metric::EVAL_PAIRS), Some(4.0));
        assert_eq!(n(metric::LOSS_MOVES), Some(4.0));
        assert_eq!(n(metric::MEAN_LOSS_CP), Some(17.5));
        assert_eq!(n(metric::TOP1_SHARE), Some(0.6));
    }
}
