//! `evallab remove <DATASET> <INPUT>...`: takes ingested inputs out.

use std::path::PathBuf;
use std::process::ExitCode;

use evallab::dataset::remove::find_inputs;
use evallab::dataset::writer::{DatasetWriter, Open};

/// Take ingested inputs out of a dataset: their games, moves and rejects.
///
/// Take ingested input files out of a dataset: their games, moves and
/// rejects go, and the manifest no longer lists them, so ingesting the same
/// file again reads it afresh. An input is named by its path as given to the
/// ingest, by a path that resolves to it (a folder: every input under it),
/// or by its sha256 or a prefix of it of 8 hex digits or more (`evallab
/// inspect` lists the inputs). Every version of a file that grew goes with
/// its path; a sha256 names one version. The parts that hold them are
/// written again without their rows and committed at once (all or nothing:
/// a failed or killed run leaves the dataset as it was). Engine analyses of
/// the removed games stay in their tables: the statistics read an analysis
/// only with its game, and ingesting the same file again brings it back.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Dataset folder written by `evallab ingest`.
    dataset: PathBuf,
    /// Inputs to take out: paths (as given to the ingest, or resolving to
    /// it; a folder: the inputs under it) or sha256 prefixes.
    #[arg(required = true)]
    inputs: Vec<String>,
    /// Print what would be taken out, and change nothing.
    #[arg(long)]
    dry_run: bool,
    /// No summary.
    #[arg(short, long)]
    quiet: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut w = DatasetWriter::open(&args.dataset, "remove", Open::Existing)?;
    if !args.quiet {
        super::notes::recovered(w.stale(), w.removed());
    }
    let inputs = find_inputs(&w, &args.inputs)?;
    if !args.quiet || args.dry_run {
        let verb = if args.dry_run {
            "would remove"
        } else {
            "removing"
        };
        for i in &inputs {
            eprintln!(
                "{verb} {} (sha256 {}): {} games, {} rejects, {} plies",
                i.path,
                &i.sha256[..16],
                i.games,
                i.rejects,
                i.plies
            );
        }
    }
    if args.dry_run {
        return Ok(ExitCode::SUCCESS);
    }
    let removed = w.remove_inputs(&inputs)?;
    w.commit()?;
    if !args.quiet {
        let parts: Vec<String> = removed
            .rewritten
            .iter()
            .map(|(old, new)| format!("{old} → {new}"))
            .chain(removed.dropped.iter().map(|p| format!("{p} gone")))
            .collect();
        eprintln!(
            "removed {} input{} from {}: {} games, {} moves, {} rejects (parts {})",
            removed.inputs.len(),
            if removed.inputs.len() == 1 { "" } else { "s" },
            args.dataset.display(),
            removed.games,
            removed.moves,
            removed.rejects,
            parts.join(", ")
        );
    }
    Ok(ExitCode::SUCCESS)
}
