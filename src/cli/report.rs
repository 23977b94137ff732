//! `evallab report <DATASET> -o DIR`: a static HTML report.

use std::path::PathBuf;
use std::process::ExitCode;

use evallab::dataset::Dataset;
use evallab::report::{ReportOptions, report};

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
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    if let Some(re) = &a.event {
        regex::Regex::new(re)?;
    }
    let ds = Dataset::open(&a.dataset)?;
    let html = report(
        &ds,
        &ReportOptions {
            event: a.event.clone(),
            games_per_event: a.games,
        },
    )?;
    let path = a.output.join("index.html");
    evallab::output::write_text(&path, &html)?;
    eprintln!("report: {} ({} KB)", path.display(), html.len() / 1024);
    Ok(ExitCode::SUCCESS)
}
