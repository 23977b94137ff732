//! `pairs` and `engine-stats` on the TCEC archive in `../shared/tcec`
//! (skipped without it, as the other TCEC tests): real-data properties, and
//! the Superfinals' pairs against TCEC's own numbering (games 2k−1, 2k); and
//! the cutechess-style round robin of `data/demo`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use evallab::ingest::{IngestOptions, ingest};
use evallab::metrics::Selection;
use evallab::metrics::balance::Group;
use evallab::metrics::engine_stats::{
    EngineStatsOptions, Split, engine_stats, engine_stats_in_chunks, time_usage,
};
use evallab::metrics::pairs::math::Penta;
use evallab::metrics::pairs::{NO_PARTNER, Paired, PairsOptions, pairs, pentanomial};
use evallab::schema::metric::{self, engine_stats as es, pairs as p};
use evallab::schema::{GAMES, MOVES, col};
use polars::prelude::*;

use crate::tcec::corpus;

fn strs(df: &DataFrame, c: &str) -> Vec<Option<String>> {
    let s = df.column(c).unwrap().cast(&DataType::String).unwrap();
    s.str()
        .unwrap()
        .iter()
        .map(|v| v.map(str::to_string))
        .collect()
}

fn i64s(df: &DataFrame, c: &str) -> Vec<i64> {
    let s = df.column(c).unwrap().cast(&DataType::Int64).unwrap();
    s.i64().unwrap().iter().map(|v| v.unwrap()).collect()
}

fn f64s(df: &DataFrame, c: &str) -> Vec<Option<f64>> {
    let s = df.column(c).unwrap().cast(&DataType::Float64).unwrap();
    s.f64().unwrap().iter().collect()
}

fn archive_pairs() -> Option<(Paired, DataFrame)> {
    let c = corpus()?;
    let games = c.ds.scan(&GAMES).unwrap().collect().unwrap();
    let paired = pairs(
        c.ds.scan(&GAMES).unwrap(),
        c.ds.scan(&MOVES).unwrap(),
        &Selection::default(),
        None,
    )
    .unwrap();
    Some((paired, games))
}

/// Every game is in exactly one pair or listed as unpaired; in each pair
/// the same two engines swap colours on the same opening, in one event and
/// file, the first game before the second.
#[test]
fn every_game_is_paired_once_or_listed() {
    let Some((paired, games)) = archive_pairs() else {
        return;
    };
    let pr = &paired.pairs;
    assert_eq!(2 * pr.height() + paired.unpaired.height(), games.height());
    let mut seen = BTreeSet::new();
    for id in i64s(pr, p::FIRST_GAME_ID)
        .into_iter()
        .chain(i64s(pr, p::SECOND_GAME_ID))
        .chain(i64s(&paired.unpaired, col::GAME_ID))
    {
        assert!(seen.insert(id), "game {id} twice");
    }
    let by_id: BTreeMap<i64, usize> = i64s(&games, col::GAME_ID)
        .into_iter()
        .enumerate()
        .map(|(i, g)| (g, i))
        .collect();
    let (gw, gb, ge, gf, gn) = (
        strs(&games, col::WHITE),
        strs(&games, col::BLACK),
        strs(&games, col::EVENT),
        strs(&games, col::SOURCE_FILE),
        i64s(&games, col::GAME_NUMBER),
    );
    for (a, b) in i64s(pr, p::FIRST_GAME_ID)
        .into_iter()
        .zip(i64s(pr, p::SECOND_GAME_ID))
    {
        let (a, b) = (by_id[&a], by_id[&b]);
        assert_eq!((&gw[a], &gb[a]), (&gb[b], &gw[b]), "colours not swapped");
        assert_eq!((&ge[a], &gf[a]), (&ge[b], &gf[b]));
        assert!(gn[a] < gn[b]);
    }
    // Most of the archive is paired (TCEC plays each opening twice); the
    // rest are single round robins, matches cut short and replays.
    assert!(pr.height() * 2 > games.height() * 3 / 4, "{}", pr.height());
    let reasons = strs(&paired.unpaired, col::REASON);
    assert!(reasons.iter().any(|r| r.as_deref() == Some(NO_PARTNER)));
}

/// The summary's counts add up: each unordered engine pair once, the bins
/// sum to the pairs, the games to twice the pairs, and the unpaired games.
#[test]
fn pentanomial_counts_add_up() {
    let Some((paired, _)) = archive_pairs() else {
        return;
    };
    let df = pentanomial(&paired, &PairsOptions::default()).unwrap();
    let total = |c: &str| f64s(&df, c).iter().map(|v| v.unwrap()).sum::<f64>();
    assert_eq!(total(p::PAIRS), paired.pairs.height() as f64);
    assert_eq!(total(p::UNPAIRED), paired.unpaired.height() as f64);
    let bins: Vec<Vec<Option<f64>>> = p::BINS.iter().map(|b| f64s(&df, b)).collect();
    let n = f64s(&df, p::PAIRS);
    let games: Vec<f64> = [metric::WINS, metric::DRAWS, metric::LOSSES]
        .iter()
        .map(|c| f64s(&df, c))
        .fold(vec![0.0; df.height()], |acc, v| {
            acc.iter().zip(v).map(|(a, b)| a + b.unwrap()).collect()
        });
    for i in 0..df.height() {
        let sum: f64 = bins.iter().map(|b| b[i].unwrap()).sum();
        assert_eq!(sum, n[i].unwrap());
        assert_eq!(games[i], 2.0 * n[i].unwrap());
    }
}

/// The Superfinals of seasons 9–13 play each opening in games 2k−1 and 2k
/// of the file (Round 1..100 in seasons 9–11, N.1/N.2 in 12, N.1 with N the
/// game in 13): the pairs found by opening are those, and the pentanomial
/// counts (from the view of the engine first by name) equal the counts of
/// the numbered pairs. Season 10's games 1 and 2 have no book moves and
/// different positions at ply 8: they stay unpaired.
#[test]
fn superfinal_pairs_are_tcecs_numbered_pairs() {
    let Some((_, games)) = archive_pairs() else {
        return;
    };
    let c = corpus().unwrap();
    let sel = Selection::new(Some(r"Season (9|1[0-3]) - Superfinal".into()), None, &[]).unwrap();
    let paired = pairs(
        c.ds.scan(&GAMES).unwrap(),
        c.ds.scan(&MOVES).unwrap(),
        &sel,
        None,
    )
    .unwrap();
    let df = pentanomial(
        &paired,
        &PairsOptions {
            group: Group::EventEngine,
            selection: sel,
            sprt: None,
        },
    )
    .unwrap();
    assert_eq!(df.height(), 5);
    // The games by event in file order: (white, black, result).
    let mut by_event: BTreeMap<String, BTreeMap<i64, (String, String, String)>> = BTreeMap::new();
    let (ev, rd, w, b, r) = (
        strs(&games, col::EVENT),
        i64s(&games, col::GAME_NUMBER),
        strs(&games, col::WHITE),
        strs(&games, col::BLACK),
        strs(&games, col::RESULT),
    );
    let re = regex::Regex::new(r"^TCEC Season (9|1[0-3]) - Superfinal$").unwrap();
    for i in 0..games.height() {
        let e = ev[i].clone().unwrap();
        if re.is_match(&e) {
            let g = (
                w[i].clone().unwrap(),
                b[i].clone().unwrap(),
                r[i].clone().unwrap(),
            );
            by_event.entry(e).or_default().insert(rd[i], g);
        }
    }
    let events = strs(&df, col::EVENT);
    let engines = strs(&df, metric::ENGINE);
    for (row, event) in events.iter().enumerate() {
        let event = event.as_deref().unwrap();
        let me = engines[row].as_deref().unwrap();
        let games: Vec<_> = by_event[event].values().collect();
        assert_eq!(games.len(), 100, "{event}");
        let mut counts = Penta::default();
        for k in 1..=50 {
            if event.contains("Season 10") && k == 1 {
                continue;
            }
            let pts = |(w, _, r): &(String, String, String)| {
                let white = w == me;
                match r.as_str() {
                    "1/2-1/2" => 1,
                    "1-0" if white => 2,
                    "0-1" if !white => 2,
                    _ => 0,
                }
            };
            counts.0[pts(games[2 * k - 2]) + pts(games[2 * k - 1])] += 1;
        }
        let got: Vec<u64> = p::BINS
            .iter()
            .map(|c| f64s(&df, c)[row].unwrap() as u64)
            .collect();
        assert_eq!(got, counts.0, "{event}");
    }
    assert_eq!(paired.unpaired.height(), 2);
    assert_eq!(i64s(&paired.unpaired, col::GAME_NUMBER), [1, 2]);
}

/// Where an engine's scores in the two games of a pair are negatively
/// correlated (the opening favours one colour), the pentanomial standard
/// error is below the trinomial one: se_p² / se_t² = (v1 + v2 + 2c) / 2 /
/// ((v1 + v2)/2 + (m1 − m2)²/4) with c the covariance of the two games'
/// scores, v1, v2 their variances and m1, m2 their means.
#[test]
fn pentanomial_error_is_smaller_where_pairs_correlate() {
    let Some((paired, _)) = archive_pairs() else {
        return;
    };
    let by_event = PairsOptions {
        group: Group::EventEngine,
        ..PairsOptions::default()
    };
    let df = pentanomial(&paired, &by_event).unwrap();
    // The covariance per (event, engine, opponent) from the pairs.
    let pr = &paired.pairs;
    let (ev, en, op, r1, r2) = (
        strs(pr, col::EVENT),
        strs(pr, metric::ENGINE),
        strs(pr, metric::OPPONENT),
        strs(pr, p::FIRST_RESULT),
        strs(pr, p::SECOND_RESULT),
    );
    let mut scores: BTreeMap<(String, String, String), Vec<(f64, f64)>> = BTreeMap::new();
    for i in 0..pr.height() {
        let (e, o) = (en[i].clone().unwrap(), op[i].clone().unwrap());
        let s = |r: &Option<String>, white: bool| match r.as_deref() {
            Some("1-0") => f64::from(u8::from(white)),
            Some("0-1") => f64::from(u8::from(!white)),
            _ => 0.5,
        };
        let (a, b) = (s(&r1[i], true), s(&r2[i], false));
        // The summary's view: the engine first by name.
        let (key, a, b) = if e < o {
            ((ev[i].clone().unwrap(), e, o), a, b)
        } else {
            ((ev[i].clone().unwrap(), o, e), 1.0 - a, 1.0 - b)
        };
        scores.entry(key).or_default().push((a, b));
    }
    let (ev, en, op, ratio) = (
        strs(&df, col::EVENT),
        strs(&df, metric::ENGINE),
        strs(&df, metric::OPPONENT),
        f64s(&df, p::SE_RATIO),
    );
    let mut checked = 0;
    for i in 0..df.height() {
        let key = (
            ev[i].clone().unwrap(),
            en[i].clone().unwrap(),
            op[i].clone().unwrap(),
        );
        let Some(s) = scores.get(&key) else { continue };
        let n = s.len() as f64;
        let (m1, m2) = (
            s.iter().map(|x| x.0).sum::<f64>() / n,
            s.iter().map(|x| x.1).sum::<f64>() / n,
        );
        let cov = s.iter().map(|x| (x.0 - m1) * (x.1 - m2)).sum::<f64>() / n;
        let (v1, v2) = (
            s.iter().map(|x| (x.0 - m1).powi(2)).sum::<f64>() / n,
            s.iter().map(|x| (x.1 - m2).powi(2)).sum::<f64>() / n,
        );
        let Some(r) = ratio[i] else { continue };
        let expected =
            ((v1 + v2 + 2.0 * cov) / 2.0 / ((v1 + v2) / 2.0 + (m1 - m2).powi(2) / 4.0)).sqrt();
        assert!((r - expected).abs() < 1e-9, "{key:?}: {r} vs {expected}");
        if cov < 0.0 {
            assert!(r < 1.0, "{key:?}: {r}");
            checked += 1;
        }
    }
    assert!(checked > 100, "{checked}");
}

/// engine-stats on the archive: every engine's field counts are at most its
/// moves, a mean is null exactly when no move recorded the field, and the
/// phases and bands partition the moves.
#[test]
fn engine_stats_are_null_safe_and_partition_the_moves() {
    let Some(c) = corpus() else {
        return;
    };
    let run = |split: Split| {
        let opts = EngineStatsOptions {
            group: Group::Engine,
            selection: Selection::default(),
            split,
        };
        engine_stats(
            c.ds.scan(&GAMES).unwrap(),
            c.ds.scan(&MOVES).unwrap(),
            &opts,
        )
        .unwrap()
    };
    let all = run(Split::None);
    let moves = f64s(&all, es::MOVES);
    for (name, _) in es::FIELDS {
        let n = f64s(&all, &format!("{name}_moves"));
        let mean = f64s(&all, &format!("{name}_mean"));
        for i in 0..all.height() {
            assert!(n[i].unwrap() <= moves[i].unwrap());
            assert_eq!(mean[i].is_none(), n[i] == Some(0.0), "{name} row {i}");
        }
    }
    let non_book =
        c.ds.scan(&MOVES)
            .unwrap()
            .filter(col(col::IS_BOOK).not())
            .select([len()])
            .collect()
            .unwrap();
    let non_book = f64s(&non_book, "len")[0].unwrap();
    let sum = |df: &DataFrame| f64s(df, es::MOVES).iter().map(|v| v.unwrap()).sum::<f64>();
    assert_eq!(sum(&all), non_book);
    assert_eq!(sum(&run(Split::Phase)), non_book);
    assert_eq!(sum(&run(Split::Bands(10))), non_book);
    let clock = time_usage(
        c.ds.scan(&GAMES).unwrap(),
        c.ds.scan(&MOVES).unwrap(),
        &EngineStatsOptions::default(),
        10,
    )
    .unwrap();
    assert_eq!(sum(&clock), non_book);
    // Chunk after chunk, pass after pass (the medians), the table of one
    // chunk: by season and phase, 25,000-ply chunks.
    let by_season = EngineStatsOptions {
        group: Group::SeasonEngine,
        selection: Selection::default(),
        split: Split::Phase,
    };
    let stats = |chunk| {
        engine_stats_in_chunks(
            c.ds.scan(&GAMES).unwrap(),
            c.ds.scan(&MOVES).unwrap(),
            &by_season,
            chunk,
        )
        .unwrap()
    };
    let (one, chunked) = (stats(u64::MAX), stats(25_000));
    assert!(one.height() > 100, "{} rows", one.height());
    assert!(one.equals_missing(&chunked), "{one}\n{chunked}");
    for v in f64s(&clock, es::CLOCK_SHARE_MEAN).into_iter().flatten() {
        assert!((0.0..=1.0).contains(&v), "{v}");
    }
}

/// The demo's cutechess-style round robin plays each book opening twice in
/// rounds 2k−1 and 2k (`{book}` comments): every game is paired, with the
/// rounds of its numbered pair.
#[test]
fn cutechess_pairs_are_consecutive_rounds() {
    let dir = tempfile::tempdir().unwrap();
    let input = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data/demo/demo_cutechess.pgn.gz")
        .display()
        .to_string();
    ingest(dir.path(), &[input], IngestOptions::default(), &mut |_| {}).unwrap();
    let ds = evallab::dataset::Dataset::open(dir.path()).unwrap();
    let paired = pairs(
        ds.scan(&GAMES).unwrap(),
        ds.scan(&MOVES).unwrap(),
        &Selection::default(),
        None,
    )
    .unwrap();
    assert_eq!(paired.unpaired.height(), 0);
    assert_eq!(paired.pairs.height(), 66);
    let round = |c: &str| -> Vec<i64> {
        strs(&paired.pairs, c)
            .into_iter()
            .map(|r| r.unwrap().parse().unwrap())
            .collect()
    };
    let (first, second) = (round(p::FIRST_ROUND), round(p::SECOND_ROUND));
    for (k, (a, b)) in first.into_iter().zip(second).enumerate() {
        assert_eq!((a, b), (2 * k as i64 + 1, 2 * k as i64 + 2));
    }
}
