//! [`DatasetWriter`]: the only way to change a dataset. It holds the
//! dataset's [`lock`](super::lock) for as long as it lives, so every write —
//! an ingest run, an engine stage's chunk, a shard's commit, a derived table,
//! the pipeline state — happens under it (as cargo's `Filesystem` reaches a
//! path only through its `flock`).
//!
//! Writing follows [`commit`]: parts are committed under names
//! the manifest does not list yet, [`DatasetWriter::commit`] then commits the
//! manifest (the commit point) and removes what it no longer lists.

use std::ops::Deref;
use std::path::{Path, PathBuf};

use polars::prelude::DataFrame;

use super::derived::{self, Stamp};
use super::lock::{DatasetLock, Holder};
use super::{Dataset, EngineChunk, EngineRun, Run, commit};
use crate::Error;
use crate::schema::Table;

/// How [`DatasetWriter::open`] treats the folder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Open {
    /// A dataset that must exist, every part its manifest lists present.
    Existing,
    /// As `Existing`, or an empty dataset when the folder has no manifest.
    OrCreate,
    /// As `OrCreate`, but missing parts and another schema version are no
    /// error: the writer is about to replace every run (`ingest --overwrite`).
    Replace,
}

/// A dataset opened for writing, its lock held until it is dropped.
#[derive(Debug)]
pub struct DatasetWriter {
    ds: Dataset,
    lock: DatasetLock,
    removed: Vec<PathBuf>,
}

impl DatasetWriter {
    /// Takes the lock of the dataset at `root` as `command` (the name another
    /// writer's error shows), opens it, and removes what a writer that failed
    /// or was killed left behind. Fails at once if another process holds it.
    pub fn open(root: &Path, command: &str, open: Open) -> Result<DatasetWriter, Error> {
        // A dataset that is not there is an error before anything is written:
        // taking the lock would create its folder.
        if matches!(open, Open::Existing) {
            Dataset::open(root)?;
        }
        let lock = DatasetLock::acquire(root, command)?;
        let ds = match open {
            Open::Existing => Dataset::open(root)?,
            Open::OrCreate => Dataset::open_or_create(root, false)?,
            Open::Replace => Dataset::open_or_create(root, true)?,
        };
        let removed = ds.collect_garbage()?;
        Ok(DatasetWriter { ds, lock, removed })
    }

    /// As [`DatasetWriter::open`], but `None` while another process writes
    /// the dataset or when it is read-only to this user: for a cache that
    /// must not make its reader fail.
    pub fn try_open(root: &Path, command: &str) -> Result<Option<DatasetWriter>, Error> {
        match DatasetWriter::open(root, command, Open::Existing) {
            Ok(w) => Ok(Some(w)),
            Err(e) if e.is_unwritable() => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// The trace of a writer that died holding the lock, if any.
    pub fn stale(&self) -> Option<&Holder> {
        self.lock.stale.as_ref()
    }

    /// The leftovers removed when the dataset was opened, and by commits since.
    pub fn removed(&self) -> &[PathBuf] {
        &self.removed
    }

    /// Replaces the ingest runs (`ingest --overwrite` starts from none).
    pub fn set_runs(&mut self, runs: Vec<Run>) {
        self.ds.manifest.runs = runs;
    }

    /// Adds an ingest run whose parts are committed.
    pub fn add_run(&mut self, run: Run) {
        self.ds.manifest.runs.push(run);
    }

    /// Adds a committed chunk to the engine run labelled as `run` (or adds
    /// `run` with this one chunk).
    pub fn add_chunk(&mut self, run: &EngineRun, chunk: EngineChunk) {
        self.ds.manifest.add_chunk(run, chunk);
    }

    /// Commits the manifest, stamped with this build's versions: the commit
    /// point. Then removes the parts it no longer lists.
    pub fn commit(&mut self) -> Result<(), Error> {
        self.ds.save_manifest()?;
        let removed = self.ds.collect_garbage()?;
        self.removed.extend(removed);
        Ok(())
    }

    /// Stores a derived table computed from this dataset, stamped with what
    /// it was computed from (see [`Dataset::read_derived`]).
    pub fn store_derived(&self, table: &Table, df: &DataFrame, stamp: &Stamp) -> Result<(), Error> {
        let path = self.ds.derived_path(table);
        derived::write_frames(&path, Some(stamp), |sink| sink(df.clone()))?;
        Ok(())
    }

    /// As [`DatasetWriter::store_derived`], a batch at a time as `fill` hands
    /// them to its sink: a table larger than memory.
    pub fn store_derived_batches<T>(
        &self,
        table: &Table,
        stamp: &Stamp,
        fill: impl FnOnce(&mut dyn FnMut(DataFrame) -> Result<(), Error>) -> Result<T, Error>,
    ) -> Result<T, Error> {
        derived::write_frames(&self.ds.derived_path(table), Some(stamp), fill)
    }

    /// Stores a small derived file (JSON state) in `DATASET/derived/`.
    pub fn store_file(&self, name: &str, bytes: &[u8]) -> Result<(), Error> {
        commit::write_bytes(&self.ds.derived_dir().join(name), bytes)
    }
}

/// A run that failed before its commit point may leave parts it committed
/// under names no manifest lists: they go now, by the manifest on disk (the
/// one in memory may list parts never committed, or no longer list the runs
/// an `--overwrite` was replacing). A first write that failed also leaves no
/// empty table folders behind. (A killed writer's leftovers go at the next
/// open instead.) After a commit there is nothing to remove.
impl Drop for DatasetWriter {
    fn drop(&mut self) {
        let root = self.ds.root.clone();
        let first = !root.join(crate::schema::MANIFEST_FILE).exists();
        let on_disk = if first {
            Ok(Dataset {
                root: root.clone(),
                manifest: Default::default(),
            })
        } else {
            Dataset::load(&root, false)
        };
        if let Ok(ds) = on_disk {
            let _ = ds.collect_garbage();
        }
        if first {
            for t in crate::schema::ALL_TABLES {
                // Fails, as it should, on a folder that is not empty.
                let _ = std::fs::remove_dir(root.join(t.name));
            }
        }
    }
}

impl Deref for DatasetWriter {
    type Target = Dataset;

    fn deref(&self) -> &Dataset {
        &self.ds
    }
}

#[cfg(test)]
mod tests {
    use polars::prelude::*;

    use super::*;
    use crate::schema::EAS_LABELS;

    #[test]
    fn a_second_writer_is_refused_and_a_cache_writer_steps_aside() {
        let dir = tempfile::tempdir().unwrap();
        let mut w = DatasetWriter::open(dir.path(), "ingest", Open::OrCreate).unwrap();
        w.commit().unwrap();
        let err = DatasetWriter::open(dir.path(), "eas", Open::Existing).unwrap_err();
        assert!(matches!(err, Error::Locked { .. }), "{err}");
        assert!(
            DatasetWriter::try_open(dir.path(), "eas")
                .unwrap()
                .is_none()
        );
        drop(w);
        assert!(
            DatasetWriter::try_open(dir.path(), "eas")
                .unwrap()
                .is_some()
        );
    }

    /// A writer dropped before its commit point (a run that failed) takes
    /// its committed but unlisted parts with it, judged by the manifest on
    /// disk: after a failed first write nothing is left but the lock file;
    /// after a failed `--overwrite` the listed parts are all still there.
    #[test]
    fn a_failed_write_leaves_no_unlisted_part_and_keeps_the_listed_ones() {
        use crate::dataset::{Run, part_file};
        use crate::schema::TABLES;
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("ds");
        let put = |t: &Table, part: u32| {
            let p = root.join(part_file(t, part));
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(&p, b"PAR1").unwrap();
            p
        };
        let w = DatasetWriter::open(&root, "ingest", Open::OrCreate).unwrap();
        let orphans: Vec<PathBuf> = TABLES.iter().map(|t| put(t, 1)).collect();
        drop(w);
        for (t, p) in TABLES.iter().zip(&orphans) {
            assert!(
                !p.exists() && !root.join(t.name).exists(),
                "{}",
                p.display()
            );
        }

        let mut w = DatasetWriter::open(&root, "ingest", Open::OrCreate).unwrap();
        let listed: Vec<PathBuf> = TABLES.iter().map(|t| put(t, 1)).collect();
        w.add_run(Run {
            part: 1,
            started_unix: 0,
            seconds: 0.0,
            options: serde_json::Value::Null,
            inputs: Vec::new(),
            files: Run::base_files(1),
            shard: None,
        });
        w.commit().unwrap();
        drop(w);
        let mut w = DatasetWriter::open(&root, "ingest", Open::Replace).unwrap();
        w.set_runs(Vec::new());
        let orphans: Vec<PathBuf> = TABLES.iter().map(|t| put(t, 2)).collect();
        drop(w);
        assert!(listed.iter().all(|p| p.exists()));
        assert!(orphans.iter().all(|p| !p.exists()));
        assert_eq!(Dataset::open(&root).unwrap().parts(TABLES[0]), listed[..1]);
    }

    /// A derived table reads back only under the stamp it was stored with,
    /// and carries the schema version like every part.
    #[test]
    fn derived_tables_read_back_under_their_stamp_only() {
        let dir = tempfile::tempdir().unwrap();
        let mut w = DatasetWriter::open(dir.path(), "test", Open::OrCreate).unwrap();
        w.commit().unwrap();
        let df = df!("game_id" => [1i64, 2], "x" => [0.5f64, 1.5]).unwrap();
        let stamp = Stamp::new("eas", &w);
        w.store_derived(&EAS_LABELS, &df, &stamp).unwrap();
        let back = w.read_derived(&EAS_LABELS, &stamp).unwrap().unwrap();
        assert!(back.equals(&df));
        let other = Stamp::new("relevance", &w);
        assert!(w.read_derived(&EAS_LABELS, &other).unwrap().is_none());
        let meta = derived::file_metadata(&w.derived_path(&EAS_LABELS)).unwrap();
        assert_eq!(
            meta.get(crate::schema::SCHEMA_VERSION_KEY)
                .map(String::as_str),
            Some(crate::schema::SCHEMA_VERSION)
        );
    }
}
