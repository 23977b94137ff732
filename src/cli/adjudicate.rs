//! `evallab adjudicate <DATASET>`: resign and draw rules replayed over the games.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::ValueEnum;
use evallab::dataset::Dataset;
use evallab::metrics::adjudication::RuleSet;
use evallab::metrics::adjudication::query::{
    self, By, clock_agreement_by_era, clock_causes, clock_disagreements, cols, rule_ends,
    rule_ends_by_era,
};
use evallab::metrics::adjudication::sweep::{self, Axis, derive, tradeoff_points};
use evallab::metrics::{matches, select_events};
use evallab::render::annotate::AnnotateOptions;
use evallab::render::plot;
use evallab::schema::{GAMES, MOVES, col as gcol, metric};
use evallab::tablebase::Syzygy;
use polars::prelude::*;

use super::{FilterArgs, OutputArgs};

/// Grouping of the summary table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Group {
    /// One row for all selected games.
    Total,
    Event,
    Engine,
    #[value(name = "event,engine")]
    EventEngine,
}

/// Games behind a number, for `--games`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Kind {
    Agree,
    Wrong,
    Censored,
}

/// Replay resign and draw rules over the games: fired, agreed, wrong, plies saved.
///
/// Replays resign and draw rules (cutechess, TCEC, Terra presets or a TOML
/// file) over the games: per rule, how often it fires, agrees with the final
/// result or gets it wrong, and the plies and hours it saves (README,
/// "Adjudication").
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Dataset folder written by `evallab ingest`.
    dataset: PathBuf,
    /// A preset (cutechess, tcec, terra) or a rule TOML file.
    #[arg(long, value_name = "PRESET|FILE")]
    rules: String,
    /// Override a rule key, e.g. `--set draw.score=20` (repeatable).
    #[arg(long, value_name = "KEY=VALUE")]
    set: Vec<String>,
    /// Sum per event, engine, or both (default: all selected games).
    #[arg(long, value_enum, default_value_t = Group::Total)]
    by: Group,
    #[command(flatten)]
    filter: FilterArgs,
    /// List the games behind a number (or, with --check-clocks, the games whose
    /// clocks disagree: `wrong`).
    #[arg(long, value_enum, conflicts_with = "sweep")]
    games: Option<Kind>,
    /// With --games: also write those games as PGN.
    #[arg(long, value_name = "FILE", requires = "games")]
    pgn: Option<PathBuf>,
    /// Sweep a key over a grid, `KEY=FROM..TO:STEP` (one or two): one row per
    /// point. With --check-clocks: per event, the point whose clocks agree best
    /// with the archive's (parameters derived from the clocks).
    #[arg(long, value_name = "KEY=FROM..TO:STEP")]
    sweep: Vec<String>,
    /// With --sweep: draw the trade-off (wrong results vs plies saved), .svg or .png.
    #[arg(long, value_name = "FILE", requires = "sweep")]
    plot: Option<PathBuf>,
    /// Compare the replayed TCEC clocks (Rd, Rr) with the archive's, per event.
    #[arg(long)]
    check_clocks: bool,
    /// Syzygy tables for the rule sets' tablebase rules (TCEC eras, `[tb]`);
    /// without them those rules are skipped, and stderr says so.
    #[arg(long, value_name = "DIR")]
    syzygy: Option<PathBuf>,
    #[command(flatten)]
    out: OutputArgs,
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    // Every option is checked before anything is read.
    let opts = a.filter.options()?;
    a.out.check()?;
    let mut set = RuleSet::load(&a.rules)?;
    for kv in &a.set {
        let (k, v) = kv
            .split_once('=')
            .ok_or_else(|| super::usage(format!("--set {kv}: expected KEY=VALUE")))?;
        set = set.set(k, v)?;
    }
    let axes = a
        .sweep
        .iter()
        .map(|s| Axis::parse(s))
        .collect::<Result<Vec<_>, _>>()?;
    if axes.len() > 2 {
        return Err(super::usage("--sweep: one or two keys"));
    }
    sweep::sets(&set, &axes)?;
    if let Some(p) = &a.plot {
        plot::check_path(p)?;
        if a.check_clocks {
            return Err(super::usage(
                "--plot draws a sweep's trade-off, not --check-clocks",
            ));
        }
    }
    if a.check_clocks && matches!(a.games, Some(Kind::Agree | Kind::Censored)) {
        return Err(super::usage("--check-clocks lists only --games wrong"));
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
    let ds = Dataset::open(&a.dataset)?;
    let (games, moves) = select_events(ds.scan(&GAMES)?, ds.scan(&MOVES)?, opts.event.as_deref());
    let loaded = query::load(
        games,
        moves,
        opts.engine.as_deref(),
        &opts.families,
        a.check_clocks,
        tb,
    )?;
    let bar = super::analyze::progress_bar(false, "settings");
    let started = std::time::Instant::now();
    let progress = |done: usize, total: usize| {
        if let Some(bar) = &bar {
            bar.set_length(total as u64);
            bar.set_position(done as u64);
        }
    };
    let swept = |what: &str| {
        if let Some(bar) = &bar {
            bar.finish_and_clear();
        }
        eprintln!(
            "sweep: {} settings over {} games in {:.1} s; {what} in {}",
            sweep::grid(&axes).len(),
            loaded.games.height(),
            started.elapsed().as_secs_f64(),
            a.out.path_display()
        );
    };
    let mut df = if a.check_clocks && !axes.is_empty() {
        let df = derive(&loaded, &set, &axes, &progress)?;
        swept("the best setting per era and event");
        df
    } else if a.check_clocks {
        check_clocks(&loaded, &set, a.games.is_some(), &a.out)?
    } else if !axes.is_empty() {
        let df = sweep::sweep(&loaded, &set, &axes, &progress)?;
        swept("one row per setting");
        if let Some(p) = &a.plot {
            draw(&df, &axes, &set.name, p)?;
            eprintln!("plot written to {}", p.display());
        }
        df
    } else {
        let outcomes = loaded.outcomes(&set)?;
        if let Some(kind) = a.games {
            games_behind(&ds, &outcomes, kind, a.pgn.as_ref())?
        } else {
            let by = match a.by {
                Group::Total => By::Total,
                Group::Event => By::Event,
                Group::Engine => By::Engine,
                Group::EventEngine => By::EventEngine,
            };
            let mut df = query::summary(outcomes.lazy(), by).collect()?;
            if let Some(re) = opts
                .engine
                .as_deref()
                .filter(|_| by == By::Engine || by == By::EventEngine)
            {
                df = df
                    .lazy()
                    .filter(matches(col(metric::ENGINE), re))
                    .collect()?;
            }
            df.insert_column(
                0,
                Column::new(cols::RULES.into(), vec![set.name.clone(); df.height()]),
            )?;
            df
        }
    };
    a.out.write(&mut df)?;
    Ok(ExitCode::SUCCESS)
}

fn games_behind(
    ds: &Dataset,
    outcomes: &DataFrame,
    kind: Kind,
    pgn: Option<&PathBuf>,
) -> anyhow::Result<DataFrame> {
    let v = match kind {
        Kind::Agree => query::verdict::AGREE,
        Kind::Wrong => query::verdict::WRONG,
        Kind::Censored => query::verdict::CENSORED,
    };
    let df = outcomes
        .clone()
        .lazy()
        .filter(col(cols::VERDICT).eq(lit(v)))
        .select([
            col(gcol::GAME_ID),
            col(gcol::EVENT),
            col(gcol::ROUND),
            col(gcol::WHITE),
            col(gcol::BLACK),
            col(gcol::RESULT),
            col(gcol::PLIES),
            col(cols::FIRE_PLY),
            col(cols::CLAUSE),
            col(cols::RULE_RESULT),
            col(cols::PLIES_SAVED),
        ])
        .collect()?;
    if let Some(path) = pgn {
        let ids = df.column(gcol::GAME_ID)?.as_materialized_series().clone();
        let filter = col(gcol::GAME_ID).is_in(lit(ids).implode(false), false);
        let n = super::annotate::write_games(ds, filter, AnnotateOptions::default(), None, path)?;
        eprintln!("{n} games written to {}", path.display());
    }
    Ok(df)
}

/// `--check-clocks`: the per-event table (or the disagreeing games), with a
/// one-line summary on stderr. The per-era totals, the causes of the
/// disagreements, the rule-end check and its exceptions go beside an output
/// file (`NAME.eras.EXT`, …); on a terminal (no `-o`) they go to stderr.
fn check_clocks(
    loaded: &query::Loaded,
    set: &RuleSet,
    list: bool,
    out: &OutputArgs,
) -> anyhow::Result<DataFrame> {
    let check = loaded.clock_check(set, query::ClockRows::Disagreeing)?;
    let (per_event, clocks) = (check.per_event, check.plies.lazy());
    let games = loaded.games.clone().lazy();
    let ends = rule_ends(loaded.outcomes(set)?.lazy()).collect()?;
    let bad = ends.clone().lazy().filter(col("ok").not()).collect()?;
    let sum = |c: &str| -> anyhow::Result<u64> {
        Ok(per_event.column(c)?.as_materialized_series().sum::<u64>()?)
    };
    let (plies, agree) = (
        sum("rd_plies")? + sum("rr_plies")?,
        sum("rd_agree")? + sum("rr_agree")?,
    );
    eprintln!(
        "clocks: {agree} of {plies} archived Rd/Rr values replayed ({:.2} %) in {} events; \
         games ended by the TCEC draw/win rule: {}, fired at exactly their last ply: {}, exceptions: {}",
        100.0 * agree as f64 / plies.max(1) as f64,
        per_event.height(),
        ends.height(),
        ends.height() - bad.height(),
        bad.height()
    );
    let details = [
        (
            "eras",
            "per era",
            clock_agreement_by_era(per_event.clone().lazy()),
        ),
        (
            "causes",
            "disagreeing plies by cause",
            clock_causes(clocks.clone()),
        ),
        (
            "rule-ends",
            "rule ends by era",
            rule_ends_by_era(ends.lazy()),
        ),
        ("exceptions", "exceptions", bad.lazy()),
    ];
    for (suffix, title, lf) in details {
        let mut df = lf.collect()?;
        match out.beside(suffix) {
            Some(side) => side.write(&mut df)?,
            None if df.height() > 0 => eprintln!("{title}:\n{df}"),
            None => {}
        }
    }
    if let Some(side) = out.beside("*") {
        eprintln!("details in {}", side.path_display());
    }
    Ok(if list {
        clock_disagreements(clocks, games).collect()?
    } else {
        per_event
    })
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
