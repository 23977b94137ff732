//! Arbitrary bytes split and parsed: no panic, every game the splitter finds
//! is either a good game (with its plies) or a reject, and no token vanishes:
//! a good game has one ply per move-like word of its movetext, and a game
//! rejected at a word has read the words before it and names that one. The
//! words are found here by a scanner of its own (the PGN rules, written
//! apart from the lexer's). The last byte sets the batch size and keep_pv (so
//! a PGN file is a seed as it is).
#![no_main]

use evallab_pgn::game::{ParseOptions, Source, in_reason, parse_batch};
use evallab_pgn::movetext::EVAL_SYMBOLS;
use evallab_pgn::sink::{Counter, GameRecord, MoveRecord, RejectRecord, Sink};
use evallab_pgn::split::Splitter;
use libfuzzer_sys::fuzz_target;

/// What became of each game: its plies, or where and why it was rejected.
#[derive(Default)]
struct Outcomes {
    count: Counter,
    games: Vec<Result<u32, (u32, String)>>,
}

impl Sink for Outcomes {
    fn mv(&mut self, m: &MoveRecord<'_>) {
        self.count.mv(m);
    }
    fn game(&mut self, g: &GameRecord<'_>) {
        self.count.game(g);
        self.games.push(Ok(g.plies));
    }
    fn reject(&mut self, r: &RejectRecord<'_>) {
        self.count.reject(r);
        self.games.push(Err((r.ply_reached, r.reason.to_string())));
    }
}

/// The move-like words of a movetext outside comments, variations, `;` and
/// `%` lines, up to the game's result (`*`, `1-0` …: what follows it is no
/// move) or the first comment or variation that does not end (then `true`).
fn move_words(t: &[u8]) -> (Vec<&[u8]>, bool) {
    let mut words = Vec::new();
    let mut i = 0;
    // Where a brace comment opened at `i` ends (the matching `}`, else the first).
    let close = |i: usize| -> Option<usize> {
        let first = t[i..].iter().position(|&c| c == b'}')? + i;
        let mut depth = 0;
        for (k, &c) in t.iter().enumerate().skip(i) {
            depth += usize::from(c == b'{');
            depth -= usize::from(c == b'}');
            if depth == 0 {
                return Some(k);
            }
        }
        Some(first)
    };
    let eol = |i: usize| t[i..].iter().position(|&c| c == b'\n').map_or(t.len(), |n| i + n);
    let line_start = |i: usize| i == 0 || t[i - 1] == b'\n';
    while i < t.len() {
        let c = t[i];
        if c == b'{' {
            let Some(end) = close(i) else {
                return (words, true);
            };
            i = end + 1;
        } else if c == b'(' {
            let mut depth = 0;
            loop {
                let Some(&c) = t.get(i) else {
                    return (words, true);
                };
                match c {
                    b'(' => depth += 1,
                    b')' => depth -= 1,
                    b'{' => match close(i) {
                        Some(end) => i = end,
                        None => return (words, true),
                    },
                    b';' => i = eol(i),
                    b'%' if line_start(i) => i = eol(i),
                    _ => {}
                }
                i += 1;
                if depth == 0 {
                    break;
                }
            }
        } else if c == b';' || (c == b'%' && line_start(i)) {
            i = eol(i);
        } else if c == b'$' {
            i += 1 + t[i + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
        } else if c == b'*' {
            return (words, false);
        } else if c.is_ascii_whitespace() || b".!?)}".contains(&c) {
            i += 1;
        } else {
            let n = t[i..]
                .iter()
                .take_while(|&&c| !c.is_ascii_whitespace() && !b"{}();$!?.*".contains(&c))
                .count();
            let w = &t[i..i + n];
            let text = String::from_utf8_lossy(w);
            let number = w.iter().all(u8::is_ascii_digit) && w != b"0000";
            let dashed = text.replace(['–', '—'], "-");
            let result = ["1-0", "0-1", "1/2-1/2", "1/2", "½-½"].contains(&dashed.as_str());
            if result {
                return (words, false);
            }
            // `exd6 e.p.`: the en passant mark.
            if w == b"e" && t[i + n..].starts_with(b".p.") {
                i += n + 3;
                continue;
            }
            if !number && !EVAL_SYMBOLS.contains(&&*text) {
                words.push(w);
            }
            i += n;
        }
    }
    (words, false)
}

fuzz_target!(|data: &[u8]| {
    let Some((&knob, input)) = data.split_last() else {
        return;
    };
    let opts = ParseOptions {
        keep_pv: knob & 1 == 0,
    };
    let target = 1 + usize::from(knob >> 1) * 33;
    let src = Source {
        name: "fuzz",
        sha256: Some("00"),
    };
    let mut split = Splitter::new(input);
    while let Some(batch) = split.next_batch(target).unwrap() {
        let mut sink = Outcomes::default();
        let c = parse_batch(&batch, src, opts, &mut sink);
        assert_eq!(c.games + c.rejects, batch.games.len() as u64);
        let n = &sink.count;
        assert_eq!((n.games, n.rejects, n.moves), (c.games, c.rejects, c.plies));
        for (g, outcome) in batch.games.iter().zip(&sink.games) {
            let (words, unterminated) = move_words(batch.movetext(g));
            match outcome {
                Ok(plies) => {
                    assert!(!unterminated);
                    assert_eq!(*plies as usize, words.len());
                }
                Err((ply, reason)) => {
                    let ply = *ply as usize;
                    assert!(ply <= words.len(), "{reason}");
                    let named = |w: &[u8]| {
                        if reason.starts_with("unreadable token") {
                            // As the reason shows it: escaped, cut.
                            reason.contains(&format!("\"{}\"", in_reason(w)))
                        } else {
                            reason.ends_with(&*String::from_utf8_lossy(w))
                        }
                    };
                    let at_word = ["unreadable token", "illegal move", "ambiguous move"]
                        .iter()
                        .any(|r| reason.starts_with(r));
                    if at_word {
                        assert!(ply < words.len() && named(words[ply]), "{reason}");
                    }
                }
            }
        }
    }
});
