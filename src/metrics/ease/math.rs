//! Ease of a position (`metrics.md` §4) as plain functions; [`super::query`]
//! applies them per position.
//!
//! For the candidate moves i (the reference engine's top N ≤ 5 lines), P_i is
//! the policy prior (a fraction) and Q_i = 2/(1 + e^(−k·cp)) − 1 the winning
//! chances of the line (lichess's k; a mate line is ±1). With Q_max the best
//! candidate's Q:
//!
//! - [`Form::Sum`] (the published form): ease = 1 − (Σ P_i^1.5 · max(0, Q_max − Q_i) / 2)^(1/3)
//! - [`Form::PerTerm`] (ChessAgine's): ease = 1 − Σ (P_i^1.5 · max(0, Q_max − Q_i) / 2)^(1/3)
//!
//! Readings (docs/definitions/ease.md): priors are percentages (divided by 100) when the
//! largest of them is above 1 — per candidate set here, per table in the
//! query, since one value alone cannot tell 0.5 % from 50 %; Q_max is taken over every candidate with a Q, also one whose prior is
//! missing (the best move stays the best move when the net did not price it);
//! the terms skip candidates without a P or a Q; no candidate with both →
//! undefined (`None`).

use std::fmt;
use std::str::FromStr;

/// lichess's logistic constant (the same as the agreement statistics').
pub use crate::metrics::agreement::math::WIN_K;

/// Which of the two published formulas.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Form {
    /// 1 − (Σ terms)^(1/3), the original publication.
    #[default]
    Sum,
    /// 1 − Σ terms^(1/3), ChessAgine's implementation.
    PerTerm,
}

impl Form {
    pub const ALL: [Form; 2] = [Form::Sum, Form::PerTerm];

    pub fn name(self) -> &'static str {
        match self {
            Form::Sum => "sum",
            Form::PerTerm => "per-term",
        }
    }
}

impl fmt::Display for Form {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Form {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Form::ALL
            .into_iter()
            .find(|f| f.name() == s)
            .ok_or_else(|| format!("unknown ease form `{s}` (sum, per-term)"))
    }
}

/// Q of a centipawn score (side-to-move POV): 2/(1 + e^(−k·cp)) − 1, in −1..1.
///
/// ```
/// use evallab::metrics::ease::math::q_from_cp;
/// assert_eq!(q_from_cp(0.0), 0.0);
/// assert!((q_from_cp(100.0) - 0.182).abs() < 1e-3);
/// assert!((q_from_cp(-100.0) + q_from_cp(100.0)).abs() < 1e-15);
/// ```
#[must_use]
pub fn q_from_cp(cp: f64) -> f64 {
    2.0 / (1.0 + (-WIN_K * cp).exp()) - 1.0
}

/// Q of an engine score: a mate for the side to move is +1, against it −1.
#[must_use]
pub fn q_of(cp: Option<f64>, mate: Option<i64>) -> Option<f64> {
    match (mate, cp) {
        (Some(m), _) => Some(if m > 0 { 1.0 } else { -1.0 }),
        (None, Some(cp)) => Some(q_from_cp(cp)),
        (None, None) => None,
    }
}

/// One candidate move: its prior (fraction or percent) and its Q.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Candidate {
    pub prior: Option<f64>,
    pub q: Option<f64>,
}

/// The ease of a position from its candidates (see the module docs).
///
/// ```
/// use evallab::metrics::ease::math::{Candidate, Form, ease};
/// // The best move has half the policy; the other, 0.4 worse in Q, has the rest.
/// let c = [
///     Candidate { prior: Some(0.5), q: Some(0.2) },
///     Candidate { prior: Some(0.5), q: Some(-0.2) },
/// ];
/// // Σ = 0.5^1.5 · 0.4 / 2 = 0.0707107; ease = 1 − 0.0707107^(1/3) = 0.586481
/// assert!((ease(&c, Form::Sum).unwrap() - 0.586_481).abs() < 1e-6);
/// ```
#[must_use]
pub fn ease(candidates: &[Candidate], form: Form) -> Option<f64> {
    let q_max = candidates
        .iter()
        .filter_map(|c| c.q)
        .fold(None, |m: Option<f64>, q| Some(m.map_or(q, |m| m.max(q))))?;
    let percent = candidates.iter().filter_map(|c| c.prior).any(|p| p > 1.0);
    let terms = candidates.iter().filter_map(|c| {
        let p = c.prior?;
        let (p, q) = (if percent { p / 100.0 } else { p }, c.q?);
        Some(p.powf(1.5) * (q_max - q).max(0.0) / 2.0)
    });
    let mut any = false;
    let total = match form {
        Form::Sum => {
            let s: f64 = terms.inspect(|_| any = true).sum();
            s.cbrt()
        }
        Form::PerTerm => terms.inspect(|_| any = true).map(f64::cbrt).sum(),
    };
    any.then_some(1.0 - total)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(prior: Option<f64>, q: Option<f64>) -> Candidate {
        Candidate { prior, q }
    }

    /// Three candidates by hand: P = 0.6, 0.3, 0.1; Q = 0.5, 0.1, −0.3.
    /// Terms: 0; 0.3^1.5·0.4/2 = 0.0328634; 0.1^1.5·0.8/2 = 0.0126491.
    #[test]
    fn both_forms_by_hand() {
        let cands = [
            c(Some(0.6), Some(0.5)),
            c(Some(0.3), Some(0.1)),
            c(Some(0.1), Some(-0.3)),
        ];
        let (t2, t3) = (0.3f64.powf(1.5) * 0.2, 0.1f64.powf(1.5) * 0.4);
        assert!((t2 - 0.032_863_4).abs() < 1e-7 && (t3 - 0.012_649_1).abs() < 1e-7);
        let sum = ease(&cands, Form::Sum).unwrap();
        assert!((sum - (1.0 - (t2 + t3).cbrt())).abs() < 1e-15);
        assert!((sum - 0.642_966).abs() < 1e-6, "{sum}");
        let per = ease(&cands, Form::PerTerm).unwrap();
        assert!((per - (1.0 - t2.cbrt() - t3.cbrt())).abs() < 1e-15);
        assert!((per - 0.446_691).abs() < 1e-6, "{per}");
        // Percentages read as fractions.
        let pct: Vec<_> = cands
            .iter()
            .map(|x| c(x.prior.map(|p| p * 100.0), x.q))
            .collect();
        assert!((ease(&pct, Form::Sum).unwrap() - sum).abs() < 1e-12);
        // Small percentages too: 0.1 % is not 10 %.
        let small = [c(Some(99.9), Some(0.5)), c(Some(0.1), Some(0.1))];
        let want = 1.0 - (0.001f64.powf(1.5) * 0.4 / 2.0).cbrt();
        assert!((ease(&small, Form::Sum).unwrap() - want).abs() < 1e-12);
    }

    #[test]
    fn a_single_candidate_or_equal_candidates_are_easy() {
        assert_eq!(ease(&[c(Some(0.9), Some(0.3))], Form::Sum), Some(1.0));
        let equal = [
            c(Some(0.4), Some(0.1)),
            c(Some(0.3), Some(0.1)),
            c(Some(0.3), Some(0.1)),
        ];
        for f in Form::ALL {
            assert_eq!(ease(&equal, f), Some(1.0));
        }
    }

    #[test]
    fn a_mate_line_is_q_one() {
        // Mate for the mover vs a +1.00 line holding all the policy.
        let cands = [
            c(Some(0.0), q_of(None, Some(3))),
            c(Some(1.0), q_of(Some(100.0), None)),
        ];
        let want = 1.0 - ((1.0 - q_from_cp(100.0)) / 2.0).cbrt();
        assert!((ease(&cands, Form::Sum).unwrap() - want).abs() < 1e-15);
        assert_eq!(q_of(None, Some(-2)), Some(-1.0));
        assert_eq!(q_of(None, None), None);
    }

    #[test]
    fn missing_priors_are_skipped_but_the_best_q_counts() {
        // The best line has no prior: it still sets Q_max.
        let cands = [c(None, Some(0.5)), c(Some(0.25), Some(0.1))];
        let want = 1.0 - (0.25f64.powf(1.5) * 0.4 / 2.0).cbrt();
        assert!((ease(&cands, Form::Sum).unwrap() - want).abs() < 1e-15);
        // Nothing with both: undefined.
        assert_eq!(
            ease(&[c(None, Some(0.5)), c(Some(0.5), None)], Form::Sum),
            None
        );
        assert_eq!(ease(&[], Form::PerTerm), None);
    }

    #[test]
    fn forms_parse_and_print() {
        for f in Form::ALL {
            assert_eq!(f.name().parse::<Form>(), Ok(f));
        }
        assert!("cube".parse::<Form>().is_err());
    }
}
