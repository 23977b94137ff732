//! `evallab analyze <DATASET> --uci PATH (--depth D | --nodes N | --movetime MS)`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use evallab::dataset::Dataset;
use evallab::engine::analyze::{Analyze, AnalyzeOptions};
use evallab::engine::positions::{Selection, parse_plies, parse_slice};
use evallab::engine::{RunOptions, Stage, StageReport, run_stage};
use evallab::metrics::Field;
use evallab_uci::Limit;

use super::args::ReadPath;
use super::args::RunLabel;
use super::progress::Progress;

/// Re-analyse the dataset's positions with a UCI engine (table `analysis`).
///
/// Each game is replayed from its start position (Chess960 included) and the
/// position before every selected ply is searched, in game order after
/// `ucinewgame`, by one of --jobs engine processes. Results are committed in
/// chunks: an interrupted run resumes where it stopped, and rerunning the same
/// label does no work. An engine that crashes, hangs past --timeout or sends
/// garbage is restarted and the game retried once; positions that fail again
/// go to `analysis_failures` with the reason.
#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("limit").required(true).args(["depth", "nodes", "movetime"])))]
pub struct Args {
    /// Dataset folder written by `evallab ingest`.
    dataset: PathBuf,
    #[command(flatten)]
    engine: EngineArgs,
    /// Hash per engine, MB.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..))]
    hash: u32,
    /// Search each position to this depth.
    #[arg(long)]
    depth: Option<u32>,
    /// Search each position for this many nodes (deterministic with --threads 1).
    #[arg(long)]
    nodes: Option<u64>,
    /// Search each position for this many milliseconds (not reproducible).
    #[arg(long, value_name = "MS")]
    movetime: Option<u64>,
    /// Lines per position (MultiPV).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=255))]
    multipv: u32,
    /// Keep every completed depth, not only the final lines.
    #[arg(long)]
    all_depths: bool,
    #[command(flatten)]
    selection: PositionArgs,
    #[command(flatten)]
    shard: ShardArgs,
    /// Name of the analysis in the dataset [default: ENGINE-LIMIT-mpvK].
    #[arg(long, value_name = "NAME")]
    label: Option<RunLabel>,
    /// Copy the rows of positions already analysed by a run with the same
    /// engine, options and settings (any label, this one's included) instead
    /// of searching them: a position is known by its Polyglot key. With a
    /// node or depth limit the hash carries over within a game, so a copied
    /// row is the position's analysis in its source game, not necessarily
    /// what a search in this game would give. Not with --shard.
    #[arg(long)]
    reuse: bool,
    /// Longest wait for one search, seconds; the engine is then killed.
    #[arg(long, value_name = "S", default_value_t = 60.0)]
    timeout: f64,
}

/// Which positions an engine run covers (`analyze`, `policy`).
#[derive(Debug, clap::Args)]
pub struct PositionArgs {
    #[command(flatten)]
    pub events: super::args::EventArgs,
    /// Only games where White or Black matches this regex (one that
    /// matches no player of the selected games is an error).
    #[arg(long, value_name = "REGEX")]
    pub player: Option<String>,
    /// Only the positions before these plies (inclusive), e.g. 1..80.
    #[arg(long, value_name = "A..B", value_parser = parse_plies)]
    pub plies: Option<(u32, u32)>,
    /// Leave out positions whose played move is a book move.
    #[arg(long)]
    pub skip_book: bool,
    /// Only the first N selected games (dataset order).
    #[arg(long, value_name = "N")]
    pub max_games: Option<usize>,
}

impl PositionArgs {
    /// The selection (of the games' `slice`), its regexes checked.
    pub fn selection(self, slice: Option<(usize, usize)>) -> anyhow::Result<Selection> {
        super::args::check_regexes(&[
            (Field::Event, self.events.event.as_deref()),
            (Field::Player, self.player.as_deref()),
        ])?;
        Ok(Selection {
            games: evallab::metrics::Selection {
                event: self.events.event,
                engine: self.player,
                ..Default::default()
            },
            plies: self.plies,
            skip_book: self.skip_book,
            max_games: self.max_games,
            slice,
        })
    }
}

/// One task of a distributed run (`analyze`, `match`, `policy`).
#[derive(Debug, clap::Args)]
pub struct ShardArgs {
    /// Only the K-th of N contiguous slices of the selected games (one task
    /// of a distributed run).
    #[arg(long, value_name = "K/N", value_parser = parse_slice)]
    pub slice: Option<(usize, usize)>,
    /// Write the results into shard NAME of the dataset (`DATASET/shards/NAME/`)
    /// without the lock and without committing them: `evallab commit` adds
    /// them (a distributed run, see docs/guide/python-dask.md).
    #[arg(long, value_name = "NAME")]
    pub shard: Option<String>,
}

/// The engine options every engine stage shares.
#[derive(Debug, clap::Args)]
pub struct EngineArgs {
    /// The UCI engine's executable (Debian's Stockfish: /usr/games/stockfish;
    /// `policy`: lc0, see scripts/install_lc0.sh). Formerly `--engine`.
    #[arg(long, value_name = "PATH")]
    pub uci: ReadPath,
    /// Extra UCI option, sent as `setoption` (repeatable), e.g. `SyzygyPath=/tb`.
    #[arg(long, value_name = "NAME=VALUE", value_parser = name_value)]
    pub uci_option: Vec<(String, String)>,
    /// Engine processes side by side.
    #[arg(short, long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub jobs: u32,
    /// Threads per engine (1 keeps node-limited results reproducible).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub threads: u32,
    /// Commit results at least this often, seconds (what a kill can lose).
    #[arg(long, value_name = "S", default_value_t = 60.0)]
    pub commit_every: f64,
    /// No progress bar and no summary.
    #[arg(short, long)]
    pub quiet: bool,
}

impl EngineArgs {
    /// The options of the run (`timeout`: --timeout, seconds).
    pub fn run_options(
        &self,
        label: Option<String>,
        shard: Option<String>,
        timeout: f64,
        handshake_timeout: Duration,
    ) -> anyhow::Result<RunOptions> {
        Ok(RunOptions {
            engine: self.uci.0.clone(),
            jobs: self.jobs as usize,
            label,
            shard,
            timeout: seconds("--timeout", timeout)?,
            handshake_timeout,
            commit_every: seconds("--commit-every", self.commit_every)?,
        })
    }
}

/// Runs an engine stage, its games checked against the dataset first (a
/// `--player` or `--event` that matches nothing is an error before any
/// engine starts), with progress counting `unit` (unless `quiet`), and
/// tells of a recovered lock.
pub(super) fn run_with_progress<S: Stage>(
    dataset: &Path,
    stage: &mut S,
    quiet: bool,
    unit: &str,
) -> anyhow::Result<StageReport> {
    super::args::check_matches(&Dataset::open(dataset)?, &stage.games(), Field::Player)?;
    let mut progress = progress(quiet, unit);
    let mut on_progress = |p: &evallab::engine::Progress| {
        progress.update(p.positions_done, p.positions_total, || {
            format!(
                "{}/{} games, {} failures, {} restarts",
                p.games_done, p.games_total, p.failures, p.restarts
            )
        });
    };
    let report = run_stage(dataset, stage, &mut on_progress)?;
    progress.finish();
    if !quiet {
        super::notes::recovered(report.stale_lock.as_ref(), &[]);
    }
    Ok(report)
}

/// The progress of an engine run (`unit`: what is counted).
pub(super) fn progress(quiet: bool, unit: &str) -> Progress {
    Progress::new(
        quiet,
        unit,
        &format!(
            "{{elapsed_precise}} [{{bar:30}}] {{pos}}/{{len}} {unit}, {{per_sec}}, ETA {{eta}} {{msg}}"
        ),
    )
}

pub(super) fn name_value(s: &str) -> Result<(String, String), String> {
    let (n, v) = s
        .split_once('=')
        .ok_or_else(|| format!("`{s}`: expected NAME=VALUE"))?;
    if n.trim().is_empty() {
        return Err(format!("`{s}`: empty option name"));
    }
    Ok((n.trim().to_string(), v.trim().to_string()))
}

pub(super) fn seconds(opt: &str, s: f64) -> anyhow::Result<Duration> {
    if s.is_finite() && s > 0.0 {
        Ok(Duration::from_secs_f64(s))
    } else {
        Err(super::args::usage(format!(
            "{opt} {s}: expected seconds > 0"
        )))
    }
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let limit = match (args.depth, args.nodes, args.movetime) {
        (Some(d), _, _) => Limit::Depth(d),
        (_, Some(n), _) => Limit::Nodes(n),
        (_, _, Some(ms)) => Limit::MoveTime(ms),
        _ => unreachable!("clap requires one limit"),
    };
    let opts = AnalyzeOptions {
        run: args.engine.run_options(
            args.label.map(|l| l.0),
            args.shard.shard,
            args.timeout,
            Duration::from_secs(10),
        )?,
        engine_options: args.engine.uci_option,
        limit,
        multipv: args.multipv,
        all_depths: args.all_depths,
        threads: args.engine.threads,
        hash_mb: args.hash,
        selection: args.selection.selection(args.shard.slice)?,
        reuse: args.reuse,
    };
    let mut stage = Analyze::new(opts)?;
    let report = run_with_progress(&args.dataset, &mut stage, args.engine.quiet, "positions")?;
    if !args.engine.quiet {
        if report.positions_reused > 0 {
            eprintln!(
                "reused {} positions from earlier runs with the same settings",
                report.positions_reused
            );
        }
        if report.games == 0 && report.positions_reused == 0 {
            eprintln!(
                "nothing to do: all {} selected games are already analysed under label `{}` ({})",
                report.games_selected(),
                report.label,
                report.engine
            );
        } else if report.games > 0 {
            let secs = report.seconds.max(1e-9);
            let nps = if report.engine_nps_count > 0 {
                report.engine_nps_sum / report.engine_nps_count as f64
            } else {
                0.0
            };
            eprintln!(
                "analysed {} games ({} already done), {} positions, {} lines, {} failures, {} restarts \
                 in {:.1}s ({:.1} positions/s; engine {:.0} nps) with {} as `{}`",
                report.games,
                report.games_already_done,
                report.positions,
                report.rows,
                report.failures,
                report.restarts,
                secs,
                report.positions as f64 / secs,
                nps,
                report.engine,
                report.label
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}
