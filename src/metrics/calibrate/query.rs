//! The per-game observations the estimates need, read from the game facts and
//! the moves table with polars.

use std::collections::BTreeMap;

use polars::prelude::*;

use super::math::GameObs;
use crate::metrics::balance::BalanceOptions;
use crate::metrics::{MATE_CP, own_evals};
use crate::schema::{col, metric};

/// Collects per-game observations for every group of `opts` from the game
/// facts of [`super::balance::game_facts`] and the moves table.
pub fn observations(
    facts: LazyFrame,
    moves: LazyFrame,
    opts: &BalanceOptions,
) -> Result<BTreeMap<Vec<String>, Vec<GameObs>>, PolarsError> {
    let keys = opts.keys();
    let mut sel: Vec<Expr> = keys.iter().map(|k| col(*k)).collect();
    sel.extend([
        col(col::GAME_ID),
        col(col::SIDE),
        col(metric::WON),
        col(metric::SCORE),
        col(metric::HOLLOW),
        col(metric::MAX_OWN_CP),
    ]);
    let facts = facts.select(sel).collect()?;
    let evals = own_evals(moves, &[])
        .filter(col(metric::OWN_CP).abs().lt(lit(MATE_CP / 2)))
        .join(
            facts
                .clone()
                .lazy()
                .select([col(col::GAME_ID), col(col::SIDE)]),
            [col(col::GAME_ID), col(col::SIDE)],
            [col(col::GAME_ID), col(col::SIDE)],
            JoinArgs::new(JoinType::Semi),
        )
        .select([col(col::GAME_ID), col(col::SIDE), col(metric::OWN_CP)])
        .collect()?;
    let mut per_game: BTreeMap<(i64, bool), Vec<i32>> = BTreeMap::new();
    let (gid, side, own) = (
        evals.column(col::GAME_ID)?.i64()?,
        evals.column(col::SIDE)?.str()?,
        evals.column(metric::OWN_CP)?.i64()?,
    );
    for ((g, s), o) in gid.iter().zip(side.iter()).zip(own.iter()) {
        if let (Some(g), Some(s), Some(o)) = (g, s, o) {
            per_game.entry((g, s == "w")).or_default().push(o as i32);
        }
    }
    let key_cols: Vec<_> = keys
        .iter()
        .map(|k| facts.column(k).and_then(|c| c.str().cloned()))
        .collect::<Result<_, _>>()?;
    let gid = facts.column(col::GAME_ID)?.i64()?;
    let side = facts.column(col::SIDE)?.str()?;
    let won = facts.column(metric::WON)?.bool()?;
    let score = facts.column(metric::SCORE)?.f64()?;
    let hollow = facts.column(metric::HOLLOW)?.bool()?;
    let max_own = facts.column(metric::MAX_OWN_CP)?.i64()?;
    let mut out: BTreeMap<Vec<String>, Vec<GameObs>> = BTreeMap::new();
    for i in 0..facts.height() {
        let key: Vec<String> = key_cols
            .iter()
            .map(|c| c.get(i).unwrap_or("").to_string())
            .collect();
        let g = gid.get(i).unwrap_or_default();
        let white = side.get(i) == Some("w");
        let result = if hollow.get(i) == Some(true) {
            0.5
        } else {
            score.get(i).unwrap_or(0.5)
        };
        out.entry(key).or_default().push(GameObs {
            won: won.get(i) == Some(true),
            result,
            max_own: max_own.get(i),
            evals: per_game.remove(&(g, white)).unwrap_or_default(),
        });
    }
    Ok(out)
}
