//! Puzzle games (ingested from the Lichess puzzle CSV, see
//! [`crate::ingest::puzzles`]) and their solver's positions.
//!
//! A puzzle's `FEN` is the position before the opponent's move, the first of
//! its moves: the solver moves at the even plies, so the solver's positions
//! are those before the even plies (`analysis.ply`/`policy.ply` name the
//! position before a ply), and the solver's first position, the one the
//! puzzle's rating is about, is the one before ply 2.

use polars::prelude::*;

use crate::ingest::puzzles::{EVENT, tag};
use crate::schema::col;

/// The solver's first position: the one before this ply.
pub const SOLVER_FIRST_PLY: u32 = 2;

/// Column names of [`puzzles`].
pub mod cols {
    pub const PUZZLE_ID: &str = "puzzle_id";
    pub const RATING: &str = "rating";
    pub const RATING_DEVIATION: &str = "rating_deviation";
    pub const PLAYS: &str = "plays";
    pub const THEMES: &str = "themes";
    /// The puzzle's first solver move (UCI), at [`super::SOLVER_FIRST_PLY`].
    pub const SOLUTION: &str = "solution";
}

/// Whether the position before `ply` is the solver's.
pub fn is_solver_position(ply: Expr) -> Expr {
    (ply % lit(2u32)).eq(lit(0u32))
}

/// A puzzle tag's value from `games.other_tags` (a JSON object of strings;
/// the puzzle values hold no quote).
fn tag_value(name: &str) -> Expr {
    col(col::OTHER_TAGS)
        .str()
        .extract(lit(format!("\"{name}\":\"([^\"]*)\"")), 1)
}

/// One row per puzzle game: game_id, puzzle_id, rating, rating_deviation,
/// plays, themes (space-separated) and the solution's first move.
pub fn puzzles(games: LazyFrame, moves: LazyFrame) -> LazyFrame {
    let solution = moves
        .filter(col(col::PLY).eq(lit(SOLVER_FIRST_PLY)))
        .select([col(col::GAME_ID), col(col::UCI).alias(cols::SOLUTION)]);
    games
        .filter(col(col::EVENT).eq(lit(EVENT)))
        .select([
            col(col::GAME_ID),
            tag_value(tag::ID).alias(cols::PUZZLE_ID),
            tag_value(tag::RATING)
                .cast(DataType::Float64)
                .alias(cols::RATING),
            tag_value(tag::RATING_DEVIATION)
                .cast(DataType::Float64)
                .alias(cols::RATING_DEVIATION),
            tag_value(tag::PLAYS)
                .cast(DataType::Int64)
                .alias(cols::PLAYS),
            tag_value(tag::THEMES).alias(cols::THEMES),
        ])
        .filter(col(cols::PUZZLE_ID).is_not_null())
        .join(
            solution,
            [col(col::GAME_ID)],
            [col(col::GAME_ID)],
            JoinArgs::new(JoinType::Left),
        )
}
