//! The EAS score's rules outside the material patterns: the reference's
//! integer arithmetic (`pct100`, `avg_moves`, the four parts), the short-win
//! buckets, the early-sacrifice cut and irregular terminations. It knows
//! nothing about PGN, players or tables: it works on counts.
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

use std::cmp::Ordering;

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

// ---------------------------------------------------------------------------
// Integer helpers
// ---------------------------------------------------------------------------

/// Percentage with two decimals as an integer 0..=10000 (12.50 % → 1250),
/// exactly as the reference computes it.
///
/// t = (1_000_000_000 / base) · count; P = t / 10⁷ and the next three digits
/// d1, d2, d3; d3 ≥ 5 rounds d2 up (with carry); P > 99 gives 10000. `base ≤ 0`
/// or `count ≤ 0` gives 0. The product is 64-bit: identical to the
/// reference's 32-bit arithmetic whenever `count ≤ 2·base` (see the readings in
/// [`super`], "Integer width").
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
/// the category of a win's sacrifice chain (`score::Side::category`).
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

/// Whether a sacrifice win counts as early (V6). The reference cuts the
/// game after ply `early_limit + 8` (`pgn-extract --plylimit`, which numbers
/// plies from a set-up position's FEN move number) and matches the level-1
/// pattern file again; the cut game matches iff the full game's first level-1
/// match is at a position no later than the cut (the matcher stops at its
/// first match). `sac1_ply` is that position as a ply number counted the same
/// way (see [`super::labels()`]), `None` without a level-1 match.
///
/// ```
/// use evallab::metrics::eas::rules::is_early;
/// assert!(is_early(Some(48), 40));
/// assert!(!is_early(Some(49), 40));
/// assert!(!is_early(None, 40));
/// ```
pub fn is_early(sac1_ply: Option<u32>, early_limit: i32) -> bool {
    sac1_ply.is_some_and(|p| i64::from(p) <= i64::from(early_limit) + 8)
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
// Populations
// ---------------------------------------------------------------------------

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
    }
}
