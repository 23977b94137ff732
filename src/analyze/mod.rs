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

pub mod pool;
pub mod positions;
pub mod rows;

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use arrow::record_batch::RecordBatch;
use evallab_uci::{Engine, EngineConfig, Limit};
use polars::prelude::*;
use sha2::{Digest, Sha256};
use shakmaty::Chess;

use crate::Error;
use crate::dataset::lock::{DatasetLock, Holder};
use crate::dataset::part::PartWriter;
use crate::dataset::shard::{self, Shard};
use crate::dataset::{AnalysisChunk, AnalysisRun, Dataset, part_file};
use crate::schema::{ANALYSIS, ANALYSIS_FAILURES, AnalysisBuilder, FailuresBuilder, Table, col};
use pool::{Chunk, GameResult, Job, PoolConfig};
use positions::{GameTask, Selection};
use rows::Line;

/// Options of an analysis run.
#[derive(Debug, Clone)]
pub struct AnalyzeOptions {
    pub engine: PathBuf,
    /// Extra `setoption`s, sent after Threads, Hash and MultiPV.
    pub engine_options: Vec<(String, String)>,
    pub limit: Limit,
    pub multipv: u32,
    /// Keep every completed depth, not only the final lines.
    pub all_depths: bool,
    /// Engine processes side by side.
    pub jobs: usize,
    pub threads: u32,
    pub hash_mb: u32,
    pub selection: Selection,
    /// `None`: `<engine file name>-<limit>-mpv<K>`.
    pub label: Option<String>,
    /// Longest wait for one search's `bestmove`.
    pub timeout: Duration,
    /// Longest wait for the engine's `uciok` and `readyok`.
    pub handshake_timeout: Duration,
    /// Commit the results at least this often.
    pub commit_every: Duration,
    /// Write the results into this shard of the dataset, uncommitted
    /// ([`crate::dataset::shard`]), instead of committing chunks.
    pub shard: Option<String>,
}

/// Progress, reported after every game.
#[derive(Debug, Clone, Copy, Default)]
pub struct AnalyzeProgress {
    pub games_done: u64,
    pub games_total: u64,
    pub positions_done: u64,
    pub positions_total: u64,
    pub failures: u64,
    pub restarts: u64,
}

/// What an analysis run did.
#[derive(Debug, Clone, Default)]
pub struct AnalyzeReport {
    pub label: String,
    pub engine: String,
    /// Games selected, and those of them already analysed under the label.
    pub games_selected: u64,
    pub games_already_done: u64,
    pub games: u64,
    pub positions: u64,
    pub lines: u64,
    pub failures: u64,
    pub restarts: u64,
    /// Parts committed by this run.
    pub chunks: Vec<u32>,
    pub seconds: f64,
    /// Sum of the engine's own nps over the final lines (for the mean).
    pub engine_nps_sum: f64,
    pub engine_nps_count: u64,
    pub stale_lock: Option<Holder>,
}

impl AnalyzeProgress {
    /// Nothing done yet of `todo`.
    pub fn start(todo: &[GameTask]) -> AnalyzeProgress {
        AnalyzeProgress {
            games_total: todo.len() as u64,
            positions_total: todo.iter().map(|t| t.plies.len() as u64).sum(),
            ..AnalyzeProgress::default()
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

/// The `setoption`s every engine of a run gets, in order: Threads, Hash,
/// MultiPV, then the user's.
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

/// `--engine-option`s may not set what evallab sets itself.
pub fn check_reserved(extra: &[(String, String)]) -> Result<(), Error> {
    let reserved = ["Threads", "Hash", "MultiPV", "UCI_Chess960"];
    for (name, _) in extra {
        if let Some(r) = reserved.iter().find(|r| r.eq_ignore_ascii_case(name)) {
            return Err(Error::Usage(format!(
                "--engine-option {name}: set by evallab (use --threads, --hash, --multipv; \
                 UCI_Chess960 follows each game's variant): `{r}`"
            )));
        }
    }
    Ok(())
}

impl AnalyzeOptions {
    /// The `setoption`s every engine of the run gets, in order.
    pub fn options_sent(&self) -> Vec<(String, String)> {
        options_sent(
            self.threads,
            self.hash_mb,
            self.multipv,
            &self.engine_options,
        )
    }

    fn default_label(&self) -> String {
        let stem = self
            .engine
            .file_stem()
            .map_or("engine".into(), |s| s.to_string_lossy().into_owned());
        format!(
            "{stem}-{}-mpv{}",
            self.limit.to_string().replace(' ', ""),
            self.multipv
        )
    }
}

/// Checks what can be checked before any engine runs.
pub fn check_options(opts: &AnalyzeOptions) -> Result<(), Error> {
    check_reserved(&opts.engine_options)?;
    if opts.multipv == 0 || opts.jobs == 0 || opts.threads == 0 {
        return Err(Error::Usage(
            "--multipv, --jobs and --threads must be at least 1".into(),
        ));
    }
    Ok(())
}

/// Analyses the selected positions of the dataset at `root`.
pub fn analyze(
    root: &Path,
    opts: &AnalyzeOptions,
    progress: &mut dyn FnMut(&AnalyzeProgress),
) -> Result<AnalyzeReport, Error> {
    let started = Instant::now();
    check_options(opts)?;
    // A shard writer takes no lock: it writes only into its shard's folder.
    let lock = match &opts.shard {
        Some(name) => {
            shard::check_name(name)?;
            None
        }
        None => Some(DatasetLock::acquire(root, "analyze")?),
    };
    let mut ds = Dataset::open(root)?;
    if lock.is_some() {
        ds.collect_garbage()?;
    }
    let (cfg, probe) = probe_engine(&opts.engine, opts.options_sent(), opts.handshake_timeout)?;
    let engine_name = probe.id_name().to_string();
    let label = opts.label.clone().unwrap_or_else(|| opts.default_label());
    let mut run = AnalysisRun {
        label: label.clone(),
        engine: engine_name.clone(),
        engine_path: opts.engine.display().to_string(),
        options: cfg.options.clone(),
        limit: opts.limit.to_string(),
        multipv: opts.multipv,
        all_depths: opts.all_depths,
        plies: opts.selection.plies_text(),
        skip_book: opts.selection.skip_book,
        fingerprint: String::new(),
        chunks: Vec::new(),
        weights_sha256: None,
    };
    run.fingerprint = fingerprint(&run);
    continue_run(&ds, &mut run)?;
    let all = positions::select(&ds, &opts.selection)?;
    let games_selected = all.len() as u64;
    let (todo, games_already_done) = pending(&ds, &run, &[&ANALYSIS, &ANALYSIS_FAILURES], all)?;
    let mut report = AnalyzeReport {
        label: label.clone(),
        engine: engine_name,
        games_selected,
        games_already_done,
        stale_lock: lock.as_ref().and_then(|l| l.stale.clone()),
        ..AnalyzeReport::default()
    };
    if todo.is_empty() {
        probe.quit();
        report.seconds = started.elapsed().as_secs_f64();
        return Ok(report);
    }
    let mut prog = AnalyzeProgress::start(&todo);
    progress(&prog);

    let pool_cfg = PoolConfig {
        engine: &cfg,
        jobs: opts.jobs,
        commit_every: opts.commit_every,
    };
    let mut on_game = |r: &GameResult<Vec<Line>>| {
        prog.add(r);
        report.games += 1;
        report.positions += r.positions;
        report.failures += r.failures.len() as u64;
        report.restarts += r.restarts;
        for (_, _, lines) in &r.out {
            report.lines += lines.len() as u64;
            for l in lines.iter().filter(|l| l.is_final && l.multipv == 1) {
                if let Some(nps) = l.nps {
                    report.engine_nps_sum += nps as f64;
                    report.engine_nps_count += 1;
                }
            }
        }
        progress(&prog);
    };
    let mut chunks = Vec::new();
    let mut staged = match &opts.shard {
        Some(name) => Some(ShardWriter::create(root, name, &todo)?),
        None => None,
    };
    let mut commit = |chunk: &mut Chunk<Vec<Line>>| -> Result<(), Error> {
        let mut a = AnalysisBuilder::default();
        let mut f = FailuresBuilder::default();
        for r in &chunk.results {
            for (ply, turn, lines) in &r.out {
                a.push(r.game_id, *ply, &label, *turn, lines);
            }
            push_failures(&mut f, r, &label);
        }
        let (lines, failures) = (a.rows() as u64, f.rows() as u64);
        let batches = vec![(&ANALYSIS, a.finish()), (&ANALYSIS_FAILURES, f.finish())];
        if let Some(w) = &mut staged {
            return w.add(chunk, lines, failures, &batches);
        }
        let part = commit_chunk(&mut ds, &mut run, chunk, lines, failures, batches)?;
        chunks.push(part);
        Ok(())
    };
    let job = AnalyzeJob { opts };
    pool::run(&pool_cfg, probe, &job, &todo, &mut on_game, &mut commit)?;
    if let Some(w) = staged {
        w.finish(root, &run, started)?;
    }
    report.chunks = chunks;
    report.seconds = started.elapsed().as_secs_f64();
    Ok(report)
}

/// The results of a sharded analysis, streamed into the shard's two parts
/// and completed by its `shard.json` (the analysis settings and one chunk).
struct ShardWriter {
    name: String,
    fingerprint: String,
    writers: Vec<PartWriter>,
    files: BTreeMap<String, String>,
    chunk: AnalysisChunk,
}

impl ShardWriter {
    fn create(root: &Path, name: &str, todo: &[GameTask]) -> Result<ShardWriter, Error> {
        let dir = shard::begin(root, name)?;
        let tables = [&ANALYSIS, &ANALYSIS_FAILURES];
        let files: BTreeMap<String, String> = tables
            .iter()
            .map(|t| (t.name.to_string(), format!("{}.parquet", t.name)))
            .collect();
        let writers = tables
            .iter()
            .map(|t| PartWriter::create_at(&dir.join(&files[t.name]), t))
            .collect::<Result<_, _>>()?;
        let ids: Vec<String> = todo.iter().map(|t| t.game_id.to_string()).collect();
        Ok(ShardWriter {
            name: name.to_string(),
            // Completed by the run's settings in `finish`.
            fingerprint: ids.join(","),
            writers,
            files,
            chunk: AnalysisChunk {
                part: 0,
                started_unix: unix_now(),
                seconds: 0.0,
                games: 0,
                positions: 0,
                lines: 0,
                failures: 0,
                restarts: 0,
                files: BTreeMap::new(),
                shard: None,
            },
        })
    }

    fn add(
        &mut self,
        chunk: &Chunk<Vec<Line>>,
        lines: u64,
        failures: u64,
        batches: &[(&Table, RecordBatch)],
    ) -> Result<(), Error> {
        for (w, (_, b)) in self.writers.iter_mut().zip(batches) {
            w.write(b)?;
        }
        let c = &mut self.chunk;
        c.games += chunk.results.len() as u64;
        c.positions += chunk.results.iter().map(|r| r.positions).sum::<u64>();
        c.lines += lines;
        c.failures += failures;
        c.restarts += chunk.restarts;
        Ok(())
    }

    /// Commits the parts, then `shard.json`: the shard's commit point.
    fn finish(self, root: &Path, run: &AnalysisRun, started: Instant) -> Result<(), Error> {
        for w in self.writers {
            w.commit()?;
        }
        let mut chunk = self.chunk;
        chunk.seconds = started.elapsed().as_secs_f64();
        chunk.files = self.files.clone();
        let settings = AnalysisRun {
            chunks: vec![chunk],
            ..run.clone()
        };
        let fingerprint = shard::fingerprint(
            self.fingerprint.split(','),
            &serde_json::json!({ "label": run.label, "settings": run.fingerprint }),
        );
        shard::finish(
            root,
            &Shard {
                name: self.name,
                fingerprint,
                started_unix: settings.chunks[0].started_unix,
                seconds: settings.chunks[0].seconds,
                options: serde_json::Value::Null,
                inputs: Vec::new(),
                files: self.files,
                analysis: Some(settings),
            },
        )
    }
}

fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// A label's settings, hashed: a label keeps one meaning across resumes.
fn fingerprint(run: &AnalysisRun) -> String {
    fingerprint_of(&serde_json::json!({
        "engine": run.engine,
        "path": run.engine_path,
        "options": run.options,
        "limit": run.limit,
        "multipv": run.multipv,
        "all_depths": run.all_depths,
        "plies": run.plies,
        "skip_book": run.skip_book,
    }))
}

/// The engine settings of a run (analyze, match, policy) and its first
/// engine, started before anything is written: it names itself, and a bad
/// path or option fails here.
pub(crate) fn probe_engine(
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

/// The first 8 bytes of sha256 of a run's settings, in hex.
pub(crate) fn fingerprint_of(key: &serde_json::Value) -> String {
    let d = Sha256::digest(key.to_string().as_bytes());
    evallab_pgn::input::hex(&d[..8])
}

/// Continues `run` under its label: takes over the label's committed chunks;
/// a label run with other settings is refused (a label keeps one meaning).
pub(crate) fn continue_run(ds: &Dataset, run: &mut AnalysisRun) -> Result<(), Error> {
    if let Some(old) = ds.manifest.analysis(&run.label) {
        if old.fingerprint != run.fingerprint {
            return Err(Error::Usage(format!(
                "label `{}` was run with other settings ({} `{}`, {}, MultiPV {}, plies/moves {}, \
                 options {:?}); choose another --label",
                run.label,
                old.engine,
                old.engine_path,
                old.limit,
                old.multipv,
                old.plies.as_deref().unwrap_or("all"),
                old.options
            )));
        }
        run.chunks = old.chunks.clone();
    }
    Ok(())
}

/// The tasks whose games have no committed rows in `tables` under the run's
/// label yet, and how many of `tasks` had.
pub(crate) fn pending(
    ds: &Dataset,
    run: &AnalysisRun,
    tables: &[&Table],
    tasks: Vec<GameTask>,
) -> Result<(Vec<GameTask>, u64), Error> {
    let done = done_games(ds, run, tables)?;
    let n = tasks.len();
    let todo: Vec<GameTask> = tasks
        .into_iter()
        .filter(|t| !done.contains(&t.game_id))
        .collect();
    let already = (n - todo.len()) as u64;
    Ok((todo, already))
}

/// Games with committed rows in `tables` under the run's label.
pub(crate) fn done_games(
    ds: &Dataset,
    run: &AnalysisRun,
    tables: &[&Table],
) -> Result<HashSet<i64>, Error> {
    let mut done = HashSet::new();
    for table in tables {
        let paths: Vec<PlRefPath> = run
            .chunks
            .iter()
            .filter_map(|c| c.files.get(table.name))
            .map(|f| PlRefPath::new(ds.root.join(f).to_string_lossy().as_ref()))
            .collect();
        if paths.is_empty() {
            continue;
        }
        let ids = LazyFrame::scan_parquet_files(paths.into(), ScanArgsParquet::default())?
            .select([col(col::GAME_ID)])
            .unique(None, UniqueKeepStrategy::Any)
            .collect()?;
        done.extend(ids.column(col::GAME_ID)?.i64()?.into_no_null_iter());
    }
    Ok(done)
}

/// The failures of a game as `analysis_failures` rows.
pub(crate) fn push_failures<O>(f: &mut FailuresBuilder, r: &GameResult<O>, label: &str) {
    for x in &r.failures {
        f.push(r.game_id, x.ply, label, &x.fen, x.attempt, &x.reason);
    }
}

/// Writes one chunk's parts (`batches`, one per table), then the manifest
/// that lists them under `run`; returns the part number.
pub(crate) fn commit_chunk<O>(
    ds: &mut Dataset,
    run: &mut AnalysisRun,
    chunk: &Chunk<O>,
    lines: u64,
    failures: u64,
    batches: Vec<(&Table, RecordBatch)>,
) -> Result<u32, Error> {
    let part = ds.next_part();
    let mut writers = Vec::with_capacity(batches.len());
    for (t, b) in &batches {
        let mut w = PartWriter::create(&ds.root, t, part)?;
        w.write(b)?;
        writers.push(w);
    }
    for w in writers {
        w.commit()?;
    }
    let started = chunk.started;
    run.chunks.push(AnalysisChunk {
        part,
        started_unix: unix_now().saturating_sub(started.elapsed().as_secs()),
        seconds: started.elapsed().as_secs_f64(),
        games: chunk.results.len() as u64,
        positions: chunk.results.iter().map(|r| r.positions).sum(),
        lines,
        failures,
        restarts: chunk.restarts,
        files: batches
            .iter()
            .map(|(t, _)| (t.name.to_string(), part_file(t, part)))
            .collect(),
        shard: None,
    });
    match ds
        .manifest
        .analyses
        .iter_mut()
        .find(|r| r.label == run.label)
    {
        Some(old) => *old = run.clone(),
        None => ds.manifest.analyses.push(run.clone()),
    }
    ds.save_manifest()?;
    Ok(part)
}

/// `analyze`'s job: one search per position, its lines kept.
struct AnalyzeJob<'a> {
    opts: &'a AnalyzeOptions,
}

impl Job for AnalyzeJob<'_> {
    type Out = Vec<Line>;

    fn position(
        &self,
        engine: &mut Engine,
        task: &GameTask,
        ply: u16,
        pos: &Chess,
    ) -> Result<Vec<Line>, String> {
        let opts = self.opts;
        let moves = &task.moves[..usize::from(ply) - 1];
        let search = engine
            .search(task.start_fen.as_deref(), moves, opts.limit, opts.timeout)
            .map_err(|e| e.to_string())?;
        if search.stopped {
            return Err(stopped(opts.timeout));
        }
        rows::lines(&search, pos, opts.all_depths)
    }
}

/// The failure reason of a search that hit the timeout.
pub(crate) fn stopped(timeout: Duration) -> String {
    format!(
        "no bestmove within --timeout {:.1}s (the search was stopped)",
        timeout.as_secs_f64()
    )
}

/// The analysis a statistic reads: the one named, or the dataset's only one.
pub fn resolve_label(ds: &Dataset, label: Option<&str>) -> Result<String, Error> {
    let labels: Vec<&str> = ds
        .manifest
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
            ds.root.display()
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
