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
mod selection;
pub mod standings;
pub mod wdl;
pub mod x05;

pub use selection::{
    Families, Field, Selection, SelectionError, check_regex, closest, closest_note, event_matches,
    matches, texts,
};

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use polars::prelude::*;
use shakmaty::fen::Fen;
use shakmaty::{CastlingMode, Chess};

use crate::schema::{col, metric};

/// Progress of a long computation (a bootstrap over many groups): told
/// `(done, total)` after each unit, from whichever thread finished it. The
/// default tells nobody. The library counts; the command line draws.
#[derive(Clone, Default)]
pub struct Ticker(Option<Arc<dyn Fn(usize, usize) + Send + Sync>>);

impl Ticker {
    pub fn new(f: impl Fn(usize, usize) + Send + Sync + 'static) -> Ticker {
        Ticker(Some(Arc::new(f)))
    }

    /// A count of `total` units that tells this ticker as each one ends.
    pub fn count(&self, total: usize) -> Count<'_> {
        Count {
            ticker: self,
            done: AtomicUsize::new(0),
            total,
        }
    }
}

impl std::fmt::Debug for Ticker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() {
            "Ticker"
        } else {
            "Ticker(off)"
        })
    }
}

/// Units done of a [`Ticker::count`].
pub struct Count<'a> {
    ticker: &'a Ticker,
    done: AtomicUsize,
    total: usize,
}

impl Count<'_> {
    /// One more unit done.
    pub fn tick(&self) {
        self.add(1);
    }

    /// `n` more units done (or skipped: a count must reach its total).
    pub fn add(&self, n: usize) {
        let done = self.done.fetch_add(n, Ordering::Relaxed) + n;
        if let Some(f) = &self.ticker.0 {
            f(done, self.total);
        }
    }
}

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

/// A listing of games (rows with a `game_id`) in the dataset's order: its
/// inputs' order, each file's games as written, as `annotate` writes their
/// PGN, not in the order of the ids (hashes). A game's rows keep theirs.
pub fn in_dataset_order(listing: DataFrame, games: LazyFrame) -> Result<DataFrame, PolarsError> {
    const AT: &str = "__dataset_row";
    let names: Vec<Expr> = listing
        .get_column_names()
        .into_iter()
        .map(|c| col(c.clone()))
        .collect();
    let order = games.select([col(col::GAME_ID)]).with_row_index(AT, None);
    listing
        .lazy()
        .join(
            order,
            [col(col::GAME_ID)],
            [col(col::GAME_ID)],
            JoinArgs::new(JoinType::Left),
        )
        .sort(
            [AT],
            SortMultipleOptions::default().with_maintain_order(true),
        )
        .select(names)
        .collect()
}

/// `name` as a column beside columns `taken` already has: itself, else
/// `vs name`, prefixed again until free. An opponent or engine named like a
/// fixed column (`games`, `engine`) would otherwise replace it.
pub fn free_column_name(name: &str, taken: impl Fn(&str) -> bool) -> String {
    let mut header = name.to_string();
    while taken(&header) {
        header = format!("vs {header}");
    }
    header
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
    divided(e, 100.0)
}

/// `e` as f64 divided by `d`, each value the correctly rounded quotient: a
/// unit's change (centipawns to pawns, ms to seconds). polars divides by a
/// scalar as a product with its reciprocal, and 47 cp then read
/// 0.47000000000000003 pawns, 26,700 ms 26.700000000000003 s.
pub fn divided(e: Expr, d: f64) -> Expr {
    e.cast(DataType::Float64).map(
        move |c| Ok(c.f64()?.apply_values(|v| v / d).into_column()),
        |_, f| Ok(f.clone()),
    )
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A unit's change reads as the decimal it is: 47 cp are 0.47 pawns and
    /// 26,700 ms 26.7 s, where polars' own division by a scalar gives
    /// 0.47000000000000003 and 26.700000000000003 (checked here too, so the
    /// test says when polars stops needing the helper).
    #[test]
    fn a_unit_divides_exactly() {
        let df = df!("x" => [47i64, 26_700, 83, 163, -1_630, 0]).unwrap();
        let got = |e: Expr| -> Vec<Option<f64>> {
            let out = df.clone().lazy().select([e.alias("y")]).collect().unwrap();
            out.column("y").unwrap().f64().unwrap().iter().collect()
        };
        assert_eq!(
            got(divided(col("x"), 100.0)),
            [0.47, 267.0, 0.83, 1.63, -16.3, 0.0].map(Some)
        );
        assert_eq!(
            got(divided(col("x"), 1000.0)),
            [0.047, 26.7, 0.083, 0.163, -1.63, 0.0].map(Some)
        );
        assert_eq!(got(to_pawns(col("x")))[0], Some(0.47));
        let by_scalar = got(col("x").cast(DataType::Float64) / lit(100.0));
        assert_eq!(by_scalar[0], Some(0.47000000000000003));
    }

    /// Ticks from many threads and units skipped at once: the count tells
    /// every step and ends at its total.
    #[test]
    fn a_count_reaches_its_total_from_many_threads() {
        use rayon::prelude::*;
        let seen = Arc::new(std::sync::Mutex::new(Vec::new()));
        let told = Arc::clone(&seen);
        let ticker = Ticker::new(move |done, total| told.lock().unwrap().push((done, total)));
        let count = ticker.count(100);
        (0..90).into_par_iter().for_each(|_| count.tick());
        count.add(10);
        let seen = seen.lock().unwrap();
        assert_eq!(seen.len(), 91);
        assert!(seen.iter().all(|&(_, total)| total == 100));
        assert_eq!(seen.iter().map(|&(done, _)| done).max(), Some(100));
        // The default tells nobody.
        Ticker::default().count(1).tick();
    }

    /// Listed games come in the games table's order, a game's rows in theirs.
    #[test]
    fn a_listing_in_dataset_order() {
        let games = df!(col::GAME_ID => [30i64, 10, 20]).unwrap();
        let listing =
            df!(col::GAME_ID => [10i64, 20, 30, 10], "side" => ["w", "w", "b", "b"]).unwrap();
        let got = in_dataset_order(listing, games.lazy()).unwrap();
        assert_eq!(ids(&got), [30, 10, 10, 20]);
        let side = got.column("side").unwrap().str().unwrap();
        assert_eq!(side.get(1), Some("w"));
        assert_eq!(got.get_column_names(), ["game_id", "side"]);
    }

    /// The `game_id` column of a frame.
    pub(crate) fn ids(df: &DataFrame) -> Vec<i64> {
        let ids = df.column(col::GAME_ID).unwrap().i64().unwrap();
        ids.into_no_null_iter().collect()
    }
}
