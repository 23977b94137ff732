//! PGN tag sections: reading `[Name "value"]` lines and typing the standard tags.
//!
//! The splitter already knows where the tag section ends: it is read here on
//! its own, and the movetext by [`crate::movetext`].

use std::borrow::Cow;

/// Decodes PGN text: UTF-8 when valid, else Latin-1 (every byte one char).
///
/// ```
/// use evallab_pgn::tags::decode;
/// assert_eq!(decode(b"R\xe9ti"), "Réti");
/// assert_eq!(decode("Réti".as_bytes()), "Réti");
/// ```
pub fn decode(bytes: &[u8]) -> Cow<'_, str> {
    // simdutf8's check (already built for polars) is several times faster
    // than std's on the comments' hundreds of MB.
    match simdutf8::basic::from_utf8(bytes) {
        Ok(s) => Cow::Borrowed(s),
        Err(_) => Cow::Owned(bytes.iter().map(|&b| char::from(b)).collect()),
    }
}

/// Reads the tags of a tag section in order: every `[Name "value"]`, also
/// several on one line. Lines that are not tags are ignored.
///
/// ```
/// use evallab_pgn::tags::parse_tags;
/// let tags = parse_tags(b"[Event \"A \\\"B\\\"\"]\r\n[White \"x\"] [Black \"y\"]\n");
/// assert_eq!(tags[0], ("Event".into(), "A \"B\"".into()));
/// assert_eq!(tags[1..], [("White".into(), "x".into()), ("Black".into(), "y".into())]);
/// ```
pub fn parse_tags(header: &[u8]) -> Vec<(String, String)> {
    let mut out = Vec::with_capacity(24);
    for line in header.split(|&b| b == b'\n') {
        out.extend(LineTags::new(line).map(|(name, value)| {
            (
                decode(name).into_owned(),
                value.map(unescape).unwrap_or_default(),
            )
        }));
    }
    out
}

/// Where the tags that open `line` stop, when movetext follows them on the
/// same line (`[Result "0-1"] 1. f3 e5 …`): the offset of that movetext.
/// `None` when the rest of the line is blank, or not movetext (an unreadable
/// tag, which stays in the tag section).
pub fn movetext_after_tags(line: &[u8]) -> Option<usize> {
    let mut tags = LineTags::new(line);
    tags.by_ref().count();
    let rest = tags.i
        + line[tags.i..]
            .iter()
            .take_while(|b| b.is_ascii_whitespace())
            .count();
    (tags.complete && rest < line.len() && line[rest] != b'[').then_some(rest)
}

/// The tags at the start of a line, one after another: each one's name and
/// its value as written between its quotes (escapes kept; without a closing
/// quote, the rest of the line; `None` without a value). Stops at anything
/// that is not a tag; `i` is then where the tags end.
struct LineTags<'a> {
    b: &'a [u8],
    i: usize,
    /// The last tag read ended with its `]` (false before the first).
    complete: bool,
}

impl<'a> LineTags<'a> {
    fn new(b: &'a [u8]) -> Self {
        LineTags {
            b,
            i: 0,
            complete: false,
        }
    }
}

impl<'a> Iterator for LineTags<'a> {
    type Item = (&'a [u8], Option<&'a [u8]>);

    fn next(&mut self) -> Option<Self::Item> {
        let b = self.b;
        let mut i = self.i
            + b[self.i..]
                .iter()
                .take_while(|c| c.is_ascii_whitespace())
                .count();
        if b.get(i) != Some(&b'[') {
            return None;
        }
        i += 1;
        let name_len = b[i..]
            .iter()
            .position(|&c| c.is_ascii_whitespace() || c == b'"' || c == b']')
            .unwrap_or(b.len() - i);
        if name_len == 0 {
            self.complete = false;
            return None;
        }
        let name = &b[i..i + name_len];
        i += name_len;
        i += b[i..]
            .iter()
            .take_while(|c| c.is_ascii_whitespace())
            .count();
        let mut value = None;
        if b.get(i) == Some(&b'"') {
            let start = i + 1;
            let mut j = start;
            while j < b.len() && b[j] != b'"' {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            let end = j.min(b.len());
            value = Some(&b[start..end]);
            i = (end + 1).min(b.len());
            i += b[i..]
                .iter()
                .take_while(|c| c.is_ascii_whitespace())
                .count();
        }
        if b.get(i) == Some(&b']') {
            self.i = i + 1;
            self.complete = true;
        } else {
            // No `]` where the tag should end: the line is this tag's.
            self.i = b.len();
            self.complete = false;
            if value.is_none() {
                // `[Name junk`: the value is unknown, as before.
                value = b[i..]
                    .iter()
                    .position(|&c| c == b'"')
                    .map(|q| &b[i + q + 1..]);
            }
        }
        Some((name, value))
    }
}

/// The value after the opening quote, up to the closing quote, with `\"` and
/// `\\` unescaped. A missing closing quote takes the rest of the line.
fn unescape(s: &[u8]) -> String {
    let mut bytes = Vec::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        match s[i] {
            b'\\' if i + 1 < s.len() => {
                bytes.push(s[i + 1]);
                i += 2;
            }
            b'"' => break,
            b => {
                bytes.push(b);
                i += 1;
            }
        }
    }
    decode(&bytes).into_owned()
}

/// `YYYY.MM.DD` as days since 1970-01-01; `None` when any part is unknown
/// or the day does not exist (not rolled over into the next month).
///
/// ```
/// use evallab_pgn::tags::parse_date;
/// assert_eq!(parse_date("1970.01.02"), Some(1));
/// assert_eq!(parse_date("2016.11.11"), Some(17116));
/// assert_eq!(parse_date("2016.??.??"), None);
/// assert_eq!(parse_date("9223372036854775807.01.01"), None);
/// assert_eq!(parse_date("2024.02.29"), Some(19782));
/// assert_eq!(parse_date("2023.02.29"), None);
/// assert_eq!(parse_date("1900.02.29"), None);
/// assert_eq!(parse_date("2000.02.29"), Some(11016));
/// assert_eq!(parse_date("2024.04.31"), None);
/// assert_eq!(parse_date("0000.01.01"), None);
/// assert_eq!(parse_date("0001.01.01"), Some(-719162));
/// ```
pub fn parse_date(s: &str) -> Option<i32> {
    let mut it = s.trim().splitn(3, ['.', '-', '/']);
    let y: i64 = it.next()?.parse().ok()?;
    let m: i64 = it.next()?.parse().ok()?;
    let d: i64 = it.next()?.parse().ok()?;
    // A PGN date's year has four digits: year 0 and below, which Python's
    // datetime cannot hold, keep their text (`other_tags`). The bound also
    // keeps the arithmetic below from overflowing (found by fuzzing).
    if !(1..=12).contains(&m) || !(1..=9999).contains(&y) {
        return None;
    }
    let leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
    let days_in_month = match m {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    };
    if !(1..=days_in_month).contains(&d) {
        return None;
    }
    // Days from civil (H. Hinnant's algorithm).
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    i32::try_from(era * 146_097 + doe - 719_468).ok()
}

/// An integer tag (WhiteElo, BlackElo, PlyCount) as its i32 column holds it.
///
/// ```
/// use evallab_pgn::tags::parse_int;
/// assert_eq!(parse_int(" 2850 "), Some(2850));
/// assert_eq!(parse_int("99999999999"), None);
/// ```
pub fn parse_int(s: &str) -> Option<i32> {
    s.trim().parse().ok()
}

/// A value that says "unknown" (`?`, `-`, `????.??.??`, empty): nothing to
/// keep when its typed column stays null.
///
/// ```
/// use evallab_pgn::tags::is_unknown;
/// assert!(is_unknown("????.??.??") && is_unknown("-") && is_unknown(""));
/// assert!(!is_unknown("2013.??.??"));
/// ```
pub fn is_unknown(s: &str) -> bool {
    s.bytes()
        .all(|b| matches!(b, b'?' | b'-' | b'.') || b.is_ascii_whitespace())
}

/// Base and increment (seconds) of the first period of a TimeControl tag.
///
/// ```
/// use evallab_pgn::tags::parse_time_control;
/// assert_eq!(parse_time_control("10800+15"), Some((10800.0, 15.0)));
/// assert_eq!(parse_time_control("40/7200:20/3600:900+30"), Some((7200.0, 0.0)));
/// assert_eq!(parse_time_control("1800+5.232"), Some((1800.0, 5.232)));
/// assert_eq!(parse_time_control("?"), None);
/// ```
pub fn parse_time_control(s: &str) -> Option<(f64, f64)> {
    let first = s.trim().split(':').next()?;
    let first = first.rsplit_once('/').map_or(first, |(_, t)| t);
    let (base, inc) = first.split_once('+').unwrap_or((first, "0"));
    Some((base.parse().ok()?, inc.parse().ok()?))
}

/// Tags as a JSON object (keys sorted), for the `other_tags` column.
pub fn json_object<K: AsRef<str>>(pairs: &[(K, &str)]) -> String {
    let map: serde_json::Map<String, serde_json::Value> = pairs
        .iter()
        .map(|(k, v)| (k.as_ref().to_string(), serde_json::Value::from(*v)))
        .collect();
    serde_json::Value::Object(map).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_edge_cases() {
        let t = parse_tags(b"[Event \"Caf\xe9\"]\n[Empty \"\"]\n[NoQuote]\n[Open \"abc\n junk\n");
        assert_eq!(t[0].1, "Café");
        assert_eq!(t[1], ("Empty".into(), String::new()));
        assert_eq!(t[2], ("NoQuote".into(), String::new()));
        assert_eq!(t[3], ("Open".into(), "abc".into()));
        assert_eq!(t.len(), 4);
    }

    #[test]
    fn json_is_valid() {
        let j = json_object(&[("A", "x\"y\\z\n"), ("B", "\u{1}")]);
        let v: serde_json::Value = serde_json::from_str(&j).unwrap();
        assert_eq!(v["A"], "x\"y\\z\n");
        assert_eq!(v["B"], "\u{1}");
    }
}
