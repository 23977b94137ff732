//! `evallab ease <DATASET> --analysis LABEL --policy LABEL`: how easy each
//! position was (`metrics.md` §4), per position or per engine.

use std::path::PathBuf;
use std::process::ExitCode;

use evallab::dataset::Dataset;
use evallab::metrics::agreement::query::per_move;
use evallab::metrics::balance::BalanceOptions;
use evallab::metrics::ease::math::Form;
use evallab::metrics::ease::query::{EaseOptions, per_position, summary};
use evallab::metrics::select_events;
use evallab::schema::{ANALYSIS, GAMES, MOVES, POLICY};

use super::{By, FilterArgs, OutputArgs};

/// Ease of the positions: the policy prior P (`evallab policy`) of the
/// reference's top lines (`evallab analyze`, MultiPV ≥ 2) weighted by what
/// they lose in winning chances Q against the best line. Near 1: easy; near
/// 0: treacherous. Per engine (the player facing the position) by default:
/// mean ease, the treacherous share and the played move's loss in
/// treacherous and other positions; `--positions` lists every position.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Dataset folder with an analysis and a policy run.
    dataset: PathBuf,
    /// The reference analysis (its final lines give Q).
    #[arg(long, value_name = "LABEL")]
    analysis: String,
    /// The policy run (its priors give P).
    #[arg(long, value_name = "LABEL")]
    policy: String,
    /// Candidates: the reference's top N lines.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u8).range(1..=50))]
    top: u8,
    /// `sum` (the published form, 1 − (Σ…)^(1/3)) or `per-term` (ChessAgine's, 1 − Σ(…)^(1/3)).
    #[arg(long, default_value = "sum")]
    form: Form,
    /// Positions with ease below this are treacherous.
    #[arg(long, default_value_t = 0.5)]
    cut: f64,
    /// One row per position instead of the per-engine summary.
    #[arg(long)]
    positions: bool,
    /// Group the summary by engine (default) or by event and engine.
    #[arg(long, value_enum, default_value_t = By::Engine)]
    by: By,
    #[command(flatten)]
    filter: FilterArgs,
    #[command(flatten)]
    out: OutputArgs,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    args.out.check()?;
    let opts = BalanceOptions {
        group: args.by.group(),
        ..args.filter.options()?
    };
    let ds = Dataset::open(&args.dataset)?;
    for label in [&args.analysis, &args.policy] {
        if ds.manifest.analysis(label).is_none() {
            return Err(super::usage(format!(
                "no run `{label}` in {}; `evallab inspect` lists the analyses",
                args.dataset.display()
            )));
        }
    }
    let ease_opts = EaseOptions {
        analysis_label: args.analysis.clone(),
        policy_label: args.policy,
        top: args.top,
        form: args.form,
    };
    let positions = per_position(ds.scan(&ANALYSIS)?, ds.scan(&POLICY)?, &ease_opts)?;
    let mut df = if args.positions {
        positions.collect()?
    } else {
        let (games, moves) =
            select_events(ds.scan(&GAMES)?, ds.scan(&MOVES)?, opts.event.as_deref());
        let moves = per_move(
            games,
            moves,
            ds.scan(&ANALYSIS)?,
            &args.analysis,
            &opts.families,
        );
        summary(positions, moves, args.cut, &opts.keys()).collect()?
    };
    args.out.write(&mut df)?;
    Ok(ExitCode::SUCCESS)
}
