//! The `eval/depth time` grammar of two dialects: cutechess-cli
//! `+0.35/21 1.2s` (mover POV, time in seconds with an `s`) and ChessBase
//! `0.44/22 249 (exd6)` (TCEC era A: White POV, whole seconds, the expected
//! reply in parentheses). One scan reads both; the time token decides which.

use super::{Dialect, MoveComment, Pov, parse_eval_token, push_extra};

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
    let ok_char = |ch: char| ch.is_ascii_digit() || matches!(ch, '.' | '+' | '-' | 'M' | '#');
    if head.is_empty() || !head.chars().all(|ch| ok_char(ch) || ch.is_whitespace()) {
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
    if !compact.contains(['.', 'M', '#']) && !whole_pawns {
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
    if time.is_some() && secs.is_none() {
        return false;
    }
    let pov = if cutechess { Pov::Mover } else { Pov::White };
    let Some(eval) = parse_eval_token(&compact, pov) else {
        return false;
    };
    c.dialect = Some(if cutechess {
        Dialect::Cutechess
    } else {
        Dialect::Chessbase
    });
    c.eval = Some(eval);
    c.eval_raw = match compact {
        std::borrow::Cow::Borrowed(s) => Some(s),
        // A wrapped token is rare; keep its original text span.
        std::borrow::Cow::Owned(_) => Some(head.trim()),
    };
    c.depth = depth.parse().ok();
    c.time_ms = secs.map(|s| (s * 1000.0).round() as i64);
    for w in words {
        match w.strip_prefix('(').and_then(|w| w.strip_suffix(')')) {
            Some(reply) if !cutechess && c.expected_reply.is_none() => {
                c.expected_reply = Some(reply)
            }
            _ => push_extra(extra, w),
        }
    }
    push_extra(extra, tail);
    true
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
