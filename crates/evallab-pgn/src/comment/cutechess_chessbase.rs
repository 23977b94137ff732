//! The `eval/depth time` grammar of two dialects: cutechess-cli
//! `+0.35/21 1.2s` (mover POV, time in seconds with an `s`) and ChessBase
//! `0.44/22 249 (exd6)` (TCEC era A: White POV, whole seconds, the expected
//! reply in parentheses). One scan reads both; the time token decides which.
//!
//! fastchess (the game runner of fishtest and OpenBench) writes cutechess's
//! comment and, as its `-pgnout` options ask, `key=value` fields after it
//! (its `pgn_builder.cpp`): `+0.35/21 1.207s, tl=8.790s, latency=0.002s,
//! n=1234567, sd=30, nps=1022000, hashfull=12, tbhits=0, pv="e7e5 g1f3"`,
//! then `line="…"` (engine output lines its `match_line` regexes picked) and,
//! on the last move, the game's end. Times are seconds with three decimals,
//! `hashfull` is UCI's permille; an engine that gave no score gets no eval
//! (`/21 1.207s`, or `ERR/21 1.207s`).

use super::num::{parse_f64, parse_i16, parse_i64};
use super::{Dialect, MoveComment, Pov, parse_eval_token, push_extra, secs_ms, set};

/// cutechess `+0.35/21 1.2s[, text]` or ChessBase `0.44/22 249 (exd6)`.
///
/// ChessBase wrapped lines inside tokens (`0.\n60/21`), so whitespace before the
/// first depth digit is dropped; after it, whitespace separates (`0.25/27\n1011`
/// is depth 27, 1011 s).
pub(super) fn parse_slash_eval<'a>(
    t: &'a str,
    c: &mut MoveComment<'a>,
    extra: &mut String,
) -> bool {
    let Some(slash) = t.find('/') else {
        return false;
    };
    let head = &t[..slash];
    // fastchess's engine without a score.
    let no_score = head.is_empty() || head == "ERR";
    let ok_char = |ch: char| ch.is_ascii_digit() || matches!(ch, '.' | '+' | '-' | 'M' | '#');
    if !no_score
        && (head.trim().is_empty() || !head.chars().all(|ch| ok_char(ch) || ch.is_whitespace()))
    {
        return false;
    }
    let after = t[slash + 1..].trim_start();
    let depth_len = after.bytes().take_while(u8::is_ascii_digit).count();
    if depth_len == 0 {
        return false;
    }
    let (depth, rest) = after.split_at(depth_len);
    // Only a wrapped token needs a copy; the common case borrows.
    let compact: std::borrow::Cow<str> = if head.contains(char::is_whitespace) {
        head.chars()
            .filter(|ch| !ch.is_whitespace())
            .collect::<String>()
            .into()
    } else {
        head.into()
    };
    let (rest, tail) = rest.split_once(',').unwrap_or((rest, ""));
    let mut words = rest.split_whitespace();
    let time = words.next();
    // Evals are printed with decimals or as mates, except ChessBase's whole
    // pawns (`-24/27 31`), which always have a time; this keeps `1/2` out.
    let whole_pawns = time.is_some_and(|w| w.bytes().all(|b| b.is_ascii_digit()));
    if !compact.contains(['.', 'M', '#']) && !whole_pawns && !no_score {
        return false;
    }
    let (cutechess, secs) = match time {
        Some(w) => match w.strip_suffix('s') {
            Some(num) => (true, num.parse::<f64>().ok()),
            None if w.bytes().all(|b| b.is_ascii_digit()) => (false, w.parse::<f64>().ok()),
            None => (false, None),
        },
        None => (
            compact.starts_with(['+', 'M']) || compact.starts_with("-M"),
            None,
        ),
    };
    if (time.is_some() && secs.is_none()) || (no_score && !(cutechess && time.is_some())) {
        return false;
    }
    let pov = if cutechess { Pov::Mover } else { Pov::White };
    let eval = parse_eval_token(&compact, pov);
    if eval.is_none() && !no_score {
        return false;
    }
    c.dialect = Some(if cutechess {
        Dialect::Cutechess
    } else {
        Dialect::Chessbase
    });
    c.eval = eval;
    c.eval_raw = match compact {
        _ if no_score => None,
        std::borrow::Cow::Borrowed(s) => Some(s),
        // A wrapped token is rare; keep its original text span.
        std::borrow::Cow::Owned(_) => Some(head.trim()),
    };
    // A depth or time its column cannot hold stays in the text.
    c.depth = parse_i16(depth.as_bytes());
    if c.depth.is_none() {
        // `after` runs to the end of `t`: the depth ends depth_len into it.
        push_extra(extra, &t[slash..t.len() - after.len() + depth_len]);
    }
    c.time_ms = secs.and_then(secs_ms);
    if let (Some(w), None) = (time, c.time_ms) {
        push_extra(extra, w);
    }
    for w in words {
        match w.strip_prefix('(').and_then(|w| w.strip_suffix(')')) {
            Some(reply) if !cutechess && c.expected_reply.is_none() => {
                c.expected_reply = Some(reply)
            }
            _ => push_extra(extra, w),
        }
    }
    if cutechess {
        fastchess_fields(tail, c, extra);
    } else {
        push_extra(extra, tail);
    }
    true
}

/// fastchess's `key=value` fields after the time (see the module docs); what
/// no field takes goes to `extra`.
fn fastchess_fields<'a>(mut rest: &'a str, c: &mut MoveComment<'a>, extra: &mut String) {
    while !rest.trim_ascii().is_empty() {
        let field = rest.trim_ascii_start();
        let (key, value) = match field.find(['=', ',']) {
            Some(i) if field.as_bytes()[i] == b'=' => (&field[..i], &field[i + 1..]),
            _ => ("", field),
        };
        // A quoted value runs to the quote before the next `,` (or the end).
        let quoted = value.strip_prefix('"').and_then(|v| {
            let close = v.match_indices('"').map(|(i, _)| i).find(|&i| {
                let after = v[i + 1..].trim_ascii_start();
                after.is_empty() || after.starts_with(',')
            })?;
            Some((&v[..close], &v[close + 1..]))
        });
        let (value, after) = match quoted {
            Some(q) => q,
            None => value.split_once(',').map_or((value, ""), |(v, a)| (v, a)),
        };
        let len = field.len() - after.len();
        rest = after.trim_ascii_start().strip_prefix(',').unwrap_or(after);
        let v = value.trim_ascii();
        let ok = match key {
            "tl" => set(&mut c.time_left_ms, seconds_ms(v)),
            "latency" => set(&mut c.latency_ms, seconds_ms(v)),
            "n" => set(&mut c.nodes, parse_i64(v.as_bytes())),
            "sd" => set(&mut c.seldepth, parse_i16(v.as_bytes())),
            "nps" => set(&mut c.nps, parse_i64(v.as_bytes())),
            // UCI's hashfull is permille; the column is percent. Beyond
            // 1000 it is no fill of the hash: its text is kept.
            "hashfull" => set(
                &mut c.hash_full,
                parse_i64(v.as_bytes())
                    .filter(|p| (0..=1000).contains(p))
                    .map(|p| p as f32 / 10.0),
            ),
            "tbhits" => set(&mut c.tb_hits, parse_i64(v.as_bytes())),
            // `pv=""`: the engine gave none.
            "pv" if quoted.is_some() => v.is_empty() || set(&mut c.pv, Some(v)),
            _ => false,
        };
        if !ok {
            push_extra(extra, field[..len].trim_end_matches(','));
        }
    }
}

/// fastchess's times: seconds with an `s` (`8.790s`), or `ms`, to ms.
///
/// Signed, as fastchess writes them: its `latency` is the time it measured
/// minus the time the engine reported (`-0.002s` when the engine reports
/// more), and its `tl` is below zero after an overrun (a loss on time).
fn seconds_ms(v: &str) -> Option<i64> {
    match v.strip_suffix("ms") {
        Some(ms) => parse_i64(ms.as_bytes()),
        None => secs_ms(parse_f64(v.strip_suffix('s')?)?),
    }
}

#[cfg(test)]
mod tests {
    use crate::comment::{Dialect, norm, p};

    #[test]
    fn cutechess() {
        let (c, extra) = p("+0.35/21 1.2s");
        assert_eq!(c.dialect, Some(Dialect::Cutechess));
        assert_eq!(extra, "");
        assert_eq!((c.depth, c.time_ms), (Some(21), Some(1200)));
        // Mover POV: Black's +0.35 is -35 for White.
        assert_eq!(norm(&c, false).cp, Some(-35));
        let (c, _) = p("-1.05/18 0.058s");
        assert_eq!((norm(&c, true).cp, c.time_ms), (Some(-105), Some(58)));
        let (c, _) = p("-M6/30 0.5s");
        assert_eq!(norm(&c, true).mate, Some(-3));
        let (c, extra) = p("0.00/45 1.1s, Draw by 3-fold repetition");
        assert_eq!(norm(&c, true).cp, Some(0));
        assert_eq!(extra, "Draw by 3-fold repetition");
        assert!(p("book").0.book);
    }

    /// The fields of fastchess's `pgn_builder.cpp`, in its order, every
    /// `-pgnout` option on; values converted by hand.
    #[test]
    fn fastchess() {
        let (c, extra) = p(concat!(
            "+0.35/21 1.207s, tl=8.790s, latency=0.002s, n=1234567, sd=30, nps=1022000, ",
            "hashfull=12, tbhits=3, pv=\"e7e5 g1f3\", line=\"info string a, b\", White mates"
        ));
        assert_eq!(c.dialect, Some(Dialect::Cutechess));
        assert_eq!(norm(&c, true).cp, Some(35));
        assert_eq!((c.depth, c.seldepth), (Some(21), Some(30)));
        assert_eq!((c.time_ms, c.time_left_ms), (Some(1207), Some(8790)));
        assert_eq!(c.latency_ms, Some(2));
        assert_eq!(
            (c.nodes, c.nps, c.tb_hits),
            (Some(1_234_567), Some(1_022_000), Some(3))
        );
        // Permille 12 is 1.2 percent.
        assert_eq!(c.hash_full, Some(1.2));
        assert_eq!(c.pv, Some("e7e5 g1f3"));
        assert_eq!(extra, "line=\"info string a, b\" White mates");
        // Beyond 1000 permille it is no fill of the hash: the text stays.
        let (c, extra) = p("+0.35/21 1.207s, hashfull=99999999");
        assert_eq!((c.hash_full, extra.as_str()), (None, "hashfull=99999999"));
        // The short form, a mate in plies (mover POV), and no score.
        let (c, extra) = p("+1.16/8 0.004s");
        assert_eq!(
            (norm(&c, false).cp, c.time_ms, extra.as_str()),
            (Some(-116), Some(4), "")
        );
        let (c, _) = p("-M4/12 0.100s, n=5");
        assert_eq!((norm(&c, true).mate, c.nodes), (Some(-2), Some(5)));
        for t in ["/21 1.207s, n=7", "ERR/21 1.207s, n=7"] {
            let (c, extra) = p(t);
            assert_eq!(c.dialect, Some(Dialect::Cutechess), "{t}");
            assert_eq!(
                (c.eval, c.eval_raw, c.depth, c.nodes),
                (None, None, Some(21), Some(7))
            );
            assert_eq!(extra, "");
        }
        // `ms` is read too; an unreadable value stays in the text.
        let (c, extra) = p("0.00/1 0.010s, latency=2ms, tl=soon, foo=1");
        assert_eq!((c.latency_ms, c.time_left_ms), (Some(2), None));
        assert_eq!(extra, "tl=soon foo=1");
        assert_eq!(p("/21").0.dialect, None);
        // fastchess 74deac23's own output (tests/data/README.md): the latency
        // it measured below the time the engine reported, a clock overrun.
        let (c, extra) = p("-0.79/8 0.003s, tl=-0.050s, latency=-0.002s, n=3000");
        assert_eq!(
            (c.time_left_ms, c.latency_ms, c.nodes),
            (Some(-50), Some(-2), Some(3000))
        );
        assert_eq!(extra, "");
        let (c, extra) = p("+0.10/8 0.003s, latency=-NaNs");
        assert_eq!((c.latency_ms, extra.as_str()), (None, "latency=-NaNs"));
    }

    #[test]
    fn chessbase_era_a() {
        let (c, extra) = p("0.44/22 249 (exd6)");
        assert_eq!(c.dialect, Some(Dialect::Chessbase));
        assert_eq!(extra, "");
        assert_eq!(norm(&c, false).cp, Some(44));
        assert_eq!((c.depth, c.time_ms), (Some(22), Some(249_000)));
        assert_eq!(c.expected_reply, Some("exd6"));
        // Wrapped inside the eval token, and between depth and time.
        let (c, _) = p("0.\n60/21 826");
        assert_eq!((norm(&c, true).cp, c.depth), (Some(60), Some(21)));
        let (c, _) = p("0.25/27\n1011");
        assert_eq!((c.depth, c.time_ms), (Some(27), Some(1_011_000)));
        let (c, _) = p("0.61/\n20 103");
        assert_eq!((norm(&c, true).cp, c.depth), (Some(61), Some(20)));
        let (c, _) = p("#43/26 55");
        assert_eq!(norm(&c, false).mate, Some(43));
        // Whole pawns (TCEC Tournament 1), only with a time.
        let (c, extra) = p("-24/27 31 (g4)");
        assert_eq!(
            (norm(&c, true).cp, c.depth, extra.as_str()),
            (Some(-2400), Some(27), "")
        );
        assert_eq!(p("02/24").0.dialect, None);
        assert!(p("B 0").0.book);
    }
}
