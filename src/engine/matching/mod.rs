//! `match`: Regan's zig-zag protocol automated on the analysis stage's
//! engine pool (`analysis.md` §3).
//!
//! For each tested move (a move of the tested player, non-book if asked, in
//! the move range), in game order and without `ucinewgame` between the moves
//! of a game: MLM (MultiPV k) to the MLM depth, SLM (MultiPV 1) to depth d
//! recording the first choice at every depth dmin..d, MLM again to the final
//! depth dL. The outcome ([`crate::metrics::matching::math::outcome`]) and
//! the move's labelled engine output go to the `match` table, committed in
//! chunks like `analyze`'s (a killed run resumes, a finished one does no
//! work); [`files`] then writes the logs, the results files and
//! `match.parquet` into the output folder.

pub mod files;
pub mod rows;

use std::collections::{HashMap, HashSet};

use arrow::record_batch::RecordBatch;
use evallab_uci::{Engine, Limit, Search};
use polars::prelude::*;
use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Position};

use crate::Error;
use crate::dataset::Dataset;
use crate::engine::analyze::rows::Line;
use crate::engine::pool::{GameResult, Job};
use crate::engine::positions::{self, GameTask, Selection, fen_of};
use crate::engine::{RunOptions, Stage, StageReport, check_reserved, options_sent, stopped};
use crate::metrics::matching::format::{eval_text, line_of, move_text};
use crate::metrics::matching::math::{Eval, MoveEvidence, outcome};
use crate::schema::{GAMES, MATCH, MatchBuilder, Table, col};
use rows::MatchRow;

/// Options of a match run.
#[derive(Debug, Clone)]
pub struct MatchOptions {
    /// The engine, jobs, label (`None`: `match-<engine file name>-<fingerprint>`),
    /// shard, timeouts.
    pub run: RunOptions,
    /// Extra `setoption`s, sent after Threads, Hash and MultiPV.
    pub engine_options: Vec<(String, String)>,
    /// The tested player: a regex on the mover's name.
    pub player: String,
    pub event: Option<String>,
    /// Inclusive range of move numbers (as printed).
    pub moves: Option<(u32, u32)>,
    pub skip_book: bool,
    pub max_games: Option<usize>,
    /// Only the K-th of N contiguous slices of the selected games.
    pub slice: Option<(usize, usize)>,
    /// MLM (the "12/12" data): depth and lines.
    pub mlm_depth: u32,
    pub multipv: u32,
    /// SLM depths dmin..=d.
    pub slm_depths: (u32, u32),
    /// Depth of the final MLM (dL).
    pub final_depth: u32,
    pub threads: u32,
    pub hash_mb: u32,
}

impl MatchOptions {
    /// The protocol's searches, as stored in the run's settings.
    pub fn protocol(&self) -> String {
        let (a, b) = self.slm_depths;
        format!(
            "match: mlm depth {} multipv {}; slm depth {a}..{b}; final mlm depth {}",
            self.mlm_depth, self.multipv, self.final_depth
        )
    }

    /// The move range as stored in the run's settings (`moves A..B`).
    pub fn moves_text(&self) -> Option<String> {
        self.moves.map(|(a, b)| format!("moves {a}..{b}"))
    }
}

/// A tested move, known before any engine runs.
#[derive(Debug, Clone)]
struct Tested {
    player: String,
    white: bool,
    move_number: u32,
    san: String,
    repetition: bool,
}

/// The `match` stage: the protocol at each tested move.
#[derive(Debug, Clone)]
pub struct Match {
    opts: MatchOptions,
    /// The tested moves by (game, ply), known once selected.
    tested: HashMap<(i64, u32), Tested>,
}

impl Match {
    /// Checks what can be checked before any engine runs.
    pub fn new(opts: MatchOptions) -> Result<Match, Error> {
        let o = &opts;
        check_reserved(&o.engine_options)?;
        if o.multipv < 2 || o.run.jobs == 0 || o.threads == 0 {
            return Err(Error::Usage(
                "--multipv must be at least 2 (the best alternative), --jobs and --threads at least 1"
                    .into(),
            ));
        }
        let (a, b) = o.slm_depths;
        if a == 0 || b < a || o.mlm_depth == 0 || o.final_depth == 0 {
            return Err(Error::Usage(format!(
                "depths: expected 1 <= dmin <= d and MLM, final depths >= 1 (got --slm-depths {a}..{b}, \
                 --mlm-depth {}, --final-depth {})",
                o.mlm_depth, o.final_depth
            )));
        }
        regex::Regex::new(&o.player)
            .map_err(|e| Error::Usage(format!("--player: bad regex `{}`: {e}", o.player)))?;
        Ok(Match {
            opts,
            tested: HashMap::new(),
        })
    }

    pub fn options(&self) -> &MatchOptions {
        &self.opts
    }
}

impl Stage for Match {
    const NAME: &'static str = "match";
    const TABLE: &'static Table = &MATCH;

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
            "protocol": o.protocol(),
            "moves": o.moves_text(),
            "skip_book": o.skip_book,
            "player": o.player,
        })
    }

    fn default_label(&self, fingerprint: &str) -> String {
        let stem = (self.opts.run.engine.file_stem())
            .map_or("engine".into(), |s| s.to_string_lossy().into_owned());
        format!("match-{stem}-{fingerprint}")
    }

    /// The selected games with their tested plies; what is known of each
    /// tested move before any search (mover, SAN, move number, repetition)
    /// is kept for the job.
    fn games(&self) -> crate::metrics::Selection {
        crate::metrics::Selection {
            event: self.opts.event.clone(),
            engine: Some(self.opts.player.clone()),
            ..Default::default()
        }
    }

    fn select(&mut self, ds: &Dataset) -> Result<Vec<GameTask>, Error> {
        let opts = &self.opts;
        let sel = Selection {
            games: self.games(),
            plies: None,
            skip_book: opts.skip_book,
            max_games: opts.max_games,
            slice: opts.slice,
        };
        let mut tasks = positions::select(ds, &sel)?;
        let names = names(ds)?;
        let re = regex::Regex::new(&opts.player)
            .map_err(|e| Error::Usage(format!("--player: bad regex: {e}")))?;
        let tested = &mut self.tested;
        for t in &mut tasks {
            let (white, black) = names.get(&t.game_id).cloned().unwrap_or_default();
            let want: HashSet<u32> = t.plies.iter().copied().collect();
            let mut keep = Vec::new();
            // An unreplayable game keeps its plies: the pool records the failure.
            let Ok(mut pos) = t.start() else { continue };
            let mut seen: HashSet<String> = HashSet::from([position_key(&pos)]);
            for (ply, m) in (1..).zip(&t.moves) {
                let Some(mv) = m.parse::<UciMove>().ok().and_then(|u| u.to_move(&pos).ok()) else {
                    break;
                };
                let is_white = pos.turn().is_white();
                let name = if is_white { &white } else { &black };
                let move_number = pos.fullmoves().get();
                let in_range = opts
                    .moves
                    .is_none_or(|(a, b)| (a..=b).contains(&move_number));
                let san = SanPlus::from_move(pos.clone(), mv).to_string();
                pos.play_unchecked(mv);
                let repetition = !seen.insert(position_key(&pos));
                if want.contains(&ply) && in_range && re.is_match(name) {
                    keep.push(ply);
                    tested.insert(
                        (t.game_id, ply),
                        Tested {
                            player: name.clone(),
                            white: is_white,
                            move_number,
                            san,
                            repetition,
                        },
                    );
                }
            }
            t.plies = keep;
        }
        tasks.retain(|t| !t.plies.is_empty());
        Ok(tasks)
    }

    fn tally(&self, _row: &MatchRow, report: &mut StageReport) {
        report.rows += 1;
    }

    fn rows(&self, label: &str, results: &[GameResult<MatchRow>]) -> RecordBatch {
        let mut m = MatchBuilder::default();
        for r in results {
            for (_, _, row) in &r.out {
                m.push(r.game_id, label, row);
            }
        }
        m.finish()
    }
}

/// A position for repetition: the FEN without its move counters.
fn position_key(pos: &Chess) -> String {
    let fen = fen_of(pos);
    fen.split(' ').take(4).collect::<Vec<_>>().join(" ")
}

/// White and Black of every game.
fn names(ds: &Dataset) -> Result<HashMap<i64, (String, String)>, Error> {
    let df = ds
        .scan(&GAMES)?
        .select([col(col::GAME_ID), col(col::WHITE), col(col::BLACK)])
        .collect()?;
    let ids = df.column(col::GAME_ID)?.i64()?;
    let w = df.column(col::WHITE)?.str()?;
    let b = df.column(col::BLACK)?.str()?;
    Ok((0..df.height())
        .filter_map(|i| {
            let name = |c: &StringChunked| c.get(i).unwrap_or("?").to_string();
            Some((ids.get(i)?, (name(w), name(b))))
        })
        .collect())
}

impl Match {
    /// One search of the position before `ply`, its lines checked.
    fn go(
        &self,
        engine: &mut Engine,
        (task, ply, pos): (&GameTask, u32, &Chess),
        multipv: u32,
        depth: u32,
        searchmoves: &[String],
    ) -> Result<Vec<Line>, String> {
        engine
            .set_option("MultiPV", &multipv.to_string())
            .map_err(|e| e.to_string())?;
        let moves = task.moves_before(ply);
        let search: Search = engine
            .search_moves(
                task.start_fen.as_deref(),
                moves,
                Limit::Depth(depth),
                searchmoves,
                self.opts.run.timeout,
            )
            .map_err(|e| e.to_string())?;
        if search.stopped {
            return Err(stopped(self.opts.run.timeout));
        }
        crate::engine::analyze::rows::lines(&search, pos, true)
    }
}

impl Job for Match {
    type Out = MatchRow;

    fn position(
        &self,
        engine: &mut Engine,
        task: &GameTask,
        ply: u32,
        pos: &Chess,
    ) -> Result<MatchRow, String> {
        let o = &self.opts;
        let t = self
            .tested
            .get(&(task.game_id, ply))
            .ok_or_else(|| format!("ply {ply} was not selected"))?;
        let played = task.moves[ply as usize - 1].clone();
        let (dmin, d) = o.slm_depths;
        let here = (task, ply, pos);
        let mlm = self.go(engine, here, o.multipv, o.mlm_depth, &[])?;
        let slm = self.go(engine, here, 1, d, &[])?;
        let fin = self.go(engine, here, o.multipv, o.final_depth, &[])?;
        let at = |lines: &[Line], depth: u32| -> Vec<Line> {
            lines
                .iter()
                .filter(|l| u32::from(l.depth) == depth)
                .cloned()
                .collect()
        };
        let mlm = at(&mlm, o.mlm_depth);
        let fin = at(&fin, o.final_depth);
        // The first choice at each SLM depth; a depth the engine skipped
        // keeps the deepest choice below it (what it would have played).
        let mut slm_first = Vec::new();
        let mut slm_lines = Vec::new();
        for depth in dmin..=d {
            let l = slm
                .iter()
                .filter(|l| l.multipv == 1 && u32::from(l.depth) <= depth)
                .max_by_key(|l| l.depth)
                .ok_or_else(|| format!("SLM: no line up to depth {depth}"))?;
            slm_first.push(l.pv[0].clone());
            slm_lines.push((depth, l.clone()));
        }
        let exact = |l: &Line| (l.bound == "exact").then(|| eval_of(l)).flatten();
        let final_lines: Vec<(String, Eval)> = fin
            .iter()
            .map_while(|l| Some((l.pv[0].clone(), exact(l)?)))
            .collect();
        let mut extra = None;
        let played_eval = match fin.iter().find(|l| l.pv[0] == played) {
            Some(l) => exact(l),
            None => {
                let r = self.go(
                    engine,
                    here,
                    1,
                    o.final_depth,
                    std::slice::from_ref(&played),
                )?;
                let l = at(&r, o.final_depth)
                    .into_iter()
                    .find(|l| l.pv[0] == played);
                let e = l.as_ref().and_then(exact);
                extra = l;
                e
            }
        };
        let ev = MoveEvidence {
            played: played.clone(),
            slm_first: slm_first.clone(),
            final_lines,
            played_eval,
            repetition: t.repetition,
        };
        let out = outcome(&ev);
        let mv = move_text(t.move_number, t.white, &t.san);
        let line = line_of(&t.player, &out, &mv);
        let mut log = format!("{mv} (ply {ply})\n");
        log.push_str(&format!(
            "MLM {0}/{0} (MultiPV {1}):\n",
            o.mlm_depth, o.multipv
        ));
        log.push_str(&lines_text(pos, &mlm));
        log.push_str(&format!("SLM depths {dmin}..{d} (MultiPV 1):\n"));
        for (depth, l) in &slm_lines {
            log.push_str(&format!(
                "  depth {depth:>2}: {} {}\n",
                san_line(pos, &l.pv[..1]),
                eval_of(l).map_or("?".into(), eval_text)
            ));
        }
        log.push_str(&format!(
            "MLM end of depth {} (MultiPV {}):\n",
            o.final_depth, o.multipv
        ));
        log.push_str(&lines_text(pos, &fin));
        if let Some(l) = &extra {
            log.push_str("Played move (searchmoves):\n");
            log.push_str(&lines_text(pos, std::slice::from_ref(l)));
        }
        log.push_str(&line);
        log.push('\n');
        Ok(MatchRow {
            ply,
            player: t.player.clone(),
            white: t.white,
            move_number: t.move_number,
            san: t.san.clone(),
            played,
            repetition: t.repetition,
            top_move: fin.first().map(|l| l.pv[0].clone()),
            slm_moves: slm_first,
            outcome: out,
            line,
            log,
        })
    }
}

/// A kept line's score (mover POV).
fn eval_of(l: &Line) -> Option<Eval> {
    match (l.score_cp, l.score_mate) {
        (Some(cp), _) => Some(Eval::Cp(cp)),
        (None, Some(m)) => Some(Eval::Mate(i32::from(m))),
        _ => None,
    }
}

/// MultiPV lines as the log prints them: rank, eval, depth, PV in SAN.
fn lines_text(pos: &Chess, lines: &[Line]) -> String {
    lines
        .iter()
        .map(|l| {
            let bound = match l.bound {
                "exact" => "",
                "lower" => " (lowerbound)",
                _ => " (upperbound)",
            };
            format!(
                "  {:>2}. {:>6}{bound} d{} {}\n",
                l.multipv,
                eval_of(l).map_or("?".into(), eval_text),
                l.depth,
                san_line(pos, &l.pv)
            )
        })
        .collect()
}

/// A PV in SAN (up to 12 moves, stopping at an illegal one).
fn san_line(pos: &Chess, pv: &[String]) -> String {
    let mut p = pos.clone();
    let mut out = Vec::new();
    for m in pv.iter().take(12) {
        let Some(mv) = m.parse::<UciMove>().ok().and_then(|u| u.to_move(&p).ok()) else {
            break;
        };
        out.push(SanPlus::from_move_and_play_unchecked(&mut p, mv).to_string());
    }
    out.join(" ")
}
