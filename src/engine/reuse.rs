//! `analyze --reuse`: rows of positions already analysed under the same
//! settings, copied instead of searched again.
//!
//! A position is known by its Polyglot key and the game's variant (a Chess960
//! game's moves castle king-takes-rook even from the standard position). The
//! sources are the committed `analysis` chunks of every run whose
//! fingerprint is this run's (the same engine, options and settings, whatever
//! the label, this label's own chunks included); of the positions with one
//! key, the smallest (game, ply, label) is the source, and all its rows (every
//! line and depth) are copied with the target's game, ply and label.
//! Positions repeated within the pending work itself are searched each time.

use std::collections::{BTreeMap, HashMap};
use std::fs::File;
use std::ops::Range;
use std::path::PathBuf;
use std::sync::Arc;

use arrow::array::{ArrayRef, AsArray, Int64Array, StringArray, UInt32Array};
use arrow::compute::{concat_batches, take, take_record_batch};
use arrow::datatypes::{Int64Type, UInt32Type};
use arrow::record_batch::RecordBatch;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use polars::prelude::*;

use crate::Error;
use crate::dataset::{Dataset, EngineRun, scan_files};
use crate::engine::positions::GameTask;
use crate::metrics::openings::{KEY, position_keys};
use crate::schema::{ANALYSIS, GAMES, MOVES, col};

const SRC_GAME: &str = "src_game_id";
const SRC_PLY: &str = "src_ply";
const SRC_LABEL: &str = "src_label";

/// Rows copied for this run, and where each target game's rows are.
#[derive(Debug)]
pub struct Reused {
    /// Labelled for this run, in (game, ply) order of the targets.
    rows: RecordBatch,
    /// Target game → its rows and positions.
    games: BTreeMap<i64, (Range<usize>, u64)>,
}

impl Reused {
    /// The positions copied.
    pub fn positions(&self) -> u64 {
        self.games.values().map(|(_, n)| n).sum()
    }

    /// The rows copied.
    pub fn rows(&self) -> usize {
        self.rows.num_rows()
    }

    /// The rows of the `games` that have some, and their positions.
    pub fn of_games(
        &self,
        games: impl IntoIterator<Item = i64>,
    ) -> Result<(RecordBatch, u64), Error> {
        let mut idx = Vec::new();
        let mut positions = 0;
        for g in games {
            if let Some((rows, n)) = self.games.get(&g) {
                idx.extend(rows.clone().map(|i| i as u32));
                positions += n;
            }
        }
        Ok((
            take_record_batch(&self.rows, &UInt32Array::from(idx))?,
            positions,
        ))
    }
}

/// Copies the rows of `todo`'s positions already analysed under `run`'s
/// fingerprint and takes their plies out of `todo` (a game may be left with
/// none). `None`: no earlier run has the settings.
pub fn find(ds: &Dataset, run: &EngineRun, todo: &mut [GameTask]) -> Result<Option<Reused>, Error> {
    let files: Vec<PathBuf> = ds
        .manifest()
        .analyses
        .iter()
        .filter(|a| a.fingerprint == run.fingerprint)
        .flat_map(|a| a.chunks.iter().filter_map(|c| c.files.get(ANALYSIS.name)))
        .map(|f| ds.root().join(f))
        .collect();
    if files.is_empty() || todo.is_empty() {
        return Ok(None);
    }
    let (games, plies): (Vec<i64>, Vec<u32>) = todo
        .iter()
        .flat_map(|t| t.plies.iter().map(|&p| (t.game_id, p)))
        .unzip();
    let targets = df!(col::GAME_ID => games, col::PLY => plies)?.lazy();
    let sources = scan_files(&files)?
        .select([col(col::GAME_ID), col(col::PLY), col(col::LABEL)])
        .unique(None, UniqueKeepStrategy::Any);
    let keys = keys_before(ds)?;
    let by_position = [col(col::GAME_ID), col(col::PLY)];
    let with_key = |positions: LazyFrame| {
        positions.join(
            keys.clone(),
            by_position.clone(),
            by_position.clone(),
            JoinArgs::new(JoinType::Inner),
        )
    };
    let map = reuse_map(with_key(targets), with_key(sources)).collect()?;
    if map.height() == 0 {
        return Ok(None);
    }
    let target_game = map.column(col::GAME_ID)?.i64()?;
    let target_ply = map.column(col::PLY)?.u32()?;
    let src_game = map.column(SRC_GAME)?.i64()?;
    let src_ply = map.column(SRC_PLY)?.u32()?;
    let src_label = map.column(SRC_LABEL)?.str()?;
    let mut wanted: HashMap<(i64, u32, &str), usize> = HashMap::new();
    for i in 0..map.height() {
        if let (Some(g), Some(p), Some(l)) = (src_game.get(i), src_ply.get(i), src_label.get(i)) {
            let n = wanted.len();
            wanted.entry((g, p, l)).or_insert(n);
        }
    }
    let (source_rows, of_source) = read_sources(&files, &wanted)?;
    // The rows of each source, in file order.
    let mut by_source: Vec<Vec<u32>> = vec![Vec::new(); wanted.len()];
    for (row, s) in of_source.into_iter().enumerate() {
        by_source[s].push(row as u32);
    }
    let (mut idx, mut out_game, mut out_ply) = (Vec::<u32>::new(), Vec::new(), Vec::new());
    let mut reused: BTreeMap<i64, (Range<usize>, u64)> = BTreeMap::new();
    let mut taken: HashMap<i64, Vec<u32>> = HashMap::new();
    for i in 0..map.height() {
        let (Some(g), Some(p), Some(sg), Some(sp), Some(sl)) = (
            target_game.get(i),
            target_ply.get(i),
            src_game.get(i),
            src_ply.get(i),
            src_label.get(i),
        ) else {
            continue;
        };
        let rows = &by_source[wanted[&(sg, sp, sl)]];
        let start = idx.len();
        idx.extend(rows);
        out_game.extend(std::iter::repeat_n(g, rows.len()));
        out_ply.extend(std::iter::repeat_n(p, rows.len()));
        let e = reused.entry(g).or_insert((start..start, 0));
        e.0.end = idx.len();
        e.1 += 1;
        taken.entry(g).or_default().push(p);
    }
    let n = idx.len();
    let idx = UInt32Array::from(idx);
    let columns: Vec<ArrayRef> = source_rows
        .columns()
        .iter()
        .enumerate()
        .map(|(i, c)| -> Result<ArrayRef, Error> {
            Ok(match ANALYSIS.columns[i].name {
                col::GAME_ID => Arc::new(Int64Array::from(out_game.clone())),
                col::PLY => Arc::new(UInt32Array::from(out_ply.clone())),
                col::LABEL => Arc::new(StringArray::from(vec![run.label.as_str(); n])),
                _ => take(c.as_ref(), &idx, None)?,
            })
        })
        .collect::<Result<_, _>>()?;
    let rows = RecordBatch::try_new(ANALYSIS.arrow_schema(), columns)?;
    for t in todo.iter_mut() {
        if let Some(done) = taken.get(&t.game_id) {
            t.plies.retain(|p| !done.contains(p));
        }
    }
    Ok(Some(Reused {
        rows,
        games: reused,
    }))
}

/// The key of the position before each ply (`games.start_key` before ply 1,
/// else the key after the previous ply), with the game's variant.
fn keys_before(ds: &Dataset) -> Result<LazyFrame, Error> {
    let games = ds.scan(&GAMES)?;
    let variants = games.clone().select([col(col::GAME_ID), col(col::VARIANT)]);
    Ok(position_keys(games, ds.scan(&MOVES)?)?
        .with_column(
            (col(col::PLY) + lit(1))
                .cast(DataType::UInt32)
                .alias(col::PLY),
        )
        .join(
            variants,
            [col(col::GAME_ID)],
            [col(col::GAME_ID)],
            JoinArgs::new(JoinType::Inner),
        ))
}

/// Each target (`game_id`, `ply`, key, `variant`) whose position is among
/// the sources (`game_id`, `ply`, `label`, key, `variant`), with its source:
/// the smallest (game, ply, label) of the key; in (game, ply) order.
fn reuse_map(targets: LazyFrame, sources: LazyFrame) -> LazyFrame {
    let first = sources
        .sort(
            [KEY, col::VARIANT, col::GAME_ID, col::PLY, col::LABEL],
            SortMultipleOptions::default(),
        )
        .group_by([col(KEY), col(col::VARIANT)])
        .agg([
            col(col::GAME_ID).first().alias(SRC_GAME),
            col(col::PLY).first().alias(SRC_PLY),
            col(col::LABEL).first().alias(SRC_LABEL),
        ]);
    targets
        .join(
            first,
            [col(KEY), col(col::VARIANT)],
            [col(KEY), col(col::VARIANT)],
            JoinArgs::new(JoinType::Inner),
        )
        .select([
            col(col::GAME_ID),
            col(col::PLY),
            col(SRC_GAME),
            col(SRC_PLY),
            col(SRC_LABEL),
        ])
        .sort([col::GAME_ID, col::PLY], SortMultipleOptions::default())
}

/// The `analysis` rows of the `wanted` sources in `files` (in file and row
/// order), and each row's source number.
fn read_sources(
    files: &[PathBuf],
    wanted: &HashMap<(i64, u32, &str), usize>,
) -> Result<(RecordBatch, Vec<usize>), Error> {
    let mut batches = Vec::new();
    let mut of_source = Vec::new();
    for path in files {
        let file = File::open(path).map_err(|e| Error::io(path, e))?;
        for batch in ParquetRecordBatchReaderBuilder::try_new(file)?.build()? {
            let batch = batch?;
            let column = |name: &str| {
                batch.column_by_name(name).ok_or_else(|| {
                    Error::Dataset(format!("{}: no column `{name}`", path.display()))
                })
            };
            let g = column(col::GAME_ID)?.as_primitive::<Int64Type>();
            let p = column(col::PLY)?.as_primitive::<UInt32Type>();
            let l = column(col::LABEL)?.as_string::<i32>();
            let mut idx = Vec::new();
            for i in 0..batch.num_rows() {
                if let Some(&s) = wanted.get(&(g.value(i), p.value(i), l.value(i))) {
                    idx.push(i as u32);
                    of_source.push(s);
                }
            }
            if !idx.is_empty() {
                batches.push(take_record_batch(&batch, &UInt32Array::from(idx))?);
            }
        }
    }
    Ok((
        concat_batches(&ANALYSIS.arrow_schema(), &batches)?,
        of_source,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each target gets the smallest (game, ply, label) of its key and
    /// variant; a key no source has, or the same key in another variant, is
    /// not reused.
    #[test]
    fn targets_map_to_the_smallest_source_of_their_key_and_variant() {
        let targets = df!(
            col::GAME_ID => [20i64, 20, 10, 20],
            col::PLY => [2u32, 1, 5, 3],
            KEY => [7i64, 5, 5, 9],
            col::VARIANT => ["standard", "standard", "chess960", "standard"],
        )
        .unwrap();
        let sources = df!(
            col::GAME_ID => [3i64, 2, 2, 1, 4],
            col::PLY => [1u32, 4, 4, 6, 2],
            col::LABEL => ["a", "b", "a", "a", "a"],
            KEY => [5i64, 7, 7, 8, 5],
            col::VARIANT => ["standard", "standard", "standard", "standard", "standard"],
        )
        .unwrap();
        let map = reuse_map(targets.lazy(), sources.lazy()).collect().unwrap();
        let expected = df!(
            col::GAME_ID => [20i64, 20],
            col::PLY => [1u32, 2],
            SRC_GAME => [3i64, 2],
            SRC_PLY => [1u32, 4],
            SRC_LABEL => ["a", "a"],
        )
        .unwrap();
        assert_eq!(map, expected);
    }
}
