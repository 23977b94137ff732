//! `evallab relevance <DATASET>`: relevance-reduced eval differences per move
//! (written as Parquet) and a per-engine summary; move symbols from a reference
//! analysis with `--analysis`.

use std::path::PathBuf;
use std::process::ExitCode;

use evallab::analyze::resolve_label;
use evallab::dataset::Dataset;
use evallab::dataset::lock::DatasetLock;
use evallab::metrics::relevance::{
    Reference, X05, per_move_chunked, summary_partial, summary_total,
};
use evallab::metrics::select_events;
use evallab::render::format;
use evallab::schema::{ANALYSIS, GAMES, MOVES, RELEVANCE_MOVES, derived_file};
use polars::prelude::{IntoLazy, UnionArgs, concat};

use super::{By, FilterArgs, OutputArgs};

/// Relevance-reduced swings (own eval vs own previous eval) and disagreements
/// (own eval vs the opponent's preceding eval) for every engine move, the
/// probabilistic result and the position symbols; summarised per engine.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Dataset folder written by `evallab ingest`.
    dataset: PathBuf,
    /// x_0_5 in pawns for every engine.
    #[arg(long, default_value_t = 0.62, conflicts_with = "x05_from", value_parser = super::positive_pawns)]
    x05: f64,
    /// Per-engine x05 from `evallab calibrate --toml FILE` (its [x05] table;
    /// engines missing there use 0.62).
    #[arg(long, value_name = "FILE")]
    x05_from: Option<PathBuf>,
    /// Group the summary by engine (default) or by event and engine.
    #[arg(long, value_enum, default_value_t = By::Engine)]
    by: By,
    #[command(flatten)]
    filter: FilterArgs,
    /// Move symbols from this engine analysis (`evallab analyze`, MultiPV ≥ 2):
    /// the reference's margin over its second-best line, or the played move's
    /// loss against its best line, instead of the archived evals' swing.
    #[arg(long, value_name = "LABEL")]
    analysis: Option<String>,
    /// Where to write the per-move table [default: DATASET/derived/relevance_moves.parquet].
    #[arg(long, value_name = "FILE")]
    moves_out: Option<PathBuf>,
    #[command(flatten)]
    out: OutputArgs,
}

/// Reads the `[x05]` table written by `calibrate --toml` (by engine only).
pub fn read_x05(path: &PathBuf, default: f64) -> anyhow::Result<X05> {
    let text = std::fs::read_to_string(path).map_err(|e| evallab::Error::io(path, e))?;
    let bad = |what: String| super::input_data(format!("{}: {what}", path.display()));
    let doc: toml::Table = text.parse().map_err(|e| bad(format!("not TOML: {e}")))?;
    let table = doc
        .get("x05")
        .and_then(|v| v.as_table())
        .ok_or_else(|| bad("no [x05] table".into()))?;
    let mut per_engine = Vec::new();
    for (engine, v) in table {
        let x = v
            .as_float()
            .or_else(|| v.as_integer().map(|i| i as f64))
            .ok_or_else(|| {
                bad(format!(
                    "[x05] {engine:?} is not a number (written by `calibrate --by engine`?)"
                ))
            })?;
        if x <= 0.0 {
            return Err(bad(format!("[x05] {engine:?} = {x} is not positive")));
        }
        per_engine.push((engine.clone(), x));
    }
    Ok(X05 {
        default,
        per_engine,
    })
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    // Every option is checked before the per-move table is written.
    if args.by == By::SeasonEngine {
        return Err(super::usage(
            "relevance groups by engine or by event,engine",
        ));
    }
    args.out.check()?;
    let ds = Dataset::open(&args.dataset)?;
    let x05 = match &args.x05_from {
        Some(p) => read_x05(p, args.x05)?,
        None => X05 {
            default: args.x05,
            per_engine: Vec::new(),
        },
    };
    let opts = args.filter.options()?;
    let reference = match &args.analysis {
        Some(label) => Some(Reference {
            label: resolve_label(&ds, Some(label))?,
            analysis: ds.scan(&ANALYSIS)?,
        }),
        None => None,
    };
    let with_reference = reference.is_some();
    let (games, moves) = select_events(ds.scan(&GAMES)?, ds.scan(&MOVES)?, opts.event.as_deref());
    // The default per-move table lives in the dataset: write it as its writer.
    let _lock = match args.moves_out {
        None => Some(DatasetLock::acquire(&args.dataset, "relevance")?),
        Some(_) => None,
    };
    let path = args
        .moves_out
        .unwrap_or_else(|| args.dataset.join(derived_file(&RELEVANCE_MOVES)));
    // Written and summed a chunk of games at a time: memory holds one
    // chunk's rows, not the archive's.
    let by_event = args.by == By::EventEngine;
    let mut partials = Vec::new();
    let rows = format::write_parquet_batches(&path, |sink| {
        per_move_chunked(
            games,
            moves,
            &opts.families,
            &x05,
            reference.as_ref(),
            opts.engine.as_deref(),
            &mut |chunk| {
                partials.push(
                    summary_partial(chunk.clone().lazy(), by_event, with_reference).collect()?,
                );
                sink(chunk)
            },
        )
    })?;
    eprintln!("per-move table: {rows} rows in {}", path.display());
    let partials = concat(
        partials.into_iter().map(IntoLazy::lazy).collect::<Vec<_>>(),
        UnionArgs::default(),
    )?;
    let mut df = summary_total(partials, by_event, with_reference).collect()?;
    args.out.write(&mut df)?;
    Ok(ExitCode::SUCCESS)
}
