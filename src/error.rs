//! The library's error type; the binary maps each kind to an exit code.

use std::path::Path;

/// Everything that can stop a library call.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Reading or writing a file failed.
    #[error("{path}: {source}")]
    Io {
        path: String,
        #[source]
        source: std::io::Error,
    },
    /// The inputs named on the command line cannot be used.
    #[error("{0}")]
    Input(String),
    /// Another process is writing the dataset.
    #[error("{path}: the dataset is being written by {holder}; wait for it to finish")]
    Locked { path: String, holder: String },
    /// A dataset folder is missing or inconsistent.
    #[error("{0}")]
    Dataset(String),
    #[error("parquet: {0}")]
    Parquet(#[from] parquet::errors::ParquetError),
    #[error("arrow: {0}")]
    Arrow(#[from] arrow::error::ArrowError),
    #[error("polars: {0}")]
    Polars(#[from] polars::error::PolarsError),
    #[error("json: {0}")]
    Json(#[from] serde_json::Error),
}

impl Error {
    /// An I/O error about `path`.
    pub fn io(path: &Path, source: std::io::Error) -> Error {
        Error::Io {
            path: path.display().to_string(),
            source,
        }
    }
}
