//! One writer per section of an event: each turns its part of an
//! [`EventData`] into HTML and reads nothing else.

use std::fmt::Write as _;

use polars::prelude::*;

use super::data::{EngineWdl, EventData, ReportData};
use crate::Error;
use crate::metrics::adjudication::query as adj;
use crate::metrics::matching::query::out as mout;
use crate::metrics::ratings::Ratings;
use crate::metrics::relevance::math::prob_exp;
use crate::metrics::relevance::symbols::MoveSymbol;
use crate::metrics::wdl::{self, Model};
use crate::render::annotate::{AnnotateOptions, move_symbol};
use crate::render::plot::{self, CalibrationPanel, Chart, Marker, PALETTE, Series};
use crate::render::{escape, thousands};
use crate::schema::metric::pairs as pm;
use crate::schema::metric::ratings as rm;
use crate::schema::metric::standings as st;
use crate::schema::outputs::{self as out, Output, Quantity};
use crate::schema::{col, match_col, metric};

/// A section writer.
pub type Section = fn(&EventData) -> Result<String, Error>;

/// The sections of an event, in page order.
pub const SECTIONS: [Section; 13] = [
    standings,
    crosstable,
    ratings,
    pairs,
    openings,
    balance,
    calibration,
    x05_compared,
    eas,
    relevance,
    engine_runs,
    adjudication,
    selected_games,
];

/// The standings: points, score by colour, Sonneborn–Berger, and how the
/// engine's games ended (only the endings that occur, as "class n").
pub fn standings(e: &EventData) -> Result<String, Error> {
    let mut html = String::from("<h3>Standings</h3>");
    let df = &e.standings;
    let mut shown = df.clone();
    if df.height() > 0 {
        let ends: Vec<&Column> = df
            .columns()
            .iter()
            .filter(|c| c.name().starts_with(st::END_PREFIX))
            .collect();
        let mut endings = Vec::with_capacity(df.height());
        for i in 0..df.height() {
            let mut parts = Vec::new();
            for c in &ends {
                let n = c.get(i)?.extract::<u64>().unwrap_or(0);
                if n > 0 {
                    let class = &c.name()[st::END_PREFIX.len()..];
                    parts.push(format!("{} {n}", class.replace('_', " ")));
                }
            }
            endings.push(parts.join(", "));
        }
        shown.with_column(Column::new("endings".into(), endings))?;
    }
    html.push_str(&table(
        &shown,
        &out::STANDINGS,
        &[
            metric::RANK,
            metric::ENGINE,
            metric::GAMES,
            metric::WINS,
            metric::DRAWS,
            metric::LOSSES,
            st::POINTS,
            st::SCORE_PCT,
            st::WHITE_POINTS,
            st::WHITE_GAMES,
            st::BLACK_POINTS,
            st::BLACK_GAMES,
            st::SONNEBORN_BERGER,
            "endings",
        ],
    )?);
    Ok(html)
}

/// Engines beyond which the crosstable matrix is left to `evallab crosstable`
/// (a Cup stage has dozens of engines, most of which never met).
const CROSSTABLE_MAX_ENGINES: usize = 24;

/// The head-to-head matrix: the engine's points/games against each opponent.
pub fn crosstable(e: &EventData) -> Result<String, Error> {
    let mut html = String::from("<h3>Crosstable</h3>");
    let df = &e.crosstable;
    if df.height() > CROSSTABLE_MAX_ENGINES {
        let _ = write!(
            html,
            "<p class=note>{} engines: too many for a matrix here; \
             <code>evallab crosstable DATASET --event … --wide</code> gives it.</p>",
            df.height()
        );
        return Ok(html);
    }
    // Every column after the fixed ones is an opponent.
    let fixed = [metric::RANK, metric::ENGINE, st::POINTS, metric::GAMES];
    let names: Vec<String> = df
        .get_column_names()
        .into_iter()
        .map(|c| c.to_string())
        .filter(|c| c != col::EVENT && c != metric::SEASON)
        .collect();
    debug_assert!(df.height() == 0 || names.starts_with(&fixed.map(String::from)));
    let mut headers = Header::all(&out::CROSSTABLE, &fixed)?;
    headers.extend(names.iter().skip(fixed.len()).map(|o| Header {
        name: o.clone(),
        label: o.clone(),
        title: format!("Points/games against {o}."),
        quantity: None,
    }));
    html.push_str(&table_of(
        df,
        out::CROSSTABLE.title,
        &headers,
        Fold::Closed,
    )?);
    Ok(html)
}

/// The event's ratings (as `evallab ratings --event`).
pub fn ratings(e: &EventData) -> Result<String, Error> {
    let Some(r) = &e.ratings else {
        return Ok(String::new());
    };
    let mut html = String::from("<h3>Ratings</h3>");
    html.push_str(&ratings_tables(r, 0)?);
    Ok(html)
}

/// Games an engine needs to be in the chart and the main table of the
/// ratings of all events together. An engine of 2 games won has a rating
/// (4ku: 3007 ± 231 in the TCEC archive) that would rank it first, and its
/// interval rests on the model more than on the games. 20 games put an
/// interval near ±150 Elo at most; every engine is still in the folded full
/// table under the main one. To show every engine again, set this to 0.
pub const MIN_RATED_GAMES: u32 = 20;

/// Engines the ratings chart draws at most (the first in the table's order:
/// the largest group's best rated): the TCEC archive's 2,048 engines made a
/// chart 40,730 px tall. The tables list them all.
pub const CHART_MAX_ENGINES: usize = 60;

/// The ratings over every selected event: the page's first section.
pub fn overall_ratings(data: &ReportData) -> Result<String, Error> {
    let level = data.ratings.as_ref().ok().map_or(95.0, level_of);
    let mut html = format!(
        "<section id=ratings><h2>Ratings of all events together</h2><p class=note>\
         As <code>evallab ratings --each-group</code>: Ordo's maximum-likelihood Elo \
         (pool average 2300, white advantage and draw rate fitted; the solver in the \
         summary, <code>--solver</code>), errors at {level} % from \
         1,000 replays, CFS the confidence that an engine is stronger than the next one; \
         engines the games do not connect are rated in their own group, against that \
         group's own average (docs/definitions/ratings.md).</p>",
    );
    html.push_str(&ratings_tables(&data.ratings, MIN_RATED_GAMES)?);
    html.push_str("</section>");
    Ok(html)
}

/// The level (%) of a ratings' intervals, from its summary's fraction (95 %
/// when the summary does not say).
fn level_of(r: &Ratings) -> f64 {
    r.summary
        .column(rm::LEVEL)
        .ok()
        .and_then(|c| c.cast(&DataType::Float64).ok())
        .and_then(|c| c.f64().ok()?.iter().next().flatten())
        .map_or(95.0, |f| 100.0 * f)
}

/// The note of a ratings group: the fit's own, or, when the draw rate is
/// printed as its bound (100.0 at the catalogue's rounding) without one,
/// that it is at its bound as printed. The rule is the printed number, so
/// that every group showing 100.0 carries a warning and no other does
/// without the fit's own reason (Ordo's note for a search that stopped
/// short of the bound).
fn group_note(note: Option<&str>, draw_pct: Option<f64>) -> Option<String> {
    let q = out::RATINGS_SUMMARY
        .get(rm::DRAW_RATE)
        .expect("a ratings summary column");
    let printed_bound = draw_pct.is_some_and(|d| q.format(d) == q.format(100.0));
    match note {
        Some(n) => Some(n.to_string()),
        None if printed_bound => Some(format!(
            "draw rate {} %, at its 100 % bound as printed (nearly every game between \
             equal engines a draw): the errors and CFS rest on the few decisive games and \
             understate the uncertainty",
            q.format(draw_pct.unwrap_or(100.0))
        )),
        None => None,
    }
}

/// Ascending numbers as people list them: runs of three or more as a
/// range, `2, 3, 7–9, 12`.
fn numbers_and_ranges(numbers: &[usize]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < numbers.len() {
        let mut j = i;
        while j + 1 < numbers.len() && numbers[j + 1] == numbers[j] + 1 {
            j += 1;
        }
        if j >= i + 2 {
            parts.push(format!("{}–{}", numbers[i], numbers[j]));
        } else {
            parts.extend(numbers[i..=j].iter().map(usize::to_string));
        }
        i = j + 1;
    }
    parts.join(", ")
}

/// A ratings summary per group and the ratings table, or why there are none.
/// Engines with fewer than `min_games` games are left out of the chart and
/// the main table, and listed in a folded full table (0: every engine).
fn ratings_tables(r: &Result<Ratings, String>, min_games: u32) -> Result<String, Error> {
    let r = match r {
        Ok(r) => r,
        Err(why) => return Ok(format!("<p class=note>No ratings: {}</p>", escape(why))),
    };
    let level = level_of(r);
    let enough = if min_games > 0 {
        r.ratings
            .clone()
            .lazy()
            .filter(col(rm::PLAYED).cast(DataType::UInt32).gt_eq(lit(min_games)))
            .collect()?
    } else {
        r.ratings.clone()
    };
    let left_out = r.ratings.height() - enough.height();
    // The figure first: who is stronger, and how sure, at a glance.
    let engines = enough.column(metric::ENGINE)?.str()?;
    let rating = enough.column(rm::RATING)?.f64()?;
    let error = enough.column(rm::ERROR)?.f64()?;
    let group = enough.column(rm::GROUP)?.cast(&DataType::UInt32)?;
    let group = group.u32()?;
    let rows: Vec<(String, f64, f64, u32)> = (0..enough.height())
        .filter_map(|i| {
            let (n, v) = (engines.get(i)?, rating.get(i)?);
            Some((
                n.to_string(),
                v,
                error.get(i).unwrap_or(0.0),
                group.get(i).unwrap_or(0),
            ))
        })
        .collect();
    let mut html = String::new();
    if left_out > 0 {
        let _ = write!(
            html,
            "<p class=note>Shown: the {} engines with at least {min_games} games; {left_out} \
             engines with fewer are left out of the chart and the main table (a rating from a \
             handful of games is mostly the model's guess) and are listed in the full table \
             below it.</p>",
            enough.height()
        );
    }
    if rows.len() > CHART_MAX_ENGINES {
        let _ = write!(
            html,
            "<p class=note>The chart draws the first {CHART_MAX_ENGINES} of the {} of these \
             engines with a rating, in the table's order (group 1's best rated); the table \
             lists them all.</p>",
            rows.len()
        );
    }
    if !rows.is_empty() {
        html.push_str(&plot::ratings_chart(
            &rows[..rows.len().min(CHART_MAX_ENGINES)],
            level,
        ));
    }
    html.push_str(&table(
        &r.summary,
        &out::RATINGS_SUMMARY,
        &[
            rm::GROUP,
            rm::ENGINES,
            metric::GAMES,
            rm::REFERENCE,
            rm::WHITE_ADVANTAGE,
            rm::WHITE_SD,
            rm::DRAW_RATE,
            rm::DRAW_RATE_SD,
            rm::BOOTSTRAP,
            rm::SOLVER,
        ],
    )?);
    let notes = r.summary.column(rm::NOTE)?.str()?;
    let draws = r.summary.column(rm::DRAW_RATE)?.cast(&DataType::Float64)?;
    // One paragraph per note, naming its groups: the whole TCEC archive has
    // 60 groups with one of two notes.
    // The summary's own group numbers: a knockout's summary skips groups
    // that have no fit (two engines with one game), so a row is not its group.
    let numbers = r.summary.column(rm::GROUP)?.cast(&DataType::UInt64)?;
    let mut grouped: Vec<(String, Vec<usize>)> = Vec::new();
    for ((number, note), draw) in numbers
        .u64()?
        .iter()
        .zip(notes.iter())
        .zip(draws.f64()?.iter())
    {
        let (Some(number), Some(note)) = (number, group_note(note, draw)) else {
            continue;
        };
        let number = number as usize;
        match grouped.iter_mut().find(|(n, _)| *n == note) {
            Some((_, groups)) => groups.push(number),
            None => grouped.push((note, vec![number])),
        }
    }
    for (note, groups) in grouped {
        let _ = write!(
            html,
            "<p class=note>Group{} {}: {}.</p>",
            if groups.len() > 1 { "s" } else { "" },
            numbers_and_ranges(&groups),
            escape(&note)
        );
    }
    let cols = [
        metric::RANK,
        metric::ENGINE,
        rm::RATING,
        rm::ERROR,
        rm::POINTS,
        rm::PLAYED,
        rm::SCORE_PCT,
        rm::CFS_NEXT,
        rm::GROUP,
        rm::KIND,
        metric::REASON,
    ];
    let headers: Vec<Header> = Header::all(&out::RATINGS, &cols)?
        .into_iter()
        .map(|h| h.at_level(level))
        .collect();
    html.push_str(&table_of(
        &enough,
        out::RATINGS.title,
        &headers,
        Fold::Closed,
    )?);
    if left_out > 0 {
        html.push_str(&table_of(
            &r.ratings,
            &format!("All engines, with the {left_out} of fewer than {min_games} games"),
            &headers,
            Fold::Always,
        )?);
    }
    Ok(html)
}

/// Colour-swapped game pairs per engine pair: pentanomial counts and the
/// Elo with its pentanomial and trinomial errors.
pub fn pairs(e: &EventData) -> Result<String, Error> {
    if e.pairs.height() == 0 {
        return Ok(String::new());
    }
    let mut html = String::from(
        "<h3>Game pairs (pentanomial)</h3><p class=note>Both games of an opening, \
         colours swapped: pair points 0, ½, 1, 1½, 2 for the first engine; Elo with its \
         95 % error from the pairs and, for comparison, from the games as if independent \
         (docs/definitions/pairs.md).</p>",
    );
    if let Some((lines, plies)) = e.book {
        let _ = write!(
            html,
            "<p class=note>Games without book marks took their opening from the book \
             given (--book: {lines} lines of up to {plies} plies; docs/definitions/pairs.md, \
             reading R3).</p>"
        );
    }
    html.push_str(&table(
        &e.pairs,
        &out::PAIRS,
        &[
            metric::ENGINE,
            metric::OPPONENT,
            pm::PAIRS,
            pm::BINS[0],
            pm::BINS[1],
            pm::BINS[2],
            pm::BINS[3],
            pm::BINS[4],
            pm::ELO,
            pm::ELO_ERROR,
            pm::ELO_ERROR_TRINOMIAL,
            pm::NELO,
            pm::UNPAIRED,
            metric::REASON,
        ],
    )?);
    Ok(html)
}

/// Results per opening, or per Chess960 start position: White's score and
/// draws, and how many colour-swapped pairs were decisive (TCEC's count).
/// A long table is folded under its summary line.
pub fn openings(e: &EventData) -> Result<String, Error> {
    let o = &e.openings;
    let df = &o.rows;
    if df.height() == 0 {
        return Ok(String::new());
    }
    let sum = |c: &str| -> Result<f64, Error> {
        Ok(df
            .column(c)?
            .cast(&DataType::Float64)?
            .f64()?
            .sum()
            .unwrap_or(0.0))
    };
    let (games, white, draws) = (
        sum(metric::GAMES)?,
        sum(st::WHITE_WINS)?,
        sum(metric::DRAWS)?,
    );
    let (pairs, decisive) = (sum(pm::PAIRS)?, sum(pm::DECISIVE_PAIRS)?);
    let (what, source) = if o.by_start {
        (
            "Start positions (Chess960)",
            "each start position by its Scharnagl number and arrangement, White's then \
             Black's when the sides differ (docs/guide/ingest.md)",
        )
    } else if o.classified {
        (
            "Openings",
            "each game's opening by position, the Lichess table's last named position \
             (`evallab openings`)",
        )
    } else {
        (
            "Openings",
            "each game's opening by its ECO and Opening tags",
        )
    };
    let mut html = format!(
        "<h3>{what}</h3><p class=note>{} {}, {games} finished games: White scored {:.1} %, \
         {:.1} % drawn; {decisive} of {pairs} colour-swapped pairs decisive (won 1½–½ or 2–0; \
         reverse kills 2–0; busted: 1–1, each engine winning with the same colour). Rows: {source}{}; \
         White's score (%) with its 95 % Wilson interval, the draw share (%).</p>",
        df.height(),
        if o.by_start {
            "start positions"
        } else {
            "openings"
        },
        100.0 * (white + draws / 2.0) / games.max(1.0),
        100.0 * draws / games.max(1.0),
        if o.by_start {
            ""
        } else {
            ", only those with a decisive pair (every opening: `evallab opening-stats`)"
        },
    );
    // Of a standard event the openings that decided a pair; of a Chess960
    // event every start position (its openings are the event's design).
    let df = &if o.by_start {
        df.clone()
    } else {
        df.clone()
            .lazy()
            .filter(col(pm::DECISIVE_PAIRS).gt(lit(0)))
            .collect()?
    };
    // Shown: the start without the "Chess960" every row would repeat, and
    // the score with its interval in one cell, in whole percent as the
    // catalogue's other percentages here (a row of two games has an interval
    // of ±40 points: decimals would be noise).
    let pct = |c: &str| -> Result<Vec<Option<f64>>, Error> {
        Ok(df
            .column(c)?
            .cast(&DataType::Float64)?
            .f64()?
            .iter()
            .collect())
    };
    let (score, low, high) = (
        pct(st::WHITE_SCORE_PCT)?,
        pct(st::WHITE_SCORE_LO)?,
        pct(st::WHITE_SCORE_HI)?,
    );
    let score: Vec<Option<String>> = (0..df.height())
        .map(|i| Some(format!("{:.0} ({:.0}–{:.0})", score[i]?, low[i]?, high[i]?)))
        .collect();
    let shown = df
        .clone()
        .lazy()
        .with_columns([
            col(col::OPENING).str().strip_prefix(lit("Chess960 ")),
            lit(polars::prelude::Series::new(
                st::WHITE_SCORE_PCT.into(),
                score,
            )),
        ])
        .collect()?;
    let mut cols = vec![col::OPENING];
    if !o.by_start {
        cols.insert(0, col::ECO);
    }
    cols.extend([
        metric::GAMES,
        st::WHITE_WINS,
        metric::DRAWS,
        st::BLACK_WINS,
        st::WHITE_SCORE_PCT,
        st::DRAW_PCT,
        pm::PAIRS,
        pm::DECISIVE_PAIRS,
        pm::REVERSE_KILLS,
        pm::BUSTED_PAIRS,
    ]);
    if shown.height() == 0 {
        return Ok(html);
    }
    // A Chess960 event's start positions are its openings: shown open.
    let fold = if o.by_start { Fold::Open } else { Fold::Closed };
    html.push_str(&table_of(
        &shown,
        out::OPENINGS.title,
        &Header::all(&out::OPENINGS, &cols)?,
        fold,
    )?);
    Ok(html)
}

/// The win-draw balance table.
pub fn balance(e: &EventData) -> Result<String, Error> {
    let mut html = String::from("<h3>Win-draw balance</h3>");
    html.push_str(&table(
        &e.balance,
        &out::BALANCE,
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
    Ok(html)
}

/// A calibration chart per engine, two to a row.
pub fn calibration(e: &EventData) -> Result<String, Error> {
    let mut html = String::from("<h3>Calibration: win rate by own eval</h3>");
    // An engine without an own eval (a game collection without comments)
    // would get a chart of the conventions alone.
    let (with, without): (Vec<_>, Vec<_>) = e
        .calibrations
        .iter()
        .partition(|(_, g, _)| g.iter().any(|o| !o.evals.is_empty()));
    if !with.is_empty() {
        html.push_str(
            "<p class=note>Dots: the share of the engine's positions in each 0.2-pawn bin of \
             its own eval (0–4) whose game it won; a dot's area is proportional to the \
             positions in its bin (the fullest bin the largest dot), so small dots rest on \
             few positions. Lines: x05 estimates and two conventions.</p>",
        );
    }
    if !without.is_empty() {
        let names: Vec<&str> = without.iter().map(|(n, _, _)| n.as_str()).collect();
        let _ = write!(
            html,
            "<p class=note>No own eval in the games of {}: no chart.</p>",
            escape(&names.join(", "))
        );
    }
    let charts: Vec<Chart> = with
        .into_iter()
        .map(|(engine, g, c)| {
            plot::calibration_chart(&CalibrationPanel {
                title: engine.clone(),
                games: g,
                calibration: c,
            })
        })
        .collect();
    if !charts.is_empty() {
        let grid = plot::grid(&charts, 2, 560.0, 360.0);
        if charts.len() > FOLD_CHARTS {
            let _ = write!(
                html,
                "<details class=fold><summary>Calibration charts: {} engines</summary>{grid}\
                 </details>",
                charts.len()
            );
        } else {
            html.push_str(&grid);
        }
    }
    Ok(html)
}

/// Calibration charts beyond which they are folded as a long table is
/// ([`FOLD_ROWS`]): a stage of 36 engines drew 18 rows of charts of 7
/// games each.
const FOLD_CHARTS: usize = 8;

/// x05 three ways per engine: the balance (rank), calibrate's ml, and the
/// WDL model's a/100 at the target material and in an endgame (material 20).
pub fn x05_compared(e: &EventData) -> Result<String, Error> {
    if e.wdl.is_empty() {
        return Ok(String::new());
    }
    let mut html = format!(
        "<h3>x05 three ways</h3><p class=note>Balance: the W-th largest non-won maximum; ml: \
         calibrate's maximum-likelihood P(x); WDL: a(material)/100 of the engine's WDL model \
         in this event (docs/definitions/wdl.md), at material 58 and 20, fitted to its own \
         positions (WDL positions) with the model of every selected event counted as up to {} \
         positions more: alone, an engine's cubic from a thousand positions is mostly not identified, \
         and with that prior a thousand own positions make about a tenth of the fit (WDL own \
         share; docs/guide/wdl.md). Point estimates without intervals (`evallab wdl --event … --by \
         engine --bootstrap 200` gives them).</p>",
        thousands(wdl::PRIOR_POSITIONS as i64)
    );
    let balance: std::collections::HashMap<String, Option<f64>> = match (
        e.balance.column(metric::ENGINE),
        e.balance.column(metric::BALANCE),
    ) {
        (Ok(n), Ok(b)) => n
            .str()?
            .iter()
            .zip(b.f64()?.iter())
            .map(|(n, b)| (n.unwrap_or_default().to_string(), b))
            .collect(),
        _ => Default::default(),
    };
    let (mut engines, mut bal, mut ml, mut w58, mut w20, mut positions, mut shares, mut notes) = (
        vec![],
        vec![],
        vec![],
        vec![],
        vec![],
        vec![],
        vec![],
        vec![],
    );
    for w in &e.wdl {
        let (engine, model) = (&w.engine, &w.model);
        engines.push(engine.as_str());
        bal.push(balance.get(engine).copied().flatten());
        ml.push(
            e.calibrations
                .iter()
                .find(|(n, _, _)| n == engine)
                .and_then(|(_, _, c)| c.ml.value),
        );
        w58.push(model.as_ref().ok().map(|m| m.a(58.0) / 100.0));
        w20.push(model.as_ref().ok().map(|m| m.a(20.0) / 100.0));
        positions.push(w.positions);
        shares.push(w.own_share.filter(|_| model.is_ok()));
        notes.push(model.as_ref().err().map(String::as_str));
    }
    let df = df!(
        "engine" => engines,
        "balance" => bal,
        "ml" => ml,
        "wdl_58" => w58,
        "wdl_20" => w20,
        "wdl_positions" => positions,
        "wdl_own_share" => shares,
        "note" => notes,
    )?;
    let cols: Vec<&str> = out::X05.columns.iter().map(|c| c.name).collect();
    html.push_str(&table(&df, &out::X05, &cols)?);
    if let Some(chart) = x05_by_material(&e.wdl) {
        html.push_str(&plot::grid(&[chart], 1, 760.0, 320.0));
    }
    Ok(html)
}

/// Each engine's x05 = a(material)/100 over the material its model was
/// fitted on: how the balance moves from the middlegame to the endgame.
fn x05_by_material(models: &[EngineWdl]) -> Option<Chart> {
    let fitted: Vec<(&String, &Model)> = models
        .iter()
        .filter_map(|w| Some((&w.engine, w.model.as_ref().ok()?)))
        .collect();
    let lo = fitted.iter().map(|(_, m)| m.material_min).min()?;
    let hi = fitted.iter().map(|(_, m)| m.material_max).max()?;
    let series: Vec<Series> = fitted
        .iter()
        .enumerate()
        .map(|(i, (name, m))| Series {
            label: (*name).clone(),
            color: PALETTE[i % PALETTE.len()],
            dashed: false,
            marker: Marker::Dot,
            points: (m.material_min..=m.material_max)
                .map(|k| (f64::from(k), m.a(f64::from(k)) / 100.0, 0.0))
                .collect(),
        })
        .collect();
    let top = series
        .iter()
        .flat_map(|s| s.points.iter().map(|p| p.1))
        .fold(0.0f64, f64::max);
    Some(Chart {
        title: "x05 by material (the engines' WDL models)".into(),
        x_label: "material (1,3,3,5,9)".into(),
        y_label: "x05 = a/100 (pawns)".into(),
        x_range: (f64::from(lo), f64::from(hi.max(lo + 1))),
        y_range: (0.0, (top * 2.0).ceil().max(1.0) / 2.0),
        series,
    })
}

/// The WDL model over every selected event: WDL_model's summary curves, the
/// coefficients, and the out-of-sample validation when the report has a split.
pub fn wdl_overall(data: &ReportData) -> Result<String, Error> {
    let mut html = String::from(
        "<section id=wdl><h2>Eval → outcome: the WDL model</h2><p class=note>Stockfish's WDL model \
         fitted as WDL_model's scoreWDL.py fits it (optimizeProbability) to every selected position: \
         win(x) = 1/(1+exp(−(x−a)/b)) with a, b cubic in material/58. a(m)/100 is x05 as it varies \
         with the material (docs/definitions/wdl.md).</p>",
    );
    if let Some((fitted, g)) = data.wdl.as_ref().and_then(|f| Some((f, f.groups.first()?))) {
        {
            match &g.fit {
                Ok(f) => {
                    html.push_str(&wdl_header(f, g, fitted.settings.mom_target));
                    html.push_str(&plot::grid(&plot::wdl_charts(fitted), 2, 560.0, 380.0));
                }
                Err(e) => {
                    let _ = write!(
                        html,
                        "<p class=note>No pooled model: {}.</p>",
                        escape(&e.to_string())
                    );
                }
            }
        }
    }
    if let Some(v) = &data.wdl_validation {
        let _ = write!(
            html,
            "<h3>Which model predicts the results: out of sample</h3><p class=note>Fitted on {} positions \
             of {} games, scored on {} positions of {} games. Log loss and Brier of the mover's expected \
             score against the game's score, 95 % intervals clustered by game; the last columns compare \
             with P(x) at the best single x05 (negative: better).</p>",
            v.train_positions, v.train_games, v.test_positions, v.test_games
        );
        use crate::metrics::wdl::validate::out as vout;
        let cols: Vec<&str> = [vout::MODEL, vout::PARAMETER, vout::SUBSET, vout::POSITIONS]
            .into_iter()
            .chain(vout::LOG_LOSS)
            .chain(vout::BRIER)
            .chain(vout::VS_BEST)
            .chain(vout::BRIER_VS_BEST)
            .collect();
        html.push_str(&table(&v.table()?, &out::WDL_VALIDATION, &cols)?);
    }
    html.push_str("</section>");
    Ok(html)
}

/// The pooled model in a sentence: a and b at the target material and x05
/// at three materials, rounded as their precision deserves (whole
/// centipawns, x05 to 0.01 pawn), with the bootstrap interval of a and b
/// when the fit has one. The report fits without a bootstrap (it would
/// refit the whole archive hundreds of times), so it says where to get one
/// rather than print a point as if exact. The cubic coefficients, rounded,
/// stay for whoever reuses the model.
fn wdl_header(f: &wdl::Fit, g: &wdl::GroupFit, target: i32) -> String {
    let m = &f.model;
    let t = f64::from(target);
    let iv =
        |v: Option<(f64, f64)>| v.map_or(String::new(), |(lo, hi)| format!(" ({lo:.0}–{hi:.0})"));
    let intervals = match (&g.a_interval, &g.interval_note) {
        (Some(_), _) => "intervals: bootstrap over games".to_string(),
        (None, Some(note)) => escape(note),
        (None, None) => "point estimates: the report runs no bootstrap; \
             <code>evallab wdl DATASET --bootstrap 200</code> gives their intervals"
            .to_string(),
    };
    format!(
        "<p>{:.0} positions of {} games: a({target}) = {:.0} cp{}, b({target}) = {:.0} cp{}; \
         x05 = a/100 = {:.2} at material {target}, {:.2} at 30, {:.2} at 20 ({intervals}). \
         <span class=note>Cubic coefficients (cp): <code>as = [{}]</code>, \
         <code>bs = [{}]</code>.</span></p>",
        f.retained.iter().sum::<f64>(),
        g.games,
        m.a(t),
        iv(g.a_interval),
        m.b(t),
        iv(g.b_interval),
        m.a(t) / 100.0,
        m.a(30.0) / 100.0,
        m.a(20.0) / 100.0,
        m.as_.map(|c| format!("{c:.1}")).join(", "),
        m.bs.map(|c| format!("{c:.1}")).join(", "),
    )
}

/// The EAS components: the globals, stacked bars and the table.
pub fn eas(e: &EventData) -> Result<String, Error> {
    let mut html = String::from("<h3>EAS components</h3>");
    let g = &e.eas_globals;
    let _ = write!(
        html,
        "<p class=note>V6 rules over this event's games: avg_all {} moves, L {}, early limit {} plies.</p>",
        g.avg_all, g.short_limit, g.early_limit
    );
    html.push_str(&eas_bars(&e.eas)?);
    // Scores of six and seven digits with thousands separators.
    let mut shown = e.eas.clone();
    for name in ["part_sac", "part_early", "part_short", "part_draw", "eas"] {
        if let Ok(c) = e.eas.column(name).and_then(|c| c.cast(&DataType::Int64)) {
            let v: Vec<Option<String>> = c.i64()?.iter().map(|v| v.map(thousands)).collect();
            shown.with_column(Column::new(name.into(), v))?;
        }
    }
    html.push_str(&table(
        &shown,
        &out::EAS,
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
    Ok(html)
}

/// The relevance summary.
pub fn relevance(e: &EventData) -> Result<String, Error> {
    let mut html = String::from("<h3>Relevance</h3>");
    if e.relevance.height() == 0 {
        html.push_str(
            "<p class=note>No move of this event has an engine eval before and after it: nothing to reduce.</p>",
        );
        return Ok(html);
    }
    html.push_str(&table(
        &e.relevance,
        &out::RELEVANCE,
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
    Ok(html)
}

/// Each reference analysis, then each move-matching run, with rows here.
pub fn engine_runs(e: &EventData) -> Result<String, Error> {
    let mut html = String::new();
    for (run, rows) in &e.agreements {
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
            rows,
            &out::AGREEMENT,
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
    for (run, rows) in &e.matchings {
        let _ = write!(
            html,
            "<h3>Move matching <code>{}</code></h3><p class=note>{} ({}): Regan's zig-zag \
             protocol per tested player. MM = share of moves that are the engine's first \
             choice at the last SLM depth, with its 95 % interval (a bootstrap over the \
             games); EV = share with the top move's eval; AE = mean \
             eval drop (pawns, evals capped at ±10); ASD = the drop scaled by 1/(1+|z|).</p>",
            escape(&run.label),
            escape(&run.engine.name),
            escape(run.limit())
        );
        html.push_str(&table(
            rows,
            &out::MATCHING,
            &[
                match_col::PLAYER,
                mout::MOVES,
                mout::MM,
                mout::MM_LO,
                mout::MM_HI,
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
    Ok(html)
}

/// The rule sets replayed and the draw-score sweep.
pub fn adjudication(e: &EventData) -> Result<String, Error> {
    let mut html = String::from(
        "<h3>Adjudication rules replayed</h3><p class=note>The shipped rule sets over the \
         event's games (<code>evallab adjudicate</code>; fastchess: fishtest's rules as \
         fastchess counts them; tcec: the event's own TCEC rule, if its era is known): \
         games the rule ended early, agreeing with the result or not, games adjudicated \
         otherwise (censored), plies and hours saved; then the \
         cutechess draw rule swept over its score (centipawns). The tcec set's \
         tablebase rule is not replayed here (it needs Syzygy tables: \
         <code>evallab adjudicate --syzygy DIR</code>); the games it ended count as \
         censored.</p>",
    );
    html.push_str(&table(
        &e.adjudication,
        &out::ADJUDICATION,
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
        &e.adjudication_sweep,
        &out::ADJUDICATION,
        &[
            "draw.score",
            adj::cols::FIRED,
            adj::cols::AGREE,
            adj::cols::WRONG,
            adj::cols::PLIES_SAVED,
            adj::cols::SAVED_PCT,
        ],
    )?);
    Ok(html)
}

/// Each selected game's eval trajectory, and its ease where priced.
pub fn selected_games(e: &EventData) -> Result<String, Error> {
    let mut html = String::from(
        "<h3>Selected games</h3><p class=note>The longest decisive games of the event.</p>",
    );
    let aopts = AnnotateOptions::default();
    let mut charts = Vec::new();
    let mut without = Vec::new();
    for g in &e.games {
        if g.plies.iter().all(|(_, eval)| eval.is_none())
            && g.ease.is_none()
            && g.expected.is_empty()
        {
            without.push(g.title.as_str());
            continue;
        }
        charts.push(trajectory(&g.title, &g.plies, aopts));
        if let Some((source, points)) = &g.ease {
            charts.push(ease_chart(&g.title, source, points, g.plies.len()));
        }
        if !g.expected.is_empty() {
            charts.push(expected_chart(&g.title, &g.expected, g.plies.len()));
        }
    }
    if !without.is_empty() {
        let _ = write!(
            html,
            "<p class=note>Without an eval, no chart: {}.</p>",
            escape(&without.join("; "))
        );
    }
    if !charts.is_empty() {
        html.push_str(&plot::grid(&charts, 1, 1100.0, 320.0));
    }
    Ok(html)
}

/// A column header: its label, and the explanation it shows on hover.
/// Every header of the page is one ([`Header::of`] reads the catalogue of
/// [`crate::schema::outputs`]), so a section added later is labelled and
/// explained as the others, or the page is not written.
#[derive(Debug, Clone)]
pub struct Header {
    /// The frame's column it shows.
    name: String,
    label: String,
    title: String,
    /// How its numbers are rounded (none: a column the catalogue cannot know,
    /// as an opponent of the crosstable).
    quantity: Option<&'static Quantity>,
}

impl Header {
    /// The header of column `name` of `output`, from the catalogue.
    pub fn of(output: &Output, name: &str) -> Result<Header, Error> {
        let q = output.get(name).ok_or_else(|| {
            Error::Render(format!(
                "report: column `{name}` of {} is not in the catalogue of output columns \
                 (src/schema/outputs.rs): give it a label and a meaning there",
                output.name
            ))
        })?;
        Ok(Header {
            name: name.to_string(),
            label: q.header(),
            title: q.explanation(),
            quantity: Some(q),
        })
    }

    /// The headers of `names` of `output`.
    pub fn all(output: &Output, names: &[&str]) -> Result<Vec<Header>, Error> {
        names.iter().map(|n| Header::of(output, n)).collect()
    }

    /// The header with its interval's level: the catalogue's "95 %" (the
    /// default) replaced by the level the data was computed at.
    pub fn at_level(mut self, level: f64) -> Header {
        let pct = format!("{level} %");
        self.label = self.label.replace("95 %", &pct);
        self.title = self.title.replace("95 %", &pct);
        self
    }

    /// The `<th>` element.
    pub(super) fn th(&self) -> String {
        format!(
            "<th title=\"{}\">{}</th>",
            escape(&self.title),
            escape(&self.label)
        )
    }
}

/// A cell: a number rounded as its quantity deserves (three decimals when the
/// catalogue cannot know it), null or not-a-number as a dash, text escaped.
fn cell(v: AnyValue, q: Option<&Quantity>) -> String {
    let number = |x: f64| match q {
        Some(q) => q.format(x),
        None if x.is_finite() => format!("{}", (x * 1000.0).round() / 1000.0),
        None => "—".into(),
    };
    match v {
        AnyValue::Null => "—".into(),
        AnyValue::Float64(x) => number(x),
        AnyValue::Float32(x) => number(f64::from(x)),
        AnyValue::String(s) => escape(s),
        AnyValue::StringOwned(s) => escape(&s),
        other => escape(&other.to_string()),
    }
}

/// Rows beyond which a table is folded (`<details>`) under its summary
/// line: the page stays a page of summaries and figures, every row one
/// click away.
const FOLD_ROWS: usize = 16;

/// How a table longer than [`FOLD_ROWS`] shows under its summary line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Fold {
    Closed,
    /// Open, where the rows are the point (a Chess960 event's start positions).
    Open,
    /// Folded however short (a table the page repeats in full).
    Always,
}

/// What the statistics leave out and what they count twice: the selected
/// events' games rejected at ingest, each with its reason, and the games the
/// dataset holds more than once (every copy counts), each with its places.
pub fn data(data: &ReportData) -> Result<String, Error> {
    let (rejects, repeated) = (&data.rejects, &data.repeated);
    let copies = crate::dataset::inspect::copies(repeated)?;
    let rejected = match rejects.height() {
        0 => "No game was rejected at ingest.".to_string(),
        1 => "1 game was rejected at ingest and is in none of them: its reason below.".into(),
        n => format!(
            "{} games were rejected at ingest and are in none of them, each with its reason \
             below.",
            thousands(n as i64)
        ),
    };
    let twice = "the same tags, plies and final position, read from two files or twice from one";
    let held = match repeated.height() {
        0 => format!("No game is held more than once ({twice})."),
        n => format!(
            "{} {} held more than once, in {copies} copies ({twice}; below): every copy \
             counts.",
            thousands(n as i64),
            if n == 1 { "game is" } else { "games are" },
        ),
    };
    let mut s = format!(
        "<section id=data><h2>Data</h2><p>{} games are in the statistics. {rejected} {held}</p>",
        thousands(data.games as i64),
    );
    for (df, output) in [
        (rejects, &out::INSPECT_REJECTS),
        (repeated, &out::INSPECT_REPEATED),
    ] {
        if df.height() > 0 {
            let cols: Vec<&str> = output.columns.iter().map(|q| q.name).collect();
            s.push_str(&table(df, output, &cols)?);
        }
    }
    s.push_str("</section>");
    Ok(s)
}

/// An HTML table of some columns of a frame, labelled from the catalogue.
fn table(df: &DataFrame, output: &Output, cols: &[&str]) -> Result<String, Error> {
    table_of(df, output.title, &Header::all(output, cols)?, Fold::Closed)
}

/// An HTML table of the columns `headers` show; folded beyond [`FOLD_ROWS`].
fn table_of(df: &DataFrame, title: &str, headers: &[Header], fold: Fold) -> Result<String, Error> {
    let mut s = String::from("<table><thead><tr>");
    for h in headers {
        s.push_str(&h.th());
    }
    s.push_str("</tr></thead><tbody>");
    // A frame with no rows may lack the columns too (nothing to draw).
    let columns: Vec<&Column> = if df.height() == 0 {
        Vec::new()
    } else {
        headers
            .iter()
            .map(|h| df.column(&h.name))
            .collect::<PolarsResult<_>>()?
    };
    for i in 0..df.height() {
        s.push_str("<tr>");
        for (c, h) in columns.iter().zip(headers) {
            let _ = write!(s, "<td>{}</td>", cell(c.get(i)?, h.quantity));
        }
        s.push_str("</tr>");
    }
    s.push_str("</tbody></table>");
    if df.height() > FOLD_ROWS || fold == Fold::Always {
        s = format!(
            "<details class=fold{}><summary>{}: {} rows</summary>{s}</details>",
            if fold == Fold::Open { " open" } else { "" },
            escape(title),
            df.height()
        );
    }
    Ok(s)
}

/// The EAS parts, in the bars' order, with what each colour is.
const EAS_PARTS: [(&str, &str); 4] = [
    ("part_sac", "sacrifices"),
    ("part_early", "early wins"),
    ("part_short", "short wins"),
    ("part_draw", "bad draws"),
];

/// EAS parts as stacked bars in a table (one row per engine, in rank
/// order), under a legend of the four colours; each span names its part and
/// value on hover. Beyond [`FOLD_ROWS`] engines the rest fold under a line
/// below the first ones, as a long table does (when more than a few are
/// left: a fold of one or two bars hides more than it saves).
fn eas_bars(df: &DataFrame) -> Result<String, Error> {
    let fold_at = if df.height() > FOLD_ROWS + 4 {
        FOLD_ROWS
    } else {
        usize::MAX
    };
    let mut s = String::from("<p class=note>Parts: ");
    for (k, (col_name, what)) in EAS_PARTS.iter().enumerate() {
        let _ = write!(
            s,
            "<span style=\"display:inline-block;width:10px;height:10px;background:{}\"></span> \
             {what} (<code>{col_name}</code>){}",
            PALETTE[k],
            if k + 1 < EAS_PARTS.len() { " · " } else { "" }
        );
    }
    let mut head = String::from("<table class=bars><thead><tr>");
    for h in Header::all(&out::EAS, &["engine", "eas", "parts"])? {
        head.push_str(&h.th());
    }
    head.push_str("</tr></thead><tbody>");
    s.push_str("</p>");
    s.push_str(&head);
    if df.height() == 0 {
        s.push_str("</tbody></table>");
        return Ok(s);
    }
    let engine = df.column("engine")?.str()?.clone();
    let vals: Vec<Int64Chunked> = EAS_PARTS
        .iter()
        .map(|p| df.column(p.0).and_then(|c| c.i64().cloned()))
        .collect::<PolarsResult<_>>()?;
    let total = df.column("eas")?.i64()?.clone();
    let max = total.max().unwrap_or(1).max(1) as f64;
    for i in 0..df.height() {
        if i == fold_at {
            let _ = write!(
                s,
                "</tbody></table><details class=fold><summary>EAS parts of the other {} \
                 engines</summary>{head}",
                df.height() - fold_at
            );
        }
        let _ = write!(
            s,
            "<tr><td>{}</td><td>{}</td><td><div class=bar>",
            escape(engine.get(i).unwrap_or("")),
            thousands(total.get(i).unwrap_or(0))
        );
        for (k, v) in vals.iter().enumerate() {
            let v = v.get(i).unwrap_or(0);
            let w = v as f64 / max * 100.0;
            let _ = write!(
                s,
                "<span style=\"width:{w:.2}%;background:{}\" title=\"{}: {}\"></span>",
                PALETTE[k],
                EAS_PARTS[k].1,
                thousands(v)
            );
        }
        s.push_str("</div></td></tr>");
    }
    s.push_str("</tbody></table>");
    if df.height() > fold_at {
        s.push_str("</details>");
    }
    Ok(s)
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
                marker: Marker::Dot,
                points: eval,
            },
            Series {
                label: format!("P(White) (0 at −5, 1 at +5), x05 {}", opts.x05),
                color: PALETTE[4],
                dashed: true,
                marker: Marker::Dot,
                points: p,
            },
            Series {
                label: "? and ??".into(),
                color: PALETTE[1],
                dashed: false,
                marker: Marker::Dot,
                points: bad,
            },
            Series {
                label: "! and !!".into(),
                color: PALETTE[2],
                dashed: false,
                marker: Marker::Dot,
                points: good,
            },
        ],
    }
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
            marker: Marker::Dot,
            points: points
                .iter()
                .map(|&(x, y)| (x, y.clamp(0.0, 1.0), 0.0))
                .collect(),
        }],
    }
}

/// A game's expected puzzle rating, ply by ply (a model of `evallab
/// difficulty`): its hardest moments read on the puzzle scale.
fn expected_chart(title: &str, points: &[(f64, f64)], plies: usize) -> Chart {
    let (lo, hi) = points
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| {
            (lo.min(p.1), hi.max(p.1))
        });
    // Round hundreds around the values, at least 200 apart.
    let (lo, hi) = ((lo / 100.0).floor() * 100.0, (hi / 100.0).ceil() * 100.0);
    Chart {
        title: format!("{title}: expected puzzle rating"),
        x_label: "ply".into(),
        y_label: "expected Lichess puzzle rating".into(),
        x_range: (0.0, plies.max(2) as f64),
        y_range: (lo, hi.max(lo + 200.0)),
        series: vec![Series {
            label: "expected rating".into(),
            color: PALETTE[5],
            dashed: false,
            marker: Marker::Dot,
            points: points.iter().map(|&(x, y)| (x, y, 0.0)).collect(),
        }],
    }
}

#[cfg(test)]
mod tests {
    use super::super::data::SelectedGame;
    use super::*;
    use crate::metrics::calibrate::math::{Calibration, GameObs};
    use crate::metrics::eas::Globals;

    fn event(name: &str) -> EventData {
        EventData {
            name: name.into(),
            ..EventData::default()
        }
    }

    /// Headers from the catalogue, explained on hover; cells rounded as the
    /// quantity deserves, null as a dash, text escaped.
    #[test]
    fn balance_rows_with_rounded_floats_nulls_and_escaped_names() {
        let mut e = event("E");
        let engines = ["A<b>", "C"];
        e.balance = df!(
            metric::ENGINE => engines,
            metric::GAMES => [10u32, 4],
            metric::OFFICIAL_WINS => [3u32, 0],
            metric::HOLLOW_WINS => [0u32, 0],
            metric::WINS => [3u32, 0],
            metric::DRAWS => [5u32, 4],
            metric::LOSSES => [2u32, 0],
            metric::HIGHEST_EVAL_WITHOUT_WIN => [Some(1.23456f64), None],
            metric::BALANCE => [Some(0.6666666f64), None],
            metric::BALANCE_ROUND => [Some(2u32), None],
            metric::REACHING_BALANCE => [Some(1u32), None],
            metric::REASON => [None, Some("no win")],
        )
        .unwrap();
        let html = balance(&e).unwrap();
        assert!(html.starts_with(
            "<h3>Win-draw balance</h3><table><thead><tr>\
             <th title=\"The engine (player name). Column `engine`.\">Engine</th>"
        ));
        assert!(html.contains("<th title=\"The W-th largest maximum own eval"));
        assert!(html.contains(">Balance x05 (pawns)</th>"));
        assert!(
            html.contains(
                "<tr><td>A&lt;b&gt;</td><td>10</td><td>3</td><td>0</td><td>3</td><td>5</td>\
                 <td>2</td><td>1.23</td><td>0.67</td><td>2</td><td>1</td><td>—</td></tr>"
            ),
            "{html}"
        );
        assert!(html.contains("<td>—</td><td>—</td><td>—</td><td>no win</td></tr>"));
        assert_eq!(html.matches("<tr>").count(), 3, "a header and two rows");
    }

    /// Bars are scaled to the largest EAS: parts of 50 and 25 of a top score
    /// of 100 are half and a quarter of the bar.
    #[test]
    fn eas_bars_scale_to_the_top_score() {
        let mut e = event("E");
        e.eas_globals = Globals {
            avg_all: 60,
            short_limit: 40,
            early_limit: 30,
            decisive_games: 7,
        };
        let n = |v: [i64; 2]| v;
        e.eas = df!(
            "rank" => n([1, 2]),
            "engine" => ["X", "Y"],
            "wins" => n([5, 1]),
            "draws" => n([2, 3]),
            "early_sac_pct" => [10.0, 0.0],
            "short_win_pct" => [20.0, 0.0],
            "bad_draw_pct" => [0.0, 50.0],
            "avg_win_moves" => [55.5, 70.0],
            "part_sac" => n([50, 0]),
            "part_early" => n([25, 0]),
            "part_short" => n([25, 10]),
            "part_draw" => n([0, 10]),
            "eas" => n([100, 20]),
            "warning" => [None::<&str>, Some("few games")],
        )
        .unwrap();
        let html = eas(&e).unwrap();
        assert!(html.contains("avg_all 60 moves, L 40, early limit 30 plies."));
        assert!(
            html.contains(
                "<tr><td>X</td><td>100</td><td><div class=bar><span style=\"width:50.00%;"
            )
        );
        assert!(
            html.contains(
                "<span style=\"width:25.00%;background:#D55E00\" title=\"early wins: 25\"></span>"
            ),
            "{html}"
        );
        assert!(html.contains("<td>few games</td>"));
        // A legend of the four colours, in the bars' order.
        assert!(
            html.contains("background:#0072B2\"></span> sacrifices (<code>part_sac</code>) · ")
        );
        assert!(
            html.contains("background:#CC79A7\"></span> bad draws (<code>part_draw</code>)</p>")
        );
        assert_eq!(thousands(1_234_567), "1\u{202f}234\u{202f}567");
        assert_eq!(thousands(-1000), "-1\u{202f}000");
        assert_eq!(thousands(999), "999");
        assert!(!html.contains("<details"), "two engines: not folded");
    }

    /// Beyond FOLD_ROWS engines the first ones' bars show and the others
    /// fold under a line that counts them, each engine's bar once; four
    /// more than FOLD_ROWS are not worth a fold.
    #[test]
    fn many_eas_bars_fold() {
        let n = FOLD_ROWS + 5;
        let engines: Vec<String> = (0..n).map(|i| format!("E{i}")).collect();
        let parts: Vec<i64> = (0..n as i64).map(|i| 100 - i).collect();
        let df = df!(
            "engine" => &engines,
            "part_sac" => &parts,
            "part_early" => &parts,
            "part_short" => &parts,
            "part_draw" => &parts,
            "eas" => parts.iter().map(|p| 4 * p).collect::<Vec<_>>(),
        )
        .unwrap();
        assert!(
            !eas_bars(&df.head(Some(FOLD_ROWS + 4)))
                .unwrap()
                .contains("<details")
        );
        let html = eas_bars(&df).unwrap();
        let fold = html
            .find("<details class=fold><summary>EAS parts of the other 5 engines</summary>")
            .unwrap();
        for (i, e) in engines.iter().enumerate() {
            let at = html.find(&format!("<tr><td>{e}</td>")).unwrap();
            assert_eq!(at > fold, i >= FOLD_ROWS, "{e}");
        }
        assert_eq!(html.matches("<div class=bar>").count(), n);
        assert_eq!(html.matches("<table class=bars>").count(), 2);
        assert!(html.ends_with("</tbody></table></details>"));
    }

    /// Sections without data write their heading only, or nothing.
    #[test]
    fn empty_sections() {
        let e = event("E");
        assert_eq!(engine_runs(&e).unwrap(), "");
        assert_eq!(
            calibration(&e).unwrap(),
            "<h3>Calibration: win rate by own eval</h3>"
        );
        assert_eq!(
            selected_games(&e).unwrap(),
            "<h3>Selected games</h3><p class=note>The longest decisive games of the event.</p>"
        );
        assert_eq!(pairs(&e).unwrap(), "", "no pairs, no section");
        assert_eq!(
            relevance(&e).unwrap(),
            "<h3>Relevance</h3><p class=note>No move of this event has an engine eval before \
             and after it: nothing to reduce.</p>"
        );
        let html = standings(&e).unwrap();
        assert!(
            html.ends_with("</tr></thead><tbody></tbody></table>"),
            "{html}"
        );
        assert_eq!(html.matches("<th title=").count(), 14);
        assert!(html.contains(">Score (%)</th>") && html.contains(">Sonneborn–Berger</th>"));
    }

    /// The endings cell lists the classes that occur, in column order.
    #[test]
    fn standings_endings_name_the_classes_that_occur() {
        let mut e = event("E");
        e.standings = df!(
            metric::RANK => [1u32, 2],
            metric::ENGINE => ["A", "B"],
            metric::GAMES => [3u32, 3],
            metric::WINS => [2u32, 0],
            metric::DRAWS => [1u32, 1],
            metric::LOSSES => [0u32, 2],
            st::POINTS => [2.5f64, 0.5],
            st::SCORE_PCT => [250.0f64 / 3.0, 50.0 / 3.0],
            st::WHITE_POINTS => [1.5f64, 0.0],
            st::WHITE_GAMES => [2u32, 1],
            st::BLACK_POINTS => [1.0f64, 0.5],
            st::BLACK_GAMES => [1u32, 2],
            st::SONNEBORN_BERGER => [0.75f64, 1.25],
            "end_mate" => [1u32, 1],
            "end_fifty_moves" => [1u32, 1],
            "end_time" => [1u32, 0],
            "end_unknown" => [0u32, 1],
        )
        .unwrap();
        let html = standings(&e).unwrap();
        assert!(
            html.contains(
                "<tr><td>1</td><td>A</td><td>3</td><td>2</td><td>1</td><td>0</td><td>2.5</td>\
                 <td>83.3</td><td>1.5</td><td>2</td><td>1.0</td><td>1</td><td>0.75</td>\
                 <td>mate 1, fifty moves 1, time 1</td></tr>"
            ),
            "{html}"
        );
        assert!(html.contains("<td>mate 1, fifty moves 1, unknown 1</td></tr>"));
    }

    #[test]
    fn groups_are_listed_with_their_runs_as_ranges() {
        assert_eq!(numbers_and_ranges(&[]), "");
        assert_eq!(numbers_and_ranges(&[4]), "4");
        assert_eq!(numbers_and_ranges(&[2, 3, 7, 8, 9, 12]), "2, 3, 7–9, 12");
        assert_eq!(numbers_and_ranges(&[1, 2, 3, 4]), "1–4");
    }

    /// The ratings: the summary per group, then the table; a pool that
    /// cannot be rated says why; no ratings, no section.
    #[test]
    fn ratings_summary_and_table_or_the_reason() {
        let mut e = event("E");
        assert_eq!(ratings(&e).unwrap(), "");
        e.ratings = Some(Err("no game with a result".into()));
        assert_eq!(
            ratings(&e).unwrap(),
            "<h3>Ratings</h3><p class=note>No ratings: no game with a result</p>"
        );
        e.ratings = Some(Ok(Ratings {
            ratings: df!(
                metric::RANK => [Some(1u32), Some(2), None],
                metric::ENGINE => ["A", "B", "C"],
                rm::RATING => [Some(2350.4567f64), Some(2249.5433), None],
                rm::ERROR => [Some(40.25f64), Some(40.25), None],
                rm::POINTS => [6.0f64, 4.0, 0.0],
                rm::PLAYED => [10u32, 10, 0],
                rm::SCORE_PCT => [60.0f64, 40.0, 0.0],
                rm::CFS_NEXT => [Some(99.0f64), None, None],
                rm::GROUP => [Some(1u32), Some(1), None],
                rm::KIND => ["normal", "normal", "no games"],
                metric::REASON => [None, None, Some("unconnected")],
            )
            .unwrap(),
            // Groups 1 and 4 share a note, 6's draw rate prints as 100.0;
            // groups 2 and 5 have no row (no fit), as in a knockout.
            summary: df!(
                rm::GROUP => [1u32, 3, 4, 6],
                rm::ENGINES => [2u32, 2, 2, 2],
                metric::GAMES => [10u32, 2, 2, 2],
                rm::REFERENCE => ["average 2300"; 4],
                rm::WHITE_ADVANTAGE => [35.12345f64, 0.0, 0.0, 0.0],
                rm::WHITE_SD => [12.0f64, 0.0, 0.0, 0.0],
                rm::DRAW_RATE => [55.5f64, 50.0, 50.0, 99.96],
                rm::DRAW_RATE_SD => [6.24f64, 0.0, 0.0, 0.0],
                rm::BOOTSTRAP => [400u32, 400, 400, 400],
                rm::SOLVER => ["newton"; 4],
                rm::NOTE => [Some("a note"), None, Some("a note"), None],
            )
            .unwrap(),
            los: None,
        }));
        let html = ratings(&e).unwrap();
        assert!(
            html.contains("<p class=note>Groups 1, 4: a note.</p><p class=note>Group 6: draw rate 100.0 %, at its 100 % bound"),
            "{html}"
        );
        assert_eq!(html.matches("a note").count(), 1);
        assert!(html.contains("<tr><td>1</td><td>2</td><td>10</td><td>average 2300</td><td>35</td><td>12</td><td>55.5</td><td>6.2</td><td>400</td><td>newton</td></tr>"), "{html}");
        assert!(html.contains("<tr><td>1</td><td>A</td><td>2350</td><td>40</td><td>6.0</td><td>10</td><td>60.0</td><td>99</td><td>1</td><td>normal</td><td>—</td></tr>"), "{html}");
        assert!(html.contains("<tr><td>—</td><td>C</td><td>—</td><td>—</td><td>0.0</td><td>0</td><td>0.0</td><td>—</td><td>—</td><td>no games</td><td>unconnected</td></tr>"), "{html}");
    }

    /// Up to the limit the matrix is drawn (the event column left out);
    /// beyond it a note names the command.
    #[test]
    fn crosstable_matrix_or_a_note() {
        let mut e = event("E");
        e.crosstable = df!(
            col::EVENT => ["E", "E"],
            metric::RANK => [1u32, 2],
            metric::ENGINE => ["A", "B"],
            st::POINTS => [1.5f64, 0.5],
            metric::GAMES => [2u32, 2],
            "A" => [None, Some("0.5/2")],
            "B" => [Some("1.5/2"), None],
        )
        .unwrap();
        let html = crosstable(&e).unwrap();
        assert!(
            html.contains(
                ">Games</th><th title=\"Points/games against A.\">A</th>\
                 <th title=\"Points/games against B.\">B</th></tr>"
            ),
            "{html}"
        );
        assert!(html.contains(
            "<tr><td>1</td><td>A</td><td>1.5</td><td>2</td><td>—</td><td>1.5/2</td></tr>"
        ));
        let n = CROSSTABLE_MAX_ENGINES + 1;
        e.crosstable = df!(metric::ENGINE => vec!["x"; n]).unwrap();
        assert!(
            crosstable(&e)
                .unwrap()
                .contains(&format!("{n} engines: too many"))
        );
    }

    /// An engine or a game without an eval (a collection of games without
    /// comments) is named in a note, not drawn as an empty chart.
    #[test]
    fn no_chart_without_an_eval() {
        let mut e = event("E");
        let obs = |evals: Vec<i32>| GameObs {
            won: true,
            result: 1.0,
            max_own: evals.iter().max().map(|&v| i64::from(v)),
            evals,
        };
        e.calibrations = vec![
            (
                "A".into(),
                vec![obs(vec![]), obs(vec![])],
                Calibration::default(),
            ),
            (
                "B".into(),
                vec![obs(vec![]), obs(vec![30, 120])],
                Calibration::default(),
            ),
        ];
        let html = calibration(&e).unwrap();
        assert!(html.contains("<p class=note>No own eval in the games of A: no chart.</p>"));
        assert!(html.contains("Dots: the share"));
        assert_eq!(
            html.matches("font-weight=\"bold\"").count(),
            1,
            "B's panel alone"
        );
        assert!(!html.contains("<details"), "two engines: not folded");
        e.calibrations.truncate(1);
        let html = calibration(&e).unwrap();
        assert!(
            !html.contains("Dots: the share") && !html.contains("<svg"),
            "{html}"
        );
        e.games = vec![
            SelectedGame {
                title: "A – B 1-0 (round 1)".into(),
                plies: vec![(true, None), (false, None)],
                ease: None,
                expected: vec![],
            },
            SelectedGame {
                title: "C – D 0-1 (round 2)".into(),
                plies: vec![(true, Some(0.3)), (false, None)],
                ease: None,
                expected: vec![],
            },
        ];
        let html = selected_games(&e).unwrap();
        assert!(html.contains("<p class=note>Without an eval, no chart: A – B 1-0 (round 1).</p>"));
        assert_eq!(
            html.matches("font-weight=\"bold\"").count(),
            1,
            "C – D's alone"
        );
    }

    /// More engines than [`FOLD_CHARTS`]: their charts fold under a line.
    #[test]
    fn many_calibration_charts_fold() {
        let mut e = event("E");
        let obs = GameObs {
            won: true,
            result: 1.0,
            max_own: Some(50),
            evals: vec![50],
        };
        e.calibrations = (0..=FOLD_CHARTS)
            .map(|i| (format!("E{i}"), vec![obs.clone()], Calibration::default()))
            .collect();
        let html = calibration(&e).unwrap();
        assert!(html.contains(&format!(
            "<details class=fold><summary>Calibration charts: {} engines</summary><svg",
            FOLD_CHARTS + 1
        )));
        assert!(html.trim_end().ends_with("</details>"), "{html}");
        e.calibrations.truncate(FOLD_CHARTS);
        assert!(!calibration(&e).unwrap().contains("<details"));
    }

    /// A game's trajectory is one chart; with its ease, two.
    #[test]
    fn selected_games_chart_evals_and_ease() {
        let mut e = event("E");
        let plies = vec![(true, Some(0.3)), (false, Some(-0.2)), (true, None)];
        e.games = vec![
            SelectedGame {
                title: "A – B 1-0 (round 1)".into(),
                plies: plies.clone(),
                ease: None,
                expected: vec![],
            },
            SelectedGame {
                title: "C – D 0-1 (round 2)".into(),
                plies: plies.clone(),
                ease: Some(("`p` priors, `a` lines".into(), vec![(1.0, 0.5), (2.0, 1.5)])),
                expected: vec![],
            },
        ];
        let html = selected_games(&e).unwrap();
        assert_eq!(html.matches("<svg").count(), 1, "one grid");
        assert_eq!(
            html.matches("font-weight=\"bold\"").count(),
            3,
            "three panels"
        );
        assert!(html.contains("C – D 0-1 (round 2): ease (`p` priors, `a` lines)"));
        // With a rating model, a third chart under the ease.
        e.games[1].expected = vec![(1.0, 1180.0), (2.0, 950.0)];
        let html = selected_games(&e).unwrap();
        assert_eq!(html.matches("font-weight=\"bold\"").count(), 4);
        assert!(html.contains("C – D 0-1 (round 2): expected puzzle rating"));
    }

    /// The expected rating's axis: round hundreds around the values.
    #[test]
    fn expected_rating_axis() {
        let c = expected_chart("G", &[(1.0, 1180.0), (2.0, 950.0)], 2);
        assert_eq!(c.y_range, (900.0, 1200.0));
        let c = expected_chart("G", &[(1.0, 1000.0)], 2);
        assert_eq!(c.y_range, (1000.0, 1200.0));
    }

    /// x05 three ways: the balance, the ml and the WDL model's a/100 side by side.
    #[test]
    fn x05_compared_puts_the_three_estimates_side_by_side() {
        use crate::metrics::wdl::Model;
        let mut e = event("E");
        e.balance =
            df!(metric::ENGINE => ["A", "B"], metric::BALANCE => [Some(0.62), None]).unwrap();
        let m = Model {
            as_: [0.0, 0.0, 58.0, 100.0],
            bs: [0.0, 0.0, 0.0, 60.0],
            mom_target: 58,
            material_min: 17,
            material_max: 78,
        };
        e.wdl = vec![
            EngineWdl {
                engine: "A".into(),
                model: Ok(m),
                positions: 5000,
                own_share: Some(5000.0 / 15000.0),
            },
            EngineWdl {
                engine: "B".into(),
                model: Err("too few".into()),
                positions: 12,
                own_share: Some(12.0 / 10012.0),
            },
        ];
        let html = x05_compared(&e).unwrap();
        // a(58) = 58 + 100 = 158 cp; a(20) = 58·20/58 + 100 = 120 cp; a third its own.
        assert!(html.contains("<tr><td>A</td><td>0.62</td><td>—</td><td>1.58</td><td>1.20</td><td>5000</td><td>0.33</td><td>—</td></tr>"), "{html}");
        assert!(html.contains(
            "<tr><td>B</td><td>—</td><td>—</td><td>—</td><td>—</td><td>12</td><td>—</td><td>too few</td></tr>"
        ));
        assert!(html.contains(">WDL at material 58 (pawns)</th>"));
        assert_eq!(x05_compared(&event("F")).unwrap(), "");
    }
}
