//! `evallab balance <DATASET>`: the win-draw balance per engine (and event).

use std::process::ExitCode;

use evallab::metrics::balance::{BalanceOptions, Group, balance, game_facts, select_facts};
use evallab::metrics::facts::read_facts;
use evallab::schema::outputs as out;
use evallab::schema::{GAMES, MOVES};

use super::args::ReadPath;
use super::args::StatArgs;
use super::args::choice;

/// Win-draw balance x_0_5 per engine (and event).
///
/// Win-draw balance (x_0_5) per engine and event: the W-th largest of the
/// engine's maximum own evals over its non-won games, where W is its number of
/// wins that are not hollow (docs/definitions/balance-calibrate.md).
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Group by engine only, by event and engine, or by season and engine.
    #[arg(long, value_parser = choice::<Group>(), default_value_t = Group::EventEngine)]
    by: Group,
    /// Read the per-game facts from DIR (written by `evallab facts`) instead
    /// of computing them from the moves.
    #[arg(long, value_name = "DIR")]
    facts: Option<ReadPath>,
    /// Print the optimised polars query plan to stderr first.
    #[arg(long)]
    explain: bool,
    #[command(flatten)]
    stat: StatArgs,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    args.stat.run(&out::BALANCE, |ds, selection| {
        let opts = BalanceOptions {
            group: args.by,
            selection,
        };
        let facts = match &args.facts {
            Some(dir) => select_facts(read_facts(ds, dir)?.0, &opts),
            None => game_facts(ds.scan(&GAMES)?, ds.scan(&MOVES)?, &opts, false)?,
        };
        let lf = balance(facts, &opts)?;
        if args.explain {
            eprintln!("{}", lf.describe_optimized_plan()?);
        }
        Ok(lf.collect()?)
    })
}
