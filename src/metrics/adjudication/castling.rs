//! Castling rights as cutechess's board keeps them, for one reason: cutechess
//! counts a rook move that gives up a castling right as irreversible
//! (`WesternBoard::vMakeMove`), so it zeroes the TCEC draw count and prints
//! `R50=50`, although the FIDE halfmove clock goes on. Pure: no polars, no I/O.

use shakmaty::fen::Fen;
use shakmaty::{Bitboard, CastlingMode, Chess, Color, Position, Square};

/// A game's start position: the standard one without a FEN; X-FEN or
/// Shredder-FEN (Chess960 too); None when the FEN does not parse.
pub fn start_position(fen: Option<&str>) -> Option<Chess> {
    match fen {
        None => Some(Chess::default()),
        Some(fen) => Fen::from_ascii(fen.as_bytes())
            .ok()
            .and_then(|f| f.into_position::<Chess>(CastlingMode::Chess960).ok()),
    }
}

/// The squares of the rooks that may still castle, and of the kings that
/// still may (a king move gives up both its rights).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CastlingRooks {
    rooks: Bitboard,
    kings: Bitboard,
}

impl CastlingRooks {
    /// The rights of a start position (None: a FEN that did not parse, so
    /// nothing can give a right up).
    pub fn new(start: Option<&Chess>) -> CastlingRooks {
        let Some(pos) = start else {
            return CastlingRooks {
                rooks: Bitboard::EMPTY,
                kings: Bitboard::EMPTY,
            };
        };
        let rooks = pos.castles().castling_rights();
        let kings = Color::ALL
            .into_iter()
            .filter(|&c| pos.castles().has_color(c))
            .filter_map(|c| pos.board().king_of(c))
            .collect();
        CastlingRooks { rooks, kings }
    }

    /// Plays one move, given as UCI (from and to squares; castling as the
    /// king's move, either notation) and says whether it was a rook leaving a
    /// square that still had its castling right. While a right exists, the
    /// piece on its rook square is that rook, and on its king square the king.
    ///
    /// ```
    /// use evallab::metrics::adjudication::castling::{CastlingRooks, start_position};
    /// let mut c = CastlingRooks::new(start_position(None).as_ref());
    /// assert!(c.play("h1g1"));  // Rg1 gives up O-O: irreversible
    /// assert!(!c.play("g1h1")); // back on h1, no right left
    /// assert!(!c.play("e8e7")); // king moves stay reversible...
    /// assert!(!c.play("a8a7")); // ... and took Black's rights with them
    /// ```
    pub fn play(&mut self, uci: &str) -> bool {
        if self.rooks.is_empty() {
            return false;
        }
        let square = |i: usize| uci.get(i..i + 2).and_then(|s| s.parse::<Square>().ok());
        let (Some(from), Some(to)) = (square(0), square(2)) else {
            return false;
        };
        if self.kings.contains(from) {
            self.rooks &= !Bitboard::from(from.rank());
            self.kings.discard(from);
            return false;
        }
        let gives_up = self.rooks.contains(from);
        // A rook captured on its square takes its right with it.
        self.rooks &= !(Bitboard::from(from) | Bitboard::from(to));
        gives_up
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chess960_rights_come_from_the_start_fen() {
        // Rooks on b1/e1 (b8/e8), king on d1: KQkq are the outer rooks.
        let fen = "qrnkrbbn/pppppppp/8/8/8/8/PPPPPPPP/QRNKRBBN w KQkq - 0 1";
        let mut c = CastlingRooks::new(start_position(Some(fen)).as_ref());
        assert!(!c.play("c1c3"));
        assert!(c.play("b1a1"), "b1 had the O-O-O right");
        assert!(!c.play("a1b1"), "the right is gone");
        assert!(c.play("e8f8"), "e8 had Black's O-O right");
        // Castling (king takes own rook) clears the mover's rights without
        // being irreversible; the rook then stands on f1.
        assert!(!c.play("d1e1"));
        assert!(!c.play("f1f2"));
        // Black's king still may castle O-O-O with b8.
        assert!(c.play("b8c8"));
        // A FEN without rights, and one that does not parse.
        let none = "4k3/8/8/8/8/8/8/R3K2R w - - 0 1";
        assert!(!CastlingRooks::new(start_position(Some(none)).as_ref()).play("a1b1"));
        assert!(start_position(Some("nonsense")).is_none());
        assert!(!CastlingRooks::new(None).play("a1b1"));
    }
}
