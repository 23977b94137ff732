//! `evallab run pipelines/<spec>.toml`: a declarative batch run.
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
//! x05_from = "{dataset}/x05.toml"
//! output = "{dataset}/relevance.csv"
//! format = "csv"
//! ```

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Instant, UNIX_EPOCH};

use anyhow::{Context, anyhow, bail};
use clap::Parser;
use sha2::{Digest, Sha256};

use evallab::dataset::lock::DatasetLock;

use super::Cli;

/// Run a pipeline spec (TOML): ingest and statistics steps with their options;
/// steps whose inputs and parameters have not changed are skipped.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Pipeline spec, e.g. pipelines/demo.toml.
    spec: PathBuf,
    /// Override a variable of the spec (repeatable), e.g. `--set input=../shared/tcec`.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    set: Vec<String>,
    /// Run every step, even unchanged ones.
    #[arg(long)]
    force: bool,
}

/// What each command computes from the same inputs, versioned: bump a
/// command's number when a change alters its output, so that `run` recomputes
/// the step after an upgrade even if the evallab version stayed the same.
const ALGORITHM_VERSIONS: [(&str, u32); 11] = [
    ("ingest", 1),
    ("balance", 1),
    ("calibrate", 1),
    ("relevance", 1),
    ("eas", 1),
    ("report", 1),
    ("annotate", 1),
    ("calc", 1),
    ("schema", 1),
    ("inspect", 1),
    ("run", 1),
];

fn algorithm_version(command: &str) -> u32 {
    ALGORITHM_VERSIONS
        .iter()
        .find(|(c, _)| *c == command)
        .map_or(0, |(_, v)| *v)
}

/// What a step's last run depended on: its inputs' stamp and the code that ran.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
struct StepState {
    stamp: String,
    evallab: String,
    algorithm: u32,
}

impl StepState {
    fn current(step: &Step, dataset: &Path) -> StepState {
        StepState {
            stamp: stamp(step, dataset),
            evallab: env!("CARGO_PKG_VERSION").to_string(),
            algorithm: algorithm_version(&step.argv[1]),
        }
    }
}

/// Options whose values are files a step writes (skip needs them to exist).
const OUTPUT_KEYS: [&str; 5] = ["output", "toml", "plot", "moves_out", "pgn"];
/// Options whose values are files a step reads.
const INPUT_KEYS: [&str; 2] = ["x05_from", "inputs"];

#[derive(Debug)]
struct Step {
    name: String,
    argv: Vec<String>,
    reads: Vec<PathBuf>,
    writes: Vec<PathBuf>,
}

fn substitute(s: &str, vars: &BTreeMap<String, String>, at: &str) -> anyhow::Result<String> {
    let mut out = String::new();
    let mut rest = s;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let close = rest[open..]
            .find('}')
            .ok_or_else(|| anyhow!("{at}: unclosed `{{` in {s:?}"))?;
        let name = &rest[open + 1..open + close];
        let value = vars.get(name).ok_or_else(|| {
            anyhow!(
                "{at}: unknown variable {{{name}}} (defined: {})",
                vars.keys().cloned().collect::<Vec<_>>().join(", ")
            )
        })?;
        out.push_str(value);
        rest = &rest[open + close + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

/// Reads and checks a spec: every variable resolves, every step parses as the
/// evallab command line it stands for.
fn load(path: &Path, sets: &[String]) -> anyhow::Result<(PathBuf, Vec<Step>)> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path).with_context(|| file.clone())?;
    let doc: toml::Table = text
        .parse()
        .with_context(|| format!("{file}: not valid TOML"))?;
    for key in doc.keys() {
        if key != "vars" && key != "steps" {
            bail!("{file}: unknown top-level key `{key}` (expected [vars] and [[steps]])");
        }
    }
    let mut vars = BTreeMap::new();
    if let Some(v) = doc.get("vars") {
        let t = v
            .as_table()
            .ok_or_else(|| anyhow!("{file}: `vars` must be a table"))?;
        for (k, v) in t {
            let s = v
                .as_str()
                .ok_or_else(|| anyhow!("{file}: vars.{k} must be a string"))?;
            vars.insert(k.clone(), s.to_string());
        }
    }
    for s in sets {
        let (k, v) = s
            .split_once('=')
            .ok_or_else(|| anyhow!("--set {s}: expected KEY=VALUE"))?;
        if !vars.contains_key(k) {
            bail!(
                "--set {k}: {file} has no variable `{k}` (it has: {})",
                vars.keys().cloned().collect::<Vec<_>>().join(", ")
            );
        }
        vars.insert(k.to_string(), v.to_string());
    }
    let dataset = PathBuf::from(vars.get("dataset").ok_or_else(|| {
        anyhow!("{file}: [vars] needs `dataset`, the dataset folder every step uses")
    })?);
    let steps = doc
        .get("steps")
        .and_then(|s| s.as_array())
        .ok_or_else(|| anyhow!("{file}: no [[steps]]"))?;
    let mut out = Vec::new();
    for (i, step) in steps.iter().enumerate() {
        let t = step
            .as_table()
            .ok_or_else(|| anyhow!("{file}: steps[{i}] must be a table"))?;
        let cmd = t
            .get("run")
            .and_then(|v| v.as_str())
            .ok_or_else(|| anyhow!("{file}: steps[{i}]: missing `run = \"<command>\"`"))?;
        let at = format!("{file}: steps[{i}] ({cmd})");
        if cmd == "run" {
            bail!("{at}: a pipeline cannot run a pipeline");
        }
        let mut argv = vec!["evallab".to_string(), cmd.to_string()];
        let (mut reads, mut writes) = (Vec::new(), Vec::new());
        if cmd == "ingest" {
            argv.extend(["-o".to_string(), dataset.display().to_string()]);
            writes.push(dataset.join(evallab::schema::MANIFEST_FILE));
        } else {
            argv.push(dataset.display().to_string());
        }
        for (k, v) in t.iter().filter(|(k, _)| *k != "run") {
            let values: Vec<String> = match v {
                toml::Value::String(s) => vec![substitute(s, &vars, &format!("{at}.{k}"))?],
                toml::Value::Integer(n) => vec![n.to_string()],
                toml::Value::Float(x) => vec![x.to_string()],
                toml::Value::Boolean(_) => vec![],
                toml::Value::Array(a) => a
                    .iter()
                    .map(|x| {
                        x.as_str()
                            .ok_or_else(|| anyhow!("{at}.{k}: list items must be strings"))
                            .and_then(|s| substitute(s, &vars, &format!("{at}.{k}")))
                    })
                    .collect::<anyhow::Result<_>>()?,
                _ => bail!("{at}.{k}: expected a string, number, boolean or list of strings"),
            };
            if INPUT_KEYS.contains(&k.as_str()) {
                reads.extend(values.iter().map(PathBuf::from));
            }
            if OUTPUT_KEYS.contains(&k.as_str()) {
                writes.extend(values.iter().map(PathBuf::from));
            }
            if k == "inputs" {
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
        Cli::try_parse_from(&argv).map_err(|e| anyhow!("{at}: {}", e.to_string().trim()))?;
        out.push(Step {
            name: format!("{}. {cmd}", i + 1),
            argv,
            reads,
            writes,
        });
    }
    Ok((dataset, out))
}

/// What a step depends on: its command line, the files it reads (size and
/// mtime; directories walked) and the dataset's manifest.
fn stamp(step: &Step, dataset: &Path) -> String {
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
        h.update(std::fs::read(dataset.join("manifest.json")).unwrap_or_default());
    }
    evallab::input::hex(&h.finalize())
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

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    // A spec that does not check out is bad input data (exit 4), whatever step.
    let (dataset, steps) =
        load(&a.spec, &a.set).map_err(|e| super::input_data(format!("{e:#}")))?;
    let state_path = dataset.join("derived").join("pipeline-state.json");
    // A state file from another layout (or damaged) only means: run everything.
    let mut state: BTreeMap<String, StepState> = std::fs::read_to_string(&state_path)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default();
    let started = Instant::now();
    for step in &steps {
        let key = step.argv[1..].join(" ");
        let before = StepState::current(step, &dataset);
        let outputs_exist = step.writes.iter().all(|p| p.exists());
        let last = state.get(&key);
        if !a.force && outputs_exist && last == Some(&before) {
            eprintln!(
                "step {}: skipped (inputs and parameters unchanged)",
                step.name
            );
            continue;
        }
        eprintln!("step {}: {}", step.name, step.argv[1..].join(" "));
        if let Some(last) =
            last.filter(|l| (&l.evallab, l.algorithm) != (&before.evallab, before.algorithm))
        {
            eprintln!(
                "step {}: last run by evallab {} (algorithm {}), now {} (algorithm {}): recomputing",
                step.name, last.evallab, last.algorithm, before.evallab, before.algorithm
            );
        }
        let t = Instant::now();
        let cli = Cli::try_parse_from(&step.argv)?;
        let code = super::run(cli).with_context(|| format!("step {}", step.name))?;
        if code != ExitCode::SUCCESS {
            bail!("step {} failed", step.name);
        }
        eprintln!(
            "step {}: done in {:.2}s",
            step.name,
            t.elapsed().as_secs_f64()
        );
        // Stamp after the run: an ingest changes the dataset it then depends on.
        state.insert(key, StepState::current(step, &dataset));
        let _lock = DatasetLock::acquire(&dataset, "run")?;
        evallab::render::format::write_text(&state_path, &serde_json::to_string_pretty(&state)?)?;
    }
    eprintln!(
        "pipeline {}: {} steps in {:.2}s",
        a.spec.display(),
        steps.len(),
        started.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::*;

    #[test]
    fn every_command_has_an_algorithm_version() {
        for c in Cli::command().get_subcommands() {
            assert!(
                algorithm_version(c.get_name()) > 0,
                "{} has no entry in ALGORITHM_VERSIONS",
                c.get_name()
            );
        }
    }
}
