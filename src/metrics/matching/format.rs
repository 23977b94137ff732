//! The text of Regan's log and results files: the outcome line of a tested
//! move, the order of the results file (`sort -r -t= -k2`) and its totals.
//! Pure string functions; the files are written by `crate::engine::matching`.

use std::cmp::Ordering;

use super::math::{Eval, MatchType, Outcome};

/// The value after `=`: pawns with two decimals, no leading `+`; `NaN`.
///
/// ```
/// use evallab::metrics::matching::format::value;
/// assert_eq!(value(0.3), "0.30");
/// assert_eq!(value(-1.256), "-1.26");
/// assert_eq!(value(-0.0), "0.00");
/// assert_eq!(value(f64::NAN), "NaN");
/// ```
pub fn value(v: f64) -> String {
    if v.is_nan() {
        return "NaN".into();
    }
    let s = format!("{v:.2}");
    // -0.001 prints as -0.00: a zero has no sign.
    if s.trim_start_matches('-')
        .chars()
        .all(|c| c == '0' || c == '.')
    {
        s.trim_start_matches('-').to_string()
    } else {
        s
    }
}

/// The player's name as the first field: whitespace becomes `_` (the line is
/// space separated) and `=` becomes `-` (nothing may precede the value's `=`).
///
/// ```
/// use evallab::metrics::matching::format::name_field;
/// assert_eq!(name_field("Stockfish 8"), "Stockfish_8");
/// assert_eq!(name_field("A=B"), "A-B");
/// ```
pub fn name_field(name: &str) -> String {
    let s: String = name
        .split_whitespace()
        .collect::<Vec<_>>()
        .join("_")
        .replace('=', "-");
    if s.is_empty() { "?".into() } else { s }
}

/// The move as printed in `({no}.{move})`: SAN without the promotion's `=`
/// (`e8=Q+` → `e8Q+`), so that the only `=` on the line is the value's.
///
/// ```
/// use evallab::metrics::matching::format::move_text;
/// assert_eq!(move_text(12, true, "Nf3"), "12.Nf3");
/// assert_eq!(move_text(40, false, "e1=Q+"), "40...e1Q+");
/// ```
pub fn move_text(move_no: u32, white: bool, san: &str) -> String {
    let dots = if white { "." } else { "..." };
    format!("{move_no}{dots}{}", san.replace('=', ""))
}

/// The outcome line: `{Name} {bits} {TYPE} MATCH ({no}.{move}), delta = {v}`.
///
/// ```
/// use evallab::metrics::matching::format::outcome_line;
/// use evallab::metrics::matching::math::MatchType;
/// assert_eq!(
///     outcome_line("Houdini 5.01", "0110", MatchType::Part, "21...Rd8", -0.2),
///     "Houdini_5.01 0110 PART MATCH (21...Rd8), delta2 = -0.20"
/// );
/// ```
pub fn outcome_line(name: &str, bits: &str, kind: MatchType, mv: &str, v: f64) -> String {
    format!(
        "{} {bits} {} MATCH ({mv}), {} = {}",
        name_field(name),
        kind.as_str(),
        kind.value_name(),
        value(v)
    )
}

/// An outcome's line (see [`outcome_line`]).
pub fn line_of(name: &str, o: &Outcome, mv: &str) -> String {
    outcome_line(name, &o.bits, o.kind, mv, o.value)
}

/// A score as the log prints it: pawns (mover POV) or `M3` / `-M2`.
pub fn eval_text(e: Eval) -> String {
    match e {
        Eval::Cp(cp) => value(f64::from(cp) / 100.0),
        Eval::Mate(n) if n > 0 => format!("M{n}"),
        Eval::Mate(n) => format!("-M{}", -n),
    }
}

/// The order of `LC_ALL=C sort -r -t= -k2`: by the bytes after the first `=`
/// (to the end of the line), descending; equal keys by the whole line,
/// descending (sort's last-resort comparison, reversed by `-r` too). Note that
/// this is a text order, not a numeric one (` 9.99` sorts above ` 10.00`,
/// `NaN` above every number), as in the reference tool's files.
pub fn sort_like_sort_r(lines: &mut [String]) {
    fn key(l: &str) -> &[u8] {
        l.split_once('=').map_or(&[][..], |(_, k)| k.as_bytes())
    }
    lines.sort_by(|a, b| match key(b).cmp(key(a)) {
        Ordering::Equal => b.as_bytes().cmp(a.as_bytes()),
        o => o,
    });
}

/// Totals of a results file.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Totals {
    pub moves: u64,
    /// FULL, MAIN, PART, NON.
    pub by_type: [u64; 4],
    /// (SLM depth, moves whose first choice at that depth was the played move).
    pub at_depth: Vec<(u32, u64)>,
}

impl Totals {
    /// Counts one outcome; `dmin` is the depth of the first bit.
    pub fn add(&mut self, kind: MatchType, bits: &str, dmin: u32) {
        self.moves += 1;
        let i = MatchType::ALL.iter().position(|k| *k == kind).unwrap_or(3);
        self.by_type[i] += 1;
        for (j, b) in bits.bytes().enumerate() {
            let d = dmin + j as u32;
            let slot = match self.at_depth.iter().position(|(x, _)| *x == d) {
                Some(s) => s,
                None => {
                    self.at_depth.push((d, 0));
                    self.at_depth.len() - 1
                }
            };
            self.at_depth[slot].1 += u64::from(b == b'1');
        }
    }

    /// The totals block that ends a results file (no `=` in it).
    pub fn text(&self) -> String {
        let mut s = format!("Moves tested: {}\n", self.moves);
        for (k, n) in MatchType::ALL.iter().zip(self.by_type) {
            if *k == MatchType::Non {
                s.push_str(&format!("Non-matches (NON): {n}\n"));
            } else {
                s.push_str(&format!("{} matches: {n}\n", k.as_str()));
            }
        }
        let mut at = self.at_depth.clone();
        at.sort_unstable();
        for (d, n) in at {
            s.push_str(&format!("Matches at depth {d}: {n}\n"));
        }
        s
    }
}

/// A results file: the MATCH lines in `sort -r -t= -k2` order, a blank line,
/// then the totals.
pub fn results_file(mut lines: Vec<String>, totals: &Totals) -> String {
    sort_like_sort_r(&mut lines);
    let mut s = lines.join("\n");
    if !s.is_empty() {
        s.push('\n');
    }
    s.push('\n');
    s.push_str(&totals.text());
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sort_order_is_textual_descending_after_the_equals_sign() {
        let mut v: Vec<String> = [
            "A 1 FULL MATCH (1.e4), delta = 0.30",
            "A 0 NON MATCH (2.d4), delta2 = -1.20",
            "A 0 NON MATCH (3.c4), delta2 = -0.50",
            "A 1 MAIN MATCH (4.Nf3), delta = 10.00",
            "A 1 FULL MATCH (5.Bc4), delta = 9.99",
            "A 1 FULL MATCH (6.O-O), delta = NaN",
            "A 1 FULL MATCH (7.a3), delta = 0.30",
        ]
        .map(String::from)
        .to_vec();
        sort_like_sort_r(&mut v);
        let keys: Vec<&str> = v.iter().map(|l| l.split_once('=').unwrap().1).collect();
        assert_eq!(
            keys,
            [
                " NaN", " 9.99", " 10.00", " 0.30", " 0.30", " -1.20", " -0.50"
            ]
        );
        // Equal keys: the whole line, descending.
        assert!(v[3].contains("7.a3") && v[4].contains("1.e4"));
    }

    #[test]
    fn totals_count_types_and_depths() {
        let mut t = Totals::default();
        t.add(MatchType::Full, "111", 6);
        t.add(MatchType::Part, "010", 6);
        t.add(MatchType::Non, "000", 6);
        assert_eq!(t.moves, 3);
        assert_eq!(t.by_type, [1, 0, 1, 1]);
        assert_eq!(t.at_depth, vec![(6, 1), (7, 2), (8, 1)]);
        let text = t.text();
        assert!(text.starts_with("Moves tested: 3\nFULL matches: 1\n"));
        assert!(text.contains("Non-matches (NON): 1\n"));
        assert!(text.ends_with("Matches at depth 8: 1\n"));
        assert!(!text.contains('='));
    }

    #[test]
    fn eval_text_prints_mates_and_pawns() {
        assert_eq!(eval_text(Eval::Cp(-7)), "-0.07");
        assert_eq!(eval_text(Eval::Mate(1)), "M1");
        assert_eq!(eval_text(Eval::Mate(-3)), "-M3");
    }
}
