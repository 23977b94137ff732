//! lc0's `VerboseMoveStats` lines: with the option on, a search prints one
//! `info string` per legal move before `bestmove`, e.g.
//!
//! ```text
//! c7c5  (429 ) N:       0 (+ 0) (P: 24.37%) (WL:  -.-----) (D: -.---) (M:  -.-) (Q: -0.03532) (U: 0.61247) (S:  0.57715) (V:  -.----)
//! ```
//!
//! then one for the root (`node  (…) N: …`). The prior P is printed in
//! percent; the other statistics are `-.--` placeholders until the move's
//! node has been visited, and become numbers when the search goes deeper.

/// One move's statistics from a `VerboseMoveStats` line.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MoveStats {
    /// The move, UCI.
    pub mv: String,
    /// Visits.
    pub n: Option<u64>,
    /// Policy prior, percent.
    pub p: Option<f64>,
    /// Win − loss, draw probability, moves left, Q, U, S and V (value head), when printed as numbers.
    pub wl: Option<f64>,
    pub d: Option<f64>,
    pub m: Option<f64>,
    pub q: Option<f64>,
    pub u: Option<f64>,
    pub s: Option<f64>,
    pub v: Option<f64>,
}

/// Parses the text of an `info string` (after `info string `) as a move's
/// `VerboseMoveStats` line; `None` for the root's `node` line and for any
/// other string. A line that names a move but carries no readable `P` is
/// also `None`: the caller treats the move as unpriced.
///
/// ```
/// use evallab_uci::parse_move_stats;
/// let s = parse_move_stats("e7e5  (322 ) N:       0 (+ 0) (P: 21.95%) (WL:  -.-----) (D: -.---) (M:  -.-) (Q: -0.03532) (U: 0.54993) (S:  0.51461) (V:  -.----) ").unwrap();
/// assert_eq!((s.mv.as_str(), s.n, s.p, s.wl, s.q), ("e7e5", Some(0), Some(21.95), None, Some(-0.03532)));
/// assert!(parse_move_stats("node  ( 20) N:       1 (+ 0) (P: 100.00%)").is_none());
/// assert!(parse_move_stats("NNUE evaluation using nn-1.nnue enabled").is_none());
/// ```
pub fn parse_move_stats(text: &str) -> Option<MoveStats> {
    let mv = text.split_whitespace().next()?;
    if !is_uci_move(mv) {
        return None;
    }
    let mut out = MoveStats {
        mv: mv.to_string(),
        ..MoveStats::default()
    };
    // `N:` stands outside the parentheses; the rest are `(KEY: VALUE)` groups.
    if let Some(rest) = text.split_once(" N:").map(|(_, r)| r) {
        out.n = rest.split_whitespace().next().and_then(|v| v.parse().ok());
    }
    for group in text.split('(').skip(1) {
        let Some((key, value)) = group.split_once(':') else {
            continue;
        };
        let value = value.split(')').next().unwrap_or("").trim();
        let num = value
            .trim_end_matches('%')
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite());
        match key.trim() {
            "P" => out.p = num,
            "WL" => out.wl = num,
            "D" => out.d = num,
            "M" => out.m = num,
            "Q" => out.q = num,
            "U" => out.u = num,
            "S" => out.s = num,
            "V" => out.v = num,
            _ => {}
        }
    }
    out.p.is_some().then_some(out)
}

/// `e2e4`, `e7e8q`: squares a–h 1–8, an optional promotion piece.
fn is_uci_move(s: &str) -> bool {
    let b = s.as_bytes();
    let square = |f: u8, r: u8| (b'a'..=b'h').contains(&f) && (b'1'..=b'8').contains(&r);
    matches!(b.len(), 4 | 5)
        && square(b[0], b[1])
        && square(b[2], b[3])
        && (b.len() == 4 || matches!(b[4], b'q' | b'r' | b'b' | b'n'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn promotions_and_visited_moves() {
        let s = parse_move_stats("a7a8q (1234) N:      12 (+ 3) (P:  0.51%) (WL:  0.12345) (D: 0.250) (M: 33.1) (Q:  0.12345) (U: 0.01000) (S:  0.13345) (V:  0.1000)").unwrap();
        assert_eq!(s.mv, "a7a8q");
        assert_eq!(s.n, Some(12));
        assert_eq!(s.p, Some(0.51));
        assert_eq!(
            (s.wl, s.d, s.m, s.v),
            (Some(0.12345), Some(0.25), Some(33.1), Some(0.1))
        );
    }

    /// Real output: lc0 v0.31.0-dev with Maia-1900, `go nodes 1` after 1.e4.
    #[test]
    fn lc0_maia_output_after_e4() {
        let text = include_str!("../tests/data/lc0-maia1900-after-e2e4.txt");
        let moves: Vec<MoveStats> = text
            .lines()
            .filter_map(|l| l.strip_prefix("info string "))
            .filter_map(parse_move_stats)
            .collect();
        // Black's 20 legal moves, each with a prior; the root's `node` line is not one.
        assert_eq!(moves.len(), 20);
        let total: f64 = moves.iter().map(|m| m.p.unwrap()).sum();
        assert!((total - 100.0).abs() < 0.05, "{total}");
        let best = moves
            .iter()
            .max_by(|a, b| a.p.partial_cmp(&b.p).unwrap())
            .unwrap();
        assert_eq!((best.mv.as_str(), best.p), ("c7c5", Some(24.37)));
        assert!(
            moves
                .iter()
                .all(|m| m.n == Some(0) && m.wl.is_none() && m.q == Some(-0.02326))
        );
    }

    #[test]
    fn not_move_lines() {
        for t in [
            "",
            "node  ( 20) N: 1 (P: 0.00%)",
            "e2e9 (1) N: 0 (P: 1.00%)",
            "e2e4 without a prior",
            "e2e4 (P: n/a)",
        ] {
            assert_eq!(parse_move_stats(t), None, "{t}");
        }
    }
}
