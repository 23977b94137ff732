//! `evallab report <DATASET> -o DIR`: a static HTML report.

use std::cell::RefCell;
use std::path::PathBuf;
use std::process::ExitCode;

use super::args::choice;
use super::args::{ReadPath, WritePath, regex_value};
use super::progress::Progress;
use evallab::dataset::Dataset;
use evallab::metrics::Field;
use evallab::metrics::difficulty::model::RatingModel;
use evallab::metrics::eas::stored_labels;
use evallab::metrics::ratings::fit::Solver;
use evallab::render::report::{ReportOptions, report};
use evallab::schema::GAMES;

/// Write DIR/index.html: one self-contained HTML page, a section per event.
///
/// Write DIR/index.html: one self-contained page (inline SVG, no network): a
/// row per event (winner, score, Elo difference, draws, balances, EAS ranks),
/// the ratings of all events together, the WDL model, what the statistics
/// leave out or count twice (rejected and repeated games); then per event its
/// standings, crosstable, ratings, game pairs, openings, win-draw balance,
/// calibration curves, x05 three ways, EAS components, relevance summary,
/// adjudication rules replayed and the eval trajectories of selected games.
/// Long tables and many charts are folded, a click away.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Dataset folder written by `evallab ingest`.
    dataset: PathBuf,
    /// Output folder (index.html is written there).
    #[arg(short, long)]
    output: WritePath,
    #[command(flatten)]
    events: super::args::EventArgs,
    /// Games whose eval trajectories are drawn, per event. Formerly `--games`.
    #[arg(long, value_name = "N", default_value_t = 2)]
    trajectories: usize,
    /// The relevance summary's x05 (as `relevance --x05`).
    #[command(flatten)]
    x05: super::args::X05Args,
    /// Merge player names matching REGEX into NAME in the relevance summary,
    /// as `calibrate --family` did for the x05 file (repeatable).
    #[arg(long, value_name = "REGEX=NAME")]
    family: Vec<String>,
    /// Draw each selected game's expected puzzle rating under its ease, from
    /// a model of `evallab difficulty --save-model`.
    #[arg(long, value_name = "FILE")]
    rating_model: Option<ReadPath>,
    /// How the ratings sections solve the rating equations, as `ratings
    /// --solver`: `ordo` prints Ordo's own figures, also where its search
    /// stops short of the root; it is slow on a report of the whole archive.
    #[arg(long, value_parser = choice::<Solver>(), default_value_t = Solver::Newton)]
    solver: Solver,
    /// Score the WDL model and the x05 curves on these events' positions
    /// (regex), fitted on --wdl-train's, as `wdl --validate` (a report section).
    #[arg(long, value_name = "REGEX", requires = "wdl_train", value_parser = regex_value)]
    wdl_test: Option<String>,
    /// The training events of --wdl-test (regex).
    #[arg(long, value_name = "REGEX", requires = "wdl_test", value_parser = regex_value)]
    wdl_train: Option<String>,
    /// The pairs and openings sections' book (as `pairs --book`).
    #[command(flatten)]
    book: super::args::BookArgs,
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    let sel = super::args::selection(a.events.event, None, &a.family)?;
    let source = a.x05.source()?;
    let book = a.book.read()?;
    let ds = Dataset::open(&a.dataset)?;
    super::args::check_matches(&ds, &sel, Field::Engine)?;
    let (labels, _) = stored_labels(&ds, false)?;
    // A bar on a terminal (JSON lines for the Python API): the whole TCEC
    // archive's report takes half a minute.
    let bar = RefCell::new(Progress::new(
        false,
        "steps",
        "{elapsed_precise} [{bar:30}] {pos}/{len} steps: {msg}",
    ));
    let progress = |done: usize, total: usize, what: &str| {
        bar.borrow_mut()
            .update(done as u64, total as u64, || what.to_string());
    };
    let html = report(
        &ds,
        &labels,
        &ReportOptions {
            event: sel.event.clone(),
            games_per_event: a.trajectories,
            x05: source.x05.clone(),
            families: sel.families.clone(),
            rating_model: a
                .rating_model
                .as_deref()
                .map(RatingModel::load)
                .transpose()?,
            solver: a.solver,
            wdl_split: a.wdl_train.zip(a.wdl_test),
            book,
        },
        &progress,
    )?;
    bar.into_inner().finish();
    // The relevance section's players: those whose x05 it uses.
    let players = sel.players(ds.scan(&GAMES)?)?;
    if let Some(note) = source.defaults_note(players.iter().map(String::as_str)) {
        eprintln!("{note}");
    }
    let path = a.output.join("index.html");
    evallab::render::format::write_text(&path, &html)?;
    eprintln!("report: {} ({} KB)", path.display(), html.len() / 1024);
    Ok(ExitCode::SUCCESS)
}
