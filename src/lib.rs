//! evallab: chess engine game archives (PGN with eval comments) into Parquet
//! tables, and statistics over them as lazy polars queries.
//!
//! The pipeline: the [`evallab_pgn`] crate finds and decompresses files
//! (`input`), cuts them into batches of whole games (`split`), validates every
//! move and reads every eval comment (`game`, `comment`) into a sink; here
//! [`ingest::tables`] is that sink, [`ingest`] writes the [`schema`] tables through
//! [`dataset`], and the metrics read them back with polars.

pub mod analyze;
pub mod dataset;
pub mod engine;
pub mod error;
pub mod facts;
pub mod ingest;
pub mod matching;
pub mod metrics;
pub mod pipeline;
pub mod policy;
pub mod render;
pub mod schema;
pub mod tablebase;

pub use error::Error;
