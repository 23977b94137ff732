//! The binary end to end: exit codes, stdin, errors that name the file, and
//! pipelines (checked before running, unchanged steps skipped).

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

fn evallab(args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_evallab"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    input.write_all(stdin.unwrap_or_default()).unwrap();
    drop(input);
    child.wait_with_output().unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn stdin_strict_and_errors() {
    let dir = tempfile::tempdir().unwrap();
    let ds = dir.path().join("ds").display().to_string();
    let pgn =
        std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("data/fixtures/malformed.pgn"))
            .unwrap();
    // Rejected games are written, then --strict turns them into exit code 3.
    let out = evallab(&["ingest", "-", "-o", &ds, "--strict"], Some(&pgn));
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("1 games, 5 rejects"),
        "{}",
        text(&out.stderr)
    );
    let out = evallab(&["inspect", &ds], None);
    assert!(text(&out.stdout).contains("illegal move 3...Nf3"));
    // A missing input: exit 1 and its path.
    let out = evallab(&["ingest", "no/such.pgn", "-o", &ds], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("no/such.pgn"),
        "{}",
        text(&out.stderr)
    );
    // Usage errors are clap's: exit 2.
    let out = evallab(&["balance"], None);
    assert_eq!(out.status.code(), Some(2));
    let out = evallab(&["schema", "moves"], None);
    assert!(text(&out.stdout).contains("eval_cp") && out.status.success());
}

#[test]
fn pipeline_runs_then_skips_and_rejects_bad_specs() {
    let dir = tempfile::tempdir().unwrap();
    let ds = dir.path().join("ds").display().to_string();
    let spec = dir.path().join("p.toml");
    std::fs::write(
        &spec,
        r#"
[vars]
input = "data/fixtures/tcec.pgn"
dataset = "unused"

[[steps]]
run = "ingest"
inputs = ["{input}"]

[[steps]]
run = "calibrate"
format = "csv"
output = "{dataset}/out/calibrate.csv"
toml = "{dataset}/out/x05.toml"

[[steps]]
run = "relevance"
x05_from = "{dataset}/out/x05.toml"
format = "csv"
output = "{dataset}/out/relevance.csv"

[[steps]]
run = "report"
output = "{dataset}/out/report"
"#,
    )
    .unwrap();
    let spec = spec.display().to_string();
    let set = format!("dataset={ds}");
    let first = evallab(&["run", &spec, "--set", &set], None);
    assert!(first.status.success(), "{}", text(&first.stderr));
    assert!(Path::new(&ds).join("out/relevance.csv").exists());
    let html = std::fs::read_to_string(Path::new(&ds).join("out/report/index.html")).unwrap();
    assert!(html.contains("<h3>Win-draw balance</h3>") && html.contains("<svg"));
    // Self-contained: no scripts, no external resources (the SVG namespace URI
    // is a name, not a fetch).
    assert!(html.contains("Engine A 1.0"));
    assert!(!html.contains("<script") && !html.contains("src=") && !html.contains("href=\"http"));
    let second = evallab(&["run", &spec, "--set", &set], None);
    assert_eq!(
        text(&second.stderr)
            .matches("skipped (inputs and parameters unchanged)")
            .count(),
        4
    );
    let forced = evallab(&["run", &spec, "--set", &set, "--force"], None);
    assert!(!text(&forced.stderr).contains("unchanged"));
    // Nothing runs when a step is wrong; the error names file, step and option.
    let bad = dir.path().join("bad.toml");
    std::fs::write(
        &bad,
        "[vars]\ndataset = \"x\"\n[[steps]]\nrun = \"balance\"\nby = \"nope\"\n",
    )
    .unwrap();
    let out = evallab(&["run", &bad.display().to_string()], None);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.contains("bad.toml: steps[0] (balance)") && err.contains("'nope'"),
        "{err}"
    );
    assert!(!Path::new(env!("CARGO_MANIFEST_DIR")).join("x").exists());
}

/// Every output format of a statistics command, read back.
#[test]
fn output_formats() {
    let dir = tempfile::tempdir().unwrap();
    let ds = dir.path().join("ds").display().to_string();
    assert!(
        evallab(&["ingest", "data/fixtures/tcec.pgn", "-o", &ds], None)
            .status
            .success()
    );
    let json = evallab(
        &["balance", &ds, "--by", "engine", "--format", "json"],
        None,
    );
    let rows: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let rows = rows.as_array().unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0]["engine"], "Engine A 1.0");
    assert_eq!(rows[0]["official_wins"], 1);
    let nd = evallab(
        &["balance", &ds, "--by", "engine", "--format", "ndjson"],
        None,
    );
    assert_eq!(text(&nd.stdout).lines().count(), 2);
    let csv = evallab(&["balance", &ds, "--by", "engine", "--format", "csv"], None);
    assert!(text(&csv.stdout).starts_with("engine,games,official_wins"));
    let pq = dir.path().join("b.parquet").display().to_string();
    let out = evallab(&["balance", &ds, "--format", "parquet", "-o", &pq], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let n = polars::prelude::LazyFrame::scan_parquet(pq.as_str().into(), Default::default())
        .unwrap()
        .collect()
        .unwrap()
        .height();
    assert_eq!(n, 2);
    // Parquet needs a file.
    let out = evallab(&["balance", &ds, "--format", "parquet"], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("needs -o FILE"));
}
