//! `evallab calibrate <DATASET>`: x_0_5 estimated three ways, with bootstrap
//! confidence intervals, as a table and as a TOML fragment for later steps.

use std::process::ExitCode;

use evallab::metrics::balance::{BalanceOptions, Group, game_facts, select_facts};
use evallab::metrics::calibrate::{Settings, calibrate};
use evallab::metrics::facts::read_facts;
use evallab::render::plot;
use evallab::schema::outputs as out;
use evallab::schema::{GAMES, MOVES};

use super::args::StatArgs;
use super::args::choice;
use super::args::{ReadPath, WritePath};

/// Estimate x_0_5 per engine three ways, with intervals and a pooled estimate.
///
/// Estimate x_0_5 per engine by the rank method (= the win-draw balance), the
/// win-rate threshold, and a maximum-likelihood fit of the probabilistic-result
/// curve, each with a bootstrap confidence interval over games with
/// `--bootstrap N` (without it only the pooled estimate has an interval;
/// 1,000 resamples of the TCEC archive by season and engine take about four
/// minutes on two cores); a method the data cannot identify says why. The
/// pooled estimate shrinks each engine's ml toward the mean of all engines by
/// its precision (sandwich errors by game), or for an engine with own evals
/// but no usable ml is the posterior mode of its likelihood under that prior;
/// it is what `--toml` writes (docs/guide/balance-calibrate.md).
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Group by engine (default), by event and engine, or by season and engine.
    #[arg(long, value_parser = choice::<Group>(), default_value_t = Group::Engine)]
    by: Group,
    #[command(flatten)]
    resample: super::args::BootstrapArgs,
    /// Level of the pooled estimates' intervals (the bootstrap's are 95 %).
    #[arg(long, default_value_t = 0.95, value_parser = super::args::level)]
    level: f64,
    /// Also write the per-engine x05 as TOML (for `relevance --x05 FILE`):
    /// the pooled estimates, which estimate each is, and why an engine has none.
    #[arg(long, value_name = "FILE")]
    toml: Option<WritePath>,
    /// Also draw the empirical win rate by eval with the fitted curves (.svg or .png).
    #[arg(long, value_name = "FILE")]
    plot: Option<WritePath>,
    /// Read the per-game facts from DIR (written by `evallab facts`) instead
    /// of computing them from the moves.
    #[arg(long, value_name = "DIR")]
    facts: Option<ReadPath>,
    #[command(flatten)]
    stat: StatArgs,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    // Every option is checked before the table, the TOML or the plot is written.
    if let Some(path) = &args.plot {
        plot::check_path(path)?;
    }
    let (ds, selection) = args.stat.open()?;
    let opts = BalanceOptions {
        group: args.by,
        selection,
    };
    let facts = match &args.facts {
        Some(dir) => select_facts(read_facts(&ds, dir)?.0, &opts),
        None => game_facts(ds.scan(&GAMES)?, ds.scan(&MOVES)?, &opts, true)?,
    };
    let settings = Settings {
        bootstrap: args.resample.bootstrap,
        seed: args.resample.seed,
        level: args.level,
    };
    let shown = super::progress::Shared::new("groups");
    let c = calibrate(facts, &opts, settings, &shown.ticker("calibrated"))?;
    shown.finish();
    args.stat.out.write(&mut c.table(&opts)?, &out::CALIBRATE)?;
    let (groups, identified, pooled) = (c.results.len(), c.identified(), c.pooled());
    eprintln!(
        "calibrate: {groups} groups; ml identified for {identified}, pooled toward {}; the posterior mode under that prior for {} without a usable ml; no value for {}",
        c.prior
            .map_or("nothing (no group identified)".into(), |p| format!(
                "x05 {:.3} (tau {:.3} on ln x05, from {} groups)",
                p.mu.exp(),
                p.tau2.sqrt(),
                p.groups
            )),
        pooled - identified,
        match (groups - pooled, c.prior) {
            (0, _) => "none".to_string(),
            (n, Some(_)) => format!("{n} (no own evals)"),
            (n, None) => n.to_string(),
        }
    );
    if let Some(p) = c.prior.filter(|p| p.groups < 10) {
        eprintln!(
            "note: the pool's mean and spread rest on {} groups: with so few, the pooled values lean on a weak prior (calibrate over more engines, e.g. without --event)",
            p.groups
        );
    }
    if let Some(path) = &args.toml {
        evallab::render::format::write_text(path, &c.x05_file().to_toml()?)?;
    }
    if let Some(path) = &args.plot {
        let panels: Vec<_> = c
            .groups
            .iter()
            .zip(&c.results)
            .map(|((k, games), (_, cal))| plot::CalibrationPanel {
                title: k.join(" · "),
                games,
                calibration: cal,
            })
            .collect();
        plot::calibration(&panels, path)?;
    }
    Ok(ExitCode::SUCCESS)
}
