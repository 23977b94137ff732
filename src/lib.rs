//! evallab: chess engine game archives (PGN with eval comments) into Parquet
//! tables, and statistics over them as lazy polars queries.
//!
//! The pipeline: [`input`] finds and decompresses files, [`split`] cuts them
//! into batches of whole games, [`game`] validates every move and reads every
//! eval comment ([`comment`]), [`ingest`] writes the [`schema`] tables through
//! [`dataset`], and the metrics read them back with polars.

pub mod analyze;
pub mod comment;
pub mod dataset;
pub mod derived;
pub mod error;
pub mod game;
pub mod ingest;
pub mod input;
pub mod metrics;
pub mod pipeline;
pub mod render;
pub mod schema;
pub mod split;
pub mod tables;
pub mod tags;

pub use error::Error;
