//! `analyze`: re-analysis of a dataset's positions by a pool of UCI engines
//! (`analysis.md` §1).
//!
//! Each worker owns one engine process and takes whole games: the game's
//! positions are analysed in order after `ucinewgame`, so the hash carries
//! over from move to move as it did for the player, and with a node or depth
//! limit and `Threads=1` the numbers do not depend on which process took the
//! game. Results are committed in chunks (a part per table, then the
//! manifest) so that a killed run keeps what it finished and a rerun resumes:
//! games already in the label's committed parts are not analysed again.
//!
//! Engines are untrusted: a crash, a search past `timeout` or garbage (an
//! unparsable line, an illegal move) kills the process; the game is retried
//! once on a fresh one, and positions that fail again go to
//! `analysis_failures` with the reason.

pub mod rows;

use arrow::record_batch::RecordBatch;
use evallab_uci::{Engine, Limit};
use shakmaty::Chess;

use crate::Error;
use crate::dataset::{Dataset, EngineRun};
use crate::engine::pool::{GameResult, Job};
use crate::engine::positions::{self, GameTask, Selection};
use crate::engine::reuse::{self, Reused};
use crate::engine::{RunOptions, Stage, StageReport, check_reserved, options_sent, stopped};
use crate::schema::{ANALYSIS, AnalysisBuilder, Table};
use rows::Line;

/// Options of an analysis run.
#[derive(Debug, Clone)]
pub struct AnalyzeOptions {
    /// The engine, jobs, label (`None`: `<engine file name>-<limit>-mpv<K>`),
    /// shard, timeouts.
    pub run: RunOptions,
    /// Extra `setoption`s, sent after Threads, Hash and MultiPV.
    pub engine_options: Vec<(String, String)>,
    pub limit: Limit,
    pub multipv: u32,
    /// Keep every completed depth, not only the final lines.
    pub all_depths: bool,
    pub threads: u32,
    pub hash_mb: u32,
    pub selection: Selection,
    /// Copy the rows of positions already analysed under the same settings
    /// ([`reuse`]); not a setting: a copied row means what a searched one does.
    pub reuse: bool,
}

/// The `analyze` stage: one search per position, its lines kept.
#[derive(Debug, Clone)]
pub struct Analyze {
    opts: AnalyzeOptions,
}

impl Analyze {
    /// Checks what can be checked before any engine runs.
    pub fn new(opts: AnalyzeOptions) -> Result<Analyze, Error> {
        check_reserved(&opts.engine_options)?;
        if opts.multipv == 0 || opts.run.jobs == 0 || opts.threads == 0 {
            return Err(Error::Usage(
                "--multipv, --jobs and --threads must be at least 1".into(),
            ));
        }
        // A shard is written without the lock from a fixed list of games;
        // reused rows are committed by the lock's holder.
        if opts.reuse && opts.run.shard.is_some() {
            return Err(Error::Usage(
                "--reuse cannot write into a shard (--shard); reuse when analysing the dataset itself".into(),
            ));
        }
        Ok(Analyze { opts })
    }
}

impl Stage for Analyze {
    const NAME: &'static str = "analyze";
    const TABLE: &'static Table = &ANALYSIS;

    fn run_options(&self) -> &RunOptions {
        &self.opts.run
    }

    fn options_sent(&self) -> Vec<(String, String)> {
        let o = &self.opts;
        options_sent(o.threads, o.hash_mb, o.multipv, &o.engine_options)
    }

    fn settings(&self) -> serde_json::Value {
        let o = &self.opts;
        serde_json::json!({
            "limit": o.limit.to_string(),
            "multipv": o.multipv,
            "all_depths": o.all_depths,
            "plies": o.selection.plies_text(),
            "skip_book": o.selection.skip_book,
        })
    }

    fn default_label(&self, _fingerprint: &str) -> String {
        let o = &self.opts;
        let stem = o
            .run
            .engine
            .file_stem()
            .map_or("engine".into(), |s| s.to_string_lossy().into_owned());
        format!(
            "{stem}-{}-mpv{}",
            o.limit.to_string().replace(' ', ""),
            o.multipv
        )
    }

    fn games(&self) -> crate::metrics::Selection {
        self.opts.selection.games.clone()
    }

    fn select(&mut self, ds: &Dataset) -> Result<Vec<GameTask>, Error> {
        positions::select(ds, &self.opts.selection)
    }

    fn reuse(
        &self,
        ds: &Dataset,
        run: &EngineRun,
        todo: &mut [GameTask],
    ) -> Result<Option<Reused>, Error> {
        if !self.opts.reuse {
            return Ok(None);
        }
        reuse::find(ds, run, todo)
    }

    fn tally(&self, lines: &Vec<Line>, report: &mut StageReport) {
        report.rows += lines.len() as u64;
        for l in lines.iter().filter(|l| l.is_final && l.multipv == 1) {
            if let Some(nps) = l.nps {
                report.engine_nps_sum += nps as f64;
                report.engine_nps_count += 1;
            }
        }
    }

    fn rows(&self, label: &str, results: &[GameResult<Vec<Line>>]) -> RecordBatch {
        let mut a = AnalysisBuilder::default();
        for r in results {
            for (ply, turn, lines) in &r.out {
                a.push(r.game_id, *ply, label, *turn, lines);
            }
        }
        a.finish()
    }
}

impl Job for Analyze {
    type Out = Vec<Line>;

    fn position(
        &self,
        engine: &mut Engine,
        task: &GameTask,
        ply: u32,
        pos: &Chess,
    ) -> Result<Vec<Line>, String> {
        let o = &self.opts;
        let moves = task.moves_before(ply);
        let search = engine
            .search(task.start_fen.as_deref(), moves, o.limit, o.run.timeout)
            .map_err(|e| e.to_string())?;
        if search.stopped {
            return Err(stopped(o.run.timeout));
        }
        rows::lines(&search, pos, o.all_depths)
    }
}

/// The analysis a statistic reads: the one named, or the dataset's only one.
pub fn resolve_label(ds: &Dataset, label: Option<&str>) -> Result<String, Error> {
    let labels: Vec<&str> = ds
        .manifest()
        .analyses
        .iter()
        .filter(|a| a.has_table(&ANALYSIS))
        .map(|a| a.label.as_str())
        .collect();
    match (label, labels.as_slice()) {
        (Some(l), _) if labels.contains(&l) => Ok(l.to_string()),
        (None, [only]) => Ok(only.to_string()),
        (_, []) => Err(Error::Dataset(format!(
            "{}: no analysis yet; run `evallab analyze` first",
            ds.root().display()
        ))),
        (l, _) => Err(Error::Usage(format!(
            "{}; the dataset's analyses: {}",
            l.map_or(
                "several analyses: name one with --analysis".to_string(),
                |l| { format!("--analysis {l}: no such label") }
            ),
            labels.join(", ")
        ))),
    }
}
