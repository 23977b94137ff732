//! evallab: chess engine game archives (PGN with eval comments) into Parquet
//! tables, and statistics over them as lazy polars queries.
//!
//! The data flow: PGN → rows → dataset → statistics → what people read. A
//! module per concept, each importing only modules listed before it (the
//! `layout` integration test checks that there is no cycle):
//!
//! - [`choice`]: the named values of the library's closed sets (groupings,
//!   formats, methods), for every surface;
//! - [`schema`]: every table's columns, the one source of truth;
//! - [`dataset`]: the parts, the manifest and the derived tables, written
//!   only through a [`dataset::writer::DatasetWriter`];
//! - [`ingest`]: PGN files, through the [`evallab_pgn`] crate (find,
//!   decompress, split into games, validate moves, read eval comments), into
//!   rows ([`ingest::tables`]) and the dataset's parts;
//! - [`metrics`]: the statistics, lazy polars queries beside their pure math;
//! - [`render`]: result tables, plots, annotated PGN and the HTML report;
//! - [`engine`]: UCI engines over the dataset's positions (`analyze`,
//!   `match`, `policy`), stages of one driver, their rows into the dataset;
//! - [`pipeline`]: batch specs (`evallab run`).
//!
//! The `evallab` binary (`src/main.rs`, `src/cli/`) only parses options and
//! calls these.

pub mod choice;
pub mod dataset;
pub mod engine;
pub mod error;
pub mod ingest;
pub mod metrics;
pub mod pipeline;
pub mod render;
pub mod schema;

pub use error::Error;
