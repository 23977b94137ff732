//! A dataset folder: one Parquet part per table per ingest run, and
//! `manifest.json`, which lists the committed parts and every input ingested.
//!
//! ```text
//! DATASET/manifest.json
//! DATASET/games/part-000001.parquet
//! DATASET/moves/part-000001.parquet
//! DATASET/rejects/part-000001.parquet
//! ```
//!
//! Parts are written under hidden temporary names and renamed into place, then
//! the manifest is replaced atomically; the manifest is the commit point, so a
//! part it does not list (left by an interrupted run) is never read and is
//! removed by the next ingest.

use std::fs;
use std::path::{Path, PathBuf};

use polars::prelude::{LazyFrame, PlRefPath, ScanArgsParquet};
use serde::{Deserialize, Serialize};

use crate::Error;
use crate::schema::{self, MANIFEST_FILE, Table};

/// One input file as recorded in the manifest.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct InputRecord {
    pub path: String,
    pub size: u64,
    pub sha256: String,
    pub games: u64,
    pub rejects: u64,
    pub plies: u64,
    pub unparsed_comments: u64,
}

/// One ingest run.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Run {
    /// Part number: the run's files are `<table>/part-<part>.parquet`.
    pub part: u32,
    pub started_unix: u64,
    pub seconds: f64,
    pub options: serde_json::Value,
    pub inputs: Vec<InputRecord>,
}

/// The dataset manifest.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Manifest {
    pub tool: String,
    pub tool_version: String,
    pub schema_version: String,
    pub runs: Vec<Run>,
}

impl Default for Manifest {
    fn default() -> Self {
        Manifest {
            tool: "evallab".into(),
            tool_version: env!("CARGO_PKG_VERSION").into(),
            schema_version: schema::SCHEMA_VERSION.into(),
            runs: Vec::new(),
        }
    }
}

impl Manifest {
    /// Every input of every run.
    pub fn inputs(&self) -> impl Iterator<Item = &InputRecord> {
        self.runs.iter().flat_map(|r| r.inputs.iter())
    }

    /// Whether an input with this sha256 was already ingested.
    pub fn has_input(&self, sha256: &str) -> bool {
        self.inputs().any(|i| i.sha256 == sha256)
    }

    /// Totals over all inputs.
    pub fn totals(&self) -> (u64, u64, u64) {
        self.inputs().fold((0, 0, 0), |(g, r, p), i| {
            (g + i.games, r + i.rejects, p + i.plies)
        })
    }
}

/// An existing or new dataset folder.
#[derive(Debug, Clone)]
pub struct Dataset {
    pub root: PathBuf,
    pub manifest: Manifest,
}

/// Path of a table's part file.
pub fn part_path(root: &Path, table: &Table, part: u32) -> PathBuf {
    root.join(table.name)
        .join(format!("part-{part:06}.parquet"))
}

impl Dataset {
    /// Opens a dataset written by `evallab ingest`.
    pub fn open(root: &Path) -> Result<Dataset, Error> {
        let path = root.join(MANIFEST_FILE);
        let text = fs::read_to_string(&path).map_err(|e| {
            if e.kind() == std::io::ErrorKind::NotFound {
                Error::Dataset(format!(
                    "{}: not an evallab dataset (no {MANIFEST_FILE}); create it with `evallab ingest`",
                    root.display()
                ))
            } else {
                Error::io(&path, e)
            }
        })?;
        let manifest: Manifest = serde_json::from_str(&text)
            .map_err(|e| Error::Dataset(format!("{}: {e}", path.display())))?;
        if manifest.schema_version != schema::SCHEMA_VERSION {
            return Err(Error::Dataset(format!(
                "{}: schema version {} but this evallab reads version {}; re-ingest the inputs",
                root.display(),
                manifest.schema_version,
                schema::SCHEMA_VERSION
            )));
        }
        Ok(Dataset {
            root: root.to_path_buf(),
            manifest,
        })
    }

    /// Opens a dataset, or starts an empty one if the folder has no manifest.
    pub fn open_or_create(root: &Path) -> Result<Dataset, Error> {
        if root.join(MANIFEST_FILE).exists() {
            return Dataset::open(root);
        }
        fs::create_dir_all(root).map_err(|e| Error::io(root, e))?;
        Ok(Dataset {
            root: root.to_path_buf(),
            manifest: Manifest::default(),
        })
    }

    /// The committed part files of a table.
    pub fn parts(&self, table: &Table) -> Vec<PathBuf> {
        self.manifest
            .runs
            .iter()
            .map(|r| part_path(&self.root, table, r.part))
            .collect()
    }

    /// A lazy scan over a table's committed parts.
    pub fn scan(&self, table: &Table) -> Result<LazyFrame, Error> {
        let parts = self.parts(table);
        if parts.is_empty() {
            return Err(Error::Dataset(format!(
                "{}: the dataset has no ingested data yet",
                self.root.display()
            )));
        }
        let paths = parts
            .iter()
            .map(|p| PlRefPath::new(p.to_string_lossy().as_ref()))
            .collect();
        Ok(LazyFrame::scan_parquet_files(
            paths,
            ScanArgsParquet::default(),
        )?)
    }

    /// Writes the manifest atomically (temp file, then rename).
    pub fn save_manifest(&self) -> Result<(), Error> {
        let path = self.root.join(MANIFEST_FILE);
        let tmp = self.root.join(format!(".{MANIFEST_FILE}.tmp"));
        let text = serde_json::to_string_pretty(&self.manifest)?;
        fs::write(&tmp, text + "\n").map_err(|e| Error::io(&tmp, e))?;
        fs::rename(&tmp, &path).map_err(|e| Error::io(&path, e))
    }

    /// Removes temp files and parts no manifest entry lists (an interrupted run).
    pub fn remove_orphans(&self) -> Result<Vec<PathBuf>, Error> {
        let mut removed = Vec::new();
        let keep: Vec<PathBuf> = schema::TABLES.iter().flat_map(|t| self.parts(t)).collect();
        let mut dirs = vec![self.root.clone()];
        dirs.extend(schema::TABLES.iter().map(|t| self.root.join(t.name)));
        for dir in dirs {
            let Ok(entries) = fs::read_dir(&dir) else {
                continue;
            };
            for entry in entries.flatten() {
                let p = entry.path();
                let name = entry.file_name().to_string_lossy().into_owned();
                let stale_tmp = name.starts_with('.') && name.ends_with(".tmp");
                let orphan = dir != self.root && name.ends_with(".parquet") && !keep.contains(&p);
                if stale_tmp || orphan {
                    fs::remove_file(&p).map_err(|e| Error::io(&p, e))?;
                    removed.push(p);
                }
            }
        }
        Ok(removed)
    }

    /// The next free part number.
    pub fn next_part(&self) -> u32 {
        self.manifest.runs.iter().map(|r| r.part).max().unwrap_or(0) + 1
    }
}
