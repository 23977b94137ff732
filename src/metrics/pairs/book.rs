//! The opening book a match was played from (fastchess's and cutechess's
//! `-openings file=BOOK format=pgn`), for games whose PGN does not mark the
//! book moves: the runners' minimal PGN (fastchess `-pgnout min=true`,
//! cutechess `-pgnout FILE min`) writes the moves without their `{book}`
//! comments, and an unmarked game's opening would otherwise be the position
//! after ply 8 (reading R2), which pairs no opening shorter than 8 plies.
//!
//! A line is one game of the book PGN; it stands for the position it ends
//! in, read by the same parser as an ingest, so the key is the one
//! `moves.position_key` holds. An EPD book needs none of this: each game
//! carries its start position as its `FEN` tag, which is its opening.

use std::io::{BufRead, BufReader};
use std::path::Path;

use evallab_pgn::game::{ParseOptions, Source, parse_batch};
use evallab_pgn::input::open_decoded;
use evallab_pgn::sink::{GameRecord, MoveRecord, RejectRecord, Sink};
use evallab_pgn::split::Splitter;

use crate::Error;

/// The final positions of a book's lines.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Book {
    /// Polyglot keys (i64 with the u64's bits, as in the dataset), sorted,
    /// each once.
    pub keys: Vec<i64>,
    /// The longest line's plies: a game is looked up in its first plies only.
    pub max_plies: u32,
    /// The lines read only in part, as the runners read them (a move they
    /// cannot play ends the line before it; the last line may lack its
    /// result): what a user should hear about, one note each.
    pub notes: Vec<String>,
}

impl Book {
    /// A book of `(final position key, plies)` lines.
    #[must_use]
    pub fn from_lines(lines: impl IntoIterator<Item = (u64, u32)>) -> Book {
        let mut book = Book::default();
        for (key, plies) in lines {
            book.keys.push(key as i64);
            book.max_plies = book.max_plies.max(plies);
        }
        book.keys.sort_unstable();
        book.keys.dedup();
        book
    }

    /// Reads a PGN book (plain or compressed as an ingest input), each line
    /// cut after `plies` plies when given (the runners' `-openings plies=N`,
    /// which play no more of a line). As cutechess and fastchess read a book,
    /// a move that cannot be played ends its line before it, and the last
    /// line needs no result (each such line gets a [`Book::notes`] entry). A
    /// line they could not play at all (its first move, a broken tag or FEN)
    /// is an error naming it.
    pub fn read(path: &Path, plies: Option<u32>) -> Result<Book, Error> {
        let name = path.display().to_string();
        let mut reader = BufReader::new(open_decoded(path).map_err(|e| Error::io(path, e))?);
        let head = reader.fill_buf().map_err(|e| Error::io(path, e))?;
        if is_epd(head) {
            return Err(Error::InputData(format!("{name}: {EPD}")));
        }
        let mut split = Splitter::new(reader);
        let mut lines = Lines {
            plies,
            ..Lines::default()
        };
        while let Some(batch) = split.next_batch(1 << 22).map_err(|e| Error::io(path, e))? {
            let src = Source {
                name: &name,
                sha256: None,
            };
            parse_batch(&batch, src, ParseOptions::default(), &mut lines);
            if let Some(bad) = lines.bad.take() {
                return Err(Error::InputData(format!("{name}: book line {bad}")));
            }
        }
        if lines.ends.is_empty() {
            return Err(Error::InputData(format!(
                "{name}: no book line (a PGN of opening lines, as the match runner read it)"
            )));
        }
        let mut book = Book::from_lines(lines.ends);
        book.notes = lines
            .notes
            .into_iter()
            .map(|n| format!("{name}: book line {n}"))
            .collect();
        Ok(book)
    }
}

const EPD: &str = "an EPD book, which pairing needs no book for: each game of an EPD \
                   book starts from its FEN tag, its opening";

/// Whether a file starts as an EPD (a FEN's board on its first line) does.
fn is_epd(head: &[u8]) -> bool {
    let first = head
        .split(|&b| b == b'\n')
        .map(<[u8]>::trim_ascii)
        .find(|l| !l.is_empty())
        .unwrap_or_default();
    let board = first
        .split(u8::is_ascii_whitespace)
        .next()
        .unwrap_or_default();
    board.iter().filter(|&&b| b == b'/').count() == 7
}

/// Each book game's final position (at most `plies` in), or the first line
/// no runner could play.
#[derive(Default)]
struct Lines {
    plies: Option<u32>,
    ends: Vec<(u64, u32)>,
    /// The game's plies so far, and the key at the last one kept.
    seen: u32,
    last: Option<u64>,
    bad: Option<String>,
    notes: Vec<String>,
}

impl Lines {
    /// The line's end: the last kept ply's position.
    fn end(&mut self, plies: u32) -> Option<(u64, u32)> {
        self.seen = 0;
        let key = self.last.take()?;
        Some((key, self.plies.map_or(plies, |p| p.min(plies))))
    }
}

impl Sink for Lines {
    fn mv(&mut self, m: &MoveRecord<'_>) {
        self.seen += 1;
        if self.plies.is_none_or(|p| self.seen <= p) {
            self.last = Some(m.key);
        }
    }
    fn game(&mut self, g: &GameRecord<'_>) {
        let end = self.end(g.plies).unwrap_or((g.start_key, 0));
        self.ends.push(end);
    }
    fn playable(&mut self, plies: &[MoveRecord<'_>]) {
        self.moves(plies);
    }
    fn reject(&mut self, r: &RejectRecord<'_>) {
        let at = format!("{} (line {} of the file)", r.game_number, r.line);
        match self.end(r.ply_reached) {
            Some(end) => {
                self.ends.push(end);
                // A book's last line may end without a result: no damage.
                let why = if r.reason.starts_with("truncated input: no result") {
                    "no result before the end of the file"
                } else {
                    r.reason
                };
                self.notes.push(format!(
                    "{at}: {why}; its first {} plies taken, as the runners play it",
                    end.1
                ));
            }
            None => {
                self.bad
                    .get_or_insert_with(|| format!("{at}: {}", r.reason));
            }
        }
    }
}
