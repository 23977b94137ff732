//! The map step of `balance`, `calibrate` and `eas`, part by part: per-game
//! facts ([`side_facts_in_chunks`]) and EAS labels ([`Labeller::part`]) of each
//! ingest run, written as small Parquet files into a facts folder, so that a
//! cluster can compute them in parallel (`evallab facts --part N`); and the
//! reduce's input: those files read back in the manifest's run order, which
//! is the order a one-process computation sees the games in.
//!
//! ```text
//! FACTS/part-000001.game_facts.parquet   one row per game and side (schema::GAME_FACTS)
//! FACTS/part-000001.eas_labels.parquet   one row per game (schema::EAS_LABELS without `duplicate`)
//! ```
//!
//! The folder is not part of the dataset (many processes write it at once,
//! without the dataset's lock); each file goes through the commit protocol,
//! stamped as the dataset's derived tables are,
//! and the reduce checks that every run's files are there and hold that
//! run's games.

use std::path::{Path, PathBuf};

use polars::prelude::*;

use crate::Error;
use crate::dataset::derived::{Stamp, write_frames};
use crate::dataset::{Dataset, Run};
use crate::metrics::balance::side_facts_in_chunks;
use crate::metrics::chunks::CHUNK_PLIES;
use crate::metrics::eas::{Labeller, mark_duplicates};
use crate::schema::{EAS_LABELS, GAME_FACTS, GAMES, MOVES, Table};

/// The facts file of `table` for part `part`.
pub fn facts_file(dir: &Path, part: u32, table: &Table) -> PathBuf {
    dir.join(format!("part-{part:06}.{}.parquet", table.name))
}

/// Computes and writes the facts of the runs with the given part numbers
/// (every run when empty). Returns (part, games) per run written.
pub fn write_facts(ds: &Dataset, parts: &[u32], dir: &Path) -> Result<Vec<(u32, usize)>, Error> {
    if let Some(p) = parts
        .iter()
        .find(|p| !ds.manifest().runs.iter().any(|r| r.part == **p))
    {
        return Err(Error::Usage(format!(
            "--part {p}: the dataset has no ingest run with that part number"
        )));
    }
    let mut labeller = Labeller::new();
    // Stamped like the dataset's derived tables (versions and parts).
    let stamp = Stamp::new("facts", ds);
    let mut done = Vec::new();
    for run in ds
        .manifest()
        .runs
        .iter()
        .filter(|r| parts.is_empty() || parts.contains(&r.part))
    {
        let (games, moves) = (ds.scan_run(run, &GAMES)?, ds.scan_run(run, &MOVES)?);
        let mut side = side_facts_in_chunks(
            games.clone(),
            games.clone(),
            moves.clone(),
            true,
            CHUNK_PLIES,
        )?;
        let mut labels = labeller.part(games, moves)?;
        for (table, df) in [(&GAME_FACTS, &mut side), (&EAS_LABELS, &mut labels)] {
            write_frames(&facts_file(dir, run.part, table), Some(&stamp), |sink| {
                sink(df.clone())
            })?;
        }
        done.push((run.part, labels.height()));
    }
    Ok(done)
}

/// The facts of every run of the dataset, read from `dir`: the game facts
/// (for [`crate::metrics::balance::select_facts`]) and the EAS labels with
/// their duplicate flags.
pub fn read_facts(ds: &Dataset, dir: &Path) -> Result<(LazyFrame, DataFrame), Error> {
    if ds.manifest().runs.is_empty() {
        return Err(Error::Dataset(format!(
            "{}: the dataset has no ingested data yet",
            ds.root().display()
        )));
    }
    let mut side = Vec::new();
    let mut labels = Vec::new();
    for run in &ds.manifest().runs {
        let games: u64 = run.inputs.iter().map(|i| i.games).sum();
        let g = read_checked(dir, run, &GAME_FACTS, 2 * games)?;
        side.push(g.lazy());
        labels.push(read_checked(dir, run, &EAS_LABELS, games)?);
    }
    let side = concat(side, UnionArgs::default())?;
    Ok((side, mark_duplicates(labels)?))
}

/// A run's facts file, which must hold `rows` rows (else it belongs to
/// another dataset or an older ingest).
fn read_checked(dir: &Path, run: &Run, table: &Table, rows: u64) -> Result<DataFrame, Error> {
    let path = facts_file(dir, run.part, table);
    if !path.is_file() {
        return Err(Error::Dataset(format!(
            "{}: missing; compute it with `evallab facts DATASET -o {} --part {}`",
            path.display(),
            dir.display(),
            run.part
        )));
    }
    let df = LazyFrame::scan_parquet(
        PlRefPath::new(path.to_string_lossy().as_ref()),
        ScanArgsParquet::default(),
    )?
    .collect()?;
    if df.height() as u64 != rows {
        return Err(Error::Dataset(format!(
            "{}: {} rows, but part {} of the dataset makes {rows}; these facts are of another \
             dataset: compute them again with `evallab facts`",
            path.display(),
            df.height(),
            run.part
        )));
    }
    Ok(df)
}
