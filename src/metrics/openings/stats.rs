//! Results per opening: games, White's score, draw and decisive shares, the
//! colour-swapped pairs and how many were decisive, and per engine its games
//! and score with the opening; the opening by the games' ECO and Opening
//! tags or by [`super::classify`]'s lines, or a Chess960 game's start
//! position.

use polars::prelude::*;

use super::chess960;
use crate::metrics::pairs::{BUSTED, DECISIVE, Paired, REVERSE_KILL, either_engine, kind};
use crate::metrics::standings::{count, pct};
use crate::metrics::{Families, Selection, engine_games};
use crate::schema::metric::pairs as p;
use crate::schema::metric::standings as st;
use crate::schema::{col, metric, opening_col};

/// The rows of [`opening_stats`]: per opening, or per opening and engine.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum By {
    #[default]
    Opening,
    EventOpening,
    OpeningEngine,
    /// Chess960 games by their start position (each side's SP).
    Start,
    EventStart,
}

impl By {
    /// Chess960 games by their start position.
    fn by_start(self) -> bool {
        matches!(self, By::Start | By::EventStart)
    }

    /// The keys of a row (per opening or start position, not per engine).
    fn keys(self) -> &'static [&'static str] {
        const W: &str = opening_col::CHESS960_SP[0];
        const B: &str = opening_col::CHESS960_SP[1];
        match self {
            By::Opening => &[col::ECO, col::OPENING],
            By::EventOpening => &[col::EVENT, col::ECO, col::OPENING],
            By::Start => &[W, B, col::OPENING],
            By::EventStart => &[col::EVENT, W, B, col::OPENING],
            By::OpeningEngine => &[],
        }
    }
}

impl crate::choice::Choice for By {
    const ALL: &'static [Self] = &[
        By::Opening,
        By::EventOpening,
        By::OpeningEngine,
        By::Start,
        By::EventStart,
    ];
    fn name(self) -> &'static str {
        match self {
            By::Opening => "opening",
            By::EventOpening => "event,opening",
            By::OpeningEngine => "opening,engine",
            By::Start => "start",
            By::EventStart => "event,start",
        }
    }
    fn help(self) -> &'static str {
        match self {
            By::Opening => "One row per opening: White's score, draws, decisive games and pairs",
            By::EventOpening => "As `opening`, per event",
            By::OpeningEngine => "One row per opening and engine: the engine's games and score",
            By::Start => {
                "One row per Chess960 start position (each side's Scharnagl number; a \
                 start that is no arrangement by its FEN): White's score, draws, decisive \
                 games and pairs"
            }
            By::EventStart => "As `start`, per event",
        }
    }
}
crate::display_choice!(By);

#[derive(Debug, Clone, Default)]
pub struct OpeningStatsOptions {
    pub by: By,
    pub selection: Selection,
}

/// z of a two-sided 95 % interval.
const Z95: f64 = 1.959_963_984_540_054;

/// Wilson's score interval for a proportion `x / n` (`x` may be fractional:
/// points), at two-sided normal quantile `z`; None when `n` is 0. With draws
/// a game's score varies less than a Bernoulli trial's, so for a score the
/// interval is conservative (wider than needed), never too narrow.
pub fn wilson(x: f64, n: f64, z: f64) -> Option<(f64, f64)> {
    if n <= 0.0 {
        return None;
    }
    let p = x / n;
    let z2 = z * z;
    let d = 1.0 + z2 / n;
    let center = (p + z2 / (2.0 * n)) / d;
    let half = z / d * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    Some(((center - half).max(0.0), (center + half).min(1.0)))
}

/// The games' opening: `classified` (the `openings` table: game_id, eco,
/// opening) when given, else the games' own tags.
fn with_opening(games: LazyFrame, classified: Option<LazyFrame>) -> LazyFrame {
    match classified {
        None => games,
        Some(o) => games
            .drop(by_name([col::ECO, col::OPENING], true, false))
            .join(
                o.select([col(col::GAME_ID), col(col::ECO), col(col::OPENING)]),
                [col(col::GAME_ID)],
                [col(col::GAME_ID)],
                JoinArgs::new(JoinType::Left),
            ),
    }
}

/// The Chess960 games with their start position: each side's SP and its
/// name in `opening` (games that are no arrangement are left out).
fn with_start(games: LazyFrame) -> PolarsResult<LazyFrame> {
    let starts = chess960::start_positions(games.clone())
        .map_err(|e| PolarsError::ComputeError(e.to_string().into()))?
        .lazy();
    // A start that is no Chess960 arrangement (a book of positions some
    // moves in) is its own row, named by its FEN: such a game is not left out.
    let from_fen = lit("Chess960 from ") + col(col::START_FEN);
    Ok(games
        .drop(by_name([col::OPENING], true, false))
        .join(
            starts,
            [col(col::GAME_ID)],
            [col(col::GAME_ID)],
            JoinArgs::new(JoinType::Inner),
        )
        .with_column(col(chess960::NAME).fill_null(from_fen).alias(col::OPENING))
        .drop(by_name([chess960::NAME], true, false)))
}

/// Per row key (the columns `keys` of `keyed`, by each pair's first game):
/// the colour-swapped pairs, those won 1½–½ or 2–0 (TCEC's decisive
/// openings) and of them the 2–0 ones (reverse kills), and the busted ones
/// (1–1, each engine winning with the same colour). With `--engine`, the
/// pairs it played.
fn pair_counts(paired: &Paired, keyed: LazyFrame, keys: &[&str], sel: &Selection) -> LazyFrame {
    let k = || col(p::KIND);
    let mut by: Vec<Expr> = vec![col(col::GAME_ID)];
    by.extend(keys.iter().map(|k| col(*k)));
    paired
        .pairs
        .clone()
        .lazy()
        .filter(either_engine(sel))
        // The pair's own opening columns (its tags) give way to the keys.
        .select([col(p::FIRST_GAME_ID), kind().alias(p::KIND)])
        .join(
            keyed.select(by),
            [col(p::FIRST_GAME_ID)],
            [col(col::GAME_ID)],
            JoinArgs::new(JoinType::Inner),
        )
        .group_by(keys.iter().map(|k| col(*k)).collect::<Vec<_>>())
        .agg([
            len().cast(DataType::UInt32).alias(p::PAIRS),
            count(k().eq(lit(DECISIVE)).or(k().eq(lit(REVERSE_KILL)))).alias(p::DECISIVE_PAIRS),
            count(k().eq(lit(REVERSE_KILL))).alias(p::REVERSE_KILLS),
            count(k().eq(lit(BUSTED))).alias(p::BUSTED_PAIRS),
        ])
}

/// Results per opening (finished games only; `*` games are left out).
///
/// By opening: eco, opening, games, white_wins, draws, black_wins,
/// white_score_pct with its 95 % Wilson interval (white_score_lo,
/// white_score_hi), draw_pct with its interval (draw_lo, draw_hi),
/// decisive_pct, then the colour-swapped pairs (by their first game's
/// opening): pairs, decisive_pairs, reverse_kills, busted_pairs; most
/// played first. `event,opening`: the same per event.
/// `--engine` keeps the games and pairs the engine played.
///
/// By start: the same per Chess960 start position, keyed by
/// chess960_sp_white, chess960_sp_black and the name (`opening`), in SP
/// order; games of other variants are left out. `event,start`: per event.
///
/// By engine: eco, opening, engine, games, wins, draws, losses, points,
/// score_pct, score_lo, score_hi; by opening, then engine.
///
/// Games without an opening (no tags, or no classified line) are one row
/// with a null eco and opening. `paired`: the colour-swapped pairs of the
/// same games ([`pairs`](crate::metrics::pairs::pairs) with the same
/// selection), computed once by the caller, which may show them too.
pub fn opening_stats(
    games: LazyFrame,
    paired: &Paired,
    classified: Option<LazyFrame>,
    opts: &OpeningStatsOptions,
) -> PolarsResult<DataFrame> {
    let sel = &opts.selection;
    let finished = |g: LazyFrame| {
        g.filter(col(col::RESULT).is_in(
            lit(Series::new("r".into(), ["1-0", "0-1", "1/2-1/2"])).implode(false),
            false,
        ))
    };
    let keyed = if opts.by.by_start() {
        with_start(games.clone())?
    } else {
        with_opening(games.clone(), classified)
    };
    let games = finished(sel.games(keyed.clone()));
    let pct = |a: Expr| pct(a, col(metric::GAMES));
    let mut df = match opts.by {
        By::OpeningEngine => per_engine(games, sel)?,
        by => {
            let keys = by.keys();
            let r = || col(col::RESULT);
            let per_game = games
                .filter(sel.either_side())
                .group_by(keys.iter().map(|k| col(*k)).collect::<Vec<_>>())
                .agg([
                    len().cast(DataType::UInt32).alias(metric::GAMES),
                    count(r().eq(lit("1-0"))).alias(st::WHITE_WINS),
                    count(r().eq(lit("1/2-1/2"))).alias(metric::DRAWS),
                    count(r().eq(lit("0-1"))).alias(st::BLACK_WINS),
                ])
                .with_columns([
                    pct(col(st::WHITE_WINS).cast(DataType::Float64)
                        + col(metric::DRAWS).cast(DataType::Float64) * lit(0.5))
                    .alias(st::WHITE_SCORE_PCT),
                    pct(col(metric::DRAWS)).alias(st::DRAW_PCT),
                    pct(col(st::WHITE_WINS) + col(st::BLACK_WINS)).alias(st::DECISIVE_PCT),
                ]);
            let counts = [
                p::PAIRS,
                p::DECISIVE_PAIRS,
                p::REVERSE_KILLS,
                p::BUSTED_PAIRS,
            ];
            let key_cols = keys.iter().map(|k| col(*k)).collect::<Vec<_>>();
            // Start positions in SP order; openings most played first.
            let mut sort: Vec<&str> = keys.to_vec();
            let mut descending = vec![false; keys.len()];
            if !by.by_start() {
                let at = keys.len() - 2;
                sort.insert(at, metric::GAMES);
                descending.insert(at, true);
            }
            per_game
                .join(
                    pair_counts(paired, keyed, keys, sel),
                    key_cols.clone(),
                    key_cols,
                    JoinArgs {
                        nulls_equal: true,
                        ..JoinArgs::new(JoinType::Left)
                    },
                )
                .with_columns(counts.map(|c| col(c).fill_null(lit(0u32))))
                .sort(
                    sort,
                    SortMultipleOptions::default()
                        .with_order_descending_multi(descending)
                        .with_nulls_last(true),
                )
                .collect()?
        }
    };
    let intervals: &[(&str, &str, &str)] = match opts.by {
        By::OpeningEngine => &[(st::SCORE_PCT, st::SCORE_LO, st::SCORE_HI)],
        _ => &[
            (st::WHITE_SCORE_PCT, st::WHITE_SCORE_LO, st::WHITE_SCORE_HI),
            (st::DRAW_PCT, st::DRAW_LO, st::DRAW_HI),
        ],
    };
    let n = df.column(metric::GAMES)?.cast(&DataType::Float64)?;
    for &(share, low, high) in intervals {
        let p = df.column(share)?.cast(&DataType::Float64)?;
        let ci: Vec<Option<(f64, f64)>> = p
            .f64()?
            .iter()
            .zip(n.f64()?.iter())
            .map(|(p, n)| wilson(p? / 100.0 * n?, n?, Z95))
            .collect();
        let at = df.get_column_index(share).map_or(df.width(), |i| i + 1);
        df.insert_column(
            at,
            Column::new(
                high.into(),
                ci.iter()
                    .map(|c| c.map(|c| c.1 * 100.0))
                    .collect::<Vec<_>>(),
            ),
        )?;
        df.insert_column(
            at,
            Column::new(
                low.into(),
                ci.iter()
                    .map(|c| c.map(|c| c.0 * 100.0))
                    .collect::<Vec<_>>(),
            ),
        )?;
    }
    Ok(df)
}

/// Per opening and engine: the engine's games, W/D/L, points and score.
fn per_engine(games: LazyFrame, sel: &Selection) -> PolarsResult<DataFrame> {
    let openings = games
        .clone()
        .select([col(col::GAME_ID), col(col::ECO), col(col::OPENING)]);
    let s = || col(metric::SCORE);
    let sides = engine_games(games, &Families::default())?.join(
        openings,
        [col(col::GAME_ID)],
        [col(col::GAME_ID)],
        JoinArgs::new(JoinType::Inner),
    );
    sel.engines(sides, metric::ENGINE)
        .group_by([col(col::ECO), col(col::OPENING), col(metric::ENGINE)])
        .agg([
            len().cast(DataType::UInt32).alias(metric::GAMES),
            count(s().eq(lit(1.0))).alias(metric::WINS),
            count(s().eq(lit(0.5))).alias(metric::DRAWS),
            count(s().eq(lit(0.0))).alias(metric::LOSSES),
            s().sum().alias(st::POINTS),
        ])
        .with_column(pct(col(st::POINTS), col(metric::GAMES)).alias(st::SCORE_PCT))
        .sort(
            [col::ECO, col::OPENING, metric::ENGINE],
            SortMultipleOptions::default().with_nulls_last(true),
        )
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::pairs::pairs;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 5e-5
    }

    /// Newcombe (1998), "Two-sided confidence intervals for the single
    /// proportion", Table I, method 3 (score interval), to 4 decimals.
    #[test]
    fn wilson_worked_examples() {
        for (x, n, lo4, hi4) in [
            (81.0, 263.0, 0.2553, 0.3662),
            (15.0, 148.0, 0.0624, 0.1605),
            (0.0, 20.0, 0.0, 0.1611),
            (1.0, 29.0, 0.0061, 0.1718),
        ] {
            let (lo, hi) = wilson(x, n, Z95).unwrap();
            let r = |v: f64| (v * 1e4).round() / 1e4;
            assert_eq!((r(lo), r(hi)), (lo4, hi4), "{x}/{n}");
        }
        // Symmetric around ½ for x = n/2.
        let (lo, hi) = wilson(5.0, 10.0, Z95).unwrap();
        assert!(close(lo + hi, 1.0));
        assert_eq!(wilson(0.0, 0.0, Z95), None);
    }

    /// Six games of A and B; g1 and g2 (one book move to the position 10)
    /// are a colour-swapped pair, A scoring 1½ of 2: a decisive pair. g3
    /// waits in vain for its partner, g4 and g5 have other openings.
    fn games() -> (LazyFrame, LazyFrame) {
        let g = df!(
            col::GAME_ID => [1i64, 2, 3, 4, 5, 6],
            col::EVENT => ["E"; 6],
            col::ROUND => ["1", "2", "3", "4", "5", "6"],
            col::WHITE => ["A", "B", "A", "B", "A", "A"],
            col::BLACK => ["B", "A", "B", "A", "B", "B"],
            col::RESULT => ["1-0", "1/2-1/2", "0-1", "1/2-1/2", "1-0", "*"],
            col::ECO => [Some("B90"), Some("B90"), Some("B90"), Some("C42"), None, Some("C42")],
            col::OPENING => [Some("Sicilian"), Some("Sicilian"), Some("Sicilian"), Some("Petrov"), None, Some("Petrov")],
            col::SOURCE_FILE => ["a.pgn"; 6],
            col::GAME_NUMBER => [1u32, 2, 3, 4, 5, 6],
            col::START_FEN => [None::<&str>; 6],
            col::START_KEY => [7i64; 6],
            col::VARIANT => ["standard"; 6],
            col::PLIES => [1u32; 6],
        )
        .unwrap();
        let m = df!(
            col::GAME_ID => [1i64, 2, 3, 4, 5, 6],
            col::PLY => [1u32; 6],
            col::IS_BOOK => [true; 6],
            col::POSITION_KEY => [10i64, 10, 10, 20, 30, 20],
        )
        .unwrap();
        (g.lazy(), m.lazy())
    }

    fn stats(by: By, engine: Option<&str>, classified: Option<LazyFrame>) -> DataFrame {
        let (g, m) = games();
        let opts = OpeningStatsOptions {
            by,
            selection: Selection::new(None, engine.map(str::to_string), &[]).unwrap(),
        };
        let paired = pairs(g.clone(), m, &opts.selection, None).unwrap();
        opening_stats(g, &paired, classified, &opts).unwrap()
    }

    fn f(df: &DataFrame, c: &str, row: usize) -> Option<f64> {
        df.column(c)
            .unwrap()
            .cast(&DataType::Float64)
            .unwrap()
            .f64()
            .unwrap()
            .get(row)
    }

    /// B90: 1-0, ½, 0-1 → White 1.5/3 = 50 %, 1 draw of 3, 2 decisive, one
    /// pair won 1½–½. C42: one draw (the `*` game is left out). One game
    /// without tags.
    #[test]
    fn per_opening_by_hand() {
        let df = stats(By::Opening, None, None);
        let eco: Vec<_> = df.column(col::ECO).unwrap().str().unwrap().iter().collect();
        assert_eq!(eco, [Some("B90"), Some("C42"), None]);
        assert_eq!(f(&df, metric::GAMES, 0), Some(3.0));
        assert_eq!(f(&df, st::WHITE_SCORE_PCT, 0), Some(50.0));
        assert!(close(f(&df, st::DRAW_PCT, 0).unwrap(), 100.0 / 3.0));
        assert!(close(f(&df, st::DECISIVE_PCT, 0).unwrap(), 200.0 / 3.0));
        let (lo, hi) = wilson(1.5, 3.0, Z95).unwrap();
        assert!(close(f(&df, st::WHITE_SCORE_LO, 0).unwrap(), lo * 100.0));
        assert!(close(f(&df, st::WHITE_SCORE_HI, 0).unwrap(), hi * 100.0));
        assert_eq!(f(&df, metric::GAMES, 1), Some(1.0));
        assert_eq!(f(&df, st::DRAW_PCT, 1), Some(100.0));
        let names: Vec<_> = df
            .get_column_names()
            .iter()
            .map(|c| c.to_string())
            .collect();
        assert_eq!(
            names,
            [
                "eco",
                "opening",
                "games",
                "white_wins",
                "draws",
                "black_wins",
                "white_score_pct",
                "white_score_lo",
                "white_score_hi",
                "draw_pct",
                "draw_lo",
                "draw_hi",
                "decisive_pct",
                "pairs",
                "decisive_pairs",
                "reverse_kills",
                "busted_pairs"
            ]
        );
        for (c, want) in [
            (p::PAIRS, [1.0, 0.0, 0.0]),
            (p::DECISIVE_PAIRS, [1.0, 0.0, 0.0]),
            (p::REVERSE_KILLS, [0.0; 3]),
            (p::BUSTED_PAIRS, [0.0; 3]),
        ] {
            assert_eq!(
                (0..3).map(|r| f(&df, c, r).unwrap()).collect::<Vec<_>>(),
                want,
                "{c}"
            );
        }
        // Per event: the same rows, keyed by the event too.
        let per_event = stats(By::EventOpening, None, None);
        assert_eq!(per_event.drop(col::EVENT).unwrap(), df);
        // B's pairs are A's: the same pair; C plays none.
        assert_eq!(
            f(&stats(By::Opening, Some("^B$"), None), p::PAIRS, 0),
            Some(1.0)
        );
        assert_eq!(stats(By::Opening, Some("^C$"), None).height(), 0);
    }

    /// A in B90: won as White (g1), drew as Black (g2), lost as White (g3):
    /// 1.5 of 3. With the classified table, g1 and g2 become C42 instead.
    #[test]
    fn per_engine_and_classified() {
        let df = stats(By::OpeningEngine, Some("^A$"), None);
        assert_eq!(df.height(), 3);
        assert_eq!(f(&df, st::POINTS, 0), Some(1.5));
        assert_eq!(f(&df, metric::WINS, 0), Some(1.0));
        assert_eq!(f(&df, metric::LOSSES, 0), Some(1.0));
        assert_eq!(f(&df, st::SCORE_PCT, 0), Some(50.0));
        let classified = df!(
            col::GAME_ID => [1i64, 2],
            col::ECO => ["C42", "C42"],
            col::OPENING => ["Petrov", "Petrov"],
        )
        .unwrap()
        .lazy();
        let df = stats(By::Opening, None, Some(classified));
        let eco: Vec<_> = df.column(col::ECO).unwrap().str().unwrap().iter().collect();
        // C42: g1, g2; unclassified: g3, g4, g5.
        assert_eq!(eco, [None, Some("C42")]);
        assert_eq!(f(&df, metric::GAMES, 0), Some(3.0));
        assert_eq!(f(&df, st::WHITE_SCORE_PCT, 1), Some(75.0));
        // The pair's first game, g1, is C42 now.
        assert_eq!(f(&df, p::PAIRS, 1), Some(1.0));
    }

    /// By start: only Chess960 games, keyed by each side's SP. g1 and g2
    /// from SP 0, g3 from the standard arrangement (SP 518), g4 from a
    /// Double-FRC start (White SP 959, Black SP 0), g5 from a position eight
    /// moves in (a fastchess FRC book's): no SP, its own row by its FEN, last;
    /// g6 standard chess.
    #[test]
    fn per_start_position_by_hand() {
        let fen = |w: &str, b: &str| format!("{b}/pppppppp/8/8/8/8/PPPPPPPP/{w} w KQkq - 0 1");
        let (sp0, dfrc) = (fen("BBQNNRKR", "bbqnnrkr"), fen("RKRNNQBB", "bbqnnrkr"));
        let later = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
        let start_fen = [
            Some(sp0.as_str()),
            Some(&sp0),
            None,
            Some(&dfrc),
            Some(later),
            None,
        ];
        let (g, m) = games();
        let g = g.with_columns([
            Series::new(col::START_FEN.into(), start_fen).lit(),
            Series::new(
                col::VARIANT.into(),
                [
                    "chess960", "chess960", "chess960", "chess960", "chess960", "standard",
                ],
            )
            .lit(),
        ]);
        let opts = OpeningStatsOptions {
            by: By::Start,
            selection: Selection::default(),
        };
        let paired = pairs(g.clone(), m, &opts.selection, None).unwrap();
        let df = opening_stats(g, &paired, None, &opts).unwrap();
        let [w, b] = opening_col::CHESS960_SP;
        let col_f = |c: &str| (0..df.height()).map(|r| f(&df, c, r)).collect::<Vec<_>>();
        assert_eq!(col_f(w), [Some(0.0), Some(518.0), Some(959.0), None]);
        assert_eq!(col_f(b), [Some(0.0), Some(518.0), Some(0.0), None]);
        let col_f = |c: &str| col_f(c).into_iter().flatten().collect::<Vec<_>>();
        assert_eq!(col_f(metric::GAMES), [2.0, 1.0, 1.0, 1.0]);
        assert_eq!(col_f(st::WHITE_SCORE_PCT), [75.0, 0.0, 50.0, 100.0]);
        assert_eq!(col_f(p::PAIRS), [1.0, 0.0, 0.0, 0.0]);
        assert_eq!(col_f(p::DECISIVE_PAIRS), [1.0, 0.0, 0.0, 0.0]);
        let names: Vec<_> = df
            .column(col::OPENING)
            .unwrap()
            .str()
            .unwrap()
            .iter()
            .collect();
        assert_eq!(names[2], Some("Chess960 SP 959 RKRNNQBB / SP 0 BBQNNRKR"));
        assert_eq!(names[3], Some(format!("Chess960 from {later}").as_str()));
    }
}
