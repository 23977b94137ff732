//! The match runners' own matches (`tests/data/runners`, how they were made
//! in `tests/data/README.md`): per runner, fastchess and cutechess-cli, the
//! same 200 Stockfish games played out and played again with the runner's
//! adjudication on. The games are deterministic (nodes-limited, one thread),
//! so each adjudicated game is its played-out twin cut where the runner's
//! rules fired: `adjudicate` with the same keys and the runner's `gui` must
//! cut every one at the same ply with the same result (and the other `gui`
//! must not, where the two count differently), and `pairs` must print the
//! runner's own summary of the played-out match, and find the runner's own
//! pairs in its minimal PGN (no `{book}` marks) given the book.

use std::collections::HashMap;
use std::path::Path;

use crate::analyze::{evallab, text};
use evallab::dataset::Dataset;
use evallab::ingest::{IngestOptions, ingest};
use evallab::metrics::Selection;
use evallab::metrics::adjudication::{RuleSet, query};
use evallab::metrics::pairs::{Book, pairs};
use evallab::schema::{GAMES, MOVES, col};
use polars::prelude::*;

fn data(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/runners")
        .join(name)
        .display()
        .to_string()
}

fn dataset(name: &str) -> (tempfile::TempDir, Dataset) {
    let dir = tempfile::tempdir().unwrap();
    ingest(
        dir.path(),
        &[data(name)],
        IngestOptions::default(),
        &mut |_| {},
    )
    .unwrap();
    let ds = Dataset::open(dir.path()).unwrap();
    (dir, ds)
}

fn column_strs(df: &DataFrame, c: &str) -> Vec<String> {
    let s = df.column(c).unwrap().cast(&DataType::String).unwrap();
    s.str()
        .unwrap()
        .iter()
        .map(|v| v.unwrap_or_default().to_string())
        .collect()
}

/// Each game's end, by (round, White): its plies and result.
type Ends = HashMap<(String, String), (String, String)>;

/// The games' recorded ends.
fn recorded(ds: &Dataset) -> Ends {
    let g = ds.scan(&GAMES).unwrap().collect().unwrap();
    let (round, white) = (column_strs(&g, col::ROUND), column_strs(&g, col::WHITE));
    let (plies, result) = (column_strs(&g, col::PLIES), column_strs(&g, col::RESULT));
    round
        .into_iter()
        .zip(white)
        .zip(plies.into_iter().zip(result))
        .collect()
}

/// Where `set` ends each played-out game: the firing ply and the rule's
/// result, or the game's own end where no rule fires.
fn replayed(ds: &Dataset, set: &RuleSet) -> (Ends, HashMap<String, usize>) {
    let l = query::load(
        ds.scan(&GAMES).unwrap(),
        ds.scan(&MOVES).unwrap(),
        &Selection::default(),
        false,
        None,
    )
    .unwrap();
    let o = l.outcomes(set).unwrap();
    let s = |c: &str| column_strs(&o, c);
    let (round, white, plies, result) =
        (s(col::ROUND), s(col::WHITE), s(col::PLIES), s(col::RESULT));
    let (fire, rule, clause) = (s("fire_ply"), s("rule_result"), s("clause"));
    let mut clauses: HashMap<String, usize> = HashMap::new();
    let mut ends = Ends::new();
    for i in 0..o.height() {
        let end = if fire[i].is_empty() {
            (plies[i].clone(), result[i].clone())
        } else {
            *clauses.entry(clause[i].clone()).or_default() += 1;
            (fire[i].clone(), rule[i].clone())
        };
        ends.insert((round[i].clone(), white[i].clone()), end);
    }
    (ends, clauses)
}

/// The games whose replayed end is not fastchess's.
fn disagreeing(replayed: &Ends, fastchess: &Ends) -> Vec<String> {
    let mut out: Vec<String> = fastchess
        .iter()
        .filter(|(k, v)| replayed.get(*k) != Some(*v))
        .map(|(k, v)| format!("{k:?}: fastchess {v:?}, replay {:?}", replayed.get(k)))
        .collect();
    out.sort();
    out
}

/// The preset named after the runner (its `gui` with it), `sets` applied.
fn rules(gui: &str, sets: &[(&str, &str)]) -> RuleSet {
    let mut set = RuleSet::load(gui).unwrap();
    for (k, v) in sets {
        set = set.set(k, v).unwrap();
    }
    set
}

/// `runner`'s two adjudicated runs replayed over its played-out games with
/// its own `gui` (every game ends where the runner ended it) and with the
/// other's (`-maxmoves` then ends some elsewhere).
fn replays_the_runner(runner: &str, other: &str) {
    let (_d, played) = dataset(&format!("{runner}/played-out.pgn.zst"));
    let common = [
        ("draw.movenumber", "30"),
        ("draw.movecount", "4"),
        ("draw.score", "20"),
        ("resign.movecount", "3"),
        ("resign.score", "400"),
    ];
    // `-draw movenumber=30 movecount=4 score=20 -resign movecount=3 score=400`.
    let (_o, one) = dataset(&format!("{runner}/one-sided.pgn.zst"));
    let ended = recorded(&one);
    assert_eq!(ended.len(), 200);
    let (ends, clauses) = replayed(&played, &rules(runner, &common));
    assert_eq!(disagreeing(&ends, &ended), Vec::<String>::new());
    // Both rules fired often enough to be tested by it.
    assert!(
        clauses["resign"] >= 100 && clauses["draw"] >= 40,
        "{clauses:?}"
    );
    // The same with `twosided=true -maxmoves 70`.
    let (_t, two) = dataset(&format!("{runner}/two-sided-maxmoves.pgn.zst"));
    let ended = recorded(&two);
    let mut twosided = common.to_vec();
    twosided.extend([("resign.twosided", "true"), ("maxmoves.movecount", "70")]);
    let (ends, clauses) = replayed(&played, &rules(runner, &twosided));
    assert_eq!(disagreeing(&ends, &ended), Vec::<String>::new());
    assert!(clauses["maxmoves"] >= 10, "{clauses:?}");
    // Counted as the other runner counts `-maxmoves` (cutechess: every ply
    // since the start, the book's too; fastchess: the engines' moves), the
    // long games end elsewhere.
    let (ends, _) = replayed(&played, &rules(other, &twosided));
    assert!(disagreeing(&ends, &ended).len() >= 10);
    // 50 openings from an EPD book (full move 4–6): the draw's move floor is
    // fastchess's board move number − 1, cutechess's plies since the FEN / 2.
    let (_e, played) = dataset(&format!("{runner}/epd-played-out.pgn.zst"));
    let (_a, adjudicated) = dataset(&format!("{runner}/epd-adjudicated.pgn.zst"));
    let ended = recorded(&adjudicated);
    assert_eq!(ended.len(), 100);
    let (ends, _) = replayed(&played, &rules(runner, &common));
    assert_eq!(disagreeing(&ends, &ended), Vec::<String>::new());
    let (ends, _) = replayed(&played, &rules(other, &common));
    assert!(!disagreeing(&ends, &ended).is_empty());
}

#[test]
fn adjudicate_cuts_every_game_where_fastchess_did() {
    replays_the_runner("fastchess", "cutechess");
}

#[test]
fn adjudicate_cuts_every_game_where_cutechess_did() {
    replays_the_runner("cutechess", "fastchess");
}

/// `pairs --by engine` of a match from `engine`'s view, as its one `--format
/// json` row.
fn pairs_of(name: &str, engine: &str, extra: &[&str]) -> serde_json::Value {
    let (d, _ds) = dataset(name);
    let path = d.path().display().to_string();
    let mut args = vec!["pairs", &path, "--by", "engine", "--engine", engine];
    args.extend(["--format", "json"]);
    args.extend(extra);
    let out = evallab(&args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let mut rows: Vec<serde_json::Value> = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(rows.len(), 1);
    rows.remove(0)
}

/// `pairs` on the played-out match prints what fastchess printed at its end:
/// `Elo: 159.78 +/- 40.80, nElo: 217.87 +/- 48.15`, `Ptnml(0-2): [1, 6, 31,
/// 30, 32]`, `LLR: 1.20 … [150.00, 170.00]`, `Wins: 110, Losses: 24, Draws: 66`.
#[test]
fn pairs_print_fastchess_summary() {
    let r = &pairs_of(
        "fastchess/played-out.pgn.zst",
        "^SF-6k$",
        &["--sprt", "150,170"],
    );
    let f = |k: &str| r[k].as_f64().unwrap();
    let penta: Vec<f64> = ["ll", "ld", "dd_wl", "wd", "ww"].map(f).to_vec();
    assert_eq!(penta, [1.0, 6.0, 31.0, 30.0, 32.0]);
    assert_eq!((f("wins"), f("losses"), f("draws")), (110.0, 24.0, 66.0));
    // fastchess prints two decimals.
    for (k, v) in [
        ("elo", 159.78),
        ("elo_error", 40.80),
        ("nelo", 217.87),
        ("nelo_error", 48.15),
        ("llr", 1.20),
        ("llr_upper", 2.94),
    ] {
        assert!(
            (f(k) - v).abs() <= 0.005,
            "{k}: {} against fastchess's {v}",
            f(k)
        );
    }
}

/// cutechess-cli's summary of its played-out match: `101 - 29 - 70 [0.680]`,
/// `Elo difference: 130.9 +/- 40.1`. Its margin is the trinomial one, with its
/// own approximation of the normal quantile (`Elo::erfInv`, Winitzki's: 1.95716
/// for 1.95996), which gives 40.097 (printed 40.1); the same formula with the
/// exact quantile, evallab's, gives 40.155 (both computed by hand from the
/// score's per-game deviation, (Σ (x − μ)² / n) / n).
#[test]
fn pairs_print_cutechess_summary() {
    let r = &pairs_of("cutechess/played-out.pgn.zst", "^SF-6k$", &[]);
    let f = |k: &str| r[k].as_f64().unwrap();
    assert_eq!((f("wins"), f("losses"), f("draws")), (101.0, 29.0, 70.0));
    assert_eq!((f("pairs"), f("unpaired")), (100.0, 0.0));
    assert!((f("elo") - 130.9).abs() <= 0.05, "{}", f("elo"));
    assert!(
        (f("elo_error_trinomial") - 40.1549).abs() <= 1e-3,
        "{}",
        f("elo_error_trinomial")
    );
}

/// A pair: each game's round, the first game's White, the second game's White.
type Pair = (String, String, String, String);

/// Per pair: who played it and its opening's plies; the games in no pair;
/// and for each pair whether both games stand on its opening key at its
/// opening ply.
fn pairing(name: &str, book: Option<&Book>) -> (Vec<(Pair, u32)>, usize, bool) {
    use evallab::schema::metric::pairs as p;
    let (_d, ds) = dataset(name);
    let paired = pairs(
        ds.scan(&GAMES).unwrap(),
        ds.scan(&MOVES).unwrap(),
        &Selection::default(),
        book,
    )
    .unwrap();
    let (games, moves) = (
        ds.scan(&GAMES).unwrap().collect().unwrap(),
        ds.scan(&MOVES).unwrap().collect().unwrap(),
    );
    let white: HashMap<String, String> = column_strs(&games, col::GAME_ID)
        .into_iter()
        .zip(column_strs(&games, col::WHITE))
        .collect();
    let (id, ply, key) = (
        column_strs(&moves, col::GAME_ID),
        column_strs(&moves, col::PLY),
        column_strs(&moves, col::POSITION_KEY),
    );
    let key_at: HashMap<(&String, &String), &String> = id.iter().zip(&ply).zip(&key).collect();
    let s = |c: &str| column_strs(&paired.pairs, c);
    let (first, second) = (s(p::FIRST_GAME_ID), s(p::SECOND_GAME_ID));
    let (round, second_round) = (s(p::FIRST_ROUND), s(p::SECOND_ROUND));
    let (plies, keys) = (
        s(evallab::schema::opening_col::OPENING_PLY),
        s(p::OPENING_KEY),
    );
    let on_key = (0..first.len()).all(|i| {
        [&first[i], &second[i]]
            .iter()
            .all(|g| key_at.get(&(g, &plies[i])) == Some(&&keys[i]))
    });
    let rows = (0..first.len())
        .map(|i| {
            let who = (
                round[i].clone(),
                second_round[i].clone(),
                white[&first[i]].clone(),
                white[&second[i]].clone(),
            );
            (who, plies[i].parse().unwrap())
        })
        .collect();
    (rows, paired.unpaired.height(), on_key)
}

/// The runners' minimal PGN drops the `{book}` marks. Without them an
/// opening is the position after ply 8 and the book's 6- and 7-ply lines go
/// unpaired; with the book (`pairs --book`), every adjudicated run pairs as
/// its played-out twin does by its marks: the same 100 pairs, each opening
/// a line of the book both games stand on, as long as the marked one or,
/// where both games then play on into a longer line, longer (reading R3 of
/// docs/definitions/pairs.md).
#[test]
fn the_book_pairs_the_minimal_pgn_as_the_marks_do() {
    let book = Book::read(Path::new(&data("book.pgn.zst")), None).unwrap();
    assert_eq!((book.keys.len(), book.max_plies), (150, 10));
    for (runner, unmarked) in [("fastchess", 22), ("cutechess", 28)] {
        let (marked, none, on_key) = pairing(&format!("{runner}/played-out.pgn.zst"), None);
        assert_eq!((marked.len(), none, on_key), (100, 0, true));
        for run in ["one-sided", "two-sided-maxmoves"] {
            let name = format!("{runner}/{run}.pgn.zst");
            assert_eq!(pairing(&name, None).1, unmarked, "{name} without the book");
            let (found, none, on_key) = pairing(&name, Some(&book));
            assert_eq!((none, on_key), (0, true), "{name}");
            let who = |v: &[(Pair, u32)]| v.iter().map(|r| r.0.clone()).collect::<Vec<_>>();
            assert_eq!(who(&found), who(&marked), "{name}");
            let longer = found.iter().zip(&marked).filter(|(f, m)| f.1 != m.1);
            for (f, m) in longer {
                assert!(
                    f.1 > m.1,
                    "{name} round {}: {} < {} marked",
                    f.0.0,
                    f.1,
                    m.1
                );
            }
        }
    }
}

/// A runner told `-openings plies=N` plays each book line's first N plies
/// only; `--book-plies N` cuts the lines the same way. Cut at 6 (the book's
/// lines have 6–10), every game of the minimal run stands on exactly one
/// cut line, at ply 6: the same 100 pairs, each opening 6 plies long.
#[test]
fn book_lines_cut_as_the_runner_cuts_them() {
    let book = Book::read(Path::new(&data("book.pgn.zst")), Some(6)).unwrap();
    assert_eq!(book.max_plies, 6);
    let name = "fastchess/one-sided.pgn.zst";
    let (found, none, on_key) = pairing(name, Some(&book));
    assert_eq!((found.len(), none, on_key), (100, 0, true));
    assert!(found.iter().all(|(_, ply)| *ply == 6));
    let (marked, _, _) = pairing("fastchess/played-out.pgn.zst", None);
    let who = |v: &[(Pair, u32)]| v.iter().map(|r| r.0.clone()).collect::<Vec<_>>();
    assert_eq!(who(&found), who(&marked));
    let r = &pairs_of(
        name,
        "^SF-6k$",
        &["--book", &data("book.pgn.zst"), "--book-plies", "6"],
    );
    assert_eq!(r["pairs"].as_f64(), Some(100.0));
}

/// fastchess at `-concurrency 2` writes a game when it ends, so 30 of 300
/// games come before a game of an earlier round, and its minimal PGN has no
/// marks: with the book, `pairs` finds fastchess's own 150 pairs (both games
/// of each have one Round, as fastchess numbers a pair) and prints its
/// summary, `Elo: -216.51 +/- 46.60, nElo: -236.47 +/- 39.32`, `Ptnml(0-2):
/// [81, 24, 32, 6, 7]`, `Wins: 52, Losses: 218, Draws: 30` (SF-a's view).
#[test]
fn the_book_pairs_a_concurrent_match_as_fastchess_did() {
    let name = "fastchess/concurrent-minimal.pgn.zst";
    let book = data("book.pgn.zst");
    let r = &pairs_of(name, "^SF-a$", &["--book", &book]);
    let f = |k: &str| r[k].as_f64().unwrap();
    let penta: Vec<f64> = ["ll", "ld", "dd_wl", "wd", "ww"].map(f).to_vec();
    assert_eq!(penta, [81.0, 24.0, 32.0, 6.0, 7.0]);
    assert_eq!((f("wins"), f("losses"), f("draws")), (52.0, 218.0, 30.0));
    assert_eq!((f("pairs"), f("unpaired")), (150.0, 0.0));
    for (k, v) in [
        ("elo", -216.51),
        ("elo_error", 46.60),
        ("nelo", -236.47),
        ("nelo_error", 39.32),
    ] {
        assert!(
            (f(k) - v).abs() <= 0.005,
            "{k}: {} against fastchess's {v}",
            f(k)
        );
    }
    let book = Book::read(Path::new(&book), None).unwrap();
    let (found, none, on_key) = pairing(name, Some(&book));
    assert_eq!((found.len(), none, on_key), (150, 0, true));
    assert!(
        found.iter().all(|((_, _, a, b), _)| a != b),
        "colours swapped"
    );
    assert!(
        found.iter().all(|((a, b, _, _), _)| a == b),
        "a pair across rounds"
    );
    let mut numbers: Vec<u32> = found
        .iter()
        .map(|((r, ..), _)| r.parse().unwrap())
        .collect();
    numbers.sort_unstable();
    assert_eq!(numbers, (1..=150).collect::<Vec<_>>());
    assert_eq!(pairing(name, None).1, 38, "without the book");
}

/// `--book` through the CLI (`pairs`, `report`), and its errors: a missing
/// file names the option, an EPD book says that it is not needed.
#[test]
fn pairs_book_option() {
    let r = &pairs_of(
        "fastchess/one-sided.pgn.zst",
        "^SF-6k$",
        &["--book", &data("book.pgn.zst")],
    );
    assert_eq!(
        (r["pairs"].as_f64(), r["unpaired"].as_f64()),
        (Some(100.0), Some(0.0))
    );
    let (d, _ds) = dataset("fastchess/one-sided.pgn.zst");
    let path = d.path().display().to_string();
    let run = |book: &str| evallab(&["pairs", &path, "--book", book]);
    let missing = run("no-such-book.pgn");
    assert!(!missing.status.success());
    let err = text(&missing.stderr);
    assert!(
        err.contains("--book no-such-book.pgn: no such file"),
        "{err}"
    );
    // The report pairs as `pairs` does and says which book it used.
    let page = tempfile::tempdir().unwrap();
    let (book, out) = (data("book.pgn.zst"), page.path().display().to_string());
    let report = evallab(&["report", &path, "--book", &book, "-o", &out]);
    assert!(report.status.success(), "{}", text(&report.stderr));
    let html = std::fs::read_to_string(page.path().join("index.html")).unwrap();
    assert!(
        html.contains(
            "(--book: 150 lines of up to 10 plies; docs/definitions/pairs.md, reading R3)"
        )
    );
    assert!(
        html.contains("<td>SF-4k</td><td>SF-6k</td><td>100</td>"),
        "100 pairs"
    );
    let epd = tempfile::tempdir().unwrap();
    let path = epd.path().join("book.epd");
    std::fs::write(
        &path,
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - hmvc 0; fmvn 1;\n",
    )
    .unwrap();
    let out = run(&path.display().to_string());
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(
        err.contains("an EPD book, which pairing needs no book for"),
        "{err}"
    );
    // A book none of whose lines the games reach: stderr says so and how.
    let other = epd.path().join("other.pgn");
    std::fs::write(&other, "1. a3 a6 *\n").unwrap();
    let out = run(&other.display().to_string());
    assert!(out.status.success());
    let err = text(&out.stderr);
    assert!(
        err.contains(
            "200 games without book marks reach no line of the book: played with \
             `-openings plies=N`? (--book-plies N)"
        ),
        "{err}"
    );
}

/// A book as the runners read it (`partial-book.pgn`): its second line has a
/// move that cannot be played (`2...Qxh7`), its last line no result and no
/// final newline. fastchess and cutechess-cli (which warns `Illegal move:
/// Qxh7`) both play the second line's first 3 plies and the last line whole,
/// in a 3-round match of 2 games each (`-openings file=partial-book.pgn
/// format=pgn order=sequential -rounds 3 -games 2 -repeat`, minimal PGN). The
/// book reads the same: 3 lines of 6, 3 and 4 plies, a note for each of the
/// two, and every game paired at its line.
#[test]
fn a_book_is_read_as_the_runners_read_it() {
    let book = Book::read(Path::new(&data("partial-book.pgn")), None).unwrap();
    assert_eq!((book.keys.len(), book.max_plies), (3, 6));
    assert_eq!(book.notes.len(), 2, "{:?}", book.notes);
    assert!(book.notes[0].contains(
        "book line 2 (line 7 of the file): illegal move 2...Qxh7; its first 3 plies taken, \
         as the runners play it"
    ));
    assert_eq!(
        book.notes[1],
        format!(
            "{}: book line 3 (line 11 of the file): no result before the end of the file; \
             its first 4 plies taken, as the runners play it",
            data("partial-book.pgn")
        )
    );
    for runner in ["fastchess", "cutechess"] {
        let name = format!("{runner}/partial-book-minimal.pgn.zst");
        let (found, none, on_key) = pairing(&name, Some(&book));
        assert_eq!((found.len(), none, on_key), (3, 0, true), "{runner}");
        let mut plies: Vec<u32> = found.iter().map(|(_, p)| *p).collect();
        plies.sort_unstable();
        assert_eq!(plies, [3, 4, 6], "{runner}");
    }
    // The notes reach the user on stderr.
    let (d, _ds) = dataset("cutechess/partial-book-minimal.pgn.zst");
    let path = d.path().display().to_string();
    let out = evallab(&["pairs", &path, "--book", &data("partial-book.pgn")]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(
        err.contains("note: ") && err.contains("illegal move 2...Qxh7"),
        "{err}"
    );
    // A line whose first move cannot be played is no opening: an error.
    let bad = tempfile::tempdir().unwrap();
    let file = bad.path().join("bad.pgn");
    std::fs::write(
        &file,
        "[Event \"x\"]\n\n1. e4 e5 *\n\n[Event \"y\"]\n\n1. Ke2 e5 *\n",
    )
    .unwrap();
    let err = Book::read(&file, None).unwrap_err().to_string();
    assert!(
        err.contains("book line 2 (line 7 of the file): illegal move 1.Ke2"),
        "{err}"
    );
}
