//! `evallab adjudicate <DATASET>`: resign and draw rules replayed over the games.

use std::path::Path;
use std::process::ExitCode;

use evallab::metrics::adjudication::RuleSet;
use evallab::metrics::adjudication::query::{self, By};
use evallab::metrics::adjudication::sweep::{self, Axis, derive, tradeoff_points};
use evallab::metrics::adjudication::tablebase::Syzygy;
use evallab::metrics::adjudication::tables::{
    ClockReport, Verdict, clock_report, games_behind, rule_summary,
};
use evallab::metrics::in_dataset_order;
use evallab::render::{format, plot};
use evallab::schema::outputs as out;
use evallab::schema::{GAMES, MOVES};
use polars::prelude::DataFrame;

use super::args::StatArgs;
use super::args::choice;
use super::args::{NameOrPath, OutputArgs, ReadPath, WritePath};

/// Replay resign and draw rules over the games: fired, agreed, wrong, plies saved.
///
/// Replays resign and draw rules (cutechess, fastchess, TCEC, Terra presets or
/// a TOML file) over the games: per rule, how often it fires, agrees with the final
/// result or gets it wrong, and the plies and hours it saves
/// (docs/guide/adjudication.md).
#[derive(Debug, clap::Args)]
pub struct Args {
    /// A preset (cutechess; fastchess: fishtest's rules, counted as fastchess
    /// counts them; tcec; terra) or a rule TOML file.
    #[arg(long, value_name = "PRESET|FILE")]
    rules: NameOrPath,
    /// Override a rule key, e.g. `--set draw.score=20` (repeatable).
    #[arg(long, value_name = "KEY=VALUE")]
    set: Vec<String>,
    /// Sum per event, engine, or both (default: all selected games); with
    /// --sweep, per group at every point.
    #[arg(long, value_parser = choice::<By>(), default_value_t = By::All,
          conflicts_with_all = ["games", "check_clocks"])]
    by: By,
    /// List the games behind a number (or, with --check-clocks, the games whose
    /// clocks disagree: `wrong`).
    #[arg(long, value_parser = choice::<Verdict>(), conflicts_with = "sweep")]
    games: Option<Verdict>,
    /// With --games: also write those games as PGN.
    #[arg(long, value_name = "FILE", requires = "games")]
    pgn: Option<WritePath>,
    /// Sweep a key over a grid, `KEY=FROM..TO:STEP` (one or two): one row per
    /// point. With --check-clocks: per event, the point whose clocks agree best
    /// with the archive's (parameters derived from the clocks).
    #[arg(long, value_name = "KEY=FROM..TO:STEP")]
    sweep: Vec<String>,
    /// With --sweep: draw the trade-off (wrong results vs plies saved), .svg or .png.
    #[arg(long, value_name = "FILE", requires = "sweep")]
    plot: Option<WritePath>,
    /// Compare the replayed TCEC clocks (Rd, Rr) with the archive's, per event.
    #[arg(long)]
    check_clocks: bool,
    /// Syzygy tables for the rule sets' tablebase rules (TCEC eras, `[tb]`);
    /// without them those rules are skipped, and stderr says so.
    #[arg(long, value_name = "DIR")]
    syzygy: Option<ReadPath>,
    #[command(flatten)]
    stat: StatArgs,
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    // Every option is checked before anything is read.
    let mut set = RuleSet::load(&a.rules)?;
    for kv in &a.set {
        let (k, v) = kv
            .split_once('=')
            .ok_or_else(|| super::args::usage(format!("--set {kv}: expected KEY=VALUE")))?;
        set = set.set(k, v)?;
    }
    let axes = Axis::parse_all(&a.sweep)?;
    sweep::sets(&set, &axes)?;
    if let Some(p) = &a.plot {
        plot::check_path(p)?;
        if a.check_clocks {
            return Err(super::args::usage(
                "--plot draws a sweep's trade-off, not --check-clocks",
            ));
        }
        if a.by != By::All {
            return Err(super::args::usage(
                "--plot draws one point per setting: a sweep without --by",
            ));
        }
    }
    if a.check_clocks && matches!(a.games, Some(Verdict::Agree | Verdict::Censored)) {
        return Err(super::args::usage(
            "--check-clocks lists only --games wrong",
        ));
    }
    let tables = a.syzygy.as_deref().map(Syzygy::open).transpose()?;
    let tb = match (&tables, set.tb_men()) {
        (Some(t), Some(men)) => Some((t as &dyn query::Probe, men.min(t.max_men()))),
        (None, Some(men)) => {
            eprintln!(
                "note: the tablebase rule (up to {men} men) is skipped: no --syzygy DIR; games it would have ended count as censored"
            );
            None
        }
        _ => None,
    };
    let (ds, sel) = a.stat.open()?;
    let loaded = query::load(ds.scan(&GAMES)?, ds.scan(&MOVES)?, &sel, a.check_clocks, tb)?;
    let bar = std::cell::RefCell::new(Some(super::analyze::progress(false, "settings")));
    let started = std::time::Instant::now();
    let progress = |done: usize, total: usize| {
        if let Some(p) = bar.borrow_mut().as_mut() {
            p.update(done as u64, total as u64, String::new);
        }
    };
    let swept = |what: &str| {
        if let Some(p) = bar.borrow_mut().take() {
            p.finish();
        }
        eprintln!(
            "sweep: {} settings over {} games in {:.1} s; {what} in {}",
            sweep::grid(&axes).len(),
            loaded.games.height(),
            started.elapsed().as_secs_f64(),
            a.stat.out.path_display()
        );
    };
    let output = match (a.check_clocks, axes.is_empty(), a.games) {
        (true, false, _) => &out::ADJUDICATION_CLOCKS_SWEEP,
        (true, true, Some(_)) => &out::ADJUDICATION_CLOCKS_GAMES,
        (true, true, None) => &out::ADJUDICATION_CLOCKS,
        (false, false, _) => &out::ADJUDICATION_SWEEP,
        (false, true, Some(_)) => &out::ADJUDICATION_GAMES,
        (false, true, None) => &out::ADJUDICATION,
    };
    let mut df = if a.check_clocks && !axes.is_empty() {
        let df = derive(&loaded, &set, &axes, &progress)?;
        swept("the best setting per era and event");
        df
    } else if a.check_clocks {
        let report = clock_report(&loaded, &set, a.games.is_some())?;
        write_clock_details(report, &a.stat.out)?
    } else if !axes.is_empty() {
        let df = sweep::sweep(&loaded, &set, &axes, a.by, &sel, &progress)?;
        swept(if a.by == By::All {
            "one row per setting"
        } else {
            "one row per setting and group"
        });
        if let Some(p) = &a.plot {
            draw(&df, &axes, &set.name, p)?;
            eprintln!("plot written to {}", p.display());
        }
        df
    } else {
        let outcomes = loaded.outcomes(&set)?;
        match a.games {
            Some(v) => {
                let df = in_dataset_order(games_behind(&outcomes, v)?, ds.scan(&GAMES)?)?;
                if let Some(path) = &a.pgn {
                    super::annotate::write_listed(&ds, &df, path)?;
                }
                df
            }
            None => rule_summary(outcomes, &set, a.by, &sel)?,
        }
    };
    a.stat.out.write(&mut df, output)?;
    Ok(ExitCode::SUCCESS)
}

/// `--check-clocks`: the one-line summary on stderr; the per-era totals, the
/// causes of the disagreements, the rule-end check and its exceptions beside
/// an output file (`NAME.eras.EXT`, …), or on a terminal (no `-o`) on
/// stderr. Returns the main table.
fn write_clock_details(report: ClockReport, out: &OutputArgs) -> anyhow::Result<DataFrame> {
    eprintln!("{report}");
    for (suffix, output, mut df) in report.details {
        match out.beside(suffix) {
            Some(side) => side.write(&mut df, output)?,
            None if df.height() > 0 => {
                eprintln!("{}:\n{}", output.title, format::shown(&df, output)?)
            }
            None => {}
        }
    }
    if let Some(side) = out.beside("*") {
        eprintln!("details in {}", side.path_display());
    }
    Ok(report.table)
}

/// The sweep's trade-off plot, each point labelled with its key values.
fn draw(df: &DataFrame, axes: &[Axis], name: &str, path: &Path) -> anyhow::Result<()> {
    let points = tradeoff_points(df, axes)?;
    let title = format!(
        "{name}: plies saved vs wrong results ({} settings)",
        points.len()
    );
    plot::tradeoff(&title, &points, path)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;
    use evallab::metrics::adjudication::rules::PRESETS;

    /// `--rules`' help names every shipped preset.
    #[test]
    fn the_rules_help_names_every_preset() {
        let cli = crate::cli::Cli::command();
        let cmd = cli.find_subcommand("adjudicate").unwrap();
        let arg = cmd.get_arguments().find(|a| a.get_id() == "rules").unwrap();
        let help = arg.get_help().unwrap().to_string();
        for (name, _) in PRESETS {
            assert!(
                help.contains(name),
                "--rules' help does not name {name}: {help}"
            );
        }
    }
}
