//! EAS score (Engine Aggressiveness Statistics): the per-game rules and the
//! integer arithmetic, as building blocks for the per-engine aggregation.
//!
//! The EAS score (reference: Stefan Pohl's EAS tool, rules V6.0; V5.2–5.8
//! selectable) is the plain sum of four integer parts: sacrifices, early
//! sacrifices + length bonus, short wins and bad draws. This module knows
//! nothing about PGN, players or tables: it works on one game's material
//! sequence ([`Material`], one entry per position) and on counts. An
//! aggregator typically does, per engine E:
//!
//! 1. `avg_all` = [`avg_moves`] over all decisive games of the input,
//!    `avg_eng` = [`avg_moves`] over E's wins (0 if none);
//! 2. for every win of E that is not a duplicate and whose termination is not
//!    irregular ([`is_irregular_termination`]): [`sacrifice_level`] from the
//!    winner's side (counted once, in [`SacrificeInfo::category`]),
//!    [`is_early`] with [`early_limit`], and [`short_bucket`] of the game
//!    length (see [`game_plies_from_fen`]) with [`short_limit_v6`];
//! 3. for every draw of E: [`is_bad_draw`], then [`bad_draw_gd`];
//! 4. EAS = [`sac_part_v6`] + [`early_part_v6`] + [`short_part_v6`] +
//!    [`draw_part_v6`] (V5: [`sac_part_v5`] + [`short_part_v5`] +
//!    [`draw_part_v5`], with [`short_limit_v5`]).
//!
//! ```
//! use evallab::metrics::eas::rules::*;
//! // 100 % level-2 sacrifices, no early ones, wins 11 moves shorter than
//! // average, no short wins, no bad draws (gd 100):
//! let wins = 40;
//! let eas = sac_part_v6(wins, [0, wins, 0, 0, 0, 0])
//!     + early_part_v6(wins, 0, 80, 69)
//!     + short_part_v6(wins, [0; 5])
//!     + draw_part_v6(bad_draw_gd(30, 0));
//! assert_eq!(eas, 500_000 + 55_000 + 110_889);
//! ```
//!
//! # Readings of the spec
//!
//! Where the spec leaves room, these are the readings implemented here (chosen
//! to match what a user comparing with the reference tool would expect):
//!
//! 1. **Positions examined.** A game's sequence is the start position (index
//!    0) followed by the position after every ply (index i = after ply i),
//!    the final position included. The start position counts like any other
//!    (it matters for set-up positions that already carry an imbalance).
//!    Ply numbers in [`SacrificeInfo`] are these indices, counted from the
//!    game's own start, not from a FEN move number.
//! 2. **"Behind by at least k units"** is the difference of the material sums
//!    (P = 1, N = B = 3, R = 5, Q = 9, kings ignored): opponent − winner ≥ k.
//!    Levels stop at 5 ("5 or more").
//! 3. **"Holds for 8 consecutive plies"** means 8 consecutive positions that
//!    each satisfy the condition (the position in which the deficit first
//!    stands is the first of the 8), i.e. a depth counter that is incremented
//!    on every matching position and reset on a non-matching one, as material
//!    pattern matchers do. A deficit standing after plies s, s+1, …, s+7
//!    qualifies; one that lasts only 7 positions does not.
//! 4. **Same level along the run.** For level k every position of the run
//!    must show a deficit of at least k; the deficit may change within the run
//!    (e.g. 3, 2, 3, … counts for level 2) and so may the exact composition
//!    (exchanges during the run do not restart it).
//! 5. **Queen and pawns** ("while the winner still has at least one queen and
//!    at least 3 pawns") are checked on every position of the run, for the
//!    winner only; two queens count as "at least one".
//! 6. **Pure one-pawn deficit** = the winner has the same number of queens,
//!    of rooks and of minor pieces as the opponent (knights and bishops
//!    pooled, both are worth 3) and exactly one pawn fewer. Such positions
//!    only qualify in a run of 12 consecutive pure-one-pawn positions; the two
//!    kinds of level-1 runs do not combine (6 pure-pawn positions followed by
//!    6 other one-unit deficits is not a level-1 sacrifice, 8 consecutive
//!    other deficits are). So a pawn given for 4 plies and a second one for
//!    6 more plies is no sacrifice at all; with the second pawn held for 8
//!    plies it is a level-2 game whose level-1 run starts there. Any other
//!    one-unit deficit (Q vs 2R, R + minor vs Q, minor vs 3 pawns, …) needs
//!    the normal 8 positions.
//! 7. **Full opening set** (which excludes a pure one-pawn deficit) = the
//!    winner has exactly 1 Q, 2 R and 4 minors with ≥ 6 pawns, or exactly
//!    1 Q, 2 R and 3 minors with ≥ 7 pawns (7 is the only possible count in a
//!    pure one-pawn deficit). Such a position does not count towards, and so
//!    interrupts, a 12-position pure-pawn run. It does not affect other
//!    deficits.
//! 8. **Queen sacrifice.** A position qualifies when the winner has no queen,
//!    the opponent has at least one, the deficit is ≥ 5 and the winner has
//!    ≥ 3 pawns; 8 consecutive such positions are needed. The game must
//!    *also* be a level-5 game, which (since level 5 requires the winner to
//!    have a queen) is a separate run anywhere in the same game, before or
//!    after the queen run. A game with the queen run but no level-5 run is not
//!    a queen sacrifice (its level is whatever else it reached).
//! 9. **Highest level.** `level` is the largest k with a qualifying run; a
//!    queen-sacrifice game is counted only as a queen sacrifice
//!    ([`SacrificeInfo::category`] = 5), never also at level 5.
//! 10. **`first_ply` convention.** `first_ply[i]` is the index of the *first*
//!     position of the earliest qualifying run (the ply after which the
//!     deficit that went on to qualify first stood; 0 = start position). The
//!     condition is confirmed 7 (or, for a pure-pawn run, 11) plies later.
//!     The start is reported because it is where the sacrifice happened and
//!     because it makes the "+ 8" of the early rule the holding allowance.
//!     Each entry reports its own condition independently (e.g. `first_ply[5]`
//!     is set by a queen run even when the game is not a level-5 game).
//! 11. **Early sacrifice** ([`is_early`]): early iff `level1_first_ply ≤
//!     early_limit`, i.e. the level-1 deficit already stands after one of the
//!     first `early_limit` plies, so its 8-position run ends by ply
//!     `early_limit + 7`, inside "the first early_limit + 8 plies" (this is
//!     also what a pgn-extract-style matcher would find on games cut to
//!     `early_limit + 8` plies, as such matchers test the position before
//!     each move). A 12-position pure-pawn run is judged by the same start
//!     test, although its confirmation ends up to 4 plies later.
//! 12. **Game length for short wins** counts from the FEN move number of a
//!     set-up position ([`game_plies_from_fen`]): plies = 2·(fullmove − 1)
//!     (+ 1 if Black moves first) + plies played. A win "≤ N moves" has
//!     plies ≤ 2N.
//! 13. **Endgame reached** is tested on every position (start and final
//!     included). "≤ 1 Q" means 0 or 1 queen; the light types are tested per
//!     side with pawns ignored; in the rule "one side has no queen and ≤ 4
//!     pawns while the other has ≤ 3 pawns" the other side's queens are not
//!     restricted.
//! 14. **Bad draws** use exactly the sacrifice level-1 condition (queen, 3
//!     pawns, 12-position pure-pawn rule, full-set exclusion) for "E was up
//!     material" (the opponent met it) and for "E was down material" (E met
//!     it). See [`is_bad_draw`].
//! 15. **Irregular terminations**: ASCII case-insensitive substring test on
//!     the Termination tag with the spec's nine words; a missing or empty tag
//!     is regular. Note that "time" also matches e.g. "time forfeit" and
//!     "rules" does not match "TCEC win rule".
//! 16. **Integer width.** The spec's helpers use 32-bit arithmetic; here
//!     intermediate products are 64-bit. [`pct100`] gives the same result as
//!     32-bit wrapping arithmetic for every `0 ≤ count ≤ 2·base` (the product
//!     is at most 2·10⁹ < 2³¹), which covers every real call (a share is never
//!     above 100 %); beyond that the 32-bit product would wrap to garbage
//!     while we return the capped 10000. [`avg_moves`] is identical as long as
//!     `200·total_plies + n ≤ 2³¹ − 1`, i.e. up to about 10.7 million plies in
//!     total (roughly 90,000 decisive games); past that a 32-bit
//!     implementation wraps and prints a meaningless average, we keep the
//!     correct one. A negative `count` gives 0 (the documented range is
//!     0..=10000); `base ≤ 0` gives 0 as specified. The squared parts are
//!     returned as `i64` (5000·avg_all and the sums stay far from overflow),
//!     and the draw parts clamp gd to 0..=100 (it is a whole percentage).
//! 17. **Averages in the length bonus** are the already rounded integer
//!     averages from [`avg_moves`] (moves, not plies); an engine without wins
//!     has `avg_eng = 0` and so gets the full 5000·avg_all (V5: 3000·avg_all).
//! 18. **V5 rules.** L = (avg_all rounded *down* to a multiple of 5) − 15,
//!     not clamped; the short-win buckets are the same disjoint buckets as in
//!     V6, weighted 45/27/18/12/8 from the shortest to the longest; the
//!     +3000 / −1000 per move adjustment is applied to the short-win part
//!     alone and cannot take it below 0 (it only removes short-win points).
//!
//! # Where our rule and the reference's pattern lists may disagree
//!
//! The reference encodes the sacrifice and endgame conditions as lists of
//! material patterns for a pattern matcher; we evaluate the described rule
//! directly. Known ways the two can differ (all rare):
//!
//! - A matcher keeps one depth counter per pattern line. If its lines name
//!   exact compositions, an exchange during the 8 plies (the composition
//!   changes, the deficit stays) restarts its count; ours keeps counting.
//! - Matchers of the pgn-extract kind test the position *before* each move,
//!   so never the final position. We test it, as the spec says "after every
//!   ply"; this matters for a sacrifice whose 8th position is the mate (or a
//!   draw whose only endgame position is the last). Pass `&seq[..len - 1]`
//!   to mimic that behaviour.
//! - Unusual material from promotions (two queens, three knights, …) is
//!   handled by the unit sums here; a pattern list may simply not contain
//!   such compositions.
//! - Knight-for-bishop imbalances are invisible here (minors are pooled);
//!   pattern lines that name N and B separately may treat them differently.

use std::cmp::Ordering;

/// Index of pawns in a piece-count array `[P, N, B, R, Q]`.
const PAWN: usize = 0;
/// Index of knights.
const KNIGHT: usize = 1;
/// Index of bishops.
const BISHOP: usize = 2;
/// Index of rooks.
const ROOK: usize = 3;
/// Index of queens.
const QUEEN: usize = 4;

/// Material values in units, in the order P, N, B, R, Q.
pub const PIECE_UNITS: [i32; 5] = [1, 3, 3, 5, 9];

/// Consecutive positions a deficit must hold to be a sacrifice.
pub const SAC_RUN_PLIES: usize = 8;

/// Consecutive positions a pure one-pawn deficit must hold.
pub const PURE_PAWN_RUN_PLIES: usize = 12;

/// Words whose (case-insensitive) presence in the Termination tag marks an
/// irregular end; such wins are left out of the EAS population.
pub const IRREGULAR_TERMINATION_WORDS: [&str; 9] = [
    "abandon",
    "stalled",
    "disconnect",
    "forfeit",
    "time",
    "illegal",
    "infraction",
    "rules",
    "loose",
];

/// Piece counts of one position: per side, P, N, B, R, Q (kings not counted).
///
/// A game is described by a slice of these: the start position, then the
/// position after every ply.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
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
    /// use evallab::metrics::eas::rules::Material;
    /// let m = Material { white: [8, 2, 2, 2, 1], black: [7, 2, 2, 2, 0] };
    /// assert_eq!(m.side(false), [7, 2, 2, 2, 0]);
    /// ```
    pub fn side(&self, white: bool) -> [u8; 5] {
        if white { self.white } else { self.black }
    }

    /// Material sum of a count array in units (P = 1, N = B = 3, R = 5, Q = 9).
    ///
    /// ```
    /// use evallab::metrics::eas::rules::Material;
    /// assert_eq!(Material::units([8, 2, 2, 2, 1]), 39);
    /// ```
    pub fn units(counts: [u8; 5]) -> i32 {
        counts
            .iter()
            .zip(PIECE_UNITS)
            .map(|(&c, v)| i32::from(c) * v)
            .sum()
    }

    /// How many units the given side is behind (negative when ahead).
    ///
    /// ```
    /// use evallab::metrics::eas::rules::Material;
    /// let m = Material { white: [8, 2, 2, 1, 1], black: [8, 2, 1, 2, 1] };
    /// assert_eq!(m.deficit(true), 2); // the exchange
    /// assert_eq!(m.deficit(false), -2);
    /// ```
    pub fn deficit(&self, white: bool) -> i32 {
        Self::units(self.side(!white)) - Self::units(self.side(white))
    }
}

// ---------------------------------------------------------------------------
// Integer helpers
// ---------------------------------------------------------------------------

/// Percentage with two decimals as an integer 0..=10000 (12.50 % → 1250),
/// exactly as the reference computes it.
///
/// t = (1_000_000_000 / base) · count; P = t / 10⁷ and the next three digits
/// d1, d2, d3; d3 ≥ 5 rounds d2 up (with carry); P > 99 gives 10000. `base ≤ 0`
/// or `count ≤ 0` gives 0. The product is 64-bit: identical to the
/// reference's 32-bit arithmetic whenever `count ≤ 2·base` (see the module's
/// "Readings of the spec", item 16).
///
/// ```
/// use evallab::metrics::eas::rules::pct100;
/// assert_eq!(pct100(8, 1), 1250);
/// assert_eq!(pct100(3, 2), 6667);
/// assert_eq!(pct100(7, 7), 10000);
/// assert_eq!(pct100(0, 5), 0);
/// ```
pub fn pct100(base: i32, count: i32) -> i32 {
    if base <= 0 || count <= 0 {
        return 0;
    }
    // Truncating divisions on non-negative values, as in the reference.
    pct_digits(i64::from(1_000_000_000 / base) * i64::from(count))
}

/// The digit rounding of [`pct100`] on t = (10⁹ / base) · count.
fn pct_digits(t: i64) -> i32 {
    let mut p = t / 10_000_000;
    let mut d1 = (t / 1_000_000) % 10;
    let mut d2 = (t / 100_000) % 10;
    let d3 = (t / 10_000) % 10;
    if d3 >= 5 {
        d2 += 1;
        if d2 == 10 {
            d2 = 0;
            d1 += 1;
            if d1 == 10 {
                d1 = 0;
                p += 1;
            }
        }
    }
    if p > 99 {
        return 10_000;
    }
    // p ≤ 99 here, so the value is at most 9999.
    i32::try_from(p * 100 + d1 * 10 + d2).unwrap_or(10_000)
}

/// Average game length in moves, with the reference's printed-average quirk.
///
/// r = (200·total_plies + n) / (2n) (the average in plies × 100, rounded);
/// whole = r / 100; dec = r % 100; if dec % 10 ≠ 0 and dec ≥ 50 then
/// whole += 1; result = whole / 2. `n ≤ 0` (or a negative total) gives 0.
///
/// ```
/// use evallab::metrics::eas::rules::avg_moves;
/// // 3655 plies in 30 games: 121.83 plies → 122 → 61 moves.
/// assert_eq!(avg_moves(3655, 30), 61);
/// // 1217 plies in 10 games: 121.70 plies, dec 70 is a multiple of 10,
/// // so no rounding up: 121 → 60 moves.
/// assert_eq!(avg_moves(1217, 10), 60);
/// ```
pub fn avg_moves(total_plies: i32, n: i32) -> i32 {
    if n <= 0 || total_plies < 0 {
        return 0;
    }
    // 64-bit so that huge inputs do not wrap (item 16 of the readings).
    let n64 = i64::from(n);
    let r = (200 * i64::from(total_plies) + n64) / (2 * n64);
    let mut whole = r / 100;
    let dec = r % 100;
    if dec % 10 != 0 && dec >= 50 {
        whole += 1;
    }
    // whole ≤ total_plies + 1, so whole / 2 always fits.
    i32::try_from(whole / 2).unwrap_or(i32::MAX)
}

// ---------------------------------------------------------------------------
// Parts of the score
// ---------------------------------------------------------------------------

/// Weighted sum Σ wᵢ · pct100(base, countsᵢ), in 64 bits.
fn weighted_pct<const K: usize>(base: i32, counts: [i32; K], weights: [i64; K]) -> i64 {
    counts
        .iter()
        .zip(weights)
        .map(|(&c, w)| w * i64::from(pct100(base, c)))
        .sum()
}

/// V6 sacrifice part: 10·s1 + 50·s2 + 100·s3 + 150·s4 + 200·s5 + 250·sQ with
/// s = pct100(wins, n). `n` holds the number of wins at highest level 1..=5
/// (indices 0..=4) and the queen sacrifices (index 5), i.e. counts indexed by
/// [`SacrificeInfo::category`].
///
/// ```
/// use evallab::metrics::eas::rules::sac_part_v6;
/// assert_eq!(sac_part_v6(20, [0, 20, 0, 0, 0, 0]), 500_000);
/// ```
pub fn sac_part_v6(wins: i32, n: [i32; 6]) -> i64 {
    weighted_pct(wins, n, [10, 50, 100, 150, 200, 250])
}

/// V5 sacrifice part: multipliers 5/15/45/90/180/350 (levels 1..=5, queen),
/// same `n` layout as [`sac_part_v6`].
///
/// ```
/// use evallab::metrics::eas::rules::sac_part_v5;
/// assert_eq!(sac_part_v5(10, [0, 0, 0, 0, 0, 1]), 350 * 1000);
/// ```
pub fn sac_part_v5(wins: i32, n: [i32; 6]) -> i64 {
    weighted_pct(wins, n, [5, 15, 45, 90, 180, 350])
}

/// V6 early-sacrifice part plus length bonus.
///
/// e = pct100(sac_games, early_games); (e / 18)² (truncate, then square),
/// plus 5000·(avg_all − avg_eng) when that difference is positive. The
/// averages are in moves ([`avg_moves`]).
///
/// ```
/// use evallab::metrics::eas::rules::early_part_v6;
/// // No early sacrifices, wins 11 moves shorter than average.
/// assert_eq!(early_part_v6(10, 0, 80, 69), 55_000);
/// // All sacrifices early: e = 10000, 10000 / 18 = 555, 555² = 308,025.
/// assert_eq!(early_part_v6(10, 10, 80, 90), 308_025);
/// ```
pub fn early_part_v6(sac_games: i32, early_games: i32, avg_all: i32, avg_eng: i32) -> i64 {
    let e = i64::from(pct100(sac_games, early_games)) / 18;
    let diff = i64::from(avg_all) - i64::from(avg_eng);
    e * e + if diff > 0 { 5000 * diff } else { 0 }
}

/// V6 short-win part: 100·b1 + 68·b2 + 42·b3 + 27·b4 + 18·b5 with
/// b = pct100(wins, count). `buckets` are the win counts per
/// [`short_bucket`] index (0 = shortest, ≤ L − 20).
///
/// ```
/// use evallab::metrics::eas::rules::short_part_v6;
/// assert_eq!(short_part_v6(4, [1, 0, 0, 0, 1]), 100 * 2500 + 18 * 2500);
/// ```
pub fn short_part_v6(wins: i32, buckets: [i32; 5]) -> i64 {
    weighted_pct(wins, buckets, [100, 68, 42, 27, 18])
}

/// V5 short-win part: multipliers 45/27/18/12/8 from the shortest bucket to
/// the longest (8 for (L − 5, L], 45 for ≤ L − 20), then +3000 per move
/// E's average win is shorter than `avg_all`, −1000 per move it is longer;
/// the adjustment applies to this part only and cannot make it negative.
///
/// ```
/// use evallab::metrics::eas::rules::short_part_v5;
/// assert_eq!(short_part_v5(2, [0, 0, 0, 0, 1], 70, 68), 8 * 5000 + 6000);
/// assert_eq!(short_part_v5(2, [0, 0, 0, 0, 1], 70, 72), 8 * 5000 - 2000);
/// assert_eq!(short_part_v5(2, [0; 5], 70, 72), 0);
/// ```
pub fn short_part_v5(wins: i32, buckets: [i32; 5], avg_all: i32, avg_eng: i32) -> i64 {
    let base = weighted_pct(wins, buckets, [45, 27, 18, 12, 8]);
    let diff = i64::from(avg_all) - i64::from(avg_eng);
    let adjust = match diff.cmp(&0) {
        Ordering::Greater => 3000 * diff,
        Ordering::Less => 1000 * diff,
        Ordering::Equal => 0,
    };
    (base + adjust).max(0)
}

/// V6 short-win limit L = clamp(avg_all − 15, 30, 95), in moves.
///
/// ```
/// use evallab::metrics::eas::rules::short_limit_v6;
/// assert_eq!(short_limit_v6(78), 63);
/// assert_eq!(short_limit_v6(20), 30);
/// assert_eq!(short_limit_v6(200), 95);
/// ```
pub fn short_limit_v6(avg_all: i32) -> i32 {
    avg_all.saturating_sub(15).clamp(30, 95)
}

/// V5 short-win limit: avg_all rounded down to a multiple of 5, minus 15
/// (78 → 60, 58 → 40), not clamped.
///
/// ```
/// use evallab::metrics::eas::rules::short_limit_v5;
/// assert_eq!(short_limit_v5(78), 60);
/// assert_eq!(short_limit_v5(58), 40);
/// ```
pub fn short_limit_v5(avg_all: i32) -> i32 {
    // Euclidean so a (meaningless) negative average still rounds down.
    avg_all
        .saturating_sub(avg_all.rem_euclid(5))
        .saturating_sub(15)
}

/// Early-sacrifice limit max(10, avg_all / 2), applied as plies.
///
/// ```
/// use evallab::metrics::eas::rules::early_limit;
/// assert_eq!(early_limit(81), 40);
/// assert_eq!(early_limit(15), 10);
/// ```
pub fn early_limit(avg_all: i32) -> i32 {
    (avg_all / 2).max(10)
}

/// Which short-win bucket a win of `plies` plies falls in, for limit `l`
/// (moves): 0 = ≤ L − 20, 1 = (L − 20, L − 15], 2 = (L − 15, L − 10],
/// 3 = (L − 10, L − 5], 4 = (L − 5, L]; `None` if longer than L moves. A win
/// "≤ N moves" has plies ≤ 2N.
///
/// ```
/// use evallab::metrics::eas::rules::short_bucket;
/// // L = 60: ≤ 80 plies is bucket 0, 81..=90 bucket 1, …, 111..=120 bucket 4.
/// assert_eq!(short_bucket(80, 60), Some(0));
/// assert_eq!(short_bucket(81, 60), Some(1));
/// assert_eq!(short_bucket(120, 60), Some(4));
/// assert_eq!(short_bucket(121, 60), None);
/// ```
pub fn short_bucket(plies: i32, l: i32) -> Option<usize> {
    let plies = i64::from(plies);
    let l = i64::from(l);
    (0..5i64).position(|i| plies <= 2 * (l - 20 + 5 * i))
}

/// Game length in plies for the short-win rule, counted from the FEN move
/// number of a set-up position: 2·(fullmove − 1) (+ 1 when Black is to move
/// in the start position) + the plies played. For a normal game pass
/// `fullmove = 1, black_to_move = false`. A fullmove of 0 (invalid FEN) is
/// read as 1.
///
/// ```
/// use evallab::metrics::eas::rules::game_plies_from_fen;
/// assert_eq!(game_plies_from_fen(1, false, 75), 75);
/// // Set up at move 10 with White to move, 40 plies played: the last
/// // move is Black's 29th, so the game is 58 plies (29 moves) long.
/// assert_eq!(game_plies_from_fen(10, false, 40), 58);
/// assert_eq!(game_plies_from_fen(10, true, 41), 60);
/// ```
pub fn game_plies_from_fen(fullmove: u32, black_to_move: bool, plies_played: u32) -> i32 {
    let before = 2 * (i64::from(fullmove.max(1)) - 1) + i64::from(black_to_move);
    i32::try_from(before + i64::from(plies_played)).unwrap_or(i32::MAX)
}

/// gd for the bad-draw part: pct100(draws, draws − bad) / 100 (whole
/// percent of good draws, truncated). No draws gives 0.
///
/// ```
/// use evallab::metrics::eas::rules::bad_draw_gd;
/// assert_eq!(bad_draw_gd(20, 3), 85);
/// assert_eq!(bad_draw_gd(3, 1), 66); // 66.67 % → 66
/// assert_eq!(bad_draw_gd(0, 0), 0);
/// ```
pub fn bad_draw_gd(draws: i32, bad: i32) -> i32 {
    pct100(draws, draws.saturating_sub(bad)) / 100
}

/// (gd³ / divisor)², truncating at each step, in 64 bits. gd is a whole
/// percentage; it is clamped to 0..=100 so that no input can overflow.
fn draw_part(gd: i32, divisor: i64) -> i64 {
    let gd = i64::from(gd.clamp(0, 100));
    let x = gd * gd * gd / divisor;
    x * x
}

/// V6 bad-draw part (gd³ / 3000)², truncating at each step (gd, from
/// [`bad_draw_gd`], is clamped to 0..=100).
///
/// ```
/// use evallab::metrics::eas::rules::draw_part_v6;
/// assert_eq!(draw_part_v6(100), 110_889);
/// assert_eq!(draw_part_v6(85), 41_616);
/// ```
pub fn draw_part_v6(gd: i32) -> i64 {
    draw_part(gd, 3000)
}

/// V5 bad-draw part (gd³ / 2500)², truncating at each step (gd clamped to
/// 0..=100).
///
/// ```
/// use evallab::metrics::eas::rules::draw_part_v5;
/// assert_eq!(draw_part_v5(100), 160_000);
/// ```
pub fn draw_part_v5(gd: i32) -> i64 {
    draw_part(gd, 2500)
}

// ---------------------------------------------------------------------------
// Per-game labels
// ---------------------------------------------------------------------------

/// Result of [`sacrifice_level`] for one won game, from the winner's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SacrificeInfo {
    /// Highest sacrifice level reached, 0 (none) ..= 5.
    pub level: u8,
    /// Queen sacrifice: the queen condition held for 8 positions *and* the
    /// game is a level-5 game.
    pub queen_sac: bool,
    /// For each condition (index 0 = level 1, …, 4 = level 5, 5 = queen
    /// condition), the index of the first position of its earliest
    /// qualifying run (0 = start position, i = after ply i), or `None`.
    /// Each entry is reported independently of the others.
    pub first_ply: [Option<u32>; 6],
    /// Start of the earliest level-1 run (the same value as `first_ply[0]`,
    /// named for the early-sacrifice rule, see [`is_early`]).
    pub level1_first_ply: Option<u32>,
}

impl SacrificeInfo {
    /// The one category this game is counted in: `Some(0..=4)` for highest
    /// level 1..=5, `Some(5)` for a queen sacrifice, `None` for no sacrifice.
    /// This is the index into the `n` array of [`sac_part_v6`].
    ///
    /// ```
    /// use evallab::metrics::eas::rules::SacrificeInfo;
    /// let info = SacrificeInfo { level: 5, queen_sac: true, ..Default::default() };
    /// assert_eq!(info.category(), Some(5));
    /// assert_eq!(SacrificeInfo::default().category(), None);
    /// ```
    pub fn category(&self) -> Option<usize> {
        match (self.queen_sac, self.level) {
            (true, _) => Some(5),
            (false, 0) => None,
            (false, l) => Some(usize::from(l.min(5)) - 1),
        }
    }
}

/// Number of minor pieces (knights and bishops pooled).
fn minors(c: [u8; 5]) -> u16 {
    u16::from(c[KNIGHT]) + u16::from(c[BISHOP])
}

/// The winner-side requirement of every sacrifice level: ≥ 1 queen, ≥ 3 pawns.
fn has_queen_and_pawns(own: [u8; 5]) -> bool {
    own[QUEEN] >= 1 && own[PAWN] >= 3
}

/// Same queens, rooks and minors, and exactly one pawn fewer.
fn is_pure_one_pawn_deficit(own: [u8; 5], opp: [u8; 5]) -> bool {
    own[QUEEN] == opp[QUEEN]
        && own[ROOK] == opp[ROOK]
        && minors(own) == minors(opp)
        && u16::from(own[PAWN]) + 1 == u16::from(opp[PAWN])
}

/// Q, 2R, 4 minors with ≥ 6 pawns, or Q, 2R, 3 minors with ≥ 7 pawns.
fn has_full_opening_set(own: [u8; 5]) -> bool {
    own[QUEEN] == 1
        && own[ROOK] == 2
        && match minors(own) {
            4 => own[PAWN] >= 6,
            3 => own[PAWN] >= 7,
            _ => false,
        }
}

/// A position counting towards an 8-position run of level `k` (for k = 1:
/// the one-unit deficits other than the pure one-pawn deficit).
fn is_level_position(m: &Material, white: bool, k: i32) -> bool {
    let own = m.side(white);
    has_queen_and_pawns(own)
        && m.deficit(white) >= k
        && !is_pure_one_pawn_deficit(own, m.side(!white))
}

/// A position counting towards a 12-position pure one-pawn run.
fn is_pure_pawn_position(m: &Material, white: bool) -> bool {
    let own = m.side(white);
    has_queen_and_pawns(own)
        && is_pure_one_pawn_deficit(own, m.side(!white))
        && !has_full_opening_set(own)
}

/// A position counting towards a queen-sacrifice run.
fn is_queen_sac_position(m: &Material, white: bool) -> bool {
    let own = m.side(white);
    own[QUEEN] == 0 && m.side(!white)[QUEEN] >= 1 && own[PAWN] >= 3 && m.deficit(white) >= 5
}

/// Start index of the first run of `len` consecutive positions satisfying
/// `pred` (a depth counter reset on every failing position).
fn first_run(seq: &[Material], len: usize, pred: impl Fn(&Material) -> bool) -> Option<u32> {
    let mut depth = 0usize;
    for (i, m) in seq.iter().enumerate() {
        if pred(m) {
            depth += 1;
            if depth == len {
                return Some(u32::try_from(i + 1 - len).unwrap_or(u32::MAX));
            }
        } else {
            depth = 0;
        }
    }
    None
}

/// Earliest of two optional plies.
fn earliest(a: Option<u32>, b: Option<u32>) -> Option<u32> {
    match (a, b) {
        (Some(x), Some(y)) => Some(x.min(y)),
        (x, None) => x,
        (None, y) => y,
    }
}

/// First ply at which the level-1 sacrifice condition holds for a side, i.e.
/// the start of its earliest qualifying run: 8 consecutive positions behind
/// by ≥ 1 unit (other than a pure one-pawn deficit) with ≥ 1 queen and
/// ≥ 3 pawns, or 12 consecutive pure one-pawn-deficit positions with ≥ 1
/// queen and ≥ 3 pawns and without the full opening set. Used for sacrifices
/// (winner's side) and bad draws (both sides).
///
/// ```
/// use evallab::metrics::eas::rules::{level1_condition_ever, Material};
/// let down = Material { white: [6, 2, 2, 2, 1], black: [8, 2, 2, 2, 1] };
/// let mut seq = vec![Material::START; 3];
/// seq.extend([down; 8]);
/// assert_eq!(level1_condition_ever(&seq, true), Some(3));
/// assert_eq!(level1_condition_ever(&seq, false), None);
/// ```
pub fn level1_condition_ever(seq: &[Material], side_white: bool) -> Option<u32> {
    let normal = first_run(seq, SAC_RUN_PLIES, |m| is_level_position(m, side_white, 1));
    let pure = first_run(seq, PURE_PAWN_RUN_PLIES, |m| {
        is_pure_pawn_position(m, side_white)
    });
    // The two kinds of positions are disjoint, so the earlier start is also
    // the earlier confirmation.
    earliest(normal, pure)
}

/// Sacrifice labels of a won game, from the winner's side (see the module's
/// "Readings of the spec" for the exact rules).
///
/// ```
/// use evallab::metrics::eas::rules::{sacrifice_level, Material};
/// // White is three pawns down for 8 positions (after plies 10..=17).
/// let down3 = Material { white: [5, 2, 2, 2, 1], black: [8, 2, 2, 2, 1] };
/// let mut seq = vec![Material::START; 10];
/// seq.extend([down3; 8]);
/// let info = sacrifice_level(&seq, true);
/// assert_eq!(info.level, 3);
/// assert_eq!(info.first_ply[2], Some(10));
/// assert_eq!(info.category(), Some(2));
/// ```
pub fn sacrifice_level(seq: &[Material], winner_white: bool) -> SacrificeInfo {
    let mut first_ply = [None; 6];
    first_ply[0] = level1_condition_ever(seq, winner_white);
    for (slot, k) in first_ply[1..5].iter_mut().zip(2..=5i32) {
        *slot = first_run(seq, SAC_RUN_PLIES, |m| {
            is_level_position(m, winner_white, k)
        });
    }
    first_ply[5] = first_run(seq, SAC_RUN_PLIES, |m| {
        is_queen_sac_position(m, winner_white)
    });
    // Levels are nested (a level-k run is a level-(k−1) run), so the highest
    // level is the last one with a run.
    let level = (1..=5u8)
        .rev()
        .find(|&k| first_ply[usize::from(k) - 1].is_some())
        .unwrap_or(0);
    SacrificeInfo {
        level,
        queen_sac: level == 5 && first_ply[5].is_some(),
        first_ply,
        level1_first_ply: first_ply[0],
    }
}

/// Whether a sacrifice is "early": its level-1 run starts within the first
/// `early_limit` plies, `level1_first_ply ≤ early_limit`, so that its
/// 8-position run ends within the first `early_limit + 8` plies (reading 11).
///
/// ```
/// use evallab::metrics::eas::rules::is_early;
/// assert!(is_early(Some(40), 40));
/// assert!(!is_early(Some(41), 40));
/// assert!(!is_early(None, 40));
/// ```
pub fn is_early(level1_first_ply: Option<u32>, early_limit: i32) -> bool {
    level1_first_ply.is_some_and(|p| i64::from(p) <= i64::from(early_limit))
}

/// Light types of one side (pawns ignored), as booleans for a, b, c, d, e.
fn light_types(c: [u8; 5]) -> [bool; 5] {
    let (q, r, mi) = (c[QUEEN], c[ROOK], minors(c));
    [
        q == 0 && r <= 1 && mi <= 2, // a
        q == 0 && r <= 2 && mi <= 1, // b
        q <= 1 && r == 0 && mi <= 2, // c
        q <= 1 && r <= 1 && mi == 0, // d
        q == 0 && r == 0 && mi <= 4, // e
    ]
}

/// Whether two piece sets (pawns ignored) form a light pair: both sides of a
/// type among a–d (equal types allowed), or one side of type e and the other
/// of any type a–e. Types: a = no Q, ≤ 1 R, ≤ 2 minors; b = no Q, ≤ 2 R,
/// ≤ 1 minor; c = ≤ 1 Q, no R, ≤ 2 minors; d = ≤ 1 Q, ≤ 1 R, no minors;
/// e = no Q, no R, ≤ 4 minors.
///
/// ```
/// use evallab::metrics::eas::rules::is_light_pair;
/// // R + B vs R + N (type a vs a), pawns ignored.
/// assert!(is_light_pair([5, 0, 1, 1, 0], [6, 1, 0, 1, 0]));
/// // Q + R vs Q + R + B: the second side has no light type.
/// assert!(!is_light_pair([5, 0, 0, 1, 1], [5, 0, 1, 1, 1]));
/// ```
pub fn is_light_pair(white: [u8; 5], black: [u8; 5]) -> bool {
    let (w, b) = (light_types(white), light_types(black));
    let abcd = |t: [bool; 5]| t[..4].iter().any(|&x| x);
    let any = |t: [bool; 5]| t.iter().any(|&x| x);
    (abcd(w) && abcd(b)) || (w[4] && any(b)) || (b[4] && any(w))
}

/// Whether one position meets one of the endgame rules: both sides ≤ 3
/// pawns; both sides no queen and ≤ 4 pawns; one side no queen and ≤ 4 pawns
/// while the other has ≤ 3 pawns; or a light pair ([`is_light_pair`]).
///
/// ```
/// use evallab::metrics::eas::rules::{is_endgame_position, Material};
/// assert!(!is_endgame_position(&Material::START));
/// let m = Material { white: [3, 1, 1, 2, 1], black: [3, 2, 0, 2, 1] };
/// assert!(is_endgame_position(&m));
/// ```
pub fn is_endgame_position(m: &Material) -> bool {
    let (w, b) = (m.white, m.black);
    let no_queen_le4 = |x: [u8; 5]| x[QUEEN] == 0 && x[PAWN] <= 4;
    (w[PAWN] <= 3 && b[PAWN] <= 3)
        || (no_queen_le4(w) && no_queen_le4(b))
        || (no_queen_le4(w) && b[PAWN] <= 3)
        || (no_queen_le4(b) && w[PAWN] <= 3)
        || is_light_pair(w, b)
}

/// Whether any position of the game (start, after every ply) meets one of
/// the endgame rules ([`is_endgame_position`]). An empty sequence has not.
///
/// ```
/// use evallab::metrics::eas::rules::{reached_endgame, Material};
/// let rook_ending = Material { white: [5, 0, 0, 1, 0], black: [5, 0, 0, 1, 0] };
/// assert!(reached_endgame(&[Material::START, rook_ending]));
/// assert!(!reached_endgame(&[Material::START]));
/// ```
pub fn reached_endgame(seq: &[Material]) -> bool {
    seq.iter().any(is_endgame_position)
}

/// Whether a draw is "bad" for the engine playing `engine_white`: (it never
/// reached an endgame, or the opponent met the level-1 sacrifice condition,
/// i.e. the engine was up material) and the engine itself never met the
/// level-1 condition (a draw while down material is a save).
///
/// ```
/// use evallab::metrics::eas::rules::{is_bad_draw, Material};
/// // A short draw from the start position without an endgame: bad for both.
/// let seq = vec![Material::START; 30];
/// assert!(is_bad_draw(&seq, true) && is_bad_draw(&seq, false));
/// ```
pub fn is_bad_draw(seq: &[Material], engine_white: bool) -> bool {
    level1_condition_ever(seq, engine_white).is_none()
        && (!reached_endgame(seq) || level1_condition_ever(seq, !engine_white).is_some())
}

/// Whether a Termination tag signals an irregular end: it contains one of
/// [`IRREGULAR_TERMINATION_WORDS`] (ASCII case-insensitive).
///
/// ```
/// use evallab::metrics::eas::rules::is_irregular_termination;
/// assert!(is_irregular_termination("Time forfeit"));
/// assert!(!is_irregular_termination("adjudication"));
/// ```
pub fn is_irregular_termination(termination: &str) -> bool {
    let lower = termination.to_ascii_lowercase();
    IRREGULAR_TERMINATION_WORDS
        .iter()
        .any(|w| lower.contains(w))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Shorthand for a position.
    fn mat(white: [u8; 5], black: [u8; 5]) -> Material {
        Material { white, black }
    }

    /// A sequence built from (position, repeat count) pieces.
    fn seq_of(parts: &[(Material, usize)]) -> Vec<Material> {
        parts
            .iter()
            .flat_map(|&(m, n)| std::iter::repeat_n(m, n))
            .collect()
    }

    /// The same game with colours swapped.
    fn mirrored(seq: &[Material]) -> Vec<Material> {
        seq.iter().map(|m| mat(m.black, m.white)).collect()
    }

    const START: Material = Material::START;
    const FULL: [u8; 5] = [8, 2, 2, 2, 1];

    // --- integer helpers -------------------------------------------------

    #[test]
    fn pct100_examples() {
        assert_eq!(pct100(8, 1), 1250);
        assert_eq!(pct100(3, 1), 3333);
        assert_eq!(pct100(3, 2), 6667);
        assert_eq!(pct100(0, 5), 0);
        assert_eq!(pct100(-3, 5), 0);
        assert_eq!(pct100(7, 7), 10000);
        assert_eq!(pct100(1, 1), 10000);
        assert_eq!(pct100(5, 0), 0);
        assert_eq!(pct100(5, -1), 0);
        // 1/6 = 16.666…: t = 166,666,666 → 16, 6, 6, d3 6 → 1667.
        assert_eq!(pct100(6, 1), 1667);
        // 2/3 of 1000 = 666.666 → d3 rounding with carry: 1e9/1000 = 1e6,
        // t = 666e6 → 66, 6, 0, 0 → 6660.
        assert_eq!(pct100(1000, 666), 6660);
        // 1/7 = 14.2857…: t = 142,857,142 → 14, 2, 8, d3 5 → 1429.
        assert_eq!(pct100(7, 1), 1429);
        // 199/2000 = 9.95 %: t = 500,000·199 = 99,500,000 → P 9, d1 9, d2 5,
        // d3 0 → 995.
        assert_eq!(pct100(2000, 199), 995);
        // Carry through d2 and d1 into P: 2599/20000 = 12.995 %: t =
        // 50,000·2599 = 129,950,000 → P 12, d1 9, d2 9, d3 5 → 13.00 → 1300.
        assert_eq!(pct100(20000, 2599), 1300);
        // 1999/2000 = 99.95 %: t = 500,000·1999 = 999,500,000 → P 99,
        // d1 9, d2 5, d3 0 → 9995 (no carry because d3 = 0).
        assert_eq!(pct100(2000, 1999), 9995);
        // 19999/20000: t = 50,000·19999 = 999,950,000 → d3 = 5 → d2 carries
        // into d1 and P → 100.00 → 10000.
        assert_eq!(pct100(20000, 19999), 10000);
        // Above 100 %: capped.
        assert_eq!(pct100(3, 4), 10000);
        assert_eq!(pct100(1, i32::MAX), 10000);
    }

    #[test]
    fn avg_moves_examples() {
        // 1205 plies / 10 games = 120.50 plies: r = (241000 + 10) / 20 = 12050,
        // whole 120, dec 50 (a multiple of 10: no rounding up) → 120 / 2 = 60.
        assert_eq!(avg_moves(1205, 10), 60);
        // 1206 / 10 = 120.60: r = 241210 / 20 = 12060 → dec 60 → 120 → 60.
        assert_eq!(avg_moves(1206, 10), 60);
        // 3655 / 30 = 121.833: r = 731030 / 60 = 12183 → dec 83 ≥ 50 and not
        // a multiple of 10 → whole 122 → 61.
        assert_eq!(avg_moves(3655, 30), 61);
        // 12175 / 100 = 121.75: r = 2435100 / 200 = 12175 → dec 75 → 122 → 61.
        assert_eq!(avg_moves(12175, 100), 61);
        // 1217 / 10 = 121.70: r = 243410 / 20 = 12170 → dec 70 → 121 → 60.
        assert_eq!(avg_moves(1217, 10), 60);
        // 1000 / 8 = 125.00: r = 200008 / 16 = 12500 → 125 → 62.
        assert_eq!(avg_moves(1000, 8), 62);
        // 243 / 2 = 121.50: r = 48602 / 4 = 12150 → dec 50 → 121 → 60.
        assert_eq!(avg_moves(243, 2), 60);
        // 3 / 3 = 1.00: r = 603 / 6 = 100 → 1 → 0.
        assert_eq!(avg_moves(3, 3), 0);
        // 245 / 2 = 122.50 → r = 49002 / 4 = 12250 → 122 → 61.
        assert_eq!(avg_moves(245, 2), 61);
        // 1231 / 10 = 123.10 → r = 246210 / 20 = 12310 → dec 10 → 123 → 61.
        assert_eq!(avg_moves(1231, 10), 61);
        assert_eq!(avg_moves(0, 0), 0);
        assert_eq!(avg_moves(100, 0), 0);
        assert_eq!(avg_moves(100, -2), 0);
        assert_eq!(avg_moves(0, 5), 0);
        // A total that would overflow 200·total in 32 bits.
        assert_eq!(avg_moves(24_000_000, 200_000), 60);
    }

    /// The reference's 32-bit version (wrapping), for comparison.
    fn pct100_i32(base: i32, count: i32) -> i32 {
        if base <= 0 {
            return 0;
        }
        let t = (1_000_000_000 / base).wrapping_mul(count);
        // Negative wrapped products print as garbage in the reference; report
        // them as 0 like the 64-bit version's count ≤ 0 case.
        if t < 0 { 0 } else { pct_digits(i64::from(t)) }
    }

    /// The reference's 32-bit version of avg_moves (wrapping).
    fn avg_moves_i32(total: i32, n: i32) -> i32 {
        let r = 200i32.wrapping_mul(total).wrapping_add(n) / (2 * n);
        let mut whole = r / 100;
        let dec = r % 100;
        if dec % 10 != 0 && dec >= 50 {
            whole += 1;
        }
        whole / 2
    }

    #[test]
    fn pct100_differs_from_wrapping_only_far_above_base() {
        // 3 · 333,333,333 · 7 wraps in 32 bits; we stay capped.
        assert_eq!(pct100(3, 7), 10000);
        assert_ne!(pct100_i32(3, 7), 10000);
    }

    #[test]
    fn draw_part_checks() {
        assert_eq!(draw_part_v6(100), 110_889);
        assert_eq!(draw_part_v6(85), 41_616);
        assert_eq!(draw_part_v6(50), 1_681);
        assert_eq!(draw_part_v6(40), 441);
        assert_eq!(draw_part_v6(0), 0);
        // Out-of-range gd is clamped rather than overflowing.
        assert_eq!(draw_part_v6(i32::MAX), 110_889);
        assert_eq!(draw_part_v6(-5), 0);
        // V5: 1e6 / 2500 = 400 → 160,000; 85³ = 614,125 / 2500 = 245 → 60,025.
        assert_eq!(draw_part_v5(100), 160_000);
        assert_eq!(draw_part_v5(85), 60_025);
    }

    #[test]
    fn bad_draw_gd_examples() {
        assert_eq!(bad_draw_gd(10, 0), 100);
        assert_eq!(bad_draw_gd(20, 3), 85);
        assert_eq!(bad_draw_gd(3, 1), 66);
        assert_eq!(bad_draw_gd(10, 10), 0);
        assert_eq!(bad_draw_gd(0, 0), 0);
        assert_eq!(draw_part_v6(bad_draw_gd(0, 0)), 0);
    }

    #[test]
    fn sac_parts() {
        assert_eq!(sac_part_v6(10, [0, 10, 0, 0, 0, 0]), 500_000);
        assert_eq!(sac_part_v6(0, [0; 6]), 0);
        // 8 wins: one of each level and one queen → 12.5 % each.
        assert_eq!(
            sac_part_v6(8, [1, 1, 1, 1, 1, 1]),
            (10 + 50 + 100 + 150 + 200 + 250) * 1250
        );
        assert_eq!(
            sac_part_v5(8, [1, 1, 1, 1, 1, 1]),
            (5 + 15 + 45 + 90 + 180 + 350) * 1250
        );
    }

    #[test]
    fn early_part() {
        assert_eq!(early_part_v6(10, 0, 80, 69), 55_000);
        // No sacrifices: e = 0; no wins at all: avg_eng 0 → 5000·avg_all.
        assert_eq!(early_part_v6(0, 0, 80, 0), 400_000);
        // Half early: 5000 / 18 = 277 → 76,729; longer wins: no bonus.
        assert_eq!(early_part_v6(4, 2, 60, 65), 76_729);
        assert_eq!(early_part_v6(4, 2, 60, 60), 76_729);
    }

    #[test]
    fn short_parts_and_limits() {
        assert_eq!(short_limit_v6(78), 63);
        assert_eq!(short_limit_v6(45), 30);
        assert_eq!(short_limit_v6(44), 30);
        assert_eq!(short_limit_v6(110), 95);
        assert_eq!(short_limit_v6(111), 95);
        assert_eq!(short_limit_v6(i32::MIN), 30);
        assert_eq!(short_limit_v5(78), 60);
        assert_eq!(short_limit_v5(58), 40);
        assert_eq!(short_limit_v5(80), 65);
        assert_eq!(short_limit_v5(4), -15);
        let _ = short_limit_v5(i32::MIN); // no overflow panic
        assert_eq!(early_limit(0), 10);
        assert_eq!(early_limit(21), 10);
        assert_eq!(early_limit(22), 11);
        assert_eq!(early_limit(81), 40);
        assert_eq!(
            short_part_v6(5, [1, 1, 1, 1, 1]),
            (100 + 68 + 42 + 27 + 18) * 2000
        );
        assert_eq!(short_part_v6(0, [0; 5]), 0);
        assert_eq!(short_part_v5(5, [1, 0, 0, 0, 0], 60, 60), 45 * 2000);
        assert_eq!(short_part_v5(5, [0, 1, 0, 0, 0], 60, 60), 27 * 2000);
        assert_eq!(short_part_v5(5, [0, 0, 0, 0, 1], 60, 57), 8 * 2000 + 9000);
        assert_eq!(short_part_v5(5, [0, 0, 0, 0, 1], 60, 90), 0);
        assert_eq!(short_part_v5(0, [0; 5], 60, 0), 180_000);
    }

    #[test]
    fn short_bucket_boundaries() {
        let l = 63; // buckets in moves: ≤43, 44–48, 49–53, 54–58, 59–63
        assert_eq!(short_bucket(0, l), Some(0));
        assert_eq!(short_bucket(86, l), Some(0));
        assert_eq!(short_bucket(87, l), Some(1));
        assert_eq!(short_bucket(96, l), Some(1));
        assert_eq!(short_bucket(97, l), Some(2));
        assert_eq!(short_bucket(106, l), Some(2));
        assert_eq!(short_bucket(107, l), Some(3));
        assert_eq!(short_bucket(116, l), Some(3));
        assert_eq!(short_bucket(117, l), Some(4));
        assert_eq!(short_bucket(126, l), Some(4));
        assert_eq!(short_bucket(127, l), None);
        assert_eq!(short_bucket(i32::MAX, l), None);
        assert_eq!(short_bucket(i32::MIN, l), Some(0));
    }

    #[test]
    fn fen_plies() {
        assert_eq!(game_plies_from_fen(1, false, 0), 0);
        assert_eq!(game_plies_from_fen(0, false, 10), 10);
        assert_eq!(game_plies_from_fen(1, true, 1), 2);
        assert_eq!(game_plies_from_fen(30, true, 21), 80);
    }

    #[test]
    fn spec_total_665_889() {
        let wins = 25;
        // Level-2 sacrifice in every win: 50 · 10000.
        let sac = sac_part_v6(wins, [0, wins, 0, 0, 0, 0]);
        // None early (e = 0), wins 11 moves shorter than average.
        let early = early_part_v6(wins, 0, 85, 74);
        // L = 70: the engine's wins (~148 plies) are in no bucket.
        let short = short_part_v6(wins, [0; 5]);
        let draw = draw_part_v6(bad_draw_gd(40, 0));
        assert_eq!((sac, early, short, draw), (500_000, 55_000, 0, 110_889));
        assert_eq!(sac + early + short + draw, 665_889);
    }

    // --- sacrifice detection ---------------------------------------------

    /// White down `k` pawns (k ≥ 2), everything else equal.
    fn white_pawns_down(k: u8) -> Material {
        mat([8 - k, 2, 2, 2, 1], FULL)
    }

    /// White down exactly one unit, not a pure pawn deficit: a minor for
    /// two pawns (36 vs 37).
    fn white_one_unit_mixed() -> Material {
        mat([8, 2, 1, 2, 1], [6, 2, 2, 2, 1])
    }

    #[test]
    fn each_level_exactly() {
        for k in 1..=5u8 {
            let down = if k == 1 {
                white_one_unit_mixed()
            } else {
                white_pawns_down(k)
            };
            assert_eq!(down.deficit(true), i32::from(k));
            let seq = seq_of(&[(START, 5), (down, 8), (START, 3)]);
            let info = sacrifice_level(&seq, true);
            assert_eq!(info.level, k, "level {k}");
            assert!(!info.queen_sac);
            assert_eq!(info.category(), Some(usize::from(k) - 1));
            for j in 0..5 {
                let expect = if j < usize::from(k) { Some(5) } else { None };
                assert_eq!(info.first_ply[j], expect, "level {k}, entry {j}");
            }
            assert_eq!(info.first_ply[5], None);
            assert_eq!(info.level1_first_ply, Some(5));
            // Seven positions are not enough.
            let short = seq_of(&[(START, 5), (down, 7), (START, 3)]);
            assert_eq!(sacrifice_level(&short, true).level, 0, "level {k}, 7 plies");
            // From the loser's side nothing is a sacrifice.
            assert_eq!(sacrifice_level(&seq, false), SacrificeInfo::default());
        }
    }

    #[test]
    fn deficit_above_five_is_level_five() {
        // White a rook and three pawns down.
        let down = mat([5, 2, 2, 1, 1], FULL);
        assert_eq!(down.deficit(true), 8);
        let info = sacrifice_level(&seq_of(&[(down, 8)]), true);
        assert_eq!(info.level, 5);
        assert_eq!(
            info.first_ply,
            [Some(0), Some(0), Some(0), Some(0), Some(0), None]
        );
    }

    #[test]
    fn interrupted_run_does_not_count() {
        let down = white_pawns_down(2);
        let seq = seq_of(&[(down, 4), (START, 1), (down, 4)]);
        assert_eq!(sacrifice_level(&seq, true).level, 0);
        // The run is the earliest one that completes.
        let seq = seq_of(&[(down, 4), (START, 1), (down, 9)]);
        assert_eq!(sacrifice_level(&seq, true).first_ply[1], Some(5));
    }

    #[test]
    fn fluctuating_deficit_counts_at_its_minimum() {
        let (d2, d3) = (white_pawns_down(2), white_pawns_down(3));
        let seq = [d3, d2, d3, d2, d3, d2, d3, d2];
        let info = sacrifice_level(&seq, true);
        assert_eq!(info.level, 2);
        assert_eq!(info.first_ply[2], None);
        // A composition change inside the run (an exchange of rooks) keeps it.
        let d2_traded = mat([6, 2, 2, 1, 1], [8, 2, 2, 1, 1]);
        let seq = seq_of(&[(d2, 4), (d2_traded, 4)]);
        assert_eq!(sacrifice_level(&seq, true).level, 2);
    }

    #[test]
    fn highest_level_wins_and_first_plies_are_per_level() {
        let seq = seq_of(&[
            (START, 2),
            (white_pawns_down(2), 10),
            (START, 1),
            (white_pawns_down(4), 8),
        ]);
        let info = sacrifice_level(&seq, true);
        assert_eq!(info.level, 4);
        assert_eq!(info.category(), Some(3));
        assert_eq!(
            info.first_ply,
            [Some(2), Some(2), Some(13), Some(13), None, None]
        );
        assert_eq!(info.level1_first_ply, Some(2));
    }

    #[test]
    fn pure_pawn_needs_twelve_plies() {
        // Knights traded: 2 minors each, so not the full opening set.
        let pure = mat([7, 1, 1, 2, 1], [8, 1, 1, 2, 1]);
        assert_eq!(pure.deficit(true), 1);
        let eleven = seq_of(&[(START, 3), (pure, 11), (START, 2)]);
        assert_eq!(sacrifice_level(&eleven, true).level, 0);
        assert_eq!(level1_condition_ever(&eleven, true), None);
        let twelve = seq_of(&[(START, 3), (pure, 12), (START, 2)]);
        let info = sacrifice_level(&twelve, true);
        assert_eq!(info.level, 1);
        assert_eq!(info.level1_first_ply, Some(3));
        assert_eq!(info.first_ply[0], Some(3));
        // Knight vs bishop does not make it impure (minors are pooled).
        let pure_nb = mat([7, 2, 0, 2, 1], [8, 0, 2, 2, 1]);
        let seq = seq_of(&[(pure_nb, 11)]);
        assert_eq!(sacrifice_level(&seq, true).level, 0);
        let seq = seq_of(&[(pure_nb, 12)]);
        assert_eq!(sacrifice_level(&seq, true).level, 1);
    }

    #[test]
    fn pure_pawn_and_other_deficits_do_not_combine() {
        let pure = mat([7, 1, 1, 2, 1], [8, 1, 1, 2, 1]);
        let mixed = white_one_unit_mixed();
        let seq = seq_of(&[(pure, 6), (mixed, 6)]);
        assert_eq!(sacrifice_level(&seq, true).level, 0);
        let seq = seq_of(&[(pure, 6), (mixed, 8)]);
        assert_eq!(sacrifice_level(&seq, true).level1_first_ply, Some(6));
        // One pawn for 4 plies, then a second one for 6: nothing.
        let two = mat([6, 1, 1, 2, 1], [8, 1, 1, 2, 1]);
        let seq = seq_of(&[(START, 2), (pure, 4), (two, 6), (START, 2)]);
        assert_eq!(sacrifice_level(&seq, true), SacrificeInfo::default());
        // … for 8: level 2, and level 1 starts with the second pawn.
        let seq = seq_of(&[(START, 2), (pure, 4), (two, 8), (START, 2)]);
        let info = sacrifice_level(&seq, true);
        assert_eq!(info.level, 2);
        assert_eq!(info.first_ply[..2], [Some(6), Some(6)]);
    }

    #[test]
    fn full_opening_set_excludes_pure_pawn_deficit() {
        // Q, 2R, 4 minors, 7 pawns vs the full set: excluded however long.
        let gambit = mat([7, 2, 2, 2, 1], FULL);
        assert_eq!(sacrifice_level(&seq_of(&[(gambit, 40)]), true).level, 0);
        // Q, 2R, 4 minors, 6 pawns (one pair of pawns traded): excluded.
        let six = mat([6, 2, 2, 2, 1], [7, 2, 2, 2, 1]);
        assert_eq!(sacrifice_level(&seq_of(&[(six, 40)]), true).level, 0);
        // Q, 2R, 4 minors, 5 pawns: counts.
        let five = mat([5, 2, 2, 2, 1], [6, 2, 2, 2, 1]);
        assert_eq!(sacrifice_level(&seq_of(&[(five, 12)]), true).level, 1);
        // Q, 2R, 3 minors, 7 pawns: excluded.
        let three = mat([7, 2, 1, 2, 1], [8, 1, 2, 2, 1]);
        assert_eq!(sacrifice_level(&seq_of(&[(three, 40)]), true).level, 0);
        // Q, 2R, 3 minors, 6 pawns: counts.
        let three6 = mat([6, 2, 1, 2, 1], [7, 1, 2, 2, 1]);
        assert_eq!(sacrifice_level(&seq_of(&[(three6, 12)]), true).level, 1);
        // An excluded position interrupts a pure-pawn run.
        let seq = seq_of(&[(five, 6), (gambit, 1), (five, 6)]);
        assert_eq!(sacrifice_level(&seq, true).level, 0);
        // The full set does not exclude a larger deficit.
        let gambit2 = mat([8, 2, 2, 2, 1], [8, 2, 2, 2, 2]);
        assert_eq!(sacrifice_level(&seq_of(&[(gambit2, 8)]), true).level, 5);
    }

    #[test]
    fn fewer_than_three_pawns_or_no_queen_does_not_count() {
        let two_pawns = mat([2, 2, 2, 2, 1], FULL);
        let seq = seq_of(&[(two_pawns, 30)]);
        assert_eq!(sacrifice_level(&seq, true), SacrificeInfo::default());
        // A run broken by one position with only 2 pawns.
        let three = mat([3, 2, 2, 2, 1], FULL);
        let seq = seq_of(&[(three, 4), (two_pawns, 1), (three, 4)]);
        assert_eq!(sacrifice_level(&seq, true).level, 0);
        // No queen for the winner: no level (and no queen sac, since the
        // opponent has no queen either).
        let no_queens = mat([3, 2, 2, 2, 0], [8, 2, 2, 2, 0]);
        let info = sacrifice_level(&seq_of(&[(no_queens, 20)]), true);
        assert_eq!(info, SacrificeInfo::default());
    }

    #[test]
    fn queen_sacrifice() {
        let level5 = mat([3, 2, 2, 2, 1], FULL); // 5 pawns down, with queen
        let queenless = mat([5, 2, 2, 2, 0], FULL); // Q + 3 P down
        // Queen run after the level-5 run.
        let seq = seq_of(&[(START, 2), (level5, 8), (queenless, 8)]);
        let info = sacrifice_level(&seq, true);
        assert_eq!(info.level, 5);
        assert!(info.queen_sac);
        assert_eq!(info.category(), Some(5));
        assert_eq!(info.first_ply[4], Some(2));
        assert_eq!(info.first_ply[5], Some(10));
        // Order does not matter.
        let seq = seq_of(&[(queenless, 8), (level5, 8)]);
        assert!(sacrifice_level(&seq, true).queen_sac);
        // The queen condition alone (no level-5 run) is not a queen sac.
        let seq = seq_of(&[(START, 2), (queenless, 20)]);
        let info = sacrifice_level(&seq, true);
        assert_eq!(info.level, 0);
        assert!(!info.queen_sac);
        assert_eq!(info.category(), None);
        assert_eq!(info.first_ply[5], Some(2));
        // With only a level-3 run besides, the game counts at level 3.
        let seq = seq_of(&[(white_pawns_down(3), 8), (queenless, 8)]);
        let info = sacrifice_level(&seq, true);
        assert_eq!((info.level, info.queen_sac), (3, false));
        assert_eq!(info.category(), Some(2));
        // The queen run also needs 8 positions, 3 pawns and deficit ≥ 5.
        let seq = seq_of(&[(level5, 8), (queenless, 7)]);
        assert!(!sacrifice_level(&seq, true).queen_sac);
        let two_pawns = mat([2, 2, 2, 2, 0], FULL);
        let seq = seq_of(&[(level5, 8), (two_pawns, 8)]);
        assert!(!sacrifice_level(&seq, true).queen_sac);
        // Q for R: no queen, deficit only 4 → no queen sac.
        let q_for_r = mat([8, 2, 2, 2, 0], [8, 2, 2, 1, 1]);
        assert_eq!(q_for_r.deficit(true), 4);
        let seq = seq_of(&[(level5, 8), (q_for_r, 8)]);
        let info = sacrifice_level(&seq, true);
        assert!(!info.queen_sac);
        assert_eq!(info.level, 5);
        assert_eq!(info.category(), Some(4));
    }

    #[test]
    fn black_winner_is_symmetric() {
        let seq = seq_of(&[
            (START, 2),
            (white_pawns_down(3), 8),
            (mat([5, 2, 2, 2, 0], FULL), 8),
        ]);
        let m = mirrored(&seq);
        assert_eq!(sacrifice_level(&seq, true), sacrifice_level(&m, false));
        assert_eq!(sacrifice_level(&m, false).level, 3);
    }

    #[test]
    fn empty_and_tiny_sequences() {
        assert_eq!(sacrifice_level(&[], true), SacrificeInfo::default());
        assert_eq!(level1_condition_ever(&[], false), None);
        assert!(!reached_endgame(&[]));
        assert!(is_bad_draw(&[], true));
    }

    #[test]
    fn early_rule() {
        let down = white_pawns_down(2);
        let limit = early_limit(80); // 40
        let at = |s: usize| seq_of(&[(START, s), (down, 8)]);
        let info = sacrifice_level(&at(40), true);
        assert_eq!(info.level1_first_ply, Some(40));
        assert!(is_early(info.level1_first_ply, limit));
        let info = sacrifice_level(&at(41), true);
        assert!(!is_early(info.level1_first_ply, limit));
        assert!(is_early(Some(0), 10));
        assert!(!is_early(None, 10));
        assert!(!is_early(Some(0), -1));
    }

    // --- endgame and bad draws -------------------------------------------

    #[test]
    fn endgame_pawn_rules() {
        // Both ≤ 3 pawns, queens and all pieces on.
        assert!(is_endgame_position(&mat([3, 2, 2, 2, 1], [3, 2, 2, 2, 1])));
        assert!(!is_endgame_position(&mat([4, 2, 2, 2, 1], [3, 2, 2, 2, 1])));
        // Both without queen and ≤ 4 pawns.
        assert!(is_endgame_position(&mat([4, 2, 2, 2, 0], [4, 2, 2, 2, 0])));
        assert!(!is_endgame_position(&mat([5, 2, 2, 2, 0], [4, 2, 2, 2, 0])));
        // One side no queen and ≤ 4 pawns, the other ≤ 3 pawns (with queen).
        assert!(is_endgame_position(&mat([4, 2, 2, 2, 0], [3, 2, 2, 2, 1])));
        assert!(is_endgame_position(&mat([3, 2, 2, 2, 1], [4, 2, 2, 2, 0])));
        assert!(!is_endgame_position(&mat([4, 2, 2, 2, 0], [4, 2, 2, 2, 1])));
        assert!(!is_endgame_position(&mat([4, 2, 2, 2, 1], [3, 2, 2, 2, 1])));
        assert!(!is_endgame_position(&START));
    }

    #[test]
    fn light_types_each() {
        // [P, N, B, R, Q]; pawns are ignored by the light rules.
        let a = [8, 1, 1, 1, 0]; // no Q, 1 R, 2 minors (only a)
        let b = [8, 0, 1, 2, 0]; // no Q, 2 R, 1 minor (only b)
        let c = [8, 1, 1, 0, 1]; // Q, no R, 2 minors (only c)
        let d = [8, 0, 0, 1, 1]; // Q, 1 R, no minors (only d)
        let e = [8, 2, 2, 0, 0]; // no Q, no R, 4 minors (only e)
        let heavy = [8, 2, 2, 2, 1];
        assert_eq!(light_types(a), [true, false, false, false, false]);
        assert_eq!(light_types(b), [false, true, false, false, false]);
        assert_eq!(light_types(c), [false, false, true, false, false]);
        assert_eq!(light_types(d), [false, false, false, true, false]);
        assert_eq!(light_types(e), [false, false, false, false, true]);
        assert_eq!(light_types(heavy), [false; 5]);
        // Bare king: every type.
        assert_eq!(light_types([8, 0, 0, 0, 0]), [true; 5]);
        for x in [a, b, c, d] {
            for y in [a, b, c, d] {
                assert!(is_light_pair(x, y), "{x:?} {y:?}");
                // Pawns make no difference, and with 8 pawns each no pawn
                // rule applies: the light pair alone makes it an endgame.
                assert!(is_endgame_position(&mat(x, y)));
            }
        }
        for x in [a, b, c, d, e] {
            assert!(is_light_pair(e, x) && is_light_pair(x, e));
            assert!(!is_light_pair(heavy, x) && !is_light_pair(x, heavy));
        }
        assert!(!is_endgame_position(&mat(heavy, a)));
        // 2 Q is not "≤ 1 Q"; 2 R + 2 minors is no type at all.
        assert!(!is_light_pair([8, 0, 0, 0, 2], a));
        assert!(!is_light_pair([8, 1, 1, 2, 0], a));
        // 3 minors without queen and rooks is only type e: still a pair.
        assert!(!is_light_pair([8, 2, 1, 0, 0], heavy));
        assert!(is_light_pair([8, 2, 1, 0, 0], d));
    }

    #[test]
    fn reached_endgame_anywhere() {
        let ending = mat([5, 0, 0, 1, 0], [5, 0, 1, 1, 0]);
        let mut seq = vec![START; 50];
        assert!(!reached_endgame(&seq));
        seq.push(ending); // only the final position
        assert!(reached_endgame(&seq));
        // The start position counts (set-up endgame).
        assert!(reached_endgame(&[ending, START]));
    }

    #[test]
    fn bad_draw_rules() {
        let ending = mat([4, 0, 0, 1, 0], [4, 0, 0, 1, 0]);
        // Reached an endgame, material level throughout: not bad.
        let seq = seq_of(&[(START, 20), (ending, 20)]);
        assert!(!is_bad_draw(&seq, true) && !is_bad_draw(&seq, false));
        // No endgame: bad for both.
        let seq = seq_of(&[(START, 60)]);
        assert!(is_bad_draw(&seq, true) && is_bad_draw(&seq, false));
        // White two pawns down for 8 plies, then an endgame: bad for Black
        // (was up material), a save for White.
        let seq = seq_of(&[(START, 5), (white_pawns_down(2), 8), (ending, 10)]);
        assert!(!is_bad_draw(&seq, true));
        assert!(is_bad_draw(&seq, false));
        // Without endgame White's draw is still a save.
        let seq = seq_of(&[(START, 5), (white_pawns_down(2), 8), (START, 10)]);
        assert!(!is_bad_draw(&seq, true) && is_bad_draw(&seq, false));
        // Only 7 plies down: no level-1 condition, endgame reached: not bad.
        let seq = seq_of(&[(START, 5), (white_pawns_down(2), 7), (ending, 10)]);
        assert!(!is_bad_draw(&seq, true) && !is_bad_draw(&seq, false));
    }

    #[test]
    fn irregular_terminations() {
        for t in [
            "abandoned",
            "Time forfeit",
            "TIME FORFEIT",
            "stalled connection",
            "Disconnected",
            "forfeit",
            "illegal move",
            "Rules Infraction",
            "rules infraction",
            "loose",
        ] {
            assert!(is_irregular_termination(t), "{t}");
        }
        for t in [
            "",
            "normal",
            "adjudication",
            "TCEC win rule",
            "3-fold repetition",
        ] {
            assert!(!is_irregular_termination(t), "{t}");
        }
    }

    // --- properties --------------------------------------------------------

    /// Random plausible piece counts for one side.
    fn side_strategy() -> impl Strategy<Value = [u8; 5]> {
        (0u8..=8, 0u8..=2, 0u8..=2, 0u8..=2, 0u8..=2).prop_map(|(p, n, b, r, q)| [p, n, b, r, q])
    }

    /// Sequences made of runs of repeated positions, so that runs of 8 and
    /// 12 actually occur.
    fn seq_strategy() -> impl Strategy<Value = Vec<Material>> {
        prop::collection::vec(((side_strategy(), side_strategy()), 1usize..=13), 0..12).prop_map(
            |parts| {
                parts
                    .into_iter()
                    .flat_map(|((w, b), n)| std::iter::repeat_n(mat(w, b), n))
                    .collect()
            },
        )
    }

    proptest! {
        #[test]
        fn pct100_matches_32_bit_up_to_twice_base(base in 1i32..=100_000, num in 0u32..=2000) {
            // count in 0..=2·base
            let count = i32::try_from(i64::from(base) * 2 * i64::from(num) / 2000).unwrap();
            prop_assert_eq!(pct100(base, count), pct100_i32(base, count));
        }

        #[test]
        fn pct100_range_and_monotone(base in 1i32..=5000, a in 0i32..=5000, b in 0i32..=5000) {
            let (lo, hi) = (a.min(b).min(base), a.max(b).min(base));
            let (x, y) = (pct100(base, lo), pct100(base, hi));
            prop_assert!((0..=10000).contains(&x));
            prop_assert!(x <= y);
            prop_assert_eq!(pct100(base, base), 10000);
        }

        #[test]
        fn avg_moves_matches_32_bit(total in 0i32..=10_000_000, n in 1i32..=100_000) {
            prop_assert_eq!(avg_moves(total, n), avg_moves_i32(total, n));
        }

        #[test]
        fn sacrifice_symmetry_and_nesting(seq in seq_strategy(), white in any::<bool>()) {
            let info = sacrifice_level(&seq, white);
            prop_assert_eq!(info, sacrifice_level(&mirrored(&seq), !white));
            prop_assert_eq!(info.level1_first_ply, info.first_ply[0]);
            prop_assert_eq!(info.first_ply[0], level1_condition_ever(&seq, white));
            for k in 1..5 {
                if let Some(p) = info.first_ply[k] {
                    prop_assert!(info.first_ply[k - 1].is_some_and(|q| q <= p));
                }
            }
            prop_assert!(!info.queen_sac || info.level == 5);
            prop_assert_eq!(is_bad_draw(&seq, white), is_bad_draw(&mirrored(&seq), !white));
        }
    }
}
