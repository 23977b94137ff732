//! Statistics over the tables, each a pure function from LazyFrame(s) to a
//! LazyFrame, so that they can be tested on tiny in-memory frames and composed.
//!
//! Shared building blocks live here: the per-engine view of games and the
//! engine's own evals.

pub mod adjudication;
pub mod agreement;
pub mod balance;
pub mod calibrate;
pub mod eas;
pub mod ease;
pub mod matching;
pub mod openings;
pub mod relevance;

use polars::prelude::*;

use crate::schema::{col, metric};

/// Mate scores on the own-eval scale: mate in n for the engine is
/// `MATE_CP - n`, so any mate ranks above any centipawn value, and shorter
/// mates above longer ones. In pawns this prints as 9999.95 for mate in 5.
pub const MATE_CP: i64 = 1_000_000;

/// Own evals at or beyond 100 pawns are TCEC's tablebase plateaus (±150, ±199.xx,
/// ±250, ±300, 999.99) or overflow garbage: they are not engine opinions about
/// winning chances and are left out of statistics (mates are kept).
pub const PLATEAU_CP: i32 = 10_000;

/// A user's regex (`--event`, `--engine`, `--family`) against a string
/// column: a match anywhere in the value; a bad regex is an error (the CLI
/// checks each before any work).
pub fn matches(e: Expr, re: &str) -> Expr {
    e.str().contains(lit(re), true)
}

/// Merges player names into families: the first matching regex gives the name.
#[derive(Debug, Clone, Default)]
pub struct Families(pub Vec<(String, String)>);

impl Families {
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

/// The games of the events matching `event` (every game without one) and only
/// their moves: selecting first means only those moves are read and computed.
pub fn select_events(
    games: LazyFrame,
    moves: LazyFrame,
    event: Option<&str>,
) -> (LazyFrame, LazyFrame) {
    let Some(re) = event else {
        return (games, moves);
    };
    let games = games.filter(matches(col(col::EVENT), re));
    let moves = moves.join(
        games.clone().select([col(col::GAME_ID)]),
        [col(col::GAME_ID)],
        [col(col::GAME_ID)],
        JoinArgs::new(JoinType::Semi),
    );
    (games, moves)
}

/// The TCEC season of an event (`Season N` → `N`); other events stand alone.
pub fn season(event: Expr) -> Expr {
    event
        .clone()
        .str()
        .extract(lit(r"Season (\d+)"), 1)
        .fill_null(event)
}

/// Own-eval scale to pawns (mates print as ±(10000 − n/100)).
pub fn to_pawns(e: Expr) -> Expr {
    e.cast(DataType::Float64) / lit(100.0)
}
