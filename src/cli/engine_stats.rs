//! `evallab engine-stats <DATASET>`: the engines' search statistics from the
//! moves table, and their clock use.

use std::process::ExitCode;

use evallab::metrics::balance::Group;
use evallab::metrics::engine_stats::{EngineStatsOptions, Split, engine_stats, time_usage};
use evallab::schema::outputs as out;
use evallab::schema::{GAMES, MOVES};

use super::args::StatArgs;
use super::args::choice;

/// Search statistics per engine: depth, seldepth, nodes, nps, time per move,
/// tablebase hits, hash usage, ponder hits.
///
/// From the engines' own move comments (book moves left out): for each field
/// the number of moves that recorded it, its mean and median; a field an
/// engine's PGN writer does not record is empty (null), not 0. `--phase`
/// splits by game phase (endgame: at most 6 knights, bishops, rooks and
/// queens on the board; middlegame: at most 10, or after move 15; else the
/// opening), `--bands N` by bands of N move numbers. `--time-usage` gives
/// instead, per band, the share of its clock an engine used per move,
/// time / (time + clock after the move), and the median clock left
/// (docs/guide/engine-stats.md).
#[derive(Debug, clap::Args)]
pub struct Args {
    /// One row per engine over all events, or per event and engine, or per
    /// season ("Season N" in the event name) and engine.
    #[arg(long, value_parser = choice::<Group>(), default_value_t = Group::Engine)]
    by: Group,
    /// Split each engine's moves by game phase (opening, middlegame, endgame).
    #[arg(long, conflicts_with_all = ["bands", "time_usage"])]
    phase: bool,
    /// Split each engine's moves by bands of N move numbers (1..N, N+1..2N, …).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    bands: Option<u16>,
    /// The clock use per band of move numbers (10 moves unless --bands)
    /// instead of the search statistics.
    #[arg(long)]
    time_usage: bool,
    #[command(flatten)]
    stat: StatArgs,
}

/// The bands of `--time-usage` without `--bands`.
const TIME_USAGE_BANDS: u16 = 10;

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let split = match (args.phase, args.bands) {
        (true, _) => Split::Phase,
        (false, Some(n)) => Split::Bands(n),
        (false, None) => Split::None,
    };
    let output = if args.time_usage {
        &out::ENGINE_STATS_TIME_USAGE
    } else {
        &out::ENGINE_STATS
    };
    args.stat.run(output, |ds, selection| {
        let opts = EngineStatsOptions {
            group: args.by,
            selection,
            split,
        };
        let (games, moves) = (ds.scan(&GAMES)?, ds.scan(&MOVES)?);
        Ok(if args.time_usage {
            time_usage(games, moves, &opts, args.bands.unwrap_or(TIME_USAGE_BANDS))?
        } else {
            engine_stats(games, moves, &opts)?
        })
    })
}
