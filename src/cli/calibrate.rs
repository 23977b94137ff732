//! `evallab calibrate <DATASET>`: x_0_5 estimated three ways, with bootstrap
//! confidence intervals, as a table and as a TOML fragment for later steps.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use evallab::dataset::Dataset;
use evallab::facts::read_facts;
use evallab::metrics::balance::{BalanceOptions, game_facts, select_facts};
use evallab::metrics::calibrate::{Calibration, calibrate_group, observations};
use evallab::render::plot;
use evallab::schema::{GAMES, MOVES, metric};
use polars::prelude::*;

use super::{By, FilterArgs, OutputArgs};

/// Estimate x_0_5 per engine by the rank method (= the win-draw balance), the
/// win-rate threshold, and a maximum-likelihood fit of the probabilistic-result
/// curve, each with a bootstrap confidence interval over games.
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
    /// Also write the per-engine x05 as a TOML fragment (for `relevance --x05-from`).
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
    let mut df = frame(&opts, &results)?;
    args.out.write(&mut df)?;
    if let Some(path) = &args.toml {
        evallab::render::format::write_text(path, &toml(&results))?;
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

fn frame(opts: &BalanceOptions, results: &[(Vec<String>, Calibration)]) -> PolarsResult<DataFrame> {
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
    let est: [(&str, Get); 9] = [
        ("x05_rank", |c| c.rank.value),
        ("rank_lo", |c| c.rank.lo),
        ("rank_hi", |c| c.rank.hi),
        ("x05_threshold", |c| c.threshold.value),
        ("threshold_lo", |c| c.threshold.lo),
        ("threshold_hi", |c| c.threshold.hi),
        ("x05_ml", |c| {
            c.ml.value.map(|v| (v * 1000.0).round() / 1000.0)
        }),
        ("ml_lo", |c| c.ml.lo.map(|v| (v * 1000.0).round() / 1000.0)),
        ("ml_hi", |c| c.ml.hi.map(|v| (v * 1000.0).round() / 1000.0)),
    ];
    for (name, f) in est {
        let v: Vec<Option<f64>> = results.iter().map(|(_, c)| f(c)).collect();
        cols.push(Column::new(name.into(), v));
    }
    DataFrame::new_infer_height(cols)
}

fn toml_str(s: &str) -> String {
    serde_json::to_string(s).expect("a string serialises")
}

/// `[x05]` holds the ml estimate (rank where ml has none); the other tables
/// hold each method's estimate. Keys are engine names, or event then engine.
fn toml(results: &[(Vec<String>, Calibration)]) -> String {
    let mut s = String::from(
        "# x05 (pawns) from `evallab calibrate`; [x05] = ml, or rank where ml has no estimate.\n",
    );
    type Get = fn(&Calibration) -> Option<f64>;
    let tables: [(&str, Get); 4] = [
        ("x05", |c| c.ml.value.or(c.rank.value)),
        ("x05_rank", |c| c.rank.value),
        ("x05_threshold", |c| c.threshold.value),
        ("x05_ml", |c| c.ml.value),
    ];
    for (name, get) in tables {
        let mut section = String::new();
        for (key, c) in results {
            if let Some(v) = get(c) {
                let (table, engine) = match key.as_slice() {
                    [event, engine] => (format!("{name}.{}", toml_str(event)), engine),
                    [engine] => (name.to_string(), engine),
                    _ => continue,
                };
                let _ = writeln!(section, "{table}\t{} = {v:.4}", toml_str(engine));
            }
        }
        // An empty table still says "no estimate" to `relevance --x05-from`.
        if section.is_empty() {
            let _ = writeln!(s, "\n[{name}]");
        }
        let mut current = String::new();
        for line in section.lines() {
            let (table, kv) = line.split_once('\t').expect("tab separated");
            if table != current {
                let _ = writeln!(s, "\n[{table}]");
                current = table.to_string();
            }
            let _ = writeln!(s, "{kv}");
        }
    }
    s
}
