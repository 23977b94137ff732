//! Hot paths of the ingest: comment parsing, splitting and whole-game parsing.
//! Run with `cargo bench -p evallab-pgn`; the whole-process benchmark is
//! scripts/bench_ingest.sh. Whole-game parsing writes into a counting sink, so
//! it measures the parser alone (evallab's Arrow builders are not built here).
//! Beside it, the yardstick: pgn-reader 0.29 with shakmaty playing every
//! mainline move (parse and validate, no comments read, no output).

#[path = "../tests/support/yardstick.rs"]
mod yardstick;

use std::hint::black_box;
use std::io::Read;
use std::path::Path;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use evallab_pgn::game::{ParseOptions, Source, parse_batch};
use evallab_pgn::movetext::Lexer;
use evallab_pgn::sink::Counter;
use evallab_pgn::split::Splitter;
use evallab_pgn::{comment, input};

const TCEC: &str = "d=45, sd=61, pd=Nc6, mt=146610, tl=1656390, s=164179065, n=24070292811, \
pv=f4 Nc6 Nf3 e5 fxe5 Nxe5 Nxe5 Qxe5 d4 Qe7 Bd3 d6 O-O Nf6 Nc3 O-O, tb=37272, h=42.0, \
ph=0.0, wv=1.07, R50=50, Rd=-9, Rr=-1000, mb=+0+0+0+0+0,";

fn comments(c: &mut Criterion) {
    let mut g = c.benchmark_group("comment");
    let mut extra = String::new();
    for (name, text) in [
        ("tcec", TCEC),
        ("cutechess", "+0.35/21 1.2s"),
        ("lichess", "[%eval 0.17] [%clk 0:00:30]"),
    ] {
        g.throughput(Throughput::Bytes(text.len() as u64));
        g.bench_function(name, |b| {
            b.iter(|| {
                extra.clear();
                black_box(comment::parse(black_box(text), &mut extra));
            })
        });
    }
    g.finish();
}

/// The project's demo games (data/demo, 132 games each, real engine output):
/// one TCEC-style archive with PVs, one cutechess-style archive.
fn demo() -> Vec<(&'static str, Vec<u8>)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/demo/");
    ["demo_tcec.pgn.zst", "demo_cutechess.pgn.gz"]
        .into_iter()
        .map(|f| {
            let mut text = Vec::new();
            input::open_decoded(Path::new(&format!("{dir}{f}")))
                .and_then(|mut r| r.read_to_end(&mut text))
                .expect("demo games (data/demo)");
            (f.split('.').next().unwrap_or(f), text)
        })
        .collect()
}

fn games(c: &mut Criterion) {
    let src = Source {
        name: "bench",
        sha256: Some("00"),
    };
    let mut g = c.benchmark_group("game");
    for (name, text) in demo() {
        g.throughput(Throughput::Bytes(text.len() as u64));
        g.bench_function(format!("split/{name}"), |b| {
            b.iter(|| {
                let mut s = Splitter::new(&text[..]);
                while let Some(batch) = s.next_batch(1 << 20).unwrap() {
                    black_box(batch.games.len());
                }
            })
        });
        let batch = Splitter::new(&text[..])
            .next_batch(usize::MAX)
            .unwrap()
            .unwrap();
        g.bench_function(format!("parse_batch/{name}"), |b| {
            b.iter(|| {
                let mut sink = Counter::default();
                black_box(parse_batch(&batch, src, ParseOptions::default(), &mut sink));
                black_box(sink);
            })
        });
        // The own lexer alone: every movetext token of every game (no SAN
        // read, no move played), the part pgn-reader's reader does.
        g.bench_function(format!("lexer/{name}"), |b| {
            b.iter(|| {
                let tokens: usize = batch
                    .games
                    .iter()
                    .map(|span| Lexer::new(batch.movetext(span)).count())
                    .sum();
                black_box(tokens);
            })
        });
        g.bench_function(format!("pgn_reader/{name}"), |b| {
            b.iter(|| {
                let mut visitor = yardstick::Validate { keep_uci: false };
                let mut reader = pgn_reader::Reader::new(&text[..]);
                let plies: usize = reader
                    .read_games(&mut visitor)
                    .map(|g| g.expect("in memory").plies)
                    .sum();
                black_box(plies);
            })
        });
    }
    g.finish();
}

criterion_group!(benches, comments, games);
criterion_main!(benches);
