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
use crate::metrics::chunks::{CHUNK_PLIES, GameChunks, stack};
use crate::metrics::{Selection, divided};
use crate::schema::{col as c, metric};

// Loader-internal columns (not in any table): TCEC's piece and pawn counts.
const PAWNS: &str = "pawns";
const PIECES: &str = "pieces";

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

/// The selected games, their plies read a chunk of whole games at a time
/// ([`Loaded::map_chunks`]): memory holds one chunk's plies (about
/// [`CHUNK_PLIES`]), whatever the size of the archive, and the rows of every
/// result are those of one pass over all games.
pub struct Loaded<'a> {
    /// game_id, event, round, white, black, result, termination,
    /// termination_details, plies, start_fen; one row per game that has
    /// moves, in game id order.
    pub games: DataFrame,
    /// Every game's moves (not only the selected games'), the loader's columns.
    moves: LazyFrame,
    tb: Option<(&'a dyn Probe, u32)>,
    /// The chunks that hold a selected game.
    chunks: GameChunks,
    /// The only chunk, kept: a selection of one chunk is read once.
    one: Option<Chunk>,
}

/// The plies of a chunk of the selected games, grouped per game, ready to
/// replay.
pub struct Chunk {
    /// The chunk's rows of [`Loaded::games`].
    pub games: DataFrame,
    /// Per game (in `games` order): its range in `plies`.
    pub(super) spans: Vec<(usize, usize)>,
    pub(super) plies: Vec<Ply>,
    /// Recorded move time per ply (ms).
    pub(super) time_ms: Vec<Option<i64>>,
    /// The archive's clocks per ply (loaded with `clocks`).
    pub(super) rd: Vec<Option<i16>>,
    pub(super) rr: Vec<Option<i16>>,
}

/// Tablebases to probe (`--syzygy`): the game's result in a position (None:
/// not in the tables).
pub trait Probe: Sync {
    fn probe(&self, pos: &Chess) -> Option<Outcome>;
}

/// The selection's games (its events; either player one of its engines,
/// after its families) among `games`, and their moves, in chunks of about
/// [`CHUNK_PLIES`] plies. With `tb`, the positions with at most that many men
/// and no castling right are probed.
pub fn load<'a>(
    games: LazyFrame,
    moves: LazyFrame,
    sel: &Selection,
    clocks: bool,
    tb: Option<(&'a dyn Probe, u32)>,
) -> Result<Loaded<'a>, Error> {
    load_in_chunks(games, moves, sel, clocks, tb, CHUNK_PLIES)
}

/// [`load`] in chunks of about `chunk_plies` plies.
pub fn load_in_chunks<'a>(
    games: LazyFrame,
    moves: LazyFrame,
    sel: &Selection,
    clocks: bool,
    tb: Option<(&'a dyn Probe, u32)>,
    chunk_plies: u64,
) -> Result<Loaded<'a>, Error> {
    let all = games.clone();
    // The moves are read by chunk, and kept to the selected games there.
    let (games, _) = sel.events(games, moves.clone());
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
        col(c::MOVE_NUMBER),
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
    let chunks = GameChunks::new(all, games.clone().lazy(), chunk_plies)?;
    let mut loaded = Loaded {
        games,
        moves: moves.select(cols),
        tb,
        chunks,
        one: None,
    };
    if loaded.chunks.len() == 1 {
        loaded.one = Some(loaded.chunk(0)?);
    }
    Ok(loaded)
}

impl Loaded<'_> {
    /// `f` of each chunk, in game id order, one chunk's plies in memory at a
    /// time.
    pub fn map_chunks<T>(
        &self,
        mut f: impl FnMut(&Chunk) -> Result<T, Error>,
    ) -> Result<Vec<T>, Error> {
        if let Some(one) = &self.one {
            return Ok(vec![f(one)?]);
        }
        (0..self.chunks.len()).map(|i| f(&self.chunk(i)?)).collect()
    }

    /// How many chunks the selected games are read in.
    pub fn chunks(&self) -> usize {
        self.chunks.len()
    }

    /// The per-game outcomes of `set` (see [`Chunk::outcomes`]) of all games.
    pub fn outcomes(&self, set: &RuleSet) -> Result<DataFrame, Error> {
        by_game(self.map_chunks(|c| c.outcomes(set))?)
    }

    /// Chunk `i`'s selected games, their plies read.
    fn chunk(&self, i: usize) -> Result<Chunk, Error> {
        let mv = self.chunks.moves(i, &self.moves)?.collect()?;
        let games = self.chunks.games(i, self.games.clone().lazy()).collect()?;
        read_plies(games, mv, self.tb)
    }
}

/// Per-game rows of consecutive chunks as one frame, in game id order (as
/// one pass over all games gives them).
pub fn by_game(frames: Vec<DataFrame>) -> Result<DataFrame, Error> {
    let single = frames.len() == 1;
    let df = stack(frames)?;
    if single {
        return Ok(df);
    }
    Ok(df.sort(
        [c::GAME_ID],
        SortMultipleOptions::default().with_maintain_order(true),
    )?)
}

/// A chunk's games and their moves (in any order) into replayable plies.
fn read_plies(
    games: DataFrame,
    mut mv: DataFrame,
    tb: Option<(&dyn Probe, u32)>,
) -> Result<Chunk, Error> {
    let clocks = mv.schema().contains(c::RD);
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
    let half = mv.column(c::HALFMOVE_CLOCK)?.u32()?;
    let number = mv.column(c::MOVE_NUMBER)?.u32()?;
    let rep = mv.column(c::REPETITION)?.u32()?;
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
            move_number: number.get(i).unwrap_or(0),
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
    Ok(Chunk {
        games,
        spans,
        plies,
        time_ms,
        rd,
        rr,
    })
}

/// Whether every game's rows are contiguous and in ply order 1, 2, 3, ….
fn in_game_order(mv: &DataFrame) -> Result<bool, Error> {
    let ids = mv.column(c::GAME_ID)?.i64()?;
    let ply = mv.column(c::PLY)?.u32()?;
    let mut seen = std::collections::HashSet::new();
    let mut prev: Option<(i64, u32)> = None;
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

impl Chunk {
    /// The distinct TCEC eras of the chunk's games under `set` (first seen
    /// first), and each game's index in them.
    pub(super) fn eras(&self, set: &RuleSet) -> Result<(Vec<Option<usize>>, Vec<usize>), Error> {
        let tag = |name: &str| -> Result<_, Error> { Ok(self.games.column(name)?.str()?) };
        let (events, rounds) = (tag(c::EVENT)?, tag(c::ROUND)?);
        let per_game = set.eras_of(
            events
                .iter()
                .zip(rounds.iter())
                .map(|(e, r)| (e.unwrap_or_default(), r.unwrap_or_default())),
        );
        let mut seen: HashMap<Option<usize>, usize> = HashMap::new();
        let mut eras = Vec::new();
        let idx = per_game
            .into_iter()
            .map(|era| {
                *seen.entry(era).or_insert_with(|| {
                    eras.push(era);
                    eras.len() - 1
                })
            })
            .collect();
        Ok((eras, idx))
    }

    /// The rule set compiled per TCEC era of the chunk's games, and each
    /// game's index in it ([`Chunk::eras`]).
    pub(super) fn compiled(
        &self,
        set: &RuleSet,
    ) -> Result<(Vec<super::Compiled>, Vec<usize>), Error> {
        let (eras, idx) = self.eras(set)?;
        Ok((eras.into_iter().map(|e| set.compile_era(e)).collect(), idx))
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
    with_saved(sums(outcomes, by))
}

/// The group keys of a summary.
fn keys(by: By) -> &'static [&'static str] {
    match by {
        By::All => &[],
        By::Event => &[c::EVENT],
        By::Engine => &[metric::ENGINE],
        By::EventEngine => &[c::EVENT, metric::ENGINE],
    }
}

/// [`summary`] of the games of several [`sums`] (of chunks of them): their
/// counts summed per group.
pub fn summary_of_sums(sums: LazyFrame, by: By) -> LazyFrame {
    let names = keys(by);
    let keys: Vec<Expr> = names.iter().map(|k| col(*k)).collect();
    let rest = all().exclude_cols(names.iter().copied()).as_expr().sum();
    let summed = if keys.is_empty() {
        sums.select([rest])
    } else {
        sums.group_by(keys.clone())
            .agg([rest])
            .sort_by_exprs(keys, SortMultipleOptions::default())
    };
    with_saved(summed)
}

/// A summary's rows of the selected engines: per engine the rows are every
/// player of the selected games, the opponents too unless filtered.
pub fn selected_groups(summary: LazyFrame, by: By, sel: &Selection) -> LazyFrame {
    match by {
        By::Engine | By::EventEngine => sel.engines(summary, metric::ENGINE),
        By::All | By::Event => summary,
    }
}

/// [`summary`]'s sums, before the shares saved.
pub fn sums(outcomes: LazyFrame, by: By) -> LazyFrame {
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
    let keys: Vec<Expr> = keys(by).iter().map(|k| col(*k)).collect();
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
    if keys.is_empty() {
        base.select(aggs)
    } else {
        base.group_by(keys.clone())
            .agg(aggs)
            .sort_by_exprs(keys, SortMultipleOptions::default())
    }
}

/// The shares saved of [`sums`]: saved_pct and hours_saved.
fn with_saved(sums: LazyFrame) -> LazyFrame {
    sums.with_columns([
        percent(cols::PLIES_SAVED, c::PLIES).alias(cols::SAVED_PCT),
        divided(col(cols::TIME_SAVED_MS), 3_600_000.0).alias(cols::HOURS_SAVED),
    ])
    .drop(by_name([cols::TIME_SAVED_MS], true, false))
}

/// 100 · part / whole.
pub(super) fn percent(part: &str, whole: &str) -> Expr {
    lit(100.0) * col(part).cast(DataType::Float64) / col(whole).cast(DataType::Float64)
}
