//! Eval comment dialects: TCEC key=value, cutechess, lichess and ChessBase.
//!
//! [`parse`] reads one move comment into a [`MoveComment`] without allocating;
//! whatever no field takes is appended to a caller-owned `extra` string so nothing
//! is lost. [`Eval::normalize`] turns a raw eval into White-POV centipawns or mate
//! in full moves. See `../shared/spec/formats.md` for the dialects.
//!
//! ```
//! use evallab::comment::{parse, Dialect, EvalKind, Pov};
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

/// Whose point of view a raw eval is written from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pov {
    White,
    Mover,
}

/// An eval as written, before normalisation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum RawEval {
    /// Pawn units.
    Pawns(f64, Pov),
    /// `M<n>` counts plies, `#<n>` full moves; the sign is the writer's.
    MatePlies(i32, Pov),
    MateMoves(i32, Pov),
}

/// Classification of a normalised eval (the `eval_kind` column).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EvalKind {
    Cp,
    Mate,
    /// `d=1` with 0.00: the GUI wrote a placeholder, there was no search.
    Placeholder,
    /// |eval| above [`ABSURD_PAWNS`]: overflow garbage such as 21474836.48.
    Absurd,
}

impl EvalKind {
    /// Name stored in the `eval_kind` column.
    pub fn name(self) -> &'static str {
        match self {
            EvalKind::Cp => "cp",
            EvalKind::Mate => "mate",
            EvalKind::Placeholder => "placeholder",
            EvalKind::Absurd => "absurd",
        }
    }
}

/// Evals beyond this many pawns are overflow garbage, not engine opinions
/// (TB plateaus such as ±150 or 999.99 stay below it and are kept as values).
pub const ABSURD_PAWNS: f64 = 1000.0;

/// A normalised eval: White POV centipawns or mate in full moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Eval {
    pub kind: EvalKind,
    pub cp: Option<i32>,
    pub mate: Option<i16>,
}

impl RawEval {
    /// Normalises to White POV; `mover_white` is the side that played the move
    /// the comment belongs to. `depth` detects TCEC's `d=1` placeholders.
    pub fn normalize(self, mover_white: bool, depth: Option<i16>) -> Eval {
        let flip = |pov: Pov| {
            if pov == Pov::Mover && !mover_white {
                -1
            } else {
                1
            }
        };
        match self {
            RawEval::Pawns(v, pov) => {
                let v = v * f64::from(flip(pov));
                if depth == Some(1) && v == 0.0 {
                    Eval {
                        kind: EvalKind::Placeholder,
                        cp: None,
                        mate: None,
                    }
                } else if v.abs() > ABSURD_PAWNS || !v.is_finite() {
                    Eval {
                        kind: EvalKind::Absurd,
                        cp: None,
                        mate: None,
                    }
                } else {
                    Eval {
                        kind: EvalKind::Cp,
                        cp: Some((v * 100.0).round() as i32),
                        mate: None,
                    }
                }
            }
            RawEval::MatePlies(n, pov) => {
                // Plies to full moves, rounding up: M5 (mate on our 3rd move) -> 3.
                let moves = (n.abs() + 1) / 2;
                Self::mate(n.signum() * moves * flip(pov))
            }
            RawEval::MateMoves(n, pov) => Self::mate(n * flip(pov)),
        }
    }

    fn mate(n: i32) -> Eval {
        Eval {
            kind: EvalKind::Mate,
            cp: None,
            mate: Some(n.clamp(i16::MIN.into(), i16::MAX.into()) as i16),
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
    } else if t.contains("[%") {
        parse_lichess(t, &mut c, extra);
    } else if starts_with_key(t) || t.starts_with("book,") {
        parse_tcec(t, &mut c, extra);
    } else if !parse_slash_eval(t, &mut c, extra) {
        push_extra(extra, t);
    }
    c
}

fn push_extra(extra: &mut String, s: &str) {
    let s = s.trim();
    if !s.is_empty() {
        if !extra.is_empty() {
            extra.push(' ');
        }
        extra.push_str(s);
    }
}

/// `d=`, `wv=`, `ev=` …, or Arena's verbose `Eval = 0.00`: an ASCII key, then
/// `=` (spaces allowed between).
fn starts_with_key(t: &str) -> bool {
    let b = t.as_bytes();
    let n = b.iter().take_while(|c| c.is_ascii_alphanumeric()).count();
    let spaces = b[n..].iter().take_while(|&&c| c == b' ').count();
    n > 0 && b[0].is_ascii_alphabetic() && b.get(n + spaces) == Some(&b'=')
}

fn parse_tcec<'a>(t: &'a str, c: &mut MoveComment<'a>, extra: &mut String) {
    c.dialect = Some(Dialect::Tcec);
    let mut ev = None;
    // Byte-level scan: this is the hottest text path of a TCEC ingest. Every
    // split is at an ASCII `,` or `=`, so slicing `t` stays on char boundaries.
    let bytes = t.as_bytes();
    let mut start = 0;
    while start <= bytes.len() {
        let end = memchr::memchr(b',', &bytes[start..]).map_or(bytes.len(), |i| start + i);
        let part = t[start..end].trim_ascii();
        start = end + 1;
        if part.is_empty() {
            continue;
        }
        let Some(eq) = memchr::memchr(b'=', part.as_bytes()) else {
            if part.eq_ignore_ascii_case("book") {
                c.book = true;
            } else {
                push_extra(extra, part);
            }
            continue;
        };
        let (key, v) = (
            part[..eq].trim_ascii_end(),
            part[eq + 1..].trim_ascii_start(),
        );
        let ok = match key.as_bytes() {
            b"wv" => set_eval(c, v, Pov::White),
            // Arena's verbose keys (TCEC Match 4) are aliases of the short ones.
            b"ev" | b"Eval" => {
                ev = Some(v);
                true
            }
            b"d" | b"Depth" => set(&mut c.depth, v.parse().ok()),
            b"sd" => set(&mut c.seldepth, v.parse().ok()),
            b"n" => set(&mut c.nodes, v.parse().ok()),
            b"s" | b"Speed" => set(&mut c.nps, parse_nps(v)),
            b"mt" | b"MoveTime" => set(&mut c.time_ms, parse_duration_ms(v)),
            b"tl" | b"TimeLeft" => set(&mut c.time_left_ms, parse_duration_ms(v)),
            b"tb" => v == "null" || set(&mut c.tb_hits, v.parse().ok()),
            b"h" => set(&mut c.hash_full, v.parse().ok()),
            b"ph" => set(&mut c.ponder_hit, v.parse().ok()),
            b"R50" => set(&mut c.r50, v.parse().ok()),
            b"Rd" => set(&mut c.rd, v.parse().ok()),
            b"Rr" => set(&mut c.rr, v.parse().ok()),
            b"pd" => set(&mut c.expected_reply, Some(v)),
            b"pv" => set(&mut c.pv, Some(v)),
            b"mb" => set(&mut c.mb, Some(v)),
            b"wdl" => set(&mut c.wdl, Some(v)),
            _ => false,
        };
        if !ok {
            push_extra(extra, part);
        }
    }
    // Era C writes both: `wv` (White POV) wins; era B has only `ev`, White POV.
    if c.eval.is_none()
        && let Some(v) = ev
        && !set_eval(c, v, Pov::White)
    {
        push_extra(extra, v);
    }
}

fn set<T>(slot: &mut Option<T>, v: Option<T>) -> bool {
    let ok = v.is_some();
    *slot = v;
    ok
}

fn set_eval<'a>(c: &mut MoveComment<'a>, v: &'a str, pov: Pov) -> bool {
    c.eval = parse_eval_token(v, pov);
    c.eval_raw = c.eval.map(|_| v);
    c.eval.is_some()
}

/// `0.15`, `-0.21`, `+0.35`, `M12`, `-M5`, `#21`, `-#21`, `#-3`.
fn parse_eval_token(v: &str, pov: Pov) -> Option<RawEval> {
    let (neg, rest) = match v.as_bytes().first()? {
        b'-' => (true, &v[1..]),
        b'+' => (false, &v[1..]),
        _ => (false, v),
    };
    let sign = if neg { -1 } else { 1 };
    if let Some(n) = rest.strip_prefix('M') {
        return Some(RawEval::MatePlies(sign * n.parse::<i32>().ok()?, pov));
    }
    if let Some(n) = rest.strip_prefix('#') {
        return Some(RawEval::MateMoves(sign * n.parse::<i32>().ok()?, pov));
    }
    // Guard against `inf`/`nan`, which f64::from_str would accept.
    if !rest.starts_with(|ch: char| ch.is_ascii_digit() || ch == '.') {
        return None;
    }
    let x: f64 = rest.parse().ok()?;
    Some(RawEval::Pawns(if neg { -x } else { x }, pov))
}

/// `13629 kN/s` (eras B–D) or plain nodes per second.
fn parse_nps(v: &str) -> Option<i64> {
    let (num, unit) = v.split_once(' ').unwrap_or((v, ""));
    let n: i64 = num.parse().ok()?;
    match unit.trim() {
        "" | "N/s" => Some(n),
        "kN/s" => Some(n * 1000),
        "MN/s" => Some(n * 1_000_000),
        _ => None,
    }
}

/// Milliseconds (era E) or `hh:mm:ss(.f)` (eras B–D, lichess clocks).
pub fn parse_duration_ms(v: &str) -> Option<i64> {
    if memchr::memchr(b':', v.as_bytes()).is_none() {
        return v.parse().ok();
    }
    let mut ms = 0f64;
    for part in v.split(':') {
        let x: f64 = part.parse().ok()?;
        if x.is_nan() || x < 0.0 {
            return None;
        }
        ms = ms * 60.0 + x;
    }
    Some((ms * 1000.0).round() as i64)
}

fn parse_lichess<'a>(t: &'a str, c: &mut MoveComment<'a>, extra: &mut String) {
    c.dialect = Some(Dialect::Lichess);
    let mut rest = t;
    while let Some(start) = rest.find("[%") {
        push_extra(extra, &rest[..start]);
        let Some(len) = rest[start..].find(']') else {
            break;
        };
        let body = &rest[start + 2..start + len];
        let whole = &rest[start..=start + len];
        rest = &rest[start + len + 1..];
        let (cmd, arg) = body.split_once(char::is_whitespace).unwrap_or((body, ""));
        let arg = arg.trim();
        let ok = match cmd {
            "eval" => {
                let (ev, depth) = arg.split_once(',').unwrap_or((arg, ""));
                if !depth.is_empty() {
                    c.depth = depth.trim().parse().ok();
                }
                set_eval(c, ev.trim(), Pov::White)
            }
            "clk" => set(&mut c.time_left_ms, parse_duration_ms(arg)),
            "emt" => set(&mut c.time_ms, parse_duration_ms(arg)),
            _ => false,
        };
        if !ok {
            push_extra(extra, whole);
        }
    }
    push_extra(extra, rest);
}

/// cutechess `+0.35/21 1.2s[, text]` or ChessBase `0.44/22 249 (exd6)`.
///
/// ChessBase wrapped lines inside tokens (`0.\n60/21`), so whitespace before the
/// first depth digit is dropped; after it, whitespace separates (`0.25/27\n1011`
/// is depth 27, 1011 s).
fn parse_slash_eval<'a>(t: &'a str, c: &mut MoveComment<'a>, extra: &mut String) -> bool {
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
    use super::*;

    fn p(t: &str) -> (MoveComment<'_>, String) {
        let mut extra = String::new();
        let c = parse(t, &mut extra);
        (c, extra)
    }

    fn norm(c: &MoveComment, mover_white: bool) -> Eval {
        c.eval.unwrap().normalize(mover_white, c.depth)
    }

    #[test]
    fn tcec_era_e() {
        let (c, extra) = p(
            "d=45, sd=61, pd=Nc6, mt=146610, tl=1656390, s=164179065, n=24070292811, pv=f4 Nc6 Nf3, tb=37272, h=42.0, ph=0.0, wv=1.07, R50=50, Rd=-9, Rr=-1000, mb=+0+0+0+0+0,",
        );
        assert_eq!(c.dialect, Some(Dialect::Tcec));
        assert_eq!(extra, "");
        assert_eq!(c.depth, Some(45));
        assert_eq!(c.seldepth, Some(61));
        assert_eq!(c.expected_reply, Some("Nc6"));
        assert_eq!(c.time_ms, Some(146_610));
        assert_eq!(c.time_left_ms, Some(1_656_390));
        assert_eq!(c.nps, Some(164_179_065));
        assert_eq!(c.nodes, Some(24_070_292_811));
        assert_eq!(c.pv, Some("f4 Nc6 Nf3"));
        assert_eq!(c.tb_hits, Some(37272));
        assert_eq!(c.hash_full, Some(42.0));
        assert_eq!((c.r50, c.rd, c.rr), (Some(50), Some(-9), Some(-1000)));
        assert_eq!(c.mb, Some("+0+0+0+0+0"));
        // wv is White POV: a Black move keeps the sign.
        assert_eq!(norm(&c, false).cp, Some(107));
        assert_eq!(c.eval_raw, Some("1.07"));
    }

    #[test]
    fn tcec_era_b_and_d() {
        let (c, extra) =
            p(" ev=-0.21, d=27, pd=Rc8, mt=00:07:08, tl=01:32:51, s=13629 kN/s, tb=0, ");
        assert_eq!(extra, "");
        assert_eq!(norm(&c, false).cp, Some(-21));
        assert_eq!(c.time_ms, Some(428_000));
        assert_eq!(c.time_left_ms, Some(5_571_000));
        assert_eq!(c.nps, Some(13_629_000));
        let (c, _) = p("d=21, pd=Bc7, wv=M12, tb=null, R50=50,");
        let e = norm(&c, false);
        // M counts plies: 12 plies -> 6 moves, White POV regardless of mover.
        assert_eq!((e.kind, e.mate), (EvalKind::Mate, Some(6)));
        assert_eq!(c.tb_hits, None);
        let (c, _) = p("wv=-M5, d=30");
        assert_eq!(norm(&c, true).mate, Some(-3));
    }

    #[test]
    fn arena_verbose_keys() {
        let (c, extra) = p(
            "  Eval = 0.00,  Depth = 1,  MoveTime = 00:00:00,  TimeLeft = 02:00:00,  FEN = 8/8/8/8/8/8/8/K6k w - - 0 1 ",
        );
        assert_eq!(c.dialect, Some(Dialect::Tcec));
        assert_eq!(norm(&c, true).kind, EvalKind::Placeholder);
        assert_eq!((c.time_ms, c.time_left_ms), (Some(0), Some(7_200_000)));
        assert_eq!(extra, "FEN = 8/8/8/8/8/8/8/K6k w - - 0 1");
        let (c, _) = p("Eval = -0.35, Depth = 18, TimeLeft = 01:00:00");
        assert_eq!((norm(&c, false).cp, c.depth), (Some(-35), Some(18)));
    }

    #[test]
    fn tcec_era_c_prefers_wv_and_hash_mates() {
        // ev is mover POV in season 5; wv must win.
        let (c, _) = p("ev=0.40, d=20, wv=-0.40,");
        assert_eq!(norm(&c, false).cp, Some(-40));
        let (c, _) = p("ev=#21, d=20, wv=-#21,");
        assert_eq!(norm(&c, false).mate, Some(-21));
    }

    #[test]
    fn tcec_placeholder_garbage_and_result_text() {
        let (c, _) = p("d=1, mt=0, n=0, wv=0.00,");
        assert_eq!(norm(&c, true).kind, EvalKind::Placeholder);
        let (c, _) = p("d=1, wv=0.16,");
        assert_eq!(norm(&c, true).cp, Some(16));
        let (c, _) = p("d=30, wv=21474836.48,");
        let e = norm(&c, true);
        assert_eq!((e.kind, e.cp), (EvalKind::Absurd, None));
        assert_eq!(c.eval_raw, Some("21474836.48"));
        let (c, _) = p("d=30, wv=-150.00,");
        assert_eq!(norm(&c, true).cp, Some(-15000));
        let (c, extra) = p("d=1, wv=-M1, mb=+2+0-1+1-1, Black mates");
        assert_eq!(extra, "Black mates");
        assert_eq!(norm(&c, false).mate, Some(-1));
        let (c, extra) = p("book, mt=0, foo=bar,");
        assert!(c.book);
        assert_eq!(extra, "foo=bar");
    }

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
    fn lichess() {
        let (c, extra) = p("[%eval 0.17] [%clk 0:00:30]");
        assert_eq!(c.dialect, Some(Dialect::Lichess));
        assert_eq!(extra, "");
        assert_eq!(norm(&c, false).cp, Some(17));
        assert_eq!(c.time_left_ms, Some(30_000));
        let (c, _) = p("[%eval #-3]");
        assert_eq!(norm(&c, true).mate, Some(-3));
        let (c, _) = p("[%eval 0.35,20] [%emt 0:00:01.2] nice move");
        assert_eq!((c.depth, c.time_ms), (Some(20), Some(1200)));
        let (_, extra) = p("[%eval 0.35,20] [%emt 0:00:01.2] nice move");
        assert_eq!(extra, "nice move");
        let (c, _) = p("[%eval 1.5]");
        assert_eq!(norm(&c, true).cp, Some(150));
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

    #[test]
    fn durations() {
        assert_eq!(parse_duration_ms("01:02:03"), Some(3_723_000));
        assert_eq!(parse_duration_ms("0:00:01.25"), Some(1250));
        assert_eq!(parse_duration_ms("1500"), Some(1500));
        assert_eq!(parse_duration_ms("a:b"), None);
    }
}
