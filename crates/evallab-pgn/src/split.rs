//! Splits a decompressed PGN stream into games, in batches of whole games.
//!
//! Splitting is what makes parsing parallel within one file: each batch owns its
//! bytes, and every game in it knows its number, byte offset and line in the
//! input. The scan only looks at the bytes that decide structure (`{`, `}`, `;`,
//! newlines) using memchr, so it runs far faster than parsing.
//!
//! A game starts at a tag line (`[` at the start of a line, outside comments)
//! after movetext, or at an `[Event ` line when the current game already has
//! tags (header-only stub games are followed directly by the next game's tags).
//!
//! A compressed input that ends early (a partial download: its decoder reports
//! an unexpected end) ends the input there: the games before the damage are
//! split as usual, and the game it cut, possibly empty, is the last of the
//! last batch, which says so ([`Batch::truncated`]).
//!
//! ```
//! use evallab_pgn::split::Splitter;
//! let pgn = b"[Event \"a\"]\n\n1. e4 {[Event in a comment\n[x]} e5 1-0\n\n[Event \"b\"]\n*\n";
//! let mut s = Splitter::new(&pgn[..]);
//! let batch = s.next_batch(1 << 20).unwrap().unwrap();
//! assert_eq!(batch.games.len(), 2);
//! assert_eq!((batch.games[1].number, batch.games[1].line), (2, 6));
//! assert_eq!(batch.header(&batch.games[1]), b"[Event \"b\"]\n");
//! ```

use std::io::{self, Read};

use memchr::{memchr, memchr2, memchr3};

/// Position of one game inside a [`Batch`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameSpan {
    /// 1-based number of the game in its input.
    pub number: u32,
    /// Offset of the game's first byte in the decompressed input.
    pub offset: u64,
    /// 1-based line of the game's first byte.
    pub line: u32,
    /// Byte range in [`Batch::buf`]: `start..movetext` is the tag section,
    /// `movetext..end` the movetext.
    pub start: usize,
    pub movetext: usize,
    pub end: usize,
}

/// Whole games with their bytes.
#[derive(Debug, Default)]
pub struct Batch {
    pub buf: Vec<u8>,
    pub games: Vec<GameSpan>,
    /// The input ended early (the decoder's message): the last game is the
    /// one that was cut.
    pub truncated: Option<String>,
    /// This is the input's last batch: its last game is the input's last,
    /// which a plain file cut short also leaves unfinished.
    pub ends_input: bool,
}

impl Batch {
    /// The tag section of a game.
    pub fn header(&self, g: &GameSpan) -> &[u8] {
        &self.buf[g.start..g.movetext]
    }

    /// The movetext of a game.
    pub fn movetext(&self, g: &GameSpan) -> &[u8] {
        &self.buf[g.movetext..g.end]
    }

    /// 1-based input line of a byte offset inside a game's bytes.
    pub fn line_at(&self, g: &GameSpan, pos_in_game: usize) -> u32 {
        let upto = &self.buf[g.start..(g.start + pos_in_game).min(g.end)];
        g.line + memchr::memchr_iter(b'\n', upto).count() as u32
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Between games: whitespace, stray `%` lines.
    Idle,
    /// At the start of a line of a tag section.
    Header,
    Movetext,
}

#[derive(Debug, Clone, Copy)]
struct Open {
    start: usize,
    line: u32,
    movetext: Option<usize>,
    has_tags: bool,
}

const CHUNK: usize = 1 << 20;
/// The most a batch's buffer is sized for up front (larger targets grow it).
const MAX_ROOM: usize = 64 << 20;
const NEW_GAME: &[u8] = b"[Event ";

/// Streaming splitter over a decompressed reader.
#[derive(Debug)]
pub struct Splitter<R> {
    reader: R,
    eof: bool,
    buf: Vec<u8>,
    /// Absolute offset of `buf[0]`.
    base: u64,
    /// Scan position and the line number at `line_pos`.
    pos: usize,
    line_pos: usize,
    line_no: u32,
    state: State,
    open: Option<Open>,
    done: Vec<GameSpan>,
    number: u32,
    /// The decoder's message when the input ended early.
    truncated: Option<String>,
    /// Whether lines end in a lone CR (classic Mac OS): decided by the first
    /// read, then every CR read becomes LF, so that the line-based scan and
    /// the tag reader see lines (they saw one line, and lost every game).
    cr_lines: Option<bool>,
}

/// Where an input's earlier, shorter version ended (see
/// [`Splitter::resume`]): the games after it are split as if the whole input
/// had been read from its first byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Resume {
    /// Decoded bytes before it.
    pub offset: u64,
    /// The 1-based line it starts.
    pub line: u32,
    /// The games (numbered spans) before it.
    pub games: u32,
}

impl<R: Read> Splitter<R> {
    /// A splitter over `reader`, which holds an input's bytes from
    /// `at.offset` on: games are numbered, placed and lined as in the whole
    /// input.
    pub fn resume(reader: R, at: Resume) -> Self {
        Splitter {
            base: at.offset,
            line_no: at.line,
            number: at.games,
            ..Splitter::new(reader)
        }
    }

    pub fn new(reader: R) -> Self {
        Splitter {
            reader,
            eof: false,
            // Sized by the first `next_batch`, for its target.
            buf: Vec::new(),
            base: 0,
            pos: 0,
            line_pos: 0,
            line_no: 1,
            state: State::Idle,
            open: None,
            done: Vec::new(),
            number: 0,
            truncated: None,
            cr_lines: None,
        }
    }

    /// Returns the next batch of at least `target` bytes of whole games (less at
    /// the end of the input), or `None` when the input is exhausted.
    pub fn next_batch(&mut self, target: usize) -> io::Result<Option<Batch>> {
        // Room for the whole batch and the read past its end: grown while it
        // filled, the buffer was copied (realloc) two or three times a batch.
        let room = target.min(MAX_ROOM) + 2 * CHUNK;
        if self.buf.capacity() < room {
            self.buf.reserve_exact(room - self.buf.len());
        }
        loop {
            let done_bytes = self.done.last().map_or(0, |g| g.end);
            if done_bytes >= target || (self.eof && self.pos >= self.buf.len()) {
                if self.eof && self.pos >= self.buf.len() {
                    if self.truncated.is_some() && self.open.is_none() {
                        // Cut between games: an empty game stands for the rest.
                        self.begin(self.buf.len(), false);
                    }
                    self.close(self.buf.len());
                    return Ok(self.emit().map(|b| Batch {
                        truncated: self.truncated.take(),
                        ends_input: true,
                        ..b
                    }));
                }
                return Ok(self.emit());
            }
            if !self.scan() {
                self.fill()?;
            }
        }
    }

    fn fill(&mut self) -> io::Result<()> {
        if self.eof {
            return Ok(());
        }
        let len = self.buf.len();
        // Up to CHUNK bytes straight into the spare capacity: readers that
        // support it (files) write there without zeroing it first, the others
        // (decoders) have each byte zeroed once. (Zeroing a whole CHUNK before
        // every read zeroed the same bytes again and again when a decoder
        // returned less per call.)
        let n = match (&mut self.reader)
            .take(CHUNK as u64)
            .read_to_end(&mut self.buf)
        {
            Ok(n) => n,
            // A decoder at a truncated stream: keep what it decoded.
            Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => {
                self.truncated = Some(e.to_string());
                0
            }
            Err(e) => {
                self.buf.truncate(len);
                return Err(e);
            }
        };
        // `read_to_end` stops short of the limit only at the end of the input.
        if n < CHUNK {
            self.eof = true;
        }
        let cr_lines = *self.cr_lines.get_or_insert_with(|| {
            let read = &self.buf[len..];
            memchr(b'\n', read).is_none() && memchr(b'\r', read).is_some()
        });
        if cr_lines {
            for b in &mut self.buf[len..] {
                if *b == b'\r' {
                    *b = b'\n';
                }
            }
        }
        if self.base == 0 && len < 3 && self.buf.starts_with(b"\xef\xbb\xbf") && self.pos == 0 {
            self.pos = 3; // UTF-8 BOM
            self.line_pos = 3;
        }
        Ok(())
    }

    fn line_of(&mut self, pos: usize) -> u32 {
        self.line_no += memchr::memchr_iter(b'\n', &self.buf[self.line_pos..pos]).count() as u32;
        self.line_pos = pos;
        self.line_no
    }

    fn begin(&mut self, at: usize, header: bool) {
        self.close(at);
        self.pos = at;
        let line = self.line_of(at);
        self.open = Some(Open {
            start: at,
            line,
            movetext: if header { None } else { Some(at) },
            has_tags: false,
        });
        self.state = if header {
            State::Header
        } else {
            State::Movetext
        };
    }

    fn close(&mut self, end: usize) {
        if let Some(o) = self.open.take() {
            self.number += 1;
            self.done.push(GameSpan {
                number: self.number,
                offset: self.base + o.start as u64,
                line: o.line,
                start: o.start,
                movetext: o.movetext.unwrap_or(end),
                end,
            });
        }
        self.state = State::Idle;
    }

    /// Position right after the next newline at or after `from`, if buffered.
    fn after_newline(&self, from: usize) -> Option<usize> {
        memchr(b'\n', &self.buf[from..]).map(|i| from + i + 1)
    }

    /// Scans as far as the buffer allows. Returns false when it needs more input
    /// (at EOF it consumes everything and returns true).
    fn scan(&mut self) -> bool {
        let len = self.buf.len();
        while self.pos < len {
            let p = self.pos;
            match self.state {
                State::Idle => match self.buf[p] {
                    b' ' | b'\t' | b'\r' | b'\n' => self.pos += 1,
                    b'[' => self.begin(p, true),
                    b'%' => match self.after_newline(p) {
                        Some(n) => self.pos = n,
                        None if self.eof => self.pos = len,
                        None => return false,
                    },
                    _ => self.begin(p, false),
                },
                State::Header => {
                    let Some(next) = self.after_newline(p).or(self.eof.then_some(len)) else {
                        return false;
                    };
                    let line = &self.buf[p..next];
                    if line.first() == Some(&b'[') {
                        let movetext = crate::tags::movetext_after_tags(line);
                        if line.starts_with(NEW_GAME) && self.open.is_some_and(|o| o.has_tags) {
                            self.begin(p, true);
                        }
                        if let Some(o) = self.open.as_mut() {
                            o.has_tags = true;
                            // Movetext after the tags on their line (a
                            // writer's one-line games): it starts there.
                            if let Some(k) = movetext {
                                o.movetext = Some(p + k);
                            }
                        }
                        match movetext {
                            Some(k) => {
                                self.pos = p + k;
                                self.state = State::Movetext;
                            }
                            None => self.pos = next,
                        }
                    } else if line.iter().all(u8::is_ascii_whitespace) {
                        self.pos = next;
                    } else {
                        if let Some(o) = self.open.as_mut() {
                            o.movetext = Some(p);
                        }
                        self.state = State::Movetext;
                    }
                }
                State::Movetext => {
                    let Some(i) = memchr3(b'{', b';', b'\n', &self.buf[p..]).map(|i| p + i) else {
                        if !self.eof {
                            return false;
                        }
                        self.pos = len;
                        continue;
                    };
                    match self.buf[i] {
                        b'{' => match self.skip_comment(i + 1) {
                            Some(n) => self.pos = n,
                            None if self.eof => self.pos = len,
                            None => return false,
                        },
                        b';' => match memchr(b'\n', &self.buf[i..]) {
                            Some(n) => self.pos = i + n,
                            None if self.eof => self.pos = len,
                            None => return false,
                        },
                        _ => {
                            let Some(&next) = self.buf.get(i + 1) else {
                                if !self.eof {
                                    return false;
                                }
                                self.pos = len;
                                continue;
                            };
                            match next {
                                b'[' => self.begin(i + 1, true),
                                b'%' => match self.after_newline(i + 1) {
                                    Some(n) => self.pos = n - 1,
                                    None if self.eof => self.pos = len,
                                    None => return false,
                                },
                                _ => self.pos = i + 1,
                            }
                        }
                    }
                }
            }
        }
        self.eof
    }

    /// From inside a comment, the position after its `}`; `None` if not buffered.
    /// An unterminated comment ends at a line starting with `[Event `, so that one
    /// broken game cannot swallow the rest of the file.
    fn skip_comment(&self, mut from: usize) -> Option<usize> {
        loop {
            let i = from + memchr2(b'}', b'\n', &self.buf[from..])?;
            if self.buf[i] == b'}' {
                return Some(i + 1);
            }
            let rest = &self.buf[i + 1..];
            if rest.len() < NEW_GAME.len() && !self.eof {
                return None;
            }
            if rest.starts_with(NEW_GAME) {
                return Some(i);
            }
            from = i + 1;
        }
    }

    /// Moves the finished games out, keeping the open game's bytes.
    fn emit(&mut self) -> Option<Batch> {
        if self.done.is_empty() {
            return None;
        }
        let cut = self.done.last().map_or(0, |g| g.end);
        if self.line_pos < cut {
            self.line_of(cut);
        }
        // The open game's bytes move to a buffer as large as this one, so that
        // the refills up to the next batch do not grow (copy) it again.
        let mut rest = Vec::with_capacity(self.buf.capacity());
        rest.extend_from_slice(&self.buf[cut..]);
        self.buf.truncate(cut);
        let buf = std::mem::replace(&mut self.buf, rest);
        self.line_pos -= cut;
        self.base += cut as u64;
        self.pos -= cut;
        if let Some(o) = self.open.as_mut() {
            o.start -= cut;
            if let Some(m) = o.movetext.as_mut() {
                *m -= cut;
            }
        }
        Some(Batch {
            buf,
            games: std::mem::take(&mut self.done),
            truncated: None,
            ends_input: false,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Splits with a tiny target so every batch boundary case is exercised, and
    /// a reader that returns one byte at a time to stress refills.
    fn split_all(pgn: &[u8], target: usize) -> Vec<(u32, u64, u32, String, String)> {
        struct Trickle<'a>(&'a [u8]);
        impl Read for Trickle<'_> {
            fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
                let n = self.0.len().min(out.len()).min(7);
                out[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let mut s = Splitter::new(Trickle(pgn));
        let mut out = Vec::new();
        while let Some(b) = s.next_batch(target).unwrap() {
            for g in &b.games {
                let text = |r: &[u8]| String::from_utf8_lossy(r).into_owned();
                out.push((
                    g.number,
                    g.offset,
                    g.line,
                    text(b.header(g)),
                    text(b.movetext(g)),
                ));
                assert_eq!(
                    &pgn[g.offset as usize..][..g.end - g.start],
                    &b.buf[g.start..g.end]
                );
            }
        }
        out
    }

    #[test]
    fn quirks() {
        let pgn = b"\xef\xbb\xbf[Event \"a\"]\r\n[Result \"?\"]\r\n \r\n\r\n[Event \"b\"]\n[Site \"s\"]\n\n\
{pre}\n1.e4 {x\n[Site \"no\" inside a comment} e5 ; rest {of [line\n%escaped\n2. Nf3 1-0 ; {c}\n\
[Event \"c\"]\n1. d4 *";
        for target in [1, 10, 1000] {
            let games = split_all(pgn, target);
            assert_eq!(games.len(), 3, "target {target}");
            assert_eq!(games[0].0, 1);
            assert_eq!(games[0].2, 1);
            assert_eq!(games[0].4, ""); // stub: no movetext
            assert_eq!(games[1].2, 5);
            assert!(games[1].4.starts_with("{pre}"));
            assert!(games[1].4.contains("2. Nf3 1-0 ; {c}\n"));
            assert_eq!((games[2].2, games[2].4.as_str()), (13, "1. d4 *"));
        }
    }

    #[test]
    fn unterminated_comment_stops_at_next_event() {
        let pgn = b"[Event \"a\"]\n1. e4 {oops\n2. d4\n[Event \"b\"]\n1. c4 *\n";
        let games = split_all(pgn, 1);
        assert_eq!(games.len(), 2);
        assert_eq!(games[1].3, "[Event \"b\"]\n");
    }

    /// A decoder's unexpected end: the games before it as usual, the one it
    /// cut last and marked (an empty one when no game was open).
    #[test]
    fn a_truncated_input_ends_at_the_damage() {
        struct Cut<'a>(&'a [u8]);
        impl Read for Cut<'_> {
            fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
                if self.0.is_empty() {
                    return Err(io::Error::new(io::ErrorKind::UnexpectedEof, "cut"));
                }
                let n = self.0.len().min(out.len()).min(5);
                out[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let pgn = b"[Event \"a\"]\n1. e4 *\n\n[Event \"b\"]\n1. d4";
        let mut s = Splitter::new(Cut(pgn));
        let b = s.next_batch(usize::MAX).unwrap().unwrap();
        assert_eq!(b.truncated.as_deref(), Some("cut"));
        assert_eq!(b.games.len(), 2);
        assert_eq!(
            (b.games[1].offset, b.movetext(&b.games[1])),
            (21, &b"1. d4"[..])
        );
        assert!(s.next_batch(1).unwrap().is_none());
        let b = Splitter::new(Cut(b" \n")).next_batch(1).unwrap().unwrap();
        assert_eq!(b.truncated.as_deref(), Some("cut"));
        assert_eq!(
            (b.games.len(), b.games[0].offset, b.games[0].line),
            (1, 2, 2)
        );
        assert_eq!(b.games[0].start, b.games[0].end);
    }

    #[test]
    fn movetext_without_tags_and_empty_input() {
        let games = split_all(b"\n\n1. e4 e5 *\n\n[Event \"x\"]\n*", 1);
        assert_eq!(games.len(), 2);
        assert_eq!((games[0].3.as_str(), games[0].2), ("", 3));
        assert!(split_all(b"", 1).is_empty());
        assert!(split_all(b" \n\n", 1).is_empty());
    }
}
