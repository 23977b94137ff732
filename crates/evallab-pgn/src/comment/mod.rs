//! Eval comment dialects: TCEC key=value (with Arena's verbose keys), cutechess,
//! lichess and ChessBase.
//!
//! One file per grammar: [`tcec`] (TCEC `key=value, …`, and Arena's verbose
//! `Eval = 0.00, Depth = 1` whose keys are aliases in the same loop),
//! [`lichess`] (`[%eval …]` commands), [`cutechess_chessbase`] (`eval/depth
//! time`: cutechess and ChessBase share it and are told apart by the time
//! token), and [`eval`] (raw evals and their normalisation). This file holds
//! the dispatch ([`parse`]) and the helpers every dialect uses.
//!
//! [`parse`] reads one move comment into a [`MoveComment`] without allocating;
//! whatever no field takes is appended to a caller-owned `extra` string so nothing
//! is lost. [`RawEval::normalize`] turns a raw eval into White-POV centipawns or mate
//! in full moves. See `../shared/spec/formats.md` for the dialects.
//!
//! ```
//! use evallab_pgn::comment::{parse, Dialect, EvalKind, Pov};
//! let mut extra = String::new();
//! let c = parse("+M5/30 0.5s", &mut extra);
//! assert_eq!(c.dialect, Some(Dialect::Cutechess));
//! // cutechess: mover POV, M counts plies -> mate in 3 full moves for the mover.
//! let e = c.eval.unwrap().normalize(false, c.depth);
//! assert_eq!((e.kind, e.cp, e.mate), (EvalKind::Mate, None, Some(-3)));
//! let c = parse("d=1, wv=0.00, n=0,", &mut extra);
//! assert_eq!(c.eval.unwrap().normalize(true, c.depth).kind, EvalKind::Placeholder);
//! # let _ = Pov::White;
//! ```

pub mod cutechess_chessbase;
pub mod eval;
pub mod lichess;
pub mod num;
pub mod tcec;

pub use eval::{ABSURD_PAWNS, Eval, EvalKind, Pov, RawEval};

use cutechess_chessbase::parse_slash_eval;
use lichess::parse_lichess;
use tcec::{parse_tcec, starts_with_key};

/// The comment dialect that produced a move's fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Dialect {
    /// TCEC `key=value, …` comments (all eras B–E).
    Tcec,
    /// cutechess-cli `+0.35/21 1.2s`.
    Cutechess,
    /// lichess / python-chess `[%eval 0.17] [%clk 0:00:30]`.
    Lichess,
    /// ChessBase `0.44/22 249 (exd6)` (TCEC era A).
    Chessbase,
}

impl Dialect {
    /// Every dialect, in a fixed order (used for per-game counts).
    pub const ALL: [Dialect; 4] = [
        Dialect::Tcec,
        Dialect::Cutechess,
        Dialect::Lichess,
        Dialect::Chessbase,
    ];

    /// Name stored in the `dialect` column.
    pub fn name(self) -> &'static str {
        match self {
            Dialect::Tcec => "tcec",
            Dialect::Cutechess => "cutechess",
            Dialect::Lichess => "lichess",
            Dialect::Chessbase => "chessbase",
        }
    }
}

/// The fields read from one move comment. Text fields borrow the comment.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MoveComment<'a> {
    /// `None` when no dialect recognised the comment.
    pub dialect: Option<Dialect>,
    pub book: bool,
    pub eval: Option<RawEval>,
    pub eval_raw: Option<&'a str>,
    pub depth: Option<i16>,
    pub seldepth: Option<i16>,
    pub nodes: Option<i64>,
    pub nps: Option<i64>,
    pub time_ms: Option<i64>,
    pub time_left_ms: Option<i64>,
    pub tb_hits: Option<i64>,
    pub hash_full: Option<f32>,
    pub ponder_hit: Option<f32>,
    /// The GUI's delay around the engine's move, ms (fastchess `latency`).
    pub latency_ms: Option<i64>,
    pub expected_reply: Option<&'a str>,
    pub pv: Option<&'a str>,
    pub r50: Option<i16>,
    pub rd: Option<i16>,
    pub rr: Option<i16>,
    pub mb: Option<&'a str>,
    pub wdl: Option<&'a str>,
}

/// Reads one move comment (without braces). Text no field takes is appended to
/// `extra` (space separated) so that it is kept.
pub fn parse<'a>(text: &'a str, extra: &mut String) -> MoveComment<'a> {
    let t = text.trim();
    let mut c = MoveComment::default();
    if t.is_empty() {
        return c;
    }
    if t.eq_ignore_ascii_case("book") || t == "B 0" {
        c.book = true;
    } else if has_command(t.as_bytes()) {
        parse_lichess(t, &mut c, extra);
    } else if starts_with_key(t) || t.starts_with("book,") {
        parse_tcec(t, &mut c, extra);
    } else if !parse_slash_eval(t, &mut c, extra) {
        push_extra(extra, t);
    }
    c
}

/// Whether a comment holds a `[%` command (lichess). memchr for the `[`:
/// TCEC comments have none, and no searcher is built per comment.
fn has_command(b: &[u8]) -> bool {
    memchr::memchr_iter(b'[', b).any(|i| b.get(i + 1) == Some(&b'%'))
}

pub(super) fn push_extra(extra: &mut String, s: &str) {
    let s = s.trim();
    if !s.is_empty() {
        if !extra.is_empty() {
            extra.push(' ');
        }
        extra.push_str(s);
    }
}

/// Fills an empty field; `false` (the caller keeps the text in `extra`) when
/// the value does not parse, or when the field already has one: a comment
/// that writes a key twice (`wv=0.5, wv=0.7`) keeps its first value in the
/// column and the second as text.
pub(super) fn set<T>(slot: &mut Option<T>, v: Option<T>) -> bool {
    if slot.is_some() {
        return false;
    }
    let ok = v.is_some();
    *slot = v;
    ok
}

pub(super) fn set_eval<'a>(c: &mut MoveComment<'a>, v: &'a str, pov: Pov) -> bool {
    if c.eval.is_some() {
        return false;
    }
    c.eval = parse_eval_token(v, pov);
    c.eval_raw = c.eval.map(|_| v);
    c.eval.is_some()
}

/// `0.15`, `-0.21`, `+0.35`, `M12`, `-M5`, `#21`, `-#21`, `#-3`.
pub(super) fn parse_eval_token(v: &str, pov: Pov) -> Option<RawEval> {
    let (neg, rest) = match v.as_bytes().first()? {
        b'-' => (true, &v[1..]),
        b'+' => (false, &v[1..]),
        _ => (false, v),
    };
    let sign = if neg { -1 } else { 1 };
    // Saturating: `-M-2147483648` is absurd but must not overflow.
    if let Some(n) = rest.strip_prefix('M') {
        let n = n.parse::<i32>().ok()?.saturating_mul(sign);
        return Some(RawEval::MatePlies(n, pov));
    }
    if let Some(n) = rest.strip_prefix('#') {
        let n = n.parse::<i32>().ok()?.saturating_mul(sign);
        return Some(RawEval::MateMoves(n, pov));
    }
    // Guard against `inf`/`nan`, which f64::from_str would accept.
    if !rest.starts_with(|ch: char| ch.is_ascii_digit() || ch == '.') {
        return None;
    }
    let x = num::parse_f64(rest)?;
    Some(RawEval::Pawns(if neg { -x } else { x }, pov))
}

/// Milliseconds (era E) or `hh:mm:ss(.f)` (eras B–D, lichess clocks).
pub fn parse_duration_ms(v: &str) -> Option<i64> {
    // Milliseconds first: a clock fails them at its first `:`.
    let ms = num::parse_i64(v.as_bytes());
    if ms.is_some() {
        return ms;
    }
    // Whole `h:m:s` (eras B–D): integers, the same value as the float sum
    // below (exact far beyond any clock). Fractions and signs take that path.
    if let Some(s) = whole_seconds(v.as_bytes()) {
        return Some(s as i64 * 1000);
    }
    // Not a clock: no `:` at all, more than `h:m:s`, or a sign that would
    // be lost (`-0:00:05`).
    memchr::memchr(b':', v.as_bytes())?;
    if v.split(':').count() > 3 || v.contains('-') {
        return None;
    }
    let mut secs = 0f64;
    for (i, part) in v.split(':').enumerate() {
        let x = num::parse_f64(part)?;
        // Minutes and seconds below 60 (`1:99:99` is no clock).
        if x.is_nan() || x < 0.0 || (i > 0 && x >= 60.0) {
            return None;
        }
        secs = secs * 60.0 + x;
    }
    secs_ms(secs)
}

/// Seconds as whole milliseconds; `None` when not a number or beyond i64
/// (where `as` would saturate: 1e20 s is not i64::MAX ms), for the caller
/// to keep the text.
pub(super) fn secs_ms(secs: f64) -> Option<i64> {
    let ms = (secs * 1000.0).round();
    // i64::MAX as f64 is 2^63, the first value beyond i64.
    (ms.abs() < i64::MAX as f64).then_some(ms as i64)
}

/// The seconds of `m:s` or `h:m:s`, every part ASCII digits, minutes and
/// seconds below 60, in one pass (30 % of the TCEC archive's moves carry such
/// clocks); `None` for any other shape, on overflow, or from 2^40 s on.
fn whole_seconds(b: &[u8]) -> Option<u64> {
    let (mut total, mut part, mut digits, mut colons) = (0u64, 0u64, 0u32, 0u32);
    for &c in b {
        if c == b':' {
            if digits == 0 || colons == 2 || (colons > 0 && part >= 60) {
                return None;
            }
            total = total.checked_mul(60)?.checked_add(part)?;
            (part, digits, colons) = (0, 0, colons + 1);
        } else {
            let d = c.wrapping_sub(b'0');
            if d > 9 {
                return None;
            }
            part = part.checked_mul(10)?.checked_add(u64::from(d))?;
            digits += 1;
        }
    }
    if digits == 0 || colons == 0 || part >= 60 {
        return None;
    }
    let s = total.checked_mul(60)?.checked_add(part)?;
    (s < 1 << 40).then_some(s)
}

/// Test helpers: a comment's fields and extra text, a raw eval normalised.
#[cfg(test)]
pub(crate) fn p(t: &str) -> (MoveComment<'_>, String) {
    let mut extra = String::new();
    let c = parse(t, &mut extra);
    (c, extra)
}

#[cfg(test)]
pub(crate) fn norm(c: &MoveComment, mover_white: bool) -> Eval {
    c.eval.unwrap().normalize(mover_white, c.depth)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn free_text_is_kept_and_unparsed() {
        let (c, extra) = p("  TCEC draw rule ");
        assert_eq!(c.dialect, None);
        assert_eq!(extra, "TCEC draw rule");
        let (c, extra) = p("1/2 would be fine");
        assert_eq!(c.dialect, None);
        assert_eq!(extra, "1/2 would be fine");
        assert_eq!(parse_eval_token("inf", Pov::White), None);
        assert_eq!(parse_eval_token("+", Pov::White), None);
    }

    /// Found by fuzzing (debug builds panicked on the overflow; release
    /// wrapped). A mate the i16 column cannot hold is absurd, its text in
    /// `eval_raw`; the largest that fits is a mate.
    #[test]
    fn mate_extremes_are_absurd() {
        for (t, white) in [
            ("wv=-M-2147483648, d=5", true),
            ("wv=M2147483647, d=5", true),
            ("+M2147483647/5 1.0s", false),
            ("[%eval #-2147483648]", true),
            ("-#-2147483648/9 10", false),
            ("wv=#32768, d=5", true),
            ("wv=M65535, d=5", true),
        ] {
            let (c, _) = p(t);
            let e = norm(&c, white);
            assert_eq!((e.kind, e.mate), (EvalKind::Absurd, None), "{t}");
            assert!(t.contains(c.eval_raw.unwrap()), "{t}");
        }
        let (c, _) = p("wv=-#32768, d=5");
        assert_eq!(norm(&c, true).mate, Some(i16::MIN));
        let (c, _) = p("wv=M65534, d=5");
        assert_eq!(norm(&c, true).mate, Some(i16::MAX));
    }

    /// A time i64 cannot hold in ms (or not a number) keeps its text.
    #[test]
    fn huge_times_keep_their_text() {
        let (c, extra) = p("+0.20/20 99999999999999999999s");
        assert_eq!((c.dialect, c.time_ms), (Some(Dialect::Cutechess), None));
        assert_eq!(extra, "99999999999999999999s");
        let (c, extra) = p("+0.10/4 NaNs");
        assert_eq!((c.time_ms, extra.as_str()), (None, "NaNs"));
        let (c, extra) = p("0.44/22 99999999999999999999 (exd6)");
        assert_eq!((c.dialect, c.time_ms), (Some(Dialect::Chessbase), None));
        assert_eq!(
            (c.expected_reply, extra.as_str()),
            (Some("exd6"), "99999999999999999999")
        );
        let (c, extra) = p("+0.35/21 1.207s, tl=9999999999999999.5s, latency=0.002s");
        assert_eq!((c.time_left_ms, c.latency_ms), (None, Some(2)));
        assert_eq!(extra, "tl=9999999999999999.5s");
        assert_eq!(parse_duration_ms("inf:00"), None);
        assert_eq!(parse_duration_ms("9999999999999999:00.5"), None);
        assert_eq!(secs_ms(9.2e15), Some(9_200_000_000_000_000_000));
        assert_eq!(secs_ms(9.3e15), None);
        assert_eq!(secs_ms(-1.5), Some(-1500));
    }

    /// An eval's depth the i16 column cannot hold keeps its text; the eval
    /// and the rest are read.
    #[test]
    fn huge_depths_keep_their_text() {
        let (c, extra) = p("+0.20/99999 1.2s");
        assert_eq!(
            (c.depth, c.time_ms, extra.as_str()),
            (None, Some(1200), "/99999")
        );
        assert_eq!(norm(&c, true).cp, Some(20));
        let (c, extra) = p("0.\n60/\n99999 826");
        assert_eq!((c.depth, c.time_ms), (None, Some(826_000)));
        assert_eq!(extra, "/\n99999");
        let (c, extra) = p("[%eval 0.35,99999] [%clk 0:00:30]");
        assert_eq!((c.depth, c.time_left_ms), (None, Some(30_000)));
        assert_eq!(
            (norm(&c, true).cp, extra.as_str()),
            (Some(35), "[%eval 0.35,99999]")
        );
        let (c, extra) = p("[%eval 0.35,32767]");
        assert_eq!((c.depth, extra.as_str()), (Some(32767), ""));
    }

    #[test]
    fn durations() {
        assert_eq!(parse_duration_ms("01:02:03"), Some(3_723_000));
        assert_eq!(parse_duration_ms("0:00:01.25"), Some(1250));
        assert_eq!(parse_duration_ms("1500"), Some(1500));
        assert_eq!(parse_duration_ms("a:b"), None);
        // The integer path and the float path agree at their border.
        assert_eq!(parse_duration_ms("00:07:08"), Some(428_000));
        assert_eq!(parse_duration_ms("+0:07:08"), Some(428_000));
        assert_eq!(parse_duration_ms("1:-1:00"), None);
        assert_eq!(parse_duration_ms("1::00"), None);
        // Not clocks: their text stays (a sign, minutes or seconds from 60 on,
        // more parts than h:m:s).
        for v in [
            "0:0:0:1",
            "-0:00:05",
            "1:99:99",
            "1:2:3:4",
            "1:00:00:00:00",
            "0:60",
            "1:00:60.5",
        ] {
            assert_eq!(parse_duration_ms(v), None, "{v}");
        }
        assert_eq!(parse_duration_ms("0:59.5"), Some(59_500));
        assert_eq!(
            parse_duration_ms("99999999:00:00"),
            Some(359_999_996_400_000)
        );
    }

    /// The one-pass reader of whole clocks against the fold it replaced:
    /// split at `:`, each part `parse_u64`, checked `w * 60 + x`, below 2^40.
    #[test]
    fn whole_seconds_matches_the_split_fold() {
        let fold = |v: &str| {
            if !v.contains(':') {
                return None;
            }
            let parts: Vec<&[u8]> = v.as_bytes().split(|&c| c == b':').collect();
            if parts.len() > 3 {
                return None;
            }
            parts
                .iter()
                .enumerate()
                .try_fold(0u64, |w, (i, part)| {
                    let x = num::parse_u64(part).filter(|&x| i == 0 || x < 60)?;
                    w.checked_mul(60)?.checked_add(x)
                })
                .filter(|&s| s < 1 << 40)
        };
        let cases = [
            "",
            ":",
            "1",
            "1:",
            ":1",
            "1::2",
            "01:02:03",
            "0:0:0:1",
            "00:07:08",
            "+0:07:08",
            "1:-1:00",
            "0:00:01.25",
            "a:b",
            "1:2 ",
            " 1:2",
            "18446744073709551615:0",
            "0:18446744073709551616",
            "307445734561825860:15",
            "0:1099511627775",
            "0:1099511627776",
            "18325193796:0:0",
            "305419896:0",
            "99999999:00:00",
            "١:٢",
        ];
        for v in cases {
            assert_eq!(whole_seconds(v.as_bytes()), fold(v), "{v:?}");
        }
    }
}
