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
    match std::str::from_utf8(bytes) {
        Ok(s) => Cow::Borrowed(s),
        Err(_) => Cow::Owned(bytes.iter().map(|&b| char::from(b)).collect()),
    }
}

/// Reads the tags of a tag section in order. Lines that are not tags are ignored.
///
/// ```
/// use evallab_pgn::tags::parse_tags;
/// let tags = parse_tags(b"[Event \"A \\\"B\\\"\"]\r\n[White \"x\"]\n");
/// assert_eq!(tags, vec![("Event".into(), "A \"B\"".into()), ("White".into(), "x".into())]);
/// ```
pub fn parse_tags(header: &[u8]) -> Vec<(String, String)> {
    let mut out = Vec::with_capacity(24);
    for line in header.split(|&b| b == b'\n') {
        let line = line.trim_ascii();
        let Some(body) = line.strip_prefix(b"[") else {
            continue;
        };
        let name_len = body
            .iter()
            .position(|&b| b.is_ascii_whitespace() || b == b'"' || b == b']')
            .unwrap_or(body.len());
        if name_len == 0 {
            continue;
        }
        let name = decode(&body[..name_len]).into_owned();
        let rest = &body[name_len..];
        let value = match rest.iter().position(|&b| b == b'"') {
            Some(q) => unescape(&rest[q + 1..]),
            None => String::new(),
        };
        out.push((name, value));
    }
    out
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
/// ```
pub fn parse_date(s: &str) -> Option<i32> {
    let mut it = s.trim().splitn(3, ['.', '-', '/']);
    let y: i64 = it.next()?.parse().ok()?;
    let m: i64 = it.next()?.parse().ok()?;
    let d: i64 = it.next()?.parse().ok()?;
    // Beyond ±5.8 million years the day count leaves i32 anyway; bounding the
    // year first keeps the arithmetic below from overflowing (found by fuzzing).
    if !(1..=12).contains(&m) || !(-5_000_000..=5_000_000).contains(&y) {
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
pub fn json_object(pairs: &[(&str, &str)]) -> String {
    let map: serde_json::Map<String, serde_json::Value> = pairs
        .iter()
        .map(|(k, v)| (k.to_string(), serde_json::Value::from(*v)))
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
