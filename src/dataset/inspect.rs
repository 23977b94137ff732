//! `inspect`: what a dataset holds, as lazy polars queries over its tables.

use polars::prelude::*;

use crate::Error;
use crate::dataset::Dataset;
use crate::schema::{ANALYSIS_TABLES, GAMES, MOVES, REJECTS, col};

/// The summaries `evallab inspect` prints.
#[derive(Debug)]
pub struct Inspection {
    /// table, rows.
    pub tables: DataFrame,
    /// event, games, plies, evals, rejects.
    pub events: DataFrame,
    /// dialect, games, plies, evals, unparsed_comments.
    pub dialects: DataFrame,
    /// variant, games, inferred (Chess960 read from the FEN, no Variant tag).
    pub variants: DataFrame,
    /// The rejects table, in input order.
    pub rejects: DataFrame,
    /// label, engine, limit, multipv, chunks, games, positions, lines,
    /// failures, restarts: one row per analysis (from the manifest).
    pub analyses: DataFrame,
}

/// Builds every summary of `inspect`.
pub fn inspect(ds: &Dataset) -> Result<Inspection, Error> {
    let games = ds.scan(&GAMES)?;
    let moves = ds.scan(&MOVES)?;
    let rejects = ds.scan(&REJECTS)?;
    let n = |lf: LazyFrame| -> Result<u32, Error> {
        let df = lf.select([len()]).collect()?;
        Ok(df.column("len")?.u32()?.get(0).unwrap_or(0))
    };
    let mut names = vec![GAMES.name, MOVES.name, REJECTS.name];
    let mut rows = vec![n(games.clone())?, n(moves)?, n(rejects.clone())?];
    for t in ANALYSIS_TABLES {
        if !ds.parts(t).is_empty() {
            names.push(t.name);
            rows.push(n(ds.scan(t)?)?);
        }
    }
    let tables = df!("table" => names, "rows" => rows)?;
    let runs = &ds.manifest.analyses;
    let sum = |f: fn(&crate::dataset::EngineChunk) -> u64| -> Vec<u64> {
        runs.iter().map(|r| r.chunks.iter().map(f).sum()).collect()
    };
    let analyses = df!(
        "label" => runs.iter().map(|r| r.label.as_str()).collect::<Vec<_>>(),
        "engine" => runs.iter().map(|r| r.engine.name.as_str()).collect::<Vec<_>>(),
        "limit" => runs.iter().map(|r| r.limit()).collect::<Vec<_>>(),
        "multipv" => runs.iter().map(|r| r.multipv()).collect::<Vec<_>>(),
        "chunks" => runs.iter().map(|r| r.chunks.len() as u64).collect::<Vec<_>>(),
        "games" => sum(|c| c.games),
        "positions" => sum(|c| c.positions),
        "lines" => sum(|c| c.lines),
        "failures" => sum(|c| c.failures),
        "restarts" => sum(|c| c.restarts),
    )?;
    let per_event_rejects = rejects
        .clone()
        .group_by([col(col::EVENT)])
        .agg([len().alias("rejects")]);
    let events = games
        .clone()
        .group_by([col(col::EVENT)])
        .agg([
            len().alias("games"),
            col(col::PLIES).cast(DataType::UInt64).sum().alias("plies"),
            col(col::EVALS).cast(DataType::UInt64).sum().alias("evals"),
        ])
        .join(
            per_event_rejects,
            [col(col::EVENT)],
            [col(col::EVENT)],
            JoinArgs::new(JoinType::Full).with_coalesce(JoinCoalesce::CoalesceColumns),
        )
        .with_columns([
            col("games").fill_null(lit(0)),
            col("rejects").fill_null(lit(0)),
        ])
        .collect()?;
    let events = in_natural_order(&events, col::EVENT)?;
    let variants = games
        .clone()
        .group_by([col(col::VARIANT)])
        .agg([
            len().alias("games"),
            col(col::VARIANT_INFERRED)
                .cast(DataType::UInt32)
                .sum()
                .alias("inferred"),
        ])
        .sort([col::VARIANT], SortMultipleOptions::default())
        .collect()?;
    let dialects = games
        .group_by([col(col::DIALECT)])
        .agg([
            len().alias("games"),
            col(col::PLIES).cast(DataType::UInt64).sum().alias("plies"),
            col(col::EVALS).cast(DataType::UInt64).sum().alias("evals"),
            col(col::UNPARSED_COMMENTS)
                .cast(DataType::UInt64)
                .sum()
                .alias(col::UNPARSED_COMMENTS),
        ])
        .sort(
            [col::DIALECT],
            SortMultipleOptions::default().with_nulls_last(true),
        )
        .collect()?;
    let rejects = rejects
        .select([
            col(col::SOURCE_FILE),
            col(col::GAME_NUMBER),
            col(col::LINE),
            col(col::ROUND),
            col(col::WHITE),
            col(col::BLACK),
            col(col::REASON),
        ])
        .collect()?;
    Ok(Inspection {
        tables,
        events,
        dialects,
        variants,
        rejects,
        analyses,
    })
}

/// The rows of `df` ordered by `column`'s text, numbers read as numbers
/// ([`natural_key`]: "TCEC Season 4" before "TCEC Season 10"), nulls last.
fn in_natural_order(df: &DataFrame, column: &str) -> PolarsResult<DataFrame> {
    let names = df.column(column)?.str()?;
    let mut order: Vec<IdxSize> = (0..df.height() as IdxSize).collect();
    order.sort_by_cached_key(|&i| {
        let name = names.get(i as usize);
        (name.is_none(), name.map(natural_key))
    });
    df.take(&IdxCa::from_vec("order".into(), order))
}

/// A sort key that reads numbers as numbers: "Season 4" before "Season 10"
/// (the events of `inspect` and of the report, in the order people number
/// them).
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

    /// Rows follow their event in number order, the event-less (null) last.
    #[test]
    fn rows_in_natural_order_of_a_column() {
        let df = df!(
            col::EVENT => [Some("S10"), None, Some("S9"), Some("Match 2"), Some("S10a")],
            "games" => [1u32, 2, 3, 4, 5],
        )
        .unwrap();
        let out = in_natural_order(&df, col::EVENT).unwrap();
        let games: Vec<u32> = out
            .column("games")
            .unwrap()
            .u32()
            .unwrap()
            .into_no_null_iter()
            .collect();
        assert_eq!(games, [4, 3, 1, 5, 2]);
    }
}
