//! `evallab pairs <DATASET>`: colour-swapped game pairs, their pentanomial
//! statistics per engine pair, and the decisive openings.

use std::process::ExitCode;

use evallab::metrics::balance::Group;
use evallab::metrics::pairs::math::{Sprt, SprtModel};
use evallab::metrics::pairs::{PairsOptions, openings, pentanomial, unpaired};
use evallab::schema::outputs as out;
use evallab::schema::{MOVES, col};
use polars::prelude::*;

use super::args::choice;
use super::args::{BookArgs, StatArgs, usage};

/// Pentanomial statistics of colour-swapped game pairs per engine pair.
///
/// A pair is one opening (the position after the book moves) played twice by
/// the same two engines with the colours swapped: TCEC's two games of each
/// opening, fastchess's and cutechess's game pairs. Per engine pair (from the view of
/// the engine first by name, or of the `--engine` match): the pair counts
/// [LL, LD, DD+WL, WD, WW], score, Elo and normalized Elo with 95 %
/// intervals from the pairs, the trinomial error of the same games for
/// comparison, and with `--sprt` the GSPRT log-likelihood ratio (fastchess's
/// model). Games in no pair are counted per engine pair and summed on stderr
/// (`--unpaired` lists them). docs/definitions/pairs.md.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// One row per engine pair and event, season ("Season N" in the event
    /// name), or over all events.
    /// (The listings, --openings and --unpaired, have a row per pair or
    /// game: no --by.)
    #[arg(
        long,
        value_parser = choice::<Group>(),
        default_value_t = Group::EventEngine,
        conflicts_with_all = ["openings", "unpaired"]
    )]
    by: Group,
    /// The LLR of a GSPRT of H0 elo = ELO0 against H1 elo = ELO1, with error
    /// rates ALPHA and BETA (0.05 each when left out), e.g. `--sprt 0,5`.
    #[arg(long, value_name = "ELO0,ELO1[,ALPHA,BETA]")]
    sprt: Option<String>,
    /// The Elo scale of --sprt's bounds.
    #[arg(long, value_parser = choice::<SprtModel>(), default_value_t = SprtModel::Normalized)]
    sprt_model: SprtModel,
    /// List the decisive openings (a pair won 2–0, a "reverse kill", or
    /// 1½–½) and the busted ones (1–1, each engine winning with the same
    /// colour) instead of the summary.
    #[arg(long, conflicts_with = "unpaired")]
    openings: bool,
    /// List the games in no pair, with the reason, instead of the summary.
    #[arg(long)]
    unpaired: bool,
    #[command(flatten)]
    book: BookArgs,
    #[command(flatten)]
    stat: StatArgs,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let sprt = args
        .sprt
        .as_deref()
        .map(|s| Sprt::parse(s, args.sprt_model).map_err(|e| usage(format!("--sprt: {e}"))))
        .transpose()?;
    let (ds, selection) = args.stat.open()?;
    let opts = PairsOptions {
        group: args.by,
        selection,
        sprt,
    };
    let paired = args.book.pairs(&ds, &opts.selection)?;
    let reasons = paired
        .unpaired
        .clone()
        .lazy()
        .group_by([col(col::REASON)])
        .agg([len().alias("games")])
        .sort([col::REASON], SortMultipleOptions::default())
        .collect()?;
    eprintln!(
        "{} pairs ({} games), {} games in no pair",
        paired.pairs.height(),
        2 * paired.pairs.height(),
        paired.unpaired.height()
    );
    let (r, n) = (
        reasons.column(col::REASON)?.str()?,
        reasons.column("games")?.u32()?,
    );
    for (r, n) in r.iter().zip(n.iter()) {
        eprintln!("  {:>6}  {}", n.unwrap_or(0), r.unwrap_or(""));
    }
    let (mut df, output) = if args.openings {
        (
            openings(&paired, ds.scan(&MOVES)?, &opts)?,
            &out::PAIRS_OPENINGS,
        )
    } else if args.unpaired {
        (unpaired(&paired, &opts)?, &out::PAIRS_UNPAIRED)
    } else {
        (pentanomial(&paired, &opts)?, &out::PAIRS)
    };
    args.stat.out.write(&mut df, output)?;
    Ok(ExitCode::SUCCESS)
}
