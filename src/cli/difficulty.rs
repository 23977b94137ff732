//! `evallab difficulty <DATASET> --analysis L --policy P`: the candidate
//! difficulty measures of the puzzles against their Lichess ratings.

use std::path::PathBuf;
use std::process::ExitCode;

use evallab::dataset::Dataset;
use evallab::metrics::difficulty::MEASURES;
use evallab::metrics::difficulty::model::{Provenance, candidates, choose, constant_cv, fit_best};
use evallab::metrics::difficulty::query::{
    CorrelationOptions, DifficultyOptions, correlation_table, models_table, puzzle_measures,
    samples,
};
use evallab::schema::{ANALYSIS, GAMES, MOVES, POLICY};

use super::args::OutputArgs;
use super::args::RunLabel;
use super::args::WritePath;

/// How well each difficulty measure ranks puzzles like their Lichess rating.
///
/// Difficulty measures against Lichess puzzle ratings. For each puzzle
/// (ingested from the Lichess puzzle CSV) at the solver's first position:
/// ease (both forms), the best move's prior, its policy rank, the policy
/// entropy, the moves within 0.1 Q of the best, the Q gap to the second
/// move, the prior on losing moves and the depth at which the reference
/// settles on the best move (docs/definitions/difficulty.md). By default,
/// each measure's Spearman rho and Kendall tau-b with the rating, with
/// bootstrap intervals, over all puzzles and per theme; `--puzzles` lists
/// the measures per puzzle; `--models` the expected-rating models' k-fold
/// cross-validated scores; `--save-model` writes the one it keeps.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Dataset folder with the puzzles, an analysis and a policy run.
    dataset: PathBuf,
    /// The reference analysis (`analyze --multipv 5 --all-depths`, at least
    /// of the solver's first position: `--plies 1..2` searches it after the
    /// opponent's, as in a game).
    #[arg(long, value_name = "LABEL")]
    analysis: RunLabel,
    /// The policy run (its priors).
    #[arg(long, value_name = "LABEL")]
    policy: RunLabel,
    /// Candidates: the reference's top N lines.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u8).range(1..=50))]
    top: u8,
    /// One row per puzzle with its measures instead of the correlations.
    #[arg(long, conflicts_with = "models")]
    puzzles: bool,
    /// The candidate expected-rating models' cross-validated scores (best
    /// first; the constant model, each fold's mean rating, last), and the one
    /// `--save-model` keeps: the fewest measures within one standard error
    /// of the lowest error.
    #[arg(long)]
    models: bool,
    /// Fit the kept model (see --models) on every puzzle and save it as
    /// JSON, for `ease --rating-model`.
    #[arg(long, value_name = "FILE")]
    save_model: Option<WritePath>,
    /// Bootstrap resamples of the puzzles per interval. Formerly `--resamples`.
    #[arg(long, default_value_t = 1000)]
    bootstrap: usize,
    /// Seed of the bootstrap and of the cross-validation folds.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Themes with fewer puzzles are listed with their count, no correlation.
    #[arg(long, value_name = "N", default_value_t = 30)]
    min_theme: usize,
    /// Folds of the cross-validation.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u64).range(2..))]
    folds: u64,
    #[command(flatten)]
    out: OutputArgs,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    args.out.check()?;
    let ds = Dataset::open(&args.dataset)?;
    for label in [&args.analysis, &args.policy] {
        ds.manifest().require_analysis(label, &args.dataset)?;
    }
    let opts = DifficultyOptions {
        analysis_label: args.analysis.0.clone(),
        policy_label: args.policy.0.clone(),
        top: args.top,
    };
    let tables = (
        ds.scan(&GAMES)?,
        ds.scan(&MOVES)?,
        ds.scan(&ANALYSIS)?,
        ds.scan(&POLICY)?,
    );
    let puzzles = puzzle_measures(tables, &opts)?;
    if puzzles.height() == 0 {
        return Err(super::args::usage(format!(
            "{}: no Lichess puzzles (ingest the puzzle CSV first)",
            args.dataset.display()
        )));
    }
    let same = puzzles
        .column("best_is_solution")?
        .bool()?
        .sum()
        .unwrap_or(0);
    eprintln!(
        "{} puzzles; the analysis' best move is the puzzle's solution in {same} ({:.1} %)",
        puzzles.height(),
        100.0 * f64::from(same) / puzzles.height() as f64
    );
    let fit = args.models || args.save_model.is_some();
    let (rows, keys) = samples(&puzzles)?;
    let folds = args.folds as usize;
    let names: Vec<&str> = MEASURES.iter().map(|m| m.0).collect();
    let scored = if fit {
        candidates(&rows, names.len(), folds, args.seed)
    } else {
        Vec::new()
    };
    if let Some(path) = &args.save_model {
        let from = Provenance {
            puzzles: &keys,
            analysis: &args.analysis,
            policy: &args.policy,
        };
        let best = choose(&scored)
            .and_then(|b| fit_best(&rows, &names, b, &from))
            .ok_or_else(|| {
                super::args::usage("no model could be fitted: too few puzzles with measures")
            })?;
        best.save(path)?;
        eprintln!(
            "saved {} (cross-validated rho {:.3}, MAE {:.0} rating points, {} puzzles) to {}",
            best.features.join(" + "),
            best.cv.spearman,
            best.cv.mae,
            best.cv.n,
            path.display()
        );
    }
    let mut df = if args.puzzles {
        puzzles
    } else if args.models {
        models_table(&scored, constant_cv(&rows, folds, args.seed))?
    } else {
        let copts = CorrelationOptions {
            resamples: args.bootstrap,
            seed: args.seed,
            min_theme: args.min_theme,
        };
        correlation_table(&puzzles, copts)?
    };
    args.out.write(&mut df)?;
    Ok(ExitCode::SUCCESS)
}
