//! The own lexer against pgn-reader (issue 41): on the TCEC archive in
//! `../shared/tcec`, every game both read from the standard position has the
//! same mainline, move for move (as UCI). pgn-reader drops a token it cannot
//! read without a callback (`e8Q`, `d7d8R`), which is why the lexer is our
//! own; where the two differ, this test names the game.

#[path = "support/yardstick.rs"]
mod yardstick;

use std::collections::BTreeMap;
use std::io::Read;
use std::path::Path;

use evallab_pgn::game::{ParseOptions, Source, parse_batch};
use evallab_pgn::input;
use evallab_pgn::sink::{GameRecord, MoveRecord, RejectRecord, Sink};
use evallab_pgn::split::Splitter;

/// Each game's UCI moves by game number, the standard games' tags.
#[derive(Default)]
struct Collect {
    games: usize,
    moves: BTreeMap<i64, Vec<String>>,
    standard: Vec<(i64, [String; 4])>,
    rejected: usize,
}

impl Sink for Collect {
    fn mv(&mut self, m: &MoveRecord<'_>) {
        self.moves
            .entry(m.game_id)
            .or_default()
            .push(m.uci.to_string());
    }
    fn game(&mut self, g: &GameRecord<'_>) {
        self.games += 1;
        if g.start_fen.is_none() && g.variant == "standard" {
            let tag = |t: Option<&str>| t.unwrap_or("").to_string();
            let tags = [tag(g.event), tag(g.round), tag(g.white), tag(g.black)];
            self.standard.push((g.game_id, tags));
        }
    }
    fn reject(&mut self, _: &RejectRecord<'_>) {
        self.rejected += 1;
    }
}

#[test]
fn own_lexer_and_pgn_reader_read_the_same_moves() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/tcec");
    if !dir.join("MANIFEST.tsv").exists() {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI=true but ../shared/tcec/MANIFEST.tsv is missing"
        );
        eprintln!("SKIPPED: ../shared/tcec not found");
        return;
    }
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".pgn.zst"))
        .collect();
    files.sort();
    let (mut games, mut plies, mut set_up, mut rejected) = (0, 0, 0, 0);
    for path in &files {
        let mut text = Vec::new();
        input::open_decoded(path)
            .and_then(|mut r| r.read_to_end(&mut text))
            .unwrap();
        let mut ours = Collect::default();
        let src = Source {
            name: "x",
            sha256: None,
        };
        let mut split = Splitter::new(&text[..]);
        while let Some(batch) = split.next_batch(1 << 22).unwrap() {
            parse_batch(&batch, src, ParseOptions { keep_pv: false }, &mut ours);
        }
        let mut reader = pgn_reader::Reader::new(&text[..]);
        let mut visitor = yardstick::Validate { keep_uci: true };
        let theirs: Vec<yardstick::Game> = reader
            .read_games(&mut visitor)
            .collect::<Result<_, _>>()
            .unwrap();
        let name = path.file_name().unwrap().to_string_lossy();
        // The same game in both: by its tags, the n-th game with those tags.
        let mut by_tags: BTreeMap<&[String; 4], std::collections::VecDeque<&yardstick::Game>> =
            BTreeMap::new();
        for g in &theirs {
            by_tags.entry(&g.tags).or_default().push_back(g);
        }
        for (id, tags) in &ours.standard {
            let g = by_tags
                .get_mut(tags)
                .and_then(|q| q.pop_front())
                .unwrap_or_else(|| panic!("{name} game {id}: pgn-reader has no game {tags:?}"));
            // Our reader saw no FEN in it: neither may pgn-reader.
            assert!(
                !g.custom_start,
                "{name} game {id}: a FEN for pgn-reader only"
            );
            let mine = ours.moves.get(id).map_or(&[][..], Vec::as_slice);
            assert!(
                g.error.is_none(),
                "{name} game {id}: pgn-reader: {:?}",
                g.error
            );
            assert_eq!(mine, &g.uci[..], "{name} game {id}");
            games += 1;
            plies += g.plies;
        }
        rejected += ours.rejected;
        set_up += ours.games - ours.standard.len();
    }
    eprintln!(
        "differential: {games} games, {plies} plies equal; {set_up} from a set-up position, {rejected} rejected"
    );
    // Every game of the archive (MANIFEST.tsv: 13,905) is compared, set up
    // from a FEN (not the standard start) or rejected (pgn-reader cannot
    // play it either: its moves are not read here).
    let manifest = std::fs::read_to_string(dir.join("MANIFEST.tsv")).unwrap();
    let listed: usize = manifest
        .lines()
        .skip(1)
        .map(|l| l.rsplit('\t').next().unwrap().parse::<usize>().unwrap())
        .sum();
    assert_eq!(games + set_up + rejected, listed);
    assert!(games > 0 && plies > 0);
}
