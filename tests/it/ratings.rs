//! `evallab ratings` on `tests/data/ratings.pgn` against Ordo 1.2.6.
//!
//! The expected numbers are Ordo's, on the fixture's "Fixture League" games
//! (52 games; saved alone as league.pgn):
//!
//! ```text
//! ordo -p league.pgn -W -D -a 2300 -N 3,2 -G
//!    1 Alpha      :  2370.449    15.0      24  62.50
//!    2 Beta       :  2334.984    13.5      24  56.25
//!    3 Gamma      :  2276.891    13.0      26  50.00
//!    4 Delta      :  2217.676    10.5      26  40.38
//!    5 Epsilon  < :  1798.963     0.0       4   0.00
//! White advantage = 63.20
//! Draw rate (equal opponents) = 60.89 %
//!
//! ordo -p league.pgn -w 40 -d 55 -A Delta -a 2000 -N 3,2 -G
//!    1 Alpha      :  2149.967    15.0      24  62.50
//!    2 Beta       :  2115.150    13.5      24  56.25
//!    3 Gamma      :  2058.136    13.0      26  50.00
//!    4 Delta      :  2000.000    10.5      26  40.38
//!    5 Epsilon  < :  1593.037     0.0       4   0.00
//!
//! ordo -p league.pgn -W -D -a 2300 -s 1000 -N 3,2 -G -J
//!    1 Alpha     :  2370.449  87.600    15.0      24  62.50      72
//!    2 Beta      :  2334.984  86.561    13.5      24  56.25      83
//!    3 Gamma     :  2276.891  75.299    13.0      26  50.00      84
//!    4 Delta     :  2217.676  72.027    10.5      26  40.38     ---
//! White advantage = 63.20 +/- 36.48
//! Draw rate (equal opponents) = 60.89 % +/- 9.06
//! ```
//!
//! (-G: Ordo 1.2.6 refuses a pool with an engine that lost every game
//! unless forced, docs/definitions/ratings.md R6.)

use crate::analyze::{evallab, text};
use crate::fixtures::printed;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The fixture ingested once.
fn dataset() -> &'static Path {
    static DS: OnceLock<PathBuf> = OnceLock::new();
    DS.get_or_init(|| {
        let ds = super::binary_tempdir().join("ratings-ds");
        let out = evallab(&[
            "ingest",
            "tests/data/ratings.pgn",
            "-o",
            &ds.display().to_string(),
        ]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        ds
    })
}

/// Rows of a CSV file as maps from header to value.
fn read_csv(path: &Path) -> Vec<Row> {
    let body = std::fs::read_to_string(path).unwrap();
    let mut lines = body.lines();
    let header: Vec<String> = lines.next().unwrap().split(',').map(String::from).collect();
    lines
        .map(|l| {
            header
                .iter()
                .cloned()
                .zip(l.split(',').map(String::from))
                .collect()
        })
        .collect()
}

/// A CSV row by column name.
type Row = HashMap<String, String>;

/// Runs `ratings` with `args` to CSV: (ratings by engine, summary rows).
fn ratings(args: &[&str]) -> (HashMap<String, Row>, Vec<Row>) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r.csv");
    let ds = dataset().display().to_string();
    let mut all = vec!["ratings", ds.as_str(), "--format", "csv", "-o"];
    let out_s = out.display().to_string();
    all.push(&out_s);
    all.extend(args);
    let o = evallab(&all);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let rows = read_csv(&out)
        .into_iter()
        .map(|r| (r["engine"].clone(), r))
        .collect();
    (rows, read_csv(&dir.path().join("r.summary.csv")))
}

fn num(row: &Row, c: &str) -> f64 {
    row[c]
        .parse()
        .unwrap_or_else(|_| panic!("{c}: {:?}", row[c]))
}

#[test]
fn equal_to_ordo_fitted_fixed_and_anchored() {
    for solver in ["newton", "ordo"] {
        equal_to_ordo_with(solver);
    }
}

fn equal_to_ordo_with(solver: &str) {
    let (r, s) = ratings(&["--event", "League", "--bootstrap", "0", "--solver", solver]);
    for (engine, want) in [
        ("Alpha", 2370.449),
        ("Beta", 2334.984),
        ("Gamma", 2276.891),
        ("Delta", 2217.676),
        ("Epsilon", 1798.963),
    ] {
        let got = num(&r[engine], "rating");
        assert!(
            (got - want).abs() < 0.01,
            "{solver} {engine}: {got} vs Ordo {want}"
        );
    }
    assert_eq!(num(&r["Gamma"], "points"), 13.0);
    assert_eq!(num(&r["Gamma"], "played"), 26.0);
    assert_eq!(r["Epsilon"]["kind"], "all losses");
    assert_eq!(printed(num(&s[0], "white_advantage"), 2), 63.2);
    assert_eq!(printed(num(&s[0], "draw_rate_pct"), 2), 60.89);
    // No replays: no errors.
    assert_eq!(r["Alpha"]["error"], "");

    let (r, s) = ratings(&[
        "--event",
        "League",
        "--white",
        "40",
        "--draw-rate",
        "55",
        "--anchor",
        "Delta",
        "--average",
        "2000",
        "--bootstrap",
        "0",
        "--solver",
        solver,
    ]);
    for (engine, want) in [
        ("Alpha", 2149.967),
        ("Beta", 2115.150),
        ("Gamma", 2058.136),
        ("Delta", 2000.0),
        ("Epsilon", 1593.037),
    ] {
        let got = num(&r[engine], "rating");
        assert!(
            (got - want).abs() < 0.01,
            "{solver} {engine}: {got} vs Ordo {want}"
        );
    }
    assert_eq!(printed(num(&s[0], "white_advantage"), 2), 40.0);
    assert_eq!(s[0]["reference"], "Delta = 2000");
}

/// Errors by simulation within 15 % of Ordo's (both are 1,000 replays:
/// about 2 % noise each), and the same seed gives the same output.
#[test]
fn errors_near_ordo_and_seeded() {
    let (r, s) = ratings(&["--event", "League", "--seed", "3"]);
    for (engine, want) in [
        ("Alpha", 87.600),
        ("Beta", 86.561),
        ("Gamma", 75.299),
        ("Delta", 72.027),
    ] {
        let ratio = num(&r[engine], "error") / want;
        assert!((0.85..1.15).contains(&ratio), "{engine}: ratio {ratio}");
    }
    let ratio = num(&s[0], "white_sd") / 36.48;
    assert!((0.85..1.15).contains(&ratio), "white sd ratio {ratio}");
    let ratio = num(&s[0], "draw_rate_sd_pct") / 9.06;
    assert!((0.85..1.15).contains(&ratio), "draw sd ratio {ratio}");
    // CFS of Alpha over Beta: Ordo 72 %.
    assert!((num(&r["Alpha"], "cfs_next") - 72.0).abs() < 5.0);
    let (again, _) = ratings(&["--event", "League", "--seed", "3"]);
    assert_eq!(r, again);
    let (other, _) = ratings(&["--event", "League", "--seed", "4"]);
    assert_ne!(r["Alpha"]["error"], other["Alpha"]["error"]);
    // The LOS matrix: its first row beside the table's CFS, and P(A > B) +
    // P(B > A) = 100 %.
    let dir = tempfile::tempdir().unwrap();
    let los = dir.path().join("los.csv");
    let (r, _) = ratings(&[
        "--event",
        "League",
        "--seed",
        "3",
        "--los-matrix",
        &los.display().to_string(),
    ]);
    let m: HashMap<String, Row> = read_csv(&los)
        .into_iter()
        .map(|row| (row["engine"].clone(), row))
        .collect();
    assert_eq!(m["Alpha"]["Beta"], r["Alpha"]["cfs_next"]);
    assert_eq!(m["Alpha"]["Alpha"], "");
    let sum = num(&m["Gamma"], "Delta") + num(&m["Delta"], "Gamma");
    assert!((sum - 100.0).abs() < 0.011, "{sum}");
}

#[test]
fn groups_are_reported_not_rated_silently() {
    let ds = dataset().display().to_string();
    // The island's two engines played nobody in the league.
    let out = evallab(&["ratings", &ds]);
    assert_eq!(out.status.code(), Some(4), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(err.contains("2 groups of 5, 2 engines"), "{err}");
    assert!(err.contains("--each-group"), "{err}");
    let out = evallab(&["ratings", &ds, "--groups", "--format", "csv"]);
    let listing = text(&out.stdout);
    assert!(listing.contains("Xray,2,2,normal,1.0,4"), "{listing}");
    assert!(
        listing.contains("Epsilon,1,5,all losses,0.0,4"),
        "{listing}"
    );
    // Each group on its own: both average 2300 over their normal engines.
    let (r, s) = ratings(&["--each-group", "--bootstrap", "0"]);
    assert_eq!(s.len(), 2);
    let x = num(&r["Xray"], "rating");
    let y = num(&r["Yankee"], "rating");
    assert!(((x + y) / 2.0 - 2300.0).abs() < 0.01);
    assert_eq!(r["Xray"]["group"], "2");
    // Two engines that met once, one winning: both are set aside (R6) and
    // neither has an opponent in a group, yet both are listed, unrated.
    for e in ["Kilo", "Kilo_copy"] {
        assert_eq!(r[e]["rating"], "", "{e}");
        assert!(r[e]["reason"].starts_with("won or lost every game"), "{e}");
    }
    assert_eq!(r["Kilo"]["kind"], "all wins");
    // Anchored in the league: the island is listed with its reason, unrated.
    let (r, _) = ratings(&["--each-group", "--anchor", "Alpha", "--bootstrap", "0"]);
    assert_eq!(r["Xray"]["rating"], "");
    assert_eq!(r["Xray"]["reason"], "not connected to the anchor's group");
}

#[test]
fn an_unknown_anchor_is_named() {
    let ds = dataset().display().to_string();
    let out = evallab(&["ratings", &ds, "--event", "League", "--anchor", "Zeta"]);
    assert_eq!(out.status.code(), Some(2));
    // Named, with the nearest name of the selection: Zeta is one letter from Beta.
    assert!(
        text(&out.stderr).contains("`Zeta`") && text(&out.stderr).contains("; the closest: `Beta`"),
        "{}",
        text(&out.stderr)
    );
    let out = evallab(&["ratings", &ds, "--draw-rate", "often"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("`often` is neither `auto` nor a number"));
}

/// R8's degenerate case on `tests/data/ratings-bound.pgn` (8 games, three
/// White wins, five draws, no Black win). Ordo 1.2.6 on it:
///
/// ```text
/// ordo -p ratings-bound.pgn -W -D -a 2300 -N 3,2 -s 1000
///    1 Kilo      :  2325.751  97.255     4.5       8  56.25
///    2 Lima      :  2274.249  97.255     3.5       8  43.75
/// White advantage = 141.02 +/- 97.03
/// Draw rate (equal opponents) = 99.75 % +/- 7.06
/// ```
///
/// With `--solver newton` (the default) the ratings and white advantage are
/// Ordo's; the draw rate is the identity's 100 %, where Ordo's search stops
/// short; and the summary says that the errors, from replays that cannot
/// give Black a win, understate the uncertainty (here 69 against Ordo's 97).
/// With `--solver ordo` every printed figure is Ordo's (R8a).
#[test]
fn a_draw_rate_at_its_bound_is_flagged() {
    let dir = tempfile::tempdir().unwrap();
    let ds = dir.path().join("ds").display().to_string();
    let out = evallab(&["ingest", "tests/data/ratings-bound.pgn", "-o", &ds]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let run = |solver: &str| {
        let csv = dir.path().join(format!("{solver}.csv"));
        let csv_s = csv.display().to_string();
        let args = [
            "ratings", &ds, "--solver", solver, "--format", "csv", "-o", &csv_s,
        ];
        let out = evallab(&args);
        assert!(out.status.success(), "{}", text(&out.stderr));
        let r: HashMap<String, Row> = read_csv(&csv)
            .into_iter()
            .map(|row| (row["engine"].clone(), row))
            .collect();
        assert!((num(&r["Kilo"], "rating") - 2325.751).abs() < 0.5);
        assert!((num(&r["Lima"], "rating") - 2274.249).abs() < 0.5);
        let s = read_csv(&dir.path().join(format!("{solver}.summary.csv"))).remove(0);
        assert!((num(&s, "white_advantage") - 141.02).abs() < 0.01);
        assert_eq!(s["solver"], solver);
        (num(&r["Kilo"], "error"), s)
    };
    let (error, s) = run("newton");
    assert_eq!(printed(num(&s, "draw_rate_pct"), 2), 100.0);
    assert!(error < 0.8 * 97.255, "{error}");
    assert!(s["note"].contains("understate"), "{s:?}");
    let (error, s) = run("ordo");
    assert_eq!(printed(num(&s, "draw_rate_pct"), 2), 99.75);
    assert!((error / 97.255 - 1.0).abs() < 0.1, "{error}");
    assert!((num(&s, "white_sd") / 97.03 - 1.0).abs() < 0.1, "{s:?}");
    assert!(
        (num(&s, "draw_rate_sd_pct") / 7.06 - 1.0).abs() < 0.1,
        "{s:?}"
    );
    assert!(s["note"].contains("search stops short"), "{s:?}");
    // The report rates the same way with --solver ordo.
    let html_dir = dir.path().join("report");
    let html_s = html_dir.display().to_string();
    let out = evallab(&["report", &ds, "-o", &html_s, "--solver", "ordo"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let html = std::fs::read_to_string(html_dir.join("index.html")).unwrap();
    // Rounded as the report rounds them: whole Elo, draw rate to a tenth.
    assert!(html.contains("<td>141</td>"), "white advantage");
    assert!(
        html.contains(&format!("<td>{:.1}</td>", 99.75)),
        "Ordo's draw rate"
    );
    assert!(html.contains("<td>ordo</td>"), "the solver");
    // The league's games have wins for both colours: no note.
    let (_, s) = ratings(&["--event", "League"]);
    assert_eq!(s[0]["note"], "");
}

/// Off R8's degenerate case both solvers reach the same root: on the
/// league fixture every rating, the white advantage and the draw rate agree
/// to their printed digits, and the errors within simulation noise.
#[test]
fn both_solvers_agree_where_the_equations_are_not_flat() {
    let (newton, sn) = ratings(&["--event", "League"]);
    let (ordo, so) = ratings(&["--event", "League", "--solver", "ordo"]);
    assert_eq!(newton.len(), ordo.len());
    for (engine, row) in &newton {
        let o = &ordo[engine];
        assert!(
            (num(row, "rating") - num(o, "rating")).abs() <= 0.011,
            "{engine}"
        );
        if !row["error"].is_empty() {
            assert!(
                (num(row, "error") / num(o, "error") - 1.0).abs() < 0.1,
                "{engine}"
            );
        }
    }
    for k in ["white_advantage", "draw_rate_pct"] {
        assert!((num(&sn[0], k) - num(&so[0], k)).abs() <= 0.011, "{k}");
    }
}
