//! Standings per event (or season, or all games): games, W/D/L, points and
//! score by colour, Sonneborn–Berger, rank, and how the engine's games ended
//! (docs/definitions/standings.md). [`mod@crosstable`] is the head-to-head view.

pub mod crosstable;
pub mod termination;

use polars::prelude::*;

use super::balance::BalanceOptions;
use super::{Families, engine_games, season};
use crate::schema::metric::standings as st;
use crate::schema::{col, metric};
use termination::{CLASS, Class};

pub use crosstable::{crosstable, crosstable_wide};

/// One row per (game, side) of the selected events, names merged into
/// families: [`engine_games`] with the season and the game's termination
/// class. `score` is null for an unfinished game (`*`).
fn sides(games: LazyFrame, opts: &BalanceOptions) -> PolarsResult<LazyFrame> {
    let games = termination::with_class(opts.selection.games(games))?.cache();
    let classes = games.clone().select([col(col::GAME_ID), col(CLASS)]);
    Ok(engine_games(games, &Families::default())?
        .join(
            classes,
            [col(col::GAME_ID)],
            [col(col::GAME_ID)],
            JoinArgs::new(JoinType::Inner),
        )
        .with_column(season(col(col::EVENT)).alias(metric::SEASON)))
}

/// The grouping columns besides the engine (none for `--by engine`).
fn group_keys(opts: &BalanceOptions) -> Vec<&'static str> {
    let mut keys = opts.keys();
    keys.pop();
    keys
}

/// Partition for window expressions over the group (the whole frame when
/// there is no group key: `over` needs at least one expression).
fn group_partition(opts: &BalanceOptions) -> Vec<Expr> {
    let keys = group_keys(opts);
    if keys.is_empty() {
        vec![lit(0)]
    } else {
        keys.into_iter().map(col).collect()
    }
}

/// The number of rows where `e` holds, as a u32.
pub(crate) fn count(e: Expr) -> Expr {
    e.cast(DataType::UInt32).sum()
}

/// `a / b` in percent, null when `b` is 0.
pub(crate) fn pct(a: Expr, b: Expr) -> Expr {
    when(b.clone().gt(lit(0)))
        .then(a.cast(DataType::Float64) * lit(100.0) / b.cast(DataType::Float64))
        .otherwise(lit(NULL).cast(DataType::Float64))
}

/// The standings, one row per group and engine, in rank order.
///
/// Columns: the group key (event or season, none for `--by engine`), rank,
/// engine, games (finished), wins, draws, losses, points, score_pct,
/// white_games, white_points, black_games, black_points, sonneborn_berger,
/// and per termination class the number of the engine's games that ended so
/// (`end_mate`, …, `end_unfinished` for `*` games, which count nowhere else).
///
/// Sonneborn–Berger (FIDE): over the engine's games, the opponent's points
/// in the group for a win, half of them for a draw. Rank: by points, then
/// Sonneborn–Berger, then wins; engines equal on all three share the rank
/// (1, 2, 2, 4); an engine without a finished game has no rank and comes
/// last. Both are over every engine of the group: `--engine` only hides
/// rows.
pub fn standings(games: LazyFrame, opts: &BalanceOptions) -> PolarsResult<LazyFrame> {
    let sides = sides(games, opts)?.cache();
    let group: Vec<Expr> = group_keys(opts).into_iter().map(col).collect();
    let keys: Vec<Expr> = opts.keys().into_iter().map(col).collect();
    let score = || col(metric::SCORE);
    let opp_points = "__opp_points";
    let sb_game = "__sb";
    // The opponent's points in the group, for Sonneborn–Berger.
    let points = sides
        .clone()
        .group_by(keys.clone())
        .agg([score().sum().alias(opp_points)]);
    let mut opp_keys = group.clone();
    opp_keys.push(col(metric::OPPONENT));
    let sides = sides
        .join(
            points,
            opp_keys,
            keys.clone(),
            JoinArgs::new(JoinType::Left),
        )
        .with_column(
            when(score().eq(lit(1.0)))
                .then(col(opp_points))
                .when(score().eq(lit(0.5)))
                .then(col(opp_points) * lit(0.5))
                .otherwise(lit(0.0))
                .alias(sb_game),
        );
    let white = || col(col::SIDE).eq(lit("w"));
    let black = || col(col::SIDE).eq(lit("b"));
    let finished = || score().is_not_null();
    let mut aggs = vec![
        count(finished()).alias(metric::GAMES),
        count(score().eq(lit(1.0))).alias(metric::WINS),
        count(score().eq(lit(0.5))).alias(metric::DRAWS),
        count(score().eq(lit(0.0))).alias(metric::LOSSES),
        score().sum().alias(st::POINTS),
        count(finished().and(white())).alias(st::WHITE_GAMES),
        score().filter(white()).sum().alias(st::WHITE_POINTS),
        count(finished().and(black())).alias(st::BLACK_GAMES),
        score().filter(black()).sum().alias(st::BLACK_POINTS),
        col(sb_game).sum().alias(st::SONNEBORN_BERGER),
    ];
    aggs.extend(Class::ALL.iter().map(|c| {
        count(col(CLASS).eq(lit(c.name()))).alias(format!("{}{}", st::END_PREFIX, c.name()))
    }));
    // Engines without a finished game come last, unranked.
    let unplayed = "__unplayed";
    let mut order: Vec<&str> = group_keys(opts);
    order.extend([
        unplayed,
        st::POINTS,
        st::SONNEBORN_BERGER,
        metric::WINS,
        metric::ENGINE,
    ]);
    let mut desc = vec![false; group.len()];
    desc.extend([false, true, true, true, false]);
    let part = group_partition(opts);
    let mut ties = part.clone();
    ties.extend([
        col(st::POINTS),
        col(st::SONNEBORN_BERGER),
        col(metric::WINS),
    ]);
    let ranked = sides
        .group_by(keys)
        .agg(aggs)
        .with_columns([
            pct(col(st::POINTS), col(metric::GAMES)).alias(st::SCORE_PCT),
            col(metric::GAMES).eq(lit(0)).alias(unplayed),
        ])
        .sort(
            order,
            SortMultipleOptions::default().with_order_descending_multi(desc),
        )
        // The place in the sorted group, then the best place among the tied.
        .with_column(
            col(metric::ENGINE)
                .cum_count(false)
                .over(part)?
                .alias(metric::RANK),
        )
        .with_column(
            when(col(unplayed))
                .then(lit(NULL).cast(DataType::UInt32))
                .otherwise(col(metric::RANK).min().over(ties)?)
                .alias(metric::RANK),
        );
    let mut out = group;
    out.extend(
        [
            metric::RANK,
            metric::ENGINE,
            metric::GAMES,
            metric::WINS,
            metric::DRAWS,
            metric::LOSSES,
            st::POINTS,
            st::SCORE_PCT,
            st::WHITE_GAMES,
            st::WHITE_POINTS,
            st::BLACK_GAMES,
            st::BLACK_POINTS,
            st::SONNEBORN_BERGER,
        ]
        .map(col),
    );
    out.extend(Class::ALL.map(|c| col(format!("{}{}", st::END_PREFIX, c.name()))));
    Ok(opts.selection.engines(ranked, metric::ENGINE).select(out))
}

/// The number of games per group (event, season, or all games) and
/// termination class, each game once, with its share of the group's games
/// in percent: the `unknown` share is how much the tags do not say. With
/// `--engine`, the games the engine played.
///
/// Columns: the group key, termination_class, games, pct; per group most
/// frequent first.
pub fn termination_mix(games: LazyFrame, opts: &BalanceOptions) -> PolarsResult<LazyFrame> {
    let sel = &opts.selection;
    let games = termination::with_class(sel.games(games))?
        .filter(sel.either_side())
        .with_column(season(col(col::EVENT)).alias(metric::SEASON));
    let mut keys = group_keys(opts);
    keys.push(CLASS);
    let mut order = group_keys(opts);
    order.extend([metric::GAMES, CLASS]);
    let mut desc = vec![false; order.len() - 2];
    desc.extend([true, false]);
    let share = pct(
        col(metric::GAMES),
        col(metric::GAMES).sum().over(group_partition(opts))?,
    );
    Ok(games
        .group_by(keys.into_iter().map(col).collect::<Vec<_>>())
        .agg([len().alias(metric::GAMES)])
        .with_column(share.alias(st::PCT))
        .sort(
            order,
            SortMultipleOptions::default().with_order_descending_multi(desc),
        ))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::metrics::Selection;
    use crate::metrics::balance::Group;

    /// A games frame: (event, white, black, result, termination details).
    pub(crate) fn games(rows: &[(&str, &str, &str, &str, Option<&str>)]) -> LazyFrame {
        df!(
            col::GAME_ID => (1..=rows.len() as i64).collect::<Vec<_>>(),
            col::EVENT => rows.iter().map(|r| r.0).collect::<Vec<_>>(),
            col::ROUND => rows.iter().map(|_| "1").collect::<Vec<_>>(),
            col::WHITE => rows.iter().map(|r| r.1).collect::<Vec<_>>(),
            col::BLACK => rows.iter().map(|r| r.2).collect::<Vec<_>>(),
            col::RESULT => rows.iter().map(|r| r.3).collect::<Vec<_>>(),
            col::TERMINATION => rows.iter().map(|_| None::<&str>).collect::<Vec<_>>(),
            col::TERMINATION_DETAILS => rows.iter().map(|r| r.4).collect::<Vec<_>>(),
        )
        .unwrap()
        .lazy()
    }

    pub(crate) fn opts(group: Group) -> BalanceOptions {
        BalanceOptions {
            group,
            selection: Selection::default(),
        }
    }

    /// The value of column `c` in the row of `engine` (first such row).
    pub(crate) fn get(df: &DataFrame, engine: &str, c: &str) -> f64 {
        let names = df.column(metric::ENGINE).unwrap().str().unwrap();
        let i = names.iter().position(|n| n == Some(engine)).unwrap();
        df.column(c)
            .unwrap()
            .cast(&DataType::Float64)
            .unwrap()
            .f64()
            .unwrap()
            .get(i)
            .unwrap()
    }

    /// A single round robin of four, by hand:
    ///
    /// | game | white | black | result |
    /// |---|---|---|---|
    /// | 1 | A | B | 1-0 |
    /// | 2 | C | D | ½ |
    /// | 3 | A | C | ½ |
    /// | 4 | D | B | 0-1 |
    /// | 5 | D | A | 0-1 |
    /// | 6 | B | C | 1-0 |
    ///
    /// Points: A 2.5, B 2, C 1, D 0.5.
    /// SB (opponent's points for a win, half for a draw):
    /// A: B 2 + C 1/2 + D 0.5 = 3.0; B: D 0.5 + C 1 = 1.5;
    /// C: D 0.5/2 + A 2.5/2 = 1.5; D: C 1/2 = 0.5.
    /// B and C: B has more points, so 2 and 3 (SB only breaks point ties).
    #[test]
    fn round_robin_by_hand() {
        let g = games(&[
            ("E", "A", "B", "1-0", Some("White mates")),
            ("E", "C", "D", "1/2-1/2", Some("TCEC draw rule")),
            ("E", "A", "C", "1/2-1/2", Some("3-Fold repetition")),
            ("E", "D", "B", "0-1", Some("TCEC win rule")),
            ("E", "D", "A", "0-1", Some("TCEC win rule")),
            ("E", "B", "C", "1-0", Some("White loses on time")),
        ]);
        let df = standings(g, &opts(Group::EventEngine))
            .unwrap()
            .collect()
            .unwrap();
        let engines: Vec<_> = df
            .column(metric::ENGINE)
            .unwrap()
            .str()
            .unwrap()
            .iter()
            .flatten()
            .collect();
        assert_eq!(engines, ["A", "B", "C", "D"]);
        for (e, pts, sb, rank) in [
            ("A", 2.5, 3.0, 1.0),
            ("B", 2.0, 1.5, 2.0),
            ("C", 1.0, 1.5, 3.0),
            ("D", 0.5, 0.5, 4.0),
        ] {
            assert_eq!(get(&df, e, st::POINTS), pts, "{e}");
            assert_eq!(get(&df, e, st::SONNEBORN_BERGER), sb, "{e}");
            assert_eq!(get(&df, e, metric::RANK), rank, "{e}");
            assert_eq!(get(&df, e, metric::GAMES), 3.0, "{e}");
        }
        // A: White in games 1 and 3 (1.5), Black in 5 (1).
        assert_eq!(get(&df, "A", st::WHITE_GAMES), 2.0);
        assert_eq!(get(&df, "A", st::WHITE_POINTS), 1.5);
        assert_eq!(get(&df, "A", st::BLACK_GAMES), 1.0);
        assert_eq!(get(&df, "A", st::BLACK_POINTS), 1.0);
        // C: White in 2 (½), Black in 3 (½) and 6 (0).
        assert_eq!(get(&df, "C", st::WHITE_POINTS), 0.5);
        assert_eq!(get(&df, "C", st::BLACK_GAMES), 2.0);
        assert_eq!(get(&df, "C", st::BLACK_POINTS), 0.5);
        assert_eq!(get(&df, "A", metric::WINS), 2.0);
        assert_eq!(get(&df, "A", metric::DRAWS), 1.0);
        assert_eq!(get(&df, "D", metric::LOSSES), 2.0);
        assert!((get(&df, "B", st::SCORE_PCT) - 200.0 / 3.0).abs() < 1e-12);
        // Terminations: A's games ended by mate, repetition, win rule.
        let end = |e: &str, c: Class| get(&df, e, &format!("{}{}", st::END_PREFIX, c.name()));
        assert_eq!(end("A", Class::Mate), 1.0);
        assert_eq!(end("A", Class::Repetition), 1.0);
        assert_eq!(end("A", Class::WinRule), 1.0);
        assert_eq!(end("D", Class::WinRule), 2.0);
        assert_eq!(end("B", Class::Time), 1.0);
        assert_eq!(end("C", Class::Time), 1.0);
        assert_eq!(end("A", Class::Time), 0.0);
    }

    /// Equal points and SB share a rank; wins break a tie of both; an
    /// unfinished game counts in `end_unfinished` only; `--engine` hides rows
    /// but SB still counts the hidden opponents' points.
    #[test]
    fn ties_unfinished_and_engine_filter() {
        // A-B drawn twice, C beats D and loses to D: all four have 1 point
        // and SB 1 (A: half of B's 1, twice; C: D's 1); C and D have a win,
        // A and B none: 1, 1, 3, 3.
        let g = games(&[
            ("E", "A", "B", "1/2-1/2", None),
            ("E", "B", "A", "1/2-1/2", None),
            ("E", "C", "D", "1-0", None),
            ("E", "D", "C", "1-0", None),
            ("E", "A", "C", "*", None),
        ]);
        let df = standings(g.clone(), &opts(Group::EventEngine))
            .unwrap()
            .collect()
            .unwrap();
        for (e, rank) in [("A", 3.0), ("B", 3.0), ("C", 1.0), ("D", 1.0)] {
            assert_eq!(get(&df, e, metric::RANK), rank, "{e}");
            assert_eq!(get(&df, e, metric::GAMES), 2.0, "{e}");
            assert_eq!(get(&df, e, st::SONNEBORN_BERGER), 1.0, "{e}");
        }
        let unfinished = format!("{}unfinished", st::END_PREFIX);
        assert_eq!(get(&df, "A", &unfinished), 1.0);
        assert_eq!(get(&df, "B", &unfinished), 0.0);
        // An engine with only an unfinished game: last, without a rank.
        let g = games(&[("E", "A", "B", "0-1", None), ("E", "A", "Z", "*", None)]);
        let df = standings(g, &opts(Group::EventEngine))
            .unwrap()
            .collect()
            .unwrap();
        let engines: Vec<_> = df
            .column(metric::ENGINE)
            .unwrap()
            .str()
            .unwrap()
            .iter()
            .flatten()
            .collect();
        assert_eq!(engines, ["B", "A", "Z"]);
        let ranks: Vec<_> = df
            .column(metric::RANK)
            .unwrap()
            .u32()
            .unwrap()
            .iter()
            .collect();
        assert_eq!(ranks, [Some(1), Some(2), None]);
        // Wins break a tie of points and SB.
        let g = games(&[
            ("E", "A", "B", "1/2-1/2", None),
            ("E", "B", "A", "1/2-1/2", None),
            ("E", "A", "C", "1-0", None),
            ("E", "C", "A", "1-0", None),
        ]);
        let df = standings(g, &opts(Group::EventEngine))
            .unwrap()
            .collect()
            .unwrap();
        // A 2 pts (SB: ½·1 + ½·1 + 1 = 2), B 1 (SB ½·2·2 = 2), C 1 (SB 2).
        assert_eq!(get(&df, "A", metric::RANK), 1.0);
        // B and C: 1 point, SB 2 each; C has a win, B none → C 2nd, B 3rd.
        assert_eq!(get(&df, "C", metric::RANK), 2.0);
        assert_eq!(get(&df, "B", metric::RANK), 3.0);
        let mut o = opts(Group::EventEngine);
        o.selection.engine = Some("^B$".into());
        let df = standings(
            games(&[
                ("E", "A", "B", "1-0", None),
                ("E", "C", "A", "0-1", None),
                ("E", "B", "C", "1-0", None),
            ]),
            &o,
        )
        .unwrap()
        .collect()
        .unwrap();
        assert_eq!(df.height(), 1);
        // B beat C (C has 0 points) and lost to A: SB 0, rank 2 of 3.
        assert_eq!(get(&df, "B", st::SONNEBORN_BERGER), 0.0);
        assert_eq!(get(&df, "B", metric::RANK), 2.0);
    }

    /// Groups: per event, per season (events of one season together), all.
    #[test]
    fn groups_by_event_season_and_all() {
        let g = games(&[
            ("TCEC Season 9 - Stage 1", "A", "B", "1-0", None),
            ("TCEC Season 9 - Superfinal", "A", "B", "0-1", None),
            ("CCC 1", "A", "B", "1-0", None),
        ]);
        let n = |group| {
            let df = standings(g.clone(), &opts(group))
                .unwrap()
                .collect()
                .unwrap();
            (df.height(), get(&df, "A", metric::GAMES))
        };
        assert_eq!(n(Group::EventEngine), (6, 1.0));
        // Season "9" (two events) and "CCC 1".
        assert_eq!(n(Group::SeasonEngine).0, 4);
        assert_eq!(n(Group::Engine), (2, 3.0));
    }

    #[test]
    fn termination_mix_counts_each_game_once() {
        let g = games(&[
            ("E", "A", "B", "1-0", Some("White mates")),
            ("E", "A", "B", "1-0", Some("Black mates")),
            ("E", "A", "B", "1/2-1/2", None),
            ("E", "A", "B", "1/2-1/2", Some("Fifty moves rule")),
        ]);
        let df = termination_mix(g, &opts(Group::Engine))
            .unwrap()
            .collect()
            .unwrap();
        let classes: Vec<_> = df
            .column(CLASS)
            .unwrap()
            .str()
            .unwrap()
            .iter()
            .flatten()
            .collect();
        assert_eq!(classes, ["mate", "fifty_moves", "unknown"]);
        let pcts: Vec<_> = df
            .column(st::PCT)
            .unwrap()
            .f64()
            .unwrap()
            .iter()
            .flatten()
            .collect();
        assert_eq!(pcts, [50.0, 25.0, 25.0]);
        // Per event: shares of each event's games.
        let g = games(&[
            ("E", "A", "B", "1-0", Some("White mates")),
            ("F", "A", "B", "1-0", Some("White mates")),
            ("F", "A", "B", "1/2-1/2", Some("Stalemate")),
        ]);
        let df = termination_mix(g, &opts(Group::EventEngine))
            .unwrap()
            .collect()
            .unwrap();
        let pcts: Vec<_> = df
            .column(st::PCT)
            .unwrap()
            .f64()
            .unwrap()
            .iter()
            .flatten()
            .collect();
        assert_eq!(pcts, [100.0, 50.0, 50.0]);
        let events: Vec<_> = df
            .column(col::EVENT)
            .unwrap()
            .str()
            .unwrap()
            .iter()
            .flatten()
            .collect();
        assert_eq!(events, ["E", "F", "F"]);
    }
}
