//! The columns of the commands' outputs as people read them: a label with
//! its unit, the decimals the quantity deserves, what it means and which way
//! is better. The HTML report's headers and their explanations come from
//! here, and so does the book's page (`evallab schema --outputs --format
//! markdown` is docs/reference/outputs.md, kept current by a test): one
//! source, so the two cannot drift.

/// Which way of a quantity is better, when one is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Better {
    Higher,
    Lower,
}

/// One output column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Quantity {
    /// The column's name in the command's output. A `*` stands for a family
    /// of columns the data decide (`end_*`: one per termination class).
    pub name: &'static str,
    /// What a reader calls it.
    pub label: &'static str,
    /// Its unit (`""` for a count or a name).
    pub unit: &'static str,
    /// Decimals it is shown with: no more than its precision deserves.
    pub digits: u8,
    pub better: Option<Better>,
    /// What it means (one or two sentences).
    pub doc: &'static str,
    /// Built by the HTML report from other columns (no command writes it).
    pub report_only: bool,
}

const fn q(
    name: &'static str,
    label: &'static str,
    unit: &'static str,
    digits: u8,
    better: Option<Better>,
    doc: &'static str,
) -> Quantity {
    Quantity {
        name,
        label,
        unit,
        digits,
        better,
        doc,
        report_only: false,
    }
}

/// A column the HTML report builds from a command's columns (`endings` from
/// the standings' `end_*`): declared with the output it belongs to, and
/// exempt from the test that every declared column is written by the command.
const fn built(
    name: &'static str,
    label: &'static str,
    unit: &'static str,
    digits: u8,
    better: Option<Better>,
    doc: &'static str,
) -> Quantity {
    Quantity {
        report_only: true,
        ..q(name, label, unit, digits, better, doc)
    }
}

const HI: Option<Better> = Some(Better::Higher);
const LO: Option<Better> = Some(Better::Lower);

impl Quantity {
    /// The header: the label, and the unit in parentheses.
    pub fn header(&self) -> String {
        if self.unit.is_empty() {
            self.label.to_string()
        } else {
            format!("{} ({})", self.label, self.unit)
        }
    }

    /// What the header explains on hover: the meaning, which way is better,
    /// and the column it shows.
    pub fn explanation(&self) -> String {
        let better = match self.better {
            Some(Better::Higher) => " Higher is better.",
            Some(Better::Lower) => " Lower is better.",
            None => "",
        };
        format!("{}{better} Column `{}`.", self.doc, self.name)
    }

    /// A value as shown: `digits` decimals (trailing zeros kept, so that a
    /// column's points line up; `0.0`, not `-0.0`, for a small negative);
    /// not a number shows as a dash.
    pub fn format(&self, v: f64) -> String {
        if !v.is_finite() {
            return "—".into();
        }
        let s = format!("{v:.prec$}", prec = usize::from(self.digits));
        match s.strip_prefix('-') {
            Some(rest) if rest.bytes().all(|b| b == b'0' || b == b'.') => rest.to_string(),
            _ => s,
        }
    }
}

/// The columns of one output (a command's table, or one the report builds).
#[derive(Debug, Clone, Copy)]
pub struct Output {
    pub name: &'static str,
    /// What a reader calls the table.
    pub title: &'static str,
    pub doc: &'static str,
    pub columns: &'static [Quantity],
}

impl Output {
    /// The declared column that `name` is: by its name, or by a family's
    /// (`end_*` for `end_mate`).
    pub fn get(&self, name: &str) -> Option<&'static Quantity> {
        self.columns.iter().find(|c| matches(c.name, name))
    }
}

/// `pattern` matches `column`: exactly, or with its one `*` standing for one
/// or more characters (`end_*` for `end_mate`).
pub fn matches(pattern: &str, column: &str) -> bool {
    match pattern.split_once('*') {
        None => pattern == column,
        Some((pre, post)) => {
            column.len() > pre.len() + post.len()
                && column.starts_with(pre)
                && column.ends_with(post)
        }
    }
}

const ENGINE: Quantity = q("engine", "Engine", "", 0, None, "The engine (player name).");
/// The group keys and the game id, shared by every command's outputs.
const EVENT: Quantity = q(
    "event",
    "Event",
    "",
    0,
    None,
    "The event (the games' Event tag; \"\" without one): a group key when `--by` groups by \
     event.",
);
/// A listed game's tags.
const GAME_EVENT: Quantity = q("event", "Event", "", 0, None, "The game's Event tag.");
const ROUND: Quantity = q("round", "Round", "", 0, None, "The game's Round tag.");
const WHITE: Quantity = q("white", "White", "", 0, None, "The White player.");
const BLACK: Quantity = q("black", "Black", "", 0, None, "The Black player.");
const RESULT: Quantity = q(
    "result",
    "Result",
    "",
    0,
    None,
    "The recorded result: 1-0, 0-1, 1/2-1/2 or *.",
);
const SEASON: Quantity = q(
    "season",
    "Season",
    "",
    0,
    None,
    "The TCEC season, a group key when `--by` groups by season: N of \"Season N\" in the \
     event's name, else the event's name itself.",
);
const GAME_ID: Quantity = q(
    "game_id",
    "Game id",
    "",
    0,
    None,
    "The game's stable id in the dataset (`games.game_id`: a hash of its input file's sha256 \
     and its number there).",
);
const GAMES: Quantity = q("games", "Games", "", 0, None, "Games played.");
const DRAWS: Quantity = q("draws", "Draws", "", 0, None, "Games drawn.");

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
