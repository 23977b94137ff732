//! TCEC `key=value, …` comments (all eras B–E), and Arena's verbose
//! `Eval = 0.00, Depth = 1, MoveTime = 00:00:00` (TCEC Match 4), whose keys are
//! aliases of the short ones in the same loop.

use super::num::{exact_f32, parse_i16, parse_i64};
use super::{Dialect, MoveComment, Pov, parse_duration_ms, push_extra, set, set_eval};

/// `d=`, `wv=`, `ev=` …, or Arena's verbose `Eval = 0.00`: an ASCII key, then
/// `=` (spaces allowed between).
pub(super) fn starts_with_key(t: &str) -> bool {
    let b = t.as_bytes();
    let n = b.iter().take_while(|c| c.is_ascii_alphanumeric()).count();
    let spaces = b[n..].iter().take_while(|&&c| c == b' ').count();
    n > 0 && b[0].is_ascii_alphabetic() && b.get(n + spaces) == Some(&b'=')
}

pub(super) fn parse_tcec<'a>(t: &'a str, c: &mut MoveComment<'a>, extra: &mut String) {
    c.dialect = Some(Dialect::Tcec);
    let mut ev = None;
    // The hottest text path of a TCEC ingest (about 16 fields a move): one
    // forward pass over the bytes, the key read up to its `=`, the value up
    // to the field's `,`, numbers read by hand (`num`). Every split is at an
    // ASCII `,` or `=`, so slicing `t` stays on char boundaries.
    let b = t.as_bytes();
    let mut start = 0;
    while start <= b.len() {
        if let Some(next) = common_field(t, start, c, &mut ev) {
            start = next;
            continue;
        }
        let i = find2(b, start, b'=', b',');
        if i == b.len() || b[i] == b',' {
            // A field without `=`.
            let part = t[start..i].trim_ascii();
            if part.eq_ignore_ascii_case("book") {
                c.book = true;
            } else if !part.is_empty() {
                push_extra(extra, part);
            }
            start = i + 1;
            continue;
        }
        let key = t[start..i].trim_ascii().as_bytes();
        // A PV runs for dozens of bytes: memchr finds its end faster.
        let end = if key == b"pv" {
            memchr::memchr(b',', &b[i + 1..]).map_or(b.len(), |n| i + 1 + n)
        } else {
            find2(b, i + 1, b',', b',')
        };
        let v = t[i + 1..end].trim_ascii();
        let n = v.as_bytes();
        let ok = match key {
            b"wv" => set_eval(c, v, Pov::White),
            // Arena's verbose keys (TCEC Match 4) are aliases of the short ones.
            b"ev" | b"Eval" => {
                ev.is_none() && {
                    ev = Some(v);
                    true
                }
            }
            b"d" | b"Depth" => set(&mut c.depth, parse_i16(n)),
            b"sd" => set(&mut c.seldepth, parse_i16(n)),
            b"n" => set(&mut c.nodes, parse_i64(n)),
            b"s" | b"Speed" => set(&mut c.nps, parse_nps(v)),
            b"mt" | b"MoveTime" => set(&mut c.time_ms, parse_duration_ms(v)),
            b"tl" | b"TimeLeft" => set(&mut c.time_left_ms, parse_duration_ms(v)),
            b"tb" => v == "null" || set(&mut c.tb_hits, parse_i64(n)),
            b"h" => set(&mut c.hash_full, percent(v)),
            b"ph" => set(&mut c.ponder_hit, percent(v)),
            b"R50" => set(&mut c.r50, parse_i16(n)),
            b"Rd" => set(&mut c.rd, parse_i16(n)),
            b"Rr" => set(&mut c.rr, parse_i16(n)),
            b"pd" => set(&mut c.expected_reply, Some(v)),
            b"pv" => set(&mut c.pv, Some(v)),
            b"mb" => set(&mut c.mb, Some(v)),
            b"wdl" => set(&mut c.wdl, Some(v)),
            _ => false,
        };
        if !ok {
            push_extra(extra, t[start..end].trim_ascii());
        }
        start = end + 1;
    }
    // Era C writes both: `wv` (White POV) wins; era B has only `ev`, White POV.
    if c.eval.is_none()
        && let Some(v) = ev
        && !set_eval(c, v, Pov::White)
    {
        push_extra(extra, v);
    }
}

/// A key of up to 7 bytes as one integer (little-endian), for [`common_field`].
const fn key(k: &[u8]) -> u64 {
    let mut n = 0u64;
    let mut i = k.len();
    while i > 0 {
        i -= 1;
        n = n << 8 | k[i] as u64;
    }
    n
}

const ONES: u64 = 0x0101_0101_0101_0101;
const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;

/// The high bit of each byte of `v` that is zero, and no other bit.
#[inline]
fn zero_bytes(v: u64) -> u64 {
    !(((v & LOW7) + LOW7) | v | LOW7)
}

/// Reads the field at `b[i..]` when it has the common shape: spaces, a known
/// key right before its `=`, and a value that needs no trimming and parses,
/// right up to the `,` (or the end). Returns where the next field starts, or
/// `None` for any other shape, which the general loop reads instead. On the
/// shapes taken here both read the same key, value and field end, so the
/// results are the same; this one only skips the trims and scans: the key is
/// matched as one integer from the next 8 bytes, numbers are read where they
/// stand.
#[inline]
fn common_field<'a>(
    t: &'a str,
    mut i: usize,
    c: &mut MoveComment<'a>,
    ev: &mut Option<&'a str>,
) -> Option<usize> {
    let b = t.as_bytes();
    while b.get(i) == Some(&b' ') {
        i += 1;
    }
    let word = u64::from_le_bytes(b.get(i..i + 8)?.try_into().ok()?);
    let eq = zero_bytes(word ^ (ONES * u64::from(b'=')));
    if eq == 0 {
        return None;
    }
    let len = eq.trailing_zeros() / 8;
    let k = word & ((1u64 << (8 * len)) - 1);
    let v0 = i + len as usize + 1;
    // An integer, `[+-]digits`, read as it is scanned, then the field must
    // end: what `number` then `parse_i64` read, in one pass (any other shape,
    // a fraction, a unit, a space, an overflow, is `None`, as there).
    let int = || -> Option<(i64, usize)> {
        let (neg, digits) = match b.get(v0) {
            Some(b'-') => (true, v0 + 1),
            Some(b'+') => (false, v0 + 1),
            _ => (false, v0),
        };
        let mut e = digits;
        let mut n = 0u64;
        while let Some(&ch) = b.get(e) {
            let d = ch.wrapping_sub(b'0');
            if d > 9 {
                break;
            }
            n = n.checked_mul(10)?.checked_add(u64::from(d))?;
            e += 1;
        }
        if e == digits || (e < b.len() && b[e] != b',') {
            return None;
        }
        let x = if neg {
            // 2^63 is i64::MIN, which wraps onto itself.
            (n <= 1 << 63).then(|| (n as i64).wrapping_neg())?
        } else {
            i64::try_from(n).ok()?
        };
        Some((x, e))
    };
    // A number: its characters, then the field must end.
    let number = || {
        let mut e = v0;
        while e < b.len() && matches!(b[e], b'0'..=b'9' | b'-' | b'+' | b'.') {
            e += 1;
        }
        (e == b.len() || b[e] == b',').then(|| (&t[v0..e], e))
    };
    // Text: up to the `,`, no space at either end.
    let text = |end: usize| {
        let v = &t[v0..end];
        let edge = |c: Option<&u8>| c.is_some_and(|&c| c > b' ');
        (edge(v.as_bytes().first()) && edge(v.as_bytes().last())).then_some((v, end))
    };
    const D: u64 = key(b"d");
    const SD: u64 = key(b"sd");
    const N: u64 = key(b"n");
    const S: u64 = key(b"s");
    const MT: u64 = key(b"mt");
    const TL: u64 = key(b"tl");
    const TB: u64 = key(b"tb");
    const H: u64 = key(b"h");
    const PH: u64 = key(b"ph");
    const R50: u64 = key(b"R50");
    const RD: u64 = key(b"Rd");
    const RR: u64 = key(b"Rr");
    const WV: u64 = key(b"wv");
    const EV: u64 = key(b"ev");
    const PD: u64 = key(b"pd");
    const PV: u64 = key(b"pv");
    const MB: u64 = key(b"mb");
    const WDL: u64 = key(b"wdl");
    let end = match k {
        D | SD | R50 | RD | RR => {
            let (x, e) = int()?;
            let x = i16::try_from(x).ok()?;
            fill(
                match k {
                    D => &mut c.depth,
                    SD => &mut c.seldepth,
                    R50 => &mut c.r50,
                    RD => &mut c.rd,
                    _ => &mut c.rr,
                },
                x,
            )?;
            e
        }
        N | TB => {
            let (x, e) = int()?;
            fill(if k == N { &mut c.nodes } else { &mut c.tb_hits }, x)?;
            e
        }
        // Plain nodes per second and clocks in milliseconds: integers, as
        // `parse_nps` and `parse_duration_ms` read them first.
        S => {
            let (x, e) = int()?;
            fill(&mut c.nps, x)?;
            e
        }
        MT | TL => {
            let (x, e) = int()?;
            fill(
                if k == MT {
                    &mut c.time_ms
                } else {
                    &mut c.time_left_ms
                },
                x,
            )?;
            e
        }
        H | PH => {
            let (v, e) = number()?;
            let x = percent(v)?;
            fill(
                if k == H {
                    &mut c.hash_full
                } else {
                    &mut c.ponder_hit
                },
                x,
            )?;
            e
        }
        WV | EV | PD | MB | WDL => {
            let (v, e) = text(find2(b, v0, b',', b','))?;
            match k {
                WV if !set_eval(c, v, Pov::White) => return None,
                WV => {}
                EV => fill(ev, v)?,
                PD => fill(&mut c.expected_reply, v)?,
                MB => fill(&mut c.mb, v)?,
                _ => fill(&mut c.wdl, v)?,
            }
            e
        }
        PV => {
            // A PV runs for dozens of bytes: memchr finds its end faster.
            let end = memchr::memchr(b',', &b[v0..]).map_or(b.len(), |n| v0 + n);
            fill(&mut c.pv, text(end)?.0)?;
            end
        }
        _ => return None,
    };
    Some(end + 1)
}

/// Fills an empty field (`None` for the general loop, which keeps a second
/// value's text, see [`super::set`]).
#[inline]
fn fill<T>(slot: &mut Option<T>, v: T) -> Option<()> {
    slot.is_none().then(|| *slot = Some(v))
}

/// The index of the first `x` or `y` in `b[i..]`, or `b.len()`. Eight bytes
/// at a time (SWAR): on fields this short, cheaper than a memchr call.
#[inline]
fn find2(b: &[u8], mut i: usize, x: u8, y: u8) -> usize {
    while let Some(word) = b.get(i..i + 8) {
        let w = u64::from_le_bytes(word.try_into().expect("8 bytes"));
        let hits = zero_bytes(w ^ (ONES * u64::from(x))) | zero_bytes(w ^ (ONES * u64::from(y)));
        if hits != 0 {
            return i + (hits.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    while i < b.len() && b[i] != x && b[i] != y {
        i += 1;
    }
    i
}

/// `13629 kN/s` (eras B–D) or plain nodes per second; `None` beyond i64
/// (a fuzzed `s=99…9 MN/s`), for the text to stay.
fn parse_nps(v: &str) -> Option<i64> {
    let (num, unit) = v.split_once(' ').unwrap_or((v, ""));
    let n = parse_i64(num.as_bytes())?;
    match unit.trim() {
        "" | "N/s" => Some(n),
        "kN/s" => n.checked_mul(1000),
        "MN/s" => n.checked_mul(1_000_000),
        _ => None,
    }
}

/// `h` and `ph`, percent; `None` beyond f32, which parsing makes infinite
/// (and for NaN), for the text to stay.
fn percent(v: &str) -> Option<f32> {
    exact_f32(v)
}

#[cfg(test)]
mod tests {
    use super::find2;
    use crate::comment::{Dialect, EvalKind, norm, p};

    /// Every key of the common shape, then variants of it that the general
    /// loop must read (spaces to trim, bad numbers, short tails): the same
    /// fields as if each had been read alone.
    #[test]
    fn common_fields_and_their_variants() {
        let (c, extra) = p(
            "d=45, sd=61, n=100, tb=5, R50=50, Rd=-9, Rr=-1000, h=42.0, ph=0.5, mt=1000, \
             tl=2000, s=300, pd=Nc6, wdl=1 2 3, mb=+0+0, wv=0.25, pv=e4 e5,",
        );
        assert_eq!(extra, "");
        assert_eq!(
            (c.depth, c.seldepth, c.nodes, c.tb_hits),
            (Some(45), Some(61), Some(100), Some(5))
        );
        assert_eq!((c.r50, c.rd, c.rr), (Some(50), Some(-9), Some(-1000)));
        assert_eq!((c.hash_full, c.ponder_hit), (Some(42.0), Some(0.5)));
        assert_eq!(
            (c.time_ms, c.time_left_ms, c.nps),
            (Some(1000), Some(2000), Some(300))
        );
        assert_eq!(
            (c.expected_reply, c.wdl, c.mb),
            (Some("Nc6"), Some("1 2 3"), Some("+0+0"))
        );
        assert_eq!((c.eval_raw, c.pv), (Some("0.25"), Some("e4 e5")));
        let (c, extra) = p("d= 45 , sd =61,\tn=7, R50=5x, Rd=99999, pd= , wv=1.0.0, mt=1, d=3");
        assert_eq!(
            (c.depth, c.seldepth, c.nodes),
            (Some(45), Some(61), Some(7))
        );
        assert_eq!((c.r50, c.rd, c.expected_reply), (None, None, Some("")));
        assert_eq!((c.eval, c.time_ms), (None, Some(1)));
        assert_eq!(extra, "R50=5x Rd=99999 wv=1.0.0 d=3");
        // A key written twice: the first value in the column, the second
        // (good or bad) kept as text.
        let (c, extra) = p("d=4, sd=2, d=x, sd=3, wv=0.5, wv=0.7, pv=e4, pv=d4, ev=0.1, ev=0.2");
        assert_eq!(
            (c.depth, c.seldepth, c.eval_raw, c.pv),
            (Some(4), Some(2), Some("0.5"), Some("e4"))
        );
        // (`ev` gives way to `wv`, era C, as before.)
        assert_eq!(extra, "d=x sd=3 wv=0.7 pv=d4 ev=0.2");
    }

    /// The integers read as they are scanned (`common_field`'s `int`): the
    /// values `str::parse` gives, and every other shape (a fraction, a unit,
    /// a clock, an overflow) left to the general loop, which reads it as before.
    #[test]
    fn integers_at_their_edges() {
        let (c, extra) = p(
            "d=+5, sd=-0, n=-9223372036854775808, tb=00000000000000000000001, \
             mt=00:01:02, tl=1.5, s=13629 kN/s, Rr=70000, R50=-32768,",
        );
        assert_eq!(
            (c.depth, c.seldepth, c.nodes),
            (Some(5), Some(0), Some(i64::MIN))
        );
        assert_eq!(
            (c.tb_hits, c.time_ms, c.time_left_ms),
            (Some(1), Some(62_000), None)
        );
        assert_eq!((c.nps, c.rr, c.r50), (Some(13_629_000), None, Some(-32768)));
        assert_eq!(extra, "tl=1.5 Rr=70000");
        let (c, extra) = p("n=9223372036854775808, d=12");
        assert_eq!((c.nodes, c.depth), (None, Some(12)));
        assert_eq!(extra, "n=9223372036854775808");
        let (c, extra) = p("d=4.5, sd=-, s=7,mt=8");
        assert_eq!(
            (c.depth, c.seldepth, c.nps, c.time_ms),
            (None, None, Some(7), Some(8))
        );
        assert_eq!(extra, "d=4.5 sd=-");
    }

    #[test]
    fn find2_finds_the_first_of_two_bytes() {
        let b = b"d=45, sd=61, pd=Nc6, mt=146610, tl=1656390,\xe9=,";
        for start in 0..=b.len() {
            let slow = (start..b.len())
                .find(|&i| b[i] == b'=' || b[i] == b',')
                .unwrap_or(b.len());
            assert_eq!(find2(b, start, b'=', b','), slow, "from {start}");
            let comma = (start..b.len()).find(|&i| b[i] == b',').unwrap_or(b.len());
            assert_eq!(find2(b, start, b',', b','), comma, "from {start}");
        }
        // High bytes (UTF-8) are not mistaken for either.
        assert_eq!(find2("é€ü=".as_bytes(), 0, b'=', b','), 7);
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

    /// Found by fuzzing: `n * 1000` overflowed (a panic in debug builds).
    /// A rate i64 cannot hold keeps its text, as a percentage beyond f32.
    #[test]
    fn huge_values_keep_their_text() {
        let (c, extra) = p(" ev=0.00, s=1559999999999999972 MN/s, s2=1, d=3");
        assert_eq!((c.nps, c.depth), (None, Some(3)));
        assert_eq!(extra, "s=1559999999999999972 MN/s s2=1");
        let (c, extra) = p("s=9223372036854775807 kN/s, s=9223372036854775 kN/s");
        assert_eq!(c.nps, Some(9_223_372_036_854_775_000));
        assert_eq!(extra, "s=9223372036854775807 kN/s");
        let (c, extra) = p("h=1e39, ph=NaN, h=1e38");
        assert_eq!((c.hash_full, c.ponder_hit), (Some(1e38), None));
        assert_eq!(extra, "h=1e39 ph=NaN");
        // More digits than an f32 keeps: the text, not a rounded value.
        let (c, extra) = p("h=99999999, ph=12.3456789, h=42.5");
        assert_eq!((c.hash_full, c.ponder_hit), (Some(42.5), None));
        assert_eq!(extra, "h=99999999 ph=12.3456789");
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
}
