//! Against the real Stockfish (OS package, `/usr/games/stockfish`, 15.1 when written).
//! Each test prints `SKIPPED` and passes when the binary is absent.

use std::path::Path;
use std::time::Duration;

use evallab_uci::{Bound, Engine, EngineConfig, Info, Limit, Score, Search};

const STOCKFISH: &str = "/usr/games/stockfish";
const TIMEOUT: Duration = Duration::from_secs(30);

fn stockfish(options: &[(&str, &str)]) -> Option<Engine> {
    if !Path::new(STOCKFISH).exists() {
        println!("SKIPPED: {STOCKFISH} not found");
        return None;
    }
    let cfg = EngineConfig {
        path: STOCKFISH.into(),
        args: vec![],
        options: options
            .iter()
            .map(|&(n, v)| (n.to_owned(), v.to_owned()))
            .collect(),
        handshake_timeout: Duration::from_secs(10),
    };
    Some(Engine::start(&cfg).expect("Stockfish starts"))
}

fn moves(ms: &[&str]) -> Vec<String> {
    ms.iter().map(|m| m.to_string()).collect()
}

#[test]
fn handshake() {
    let Some(e) = stockfish(&[]) else { return };
    println!("id name: {}", e.id_name());
    assert!(e.id_name().starts_with("Stockfish"), "{}", e.id_name());
    for name in ["Threads", "Hash", "MultiPV", "UCI_Chess960", "UCI_ShowWDL"] {
        assert!(
            e.options().iter().any(|o| o.name == name),
            "option {name} missing"
        );
    }
    let threads = e.options().iter().find(|o| o.name == "Threads").unwrap();
    assert_eq!(threads.kind, "spin");
    assert_eq!(threads.default.as_deref(), Some("1"));
    e.quit();
}

#[test]
fn multipv_three_with_node_limit() {
    let Some(mut e) = stockfish(&[("Threads", "1"), ("Hash", "16"), ("MultiPV", "3")]) else {
        return;
    };
    e.new_game().unwrap();
    let r = e
        .search(None, &moves(&["e2e4"]), Limit::Nodes(20000), TIMEOUT)
        .unwrap();
    let last = r.final_lines();
    let ranks: Vec<_> = last.iter().map(|i| i.multipv).collect();
    assert_eq!(ranks, [Some(1), Some(2), Some(3)]);
    assert_eq!(r.bestmove, last[0].pv[0]);
    assert!(
        r.strings.iter().any(|s| s.contains("NNUE")),
        "{:?}",
        r.strings
    );
    assert!(!r.stopped);
    for i in &last {
        println!(
            "multipv {} depth {} {} {:?} nodes {} pv {}",
            i.rank(),
            i.depth.unwrap(),
            i.score.unwrap(),
            i.bound,
            i.nodes.unwrap(),
            i.pv.join(" ")
        );
    }
    e.quit();
}

/// The fields that must reproduce (not nps or time).
fn key(i: &Info) -> impl PartialEq + std::fmt::Debug + use<> {
    (
        i.depth,
        i.seldepth,
        i.multipv,
        i.score,
        i.bound,
        i.wdl,
        i.nodes,
        i.pv.clone(),
    )
}

fn analyse_fresh() -> Option<Search> {
    let mut e = stockfish(&[("Threads", "1"), ("MultiPV", "2"), ("UCI_ShowWDL", "true")])?;
    e.new_game().unwrap();
    let r = e
        .search(
            Some("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"),
            &moves(&["f1b5", "a7a6"]),
            Limit::Nodes(20000),
            TIMEOUT,
        )
        .unwrap();
    e.quit();
    Some(r)
}

#[test]
fn node_limit_is_deterministic() {
    let Some(a) = analyse_fresh() else { return };
    let b = analyse_fresh().unwrap();
    assert!(!a.infos.is_empty());
    let ka: Vec<_> = a.infos.iter().map(key).collect();
    let kb: Vec<_> = b.infos.iter().map(key).collect();
    assert_eq!(ka, kb);
    assert_eq!((&a.bestmove, &a.ponder), (&b.bestmove, &b.ponder));
    println!("{} lines identical, bestmove {}", a.infos.len(), a.bestmove);
}

#[test]
fn chess960() {
    let Some(mut e) = stockfish(&[("UCI_Chess960", "true")]) else {
        return;
    };
    e.new_game().unwrap();
    let r = e
        .search(
            Some("bbrnkqnr/pppppppp/8/8/8/8/PPPPPPPP/BBRNKQNR w KQkq - 0 1"),
            &[],
            Limit::Depth(8),
            TIMEOUT,
        )
        .unwrap();
    assert_eq!(r.bestmove.len(), 4, "{}", r.bestmove);
    // Castling rights as KQkq (X-FEN) and as Shredder letters both accepted; castling
    // is king-takes-rook. If a move were rejected Stockfish would ignore the rest of
    // the command and still have White to move, so Black's best move shows it took.
    for rights in ["KQkq", "HChc"] {
        let fen = format!("bbr1k2r/pppppppp/8/8/8/8/PPPPPPPP/BBR1K2R w {rights} - 0 1");
        for castle in ["e1h1", "e1c1"] {
            let r = e
                .search(Some(&fen), &moves(&[castle]), Limit::Depth(6), TIMEOUT)
                .unwrap();
            let from_rank = r.bestmove.as_bytes()[1];
            assert!(
                matches!(from_rank, b'7' | b'8'),
                "{rights} {castle}: bestmove {} is not Black's",
                r.bestmove
            );
        }
    }
    e.quit();
}

#[test]
fn mate_in_one_and_mated() {
    let Some(mut e) = stockfish(&[("MultiPV", "3")]) else {
        return;
    };
    let fen = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 2 3";
    let r = e.search(Some(fen), &[], Limit::Depth(6), TIMEOUT).unwrap();
    assert_eq!(r.bestmove, "f3f7");
    assert_eq!(r.final_lines()[0].score, Some(Score::Mate(1)));
    // After the mate: no legal move.
    let r = e
        .search(Some(fen), &moves(&["f3f7"]), Limit::Depth(6), TIMEOUT)
        .unwrap();
    assert_eq!(r.bestmove, "(none)");
    assert_eq!(r.ponder, None);
    assert_eq!(r.final_lines()[0].score, Some(Score::Mate(0)));
    // Lone king, one legal move: one line despite MultiPV 3, mated (negative).
    let r = e
        .search(
            Some("7k/8/6K1/8/8/8/8/Q7 b - - 0 1"),
            &[],
            Limit::Depth(5),
            TIMEOUT,
        )
        .unwrap();
    assert_eq!(r.final_lines().len(), 1);
    assert_eq!(r.final_lines()[0].score, Some(Score::Mate(-1)));
    assert_eq!(r.bestmove, "h8g8");
    e.quit();
}

#[test]
fn by_depth_with_depth_limit() {
    let Some(mut e) = stockfish(&[("Threads", "1")]) else {
        return;
    };
    let r = e
        .search(None, &moves(&["d2d4", "g8f6"]), Limit::Depth(8), TIMEOUT)
        .unwrap();
    let depths: Vec<_> = r
        .by_depth()
        .iter()
        .map(|i| (i.depth.unwrap(), i.rank()))
        .collect();
    let want: Vec<_> = (1..=8).map(|d| (d, 1)).collect();
    assert_eq!(depths, want);
    let last = r.by_depth()[7];
    assert_eq!(last.bound, Bound::Exact);
    assert_eq!(r.bestmove, last.pv[0]);
    e.quit();
}

#[test]
fn movetime_limit() {
    let Some(mut e) = stockfish(&[]) else { return };
    let r = e.search(None, &[], Limit::MoveTime(200), TIMEOUT).unwrap();
    assert!(r.elapsed >= Duration::from_millis(150), "{:?}", r.elapsed);
    assert!(r.elapsed < Duration::from_secs(3), "{:?}", r.elapsed);
    assert!(!r.final_lines().is_empty());
    e.kill();
}

#[test]
fn timeout_stops_real_search_then_kill_and_restart() {
    let Some(mut e) = stockfish(&[("Threads", "1")]) else {
        return;
    };
    // Stockfish honours `stop`: the search comes back marked as stopped, not an error.
    let r = e
        .search(None, &[], Limit::Depth(60), Duration::from_millis(300))
        .unwrap();
    assert!(r.stopped);
    assert!(r.elapsed < Duration::from_millis(1300), "{:?}", r.elapsed);
    assert!(!r.bestmove.is_empty());
    let t = std::time::Instant::now();
    e.kill();
    assert!(
        t.elapsed() < Duration::from_millis(500),
        "{:?}",
        t.elapsed()
    );
    let mut e = stockfish(&[]).unwrap();
    e.new_game().unwrap();
    let r = e.search(None, &[], Limit::Depth(4), TIMEOUT).unwrap();
    assert!(!r.stopped);
    e.quit();
}

#[test]
fn searchmoves_restricts_the_search_to_the_moves_given() {
    let Some(mut e) = stockfish(&[("Threads", "1"), ("Hash", "16"), ("MultiPV", "3")]) else {
        return;
    };
    e.new_game().unwrap();
    // Back-rank mate: Ra8# is the engine's choice; restricted to Kf1 it
    // must search Kf1 alone (one line, a centipawn score).
    let fen = Some("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    let all = e.search(fen, &[], Limit::Depth(6), TIMEOUT).unwrap();
    assert_eq!(all.bestmove, "a1a8");
    let only = e
        .search_moves(fen, &[], Limit::Depth(6), &moves(&["g1f1"]), TIMEOUT)
        .unwrap();
    assert_eq!(only.bestmove, "g1f1");
    let finals = only.final_lines();
    assert_eq!(finals.len(), 1, "{finals:?}");
    assert_eq!(finals[0].pv[0], "g1f1");
    assert!(matches!(finals[0].score, Some(Score::Cp(_))));
    e.quit();
}
