//! The movetext lexer: a game's movetext cut into words, comments and
//! variations, with the markup that carries no move (move numbers, results,
//! NAGs, `!`/`?` glyphs, `;` and `%` lines) consumed here.
//!
//! Every other run of characters is a [`Token::Word`], which the game reader
//! must play as a move or reject the game with, and a `}` or `)` that closes
//! nothing is a [`Token::Stray`] it keeps: no text outside comments and
//! variations is dropped. A word ends at whitespace or at one of
//! `{ } ( ) ; $ ! ? . *`, so `1.e4`, `Nf3!?` and `e4$1` are read as a move
//! number or a glyph beside their move.
//!
//! Brace comments may nest (`{ a { b } c }` is one comment) when the braces
//! balance before the movetext ends; otherwise the comment ends at its first
//! `}`, as the PGN standard has it.
//!
//! ```
//! use evallab_pgn::movetext::{Lexer, Token};
//! let mt = b"1. e4 {+0.3/20 1s} e5!? (1... c5 2. Nf3) 2.Nf3 $1 { a { b } c } 1-0";
//! let tokens: Vec<Token> = Lexer::new(mt).map(|(_, t)| t.unwrap()).collect();
//! assert_eq!(
//!     tokens,
//!     [
//!         Token::Word(b"e4"),
//!         Token::Comment(b"+0.3/20 1s"),
//!         Token::Word(b"e5"),
//!         Token::Variation,
//!         Token::Word(b"Nf3"),
//!         Token::Comment(b" a { b } c "),
//!     ]
//! );
//! ```

use memchr::{memchr, memchr2};
use shakmaty::san::San;
use shakmaty::uci::UciMove;

/// A unit of movetext that is not markup.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Token<'a> {
    /// A word where a move stands: SAN, LAN, UCI, or anything else.
    Word(&'a [u8]),
    /// A brace comment's text, without its outer braces.
    Comment(&'a [u8]),
    /// A variation `( … )`, skipped whole.
    Variation,
    /// A `}` or `)` that closes nothing: kept by the game reader as text
    /// beside the move before it, never dropped.
    Stray(&'a [u8]),
}

/// Movetext the lexer cannot cut into tokens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LexError {
    /// A `{` without a `}` before the movetext ends.
    UnterminatedComment,
    /// A `(` without its `)` before the movetext ends.
    UnterminatedVariation,
}

impl std::fmt::Display for LexError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            LexError::UnterminatedComment => "unterminated comment",
            LexError::UnterminatedVariation => "unterminated variation",
        })
    }
}

/// The tokens of one movetext, each with its byte position; after an error
/// it yields nothing more. A result (`1-0`, `0-1`, `1/2-1/2`, `*`, and their
/// dash and `½` spellings) ends the game: the lexer stops there, and
/// [`Lexer::result`] and [`Lexer::rest`] say what it was and what followed.
#[derive(Debug, Clone)]
pub struct Lexer<'a> {
    b: &'a [u8],
    pos: usize,
    result: Option<&'a [u8]>,
    rest: usize,
}

impl<'a> Lexer<'a> {
    pub fn new(movetext: &'a [u8]) -> Self {
        Lexer {
            b: movetext,
            pos: 0,
            result: None,
            rest: movetext.len(),
        }
    }

    /// The game's result as the movetext wrote it, once read.
    pub fn result(&self) -> Option<&'a [u8]> {
        self.result
    }

    /// The movetext after the result (all of it past the end without one).
    pub fn rest(&self) -> &'a [u8] {
        &self.b[self.rest..]
    }

    /// Stops at a result that spans `at..end`.
    fn finish(&mut self, at: usize, end: usize) {
        self.result = Some(&self.b[at..end]);
        self.rest = end;
        self.pos = self.b.len();
    }

    fn fail(&mut self, at: usize, e: LexError) -> Option<(usize, Result<Token<'a>, LexError>)> {
        self.pos = self.b.len();
        Some((at, Err(e)))
    }
}

/// The bytes that end a word: ASCII whitespace and `{ } ( ) ; $ ! ? . *`.
const ENDS_WORD: [bool; 256] = {
    let mut t = [false; 256];
    let ends = b" \t\n\r\x0c{}();$!?.*";
    let mut i = 0;
    while i < ends.len() {
        t[ends[i] as usize] = true;
        i += 1;
    }
    t
};

/// The end of the comment whose text starts at `from` (after its `{`): the
/// position of the `}` that closes it.
fn comment_end(b: &[u8], from: usize) -> Option<usize> {
    let i = from + memchr2(b'{', b'}', &b[from..])?;
    if b[i] == b'}' {
        return Some(i);
    }
    let first = i + memchr(b'}', &b[i..])?;
    // Nested braces: the matching `}` if there is one, else the first.
    let (mut depth, mut i) = (1usize, from);
    while let Some(n) = memchr2(b'{', b'}', &b[i..]) {
        i += n;
        if b[i] == b'{' {
            depth += 1;
        } else {
            depth -= 1;
            if depth == 0 {
                return Some(i);
            }
        }
        i += 1;
    }
    Some(first)
}

/// The end of the variation whose text starts at `i` (after its `(`): the
/// position of its `)`. Comments, `;` and `%` lines inside are skipped.
fn variation_end(b: &[u8], mut i: usize) -> Result<usize, LexError> {
    let mut depth = 1usize;
    while i < b.len() {
        match b[i] {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return Ok(i);
                }
            }
            b'{' => i = comment_end(b, i + 1).ok_or(LexError::UnterminatedComment)?,
            b';' => i = line_end(b, i),
            b'%' if at_line_start(b, i) => i = line_end(b, i),
            _ => {}
        }
        i += 1;
    }
    Err(LexError::UnterminatedVariation)
}

/// The position of the newline ending the line at `i` (or the end).
fn line_end(b: &[u8], i: usize) -> usize {
    memchr(b'\n', &b[i..]).map_or(b.len(), |n| i + n)
}

fn at_line_start(b: &[u8], i: usize) -> bool {
    i == 0 || b[i - 1] == b'\n'
}

/// The evaluation symbols some writers put as text instead of NAGs.
pub const EVAL_SYMBOLS: [&str; 14] = [
    "+-", "-+", "+/-", "-/+", "+=", "=+", "+/=", "=/+", "=", "∞", "±", "∓", "⩲", "⩱",
];

/// What a word that is no move stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Markup {
    /// Not markup: a move, or a word to reject.
    None,
    /// A move number or an evaluation symbol.
    Skip,
    /// The game's result.
    Result,
}

/// Whether a word is markup: a move number, a result or an evaluation symbol.
fn markup(w: &[u8]) -> Markup {
    // Moves start with a letter; markup with a digit or `½`.
    if w.first().is_some_and(u8::is_ascii_alphabetic) {
        return Markup::None;
    }
    // `0000` is UCI's null move, not a move number.
    if w.iter().all(u8::is_ascii_digit) && w != b"0000" {
        Markup::Skip
    } else if result_of(w).is_some() {
        Markup::Result
    } else if EVAL_SYMBOLS.iter().any(|s| s.as_bytes() == w) {
        Markup::Skip
    } else {
        Markup::None
    }
}

/// A result in its standard spelling (`1-0`, `0-1`, `1/2-1/2`, `*`) from any
/// the lexer reads as one: `1/2` alone, an en or em dash (`1–0`, `0—1`),
/// halves (`½-½`); `None` for any other text. The game reader types the
/// movetext's result and compares the Result tag's with it.
///
/// ```
/// use evallab_pgn::movetext::result_of;
/// assert_eq!(result_of("½–½".as_bytes()), Some("1/2-1/2"));
/// assert_eq!(result_of(b"1/2"), Some("1/2-1/2"));
/// assert_eq!(result_of(b"1-0-0"), None);
/// ```
pub fn result_of(w: &[u8]) -> Option<&'static str> {
    match w {
        b"*" => return Some("*"),
        b"1/2" => return Some("1/2-1/2"),
        _ => {}
    }
    let (a, b) = std::str::from_utf8(w).ok()?.split_once(['-', '–', '—'])?;
    match (a, b) {
        ("1", "0") => Some("1-0"),
        ("0", "1") => Some("0-1"),
        ("½", "½") | ("1/2", "1/2") => Some("1/2-1/2"),
        _ => None,
    }
}

/// How a word names a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Notation {
    /// SAN, with what writers add to it: long algebraic (`Ng1f3`, `e2-e4`),
    /// castling with zeros (`0-0`), a promotion without `=` (`e8Q`).
    San(San),
    /// UCI: from and to squares and the promotion letter in either case
    /// (`g1f3`, `e1g1`, `d7d8R`).
    Uci(UciMove),
}

/// Reads a word as a move in some notation, or `None` when it is none (a
/// check or mate suffix is allowed and ignored: the reader recomputes it).
///
/// ```
/// use evallab_pgn::movetext::{Notation, notation};
/// assert!(matches!(notation(b"Nf3+"), Some(Notation::San(_))));
/// assert!(matches!(notation(b"d7d8R"), Some(Notation::Uci(_))));
/// assert_eq!(notation(b"e4e"), None);
/// ```
pub fn notation(w: &[u8]) -> Option<Notation> {
    let body = w
        .strip_suffix(b"+")
        .or_else(|| w.strip_suffix(b"#"))
        .unwrap_or(w);
    let square = |s: &[u8]| matches!(s, [b'a'..=b'h', b'1'..=b'8']);
    let uci = match body {
        [from @ .., _, _] if body.len() == 4 => square(from) && square(&body[2..]),
        [.., p] if body.len() == 5 => {
            square(&body[..2]) && square(&body[2..4]) && b"qrbnQRBN".contains(p)
        }
        _ => false,
    };
    if uci {
        return UciMove::from_ascii(body).ok().map(Notation::Uci);
    }
    if let Ok(san) = San::from_ascii(body) {
        return Some(Notation::San(san));
    }
    // What writers add to SAN, rewritten.
    let mut buf = [0u8; 8];
    let rewritten: &[u8] = match body {
        b"0-0" => b"O-O",
        b"0-0-0" => b"O-O-O",
        // Long algebraic's dash between the squares (`e2-e4`, `Ng1-f3`).
        [p @ .., r, b'-', f, t] if p.len() <= 2 && r.is_ascii_digit() && square(&[*f, *t]) => {
            join(&mut buf, p, &[*r, *f, *t])
        }
        // A promotion without `=` (`e8Q`, `dxe1n`).
        [p @ .., r, q] if p.len() <= 4 && r.is_ascii_digit() && b"QRBNqrbn".contains(q) => {
            join(&mut buf, p, &[*r, b'=', *q])
        }
        _ => return None,
    };
    San::from_ascii(rewritten).ok().map(Notation::San)
}

/// `a` then `b` in `buf` (at most 8 bytes in all).
fn join<'b>(buf: &'b mut [u8; 8], a: &[u8], b: &[u8]) -> &'b [u8] {
    let n = a.len() + b.len();
    buf[..a.len()].copy_from_slice(a);
    buf[a.len()..n].copy_from_slice(b);
    &buf[..n]
}

impl<'a> Iterator for Lexer<'a> {
    type Item = (usize, Result<Token<'a>, LexError>);

    fn next(&mut self) -> Option<Self::Item> {
        let b = self.b;
        while self.pos < b.len() {
            let at = self.pos;
            match b[at] {
                c if c.is_ascii_whitespace() || c == b'.' => self.pos += 1,
                b'*' => {
                    self.finish(at, at + 1);
                    return None;
                }
                b'!' | b'?' => self.pos += 1,
                b')' | b'}' => {
                    self.pos += 1;
                    return Some((at, Ok(Token::Stray(&b[at..at + 1]))));
                }
                b'$' => {
                    self.pos += 1;
                    while self.pos < b.len() && b[self.pos].is_ascii_digit() {
                        self.pos += 1;
                    }
                }
                b';' => self.pos = line_end(b, at),
                b'%' if at_line_start(b, at) => self.pos = line_end(b, at),
                b'{' => {
                    let Some(end) = comment_end(b, at + 1) else {
                        return self.fail(at, LexError::UnterminatedComment);
                    };
                    self.pos = end + 1;
                    return Some((at, Ok(Token::Comment(&b[at + 1..end]))));
                }
                b'(' => match variation_end(b, at + 1) {
                    Ok(end) => {
                        self.pos = end + 1;
                        return Some((at, Ok(Token::Variation)));
                    }
                    Err(e) => return self.fail(at, e),
                },
                _ => {
                    let end = b[at + 1..]
                        .iter()
                        .position(|&c| ENDS_WORD[usize::from(c)])
                        .map_or(b.len(), |n| at + 1 + n);
                    self.pos = end;
                    let w = &b[at..end];
                    match markup(w) {
                        // `exd6 e.p.`: the en passant mark, not a move `e`.
                        Markup::None if w == b"e" && b[end..].starts_with(b".p.") => {
                            self.pos = end + 3;
                        }
                        Markup::None => return Some((at, Ok(Token::Word(w)))),
                        Markup::Skip => {}
                        Markup::Result => {
                            self.finish(at, end);
                            return None;
                        }
                    }
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lex(mt: &[u8]) -> Vec<(usize, Result<Token<'_>, LexError>)> {
        Lexer::new(mt).collect()
    }

    fn words(mt: &[u8]) -> Vec<String> {
        lex(mt)
            .into_iter()
            .filter_map(|(_, t)| match t {
                Ok(Token::Word(w)) => Some(String::from_utf8_lossy(w).into_owned()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn markup_is_consumed_and_every_other_word_kept() {
        assert_eq!(
            words("1.e4 e5 2. Nf3!? $14 Nc6?? 3...Bb5 +- \u{b1} = 12 Nf6".as_bytes()),
            ["e4", "e5", "Nf3", "Nc6", "Bb5", "Nf6"]
        );
        assert_eq!(
            words(b"e2e4 d7d8R exd6 e.p. 0000 -- [x] 1-0-0 $x"),
            ["e2e4", "d7d8R", "exd6", "0000", "--", "[x]", "1-0-0", "x"]
        );
        // A `;` line and a `%` escape line, but a `%` inside a line is a word.
        assert_eq!(
            words(b"e4 ; e5 {\nd4\n%c5\nc4 a%b"),
            ["e4", "d4", "c4", "a%b"]
        );
    }

    /// A result in any spelling ends the game: the lexer stops, says which,
    /// and hands back what followed it.
    #[test]
    fn a_result_ends_the_movetext() {
        for (mt, result, rest) in [
            ("e4 e5 1-0", "1-0", ""),
            (
                "e4 e5 0-1\n\nDownloaded from x",
                "0-1",
                "\n\nDownloaded from x",
            ),
            ("e4 1/2-1/2 {after}", "1/2-1/2", " {after}"),
            ("e4 1/2", "1/2", ""),
            ("e4 *", "*", ""),
            ("e4 e5*", "*", ""),
            ("e4 1\u{2013}0 0-1 2. Nf3", "1\u{2013}0", " 0-1 2. Nf3"),
            ("e4 \u{bd}-\u{bd}", "\u{bd}-\u{bd}", ""),
        ] {
            let mut lx = Lexer::new(mt.as_bytes());
            let n = lx.by_ref().count();
            assert_eq!(n, 1 + usize::from(mt.starts_with("e4 e5")), "{mt}");
            assert_eq!(lx.result(), Some(result.as_bytes()), "{mt}");
            assert_eq!(lx.rest(), rest.as_bytes(), "{mt}");
        }
        let mut lx = Lexer::new(b"e4 e5 {no result}");
        assert_eq!(lx.by_ref().count(), 3);
        assert_eq!((lx.result(), lx.rest()), (None, &b""[..]));
    }

    #[test]
    fn comments_nest_when_they_balance() {
        let mt = b"e4 { a { b } c } e5 {x} d4";
        assert_eq!(
            lex(mt)[1],
            (3, Ok(Token::Comment(b" a { b } c ".as_slice())))
        );
        assert_eq!(words(mt), ["e4", "e5", "d4"]);
        // Unbalanced: the comment ends at its first `}` (PGN standard).
        let mt = b"e4 { a { b } c e5";
        assert_eq!(lex(mt)[1], (3, Ok(Token::Comment(b" a { b ".as_slice()))));
        assert_eq!(words(mt), ["e4", "c", "e5"]);
        assert_eq!(
            lex(b"e4 {open e5"),
            [
                (0, Ok(Token::Word(b"e4".as_slice()))),
                (3, Err(LexError::UnterminatedComment))
            ]
        );
    }

    #[test]
    fn variations_are_skipped_whole() {
        let mt = b"e4 (e5 (d5 {)} ; )\n) c5) e5 ) d4";
        assert_eq!(lex(mt)[1], (3, Ok(Token::Variation)));
        assert_eq!(words(mt), ["e4", "e5", "d4"]);
        assert_eq!(
            lex(b"e4 (e5 d4")[1],
            (3, Err(LexError::UnterminatedVariation))
        );
        assert_eq!(
            lex(b"e4 (e5 {d4)")[1],
            (3, Err(LexError::UnterminatedComment))
        );
    }
}
