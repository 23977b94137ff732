//! `evallab ease <DATASET> --analysis LABEL --policy LABEL`: how easy each
//! position was (`metrics.md` §4), per position or per engine.

use std::process::ExitCode;

use evallab::engine::policy::user;
use evallab::metrics::balance::{BalanceOptions, Group};
use evallab::metrics::difficulty::model::RatingModel;
use evallab::metrics::difficulty::query::{DifficultyOptions, with_expected_rating};
use evallab::metrics::ease::math::Form;
use evallab::metrics::ease::query::{
    EaseOptions, View, check_edges, per_group, per_position, selected_positions,
};
use evallab::schema::outputs as out;
use evallab::schema::{ANALYSIS, GAMES, MOVES, POLICY, col as schema_col};
use polars::prelude::LazyFrame;

use super::args::ReadPath;
use super::args::RunLabel;
use super::args::StatArgs;
use super::args::choice;

/// Ease of the positions: how hard the best move is to find, per engine.
///
/// Ease of the positions: the policy prior P (`evallab policy`) of the
/// reference's top lines (`evallab analyze`, MultiPV ≥ 2) weighted by what
/// they lose in winning chances Q against the best line. Near 1: easy; near
/// 0: treacherous. Per engine (the player facing the position) by default:
/// mean ease, the treacherous share and the played move's loss in
/// treacherous and other positions; `--positions` lists every position.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The reference analysis (its final lines give Q).
    #[arg(long, value_name = "LABEL")]
    analysis: RunLabel,
    /// The policy run (its priors give P).
    #[arg(long, value_name = "LABEL", required_unless_present = "policy_file")]
    policy: Option<RunLabel>,
    /// Priors from a Parquet file instead of a policy run: columns game_id,
    /// ply, move (UCI) and prior (a fraction or a percentage).
    #[arg(long, value_name = "FILE", conflicts_with = "policy")]
    policy_file: Option<ReadPath>,
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
    /// Add each position's `expected_rating`: the Lichess puzzle rating a
    /// model (`evallab difficulty --save-model`, data/models/puzzle-rating.json)
    /// expects of the position read as a puzzle, its solution the analysis'
    /// line as far as it is forced and the game followed it (null where the
    /// position lacks the analysis or the policy). With --positions.
    #[arg(long, value_name = "FILE", requires = "positions")]
    rating_model: Option<ReadPath>,
    /// Summarise per game and engine (the ease series of each game's player),
    /// with --by's event or season beside the game.
    #[arg(long, conflicts_with = "positions")]
    per_game: bool,
    /// Instead of the summary, the played move's mean loss per ease band cut
    /// at these ascending edges, e.g. `0.5,0.7,0.9`.
    #[arg(long, value_name = "EDGES", value_delimiter = ',', num_args = 1.., conflicts_with = "positions")]
    bands: Vec<f64>,
    /// Group the summary by engine (default) or by event and engine.
    #[arg(long, value_parser = choice::<Group>(), default_value_t = Group::Engine)]
    by: Group,
    #[command(flatten)]
    stat: StatArgs,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    check_edges(&args.bands).map_err(|e| super::args::usage(format!("--bands: {e}")))?;
    let (ds, selection) = args.stat.open()?;
    let opts = BalanceOptions {
        group: args.by,
        selection,
    };
    ds.manifest()
        .require_analysis(&args.analysis, &args.stat.dataset)?;
    let (policy_label, priors) = match (&args.policy, &args.policy_file) {
        (_, Some(file)) => (user::USER_LABEL.to_string(), user::scan(file)?),
        (Some(label), None) => {
            ds.manifest().require_analysis(label, &args.stat.dataset)?;
            (label.0.clone(), ds.scan(&POLICY)?)
        }
        (None, None) => unreachable!("clap requires --policy or --policy-file"),
    };
    let ease_opts = EaseOptions {
        analysis_label: args.analysis.0.clone(),
        policy_label,
        top: args.top,
        form: args.form,
    };
    let model = args
        .rating_model
        .as_deref()
        .map(RatingModel::load)
        .transpose()?;
    let positions = per_position(ds.scan(&ANALYSIS)?, priors.clone(), &ease_opts)?;
    let tables =
        || -> anyhow::Result<_> { Ok((ds.scan(&GAMES)?, ds.scan(&MOVES)?, ds.scan(&ANALYSIS)?)) };
    let listed = || -> anyhow::Result<LazyFrame> {
        Ok(selected_positions(
            positions.clone(),
            tables()?,
            &args.analysis,
            &opts.selection,
        )?)
    };
    let mut df = if let Some(model) = &model {
        let opts = DifficultyOptions {
            analysis_label: args.analysis.0.clone(),
            policy_label: ease_opts.policy_label.clone(),
            top: args.top,
        };
        with_expected_rating(
            listed()?.collect()?,
            (
                ds.scan(&GAMES)?,
                ds.scan(&MOVES)?,
                ds.scan(&ANALYSIS)?,
                priors,
            ),
            &opts,
            model,
        )?
    } else if args.positions {
        listed()?.collect()?
    } else {
        // Per game, the --by key (event or season) stays beside the game.
        let mut keys = opts.keys();
        if args.per_game {
            keys.insert(keys.len() - 1, schema_col::GAME_ID);
        }
        let view = if args.bands.is_empty() {
            View::Summary { cut: args.cut }
        } else {
            View::Bands(&args.bands)
        };
        per_group(
            positions,
            tables()?,
            &args.analysis,
            &opts.selection,
            &keys,
            view,
        )?
        .collect()?
    };
    let output = if model.is_some() || args.positions {
        &out::EASE_POSITIONS
    } else if !args.bands.is_empty() {
        &out::EASE_BANDS
    } else {
        &out::EASE
    };
    args.stat.out.write(&mut df, output)?;
    Ok(ExitCode::SUCCESS)
}
