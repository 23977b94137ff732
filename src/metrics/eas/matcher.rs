//! Matching games against several pattern files at once, with pgn-extract's
//! depth counting (`end.c`, `look_for_material_match`):
//!
//! - the positions tried are the start position and the position after every
//!   ply, the last included;
//! - every line keeps its own counter, per colour arrangement (White as the
//!   first set; for `-z` files also Black): a position that matches the line
//!   counts if the counter has reached the line's depth, else it increments
//!   the counter; a position that does not match resets it to 0. So a line of
//!   depth d matches at the (d + 1)-th consecutive matching position, and a
//!   change of material that moves the game from one line to another starts
//!   the new line's count from 0;
//! - a game matches a file at the first position where any of its lines does.
//!
//! Material only changes on captures and promotions, so a game is walked as
//! runs of equal material, and which lines a material matches is computed
//! once per distinct material and cached (a bit set over every line of every
//! file).

use std::collections::HashMap;

use super::patterns::{LineBox, Material, PatternFile, Quantities};

/// One line in one colour arrangement, compiled when it can be.
#[derive(Debug, Clone, Copy)]
struct Check {
    file: usize,
    line: usize,
    first_white: bool,
    depth: u32,
    compiled: Option<LineBox>,
}

/// Several pattern files compiled together.
#[derive(Debug)]
pub struct Matcher {
    files: Vec<PatternFile>,
    checks: Vec<Check>,
    words: usize,
    /// Material key → index of its bit set in `sets`.
    cache: HashMap<u64, u32>,
    sets: Vec<u64>,
    /// Per check: the game it was last seen matching in, the end of that
    /// matching run (a position index) and the run's length.
    epoch: Vec<u32>,
    run_end: Vec<u32>,
    run_len: Vec<u32>,
    game: u32,
}

/// Ten counts in one word (6 bits each; a count is at most 10).
fn key(m: &Material) -> u64 {
    m.white
        .iter()
        .chain(&m.black)
        .fold(0u64, |k, &c| (k << 6) | u64::from(c.min(63)))
}

impl Matcher {
    pub fn new(files: Vec<PatternFile>) -> Matcher {
        let mut checks = Vec::new();
        for (f, file) in files.iter().enumerate() {
            for (l, line) in file.lines.iter().enumerate() {
                let colours: &[bool] = if file.either_colour {
                    &[true, false]
                } else {
                    &[true]
                };
                for &first_white in colours {
                    checks.push(Check {
                        file: f,
                        line: l,
                        first_white,
                        depth: line.depth,
                        compiled: line.compile(first_white),
                    });
                }
            }
        }
        let n = checks.len();
        Matcher {
            files,
            words: n.div_ceil(64),
            checks,
            cache: HashMap::new(),
            sets: Vec::new(),
            epoch: vec![0; n],
            run_end: vec![0; n],
            run_len: vec![0; n],
            game: 0,
        }
    }

    /// The bit set of the checks a material matches (computed once).
    fn set_of(&mut self, m: &Material) -> usize {
        let k = key(m);
        if let Some(&i) = self.cache.get(&k) {
            return i as usize;
        }
        let at = self.sets.len();
        self.sets.resize(at + self.words, 0);
        let q = Quantities::of(m);
        for (c, check) in self.checks.iter().enumerate() {
            let holds = match &check.compiled {
                Some(b) => b.holds(&q),
                None => self.files[check.file].lines[check.line].holds(m, check.first_white),
            };
            if holds {
                self.sets[at + c / 64] |= 1 << (c % 64);
            }
        }
        let i = u32::try_from(at).expect("fewer than 2^32 cached words");
        self.cache.insert(k, i);
        at
    }

    /// For each file (in the order given to [`Matcher::new`]), the index of
    /// the position at which a game first
    /// matches it (0 = start position, i = after ply i), or `None`. `seq` is
    /// the game's positions: the start, then after every ply.
    ///
    /// ```
    /// use evallab::metrics::eas::matcher::Matcher;
    /// use evallab::metrics::eas::patterns::{Material, PatternFile};
    /// let f = PatternFile::parse("pawn", "02 q+r*l*p3+ q=r=l=p1>=", false).unwrap();
    /// let mut m = Matcher::new(vec![f]);
    /// let down = Material { white: [7, 2, 2, 2, 1], black: Material::START.black };
    /// // Depth 2: the third consecutive position counts.
    /// let game = [Material::START, down, down, down, down];
    /// assert_eq!(m.first_matches(&game), vec![Some(3)]);
    /// assert_eq!(m.first_matches(&game[..3]), vec![None]);
    /// ```
    pub fn first_matches(&mut self, seq: &[Material]) -> Vec<Option<u32>> {
        self.game = self.game.wrapping_add(1);
        if self.game == 0 {
            // After 2^32 games the epochs would collide: start over.
            self.epoch.fill(0);
            self.game = 1;
        }
        let mut first: Vec<Option<u32>> = vec![None; self.files.len()];
        let mut s = 0;
        while s < seq.len() {
            let mut e = s + 1;
            while e < seq.len() && seq[e] == seq[s] {
                e += 1;
            }
            let at = self.set_of(&seq[s]);
            let (start, len) = (s as u32, (e - s) as u32);
            for w in 0..self.words {
                let mut bits = self.sets[at + w];
                while bits != 0 {
                    let c = w * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    let before = if self.epoch[c] == self.game && self.run_end[c] == start {
                        self.run_len[c]
                    } else {
                        0
                    };
                    // The position start + j counts once `before + j` earlier
                    // consecutive positions matched.
                    let j = self.checks[c].depth.saturating_sub(before);
                    if j < len {
                        let f = self.checks[c].file;
                        let p = start + j;
                        first[f] = Some(first[f].map_or(p, |q| q.min(p)));
                    }
                    self.epoch[c] = self.game;
                    self.run_end[c] = start + len;
                    self.run_len[c] = before.saturating_add(len);
                }
            }
            s = e;
        }
        first
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(text: &str, either: bool) -> PatternFile {
        PatternFile::parse("t", text, either).unwrap()
    }

    fn m(white: [u8; 5], black: [u8; 5]) -> Material {
        Material { white, black }
    }

    /// A line's counter is its own: when the material changes from one
    /// line's composition to another's, the new line counts from 0.
    #[test]
    fn one_counter_per_line() {
        let a = m([7, 2, 2, 2, 1], [8, 2, 2, 2, 1]);
        let b = m([6, 2, 2, 2, 1], [7, 2, 2, 2, 1]);
        let f = file("03 p7q1r2l4 p8q1r2l4\n03 p6q1r2l4 p7q1r2l4", false);
        let mut mt = Matcher::new(vec![f]);
        // 3 + 3 positions of the same deficit in two compositions: no line
        // has 4 in a row.
        assert_eq!(mt.first_matches(&[a, a, a, b, b, b]), vec![None]);
        assert_eq!(mt.first_matches(&[a, a, a, b, b, b, b]), vec![Some(6)]);
        // A line matching both compositions counts across the change.
        let g = file("03 p1<=q1r2l4 p*q1r2l4", false);
        let mut mt = Matcher::new(vec![g]);
        assert_eq!(mt.first_matches(&[a, a, b, b]), vec![Some(3)]);
    }

    /// `-y` tries the first set on White only; `-z` on either side, with a
    /// counter per side.
    #[test]
    fn fixed_and_either_colour() {
        let down_b = m([8, 2, 2, 2, 1], [7, 2, 2, 2, 1]);
        let text = "01 q1r2l4p7 q1r2l4p8";
        let mut y = Matcher::new(vec![file(text, false)]);
        let mut z = Matcher::new(vec![file(text, true)]);
        assert_eq!((y.checks.len(), z.checks.len()), (1, 2));
        assert_eq!(y.first_matches(&[down_b, down_b]), vec![None]);
        assert_eq!(z.first_matches(&[down_b, down_b]), vec![Some(1)]);
    }

    /// Runs split by non-matching positions restart; depth 0 matches at once;
    /// state does not leak from one game to the next.
    #[test]
    fn resets_and_games() {
        let x = m([7, 2, 2, 2, 1], [8, 2, 2, 2, 1]);
        let s = Material::START;
        let mut mt = Matcher::new(vec![
            file("02 q1r2l4p7 q1r2l4p8", false),
            file("00 q1r2l4p7 q1r2l4p8", false),
        ]);
        assert_eq!(mt.first_matches(&[x, x, s, x, x]), vec![None, Some(0)]);
        assert_eq!(
            mt.first_matches(&[x, x, s, x, x, x]),
            vec![Some(5), Some(0)]
        );
        assert_eq!(mt.first_matches(&[x]), vec![None, Some(0)]);
        assert_eq!(mt.first_matches(&[s, x, x]), vec![None, Some(1)]);
        assert_eq!(mt.first_matches(&[]), vec![None, None]);
    }
}
