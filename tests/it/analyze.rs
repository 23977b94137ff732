//! `evallab analyze` end to end: Stockfish from the OS packages (SKIPPED when
//! absent, a failure under CI, which installs it) for determinism, resume and
//! the statistics; tiny misbehaving engines written here for the failure paths.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use evallab::dataset::Dataset;
use evallab::schema::{ANALYSIS, ANALYSIS_FAILURES, Table, col};
use polars::prelude::*;

const STOCKFISH: &str = "/usr/games/stockfish";

pub(crate) fn stockfish() -> Option<&'static str> {
    if Path::new(STOCKFISH).exists() {
        return Some(STOCKFISH);
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "CI=true but {STOCKFISH} is missing (.ci/run installs the stockfish package)"
    );
    eprintln!("SKIPPED: {STOCKFISH} not found (apt-get install stockfish)");
    None
}

pub(crate) fn evallab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_evallab"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap()
}

pub(crate) fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A fresh dataset of `data/fixtures/tcec.pgn`: game 1 has 7 plies (plies 1–2
/// book), game 2 has 4.
fn dataset(dir: &Path, name: &str) -> String {
    let ds = dir.join(name).display().to_string();
    let out = evallab(&["ingest", "data/fixtures/tcec.pgn", "-o", &ds, "--quiet"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    ds
}

/// A misbehaving engine: a shell script that answers the handshake and runs
/// `on_go` for every `go`.
fn engine(dir: &Path, name: &str, handshake: bool, on_go: &str) -> String {
    let path = dir.join(name);
    let uciok = if handshake { "echo uciok" } else { ":" };
    let script = format!(
        "#!/bin/sh\nwhile IFS= read -r line; do\n  case \"$line\" in\n    uci) echo 'id name {name}'; {uciok};;\n    isready) echo readyok;;\n    go*) {on_go};;\n    quit) exit 0;;\n  esac\ndone\n"
    );
    std::fs::write(&path, script).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path.display().to_string()
}

/// A table's rows under one label, sorted: the content, whatever the part layout.
fn sorted(ds: &str, t: &Table) -> DataFrame {
    let ds = Dataset::open(Path::new(ds)).unwrap();
    let mut by = vec![col::GAME_ID, col::PLY];
    if t.name == ANALYSIS.name {
        by.extend([col::DEPTH, col::MULTIPV, col::IS_FINAL]);
    }
    ds.scan(t)
        .unwrap()
        .sort(by, SortMultipleOptions::default())
        .collect()
        .unwrap()
}

/// Timings differ from run to run; everything else must not.
fn content(df: &DataFrame) -> DataFrame {
    df.drop_many([col::NPS, col::TIME_MS])
}

fn strs(df: &DataFrame, name: &str) -> Vec<String> {
    df.column(name)
        .unwrap()
        .str()
        .unwrap()
        .iter()
        .map(|v| v.unwrap_or_default().to_string())
        .collect()
}

fn plies(df: &DataFrame) -> Vec<u32> {
    df.column(col::PLY)
        .unwrap()
        .u32()
        .unwrap()
        .into_no_null_iter()
        .collect()
}

#[test]
fn analysis_is_identical_whatever_jobs_resumes_and_reruns_do_nothing() {
    let Some(sf) = stockfish() else { return };
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dataset(dir.path(), "a"), dataset(dir.path(), "b"));
    let run = |ds: &str, extra: &[&str]| {
        let mut args = vec![
            "analyze",
            ds,
            "--uci",
            sf,
            "--nodes",
            "3000",
            "--multipv",
            "2",
            "--label",
            "ref",
            "--quiet",
        ];
        args.extend(extra);
        let out = evallab(&args);
        assert!(out.status.success(), "{}", text(&out.stderr));
        out
    };
    run(&a, &["--jobs", "2"]);
    // b: one game first (a run that stopped after its first commit), then the rest.
    run(&b, &["--jobs", "1", "--max-games", "1"]);
    let first = sorted(&b, &ANALYSIS);
    assert_eq!(first.column(col::GAME_ID).unwrap().n_unique().unwrap(), 1);
    run(&b, &["--jobs", "1"]);
    let (ra, rb) = (sorted(&a, &ANALYSIS), sorted(&b, &ANALYSIS));
    assert!(
        content(&ra).equals_missing(&content(&rb)),
        "--jobs 2 in one run vs --jobs 1 resumed:\n{ra}\n{rb}"
    );
    // Every position of both games: 7 + 4 plies.
    let finals = ra
        .clone()
        .lazy()
        .filter(col(col::IS_FINAL))
        .group_by([col(col::GAME_ID), col(col::PLY)])
        .agg([len().alias("n")])
        .collect()
        .unwrap();
    assert_eq!(finals.height(), 11);
    assert_eq!(sorted(&a, &ANALYSIS_FAILURES).height(), 0);

    // An identical rerun does no work and says so.
    let manifest = std::fs::read(Path::new(&a).join("manifest.json")).unwrap();
    let out = evallab(&[
        "analyze",
        &a,
        "--uci",
        sf,
        "--nodes",
        "3000",
        "--multipv",
        "2",
        "--label",
        "ref",
    ]);
    assert!(out.status.success());
    assert!(
        text(&out.stderr).contains("nothing to do: all 2 selected games are already analysed"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(
        std::fs::read(Path::new(&a).join("manifest.json")).unwrap(),
        manifest
    );
    // The same label with other settings is refused.
    let out = evallab(&[
        "analyze",
        &a,
        "--uci",
        sf,
        "--nodes",
        "4000",
        "--multipv",
        "2",
        "--label",
        "ref",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("choose another --label"));

    // The statistics read it: one row per engine, every analysed position.
    let out = evallab(&["agreement", &a, "--by", "engine", "--format", "csv"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let csv = text(&out.stdout);
    crate::outputs::assert_declared("agreement", &crate::outputs::csv_header(&csv));
    let positions: u64 = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(1).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(positions, 11, "{csv}");
    // Move symbols from the reference: every engine move with an archived eval
    // whose position was analysed gets a reference swing, of the sign §2.5 says.
    let out = evallab(&["relevance", &a, "--analysis", "ref", "--format", "csv"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let summary = CsvReadOptions::default()
        .into_reader_with_file_handle(std::io::Cursor::new(out.stdout))
        .finish()
        .unwrap();
    crate::outputs::assert_frame_declared("relevance --analysis", &summary);
    let sum = |c: &str| {
        summary
            .column(c)
            .unwrap()
            .cast(&DataType::Int64)
            .unwrap()
            .i64()
            .unwrap()
            .sum()
            .unwrap()
    };
    let rel = ParquetReader::new(
        std::fs::File::open(Path::new(&a).join("derived/relevance_moves.parquet")).unwrap(),
    )
    .finish()
    .unwrap();
    let with_ref = rel.column("ref_swing_rr").unwrap().f64().unwrap().clone();
    assert_eq!(
        sum("ref_moves"),
        (with_ref.len() - with_ref.null_count()) as i64
    );
    assert!(
        sum("ref_moves") > 0 && sum("ref_moves") <= sum("moves"),
        "{summary}"
    );
    let out = evallab(&["inspect", &a]);
    assert!(
        text(&out.stdout).contains("ref"),
        "inspect names the analysis: {}",
        text(&out.stdout)
    );
}

#[test]
fn an_engine_without_uciok_fails_before_anything_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let ds = dataset(dir.path(), "ds");
    let e = engine(dir.path(), "mute", false, ":");
    let manifest = std::fs::read(Path::new(&ds).join("manifest.json")).unwrap();
    let started = std::time::Instant::now();
    let out = evallab(&["analyze", &ds, "--uci", &e, "--depth", "5"]);
    assert_eq!(out.status.code(), Some(8), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("mute") && text(&out.stderr).contains("uciok"),
        "{}",
        text(&out.stderr)
    );
    assert!(started.elapsed().as_secs() < 30);
    assert_eq!(
        std::fs::read(Path::new(&ds).join("manifest.json")).unwrap(),
        manifest
    );
    assert!(!Path::new(&ds).join("analysis").exists());
}

#[test]
fn a_hanging_engine_is_killed_and_its_positions_recorded() {
    let dir = tempfile::tempdir().unwrap();
    let ds = dataset(dir.path(), "ds");
    let e = engine(dir.path(), "hang", true, ":");
    // Game 1, plies 3..7: five positions.
    let out = evallab(&[
        "analyze",
        &ds,
        "--uci",
        &e,
        "--depth",
        "5",
        "--plies",
        "3..7",
        "--max-games",
        "1",
        "--timeout",
        "0.2",
        "--label",
        "hang",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let f = sorted(&ds, &ANALYSIS_FAILURES);
    assert_eq!(plies(&f), [3, 4, 5, 6, 7]);
    let reasons = strs(&f, col::REASON);
    for r in &reasons[..3] {
        assert!(r.contains("bestmove"), "{r}");
    }
    for r in &reasons[3..] {
        assert!(
            r.starts_with("not tried: 3 positions in a row failed"),
            "{r}"
        );
    }
    assert_eq!(
        strs(&f, col::FEN)[0],
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    );
    assert_eq!(sorted(&ds, &ANALYSIS).height(), 0);
    // Recorded failures count as done: a rerun does no work.
    let out = evallab(&[
        "analyze",
        &ds,
        "--uci",
        &e,
        "--depth",
        "5",
        "--plies",
        "3..7",
        "--max-games",
        "1",
        "--timeout",
        "0.2",
        "--label",
        "hang",
    ]);
    assert!(
        text(&out.stderr).contains("nothing to do"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn garbage_output_is_a_failure_that_names_the_line() {
    let dir = tempfile::tempdir().unwrap();
    let ds = dataset(dir.path(), "ds");
    let e = engine(
        dir.path(),
        "garbage",
        true,
        "echo 'info depth abc score cp 1 pv e2e4'; echo 'bestmove e2e4'",
    );
    let out = evallab(&[
        "analyze",
        &ds,
        "--uci",
        &e,
        "--depth",
        "5",
        "--plies",
        "3..4",
        "--max-games",
        "1",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let f = sorted(&ds, &ANALYSIS_FAILURES);
    assert_eq!(plies(&f), [3, 4]);
    for r in strs(&f, col::REASON) {
        assert!(r.contains("info depth abc score cp 1 pv e2e4"), "{r}");
    }
    // An illegal move in a well-formed line is garbage too.
    let e = engine(
        dir.path(),
        "illegal",
        true,
        "echo 'info depth 1 score cp 1 pv e7e5'; echo 'bestmove e7e5'",
    );
    let out = evallab(&[
        "analyze",
        &ds,
        "--uci",
        &e,
        "--depth",
        "5",
        "--plies",
        "3..3",
        "--max-games",
        "1",
        "--label",
        "illegal",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let f = sorted(&ds, &ANALYSIS_FAILURES);
    let r = strs(&f, col::REASON);
    assert!(
        r.iter().any(|r| r.contains("`e7e5` is not a legal move")),
        "{r:?}"
    );
}

#[test]
fn a_crash_at_the_third_search_is_retried_and_only_that_position_fails() {
    let Some(sf) = stockfish() else { return };
    let dir = tempfile::tempdir().unwrap();
    let ds = dataset(dir.path(), "ds");
    // Forwards everything to Stockfish and dies at its third `go`.
    let path: PathBuf = dir.path().join("crash3");
    std::fs::write(
        &path,
        format!(
            "#!/bin/sh\nn=0\nwhile IFS= read -r line; do\n  case \"$line\" in go*) n=$((n+1)); [ $n -ge 3 ] && exit 3;; esac\n  printf '%s\\n' \"$line\"\ndone | {sf}\n"
        ),
    )
    .unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    let e = path.display().to_string();
    let out = evallab(&[
        "analyze",
        &ds,
        "--uci",
        &e,
        "--nodes",
        "2000",
        "--plies",
        "3..7",
        "--max-games",
        "1",
        "--timeout",
        "10",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    // First try: crash at ply 5. Retry: 3, 4 fine, 5 crashes (recorded),
    // restart, 6 and 7 fine.
    let f = sorted(&ds, &ANALYSIS_FAILURES);
    assert_eq!(plies(&f), [5]);
    assert!(strs(&f, col::REASON)[0].contains("exit"), "{f}");
    let a = sorted(&ds, &ANALYSIS);
    let mut got = plies(&a);
    got.dedup();
    assert_eq!(got, [3, 4, 6, 7]);
    let stderr = text(&out.stderr);
    assert!(stderr.contains("1 failures, 2 restarts"), "{stderr}");
}

/// A distributed analysis: two slices of the games written as shards (no
/// lock, side by side) and committed give the rows of one run; committing
/// again adds nothing, and a slice already committed writes no shard.
#[test]
fn sharded_analysis_equals_one_run_and_commits_once() {
    let Some(sf) = stockfish() else { return };
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dataset(dir.path(), "a"), dataset(dir.path(), "b"));
    let run = |ds: &str, extra: &[&str]| {
        let mut args = vec![
            "analyze", ds, "--uci", sf, "--nodes", "3000", "--label", "ref", "--quiet",
        ];
        args.extend(extra);
        let out = evallab(&args);
        assert!(out.status.success(), "{}", text(&out.stderr));
    };
    run(&a, &[]);
    run(&b, &["--slice", "1/2", "--shard", "s1"]);
    run(&b, &["--slice", "2/2", "--shard", "s2"]);
    // Not visible before the commit.
    assert!(
        Dataset::open(Path::new(&b))
            .unwrap()
            .manifest()
            .analyses
            .is_empty()
    );
    let out = evallab(&["commit", &b]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    for t in [&ANALYSIS, &ANALYSIS_FAILURES] {
        assert!(content(&sorted(&a, t)).equals_missing(&content(&sorted(&b, t))));
    }
    let m = Dataset::open(Path::new(&b)).unwrap().manifest().clone();
    let chunks: Vec<_> = m.analyses[0].chunks.iter().map(|c| c.games).collect();
    assert_eq!(chunks, [1, 1], "one game per slice");
    let before = std::fs::read(Path::new(&b).join("manifest.json")).unwrap();
    let out = evallab(&["commit", &b, "--shard", "s1"]);
    assert!(
        text(&out.stderr).contains("already"),
        "{}",
        text(&out.stderr)
    );
    run(&b, &["--slice", "1/2", "--shard", "s1"]);
    assert!(!Path::new(&b).join("shards/s1").exists());
    assert_eq!(
        std::fs::read(Path::new(&b).join("manifest.json")).unwrap(),
        before
    );
}

/// Two events: event Two's games open as event One's do, then leave them.
/// One: 1.1 `e4 e5 Nf3 Nc6 Bb5 a6`, 1.2 `d4 d5 c4 e6`. Two: 2.1 `e4 e5 Nf3
/// Nf6 Nxe5 d6` (plies 1–4 as 1.1's), 2.2 `d4 d5 c4 e6 Nc3 Nf6` (1–4 as
/// 1.2's), 2.3 `d4 Nf6 c4 e6` (1–2 as 1.2's), 2.4 `e4 e5 Nf3` (all as 1.1's).
const PAIRED: &str = r#"[Event "One"]
[Round "1.1"]
[Result "*"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 *

[Event "One"]
[Round "1.2"]
[Result "*"]

1. d4 d5 2. c4 e6 *

[Event "Two"]
[Round "2.1"]
[Result "*"]

1. e4 e5 2. Nf3 Nf6 3. Nxe5 d6 *

[Event "Two"]
[Round "2.2"]
[Result "*"]

1. d4 d5 2. c4 e6 3. Nc3 Nf6 *

[Event "Two"]
[Round "2.3"]
[Result "*"]

1. d4 Nf6 2. c4 e6 *

[Event "Two"]
[Round "2.4"]
[Result "*"]

1. e4 e5 2. Nf3 *
"#;

#[test]
fn reuse_copies_the_rows_of_positions_analysed_under_the_same_settings() {
    let Some(sf) = stockfish() else { return };
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("paired.pgn");
    std::fs::write(&pgn, PAIRED).unwrap();
    let ds = dir.path().join("ds").display().to_string();
    let out = evallab(&["ingest", &pgn.display().to_string(), "-o", &ds, "--quiet"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let run = |event: &str, nodes: &str, label: &str, reuse: bool| {
        let mut args = vec![
            "analyze",
            &ds,
            "--uci",
            sf,
            "--nodes",
            nodes,
            "--multipv",
            "2",
            "--plies",
            "1..6",
            "--event",
            event,
            "--label",
            label,
        ];
        if reuse {
            args.push("--reuse");
        }
        let out = evallab(&args);
        assert!(out.status.success(), "{}", text(&out.stderr));
        text(&out.stderr)
    };
    run("^One$", "3000", "ref", false);
    let said = run("^Two$", "3000", "ref", true);
    // 4 + 4 + 2 + 3 positions copied; 2.4 needs no engine, the others 2 each.
    assert!(
        said.contains("reused 13 positions from earlier runs with the same settings"),
        "{said}"
    );
    assert!(
        said.contains("analysed 3 games (0 already done), 6 positions"),
        "{said}"
    );

    let round_of: std::collections::HashMap<i64, String> = {
        let d = Dataset::open(Path::new(&ds)).unwrap();
        let g = d.scan(&evallab::schema::GAMES).unwrap().collect().unwrap();
        let ids = g.column(col::GAME_ID).unwrap().i64().unwrap().clone();
        ids.into_no_null_iter().zip(strs(&g, col::ROUND)).collect()
    };
    let all = sorted(&ds, &ANALYSIS);
    let rows = |round: &str, ply: u32| {
        let id = round_of.iter().find(|(_, r)| *r == round).unwrap().0;
        let m = all.column(col::GAME_ID).unwrap().i64().unwrap().equal(*id)
            & all.column(col::PLY).unwrap().u32().unwrap().equal(ply);
        let df = all.filter(&m).unwrap();
        assert!(df.height() > 0, "no rows at {round} ply {ply}");
        df.drop_many([col::GAME_ID, col::PLY, col::LABEL])
    };
    // Copied rows are the source's, timings included: nothing was searched.
    // The start position (before ply 1) is in 1.1 and 1.2: one is its source.
    let start = [rows("1.1", 1), rows("1.2", 1)];
    for target in ["2.1", "2.2", "2.3", "2.4"] {
        assert!(start.contains(&rows(target, 1)), "{target} ply 1");
    }
    let copies = [
        ("2.1", "1.1", 2..=4),
        ("2.2", "1.2", 2..=4),
        ("2.3", "1.2", 2..=2),
        ("2.4", "1.1", 2..=3),
    ];
    for (target, source, plies) in copies {
        for p in plies {
            assert_eq!(rows(target, p), rows(source, p), "{target} ply {p}");
        }
    }
    let d = Dataset::open(Path::new(&ds)).unwrap();
    let chunks = &d.manifest().analysis("ref").unwrap().chunks;
    let reused: Vec<(u64, u64, u64)> = chunks
        .iter()
        .map(|c| (c.games, c.positions, c.reused))
        .collect();
    // Event One; 2.4 on its own; then the searched games with their copies.
    assert_eq!(reused[..2], [(2, 10, 0), (1, 3, 3)]);
    assert_eq!(reused[2..].iter().map(|c| c.2).sum::<u64>(), 10);
    assert_eq!(reused.iter().map(|c| c.1).sum::<u64>(), 10 + 19);

    // Other settings: nothing to reuse, every position searched.
    let said = run("^Two$", "3001", "other", true);
    assert!(!said.contains("reused"), "{said}");
    assert!(
        said.contains("analysed 4 games (0 already done), 19 positions"),
        "{said}"
    );
}

#[test]
fn reuse_refuses_a_shard() {
    let dir = tempfile::tempdir().unwrap();
    let ds = dataset(dir.path(), "a");
    let out = evallab(&[
        "analyze",
        &ds,
        "--uci",
        "/bin/false",
        "--nodes",
        "1",
        "--reuse",
        "--shard",
        "s1",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("--reuse"),
        "{}",
        text(&out.stderr)
    );
}
