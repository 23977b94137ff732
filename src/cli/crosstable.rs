//! `evallab crosstable <DATASET>`: the head-to-head results per event.

use std::process::ExitCode;

use evallab::metrics::balance::{BalanceOptions, Group};
use evallab::metrics::standings::{crosstable, crosstable_wide, standings};
use evallab::schema::GAMES;
use evallab::schema::outputs as out;

use super::args::StatArgs;
use super::args::choice;

/// Head-to-head results per event: games, W/D/L and points per pair, by colour.
///
/// One row per event (or season, or all games), engine and opponent: finished
/// games, wins, draws, losses and points of the engine against the opponent,
/// and the W/D/L with the engine as White and as Black. With `--wide`, the
/// matrix: one row per engine in rank order (as `evallab standings`), one
/// column per opponent with "points/games".
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Per event, per TCEC season ("Season N" in the event; other events
    /// alone), or over all games.
    #[arg(long, value_parser = choice::<Group>(), default_value_t = Group::EventEngine)]
    by: Group,
    /// The matrix: one row per engine, one "points/games" column per opponent.
    #[arg(long)]
    wide: bool,
    #[command(flatten)]
    stat: StatArgs,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let output = if args.wide {
        &out::CROSSTABLE
    } else {
        &out::CROSSTABLE_LONG
    };
    args.stat.run(output, |ds, selection| {
        let opts = BalanceOptions {
            group: args.by,
            selection,
        };
        let games = ds.scan(&GAMES)?;
        let long = crosstable(games.clone(), &opts)?.collect()?;
        Ok(if args.wide {
            crosstable_wide(&standings(games, &opts)?.collect()?, &long, &opts)?
        } else {
            long
        })
    })
}
