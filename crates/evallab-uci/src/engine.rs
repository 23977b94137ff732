//! The engine process: spawning, the handshake, searches, shutdown.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use crate::error::UciError;
use crate::info::{Info, Limit, OptionDecl, parse_info, parse_option};

/// How long [`Engine::search`] waits for `bestmove` after sending `stop` on a timeout.
pub const STOP_GRACE: Duration = Duration::from_secs(1);

/// How long [`Engine::quit`] waits for the process to exit before killing it.
pub const QUIT_GRACE: Duration = Duration::from_secs(1);

/// Longest line kept from the engine; a longer one is cut into pieces, so an engine
/// that never sends a newline cannot make the reader buffer grow without bound.
const MAX_LINE: u64 = 1 << 20;

/// How to start an engine and configure it.
#[derive(Debug, Clone)]
pub struct EngineConfig {
    pub path: PathBuf,
    pub args: Vec<String>,
    /// Sent as `setoption name <n> value <v>` in this order after `uciok`
    /// (`setoption name <n>` alone when the value is empty: a button).
    pub options: Vec<(String, String)>,
    /// Longest wait for `uciok` and for each `readyok`.
    pub handshake_timeout: Duration,
}

impl EngineConfig {
    /// A config with no arguments, no options and a 10 s handshake timeout.
    pub fn new(path: impl Into<PathBuf>) -> Self {
        EngineConfig {
            path: path.into(),
            args: Vec::new(),
            options: Vec::new(),
            handshake_timeout: Duration::from_secs(10),
        }
    }
}

/// The output of one `go`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Search {
    /// Every `info` line with a score or a PV, in arrival order (`currmove`-only and
    /// `string`-only lines are dropped).
    pub infos: Vec<Info>,
    /// Every `info string …` payload, in order.
    pub strings: Vec<String>,
    /// As sent: `(none)` or `0000` when there is no legal move.
    pub bestmove: String,
    pub ponder: Option<String>,
    /// From `go` to `bestmove`.
    pub elapsed: Duration,
    /// True when the search hit the caller's timeout and was ended by `stop`: the
    /// result is complete UCI-wise but did not reach the requested limit.
    pub stopped: bool,
}

impl Search {
    /// The last line per (depth, multipv), sorted by depth then multipv.
    ///
    /// Keyed and de-duplicated because Stockfish re-prints a MultiPV block during long
    /// searches, with lines not yet searched at the new depth still at the old one
    /// (spec §4). Lines without a depth are left out. Bound lines are kept: check
    /// [`Info::bound`].
    pub fn by_depth(&self) -> Vec<&Info> {
        let mut last = BTreeMap::new();
        for info in &self.infos {
            if let Some(depth) = info.depth {
                last.insert((depth, info.rank()), info);
            }
        }
        last.into_values().collect()
    }

    /// The final lines: for each multipv rank its last line in arrival order, sorted by
    /// rank. After a node or time limit these may carry different depths and bounds.
    pub fn final_lines(&self) -> Vec<&Info> {
        let mut last = BTreeMap::new();
        for info in &self.infos {
            last.insert(info.rank(), info);
        }
        last.into_values().collect()
    }
}

enum Recv {
    Line(String),
    Timeout,
    Closed,
}

/// A running UCI engine. Dropping it kills the process.
pub struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    reaped: bool,
    id_name: String,
    id_author: String,
    options: Vec<OptionDecl>,
    handshake_timeout: Duration,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("pid", &self.child.id())
            .field("id_name", &self.id_name)
            .finish_non_exhaustive()
    }
}

fn spawn(cfg: &EngineConfig) -> Result<Child, UciError> {
    let mut attempts = 0;
    loop {
        let result = Command::new(&cfg.path)
            .args(&cfg.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn();
        match result {
            Ok(child) => return Ok(child),
            // ETXTBSY: the file was just written and another thread's fork still holds
            // it open for writing; it clears within milliseconds.
            Err(e) if e.kind() == std::io::ErrorKind::ExecutableFileBusy && attempts < 10 => {
                attempts += 1;
                thread::sleep(Duration::from_millis(20));
            }
            Err(source) => {
                return Err(UciError::Spawn {
                    path: cfg.path.clone(),
                    source,
                });
            }
        }
    }
}

/// Reads the engine's stdout line by line into the channel until EOF, so the caller
/// can wait with a timeout. Ends when the pipe closes or the receiver is gone.
fn reader_thread(stdout: impl Read + Send + 'static) -> Receiver<String> {
    let (tx, rx) = mpsc::channel();
    thread::Builder::new()
        .name("uci-reader".into())
        .spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match (&mut reader).take(MAX_LINE).read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        while matches!(buf.last(), Some(b'\n' | b'\r')) {
                            buf.pop();
                        }
                        let line = String::from_utf8_lossy(&buf).into_owned();
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        })
        .expect("spawning the UCI reader thread");
    rx
}

impl Engine {
    /// Starts the engine: `uci` (collecting `id` and `option` lines until `uciok`),
    /// one `setoption` per configured option, then `isready`/`readyok`.
    ///
    /// On any error the process is killed before returning.
    pub fn start(cfg: &EngineConfig) -> Result<Engine, UciError> {
        let mut child = spawn(cfg)?;
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        let mut engine = Engine {
            child,
            stdin,
            lines: reader_thread(stdout),
            reaped: false,
            id_name: String::new(),
            id_author: String::new(),
            options: Vec::new(),
            handshake_timeout: cfg.handshake_timeout,
        };
        // On error `engine` is dropped here, which kills the process.
        engine.handshake(cfg)?;
        Ok(engine)
    }

    fn handshake(&mut self, cfg: &EngineConfig) -> Result<(), UciError> {
        const WAITING: &str = "uciok";
        self.send("uci", WAITING)?;
        let deadline = Instant::now() + self.handshake_timeout;
        loop {
            let line = match self.recv(deadline) {
                Recv::Line(line) => line,
                Recv::Timeout => {
                    return Err(UciError::Timeout {
                        waiting_for: WAITING,
                        after: self.handshake_timeout,
                    });
                }
                Recv::Closed => return Err(self.exited(WAITING)),
            };
            let mut toks = line.split_whitespace();
            match toks.next() {
                Some("uciok") => break,
                Some("id") => {
                    let key = toks.next();
                    let value = toks.collect::<Vec<_>>().join(" ");
                    match key {
                        Some("name") => self.id_name = value,
                        Some("author") => self.id_author = value,
                        _ => {}
                    }
                }
                Some("option") => self.options.push(parse_option(&line)?),
                _ => {}
            }
        }
        for (name, value) in &cfg.options {
            self.send_option(name, value)?;
        }
        self.sync()
    }

    /// Sends one `setoption` (between searches), then waits for `readyok`.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), UciError> {
        self.send_option(name, value)?;
        self.sync()
    }

    fn send_option(&mut self, name: &str, value: &str) -> Result<(), UciError> {
        let cmd = if value.is_empty() {
            format!("setoption name {name}")
        } else {
            format!("setoption name {name} value {value}")
        };
        self.send(&cmd, "readyok")
    }

    /// The engine's `id name`.
    pub fn id_name(&self) -> &str {
        &self.id_name
    }

    /// The process id (for logs).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The engine's `id author`.
    pub fn id_author(&self) -> &str {
        &self.id_author
    }

    /// The options the engine declared, in order.
    pub fn options(&self) -> &[OptionDecl] {
        &self.options
    }

    /// `ucinewgame`, then waits for `readyok` (the engine may clear its hash meanwhile).
    pub fn new_game(&mut self) -> Result<(), UciError> {
        self.send("ucinewgame", "readyok")?;
        self.sync()
    }

    /// `isready` and wait for `readyok`, ignoring whatever comes before it.
    fn sync(&mut self) -> Result<(), UciError> {
        const WAITING: &str = "readyok";
        self.send("isready", WAITING)?;
        let deadline = Instant::now() + self.handshake_timeout;
        loop {
            match self.recv(deadline) {
                Recv::Line(line) if line.split_whitespace().next() == Some("readyok") => {
                    return Ok(());
                }
                Recv::Line(_) => {}
                Recv::Timeout => {
                    return Err(UciError::Timeout {
                        waiting_for: WAITING,
                        after: self.handshake_timeout,
                    });
                }
                Recv::Closed => return Err(self.exited(WAITING)),
            }
        }
    }

    /// Sends `position fen <fen> [moves …]` (`position startpos …` when `fen` is
    /// `None`) and `go <limit>`, and collects the output until `bestmove`.
    ///
    /// If `timeout` passes without `bestmove`, sends `stop` and waits up to
    /// [`STOP_GRACE`] more: a `bestmove` then gives a result with
    /// [`Search::stopped`] set, silence gives [`UciError::Timeout`] with `after` =
    /// `timeout` (then kill the engine).
    /// A malformed `info` or `bestmove` line is an error at once.
    pub fn search(
        &mut self,
        fen: Option<&str>,
        moves: &[String],
        limit: Limit,
        timeout: Duration,
    ) -> Result<Search, UciError> {
        self.search_moves(fen, moves, limit, &[], timeout)
    }

    /// [`Engine::search`] restricted to `searchmoves` (`go <limit> searchmoves
    /// …`; all moves when empty): the eval of a move that is not among the
    /// MultiPV lines.
    pub fn search_moves(
        &mut self,
        fen: Option<&str>,
        moves: &[String],
        limit: Limit,
        searchmoves: &[String],
        timeout: Duration,
    ) -> Result<Search, UciError> {
        const WAITING: &str = "bestmove";
        let mut position = match fen {
            Some(fen) => format!("position fen {fen}"),
            None => "position startpos".to_owned(),
        };
        if !moves.is_empty() {
            position.push_str(" moves ");
            position.push_str(&moves.join(" "));
        }
        self.send(&position, WAITING)?;
        let mut go = format!("go {limit}");
        if !searchmoves.is_empty() {
            go.push_str(" searchmoves ");
            go.push_str(&searchmoves.join(" "));
        }
        self.send(&go, WAITING)?;
        let start = Instant::now();
        let mut deadline = start + timeout;
        let mut search = Search::default();
        loop {
            let line = match self.recv(deadline) {
                Recv::Line(line) => line,
                Recv::Timeout if !search.stopped => {
                    search.stopped = true;
                    self.send("stop", WAITING)?;
                    deadline = Instant::now() + STOP_GRACE;
                    continue;
                }
                Recv::Timeout => {
                    return Err(UciError::Timeout {
                        waiting_for: WAITING,
                        after: timeout,
                    });
                }
                Recv::Closed => return Err(self.exited(WAITING)),
            };
            let mut toks = line.split_whitespace();
            match toks.next() {
                Some("info") => {
                    let info = parse_info(&line)?;
                    if let Some(s) = &info.string {
                        search.strings.push(s.clone());
                    }
                    if info.score.is_some() || !info.pv.is_empty() {
                        search.infos.push(info);
                    }
                }
                Some("bestmove") => {
                    let Some(best) = toks.next() else {
                        return Err(UciError::malformed(&line, "bestmove without a move"));
                    };
                    search.bestmove = best.to_owned();
                    search.ponder = match (toks.next(), toks.next()) {
                        (Some("ponder"), Some(p)) => Some(p.to_owned()),
                        _ => None,
                    };
                    search.elapsed = start.elapsed();
                    return Ok(search);
                }
                _ => {}
            }
        }
    }

    /// Sends `quit`, waits up to [`QUIT_GRACE`] for the process to exit, then kills it.
    pub fn quit(mut self) {
        let _ = writeln!(self.stdin, "quit").and_then(|()| self.stdin.flush());
        let deadline = Instant::now() + QUIT_GRACE;
        while Instant::now() < deadline {
            match self.child.try_wait() {
                Ok(Some(_)) => {
                    self.reaped = true;
                    return;
                }
                Ok(None) => thread::sleep(Duration::from_millis(10)),
                Err(_) => break,
            }
        }
        // Drop kills and reaps.
    }

    /// Kills the process at once and reaps it.
    pub fn kill(self) {
        // Drop does it.
    }

    /// Writes one command line. A closed pipe means the engine is gone: reported as
    /// [`UciError::Exited`] for the reply the caller was about to wait for.
    fn send(&mut self, cmd: &str, waiting_for: &'static str) -> Result<(), UciError> {
        let result = self
            .stdin
            .write_all(cmd.as_bytes())
            .and_then(|()| self.stdin.write_all(b"\n"))
            .and_then(|()| self.stdin.flush());
        match result {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Err(self.exited(waiting_for)),
            Err(e) => Err(UciError::Io(e)),
        }
    }

    fn recv(&self, deadline: Instant) -> Recv {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(line) => Recv::Line(line),
            Err(RecvTimeoutError::Timeout) => Recv::Timeout,
            Err(RecvTimeoutError::Disconnected) => Recv::Closed,
        }
    }

    /// The `Exited` error, with the exit status if the process ends within a moment
    /// (stdout closes just before the process is gone).
    fn exited(&mut self, waiting_for: &'static str) -> UciError {
        let deadline = Instant::now() + Duration::from_millis(200);
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(status)) => {
                    self.reaped = true;
                    break status.to_string();
                }
                Ok(None) if Instant::now() < deadline => {
                    thread::sleep(Duration::from_millis(5));
                }
                Ok(None) => break "still running, pipe closed".to_owned(),
                Err(e) => break format!("status unknown: {e}"),
            }
        };
        UciError::Exited {
            waiting_for,
            status,
        }
    }
}

impl Drop for Engine {
    /// Kills the process if it has not been reaped, and reaps it (no zombies). The
    /// reader thread is not joined: it ends by itself when the pipe closes, and a
    /// grandchild holding the pipe open must not block the caller.
    fn drop(&mut self) {
        if !self.reaped {
            let _ = self.child.kill();
            let _ = self.child.wait();
            self.reaped = true;
        }
    }
}
