//! `evallab report <DATASET> -o DIR`: a static HTML report.

use std::path::PathBuf;
use std::process::ExitCode;

use evallab::dataset::Dataset;
use evallab::metrics::eas::stored_labels;
use evallab::metrics::{Families, select_events};
use evallab::render::report::{ReportOptions, report};
use evallab::schema::{GAMES, MOVES, col};
use polars::prelude::col as pcol;

/// Write DIR/index.html: one self-contained HTML page, a section per event.
///
/// Write DIR/index.html: one self-contained page (inline SVG, no network) with,
/// per event, the win-draw balance, calibration curves, EAS components,
/// relevance summary and the eval trajectories of selected games.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Dataset folder written by `evallab ingest`.
    dataset: PathBuf,
    /// Output folder (index.html is written there).
    #[arg(short, long)]
    output: PathBuf,
    /// Only events matching this regex.
    #[arg(long, value_name = "REGEX")]
    event: Option<String>,
    /// Games whose eval trajectories are drawn, per event.
    #[arg(long, default_value_t = 2)]
    games: usize,
    /// x_0_5 (pawns) of the relevance summary.
    #[arg(long, default_value_t = 0.62, conflicts_with = "x05_from", value_parser = super::positive_pawns)]
    x05: f64,
    /// Per-engine x05 from `evallab calibrate --toml FILE` for the relevance summary.
    #[arg(long, value_name = "FILE")]
    x05_from: Option<PathBuf>,
    /// Merge player names matching REGEX into NAME in the relevance summary,
    /// as `calibrate --family` did for the x05 file (repeatable).
    #[arg(long, value_name = "REGEX=NAME")]
    family: Vec<String>,
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    if let Some(re) = &a.event {
        regex::Regex::new(re)
            .map_err(|e| super::usage(format!("--event: bad regex `{re}`: {e}")))?;
    }
    let source = super::x05_source(a.x05_from.as_deref(), a.x05)?;
    let families = super::families(&a.family)?;
    let ds = Dataset::open(&a.dataset)?;
    let (labels, _) = stored_labels(&ds, false)?;
    let html = report(
        &ds,
        &labels,
        &ReportOptions {
            event: a.event.clone(),
            games_per_event: a.games,
            x05: source.x05.clone(),
            families: families.clone(),
        },
    )?;
    if let Some(note) = source.defaults_note(
        report_engines(&ds, a.event.as_deref(), &families)?
            .iter()
            .map(String::as_str),
    ) {
        eprintln!("{note}");
    }
    let path = a.output.join("index.html");
    evallab::render::format::write_text(&path, &html)?;
    eprintln!("report: {} ({} KB)", path.display(), html.len() / 1024);
    Ok(ExitCode::SUCCESS)
}

/// The players of the selected events (whose x05 the relevance section uses).
fn report_engines(
    ds: &Dataset,
    event: Option<&str>,
    families: &Families,
) -> anyhow::Result<Vec<String>> {
    let (games, _) = select_events(ds.scan(&GAMES)?, ds.scan(&MOVES)?, event);
    let df = games
        .select([
            families.apply(pcol(col::WHITE)).alias(col::WHITE),
            families.apply(pcol(col::BLACK)).alias(col::BLACK),
        ])
        .collect()?;
    let mut names: Vec<String> = [col::WHITE, col::BLACK]
        .into_iter()
        .map(|c| {
            Ok(df
                .column(c)?
                .str()?
                .iter()
                .flatten()
                .map(str::to_string)
                .collect::<Vec<_>>())
        })
        .collect::<anyhow::Result<Vec<_>>>()?
        .concat();
    names.sort();
    names.dedup();
    Ok(names)
}
