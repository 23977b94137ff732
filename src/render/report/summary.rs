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
use crate::render::escape;
use crate::schema::metric::{self, pairs as pm, ratings as rm, standings as st};
use crate::schema::outputs::{Quantity, SUMMARY};

/// An event in a few numbers.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Summary {
    pub games: u64,
    /// First and second in the standings, with their points.
    pub winner: Option<(String, f64)>,
    pub runner_up: Option<(String, f64)>,
    /// The winner's Elo over the runner-up and its 95 % error, when known.
    pub elo: Option<(f64, Option<f64>)>,
    pub draw_pct: Option<f64>,
    /// Each engine's balance (pawns), as the balance table lists them.
    pub balances: Vec<(String, Option<f64>)>,
    /// The engines in EAS order with their scores.
    pub eas: Vec<(String, i64)>,
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
        let elo = match (&winner, &runner_up) {
            // The pairs' Elo without an error (a score of 0 or 100 % in
            // reach) yields to the ratings' difference with one. So does a
            // pairs' Elo that leaves some of their games unpaired: it would
            // contradict the score beside it (TCEC - Match 1: 26.5–21.5, its
            // 14 pairs exactly even, 20 games in none).
            (Some((w, _)), Some((r, _))) => {
                let pairs = pairs_elo(&e.pairs, w, r);
                pairs
                    .filter(|(_, err)| err.is_some())
                    .or_else(|| ratings_elo(e.ratings.as_ref(), w, r))
                    .or(pairs)
            }
            _ => None,
        };
        let balances = strings(&e.balance, metric::ENGINE)
            .into_iter()
            .zip(floats(&e.balance, metric::BALANCE))
            .collect();
        let eas = strings(&e.eas, "engine")
            .into_iter()
            .zip(floats(&e.eas, "eas"))
            .map(|(n, v)| (n, v.unwrap_or(0.0) as i64))
            .collect();
        Summary {
            games: games as u64,
            winner,
            runner_up,
            elo,
            draw_pct: (games > 0.0).then(|| draws / games * 100.0),
            balances,
            eas,
        }
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
        let list = |v: Vec<String>| {
            if v.is_empty() {
                "—".to_string()
            } else {
                v.join(" · ")
            }
        };
        vec![
            self.games.to_string(),
            name(&self.winner).unwrap_or_else(|| "—".into()),
            score,
            elo,
            self.draw_pct.map_or("—".into(), |d| fmt("draw_pct", d)),
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
            ),
            list(
                self.eas
                    .iter()
                    .enumerate()
                    .map(|(i, (n, v))| format!("{}. {} ({v})", i + 1, escape(n)))
                    .collect(),
            ),
        ]
    }

    /// The Elo difference with its sign, a plus too (one that rounds to
    /// zero is +0, not -0), and its error when known.
    fn elo_text(&self) -> Option<String> {
        let fmt = |v| Quantity::format(SUMMARY.get("elo_difference").expect("a column"), v);
        let (d, err) = self.elo?;
        let s = fmt(d);
        let signed = match s.strip_prefix('-') {
            Some(m) if m.bytes().any(|b| matches!(b, b'1'..=b'9')) => s,
            Some(m) => format!("+{m}"),
            None => format!("+{s}"),
        };
        Some(match err {
            Some(err) => format!("{signed} ± {}", fmt(err)),
            None => signed,
        })
    }

    /// One sentence: who won, by how much, and how drawish.
    pub fn sentence(&self) -> String {
        let Some((w, wp)) = &self.winner else {
            return "<p class=answer>No games with a result.</p>".into();
        };
        let mut s = format!("<p class=answer><b>{}</b> won with {wp} points", escape(w));
        if let Some((r, rp)) = &self.runner_up {
            let _ = write!(s, ", {} second with {rp}", escape(r));
        }
        if let Some(elo) = self.elo_text() {
            let _ = write!(s, "; Elo difference {elo}");
        }
        if let Some(d) = self.draw_pct {
            let _ = write!(s, "; {d:.0} % of the {} games drawn", self.games);
        }
        s.push_str(".</p>");
        s
    }
}

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
/// that holds however they correlate (in a pool of two they are opposite).
fn ratings_elo(
    r: Option<&Result<Ratings, String>>,
    w: &str,
    ru: &str,
) -> Option<(f64, Option<f64>)> {
    let r = r?.as_ref().ok()?;
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
    Some((d, err))
}

/// The summary table: with `link` one row per event, its name linking to its
/// section (the page's table of contents); without, the event's own row.
pub fn table(rows: &[(&str, Summary)], link: bool) -> Result<String, Error> {
    let names: Vec<&str> = SUMMARY
        .columns
        .iter()
        .map(|c| c.name)
        .filter(|n| link || *n != "event")
        .collect();
    let mut html = String::from("<table class=summary><thead><tr>");
    for h in Header::all(&SUMMARY, &names)? {
        html.push_str(&h.th());
    }
    html.push_str("</tr></thead><tbody>");
    for (i, (event, s)) in rows.iter().enumerate() {
        html.push_str("<tr>");
        if link {
            let _ = write!(html, "<td><a href=\"#e{i}\">{}</a></td>", escape(event));
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
            eas: df!("engine" => ["B<", "A"], "eas" => [120i64, 80]).unwrap(),
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
                "1. B&lt; (120) · 2. A (80)"
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
        assert_eq!(of([0.0, 0.0]).cells()[3], "+50");
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
