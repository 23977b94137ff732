//! `evallab ingest <INPUT>... -o <DATASET>`.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use evallab::ingest::{IngestOptions, Progress, ingest};
use evallab_pgn::game::ParseOptions;
use indicatif::{ProgressBar, ProgressStyle};

/// Read PGN archives into a dataset of Parquet tables (games, moves, rejects).
///
/// Inputs are files, directories (searched recursively for *.pgn*), globs or
/// `-` for stdin; plain, gzip, zstd, bzip2 and xz are detected by content.
/// Inputs already in the dataset (same sha256) are skipped, so re-running an
/// ingest never duplicates games.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// PGN files, directories, globs, or `-` for stdin.
    #[arg(required = true)]
    inputs: Vec<String>,
    /// Dataset folder (created if missing; added to if it exists).
    #[arg(short, long)]
    output: PathBuf,
    /// Parser threads [default: number of cores].
    #[arg(short, long)]
    jobs: Option<usize>,
    /// Drop the principal variations (the largest column).
    #[arg(long)]
    no_pv: bool,
    /// Exit with code 3 if any game is rejected (the rejects are still written).
    #[arg(long)]
    strict: bool,
    /// Replace the dataset's contents instead of adding to them (the old parts
    /// are removed only once the new ones are committed).
    #[arg(long)]
    overwrite: bool,
    /// PGN text per parser work unit, MiB.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=256))]
    batch_mib: u32,
    /// No progress bar and no summary.
    #[arg(short, long)]
    quiet: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut opts = IngestOptions {
        parse: ParseOptions {
            keep_pv: !args.no_pv,
        },
        batch_bytes: args.batch_mib as usize * (1 << 20),
        overwrite: args.overwrite,
        ..IngestOptions::default()
    };
    if let Some(j) = args.jobs {
        opts.jobs = j.max(1);
    }
    let bar = (!args.quiet && std::io::stderr().is_terminal()).then(|| {
        let bar = ProgressBar::new(0);
        bar.set_style(
            ProgressStyle::with_template(
                "{elapsed_precise} [{bar:30}] {bytes}/{total_bytes} {msg}",
            )
            .expect("valid template")
            .progress_chars("=> "),
        );
        bar
    });
    let mut on_progress = |p: &Progress| {
        if let Some(bar) = &bar {
            bar.set_length(p.bytes_total);
            bar.set_position(p.bytes_done);
            bar.set_message(format!(
                "{}/{} files, {} games, {} rejects, {} plies",
                p.inputs_done, p.inputs_total, p.counts.games, p.counts.rejects, p.counts.plies
            ));
        }
    };
    let report = ingest(&args.output, &args.inputs, opts, &mut on_progress)?;
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let c = report.counts;
    if !args.quiet {
        for (name, sha) in &report.skipped {
            eprintln!(
                "skipped {name}: already in the dataset (sha256 {})",
                &sha[..12]
            );
        }
        if let Some(h) = &report.stale_lock {
            eprintln!("recovered the lock of a writer that died: {h}");
        }
        for p in &report.removed {
            eprintln!("removed leftover {}", p.display());
        }
        let secs = report.seconds.max(1e-9);
        eprintln!(
            "ingested {} files: {} games, {} rejects, {} plies, {} unparsed comments in {:.2}s ({:.0} plies/s, {:.1} MB/s of PGN) into {}",
            report.inputs.len(),
            c.games,
            c.rejects,
            c.plies,
            c.unparsed_comments,
            secs,
            c.plies as f64 / secs,
            report.pgn_bytes as f64 / 1e6 / secs,
            args.output.display()
        );
    }
    if args.strict && c.rejects > 0 {
        eprintln!(
            "evallab: {} games rejected (--strict); see `evallab inspect {}`",
            c.rejects,
            args.output.display()
        );
        return Ok(ExitCode::from(super::EXIT_REJECTS));
    }
    Ok(ExitCode::SUCCESS)
}
