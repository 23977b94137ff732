//! `evallab annotate <DATASET> [--game ID | --event REGEX] -o out.pgn`.

use evallab::metrics::matches;
use std::path::PathBuf;
use std::process::ExitCode;

use evallab::analyze::resolve_label;
use evallab::dataset::Dataset;
use evallab::metrics::relevance::math::{MoveScheme, PositionScheme};
use evallab::render::annotate::{AnnotateOptions, references, write_pgn};
use evallab::schema::{GAMES, MOVES, col};
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
    /// Every game of the events matching this regex.
    #[arg(long, value_name = "REGEX")]
    event: Option<String>,
    /// x_0_5 in pawns.
    #[arg(long, default_value_t = 0.62, value_parser = super::positive_pawns)]
    x05: f64,
    /// Position symbols: nine-wdb, nine-equal, seven-equal.
    #[arg(long, default_value = "nine-wdb")]
    position_scheme: PositionScheme,
    /// Move symbols: econ7, econ8, gen20, gen12.
    #[arg(long, default_value = "econ8")]
    move_scheme: MoveScheme,
    /// Move symbols from this engine analysis (`evallab analyze`, MultiPV ≥ 2):
    /// the best move against the second best, any other against the best.
    #[arg(long, value_name = "LABEL")]
    analysis: Option<String>,
    /// Output PGN file.
    #[arg(short, long)]
    output: PathBuf,
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    if let Some(re) = &a.event {
        regex::Regex::new(re)
            .map_err(|e| super::usage(format!("--event: bad regex `{re}`: {e}")))?;
    }
    let ds = Dataset::open(&a.dataset)?;
    let filter = match &a.event {
        Some(re) => matches(col(col::EVENT), re.as_str()),
        None => col(col::GAME_ID).is_in(
            lit(Series::new("ids".into(), a.game.clone())).implode(false),
            false,
        ),
    };
    let opts = AnnotateOptions {
        x05: a.x05,
        position_scheme: a.position_scheme,
        move_scheme: a.move_scheme,
    };
    let label = match &a.analysis {
        Some(l) => Some(resolve_label(&ds, Some(l))?),
        None => None,
    };
    let n = write_games(&ds, filter, opts, label.as_deref(), &a.output)?;
    eprintln!("{n} games annotated into {}", a.output.display());
    Ok(ExitCode::SUCCESS)
}

/// Writes the games matching `filter` (with their moves) as annotated PGN;
/// returns how many.
pub fn write_games(
    ds: &Dataset,
    filter: Expr,
    opts: AnnotateOptions,
    analysis: Option<&str>,
    path: &std::path::Path,
) -> anyhow::Result<usize> {
    let games = ds
        .scan(&GAMES)?
        .filter(filter)
        .sort([col::GAME_ID], SortMultipleOptions::default())
        .collect()?;
    if games.height() == 0 {
        return Err(super::usage("no game matches the selection"));
    }
    let ids = games.column(col::GAME_ID)?.as_materialized_series().clone();
    let moves = ds
        .scan(&MOVES)?
        .select([
            col(col::GAME_ID),
            col(col::PLY),
            col(col::MOVE_NUMBER),
            col(col::SIDE),
            col(col::SAN),
            col(col::EVAL_KIND),
            col(col::EVAL_CP),
            col(col::MATE),
        ])
        .filter(col(col::GAME_ID).is_in(lit(ids).implode(false), false))
        .sort([col::GAME_ID, col::PLY], SortMultipleOptions::default())
        .collect()?;
    let refs = match analysis {
        Some(label) => Some(references(ds, &games, label)?),
        None => None,
    };
    let pgn = write_pgn(&games, &moves, opts, refs.as_ref())?;
    evallab::render::format::write_text(path, &pgn)?;
    Ok(games.height())
}
