//! The engine pool shared by `analyze` and `match`: `jobs` workers, each
//! owning one engine process and taking whole games, in game order after
//! `ucinewgame` (the hash carries over from move to move within a game).
//!
//! What is searched at each position is the [`Job`]'s business; the pool
//! handles the engines' failures: a crash, a timeout or garbage kills the
//! process, the game is retried once on a fresh one, and in the retry a
//! position that fails again becomes a [`Failure`] (after
//! [`MAX_CONSECUTIVE_FAILURES`] in a row the rest of the game is not tried).
//! Results reach the caller per game, in completion order, and are committed
//! in chunks at least every `commit_every`.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::sync_channel;
use std::time::{Duration, Instant};

use evallab_uci::{Engine, EngineConfig};
use shakmaty::{Chess, Color, Position};

use crate::Error;
use crate::engine::positions::{GameTask, fen_of};

/// Consecutive failed positions after which the rest of a game is given up.
pub const MAX_CONSECUTIVE_FAILURES: usize = 3;

/// What a pool's workers do at each selected position.
pub trait Job: Sync {
    /// The result of one position.
    type Out: Send;
    /// Searches the position before `ply` (`pos`) of `task`. The engine is
    /// ready: in the game's variant, after `ucinewgame` at the game's start.
    /// An error (the engine's output, a timeout, …) kills the engine.
    fn position(
        &self,
        engine: &mut Engine,
        task: &GameTask,
        ply: u32,
        pos: &Chess,
    ) -> Result<Self::Out, String>;
}

/// A failed position.
#[derive(Debug, Clone)]
pub struct Failure {
    pub ply: u32,
    pub fen: String,
    /// 2 = failed in the game's retry, 0 = never tried.
    pub attempt: u8,
    pub reason: String,
}

/// One game's results.
#[derive(Debug)]
pub struct GameResult<O> {
    /// The game's index in the task list (commits are in this order).
    pub index: usize,
    pub game_id: i64,
    pub positions: u64,
    /// Per analysed position: its ply, side to move and the job's result.
    pub out: Vec<(u32, Color, O)>,
    pub failures: Vec<Failure>,
    pub restarts: u64,
}

/// Results not yet committed.
pub struct Chunk<O> {
    pub results: Vec<GameResult<O>>,
    pub started: Instant,
    /// Engine restarts while computing them.
    pub restarts: u64,
}

impl<O> Chunk<O> {
    fn new() -> Chunk<O> {
        Chunk {
            results: Vec::new(),
            started: Instant::now(),
            restarts: 0,
        }
    }
}

/// What commits a chunk.
pub type Commit<'a, O> = dyn FnMut(&mut Chunk<O>) -> Result<(), Error> + 'a;

/// How a pool runs.
pub struct PoolConfig<'a> {
    pub engine: &'a EngineConfig,
    /// Engine processes side by side.
    pub jobs: usize,
    /// Commit at least this often.
    pub commit_every: Duration,
}

/// Runs `job` over `todo` with `cfg.jobs` engines (`probe`, already started,
/// is the first one). `on_game` sees every game's result as it arrives;
/// `commit` gets the chunks, their games in task order (never an empty one).
pub fn run<J: Job>(
    cfg: &PoolConfig<'_>,
    probe: Engine,
    job: &J,
    todo: &[GameTask],
    on_game: &mut dyn FnMut(&GameResult<J::Out>),
    commit: &mut Commit<'_, J::Out>,
) -> Result<(), Error> {
    let next = AtomicUsize::new(0);
    let jobs = cfg.jobs.min(todo.len()).max(1);
    let (tx, rx) = sync_channel::<GameResult<J::Out>>(jobs * 2);
    let mut probe = Some(probe);
    std::thread::scope(|s| -> Result<(), Error> {
        for _ in 0..jobs {
            let tx = tx.clone();
            let mut worker = Worker {
                cfg: cfg.engine,
                job,
                engine: probe.take(),
                chess960: false,
            };
            let next = &next;
            s.spawn(move || {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(task) = todo.get(i) else { break };
                    let result = worker.game(i, task);
                    if tx.send(result).is_err() {
                        break;
                    }
                }
                worker.stop();
            });
        }
        drop(tx);
        let mut chunk = Chunk::new();
        let mut flush = |chunk: &mut Chunk<J::Out>| -> Result<(), Error> {
            if !chunk.results.is_empty() {
                chunk.results.sort_by_key(|r| r.index);
                commit(chunk)?;
            }
            *chunk = Chunk::new();
            Ok(())
        };
        for r in rx {
            on_game(&r);
            chunk.restarts += r.restarts;
            chunk.results.push(r);
            if chunk.started.elapsed() >= cfg.commit_every {
                flush(&mut chunk)?;
            }
        }
        flush(&mut chunk)
    })
}

/// A worker: one engine process, restarted when it misbehaves.
struct Worker<'a, J> {
    cfg: &'a EngineConfig,
    job: &'a J,
    engine: Option<Engine>,
    /// The engine's current UCI_Chess960 setting.
    chess960: bool,
}

impl<J: Job> Worker<'_, J> {
    fn game(&mut self, index: usize, task: &GameTask) -> GameResult<J::Out> {
        let mut res = GameResult {
            index,
            game_id: task.game_id,
            positions: task.plies.len() as u64,
            out: Vec::new(),
            failures: Vec::new(),
            restarts: 0,
        };
        let positions = match task.positions() {
            Ok(p) => p,
            Err(e) => {
                res.failures = task
                    .plies
                    .iter()
                    .map(|&ply| Failure {
                        ply,
                        fen: String::new(),
                        attempt: 0,
                        reason: format!("cannot replay the game: {e}"),
                    })
                    .collect();
                return res;
            }
        };
        // First attempt: the whole game on one engine, as an uninterrupted run.
        match self.all(task, &positions) {
            Ok(out) => {
                res.out = out;
                return res;
            }
            Err(_) => {
                self.kill();
                res.restarts += 1;
            }
        }
        // The retry: a fresh engine; a position that fails again is recorded,
        // and the engine restarted for the next one.
        let mut fresh = true;
        let mut consecutive = 0;
        for (i, (ply, pos)) in positions.iter().enumerate() {
            if consecutive >= MAX_CONSECUTIVE_FAILURES {
                let last = res
                    .failures
                    .last()
                    .map_or(String::new(), |f| f.reason.clone());
                res.failures.extend(positions[i..].iter().map(|(ply, pos)| Failure {
                    ply: *ply,
                    fen: fen_of(pos),
                    attempt: 0,
                    reason: format!(
                        "not tried: {MAX_CONSECUTIVE_FAILURES} positions in a row failed (last: {last})"
                    ),
                }));
                break;
            }
            match self.one(task, *ply, pos, fresh) {
                Ok(out) => {
                    res.out.push((*ply, pos.turn(), out));
                    consecutive = 0;
                    fresh = false;
                }
                Err(reason) => {
                    res.failures.push(Failure {
                        ply: *ply,
                        fen: fen_of(pos),
                        attempt: 2,
                        reason,
                    });
                    self.kill();
                    res.restarts += 1;
                    consecutive += 1;
                    fresh = true;
                }
            }
        }
        res
    }

    fn all(
        &mut self,
        task: &GameTask,
        positions: &[(u32, Chess)],
    ) -> Result<Vec<(u32, Color, J::Out)>, String> {
        let mut out = Vec::with_capacity(positions.len());
        for (i, (ply, pos)) in positions.iter().enumerate() {
            let o = self.one(task, *ply, pos, i == 0)?;
            out.push((*ply, pos.turn(), o));
        }
        Ok(out)
    }

    /// The job at the position before `ply`; `new_game`: `ucinewgame` first.
    fn one(
        &mut self,
        task: &GameTask,
        ply: u32,
        pos: &Chess,
        new_game: bool,
    ) -> Result<J::Out, String> {
        let job = self.job;
        let engine = self.ready(task.chess960, new_game)?;
        job.position(engine, task, ply, pos)
    }

    /// The engine, started if needed, in the game's variant, after
    /// `ucinewgame` when a game starts.
    fn ready(&mut self, chess960: bool, new_game: bool) -> Result<&mut Engine, String> {
        if self.engine.is_none() {
            let e = Engine::start(self.cfg).map_err(|e| format!("engine restart failed: {e}"))?;
            self.engine = Some(e);
            self.chess960 = false;
        }
        let engine = self.engine.as_mut().expect("started above");
        if self.chess960 != chess960 {
            engine
                .set_option("UCI_Chess960", if chess960 { "true" } else { "false" })
                .map_err(|e| e.to_string())?;
            self.chess960 = chess960;
        }
        if new_game {
            engine.new_game().map_err(|e| e.to_string())?;
        }
        Ok(engine)
    }

    fn kill(&mut self) {
        if let Some(e) = self.engine.take() {
            e.kill();
        }
    }

    fn stop(&mut self) {
        if let Some(e) = self.engine.take() {
            e.quit();
        }
    }
}
