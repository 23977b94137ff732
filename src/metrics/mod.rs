//! Statistics over the tables, each a pure function from LazyFrame(s) to a
//! LazyFrame, so that they can be tested on tiny in-memory frames and composed.
//!
//! Shared building blocks live here: the per-engine view of games and the
//! engine's own evals.

pub mod adjudication;
pub mod agreement;
pub mod balance;
pub mod calibrate;
pub mod chunks;
pub mod difficulty;
pub mod eas;
pub mod ease;
pub mod engine_stats;
pub mod facts;
pub mod matching;
pub mod openings;
pub mod pairs;
pub mod ratings;
pub mod relevance;
pub mod standings;
pub mod wdl;
pub mod x05;

use polars::prelude::*;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};

use crate::schema::{col, metric};

/// A game's start position: its set-up FEN (`games.start_fen`) in the game's
/// castling mode, or the standard start.
pub fn start_position(fen: Option<&str>, chess960: bool) -> Result<Chess, String> {
    let mode = if chess960 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    match fen {
        None => Ok(Chess::default()),
        Some(f) => {
            let parsed: Fen = f.parse().map_err(|e| format!("FEN `{f}`: {e}"))?;
            parsed
                .into_position(mode)
                .map_err(|e| format!("FEN `{f}`: {e}"))
        }
    }
}

/// Mate scores on the own-eval scale: mate in n for the engine is
/// `MATE_CP - n`, so any mate ranks above any centipawn value, and shorter
/// mates above longer ones. In pawns this prints as 9999.95 for mate in 5.
pub const MATE_CP: i64 = 1_000_000;

/// Own evals at or beyond 100 pawns are TCEC's tablebase plateaus (±150, ±199.xx,
/// ±250, ±300, 999.99) or overflow garbage: they are not engine opinions about
/// winning chances and are left out of statistics (mates are kept).
pub const PLATEAU_CP: i32 = 10_000;

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
}

impl SelectionError {
    pub fn field(&self) -> Field {
        match self {
            SelectionError::BadRegex { field, .. } => *field,
            SelectionError::NotAFamily(_) => Field::Family,
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

/// Checks a user's regex for [`matches`]: polars would only fail at collect.
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
            names.extend(df.column(c)?.str()?.iter().flatten().map(str::to_string));
        }
        names.sort();
        names.dedup();
        Ok(names)
    }
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

/// One row per (game, side): the game from the point of view of the engine that
/// played that side. `score` is 1, 0.5 or 0 for the engine (null for `*`).
///
/// Columns: game_id, event, round, engine, opponent, side, score.
pub fn engine_games(games: LazyFrame, families: &Families) -> Result<LazyFrame, PolarsError> {
    let view = |side: &str, me: &str, other: &str, win: &str, loss: &str| {
        games.clone().select([
            col(col::GAME_ID),
            col(col::EVENT),
            col(col::ROUND),
            families.apply(col(me)).alias(metric::ENGINE),
            families.apply(col(other)).alias(metric::OPPONENT),
            lit(side).alias(col::SIDE),
            when(col(col::RESULT).eq(lit(win)))
                .then(lit(1.0))
                .when(col(col::RESULT).eq(lit(loss)))
                .then(lit(0.0))
                .when(col(col::RESULT).eq(lit("1/2-1/2")))
                .then(lit(0.5))
                .otherwise(lit(NULL).cast(DataType::Float64))
                .alias(metric::SCORE),
        ])
    };
    concat(
        [
            view("w", col::WHITE, col::BLACK, "1-0", "0-1"),
            view("b", col::BLACK, col::WHITE, "0-1", "1-0"),
        ],
        UnionArgs::default(),
    )
}

/// The moves joined with their games (inner, by game id), each named by its
/// mover in `metric::ENGINE`: White's name for White's moves.
pub fn with_mover(moves: LazyFrame, games: LazyFrame) -> LazyFrame {
    moves
        .join(
            games,
            [col(col::GAME_ID)],
            [col(col::GAME_ID)],
            JoinArgs::new(JoinType::Inner),
        )
        .with_column(
            when(col(col::SIDE).eq(lit("w")))
                .then(col(col::WHITE))
                .otherwise(col(col::BLACK))
                .alias(metric::ENGINE),
        )
}

/// The engines' own usable evals, one row per non-book move with a cp or mate
/// eval, on the own-POV scale (centipawns; mates as ±([`MATE_CP`] − n)).
/// Placeholders, absurd values and plateaus (|cp| ≥ [`PLATEAU_CP`]) are left out.
///
/// Columns: game_id, side, ply, own_cp, then `extra` columns of the moves table.
pub fn own_evals(moves: LazyFrame, extra: &[&str]) -> LazyFrame {
    let kind = col(col::EVAL_KIND);
    let usable = col(col::IS_BOOK).not().and(
        kind.clone().eq(lit("mate")).or(kind
            .eq(lit("cp"))
            .and(col(col::EVAL_CP).abs().lt(lit(PLATEAU_CP)))),
    );
    let white_pov = when(col(col::MATE).is_not_null())
        .then(
            when(col(col::MATE).gt_eq(lit(0)))
                .then(lit(MATE_CP) - col(col::MATE).cast(DataType::Int64))
                .otherwise(lit(-MATE_CP) - col(col::MATE).cast(DataType::Int64)),
        )
        .otherwise(col(col::EVAL_CP).cast(DataType::Int64));
    let own = when(col(col::SIDE).eq(lit("w")))
        .then(white_pov.clone())
        .otherwise(-white_pov);
    let mut cols = vec![
        col(col::GAME_ID),
        col(col::SIDE),
        col(col::PLY),
        own.alias(metric::OWN_CP),
    ];
    cols.extend(extra.iter().map(|c| col(*c)));
    moves.filter(usable).select(cols)
}

/// The column [`with_material_before`] adds.
pub const MATERIAL: &str = "material";

/// The standard start position's 9Q+5R+3B+3N+P, both sides.
pub const START_MATERIAL: i32 = 78;

/// 9Q+5R+3B+3N+P of a FEN's board field, both sides ([`START_MATERIAL`] for
/// the standard start).
fn fen_material(fen: Expr) -> Expr {
    let board = fen.str().extract(lit(r"^(\S+)"), 1);
    let count = |class: &str| {
        board
            .clone()
            .str()
            .replace_all(lit(format!("[^{class}]")), lit(""), false)
            .str()
            .len_chars()
            .cast(DataType::Int32)
    };
    lit(9) * count("Qq") + lit(5) * count("Rr") + lit(3) * count("BbNn") + count("Pp")
}

/// The moves with `material`: 9Q+5R+3B+3N+P of both sides in the position
/// *before* the move (what Stockfish's WDL model is a function of), that is
/// the previous ply's material after its move, and the start position's at
/// ply 1. Rows must be in game and ply order (as every table is stored); a
/// row whose previous row is not its previous ply gets null.
pub fn with_material_before(moves: LazyFrame, games: LazyFrame) -> LazyFrame {
    const PREV: &str = "material_prev";
    const START: &str = "material_start";
    let piece = |c: &str| col(c).cast(DataType::Int32);
    let after = lit(9) * (piece(col::WHITE_QUEENS) + piece(col::BLACK_QUEENS))
        + lit(5) * (piece(col::WHITE_ROOKS) + piece(col::BLACK_ROOKS))
        + lit(3)
            * (piece(col::WHITE_BISHOPS)
                + piece(col::BLACK_BISHOPS)
                + piece(col::WHITE_KNIGHTS)
                + piece(col::BLACK_KNIGHTS))
        + piece(col::WHITE_PAWNS)
        + piece(col::BLACK_PAWNS);
    let ply = col(col::PLY).cast(DataType::Int32);
    let previous = col(col::GAME_ID)
        .shift(lit(1))
        .eq(col(col::GAME_ID))
        .and((ply.clone().shift(lit(1)) + lit(1)).eq(ply.clone()));
    let start = games.select([
        col(col::GAME_ID),
        when(col(col::START_FEN).is_null())
            .then(lit(START_MATERIAL))
            .otherwise(fen_material(col(col::START_FEN)))
            .alias(START),
    ]);
    moves
        .with_column(
            when(previous)
                .then(after.shift(lit(1)))
                .otherwise(lit(NULL).cast(DataType::Int32))
                .alias(PREV),
        )
        .join(
            start,
            [col(col::GAME_ID)],
            [col(col::GAME_ID)],
            JoinArgs {
                maintain_order: MaintainOrderJoin::Left,
                ..JoinArgs::new(JoinType::Left)
            },
        )
        .with_column(
            when(ply.eq(lit(1)))
                .then(col(START))
                .otherwise(col(PREV))
                .alias(MATERIAL),
        )
        .drop(by_name([PREV, START], true, false))
}

/// The TCEC season of an event (`Season N` → `N`); other events stand alone.
pub fn season(event: Expr) -> Expr {
    event
        .clone()
        .str()
        .extract(lit(r"Season (\d+)"), 1)
        .fill_null(event)
}

/// The columns that name a game to a reader: game_id, event, round, white,
/// black, result.
pub const GAME_NAMING: [&str; 6] = [
    col::GAME_ID,
    col::EVENT,
    col::ROUND,
    col::WHITE,
    col::BLACK,
    col::RESULT,
];

/// The columns of a listing of games (`--games`): [`GAME_NAMING`], then `extra`.
pub fn game_listing(extra: &[&str]) -> Vec<Expr> {
    GAME_NAMING.iter().chain(extra).map(|c| col(*c)).collect()
}

/// Own-eval scale to pawns (mates print as ±(10000 − n/100)).
pub fn to_pawns(e: Expr) -> Expr {
    e.cast(DataType::Float64) / lit(100.0)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The `game_id` column of a frame.
    pub(crate) fn ids(df: &DataFrame) -> Vec<i64> {
        let ids = df.column(col::GAME_ID).unwrap().i64().unwrap();
        ids.into_no_null_iter().collect()
    }

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
}
