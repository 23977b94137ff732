//! What a writing command says on stderr beyond its progress: the lock of a
//! writer that died, the leftovers removed, another version of an input.

use std::path::{Path, PathBuf};

use evallab::dataset::InputRecord;
use evallab::dataset::lock::Holder;

/// What a writer found when it took the dataset's lock: the trace of a
/// writer that died holding it, and the leftovers it removed.
pub(crate) fn recovered(stale: Option<&Holder>, removed: &[PathBuf]) {
    if let Some(h) = stale {
        eprintln!("recovered the lock of a writer that died: {h}");
    }
    for p in removed {
        eprintln!("removed leftover {}", p.display());
    }
}

/// The note of an ingest or a commit about its inputs whose file the
/// dataset held in another version: taken out (`replaced`), or held beside.
pub(crate) fn versions_note(
    versions: &[(String, Vec<InputRecord>)],
    replaced: bool,
    dataset: &Path,
) {
    for (name, earlier) in versions {
        let shas: Vec<&str> = earlier.iter().map(|k| &k.sha256[..16]).collect();
        let games: u64 = earlier.iter().map(|k| k.games).sum();
        if replaced {
            eprintln!(
                "{name}: replaces its earlier version (sha256 {}): its {games} games taken out",
                shas.join(", ")
            );
        } else {
            eprintln!(
                "{name}: another version of this file is in the dataset (sha256 {}, {games} \
                 games), held beside it: `evallab remove {} {}` takes that out (--replace \
                 does it as the file is added)",
                shas.join(", "),
                dataset.display(),
                shas.join(" ")
            );
        }
    }
}
