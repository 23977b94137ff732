//! Misbehaving (and one well-behaved) engines written as small shell scripts: each
//! failure must come back as the right error, promptly, with the process reaped.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use evallab_uci::{Bound, Engine, EngineConfig, Limit, Score, UciError};

/// A temp dir holding one script, removed on drop.
struct Script {
    dir: PathBuf,
    path: PathBuf,
}

impl Drop for Script {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The usual handshake answers; a script's own cases come first and win.
const HANDSHAKE: &str = r#"
    uci) echo "id name Fake Engine 1.0"; echo "id author Test"
         echo "option name Hash type spin default 16 min 1 max 1024"
         echo "option name Clear Hash type button"
         echo uciok;;
    isready) echo readyok;;
    quit) exit 0;;
"#;

/// Writes `#!/bin/sh` + a read loop with `cases` (then the usual handshake cases).
fn script(name: &str, cases: &str) -> Script {
    script_raw(
        name,
        &format!("while read line; do\n  case \"$line\" in\n{cases}\n{HANDSHAKE}\n  esac\ndone\n"),
    )
}

fn script_raw(name: &str, body: &str) -> Script {
    let dir = std::env::temp_dir().join(format!("evallab-uci-test-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("engine.sh");
    std::fs::write(&path, format!("#!/bin/sh\n{body}")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    Script { dir, path }
}

fn config(path: &Path) -> EngineConfig {
    EngineConfig {
        path: path.to_owned(),
        args: vec![],
        options: vec![],
        handshake_timeout: Duration::from_millis(1500),
    }
}

fn start(path: &Path) -> Engine {
    Engine::start(&config(path)).unwrap_or_else(|e| panic!("start {}: {e}", path.display()))
}

fn go(engine: &mut Engine, timeout_ms: u64) -> Result<evallab_uci::Search, UciError> {
    engine.search(
        None,
        &["e2e4".to_owned()],
        Limit::Depth(5),
        Duration::from_millis(timeout_ms),
    )
}

fn process_gone(pid: u32) -> bool {
    !Path::new(&format!("/proc/{pid}")).exists()
}

#[test]
fn never_sends_uciok() {
    let s = script("mute", r#"    uci) echo "id name Mute";;"#);
    let mut cfg = config(&s.path);
    cfg.handshake_timeout = Duration::from_millis(400);
    let t = Instant::now();
    let err = Engine::start(&cfg).unwrap_err();
    assert!(
        matches!(err, UciError::Timeout { waiting_for: "uciok", after } if after == cfg.handshake_timeout),
        "{err:?}"
    );
    assert!(t.elapsed() >= Duration::from_millis(400));
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
    println!("{err}");
}

#[test]
fn never_sends_readyok() {
    let s = script("noready", "    isready) ;;");
    let mut cfg = config(&s.path);
    cfg.handshake_timeout = Duration::from_millis(300);
    let err = Engine::start(&cfg).unwrap_err();
    assert!(
        matches!(
            err,
            UciError::Timeout {
                waiting_for: "readyok",
                ..
            }
        ),
        "{err:?}"
    );
}

#[test]
fn exits_at_once() {
    let s = script_raw("dead", "exit 7\n");
    let err = Engine::start(&config(&s.path)).unwrap_err();
    match &err {
        UciError::Exited {
            waiting_for: "uciok",
            status,
        } => assert!(status.contains('7'), "{status}"),
        other => panic!("{other:?}"),
    }
    println!("{err}");
}

#[test]
fn missing_program_is_spawn_error() {
    let err = Engine::start(&config(Path::new("/nonexistent/engine"))).unwrap_err();
    assert!(
        matches!(err, UciError::Spawn { ref path, .. } if path == Path::new("/nonexistent/engine"))
    );
    assert!(err.to_string().contains("/nonexistent/engine"), "{err}");
}

#[test]
fn crashes_at_second_go() {
    let s = script(
        "crash",
        r#"    go*) n=$((n+1)); if [ "$n" -ge 2 ]; then exit 3; fi
         echo "info depth 1 score cp 12 pv e2e4"; echo "bestmove e2e4";;"#,
    );
    let mut e = start(&s.path);
    let first = go(&mut e, 2000).unwrap();
    assert_eq!(first.bestmove, "e2e4");
    let err = go(&mut e, 2000).unwrap_err();
    match &err {
        UciError::Exited {
            waiting_for: "bestmove",
            status,
        } => assert!(status.contains('3'), "{status}"),
        other => panic!("{other:?}"),
    }
    println!("{err}");
    // Writing to the dead engine is Exited too, not a panic.
    let err = go(&mut e, 2000).unwrap_err();
    assert!(
        matches!(
            err,
            UciError::Exited {
                waiting_for: "bestmove",
                ..
            }
        ),
        "{err:?}"
    );
    e.kill();
}

#[test]
fn exits_on_ucinewgame_then_broken_pipe() {
    let s = script("newgame", "    ucinewgame) exit 5;;");
    let mut e = start(&s.path);
    let err = e.new_game().unwrap_err();
    assert!(
        matches!(err, UciError::Exited { waiting_for: "readyok", ref status } if status.contains('5')),
        "{err:?}"
    );
    let err = go(&mut e, 1000).unwrap_err();
    assert!(
        matches!(
            err,
            UciError::Exited {
                waiting_for: "bestmove",
                ..
            }
        ),
        "{err:?}"
    );
}

#[test]
fn hangs_on_go_then_kill_and_restart() {
    let s = script("hang", "    go*) ;;\n    stop) ;;");
    let mut e = start(&s.path);
    let pid = e.pid();
    let t = Instant::now();
    let err = go(&mut e, 300).unwrap_err();
    let waited = t.elapsed();
    assert!(
        matches!(err, UciError::Timeout { waiting_for: "bestmove", after } if after == Duration::from_millis(300)),
        "{err:?}"
    );
    // timeout + STOP_GRACE, not more.
    assert!(waited >= Duration::from_millis(1300), "{waited:?}");
    assert!(waited < Duration::from_millis(2000), "{waited:?}");
    println!("{err} (returned after {waited:?})");
    let t = Instant::now();
    e.kill();
    assert!(
        t.elapsed() < Duration::from_millis(500),
        "{:?}",
        t.elapsed()
    );
    assert!(process_gone(pid), "process {pid} still there (zombie?)");
    // A new engine starts fine.
    let good = script("hang-restart", r#"    go*) echo "bestmove e2e4";;"#);
    let mut e = start(&good.path);
    assert_eq!(go(&mut e, 1000).unwrap().bestmove, "e2e4");
    e.quit();
}

#[test]
fn honours_stop_after_timeout() {
    let s = script(
        "slow",
        r#"    go*) echo "info depth 1 score cp 3 pv e2e4"; echo "info depth 2 currmove e2e4";;
    stop) echo "info depth 2 score cp 4 upperbound pv e2e4 e7e5"; echo "bestmove e2e4 ponder e7e5";;"#,
    );
    let mut e = start(&s.path);
    let r = go(&mut e, 200).unwrap();
    assert!(r.stopped);
    assert_eq!(r.infos.len(), 2);
    assert_eq!(r.final_lines()[0].bound, Bound::Upper);
    assert_eq!(r.bestmove, "e2e4");
    assert!(r.elapsed >= Duration::from_millis(200));
    e.quit();
}

#[test]
fn garbage_info_is_malformed() {
    let s = script(
        "garbage",
        r#"    go*) echo "info depth abc score cp 1 pv e2e4"; echo "bestmove e2e4";;"#,
    );
    let mut e = start(&s.path);
    let err = go(&mut e, 2000).unwrap_err();
    match &err {
        UciError::Malformed { line, reason } => {
            assert_eq!(line, "info depth abc score cp 1 pv e2e4");
            assert!(reason.contains("abc"), "{reason}");
        }
        other => panic!("{other:?}"),
    }
    assert!(
        err.to_string()
            .contains("info depth abc score cp 1 pv e2e4")
    );
    println!("{err}");
    e.kill();
}

#[test]
fn bestmove_without_move_is_malformed() {
    let s = script("nobest", r#"    go*) echo "bestmove";;"#);
    let mut e = start(&s.path);
    let err = go(&mut e, 2000).unwrap_err();
    assert!(matches!(err, UciError::Malformed { ref line, .. } if line == "bestmove"));
}

#[test]
fn well_behaved_fake() {
    let s = script(
        "good",
        r#"    setoption*) opts="$opts[$line]";;
    position*) pos="$line";;
    go*) echo "info string options $opts"; echo "info string $pos"; echo "info string $line"
         echo "some line UCI does not define"
         echo "info depth 1 seldepth 1 multipv 1 score cp 20 nodes 10 pv e2e4"
         echo "info depth 1 seldepth 1 multipv 2 score cp 10 nodes 10 pv d2d4"
         echo "info depth 2 currmove e2e4 currmovenumber 1"
         echo "info depth 2 seldepth 3 multipv 1 score cp 35 lowerbound nodes 30 pv e2e4"
         echo "info depth 2 seldepth 3 multipv 1 score cp 25 wdl 50 900 50 nodes 40 nps 4000 time 10 pv e2e4 e7e5"
         echo "info depth 2 seldepth 2 multipv 2 score mate -3 upperbound nodes 40 pv d2d4"
         echo "bestmove e2e4 ponder e7e5";;"#,
    );
    let mut cfg = config(&s.path);
    cfg.options = vec![
        ("Hash".into(), "32".into()),
        ("Clear Hash".into(), String::new()),
    ];
    let mut e = Engine::start(&cfg).unwrap();
    assert_eq!(e.id_name(), "Fake Engine 1.0");
    assert_eq!(e.id_author(), "Test");
    let names: Vec<_> = e.options().iter().map(|o| o.name.as_str()).collect();
    assert_eq!(names, ["Hash", "Clear Hash"]);
    e.new_game().unwrap();
    // Between searches (analyze switches UCI_Chess960 per game).
    e.set_option("MultiPV", "2").unwrap();
    let moves = ["e2e4".to_owned(), "e7e5".to_owned()];
    let r = e
        .search(
            Some("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
            &moves,
            Limit::Nodes(20000),
            Duration::from_secs(2),
        )
        .unwrap();
    assert_eq!(
        r.strings,
        [
            "options [setoption name Hash value 32][setoption name Clear Hash][setoption name MultiPV value 2]",
            "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 moves e2e4 e7e5",
            "go nodes 20000",
        ]
    );
    assert!(!r.stopped);
    assert_eq!(r.infos.len(), 5, "currmove and string lines dropped");
    assert_eq!(r.bestmove, "e2e4");
    assert_eq!(r.ponder.as_deref(), Some("e7e5"));
    let by_depth: Vec<_> = r
        .by_depth()
        .iter()
        .map(|i| (i.depth.unwrap(), i.rank(), i.score.unwrap(), i.bound))
        .collect();
    assert_eq!(
        by_depth,
        [
            (1, 1, Score::Cp(20), Bound::Exact),
            (1, 2, Score::Cp(10), Bound::Exact),
            (2, 1, Score::Cp(25), Bound::Exact),
            (2, 2, Score::Mate(-3), Bound::Upper),
        ]
    );
    let last = r.final_lines();
    assert_eq!(last.len(), 2);
    assert_eq!(last[0].pv, ["e2e4", "e7e5"]);
    assert_eq!(last[0].wdl, Some([50, 900, 50]));
    assert_eq!(last[1].multipv, Some(2));
    // startpos, no moves.
    let r = e
        .search(None, &[], Limit::MoveTime(100), Duration::from_secs(2))
        .unwrap();
    assert_eq!(r.strings[1], "position startpos");
    assert_eq!(r.strings[2], "go movetime 100");
    let t = Instant::now();
    e.quit();
    assert!(
        t.elapsed() < Duration::from_millis(500),
        "{:?}",
        t.elapsed()
    );
}

#[test]
fn no_legal_move() {
    let s = script(
        "mated",
        r#"    go*) echo "info depth 0 score mate 0"; echo "bestmove (none)";;"#,
    );
    let mut e = start(&s.path);
    let r = go(&mut e, 1000).unwrap();
    assert_eq!(r.bestmove, "(none)");
    assert_eq!(r.ponder, None);
    assert_eq!(r.final_lines()[0].score, Some(Score::Mate(0)));
    e.quit();
}

#[test]
fn quit_ignored_then_killed() {
    let s = script("stubborn", "    quit) ;;");
    let e = start(&s.path);
    let pid = e.pid();
    let t = Instant::now();
    e.quit();
    let took = t.elapsed();
    assert!(took >= Duration::from_millis(900), "{took:?}");
    assert!(took < Duration::from_millis(1800), "{took:?}");
    assert!(process_gone(pid));
}

#[test]
fn drop_kills_and_reaps() {
    let s = script("dropped", "    go*) ;;");
    let e = start(&s.path);
    let pid = e.pid();
    assert!(!process_gone(pid));
    drop(e);
    assert!(process_gone(pid), "process {pid} left behind");
}
