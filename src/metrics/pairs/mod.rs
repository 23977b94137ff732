//! Colour-swapped game pairs (one opening played twice by the same two
//! engines, colours reversed) and their pentanomial statistics, and TCEC's
//! decisive openings and reverse kills (docs/definitions/pairs.md).
//!
//! A game's opening is the position after its book moves (marked, or else
//! the lines of a [`Book`] it reaches: a pair's is the deepest line both
//! games reach); the pairs are found among the games of one event and source
//! file: the next game of the same two engines on the same opening, with the
//! colours swapped.

pub mod book;
pub mod math;

use std::collections::HashMap;

use polars::prelude::*;

pub use self::book::Book;
use self::math::{Estimate, Penta, Sprt, Trinomial};
use super::balance::Group;
use super::chunks::{CHUNK_PLIES, GameChunks};
use super::{GAME_NAMING, Selection, season};
use crate::Error;
use crate::dataset::game_id_in;
use crate::schema::metric::pairs as p;
use crate::schema::{col, metric, opening_col};

/// The plies that stand for the opening of a game from the standard start
/// without book moves: TCEC's seasons 1–5 imposed openings without marking
/// them as book (reading R2 of docs/definitions/pairs.md).
pub const UNMARKED_OPENING_PLIES: u32 = 8;

/// Why a game is in no pair.
pub const UNFINISHED: &str = "unfinished (result *)";
pub const NO_PLAYERS: &str = "a player's name is missing, or both are the same";
pub const NO_OPENING: &str =
    "no opening: no book moves from the standard start and fewer than 8 plies";
pub const NO_PARTNER: &str =
    "no colour-swapped game of the same engines on the same opening in its event and file";

/// Games in pairs and the games left out.
#[derive(Debug, Clone)]
pub struct Paired {
    /// One row per pair: event, source_file, first_game_id, second_game_id,
    /// first_round, second_round, engine (White in the first game), opponent,
    /// first_result, second_result, eco, opening (the first game's tags),
    /// opening_ply, opening_key, pair_points (the engine's points, 0 to 2).
    pub pairs: DataFrame,
    /// One row per game in no pair: game_id, event, round, white, black,
    /// result, source_file, game_number, reason.
    pub unpaired: DataFrame,
    /// With a book: the games without book marks that reach none of its
    /// lines (a book cut by the runner, `-openings plies=N`, or the wrong one).
    pub off_book: usize,
}

const BOOK_PLY: &str = "book_ply";
const LINE_PLY: &str = "line_ply";
/// The plies and keys of every line a game reaches, shallowest first.
const LINE_PLIES: &str = "line_plies";
const LINE_KEYS: &str = "line_keys";

/// Per game of the selected events: the naming columns, source_file,
/// game_number, eco, opening, opening_ply and opening_key (the position
/// after the book moves; null when the game is shorter than its opening).
/// The book moves are the marked ones; a game with none that reaches a
/// line of `book` in its first plies: the shallowest such line's, and the
/// lines it reaches as two lists (reading R3).
fn game_openings(
    games: LazyFrame,
    moves: LazyFrame,
    sel: &Selection,
    book: Option<&Book>,
    chunk_plies: u64,
) -> Result<LazyFrame, Error> {
    let table = games.clone();
    let (games, _) = sel.events(games, moves.clone());
    let marked = moves
        .clone()
        .filter(col(col::IS_BOOK))
        .group_by([col(col::GAME_ID)])
        .agg([col(col::PLY).max().alias(BOOK_PLY)]);
    // The plies where a game stands on a line's final position: few rows,
    // found by one pass over the moves' first plies.
    let lines = book.map(|b| {
        let keys = lit(Series::new("keys".into(), b.keys.clone())).implode(false);
        moves
            .clone()
            .filter(
                col(col::PLY)
                    .lt_eq(lit(b.max_plies))
                    .and(col(col::POSITION_KEY).is_in(keys, false)),
            )
            .sort([col::GAME_ID, col::PLY], SortMultipleOptions::default())
            .group_by([col(col::GAME_ID)])
            .agg([
                col(col::PLY).min().alias(LINE_PLY),
                col(col::PLY).alias(LINE_PLIES),
                col(col::POSITION_KEY).alias(LINE_KEYS),
            ])
    });
    let mut cols: Vec<Expr> = GAME_NAMING.iter().map(|c| col(*c)).collect();
    cols.extend(
        [
            col::SOURCE_FILE,
            col::GAME_NUMBER,
            col::ECO,
            col::OPENING,
            col::START_FEN,
            col::START_KEY,
        ]
        .map(col),
    );
    let left = |g: LazyFrame, other: LazyFrame| {
        g.join(
            other,
            [col(col::GAME_ID)],
            [col(col::GAME_ID)],
            JoinArgs::new(JoinType::Left),
        )
    };
    let g = left(games.select(cols), marked);
    let (g, line_ply) = match lines {
        Some(lines) => (left(g, lines), col(LINE_PLY)),
        None => (g, lit(NULL).cast(DataType::UInt32)),
    };
    let g = g.with_column(
        when(col(BOOK_PLY).is_not_null())
            .then(col(BOOK_PLY))
            .when(line_ply.clone().is_not_null())
            .then(line_ply)
            .when(col(col::START_FEN).is_not_null())
            .then(lit(0u32))
            .otherwise(lit(UNMARKED_OPENING_PLIES))
            .cast(DataType::UInt32)
            .alias(opening_col::OPENING_PLY),
    );
    // The position key at each game's opening ply, a chunk of games at a
    // time: a join of every ply's key at once held them all (1.1 GB on the
    // archive 4x).
    let g = g.collect()?;
    let at_opening = GameChunks::new(table, g.clone().lazy(), chunk_plies)?.map(
        &g.clone()
            .lazy()
            .select([col(col::GAME_ID), col(opening_col::OPENING_PLY)]),
        &moves,
        |g, m| {
            Ok(g.join(
                m.select([col(col::GAME_ID), col(col::PLY), col(col::POSITION_KEY)]),
                [col(col::GAME_ID), col(opening_col::OPENING_PLY)],
                [col(col::GAME_ID), col(col::PLY)],
                JoinArgs::new(JoinType::Inner),
            )
            .select([col(col::GAME_ID), col(col::POSITION_KEY)]))
        },
    )?;
    Ok(g.lazy()
        .join(
            at_opening.lazy(),
            [col(col::GAME_ID)],
            [col(col::GAME_ID)],
            JoinArgs::new(JoinType::Left),
        )
        .with_column(
            when(col(opening_col::OPENING_PLY).eq(lit(0u32)))
                .then(col(col::START_KEY))
                .otherwise(col(col::POSITION_KEY))
                .alias(p::OPENING_KEY),
        )
        .sort(
            [col::SOURCE_FILE, col::GAME_NUMBER],
            SortMultipleOptions::default(),
        ))
}

/// A row in no pair and why.
type Unpaired = (IdxSize, &'static str);

/// Row pairs (first, second) and the unpaired rows with their reason, of
/// games sorted by file and game number: a game waits for the next game of
/// the same file, event, engines and opening; that game pairs with it if the
/// colours are swapped, else takes its place (and the waiting one is unpaired).
fn pair_up(g: &DataFrame) -> PolarsResult<(Vec<[IdxSize; 2]>, Vec<Unpaired>)> {
    let s = |c: &str| g.column(c).and_then(|c| c.str().cloned());
    let (file, event, white, black, result) = (
        s(col::SOURCE_FILE)?,
        s(col::EVENT)?,
        s(col::WHITE)?,
        s(col::BLACK)?,
        s(col::RESULT)?,
    );
    let opening = g.column(p::OPENING_KEY)?.i64()?;
    let mut pairs = Vec::new();
    let mut unpaired = Vec::new();
    type Key<'a> = (Option<&'a str>, Option<&'a str>, &'a str, &'a str, i64);
    let mut waiting: HashMap<Key, IdxSize> = HashMap::new();
    for i in 0..g.height() {
        let row = i as IdxSize;
        let (Some(w), Some(b)) = (white.get(i), black.get(i)) else {
            unpaired.push((row, NO_PLAYERS));
            continue;
        };
        if w == b {
            unpaired.push((row, NO_PLAYERS));
        } else if !matches!(result.get(i), Some("1-0" | "0-1" | "1/2-1/2")) {
            unpaired.push((row, UNFINISHED));
        } else if let Some(key) = opening.get(i) {
            let k = (file.get(i), event.get(i), w.min(b), w.max(b), key);
            match waiting.remove(&k) {
                Some(j) if white.get(j as usize) == Some(b) => pairs.push([j, row]),
                Some(j) => {
                    unpaired.push((j, NO_PARTNER));
                    waiting.insert(k, row);
                }
                None => {
                    waiting.insert(k, row);
                }
            }
        } else {
            unpaired.push((row, NO_OPENING));
        }
    }
    unpaired.extend(waiting.into_values().map(|j| (j, NO_PARTNER)));
    unpaired.sort_unstable();
    Ok((pairs, unpaired))
}

/// An engine's points in a game from the result and its colour.
fn points(result: Expr, white: bool) -> Expr {
    let (win, loss) = if white {
        ("1-0", "0-1")
    } else {
        ("0-1", "1-0")
    };
    when(result.clone().eq(lit(win)))
        .then(lit(1.0))
        .when(result.eq(lit(loss)))
        .then(lit(0.0))
        .otherwise(lit(0.5))
}

/// The colour-swapped pairs of the selected events' games (names as in the
/// tags: families are merged by [`pentanomial`] and [`openings`]). `book`:
/// the lines the games were played from, for games without book marks.
pub fn pairs(
    games: LazyFrame,
    moves: LazyFrame,
    sel: &Selection,
    book: Option<&Book>,
) -> Result<Paired, Error> {
    let g = game_openings(games, moves, sel, book, CHUNK_PLIES)?.collect()?;
    let off_book = match book {
        Some(_) => (g.column(BOOK_PLY)?.is_null() & g.column(LINE_PLY)?.is_null())
            .sum()
            .unwrap_or(0) as usize,
        None => 0,
    };
    let (pairs, unpaired) = pair_up(&g)?;
    let idx = |k: usize| IdxCa::from_vec("i".into(), pairs.iter().map(|p| p[k]).collect());
    let (first, second) = (g.take(&idx(0))?, g.take(&idx(1))?);
    let (opening_ply, opening_key) = deepest_common_line(&first, &second)?;
    let named = |df: &DataFrame, c: &str, name: &str| -> PolarsResult<Column> {
        Ok(df.column(c)?.clone().with_name(name.into()))
    };
    let pairs = DataFrame::new_infer_height(vec![
        named(&first, col::EVENT, col::EVENT)?,
        named(&first, col::SOURCE_FILE, col::SOURCE_FILE)?,
        named(&first, col::GAME_ID, p::FIRST_GAME_ID)?,
        named(&second, col::GAME_ID, p::SECOND_GAME_ID)?,
        named(&first, col::ROUND, p::FIRST_ROUND)?,
        named(&second, col::ROUND, p::SECOND_ROUND)?,
        named(&first, col::WHITE, metric::ENGINE)?,
        named(&first, col::BLACK, metric::OPPONENT)?,
        named(&first, col::RESULT, p::FIRST_RESULT)?,
        named(&second, col::RESULT, p::SECOND_RESULT)?,
        named(&first, col::ECO, col::ECO)?,
        named(&first, col::OPENING, col::OPENING)?,
        opening_ply,
        opening_key,
    ])?
    .lazy()
    .with_column(
        (points(col(p::FIRST_RESULT), true) + points(col(p::SECOND_RESULT), false))
            .alias(p::PAIR_POINTS),
    )
    .collect()?;
    let rows = IdxCa::from_vec("i".into(), unpaired.iter().map(|u| u.0).collect());
    let mut left = g.take(&rows)?.select(
        GAME_NAMING
            .iter()
            .copied()
            .chain([col::SOURCE_FILE, col::GAME_NUMBER])
            .map(PlSmallStr::from),
    )?;
    left.with_column(Column::new(
        col::REASON.into(),
        unpaired.iter().map(|u| u.1).collect::<Vec<_>>(),
    ))?;
    Ok(Paired {
        pairs,
        unpaired: left,
        off_book,
    })
}

/// A pair's opening: its first game's, or for two games opened by the
/// book (no marks), the deepest line both reach (a game played from a line
/// whose engines then play a longer line's next move reaches that one too;
/// reading R3).
fn deepest_common_line(first: &DataFrame, second: &DataFrame) -> PolarsResult<(Column, Column)> {
    let ply = first.column(opening_col::OPENING_PLY)?.clone();
    let key = first.column(p::OPENING_KEY)?.clone();
    if first.column(LINE_KEYS).is_err() {
        return Ok((ply, key));
    }
    let lists = |df: &DataFrame| -> PolarsResult<_> {
        let marked = df.column(BOOK_PLY)?.u32()?.clone();
        let plies = df.column(LINE_PLIES)?.list()?.clone();
        let keys = df.column(LINE_KEYS)?.list()?.clone();
        Ok((marked, plies, keys))
    };
    let ((a_marked, a_plies, a_keys), (b_marked, _, b_keys)) = (lists(first)?, lists(second)?);
    let (mut plies, mut keys): (Vec<Option<u32>>, Vec<Option<i64>>) =
        (ply.u32()?.iter().collect(), key.i64()?.iter().collect());
    for i in 0..first.height() {
        let (Some(pa), Some(ka), Some(kb)) = (
            a_plies.get_as_series(i),
            a_keys.get_as_series(i),
            b_keys.get_as_series(i),
        ) else {
            continue;
        };
        if a_marked.get(i).is_some() || b_marked.get(i).is_some() {
            continue;
        }
        let kb: Vec<i64> = kb.i64()?.into_no_null_iter().collect();
        let deepest = pa
            .u32()?
            .into_no_null_iter()
            .zip(ka.i64()?.into_no_null_iter())
            .rfind(|(_, k)| kb.contains(k));
        if let Some((pl, k)) = deepest {
            (plies[i], keys[i]) = (Some(pl), Some(k));
        }
    }
    Ok((
        Column::new(opening_col::OPENING_PLY.into(), plies),
        Column::new(p::OPENING_KEY.into(), keys),
    ))
}

/// How [`pentanomial`] and [`openings`] group and select.
#[derive(Debug, Clone, Default)]
pub struct PairsOptions {
    /// Besides the engine pair: per event, per season, or over all events
    /// (`Group::Engine`, the default here; the CLI's is per event).
    pub group: Group,
    pub selection: Selection,
    /// The GSPRT whose LLR is computed per engine pair.
    pub sprt: Option<Sprt>,
}

/// The grouping column besides the engines, added to a frame with `event`.
fn with_outer(lf: LazyFrame, group: Group) -> LazyFrame {
    match group {
        Group::SeasonEngine => lf.with_column(season(col(col::EVENT)).alias(metric::SEASON)),
        _ => lf,
    }
}

/// Which rows of an (engine, opponent) view a statistic keeps: those whose
/// engine matches `--engine`, or without one each unordered pair once (the
/// engine first in name order); never an engine against itself (families
/// merged into one name).
fn keep_view(sel: &Selection) -> Expr {
    let (e, o) = (col(metric::ENGINE), col(metric::OPPONENT));
    let view = match &sel.engine {
        Some(re) => super::matches(e.clone(), re),
        None => e.clone().lt(o.clone()),
    };
    view.and(e.neq(o))
}

/// Per (group, engine, opponent), from the engine's view: pairs, the five
/// pentanomial counts (ll, ld, dd_wl, wd, ww), busted (the 1–1 pairs with a
/// win each), the games' wins, draws and losses, unpaired games between the
/// two, score, score_se and score_se_trinomial and their ratio se_ratio,
/// elo with its 95 % interval (elo_lo, elo_hi, elo_error), the trinomial
/// elo_error_trinomial, nelo and nelo_error, with `sprt` llr, its bounds and
/// the verdict; and a reason where a value is not identified.
pub fn pentanomial(paired: &Paired, opts: &PairsOptions) -> PolarsResult<DataFrame> {
    let sel = &opts.selection;
    let fam = |lf: LazyFrame, e: &str, o: &str| {
        lf.with_columns([
            sel.families.apply(col(e)).alias(metric::ENGINE),
            sel.families.apply(col(o)).alias(metric::OPPONENT),
        ])
    };
    let pairs = fam(
        paired.pairs.clone().lazy(),
        metric::ENGINE,
        metric::OPPONENT,
    );
    let (r1, r2) = (col(p::FIRST_RESULT), col(p::SECOND_RESULT));
    let wins = r1.clone().eq(lit("1-0")).cast(DataType::UInt32)
        + r2.clone().eq(lit("0-1")).cast(DataType::UInt32);
    let losses =
        r1.eq(lit("0-1")).cast(DataType::UInt32) + r2.eq(lit("1-0")).cast(DataType::UInt32);
    let view = |lf: LazyFrame, swap: bool| {
        let (e, o) = if swap {
            (metric::OPPONENT, metric::ENGINE)
        } else {
            (metric::ENGINE, metric::OPPONENT)
        };
        let (pts, w, l) = if swap {
            (lit(2.0) - col(p::PAIR_POINTS), losses.clone(), wins.clone())
        } else {
            (col(p::PAIR_POINTS), wins.clone(), losses.clone())
        };
        lf.select([
            col(col::EVENT),
            col(e).alias(metric::ENGINE),
            col(o).alias(metric::OPPONENT),
            pts.alias(p::PAIR_POINTS),
            w.alias(metric::WINS),
            l.alias(metric::LOSSES),
            lit(0u32).alias(p::UNPAIRED),
        ])
    };
    let unpaired = fam(paired.unpaired.clone().lazy(), col::WHITE, col::BLACK);
    let lone = |swap: bool| {
        let (e, o) = if swap {
            (metric::OPPONENT, metric::ENGINE)
        } else {
            (metric::ENGINE, metric::OPPONENT)
        };
        unpaired.clone().select([
            col(col::EVENT),
            col(e).alias(metric::ENGINE),
            col(o).alias(metric::OPPONENT),
            lit(NULL).cast(DataType::Float64).alias(p::PAIR_POINTS),
            lit(NULL).cast(DataType::UInt32).alias(metric::WINS),
            lit(NULL).cast(DataType::UInt32).alias(metric::LOSSES),
            lit(1u32).alias(p::UNPAIRED),
        ])
    };
    let all = concat(
        [
            view(pairs.clone(), false),
            view(pairs, true),
            lone(false),
            lone(true),
        ],
        UnionArgs::default(),
    )?
    .filter(keep_view(sel));
    let all = with_outer(all, opts.group);
    let keys: Vec<Expr> = opts
        .group
        .outer()
        .into_iter()
        .chain([metric::ENGINE, metric::OPPONENT])
        .map(col)
        .collect();
    let pts = col(p::PAIR_POINTS);
    let mut aggs = vec![pts.clone().count().alias(p::PAIRS)];
    for (k, bin) in p::BINS.iter().enumerate() {
        let k = k as f64 / 2.0;
        aggs.push(pts.clone().eq(lit(k)).sum().alias(*bin));
    }
    aggs.extend([
        (col(metric::WINS).eq(lit(1u32)))
            .and(col(metric::LOSSES).eq(lit(1u32)))
            .sum()
            .alias(p::BUSTED),
        col(metric::WINS).sum().alias(metric::WINS),
        (lit(2u32) * pts.count().cast(DataType::UInt32)
            - col(metric::WINS).sum()
            - col(metric::LOSSES).sum())
        .alias(metric::DRAWS),
        col(metric::LOSSES).sum().alias(metric::LOSSES),
        col(p::UNPAIRED).sum().alias(p::UNPAIRED),
    ]);
    let mut df = all
        .group_by(keys.clone())
        .agg(aggs)
        .sort_by_exprs(keys, SortMultipleOptions::default())
        .collect()?;
    add_estimates(&mut df, opts.sprt.as_ref())?;
    Ok(df)
}

/// The per-row statistics of [`pentanomial`], from its counts.
fn add_estimates(df: &mut DataFrame, sprt: Option<&Sprt>) -> PolarsResult<()> {
    let u = |c: &str| -> PolarsResult<Vec<u64>> {
        let s = df.column(c)?.cast(&DataType::UInt64)?;
        Ok(s.u64()?.iter().map(|v| v.unwrap_or(0)).collect())
    };
    let bins = p::BINS.map(u);
    let [ll, ld, mid, wd, ww] = bins;
    let (ll, ld, mid, wd, ww) = (ll?, ld?, mid?, wd?, ww?);
    let (w, d, l) = (u(metric::WINS)?, u(metric::DRAWS)?, u(metric::LOSSES)?);
    let mut out: Vec<(Option<Estimate>, Option<Estimate>, Penta)> = Vec::new();
    for i in 0..df.height() {
        let penta = Penta([ll[i], ld[i], mid[i], wd[i], ww[i]]);
        let tri = Trinomial {
            wins: w[i],
            draws: d[i],
            losses: l[i],
        };
        out.push((math::pentanomial(&penta), math::trinomial(&tri), penta));
    }
    let f = |name: &str, g: &dyn Fn(&Estimate) -> Option<f64>, tri: bool| {
        let v: Vec<Option<f64>> = out
            .iter()
            .map(|(pe, te, _)| if tri { te.as_ref() } else { pe.as_ref() }.and_then(g))
            .collect();
        Column::new(name.into(), v)
    };
    let ratio: Vec<Option<f64>> = out
        .iter()
        .map(|(pe, te, _)| match (pe, te) {
            (Some(pe), Some(te)) if pe.score_se > 0.0 && te.score_se > 0.0 => {
                Some(pe.score_se / te.score_se)
            }
            _ => None,
        })
        .collect();
    let reason: Vec<Option<&str>> = out
        .iter()
        .map(|(pe, _, _)| match pe {
            None => Some("no pairs"),
            Some(e) => math::reason(e),
        })
        .collect();
    let mut cols = vec![
        f(metric::SCORE, &|e| Some(e.score), false),
        f(p::SCORE_SE, &|e| Some(e.score_se), false),
        f(p::SCORE_SE_TRINOMIAL, &|e| Some(e.score_se), true),
        Column::new(p::SE_RATIO.into(), ratio),
        f(p::ELO, &|e| e.elo, false),
        f(p::ELO_LO, &|e| e.elo_lo, false),
        f(p::ELO_HI, &|e| e.elo_hi, false),
        f(p::ELO_ERROR, &|e| e.elo_error, false),
        f(p::ELO_ERROR_TRINOMIAL, &|e| e.elo_error, true),
        f(p::NELO, &|e| e.nelo, false),
        f(p::NELO_ERROR, &|e| e.nelo_error, false),
    ];
    if let Some(s) = sprt {
        let (lower, upper) = s.bounds();
        let llr: Vec<Option<f64>> = out.iter().map(|(_, _, pn)| s.llr(pn)).collect();
        let verdict: Vec<Option<&str>> =
            llr.iter().map(|v| v.map(|v| s.verdict(v).name())).collect();
        cols.extend([
            Column::new(p::LLR.into(), llr),
            Column::new(p::LLR_LOWER.into(), vec![lower; out.len()]),
            Column::new(p::LLR_UPPER.into(), vec![upper; out.len()]),
            Column::new(p::SPRT.into(), verdict),
        ]);
    }
    cols.push(Column::new(metric::REASON.into(), reason));
    df.hstack_mut(&cols)?;
    Ok(())
}

/// The kinds of [`kind`].
pub const REVERSE_KILL: &str = "reverse kill";
pub const DECISIVE: &str = "decisive";
pub const BUSTED: &str = "busted";

/// The kind of a pair (TCEC's GUI terms, docs/definitions/pairs.md R3–R5):
/// `reverse kill` (one engine won both games), `decisive` (1½–½) or
/// `busted` (1–1, each engine won with the same colour); null for the
/// others (two draws).
pub fn kind() -> Expr {
    let pts = col(p::PAIR_POINTS);
    when(pts.clone().eq(lit(2.0)).or(pts.clone().eq(lit(0.0))))
        .then(lit(REVERSE_KILL))
        .when(pts.clone().neq(lit(1.0)))
        .then(lit(DECISIVE))
        .when(col(p::FIRST_RESULT).neq(lit("1/2-1/2")))
        .then(lit(BUSTED))
        .otherwise(lit(NULL).cast(DataType::String))
}

/// Whether `--engine` matches either engine of a pair (true without one),
/// on the pairs' `engine` and `opponent` with the families merged.
pub fn either_engine(sel: &Selection) -> Expr {
    match &sel.engine {
        Some(re) => {
            let side = |c: &str| super::matches(sel.families.apply(col(c)), re);
            side(metric::ENGINE).or(side(metric::OPPONENT))
        }
        None => lit(true),
    }
}

/// The pairs that are decisive openings (reverse kills among them) or busted
/// ones, one row each in game order: event, rounds, games, engine (White in
/// the first game), opponent, results, pair_score (the engine's, e.g.
/// `1.5-0.5`), kind, winner, eco, opening, opening_ply and opening_moves (the
/// first game's SAN up to the opening ply).
pub fn openings(paired: &Paired, moves: LazyFrame, opts: &PairsOptions) -> PolarsResult<DataFrame> {
    let sel = &opts.selection;
    let (e, o) = (col(metric::ENGINE), col(metric::OPPONENT));
    let pts = col(p::PAIR_POINTS);
    let score = when(pts.clone().eq(lit(0.0)))
        .then(lit("0-2"))
        .when(pts.clone().eq(lit(0.5)))
        .then(lit("0.5-1.5"))
        .when(pts.clone().eq(lit(1.0)))
        .then(lit("1-1"))
        .when(pts.clone().eq(lit(1.5)))
        .then(lit("1.5-0.5"))
        .otherwise(lit("2-0"));
    let mut df = paired
        .pairs
        .clone()
        .lazy()
        .filter(either_engine(sel))
        .with_columns([
            sel.families.apply(e.clone()).alias(metric::ENGINE),
            sel.families.apply(o.clone()).alias(metric::OPPONENT),
            kind().alias(p::KIND),
        ])
        .filter(col(p::KIND).is_not_null())
        .select([
            col(col::EVENT),
            col(p::FIRST_ROUND),
            col(p::SECOND_ROUND),
            col(p::FIRST_GAME_ID),
            col(p::SECOND_GAME_ID),
            e.clone(),
            o.clone(),
            col(p::FIRST_RESULT),
            col(p::SECOND_RESULT),
            score.alias(p::PAIR_SCORE),
            col(p::KIND),
            when(pts.clone().gt(lit(1.0)))
                .then(e)
                .when(pts.lt(lit(1.0)))
                .then(o)
                .otherwise(lit(NULL).cast(DataType::String))
                .alias(p::WINNER),
            col(col::ECO),
            col(col::OPENING),
            col(opening_col::OPENING_PLY),
        ])
        .collect()?;
    let text = opening_moves(&df, moves)?;
    df.with_column(Column::new(p::OPENING_MOVES.into(), text))?;
    Ok(df)
}

/// The games in no pair whose White or Black matches `--engine` (names
/// merged into families), with the reason.
pub fn unpaired(paired: &Paired, opts: &PairsOptions) -> PolarsResult<DataFrame> {
    let sel = &opts.selection;
    sel.games(paired.unpaired.clone().lazy())
        .filter(sel.either_side())
        .collect()
}

/// The SAN of each listed pair's first game up to its opening ply.
fn opening_moves(df: &DataFrame, moves: LazyFrame) -> PolarsResult<Vec<String>> {
    let ids = df.column(p::FIRST_GAME_ID)?.i64()?.clone();
    let plies = df.column(opening_col::OPENING_PLY)?.u32()?;
    let wanted = DataFrame::new_infer_height(vec![
        Column::new(col::GAME_ID.into(), ids.clone()),
        Column::new(opening_col::OPENING_PLY.into(), plies.clone()),
    ])?;
    // The listed games' moves alone are read (a join would first read every
    // ply's SAN of the archive: 0.77 GB for the archive concatenated 4×).
    let listed: Vec<i64> = ids.into_no_null_iter().collect();
    let sans = moves
        .filter(game_id_in(&listed))
        .select([col(col::GAME_ID), col(col::PLY), col(col::SAN)])
        .join(
            wanted.lazy(),
            [col(col::GAME_ID)],
            [col(col::GAME_ID)],
            JoinArgs::new(JoinType::Inner),
        )
        .filter(col(col::PLY).lt_eq(col(opening_col::OPENING_PLY)))
        .sort([col::GAME_ID, col::PLY], SortMultipleOptions::default())
        .collect()?;
    let mut text: HashMap<i64, String> = HashMap::new();
    let (g, s) = (
        sans.column(col::GAME_ID)?.i64()?,
        sans.column(col::SAN)?.str()?,
    );
    for (g, s) in g.iter().flatten().zip(s.iter().flatten()) {
        let t = text.entry(g).or_default();
        if !t.is_empty() {
            t.push(' ');
        }
        t.push_str(s);
    }
    Ok(ids
        .into_no_null_iter()
        .map(|g| text.remove(&g).unwrap_or_default())
        .collect())
}

#[cfg(test)]
mod tests;
