//! `evallab inspect <DATASET>`: counts per table, event and comment dialect,
//! and the rejected games.

use std::path::PathBuf;
use std::process::ExitCode;

use evallab::dataset::Dataset;

/// Show what a dataset holds: counts per table, per event and per comment
/// dialect, and every rejected game with its reason.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Dataset folder written by `evallab ingest`.
    dataset: PathBuf,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let ds = Dataset::open(&args.dataset)?;
    let ins = evallab::dataset::inspect::inspect(&ds)?;
    println!("inputs: {}", ds.manifest.inputs().count());
    println!("{}", ins.tables);
    println!("per event:\n{}", ins.events);
    println!("per comment dialect:\n{}", ins.dialects);
    println!(
        "per variant (inferred: Chess960 read from the FEN, no Variant tag):\n{}",
        ins.variants
    );
    if ins.rejects.height() == 0 {
        println!("rejects: none");
    } else {
        println!("rejects:\n{}", ins.rejects);
    }
    Ok(ExitCode::SUCCESS)
}
