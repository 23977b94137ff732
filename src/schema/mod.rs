//! The single source of truth for table and column names and types.
//!
//! The Parquet files of a dataset are the contract with Python users and with the
//! metrics (which read them through polars), so every name used anywhere in the
//! crate comes from here. [`SCHEMA_VERSION`] is written into each Parquet file's
//! key-value metadata under [`SCHEMA_VERSION_KEY`]; bump it on any change to a table.
//!
//! One file per idea:
//! - `version`: the schema version, what each version changed, the metadata keys;
//! - `types`: column types, [`Column`], [`Table`] and the `base_table!` macro;
//! - `base`: the tables `evallab ingest` writes, and [`col`], every dataset
//!   table's column names;
//! - `analysis`: the tables the engine stages write (`analyze`, `match`, `policy`);
//! - `derived`: the tables computed from the parts and stored beside them;
//! - [`metric`]: the column names of the metrics' outputs;
//! - [`outputs`]: those columns as people read them (labels, units, meaning);
//! - `algorithms`: what each command computes, versioned.
//!
//! This file is the schema's face: every name is used as `schema::X`, and it
//! holds the catalogue of all tables.

mod algorithms;
mod analysis;
mod base;
mod derived;
pub mod metric;
pub mod outputs;
mod types;
mod version;

pub use algorithms::{ALGORITHM_VERSIONS, algorithm_version};
pub use analysis::{
    ANALYSIS, ANALYSIS_FAILURES, ANALYSIS_TABLES, AnalysisBuilder, FailuresBuilder, MATCH,
    MatchBuilder, POLICY, PolicyBuilder, match_col, policy_col,
};
pub use base::{GAMES, GamesBuilder, MOVES, MovesBuilder, REJECTS, RejectsBuilder, TABLES, col};
pub use derived::{
    DERIVED_TABLES, EAS_LABELS, GAME_FACTS, OPENINGS, RELEVANCE_MOVES, derived_file, eas_col,
    opening_col, relevance_col,
};
pub use types::{ColType, Column, Table};
pub use version::{
    SCHEMA_CHANGES, SCHEMA_VERSION, SCHEMA_VERSION_KEY, TOOL_VERSION_KEY, changes_since,
};

/// Every table of a dataset, in the order they are documented.
pub const ALL_TABLES: [&Table; 7] = [
    &GAMES,
    &MOVES,
    &REJECTS,
    &ANALYSIS,
    &ANALYSIS_FAILURES,
    &MATCH,
    &POLICY,
];

/// Looks up a table (of the dataset, or derived) by name.
pub fn table(name: &str) -> Option<&'static Table> {
    ALL_TABLES
        .into_iter()
        .chain(DERIVED_TABLES)
        .find(|t| t.name == name)
}

/// Name of the dataset manifest file.
pub const MANIFEST_FILE: &str = "manifest.json";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn column_names_are_unique_per_table() {
        for t in ALL_TABLES.into_iter().chain(DERIVED_TABLES) {
            let mut names: Vec<_> = t.columns.iter().map(|c| c.name).collect();
            names.sort_unstable();
            let n = names.len();
            names.dedup();
            assert_eq!(n, names.len(), "duplicate column in {}", t.name);
        }
    }

    #[test]
    fn arrow_schema_carries_version() {
        let s = MOVES.arrow_schema();
        assert_eq!(s.metadata()[SCHEMA_VERSION_KEY], SCHEMA_VERSION);
        assert_eq!(s.field(0).name(), col::GAME_ID);
        assert!(table("rejects").is_some());
        assert!(table("nope").is_none());
    }
}
