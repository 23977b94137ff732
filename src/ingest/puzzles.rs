//! The Lichess puzzle CSV (database.lichess.org, "Puzzles"), read as games.
//!
//! An input whose first line is a header naming `PuzzleId`, `FEN` and
//! `Moves` is a puzzle file. Each row becomes one game: the start position
//! `FEN`, the moves of `Moves` (UCI; the first is the opponent's, the rest
//! the solution), and the puzzle's fields as tags (`PuzzleId`,
//! `PuzzleRating`, …, stored in `games.other_tags`; the id also as `Round`,
//! `GameUrl` as `Site`, `OpeningTags` as `Opening`). Columns are found by name, so extra columns
//! (the sample's `DailyDate`) are ignored and optional ones may be missing.
//!
//! A row is written as a short PGN game and parsed by the PGN parser, which
//! validates the FEN and every move as for any game: the tables, ids and
//! position keys are exactly those of a PGN input. A row the CSV itself
//! makes unusable (too few fields, a required field empty, a rating that is
//! not a number, fewer than two moves) is a reject before that. Every
//! reject names the CSV line of its row.
//!
//! The solver's positions are the ones before the even plies (the solver
//! moves second): see [`crate::metrics::difficulty::puzzles`].

use std::collections::HashMap;
use std::io::{self, BufRead};

use evallab_pgn::game::{Counts, ParseOptions, Source, game_id, parse_batch};
use evallab_pgn::sink::{GameRecord, MoveRecord, RejectRecord, Sink};
use evallab_pgn::split::{Batch, GameSpan};

/// The `Event` of every puzzle game.
pub const EVENT: &str = "Lichess puzzle";

/// Tag names of the puzzle fields (in `games.other_tags`).
pub mod tag {
    pub const ID: &str = "PuzzleId";
    pub const RATING: &str = "PuzzleRating";
    pub const RATING_DEVIATION: &str = "PuzzleRatingDeviation";
    pub const POPULARITY: &str = "PuzzlePopularity";
    pub const PLAYS: &str = "PuzzlePlays";
    pub const THEMES: &str = "PuzzleThemes";
}

/// CSV columns: required, then optional (numeric ones are checked).
const REQUIRED: [&str; 4] = ["PuzzleId", "FEN", "Moves", "Rating"];
/// (CSV column, tag, numeric)
const OPTIONAL: [(&str, &str, bool); 4] = [
    ("RatingDeviation", tag::RATING_DEVIATION, true),
    ("Popularity", tag::POPULARITY, true),
    ("NbPlays", tag::PLAYS, true),
    ("Themes", tag::THEMES, false),
];

/// Whether `head` (the input's first bytes) starts with a puzzle CSV header.
#[must_use]
pub fn is_puzzle_csv(head: &[u8]) -> bool {
    let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    let line = head.split(|&b| b == b'\n').next().unwrap_or_default();
    let Ok(line) = std::str::from_utf8(line) else {
        return false;
    };
    let names = split_fields(line.trim_end_matches('\r'));
    names
        .as_ref()
        .is_some_and(|n| REQUIRED[..3].iter().all(|r| n.iter().any(|c| c == r)))
}

/// Splits one CSV line (RFC 4180 quoting, `""` inside quotes; a field never
/// spans lines, as in the Lichess files). `None`: an unterminated quote.
fn split_fields(line: &str) -> Option<Vec<String>> {
    let mut out = Vec::new();
    let mut field = String::new();
    let mut chars = line.chars().peekable();
    let mut quoted = false;
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            (true, '"') => quoted = false,
            (false, '"') if field.is_empty() => quoted = true,
            (false, ',') => out.push(std::mem::take(&mut field)),
            (_, c) => field.push(c),
        }
    }
    if quoted {
        return None;
    }
    out.push(field);
    Some(out)
}

/// A row the CSV makes unusable.
#[derive(Debug, Clone, PartialEq)]
pub struct CsvReject {
    pub number: u32,
    pub line: u32,
    pub offset: u64,
    pub puzzle_id: Option<String>,
    pub reason: String,
}

/// What a batch of puzzle rows adds to the PGN batch: each game's CSV line,
/// and the rows rejected before parsing.
#[derive(Debug, Default)]
pub struct Extra {
    lines: HashMap<u32, u32>,
    rejects: Vec<CsvReject>,
    /// The input ended early (a partial download): its last reject is the
    /// row it cut.
    truncated: bool,
}

impl Extra {
    /// Parses `batch` (the rows written as PGN) and writes the CSV rejects,
    /// every reject at its CSV line.
    pub fn parse<S: Sink + ?Sized>(
        &self,
        batch: &Batch,
        src: Source,
        opts: ParseOptions,
        out: &mut S,
    ) -> Counts {
        let mut sink = AtCsvLine {
            out: &mut *out,
            lines: &self.lines,
        };
        let mut counts = parse_batch(batch, src, opts, &mut sink);
        counts.truncated += u64::from(self.truncated);
        for r in &self.rejects {
            counts.rejects += 1;
            out.reject(&RejectRecord {
                game_id: src
                    .sha256
                    .map_or(i64::from(r.number), |sha| game_id(sha, r.number)),
                source_file: src.name,
                source_sha256: src.sha256.unwrap_or_default(),
                game_number: r.number,
                line: r.line,
                byte_offset: r.offset as i64,
                event: Some(EVENT),
                round: r.puzzle_id.as_deref(),
                white: None,
                black: None,
                ply_reached: 0,
                reason: &r.reason,
            });
        }
        counts
    }
}

/// Puts a parse reject at its row's CSV line (the parser counts the lines
/// of the PGN written for the row).
struct AtCsvLine<'a, S: ?Sized> {
    out: &'a mut S,
    lines: &'a HashMap<u32, u32>,
}

impl<S: Sink + ?Sized> Sink for AtCsvLine<'_, S> {
    fn mv(&mut self, r: &MoveRecord<'_>) {
        self.out.mv(r);
    }
    fn moves(&mut self, plies: &[MoveRecord<'_>]) {
        self.out.moves(plies);
    }
    fn game(&mut self, r: &GameRecord<'_>) {
        self.out.game(r);
    }
    fn reject(&mut self, r: &RejectRecord<'_>) {
        let line = self.lines.get(&r.game_number).copied().unwrap_or(r.line);
        self.out.reject(&RejectRecord { line, ..*r });
    }
}

/// Reads a puzzle CSV in batches of about `target` bytes of rows.
pub struct PuzzleReader<R> {
    reader: R,
    /// Column index of each name of the header.
    columns: HashMap<String, usize>,
    line: u32,
    offset: u64,
    number: u32,
    buf: Vec<u8>,
    /// A decoder reported the input cut: nothing more to read.
    ended: bool,
}

impl<R: BufRead> PuzzleReader<R> {
    /// Reads the header line.
    pub fn new(mut reader: R) -> io::Result<Self> {
        let mut buf = Vec::new();
        let n = reader.read_until(b'\n', &mut buf)?;
        let head = buf.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&buf);
        let text = String::from_utf8_lossy(head);
        let names = split_fields(text.trim_end_matches(['\r', '\n'])).unwrap_or_default();
        let columns = names
            .into_iter()
            .enumerate()
            .map(|(i, n)| (n.trim().to_string(), i))
            .collect();
        Ok(PuzzleReader {
            reader,
            columns,
            line: 1,
            offset: n as u64,
            number: 0,
            buf,
            ended: false,
        })
    }

    /// The next batch of at least `target` bytes of rows (fewer at the end),
    /// `None` at the end of the input; also the decompressed bytes read.
    pub fn next_batch(&mut self, target: usize) -> io::Result<Option<(Batch, Extra, u64)>> {
        let mut batch = Batch::default();
        let mut extra = Extra::default();
        let mut read = 0u64;
        while batch.buf.len() < target && !self.ended {
            self.buf.clear();
            let n = match self.reader.read_until(b'\n', &mut self.buf) {
                Ok(n) => n,
                // A decoder at a truncated stream: the rows before are in,
                // the one it cut (possibly empty) is a reject, as for PGN.
                Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => {
                    self.ended = true;
                    self.number += 1;
                    read += self.buf.len() as u64;
                    extra.truncated = true;
                    extra.rejects.push(CsvReject {
                        number: self.number,
                        line: self.line + 1,
                        offset: self.offset,
                        puzzle_id: None,
                        reason: format!(
                            "truncated input: {e} (the input ends at byte {})",
                            self.offset + self.buf.len() as u64
                        ),
                    });
                    break;
                }
                Err(e) => return Err(e),
            };
            if n == 0 {
                break;
            }
            read += n as u64;
            self.line += 1;
            let offset = self.offset;
            self.offset += n as u64;
            let text = String::from_utf8_lossy(&self.buf);
            let row = text.trim_end_matches(['\r', '\n']);
            if row.trim().is_empty() {
                continue;
            }
            self.number += 1;
            match self.game_text(row) {
                Ok(pgn) => {
                    let start = batch.buf.len();
                    let movetext = start + pgn.find("\n\n").map_or(0, |i| i + 2);
                    batch.buf.extend_from_slice(pgn.as_bytes());
                    batch.games.push(GameSpan {
                        number: self.number,
                        offset,
                        line: self.line,
                        start,
                        movetext,
                        end: batch.buf.len(),
                    });
                    extra.lines.insert(self.number, self.line);
                }
                Err((puzzle_id, reason)) => extra.rejects.push(CsvReject {
                    number: self.number,
                    line: self.line,
                    offset,
                    puzzle_id,
                    reason,
                }),
            }
        }
        if read == 0 && extra.rejects.is_empty() {
            return Ok(None);
        }
        Ok(Some((batch, extra, read)))
    }

    fn field<'f>(&self, fields: &'f [String], name: &str) -> Option<&'f str> {
        let v = fields.get(*self.columns.get(name)?)?.trim();
        (!v.is_empty()).then_some(v)
    }

    /// The PGN game of one row, or why the row is unusable (with the
    /// puzzle's id when it has one).
    fn game_text(&self, row: &str) -> Result<String, (Option<String>, String)> {
        let Some(fields) = split_fields(row) else {
            return Err((None, "unterminated quote in the row".into()));
        };
        let id = self.field(&fields, "PuzzleId").map(str::to_string);
        let fail = |reason: String| Err((id.clone(), reason));
        if fields.len() < self.columns.len() {
            return fail(format!(
                "{} fields, the header has {}",
                fields.len(),
                self.columns.len()
            ));
        }
        for name in REQUIRED {
            if self.field(&fields, name).is_none() {
                let why = if self.columns.contains_key(name) {
                    "is empty"
                } else {
                    "is not in the header"
                };
                return fail(format!("column {name} {why}"));
            }
        }
        let get = |name| self.field(&fields, name).unwrap_or_default();
        let rating = get("Rating");
        if rating.parse::<i32>().is_err() {
            return fail(format!("Rating \"{rating}\" is not a whole number"));
        }
        let moves = get("Moves");
        if moves.split_ascii_whitespace().count() < 2 {
            return fail(format!(
                "Moves \"{moves}\" has no solution (the opponent's move, then the solver's)"
            ));
        }
        let mut tags: Vec<(&str, &str)> = vec![
            ("Event", EVENT),
            // The id also as the round, so that a parse reject names it.
            ("Round", get("PuzzleId")),
            ("Result", "*"),
            ("SetUp", "1"),
            ("FEN", get("FEN")),
            (tag::ID, get("PuzzleId")),
            (tag::RATING, rating),
        ];
        for (name, tag, numeric) in OPTIONAL {
            if let Some(v) = self.field(&fields, name) {
                if numeric && v.parse::<i64>().is_err() {
                    return fail(format!("{name} \"{v}\" is not a whole number"));
                }
                tags.push((tag, v));
            }
        }
        if let Some(url) = self.field(&fields, "GameUrl") {
            tags.push(("Site", url));
        }
        if let Some(opening) = self.field(&fields, "OpeningTags") {
            tags.push(("Opening", opening));
        }
        let mut pgn = String::with_capacity(256);
        for (k, v) in tags {
            let v = v.replace('\\', "\\\\").replace('"', "\\\"");
            pgn.push_str(&format!("[{k} \"{v}\"]\n"));
        }
        pgn.push('\n');
        pgn.push_str(moves);
        pgn.push_str(" *\n\n");
        Ok(pgn)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::tables::Tables;

    const CURRENT: &str =
        "PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags\n";

    /// Games and rejects (game number, line, reason) of a CSV text.
    fn read(csv: &str) -> (Vec<String>, Vec<(u32, u32, String)>, Counts) {
        let mut r = PuzzleReader::new(csv.as_bytes()).unwrap();
        let mut t = Tables::default();
        let mut counts = Counts::default();
        let src = Source {
            name: "p.csv",
            sha256: Some("ab"),
        };
        while let Some((b, x, _)) = r.next_batch(1 << 20).unwrap() {
            counts += x.parse(&b, src, ParseOptions::default(), &mut t);
        }
        let games = t.games.finish();
        let tags = games
            .column_by_name("other_tags")
            .unwrap()
            .as_any()
            .downcast_ref::<arrow::array::StringArray>()
            .unwrap()
            .iter()
            .map(|s| s.unwrap_or_default().to_string())
            .collect();
        let rej = t.rejects.finish();
        let num = |c: &str| -> Vec<u32> {
            let a = rej.column_by_name(c).unwrap();
            let a = arrow::compute::cast(a, &arrow::datatypes::DataType::UInt32).unwrap();
            let a = a
                .as_any()
                .downcast_ref::<arrow::array::UInt32Array>()
                .unwrap();
            a.values().to_vec()
        };
        let reasons = rej
            .column_by_name("reason")
            .unwrap()
            .as_any()
            .downcast_ref::<arrow::array::StringArray>()
            .unwrap();
        let rejects = num("game_number")
            .into_iter()
            .zip(num("line"))
            .zip(reasons.iter())
            .map(|((n, l), r)| (n, l, r.unwrap().to_string()))
            .collect();
        (tags, rejects, counts)
    }

    #[test]
    fn the_header_decides() {
        assert!(is_puzzle_csv(CURRENT.as_bytes()));
        assert!(is_puzzle_csv(b"\xEF\xBB\xBFPuzzleId,FEN,Moves,Rating\r\n"));
        // Any order, extra columns.
        assert!(is_puzzle_csv(b"Moves,X,FEN,PuzzleId\n"));
        assert!(!is_puzzle_csv(b"[Event \"PuzzleId,FEN,Moves\"]\n"));
        assert!(!is_puzzle_csv(b"PuzzleId,FEN,Rating\n"));
    }

    #[test]
    fn quoted_fields() {
        assert_eq!(
            split_fields(r#"a,"b,c","d""e",,"#).unwrap(),
            ["a", "b,c", "d\"e", "", ""]
        );
        assert_eq!(split_fields(r#"a,"b"#), None);
    }

    /// The current dump's header, the sample's (an extra column, another
    /// order) and a minimal one give the same puzzle; optional columns
    /// missing are simply absent tags.
    #[test]
    fn header_variants() {
        let fen = "2kr1b1r/p1p2pp1/2pqb3/7p/3N2n1/2NPB3/PPP2PPP/R2Q1RK1 w - - 2 13";
        let current = format!(
            "{CURRENT}000rZ,{fen},d4e6 d6h2,633,93,100,616,kingsideAttack mate mateIn1 oneMove opening,https://lichess.org/seIMDWkD#25,Scandinavian_Defense\n"
        );
        let sample = format!(
            "DailyDate,PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags\n2024-01-01,000rZ,{fen},d4e6 d6h2,633,93,100,616,kingsideAttack mate mateIn1 oneMove opening,https://lichess.org/seIMDWkD#25,\n"
        );
        let minimal = format!("PuzzleId,FEN,Moves,Rating\r\n000rZ,{fen},d4e6 d6h2,633\r\n");
        let (t1, r1, c1) = read(&current);
        let (t2, r2, _) = read(&sample);
        let (t3, r3, _) = read(&minimal);
        assert!(
            r1.is_empty() && r2.is_empty() && r3.is_empty(),
            "{r1:?} {r2:?} {r3:?}"
        );
        assert_eq!((c1.games, c1.plies), (1, 2));
        let full = r#"{"PuzzleId":"000rZ","PuzzlePlays":"616","PuzzlePopularity":"100","PuzzleRating":"633","PuzzleRatingDeviation":"93","PuzzleThemes":"kingsideAttack mate mateIn1 oneMove opening"}"#;
        assert_eq!(t1, [full]);
        assert_eq!(t2, [full]);
        assert_eq!(t3, [r#"{"PuzzleId":"000rZ","PuzzleRating":"633"}"#]);
    }

    /// A decoder that reports the input cut: the rows before it are games,
    /// the cut one a `truncated input` reject at the next line.
    #[test]
    fn a_cut_input_keeps_its_complete_rows() {
        struct Cut<'a>(&'a [u8]);
        impl std::io::Read for Cut<'_> {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                if self.0.is_empty() {
                    return Err(io::Error::new(io::ErrorKind::UnexpectedEof, "cut"));
                }
                let n = buf.len().min(self.0.len());
                buf[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let csv = format!("PuzzleId,FEN,Moves,Rating\na,{start},e2e4 e7e5,900\nb,{start},e2e");
        let mut r = PuzzleReader::new(io::BufReader::new(Cut(csv.as_bytes()))).unwrap();
        let (mut t, mut counts) = (Tables::default(), Counts::default());
        let src = Source {
            name: "p.csv.zst",
            sha256: Some("ab"),
        };
        while let Some((b, x, _)) = r.next_batch(1 << 20).unwrap() {
            counts += x.parse(&b, src, ParseOptions::default(), &mut t);
        }
        assert_eq!((counts.games, counts.rejects, counts.truncated), (1, 1, 1));
        let rej = t.rejects.finish();
        let reason = rej
            .column_by_name("reason")
            .unwrap()
            .as_any()
            .downcast_ref::<arrow::array::StringArray>()
            .unwrap()
            .value(0)
            .to_string();
        assert_eq!(
            reason,
            format!(
                "truncated input: cut (the input ends at byte {})",
                csv.len()
            )
        );
    }

    /// Each malformed row is a reject naming its CSV line and why; the good
    /// rows around it are games.
    #[test]
    fn malformed_rows_are_rejects() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let csv = format!(
            "{CURRENT}\
             ok1,{start},e2e4 e7e5,1500,80,90,100,opening,,\n\
             bad1,{start},e2e4 e7e5,15OO,80,90,100,opening,,\n\
             bad2,{start},e2e4 e7e6 e1e3,1500,80,90,100,opening,,\n\
             bad3,not a fen,e2e4 e7e5,1500,80,90,100,opening,,\n\
             bad4,{start},e2e4,1500,80,90,100,opening,,\n\
             \n\
             bad5,{start},e2e4 e7e5,1500\n\
             bad6,{start},e2e4 e7e5,1500,eighty,90,100,opening,,\n\
             ok2,{start},d2d4 d7d5,1200,80,90,100,opening,,\n"
        );
        let (tags, rejects, counts) = read(&csv);
        assert_eq!(tags.len(), 2);
        assert_eq!((counts.games, counts.rejects), (2, 6));
        let mut rejects = rejects;
        rejects.sort();
        let at: Vec<(u32, u32)> = rejects.iter().map(|r| (r.0, r.1)).collect();
        // Game numbers count rows; lines count the header and the blank line.
        assert_eq!(at, [(2, 3), (3, 4), (4, 5), (5, 6), (6, 8), (7, 9)]);
        let reasons: Vec<&str> = rejects.iter().map(|r| r.2.as_str()).collect();
        assert_eq!(reasons[0], "Rating \"15OO\" is not a whole number");
        assert!(reasons[1].starts_with("illegal move"), "{}", reasons[1]);
        assert!(reasons[1].contains("e1e3"), "{}", reasons[1]);
        assert!(
            reasons[2].starts_with("invalid FEN \"not a fen\""),
            "{}",
            reasons[2]
        );
        assert!(reasons[3].starts_with("Moves \"e2e4\" has no solution"));
        assert_eq!(reasons[4], "4 fields, the header has 10");
        assert_eq!(
            reasons[5],
            "RatingDeviation \"eighty\" is not a whole number"
        );
    }
}
