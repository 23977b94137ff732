//! The engines' own search statistics from the moves table: depth, seldepth,
//! nodes, nps, time, tablebase hits, hash usage and ponder hits per engine,
//! optionally by game phase or by band of move numbers; and the clock use
//! per band (docs/guide/engine-stats.md).
//!
//! Book moves are left out (the GUI played them, not the engine). A field
//! an engine's PGN writer does not record is null, never 0: each field has
//! its own count of moves that carried it.

mod median;

use std::collections::HashMap;

use polars::frame::row::Row;
use polars::prelude::*;

use self::median::Stat;
use super::Selection;
use super::balance::Group;
use super::chunks::{CHUNK_PLIES, GameChunks};
use crate::Error;
use crate::schema::col;
use crate::schema::metric::{self, engine_stats as m};

/// The endgame: at most this many knights, bishops, rooks and queens on the
/// board, both sides together (lichess's Divider).
pub const ENDGAME_PIECES: u32 = 6;
/// The middlegame: at most this many pieces (lichess's Divider) …
pub const MIDDLEGAME_PIECES: u32 = 10;
/// … or a move number past this one, standing for Divider's board-shape
/// tests (sparse back rank, mixedness) that the tables cannot make.
pub const OPENING_MOVES: u32 = 15;

/// The plies of a chunk: a quarter of [`CHUNK_PLIES`], because each row
/// carries its group's names and eight values through two joins (at 2 M
/// plies the chunk held 0.8 GB; at 0.5 M, 0.35 GB, in the same time).
const CHUNK: u64 = CHUNK_PLIES / 4;

/// How the rows of an engine are split.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Split {
    /// One row per engine (and group).
    #[default]
    None,
    /// By game phase: opening, middlegame, endgame ([`phase`]).
    Phase,
    /// By bands of this many move numbers: 1–N, N+1–2N, …
    Bands(u16),
}

/// How [`engine_stats`] and [`time_usage`] group and select.
#[derive(Debug, Clone, Default)]
pub struct EngineStatsOptions {
    pub group: Group,
    pub selection: Selection,
    pub split: Split,
}

/// The game phase of the position after a move, from its material and move
/// number: `endgame` with at most [`ENDGAME_PIECES`] pieces (kings and pawns
/// not counted), else `middlegame` with at most [`MIDDLEGAME_PIECES`] or after
/// move [`OPENING_MOVES`], else `opening`.
pub fn phase() -> Expr {
    let pieces = [
        col::WHITE_KNIGHTS,
        col::WHITE_BISHOPS,
        col::WHITE_ROOKS,
        col::WHITE_QUEENS,
        col::BLACK_KNIGHTS,
        col::BLACK_BISHOPS,
        col::BLACK_ROOKS,
        col::BLACK_QUEENS,
    ]
    .map(|c| col(c).cast(DataType::UInt32))
    .into_iter()
    .reduce(|a, b| a + b)
    .expect("eight columns");
    when(pieces.clone().lt_eq(lit(ENDGAME_PIECES)))
        .then(lit("endgame"))
        .when(
            pieces
                .lt_eq(lit(MIDDLEGAME_PIECES))
                .or(col(col::MOVE_NUMBER)
                    .cast(DataType::UInt32)
                    .gt(lit(OPENING_MOVES))),
        )
        .then(lit("middlegame"))
        .otherwise(lit("opening"))
}

/// The first move number of a move's band of `n` moves.
fn band_start(n: u16) -> Expr {
    let mv = col(col::MOVE_NUMBER).cast(DataType::Int64);
    ((mv - lit(1i64)) / lit(i64::from(n))) * lit(i64::from(n)) + lit(1i64)
}

/// The engines' non-book moves with the mover's name (families merged) as
/// `engine`, the group column and the split columns; `extra` moves columns.
fn engine_moves(
    games: LazyFrame,
    moves: LazyFrame,
    opts: &EngineStatsOptions,
    extra: &[&str],
) -> (LazyFrame, Vec<&'static str>) {
    let sel = &opts.selection;
    let (games, moves) = sel.events(games, moves);
    let mut games = sel.games(games).select([
        col(col::GAME_ID),
        col(col::EVENT),
        col(col::WHITE),
        col(col::BLACK),
    ]);
    // A game's season read once, not at each of its moves.
    if opts.group == Group::SeasonEngine {
        games = games.with_column(super::season(col(col::EVENT)).alias(metric::SEASON));
    }
    let mut cols: Vec<Expr> = [col::GAME_ID, col::SIDE, col::MOVE_NUMBER]
        .iter()
        .chain(extra)
        .map(|c| col(*c))
        .collect();
    if opts.split == Split::Phase {
        cols.push(phase().alias(m::PHASE));
    }
    let lf = super::with_mover(moves.filter(col(col::IS_BOOK).not()).select(cols), games);
    let mut lf = sel.engines(lf, metric::ENGINE);
    let mut keys: Vec<&'static str> = opts.group.outer().into_iter().collect();
    keys.push(metric::ENGINE);
    match opts.split {
        Split::None => {}
        Split::Phase => keys.push(m::PHASE),
        Split::Bands(n) => {
            lf = lf.with_columns([
                band_start(n).alias(m::FROM_MOVE),
                (band_start(n) + lit(i64::from(n) - 1)).alias(m::TO_MOVE),
            ]);
            keys.extend([m::FROM_MOVE, m::TO_MOVE]);
        }
    }
    (lf, keys)
}

/// Per engine (and group, and phase or band): moves, then for each field of
/// [`m::FIELDS`] `<field>_moves` (moves that recorded it), `<field>_mean`
/// and `<field>_median` (null when none did); time in seconds.
pub fn engine_stats(
    games: LazyFrame,
    moves: LazyFrame,
    opts: &EngineStatsOptions,
) -> Result<DataFrame, Error> {
    engine_stats_in_chunks(games, moves, opts, CHUNK)
}

/// [`engine_stats`], reading chunks of about `chunk_plies` plies.
pub fn engine_stats_in_chunks(
    games: LazyFrame,
    moves: LazyFrame,
    opts: &EngineStatsOptions,
    chunk_plies: u64,
) -> Result<DataFrame, Error> {
    let fields: Vec<&str> = m::FIELDS.iter().map(|f| f.1).collect();
    let values = m::FIELDS
        .iter()
        .map(|&(name, c)| {
            let v = col(c).cast(DataType::Float64);
            // Means and medians are taken in whole units (ms, ten-thousandths
            // of a percent) and divided last: medians of seconds or percents
            // halved 4.43 + 4.45 into 4.4399999999999995. The percentages
            // are stored as f32: their 0.9 reads 0.8999999761581421 as f64.
            let (value, unit) = match c {
                col::TIME_MS => (v, 1000.0),
                col::HASH_FULL | col::PONDER_HIT => {
                    ((v * lit(1e4)).round(0, RoundMode::default()), 1e4)
                }
                _ => (v, 1.0),
            };
            Value {
                value,
                unit,
                count: Some(format!("{name}_moves")),
                mean: Some(format!("{name}_mean")),
                median: format!("{name}_median"),
            }
        })
        .collect::<Vec<_>>();
    grouped(games, moves, opts, &fields, &values, chunk_plies)
}

/// The clock use per engine (and group) and band of `band` move numbers
/// (the split of `opts` is replaced by the bands): moves, clock_moves (moves
/// with both the time used and the clock after the move), the share of the
/// clock used by a move, time / (time + clock after), its mean and median,
/// and the medians of the time used and of the clock after the move, in s.
pub fn time_usage(
    games: LazyFrame,
    moves: LazyFrame,
    opts: &EngineStatsOptions,
    band: u16,
) -> Result<DataFrame, Error> {
    let opts = EngineStatsOptions {
        split: Split::Bands(band),
        ..opts.clone()
    };
    let (used, left) = (
        col(col::TIME_MS).cast(DataType::Float64),
        col(col::TIME_LEFT_MS).cast(DataType::Float64),
    );
    let before = used.clone() + left.clone();
    let known = |v: Expr| {
        when(before.clone().gt(lit(0.0)))
            .then(v)
            .otherwise(lit(NULL).cast(DataType::Float64))
    };
    let values = [
        Value {
            value: known(used.clone() / before.clone()),
            unit: 1.0,
            count: Some(m::CLOCK_MOVES.into()),
            mean: Some(m::CLOCK_SHARE_MEAN.into()),
            median: m::CLOCK_SHARE_MEDIAN.into(),
        },
        Value {
            value: known(used),
            unit: 1000.0,
            count: None,
            mean: None,
            median: m::TIME_MEDIAN_S.into(),
        },
        Value {
            value: known(left),
            unit: 1000.0,
            count: None,
            mean: None,
            median: m::TIME_LEFT_MEDIAN_S.into(),
        },
    ];
    grouped(
        games,
        moves,
        &opts,
        &[col::TIME_MS, col::TIME_LEFT_MS],
        &values,
        CHUNK,
    )
}

/// A value per move (null: not recorded; its mean and median are printed
/// divided by `unit`) and the names of its count, mean and median per group.
struct Value {
    value: Expr,
    unit: f64,
    count: Option<String>,
    mean: Option<String>,
    median: String,
}

/// Per group of [`engine_moves`]: moves, then each value's count, mean and
/// median, sorted by the group. The moves are read a chunk of games at a
/// time, again for every pass the medians need ([`median`]): memory holds
/// one chunk and counters per group, never the values. (One polars
/// `group_by` held every move: 3.4 GB for the archive concatenated 4×.)
/// Chunk after chunk the rows come in the moves table's order, as they came
/// to that `group_by`, so means and medians are its values, bit for bit (a
/// moves table in another order than its games, whose chunks are found by
/// id, may sum a mean in another order: its last bit can differ).
fn grouped(
    games: LazyFrame,
    moves: LazyFrame,
    opts: &EngineStatsOptions,
    extra: &[&str],
    values: &[Value],
    chunk_plies: u64,
) -> Result<DataFrame, Error> {
    let (selected, _) = opts.selection.events(games.clone(), moves.clone());
    let chunks = GameChunks::new(games.clone(), selected, chunk_plies)?;
    let mut groups = Groups::default();
    let mut stats: Vec<Vec<Stat>> = Vec::new();
    // The groups each chunk holds: a later pass skips the chunks whose
    // groups all have their medians (by season, most of them).
    let mut held: Vec<Vec<usize>> = Vec::new();
    for pass in 0.. {
        let first = pass == 0;
        for c in 0..chunks.len() {
            let searching = |g: &usize| stats[*g].iter().any(Stat::searching);
            if !first && !held[c].iter().any(searching) {
                continue;
            }
            let (g, mv) = (chunks.games(c, games.clone()), chunks.moves(c, &moves)?);
            let (lf, keys) = engine_moves(g, mv, opts, extra);
            let mut cols: Vec<Expr> = keys.iter().map(|k| col(*k)).collect();
            cols.extend(
                values
                    .iter()
                    .enumerate()
                    .map(|(i, v)| v.value.clone().alias(value_col(i))),
            );
            let df = lf.select(cols).collect()?;
            let of_row = groups.of_rows(&df, &keys)?;
            stats.resize_with(groups.len(), || {
                values.iter().map(|_| Stat::default()).collect()
            });
            for (i, _) in values.iter().enumerate() {
                let v = df.column(&value_col(i))?.f64()?;
                for (&g, x) in of_row.iter().zip(v.iter()) {
                    let s = &mut stats[g][i];
                    match (first, x) {
                        (true, x) => s.first(x),
                        (false, Some(x)) => s.again(x),
                        (false, None) => {}
                    }
                }
            }
            if first {
                for &g in &of_row {
                    groups.moves[g] += 1;
                }
                let mut gs = of_row;
                gs.sort_unstable();
                gs.dedup();
                held.push(gs);
            }
        }
        let mut more = false;
        for s in stats.iter_mut().flatten() {
            more |= s.end_pass().map_err(|_| {
                Error::Dataset("the moves table changed while engine-stats read it".into())
            })?;
        }
        if !more {
            break;
        }
    }
    let mut out = groups.keys()?;
    let n = out.height();
    out.with_column(Column::new(
        m::MOVES.into(),
        groups
            .moves
            .iter()
            .map(|&x| x as IdxSize)
            .collect::<Vec<_>>(),
    ))?;
    for (i, v) in values.iter().enumerate() {
        let of =
            |f: &dyn Fn(&Stat) -> Option<f64>| (0..n).map(|g| f(&stats[g][i])).collect::<Vec<_>>();
        if let Some(name) = &v.count {
            let counts: Vec<IdxSize> = (0..n).map(|g| stats[g][i].count() as IdxSize).collect();
            out.with_column(Column::new(name.into(), counts))?;
        }
        if let Some(name) = &v.mean {
            out.with_column(Column::new(name.into(), of(&|s| s.mean(v.unit))))?;
        }
        let median = of(&|s| s.median().map(|x| x / v.unit));
        out.with_column(Column::new(v.median.as_str().into(), median))?;
    }
    let keys = groups.names.clone();
    Ok(out.sort(keys, SortMultipleOptions::default())?)
}

/// The name of the `i`th value column of a chunk's rows.
fn value_col(i: usize) -> String {
    format!("value{i}")
}

/// The groups met so far: each one's key values, in the order first met,
/// and its moves.
#[derive(Default)]
struct Groups {
    index: HashMap<String, usize>,
    rows: Vec<Row<'static>>,
    schema: Option<Schema>,
    names: Vec<PlSmallStr>,
    moves: Vec<u64>,
}

impl Groups {
    fn len(&self) -> usize {
        self.rows.len()
    }

    /// The group of each row of `df` (grouped by its `keys` columns), new
    /// groups added.
    fn of_rows(&mut self, df: &DataFrame, keys: &[&str]) -> Result<Vec<usize>, Error> {
        let key_df = df.select(keys.iter().copied())?;
        if self.schema.is_none() {
            self.schema = Some(key_df.schema().as_ref().clone());
            self.names = keys.iter().map(|&k| k.into()).collect();
        }
        let mut of_row = vec![0; df.height()];
        for group in df.group_by(keys.iter().copied())?.get_groups().iter() {
            let first = group.first() as usize;
            let row = key_df.get_row(first)?;
            let name = format!("{:?}", row.0);
            let g = match self.index.get(&name) {
                Some(&g) => g,
                None => {
                    let g = self.rows.len();
                    self.index.insert(name, g);
                    self.rows.push(Row::new(
                        row.0.into_iter().map(AnyValue::into_static).collect(),
                    ));
                    self.moves.push(0);
                    g
                }
            };
            match group {
                GroupsIndicator::Idx((_, idx)) => idx.iter().for_each(|&r| of_row[r as usize] = g),
                GroupsIndicator::Slice([first, len]) => {
                    of_row[first as usize..(first + len) as usize].fill(g)
                }
            }
        }
        Ok(of_row)
    }

    /// The groups' key columns, one row per group in the order first met.
    fn keys(&self) -> Result<DataFrame, Error> {
        let schema = self.schema.clone().unwrap_or_default();
        Ok(DataFrame::from_rows_and_schema(&self.rows, &schema)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn games() -> LazyFrame {
        df!(
            col::GAME_ID => [1i64, 2],
            col::EVENT => ["E1", "E2"],
            col::WHITE => ["A", "B"],
            col::BLACK => ["B", "A 2"],
            col::PLIES => [5u32, 1],
        )
        .unwrap()
        .lazy()
    }

    /// (game, move number, side, book, depth, time_ms, time_left_ms,
    /// pieces per side as [N, B, R, Q]).
    type Row = (
        i64,
        u16,
        &'static str,
        bool,
        Option<i16>,
        Option<i64>,
        Option<i64>,
        [u8; 4],
    );

    fn moves(rows: &[Row]) -> LazyFrame {
        let piece = |k: usize| rows.iter().map(|r| r.7[k]).collect::<Vec<_>>();
        let none_f32 = rows.iter().map(|_| None::<f32>).collect::<Vec<_>>();
        let none_i64 = rows.iter().map(|_| None::<i64>).collect::<Vec<_>>();
        df!(
            col::GAME_ID => rows.iter().map(|r| r.0).collect::<Vec<_>>(),
            col::MOVE_NUMBER => rows.iter().map(|r| r.1).collect::<Vec<_>>(),
            col::SIDE => rows.iter().map(|r| r.2).collect::<Vec<_>>(),
            col::IS_BOOK => rows.iter().map(|r| r.3).collect::<Vec<_>>(),
            col::DEPTH => rows.iter().map(|r| r.4).collect::<Vec<_>>(),
            col::SELDEPTH => rows.iter().map(|r| r.4).collect::<Vec<_>>(),
            col::NODES => none_i64.clone(),
            col::NPS => none_i64.clone(),
            col::TIME_MS => rows.iter().map(|r| r.5).collect::<Vec<_>>(),
            col::TIME_LEFT_MS => rows.iter().map(|r| r.6).collect::<Vec<_>>(),
            col::TB_HITS => none_i64,
            col::HASH_FULL => none_f32.clone(),
            col::PONDER_HIT => none_f32,
            col::WHITE_KNIGHTS => piece(0),
            col::WHITE_BISHOPS => piece(1),
            col::WHITE_ROOKS => piece(2),
            col::WHITE_QUEENS => piece(3),
            col::BLACK_KNIGHTS => piece(0),
            col::BLACK_BISHOPS => piece(1),
            col::BLACK_ROOKS => piece(2),
            col::BLACK_QUEENS => piece(3),
        )
        .unwrap()
        .lazy()
    }

    const FULL: [u8; 4] = [2, 2, 2, 1];

    fn f(df: &DataFrame, c: &str) -> Vec<Option<f64>> {
        let s = df.column(c).unwrap().cast(&DataType::Float64).unwrap();
        s.f64().unwrap().iter().collect()
    }

    fn strs(df: &DataFrame, c: &str) -> Vec<String> {
        let s = df.column(c).unwrap().str().unwrap().clone();
        s.iter().flatten().map(str::to_string).collect()
    }

    /// Phases by hand: 14 pieces at move 10 → opening; 14 at move 16 →
    /// middlegame (past move 15); 10 pieces ([1, 1, 2, 1] a side) at move 5 →
    /// middlegame; 6 pieces ([0, 1, 1, 1]) → endgame; 8 ([1, 1, 1, 1]) at
    /// move 30 → middlegame.
    #[test]
    fn phases_by_hand() {
        let rows: Vec<Row> = [
            (10, FULL),
            (16, FULL),
            (5, [1, 1, 2, 1]),
            (40, [0, 1, 1, 1]),
            (30, [1, 1, 1, 1]),
        ]
        .iter()
        .map(|(n, p)| (1, *n, "w", false, Some(20), None, None, *p))
        .collect();
        let df = moves(&rows)
            .select([phase().alias(m::PHASE)])
            .collect()
            .unwrap();
        assert_eq!(
            strs(&df, m::PHASE),
            [
                "opening",
                "middlegame",
                "middlegame",
                "endgame",
                "middlegame"
            ]
        );
    }

    /// A (White in g1, Black in g2 as "A 2", merged by a family): depths 10,
    /// 20 (g1; the book move's 99 left out), 30 (g2) → 3 moves, mean 20,
    /// median 20; B: depth 7 and one move without depth → 2 moves, 1 with
    /// depth. No engine recorded nodes: null, with 0 moves, not a 0 mean.
    #[test]
    fn engine_stats_by_hand() {
        let rows: Vec<Row> = vec![
            (1, 1, "w", true, Some(99), None, None, FULL),
            (1, 2, "w", false, Some(10), Some(1000), Some(9000), FULL),
            (1, 2, "b", false, Some(7), None, None, FULL),
            (1, 3, "w", false, Some(20), Some(3000), Some(7000), FULL),
            (1, 3, "b", false, None, None, None, FULL),
            (2, 1, "b", false, Some(30), Some(500), Some(0), FULL),
        ];
        let opts = EngineStatsOptions {
            selection: Selection::new(None, None, &["^A=A".into()]).unwrap(),
            ..EngineStatsOptions::default()
        };
        let df = engine_stats(games(), moves(&rows), &opts).unwrap();
        assert_eq!(strs(&df, metric::ENGINE), ["A", "B"]);
        assert_eq!(f(&df, m::MOVES), [Some(3.0), Some(2.0)]);
        assert_eq!(f(&df, "depth_moves"), [Some(3.0), Some(1.0)]);
        assert_eq!(f(&df, "depth_mean"), [Some(20.0), Some(7.0)]);
        assert_eq!(f(&df, "depth_median"), [Some(20.0), Some(7.0)]);
        assert_eq!(f(&df, "nodes_moves"), [Some(0.0), Some(0.0)]);
        assert_eq!(f(&df, "nodes_mean"), [None, None]);
        // Time in seconds: A 1, 3, 0.5 → mean 1.5, median 1.
        assert_eq!(f(&df, "time_s_mean")[0], Some(1.5));
        assert_eq!(f(&df, "time_s_median")[0], Some(1.0));
        // By event: A has a row in E1 and in E2.
        let by_event = EngineStatsOptions {
            group: Group::EventEngine,
            ..opts.clone()
        };
        let df = engine_stats(games(), moves(&rows), &by_event).unwrap();
        assert_eq!(strs(&df, col::EVENT), ["E1", "E1", "E2"]);
        // --engine B keeps B's moves only.
        let only_b = EngineStatsOptions {
            selection: Selection::new(None, Some("^B$".into()), &[]).unwrap(),
            ..EngineStatsOptions::default()
        };
        let df = engine_stats(games(), moves(&rows), &only_b).unwrap();
        assert_eq!(strs(&df, metric::ENGINE), ["B"]);
    }

    /// Seconds are taken in ms and divided last: the median of 4.43 s and
    /// 4.45 s is 4.44 (halving their sum as f64 gives 4.4399999999999995),
    /// and 26,700 ms read as 26.7 s, not 26.700000000000003.
    #[test]
    fn seconds_read_as_the_decimals_they_are() {
        let rows: Vec<Row> = [4430, 4450, 26_700]
            .iter()
            .enumerate()
            .map(|(i, &ms)| {
                (
                    1,
                    i as u16 + 2,
                    "w",
                    false,
                    None,
                    Some(ms),
                    Some(1000),
                    FULL,
                )
            })
            .collect();
        let stats =
            |rows: &[Row]| engine_stats(games(), moves(rows), &EngineStatsOptions::default());
        let df = stats(&rows[..2]).unwrap();
        assert_eq!(f(&df, "time_s_median"), [Some(4.44)]);
        assert_eq!(f(&df, "time_s_mean"), [Some(4.44)]);
        let df = stats(&rows[2..]).unwrap();
        assert_eq!(f(&df, "time_s_median"), [Some(26.7)]);
        let df = time_usage(
            games(),
            moves(&rows[..2]),
            &EngineStatsOptions::default(),
            10,
        )
        .unwrap();
        assert_eq!(f(&df, m::TIME_MEDIAN_S), [Some(4.44)]);
    }

    /// Clock shares by hand, bands of 2 moves, engine A:
    /// move 2: 1000 / (1000 + 9000) = 0.1; move 3: 3000 / 10000 = 0.3;
    /// move 1 of g2 ("A 2", its own engine without a family): 500 / 500 = 1.
    /// A's band 1–2: share 0.1 (one move), band 3–4: 0.3. The move with no
    /// clock counts in `moves` but not in `clock_moves`.
    #[test]
    fn time_usage_by_hand() {
        let rows: Vec<Row> = vec![
            (1, 2, "w", false, None, Some(1000), Some(9000), FULL),
            (1, 3, "w", false, None, Some(3000), Some(7000), FULL),
            (1, 4, "w", false, None, None, Some(7000), FULL),
            (2, 1, "b", false, None, Some(500), Some(0), FULL),
        ];
        let df = time_usage(games(), moves(&rows), &EngineStatsOptions::default(), 2).unwrap();
        assert_eq!(strs(&df, metric::ENGINE), ["A", "A", "A 2"]);
        assert_eq!(f(&df, m::FROM_MOVE), [Some(1.0), Some(3.0), Some(1.0)]);
        assert_eq!(f(&df, m::TO_MOVE), [Some(2.0), Some(4.0), Some(2.0)]);
        assert_eq!(f(&df, m::MOVES), [Some(1.0), Some(2.0), Some(1.0)]);
        assert_eq!(f(&df, m::CLOCK_MOVES), [Some(1.0), Some(1.0), Some(1.0)]);
        assert_eq!(
            f(&df, m::CLOCK_SHARE_MEAN),
            [Some(0.1), Some(0.3), Some(1.0)]
        );
        assert_eq!(
            f(&df, m::TIME_LEFT_MEDIAN_S),
            [Some(9.0), Some(7.0), Some(0.0)]
        );
        assert_eq!(f(&df, m::TIME_MEDIAN_S), [Some(1.0), Some(3.0), Some(0.5)]);
    }
}
