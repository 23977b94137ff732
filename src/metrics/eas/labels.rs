//! Per-game EAS labels: the reference's pattern files matched against each
//! game's material sequence ([`super::matcher`]), the duplicate key,
//! irregular terminations and bad draws. One row per game.
//!
//! The labels are computed part by part (the games of a part and their moves
//! are written together), so memory is bounded by one part; the duplicate
//! flag is a second pass over the small `dup_key` column of all parts.

use std::collections::{HashMap, HashSet};

use polars::prelude::*;
use shakmaty::fen::Fen;

use super::matcher::Matcher;
use super::patterns::{Material, PatternFile, files};
use super::rules::{self, game_plies_from_fen};
use crate::metrics::GAME_NAMING;
use crate::schema::col;

/// Column names of the labels table, declared in [`crate::schema::EAS_LABELS`].
pub use crate::schema::eas_col as cols;

/// Start position material of a game (`None`: standard start), its FEN move
/// number and whether Black moves first.
fn start_material(fen: Option<&str>) -> Result<(Material, u32, bool), String> {
    let Some(fen) = fen else {
        return Ok((Material::START, 1, false));
    };
    let f: Fen = fen.parse().map_err(|e| format!("invalid FEN {fen}: {e}"))?;
    let setup = f.as_setup();
    let m = setup.board.material();
    let side = |c: &shakmaty::ByRole<u8>| [c.pawn, c.knight, c.bishop, c.rook, c.queen];
    Ok((
        Material {
            white: side(&m.white),
            black: side(&m.black),
        },
        setup.fullmoves.get(),
        setup.turn == shakmaty::Color::Black,
    ))
}

/// FNV-1a over the UCI moves and the start FEN: the duplicate key.
fn fnv(parts: impl Iterator<Item = impl AsRef<[u8]>>) -> i64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for p in parts {
        for &b in p.as_ref().iter().chain(b" ") {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    (h >> 1) as i64
}

/// Index of `no_endgame_draws` among the [`Labeller`]'s files (after the two
/// sacrifice chains).
const ENDGAME_FILE: usize = 12;

/// The compiled pattern files, reused across parts (the per-material cache
/// grows with the distinct materials seen, not with the games).
#[derive(Debug)]
pub struct Labeller {
    matcher: Matcher,
}

impl Default for Labeller {
    fn default() -> Self {
        Self::new()
    }
}

impl Labeller {
    /// The reference's files: the sacrifice chains with fixed colours (`-y`),
    /// `no_endgame_draws` with either colour (`-z`).
    pub fn new() -> Labeller {
        let parse = |(name, text): (&'static str, &str), either| {
            // Vendored files, all checked by the patterns tests.
            PatternFile::parse(name, text, either).expect("vendored pattern file")
        };
        let mut all: Vec<PatternFile> = files::SACRIFICE
            .iter()
            .flatten()
            .map(|&f| parse(f, false))
            .collect();
        all.push(parse(files::NO_ENDGAME_DRAWS, true));
        debug_assert_eq!(all[ENDGAME_FILE].name, files::NO_ENDGAME_DRAWS.0);
        Labeller {
            matcher: Matcher::new(all),
        }
    }

    /// The labels of one part's games (every column but `duplicate`).
    pub fn part(&mut self, games: LazyFrame, moves: LazyFrame) -> PolarsResult<DataFrame> {
        let g = games
            .select([
                col(col::GAME_ID),
                col(col::EVENT),
                col(col::ROUND),
                col(col::WHITE),
                col(col::BLACK),
                col(col::RESULT),
                col(col::TERMINATION),
                col(col::START_FEN),
            ])
            .collect()?;
        let material_cols = [
            col::WHITE_PAWNS,
            col::WHITE_KNIGHTS,
            col::WHITE_BISHOPS,
            col::WHITE_ROOKS,
            col::WHITE_QUEENS,
            col::BLACK_PAWNS,
            col::BLACK_KNIGHTS,
            col::BLACK_BISHOPS,
            col::BLACK_ROOKS,
            col::BLACK_QUEENS,
        ];
        let mut sel = vec![col(col::GAME_ID), col(col::UCI)];
        sel.extend(material_cols.iter().map(|c| col(*c)));
        let mut m = moves.select(sel).collect()?;
        // One chunk per column: the counts are read as plain slices.
        m.rechunk_mut();
        let m_gid = m.column(col::GAME_ID)?.i64()?;
        let m_uci = m.column(col::UCI)?.str()?;
        let mat: Vec<&[u8]> = material_cols
            .iter()
            .map(|c| {
                m.column(c)
                    .and_then(|c| c.u8())
                    .and_then(|c| c.cont_slice())
            })
            .collect::<PolarsResult<_>>()?;
        // Moves of a game are contiguous (written game by game).
        let mut ranges: HashMap<i64, (usize, usize)> = HashMap::new();
        for (i, id) in m_gid.iter().enumerate() {
            let id = id.unwrap_or_default();
            ranges
                .entry(id)
                .and_modify(|r| r.1 = i + 1)
                .or_insert((i, i + 1));
        }
        let gid = g.column(col::GAME_ID)?.i64()?;
        let result = g.column(col::RESULT)?.str()?;
        let term = g.column(col::TERMINATION)?.str()?;
        let fen = g.column(col::START_FEN)?.str()?;
        let n = g.height();
        let mut winner: Vec<Option<&str>> = Vec::with_capacity(n);
        let mut plies_fen = Vec::with_capacity(n);
        let (mut endgame, mut dup_key, mut irregular) = (
            Vec::with_capacity(n),
            Vec::with_capacity(n),
            Vec::with_capacity(n),
        );
        let mut sac_match = [Vec::with_capacity(n), Vec::with_capacity(n)];
        let mut sac_depth = [Vec::with_capacity(n), Vec::with_capacity(n)];
        let mut sac1_ply = [Vec::with_capacity(n), Vec::with_capacity(n)];
        let mut bad = [Vec::with_capacity(n), Vec::with_capacity(n)];
        let mut seq: Vec<Material> = Vec::with_capacity(512);
        for i in 0..n {
            let id = gid.get(i).unwrap_or_default();
            let (start, fullmove, black_first) =
                start_material(fen.get(i)).map_err(|e| polars_err!(ComputeError: "{e}"))?;
            let (a, b) = ranges.get(&id).copied().unwrap_or((0, 0));
            seq.clear();
            seq.push(start);
            seq.extend((a..b).map(|r| {
                let v = |k: usize| mat[k][r];
                Material {
                    white: [v(0), v(1), v(2), v(3), v(4)],
                    black: [v(5), v(6), v(7), v(8), v(9)],
                }
            }));
            let first = self.matcher.first_matches(&seq);
            let drawn = result.get(i) == Some("1/2-1/2");
            winner.push(match result.get(i) {
                Some("1-0") => Some("w"),
                Some("0-1") => Some("b"),
                _ => None,
            });
            plies_fen.push(game_plies_from_fen(fullmove, black_first, (b - a) as u32));
            let reached_endgame = first[ENDGAME_FILE].is_some();
            endgame.push(reached_endgame);
            dup_key.push(fnv(std::iter::once(fen.get(i).unwrap_or("").as_bytes())
                .chain((a..b).map(|r| m_uci.get(r).unwrap_or("").as_bytes()))));
            irregular.push(term.get(i).is_some_and(rules::is_irregular_termination));
            let matched: [u8; 2] = [0, 1].map(|s| {
                (0..6)
                    .filter(|k| first[6 * s + k].is_some())
                    .fold(0u8, |bits, k| bits | 1 << k)
            });
            for s in 0..2 {
                sac_match[s].push(matched[s]);
                sac_depth[s].push(matched[s].trailing_ones() as u8);
                sac1_ply[s].push(
                    first[6 * s]
                        .map(|p| game_plies_from_fen(fullmove, black_first, p).max(0) as u32),
                );
                let (down, up) = (matched[s] & 1 == 1, matched[1 - s] & 1 == 1);
                bad[s].push(drawn && (!reached_endgame || up) && !down);
            }
        }
        let mut out = g.select(GAME_NAMING)?;
        let mut add = |c: Column| out.with_column(c).map(|_| ());
        add(Column::new(cols::WINNER.into(), winner))?;
        add(Column::new(cols::PLIES_FEN.into(), plies_fen))?;
        add(Column::new(cols::ENDGAME.into(), endgame))?;
        add(Column::new(cols::DUP_KEY.into(), dup_key))?;
        add(Column::new(cols::IRREGULAR.into(), irregular))?;
        for s in 0..2 {
            add(Column::new(
                cols::SAC_MATCH[s].into(),
                std::mem::take(&mut sac_match[s]),
            ))?;
            add(Column::new(
                cols::SAC_DEPTH[s].into(),
                std::mem::take(&mut sac_depth[s]),
            ))?;
            add(Column::new(
                cols::SAC1_PLY[s].into(),
                std::mem::take(&mut sac1_ply[s]),
            ))?;
            add(Column::new(
                cols::BAD_DRAW[s].into(),
                std::mem::take(&mut bad[s]),
            ))?;
        }
        Ok(out)
    }
}

/// The labels of a dataset from its parts, each given as the (games, moves)
/// scans of one part: one part in memory at a time, then
/// [`mark_duplicates`].
pub fn labels(parts: impl IntoIterator<Item = (LazyFrame, LazyFrame)>) -> PolarsResult<DataFrame> {
    let mut labeller = Labeller::new();
    let frames = parts
        .into_iter()
        .map(|(games, moves)| labeller.part(games, moves))
        .collect::<PolarsResult<Vec<_>>>()?;
    mark_duplicates(frames)
}

/// The reduce step of the labels: the parts' labels ([`Labeller::part`]),
/// in the dataset's part order, concatenated with the `duplicate` flag (an
/// earlier game, in part order, has the same `dup_key`).
pub fn mark_duplicates(mut frames: Vec<DataFrame>) -> PolarsResult<DataFrame> {
    let mut out = match frames.len() {
        0 => return Err(polars_err!(NoData: "no parts to label")),
        1 => frames.pop().unwrap_or_default(),
        _ => {
            let lazy: Vec<LazyFrame> = frames.into_iter().map(IntoLazy::lazy).collect();
            concat(lazy, UnionArgs::default())?.collect()?
        }
    };
    let mut seen = HashSet::new();
    let duplicate: Vec<bool> = out
        .column(cols::DUP_KEY)?
        .i64()?
        .iter()
        .map(|k| !seen.insert(k))
        .collect();
    let at = out.get_column_index(cols::DUP_KEY).unwrap_or(0) + 1;
    out.insert_column(at, Column::new(cols::DUPLICATE.into(), duplicate))?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv_is_order_sensitive() {
        assert_ne!(fnv(["e2e4", "e7e5"].iter()), fnv(["e7e5", "e2e4"].iter()));
        assert_eq!(fnv(["a"].iter()), fnv(["a"].iter()));
    }

    #[test]
    fn start_material_from_fen() {
        let (m, fm, black) = start_material(Some("4k3/8/8/8/8/8/4P3/4K3 b - - 0 40")).unwrap();
        assert_eq!(
            (m.white, m.black, fm, black),
            ([1, 0, 0, 0, 0], [0; 5], 40, true)
        );
        assert_eq!(start_material(None).unwrap().0, Material::START);
    }
}
