//! The features of a whole solution line (docs/definitions/difficulty.md,
//! readings 6 and 7), on plain values: [`board`] replays the line's moves
//! (what the board alone says), [`step`] reads one solver position's
//! analysis and policy, [`features`] folds them into one row.
//!
//! A line starts at the solver's first position and alternates solver and
//! opponent moves, ending with the solver's: a Lichess puzzle after its
//! first (the opponent's) move, or a game position with the forced part of
//! the analysis' line.

use shakmaty::uci::UciMove;
use shakmaty::{Chess, Color, Position, Role};

use super::measures::{self, Position as Inputs};

/// A prior below this counts as this in the surprisal (Maia prices every
/// legal move, but rounds to 0.01 %).
const PRIOR_FLOOR: f64 = 1e-4;

/// What the board says of one solver move.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BoardStep {
    /// The solver's move, UCI.
    pub solution: String,
    /// The solver's legal moves.
    pub legal: u32,
    pub capture: bool,
    pub check: bool,
    pub mate: bool,
    pub promotion: bool,
    /// The opponent's legal replies after the move (0 after mate).
    pub replies: u32,
    /// The solver's legal moves that check or capture: the forcing
    /// candidates a solver looks at first.
    pub forcing: u32,
}

/// What the board says of a line.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Board {
    pub steps: Vec<BoardStep>,
    /// The opponent's move before the line captured (a recapture puzzle).
    pub after_capture: bool,
    /// Both sides' material at the start, pawns (1/3/3/5/9).
    pub material: f64,
    /// Both sides' material without pawns.
    pub pieces: f64,
    /// The solver's material minus the opponent's.
    pub edge: f64,
}

fn material(pos: &Chess, color: Color) -> (f64, f64) {
    let b = pos.board();
    let side = b.by_color(color);
    let count = |r: Role| (b.by_role(r) & side).count() as f64;
    let pieces = 3.0 * count(Role::Knight)
        + 3.0 * count(Role::Bishop)
        + 5.0 * count(Role::Rook)
        + 9.0 * count(Role::Queen);
    (count(Role::Pawn) + pieces, pieces)
}

/// Replays `moves` (UCI, solver first) from `start`, the solver's first
/// position; `after_capture` says whether the move into `start` captured.
pub fn board(start: &Chess, moves: &[String], after_capture: bool) -> Result<Board, String> {
    let me = start.turn();
    let ((mine, my_pieces), (theirs, their_pieces)) = (material(start, me), material(start, !me));
    let mut out = Board {
        steps: Vec::new(),
        after_capture,
        material: mine + theirs,
        pieces: my_pieces + their_pieces,
        edge: mine - theirs,
    };
    let mut pos = start.clone();
    for (i, m) in moves.iter().enumerate() {
        let uci: UciMove = m.parse().map_err(|e| format!("`{m}`: {e}"))?;
        let mv = uci.to_move(&pos).map_err(|e| format!("`{m}`: {e}"))?;
        let moves = pos.legal_moves();
        let legal = moves.len() as u32;
        let forcing = moves
            .iter()
            .filter(|m| m.is_capture() || pos.clone().play(**m).is_ok_and(|p| p.is_check()))
            .count() as u32;
        let (capture, promotion) = (mv.is_capture(), mv.is_promotion());
        pos.play_unchecked(mv);
        if i % 2 == 0 {
            out.steps.push(BoardStep {
                solution: m.clone(),
                legal,
                capture,
                check: pos.is_check(),
                mate: pos.is_checkmate(),
                promotion,
                replies: pos.legal_moves().len() as u32,
                forcing,
            });
        }
    }
    Ok(out)
}

/// What the analysis and the policy say of one solver position and its
/// solution move.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct EngineStep {
    /// The policy's prior of the solution (a fraction).
    pub prior: Option<f64>,
    /// 1 + the moves the policy prices above it.
    pub rank: Option<u32>,
    pub entropy: Option<f64>,
    /// The first depth from which the analysis' best move stays the
    /// solution; the last depth + 1 when it never settles on it.
    pub depth_to_find: Option<f64>,
    /// Q of the best line minus the second's.
    pub q_gap: Option<f64>,
    /// Lines within 0.1 Q of the best: the moves that keep the result.
    pub good_moves: Option<f64>,
    /// The analysis' best move is the solution.
    pub best_is_solution: Option<bool>,
    pub ease: Option<f64>,
    /// Q of the best line: how much the solution wins.
    pub q_best: Option<f64>,
}

/// One solver position's engine measures for `solution`.
#[must_use]
pub fn step(p: &Inputs, solution: &str) -> EngineStep {
    let m = measures::measures(p);
    let scale = p.prior_scale();
    let prior = p.prior(solution);
    let rank = prior.map(|x| 1 + p.priors.iter().filter(|(_, v)| v / scale > x).count() as u32);
    let depth_to_find = p.best_by_depth.last().map(|(last, _)| {
        let stay = p
            .best_by_depth
            .iter()
            .rev()
            .take_while(|(_, mv)| mv == solution);
        stay.last()
            .map_or(f64::from(*last) + 1.0, |(d, _)| f64::from(*d))
    });
    EngineStep {
        prior,
        rank,
        entropy: m.policy_entropy,
        depth_to_find,
        q_gap: m.q_gap,
        good_moves: m.good_moves.map(f64::from),
        best_is_solution: m.best_move.as_deref().map(|b| b == solution),
        ease: m.ease_sum,
        q_best: m.q_max,
    }
}

/// Game lines end after this many solver moves (98.5 % of the 30,000
/// training puzzles have at most 6).
pub const MAX_LINE: usize = 6;

/// The forced part of a game's line from its first solver position:
/// `next(k)` is the engine step of the k-th further solver position (the
/// game's move there as the solution), none where the game or the analysis
/// ends. A further step joins while the solver's previous move was the
/// analysis' best and it is the one good move of its position (no other
/// line within 0.1 Q) and the analysis' best; at most [`MAX_LINE`] steps.
pub fn forced(
    first: EngineStep,
    mut next: impl FnMut(usize) -> Option<EngineStep>,
) -> Vec<EngineStep> {
    let mut steps = vec![first];
    while steps.len() < MAX_LINE {
        let Some(s) = next(steps.len()) else { break };
        let last = steps.last().expect("one step");
        if last.best_is_solution != Some(true)
            || s.good_moves != Some(1.0)
            || s.best_is_solution != Some(true)
        {
            break;
        }
        steps.push(s);
    }
    steps
}

/// A feature's value from a line's board and engine steps (`None`: unknown).
pub type Get = fn(&Board, &[EngineStep]) -> Option<f64>;

fn mean(v: impl Iterator<Item = f64>) -> Option<f64> {
    let (s, n) = v.fold((0.0, 0usize), |(s, n), x| (s + x, n + 1));
    (n > 0).then(|| s / n as f64)
}
fn count(b: &Board, f: fn(&BoardStep) -> bool) -> Option<f64> {
    Some(b.steps.iter().filter(|s| f(s)).count() as f64)
}
/// Every step's value, or `None` when one is unknown.
fn all(e: &[EngineStep], f: fn(&EngineStep) -> Option<f64>) -> Option<Vec<f64>> {
    (!e.is_empty()).then_some(())?;
    e.iter().map(f).collect()
}
fn first(e: &[EngineStep], f: fn(&EngineStep) -> Option<f64>) -> Option<f64> {
    e.first().and_then(f)
}
fn max(v: Vec<f64>) -> f64 {
    v.into_iter().fold(f64::NEG_INFINITY, f64::max)
}
fn min(v: Vec<f64>) -> f64 {
    v.into_iter().fold(f64::INFINITY, f64::min)
}
fn b(x: bool) -> f64 {
    f64::from(u8::from(x))
}

/// Every line feature, by name (the model file names them). The board's
/// first, which need no engine.
pub const FEATURES: [(&str, Get); 35] = [
    ("solver_moves", |b, _| Some(b.steps.len() as f64)),
    ("quiet_moves", |b, _| {
        count(b, |s| !s.capture && !s.check && !s.promotion)
    }),
    ("solver_checks", |b, _| count(b, |s| s.check)),
    ("solver_captures", |b, _| count(b, |s| s.capture)),
    ("ends_in_mate", |b, _| {
        b.steps.last().map(|s| self::b(s.mate))
    }),
    ("after_capture", |b, _| Some(self::b(b.after_capture))),
    ("legal_first", |b, _| {
        b.steps.first().map(|s| f64::from(s.legal))
    }),
    ("legal_mean", |b, _| {
        mean(b.steps.iter().map(|s| f64::from(s.legal)))
    }),
    // The replies after the last move end the line: not the solver's problem.
    ("replies_mean", |b, _| {
        mean(b.steps.iter().rev().skip(1).map(|s| f64::from(s.replies)))
    }),
    ("replies_min", |b, _| {
        b.steps
            .iter()
            .rev()
            .skip(1)
            .map(|s| f64::from(s.replies))
            .reduce(f64::min)
    }),
    ("forcing_first", |b, _| {
        b.steps.first().map(|s| f64::from(s.forcing))
    }),
    ("material", |b, _| Some(b.material)),
    ("pieces", |b, _| Some(b.pieces)),
    ("material_edge", |b, _| Some(b.edge)),
    ("prior_first", |_, e| first(e, |s| s.prior)),
    ("prior_min", |_, e| all(e, |s| s.prior).map(min)),
    ("prior_second", |_, e| e.get(1).and_then(|s| s.prior)),
    ("surprisal", |_, e| {
        all(e, |s| s.prior).map(|v| v.iter().map(|p| -p.max(PRIOR_FLOOR).ln()).sum())
    }),
    ("rank_first", |_, e| first(e, |s| s.rank.map(f64::from))),
    ("rank_max", |_, e| {
        all(e, |s| s.rank.map(f64::from)).map(max)
    }),
    ("policy_misses", |_, e| {
        all(e, |s| s.rank.map(|r| b(r > 1))).map(|v| v.iter().sum())
    }),
    ("entropy_first", |_, e| first(e, |s| s.entropy)),
    ("entropy_mean", |_, e| {
        all(e, |s| s.entropy).and_then(|v| mean(v.into_iter()))
    }),
    ("depth_first", |_, e| first(e, |s| s.depth_to_find)),
    ("depth_max", |_, e| all(e, |s| s.depth_to_find).map(max)),
    ("depth_last", |_, e| e.last().and_then(|s| s.depth_to_find)),
    ("depth_sum", |_, e| {
        all(e, |s| s.depth_to_find).map(|v| v.iter().sum())
    }),
    ("gap_first", |_, e| first(e, |s| s.q_gap)),
    ("gap_min", |_, e| all(e, |s| s.q_gap).map(min)),
    ("gap_mean", |_, e| {
        all(e, |s| s.q_gap).and_then(|v| mean(v.into_iter()))
    }),
    ("good_first", |_, e| first(e, |s| s.good_moves)),
    ("good_max", |_, e| all(e, |s| s.good_moves).map(max)),
    ("engine_misses", |_, e| {
        all(e, |s| s.best_is_solution.map(|x| b(!x))).map(|v| v.iter().sum())
    }),
    ("ease_first", |_, e| first(e, |s| s.ease)),
    ("q_first", |_, e| first(e, |s| s.q_best)),
];

/// The features of [`FEATURES`] that need no engine.
pub const BOARD_FEATURES: usize = 14;

/// A line's features, in [`FEATURES`] order.
#[must_use]
pub fn features(board: &Board, engine: &[EngineStep]) -> Vec<Option<f64>> {
    FEATURES.iter().map(|(_, f)| f(board, engine)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::difficulty::measures::Line;
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;

    fn pos(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .unwrap()
            .into_position(CastlingMode::Standard)
            .unwrap()
    }

    /// Lichess puzzle 00Bul after its first move d5c4 (a capture): White
    /// plays Nc6, Black Be6, White Nxd8. Counts by hand on the board.
    #[test]
    fn a_puzzle_on_the_board() {
        let start = pos("rnbqk2r/pp3ppp/5n2/4N3/2p5/2P5/P1PPQPPP/R1B1K2R w KQkq - 0 9");
        let moves: Vec<String> = ["e5c6", "c8e6", "c6d8"].map(String::from).to_vec();
        let b = board(&start, &moves, true).unwrap();
        assert_eq!(b.steps.len(), 2);
        // White: 7 pawns and N B R R Q (25); Black: 6 pawns (c4 among them)
        // and N N B R R Q (28).
        let (w, bl) = (7.0 + 25.0, 6.0 + 28.0);
        assert_eq!(
            (b.material, b.edge, b.pieces),
            (w + bl, w - bl, 25.0 + 28.0)
        );
        let s = &b.steps[0];
        // Nc6 leaves the e-file: Qe2 checks e8 (a discovered check).
        assert!(s.check && !s.capture && !s.mate);
        assert!(b.steps[1].capture && !b.steps[1].check);
        assert_eq!(s.solution, "e5c6");
        let f = features(&b, &[]);
        let get = |n: &str| f[FEATURES.iter().position(|x| x.0 == n).unwrap()];
        assert_eq!(get("solver_moves"), Some(2.0));
        assert_eq!(get("quiet_moves"), Some(0.0));
        assert_eq!(get("after_capture"), Some(1.0));
        assert_eq!(get("replies_mean"), Some(f64::from(s.replies)));
        // No engine steps: every engine feature unknown.
        assert!(f[BOARD_FEATURES..].iter().all(Option::is_none));
        assert!(f[..BOARD_FEATURES].iter().all(Option::is_some));
        assert!(board(&start, &["e2e5".to_string()], false).is_err());
    }

    /// A back-rank mate in one: the replies after the last move do not count.
    #[test]
    fn mate_in_one() {
        let start = pos("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
        let b = board(&start, &["a1a8".to_string()], false).unwrap();
        assert!(b.steps[0].mate && b.steps[0].check);
        assert_eq!(b.steps[0].replies, 0);
        // King: f1 f2 g2 h1 h2; rook: a2–a8 and b1–f1.
        assert_eq!(b.steps[0].legal, 5 + 7 + 5);
        // Forcing: Ra8+ alone (nothing to take).
        assert_eq!(b.steps[0].forcing, 1);
        let f = features(&b, &[]);
        let get = |n: &str| f[FEATURES.iter().position(|x| x.0 == n).unwrap()];
        assert_eq!(
            (get("ends_in_mate"), get("replies_mean")),
            (Some(1.0), None)
        );
        assert_eq!(get("material_edge"), Some(5.0 - 3.0));
    }

    /// The engine's measures of a solution: its prior, rank and depth.
    #[test]
    fn forced_lines() {
        let s = |good: f64, best: bool| EngineStep {
            good_moves: Some(good),
            best_is_solution: Some(best),
            ..EngineStep::default()
        };
        // The second step is forced and best; the third has two good moves.
        let steps = [s(1.0, true), s(2.0, true), s(1.0, true)];
        assert_eq!(forced(s(3.0, true), |k| steps.get(k - 1).cloned()).len(), 2);
        // The solver's first move was not the analysis' best: a line of one.
        assert_eq!(
            forced(s(1.0, false), |k| steps.get(k - 1).cloned()).len(),
            1
        );
        // A further move the analysis does not prefer ends it, as does the game.
        let steps = [s(1.0, true), s(1.0, false)];
        assert_eq!(forced(s(1.0, true), |k| steps.get(k - 1).cloned()).len(), 2);
        assert_eq!(forced(s(1.0, true), |_| Some(s(1.0, true))).len(), MAX_LINE);
    }

    #[test]
    fn engine_steps_by_hand() {
        let p = Inputs {
            lines: vec![
                Line {
                    multipv: 1,
                    mv: "a".into(),
                    q: Some(0.9),
                },
                Line {
                    multipv: 2,
                    mv: "b".into(),
                    q: Some(0.1),
                },
            ],
            final_best: Some("a".into()),
            priors: vec![("a".into(), 10.0), ("b".into(), 60.0), ("c".into(), 30.0)],
            best_by_depth: vec![(1, "b".into()), (2, "a".into()), (3, "a".into())],
        };
        let s = step(&p, "a");
        assert_eq!(
            (s.prior, s.rank, s.depth_to_find),
            (Some(0.1), Some(3), Some(2.0))
        );
        assert_eq!((s.good_moves, s.best_is_solution), (Some(1.0), Some(true)));
        assert!((s.q_gap.unwrap() - 0.8).abs() < 1e-12);
        // A solution the analysis never settles on: one past its last depth.
        let s = step(&p, "b");
        assert_eq!(
            (s.depth_to_find, s.rank, s.best_is_solution),
            (Some(4.0), Some(1), Some(false))
        );
        let b = Board {
            steps: vec![BoardStep::default(); 2],
            ..Board::default()
        };
        let e = [step(&p, "a"), step(&p, "b")];
        let f = features(&b, &e);
        let get = |n: &str| f[FEATURES.iter().position(|x| x.0 == n).unwrap()];
        assert_eq!(get("prior_min"), Some(0.1));
        assert!((get("surprisal").unwrap() - (-(0.1f64.ln()) - 0.6f64.ln())).abs() < 1e-12);
        assert_eq!(
            (get("rank_max"), get("policy_misses")),
            (Some(3.0), Some(1.0))
        );
        assert_eq!((get("depth_max"), get("depth_sum")), (Some(4.0), Some(6.0)));
        assert_eq!(get("engine_misses"), Some(1.0));
        // One step without a policy: the line's policy features unknown.
        let e = [
            step(&p, "a"),
            step(
                &Inputs {
                    priors: vec![],
                    ..p.clone()
                },
                "a",
            ),
        ];
        let f = features(&b, &e);
        let get = |n: &str| f[FEATURES.iter().position(|x| x.0 == n).unwrap()];
        assert_eq!((get("prior_first"), get("prior_min")), (Some(0.1), None));
    }
}
