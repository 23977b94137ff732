//! The integration tests, in one binary so that polars is linked once
//! (ripgrep's layout: `autotests = false` and one `[[test]]` in Cargo.toml).
//!
//! - [`analyze`]: `evallab analyze` with Stockfish and with misbehaving engines;
//! - [`cli`]: the binary end to end: exit codes, stdin, locks, crashes, pipelines;
//! - [`matching`]: `evallab match` on hand-picked positions with Stockfish;
//! - [`eas`]: EAS labels and scores on hand-built games, against pgn-extract;
//! - [`ease`]: `policy` and `ease` with lc0 + Maia-1900 and Stockfish;
//! - [`fixtures`]: hand-written PGN in `data/fixtures`, values computed by hand;
//! - [`robustness`]: property tests of the splitter, the parsers and the ingest;
//! - [`shards`]: sharded ingest and commit, and statistics from per-part facts;
//! - [`snapshots`]: every subcommand's stdout on the fixture dataset;
//! - [`tcec`]: invariants of the real TCEC archive in `../shared/tcec`.

mod analyze;
mod cli;
mod eas;
mod ease;
mod fixtures;
mod matching;
mod robustness;
mod shards;
mod snapshots;
mod tcec;
