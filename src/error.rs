//! The library's error type; each kind has its exit code.
//!
//! | code | kind |
//! |---|---|
//! | 0 | success (also: stdout closed early, as in `evallab schema \| head`) |
//! | 1 | any other error |
//! | 2 | usage: a bad option, value or combination (clap's own errors too) |
//! | 3 | games were rejected under `ingest --strict` |
//! | 4 | input data: an input that cannot be used (no PGN found, a bad option file) |
//! | 5 | I/O: reading or writing a named file failed |
//! | 6 | dataset: missing, inconsistent, locked by another writer, or unreadable tables |
//! | 7 | render: a plot or report could not be drawn |
//! | 8 | engine: a UCI engine could not be started or set up |

use std::path::Path;

/// Everything that can stop a library call.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A bad option, value or combination of options.
    #[error("{0}")]
    Usage(String),
    /// An input that cannot be used (no PGN where one was named, a bad file
    /// given as an option).
    #[error("{0}")]
    InputData(String),
    /// Reading or writing a file failed. (The io error is not the `source`:
    /// it is already in the message, and a chain would print it twice.)
    #[error("{path}: {err}")]
    Io { path: String, err: std::io::Error },
    /// Another process is writing the dataset.
    #[error("{path}: the dataset is being written by {holder}; wait for it to finish")]
    Locked { path: String, holder: String },
    /// A dataset folder is missing or inconsistent.
    #[error("{0}")]
    Dataset(String),
    /// A plot or report could not be drawn.
    #[error("{0}")]
    Render(String),
    /// A UCI engine could not be started or set up (bad path, no `uciok`,
    /// an option it refuses). Failures during a search are recorded, not raised.
    #[error("{0}")]
    Engine(String),
    #[error("parquet: {0}")]
    Parquet(#[from] parquet::errors::ParquetError),
    #[error("arrow: {0}")]
    Arrow(#[from] arrow::error::ArrowError),
    #[error("polars: {0}")]
    Polars(#[from] polars::error::PolarsError),
    #[error("json: {0}")]
    Json(#[from] serde_json::Error),
}

/// The parsing crate's kinds keep their names, and so their exit codes.
impl From<evallab_pgn::Error> for Error {
    fn from(e: evallab_pgn::Error) -> Error {
        match e {
            evallab_pgn::Error::Usage(m) => Error::Usage(m),
            evallab_pgn::Error::InputData(m) => Error::InputData(m),
            evallab_pgn::Error::Io { path, err } => Error::Io { path, err },
        }
    }
}

impl Error {
    /// An I/O error about `path`.
    pub fn io(path: &Path, err: std::io::Error) -> Error {
        Error::Io {
            path: path.display().to_string(),
            err,
        }
    }

    /// This error as an I/O error about `path` when an operating system
    /// error is behind it: a full disk under parquet's or polars' writer
    /// ("External: No space left on device …") then names the file it was
    /// writing, and exits as an I/O error. Any other error is returned as is.
    pub fn writing(self, path: &Path) -> Error {
        let inner: Option<&(dyn std::error::Error + 'static)> = match &self {
            Error::Parquet(e) => Some(e),
            Error::Arrow(e) => Some(e),
            Error::Polars(e) => Some(e),
            _ => None,
        };
        let mut cause = inner;
        while let Some(e) = cause {
            if let Some(io) = e.downcast_ref::<std::io::Error>() {
                let err = match io.raw_os_error() {
                    Some(code) => std::io::Error::from_raw_os_error(code),
                    None => std::io::Error::new(io.kind(), io.to_string()),
                };
                return Error::io(path, err);
            }
            cause = e.source();
        }
        self
    }

    /// The process exit code of this kind (see the module docs).
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::Usage(_) => 2,
            Error::InputData(_) => 4,
            Error::Io { .. } => 5,
            Error::Locked { .. }
            | Error::Dataset(_)
            | Error::Parquet(_)
            | Error::Arrow(_)
            | Error::Polars(_)
            | Error::Json(_) => 6,
            Error::Render(_) => 7,
            Error::Engine(_) => 8,
        }
    }

    /// Whether this says the dataset cannot be written now: another process
    /// holds its lock, or its folder is read-only to this user. A cache
    /// (EAS labels) is then computed and not stored.
    pub fn is_unwritable(&self) -> bool {
        use std::io::ErrorKind::{PermissionDenied, ReadOnlyFilesystem};
        match self {
            Error::Locked { .. } => true,
            Error::Io { err, .. } => matches!(err.kind(), PermissionDenied | ReadOnlyFilesystem),
            _ => false,
        }
    }

    /// Whether this is a write to a closed pipe (the reader has gone: not an
    /// error for a command-line tool).
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, Error::Io { err, .. } if err.kind() == std::io::ErrorKind::BrokenPipe)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A full disk under parquet's writer (wrapped twice, naming no file)
    /// comes out as an I/O error about the file being written.
    #[test]
    fn a_write_failure_names_its_file() {
        let full = std::io::Error::from_raw_os_error(28);
        let inner = parquet::errors::ParquetError::External(Box::new(full));
        let outer = parquet::errors::ParquetError::External(Box::new(inner));
        let e = Error::from(outer).writing(Path::new("ds/moves/part-000002.parquet"));
        assert_eq!(e.exit_code(), 5);
        assert_eq!(
            e.to_string(),
            format!(
                "ds/moves/part-000002.parquet: {}",
                std::io::Error::from_raw_os_error(28)
            )
        );
        let other = Error::Dataset("x".into()).writing(Path::new("p"));
        assert_eq!(other.to_string(), "x");
    }
}
