//! Which positions an analysis covers: the dataset's games selected by event,
//! player, ply range and book moves, each replayed from its start FEN.

use polars::prelude::*;
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position};

use crate::Error;
use crate::dataset::Dataset;
use crate::schema::{GAMES, MOVES, col};

/// Which games and plies to analyse.
#[derive(Debug, Clone, Default)]
pub struct Selection {
    /// The games: the statistics' one selection, its events and, as the
    /// player, its engine regex on either side
    /// ([`crate::metrics::Selection::either_side`]).
    pub games: crate::metrics::Selection,
    /// Inclusive ply range (the position before each ply is analysed).
    pub plies: Option<(u32, u32)>,
    /// Leave out positions whose played move is a book move.
    pub skip_book: bool,
    /// Only the first N selected games (in dataset order).
    pub max_games: Option<usize>,
    /// Only the K-th of N contiguous slices of the selected games, (K, N),
    /// 1-based: one shard of a distributed analysis.
    pub slice: Option<(usize, usize)>,
}

impl Selection {
    /// The ply range as stored in the manifest (`A..B`).
    pub fn plies_text(&self) -> Option<String> {
        self.plies.map(|(a, b)| format!("{a}..{b}"))
    }
}

/// The rows [from, to) of the `k`-th of `n` contiguous slices of `len` rows
/// (1-based `k`): the slices cover every row once.
///
/// ```
/// use evallab::engine::positions::slice_bounds;
/// assert_eq!(slice_bounds(10, 1, 3), (0, 3));
/// assert_eq!(slice_bounds(10, 3, 3), (6, 10));
/// assert_eq!(slice_bounds(2, 2, 3), (0, 1));
/// ```
pub fn slice_bounds(len: usize, k: usize, n: usize) -> (usize, usize) {
    (len * (k - 1) / n, len * k / n)
}

/// Parses a slice `K/N` (1 ≤ K ≤ N).
pub fn parse_slice(s: &str) -> Result<(usize, usize), String> {
    let bad = || format!("`{s}`: expected K/N with 1 <= K <= N, e.g. 3/8");
    let (k, n) = s.split_once('/').ok_or_else(bad)?;
    let (k, n): (usize, usize) = (k.parse().map_err(|_| bad())?, n.parse().map_err(|_| bad())?);
    if k == 0 || k > n {
        return Err(bad());
    }
    Ok((k, n))
}

/// Parses a ply range `A..B` (inclusive, 1-based).
pub fn parse_plies(s: &str) -> Result<(u32, u32), String> {
    let (a, b) = s
        .split_once("..")
        .ok_or_else(|| format!("`{s}`: expected A..B, e.g. 1..80"))?;
    let a: u32 = a
        .trim()
        .parse()
        .map_err(|_| format!("`{s}`: `{a}` is not a ply"))?;
    let b: u32 = b
        .trim()
        .parse()
        .map_err(|_| format!("`{s}`: `{b}` is not a ply"))?;
    if a == 0 || b < a {
        return Err(format!("`{s}`: expected 1 <= A <= B"));
    }
    Ok((a, b))
}

/// One game to analyse: its start and moves, and the plies whose preceding
/// position is wanted.
#[derive(Debug, Clone)]
pub struct GameTask {
    pub game_id: i64,
    /// `None`: the standard start position.
    pub start_fen: Option<String>,
    pub chess960: bool,
    /// Every move of the game in UCI (as the engine expects it: king-takes-rook
    /// castling for Chess960).
    pub moves: Vec<String>,
    /// Plies to analyse, ascending (1-based: ply p's position is before moves[p-1]).
    pub plies: Vec<u32>,
}

impl GameTask {
    /// The start position, in the game's castling mode.
    pub fn start(&self) -> Result<Chess, String> {
        crate::metrics::start_position(self.start_fen.as_deref(), self.chess960)
    }

    /// The moves played before `ply` (1-based).
    pub fn moves_before(&self, ply: u32) -> &[String] {
        &self.moves[..ply as usize - 1]
    }

    pub fn castling_mode(&self) -> CastlingMode {
        if self.chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        }
    }

    /// The positions before each selected ply, with their FEN.
    pub fn positions(&self) -> Result<Vec<(u32, Chess)>, String> {
        let mut pos = self.start()?;
        let mut out = Vec::with_capacity(self.plies.len());
        let mut want = self.plies.iter().peekable();
        for (ply, m) in (1..).zip(&self.moves) {
            if want.peek() == Some(&&ply) {
                out.push((ply, pos.clone()));
                want.next();
            }
            if want.peek().is_none() {
                break;
            }
            let uci: UciMove = m.parse().map_err(|e| format!("ply {ply}: `{m}`: {e}"))?;
            let mv = uci
                .to_move(&pos)
                .map_err(|e| format!("ply {ply}: `{m}`: {e}"))?;
            pos.play_unchecked(mv);
        }
        Ok(out)
    }
}

/// FEN of a position (for failure rows and messages).
pub fn fen_of(pos: &Chess) -> String {
    Fen::from_position(pos, EnPassantMode::Legal).to_string()
}

/// The selected games, in dataset order, with their moves.
pub fn select(ds: &Dataset, sel: &Selection) -> Result<Vec<GameTask>, Error> {
    let games = ds.scan(&GAMES)?.select([
        col(col::GAME_ID),
        col(col::EVENT),
        col(col::WHITE),
        col(col::BLACK),
        col(col::START_FEN),
        col(col::VARIANT),
    ]);
    let mut games = sel.games.games(games).filter(sel.games.either_side());
    if let Some(n) = sel.max_games {
        games = games.limit(n as IdxSize);
    }
    let mut games = games.collect()?;
    if let Some((k, n)) = sel.slice {
        let (from, to) = slice_bounds(games.height(), k, n);
        games = games.slice(from as i64, to - from);
    }
    let ids = games.column(col::GAME_ID)?.i64()?;
    let fens = games.column(col::START_FEN)?.str()?;
    let variants = games.column(col::VARIANT)?.str()?;
    let mut tasks: Vec<GameTask> = Vec::with_capacity(games.height());
    let mut index = std::collections::HashMap::with_capacity(games.height());
    for i in 0..games.height() {
        let Some(id) = ids.get(i) else { continue };
        index.insert(id, tasks.len());
        tasks.push(GameTask {
            game_id: id,
            start_fen: fens.get(i).map(str::to_string),
            chess960: variants.get(i) == Some("chess960"),
            moves: Vec::new(),
            plies: Vec::new(),
        });
    }
    let moves = ds
        .scan(&MOVES)?
        .select([
            col(col::GAME_ID),
            col(col::PLY),
            col(col::UCI),
            col(col::IS_BOOK),
        ])
        .join(
            games.lazy().select([col(col::GAME_ID)]),
            [col(col::GAME_ID)],
            [col(col::GAME_ID)],
            JoinArgs::new(JoinType::Semi),
        )
        .sort([col::GAME_ID, col::PLY], SortMultipleOptions::default())
        .collect()?;
    let gid = moves.column(col::GAME_ID)?.i64()?;
    let ply = moves.column(col::PLY)?.u32()?;
    let uci = moves.column(col::UCI)?.str()?;
    let book = moves.column(col::IS_BOOK)?.bool()?;
    for i in 0..moves.height() {
        let (Some(g), Some(p), Some(u)) = (gid.get(i), ply.get(i), uci.get(i)) else {
            continue;
        };
        let Some(&t) = index.get(&g) else { continue };
        let task = &mut tasks[t];
        task.moves.push(u.to_string());
        let in_range = sel.plies.is_none_or(|(a, b)| (a..=b).contains(&p));
        let skip = sel.skip_book && book.get(i) == Some(true);
        if in_range && !skip {
            task.plies.push(p);
        }
    }
    tasks.retain(|t| !t.plies.is_empty());
    Ok(tasks)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ply_ranges_parse_inclusive_and_reject_nonsense() {
        assert_eq!(parse_plies("1..80"), Ok((1, 80)));
        assert_eq!(parse_plies("12..12"), Ok((12, 12)));
        assert!(parse_plies("0..3").is_err());
        assert!(parse_plies("9..3").is_err());
        assert!(parse_plies("9").is_err());
        assert!(parse_plies("a..3").is_err());
    }

    #[test]
    fn positions_are_the_ones_before_each_selected_ply() {
        let t = GameTask {
            game_id: 1,
            start_fen: None,
            chess960: false,
            moves: ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4"]
                .map(String::from)
                .to_vec(),
            plies: vec![1, 3, 5],
        };
        let ps = t.positions().unwrap();
        let fens: Vec<_> = ps.iter().map(|(p, pos)| (*p, fen_of(pos))).collect();
        assert_eq!(
            fens,
            [
                (
                    1,
                    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".to_string()
                ),
                (
                    3,
                    "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2".to_string()
                ),
                (
                    5,
                    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3".to_string()
                ),
            ]
        );
    }
}
