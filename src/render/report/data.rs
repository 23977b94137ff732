//! What the report shows, collected from a dataset once: per event the
//! frames and series every section draws. Reads only: the EAS labels come
//! in from the caller (a cache the dataset's writer keeps).

use std::collections::HashMap;

use polars::prelude::*;

use crate::Error;
use crate::dataset::derived::Stamp;
use crate::dataset::{Dataset, EngineRun, inspect};
use crate::metrics::Families;
use crate::metrics::adjudication::RuleSet;
use crate::metrics::adjudication::query as adj;
use crate::metrics::adjudication::rules::PRESETS;
use crate::metrics::agreement::query as agreement;
use crate::metrics::balance::{BalanceOptions, Group, balance, game_facts};
use crate::metrics::calibrate::{Calibration, GameObs, calibrate_group, observations};
use crate::metrics::chunks::stack;
use crate::metrics::difficulty::model::RatingModel;
use crate::metrics::difficulty::query::{DifficultyOptions, with_expected_rating};
use crate::metrics::difficulty::{self};
use crate::metrics::eas::{EasOptions, Globals, score};
use crate::metrics::ease::math::Form;
use crate::metrics::ease::query::{self as ease, EaseOptions, per_position};
use crate::metrics::matching::query as matching;
use crate::metrics::openings::stats::{By as OpeningsBy, OpeningStatsOptions, opening_stats};
use crate::metrics::pairs::Book;
use crate::metrics::pairs::{PairsOptions, pairs, pentanomial};
use crate::metrics::ratings::fit::Solver;
use crate::metrics::ratings::{RatingOptions, Ratings, ratings};
use crate::metrics::relevance::{self, per_move_summarised};
use crate::metrics::standings::{crosstable, crosstable_wide, standings};
use crate::metrics::wdl::{self, Fitted, Model, validate};
use crate::metrics::x05::X05;
use crate::metrics::{Selection, event_matches};
use crate::render::annotate::white_pov;
use crate::render::order::{in_natural_order, natural_key};
use crate::schema::{
    ANALYSIS, GAMES, MATCH, MOVES, OPENINGS, POLICY, REJECTS, col, match_col, metric,
};

/// What the report covers.
#[derive(Debug, Clone)]
pub struct ReportOptions {
    /// Only events matching this regex.
    pub event: Option<String>,
    /// Games whose trajectories are drawn per event.
    pub games_per_event: usize,
    /// x05 of the relevance summary (per engine where known).
    pub x05: X05,
    /// Player names merged in the relevance summary (as for the x05 file).
    pub families: Families,
    /// The selected games' expected puzzle rating per position, from this model.
    pub rating_model: Option<RatingModel>,
    /// How the ratings sections solve the rating equations.
    pub solver: Solver,
    /// Training and test events (regexes) of the WDL validation section.
    pub wdl_split: Option<(String, String)>,
    /// The book of games without book marks (the pairs' openings).
    pub book: Option<Book>,
}

/// The whole report's data.
#[derive(Debug, Clone)]
pub struct ReportData {
    /// The dataset folder, as shown in the header.
    pub dataset: String,
    /// Games of the selected events.
    pub games: usize,
    /// The x05 of engines the relevance summary has no value for.
    pub x05_default: f64,
    /// The ratings of every engine of the selected events at once, each
    /// connectivity group on its own; or why there are none.
    pub ratings: Result<Ratings, String>,
    /// The events, in number order ("Season 4" before "Season 10").
    pub events: Vec<EventData>,
    /// The WDL model pooled over the selected events.
    pub wdl: Option<Fitted>,
    /// The models scored out of sample (`report --wdl-train/--wdl-test`).
    pub wdl_validation: Option<validate::Validation>,
    /// The selected events' games rejected at ingest (`inspect`'s rejects).
    pub rejects: DataFrame,
    /// The selected events' games held more than once (`inspect`'s).
    pub repeated: DataFrame,
}

impl Default for ReportData {
    fn default() -> ReportData {
        ReportData {
            dataset: String::new(),
            games: 0,
            x05_default: 0.0,
            ratings: Err("no games".into()),
            events: Vec::new(),
            wdl: None,
            wdl_validation: None,
            rejects: DataFrame::empty(),
            repeated: DataFrame::empty(),
        }
    }
}

/// An engine's WDL model of one event (with the pooled prior), or why none.
#[derive(Debug, Clone)]
pub struct EngineWdl {
    pub engine: String,
    pub model: Result<Model, String>,
    /// Its own positions in the fit's window.
    pub positions: u64,
    /// Its positions' share of the fit against the prior's (1: none of the
    /// pool; None without positions).
    pub own_share: Option<f64>,
}

/// One event's section.
#[derive(Debug, Clone, Default)]
pub struct EventData {
    pub name: String,
    /// `standings` rows of the event, in rank order.
    pub standings: DataFrame,
    /// The head-to-head matrix (`crosstable --wide`) of the event.
    pub crosstable: DataFrame,
    /// Pentanomial rows per engine pair of the event (`pairs`).
    pub pairs: DataFrame,
    /// The book that opened the games without book marks (`--book`): its
    /// lines and the longest line's plies.
    pub book: Option<(usize, u32)>,
    /// Results and decisive pairs per opening of the event, or per start
    /// position when it has Chess960 games (`opening-stats --by start`).
    pub openings: Openings,
    /// The event's ratings (as `ratings --event`), or why there are none.
    pub ratings: Option<Result<Ratings, String>>,
    /// `balance` rows of the event's engines.
    pub balance: DataFrame,
    /// Per engine: its games' observations and their calibration.
    pub calibrations: Vec<(String, Vec<GameObs>, Calibration)>,
    /// Per engine: its WDL model of this event.
    pub wdl: Vec<EngineWdl>,
    /// The EAS table over the event's games, and the V6 globals it used.
    pub eas: DataFrame,
    pub eas_globals: Globals,
    /// The relevance summary of the event's engines.
    pub relevance: DataFrame,
    /// Per engine analysis with rows in this event: its run and summary.
    pub agreements: Vec<(EngineRun, DataFrame)>,
    /// Per move-matching run with rows in this event: its run and summary.
    pub matchings: Vec<(EngineRun, DataFrame)>,
    /// The shipped adjudication rule sets replayed, and the cutechess draw
    /// score swept.
    pub adjudication: DataFrame,
    pub adjudication_sweep: DataFrame,
    /// The longest decisive games.
    pub games: Vec<SelectedGame>,
}

/// An event's `opening-stats` rows, by opening or by Chess960 start.
#[derive(Debug, Clone, Default)]
pub struct Openings {
    pub rows: DataFrame,
    /// By start position (Chess960), else by opening.
    pub by_start: bool,
    /// By the `openings` table (position), else by the ECO and Opening tags.
    pub classified: bool,
}

/// A selected game: its title, and its evals (and ease) ply by ply.
#[derive(Debug, Clone, Default)]
pub struct SelectedGame {
    pub title: String,
    /// Per ply: (White moved, White-POV eval).
    pub plies: Vec<(bool, Option<f64>)>,
    /// (what priced it, (ply, ease) points) when the dataset has an analysis
    /// with MultiPV ≥ 2 and a policy run.
    pub ease: Option<(String, Vec<(f64, f64)>)>,
    /// (ply, expected puzzle rating) points, with a rating model.
    pub expected: Vec<(f64, f64)>,
}

/// Collects the report's data from `ds`, with its EAS `labels`; `progress`
/// hears of each step before it runs (`Steps`).
pub fn collect(
    ds: &Dataset,
    labels: &DataFrame,
    opts: &ReportOptions,
    progress: Progress,
) -> Result<ReportData, Error> {
    let bopts = BalanceOptions {
        group: Group::EventEngine,
        selection: Selection {
            event: opts.event.clone(),
            ..Selection::default()
        },
    };
    // The per-game facts feed the balance and the calibrations: computed once
    // (a LazyFrame's cache lasts one collect only).
    let facts = game_facts(ds.scan(&GAMES)?, ds.scan(&MOVES)?, &bopts, true)?.collect()?;
    let bal = balance(facts.clone().lazy(), &bopts)?.collect()?;
    let mut names = crate::metrics::texts(&bal, col::EVENT)?;
    names.dedup();
    names.sort_by_cached_key(|e| natural_key(e));
    let runs = ds.manifest().analyses.len();
    let steps = Steps::new(
        progress,
        // Those below: six, two that may not run, one per event, the ratings.
        6 + usize::from(opts.wdl_split.is_some()) + usize::from(runs > 0) + names.len() + 1,
    );
    steps.next("standings, crosstables, pairs and openings");
    // The results of every selected event at once, split per event below.
    let table = standings(ds.scan(&GAMES)?, &bopts)?.collect()?;
    let cross = crosstable(ds.scan(&GAMES)?, &bopts)?.collect()?;
    let popts = PairsOptions {
        group: Group::EventEngine,
        selection: bopts.selection.clone(),
        sprt: None,
    };
    let paired = pairs(
        ds.scan(&GAMES)?,
        ds.scan(&MOVES)?,
        &bopts.selection,
        opts.book.as_ref(),
    )?;
    let penta = pentanomial(&paired, &popts)?;
    // Openings per event: by the `openings` table when it is current, else
    // by the tags; Chess960 events by their start positions.
    let classified = ds.read_derived(&OPENINGS, &Stamp::new("openings", ds))?;
    let opening_rows = |by| -> Result<DataFrame, Error> {
        let o = OpeningStatsOptions {
            by,
            selection: bopts.selection.clone(),
        };
        let table = classified.clone().map(IntoLazy::lazy);
        Ok(opening_stats(ds.scan(&GAMES)?, &paired, table, &o)?)
    };
    let (per_opening, per_start) = (
        opening_rows(OpeningsBy::EventOpening)?,
        opening_rows(OpeningsBy::EventStart)?,
    );
    let obs = observations(facts.lazy(), &bopts)?;
    // WDL models: pooled, and per event and engine (the x05 section).
    let wdl_fit = |group| -> Result<Fitted, Error> {
        let o = wdl::Options {
            group,
            selection: bopts.selection.clone(),
            ..wdl::Options::default()
        };
        wdl::wdl(ds.scan(&GAMES)?, ds.scan(&MOVES)?, &o)
    };
    steps.next("WDL model of all positions");
    let wdl_pooled = wdl_fit(wdl::Group::All)?;
    steps.next("WDL models per event and engine");
    let wdl_events = wdl_fit(wdl::Group::EventEngine)?;
    let wdl_validation = match &opts.wdl_split {
        Some((train, test)) => Some({
            steps.next("WDL validation");
            validate::validate(
                ds.scan(&GAMES)?,
                ds.scan(&MOVES)?,
                &validate::Options {
                    train: train.clone(),
                    test: test.clone(),
                    split: validate::Split::Events,
                    seed: 1,
                    selection: bopts.selection.clone(),
                    settings: wdl::Settings::default(),
                    bin_width: 5,
                    min_engine_positions: 20_000.0,
                    prior_positions: wdl::PRIOR_POSITIONS,
                    default_x05: crate::metrics::x05::DEFAULT,
                },
            )?
        }),
        None => None,
    };
    let mut games = ds.scan(&GAMES)?;
    if let Some(re) = &opts.event {
        games = games.filter(event_matches(re));
    }
    let games = games
        .select([
            col(col::GAME_ID),
            col(col::EVENT),
            col(col::ROUND),
            col(col::WHITE),
            col(col::BLACK),
            col(col::RESULT),
            col(col::PLIES),
        ])
        .sort([col::GAME_ID], SortMultipleOptions::default())
        .collect()?;
    steps.next("relevance");
    // The relevance summary as `evallab relevance --by-event` computes it, a
    // chunk of games at a time: one pass would hold every selected ply's
    // columns (1.0 GB for the Superfinals of the archive concatenated 4×).
    let (_, rel) = per_move_summarised(
        (ds.scan(&GAMES)?, ds.scan(&MOVES)?),
        &Selection {
            families: opts.families.clone(),
            ..bopts.selection.clone()
        },
        crate::metrics::balance::Group::EventEngine,
        &opts.x05,
        None,
        relevance::CHUNK,
        &mut |_| Ok(()),
    )?;
    if runs > 0 {
        steps.next("engine runs");
    }
    // Every engine analysis of the dataset, summarised per event and engine.
    let mut agreements = Vec::new();
    for run in ds
        .manifest()
        .analyses
        .iter()
        .filter(|a| a.has_table(&ANALYSIS))
    {
        let per = agreement::selected_per_move(
            ds.scan(&GAMES)?,
            ds.scan(&MOVES)?,
            ds.scan(&ANALYSIS)?,
            &run.label,
            &bopts.selection,
        )?;
        let df = agreement::summary(per, &[col::EVENT, metric::ENGINE]).collect()?;
        agreements.push((run, df));
    }
    // Every move-matching run (`evallab match`), per event and player.
    let mut matchings = Vec::new();
    for run in ds
        .manifest()
        .analyses
        .iter()
        .filter(|a| a.has_table(&MATCH))
    {
        let rows = ds
            .scan(&MATCH)?
            .filter(col(col::LABEL).eq(lit(run.label.as_str())))
            .join(
                games
                    .clone()
                    .lazy()
                    .select([col(col::GAME_ID), col(col::EVENT)]),
                [col(col::GAME_ID)],
                [col(col::GAME_ID)],
                JoinArgs::new(JoinType::Inner),
            );
        // MM with its bootstrap interval over the games, as `match` prints it.
        let df = matching::with_interval(
            rows,
            &[col::EVENT, match_col::PLAYER],
            &[col::GAME_ID],
            MATCH_BOOTSTRAP,
            1,
        )?;
        matchings.push((run, df));
    }
    steps.next("adjudication rules replayed");
    let (presets, sweep) =
        adjudication_tables(ds.scan(&GAMES)?, ds.scan(&MOVES)?, &bopts.selection)?;
    steps.next("eval trajectories");
    // The longest decisive games of every event, and their evals in one scan.
    let picks = games
        .clone()
        .lazy()
        .filter(col(col::RESULT).neq(lit("1/2-1/2")))
        .sort(
            [col::PLIES],
            SortMultipleOptions::default().with_order_descending(true),
        )
        .filter(
            col(col::GAME_ID)
                .cum_count(false)
                .over([col(col::EVENT)])?
                .lt_eq(lit(opts.games_per_event as u32)),
        )
        .collect()?;
    let mut trajectories = trajectories(ds, &picks)?;
    let mut ease = ease_curves(ds, &picks, opts.rating_model.as_ref())?;
    let mut events = Vec::with_capacity(names.len());
    let count = names.len();
    for (i, name) in names.into_iter().enumerate() {
        steps.next(&format!("event {} of {count}: {name}", i + 1));
        // Engines in natural order (Stockfish L5 before L10), as the
        // standings' other tables list them.
        let mut calibrations: Vec<_> = obs
            .iter()
            .filter(|(k, _)| k.first() == Some(&name))
            .map(|(k, g)| {
                (
                    k.last().cloned().unwrap_or_default(),
                    g.clone(),
                    calibrate_group(g, 0, 1),
                )
            })
            .collect();
        calibrations.sort_by_cached_key(|c| natural_key(&c.0));
        let mut wdl_rows = wdl_events
            .groups
            .iter()
            .filter(|g| g.key.first() == Some(&name))
            .map(|g| {
                let positions = g.retained(&wdl_events.settings);
                EngineWdl {
                    engine: g.key.last().cloned().unwrap_or_default(),
                    model: g.fit.as_ref().map(|f| f.model).map_err(|e| e.to_string()),
                    positions: positions as u64,
                    own_share: wdl::own_share(positions, g.prior_positions),
                }
            })
            .collect::<Vec<_>>();
        wdl_rows.sort_by_cached_key(|w| natural_key(&w.engine));
        let (eas, eas_globals) =
            score(&rows_of(labels, col::EVENT, &name)?, &EasOptions::default())?;
        let with_rows = |runs: &[(&EngineRun, DataFrame)]| -> Result<Vec<_>, Error> {
            let mut out = Vec::new();
            for (run, df) in runs {
                let rows = shown(df, &name)?;
                if rows.height() > 0 {
                    out.push(((*run).clone(), rows));
                }
            }
            Ok(out)
        };
        let picked = rows_of(&picks, col::EVENT, &name)?;
        let mut selected = Vec::with_capacity(picked.height());
        for r in 0..picked.height() {
            let id = picked
                .column(col::GAME_ID)?
                .i64()?
                .get(r)
                .unwrap_or_default();
            let s = |c: &str| {
                picked
                    .column(c)
                    .ok()
                    .and_then(|c| c.str().ok()?.get(r).map(str::to_string))
                    .unwrap_or_default()
            };
            selected.push(SelectedGame {
                title: format!(
                    "{} – {} {} (round {})",
                    s(col::WHITE),
                    s(col::BLACK),
                    s(col::RESULT),
                    s(col::ROUND)
                ),
                plies: trajectories.remove(&id).unwrap_or_default(),
                ease: ease
                    .as_mut()
                    .and_then(|(src, m, _)| Some((src.clone(), m.remove(&id)?))),
                expected: ease
                    .as_mut()
                    .and_then(|(_, _, m)| m.remove(&id))
                    .unwrap_or_default(),
            });
        }
        let event_standings = rows_of(&table, col::EVENT, &name)?;
        let event_ratings = rate(
            rows_of(&games, col::EVENT, &name)?.lazy(),
            EVENT_SIMULATIONS,
            opts.solver,
        )?;
        events.push(EventData {
            ratings: Some(event_ratings),
            crosstable: crosstable_wide(
                &event_standings,
                &rows_of(&cross, col::EVENT, &name)?,
                &bopts,
            )?,
            standings: event_standings,
            pairs: shown(&penta, &name)?,
            book: opts.book.as_ref().map(|b| (b.keys.len(), b.max_plies)),
            openings: {
                let starts = shown(&per_start, &name)?;
                let by_start = starts.height() > 0;
                Openings {
                    rows: if by_start {
                        starts
                    } else {
                        shown(&per_opening, &name)?
                    },
                    by_start,
                    classified: classified.is_some() && !by_start,
                }
            },
            balance: shown(&bal, &name)?,
            calibrations,
            wdl: wdl_rows,
            eas,
            eas_globals,
            relevance: shown(&rel, &name)?,
            agreements: with_rows(&agreements)?,
            matchings: with_rows(&matchings)?,
            adjudication: rows_of(&presets, col::EVENT, &name)?,
            adjudication_sweep: rows_of(&sweep, col::EVENT, &name)?,
            games: selected,
            name,
        });
    }
    steps.next("ratings of all events");
    let ratings = rate(games.clone().lazy(), 1000, opts.solver)?;
    // What the statistics leave out (the rejects) and count twice (copies).
    let selected = |lf: LazyFrame| match &opts.event {
        Some(re) => lf.filter(event_matches(re)),
        None => lf,
    };
    let rejects = inspect::rejects_listed(selected(ds.scan(&REJECTS)?))?;
    let repeated = inspect::repeated_games(selected(ds.scan(&GAMES)?), ds.scan(&MOVES)?)?;
    steps.finish("the page");
    Ok(ReportData {
        ratings,
        rejects,
        repeated,
        dataset: ds.root().display().to_string(),
        games: games.height(),
        x05_default: opts.x05.default,
        events,
        wdl: Some(wdl_pooled),
        wdl_validation,
    })
}

/// Called before each step of a report with (steps done, steps in all,
/// what runs next): the report of the whole TCEC archive takes half a
/// minute, a quarter of it the WDL models of its 4,961 events and engines.
pub type Progress<'a> = &'a dyn Fn(usize, usize, &str);

/// The steps of [`collect`], counted for its [`Progress`].
struct Steps<'a> {
    progress: Progress<'a>,
    done: std::cell::Cell<usize>,
    total: usize,
}

impl<'a> Steps<'a> {
    fn new(progress: Progress<'a>, total: usize) -> Self {
        Steps {
            progress,
            done: std::cell::Cell::new(0),
            total,
        }
    }

    /// The step `what` begins.
    fn next(&self, what: &str) {
        let done = self.done.get();
        (self.progress)(done, self.total, what);
        self.done.set(done + 1);
    }

    /// Every step is done; `what` (the page) is written next.
    fn finish(&self, what: &str) {
        debug_assert_eq!(self.done.get(), self.total, "the steps' count");
        (self.progress)(self.total, self.total, what);
    }
}

/// Replays per event's ratings: enough for errors to about ±5 %, so that a
/// report of hundreds of events stays quick (the overall ratings take 1,000).
const EVENT_SIMULATIONS: usize = 400;
/// Resamples of the games behind MM's interval in the move-matching tables
/// (`match --bootstrap`'s default).
const MATCH_BOOTSTRAP: usize = 1000;

/// The ratings of `games` (the report's games, already selected), each group
/// on its own; a pool that cannot be rated (no finished game, no finite
/// solution) gives its reason instead: the report shows it, other errors
/// stop the report.
fn rate(
    games: LazyFrame,
    simulations: usize,
    solver: Solver,
) -> Result<Result<Ratings, String>, Error> {
    let opts = RatingOptions {
        simulations,
        each_group: true,
        solver,
        ..RatingOptions::default()
    };
    match ratings(games, &opts) {
        Ok(r) => Ok(Ok(r)),
        Err(Error::InputData(why)) => Ok(Err(why)),
        Err(e) => Err(e),
    }
}

fn rows_of(df: &DataFrame, key: &str, value: &str) -> Result<DataFrame, Error> {
    Ok(df
        .clone()
        .lazy()
        .filter(col(key).eq(lit(value)))
        .collect()?)
}

/// An event's rows of a table the page shows, its engines as the command's
/// table lists them (Stockfish 9 before Stockfish 10).
fn shown(df: &DataFrame, event: &str) -> Result<DataFrame, Error> {
    Ok(in_natural_order(&rows_of(df, col::EVENT, event)?)?)
}

/// The adjudication tables of every event: the shipped presets, and the
/// cutechess draw rule at scores 0, 10, …, 50.
fn adjudication_tables(
    games: LazyFrame,
    moves: LazyFrame,
    sel: &Selection,
) -> Result<(DataFrame, DataFrame), Error> {
    // The whole tables with the selection, not the selected moves: the
    // chunks are slices of the `moves` table, and those without a selected
    // game are never read.
    let loaded = adj::load(games, moves, sel, false, None)?;
    let mut sets: Vec<(RuleSet, Option<f64>)> = PRESETS
        .iter()
        .map(|(p, _)| Ok((RuleSet::load(p)?, None)))
        .collect::<Result<_, Error>>()?;
    let cute = RuleSet::load("cutechess")?;
    for i in 0..=5 {
        let v = f64::from(i * 10);
        sets.push((cute.set("draw.score", &v.to_string())?, Some(v)));
    }
    // Every rule set's sums per event, the plies read once, a chunk at a time.
    let per_chunk = loaded.map_chunks(|chunk| {
        sets.iter()
            .map(|(set, _)| Ok(adj::sums(chunk.outcomes(set)?.lazy(), adj::By::Event).collect()?))
            .collect::<Result<Vec<_>, Error>>()
    })?;
    let mut rows = Vec::with_capacity(sets.len());
    for (i, (set, score)) in sets.iter().enumerate() {
        let sums = per_chunk
            .iter()
            .map(|c| c[i].clone().lazy())
            .collect::<Vec<_>>();
        let mut df =
            adj::summary_of_sums(concat(sums, UnionArgs::default())?, adj::By::Event).collect()?;
        df.insert_column(
            0,
            Column::new(adj::cols::RULES.into(), vec![set.name.clone(); df.height()]),
        )?;
        if let Some(v) = score {
            df.insert_column(1, Column::new("draw.score".into(), vec![*v; df.height()]))?;
        }
        rows.push(df);
    }
    let sweep = rows.split_off(PRESETS.len());
    Ok((stack(rows)?, stack(sweep)?))
}

/// Per game: (White moved, White-POV eval) for every ply.
type Plies = HashMap<i64, Vec<(bool, Option<f64>)>>;

/// White-POV evals of the given games, ply by ply, read in one scan.
fn trajectories(ds: &Dataset, picks: &DataFrame) -> Result<Plies, Error> {
    let ids = picks.column(col::GAME_ID)?.as_materialized_series().clone();
    let m = ds
        .scan(&MOVES)?
        .filter(col(col::GAME_ID).is_in(lit(ids).implode(false), false))
        .select([
            col(col::GAME_ID),
            col(col::PLY),
            col(col::SIDE),
            col(col::EVAL_KIND),
            col(col::EVAL_CP),
            col(col::MATE),
        ])
        .sort([col::GAME_ID, col::PLY], SortMultipleOptions::default())
        .collect()?;
    let gid = m.column(col::GAME_ID)?.i64()?.clone();
    let side = m.column(col::SIDE)?.str()?.clone();
    let kind = m.column(col::EVAL_KIND)?.str()?.clone();
    let cp = m.column(col::EVAL_CP)?.i32()?.clone();
    let mate = m.column(col::MATE)?.i16()?.clone();
    let mut out = Plies::new();
    for j in 0..m.height() {
        out.entry(gid.get(j).unwrap_or_default())
            .or_default()
            .push((
                side.get(j) == Some("w"),
                white_pov(kind.get(j), cp.get(j), mate.get(j)),
            ));
    }
    Ok(out)
}

/// Per game: (ply, value) of its positions (ease, or expected rating).
type EaseCurves = HashMap<i64, Vec<(f64, f64)>>;

/// Per game: (ply, ease) of its priced positions, from the dataset's first
/// analysis with MultiPV ≥ 2 (one that kept all depths first: it prices the
/// positions a node limit left bound) and first policy run, and their labels;
/// with `model`, also (ply, expected puzzle rating); `None` without both runs.
fn ease_curves(
    ds: &Dataset,
    picks: &DataFrame,
    model: Option<&RatingModel>,
) -> Result<Option<(String, EaseCurves, EaseCurves)>, Error> {
    let analysis = ds
        .manifest()
        .analyses
        .iter()
        .filter(|a| a.has_table(&ANALYSIS) && a.multipv() >= 2)
        .min_by_key(|a| !a.all_depths());
    let policy = ds.manifest().analyses.iter().find(|a| a.has_table(&POLICY));
    let (Some(a), Some(p)) = (analysis, policy) else {
        return Ok(None);
    };
    let ids = picks.column(col::GAME_ID)?.as_materialized_series().clone();
    let only =
        |lf: LazyFrame| lf.filter(col(col::GAME_ID).is_in(lit(ids.clone()).implode(false), false));
    let opts = EaseOptions {
        analysis_label: a.label.clone(),
        policy_label: p.label.clone(),
        top: 5,
        form: Form::Sum,
    };
    let mut df =
        per_position(only(ds.scan(&ANALYSIS)?), only(ds.scan(&POLICY)?), &opts)?.collect()?;
    if let Some(model) = model {
        let dopts = DifficultyOptions {
            analysis_label: a.label.clone(),
            policy_label: p.label.clone(),
            top: opts.top,
        };
        let tables = (
            only(ds.scan(&GAMES)?),
            only(ds.scan(&MOVES)?),
            only(ds.scan(&ANALYSIS)?),
            only(ds.scan(&POLICY)?),
        );
        df = with_expected_rating(df, tables, &dopts, model)?;
    }
    let (gid, ply, ease) = (
        df.column(col::GAME_ID)?.i64()?.clone(),
        df.column(col::PLY)?.u32()?.clone(),
        df.column(ease::cols::EASE)?.f64()?.clone(),
    );
    let expected = match df.column(difficulty::cols::EXPECTED_RATING) {
        Ok(c) => Some(c.f64()?.clone()),
        Err(_) => None,
    };
    let (mut out, mut rated) = (EaseCurves::new(), EaseCurves::new());
    for i in 0..df.height() {
        let (Some(g), Some(p)) = (gid.get(i), ply.get(i)) else {
            continue;
        };
        if let Some(e) = ease.get(i) {
            out.entry(g).or_default().push((f64::from(p), e));
        }
        if let Some(r) = expected.as_ref().and_then(|x| x.get(i)) {
            rated.entry(g).or_default().push((f64::from(p), r));
        }
    }
    Ok(Some((
        format!("`{}` priors, `{}` lines", p.label, a.label),
        out,
        rated,
    )))
}
