//! The candidate difficulty measures of one position, on plain values
//! (docs/definitions/difficulty.md). [`super::query`] gathers a position's
//! lines, priors and best move per depth; [`measures`] computes the rest.

use crate::metrics::ease::math::{Candidate, Form, ease};

/// Moves within this much Q of the best count as [`Measures::good_moves`].
pub const GOOD_GAP: f64 = 0.1;
/// A move that loses at least this much Q against the best is losing
/// ([`Measures::prior_losing`]): a quarter of the Q scale, e.g. a won
/// position (Q 0.5, +1.6 pawns) thrown back to equal.
pub const LOSING_GAP: f64 = 0.5;

/// One reference line (the lines ease uses, analysis.md §4): its move and
/// Q (none: a bound line, never read as a value).
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    pub multipv: u8,
    pub mv: String,
    pub q: Option<f64>,
}

/// What a position's measures are computed from.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Position {
    /// The reference's lines, in any order.
    pub lines: Vec<Line>,
    /// The final best line's move (MultiPV 1), also when it has no Q.
    pub final_best: Option<String>,
    /// The network's prior of every legal move it priced (fractions, or
    /// percentages when one is above 1).
    pub priors: Vec<(String, f64)>,
    /// The MultiPV 1 move at each depth, ascending; empty when the analysis
    /// kept only its final lines.
    pub best_by_depth: Vec<(u16, String)>,
}

/// The measures; `None` with a reason in [`Measures::reasons`].
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Measures {
    pub best_move: Option<String>,
    pub ease_sum: Option<f64>,
    pub ease_per_term: Option<f64>,
    pub prior_best: Option<f64>,
    pub policy_rank: Option<u32>,
    pub policy_entropy: Option<f64>,
    pub good_moves: Option<u32>,
    pub q_gap: Option<f64>,
    pub prior_losing: Option<f64>,
    pub depth_to_find: Option<u16>,
    /// Why measures are missing ("measure: why", in the measures' order).
    pub reasons: Vec<String>,
}

/// The measures of `p` (see the module docs and the definitions).
#[must_use]
pub fn measures(p: &Position) -> Measures {
    let mut m = Measures::default();
    let mut why = |what: &str, reason: &str| m.reasons.push(format!("{what}: {reason}"));
    // Each move once: ease's lines keep a repeated move's first line only.
    let mut lines: Vec<&Line> = p.lines.iter().collect();
    lines.sort_by_key(|l| l.multipv);
    let valued: Vec<(&str, f64)> = lines
        .iter()
        .filter_map(|l| Some((l.mv.as_str(), l.q?)))
        .collect();
    let q_max = valued.iter().map(|v| v.1).reduce(f64::max);
    // The best move: the best line that gives Q (ease's reading 4), else
    // the final best line.
    let best = valued
        .first()
        .map(|v| v.0.to_string())
        .or_else(|| p.final_best.clone());
    let percent = p.priors.iter().any(|(_, v)| *v > 1.0);
    let scale = if percent { 100.0 } else { 1.0 };
    let prior = |mv: &str| {
        p.priors
            .iter()
            .find(|(m, _)| m == mv)
            .map(|(_, v)| v / scale)
    };
    let candidates: Vec<Candidate> = lines
        .iter()
        .map(|l| Candidate {
            prior: prior(&l.mv),
            q: l.q,
        })
        .collect();
    let (ease_sum, ease_per_term) = (
        ease(&candidates, Form::Sum),
        ease(&candidates, Form::PerTerm),
    );
    if ease_sum.is_none() {
        why("ease", "no line with both a prior and a Q");
    }
    let prior_best = best.as_deref().and_then(prior);
    match (&best, prior_best) {
        (None, _) => why("prior_best", "no analysis of the position"),
        (Some(_), None) if p.priors.is_empty() => why("prior_best", "no policy of the position"),
        (Some(mv), None) => why("prior_best", &format!("the policy did not price {mv}")),
        _ => {}
    }
    let policy_rank =
        prior_best.map(|pb| 1 + p.priors.iter().filter(|(_, v)| v / scale > pb).count() as u32);
    let total: f64 = p.priors.iter().map(|(_, v)| v / scale).sum();
    let policy_entropy = (total > 0.0).then(|| {
        -p.priors
            .iter()
            .map(|(_, v)| v / scale / total)
            .filter(|&x| x > 0.0)
            .map(|x| x * x.ln())
            .sum::<f64>()
    });
    if policy_entropy.is_none() {
        why("policy_entropy", "no policy of the position");
    }
    let good_moves = q_max.map(|qm| valued.iter().filter(|v| v.1 >= qm - GOOD_GAP).count() as u32);
    let q_gap = match valued.len() {
        0 => {
            why("q", "no line with a Q");
            None
        }
        1 => {
            why("q_gap", "one line with a Q");
            None
        }
        _ => {
            let mut qs: Vec<f64> = valued.iter().map(|v| v.1).collect();
            qs.sort_by(|a, b| b.total_cmp(a));
            Some(qs[0] - qs[1])
        }
    };
    let prior_losing = q_max.filter(|_| !p.priors.is_empty()).and_then(|qm| {
        let losing = |q: f64| qm - q >= LOSING_GAP;
        let priced = |mv: &str| valued.iter().any(|v| v.0 == mv);
        // Moves outside the lines lose when the worst line does (the lines
        // are the reference's top N), or when there are none.
        let outside_lose =
            valued.last().is_some_and(|v| losing(v.1)) || p.priors.iter().all(|(mv, _)| priced(mv));
        if !outside_lose {
            why(
                "prior_losing",
                "the worst line does not lose: the moves outside the lines may not either",
            );
            return None;
        }
        let kept: f64 = valued
            .iter()
            .filter(|v| !losing(v.1))
            .filter_map(|v| prior(v.0))
            .sum();
        Some(((total - kept) / total).clamp(0.0, 1.0))
    });
    let depth_to_find = match (&best, p.best_by_depth.last()) {
        (_, None) => {
            why(
                "depth_to_find",
                "the analysis kept only its final lines (use --all-depths)",
            );
            None
        }
        (None, _) => None,
        (Some(b), Some(_)) => {
            // The first depth of the final run of depths whose best move is b.
            let stay = p.best_by_depth.iter().rev().take_while(|(_, mv)| mv == b);
            match stay.last() {
                Some((d, _)) => Some(*d),
                None => {
                    why(
                        "depth_to_find",
                        "the last depth's best line is another move",
                    );
                    None
                }
            }
        }
    };
    Measures {
        best_move: best,
        ease_sum,
        ease_per_term,
        prior_best,
        policy_rank,
        policy_entropy,
        good_moves,
        q_gap,
        prior_losing,
        depth_to_find,
        reasons: m.reasons,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::ease::math::q_from_cp;

    fn line(multipv: u8, mv: &str, q: Option<f64>) -> Line {
        Line {
            multipv,
            mv: mv.into(),
            q,
        }
    }

    fn priors(p: &[(&str, f64)]) -> Vec<(String, f64)> {
        p.iter().map(|(m, v)| (m.to_string(), *v)).collect()
    }

    /// A puzzle-like position: one winning move (Q 0.9) the net likes less
    /// than a natural losing one; the other three lines lose too.
    #[test]
    fn a_hand_built_position() {
        let p = Position {
            lines: vec![
                line(2, "b", Some(0.0)),
                line(1, "a", Some(0.9)),
                line(3, "c", Some(0.85)),
                line(4, "d", Some(-0.2)),
                line(5, "e", Some(-0.5)),
            ],
            final_best: Some("a".into()),
            priors: priors(&[
                ("a", 0.2),
                ("b", 0.5),
                ("c", 0.1),
                ("d", 0.1),
                ("e", 0.05),
                ("f", 0.05),
            ]),
            best_by_depth: vec![
                (1, "b".into()),
                (2, "a".into()),
                (3, "b".into()),
                (4, "a".into()),
                (5, "a".into()),
            ],
        };
        let m = measures(&p);
        assert_eq!(m.best_move.as_deref(), Some("a"));
        assert_eq!(m.prior_best, Some(0.2));
        // Only b is priced higher.
        assert_eq!(m.policy_rank, Some(2));
        // a and c (0.05 below) are within 0.1.
        assert_eq!(m.good_moves, Some(2));
        assert!((m.q_gap.unwrap() - 0.05).abs() < 1e-12);
        // Losing (≥ 0.5 below 0.9): b, d, e, and f outside the lines (the
        // worst line loses): 1 − (0.2 + 0.1) = 0.7.
        assert!((m.prior_losing.unwrap() - 0.7).abs() < 1e-12);
        // −Σ p ln p
        let h: f64 = -[0.2, 0.5, 0.1, 0.1, 0.05, 0.05]
            .iter()
            .map(|x: &f64| x * x.ln())
            .sum::<f64>();
        assert!((m.policy_entropy.unwrap() - h).abs() < 1e-12);
        assert!((h - 1.428_551_418_721).abs() < 1e-9);
        // a from depth 4 on (depth 2 does not count: depth 3 left it).
        assert_eq!(m.depth_to_find, Some(4));
        // Ease by hand, sum form: Σ P^1.5·gap/2 over b, c, d, e.
        let s = 0.5f64.powf(1.5) * 0.9 / 2.0
            + 0.1f64.powf(1.5) * 0.05 / 2.0
            + 0.1f64.powf(1.5) * 1.1 / 2.0
            + 0.05f64.powf(1.5) * 1.4 / 2.0;
        assert!((m.ease_sum.unwrap() - (1.0 - s.cbrt())).abs() < 1e-12);
        assert!(m.ease_per_term.unwrap() < m.ease_sum.unwrap());
        assert!(m.reasons.is_empty(), "{:?}", m.reasons);
    }

    /// Percent priors read as fractions; a worst line that does not lose
    /// leaves the losing mass unknown; no depths, no depth to find.
    #[test]
    fn unknowns_have_reasons() {
        let p = Position {
            lines: vec![
                line(1, "a", Some(q_from_cp(300.0))),
                line(2, "b", Some(q_from_cp(250.0))),
            ],
            final_best: Some("a".into()),
            priors: priors(&[("a", 40.0), ("b", 40.0), ("c", 20.0)]),
            best_by_depth: vec![],
        };
        let m = measures(&p);
        assert_eq!(m.prior_best, Some(0.4));
        // Ties are not above: rank 1.
        assert_eq!(m.policy_rank, Some(1));
        assert_eq!(m.good_moves, Some(2));
        assert_eq!((m.prior_losing, m.depth_to_find), (None, None));
        assert_eq!(m.reasons.len(), 2, "{:?}", m.reasons);
        assert!(m.reasons[0].starts_with("prior_losing: "));
        assert!(m.reasons[1].starts_with("depth_to_find: "));
        // All moves in the lines: the losing mass is known (none loses).
        let all = Position {
            priors: priors(&[("a", 0.6), ("b", 0.4)]),
            ..p.clone()
        };
        assert_eq!(measures(&all).prior_losing, Some(0.0));
        // A bound best line: Q from nothing, the final best still named.
        let bound = Position {
            lines: vec![line(1, "a", None), line(2, "b", None)],
            ..p
        };
        let m = measures(&bound);
        assert_eq!(m.best_move.as_deref(), Some("a"));
        assert_eq!(m.prior_best, Some(0.4));
        assert_eq!((m.ease_sum, m.q_gap, m.good_moves), (None, None, None));
        // No policy, no analysis.
        let m = measures(&Position::default());
        assert_eq!(
            (m.prior_best, m.policy_entropy, m.best_move),
            (None, None, None)
        );
        assert!(
            m.reasons
                .iter()
                .any(|r| r == "prior_best: no analysis of the position")
        );
    }
}
