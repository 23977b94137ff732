//! `evallab inspect <DATASET>`: counts per table, event and comment dialect,
//! and the rejected games.

use std::path::PathBuf;
use std::process::ExitCode;

use evallab::dataset::Dataset;

/// Show what a dataset holds: counts, dialects and every rejected game.
///
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
    outln!("inputs: {}", ds.manifest().inputs().count());
    outln!("{}", ins.tables);
    outln!(
        "per event:\n{}",
        evallab::render::order::in_natural_order(&ins.events)?
    );
    outln!("per comment dialect:\n{}", ins.dialects);
    outln!(
        "per variant (inferred: Chess960 read from the FEN, no Variant tag):\n{}",
        ins.variants
    );
    if ins.analyses.height() > 0 {
        outln!("engine analyses (evallab analyze):\n{}", ins.analyses);
    }
    if ins.rejects.height() == 0 {
        outln!("rejects: none");
    } else {
        outln!("rejects:\n{}", ins.rejects);
    }
    Ok(ExitCode::SUCCESS)
}
