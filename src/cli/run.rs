//! `evallab run pipelines/<spec>.toml`: parse the options, check every step
//! with clap, run the steps the library's [`evallab::pipeline`] says are due.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, bail};
use clap::Parser;
use evallab::pipeline::{self, StepState};

use super::Cli;

/// Run a pipeline spec (TOML); unchanged steps are skipped.
///
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
    /// Run nothing: print each step's command line (shell-quoted, one a line)
    /// on stdout, and on stderr whether it would run or be skipped.
    #[arg(long)]
    dry_run: bool,
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    // Each step is checked exactly as its command line would be.
    let check = |argv: &[String]| {
        Cli::try_parse_from(argv)
            .map(drop)
            .map_err(|e| e.to_string())
    };
    let spec = pipeline::load(&a.spec, &a.set, &check)?;
    let (dataset, steps) = (&spec.dataset, &spec.steps);
    let mut state = pipeline::read_state(dataset);
    let started = Instant::now();
    for step in steps {
        let key = step.key();
        let before = StepState::current(step, dataset);
        let last = state.get(&key);
        let skip = !a.force && step.outputs_exist() && last == Some(&before);
        if a.dry_run {
            let words: Vec<String> = step.argv.iter().map(|w| shell_quote(w)).collect();
            println!("{}", words.join(" "));
            eprintln!(
                "step {}: {}",
                step.name,
                if skip {
                    "would be skipped"
                } else {
                    "would run"
                }
            );
            continue;
        }
        if skip {
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
        state.insert(key, StepState::current(step, dataset));
        pipeline::save_state(dataset, &state)?;
    }
    if a.dry_run {
        return Ok(ExitCode::SUCCESS);
    }
    eprintln!(
        "pipeline {}: {} steps in {:.2}s",
        a.spec.display(),
        steps.len(),
        started.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}

/// A word as a POSIX shell reads it back: bare when it has no special
/// character, else in single quotes.
fn shell_quote(w: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "_./=:,@%+-".contains(c);
    if !w.is_empty() && w.chars().all(plain) {
        w.to_string()
    } else {
        format!("'{}'", w.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::*;

    #[test]
    fn shell_quoting_round_trips_through_sh() {
        let words = ["plain", "a b", "^TCEC Season \\d+$", "it's", ""];
        let line: Vec<String> = words.iter().map(|w| shell_quote(w)).collect();
        let out = std::process::Command::new("sh")
            .arg("-c")
            .arg(format!("printf '%s\\n' {}", line.join(" ")))
            .output()
            .expect("sh runs");
        let back: Vec<&str> = std::str::from_utf8(&out.stdout)
            .expect("utf-8")
            .lines()
            .collect();
        assert_eq!(back, words);
        assert_eq!(shell_quote("a/b=c"), "a/b=c");
    }

    #[test]
    fn every_command_has_an_algorithm_version() {
        // The hidden `__commands` describes the others: no pipeline step.
        for c in Cli::command()
            .get_subcommands()
            .filter(|c| !c.is_hide_set())
        {
            assert!(
                evallab::schema::algorithm_version(c.get_name()) > 0,
                "{} has no entry in ALGORITHM_VERSIONS",
                c.get_name()
            );
        }
    }
}
