//! The integration tests, in one binary so that polars is linked once
//! (ripgrep's layout: `autotests = false` and one `[[test]]` in Cargo.toml).
//!
//! - [`analyze`]: `evallab analyze` with Stockfish and with misbehaving engines;
//! - [`cli`]: the binary end to end: exit codes, stdin, locks, crashes, pipelines;
//! - [`difficulty`]: the Lichess puzzle CSV in, and `difficulty` with Stockfish and lc0;
//! - [`matching`]: `evallab match` on hand-picked positions with Stockfish;
//! - [`eas`]: EAS labels and scores on hand-built games, against pgn-extract;
//! - [`ease`]: `policy` and `ease` with lc0 + Maia-1900 and Stockfish;
//! - [`runners`]: `adjudicate` and `pairs` against fastchess's and cutechess's own matches;
//! - [`fixtures`]: hand-written PGN in `data/fixtures`, values computed by hand;
//! - [`layout`]: the source tree: no import cycle, one dataset writer;
//! - [`outputs`]: every command's columns against `schema::outputs`;
//! - [`pairs`]: colour-swapped pairs and engine statistics on the TCEC archive;
//! - [`ratings`]: `evallab ratings` against Ordo 1.2.6 on a hand-set fixture;
//! - [`report_browser`]: the demo report rendered in headless Chromium;
//! - [`robustness`]: property tests of the splitter, the parsers and the ingest;
//! - [`shards`]: sharded ingest and commit, and statistics from per-part facts;
//! - [`snapshots`]: every subcommand's stdout on the fixture dataset;
//! - [`standings`]: standings, crosstable and opening statistics on the TCEC archive;
//! - [`tcec`]: invariants of the real TCEC archive in `../shared/tcec`;
//! - [`wdl`]: `evallab wdl` against Stockfish's WDL_model on that archive.

mod analyze;
mod calibrate_sim;
mod cli;
mod difficulty;
mod eas;
mod ease;
mod fixtures;
mod layout;
mod matching;
mod openings;
mod outputs;
mod pairs;
mod ratings;
mod report_browser;
mod robustness;
mod runners;
mod shards;
mod snapshots;
mod standings;
mod tcec;
mod wdl;

use std::path::PathBuf;
use std::sync::{Mutex, Once};

/// A temporary folder that lives as long as the test binary, for data built
/// once and kept in a `static`. Statics are never dropped, so a `TempDir`
/// there leaked its folder (109 MB of TCEC dataset in /tmp at every run): these
/// folders are removed at exit instead (`atexit`, which the harness's exit runs,
/// whether the tests passed or not).
pub(crate) fn binary_tempdir() -> PathBuf {
    static DIRS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());
    static HOOK: Once = Once::new();
    extern "C" fn remove_dirs() {
        if let Ok(dirs) = DIRS.lock() {
            for d in dirs.iter() {
                let _ = std::fs::remove_dir_all(d);
            }
        }
    }
    HOOK.call_once(|| {
        // SAFETY: registers a plain function with no arguments.
        unsafe { libc::atexit(remove_dirs) };
    });
    let dir = tempfile::tempdir().unwrap().keep();
    DIRS.lock().unwrap().push(dir.clone());
    dir
}
