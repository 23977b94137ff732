//! Pipelines: a declarative batch run of evallab commands (`evallab run`).
//!
//! A spec names variables and a list of steps. Each step is one evallab
//! subcommand with its options, so a step does exactly what the same command
//! line does; the whole spec is checked (variables, commands, options) before
//! anything runs. A step is skipped when its command line, the files it reads
//! and the dataset are unchanged since it last ran and its outputs exist.
//!
//! ```toml
//! [vars]
//! input = "data/demo"
//! dataset = "demo-dataset"
//!
//! [[steps]]
//! run = "ingest"
//! inputs = ["{input}"]
//!
//! [[steps]]
//! run = "calibrate"
//! toml = "{dataset}/x05.toml"      # read by the next step: x05 flows on
//!
//! [[steps]]
//! run = "relevance"
//! x05 = "{dataset}/x05.toml"
//! output = "{dataset}/relevance.csv"
//! format = "csv"
//! ```
//!
//! A step marked `optional = true` (with a `hint` on what to install) is left
//! out, with the reason, when a file it reads is missing (an engine that is
//! not installed); so is any later step that needs what a left-out step
//! would have made (an engine run it names, a file it reads, or a file named
//! in its `needs = [...]`: what it depends on that its options do not name).
//! Every other step still fails loudly.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;

use sha2::{Digest, Sha256};

use crate::Error;
use crate::dataset::Manifest;
use crate::dataset::writer::{DatasetWriter, Open};
use crate::schema::{MANIFEST_FILE, algorithm_version};

/// What a step's last run depended on: its inputs' stamp and the code that ran.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct StepState {
    pub stamp: String,
    pub evallab: String,
    pub algorithm: u32,
}

impl StepState {
    /// The state the step would record if it ran now.
    pub fn current(step: &Step, dataset: &Path) -> StepState {
        StepState {
            stamp: stamp(step, dataset),
            evallab: env!("CARGO_PKG_VERSION").to_string(),
            algorithm: algorithm_version(&step.argv[1]),
        }
    }
}

/// Whether an option names a file (or folder) its command reads or writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileUse {
    Reads,
    Writes,
}

/// What a pipeline needs of the command-line parser, which the CLI
/// implements: the options' meaning is declared once, there.
pub trait Commands {
    /// The step's command line as the parser reads it (old spellings
    /// rewritten) with a note per rewrite, or the parser's message.
    fn check(&self, argv: &[String]) -> Result<(Vec<String>, Vec<String>), String>;
    /// Whether option `--flag` of `command` names a file it reads or writes.
    fn file_use(&self, command: &str, flag: &str) -> Option<FileUse>;
    /// Whether option `--flag` of `command` names an engine run (a label).
    fn names_run(&self, command: &str, flag: &str) -> bool;
}

/// One step: the evallab command line it stands for, and the files it reads
/// and writes (for the skip decision).
#[derive(Debug)]
pub struct Step {
    /// `"<n>. <command>"`.
    pub name: String,
    /// `evallab <command> …`.
    pub argv: Vec<String>,
    pub reads: Vec<PathBuf>,
    pub writes: Vec<PathBuf>,
    /// The engine runs it names (`--label`, `--analysis`, `--policy`).
    pub runs: Vec<String>,
    /// `optional = true`: left out when a file it reads is missing.
    pub optional: bool,
    /// What to do about a missing file of an optional step (`hint = "…"`).
    pub hint: Option<String>,
}

impl Step {
    /// The key of the step in the state file: its command line.
    pub fn key(&self) -> String {
        self.argv[1..].join(" ")
    }

    /// Whether every file the step writes exists.
    pub fn outputs_exist(&self) -> bool {
        self.writes.iter().all(|p| p.exists())
    }
}

/// A checked spec.
#[derive(Debug)]
pub struct Spec {
    /// The dataset folder every step uses.
    pub dataset: PathBuf,
    pub steps: Vec<Step>,
    /// The parser's notes on the steps (deprecated spellings), to show once.
    pub notes: Vec<String>,
    /// The variables, `--set` applied: a missing file names the one it came from.
    pub vars: BTreeMap<String, String>,
}

impl Spec {
    /// Why `step` cannot run on this machine, or `None` when it can, given
    /// the steps left out before it. An optional step is left out when a
    /// file it reads is missing; any step is left out when it reads an
    /// engine run or a file that a left-out step would have made and that
    /// is not there (a run made earlier, with the engine, still serves).
    pub fn left_out(&self, step: &Step, before: &[&Step]) -> Option<String> {
        let made = if before.is_empty() {
            Vec::new()
        } else {
            self.made_runs()
        };
        for earlier in before {
            if let Some(run) = step
                .runs
                .iter()
                .find(|r| earlier.runs.contains(r) && !made.contains(*r))
            {
                return Some(format!(
                    "needs engine run `{run}` of step {}, skipped",
                    earlier.name
                ));
            }
            if let Some(file) = step
                .reads
                .iter()
                .find(|f| earlier.writes.contains(f) && !f.exists())
            {
                return Some(format!(
                    "needs {} of step {}, skipped",
                    file.display(),
                    earlier.name
                ));
            }
        }
        if !step.optional {
            return None;
        }
        let missing = step.reads.iter().find(|f| !found(f))?;
        let text = missing.display().to_string();
        let mut fixes: Vec<String> = step.hint.iter().cloned().collect();
        fixes.extend(
            self.vars
                .iter()
                .filter(|(_, v)| **v == text)
                .map(|(k, _)| format!("--set {k}=PATH")),
        );
        let fixes = if fixes.is_empty() {
            String::new()
        } else {
            format!(" ({})", fixes.join(", or "))
        };
        Some(format!("optional, needs {text}, not found{fixes}"))
    }

    /// The labels of the engine runs the dataset holds.
    fn made_runs(&self) -> Vec<String> {
        std::fs::read(self.dataset.join(MANIFEST_FILE))
            .ok()
            .and_then(|t| serde_json::from_slice::<Manifest>(&t).ok())
            .map(|m| m.analyses.into_iter().map(|a| a.label).collect())
            .unwrap_or_default()
    }
}

/// Whether a file a step reads is there: a path that exists, or a bare
/// name the system finds on PATH (as an engine's `--uci stockfish` is
/// started).
fn found(p: &Path) -> bool {
    if p.exists() {
        return true;
    }
    let bare = p.components().count() == 1 && !p.as_os_str().is_empty();
    bare && std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|d| d.join(p).is_file()))
}

/// The state file: step key → what its last run depended on.
pub type State = BTreeMap<String, StepState>;

/// The pipeline state's file in `DATASET/derived/`.
const STATE_FILE: &str = "pipeline-state.json";

/// Where a dataset keeps its pipeline state.
pub fn state_path(dataset: &Path) -> PathBuf {
    dataset.join("derived").join(STATE_FILE)
}

/// The recorded state; a missing, damaged or older-format file means "run
/// everything".
pub fn read_state(dataset: &Path) -> State {
    std::fs::read_to_string(state_path(dataset))
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default()
}

/// Commits the state, as the dataset's writer.
pub fn save_state(dataset: &Path, state: &State) -> Result<(), Error> {
    DatasetWriter::open(dataset, "run", Open::OrCreate)?
        .store_file(STATE_FILE, serde_json::to_string_pretty(state)?.as_bytes())
}

fn bad(msg: String) -> Error {
    Error::InputData(msg)
}

fn substitute(s: &str, vars: &BTreeMap<String, String>, at: &str) -> Result<String, Error> {
    let mut out = String::new();
    let mut rest = s;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let close = rest[open..]
            .find('}')
            .ok_or_else(|| bad(format!("{at}: unclosed `{{` in {s:?}")))?;
        let name = &rest[open + 1..open + close];
        let value = vars.get(name).ok_or_else(|| {
            bad(format!(
                "{at}: unknown variable {{{name}}} (defined: {})",
                vars.keys().cloned().collect::<Vec<_>>().join(", ")
            ))
        })?;
        out.push_str(value);
        rest = &rest[open + close + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

/// Reads and checks a spec: every variable resolves, and the parser accepts
/// every step's command line (it parses it exactly as it would run it).
/// Every problem is [`Error::InputData`] naming the file, the step and the key.
pub fn load(path: &Path, sets: &[String], commands: &dyn Commands) -> Result<Spec, Error> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
    let doc: toml::Table = text
        .parse()
        .map_err(|e| bad(format!("{file}: not valid TOML: {e}")))?;
    for key in doc.keys() {
        if key != "vars" && key != "steps" {
            return Err(bad(format!(
                "{file}: unknown top-level key `{key}` (expected [vars] and [[steps]])"
            )));
        }
    }
    let mut vars = BTreeMap::new();
    if let Some(v) = doc.get("vars") {
        let t = v
            .as_table()
            .ok_or_else(|| bad(format!("{file}: `vars` must be a table")))?;
        for (k, v) in t {
            let s = v
                .as_str()
                .ok_or_else(|| bad(format!("{file}: vars.{k} must be a string")))?;
            vars.insert(k.clone(), s.to_string());
        }
    }
    for s in sets {
        let (k, v) = s
            .split_once('=')
            .ok_or_else(|| bad(format!("--set {s}: expected KEY=VALUE")))?;
        if !vars.contains_key(k) {
            return Err(bad(format!(
                "--set {k}: {file} has no variable `{k}` (it has: {})",
                vars.keys().cloned().collect::<Vec<_>>().join(", ")
            )));
        }
        vars.insert(k.to_string(), v.to_string());
    }
    let dataset = PathBuf::from(vars.get("dataset").ok_or_else(|| {
        bad(format!(
            "{file}: [vars] needs `dataset`, the dataset folder every step uses"
        ))
    })?);
    let steps = doc
        .get("steps")
        .and_then(|s| s.as_array())
        .ok_or_else(|| bad(format!("{file}: no [[steps]]")))?;
    let mut out = Vec::new();
    let mut notes = Vec::new();
    for (i, step) in steps.iter().enumerate() {
        let t = step
            .as_table()
            .ok_or_else(|| bad(format!("{file}: steps[{i}] must be a table")))?;
        let cmd = t
            .get("run")
            .and_then(|v| v.as_str())
            .ok_or_else(|| bad(format!("{file}: steps[{i}]: missing `run = \"<command>\"`")))?;
        let at = format!("{file}: steps[{i}] ({cmd})");
        if cmd == "run" {
            return Err(bad(format!("{at}: a pipeline cannot run a pipeline")));
        }
        let optional = match t.get("optional") {
            None => false,
            Some(toml::Value::Boolean(b)) => *b,
            Some(_) => return Err(bad(format!("{at}.optional: expected true or false"))),
        };
        let hint = match t.get("hint") {
            None => None,
            Some(toml::Value::String(s)) if optional => Some(s.clone()),
            Some(toml::Value::String(_)) => {
                return Err(bad(format!(
                    "{at}.hint: only an optional step has a hint (optional = true)"
                )));
            }
            Some(_) => return Err(bad(format!("{at}.hint: expected a string"))),
        };
        let mut argv = vec!["evallab".to_string(), cmd.to_string()];
        let (mut reads, mut writes) = (Vec::new(), Vec::new());
        if cmd == "ingest" {
            argv.extend(["-o".to_string(), dataset.display().to_string()]);
            writes.push(dataset.join(crate::schema::MANIFEST_FILE));
        } else {
            argv.push(dataset.display().to_string());
        }
        // Files the step depends on that its options do not name (a table
        // another step leaves in the dataset): read, for the skip decision.
        let needs: Vec<PathBuf> = match t.get("needs") {
            None => Vec::new(),
            Some(toml::Value::Array(a)) => a
                .iter()
                .map(|x| {
                    x.as_str()
                        .ok_or_else(|| bad(format!("{at}.needs: list items must be strings")))
                        .and_then(|s| substitute(s, &vars, &format!("{at}.needs")))
                        .map(PathBuf::from)
                })
                .collect::<Result<_, Error>>()?,
            Some(_) => return Err(bad(format!("{at}.needs: expected a list of files"))),
        };
        reads.extend(needs);
        // The keys that are the pipeline's, not the command's options.
        let own = ["run", "optional", "hint", "needs"];
        for (k, v) in t.iter().filter(|(k, _)| !own.contains(&k.as_str())) {
            let values: Vec<String> = match v {
                toml::Value::String(s) => vec![substitute(s, &vars, &format!("{at}.{k}"))?],
                toml::Value::Integer(n) => vec![n.to_string()],
                toml::Value::Float(x) => vec![x.to_string()],
                toml::Value::Boolean(_) => vec![],
                toml::Value::Array(a) => a
                    .iter()
                    .map(|x| {
                        x.as_str()
                            .ok_or_else(|| bad(format!("{at}.{k}: list items must be strings")))
                            .and_then(|s| substitute(s, &vars, &format!("{at}.{k}")))
                    })
                    .collect::<Result<_, Error>>()?,
                _ => {
                    return Err(bad(format!(
                        "{at}.{k}: expected a string, number, boolean or list of strings"
                    )));
                }
            };
            if k == "inputs" {
                reads.extend(values.iter().map(PathBuf::from));
                argv.extend(values);
                continue;
            }
            let flag = format!("--{}", k.replace('_', "-"));
            match v {
                toml::Value::Boolean(true) => argv.push(flag),
                toml::Value::Boolean(false) => {}
                _ => {
                    for value in values {
                        argv.extend([flag.clone(), value]);
                    }
                }
            }
        }
        // Check the step exactly as the command line would be checked.
        let (argv, said) = commands
            .check(&argv)
            .map_err(|e| bad(format!("{at}: {}", e.trim())))?;
        notes.extend(said.into_iter().map(|n| format!("{at}: {n}")));
        // The files and runs behind the options (as `--flag value`: the
        // lines built above).
        let mut runs = Vec::new();
        for w in argv[2..].windows(2) {
            match commands.file_use(cmd, &w[0]) {
                Some(FileUse::Reads) => reads.push(PathBuf::from(&w[1])),
                Some(FileUse::Writes) => writes.push(PathBuf::from(&w[1])),
                None if commands.names_run(cmd, &w[0]) => runs.push(w[1].clone()),
                None => {}
            }
        }
        out.push(Step {
            name: format!("{}. {cmd}", i + 1),
            argv,
            reads,
            writes,
            runs,
            optional,
            hint,
        });
    }
    Ok(Spec {
        dataset,
        steps: out,
        notes,
        vars,
    })
}

/// What a step depends on: its command line, the files it reads (size and
/// mtime; directories walked) and its part of the dataset's manifest
/// (`manifest_part`).
pub fn stamp(step: &Step, dataset: &Path) -> String {
    let mut h = Sha256::new();
    for a in &step.argv {
        h.update(a.as_bytes());
        h.update([0]);
    }
    let mut files = Vec::new();
    for p in &step.reads {
        collect(p, &mut files);
    }
    files.sort();
    for f in files {
        h.update(f.display().to_string().as_bytes());
        if let Ok(m) = std::fs::metadata(&f) {
            let mtime = m
                .modified()
                .ok()
                .and_then(|t| t.duration_since(UNIX_EPOCH).ok());
            h.update(format!("{}:{:?}", m.len(), mtime).as_bytes());
        }
    }
    if step.argv[1] != "ingest" {
        h.update(manifest_part(step, dataset));
    }
    evallab_pgn::input::hex(&h.finalize())
}

/// The part of the manifest a step reads: the versions and the ingest runs,
/// the engine runs it names ([`Step::runs`]), and every
/// engine run only for a step that reads them all (`report`, or an engine
/// command without a label). Hashing the whole manifest made a later step's
/// engine run (the demo's `match`) mark the earlier `analyze` and
/// `agreement` steps as changed, so a second `run` repeated them.
fn manifest_part(step: &Step, dataset: &Path) -> Vec<u8> {
    let Ok(text) = std::fs::read(dataset.join(MANIFEST_FILE)) else {
        return Vec::new();
    };
    let Ok(m) = serde_json::from_slice::<Manifest>(&text) else {
        return text;
    };
    let labels = &step.runs;
    let every_run = labels.is_empty()
        && matches!(
            step.argv[1].as_str(),
            "report" | "agreement" | "analyze" | "match" | "policy" | "ease"
        );
    let engine_runs: Vec<_> = m
        .analyses
        .iter()
        .filter(|a| every_run || labels.contains(&a.label))
        .collect();
    serde_json::to_vec(&(&m.tool_version, &m.schema_version, &m.runs, engine_runs)).unwrap_or(text)
}

fn collect(p: &Path, out: &mut Vec<PathBuf>) {
    match std::fs::read_dir(p) {
        Ok(entries) => {
            for e in entries.flatten() {
                collect(&e.path(), out);
            }
        }
        Err(_) => out.push(p.to_path_buf()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dataset::{EngineChunk, EngineId, EngineRun};

    fn step(argv: &[&str], runs: &[&str]) -> Step {
        Step {
            name: "1. x".into(),
            argv: argv.iter().map(|a| a.to_string()).collect(),
            reads: Vec::new(),
            writes: Vec::new(),
            runs: runs.iter().map(|r| r.to_string()).collect(),
            optional: false,
            hint: None,
        }
    }

    fn engine_run(label: &str, chunks: usize) -> EngineRun {
        let chunk = EngineChunk {
            part: 2,
            started_unix: 0,
            seconds: 0.0,
            games: 1,
            positions: 1,
            lines: 1,
            failures: 0,
            restarts: 0,
            files: Default::default(),
            shard: None,
            reused: 0,
        };
        EngineRun {
            label: label.into(),
            stage: "analyze".into(),
            engine: EngineId {
                name: "e".into(),
                path: "/e".into(),
            },
            options: Vec::new(),
            settings: serde_json::json!({}),
            fingerprint: "f".into(),
            chunks: vec![chunk; chunks],
        }
    }

    /// A step is stale when its inputs change, not when a later step adds an
    /// engine run it does not read.
    #[test]
    fn steps_depend_on_their_part_of_the_manifest() {
        let dir = tempfile::tempdir().unwrap();
        let write = |analyses: Vec<EngineRun>| {
            let m = Manifest {
                analyses,
                ..Manifest::default()
            };
            std::fs::write(
                dir.path().join(MANIFEST_FILE),
                serde_json::to_string(&m).unwrap(),
            )
            .unwrap();
        };
        let steps = [
            step(&["evallab", "analyze", "ds", "--label", "a"], &["a"]),
            step(&["evallab", "agreement", "ds", "--analysis", "a"], &["a"]),
            step(&["evallab", "balance", "ds"], &[]),
            step(&["evallab", "report", "ds", "-o", "r"], &[]),
        ];
        let stamps = || {
            steps
                .iter()
                .map(|s| stamp(s, dir.path()))
                .collect::<Vec<_>>()
        };
        write(vec![engine_run("a", 1)]);
        let before = stamps();
        // A later `match --label b`: only the report reads it.
        write(vec![engine_run("a", 1), engine_run("b", 1)]);
        let after_b = stamps();
        assert_eq!(after_b[..3], before[..3]);
        assert_ne!(after_b[3], before[3]);
        // More of `a`: its readers and the report change, balance does not.
        write(vec![engine_run("a", 2), engine_run("b", 1)]);
        let after_a = stamps();
        assert_ne!(after_a[0], after_b[0]);
        assert_ne!(after_a[1], after_b[1]);
        assert_eq!(after_a[2], after_b[2]);
        assert_ne!(after_a[3], after_b[3]);
    }
}
