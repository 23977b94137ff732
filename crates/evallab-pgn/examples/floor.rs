//! The parts of an ingest that no implementation can skip, each timed alone
//! (issue 41: where the floor of `evallab ingest`'s CPU time is). Run by
//! `scripts/bench_ingest.sh` (`BENCH_FLOOR=1`) under `/usr/bin/time`:
//!
//!   floor validate FILE...  pgn-reader 0.29 + shakmaty play every mainline
//!                           move (the yardstick; no comment read, no output)
//!   floor hash FILE...      the inputs' sha256, as the ingest computes it
//!   floor parse FILE...     evallab's parser into a counting sink: tags,
//!                           SAN, keys, comments, every record built, no
//!                           Arrow, no Parquet (the ingest minus its writer)
//!   floor pv FILE...        the `pv` column's bytes, as stored, to stdout
//!                           (for `zstd -1` / `lz4 -1` to compress alone)
//!
//! Each prints a count to stderr so that nothing is optimised away.

#[path = "../tests/support/yardstick.rs"]
mod yardstick;

use std::io::{self, Write};
use std::path::Path;

use evallab_pgn::game::{ParseOptions, Source, parse_batch};
use evallab_pgn::input::{hash_file, open_decoded};
use evallab_pgn::sink::{Counter, GameRecord, MoveRecord, RejectRecord, Sink};
use evallab_pgn::split::Splitter;

/// The splitter's batch, as the ingest sizes it (`IngestOptions::batch_bytes`).
const BATCH: usize = 4 << 20;

/// Writes each ply's PV to stdout, one after another (Parquet stores the
/// values back to back too; its 4-byte lengths are left out).
struct Pv<W: Write>(W, u64);

impl<W: Write> Sink for Pv<W> {
    fn mv(&mut self, m: &MoveRecord<'_>) {
        if let Some(pv) = m.pv {
            self.0.write_all(pv.as_bytes()).expect("stdout");
            self.1 += pv.len() as u64;
        }
    }
    fn game(&mut self, _: &GameRecord<'_>) {}
    fn reject(&mut self, _: &RejectRecord<'_>) {}
}

fn parse_into<S: Sink>(files: &[String], sink: &mut S) -> io::Result<()> {
    let src = Source {
        name: "floor",
        sha256: Some("00"),
    };
    for f in files {
        let mut split = Splitter::new(open_decoded(Path::new(f))?);
        while let Some(batch) = split.next_batch(BATCH)? {
            parse_batch(&batch, src, ParseOptions::default(), sink);
        }
    }
    Ok(())
}

fn main() -> io::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (mode, files) = args
        .split_first()
        .expect("usage: floor validate|hash|parse|pv FILE...");
    match mode.as_str() {
        "validate" => {
            let mut plies = 0;
            for f in files {
                let mut visitor = yardstick::Validate { keep_uci: false };
                let mut reader = pgn_reader::Reader::new(open_decoded(Path::new(f))?);
                for g in reader.read_games(&mut visitor) {
                    plies += g?.plies;
                }
            }
            eprintln!("{plies} plies validated");
        }
        "hash" => {
            let mut bytes = 0;
            for f in files {
                bytes += hash_file(Path::new(f))?.0;
            }
            eprintln!("{bytes} bytes hashed");
        }
        "parse" => {
            let mut sink = Counter::default();
            parse_into(files, &mut sink)?;
            eprintln!("{sink:?}");
        }
        "pv" => {
            let mut sink = Pv(io::BufWriter::new(io::stdout().lock()), 0);
            parse_into(files, &mut sink)?;
            sink.0.flush()?;
            eprintln!("{} PV bytes", sink.1);
        }
        other => panic!("unknown mode {other}: validate|hash|parse|pv"),
    }
    Ok(())
}
