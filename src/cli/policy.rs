//! `evallab policy <DATASET> --engine LC0 --weights FILE`: the priors of a
//! policy network for the dataset's positions (table `policy`).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use evallab::analyze::AnalyzeProgress;
use evallab::policy::{PolicyOptions, run_policy};

use super::analyze::{SelectionArgs, name_value, progress_bar, seconds, show};

/// Price the dataset's positions with a policy network (table `policy`).
///
/// Runs an lc0-compatible UCI engine with `VerboseMoveStats` on the analysis
/// stage's engine pool: one `go nodes N` per position (1: the raw policy),
/// one row per legal move with its prior (a fraction). Failures, resume and
/// labels work as in `analyze`; the run records the weights file's sha256.
/// Install lc0 and the Maia-1900 weights with `scripts/install_lc0.sh`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Dataset folder written by `evallab ingest`.
    dataset: PathBuf,
    /// The lc0-compatible UCI engine (scripts/install_lc0.sh prints its path).
    #[arg(long, value_name = "PATH")]
    engine: PathBuf,
    /// The network's weights file, sent as `WeightsFile` (e.g. maia-1900.pb.gz).
    #[arg(long, value_name = "FILE")]
    weights: PathBuf,
    /// Extra UCI option, sent as `setoption` (repeatable).
    #[arg(long, value_name = "NAME=VALUE", value_parser = name_value)]
    engine_option: Vec<(String, String)>,
    /// Nodes per position (1: the network's raw policy).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: u64,
    /// Engine processes side by side.
    #[arg(short, long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    jobs: u32,
    /// Threads per engine.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: u32,
    #[command(flatten)]
    selection: SelectionArgs,
    /// Name of the run in the dataset [default: policy-WEIGHTS].
    #[arg(long, value_name = "NAME")]
    label: Option<String>,
    /// Longest wait for one search, seconds; the engine is then killed.
    #[arg(long, value_name = "S", default_value_t = 60.0)]
    timeout: f64,
    /// Commit results at least this often, seconds.
    #[arg(long, value_name = "S", default_value_t = 60.0)]
    commit_every: f64,
    /// No progress bar and no summary.
    #[arg(short, long)]
    quiet: bool,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let opts = PolicyOptions {
        engine: args.engine,
        weights: args.weights,
        engine_options: args.engine_option,
        nodes: args.nodes,
        jobs: args.jobs as usize,
        threads: args.threads,
        selection: args.selection.selection()?,
        label: args.label,
        timeout: seconds("--timeout", args.timeout)?,
        // lc0 loads its network at the first `isready`.
        handshake_timeout: Duration::from_secs(60),
        commit_every: seconds("--commit-every", args.commit_every)?,
    };
    let bar = progress_bar(args.quiet, "positions");
    let mut on_progress = |p: &AnalyzeProgress| show(bar.as_ref(), p);
    let report = run_policy(&args.dataset, &opts, &mut on_progress)?;
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    if !args.quiet {
        if let Some(h) = &report.stale_lock {
            eprintln!("recovered the lock of a writer that died: {h}");
        }
        if report.games == 0 {
            eprintln!(
                "nothing to do: all {} selected games are already priced under label `{}` ({})",
                report.games_selected, report.label, report.engine
            );
        } else {
            let secs = report.seconds.max(1e-9);
            eprintln!(
                "priced {} games ({} already done), {} positions, {} moves, {} failures, {} restarts \
                 in {:.1}s ({:.1} positions/s) with {} as `{}`",
                report.games,
                report.games_already_done,
                report.positions,
                report.moves,
                report.failures,
                report.restarts,
                secs,
                report.positions as f64 / secs,
                report.engine,
                report.label
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}
