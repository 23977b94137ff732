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
