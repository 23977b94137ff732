//! `evallab match` end to end on hand-picked positions
//! (`data/positions/matching.pgn`) with Stockfish from the OS packages
//! (SKIPPED when absent, a failure under CI): the outcome of each, the line
//! format of every log and results line, the results file's order against
//! the real `sort -r -t= -k2`, and resuming.

use std::path::Path;
use std::process::{Command, Stdio};

use regex::Regex;

use crate::analyze::{evallab, stockfish, text};

/// An outcome line: `{Name} {bits} {TYPE} MATCH ({no}.{move}), delta = {v}`,
/// `delta` for FULL/MAIN and `delta2` for PART/NON, two decimals, no `+`.
fn line_format() -> Regex {
    Regex::new(
        r"^(?P<name>[^ =]+) (?P<bits>[01]+) (?P<type>FULL|MAIN|PART|NON) MATCH \((?P<no>[0-9]+)(\.|\.\.\.)(?P<mv>[^ =()]+)\), (?P<vn>delta2?) = (?P<v>-?[0-9]+\.[0-9]{2}|NaN)$",
    )
    .unwrap()
}

/// The real `sort -r -t= -k2` (C locale) applied to `lines`.
fn real_sort(lines: &[&str]) -> Vec<String> {
    use std::io::Write;
    let mut child = Command::new("sort")
        .args(["-r", "-t=", "-k2"])
        .env("LC_ALL", "C")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("sort(1) runs");
    let mut input = lines.join("\n");
    input.push('\n');
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    text(&out.stdout).lines().map(str::to_string).collect()
}

/// The MATCH lines of a results file (before the blank line of the totals).
fn match_lines(results: &str) -> Vec<&str> {
    results
        .lines()
        .skip(2)
        .take_while(|l| !l.is_empty())
        .collect()
}

#[test]
fn hand_picked_positions_give_the_protocol_outcomes() {
    let Some(sf) = stockfish() else { return };
    let dir = tempfile::tempdir().unwrap();
    let ds = dir.path().join("ds").display().to_string();
    let out_dir = dir.path().join("out");
    let out = evallab(&[
        "ingest",
        "data/positions/matching.pgn",
        "-o",
        &ds,
        "--quiet",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let args = [
        "match",
        &ds,
        "--player",
        "^Tester$",
        "--uci",
        sf,
        "--mlm-depth",
        "6",
        "--slm-depths",
        "6..10",
        "--final-depth",
        "10",
        "--multipv",
        "3",
        "--format",
        "csv",
        "-o",
        out_dir.to_str().unwrap(),
    ];
    let out = evallab(&args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    crate::outputs::assert_declared("match", &crate::outputs::csv_header(&text(&out.stdout)));
    // The report shows the stored run, MM with its interval beside it.
    let html_dir = dir.path().join("report");
    let rep = evallab(&["report", &ds, "-o", html_dir.to_str().unwrap()]);
    assert!(rep.status.success(), "{}", text(&rep.stderr));
    let html = std::fs::read_to_string(html_dir.join("index.html")).unwrap();
    assert!(
        html.contains("<h3>Move matching") && html.contains(">Move match low (95 %)</th>"),
        "no move-matching interval in the report"
    );
    let results = std::fs::read_to_string(out_dir.join("results_Tester.txt")).unwrap();
    let re = line_format();
    let lines = match_lines(&results);
    assert_eq!(lines.len(), 8, "{results}");
    let find = |mv: &str| -> regex::Captures<'_> {
        let l = lines
            .iter()
            .find(|l| l.contains(&format!("({mv})")))
            .unwrap_or_else(|| panic!("no line for {mv} in\n{results}"));
        re.captures(l).unwrap_or_else(|| panic!("bad format: {l}"))
    };
    // Mate in one, the only mating move: FULL, the first choice at every depth.
    let c = find("1.Ra8#");
    assert_eq!(
        (&c["bits"], &c["type"], &c["vn"]),
        ("11111", "FULL", "delta")
    );
    assert!(c["v"].parse::<f64>().unwrap() > 0.0);
    // A king move next to the mate: never picked, worse than the top move.
    let c = find("1.Kf1");
    assert_eq!(
        (&c["bits"], &c["type"], &c["vn"]),
        ("00000", "NON", "delta2")
    );
    assert!(c["v"].parse::<f64>().unwrap() < 0.0);
    // Every move is mated (Kh7 later, b4 at once), and the only legal move.
    let kh7: Vec<&&str> = lines.iter().filter(|l| l.contains("(1...Kh7)")).collect();
    assert_eq!(kh7.len(), 2);
    for l in kh7 {
        let c = re.captures(l).unwrap();
        assert!(matches!(&c["type"], "FULL" | "MAIN"), "{l}");
        assert_eq!(&c["v"], "9.99", "{l}");
    }
    // 3.Nf3 repeats the position after 1.Nf3.
    assert_eq!(&find("3.Nf3")["v"], "NaN");
    assert_ne!(&find("1.Nf3")["v"], "NaN");
    // A promotion's `=` is dropped from the move.
    assert_eq!(&find("1.e8Q")["type"], "FULL");
    // Every outcome line of every log and results file has the format:
    // one `=`, no `+` before the value.
    let mut logs: Vec<_> = std::fs::read_dir(out_dir.join("logs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    logs.sort();
    assert_eq!(logs.len(), 6);
    let mut seen = 0;
    for f in logs.iter().chain([&out_dir.join("results_Tester.txt")]) {
        for l in std::fs::read_to_string(f).unwrap().lines() {
            if l.contains(" MATCH (") {
                assert!(re.is_match(l), "{}: {l}", f.display());
                assert_eq!(l.matches('=').count(), 1, "{l}");
                assert!(!l.contains("= +"), "{l}");
                seen += 1;
            }
        }
    }
    assert_eq!(seen, 16, "8 in the logs, 8 in the results file");
    // The header names the engine and states our reading of the bits.
    let log = std::fs::read_to_string(&logs[0]).unwrap();
    assert!(log.contains("Engine: Stockfish"), "{log}");
    assert!(log.contains("Depths: MLM 6, SLM 6..10, final MLM 10"));
    assert!(log.contains("our reading"));
    // The results file's order is the real sort's.
    assert_eq!(real_sort(&lines), lines);
    // The statistics: 8 moves; MM = 4 FULL of 8.
    let csv = text(&out.stdout);
    let row = csv.lines().nth(1).unwrap();
    assert!(row.starts_with("Tester,8,0.5,"), "{csv}");
    // A rerun does no engine work and writes the same results file.
    let again = evallab(&args);
    assert!(again.status.success());
    assert!(text(&again.stderr).contains("matched 0 moves in 0 games (6 of 6"));
    assert_eq!(
        std::fs::read_to_string(out_dir.join("results_Tester.txt")).unwrap(),
        results
    );
}

#[test]
fn results_order_equals_the_real_sort_on_awkward_values() {
    use evallab::metrics::matching::format::{outcome_line, sort_like_sort_r};
    use evallab::metrics::matching::math::MatchType;
    // Every kind of value the files hold: NaN, 9.99, two-digit deltas,
    // negatives, zeros, equal keys with different lines.
    let values = [
        f64::NAN,
        9.99,
        10.0,
        12.34,
        0.0,
        -0.0,
        0.3,
        -0.3,
        -1.2,
        -0.05,
        -10.5,
        1.0,
        0.3,
        -19.98,
    ];
    let mut lines = Vec::new();
    for (i, v) in values.iter().enumerate() {
        for (j, k) in MatchType::ALL.iter().enumerate() {
            let mv = format!("{}.{}", i + j + 1, ["e4", "Nf3", "O-O", "Qxh7+"][j]);
            lines.push(outcome_line("Stockfish 8", "0110", *k, &mv, *v));
        }
    }
    let mut ours = lines.clone();
    sort_like_sort_r(&mut ours);
    let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
    assert_eq!(real_sort(&refs), ours);
}

#[test]
fn bad_protocol_settings_are_usage_errors_before_any_work() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("out");
    let o = out_dir.to_str().unwrap();
    let base = [
        "match",
        "data/fixtures",
        "--player",
        ".",
        "--uci",
        "/bin/false",
        "-o",
        o,
    ];
    for extra in [
        &["--multipv", "1"][..],
        &["--slm-depths", "9..3"][..],
        &["--moves", "0..4"][..],
    ] {
        let mut args = base.to_vec();
        args.extend(extra);
        let out = evallab(&args);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{extra:?}: {}",
            text(&out.stderr)
        );
    }
    assert!(!out_dir.exists());
}

#[test]
fn a_resumed_run_equals_one_run_whatever_jobs() {
    let Some(sf) = stockfish() else { return };
    let dir = tempfile::tempdir().unwrap();
    let run = |name: &str, extra: &[&str]| -> String {
        let ds = dir.path().join(name).display().to_string();
        if !Path::new(&ds).exists() {
            let out = evallab(&[
                "ingest",
                "data/positions/matching.pgn",
                "-o",
                &ds,
                "--quiet",
            ]);
            assert!(out.status.success(), "{}", text(&out.stderr));
        }
        let o = dir.path().join(format!("{name}-out"));
        let mut args = vec![
            "match",
            &ds,
            "--player",
            "Tester",
            "--uci",
            sf,
            "--mlm-depth",
            "5",
            "--slm-depths",
            "4..7",
            "--multipv",
            "3",
            "--quiet",
            "-o",
        ];
        let o = o.display().to_string();
        args.push(&o);
        args.extend(extra);
        let out = evallab(&args);
        assert!(out.status.success(), "{}", text(&out.stderr));
        if extra.contains(&"--shard") {
            // A shard's rows wait for `evallab commit`; no output folder.
            assert!(!Path::new(&o).exists());
            return ds;
        }
        std::fs::read_to_string(Path::new(&o).join("results_Tester.txt")).unwrap()
    };
    let whole = run("a", &["--jobs", "2"]);
    // b: stopped after two games (as a killed run that committed them), then resumed.
    run("b", &["--max-games", "2"]);
    assert_eq!(run("b", &[]), whole);
    // c: two slices written as shards side by side, committed, then the
    // output folder written from the committed rows (no search left).
    run("c", &["--slice", "1/2", "--shard", "s1"]);
    let ds = run("c", &["--slice", "2/2", "--shard", "s2"]);
    let out = evallab(&["commit", &ds]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(run("c", &[]), whole);
    let m = evallab::dataset::Dataset::open(Path::new(&ds))
        .unwrap()
        .manifest()
        .clone();
    let shards: Vec<_> = m.analyses[0]
        .chunks
        .iter()
        .map(|c| c.shard.clone().unwrap().name)
        .collect();
    assert_eq!(
        (m.analyses[0].stage.as_str(), shards),
        ("match", vec!["s1".to_string(), "s2".into()])
    );
}
