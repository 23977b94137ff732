//! The binary end to end: exit codes, stdin, errors that name the file, and
//! pipelines (checked before running, unchanged steps skipped).

use evallab::dataset::writer::{DatasetWriter, Open};
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
    // A missing input: the I/O exit code and its path, and no dataset folder.
    let fresh = dir.path().join("fresh");
    let out = evallab(
        &["ingest", "no/such.pgn", "-o", &fresh.display().to_string()],
        None,
    );
    assert_eq!(out.status.code(), Some(5));
    assert!(!fresh.exists());
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
x05 = "{dataset}/out/x05.toml"
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
    assert_eq!(out.status.code(), Some(4));
    let err = text(&out.stderr);
    assert!(
        err.contains("bad.toml: steps[0] (balance)") && err.contains("'nope'"),
        "{err}"
    );
    assert!(!Path::new(env!("CARGO_MANIFEST_DIR")).join("x").exists());
}

/// An optional step whose engine is missing is skipped with the reason, the
/// hint and the variable to set; a step reading its run is skipped too, and
/// one that `needs` that step's output; the rest runs and the pipeline exits
/// 0. Not optional, the same step fails.
#[test]
fn optional_steps_without_their_engine_are_skipped_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let ds = dir.path().join("ds").display().to_string();
    let spec = dir.path().join("p.toml");
    let write = |optional: &str| {
        std::fs::write(
            &spec,
            format!(
                r#"
[vars]
dataset = "{ds}"
engine = "/nonexistent/stockfish"

[[steps]]
run = "ingest"
inputs = ["data/fixtures/tcec.pgn"]

[[steps]]
run = "analyze"
{optional}
uci = "{{engine}}"
nodes = 100
label = "sf"

[[steps]]
run = "agreement"
analysis = "sf"
format = "csv"
output = "{ds}/agreement.csv"

[[steps]]
run = "balance"
format = "csv"
output = "{ds}/balance.csv"

[[steps]]
run = "standings"
needs = ["{ds}/agreement.csv"]
format = "csv"
output = "{ds}/standings.csv"
"#
            ),
        )
        .unwrap();
    };
    write("optional = true\nhint = \"apt-get install stockfish\"");
    let spec_arg = spec.display().to_string();
    let out = evallab(&["run", &spec_arg], None);
    let err = text(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains(
            "step 2. analyze: skipped: optional, needs /nonexistent/stockfish, not found \
             (apt-get install stockfish, or --set engine=PATH)"
        ),
        "{err}"
    );
    assert!(
        err.contains(
            "step 3. agreement: skipped: needs engine run `sf` of step 2. analyze, skipped"
        ),
        "{err}"
    );
    assert!(
        err.contains(&format!(
            "step 5. standings: skipped: needs {ds}/agreement.csv of step 3. agreement, skipped"
        )),
        "{err}"
    );
    assert!(err.contains("3 steps skipped, as said above: 2. analyze, 3. agreement, 5. standings"));
    assert!(Path::new(&ds).join("balance.csv").exists());
    // A hint without `optional` is a mistake in the spec.
    write("hint = \"apt-get install stockfish\"");
    let out = evallab(&["run", &spec_arg], None);
    assert_eq!(out.status.code(), Some(4), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("only an optional step has a hint"));
    // Required: the missing engine fails the run.
    write("");
    let out = evallab(&["run", &spec_arg], None);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("step 2. analyze"),
        "{}",
        text(&out.stderr)
    );
}

/// Renamed options still run, as the new spelling with a note, on the
/// command line and in a pipeline step; a file a step reads by a typed
/// option (here `adjudicate --rules FILE`, which no hand list held) makes
/// the step stale when it changes.
#[test]
fn renamed_options_run_as_the_new_ones_and_steps_see_their_files() {
    let dir = tempfile::tempdir().unwrap();
    let ds = dir.path().join("ds").display().to_string();
    ingest_ok(&["data/fixtures/tcec.pgn"], &ds, &[]);
    let csv = |args: &[&str]| {
        let mut all = args.to_vec();
        all.extend(["--format", "csv"]);
        let out = evallab(&all, None);
        assert!(out.status.success(), "{}", text(&out.stderr));
        (text(&out.stdout), text(&out.stderr))
    };
    let (old, note) = csv(&["ratings", &ds, "--confidence", "90", "--simulations", "20"]);
    let (new, quiet) = csv(&["ratings", &ds, "--level", "0.9", "--bootstrap", "20"]);
    assert_eq!(old, new);
    assert!(
        note.contains("`ratings --confidence 90` is deprecated and read as `--level 0.9`"),
        "{note}"
    );
    assert!(note.contains("`ratings --simulations 20` is deprecated and read as `--bootstrap 20`"));
    assert!(!quiet.contains("deprecated"), "{quiet}");
    assert_eq!(
        csv(&["balance", &ds, "--by", "event"]).0,
        csv(&["balance", &ds, "--by", "event,engine"]).0
    );

    let rules = dir.path().join("rules.toml");
    std::fs::copy("data/adjudication/tcec.toml", &rules).unwrap();
    let spec = dir.path().join("p.toml");
    std::fs::write(
        &spec,
        format!(
            "[vars]\ndataset = \"{ds}\"\n\n[[steps]]\nrun = \"adjudicate\"\nrules = \"{}\"\nby = \"total\"\nformat = \"csv\"\noutput = \"{ds}/adj.csv\"\n",
            rules.display()
        ),
    )
    .unwrap();
    let spec = spec.display().to_string();
    let run = || text(&evallab(&["run", &spec], None).stderr);
    let first = run();
    assert!(
        first.contains("`adjudicate --by total` is deprecated and read as `--by all`"),
        "{first}"
    );
    assert!(first.contains("step 1. adjudicate: adjudicate"), "{first}");
    assert!(run().contains("skipped (inputs and parameters unchanged)"));
    // The rules file changes (size and mtime): the step runs again.
    let mut text_rules = std::fs::read_to_string(&rules).unwrap();
    text_rules.push_str("\n# edited\n");
    std::fs::write(&rules, text_rules).unwrap();
    let third = run();
    assert!(!third.contains("skipped (inputs"), "{third}");
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
    // Without --format, the file's name picks it; --format wins over it.
    let csv_file = dir.path().join("b.csv");
    let csv_s = csv_file.display().to_string();
    let out = evallab(&["balance", &ds, "--by", "engine", "-o", &csv_s], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let written = std::fs::read_to_string(&csv_file).unwrap();
    assert!(
        written.starts_with("engine,games,official_wins"),
        "{written}"
    );
    let out = evallab(
        &[
            "balance", &ds, "--by", "engine", "--format", "table", "-o", &csv_s,
        ],
        None,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        std::fs::read_to_string(&csv_file)
            .unwrap()
            .starts_with("| engine")
    );
    // Parquet needs a file.
    let out = evallab(&["balance", &ds, "--format", "parquet"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("needs -o FILE"));
}

fn ingest_ok(inputs: &[&str], ds: &str, extra: &[&str]) {
    let mut args = vec!["ingest"];
    args.extend(inputs);
    args.extend(["-o", ds, "--quiet"]);
    args.extend(extra);
    let out = evallab(&args, None);
    assert!(out.status.success(), "{}", text(&out.stderr));
}

/// (games, rejects) as `inspect` reads them through the manifest.
fn counts(ds: &str) -> (u64, u64) {
    let ds = evallab::dataset::Dataset::open(Path::new(ds)).unwrap();
    let (g, r, _) = ds.manifest().totals();
    (g, r)
}

/// The same PGN plain and compressed is one input: after the zstd copy, the
/// plain file is skipped (naming the copy), and in one run the second of the
/// two; a different PGN with the same first bytes is ingested.
#[test]
fn the_same_pgn_compressed_or_not_is_ingested_once() {
    let dir = tempfile::tempdir().unwrap();
    // Longer than the head (HEAD_BYTES): `longer.pgn` shares it.
    let zst = std::fs::read("data/demo/demo_tcec.pgn.zst").unwrap();
    let plain = zstd::decode_all(&zst[..]).unwrap();
    assert!(plain.len() > evallab_pgn::input::HEAD_BYTES);
    let path = |name: &str| dir.path().join(name).display().to_string();
    std::fs::write(path("a.pgn"), &plain).unwrap();
    std::fs::write(path("a.pgn.zst"), zst).unwrap();
    let mut longer = plain.clone();
    longer.extend_from_slice(b"\n[Event \"extra\"]\n\n1. e4 *\n");
    std::fs::write(path("longer.pgn"), &longer).unwrap();
    let ds = path("ds");
    ingest_ok(&[&path("a.pgn.zst")], &ds, &[]);
    let once = counts(&ds);
    assert!(once.0 > 0);
    let out = evallab(&["ingest", &path("a.pgn"), "-o", &ds], None);
    assert!(out.status.success());
    let err = text(&out.stderr);
    assert!(
        err.contains("skipped ")
            && err.contains("a.pgn: the same PGN as ")
            && err.contains("a.pgn.zst, already in the dataset (content xxh3 "),
        "{err}"
    );
    assert_eq!(counts(&ds), once);
    ingest_ok(&[&path("longer.pgn")], &ds, &[]);
    assert_eq!(counts(&ds).0, 2 * once.0 + 1);
    // One run: the second copy is skipped.
    let ds2 = path("ds2");
    let out = evallab(
        &["ingest", &path("a.pgn"), &path("a.pgn.zst"), "-o", &ds2],
        None,
    );
    let err = text(&out.stderr);
    assert!(err.contains("a.pgn.zst: the same PGN as "), "{err}");
    assert!(err.contains("a.pgn, given before it"), "{err}");
    assert_eq!(counts(&ds2), once);
}

/// An input recorded before content hashes (a dataset of before
/// 2026-11-28): the same PGN stored another way is still skipped, by its
/// recorded file read again, but only while that file is the recorded one
/// (its sha256).
#[test]
fn an_input_recorded_without_its_content_is_read_again() {
    let dir = tempfile::tempdir().unwrap();
    let zst = std::fs::read("data/demo/demo_tcec.pgn.zst").unwrap();
    let plain = zstd::decode_all(&zst[..]).unwrap();
    let path = |name: &str| dir.path().join(name).display().to_string();
    std::fs::write(path("a.pgn"), &plain).unwrap();
    std::fs::write(path("a.pgn.zst"), &zst).unwrap();
    let ds = path("ds");
    ingest_ok(&[&path("a.pgn.zst")], &ds, &[]);
    let once = counts(&ds);
    // As an old manifest: no `content` beside the inputs.
    let manifest = Path::new(&ds).join("manifest.json");
    let mut m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&manifest).unwrap()).unwrap();
    for run in m["runs"].as_array_mut().unwrap() {
        for input in run["inputs"].as_array_mut().unwrap() {
            assert!(input.as_object_mut().unwrap().remove("content").is_some());
        }
    }
    std::fs::write(&manifest, serde_json::to_string_pretty(&m).unwrap()).unwrap();
    let out = evallab(&["ingest", &path("a.pgn"), "-o", &ds], None);
    assert!(out.status.success());
    let err = text(&out.stderr);
    assert_eq!(counts(&ds), once);
    assert!(
        err.contains("a.pgn: the same PGN as ")
            && err.contains("a.pgn.zst, already in the dataset (content xxh3 ")
            && err.contains("read again from its file: recorded without one)"),
        "{err}"
    );
    // The recorded file replaced by the same PGN compressed otherwise: not
    // the recorded input any more, so nothing is claimed and a.pgn is read.
    std::fs::write(path("a.pgn.zst"), zstd::encode_all(&plain[..], 19).unwrap()).unwrap();
    ingest_ok(&[&path("a.pgn")], &ds, &[]);
    assert_eq!(counts(&ds).0, 2 * once.0);
}

/// A file's games and moves, each game by its number in the file, not its
/// id: what a dataset holds of it whatever the versions it was read in.
fn by_number(ds: &str) -> (polars::prelude::DataFrame, polars::prelude::DataFrame) {
    use evallab::schema::{GAMES, MOVES, col};
    use polars::prelude::*;
    let ds = evallab::dataset::Dataset::open(Path::new(ds)).unwrap();
    let games = ds.scan(&GAMES).unwrap();
    let numbers = games
        .clone()
        .select([col(col::GAME_ID), col(col::GAME_NUMBER)]);
    let games = games
        .drop(cols([col::GAME_ID, col::SOURCE_SHA256]))
        .sort([col::GAME_NUMBER], Default::default())
        .collect()
        .unwrap();
    let moves = ds
        .scan(&MOVES)
        .unwrap()
        .join(
            numbers,
            [col(col::GAME_ID)],
            [col(col::GAME_ID)],
            JoinArgs::new(JoinType::Inner),
        )
        .drop(cols([col::GAME_ID]))
        .sort([col::GAME_NUMBER, col::PLY], Default::default())
        .collect()
        .unwrap();
    (games, moves)
}

/// A file that grew (games appended, as a running event's archive grows) is
/// read from where its earlier version ended, twice over: the dataset then
/// holds what one ingest of the whole file holds, the earlier games under
/// their first ids. A file edited in place, or whose earlier version ended
/// inside a game, is read whole (and its repeated games counted).
#[test]
fn a_file_that_grew_is_read_from_where_it_ended() {
    let dir = tempfile::tempdir().unwrap();
    let plain =
        zstd::decode_all(&std::fs::read("data/demo/demo_tcec.pgn.zst").unwrap()[..]).unwrap();
    let starts: Vec<usize> = (1..plain.len())
        .filter(|&i| plain[i - 1] == b'\n' && plain[i..].starts_with(b"[Event "))
        .collect();
    assert!(starts.len() > 9, "{}", starts.len());
    let (third, two_thirds) = (starts[starts.len() / 3], starts[2 * starts.len() / 3]);
    let path = |name: &str| dir.path().join(name).display().to_string();
    let season = path("season.pgn");
    let whole = path("whole");
    std::fs::write(&season, &plain).unwrap();
    ingest_ok(&[&season], &whole, &[]);
    let ds = path("ds");
    let mut notes = Vec::new();
    for end in [third, two_thirds, plain.len()] {
        std::fs::write(&season, &plain[..end]).unwrap();
        let out = evallab(&["ingest", &season, "-o", &ds], None);
        assert!(out.status.success(), "{}", text(&out.stderr));
        notes.push(text(&out.stderr));
    }
    // The earlier versions' games, by number: the first third's, then the second's.
    let held = |end: usize| starts.iter().filter(|&&s| s < end).count() + 1;
    assert!(!notes[0].contains("grew"), "{}", notes[0]);
    for (note, games) in notes[1..].iter().zip([held(third), held(two_thirds)]) {
        assert!(
            note.contains(&format!(
                "season.pgn: grew since it was ingested; its first {games} games are in the dataset already"
            )) && !note.contains("more than once"),
            "{note}"
        );
    }
    assert_eq!(counts(&ds), counts(&whole));
    let (grown, once) = (by_number(&ds), by_number(&whole));
    assert_eq!(grown.0, once.0);
    assert_eq!(grown.1, once.1);
    // Read again: skipped.
    let out = evallab(&["ingest", &season, "-o", &ds], None);
    assert!(text(&out.stderr).contains("already in the dataset"));
    assert_eq!(counts(&ds), counts(&whole));

    // Recorded as a relative path from another working folder: found all the same.
    std::fs::write(&season, &plain[..third]).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_evallab"))
        .args(["ingest", "season.pgn", "-o", "relative", "--quiet"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    std::fs::write(&season, &plain).unwrap();
    let out = evallab(&["ingest", &season, "-o", &path("relative")], None);
    let err = text(&out.stderr);
    assert!(err.contains("grew since it was ingested"), "{err}");
    assert_eq!(counts(&path("relative")), counts(&whole));

    // Edited in place: its first game's Event tag renamed, a game appended.
    let ds = path("edited");
    std::fs::write(&season, &plain[..third]).unwrap();
    ingest_ok(&[&season], &ds, &[]);
    let first = counts(&ds).0;
    let mut edited = plain[..two_thirds].to_vec();
    edited[7] = b'X';
    std::fs::write(&season, &edited).unwrap();
    let out = evallab(&["ingest", &season, "-o", &ds], None);
    let err = text(&out.stderr);
    assert!(
        !err.contains("grew")
            && err.contains("season.pgn: another version of this file is in the dataset")
            && err.contains("more than once"),
        "{err}"
    );
    assert_eq!(counts(&ds).0, first + held(two_thirds) as u64);
    // With --replace, it takes the place of every earlier version: the
    // dataset is then one ingest of the file as it is now.
    let mut again = plain.clone();
    again[7] = b'Y';
    std::fs::write(&season, &again).unwrap();
    let out = evallab(&["ingest", &season, "-o", &ds, "--replace"], None);
    let err = text(&out.stderr);
    assert!(
        out.status.success()
            && err.contains("season.pgn: replaces its earlier version")
            && !err.contains("more than once"),
        "{err}"
    );
    let fresh = path("fresh");
    ingest_ok(&[&season], &fresh, &[]);
    assert_eq!(
        crate::fixtures::sorted_tables(&ds),
        crate::fixtures::sorted_tables(&fresh)
    );

    // The earlier version cut after a game's first tag line: its last game a
    // truncated reject, which the grown file completes; read whole.
    let ds = path("cut");
    let cut = third + plain[third..].iter().position(|&b| b == b'\n').unwrap() + 1;
    std::fs::write(&season, &plain[..cut]).unwrap();
    let out = evallab(&["ingest", &season, "-o", &ds], None);
    assert_eq!(out.status.code(), Some(9), "{}", text(&out.stderr));
    assert_eq!(counts(&ds), (held(third) as u64, 1));
    assert!(text(&out.stderr).contains("ingest it with --replace"));
    std::fs::write(&season, &plain[..two_thirds]).unwrap();
    let cut_ds = path("cut-twice");
    copy_dir(&ds, &cut_ds);
    let out = evallab(&["ingest", &season, "-o", &ds], None);
    let err = text(&out.stderr);
    assert!(
        !err.contains("grew") && err.contains("more than once"),
        "{err}"
    );
    // As the notes say: the cut version taken out, by `remove` after the
    // fact or by `--replace` as the file is read, the file is held once.
    let out = evallab(&["remove", &ds, &season], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    ingest_ok(&[&season], &ds, &[]);
    let once = path("once");
    ingest_ok(&[&season], &once, &[]);
    assert_eq!(
        crate::fixtures::sorted_tables(&ds),
        crate::fixtures::sorted_tables(&once)
    );
    ingest_ok(&[&season], &cut_ds, &["--replace"]);
    assert_eq!(
        crate::fixtures::sorted_tables(&cut_ds),
        crate::fixtures::sorted_tables(&once)
    );
}

/// A copy of a dataset folder (its files; no subfolders but the tables').
fn copy_dir(from: &str, to: &str) {
    for e in walkdir(Path::new(from)) {
        let rel = e.strip_prefix(from).unwrap();
        let dst = Path::new(to).join(rel);
        std::fs::create_dir_all(dst.parent().unwrap()).unwrap();
        std::fs::copy(&e, &dst).unwrap();
    }
}

fn walkdir(dir: &Path) -> Vec<std::path::PathBuf> {
    std::fs::read_dir(dir)
        .unwrap()
        .flat_map(|e| {
            let p = e.unwrap().path();
            if p.is_dir() { walkdir(&p) } else { vec![p] }
        })
        .collect()
}

/// `remove` takes inputs out, by path (every version of a grown file), by a
/// folder or by a sha256 prefix: what is left equals an ingest of the other
/// inputs, row for row, and re-ingesting what went gives the whole again. A
/// dry run, an unknown name and a removal that fails midway change nothing.
#[test]
fn remove_takes_inputs_out_whole_or_not_at_all() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).display().to_string();
    let (tcec, cute) = (
        "data/demo/demo_tcec.pgn.zst",
        "data/demo/demo_cutechess.pgn.gz",
    );
    let malformed = "data/fixtures/malformed.pgn";
    let (all, ds) = (path("all"), path("ds"));
    ingest_ok(&[tcec, cute, malformed], &all, &[]);
    ingest_ok(&[tcec, malformed], &ds, &[]);
    ingest_ok(&[cute], &ds, &[]);
    let whole = crate::fixtures::sorted_tables(&ds);
    assert_eq!(whole, crate::fixtures::sorted_tables(&all));
    let before = manifest_of(&ds);

    let out = evallab(&["remove", &ds, cute, "--dry-run"], None);
    assert!(
        out.status.success()
            && text(&out.stderr).contains("would remove data/demo/demo_cutechess.pgn.gz"),
        "{}",
        text(&out.stderr)
    );
    let out = evallab(&["remove", &ds, "data/demo/none.pgn"], None);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("data/demo/none.pgn: no input of"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(manifest_of(&ds), before);

    // A run left without inputs goes; one with others left is written anew.
    let sha = |p: &str| {
        let d = evallab::dataset::Dataset::open(Path::new(&ds)).unwrap();
        d.manifest()
            .inputs()
            .find(|i| i.path == p)
            .unwrap()
            .sha256
            .clone()
    };
    let out = evallab(&["remove", &ds, &sha(cute)[..10], malformed], None);
    let err = text(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("removed 2 inputs") && err.contains("(parts 1 → 3, 2 gone)"),
        "{err}"
    );
    let only = path("only");
    ingest_ok(&[tcec], &only, &[]);
    assert_eq!(
        crate::fixtures::sorted_tables(&ds),
        crate::fixtures::sorted_tables(&only)
    );
    let out = evallab(&["inspect", &ds, "--verify"], None);
    assert!(out.status.success(), "{}", text(&out.stdout));
    ingest_ok(&[cute, malformed], &ds, &[]);
    assert_eq!(crate::fixtures::sorted_tables(&ds), whole);

    // A folder: every input under it.
    let out = evallab(&["remove", &ds, "data/demo/"], None);
    assert!(
        text(&out.stderr).contains("removed 2 inputs"),
        "{}",
        text(&out.stderr)
    );

    // A part that cannot be read midway (its moves' pages overwritten, the
    // size kept): an error, and the dataset as it was.
    let ds = all;
    let before = (manifest_of(&ds), crate::fixtures::sorted_tables(&ds));
    let moves = Path::new(&ds).join("moves/part-000001.parquet");
    let mut bytes = std::fs::read(&moves).unwrap();
    let half = bytes.len() / 2;
    bytes[half..half + 4096].fill(0xAB);
    std::fs::write(&moves, &bytes).unwrap();
    let out = evallab(&["remove", &ds, tcec], None);
    assert!(
        !out.status.success() && text(&out.stderr).contains("moves/part-000001.parquet"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(manifest_of(&ds), before.0);
    let files: Vec<String> = ["games", "moves", "rejects"]
        .iter()
        .flat_map(|t| std::fs::read_dir(Path::new(&ds).join(t)).unwrap())
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(files, ["part-000001.parquet"; 3]);
}

fn manifest_of(ds: &str) -> String {
    std::fs::read_to_string(Path::new(ds).join("manifest.json")).unwrap()
}

/// The same game in two files (a season's file and its event's) is kept
/// twice, as read, and `inspect` lists it with both places; a game with the
/// same tags and length but other moves is not the same game.
#[test]
fn inspect_lists_the_games_held_more_than_once() {
    let dir = tempfile::tempdir().unwrap();
    let tcec = std::fs::read_to_string("data/fixtures/tcec.pgn").unwrap();
    let first_game = &tcec[..tcec.find("\n[Event").unwrap() + 1];
    let path = |name: &str| dir.path().join(name).display().to_string();
    // The first game again, then a twin: the same tags, 7 plies, other moves.
    let tags = &first_game[..first_game.find("\n\n").unwrap() + 2];
    let twin = format!("{tags}1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 1-0\n");
    std::fs::write(path("season.pgn"), format!("{first_game}\n{twin}")).unwrap();
    let ds = path("ds");
    let ingest = |inputs: &[&str]| {
        let mut args = vec!["ingest"];
        args.extend(inputs);
        args.extend(["-o", &ds, "--quiet"]);
        let out = evallab(&args, None);
        assert!(out.status.success(), "{}", text(&out.stderr));
        text(&out.stderr)
    };
    // The ingest says so: both copies of the first game are of this run.
    let note = ingest(&["data/fixtures/tcec.pgn", &path("season.pgn")]);
    assert!(
        note.contains("note: 2 game(s) of this run are now held more than once"),
        "{note}"
    );
    assert_eq!(counts(&ds), (4, 0), "the twin is a game of its own");
    // A file of other bytes holding the twin again: its one game is a copy.
    std::fs::write(path("again.pgn"), format!("\n{twin}")).unwrap();
    let note = ingest(&[&path("again.pgn")]);
    assert!(
        note.contains("note: 1 game(s) of this run are now held more than once"),
        "{note}"
    );
    // A game of its own: no note.
    let third = format!("{tags}1. d4 d5 2. c4 e6 3. Nc3 Nf6 4. Bg5 1-0\n")
        .replace("[Round \"", "[Round \"9");
    std::fs::write(path("new.pgn"), third).unwrap();
    let note = ingest(&[&path("new.pgn")]);
    assert!(!note.contains("held more than once"), "{note}");
    let out = evallab(&["inspect", &ds], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("games held more than once (the same tags, plies and final position; every copy counts in the statistics): 2, in 4 copies"),
        "{stdout}"
    );
    assert!(stdout.contains("tcec.pgn #1; "), "{stdout}");
    // As tables: the per-event counts, each section beside them.
    let out = evallab(&["inspect", &ds, "-o", &path("x.csv")], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let read = |name: &str| std::fs::read_to_string(path(name)).unwrap();
    let repeated = read("x.repeated.csv");
    // The game and its twin (the same tags and plies, another final
    // position), each with its copy.
    assert_eq!(repeated.lines().count(), 3, "{repeated}");
    // In the order of their places.
    let places: Vec<&str> = repeated
        .lines()
        .skip(1)
        .map(|l| l.rsplit(",").next().unwrap())
        .collect();
    let tmp = dir.path().display().to_string();
    assert_eq!(
        places,
        [
            format!("{tmp}/season.pgn #2; {tmp}/again.pgn #1"),
            format!("data/fixtures/tcec.pgn #1; {tmp}/season.pgn #1"),
        ],
        "{repeated}"
    );
    assert_eq!(read("x.tables.csv").lines().nth(1), Some("games,6"));
    assert_eq!(
        read("x.rejects.csv").lines().count(),
        1,
        "no rejects: the header"
    );
    let events = read("x.csv");
    let plies: u64 = events
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(2).unwrap().parse::<u64>().unwrap())
        .sum();
    let moves = read("x.tables.csv");
    assert_eq!(
        moves.lines().nth(2),
        Some(format!("moves,{plies}").as_str()),
        "{events}"
    );
    // The report says so too, and names the rejects with their reasons.
    ingest(&["data/fixtures/malformed.pgn"]);
    let out = evallab(&["inspect", &ds, "-o", &path("y.csv")], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let rejects = read("y.rejects.csv").lines().count() - 1;
    assert!(rejects > 1);
    let out = evallab(&["report", &ds, "-o", &path("report")], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let page = read("report/index.html");
    let data = &page[page.find("<section id=data>").expect("a data section")..];
    let data = &data[..data.find("</section>").unwrap()];
    assert!(
        data.contains(&format!("{rejects} games were rejected at ingest"))
            && data.contains("illegal move 3...Nf3")
            && data.contains("2 games are held more than once, in 4 copies")
            && data.contains("are in none of them, each with its reason below.")
            && data.contains("again.pgn #1"),
        "{data}"
    );
    let one = path("one");
    ingest_ok(&["data/fixtures/tcec.pgn"], &one, &[]);
    let out = evallab(&["inspect", &one], None);
    assert!(text(&out.stdout).contains("games held more than once: none"));
}

/// Issue 9, defect 1: `--overwrite` with an input that fails must leave the
/// old dataset whole (it used to delete the old parts before reading).
#[test]
fn overwrite_with_a_failing_input_keeps_the_dataset() {
    let dir = tempfile::tempdir().unwrap();
    let ds = dir.path().join("ds").display().to_string();
    ingest_ok(&["data/fixtures/tcec.pgn"], &ds, &[]);
    let before = counts(&ds);
    assert_eq!(before, (2, 0));
    // A missing input.
    let out = evallab(&["ingest", "no/such.pgn", "-o", &ds, "--overwrite"], None);
    assert!(!out.status.success());
    assert_eq!(counts(&ds), before);
    // A corrupt input: zstd magic, then garbage.
    let bad = dir.path().join("bad.pgn.zst");
    std::fs::write(&bad, b"\x28\xb5\x2f\xfdgarbage that is no zstd frame").unwrap();
    let out = evallab(
        &[
            "ingest",
            &bad.display().to_string(),
            "-o",
            &ds,
            "--overwrite",
        ],
        None,
    );
    assert!(!out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("bad.pgn.zst"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(counts(&ds), before);
    // Every part the manifest lists is still there, and nothing else.
    let names: Vec<String> = ["games", "moves", "rejects"]
        .iter()
        .flat_map(|t| std::fs::read_dir(Path::new(&ds).join(t)).unwrap())
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["part-000001.parquet"; 3]);
    // A successful overwrite replaces the parts, and only then removes the old.
    ingest_ok(&["data/fixtures/cutechess.pgn"], &ds, &["--overwrite"]);
    let ds_now = evallab::dataset::Dataset::open(Path::new(&ds)).unwrap();
    assert_eq!(ds_now.manifest().runs.len(), 1);
    assert_eq!(ds_now.manifest().runs[0].part, 2);
    assert!(!Path::new(&ds).join("games/part-000001.parquet").exists());
}

/// `--overwrite` replaces a dataset written with another schema version
/// (which `open` refuses), and the new manifest carries the current version.
#[test]
fn overwrite_replaces_an_older_schema_version() {
    let dir = tempfile::tempdir().unwrap();
    let ds = dir.path().join("ds");
    let d = ds.display().to_string();
    ingest_ok(&["data/fixtures/tcec.pgn"], &d, &[]);
    let manifest = ds.join("manifest.json");
    let current = format!(
        "\"schema_version\": \"{}\"",
        evallab::schema::SCHEMA_VERSION
    );
    let written = std::fs::read_to_string(&manifest).unwrap();
    std::fs::write(
        &manifest,
        written.replace(&current, "\"schema_version\": \"0\""),
    )
    .unwrap();
    let out = evallab(&["inspect", &d], None);
    assert_eq!(out.status.code(), Some(6));
    assert!(text(&out.stderr).contains("schema version 0"));
    ingest_ok(&["data/fixtures/tcec.pgn"], &d, &["--overwrite"]);
    assert!(
        std::fs::read_to_string(&manifest)
            .unwrap()
            .contains(&current)
    );
    assert_eq!(counts(&d), (2, 0));
}

/// Issue 9, defect 1: opening a dataset whose manifest lists a part that is
/// gone says which.
/// A part changed after its commit: cut (any command names it, by its
/// size) or written over (`inspect --verify` names it, by its hash). A
/// manifest without the records gets them at its next write.
#[test]
fn a_part_changed_after_its_commit_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let ds = dir.path().join("ds").display().to_string();
    ingest_ok(&["data/fixtures/tcec.pgn"], &ds, &[]);
    let out = evallab(&["inspect", &ds, "--verify"], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).starts_with("verified 3 part(s), "),
        "{}",
        text(&out.stdout)
    );
    let part = Path::new(&ds).join("moves/part-000001.parquet");
    let mut bytes = std::fs::read(&part).unwrap();
    bytes[100] ^= 1;
    std::fs::write(&part, &bytes).unwrap();
    let out = evallab(&["inspect", &ds, "--verify"], None);
    assert_eq!(out.status.code(), Some(6));
    let err = text(&out.stderr);
    assert!(
        err.contains("1 part(s) differ from what was committed: moves/part-000001.parquet (xxh3 "),
        "{err}"
    );
    bytes.truncate(bytes.len() - 10);
    std::fs::write(&part, &bytes).unwrap();
    let out = evallab(&["standings", &ds], None);
    assert_eq!(out.status.code(), Some(6));
    let err = text(&out.stderr);
    let want = format!(
        "1 part(s) changed after their commit: moves/part-000001.parquet ({} bytes, committed with {})",
        bytes.len(),
        bytes.len() + 10
    );
    assert!(err.contains(&want), "{err}");
    // A manifest from before the records: nothing to check, until a write.
    ingest_ok(&["data/fixtures/tcec.pgn"], &ds, &["--overwrite"]);
    let manifest = Path::new(&ds).join("manifest.json");
    let mut m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&manifest).unwrap()).unwrap();
    m.as_object_mut().unwrap().remove("sums").unwrap();
    std::fs::write(&manifest, serde_json::to_string(&m).unwrap()).unwrap();
    let out = evallab(&["inspect", &ds, "--verify"], None);
    assert!(
        text(&out.stdout).contains("3 part(s) have no record"),
        "{}",
        text(&out.stdout)
    );
    let out = evallab(&["inspect", &ds, "--verify", "--format", "csv"], None);
    let rows = text(&out.stdout);
    assert_eq!(rows.matches(",,,no record\n").count(), 3, "{rows}");
    ingest_ok(&["data/fixtures/cutechess.pgn"], &ds, &[]);
    let out = evallab(&["inspect", &ds, "--verify"], None);
    assert_eq!(
        text(&out.stdout).lines().count(),
        1,
        "{}",
        text(&out.stdout)
    );
    assert!(text(&out.stdout).starts_with("verified 6 part(s), "));
    // One row per part: its size on disk and the manifest's hash.
    let out = evallab(&["inspect", &ds, "--verify", "--format", "csv"], None);
    let rows = text(&out.stdout);
    let m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&manifest).unwrap()).unwrap();
    let mut n = 0;
    for row in rows.lines().skip(1) {
        let f: Vec<&str> = row.split(',').collect();
        let size = std::fs::metadata(Path::new(&ds).join(f[0])).unwrap().len();
        assert_eq!(f[2], size.to_string(), "{row}");
        assert_eq!(f[3], m["sums"][f[0]]["xxh3"].as_str().unwrap(), "{row}");
        assert_eq!(
            (f[1], f[4]),
            (f[0].split('/').next().unwrap(), "as committed")
        );
        n += 1;
    }
    assert_eq!(n, 6, "{rows}");
}

#[test]
fn open_names_missing_parts() {
    let dir = tempfile::tempdir().unwrap();
    let ds = dir.path().join("ds").display().to_string();
    ingest_ok(&["data/fixtures/tcec.pgn"], &ds, &[]);
    std::fs::remove_file(Path::new(&ds).join("moves/part-000001.parquet")).unwrap();
    let out = evallab(&["inspect", &ds], None);
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(
        err.contains("1 part(s) that are missing: moves/part-000001.parquet"),
        "{err}"
    );
    // --overwrite rebuilds it.
    ingest_ok(&["data/fixtures/tcec.pgn"], &ds, &["--overwrite"]);
    assert_eq!(counts(&ds), (2, 0));
}

/// Issue 9, defect 1: a writer killed mid-run (kill -9) leaves the previous
/// dataset readable, and the next writer removes its leftovers.
#[test]
fn killed_ingest_keeps_the_previous_dataset() {
    let dir = tempfile::tempdir().unwrap();
    let ds = dir.path().join("ds").display().to_string();
    ingest_ok(&["data/fixtures/tcec.pgn"], &ds, &[]);
    // A large input, so that the kill lands while parts are being written.
    let game = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("data/fixtures/tcec.pgn"))
        .unwrap();
    let big = dir.path().join("big.pgn");
    let mut f = std::fs::File::create(&big).unwrap();
    for _ in 0..20_000 {
        f.write_all(&game).unwrap();
        f.write_all(b"\n").unwrap();
    }
    drop(f);
    let mut child = Command::new(env!("CARGO_BIN_EXE_evallab"))
        .args([
            "ingest",
            &big.display().to_string(),
            "-o",
            &ds,
            "--overwrite",
            "--quiet",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let tmp_written = || {
        std::fs::read_dir(Path::new(&ds).join("moves"))
            .unwrap()
            .any(|e| e.unwrap().file_name().to_string_lossy().ends_with(".tmp"))
    };
    let t = std::time::Instant::now();
    while !tmp_written() {
        assert!(
            child.try_wait().unwrap().is_none(),
            "ingest ended before it was killed"
        );
        assert!(t.elapsed().as_secs() < 60);
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    assert_eq!(counts(&ds), (2, 0));
    let out = evallab(&["inspect", &ds], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    // The next writer finds the dead one's lock released and its temp files.
    let out = evallab(&["ingest", "data/fixtures/cutechess.pgn", "-o", &ds], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(
        err.contains("recovered the lock of a writer that died"),
        "{err}"
    );
    assert!(
        err.contains("removed leftover") && err.contains(".tmp"),
        "{err}"
    );
}

/// A derived table's writer killed mid-write (relevance, kill -9) leaves its
/// staged file in derived/ beside the previous table; the next writer that
/// collects garbage removes it and keeps the table.
#[test]
fn leftover_derived_temp_files_are_collected() {
    let dir = tempfile::tempdir().unwrap();
    let ds = dir.path().join("ds").display().to_string();
    ingest_ok(&["data/fixtures/tcec.pgn"], &ds, &[]);
    let out = evallab(&["relevance", &ds], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let derived = Path::new(&ds).join("derived");
    let table = derived.join("relevance_moves.parquet");
    let before = std::fs::read(&table).unwrap();
    let staged = derived.join(".relevance_moves.parquet.999999.tmp");
    std::fs::write(&staged, b"half a table").unwrap();
    let out = evallab(&["ingest", "data/fixtures/cutechess.pgn", "-o", &ds], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(
        err.contains("removed leftover") && err.contains(".relevance_moves.parquet.999999.tmp"),
        "{err}"
    );
    assert!(!staged.exists());
    assert_eq!(std::fs::read(&table).unwrap(), before);
}

/// Issue 9, defect 2: a second writer is refused with the holder's name
/// instead of sharing part numbers and deleting the first one's temp files.
#[test]
fn second_writer_is_refused_while_the_first_holds_the_lock() {
    let dir = tempfile::tempdir().unwrap();
    let ds = dir.path().join("ds");
    let first = DatasetWriter::open(&ds, "ingest", Open::OrCreate).unwrap();
    let out = evallab(
        &[
            "ingest",
            "data/fixtures/tcec.pgn",
            "-o",
            &ds.display().to_string(),
        ],
        None,
    );
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(
        err.contains("is being written by")
            && err.contains(&format!("pid {}", std::process::id()))
            && err.contains("`evallab ingest`"),
        "{err}"
    );
    assert!(!ds.join("manifest.json").exists());
    drop(first);
    ingest_ok(&["data/fixtures/tcec.pgn"], &ds.display().to_string(), &[]);
}

/// Issue 9, defect 3: after an upgrade (another evallab or algorithm version
/// in the state), `run` recomputes instead of keeping stale results.
#[test]
fn pipeline_reruns_after_an_evallab_upgrade() {
    let dir = tempfile::tempdir().unwrap();
    let ds = dir.path().join("ds");
    let spec = dir.path().join("p.toml");
    std::fs::write(
        &spec,
        "[vars]\ndataset = \"x\"\n[[steps]]\nrun = \"ingest\"\ninputs = [\"data/fixtures/tcec.pgn\"]\n\
         [[steps]]\nrun = \"balance\"\nformat = \"csv\"\noutput = \"{dataset}/b.csv\"\n",
    )
    .unwrap();
    let args = [
        "run",
        &spec.display().to_string(),
        "--set",
        &format!("dataset={}", ds.display()),
    ]
    .map(String::from);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    assert!(evallab(&args, None).status.success());
    let unchanged = "skipped (inputs and parameters unchanged)";
    let again = text(&evallab(&args, None).stderr);
    assert_eq!(again.matches(unchanged).count(), 2, "{again}");
    let state_path = ds.join("derived/pipeline-state.json");
    let state = std::fs::read_to_string(&state_path).unwrap();
    let version = format!("\"evallab\": \"{}\"", env!("CARGO_PKG_VERSION"));
    assert_eq!(state.matches(&version).count(), 2, "{state}");
    // The results were computed by an older evallab.
    std::fs::write(
        &state_path,
        state.replace(&version, "\"evallab\": \"0.0.1\""),
    )
    .unwrap();
    let upgraded = text(&evallab(&args, None).stderr);
    assert!(!upgraded.contains(unchanged), "{upgraded}");
    assert!(upgraded.contains("last run by evallab 0.0.1"), "{upgraded}");
}

/// Issue 9, defect 4: every option is checked before anything is written —
/// `relevance --by season,engine` (then refused) used to write its per-move
/// table first.
#[test]
fn invalid_options_write_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let ds = dir.path().join("ds");
    let d = ds.display().to_string();
    ingest_ok(&["data/fixtures/tcec.pgn"], &d, &[]);
    let derived = ds.join("derived");
    let plot = dir.path().join("c.jpg").display().to_string();
    let toml = dir.path().join("x.toml");
    for args in [
        vec!["relevance", &d, "--event", "("],
        vec!["relevance", &d, "--format", "parquet"],
        vec!["eas", &d, "--games", "short"],
        vec!["eas", &d, "--event", "("],
        vec!["eas", &d, "--format", "parquet"],
    ] {
        let out = evallab(&args, None);
        assert!(!out.status.success(), "{args:?}");
        assert!(!derived.exists(), "{args:?} wrote {derived:?}");
    }
    let out = evallab(
        &[
            "calibrate",
            &d,
            "--plot",
            &plot,
            "--toml",
            &toml.display().to_string(),
        ],
        None,
    );
    assert!(text(&out.stderr).contains("plots are written as .svg or .png"));
    assert!(!out.status.success() && !toml.exists());
    assert_eq!(
        text(&out.stdout),
        "",
        "the table was printed before the check"
    );
    // A writer on a dataset that is not there creates nothing (its lock did
    // create the folder).
    let missing = dir.path().join("missing");
    let m = missing.display().to_string();
    let out = evallab(
        &["analyze", &m, "--uci", "/bin/false", "--depth", "1"],
        None,
    );
    assert!(
        text(&out.stderr).contains("not an evallab dataset"),
        "{}",
        text(&out.stderr)
    );
    assert!(!missing.exists(), "analyze created {missing:?}");
}

/// An option that does not apply to the output asked for is a usage error
/// naming both, never silently ignored.
#[test]
fn options_that_do_not_apply_are_usage_errors() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path().join("ds").display().to_string();
    ingest_ok(&["data/fixtures/tcec.pgn"], &d, &[]);
    let cases: [(&[&str], &str); 4] = [
        (
            &[
                "adjudicate",
                &d,
                "--rules",
                "tcec",
                "--check-clocks",
                "--by",
                "event",
            ],
            "'--check-clocks' cannot be used with '--by <BY>'",
        ),
        (
            &[
                "adjudicate",
                &d,
                "--rules",
                "tcec",
                "--games",
                "wrong",
                "--by",
                "event",
            ],
            "'--games <GAMES>' cannot be used with '--by <BY>'",
        ),
        (
            &[
                "adjudicate",
                &d,
                "--rules",
                "tcec",
                "--sweep",
                "tcec.draw.score=5..10:5",
                "--by",
                "event",
                "--plot",
                "x.svg",
            ],
            "--plot draws one point per setting: a sweep without --by",
        ),
        (
            &["pairs", &d, "--openings", "--by", "engine"],
            "cannot be used with",
        ),
    ];
    for (args, msg) in cases {
        let run = evallab(args, None);
        let err = text(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(msg), "{args:?}: {err}");
    }
}

/// Runs evallab with its stdout a pipe whose reader has already gone.
fn with_closed_stdout(args: &[&str]) -> std::process::ExitStatus {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    Command::new(env!("CARGO_BIN_EXE_evallab"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(writer)
        .stderr(Stdio::piped())
        .status()
        .unwrap()
}

/// Issue 9, defect 5: a closed stdout (`evallab schema | head -1`) is a normal
/// end, exit 0 — it used to panic (101) or fail (1).
#[test]
fn closed_stdout_exits_zero() {
    let dir = tempfile::tempdir().unwrap();
    let ds = dir.path().join("ds").display().to_string();
    ingest_ok(&["data/demo"], &ds, &[]);
    for args in [
        vec!["schema"],
        vec!["inspect", &ds],
        vec!["calc", "--limits"],
        vec!["balance", &ds],
        vec!["balance", &ds, "--format", "csv"],
    ] {
        let status = with_closed_stdout(&args);
        assert_eq!(status.code(), Some(0), "{args:?}");
    }
}

/// Issue 9, defect 5: each error kind has its exit code (see `evallab::error`).
#[test]
fn error_kinds_have_exit_codes() {
    let dir = tempfile::tempdir().unwrap();
    let ds = dir.path().join("ds").display().to_string();
    ingest_ok(&["data/fixtures/tcec.pgn"], &ds, &[]);
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let empty = empty.display().to_string();
    let not_toml = dir.path().join("x.toml");
    std::fs::write(&not_toml, "[[[").unwrap();
    let not_toml = not_toml.display().to_string();
    let cases: [(&[&str], i32, &str); 11] = [
        (&["balance", &ds, "--event", "("], 2, "--event: bad regex"),
        (
            &["wdl", &ds, "--validate", "--train", "(", "--test", "x"],
            2,
            "invalid value '(' for '--train <REGEX>'",
        ),
        (
            &[
                "report",
                &ds,
                "-o",
                &empty,
                "--wdl-train",
                "x",
                "--wdl-test",
                "[",
            ],
            2,
            "invalid value '[' for '--wdl-test <REGEX>'",
        ),
        (
            &["balance", &ds, "--family", "nope"],
            2,
            "--family: expected REGEX=NAME, got `nope`",
        ),
        (
            &["eas", &ds, "--engine", "[a"],
            2,
            "--engine: bad regex `[a`",
        ),
        (
            &["calc", "--limits", "--x05=-1"],
            2,
            "not a positive number of pawns",
        ),
        (&["ingest", &empty, "-o", &ds], 4, "no *.pgn* files"),
        (&["relevance", &ds, "--x05", &not_toml], 4, "not TOML"),
        (
            &["ingest", "no/such.pgn", "-o", &ds],
            5,
            "no/such.pgn: no such file or directory",
        ),
        (&["inspect", &empty], 6, "not an evallab dataset"),
        (
            &["calibrate", &ds, "--plot", "x.gif"],
            2,
            "plots are written as .svg or .png",
        ),
    ];
    for (args, code, msg) in cases {
        let out = evallab(args, None);
        assert_eq!(
            out.status.code(),
            Some(code),
            "{args:?}: {}",
            text(&out.stderr)
        );
        assert!(
            text(&out.stderr).contains(msg),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }
}

/// A selection that matches nothing is a usage error on every command that
/// selects, naming the flag and the nearest names, before any work: an empty
/// table with exit code 0 hid a typo (`--event "Superfnal"`).
#[test]
fn a_selection_matching_nothing_is_an_error_with_the_nearest_names() {
    let dir = tempfile::tempdir().unwrap();
    let ds = dir.path().join("ds").display().to_string();
    ingest_ok(&["data/fixtures/tcec.pgn"], &ds, &[]);
    let out = dir.path().join("out").display().to_string();
    let event = "--event: `Fixture TCCE` matches none of the 1 events of the dataset; \
                 the closest: `Fixture TCEC`";
    let stockfish = "/usr/games/stockfish";
    let cases: [(&[&str], &str); 9] = [
        (&["standings", &ds, "--event", "Fixture TCCE"], event),
        (&["relevance", &ds, "--event", "Fixture TCCE"], event),
        (&["eas", &ds, "--event", "Fixture TCCE"], event),
        (
            &["report", &ds, "-o", &out, "--event", "Fixture TCCE"],
            event,
        ),
        (
            &["annotate", &ds, "-o", &out, "--event", "Fixture TCCE"],
            event,
        ),
        (
            &["balance", &ds, "--engine", "Engine C"],
            "--engine: `Engine C` matches none of the 2 engines of the dataset; \
             the closest: `Engine A 1.0`, `Engine B 2.0`",
        ),
        (
            &["ratings", &ds, "--event", "TCEC", "--engine", "^Stockfish"],
            "--engine: `^Stockfish` matches none of the 2 engines of the selected events",
        ),
        (
            &[
                "analyze", &ds, "--uci", stockfish, "--nodes", "1", "--player", "Engine C",
            ],
            "--player: `Engine C` matches none of the 2 players of the dataset",
        ),
        (
            &[
                "match",
                &ds,
                "--uci",
                stockfish,
                "--player",
                "Engine A",
                "--event",
                "Fixture TCCE",
                "-o",
                &out,
            ],
            event,
        ),
    ];
    for (args, msg) in cases {
        let run = evallab(args, None);
        let err = text(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(msg), "{args:?}: {err}");
    }
    // Nothing was written: not the report, not the PGN, no analysis run.
    assert!(!std::path::Path::new(&out).exists());
    assert!(!std::path::Path::new(&ds).join("analysis").exists());
    // A selection that matches runs as before.
    let run = evallab(&["standings", &ds, "--event", "^Fixture TCEC$"], None);
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    // A family that merges nothing runs too, with a note naming it.
    let run = evallab(
        &[
            "standings",
            &ds,
            "--family",
            "^Engine A=A",
            "--family",
            "^Engin C=C",
        ],
        None,
    );
    let err = text(&run.stderr);
    assert_eq!(run.status.code(), Some(0), "{err}");
    assert!(
        err.contains(
            "note: --family merges nothing: `^Engin C` matches none of the 2 players \
             of the dataset; the closest: `Engine A 1.0`, `Engine B 2.0`"
        ),
        "{err}"
    );
    assert!(!err.contains("`^Engine A`"), "{err}");
}

/// `annotate --game ID`: an id that is no game of the dataset is named, not
/// silently left out of the PGN.
#[test]
fn annotate_names_an_unknown_game_id() {
    use evallab::dataset::Dataset;
    use evallab::schema::{GAMES, col};
    let dir = tempfile::tempdir().unwrap();
    let ds = dir.path().join("ds").display().to_string();
    ingest_ok(&["data/fixtures/tcec.pgn"], &ds, &[]);
    let games = Dataset::open(std::path::Path::new(&ds))
        .unwrap()
        .scan(&GAMES)
        .unwrap()
        .collect()
        .unwrap();
    let known = games
        .column(col::GAME_ID)
        .unwrap()
        .i64()
        .unwrap()
        .get(0)
        .unwrap();
    let unknown = if known == 999 { 998 } else { 999 };
    let out = dir.path().join("a.pgn").display().to_string();
    let (known, unknown) = (known.to_string(), unknown.to_string());
    let run = evallab(
        &[
            "annotate", &ds, "-o", &out, "--game", &known, "--game", &unknown,
        ],
        None,
    );
    assert_eq!(run.status.code(), Some(2), "{}", text(&run.stderr));
    assert!(
        text(&run.stderr).contains(&format!("--game: no game with id {unknown} in the dataset")),
        "{}",
        text(&run.stderr)
    );
    assert!(!std::path::Path::new(&out).exists());
    let run = evallab(&["annotate", &ds, "-o", &out, "--game", &known], None);
    assert_eq!(run.status.code(), Some(0), "{}", text(&run.stderr));
    assert!(
        text(&run.stderr).contains("1 games annotated"),
        "{}",
        text(&run.stderr)
    );
}

/// `annotate` writes its games in the input's order (it wrote them by game
/// id, a hash: rounds 9.8, 10.3, 8.2 …), and a listing's `--pgn` of an empty
/// listing is an empty file, not the error of a selection that matched nothing.
#[test]
fn annotated_games_keep_the_input_order_and_an_empty_listing_is_no_error() {
    let dir = tempfile::tempdir().unwrap();
    let ds = dir.path().join("ds").display().to_string();
    let input = "data/fixtures/eas_readings.pgn";
    ingest_ok(&[input], &ds, &[]);
    let rounds = |pgn: &str| -> Vec<String> {
        pgn.lines()
            .filter(|l| l.starts_with("[Round "))
            .map(str::to_string)
            .collect()
    };
    let want = rounds(&std::fs::read_to_string(input).unwrap());
    assert_eq!(want.len(), 9);
    let out = dir.path().join("a.pgn").display().to_string();
    let run = evallab(&["annotate", &ds, "-o", &out, "--event", "."], None);
    assert!(run.status.success(), "{}", text(&run.stderr));
    assert_eq!(rounds(&std::fs::read_to_string(&out).unwrap()), want);
    // No game of the TCEC fixture ends by a TCEC rule wrongly: an empty listing.
    let ds = dir.path().join("tcec").display().to_string();
    ingest_ok(&["data/fixtures/tcec.pgn"], &ds, &[]);
    let pgn = dir.path().join("wrong.pgn");
    let run = evallab(
        &[
            "adjudicate",
            &ds,
            "--rules",
            "tcec",
            "--games",
            "wrong",
            "--pgn",
            &pgn.display().to_string(),
            "--format",
            "csv",
        ],
        None,
    );
    assert!(run.status.success(), "{}", text(&run.stderr));
    assert_eq!(
        text(&run.stdout).lines().count(),
        1,
        "{}",
        text(&run.stdout)
    );
    assert_eq!(std::fs::read_to_string(&pgn).unwrap(), "");
    assert!(
        text(&run.stderr).contains("0 games written"),
        "{}",
        text(&run.stderr)
    );
}

/// The EAS labels are a cache: while another process holds the dataset's lock
/// they are computed and returned, not stored (a reader such as `report` must
/// not fail because `eas` runs beside it); once the lock is free, stored.
#[test]
fn labels_cache_is_skipped_not_failed_while_the_dataset_is_locked() {
    use evallab::dataset::Dataset;
    use evallab::metrics::eas::stored_labels;
    use evallab::schema::{EAS_LABELS, derived_file};
    let dir = tempfile::tempdir().unwrap();
    let ds = dir.path().join("ds");
    ingest_ok(&["data/fixtures/tcec.pgn"], &ds.display().to_string(), &[]);
    let file = ds.join(derived_file(&EAS_LABELS));
    let held = DatasetWriter::open(&ds, "ingest", Open::Existing).unwrap();
    let (df, computed) = stored_labels(&Dataset::open(&ds).unwrap(), false).unwrap();
    assert!(computed && df.height() > 0 && !file.exists());
    drop(held);
    let (again, computed) = stored_labels(&Dataset::open(&ds).unwrap(), false).unwrap();
    assert!(computed && file.exists());
    assert_eq!(again, df);
    // Then read back, stamped with the parts it was computed from.
    let (stored, computed) = stored_labels(&Dataset::open(&ds).unwrap(), false).unwrap();
    assert!(!computed);
    assert_eq!(stored, df);
}

/// Inputs that hold no game (a saved "404" page) are no PGN: exit 4 with
/// their reject recorded; with --overwrite, and with a cut download, the
/// dataset stays as it was (it was emptied, or replaced by the cut file).
#[test]
fn inputs_without_a_game_never_replace_a_dataset() {
    let dir = tempfile::tempdir().unwrap();
    let ds = dir.path().join("ds").display().to_string();
    ingest_ok(&["data/fixtures/tcec.pgn"], &ds, &[]);
    assert_eq!(counts(&ds), (2, 0));
    let page = dir.path().join("404.pgn");
    std::fs::write(&page, "<html>404 Not Found</html>\n").unwrap();
    let page = page.display().to_string();
    let out = evallab(&["ingest", &page, "-o", &ds, "--overwrite"], None);
    assert_eq!(out.status.code(), Some(4), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr)
            .contains("no PGN game could be read (1 rejected); --overwrite kept the dataset")
    );
    assert_eq!(counts(&ds), (2, 0));
    // A cut download does not replace it either.
    let cut = dir.path().join("cut.pgn");
    std::fs::write(
        &cut,
        "[Event \"x\"]\n\n1. e4 e5 1-0\n\n[Event \"y\"]\n\n1. d4 d5 2. c4",
    )
    .unwrap();
    let out = evallab(
        &[
            "ingest",
            &cut.display().to_string(),
            "-o",
            &ds,
            "--overwrite",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(4), "{}", text(&out.stderr));
    assert_eq!(counts(&ds), (2, 0));
    // Added to a dataset, the page's reject is in, and the code says no PGN.
    let other = dir.path().join("other").display().to_string();
    let out = evallab(&["ingest", &page, "-o", &other], None);
    assert_eq!(out.status.code(), Some(4), "{}", text(&out.stderr));
    assert_eq!(counts(&other), (0, 1));
}

/// `commit` on a mistyped folder says so, and creates nothing (it made the
/// folder and said "0 shards committed").
#[test]
fn commit_names_a_folder_that_is_not_there() {
    let dir = tempfile::tempdir().unwrap();
    let typo = dir.path().join("nonexist_ds");
    let out = evallab(&["commit", &typo.display().to_string()], None);
    assert_eq!(out.status.code(), Some(6), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("no such folder: no dataset and no shards to commit"));
    assert!(!typo.exists());
}

/// A dataset shared read-only (an archive on a server, another user's
/// folder) serves every reader: `eas` and `report` compute the EAS labels and
/// do not store them, `relevance` writes its per-move table where
/// `--moves-out` says, and without it names that option. Run as `nobody`
/// (root ignores file modes), from a copy of the binary that user may run.
#[test]
fn a_read_only_dataset_serves_every_reader() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let mode = |p: &Path, m: u32| std::fs::set_permissions(p, std::fs::Permissions::from_mode(m));
    mode(root, 0o755).unwrap();
    let ds = root.join("ds");
    ingest_ok(&["data/fixtures/tcec.pgn"], &ds.display().to_string(), &[]);
    let out = root.join("out");
    std::fs::create_dir(&out).unwrap();
    mode(&out, 0o777).unwrap();
    let exe = root.join("evallab");
    std::fs::copy(env!("CARGO_BIN_EXE_evallab"), &exe).unwrap();
    mode(&exe, 0o755).unwrap();
    // Every file readable, nothing writable.
    let status = Command::new("chmod")
        .args(["-R", "a+rX,a-w"])
        .arg(&ds)
        .status();
    assert!(status.unwrap().success());
    let root_user = unsafe { libc::geteuid() } == 0;
    let run = |args: &[&str]| {
        let mut cmd = if root_user {
            let mut c = Command::new("setpriv");
            c.args(["--reuid=65534", "--regid=65534", "--clear-groups"])
                .arg(&exe);
            c
        } else {
            Command::new(&exe)
        };
        cmd.args(args).current_dir(root).output().unwrap()
    };
    let ds_s = ds.display().to_string();
    let before = std::fs::read_dir(&ds).unwrap().count();
    for args in [
        vec!["eas", ds_s.as_str()],
        vec!["report", ds_s.as_str(), "-o", "out/report"],
        vec!["relevance", ds_s.as_str(), "--moves-out", "out/rel.parquet"],
        vec!["standings", ds_s.as_str()],
    ] {
        let o = run(&args);
        assert!(o.status.success(), "{args:?}: {}", text(&o.stderr));
    }
    assert!(out.join("report/index.html").is_file() && out.join("rel.parquet").is_file());
    let o = run(&["relevance", &ds_s]);
    assert_eq!(o.status.code(), Some(5), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("--moves-out FILE"),
        "{}",
        text(&o.stderr)
    );
    // Nothing stored in the dataset: no derived folder, no lock file.
    assert_eq!(std::fs::read_dir(&ds).unwrap().count(), before);
    assert!(!ds.join("derived").exists());
    let _ = Command::new("chmod").args(["-R", "u+w"]).arg(&ds).status();
}

/// Issue 29: a truncated download keeps its games before the damage, lists
/// the cut one in `rejects`, and exits with code 9 (complete but for what
/// `rejects` lists), ahead of --strict's 3.
#[test]
fn truncated_input_exits_nine_with_its_earlier_games() {
    use evallab::schema::{REJECTS, col};
    use polars::prelude::*;
    let dir = tempfile::tempdir().unwrap();
    let cut = dir.path().join("cut.pgn.zst");
    crate::fixtures::truncated_copies(&cut);
    let ds = dir.path().join("ds").display().to_string();
    let out = evallab(
        &[
            "ingest",
            &cut.display().to_string(),
            "-o",
            &ds,
            "--quiet",
            "--strict",
        ],
        None,
    );
    assert_eq!(out.status.code(), Some(9), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("end early"),
        "{}",
        text(&out.stderr)
    );
    let (games, rejects) = counts(&ds);
    assert!(games > 0 && games < 2 * 600, "{games} games kept of 1200");
    assert_eq!(rejects, 1);
    let ds = evallab::dataset::Dataset::open(Path::new(&ds)).unwrap();
    let reason = ds
        .scan(&REJECTS)
        .unwrap()
        .select([col(col::REASON)])
        .collect()
        .unwrap();
    let reason = reason
        .column(col::REASON)
        .unwrap()
        .str()
        .unwrap()
        .get(0)
        .unwrap()
        .to_string();
    assert!(reason.starts_with("truncated input"), "{reason}");
}

/// `EVALLAB_PROGRESS=json` (the Python API's): ingest's progress as JSON
/// lines on stderr, the bytes counted up to the inputs' total (their sizes on
/// disk, summed here), the summary after them; `--quiet` silences them.
#[test]
fn json_progress_lines_for_a_reader_of_stderr() {
    let dir = tempfile::tempdir().unwrap();
    let ds = dir.path().join("ds").display().to_string();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let inputs = [
        "data/demo/demo_cutechess.pgn.gz",
        "data/demo/demo_tcec.pgn.zst",
    ];
    let bytes: u64 = inputs
        .iter()
        .map(|f| std::fs::metadata(root.join(f)).unwrap().len())
        .sum();
    let run = |quiet: bool| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_evallab"));
        cmd.args(["ingest", inputs[0], inputs[1], "-o", &ds, "--overwrite"])
            .current_dir(root)
            .env("EVALLAB_PROGRESS", "json");
        if quiet {
            cmd.arg("--quiet");
        }
        cmd.output().unwrap()
    };
    let out = run(false);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stderr = text(&out.stderr);
    let lines: Vec<&str> = stderr.lines().collect();
    let progress: Vec<serde_json::Value> = lines
        .iter()
        .take_while(|l| l.starts_with("{\"progress\":"))
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["progress"].clone())
        .collect();
    assert!(!progress.is_empty(), "{stderr}");
    let last = progress.last().unwrap();
    assert_eq!(last["done"], bytes, "{stderr}");
    assert_eq!(last["total"], bytes);
    assert_eq!(last["unit"], "bytes");
    assert_eq!(
        last["message"],
        "2/2 files, 264 games, 0 rejects, 27090 plies"
    );
    let done: Vec<u64> = progress
        .iter()
        .map(|p| p["done"].as_u64().unwrap())
        .collect();
    assert!(done.windows(2).all(|w| w[0] <= w[1]), "{done:?}");
    // The summary follows the progress lines.
    assert!(
        lines[progress.len()].starts_with("ingested 2 files: 264 games"),
        "{stderr}"
    );
    let quiet = run(true);
    assert!(quiet.status.success());
    assert!(quiet.stderr.is_empty(), "{}", text(&quiet.stderr));
}

/// The bootstraps' progress (`wdl`, `calibrate`) ends at its total, also
/// when groups without a fit skip their resamples (the demo's engines, 4
/// groups: 4 × (1 + 20) fits; the calibrations count groups).
#[test]
fn bootstrap_progress_reaches_its_total() {
    let dir = tempfile::tempdir().unwrap();
    let ds = dir.path().join("ds").display().to_string();
    let out = evallab(&["ingest", "data/demo", "-o", &ds, "--quiet"], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    for (args, unit, total) in [
        (
            vec![
                "wdl",
                &ds,
                "--by",
                "engine",
                "--bootstrap",
                "20",
                "--min-positions",
                "3000",
            ],
            "fits",
            84,
        ),
        (vec!["calibrate", &ds, "--bootstrap", "50"], "groups", 4),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_evallab"))
            .args(&args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .env("EVALLAB_PROGRESS", "json")
            .output()
            .unwrap();
        let stderr = text(&out.stderr);
        assert!(out.status.success(), "{stderr}");
        let last = stderr
            .lines()
            .filter_map(|l| l.strip_prefix("{\"progress\":"))
            .next_back()
            .unwrap_or_else(|| panic!("{args:?}: no progress in {stderr}"));
        let p: serde_json::Value = serde_json::from_str(&format!("{{\"p\":{last}")).unwrap();
        assert_eq!(
            (p["p"]["done"].as_u64(), p["p"]["total"].as_u64()),
            (Some(total), Some(total)),
            "{args:?}"
        );
        assert_eq!(p["p"]["unit"], unit);
    }
}

/// Events in the order people number them, in every command's table and in
/// `inspect` ("S 9" before "S 10", though "S 1" sorts first as text), each
/// event's rows in the command's own order (rank 1 first).
#[test]
fn events_in_number_order() {
    let dir = tempfile::tempdir().unwrap();
    let game = |event: &str, white: &str, black: &str, result: &str| {
        format!(
            "[Event \"{event}\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n\
             [Result \"{result}\"]\n\n1. e4 e5 {result}\n\n"
        )
    };
    let pgn = [
        game("S 10", "B", "A", "1-0"),
        game("S 9", "A", "B", "1-0"),
        game("S 9", "B", "A", "1/2-1/2"),
    ]
    .concat();
    let input = dir.path().join("s.pgn");
    std::fs::write(&input, pgn).unwrap();
    let ds = dir.path().join("ds").display().to_string();
    ingest_ok(&[&input.display().to_string()], &ds, &[]);
    let out = evallab(&["standings", &ds, "--format", "csv"], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let rows: Vec<String> = text(&out.stdout)
        .lines()
        .skip(1)
        .map(|l| l.split(',').take(3).collect::<Vec<_>>().join(","))
        .collect();
    assert_eq!(rows, ["S 9,1,A", "S 9,2,B", "S 10,1,B", "S 10,2,A"]);
    let out = evallab(&["inspect", &ds], None);
    let t = text(&out.stdout);
    let at = |e: &str| {
        t.find(&format!("| {e} "))
            .unwrap_or_else(|| panic!("{e}: {t}"))
    };
    assert!(at("S 9") < at("S 10"), "{t}");
}

/// An engine named like a fixed column (`engine`, `games`) keeps both in
/// the wide crosstable and the LOS matrix: its column is `vs engine` (the
/// crosstable overwrote the fixed column; the matrix failed).
#[test]
fn an_engine_named_like_a_column_gets_vs() {
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("g.pgn");
    let game = |w: &str, b: &str, r: &str| {
        format!(
            "[Event \"E\"]\n[White \"{w}\"]\n[Black \"{b}\"]\n[Result \"{r}\"]\n\n1. e4 e5 {r}\n\n"
        )
    };
    let games = [
        game("engine", "B", "1-0"),
        game("B", "engine", "1/2-1/2"),
        game("B", "engine", "0-1"),
    ]
    .concat();
    std::fs::write(&pgn, games).unwrap();
    let ds = dir.path().join("ds").display().to_string();
    ingest_ok(&[&pgn.display().to_string()], &ds, &[]);
    let out = evallab(&["crosstable", &ds, "--wide", "--format", "csv"], None);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "event,rank,engine,points,games,vs engine,B\nE,1,engine,2.5,3,,2.5/3\nE,2,B,0.5,3,0.5/3,\n"
    );
    let los = dir.path().join("los.csv");
    let los_s = los.display().to_string();
    let out = evallab(
        &[
            "ratings",
            &ds,
            "--white",
            "30",
            "--bootstrap",
            "50",
            "--los-matrix",
            &los_s,
            "--format",
            "csv",
        ],
        None,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let matrix = std::fs::read_to_string(&los).unwrap();
    assert!(matrix.starts_with("engine,vs engine,B\n"), "{matrix}");
}
