//! pgn-extract material patterns (the `-y` / `-z` files of the reference EAS
//! tool, vendored in `data/eas-patterns/`), parsed and evaluated exactly as
//! pgn-extract's `end.c` does.
//!
//! A line is `[depth] <first set> <second set>`; a set is a list of
//! `<piece>[digit][annotation]` with pieces `q r b n p k` and `l` (a minor
//! piece: knights and bishops counted together). Annotations: none (exactly
//! the number, 1 if no digit), `+` (at least), `-` (at most), `?` (at most 1),
//! `*` (any number), and relative to the *other side's* count of the same
//! piece: `=` (same), `#` (different), `N>` (at least N more), `N<` (at least
//! N fewer), `N>=` (exactly N more), `N<=` (exactly N fewer), N defaulting
//! to one. A piece a set does not name must be absent; `l` replaces the
//! separate knight and bishop tests. A missing second set is a lone king.
//!
//! A line is compiled to a [`Line`]: a predicate over the ten piece counts of
//! a position ([`Material`]). How a game matches (depth counters, colours) is
//! in [`super::matcher`].

use std::fmt;

/// Piece counts of one position: per side, P, N, B, R, Q (kings not counted).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Material {
    /// White's counts in the order P, N, B, R, Q.
    pub white: [u8; 5],
    /// Black's counts in the order P, N, B, R, Q.
    pub black: [u8; 5],
}

impl Material {
    /// The material of the standard start position.
    pub const START: Material = Material {
        white: [8, 2, 2, 2, 1],
        black: [8, 2, 2, 2, 1],
    };

    /// The counts of one side (`white == true`: White).
    ///
    /// ```
    /// use evallab::metrics::eas::patterns::Material;
    /// let m = Material { white: [8, 2, 2, 2, 1], black: [7, 2, 2, 2, 0] };
    /// assert_eq!(m.side(false), [7, 2, 2, 2, 0]);
    /// ```
    pub fn side(&self, white: bool) -> [u8; 5] {
        if white { self.white } else { self.black }
    }
}

/// Index of knights and bishops in a count array `[P, N, B, R, Q]`.
const KNIGHT: usize = 1;
const BISHOP: usize = 2;

/// How a count is compared (pgn-extract's `Occurs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Occurs {
    Exactly,
    OrMore,
    OrLess,
    SameAsOpponent,
    NotSameAsOpponent,
    LessThanOpponent,
    MoreThanOpponent,
    LessEqThanOpponent,
    MoreEqThanOpponent,
}

/// One count requirement: a number and how it is compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Req {
    n: i32,
    occurs: Occurs,
}

impl Req {
    /// Not named in the set: must be absent.
    const ABSENT: Req = Req {
        n: 0,
        occurs: Occurs::Exactly,
    };

    /// pgn-extract's `piece_match`. Note that `N>` means *at least* N more
    /// and `N>=` *exactly* N more (the names are pgn-extract's).
    fn holds(self, own: i32, opp: i32) -> bool {
        let n = self.n;
        match self.occurs {
            Occurs::Exactly => own == n,
            Occurs::OrMore => own >= n,
            Occurs::OrLess => own <= n,
            Occurs::SameAsOpponent => own == opp,
            Occurs::NotSameAsOpponent => own != opp,
            Occurs::LessThanOpponent => own + n <= opp,
            Occurs::MoreThanOpponent => own - n >= opp,
            Occurs::LessEqThanOpponent => own + n == opp,
            Occurs::MoreEqThanOpponent => own - n == opp,
        }
    }

    /// A requirement that is not "exactly 0" (pgn-extract tests the minor
    /// pieces together only then).
    fn is_set(self) -> bool {
        self != Req::ABSENT
    }
}

/// The requirements on one side's pieces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Set {
    /// P, N, B, R, Q.
    pieces: [Req; 5],
    /// `l`: knights and bishops together.
    minor: Req,
}

impl Set {
    const LONE_KING: Set = Set {
        pieces: [Req::ABSENT; 5],
        minor: Req::ABSENT,
    };

    /// pgn-extract's `piece_set_match`: every piece, then the minor pieces
    /// together when `l` is given (a knight or bishop failure alone does not
    /// decide then).
    fn holds(&self, own: [u8; 5], opp: [u8; 5]) -> bool {
        let mut minor_failure = false;
        for (k, req) in self.pieces.iter().enumerate() {
            if !req.holds(i32::from(own[k]), i32::from(opp[k])) {
                if k == KNIGHT || k == BISHOP {
                    minor_failure = true;
                } else {
                    return false;
                }
            }
        }
        if self.minor.is_set() {
            let minors = |c: [u8; 5]| i32::from(c[KNIGHT]) + i32::from(c[BISHOP]);
            self.minor.holds(minors(own), minors(opp))
        } else {
            !minor_failure
        }
    }
}

/// One compiled pattern line: the depth and the two sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Line {
    /// Positions that must match *before* the one that counts: a line of
    /// depth d needs d + 1 consecutive matching positions.
    pub depth: u32,
    sets: [Set; 2],
}

impl Line {
    /// Whether a position matches the line with its first set on White
    /// (`first_white`) or on Black (only tried for `-z` files).
    ///
    /// ```
    /// use evallab::metrics::eas::patterns::{Line, Material};
    /// // White a pawn down with at least 3 pawns and a queen, rest equal.
    /// let line: Line = "08 q+r*l*p3+ q=r=l=p1>".parse().unwrap();
    /// assert_eq!(line.depth, 8);
    /// let m = Material { white: [7, 2, 2, 2, 1], black: [8, 2, 2, 2, 1] };
    /// assert!(line.holds(&m, true));
    /// assert!(!line.holds(&m, false));
    /// ```
    pub fn holds(&self, m: &Material, first_white: bool) -> bool {
        let (a, b) = (m.side(first_white), m.side(!first_white));
        self.sets[0].holds(a, b) && self.sets[1].holds(b, a)
    }
}

/// The quantities a compiled line constrains, one byte each (biased by 128):
/// White's P, N, B, R, Q and minor pieces, Black's, then White minus Black for
/// each; padded to 32 lanes so that a line's test vectorises.
const LANES: usize = 32;
const BIAS: i16 = 128;

/// A position's quantities for [`LineBox::holds`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Quantities([u8; LANES]);

impl Quantities {
    pub fn of(m: &Material) -> Quantities {
        let six = |c: [u8; 5]| {
            let c = c.map(i16::from);
            [c[0], c[1], c[2], c[3], c[4], c[KNIGHT] + c[BISHOP]]
        };
        let (w, b) = (six(m.white), six(m.black));
        let mut q = [0u8; LANES];
        for k in 0..6 {
            let biased = |v: i16| (v.clamp(-BIAS, BIAS - 1) + BIAS) as u8;
            q[k] = biased(w[k]);
            q[6 + k] = biased(b[k]);
            q[12 + k] = biased(w[k] - b[k]);
        }
        Quantities(q)
    }
}

/// A line in one colour arrangement compiled to a box: every quantity within
/// `[lo, lo + width]` (biased). Equivalent to [`Line::holds`] (tested on every
/// vendored line); `#` (not the same as the opponent) is no interval, so a
/// line using it has no box.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineBox {
    lo: [u8; LANES],
    width: [u8; LANES],
}

impl LineBox {
    /// Whether a position's quantities are inside the box.
    pub fn holds(&self, q: &Quantities) -> bool {
        // No early exit: the loop compiles to a few vector instructions.
        let mut ok = true;
        for k in 0..LANES {
            ok &= q.0[k].wrapping_sub(self.lo[k]) <= self.width[k];
        }
        ok
    }
}

impl Line {
    /// The line as a [`LineBox`] with its first set on White
    /// (`first_white`) or on Black; `None` if it uses `#`.
    pub fn compile(&self, first_white: bool) -> Option<LineBox> {
        // Intervals over unbiased values, intersected per quantity.
        let mut iv = [(-BIAS, BIAS - 1); LANES];
        let mut meet = |lane: usize, (lo, hi): (i16, i16)| {
            iv[lane] = (iv[lane].0.max(lo), iv[lane].1.min(hi));
        };
        for (s, set) in self.sets.iter().enumerate() {
            let white = (s == 0) == first_white;
            let reqs: Vec<(usize, Req)> = if set.minor.is_set() {
                vec![
                    (0, set.pieces[0]),
                    (3, set.pieces[3]),
                    (4, set.pieces[4]),
                    (5, set.minor),
                ]
            } else {
                (0..5).map(|k| (k, set.pieces[k])).collect()
            };
            for (k, req) in reqs {
                let (n, inf) = (req.n as i16, BIAS);
                let own = |iv: (i16, i16)| (if white { k } else { 6 + k }, iv);
                // own − opp as White − Black, negated for Black.
                let rel =
                    |(lo, hi): (i16, i16)| (12 + k, if white { (lo, hi) } else { (-hi, -lo) });
                let (lane, interval) = match req.occurs {
                    Occurs::Exactly => own((n, n)),
                    Occurs::OrMore => own((n, inf)),
                    Occurs::OrLess => own((-inf, n)),
                    Occurs::SameAsOpponent => rel((0, 0)),
                    Occurs::NotSameAsOpponent => return None,
                    Occurs::LessThanOpponent => rel((-inf, -n)),
                    Occurs::MoreThanOpponent => rel((n, inf)),
                    Occurs::LessEqThanOpponent => rel((-n, -n)),
                    Occurs::MoreEqThanOpponent => rel((n, n)),
                };
                meet(lane, interval);
            }
        }
        let mut b = LineBox {
            lo: [0; LANES],
            width: [0; LANES],
        };
        for (k, &(lo, hi)) in iv.iter().enumerate() {
            let (lo, hi) = (lo.clamp(-BIAS, BIAS - 1), hi.clamp(-BIAS, BIAS - 1));
            if lo > hi {
                // Empty: a lane no value is in (lo at 1, width 0 needs the
                // biased value 1, i.e. −127, which no count reaches).
                b.lo[k] = 1;
                b.width[k] = 0;
            } else {
                b.lo[k] = (lo + BIAS) as u8;
                b.width[k] = (hi - lo) as u8;
            }
        }
        Some(b)
    }
}

/// A pattern line pgn-extract would not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PatternError {
    pub line: String,
    pub reason: &'static str,
}

impl fmt::Display for PatternError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "material pattern `{}`: {}", self.line, self.reason)
    }
}

impl std::error::Error for PatternError {}

/// pgn-extract's `extract_combination`: the digit and annotation after a
/// piece letter.
fn combination(p: &[u8], i: &mut usize) -> Result<Req, &'static str> {
    let mut n = 1;
    if let Some(d) = p.get(*i).filter(|c| c.is_ascii_digit()) {
        n = i32::from(d - b'0');
        *i += 1;
        if p.get(*i).is_some_and(u8::is_ascii_digit) {
            return Err("a number above 9");
        }
    }
    let next = p.get(*i).copied();
    let then = p.get(*i + 1).copied();
    let (occurs, width) = match next {
        Some(b'*') => {
            n = 0;
            (Occurs::OrMore, 1)
        }
        Some(b'+') => (Occurs::OrMore, 1),
        Some(b'-') => (Occurs::OrLess, 1),
        Some(b'?') => {
            n = 1;
            (Occurs::OrLess, 1)
        }
        Some(b'=') => (Occurs::SameAsOpponent, 1),
        Some(b'#') => (Occurs::NotSameAsOpponent, 1),
        Some(b'<') if then == Some(b'=') => (Occurs::LessEqThanOpponent, 2),
        Some(b'<') => (Occurs::LessThanOpponent, 1),
        Some(b'>') if then == Some(b'=') => (Occurs::MoreEqThanOpponent, 2),
        Some(b'>') => (Occurs::MoreThanOpponent, 1),
        _ => (Occurs::Exactly, 0),
    };
    *i += width;
    Ok(Req { n, occurs })
}

/// pgn-extract's `extract_piece_information`: one set, up to a space or `:`.
fn set(p: &[u8], i: &mut usize) -> Result<Set, &'static str> {
    let mut s = Set::LONE_KING;
    while let Some(&c) = p
        .get(*i)
        .filter(|c| !c.is_ascii_whitespace() && **c != b':')
    {
        *i += 1;
        let slot = match c.to_ascii_lowercase() {
            b'k' => None,
            b'q' => Some(4),
            b'r' => Some(3),
            b'b' => Some(BISHOP),
            b'n' => Some(KNIGHT),
            b'p' => Some(0),
            b'l' => Some(5),
            _ => return Err("unknown piece letter"),
        };
        let mut req = combination(p, i)?;
        match slot {
            // A king always occurs exactly once; pgn-extract ignores its count.
            None => {}
            Some(5) => s.minor = req,
            Some(k) => {
                if k == 0 && req.n > 8 {
                    req.n = 8;
                }
                s.pieces[k] = req;
            }
        }
    }
    Ok(s)
}

impl std::str::FromStr for Line {
    type Err = PatternError;

    /// pgn-extract's `decompose_line`: an optional depth (default 2), the
    /// first set, the second set (default: a lone king); text after the
    /// second set is a comment.
    fn from_str(text: &str) -> Result<Line, PatternError> {
        let p = text.as_bytes();
        let err = |reason| PatternError {
            line: text.to_string(),
            reason,
        };
        let skip = |i: &mut usize, also_colon: bool| {
            while p
                .get(*i)
                .is_some_and(|c| c.is_ascii_whitespace() || (also_colon && *c == b':'))
            {
                *i += 1;
            }
        };
        let mut i = 0;
        skip(&mut i, false);
        let mut depth = 2u32;
        if p.get(i).is_some_and(u8::is_ascii_digit) {
            depth = 0;
            while let Some(d) = p.get(i).filter(|c| c.is_ascii_digit()) {
                depth = depth
                    .checked_mul(10)
                    .and_then(|x| x.checked_add(u32::from(d - b'0')))
                    .ok_or_else(|| err("depth too large"))?;
                i += 1;
            }
            skip(&mut i, false);
        }
        let first = set(p, &mut i).map_err(err)?;
        skip(&mut i, true);
        let second = if i < p.len() {
            set(p, &mut i).map_err(err)?
        } else {
            Set::LONE_KING
        };
        Ok(Line {
            depth,
            sets: [first, second],
        })
    }
}

/// A pattern file: its lines, and whether they are tried with either side
/// as the first set (`-z`) or with the first set on White only (`-y`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PatternFile {
    pub name: &'static str,
    pub lines: Vec<Line>,
    pub either_colour: bool,
}

impl PatternFile {
    /// Parses a file's text; blank lines are skipped as pgn-extract does.
    pub fn parse(
        name: &'static str,
        text: &str,
        either_colour: bool,
    ) -> Result<PatternFile, PatternError> {
        let lines = text
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(str::parse)
            .collect::<Result<_, _>>()?;
        Ok(PatternFile {
            name,
            lines,
            either_colour,
        })
    }
}

/// The reference's pattern files, vendored in `data/eas-patterns/` (see its
/// NOTICE.md): name and text.
pub mod files {
    macro_rules! vendored {
        ($($id:ident = $name:literal),* $(,)?) => {
            $(pub const $id: (&str, &str) =
                ($name, include_str!(concat!("../../../data/eas-patterns/", $name)));)*
        };
    }
    vendored!(
        PAWNSAC_1_WHITE = "1_pawnsac_white",
        PAWNSAC_2_WHITE = "2_pawnsac_white",
        PAWNSAC_3_WHITE = "3_pawnsac_white",
        PAWNSAC_4_WHITE = "4_pawnsac_white",
        PAWNSAC_5_WHITE = "5_pawnsac_white",
        QUEENSAC_WHITE = "queensac_white",
        PAWNSAC_1_BLACK = "1_pawnsac_black",
        PAWNSAC_2_BLACK = "2_pawnsac_black",
        PAWNSAC_3_BLACK = "3_pawnsac_black",
        PAWNSAC_4_BLACK = "4_pawnsac_black",
        PAWNSAC_5_BLACK = "5_pawnsac_black",
        QUEENSAC_BLACK = "queensac_black",
        NO_ENDGAME_DRAWS = "no_endgame_draws",
    );

    /// The sacrifice chain of a side in deficit, levels 1..=5 then the queen:
    /// `[White's files, Black's files]`, each run with `-y`.
    pub const SACRIFICE: [[(&str, &str); 6]; 2] = [
        [
            PAWNSAC_1_WHITE,
            PAWNSAC_2_WHITE,
            PAWNSAC_3_WHITE,
            PAWNSAC_4_WHITE,
            PAWNSAC_5_WHITE,
            QUEENSAC_WHITE,
        ],
        [
            PAWNSAC_1_BLACK,
            PAWNSAC_2_BLACK,
            PAWNSAC_3_BLACK,
            PAWNSAC_4_BLACK,
            PAWNSAC_5_BLACK,
            QUEENSAC_BLACK,
        ],
    ];
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(s: &str) -> Line {
        s.parse().unwrap()
    }

    fn m(white: [u8; 5], black: [u8; 5]) -> Material {
        Material { white, black }
    }

    #[test]
    fn every_vendored_file_parses() {
        let mut all: Vec<(&str, &str)> = files::SACRIFICE.iter().flatten().copied().collect();
        all.push(files::NO_ENDGAME_DRAWS);
        for (name, text) in all {
            let f = PatternFile::parse(name, text, false).unwrap();
            assert_eq!(
                f.lines.len(),
                text.lines().filter(|l| !l.trim().is_empty()).count()
            );
            assert!(
                f.lines.iter().all(|l| [0, 8, 12].contains(&l.depth)),
                "{name}"
            );
        }
    }

    /// The compiled boxes agree with the line semantics on every vendored
    /// line, both colour arrangements, for many materials.
    #[test]
    fn boxes_equal_the_line_semantics() {
        let mut all: Vec<(&str, &str)> = files::SACRIFICE.iter().flatten().copied().collect();
        all.push(files::NO_ENDGAME_DRAWS);
        let mut lines: Vec<Line> = all
            .iter()
            .flat_map(|(n, t)| PatternFile::parse(n, t, false).unwrap().lines)
            .collect();
        lines.extend(["00 q1>r*l*p2< q=r1<=n>b*p*", "00 l=p* l2<p*", "05 p k"].map(line));
        // A small deterministic generator over counts 0..=3 (pawns 0..=8).
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = |m: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % m) as u8
        };
        for _ in 0..4000 {
            let mut side = || [next(9), next(4), next(4), next(4), next(3)];
            let mat = m(side(), side());
            let q = Quantities::of(&mat);
            for l in &lines {
                for first_white in [true, false] {
                    let b = l.compile(first_white).unwrap();
                    assert_eq!(b.holds(&q), l.holds(&mat, first_white), "{l:?} {mat:?}");
                }
            }
        }
        assert!(line("00 q# k").compile(true).is_none());
    }

    #[test]
    fn relational_operators_by_hand() {
        let w = [8, 2, 2, 2, 1];
        // `p1>=`: exactly one more pawn than the other side; `p1>`: at least.
        let l = line("00 p1>=q*r*l* q*r*l*p*");
        assert!(l.holds(&m(w, [7, 2, 2, 2, 1]), true));
        assert!(!l.holds(&m(w, [6, 2, 2, 2, 1]), true));
        let l = line("00 p1>q*r*l* q*r*l*p*");
        assert!(l.holds(&m(w, [6, 2, 2, 2, 1]), true));
        assert!(!l.holds(&m(w, w), true));
        // `q1<=`: exactly one queen fewer; `p2<`: at least two pawns fewer.
        let l = line("00 q1<=p2<r*l* q*r*l*p*");
        assert!(l.holds(&m([5, 2, 2, 2, 0], w), true));
        assert!(!l.holds(&m([7, 2, 2, 2, 0], w), true));
        assert!(l.holds(&m([5, 2, 2, 2, 1], [8, 2, 2, 2, 2]), true));
        assert!(!l.holds(&m([5, 2, 2, 2, 1], w), true));
        // `=` and `#`.
        let l = line("00 q=r#l*p* q*r*l*p*");
        assert!(l.holds(&m([8, 2, 2, 1, 1], w), true));
        assert!(!l.holds(&m(w, w), true));
        // Counts, `+`, `-`, `?`, `*`.
        let l = line("00 q1r2-l3+p? r*l*p*q*");
        assert!(l.holds(&m([1, 2, 1, 0, 1], w), true));
        assert!(l.holds(&m([0, 4, 1, 2, 1], w), true));
        assert!(!l.holds(&m([2, 2, 1, 2, 1], w), true));
        assert!(!l.holds(&m([1, 1, 1, 2, 1], w), true));
        assert!(!l.holds(&m([1, 2, 1, 3, 1], w), true));
        assert!(!l.holds(&m([1, 2, 1, 2, 2], w), true));
    }

    #[test]
    fn unnamed_pieces_must_be_absent_and_l_pools_minors() {
        // No `l`, `n` or `b`: no minor pieces; no `q`: no queen.
        let l = line("00 r*p* r*p*");
        assert!(l.holds(&m([3, 0, 0, 2, 0], [3, 0, 0, 1, 0]), true));
        assert!(!l.holds(&m([3, 1, 0, 2, 0], [3, 0, 0, 1, 0]), true));
        assert!(!l.holds(&m([3, 0, 0, 2, 1], [3, 0, 0, 1, 0]), true));
        // `l2`: two minors, any mix.
        let l = line("00 l2 l2");
        for (n, b) in [(2, 0), (1, 1), (0, 2)] {
            assert!(l.holds(&m([0, n, b, 0, 0], [0, 1, 1, 0, 0]), true));
        }
        assert!(!l.holds(&m([0, 2, 1, 0, 0], [0, 1, 1, 0, 0]), true));
        // A knight named on its own is tested on its own.
        let l = line("00 n1 n1");
        assert!(!l.holds(&m([0, 0, 1, 0, 0], [0, 1, 0, 0, 0]), true));
    }

    #[test]
    fn depth_lone_king_and_comments() {
        let l = line("q1 ");
        assert_eq!(l.depth, 2);
        assert!(l.holds(&m([0, 0, 0, 0, 1], [0; 5]), true));
        assert!(!l.holds(&m([0, 0, 0, 0, 1], [1, 0, 0, 0, 0]), true));
        let l = line("  12 kq1 k a comment");
        assert_eq!(l.depth, 12);
        assert!(l.holds(&m([0, 0, 0, 0, 1], [0; 5]), true));
        assert_eq!(line("p9"), line("p8"));
        assert!("00 x1 k".parse::<Line>().is_err());
        assert!("00 p10 k".parse::<Line>().is_err());
    }
}
