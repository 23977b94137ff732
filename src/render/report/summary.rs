//! The answer first: per event who won, by how much, how drawish, the
//! balances and the EAS order, read from the event's own tables. The page
//! opens with one row per event (its table of contents), and each event's
//! section with its row and a sentence.

use std::fmt::Write as _;

use polars::prelude::*;

use super::data::EventData;
use super::sections::Header;
use crate::Error;
use crate::metrics::ratings::Ratings;
use crate::render::{escape, thousands};
use crate::schema::metric::{self, pairs as pm, ratings as rm, standings as st};
use crate::schema::outputs::{Quantity, SUMMARY};

/// An event in a few numbers.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Summary {
    pub games: u64,
    /// First and second in the standings, with their points.
    pub winner: Option<(String, f64)>,
    pub runner_up: Option<(String, f64)>,
    /// The winner's Elo over the runner-up and its error, when known.
    pub elo: Option<(f64, Option<f64>)>,
    /// The level (%) of that error: the pairs' 95 %, or the ratings' own.
    pub level: f64,
    /// Why the Elo difference has no interval, when it has none.
    pub no_interval: Option<String>,
    /// The share of the event's engine pairs that met, when it has three
    /// engines or more: below [`ROUND_ROBIN_SHARE`], a knockout or pairing
    /// event, whose points are no ranking.
    pub met_share: Option<f64>,
    pub draw_pct: Option<f64>,
    /// Each engine's balance (pawns), as the balance table lists them.
    pub balances: Vec<(String, Option<f64>)>,
    /// The engines in EAS order with their scores, and the EAS table's
    /// caveat (few wins or draws) where it has one.
    pub eas: Vec<(String, i64, Option<String>)>,
}

fn strings(df: &DataFrame, name: &str) -> Vec<String> {
    df.column(name)
        .ok()
        .and_then(|c| c.str().ok().cloned())
        .map(|c| c.iter().map(|s| s.unwrap_or("").to_string()).collect())
        .unwrap_or_default()
}

fn floats(df: &DataFrame, name: &str) -> Vec<Option<f64>> {
    df.column(name)
        .ok()
        .and_then(|c| c.cast(&DataType::Float64).ok())
        .and_then(|c| c.f64().ok().cloned())
        .map(|c| c.iter().collect())
        .unwrap_or_default()
}

/// The share of an event's engine pairs that must have met for its points
/// to rank its engines (a round robin, or nearly): below it, as in a cup's
/// mini-matches or a Swiss, the summary says "most points", not "won", and
/// gives no Elo difference of the top two (who may never have met). To
/// treat every event as a league again, set it to 0.
pub const ROUND_ROBIN_SHARE: f64 = 0.5;

/// Games below which the top two's Elo difference is shown as a dash: its
/// interval, when the fit gives one, spans several hundred Elo.
pub const MIN_ELO_GAMES: f64 = 10.0;

/// The share of engine pairs of the event's crosstable that played each
/// other (its opponent cells: points/games, or null), with three engines
/// or more.
fn met_share(cross: &DataFrame) -> Option<f64> {
    let engines = strings(cross, metric::ENGINE);
    let n = engines.len();
    if n < 3 {
        return None;
    }
    let mut met = 0usize;
    for e in &engines {
        let c = cross.column(e).ok()?;
        met += c.len() - c.null_count();
    }
    // Each pair twice (both rows), the diagonal never.
    Some(met as f64 / (n * (n - 1)) as f64)
}

/// Engines up to which the summary row names each in its balances and EAS
/// cells; beyond, the balances' median and range, and the EAS top three.
const LISTED_ENGINES: usize = 8;

/// The EAS ranks a row of more than [`LISTED_ENGINES`] engines names.
const LISTED_TOP: usize = 3;

impl Summary {
    /// Reads the summary off the event's standings, pairs, ratings, balance
    /// and EAS tables (an absent table leaves its part out).
    pub fn of(e: &EventData) -> Summary {
        let s = &e.standings;
        let engines = strings(s, metric::ENGINE);
        let points = floats(s, st::POINTS);
        let total = |name| floats(s, name).iter().flatten().sum::<f64>();
        // Each game is in two engines' rows.
        let games = total(metric::GAMES) / 2.0;
        let draws = total(metric::DRAWS) / 2.0;
        let place = |i: usize| Some((engines.get(i)?.clone(), points.get(i).copied()??));
        let (winner, runner_up) = (place(0), place(1));
        let mut level = PAIRS_LEVEL;
        let elo = match (&winner, &runner_up) {
            // The pairs' Elo without an error (a score of 0 or 100 % in
            // reach) yields to the ratings' difference with one. So does a
            // pairs' Elo that leaves some of their games unpaired: it would
            // contradict the score beside it (TCEC - Match 1: 26.5–21.5, its
            // 14 pairs exactly even, 20 games in none).
            (Some((w, _)), Some((r, _))) => {
                let pairs = pairs_elo(&e.pairs, w, r);
                match pairs.filter(|(_, err)| err.is_some()) {
                    Some(p) => Some(p),
                    None => match ratings_elo(e.ratings.as_ref(), w, r) {
                        Some((d, err, l)) => {
                            level = l;
                            Some((d, err))
                        }
                        None => pairs,
                    },
                }
            }
            _ => None,
        };
        // A bare number under a "±" header reads as exact: without an
        // interval, or from too few games, the cell is a dash and says why.
        let winner_row = engines
            .iter()
            .position(|n| Some(n) == winner.as_ref().map(|w| &w.0));
        let wins = floats(s, metric::WINS);
        let all_wins = winner_row.is_some_and(|i| {
            let g = floats(s, metric::GAMES).get(i).copied().flatten();
            g.is_some() && wins.get(i).copied().flatten() == g
        });
        let no_interval = match elo {
            Some(_) if games < MIN_ELO_GAMES => Some(format!("too few games ({games})")),
            Some((_, None)) if all_wins => Some("all wins: no interval".into()),
            Some((_, None)) => Some("no interval: the replays never vary".into()),
            _ => None,
        };
        let balances = strings(&e.balance, metric::ENGINE)
            .into_iter()
            .zip(floats(&e.balance, metric::BALANCE))
            .collect();
        let warnings: Vec<Option<String>> = e
            .eas
            .column("warning")
            .ok()
            .and_then(|c| c.str().ok().cloned())
            .map(|c| c.iter().map(|w| w.map(str::to_string)).collect())
            .unwrap_or_default();
        let eas = strings(&e.eas, "engine")
            .into_iter()
            .zip(floats(&e.eas, "eas"))
            .enumerate()
            .map(|(i, (n, v))| {
                (
                    n,
                    v.unwrap_or(0.0) as i64,
                    warnings.get(i).cloned().flatten(),
                )
            })
            .collect();
        Summary {
            games: games as u64,
            winner,
            runner_up,
            elo,
            level,
            no_interval,
            met_share: met_share(&e.crosstable),
            draw_pct: (games > 0.0).then(|| draws / games * 100.0),
            balances,
            eas,
        }
    }

    /// A knockout or pairing event: most pairs of its engines never met.
    pub fn pairing(&self) -> bool {
        self.met_share.is_some_and(|m| m < ROUND_ROBIN_SHARE)
    }

    /// The cells of the summary row, in [`SUMMARY`]'s order after the event.
    fn cells(&self) -> Vec<String> {
        let q = |name| SUMMARY.get(name).expect("a summary column");
        let fmt = |name, v: f64| Quantity::format(q(name), v);
        let name = |p: &Option<(String, f64)>| p.as_ref().map(|(n, _)| escape(n));
        let score = match (&self.winner, &self.runner_up) {
            (Some((_, a)), Some((_, b))) => format!("{}–{}", fmt("score", *a), fmt("score", *b)),
            (Some((_, a)), None) => fmt("score", *a),
            _ => "—".into(),
        };
        let elo = self.elo_text().unwrap_or_else(|| "—".into());
        let winner = match name(&self.winner) {
            Some(w) if self.pairing() => format!("{w} (most points; pairing event)"),
            Some(w) => w,
            None => "—".into(),
        };
        let list = |v: Vec<String>| {
            if v.is_empty() {
                "—".to_string()
            } else {
                v.join(" · ")
            }
        };
        // A stage of 36 engines listed them all in two cells of one row.
        let many = self.balances.len() > LISTED_ENGINES;
        let balances = if many {
            let mut known: Vec<f64> = self.balances.iter().filter_map(|b| b.1).collect();
            known.sort_by(f64::total_cmp);
            match (known.first(), known.last()) {
                (Some(lo), Some(hi)) => format!(
                    "median {} ({}–{}) of {} engines with one; each in the balance table",
                    fmt(
                        "balances",
                        known[(known.len() - 1) / 2] / 2.0 + known[known.len() / 2] / 2.0
                    ),
                    fmt("balances", *lo),
                    fmt("balances", *hi),
                    known.len()
                ),
                _ => "—".into(),
            }
        } else {
            list(
                self.balances
                    .iter()
                    .map(|(n, b)| {
                        format!(
                            "{} {}",
                            escape(n),
                            b.map_or("—".into(), |b| fmt("balances", b))
                        )
                    })
                    .collect(),
            )
        };
        let shown_eas = if self.eas.len() > LISTED_ENGINES {
            LISTED_TOP
        } else {
            self.eas.len()
        };
        // A caveat every engine shares is said once, after them (in a
        // Superfinal of 100 games both engines have too few wins).
        let listed = &self.eas[..shown_eas];
        let shared = match listed {
            [(_, _, Some(w)), rest @ ..] if !rest.is_empty() && shown_eas == self.eas.len() => {
                rest.iter().all(|e| e.2.as_ref() == Some(w)).then_some(w)
            }
            _ => None,
        };
        let mut eas = list(
            listed
                .iter()
                .enumerate()
                .map(
                    |(i, (n, v, warning))| match warning.as_ref().filter(|_| shared.is_none()) {
                        Some(w) => format!(
                            "{}. {} ({}, {})",
                            i + 1,
                            escape(n),
                            thousands(*v),
                            escape(w)
                        ),
                        None => format!("{}. {} ({})", i + 1, escape(n), thousands(*v)),
                    },
                )
                .collect(),
        );
        if shown_eas < self.eas.len() {
            let _ = write!(eas, " · … {} engines in the EAS table", self.eas.len());
        }
        if let Some(w) = shared {
            let _ = write!(eas, "; each: {}", escape(w));
        }
        vec![
            self.games.to_string(),
            winner,
            score,
            elo,
            self.draw_pct.map_or("—".into(), |d| fmt("draw_pct", d)),
            balances,
            eas,
        ]
    }

    /// The Elo difference with its sign, a plus too (one that rounds to
    /// zero is +0, not -0), and its error; a dash with the reason where it
    /// has no interval, comes from too few games, or is no comparison (a
    /// pairing event); a note where the runner-up is rated higher.
    fn elo_text(&self) -> Option<String> {
        let fmt = |v| Quantity::format(SUMMARY.get("elo_difference").expect("a column"), v);
        if self.pairing() && self.elo.is_some() {
            return Some("— (pairing event: the top two are not compared)".into());
        }
        let (d, err) = self.elo?;
        if let Some(why) = &self.no_interval {
            return Some(format!("— ({why})"));
        }
        let s = fmt(d);
        let signed = match s.strip_prefix('-') {
            Some(m) if m.bytes().any(|b| matches!(b, b'1'..=b'9')) => s,
            Some(m) => format!("+{m}"),
            None => format!("+{s}"),
        };
        let negative = signed.starts_with('-');
        let text = match err {
            Some(err) => format!("{signed} ± {}", fmt(err)),
            None => signed,
        };
        Some(if negative {
            format!("{text} (runner-up rated higher)")
        } else {
            text
        })
    }

    /// One sentence: who won, by how much, and how drawish.
    pub fn sentence(&self) -> String {
        let Some((w, wp)) = &self.winner else {
            return "<p class=answer>No games with a result.</p>".into();
        };
        let mut s = if self.pairing() {
            let mut s = format!("<p class=answer>Most points: <b>{}</b>, {wp}", escape(w));
            if let Some((r, rp)) = &self.runner_up {
                let _ = write!(s, ", then {} with {rp}", escape(r));
            }
            let _ = write!(
                s,
                ", in a knockout or pairing event (only {:.0} % of the engine pairs met): the \
                 points rank no one; see the crosstable and the game pairs",
                100.0 * self.met_share.unwrap_or(0.0)
            );
            s
        } else {
            let mut s = format!("<p class=answer><b>{}</b> won with {wp} points", escape(w));
            if let Some((r, rp)) = &self.runner_up {
                let _ = write!(s, ", {} second with {rp}", escape(r));
            }
            match (&self.no_interval, self.elo_text()) {
                (Some(why), Some(_)) => {
                    let _ = write!(s, "; no Elo difference: {why}");
                }
                (None, Some(elo)) => {
                    let _ = write!(s, "; Elo difference {elo}");
                }
                _ => {}
            }
            s
        };
        if let Some(d) = self.draw_pct {
            let _ = write!(s, "; {d:.0} % of the {} games drawn", self.games);
        }
        s.push_str(".</p>");
        s
    }
}

/// The level (%) of the pairs' intervals ([`crate::metrics::pairs::math::Z95`]).
const PAIRS_LEVEL: f64 = 95.0;

/// The winner's pentanomial Elo over the runner-up, from their pairs row
/// (either way round), when the pairs hold every game the two played.
fn pairs_elo(pairs: &DataFrame, w: &str, r: &str) -> Option<(f64, Option<f64>)> {
    let engines = strings(pairs, metric::ENGINE);
    let opponents = strings(pairs, metric::OPPONENT);
    let (elo, err) = (floats(pairs, pm::ELO), floats(pairs, pm::ELO_ERROR));
    let unpaired = floats(pairs, pm::UNPAIRED);
    (0..engines.len()).find_map(|i| {
        let sign = match (engines[i].as_str(), opponents[i].as_str()) {
            (a, b) if a == w && b == r => 1.0,
            (a, b) if a == r && b == w => -1.0,
            _ => return None,
        };
        if unpaired.get(i).copied().flatten().unwrap_or(0.0) > 0.0 {
            return None;
        }
        Some((sign * elo.get(i).copied()??, err.get(i).copied().flatten()))
    })
}

/// The difference of the two ratings; its error the sum of theirs, a bound
/// that holds however they correlate (in a pool of two they are opposite);
/// and the level of the ratings' errors.
fn ratings_elo(
    r: Option<&Result<Ratings, String>>,
    w: &str,
    ru: &str,
) -> Option<(f64, Option<f64>, f64)> {
    let r = r?.as_ref().ok()?;
    let level = floats(&r.summary, rm::LEVEL)
        .first()
        .copied()
        .flatten()
        .map_or(95.0, |f| 100.0 * f);
    let engines = strings(&r.ratings, metric::ENGINE);
    let (rating, error) = (
        floats(&r.ratings, rm::RATING),
        floats(&r.ratings, rm::ERROR),
    );
    let at = |n: &str| engines.iter().position(|e| e == n);
    let (i, j) = (at(w)?, at(ru)?);
    let d = rating.get(i).copied()?? - rating.get(j).copied()??;
    // Replays that never vary (a draw rate fitted at its 100 % bound: every
    // replayed game a draw) give errors of 0, which are no interval.
    let err = match (
        error.get(i).copied().flatten(),
        error.get(j).copied().flatten(),
    ) {
        (Some(a), Some(b)) if a + b > 0.0 => Some(a + b),
        _ => None,
    };
    Some((d, err, level))
}

/// The summary table: with `link` one row per event, its name linking to its
/// section (the page's table of contents); without, the event's own row.
pub fn table(rows: &[(&str, Summary)], link: bool) -> Result<String, Error> {
    let index: Vec<usize> = (0..rows.len()).collect();
    table_from(rows, link.then_some(&index[..]))
}

/// The kind of an event, by its name, that the table of contents groups
/// it under: its season ("Season 9"), the cups, test events (a name with
/// "test" or "bonus"), or the rest.
pub fn toc_group(event: &str) -> String {
    let lower = event.to_ascii_lowercase();
    if is_test(event) {
        return TEST_GROUP.into();
    }
    if let Some(at) = lower.find("season ") {
        let n: String = event[at + 7..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect();
        return format!("Season {n}");
    }
    if lower.contains("cup") {
        return "Cups".into();
    }
    "Other events".into()
}

/// The group of test and bonus events: last in the table of contents and
/// folded there and in the page.
pub const TEST_GROUP: &str = "Test and bonus events";

/// A test or bonus event, by its name ("test" or "bonus" in it).
pub fn is_test(event: &str) -> bool {
    let lower = event.to_ascii_lowercase();
    lower.contains("test") || lower.contains("bonus")
}

/// Events beyond which the table of contents is folded per group (a click
/// unfolds a season); at or under it every group is open.
pub const TOC_OPEN_EVENTS: usize = 40;

/// The table of contents: the summary rows grouped by [`toc_group`], in the
/// events' order of first appearance, a table per group under its name and
/// count (one table when no group but the tests holds two events); folded
/// when there are more than [`TOC_OPEN_EVENTS`] events (test events always
/// are), each event keeping its link to its section.
pub fn toc(rows: &[(&str, Summary)]) -> Result<String, Error> {
    let mut groups: Vec<(String, Vec<usize>)> = Vec::new();
    for (i, (event, _)) in rows.iter().enumerate() {
        let g = toc_group(event);
        match groups.iter_mut().find(|(name, _)| *name == g) {
            Some((_, v)) => v.push(i),
            None => groups.push((g, vec![i])),
        }
    }
    // Test events last.
    groups.sort_by_key(|(g, _)| g == TEST_GROUP);
    // Every season of one event (the Superfinals): one table of them, not
    // a heading per row.
    if groups.iter().all(|(g, v)| g == TEST_GROUP || v.len() == 1) {
        let (tests, events): (Vec<_>, Vec<_>) =
            groups.into_iter().partition(|(g, _)| g == TEST_GROUP);
        groups = vec![(
            String::new(),
            events.into_iter().flat_map(|(_, v)| v).collect(),
        )];
        groups.extend(tests);
    }
    if groups.len() <= 1 {
        return table(rows, true);
    }
    let mut html = String::new();
    for (g, idx) in &groups {
        let open = rows.len() <= TOC_OPEN_EVENTS && g != TEST_GROUP;
        let part: Vec<(&str, Summary)> = idx.iter().map(|&i| rows[i].clone()).collect();
        if g.is_empty() {
            html.push_str(&table_from(&part, Some(idx))?);
            continue;
        }
        let _ = write!(
            html,
            "<details class=fold{}><summary>{}: {} event{}</summary>",
            if open { " open" } else { "" },
            escape(g),
            idx.len(),
            if idx.len() == 1 { "" } else { "s" }
        );
        html.push_str(&table_from(&part, Some(idx))?);
        html.push_str("</details>");
    }
    Ok(html)
}

/// [`table`], with `link` the section each row links to.
fn table_from(rows: &[(&str, Summary)], link: Option<&[usize]>) -> Result<String, Error> {
    let names: Vec<&str> = SUMMARY
        .columns
        .iter()
        .map(|c| c.name)
        .filter(|n| link.is_some() || *n != "event")
        .collect();
    let mut html = String::from("<table class=summary><thead><tr>");
    // The rows' level when they share one (the report's default, 95 %).
    let level = rows.first().map_or(PAIRS_LEVEL, |r| r.1.level);
    let one_level = rows.iter().all(|r| r.1.level == level);
    for h in Header::all(&SUMMARY, &names)? {
        let h = if one_level { h.at_level(level) } else { h };
        html.push_str(&h.th());
    }
    html.push_str("</tr></thead><tbody>");
    for (i, (event, s)) in rows.iter().enumerate() {
        html.push_str("<tr>");
        if let Some(index) = link {
            let _ = write!(
                html,
                "<td><a href=\"#e{}\">{}</a></td>",
                index.get(i).copied().unwrap_or(i),
                escape(event)
            );
        }
        for c in s.cells() {
            let _ = write!(html, "<td>{c}</td>");
        }
        html.push_str("</tr>");
    }
    html.push_str("</tbody></table>");
    Ok(html)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event() -> EventData {
        EventData {
            name: "E".into(),
            standings: df!(
                metric::RANK => [1u32, 2],
                metric::ENGINE => ["A", "B<"],
                metric::GAMES => [10u32, 10],
                metric::DRAWS => [6u32, 6],
                st::POINTS => [6.0f64, 4.0],
            )
            .unwrap(),
            pairs: df!(
                metric::ENGINE => ["B<"],
                metric::OPPONENT => ["A"],
                pm::ELO => [-70.4f64],
                pm::ELO_ERROR => [55.6f64],
            )
            .unwrap(),
            balance: df!(
                metric::ENGINE => ["A", "B<"],
                metric::BALANCE => [Some(0.618f64), None],
            )
            .unwrap(),
            eas: df!(
                "engine" => ["B<", "A"],
                "eas" => [1_234_567i64, 80],
                "warning" => [Some("few wins or draws"), None],
            )
            .unwrap(),
            ..EventData::default()
        }
    }

    /// Winner, score, the pairs' Elo turned the winner's way, draws, balances
    /// and the EAS order.
    #[test]
    fn an_event_in_a_few_numbers() {
        let s = Summary::of(&event());
        assert_eq!(s.games, 10);
        assert_eq!(s.elo, Some((70.4, Some(55.6))));
        assert_eq!(
            s.cells(),
            [
                "10",
                "A",
                "6.0–4.0",
                "+70 ± 56",
                "60",
                "A 0.62 · B&lt; —",
                "1. B&lt; (1\u{202f}234\u{202f}567, few wins or draws) · 2. A (80)"
            ]
        );
        assert_eq!(
            s.sentence(),
            "<p class=answer><b>A</b> won with 6 points, B&lt; second with 4; \
             Elo difference +70 ± 56; 60 % of the 10 games drawn.</p>"
        );
        let html = table(&[("E", s)], true).unwrap();
        assert!(
            html.contains("<td><a href=\"#e0\">E</a></td><td>10</td>"),
            "{html}"
        );
        assert!(html.contains("<th title=\""), "{html}");
        assert!(
            Summary::of(&EventData::default())
                .sentence()
                .contains("No games")
        );
    }

    /// More engines than [`LISTED_ENGINES`]: the balances' median and range,
    /// and the EAS top three with the count.
    #[test]
    fn a_large_event_row_summarises_its_engines() {
        let mut s = Summary::of(&event());
        s.balances = (0..10)
            .map(|i| (format!("E{i}"), (i != 3).then_some(f64::from(i) / 4.0)))
            .collect();
        s.eas = (0..10).map(|i| (format!("E{i}"), 100 - i, None)).collect();
        let cells = s.cells();
        // Known: 0, 0.25, 0.5 (no 0.75), 1.0 … 2.25: nine, the fifth 1.25.
        assert_eq!(
            cells[5],
            "median 1.25 (0.00–2.25) of 9 engines with one; each in the balance table"
        );
        assert_eq!(
            cells[6],
            "1. E0 (100) · 2. E1 (99) · 3. E2 (98) · … 10 engines in the EAS table"
        );
        s.balances.truncate(LISTED_ENGINES);
        s.eas.truncate(LISTED_ENGINES);
        let cells = s.cells();
        assert!(cells[5].starts_with("E0 0.00 · E1 0.25 · E2 0.50 · E3 — · "));
        assert_eq!(cells[6].matches(" · ").count(), LISTED_ENGINES - 1);
        // A caveat every listed engine has is said once; one some have
        // stays with each of them.
        let few = Some("few wins or draws".to_string());
        s.eas = vec![("A".into(), 9, few.clone()), ("B".into(), 8, few.clone())];
        assert_eq!(s.cells()[6], "1. A (9) · 2. B (8); each: few wins or draws");
        s.eas[1].2 = None;
        assert_eq!(s.cells()[6], "1. A (9, few wins or draws) · 2. B (8)");
        s.eas.truncate(1);
        s.eas[0].2 = few.clone();
        assert_eq!(s.cells()[6], "1. A (9, few wins or draws)");
        // Engines beyond the list may not share it: each listed one says it.
        s.eas = (0..10)
            .map(|i| (format!("E{i}"), 100 - i, few.clone()))
            .collect();
        assert!(s.cells()[6].starts_with("1. E0 (100, few wins or draws) · 2. E1 (99, few"));
    }

    /// Without the pairs' Elo, the ratings' difference with the sum of the
    /// two errors; errors of 0 (replays that never vary) are no interval.
    #[test]
    fn the_ratings_difference_and_no_zero_interval() {
        let ratings = |err: [f64; 2]| {
            Some(Ok(Ratings {
                ratings: df!(
                    metric::ENGINE => ["A", "B<"],
                    rm::RATING => [2350.0f64, 2300.0],
                    rm::ERROR => err,
                )
                .unwrap(),
                summary: DataFrame::empty(),
                los: None,
            }))
        };
        let of = |err| {
            Summary::of(&EventData {
                pairs: DataFrame::empty(),
                ratings: ratings(err),
                ..event()
            })
        };
        assert_eq!(of([20.0, 25.0]).elo, Some((50.0, Some(45.0))));
        assert_eq!(of([20.0, 25.0]).cells()[3], "+50 ± 45");
        assert_eq!(of([0.0, 0.0]).elo, Some((50.0, None)));
        // No bare number under the "±" header: a dash and the reason.
        assert_eq!(
            of([0.0, 0.0]).cells()[3],
            "— (no interval: the replays never vary)"
        );
        assert!(
            of([0.0, 0.0])
                .sentence()
                .contains("; no Elo difference: no interval: the replays never vary;")
        );
    }

    /// Too few games, or a winner of all its games: a dash with the reason;
    /// a runner-up rated higher is said so; the level is the ratings' own.
    #[test]
    fn no_bare_elo_and_the_level_from_the_data() {
        let mut e = event();
        e.pairs = DataFrame::empty();
        e.standings = df!(
            metric::RANK => [1u32, 2],
            metric::ENGINE => ["A", "B<"],
            metric::GAMES => [2u32, 2],
            metric::WINS => [2u32, 0],
            metric::DRAWS => [0u32, 0],
            st::POINTS => [2.0f64, 0.0],
        )
        .unwrap();
        let ratings = |a: f64, err: f64, level: f64| {
            Some(Ok(Ratings {
                ratings: df!(
                    metric::ENGINE => ["A", "B<"],
                    rm::RATING => [a, 2300.0],
                    rm::ERROR => [err, err],
                )
                .unwrap(),
                summary: df!(rm::LEVEL => [level / 100.0]).unwrap(),
                los: None,
            }))
        };
        e.ratings = ratings(2493.0, 0.0, 95.0);
        assert_eq!(Summary::of(&e).cells()[3], "— (too few games (2))");
        e.standings = df!(
            metric::RANK => [1u32, 2],
            metric::ENGINE => ["A", "B<"],
            metric::GAMES => [12u32, 12],
            metric::WINS => [12u32, 0],
            metric::DRAWS => [0u32, 0],
            st::POINTS => [12.0f64, 0.0],
        )
        .unwrap();
        assert_eq!(Summary::of(&e).cells()[3], "— (all wins: no interval)");
        e.ratings = ratings(2280.0, 10.0, 90.0);
        let s = Summary::of(&e);
        assert_eq!(s.level, 90.0);
        assert_eq!(s.cells()[3], "-20 ± 20 (runner-up rated higher)");
        let html = table(&[("E", s)], true).unwrap();
        assert!(html.contains(">Elo difference (± 90 %)</th>"), "{html}");
    }

    /// The table of contents per season, test events last and folded,
    /// each event linking to its own section.
    #[test]
    fn toc_groups_by_season() {
        assert_eq!(toc_group("TCEC Season 9 - Stage 1a"), "Season 9");
        assert_eq!(toc_group("TCEC Cup 3 Round16"), "Cups");
        assert_eq!(toc_group("TCEC Season 20 Testing"), "Test and bonus events");
        assert_eq!(toc_group("CCC 1"), "Other events");
        let s = Summary::of(&event());
        let rows = [
            ("TCEC Season 9 - Stage 1", s.clone()),
            ("S9 test", s.clone()),
            ("TCEC Season 9 - Superfinal", s.clone()),
            ("TCEC Season 10 - Superfinal", s.clone()),
        ];
        let html = toc(&rows).unwrap();
        let at = |x: &str| html.find(x).unwrap_or_else(|| panic!("{x}: {html}"));
        assert!(
            at("<summary>Season 9: 2 events</summary>")
                < at("<summary>Season 10: 1 event</summary>")
        );
        assert!(
            at("<summary>Season 10: 1 event</summary>")
                < at("<details class=fold><summary>Test and bonus events: 1 event")
        );
        assert!(html.contains("<a href=\"#e2\">TCEC Season 9 - Superfinal</a>"));
        assert!(html.contains("<a href=\"#e1\">S9 test</a>"));
        assert!(html.contains("<details class=fold open><summary>Season 9"));
        // A season of one event each (the Superfinals): one table of them,
        // the test events still folded after it.
        let rows = [
            ("TCEC Season 4 - Superfinal", s.clone()),
            ("S9 test", s.clone()),
            ("TCEC Season 5 - Superfinal", s.clone()),
        ];
        let html = toc(&rows).unwrap();
        assert!(!html.contains("<summary>Season"), "{html}");
        assert_eq!(html.matches("<table").count(), 2);
        let at = |x: &str| html.find(x).unwrap_or_else(|| panic!("{x}: {html}"));
        assert!(at("<a href=\"#e0\">TCEC Season 4") < at("<a href=\"#e2\">TCEC Season 5"));
        assert!(at("<a href=\"#e2\">TCEC Season 5") < at("<details class=fold><summary>Test"));
    }

    /// A cup round (most pairs never met): "most points", no Elo of the top
    /// two; a round robin is a league.
    #[test]
    fn a_pairing_event_is_no_league() {
        let mut e = event();
        fn cell(v: [Option<&'static str>; 4]) -> Vec<Option<&'static str>> {
            v.to_vec()
        }
        e.crosstable = df!(
            metric::ENGINE => ["A", "B<", "C", "D"],
            "A" => cell([None, Some("0/2"), None, None]),
            "B<" => cell([Some("2/2"), None, None, None]),
            "C" => cell([None, None, None, Some("1/2")]),
            "D" => cell([None, None, Some("1/2"), None]),
        )
        .unwrap();
        let s = Summary::of(&e);
        // 4 of 12 ordered pairs met.
        assert!((s.met_share.unwrap() - 1.0 / 3.0).abs() < 1e-12);
        assert!(s.pairing());
        assert_eq!(s.cells()[1], "A (most points; pairing event)");
        assert_eq!(
            s.cells()[3],
            "— (pairing event: the top two are not compared)"
        );
        assert_eq!(
            s.sentence(),
            "<p class=answer>Most points: <b>A</b>, 6, then B&lt; with 4, in a knockout or \
             pairing event (only 33 % of the engine pairs met): the points rank no one; see \
             the crosstable and the game pairs; 60 % of the 10 games drawn.</p>"
        );
        e.crosstable = df!(
            metric::ENGINE => ["A", "B<", "C"],
            "A" => cell([None, Some("0/2"), Some("1/2"), None])[..3].to_vec(),
            "B<" => cell([Some("2/2"), None, Some("1/2"), None])[..3].to_vec(),
            "C" => cell([Some("1/2"), Some("1/2"), None, None])[..3].to_vec(),
        )
        .unwrap();
        assert!(!Summary::of(&e).pairing());
    }

    /// Pairs that leave games between the two unpaired give way to the
    /// ratings, whose difference the whole score made (TCEC - Match 1:
    /// 26.5–21.5, its 14 pairs even at 0 ± 86, 20 games in no pair).
    #[test]
    fn pairs_with_unpaired_games_give_way_to_the_ratings() {
        let with = |unpaired: u32| {
            let mut e = event();
            e.pairs = df!(
                metric::ENGINE => ["B<"],
                metric::OPPONENT => ["A"],
                pm::ELO => [0.0f64],
                pm::ELO_ERROR => [86.0f64],
                pm::UNPAIRED => [unpaired],
            )
            .unwrap();
            e.ratings = Some(Ok(Ratings {
                ratings: df!(
                    metric::ENGINE => ["A", "B<"],
                    rm::RATING => [2318.73f64, 2281.27],
                    rm::ERROR => [29.76f64, 29.76],
                )
                .unwrap(),
                summary: DataFrame::empty(),
                los: None,
            }));
            Summary::of(&e).cells()[3].clone()
        };
        assert_eq!(with(20), "+37 ± 60");
        // Its 0 the loser's way round is -0.0: shown +0.
        assert_eq!(with(0), "+0 ± 86");
    }
}
