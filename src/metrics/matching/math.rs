//! The outcome of one tested move under Regan's zig-zag protocol
//! (`analysis.md` §3): the bit string, the match type and the delta, and the
//! per-move terms of the statistics (AE and ASD). Pure functions on the
//! engine's choices and scores, so they can be checked by hand.

/// Evals are capped at ±10 pawns (a mate counts as ±10): a lost or won
/// position does not dominate AE, and a mate has a pawn value.
pub const CAP_CP: i32 = 1000;

/// The delta of a FULL or MAIN match whose alternatives all lose to mate
/// (or that has no alternative at all).
pub const ALL_MATED: f64 = 9.99;

/// How the tested move relates to the engine's choices.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum MatchType {
    /// The first choice at every SLM depth and in the final MLM.
    Full,
    /// The first choice at the last SLM depth (not FULL).
    Main,
    /// The first choice at some SLM depth, not at the last one.
    Part,
    /// Never the first choice.
    Non,
}

impl MatchType {
    pub fn as_str(self) -> &'static str {
        match self {
            MatchType::Full => "FULL",
            MatchType::Main => "MAIN",
            MatchType::Part => "PART",
            MatchType::Non => "NON",
        }
    }

    /// FULL and MAIN report `delta` (vs the best alternative), PART and NON
    /// `delta2` (vs the engine's top move).
    pub fn value_name(self) -> &'static str {
        match self {
            MatchType::Full | MatchType::Main => "delta",
            MatchType::Part | MatchType::Non => "delta2",
        }
    }

    /// Every type, in the results file's order.
    pub const ALL: [MatchType; 4] = [
        MatchType::Full,
        MatchType::Main,
        MatchType::Part,
        MatchType::Non,
    ];
}

/// A score from the mover's point of view, as UCI reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Eval {
    Cp(i32),
    /// Moves to mate; negative: the mover is mated.
    Mate(i32),
}

impl Eval {
    /// Centipawns capped at ±[`CAP_CP`]; a mate is the cap.
    ///
    /// ```
    /// use evallab::metrics::matching::math::Eval;
    /// assert_eq!(Eval::Cp(35).capped_cp(), 35);
    /// assert_eq!(Eval::Cp(-2500).capped_cp(), -1000);
    /// assert_eq!(Eval::Mate(3).capped_cp(), 1000);
    /// assert_eq!(Eval::Mate(-1).capped_cp(), -1000);
    /// ```
    pub fn capped_cp(self) -> i32 {
        match self {
            Eval::Cp(cp) => cp.clamp(-CAP_CP, CAP_CP),
            Eval::Mate(n) if n > 0 => CAP_CP,
            Eval::Mate(_) => -CAP_CP,
        }
    }

    /// The mover is mated (mate 0 = already mated counts too).
    pub fn is_mated(self) -> bool {
        matches!(self, Eval::Mate(n) if n <= 0)
    }
}

/// What the engine said about one tested move.
#[derive(Debug, Clone, PartialEq)]
pub struct MoveEvidence {
    /// The move played (UCI).
    pub played: String,
    /// The engine's first choice at each SLM depth dmin..=d, in order.
    pub slm_first: Vec<String>,
    /// The final MLM lines (rank order): first move and score. Only exact
    /// scores belong here.
    pub final_lines: Vec<(String, Eval)>,
    /// The played move's final-MLM score: its own line, or a search
    /// restricted to it when it is not among the lines; `None`: unknown.
    pub played_eval: Option<Eval>,
    /// The move repeats an earlier position of the game.
    pub repetition: bool,
}

/// The outcome of one tested move.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// One `1`/`0` per SLM depth dmin..=d.
    pub bits: String,
    pub kind: MatchType,
    /// Pawns; NaN for a repetition or invalid data.
    pub value: f64,
    /// The played move is the first choice at depth d (counts for MM).
    pub top_at_d: bool,
    /// Capped centipawns, mover POV: the played move, the engine's top
    /// move and the best alternative to the played move (final MLM).
    pub played_cp: Option<i32>,
    pub top_cp: Option<i32>,
    pub alt_cp: Option<i32>,
    /// FULL/MAIN and every alternative loses to mate (or none exists).
    pub all_mated: bool,
}

/// The outcome of a tested move (`analysis.md` §3).
///
/// ```
/// use evallab::metrics::matching::math::{Eval, MatchType, MoveEvidence, outcome};
/// let ev = MoveEvidence {
///     played: "e2e4".into(),
///     slm_first: vec!["d2d4".into(), "e2e4".into(), "e2e4".into()],
///     final_lines: vec![("e2e4".into(), Eval::Cp(30)), ("d2d4".into(), Eval::Cp(22))],
///     played_eval: Some(Eval::Cp(30)),
///     repetition: false,
/// };
/// let o = outcome(&ev);
/// assert_eq!((o.bits.as_str(), o.kind), ("011", MatchType::Main));
/// assert!((o.value - 0.08).abs() < 1e-9);
/// ```
pub fn outcome(ev: &MoveEvidence) -> Outcome {
    let bits: String = ev
        .slm_first
        .iter()
        .map(|m| if *m == ev.played { '1' } else { '0' })
        .collect();
    let top = ev.final_lines.first();
    let final_first = top.is_some_and(|(m, _)| *m == ev.played);
    let top_at_d = bits.ends_with('1');
    let kind = if !bits.is_empty() && !bits.contains('0') && final_first {
        MatchType::Full
    } else if top_at_d {
        MatchType::Main
    } else if bits.contains('1') {
        MatchType::Part
    } else {
        MatchType::Non
    };
    let alternatives: Vec<Eval> = ev
        .final_lines
        .iter()
        .filter(|(m, _)| *m != ev.played)
        .map(|(_, e)| *e)
        .collect();
    let played_cp = ev.played_eval.map(Eval::capped_cp);
    let top_cp = top.map(|(_, e)| e.capped_cp());
    let alt_cp = alternatives.iter().map(|e| e.capped_cp()).max();
    let delta_kind = matches!(kind, MatchType::Full | MatchType::Main);
    let all_mated = delta_kind && alternatives.iter().all(|e| e.is_mated());
    let pawns = |a: Option<i32>, b: Option<i32>| match (a, b) {
        (Some(a), Some(b)) => f64::from(a - b) / 100.0,
        _ => f64::NAN,
    };
    let value = if ev.repetition {
        f64::NAN
    } else if all_mated {
        ALL_MATED
    } else if delta_kind {
        pawns(played_cp, alt_cp)
    } else {
        pawns(played_cp, top_cp)
    };
    Outcome {
        bits,
        kind,
        value,
        top_at_d,
        played_cp,
        top_cp,
        alt_cp,
        all_mated,
    }
}

/// The played move's eval equals the top eval (ties count as matches).
pub fn equal_value(o: &Outcome) -> Option<bool> {
    Some(o.played_cp? == o.top_cp?)
}

/// AE's term: the played move's eval drop against the top move, pawns
/// (each eval capped at ±10, so at most 20).
pub fn drop_pawns(top_cp: i32, played_cp: i32) -> f64 {
    f64::from(top_cp - played_cp) / 100.0
}

/// ASD's term: ∫ dz/(1+|z|) over [v, v0] (pawns), v0 the top eval and v the
/// played one. The antiderivative is sign(z)·ln(1+|z|), so the same drop counts
/// less the more lopsided the position.
///
/// ```
/// use evallab::metrics::matching::math::scaled_drop;
/// assert!((scaled_drop(1.0, 0.0) - 2f64.ln()).abs() < 1e-12);
/// assert!((scaled_drop(0.5, -0.5) - 2.0 * 1.5f64.ln()).abs() < 1e-12);
/// assert!(scaled_drop(5.0, 4.0) < scaled_drop(1.0, 0.0));
/// ```
pub fn scaled_drop(v0: f64, v: f64) -> f64 {
    let f = |z: f64| z.signum() * z.abs().ln_1p();
    f(v0) - f(v)
}

/// The 2.5 % and 97.5 % percentiles of MM over `n` resamples of the
/// clusters (games: moves in a game are not independent), each a pair
/// (first choices at depth d, moves).
pub fn mm_interval(clusters: &[(u32, u32)], n: usize, seed: u64) -> Option<(f64, f64)> {
    use crate::metrics::calibrate::math::SplitMix64;
    if clusters.is_empty() || n == 0 {
        return None;
    }
    let mut rng = SplitMix64(seed);
    let mut samples: Vec<f64> = Vec::with_capacity(n);
    for _ in 0..n {
        let (mut hits, mut moves) = (0u64, 0u64);
        for _ in 0..clusters.len() {
            let (h, m) = clusters[rng.below(clusters.len())];
            hits += u64::from(h);
            moves += u64::from(m);
        }
        if moves > 0 {
            samples.push(hits as f64 / moves as f64);
        }
    }
    if samples.is_empty() {
        return None;
    }
    samples.sort_unstable_by(f64::total_cmp);
    let at = |q: f64| samples[((q * (samples.len() - 1) as f64).round()) as usize];
    Some((at(0.025), at(0.975)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(
        played: &str,
        slm: &[&str],
        lines: &[(&str, Eval)],
        played_eval: Option<Eval>,
    ) -> MoveEvidence {
        MoveEvidence {
            played: played.into(),
            slm_first: slm.iter().map(|s| s.to_string()).collect(),
            final_lines: lines.iter().map(|(m, e)| (m.to_string(), *e)).collect(),
            played_eval,
            repetition: false,
        }
    }

    #[test]
    fn full_needs_every_depth_and_the_final_mlm() {
        let lines = [("a", Eval::Cp(50)), ("b", Eval::Cp(20))];
        let o = outcome(&ev("a", &["a", "a", "a"], &lines, Some(Eval::Cp(50))));
        assert_eq!((o.bits.as_str(), o.kind), ("111", MatchType::Full));
        assert!((o.value - 0.30).abs() < 1e-9);
        // First choice at every SLM depth but not in the final MLM: MAIN,
        // and delta against the best alternative is negative.
        let lines = [("b", Eval::Cp(60)), ("a", Eval::Cp(50))];
        let o = outcome(&ev("a", &["a", "a"], &lines, Some(Eval::Cp(50))));
        assert_eq!(o.kind, MatchType::Main);
        assert!((o.value + 0.10).abs() < 1e-9);
    }

    #[test]
    fn part_and_non_report_delta2_against_the_top_move() {
        let lines = [("b", Eval::Cp(40)), ("a", Eval::Cp(10))];
        let o = outcome(&ev("a", &["a", "b"], &lines, Some(Eval::Cp(10))));
        assert_eq!((o.bits.as_str(), o.kind), ("10", MatchType::Part));
        assert_eq!(o.kind.value_name(), "delta2");
        assert!((o.value + 0.30).abs() < 1e-9);
        // Not among the lines: its own (restricted) search gives the eval.
        let o = outcome(&ev("z", &["b", "b"], &lines, Some(Eval::Mate(-2))));
        assert_eq!((o.bits.as_str(), o.kind), ("00", MatchType::Non));
        assert!((o.value + 10.40).abs() < 1e-9);
        // Unknown eval: NaN.
        assert!(outcome(&ev("z", &["b"], &lines, None)).value.is_nan());
    }

    #[test]
    fn all_alternatives_mated_is_9_99_and_repetition_nan() {
        let lines = [
            ("a", Eval::Mate(-5)),
            ("b", Eval::Mate(-2)),
            ("c", Eval::Mate(-1)),
        ];
        let o = outcome(&ev("a", &["a", "a"], &lines, Some(Eval::Mate(-5))));
        assert_eq!(o.kind, MatchType::Full);
        assert_eq!(o.value, ALL_MATED);
        assert!(o.all_mated);
        // The only legal move: no alternative at all.
        let o = outcome(&ev("a", &["a"], &[("a", Eval::Cp(0))], Some(Eval::Cp(0))));
        assert_eq!(o.value, ALL_MATED);
        // A NON move is never 9.99, whatever its alternatives.
        let o = outcome(&ev("c", &["a"], &lines, Some(Eval::Mate(-1))));
        assert!((o.value - 0.0).abs() < 1e-9);
        let mut r = ev("a", &["a"], &lines, Some(Eval::Mate(-5)));
        r.repetition = true;
        let o = outcome(&r);
        assert!(o.value.is_nan());
        assert_eq!(o.kind, MatchType::Full);
    }

    #[test]
    fn equal_values_count_as_ev_matches() {
        let lines = [("b", Eval::Cp(0)), ("a", Eval::Cp(0))];
        let o = outcome(&ev("a", &["b"], &lines, Some(Eval::Cp(0))));
        assert_eq!(o.kind, MatchType::Non);
        assert_eq!(equal_value(&o), Some(true));
        assert_eq!(drop_pawns(o.top_cp.unwrap(), o.played_cp.unwrap()), 0.0);
    }

    #[test]
    fn scaled_drop_is_the_integral() {
        // Numerical integration of 1/(1+|z|) from -1.5 to 2.
        let (a, b) = (-1.5f64, 2.0f64);
        let n = 200_000;
        let h = (b - a) / n as f64;
        let num: f64 = (0..n)
            .map(|i| 1.0 / (1.0 + (a + (i as f64 + 0.5) * h).abs()) * h)
            .sum();
        assert!((scaled_drop(b, a) - num).abs() < 1e-6);
        assert_eq!(scaled_drop(0.3, 0.3), 0.0);
    }

    #[test]
    fn mm_interval_brackets_and_reproduces() {
        let games = [(3, 10), (5, 10), (7, 10), (9, 10)];
        let a = mm_interval(&games, 500, 7).unwrap();
        assert_eq!(Some(a), mm_interval(&games, 500, 7));
        assert!(a.0 < 0.6 && 0.6 < a.1, "{a:?}");
        assert!(a.0 >= 0.3 && a.1 <= 0.9);
        assert_eq!(mm_interval(&[(1, 2)], 10, 1), Some((0.5, 0.5)));
        assert_eq!(mm_interval(&[], 10, 1), None);
    }
}
