//! `evallab crosstable <DATASET>`: the head-to-head results per event.

use std::path::PathBuf;
use std::process::ExitCode;

use evallab::dataset::Dataset;
use evallab::metrics::balance::{BalanceOptions, Group};
use evallab::metrics::standings::{crosstable, crosstable_wide, standings};
use evallab::schema::GAMES;

use super::args::choice;
use super::args::{OutputArgs, SelectionArgs};

/// Head-to-head results per event: games, W/D/L and points per pair, by colour.
///
/// One row per event (or season, or all games), engine and opponent: finished
/// games, wins, draws, losses and points of the engine against the opponent,
/// and the W/D/L with the engine as White and as Black. With `--wide`, the
/// matrix: one row per engine in rank order (as `evallab standings`), one
/// column per opponent with "points/games".
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Dataset folder written by `evallab ingest`.
    dataset: PathBuf,
    /// Per event (`event`, the same as `event,engine`), per TCEC season
    /// (`season` = `season,engine`: "Season N" in the event; other events
    /// alone), or over all games (`all` = `engine`).
    #[arg(long, value_parser = choice::<Group>(), default_value_t = Group::EventEngine)]
    by: Group,
    /// The matrix: one row per engine, one "points/games" column per opponent.
    #[arg(long)]
    wide: bool,
    #[command(flatten)]
    select: SelectionArgs,
    #[command(flatten)]
    out: OutputArgs,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    args.out.check()?;
    let opts = BalanceOptions {
        group: args.by,
        selection: args.select.selection()?,
    };
    let games = Dataset::open(&args.dataset)?.scan(&GAMES)?;
    let long = crosstable(games.clone(), &opts)?.collect()?;
    let mut df = if args.wide {
        crosstable_wide(&standings(games, &opts)?.collect()?, &long, &opts)?
    } else {
        long
    };
    args.out.write(&mut df)?;
    Ok(ExitCode::SUCCESS)
}
