//! The replay: one pass over a game's plies per rule set, never looking ahead
//! (each decision at ply p sees `plies[..=p]` only). Pure: no polars, no I/O.
//!
//! The TCEC families reproduce TCEC's cutechess fork (coolchess123/tceccutechess,
//! `gameadjudicator.cpp` `addEval`/`drawClock`/`resignClock`, called from
//! `chessgame.cpp` `onMoveMade`): the clocks printed after a ply are computed
//! from the counters *before* the ply is added, as the fork prints them.

use super::rules::{Compiled, Draw, Gui, MaxMoves, Resign, TcecDraw, TerraDraw, TerraResign, Win};

/// A mate score on the own-eval scale: mate in n is ±(MATE − n).
pub const MATE: i32 = 1_000_000;

/// cutechess's `MoveEvaluation::NULL_SCORE`: the score of an empty evaluation.
const NULL_SCORE: i32 = 0xFFFFFFF;

/// The clock value of a rule that is off.
pub const CLOCK_OFF: i16 = -1000;

/// What a rule can see of one ply (after the move, mover's point of view).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Ply {
    pub white: bool,
    /// Own eval, centipawns (mates ±(MATE − n)); None: unknown (book, no eval,
    /// placeholder).
    pub eval: Option<i32>,
    /// The full move number of the move, as printed (a FEN's continues).
    pub move_number: u32,
    /// The halfmove clock after the move (0: a capture or pawn move).
    pub halfmove: u32,
    /// cutechess's `reversibleMoveCount() == 0`: a capture, a pawn move, or a
    /// rook move that gives up a castling right (see [`super::castling`]).
    /// What resets the draw counts, in cutechess and TCEC alike.
    pub irreversible: bool,
    /// How often the position after the move has occurred (1: first time).
    pub repetition: u32,
    /// The move gives check.
    pub check: bool,
    /// The move mates: the game is over.
    pub mate: bool,
    /// An opening-book move (played without a search).
    pub book: bool,
    /// Material after the move, mover minus opponent, centipawns (1/3/3/5/9).
    pub material: i32,
    /// The mover's clock after the move, ms.
    pub time_left_ms: Option<i64>,
    /// Only kings, or kings and one minor piece, remain.
    pub dead: bool,
    /// The engine reported nothing for the move (no comment at all, not a
    /// book move): cutechess's empty evaluation, whose score is `NULL_SCORE`.
    pub silent: bool,
    /// Pieces on the board after the move, kings included, pawns not (TCEC's
    /// `Board::pieceCount`).
    pub pieces: u8,
    /// Pawns on the board after the move.
    pub pawns: u8,
    /// The tablebases' result for the position after the move (probed by the
    /// loader with `--syzygy` up to the set's TB men; None: not probed, not in
    /// the tables, or a castling right left).
    pub tb: Option<Outcome>,
}

impl Ply {
    /// A move with an eval placeholder (depth 0, printed "d=1 … 0.00"): the
    /// score the adjudicator counted is not in the PGN.
    pub fn placeholder(&self) -> bool {
        self.eval.is_none() && !self.silent && !self.book
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
    pub const MAXMOVES: &str = "maxmoves";
    pub const TERRA_RESIGN: &str = "terra resign";
    pub const TERRA_DRAW: &str = "terra draw";
    pub const FIFTY: &str = "fifty-move rule";
    pub const THREEFOLD: &str = "threefold repetition";
    pub const DEAD: &str = "dead material";
    pub const TB: &str = "tablebase";
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
/// let rules = RuleSet::load("cutechess").unwrap().compile("any", "1");
/// // Black's own eval is -10.00 on three consecutive moves: Black resigns at ply 6.
/// let plies: Vec<Ply> = (0..8)
///     .map(|i| Ply { white: i % 2 == 0, eval: Some(if i % 2 == 0 { 1000 } else { -1000 }), ..Ply::default() })
///     .collect();
/// let f = replay(&rules, &plies, false).fire.unwrap();
/// assert_eq!((f.ply, f.result.pgn(), f.clause), (6, "1-0", "resign"));
/// ```
pub fn replay(rules: &Compiled, plies: &[Ply], clocks: bool) -> Replay {
    let mut out = Replay {
        fire: None,
        // Sized once: a sweep replays every game at every point.
        clocks: Vec::with_capacity(if clocks { plies.len() } else { 0 }),
    };
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

/// `drawClock`'s last step: `rem` plies still needed, printed −rem−1 while
/// the rule cannot fire (no ply of the window counted yet, or the move floor
/// out of reach even when the window fills).
fn draw_floor(rem: i32, d: &TcecDraw, ply: u32) -> i16 {
    if rem >= 2 * d.movecount as i32 || (ply as i32 + rem) / 2 < d.movenumber as i32 {
        (-rem - 1) as i16
    } else {
        rem as i16
    }
}

/// The draw clock a replay printed at 1-based `ply`, as rules that differ
/// from the replayed ones only in `d`'s move floor print it: the count
/// behind a clock does not depend on the floor, and −rem−1 keeps `rem`.
/// For a ply with a draw clock only (not [`CLOCK_OFF`]: a book move, or an
/// era without the rule, prints none whatever the floor).
///
/// ```
/// use evallab::metrics::adjudication::{RuleSet, replay::{replay, reprint_draw_clock, Ply}};
/// let toml = |n| format!("name = 'x'\n[[tcec]]\nera = 'e'\nevents = ''\ndraw = {{ movenumber = {n}, movecount = 2, score = 10 }}\n");
/// let rules = |n| RuleSet::parse(&toml(n), "f").unwrap().compile("", "1");
/// let plies = vec![Ply { white: true, eval: Some(0), ..Ply::default() }; 10];
/// let (early, late) = (replay(&rules(1), &plies, true), replay(&rules(5), &plies, true));
/// let d = rules(5).tcec.unwrap().1.unwrap();
/// let reprinted: Vec<i16> = (0..10).map(|k| reprint_draw_clock(early.clocks[k].0, &d, k as u32 + 1)).collect();
/// let late: Vec<i16> = late.clocks.iter().map(|c| c.0).collect();
/// assert_eq!(reprinted, late);
/// assert_eq!(late, [-4, -3, -2, -1, -1, -1, -1, -1, -1, 0]);
/// assert_eq!(early.clocks[3].0, 0);
/// ```
pub fn reprint_draw_clock(printed: i16, d: &TcecDraw, ply: u32) -> i16 {
    let rem = if printed < 0 {
        -i32::from(printed) - 1
    } else {
        i32::from(printed)
    };
    draw_floor(rem, d, ply)
}

/// Every family's counters.
struct State {
    /// The match runners' draw and resign counts (cutechess's, and
    /// fastchess's where it counts the same), per side for resign.
    runner_draw: u32,
    runner_resign: [u32; 2],
    runner_winning: [u32; 2],
    /// fastchess's two-sided count: consecutive plies beyond the score.
    fast_beyond: u32,
    /// Plies not from the book (fastchess's `maxmoves` count).
    engine_plies: u32,
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
            runner_draw: 0,
            runner_resign: [0; 2],
            runner_winning: [0; 2],
            fast_beyond: 0,
            engine_plies: 0,
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
        // cutechess's adjudicator asks the tablebases before any other rule.
        if let (Some(men), Some(result), false) = (rules.tb, p.tb, p.mate)
            && u32::from(p.pieces) + u32::from(p.pawns) <= men
        {
            first(Some(Fire {
                ply,
                result,
                clause: clause::TB,
            }));
        }
        let mut clock = (CLOCK_OFF, CLOCK_OFF);
        if let (Some(_), true) = (&rules.tcec, p.book) {
            // Book moves print no clocks; a move without a search resets the
            // counts (`addEval`'s "moves forced by the user").
            self.tcec_draw = 0;
            self.tcec_loser[side(p.white)] = 0;
            self.tcec_winner[side(p.white)] = 0;
        } else if let Some((_, draw, win)) = &rules.tcec {
            // A placeholder (depth 0, printed "0.00") is counted as 0.00; a
            // move the engine reported nothing for carries cutechess's
            // NULL_SCORE, out of every window (and "winning" for the win rule).
            let score = match p.eval {
                Some(e) => e,
                None if p.silent => NULL_SCORE,
                None => 0,
            };
            clock.0 = match draw {
                Some(d) => self.tcec_draw_clock(d, ply, p.irreversible, score),
                None => CLOCK_OFF,
            };
            clock.1 = match win {
                Some(w) => self.tcec_win_clock(w, p.white, score),
                None => CLOCK_OFF,
            };
            if let Some(d) = draw {
                first(self.tcec_draw_add(d, ply, &p, score));
            }
            if let Some(w) = win {
                first(self.tcec_win_add(w, ply, p.white, score));
            }
        }
        // cutechess asks the draw rule first, fastchess the resign rule (they
        // can both hold only where the resign score is within the draw score).
        let draw = rules
            .draw
            .and_then(|d| self.runner_draw_add(&d, rules.gui, ply, &p));
        let resign = rules
            .resign
            .and_then(|r| self.runner_resign_add(&r, rules.gui, ply, &p));
        match rules.gui {
            Gui::Cutechess => first(draw.or(resign)),
            Gui::Fastchess => first(resign.or(draw)),
        }
        if let Some(m) = &rules.maxmoves {
            first(self.maxmoves_add(m, rules.gui, ply, &p));
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
    /// The fork's 2022 change left it as it was: it zeroes the count on a
    /// capture or pawn move even when `reset` is off and ignores the piece
    /// limits, so the printed clock then disagrees with the stored count.
    fn tcec_draw_clock(&self, d: &TcecDraw, ply: u32, irreversible: bool, score: i32) -> i16 {
        let limit = 2 * d.movecount as i32;
        let count = if irreversible {
            0
        } else if score.abs() <= d.score {
            self.tcec_draw as i32 + 1
        } else {
            0
        };
        draw_floor(if count >= limit { 0 } else { limit - count }, d, ply)
    }

    /// `addEval`'s draw part with `-tcecadj`: with `reset`, an irreversible
    /// ply zeroes the count (`resetDrawMoveCount`) and is not counted itself;
    /// a ply with more pieces or pawns than the limits zeroes it too.
    fn tcec_draw_add(&mut self, d: &TcecDraw, ply: u32, p: &Ply, score: i32) -> Option<Fire> {
        if d.reset && p.irreversible {
            self.tcec_draw = 0;
            return None;
        }
        let within = |max: u32, n: u8| max == 0 || u32::from(n) <= max;
        self.tcec_draw = if !within(d.maxpieces, p.pieces) || !within(d.maxpawns, p.pawns) {
            0
        } else if score.abs() <= d.score {
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

    /// `-draw`: a ply that resets the count is then counted; a move without
    /// an eval resets it. What resets, and the move floor, by [`Gui`].
    fn runner_draw_add(&mut self, d: &Draw, gui: Gui, ply: u32, p: &Ply) -> Option<Fire> {
        let (reset, moves) = match gui {
            Gui::Cutechess => (p.irreversible, ply / 2),
            // `halfMoveClock() == 0`; `fullMoveNumber() - 1` after the move.
            Gui::Fastchess => (
                p.halfmove == 0,
                p.move_number.saturating_sub(u32::from(p.white)),
            ),
        };
        if reset {
            self.runner_draw = 0;
        }
        let Some(e) = p.eval else {
            self.runner_draw = 0;
            return None;
        };
        self.runner_draw = if e.abs() <= d.score {
            self.runner_draw + 1
        } else {
            0
        };
        (moves >= d.movenumber && self.runner_draw >= 2 * d.movecount).then_some(Fire {
            ply,
            result: Outcome::Draw,
            clause: clause::DRAW,
        })
    }

    /// `-resign`: the mover's own eval at or below −score for movecount own
    /// moves; `twosided`, by [`Gui`]: cutechess also needs the opponent at or
    /// above +score as long, fastchess 2·movecount plies beyond ±score in a
    /// row, the mover's eval negative.
    fn runner_resign_add(&mut self, r: &Resign, gui: Gui, ply: u32, p: &Ply) -> Option<Fire> {
        let s = side(p.white);
        let Some(e) = p.eval else {
            self.runner_resign[s] = 0;
            self.runner_winning[s] = 0;
            self.fast_beyond = 0;
            return None;
        };
        // A mate is beyond every score (±(MATE − n)).
        self.fast_beyond = if e.abs() >= r.score {
            self.fast_beyond + 1
        } else {
            0
        };
        if r.twosided && gui == Gui::Fastchess {
            return (self.fast_beyond >= 2 * r.movecount && e < 0).then_some(Fire {
                ply,
                result: Outcome::win(!p.white),
                clause: clause::RESIGN,
            });
        }
        self.runner_resign[s] = if e <= -r.score {
            self.runner_resign[s] + 1
        } else {
            0
        };
        self.runner_winning[s] = if e >= r.score {
            self.runner_winning[s] + 1
        } else {
            0
        };
        let two = !r.twosided || self.runner_winning[1 - s] >= r.movecount;
        (self.runner_resign[s] >= r.movecount && two).then_some(Fire {
            ply,
            result: Outcome::win(!p.white),
            clause: clause::RESIGN,
        })
    }

    /// `-maxmoves`: cutechess draws at a searched move once the plies since
    /// the start reach 2·N, fastchess after 2·N moves not from the book.
    fn maxmoves_add(&mut self, m: &MaxMoves, gui: Gui, ply: u32, p: &Ply) -> Option<Fire> {
        self.engine_plies += u32::from(!p.book);
        let reached = m.movecount > 0
            && match gui {
                Gui::Cutechess => !p.book && !p.silent && ply >= 2 * m.movecount,
                Gui::Fastchess => self.engine_plies >= 2 * m.movecount,
            };
        reached.then_some(Fire {
            ply,
            result: Outcome::Draw,
            clause: clause::MAXMOVES,
        })
    }

    /// Terra's draw offers and acceptances: an offer at ply p is agreed when
    /// the opponent's move at p+1 meets the acceptance rules.
    fn terra_draw(&mut self, d: &TerraDraw, hist: &[Ply]) -> Option<Fire> {
        let i = hist.len() - 1;
        let p = hist[i];
        let s = side(p.white);
        let ply = hist.len() as u32;
        let common = ply.div_ceil(2) >= d.movenumber
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::adjudication::RuleSet;

    /// Plies alternating White, Black from White; quiet moves (halfmove
    /// clock counting up), first occurrences, no clocks.
    fn game(evals: &[Option<i32>]) -> Vec<Ply> {
        evals
            .iter()
            .enumerate()
            .map(|(i, e)| Ply {
                white: i % 2 == 0,
                eval: *e,
                move_number: i as u32 / 2 + 1,
                halfmove: i as u32 + 1,
                repetition: 1,
                ..Ply::default()
            })
            .collect()
    }

    fn all(e: i32, n: usize) -> Vec<Option<i32>> {
        vec![Some(e); n]
    }

    /// Own evals: White `w`, Black `b`, alternating, `n` plies.
    fn pair(w: i32, b: i32, n: usize) -> Vec<Option<i32>> {
        (0..n)
            .map(|i| Some(if i % 2 == 0 { w } else { b }))
            .collect()
    }

    fn rules(toml: &str) -> Compiled {
        RuleSet::parse(&format!("name = 't'\n{toml}"), "test")
            .unwrap()
            .compile("Event", "1")
    }

    fn fire(r: &Compiled, g: &[Ply]) -> Option<(u32, &'static str, &'static str)> {
        replay(r, g, false)
            .fire
            .map(|f| (f.ply, f.result.pgn(), f.clause))
    }

    const NO_ALWAYS: &str = "[always]\nfifty = false\nthreefold = false\ndead = false\n";

    #[test]
    fn cutechess_resign_after_movecount_own_moves() {
        let r = rules("[resign]\nmovecount = 3\nscore = 500\n");
        // Black at -5.00 on its moves 2, 4, 6: resigns at ply 6.
        assert_eq!(
            fire(&r, &game(&pair(500, -500, 10))),
            Some((6, "1-0", "resign"))
        );
        // -4.99 is not at or below -5.00: never.
        assert_eq!(fire(&r, &game(&pair(500, -499, 10))), None);
        // One better move restarts the count: plies 2, 4 bad, 6 not, 8, 10, 12 bad.
        let mut e = pair(0, -600, 14);
        e[5] = Some(-100);
        assert_eq!(fire(&r, &game(&e)), Some((12, "1-0", "resign")));
        // A move without an eval restarts it too.
        e[5] = None;
        assert_eq!(fire(&r, &game(&e)), Some((12, "1-0", "resign")));
    }

    #[test]
    fn cutechess_resign_twosided_needs_the_winner_too() {
        let r = rules("[resign]\nmovecount = 2\nscore = 300\ntwosided = true\n");
        assert_eq!(
            fire(&r, &game(&pair(300, -300, 8))),
            Some((4, "1-0", "resign"))
        );
        // The opponent at +2.99 does not confirm.
        assert_eq!(fire(&r, &game(&pair(299, -300, 8))), None);
        let one = rules("[resign]\nmovecount = 2\nscore = 300\n");
        assert_eq!(
            fire(&one, &game(&pair(299, -300, 8))),
            Some((4, "1-0", "resign"))
        );
    }

    #[test]
    fn cutechess_draw_window_floor_and_resets() {
        let r = rules(&format!(
            "{NO_ALWAYS}[draw]\nmovenumber = 0\nmovecount = 2\nscore = 10\n"
        ));
        // 2 moves each = 4 plies within ±0.10.
        assert_eq!(fire(&r, &game(&all(10, 12))), Some((4, "1/2-1/2", "draw")));
        assert_eq!(fire(&r, &game(&all(11, 12))), None);
        // A capture at ply 3 resets the count and is counted: plies 3..6.
        let mut g = game(&all(0, 12));
        (g[2].halfmove, g[2].irreversible) = (0, true);
        assert_eq!(fire(&r, &g), Some((6, "1/2-1/2", "draw")));
        // A move without an eval resets it and is not counted: plies 4..7.
        let mut e = all(0, 12);
        e[2] = None;
        assert_eq!(fire(&r, &game(&e)), Some((7, "1/2-1/2", "draw")));
        // The move floor: full move 5 (ply/2 >= 5) first at ply 10.
        let f = rules(&format!(
            "{NO_ALWAYS}[draw]\nmovenumber = 5\nmovecount = 2\nscore = 10\n"
        ));
        assert_eq!(fire(&f, &game(&all(0, 12))), Some((10, "1/2-1/2", "draw")));
        // A game shorter than the window never fires.
        assert_eq!(fire(&r, &game(&all(0, 3))), None);
    }

    /// Both runners' rules from the same keys, `gui` apart.
    fn both(toml: &str) -> [Compiled; 2] {
        ["cutechess", "fastchess"].map(|g| rules(&format!("gui = '{g}'\n{NO_ALWAYS}{toml}")))
    }

    #[test]
    fn fastchess_draw_resets_on_the_halfmove_clock_only() {
        let [cute, fast] = both("[draw]\nmovenumber = 0\nmovecount = 2\nscore = 10\n");
        // A rook move that gives up a castling right: cutechess's board counts
        // it irreversible, fastchess's halfmove clock goes on.
        let mut g = game(&all(0, 12));
        g[2].irreversible = true;
        assert_eq!(fire(&cute, &g), Some((6, "1/2-1/2", "draw")));
        assert_eq!(fire(&fast, &g), Some((4, "1/2-1/2", "draw")));
        // A capture resets both.
        (g[2].halfmove, g[2].irreversible) = (0, true);
        assert_eq!(fire(&cute, &g), Some((6, "1/2-1/2", "draw")));
        assert_eq!(fire(&fast, &g), Some((6, "1/2-1/2", "draw")));
    }

    #[test]
    fn fastchess_draw_floor_is_the_boards_move_number() {
        let [cute, fast] = both("[draw]\nmovenumber = 31\nmovecount = 1\nscore = 10\n");
        // From a FEN at move 30, Black to move: Black's 30th, White's 31st, …
        let g: Vec<Ply> = (0..70u32)
            .map(|i| Ply {
                white: i % 2 == 1,
                eval: Some(0),
                move_number: 30 + i.div_ceil(2),
                halfmove: i + 1,
                repetition: 1,
                ..Ply::default()
            })
            .collect();
        // fastchess: `fullMoveNumber() - 1` = 31 after Black's 31st move (ply
        // 3); cutechess: plies since the FEN / 2 = 31 at ply 62.
        assert_eq!(fire(&fast, &g), Some((3, "1/2-1/2", "draw")));
        assert_eq!(fire(&cute, &g), Some((62, "1/2-1/2", "draw")));
    }

    #[test]
    fn fastchess_twosided_resign_counts_plies_beyond_the_score_either_way() {
        let [cute, fast] = both("[resign]\nmovecount = 2\nscore = 300\ntwosided = true\n");
        // The usual case: both agree, Black resigns at its 2nd move.
        for r in [&cute, &fast] {
            assert_eq!(
                fire(r, &game(&pair(300, -300, 8))),
                Some((4, "1-0", "resign"))
            );
        }
        // White losing: its 3rd move, once Black has been winning for 2 (cutechess)
        // and 4 plies in a row are beyond ±3.00 with the mover negative (fastchess).
        for r in [&cute, &fast] {
            assert_eq!(
                fire(r, &game(&pair(-300, 300, 8))),
                Some((5, "0-1", "resign"))
            );
        }
        // Both engines think they lose: cutechess waits for a winner, fastchess
        // counts |score| and the mover (Black at ply 4) is negative.
        assert_eq!(fire(&cute, &game(&pair(-300, -300, 8))), None);
        assert_eq!(
            fire(&fast, &game(&pair(-300, -300, 8))),
            Some((4, "1-0", "resign"))
        );
        // A ply within ±score breaks fastchess's count: plies 4..7 again.
        let mut e = pair(300, -300, 12);
        e[2] = Some(299);
        assert_eq!(fire(&fast, &game(&e)), Some((8, "1-0", "resign")));
        // One-sided, both count alike.
        let [c1, f1] = both("[resign]\nmovecount = 2\nscore = 300\n");
        for r in [&c1, &f1] {
            assert_eq!(
                fire(r, &game(&pair(-300, -300, 8))),
                Some((3, "0-1", "resign"))
            );
        }
    }

    #[test]
    fn maxmoves_counts_every_ply_in_cutechess_and_engine_moves_in_fastchess() {
        let [cute, fast] = both("[maxmoves]\nmovecount = 3\n");
        let mut g = game(&all(0, 20));
        for p in &mut g[..4] {
            (p.book, p.eval) = (true, None);
        }
        // cutechess: the 6th ply since the start; fastchess: the 6th engine move.
        assert_eq!(fire(&cute, &g), Some((6, "1/2-1/2", "maxmoves")));
        assert_eq!(fire(&fast, &g), Some((10, "1/2-1/2", "maxmoves")));
        // cutechess adjudicates only at a searched move: a silent 6th ply waits.
        g[5].silent = true;
        assert_eq!(fire(&cute, &g), Some((7, "1/2-1/2", "maxmoves")));
        // 0 is off.
        let [c0, f0] = both("[maxmoves]\nmovecount = 0\n");
        assert_eq!((fire(&c0, &g), fire(&f0, &g)), (None, None));
    }

    #[test]
    fn tcec_draw_clock_counts_down_and_fires_at_zero() {
        let r = rules(
            "[[tcec]]\nera = 'e'\nevents = ''\ndraw = { movenumber = 1, movecount = 2, score = 10 }\n",
        );
        let rep = replay(&r, &game(&all(0, 6)), true);
        let rd: Vec<i16> = rep.clocks.iter().map(|c| c.0).collect();
        assert_eq!(rd, [3, 2, 1, 0, 0, 0]);
        assert_eq!(rep.clocks[0].1, CLOCK_OFF, "win rule off");
        let f = rep.fire.unwrap();
        assert_eq!(
            (f.ply, f.result, f.clause),
            (4, Outcome::Draw, clause::TCEC_DRAW)
        );
        // Out of the window: nothing counted, −L−1.
        let rep = replay(&r, &game(&all(11, 4)), true);
        assert!(rep.clocks.iter().all(|c| c.0 == -5) && rep.fire.is_none());
    }

    #[test]
    fn tcec_draw_skips_the_resetting_ply() {
        let r = rules(
            "[[tcec]]\nera = 'e'\nevents = ''\ndraw = { movenumber = 1, movecount = 2, score = 10 }\n",
        );
        // A capture at ply 3 prints −L−1, resets, and is not counted (-tcecadj):
        // plies 4..7 complete the window.
        let mut g = game(&all(0, 10));
        (g[2].halfmove, g[2].irreversible) = (0, true);
        let rep = replay(&r, &g, true);
        let rd: Vec<i16> = rep.clocks.iter().take(7).map(|c| c.0).collect();
        assert_eq!(rd, [3, 2, -5, 3, 2, 1, 0]);
        assert_eq!(rep.fire.unwrap().ply, 7);
    }

    /// Tablebase adjudication: at the first ply with at most `men` men that
    /// the tables know, before any other rule; off without a `tb` part; a mate
    /// is the board's own result.
    #[test]
    fn tablebase_rule_fires_at_the_first_position_in_the_tables() {
        let r = rules(
            "[[tcec]]\nera = 'e'\nevents = ''\ndraw = { movenumber = 1, movecount = 2, score = 10 }\ntb = { men = 5 }\n",
        );
        let mut g = game(&all(500, 8));
        for (i, p) in g.iter_mut().enumerate() {
            (p.pieces, p.pawns) = (if i < 4 { 4 } else { 3 }, 2);
            // The loader probes only up to the rule's men; a stand-in here.
            p.tb = (i >= 2).then_some(Outcome::WhiteWins);
        }
        // Ply 3 has 6 men although the tables know it; ply 5 has 5.
        assert_eq!(fire(&r, &g), Some((5, "1-0", "tablebase")));
        // Not in the tables (None): nothing fires.
        g.iter_mut().for_each(|p| p.tb = None);
        assert_eq!(fire(&r, &g), None);
        // A mate ends the game first.
        g[4].tb = Some(Outcome::Draw);
        g[4].mate = true;
        assert_eq!(fire(&r, &g), None);
        // No `tb` part: the rule is off.
        g[4].mate = false;
        let off = rules(
            "[[tcec]]\nera = 'e'\nevents = ''\ndraw = { movenumber = 1, movecount = 2, score = 10 }\n",
        );
        assert_eq!(fire(&off, &g), None);
        assert_eq!(fire(&r, &g), Some((5, "1/2-1/2", "tablebase")));
    }

    /// The fork's 2022 draw rule (Season 22 on), `reset = false`: a capture
    /// is counted and does not reset, yet `drawClock` still prints −L−1 for it.
    #[test]
    fn tcec_new_draw_rule_counts_through_captures() {
        let rd = |r: &Compiled, g: &[Ply]| -> Vec<i16> {
            replay(r, g, true).clocks.iter().map(|c| c.0).collect()
        };
        let r = rules(
            "[[tcec]]\nera = 'e'\nevents = ''\ndraw = { movenumber = 1, movecount = 2, score = 10, reset = false }\n",
        );
        let mut g = game(&all(0, 6));
        (g[2].halfmove, g[2].irreversible) = (0, true);
        assert_eq!(rd(&r, &g)[..4], [3, 2, -5, 0]);
        assert_eq!(fire(&r, &g), Some((4, "1/2-1/2", "tcec draw rule")));
        // A rook giving up a castling right resets like a capture with `reset`.
        let old = rules(
            "[[tcec]]\nera = 'e'\nevents = ''\ndraw = { movenumber = 1, movecount = 2, score = 10 }\n",
        );
        g[2].halfmove = 3;
        assert_eq!(fire(&old, &g), None, "plies 4..6 are one short");
    }

    /// `maxpieces`/`maxpawns`: above a limit the stored count is zeroed, but
    /// `drawClock` ignores the limits and keeps printing L−1 (the spec's
    /// "Rd stays 7" example, with L = 8).
    #[test]
    fn tcec_draw_piece_and_pawn_limits() {
        let r = rules(
            "[[tcec]]\nera = 'e'\nevents = ''\ndraw = { movenumber = 1, movecount = 2, score = 10, maxpieces = 6, maxpawns = 8, reset = false }\n",
        );
        let mut g = game(&all(0, 9));
        for (i, p) in g.iter_mut().enumerate() {
            p.pieces = if i < 3 { 10 } else { 6 };
            p.pawns = 8;
        }
        let rep = replay(&r, &g, true);
        let rd: Vec<i16> = rep.clocks.iter().take(7).map(|c| c.0).collect();
        assert_eq!(rd, [3, 3, 3, 3, 2, 1, 0]);
        assert_eq!(rep.fire.unwrap().ply, 7);
        // Nine pawns at ply 5 zero the count again: plies 6..9.
        g[4].pawns = 9;
        assert_eq!(fire(&r, &g), Some((9, "1/2-1/2", "tcec draw rule")));
        // 0 = no limit.
        let free = rules(
            "[[tcec]]\nera = 'e'\nevents = ''\ndraw = { movenumber = 1, movecount = 2, score = 10, reset = false }\n",
        );
        assert_eq!(fire(&free, &g), Some((4, "1/2-1/2", "tcec draw rule")));
    }

    /// A move the engine reported nothing for carries cutechess's NULL_SCORE
    /// (out of the window); a placeholder ("d=1 0.00") counts as 0.00.
    #[test]
    fn tcec_silent_moves_break_the_window_placeholders_do_not() {
        let r = rules(
            "[[tcec]]\nera = 'e'\nevents = ''\ndraw = { movenumber = 1, movecount = 2, score = 10 }\n",
        );
        let mut e = all(0, 8);
        e[2] = None;
        let mut g = game(&e);
        assert!(g[2].placeholder());
        assert_eq!(fire(&r, &g), Some((4, "1/2-1/2", "tcec draw rule")));
        g[2].silent = true;
        assert!(!g[2].placeholder());
        let rep = replay(&r, &g, true);
        assert_eq!(rep.clocks[2].0, -5);
        assert_eq!(rep.fire.unwrap().ply, 7);
    }

    #[test]
    fn tcec_draw_move_floor_prints_negative_until_reachable() {
        let r = rules(
            "[[tcec]]\nera = 'e'\nevents = ''\ndraw = { movenumber = 5, movecount = 2, score = 10 }\n",
        );
        let rep = replay(&r, &game(&all(0, 10)), true);
        let rd: Vec<i16> = rep.clocks.iter().map(|c| c.0).collect();
        // (ply + remaining)/2 < 5 → −remaining−1; count ≥ L → remaining 0.
        assert_eq!(rd, [-4, -3, -2, -1, -1, -1, -1, -1, -1, 0]);
        assert_eq!(rep.fire.unwrap().ply, 10);
    }

    #[test]
    fn tcec_win_rule_needs_both_sides() {
        let r = rules("[[tcec]]\nera = 'e'\nevents = ''\nwin = { movecount = 2, score = 100 }\n");
        let rep = replay(&r, &game(&pair(200, -200, 8)), true);
        let rr: Vec<i16> = rep.clocks.iter().take(4).map(|c| c.1).collect();
        assert_eq!(rr, [3, 2, 1, 0]);
        assert_eq!(rep.clocks[0].0, CLOCK_OFF, "draw rule off");
        let f = rep.fire.unwrap();
        assert_eq!(
            (f.ply, f.result, f.clause),
            (4, Outcome::WhiteWins, clause::TCEC_WIN)
        );
        // Only White is beyond the threshold: never, and Black's moves print −L−1.
        let rep = replay(&r, &game(&pair(200, -50, 8)), true);
        assert!(rep.fire.is_none());
        assert_eq!(rep.clocks[1].1, -5);
        // Black winning: Black's own +, White's own −.
        assert_eq!(
            fire(&r, &game(&pair(-150, 150, 8))),
            Some((4, "0-1", "tcec win rule"))
        );
    }

    #[test]
    fn tcec_book_moves_reset_and_placeholders_count_as_zero() {
        let r = rules(
            "[[tcec]]\nera = 'e'\nevents = ''\ndraw = { movenumber = 1, movecount = 2, score = 10 }\n",
        );
        let mut g = game(&[None, None, None, None, None, None, None]);
        g[0].book = true;
        g[1].book = true;
        // Plies 3.. have no eval (placeholders): counted as 0.00.
        let rep = replay(&r, &g, true);
        assert_eq!(rep.fire.unwrap().ply, 6);
        assert_eq!(rep.clocks[2].0, 3);
    }

    #[test]
    fn mates_are_beyond_every_threshold_and_end_the_game() {
        let r = rules(&format!(
            "{NO_ALWAYS}[resign]\nmovecount = 1\nscore = 900\n[draw]\nmovenumber = 0\nmovecount = 1\nscore = 10\n"
        ));
        // White announces mate (+M), Black sees being mated (−M): Black resigns.
        let e = [Some(MATE - 3), Some(-MATE + 2)];
        assert_eq!(fire(&r, &game(&e)), Some((2, "1-0", "resign")));
        // After a mating move nothing fires (the game is over).
        let mut g = game(&[Some(0), Some(0), Some(0)]);
        g[0].mate = true;
        assert_eq!(fire(&r, &g), None);
    }

    #[test]
    fn always_rules_end_games_as_draws() {
        let r = rules("");
        let mut g = game(&all(0, 6));
        g[3].repetition = 3;
        assert_eq!(fire(&r, &g), Some((4, "1/2-1/2", "threefold repetition")));
        let mut g = game(&all(0, 6));
        g[4].halfmove = 100;
        assert_eq!(fire(&r, &g), Some((5, "1/2-1/2", "fifty-move rule")));
        let mut g = game(&all(0, 6));
        g[1].dead = true;
        assert_eq!(fire(&r, &g), Some((2, "1/2-1/2", "dead material")));
        assert_eq!(fire(&rules(NO_ALWAYS), &g), None);
    }

    /// Black losing: own evals −5.00 and worse, a rook down, White improving.
    fn terra_losing() -> Vec<Ply> {
        let mut g = game(
            &(0..12)
                .map(|i| Some(if i % 2 == 0 { 100 + 30 * i } else { -500 }))
                .collect::<Vec<_>>(),
        );
        for p in g.iter_mut() {
            p.material = if p.white { 500 } else { -500 };
        }
        g
    }

    #[test]
    fn terra_resigns_only_when_every_clause_holds() {
        let r = RuleSet::load("terra").unwrap().compile("x", "1");
        // Black's 4th move at −5.00 is ply 8; White rose 100 → 280 over its last 4.
        assert_eq!(fire(&r, &terra_losing()), Some((8, "1-0", "terra resign")));
        // Material only −3.00: no.
        let mut g = terra_losing();
        g.iter_mut()
            .filter(|p| !p.white)
            .for_each(|p| p.material = -300);
        assert_eq!(fire(&r, &g), None);
        // Giving check: not at that move.
        let mut g = terra_losing();
        g[7].check = true;
        assert_eq!(fire(&r, &g).map(|f| f.0), Some(10));
        // The opponent short of time (10 s for 20 moves): no; unknown clock: yes.
        let mut g = terra_losing();
        g.iter_mut()
            .filter(|p| p.white)
            .for_each(|p| p.time_left_ms = Some(10_000));
        assert_eq!(fire(&r, &g), None);
        // The opponent announces mate: no.
        let mut g = terra_losing();
        g[6].eval = Some(MATE - 5);
        assert_eq!(fire(&r, &g).map(|f| f.0), Some(10));
        // The opponent not improving (flat +1.00): no.
        let mut g = terra_losing();
        g.iter_mut()
            .filter(|p| p.white)
            .for_each(|p| p.eval = Some(100));
        assert_eq!(fire(&r, &g), None);
        // −4.50 is not below −4.50.
        let mut g = terra_losing();
        g.iter_mut()
            .filter(|p| !p.white)
            .for_each(|p| p.eval = Some(-450));
        assert_eq!(fire(&r, &g), None);
    }

    #[test]
    fn terra_draw_offer_then_acceptance() {
        let r = RuleSet::load("terra").unwrap().compile("x", "1");
        // All evals 0.00: White offers at ply 79 (move 40), Black accepts at 80.
        assert_eq!(
            fire(&r, &game(&all(0, 100))),
            Some((80, "1/2-1/2", "terra draw"))
        );
        // An own eval above contempt in the last 5 blocks offers and acceptances.
        let mut e = all(0, 120);
        e[79] = Some(10); // Black's move at ply 80
        // White offers at 79; Black cannot accept until its ply-80 eval leaves
        // its window (ply 90). White may not offer again within 10 own moves,
        // so Black offers at 90 and White accepts at 91.
        assert_eq!(fire(&r, &game(&e)), Some((91, "1/2-1/2", "terra draw")));
        let no_gap = RuleSet::load("terra")
            .unwrap()
            .set("terra.draw.gap", "0")
            .unwrap()
            .compile("x", "1");
        // Without the gap White offers again at 89 and Black accepts at 90.
        assert_eq!(
            fire(&no_gap, &game(&e)),
            Some((90, "1/2-1/2", "terra draw"))
        );
        // An offer needs the eval at least s = −0.50; acceptance does not.
        let low = pair(-60, 0, 100);
        assert_eq!(fire(&r, &game(&low)), Some((81, "1/2-1/2", "terra draw")));
    }

    #[test]
    fn replay_never_looks_ahead() {
        let r = RuleSet::load("tcec")
            .unwrap()
            .compile("TCEC Season 14 - Division 1", "1.1");
        let e: Vec<Option<i32>> = (0..200).map(|i| Some(((i * 37) % 23) - 11)).collect();
        let mut g = game(&e);
        for (i, p) in g.iter_mut().enumerate() {
            p.halfmove = (i % 13) as u32;
            p.irreversible = p.halfmove == 0;
        }
        let full = replay(&r, &g, true);
        for n in [1, 50, 77, 120, 199] {
            let part = replay(&r, &g[..n], true);
            assert_eq!(part.clocks, full.clocks[..n]);
        }
    }
}
