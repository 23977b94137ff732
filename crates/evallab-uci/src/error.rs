//! The one error type of the crate.

use std::path::PathBuf;
use std::time::Duration;

/// Everything that can go wrong while talking to an engine.
///
/// After any error returned by [`Engine::search`](crate::Engine::search) or
/// [`Engine::new_game`](crate::Engine::new_game) the engine is in an unknown state
/// (mid-search, dead, or out of sync): the caller should [`kill`](crate::Engine::kill)
/// it and start a new one rather than reuse it.
#[derive(Debug, thiserror::Error)]
pub enum UciError {
    /// The engine program could not be started (missing, not executable, …).
    #[error("cannot start engine {}: {source}", path.display())]
    Spawn {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// The engine did not send the awaited reply in time.
    #[error("engine did not send {waiting_for} within {after:?}")]
    Timeout {
        /// `"uciok"`, `"readyok"` or `"bestmove"`.
        waiting_for: &'static str,
        after: Duration,
    },
    /// The engine closed its stdout or stdin (it exited or crashed).
    #[error("engine exited while waiting for {waiting_for} ({status})")]
    Exited {
        /// `"uciok"`, `"readyok"` or `"bestmove"`.
        waiting_for: &'static str,
        /// The exit status if the process has been reaped, e.g. `exit status: 3`.
        status: String,
    },
    /// A line the engine sent could not be parsed.
    #[error("malformed engine output {line:?}: {reason}")]
    Malformed { line: String, reason: String },
    /// Any other I/O error on the engine's pipes.
    #[error("engine I/O: {0}")]
    Io(#[from] std::io::Error),
}

impl UciError {
    pub(crate) fn malformed(line: &str, reason: impl Into<String>) -> Self {
        UciError::Malformed {
            line: line.to_owned(),
            reason: reason.into(),
        }
    }
}
