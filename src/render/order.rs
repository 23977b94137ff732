//! Events in the order people number them: "TCEC Season 4" before "TCEC
//! Season 10", "Match 2" before "Match 10". The queries sort events as text
//! (what polars does without a sort key per row); every table written for
//! people ([`super::format::write`], `inspect`, the report) puts them in
//! this order.

use std::collections::HashSet;

use polars::prelude::*;

use crate::schema::col;

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

/// `df` with its events in [`natural_key`] order, the event-less (null)
/// last, when it is a table sorted by event first: its first column is
/// `event` and its rows come in blocks of one event, sorted as text (the
/// queries' order; each block keeps its rows' order: rank, engine, …). Any
/// other table (a list of games in file order, an event column that is not
/// text) is returned as it is.
pub fn events_in_natural_order(df: &DataFrame) -> PolarsResult<DataFrame> {
    let first = df.columns().first().map(|c| c.name().as_str());
    let events = match df.column(col::EVENT).and_then(|c| c.str().cloned()) {
        Ok(events) if first == Some(col::EVENT) => events,
        _ => return Ok(df.clone()),
    };
    // Blocks of equal events: (event, first row, end).
    let mut blocks: Vec<(Option<&str>, usize, usize)> = Vec::new();
    let mut seen = HashSet::new();
    for (i, e) in events.iter().enumerate() {
        match blocks.last_mut() {
            Some(last) if last.0 == e => last.2 = i + 1,
            _ => {
                if !seen.insert(e) {
                    return Ok(df.clone());
                }
                blocks.push((e, i, i + 1));
            }
        }
    }
    // Sorted as text, nulls first or last: a table sorted by something else
    // whose events happen to come in blocks keeps its order.
    let text = |nulls_last: bool| {
        blocks.windows(2).all(|w| {
            let (a, b) = (w[0].0, w[1].0);
            (a.is_none() == nulls_last, a) < (b.is_none() == nulls_last, b)
        })
    };
    if !text(true) && !text(false) {
        return Ok(df.clone());
    }
    let key = |e: Option<&str>| (e.is_none(), e.map(natural_key));
    blocks.sort_by_cached_key(|b| key(b.0));
    let rows: Vec<IdxSize> = blocks
        .iter()
        .flat_map(|&(_, start, end)| start as IdxSize..end as IdxSize)
        .collect();
    df.take(&IdxCa::from_vec("order".into(), rows))
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
        let out = events_in_natural_order(&df).unwrap();
        assert_eq!(games(&out), [2, 5, 3, 4, 1]);
    }

    /// Blocks move whole, each keeping its rows' order (rank 1, 2, 3 within
    /// an event stays so, even where the rows' own text would sort
    /// otherwise).
    #[test]
    fn blocks_move_whole() {
        let df = df!(
            col::EVENT => ["S1", "S10", "S10", "S10", "S2", "S2"],
            "engine" => ["a", "z", "b", "m", "y", "c"],
            "games" => [1u32, 2, 3, 4, 5, 6],
        )
        .unwrap();
        let out = events_in_natural_order(&df).unwrap();
        assert_eq!(games(&out), [1, 5, 6, 2, 3, 4]);
    }

    /// Tables not sorted by event first: events interleaved, in blocks but
    /// not in text order (a list of games in file order), event not the
    /// first column, no event column, or one that is not text: as they are.
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
        let numbers = df!(col::EVENT => [10u32, 9], "games" => [1u32, 2]).unwrap();
        for df in [interleaved, file_order, second, no_event, numbers] {
            assert_eq!(events_in_natural_order(&df).unwrap(), df);
        }
    }
}
