//! `evallab policy <DATASET> --uci LC0 --weights FILE`: the priors of a
//! policy network for the dataset's positions (table `policy`).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use evallab::engine::policy::{Policy, PolicyOptions};

use super::analyze::{EngineArgs, PositionArgs, ShardArgs, run_with_progress};
use super::args::ReadPath;
use super::args::RunLabel;

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
    #[command(flatten)]
    engine: EngineArgs,
    /// The network's weights file, sent as `WeightsFile` (e.g. maia-1900.pb.gz).
    #[arg(long, value_name = "FILE")]
    weights: ReadPath,
    /// Nodes per position (1: the network's raw policy).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: u64,
    #[command(flatten)]
    selection: PositionArgs,
    #[command(flatten)]
    shard: ShardArgs,
    /// Name of the run in the dataset [default: policy-WEIGHTS].
    #[arg(long, value_name = "NAME")]
    label: Option<RunLabel>,
    /// Longest wait for one search, seconds; the engine is then killed.
    #[arg(long, value_name = "S", default_value_t = 60.0)]
    timeout: f64,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let opts = PolicyOptions {
        // lc0 loads its network at the first `isready`.
        run: args.engine.run_options(
            args.label.map(|l| l.0),
            args.shard.shard,
            args.timeout,
            Duration::from_secs(60),
        )?,
        weights: args.weights.0,
        engine_options: args.engine.uci_option,
        nodes: args.nodes,
        threads: args.engine.threads,
        selection: args.selection.selection(args.shard.slice)?,
    };
    let mut stage = Policy::new(opts)?;
    let report = run_with_progress(&args.dataset, &mut stage, args.engine.quiet, "positions")?;
    if !args.engine.quiet {
        if report.games == 0 {
            eprintln!(
                "nothing to do: all {} selected games are already priced under label `{}` ({})",
                report.games_selected(),
                report.label,
                report.engine
            );
        } else {
            let secs = report.seconds.max(1e-9);
            eprintln!(
                "priced {} games ({} already done), {} positions, {} moves, {} failures, {} restarts \
                 in {:.1}s ({:.1} positions/s) with {} as `{}`",
                report.games,
                report.games_already_done,
                report.positions,
                report.rows,
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
