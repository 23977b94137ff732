//! `evallab relevance <DATASET>`: relevance-reduced eval differences per move
//! (written as Parquet) and a per-engine summary; move symbols from a reference
//! analysis with `--analysis`.

use std::process::ExitCode;

use evallab::dataset::derived::{Stamp, write_frames};
use evallab::dataset::writer::{DatasetWriter, Open};
use evallab::engine::analyze::resolve_label;
use evallab::metrics::balance::Group;
use evallab::metrics::relevance::{CHUNK, Reference, per_move_summarised};
use evallab::schema::outputs as out;
use evallab::schema::{ANALYSIS, GAMES, MOVES, RELEVANCE_MOVES, metric};
use polars::prelude::DataFrame;

use super::args::RunLabel;
use super::args::StatArgs;
use super::args::WritePath;
use super::args::choice;

/// Relevance-reduced swings and disagreements per move, summarised per engine.
///
/// Relevance-reduced swings (own eval vs own previous eval) and disagreements
/// (own eval vs the opponent's preceding eval) for every engine move, the
/// probabilistic result and the position symbols; summarised per engine.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    x05: super::args::X05Args,
    /// Group the summary by engine (default), by event and engine, or by season and engine.
    #[arg(long, value_parser = choice::<Group>(), default_value_t = Group::Engine)]
    by: Group,
    /// Move symbols from this engine analysis (`evallab analyze`, MultiPV ≥ 2):
    /// the reference's margin over its second-best line, or the played move's
    /// loss against its best line, instead of the archived evals' swing.
    #[arg(long, value_name = "LABEL")]
    analysis: Option<RunLabel>,
    /// Where to write the per-move table [default: DATASET/derived/relevance_moves.parquet].
    #[arg(long, value_name = "FILE")]
    moves_out: Option<WritePath>,
    #[command(flatten)]
    stat: StatArgs,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    // Every option is checked before the per-move table is written.
    let (ds, sel) = args.stat.open()?;
    let source = args.x05.source()?;
    let reference = match &args.analysis {
        Some(label) => Some(Reference {
            label: resolve_label(&ds, Some(label))?,
            analysis: ds.scan(&ANALYSIS)?,
        }),
        None => None,
    };
    let fill = |sink: &mut dyn FnMut(DataFrame) -> Result<(), evallab::Error>| {
        per_move_summarised(
            (ds.scan(&GAMES)?, ds.scan(&MOVES)?),
            &sel,
            args.by,
            &source.x05,
            reference.as_ref(),
            CHUNK,
            sink,
        )
    };
    let ((rows, mut df), path) = match args.moves_out {
        Some(path) => (write_frames(&path, None, fill)?, path.0),
        // The default per-move table lives in the dataset: its writer stores it.
        None => {
            let w = DatasetWriter::open(&args.stat.dataset, "relevance", Open::Existing)
                .map_err(|e| {
                    let unwritable = e.is_unwritable();
                    let e = anyhow::Error::from(e);
                    if unwritable {
                        e.context("the per-move table goes into the dataset unless --moves-out FILE names another place")
                    } else {
                        e
                    }
                })?;
            let stamp = Stamp::new("relevance", &w);
            let out = w.store_derived_batches(&RELEVANCE_MOVES, &stamp, fill)?;
            (out, w.derived_path(&RELEVANCE_MOVES))
        }
    };
    eprintln!("per-move table: {rows} rows in {}", path.display());
    if let Some(note) = source.defaults_note(df.column(metric::ENGINE)?.str()?.iter().flatten()) {
        eprintln!("{note}");
    }
    let output = match reference {
        Some(_) => &out::RELEVANCE_ANALYSIS,
        None => &out::RELEVANCE,
    };
    args.stat.out.write(&mut df, output)?;
    Ok(ExitCode::SUCCESS)
}
