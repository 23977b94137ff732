//! `policy`: the priors of a policy network for the dataset's positions
//! (`analysis.md` §2), the P of the ease metric.
//!
//! The source is an lc0-compatible UCI engine with `VerboseMoveStats`: one
//! search per position (`go nodes 1` gives the raw policy) prints an `info
//! string` per legal move with its prior ([`evallab_uci::parse_move_stats`]).
//! It runs on the analysis stage's engine pool ([`crate::analyze::pool`]):
//! the same selection, failure handling (a move line that is not a legal move,
//! or a missing one, is garbage), chunked commits, resume and labels; the run
//! records the weights file and its sha256 beside the engine.

pub mod user;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use evallab_uci::{Engine, Limit, MoveStats, parse_move_stats};
use sha2::{Digest, Sha256};
use shakmaty::{Chess, Position};

use crate::Error;
use crate::analyze::pool::{self, Chunk, GameResult, Job, PoolConfig};
use crate::analyze::positions::{self, GameTask, Selection};
use crate::analyze::rows::check_move;
use crate::analyze::{
    AnalyzeProgress, check_reserved, commit_chunk, continue_run, fingerprint_of, pending,
    probe_engine, push_failures, stopped,
};
use crate::dataset::lock::{DatasetLock, Holder};
use crate::dataset::{AnalysisRun, Dataset};
use crate::schema::{ANALYSIS_FAILURES, FailuresBuilder, POLICY, PolicyBuilder};

/// Options of a policy run.
#[derive(Debug, Clone)]
pub struct PolicyOptions {
    /// The lc0-compatible engine.
    pub engine: PathBuf,
    /// The network (`WeightsFile`).
    pub weights: PathBuf,
    /// Extra `setoption`s, sent after WeightsFile, VerboseMoveStats and Threads.
    pub engine_options: Vec<(String, String)>,
    /// Nodes per position: 1 is the raw policy.
    pub nodes: u64,
    pub jobs: usize,
    pub threads: u32,
    pub selection: Selection,
    /// `None`: `policy-<weights file stem>`.
    pub label: Option<String>,
    pub timeout: Duration,
    pub handshake_timeout: Duration,
    pub commit_every: Duration,
}

impl PolicyOptions {
    /// The `setoption`s every engine of the run gets, in order.
    pub fn options_sent(&self) -> Vec<(String, String)> {
        let mut o = vec![
            (
                "WeightsFile".to_string(),
                self.weights.display().to_string(),
            ),
            ("VerboseMoveStats".to_string(), "true".to_string()),
            ("Threads".to_string(), self.threads.to_string()),
        ];
        o.extend(self.engine_options.iter().cloned());
        o
    }

    fn default_label(&self) -> String {
        let stem = self.weights.file_name().map_or("net".into(), |s| {
            let s = s.to_string_lossy();
            s.split('.').next().unwrap_or("net").to_string()
        });
        format!("policy-{stem}")
    }
}

/// What a policy run did.
#[derive(Debug, Clone, Default)]
pub struct PolicyReport {
    pub label: String,
    pub engine: String,
    pub games_selected: u64,
    pub games_already_done: u64,
    pub games: u64,
    pub positions: u64,
    /// Move rows (priors) written.
    pub moves: u64,
    pub failures: u64,
    pub restarts: u64,
    pub seconds: f64,
    pub stale_lock: Option<Holder>,
}

/// sha256 of a file, hex.
fn sha256_file(path: &Path) -> Result<String, Error> {
    let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
    Ok(evallab_pgn::input::hex(&Sha256::digest(&bytes)))
}

/// Prices the selected positions of the dataset at `root` with the network.
pub fn run_policy(
    root: &Path,
    opts: &PolicyOptions,
    progress: &mut dyn FnMut(&AnalyzeProgress),
) -> Result<PolicyReport, Error> {
    let started = Instant::now();
    check_reserved(&opts.engine_options)?;
    let reserved = ["WeightsFile", "VerboseMoveStats"];
    if let Some((name, _)) = opts
        .engine_options
        .iter()
        .find(|(n, _)| reserved.iter().any(|r| r.eq_ignore_ascii_case(n)))
    {
        return Err(Error::Usage(format!(
            "--engine-option {name}: set by evallab (use --weights)"
        )));
    }
    if opts.nodes == 0 || opts.jobs == 0 || opts.threads == 0 {
        return Err(Error::Usage(
            "--nodes, --jobs and --threads must be at least 1".into(),
        ));
    }
    let weights_sha256 = sha256_file(&opts.weights)?;
    let lock = DatasetLock::acquire(root, "policy")?;
    let mut ds = Dataset::open(root)?;
    ds.collect_garbage()?;
    let (cfg, probe) = probe_engine(&opts.engine, opts.options_sent(), opts.handshake_timeout)?;
    let engine_name = probe.id_name().to_string();
    let limit = Limit::Nodes(opts.nodes);
    let mut run = AnalysisRun {
        label: opts.label.clone().unwrap_or_else(|| opts.default_label()),
        engine: engine_name.clone(),
        engine_path: opts.engine.display().to_string(),
        options: cfg.options.clone(),
        limit: limit.to_string(),
        multipv: 1,
        all_depths: false,
        plies: opts.selection.plies_text(),
        skip_book: opts.selection.skip_book,
        fingerprint: String::new(),
        chunks: Vec::new(),
        weights_sha256: Some(weights_sha256.clone()),
    };
    run.fingerprint = fingerprint_of(&serde_json::json!({
        "engine": run.engine,
        "path": run.engine_path,
        "options": run.options,
        "weights_sha256": weights_sha256,
        "limit": run.limit,
        "plies": run.plies,
        "skip_book": run.skip_book,
    }));
    continue_run(&ds, &mut run)?;
    let label = run.label.clone();
    let all = positions::select(&ds, &opts.selection)?;
    let games_selected = all.len() as u64;
    let (todo, games_already_done) = pending(&ds, &run, &[&POLICY, &ANALYSIS_FAILURES], all)?;
    let mut report = PolicyReport {
        label: label.clone(),
        engine: engine_name,
        games_selected,
        games_already_done,
        stale_lock: lock.stale.clone(),
        ..PolicyReport::default()
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
    let mut on_game = |r: &GameResult<Vec<MoveStats>>| {
        prog.add(r);
        report.games += 1;
        report.positions += r.positions;
        report.moves += r.out.iter().map(|(_, _, m)| m.len() as u64).sum::<u64>();
        report.failures += r.failures.len() as u64;
        report.restarts += r.restarts;
        progress(&prog);
    };
    let mut commit = |chunk: &mut Chunk<Vec<MoveStats>>| -> Result<(), Error> {
        let mut p = PolicyBuilder::default();
        let mut f = FailuresBuilder::default();
        for r in &chunk.results {
            for (ply, _, moves) in &r.out {
                p.push(r.game_id, *ply, &label, moves);
            }
            push_failures(&mut f, r, &label);
        }
        let (rows, failures) = (p.rows() as u64, f.rows() as u64);
        commit_chunk(
            &mut ds,
            &mut run,
            chunk,
            rows,
            failures,
            vec![(&POLICY, p.finish()), (&ANALYSIS_FAILURES, f.finish())],
        )?;
        Ok(())
    };
    let job = PolicyJob { opts, limit };
    pool::run(&pool_cfg, probe, &job, &todo, &mut on_game, &mut commit)?;
    report.seconds = started.elapsed().as_secs_f64();
    Ok(report)
}

impl PolicyBuilder {
    /// Appends the priors of the position before `ply`.
    pub fn push(&mut self, game_id: i64, ply: u16, label: &str, moves: &[MoveStats]) {
        for m in moves {
            self.game_id.append_value(game_id);
            self.ply.append_value(ply);
            self.label.append_value(label);
            self.r#move.append_value(&m.mv);
            self.prior.append_value(m.p.unwrap_or(0.0) / 100.0);
            self.visits
                .append_option(m.n.and_then(|n| u32::try_from(n).ok()));
            self.q.append_option(m.q);
            self.wl.append_option(m.wl);
            self.d.append_option(m.d);
            self.m.append_option(m.m);
            self.v.append_option(m.v);
        }
    }
}

/// The policy job: one search per position, its move lines kept.
struct PolicyJob<'a> {
    opts: &'a PolicyOptions,
    limit: Limit,
}

impl Job for PolicyJob<'_> {
    type Out = Vec<MoveStats>;

    fn position(
        &self,
        engine: &mut Engine,
        task: &GameTask,
        ply: u16,
        pos: &Chess,
    ) -> Result<Vec<MoveStats>, String> {
        let moves = &task.moves[..usize::from(ply) - 1];
        let search = engine
            .search(
                task.start_fen.as_deref(),
                moves,
                self.limit,
                self.opts.timeout,
            )
            .map_err(|e| e.to_string())?;
        if search.stopped {
            return Err(stopped(self.opts.timeout));
        }
        priors(&search.strings, pos)
    }
}

/// The move lines of one search: every legal move once, each with a prior.
fn priors(strings: &[String], pos: &Chess) -> Result<Vec<MoveStats>, String> {
    let mut out: Vec<MoveStats> = strings.iter().filter_map(|s| parse_move_stats(s)).collect();
    for m in &out {
        check_move(pos, &m.mv)?;
    }
    // lc0 prints a node's children in the order of its search; the table
    // keeps them by move for stable output.
    out.sort_by(|a, b| a.mv.cmp(&b.mv));
    out.dedup_by(|a, b| a.mv == b.mv);
    let legal = pos.legal_moves().len();
    if out.len() != legal {
        return Err(format!(
            "the engine printed priors for {} moves, the position has {legal} legal moves \
             (is VerboseMoveStats supported?)",
            out.len()
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// lc0 + Maia-1900 after 1.e4: 20 priors for Black's 20 legal moves.
    #[test]
    fn priors_of_real_output() {
        let text = include_str!("../../crates/evallab-uci/tests/data/lc0-maia1900-after-e2e4.txt");
        let strings: Vec<String> = text
            .lines()
            .filter_map(|l| l.strip_prefix("info string "))
            .map(str::to_string)
            .collect();
        let pos = Chess::default()
            .play(
                shakmaty::uci::UciMove::from_ascii(b"e2e4")
                    .unwrap()
                    .to_move(&Chess::default())
                    .unwrap(),
            )
            .unwrap();
        let p = priors(&strings, &pos).unwrap();
        assert_eq!(p.len(), 20);
        let c5 = p.iter().find(|m| m.mv == "c7c5").unwrap();
        assert_eq!(c5.p, Some(24.37));
        // From the starting position (White to move) the same lines are illegal.
        assert!(
            priors(&strings, &Chess::default())
                .unwrap_err()
                .contains("not a legal move")
        );
        // A missing line is garbage too.
        assert!(
            priors(&strings[..5], &pos)
                .unwrap_err()
                .contains("20 legal moves")
        );
    }
}
