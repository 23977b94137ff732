//! The replay: one pass over a game's plies per rule set, never looking ahead
//! (each decision at ply p sees `plies[..=p]` only). Pure: no polars, no I/O.
//!
//! The TCEC families reproduce TCEC's cutechess fork (coolchess123/tceccutechess,
//! `gameadjudicator.cpp` `addEval`/`drawClock`/`resignClock`, called from
//! `chessgame.cpp` `onMoveMade`): the clocks printed after a ply are computed
//! from the counters *before* the ply is added, as the fork prints them.

use super::rules::{Compiled, Draw, Resign, TerraDraw, TerraResign, Win};

/// A mate score on the own-eval scale: mate in n is ±(MATE − n).
pub const MATE: i32 = 1_000_000;

/// The clock value of a rule that is off.
pub const CLOCK_OFF: i16 = -1000;

/// What a rule can see of one ply (after the move, mover's point of view).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Ply {
    pub white: bool,
    /// Own eval, centipawns (mates ±(MATE − n)); None: unknown (book, no eval,
    /// placeholder).
    pub eval: Option<i32>,
    /// The halfmove clock after the move (0: a capture or pawn move).
    pub halfmove: u16,
    /// How often the position after the move has occurred (1: first time).
    pub repetition: u8,
    /// The move gives check.
    pub check: bool,
    /// The move mates: the game is over.
    pub mate: bool,
    /// Material after the move, mover minus opponent, centipawns (1/3/3/5/9).
    pub material: i32,
    /// The mover's clock after the move, ms.
    pub time_left_ms: Option<i64>,
    /// Only kings, or kings and one minor piece, remain.
    pub dead: bool,
}

impl Ply {
    /// A capture or a pawn move.
    pub fn irreversible(&self) -> bool {
        self.halfmove == 0
    }
}

/// The result a rule gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    WhiteWins,
    BlackWins,
    Draw,
}

impl Outcome {
    pub fn pgn(self) -> &'static str {
        match self {
            Outcome::WhiteWins => "1-0",
            Outcome::BlackWins => "0-1",
            Outcome::Draw => "1/2-1/2",
        }
    }

    fn win(white: bool) -> Outcome {
        if white {
            Outcome::WhiteWins
        } else {
            Outcome::BlackWins
        }
    }
}

/// A rule firing: at 1-based `ply`, with its result and the clause.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fire {
    pub ply: u32,
    pub result: Outcome,
    pub clause: &'static str,
}

/// Clause names (the `clause` column).
pub mod clause {
    pub const TCEC_DRAW: &str = "tcec draw rule";
    pub const TCEC_WIN: &str = "tcec win rule";
    pub const RESIGN: &str = "resign";
    pub const DRAW: &str = "draw";
    pub const TERRA_RESIGN: &str = "terra resign";
    pub const TERRA_DRAW: &str = "terra draw";
    pub const FIFTY: &str = "fifty-move rule";
    pub const THREEFOLD: &str = "threefold repetition";
    pub const DEAD: &str = "dead material";
}

/// The replay of one game: the first firing, and the TCEC clocks (Rd, Rr)
/// after every ply when asked for.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Replay {
    pub fire: Option<Fire>,
    pub clocks: Vec<(i16, i16)>,
}

/// Replays `rules` over a game. With `clocks`, the whole game is walked (the
/// clocks of every ply) even after the first firing.
///
/// ```
/// use evallab::metrics::adjudication::{RuleSet, replay::{replay, Ply}};
/// let rules = RuleSet::load("cutechess").unwrap().compile("any");
/// // Black's own eval is -10.00 on three consecutive moves: Black resigns at ply 6.
/// let plies: Vec<Ply> = (0..8)
///     .map(|i| Ply { white: i % 2 == 0, eval: Some(if i % 2 == 0 { 1000 } else { -1000 }), ..Ply::default() })
///     .collect();
/// let f = replay(&rules, &plies, false).fire.unwrap();
/// assert_eq!((f.ply, f.result.pgn(), f.clause), (6, "1-0", "resign"));
/// ```
pub fn replay(rules: &Compiled, plies: &[Ply], clocks: bool) -> Replay {
    let mut out = Replay::default();
    let mut state = State::new();
    for i in 0..plies.len() {
        let (fire, clock) = state.step(rules, &plies[..=i]);
        if clocks {
            out.clocks.push(clock);
        }
        if out.fire.is_none() {
            out.fire = fire;
            if fire.is_some() && !clocks {
                break;
            }
        }
        if plies[i].mate {
            break;
        }
    }
    out
}

/// Every family's counters.
struct State {
    cute_draw: u32,
    cute_resign: [u32; 2],
    cute_winning: [u32; 2],
    tcec_draw: u32,
    tcec_loser: [u32; 2],
    tcec_winner: [u32; 2],
    terra_offer: [Option<usize>; 2],
}

fn side(white: bool) -> usize {
    usize::from(!white)
}

impl State {
    fn new() -> State {
        State {
            cute_draw: 0,
            cute_resign: [0; 2],
            cute_winning: [0; 2],
            tcec_draw: 0,
            tcec_loser: [0; 2],
            tcec_winner: [0; 2],
            terra_offer: [None; 2],
        }
    }

    /// Adds the last ply of `hist`; returns a firing and the TCEC clocks.
    fn step(&mut self, rules: &Compiled, hist: &[Ply]) -> (Option<Fire>, (i16, i16)) {
        let p = hist[hist.len() - 1];
        let ply = hist.len() as u32;
        let mut fire = None;
        let mut first = |f: Option<Fire>| {
            if fire.is_none() {
                fire = f;
            }
        };
        // The board's own results come before any adjudication (cutechess
        // asks the adjudicator only when the board has no result).
        if !p.mate {
            if rules.always.dead && p.dead {
                first(Some(Fire {
                    ply,
                    result: Outcome::Draw,
                    clause: clause::DEAD,
                }));
            }
            if rules.always.threefold && p.repetition >= 3 {
                first(Some(Fire {
                    ply,
                    result: Outcome::Draw,
                    clause: clause::THREEFOLD,
                }));
            }
            if rules.always.fifty && p.halfmove >= 100 {
                first(Some(Fire {
                    ply,
                    result: Outcome::Draw,
                    clause: clause::FIFTY,
                }));
            }
        }
        let mut clock = (CLOCK_OFF, CLOCK_OFF);
        if let Some((_, draw, win)) = &rules.tcec {
            // The fork's engines report a score for every move; a missing one
            // (book, placeholder) is printed and counted as 0.00.
            let score = p.eval.unwrap_or(0);
            clock.0 = match draw {
                Some(d) => self.tcec_draw_clock(d, ply, p.irreversible(), score),
                None => CLOCK_OFF,
            };
            clock.1 = match win {
                Some(w) => self.tcec_win_clock(w, p.white, score),
                None => CLOCK_OFF,
            };
            if let Some(d) = draw {
                first(self.tcec_draw_add(d, ply, p.irreversible(), score));
            }
            if let Some(w) = win {
                first(self.tcec_win_add(w, ply, p.white, score));
            }
        }
        if let Some(d) = &rules.draw {
            first(self.cute_draw_add(d, ply, &p));
        }
        if let Some(r) = &rules.resign {
            first(self.cute_resign_add(r, ply, &p));
        }
        if let Some(t) = &rules.terra {
            if let Some(r) = &t.resign {
                first(terra_resign(r, hist));
            }
            if let Some(d) = &t.draw {
                first(self.terra_draw(d, hist));
            }
        }
        (fire, clock)
    }

    /// `drawClock`: plies still needed, −r−1 while the rule cannot fire yet.
    fn tcec_draw_clock(&self, d: &Draw, ply: u32, irreversible: bool, score: i32) -> i16 {
        let limit = 2 * d.movecount as i32;
        let count = if irreversible {
            0
        } else if score.abs() <= d.score {
            self.tcec_draw as i32 + 1
        } else {
            0
        };
        let mut rem = if count >= limit { 0 } else { limit - count };
        if rem >= limit || (ply as i32 + rem) / 2 < d.movenumber as i32 {
            rem = -rem - 1;
        }
        rem as i16
    }

    /// `addEval`'s draw part with `-tcecadj`: an irreversible ply resets the
    /// count (`resetDrawMoveCount`) and is not counted itself.
    fn tcec_draw_add(
        &mut self,
        d: &Draw,
        ply: u32,
        irreversible: bool,
        score: i32,
    ) -> Option<Fire> {
        if irreversible {
            self.tcec_draw = 0;
            return None;
        }
        self.tcec_draw = if score.abs() <= d.score {
            self.tcec_draw + 1
        } else {
            0
        };
        (ply / 2 >= d.movenumber && self.tcec_draw >= 2 * d.movecount).then_some(Fire {
            ply,
            result: Outcome::Draw,
            clause: clause::TCEC_DRAW,
        })
    }

    /// The win counters after adding `score` for the mover (loser, winner).
    fn tcec_win_counts(&self, w: &Win, s: usize, score: i32) -> (u32, u32) {
        let (l, v) = (self.tcec_loser[s], self.tcec_winner[s]);
        if score <= -w.score {
            (l + 1, 0)
        } else if score >= w.score {
            (0, v + 1)
        } else {
            (0, 0)
        }
    }

    /// `resignClock` with `-tcecadj`: plies still needed for the win rule,
    /// the larger progress of the two ways it can fire, in plies.
    fn tcec_win_clock(&self, w: &Win, white: bool, score: i32) -> i16 {
        let s = side(white);
        let o = 1 - s;
        let limit = 2 * w.movecount as i32;
        let (l, v) = self.tcec_win_counts(w, s, score);
        let (l, v) = (l as i32, v as i32);
        let (ow, ol) = (self.tcec_winner[o] as i32, self.tcec_loser[o] as i32);
        let loser = 2 * l.min(ow) + i32::from(l > ow);
        let winner = 2 * v.min(ol) + i32::from(v > ol);
        let count = loser.max(winner);
        let mut rem = if count >= limit { 0 } else { limit - count };
        if rem >= limit {
            rem = -rem - 1;
        }
        rem as i16
    }

    fn tcec_win_add(&mut self, w: &Win, ply: u32, white: bool, score: i32) -> Option<Fire> {
        let s = side(white);
        let o = 1 - s;
        let (l, v) = self.tcec_win_counts(w, s, score);
        self.tcec_loser[s] = l;
        self.tcec_winner[s] = v;
        let c = w.movecount;
        if l >= c && self.tcec_winner[o] >= c {
            Some(Fire {
                ply,
                result: Outcome::win(!white),
                clause: clause::TCEC_WIN,
            })
        } else if v >= c && self.tcec_loser[o] >= c {
            Some(Fire {
                ply,
                result: Outcome::win(white),
                clause: clause::TCEC_WIN,
            })
        } else {
            None
        }
    }

    /// cutechess `-draw`: an irreversible ply resets the count and is then
    /// counted; a move without an eval resets it.
    fn cute_draw_add(&mut self, d: &Draw, ply: u32, p: &Ply) -> Option<Fire> {
        if p.irreversible() {
            self.cute_draw = 0;
        }
        let Some(e) = p.eval else {
            self.cute_draw = 0;
            return None;
        };
        self.cute_draw = if e.abs() <= d.score {
            self.cute_draw + 1
        } else {
            0
        };
        (ply / 2 >= d.movenumber && self.cute_draw >= 2 * d.movecount).then_some(Fire {
            ply,
            result: Outcome::Draw,
            clause: clause::DRAW,
        })
    }

    /// cutechess `-resign`: the mover's own eval at or below −score for
    /// movecount own moves; `twosided` also needs the opponent at or above +score.
    fn cute_resign_add(&mut self, r: &Resign, ply: u32, p: &Ply) -> Option<Fire> {
        let s = side(p.white);
        let Some(e) = p.eval else {
            self.cute_resign[s] = 0;
            self.cute_winning[s] = 0;
            return None;
        };
        self.cute_resign[s] = if e <= -r.score {
            self.cute_resign[s] + 1
        } else {
            0
        };
        self.cute_winning[s] = if e >= r.score {
            self.cute_winning[s] + 1
        } else {
            0
        };
        let two = !r.twosided || self.cute_winning[1 - s] >= r.movecount;
        (self.cute_resign[s] >= r.movecount && two).then_some(Fire {
            ply,
            result: Outcome::win(!p.white),
            clause: clause::RESIGN,
        })
    }

    /// Terra's draw offers and acceptances: an offer at ply p is agreed when
    /// the opponent's move at p+1 meets the acceptance rules.
    fn terra_draw(&mut self, d: &TerraDraw, hist: &[Ply]) -> Option<Fire> {
        let i = hist.len() - 1;
        let p = hist[i];
        let s = side(p.white);
        let ply = hist.len() as u32;
        let common = (ply + 1) / 2 >= d.movenumber
            && own_evals(hist, d.window as usize)
                .is_some_and(|v| v.iter().all(|e| *e <= d.contempt))
            && !clock_short(hist, d.short_seconds, d.moves_left);
        if common && i > 0 && self.terra_offer[1 - s] == Some(i - 1) {
            return Some(Fire {
                ply,
                result: Outcome::Draw,
                clause: clause::TERRA_DRAW,
            });
        }
        let gap_ok = self.terra_offer[s].is_none_or(|o| i - o > 2 * d.gap as usize);
        if common && gap_ok && p.eval.is_some_and(|e| e >= d.min_score) {
            self.terra_offer[s] = Some(i);
        }
        None
    }
}

/// The last `n` own evals of the mover of the last ply (None if fewer, or
/// one is unknown), oldest first.
fn own_evals(hist: &[Ply], n: usize) -> Option<Vec<i32>> {
    let i = hist.len() - 1;
    if i + 1 < 2 * n - 1 {
        return None;
    }
    (0..n)
        .rev()
        .map(|k| hist.get(i.checked_sub(2 * k)?)?.eval)
        .collect()
}

/// The opponent's (mover of the ply before the last) last clock, seconds per
/// remaining move.
fn per_move(p: Option<&Ply>, moves_left: u32) -> Option<f64> {
    p?.time_left_ms
        .map(|ms| ms as f64 / 1000.0 / f64::from(moves_left))
}

/// "The opponent's clock is very short and ours is not" (unknown: not short).
fn clock_short(hist: &[Ply], short: f64, moves_left: u32) -> bool {
    let i = hist.len() - 1;
    let ours = per_move(hist.get(i), moves_left);
    let theirs = per_move(i.checked_sub(1).and_then(|j| hist.get(j)), moves_left);
    theirs.is_some_and(|t| t < short) && !ours.is_some_and(|o| o < short)
}

/// Terra resigns for the mover of the last ply when every condition holds.
fn terra_resign(r: &TerraResign, hist: &[Ply]) -> Option<Fire> {
    let i = hist.len() - 1;
    let p = hist[i];
    let losing = own_evals(hist, r.movecount as usize)?
        .iter()
        .all(|e| *e < -r.score);
    if !losing || p.material > -r.material || p.check {
        return None;
    }
    let opp = i.checked_sub(1).map(|j| &hist[..=j]);
    // The opponent's clock: unknown holds.
    let time_ok =
        per_move(opp.and_then(|h| h.last()), r.moves_left).is_none_or(|t| t >= r.opponent_seconds);
    // The opponent's own evals over its last `improvement_moves` moves.
    let theirs = opp.and_then(|h| own_evals(h, r.improvement_moves as usize))?;
    let last = *theirs.last()?;
    let no_mate = last < MATE - 1000;
    let improved = last - theirs[0] > r.improvement;
    (time_ok && no_mate && improved).then_some(Fire {
        ply: hist.len() as u32,
        result: Outcome::win(!p.white),
        clause: clause::TERRA_RESIGN,
    })
}
