//! The positions the WDL model counts, read from the games and moves tables
//! as `scoreWDLstat` reads a PGN (docs/definitions/wdl.md, W1–W4).

use polars::prelude::*;

use crate::Error;
use crate::metrics::chunks::{GameChunks, stack};
use crate::metrics::{MATERIAL, Selection, season, with_material_before};
use crate::schema::{col, metric};

/// Columns of [`positions`].
pub mod cols {
    /// W, D or L: the game's result from the mover's side.
    pub const OUTCOME: &str = "outcome";
    /// The full-move number of the position before the move.
    pub const MOVE: &str = "move";
    /// 9Q+5R+3B+3N+P of both sides in the position before the move.
    pub const MATERIAL: &str = "material";
    /// The eval as `scoreWDLstat` keys it: centipawns, mover's POV, clamped
    /// to ±1000 and rounded to the bin width; mates ±1001.
    pub const EVAL: &str = "eval";
    /// The mover's eval in centipawns, unclamped (null for mates).
    pub const OWN_CP: &str = "own_cp";
    pub const COUNT: &str = "count";
    /// What the counts are per, besides the group keys: `scoreWDLstat`'s map key.
    pub const COUNTED_BY: [&str; 4] = [OUTCOME, MOVE, MATERIAL, EVAL];
}

/// `scoreWDLstat`'s terminations that leave a game out (its `Termination` tag
/// compared exactly).
pub const BAD_TERMINATIONS: [&str; 5] = [
    "time forfeit",
    "abandoned",
    "stalled connection",
    "illegal move",
    "unterminated",
];

/// `scoreWDLstat`'s clamp of a cp eval, and its key of a mate.
pub const EVAL_CLAMP: i32 = 1000;
pub const MATE_KEY: i32 = 1001;
/// Moves after this full-move number are not counted.
pub const MOVE_LIMIT: i32 = 200;

/// The eval as `scoreWDLstat` reads `+0.30` from a comment: the text parsed
/// as a 32-bit float, times 100 in 32-bit floats, truncated toward zero
/// (`int(100 * fast_stof(…))`: −9.98 becomes −997), clamped to ±1000, then
/// rounded half away from zero to the bin width. `cp` is the mover's eval in
/// centipawns, which every dialect evallab reads stores exactly (two decimals).
pub fn tool_eval(cp: Expr, bin_width: i32) -> Expr {
    let truncated =
        (cp.cast(DataType::Float64) / lit(100.0)).cast(DataType::Float32) * lit(100.0f32);
    let v = truncated
        .cast(DataType::Int32)
        .clip(lit(-EVAL_CLAMP), lit(EVAL_CLAMP));
    let w = bin_width.max(1);
    let magnitude = (v.clone().abs() + lit(w / 2)) / lit(w) * lit(w);
    when(v.lt(lit(0)))
        .then(-magnitude.clone())
        .otherwise(magnitude)
}

/// One row per counted position (W1–W4): a non-book move with a cp or mate
/// eval of a game with a result and a good termination, up to move 200.
///
/// Columns: game_id, event, season, engine (the mover, families merged),
/// variant, outcome, move, material, eval, own_cp, score (the mover's game
/// score). Games are those of `sel`'s events; movers those of its engine regex
/// (`scoreWDLstat --matchEngine` counts only the matching side).
pub fn positions(games: LazyFrame, moves: LazyFrame, sel: &Selection, bin_width: i32) -> LazyFrame {
    let (games, moves) = sel.events(games, moves);
    let all_games = games.clone();
    let games = sel
        .games(games)
        .filter(
            col(col::RESULT)
                .is_in(
                    lit(Series::new("r".into(), ["1-0", "0-1", "1/2-1/2"])).implode(false),
                    false,
                )
                .and(
                    col(col::TERMINATION)
                        .is_in(
                            lit(Series::new("t".into(), BAD_TERMINATIONS)).implode(false),
                            false,
                        )
                        .not()
                        .fill_null(lit(true)),
                ),
        )
        .select([
            col(col::GAME_ID),
            col(col::EVENT),
            col(col::WHITE),
            col(col::BLACK),
            col(col::RESULT),
            col(col::VARIANT),
        ]);
    let moves = with_material_before(moves, all_games)
        .select([
            col(col::GAME_ID),
            col(col::PLY),
            col(col::MOVE_NUMBER)
                .cast(DataType::Int32)
                .alias(cols::MOVE),
            col(col::SIDE),
            col(col::IS_BOOK),
            col(col::EVAL_KIND),
            col(col::EVAL_CP),
            col(col::MATE),
            col(MATERIAL),
        ])
        .filter(
            col(col::IS_BOOK)
                .not()
                .and(col(col::EVAL_KIND).is_in(
                    lit(Series::new("k".into(), ["cp", "mate"])).implode(false),
                    false,
                ))
                .and(col(cols::MOVE).lt_eq(lit(MOVE_LIMIT))),
        );
    let white = col(col::SIDE).eq(lit("w"));
    let own_cp = when(white.clone())
        .then(col(col::EVAL_CP))
        .otherwise(-col(col::EVAL_CP));
    // Mate for the mover: White mates (mate ≥ 0) and White moved, or the reverse.
    let mover_mates = col(col::MATE).gt_eq(lit(0)).eq(white.clone());
    let outcome = |win: &str, loss: &str| {
        when(col(col::RESULT).eq(lit(win)))
            .then(lit("W"))
            .when(col(col::RESULT).eq(lit(loss)))
            .then(lit("L"))
            .otherwise(lit("D"))
    };
    sel.engines(crate::metrics::with_mover(moves, games), metric::ENGINE)
        .select([
            col(col::GAME_ID),
            col(col::EVENT),
            season(col(col::EVENT)).alias(metric::SEASON),
            col(metric::ENGINE),
            col(col::VARIANT),
            when(white)
                .then(outcome("1-0", "0-1"))
                .otherwise(outcome("0-1", "1-0"))
                .alias(cols::OUTCOME),
            col(cols::MOVE),
            col(MATERIAL).alias(cols::MATERIAL),
            when(col(col::EVAL_KIND).eq(lit("mate")))
                .then(
                    when(mover_mates)
                        .then(lit(MATE_KEY))
                        .otherwise(lit(-MATE_KEY)),
                )
                .otherwise(tool_eval(own_cp.clone(), bin_width))
                .alias(cols::EVAL),
            when(col(col::EVAL_KIND).eq(lit("cp")))
                .then(own_cp)
                .otherwise(lit(NULL).cast(DataType::Int32))
                .alias(cols::OWN_CP),
        ])
        .with_column(
            when(col(cols::OUTCOME).eq(lit("W")))
                .then(lit(1.0))
                .when(col(cols::OUTCOME).eq(lit("L")))
                .then(lit(0.0))
                .otherwise(lit(0.5))
                .alias(metric::SCORE),
        )
}

/// The counts of [`positions`] per `keys` and (outcome, move, material,
/// eval): `scoreWDLstat`'s map, per group, sorted so.
pub fn counts(positions: LazyFrame, keys: &[&str]) -> LazyFrame {
    let mut by: Vec<Expr> = keys.iter().map(|k| col(*k)).collect();
    by.extend(cols::COUNTED_BY.map(col));
    unsorted_counts(positions, keys).sort_by_exprs(by, SortMultipleOptions::default())
}

/// [`counts`] in no particular order, for a caller that groups them again:
/// sorting every game's cells by the string keys (event, engine) cost a
/// quarter of `wdl --by event,engine` on the TCEC archive.
pub fn unsorted_counts(positions: LazyFrame, keys: &[&str]) -> LazyFrame {
    let mut by: Vec<Expr> = keys.iter().map(|k| col(*k)).collect();
    by.extend(cols::COUNTED_BY.map(col));
    positions
        .group_by(by)
        .agg([len().cast(DataType::Float64).alias(cols::COUNT)])
}

/// `f` of the games of `sel`'s events and their moves, a chunk of whole
/// games (about `chunk_plies` plies) at a time ([`GameChunks::each`]): one
/// chunk's plies in memory, the chunks in the games table's order.
pub fn in_chunks<T>(
    games: LazyFrame,
    moves: LazyFrame,
    sel: &Selection,
    chunk_plies: u64,
    f: impl FnMut(LazyFrame, LazyFrame) -> Result<T, Error>,
) -> Result<Vec<T>, Error> {
    let (selected, _) = sel.events(games.clone(), moves.clone());
    GameChunks::new(games.clone(), selected, chunk_plies)?.each(&games, &moves, f)
}

/// [`counts`] of [`positions`] per `keys` (game_id among them: a game's
/// positions are all in one chunk), computed [`in_chunks`]: the rows and
/// their order of one pass.
pub fn counts_in_chunks(
    games: LazyFrame,
    moves: LazyFrame,
    sel: &Selection,
    bin_width: i32,
    keys: &[&str],
    chunk_plies: u64,
) -> Result<DataFrame, Error> {
    let frames = in_chunks(games, moves, sel, chunk_plies, |g, m| {
        Ok(counts(positions(g, m, sel, bin_width), keys).collect()?)
    })?;
    let single = frames.len() == 1;
    let df = stack(frames)?;
    if single {
        return Ok(df);
    }
    let mut by: Vec<&str> = keys.to_vec();
    by.extend(cols::COUNTED_BY);
    Ok(df.sort(by, SortMultipleOptions::default())?)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `scoreWDLstat`'s reading of a two-decimal eval, in Rust.
    fn reference(cp: i32, bin: i32) -> i32 {
        let text = format!("{:.2}", f64::from(cp) / 100.0);
        let f: f32 = text.parse().unwrap();
        let v = ((100.0f32 * f) as i32).clamp(-1000, 1000);
        ((v as f32 / bin as f32).round() as i32) * bin
    }

    #[test]
    fn tool_eval_reads_as_the_reference_reads_text() {
        let cps: Vec<i32> = (-1500..=1500).collect();
        for bin in [1, 5, 10] {
            let df = df!("cp" => &cps)
                .unwrap()
                .lazy()
                .select([tool_eval(col("cp"), bin).alias("e")])
                .collect()
                .unwrap();
            let got: Vec<i32> = df
                .column("e")
                .unwrap()
                .i32()
                .unwrap()
                .into_no_null_iter()
                .collect();
            for (cp, e) in cps.iter().zip(&got) {
                assert_eq!(*e, reference(*cp, bin), "cp {cp}, bin {bin}");
            }
        }
        // The float truncation the reference does: −9.98 → −997 → bin −995.
        assert_eq!(reference(-998, 5), -995);
        assert_eq!(reference(-998, 1), -997);
    }
}
