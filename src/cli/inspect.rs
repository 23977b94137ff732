//! `evallab inspect <DATASET>`: counts per table, event and comment dialect,
//! the rejected and the repeated games; `--verify`: the parts' hashes.

use std::path::PathBuf;
use std::process::ExitCode;

use evallab::dataset::Dataset;
use evallab::dataset::inspect::{Inspection, Verified};
use evallab::render::format::{self, Format};
use evallab::schema::outputs::{self as out, Output};
use polars::prelude::{IntoLazy, col, lit};

use super::args::OutputArgs;

/// Show what a dataset holds: counts, dialects, rejected and repeated games.
///
/// Show what a dataset holds: counts per table, per event and per comment
/// dialect, every rejected game with its reason, the games held more than
/// once (the same tags, plies and final position, read from two files) and
/// the input files (path, sha256 and counts: what `evallab remove` takes);
/// or, with --verify, whether every part is still as committed. As a text
/// of its sections by default; with -o FILE, the per-event counts there and
/// each other section beside it (FILE.tables.EXT, .dialects, .variants,
/// .rejects, .repeated, .inputs, .analyses); with --format alone, the per-event
/// counts on stdout and the other sections on stderr.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Dataset folder written by `evallab ingest`.
    dataset: PathBuf,
    /// Instead, hash every part and compare it with the manifest's record of
    /// its commit (a changed part: exit 6, naming it); with -o or --format,
    /// one row per part.
    #[arg(long)]
    verify: bool,
    #[command(flatten, next_help_heading = "Output")]
    out: OutputArgs,
}

/// The sections beside the per-event counts: (suffix, output).
const SECTIONS: [(&str, &Output); 7] = [
    ("tables", &out::INSPECT_TABLES),
    ("dialects", &out::INSPECT_DIALECTS),
    ("variants", &out::INSPECT_VARIANTS),
    ("rejects", &out::INSPECT_REJECTS),
    ("repeated", &out::INSPECT_REPEATED),
    ("inputs", &out::INSPECT_INPUTS),
    ("analyses", &out::INSPECT_ANALYSES),
];

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    args.out.check()?;
    let ds = Dataset::open(&args.dataset)?;
    // A text for people on a terminal; tables for a file or another format.
    let text = args.out.format() == Format::Table && args.out.output.is_none();
    if args.verify {
        let mut v = evallab::dataset::inspect::verify(&ds)?;
        if text {
            outln!("{}", verified(&v));
        } else {
            eprintln!("{}", verified(&v));
            args.out.write(&mut v.table, &out::INSPECT_VERIFY)?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    let ins = evallab::dataset::inspect::inspect(&ds)?;
    let inputs = ds.manifest().inputs().count();
    if text {
        print_text(inputs, ins)?;
        return Ok(ExitCode::SUCCESS);
    }
    eprintln!(
        "inputs: {inputs}; {} rejected, {} held more than once",
        ins.rejects.height(),
        ins.repeated.height()
    );
    let Inspection {
        mut events,
        tables,
        dialects,
        variants,
        rejects,
        repeated,
        inputs,
        analyses,
    } = ins;
    for ((suffix, output), mut df) in SECTIONS.into_iter().zip([
        tables, dialects, variants, rejects, repeated, inputs, analyses,
    ]) {
        match args.out.beside(suffix) {
            Some(side) => side.write(&mut df, output)?,
            None => eprintln!("{}:\n{}", output.title, format::shown(&df, output)?),
        }
    }
    args.out.write(&mut events, &out::INSPECT)?;
    Ok(ExitCode::SUCCESS)
}

/// `--verify`'s summary.
fn verified(v: &Verified) -> String {
    let mut s = format!(
        "verified {} part(s), {:.1} MB: each as committed",
        v.parts,
        v.bytes as f64 / 1e6
    );
    if v.unrecorded > 0 {
        s += &format!(
            "\n{} part(s) have no record (committed before evallab recorded them): the next \
             write to the dataset records them",
            v.unrecorded
        );
    }
    s
}

/// The sections as a text on stdout.
fn print_text(inputs: usize, ins: Inspection) -> anyhow::Result<()> {
    outln!("inputs: {inputs}");
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
        outln!(
            "games held more than once (the same tags, plies and final position; every copy counts in the statistics): {}, in {} copies:\n{}",
            ins.repeated.height(),
            evallab::dataset::inspect::copies(&ins.repeated)?,
            ins.repeated
        );
    }
    // Last, being as long as the archive; a sha256's first 16 digits name
    // its input to `remove` as well as all 64.
    let short = ins
        .inputs
        .lazy()
        .with_column(col("sha256").str().slice(lit(0), lit(16)))
        .collect()?;
    outln!("inputs (`evallab remove DATASET PATH|SHA256` takes one out):\n{short}");
    Ok(())
}
