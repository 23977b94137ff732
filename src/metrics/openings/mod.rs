//! Opening classification by position: each game gets the deepest line of an
//! opening table (the Lichess `chess-openings` TSV format: `eco`, `name`,
//! `pgn`) whose final position it reaches, in any move order, by the Polyglot
//! keys of `moves.position_key` and `games.start_key`.
//!
//! The table is read from files the user gives (`evallab openings DATASET
//! --table DIR`); evallab ships none of it. A Chess960 game that reaches no
//! line is named by its start position ([`chess960`]). [`stats`] counts
//! results per opening, by these lines or by the games' tags.

pub mod chess960;
pub mod stats;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use polars::prelude::*;
use shakmaty::san::San;
use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, EnPassantMode, Position};

use crate::Error;
use crate::schema::{col, opening_col};

/// A line of the table: the position it ends in is its key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    pub eco: String,
    pub name: String,
    /// Plies of the line from the start position.
    pub plies: u32,
}

/// The opening lines by the Polyglot key of their final position.
#[derive(Debug, Default)]
pub struct OpeningTable {
    pub lines: HashMap<u64, Line>,
}

impl OpeningTable {
    /// Reads every `*.tsv` of `dir` (in name order), or `dir` itself when it
    /// is a file. A line whose position an earlier line already names is
    /// skipped (the first name stays).
    pub fn read(dir: &Path) -> Result<OpeningTable, Error> {
        let files: Vec<PathBuf> = if dir.is_file() {
            vec![dir.to_path_buf()]
        } else {
            let mut f: Vec<PathBuf> = std::fs::read_dir(dir)
                .map_err(|e| Error::io(dir, e))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "tsv"))
                .collect();
            f.sort();
            f
        };
        if files.is_empty() {
            return Err(Error::InputData(format!(
                "{}: no opening table (*.tsv with the columns eco, name, pgn)",
                dir.display()
            )));
        }
        let mut table = OpeningTable::default();
        for path in &files {
            let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
            table
                .add_tsv(&text)
                .map_err(|e| Error::InputData(format!("{}: {e}", path.display())))?;
        }
        Ok(table)
    }

    /// Adds the rows of one TSV file (a header `eco name pgn`, then rows).
    pub fn add_tsv(&mut self, text: &str) -> Result<(), String> {
        let mut rows = text.lines().enumerate();
        match rows.next() {
            Some((_, header)) if header.trim_end() == "eco\tname\tpgn" => {}
            _ => return Err("the first line is not the header `eco<TAB>name<TAB>pgn`".into()),
        }
        for (i, row) in rows {
            if row.trim().is_empty() {
                continue;
            }
            let mut cells = row.split('\t');
            let (Some(eco), Some(name), Some(pgn), None) =
                (cells.next(), cells.next(), cells.next(), cells.next())
            else {
                return Err(format!("line {}: not three tab-separated cells", i + 1));
            };
            let (key, plies) = line_key(pgn).map_err(|e| format!("line {}: {e}", i + 1))?;
            self.lines.entry(key).or_insert(Line {
                eco: eco.to_string(),
                name: name.to_string(),
                plies,
            });
        }
        Ok(())
    }

    /// The table as a frame: key (i64 with the u64's bits, as in the
    /// dataset), eco, opening, line plies.
    fn frame(&self) -> PolarsResult<DataFrame> {
        let mut rows: Vec<(&u64, &Line)> = self.lines.iter().collect();
        rows.sort_unstable_by_key(|(k, _)| **k);
        df!(
            KEY => rows.iter().map(|(k, _)| **k as i64).collect::<Vec<_>>(),
            col::ECO => rows.iter().map(|(_, l)| l.eco.as_str()).collect::<Vec<_>>(),
            col::OPENING => rows.iter().map(|(_, l)| l.name.as_str()).collect::<Vec<_>>(),
            LINE_PLIES => rows.iter().map(|(_, l)| l.plies).collect::<Vec<_>>(),
        )
    }
}

/// A position's Polyglot key (i64 bits) in [`position_keys`].
pub const KEY: &str = "key";
const LINE_PLIES: &str = "line_plies";

/// The Polyglot key of the position a line of SAN moves (with move numbers,
/// as in the table's `pgn` column) ends in, and its plies.
pub fn line_key(pgn: &str) -> Result<(u64, u32), String> {
    let mut pos = Chess::default();
    let mut plies = 0u32;
    for tok in pgn.split_whitespace() {
        // Move numbers: `1.` (and `1...`).
        if tok.ends_with('.') && tok.starts_with(|c: char| c.is_ascii_digit()) {
            continue;
        }
        let m = San::from_ascii(tok.trim_end_matches(['+', '#']).as_bytes())
            .ok()
            .and_then(|san| san.to_move(&pos).ok())
            .ok_or_else(|| format!("illegal move {tok} in \"{pgn}\""))?;
        pos.play_unchecked(m);
        plies += 1;
    }
    Ok((pos.zobrist_hash::<Zobrist64>(EnPassantMode::Legal).0, plies))
}

/// Every position of the games as (`game_id`, `ply`, [`KEY`]): the position
/// after `ply` plies, 0 being the start position.
pub fn position_keys(games: LazyFrame, moves: LazyFrame) -> Result<LazyFrame, Error> {
    let starts = games.select([
        col(col::GAME_ID),
        lit(0).cast(DataType::UInt32).alias(col::PLY),
        col(col::START_KEY).alias(KEY),
    ]);
    let plies = moves.select([
        col(col::GAME_ID),
        col(col::PLY),
        col(col::POSITION_KEY).alias(KEY),
    ]);
    Ok(concat([starts, plies], UnionArgs::default())?)
}

/// One row per game of `games`: the deepest table line whose final position
/// the game reaches (its start position included), the ply where it does
/// (the first time; the latest such ply between lines of equal depth), the
/// game's ECO tag and whether it agrees, and a Chess960 game's start
/// position, its name when it reaches no line: the `openings` table.
pub fn classify(
    games: LazyFrame,
    moves: LazyFrame,
    table: &OpeningTable,
) -> Result<DataFrame, Error> {
    let keys: Series = Series::new(
        KEY.into(),
        table.lines.keys().map(|&k| k as i64).collect::<Vec<_>>(),
    );
    // The table's README: play the game backwards until a named position is
    // found, so the last named position of the game names it (not the
    // deepest line reached: a deeper line reached earlier loses to a later,
    // shallower one, as in the Najdorf's English Attack → Opocensky).
    let best = position_keys(games.clone(), moves)?
        .filter(col(KEY).is_in(lit(keys).implode(false), false))
        .join(
            table.frame()?.lazy(),
            [col(KEY)],
            [col(KEY)],
            JoinArgs::new(JoinType::Inner),
        )
        .sort(
            [col::GAME_ID, col::PLY],
            SortMultipleOptions::default().with_order_descending_multi([false, true]),
        )
        .group_by_stable([col(col::GAME_ID)])
        .agg([
            col(col::ECO).first(),
            col(col::OPENING).first(),
            col(col::PLY).first().alias(opening_col::OPENING_PLY),
        ]);
    let tag = col(opening_col::ECO_TAG);
    let [sp_white, sp_black] = opening_col::CHESS960_SP;
    // The start position's name applies from ply 0.
    let named_by_start = col(col::ECO)
        .is_null()
        .and(col(chess960::NAME).is_not_null());
    // Why a game has no name: the table's lines start from the standard
    // position, so a set-up start may reach none of them; a Chess960 game
    // is named by its start unless a side's back rank is no arrangement.
    let unclassified = when(col(col::ECO).is_not_null().or(named_by_start.clone()))
        .then(lit(NULL).cast(DataType::String))
        .when(col(col::VARIANT).eq(lit("chess960")))
        .then(lit(
            "Chess960: a back rank of the start position is no Chess960 arrangement",
        ))
        .when(col(col::PLIES).eq(lit(0)))
        .then(lit("no moves"))
        .when(col(col::START_FEN).is_not_null())
        .then(lit("set-up start: no table line's position reached"))
        .otherwise(lit("no table line's position reached"))
        .alias(opening_col::UNCLASSIFIED);
    let out = games
        .clone()
        .select([
            col(col::GAME_ID),
            col(col::ECO).alias(opening_col::ECO_TAG),
            col(col::VARIANT),
            col(col::START_FEN),
            col(col::PLIES),
        ])
        .join(
            best,
            [col(col::GAME_ID)],
            [col(col::GAME_ID)],
            JoinArgs::new(JoinType::Left),
        )
        .join(
            chess960::start_positions(games)?.lazy(),
            [col(col::GAME_ID)],
            [col(col::GAME_ID)],
            JoinArgs::new(JoinType::Left),
        )
        .select([
            col(col::GAME_ID),
            col(col::ECO),
            col(col::OPENING).fill_null(col(chess960::NAME)),
            when(named_by_start)
                .then(lit(0).cast(DataType::UInt16))
                .otherwise(col(opening_col::OPENING_PLY))
                .alias(opening_col::OPENING_PLY),
            tag.clone(),
            when(tag.clone().is_null().or(col(col::ECO).is_null()))
                .then(lit(NULL).cast(DataType::Boolean))
                .otherwise(tag.eq(col(col::ECO)))
                .alias(opening_col::ECO_AGREES),
            unclassified,
            col(sp_white),
            col(sp_black),
        ])
        .sort([col::GAME_ID], SortMultipleOptions::default())
        .collect()?;
    Ok(out)
}

/// The counts of an `openings` table: games, classified (named by a line or
/// by a Chess960 start), with an ECO tag,
/// tagged and classified, agreeing, and the shares (percent) classified and
/// agreeing (of the tagged and classified).
pub fn summary(openings: LazyFrame) -> LazyFrame {
    let n = |e: Expr| e.sum().cast(DataType::UInt32);
    // Null, not NaN, when nothing was compared.
    let pct = |a: &str, b: &str| crate::metrics::standings::pct(col(a), col(b));
    openings
        .select([
            len().alias(summary_col::GAMES),
            n(col(col::OPENING).is_not_null()).alias(summary_col::CLASSIFIED),
            n(col(opening_col::ECO_TAG).is_not_null()).alias(summary_col::ECO_TAGGED),
            n(col(opening_col::ECO_AGREES).is_not_null()).alias(summary_col::COMPARED),
            n(col(opening_col::ECO_AGREES).fill_null(false)).alias(summary_col::AGREEING),
        ])
        .with_columns([
            pct(summary_col::CLASSIFIED, summary_col::GAMES).alias(summary_col::CLASSIFIED_PCT),
            pct(summary_col::AGREEING, summary_col::COMPARED).alias(summary_col::AGREEING_PCT),
        ])
}

/// Columns of [`summary`].
pub mod summary_col {
    pub const GAMES: &str = "games";
    pub const CLASSIFIED: &str = "classified";
    pub const ECO_TAGGED: &str = "eco_tagged";
    pub const COMPARED: &str = "tagged_and_classified";
    pub const AGREEING: &str = "agreeing";
    pub const CLASSIFIED_PCT: &str = "classified_pct";
    pub const AGREEING_PCT: &str = "agreeing_pct";
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_keys_are_polyglot_keys_of_the_final_position() {
        // Published Polyglot vectors (see evallab-pgn's game tests).
        assert_eq!(line_key("").unwrap(), (0x463b_9618_1691_fc9c, 0));
        assert_eq!(
            line_key("1. e4 d5 2. e5 f5").unwrap(),
            (0x22a4_8b5a_8e47_ff78, 4)
        );
        assert!(line_key("1. e5").unwrap_err().contains("illegal move e5"));
    }

    #[test]
    fn a_transposed_position_has_one_name() {
        let mut t = OpeningTable::default();
        t.add_tsv("eco\tname\tpgn\nD06\tA\t1. d4 d5 2. c4\nA09\tB\t1. c4 d5 2. d4\n")
            .unwrap();
        assert_eq!(t.lines.len(), 1);
        assert_eq!(t.lines.values().next().unwrap().eco, "D06");
        assert!(t.add_tsv("eco\tpgn\n").is_err());
    }
}
