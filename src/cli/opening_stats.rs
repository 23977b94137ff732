//! `evallab opening-stats <DATASET>`: results per opening.

use std::process::ExitCode;

use evallab::dataset::Dataset;
use evallab::dataset::derived::Stamp;
use evallab::metrics::openings::stats::{By, OpeningStatsOptions, opening_stats};
use evallab::schema::outputs as out;
use evallab::schema::{GAMES, OPENINGS};
use polars::prelude::IntoLazy;

use super::args::choice;
use super::args::{BookArgs, StatArgs, usage};

/// Where a game's opening comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Source {
    /// The games' ECO and Opening tags, as written.
    Tags,
    /// The derived `openings` table of `evallab openings DATASET`
    /// (the last opening-table position the game reaches).
    Classified,
}

/// Results per opening or Chess960 start position: games, White's score, draws, decisive pairs.
///
/// One row per opening (ECO and name): finished games, White wins, draws,
/// Black wins, White's score % and the draw % with 95 % Wilson intervals,
/// the decisive %, and the colour-swapped pairs by their first game's
/// opening: pairs, decisive pairs (won 1½–½ or 2–0, TCEC's decisive
/// openings) and reverse kills (2–0); most played first. `--by start`: the
/// same per Chess960 start position (each side's Scharnagl number, as
/// `evallab openings` names it), in SP order, then each start that is no
/// Chess960 arrangement by its FEN. `--by opening,engine`: one row
/// per opening and engine with its games, W/D/L, points and score % (with
/// its interval). Games without an opening form one row with an empty ECO.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The rows: per opening, per opening and engine, or per Chess960 start
    /// position (`start`); `event,…` splits them per event.
    #[arg(long, value_parser = choice::<By>(), default_value_t = By::Opening)]
    by: By,
    /// The opening of a game: its tags, or the `openings` table.
    #[arg(long, value_enum, default_value_t = Source::Tags)]
    source: Source,
    #[command(flatten)]
    book: BookArgs,
    #[command(flatten)]
    stat: StatArgs,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let output = match args.by {
        By::OpeningEngine => &out::OPENINGS_PER_ENGINE,
        _ => &out::OPENINGS,
    };
    args.stat.run(output, |ds, selection| {
        let opts = OpeningStatsOptions {
            by: args.by,
            selection,
        };
        opening_stats_of(ds, &args, &opts)
    })
}

fn opening_stats_of(
    ds: &Dataset,
    args: &Args,
    opts: &OpeningStatsOptions,
) -> anyhow::Result<polars::prelude::DataFrame> {
    let classified = match args.source {
        Source::Classified if args.by == By::Start => {
            return Err(usage(
                "--by start names each Chess960 game by its start position: \
                 --source does not apply",
            ));
        }
        Source::Tags => None,
        Source::Classified => {
            let table = ds.read_derived(&OPENINGS, &Stamp::new("openings", ds))?;
            Some(
                table
                    .ok_or_else(|| {
                        usage(format!(
                            "--source classified: {} is missing or older than the dataset; \
                             run `evallab openings {}` first",
                            ds.derived_path(&OPENINGS).display(),
                            args.stat.dataset.display()
                        ))
                    })?
                    .lazy(),
            )
        }
    };
    let paired = args.book.pairs(ds, &opts.selection)?;
    Ok(opening_stats(ds.scan(&GAMES)?, &paired, classified, opts)?)
}
