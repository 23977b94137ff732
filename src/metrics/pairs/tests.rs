use super::*;
use crate::metrics::Families;

/// A game of the hand-built set: id, file, white, black, result, start FEN
/// key (None: the standard start), and its moves as (book, position key).
type Game = (
    i64,
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    Option<i64>,
    Vec<(bool, i64)>,
);

const STD: i64 = 42;

fn book(keys: &[i64]) -> Vec<(bool, i64)> {
    keys.iter()
        .map(|k| (true, *k))
        .chain([(false, 7)])
        .collect()
}

fn free(keys: &[i64]) -> Vec<(bool, i64)> {
    keys.iter().map(|k| (false, *k)).collect()
}

/// 16 games, by hand (file a.pgn unless said; the opening is the key after
/// the book moves):
/// g1  A–B 1-0 book →100     g2  B–A 1-0 book →100  pair, A 1 (busted)
/// g3  A–B ½   book →200     g5  B–A 0-1 book →200  pair, A 1½ (decisive)
/// g4  C–D 1-0 book →300     g6  D–C ½   book →300  pair, C 1½, interleaved
/// g7  A–B 1-0 book →400     unpaired: g8 has the same colours and replaces it
/// g8  A–B 0-1 book →400     g9  B–A 0-1 book →400  pair, A 1 (busted, Black won both)
/// g10 A–B *                 unpaired: unfinished
/// g11 A–B 1-0 5 plies, standard start, no book: unpaired, no opening
/// g12 A–B 1-0 FEN start 500 g13 B–A 0-1 FEN 500    pair, A 2 (reverse kill)
/// g14 A–B 1-0 no book, ply 8 →600; g15 B–A ½ ply 8 →600: pair, A 1½
/// g16 B–A 1-0 book →100 in b.pgn: unpaired (no partner in its file)
fn games() -> Vec<Game> {
    let eight = |last: i64| free(&[1, 2, 3, 4, 5, 6, 7, 600, last]);
    vec![
        (1, "a.pgn", "A", "B", "1-0", None, book(&[10, 100])),
        (2, "a.pgn", "B", "A", "1-0", None, book(&[10, 100])),
        (3, "a.pgn", "A", "B", "1/2-1/2", None, book(&[20, 200])),
        (4, "a.pgn", "C", "D", "1-0", None, book(&[300])),
        (5, "a.pgn", "B", "A", "0-1", None, book(&[20, 200])),
        (6, "a.pgn", "D", "C", "1/2-1/2", None, book(&[300])),
        (7, "a.pgn", "A", "B", "1-0", None, book(&[400])),
        (8, "a.pgn", "A", "B", "0-1", None, book(&[400])),
        (9, "a.pgn", "B", "A", "0-1", None, book(&[400])),
        (10, "a.pgn", "A", "B", "*", None, book(&[10, 100])),
        (11, "a.pgn", "A", "B", "1-0", None, free(&[1, 2, 3, 4, 5])),
        (12, "a.pgn", "A", "B", "1-0", Some(500), free(&[1, 2])),
        (13, "a.pgn", "B", "A", "0-1", Some(500), free(&[3, 4])),
        (14, "a.pgn", "A", "B", "1-0", None, eight(9)),
        (15, "a.pgn", "B", "A", "1/2-1/2", None, eight(19)),
        (16, "b.pgn", "B", "A", "1-0", None, book(&[10, 100])),
    ]
}

fn frames(games: &[Game]) -> (LazyFrame, LazyFrame) {
    let g = df!(
        col::GAME_ID => games.iter().map(|g| g.0).collect::<Vec<_>>(),
        col::EVENT => games.iter().map(|_| "E").collect::<Vec<_>>(),
        col::ROUND => games.iter().map(|g| g.0.to_string()).collect::<Vec<_>>(),
        col::WHITE => games.iter().map(|g| g.2).collect::<Vec<_>>(),
        col::BLACK => games.iter().map(|g| g.3).collect::<Vec<_>>(),
        col::RESULT => games.iter().map(|g| g.4).collect::<Vec<_>>(),
        col::SOURCE_FILE => games.iter().map(|g| g.1).collect::<Vec<_>>(),
        col::GAME_NUMBER => games.iter().map(|g| g.0 as u32).collect::<Vec<_>>(),
        col::ECO => games.iter().map(|_| Some("C00")).collect::<Vec<_>>(),
        col::OPENING => games.iter().map(|_| None::<&str>).collect::<Vec<_>>(),
        col::START_FEN => games.iter().map(|g| g.5.map(|_| "fen")).collect::<Vec<_>>(),
        col::START_KEY => games.iter().map(|g| g.5.unwrap_or(STD)).collect::<Vec<_>>(),
        col::PLIES => games.iter().map(|g| g.6.len() as u32).collect::<Vec<_>>(),
    )
    .unwrap();
    let (mut id, mut ply, mut is_book, mut key, mut san) = (vec![], vec![], vec![], vec![], vec![]);
    for g in games {
        for (i, (b, k)) in g.6.iter().enumerate() {
            id.push(g.0);
            ply.push(i as u32 + 1);
            is_book.push(*b);
            key.push(*k);
            san.push(format!("m{}", i + 1));
        }
    }
    let m = df!(
        col::GAME_ID => id,
        col::PLY => ply,
        col::IS_BOOK => is_book,
        col::POSITION_KEY => key,
        col::SAN => san,
    )
    .unwrap();
    (g.lazy(), m.lazy())
}

fn i64s(df: &DataFrame, c: &str) -> Vec<i64> {
    df.column(c)
        .unwrap()
        .i64()
        .unwrap()
        .into_no_null_iter()
        .collect()
}

fn strs(df: &DataFrame, c: &str) -> Vec<Option<String>> {
    let s = df.column(c).unwrap().cast(&DataType::String).unwrap();
    s.str()
        .unwrap()
        .iter()
        .map(|v| v.map(str::to_string))
        .collect()
}

fn paired() -> Paired {
    let (g, m) = frames(&games());
    pairs(g, m, &Selection::default(), None).unwrap()
}

#[test]
fn pairing_by_hand() {
    let p = paired();
    assert_eq!(i64s(&p.pairs, p::FIRST_GAME_ID), [1, 3, 4, 8, 12, 14]);
    assert_eq!(i64s(&p.pairs, p::SECOND_GAME_ID), [2, 5, 6, 9, 13, 15]);
    let pts: Vec<f64> = p
        .pairs
        .column(p::PAIR_POINTS)
        .unwrap()
        .f64()
        .unwrap()
        .into_no_null_iter()
        .collect();
    assert_eq!(pts, [1.0, 1.5, 1.5, 1.0, 2.0, 1.5]);
    let open: Vec<Option<u32>> = p
        .pairs
        .column(opening_col::OPENING_PLY)
        .unwrap()
        .u32()
        .unwrap()
        .iter()
        .collect();
    assert_eq!(open, [Some(2), Some(2), Some(1), Some(1), Some(0), Some(8)]);
    assert_eq!(
        i64s(&p.pairs, p::OPENING_KEY),
        [100, 200, 300, 400, 500, 600]
    );
    assert_eq!(i64s(&p.unpaired, col::GAME_ID), [7, 10, 11, 16]);
    let reasons: Vec<_> = strs(&p.unpaired, col::REASON)
        .into_iter()
        .flatten()
        .collect();
    assert_eq!(reasons, [NO_PARTNER, UNFINISHED, NO_OPENING, NO_PARTNER]);
    // Every game is in one pair or unpaired.
    assert_eq!(2 * p.pairs.height() + p.unpaired.height(), games().len());
}

fn f(df: &DataFrame, c: &str, row: usize) -> Option<f64> {
    let s = df.column(c).unwrap().cast(&DataType::Float64).unwrap();
    s.f64().unwrap().get(row)
}

/// A vs B (A first by name), A's view: pair points 1, 1½, 1, 2, 1½
/// → [LL, LD, DD+WL, WD, WW] = [0, 0, 2, 2, 1], busted 2 (g1/g2, g8/g9);
/// games: W 6 (g1 g5 g9 g12 g13 g14), D 2 (g3 g15), L 2 (g2 g8); unpaired
/// 4 (g7 g10 g11 g16). Score 7/10. Per pair /2: .5 .75 .5 1 .75, mean .7,
/// variance (.04 + .0025 + .04 + .09 + .0025)/5 = .035, se = √(.035/5) =
/// 0.0836660; trinomial variance .6·.09 + .2·.04 + .2·.49 = .16, se =
/// √(.16/10) = 0.1264911; ratio √(.4375) = 0.6614378. C vs D: [0, 0, 0, 1, 0].
#[test]
fn pentanomial_by_hand() {
    let df = pentanomial(&paired(), &PairsOptions::default()).unwrap();
    assert_eq!(df.height(), 2);
    assert_eq!(
        strs(&df, metric::ENGINE),
        [Some("A".into()), Some("C".into())]
    );
    let row = |r: usize| -> Vec<Option<f64>> {
        p::BINS
            .iter()
            .chain(&[
                p::BUSTED,
                metric::WINS,
                metric::DRAWS,
                metric::LOSSES,
                p::UNPAIRED,
                p::PAIRS,
            ])
            .map(|c| f(&df, c, r))
            .collect()
    };
    let v = |x: &[f64]| x.iter().map(|x| Some(*x)).collect::<Vec<_>>();
    assert_eq!(row(0), v(&[0., 0., 2., 2., 1., 2., 6., 2., 2., 4., 5.]));
    assert_eq!(row(1), v(&[0., 0., 0., 1., 0., 0., 1., 1., 0., 0., 1.]));
    assert!((f(&df, metric::SCORE, 0).unwrap() - 0.7).abs() < 1e-12);
    assert!((f(&df, p::SCORE_SE, 0).unwrap() - 0.0836660).abs() < 1e-7);
    assert!((f(&df, p::SCORE_SE_TRINOMIAL, 0).unwrap() - 0.1264911).abs() < 1e-7);
    assert!((f(&df, p::SE_RATIO, 0).unwrap() - 0.4375f64.sqrt()).abs() < 1e-12);
    // One pair: no variance, Elo of 75 % but no error, and the reason.
    assert!((f(&df, p::ELO, 1).unwrap() - 190.848501).abs() < 1e-6);
    assert_eq!(f(&df, p::ELO_ERROR, 1), None);
    assert_eq!(
        strs(&df, metric::REASON)[1].as_deref(),
        Some("every unit in one bin: the variance is 0, no error")
    );
}

#[test]
fn engine_view_families_and_sprt() {
    // --engine B: B's view of the same pairs, mirrored counts.
    let opts = PairsOptions {
        group: Group::Engine,
        selection: Selection::new(None, Some("^B$".into()), &[]).unwrap(),
        sprt: Some(math::Sprt::parse("0,10", math::SprtModel::Logistic).unwrap()),
    };
    let df = pentanomial(&paired(), &opts).unwrap();
    assert_eq!(strs(&df, metric::ENGINE), [Some("B".into())]);
    let bins: Vec<_> = p::BINS.iter().map(|c| f(&df, c, 0).unwrap()).collect();
    assert_eq!(bins, [1., 2., 2., 0., 0.]);
    let llr = f(&df, p::LLR, 0).unwrap();
    let expected = opts.sprt.unwrap().llr(&Penta([1, 2, 2, 0, 0])).unwrap();
    assert_eq!(llr, expected);
    assert_eq!(
        strs(&df, p::SPRT)[0].as_deref(),
        Some(opts.sprt.unwrap().verdict(llr).name())
    );
    // B's unpaired games: all four are A–B games; C has none.
    assert_eq!(unpaired(&paired(), &opts).unwrap().height(), 4);
    let only_c = PairsOptions {
        selection: Selection::new(None, Some("^C$".into()), &[]).unwrap(),
        ..PairsOptions::default()
    };
    assert_eq!(unpaired(&paired(), &only_c).unwrap().height(), 0);
    // A family merging C and D into one name leaves no C–D row (self-play).
    let opts = PairsOptions {
        selection: Selection {
            families: Families::parse(&["^[CD]$=CD".into()]).unwrap(),
            ..Selection::default()
        },
        ..PairsOptions::default()
    };
    let df = pentanomial(&paired(), &opts).unwrap();
    assert_eq!(df.height(), 1);
}

#[test]
fn openings_list_by_hand() {
    let (_, m) = frames(&games());
    let df = openings(&paired(), m, &PairsOptions::default()).unwrap();
    assert_eq!(i64s(&df, p::FIRST_GAME_ID), [1, 3, 4, 8, 12, 14]);
    let kinds: Vec<_> = strs(&df, p::KIND).into_iter().flatten().collect();
    assert_eq!(
        kinds,
        [
            "busted",
            "decisive",
            "decisive",
            "busted",
            "reverse kill",
            "decisive"
        ]
    );
    let winners = strs(&df, p::WINNER);
    assert_eq!(winners[0], None);
    assert_eq!(winners[1].as_deref(), Some("A"));
    assert_eq!(winners[2].as_deref(), Some("C"));
    let scores: Vec<_> = strs(&df, p::PAIR_SCORE).into_iter().flatten().collect();
    assert_eq!(
        scores,
        ["1-1", "1.5-0.5", "1.5-0.5", "1-1", "2-0", "1.5-0.5"]
    );
    let text: Vec<_> = strs(&df, p::OPENING_MOVES).into_iter().flatten().collect();
    assert_eq!(
        text,
        ["m1 m2", "m1 m2", "m1", "m1", "", "m1 m2 m3 m4 m5 m6 m7 m8"]
    );
}

/// The openings read a chunk of games at a time (here a game or two a
/// chunk) are those of one pass.
#[test]
fn game_openings_in_chunks_equal_one_pass() {
    let (g, m) = frames(&games());
    let sel = Selection::default();
    let at = |chunk| {
        game_openings(g.clone(), m.clone(), &sel, None, chunk)
            .unwrap()
            .collect()
            .unwrap()
    };
    let one = at(u64::MAX);
    assert!(one.column(p::OPENING_KEY).unwrap().is_not_null().sum() > Some(3));
    assert!(one.equals_missing(&at(1)), "{one}\n{}", at(1));
}

/// A game of a.pgn from the standard start.
fn g(
    id: i64,
    white: &'static str,
    black: &'static str,
    result: &'static str,
    moves: Vec<(bool, i64)>,
) -> Game {
    (id, "a.pgn", white, black, result, None, moves)
}

/// A book's lines open the games without book marks (reading R3): lines
/// ending in key 2 (2 plies) and 21 (4 plies, extending the first). A game
/// waits for its partner at the shallowest line it reaches; the pair's
/// opening is the deepest line both reach. g1 A–B, g2 B–A reach 21 at ply 4
/// and part before ply 8: a pair at 21 with the book, unpaired without it;
/// g3, g4 (5 plies) reach only 2: a pair at 2, without the book no opening;
/// g5, g6 are marked to ply 3 (key 20): the marks stand; g7, g8 reach no
/// line: ply 8 as before; g9 reaches 21 only at ply 6, past the longest
/// line: 2 at ply 2, and no partner.
#[test]
fn book_lines_open_unmarked_games() {
    let marked = |keys: &[i64]| {
        let mut v = book(&keys[..3]);
        v.pop();
        v.extend(free(&keys[3..]));
        v
    };
    let set: Vec<Game> = vec![
        g(
            1,
            "A",
            "B",
            "1-0",
            free(&[1, 2, 20, 21, 50, 51, 52, 53, 54]),
        ),
        g(
            2,
            "B",
            "A",
            "1/2-1/2",
            free(&[1, 2, 20, 21, 60, 61, 62, 63, 64]),
        ),
        g(3, "A", "B", "1-0", free(&[1, 2, 70, 71, 72])),
        g(4, "B", "A", "0-1", free(&[1, 2, 80, 81, 82])),
        g(5, "A", "B", "1-0", marked(&[1, 2, 20, 21, 90])),
        g(6, "B", "A", "1-0", marked(&[1, 2, 20, 21, 91])),
        g(7, "A", "B", "1-0", free(&[1, 3, 4, 5, 6, 7, 8, 600, 9])),
        g(8, "B", "A", "1-0", free(&[1, 3, 4, 5, 6, 7, 8, 600, 19])),
        g(9, "A", "B", "1-0", free(&[1, 2, 3, 4, 5, 21, 6])),
    ];
    let (g, m) = frames(&set);
    let b = Book::from_lines([(2, 2), (21, 4), (2, 2)]);
    assert_eq!((b.keys.clone(), b.max_plies), (vec![2, 21], 4));
    let sel = Selection::default();
    let o = game_openings(g.clone(), m.clone(), &sel, Some(&b), u64::MAX)
        .unwrap()
        .collect()
        .unwrap();
    let ply: Vec<u32> = o
        .column(opening_col::OPENING_PLY)
        .unwrap()
        .u32()
        .unwrap()
        .into_no_null_iter()
        .collect();
    assert_eq!(ply, [2, 2, 2, 2, 3, 3, 8, 8, 2]);
    assert_eq!(i64s(&o, p::OPENING_KEY), [2, 2, 2, 2, 20, 20, 600, 600, 2]);
    let with = pairs(g.clone(), m.clone(), &sel, Some(&b)).unwrap();
    assert_eq!(i64s(&with.pairs, p::FIRST_GAME_ID), [1, 3, 5, 7]);
    // g7 and g8: no marks, no line (g5, g6 are marked).
    assert_eq!(with.off_book, 2);
    let open: Vec<u32> = (with.pairs.column(opening_col::OPENING_PLY).unwrap().u32())
        .unwrap()
        .into_no_null_iter()
        .collect();
    assert_eq!(open, [4, 2, 3, 8]);
    assert_eq!(i64s(&with.pairs, p::OPENING_KEY), [21, 2, 20, 600]);
    assert_eq!(i64s(&with.unpaired, col::GAME_ID), [9]);
    let without = pairs(g, m, &sel, None).unwrap();
    assert_eq!(i64s(&without.pairs, p::FIRST_GAME_ID), [5, 7]);
    assert_eq!(without.off_book, 0);
    assert_eq!(i64s(&without.unpaired, col::GAME_ID), [1, 2, 3, 4, 9]);
}

/// Two games of one line whose engines then play into two longer lines
/// (g1 reaches 21 by a move of A, g2 reaches 31 by a move of B): a pair at
/// the line both reach, 2; two games that reach only different lines are
/// none (g3 at 21, g4 at 31: no line in common, different waiting keys).
#[test]
fn a_pair_opens_at_the_deepest_line_both_reach() {
    let set: Vec<Game> = vec![
        g(1, "A", "B", "1-0", free(&[1, 2, 20, 21, 50, 51])),
        g(2, "B", "A", "0-1", free(&[1, 2, 30, 31, 60, 61])),
        g(3, "A", "B", "1-0", free(&[1, 5, 20, 21, 50, 51])),
        g(4, "B", "A", "0-1", free(&[1, 5, 30, 31, 60, 61])),
    ];
    let (g, m) = frames(&set);
    let b = Book::from_lines([(2, 2), (21, 4), (31, 4)]);
    let paired = pairs(g, m, &Selection::default(), Some(&b)).unwrap();
    assert_eq!(i64s(&paired.pairs, p::FIRST_GAME_ID), [1]);
    assert_eq!(i64s(&paired.pairs, p::OPENING_KEY), [2]);
    assert_eq!(i64s(&paired.unpaired, col::GAME_ID), [3, 4]);
}
