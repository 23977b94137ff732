//! Names in the order people number them: "TCEC Season 4" before "TCEC
//! Season 10", "Match 2" before "Match 10", "Stockfish 9" before "Stockfish
//! 10". The queries sort names as text (what polars does without a sort key
//! per row); every table written for people ([`super::format::write`],
//! `inspect`, the report) puts its leading name columns in this order.

use std::collections::HashSet;

use polars::prelude::*;

use crate::schema::{col, metric};

/// The name columns a table may lead with, in whatever order it nests them
/// (per season and engine: `season`, `engine`; pairs: `event`, `engine`,
/// `opponent`). A season is a number, read as its text.
const NAMES: [&str; 4] = [metric::SEASON, col::EVENT, metric::ENGINE, metric::OPPONENT];

/// A sort key that reads numbers as numbers: "Season 4" before "Season 10".
pub fn natural_key(s: &str) -> Vec<(String, u64)> {
    let mut key = Vec::new();
    let mut rest = s;
    while !rest.is_empty() {
        let text_end = rest
            .find(|c: char| c.is_ascii_digit())
            .unwrap_or(rest.len());
        let (text, tail) = rest.split_at(text_end);
        let num_end = tail
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(tail.len());
        let (num, tail) = tail.split_at(num_end);
        key.push((text.to_string(), num.parse().unwrap_or(u64::MAX)));
        rest = tail;
    }
    key
}

/// `df` with its leading name columns (`NAMES`, as far as the table
/// leads with them) in [`natural_key`] order, nameless (null) last, where
/// the table is sorted by them: the rows come in blocks of one name, sorted
/// as text (the queries' order) or already so. Each block keeps its rows'
/// order (rank, …) and is ordered by the next name column within it. A
/// table that does not lead with a name column, or whose names are in
/// neither order (ranked engines, games in file order), is returned as it
/// is.
pub fn in_natural_order(df: &DataFrame) -> PolarsResult<DataFrame> {
    let mut names = Vec::new();
    for c in df.columns() {
        if !NAMES.contains(&c.name().as_str()) {
            break;
        }
        // A number column (the season) is sorted as a number, never as text.
        let texts = c.dtype() == &DataType::String;
        match c.cast(&DataType::String) {
            Ok(text) => names.push((text.str()?.clone(), texts)),
            Err(_) => break,
        }
    }
    if names.is_empty() {
        return Ok(df.clone());
    }
    let mut rows = Vec::with_capacity(df.height());
    order(&names, 0..df.height(), &mut rows);
    if rows.iter().enumerate().all(|(i, &r)| i == r as usize) {
        return Ok(df.clone());
    }
    df.take(&IdxCa::from_vec("order".into(), rows))
}

/// Appends to `out` the rows of `range` with `names[0]`'s blocks in natural
/// order, each block ordered by the next name column; the rows as they are
/// when `names[0]` is not in blocks in text (a text column) or natural
/// order there.
fn order(names: &[(StringChunked, bool)], range: std::ops::Range<usize>, out: &mut Vec<IdxSize>) {
    let as_is = |out: &mut Vec<IdxSize>| out.extend(range.start as IdxSize..range.end as IdxSize);
    let Some((column, texts)) = names.first() else {
        return as_is(out);
    };
    // Blocks of one name: (name, first row, end).
    let mut blocks: Vec<(Option<&str>, usize, usize)> = Vec::new();
    let mut seen = HashSet::new();
    for i in range.clone() {
        let e = column.get(i);
        match blocks.last_mut() {
            Some(last) if last.0 == e => last.2 = i + 1,
            _ => {
                if !seen.insert(e) {
                    return as_is(out);
                }
                blocks.push((e, i, i + 1));
            }
        }
    }
    // Sorted as text (nulls first or last) or already in natural order: a
    // table sorted by something else whose names happen to come in blocks
    // keeps its order.
    let text = |nulls_last: bool| {
        blocks.windows(2).all(|w| {
            let (a, b) = (w[0].0, w[1].0);
            (a.is_none() == nulls_last, a) < (b.is_none() == nulls_last, b)
        })
    };
    let key = |name: Option<&str>| (name.is_none(), name.map(natural_key));
    let natural = || blocks.windows(2).all(|w| key(w[0].0) <= key(w[1].0));
    if !(*texts && (text(true) || text(false))) && !natural() {
        return as_is(out);
    }
    blocks.sort_by_cached_key(|b| key(b.0));
    for (_, start, end) in blocks {
        order(&names[1..], start..end, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_read_in_number_order() {
        let mut v = [
            "TCEC Season 10 - Superfinal",
            "TCEC Cup 2",
            "TCEC Season 9 - Superfinal",
            "TCEC Season 29 - Superfinal",
            "TCEC Season 9 - Stage 1a",
        ];
        v.sort_by_cached_key(|e| natural_key(e));
        assert_eq!(
            v,
            [
                "TCEC Cup 2",
                "TCEC Season 9 - Stage 1a",
                "TCEC Season 9 - Superfinal",
                "TCEC Season 10 - Superfinal",
                "TCEC Season 29 - Superfinal",
            ]
        );
    }

    fn games(df: &DataFrame) -> Vec<u32> {
        let games = df.column("games").unwrap().u32().unwrap();
        games.into_no_null_iter().collect()
    }

    /// One row per event: every row in number order, the event-less last.
    #[test]
    fn rows_of_single_events_in_number_order() {
        let df = df!(
            col::EVENT => [None, Some("Match 2"), Some("S10"), Some("S10a"), Some("S9")],
            "games" => [1u32, 2, 3, 4, 5],
        )
        .unwrap();
        let out = in_natural_order(&df).unwrap();
        assert_eq!(games(&out), [2, 5, 3, 4, 1]);
    }

    /// Blocks move whole, each keeping its rows' order (rank 1, 2, 3 within
    /// an event stays so, even where the rows' own text would sort
    /// otherwise: S10's engines z, b, m are not in text order).
    #[test]
    fn blocks_move_whole() {
        let df = df!(
            col::EVENT => ["S1", "S10", "S10", "S10", "S2", "S2"],
            "engine" => ["a", "z", "b", "m", "y", "c"],
            "games" => [1u32, 2, 3, 4, 5, 6],
        )
        .unwrap();
        let out = in_natural_order(&df).unwrap();
        assert_eq!(games(&out), [1, 5, 6, 2, 3, 4]);
    }

    /// Engines in number order within each event (and opponents within
    /// each engine), in a table that leads with engine too; a table that
    /// leads with its rank keeps its engines as ranked.
    #[test]
    fn engines_within_events_and_alone() {
        let df = df!(
            col::EVENT => ["S 10", "S 10", "S 10", "S 9", "S 9"],
            metric::ENGINE => ["SF 10", "SF 10", "SF 9", "L5", "L10"],
            metric::OPPONENT => ["L 10", "L 8", "SF 10", "L10", "L5"],
            "games" => [1u32, 2, 3, 4, 5],
        )
        .unwrap();
        let out = in_natural_order(&df).unwrap();
        // S 9 before S 10; in S 10, SF 9 before SF 10, whose opponents
        // L 8 before L 10; S 9's engines "L5", "L10" are not in text order
        // ("L10" < "L5" as text): that block is kept as it is.
        assert_eq!(games(&out), [4, 5, 3, 2, 1]);
        let engines = df!(
            metric::ENGINE => ["Stockfish 10", "Stockfish 11", "Stockfish 9", "Stockfish dev"],
            "games" => [1u32, 2, 3, 4],
        )
        .unwrap();
        assert_eq!(games(&in_natural_order(&engines).unwrap()), [3, 1, 2, 4]);
        let ranked = df!(
            "rank" => [1u32, 2],
            metric::ENGINE => ["Stockfish 10", "Stockfish 9"],
            "games" => [1u32, 2],
        )
        .unwrap();
        assert_eq!(in_natural_order(&ranked).unwrap(), ranked);
    }

    /// Seasons (numbers) in their order, each season's engines in number
    /// order; a season column alone as it is.
    #[test]
    fn engines_within_seasons() {
        let df = df!(
            metric::SEASON => [9u32, 9, 10, 10],
            metric::ENGINE => ["SF 10", "SF 9", "A 10", "A 2"],
            "games" => [1u32, 2, 3, 4],
        )
        .unwrap();
        assert_eq!(games(&in_natural_order(&df).unwrap()), [2, 1, 4, 3]);
        let ranked = df!(
            metric::SEASON => [9u32, 10],
            "rank" => [1u32, 1],
            metric::ENGINE => ["SF 10", "SF 9"],
        )
        .unwrap();
        assert_eq!(in_natural_order(&ranked).unwrap(), ranked);
    }

    /// Tables not sorted by event first: events interleaved, in blocks but
    /// not in text order (a list of games in file order), event not the
    /// first column, no name column, or seasons in descending order (a
    /// number is never sorted as text): as they are.
    #[test]
    fn other_tables_as_they_are() {
        let interleaved = df!(
            col::EVENT => ["S10", "S9", "S10"],
            "games" => [1u32, 2, 3],
        )
        .unwrap();
        let file_order = df!(
            col::EVENT => ["S10", "S10", "S9", "S2"],
            "games" => [1u32, 2, 3, 4],
        )
        .unwrap();
        let second = df!(
            "games" => [1u32, 2],
            col::EVENT => ["S10", "S9"],
        )
        .unwrap();
        let no_event = df!("games" => [3u32, 1, 2]).unwrap();
        let numbers = df!(metric::SEASON => [10u32, 9], "games" => [1u32, 2]).unwrap();
        for df in [interleaved, file_order, second, no_event, numbers] {
            assert_eq!(in_natural_order(&df).unwrap(), df);
        }
    }
}
