//! Snapshot tests: the stdout of every subcommand and each section of the
//! report on the fixture dataset, compared with `tests/it/snapshots/<name>.txt`. After an intended change,
//! review the diff and rewrite them with `EVALLAB_BLESS=1 cargo test --release`.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The fixture dataset, ingested once per test binary.
fn dataset() -> &'static Path {
    static DS: OnceLock<PathBuf> = OnceLock::new();
    DS.get_or_init(|| {
        let ds = crate::binary_tempdir().join("ds");
        let out = run(&[
            "ingest",
            "data/fixtures",
            "-o",
            ds.to_str().unwrap(),
            "--quiet",
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        ds
    })
}

fn run(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_evallab"))
        .args(args)
        .current_dir(root())
        .output()
        .unwrap()
}

fn check(name: &str, args: &[&str]) {
    let ds = dataset().to_str().unwrap();
    let args: Vec<&str> = args
        .iter()
        .map(|a| if *a == "DS" { ds } else { a })
        .collect();
    let out = run(&args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    check_text(name, &String::from_utf8(out.stdout).unwrap());
}

fn check_text(name: &str, actual: &str) {
    let path = root()
        .join("tests/it/snapshots")
        .join(format!("{name}.txt"));
    if std::env::var_os("EVALLAB_BLESS").is_some() {
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|_| panic!("no snapshot {}; run with EVALLAB_BLESS=1", path.display()));
    assert!(
        expected == actual,
        "{name} differs from {}; review, then EVALLAB_BLESS=1 cargo test --release\n--- expected\n{expected}\n--- actual\n{actual}",
        path.display()
    );
}

#[test]
fn schema() {
    check("schema", &["schema"]);
}

#[test]
fn inspect() {
    check("inspect", &["inspect", "DS"]);
}

#[test]
fn balance() {
    check("balance", &["balance", "DS", "--by", "engine"]);
    check("balance_csv", &["balance", "DS", "--format", "csv"]);
}

#[test]
fn standings() {
    check("standings", &["standings", "DS", "--format", "csv"]);
    check(
        "standings_terminations",
        &["standings", "DS", "--terminations", "--by", "engine"],
    );
    check("crosstable", &["crosstable", "DS", "--format", "csv"]);
    check(
        "crosstable_wide",
        &["crosstable", "DS", "--wide", "--format", "csv"],
    );
    check("opening_stats", &["opening-stats", "DS", "--format", "csv"]);
}

#[test]
fn calibrate() {
    check(
        "calibrate",
        &["calibrate", "DS", "--by", "engine", "--bootstrap", "50"],
    );
}

#[test]
fn relevance() {
    let dir = tempfile::tempdir().unwrap();
    let moves = dir.path().join("m.parquet");
    check(
        "relevance",
        &["relevance", "DS", "--moves-out", moves.to_str().unwrap()],
    );
}

#[test]
fn eas() {
    check("eas", &["eas", "DS", "--format", "csv"]);
}

#[test]
fn adjudicate() {
    check(
        "adjudicate",
        &[
            "adjudicate",
            "DS",
            "--rules",
            "cutechess",
            "--by",
            "event",
            "--format",
            "csv",
        ],
    );
    check(
        "adjudicate_sweep",
        &[
            "adjudicate",
            "DS",
            "--rules",
            "cutechess",
            "--sweep",
            "draw.score=0..20:10",
            "--format",
            "csv",
        ],
    );
    // An event no TCEC era matches keeps its row, its best its own.
    check(
        "adjudicate_derive",
        &[
            "adjudicate",
            "DS",
            "--rules",
            "tcec",
            "--check-clocks",
            "--sweep",
            "tcec.draw.score=5..10:5",
            "--format",
            "csv",
        ],
    );
}

#[test]
fn pairs() {
    check("pairs", &["pairs", "DS", "--format", "csv"]);
    check(
        "pairs_unpaired",
        &["pairs", "DS", "--unpaired", "--format", "csv"],
    );
}

#[test]
fn engine_stats() {
    check("engine_stats", &["engine-stats", "DS", "--format", "csv"]);
    check(
        "engine_stats_time_usage",
        &["engine-stats", "DS", "--time-usage", "--format", "csv"],
    );
}

#[test]
fn calc() {
    check("calc_limits", &["calc", "--limits"]);
    check("calc_eval", &["calc", "--eval", "1.5"]);
}

/// The report's progress: one call before each step, counted from 0, the
/// total the same in every call and reached by the last (the page), every
/// event named once.
#[test]
fn report_progress_counts_every_step() {
    use evallab::dataset::Dataset;
    use evallab::metrics::ratings::fit::Solver;
    use evallab::metrics::x05::X05;
    use evallab::render::report::{ReportOptions, collect};
    let ds = Dataset::open(dataset()).unwrap();
    let (labels, _) = evallab::metrics::eas::stored_labels(&ds, false).unwrap();
    let calls = std::cell::RefCell::new(Vec::new());
    let record = |done: usize, total: usize, what: &str| {
        calls.borrow_mut().push((done, total, what.to_string()));
    };
    let opts = ReportOptions {
        event: None,
        games_per_event: 1,
        x05: X05::fixed(0.62),
        families: Default::default(),
        rating_model: None,
        solver: Solver::Newton,
        wdl_split: None,
        book: None,
    };
    let data = collect(&ds, &labels, &opts, &record).unwrap();
    let calls = calls.into_inner();
    let total = calls[0].1;
    for (i, (done, t, _)) in calls.iter().enumerate() {
        assert_eq!((*done, *t), (i, total), "{calls:?}");
    }
    assert_eq!(calls.last().unwrap().2, "the page");
    let n = data.events.len();
    assert!(n >= 2, "{n} events");
    for (i, e) in data.events.iter().enumerate() {
        let named = format!("event {} of {n}: {}", i + 1, e.name);
        assert_eq!(calls.iter().filter(|c| c.2 == named).count(), 1, "{named}");
    }
}

/// Each section of the HTML report of one event, a snapshot per section (the
/// dataset's temp path replaced by `DS`).
#[test]
fn report_sections() {
    let ds = dataset().to_str().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("report");
    let out = run(&[
        "report",
        ds,
        "-o",
        out_dir.to_str().unwrap(),
        "--event",
        "^Fixture TCEC$",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let html = std::fs::read_to_string(out_dir.join("index.html"))
        .unwrap()
        .replace(ds, "DS");
    let sections: Vec<&str> = html.split("<h3>").skip(1).collect();
    let titles: Vec<&str> = sections
        .iter()
        .map(|s| s.split("</h3>").next().unwrap())
        .collect();
    assert_eq!(
        titles,
        [
            "Standings",
            "Crosstable",
            "Ratings",
            "Game pairs (pentanomial)",
            "Openings",
            "Win-draw balance",
            "Calibration: win rate by own eval",
            "x05 three ways",
            "EAS components",
            "Relevance",
            "Adjudication rules replayed",
            "Selected games"
        ]
    );
    for (i, (title, body)) in titles.iter().zip(&sections).enumerate() {
        let slug: String = title
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() {
                    c.to_ascii_lowercase()
                } else {
                    '_'
                }
            })
            .collect();
        check_text(&format!("report_{i}_{slug}"), body);
    }
}
