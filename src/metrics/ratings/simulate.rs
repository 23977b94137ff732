//! Errors by simulation (R10–R12): replay every game from the fitted model,
//! rate again, and take the spread of the ratings over the replays.

use rayon::prelude::*;

use super::fit::{
    Encounter, Problem, REPLAY_TOLERANCE, Reference, Settings, Solution, Solver, Start,
    full_factor, solve,
};
use super::model::{normal_cdf, wdl};
use super::ordo::replay_odds;

/// SplitMix64: small, fast, and seeded per replay, so that a replay's games
/// do not depend on which thread draws them.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64, stream: u64) -> Rng {
        let mut r = Rng(seed ^ stream.wrapping_mul(0xD1B5_4A32_D192_ED03));
        r.next_u64();
        r
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    pub fn uniform(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// The replays' ratings, white advantages and draw rates.
#[derive(Debug, Clone)]
pub struct Samples {
    /// One row per replay, one column per player.
    pub rating: Vec<Vec<f64>>,
    pub white: Vec<f64>,
    pub draw: Vec<f64>,
    /// Replays rated although their games did not tie the players they
    /// rate into one group (after the redraws): their ratings across the
    /// groups are arbitrary.
    pub disconnected: usize,
}

/// Replays every game `sims` times from `sol` (R10) and rates each replay;
/// a replay Ordo would reject ([`Problem::connects`]) is drawn again, up to
/// `redraws` times (Ordo: 100), then rated as it is (R11).
pub fn simulate(
    p: &Problem,
    s: &Settings,
    sol: &Solution,
    ground: usize,
    sims: usize,
    seed: u64,
    redraws: usize,
) -> Samples {
    // Newton's replays start from the fit's factored Hessian; Ordo's search has none.
    let factor = (s.solver == Solver::Newton).then(|| full_factor(p, s, sol, ground));
    // Each encounter's (P(White wins), P(White wins or draws)), once.
    let odds: Vec<(f64, f64)> = p
        .enc
        .iter()
        .map(|e| {
            let diff = sol.rating[e.white as usize] + sol.white - sol.rating[e.black as usize];
            match s.solver {
                Solver::Newton => {
                    let (w, d, _) = wdl(diff, sol.draw, s.beta);
                    (w, w + d)
                }
                Solver::Ordo => replay_odds(diff, sol.draw, s.beta),
            }
        })
        .collect();
    let checked = Checked::new(p);
    let runs: Vec<(Vec<f64>, f64, f64, bool)> = (0..sims)
        .into_par_iter()
        .map(|i| {
            let mut rng = Rng::new(seed, i as u64);
            // Up to `redraws` replays that Ordo would reject are drawn
            // again; the last draw is rated as it is (R11).
            let games = (0..redraws)
                .find_map(|_| {
                    let g = checked.replay(&p.enc, &odds, &mut rng)?;
                    Problem::connects(p.n, &g).then_some(g)
                })
                .unwrap_or_else(|| replay(&p.enc, &odds, &mut rng));
            let mut replay = Problem::new(p.n, games);
            let disconnected = replay.n_groups > 1;
            if disconnected {
                replay = main_group(replay);
            }
            let start = Start {
                rating: &sol.rating,
                white: sol.white,
                ground,
                factor: factor.as_ref(),
                tolerance: REPLAY_TOLERANCE,
            };
            let mut r = solve(&replay, s, &start);
            let anchored = match s.reference {
                Reference::Anchor { player, .. } => r.rating[player].is_finite(),
                Reference::Average(_) => false,
            };
            if disconnected && !anchored {
                // The engines rated keep their fitted mean, so that leaving
                // others out does not move the reference (R11).
                let kept: Vec<usize> = (0..p.n).filter(|&i| r.rating[i].is_finite()).collect();
                let shift = kept
                    .iter()
                    .map(|&i| sol.rating[i] - r.rating[i])
                    .sum::<f64>()
                    / kept.len().max(1) as f64;
                r.rating.iter_mut().for_each(|x| *x += shift);
            }
            if !r.converged {
                // No finite solution (R11): the replay measures nothing.
                r.rating.fill(f64::NAN);
                (r.white, r.draw) = (f64::NAN, f64::NAN);
            }
            (r.rating, r.white, r.draw, disconnected)
        })
        .collect();
    let mut out = Samples {
        rating: Vec::with_capacity(sims),
        white: Vec::with_capacity(sims),
        draw: Vec::with_capacity(sims),
        disconnected: 0,
    };
    for (r, w, d, disc) in runs {
        out.rating.push(r);
        out.white.push(w);
        out.draw.push(d);
        out.disconnected += usize::from(disc);
    }
    out
}

/// A replay that splits into groups, cut to its largest group and the
/// engines that won or lost all against it (R11): the others have no
/// finite rating in it and are left out of its spread (NaN).
fn main_group(replay: Problem) -> Problem {
    let g = replay.attached_groups();
    let enc = replay
        .enc
        .into_iter()
        .filter(|e| g[e.white as usize] == Some(0) && g[e.black as usize] == Some(0))
        .collect();
    Problem::new(replay.n, enc)
}

/// One replay of the encounters' games from the fitted model (R10).
/// Replays that stop as soon as they must be rejected: the encounters are
/// drawn engines with the fewest games first, and once all the games of an
/// engine are drawn without it scoring, or without it conceding, the replay
/// is one [`Problem::connects`] refuses. Stopping a rejected draw early
/// leaves the distribution of the accepted replays as it was (rejection
/// sampling), but in a pool with many engines of one or two games (the whole
/// TCEC archive) a rejected draw costs a few games instead of all of them.
struct Checked {
    /// Encounter indices, those of the engines with the fewest games first.
    order: Vec<usize>,
    /// Games per engine.
    games: Vec<u32>,
}

impl Checked {
    fn new(p: &Problem) -> Checked {
        // Game counts are whole numbers held as f64.
        let games: Vec<u32> = p.played.iter().map(|&g| g as u32).collect();
        let enc = &p.enc;
        let mut order: Vec<usize> = (0..enc.len()).collect();
        order.sort_by_key(|&i| games[enc[i].white as usize].min(games[enc[i].black as usize]));
        Checked { order, games }
    }

    /// A replay of `enc`, or None once an engine has all its games drawn
    /// and scored nothing or everything.
    fn replay(
        &self,
        enc: &[Encounter],
        odds: &[(f64, f64)],
        rng: &mut Rng,
    ) -> Option<Vec<Encounter>> {
        let mut left = self.games.clone();
        // Per engine: scored a point or half, conceded one or half.
        let mut scored = vec![false; left.len()];
        let mut conceded = vec![false; left.len()];
        let mut out = enc.to_vec();
        for &i in &self.order {
            let g = draw(&enc[i], odds[i], rng);
            let (w, b) = (g.white as usize, g.black as usize);
            scored[w] |= g.wins + g.draws > 0;
            conceded[w] |= g.losses + g.draws > 0;
            scored[b] |= g.losses + g.draws > 0;
            conceded[b] |= g.wins + g.draws > 0;
            let n = g.wins + g.draws + g.losses;
            for p in [w, b] {
                left[p] -= n;
                if left[p] == 0 && !(scored[p] && conceded[p]) {
                    return None;
                }
            }
            out[i] = g;
        }
        Some(out)
    }
}

/// One encounter's games drawn again with (P(White wins), P(White does not lose)).
fn draw(e: &Encounter, (win, not_loss): (f64, f64), rng: &mut Rng) -> Encounter {
    let mut out = Encounter {
        wins: 0,
        draws: 0,
        losses: 0,
        ..*e
    };
    for _ in 0..e.wins + e.draws + e.losses {
        let u = rng.uniform();
        if u < win {
            out.wins += 1;
        } else if u < not_loss {
            out.draws += 1;
        } else {
            out.losses += 1;
        }
    }
    out
}

fn replay(enc: &[Encounter], odds: &[(f64, f64)], rng: &mut Rng) -> Vec<Encounter> {
    enc.iter()
        .zip(odds)
        .map(|(e, &o)| draw(e, o, rng))
        .collect()
}

/// The standard deviation of `xs` about their mean (dividing by their count, as Ordo).
/// Values that are NaN (an engine left out of a replay) are skipped.
pub fn sd(xs: impl Iterator<Item = f64> + Clone) -> f64 {
    let (n, s1, s2) = xs
        .filter(|x| !x.is_nan())
        .fold((0.0, 0.0, 0.0), |(n, s1, s2), x| {
            (n + 1.0, s1 + x, s2 + x * x)
        });
    if n < 2.0 {
        return f64::NAN;
    }
    ((n * s2 - s1 * s1).abs()).sqrt() / n
}

impl Samples {
    /// A player's rating spread over the replays.
    pub fn sd(&self, i: usize) -> f64 {
        sd(self.rating.iter().map(|r| r[i]))
    }

    /// The spread of the difference between two players' ratings.
    pub fn sd_diff(&self, i: usize, j: usize) -> f64 {
        sd(self.rating.iter().map(|r| r[i] - r[j]))
    }

    /// Confidence that `i` is stronger than `j`, rated `diff` apart (R12):
    /// Φ(diff / sd of the difference); None when the difference never varies.
    pub fn cfs(&self, i: usize, j: usize, diff: f64) -> Option<f64> {
        let s = self.sd_diff(i, j);
        (s > 1e-8).then(|| normal_cdf(diff / s))
    }

    /// The spread of a fitted value over the replays and the original fit
    /// (Ordo counts the original too, for these two).
    pub fn sd_with(values: &[f64], original: f64) -> f64 {
        sd(values.iter().copied().chain(std::iter::once(original)))
    }
}

#[cfg(test)]
mod tests {
    use super::super::fit::{Kind, solve_fresh};
    use super::super::model::beta;
    use super::*;

    /// A checked replay is refused once an engine's games are all drawn
    /// without a point (or without conceding one), and otherwise equals the
    /// plain replay of the same random numbers drawn in its order.
    #[test]
    fn checked_replays_stop_at_the_first_engine_without_a_point() {
        let e = |white, black, games| Encounter {
            white,
            black,
            wins: games,
            draws: 0,
            losses: 0,
        };
        // C plays one game (against A), A and B three.
        let enc = [e(0, 1, 3), e(0, 2, 1)];
        let checked = Checked::new(&Problem::new(3, enc.to_vec()));
        assert_eq!(checked.order, [1, 0], "C's one game first");
        // White always wins: C (Black) loses its only game, so the draw is
        // refused after that game; A never concedes either.
        let mut rng = Rng::new(1, 0);
        assert_eq!(checked.replay(&enc, &[(1.0, 1.0); 2], &mut rng), None);
        // Every game drawn: everyone scores and concedes.
        let (mut a, mut b) = (Rng::new(7, 3), Rng::new(7, 3));
        let all = checked.replay(&enc, &[(0.0, 1.0); 2], &mut a).unwrap();
        assert_eq!(all.iter().map(|x| x.draws).collect::<Vec<_>>(), [3, 1]);
        // Mixed odds: the accepted draw is the plain one in the checked order.
        let odds = [(0.3, 0.8), (0.2, 0.9)];
        let got = checked
            .replay(&enc, &odds, &mut b)
            .expect("this seed's draw is accepted");
        let mut c = Rng::new(7, 3);
        let second = draw(&enc[1], odds[1], &mut c);
        let first = draw(&enc[0], odds[0], &mut c);
        assert_eq!(got, [first, second]);
    }

    fn problem() -> Problem {
        let e = |white, black, wins, draws, losses| Encounter {
            white,
            black,
            wins,
            draws,
            losses,
        };
        Problem::new(
            3,
            vec![
                e(0, 1, 10, 20, 5),
                e(1, 0, 8, 20, 7),
                e(1, 2, 12, 15, 3),
                e(2, 1, 4, 20, 11),
                e(0, 2, 9, 10, 1),
                e(2, 0, 3, 10, 7),
            ],
        )
    }

    /// A replay split in two: its largest group is kept (ties: the lowest
    /// index), with the engine that lost all its games to it; the other
    /// group's engines have no games left.
    #[test]
    fn a_split_replay_keeps_its_largest_group() {
        let e = |white, black, wins, draws, losses| Encounter {
            white,
            black,
            wins,
            draws,
            losses,
        };
        // 0–1 draw, 2–3 draw, 0 beats 2 (one-sided), 4 loses to 1.
        let p = Problem::new(
            5,
            vec![
                e(0, 1, 0, 1, 0),
                e(2, 3, 0, 1, 0),
                e(0, 2, 1, 0, 0),
                e(1, 4, 1, 0, 0),
            ],
        );
        assert_eq!(p.n_groups, 2);
        let kept = main_group(p);
        assert_eq!(kept.n_groups, 1);
        assert_eq!(kept.played, [1.0, 2.0, 0.0, 0.0, 1.0]);
        assert_eq!(kept.kind[2], Kind::NoGames);
        assert_eq!(kept.kind[4], Kind::AllLosses);
    }

    #[test]
    fn sd_divides_by_the_count() {
        assert_eq!(sd([1.0, 3.0].into_iter()), 1.0);
        assert!((Samples::sd_with(&[1.0, 3.0], 2.0) - (2.0f64 / 3.0).sqrt()).abs() < 1e-15);
    }

    /// The same seed gives the same errors; another seed, others; every
    /// replay keeps the pool average and centres on the fit.
    #[test]
    fn seeded_and_reproducible() {
        let p = problem();
        let s = Settings {
            beta: beta(202.0),
            white: None,
            draw: None,
            reference: Reference::Average(2300.0),
            solver: Default::default(),
        };
        let (sol, ground) = solve_fresh(&p, &s).unwrap();
        let a = simulate(&p, &s, &sol, ground, 200, 7, 100);
        let b = simulate(&p, &s, &sol, ground, 200, 7, 100);
        let c = simulate(&p, &s, &sol, ground, 200, 8, 100);
        assert_eq!(a.rating, b.rating);
        assert_ne!(a.rating, c.rating);
        // Each replay's average is the pool average.
        for r in &a.rating {
            assert!((r.iter().sum::<f64>() / 3.0 - 2300.0).abs() < 1e-6);
        }
        // The replays centre on the fit (within 4 standard errors).
        for i in 0..3 {
            let mean = a.rating.iter().map(|r| r[i]).sum::<f64>() / 200.0;
            assert!(
                (mean - sol.rating[i]).abs() < 4.0 * a.sd(i) / 200f64.sqrt() + 1.0,
                "{i}"
            );
        }
        assert_eq!(a.disconnected, 0);
    }
}
