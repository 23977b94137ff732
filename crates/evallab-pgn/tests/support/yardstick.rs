//! pgn-reader 0.29 with shakmaty as a validating PGN reader: the yardstick of
//! the own lexer (issue 41), shared by `benches/parse.rs` and
//! `tests/differential.rs`. It reads the mainline's SAN, plays each move
//! (which validates it) and keeps its UCI; variations are skipped.
// The bench counts plies, the test compares the rest: each reads a part.
#![allow(dead_code)]

use std::ops::ControlFlow;

use pgn_reader::{RawTag, SanPlus, Visitor};
use shakmaty::{CastlingMode, Chess, Position};

/// The visitor; `keep_uci` keeps each game's moves (the test), else only
/// counts them (the bench).
pub struct Validate {
    pub keep_uci: bool,
}

/// One game as pgn-reader reads it.
#[derive(Debug, Default)]
pub struct Game {
    /// Event, Round, White and Black, as written (to find the game again).
    pub tags: [String; 4],
    pub plies: usize,
    pub uci: Vec<String>,
    /// The first move that is not legal, with the reason.
    pub error: Option<String>,
    /// A FEN tag: the game does not start from the standard position, and its
    /// moves are not played here.
    pub custom_start: bool,
}

pub struct Moves {
    pos: Chess,
    game: Game,
}

impl Visitor for Validate {
    type Tags = (bool, [String; 4]);
    type Movetext = Moves;
    type Output = Game;

    fn begin_tags(&mut self) -> ControlFlow<Game, Self::Tags> {
        ControlFlow::Continue(Default::default())
    }

    fn tag(&mut self, tags: &mut Self::Tags, name: &[u8], value: RawTag<'_>) -> ControlFlow<Game> {
        tags.0 |= name == b"FEN";
        let at = [&b"Event"[..], b"Round", b"White", b"Black"]
            .iter()
            .position(|n| *n == name);
        if let Some(i) = at {
            tags.1[i] = value.decode_utf8_lossy().into_owned();
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, (custom, tags): Self::Tags) -> ControlFlow<Game, Moves> {
        ControlFlow::Continue(Moves {
            pos: Chess::default(),
            game: Game {
                tags,
                custom_start: custom,
                ..Game::default()
            },
        })
    }

    fn san(&mut self, m: &mut Moves, san_plus: SanPlus) -> ControlFlow<Game> {
        if m.game.error.is_some() || m.game.custom_start {
            return ControlFlow::Continue(());
        }
        match san_plus.san.to_move(&m.pos) {
            Ok(mv) => {
                if self.keep_uci {
                    m.game
                        .uci
                        .push(mv.to_uci(CastlingMode::Standard).to_string());
                }
                m.pos.play_unchecked(mv);
                m.game.plies += 1;
            }
            Err(e) => m.game.error = Some(format!("ply {}: {san_plus}: {e}", m.game.plies + 1)),
        }
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, m: Moves) -> Game {
        m.game
    }
}
