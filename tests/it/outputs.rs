//! Every command's output columns agree with their declaration in
//! `evallab::schema::outputs`, from which the book's `docs/reference/outputs.md` and the
//! HTML report's headers come: each column a command writes is declared, and
//! each declared column is written by one of the runs below (or, for the
//! engine commands, by the engine test that calls [`assert_written`]).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use evallab::schema::outputs::{OUTPUTS, Output, matches};

fn declared(name: &str) -> &'static Output {
    OUTPUTS
        .iter()
        .copied()
        .find(|o| o.name == name)
        .unwrap_or_else(|| panic!("no output `{name}` in evallab::schema::outputs::OUTPUTS"))
}

/// The declared columns of `output` that `header` writes; panics on a
/// written column that is not declared.
fn covered(output: &Output, header: &[String], what: &str) -> BTreeSet<&'static str> {
    let mut seen = BTreeSet::new();
    for col in header {
        let Some(q) = output.get(col) else {
            panic!(
                "{what} writes `{col}`, which `{}` does not declare (src/schema/outputs/)",
                output.name
            )
        };
        assert!(
            !q.report_only,
            "{what} writes `{col}`, declared as built by the report"
        );
        seen.insert(q.name);
    }
    seen
}

/// The declared columns no run wrote (the report's own columns aside).
fn missing(output: &Output, seen: &BTreeSet<&str>) -> Vec<&'static str> {
    output
        .columns
        .iter()
        .filter(|q| !q.report_only && !seen.contains(q.name))
        .map(|q| q.name)
        .collect()
}

/// For the engine tests: every column `header` (one run of output `name`)
/// writes is declared. (Which of the declared columns those runs cover is
/// not checked: they run with an engine, in their own tests.)
pub(crate) fn assert_declared(name: &str, header: &[String]) {
    covered(declared(name), header, name);
}

/// [`assert_declared`] for a table read into a frame.
pub(crate) fn assert_frame_declared(name: &str, df: &polars::prelude::DataFrame) {
    let header: Vec<String> = df
        .get_column_names()
        .iter()
        .map(|c| c.to_string())
        .collect();
    assert_declared(name, &header);
}

/// The column names of a CSV's first line (a name with a comma comes quoted).
pub(crate) fn csv_header(csv: &str) -> Vec<String> {
    let line = csv.lines().next().unwrap_or_default();
    let mut cols = vec![String::new()];
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' if quoted && chars.peek() == Some(&'"') => {
                chars.next();
                cols.last_mut().unwrap().push('"');
            }
            '"' => quoted = !quoted,
            ',' if !quoted => cols.push(String::new()),
            c => cols.last_mut().unwrap().push(c),
        }
    }
    cols
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `data/<name>` ingested once per test binary.
fn dataset(name: &str) -> PathBuf {
    static DEMO: OnceLock<PathBuf> = OnceLock::new();
    static FIXTURES: OnceLock<PathBuf> = OnceLock::new();
    let cell = match name {
        "demo" => &DEMO,
        "fixtures" => &FIXTURES,
        _ => unreachable!("{name}"),
    };
    cell.get_or_init(|| {
        let ds = crate::binary_tempdir().join(format!("outputs-{name}"));
        let out = Command::new(env!("CARGO_BIN_EXE_evallab"))
            .args(["ingest", &format!("data/{name}"), "-o"])
            .arg(&ds)
            .arg("--quiet")
            .current_dir(root())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        ds
    })
    .clone()
}

/// Runs that together write every column of the outputs they name: (output,
/// dataset under `data/`, arguments with `DS` for the dataset's path and
/// `OUT` for `T/x.csv` in a temporary folder T, the file to read the header
/// from: stdout (None), `-o`'s own (`""`) or a table written beside it as
/// `T/x.SUFFIX.csv`).
const RUNS: &[(&str, &str, &[&str], Option<&str>)] = &[
    (
        "inspect",
        "fixtures",
        &["inspect", "DS", "--format", "csv"],
        None,
    ),
    (
        "inspect (tables)",
        "fixtures",
        &["inspect", "DS", "-o", "OUT"],
        Some("tables"),
    ),
    (
        "inspect (dialects)",
        "fixtures",
        &["inspect", "DS", "-o", "OUT"],
        Some("dialects"),
    ),
    (
        "inspect (variants)",
        "fixtures",
        &["inspect", "DS", "-o", "OUT"],
        Some("variants"),
    ),
    (
        "inspect (rejects)",
        "fixtures",
        &["inspect", "DS", "-o", "OUT"],
        Some("rejects"),
    ),
    (
        "inspect (repeated)",
        "fixtures",
        &["inspect", "DS", "-o", "OUT"],
        Some("repeated"),
    ),
    (
        "inspect (inputs)",
        "fixtures",
        &["inspect", "DS", "-o", "OUT"],
        Some("inputs"),
    ),
    (
        "inspect (analyses)",
        "fixtures",
        &["inspect", "DS", "-o", "OUT"],
        Some("analyses"),
    ),
    (
        "inspect --verify",
        "fixtures",
        &["inspect", "DS", "--verify", "-o", "OUT"],
        Some(""),
    ),
    (
        "standings",
        "demo",
        &["standings", "DS", "--format", "csv"],
        None,
    ),
    (
        "standings",
        "demo",
        &[
            "standings",
            "DS",
            "--by",
            "season,engine",
            "--format",
            "csv",
        ],
        None,
    ),
    (
        "standings",
        "demo",
        &["standings", "DS", "--by", "engine", "--format", "csv"],
        None,
    ),
    (
        "standings --terminations",
        "demo",
        &["standings", "DS", "--terminations", "--format", "csv"],
        None,
    ),
    (
        "standings --terminations",
        "demo",
        &[
            "standings",
            "DS",
            "--terminations",
            "--by",
            "season,engine",
            "--format",
            "csv",
        ],
        None,
    ),
    (
        "crosstable",
        "demo",
        &["crosstable", "DS", "--format", "csv"],
        None,
    ),
    (
        "crosstable",
        "demo",
        &[
            "crosstable",
            "DS",
            "--by",
            "season,engine",
            "--format",
            "csv",
        ],
        None,
    ),
    (
        "crosstable --wide",
        "demo",
        &["crosstable", "DS", "--wide", "--format", "csv"],
        None,
    ),
    (
        "crosstable --wide",
        "demo",
        &[
            "crosstable",
            "DS",
            "--wide",
            "--by",
            "season,engine",
            "--format",
            "csv",
        ],
        None,
    ),
    (
        "ratings",
        "demo",
        &["ratings", "DS", "--bootstrap", "20", "--format", "csv"],
        None,
    ),
    (
        "ratings",
        "fixtures",
        &[
            "ratings",
            "DS",
            "--each-group",
            "--bootstrap",
            "20",
            "--format",
            "csv",
        ],
        None,
    ),
    (
        "ratings (summary)",
        "demo",
        &["ratings", "DS", "--bootstrap", "20", "-o", "OUT"],
        Some("summary"),
    ),
    (
        "ratings --groups",
        "fixtures",
        &["ratings", "DS", "--groups", "--format", "csv"],
        None,
    ),
    (
        "ratings --los-matrix",
        "demo",
        &[
            "ratings",
            "DS",
            "--bootstrap",
            "20",
            "--los-matrix",
            "OUT",
            "--format",
            "csv",
        ],
        Some(""),
    ),
    ("pairs", "demo", &["pairs", "DS", "--format", "csv"], None),
    (
        "pairs",
        "demo",
        &[
            "pairs",
            "DS",
            "--by",
            "season,engine",
            "--sprt",
            "0,5",
            "--format",
            "csv",
        ],
        None,
    ),
    (
        "pairs --openings",
        "demo",
        &["pairs", "DS", "--openings", "--format", "csv"],
        None,
    ),
    (
        "pairs --unpaired",
        "fixtures",
        &["pairs", "DS", "--unpaired", "--format", "csv"],
        None,
    ),
    (
        "opening-stats",
        "demo",
        &[
            "opening-stats",
            "DS",
            "--by",
            "event,opening",
            "--format",
            "csv",
        ],
        None,
    ),
    (
        "opening-stats",
        "demo",
        &[
            "opening-stats",
            "DS",
            "--by",
            "event,start",
            "--format",
            "csv",
        ],
        None,
    ),
    (
        "opening-stats --by opening,engine",
        "demo",
        &[
            "opening-stats",
            "DS",
            "--by",
            "opening,engine",
            "--format",
            "csv",
        ],
        None,
    ),
    (
        "balance",
        "demo",
        &["balance", "DS", "--format", "csv"],
        None,
    ),
    (
        "balance",
        "demo",
        &["balance", "DS", "--by", "season,engine", "--format", "csv"],
        None,
    ),
    (
        "calibrate",
        "demo",
        &[
            "calibrate",
            "DS",
            "--by",
            "event,engine",
            "--bootstrap",
            "5",
            "--format",
            "csv",
        ],
        None,
    ),
    (
        "calibrate",
        "demo",
        &[
            "calibrate",
            "DS",
            "--by",
            "season,engine",
            "--format",
            "csv",
        ],
        None,
    ),
    (
        "wdl",
        "demo",
        &["wdl", "DS", "--by", "event,engine", "--format", "csv"],
        None,
    ),
    (
        "wdl",
        "demo",
        &[
            "wdl",
            "DS",
            "--by",
            "season",
            "--bootstrap",
            "5",
            "--format",
            "csv",
        ],
        None,
    ),
    (
        "wdl --validate",
        "demo",
        &[
            "wdl",
            "DS",
            "--validate",
            "--train",
            "TCEC",
            "--test",
            "cutechess",
            "--solver",
            "newton",
            "-o",
            "OUT",
        ],
        Some(""),
    ),
    (
        "wdl --validate (reliability)",
        "demo",
        &[
            "wdl",
            "DS",
            "--validate",
            "--train",
            "TCEC",
            "--test",
            "cutechess",
            "--solver",
            "newton",
            "-o",
            "OUT",
        ],
        Some("reliability"),
    ),
    (
        "relevance",
        "demo",
        &[
            "relevance",
            "DS",
            "--by",
            "event,engine",
            "--moves-out",
            "/dev/null",
            "--format",
            "csv",
        ],
        None,
    ),
    (
        "relevance",
        "demo",
        &[
            "relevance",
            "DS",
            "--by",
            "season,engine",
            "--moves-out",
            "/dev/null",
            "--format",
            "csv",
        ],
        None,
    ),
    ("eas", "demo", &["eas", "DS", "--format", "csv"], None),
    (
        "eas",
        "demo",
        &["eas", "DS", "--by", "season,engine", "--format", "csv"],
        None,
    ),
    (
        "eas",
        "demo",
        &["eas", "DS", "--by", "event,engine", "--format", "csv"],
        None,
    ),
    (
        "eas --games",
        "demo",
        &[
            "eas",
            "DS",
            "--engine",
            "Full",
            "--games",
            "bad-draws",
            "--format",
            "csv",
        ],
        None,
    ),
    (
        "adjudicate",
        "demo",
        &[
            "adjudicate",
            "DS",
            "--rules",
            "cutechess",
            "--by",
            "event,engine",
            "--format",
            "csv",
        ],
        None,
    ),
    (
        "adjudicate --games",
        "demo",
        &[
            "adjudicate",
            "DS",
            "--rules",
            "cutechess",
            "--games",
            "wrong",
            "--format",
            "csv",
        ],
        None,
    ),
    (
        "adjudicate --sweep",
        "demo",
        &[
            "adjudicate",
            "DS",
            "--rules",
            "cutechess",
            "--sweep",
            "draw.score=0..10:10",
            "--sweep",
            "resign.score=500..1000:500",
            "--format",
            "csv",
        ],
        None,
    ),
    (
        "adjudicate --sweep",
        "demo",
        &[
            "adjudicate",
            "DS",
            "--rules",
            "tcec",
            "--sweep",
            "tcec.draw.score=5..10:5",
            "--by",
            "event,engine",
            "--format",
            "csv",
        ],
        None,
    ),
    (
        "adjudicate --sweep",
        "demo",
        &[
            "adjudicate",
            "DS",
            "--rules",
            "terra",
            "--sweep",
            "terra.resign.score=400..500:100",
            "--format",
            "csv",
        ],
        None,
    ),
    (
        "adjudicate --check-clocks",
        "demo",
        &[
            "adjudicate",
            "DS",
            "--rules",
            "tcec",
            "--check-clocks",
            "-o",
            "OUT",
        ],
        Some(""),
    ),
    (
        "adjudicate --check-clocks (eras)",
        "demo",
        &[
            "adjudicate",
            "DS",
            "--rules",
            "tcec",
            "--check-clocks",
            "-o",
            "OUT",
        ],
        Some("eras"),
    ),
    (
        "adjudicate --check-clocks (causes)",
        "demo",
        &[
            "adjudicate",
            "DS",
            "--rules",
            "tcec",
            "--check-clocks",
            "-o",
            "OUT",
        ],
        Some("causes"),
    ),
    (
        "adjudicate --check-clocks (rule-ends)",
        "demo",
        &[
            "adjudicate",
            "DS",
            "--rules",
            "tcec",
            "--check-clocks",
            "-o",
            "OUT",
        ],
        Some("rule-ends"),
    ),
    (
        "adjudicate --check-clocks (exceptions)",
        "demo",
        &[
            "adjudicate",
            "DS",
            "--rules",
            "tcec",
            "--check-clocks",
            "-o",
            "OUT",
        ],
        Some("exceptions"),
    ),
    (
        "adjudicate --check-clocks --games",
        "demo",
        &[
            "adjudicate",
            "DS",
            "--rules",
            "tcec",
            "--check-clocks",
            "--games",
            "wrong",
            "--format",
            "csv",
        ],
        None,
    ),
    (
        "adjudicate --check-clocks --sweep",
        "demo",
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
        None,
    ),
    (
        "engine-stats",
        "demo",
        &[
            "engine-stats",
            "DS",
            "--by",
            "event,engine",
            "--phase",
            "--format",
            "csv",
        ],
        None,
    ),
    (
        "engine-stats",
        "demo",
        &[
            "engine-stats",
            "DS",
            "--by",
            "season,engine",
            "--bands",
            "20",
            "--format",
            "csv",
        ],
        None,
    ),
    (
        "engine-stats --time-usage",
        "demo",
        &[
            "engine-stats",
            "DS",
            "--by",
            "event,engine",
            "--time-usage",
            "--format",
            "csv",
        ],
        None,
    ),
    (
        "engine-stats --time-usage",
        "demo",
        &[
            "engine-stats",
            "DS",
            "--by",
            "season,engine",
            "--time-usage",
            "--bands",
            "20",
            "--format",
            "csv",
        ],
        None,
    ),
    (
        "openings",
        "fixtures",
        &["openings", "DS", "--format", "csv"],
        None,
    ),
];

/// Outputs whose columns the engine tests check with [`assert_declared`]
/// (they need Stockfish or lc0), and the tables only the report builds.
const CHECKED_ELSEWHERE: &[&str] = &[
    "report: summary",
    "report: x05",
    "relevance --analysis",
    "agreement",
    "agreement --moves-out",
    "match",
    "match -o",
    "ease",
    "ease --bands",
    "ease --positions",
    "difficulty",
    "difficulty --puzzles",
    "difficulty --models",
    "difficulty --predict",
    "difficulty --breakdown",
];

#[test]
fn every_command_writes_what_its_output_declares() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("x.csv");
    let mut seen: Vec<(&str, BTreeSet<&str>)> = Vec::new();
    for (name, data, args, beside) in RUNS {
        let ds = dataset(data);
        let args: Vec<&std::ffi::OsStr> = args
            .iter()
            .map(|a| match *a {
                "DS" => ds.as_os_str(),
                "OUT" => out.as_os_str(),
                a => std::ffi::OsStr::new(a),
            })
            .collect();
        let run = Command::new(env!("CARGO_BIN_EXE_evallab"))
            .args(&args)
            .current_dir(root())
            .output()
            .unwrap();
        let what = format!(
            "`evallab {}`",
            args.join(std::ffi::OsStr::new(" ")).display()
        );
        assert!(
            run.status.success(),
            "{what}: {}",
            String::from_utf8_lossy(&run.stderr)
        );
        let text = match beside {
            None => String::from_utf8(run.stdout).unwrap(),
            Some(suffix) => {
                let file = match *suffix {
                    "" => out.clone(),
                    suffix => tmp.path().join(format!("x.{suffix}.csv")),
                };
                std::fs::read_to_string(&file)
                    .unwrap_or_else(|e| panic!("{what}: {}: {e}", file.display()))
            }
        };
        let cols = covered(declared(name), &csv_header(&text), &what);
        match seen.iter_mut().find(|(n, _)| n == name) {
            Some((_, s)) => s.extend(cols),
            None => seen.push((name, cols)),
        }
    }
    for o in OUTPUTS {
        if CHECKED_ELSEWHERE.contains(&o.name) {
            continue;
        }
        let Some((_, s)) = seen.iter().find(|(n, _)| *n == o.name) else {
            panic!(
                "no run writes `{}`: add one to RUNS (tests/it/outputs.rs)",
                o.name
            )
        };
        let missing = missing(o, s);
        assert!(
            missing.is_empty(),
            "`{}` declares {missing:?}, which none of its runs wrote",
            o.name
        );
    }
    for name in CHECKED_ELSEWHERE {
        declared(name);
    }
}

#[test]
fn wildcards_and_quoted_names() {
    assert!(matches("end_*", "end_mate"));
    assert!(!matches("end_*", "end_"));
    assert!(matches("*_median", "depth_median"));
    assert!(!matches("*_median", "depth_mean"));
    assert!(matches("games", "games") && !matches("games", "game"));
    assert_eq!(
        csv_header("event,\"Stockfish, dev\",\"a \"\"b\"\"\"\n1,2,3"),
        ["event", "Stockfish, dev", "a \"b\""]
    );
}
