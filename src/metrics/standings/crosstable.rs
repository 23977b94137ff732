//! The head-to-head matrix: per group and ordered pair of engines, games,
//! W/D/L and points, by colour; long (one row per pair) or wide (one row per
//! engine, one column per opponent).

use std::collections::HashMap;

use polars::prelude::*;

use super::{count, group_keys, sides};
use crate::metrics::balance::BalanceOptions;
use crate::metrics::free_column_name;
use crate::schema::metric;
use crate::schema::metric::standings as st;

/// The long crosstable: one row per group, engine and opponent that met in
/// finished games, sorted by the group, engine and opponent. A's wins against
/// B are B's losses against A; `--engine` keeps the engine's rows only.
///
/// Columns: the group key (event or season, none for `--by engine`), engine,
/// opponent, games, wins, draws, losses, points, white_wins, white_draws,
/// white_losses, black_wins, black_draws, black_losses (the engine's colour).
pub fn crosstable(games: LazyFrame, opts: &BalanceOptions) -> PolarsResult<LazyFrame> {
    let mut keys = opts.keys();
    keys.push(metric::OPPONENT);
    let score = || col(metric::SCORE);
    let side = |s: &str| col(crate::schema::col::SIDE).eq(lit(s));
    let mut aggs = vec![
        len().cast(DataType::UInt32).alias(metric::GAMES),
        count(score().eq(lit(1.0))).alias(metric::WINS),
        count(score().eq(lit(0.5))).alias(metric::DRAWS),
        count(score().eq(lit(0.0))).alias(metric::LOSSES),
        score().sum().alias(st::POINTS),
    ];
    for (s, names) in [
        ("w", [st::WHITE_WINS, st::WHITE_DRAWS, st::WHITE_LOSSES]),
        ("b", [st::BLACK_WINS, st::BLACK_DRAWS, st::BLACK_LOSSES]),
    ] {
        for (v, name) in [1.0, 0.5, 0.0].into_iter().zip(names) {
            aggs.push(count(side(s).and(score().eq(lit(v)))).alias(name));
        }
    }
    let lf = sides(games, opts)?
        .filter(score().is_not_null())
        .group_by(keys.iter().map(|k| col(*k)).collect::<Vec<_>>())
        .agg(aggs)
        .sort(keys, SortMultipleOptions::default());
    Ok(opts.selection.engines(lf, metric::ENGINE))
}

/// The wide crosstable: the rows of `standings` (group key, rank, engine,
/// points, games) and one column per opponent with the engine's
/// "points/games" (2.5/4) against it (null where they did not meet). The columns are
/// the engines in the order of the standings (rank order for one event),
/// then any other opponents by name; an opponent named like another column
/// (`games`, `rank`) gets `vs NAME`.
pub fn crosstable_wide(
    standings: &DataFrame,
    crosstable: &DataFrame,
    opts: &BalanceOptions,
) -> PolarsResult<DataFrame> {
    let group = group_keys(opts);
    let strs = |df: &DataFrame, c: &str| -> PolarsResult<Vec<String>> {
        Ok(df
            .column(c)?
            .cast(&DataType::String)?
            .str()?
            .iter()
            .map(|s| s.unwrap_or_default().to_string())
            .collect())
    };
    // A row's key: its group values and engine, joined by a control character.
    let row_keys = |df: &DataFrame| -> PolarsResult<Vec<String>> {
        let mut keys = vec![String::new(); df.height()];
        for c in group.iter().chain([&metric::ENGINE]) {
            for (k, v) in keys.iter_mut().zip(strs(df, c)?) {
                k.push_str(&v);
                k.push('\u{1f}');
            }
        }
        Ok(keys)
    };
    let opponents = strs(crosstable, metric::OPPONENT)?;
    // The columns: the standings' engines in order, then the other opponents.
    let mut columns: Vec<String> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    let mut others = opponents.clone();
    others.sort();
    for name in strs(standings, metric::ENGINE)?.into_iter().chain(others) {
        if !index.contains_key(&name) {
            index.insert(name.clone(), columns.len());
            columns.push(name);
        }
    }
    let rows: HashMap<String, usize> = row_keys(standings)?
        .into_iter()
        .enumerate()
        .map(|(i, k)| (k, i))
        .collect();
    let mut cells = vec![vec![None; standings.height()]; columns.len()];
    let points = crosstable.column(st::POINTS)?.cast(&DataType::Float64)?;
    let games = crosstable.column(metric::GAMES)?.cast(&DataType::UInt32)?;
    let (points, games) = (points.f64()?, games.u32()?);
    for (i, key) in row_keys(crosstable)?.iter().enumerate() {
        // A crosstable row of an engine the standings do not show (another
        // selection) has no row to go to.
        if let Some(&row) = rows.get(key) {
            let (p, g) = (points.get(i).unwrap_or(0.0), games.get(i).unwrap_or(0));
            cells[index[&opponents[i]]][row] = Some(format!("{p:.1}/{g}"));
        }
    }
    let mut out = standings.select(group.iter().copied().chain([
        metric::RANK,
        metric::ENGINE,
        st::POINTS,
        metric::GAMES,
    ]))?;
    for (name, cell) in columns.iter().zip(cells) {
        let header = free_column_name(name, |h| out.get_column_index(h).is_some());
        out.with_column(Column::new(header.into(), cell))?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::super::standings;
    use super::super::tests::{games, get, opts};
    use super::*;
    use crate::metrics::balance::Group;

    /// An engine named like a fixed column keeps both: its opponents' column
    /// is `vs games`, the `games` count stays the count.
    #[test]
    fn an_opponent_named_like_a_column_does_not_replace_it() {
        let g = games(&[
            ("E", "games", "B", "1-0", None),
            ("E", "B", "games", "1/2-1/2", None),
        ]);
        let o = opts(Group::EventEngine);
        let df = crosstable(g.clone(), &o).unwrap().collect().unwrap();
        let s = standings(g, &o).unwrap().collect().unwrap();
        let wide = crosstable_wide(&s, &df, &o).unwrap();
        let names: Vec<String> = wide
            .get_column_names()
            .iter()
            .map(|c| c.to_string())
            .collect();
        assert_eq!(
            names,
            [
                "event", "rank", "engine", "points", "games", "vs games", "B"
            ]
        );
        let n = wide
            .column(metric::GAMES)
            .unwrap()
            .cast(&DataType::UInt32)
            .unwrap();
        assert_eq!(n.u32().unwrap().get(0), Some(2));
        let vs = wide.column("vs games").unwrap().str().unwrap().clone();
        assert_eq!(vs.get(1), Some("0.5/2"));
    }

    /// A and B meet three times (A White twice: a win and a draw; Black once:
    /// a loss); A and C once (C White, A wins).
    #[test]
    fn pairs_by_hand_and_symmetric() {
        let g = games(&[
            ("E", "A", "B", "1-0", None),
            ("E", "A", "B", "1/2-1/2", None),
            ("E", "B", "A", "1-0", None),
            ("E", "C", "A", "0-1", None),
            ("E", "C", "A", "*", None),
        ]);
        let o = opts(Group::EventEngine);
        let df = crosstable(g.clone(), &o).unwrap().collect().unwrap();
        // Rows: A-B, A-C, B-A, C-A.
        assert_eq!(df.height(), 4);
        let ab = df.slice(0, 1);
        for (c, v) in [
            (metric::GAMES, 3.0),
            (metric::WINS, 1.0),
            (metric::DRAWS, 1.0),
            (metric::LOSSES, 1.0),
            (st::POINTS, 1.5),
            (st::WHITE_WINS, 1.0),
            (st::WHITE_DRAWS, 1.0),
            (st::WHITE_LOSSES, 0.0),
            (st::BLACK_LOSSES, 1.0),
        ] {
            assert_eq!(get(&ab, "A", c), v, "{c}");
        }
        let ba = df.slice(2, 1);
        assert_eq!(get(&ba, "B", st::BLACK_LOSSES), 1.0);
        assert_eq!(get(&ba, "B", st::BLACK_DRAWS), 1.0);
        assert_eq!(get(&ba, "B", st::WHITE_WINS), 1.0);
        // The unfinished game counts nowhere.
        let ca = df.slice(3, 1);
        assert_eq!(get(&ca, "C", metric::GAMES), 1.0);
        assert_eq!(get(&ca, "C", st::WHITE_LOSSES), 1.0);

        let s = standings(g, &o).unwrap().collect().unwrap();
        let wide = crosstable_wide(&s, &df, &o).unwrap();
        // Rank order A (2.5), B (1.5), C (0); columns likewise.
        let names: Vec<_> = wide
            .get_column_names()
            .iter()
            .map(|c| c.to_string())
            .collect();
        assert_eq!(
            names,
            ["event", "rank", "engine", "points", "games", "A", "B", "C"]
        );
        let cell = |col: &str, row: usize| {
            wide.column(col)
                .unwrap()
                .str()
                .unwrap()
                .get(row)
                .map(str::to_string)
        };
        assert_eq!(cell("B", 0).as_deref(), Some("1.5/3"));
        assert_eq!(cell("C", 0).as_deref(), Some("1.0/1"));
        assert_eq!(cell("A", 0), None);
        assert_eq!(cell("A", 1).as_deref(), Some("1.5/3"));
        assert_eq!(cell("B", 2), None);
        assert_eq!(cell("A", 2).as_deref(), Some("0.0/1"));
    }
}
