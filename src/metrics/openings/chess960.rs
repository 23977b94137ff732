//! Chess960 start positions by their Scharnagl number (SP 0–959), the name a
//! Chess960 game has where no opening table applies.

use polars::prelude::*;

use crate::Error;
use crate::schema::{col, opening_col};

/// The standard start's board, the start of a game without a FEN tag.
const STANDARD_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
/// The name column of [`start_positions`].
pub const NAME: &str = "chess960_name";

/// The knight pair among the five squares left after the bishops and the
/// queen, by the ten rows of Scharnagl's KRN table (the digit is the row).
const KNIGHTS: [(usize, usize); 10] = [
    (0, 1),
    (0, 2),
    (0, 3),
    (0, 4),
    (1, 2),
    (1, 3),
    (1, 4),
    (2, 3),
    (2, 4),
    (3, 4),
];

/// The Scharnagl number of a back rank given from file a to file h in
/// upper-case letters (`RNBQKBNR` is 518), or `None` when it is no Chess960
/// arrangement (bishops on squares of one colour, the king outside the
/// rooks, other pieces). The bishops count by file (b, d, f, h light as on
/// rank 1), so Black's rank 8 reads with the same rule.
pub fn scharnagl(rank: &str) -> Option<u16> {
    let pieces = rank.as_bytes();
    if pieces.len() != 8 {
        return None;
    }
    let bishops: Vec<usize> = (0..8).filter(|&f| pieces[f] == b'B').collect();
    let [a, b] = bishops[..] else { return None };
    if a % 2 == b % 2 {
        return None;
    }
    let (light, dark) = if a % 2 == 1 { (a, b) } else { (b, a) };
    // The squares still free after each step, in file order.
    let free: Vec<usize> = (0..8).filter(|&f| pieces[f] != b'B').collect();
    let queens: Vec<usize> = (0..6).filter(|&i| pieces[free[i]] == b'Q').collect();
    let [queen] = queens[..] else { return None };
    let free: Vec<usize> = free.into_iter().filter(|&f| pieces[f] != b'Q').collect();
    let knights: Vec<usize> = (0..5).filter(|&i| pieces[free[i]] == b'N').collect();
    let [n1, n2] = knights[..] else { return None };
    let row = KNIGHTS.iter().position(|&k| k == (n1, n2))?;
    let rest: Vec<u8> = free
        .iter()
        .filter(|&&f| pieces[f] != b'N')
        .map(|&f| pieces[f])
        .collect();
    if rest != b"RKR" {
        return None;
    }
    Some((light / 2 + 4 * (dark / 2) + 16 * queen + 96 * row) as u16)
}

/// The back ranks of a FEN's board, White's (rank 1) and Black's (rank 8),
/// both in upper case, each `None` unless all eight squares hold a piece of
/// that side.
pub fn back_ranks(fen: &str) -> (Option<String>, Option<String>) {
    let board = fen.split(' ').next().unwrap_or("");
    let ranks: Vec<&str> = board.split('/').collect();
    let full = |r: Option<&&str>, white: bool| {
        r.filter(|r| {
            r.len() == 8
                && r.bytes()
                    .all(|c| c.is_ascii_alphabetic() && (c.is_ascii_uppercase() == white))
        })
        .map(|r| r.to_ascii_uppercase())
    };
    if ranks.len() != 8 {
        return (None, None);
    }
    (full(ranks.last(), true), full(ranks.first(), false))
}

/// The opening name of a Chess960 start: `Chess960 SP 518 RNBQKBNR`, or, when
/// the sides start from different arrangements (Double Fischer Random),
/// White's then Black's: `Chess960 SP 0 BBQNNRKR / SP 959 RKRNNQBB`.
pub fn name(white: (u16, &str), black: (u16, &str)) -> String {
    if white.0 == black.0 {
        format!("Chess960 SP {} {}", white.0, white.1)
    } else {
        format!(
            "Chess960 SP {} {} / SP {} {}",
            white.0, white.1, black.0, black.1
        )
    }
}

/// The Chess960 games of `games` with their start positions: `game_id`, the
/// SP of each side's back rank (null when it is no arrangement) and [`NAME`]
/// (null unless both sides have one).
pub fn start_positions(games: LazyFrame) -> Result<DataFrame, Error> {
    let df = games
        .filter(col(col::VARIANT).eq(lit("chess960")))
        .select([col(col::GAME_ID), col(col::START_FEN)])
        .collect()?;
    let fens = df.column(col::START_FEN)?.str()?;
    let (mut white, mut black, mut names) = (Vec::new(), Vec::new(), Vec::new());
    for fen in fens.iter() {
        let (w, b) = back_ranks(fen.unwrap_or(STANDARD_FEN));
        let sp = |r: &Option<String>| r.as_deref().and_then(scharnagl);
        let (sw, sb) = (sp(&w), sp(&b));
        names.push(match (sw, sb, &w, &b) {
            (Some(sw), Some(sb), Some(w), Some(b)) => Some(name((sw, w), (sb, b))),
            _ => None,
        });
        white.push(sw.map(|n| n as i16));
        black.push(sb.map(|n| n as i16));
    }
    Ok(df!(
        col::GAME_ID => df.column(col::GAME_ID)?.as_materialized_series().clone(),
        opening_col::CHESS960_SP[0] => white,
        opening_col::CHESS960_SP[1] => black,
        NAME => names,
    )?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_anchors_of_the_numbering() {
        assert_eq!(scharnagl("RNBQKBNR"), Some(518));
        assert_eq!(scharnagl("BBQNNRKR"), Some(0));
        assert_eq!(scharnagl("RKRNNQBB"), Some(959));
    }

    #[test]
    fn hand_computed_numbers() {
        // Bishops a (dark: 0) and d (light: 1); the queen 5th of b c e f g h
        // (4); knights 1st and 5th of b c e f h (row 3): 1 + 0 + 64 + 288.
        assert_eq!(scharnagl("BNRBKRQN"), Some(353));
        // b (0), a (0); queen 4th of c d e f g h (3); knights 2nd and 4th of
        // c d e g h (row 5): 0 + 0 + 48 + 480.
        assert_eq!(scharnagl("BBRNKQNR"), Some(528));
        // b (0), g (3); queen 4th of a c d e f h (3); knights 3rd and 4th of
        // a c d f h (row 7): 0 + 12 + 48 + 672.
        assert_eq!(scharnagl("RBKNQNBR"), Some(732));
        // d (1), c (1); queen 4th of a b e f g h (3); row 5: 1 + 4 + 48 + 480.
        assert_eq!(scharnagl("RNBBKQNR"), Some(533));
    }

    #[test]
    fn ranks_that_are_no_arrangement() {
        assert_eq!(scharnagl("RNBQKBN"), None);
        // Both bishops on dark squares (c, g).
        assert_eq!(scharnagl("RNBKQNBR"), None);
        // The king outside the rooks.
        assert_eq!(scharnagl("KRNBBQNR"), None);
        assert_eq!(scharnagl("RNBQKBNP"), None);
        assert_eq!(scharnagl("RNBQQBNR"), None);
        assert_eq!(scharnagl("rnbqkbnr"), None);
    }

    #[test]
    fn back_ranks_of_a_fen_and_names() {
        let fen = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w KQkq - 0 1";
        assert_eq!(
            back_ranks(fen),
            (Some("RKRNNQBB".into()), Some("BBQNNRKR".into()))
        );
        assert_eq!(back_ranks("4k3/8/8/8/8/8/4P3/4K3 b - - 0 40"), (None, None));
        assert_eq!(
            name((518, "RNBQKBNR"), (518, "RNBQKBNR")),
            "Chess960 SP 518 RNBQKBNR"
        );
        assert_eq!(
            name((959, "RKRNNQBB"), (0, "BBQNNRKR")),
            "Chess960 SP 959 RKRNNQBB / SP 0 BBQNNRKR"
        );
    }
}
