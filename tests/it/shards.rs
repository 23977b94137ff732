//! Sharded work: `ingest --shard` + `commit` give the dataset a one-process
//! ingest gives (row for row), committing is idempotent and all-or-nothing,
//! half-written shards stay invisible; the statistics from per-part facts
//! (`evallab facts`) equal the one-process ones.

use std::fs;
use std::path::Path;

use evallab::dataset::Dataset;
use evallab::dataset::shard::{SHARD_FILE, commit_shards, shard_dir};
use evallab::ingest::{IngestOptions, ingest, ingest_shard};
use evallab::metrics::balance::{BalanceOptions, Group, balance, game_facts, select_facts};
use evallab::metrics::calibrate::{calibrate_group, observations};
use evallab::metrics::eas::{EasOptions, labels, score};
use evallab::metrics::facts::{read_facts, write_facts};
use evallab::schema::{GAMES, MOVES, REJECTS, TABLES};
use polars::prelude::*;

use crate::fixtures::{fixture, sorted_tables};

/// Three shards of two files each, in the order one ingest reads them.
const SHARDS: [[&str; 2]; 3] = [
    ["tcec.pgn", "cutechess.pgn"],
    ["malformed.pgn", "eas_rules.pgn"],
    ["eas_score.pgn", "chess960.pgn"],
];

fn opts() -> IngestOptions {
    IngestOptions {
        jobs: 2,
        batch_bytes: 1 << 16,
        ..IngestOptions::default()
    }
}

fn files(names: &[&str]) -> Vec<String> {
    names.iter().map(|f| fixture(f)).collect()
}

fn one_process(dir: &Path) -> Dataset {
    let all: Vec<&str> = SHARDS.iter().flatten().copied().collect();
    ingest(dir, &files(&all), opts(), &mut |_| {}).unwrap();
    Dataset::open(dir).unwrap()
}

fn write_shards(root: &Path) {
    for (i, s) in SHARDS.iter().enumerate() {
        let rep = ingest_shard(root, &format!("s{i}"), &files(s), opts(), &mut |_| {}).unwrap();
        assert_eq!(rep.inputs.len(), 2);
    }
}

fn frame(ds: &Dataset, t: &evallab::schema::Table) -> DataFrame {
    ds.scan(t).unwrap().collect().unwrap()
}

#[test]
fn sharded_ingest_equals_one_ingest_row_for_row() {
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let one = one_process(a.path());
    write_shards(b.path());
    // Nothing is visible before the commit.
    assert!(Dataset::open(b.path()).is_err());
    let rep = commit_shards(b.path(), &[], false).unwrap();
    assert_eq!(rep.committed.len(), 3);
    let sharded = Dataset::open(b.path()).unwrap();
    assert_eq!(sharded.manifest().runs.len(), 3);
    // Shards in name order = the inputs in one ingest's order, so the rows
    // come in the same order too.
    for t in TABLES {
        let (x, y) = (frame(&one, t), frame(&sharded, t));
        assert!(x.height() > 0 || t.name == REJECTS.name, "{}", t.name);
        assert!(x.equals_missing(&y), "{} differs", t.name);
    }
    assert!(
        frame(&one, &REJECTS).height() > 0,
        "malformed.pgn has rejects"
    );
    assert!(
        !b.path().join("shards/s0").exists(),
        "committed shards are removed"
    );
}

#[test]
fn committing_is_idempotent() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write_shards(root);
    commit_shards(root, &["s0".into()], false).unwrap();
    let manifest = fs::read(root.join("manifest.json")).unwrap();
    // Again: nothing to add, the manifest is not even rewritten.
    let rep = commit_shards(root, &["s0".into()], false).unwrap();
    assert_eq!((rep.already.len(), rep.committed.len()), (1, 0));
    assert!(commit_shards(root, &["nope".into()], false).is_err());
    assert_eq!(fs::read(root.join("manifest.json")).unwrap(), manifest);
    // A retried task rewrites its shard after the commit: skipped, removed.
    let other = tempfile::tempdir().unwrap();
    ingest_shard(other.path(), "s0", &files(&SHARDS[0]), opts(), &mut |_| {}).unwrap();
    fs::rename(shard_dir(other.path(), "s0"), shard_dir(root, "s0")).unwrap();
    let rep = commit_shards(root, &[], false).unwrap();
    assert_eq!(rep.already, ["s0"]);
    assert_eq!(rep.committed.len(), 2);
    assert!(!shard_dir(root, "s0").exists());
    let ds = Dataset::open(root).unwrap();
    let games: u64 = SHARDS
        .iter()
        .flatten()
        .map(|f| {
            let d = tempfile::tempdir().unwrap();
            ingest(d.path(), &files(&[f]), opts(), &mut |_| {})
                .unwrap()
                .counts
                .games
        })
        .sum();
    assert_eq!(frame(&ds, &GAMES).height() as u64, games);
    // A shard writer skips inputs the dataset has: no shard at all.
    let rep = ingest_shard(root, "s9", &files(&SHARDS[1]), opts(), &mut |_| {}).unwrap();
    assert_eq!((rep.inputs.len(), rep.skipped.len()), (0, 2));
    assert!(!shard_dir(root, "s9").exists());
}

/// Two shards of the same PGN, plain and compressed (written before either
/// is committed, so neither writer could skip it): the second is already
/// in the dataset when the first is committed.
#[test]
fn the_same_pgn_in_two_shards_is_committed_once() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let plain = fs::read(fixture("tcec.pgn")).unwrap();
    let zst = root.join("tcec.pgn.zst");
    fs::write(&zst, zstd::encode_all(&plain[..], 3).unwrap()).unwrap();
    ingest_shard(root, "a", &files(&["tcec.pgn"]), opts(), &mut |_| {}).unwrap();
    let other = vec![zst.display().to_string()];
    ingest_shard(root, "b", &other, opts(), &mut |_| {}).unwrap();
    let rep = commit_shards(root, &[], false).unwrap();
    assert_eq!(rep.committed.len(), 1);
    assert_eq!(rep.already, ["b"]);
    let ds = Dataset::open(root).unwrap();
    let once = tempfile::tempdir().unwrap();
    let games = ingest(once.path(), &files(&["tcec.pgn"]), opts(), &mut |_| {})
        .unwrap()
        .counts
        .games;
    assert_eq!(frame(&ds, &GAMES).height() as u64, games);
    assert_eq!(rep.repeated, 0);
    // Its games in a file of other bytes: a shard of its own, whose two
    // games the dataset then holds twice, as the commit reports.
    let edited = root.join("edited.pgn");
    fs::write(&edited, [b"\n".as_slice(), &plain].concat()).unwrap();
    let edited = vec![edited.display().to_string()];
    ingest_shard(root, "c", &edited, opts(), &mut |_| {}).unwrap();
    let rep = commit_shards(root, &[], false).unwrap();
    assert_eq!((rep.committed.len(), rep.repeated), (1, 2));
}

#[test]
fn half_written_and_overlapping_shards_commit_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write_shards(root);
    // A writer killed before its commit point: parts, no shard.json.
    fs::remove_file(shard_dir(root, "s1").join(SHARD_FILE)).unwrap();
    let rep = commit_shards(root, &[], false).unwrap();
    assert_eq!(rep.incomplete, ["s1"]);
    assert_eq!(rep.committed.len(), 2);
    assert!(shard_dir(root, "s1").join("games.parquet").exists());
    let ds = Dataset::open(root).unwrap();
    assert_eq!(ds.manifest().runs.len(), 2);
    // A shard sharing one input with the dataset (tcec.pgn, in s0; written
    // elsewhere, since a shard writer skips committed inputs): an error, and
    // nothing is committed.
    let d = tempfile::tempdir().unwrap();
    let both = files(&["lichess.pgn", "tcec.pgn"]);
    ingest_shard(d.path(), "overlap", &both, opts(), &mut |_| {}).unwrap();
    fs::rename(shard_dir(d.path(), "overlap"), shard_dir(root, "overlap")).unwrap();
    let manifest = fs::read(root.join("manifest.json")).unwrap();
    let err = commit_shards(root, &[], false).unwrap_err();
    assert!(err.to_string().contains("tcec.pgn"), "{err}");
    assert_eq!(fs::read(root.join("manifest.json")).unwrap(), manifest);
    assert!(shard_dir(root, "overlap").join(SHARD_FILE).exists());
}

#[test]
fn statistics_from_part_facts_equal_one_process() {
    let (a, b, f) = (
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
    );
    let one = one_process(a.path());
    write_shards(b.path());
    commit_shards(b.path(), &[], false).unwrap();
    let sharded = Dataset::open(b.path()).unwrap();
    // The map step, one part at a time (as the workers run it).
    for run in &sharded.manifest().runs {
        write_facts(&sharded, &[run.part], f.path()).unwrap();
    }
    let (side, lab) = read_facts(&sharded, f.path()).unwrap();
    for group in [Group::Engine, Group::EventEngine, Group::SeasonEngine] {
        // Families and filters are the reduce's: the facts hold the tags' names.
        let o = BalanceOptions {
            group,
            selection: evallab::metrics::Selection {
                families: evallab::metrics::Families(vec![("^[AW]$".into(), "AW".into())]),
                engine: (group == Group::SeasonEngine).then(|| "^(AW|B)$".into()),
                ..Default::default()
            },
        };
        let scans = || (one.scan(&GAMES).unwrap(), one.scan(&MOVES).unwrap());
        let x = balance(game_facts(scans().0, scans().1, &o, false).unwrap(), &o)
            .unwrap()
            .collect()
            .unwrap();
        let y = balance(select_facts(side.clone(), &o), &o)
            .unwrap()
            .collect()
            .unwrap();
        assert!(x.height() > 2 && x.equals_missing(&y), "{x}\n{y}");
        let cal = |facts| -> Vec<String> {
            observations(facts, &o)
                .unwrap()
                .iter()
                .map(|(k, g)| format!("{k:?} {:?}", calibrate_group(g, 30, 7)))
                .collect()
        };
        let x = cal(game_facts(scans().0, scans().1, &o, true).unwrap());
        assert_eq!(x, cal(select_facts(side.clone(), &o)));
    }
    let x = labels([(one.scan(&GAMES).unwrap(), one.scan(&MOVES).unwrap())]).unwrap();
    assert!(x.equals_missing(&lab));
    let eas = |l: &DataFrame| score(l, &EasOptions::default()).unwrap().0;
    assert!(eas(&x).equals_missing(&eas(&lab)));
    // Facts of another dataset are refused.
    let Err(err) = read_facts(&one, f.path()) else {
        panic!("facts of another dataset were read")
    };
    let err = err.to_string();
    assert!(
        err.contains("missing") || err.contains("another dataset"),
        "{err}"
    );
}

/// A shard holding an edited file: `commit` keeps both versions and says
/// so; `commit --replace` puts the new one in the earlier one's place, and
/// the dataset is then a one-process ingest of the file as it is now.
#[test]
fn commit_replace_puts_an_edited_file_in_its_earlier_versions_place() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("season.pgn");
    let name = file.display().to_string();
    let tcec = fs::read_to_string(fixture("tcec.pgn")).unwrap();
    fs::write(&file, &tcec).unwrap();
    let edited = tcec.replacen("[Event \"", "[Event \"Edited ", 1);
    for replace in [false, true] {
        let root = dir.path().join(format!("ds-{replace}"));
        fs::write(&file, &tcec).unwrap();
        ingest(&root, std::slice::from_ref(&name), opts(), &mut |_| {}).unwrap();
        let games = Dataset::open(&root).unwrap().manifest().totals().0;
        fs::write(&file, &edited).unwrap();
        let rep =
            ingest_shard(&root, "s", std::slice::from_ref(&name), opts(), &mut |_| {}).unwrap();
        assert_eq!(
            rep.versions.len(),
            1,
            "the shard writer sees the earlier version too"
        );
        let rep = commit_shards(&root, &[], replace).unwrap();
        assert_eq!(rep.versions.len(), 1);
        assert_eq!(rep.versions[0].0, name);
        let held = if replace { games } else { 2 * games };
        assert_eq!(Dataset::open(&root).unwrap().manifest().totals().0, held);
        if replace {
            let fresh = dir.path().join("fresh");
            ingest(&fresh, std::slice::from_ref(&name), opts(), &mut |_| {}).unwrap();
            assert_eq!(sorted_tables(&root), sorted_tables(&fresh));
        }
    }
}
