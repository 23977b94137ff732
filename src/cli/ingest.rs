//! `evallab ingest <INPUT>... -o <DATASET>`.

use std::process::ExitCode;

use evallab::dataset::inspect::repeated_note;
use evallab::ingest::{IngestOptions, ingest, ingest_shard};
use evallab_pgn::game::ParseOptions;

use super::args::WritePath;
use super::progress::Progress;

/// Exit code of `--strict` when games were rejected.
pub const EXIT_REJECTS: u8 = 3;
/// An input ended early (a partial download): the dataset is complete
/// except for what `rejects` lists.
pub const EXIT_TRUNCATED: u8 = 9;

/// Skipped inputs named one by one before the rest are counted.
const SKIPPED_NAMED: usize = 5;

/// Read PGN archives into a dataset of Parquet tables (games, moves, rejects).
///
/// Inputs are files, directories (searched recursively for *.pgn*), globs or
/// `-` for stdin; plain, gzip, zstd, bzip2 and xz are detected by content.
/// Inputs already in the dataset, or given twice, are skipped (the same
/// sha256, or the same PGN decoded: `a.pgn` after `a.pgn.gz`), so re-running
/// an ingest never duplicates games. A file that grew since it was ingested
/// (games appended, as the archive of a running event grows) is read from
/// where its earlier version ended: its games are held once and keep their
/// ids. A file edited since it was ingested, or completed after a cut, is
/// read whole and held beside its earlier version (a note says so), or in
/// its place with --replace. A game read from another file (a season's file
/// and its event's, a renamed copy) is ingested as read; after the commit a
/// note counts the games of the run the dataset then holds more than once,
/// and `evallab inspect` lists them.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// PGN files, directories, globs, or `-` for stdin.
    #[arg(required = true)]
    inputs: Vec<String>,
    /// Dataset folder (created if missing; added to if it exists). Required
    /// (not with --plan).
    #[arg(short, long, value_name = "DATASET", required_unless_present = "plan")]
    output: Option<WritePath>,
    /// Write the parts into shard NAME of the dataset (`DATASET/shards/NAME/`)
    /// without the lock and without committing them: `evallab commit` adds
    /// many shards at once (a distributed ingest, see docs/guide/python-dask.md).
    #[arg(long, value_name = "NAME", conflicts_with = "overwrite")]
    shard: Option<String>,
    /// Print the inputs as the ingest would read them, in order, one JSON
    /// object per line (`name`, `bytes`), and write nothing: a distributed
    /// ingest splits this list into shards.
    #[arg(long, conflicts_with_all = ["shard", "overwrite", "strict"])]
    plan: bool,
    /// Worker threads, which parse the games and encode the Parquet columns
    /// (a reader thread decompresses besides), 1 to 256 [default: number of
    /// cores].
    #[arg(short, long, value_parser = clap::value_parser!(u16).range(1..=256))]
    jobs: Option<u16>,
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
    /// An input whose file was ingested before with other content (edited, or
    /// completed after a cut download) takes the earlier version's place: its
    /// games go in the same commit [default: both are held, with a note].
    #[arg(long, conflicts_with_all = ["overwrite", "shard"])]
    replace: bool,
    /// PGN text per parser work unit, MiB.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(1..=256))]
    batch_mib: u32,
    /// No progress bar and no summary.
    #[arg(short, long)]
    quiet: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if args.plan {
        for (name, path) in evallab_pgn::input::expand(&args.inputs)? {
            let bytes = std::fs::metadata(&path).map_or(0, |m| m.len());
            outln!("{}", serde_json::json!({ "name": name, "bytes": bytes }));
        }
        return Ok(ExitCode::SUCCESS);
    }
    let output = args
        .output
        .clone()
        .expect("clap requires --output without --plan");
    let mut opts = IngestOptions {
        parse: ParseOptions {
            keep_pv: !args.no_pv,
        },
        batch_bytes: args.batch_mib as usize * (1 << 20),
        overwrite: args.overwrite,
        replace: args.replace,
        ..IngestOptions::default()
    };
    if let Some(j) = args.jobs {
        opts.jobs = usize::from(j);
    }
    let mut progress = Progress::new(
        args.quiet,
        "bytes",
        "{elapsed_precise} [{bar:30}] {bytes}/{total_bytes} {msg}",
    );
    let mut on_progress = |p: &evallab::ingest::Progress| {
        progress.update(p.bytes_done, p.bytes_total, || {
            format!(
                "{}/{} files, {} games, {} rejects, {} plies",
                p.inputs_done, p.inputs_total, p.counts.games, p.counts.rejects, p.counts.plies
            )
        });
    };
    let report = match &args.shard {
        Some(name) => ingest_shard(&output, name, &args.inputs, opts, &mut on_progress)?,
        None => ingest(&output, &args.inputs, opts, &mut on_progress)?,
    };
    progress.finish();
    let c = report.counts;
    if !args.quiet {
        // A folder ingested again after a few files changed skips the rest:
        // the first few are named, the others counted.
        let many = report.skipped.len() > 2 * SKIPPED_NAMED;
        let named = if many {
            SKIPPED_NAMED
        } else {
            report.skipped.len()
        };
        for (name, why) in &report.skipped[..named] {
            eprintln!("skipped {name}: {why}");
        }
        if many {
            eprintln!(
                "skipped {} more inputs, each already in the dataset or given before it \
                 (`evallab inspect {}` lists the dataset's inputs)",
                report.skipped.len() - named,
                output.display()
            );
        }
        for i in &report.inputs {
            if let Some(g) = &i.grown {
                eprintln!(
                    "{}: grew since it was ingested; its first {} games are in the dataset \
                     already, the games after them were read",
                    i.path, g.at.games
                );
            }
        }
        super::notes::recovered(report.stale_lock.as_ref(), &report.removed);
        let secs = report.seconds.max(1e-9);
        eprintln!(
            "ingested {} file{}: {} games, {} rejects, {} plies, {} unparsed comments in {:.2}s ({:.0} plies/s, {:.1} MB/s of PGN) into {}",
            report.inputs.len(),
            if report.inputs.len() == 1 { "" } else { "s" },
            c.games,
            c.rejects,
            c.plies,
            c.unparsed_comments,
            secs,
            c.plies as f64 / secs,
            report.pgn_bytes as f64 / 1e6 / secs,
            match &args.shard {
                Some(_) if report.inputs.is_empty() => format!(
                    "{}: no shard written, the dataset has every input",
                    output.display()
                ),
                Some(name) => format!(
                    "shard {name} of {} (uncommitted until `evallab commit`)",
                    output.display()
                ),
                None => output.display().to_string(),
            }
        );
    }
    // A shard's versions are said by the `evallab commit` that adds it.
    if args.shard.is_none() {
        super::notes::versions_note(&report.versions, args.replace, &output);
    }
    if report.repeated > 0 {
        eprintln!("{}", repeated_note(report.repeated, "this run", &output));
    }
    // A cut input is not an error (its games before the damage are in), but
    // the dataset lacks the rest of it: a code of its own says so.
    if !report.truncated.is_empty() {
        eprintln!(
            "evallab: {} input(s) end early: {}; every game before the damage is in, the cut \
             one of each is in rejects (`evallab inspect {}`); once you have the whole file, \
             ingest it with --replace, which takes the cut one out (added beside it, its first \
             games would be in twice)",
            report.truncated.len(),
            report.truncated.join(", "),
            output.display(),
        );
        return Ok(ExitCode::from(EXIT_TRUNCATED));
    }
    // Inputs that hold no game at all (a web page, an image) are no PGN: their
    // rejects are in, and a code of the input-data kind says so.
    if !report.inputs.is_empty() && c.games == 0 {
        eprintln!(
            "evallab: error: {}: no PGN game could be read ({} rejected: `evallab inspect {}`)",
            evallab::ingest::input_names(&report.inputs),
            c.rejects,
            output.display()
        );
        return Ok(ExitCode::from(
            evallab::Error::InputData(String::new()).exit_code(),
        ));
    }
    if args.strict && c.rejects > 0 {
        eprintln!(
            "evallab: {} games rejected (--strict); see `evallab inspect {}`",
            c.rejects,
            output.display()
        );
        return Ok(ExitCode::from(EXIT_REJECTS));
    }
    Ok(ExitCode::SUCCESS)
}
