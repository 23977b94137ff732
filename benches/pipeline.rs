//! Hot paths behind the parser: the game rows into Arrow columns, those
//! columns into Parquet bytes, and the main queries on a dataset
//! generated from the demo games (data/demo). One bench binary, so that polars
//! is linked once. Run with `cargo bench --bench pipeline`; the parser alone is
//! benched in crates/evallab-pgn, the whole process by scripts/bench_ingest.sh.

use std::hint::black_box;
use std::io::Read;
use std::path::Path;

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main};
use evallab::dataset::Dataset;
use evallab::dataset::part::ParallelWriter;
use evallab::ingest::tables::Tables;
use evallab::ingest::{IngestOptions, ingest};
use evallab::metrics::balance::{BalanceOptions, balance, game_facts};
use evallab::metrics::calibrate::{calibrate_group, observations};
use evallab::metrics::eas::labels;
use evallab::metrics::relevance::{per_move, summary};
use evallab::metrics::x05::{DEFAULT, X05};
use evallab::schema::{GAMES, MOVES, REJECTS};
use evallab_pgn::game::{ParseOptions, Source, parse_batch};
use evallab_pgn::input;
use evallab_pgn::split::Splitter;

const DEMO: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/demo");

/// Ten samples: the queries take tens of milliseconds, and the bench run
/// stays short.
fn group<'a>(c: &'a mut Criterion, name: &str) -> BenchmarkGroup<'a, WallTime> {
    let mut g = c.benchmark_group(name);
    g.sample_size(10);
    g
}

/// The demo TCEC games (with PVs) parsed into the three tables' Arrow
/// builders, and those rows encoded as the ingest's Parquet parts (in memory).
fn ingest_demo(c: &mut Criterion) {
    let mut text = Vec::new();
    input::open_decoded(&Path::new(DEMO).join("demo_tcec.pgn.zst"))
        .and_then(|mut r| r.read_to_end(&mut text))
        .expect("demo games");
    let batch = Splitter::new(&text[..])
        .next_batch(usize::MAX)
        .unwrap()
        .unwrap();
    let src = Source {
        name: "bench",
        sha256: Some("00"),
    };
    let tables = || {
        let mut t = Tables::default();
        parse_batch(&batch, src, ParseOptions::default(), &mut t);
        [t.games.finish(), t.moves.finish(), t.rejects.finish()]
    };
    let mut g = group(c, "ingest");
    g.throughput(Throughput::Bytes(text.len() as u64));
    g.bench_function("tables", |b| b.iter(|| black_box(tables())));
    let rows = tables();
    // The ingest's writer: a batch's columns are encoded on the rayon pool.
    g.bench_function("parquet", |b| {
        b.iter(|| {
            rows.iter()
                .zip([&GAMES, &MOVES, &REJECTS])
                .map(|(rows, table)| {
                    let mut w = ParallelWriter::try_new(Vec::new(), table).unwrap();
                    w.write(rows).unwrap();
                    w.into_inner().unwrap().len()
                })
                .sum::<usize>()
        })
    });
    g.finish();
}

/// balance, calibrate, relevance and the EAS labels on the demo dataset.
fn queries(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let opts = IngestOptions {
        jobs: 1,
        ..IngestOptions::default()
    };
    ingest(dir.path(), &[DEMO.to_string()], opts, &mut |_| {}).unwrap();
    let ds = Dataset::open(dir.path()).unwrap();
    let scan = || (ds.scan(&GAMES).unwrap(), ds.scan(&MOVES).unwrap());
    let bopts = BalanceOptions::default();
    let mut g = group(c, "query");
    g.bench_function("balance", |b| {
        b.iter(|| {
            let (games, moves) = scan();
            let facts = game_facts(games, moves, &bopts, false).unwrap();
            balance(facts, &bopts).unwrap().collect().unwrap()
        })
    });
    g.bench_function("calibrate", |b| {
        b.iter(|| {
            let (games, moves) = scan();
            let facts = game_facts(games, moves, &bopts, true).unwrap();
            let groups = observations(facts, &bopts).unwrap();
            groups
                .values()
                .map(|games| calibrate_group(games, 0, 1))
                .collect::<Vec<_>>()
        })
    });
    let x05 = X05::fixed(DEFAULT);
    g.bench_function("relevance", |b| {
        b.iter(|| {
            let (games, moves) = scan();
            let rows = per_move(games, moves, &bopts.selection.families, &x05, None).unwrap();
            summary(rows, evallab::metrics::balance::Group::Engine, false)
                .collect()
                .unwrap()
        })
    });
    g.bench_function("eas_labels", |b| b.iter(|| labels([scan()]).unwrap()));
    g.finish();
}

criterion_group!(benches, ingest_demo, queries);
criterion_main!(benches);
