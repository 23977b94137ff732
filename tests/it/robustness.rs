//! Property tests: arbitrary bytes never panic the comment parsers, the
//! splitter or the game parser, and every game the splitter finds ends up
//! either ingested or rejected.

use evallab::ingest::tables::Tables;
use evallab_pgn::comment;
use evallab_pgn::game::{ParseOptions, Source, parse_batch};
use evallab_pgn::split::Splitter;
use proptest::prelude::*;

const FIXTURES: [&str; 3] = [
    include_str!("../../data/fixtures/tcec.pgn"),
    include_str!("../../data/fixtures/malformed.pgn"),
    include_str!("../../data/fixtures/chessbase.pgn"),
];

/// Splits and parses `bytes`; checks that games + rejects = games found.
fn ingest_bytes(bytes: &[u8], batch: usize) {
    let mut split = Splitter::new(bytes);
    let src = Source {
        name: "prop",
        sha256: Some("00"),
    };
    while let Some(b) = split.next_batch(batch).unwrap() {
        let mut t = Tables::default();
        let c = parse_batch(&b, src, ParseOptions::default(), &mut t);
        assert_eq!(c.games + c.rejects, b.games.len() as u64);
        let games = t.games.finish();
        let moves = t.moves.finish();
        assert_eq!(games.num_rows() as u64, c.games);
        assert_eq!(moves.num_rows() as u64, c.plies);
    }
}

/// Bytes that look like PGN: fragments of the fixtures and PGN punctuation.
fn pgnish() -> impl Strategy<Value = Vec<u8>> {
    let atoms = prop_oneof![
        Just(b"[Event \"x\"]\n".to_vec()),
        Just(b"\n".to_vec()),
        Just(b"{".to_vec()),
        Just(b"}".to_vec()),
        Just(b";".to_vec()),
        Just(b"(".to_vec()),
        Just(b")".to_vec()),
        Just(b"1. e4 e5 ".to_vec()),
        Just(b"%".to_vec()),
        Just(b"\r\n".to_vec()),
        Just(b"[FEN \"8/8/8/8/8/8/8/K6k w - - 0 1\"]\n".to_vec()),
        Just(b"[Variant \"fischerandom\"]\n".to_vec()),
        any::<u8>().prop_map(|b| vec![b]),
        (0usize..FIXTURES.len(), 0usize..2000, 1usize..300).prop_map(|(f, at, len)| {
            let s = FIXTURES[f].as_bytes();
            let at = at.min(s.len());
            s[at..(at + len).min(s.len())].to_vec()
        }),
    ];
    prop::collection::vec(atoms, 0..60).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn comment_parser_never_panics(s in any::<String>()) {
        let mut extra = String::new();
        let c = comment::parse(&s, &mut extra);
        if let Some(e) = c.eval {
            let _ = e.normalize(true, c.depth);
            let _ = e.normalize(false, c.depth);
        }
    }

    #[test]
    fn comment_parser_never_panics_on_dialect_like_text(
        s in r"[ -~\t\n]{0,20}(wv|ev|d|mt|tl|s|\[%eval|\[%clk|/|#|M|\+|-|,|=|\.|[0-9]){0,40}"
    ) {
        let mut extra = String::new();
        let _ = comment::parse(&s, &mut extra);
    }

    #[test]
    fn reader_never_panics_on_arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..2000)) {
        ingest_bytes(&bytes, 64);
    }

    #[test]
    fn reader_never_panics_on_pgn_like_bytes(bytes in pgnish(), batch in 1usize..4096) {
        ingest_bytes(&bytes, batch);
    }
}
