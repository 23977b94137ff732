//! `evallab openings DATASET [--table DIR]`: each game's opening by position,
//! stored as the dataset's derived table `openings`.

use std::path::PathBuf;
use std::process::ExitCode;

use evallab::dataset::derived::Stamp;
use evallab::dataset::writer::{DatasetWriter, Open};
use evallab::metrics::openings::{OpeningTable, classify, summary};
use evallab::schema::outputs as out;
use evallab::schema::{GAMES, MOVES, OPENINGS};
use polars::prelude::IntoLazy;

use super::args::OutputArgs;
use super::args::{ReadPath, usage};

/// Classify each game's opening by position, with an opening table.
///
/// Each game gets the line of the table whose final position it reaches
/// last, in any move order (by the Polyglot position keys), and the ply
/// where it does: the table's README's rule, play the game backwards until
/// a named position is found. The ECO and Opening tags stay as written. A Chess960 game
/// that reaches no line is named by its start position's Scharnagl number
/// (`Chess960 SP 518 RNBQKBNR`; each side's in `chess960_sp_white` and
/// `chess960_sp_black`). The per-game
/// table is stored in DATASET/derived/openings.parquet (`evallab schema
/// openings`); the counts are printed.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Dataset folder written by `evallab ingest`.
    dataset: PathBuf,
    /// The opening table: a folder of TSV files (eco, name, pgn), as the
    /// Lichess chess-openings repository's a.tsv … e.tsv, or one such file.
    /// The default, relative to the current folder, is where a checkout of
    /// evallab finds the project's copy (run from the checkout).
    #[arg(long, value_name = "DIR", default_value = DEFAULT_TABLE)]
    table: ReadPath,
    #[command(flatten)]
    out: OutputArgs,
}

/// Where the project's tests, CI and pipelines find the table (it is not
/// shipped: evallab's tree holds no copy).
const DEFAULT_TABLE: &str = "../shared/openings";

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    a.out.check()?;
    if !a.table.exists() {
        return Err(usage(format!(
            "no opening table at {} ({}): pass --table DIR, a folder with the a.tsv … e.tsv of \
             Lichess's chess-openings (CC0): \
             git clone https://github.com/lichess-org/chess-openings",
            a.table.display(),
            std::path::absolute(&*a.table)
                .unwrap_or_else(|_| a.table.to_path_buf())
                .display()
        )));
    }
    let table = OpeningTable::read(&a.table)?;
    let w = DatasetWriter::open(&a.dataset, "openings", Open::Existing)?;
    let df = classify(w.scan(&GAMES)?, w.scan(&MOVES)?, &table)?;
    w.store_derived(&OPENINGS, &df, &Stamp::new("openings", &w))?;
    eprintln!(
        "{} table lines; per-game openings in {}",
        table.lines.len(),
        w.derived_path(&OPENINGS).display()
    );
    let mut counts = summary(df.lazy()).collect()?;
    a.out.write(&mut counts, &out::OPENING_CLASSIFICATION)?;
    Ok(ExitCode::SUCCESS)
}
