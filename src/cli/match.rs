//! `evallab match <DATASET> --player RE --uci PATH -o DIR`: Regan's
//! zig-zag protocol, its log and results files, and MM/EV/AE/ASD.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use super::args::RunLabel;
use super::args::WritePath;
use super::args::choice;
use evallab::dataset::Dataset;
use evallab::engine::matching::{Match, MatchOptions, files};
use evallab::metrics::Field;
use evallab::metrics::matching::query::{By, statistics};
use evallab::render::format::{self, Format};
use polars::prelude::IntoLazy;

/// Move matching: Regan's zig-zag protocol on a UCI engine, per tested move.
///
/// For each game of the tested player, in game order without clearing the
/// hash between moves: MLM (MultiPV K) to the MLM depth, SLM (MultiPV 1) over
/// the SLM depths, MLM again to the final depth. Writes one log per game, a
/// results file per player and `match.parquet` into -o DIR (rows also
/// committed to the dataset's `match` table, so an interrupted run resumes),
/// then prints MM, EV, AE and ASD per group with a bootstrap interval for MM.
/// With --shard the rows go into the shard only: after `evallab commit`, the
/// same command without --shard writes -o DIR and the statistics.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Dataset folder written by `evallab ingest`.
    dataset: PathBuf,
    /// The tested player: a regex on the mover's name (`.` = both sides;
    /// one that matches no player of the selected games is an error).
    #[arg(long, value_name = "REGEX")]
    player: String,
    #[command(flatten)]
    engine: super::analyze::EngineArgs,
    /// Hash per engine, MB.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..))]
    hash: u32,
    /// Depth of the first MLM (the "12/12" data).
    #[arg(long, default_value_t = 12)]
    mlm_depth: u32,
    /// SLM depths dmin..d (first choice recorded at each).
    #[arg(long, value_name = "A..B", default_value = "11..13", value_parser = depths)]
    slm_depths: (u32, u32),
    /// Depth of the final MLM [default: d, the last SLM depth].
    #[arg(long, value_name = "DL")]
    final_depth: Option<u32>,
    /// Lines of the MLM searches.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(2..=255))]
    multipv: u32,
    /// Only these move numbers (inclusive, as printed), e.g. 9..60.
    #[arg(long, value_name = "A..B", value_parser = range)]
    moves: Option<(u32, u32)>,
    /// Leave out book moves.
    #[arg(long)]
    skip_book: bool,
    #[command(flatten)]
    events: super::args::EventArgs,
    /// Only the first N selected games (dataset order).
    #[arg(long, value_name = "N")]
    max_games: Option<usize>,
    #[command(flatten)]
    shard: super::analyze::ShardArgs,
    /// Name of the run in the dataset [default: match-ENGINE-<settings hash>].
    #[arg(long, value_name = "NAME")]
    label: Option<RunLabel>,
    /// Longest wait for one search, seconds; the engine is then killed.
    #[arg(long, value_name = "S", default_value_t = 120.0)]
    timeout: f64,
    /// Output folder: logs/, results_PLAYER.txt, match.parquet. Required
    /// (not with --shard). Formerly `--out-dir`.
    #[arg(short, long, value_name = "DIR", required_unless_present = "shard")]
    output: Option<WritePath>,
    /// Statistics per player, per event and player, or per game and player.
    #[arg(long, value_parser = choice::<By>(), default_value_t = By::Engine)]
    by: By,
    /// Bootstrap resamples for MM's interval (games; moves per game).
    #[arg(long, default_value_t = 1000)]
    bootstrap: usize,
    /// Seed of the bootstrap.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Format of the statistics [default: the one --stats FILE's extension
    /// names (.csv, .json, .ndjson, .parquet), else table].
    #[arg(long, value_parser = choice::<Format>())]
    format: Option<Format>,
    /// Write the statistics to FILE instead of stdout (required for parquet).
    #[arg(long, value_name = "FILE")]
    stats: Option<WritePath>,
}

fn range(s: &str) -> Result<(u32, u32), String> {
    let (a, b) = s
        .split_once("..")
        .ok_or_else(|| format!("`{s}`: expected A..B"))?;
    let p = |x: &str| {
        x.trim()
            .parse::<u32>()
            .map_err(|_| format!("`{s}`: `{x}` is not a number"))
    };
    let (a, b) = (p(a)?, p(b)?);
    if a == 0 || b < a {
        return Err(format!("`{s}`: expected 1 <= A <= B"));
    }
    Ok((a, b))
}

fn depths(s: &str) -> Result<(u32, u32), String> {
    range(s)
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let stats_format = Format::resolve(args.format, args.stats.as_deref());
    format::check(stats_format, args.stats.as_deref())?;
    super::args::check_regexes(&[
        (Field::Player, Some(args.player.as_str())),
        (Field::Event, args.events.event.as_deref()),
    ])?;
    let opts = MatchOptions {
        run: args.engine.run_options(
            args.label.map(|l| l.0),
            args.shard.shard,
            args.timeout,
            Duration::from_secs(10),
        )?,
        engine_options: args.engine.uci_option,
        player: args.player,
        event: args.events.event,
        moves: args.moves,
        skip_book: args.skip_book,
        max_games: args.max_games,
        slice: args.shard.slice,
        mlm_depth: args.mlm_depth,
        multipv: args.multipv,
        slm_depths: args.slm_depths,
        final_depth: args.final_depth.unwrap_or(args.slm_depths.1),
        threads: args.engine.threads,
        hash_mb: args.hash,
    };
    let quiet = args.engine.quiet;
    let mut stage = Match::new(opts)?;
    let report = super::analyze::run_with_progress(&args.dataset, &mut stage, quiet, "moves")?;
    let summary = format!(
        "matched {} moves in {} games ({} of {} selected games already done), {} failures, \
         {} restarts in {:.1}s with {} as `{}`",
        report.rows,
        report.games,
        report.games_already_done,
        report.games_selected(),
        report.failures,
        report.restarts,
        report.seconds,
        report.engine,
        report.label,
    );
    let (Some(out_dir), None) = (&args.output, &stage.options().run.shard) else {
        if !quiet {
            eprintln!("{summary} into its shard");
        }
        return Ok(ExitCode::SUCCESS);
    };
    let run = (report.run.as_ref()).ok_or_else(|| anyhow::anyhow!("no run after `match`"))?;
    let ds = Dataset::open(&args.dataset)?;
    let rows = files::rows(&ds, &run.label, &report.game_ids)?;
    let written = files::write(out_dir, run, stage.options(), rows)?;
    if !quiet {
        eprintln!(
            "{summary}; wrote {} logs, {} results files and {}",
            written.logs.len(),
            written.results.len(),
            written.table.display()
        );
    }
    let mut df = statistics(written.rows.lazy(), args.by, args.bootstrap, args.seed)?;
    format::write(&mut df, stats_format, args.stats.as_deref())?;
    Ok(ExitCode::SUCCESS)
}
