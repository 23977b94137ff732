//! Ratings equal to Ordo 1.2.6's (`evallab ratings`): maximum-likelihood Elo
//! of all engines at once, white advantage and draw rate fitted or fixed,
//! errors and LOS by simulation, connectivity groups.
//! docs/definitions/ratings.md has the model and the numbered readings.
//!
//! The polars query only counts, per (White, Black), the wins, draws and
//! losses of the selected games; the rest is plain Rust: model.rs (the
//! probabilities), fit.rs (the equations), sparse.rs (their linear algebra),
//! ordo.rs (Ordo's own search, `--solver ordo`),
//! problem.rs (the encounters, who is rated, the connectivity groups) and
//! simulate.rs (errors).

pub mod fit;
pub mod model;
pub mod ordo;
pub mod problem;
pub mod simulate;
pub mod sparse;

use polars::prelude::*;

use self::fit::{Encounter, Kind, Problem, Reference, Settings, Solver, solve_fresh};
use self::simulate::{Samples, simulate};
use super::{Selection, matches};
use crate::Error;
use crate::schema::metric::ratings as m;
use crate::schema::{col, metric};

/// How `ratings` rates (defaults as `evallab ratings`).
#[derive(Debug, Clone)]
pub struct RatingOptions {
    /// Events and families; with an engine regex, only the games between
    /// two matching engines.
    pub selection: Selection,
    /// Elo difference that expects 76 % (Ordo's `-z`).
    pub scale: f64,
    /// White advantage in Elo; None fits it (`-W`).
    pub white: Option<f64>,
    /// Draw rate between equal engines, a fraction; None fits it (`-D`).
    pub draw: Option<f64>,
    /// The pool average (`-a`), or the anchor's rating with `anchor`.
    pub average: f64,
    /// The engine rated `average` (`-A`).
    pub anchor: Option<String>,
    /// Replays for the errors (`-s`); 0 or 1: no errors.
    pub simulations: usize,
    pub seed: u64,
    /// Redraws of a replay that Ordo would reject (R11; Ordo: 100).
    pub redraws: usize,
    /// Of the error intervals, a fraction (`-F`, 0.95).
    pub confidence: f64,
    /// Rate each connectivity group on its own instead of refusing.
    pub each_group: bool,
    /// Compute the full LOS matrix.
    pub los_matrix: bool,
    /// Newton to the root, or Ordo's own search (R8a).
    pub solver: Solver,
}

impl Default for RatingOptions {
    fn default() -> RatingOptions {
        RatingOptions {
            selection: Selection::default(),
            scale: 202.0,
            white: None,
            draw: None,
            average: 2300.0,
            anchor: None,
            simulations: 1000,
            seed: 1,
            redraws: 100,
            confidence: 0.95,
            each_group: false,
            los_matrix: false,
            solver: Solver::Newton,
        }
    }
}

/// The results: one row per engine, one summary row per group rated, and
/// the LOS matrix when asked for.
#[derive(Debug, Clone)]
pub struct Ratings {
    /// rank, engine, rating, error, points, played, score_pct, cfs_next,
    /// wins, draws, losses, group, kind, reason.
    pub ratings: DataFrame,
    /// group, engines, games, reference, white_advantage, white_sd,
    /// draw_rate_pct, draw_rate_sd_pct, bootstrap, level,
    /// disconnected_replays, solver, note.
    pub summary: DataFrame,
    /// engine, then one column per engine (same order, by group and rating):
    /// the confidence in % that the row's engine is stronger.
    pub los: Option<DataFrame>,
}

/// The selected games with a result as encounters, and the engine names
/// (sorted; an encounter's players index them).
pub fn encounters(
    games: LazyFrame,
    sel: &Selection,
) -> Result<(Vec<String>, Vec<Encounter>), PolarsError> {
    let mut lf = sel.games(games).filter(col(col::RESULT).is_in(
        lit(Series::new("r".into(), ["1-0", "1/2-1/2", "0-1"])).implode(false),
        false,
    ));
    if let Some(re) = &sel.engine {
        lf = lf.filter(matches(col(col::WHITE), re).and(matches(col(col::BLACK), re)));
    }
    let count = |r: &str, name: &str| {
        col(col::RESULT)
            .eq(lit(r))
            .cast(DataType::UInt32)
            .sum()
            .alias(name)
    };
    let df = lf
        .group_by([col(col::WHITE), col(col::BLACK)])
        .agg([
            count("1-0", metric::WINS),
            count("1/2-1/2", metric::DRAWS),
            count("0-1", metric::LOSSES),
        ])
        .sort([col::WHITE, col::BLACK], SortMultipleOptions::default())
        .collect()?;
    let white = df.column(col::WHITE)?.str()?;
    let black = df.column(col::BLACK)?.str()?;
    let mut names: Vec<String> = white
        .iter()
        .chain(black.iter())
        .flatten()
        .map(str::to_string)
        .collect();
    names.sort();
    names.dedup();
    let index = |s: &str| {
        names
            .binary_search_by(|n| n.as_str().cmp(s))
            .expect("a name") as u32
    };
    let (w, d, l) = (
        df.column(metric::WINS)?.u32()?,
        df.column(metric::DRAWS)?.u32()?,
        df.column(metric::LOSSES)?.u32()?,
    );
    let mut enc = Vec::with_capacity(df.height());
    for i in 0..df.height() {
        let (Some(wh), Some(bl)) = (white.get(i), black.get(i)) else {
            continue;
        };
        enc.push(Encounter {
            white: index(wh),
            black: index(bl),
            wins: w.get(i).unwrap_or(0),
            draws: d.get(i).unwrap_or(0),
            losses: l.get(i).unwrap_or(0),
        });
    }
    Ok((names, enc))
}

fn kind_name(k: Kind) -> &'static str {
    match k {
        Kind::Normal => "normal",
        Kind::AllWins => "all wins",
        Kind::AllLosses => "all losses",
        Kind::NoGames => "no games",
    }
}

/// One engine per row: its group (R9), how it is rated, points and games.
///
/// Columns: engine, group, group_size, kind, points, played.
pub fn groups(games: LazyFrame, sel: &Selection) -> Result<DataFrame, Error> {
    let (names, enc) = encounters(games, sel)?;
    let p = Problem::new(names.len(), enc);
    let g = p.attached_groups();
    let mut size = vec![0u32; p.n_groups];
    for x in g.iter().flatten() {
        size[*x] += 1;
    }
    let mut rows: Vec<usize> = (0..p.n).collect();
    rows.sort_by_key(|&i| (g[i].unwrap_or(usize::MAX), i));
    let df = df!(
        metric::ENGINE => rows.iter().map(|&i| names[i].clone()).collect::<Vec<_>>(),
        m::GROUP => rows.iter().map(|&i| g[i].map(|x| x as u32 + 1)).collect::<Vec<_>>(),
        m::GROUP_SIZE => rows.iter().map(|&i| g[i].map(|x| size[x])).collect::<Vec<_>>(),
        m::KIND => rows.iter().map(|&i| kind_name(p.kind[i])).collect::<Vec<_>>(),
        m::POINTS => rows.iter().map(|&i| p.points[i]).collect::<Vec<_>>(),
        m::PLAYED => rows.iter().map(|&i| p.played[i] as u32).collect::<Vec<_>>(),
    )?;
    Ok(df)
}

/// One row of the ratings table, before it becomes a frame.
struct Row {
    engine: String,
    rating: Option<f64>,
    error: Option<f64>,
    points: f64,
    played: f64,
    wdl: [u32; 3],
    group: Option<u32>,
    kind: Kind,
    cfs_next: Option<f64>,
    reason: Option<String>,
}

/// A group rated: its players (indices into the names), solution, samples.
struct Rated {
    /// Its number, as `groups` numbers it (1-based).
    group: u32,
    players: Vec<usize>,
    rating: Vec<f64>,
    samples: Option<Samples>,
    white: f64,
    draw: f64,
    /// One colour never won in the group's games.
    one_colour: bool,
    anchor: Option<usize>,
    games: f64,
}

/// Rates the selected games as Ordo does (R1–R12).
pub fn ratings(games: LazyFrame, opts: &RatingOptions) -> Result<Ratings, Error> {
    let (names, enc) = encounters(games, &opts.selection)?;
    if enc.is_empty() {
        return Err(Error::InputData(
            "ratings: no game with a result (1-0, 1/2-1/2, 0-1) in the selection".into(),
        ));
    }
    let anchor = match &opts.anchor {
        None => None,
        Some(a) => Some(names.iter().position(|n| n == a).ok_or_else(|| {
            Error::Usage(format!(
                "--anchor: no game of `{a}` in the selection (the name must match exactly, after --family){}",
                crate::metrics::closest_note(&crate::metrics::closest(a, &names))
            ))
        })?),
    };
    let all = Problem::new(names.len(), enc);
    let g = all.attached_groups();
    let n_groups = all.n_groups;
    if n_groups == 0 {
        return Err(Error::InputData(
            "ratings: no engine both scored and conceded points, so no rating difference is finite"
                .into(),
        ));
    }
    if n_groups > 1 && !opts.each_group {
        let mut size = vec![0usize; n_groups];
        for x in g.iter().flatten() {
            size[*x] += 1;
        }
        let sizes: Vec<String> = size.iter().take(8).map(|s| s.to_string()).collect();
        return Err(Error::InputData(format!(
            "ratings: the games do not connect the engines into one group ({n_groups} groups of {}{} engines): \
             ratings across groups are not identified. `--groups` lists them; `--each-group` rates each group on its own",
            sizes.join(", "),
            if n_groups > 8 { ", …" } else { "" }
        )));
    }
    let beta = model::beta(opts.scale);
    let z = model::confidence_z(opts.confidence);
    let mut rated: Vec<Rated> = Vec::new();
    let mut unrated: Vec<(usize, String)> = Vec::new();
    for group in 0..n_groups {
        let players: Vec<usize> = (0..all.n).filter(|&i| g[i] == Some(group)).collect();
        let anchor_here = anchor.filter(|a| g[*a] == Some(group));
        if anchor.is_some() && anchor_here.is_none() {
            for &i in &players {
                unrated.push((i, "not connected to the anchor's group".into()));
            }
            continue;
        }
        if players.len() < 2 || all.group.iter().filter(|x| **x == Some(group)).count() < 2 {
            for &i in &players {
                unrated.push((
                    i,
                    "alone in its group: no games tie it both ways to another engine".into(),
                ));
            }
            continue;
        }
        // The group's games as their own problem (indices local to the group).
        let mut local = vec![usize::MAX; all.n];
        for (k, &i) in players.iter().enumerate() {
            local[i] = k;
        }
        let sub: Vec<Encounter> = all
            .enc
            .iter()
            .filter(|e| {
                local[e.white as usize] != usize::MAX && local[e.black as usize] != usize::MAX
            })
            .map(|e| Encounter {
                white: local[e.white as usize] as u32,
                black: local[e.black as usize] as u32,
                ..*e
            })
            .collect();
        // R8's degenerate case: no win for one colour pins the draw rate at 100 %.
        let one_colour = sub.iter().all(|e| e.wins == 0) || sub.iter().all(|e| e.losses == 0);
        let p = Problem::new(players.len(), sub);
        let reference = match anchor_here {
            Some(a) => Reference::Anchor {
                player: local[a],
                rating: opts.average,
            },
            None => Reference::Average(opts.average),
        };
        let s = Settings {
            beta,
            white: opts.white,
            draw: opts.draw,
            reference,
            solver: opts.solver,
        };
        let (sol, ground) = solve_fresh(&p, &s).expect("a group has normal players");
        // Ordo's search stops somewhere even where the equations have no
        // finite solution; whether they have one is Newton's to say (R13).
        let bounded = sol.converged
            && (s.solver == Solver::Newton
                || solve_fresh(
                    &p,
                    &Settings {
                        solver: Solver::Newton,
                        ..s
                    },
                )
                .is_some_and(|(n, _)| n.converged));
        if !bounded {
            for &i in &players {
                unrated.push((
                    i,
                    "no finite solution: these games do not bound the ratings with a fitted white advantage (fix it with --white)".into(),
                ));
            }
            continue;
        }
        let samples = (opts.simulations > 1).then(|| {
            simulate(
                &p,
                &s,
                &sol,
                ground,
                opts.simulations,
                opts.seed.wrapping_add(group as u64),
                opts.redraws,
            )
        });
        rated.push(Rated {
            group: group as u32 + 1,
            players,
            rating: sol.rating,
            samples,
            white: sol.white,
            draw: sol.draw,
            one_colour,
            anchor: anchor_here.map(|a| local[a]),
            games: p.played.iter().sum::<f64>() / 2.0,
        });
    }
    let wdl = |i: usize| {
        let mut t = [0u32; 3];
        for e in &all.enc {
            if e.white as usize == i {
                t[0] += e.wins;
                t[1] += e.draws;
                t[2] += e.losses;
            } else if e.black as usize == i {
                t[0] += e.losses;
                t[1] += e.draws;
                t[2] += e.wins;
            }
        }
        t
    };
    let mut rows: Vec<Row> = Vec::new();
    // The LOS matrix's engines: (group, local index) in output order.
    let mut order: Vec<(usize, usize)> = Vec::new();
    for (gi, r) in rated.iter().enumerate() {
        let mut by: Vec<usize> = (0..r.players.len()).collect();
        by.sort_by(|&a, &b| r.rating[b].total_cmp(&r.rating[a]).then(a.cmp(&b)));
        for (pos, &k) in by.iter().enumerate() {
            let i = r.players[k];
            let error = r.samples.as_ref().and_then(|s| {
                let sd = s.sd(k);
                (sd > 1e-8).then_some(sd * z)
            });
            let cfs_next = by.get(pos + 1).and_then(|&next| {
                r.samples
                    .as_ref()
                    .and_then(|s| s.cfs(k, next, r.rating[k] - r.rating[next]))
            });
            rows.push(Row {
                engine: names[i].clone(),
                rating: Some(r.rating[k]),
                error,
                points: all.points[i],
                played: all.played[i],
                wdl: wdl(i),
                group: Some(r.group),
                kind: all.kind[i],
                cfs_next,
                reason: None,
            });
            order.push((gi, k));
        }
    }
    // Only an engine set aside (R6) whose opponents are in no one group has
    // none (every name played a game); it is listed all the same.
    for i in (0..all.n).filter(|&i| g[i].is_none()) {
        unrated.push((
            i,
            "won or lost every game and its opponents are in no one rated group: nothing to rate it against"
                .into(),
        ));
    }
    unrated.sort_by_key(|u| (g[u.0].is_none(), g[u.0], u.0));
    for (i, reason) in unrated {
        rows.push(Row {
            engine: names[i].clone(),
            rating: None,
            error: None,
            points: all.points[i],
            played: all.played[i],
            wdl: wdl(i),
            group: g[i].map(|x| x as u32 + 1),
            kind: all.kind[i],
            cfs_next: None,
            reason: Some(reason),
        });
    }
    let ratings = ratings_frame(&rows)?;
    let summary = summary_frame(&rated, opts, &names)?;
    let los = if opts.los_matrix {
        Some(los_frame(&rated, &order, &names)?)
    } else {
        None
    };
    Ok(Ratings {
        ratings,
        summary,
        los,
    })
}

fn ratings_frame(rows: &[Row]) -> Result<DataFrame, PolarsError> {
    let mut rank = 0u32;
    let ranks: Vec<Option<u32>> = rows
        .iter()
        .map(|r| {
            r.rating.map(|_| {
                rank += 1;
                rank
            })
        })
        .collect();
    df!(
        metric::RANK => ranks,
        metric::ENGINE => rows.iter().map(|r| r.engine.clone()).collect::<Vec<_>>(),
        m::RATING => rows.iter().map(|r| r.rating).collect::<Vec<_>>(),
        m::ERROR => rows.iter().map(|r| r.error).collect::<Vec<_>>(),
        m::POINTS => rows.iter().map(|r| r.points).collect::<Vec<_>>(),
        m::PLAYED => rows.iter().map(|r| r.played as u32).collect::<Vec<_>>(),
        m::SCORE_PCT => rows.iter().map(|r| 100.0 * r.points / r.played).collect::<Vec<_>>(),
        m::CFS_NEXT => rows.iter().map(|r| r.cfs_next.map(|c| 100.0 * c)).collect::<Vec<_>>(),
        metric::WINS => rows.iter().map(|r| r.wdl[0]).collect::<Vec<_>>(),
        metric::DRAWS => rows.iter().map(|r| r.wdl[1]).collect::<Vec<_>>(),
        metric::LOSSES => rows.iter().map(|r| r.wdl[2]).collect::<Vec<_>>(),
        m::GROUP => rows.iter().map(|r| r.group).collect::<Vec<_>>(),
        m::KIND => rows.iter().map(|r| kind_name(r.kind)).collect::<Vec<_>>(),
        metric::REASON => rows.iter().map(|r| r.reason.clone()).collect::<Vec<_>>(),
    )
}

fn summary_frame(
    rated: &[Rated],
    opts: &RatingOptions,
    names: &[String],
) -> Result<DataFrame, PolarsError> {
    let sd = |f: fn(&Samples) -> &Vec<f64>, orig: fn(&Rated) -> f64, fitted: bool| {
        rated
            .iter()
            .map(|r| {
                r.samples
                    .as_ref()
                    .filter(|_| fitted)
                    .map(|s| Samples::sd_with(f(s), orig(r)))
            })
            .collect::<Vec<_>>()
    };
    let white_sd = sd(|s| &s.white, |r| r.white, opts.white.is_none());
    let draw_sd = sd(|s| &s.draw, |r| r.draw, opts.draw.is_none());
    df!(
        m::GROUP => rated.iter().map(|r| r.group).collect::<Vec<_>>(),
        m::ENGINES => rated.iter().map(|r| r.players.len() as u32).collect::<Vec<_>>(),
        metric::GAMES => rated.iter().map(|r| r.games as u32).collect::<Vec<_>>(),
        m::REFERENCE => rated.iter().map(|r| match r.anchor {
            Some(a) => format!("{} = {}", names[r.players[a]], opts.average),
            None => format!("average {}", opts.average),
        }).collect::<Vec<_>>(),
        m::WHITE_ADVANTAGE => rated.iter().map(|r| r.white).collect::<Vec<_>>(),
        m::WHITE_SD => white_sd.into_iter().collect::<Vec<_>>(),
        m::DRAW_RATE => rated.iter().map(|r| 100.0 * r.draw).collect::<Vec<_>>(),
        m::DRAW_RATE_SD => draw_sd.into_iter().map(|x| x.map(|v| 100.0 * v)).collect::<Vec<_>>(),
        m::BOOTSTRAP => rated.iter().map(|r| r.samples.as_ref().map_or(0, |s| s.rating.len() as u32)).collect::<Vec<_>>(),
        m::LEVEL => vec![opts.confidence; rated.len()],
        m::DISCONNECTED => rated.iter().map(|r| r.samples.as_ref().map_or(0, |s| s.disconnected as u32)).collect::<Vec<_>>(),
        m::SOLVER => vec![solver_name(opts.solver); rated.len()],
        m::NOTE => rated.iter().map(|r| bound_note(r, opts)).collect::<Vec<_>>(),
    )
}

/// The `--solver` value.
pub fn solver_name(s: Solver) -> &'static str {
    match s {
        Solver::Newton => "newton",
        Solver::Ordo => "ordo",
    }
}

/// When one colour never won, the draw-rate equation holds at 100 % (R8).
/// Newton reports that bound, and every replay drawn from it again has no
/// win for that colour: the errors and CFS are conditional on that and
/// understate the uncertainty of a small sample. Ordo's search stops short
/// of the bound (R8a), where its replays sometimes give that colour a win:
/// the draw rate, errors and CFS are then where the search stopped.
fn bound_note(r: &Rated, opts: &RatingOptions) -> Option<String> {
    (opts.draw.is_none() && r.samples.is_some() && r.one_colour).then(|| {
        match opts.solver {
            Solver::Newton => {
                "draw rate at its 100 % bound (one colour never won): replays from this fit \
                 give that colour no win either and the errors and CFS understate the uncertainty"
            }
            Solver::Ordo => {
                "one colour never won: the draw rate is not identified (its equation holds at \
                 100 %); Ordo's search stops short of it, and the draw rate, errors and CFS are \
                 where that search stopped"
            }
        }
        .to_string()
    })
}

/// CFS of every pair in the same group (null across groups and on the diagonal).
fn los_frame(
    rated: &[Rated],
    order: &[(usize, usize)],
    names: &[String],
) -> Result<DataFrame, PolarsError> {
    use rayon::prelude::*;
    let name = |&(g, k): &(usize, usize)| names[rated[g].players[k]].clone();
    let cols: Vec<Vec<Option<f64>>> = order
        .par_iter()
        .map(|&(gc, kc)| {
            order
                .iter()
                .map(|&(gr, kr)| {
                    if gr != gc || kr == kc {
                        return None;
                    }
                    let r = &rated[gr];
                    let s = r.samples.as_ref()?;
                    s.cfs(kr, kc, r.rating[kr] - r.rating[kc])
                        .map(|c| 100.0 * c)
                })
                .collect()
        })
        .collect();
    let mut columns = vec![Column::new(
        metric::ENGINE.into(),
        order.iter().map(name).collect::<Vec<_>>(),
    )];
    for (c, v) in order.iter().zip(cols) {
        let header = crate::metrics::free_column_name(&name(c), |h| {
            columns.iter().any(|col| col.name().as_str() == h)
        });
        columns.push(Column::new(header.into(), v));
    }
    DataFrame::new(order.len(), columns)
}
