//! Taking inputs out of a dataset (`evallab remove`): the runs that hold
//! them are written again without their rows, as new parts, and the manifest
//! then lists those parts in place of the old ones (the commit point), so a
//! removal is whole or not at all, like every other write.
//!
//! Which recorded inputs a name means ([`find_inputs`]): a sha256 or a prefix
//! of one (8 hex digits or more), the path as recorded, or a path that
//! resolves to the recorded file or to a folder holding it (every version of
//! a file: the earlier one and what it grew by).

use std::collections::{BTreeSet, HashMap, HashSet};
use std::fs::File;
use std::path::{Path, PathBuf};

use arrow::array::{Array, AsArray, BooleanArray, RecordBatch};
use arrow::datatypes::Int64Type;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

use super::part::PartWriter;
use super::writer::DatasetWriter;
use super::{Dataset, InputRecord, Run, part_file};
use crate::Error;
use crate::schema::{GAMES, MOVES, REJECTS, Table, col};

/// Rows read from a part at a time.
const BATCH_ROWS: usize = 64 * 1024;

/// What a removal took out.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Removed {
    /// The inputs, as they were recorded.
    pub inputs: Vec<InputRecord>,
    /// Rows taken out of each base table.
    pub games: u64,
    pub moves: u64,
    pub rejects: u64,
    /// Runs written again as a new part (old part → new), and runs that held
    /// nothing else and went.
    pub rewritten: Vec<(u32, u32)>,
    pub dropped: Vec<u32>,
}

/// The recorded inputs that `names` mean, each once, in the manifest's
/// order; a name that means none is a usage error that names it.
pub fn find_inputs(ds: &Dataset, names: &[String]) -> Result<Vec<InputRecord>, Error> {
    let recorded: Vec<&InputRecord> = ds.manifest().inputs().collect();
    let mut chosen: HashSet<&str> = HashSet::new();
    for name in names {
        let hits = matching(&recorded, name)?;
        if hits.is_empty() {
            return Err(Error::Usage(format!(
                "{name}: no input of {} has this path or sha256 (`evallab inspect {}` lists \
                 its inputs)",
                ds.root().display(),
                ds.root().display()
            )));
        }
        chosen.extend(hits);
    }
    Ok(recorded
        .into_iter()
        .filter(|r| chosen.contains(r.sha256.as_str()))
        .cloned()
        .collect())
}

/// The sha256 of the inputs `name` means (see the module's doc).
fn matching<'a>(recorded: &[&'a InputRecord], name: &str) -> Result<Vec<&'a str>, Error> {
    let hex = name.len() >= 8 && name.len() <= 64 && name.bytes().all(|b| b.is_ascii_hexdigit());
    if hex {
        let lower = name.to_ascii_lowercase();
        let hits: Vec<&str> = recorded
            .iter()
            .filter(|r| r.sha256.starts_with(&lower))
            .map(|r| r.sha256.as_str())
            .collect();
        if hits.len() > 1 {
            return Err(Error::Usage(format!(
                "{name}: the sha256 of {} inputs starts so; give more of it",
                hits.len()
            )));
        }
        if !hits.is_empty() {
            return Ok(hits);
        }
    }
    // A file or folder that is still there, resolved as the ingest resolved
    // its inputs; else the path as written, made absolute.
    let given = Path::new(name);
    let resolved = std::fs::canonicalize(given)
        .or_else(|_| std::path::absolute(given))
        .unwrap_or_else(|_| given.to_path_buf());
    Ok(recorded
        .iter()
        .filter(|r| r.path == name || r.resolved_path().is_some_and(|p| p.starts_with(&resolved)))
        .map(|r| r.sha256.as_str())
        .collect())
}

/// The new inputs (name, resolved path) whose file the dataset holds in
/// other versions (`known`, by their files' resolved paths), each with
/// every such version. The caller leaves out inputs that continue their
/// file (a file that grew is one input with its earlier version).
pub fn other_versions<'a>(
    new: impl Iterator<Item = (&'a str, Option<PathBuf>)>,
    known: &[&InputRecord],
) -> Vec<(String, Vec<InputRecord>)> {
    let mut by_path: HashMap<PathBuf, Vec<&InputRecord>> = HashMap::new();
    for k in known {
        if let Some(p) = k.resolved_path() {
            by_path.entry(p).or_default().push(k);
        }
    }
    new.filter_map(|(name, resolved)| {
        let earlier = by_path.get(&resolved?)?;
        Some((
            name.to_string(),
            earlier.iter().map(|&k| k.clone()).collect(),
        ))
    })
    .collect()
}

impl DatasetWriter {
    /// Takes `inputs` (recorded inputs, see [`find_inputs`]) out of the
    /// dataset: each run that holds one is written again as a new part
    /// without their games, moves and rejects (a run left with no input
    /// goes). Listed at the next [`DatasetWriter::commit`]; until then the
    /// dataset is as it was. Engine analyses of the removed games stay in
    /// their tables (ingesting the same file again gives its games the same
    /// ids, and they apply again); the statistics read them only with a
    /// game's moves.
    pub fn remove_inputs(&mut self, inputs: &[InputRecord]) -> Result<Removed, Error> {
        let shas: BTreeSet<&str> = inputs.iter().map(|i| i.sha256.as_str()).collect();
        let mut removed = Removed {
            inputs: inputs.to_vec(),
            ..Removed::default()
        };
        let mut runs = self.manifest().runs.clone();
        let mut next = self.next_part();
        for run in &mut runs {
            if !run.inputs.iter().any(|i| shas.contains(i.sha256.as_str())) {
                continue;
            }
            run.inputs.retain(|i| !shas.contains(i.sha256.as_str()));
            if run.inputs.is_empty() {
                removed.dropped.push(run.part);
                // Its rows are counted as they go.
                removed.games += rows_of(self, run, &GAMES)?;
                removed.moves += rows_of(self, run, &MOVES)?;
                removed.rejects += rows_of(self, run, &REJECTS)?;
                continue;
            }
            let (old, new) = (run.part, next);
            next += 1;
            self.rewrite_run(run, new, &shas, &mut removed)?;
            removed.rewritten.push((old, new));
        }
        runs.retain(|r| !r.inputs.is_empty());
        self.set_runs(runs);
        Ok(removed)
    }

    /// Takes out the earlier versions of `versions` (see [`other_versions`]):
    /// `ingest --replace` and `commit --replace`, once their run is added.
    pub fn replace_versions(
        &mut self,
        versions: &[(String, Vec<InputRecord>)],
    ) -> Result<Removed, Error> {
        let earlier: Vec<InputRecord> = versions
            .iter()
            .flat_map(|(_, v)| v.iter().cloned())
            .collect();
        self.remove_inputs(&earlier)
    }

    /// Writes `run`'s base tables again as part `new` without the rows of
    /// the inputs `shas`, and points `run` at them.
    fn rewrite_run(
        &self,
        run: &mut Run,
        new: u32,
        shas: &BTreeSet<&str>,
        removed: &mut Removed,
    ) -> Result<(), Error> {
        // The games first: their ids say which moves go.
        let mut gone: HashSet<i64> = HashSet::new();
        let mut files = run.files.clone();
        let tables = [
            (&GAMES, &mut removed.games),
            (&REJECTS, &mut removed.rejects),
            (&MOVES, &mut removed.moves),
        ];
        for (table, dropped) in tables {
            let Some(file) = run.files.get(table.name) else {
                continue;
            };
            let src = self.root().join(file);
            let mut out = PartWriter::create(self.root(), table, new)?;
            for batch in read_part(&src)? {
                let batch = batch.map_err(|e| damaged(&src, e))?;
                let ids = batch_column(&batch, col::GAME_ID, &src)?.as_primitive::<Int64Type>();
                let keep: BooleanArray = if table.name == MOVES.name {
                    ids.iter()
                        .map(|g| Some(!g.is_some_and(|g| gone.contains(&g))))
                        .collect()
                } else {
                    let sha = batch_column(&batch, col::SOURCE_SHA256, &src)?.as_string::<i32>();
                    sha.iter()
                        .map(|s| Some(!s.is_some_and(|s| shas.contains(s))))
                        .collect()
                };
                if table.name == GAMES.name {
                    let out = ids
                        .iter()
                        .zip(keep.iter())
                        .filter(|(_, k)| *k == Some(false));
                    gone.extend(out.filter_map(|(g, _)| g));
                }
                *dropped += keep.false_count() as u64;
                let kept = arrow::compute::filter_record_batch(&batch, &keep)?;
                // The table's own schema (the file's carries the same fields).
                let kept = RecordBatch::try_new(table.arrow_schema(), kept.columns().to_vec())?;
                out.write(&kept)?;
            }
            out.commit()?;
            files.insert(table.name.to_string(), part_file(table, new));
        }
        run.part = new;
        run.files = files;
        Ok(())
    }
}

/// The rows of `run`'s part of `table` (from its footer, no page read).
fn rows_of(ds: &Dataset, run: &Run, table: &Table) -> Result<u64, Error> {
    let Some(file) = run.files.get(table.name) else {
        return Ok(0);
    };
    let path = ds.root().join(file);
    let f = File::open(&path).map_err(|e| Error::io(&path, e))?;
    let meta = ParquetRecordBatchReaderBuilder::try_new(f).map_err(|e| damaged(&path, e))?;
    Ok(meta.metadata().file_metadata().num_rows() as u64)
}

fn read_part(path: &Path) -> Result<parquet::arrow::arrow_reader::ParquetRecordBatchReader, Error> {
    let f = File::open(path).map_err(|e| Error::io(path, e))?;
    ParquetRecordBatchReaderBuilder::try_new(f)
        .and_then(|b| b.with_batch_size(BATCH_ROWS).build())
        .map_err(|e| damaged(path, e))
}

/// A part that cannot be read: the dataset is damaged there.
fn damaged(path: &Path, e: impl std::fmt::Display) -> Error {
    Error::Dataset(format!(
        "{}: cannot be read ({e}); `evallab inspect --verify` checks every part",
        path.display()
    ))
}

fn batch_column<'a>(
    batch: &'a RecordBatch,
    name: &str,
    path: &Path,
) -> Result<&'a dyn Array, Error> {
    batch
        .column_by_name(name)
        .map(|a| a.as_ref())
        .ok_or_else(|| Error::Dataset(format!("{}: no column `{name}`", path.display())))
}
