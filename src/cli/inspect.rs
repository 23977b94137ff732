//! `evallab inspect <DATASET>`: counts per table, event and comment dialect,
//! the rejected and the repeated games; `--verify`: the parts' hashes.

use std::path::PathBuf;
use std::process::ExitCode;

use evallab::dataset::Dataset;

/// Show what a dataset holds: counts, dialects, rejected and repeated games.
///
/// Show what a dataset holds: counts per table, per event and per comment
/// dialect, every rejected game with its reason, and the games held more
/// than once (the same tags, plies and final position, read from two files);
/// or, with --verify, whether every part is still as committed.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Dataset folder written by `evallab ingest`.
    dataset: PathBuf,
    /// Instead, hash every part and compare it with the manifest's record of
    /// its commit (a changed part: exit 6, naming it).
    #[arg(long)]
    verify: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let ds = Dataset::open(&args.dataset)?;
    if args.verify {
        let v = evallab::dataset::inspect::verify(&ds)?;
        outln!(
            "verified {} part(s), {:.1} MB: each as committed",
            v.parts,
            v.bytes as f64 / 1e6
        );
        if v.unrecorded > 0 {
            outln!(
                "{} part(s) have no record (committed before evallab recorded them): the next \
                 write to the dataset records them",
                v.unrecorded
            );
        }
        return Ok(ExitCode::SUCCESS);
    }
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
    if ins.repeated.height() == 0 {
        outln!("games held more than once: none");
    } else {
        let copies: u64 = ins
            .repeated
            .column("copies")?
            .cast(&polars::prelude::DataType::UInt64)?
            .u64()?
            .into_no_null_iter()
            .sum();
        outln!(
            "games held more than once (the same tags, plies and final position; every copy counts in the statistics): {}, in {} copies:\n{}",
            ins.repeated.height(),
            copies,
            ins.repeated
        );
    }
    Ok(ExitCode::SUCCESS)
}
