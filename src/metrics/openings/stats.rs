//! Results per opening: games, White's score, draw and decisive shares, and
//! per engine its games and score with the opening; the opening by the
//! games' ECO and Opening tags or by [`super::classify`]'s lines.

use polars::prelude::*;

use crate::metrics::standings::{count, pct};
use crate::metrics::{Families, Selection, engine_games};
use crate::schema::metric::standings as st;
use crate::schema::{col, metric};

/// The rows of [`opening_stats`]: per opening, or per opening and engine.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum By {
    #[default]
    Opening,
    OpeningEngine,
}

impl crate::choice::Choice for By {
    const ALL: &'static [Self] = &[By::Opening, By::OpeningEngine];
    fn name(self) -> &'static str {
        match self {
            By::Opening => "opening",
            By::OpeningEngine => "opening,engine",
        }
    }
    fn help(self) -> &'static str {
        match self {
            By::Opening => "One row per opening: White's score, draws, decisive games",
            By::OpeningEngine => "One row per opening and engine: the engine's games and score",
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

/// Results per opening (finished games only; `*` games are left out).
///
/// By opening: eco, opening, games, white_wins, draws, black_wins,
/// white_score_pct with its 95 % Wilson interval (white_score_low,
/// white_score_high), draw_pct with its interval (draw_low, draw_high),
/// decisive_pct; most played first. `--engine` keeps the games the engine
/// played.
///
/// By engine: eco, opening, engine, games, wins, draws, losses, points,
/// score_pct, score_low, score_high; by opening, then engine.
///
/// Games without an opening (no tags, or no classified line) are one row
/// with a null eco and opening.
pub fn opening_stats(
    games: LazyFrame,
    classified: Option<LazyFrame>,
    opts: &OpeningStatsOptions,
) -> PolarsResult<DataFrame> {
    let sel = &opts.selection;
    let games = with_opening(sel.games(games), classified).filter(col(col::RESULT).is_in(
        lit(Series::new("r".into(), ["1-0", "0-1", "1/2-1/2"])).implode(false),
        false,
    ));
    let pct = |a: Expr| pct(a, col(metric::GAMES));
    let opening = [col(col::ECO), col(col::OPENING)];
    let mut df = match opts.by {
        By::Opening => {
            let r = || col(col::RESULT);
            games
                .filter(sel.either_side())
                .group_by(opening)
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
                ])
                .sort(
                    [metric::GAMES, col::ECO, col::OPENING],
                    SortMultipleOptions::default()
                        .with_order_descending_multi([true, false, false])
                        .with_nulls_last(true),
                )
                .collect()?
        }
        By::OpeningEngine => {
            let openings =
                games
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
                .with_column(pct(col(st::POINTS)).alias(st::SCORE_PCT))
                .sort(
                    [col::ECO, col::OPENING, metric::ENGINE],
                    SortMultipleOptions::default().with_nulls_last(true),
                )
                .collect()?
        }
    };
    let intervals: &[(&str, &str, &str)] = match opts.by {
        By::Opening => &[
            (
                st::WHITE_SCORE_PCT,
                st::WHITE_SCORE_LOW,
                st::WHITE_SCORE_HIGH,
            ),
            (st::DRAW_PCT, st::DRAW_LOW, st::DRAW_HIGH),
        ],
        By::OpeningEngine => &[(st::SCORE_PCT, st::SCORE_LOW, st::SCORE_HIGH)],
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

#[cfg(test)]
mod tests {
    use super::*;

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

    fn games() -> LazyFrame {
        df!(
            col::GAME_ID => [1i64, 2, 3, 4, 5, 6],
            col::EVENT => ["E"; 6],
            col::ROUND => ["1"; 6],
            col::WHITE => ["A", "B", "A", "B", "A", "A"],
            col::BLACK => ["B", "A", "B", "A", "B", "B"],
            col::RESULT => ["1-0", "1/2-1/2", "0-1", "1/2-1/2", "1-0", "*"],
            col::ECO => [Some("B90"), Some("B90"), Some("B90"), Some("C42"), None, Some("C42")],
            col::OPENING => [Some("Sicilian"), Some("Sicilian"), Some("Sicilian"), Some("Petrov"), None, Some("Petrov")],
        )
        .unwrap()
        .lazy()
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

    /// B90: 1-0, ½, 0-1 → White 1.5/3 = 50 %, 1 draw of 3, 2 decisive.
    /// C42: one draw (the `*` game is left out). One game without tags.
    #[test]
    fn per_opening_by_hand() {
        let df = opening_stats(games(), None, &OpeningStatsOptions::default()).unwrap();
        let eco: Vec<_> = df.column(col::ECO).unwrap().str().unwrap().iter().collect();
        assert_eq!(eco, [Some("B90"), Some("C42"), None]);
        assert_eq!(f(&df, metric::GAMES, 0), Some(3.0));
        assert_eq!(f(&df, st::WHITE_SCORE_PCT, 0), Some(50.0));
        assert!(close(f(&df, st::DRAW_PCT, 0).unwrap(), 100.0 / 3.0));
        assert!(close(f(&df, st::DECISIVE_PCT, 0).unwrap(), 200.0 / 3.0));
        let (lo, hi) = wilson(1.5, 3.0, Z95).unwrap();
        assert!(close(f(&df, st::WHITE_SCORE_LOW, 0).unwrap(), lo * 100.0));
        assert!(close(f(&df, st::WHITE_SCORE_HIGH, 0).unwrap(), hi * 100.0));
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
                "white_score_low",
                "white_score_high",
                "draw_pct",
                "draw_low",
                "draw_high",
                "decisive_pct"
            ]
        );
    }

    /// A in B90: won as White (g1), drew as Black (g2), lost as White (g3):
    /// 1.5 of 3. With the classified table, g1 and g2 become C42 instead.
    #[test]
    fn per_engine_and_classified() {
        let opts = OpeningStatsOptions {
            by: By::OpeningEngine,
            selection: Selection::new(None, Some("^A$".into()), &[]).unwrap(),
        };
        let df = opening_stats(games(), None, &opts).unwrap();
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
        let df = opening_stats(games(), Some(classified), &OpeningStatsOptions::default()).unwrap();
        let eco: Vec<_> = df.column(col::ECO).unwrap().str().unwrap().iter().collect();
        // C42: g1, g2; unclassified: g3, g4, g5.
        assert_eq!(eco, [None, Some("C42")]);
        assert_eq!(f(&df, metric::GAMES, 0), Some(3.0));
        assert_eq!(f(&df, st::WHITE_SCORE_PCT, 1), Some(75.0));
    }
}
