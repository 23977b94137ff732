//! The ratings as Ordo computes them (docs/definitions/ratings.md, R4–R8):
//! every engine's expected score equals its points, the white advantage makes
//! White's expected points equal White's points, the draw rate makes the
//! expected draws equal the draws, and engines that won (lost) every game are
//! rated afterwards where winning (losing) them all has even odds.
//!
//! Ordo reaches the equations by a damped coordinate search; they are the
//! score equations of a logistic likelihood, so Newton's method on the sparse
//! Hessian (sparse.rs) solves the same equations in a few steps.

use super::model::{draw_prob, expected, wdl};
use super::ordo;
pub use super::problem::{Encounter, Kind, Problem};
use super::sparse::{Factor, Matrix};

/// What fixes the ratings' offset (R5).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Reference {
    /// The engines rated together average this.
    Average(f64),
    /// This engine has this rating.
    Anchor { player: usize, rating: f64 },
}

impl Reference {
    fn value(&self) -> f64 {
        match *self {
            Reference::Average(v) | Reference::Anchor { rating: v, .. } => v,
        }
    }
}

/// How the equations are solved (`--solver`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Solver {
    /// Newton's method, to the root (R4–R8).
    #[default]
    Newton,
    /// Ordo's own search, stopped where Ordo stops (R8a, ordo.rs).
    Ordo,
}

impl crate::choice::Choice for Solver {
    const ALL: &'static [Self] = &[Solver::Newton, Solver::Ordo];
    fn name(self) -> &'static str {
        match self {
            Solver::Newton => "newton",
            Solver::Ordo => "ordo",
        }
    }
}
crate::display_choice!(Solver);

/// The model's settings: `white`/`draw` None are fitted.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Settings {
    pub beta: f64,
    pub white: Option<f64>,
    pub draw: Option<f64>,
    pub reference: Reference,
    pub solver: Solver,
}

/// Ratings of every player, the white advantage and the draw rate.
#[derive(Debug, Clone, PartialEq)]
pub struct Solution {
    pub rating: Vec<f64>,
    pub white: f64,
    pub draw: f64,
    /// Newton steps taken (Ordo's search: its rounds).
    pub steps: usize,
    /// Whether the steps became negligible: false when the equations have
    /// no finite solution (e.g. a fitted white advantage that the games
    /// do not bound) and the ratings run away.
    pub converged: bool,
}

/// Where the solver starts: ratings, white advantage, and optionally a
/// factored Hessian (over the same ground) to reuse instead of refactoring.
#[derive(Debug, Clone, Copy)]
pub struct Start<'a> {
    pub rating: &'a [f64],
    pub white: f64,
    pub ground: usize,
    pub factor: Option<&'a Factor>,
    /// Converged when no rating moves by more than this (Elo) in a step.
    pub tolerance: f64,
}

/// The fit's tolerance: far below any printed digit.
pub const TOLERANCE: f64 = 1e-9;
/// A replay's: its ratings only feed a spread of tens of Elo.
pub const REPLAY_TOLERANCE: f64 = 1e-3;

const MAX_STEPS: usize = 200;

/// Log-likelihood of the points (draws as half points, R4), its gradient
/// (Elo⁻¹; index n is the white advantage), and optionally the Hessian.
fn score(
    p: &Problem,
    beta: f64,
    fit_white: bool,
    r: &[f64],
    wa: f64,
    hessian: bool,
    likelihood: bool,
) -> (f64, Vec<f64>, Option<Matrix>) {
    let n = p.n;
    let mut ll = 0.0;
    let mut g = vec![0.0; n + 1];
    let mut h = hessian.then(|| Matrix::new(n + 1));
    for &(w, b, games, s) in &p.rated {
        let x = beta * (r[w] + wa - r[b]);
        // One exponential for both: p = 1/(1 + e⁻ˣ), ln p = −ln(1 + e⁻ˣ),
        // ln(1 − p) = −x − ln(1 + e⁻ˣ).
        let ex = (-x).exp();
        if likelihood {
            // ln(1 + e) by `ln`, about twice as fast as `ln_1p`; below 1e-8
            // the series' first term is exact to double precision.
            let lp = if !ex.is_finite() {
                -x
            } else if ex < 1e-8 {
                ex
            } else {
                (1.0 + ex).ln()
            };
            ll -= s * lp + (games - s) * (x + lp);
        }
        let pe = 1.0 / (1.0 + ex);
        let gi = beta * (s - games * pe);
        g[w] += gi;
        g[b] -= gi;
        if fit_white {
            g[n] += gi;
        }
        if let Some(m) = &mut h {
            let hi = beta * beta * games * pe * (1.0 - pe);
            m.add_diag(w, hi);
            m.add_diag(b, hi);
            m.add_off(w, b, -hi);
            if fit_white {
                m.add_diag(n, hi);
                m.add_off(w, n, hi);
                m.add_off(b, n, -hi);
            }
        }
    }
    (ll, g, h)
}

/// The variables the solver moves: the normal players but the ground, and
/// the white advantage when fitted.
fn moving(p: &Problem, ground: usize, fit_white: bool) -> Vec<bool> {
    let mut keep: Vec<bool> = (0..p.n).map(|i| p.active(i) && i != ground).collect();
    keep.push(fit_white);
    keep
}

/// The Hessian of all the games (super players included) at a solution:
/// the factor every simulation starts from.
pub fn full_factor(p: &Problem, s: &Settings, sol: &Solution, ground: usize) -> Factor {
    let everyone = p.everyone();
    let (_, _, h) = score(
        &everyone,
        s.beta,
        s.white.is_none(),
        &sol.rating,
        sol.white,
        true,
        false,
    );
    h.expect("asked for")
        .factor(&moving(&everyone, ground, s.white.is_none()), None)
}

/// Solves the rating equations of `p` (R4–R8) by `s.solver`.
pub fn solve(p: &Problem, s: &Settings, start: &Start) -> Solution {
    match s.solver {
        Solver::Newton => newton(p, s, start),
        Solver::Ordo => {
            // Ordo starts every fit and replay with everyone at the average.
            let from = vec![s.reference.value(); p.n];
            let white = s.white.unwrap_or(start.white);
            let stop = ordo::search(p, s.beta, &from, white, s.white.is_none(), s.draw.is_none());
            let draw = s.draw.or(stop.draw).unwrap_or(0.0);
            let finite = stop.rating.iter().all(|x| x.is_finite());
            finish(p, s, stop.rating, stop.white, draw, stop.rounds, finite)
        }
    }
}

/// Newton's method on the likelihood's score equations.
fn newton(p: &Problem, s: &Settings, start: &Start) -> Solution {
    let n = p.n;
    let fit_white = s.white.is_none();
    let mut r = start.rating.to_vec();
    let mut wa = s.white.unwrap_or(start.white);
    let keep = moving(p, start.ground, fit_white);
    let (mut ll, mut g, h) = score(p, s.beta, fit_white, &r, wa, start.factor.is_none(), true);
    let mut own: Option<Factor> = h.map(|h| h.factor(&keep, None));
    let mut last = f64::INFINITY;
    let mut steps = 0;
    let mut converged = false;
    while steps < MAX_STEPS {
        steps += 1;
        let f = own.as_ref().or(start.factor).expect("a factor");
        let mut d = g.clone();
        for (di, k) in d.iter_mut().zip(&keep) {
            if !k {
                *di = 0.0;
            }
        }
        f.solve(&mut d);
        for (di, k) in d.iter_mut().zip(&keep) {
            if !k {
                *di = 0.0;
            }
        }
        let norm = d.iter().fold(0.0f64, |m, x| m.max(x.abs()));
        if norm < start.tolerance {
            converged = true;
            break;
        }
        // Backtrack until the likelihood does not fall (it is concave); the
        // accepted point's gradient is the next step's. Steps under an Elo
        // are near the solution, where the quadratic model holds: taken
        // whole, without the likelihood's logarithms.
        let small = norm < 1.0;
        let mut t = 1.0;
        loop {
            let tr: Vec<f64> = r.iter().zip(&d).map(|(a, b)| a + t * b).collect();
            let twa = wa + t * d[n];
            let (tll, tg, _) = score(p, s.beta, fit_white, &tr, twa, false, !small);
            if small || tll >= ll - 1e-12 * ll.abs().max(1.0) || t < 1e-6 {
                (r, wa, g) = (tr, twa, tg);
                if !small {
                    ll = tll;
                }
                break;
            }
            t /= 2.0;
        }
        // A factor that stops paying (slow progress, or steps cut short by
        // the line search) is rebuilt here, at the current point: one
        // factoring costs about 10 steps with an old one, so a replay keeps
        // the fit's factor longer.
        let slow = if start.factor.is_some() { 0.9 } else { 0.7 };
        if t < 0.25 || norm > slow * last {
            let (_, _, h) = score(p, s.beta, fit_white, &r, wa, true, false);
            own = h.map(|h| h.factor(&keep, own.as_ref().or(start.factor)));
        }
        last = norm;
    }
    let draw = s.draw.unwrap_or_else(|| fit_draw(p, s.beta, &r, wa));
    finish(p, s, r, wa, draw, steps, converged)
}

/// Offset, draw rate and the players rated afterwards (R5, R7, R8).
fn finish(
    p: &Problem,
    s: &Settings,
    mut r: Vec<f64>,
    wa: f64,
    draw: f64,
    steps: usize,
    converged: bool,
) -> Solution {
    let n = p.n;
    if let Reference::Average(avg) = s.reference {
        let normal: Vec<usize> = (0..n).filter(|&i| p.active(i)).collect();
        if !normal.is_empty() {
            let mean = normal.iter().map(|&i| r[i]).sum::<f64>() / normal.len() as f64;
            for &i in &normal {
                r[i] += avg - mean;
            }
        }
    }
    for (i, ri) in r.iter_mut().enumerate() {
        if !p.active(i) {
            *ri = s.reference.value();
        }
    }
    // Their opponents, in one pass: (player, opponent, games, as White).
    let mut opp: Vec<Vec<(usize, f64, bool)>> = vec![Vec::new(); n];
    for e in &p.enc {
        let (w, b) = (e.white as usize, e.black as usize);
        if p.kind[w] != Kind::Normal {
            opp[w].push((b, e.games(), true));
        }
        if p.kind[b] != Kind::Normal {
            opp[b].push((w, e.games(), false));
        }
    }
    for i in 0..n {
        if p.kind[i] == Kind::NoGames {
            r[i] = f64::NAN;
        } else if p.kind[i] != Kind::Normal {
            let against: Vec<(f64, f64)> = opp[i]
                .iter()
                .map(|&(o, games, white)| (if white { r[o] - wa } else { r[o] + wa }, games))
                .collect();
            r[i] = rate_alone(p.kind[i] == Kind::AllWins, &against, draw, s.beta);
        }
    }
    if let Reference::Anchor { player, rating } = s.reference {
        // An anchor without games (left out of a replay) shifts nobody.
        if p.kind[player] != Kind::NoGames {
            let shift = rating - r[player];
            r.iter_mut().for_each(|x| *x += shift);
        }
    }
    Solution {
        rating: r,
        white: wa,
        draw,
        steps,
        // Ordo searches the white advantage within ±1000 Elo (rating.c
        // adjust_wadv); beyond, the probabilities saturate and the steps
        // vanish without a solution.
        converged: converged && wa.abs() < 1000.0,
    }
}

/// The draw rate between equals that expects as many draws as were played
/// among the normal players (R8).
pub fn fit_draw(p: &Problem, beta: f64, r: &[f64], wa: f64) -> f64 {
    let games: Vec<(f64, f64)> = p
        .rated_encounters()
        .map(|e| {
            let pe = expected(r[e.white as usize] + wa - r[e.black as usize], beta);
            (pe, e.games())
        })
        .collect();
    let draws: f64 = p.rated_encounters().map(|e| f64::from(e.draws)).sum();
    if draws == 0.0 {
        return 0.0;
    }
    let excess = |d0: f64| {
        games
            .iter()
            .map(|&(pe, n)| n * draw_prob(pe, d0))
            .sum::<f64>()
            - draws
    };
    illinois(0.0, 1.0, excess)
}

/// The root of an increasing `f` on [lo, hi] by regula falsi (Illinois),
/// to 1e-13.
fn illinois(mut lo: f64, mut hi: f64, f: impl Fn(f64) -> f64) -> f64 {
    let (mut flo, mut fhi) = (f(lo), f(hi));
    if flo >= 0.0 {
        return lo;
    }
    if fhi <= 0.0 {
        return hi;
    }
    let mut side = 0;
    for _ in 0..200 {
        let x = (lo * fhi - hi * flo) / (fhi - flo);
        let fx = f(x);
        if fx == 0.0 || hi - lo < 1e-13 {
            return x;
        }
        if fx < 0.0 {
            (lo, flo) = (x, fx);
            if side == -1 {
                fhi /= 2.0;
            }
            side = -1;
        } else {
            (hi, fhi) = (x, fx);
            if side == 1 {
                flo /= 2.0;
            }
            side = 1;
        }
        if (hi - lo).abs() < 1e-13 {
            break;
        }
    }
    (lo + hi) / 2.0
}

/// The rating at which a player who won (lost) every game had even odds of
/// doing so, against its opponents as rated (R7, Ordo's indiv.c): `opp` is
/// (opponent's rating less the player's colour advantage, games).
fn rate_alone(wins: bool, opp: &[(f64, f64)], d0: f64, beta: f64) -> f64 {
    let log_odds = |x: f64| {
        opp.iter()
            .map(|&(o, n)| {
                let (w, _, l) = wdl(x - o, d0, beta);
                n * if wins { w } else { l }.ln()
            })
            .sum::<f64>()
    };
    let lo = opp.iter().map(|o| o.0).fold(f64::INFINITY, f64::min) - 5000.0;
    let hi = opp.iter().map(|o| o.0).fold(f64::NEG_INFINITY, f64::max) + 5000.0;
    let half = 0.5f64.ln();
    // P(all wins) rises with x; P(all losses) falls.
    bisect(lo, hi, |x| (log_odds(x) < half) == wins)
}

/// The boundary in [lo, hi] where `below` turns false.
fn bisect(mut lo: f64, mut hi: f64, below: impl Fn(f64) -> bool) -> f64 {
    for _ in 0..200 {
        let mid = (lo + hi) / 2.0;
        if mid == lo || mid == hi {
            break;
        }
        if below(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    (lo + hi) / 2.0
}

/// Solves `p` from scratch: everyone at the reference, white advantage 0
/// (or as fixed). None when nobody can be rated together.
pub fn solve_fresh(p: &Problem, s: &Settings) -> Option<(Solution, usize)> {
    let ground = p.ground()?;
    let start = vec![s.reference.value(); p.n];
    let sol = solve(
        p,
        s,
        &Start {
            rating: &start,
            white: s.white.unwrap_or(0.0),
            ground,
            factor: None,
            tolerance: TOLERANCE,
        },
    );
    Some((sol, ground))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::super::model::beta;
    use super::*;

    pub(crate) fn e(white: u32, black: u32, wins: u32, draws: u32, losses: u32) -> Encounter {
        Encounter {
            white,
            black,
            wins,
            draws,
            losses,
        }
    }

    fn settings(white: Option<f64>, draw: Option<f64>, reference: Reference) -> Settings {
        Settings {
            beta: beta(202.0),
            white,
            draw,
            reference,
            solver: Solver::Newton,
        }
    }

    fn run(n: usize, enc: Vec<Encounter>, s: &Settings) -> Solution {
        solve_fresh(&Problem::new(n, enc), s).unwrap().0
    }

    /// Two players, A scores 7/10 (5 wins, 4 draws, 1 loss), colours
    /// balanced, no white advantage: the ML difference is the logit of 0.7,
    /// 175.25 · ln(7/3) = 148.49 Elo, split ±74.24 around the average.
    #[test]
    fn two_players_closed_form() {
        let enc = vec![e(0, 1, 3, 2, 0), e(1, 0, 1, 2, 2)];
        let s = settings(Some(0.0), Some(0.5), Reference::Average(2300.0));
        let sol = run(2, enc, &s);
        let diff = (7.0f64 / 3.0).ln() / beta(202.0);
        assert!((diff - 148.49).abs() < 0.01, "{diff}");
        assert!(
            (sol.rating[0] - (2300.0 + diff / 2.0)).abs() < 1e-6,
            "{sol:?}"
        );
        assert!((sol.rating[1] - (2300.0 - diff / 2.0)).abs() < 1e-6);
        // Anchored on B at 3000: the same difference, shifted.
        let s = settings(
            Some(0.0),
            Some(0.5),
            Reference::Anchor {
                player: 1,
                rating: 3000.0,
            },
        );
        let sol = run(2, vec![e(0, 1, 3, 2, 0), e(1, 0, 1, 2, 2)], &s);
        assert!((sol.rating[1] - 3000.0).abs() < 1e-9);
        assert!((sol.rating[0] - 3000.0 - diff).abs() < 1e-6);
    }

    /// Equal players (each scores 50 % in total), White scores 60 % of
    /// White's points: the fitted white advantage is logit(0.6) = 71.06 Elo
    /// and the ratings stay equal.
    #[test]
    fn white_advantage_on_a_constructed_set() {
        // A-B and B-A: 6 of 10 points to White each way (4 wins, 4 draws, 2 losses).
        let enc = vec![e(0, 1, 4, 4, 2), e(1, 0, 4, 4, 2)];
        let s = settings(None, None, Reference::Average(0.0));
        let sol = run(2, enc, &s);
        let wa = (0.6f64 / 0.4).ln() / beta(202.0);
        assert!((sol.white - wa).abs() < 1e-6, "{} vs {wa}", sol.white);
        assert!((wa - 71.06).abs() < 0.01);
        assert!(sol.rating[0].abs() < 1e-6 && sol.rating[1].abs() < 1e-6);
        // Draw rate: 8 draws of 20 at expected score 0.6 for White in every
        // game: d0 solves d(0.6, d0) = 0.4, by the model's formula.
        let d = draw_prob(0.6, sol.draw);
        assert!((d - 0.4).abs() < 1e-9, "{d}");
    }

    /// Three players: A beats everyone once and draws; C loses everything.
    /// C is rated afterwards where losing all its games has even odds.
    #[test]
    fn all_losses_is_rated_at_even_odds() {
        let enc = vec![e(0, 1, 1, 2, 1), e(0, 2, 2, 0, 0), e(2, 1, 0, 0, 2)];
        let s = settings(Some(0.0), Some(0.4), Reference::Average(2000.0));
        let p = Problem::new(3, enc);
        assert_eq!(p.kind, [Kind::Normal, Kind::Normal, Kind::AllLosses]);
        let sol = solve_fresh(&p, &s).unwrap().0;
        // A and B are equal (2/4 each between them) and average 2000.
        assert!((sol.rating[0] - 2000.0).abs() < 1e-6);
        assert!((sol.rating[1] - 2000.0).abs() < 1e-6);
        // C lost 4 games to 2000-rated players: P(loss)^4 = 1/2.
        let (_, _, l) = wdl(sol.rating[2] - 2000.0, 0.4, beta(202.0));
        assert!((l.powi(4) - 0.5).abs() < 1e-9, "{}", l.powi(4));
        assert!(sol.rating[2] < 2000.0);
    }

    /// The pool average is the average of the normal players only.
    #[test]
    fn anchor_vs_average_is_a_shift() {
        let enc = vec![
            e(0, 1, 2, 3, 1),
            e(1, 2, 1, 4, 1),
            e(2, 0, 0, 3, 2),
            e(1, 0, 1, 1, 1),
        ];
        let avg = run(
            3,
            enc.clone(),
            &settings(None, None, Reference::Average(2300.0)),
        );
        let anch = run(
            3,
            enc,
            &settings(
                None,
                None,
                Reference::Anchor {
                    player: 2,
                    rating: 1000.0,
                },
            ),
        );
        let mean = avg.rating.iter().sum::<f64>() / 3.0;
        assert!((mean - 2300.0).abs() < 1e-9);
        let shift = 1000.0 - avg.rating[2];
        for i in 0..3 {
            assert!((anch.rating[i] - avg.rating[i] - shift).abs() < 1e-6);
        }
        assert!((anch.white - avg.white).abs() < 1e-9);
        assert!((anch.draw - avg.draw).abs() < 1e-12);
        // The equations hold: expected points = points for everyone.
        let p = Problem::new(
            3,
            vec![
                e(0, 1, 2, 3, 1),
                e(1, 2, 1, 4, 1),
                e(2, 0, 0, 3, 2),
                e(1, 0, 1, 1, 1),
            ],
        );
        let (_, g, _) = score(&p, beta(202.0), true, &avg.rating, avg.white, false, false);
        assert!(g.iter().all(|x| x.abs() < 1e-9), "{g:?}");
    }

    /// White won twice, the one game with colours reversed was drawn: with a
    /// fitted white advantage, White's expected score must be 1: no finite
    /// solution, and the solver says so.
    #[test]
    fn an_unbounded_white_advantage_does_not_converge() {
        let enc = vec![e(0, 1, 2, 0, 0), e(1, 0, 0, 1, 0)];
        let p = Problem::new(2, enc.clone());
        assert_eq!(p.n_groups, 1);
        let sol = solve_fresh(&p, &settings(None, None, Reference::Average(0.0)))
            .unwrap()
            .0;
        assert!(!sol.converged);
        // With the white advantage fixed the same games are rated.
        let sol = run(2, enc, &settings(Some(0.0), None, Reference::Average(0.0)));
        assert!(sol.converged);
    }

    /// A factor from another point converges to the same solution.
    #[test]
    fn a_reused_factor_gives_the_same_solution() {
        let enc = vec![
            e(0, 1, 2, 3, 1),
            e(1, 2, 1, 4, 1),
            e(2, 0, 0, 3, 2),
            e(3, 0, 1, 1, 1),
            e(2, 3, 0, 2, 0),
        ];
        let s = settings(None, None, Reference::Average(2300.0));
        let p = Problem::new(4, enc);
        let (sol, ground) = solve_fresh(&p, &s).unwrap();
        let flat = Solution {
            rating: vec![2300.0; 4],
            white: 0.0,
            ..sol.clone()
        };
        let f = full_factor(&p, &s, &flat, ground);
        let again = solve(
            &p,
            &s,
            &Start {
                rating: &flat.rating,
                white: 0.0,
                ground,
                factor: Some(&f),
                tolerance: TOLERANCE,
            },
        );
        for i in 0..4 {
            assert!((again.rating[i] - sol.rating[i]).abs() < 1e-6);
        }
    }
}
