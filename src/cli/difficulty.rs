//! `evallab difficulty <DATASET> --analysis L --policy P`: the features of
//! the puzzles' solution lines against their Lichess ratings, the
//! expected-rating models and their predictions.

use std::path::PathBuf;
use std::process::ExitCode;

use evallab::dataset::Dataset;
use evallab::metrics::difficulty::model::{
    Family, Nesting, Provenance, RatingModel, fit_final, nested,
};
use evallab::metrics::difficulty::query::{
    Breakdown, CorrelationOptions, DifficultyOptions, THEME_PREFIX, aligned, breakdown,
    common_themes, correlation_table, feature_names, models_table, predict_puzzles,
    predictions_table, puzzle_features, samples,
};
use evallab::schema::outputs as out;
use evallab::schema::{ANALYSIS, GAMES, MOVES, POLICY};
use polars::prelude::*;

use super::args::{OutputArgs, ReadPath, RunLabel, WritePath, choice, usage};

/// Puzzle difficulty: line features, expected-rating models, predictions.
///
/// For each puzzle (ingested from the Lichess puzzle CSV), the features of
/// its whole solution line (docs/definitions/difficulty.md): what the board
/// says (solver moves, quiet ones, checks, captures, legal moves, the
/// opponent's replies, material) and, at every solver position, the
/// policy's prior and rank of the solution, the depth at which the analysis
/// settles on it, the Q gap to the second move and the moves that keep the
/// result. By default, each feature's Spearman rho and Kendall tau-b with
/// the rating, with bootstrap intervals, over all puzzles and per theme;
/// `--puzzles` lists the features per puzzle; `--models` scores the model
/// families by nested cross-validation; `--save-model` fits the chosen one;
/// `--predict` applies a saved model.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Dataset folder with the puzzles, an analysis and a policy run.
    dataset: PathBuf,
    /// The reference analysis (`analyze --multipv 5 --all-depths`, of every
    /// position of the puzzles: `--plies 1..40` searches each after the
    /// move before it, as in a game).
    #[arg(long, value_name = "LABEL")]
    analysis: RunLabel,
    /// The policy run (its priors), of the solver's positions at least.
    #[arg(long, value_name = "LABEL")]
    policy: RunLabel,
    /// The reference's top N lines (ease's and the Q gap's).
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u8).range(1..=50))]
    top: u8,
    /// One row per puzzle with its line features instead of the correlations.
    #[arg(long, conflicts_with_all = ["models", "predict"])]
    puzzles: bool,
    /// The model families' nested cross-validation (constant, isotonic,
    /// linear on ranks, ridge, boosted trees, and the whole choice,
    /// `selected`): Spearman, MAE and RMSE over all puzzles and over those
    /// with RatingDeviation ≤ 90.
    #[arg(long, conflicts_with = "predict")]
    models: bool,
    /// Add the puzzles' Lichess themes (those of at least 1 % of them) to
    /// the models' features. A model with themes prices puzzles only.
    #[arg(long)]
    themes: bool,
    /// Fit the chosen model on every puzzle and save it as JSON, with its
    /// nested cross-validated scores (for `--predict`, `ease
    /// --rating-model`, `report --rating-model`).
    #[arg(long, value_name = "FILE", conflicts_with = "predict")]
    save_model: Option<WritePath>,
    /// Apply a saved model: one row per puzzle with `puzzle_id`, `rating`,
    /// `rating_deviation` and `expected_rating` (the model is not refitted).
    #[arg(long, value_name = "FILE")]
    predict: Option<ReadPath>,
    /// Instead of one row per model or puzzle, the predictions against the
    /// ratings per group (with --models: the whole choice's out-of-fold
    /// predictions; with --predict: the model's).
    #[arg(long, value_parser = choice::<Breakdown>())]
    breakdown: Option<Breakdown>,
    /// Bootstrap resamples of the puzzles per interval. Formerly `--resamples`.
    #[arg(long, default_value_t = 1000)]
    bootstrap: usize,
    /// Seed of the bootstrap, the folds and the trees' subsamples.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Themes (and --breakdown groups) with fewer puzzles are left out or
    /// listed without correlations.
    #[arg(long, value_name = "N", default_value_t = 30)]
    min_theme: usize,
    /// Outer folds of the nested cross-validation.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u64).range(2..))]
    folds: u64,
    /// Inner folds, which pick each family's settings and the family.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u64).range(2..))]
    inner_folds: u64,
    #[command(flatten)]
    out: OutputArgs,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    args.out.check()?;
    if args.breakdown.is_some() && !args.models && args.predict.is_none() {
        return Err(usage("--breakdown needs --models or --predict"));
    }
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
    let puzzles = puzzle_features(tables, &opts)?;
    if puzzles.height() == 0 {
        return Err(usage(format!(
            "{}: no Lichess puzzles (ingest the puzzle CSV first)",
            args.dataset.display()
        )));
    }
    let unpriced = puzzles.column("reason")?.is_not_null().sum().unwrap_or(0);
    eprintln!(
        "{} puzzles; {unpriced} lack the analysis or the policy of a solver position (see --puzzles' reason)",
        puzzles.height()
    );
    let output = match (&args.predict, args.breakdown) {
        (_, Some(_)) => &out::DIFFICULTY_BREAKDOWN,
        (Some(_), None) => &out::DIFFICULTY_PREDICTIONS,
        (None, None) if args.models || args.save_model.is_some() => &out::DIFFICULTY_MODELS,
        (None, None) if args.puzzles => &out::DIFFICULTY_PUZZLES,
        (None, None) => &out::DIFFICULTY,
    };
    let mut df = if let Some(path) = &args.predict {
        let model = RatingModel::load(path)?;
        if (model.analysis.as_str(), model.policy.as_str())
            != (args.analysis.0.as_str(), args.policy.0.as_str())
        {
            eprintln!(
                "note: {} was trained on analysis `{}` and policy `{}`, this run reads `{}` and `{}`: \
                 the features mean the same only at the same settings (pipelines/difficulty-predict.toml)",
                path.display(),
                model.analysis,
                model.policy,
                args.analysis.0,
                args.policy.0
            );
        }
        predict(&puzzles, &model, args.breakdown, args.min_theme)?
    } else if args.models || args.save_model.is_some() {
        fit(&args, &puzzles)?
    } else if args.puzzles {
        puzzles
    } else {
        let copts = CorrelationOptions {
            resamples: args.bootstrap,
            seed: args.seed,
            min_theme: args.min_theme,
        };
        correlation_table(&puzzles, copts)?
    };
    args.out.write(&mut df, output)?;
    Ok(ExitCode::SUCCESS)
}

/// The nested cross-validation's table (or its breakdown), and the saved model.
fn fit(args: &Args, puzzles: &DataFrame) -> anyhow::Result<DataFrame> {
    let themes = if args.themes {
        common_themes(puzzles)?
    } else {
        Vec::new()
    };
    let names = feature_names(&themes);
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let (rows, keys) = samples(puzzles, &themes)?;
    let nest = Nesting {
        outer: args.folds as usize,
        inner: args.inner_folds as usize,
        seed: args.seed,
    };
    eprintln!(
        "nested {}-fold cross-validation ({} inner) of {} model families on {} puzzles, {} features",
        nest.outer,
        nest.inner,
        Family::ALL.len(),
        rows.len(),
        names.len()
    );
    let assessed = nested(&rows, names.len(), &names, nest);
    let whole = assessed.last().expect("the whole choice");
    let mut shipped = None;
    if let Some(path) = &args.save_model {
        let from = Provenance {
            puzzles: &keys,
            offered: puzzles.height(),
            analysis: &args.analysis,
            policy: &args.policy,
        };
        let model = fit_final(&rows, &names, nest, whole.score, &from).ok_or_else(|| {
            usage("no model could be fitted: too few puzzles with every solver position analysed")
        })?;
        model.save(path)?;
        shipped = Some(model.family_name());
        eprintln!(
            "saved a {} model on {} features (nested cross-validated rho {:.3}, RMSE {:.0}; settled: RMSE {:.0} = {:.2} sd) to {}",
            model.family_name(),
            model.features.len(),
            model.cv.spearman,
            model.cv.rmse,
            model.cv.rmse_settled,
            model.cv.rmse_settled / model.cv.sd_settled,
            path.display()
        );
        if model.features.iter().any(|f| f.starts_with(THEME_PREFIX)) {
            eprintln!("the model reads themes: it prices puzzles, not game positions");
        }
    }
    if let Some(by) = args.breakdown {
        // Out-of-fold predictions, aligned to the puzzles' rows.
        let expected = aligned(puzzles, &keys, &whole.predictions)?;
        return Ok(breakdown(puzzles, &expected, by, args.min_theme)?);
    }
    Ok(models_table(&assessed, shipped)?)
}

/// A saved model's predictions, one row per puzzle or per group.
fn predict(
    puzzles: &DataFrame,
    model: &RatingModel,
    by: Option<Breakdown>,
    min_n: usize,
) -> anyhow::Result<DataFrame> {
    let expected = predict_puzzles(puzzles, model)?;
    Ok(match by {
        Some(by) => breakdown(puzzles, &expected, by, min_n)?,
        None => predictions_table(puzzles, &expected)?,
    })
}
