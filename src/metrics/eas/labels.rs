//! Per-game EAS labels from the moves' material columns: the sacrifice level
//! and its first plies for each side, the duplicate key, irregular
//! terminations, endgames and bad draws. One row per game.

use std::collections::{HashMap, HashSet};

use polars::prelude::*;
use shakmaty::fen::Fen;

use super::rules::{self, Material, game_plies_from_fen};
use crate::schema::col;

/// Column names of the labels table, declared in [`crate::schema::EAS_LABELS`].
pub use crate::schema::eas_col as cols;

/// Start position material of a game (`None`: standard start).
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

/// Computes the per-game labels from the games and moves tables.
pub fn labels(games: LazyFrame, moves: LazyFrame) -> PolarsResult<DataFrame> {
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
    let m = moves.select(sel).collect()?;
    let m_gid = m.column(col::GAME_ID)?.i64()?;
    let m_uci = m.column(col::UCI)?.str()?;
    let mat: Vec<&UInt8Chunked> = material_cols
        .iter()
        .map(|c| m.column(c).and_then(|c| c.u8()))
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
    let (mut endgame, mut dup_key, mut duplicate, mut irregular) = (
        Vec::with_capacity(n),
        Vec::with_capacity(n),
        Vec::with_capacity(n),
        Vec::with_capacity(n),
    );
    let mut level = [Vec::with_capacity(n), Vec::with_capacity(n)];
    let mut queen = [Vec::with_capacity(n), Vec::with_capacity(n)];
    let mut level1 = [Vec::with_capacity(n), Vec::with_capacity(n)];
    let mut level_ply: [[Vec<Option<u32>>; 6]; 2] = Default::default();
    let mut bad = [Vec::with_capacity(n), Vec::with_capacity(n)];
    let mut seen = HashSet::new();
    let mut seq: Vec<Material> = Vec::with_capacity(512);
    for i in 0..n {
        let id = gid.get(i).unwrap_or_default();
        let (start, fullmove, black_first) =
            start_material(fen.get(i)).map_err(|e| polars_err!(ComputeError: "{e}"))?;
        let (a, b) = ranges.get(&id).copied().unwrap_or((0, 0));
        seq.clear();
        seq.push(start);
        for r in a..b {
            let v = |k: usize| mat[k].get(r).unwrap_or(0);
            seq.push(Material {
                white: [v(0), v(1), v(2), v(3), v(4)],
                black: [v(5), v(6), v(7), v(8), v(9)],
            });
        }
        winner.push(match result.get(i) {
            Some("1-0") => Some("w"),
            Some("0-1") => Some("b"),
            _ => None,
        });
        plies_fen.push(game_plies_from_fen(fullmove, black_first, (b - a) as u32));
        endgame.push(rules::reached_endgame(&seq));
        let key = fnv(std::iter::once(fen.get(i).unwrap_or("").as_bytes())
            .chain((a..b).map(|r| m_uci.get(r).unwrap_or("").as_bytes())));
        dup_key.push(key);
        duplicate.push(!seen.insert(key));
        irregular.push(term.get(i).is_some_and(rules::is_irregular_termination));
        for (s, white) in [(0, true), (1, false)] {
            let info = rules::sacrifice_level(&seq, white);
            level[s].push(info.level);
            queen[s].push(info.queen_sac);
            level1[s].push(rules::level1_condition_ever(&seq, white));
            for (col, ply) in level_ply[s].iter_mut().zip(info.first_ply) {
                col.push(ply);
            }
            bad[s].push(rules::is_bad_draw(&seq, white));
        }
    }
    let mut out = g.select([
        col::GAME_ID,
        col::EVENT,
        col::ROUND,
        col::WHITE,
        col::BLACK,
        col::RESULT,
    ])?;
    let mut add = |c: Column| out.with_column(c).map(|_| ());
    add(Column::new(cols::WINNER.into(), winner))?;
    add(Column::new(cols::PLIES_FEN.into(), plies_fen))?;
    add(Column::new(cols::ENDGAME.into(), endgame))?;
    add(Column::new(cols::DUP_KEY.into(), dup_key))?;
    add(Column::new(cols::DUPLICATE.into(), duplicate))?;
    add(Column::new(cols::IRREGULAR.into(), irregular))?;
    for s in 0..2 {
        add(Column::new(
            cols::SAC_LEVEL[s].into(),
            std::mem::take(&mut level[s]),
        ))?;
        add(Column::new(
            cols::QUEEN_SAC[s].into(),
            std::mem::take(&mut queen[s]),
        ))?;
        add(Column::new(
            cols::LEVEL1_PLY[s].into(),
            std::mem::take(&mut level1[s]),
        ))?;
        for (name, values) in cols::LEVEL_PLY[s].iter().zip(&mut level_ply[s]) {
            add(Column::new((*name).into(), std::mem::take(values)))?;
        }
        add(Column::new(
            cols::BAD_DRAW[s].into(),
            std::mem::take(&mut bad[s]),
        ))?;
    }
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
