//! Which games and engines a statistic covers: the user's `--event`,
//! `--engine`/`--player` and `--family` options as one [`Selection`], their
//! regexes checked before any work, and a regex that matches nothing in the
//! dataset reported with the names it may have meant ([`Selection::unmatched`]):
//! an empty table with exit code 0 would hide a typo.

use polars::prelude::*;

use crate::schema::col;

/// The non-null values of a text column.
pub fn texts(df: &DataFrame, name: &str) -> Result<Vec<String>, PolarsError> {
    let c = df.column(name)?.str()?;
    Ok(c.iter().flatten().map(str::to_string).collect())
}

/// A user's regex (`--event`, `--engine`, `--family`) against a string
/// column: a match anywhere in the value; a bad regex is an error (checked
/// by [`Selection::new`] or [`check_regex`] before any work).
pub fn matches(e: Expr, re: &str) -> Expr {
    e.str().contains(lit(re), true)
}

/// Which selection option a [`SelectionError`] is about (the CLI names its flag).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    Event,
    Engine,
    /// A player of either side (the engine stages' selection).
    Player,
    Family,
}

impl std::fmt::Display for Field {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Field::Event => "event",
            Field::Engine => "engine",
            Field::Player => "player",
            Field::Family => "family",
        })
    }
}

/// What is wrong with a selection option; it says which [`Field`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SelectionError {
    #[error("bad regex `{pattern}`: {reason}")]
    BadRegex {
        field: Field,
        pattern: String,
        reason: String,
    },
    /// A family is `REGEX=NAME`.
    #[error("expected REGEX=NAME, got `{0}`")]
    NotAFamily(String),
    /// A valid regex that matches none of the names it selects from.
    #[error("`{pattern}` matches none of the {among} {what}{}", closest_note(.closest))]
    NoMatch {
        field: Field,
        pattern: String,
        /// How many names there were.
        among: usize,
        /// What they are: "events of the dataset", "engines of the selected games".
        what: &'static str,
        /// The names nearest the pattern's text ([`closest`]).
        closest: Vec<String>,
    },
}

/// "; the closest: `A`, `B`" after an error, or nothing without names.
pub fn closest_note(closest: &[String]) -> String {
    if closest.is_empty() {
        return String::new();
    }
    let names: Vec<String> = closest.iter().map(|n| format!("`{n}`")).collect();
    format!("; the closest: {}", names.join(", "))
}

impl SelectionError {
    pub fn field(&self) -> Field {
        match self {
            SelectionError::BadRegex { field, .. } => *field,
            SelectionError::NotAFamily(_) => Field::Family,
            SelectionError::NoMatch { field, .. } => *field,
        }
    }
}

impl From<SelectionError> for crate::Error {
    fn from(e: SelectionError) -> crate::Error {
        crate::Error::Usage(format!("{}: {e}", e.field()))
    }
}

/// The one place a user's event regex (`--event`) meets the games, for every
/// command, the engine stages and the report: a game without an Event tag is
/// the event "" (one null rule: `^$` selects such games, `.` leaves them out).
pub fn event_matches(re: &str) -> Expr {
    matches(col(col::EVENT).fill_null(lit("")), re)
}

/// Checks a user's regex for [`matches()`]: polars would only fail at collect.
pub fn check_regex(field: Field, pattern: &str) -> Result<(), SelectionError> {
    compile(field, pattern).map(drop)
}

fn compile(field: Field, pattern: &str) -> Result<regex::Regex, SelectionError> {
    regex::Regex::new(pattern).map_err(|e| SelectionError::BadRegex {
        field,
        pattern: pattern.to_string(),
        reason: e.to_string(),
    })
}

/// The games and players a statistic covers: events by regex, engines by
/// regex after merging player names into families. Every statistics command
/// takes one; [`Selection::new`] checks it.
#[derive(Debug, Clone, Default)]
pub struct Selection {
    /// Only events matching this regex.
    pub event: Option<String>,
    /// Only engines (player names after `families`) matching this regex.
    pub engine: Option<String>,
    pub families: Families,
}

impl Selection {
    /// The selection, its regexes checked; `families` as `REGEX=NAME`.
    pub fn new(
        event: Option<String>,
        engine: Option<String>,
        families: &[String],
    ) -> Result<Selection, SelectionError> {
        for (field, re) in [(Field::Engine, &engine), (Field::Event, &event)] {
            if let Some(re) = re {
                check_regex(field, re)?;
            }
        }
        Ok(Selection {
            event,
            engine,
            families: Families::parse(families)?,
        })
    }

    /// The games of the selected events (every game without an event regex)
    /// and only their moves: selecting first means only those moves are read
    /// and computed.
    pub fn events(&self, games: LazyFrame, moves: LazyFrame) -> (LazyFrame, LazyFrame) {
        let Some(re) = &self.event else {
            return (games, moves);
        };
        let games = games.filter(event_matches(re));
        let moves = moves.join(
            games.clone().select([col(col::GAME_ID)]),
            [col(col::GAME_ID)],
            [col(col::GAME_ID)],
            JoinArgs::new(JoinType::Semi),
        );
        (games, moves)
    }

    /// The rows whose engine column `name` matches the engine regex (all without one).
    pub fn engines(&self, lf: LazyFrame, name: &str) -> LazyFrame {
        match &self.engine {
            Some(re) => lf.filter(matches(col(name), re)),
            None => lf,
        }
    }

    /// The engine regex compiled, for names outside polars.
    pub fn engine_regex(&self) -> Result<Option<regex::Regex>, SelectionError> {
        self.engine
            .as_deref()
            .map(|re| compile(Field::Engine, re))
            .transpose()
    }

    /// The rows of the selected events with the players' names (`white`,
    /// `black`) merged into families: of the games table, or of a per-game
    /// table such as the EAS labels.
    pub fn games(&self, games: LazyFrame) -> LazyFrame {
        let games = match &self.event {
            Some(re) => games.filter(event_matches(re)),
            None => games,
        };
        games.with_columns([
            self.families.apply(col(col::WHITE)).alias(col::WHITE),
            self.families.apply(col(col::BLACK)).alias(col::BLACK),
        ])
    }

    /// Whether the engine regex matches White or Black (true without one);
    /// a missing name is "", as a missing event is.
    pub fn either_side(&self) -> Expr {
        let m = |c: &str, re: &str| matches(col(c).fill_null(lit("")), re);
        match &self.engine {
            Some(re) => m(col::WHITE, re).or(m(col::BLACK, re)),
            None => lit(true),
        }
    }

    /// The players of the selected events' games, family names merged,
    /// sorted and deduplicated.
    pub fn players(&self, games: LazyFrame) -> Result<Vec<String>, PolarsError> {
        let df = self
            .games(games)
            .select([col(col::WHITE), col(col::BLACK)])
            .collect()?;
        let mut names = Vec::new();
        for c in [col::WHITE, col::BLACK] {
            names.extend(texts(&df, c)?);
        }
        names.sort();
        names.dedup();
        Ok(names)
    }
}

impl Selection {
    /// The first option of the selection that matches nothing: the event
    /// regex against the dataset's events, then the engine regex against
    /// the players of the selected events (family names merged), reported
    /// as `engine_field` (`Field::Player` for the engine stages' `--player`).
    /// None when each matches something, or no regex is given.
    pub fn unmatched(
        &self,
        games: LazyFrame,
        engine_field: Field,
    ) -> Result<Option<SelectionError>, PolarsError> {
        let no_match = |field, pattern: &str, names: &[String], what| {
            let re = compile(field, pattern).ok()?;
            (!names.iter().any(|n| re.is_match(n))).then(|| SelectionError::NoMatch {
                field,
                pattern: pattern.to_string(),
                among: names.len(),
                what,
                closest: closest(pattern, names),
            })
        };
        if let Some(re) = &self.event {
            let df = games
                .clone()
                .select([col(col::EVENT).fill_null(lit("")).unique()])
                .collect()?;
            let events = texts(&df, col::EVENT)?;
            if let Some(e) = no_match(Field::Event, re, &events, "events of the dataset") {
                return Ok(Some(e));
            }
        }
        if let Some(re) = &self.engine {
            let players = self.players(games)?;
            let what = match (engine_field, self.event.is_some()) {
                (Field::Player, true) => "players of the selected events",
                (Field::Player, false) => "players of the dataset",
                (_, true) => "engines of the selected events",
                (_, false) => "engines of the dataset",
            };
            return Ok(no_match(engine_field, re, &players, what));
        }
        Ok(None)
    }

    /// The families (`--family REGEX=NAME`) whose regex matches no player
    /// of the selected events, with the names nearest it. Not an error: one
    /// family list serves many selections (the pipelines give every step
    /// the same four), but a typo in it merges nothing, silently.
    pub fn idle_families(&self, games: LazyFrame) -> Result<Vec<SelectionError>, PolarsError> {
        if self.families.0.is_empty() {
            return Ok(Vec::new());
        }
        let raw = Selection {
            families: Families::default(),
            ..self.clone()
        };
        let players = raw.players(games)?;
        Ok(self
            .families
            .0
            .iter()
            .filter(|(re, _)| {
                compile(Field::Family, re).is_ok_and(|r| !players.iter().any(|n| r.is_match(n)))
            })
            .map(|(re, _)| SelectionError::NoMatch {
                field: Field::Family,
                pattern: re.clone(),
                among: players.len(),
                what: if self.event.is_some() {
                    "players of the selected events"
                } else {
                    "players of the dataset"
                },
                closest: closest(re, &players),
            })
            .collect())
    }
}

/// The names nearest a regex's text, for a selection that matched nothing:
/// the pattern without anchors and escapes (`^`, `$`, `\`), case folded, at
/// an edit distance of at most a third of its length (at least 1) from some
/// part of the name (a regex matches anywhere in a name); the five nearest,
/// the shorter name first among equals (`Stockfish 8` before
/// `01StockfishClassical 202007311012`), then alphabetical.
pub fn closest(pattern: &str, names: &[String]) -> Vec<String> {
    let text: Vec<char> = pattern
        .chars()
        .filter(|c| !matches!(c, '^' | '$' | '\\'))
        .flat_map(char::to_lowercase)
        .collect();
    let limit = (text.len() / 3).max(1);
    let mut near: Vec<(usize, usize, &String)> = names
        .iter()
        .filter_map(|n| {
            let d = substring_distance(&text, n);
            (d <= limit).then_some((d, n.chars().count(), n))
        })
        .collect();
    near.sort();
    near.into_iter().take(5).map(|(.., n)| n.clone()).collect()
}

/// The fewest insertions, deletions and substitutions that turn `text` into
/// some substring of `name` (case folded): Sellers' semi-global alignment,
/// the start in `name` free.
fn substring_distance(text: &[char], name: &str) -> usize {
    let name: Vec<char> = name.chars().flat_map(char::to_lowercase).collect();
    // row[j]: the distance of text[..i] to the best substring ending at name[j].
    let mut row = vec![0; name.len() + 1];
    for (i, &t) in text.iter().enumerate() {
        let mut diag = row[0];
        row[0] = i + 1;
        for (j, &c) in name.iter().enumerate() {
            let sub = diag + usize::from(t != c);
            diag = row[j + 1];
            row[j + 1] = sub.min(diag + 1).min(row[j] + 1);
        }
    }
    row.into_iter().min().unwrap_or(0)
}

/// Merges player names into families: the first matching regex gives the name.
#[derive(Debug, Clone, Default)]
pub struct Families(pub Vec<(String, String)>);

impl Families {
    /// `REGEX=NAME` specs (`--family`), each regex checked.
    pub fn parse(specs: &[String]) -> Result<Families, SelectionError> {
        let families = specs
            .iter()
            .map(|f| {
                let (re, name) = f
                    .split_once('=')
                    .ok_or_else(|| SelectionError::NotAFamily(f.clone()))?;
                check_regex(Field::Family, re)?;
                Ok((re.to_string(), name.to_string()))
            })
            .collect::<Result<Vec<_>, SelectionError>>()?;
        Ok(Families(families))
    }

    /// Applies the mapping to a name column.
    pub fn apply(&self, name: Expr) -> Expr {
        let mut out = name.clone();
        for (pat, fam) in self.0.iter().rev() {
            out = when(matches(name.clone(), pat.as_str()))
                .then(lit(fam.as_str()))
                .otherwise(out);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::tests::ids;

    #[test]
    fn selection_checks_its_regexes_and_families() {
        let ok = Selection::new(
            Some("^TCEC".into()),
            Some("Stockfish|Leela".into()),
            &["^Stockfish=Stockfish".into(), "^Lc0=Leela".into()],
        )
        .unwrap();
        assert_eq!(ok.event.as_deref(), Some("^TCEC"));
        assert_eq!(
            ok.families.0,
            [
                ("^Stockfish".to_string(), "Stockfish".to_string()),
                ("^Lc0".to_string(), "Leela".to_string())
            ]
        );
        let bad = |event: Option<&str>, engine: Option<&str>, family: &[&str]| {
            let family: Vec<String> = family.iter().map(|f| f.to_string()).collect();
            Selection::new(event.map(Into::into), engine.map(Into::into), &family).unwrap_err()
        };
        let e = bad(Some("("), None, &[]);
        assert_eq!(e.field(), Field::Event);
        assert!(e.to_string().starts_with("bad regex `(`: "), "{e}");
        assert_eq!(bad(None, Some("[a"), &[]).field(), Field::Engine);
        // The engine is checked first, as the flags were.
        assert_eq!(bad(Some("("), Some("("), &[]).field(), Field::Engine);
        let e = bad(None, None, &["Stockfish"]);
        assert_eq!(e, SelectionError::NotAFamily("Stockfish".into()));
        assert_eq!(e.to_string(), "expected REGEX=NAME, got `Stockfish`");
        assert_eq!(bad(None, None, &["(=x"]).field(), Field::Family);
        let usage = crate::Error::from(bad(Some("("), None, &[]));
        assert!(matches!(&usage, crate::Error::Usage(m) if m.starts_with("event: bad regex `(`")));
        assert_eq!(usage.exit_code(), 2);
    }

    fn games() -> LazyFrame {
        df!(
            col::GAME_ID => [1i64, 2, 3],
            col::EVENT => ["TCEC S1", "TCEC S2", "CCC 1"],
            col::WHITE => ["Stockfish 15", "Lc0 0.30", "Stockfish 16"],
            col::BLACK => ["Lc0 0.29", "Stockfish 16", "Komodo"],
        )
        .unwrap()
        .lazy()
    }

    #[test]
    fn selection_filters_events_engines_and_merges_families() {
        let sel = Selection::new(
            Some("^TCEC".into()),
            Some("^Stockfish$".into()),
            &["^Stockfish=Stockfish".into()],
        )
        .unwrap();
        assert_eq!(
            sel.players(games()).unwrap(),
            ["Lc0 0.29", "Lc0 0.30", "Stockfish"]
        );
        let moves = df!(col::GAME_ID => [1i64, 1, 2, 3, 3]).unwrap().lazy();
        let (g, m) = sel.events(games(), moves);
        assert_eq!(g.collect().unwrap().height(), 2);
        assert_eq!(m.collect().unwrap().height(), 3);
        let either = sel
            .games(games())
            .filter(sel.either_side())
            .collect()
            .unwrap();
        assert_eq!(either.height(), 2);
        let white = sel
            .engines(sel.games(games()), col::WHITE)
            .collect()
            .unwrap();
        assert_eq!(ids(&white), [1]);
        let all = Selection::default();
        assert_eq!(all.players(games()).unwrap().len(), 5);
        assert_eq!(all.engine_regex().unwrap().map(|r| r.to_string()), None);
        assert_eq!(
            sel.engine_regex().unwrap().map(|r| r.to_string()),
            Some("^Stockfish$".to_string())
        );
    }

    /// Distances counted by hand: one deletion, one substitution, a
    /// substring at no cost, and case folded.
    #[test]
    fn substring_distances() {
        let d = |t: &str, n: &str| substring_distance(&t.chars().collect::<Vec<_>>(), n);
        assert_eq!(d("superfnal", "tcec season 9 - superfinal"), 1);
        assert_eq!(d("tcec s3", "TCEC S2"), 1);
        assert_eq!(d("season", "TCEC Season 9"), 0);
        assert_eq!(d("kxyz", "Komodo"), 3);
        assert_eq!(d("", "x"), 0);
        assert_eq!(d("ab", ""), 2);
    }

    #[test]
    fn closest_names_nearest_first_within_a_third() {
        let names: Vec<String> = ["TCEC S2", "CCC 1", "TCEC S1", "TCEC Season 9 - Superfinal"]
            .map(String::from)
            .into();
        // "tcec s3" is one substitution from "TCEC S1" and from "TCEC Se…".
        assert_eq!(
            closest("^TCEC S3$", &names),
            ["TCEC S1", "TCEC S2", "TCEC Season 9 - Superfinal"]
        );
        assert_eq!(closest("Superfnal", &names), ["TCEC Season 9 - Superfinal"]);
        // Equally near: the shorter name first.
        let engines: Vec<String> = ["01Stockfish 2020", "Stockfish 8", "Stockfish 11"]
            .map(String::from)
            .into();
        assert_eq!(
            closest("Stockfsh", &engines),
            ["Stockfish 8", "Stockfish 11", "01Stockfish 2020"]
        );
        // "zzz" is 3 edits from anything; a third of 3 letters allows 1.
        assert!(closest("zzz", &names).is_empty());
    }

    #[test]
    fn a_selection_that_matches_nothing_says_so() {
        let sel = |event: Option<&str>, engine: Option<&str>, family: &[String]| {
            Selection::new(event.map(Into::into), engine.map(Into::into), family).unwrap()
        };
        let none = |s: Selection| s.unmatched(games(), Field::Engine).unwrap();
        assert_eq!(none(sel(Some("^TCEC"), Some("Stockfish"), &[])), None);
        assert_eq!(none(Selection::default()), None);
        let e = none(sel(Some("^TCEC S3$"), None, &[])).unwrap();
        assert_eq!(e.field(), Field::Event);
        assert_eq!(
            e.to_string(),
            "`^TCEC S3$` matches none of the 3 events of the dataset; the closest: `TCEC S1`, `TCEC S2`"
        );
        // The engine regex meets the selected events' players, families merged.
        let fam = ["^Stockfish=Stockfish".to_string()];
        let e = sel(Some("^TCEC"), Some("Stockfsh"), &fam)
            .unmatched(games(), Field::Player)
            .unwrap()
            .unwrap();
        assert_eq!(e.field(), Field::Player);
        assert_eq!(
            e.to_string(),
            "`Stockfsh` matches none of the 3 players of the selected events; the closest: `Stockfish`"
        );
        // Lc0 plays in the dataset, not in CCC's one game.
        let e = none(sel(Some("^CCC"), Some("^Lc0"), &[])).unwrap();
        assert!(
            matches!(&e, SelectionError::NoMatch { among: 2, .. }),
            "{e}"
        );
        // A game without an event is the event "" (`^$` selects it).
        let no_event = df!(col::GAME_ID => [1i64], col::EVENT => [None::<&str>],
            col::WHITE => ["A"], col::BLACK => ["B"])
        .unwrap()
        .lazy();
        assert_eq!(
            sel(Some("^$"), None, &[])
                .unmatched(no_event, Field::Engine)
                .unwrap(),
            None
        );
    }

    /// A family whose regex meets no player of the selected events (before
    /// merging) is named with the players nearest it; one that merges a
    /// name elsewhere in the dataset is idle in these events only.
    #[test]
    fn families_that_merge_nothing_are_named() {
        let fams = ["^Stockfish=SF", "^Stokfish=SF", "^Komodo=K"].map(String::from);
        let idle = |event: Option<&str>| {
            Selection::new(event.map(Into::into), None, &fams)
                .unwrap()
                .idle_families(games())
                .unwrap()
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
        };
        assert_eq!(
            idle(None),
            [
                "`^Stokfish` matches none of the 5 players of the dataset; the closest: \
              `Stockfish 15`, `Stockfish 16`"
            ]
        );
        // Komodo plays only in CCC 1.
        assert_eq!(idle(Some("^TCEC")).len(), 2);
        assert!(
            idle(Some("^TCEC"))[1]
                .starts_with("`^Komodo` matches none of the 4 players of the selected events")
        );
        assert!(
            Selection::default()
                .idle_families(games())
                .unwrap()
                .is_empty()
        );
    }
}
