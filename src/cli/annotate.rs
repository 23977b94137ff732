//! `evallab annotate <DATASET> [--game ID | --event REGEX] -o out.pgn`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use super::args::RunLabel;
use super::args::WritePath;
use evallab::dataset::Dataset;
use evallab::engine::analyze::resolve_label;
use evallab::metrics::relevance::symbols::{MoveScheme, PositionScheme};
use evallab::metrics::{Field, event_matches};
use evallab::render::annotate::{AnnotateOptions, listed, write_games};
use evallab::schema::{GAMES, col};
use polars::prelude::*;

/// Write games as PGN with computed NAGs and P(White) comments.
///
/// Write games as PGN with computed move NAGs ($1–$6), position NAGs ($10–$21)
/// and a `{[%eval x] P(White)=p}` comment on every move with an eval.
#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("which").required(true).args(["game", "event"])))]
pub struct Args {
    /// Dataset folder written by `evallab ingest`.
    dataset: PathBuf,
    /// One game, by games.game_id (repeatable).
    #[arg(long, value_name = "ID", allow_negative_numbers = true)]
    game: Vec<i64>,
    #[command(flatten)]
    events: super::args::EventArgs,
    #[command(flatten)]
    x05: super::args::X05Args,
    /// Position symbols: nine-wdb, nine-equal, seven-equal.
    #[arg(long, default_value = "nine-wdb")]
    position_scheme: PositionScheme,
    /// Move symbols: econ7, econ8, gen20, gen12.
    #[arg(long, default_value = "econ8")]
    move_scheme: MoveScheme,
    /// Move symbols from this engine analysis (`evallab analyze`, MultiPV ≥ 2):
    /// the best move against the second best, any other against the best.
    #[arg(long, value_name = "LABEL")]
    analysis: Option<RunLabel>,
    /// Output PGN file.
    #[arg(short, long)]
    output: WritePath,
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    let sel = super::args::selection(a.events.event.clone(), None, &[])?;
    let ds = Dataset::open(&a.dataset)?;
    super::args::check_matches(&ds, &sel, Field::Engine)?;
    check_ids(&ds, &a.game)?;
    let filter = match &a.events.event {
        Some(re) => event_matches(re),
        None => col(col::GAME_ID).is_in(
            lit(Series::new("ids".into(), a.game.clone())).implode(false),
            false,
        ),
    };
    let source = a.x05.source()?;
    let opts = AnnotateOptions {
        x05: source.x05.default,
        position_scheme: a.position_scheme,
        move_scheme: a.move_scheme,
    };
    let label = match &a.analysis {
        Some(l) => Some(resolve_label(&ds, Some(l))?),
        None => None,
    };
    let n = write_games(&ds, filter, opts, &source.x05, label.as_deref(), &a.output)?;
    eprintln!("{n} games annotated into {}", a.output.display());
    Ok(ExitCode::SUCCESS)
}

/// Every `--game` id is a game of the dataset: an unknown one is a usage
/// error naming it, not a game silently left out.
fn check_ids(ds: &Dataset, ids: &[i64]) -> anyhow::Result<()> {
    if ids.is_empty() {
        return Ok(());
    }
    let wanted = Series::new("ids".into(), ids.to_vec());
    let found = ds
        .scan(&GAMES)?
        .select([col(col::GAME_ID)])
        .filter(col(col::GAME_ID).is_in(lit(wanted).implode(false), false))
        .collect()?;
    let found: std::collections::HashSet<i64> = found
        .column(col::GAME_ID)?
        .i64()?
        .into_no_null_iter()
        .collect();
    let missing: Vec<String> = ids
        .iter()
        .filter(|id| !found.contains(id))
        .map(i64::to_string)
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    Err(super::args::usage(format!(
        "--game: no game with id {} in the dataset (ids are the games table's game_id)",
        missing.join(", ")
    )))
}

/// Writes the games of a listing (`eas --games`, `adjudicate --games`) as
/// annotated PGN (`--pgn FILE`).
pub fn write_listed(ds: &Dataset, listing: &DataFrame, path: &Path) -> anyhow::Result<()> {
    // An empty listing is an answer (no game was adjudicated wrongly), not
    // a selection that matched nothing: its PGN is empty.
    if listing.height() == 0 {
        evallab::render::format::write_text(path, "")?;
        eprintln!(
            "0 games written to {} (the listing is empty)",
            path.display()
        );
        return Ok(());
    }
    let opts = AnnotateOptions::default();
    let x05 = evallab::metrics::x05::X05::fixed(opts.x05);
    let n = write_games(ds, listed(listing)?, opts, &x05, None, path)?;
    eprintln!("{n} games written to {}", path.display());
    Ok(())
}
