//! How a game ended, from its `Result`, `Termination` and
//! `TerminationDetails` tags, in a few classes (docs/definitions/standings.md
//! lists the strings each class covers).
//!
//! TCEC writes the reason in `TerminationDetails` ("White mates", "TCEC win
//! rule", "SyzygyTB", "3-Fold repetition", …) and a coarse `Termination`
//! ("adjudication", "abandoned", "time forfeit"); cutechess and fastchess
//! write only `Termination`; old TCEC seasons wrote free text there ("GUI TB
//! Mate in 30", "3-fold rep"). The details are the more specific, so they are
//! read first and `Termination` only when the details say nothing known.

use polars::prelude::*;

use crate::schema::col;

/// The termination classes, in the order of the standings' columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    /// Checkmate on the board.
    Mate,
    /// TCEC's win adjudication rule (evals beyond a bound for some moves).
    WinRule,
    /// TCEC's draw adjudication rule (evals near 0 for some moves), or a
    /// draw at a move limit ("Max moves rule").
    DrawRule,
    /// Adjudicated by a tablebase (Syzygy, "TB position", the GUI's TB mate).
    Tablebase,
    /// Fifty-move rule.
    FiftyMoves,
    /// Threefold (or n-fold) repetition.
    Repetition,
    Stalemate,
    InsufficientMaterial,
    /// Lost on time.
    Time,
    /// An engine crashed, disconnected, stalled, hung, withdrew or played an
    /// illegal move.
    Crash,
    /// An engine resigned.
    Resignation,
    /// A person adjudicated the game.
    Manual,
    /// An adjudication whose rule the tags do not name ("GUI adjudication").
    Adjudication,
    /// No result (`*`).
    Unfinished,
    /// Nothing known in the tags (none, empty, or a text not listed).
    Unknown,
}

impl Class {
    pub const ALL: [Class; 15] = [
        Class::Mate,
        Class::WinRule,
        Class::DrawRule,
        Class::Tablebase,
        Class::FiftyMoves,
        Class::Repetition,
        Class::Stalemate,
        Class::InsufficientMaterial,
        Class::Time,
        Class::Crash,
        Class::Resignation,
        Class::Manual,
        Class::Adjudication,
        Class::Unfinished,
        Class::Unknown,
    ];

    /// The class's name in tables.
    pub fn name(self) -> &'static str {
        match self {
            Class::Mate => "mate",
            Class::WinRule => "win_rule",
            Class::DrawRule => "draw_rule",
            Class::Tablebase => "tablebase",
            Class::FiftyMoves => "fifty_moves",
            Class::Repetition => "repetition",
            Class::Stalemate => "stalemate",
            Class::InsufficientMaterial => "insufficient_material",
            Class::Time => "time",
            Class::Crash => "crash",
            Class::Resignation => "resignation",
            Class::Manual => "manual",
            Class::Adjudication => "adjudication",
            Class::Unfinished => "unfinished",
            Class::Unknown => "unknown",
        }
    }
}

/// The class of a game from its result and termination tags.
pub fn classify(result: Option<&str>, termination: Option<&str>, details: Option<&str>) -> Class {
    if result == Some("*") {
        return Class::Unfinished;
    }
    [details, termination]
        .into_iter()
        .flatten()
        .find_map(|text| from_text(&text.trim().to_lowercase()))
        .unwrap_or(Class::Unknown)
}

/// The class a (lower-case) tag text names, if any. The order matters:
/// "user adjudication - gui crash" is a crash, "gui tb mate in 30" a
/// tablebase adjudication, not a mate on the board.
fn from_text(t: &str) -> Option<Class> {
    let has = |words: &[&str]| words.iter().any(|w| t.contains(w));
    Some(
        if has(&["disconnect", "connection stall", "stalled connection"])
            || has(&["infinite loop", "illegal move", "crash", "withdrawal"])
            || t == "abandoned"
        {
            Class::Crash
        } else if has(&["syzygy", "tb position", "gui tb", "tablebase"]) {
            Class::Tablebase
        } else if has(&["mates", "checkmate"]) {
            Class::Mate
        } else if has(&["win rule"]) {
            Class::WinRule
        } else if has(&["draw rule", "tcec draw", "max moves"]) {
            Class::DrawRule
        } else if has(&["fifty move", "50 move", "50-move"]) {
            Class::FiftyMoves
        } else if has(&["repetition", "fold rep"]) {
            Class::Repetition
        } else if has(&["stalemate"]) {
            Class::Stalemate
        } else if has(&["insufficient material"]) {
            Class::InsufficientMaterial
        } else if has(&["on time", "time forfeit"]) || t == "time" {
            Class::Time
        } else if has(&["resign"]) {
            Class::Resignation
        } else if has(&["manual", "user adjudication"]) {
            Class::Manual
        } else if has(&["adjudication"]) {
            Class::Adjudication
        } else {
            return None;
        },
    )
}

/// The column [`with_class`] adds.
pub use crate::schema::metric::standings::TERMINATION_CLASS as CLASS;

/// `games` with the [`CLASS`] of each game. The distinct (result,
/// termination, details) triples are few (86 on the whole TCEC archive), so
/// they are classified here, in Rust, and joined back.
pub fn with_class(games: LazyFrame) -> PolarsResult<LazyFrame> {
    let tags = [col::RESULT, col::TERMINATION, col::TERMINATION_DETAILS];
    // Null tags join as "" (a join never matches nulls); "" is read as "no tag".
    let keyed = games.with_columns(tags.map(|c| col(c).fill_null(lit("")).alias(key(c))));
    let distinct = keyed
        .clone()
        .select(tags.map(|c| col(key(c))))
        .unique(None, UniqueKeepStrategy::Any)
        .collect()?;
    let text = |c: &str| -> PolarsResult<Vec<Option<String>>> {
        Ok(distinct
            .column(&key(c))?
            .str()?
            .iter()
            .map(|s| s.filter(|s| !s.is_empty()).map(str::to_string))
            .collect())
    };
    let (r, t, d) = (
        text(col::RESULT)?,
        text(col::TERMINATION)?,
        text(col::TERMINATION_DETAILS)?,
    );
    let classes: Vec<&str> = (0..distinct.height())
        .map(|i| classify(r[i].as_deref(), t[i].as_deref(), d[i].as_deref()).name())
        .collect();
    let lookup = distinct.hstack(&[Column::new(CLASS.into(), classes)])?;
    let keys: Vec<Expr> = tags.iter().map(|c| col(key(c))).collect();
    Ok(keyed
        .join(
            lookup.lazy(),
            keys.clone(),
            keys,
            JoinArgs::new(JoinType::Left),
        )
        .drop(by_name(tags.map(key), true, false)))
}

fn key(c: &str) -> String {
    format!("__{c}")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every distinct (termination, details) shape of the whole TCEC archive
    /// (`/work/final-archive-ds`, digits aside) and cutechess/fastchess tags.
    #[test]
    fn every_archive_string_has_its_class() {
        use Class::*;
        let cases: &[(&str, Option<&str>, Option<&str>, Class)] = &[
            ("1-0", None, Some("White mates"), Mate),
            ("0-1", None, Some("Black mates"), Mate),
            ("0-1", Some("checkmate"), None, Mate),
            ("1-0", Some("adjudication"), Some("TCEC win rule"), WinRule),
            (
                "1/2-1/2",
                Some("adjudication"),
                Some("TCEC draw rule"),
                DrawRule,
            ),
            ("1/2-1/2", Some("TCEC Draw Rule"), None, DrawRule),
            ("1/2-1/2", Some("abandoned"), Some("TCEC draw"), DrawRule),
            // The demo's cutechess-style TCEC games (a draw at a move limit).
            (
                "1/2-1/2",
                Some("adjudication"),
                Some("Max moves rule"),
                DrawRule,
            ),
            ("0-1", Some("adjudication"), Some("SyzygyTB"), Tablebase),
            (
                "1/2-1/2",
                Some("adjudication"),
                Some("TB position"),
                Tablebase,
            ),
            ("1/2-1/2", Some("GUI TB adjudication"), None, Tablebase),
            ("1-0", Some("GUI TB Mate in 30"), None, Tablebase),
            ("1/2-1/2", None, Some("Fifty moves rule"), FiftyMoves),
            ("1/2-1/2", Some("50-move rule"), None, FiftyMoves),
            ("1/2-1/2", None, Some("50 moves rule"), FiftyMoves),
            ("1/2-1/2", None, Some("3-Fold repetition"), Repetition),
            ("1/2-1/2", None, Some("5-fold repetition"), Repetition),
            ("1/2-1/2", Some("3-fold rep"), None, Repetition),
            ("1/2-1/2", None, Some("Stalemate"), Stalemate),
            (
                "1/2-1/2",
                None,
                Some("Insufficient material"),
                InsufficientMaterial,
            ),
            (
                "1/2-1/2",
                Some("insufficient material"),
                None,
                InsufficientMaterial,
            ),
            (
                "0-1",
                Some("time forfeit"),
                Some("White loses on time"),
                Time,
            ),
            ("1-0", Some("Black loses on time"), None, Time),
            ("1-0", Some("time"), None, Time),
            ("0-1", Some("abandoned"), Some("White disconnects"), Crash),
            (
                "0-1",
                Some("abandoned"),
                Some("White in infinite loop"),
                Crash,
            ),
            ("0-1", None, Some("White's connection stalls"), Crash),
            (
                "1-0",
                Some("stalled connection"),
                Some("Black's connection stalls"),
                Crash,
            ),
            ("0-1", Some("illegal move"), Some("F3f4"), Crash),
            ("0-1", None, Some("illegal move: c7f4"), Crash),
            ("1-0", Some("Chiron Stage 3 withdrawal"), None, Crash),
            (
                "1/2-1/2",
                Some("User adjudication - GUI crash"),
                None,
                Crash,
            ),
            ("1-0", Some("abandoned"), None, Crash),
            ("1-0", None, Some("Black resigns"), Resignation),
            ("0-1", Some("resign"), None, Resignation),
            (
                "1-0",
                Some("adjudication"),
                Some("Manual adjudication"),
                Manual,
            ),
            (
                "1/2-1/2",
                Some("adjudication"),
                Some("Manual draw adjudication"),
                Manual,
            ),
            (
                "1-0",
                Some("manual adjudication"),
                Some("manual adjudication"),
                Manual,
            ),
            ("1/2-1/2", Some("Draw by manual adjudication"), None, Manual),
            ("0-1", Some("User adjudication"), None, Manual),
            ("1-0", Some("GUI adjudication"), None, Adjudication),
            (
                "1-0",
                Some("adjudication"),
                Some("TCEC Adjudication"),
                Adjudication,
            ),
            ("1/2-1/2", None, Some("TCEC adjudication"), Adjudication),
            ("1-0", Some("adjudication"), None, Adjudication),
            ("*", Some("unterminated"), Some("No result"), Unfinished),
            ("*", None, None, Unfinished),
            ("1-0", None, None, Unknown),
            ("1/2-1/2", Some(""), None, Unknown),
            // cutechess's "normal" (mate, stalemate, repetition, …) names no rule.
            ("1-0", Some("normal"), None, Unknown),
        ];
        for &(result, term, details, class) in cases {
            assert_eq!(
                classify(Some(result), term, details),
                class,
                "{result} {term:?} {details:?}"
            );
        }
        // Every class but Unknown is reached by some case above.
        for c in Class::ALL {
            assert!(cases.iter().any(|x| x.3 == c), "{}", c.name());
        }
    }

    #[test]
    fn details_win_over_termination_unless_unknown() {
        // TCEC's coarse "adjudication" with a specific rule in the details.
        assert_eq!(
            classify(Some("1-0"), Some("adjudication"), Some("SyzygyTB")),
            Class::Tablebase
        );
        // Details that name nothing known fall back to Termination.
        assert_eq!(
            classify(Some("0-1"), Some("illegal move"), Some("Qd8")),
            Class::Crash
        );
    }

    #[test]
    fn the_class_column_is_joined_by_the_three_tags() {
        let games = df!(
            col::GAME_ID => [1i64, 2, 3, 4],
            col::RESULT => ["1-0", "1/2-1/2", "1-0", "*"],
            col::TERMINATION => [Some("adjudication"), None, None, None],
            col::TERMINATION_DETAILS => [Some("TCEC win rule"), Some("3-Fold repetition"), None, None],
        )
        .unwrap();
        let out = with_class(games.lazy())
            .unwrap()
            .sort([col::GAME_ID], Default::default())
            .collect()
            .unwrap();
        let classes: Vec<_> = out.column(CLASS).unwrap().str().unwrap().iter().collect();
        assert_eq!(
            classes,
            [
                Some("win_rule"),
                Some("repetition"),
                Some("unknown"),
                Some("unfinished")
            ]
        );
        // The tag columns are kept as they were (nulls stay null).
        assert_eq!(out.column(col::TERMINATION).unwrap().null_count(), 3);
        assert_eq!(out.width(), 5);
    }
}
