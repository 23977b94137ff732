//! Priors a user brings: a Parquet file with game_id, ply, move (UCI) and
//! prior, read as a policy run so that one ease query serves both sources.

use std::path::Path;

use polars::prelude::*;

use crate::Error;
use crate::schema::{col, policy_col};

/// The label the user's priors carry in place of a policy run's.
pub const USER_LABEL: &str = "user-policy";

/// The user's priors with the policy table's columns (label [`USER_LABEL`]).
/// Priors may be fractions or percentages (the ease query tells them apart
/// by the table's largest prior).
pub fn scan(file: &Path) -> Result<LazyFrame, Error> {
    if !file.exists() {
        return Err(Error::io(file, evallab_pgn::input::not_found()));
    }
    let path = PlRefPath::new(file.to_string_lossy().as_ref());
    let unusable = |e: &dyn std::fmt::Display| {
        Error::InputData(format!(
            "{}: not a table of priors ({e}); --policy-file needs a Parquet file with \
             columns {}, {}, {} (UCI) and {}",
            file.display(),
            col::GAME_ID,
            col::PLY,
            col::MOVE,
            policy_col::PRIOR
        ))
    };
    let mut lf =
        LazyFrame::scan_parquet(path, ScanArgsParquet::default()).map_err(|e| unusable(&e))?;
    // Read the file's schema now: a file that is no Parquet, or lacks a
    // column, fails here naming itself, not later inside the ease query.
    let schema = lf.collect_schema().map_err(|e| unusable(&e))?;
    for name in [col::GAME_ID, col::PLY, col::MOVE, policy_col::PRIOR] {
        if schema.get(name).is_none() {
            return Err(unusable(&format!("no column {name}")));
        }
    }
    Ok(lf.select([
        col(col::GAME_ID).cast(DataType::Int64),
        col(col::PLY).cast(DataType::UInt32),
        col(col::MOVE).cast(DataType::String),
        col(policy_col::PRIOR).cast(DataType::Float64),
        lit(USER_LABEL).alias(col::LABEL),
    ]))
}
