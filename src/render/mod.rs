//! Everything evallab shows people: result frames in a format ([`mod@format`]),
//! events in the order people number them ([`order`]),
//! SVG/PNG plots ([`plot`]), annotated PGN ([`annotate`]) and the HTML report
//! ([`report`]). Files are written through [`crate::dataset::commit`].

pub mod annotate;
pub mod format;
pub mod order;
pub mod plot;
pub mod report;

/// Text for HTML and SVG, in element content or in a quoted attribute.
pub(crate) fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// An integer with thousands separators (a thin space: 1 234 567), as
/// the page's EAS scores of six and seven digits read.
pub(crate) fn thousands(v: i64) -> String {
    let digits = v.unsigned_abs().to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push('\u{202f}');
        }
        out.push(c);
    }
    if v < 0 { format!("-{out}") } else { out }
}
