//! `inspect`: what a dataset holds, as lazy polars queries over its tables.

use std::path::Path;

use polars::prelude::*;

use crate::Error;
use crate::dataset::{Dataset, PartSum, game_id_in, game_ids};
use crate::schema::{ANALYSIS_TABLES, GAMES, MOVES, REJECTS, col};

/// The summaries `evallab inspect` prints.
#[derive(Debug)]
pub struct Inspection {
    /// table, rows.
    pub tables: DataFrame,
    /// event, games, plies, evals, rejects; events sorted as text (people
    /// read them in `render::order`'s number order).
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
    /// Games held more than once (see [`repeated_games`]).
    pub repeated: DataFrame,
    /// path, sha256, part, games, rejects, plies, grown_from: one row per
    /// ingested input (from the manifest), in the order they were read.
    pub inputs: DataFrame,
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
        .sort(
            [col::EVENT],
            SortMultipleOptions::default().with_nulls_last(true),
        )
        .collect()?;
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
    let rejects = rejects_listed(rejects)?;
    Ok(Inspection {
        tables,
        events,
        dialects,
        variants,
        rejects,
        analyses,
        repeated: repeated_games(ds.scan(&GAMES)?, ds.scan(&MOVES)?)?,
        inputs: inputs_listed(ds)?,
    })
}

/// The ingested inputs, from the manifest, in the order they were read.
fn inputs_listed(ds: &Dataset) -> Result<DataFrame, Error> {
    let rows: Vec<(u32, &crate::dataset::InputRecord)> = ds
        .manifest
        .runs
        .iter()
        .flat_map(|r| r.inputs.iter().map(move |i| (r.part, i)))
        .collect();
    Ok(df!(
        "path" => rows.iter().map(|(_, i)| i.path.as_str()).collect::<Vec<_>>(),
        "sha256" => rows.iter().map(|(_, i)| i.sha256.as_str()).collect::<Vec<_>>(),
        "part" => rows.iter().map(|(p, _)| *p).collect::<Vec<_>>(),
        "games" => rows.iter().map(|(_, i)| i.games).collect::<Vec<_>>(),
        "rejects" => rows.iter().map(|(_, i)| i.rejects).collect::<Vec<_>>(),
        "plies" => rows.iter().map(|(_, i)| i.plies).collect::<Vec<_>>(),
        "grown_from" => rows
            .iter()
            .map(|(_, i)| i.grown.as_ref().map(|g| g.at.games))
            .collect::<Vec<_>>(),
    )?)
}

/// The rejected games, in input order: where and why (the rejects table's
/// columns that say so).
pub fn rejects_listed(rejects: LazyFrame) -> Result<DataFrame, Error> {
    Ok(rejects
        .select([
            col(col::SOURCE_FILE),
            col(col::GAME_NUMBER),
            col(col::LINE),
            col(col::ROUND),
            col(col::WHITE),
            col(col::BLACK),
            col(col::REASON),
        ])
        .collect()?)
}

/// The tags that, with the plies and the final position, make a game the
/// same game wherever it was read.
const SAME_GAME: [&str; 7] = [
    col::EVENT,
    col::SITE,
    col::DATE,
    col::ROUND,
    col::WHITE,
    col::BLACK,
    col::RESULT,
];

/// Games the dataset holds more than once: the same tags (event, site, date,
/// round, players, result), the same number of plies and the same final
/// position, from two files or twice in one (a season's file and its
/// event's). Every copy counts in every statistic; evallab keeps them, as
/// read, and says so here. One row per game: its tags, plies, `copies` and
/// the `places` (file #game number, `; ` separated). Reads the moves only of
/// the games whose tags and plies repeat.
pub fn repeated_games(games: LazyFrame, moves: LazyFrame) -> Result<DataFrame, Error> {
    let mut keys = tags_and_plies();
    let candidates = games
        .filter(len().over(keys.clone())?.gt(lit(1)))
        .collect()?;
    keys.push(col(FINAL_KEY));
    let mut df = with_final_keys(candidates, moves)?
        .group_by(keys)
        .agg([
            len().alias("copies"),
            col(col::SOURCE_FILE),
            col(col::GAME_NUMBER),
        ])
        .filter(col("copies").gt(lit(1)))
        .collect()?;
    // "file #n; file #m" per game (polars' string joins are not built in).
    let (files, numbers) = (
        df.column(col::SOURCE_FILE)?.list()?,
        df.column(col::GAME_NUMBER)?.list()?,
    );
    let places: Vec<String> = (0..df.height())
        .map(|i| -> Result<String, Error> {
            let (Some(f), Some(n)) = (files.get_as_series(i), numbers.get_as_series(i)) else {
                return Ok(String::new());
            };
            Ok(f.str()?
                .iter()
                .zip(n.u32()?.iter())
                .map(|(f, n)| format!("{} #{}", f.unwrap_or("?"), n.unwrap_or(0)))
                .collect::<Vec<_>>()
                .join("; "))
        })
        .collect::<Result<_, _>>()?;
    df = df.drop_many([FINAL_KEY, col::SOURCE_FILE, col::GAME_NUMBER]);
    df.with_column(Column::new("places".into(), places))?;
    // Rounds by their numbers (9.1 before 12.1 before 12.1.2), a round
    // without any (`?`, `-`) last; twins (the same tags and plies, other
    // final positions) by their places.
    let mut by = vec![col(col::EVENT), col(col::DATE)];
    by.extend(ROUND_NUMBERS.map(|re| {
        col(col::ROUND)
            .str()
            .extract(lit(re), 1)
            .cast(DataType::UInt64)
    }));
    by.extend([col(col::ROUND), col("places")]);
    Ok(df
        .lazy()
        .sort_by_exprs(
            by,
            SortMultipleOptions::default()
                .with_nulls_last_multi([true, true, true, false, false, true, true]),
        )
        .collect()?)
}

/// A round's first three numbers (`12.1.2`: 12, 1, 2), each the sort key
/// of its level.
const ROUND_NUMBERS: [&str; 3] = [r"^(\d+)", r"^\d+\.(\d+)", r"^\d+\.\d+\.(\d+)"];

/// The copies of [`repeated_games`]' games, all told.
pub fn copies(repeated: &DataFrame) -> Result<u64, Error> {
    if repeated.height() == 0 {
        return Ok(0);
    }
    Ok(repeated
        .column("copies")?
        .cast(&DataType::UInt64)?
        .u64()?
        .into_no_null_iter()
        .sum())
}

/// The position after a game's last ply (its start position without moves).
const FINAL_KEY: &str = "final_key";

/// [`SAME_GAME`]'s tags and the plies.
fn tags_and_plies() -> Vec<Expr> {
    let mut keys: Vec<Expr> = SAME_GAME.iter().map(|c| col(*c)).collect();
    keys.push(col(col::PLIES));
    keys
}

/// `games` (a few, with `game_id`, `plies`, `start_key`) with each game's
/// [`FINAL_KEY`], read from `moves`: only their rows, by a filter the scan
/// applies as it reads (the whole table's three columns held at once grew
/// with the dataset: 350 MB on the TCEC archive).
fn with_final_keys(games: DataFrame, moves: LazyFrame) -> Result<LazyFrame, Error> {
    let moves = moves.filter(game_id_in(&game_ids(&games)?));
    let games = games.lazy();
    let last = games
        .clone()
        .select([col(col::GAME_ID), col(col::PLIES).alias(col::PLY)]);
    let finals = moves
        .select([col(col::GAME_ID), col(col::PLY), col(col::POSITION_KEY)])
        .join(
            last,
            [col(col::GAME_ID), col(col::PLY)],
            [col(col::GAME_ID), col(col::PLY)],
            JoinArgs::new(JoinType::Inner),
        )
        .select([col(col::GAME_ID), col(col::POSITION_KEY).alias(FINAL_KEY)]);
    Ok(games
        .join(
            finals,
            [col(col::GAME_ID)],
            [col(col::GAME_ID)],
            JoinArgs::new(JoinType::Left),
        )
        // A game without moves: its start position.
        .with_column(col(FINAL_KEY).fill_null(col(col::START_KEY))))
}

/// How many games of the ingest runs committed as these `parts` the
/// dataset at `root` now holds more than once (counted as `inspect` lists
/// them: see the private `repeated_of_runs`).
pub fn repeated_of_parts(root: &Path, parts: &[u32]) -> Result<u64, Error> {
    let ds = Dataset::open(root)?;
    let games = ds
        .manifest()
        .runs
        .iter()
        .filter(|r| parts.contains(&r.part))
        .map(|r| ds.scan_run(r, &GAMES))
        .collect::<Result<Vec<_>, _>>()?;
    if games.is_empty() {
        return Ok(0);
    }
    repeated_of_runs(&ds, concat(games, UnionArgs::default())?)
}

/// How many games of some ingest runs (`new`: their games) the dataset
/// holds more than once, as [`repeated_games`] finds them: a copy of a game
/// already in it, or a game the runs read twice. Only the games whose tags
/// and plies repeat have their final position read, so runs without such
/// games cost a look at the games table alone.
fn repeated_of_runs(ds: &Dataset, new: LazyFrame) -> Result<u64, Error> {
    let mut tags = tags_and_plies();
    let games = ds
        .scan(&GAMES)?
        .join(
            new.select([col(col::GAME_ID)])
                .with_column(lit(true).alias("new")),
            [col(col::GAME_ID)],
            [col(col::GAME_ID)],
            JoinArgs::new(JoinType::Left),
        )
        .with_column(col("new").fill_null(lit(false)));
    // Games whose tags and plies repeat, in groups with a game of the run.
    let candidates = games
        .clone()
        .filter(
            len()
                .over(tags.clone())?
                .gt(lit(1))
                .and(col("new").any(true).over(tags.clone())?),
        )
        .collect()?;
    if candidates.height() == 0 {
        return Ok(0);
    }
    tags.push(col(FINAL_KEY));
    let df = with_final_keys(candidates, ds.scan(&MOVES)?)?
        .group_by(tags)
        .agg([len().alias("copies"), col("new").sum().alias("new")])
        .filter(col("copies").gt(lit(1)))
        .select([col("new").cast(DataType::UInt64).sum()])
        .collect()?;
    Ok(df.column("new")?.u64()?.get(0).unwrap_or(0))
}

/// The note of an ingest or a commit (`of`: what it added) that made `n`
/// games repeated.
pub fn repeated_note(n: u64, of: &str, root: &Path) -> String {
    format!(
        "note: {n} game(s) of {of} are now held more than once (the same tags, plies and \
         final position as another game of the dataset: a copy read from another file, or \
         twice); every copy counts in the statistics: `evallab inspect {}` lists them, and \
         `evallab remove` takes an input out",
        root.display()
    )
}

/// What [`verify`] checked.
#[derive(Debug)]
pub struct Verified {
    /// Parts hashed and found as committed, and their bytes.
    pub parts: usize,
    pub bytes: u64,
    /// Parts without a sum (listed by a manifest written before sums were
    /// recorded; the next write to the dataset records them).
    pub unrecorded: usize,
    /// One row per listed part: part, table, bytes, xxh3 (as found; empty
    /// without a record) and status (`as committed` or `no record`).
    pub table: DataFrame,
}

/// A part as verified: `as committed`, or `no record` (not hashed).
pub const AS_COMMITTED: &str = "as committed";
pub const NO_RECORD: &str = "no record";

/// Hashes every part the manifest lists and compares it with its sum at
/// commit; an error names each part that differs.
pub fn verify(ds: &Dataset) -> Result<Verified, Error> {
    use rayon::prelude::*;
    let listed: Vec<(&String, &String)> = ds.manifest().files().collect();
    let sums = &ds.manifest().sums;
    // The recorded parts hashed again, in parallel; None: no record.
    let hashed: Vec<(&String, &String, Option<PartSum>)> = listed
        .par_iter()
        .map(|(t, f)| {
            let now = match sums.get(*f) {
                Some(_) => Some(PartSum::of(&ds.root().join(f))?),
                None => None,
            };
            Ok((*t, *f, now))
        })
        .collect::<Result<_, Error>>()?;
    let (mut parts, mut bytes, mut unrecorded) = (0, 0, 0);
    let mut changed = Vec::new();
    // part, table, the sum as found, status.
    let mut rows: Vec<(&str, &str, Option<&PartSum>, &str)> = Vec::new();
    for (t, f, now) in &hashed {
        let status = match now {
            None => {
                unrecorded += 1;
                NO_RECORD
            }
            Some(got) if *got == sums[*f] => {
                parts += 1;
                bytes += got.bytes;
                AS_COMMITTED
            }
            Some(got) => {
                changed.push(format!(
                    "{f} (xxh3 {}, committed as {})",
                    &got.xxh3[..12],
                    &sums[*f].xxh3[..12]
                ));
                continue;
            }
        };
        rows.push((f, t, now.as_ref(), status));
    }
    if !changed.is_empty() {
        return Err(Error::Dataset(format!(
            "{}: {} part(s) differ from what was committed: {}; restore them, or rebuild the \
             dataset with `evallab ingest --overwrite`",
            ds.root().display(),
            changed.len(),
            changed.join(", ")
        )));
    }
    let table = df!(
        "part" => rows.iter().map(|r| r.0).collect::<Vec<_>>(),
        "table" => rows.iter().map(|r| r.1).collect::<Vec<_>>(),
        "bytes" => rows.iter().map(|r| r.2.map(|s| s.bytes)).collect::<Vec<_>>(),
        "xxh3" => rows.iter().map(|r| r.2.map(|s| s.xxh3.as_str())).collect::<Vec<_>>(),
        "status" => rows.iter().map(|r| r.3).collect::<Vec<_>>(),
    )?;
    Ok(Verified {
        parts,
        bytes,
        unrecorded,
        table,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two copies (files a and b) of one game per round, rounds written in
    /// text order; the games have no moves, so their start key is final.
    #[test]
    fn repeated_games_come_in_round_number_order() {
        let rounds = ["10", "12.1", "12.1.2", "9.1", "9.2", "?"];
        let n = rounds.len() * 2;
        let each = |v: &'static str| vec![v; n];
        let games = df!(
            col::GAME_ID => (0..n as i64).collect::<Vec<_>>(),
            col::EVENT => each("E"),
            col::SITE => each("S"),
            col::DATE => each("2024.01.01"),
            col::ROUND => rounds.iter().flat_map(|r| [*r, *r]).collect::<Vec<_>>(),
            col::WHITE => each("A"),
            col::BLACK => each("B"),
            col::RESULT => each("1/2-1/2"),
            col::PLIES => vec![0u32; n],
            col::START_KEY => vec![7i64; n],
            col::SOURCE_FILE => (0..n).map(|i| ["a", "b"][i % 2]).collect::<Vec<_>>(),
            col::GAME_NUMBER => (0..n as u32).map(|i| i / 2 + 1).collect::<Vec<_>>(),
        )
        .unwrap();
        let moves = df!(
            col::GAME_ID => Vec::<i64>::new(),
            col::PLY => Vec::<u32>::new(),
            col::POSITION_KEY => Vec::<i64>::new(),
        )
        .unwrap();
        let df = repeated_games(games.lazy(), moves.lazy()).unwrap();
        let got: Vec<_> = df
            .column(col::ROUND)
            .unwrap()
            .str()
            .unwrap()
            .iter()
            .flatten()
            .collect();
        assert_eq!(got, ["9.1", "9.2", "10", "12.1", "12.1.2", "?"]);
        let places = df.column("places").unwrap().str().unwrap().get(0).unwrap();
        assert_eq!(places, "a #4; b #4");
        assert_eq!(copies(&df).unwrap(), n as u64);
    }
}
