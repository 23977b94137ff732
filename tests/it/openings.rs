//! Opening classification by position key, on hand-made data in
//! `data/openings` (a small table in the Lichess TSV format and games whose
//! openings were worked out by hand).

use std::path::Path;

use evallab::ingest::{IngestOptions, ingest};
use evallab::metrics::openings::{OpeningTable, classify, summary, summary_col};
use evallab::schema::{GAMES, MOVES, col, opening_col};
use polars::prelude::*;

use crate::fixtures::{ints, printed, s, strs};

/// The `openings` table of the games of one PGN file, in the file's order
/// (game_number), whatever the game ids' order.
fn classified(pgn: &Path, table: &OpeningTable) -> DataFrame {
    let dir = tempfile::tempdir().unwrap();
    let input = pgn.display().to_string();
    ingest(dir.path(), &[input], IngestOptions::default(), &mut |_| {}).unwrap();
    let ds = evallab::dataset::Dataset::open(dir.path()).unwrap();
    let out = classify(ds.scan(&GAMES).unwrap(), ds.scan(&MOVES).unwrap(), table).unwrap();
    let order = ds
        .scan(&GAMES)
        .unwrap()
        .select([col(col::GAME_ID), col(col::GAME_NUMBER)])
        .collect()
        .unwrap();
    out.lazy()
        .join(
            order.lazy(),
            [col(col::GAME_ID)],
            [col(col::GAME_ID)],
            JoinArgs::new(JoinType::Inner),
        )
        .sort([col::GAME_NUMBER], SortMultipleOptions::default())
        .collect()
        .unwrap()
}

#[test]
fn games_get_the_last_named_position_they_reach_in_any_move_order() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/openings");
    let table = OpeningTable::read(&data).unwrap();
    assert_eq!(table.lines.len(), 9);
    let out = classified(&data.join("games.pgn"), &table);
    // Played backwards, the first named position names the game (the
    // table's README). 1: Ruy Lopez after 3.Bb5; 2: 1.c4 e6 2.d4 d5 is the
    // QGD position; 3: 2...d6 is in no line, 2.Nf3 is; 4: the FEN is the
    // Ruy Lopez position (ply 0); 5: 1.Nf3 is in no line; 6: 2.Nf3's
    // position again at ply 7 (first at ply 3); 7: Chess960 reaches no
    // line, its start (SP 0) names it; 8: the Ruy Lopez (ply 5, the deepest
    // line) is left by 3...Nb8 4.Bf1 for 2.Nf3's position at ply 7.
    assert_eq!(
        strs(&out, col::ECO),
        [
            s("C60"),
            s("D30"),
            s("C40"),
            s("C60"),
            None,
            s("C40"),
            None,
            s("C40")
        ]
    );
    assert_eq!(strs(&out, col::OPENING)[1], s("Queen's Gambit Declined"));
    assert_eq!(strs(&out, col::OPENING)[6], s("Chess960 SP 0 BBQNNRKR"));
    assert_eq!(
        ints(&out, opening_col::OPENING_PLY),
        [
            Some(5),
            Some(4),
            Some(3),
            Some(0),
            None,
            Some(7),
            Some(0),
            Some(7)
        ]
    );
    assert_eq!(
        strs(&out, opening_col::ECO_TAG),
        [
            None,
            s("A10"),
            s("C40"),
            None,
            s("A04"),
            None,
            None,
            s("C60")
        ]
    );
    let agrees: Vec<Option<bool>> = out
        .column(opening_col::ECO_AGREES)
        .unwrap()
        .bool()
        .unwrap()
        .iter()
        .collect();
    assert_eq!(
        agrees,
        [
            None,
            Some(false),
            Some(true),
            None,
            None,
            None,
            None,
            Some(false)
        ]
    );
    // Every game has a line or says why not.
    let why = strs(&out, opening_col::UNCLASSIFIED);
    assert_eq!(why[..4], [None, None, None, None]);
    assert_eq!(why[4], s("no table line's position reached"));
    assert_eq!(why[6], None);

    let counts = summary(out.clone().lazy()).collect().unwrap();
    let n = |c| ints(&counts, c)[0].unwrap();
    assert_eq!(
        [
            summary_col::GAMES,
            summary_col::CLASSIFIED,
            summary_col::ECO_TAGGED,
            summary_col::COMPARED,
            summary_col::AGREEING
        ]
        .map(n),
        [8, 7, 4, 3, 1]
    );
    let pct = counts.column(summary_col::AGREEING_PCT).unwrap();
    assert_eq!(pct.f64().unwrap().get(0).map(|p| printed(p, 1)), Some(33.3));
    // Without an ECO tag nothing is compared: no share, not NaN.
    let untagged = summary(out.lazy().filter(col(opening_col::ECO_TAG).is_null()))
        .collect()
        .unwrap();
    assert_eq!(ints(&untagged, summary_col::COMPARED)[0], Some(0));
    let pct = untagged.column(summary_col::AGREEING_PCT).unwrap();
    assert_eq!(pct.f64().unwrap().get(0), None);
}

#[test]
fn a_table_without_its_header_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.tsv"), "A00\tx\t1. e4\n").unwrap();
    let e = OpeningTable::read(dir.path()).unwrap_err().to_string();
    assert!(e.contains("a.tsv: the first line is not the header"), "{e}");
    let e = OpeningTable::read(&dir.path().join("none")).unwrap_err();
    assert!(e.to_string().contains("none"), "{e}");
}

/// The fixture's Chess960 games (SP 353, and SP 528 without a Variant tag)
/// and a Double Fischer Random one: each side's start position by its
/// Scharnagl number, the set-up standard game without.
#[test]
fn chess960_games_are_named_by_their_start_positions() {
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/fixtures/chess960.pgn");
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("960.pgn");
    let double = "[Event \"Double FRC\"]\n[Result \"*\"]\n[Variant \"chess960\"]\n\
        [SetUp \"1\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/RKRNNQBB w KQkq - 0 1\"]\n\n1. e4 e5 *\n";
    let text = std::fs::read_to_string(fixture).unwrap() + "\n" + double;
    std::fs::write(&pgn, text).unwrap();
    let out = classified(&pgn, &OpeningTable::default());
    let [white, black] = opening_col::CHESS960_SP;
    assert_eq!(ints(&out, white), [Some(353), None, Some(528), Some(959)]);
    assert_eq!(ints(&out, black), [Some(353), None, Some(528), Some(0)]);
    assert_eq!(
        strs(&out, col::OPENING),
        [
            s("Chess960 SP 353 BNRBKRQN"),
            None,
            s("Chess960 SP 528 BBRNKQNR"),
            s("Chess960 SP 959 RKRNNQBB / SP 0 BBQNNRKR"),
        ]
    );
    assert_eq!(out.column(white).unwrap().dtype(), &DataType::Int16);
}

/// Without `--table` the command reads `../shared/openings` (beside a
/// checkout); where that is missing it stops, says where to get the table,
/// and writes nothing.
#[test]
fn a_missing_table_says_where_to_get_one() {
    let dir = tempfile::tempdir().unwrap();
    let ds = dir.path().join("ds");
    let pgn = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/openings/games.pgn");
    ingest(
        &ds,
        &[pgn.display().to_string()],
        IngestOptions::default(),
        &mut |_| {},
    )
    .unwrap();
    // Run from a folder of the temporary one, so that `../shared` is inside
    // it (from the temporary folder itself it is the system's /tmp/shared).
    let cwd = dir.path().join("work");
    std::fs::create_dir(&cwd).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_evallab"))
        .args(["openings", ds.to_str().unwrap()])
        .current_dir(&cwd)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains(&format!(
            "no opening table at ../shared/openings ({}): pass --table DIR",
            cwd.join("../shared/openings").display()
        )) && err.contains("git clone https://github.com/lichess-org/chess-openings"),
        "{err}"
    );
    assert!(!ds.join("derived/openings.parquet").exists());
}
