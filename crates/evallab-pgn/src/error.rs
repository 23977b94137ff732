//! The parsing crate's errors: only finding and opening inputs can fail (a bad
//! game is a reject row, never an error). evallab maps each kind onto its own
//! error kind of the same name, and so onto the same exit code.

use std::path::Path;

/// Why the inputs could not be found or read.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A bad argument (a malformed glob).
    #[error("{0}")]
    Usage(String),
    /// An input that cannot be used (a folder without PGN, a glob matching nothing).
    #[error("{0}")]
    InputData(String),
    /// Reading a file failed. (The io error is not the `source`: it is already
    /// in the message, and a chain would print it twice.)
    #[error("{path}: {err}")]
    Io { path: String, err: std::io::Error },
}

impl Error {
    /// An I/O error about `path`.
    pub fn io(path: &Path, err: std::io::Error) -> Error {
        Error::Io {
            path: path.display().to_string(),
            err,
        }
    }
}
