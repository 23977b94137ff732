//! `evallab report`: one self-contained HTML page (inline CSS and SVG, no
//! scripts, no network) for people: it opens with each event's answer
//! ([`summary`]: winner, score, Elo difference, draws, balances, EAS order),
//! every header a label with its unit explained on hover (the catalogue of
//! [`crate::schema::outputs`]), long tables folded; then, per event, its
//! summary, the win-draw balance, the calibration curves, the results per
//! opening (per start position in Chess960 events), the EAS components, the
//! relevance summary, the agreement with each
//! engine analysis (`evallab analyze`), the adjudication rules replayed
//! (`evallab adjudicate`) and the eval trajectories
//! of selected games with their probabilistic result and NAGs.
//!
//! The data is collected once ([`data::collect`]), then one writer per
//! section ([`sections`]) turns each event's part into HTML: the page is a
//! pure function of the data, and the renderer never writes the dataset.

pub mod data;
pub mod sections;
pub mod summary;

use std::fmt::Write as _;

use polars::prelude::DataFrame;

use super::escape;
use crate::Error;
use crate::dataset::Dataset;
pub use data::{EventData, Progress, ReportData, ReportOptions, SelectedGame, collect};

const CSS: &str = "body{font-family:DejaVu Sans,Arial,sans-serif;margin:1.5em auto;max-width:1180px;color:#222;padding:0 1em}\
h1{font-size:1.6em}h2{border-bottom:2px solid #0072B2;padding-bottom:.2em;margin-top:2em}h3{margin-bottom:.3em}\
table{border-collapse:collapse;font-size:.82em;margin:.4em 0 1em;display:block;overflow-x:auto;max-width:100%}th,td{border:1px solid #ccc;padding:2px 6px;text-align:right}\
th{background:#f2f2f2}td:first-child,th:first-child{text-align:left}.bar{display:flex;width:420px;height:12px;background:#f6f6f6}\
.bar span{display:block;height:12px}.bars th:first-child{min-width:16em}.bars th:nth-child(2){min-width:5em}.note{color:#555;font-size:.85em}nav a{margin-right:.8em}svg{max-width:100%;height:auto}\
th[title]{cursor:help;text-decoration:underline dotted #999}.answer{font-size:1.1em}table.summary td{text-align:left}\
details.fold>summary{cursor:pointer;color:#0072B2;margin:.4em 0}\
section.event{content-visibility:auto;contain-intrinsic-size:auto 3000px}";

/// Builds the report page of `ds`, given its EAS labels
/// ([`crate::metrics::eas::stored_labels`]).
pub fn report(
    ds: &Dataset,
    labels: &DataFrame,
    opts: &ReportOptions,
    progress: Progress,
) -> Result<String, Error> {
    page(&collect(ds, labels, opts, progress)?)
}

/// The page: a header, the events' summaries (each linking to its section),
/// the ratings and WDL model of all events, the data they leave out or count
/// twice (rejected and repeated games), then each event's summary and
/// sections. A browser lays out an event's section only when it comes into
/// view (`content-visibility:auto`): the whole TCEC archive's 674 events,
/// 55 MB, took Chromium 34 s to show, 3.6 s so.
pub fn page(data: &ReportData) -> Result<String, Error> {
    let mut html = format!(
        "<!doctype html><html lang=en><head><meta charset=utf-8><title>evallab report</title><style>{CSS}</style></head><body>\
<h1>evallab report</h1><p class=note>Dataset <code>{}</code>: {} games in {} events. Evals are the engines' own; \
x05 {} for relevance (per engine where given) and {} for the move and position symbols. Every column header \
explains itself on hover; definitions in the book: docs/reference/outputs.md, docs/definitions/, docs/spec/metrics.md, docs/spec/eas.md.</p>\
<nav><a href=\"#events\">Events</a><a href=\"#ratings\">Ratings</a><a href=\"#wdl\">WDL model</a><a href=\"#data\">Data</a></nav>",
        escape(&data.dataset),
        data.games,
        data.events.len(),
        data.x05_default,
        crate::metrics::x05::DEFAULT,
    );
    let summaries: Vec<(&str, summary::Summary)> = data
        .events
        .iter()
        .map(|e| (e.name.as_str(), summary::Summary::of(e)))
        .collect();
    html.push_str("<section id=events><h2>Events</h2>");
    html.push_str(&summary::toc(&summaries)?);
    html.push_str("</section>");
    html.push_str(&sections::overall_ratings(data)?);
    html.push_str(&sections::wdl_overall(data)?);
    html.push_str(&sections::data(data)?);
    for (i, (event, (_, s))) in data.events.iter().zip(&summaries).enumerate() {
        let _ = write!(
            html,
            "<section id=\"e{i}\" class=event><h2>{}</h2>",
            escape(&event.name)
        );
        html.push_str(&s.sentence());
        html.push_str(&summary::table(&[(event.name.as_str(), s.clone())], false)?);
        // A test or bonus event's sections are there on a click.
        let test = summary::is_test(&event.name);
        if test {
            html.push_str(
                "<details class=fold><summary>Test or bonus event: its sections</summary>",
            );
        }
        for section in sections::SECTIONS {
            html.push_str(&section(event)?);
        }
        if test {
            html.push_str("</details>");
        }
        html.push_str("<p class=note><a href=\"#events\">↑ Events</a></p></section>");
    }
    html.push_str("</body></html>\n");
    Ok(html)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A page's data: these events, no ratings, no WDL model.
    fn page_data(events: &[&str]) -> ReportData {
        ReportData {
            dataset: "ds".into(),
            games: 3,
            x05_default: crate::metrics::x05::DEFAULT,
            ratings: Err("no <games>".into()),
            events: events
                .iter()
                .map(|e| EventData {
                    name: e.to_string(),
                    ..EventData::default()
                })
                .collect(),
            wdl: None,
            wdl_validation: None,
            ..ReportData::default()
        }
    }

    /// The page: a link and a section per event, each with every section.
    #[test]
    fn page_links_every_event_in_order() {
        let html = page(&page_data(&["S<1>", "S2"])).unwrap();
        assert!(html.contains("Dataset <code>ds</code>: 3 games in 2 events."));
        assert!(html.contains(
            "<h2>Data</h2><p>3 games are in the statistics. No game was rejected at ingest. \
             No game is held more than once ("
        ));
        assert!(html.contains(
            "<nav><a href=\"#events\">Events</a><a href=\"#ratings\">Ratings</a>\
             <a href=\"#wdl\">WDL model</a><a href=\"#data\">Data</a></nav><section id=events><h2>Events</h2>"
        ));
        assert!(html.contains("<td><a href=\"#e0\">S&lt;1&gt;</a></td>"));
        assert!(html.contains("<td><a href=\"#e1\">S2</a></td>"));
        // Every header explains itself.
        assert_eq!(html.matches("<th>").count(), 0);
        assert_eq!(
            html.matches("<th ").count(),
            html.matches("<th title=\"").count()
        );
        assert!(
            html.contains(
                "<p class=note>No ratings: no &lt;games&gt;</p></section><section id=wdl>"
            )
        );
        assert!(html.contains(
            "<section id=\"e1\" class=event><h2>S2</h2><p class=answer>No games with a result.</p>"
        ));
        assert_eq!(
            html.matches("<h3>Adjudication rules replayed</h3>").count(),
            2
        );
        assert!(html.ends_with("</section></body></html>\n"));
        assert!(!html.contains("Test or bonus event"));
    }

    /// A test or bonus event's sections are folded under its summary, the
    /// other events' open.
    #[test]
    fn test_events_are_folded_in_the_page() {
        let html = page(&page_data(&[
            "TCEC Season 20 Testing",
            "TCEC Season 20 Sufi",
        ]))
        .unwrap();
        let fold = "<details class=fold><summary>Test or bonus event: its sections</summary>";
        assert_eq!(html.matches(fold).count(), 1);
        let (test, sufi) = (
            html.find("<section id=\"e0\"").unwrap(),
            html.find("<section id=\"e1\"").unwrap(),
        );
        let folded = html.find(fold).unwrap();
        assert!(test < folded && folded < sufi);
        let rules = html.find("<h3>Adjudication rules replayed</h3>").unwrap();
        assert!(folded < rules && rules < html[folded..].find("</details>").unwrap() + folded);
    }
}
