//! Ordo 1.2.6's own search (`rating.c` `calc_rating_ordo`, `fit1d.c`), for
//! `--solver ordo` (docs/definitions/ratings.md, R8a).
//!
//! Newton (fit.rs) solves the rating equations to their root. Ordo reaches
//! them by a damped coordinate search that alternates the ratings with the
//! white advantage for at most four cycles and fits the draw rate by a
//! line search; where the equations are nearly flat (one colour never won)
//! it stops before the root, and its printed white advantage, draw rate and
//! errors are those of where it stopped. This module repeats that search
//! step for step, so that such figures equal Ordo's too. Its constants and
//! control flow are Ordo's; the comments name the C functions.

use super::problem::Problem;

const START_DELTA: f64 = 100.0;
const MIN_DEVIA: f64 = 0.000_000_1;
const MIN_RESOL: f64 = 0.000_001;
const START_RESOL: f64 = 10.0;
const ACCEPTABLE_RESOL: f64 = MIN_RESOL;
const DRAWRATE_RESOLUTION: f64 = 0.000_000_1;
/// fit1d.c: a parabola through points closer than this is not fitted.
const EPSILON: f64 = 1e-7;

/// Where Ordo's search stopped: ratings (the normal players'; others as
/// given), white advantage, the draw rate when fitted, and the rounds run.
pub struct Stop {
    pub rating: Vec<f64>,
    pub white: f64,
    pub draw: Option<f64>,
    pub rounds: usize,
}

/// A replayed game's (P(White wins), P(White wins or draws)) as Ordo draws
/// it (`sim.c` `simulate_scores`): `get_pWDL`'s probabilities, compared
/// with a 16-bit random number (`rand_threeway_wscore`), so each threshold
/// is floored to a multiple of 1/65,536. A loss of probability 10⁻⁷ then
/// happens once in 65,536 games: on Season 9's Superfinal (Black never won,
/// draw rate 99.92 %) that gives Black a win in a few of 1,000 replays,
/// which is most of the spread of Ordo's replayed draw rates.
pub fn replay_odds(diff: f64, d0: f64, beta: f64) -> (f64, f64) {
    let (w, d, _) = get_pwdl(diff, d0, beta);
    let floor16 = |p: f64| (p * 65536.0).floor() / 65536.0;
    (floor16(w), floor16(w + d))
}

/// `get_pWDL`: (win, draw, loss) for a side `diff` Elo stronger. Above a
/// 99 % draw rate Ordo computes the loss first, by a formula whose
/// rounding decides whether a loss is possible at all in a replay.
fn get_pwdl(diff: f64, d0: f64, beta: f64) -> (f64, f64, f64) {
    const MINPROB: f64 = 1e-32;
    let perf = xpect(diff.abs(), 0.0, beta);
    let calc = |p: f64| {
        let a = (1.0 - 2.0 * d0) / (d0 * d0);
        ((1.0 - a * 4.0 * (p * p - p)).sqrt() - 1.0) / a
    };
    let (mut plos, mut pdra, pwin);
    if d0 < 0.00001 {
        pdra = 2.0 * d0 * (perf - perf * perf).sqrt() - d0 * d0;
        plos = 1.0 - perf - pdra / 2.0;
        pwin = 1.0 - plos - pdra;
    } else if d0 < 0.99 {
        pdra = if (0.49999..0.50001).contains(&d0) {
            draw_rate_fperf(perf, d0)
        } else {
            calc(perf)
        };
        plos = 1.0 - perf - pdra / 2.0;
        pwin = 1.0 - plos - pdra;
    } else {
        let x = perf - 0.5;
        let a = (1.0 - 2.0 * d0) / (d0 * d0);
        plos = 0.5 - x + 0.5 * ((1.0 - (1.0 + a - 4.0 * a * x * x).sqrt()) / a);
        if plos < MINPROB {
            plos = MINPROB;
        }
        pdra = 2.0 * (1.0 - perf - plos);
        pwin = 1.0 - plos - pdra;
    }
    if plos < MINPROB {
        plos = MINPROB;
    }
    if pdra < MINPROB {
        pdra = MINPROB;
    }
    if diff < 0.0 {
        (plos, pdra, pwin)
    } else {
        (pwin, pdra, plos)
    }
}

/// `xpect`: White's expected score.
fn xpect(a: f64, b: f64, beta: f64) -> f64 {
    1.0 / (1.0 + ((b - a) * beta).exp())
}

/// `draw_rate_fperf`: Ordo's draw probability at expected score `p`, with
/// its Newton iteration (to 1e-7) near d0 = ½ and d0 = 1. That iteration's
/// error is what leaves the draw-rate search a plateau near 100 %, so it
/// is kept rather than model.rs's closed form.
fn draw_rate_fperf(p: f64, d0: f64) -> f64 {
    if d0 < 0.0001 {
        return 2.0 * d0 * (p - p * p).sqrt() - d0 * d0;
    }
    let fi = (1.0 - d0) / (2.0 * d0);
    let c = 4.0 * (p * p - p);
    let b = 2.0;
    let a = 4.0 * fi * fi - 1.0;
    if d0 < 1.0 - 0.0001 && !(0.4999..=0.5001).contains(&d0) {
        return ((b * b - 4.0 * a * c).sqrt() - b) / (2.0 * a);
    }
    let mut newx = 0.0;
    loop {
        let x = newx;
        let y = c + b * x + a * x * x;
        let dy = b + 2.0 * a * x;
        newx = x - y / dy;
        if (newx - x).abs() <= 0.000_000_1 {
            return newx;
        }
    }
}

/// The games among the normal players, as Ordo's loop sees them
/// (`ENCOUNTERS_NOFLAGGED`).
struct Games<'a> {
    enc: &'a [(usize, usize, f64, f64)],
    beta: f64,
    /// Players the loop moves: normal, with games among the normal ones.
    moving: Vec<bool>,
    obtained: Vec<f64>,
    played: Vec<f64>,
    /// Every game of the problem (Ordo's `g->n`, the deviation's scale).
    n_games: f64,
    draws: f64,
}

impl Games<'_> {
    /// `calc_expected`, then `deviation`: Σ (expected − obtained)² / played.
    fn unfitness(&self, r: &[f64], wa: f64, expected: &mut [f64]) -> f64 {
        expected.fill(0.0);
        for &(w, b, t, _) in self.enc {
            let wperf = t * xpect(r[w] + wa, r[b], self.beta);
            expected[b] += t - wperf;
            expected[w] += wperf;
        }
        (0..r.len())
            .filter(|&j| self.moving[j])
            .map(|j| {
                let d = expected[j] - self.obtained[j];
                d * d / self.played[j]
            })
            .sum()
    }

    /// `overallerrorE_fwadv`: (White's expected − obtained points)² / games.
    fn unfit_white(&self, r: &[f64], wa: f64) -> f64 {
        let (mut cal, mut obt, mut tot) = (0.0, 0.0, 0.0);
        for &(w, b, t, s) in self.enc {
            obt += s;
            cal += xpect(r[w] + wa, r[b], self.beta) * t;
            tot += t;
        }
        (cal - obt) * (cal - obt) / tot
    }

    /// `overallerrorE_fdrawrate`: (expected − played draws)².
    fn unfit_draw(&self, r: &[f64], wa: f64, d0: f64) -> f64 {
        let cal: f64 = self
            .enc
            .iter()
            .map(|&(w, b, t, _)| draw_rate_fperf(xpect(r[w] + wa, r[b], self.beta), d0) * t)
            .sum();
        (cal - self.draws) * (cal - self.draws)
    }

    /// `adjust_rating`: each player moves by up to `delta` towards its
    /// points; returns the largest move.
    fn adjust_rating(&self, delta: f64, kappa: f64, expected: &[f64], r: &mut [f64]) -> f64 {
        let mut ymax = 0.0f64;
        for j in (0..r.len()).filter(|&j| self.moving[j]) {
            let d = ((expected[j] - self.obtained[j]) / self.played[j]).abs();
            let y = d / (kappa + d);
            ymax = ymax.max(y);
            if expected[j] > self.obtained[j] {
                r[j] -= delta * y;
            } else {
                r[j] += delta * y;
            }
        }
        ymax * delta
    }

    /// `adjust_wadv`.
    fn adjust_white(&self, start: f64, r: &[f64], start_delta: f64) -> f64 {
        let f = |x: f64| self.unfit_white(r, x);
        let (mut delta, mut wa) = (start_delta, start);
        loop {
            let (ei, ej, ek) = (f(wa - delta), f(wa), f(wa + delta));
            if ei >= ej && ej <= ek {
                return quadfit1d(MIN_RESOL, wa - delta, wa + delta, &f);
            } else if ej >= ei && ei <= ek {
                wa -= delta;
                delta *= 1.5;
            } else if ei >= ek && ek <= ej {
                wa += delta;
                delta *= 1.5;
            } else {
                return wa; // a NaN: no games to fit it on
            }
            if !(delta > MIN_RESOL && -1000.0 < wa && wa < 1000.0) {
                return wa;
            }
        }
    }

    /// `adjust_drawrate`: always from 50 % ± 50 %, whatever the last value.
    fn adjust_draw(&self, wa: f64, r: &[f64]) -> f64 {
        let f = |x: f64| self.unfit_draw(r, wa, x);
        let (mut delta, mut dr) = (0.5, 0.5);
        loop {
            let (ei, ej, ek) = (f(dr - delta), f(dr), f(dr + delta));
            if ei >= ej && ej <= ek {
                return quadfit1d(DRAWRATE_RESOLUTION, dr - delta, dr + delta, &f);
            } else if ej >= ei && ei <= ek {
                dr -= delta;
                delta *= 1.1;
            } else if ei >= ek && ek <= ej {
                dr += delta;
                delta *= 1.1;
            } else {
                return dr; // a NaN: no games to fit it on
            }
            let hi = (dr + delta).min(1.0);
            let lo = (dr - delta).max(0.0);
            dr = (hi + lo) / 2.0;
            delta = (hi - lo) / 2.0;
            if delta <= DRAWRATE_RESOLUTION {
                return dr;
            }
        }
    }
}

/// `calc_rating_ordo` for one reference-free problem (the offset is set
/// afterwards by fit.rs, as Ordo's `correct_excess` and
/// `adjust_rating_byanchor` only shift): from `rating` and `white`, with
/// the white advantage and draw rate fitted where `fit_white`/`fit_draw`.
pub fn search(
    p: &Problem,
    beta: f64,
    rating: &[f64],
    white: f64,
    fit_white: bool,
    fit_draw: bool,
) -> Stop {
    let enc = p.rated();
    let n = p.n;
    let (mut obtained, mut played) = (vec![0.0; n], vec![0.0; n]);
    for &(w, b, t, s) in enc {
        obtained[w] += s;
        obtained[b] += t - s;
        played[w] += t;
        played[b] += t;
    }
    let g = Games {
        enc,
        beta,
        moving: (0..n).map(|j| played[j] > 0.0).collect(),
        obtained,
        played,
        n_games: p.enc.iter().map(|e| e.games()).sum(),
        draws: p
            .rated_encounters()
            .map(|e| f64::from(e.draws))
            .sum::<f64>(),
    };
    let outputdev = |dev: f64| 1000.0 * (dev / g.n_games).sqrt();
    let mut r = rating.to_vec();
    let mut backup = r.clone();
    let mut expected = vec![0.0; n];
    let mut wa = white;
    let mut wa_progress = START_DELTA;
    let max_cycle = if fit_white { 4 } else { 1 };
    let mut resol = START_RESOL;
    let mut rounds = 0;
    let mut cycle = 0;
    // The white advantage for the ratings as they are, and how far it moved.
    let refit = |wa: &mut f64, r: &[f64], resol: f64| {
        let before = *wa;
        *wa = g.adjust_white(*wa, r, resol);
        (before - *wa).abs()
    };
    while resol > ACCEPTABLE_RESOL || (cycle < max_cycle && wa_progress > 0.01) {
        let mut done = false;
        let (kk_damp, max_rounds) = (1000.0, 10_000);
        let (mut delta, mut kappa) = (START_DELTA, 0.05);
        let (damp_delta, damp_kappa) = (1.1, 1.0);
        let mut phases = 1000;
        let mut curdev = g.unfitness(&r, wa, &mut expected);
        while !done && phases > 0 {
            phases -= 1;
            let mut failed = false;
            let mut kk = 1.0;
            // The white advantage moves first; `expected` and `curdev`
            // stay those of the old one for the first round, as in Ordo.
            if fit_white {
                wa_progress = refit(&mut wa, &r, resol);
            }
            let mut i = 0;
            while i < max_rounds && !done && !failed {
                backup.copy_from_slice(&r);
                let olddev = curdev;
                resol = g.adjust_rating(delta, kappa * kk, &expected, &mut r);
                curdev = g.unfitness(&r, wa, &mut expected);
                failed = curdev >= olddev;
                if failed {
                    r.copy_from_slice(&backup);
                    curdev = g.unfitness(&r, wa, &mut expected);
                } else {
                    kk *= 1.0 - 1.0 / kk_damp;
                }
                done = outputdev(curdev) < MIN_DEVIA && resol.abs() < MIN_RESOL;
                i += 1;
                rounds += 1;
            }
            delta /= damp_delta;
            kappa *= damp_kappa;
        }
        if fit_white {
            wa_progress = refit(&mut wa, &r, resol);
        }
        cycle += 1;
    }
    // Ordo fits the draw rate with each white advantage; it changes no
    // rating, so only the last one counts.
    Stop {
        draw: fit_draw.then(|| g.adjust_draw(wa, &r)),
        rating: r,
        white: wa,
        rounds,
    }
}

/// `find_parabolic_min_x_withreference`: the vertex of the parabola
/// through the three points, computed relative to `reference`.
fn parabola_min_with(x: &[f64; 4], y: &[f64; 4], reference: f64) -> Option<f64> {
    let (x1, x2, x3) = (x[1] - reference, x[2] - reference, x[3] - reference);
    let (y12, x12) = (y[1] - y[2], x1 - x2);
    let (y13, x13) = (y[1] - y[3], x1 - x3);
    let (s12, s13) = (x1 * x1 - x2 * x2, x1 * x1 - x3 * x3);
    if x12 * y13 <= y12 * x13 {
        return None;
    }
    let den = y13 * x12 - y12 * x13;
    if den < 1e-64 {
        return None;
    }
    Some((y13 * s12 - y12 * s13) / den / 2.0 + reference)
}

/// `find_parabolic_min_x`: twice, the second time about the first answer.
fn parabola_min(x: &[f64; 4], y: &[f64; 4]) -> Option<f64> {
    let first = parabola_min_with(x, y, x[2])?;
    parabola_min_with(x, y, first)
}

/// `optimum_center`.
fn optimum_center(x: &[f64; 4], y: &[f64; 4]) -> f64 {
    if x[3] - x[1] > EPSILON
        && x[2] - x[1] > EPSILON
        && x[3] - x[2] > EPSILON
        && let Some(v) = parabola_min(x, y)
    {
        return v;
    }
    (x[3] + x[1]) / 2.0
}

/// `quadfit1d_2`: narrows a bracketed minimum (y2 lowest) to `limit`.
fn quadfit1d_2(limit: f64, xs: [f64; 3], ys: [f64; 3], f: &impl Fn(f64) -> f64) -> f64 {
    let (mut rightchop, mut leftchop) = (0u32, 0u32);
    let mut x = [0.0, xs[0], xs[1], xs[2]];
    let mut y = [0.0, ys[0], ys[1], ys[2]];
    x[0] = optimum_center(&x, &y);
    y[0] = f(x[0]);
    loop {
        let mut equality = false;
        if x[0] < x[2] && y[0] <= y[2] {
            rightchop += 1;
            leftchop = 0;
            (x[3], y[3]) = (x[2], y[2]);
            (x[2], y[2]) = (x[0], y[0]);
        } else if x[0] > x[2] && y[0] > y[2] {
            rightchop += 1;
            leftchop = 0;
            (x[3], y[3]) = (x[0], y[0]);
        } else if x[0] < x[2] && y[0] > y[2] {
            rightchop = 0;
            leftchop += 1;
            (x[1], y[1]) = (x[0], y[0]);
        } else if x[0] > x[2] && y[0] <= y[2] {
            rightchop = 0;
            leftchop += 1;
            (x[1], y[1]) = (x[2], y[2]);
            (x[2], y[2]) = (x[0], y[0]);
        } else {
            equality = true;
            x[0] = if x[3] - x[2] > x[2] - x[1] {
                x[2] + 0.01 * (x[3] - x[2])
            } else {
                x[2] - 0.01 * (x[2] - x[1])
            };
        }
        if equality {
            y[0] = f(x[0]);
        } else if rightchop < 3 && leftchop < 3 {
            x[0] = optimum_center(&x, &y);
            y[0] = f(x[0]);
        } else {
            let thirdlo = (x[3] + 2.0 * x[1]) / 3.0;
            let thirdhi = (2.0 * x[3] + x[1]) / 3.0;
            x[0] = x[2];
            if x[3] - x[2] > 2.0 * (x[2] - x[1]) {
                loop {
                    x[0] += x[0] - x[1];
                    y[0] = f(x[0]);
                    if !(x[0] < thirdlo && y[0] <= y[2]) {
                        break;
                    }
                }
            } else if x[3] - x[2] < (x[2] - x[1]) / 2.0 {
                loop {
                    x[0] -= x[3] - x[0];
                    y[0] = f(x[0]);
                    if !(x[0] > thirdhi && y[0] <= y[2]) {
                        break;
                    }
                }
            } else {
                x[0] = (x[2] + if leftchop == 0 { x[1] } else { x[3] }) / 2.0;
                y[0] = f(x[0]);
            }
        }
        if (x[3] - x[1]).abs() <= limit {
            return x[2];
        }
    }
}

/// `quadfit1d`: the minimum of `f` near [a, b], widening the bracket
/// until its middle point is lowest; a flat stretch returns its centre.
fn quadfit1d(limit: f64, a: f64, b: f64, f: &impl Fn(f64) -> f64) -> f64 {
    let cente = (a + b) / 2.0;
    let mut delta_neg = (b - a).abs() / 2.0;
    let mut delta_pos = delta_neg;
    let (mut xi, mut xj, mut xk) = (cente - delta_neg, cente, cente + delta_neg);
    let (mut ei, mut ej, mut ek) = (f(xi), f(xj), f(xk));
    // `!(ej > 0)` in Ordo: a NaN returns the centre too.
    if ej.is_nan() || ej <= 0.0 {
        return xj;
    }
    let r1 = if ei <= ej { ej / ei } else { ei / ej };
    let r2 = if ej <= ek { ek / ej } else { ej / ek };
    if r1 < 1.000_000_1 && r2 < 1.000_000_1 {
        return xj;
    }
    loop {
        if ei >= ej && ej <= ek {
            return quadfit1d_2(limit, [xi, xj, xk], [ei, ej, ek], f);
        } else if ej >= ei && ei <= ek {
            delta_neg *= 2.0;
            (ek, ej) = (ej, ei);
            (xk, xj) = (xj, xi);
            xi = cente - delta_neg;
            ei = f(xi);
        } else if ei >= ek && ek <= ej {
            delta_pos *= 2.0;
            (ei, ej) = (ej, ek);
            (xi, xj) = (xj, xk);
            xk = cente + delta_pos;
            ek = f(xk);
        } else {
            // Only a NaN gets here (Ordo asserts): the centre is the answer.
            return xj;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quadfit_finds_a_parabola_vertex() {
        let f = |x: f64| (x - 0.3) * (x - 0.3) + 1e-3;
        let got = quadfit1d(1e-9, 0.0, 1.0, &f);
        assert!((got - 0.3).abs() < 1e-6, "{got}");
        // Outside the first bracket: widened until bracketed.
        let g = |x: f64| (x - 7.0).powi(4) + 2.0;
        let got = quadfit1d(1e-9, 0.0, 1.0, &g);
        assert!((got - 7.0).abs() < 1e-3, "{got}");
        // Flat to 1e-7 relative: the bracket's centre, as Ordo.
        let h = |x: f64| 1.0 + 1e-9 * x;
        assert_eq!(quadfit1d(1e-9, 0.0, 1.0, &h), 0.5);
    }

    #[test]
    fn ordo_draw_probability_is_the_model_off_its_newton_band() {
        use super::super::model::draw_prob;
        for d0 in [0.2, 0.6, 0.9] {
            for p in [0.3, 0.5, 0.8] {
                assert!((draw_rate_fperf(p, d0) - draw_prob(p, d0)).abs() < 1e-12);
            }
        }
        // In its Newton band, within the iteration's 1e-7.
        for d0 in [0.5, 0.99995, 1.0] {
            for p in [0.3, 0.5, 0.8] {
                assert!((draw_rate_fperf(p, d0) - draw_prob(p, d0)).abs() < 1e-7);
            }
        }
    }

    /// Ordo's probabilities are the model's (model.rs) to 1e-9; its replay
    /// thresholds are those floored to 16 bits.
    #[test]
    fn replay_odds_are_the_model_floored_to_sixteen_bits() {
        use super::super::model::{beta, wdl};
        let b = beta(202.0);
        for d0 in [0.0, 0.3, 0.5, 0.7, 0.995] {
            for diff in [-300.0, -40.0, 0.0, 90.0, 250.0] {
                let (w, d, l) = get_pwdl(diff, d0, b);
                let (mw, md, ml) = wdl(diff, d0, b);
                assert!(
                    (w - mw).abs() < 1e-9 && (d - md).abs() < 1e-9,
                    "{d0} {diff}"
                );
                assert!((l - ml).abs() < 1e-9, "{d0} {diff}");
                let (t1, t2) = replay_odds(diff, d0, b);
                assert_eq!(t1 * 65536.0, (w * 65536.0).floor());
                assert_eq!(t2 * 65536.0, ((w + d) * 65536.0).floor());
            }
        }
        // A loss of 1e-7 is still possible once in 65,536 games.
        let (_, t2) = replay_odds(90.0, 0.9992, b);
        assert_eq!(t2, 65535.0 / 65536.0);
    }

    /// Off R8's degenerate case the search lands on Newton's root: every
    /// rating and the white advantage to 0.001 Elo, the draw rate to 1e-6.
    #[test]
    fn the_search_reaches_newtons_root_off_the_bound() {
        use super::super::fit::{Reference, Settings, Solver, solve_fresh, tests::e};
        use super::super::model::beta;
        let p = Problem::new(
            3,
            vec![
                e(0, 1, 3, 4, 1),
                e(1, 0, 2, 5, 1),
                e(1, 2, 4, 3, 1),
                e(2, 1, 1, 5, 2),
                e(0, 2, 5, 2, 1),
                e(2, 0, 1, 4, 3),
            ],
        );
        let s = |solver| Settings {
            beta: beta(202.0),
            white: None,
            draw: None,
            reference: Reference::Average(2300.0),
            solver,
        };
        let (newton, _) = solve_fresh(&p, &s(Solver::Newton)).unwrap();
        let (ordo, _) = solve_fresh(&p, &s(Solver::Ordo)).unwrap();
        for (a, b) in newton.rating.iter().zip(&ordo.rating) {
            assert!((a - b).abs() < 1e-3, "{a} {b}");
        }
        assert!((newton.white - ordo.white).abs() < 1e-3);
        assert!((newton.draw - ordo.draw).abs() < 1e-6);
        assert!(ordo.converged && ordo.white > 0.0);
    }
}
