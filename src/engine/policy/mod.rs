//! `policy`: the priors of a policy network for the dataset's positions
//! (`analysis.md` §2), the P of the ease metric.
//!
//! The source is an lc0-compatible UCI engine with `VerboseMoveStats`: one
//! search per position (`go nodes 1` gives the raw policy) prints an `info
//! string` per legal move with its prior ([`evallab_uci::parse_move_stats`]).
//! It is an engine stage ([`crate::engine::run_stage`]):
//! the same selection, failure handling (a move line that is not a legal move,
//! or a missing one, is garbage), chunked commits, resume and labels; the run
//! records the weights file and its sha256 beside the engine.

pub mod user;

use std::path::{Path, PathBuf};

use arrow::record_batch::RecordBatch;
use evallab_uci::{Engine, Limit, MoveStats, parse_move_stats};
use sha2::{Digest, Sha256};
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Position};

use crate::Error;
use crate::dataset::Dataset;
use crate::engine::analyze::rows::check_move;
use crate::engine::pool::{GameResult, Job};
use crate::engine::positions::{self, GameTask, Selection};
use crate::engine::{RunOptions, Stage, StageReport, check_reserved, stopped};
use crate::schema::{POLICY, PolicyBuilder, Table};

/// Options of a policy run.
#[derive(Debug, Clone)]
pub struct PolicyOptions {
    /// The lc0-compatible engine, jobs, label (`None`:
    /// `policy-<weights file stem>`), shard, timeouts.
    pub run: RunOptions,
    /// The network (`WeightsFile`).
    pub weights: PathBuf,
    /// Extra `setoption`s, sent after WeightsFile, VerboseMoveStats and Threads.
    pub engine_options: Vec<(String, String)>,
    /// Nodes per position: 1 is the raw policy.
    pub nodes: u64,
    pub threads: u32,
    pub selection: Selection,
}

/// The `policy` stage: one search per position, its move lines kept.
#[derive(Debug, Clone)]
pub struct Policy {
    opts: PolicyOptions,
    /// sha256 of the weights file, hex.
    weights_sha256: String,
}

impl Policy {
    /// Checks what can be checked before any engine runs, and hashes the
    /// weights file.
    pub fn new(opts: PolicyOptions) -> Result<Policy, Error> {
        check_reserved(&opts.engine_options)?;
        let reserved = ["WeightsFile", "VerboseMoveStats"];
        if let Some((name, _)) = opts
            .engine_options
            .iter()
            .find(|(n, _)| reserved.iter().any(|r| r.eq_ignore_ascii_case(n)))
        {
            return Err(Error::Usage(format!(
                "--uci-option {name}: set by evallab (use --weights)"
            )));
        }
        if opts.nodes == 0 || opts.run.jobs == 0 || opts.threads == 0 {
            return Err(Error::Usage(
                "--nodes, --jobs and --threads must be at least 1".into(),
            ));
        }
        let weights_sha256 = sha256_file(&opts.weights)?;
        Ok(Policy {
            opts,
            weights_sha256,
        })
    }

    fn limit(&self) -> Limit {
        Limit::Nodes(self.opts.nodes)
    }
}

/// sha256 of a file, hex.
fn sha256_file(path: &Path) -> Result<String, Error> {
    let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
    Ok(evallab_pgn::input::hex(&Sha256::digest(&bytes)))
}

impl Stage for Policy {
    const NAME: &'static str = "policy";
    const TABLE: &'static Table = &POLICY;

    fn run_options(&self) -> &RunOptions {
        &self.opts.run
    }

    fn options_sent(&self) -> Vec<(String, String)> {
        let o = &self.opts;
        let mut sent = vec![
            ("WeightsFile".to_string(), o.weights.display().to_string()),
            ("VerboseMoveStats".to_string(), "true".to_string()),
            ("Threads".to_string(), o.threads.to_string()),
        ];
        sent.extend(o.engine_options.iter().cloned());
        sent
    }

    fn settings(&self) -> serde_json::Value {
        serde_json::json!({
            "weights_sha256": self.weights_sha256,
            "limit": self.limit().to_string(),
            "plies": self.opts.selection.plies_text(),
            "skip_book": self.opts.selection.skip_book,
        })
    }

    fn default_label(&self, _fingerprint: &str) -> String {
        let stem = self.opts.weights.file_name().map_or("net".into(), |s| {
            let s = s.to_string_lossy();
            s.split('.').next().unwrap_or("net").to_string()
        });
        format!("policy-{stem}")
    }

    fn games(&self) -> crate::metrics::Selection {
        self.opts.selection.games.clone()
    }

    fn select(&mut self, ds: &Dataset) -> Result<Vec<GameTask>, Error> {
        positions::select(ds, &self.opts.selection)
    }

    fn tally(&self, moves: &Vec<MoveStats>, report: &mut StageReport) {
        report.rows += moves.len() as u64;
    }

    fn rows(&self, label: &str, results: &[GameResult<Vec<MoveStats>>]) -> RecordBatch {
        let mut p = PolicyBuilder::default();
        for r in results {
            for (ply, _, moves) in &r.out {
                p.push(r.game_id, *ply, label, moves);
            }
        }
        p.finish()
    }
}

impl PolicyBuilder {
    /// Appends the priors of the position before `ply`.
    pub fn push(&mut self, game_id: i64, ply: u32, label: &str, moves: &[MoveStats]) {
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

impl Job for Policy {
    type Out = Vec<MoveStats>;

    fn position(
        &self,
        engine: &mut Engine,
        task: &GameTask,
        ply: u32,
        pos: &Chess,
    ) -> Result<Vec<MoveStats>, String> {
        let moves = task.moves_before(ply);
        let search = engine
            .search(
                task.start_fen.as_deref(),
                moves,
                self.limit(),
                self.opts.run.timeout,
            )
            .map_err(|e| e.to_string())?;
        if search.stopped {
            return Err(stopped(self.opts.run.timeout));
        }
        priors(&search.strings, pos, task.castling_mode())
    }
}

/// The move lines of one search: every legal move once, each with a prior,
/// spelled as the game's moves are (lc0 prints castling king-takes-rook,
/// `e1h1`, also in a standard game, whose moves say `e1g1`).
fn priors(strings: &[String], pos: &Chess, mode: CastlingMode) -> Result<Vec<MoveStats>, String> {
    let mut out: Vec<MoveStats> = strings.iter().filter_map(|s| parse_move_stats(s)).collect();
    for m in &mut out {
        check_move(pos, &m.mv)?;
        let mv =
            m.mv.parse::<UciMove>()
                .ok()
                .and_then(|u| u.to_move(pos).ok());
        if let Some(mv) = mv {
            m.mv = UciMove::from_move(mv, mode).to_string();
        }
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
        let text =
            include_str!("../../../crates/evallab-uci/tests/data/lc0-maia1900-after-e2e4.txt");
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
        let p = priors(&strings, &pos, CastlingMode::Standard).unwrap();
        assert_eq!(p.len(), 20);
        let c5 = p.iter().find(|m| m.mv == "c7c5").unwrap();
        assert_eq!(c5.p, Some(24.37));
        // From the starting position (White to move) the same lines are illegal.
        assert!(
            priors(&strings, &Chess::default(), CastlingMode::Standard)
                .unwrap_err()
                .contains("not a legal move")
        );
        // A missing line is garbage too.
        assert!(
            priors(&strings[..5], &pos, CastlingMode::Standard)
                .unwrap_err()
                .contains("20 legal moves")
        );
    }

    /// lc0 spells castling king-takes-rook; a standard game's moves say
    /// e1g1, a Chess960 game's e1h1: the priors follow the game.
    #[test]
    fn castling_as_the_game_spells_it() {
        let fen: shakmaty::fen::Fen = "4k3/8/8/8/8/8/8/4K2R w K - 0 1".parse().unwrap();
        let pos: Chess = fen.into_position(CastlingMode::Standard).unwrap();
        let line = |mv: &str, p: f64| {
            format!(
                "{mv}  (1   ) N:       0 (+ 0) (P: {p:5.2}%) (WL:  -.-----) (D: -.---) (M:  -.-) (Q: 0.1) (U: 0.0) (S: 0.1) (V:  -.----) "
            )
        };
        let legal: Vec<String> = pos
            .legal_moves()
            .iter()
            .map(|m| UciMove::from_move(*m, CastlingMode::Chess960).to_string())
            .collect();
        assert!(legal.contains(&"e1h1".to_string()));
        let strings: Vec<String> = legal
            .iter()
            .map(|m| line(m, 100.0 / legal.len() as f64))
            .collect();
        let moves = |mode| -> Vec<String> {
            priors(&strings, &pos, mode)
                .unwrap()
                .into_iter()
                .map(|m| m.mv)
                .collect()
        };
        let standard = moves(CastlingMode::Standard);
        assert!(standard.contains(&"e1g1".to_string()) && !standard.contains(&"e1h1".to_string()));
        let c960 = moves(CastlingMode::Chess960);
        assert!(c960.contains(&"e1h1".to_string()) && !c960.contains(&"e1g1".to_string()));
        assert_eq!(standard.len(), legal.len());
    }
}
