//! The dataset's EAS labels, kept as its derived table `eas_labels`: read
//! while current, else computed and stored by a [`DatasetWriter`].

use polars::prelude::DataFrame;

use super::labels;
use crate::Error;
use crate::dataset::Dataset;
use crate::dataset::derived::Stamp;
use crate::dataset::writer::DatasetWriter;
use crate::schema::{EAS_LABELS, GAMES, MOVES};

/// The dataset's labels: the stored ones when they were computed from the
/// dataset's current parts by this algorithm version (unless `force`), else
/// computed and stored. The flag says whether they were computed. While
/// another process writes the dataset they are computed and not stored (a
/// cache must not make a reader fail).
pub fn stored_labels(ds: &Dataset, force: bool) -> Result<(DataFrame, bool), Error> {
    let stamp = Stamp::new("eas", ds);
    if !force && let Some(df) = ds.read_derived(&EAS_LABELS, &stamp)? {
        return Ok((df, false));
    }
    let runs = &ds.manifest().runs;
    if runs.is_empty() {
        return Err(Error::Dataset(format!(
            "{}: the dataset has no ingested data yet",
            ds.root().display()
        )));
    }
    let parts = runs
        .iter()
        .map(|r| Ok((ds.scan_run(r, &GAMES)?, ds.scan_run(r, &MOVES)?)))
        .collect::<Result<Vec<_>, Error>>()?;
    let df = labels(parts)?;
    if let Some(w) = DatasetWriter::try_open(ds.root(), "eas")? {
        // Computed from the parts the writer sees, else not stored.
        if Stamp::new("eas", &w) == stamp {
            w.store_derived(&EAS_LABELS, &df, &stamp)?;
        }
    }
    Ok((df, true))
}
