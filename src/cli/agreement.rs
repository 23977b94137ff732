//! `evallab agreement <DATASET> [--analysis LABEL]`: the archive against a
//! reference analysis, per engine.

use std::path::PathBuf;
use std::process::ExitCode;

use evallab::dataset::Dataset;
use evallab::engine::analyze::resolve_label;
use evallab::metrics::agreement::query::{selected_per_move, summary};
use evallab::metrics::balance::{BalanceOptions, Group};
use evallab::render::format::{self, Format};
use evallab::schema::{ANALYSIS, GAMES, MOVES};
use polars::prelude::IntoLazy;

use super::args::choice;
use super::args::{OutputArgs, SelectionArgs};

/// Agreement of the archived games with a reference analysis, per engine.
///
/// Agreement of the archived games with a reference analysis (`evallab
/// analyze`), per engine (the mover): the archived eval against the
/// reference's (mean |Δ| in pawns, correlation), the share of played moves
/// that are the reference's first choice, and the played move's mean loss
/// (centipawns) and lichess-style accuracy. See docs/definitions/agreement.md.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Dataset folder written by `evallab ingest`, analysed by `evallab analyze`.
    dataset: PathBuf,
    /// The analysis label [default: the dataset's only analysis].
    #[arg(long, value_name = "LABEL")]
    analysis: Option<String>,
    /// Group by engine, by event and engine (default), or by season and engine.
    #[arg(long, value_parser = choice::<Group>(), default_value_t = Group::EventEngine)]
    by: Group,
    #[command(flatten)]
    select: SelectionArgs,
    /// Also write the per-position table to FILE (Parquet).
    #[arg(long, value_name = "FILE")]
    moves_out: Option<PathBuf>,
    #[command(flatten)]
    out: OutputArgs,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let opts = BalanceOptions {
        group: args.by,
        selection: args.select.selection()?,
    };
    args.out.check()?;
    let ds = Dataset::open(&args.dataset)?;
    let label = resolve_label(&ds, args.analysis.as_deref())?;
    let lf = selected_per_move(
        ds.scan(&GAMES)?,
        ds.scan(&MOVES)?,
        ds.scan(&ANALYSIS)?,
        &label,
        &opts.selection,
    );
    let mut per_move_df = lf.collect()?;
    if let Some(path) = &args.moves_out {
        format::write(&mut per_move_df, Format::Parquet, Some(path))?;
    }
    let mut df = summary(per_move_df.lazy(), &opts.keys()).collect()?;
    args.out.write(&mut df)?;
    Ok(ExitCode::SUCCESS)
}
