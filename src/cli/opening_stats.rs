//! `evallab opening-stats <DATASET>`: results per opening.

use std::process::ExitCode;

use evallab::dataset::Dataset;
use evallab::dataset::derived::Stamp;
use evallab::metrics::openings::stats::{By, OpeningStatsOptions, opening_stats};
use evallab::schema::{GAMES, OPENINGS};
use polars::prelude::IntoLazy;

use super::args::choice;
use super::args::{StatArgs, usage};

/// Where a game's opening comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Source {
    /// The games' ECO and Opening tags, as written.
    Tags,
    /// The derived `openings` table of `evallab openings DATASET --table DIR`
    /// (the deepest opening-table line the game reaches, by position).
    Classified,
}

/// Results per opening: games, White's score, draws, decisive games; per engine.
///
/// One row per opening (ECO and name): finished games, White wins, draws,
/// Black wins, White's score % and the draw % with 95 % Wilson intervals,
/// and the decisive %; most played first. `--by engine`: one row per
/// opening and engine with its games, W/D/L, points and score % (with its
/// interval). Games without an opening form one row with an empty ECO.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// One row per opening, or per opening and engine.
    #[arg(long, value_parser = choice::<By>(), default_value_t = By::Opening)]
    by: By,
    /// The opening of a game: its tags, or the `openings` table.
    #[arg(long, value_enum, default_value_t = Source::Tags)]
    source: Source,
    #[command(flatten)]
    stat: StatArgs,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    args.stat.run(|ds, selection| {
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
        Source::Tags => None,
        Source::Classified => {
            let table = ds.read_derived(&OPENINGS, &Stamp::new("openings", ds))?;
            Some(
                table
                    .ok_or_else(|| {
                        usage(format!(
                            "--source classified: {} is missing or older than the dataset; \
                             run `evallab openings {} --table DIR` first",
                            ds.derived_path(&OPENINGS).display(),
                            args.stat.dataset.display()
                        ))
                    })?
                    .lazy(),
            )
        }
    };
    Ok(opening_stats(ds.scan(&GAMES)?, classified, opts)?)
}
