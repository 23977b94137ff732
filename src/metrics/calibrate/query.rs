//! The per-game observations the estimates need, read from the game facts
//! (with their own evals) with polars.

use std::collections::BTreeMap;

use polars::prelude::*;

use super::math::GameObs;
use crate::metrics::balance::BalanceOptions;
use crate::schema::{col, metric};

/// Collects per-game observations for every group of `opts` from the game
/// facts of [`crate::metrics::balance::game_facts`] with their own evals.
/// Each group's games are in game id order, so that a bootstrap's draws do
/// not depend on how the games were split into parts.
pub fn observations(
    facts: LazyFrame,
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
        col(metric::OWN_EVALS),
    ]);
    let facts = facts
        .select(sel)
        .sort([col::GAME_ID, col::SIDE], SortMultipleOptions::default())
        .collect()?;
    let key_cols: Vec<_> = keys
        .iter()
        .map(|k| facts.column(k).and_then(|c| c.str().cloned()))
        .collect::<Result<_, _>>()?;
    let won = facts.column(metric::WON)?.bool()?;
    let score = facts.column(metric::SCORE)?.f64()?;
    let hollow = facts.column(metric::HOLLOW)?.bool()?;
    let max_own = facts.column(metric::MAX_OWN_CP)?.i64()?;
    let evals = facts.column(metric::OWN_EVALS)?.list()?;
    let mut out: BTreeMap<Vec<String>, Vec<GameObs>> = BTreeMap::new();
    for i in 0..facts.height() {
        let key: Vec<String> = key_cols
            .iter()
            .map(|c| c.get(i).unwrap_or("").to_string())
            .collect();
        let result = if hollow.get(i) == Some(true) {
            0.5
        } else {
            score.get(i).unwrap_or(0.5)
        };
        out.entry(key).or_default().push(GameObs {
            won: won.get(i) == Some(true),
            result,
            max_own: max_own.get(i),
            evals: match evals.get_as_series(i) {
                Some(s) => s.i32()?.into_no_null_iter().collect(),
                None => Vec::new(),
            },
        });
    }
    Ok(out)
}
