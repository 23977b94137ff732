//! What an output column is ([`Quantity`]) and an output ([`Output`]), and the
//! columns many outputs share (engine, event, games, …).

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

pub(super) const fn q(
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
pub(super) const fn built(q: Quantity) -> Quantity {
    Quantity {
        report_only: true,
        ..q
    }
}

pub(super) const HI: Option<Better> = Some(Better::Higher);
pub(super) const LO: Option<Better> = Some(Better::Lower);

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

pub(super) const ENGINE: Quantity = q("engine", "Engine", "", 0, None, "The engine (player name).");
/// The group keys and the game id, shared by every command's outputs.
pub(super) const EVENT: Quantity = q(
    "event",
    "Event",
    "",
    0,
    None,
    "The event (the games' Event tag; \"\" without one): a group key when `--by` groups by \
     event.",
);
/// A listed game's tags.
pub(super) const GAME_EVENT: Quantity = q("event", "Event", "", 0, None, "The game's Event tag.");
pub(super) const ROUND: Quantity = q("round", "Round", "", 0, None, "The game's Round tag.");
pub(super) const WHITE: Quantity = q("white", "White", "", 0, None, "The White player.");
pub(super) const BLACK: Quantity = q("black", "Black", "", 0, None, "The Black player.");
pub(super) const RESULT: Quantity = q(
    "result",
    "Result",
    "",
    0,
    None,
    "The recorded result: 1-0, 0-1, 1/2-1/2 or *.",
);
pub(super) const SEASON: Quantity = q(
    "season",
    "Season",
    "",
    0,
    None,
    "The TCEC season, a group key when `--by` groups by season: N of \"Season N\" in the \
     event's name, else the event's name itself.",
);
pub(super) const GAME_ID: Quantity = q(
    "game_id",
    "Game id",
    "",
    0,
    None,
    "The game's stable id in the dataset (`games.game_id`: a hash of its input file's sha256 \
     and its number there).",
);
pub(super) const GAMES: Quantity = q("games", "Games", "", 0, None, "Games played.");
pub(super) const DRAWS: Quantity = q("draws", "Draws", "", 0, None, "Games drawn.");
