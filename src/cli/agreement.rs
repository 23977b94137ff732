//! `evallab agreement <DATASET> [--analysis LABEL]`: the archive against a
//! reference analysis, per engine.

use std::process::ExitCode;

use evallab::engine::analyze::resolve_label;
use evallab::metrics::agreement::query::{selected_per_move, summary};
use evallab::metrics::balance::{BalanceOptions, Group};
use evallab::render::format::{self, Format};
use evallab::schema::outputs as out;
use evallab::schema::{ANALYSIS, GAMES, MOVES};
use polars::prelude::IntoLazy;

use super::args::RunLabel;
use super::args::StatArgs;
use super::args::WritePath;
use super::args::choice;

/// Agreement of the archived games with a reference analysis, per engine.
///
/// Agreement of the archived games with a reference analysis (`evallab
/// analyze`), per engine (the mover): the archived eval against the
/// reference's (mean |Δ| in pawns, correlation), the share of played moves
/// that are the reference's first choice, and the played move's mean loss
/// (centipawns) and lichess-style accuracy. See docs/definitions/agreement.md.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The analysis label [default: the dataset's only analysis].
    #[arg(long, value_name = "LABEL")]
    analysis: Option<RunLabel>,
    /// Group by engine, by event and engine (default), or by season and engine.
    #[arg(long, value_parser = choice::<Group>(), default_value_t = Group::EventEngine)]
    by: Group,
    /// Also write the per-position table to FILE (Parquet).
    #[arg(long, value_name = "FILE")]
    moves_out: Option<WritePath>,
    #[command(flatten)]
    stat: StatArgs,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    args.stat.run(&out::AGREEMENT, |ds, selection| {
        let opts = BalanceOptions {
            group: args.by,
            selection,
        };
        let label = resolve_label(ds, args.analysis.as_deref())?;
        let lf = selected_per_move(
            ds.scan(&GAMES)?,
            ds.scan(&MOVES)?,
            ds.scan(&ANALYSIS)?,
            &label,
            &opts.selection,
        )?;
        let mut per_move_df = lf.collect()?;
        if let Some(path) = &args.moves_out {
            format::write(&mut per_move_df, Format::Parquet, Some(path))?;
        }
        Ok(summary(per_move_df.lazy(), &opts.keys()).collect()?)
    })
}
