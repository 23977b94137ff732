//! Chunks of whole games, for the commands whose work grows with the plies:
//! each reads one chunk's moves at a time, so memory holds about
//! [`CHUNK_PLIES`] plies whatever the size of the archive.
//!
//! A chunk is consecutive games of the games table, and ingest writes the
//! moves table in the same order, so a chunk's plies are a slice of the moves
//! table, which the Parquet reader reads alone (a filter on the hashed game
//! ids would read the whole table for every chunk). A moves table in another
//! order still works: its chunk is then found by id ([`GameChunks::moves`]).

use std::collections::HashSet;
use std::ops::Range;

use polars::prelude::*;

use crate::Error;
use crate::dataset::game_id_in;
use crate::schema::col;

/// At most about this many plies (whole games) go into one chunk: with some
/// 160–300 bytes a ply at a command's peak, a chunk stays within a few
/// hundred MB.
pub const CHUNK_PLIES: u64 = 2_000_000;

/// Index ranges of whole games, about `max_plies` plies each, over `plies`
/// (each game's, in the caller's order); at least one range, so that an
/// empty selection still yields its (empty) tables.
pub fn chunks_of_games(
    plies: impl IntoIterator<Item = Option<u64>>,
    max_plies: u64,
) -> Vec<Range<usize>> {
    let mut ranges: Vec<Range<usize>> = Vec::new();
    let mut in_chunk = 0;
    for (i, n) in plies.into_iter().enumerate() {
        match ranges.last_mut() {
            Some(r) if in_chunk < max_plies => r.end = i + 1,
            _ => {
                ranges.push(i..i + 1);
                in_chunk = 0;
            }
        }
        in_chunk += n.unwrap_or(0);
    }
    if ranges.is_empty() {
        ranges.push(0..0);
    }
    ranges
}

/// The selected games of a games table in chunks of whole games, in the
/// table's order; the chunks without a selected game are left out.
pub struct GameChunks {
    parts: Vec<Part>,
}

/// A chunk: where its plies start in the moves table, each game's id and
/// plies, and its selected games.
#[derive(Debug, PartialEq)]
struct Part {
    offset: u64,
    games: Vec<(i64, u32)>,
    selected: Vec<i64>,
}

impl Part {
    /// An empty chunk whose plies start at row `offset` of the moves table.
    fn at(offset: u64) -> Part {
        Part {
            offset,
            games: Vec::new(),
            selected: Vec::new(),
        }
    }
}

impl GameChunks {
    /// The chunks of about `chunk_plies` plies of the games table `games`
    /// (its game_id and plies are read) that hold a game of `selected` (a
    /// query over the games with their game_id, of which only that is read);
    /// one empty chunk when nothing is selected.
    pub fn new(
        games: LazyFrame,
        selected: LazyFrame,
        chunk_plies: u64,
    ) -> Result<GameChunks, Error> {
        let order = games
            .select([col(col::GAME_ID), col(col::PLIES)])
            .collect()?;
        let selected = selected.select([col(col::GAME_ID)]).collect()?;
        GameChunks::plan(&order, &selected, chunk_plies)
    }

    /// [`GameChunks::new`] of the games table as read (`order`: game_id, plies).
    fn plan(
        order: &DataFrame,
        selected: &DataFrame,
        chunk_plies: u64,
    ) -> Result<GameChunks, Error> {
        let chosen: HashSet<i64> = selected
            .column(col::GAME_ID)?
            .i64()?
            .into_no_null_iter()
            .collect();
        let ids = order.column(col::GAME_ID)?.i64()?;
        let plies = order.column(col::PLIES)?.u32()?;
        let mut parts = Vec::new();
        let mut part = Part::at(0);
        let mut rows = 0u64;
        for (id, n) in ids.into_no_null_iter().zip(plies.iter()) {
            let n = n.unwrap_or(0);
            part.games.push((id, n));
            if chosen.contains(&id) {
                part.selected.push(id);
            }
            rows += u64::from(n);
            if rows >= chunk_plies {
                let next = Part::at(part.offset + rows);
                parts.push(std::mem::replace(&mut part, next));
                rows = 0;
            }
        }
        parts.push(part);
        parts.retain(|p| !p.selected.is_empty());
        if parts.is_empty() {
            parts.push(Part::at(0));
        }
        Ok(GameChunks { parts })
    }

    /// How many chunks there are (at least one).
    pub fn len(&self) -> usize {
        self.parts.len()
    }

    /// Never: an empty selection is one empty chunk.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// Chunk `i`'s selected games' rows of `moves` (a query over the whole
    /// moves table, with its game_id): a slice of it, checked to hold the
    /// chunk's games (their ids are read for that); else, in a table of
    /// another order, found by id. Lazy, so that the caller's query reads
    /// only the columns it needs.
    pub fn moves(&self, i: usize, moves: &LazyFrame) -> Result<LazyFrame, Error> {
        let part = &self.parts[i];
        let rows: u64 = part.games.iter().map(|&(_, n)| u64::from(n)).sum();
        let slice = moves.clone().slice(part.offset as i64, rows as IdxSize);
        let ids = slice.clone().select([col(col::GAME_ID)]).collect()?;
        let mv = if holds(&ids, &part.games)? {
            slice
        } else {
            let ids: Vec<i64> = part.games.iter().map(|&(g, _)| g).collect();
            moves.clone().filter(game_id_in(&ids))
        };
        Ok(mv.filter(game_id_in(&part.selected)))
    }

    /// Chunk `i`'s rows of `games` (any frame with a game_id).
    pub fn games(&self, i: usize, games: LazyFrame) -> LazyFrame {
        games.filter(game_id_in(&self.parts[i].selected))
    }

    /// `f` of each chunk's rows of `games` and `moves` (as
    /// [`GameChunks::games`] and [`GameChunks::moves`]), chunk after chunk.
    pub fn each<T>(
        &self,
        games: &LazyFrame,
        moves: &LazyFrame,
        mut f: impl FnMut(LazyFrame, LazyFrame) -> Result<T, Error>,
    ) -> Result<Vec<T>, Error> {
        (0..self.len())
            .map(|i| f(self.games(i, games.clone()), self.moves(i, moves)?))
            .collect()
    }

    /// `query` of each chunk ([`GameChunks::each`]) collected, the chunks'
    /// rows one under the other.
    pub fn map(
        &self,
        games: &LazyFrame,
        moves: &LazyFrame,
        query: impl Fn(LazyFrame, LazyFrame) -> Result<LazyFrame, Error>,
    ) -> Result<DataFrame, Error> {
        stack(self.each(games, moves, |g, m| Ok(query(g, m)?.collect()?))?)
    }
}

/// Whether `mv` holds exactly the plies of `games`, each game's together and
/// in this order.
fn holds(mv: &DataFrame, games: &[(i64, u32)]) -> Result<bool, Error> {
    let ids = mv.column(col::GAME_ID)?.i64()?;
    let mut rows = ids.iter();
    for &(g, n) in games {
        for _ in 0..n {
            if rows.next() != Some(Some(g)) {
                return Ok(false);
            }
        }
    }
    Ok(rows.next().is_none())
}

/// The frames one under the other (at least one).
pub fn stack(frames: Vec<DataFrame>) -> Result<DataFrame, Error> {
    let mut frames = frames.into_iter();
    let mut df = frames.next().expect("at least one chunk");
    for f in frames {
        df.vstack_mut(&f)?;
    }
    df.rechunk_mut_par();
    Ok(df)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids_plies(games: &[(i64, u32)]) -> DataFrame {
        df!(
            col::GAME_ID => games.iter().map(|g| g.0).collect::<Vec<_>>(),
            col::PLIES => games.iter().map(|g| g.1).collect::<Vec<_>>(),
        )
        .unwrap()
    }

    /// Whole games of at least the chunk's plies each (the last one shorter),
    /// where the moves table holds them; a chunk without a selected game is
    /// not read (a selected game without plies counts), and nothing selected
    /// is one empty chunk.
    #[test]
    fn chunks_cut_whole_games_and_skip_unselected_ones() {
        let order = ids_plies(&[(9, 3), (4, 0), (7, 2), (1, 5), (8, 4), (2, 1)]);
        let selected = ids_plies(&[(9, 3), (4, 0), (2, 1)]);
        let got = GameChunks::plan(&order, &selected, 5).unwrap();
        // Chunks: 9 4 7 (5 plies), 1 (5), 8 2 (5): the middle one has no
        // selected game.
        assert_eq!(
            got.parts,
            [
                Part {
                    offset: 0,
                    games: vec![(9, 3), (4, 0), (7, 2)],
                    selected: vec![9, 4]
                },
                Part {
                    offset: 10,
                    games: vec![(8, 4), (2, 1)],
                    selected: vec![2]
                },
            ]
        );
        let none = GameChunks::plan(&order, &ids_plies(&[]), 5).unwrap();
        assert_eq!((none.len(), none.parts[0].games.len()), (1, 0));
    }

    #[test]
    fn holds_only_the_games_plies_in_their_order() {
        let mv = |ids: &[i64]| df!(col::GAME_ID => ids).unwrap();
        let games = [(9, 2), (4, 0), (7, 1)];
        assert!(holds(&mv(&[9, 9, 7]), &games).unwrap());
        assert!(!holds(&mv(&[9, 7, 9]), &games).unwrap(), "interleaved");
        assert!(!holds(&mv(&[9, 9, 7, 7]), &games).unwrap(), "a ply more");
        assert!(!holds(&mv(&[9, 9]), &games).unwrap(), "a ply fewer");
    }

    /// A chunk's moves: the slice where the table is in the games' order, the
    /// same rows found by id where it is not, and only the selected games'.
    #[test]
    fn a_chunks_moves_by_slice_or_by_id() {
        let order = ids_plies(&[(9, 2), (7, 1), (5, 2)]);
        let selected = ids_plies(&[(9, 2), (5, 2)]);
        let chunks = GameChunks::plan(&order, &selected, 3).unwrap();
        assert_eq!(chunks.len(), 2);
        let table = |ids: &[i64], ply: &[u32]| df!(col::GAME_ID => ids, col::PLY => ply).unwrap();
        let rows = |df: DataFrame| -> Vec<(i64, u32)> {
            let (g, p) = (
                df.column(col::GAME_ID).unwrap(),
                df.column(col::PLY).unwrap(),
            );
            g.i64()
                .unwrap()
                .into_no_null_iter()
                .zip(p.u32().unwrap().into_no_null_iter())
                .collect()
        };
        let in_order = table(&[9, 9, 7, 5, 5], &[1, 2, 1, 1, 2]).lazy();
        assert_eq!(
            rows(chunks.moves(0, &in_order).unwrap().collect().unwrap()),
            [(9, 1), (9, 2)]
        );
        assert_eq!(
            rows(chunks.moves(1, &in_order).unwrap().collect().unwrap()),
            [(5, 1), (5, 2)]
        );
        let shuffled = table(&[5, 7, 9, 5, 9], &[1, 1, 1, 2, 2]).lazy();
        assert_eq!(
            rows(chunks.moves(0, &shuffled).unwrap().collect().unwrap()),
            [(9, 1), (9, 2)]
        );
        assert_eq!(
            rows(chunks.moves(1, &shuffled).unwrap().collect().unwrap()),
            [(5, 1), (5, 2)]
        );
    }
}
