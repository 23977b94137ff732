//! Command-line interface: one module per subcommand, the shared flags in
//! `args`, the old spellings in `renames`.
//!
//! Exit codes: 0 success, 1 error, 2 usage (clap), 3 rejected games under
//! `ingest --strict` and 9 a truncated input (`ingest`), 4–8 the library's
//! error kinds ([`evallab::Error::exit_code`]).

/// Writes lines to stdout; a closed stdout is an io error (BrokenPipe) that
/// `main` turns into exit 0, instead of `println!`'s panic.
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        writeln!(std::io::stdout().lock(), $($arg)*)?
    }};
}

mod adjudicate;
mod agreement;
mod analyze;
mod annotate;
mod args;
mod balance;
mod calc;
mod calibrate;
mod commands;
mod commit;
mod crosstable;
mod difficulty;
mod eas;
mod ease;
mod engine_stats;
mod facts;
mod ingest;
mod inspect;
mod r#match;
mod notes;
mod opening_stats;
mod openings;
mod pairs;
mod policy;
mod progress;
mod ratings;
mod relevance;
mod remove;
mod renames;
mod report;
mod run;
mod schema;
mod standings;
mod wdl;

use std::ffi::OsString;
use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};
use evallab::pipeline::{self, FileUse};

/// Chess engine game archives (PGN with eval comments) to Parquet tables and
/// statistics.
#[derive(Debug, Parser)]
#[command(
    name = "evallab",
    version,
    about,
    long_about = None,
    after_help = "Commands by task:\n  data in      ingest, commit, remove, inspect, schema\n  results      standings, crosstable, ratings, pairs, opening-stats\n  statistics   balance, calibrate, wdl, relevance, eas, adjudicate, openings, facts\n  engines      engine-stats, analyze, agreement, match, policy, ease, difficulty\n  output       report, annotate, calc\n  batch        run (pipelines/*.toml)\n\n`evallab COMMAND --help` for a command's options; docs/ (the book) for the definitions."
)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

// Listed by task: data in, results, statistics, engine work, output, batch.
#[derive(Debug, Subcommand)]
enum Command {
    Ingest(ingest::Args),
    Commit(commit::Args),
    Remove(remove::Args),
    Inspect(inspect::Args),
    Schema(schema::Args),
    Standings(standings::Args),
    Crosstable(crosstable::Args),
    Ratings(ratings::Args),
    Pairs(pairs::Args),
    OpeningStats(opening_stats::Args),
    Balance(balance::Args),
    Calibrate(calibrate::Args),
    Wdl(wdl::Args),
    Relevance(relevance::Args),
    Eas(eas::Args),
    Adjudicate(adjudicate::Args),
    Facts(facts::Args),
    Openings(openings::Args),
    EngineStats(engine_stats::Args),
    Analyze(analyze::Args),
    Agreement(agreement::Args),
    Match(r#match::Args),
    Policy(policy::Args),
    Ease(ease::Args),
    Difficulty(difficulty::Args),
    Report(report::Args),
    Annotate(annotate::Args),
    Calc(calc::Args),
    Run(run::Args),
    /// Every command's options as JSON or markdown (for the docs and the API's tests).
    #[command(name = "__commands", hide = true)]
    Commands(commands::Args),
}

/// The command line as clap reads it: old spellings rewritten
/// ([`renames`]), with a note for each on stderr; exits on a usage error.
pub fn parse() -> Cli {
    let (argv, notes) = renames::rewrite(std::env::args_os().collect());
    for n in notes {
        eprintln!("{n}");
    }
    Cli::parse_from(argv)
}

/// The parser as a pipeline sees it (`run`): checks a step, tells which
/// options are files, runs it. The command tree is built once, not per
/// option looked up.
pub(crate) struct Steps {
    cli: clap::Command,
}

impl Steps {
    pub(crate) fn new() -> Steps {
        Steps {
            cli: Cli::command(),
        }
    }

    /// `what` of option `flag` (`--long` or `-s`) of `command`, if it has one.
    fn option<T>(&self, command: &str, flag: &str, what: impl Fn(&clap::Arg) -> T) -> Option<T> {
        let arg = self
            .cli
            .find_subcommand(command)?
            .get_arguments()
            .find(|a| {
                flag.strip_prefix("--")
                    .is_some_and(|l| a.get_long() == Some(l))
                    || flag.strip_prefix('-').and_then(|s| s.chars().next()) == a.get_short()
            })?;
        Some(what(arg))
    }
}

impl pipeline::Commands for Steps {
    fn check(&self, argv: &[String]) -> Result<(Vec<String>, Vec<String>), String> {
        let (argv, notes) = renames::rewrite(argv.iter().map(OsString::from).collect());
        let argv: Vec<String> = argv
            .into_iter()
            .map(|w| w.to_string_lossy().into_owned())
            .collect();
        Cli::try_parse_from(&argv).map_err(|e| e.to_string())?;
        Ok((argv, notes))
    }

    fn file_use(&self, command: &str, flag: &str) -> Option<FileUse> {
        self.option(command, flag, args::file_use).flatten()
    }

    fn names_run(&self, command: &str, flag: &str) -> bool {
        self.option(command, flag, args::names_run).unwrap_or(false)
    }
}

impl run::Execute for Steps {
    fn execute(&self, argv: &[String]) -> anyhow::Result<ExitCode> {
        run(Cli::try_parse_from(argv)?)
    }
}

pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Ingest(a) => ingest::run(a),
        Command::Commit(a) => commit::run(a),
        Command::Remove(a) => remove::run(a),
        Command::Analyze(a) => analyze::run(a),
        Command::EngineStats(a) => engine_stats::run(a),
        Command::Agreement(a) => agreement::run(a),
        Command::Match(a) => r#match::run(a),
        Command::Adjudicate(a) => adjudicate::run(a),
        Command::Policy(a) => policy::run(a),
        Command::Run(a) => run::run(a, &Steps::new()),
        Command::Standings(a) => standings::run(a),
        Command::Crosstable(a) => crosstable::run(a),
        Command::OpeningStats(a) => opening_stats::run(a),
        Command::Balance(a) => balance::run(a),
        Command::Calibrate(a) => calibrate::run(a),
        Command::Wdl(a) => wdl::run(a),
        Command::Relevance(a) => relevance::run(a),
        Command::Eas(a) => eas::run(a),
        Command::Ease(a) => ease::run(a),
        Command::Difficulty(a) => difficulty::run(a),
        Command::Facts(a) => facts::run(a),
        Command::Openings(a) => openings::run(a),
        Command::Pairs(a) => pairs::run(a),
        Command::Ratings(a) => ratings::run(a),
        Command::Report(a) => report::run(a),
        Command::Annotate(a) => annotate::run(a),
        Command::Calc(a) => calc::run(a),
        Command::Schema(a) => schema::run(a),
        Command::Inspect(a) => inspect::run(a),
        Command::Commands(a) => commands::run(a, &Cli::command()),
    }
}
