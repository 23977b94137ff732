//! `evallab run pipelines/<spec>.toml`: parse the options, check every step
//! with clap, run the steps the library's [`evallab::pipeline`] says are due.

use std::process::ExitCode;
use std::time::Instant;

use super::args::ReadPath;
use anyhow::{Context, bail};
use evallab::pipeline::{self, Commands, StepState};

/// Run a pipeline spec (TOML); unchanged steps are skipped.
///
/// Run a pipeline spec (TOML): ingest and statistics steps with their options;
/// steps whose inputs and parameters have not changed are skipped.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Pipeline spec, e.g. pipelines/demo.toml.
    spec: ReadPath,
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

/// What runs a step: the CLI's dispatch, given by the parent module (a
/// pipeline runs commands, so it is the one command that needs them all).
pub trait Execute: Commands {
    fn execute(&self, argv: &[String]) -> anyhow::Result<ExitCode>;
}

pub fn run(a: Args, commands: &dyn Execute) -> anyhow::Result<ExitCode> {
    // Each step is checked exactly as its command line would be.
    let spec = pipeline::load(&a.spec, &a.set, commands)?;
    for n in &spec.notes {
        eprintln!("{n}");
    }
    let (dataset, steps) = (&spec.dataset, &spec.steps);
    let mut state = pipeline::read_state(dataset);
    let started = Instant::now();
    // Steps left out on this machine (an optional step's engine missing),
    // and those that need what they would have made.
    let mut left_out = Vec::new();
    for step in steps {
        let key = step.key();
        let before = StepState::current(step, dataset);
        let last = state.get(&key);
        let skip = !a.force && step.outputs_exist() && last == Some(&before);
        let why = (!skip).then(|| spec.left_out(step, &left_out)).flatten();
        if a.dry_run {
            let words: Vec<String> = step.argv.iter().map(|w| shell_quote(w)).collect();
            println!("{}", words.join(" "));
            match &why {
                Some(why) => eprintln!("step {}: would be skipped: {why}", step.name),
                None if skip => eprintln!("step {}: would be skipped", step.name),
                None => eprintln!("step {}: would run", step.name),
            }
            if why.is_some() {
                left_out.push(step);
            }
            continue;
        }
        if skip {
            eprintln!(
                "step {}: skipped (inputs and parameters unchanged)",
                step.name
            );
            continue;
        }
        if let Some(why) = why {
            eprintln!("step {}: skipped: {why}", step.name);
            left_out.push(step);
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
        let code = commands
            .execute(&step.argv)
            .with_context(|| format!("step {}", step.name))?;
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
    if !left_out.is_empty() {
        let names: Vec<&str> = left_out.iter().map(|s| s.name.as_str()).collect();
        eprintln!(
            "pipeline {}: {} steps skipped, as said above: {}",
            a.spec.display(),
            names.len(),
            names.join(", ")
        );
    }
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

    /// No command declares an argument twice (a flattened group and the
    /// command's own field): clap checks that only in debug builds.
    #[test]
    fn no_command_declares_an_argument_twice() {
        for c in crate::cli::Cli::command().get_subcommands() {
            let mut ids: Vec<&str> = c.get_arguments().map(|a| a.get_id().as_str()).collect();
            ids.sort_unstable();
            let before = ids.len();
            ids.dedup();
            assert_eq!(
                ids.len(),
                before,
                "{}: an argument declared twice",
                c.get_name()
            );
        }
    }

    #[test]
    fn every_command_has_an_algorithm_version() {
        // The hidden `__commands` describes the others: no pipeline step.
        for c in crate::cli::Cli::command()
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

    /// A pipeline knows the files of a step from the options' types: every
    /// path option says whether it is read or written (`ReadPath`,
    /// `WritePath`); only the dataset is a plain path (the pipeline's own).
    #[test]
    fn every_path_option_says_whether_it_is_read_or_written() {
        use std::any::TypeId;
        use std::path::PathBuf;
        let cli = crate::cli::Cli::command();
        for c in cli.get_subcommands() {
            for a in c.get_arguments() {
                let plain = a.get_value_parser().type_id() == TypeId::of::<PathBuf>();
                assert!(
                    !plain || a.get_id() == "dataset",
                    "{} --{}: a plain path; make it ReadPath or WritePath",
                    c.get_name(),
                    a.get_id()
                );
            }
        }
        // Some of the files the former hand-written key lists missed.
        use evallab::pipeline::{Commands, FileUse};
        let steps = crate::cli::Steps::new();
        for (command, flag, want) in [
            ("balance", "--facts", FileUse::Reads),
            ("adjudicate", "--rules", FileUse::Reads),
            ("adjudicate", "--syzygy", FileUse::Reads),
            ("openings", "--table", FileUse::Reads),
            ("ratings", "--los-matrix", FileUse::Writes),
            ("match", "-o", FileUse::Writes),
            ("analyze", "--uci", FileUse::Reads),
            ("pairs", "--book", FileUse::Reads),
        ] {
            assert_eq!(
                steps.file_use(command, flag),
                Some(want),
                "{command} {flag}"
            );
        }
        assert_eq!(steps.file_use("balance", "--engine"), None);
        // Engine runs, by their type too: the manifest part a step reads.
        for (command, flag) in [
            ("analyze", "--label"),
            ("agreement", "--analysis"),
            ("ease", "--policy"),
            ("difficulty", "--analysis"),
            ("relevance", "--analysis"),
        ] {
            assert!(steps.names_run(command, flag), "{command} {flag}");
        }
        assert!(!steps.names_run("analyze", "--shard"));
    }
}
