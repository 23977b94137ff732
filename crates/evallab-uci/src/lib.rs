//! A small, blocking client for UCI chess engines (Stockfish, lc0, …), for
//! re-analysing archived positions.
//!
//! One [`Engine`] is one child process, talked to over its stdin/stdout:
//! [`Engine::start`] runs the `uci` handshake and sends the options,
//! [`Engine::new_game`] sends `ucinewgame`, [`Engine::search`] sends `position` and
//! `go` and collects the `info` lines ([`parse_info`]) until `bestmove`. The crate
//! depends on std and `thiserror` only: no chess library (moves stay UCI strings,
//! scores stay side-to-move as the engine reports them) and no async runtime.
//!
//! # Timeouts
//! Every wait has one. A dedicated thread reads the engine's stdout and sends each
//! line over a channel; the caller waits on it with `recv_timeout`:
//! - `uciok` and each `readyok`: [`EngineConfig::handshake_timeout`];
//! - `bestmove`: the `timeout` passed to [`Engine::search`]; when it passes, `stop`
//!   is sent and the engine gets [`STOP_GRACE`] more to answer;
//! - [`Engine::quit`] waits [`QUIT_GRACE`] for the process to exit, then kills it.
//!
//! Writes are not timed: commands are a few bytes and a pipe holds 64 KiB, so an
//! engine that stops reading its input is caught by the timeout of the next reply.
//! A write to a dead engine fails with `EPIPE` (Rust programs ignore `SIGPIPE`) and
//! becomes [`UciError::Exited`].
//!
//! # Failure model
//! An engine can crash, hang or send garbage. Each is a distinct [`UciError`]:
//! [`Exited`](UciError::Exited) (stdout reached EOF or stdin is a broken pipe — with the
//! exit status when known), [`Timeout`](UciError::Timeout) (naming the reply waited
//! for), [`Malformed`](UciError::Malformed) (naming the line). Lines UCI does not
//! define are ignored, as the protocol requires. After an error the engine's state is
//! unknown: the caller kills it ([`Engine::kill`], or just drop it) and starts a new
//! one. Dropping an [`Engine`] always kills and reaps the process, so no zombie is left
//! and nothing blocks forever.
//!
//! # Determinism
//! With `Threads=1`, a node or depth limit and [`Engine::new_game`] before each game,
//! Stockfish gives identical output on reruns; a time limit never does.

mod engine;
mod error;
mod info;
mod verbose;

pub use engine::{Engine, EngineConfig, QUIT_GRACE, STOP_GRACE, Search};
pub use error::UciError;
pub use info::{Bound, Info, Limit, OptionDecl, Score, parse_info, parse_option};
pub use verbose::{MoveStats, parse_move_stats};

#[cfg(test)]
mod tests;
