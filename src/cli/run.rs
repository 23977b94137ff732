//! `evallab run pipelines/<spec>.toml`: parse the options, check every step
//! with clap, run the steps the library's [`evallab::pipeline`] says are due.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, bail};
use clap::Parser;
use evallab::pipeline::{self, StepState};

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
        if !a.force && step.outputs_exist() && last == Some(&before) {
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
                pipeline::algorithm_version(c.get_name()) > 0,
                "{} has no entry in ALGORITHM_VERSIONS",
                c.get_name()
            );
        }
    }
}
