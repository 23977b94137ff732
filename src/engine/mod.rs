//! Engine stages: [`analyze`], [`matching`] (`evallab match`) and [`policy`]
//! (and whatever runs an engine over the dataset's games next) share one
//! driver, [`run_stage`], and its [`pool`] of engine processes.
//!
//! A stage says only what differs: its name and table, the settings its
//! label stands for, which games and plies it runs, what the engine does at
//! each position (the pool's [`Job`]) and the rows that result. Everything
//! else is the driver's, in this order: the lock (none for a shard), open,
//! garbage, the first engine started as a probe, the run record and its
//! fingerprint, continuing the label (a label keeps one meaning), the
//! selection, the games still pending, progress, the [`pool`], and each
//! chunk either committed to the dataset or streamed into a shard
//! (`--shard`, committed later by `evallab commit`).
//!
//! [`Stage`] is a trait extending [`Job`], not a struct of closures: a stage
//! is one value, built once from options it has validated (as ripgrep's
//! `HiArgs`), and the driver, the pool's worker threads and the commit
//! closure all borrow that one value; closures would each capture the
//! options again and carry the job's output type only behind boxed trait
//! objects with spelled-out lifetimes.

pub mod analyze;
pub mod matching;
pub mod policy;
pub mod pool;
pub mod positions;
pub mod reuse;
mod sink;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use arrow::compute::concat_batches;
use arrow::record_batch::RecordBatch;
use evallab_uci::{Engine, EngineConfig};

use crate::Error;
use crate::dataset::lock::Holder;
use crate::dataset::shard;
use crate::dataset::writer::{DatasetWriter, Open};
use crate::dataset::{Dataset, EngineId, EngineRun};
use crate::schema::{ANALYSIS_FAILURES, FailuresBuilder, Table};
use pool::{Chunk, GameResult, Job, PoolConfig};
use positions::GameTask;
use reuse::Reused;
use sink::{Counts, Sink};

/// What every engine run is given besides its stage's own settings.
#[derive(Debug, Clone)]
pub struct RunOptions {
    pub engine: PathBuf,
    /// Engine processes side by side.
    pub jobs: usize,
    /// `None`: the stage's [`Stage::default_label`].
    pub label: Option<String>,
    /// Write the results into this shard of the dataset, uncommitted
    /// ([`crate::dataset::shard`]), instead of committing chunks.
    pub shard: Option<String>,
    /// Longest wait for one search's `bestmove`.
    pub timeout: Duration,
    /// Longest wait for the engine's `uciok` and `readyok`.
    pub handshake_timeout: Duration,
    /// Commit the results at least this often.
    pub commit_every: Duration,
}

/// What differs between engine stages; [`run_stage`] does the rest.
pub trait Stage: Job {
    /// The command, the run's `stage` in the manifest and the lock's holder.
    const NAME: &'static str;
    /// The stage's table (written beside `analysis_failures`).
    const TABLE: &'static Table;
    fn run_options(&self) -> &RunOptions;
    /// The `setoption`s every engine of the run gets, in order.
    fn options_sent(&self) -> Vec<(String, String)>;
    /// What the label stands for beside the engine and its options, a JSON
    /// object: recorded as the run's `settings` and hashed, in this order,
    /// into its fingerprint.
    fn settings(&self) -> serde_json::Value;
    /// The label when none is given (`fingerprint`: the run's).
    fn default_label(&self, fingerprint: &str) -> String;
    /// The run's games: its events, its player on either side (the CLI
    /// checks them against the dataset before an engine starts).
    fn games(&self) -> crate::metrics::Selection;
    /// The games to run and their plies, in dataset order (`--slice` applied).
    fn select(&mut self, ds: &Dataset) -> Result<Vec<GameTask>, Error>;
    /// Rows copied from earlier runs under `run`'s fingerprint instead of
    /// computed, their plies taken out of `todo` (`analyze --reuse`).
    fn reuse(
        &self,
        _ds: &Dataset,
        _run: &EngineRun,
        _todo: &mut [GameTask],
    ) -> Result<Option<Reused>, Error> {
        Ok(None)
    }
    /// Counts one position's result into the report (rows of [`Self::TABLE`], …).
    fn tally(&self, out: &Self::Out, report: &mut StageReport);
    /// The [`Self::TABLE`] rows of some games' results, labelled `label`.
    fn rows(&self, label: &str, results: &[GameResult<Self::Out>]) -> RecordBatch;
}

/// Progress, reported after every game.
#[derive(Debug, Clone, Copy, Default)]
pub struct Progress {
    pub games_done: u64,
    pub games_total: u64,
    pub positions_done: u64,
    pub positions_total: u64,
    pub failures: u64,
    pub restarts: u64,
}

impl Progress {
    /// Nothing done yet of `todo`.
    pub fn start(todo: &[GameTask]) -> Progress {
        Progress {
            games_total: todo.len() as u64,
            positions_total: todo.iter().map(|t| t.plies.len() as u64).sum(),
            ..Progress::default()
        }
    }

    /// One more game done.
    pub fn add<O>(&mut self, r: &GameResult<O>) {
        self.games_done += 1;
        self.positions_done += r.positions;
        self.failures += r.failures.len() as u64;
        self.restarts += r.restarts;
    }
}

/// What an engine run did.
#[derive(Debug, Clone, Default)]
pub struct StageReport {
    pub label: String,
    /// The engine's `id name`.
    pub engine: String,
    /// The selected games (in dataset order), and how many of them were
    /// already done under the label.
    pub game_ids: Vec<i64>,
    pub games_already_done: u64,
    pub games: u64,
    /// Positions searched by the engine.
    pub positions: u64,
    /// Positions whose rows were copied from an earlier run instead.
    pub positions_reused: u64,
    /// Rows of the stage's table written.
    pub rows: u64,
    pub failures: u64,
    pub restarts: u64,
    /// Parts committed by this run (none for a shard).
    pub chunks: Vec<u32>,
    pub seconds: f64,
    /// Sum of the engine's own nps over the final lines, and their count
    /// (`analyze`).
    pub engine_nps_sum: f64,
    pub engine_nps_count: u64,
    pub stale_lock: Option<Holder>,
    /// The label's run: as committed, or (a shard) its settings.
    pub run: Option<EngineRun>,
}

impl StageReport {
    pub fn games_selected(&self) -> u64 {
        self.game_ids.len() as u64
    }
}

/// Runs `stage` over the dataset at `root`: commits its results in chunks
/// under its label, or writes them into its shard.
pub fn run_stage<S: Stage>(
    root: &Path,
    stage: &mut S,
    progress: &mut dyn FnMut(&Progress),
) -> Result<StageReport, Error> {
    let started = Instant::now();
    let ro = stage.run_options().clone();
    // A shard writer takes no lock: it writes only into its shard's folder.
    let mut writer = match &ro.shard {
        Some(name) => {
            shard::check_name(name)?;
            None
        }
        None => Some(DatasetWriter::open(root, S::NAME, Open::Existing)?),
    };
    let read_only;
    let ds: &Dataset = match &writer {
        Some(w) => w,
        None => {
            read_only = Dataset::open(root)?;
            &read_only
        }
    };
    let (cfg, probe) = probe_engine(&ro.engine, stage.options_sent(), ro.handshake_timeout)?;
    let mut run = EngineRun {
        label: String::new(),
        stage: S::NAME.into(),
        engine: EngineId {
            name: probe.id_name().to_string(),
            path: ro.engine.display().to_string(),
        },
        options: cfg.options.clone(),
        settings: stage.settings(),
        fingerprint: String::new(),
        chunks: Vec::new(),
    };
    run.fingerprint = run.settings_fingerprint();
    run.label = (ro.label.clone()).unwrap_or_else(|| stage.default_label(&run.fingerprint));
    continue_run(ds, &mut run)?;
    let all = stage.select(ds)?;
    let stage: &S = stage;
    let mut report = StageReport {
        label: run.label.clone(),
        engine: run.engine.name.clone(),
        game_ids: all.iter().map(|t| t.game_id).collect(),
        stale_lock: writer.as_ref().and_then(|w| w.stale().cloned()),
        ..StageReport::default()
    };
    let done = ds.done_games(&run, &[S::TABLE, &ANALYSIS_FAILURES])?;
    let mut todo: Vec<GameTask> = all
        .into_iter()
        .filter(|t| !done.contains(&t.game_id))
        .collect();
    report.games_already_done = report.games_selected() - todo.len() as u64;
    if todo.is_empty() {
        probe.quit();
        report.seconds = started.elapsed().as_secs_f64();
        report.run = Some(run);
        return Ok(report);
    }
    let reuse_started = Instant::now();
    let reused = stage.reuse(ds, &run, &mut todo)?;
    // Games whose every position was copied need no engine.
    let (copied, todo): (Vec<GameTask>, Vec<GameTask>) =
        todo.into_iter().partition(|t| t.plies.is_empty());
    if let Some(r) = &reused {
        report.positions_reused = r.positions();
        report.rows += r.rows() as u64;
    }
    let mut prog = Progress::start(&todo);
    progress(&prog);
    let mut on_game = |r: &GameResult<S::Out>| {
        prog.add(r);
        report.games += 1;
        report.positions += r.positions;
        report.failures += r.failures.len() as u64;
        report.restarts += r.restarts;
        for (_, _, out) in &r.out {
            stage.tally(out, &mut report);
        }
        progress(&prog);
    };
    let mut sink = match (&ro.shard, writer.as_mut()) {
        (None, Some(w)) => Sink::Commit(w, Vec::new()),
        (name, _) => Sink::shard(
            root,
            name.as_deref().unwrap_or_default(),
            &todo,
            [S::TABLE, &ANALYSIS_FAILURES],
        )?,
    };
    if let Some(r) = &reused
        && !copied.is_empty()
    {
        let (rows, positions) = r.of_games(copied.iter().map(|t| t.game_id))?;
        let counts = Counts {
            started: reuse_started,
            games: copied.len() as u64,
            positions,
            reused: positions,
            restarts: 0,
        };
        let no_failures = FailuresBuilder::default().finish();
        sink.add(
            &run,
            counts,
            [(S::TABLE, rows), (&ANALYSIS_FAILURES, no_failures)],
        )?;
    }
    let label = run.label.clone();
    let mut commit = |chunk: &mut Chunk<S::Out>| -> Result<(), Error> {
        let mut f = FailuresBuilder::default();
        for r in &chunk.results {
            for x in &r.failures {
                f.push(r.game_id, x.ply, &label, &x.fen, x.attempt, &x.reason);
            }
        }
        let mut counts = Counts::of(chunk);
        let mut rows = stage.rows(&label, &chunk.results);
        // A game's copied rows are committed with its searched ones: a game
        // with rows under the label is done, and is not resumed.
        if let Some(r) = &reused {
            let (copied, positions) = r.of_games(chunk.results.iter().map(|g| g.game_id))?;
            rows = concat_batches(&rows.schema(), [&rows, &copied])?;
            counts.positions += positions;
            counts.reused = positions;
        }
        let batches = [(S::TABLE, rows), (&ANALYSIS_FAILURES, f.finish())];
        sink.add(&run, counts, batches)
    };
    let pool_cfg = PoolConfig {
        engine: &cfg,
        jobs: ro.jobs,
        commit_every: ro.commit_every,
    };
    if todo.is_empty() {
        probe.quit();
    } else {
        pool::run(&pool_cfg, probe, stage, &todo, &mut on_game, &mut commit)?;
    }
    report.chunks = sink.finish(root, &run, started)?;
    report.seconds = started.elapsed().as_secs_f64();
    report.run = Some(
        match writer
            .as_ref()
            .and_then(|w| w.manifest().analysis(&run.label))
        {
            Some(committed) => committed.clone(),
            None => run,
        },
    );
    Ok(report)
}

/// The engine settings of a run and its first engine, started before
/// anything is written: it names itself, and a bad path or option fails here.
fn probe_engine(
    engine: &Path,
    options: Vec<(String, String)>,
    handshake_timeout: Duration,
) -> Result<(EngineConfig, Engine), Error> {
    let cfg = EngineConfig {
        path: engine.to_path_buf(),
        args: Vec::new(),
        options,
        handshake_timeout,
    };
    let probe =
        Engine::start(&cfg).map_err(|e| Error::Engine(format!("{}: {e}", engine.display())))?;
    Ok((cfg, probe))
}

/// Continues `run` under its label: takes over the label's committed chunks;
/// a label run with other settings is refused (a label keeps one meaning).
fn continue_run(ds: &Dataset, run: &mut EngineRun) -> Result<(), Error> {
    if let Some(old) = ds.manifest().analysis(&run.label) {
        if old.fingerprint != run.fingerprint {
            return Err(Error::Usage(format!(
                "label `{}` was run with other settings ({} `{}`, {}, MultiPV {}, plies/moves {}, \
                 options {:?}); choose another --label",
                run.label,
                old.engine.name,
                old.engine.path,
                old.limit(),
                old.multipv(),
                old.plies().unwrap_or("all"),
                old.options
            )));
        }
        run.chunks = old.chunks.clone();
    }
    Ok(())
}

/// The `setoption`s of an engine searched with MultiPV lines, in order:
/// Threads, Hash, MultiPV, then the user's.
pub fn options_sent(
    threads: u32,
    hash_mb: u32,
    multipv: u32,
    extra: &[(String, String)],
) -> Vec<(String, String)> {
    let mut o = vec![
        ("Threads".to_string(), threads.to_string()),
        ("Hash".to_string(), hash_mb.to_string()),
        ("MultiPV".to_string(), multipv.to_string()),
    ];
    o.extend(extra.iter().cloned());
    o
}

/// `--uci-option`s may not set what evallab sets itself.
pub fn check_reserved(extra: &[(String, String)]) -> Result<(), Error> {
    let reserved = ["Threads", "Hash", "MultiPV", "UCI_Chess960"];
    for (name, _) in extra {
        if let Some(r) = reserved.iter().find(|r| r.eq_ignore_ascii_case(name)) {
            return Err(Error::Usage(format!(
                "--uci-option {name}: set by evallab (use --threads, --hash, --multipv; \
                 UCI_Chess960 follows each game's variant): `{r}`"
            )));
        }
    }
    Ok(())
}

/// The failure reason of a search that hit the timeout.
pub fn stopped(timeout: Duration) -> String {
    format!(
        "no bestmove within --timeout {:.1}s (the search was stopped)",
        timeout.as_secs_f64()
    )
}
