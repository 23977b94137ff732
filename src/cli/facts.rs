//! `evallab facts <DATASET> -o DIR`: the map step of balance, calibrate and eas.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use super::args::WritePath;
use evallab::dataset::Dataset;
use evallab::metrics::facts::write_facts;

/// Per-game facts per ingest part: the map step of balance, calibrate and eas.
///
/// Compute the per-game facts of `balance` and `calibrate` and the EAS
/// labels, one file each per ingest run (part), into DIR: the map step a
/// cluster spreads over its workers (`evallab-dask facts`). The statistics
/// then read them with `--facts DIR` and give the same tables as without.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Dataset folder written by `evallab ingest`.
    dataset: PathBuf,
    /// Folder of the facts files (created if missing).
    #[arg(short, long, value_name = "DIR")]
    output: WritePath,
    /// Only the run with this part number (repeatable) [default: every run].
    #[arg(long, value_name = "N")]
    part: Vec<u32>,
    /// No summary.
    #[arg(short, long)]
    quiet: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let t = Instant::now();
    let ds = Dataset::open(&args.dataset)?;
    let done = write_facts(&ds, &args.part, &args.output)?;
    if !args.quiet {
        let games: usize = done.iter().map(|d| d.1).sum();
        eprintln!(
            "facts of {} parts ({games} games) in {:.2}s into {}",
            done.len(),
            t.elapsed().as_secs_f64(),
            args.output.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}
