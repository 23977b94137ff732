//! `evallab eas <DATASET>`: the EAS aggressiveness score per engine.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use evallab::dataset::Dataset;
use evallab::metrics::Field;
use evallab::metrics::eas::{Behind, EasOptions, Rules, games_behind, score, stored_labels};
use evallab::metrics::facts::read_facts;
use evallab::schema::EAS_LABELS;

use super::args::OutputArgs;
use super::args::choice;
use super::args::{ReadPath, WritePath};

/// EAS (Engine Aggressiveness Statistics) per engine, ranked.
///
/// EAS (Engine Aggressiveness Statistics) per engine, ranked: sacrifices in
/// wins, early sacrifices and short wins, bad draws (docs/guide/eas.md).
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Dataset folder written by `evallab ingest`.
    dataset: PathBuf,
    /// Rule set: v6 (current reference) or v5 (V5.2–5.8).
    #[arg(long, value_parser = choice::<Rules>(), default_value_t = Rules::V6)]
    rules: Rules,
    /// Fix the all-games average length (moves) instead of computing it.
    #[arg(long, value_name = "N")]
    hard_avg: Option<i32>,
    /// Keep engines matching this regex (the population stays the input;
    /// one that matches no engine of it is an error).
    #[arg(long, value_name = "REGEX")]
    engine: Option<String>,
    // The selected events' games are the input: the population.
    #[command(flatten)]
    events: super::args::EventArgs,
    /// List the games behind a number of the --engine engines instead.
    #[arg(long, value_parser = choice::<Behind>())]
    games: Option<Behind>,
    /// With --games: also write those games as PGN (annotated, see `annotate`).
    #[arg(long, value_name = "FILE", requires = "games")]
    pgn: Option<WritePath>,
    /// Recompute the per-game labels even if stored ones are current.
    #[arg(long)]
    relabel: bool,
    /// Read the per-part labels from DIR (written by `evallab facts`) instead
    /// of the stored ones.
    #[arg(long, value_name = "DIR", conflicts_with = "relabel")]
    facts: Option<ReadPath>,
    #[command(flatten)]
    out: OutputArgs,
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    // Every option is checked before the labels are stored.
    if a.games.is_some() && a.engine.is_none() {
        return Err(super::args::usage("--games needs --engine REGEX"));
    }
    let opts = EasOptions {
        rules: a.rules,
        hard_avg: a.hard_avg,
        selection: super::args::selection(a.events.event, a.engine, &[])?,
    };
    a.out.check()?;
    let ds = Dataset::open(&a.dataset)?;
    super::args::check_matches(&ds, &opts.selection, Field::Engine)?;
    let t = Instant::now();
    let (lab, computed) = match &a.facts {
        Some(dir) => (read_facts(&ds, dir)?.1, false),
        None => stored_labels(&ds, a.relabel)?,
    };
    if computed {
        eprintln!(
            "eas labels: {} games in {:.2}s, stored in {}",
            lab.height(),
            t.elapsed().as_secs_f64(),
            ds.derived_path(&EAS_LABELS).display()
        );
    }
    let (mut table, g) = score(&lab, &opts)?;
    if let Some(which) = a.games {
        let mut df = games_behind(&lab, &opts.selection, which, g.short_limit)?;
        if let Some(path) = &a.pgn {
            super::annotate::write_listed(&ds, &df, path)?;
        }
        a.out.write(&mut df)?;
        return Ok(ExitCode::SUCCESS);
    }
    eprintln!(
        "avg_all = {} moves ({} decisive games), L = {}, early_limit = {} plies, rules {:?}",
        g.avg_all, g.decisive_games, g.short_limit, g.early_limit, opts.rules
    );
    a.out.write(&mut table)?;
    Ok(ExitCode::SUCCESS)
}
