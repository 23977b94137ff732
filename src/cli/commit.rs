//! `evallab commit <DATASET>`: adds the shards of a distributed ingest.

use std::path::PathBuf;
use std::process::ExitCode;

use evallab::dataset::inspect::repeated_note;
use evallab::dataset::shard::commit_shards;

/// Commit the complete shards of `ingest --shard` into the dataset (all or none).
///
/// Commit the complete shards written by `ingest --shard` (and the
/// `--shard` runs of `analyze`, `match` and `policy`) into the dataset, all
/// in one manifest (all or none). Idempotent: shards the dataset already
/// has are skipped, so running it again, or committing a shard a retried
/// task wrote twice, adds nothing. Half-written shards are left alone.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Dataset folder (the one the shards were written into).
    dataset: PathBuf,
    /// Commit only these shards [default: every complete shard].
    #[arg(long, value_name = "NAME")]
    shard: Vec<String>,
    /// An input of the shards whose file the dataset holds in another version
    /// (edited, or completed after a cut download) takes that version's place,
    /// as `ingest --replace` [default: both are held, with a note].
    #[arg(long)]
    replace: bool,
    /// No summary.
    #[arg(short, long)]
    quiet: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let report = commit_shards(&args.dataset, &args.shard, args.replace)?;
    if !args.quiet {
        super::notes::recovered(report.stale_lock.as_ref(), &report.removed);
        for (name, part, games, rejects) in &report.committed {
            eprintln!("committed shard {name} as part {part}: {games} games, {rejects} rejects");
        }
        for name in &report.already {
            eprintln!("skipped shard {name}: already in the dataset");
        }
        for name in &report.incomplete {
            eprintln!("left shard {name}: incomplete (its writer died or is still running)");
        }
        eprintln!(
            "{} shards committed, {} already there, {} incomplete, into {}",
            report.committed.len(),
            report.already.len(),
            report.incomplete.len(),
            args.dataset.display()
        );
    }
    super::notes::versions_note(&report.versions, args.replace, &args.dataset);
    if report.repeated > 0 {
        eprintln!(
            "{}",
            repeated_note(report.repeated, "the committed shards", &args.dataset)
        );
    }
    Ok(ExitCode::SUCCESS)
}
