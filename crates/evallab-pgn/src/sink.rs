//! Where parsed games go: the [`Sink`] trait and the borrowed records handed to it.
//!
//! The game parser keeps a game's moves in its own reused buffers until the
//! game is known to be good, then calls [`Sink::moves`] with its plies (in
//! order) and [`Sink::game`] once; a bad game gets one [`Sink::reject`] call,
//! after [`Sink::playable`] when a runner would still play some of it. Every
//! text field borrows the parser's buffers or the batch, so building a record
//! allocates nothing; a sink copies what it keeps.
//!
//! The fields mirror evallab's `games`, `moves` and `rejects` tables (see its
//! `schema.rs` for the column docs), in the same order.

use crate::comment::{Dialect, EvalKind};

/// Receives the rows of parsed games.
pub trait Sink {
    /// One validated ply of a good game (called before that game's [`Sink::game`]).
    fn mv(&mut self, m: &MoveRecord<'_>);
    /// A good game's plies, in order, before its [`Sink::game`]: the parser
    /// calls this, which is [`Sink::mv`] for each unless a sink takes them
    /// at once (a column at a time).
    fn moves(&mut self, plies: &[MoveRecord<'_>]) {
        for m in plies {
            self.mv(m);
        }
    }
    /// A good game, after all its plies.
    fn game(&mut self, g: &GameRecord<'_>);
    /// A game that could not be read or validated.
    fn reject(&mut self, r: &RejectRecord<'_>);
    /// Before a [`Sink::reject`], the plies of the rejected game that a
    /// match runner still plays: those before a move that cannot be played,
    /// or all of a game cut before its result. The ingest keeps none; an
    /// opening book read as cutechess and fastchess read it plays them.
    fn playable(&mut self, _plies: &[MoveRecord<'_>]) {}
}

/// One row of the `games` table.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GameRecord<'a> {
    pub game_id: i64,
    pub source_file: &'a str,
    pub source_sha256: &'a str,
    pub game_number: u32,
    pub byte_offset: i64,
    pub line: u32,
    pub event: Option<&'a str>,
    pub site: Option<&'a str>,
    /// Days since 1970-01-01.
    pub date: Option<i32>,
    pub round: Option<&'a str>,
    pub white: Option<&'a str>,
    pub black: Option<&'a str>,
    pub result: Option<&'a str>,
    pub white_elo: Option<i32>,
    pub black_elo: Option<i32>,
    pub time_control: Option<&'a str>,
    pub tc_base_s: Option<f64>,
    pub tc_increment_s: Option<f64>,
    pub eco: Option<&'a str>,
    pub opening: Option<&'a str>,
    pub termination: Option<&'a str>,
    pub termination_details: Option<&'a str>,
    pub ply_count_tag: Option<i32>,
    pub start_fen: Option<&'a str>,
    /// Polyglot Zobrist key of the start position.
    pub start_key: u64,
    pub variant: &'a str,
    pub variant_inferred: bool,
    pub engine_options: Option<&'a str>,
    /// u32, as [`MoveRecord::ply`].
    pub plies: u32,
    /// Not bounded by the plies: a game with more than `u32::MAX` is rejected.
    pub variations_skipped: u32,
    pub dialect: Option<Dialect>,
    /// At most one per ply: as wide as `plies`.
    pub evals: u32,
    /// At most one per ply: as wide as `plies`.
    pub unparsed_comments: u32,
    /// The tags without a column of their own, and a typed tag its column
    /// cannot hold (see [`crate::tags::is_unknown`]), as a JSON object.
    pub other_tags: Option<&'a str>,
}

/// One row of the `moves` table.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MoveRecord<'a> {
    pub game_id: i64,
    /// u32: a game has no length limit (the 50-move and threefold draws are
    /// claims; FIDE's automatic 75-move and fivefold rules date from 2014 and
    /// the PGN holds what was played), and u16 ends at 65,535 plies. 2^32
    /// plies would take the parser over a terabyte before they reached it.
    pub ply: u32,
    /// u32 as shakmaty's: a FEN may start the count anywhere.
    pub move_number: u32,
    /// Whether White played the move (the `side` column: `w` / `b`).
    pub white: bool,
    pub san: &'a str,
    pub uci: &'a str,
    /// Polyglot Zobrist key of the position after the move.
    pub key: u64,
    pub is_capture: bool,
    pub is_check: bool,
    pub is_mate: bool,
    /// The promoted-to role as shakmaty's lowercase letter (`q`, `r`, `b`, `n`).
    pub promotion: Option<char>,
    pub is_book: bool,
    pub eval_kind: Option<EvalKind>,
    pub eval_cp: Option<i32>,
    pub mate: Option<i16>,
    pub eval_raw: Option<&'a str>,
    pub depth: Option<i16>,
    pub seldepth: Option<i16>,
    pub nodes: Option<i64>,
    pub nps: Option<i64>,
    pub time_ms: Option<i64>,
    pub time_left_ms: Option<i64>,
    pub tb_hits: Option<i64>,
    pub hash_full: Option<f32>,
    pub ponder_hit: Option<f32>,
    pub latency_ms: Option<i64>,
    pub expected_reply: Option<&'a str>,
    pub pv: Option<&'a str>,
    pub r50: Option<i16>,
    pub rd: Option<i16>,
    pub rr: Option<i16>,
    pub mb: Option<&'a str>,
    pub wdl: Option<&'a str>,
    pub comment_extra: Option<&'a str>,
    /// White then Black, each P N B R Q.
    pub material: [[u8; 5]; 2],
    /// White minus Black in pawn units ([`crate::game::PIECE_VALUES`]).
    pub material_balance: i16,
    /// u32 as shakmaty's: without a claim it grows with the game, and a FEN
    /// may set it anywhere.
    pub halfmove_clock: u32,
    /// u32: a position recurs as often as the game's length allows (a
    /// knight shuffle is back at the start every 4 plies).
    pub repetition: u32,
    pub dead_material: bool,
}

/// One row of the `rejects` table.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RejectRecord<'a> {
    pub game_id: i64,
    pub source_file: &'a str,
    pub source_sha256: &'a str,
    pub game_number: u32,
    pub line: u32,
    pub byte_offset: i64,
    pub event: Option<&'a str>,
    pub round: Option<&'a str>,
    pub white: Option<&'a str>,
    pub black: Option<&'a str>,
    /// u32, as [`MoveRecord::ply`].
    pub ply_reached: u32,
    pub reason: &'a str,
}

/// A sink that only counts (benches, fuzzing, quick checks).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counter {
    pub games: u64,
    pub moves: u64,
    pub rejects: u64,
    /// Plies with a centipawn or mate eval.
    pub evals: u64,
    /// Bytes of every text field seen, so that none of them is optimised away.
    pub text_bytes: u64,
}

fn len(s: Option<&str>) -> u64 {
    s.map_or(0, |s| s.len() as u64)
}

impl Sink for Counter {
    fn mv(&mut self, m: &MoveRecord<'_>) {
        self.moves += 1;
        if matches!(m.eval_kind, Some(EvalKind::Cp | EvalKind::Mate)) {
            self.evals += 1;
        }
        self.text_bytes += (m.san.len() + m.uci.len()) as u64
            + len(m.eval_raw)
            + len(m.expected_reply)
            + len(m.pv)
            + len(m.mb)
            + len(m.wdl)
            + len(m.comment_extra);
    }

    fn game(&mut self, g: &GameRecord<'_>) {
        self.games += 1;
        self.text_bytes += len(g.event) + len(g.other_tags) + len(g.engine_options);
    }

    fn reject(&mut self, r: &RejectRecord<'_>) {
        self.rejects += 1;
        self.text_bytes += r.reason.len() as u64;
    }
}
