//! Data-driven tests: every fixture in `data/fixtures` ingested, with the values
//! each one was written to produce checked by hand.

use std::path::{Path, PathBuf};

use evallab::dataset::Dataset;
use evallab::ingest::{IngestOptions, ingest};
use evallab::schema::{GAMES, MOVES, REJECTS, Table, col};
use polars::prelude::*;

/// Every base table's rows of the dataset at `ds`, sorted by game (and
/// ply): equal for two datasets that hold the same rows, in any parts.
pub(crate) fn sorted_tables(ds: impl AsRef<Path>) -> Vec<DataFrame> {
    let ds = Dataset::open(ds.as_ref()).unwrap();
    [
        (&GAMES, vec![col::GAME_ID]),
        (&MOVES, vec![col::GAME_ID, col::PLY]),
        (&REJECTS, vec![col::GAME_ID]),
    ]
    .into_iter()
    .map(|(t, by)| {
        ds.scan(t)
            .unwrap()
            .sort(by, Default::default())
            .collect()
            .unwrap()
    })
    .collect()
}

pub(crate) fn fixture(name: &str) -> String {
    in_repo(&format!("data/fixtures/{name}"))
}

/// A file of `tests/data` (fixtures the snapshot tests do not ingest).
fn test_data(name: &str) -> String {
    in_repo(&format!("tests/data/{name}"))
}

fn in_repo(path: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(path)
        .display()
        .to_string()
}

fn opts(jobs: usize, batch_bytes: usize) -> IngestOptions {
    IngestOptions {
        jobs,
        batch_bytes,
        ..IngestOptions::default()
    }
}

/// Ingests fixtures into a fresh dataset; returns it with its temp dir.
pub(crate) fn load(files: &[&str]) -> (tempfile::TempDir, Dataset) {
    load_paths(files.iter().map(|f| fixture(f)).collect())
}

fn load_paths(inputs: Vec<String>) -> (tempfile::TempDir, Dataset) {
    let dir = tempfile::tempdir().unwrap();
    ingest(dir.path(), &inputs, opts(2, 1 << 20), &mut |_| {}).unwrap();
    let ds = Dataset::open(dir.path()).unwrap();
    (dir, ds)
}

fn frame(ds: &Dataset, t: &Table) -> DataFrame {
    ds.scan(t).unwrap().collect().unwrap()
}

pub(crate) fn strs(df: &DataFrame, name: &str) -> Vec<Option<String>> {
    let s = df.column(name).unwrap().as_materialized_series().clone();
    s.str()
        .unwrap()
        .iter()
        .map(|v| v.map(str::to_string))
        .collect()
}

pub(crate) fn ints(df: &DataFrame, name: &str) -> Vec<Option<i64>> {
    let s = df.column(name).unwrap().cast(&DataType::Int64).unwrap();
    s.i64().unwrap().iter().collect()
}

pub(crate) fn bools(df: &DataFrame, name: &str) -> Vec<bool> {
    let s = df.column(name).unwrap().as_materialized_series().clone();
    s.bool().unwrap().iter().map(|v| v.unwrap()).collect()
}

/// `x` as a tool prints it with `decimals` decimals (Ordo's tables, a
/// share by hand): the commands keep every digit.
pub(crate) fn printed(x: f64, decimals: i32) -> f64 {
    let f = 10f64.powi(decimals);
    (x * f).round() / f
}

pub(crate) fn s(v: &str) -> Option<String> {
    Some(v.to_string())
}

#[test]
fn tcec_current_and_early_cutechess_eras() {
    let (_d, ds) = load(&["tcec.pgn"]);
    let games = frame(&ds, &GAMES);
    let moves = frame(&ds, &MOVES);
    assert_eq!(games.height(), 2);
    // Golden ids from Python's hashlib over the file's sha256 (c8f13b49…) and
    // the game numbers 1 and 2: the ids are stable across versions and machines.
    assert_eq!(
        ints(&games, col::GAME_ID),
        [Some(9_705_518_575_393_683), Some(5_220_534_656_966_430_319)]
    );
    assert_eq!(ints(&games, col::PLIES), [Some(7), Some(4)]);
    assert_eq!(ints(&games, col::PLY_COUNT_TAG), [Some(7), Some(4)]);
    assert_eq!(ints(&games, col::WHITE_ELO), [Some(3500), None]);
    // 2021-03-04 is day 18690 since 1970-01-01; "2013.??.??" is unknown.
    assert_eq!(ints(&games, col::DATE), [Some(18690), None]);
    assert_eq!(ints(&games, col::EVALS), [Some(4), Some(2)]);
    assert_eq!(strs(&games, col::DIALECT), [s("tcec"), s("tcec")]);
    let tc = games.column(col::TC_BASE_S).unwrap().f64().unwrap().get(1);
    assert_eq!(tc, Some(7200.0));
    assert!(
        strs(&games, col::ENGINE_OPTIONS)[0]
            .as_ref()
            .unwrap()
            .starts_with("WhiteEngineOptions: Protocol=uci")
    );
    assert!(
        strs(&games, col::OTHER_TAGS)[0]
            .as_ref()
            .unwrap()
            .contains("\"GameStartTime\"")
    );

    assert_eq!(moves.height(), 11);
    assert_eq!(
        strs(&moves, col::EVAL_KIND),
        [
            None,
            None,
            s("cp"),
            s("placeholder"),
            s("cp"),
            s("mate"),
            s("mate"),
            s("cp"),
            s("absurd"),
            s("mate"),
            s("placeholder")
        ]
    );
    assert_eq!(
        ints(&moves, col::EVAL_CP),
        [
            None,
            None,
            Some(30),
            None,
            Some(150),
            None,
            None,
            Some(52),
            None,
            None,
            None
        ]
    );
    // wv=M1 is mate in one ply for White; wv=-M5 is Black mating in 3 moves.
    assert_eq!(
        ints(&moves, col::MATE)[5..10],
        [Some(1), Some(1), None, None, Some(-3)]
    );
    assert_eq!(bools(&moves, col::IS_BOOK)[..3], [true, true, false]);
    assert_eq!(strs(&moves, col::EVAL_RAW)[8], s("21474836.48"));
    assert_eq!(strs(&moves, col::SAN)[6], s("Qxf7#"));
    assert_eq!(strs(&moves, col::UCI)[6], s("h5f7"));
    assert!(bools(&moves, col::IS_MATE)[6]);
    assert!(bools(&moves, col::IS_CAPTURE)[6]);
    assert_eq!(ints(&moves, col::MATERIAL_BALANCE)[6], Some(1));
    assert_eq!(ints(&moves, col::BLACK_PAWNS)[6], Some(7));
    assert_eq!(strs(&moves, col::MB)[6], s("+1+0+0+0+0"));
    assert_eq!(strs(&moves, col::COMMENT_EXTRA)[6], s("White mates"));
    assert_eq!(strs(&moves, col::WDL)[4], s("100/0/0"));
    assert_eq!(ints(&moves, col::TB_HITS)[3..5], [None, Some(5)]);
    assert_eq!(strs(&moves, col::PV)[4], s("Qh5 Nf6 Qxf7#"));
    // Era D: hh:mm:ss times and kN/s.
    assert_eq!(ints(&moves, col::TIME_MS)[7], Some(248_000));
    assert_eq!(ints(&moves, col::TIME_LEFT_MS)[7], Some(7_221_000));
    assert_eq!(ints(&moves, col::NPS)[7], Some(4_061_000));
    assert_eq!(ints(&moves, col::NODES)[7], Some(1_007_128_000));
}

#[test]
fn cutechess_lichess_chessbase_and_ev_dialects() {
    let (_d, ds) = load(&["cutechess.pgn"]);
    let m = frame(&ds, &MOVES);
    // Mover POV: Black's -0.20 is +20 for White; Black's +M5 (plies) is mate -3.
    assert_eq!(
        ints(&m, col::EVAL_CP),
        [None, None, Some(35), Some(20), Some(40), None, Some(0)]
    );
    assert_eq!(ints(&m, col::MATE)[5], Some(-3));
    assert_eq!(ints(&m, col::TIME_MS)[3], Some(58));
    assert_eq!(strs(&m, col::COMMENT_EXTRA)[6], s("Draw by adjudication"));

    let (_d, ds) = load(&["lichess.pgn"]);
    let m = frame(&ds, &MOVES);
    assert_eq!(ints(&m, col::EVAL_CP), [Some(17), Some(19), None, None]);
    assert_eq!(ints(&m, col::MATE)[2], Some(-3));
    assert_eq!(ints(&m, col::DEPTH)[1], Some(20));
    assert_eq!(
        ints(&m, col::TIME_LEFT_MS),
        [Some(180_000), Some(178_500), None, Some(170_000)]
    );
    assert_eq!(ints(&m, col::TIME_MS)[2], Some(2000));
    assert_eq!(
        ints(&m, col::MOVE_NUMBER),
        [Some(1), Some(1), Some(2), Some(2)]
    );

    let (_d, ds) = load(&["chessbase.pgn"]);
    let m = frame(&ds, &MOVES);
    let g = frame(&ds, &GAMES);
    assert_eq!(strs(&g, col::DIALECT), [s("chessbase")]);
    assert_eq!(
        bools(&m, col::IS_BOOK),
        [true, true, false, false, false, false]
    );
    // White POV throughout, line wraps inside and after tokens.
    assert_eq!(
        ints(&m, col::EVAL_CP),
        [None, None, Some(44), Some(18), Some(61), Some(25)]
    );
    assert_eq!(
        ints(&m, col::DEPTH)[2..],
        [Some(22), Some(21), Some(20), Some(27)]
    );
    assert_eq!(
        ints(&m, col::TIME_MS)[2..],
        [Some(249_000), Some(0), Some(103_000), Some(1_011_000)]
    );
    assert_eq!(strs(&m, col::EXPECTED_REPLY)[2], s("exd6"));

    let (_d, ds) = load(&["tcec_ev.pgn"]);
    let m = frame(&ds, &MOVES);
    let g = frame(&ds, &GAMES);
    assert_eq!(strs(&m, col::EVAL_KIND), [s("placeholder"), s("cp")]);
    assert_eq!(ints(&m, col::EVAL_CP), [None, Some(-21)]);
    assert_eq!(ints(&m, col::TIME_MS)[1], Some(428_000));
    assert_eq!(
        strs(&g, col::ENGINE_OPTIONS),
        [s("Intel Core i7 980x @ 4303 MHz")]
    );
    assert_eq!(strs(&g, col::VARIANT), [s("standard")]);
}

#[test]
fn chess960_and_setup_positions() {
    let (_d, ds) = load(&["chess960.pgn"]);
    let g = frame(&ds, &GAMES);
    let m = frame(&ds, &MOVES);
    assert_eq!(
        strs(&g, col::VARIANT),
        [s("chess960"), s("standard"), s("chess960")]
    );
    assert_eq!(bools(&g, col::VARIANT_INFERRED), [false, false, true]);
    assert_eq!(ints(&g, col::PLIES), [Some(8), Some(3), Some(4)]);
    let san = strs(&m, col::SAN);
    let uci = strs(&m, col::UCI);
    // Chess960 castling: plain O-O in SAN, king takes rook in UCI.
    assert_eq!((san[4].clone(), uci[4].clone()), (s("O-O"), s("e1f1")));
    assert_eq!((san[5].clone(), uci[5].clone()), (s("O-O"), s("e8f8")));
    // A FEN starting with Black to move at move 40.
    assert_eq!(
        ints(&m, col::MOVE_NUMBER)[8..11],
        [Some(40), Some(41), Some(41)]
    );
    assert_eq!(strs(&m, col::SIDE)[8..11], [s("b"), s("w"), s("b")]);
    assert_eq!(ints(&m, col::PLY)[8..11], [Some(1), Some(2), Some(3)]);
}

/// Issue 9, defect 6: a Chess960 game without a Variant tag (castling rights
/// name the c- and h-file rooks) is read as Chess960, not rejected; its
/// queen-side castling is king-takes-rook in UCI.
#[test]
fn chess960_without_variant_tag_is_read_as_chess960() {
    let (_d, ds) = load(&["chess960.pgn"]);
    let m = frame(&ds, &MOVES);
    assert_eq!(frame(&ds, &REJECTS).height(), 0);
    let (san, uci) = (strs(&m, col::SAN), strs(&m, col::UCI));
    assert_eq!(
        (san[11..].to_vec(), uci[11..].to_vec()),
        (
            vec![s("Ne3"), s("Ne6"), s("O-O-O"), s("O-O-O")],
            vec![s("d1e3"), s("d8e6"), s("e1c1"), s("e8c8")]
        )
    );
    // King on c1, rook on d1 after White's castling.
    assert_eq!(ints(&m, col::WHITE_ROOKS)[13], Some(2));
    // A FEN legal in neither mode is still rejected, naming the FEN.
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad960.pgn");
    std::fs::write(
        &bad,
        "[Event \"x\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/8/4K3 w K - 0 1\"]\n\n1. Kd2 *\n",
    )
    .unwrap();
    let out = dir.path().join("ds");
    let rep = ingest(
        &out,
        &[bad.display().to_string()],
        opts(1, 1 << 20),
        &mut |_| {},
    )
    .unwrap();
    assert_eq!((rep.counts.games, rep.counts.rejects), (0, 1));
    let r = frame(&Dataset::open(&out).unwrap(), &REJECTS);
    assert!(
        strs(&r, col::REASON)[0]
            .as_deref()
            .unwrap()
            .starts_with("illegal FEN position \"4k3/8/8/8/8/8/8/4K3 w K - 0 1\"")
    );
}

#[test]
fn pgn_quirks() {
    let (_d, ds) = load(&["quirks_crlf.pgn", "quirks_latin1.pgn"]);
    let g = frame(&ds, &GAMES);
    let r = frame(&ds, &REJECTS);
    let m = frame(&ds, &MOVES);
    assert_eq!(g.height(), 4);
    assert_eq!(strs(&g, col::WHITE), [s("Réti"), s("A"), s("A"), s("José")]);
    assert_eq!(strs(&g, col::SITE)[0], s("Café"));
    assert_eq!(ints(&g, col::PLIES), [Some(5), Some(0), Some(2), Some(4)]);
    assert_eq!(ints(&g, col::VARIATIONS_SKIPPED)[0], Some(1));
    assert_eq!(ints(&g, col::UNPARSED_COMMENTS)[0], Some(1));
    assert_eq!(
        strs(&g, col::RESULT),
        [s("1-0"), s("1-0"), s("*"), s("0-1")]
    );
    assert_eq!(strs(&m, col::COMMENT_EXTRA)[3], s("a\tcomment with a TAB"));
    assert_eq!(
        strs(&m, col::SAN)[..5],
        [s("Nf3"), s("d5"), s("g3"), s("c5"), s("Bg2")]
    );
    // The 9 KiB comment is read whole.
    let pv = strs(&m, col::PV)[5].clone().unwrap();
    assert_eq!(pv.len(), 560 * 16 - 1);
    assert_eq!(ints(&m, col::EVAL_CP)[5], Some(31));
    assert!(bools(&m, col::IS_MATE)[10]);
    assert_eq!(r.height(), 1);
    assert_eq!(
        strs(&r, col::REASON),
        [s("header-only stub: no movetext and Result \"?\"")]
    );
    assert_eq!(ints(&r, col::GAME_NUMBER), [Some(3)]);
    assert_eq!(strs(&r, col::ROUND), [s("4.1")]);
}

#[test]
fn malformed_games_are_rejected_with_reason_and_line() {
    let (_d, ds) = load(&["malformed.pgn"]);
    let g = frame(&ds, &GAMES);
    let r = frame(&ds, &REJECTS);
    assert_eq!(strs(&g, col::ROUND), [s("5")]);
    assert_eq!(
        ints(&r, col::GAME_NUMBER),
        [Some(1), Some(2), Some(3), Some(4), Some(6)]
    );
    let reasons = strs(&r, col::REASON);
    assert_eq!(reasons[0], s("illegal move 3...Nf3"));
    assert!(
        reasons[1]
            .as_ref()
            .unwrap()
            .starts_with("invalid FEN \"this is not a fen\"")
    );
    assert_eq!(reasons[2], s("unsupported variant \"crazyhouse\""));
    assert!(
        reasons[3]
            .as_ref()
            .unwrap()
            .contains("unterminated comment"),
        "{reasons:?}"
    );
    assert_eq!(reasons[4], s("ambiguous move 3.Nd2"));
    // The illegal move stands on line 8 of the file; the FEN problem at its game's start.
    assert_eq!(ints(&r, col::LINE)[..2], [Some(8), Some(10)]);
    assert_eq!(ints(&r, col::PLY_REACHED)[0], Some(5));
}

/// Every fixture at once, as a run of one job with one game per batch and as
/// two jobs with large batches: identical tables.
#[test]
fn output_is_identical_whatever_jobs_and_batches() {
    let files: Vec<String> =
        std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("data/fixtures"))
            .unwrap()
            .map(|e| e.unwrap().path().display().to_string())
            .filter(|p| p.ends_with(".pgn"))
            .collect();
    let run = |o: IngestOptions| -> (tempfile::TempDir, Vec<DataFrame>) {
        let dir = tempfile::tempdir().unwrap();
        let rep = ingest(dir.path(), &files, o, &mut |_| {}).unwrap();
        assert_eq!((rep.counts.games, rep.counts.rejects), (39, 6));
        let ds = Dataset::open(dir.path()).unwrap();
        let frames = [&GAMES, &MOVES, &REJECTS].map(|t| frame(&ds, t)).to_vec();
        (dir, frames)
    };
    let (_a, one) = run(opts(1, 1));
    let (_b, two) = run(opts(2, 64 << 20));
    for (x, y) in one.iter().zip(&two) {
        assert!(x.equals_missing(y));
    }
}

#[test]
fn reingest_skips_known_inputs_and_overwrite_replaces() {
    let dir = tempfile::tempdir().unwrap();
    let inputs = [fixture("tcec.pgn")];
    let first = ingest(dir.path(), &inputs, opts(2, 1 << 20), &mut |_| {}).unwrap();
    assert_eq!(first.part, Some(1));
    let again = ingest(dir.path(), &inputs, opts(2, 1 << 20), &mut |_| {}).unwrap();
    assert_eq!((again.part, again.skipped.len()), (None, 1));
    let more = [fixture("tcec.pgn"), fixture("lichess.pgn")];
    let added = ingest(dir.path(), &more, opts(2, 1 << 20), &mut |_| {}).unwrap();
    assert_eq!((added.part, added.counts.games), (Some(2), 1));
    let ds = Dataset::open(dir.path()).unwrap();
    assert_eq!(frame(&ds, &GAMES).height(), 3);
    let o = IngestOptions {
        overwrite: true,
        ..opts(1, 1 << 20)
    };
    let fresh = ingest(dir.path(), &inputs, o, &mut |_| {}).unwrap();
    // Part numbers only grow, so an old manifest never names a new file.
    assert_eq!(fresh.part, Some(3));
    let ds = Dataset::open(dir.path()).unwrap();
    assert_eq!(frame(&ds, &GAMES).height(), 2);
    let parts: Vec<PathBuf> = std::fs::read_dir(dir.path().join("games"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(parts.len(), 1, "old parts removed: {parts:?}");
}

/// An input is hashed while it is parsed, unless one of its size could
/// repeat it: then before. Both ways, its games get the same rows, and their
/// ids are `game_id(sha256 of the file, game number)`.
#[test]
fn ids_are_the_same_whether_hashed_before_or_while_parsed() {
    use sha2::{Digest, Sha256};
    let original = fixture("tcec.pgn");
    let bytes = std::fs::read(&original).unwrap();
    let sha = evallab_pgn::input::hex(&Sha256::digest(&bytes));
    // As large as the original, one byte apart (its last newline).
    let dir = tempfile::tempdir().unwrap();
    let twin = dir.path().join("twin.pgn");
    let mut other = bytes.clone();
    assert_eq!(other.pop(), Some(b'\n'));
    other.push(b' ');
    std::fs::write(&twin, other).unwrap();
    let games = |inputs: &[String]| {
        let out = tempfile::tempdir().unwrap();
        ingest(out.path(), inputs, opts(2, 1), &mut |_| {}).unwrap();
        let ds = Dataset::open(out.path()).unwrap();
        let games = frame(&ds, &GAMES);
        let mine = games
            .column(col::SOURCE_FILE)
            .unwrap()
            .str()
            .unwrap()
            .equal(original.as_str());
        let moves = frame(&ds, &MOVES);
        (games.filter(&mine).unwrap(), moves)
    };
    let (during, moves) = games(std::slice::from_ref(&original));
    let (before, _) = games(&[original.clone(), twin.display().to_string()]);
    assert!(during.equals_missing(&before));
    assert_eq!(
        strs(&during, col::SOURCE_SHA256),
        vec![s(&sha); during.height()]
    );
    let want: Vec<Option<i64>> = ints(&during, col::GAME_NUMBER)
        .iter()
        .map(|n| Some(evallab_pgn::game::game_id(&sha, n.unwrap() as u32)))
        .collect();
    assert_eq!(ints(&during, col::GAME_ID), want);
    let ids: std::collections::BTreeSet<_> = ints(&moves, col::GAME_ID).into_iter().collect();
    assert_eq!(ids, want.into_iter().collect());
}

/// 600 copies of `tcec.pgn`'s two games, each followed by a `;` line of 1000
/// random letters (else zstd would pack the copies into a few bytes), zstd
/// compressed and cut at 3/5 into `path`. Returns the whole text and the
/// length of one copy.
pub fn truncated_copies(path: &Path) -> (Vec<u8>, usize) {
    let game = std::fs::read(fixture("tcec.pgn")).unwrap();
    let mut x = 1u64;
    let mut noise = || {
        let letters = (0..1000).map(|_| {
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            b'a' + (x >> 60) as u8
        });
        letters.collect::<Vec<u8>>()
    };
    let copies: Vec<Vec<u8>> = (0..600)
        .map(|_| [&game[..], b"; ", &noise(), b"\n\n"].concat())
        .collect();
    let copy_len = copies[0].len();
    let text = copies.concat();
    let bytes = zstd::encode_all(&text[..], 1).unwrap();
    std::fs::write(path, &bytes[..bytes.len() * 3 / 5]).unwrap();
    (text, copy_len)
}

/// Issue 29: a partial download of a compressed input keeps every game
/// before the damage; the game it cut is a `truncated input` reject at its
/// byte offset, and the report names the input. (Every compression:
/// evallab-pgn's `input` tests.)
#[test]
fn a_truncated_input_keeps_the_games_before_the_damage() {
    let dir = tempfile::tempdir().unwrap();
    let cut = dir.path().join("cut.pgn.zst");
    let (text, copy_len) = truncated_copies(&cut);
    let name = cut.display().to_string();
    let out = dir.path().join("ds");
    let rep = ingest(
        &out,
        std::slice::from_ref(&name),
        opts(2, 1 << 14),
        &mut |_| {},
    )
    .unwrap();
    assert_eq!(rep.truncated, [name]);
    let ds = Dataset::open(&out).unwrap();
    let (g, r) = (frame(&ds, &GAMES), frame(&ds, &REJECTS));
    let kept = g.height();
    assert!(kept > 100, "{kept} games kept");
    assert_eq!((rep.counts.games, rep.counts.rejects), (kept as u64, 1));
    let numbers: Vec<Option<i64>> = (1..=kept as i64).map(Some).collect();
    assert_eq!(ints(&g, col::GAME_NUMBER), numbers);
    // Game k+1 starts where the k first end: the copies hold two games each.
    let second = 1 + text[1..].windows(7).position(|w| w == b"[Event ").unwrap();
    let offset = (kept / 2) * copy_len + (kept % 2) * second;
    assert_eq!(ints(&r, col::GAME_NUMBER), [Some(kept as i64 + 1)]);
    assert_eq!(ints(&r, col::BYTE_OFFSET), [Some(offset as i64)]);
    let reason = strs(&r, col::REASON)[0].clone().unwrap();
    assert!(
        reason.starts_with("truncated input: incomplete frame"),
        "{reason}"
    );
    // The games kept are the fixture's, move for move.
    let (_d, whole) = load(&["tcec.pgn"]);
    let m = frame(&ds, &MOVES);
    assert_eq!(m.height(), (kept / 2) * 11 + (kept % 2) * 7);
    assert_eq!(
        strs(&m, col::UCI)[..11],
        strs(&frame(&whole, &MOVES), col::UCI)[..]
    );
}

/// Data that is damaged, not cut short, still fails the input: nothing of it
/// is kept.
#[test]
fn corrupt_input_fails_cleanly_without_partial_output() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.pgn.gz");
    // A gzip magic, then no gzip header.
    std::fs::write(&bad, b"\x1f\x8bnot gzip at all").unwrap();
    let out = dir.path().join("ds");
    let err = ingest(&out, &[bad.display().to_string()], opts(2, 1), &mut |_| {}).unwrap_err();
    assert!(err.to_string().contains("bad.pgn.gz"), "{err}");
    assert!(
        Dataset::open(&out).is_err(),
        "no manifest after a failed first run"
    );
    for t in ["games", "moves", "rejects"] {
        let n = std::fs::read_dir(out.join(t)).map_or(0, |d| d.count());
        assert_eq!(n, 0, "{t} holds files after a failed run");
    }
}

/// fastchess's comments (its `pgn_builder.cpp`): every field in its column,
/// values by hand (mover POV evals to White POV, hashfull permille to percent).
#[test]
fn fastchess_fields_are_read_into_their_columns() {
    let (_d, ds) = load_paths(vec![test_data("fastchess.pgn")]);
    let (g, m) = (frame(&ds, &GAMES), frame(&ds, &MOVES));
    assert_eq!(frame(&ds, &REJECTS).height(), 0);
    assert_eq!(ints(&g, col::PLIES), [Some(7), Some(8)]);
    assert_eq!(ints(&g, col::EVALS), [Some(5), Some(7)]);
    assert_eq!(strs(&g, col::DIALECT), [s("cutechess"), s("cutechess")]);
    assert_eq!(
        ints(&m, col::EVAL_CP)[..7],
        [None, None, Some(12), Some(20), Some(31), None, None]
    );
    // Black's -M2 (plies, its own POV) and White's +M1: White mates in 1.
    assert_eq!(ints(&m, col::MATE)[5..7], [Some(1), Some(1)]);
    let row = |c| ints(&m, c)[2];
    assert_eq!(
        [
            col::DEPTH,
            col::SELDEPTH,
            col::NODES,
            col::NPS,
            col::TIME_MS
        ]
        .map(row),
        [
            Some(18),
            Some(24),
            Some(523_411),
            Some(1_022_287),
            Some(512)
        ]
    );
    assert_eq!(
        [col::TIME_LEFT_MS, col::LATENCY_MS, col::TB_HITS].map(row),
        [Some(9488), Some(3), Some(0)]
    );
    let hash = m.column(col::HASH_FULL).unwrap().f32().unwrap();
    assert_eq!((hash.get(2), hash.get(4)), (Some(0.4), Some(0.7)));
    assert_eq!(
        strs(&m, col::PV)[2..5],
        [s("f8c5 d1h5"), s("d1f3 g8f6"), s("g8f6 h5f7")]
    );
    // pv="" is no PV; line="…" is an engine output line, not a PV.
    assert_eq!(strs(&m, col::PV)[6], None);
    assert_eq!(ints(&m, col::TB_HITS)[6], Some(2));
    assert_eq!(
        strs(&m, col::COMMENT_EXTRA)[6],
        s("line=\"info depth 1 seldepth 1 score mate 1 nodes 27 pv h5f7\" White mates")
    );
    assert_eq!(strs(&m, col::COMMENT_EXTRA)[2..6], [None, None, None, None]);
    // The short form; an engine without a score: no eval, its depth and time.
    assert_eq!(
        ints(&m, col::EVAL_CP)[7..],
        [
            Some(25),
            Some(18),
            Some(30),
            Some(22),
            Some(28),
            None,
            Some(35),
            Some(31)
        ]
    );
    assert_eq!(
        (ints(&m, col::DEPTH)[12], ints(&m, col::TIME_MS)[12]),
        (Some(0), Some(3))
    );
    assert_eq!(strs(&m, col::EVAL_KIND)[12], None);
    assert_eq!(ints(&m, col::LATENCY_MS)[7], None);
    assert_eq!(strs(&m, col::COMMENT_EXTRA)[14], s("aborted"));
}

/// UCI movetext (fastchess `notation=uci`) is the same game as its SAN twin:
/// the same SAN, UCI and evals (python-chess's UCI, listed by hand).
#[test]
fn uci_movetext_reads_as_its_san_twin() {
    let (_d, ds) = load_paths(vec![test_data("uci.pgn")]);
    let m = frame(&ds, &MOVES);
    assert_eq!(frame(&ds, &REJECTS).height(), 0);
    assert_eq!(ints(&frame(&ds, &GAMES), col::PLIES), [Some(15), Some(15)]);
    let uci = "e2e4 d7d5 e4e5 f7f5 e5f6 e7e6 g1f3 b8c6 f1b5 c8d7 e1g1 d8e7 f6g7 e8c8 g7h8q";
    let san = "e4 d5 e5 f5 exf6 e6 Nf3 Nc6 Bb5 Bd7 O-O Qe7 fxg7 O-O-O gxh8=Q";
    for (c, want) in [(col::UCI, uci), (col::SAN, san)] {
        let got = strs(&m, c);
        let want: Vec<Option<String>> = want.split(' ').map(s).collect();
        assert_eq!((&got[..15], &got[15..]), (&want[..], &want[..]), "{c}");
    }
    for c in [col::EVAL_CP, col::DEPTH, col::TIME_MS, col::IS_CAPTURE] {
        let v = if c == col::IS_CAPTURE {
            bools(&m, c)
                .into_iter()
                .map(|b| Some(i64::from(b)))
                .collect()
        } else {
            ints(&m, c)
        };
        assert_eq!(v[..15], v[15..], "{c}");
    }
    assert_eq!(strs(&m, col::PROMOTION)[14], s("q"));
}

/// Issue 29: a word that is no move rejects its game, naming it and the plies
/// before it; UCI (upper-case promotion), long algebraic and `e8Q` are moves;
/// nested braces are one comment.
#[test]
fn no_token_vanishes() {
    let (_d, ds) = load_paths(vec![test_data("tokens.pgn")]);
    let (g, m, r) = (frame(&ds, &GAMES), frame(&ds, &MOVES), frame(&ds, &REJECTS));
    assert_eq!(ints(&g, col::GAME_NUMBER), [Some(1), Some(2), Some(4)]);
    assert_eq!(ints(&g, col::PLIES), [Some(1), Some(3), Some(5)]);
    // python-chess reads d7d8R as d7d8r: mate with the new rook.
    assert_eq!(
        (strs(&m, col::SAN)[0].clone(), strs(&m, col::UCI)[0].clone()),
        (s("d8=R#"), s("d7d8r"))
    );
    assert_eq!(strs(&m, col::COMMENT_EXTRA)[1], s("a { b } c"));
    assert_eq!(
        strs(&m, col::SAN)[4..],
        [s("Ra2"), s("Kf7"), s("e8=Q+"), s("Kxe8"), s("Kd2")]
    );
    assert_eq!(ints(&r, col::GAME_NUMBER), [Some(3), Some(5)]);
    assert_eq!(
        strs(&r, col::REASON),
        [
            s("unreadable token \"foo\" at 3..."),
            s("unterminated variation")
        ]
    );
    assert_eq!(ints(&r, col::PLY_REACHED), [Some(5), Some(1)]);
    // `foo` stands on line 17 of the file, the `(` on line 29.
    assert_eq!(ints(&r, col::LINE), [Some(17), Some(29)]);
}

/// Ingests PGN text, written to a file of its own, into a fresh dataset.
fn load_text(pgn: &str) -> (tempfile::TempDir, Dataset) {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("input.pgn");
    std::fs::write(&input, pgn).unwrap();
    let out = dir.path().join("dataset");
    ingest(
        &out,
        &[input.display().to_string()],
        opts(2, 1 << 20),
        &mut |_| {},
    )
    .unwrap();
    let ds = Dataset::open(&out).unwrap();
    (dir, ds)
}

/// Issue 41: a game of 70,000 plies (knights out and back: every move legal,
/// and no rule ends a game nobody claims the draw of) keeps every ply, its
/// move numbers, clocks and repetition counts; its twin with a bad word at
/// the end is a reject at ply 70,000; a FEN's move number and halfmove clock
/// beyond 65,535 are kept as they are.
#[test]
fn a_game_of_70000_plies_is_stored_whole() {
    use std::fmt::Write;
    let mut shuffle = String::new();
    for n in 0..17_500 {
        write!(shuffle, "{}. Nf3 Nf6 {}. Ng1 Ng8 ", 2 * n + 1, 2 * n + 2).unwrap();
    }
    let pgn = format!(
        "[Event \"long\"]\n\n{shuffle}*\n\n[Event \"bad end\"]\n\n{shuffle}foo *\n\n\
         [Event \"fen\"]\n[FEN \"4k3/8/8/8/8/8/8/4K3 w - - 70000 100000\"]\n[SetUp \"1\"]\n\n\
         100000. Kd1 Kd8 *\n"
    );
    let (_d, ds) = load_text(&pgn);
    let (g, m, r) = (frame(&ds, &GAMES), frame(&ds, &MOVES), frame(&ds, &REJECTS));
    assert_eq!(ints(&g, col::PLIES), [Some(70_000), Some(2)]);
    assert_eq!(m.height(), 70_002);
    let long = |c| ints(&m, c)[..70_000].to_vec();
    let each = |f: fn(i64) -> i64| (1..=70_000).map(|p| Some(f(p))).collect::<Vec<_>>();
    assert_eq!(long(col::PLY), each(|p| p));
    assert_eq!(long(col::MOVE_NUMBER), each(|p| (p + 1) / 2));
    assert_eq!(long(col::HALFMOVE_CLOCK), each(|p| p));
    // The start position is back after every 4th ply, each other one 4 plies on.
    assert_eq!(long(col::REPETITION), each(|p| p / 4 + 1));
    assert_eq!(ints(&r, col::PLY_REACHED), [Some(70_000)]);
    assert_eq!(
        strs(&r, col::REASON),
        [s("unreadable token \"foo\" at 35001.")]
    );
    assert_eq!(
        ints(&m, col::MOVE_NUMBER)[70_000..],
        [Some(100_000), Some(100_000)]
    );
    assert_eq!(
        ints(&m, col::HALFMOVE_CLOCK)[70_000..],
        [Some(70_001), Some(70_002)]
    );
}

/// Issue 41: an eval comment's depth that its column (i16) cannot hold is
/// null and keeps its text in `comment_extra`, in each dialect; the rest of
/// the comment is read as usual.
#[test]
fn an_eval_depth_out_of_range_keeps_its_text() {
    let pgn = "[Event \"cutechess\"]\n\n1. e4 {+0.20/99999 1.2s} e5 {-0.10/20 0.8s} *\n\n\
               [Event \"lichess\"]\n\n1. e4 {[%eval 0.35,99999] [%clk 0:01:00]} *\n\n\
               [Event \"tcec\"]\n\n1. e4 {d=99999, wv=0.30,} *\n";
    let (_d, ds) = load_text(pgn);
    let (g, m) = (frame(&ds, &GAMES), frame(&ds, &MOVES));
    assert_eq!(ints(&m, col::DEPTH), [None, Some(20), None, None]);
    assert_eq!(
        strs(&m, col::COMMENT_EXTRA),
        [s("/99999"), None, s("[%eval 0.35,99999]"), s("d=99999")]
    );
    assert_eq!(
        ints(&m, col::EVAL_CP),
        [Some(20), Some(10), Some(35), Some(30)]
    );
    assert_eq!(ints(&m, col::TIME_MS)[..2], [Some(1200), Some(800)]);
    assert_eq!(ints(&m, col::TIME_LEFT_MS)[2], Some(60_000));
    assert_eq!(ints(&g, col::UNPARSED_COMMENTS), [Some(0); 3]);
}

/// Issue 41: an Elo (or PlyCount) its i32 column cannot hold is null and
/// keeps its text in `other_tags`; `?` and `-` say "unknown" and keep nothing.
#[test]
fn an_elo_out_of_range_keeps_its_text() {
    let pgn = "[Event \"a\"]\n[WhiteElo \"99999999999\"]\n[BlackElo \"3500\"]\n\
               [PlyCount \"2x\"]\n\n1. e4 e5 *\n\n\
               [Event \"b\"]\n[WhiteElo \"-\"]\n[BlackElo \"?\"]\n\n1. d4 *\n";
    let (_d, ds) = load_text(pgn);
    let g = frame(&ds, &GAMES);
    assert_eq!(ints(&g, col::WHITE_ELO), [None, None]);
    assert_eq!(ints(&g, col::BLACK_ELO), [Some(3500), None]);
    assert_eq!(ints(&g, col::PLY_COUNT_TAG), [None, None]);
    assert_eq!(
        strs(&g, col::OTHER_TAGS),
        [s(r#"{"PlyCount":"2x","WhiteElo":"99999999999"}"#), None]
    );
}

/// Issue 41: a Date its column cannot hold (no 13th month, no 30 February, a
/// partial date) is null and keeps its text in `other_tags`; a date of `?`s
/// says "unknown" and keeps nothing.
#[test]
fn an_impossible_date_keeps_its_text() {
    let game = |date: &str| format!("[Event \"x\"]\n[Date \"{date}\"]\n\n1. e4 *\n\n");
    let dates = [
        "2024.13.45",
        "2024.02.30",
        "2013.??.??",
        "????.??.??",
        "2024.02.29",
    ];
    let (_d, ds) = load_text(&dates.map(game).concat());
    let g = frame(&ds, &GAMES);
    // 2024-02-29 is day 19782 since 1970-01-01.
    assert_eq!(ints(&g, col::DATE), [None, None, None, None, Some(19_782)]);
    assert_eq!(
        strs(&g, col::OTHER_TAGS),
        [
            s(r#"{"Date":"2024.13.45"}"#),
            s(r#"{"Date":"2024.02.30"}"#),
            s(r#"{"Date":"2013.??.??"}"#),
            None,
            None
        ]
    );
}

/// Annotated PGN round-trips through our own ingest: same moves, same evals
/// (White POV, to the centipawn), and the NAGs are where the math puts them.
#[test]
fn annotated_pgn_round_trips() {
    use evallab::metrics::relevance::symbols::{MoveScheme, PositionScheme};
    use evallab::metrics::x05::X05;
    use evallab::render::annotate::{AnnotateOptions, write_pgn};
    let (dir, ds) = load(&["tcec.pgn", "chess960.pgn", "lichess.pgn"]);
    let games = ds
        .scan(&GAMES)
        .unwrap()
        .sort([col::GAME_ID], SortMultipleOptions::default())
        .collect()
        .unwrap();
    let moves = ds
        .scan(&MOVES)
        .unwrap()
        .sort([col::GAME_ID, col::PLY], SortMultipleOptions::default())
        .collect()
        .unwrap();
    let annotate = AnnotateOptions {
        x05: 0.62,
        position_scheme: PositionScheme::NineWdb,
        move_scheme: MoveScheme::Econ8,
    };
    let pgn = write_pgn(&games, &moves, annotate, &X05::fixed(annotate.x05), None).unwrap();
    // nine-wdb boundaries at x05 0.62: 0.094, 0.319, 0.62, 1.24. Qh5 at +1.50 is
    // beyond 1.24: `++−` ($20); Bc4 at +0.30 is between 0.094 and 0.319: `⩲` ($14).
    // Qh5 raises White's eval from 0.30 to 1.50: rr = C(1.50) − C(0.30) ≈ 0.473,
    // between econ8's `!` (0.447) and `!!` (0.671) thresholds: $1.
    assert!(pgn.contains("Qh5 $1 $20 {[%eval 1.50]"), "{pgn}");
    assert!(pgn.contains("Bc4 $14 {[%eval 0.30]"), "{pgn}");
    let path = dir.path().join("annotated.pgn");
    std::fs::write(&path, &pgn).unwrap();
    let out = dir.path().join("again");
    let rep = ingest(
        &out,
        &[path.display().to_string()],
        opts(1, 1 << 20),
        &mut |_| {},
    )
    .unwrap();
    assert_eq!(
        (rep.counts.games, rep.counts.rejects),
        (games.height() as u64, 0)
    );
    let again = Dataset::open(&out).unwrap();
    // Written in input order: the annotated file's game order.
    let m2 = again.scan(&MOVES).unwrap().collect().unwrap();
    assert_eq!(strs(&moves, col::SAN), strs(&m2, col::SAN));
    assert_eq!(ints(&moves, col::EVAL_CP), ints(&m2, col::EVAL_CP));
    assert_eq!(ints(&moves, col::MATE), ints(&m2, col::MATE));
}

/// The polars type a declared column is read back as.
fn polars_type(t: evallab::schema::ColType) -> DataType {
    use evallab::schema::ColType::*;
    match t {
        Bool => DataType::Boolean,
        UInt8 => DataType::UInt8,
        UInt16 => DataType::UInt16,
        UInt32 => DataType::UInt32,
        Int16 => DataType::Int16,
        Int32 => DataType::Int32,
        Int64 => DataType::Int64,
        Float32 => DataType::Float32,
        Float64 => DataType::Float64,
        Utf8 => DataType::String,
        Date => DataType::Date,
        ListInt32 => DataType::List(Box::new(DataType::Int32)),
    }
}

/// Every column of a computed frame, in order, as its table declares it.
fn assert_declared(df: &DataFrame, t: &Table) {
    let got: Vec<(String, DataType)> = df
        .columns()
        .iter()
        .map(|c| (c.name().to_string(), c.dtype().clone()))
        .collect();
    let want: Vec<(String, DataType)> = t
        .columns
        .iter()
        .map(|c| (c.name.to_string(), polars_type(c.ty)))
        .collect();
    assert_eq!(got, want, "{} out of step with its declaration", t.name);
    for c in t.columns.iter().filter(|c| !c.nullable) {
        assert_eq!(
            df.column(c.name).unwrap().null_count(),
            0,
            "{}.{} is declared non-null",
            t.name,
            c.name
        );
    }
}

#[test]
fn derived_tables_match_their_declarations() {
    use evallab::metrics::relevance::per_move;
    use evallab::metrics::x05::X05;
    use evallab::schema::{EAS_LABELS, RELEVANCE_MOVES};
    let (_dir, ds) = load(&["tcec.pgn", "cutechess.pgn", "eas_rules.pgn", "chess960.pgn"]);
    let labels =
        evallab::metrics::eas::labels([(ds.scan(&GAMES).unwrap(), ds.scan(&MOVES).unwrap())])
            .unwrap();
    assert!(labels.height() > 0);
    assert_declared(&labels, &EAS_LABELS);
    let x05 = X05::fixed(0.62);
    let rel = per_move(
        ds.scan(&GAMES).unwrap(),
        ds.scan(&MOVES).unwrap(),
        &evallab::metrics::Families::default(),
        &x05,
        None,
    )
    .unwrap()
    .collect()
    .unwrap();
    assert!(rel.height() > 0);
    assert_declared(&rel, &RELEVANCE_MOVES);
    let facts = evallab::metrics::balance::side_facts(
        ds.scan(&GAMES).unwrap(),
        ds.scan(&MOVES).unwrap(),
        true,
    )
    .unwrap()
    .collect()
    .unwrap();
    assert_eq!(
        facts.height(),
        2 * ds.scan(&GAMES).unwrap().collect().unwrap().height()
    );
    assert_declared(&facts, &evallab::schema::GAME_FACTS);
}
