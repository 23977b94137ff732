//! `evallab standings <DATASET>`: the standings per event, season or all games.

use std::process::ExitCode;

use evallab::metrics::balance::{BalanceOptions, Group};
use evallab::metrics::standings::{standings, termination_mix};
use evallab::schema::GAMES;
use evallab::schema::outputs as out;

use super::args::StatArgs;
use super::args::choice;

/// Standings per event: W/D/L, points, colour split, Sonneborn–Berger, endings.
///
/// One row per event (or season, or all games) and engine, in rank order:
/// finished games, wins, draws, losses, points and score %, the same by
/// colour, Sonneborn–Berger (the opponent's points for a win, half of them
/// for a draw), the rank (points, then Sonneborn–Berger, then wins; equal
/// engines share a rank), and how the engine's games ended, one `end_*`
/// column per termination class (mate, win rule, draw rule, tablebase, …;
/// `end_unfinished` counts `*` games, which count nowhere else). Definitions:
/// docs/definitions/standings.md.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Per event and engine, per TCEC season and engine ("Season N" in the
    /// event; other events alone), or per engine over all games.
    #[arg(long, value_parser = choice::<Group>(), default_value_t = Group::EventEngine)]
    by: Group,
    /// Print instead the number and share of games per termination class
    /// in each group without its engine key (each game once; `unknown` is
    /// what the tags do not say): `--by engine` for the whole dataset.
    #[arg(long)]
    terminations: bool,
    #[command(flatten)]
    stat: StatArgs,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let output = if args.terminations {
        &out::STANDINGS_TERMINATIONS
    } else {
        &out::STANDINGS
    };
    args.stat.run(output, |ds, selection| {
        let opts = BalanceOptions {
            group: args.by,
            selection,
        };
        let games = ds.scan(&GAMES)?;
        let lf = if args.terminations {
            termination_mix(games, &opts)?
        } else {
            standings(games, &opts)?
        };
        Ok(lf.collect()?)
    })
}
