//! `evallab eas <DATASET>`: the EAS aggressiveness score per engine.

use std::process::ExitCode;
use std::time::Instant;

use evallab::metrics::balance::Group;
use evallab::metrics::eas::{Behind, EasOptions, Rules, games_behind, score_by, stored_labels};
use evallab::metrics::facts::read_facts;
use evallab::metrics::in_dataset_order;
use evallab::schema::outputs as out;
use evallab::schema::{EAS_LABELS, GAMES};

use super::args::StatArgs;
use super::args::choice;
use super::args::{ReadPath, WritePath};

/// EAS (Engine Aggressiveness Statistics) per engine, ranked.
///
/// EAS (Engine Aggressiveness Statistics) per engine, ranked: sacrifices in
/// wins, early sacrifices and short wins, bad draws (docs/guide/eas.md).
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Rule set: v6 (current reference) or v5 (V5.2–5.8).
    #[arg(long, value_parser = choice::<Rules>(), default_value_t = Rules::V6)]
    rules: Rules,
    /// Fix the all-games average length (moves) instead of computing it.
    #[arg(long, value_name = "N")]
    hard_avg: Option<i32>,
    /// Over all the selected games (one population), or each event or
    /// season its own population (its averages in the last columns).
    #[arg(long, value_parser = choice::<Group>(), default_value_t = Group::Engine)]
    by: Group,
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
    // --engine keeps rows; the selected events' games stay the population.
    #[command(flatten)]
    stat: StatArgs,
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    // Every option is checked before the labels are stored.
    if a.games.is_some() && a.stat.select.engine().is_none() {
        return Err(super::args::usage("--games needs --engine REGEX"));
    }
    if a.games.is_some() && a.by != Group::Engine {
        return Err(super::args::usage(
            "--games lists games over the whole selection: leave out --by",
        ));
    }
    let (ds, selection) = a.stat.open()?;
    let opts = EasOptions {
        rules: a.rules,
        hard_avg: a.hard_avg,
        selection,
    };
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
    let (mut table, g) = score_by(&lab, &opts, a.by)?;
    if let Some(which) = a.games {
        let short_limit = g.expect("--games is over all the selection").short_limit;
        let mut df = in_dataset_order(
            games_behind(&lab, &opts.selection, which, short_limit)?,
            ds.scan(&GAMES)?,
        )?;
        if let Some(path) = &a.pgn {
            super::annotate::write_listed(&ds, &df, path)?;
        }
        a.stat.out.write(&mut df, &out::EAS_GAMES)?;
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(g) = g {
        eprintln!(
            "avg_all = {} moves ({} decisive games), L = {}, early_limit = {} plies, rules {:?}",
            g.avg_all, g.decisive_games, g.short_limit, g.early_limit, opts.rules
        );
    }
    a.stat.out.write(&mut table, &out::EAS)?;
    Ok(ExitCode::SUCCESS)
}
