//! Unit tests of the line parsers, on lines printed by Stockfish 15.1 (OS package).

use crate::{Bound, Info, Score, Search, UciError, parse_info, parse_option};

fn info(line: &str) -> Info {
    parse_info(line).unwrap_or_else(|e| panic!("{line:?}: {e}"))
}

fn malformed(line: &str) -> String {
    match parse_info(line) {
        Err(UciError::Malformed { line: l, reason }) => {
            assert_eq!(l, line, "the error names the line");
            reason
        }
        other => panic!("{line:?}: expected Malformed, got {other:?}"),
    }
}

#[test]
fn multipv_line_with_wdl() {
    let i = info(
        "info depth 10 seldepth 13 multipv 2 score cp -29 wdl 2 961 37 nodes 46295 \
         nps 642986 hashfull 20 tbhits 0 time 72 pv d7d5 e4d5 d8d5 d2d4 b8c6 g1f3 e7e5",
    );
    assert_eq!(
        i,
        Info {
            depth: Some(10),
            seldepth: Some(13),
            multipv: Some(2),
            score: Some(Score::Cp(-29)),
            bound: Bound::Exact,
            wdl: Some([2, 961, 37]),
            nodes: Some(46295),
            nps: Some(642986),
            time_ms: Some(72),
            tbhits: Some(0),
            hashfull: Some(20),
            currmove: None,
            pv: ["d7d5", "e4d5", "d8d5", "d2d4", "b8c6", "g1f3", "e7e5"]
                .map(String::from)
                .to_vec(),
            string: None,
        }
    );
}

#[test]
fn lowerbound_after_wdl() {
    // Stockfish 15.1 prints the bound after wdl, not right after the score.
    let i = info(
        "info depth 24 seldepth 27 multipv 1 score cp 48 wdl 91 908 1 lowerbound nodes 1777354 \
         nps 524602 hashfull 616 tbhits 0 time 3388 pv e2e4",
    );
    assert_eq!(i.bound, Bound::Lower);
    assert_eq!(i.score, Some(Score::Cp(48)));
    assert_eq!(i.wdl, Some([91, 908, 1]));
    assert_eq!(i.nodes, Some(1777354));
    assert_eq!(i.pv, ["e2e4"]);
}

#[test]
fn upperbound() {
    let i = info(
        "info depth 24 seldepth 30 multipv 1 score cp 33 wdl 46 952 2 upperbound nodes 2103419 \
         nps 525723 hashfull 703 tbhits 0 time 4001 pv e2e4 e7e5",
    );
    assert_eq!(i.bound, Bound::Upper);
    assert_eq!(i.hashfull, Some(703));
    assert_eq!(i.time_ms, Some(4001));
    assert_eq!(i.pv, ["e2e4", "e7e5"]);
}

#[test]
fn bound_right_after_score() {
    // The order the UCI document shows; other engines use it.
    let i = info("info depth 5 score cp -12 upperbound nodes 100 pv a2a3");
    assert_eq!(i.bound, Bound::Upper);
    assert_eq!(i.score, Some(Score::Cp(-12)));
}

#[test]
fn mate_scores() {
    let i = info(
        "info depth 1 seldepth 1 multipv 1 score mate 1 wdl 1000 0 0 nodes 44 nps 44000 \
         hashfull 0 tbhits 0 time 1 pv f3f7",
    );
    assert_eq!(i.score, Some(Score::Mate(1)));
    assert_eq!(i.wdl, Some([1000, 0, 0]));
    let i = info(
        "info depth 5 seldepth 3 multipv 1 score mate -1 nodes 10 nps 5000 hashfull 0 \
         tbhits 0 time 2 pv h8g8 a1g7",
    );
    assert_eq!(i.score, Some(Score::Mate(-1)));
    assert_eq!(i.wdl, None);
    // Already checkmated: no multipv, no pv (followed by `bestmove (none)`).
    let i = info("info depth 0 score mate 0");
    assert_eq!(i.depth, Some(0));
    assert_eq!(i.score, Some(Score::Mate(0)));
    assert_eq!(i.multipv, None);
    assert_eq!(i.rank(), 1);
    assert!(i.pv.is_empty());
}

#[test]
fn currmove_line() {
    let i = info("info depth 21 currmove d2d4 currmovenumber 2");
    assert_eq!(i.depth, Some(21));
    assert_eq!(i.currmove.as_deref(), Some("d2d4"));
    assert_eq!(i.score, None);
    assert!(i.pv.is_empty());
}

#[test]
fn string_takes_rest_of_line() {
    let i = info("info string NNUE evaluation using nn-ad9b42354671.nnue enabled");
    assert_eq!(
        i.string.as_deref(),
        Some("NNUE evaluation using nn-ad9b42354671.nnue enabled")
    );
    // Keywords inside the payload are not parsed, spacing is kept.
    let i = info("info string d2d4 (293 ) N: 12 (P:  24.37%) depth 3 score x");
    assert_eq!(
        i.string.as_deref(),
        Some("d2d4 (293 ) N: 12 (P:  24.37%) depth 3 score x")
    );
    assert_eq!(i.depth, None);
    assert_eq!(info("info string").string.as_deref(), Some(""));
    // pv stops at `string`.
    let i = info("info depth 3 score cp 5 pv e2e4 e7e5 string hello  world");
    assert_eq!(i.pv, ["e2e4", "e7e5"]);
    assert_eq!(i.string.as_deref(), Some("hello  world"));
}

#[test]
fn unknown_tokens_ignored() {
    let i = info("info depth 3 foo bar cpuload 500 sbhits 0 score cp 7 nodes 9 pv g1f3");
    assert_eq!(i.depth, Some(3));
    assert_eq!(i.score, Some(Score::Cp(7)));
    assert_eq!(i.nodes, Some(9));
    let i = info("info");
    assert_eq!(i, Info::default());
}

#[test]
fn tbhits_nonzero() {
    let i =
        info("info depth 30 seldepth 40 multipv 1 score cp 20000 tbhits 123456 nodes 1 pv a1a2");
    assert_eq!(i.tbhits, Some(123456));
    assert_eq!(i.score, Some(Score::Cp(20000)));
}

#[test]
fn malformed_lines() {
    assert!(malformed("info depth x").contains("depth"));
    assert!(malformed("info depth abc score cp 1 pv e2e4").contains("\"abc\""));
    assert!(malformed("info depth 3 score cp abc").contains("score cp"));
    assert!(malformed("info depth 3 score foo 12").contains("foo"));
    assert!(malformed("info depth 3 score").contains("score"));
    assert!(malformed("info depth -1").contains("depth"));
    assert!(malformed("info depth 3 nodes 12x").contains("nodes"));
    assert!(malformed("info depth 3 score cp 1 wdl 1 2").contains("wdl"));
    assert!(malformed("info multipv").contains("multipv"));
    assert!(malformed("info depth 3 currmove").contains("currmove"));
    assert!(malformed("bestmove e2e4").contains("info"));
    // The error message names the line.
    let e = parse_info("info depth x").unwrap_err().to_string();
    assert!(e.contains("info depth x"), "{e}");
}

#[test]
fn options_from_stockfish() {
    let o = parse_option("option name Threads type spin default 1 min 1 max 1024").unwrap();
    assert_eq!(
        (o.name.as_str(), o.kind.as_str(), o.default.as_deref()),
        ("Threads", "spin", Some("1"))
    );
    let o = parse_option("option name Skill Level type spin default 20 min 0 max 20").unwrap();
    assert_eq!(o.name, "Skill Level");
    assert_eq!(o.default.as_deref(), Some("20"));
    let o = parse_option("option name Clear Hash type button").unwrap();
    assert_eq!((o.name.as_str(), o.kind.as_str()), ("Clear Hash", "button"));
    assert_eq!(o.default, None);
    let o = parse_option("option name Debug Log File type string default ").unwrap();
    assert_eq!(o.name, "Debug Log File");
    assert_eq!(o.default.as_deref(), Some(""));
    let o = parse_option("option name SyzygyPath type string default <empty>").unwrap();
    assert_eq!(o.default.as_deref(), Some("<empty>"));
    let o = parse_option("option name UCI_Chess960 type check default false").unwrap();
    assert_eq!(
        (o.kind.as_str(), o.default.as_deref()),
        ("check", Some("false"))
    );
    let o =
        parse_option("option name Style type combo default Normal var Solid var Normal").unwrap();
    assert_eq!(o.default.as_deref(), Some("Normal"));
    let o = parse_option("option name Path type string default /a b/max min").unwrap();
    assert_eq!(o.default.as_deref(), Some("/a b/max min"));
    assert!(parse_option("option name Foo").is_err());
    assert!(parse_option("option type spin").is_err());
    assert!(parse_option("option name type spin").is_err());
}

fn line(depth: u32, multipv: u32, cp: i32, bound: Bound) -> Info {
    Info {
        depth: Some(depth),
        multipv: Some(multipv),
        score: Some(Score::Cp(cp)),
        bound,
        pv: vec![format!("m{depth}{multipv}")],
        ..Info::default()
    }
}

#[test]
fn by_depth_keeps_last_per_key() {
    // A re-printed MultiPV block: rank 2 not yet searched at depth 12 stays at 11.
    let s = Search {
        infos: vec![
            line(11, 1, 10, Bound::Exact),
            line(11, 2, 5, Bound::Exact),
            line(12, 1, 30, Bound::Lower),
            line(12, 1, 20, Bound::Exact),
            line(11, 2, 6, Bound::Exact),
        ],
        ..Search::default()
    };
    let d: Vec<_> = s
        .by_depth()
        .iter()
        .map(|i| (i.depth.unwrap(), i.rank(), i.score))
        .collect();
    assert_eq!(
        d,
        [
            (11, 1, Some(Score::Cp(10))),
            (11, 2, Some(Score::Cp(6))),
            (12, 1, Some(Score::Cp(20))),
        ]
    );
    let f: Vec<_> = s
        .final_lines()
        .iter()
        .map(|i| (i.depth.unwrap(), i.rank(), i.score))
        .collect();
    assert_eq!(
        f,
        [(12, 1, Some(Score::Cp(20))), (11, 2, Some(Score::Cp(6)))]
    );
}

#[test]
fn final_lines_missing_multipv_is_rank_one() {
    let mut a = line(3, 1, 1, Bound::Exact);
    a.multipv = None;
    let b = line(4, 1, 2, Bound::Upper);
    let s = Search {
        infos: vec![a, b],
        ..Search::default()
    };
    let f = s.final_lines();
    assert_eq!(f.len(), 1);
    assert_eq!(f[0].bound, Bound::Upper);
    assert_eq!(s.by_depth().len(), 2);
}
