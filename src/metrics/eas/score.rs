//! The per-engine EAS score from the labels, with the reference's integer
//! arithmetic ([`super::rules`]).

use std::collections::BTreeMap;

use polars::prelude::*;

use super::labels::cols;
use super::rules::{self, avg_moves, bad_draw_gd, early_limit, pct100};
use crate::Error;
use crate::metrics::Selection;
use crate::metrics::balance::Group;
use crate::metrics::season;
use crate::schema::col;

/// Which rule set to score with (`--rules`: v6, v5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Rules {
    #[default]
    V6,
    V5,
}

impl crate::choice::Choice for Rules {
    const ALL: &'static [Self] = &[Rules::V6, Rules::V5];
    fn name(self) -> &'static str {
        match self {
            Rules::V6 => "v6",
            Rules::V5 => "v5",
        }
    }
    fn help(self) -> &'static str {
        match self {
            Rules::V6 => "V6.0 (2025), the current reference",
            Rules::V5 => "V5.2–5.8",
        }
    }
}
crate::display_choice!(Rules);

/// Options of the EAS score.
#[derive(Debug, Clone, Default)]
pub struct EasOptions {
    pub rules: Rules,
    /// Fix avg_all instead of computing it from the decisive games.
    pub hard_avg: Option<i32>,
    /// The input is the labels of the selection's events (names merged into
    /// its families); the table has a row per selected engine.
    pub selection: Selection,
}

/// The input-wide numbers every engine's score depends on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Globals {
    pub avg_all: i32,
    pub short_limit: i32,
    pub early_limit: i32,
    pub decisive_games: i32,
}

/// One game from one engine's side, as the score needs it.
#[derive(Debug, Clone, Copy)]
struct Side {
    drew: bool,
    /// Counted among the wins (not a duplicate, regular termination).
    scoring_win: bool,
    /// The chain's depth − 1 (0..=4: highest level 1..=5, 5: queen).
    category: Option<usize>,
    sac1_ply: Option<u32>,
    plies: i32,
    bad_draw: bool,
}

/// The per-engine EAS table (ranked by total) and the globals.
pub fn score(labels: &DataFrame, opts: &EasOptions) -> Result<(DataFrame, Globals), Error> {
    let engine = opts.selection.engine_regex()?;
    let labels = &opts.selection.games(labels.clone().lazy()).collect()?;
    let s = |c: &str| labels.column(c).and_then(|c| c.str().cloned());
    let (white, black, winner, result) = (
        s(col::WHITE)?,
        s(col::BLACK)?,
        s(cols::WINNER)?,
        s(col::RESULT)?,
    );
    let plies = labels.column(cols::PLIES_FEN)?.i32()?.clone();
    let b = |c: &str| labels.column(c).and_then(|c| c.bool().cloned());
    let (duplicate, irregular) = (b(cols::DUPLICATE)?, b(cols::IRREGULAR)?);
    let mut per_engine: BTreeMap<String, Vec<Side>> = BTreeMap::new();
    let (mut decisive_plies, mut decisive) = (0i64, 0i32);
    for i in 0..labels.height() {
        let w = winner.get(i);
        if w.is_some() {
            decisive += 1;
            decisive_plies += i64::from(plies.get(i).unwrap_or(0));
        }
        let drew = result.get(i) == Some("1/2-1/2");
        for (k, (name, tag)) in [(white.get(i), "w"), (black.get(i), "b")]
            .into_iter()
            .enumerate()
        {
            let Some(name) = name else { continue };
            let depth = labels.column(cols::SAC_DEPTH[k])?.u8()?.get(i).unwrap_or(0);
            let won = w == Some(tag);
            per_engine.entry(name.to_string()).or_default().push(Side {
                drew,
                scoring_win: won
                    && duplicate.get(i) != Some(true)
                    && irregular.get(i) != Some(true),
                category: usize::from(depth).checked_sub(1),
                sac1_ply: labels.column(cols::SAC1_PLY[k])?.u32()?.get(i),
                plies: plies.get(i).unwrap_or(0),
                bad_draw: labels.column(cols::BAD_DRAW[k])?.bool()?.get(i) == Some(true),
            });
        }
    }
    let total_plies = i32::try_from(decisive_plies).unwrap_or(i32::MAX);
    let avg_all = opts
        .hard_avg
        .unwrap_or_else(|| avg_moves(total_plies, decisive));
    let g = Globals {
        avg_all,
        short_limit: match opts.rules {
            Rules::V6 => rules::short_limit_v6(avg_all),
            Rules::V5 => rules::short_limit_v5(avg_all),
        },
        early_limit: early_limit(avg_all),
        decisive_games: decisive,
    };
    let mut rows: Vec<Row> = per_engine
        .into_iter()
        .filter(|(name, _)| engine.as_ref().is_none_or(|re| re.is_match(name)))
        .map(|(name, sides)| engine_row(name, &sides, &g, opts.rules))
        .collect();
    rows.sort_by(|a, b| b.total.cmp(&a.total).then_with(|| a.engine.cmp(&b.engine)));
    Ok((frame(&rows)?, g))
}

/// The globals' columns in a grouped table ([`score_by`]).
pub const GLOBALS: [&str; 4] = ["avg_all", "short_limit", "early_limit", "decisive_games"];

/// The EAS table per `group`. Over all the input ([`Group::Engine`]) it is
/// [`score`]'s. Per event or season each group is its own population, as the
/// report's per-event sections score them: its key column first, its
/// [`GLOBALS`] after the score's columns, groups in key order (a game without
/// an Event tag is the event "").
pub fn score_by(
    labels: &DataFrame,
    opts: &EasOptions,
    group: Group,
) -> Result<(DataFrame, Option<Globals>), Error> {
    let Some(key) = group.outer() else {
        let (table, g) = score(labels, opts)?;
        return Ok((table, Some(g)));
    };
    let event = col(col::EVENT).fill_null(lit(""));
    let keyed = labels
        .clone()
        .lazy()
        .with_column(match group {
            Group::SeasonEngine => season(event).alias(key),
            _ => event.alias(key),
        })
        .collect()?;
    let mut keys: Vec<String> = keyed
        .column(key)?
        .str()?
        .unique()?
        .iter()
        .flatten()
        .map(String::from)
        .collect();
    keys.sort_unstable();
    let mut out: Option<DataFrame> = None;
    for k in keys {
        let part = keyed
            .clone()
            .lazy()
            .filter(col(key).eq(lit(k.as_str())))
            .collect()?;
        let (mut t, g) = score(&part, opts)?;
        let h = t.height();
        if h == 0 {
            continue;
        }
        t.insert_column(0, Column::new(key.into(), vec![k.as_str(); h]))?;
        let values = [g.avg_all, g.short_limit, g.early_limit, g.decisive_games];
        for (name, v) in GLOBALS.into_iter().zip(values) {
            t.with_column(Column::new(name.into(), vec![v; h]))?;
        }
        match &mut out {
            Some(o) => {
                o.vstack_mut(&t)?;
            }
            None => out = Some(t),
        }
    }
    let table = match out {
        Some(t) => t,
        // No selected engine in any group: the columns, no rows.
        None => {
            let (mut t, _) = score(&keyed.head(Some(0)), opts)?;
            t.insert_column(0, Column::new(key.into(), Vec::<&str>::new()))?;
            for name in GLOBALS {
                t.with_column(Column::new(name.into(), Vec::<i32>::new()))?;
            }
            t
        }
    };
    Ok((table, None))
}

/// One engine's numbers.
#[derive(Debug, Clone, Default)]
struct Row {
    engine: String,
    games: i32,
    wins: i32,
    draws: i32,
    sacs: [i32; 6],
    sac_pct: [i32; 6],
    early_pct: i32,
    short_pct: i32,
    bad_draw_pct: i32,
    avg_win_moves: i32,
    parts: [i64; 4],
    total: i64,
    warning: bool,
}

fn engine_row(engine: String, sides: &[Side], g: &Globals, rules_: Rules) -> Row {
    let wins: Vec<&Side> = sides.iter().filter(|s| s.scoring_win).collect();
    let n_wins = wins.len() as i32;
    let draws: Vec<&Side> = sides.iter().filter(|s| s.drew).collect();
    let n_draws = draws.len() as i32;
    let mut sacs = [0i32; 6];
    let (mut sac_games, mut early, mut buckets, mut win_plies) = (0, 0, [0i32; 5], 0i32);
    for w in &wins {
        if let Some(c) = w.category {
            sacs[c] += 1;
            sac_games += 1;
            early += i32::from(rules::is_early(w.sac1_ply, g.early_limit));
        }
        if let Some(k) = rules::short_bucket(w.plies, g.short_limit) {
            buckets[k] += 1;
        }
        win_plies = win_plies.saturating_add(w.plies);
    }
    let avg_eng = avg_moves(win_plies, n_wins);
    let bad = draws.iter().filter(|d| d.bad_draw).count() as i32;
    let gd = bad_draw_gd(n_draws, bad);
    let parts = match rules_ {
        Rules::V6 => [
            rules::sac_part_v6(n_wins, sacs),
            rules::early_part_v6(sac_games, early, g.avg_all, avg_eng),
            rules::short_part_v6(n_wins, buckets),
            if n_draws > 0 {
                rules::draw_part_v6(gd)
            } else {
                0
            },
        ],
        Rules::V5 => [
            rules::sac_part_v5(n_wins, sacs),
            0,
            rules::short_part_v5(n_wins, buckets, g.avg_all, avg_eng),
            if n_draws > 0 {
                rules::draw_part_v5(gd)
            } else {
                0
            },
        ],
    };
    Row {
        engine,
        games: sides.len() as i32,
        wins: n_wins,
        draws: n_draws,
        sacs,
        sac_pct: sacs.map(|c| pct100(n_wins, c)),
        early_pct: pct100(sac_games, early),
        short_pct: pct100(n_wins, buckets.iter().sum()),
        bad_draw_pct: pct100(n_draws, bad),
        avg_win_moves: avg_eng,
        total: parts.iter().sum(),
        parts,
        warning: n_wins < 50 || n_draws < 30,
    }
}

/// Percent with two decimals from pct100's integer.
fn pct(v: i32) -> f64 {
    f64::from(v) / 100.0
}

fn frame(rows: &[Row]) -> PolarsResult<DataFrame> {
    let i32s = |name: &str, f: &dyn Fn(&Row) -> i32| {
        Column::new(name.into(), rows.iter().map(f).collect::<Vec<_>>())
    };
    let f64s = |name: &str, f: &dyn Fn(&Row) -> f64| {
        Column::new(name.into(), rows.iter().map(f).collect::<Vec<_>>())
    };
    let i64s = |name: &str, f: &dyn Fn(&Row) -> i64| {
        Column::new(name.into(), rows.iter().map(f).collect::<Vec<_>>())
    };
    let mut c = vec![
        Column::new("rank".into(), (1..=rows.len() as u32).collect::<Vec<_>>()),
        Column::new(
            "engine".into(),
            rows.iter().map(|r| r.engine.as_str()).collect::<Vec<_>>(),
        ),
        i32s("games", &|r| r.games),
        i32s("wins", &|r| r.wins),
        i32s("draws", &|r| r.draws),
    ];
    let names = ["1", "2", "3", "4", "5", "q"];
    for (k, n) in names.iter().enumerate() {
        c.push(i32s(&format!("sac{n}"), &move |r| r.sacs[k]));
        c.push(f64s(&format!("sac{n}_pct"), &move |r| pct(r.sac_pct[k])));
    }
    c.extend([
        f64s("early_sac_pct", &|r| pct(r.early_pct)),
        f64s("short_win_pct", &|r| pct(r.short_pct)),
        f64s("bad_draw_pct", &|r| pct(r.bad_draw_pct)),
        i32s("avg_win_moves", &|r| r.avg_win_moves),
        i64s("part_sac", &|r| r.parts[0]),
        i64s("part_early", &|r| r.parts[1]),
        i64s("part_short", &|r| r.parts[2]),
        i64s("part_draw", &|r| r.parts[3]),
        i64s("eas", &|r| r.total),
        Column::new(
            "warning".into(),
            rows.iter()
                .map(|r| r.warning.then_some("few wins or draws"))
                .collect::<Vec<_>>(),
        ),
    ]);
    DataFrame::new_infer_height(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Hand-built labels, A (White) against B (Black):
    /// 1. 1-0, 60 plies, A level-2 sacrifice, level-1 file first matched at ply 10.
    /// 2. 1-0, 100 plies, no sacrifice.
    /// 3. 1-0, 60 plies, a duplicate of an earlier game (not a win for EAS).
    /// 4. ½, 120 plies, bad for A.   5. ½, 120 plies, bad for B.
    /// 6. 0-1, 80 plies, B level-1 sacrifice, first matched at ply 50.
    /// 7. 0-1, 40 plies, irregular termination (not a win for EAS).
    fn hand_labels() -> DataFrame {
        df!(
            col::WHITE => ["A"; 7],
            col::BLACK => ["B"; 7],
            col::RESULT => ["1-0", "1-0", "1-0", "1/2-1/2", "1/2-1/2", "0-1", "0-1"],
            cols::WINNER => [Some("w"), Some("w"), Some("w"), None, None, Some("b"), Some("b")],
            cols::PLIES_FEN => [60i32, 100, 60, 120, 120, 80, 40],
            cols::DUPLICATE => [false, false, true, false, false, false, false],
            cols::IRREGULAR => [false, false, false, false, false, false, true],
            cols::SAC_DEPTH[0] => [2u8, 0, 2, 0, 0, 0, 0],
            cols::SAC_DEPTH[1] => [0u8, 0, 0, 0, 0, 1, 0],
            cols::SAC1_PLY[0] => [Some(10u32), None, Some(10), None, None, None, None],
            cols::SAC1_PLY[1] => [None, None, None, None, None, Some(50u32), None],
            cols::BAD_DRAW[0] => [false, false, false, true, false, false, false],
            cols::BAD_DRAW[1] => [false, false, false, false, true, false, false],
        )
        .unwrap()
    }

    /// Per event, each event's games are the population: its rows equal
    /// `score` of that event alone (the report's per-event section), with
    /// its globals beside them; over all, `score_by` is `score`.
    #[test]
    fn each_event_is_its_own_population() {
        let mut l = hand_labels();
        let events: Vec<&str> = [vec!["Season 2 Final"; 4], vec!["Season 10 League"; 3]].concat();
        l.with_column(Column::new(col::EVENT.into(), events))
            .unwrap();
        let opts = EasOptions::default();
        let (all, g) = score_by(&l, &opts, Group::Engine).unwrap();
        assert!(all.equals_missing(&score(&l, &opts).unwrap().0));
        assert_eq!(g, Some(score(&l, &opts).unwrap().1));
        for (group, key) in [
            (Group::EventEngine, col::EVENT),
            (Group::SeasonEngine, crate::schema::metric::SEASON),
        ] {
            let (by, g) = score_by(&l, &opts, group).unwrap();
            assert_eq!(g, None);
            assert_eq!(by.get_column_names()[0].as_str(), key);
            let season = group == Group::SeasonEngine;
            // Key order: "Season 10 League" ("10") before "Season 2 Final" ("2").
            for (event, n, from, len) in [
                ("Season 10 League", "10", 4, 3),
                ("Season 2 Final", "2", 0, 4),
            ] {
                let (want, gw) = score(&l.slice(from, len), &opts).unwrap();
                let value = if season { n } else { event };
                let got = by
                    .clone()
                    .lazy()
                    .filter(col(key).eq(lit(value)))
                    .collect()
                    .unwrap();
                let names: Vec<String> = want
                    .get_column_names()
                    .iter()
                    .map(|c| c.to_string())
                    .collect();
                assert!(got.select(names).unwrap().equals_missing(&want), "{event}");
                let avg = got.column("avg_all").unwrap().i32().unwrap().get(0);
                assert_eq!(avg, Some(gw.avg_all), "{event}");
            }
            let first = by
                .column(key)
                .unwrap()
                .str()
                .unwrap()
                .get(0)
                .map(String::from);
            assert_eq!(
                first.as_deref(),
                Some(if season { "10" } else { "Season 10 League" })
            );
        }
    }

    fn totals(df: &DataFrame) -> Vec<(String, i64)> {
        let e = df.column("engine").unwrap().str().unwrap().clone();
        let t = df.column("eas").unwrap().i64().unwrap().clone();
        e.iter()
            .zip(t.iter())
            .map(|(e, t)| (e.unwrap().to_string(), t.unwrap()))
            .collect()
    }

    /// By hand. Decisive games 1, 2, 3, 6, 7 (duplicates and irregular ones
    /// count here): 340 plies → avg_moves: r = (68000 + 5) / 10 = 6800 → 68 → 34.
    /// V6: L = clamp(34 − 15, 30, 95) = 30; early_limit = max(10, 17) = 17.
    /// A: wins 1, 2 (avg_moves(160, 2) = 40); level 2 in game 1 → 50·pct100(2, 1)
    ///    = 250,000; early (ply 10 ≤ 17 + 8): e = 10000 → (10000/18)² = 555² =
    ///    308,025 (34 < 40: no length bonus); game 1 is 30 moves, in (25, 30]:
    ///    18·5000 = 90,000; draws 4, 5 with one bad: gd = 50 → (125000/3000)² =
    ///    41² = 1,681. Total 649,706.
    /// B: win 6 only (7 is irregular); level 1 → 10·10000 = 100,000; not early
    ///    (50 > 17 + 8); 40 moves is not short; gd 50 → 1,681. Total 101,681.
    /// V5: L = 30 − 15 = 15, no early part, draw part (125000/2500)² = 2,500.
    /// A: 15·5000 = 75,000; no short win and 6 moves longer than avg_all:
    ///    −6000 → 0; total 77,500. B: 5·10000 = 50,000 + 2,500 = 52,500.
    #[test]
    fn score_by_hand() {
        let lab = hand_labels();
        let (df, g) = score(&lab, &EasOptions::default()).unwrap();
        assert_eq!(
            (g.avg_all, g.short_limit, g.early_limit, g.decisive_games),
            (34, 30, 17, 5)
        );
        assert_eq!(
            totals(&df),
            [("A".to_string(), 649_706), ("B".to_string(), 101_681)]
        );
        let v5 = EasOptions {
            rules: Rules::V5,
            ..EasOptions::default()
        };
        let (df, g) = score(&lab, &v5).unwrap();
        assert_eq!(g.short_limit, 15);
        assert_eq!(
            totals(&df),
            [("A".to_string(), 77_500), ("B".to_string(), 52_500)]
        );
        // --hard-avg replaces avg_all: 60 → L = clamp(45, 30, 95), early limit 30.
        let hard = EasOptions {
            hard_avg: Some(60),
            ..EasOptions::default()
        };
        let (_, g) = score(&lab, &hard).unwrap();
        assert_eq!((g.avg_all, g.short_limit, g.early_limit), (60, 45, 30));
    }

    /// One game, C (White) lost to D in 50 plies: avg_all = avg_moves(50, 1) =
    /// 25, L = clamp(10, 30, 95) = 30, early_limit = max(10, 12) = 12.
    /// C, no wins and no draws: only the length bonus, 5000·(25 − 0) = 125,000.
    /// D, no draws: 25 moves falls in (20, 25]: 27·pct100(1, 1) = 270,000; no
    /// length bonus (25 − 25 = 0); the draw part of an engine without draws is 0.
    #[test]
    fn engines_without_wins_or_draws() {
        let lab = df!(
            col::WHITE => ["C"],
            col::BLACK => ["D"],
            col::RESULT => ["0-1"],
            cols::WINNER => [Some("b")],
            cols::PLIES_FEN => [50i32],
            cols::DUPLICATE => [false],
            cols::IRREGULAR => [false],
            cols::SAC_DEPTH[0] => [0u8],
            cols::SAC_DEPTH[1] => [0u8],
            cols::SAC1_PLY[0] => [None::<u32>],
            cols::SAC1_PLY[1] => [None::<u32>],
            cols::BAD_DRAW[0] => [false],
            cols::BAD_DRAW[1] => [false],
        )
        .unwrap();
        let (df, g) = score(&lab, &EasOptions::default()).unwrap();
        assert_eq!((g.avg_all, g.short_limit, g.early_limit), (25, 30, 12));
        assert_eq!(
            totals(&df),
            [("D".to_string(), 270_000), ("C".to_string(), 125_000)]
        );
    }
}
