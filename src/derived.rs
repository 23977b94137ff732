//! Derived tables: computed by the metrics from a dataset's parts and stored in
//! `DATASET/derived/` through the commit protocol, under the dataset's lock,
//! with a stamp of the parts they were computed from.

use polars::prelude::*;

use crate::Error;
use crate::dataset::Dataset;
use crate::dataset::lock::DatasetLock;
use crate::metrics::eas::labels;
use crate::pipeline::algorithm_version;
use crate::render::format::{self, Format};
use crate::schema::{EAS_LABELS, GAMES, MOVES, derived_file};

/// The dataset's labels: read from their [`derived_file`] when they were computed for
/// the dataset's current parts, else computed and stored. The flag says
/// whether they were computed. While another process writes the dataset, they
/// are computed and not stored (a cache must not make a reader fail).
pub fn stored_labels(ds: &Dataset, force: bool) -> Result<(DataFrame, bool), Error> {
    let path = ds.root.join(derived_file(&EAS_LABELS));
    let stamp = path.with_extension("parts");
    let parts: Vec<String> = ds
        .manifest
        .runs
        .iter()
        .map(|r| r.part.to_string())
        .collect();
    // The algorithm version: labels of an older evallab are recomputed.
    let current = format!("eas-{}:{}", algorithm_version("eas"), parts.join(","));
    if !force
        && path.exists()
        && std::fs::read_to_string(&stamp).ok().as_deref() == Some(current.as_str())
    {
        let df = LazyFrame::scan_parquet(
            PlRefPath::new(path.to_string_lossy().as_ref()),
            ScanArgsParquet::default(),
        )?
        .collect()?;
        return Ok((df, false));
    }
    let lock = match DatasetLock::acquire(&ds.root, "eas") {
        Ok(lock) => Some(lock),
        Err(Error::Locked { .. }) => None,
        Err(e) => return Err(e),
    };
    let parts = ds
        .manifest
        .runs
        .iter()
        .map(|r| Ok((ds.scan_run(r, &GAMES)?, ds.scan_run(r, &MOVES)?)))
        .collect::<Result<Vec<_>, Error>>()?;
    if parts.is_empty() {
        return Err(Error::Dataset(format!(
            "{}: the dataset has no ingested data yet",
            ds.root.display()
        )));
    }
    let mut df = labels(parts)?;
    if lock.is_some() {
        format::write(&mut df, Format::Parquet, Some(&path))?;
        format::write_text(&stamp, &current)?;
    }
    Ok((df, true))
}
