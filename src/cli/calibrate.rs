//! `evallab calibrate <DATASET>`: x_0_5 estimated three ways, with bootstrap
//! confidence intervals, as a table and as a TOML fragment for later steps.

use std::path::PathBuf;
use std::process::ExitCode;

use evallab::dataset::Dataset;
use evallab::facts::read_facts;
use evallab::metrics::balance::{BalanceOptions, game_facts, select_facts};
use evallab::metrics::calibrate::file::{self, PoolRecord, Record, X05File};
use evallab::metrics::calibrate::pool::{self, Pooled, normal_quantile};
use evallab::metrics::calibrate::{Calibration, calibrate_group, observations};
use evallab::render::plot;
use evallab::schema::{GAMES, MOVES, metric};
use polars::prelude::*;

use super::{By, FilterArgs, OutputArgs};

/// Estimate x_0_5 per engine three ways, with intervals and a pooled estimate.
///
/// Estimate x_0_5 per engine by the rank method (= the win-draw balance), the
/// win-rate threshold, and a maximum-likelihood fit of the probabilistic-result
/// curve, each with a bootstrap confidence interval over games; a method the
/// data cannot identify says why. The pooled estimate shrinks each engine's ml
/// toward the mean of all engines by its precision (sandwich errors by game)
/// and is what `--toml` writes (README, "Calibrating x_0_5").
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Dataset folder written by `evallab ingest`.
    dataset: PathBuf,
    /// Group by engine (default), by event and engine, or by season and engine.
    #[arg(long, value_enum, default_value_t = By::Engine)]
    by: By,
    #[command(flatten)]
    filter: FilterArgs,
    /// Bootstrap resamples for the confidence intervals (0: none).
    #[arg(long, default_value_t = 0)]
    bootstrap: usize,
    /// Seed of the bootstrap (results are reproducible for a given seed).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Level of the pooled estimates' intervals (the bootstrap's are 95 %).
    #[arg(long, default_value_t = 0.95, value_parser = level)]
    level: f64,
    /// Also write the per-engine x05 as TOML (for `relevance --x05-from`):
    /// the pooled estimates, which estimate each is, and why an engine has none.
    #[arg(long, value_name = "FILE")]
    toml: Option<PathBuf>,
    /// Also draw the empirical win rate by eval with the fitted curves (.svg or .png).
    #[arg(long, value_name = "FILE")]
    plot: Option<PathBuf>,
    /// Read the per-game facts from DIR (written by `evallab facts`) instead
    /// of computing them from the moves.
    #[arg(long, value_name = "DIR")]
    facts: Option<PathBuf>,
    #[command(flatten)]
    out: OutputArgs,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    // Every option is checked before the table, the TOML or the plot is written.
    args.out.check()?;
    if let Some(path) = &args.plot {
        plot::check_path(path)?;
    }
    let ds = Dataset::open(&args.dataset)?;
    let opts = BalanceOptions {
        group: args.by.group(),
        ..args.filter.options()?
    };
    let facts = match &args.facts {
        Some(dir) => select_facts(read_facts(&ds, dir)?.0, &opts),
        None => game_facts(ds.scan(&GAMES)?, ds.scan(&MOVES)?, &opts, true)?,
    };
    let groups = observations(facts, &opts)?;
    let results: Vec<(Vec<String>, Calibration)> = groups
        .iter()
        .map(|(k, games)| (k.clone(), calibrate_group(games, args.bootstrap, args.seed)))
        .collect();
    let pooled = pooled(&results, args.level);
    let mut df = frame(&opts, &results, &pooled.1)?;
    args.out.write(&mut df)?;
    let identified = pooled.1.iter().flatten().count();
    eprintln!(
        "calibrate: {} groups; ml identified for {identified}, pooled toward {}; none for {}",
        results.len(),
        pooled
            .0
            .map_or("nothing (no group identified)".into(), |p| format!(
                "x05 {:.3} (tau {:.3} on ln x05, from {} groups)",
                p.mu.exp(),
                p.tau2.sqrt(),
                p.groups
            )),
        results.len() - identified
    );
    if let Some(p) = pooled.0.filter(|p| p.groups < 10) {
        eprintln!(
            "note: the pool's mean and spread rest on {} groups: with so few, the pooled values lean on a weak prior (calibrate over more engines, e.g. without --event)",
            p.groups
        );
    }
    if let Some(path) = &args.toml {
        let text = x05_file(&results, &pooled, args.level).to_toml()?;
        evallab::render::format::write_text(path, &text)?;
    }
    if let Some(path) = &args.plot {
        let panels: Vec<_> = groups
            .iter()
            .zip(&results)
            .map(|((k, games), (_, c))| plot::CalibrationPanel {
                title: k.join(" · "),
                games,
                calibration: c,
            })
            .collect();
        plot::calibration(&panels, path)?;
    }
    Ok(ExitCode::SUCCESS)
}

fn level(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v > 0.0 && v < 1.0 => Ok(v),
        _ => Err(format!("`{s}`: a level between 0 and 1, e.g. 0.95")),
    }
}

/// The prior and each group's pooled estimate (None where its ml is not
/// identified), intervals at `level`.
fn pooled(
    results: &[(Vec<String>, Calibration)],
    level: f64,
) -> (Option<pool::Prior>, Vec<Option<Pooled>>) {
    let raw: Vec<Option<pool::Raw>> = results
        .iter()
        .map(|(_, c)| {
            Some(pool::Raw {
                theta: c.ml.value?.ln(),
                s2: c.ml_se_log?.powi(2),
                games: c.games_with_evals,
            })
        })
        .collect();
    pool::pool(&raw, normal_quantile(0.5 + level / 2.0))
}

fn round3(v: f64) -> f64 {
    (v * 1000.0).round() / 1000.0
}

fn frame(
    opts: &BalanceOptions,
    results: &[(Vec<String>, Calibration)],
    pooled: &[Option<Pooled>],
) -> PolarsResult<DataFrame> {
    let mut cols: Vec<Column> = Vec::new();
    for (i, k) in opts.keys().iter().enumerate() {
        let v: Vec<&str> = results.iter().map(|(key, _)| key[i].as_str()).collect();
        cols.push(Column::new((*k).into(), v));
    }
    let n =
        |f: fn(&Calibration) -> usize| results.iter().map(|(_, c)| f(c) as u32).collect::<Vec<_>>();
    cols.push(Column::new(metric::GAMES.into(), n(|c| c.games)));
    cols.push(Column::new("positions".into(), n(|c| c.positions)));
    type Get = fn(&Calibration) -> Option<f64>;
    let est: [(&str, Get); 10] = [
        ("x05_rank", |c| c.rank.value),
        ("rank_lo", |c| c.rank.lo),
        ("rank_hi", |c| c.rank.hi),
        ("x05_threshold", |c| c.threshold.value),
        ("threshold_lo", |c| c.threshold.lo),
        ("threshold_hi", |c| c.threshold.hi),
        ("x05_ml", |c| c.ml.value.map(round3)),
        ("ml_lo", |c| c.ml.lo.map(round3)),
        ("ml_hi", |c| c.ml.hi.map(round3)),
        ("ml_se_log", |c| c.ml_se_log.map(round3)),
    ];
    for (name, f) in est {
        let v: Vec<Option<f64>> = results.iter().map(|(_, c)| f(c)).collect();
        cols.push(Column::new(name.into(), v));
    }
    type GetPooled = fn(&Pooled) -> f64;
    let pooled_cols: [(&str, GetPooled); 4] = [
        ("x05_pooled", |p| p.value),
        ("pooled_lo", |p| p.lo),
        ("pooled_hi", |p| p.hi),
        ("pooled_weight", |p| p.weight),
    ];
    for (name, f) in pooled_cols {
        let v: Vec<Option<f64>> = pooled
            .iter()
            .map(|p| p.as_ref().map(|p| round3(f(p))))
            .collect();
        cols.push(Column::new(name.into(), v));
    }
    type Why = fn(&Calibration) -> Option<&'static str>;
    let reasons: [(&str, Why); 3] = [
        ("rank_reason", |c| c.rank.reason),
        ("threshold_reason", |c| c.threshold.reason),
        ("ml_reason", |c| c.ml.reason),
    ];
    for (name, f) in reasons {
        let v: Vec<Option<&str>> = results.iter().map(|(_, c)| f(c)).collect();
        cols.push(Column::new(name.into(), v));
    }
    DataFrame::new_infer_height(cols)
}

/// `[x05]`: each group's pooled estimate (positive and identified by
/// construction); `[x05_estimate]` how; `[x05_missing]` why not; and each
/// method's own identified values.
fn x05_file(
    results: &[(Vec<String>, Calibration)],
    (prior, pooled): &(Option<pool::Prior>, Vec<Option<Pooled>>),
    level: f64,
) -> X05File {
    let r4 = |v: f64| (v * 10_000.0).round() / 10_000.0;
    let mut f = X05File {
        pool: prior.map(|p| PoolRecord {
            method: "empirical Bayes: DerSimonian-Laird on ln x05, sandwich errors by game".into(),
            mean: r4(p.mu.exp()),
            tau: r4(p.tau2.sqrt()),
            engines: p.groups as u32,
        }),
        ..X05File::default()
    };
    for ((key, c), p) in results.iter().zip(pooled) {
        match (p, c.ml.value, c.ml_se_log) {
            (Some(p), Some(ml), Some(se)) => {
                file::insert(&mut f.x05, key, r4(p.value));
                file::insert(
                    &mut f.x05_estimate,
                    key,
                    Record {
                        estimate: "pooled".into(),
                        ml: r4(ml),
                        ml_se_log: r4(se),
                        weight: r4(p.weight),
                        lo: r4(p.lo),
                        hi: r4(p.hi),
                        level,
                        games: c.games as u32,
                    },
                );
            }
            _ => file::insert(
                &mut f.x05_missing,
                key,
                c.ml.reason.unwrap_or("no pooled estimate").to_string(),
            ),
        }
        for (table, e) in [
            (&mut f.x05_rank, c.rank),
            (&mut f.x05_threshold, c.threshold),
            (&mut f.x05_ml, c.ml),
        ] {
            if let Some(v) = e.value.filter(|v| *v > 0.0) {
                file::insert(table, key, r4(v));
            }
        }
    }
    f
}
