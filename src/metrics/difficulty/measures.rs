//! The measures of one position the line features read, on plain values
//! (docs/definitions/difficulty.md). [`super::query`] gathers a position's
//! lines, priors and best move per depth; [`measures`] computes the rest.

use crate::metrics::ease::math::{Candidate, Form, ease};

/// Moves within this much Q of the best count as [`Measures::good_moves`].
pub const GOOD_GAP: f64 = 0.1;

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

impl Position {
    /// What divides a stored prior into a fraction: 100 when one is above 1
    /// (lc0 prints percentages), else 1.
    #[must_use]
    pub fn prior_scale(&self) -> f64 {
        if self.priors.iter().any(|(_, v)| *v > 1.0) {
            100.0
        } else {
            1.0
        }
    }

    /// The prior of `mv`, a fraction; `None` when the policy did not price it.
    #[must_use]
    pub fn prior(&self, mv: &str) -> Option<f64> {
        let scale = self.prior_scale();
        self.priors
            .iter()
            .find(|(m, _)| m == mv)
            .map(|(_, v)| v / scale)
    }
}

/// The measures of a position the line features read ([`super::line`]).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Measures {
    pub best_move: Option<String>,
    /// The largest Q of the lines.
    pub q_max: Option<f64>,
    pub ease_sum: Option<f64>,
    pub policy_entropy: Option<f64>,
    pub good_moves: Option<u32>,
    pub q_gap: Option<f64>,
}

/// The measures of `p` (see the module docs and the definitions).
#[must_use]
pub fn measures(p: &Position) -> Measures {
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
    let scale = p.prior_scale();
    let candidates: Vec<Candidate> = lines
        .iter()
        .map(|l| Candidate {
            prior: p.prior(&l.mv),
            q: l.q,
        })
        .collect();
    let total: f64 = p.priors.iter().map(|(_, v)| v / scale).sum();
    let policy_entropy = (total > 0.0).then(|| {
        -p.priors
            .iter()
            .map(|(_, v)| v / scale / total)
            .filter(|&x| x > 0.0)
            .map(|x| x * x.ln())
            .sum::<f64>()
    });
    let q_gap = (valued.len() >= 2).then(|| {
        let mut qs: Vec<f64> = valued.iter().map(|v| v.1).collect();
        qs.sort_by(|a, b| b.total_cmp(a));
        qs[0] - qs[1]
    });
    Measures {
        best_move: best,
        q_max,
        ease_sum: ease(&candidates, Form::Sum),
        policy_entropy,
        good_moves: q_max.map(|qm| valued.iter().filter(|v| v.1 >= qm - GOOD_GAP).count() as u32),
        q_gap,
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
            best_by_depth: vec![],
        };
        let m = measures(&p);
        assert_eq!(m.best_move.as_deref(), Some("a"));
        // a and c (0.05 below) are within 0.1.
        assert_eq!(m.good_moves, Some(2));
        assert!((m.q_gap.unwrap() - 0.05).abs() < 1e-12);
        // −Σ p ln p
        let h: f64 = -[0.2, 0.5, 0.1, 0.1, 0.05, 0.05]
            .iter()
            .map(|x: &f64| x * x.ln())
            .sum::<f64>();
        assert!((m.policy_entropy.unwrap() - h).abs() < 1e-12);
        assert!((h - 1.428_551_418_721).abs() < 1e-9);
        // Ease by hand, sum form: Σ P^1.5·gap/2 over b, c, d, e.
        let s = 0.5f64.powf(1.5) * 0.9 / 2.0
            + 0.1f64.powf(1.5) * 0.05 / 2.0
            + 0.1f64.powf(1.5) * 1.1 / 2.0
            + 0.05f64.powf(1.5) * 1.4 / 2.0;
        assert!((m.ease_sum.unwrap() - (1.0 - s.cbrt())).abs() < 1e-12);
    }

    /// Percent priors read as fractions; a bound best line still names the
    /// best move; nothing known of an empty position.
    #[test]
    fn unknowns() {
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
        assert_eq!(m.good_moves, Some(2));
        let h = -(2.0 * 0.4 * 0.4f64.ln() + 0.2 * 0.2f64.ln());
        assert!((m.policy_entropy.unwrap() - h).abs() < 1e-12);
        let bound = Position {
            lines: vec![line(1, "a", None), line(2, "b", None)],
            ..p
        };
        let m = measures(&bound);
        assert_eq!(m.best_move.as_deref(), Some("a"));
        assert_eq!((m.ease_sum, m.q_gap, m.good_moves), (None, None, None));
        let m = measures(&Position::default());
        assert_eq!((m.policy_entropy, m.best_move), (None, None));
    }
}
