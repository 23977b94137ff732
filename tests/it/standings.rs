//! Standings, crosstable and opening statistics on the TCEC archive in
//! `../shared/tcec` (the corpus of [`crate::tcec`]): properties every event
//! must have, whatever its results.

use evallab::metrics::Selection;
use evallab::metrics::balance::{BalanceOptions, Group};
use evallab::metrics::openings::stats::{By, OpeningStatsOptions, opening_stats};
use evallab::metrics::pairs::pairs;
use evallab::metrics::standings::termination::{CLASS, Class, with_class};
use evallab::metrics::standings::{crosstable, crosstable_wide, standings};
use evallab::schema::metric::pairs as p;
use evallab::schema::metric::standings as st;
use evallab::schema::{GAMES, MOVES, col, metric, opening_col};
use polars::prelude::*;

fn by_event() -> BalanceOptions {
    BalanceOptions {
        group: Group::EventEngine,
        ..Default::default()
    }
}

fn games() -> Option<LazyFrame> {
    Some(crate::tcec::corpus()?.ds.scan(&GAMES).unwrap())
}

fn finished() -> Expr {
    col(col::RESULT).neq(lit("*"))
}

fn f64s(df: &DataFrame, c: &str) -> Vec<f64> {
    let s = df.column(c).unwrap().cast(&DataType::Float64).unwrap();
    s.f64().unwrap().into_no_null_iter().collect()
}

/// Per event: the points add up to the finished games (each gives one point
/// in all), the games to twice that, wins to losses; per engine W+D+L =
/// games, the colours add up, and every game has exactly one ending class.
#[test]
fn standings_add_up_per_event() {
    let Some(g) = games() else { return };
    let s = standings(g.clone(), &by_event())
        .unwrap()
        .collect()
        .unwrap();
    let per_event = s
        .clone()
        .lazy()
        .group_by([col(col::EVENT)])
        .agg([
            col(st::POINTS).sum(),
            col(metric::GAMES).sum().cast(DataType::Float64),
            col(metric::WINS).sum().cast(DataType::Float64),
            col(metric::LOSSES).sum().cast(DataType::Float64).alias("l"),
        ])
        .join(
            g.filter(finished())
                .group_by([col(col::EVENT)])
                .agg([len().cast(DataType::Float64).alias("finished")]),
            [col(col::EVENT)],
            [col(col::EVENT)],
            JoinArgs::new(JoinType::Full).with_coalesce(JoinCoalesce::CoalesceColumns),
        )
        .collect()
        .unwrap();
    assert!(per_event.height() > 250, "{}", per_event.height());
    let finished = f64s(&per_event, "finished");
    assert_eq!(f64s(&per_event, st::POINTS), finished);
    let twice: Vec<f64> = finished.iter().map(|n| 2.0 * n).collect();
    assert_eq!(f64s(&per_event, metric::GAMES), twice);
    assert_eq!(f64s(&per_event, metric::WINS), f64s(&per_event, "l"));

    let sum = |cols: &[&str]| -> Vec<f64> {
        let mut out = vec![0.0; s.height()];
        for c in cols {
            for (o, v) in out.iter_mut().zip(f64s(&s, c)) {
                *o += v;
            }
        }
        out
    };
    let games = f64s(&s, metric::GAMES);
    assert_eq!(sum(&[metric::WINS, metric::DRAWS, metric::LOSSES]), games);
    assert_eq!(sum(&[st::WHITE_GAMES, st::BLACK_GAMES]), games);
    assert_eq!(
        sum(&[st::WHITE_POINTS, st::BLACK_POINTS]),
        f64s(&s, st::POINTS)
    );
    let wins_draws: Vec<f64> = f64s(&s, metric::WINS)
        .iter()
        .zip(f64s(&s, metric::DRAWS))
        .map(|(w, d)| w + d / 2.0)
        .collect();
    assert_eq!(wins_draws, f64s(&s, st::POINTS));
    let ends: Vec<String> = Class::ALL
        .iter()
        .filter(|c| **c != Class::Unfinished)
        .map(|c| format!("{}{}", st::END_PREFIX, c.name()))
        .collect();
    let ends: Vec<&str> = ends.iter().map(String::as_str).collect();
    assert_eq!(sum(&ends), games);
    // Ranks start at 1 in every event; engines without a finished game have none.
    let firsts = s
        .clone()
        .lazy()
        .filter(col(metric::GAMES).gt(lit(0)))
        .group_by([col(col::EVENT)])
        .agg([col(metric::RANK).min()])
        .collect()
        .unwrap();
    assert!(f64s(&firsts, metric::RANK).iter().all(|r| *r == 1.0));
    let unranked = s.column(metric::RANK).unwrap().null_count();
    let unplayed = f64s(&s, metric::GAMES)
        .iter()
        .filter(|g| **g == 0.0)
        .count();
    assert_eq!(unranked, unplayed);
}

/// The crosstable is symmetric (A's wins against B are B's losses against
/// A, A's wins as White B's losses as Black), its rows add up to the
/// standings, and Sonneborn–Berger recomputed from it (the opponent's
/// points times the wins plus half the draws against it) is the standings'.
#[test]
fn crosstable_is_symmetric_and_adds_up_to_the_standings() {
    let Some(g) = games() else { return };
    let opts = by_event();
    let x = crosstable(g.clone(), &opts).unwrap().collect().unwrap();
    let s = standings(g, &opts).unwrap().collect().unwrap();
    let keys = [col(col::EVENT), col(metric::ENGINE), col(metric::OPPONENT)];
    let mirror = x.clone().lazy().select([
        col(col::EVENT),
        col(metric::OPPONENT).alias(metric::ENGINE),
        col(metric::ENGINE).alias(metric::OPPONENT),
        col(metric::GAMES).alias("m_games"),
        col(metric::LOSSES).alias("m_losses"),
        col(metric::DRAWS).alias("m_draws"),
        col(st::BLACK_LOSSES).alias("m_black_losses"),
        col(st::WHITE_LOSSES).alias("m_white_losses"),
        col(st::POINTS).alias("m_points"),
    ]);
    let both = x
        .clone()
        .lazy()
        .join(mirror, keys.clone(), keys, JoinArgs::new(JoinType::Inner))
        .collect()
        .unwrap();
    assert_eq!(both.height(), x.height(), "every pair has its mirror");
    for (a, b) in [
        (metric::GAMES, "m_games"),
        (metric::WINS, "m_losses"),
        (metric::DRAWS, "m_draws"),
        (st::WHITE_WINS, "m_black_losses"),
        (st::BLACK_WINS, "m_white_losses"),
    ] {
        assert_eq!(f64s(&both, a), f64s(&both, b), "{a} vs {b}");
    }
    let total: Vec<f64> = f64s(&both, st::POINTS)
        .iter()
        .zip(f64s(&both, "m_points"))
        .map(|(p, q)| p + q)
        .collect();
    assert_eq!(total, f64s(&both, metric::GAMES));

    // Sums per engine and SB from the crosstable, against the standings.
    let points = s.clone().lazy().select([
        col(col::EVENT),
        col(metric::ENGINE).alias(metric::OPPONENT),
        col(st::POINTS).alias("opp_points"),
    ]);
    let from_x = x
        .clone()
        .lazy()
        .join(
            points,
            [col(col::EVENT), col(metric::OPPONENT)],
            [col(col::EVENT), col(metric::OPPONENT)],
            JoinArgs::new(JoinType::Left),
        )
        .group_by([col(col::EVENT), col(metric::ENGINE)])
        .agg([
            col(metric::GAMES).sum().alias("x_games"),
            col(st::POINTS).sum().alias("x_points"),
            (col(metric::WINS).cast(DataType::Float64) * col("opp_points")
                + col(metric::DRAWS).cast(DataType::Float64) * col("opp_points") * lit(0.5))
            .sum()
            .alias("x_sb"),
        ]);
    let k = [col(col::EVENT), col(metric::ENGINE)];
    let cmp = s
        .clone()
        .lazy()
        .filter(col(metric::GAMES).gt(lit(0)))
        .join(from_x, k.clone(), k, JoinArgs::new(JoinType::Left))
        .collect()
        .unwrap();
    assert_eq!(f64s(&cmp, "x_games"), f64s(&cmp, metric::GAMES));
    assert_eq!(f64s(&cmp, "x_points"), f64s(&cmp, st::POINTS));
    for (a, b) in f64s(&cmp, "x_sb")
        .iter()
        .zip(f64s(&cmp, st::SONNEBORN_BERGER))
    {
        assert!((a - b).abs() < 1e-9, "{a} {b}");
    }

    // The wide form's cells add up to the engine's points and games.
    let wide = crosstable_wide(&s, &x, &opts).unwrap();
    let fixed = 5; // event, rank, engine, points, games
    for row in 0..wide.height() {
        let (mut p, mut n) = (0.0, 0.0);
        for c in &wide.columns()[fixed..] {
            if let Some(cell) = c.str().unwrap().get(row) {
                let (a, b) = cell.split_once('/').unwrap();
                p += a.parse::<f64>().unwrap();
                n += b.parse::<f64>().unwrap();
            }
        }
        assert_eq!(p, f64s(&wide, st::POINTS)[row]);
        assert_eq!(n, f64s(&wide, metric::GAMES)[row]);
    }
}

/// Every TCEC game with a TerminationDetails tag gets a known class; the
/// `unknown` ones are the games with neither tag.
#[test]
fn termination_details_are_all_classified() {
    let Some(g) = games() else { return };
    let classes = with_class(g).unwrap().collect().unwrap();
    let unknown = classes
        .clone()
        .lazy()
        .filter(col(CLASS).eq(lit(Class::Unknown.name())))
        .collect()
        .unwrap();
    let with_details = unknown
        .column(col::TERMINATION_DETAILS)
        .unwrap()
        .is_not_null()
        .sum()
        .unwrap();
    assert_eq!(with_details, 0);
    let termination = unknown.column(col::TERMINATION).unwrap().str().unwrap();
    assert!(
        termination
            .iter()
            .all(|t| t.is_none_or(|t| t.trim().is_empty())),
        "an unknown game with a Termination tag"
    );
    eprintln!(
        "termination classes: {} of {} games unknown (no tag)",
        unknown.height(),
        classes.height()
    );
}

/// Opening statistics count each finished game once per opening (and twice,
/// once per side, per engine), whatever the opening source.
#[test]
fn opening_stats_count_every_finished_game() {
    let Some(c) = crate::tcec::corpus() else {
        return;
    };
    let (g, m) = (c.ds.scan(&GAMES).unwrap(), c.ds.scan(&MOVES).unwrap());
    let n = g.clone().filter(finished()).collect().unwrap().height() as f64;
    let paired = pairs(g.clone(), m, &Selection::default(), None).unwrap();
    let df = opening_stats(g.clone(), &paired, None, &OpeningStatsOptions::default()).unwrap();
    assert_eq!(f64s(&df, metric::GAMES).iter().sum::<f64>(), n);
    let decisive: f64 = f64s(&df, st::WHITE_WINS).iter().sum::<f64>()
        + f64s(&df, st::BLACK_WINS).iter().sum::<f64>();
    assert_eq!(decisive + f64s(&df, metric::DRAWS).iter().sum::<f64>(), n);
    for ((lo, p), hi) in f64s(&df, st::WHITE_SCORE_LO)
        .iter()
        .zip(f64s(&df, st::WHITE_SCORE_PCT))
        .zip(f64s(&df, st::WHITE_SCORE_HI))
    {
        assert!(*lo <= p && p <= hi, "{lo} {p} {hi}");
    }
    // Every colour-swapped pair counts once, by its first game's opening;
    // reverse kills are decisive pairs.
    let pairs_of = |df: &DataFrame| f64s(df, p::PAIRS).iter().sum::<f64>();
    assert_eq!(pairs_of(&df), paired.pairs.height() as f64);
    let (d, r) = (f64s(&df, p::DECISIVE_PAIRS), f64s(&df, p::REVERSE_KILLS));
    assert!(r.iter().zip(&d).all(|(r, d)| r <= d));
    let opts = OpeningStatsOptions {
        by: By::OpeningEngine,
        ..Default::default()
    };
    let df = opening_stats(g.clone(), &paired, None, &opts).unwrap();
    assert_eq!(f64s(&df, metric::GAMES).iter().sum::<f64>(), 2.0 * n);
    assert_eq!(f64s(&df, st::POINTS).iter().sum::<f64>(), n);

    // By start position: every finished Chess960 game once (the corpus's
    // starts are all arrangements), its pairs once, in SP order.
    let opts = OpeningStatsOptions {
        by: By::Start,
        ..Default::default()
    };
    let df = opening_stats(g.clone(), &paired, None, &opts).unwrap();
    let frc = g
        .filter(finished().and(col(col::VARIANT).eq(lit("chess960"))))
        .collect()
        .unwrap()
        .height() as f64;
    assert!(frc > 600.0, "{frc} Chess960 games");
    assert_eq!(f64s(&df, metric::GAMES).iter().sum::<f64>(), frc);
    let frc_pairs = paired
        .pairs
        .clone()
        .lazy()
        .join(
            c.ds.scan(&GAMES)
                .unwrap()
                .filter(col(col::VARIANT).eq(lit("chess960"))),
            [col(p::FIRST_GAME_ID)],
            [col(col::GAME_ID)],
            JoinArgs::new(JoinType::Semi),
        )
        .collect()
        .unwrap()
        .height();
    assert_eq!(pairs_of(&df), frc_pairs as f64);
    let sp = f64s(&df, opening_col::CHESS960_SP[0]);
    assert!(sp.windows(2).all(|w| w[0] <= w[1]) && sp.iter().all(|&n| (0.0..960.0).contains(&n)));
}
