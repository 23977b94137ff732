//! Relevance-reduced eval differences per move and per engine (`metrics.md` §2),
//! as polars expressions built from [`super::math`] and [`super::symbols`] (the
//! single implementation of the math: boundaries and thresholds come from there).
//!
//! Evals are pawns in the mover's (own) POV. Mates count as ±[`CLAMP_PAWNS`],
//! and every eval is clamped to that range: at 100 pawns the relevance f is
//! below 1e-30 for any x05 up to 3, so C has reached its limit and the clamp
//! changes nothing but keeps the values finite.

use polars::prelude::*;

use super::symbols::{
    MoveScheme, MoveSymbol, PositionScheme, PositionSymbol, move_thresholds, position_boundaries,
};
use crate::dataset::{game_id_in, game_ids};
use crate::metrics::agreement::query::per_move as reference_per_move;
use crate::metrics::balance::Group;
use crate::metrics::chunks::{CHUNK_PLIES, GameChunks};
use crate::metrics::x05::X05;
use crate::metrics::{
    Families, MATERIAL, Selection, divided, engine_games, own_evals, season, with_material_before,
};
use crate::schema::{col, metric};

/// The plies of a chunk of [`per_move_summarised`]: half of [`CHUNK_PLIES`],
/// as a chunk's per-move rows, with their symbols and windows, take some
/// 300 bytes a ply at their peak (the archive: 1.04 → 0.67 GB at 2 M → 1 M,
/// in the same time).
pub const CHUNK: u64 = CHUNK_PLIES / 2;

/// A game's place in the games table, [`per_move`]'s row order.
const GAME_POS: &str = "game_pos";

/// Mates and plateaus count as this many pawns (see the module docs).
pub const CLAMP_PAWNS: f64 = 100.0;

/// Column names of the relevance tables, declared in [`crate::schema::RELEVANCE_MOVES`].
pub use crate::schema::relevance_col as cols;

/// `pos_<scheme>`: the position symbol column of a scheme.
pub fn position_col(s: PositionScheme) -> String {
    format!("pos_{}", s.name().replace('-', "_"))
}

/// C(x) as an expression (x in pawns), `metrics.md` §2.
pub fn cumulative_expr(x: Expr, x05: Expr) -> Expr {
    let k = x05.clone() / lit(std::f64::consts::LN_2);
    when(x.clone().lt_eq(lit(0.0)))
        .then(k.clone() * lit(2.0).pow(x.clone() / x05.clone()))
        .otherwise(lit(2.0) * k.clone() - k * lit(2.0).pow(-x / x05))
}

/// rr(a, b) = C(b) − C(a).
pub fn rr_expr(a: Expr, b: Expr, x05: Expr) -> Expr {
    cumulative_expr(b, x05.clone()) - cumulative_expr(a, x05)
}

/// P(x) = C(x) / (2·x05/ln 2).
pub fn prob_expr(x: Expr, x05: Expr) -> Expr {
    cumulative_expr(x, x05.clone()) / (lit(2.0) * x05 / lit(std::f64::consts::LN_2))
}

/// The position symbol (glyph) of a White-POV eval, boundaries from
/// [`position_boundaries`]; a value on a boundary takes the outer symbol.
/// `x05` is a per-row column, so the boundaries scale: b = x05 · (b at x05 = 1).
pub fn position_expr(white_pov: Expr, x05: Expr, scheme: PositionScheme) -> Expr {
    let unit = position_boundaries(scheme, 1.0);
    let mut e: Expr = lit("=");
    // Innermost first, so outer ranges override.
    for (b, sym) in unit {
        let bound = x05.clone() * lit(b);
        e = when(white_pov.clone().gt_eq(bound.clone()))
            .then(lit(sym.glyph()))
            .when(white_pov.clone().lt_eq(-bound))
            .then(lit(sym.mirror().glyph()))
            .otherwise(e);
    }
    e
}

/// Adds the `x05` column: the model's at the row's material (the position
/// before the move, as the model was fitted), else the engine's own value,
/// else the default. A join, not a chain of `when`s: with the archive's 1,800
/// engines the chain took 19 s and 2.4 GB.
fn attach(x05: &X05, lf: LazyFrame) -> PolarsResult<LazyFrame> {
    if let Some(m) = &x05.model {
        return Ok(lf.with_column(m.x05_expr(col(MATERIAL)).alias(cols::X05)));
    }
    if x05.per_engine.is_empty() {
        return Ok(lf.with_column(lit(x05.default).alias(cols::X05)));
    }
    const OWN: &str = "x05_own";
    let (engines, values): (Vec<&str>, Vec<f64>) =
        x05.per_engine.iter().map(|(e, v)| (e.as_str(), *v)).unzip();
    let table = df!(metric::ENGINE => engines, OWN => values)?.lazy();
    Ok(lf
        .join(
            table,
            [col(metric::ENGINE)],
            [col(metric::ENGINE)],
            JoinArgs {
                maintain_order: MaintainOrderJoin::Left,
                ..JoinArgs::new(JoinType::Left)
            },
        )
        .with_column(col(OWN).fill_null(lit(x05.default)).alias(cols::X05))
        .drop(by_name([OWN], true, false)))
}

/// [`super::math::reference_swing`] as an expression over
/// [`crate::metrics::agreement::query::per_move`]'s columns.
pub fn reference_swing_expr(x05: Expr) -> Expr {
    let top1 = col(metric::TOP1);
    let a = when(top1.clone())
        .then(col(metric::SECOND_CP))
        .otherwise(col(metric::BEST_CP));
    let b = when(top1)
        .then(col(metric::BEST_CP))
        .otherwise(col(metric::PLAYED_CP));
    rr_expr(divided(a, 100.0), divided(b, 100.0), x05)
}

/// A reference analysis for [`per_move`]: its label in the `analysis` table.
pub struct Reference {
    pub analysis: LazyFrame,
    pub label: String,
}

/// One row per engine move with an own eval.
///
/// Columns: game_id, event, engine, opponent, side, ply, x05, own_eval,
/// own_prev_eval, opp_prev_eval, swing_raw, swing_rr, disagreement_raw,
/// disagreement_rr, ref_swing_rr (null without `reference`), p_result,
/// pos_nine_wdb, pos_nine_equal, pos_seven_equal, time_ms.
pub fn per_move(
    games: LazyFrame,
    moves: LazyFrame,
    families: &Families,
    x05: &X05,
    reference: Option<Reference>,
) -> Result<LazyFrame, PolarsError> {
    let keys = || [col(col::GAME_ID), col(col::PLY)];
    let refs = reference.map(|r| {
        reference_per_move(games.clone(), moves.clone(), r.analysis, &r.label, families).select([
            col(col::GAME_ID),
            col(col::PLY),
            col(metric::TOP1),
            col(metric::BEST_CP),
            col(metric::SECOND_CP),
            col(metric::PLAYED_CP),
        ])
    });
    // A WDL model's x05 depends on the material before each move.
    let (moves, extra) = match x05.model {
        Some(_) => (
            with_material_before(moves, games.clone()),
            vec![col::TIME_MS, MATERIAL],
        ),
        None => (moves, vec![col::TIME_MS]),
    };
    let eg = engine_games(games.clone(), families)?.select([
        col(col::GAME_ID),
        col(col::EVENT),
        col(metric::ENGINE),
        col(metric::OPPONENT),
        col(col::SIDE),
    ]);
    let pawns = divided(col(metric::OWN_CP), 100.0).clip(lit(-CLAMP_PAWNS), lit(CLAMP_PAWNS));
    // Rows in (game, ply) order: the previous row of the game is the opponent's
    // eval on the ply just before when its ply is ours − 1 (book moves and moves
    // without an eval leave gaps, and then there is no preceding eval).
    let prev_in_game = |e: Expr| e.shift(lit(1)).over([col(col::GAME_ID)]);
    // The rows in the games' order (the archive's: the moves table's), then
    // by ply: the same order however the games are cut into chunks.
    let order = games
        .clone()
        .select([col(col::GAME_ID)])
        .with_row_index(GAME_POS, None);
    let evals = own_evals(moves, &extra)
        .with_column(pawns.alias(cols::OWN_EVAL))
        .join(
            order,
            [col(col::GAME_ID)],
            [col(col::GAME_ID)],
            JoinArgs::new(JoinType::Inner),
        )
        .sort([GAME_POS, col::PLY], SortMultipleOptions::default());
    let x = col(cols::OWN_EVAL);
    let x05e = col(cols::X05);
    let mut with_symbols = vec![
        (x.clone() - col(cols::OWN_PREV_EVAL)).alias(cols::SWING_RAW),
        rr_expr(col(cols::OWN_PREV_EVAL), x.clone(), x05e.clone()).alias(cols::SWING_RR),
        (x.clone() - col(cols::OPP_PREV_EVAL)).alias(cols::DISAGREEMENT_RAW),
        rr_expr(col(cols::OPP_PREV_EVAL), x.clone(), x05e.clone()).alias(cols::DISAGREEMENT_RR),
        prob_expr(x.clone(), x05e.clone()).alias(cols::P_RESULT),
    ];
    let white_pov = when(col(col::SIDE).eq(lit("w")))
        .then(x.clone())
        .otherwise(-x);
    for s in PositionScheme::ALL {
        with_symbols.push(position_expr(white_pov.clone(), x05e.clone(), s).alias(position_col(s)));
    }
    let opp_prev = when(prev_in_game(col(col::PLY))?.eq(col(col::PLY) - lit(1u32)))
        .then(-prev_in_game(col(cols::OWN_EVAL))?)
        .otherwise(lit(NULL).cast(DataType::Float64));
    let evals = evals
        .with_columns([
            col(cols::OWN_EVAL)
                .shift(lit(1))
                .over([col(col::GAME_ID), col(col::SIDE)])?
                .alias(cols::OWN_PREV_EVAL),
            opp_prev.alias(cols::OPP_PREV_EVAL),
        ])
        .join(
            eg,
            [col(col::GAME_ID), col(col::SIDE)],
            [col(col::GAME_ID), col(col::SIDE)],
            JoinArgs {
                maintain_order: MaintainOrderJoin::Left,
                ..JoinArgs::new(JoinType::Inner)
            },
        );
    let evals = attach(x05, evals)?;
    let evals = match refs {
        Some(refs) => evals
            .join(
                refs,
                keys(),
                keys(),
                JoinArgs {
                    maintain_order: MaintainOrderJoin::Left,
                    ..JoinArgs::new(JoinType::Left)
                },
            )
            .with_column(reference_swing_expr(col(cols::X05)).alias(cols::REF_SWING_RR)),
        None => evals.with_column(lit(NULL).cast(DataType::Float64).alias(cols::REF_SWING_RR)),
    };
    Ok(evals.with_columns(with_symbols).select([
        col(col::GAME_ID),
        col(col::EVENT),
        col(metric::ENGINE),
        col(metric::OPPONENT),
        col(col::SIDE),
        col(col::PLY),
        col(cols::X05),
        col(cols::OWN_EVAL),
        col(cols::OWN_PREV_EVAL),
        col(cols::OPP_PREV_EVAL),
        col(cols::SWING_RAW),
        col(cols::SWING_RR),
        col(cols::DISAGREEMENT_RAW),
        col(cols::DISAGREEMENT_RR),
        col(cols::REF_SWING_RR),
        col(cols::P_RESULT),
        col(position_col(PositionScheme::NineWdb)),
        col(position_col(PositionScheme::NineEqual)),
        col(position_col(PositionScheme::SevenEqual)),
        col(col::TIME_MS),
    ]))
}

/// [`per_move_chunked`] over the selection's games, each chunk's rows handed
/// to `sink` and summed: the number of rows and the [`summary`] per engine
/// (and event or season, by `group`), one chunk's rows in memory at a time.
pub fn per_move_summarised(
    (games, moves): (LazyFrame, LazyFrame),
    sel: &Selection,
    group: Group,
    x05: &X05,
    reference: Option<&Reference>,
    chunk_plies: u64,
    sink: &mut dyn FnMut(DataFrame) -> Result<(), crate::Error>,
) -> Result<(u64, DataFrame), crate::Error> {
    let with_reference = reference.is_some();
    let mut partials = Vec::new();
    let rows = per_move_chunked(
        games,
        moves,
        sel,
        x05,
        reference,
        chunk_plies,
        &mut |chunk| {
            partials.push(summary_partial(chunk.clone().lazy(), group, with_reference).collect()?);
            sink(chunk)
        },
    )?;
    let partials = concat(
        partials.into_iter().map(IntoLazy::lazy).collect::<Vec<_>>(),
        UnionArgs::default(),
    )?;
    Ok((
        rows,
        summary_total(partials, group, with_reference).collect()?,
    ))
}

/// [`per_move`] over the selection's games (of `games` and `moves`, the
/// whole tables) in chunks of whole games (about `chunk_plies` plies each,
/// [`GameChunks`]: a slice of the moves table each), each chunk's rows (of the
/// selection's engines, after its families) handed to `sink` in the games'
/// order: the rows are those of one [`per_move`] over all games, but memory
/// holds one chunk's and each ply is read once. Returns the number of rows.
pub fn per_move_chunked(
    games: LazyFrame,
    moves: LazyFrame,
    sel: &Selection,
    x05: &X05,
    reference: Option<&Reference>,
    chunk_plies: u64,
    sink: &mut dyn FnMut(DataFrame) -> Result<(), crate::Error>,
) -> Result<u64, crate::Error> {
    let (selected, _) = sel.events(games.clone(), moves.clone());
    let mut rows = 0;
    GameChunks::new(games.clone(), selected, chunk_plies)?.each(&games, &moves, |g, m| {
        let reference = match reference {
            Some(r) => {
                let ids = game_ids(&g.clone().select([col(col::GAME_ID)]).collect()?)?;
                Some(Reference {
                    analysis: r.analysis.clone().filter(game_id_in(&ids)),
                    label: r.label.clone(),
                })
            }
            None => None,
        };
        let lf = per_move(g, m, &sel.families, x05, reference)?;
        let df = sel.engines(lf, metric::ENGINE).collect()?;
        rows += df.height() as u64;
        sink(df)
    })?;
    Ok(rows)
}

/// `<scheme>_<symbol name>`: count of swings earning a move symbol.
pub fn symbol_col(scheme: MoveScheme, sym: MoveSymbol) -> String {
    let name = match sym {
        MoveSymbol::Speculative => "speculative",
        MoveSymbol::Good => "good",
        MoveSymbol::Brilliant => "brilliant",
        MoveSymbol::Dubious => "dubious",
        MoveSymbol::Mistake => "mistake",
        MoveSymbol::Blunder => "blunder",
    };
    format!("{}_{name}", scheme.name())
}

/// Per-engine summary of [`per_move`]: moves, total and mean loss (the drop of
/// the engine's own eval from its previous one, relevance-reduced and raw), the
/// number of swings crossing each move-symbol threshold of each scheme (a drop
/// of at least t: ?!, ?, ??; a gain: !?, !, !!; a swing counts once, at its
/// highest symbol), and the time spent (seconds) per nine-wdb position class of
/// the engine's own eval (`ahead`/`behind` from its POV).
///
/// `reference`: the move symbols are counted from `ref_swing_rr` (the
/// reference analysis's reading) instead of the archived evals' swing, and
/// `ref_moves` counts the moves that have one.
pub fn summary(per_move: LazyFrame, group: Group, reference: bool) -> LazyFrame {
    summary_total(
        summary_partial(per_move, group, reference),
        group,
        reference,
    )
}

/// The summary's group keys as columns: event or season (from the event),
/// then the engine.
fn summary_keys(group: Group) -> Vec<Expr> {
    let outer = match group.outer() {
        Some(metric::SEASON) => Some(season(col(col::EVENT)).alias(metric::SEASON)),
        outer => outer.map(col),
    };
    outer.into_iter().chain([col(metric::ENGINE)]).collect()
}

/// The time columns of [`summary`], one per nine-wdb position class.
fn time_cols() -> impl Iterator<Item = (PositionSymbol, String)> {
    PositionSymbol::ALL.into_iter().map(|sym| {
        let name = match sym {
            PositionSymbol::Equal => "equal",
            PositionSymbol::WhiteSlight => "slight_ahead",
            PositionSymbol::BlackSlight => "slight_behind",
            PositionSymbol::WhiteModerate => "moderate_ahead",
            PositionSymbol::BlackModerate => "moderate_behind",
            PositionSymbol::WhiteDecisive => "decisive_ahead",
            PositionSymbol::BlackDecisive => "decisive_behind",
            PositionSymbol::WhiteCrushing => "crushing_ahead",
            PositionSymbol::BlackCrushing => "crushing_behind",
        };
        (sym, format!("time_s_{name}"))
    })
}

/// A sum of pawns that does not depend on the order of its terms: in
/// nano-pawns as integers. A float sum in a parallel group-by adds in the
/// order the threads met the rows, and a mean on a rounding tie (losses are
/// whole centipawns) then printed 0.064 in one run and 0.065 in the next.
/// The partial sums stay integers ([`pawns_of`] in the total): chunks' sums
/// in floats made the totals depend on where the chunks were cut.
fn exact_sum(pawns: Expr) -> Expr {
    (pawns * lit(1e9))
        .round(0, RoundMode::default())
        .cast(DataType::Int64)
        .sum()
}

/// Pawns of an [`exact_sum`] of nano-pawns.
fn pawns_of(nano: Expr) -> Expr {
    divided(nano, 1e9)
}

/// [`summary`]'s sums over some of the moves: counts, total losses and
/// milliseconds per group, without the means. Partial sums of chunks of the
/// moves add up in [`summary_total`] to the summary of all of them.
pub fn summary_partial(per_move: LazyFrame, group: Group, reference: bool) -> LazyFrame {
    let swing = col(cols::SWING_RR);
    let loss_rr = when(swing.clone().lt(lit(0.0)))
        .then(-swing.clone())
        .otherwise(lit(0.0));
    let raw = col(cols::SWING_RAW);
    let loss_raw = when(raw.clone().lt(lit(0.0)))
        .then(-raw)
        .otherwise(lit(0.0));
    let mut aggs = vec![
        len().alias(cols::MOVES),
        exact_sum(loss_rr).alias(cols::LOSS_RR_TOTAL),
        exact_sum(loss_raw).alias(cols::LOSS_RAW_TOTAL),
    ];
    let swing = if reference {
        aggs.push(col(cols::REF_SWING_RR).count().alias(cols::REF_MOVES));
        col(cols::REF_SWING_RR)
    } else {
        swing
    };
    for scheme in MoveScheme::ALL {
        // Thresholds scale with x05: t = x05 · t(x05 = 1).
        let t = move_thresholds(scheme, 1.0);
        let band = |k: usize| {
            let lo = col(cols::X05) * lit(t[k]);
            let d = swing.clone().abs();
            let above = d.clone().gt_eq(lo);
            match t.get(k + 1) {
                Some(&next) => above.and(d.lt(col(cols::X05) * lit(next))),
                None => above,
            }
        };
        let syms = [
            (MoveSymbol::Dubious, MoveSymbol::Speculative),
            (MoveSymbol::Mistake, MoveSymbol::Good),
            (MoveSymbol::Blunder, MoveSymbol::Brilliant),
        ];
        for (k, (bad, good)) in syms.into_iter().enumerate() {
            aggs.push(
                band(k)
                    .and(swing.clone().lt(lit(0.0)))
                    .cast(DataType::UInt32)
                    .sum()
                    .alias(symbol_col(scheme, bad)),
            );
            aggs.push(
                band(k)
                    .and(swing.clone().gt(lit(0.0)))
                    .cast(DataType::UInt32)
                    .sum()
                    .alias(symbol_col(scheme, good)),
            );
        }
    }
    // The own eval's class once per row: inside each of the nine sums below
    // its chain of string `when`s ran nine times over.
    const OWN_CLASS: &str = "__own_class";
    for (sym, name) in time_cols() {
        aggs.push(
            when(col(OWN_CLASS).eq(lit(sym.glyph())))
                .then(col(col::TIME_MS).cast(DataType::Float64))
                .otherwise(lit(0.0))
                .sum()
                .alias(name),
        );
    }
    per_move
        .with_column(
            position_expr(col(cols::OWN_EVAL), col(cols::X05), PositionScheme::NineWdb)
                .alias(OWN_CLASS),
        )
        .group_by(summary_keys(group))
        .agg(aggs)
}

/// The summary from [`summary_partial`]'s rows (of one or more chunks):
/// the sums added up, then the means and seconds.
pub fn summary_total(partials: LazyFrame, group: Group, reference: bool) -> LazyFrame {
    let keys: Vec<Expr> = group
        .outer()
        .into_iter()
        .chain([metric::ENGINE])
        .map(col)
        .collect();
    let names: Vec<String> = partials
        .clone()
        .collect_schema()
        .map(|s| s.iter_names().map(|n| n.to_string()).collect())
        .unwrap_or_default();
    let sums: Vec<Expr> = names
        .iter()
        .filter(|n| !matches!(n.as_str(), col::EVENT | metric::SEASON | metric::ENGINE))
        .map(|n| col(n.as_str()).sum())
        .collect();
    let total = |c: &str| pawns_of(col(c)).alias(c);
    let mean = |total: &str, name: &str| {
        // Nano-pawns per move first: 3.3 pawns / 550 moves read 0.005999999999999999.
        pawns_of(col(total).cast(DataType::Float64) / col(cols::MOVES).cast(DataType::Float64))
            .alias(name)
    };
    let mut out = keys.clone();
    out.extend([
        col(cols::MOVES),
        total(cols::LOSS_RR_TOTAL),
        mean(cols::LOSS_RR_TOTAL, cols::LOSS_RR_MEAN),
        total(cols::LOSS_RAW_TOTAL),
        mean(cols::LOSS_RAW_TOTAL, cols::LOSS_RAW_MEAN),
    ]);
    if reference {
        out.push(col(cols::REF_MOVES));
    }
    for scheme in MoveScheme::ALL {
        for sym in [
            MoveSymbol::Dubious,
            MoveSymbol::Speculative,
            MoveSymbol::Mistake,
            MoveSymbol::Good,
            MoveSymbol::Blunder,
            MoveSymbol::Brilliant,
        ] {
            out.push(col(symbol_col(scheme, sym)));
        }
    }
    out.extend(time_cols().map(|(_, name)| divided(col(name.as_str()), 1000.0).alias(name)));
    partials
        .group_by(keys.clone())
        .agg(sums)
        .select(out)
        .sort_by_exprs(keys, SortMultipleOptions::default())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::relevance::math::{cumulative, prob_exp, rr};
    use crate::metrics::relevance::symbols::classify_position;

    /// Losses summed in any order give the same bits: 0.1 + 0.2 + 0.3 is
    /// 0.6000000000000001 as floats, 0.3 + 0.2 + 0.1 is 0.6.
    #[test]
    fn loss_sums_do_not_depend_on_the_order() {
        assert_ne!(0.1 + 0.2 + 0.3, 0.3 + 0.2 + 0.1);
        let sum = |v: [f64; 3]| {
            df!("x" => v)
                .unwrap()
                .lazy()
                .select([pawns_of(exact_sum(col("x")))])
                .collect()
                .unwrap()
                .column("x")
                .unwrap()
                .f64()
                .unwrap()
                .get(0)
                .unwrap()
        };
        assert_eq!(
            sum([0.1, 0.2, 0.3]).to_bits(),
            sum([0.3, 0.2, 0.1]).to_bits()
        );
        assert_eq!(sum([0.1, 0.2, 0.3]), 0.6);
    }

    /// The polars expressions agree with the pure functions of `math`.
    #[test]
    fn expressions_match_the_math() {
        let xs = [
            -12.0, -2.0, -0.62, -0.1, 0.0, 0.094, 0.1, 0.62, 1.24, 3.0, 100.0,
        ];
        let a: Vec<f64> = xs.to_vec();
        let b: Vec<f64> = xs.iter().rev().copied().collect();
        let x05 = 0.62;
        let df = df!("a" => a.clone(), "b" => b.clone()).unwrap();
        let mut exprs = vec![
            cumulative_expr(col("a"), lit(x05)).alias("c"),
            rr_expr(col("a"), col("b"), lit(x05)).alias("rr"),
            prob_expr(col("a"), lit(x05)).alias("p"),
        ];
        for s in PositionScheme::ALL {
            exprs.push(position_expr(col("a"), lit(x05), s).alias(s.name()));
        }
        let out = df.lazy().select(exprs).collect().unwrap();
        let f = |c: &str| out.column(c).unwrap().f64().unwrap().clone();
        for i in 0..xs.len() {
            let close = |x: f64, y: f64| (x - y).abs() < 1e-12;
            assert!(close(f("c").get(i).unwrap(), cumulative(a[i], x05)));
            assert!(close(f("rr").get(i).unwrap(), rr(a[i], b[i], x05)));
            assert!(close(f("p").get(i).unwrap(), prob_exp(a[i], x05)));
            for s in PositionScheme::ALL {
                let got = out
                    .column(s.name())
                    .unwrap()
                    .str()
                    .unwrap()
                    .get(i)
                    .unwrap()
                    .to_string();
                assert_eq!(
                    got,
                    classify_position(a[i], s, x05).glyph(),
                    "{} {}",
                    s.name(),
                    a[i]
                );
            }
        }
    }

    /// The reference swing expression agrees with [`math::reference_swing`],
    /// missing lines included.
    #[test]
    fn reference_swing_expression_matches_the_math() {
        use crate::metrics::relevance::math::reference_swing;
        let top1 = [true, true, false, false, true];
        let best = [100.0, 35.0, 0.0, -20.0, 500.0];
        let second = [Some(-200.0), None, Some(-10.0), Some(-30.0), Some(480.0)];
        let played = [Some(100.0), Some(35.0), Some(-300.0), None, None];
        let df = df!(
            metric::TOP1 => top1,
            metric::BEST_CP => best,
            metric::SECOND_CP => second,
            metric::PLAYED_CP => played,
        )
        .unwrap();
        let got = df
            .lazy()
            .select([reference_swing_expr(lit(0.62)).alias("s")])
            .collect()
            .unwrap();
        let got = got.column("s").unwrap().f64().unwrap();
        for i in 0..top1.len() {
            let want = reference_swing(top1[i], best[i], second[i], played[i], 0.62);
            match (got.get(i), want) {
                (Some(g), Some(w)) => assert!((g - w).abs() < 1e-12, "row {i}: {g} vs {w}"),
                (g, w) => assert_eq!(g, w, "row {i}"),
            }
        }
        // The only move (+1.00 vs −2.00) is positive; throwing 3 pawns away negative.
        assert!(got.get(0).unwrap() > 0.0 && got.get(2).unwrap() < 0.0);
    }

    /// One game, White = A, Black = B, evals (White POV) 0.30, 0.20, -0.50, 0.40:
    /// A's moves: ply 1 (0.30), ply 3 (-0.50): swing -0.80 raw, rr(0.30, -0.50);
    /// opponent's preceding eval for ply 3 is B's ply 2 eval 0.20 (White POV).
    #[test]
    fn per_move_swings_and_disagreements() {
        let (g, m) = crate::metrics::balance::tests::frames(
            &[(1, "A", "B", "0-1")],
            &[
                (1, 1, "w", false, "cp", Some(30), None),
                (1, 2, "b", false, "cp", Some(20), None),
                (1, 3, "w", false, "cp", Some(-50), None),
                (1, 4, "b", false, "cp", Some(40), None),
            ],
        );
        let m = m.with_column(lit(1000i64).alias(col::TIME_MS));
        let x05 = X05 {
            default: 0.62,
            per_engine: vec![("B".into(), 1.0)],
            model: None,
        };
        let df = per_move(g, m, &Families::default(), &x05, None)
            .unwrap()
            .collect()
            .unwrap();
        assert_eq!(df.height(), 4);
        let f = |c: &str, i: usize| df.column(c).unwrap().f64().unwrap().get(i);
        // Ply 3 (A): own -0.50, previous own 0.30, opponent's preceding 0.20 → own POV 0.20.
        assert_eq!(f(cols::OWN_EVAL, 2), Some(-0.5));
        assert_eq!(f(cols::OWN_PREV_EVAL, 2), Some(0.3));
        assert!((f(cols::SWING_RAW, 2).unwrap() + 0.8).abs() < 1e-12);
        assert!((f(cols::SWING_RR, 2).unwrap() - rr(0.3, -0.5, 0.62)).abs() < 1e-12);
        assert!((f(cols::DISAGREEMENT_RR, 2).unwrap() - rr(0.2, -0.5, 0.62)).abs() < 1e-12);
        // Ply 4 (B, x05 1.0): own POV -0.40, previous own -0.20, opponent's -0.50 → +0.50.
        assert_eq!(f(cols::X05, 3), Some(1.0));
        assert_eq!(f(cols::OPP_PREV_EVAL, 3), Some(0.5));
        assert!((f(cols::SWING_RR, 3).unwrap() - rr(-0.2, -0.4, 1.0)).abs() < 1e-12);
        assert_eq!(f(cols::OWN_PREV_EVAL, 0), None);
        let s = summary(df.lazy(), Group::Engine, false).collect().unwrap();
        let moves = s
            .column(cols::MOVES)
            .unwrap()
            .cast(&DataType::UInt32)
            .unwrap();
        assert_eq!(moves.u32().unwrap().get(0), Some(2));
        // A's only drop: rr(0.30, -0.50) = -0.8.. pawns-equivalent; it is a
        // mistake or worse in econ8 (threshold 0.447 at x05 0.62 for `?`).
        let loss = s
            .column(cols::LOSS_RR_TOTAL)
            .unwrap()
            .f64()
            .unwrap()
            .get(0)
            .unwrap();
        // Totals are exact to the nano-pawn (`exact_sum`).
        assert!((loss + rr(0.3, -0.5, 0.62)).abs() < 1e-9);
    }
}
