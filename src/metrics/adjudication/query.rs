//! The polars side: the moves of the selected games into [`Ply`] runs (read
//! once, replayed for as many rule sets as asked, in parallel), and the
//! per-game outcomes judged and summed as lazy queries.

use std::collections::HashMap;

use polars::prelude::*;
use rayon::prelude::*;

use shakmaty::uci::UciMove;
use shakmaty::{Chess, Position};

use super::castling::{CastlingRooks, start_position};
use super::replay::{Fire, MATE, Outcome, Ply, replay};
use super::rules::RuleSet;
use crate::Error;
use crate::metrics::Selection;
use crate::schema::{col as c, metric};

// Loader-internal columns (not in any table): TCEC's piece and pawn counts.
const PAWNS: &str = "pawns";
const PIECES: &str = "pieces";
// Clock comparison (not a table either): a placeholder eval in the window.
const PLACEHOLDER_IN_WINDOW: &str = "placeholder_in_window";

/// Output columns of the adjudication tables (declared in [`crate::schema::metric`]).
pub use crate::schema::metric::adjudication as cols;

/// The verdicts (`verdict` column).
pub mod verdict {
    pub const AGREE: &str = "agree";
    pub const WRONG: &str = "wrong";
    pub const CENSORED: &str = "censored";
    /// Played to its end, the rule never fired.
    pub const NONE: &str = "none";
}

/// The plies of the selected games, grouped per game, ready to replay.
pub struct Loaded {
    /// game_id, event, round, white, black, result, termination,
    /// termination_details, plies; one row per game that has moves.
    pub games: DataFrame,
    /// Per game (in `games` order): its range in `plies`.
    pub spans: Vec<(usize, usize)>,
    pub plies: Vec<Ply>,
    /// Recorded move time per ply (ms).
    pub time_ms: Vec<Option<i64>>,
    /// The archive's clocks per ply (loaded with `clocks`).
    pub rd: Vec<Option<i16>>,
    pub rr: Vec<Option<i16>>,
}

/// Tablebases to probe (`--syzygy`): the game's result in a position (None:
/// not in the tables).
pub trait Probe: Sync {
    fn probe(&self, pos: &Chess) -> Option<Outcome>;
}

/// The selection's games (its events; either player one of its engines,
/// after its families) among `games`, and their moves. With `tb`, the
/// positions with at most that many men and no castling right are probed.
pub fn load(
    games: LazyFrame,
    moves: LazyFrame,
    sel: &Selection,
    clocks: bool,
    tb: Option<(&dyn Probe, u32)>,
) -> Result<Loaded, Error> {
    let (games, moves) = sel.events(games, moves);
    let families = &sel.families;
    let games = games.select([
        col(c::GAME_ID),
        col(c::EVENT),
        col(c::ROUND),
        families.apply(col(c::WHITE)).alias(c::WHITE),
        families.apply(col(c::BLACK)).alias(c::BLACK),
        col(c::RESULT),
        col(c::TERMINATION),
        col(c::TERMINATION_DETAILS),
        col(c::PLIES),
        col(c::START_FEN),
    ]);
    let games = games
        .filter(sel.either_side())
        .filter(col(c::PLIES).gt(lit(0)))
        .sort([c::GAME_ID], SortMultipleOptions::default())
        .collect()?;
    let mut cols = vec![
        col(c::GAME_ID),
        col(c::PLY),
        // A flag, not a string: 1 bit a ply instead of 16 bytes.
        col(c::SIDE).eq(lit("w")).alias(c::SIDE),
        col(c::IS_BOOK),
        col(c::EVAL_CP),
        col(c::MATE),
        col(c::IS_CHECK),
        col(c::IS_MATE),
        col(c::TIME_MS),
        col(c::TIME_LEFT_MS),
        col(c::HALFMOVE_CLOCK),
        col(c::REPETITION),
        col(c::DEAD_MATERIAL),
        col(c::MATERIAL_BALANCE),
        col(c::UCI),
        col(c::DEPTH),
        (col(c::WHITE_PAWNS) + col(c::BLACK_PAWNS)).alias(PAWNS),
        [
            c::WHITE_KNIGHTS,
            c::WHITE_BISHOPS,
            c::WHITE_ROOKS,
            c::WHITE_QUEENS,
            c::BLACK_KNIGHTS,
            c::BLACK_BISHOPS,
            c::BLACK_ROOKS,
            c::BLACK_QUEENS,
        ]
        .into_iter()
        .fold(lit(2u8), |n, k| n + col(k))
        .alias(PIECES),
    ];
    if clocks {
        cols.extend([col(c::RD), col(c::RR)]);
    }
    let moves = if sel.engine.is_some() {
        moves.join(
            games.clone().lazy().select([col(c::GAME_ID)]),
            [col(c::GAME_ID)],
            [col(c::GAME_ID)],
            JoinArgs::new(JoinType::Semi),
        )
    } else {
        moves
    };
    let mut mv = moves.select(cols).collect()?;
    // Ingest writes each game's plies together and in order; sorting 2 M rows
    // would double the run time, so only an unordered table is sorted.
    if !in_game_order(&mv)? {
        mv = mv.sort([c::GAME_ID, c::PLY], SortMultipleOptions::default())?;
    }
    // The loop below reads row by row: `get` on a column of many chunks
    // searches them every time (the whole 4x archive took 10x the 1x time).
    mv.rechunk_mut_par();
    let ids = mv.column(c::GAME_ID)?.i64()?;
    let side = mv.column(c::SIDE)?.bool()?;
    let book = mv.column(c::IS_BOOK)?.bool()?;
    let cp = mv.column(c::EVAL_CP)?.i32()?;
    let mate = mv.column(c::MATE)?.i16()?;
    let check = mv.column(c::IS_CHECK)?.bool()?;
    let mated = mv.column(c::IS_MATE)?.bool()?;
    let left = mv.column(c::TIME_LEFT_MS)?.i64()?;
    let half = mv.column(c::HALFMOVE_CLOCK)?.u16()?;
    let rep = mv.column(c::REPETITION)?.u8()?;
    let dead = mv.column(c::DEAD_MATERIAL)?.bool()?;
    let mat = mv.column(c::MATERIAL_BALANCE)?.i16()?;
    let pawns = mv.column(PAWNS)?.u8()?;
    let pieces = mv.column(PIECES)?.u8()?;
    let depth = mv.column(c::DEPTH)?.i16()?;
    let uci = mv.column(c::UCI)?.str()?;
    let fens: HashMap<i64, &str> = games
        .column(c::GAME_ID)?
        .i64()?
        .iter()
        .zip(games.column(c::START_FEN)?.str()?.iter())
        .filter_map(|(g, f)| Some((g?, f?)))
        .collect();
    let n = mv.height();
    let mut plies = Vec::with_capacity(n);
    let mut rooks = CastlingRooks::new(None);
    // The position, replayed only when tablebases are probed.
    let mut board: Option<Chess> = None;
    for i in 0..n {
        let white = side.get(i) == Some(true);
        if i == 0 || ids.get(i) != ids.get(i - 1) {
            let g = ids.get(i).unwrap_or_default();
            let start = start_position(fens.get(&g).copied());
            rooks = CastlingRooks::new(start.as_ref());
            board = start.filter(|_| tb.is_some());
        }
        let halfmove = half.get(i).unwrap_or(0);
        let mv = uci.get(i).unwrap_or("");
        let gives_up = rooks.play(mv);
        let (ply_pawns, ply_pieces) = (pawns.get(i).unwrap_or(0), pieces.get(i).unwrap_or(0));
        let mut tb_result = None;
        if let (Some((probe, men)), Some(pos)) = (tb, board.take()) {
            // A move that does not parse or is illegal ends the replay of this game.
            let m = mv
                .parse::<UciMove>()
                .ok()
                .and_then(|u| u.to_move(&pos).ok());
            board = m.map(|m| {
                let mut pos = pos;
                pos.play_unchecked(m);
                pos
            });
            if let Some(after) = &board
                && u32::from(ply_pawns) + u32::from(ply_pieces) <= men
                && after.castles().is_empty()
            {
                tb_result = probe.probe(after);
            }
        }
        let sign = if white { 1 } else { -1 };
        let eval = if book.get(i) == Some(true) {
            None
        } else {
            // eval_cp is null for mates, placeholders and absurd values.
            cp.get(i)
                .or_else(|| {
                    mate.get(i).map(|m| {
                        let m = i32::from(m);
                        if m >= 0 { MATE - m } else { -MATE - m }
                    })
                })
                .map(|e| sign * e)
        };
        plies.push(Ply {
            white,
            eval,
            halfmove,
            irreversible: halfmove == 0 || gives_up,
            repetition: rep.get(i).unwrap_or(1),
            check: check.get(i) == Some(true),
            mate: mated.get(i) == Some(true),
            book: book.get(i) == Some(true),
            material: sign * 100 * i32::from(mat.get(i).unwrap_or(0)),
            time_left_ms: left.get(i),
            dead: dead.get(i) == Some(true),
            // No comment at all: no eval and no depth (a placeholder has d=1).
            silent: depth.get(i).is_none()
                && cp.get(i).is_none()
                && mate.get(i).is_none()
                && book.get(i) != Some(true),
            pieces: ply_pieces,
            pawns: ply_pawns,
            tb: tb_result,
        });
    }
    let time_ms = mv.column(c::TIME_MS)?.i64()?.iter().collect();
    let (rd, rr) = if clocks {
        (
            mv.column(c::RD)?.i16()?.iter().collect(),
            mv.column(c::RR)?.i16()?.iter().collect(),
        )
    } else {
        (Vec::new(), Vec::new())
    };
    // Runs of equal game_id, in game order (both sorted by game_id).
    let mut at: HashMap<i64, (usize, usize)> = HashMap::new();
    let mut start = 0;
    for i in 1..=n {
        if i == n || ids.get(i) != ids.get(start) {
            at.insert(ids.get(start).unwrap_or_default(), (start, i));
            start = i;
        }
    }
    let gid = games.column(c::GAME_ID)?.i64()?;
    let spans = gid
        .iter()
        .map(|g| at.get(&g.unwrap_or_default()).copied().unwrap_or((0, 0)))
        .collect();
    Ok(Loaded {
        games,
        spans,
        plies,
        time_ms,
        rd,
        rr,
    })
}

/// Which compared plies [`Loaded::clock_check`] keeps as rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClockRows {
    None,
    Disagreeing,
    All,
}

/// The archive's clocks against a replay ([`Loaded::clock_check`]).
pub struct ClockCheck {
    /// Per era and event: rd_plies, rd_agree, rr_plies, rr_agree, the first
    /// disagreeing ply in game order (first_bad_game, first_bad_ply,
    /// rd_archive, rd_replay, rr_archive, rr_replay), rd_pct and rr_pct.
    pub per_event: DataFrame,
    /// The compared plies asked for: game_id, ply, era, rd, rr, rd_replay,
    /// rr_replay, placeholder_in_window (a placeholder eval in the draw
    /// window up to the ply).
    pub plies: DataFrame,
}

/// One compared ply.
struct ClockRow {
    game_id: i64,
    ply: u32,
    archive: (Option<i16>, Option<i16>),
    replay: (i16, i16),
    placeholder: bool,
}

/// One era and event's counts and its first disagreement in game order.
type EventClocks<'a> = ([u32; 4], Option<&'a ClockRow>);

/// One game's comparison: the four counts of [`ClockCheck::per_event`], its
/// first disagreement and the plies kept.
#[derive(Default)]
struct GameClocks {
    counts: [u32; 4],
    first_bad: Option<ClockRow>,
    rows: Vec<ClockRow>,
}

/// Whether every game's rows are contiguous and in ply order 1, 2, 3, ….
fn in_game_order(mv: &DataFrame) -> Result<bool, Error> {
    let ids = mv.column(c::GAME_ID)?.i64()?;
    let ply = mv.column(c::PLY)?.u16()?;
    let mut seen = std::collections::HashSet::new();
    let mut prev: Option<(i64, u16)> = None;
    for (g, p) in ids.iter().zip(ply.iter()) {
        let (Some(g), Some(p)) = (g, p) else {
            return Ok(false);
        };
        let ok = match prev {
            Some((pg, pp)) if pg == g => p == pp + 1,
            _ => p == 1 && seen.insert(g),
        };
        if !ok {
            return Ok(false);
        }
        prev = Some((g, p));
    }
    Ok(true)
}

impl Loaded {
    /// Each game's event and round.
    fn events(&self) -> Result<Vec<(String, String)>, Error> {
        let tag = |name: &str| -> Result<Vec<String>, Error> {
            Ok(self
                .games
                .column(name)?
                .str()?
                .iter()
                .map(|e| e.unwrap_or_default().to_string())
                .collect())
        };
        Ok(tag(c::EVENT)?.into_iter().zip(tag(c::ROUND)?).collect())
    }

    /// The rule set compiled per distinct event and round, and each game's
    /// index in it.
    fn compiled(&self, set: &RuleSet) -> Result<(Vec<super::Compiled>, Vec<usize>), Error> {
        let mut seen: HashMap<(String, String), usize> = HashMap::new();
        let mut rules = Vec::new();
        let compile = set.compiler();
        let idx = self
            .events()?
            .into_iter()
            .map(|(e, r)| {
                *seen.entry((e.clone(), r.clone())).or_insert_with(|| {
                    rules.push(compile(&e, &r));
                    rules.len() - 1
                })
            })
            .collect();
        Ok((rules, idx))
    }

    /// The first firing of every game (in `games` order).
    fn fires_with(&self, rules: &[super::Compiled], idx: &[usize]) -> Vec<Option<Fire>> {
        self.spans
            .par_iter()
            .zip(idx.par_iter())
            .map(|(&(a, b), &r)| replay(&rules[r], &self.plies[a..b], false).fire)
            .collect()
    }

    /// The per-game outcomes of `set`: the games columns plus era, fire_ply,
    /// rule_result, clause, verdict, plies_saved and time_saved_ms.
    pub fn outcomes(&self, set: &RuleSet) -> Result<DataFrame, Error> {
        let (rules, idx) = self.compiled(set)?;
        let fires = self.fires_with(&rules, &idx);
        let era: Vec<Option<String>> = idx
            .iter()
            .map(|&r| rules[r].tcec.as_ref().map(|t| t.0.clone()))
            .collect();
        let saved_ms: Vec<Option<i64>> = fires
            .iter()
            .zip(&self.spans)
            .map(|(f, &(a, b))| {
                f.map(|f| {
                    self.time_ms[(a + f.ply as usize).min(b)..b]
                        .iter()
                        .flatten()
                        .sum()
                })
            })
            .collect();
        let mut df = self.games.clone();
        df.with_column(Column::new(cols::ERA.into(), era))?;
        df.with_column(Column::new(
            cols::FIRE_PLY.into(),
            fires.iter().map(|f| f.map(|f| f.ply)).collect::<Vec<_>>(),
        ))?;
        df.with_column(Column::new(
            cols::RULE_RESULT.into(),
            fires
                .iter()
                .map(|f| f.map(|f| f.result.pgn()))
                .collect::<Vec<_>>(),
        ))?;
        df.with_column(Column::new(
            cols::CLAUSE.into(),
            fires
                .iter()
                .map(|f| f.map(|f| f.clause))
                .collect::<Vec<_>>(),
        ))?;
        df.with_column(Column::new("saved_ms_raw".into(), saved_ms))?;
        Ok(df
            .lazy()
            .with_columns([judge()])
            .with_columns([
                when(col(cols::VERDICT).eq(lit(verdict::AGREE)))
                    .then(
                        col(c::PLIES).cast(DataType::Int64)
                            - col(cols::FIRE_PLY).cast(DataType::Int64),
                    )
                    .otherwise(lit(0i64))
                    .alias(cols::PLIES_SAVED),
                when(col(cols::VERDICT).eq(lit(verdict::AGREE)))
                    .then(col("saved_ms_raw"))
                    .otherwise(lit(0i64))
                    .alias(cols::TIME_SAVED_MS),
            ])
            .drop(by_name(["saved_ms_raw"], true, false))
            .collect()?)
    }

    /// The replayed clocks of `set` against the archive's: per era and event
    /// the Rd and Rr values compared and agreeing, with the first
    /// disagreement; and the compared plies `rows` asks for. One pass over
    /// the games, counting as it goes: a sweep that asks for no rows holds
    /// no per-ply data whatever the size of its grid.
    pub fn clock_check(&self, set: &RuleSet, rows: ClockRows) -> Result<ClockCheck, Error> {
        let (rules, idx) = self.compiled(set)?;
        let gids = self.games.column(c::GAME_ID)?.i64()?;
        let per_game: Vec<GameClocks> = self
            .spans
            .par_iter()
            .zip(idx.par_iter())
            .enumerate()
            .map(|(g, (&(a, b), &r))| {
                let mut out = GameClocks::default();
                if !(a..b).any(|i| self.rd[i].is_some() || self.rr[i].is_some()) {
                    return out;
                }
                let plies = &self.plies[a..b];
                let rep = replay(&rules[r], plies, true);
                let window = rules[r]
                    .tcec
                    .as_ref()
                    .and_then(|t| t.1)
                    .map_or(10, |d| 2 * d.movecount as usize);
                for (k, &(rd, rr)) in rep.clocks.iter().enumerate() {
                    let (ad, ar) = (self.rd[a + k], self.rr[a + k]);
                    if ad.is_none() && ar.is_none() {
                        continue;
                    }
                    let (rd_ok, rr_ok) = (ad.is_none_or(|v| v == rd), ar.is_none_or(|v| v == rr));
                    out.counts[0] += u32::from(ad.is_some());
                    out.counts[1] += u32::from(ad == Some(rd));
                    out.counts[2] += u32::from(ar.is_some());
                    out.counts[3] += u32::from(ar == Some(rr));
                    let keep = match rows {
                        ClockRows::None => false,
                        ClockRows::Disagreeing => !(rd_ok && rr_ok),
                        ClockRows::All => true,
                    };
                    let row = || ClockRow {
                        game_id: gids.get(g).unwrap_or_default(),
                        ply: k as u32 + 1,
                        archive: (ad, ar),
                        replay: (rd, rr),
                        placeholder: plies[(k + 1).saturating_sub(window)..=k]
                            .iter()
                            .any(Ply::placeholder),
                    };
                    if !(rd_ok && rr_ok) && out.first_bad.is_none() {
                        out.first_bad = Some(row());
                    }
                    if keep {
                        out.rows.push(row());
                    }
                }
                out
            })
            .collect();
        let era = |r: usize| rules[r].tcec.as_ref().map(|t| t.0.as_str());
        let events = self.games.column(c::EVENT)?.str()?;
        // Per era and event: the counts and the first disagreement in game order.
        let mut groups: HashMap<(Option<&str>, Option<&str>), EventClocks> = HashMap::new();
        for (g, (gc, &r)) in per_game.iter().zip(&idx).enumerate() {
            if gc.counts[0] + gc.counts[2] == 0 {
                continue;
            }
            let (sums, first) = groups.entry((era(r), events.get(g))).or_default();
            for (s, n) in sums.iter_mut().zip(gc.counts) {
                *s += n;
            }
            if let Some(b) = &gc.first_bad
                && first.is_none_or(|f| (b.game_id, b.ply) < (f.game_id, f.ply))
            {
                *first = Some(b);
            }
        }
        let groups: Vec<_> = groups.into_iter().collect();
        let count = |i: usize| groups.iter().map(|(_, (n, _))| n[i]).collect::<Vec<_>>();
        let first = |f: fn(&ClockRow) -> Option<i64>| {
            groups
                .iter()
                .map(|(_, (_, b))| b.and_then(f))
                .collect::<Vec<_>>()
        };
        let i16s = |v: Vec<Option<i64>>| {
            v.into_iter()
                .map(|x| x.map(|x| x as i16))
                .collect::<Vec<_>>()
        };
        let per_event = DataFrame::new_infer_height(vec![
            Column::new(
                cols::ERA.into(),
                groups.iter().map(|((e, _), _)| *e).collect::<Vec<_>>(),
            ),
            Column::new(
                c::EVENT.into(),
                groups.iter().map(|((_, e), _)| *e).collect::<Vec<_>>(),
            ),
            Column::new("rd_plies".into(), count(0)),
            Column::new("rd_agree".into(), count(1)),
            Column::new("rr_plies".into(), count(2)),
            Column::new("rr_agree".into(), count(3)),
            Column::new("first_bad_game".into(), first(|b| Some(b.game_id))),
            Column::new(
                "first_bad_ply".into(),
                first(|b| Some(i64::from(b.ply)))
                    .into_iter()
                    .map(|p| p.map(|p| p as u32))
                    .collect::<Vec<_>>(),
            ),
            Column::new(
                "rd_archive".into(),
                i16s(first(|b| b.archive.0.map(i64::from))),
            ),
            Column::new(
                cols::RD_REPLAY.into(),
                i16s(first(|b| Some(i64::from(b.replay.0)))),
            ),
            Column::new(
                "rr_archive".into(),
                i16s(first(|b| b.archive.1.map(i64::from))),
            ),
            Column::new(
                cols::RR_REPLAY.into(),
                i16s(first(|b| Some(i64::from(b.replay.1)))),
            ),
        ])?
        .lazy()
        .with_columns([
            percent("rd_agree", "rd_plies", 3).alias("rd_pct"),
            percent("rr_agree", "rr_plies", 3).alias("rr_pct"),
        ])
        .sort([cols::ERA, c::EVENT], SortMultipleOptions::default())
        .collect()?;
        let kept = per_game
            .iter()
            .zip(&idx)
            .flat_map(|(gc, &r)| gc.rows.iter().map(move |row| (row, r)));
        let mut gid = Vec::new();
        let mut ply = Vec::new();
        let mut eras = Vec::new();
        let mut rd = Vec::new();
        let mut rr = Vec::new();
        let mut rd_r = Vec::new();
        let mut rr_r = Vec::new();
        let mut held = Vec::new();
        for (row, r) in kept {
            gid.push(row.game_id);
            ply.push(row.ply);
            eras.push(era(r));
            rd.push(row.archive.0);
            rr.push(row.archive.1);
            rd_r.push(row.replay.0);
            rr_r.push(row.replay.1);
            held.push(row.placeholder);
        }
        let plies = DataFrame::new_infer_height(vec![
            Column::new(c::GAME_ID.into(), gid),
            Column::new(c::PLY.into(), ply),
            Column::new(cols::ERA.into(), eras),
            Column::new(c::RD.into(), rd),
            Column::new(c::RR.into(), rr),
            Column::new(cols::RD_REPLAY.into(), rd_r),
            Column::new(cols::RR_REPLAY.into(), rr_r),
            Column::new(PLACEHOLDER_IN_WINDOW.into(), held),
        ])?;
        Ok(ClockCheck { per_event, plies })
    }
}

/// A game ended by an adjudication (TCEC's rules, tablebases, the GUI or a
/// person): its rest was never played.
fn adjudicated() -> Expr {
    let re = lit(r"(?i)adjudicat|TCEC (draw|win) rule|TB");
    col(c::TERMINATION)
        .str()
        .contains(re.clone(), false)
        .fill_null(false)
        .or(col(c::TERMINATION_DETAILS)
            .str()
            .contains(re, false)
            .fill_null(false))
}

/// The verdict of a rule on a game (adjudication.md §3): a firing agrees or
/// is wrong against the final result; a rule that never fired in an
/// adjudicated (or unfinished) game is censored.
fn judge() -> Expr {
    let finished = col(c::RESULT).is_in(
        lit(Series::new("r".into(), ["1-0", "0-1", "1/2-1/2"])).implode(false),
        false,
    );
    when(finished.clone().not())
        .then(lit(verdict::CENSORED))
        .when(col(cols::FIRE_PLY).is_not_null())
        .then(
            when(col(cols::RULE_RESULT).eq(col(c::RESULT)))
                .then(lit(verdict::AGREE))
                .otherwise(lit(verdict::WRONG)),
        )
        .when(adjudicated())
        .then(lit(verdict::CENSORED))
        .otherwise(lit(verdict::NONE))
        .alias(cols::VERDICT)
}

/// Grouping of the summary (`--by`: all, event, engine, event,engine).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum By {
    All,
    Event,
    Engine,
    EventEngine,
}

impl crate::choice::Choice for By {
    const ALL: &'static [Self] = &[By::All, By::Event, By::Engine, By::EventEngine];
    fn name(self) -> &'static str {
        match self {
            By::All => "all",
            By::Event => "event",
            By::Engine => "engine",
            By::EventEngine => "event,engine",
        }
    }
    fn help(self) -> &'static str {
        match self {
            By::All => "One row for all selected games",
            _ => "",
        }
    }
}
crate::display_choice!(By);

/// Sums per group: games, fired (decisive, draw), agree, wrong (decisive,
/// draw), censored, plies, plies_saved, saved_pct, hours_saved. Per engine,
/// `resigned` counts the games the rule gave to the engine's opponent.
pub fn summary(outcomes: LazyFrame, by: By) -> LazyFrame {
    let per_engine = matches!(by, By::Engine | By::EventEngine);
    let base = if per_engine {
        let view = |me: &str, lose: &str| {
            outcomes.clone().with_columns([
                col(me).alias(metric::ENGINE),
                col(cols::RULE_RESULT)
                    .eq(lit(lose))
                    .fill_null(false)
                    .alias(cols::RESIGNED),
            ])
        };
        concat(
            [view(c::WHITE, "0-1"), view(c::BLACK, "1-0")],
            UnionArgs::default(),
        )
        .unwrap_or_else(|_| outcomes.clone())
    } else {
        outcomes
    };
    let keys: Vec<Expr> = match by {
        By::All => vec![],
        By::Event => vec![col(c::EVENT)],
        By::Engine => vec![col(metric::ENGINE)],
        By::EventEngine => vec![col(c::EVENT), col(metric::ENGINE)],
    };
    let v = |s: &str| col(cols::VERDICT).eq(lit(s));
    let decisive = col(cols::RULE_RESULT).neq(lit("1/2-1/2")).fill_null(false);
    let drawn = col(cols::RULE_RESULT).eq(lit("1/2-1/2")).fill_null(false);
    let mut aggs = vec![
        len().cast(DataType::UInt32).alias(metric::GAMES),
        col(cols::FIRE_PLY).is_not_null().sum().alias(cols::FIRED),
        decisive.clone().sum().alias(cols::FIRED_DECISIVE),
        drawn.clone().sum().alias(cols::FIRED_DRAW),
    ];
    if per_engine {
        aggs.push(col(cols::RESIGNED).sum().alias(cols::RESIGNED));
    }
    aggs.extend([
        v(verdict::AGREE).sum().alias(cols::AGREE),
        v(verdict::WRONG).sum().alias(cols::WRONG),
        v(verdict::WRONG)
            .and(decisive)
            .sum()
            .alias(cols::WRONG_DECISIVE),
        v(verdict::WRONG).and(drawn).sum().alias(cols::WRONG_DRAW),
        v(verdict::CENSORED).sum().alias(cols::CENSORED),
        col(c::PLIES).cast(DataType::Int64).sum().alias(c::PLIES),
        col(cols::PLIES_SAVED).sum().alias(cols::PLIES_SAVED),
        col(cols::TIME_SAVED_MS).sum().alias(cols::TIME_SAVED_MS),
    ]);
    let grouped = if keys.is_empty() {
        base.select(aggs)
    } else {
        base.group_by(keys.clone())
            .agg(aggs)
            .sort_by_exprs(keys, SortMultipleOptions::default())
    };
    grouped
        .with_columns([
            percent(cols::PLIES_SAVED, c::PLIES, 2).alias(cols::SAVED_PCT),
            (col(cols::TIME_SAVED_MS).cast(DataType::Float64) / lit(3_600_000.0))
                .round(2, RoundMode::default())
                .alias(cols::HOURS_SAVED),
        ])
        .drop(by_name([cols::TIME_SAVED_MS], true, false))
}

/// 100 · part / whole, rounded to `digits` decimals.
fn percent(part: &str, whole: &str, digits: u32) -> Expr {
    (lit(100.0) * col(part).cast(DataType::Float64) / col(whole).cast(DataType::Float64))
        .round(digits, RoundMode::default())
}

/// The per-era sums of [`ClockCheck::per_event`].
pub fn clock_agreement_by_era(per_event: LazyFrame) -> LazyFrame {
    per_event
        .group_by([col(cols::ERA)])
        .agg([
            len().alias("events"),
            col("rd_plies").sum(),
            col("rd_agree").sum(),
            col("rr_plies").sum(),
            col("rr_agree").sum(),
        ])
        .with_columns([
            percent("rd_agree", "rd_plies", 3).alias("rd_pct"),
            percent("rr_agree", "rr_plies", 3).alias("rr_pct"),
        ])
        .sort([cols::ERA], SortMultipleOptions::default())
}

/// The games whose replayed clocks disagree with the archive's, with the
/// first disagreeing ply and the number of disagreeing plies.
pub fn clock_disagreements(clocks: LazyFrame, games: LazyFrame) -> LazyFrame {
    let rd_bad = col(c::RD)
        .is_not_null()
        .and(col(c::RD).neq(col(cols::RD_REPLAY)));
    let rr_bad = col(c::RR)
        .is_not_null()
        .and(col(c::RR).neq(col(cols::RR_REPLAY)));
    clocks
        .filter(rd_bad.or(rr_bad))
        .sort([c::GAME_ID, c::PLY], SortMultipleOptions::default())
        .group_by([col(c::GAME_ID)])
        .agg([
            col(cols::ERA).first(),
            col(c::PLY).first().alias("first_bad_ply"),
            col(c::RD).first(),
            col(cols::RD_REPLAY).first(),
            col(c::RR).first(),
            col(cols::RR_REPLAY).first(),
            len().alias("bad_plies"),
        ])
        .join(
            games.select([col(c::GAME_ID), col(c::EVENT), col(c::ROUND)]),
            [col(c::GAME_ID)],
            [col(c::GAME_ID)],
            JoinArgs::new(JoinType::Left),
        )
        .sort([c::GAME_ID], SortMultipleOptions::default())
}

/// Games the archive says ended by TCEC's draw or win rule, and whether the
/// replay fired that rule at exactly their last ply (`ok`).
pub fn rule_ends(outcomes: LazyFrame) -> LazyFrame {
    let text = col(c::TERMINATION_DETAILS)
        .fill_null(col(c::TERMINATION))
        .str()
        .to_lowercase();
    let rule = when(text.clone().str().contains(lit("tcec draw rule"), true))
        .then(lit(super::replay::clause::TCEC_DRAW))
        .when(text.str().contains(lit("tcec win rule"), true))
        .then(lit(super::replay::clause::TCEC_WIN))
        .otherwise(lit(NULL).cast(DataType::String))
        .alias("archive_rule");
    outcomes
        .with_column(rule)
        .filter(col("archive_rule").is_not_null())
        .with_column(
            col(cols::FIRE_PLY)
                .cast(DataType::Int64)
                .eq(col(c::PLIES).cast(DataType::Int64))
                .and(col(cols::CLAUSE).eq(col("archive_rule")))
                .fill_null(false)
                .alias("ok"),
        )
        .select([
            col(c::GAME_ID),
            col(c::EVENT),
            col(c::ROUND),
            col(c::WHITE),
            col(c::BLACK),
            col(c::RESULT),
            col(c::PLIES),
            col("archive_rule"),
            col(cols::ERA),
            col(cols::FIRE_PLY),
            col(cols::CLAUSE),
            col("ok"),
        ])
}

/// Disagreeing plies by kind of disagreement, with one example each: a
/// placeholder eval in the count window (the engine's real score, which the
/// adjudicator counted, is not in the PGN: it prints 0.00), then by shape: the
/// archive's count behind the replay's (it did not advance), ahead of it,
/// counting where the replay does not (or the reverse), both still negative
/// (before the window can complete), and the win clock.
pub fn clock_causes(clocks: LazyFrame) -> LazyFrame {
    let (a, r) = (col(c::RD), col(cols::RD_REPLAY));
    let rd_bad = a.clone().is_not_null().and(a.clone().neq(r.clone()));
    let rr_bad = col(c::RR)
        .is_not_null()
        .and(col(c::RR).neq(col(cols::RR_REPLAY)));
    let pos = |e: Expr| e.gt_eq(lit(0));
    let cause = when(col(PLACEHOLDER_IN_WINDOW))
        .then(lit(
            "score not recorded: a placeholder eval (d=1, 0.00) in the count window",
        ))
        .when(rd_bad.clone().not())
        .then(lit("rr: win clock differs"))
        .when(
            pos(a.clone())
                .and(pos(r.clone()))
                .and(a.clone().gt(r.clone())),
        )
        .then(lit("rd: archive count behind the replay (did not advance)"))
        .when(pos(a.clone()).and(pos(r.clone())))
        .then(lit("rd: archive count ahead of the replay"))
        .when(pos(a.clone()))
        .then(lit("rd: archive counts, replay does not"))
        .when(pos(r.clone()))
        .then(lit("rd: replay counts, archive does not"))
        .otherwise(lit("rd: both negative, counts differ"))
        .alias("cause");
    clocks
        .filter(rd_bad.or(rr_bad))
        .with_column(cause)
        .sort([c::GAME_ID, c::PLY], SortMultipleOptions::default())
        .group_by([col("cause")])
        .agg([
            len().alias(c::PLIES),
            col(c::GAME_ID).first().alias("example_game"),
            col(c::PLY).first().alias("example_ply"),
            col(c::RD).first().alias("rd_archive"),
            col(cols::RD_REPLAY).first(),
            col(c::RR).first().alias("rr_archive"),
            col(cols::RR_REPLAY).first(),
        ])
        .sort(
            [c::PLIES],
            SortMultipleOptions::default().with_order_descending(true),
        )
}

/// [`rule_ends`] per era: the games ended by a TCEC rule and how many the
/// replay fired at exactly their last ply.
pub fn rule_ends_by_era(ends: LazyFrame) -> LazyFrame {
    ends.group_by([col(cols::ERA)])
        .agg([
            len().alias(metric::GAMES),
            col("ok").sum().alias("fired_at_end"),
        ])
        .sort([cols::ERA], SortMultipleOptions::default())
}
