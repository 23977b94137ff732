//! The columns of the commands' outputs as people read them: a label with
//! its unit, the decimals the quantity deserves, what it means and which way
//! is better. The HTML report's headers and their explanations come from
//! here, and so does the book's page (`evallab schema --outputs --format
//! markdown` is docs/reference/outputs.md, kept current by a test): one
//! source, so the two cannot drift.

mod quantity;

pub use quantity::{Better, Output, Quantity, matches};
use quantity::{GAMES, q};

pub const SUMMARY: Output = Output {
    name: "report: summary",
    title: "Summary",
    doc: "The report's summary of an event, first on the page and first in its section.",
    columns: &[
        q(
            "event",
            "Event",
            "",
            0,
            None,
            "The event (its section on this page).",
        ),
        GAMES,
        q("winner", "Winner", "", 0, None, "First in the standings."),
        q(
            "score",
            "Score",
            "points",
            1,
            None,
            "The points of the winner and of the runner-up.",
        ),
        q(
            "elo_difference",
            "Elo difference",
            "± 95 %",
            0,
            None,
            "The winner over the runner-up: from the colour-swapped pairs when every \
             game between them is in a pair and the pairs bound the error, else the \
             difference of their ratings with the errors added.",
        ),
        q(
            "draw_pct",
            "Drawn games",
            "%",
            0,
            None,
            "Drawn games of all games.",
        ),
        q(
            "balances",
            "Balances",
            "pawns",
            2,
            None,
            "Each engine's win-draw balance x05.",
        ),
        q(
            "eas_ranks",
            "EAS ranks",
            "",
            0,
            None,
            "The engines in EAS order, with their scores.",
        ),
    ],
};

mod dataset;
mod engines;
mod results;
mod statistics;

pub use dataset::*;
pub use engines::*;
pub use results::*;
pub use statistics::*;

/// Every output, in the order the book lists them: the report's summary,
/// then the commands in `evallab --help`'s order, each command's tables
/// together.
pub const OUTPUTS: &[&Output] = &[
    &SUMMARY,
    &INSPECT,
    &INSPECT_TABLES,
    &INSPECT_DIALECTS,
    &INSPECT_VARIANTS,
    &INSPECT_REJECTS,
    &INSPECT_REPEATED,
    &INSPECT_INPUTS,
    &INSPECT_ANALYSES,
    &INSPECT_VERIFY,
    &STANDINGS,
    &STANDINGS_TERMINATIONS,
    &CROSSTABLE_LONG,
    &CROSSTABLE,
    &RATINGS,
    &RATINGS_SUMMARY,
    &RATINGS_GROUPS,
    &RATINGS_LOS,
    &PAIRS,
    &PAIRS_OPENINGS,
    &PAIRS_UNPAIRED,
    &OPENINGS,
    &OPENINGS_PER_ENGINE,
    &BALANCE,
    &CALIBRATE,
    &X05,
    &WDL,
    &WDL_VALIDATION,
    &WDL_RELIABILITY,
    &RELEVANCE,
    &RELEVANCE_ANALYSIS,
    &EAS,
    &EAS_GAMES,
    &ADJUDICATION,
    &ADJUDICATION_GAMES,
    &ADJUDICATION_SWEEP,
    &ADJUDICATION_CLOCKS,
    &ADJUDICATION_CLOCKS_GAMES,
    &ADJUDICATION_CLOCKS_SWEEP,
    &ADJUDICATION_CLOCKS_ERAS,
    &ADJUDICATION_CLOCKS_CAUSES,
    &ADJUDICATION_CLOCKS_RULE_ENDS,
    &ADJUDICATION_CLOCKS_EXCEPTIONS,
    &ENGINE_STATS,
    &ENGINE_STATS_TIME_USAGE,
    &AGREEMENT,
    &AGREEMENT_MOVES,
    &MATCHING,
    &MATCH_TABLE,
    &EASE,
    &EASE_BANDS,
    &EASE_POSITIONS,
    &DIFFICULTY,
    &DIFFICULTY_PUZZLES,
    &DIFFICULTY_MODELS,
    &DIFFICULTY_PREDICTIONS,
    &DIFFICULTY_BREAKDOWN,
    &OPENING_CLASSIFICATION,
];

#[cfg(test)]
mod tests {
    use super::*;

    /// Names are unique per output, every label and explanation is there, and
    /// no header is a raw column name.
    #[test]
    fn every_column_has_a_label_and_a_meaning() {
        for o in OUTPUTS {
            let mut names: Vec<_> = o.columns.iter().map(|c| c.name).collect();
            names.sort_unstable();
            let n = names.len();
            names.dedup();
            assert_eq!(n, names.len(), "a column twice in {}", o.name);
            for c in o.columns {
                assert!(
                    !c.label.is_empty() && !c.doc.is_empty(),
                    "{}.{}",
                    o.name,
                    c.name
                );
                assert!(
                    !c.header().contains('_'),
                    "{}.{}: {}",
                    o.name,
                    c.name,
                    c.header()
                );
                assert!(c.doc.ends_with('.'), "{}.{}", o.name, c.name);
            }
        }
    }

    #[test]
    fn values_are_rounded_as_declared() {
        assert_eq!(BALANCE.get("balance").unwrap().format(0.6666), "0.67");
        assert_eq!(RATINGS.get("rating").unwrap().format(2350.4), "2350");
        assert_eq!(RATINGS.get("rating").unwrap().format(f64::NAN), "—");
        assert_eq!(RATINGS.get("error").unwrap().header(), "± Elo (95 %)");
    }
}
