//! Parsing of the engine's `info` and `option` lines, and the search limit.

use std::fmt;
use std::str::FromStr;

use crate::error::UciError;

/// How long a search runs: the argument of `go`.
///
/// ```
/// use evallab_uci::Limit;
/// assert_eq!(Limit::Depth(12).to_string(), "depth 12");
/// assert_eq!(Limit::Nodes(20_000).to_string(), "nodes 20000");
/// assert_eq!(Limit::MoveTime(100).to_string(), "movetime 100");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Limit {
    /// Plies of iterative deepening.
    Depth(u32),
    /// Nodes searched (with `Threads=1` the only limit that reproduces exactly).
    Nodes(u64),
    /// Wall-clock time in milliseconds.
    MoveTime(u64),
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Limit::Depth(d) => write!(f, "depth {d}"),
            Limit::Nodes(n) => write!(f, "nodes {n}"),
            Limit::MoveTime(ms) => write!(f, "movetime {ms}"),
        }
    }
}

/// A score as UCI reports it: from the side to move's point of view.
///
/// `Mate(n)` counts moves (not plies); a negative `n` means the side to move is
/// mated; `Mate(0)` is sent for a position that is already checkmate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves (sign = side to move wins / loses).
    Mate(i32),
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Score::Cp(cp) => write!(f, "cp {cp}"),
            Score::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

/// Whether the score is exact or only a bound (an aspiration-window fail-high/low,
/// or a search stopped mid-iteration). A bound must never be taken as the evaluation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Bound {
    #[default]
    Exact,
    /// `lowerbound`: the true score is at least this.
    Lower,
    /// `upperbound`: the true score is at most this.
    Upper,
}

/// One parsed `info` line. Fields the line does not carry are `None` / empty.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Info {
    pub depth: Option<u32>,
    pub seldepth: Option<u32>,
    /// MultiPV rank (1 = best). Absent means 1.
    pub multipv: Option<u32>,
    pub score: Option<Score>,
    pub bound: Bound,
    /// Win/draw/loss per mille, side to move (`UCI_ShowWDL`).
    pub wdl: Option<[u32; 3]>,
    pub nodes: Option<u64>,
    pub nps: Option<u64>,
    pub time_ms: Option<u64>,
    pub tbhits: Option<u64>,
    pub hashfull: Option<u32>,
    pub currmove: Option<String>,
    /// Principal variation, UCI moves.
    pub pv: Vec<String>,
    /// The payload of `info string …`: the rest of the line, verbatim.
    pub string: Option<String>,
}

impl Info {
    /// The MultiPV rank, 1 when the engine did not say.
    pub fn rank(&self) -> u32 {
        self.multipv.unwrap_or(1)
    }
}

/// Whitespace-separated tokens with their byte offsets, so that `string` and
/// string option defaults can take the rest of the line verbatim.
fn tokens(line: &str) -> Vec<(usize, &str)> {
    let base = line.as_ptr() as usize;
    line.split_whitespace()
        .map(|t| (t.as_ptr() as usize - base, t))
        .collect()
}

/// The token at `*i` parsed as a number; advances `*i`.
fn number<T: FromStr>(
    line: &str,
    toks: &[(usize, &str)],
    i: &mut usize,
    what: &str,
) -> Result<T, UciError> {
    let Some(&(_, tok)) = toks.get(*i) else {
        return Err(UciError::malformed(line, format!("{what} without a value")));
    };
    *i += 1;
    tok.parse()
        .map_err(|_| UciError::malformed(line, format!("{what}: {tok:?} is not a number")))
}

/// Parses one `info` line.
///
/// Unknown tokens are skipped (UCI says so). A known keyword whose value is missing
/// or not a number (`depth x`, `score cp abc`, `score foo`) is an error naming the
/// line: a garbled line must not become a plausible-looking evaluation. `pv` takes
/// the moves up to the end of the line (or up to `string`); `string` takes the rest
/// of the line verbatim.
///
/// ```
/// use evallab_uci::{parse_info, Bound, Score};
/// let info = parse_info(
///     "info depth 24 seldepth 27 multipv 1 score cp 45 wdl 79 920 1 lowerbound \
///      nodes 1744445 nps 523228 hashfull 609 tbhits 0 time 3334 pv e2e4",
/// )?;
/// assert_eq!(info.depth, Some(24));
/// assert_eq!(info.score, Some(Score::Cp(45)));
/// assert_eq!(info.bound, Bound::Lower);
/// assert_eq!(info.wdl, Some([79, 920, 1]));
/// assert_eq!(info.pv, ["e2e4"]);
/// assert!(parse_info("info depth x").is_err());
/// # Ok::<(), evallab_uci::UciError>(())
/// ```
pub fn parse_info(line: &str) -> Result<Info, UciError> {
    let toks = tokens(line);
    if toks.first().map(|t| t.1) != Some("info") {
        return Err(UciError::malformed(line, "not an info line"));
    }
    let mut info = Info::default();
    let mut i = 1;
    while i < toks.len() {
        let key = toks[i].1;
        i += 1;
        match key {
            "depth" => info.depth = Some(number(line, &toks, &mut i, key)?),
            "seldepth" => info.seldepth = Some(number(line, &toks, &mut i, key)?),
            "multipv" => info.multipv = Some(number(line, &toks, &mut i, key)?),
            "nodes" => info.nodes = Some(number(line, &toks, &mut i, key)?),
            "nps" => info.nps = Some(number(line, &toks, &mut i, key)?),
            "time" => info.time_ms = Some(number(line, &toks, &mut i, key)?),
            "tbhits" => info.tbhits = Some(number(line, &toks, &mut i, key)?),
            "hashfull" => info.hashfull = Some(number(line, &toks, &mut i, key)?),
            // Known numeric fields that Info does not keep: still checked.
            "currmovenumber" | "cpuload" | "sbhits" => {
                number::<u64>(line, &toks, &mut i, key)?;
            }
            "score" => {
                let Some(&(_, kind)) = toks.get(i) else {
                    return Err(UciError::malformed(line, "score without a value"));
                };
                i += 1;
                info.score = Some(match kind {
                    "cp" => Score::Cp(number(line, &toks, &mut i, "score cp")?),
                    "mate" => Score::Mate(number(line, &toks, &mut i, "score mate")?),
                    other => {
                        return Err(UciError::malformed(
                            line,
                            format!("unknown score type {other:?}"),
                        ));
                    }
                });
            }
            // Stockfish 15.1 prints the bound after `wdl`, not right after the score:
            // accept it anywhere.
            "lowerbound" => info.bound = Bound::Lower,
            "upperbound" => info.bound = Bound::Upper,
            "wdl" => {
                let w = number(line, &toks, &mut i, "wdl")?;
                let d = number(line, &toks, &mut i, "wdl")?;
                let l = number(line, &toks, &mut i, "wdl")?;
                info.wdl = Some([w, d, l]);
            }
            "currmove" => {
                let Some(&(_, mv)) = toks.get(i) else {
                    return Err(UciError::malformed(line, "currmove without a move"));
                };
                i += 1;
                info.currmove = Some(mv.to_owned());
            }
            "pv" => {
                while let Some(&(_, mv)) = toks.get(i) {
                    if mv == "string" {
                        break;
                    }
                    info.pv.push(mv.to_owned());
                    i += 1;
                }
            }
            "string" => {
                info.string = Some(match toks.get(i) {
                    Some(&(offset, _)) => line[offset..].to_owned(),
                    None => String::new(),
                });
                break;
            }
            _ => {}
        }
    }
    Ok(info)
}

/// One option the engine declared during the handshake.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OptionDecl {
    /// May contain spaces (`Skill Level`, `Debug Log File`).
    pub name: String,
    /// `check`, `spin`, `combo`, `button` or `string`.
    pub kind: String,
    /// As sent (Stockfish sends `<empty>` or nothing for an empty string);
    /// `None` when the line has no `default` (buttons).
    pub default: Option<String>,
}

/// Parses `option name <name…> type <kind> [default <value…>] [min …] [max …] [var …]…`.
///
/// The name runs up to `type`; a `string` option's default is the rest of the line
/// verbatim (it may contain spaces or words such as `max`); other defaults run up to
/// the next `min`/`max`/`var`.
pub fn parse_option(line: &str) -> Result<OptionDecl, UciError> {
    let toks = tokens(line);
    if toks.first().map(|t| t.1) != Some("option") || toks.get(1).map(|t| t.1) != Some("name") {
        return Err(UciError::malformed(line, "expected `option name …`"));
    }
    let Some(type_at) = toks.iter().position(|t| t.1 == "type") else {
        return Err(UciError::malformed(line, "option without a type"));
    };
    if type_at <= 2 {
        return Err(UciError::malformed(line, "option without a name"));
    }
    let name = toks[2..type_at]
        .iter()
        .map(|t| t.1)
        .collect::<Vec<_>>()
        .join(" ");
    let Some(&(_, kind)) = toks.get(type_at + 1) else {
        return Err(UciError::malformed(line, "option type without a value"));
    };
    let rest = &toks[type_at + 2..];
    let default = rest.iter().position(|t| t.1 == "default").map(|at| {
        let after = &rest[at + 1..];
        if kind == "string" {
            after
                .first()
                .map(|&(offset, _)| line[offset..].to_owned())
                .unwrap_or_default()
        } else {
            after
                .iter()
                .map(|t| t.1)
                .take_while(|t| !matches!(*t, "min" | "max" | "var"))
                .collect::<Vec<_>>()
                .join(" ")
        }
    });
    Ok(OptionDecl {
        name,
        kind: kind.to_owned(),
        default,
    })
}
