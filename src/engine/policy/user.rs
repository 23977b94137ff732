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
    let lf = LazyFrame::scan_parquet(path, ScanArgsParquet::default())
        .map_err(|e| Error::InputData(format!("{}: {e}", file.display())))?;
    Ok(lf.select([
        col(col::GAME_ID).cast(DataType::Int64),
        col(col::PLY).cast(DataType::UInt32),
        col(col::MOVE).cast(DataType::String),
        col(policy_col::PRIOR).cast(DataType::Float64),
        lit(USER_LABEL).alias(col::LABEL),
    ]))
}
