//! `evallab report`: one self-contained HTML page (inline CSS and SVG, no
//! scripts, no network) with, per event, the win-draw balance, the calibration
//! curves, the EAS components, the relevance summary, the agreement with each
//! engine analysis (`evallab analyze`), the adjudication rules replayed
//! (`evallab adjudicate`) and the eval trajectories
//! of selected games with their probabilistic result and NAGs.

use std::collections::HashMap;
use std::fmt::Write as _;

use polars::prelude::*;

use super::escape;
use crate::Error;
use crate::dataset::Dataset;
use crate::derived::stored_labels;
use crate::metrics::adjudication::RuleSet;
use crate::metrics::adjudication::query as adj;
use crate::metrics::agreement::query as agreement;
use crate::metrics::balance::{BalanceOptions, Group, balance, game_facts};
use crate::metrics::calibrate::{calibrate_group, observations};
use crate::metrics::eas::{EasOptions, score};
use crate::metrics::ease::math::Form;
use crate::metrics::ease::query::{self as ease, EaseOptions, per_position};
use crate::metrics::matching::query::{self as matching, out as mout};
use crate::metrics::relevance::math::{MoveSymbol, prob_exp};
use crate::metrics::relevance::{X05, per_move, summary};
use crate::metrics::{Families, Selection, matches};
use crate::render::annotate::{AnnotateOptions, move_symbol, white_pov};
use crate::render::plot::{self, CalibrationPanel, Chart, PALETTE, Series};
use crate::schema::{ANALYSIS, GAMES, MATCH, MOVES, POLICY, col, match_col, metric};

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
}

fn cell(v: AnyValue) -> String {
    match v {
        AnyValue::Null => "—".into(),
        AnyValue::Float64(x) => format!("{}", (x * 1000.0).round() / 1000.0),
        AnyValue::Float32(x) => format!("{}", (f64::from(x) * 1000.0).round() / 1000.0),
        AnyValue::String(s) => escape(s),
        AnyValue::StringOwned(s) => escape(&s),
        other => escape(&other.to_string()),
    }
}

/// An HTML table of some columns of a frame.
fn table(df: &DataFrame, cols: &[&str]) -> Result<String, Error> {
    let mut s = String::from("<table><thead><tr>");
    for c in cols {
        let _ = write!(s, "<th>{}</th>", escape(c));
    }
    s.push_str("</tr></thead><tbody>");
    let columns: Vec<&Column> = cols
        .iter()
        .map(|c| df.column(c))
        .collect::<PolarsResult<_>>()?;
    for i in 0..df.height() {
        s.push_str("<tr>");
        for c in &columns {
            let _ = write!(s, "<td>{}</td>", cell(c.get(i)?));
        }
        s.push_str("</tr>");
    }
    s.push_str("</tbody></table>");
    Ok(s)
}

fn rows_of(df: &DataFrame, key: &str, value: &str) -> Result<DataFrame, Error> {
    Ok(df
        .clone()
        .lazy()
        .filter(col(key).eq(lit(value)))
        .collect()?)
}

/// EAS parts as stacked bars in a table (one row per engine).
fn eas_bars(df: &DataFrame) -> Result<String, Error> {
    let engine = df.column("engine")?.str()?.clone();
    let parts = ["part_sac", "part_early", "part_short", "part_draw"];
    let vals: Vec<Int64Chunked> = parts
        .iter()
        .map(|p| df.column(p).and_then(|c| c.i64().cloned()))
        .collect::<PolarsResult<_>>()?;
    let total = df.column("eas")?.i64()?.clone();
    let max = total.max().unwrap_or(1).max(1) as f64;
    let mut s = String::from(
        "<table class=bars><thead><tr><th>engine</th><th>EAS</th><th>sacrifices · early · short wins · bad draws</th></tr></thead><tbody>",
    );
    for i in 0..df.height() {
        let _ = write!(
            s,
            "<tr><td>{}</td><td>{}</td><td><div class=bar>",
            escape(engine.get(i).unwrap_or("")),
            total.get(i).unwrap_or(0)
        );
        for (k, v) in vals.iter().enumerate() {
            let w = v.get(i).unwrap_or(0) as f64 / max * 100.0;
            let _ = write!(
                s,
                "<span style=\"width:{w:.2}%;background:{}\"></span>",
                PALETTE[k]
            );
        }
        s.push_str("</div></td></tr>");
    }
    s.push_str("</tbody></table>");
    Ok(s)
}

/// The adjudication tables of every event: the three presets, and the
/// cutechess draw rule at scores 0, 10, …, 50.
fn adjudication_tables(
    games: LazyFrame,
    moves: LazyFrame,
) -> Result<(DataFrame, DataFrame), Error> {
    let loaded = adj::load(games, moves, &Selection::default(), false, None)?;
    let rows = |set: &RuleSet, extra: Option<(&str, f64)>| -> Result<DataFrame, Error> {
        let mut df = adj::summary(loaded.outcomes(set)?.lazy(), adj::By::Event).collect()?;
        df.insert_column(
            0,
            Column::new(adj::cols::RULES.into(), vec![set.name.clone(); df.height()]),
        )?;
        if let Some((k, v)) = extra {
            df.insert_column(1, Column::new(k.into(), vec![v; df.height()]))?;
        }
        Ok(df)
    };
    let stack = |frames: Vec<DataFrame>| -> Result<DataFrame, Error> {
        let mut it = frames.into_iter();
        let mut out = it.next().unwrap_or_default();
        for f in it {
            out.vstack_mut(&f)?;
        }
        Ok(out)
    };
    let presets = ["tcec", "cutechess", "terra"]
        .into_iter()
        .map(|p| rows(&RuleSet::load(p)?, None))
        .collect::<Result<Vec<_>, Error>>()?;
    let cute = RuleSet::load("cutechess")?;
    let sweep = (0..=5)
        .map(|i| {
            let v = f64::from(i * 10);
            rows(
                &cute.set("draw.score", &v.to_string())?,
                Some(("draw.score", v)),
            )
        })
        .collect::<Result<Vec<_>, Error>>()?;
    Ok((stack(presets)?, stack(sweep)?))
}

/// The eval trajectory of one game: White-POV eval (clipped to ±5), P(White),
/// and the move symbols as points (? and ?? red, ! and !! green).
fn trajectory(title: &str, plies: &[(bool, Option<f64>)], opts: AnnotateOptions) -> Chart {
    let mut eval = Vec::new();
    let mut p = Vec::new();
    let (mut good, mut bad) = (Vec::new(), Vec::new());
    let mut prev = None;
    for (i, &(white, x)) in plies.iter().enumerate() {
        let ply = (i + 1) as f64;
        if let Some(x) = x {
            let y = x.clamp(-5.0, 5.0);
            eval.push((ply, y, 0.0));
            p.push((ply, prob_exp(x, opts.x05) * 10.0 - 5.0, 0.0));
            match move_symbol(prev, Some(x), white, opts) {
                Some(MoveSymbol::Mistake | MoveSymbol::Blunder) => bad.push((ply, y, 4.0)),
                Some(MoveSymbol::Good | MoveSymbol::Brilliant) => good.push((ply, y, 4.0)),
                _ => {}
            }
            prev = Some(x);
        }
    }
    let n = plies.len().max(2) as f64;
    Chart {
        title: title.into(),
        x_label: "ply".into(),
        y_label: "White's eval (pawns, ±5)".into(),
        x_range: (0.0, n),
        y_range: (-5.0, 5.0),
        series: vec![
            Series {
                label: "eval".into(),
                color: PALETTE[0],
                dashed: false,
                points: eval,
            },
            Series {
                label: format!("P(White) (0 at −5, 1 at +5), x05 {}", opts.x05),
                color: PALETTE[4],
                dashed: true,
                points: p,
            },
            Series {
                label: "? and ??".into(),
                color: PALETTE[1],
                dashed: false,
                points: bad,
            },
            Series {
                label: "! and !!".into(),
                color: PALETTE[2],
                dashed: false,
                points: good,
            },
        ],
    }
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

/// Per game: (ply, ease) of its positions.
type EaseCurves = HashMap<i64, Vec<(f64, f64)>>;

/// Per game: (ply, ease) of its priced positions, from the dataset's first
/// analysis with MultiPV ≥ 2 (one that kept all depths first: it prices the
/// positions a node limit left bound) and first policy run, and their labels;
/// `None` without both.
fn ease_curves(ds: &Dataset, picks: &DataFrame) -> Result<Option<(String, EaseCurves)>, Error> {
    let analysis = ds
        .manifest
        .analyses
        .iter()
        .filter(|a| a.has_table(&ANALYSIS) && a.multipv() >= 2)
        .min_by_key(|a| !a.all_depths());
    let policy = ds.manifest.analyses.iter().find(|a| a.has_table(&POLICY));
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
    let df = per_position(only(ds.scan(&ANALYSIS)?), only(ds.scan(&POLICY)?), &opts)?.collect()?;
    let (gid, ply, ease) = (
        df.column(col::GAME_ID)?.i64()?.clone(),
        df.column(col::PLY)?.u16()?.clone(),
        df.column(ease::cols::EASE)?.f64()?.clone(),
    );
    let mut out = EaseCurves::new();
    for i in 0..df.height() {
        if let (Some(g), Some(p), Some(e)) = (gid.get(i), ply.get(i), ease.get(i)) {
            out.entry(g).or_default().push((f64::from(p), e));
        }
    }
    Ok(Some((
        format!("`{}` priors, `{}` lines", p.label, a.label),
        out,
    )))
}

/// The ease of a game's positions, ply by ply, drawn under its trajectory.
fn ease_chart(title: &str, source: &str, points: &[(f64, f64)], plies: usize) -> Chart {
    Chart {
        title: format!("{title}: ease ({source})"),
        x_label: "ply".into(),
        y_label: "ease (1 = easy)".into(),
        x_range: (0.0, plies.max(2) as f64),
        y_range: (0.0, 1.0),
        series: vec![Series {
            label: "ease, sum form".into(),
            color: PALETTE[3],
            dashed: false,
            points: points
                .iter()
                .map(|&(x, y)| (x, y.clamp(0.0, 1.0), 0.0))
                .collect(),
        }],
    }
}

const CSS: &str = "body{font-family:DejaVu Sans,Arial,sans-serif;margin:1.5em auto;max-width:1180px;color:#222;padding:0 1em}\
h1{font-size:1.6em}h2{border-bottom:2px solid #0072B2;padding-bottom:.2em;margin-top:2em}h3{margin-bottom:.3em}\
table{border-collapse:collapse;font-size:.82em;margin:.4em 0 1em}th,td{border:1px solid #ccc;padding:2px 6px;text-align:right}\
th{background:#f2f2f2}td:first-child,th:first-child{text-align:left}.bar{display:flex;width:420px;height:12px;background:#f6f6f6}\
.bar span{display:block;height:12px}.note{color:#555;font-size:.85em}nav a{margin-right:.8em}svg{max-width:100%;height:auto}";

/// Builds the report page.
pub fn report(ds: &Dataset, opts: &ReportOptions) -> Result<String, Error> {
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
    let obs = observations(facts.lazy(), &bopts)?;
    let (labels, _) = stored_labels(ds, false)?;
    let mut games = ds.scan(&GAMES)?;
    if let Some(re) = &opts.event {
        games = games.filter(matches(col(col::EVENT), re.as_str()));
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
    let moves = ds.scan(&MOVES)?.join(
        games.clone().lazy().select([col(col::GAME_ID)]),
        [col(col::GAME_ID)],
        [col(col::GAME_ID)],
        JoinArgs::new(JoinType::Semi),
    );
    let rel = summary(
        per_move(
            games.clone().lazy(),
            moves.clone(),
            &opts.families,
            &opts.x05,
            None,
        )?,
        true,
        false,
    )
    .collect()?;
    // Every engine analysis of the dataset, summarised per event and engine.
    let mut agreements = Vec::new();
    for run in ds
        .manifest
        .analyses
        .iter()
        .filter(|a| a.has_table(&ANALYSIS))
    {
        let per = agreement::per_move(
            games.clone().lazy(),
            moves.clone(),
            ds.scan(&ANALYSIS)?,
            &run.label,
            &Families::default(),
        );
        let df = agreement::summary(per, &[col::EVENT, metric::ENGINE]).collect()?;
        agreements.push((run, df));
    }
    // Every move-matching run (`evallab match`), per event and player.
    let mut matchings = Vec::new();
    for run in ds.manifest.analyses.iter().filter(|a| a.has_table(&MATCH)) {
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
        let df = matching::summary(rows, &[col::EVENT, match_col::PLAYER]).collect()?;
        matchings.push((run, df));
    }
    let adjudication = adjudication_tables(
        ds.scan(&GAMES)?.join(
            games.clone().lazy().select([col(col::GAME_ID)]),
            [col(col::GAME_ID)],
            [col(col::GAME_ID)],
            JoinArgs::new(JoinType::Semi),
        ),
        moves.clone(),
    )?;
    let events: Vec<String> = {
        let e = bal.column(col::EVENT)?.str()?.clone();
        let mut v: Vec<String> = e.iter().flatten().map(str::to_string).collect();
        v.dedup();
        v.sort_by_cached_key(|e| natural_key(e));
        v
    };
    let mut html = format!(
        "<!doctype html><html lang=en><head><meta charset=utf-8><title>evallab report</title><style>{CSS}</style></head><body>\
<h1>evallab report</h1><p class=note>Dataset <code>{}</code>: {} games in {} events. Evals are the engines' own; \
x05 {} for relevance (per engine where given) and 0.62 for the move and position symbols; definitions in the README (metrics.md, eas.md).</p><nav>",
        escape(&ds.root.display().to_string()),
        games.height(),
        events.len(),
        opts.x05.default,
    );
    for (i, e) in events.iter().enumerate() {
        let _ = write!(html, "<a href=\"#e{i}\">{}</a>", escape(e));
    }
    html.push_str("</nav>");
    let aopts = AnnotateOptions::default();
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
    let trajectories = trajectories(ds, &picks)?;
    let ease = ease_curves(ds, &picks)?;
    for (i, event) in events.iter().enumerate() {
        let _ = write!(html, "<section id=\"e{i}\"><h2>{}</h2>", escape(event));
        html.push_str("<h3>Win-draw balance</h3>");
        html.push_str(&table(
            &rows_of(&bal, col::EVENT, event)?,
            &[
                metric::ENGINE,
                metric::GAMES,
                metric::OFFICIAL_WINS,
                metric::HOLLOW_WINS,
                metric::WINS,
                metric::DRAWS,
                metric::LOSSES,
                metric::HIGHEST_EVAL_WITHOUT_WIN,
                metric::BALANCE,
                metric::BALANCE_ROUND,
                metric::REACHING_BALANCE,
                metric::REASON,
            ],
        )?);
        html.push_str("<h3>Calibration: win rate by own eval</h3>");
        let calibrations: Vec<_> = obs
            .iter()
            .filter(|(k, _)| k.first() == Some(event))
            .map(|(k, g)| {
                (
                    k.last().cloned().unwrap_or_default(),
                    g,
                    calibrate_group(g, 0, 1),
                )
            })
            .collect();
        let charts: Vec<Chart> = calibrations
            .iter()
            .map(|(engine, g, c)| {
                plot::calibration_chart(&CalibrationPanel {
                    title: engine.clone(),
                    games: g,
                    calibration: c,
                })
            })
            .collect();
        if !charts.is_empty() {
            html.push_str(&plot::grid(&charts, 2, 560.0, 360.0));
        }
        html.push_str("<h3>EAS components</h3>");
        let ev_labels = rows_of(&labels, col::EVENT, event)?;
        let (eas, g) = score(&ev_labels, &EasOptions::default())?;
        let _ = write!(
            html,
            "<p class=note>V6 rules over this event's games: avg_all {} moves, L {}, early limit {} plies.</p>",
            g.avg_all, g.short_limit, g.early_limit
        );
        html.push_str(&eas_bars(&eas)?);
        html.push_str(&table(
            &eas,
            &[
                "rank",
                "engine",
                "wins",
                "draws",
                "early_sac_pct",
                "short_win_pct",
                "bad_draw_pct",
                "avg_win_moves",
                "part_sac",
                "part_early",
                "part_short",
                "part_draw",
                "eas",
                "warning",
            ],
        )?);
        html.push_str("<h3>Relevance</h3>");
        html.push_str(&table(
            &rows_of(&rel, col::EVENT, event)?,
            &[
                metric::ENGINE,
                "moves",
                "loss_rr_mean",
                "loss_raw_mean",
                "econ8_dubious",
                "econ8_mistake",
                "econ8_blunder",
                "econ8_speculative",
                "econ8_good",
                "econ8_brilliant",
            ],
        )?);
        for (run, df) in &agreements {
            let rows = rows_of(df, col::EVENT, event)?;
            if rows.height() == 0 {
                continue;
            }
            let _ = write!(
                html,
                "<h3>Reference analysis <code>{}</code></h3><p class=note>{} ({}, MultiPV {}): \
                 archived eval against the reference's (pawns, White POV, clipped to ±10), \
                 share of played moves that are its first choice, and the played move's loss \
                 and lichess-style accuracy by the reference.</p>",
                escape(&run.label),
                escape(&run.engine.name),
                escape(run.limit()),
                run.multipv()
            );
            html.push_str(&table(
                &rows,
                &[
                    metric::ENGINE,
                    metric::POSITIONS,
                    metric::TOP1_SHARE,
                    metric::EVAL_PAIRS,
                    metric::MEAN_ABS_DIFF_PAWNS,
                    metric::EVAL_CORR,
                    metric::LOSS_MOVES,
                    metric::MEAN_LOSS_CP,
                    metric::MEAN_ACCURACY,
                ],
            )?);
        }
        for (run, df) in &matchings {
            let rows = rows_of(df, col::EVENT, event)?;
            if rows.height() == 0 {
                continue;
            }
            let _ = write!(
                html,
                "<h3>Move matching <code>{}</code></h3><p class=note>{} ({}): Regan's zig-zag \
                 protocol per tested player. MM = share of moves that are the engine's first \
                 choice at the last SLM depth; EV = share with the top move's eval; AE = mean \
                 eval drop (pawns, evals capped at ±10); ASD = the drop scaled by 1/(1+|z|).</p>",
                escape(&run.label),
                escape(&run.engine.name),
                escape(run.limit())
            );
            html.push_str(&table(
                &rows,
                &[
                    match_col::PLAYER,
                    mout::MOVES,
                    mout::MM,
                    mout::EV,
                    mout::AE,
                    mout::ASD,
                    mout::FULL,
                    mout::MAIN,
                    mout::PART,
                    mout::NON,
                ],
            )?);
        }
        html.push_str(
            "<h3>Adjudication rules replayed</h3><p class=note>The shipped rule sets over the \
             event's games (<code>evallab adjudicate</code>; tcec: the event's own TCEC rule, \
             if its era is known): games the rule ended early, agreeing with the result or \
             not, games adjudicated otherwise (censored), plies and hours saved; then the \
             cutechess draw rule swept over its score (centipawns). The tcec set's \
             tablebase rule is not replayed here (it needs Syzygy tables: \
             <code>evallab adjudicate --syzygy DIR</code>); the games it ended count as \
             censored.</p>",
        );
        let (presets, sweep) = &adjudication;
        html.push_str(&table(
            &rows_of(presets, col::EVENT, event)?,
            &[
                adj::cols::RULES,
                metric::GAMES,
                adj::cols::FIRED,
                adj::cols::AGREE,
                adj::cols::WRONG,
                adj::cols::CENSORED,
                adj::cols::PLIES_SAVED,
                adj::cols::SAVED_PCT,
                adj::cols::HOURS_SAVED,
            ],
        )?);
        html.push_str(&table(
            &rows_of(sweep, col::EVENT, event)?,
            &[
                "draw.score",
                adj::cols::FIRED,
                adj::cols::AGREE,
                adj::cols::WRONG,
                adj::cols::PLIES_SAVED,
                adj::cols::SAVED_PCT,
            ],
        )?);
        html.push_str(
            "<h3>Selected games</h3><p class=note>The longest decisive games of the event.</p>",
        );
        let picks = rows_of(&picks, col::EVENT, event)?;
        let mut charts = Vec::new();
        for r in 0..picks.height() {
            let id = picks
                .column(col::GAME_ID)?
                .i64()?
                .get(r)
                .unwrap_or_default();
            let plies = trajectories.get(&id).map(Vec::as_slice).unwrap_or(&[]);
            let s = |c: &str| {
                picks
                    .column(c)
                    .ok()
                    .and_then(|c| c.str().ok()?.get(r).map(str::to_string))
                    .unwrap_or_default()
            };
            let title = format!(
                "{} – {} {} (round {})",
                s(col::WHITE),
                s(col::BLACK),
                s(col::RESULT),
                s(col::ROUND)
            );
            charts.push(trajectory(&title, plies, aopts));
            if let Some(points) = ease.as_ref().and_then(|(src, m)| Some((src, m.get(&id)?))) {
                charts.push(ease_chart(&title, points.0, points.1, plies.len()));
            }
        }
        if !charts.is_empty() {
            html.push_str(&plot::grid(&charts, 1, 1100.0, 320.0));
        }
        html.push_str("</section>");
    }
    html.push_str("</body></html>\n");
    Ok(html)
}

/// A sort key that reads numbers as numbers: "Season 4" before "Season 10".
fn natural_key(s: &str) -> Vec<(String, u64)> {
    let mut key = Vec::new();
    let mut rest = s;
    while !rest.is_empty() {
        let text_end = rest
            .find(|c: char| c.is_ascii_digit())
            .unwrap_or(rest.len());
        let (text, tail) = rest.split_at(text_end);
        let num_end = tail
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(tail.len());
        let (num, tail) = tail.split_at(num_end);
        key.push((text.to_string(), num.parse().unwrap_or(u64::MAX)));
        rest = tail;
    }
    key
}

#[cfg(test)]
mod tests {
    use super::natural_key;

    #[test]
    fn events_read_in_number_order() {
        let mut v = [
            "TCEC Season 10 - Superfinal",
            "TCEC Cup 2",
            "TCEC Season 9 - Superfinal",
            "TCEC Season 29 - Superfinal",
            "TCEC Season 9 - Stage 1a",
        ];
        v.sort_by_cached_key(|e| natural_key(e));
        assert_eq!(
            v,
            [
                "TCEC Cup 2",
                "TCEC Season 9 - Stage 1a",
                "TCEC Season 9 - Superfinal",
                "TCEC Season 10 - Superfinal",
                "TCEC Season 29 - Superfinal",
            ]
        );
    }
}
