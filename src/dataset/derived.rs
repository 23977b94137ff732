//! Derived tables: frames the metrics compute from a dataset's parts (EAS
//! labels, the relevance per-move table) and store in `DATASET/derived/`
//! through a [`DatasetWriter`](super::writer::DatasetWriter). Each is one
//! Parquet file committed by the commit protocol, carrying the parts' version
//! keys (`evallab.schema_version`, `evallab.tool_version`) and a [`Stamp`] of
//! what it was computed from, so a reader takes it only while it is current.
//!
//! The same writer serves the facts files of a cluster's map step
//! (`crate::metrics::facts`), which live outside the dataset.

use std::collections::BTreeMap;
use std::fs::File;
use std::path::{Path, PathBuf};

use polars::prelude::*;

use super::{Dataset, commit, scan_files};
use crate::Error;
use crate::schema::{
    SCHEMA_VERSION, SCHEMA_VERSION_KEY, TOOL_VERSION_KEY, Table, algorithm_version, derived_file,
};

/// The Parquet metadata key of a derived table's stamp.
pub const STAMP_KEY: &str = "evallab.stamp";

/// What a derived table was computed from: the computation, its algorithm
/// version and the dataset's ingest parts (a table computed from other parts
/// is stale).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stamp(String);

impl Stamp {
    /// What `command` computes (at its current algorithm version) from
    /// `ds`'s current ingest runs.
    pub fn new(command: &str, ds: &Dataset) -> Stamp {
        let parts: Vec<String> = ds
            .manifest
            .runs
            .iter()
            .map(|r| r.part.to_string())
            .collect();
        let version = algorithm_version(command);
        Stamp(format!("{command}-{version}:{}", parts.join(",")))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl Dataset {
    /// `DATASET/derived/`.
    pub fn derived_dir(&self) -> PathBuf {
        self.root.join("derived")
    }

    /// Where a derived table is stored.
    pub fn derived_path(&self, table: &Table) -> PathBuf {
        self.root.join(derived_file(table))
    }

    /// The stored derived table, if it was computed under `stamp`. A file of
    /// an older evallab (no stamp) or of other parts reads as `None`.
    pub fn read_derived(&self, table: &Table, stamp: &Stamp) -> Result<Option<DataFrame>, Error> {
        let path = self.derived_path(table);
        if !path.is_file() {
            return Ok(None);
        }
        let current = file_metadata(&path)
            .ok()
            .and_then(|m| m.get(STAMP_KEY).cloned());
        if current.as_deref() != Some(stamp.as_str()) {
            return Ok(None);
        }
        Ok(Some(scan_files(&[path])?.collect()?))
    }
}

/// Writes Parquet to `path` through the commit protocol, one frame at a time
/// as `fill` hands them to its sink (all of one schema): a table larger than
/// memory is written chunk by chunk. With a stamp, the file carries the
/// version keys of a dataset part and the stamp.
pub fn write_frames<T>(
    path: &Path,
    stamp: Option<&Stamp>,
    fill: impl FnOnce(&mut dyn FnMut(DataFrame) -> Result<(), Error>) -> Result<T, Error>,
) -> Result<T, Error> {
    let metadata = stamp.map(|s| {
        KeyValueMetadata::from_static(vec![
            (SCHEMA_VERSION_KEY.into(), SCHEMA_VERSION.into()),
            (TOOL_VERSION_KEY.into(), env!("CARGO_PKG_VERSION").into()),
            (STAMP_KEY.into(), s.as_str().into()),
        ])
    });
    let mut out = None;
    commit::write_with(path, |f| {
        let mut writer = None;
        let mut sink = |mut df: DataFrame| -> Result<(), Error> {
            // The batched writer takes row batches: every column chunked alike.
            df.align_chunks_par();
            let w = match &mut writer {
                Some(w) => w,
                None => {
                    let file = f.try_clone().map_err(|e| Error::io(path, e))?;
                    writer.insert(
                        ParquetWriter::new(file)
                            .with_key_value_metadata(metadata.clone())
                            .batched(df.schema())?,
                    )
                }
            };
            w.write_batch(&df)?;
            Ok(())
        };
        out = Some(fill(&mut sink)?);
        if let Some(w) = writer {
            w.finish()?;
        }
        Ok(())
    })?;
    Ok(out.expect("filled"))
}

/// A Parquet file's key-value metadata.
pub fn file_metadata(path: &Path) -> Result<BTreeMap<String, String>, Error> {
    use parquet::file::reader::{FileReader, SerializedFileReader};
    let file = File::open(path).map_err(|e| Error::io(path, e))?;
    let reader = SerializedFileReader::new(file)
        .map_err(|e| Error::Dataset(format!("{}: {e}", path.display())))?;
    Ok(reader
        .metadata()
        .file_metadata()
        .key_value_metadata()
        .into_iter()
        .flatten()
        .filter_map(|kv| Some((kv.key.clone(), kv.value.clone()?)))
        .collect())
}
