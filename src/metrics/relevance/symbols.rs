//! The NAG symbols of `metrics.md` §2.4–§2.6 and their schemes: the position
//! symbols ($10, $14 … $21) and move symbols ($1 … $6) with their glyphs, the
//! schemes that cut the eval axis into them (position boundaries from tail
//! masses, move thresholds as fractions of the relevance area), the classifiers
//! and the inverse:
//!
//! * [`position_boundaries`], [`classify_position`]: position symbols (§2.4);
//! * [`area_fraction`], [`MoveScheme::unit`], [`move_thresholds`], [`classify_move`]:
//!   move symbols (§2.5);
//! * [`inverse`]: which eval earns a symbol (§2.6).
//!
//! The symbols are measured on the relevance area of [`super::math`] (the units
//! and thresholds need its [`total_area`], the inverse its [`inverse_fraction`]);
//! the arrow runs from here to the math only. `x05` must be finite and strictly
//! positive; for other values results are unspecified, except that [`inverse`]
//! returns `None`.

#![forbid(unsafe_code)]

use std::fmt;
use std::str::FromStr;

use super::math::{inverse_fraction, total_area};

/// Error of the `FromStr` impls of [`PositionScheme`] and [`MoveScheme`]: the input
/// is not one of the scheme names of the spec (matched exactly, case-sensitive).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseSchemeError {
    kind: &'static str,
    input: String,
    valid: &'static str,
}

impl ParseSchemeError {
    /// The rejected input.
    #[must_use]
    pub fn input(&self) -> &str {
        &self.input
    }
}

impl fmt::Display for ParseSchemeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown {} scheme `{}` (valid: {})",
            self.kind, self.input, self.valid
        )
    }
}

impl std::error::Error for ParseSchemeError {}

/// Position-symbol scheme of §2.4: where the boundaries between `=`, `⩲`, `±`, `+−`
/// (and `++−`) lie, as tail masses `q = 1 − P(x)` of the relevance area.
///
/// A boundary with tail mass `q` lies at `x = x05 · log2(1 / (2q))`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PositionScheme {
    /// `nine-wdb`: boundaries ±x05·log2(10/9), ±x05·log2(10/7), ±x05, ±2·x05
    /// (tail masses 0.45, 0.35, 0.25, 0.125). The border from "moderate" `±` to
    /// "decisive" `+−` is pinned at x05, i.e. where the engine wins half its games;
    /// `++−` starts at 2·x05.
    NineWdb,
    /// `nine-equal`: nine equal areas (1/9 each), boundaries at tail masses 4/9, 3/9,
    /// 2/9, 1/9: ±x05·log2(9/8), ±x05·log2(3/2), ±x05·log2(9/4), ±x05·log2(9/2).
    ///
    /// Reading of "the middle one split": the nine areas are four per side plus a
    /// middle one that straddles 0.00 and is split by it into two halves of 1/18
    /// (hence the first tail mass 4/9 = 1/2 − 1/18). Both halves are `=`: there is no
    /// boundary at 0.00 and no tenth symbol, so `=`, `⩲`, `±`, `+−`, `++−` and their
    /// Black mirrors each cover exactly 1/9 of the area.
    NineEqual,
    /// `seven-equal`: seven equal areas (1/7 each, the middle `=` again straddling
    /// 0.00), tail masses 3/7, 2/7, 1/7: ±x05·log2(7/6), ±x05·log2(7/4),
    /// ±x05·log2(7/2). No "extreme" symbols: `+−` / `−+` are the outermost ranges.
    SevenEqual,
}

impl PositionScheme {
    /// All schemes, in the order of the spec.
    pub const ALL: [PositionScheme; 3] = [Self::NineWdb, Self::NineEqual, Self::SevenEqual];

    /// The spec's name: `nine-wdb`, `nine-equal` or `seven-equal`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::NineWdb => "nine-wdb",
            Self::NineEqual => "nine-equal",
            Self::SevenEqual => "seven-equal",
        }
    }

    /// Positive boundaries as `(r, symbol)` with boundary `x05 · log2(r)`,
    /// `r = 1 / (2q)` for tail mass `q`; ascending.
    fn ratios(self) -> &'static [(f64, PositionSymbol)] {
        use PositionSymbol::*;
        // The spec's literal ratios, so the boundaries are its closed forms; for
        // nine-wdb r = 2 and 4 give exactly x05 and 2·x05.
        match self {
            Self::NineWdb => &[
                (10.0 / 9.0, WhiteSlight),
                (10.0 / 7.0, WhiteModerate),
                (2.0, WhiteDecisive),
                (4.0, WhiteCrushing),
            ],
            Self::NineEqual => &[
                (9.0 / 8.0, WhiteSlight),
                (3.0 / 2.0, WhiteModerate),
                (9.0 / 4.0, WhiteDecisive),
                (9.0 / 2.0, WhiteCrushing),
            ],
            Self::SevenEqual => &[
                (7.0 / 6.0, WhiteSlight),
                (7.0 / 4.0, WhiteModerate),
                (7.0 / 2.0, WhiteDecisive),
            ],
        }
    }
}

impl fmt::Display for PositionScheme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // pad, not write_str: honours width/alignment flags in tables.
        f.pad(self.name())
    }
}

impl FromStr for PositionScheme {
    type Err = ParseSchemeError;

    /// Parses the spec's name exactly (`nine-wdb`, `nine-equal`, `seven-equal`).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|scheme| scheme.name() == s)
            .ok_or_else(|| ParseSchemeError {
                kind: "position",
                input: s.to_owned(),
                valid: "nine-wdb, nine-equal, seven-equal",
            })
    }
}

/// Position assessment symbol (PGN NAG) of §2.4. The discriminant is the NAG number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum PositionSymbol {
    /// `=` ($10): equal position.
    Equal = 10,
    /// `⩲` ($14): White is slightly better.
    WhiteSlight = 14,
    /// `⩱` ($15): Black is slightly better.
    BlackSlight = 15,
    /// `±` ($16): White has a moderate advantage.
    WhiteModerate = 16,
    /// `∓` ($17): Black has a moderate advantage.
    BlackModerate = 17,
    /// `+−` ($18): White has a decisive advantage.
    WhiteDecisive = 18,
    /// `−+` ($19): Black has a decisive advantage.
    BlackDecisive = 19,
    /// `++−` ($20): White has a crushing advantage.
    WhiteCrushing = 20,
    /// `−−+` ($21): Black has a crushing advantage.
    BlackCrushing = 21,
}

impl PositionSymbol {
    /// All symbols, ordered from Black crushing to White crushing (by [`Self::level`]).
    pub const ALL: [PositionSymbol; 9] = [
        Self::BlackCrushing,
        Self::BlackDecisive,
        Self::BlackModerate,
        Self::BlackSlight,
        Self::Equal,
        Self::WhiteSlight,
        Self::WhiteModerate,
        Self::WhiteDecisive,
        Self::WhiteCrushing,
    ];

    /// The PGN NAG number (`$10`, `$14` … `$21`).
    ///
    /// ```
    /// use evallab::metrics::relevance::symbols::PositionSymbol;
    /// assert_eq!(PositionSymbol::WhiteDecisive.nag(), 18);
    /// ```
    #[must_use]
    pub fn nag(self) -> u8 {
        self as u8
    }

    /// The symbol for a NAG number, `None` if it is not a position symbol of §2.4.
    #[must_use]
    pub fn from_nag(nag: u8) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.nag() == nag)
    }

    /// The glyph as printed in the spec (minus signs are U+2212).
    ///
    /// ```
    /// use evallab::metrics::relevance::symbols::PositionSymbol;
    /// assert_eq!(PositionSymbol::BlackCrushing.glyph(), "−−+");
    /// ```
    #[must_use]
    pub fn glyph(self) -> &'static str {
        match self {
            Self::Equal => "=",
            Self::WhiteSlight => "⩲",
            Self::BlackSlight => "⩱",
            Self::WhiteModerate => "±",
            Self::BlackModerate => "∓",
            Self::WhiteDecisive => "+−",
            Self::BlackDecisive => "−+",
            Self::WhiteCrushing => "++−",
            Self::BlackCrushing => "−−+",
        }
    }

    /// Signed advantage level, −4 (Black crushing) … 0 (equal) … 4 (White crushing);
    /// orders the symbols along the eval axis (the NAG numbers do not).
    #[must_use]
    pub fn level(self) -> i8 {
        match self {
            Self::Equal => 0,
            Self::WhiteSlight => 1,
            Self::BlackSlight => -1,
            Self::WhiteModerate => 2,
            Self::BlackModerate => -2,
            Self::WhiteDecisive => 3,
            Self::BlackDecisive => -3,
            Self::WhiteCrushing => 4,
            Self::BlackCrushing => -4,
        }
    }

    /// The same advantage for the other colour (`=` stays `=`).
    #[must_use]
    pub fn mirror(self) -> Self {
        match self {
            Self::Equal => Self::Equal,
            Self::WhiteSlight => Self::BlackSlight,
            Self::BlackSlight => Self::WhiteSlight,
            Self::WhiteModerate => Self::BlackModerate,
            Self::BlackModerate => Self::WhiteModerate,
            Self::WhiteDecisive => Self::BlackDecisive,
            Self::BlackDecisive => Self::WhiteDecisive,
            Self::WhiteCrushing => Self::BlackCrushing,
            Self::BlackCrushing => Self::WhiteCrushing,
        }
    }
}

impl fmt::Display for PositionSymbol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.glyph())
    }
}

/// The positive boundaries of a position scheme, ascending, each with the White
/// symbol whose range starts there (the Black boundaries are their negatives, with
/// [`PositionSymbol::mirror`]ed symbols). Below the first boundary is `=`.
///
/// ```
/// use evallab::metrics::relevance::symbols::{position_boundaries, PositionScheme, PositionSymbol};
/// let b = position_boundaries(PositionScheme::NineWdb, 0.62);
/// // 0.62·log2(10/9) ≈ 0.0942, 0.62·log2(10/7) ≈ 0.3190, then x05 and 2·x05 exactly.
/// assert!((b[0].0 - 0.0942419179359310).abs() < 1e-12);
/// assert!((b[1].0 - 0.3190353671544501).abs() < 1e-12);
/// assert_eq!(b[2], (0.62, PositionSymbol::WhiteDecisive));
/// assert_eq!(b[3], (1.24, PositionSymbol::WhiteCrushing));
/// ```
#[must_use]
pub fn position_boundaries(scheme: PositionScheme, x05: f64) -> Vec<(f64, PositionSymbol)> {
    scheme
        .ratios()
        .iter()
        .map(|&(r, sym)| (x05 * r.log2(), sym))
        .collect()
}

/// Position symbol for an eval `x` (White POV) under `scheme`.
///
/// A value exactly on a boundary belongs to the outer (larger advantage) range:
/// `x ≥ b` gets the symbol starting at `b`, `x ≤ −b` its Black mirror. `seven-equal`
/// never yields the crushing symbols; see [`PositionScheme::NineEqual`] for how its
/// split middle area is read (one `=` range around 0.00). NaN gives `=`.
///
/// ```
/// use evallab::metrics::relevance::symbols::{classify_position, PositionScheme::*, PositionSymbol::*};
/// assert_eq!(classify_position(0.05, NineWdb, 0.62), Equal);
/// assert_eq!(classify_position(0.62, NineWdb, 0.62), WhiteDecisive); // on the boundary
/// assert_eq!(classify_position(-0.61, NineWdb, 0.62), BlackModerate);
/// assert_eq!(classify_position(9.0, SevenEqual, 0.62), WhiteDecisive);
/// ```
#[must_use]
pub fn classify_position(x: f64, scheme: PositionScheme, x05: f64) -> PositionSymbol {
    let a = x.abs();
    let mut sym = PositionSymbol::Equal;
    for &(r, s) in scheme.ratios() {
        // Same expression as position_boundaries, so a boundary value read from there
        // classifies exactly as documented.
        if a >= x05 * r.log2() {
            sym = s;
        }
    }
    if x < 0.0 { sym.mirror() } else { sym }
}

/// Move-symbol scheme of §2.5: thresholds on `d = |rr|` in units `u` of the area.
///
/// | scheme | unit u | u / total area | !? / ?! | ! / ? | !! / ?? |
/// |---|---|---|---|---|---|
/// | `econ7` | 2·x05/(7 ln 2) | 1/7 | 0.5u = 1/14 | 1.5u = 3/14 | 2.5u = 5/14 |
/// | `econ8` | x05/(4 ln 2) | 1/8 | 1u = 1/8 | 2u = 2/8 | 3u = 3/8 |
/// | `gen20` | x05/(10 ln 2) | 1/20 | 1u = 1/20 | 3u = 3/20 | 5u = 5/20 |
/// | `gen12` | x05/(6 ln 2) | 1/12 | 1u = 1/12 | 2u = 2/12 | 3u = 3/12 |
///
/// (total area 2·x05/ln 2; the fractions are what [`area_fraction`] returns.)
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MoveScheme {
    /// `econ7`: seven equal areas; thresholds 0.5u, 1.5u, 2.5u with u = 1/7 of the area.
    Econ7,
    /// `econ8`: eight equal areas; thresholds 1u, 2u, 3u with u = 1/8 of the area. From
    /// an alternative of 0.00, `!` starts exactly at x05 and `!!` at 2·x05.
    Econ8,
    /// `gen20`: thresholds 1u, 3u, 5u with u = 1/20 of the area.
    Gen20,
    /// `gen12`: thresholds 1u, 2u, 3u with u = 1/12 of the area.
    Gen12,
}

impl MoveScheme {
    /// All schemes, in the order of the spec.
    pub const ALL: [MoveScheme; 4] = [Self::Econ7, Self::Econ8, Self::Gen20, Self::Gen12];

    /// The spec's name: `econ7`, `econ8`, `gen20` or `gen12`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Self::Econ7 => "econ7",
            Self::Econ8 => "econ8",
            Self::Gen20 => "gen20",
            Self::Gen12 => "gen12",
        }
    }

    /// Units `u` per total area and the threshold multipliers of u (spec table).
    fn units(self) -> (f64, [f64; 3]) {
        match self {
            Self::Econ7 => (7.0, [0.5, 1.5, 2.5]),
            Self::Econ8 => (8.0, [1.0, 2.0, 3.0]),
            Self::Gen20 => (20.0, [1.0, 3.0, 5.0]),
            Self::Gen12 => (12.0, [1.0, 2.0, 3.0]),
        }
    }

    /// The scheme's unit `u` in relevance-area terms (the spec's "unit u" column),
    /// `total_area(x05) / n` for n = 7, 8, 20, 12.
    ///
    /// ```
    /// use evallab::metrics::relevance::symbols::MoveScheme;
    /// use std::f64::consts::LN_2;
    /// // econ8: u = x05 / (4 ln 2) ≈ 0.223618 at x05 = 0.62
    /// assert!((MoveScheme::Econ8.unit(0.62) - 0.62 / (4.0 * LN_2)).abs() < 1e-15);
    /// ```
    #[must_use]
    pub fn unit(self, x05: f64) -> f64 {
        total_area(x05) / self.units().0
    }
}

impl fmt::Display for MoveScheme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.name())
    }
}

impl FromStr for MoveScheme {
    type Err = ParseSchemeError;

    /// Parses the spec's name exactly (`econ7`, `econ8`, `gen20`, `gen12`).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|scheme| scheme.name() == s)
            .ok_or_else(|| ParseSchemeError {
                kind: "move",
                input: s.to_owned(),
                valid: "econ7, econ8, gen20, gen12",
            })
    }
}

/// Move annotation symbol (PGN NAG) of §2.5. The discriminant is the NAG number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum MoveSymbol {
    /// `!?` ($5): speculative / interesting move (best, first threshold).
    Speculative = 5,
    /// `!` ($1): good move (best, second threshold).
    Good = 1,
    /// `!!` ($3): brilliant move (best, third threshold).
    Brilliant = 3,
    /// `?!` ($6): dubious move (worse than the best, first threshold).
    Dubious = 6,
    /// `?` ($2): mistake (worse than the best, second threshold).
    Mistake = 2,
    /// `??` ($4): blunder (worse than the best, third threshold).
    Blunder = 4,
}

impl MoveSymbol {
    /// All symbols: the good ones by rising strength, then the bad ones likewise.
    pub const ALL: [MoveSymbol; 6] = [
        Self::Speculative,
        Self::Good,
        Self::Brilliant,
        Self::Dubious,
        Self::Mistake,
        Self::Blunder,
    ];

    /// The PGN NAG number (`$1` … `$6`).
    ///
    /// ```
    /// use evallab::metrics::relevance::symbols::MoveSymbol;
    /// assert_eq!(MoveSymbol::Speculative.nag(), 5);
    /// ```
    #[must_use]
    pub fn nag(self) -> u8 {
        self as u8
    }

    /// The symbol for a NAG number, `None` outside `$1` … `$6`.
    #[must_use]
    pub fn from_nag(nag: u8) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.nag() == nag)
    }

    /// The glyph: `!?`, `!`, `!!`, `?!`, `?`, `??`.
    ///
    /// ```
    /// use evallab::metrics::relevance::symbols::MoveSymbol;
    /// assert_eq!(MoveSymbol::Blunder.glyph(), "??");
    /// ```
    #[must_use]
    pub fn glyph(self) -> &'static str {
        match self {
            Self::Speculative => "!?",
            Self::Good => "!",
            Self::Brilliant => "!!",
            Self::Dubious => "?!",
            Self::Mistake => "?",
            Self::Blunder => "??",
        }
    }

    /// `true` for `!?`, `!`, `!!` (played move better than the second best).
    #[must_use]
    pub fn is_good(self) -> bool {
        matches!(self, Self::Speculative | Self::Good | Self::Brilliant)
    }

    /// Threshold index 0, 1, 2 (`!?`/`?!`, `!`/`?`, `!!`/`??`).
    fn rank(self) -> usize {
        match self {
            Self::Speculative | Self::Dubious => 0,
            Self::Good | Self::Mistake => 1,
            Self::Brilliant | Self::Blunder => 2,
        }
    }
}

impl fmt::Display for MoveSymbol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.glyph())
    }
}

/// Signed fraction `F` of the total area that a move symbol's threshold corresponds
/// to: `multiplier · u / total`, positive for `!?`, `!`, `!!`, negative for `?!`, `?`,
/// `??` (see the table at [`MoveScheme`]).
///
/// ```
/// use evallab::metrics::relevance::symbols::{area_fraction, MoveScheme, MoveSymbol};
/// assert_eq!(area_fraction(MoveSymbol::Brilliant, MoveScheme::Econ8), 3.0 / 8.0);
/// assert_eq!(area_fraction(MoveSymbol::Blunder, MoveScheme::Econ8), -3.0 / 8.0);
/// assert_eq!(area_fraction(MoveSymbol::Good, MoveScheme::Econ7), 3.0 / 14.0); // 1.5/7
/// ```
#[must_use]
pub fn area_fraction(symbol: MoveSymbol, scheme: MoveScheme) -> f64 {
    let (n, mult) = scheme.units();
    // m / n is the correctly rounded fraction (e.g. 1.5/7 is the same double as 3/14).
    let f = mult[symbol.rank()] / n;
    if symbol.is_good() { f } else { -f }
}

/// The three thresholds on `d = |rr|`: `[!? / ?!, ! / ?, !! / ??]`, i.e.
/// `|F| · total_area(x05)` with `F` from [`area_fraction`].
///
/// ```
/// use evallab::metrics::relevance::symbols::{move_thresholds, MoveScheme};
/// use std::f64::consts::LN_2;
/// let t = move_thresholds(MoveScheme::Econ8, 0.62);
/// let u = 0.62 / (4.0 * LN_2); // ≈ 0.223618
/// assert!((t[0] - u).abs() < 1e-15);
/// assert!((t[1] - 2.0 * u).abs() < 1e-15); // ≈ 0.447235
/// assert!((t[2] - 3.0 * u).abs() < 1e-15); // ≈ 0.670853
/// ```
#[must_use]
pub fn move_thresholds(scheme: MoveScheme, x05: f64) -> [f64; 3] {
    // Derived from area_fraction so classify_move and inverse share one definition.
    let total = total_area(x05);
    [
        MoveSymbol::Speculative,
        MoveSymbol::Good,
        MoveSymbol::Brilliant,
    ]
    .map(|s| area_fraction(s, scheme) * total)
}

/// Move symbol for a signed relevance-reduced difference `d_signed` in the mover's
/// POV: `rr(alternative, played)`.
///
/// Positive (the played move is the best; alternative = second best) gives `!?`, `!`,
/// `!!`; negative (alternative = best move) gives `?!`, `?`, `??`. A symbol is earned
/// when `|d| ≥` its threshold ([`move_thresholds`]); below the first threshold, and for
/// 0 or NaN, the result is `None`.
///
/// ```
/// use evallab::metrics::relevance::math::rr;
/// use evallab::metrics::relevance::symbols::{classify_move, MoveScheme::Econ8, MoveSymbol::*};
/// let x05 = 0.62;
/// // econ8: from 0.00 to x05 is exactly the `!` threshold 2u.
/// assert_eq!(classify_move(rr(0.0, x05, x05), Econ8, x05), Some(Good));
/// assert_eq!(classify_move(rr(0.0, 2.0 * x05, x05), Econ8, x05), Some(Brilliant));
/// assert_eq!(classify_move(rr(0.0, -0.1, x05), Econ8, x05), None);
/// assert_eq!(classify_move(rr(0.5, -3.0, x05), Econ8, x05), Some(Blunder));
/// ```
#[must_use]
pub fn classify_move(d_signed: f64, scheme: MoveScheme, x05: f64) -> Option<MoveSymbol> {
    if d_signed == 0.0 || d_signed.is_nan() {
        return None;
    }
    let t = move_thresholds(scheme, x05);
    let a = d_signed.abs();
    let rank = if a >= t[2] {
        2
    } else if a >= t[1] {
        1
    } else if a >= t[0] {
        0
    } else {
        return None;
    };
    Some(if d_signed > 0.0 {
        [
            MoveSymbol::Speculative,
            MoveSymbol::Good,
            MoveSymbol::Brilliant,
        ][rank]
    } else {
        [
            MoveSymbol::Dubious,
            MoveSymbol::Mistake,
            MoveSymbol::Blunder,
        ][rank]
    })
}

/// §2.6: which eval earns `symbol` against the alternative `x_old` (both mover's POV).
///
/// For `!?`, `!`, `!!` `x_old` is the second-best move and the result is the lowest
/// eval of the played move that earns the symbol; for `?!`, `?`, `??` `x_old` is the
/// best move and the result is the highest eval that earns it. This is
/// [`inverse_fraction`] with `F = area_fraction(symbol, scheme)`; `None` when no eval
/// is far enough away (e.g. `!!` against an alternative that is already winning).
///
/// ```
/// use evallab::metrics::relevance::symbols::{inverse, MoveScheme::Econ8, MoveSymbol::*};
/// let x05 = 0.62;
/// // From 0.00: T = 1, T' = 1 + 2·(3/8) = 1.75, x_new = −x05·log2(0.25) = 2·x05.
/// assert_eq!(inverse(0.0, Brilliant, Econ8, x05), Some(1.24));
/// // From −x05: T = 0.5, T' = 0.5 − 2·(2/8) = 0 → nothing is a `?` any more.
/// assert_eq!(inverse(-x05, Mistake, Econ8, x05), None);
/// ```
#[must_use]
pub fn inverse(x_old: f64, symbol: MoveSymbol, scheme: MoveScheme, x05: f64) -> Option<f64> {
    inverse_fraction(x_old, area_fraction(symbol, scheme), x05)
}

#[cfg(test)]
mod tests {
    use super::MoveSymbol::*;
    use super::PositionSymbol::*;
    use super::*;
    use crate::metrics::relevance::math::{prob_exp, rr, total_area};
    use crate::metrics::relevance::testing::{X05, close, evals, x05s};
    use proptest::prelude::*;

    /// Boundaries at x05 = 0.62, checked against an independent python3 evaluation of
    /// the spec's closed forms (`0.62 * math.log2(10/9)` etc.).
    #[test]
    fn position_boundaries_at_0_62() {
        let expected: [(PositionScheme, &[f64]); 3] = [
            // 0.62·log2(10/9), 0.62·log2(10/7), 0.62, 1.24
            (
                PositionScheme::NineWdb,
                &[
                    0.094_241_917_935_931_04,
                    0.319_035_367_154_450_1,
                    0.62,
                    1.24,
                ],
            ),
            // 0.62·log2(9/8), ·log2(3/2), ·log2(9/4), ·log2(9/2)
            (
                PositionScheme::NineEqual,
                &[
                    0.105_353_500_894_233_68,
                    0.362_676_750_447_116_84,
                    0.725_353_500_894_233_7,
                    1.345_353_500_894_233_4,
                ],
            ),
            // 0.62·log2(7/6), ·log2(7/4), ·log2(7/2)
            (
                PositionScheme::SevenEqual,
                &[
                    0.137_883_301_228_597_77,
                    0.500_560_051_675_714_5,
                    1.120_560_051_675_714_6,
                ],
            ),
        ];
        let white = [WhiteSlight, WhiteModerate, WhiteDecisive, WhiteCrushing];
        for (scheme, xs) in expected {
            let b = position_boundaries(scheme, X05);
            assert_eq!(b.len(), xs.len());
            for (i, (&(x, sym), &want)) in b.iter().zip(xs).enumerate() {
                assert!(close(x, want, 1e-12), "{scheme} {i}: {x} vs {want}");
                assert_eq!(sym, white[i]);
            }
        }
        // nine-wdb pins the decisive/crushing borders at exactly x05 and 2·x05.
        let b = position_boundaries(PositionScheme::NineWdb, X05);
        assert_eq!((b[2].0, b[3].0), (X05, 2.0 * X05));
    }

    #[test]
    fn position_boundary_membership() {
        for x05 in [0.25, X05, 1.91] {
            for scheme in PositionScheme::ALL {
                let mut inner = Equal;
                for (b, sym) in position_boundaries(scheme, x05) {
                    // On the boundary: outer range; one ulp towards 0: inner range.
                    assert_eq!(classify_position(b, scheme, x05), sym);
                    assert_eq!(classify_position(b.next_down(), scheme, x05), inner);
                    assert_eq!(classify_position(-b, scheme, x05), sym.mirror());
                    assert_eq!(
                        classify_position((-b).next_up(), scheme, x05),
                        inner.mirror()
                    );
                    inner = sym;
                }
                assert_eq!(classify_position(0.0, scheme, x05), Equal);
                assert_eq!(classify_position(-0.0, scheme, x05), Equal);
                assert_eq!(classify_position(f64::NAN, scheme, x05), Equal);
                assert_eq!(classify_position(f64::INFINITY, scheme, x05), inner);
                assert_eq!(
                    classify_position(f64::NEG_INFINITY, scheme, x05),
                    inner.mirror()
                );
            }
        }
        // seven-equal has no crushing symbols even for a mate-like eval.
        assert_eq!(
            classify_position(-1e9, PositionScheme::SevenEqual, X05),
            BlackDecisive
        );
    }

    #[test]
    fn names_and_nags() {
        for s in PositionScheme::ALL {
            assert_eq!(s.name().parse::<PositionScheme>(), Ok(s));
            assert_eq!(s.to_string(), s.name());
        }
        for s in MoveScheme::ALL {
            assert_eq!(s.name().parse::<MoveScheme>(), Ok(s));
        }
        let err = "econ9".parse::<MoveScheme>().unwrap_err();
        assert_eq!(err.input(), "econ9");
        assert!(err.to_string().contains("econ7, econ8, gen20, gen12"));
        assert!("Nine-WDB".parse::<PositionScheme>().is_err());

        let nags: Vec<u8> = PositionSymbol::ALL.iter().map(|s| s.nag()).collect();
        assert_eq!(nags, [21, 19, 17, 15, 10, 14, 16, 18, 20]);
        let glyphs: Vec<&str> = PositionSymbol::ALL.iter().map(|s| s.glyph()).collect();
        assert_eq!(
            glyphs,
            [
                "\u{2212}\u{2212}+",
                "\u{2212}+",
                "\u{2213}",
                "\u{2a71}",
                "=",
                "\u{2a72}",
                "\u{b1}",
                "+\u{2212}",
                "++\u{2212}"
            ]
        );
        for (i, s) in PositionSymbol::ALL.into_iter().enumerate() {
            assert_eq!(i64::from(s.level()), i as i64 - 4);
            assert_eq!(s.mirror().level(), -s.level());
            assert_eq!(PositionSymbol::from_nag(s.nag()), Some(s));
        }
        let m: Vec<(u8, &str)> = MoveSymbol::ALL
            .iter()
            .map(|s| (s.nag(), s.glyph()))
            .collect();
        assert_eq!(
            m,
            [
                (5, "!?"),
                (1, "!"),
                (3, "!!"),
                (6, "?!"),
                (2, "?"),
                (4, "??")
            ]
        );
        for s in MoveSymbol::ALL {
            assert_eq!(MoveSymbol::from_nag(s.nag()), Some(s));
        }
        assert_eq!(MoveSymbol::from_nag(7), None);
        assert_eq!(PositionSymbol::from_nag(11), None);
    }

    /// Each boundary is where the tail mass 1 − P(x) equals the scheme's q.
    #[test]
    fn boundaries_match_tail_masses() {
        let q: [(PositionScheme, &[f64]); 3] = [
            (PositionScheme::NineWdb, &[0.45, 0.35, 0.25, 0.125]),
            (
                PositionScheme::NineEqual,
                &[4.0 / 9.0, 3.0 / 9.0, 2.0 / 9.0, 1.0 / 9.0],
            ),
            (
                PositionScheme::SevenEqual,
                &[3.0 / 7.0, 2.0 / 7.0, 1.0 / 7.0],
            ),
        ];
        for x05 in [0.3, X05, 1.91] {
            for (scheme, qs) in q {
                for (&(x, _), &q) in position_boundaries(scheme, x05).iter().zip(qs) {
                    assert!(close(1.0 - prob_exp(x, x05), q, 1e-14), "{scheme}");
                    assert!(close(prob_exp(-x, x05), q, 1e-14), "{scheme}");
                    assert!(close(x, x05 * (1.0 / (2.0 * q)).log2(), 1e-14));
                }
            }
        }
    }

    /// Thresholds at x05 = 0.62, against python3: u·multiplier with u from the table.
    #[test]
    fn move_thresholds_at_0_62() {
        let expected = [
            // u = 2·0.62/(7 ln 2) = 0.2555631215289021; 0.5u, 1.5u, 2.5u
            (
                MoveScheme::Econ7,
                [
                    0.127_781_560_764_451_05,
                    0.383_344_682_293_353_17,
                    0.638_907_803_822_255_2,
                ],
            ),
            // u = 0.62/(4 ln 2) = 0.22361773133778934; 1u, 2u, 3u
            (
                MoveScheme::Econ8,
                [
                    0.223_617_731_337_789_34,
                    0.447_235_462_675_578_7,
                    0.670_853_194_013_368,
                ],
            ),
            // u = 0.62/(10 ln 2) = 0.08944709253511574; 1u, 3u, 5u
            (
                MoveScheme::Gen20,
                [
                    0.089_447_092_535_115_74,
                    0.268_341_277_605_347_2,
                    0.447_235_462_675_578_7,
                ],
            ),
            // u = 0.62/(6 ln 2) = 0.14907848755852623; 1u, 2u, 3u
            (
                MoveScheme::Gen12,
                [
                    0.149_078_487_558_526_23,
                    0.298_156_975_117_052_47,
                    0.447_235_462_675_578_7,
                ],
            ),
        ];
        for (scheme, want) in expected {
            let t = move_thresholds(scheme, X05);
            for i in 0..3 {
                assert!(close(t[i], want[i], 1e-14), "{scheme} {i}: {}", t[i]);
            }
        }
    }

    #[test]
    fn area_fractions() {
        let expected = [
            (MoveScheme::Econ7, [1.0 / 14.0, 3.0 / 14.0, 5.0 / 14.0]),
            (MoveScheme::Econ8, [1.0 / 8.0, 2.0 / 8.0, 3.0 / 8.0]),
            (MoveScheme::Gen20, [1.0 / 20.0, 3.0 / 20.0, 5.0 / 20.0]),
            (MoveScheme::Gen12, [1.0 / 12.0, 2.0 / 12.0, 3.0 / 12.0]),
        ];
        for (scheme, f) in expected {
            for (i, (good, bad)) in [
                (Speculative, Dubious),
                (Good, Mistake),
                (Brilliant, Blunder),
            ]
            .into_iter()
            .enumerate()
            {
                assert_eq!(area_fraction(good, scheme), f[i]);
                assert_eq!(area_fraction(bad, scheme), -f[i]);
            }
            // Threshold = |F| · total = multiplier · u.
            let t = move_thresholds(scheme, X05);
            for (i, &ti) in t.iter().enumerate() {
                let m = scheme.units().1[i];
                assert!(close(ti, m * scheme.unit(X05), 1e-15));
            }
        }
    }

    #[test]
    fn move_threshold_membership() {
        for x05 in [0.25, X05, 1.91] {
            for scheme in MoveScheme::ALL {
                let t = move_thresholds(scheme, x05);
                let good = [None, Some(Speculative), Some(Good), Some(Brilliant)];
                let bad = [None, Some(Dubious), Some(Mistake), Some(Blunder)];
                for i in 0..3 {
                    // At the threshold: the symbol; one ulp below: the weaker one.
                    assert_eq!(classify_move(t[i], scheme, x05), good[i + 1]);
                    assert_eq!(classify_move(t[i].next_down(), scheme, x05), good[i]);
                    assert_eq!(classify_move(-t[i], scheme, x05), bad[i + 1]);
                    assert_eq!(classify_move((-t[i]).next_up(), scheme, x05), bad[i]);
                }
                assert_eq!(classify_move(0.0, scheme, x05), None);
                assert_eq!(classify_move(f64::NAN, scheme, x05), None);
                assert_eq!(classify_move(f64::INFINITY, scheme, x05), Some(Brilliant));
            }
        }
    }

    /// §2.5: econ8 puts "!?"→"!" exactly at x05 and "!"→"!!" at 2·x05 from 0.00.
    #[test]
    fn econ8_property() {
        for x05 in [0.1, 0.3, X05, 1.0, 1.91, 3.7] {
            let good = inverse(0.0, Good, MoveScheme::Econ8, x05).unwrap();
            let brilliant = inverse(0.0, Brilliant, MoveScheme::Econ8, x05).unwrap();
            assert!(close(good, x05, 1e-12), "{good} vs {x05}");
            assert!(close(brilliant, 2.0 * x05, 1e-12), "{brilliant} vs 2·{x05}");
            // And forwards: exactly at x05 the move is already `!`, just below `!?`.
            let at = |x: f64| classify_move(rr(0.0, x, x05), MoveScheme::Econ8, x05);
            assert_eq!(at(x05), Some(Good));
            assert_eq!(at(x05 * (1.0 - 1e-9)), Some(Speculative));
            assert_eq!(at(2.0 * x05), Some(Brilliant));
            assert_eq!(at(2.0 * x05 * (1.0 - 1e-9)), Some(Good));
            // Mirror image for bad moves.
            let mistake = inverse(0.0, Mistake, MoveScheme::Econ8, x05).unwrap();
            assert!(close(mistake, -x05, 1e-12));
        }
    }

    #[test]
    fn inverse_edge_cases() {
        // T' ≥ 2 / ≤ 0: no eval is far enough away.
        assert_eq!(inverse(10.0, Brilliant, MoveScheme::Econ8, X05), None);
        assert_eq!(inverse(-10.0, Blunder, MoveScheme::Econ8, X05), None);
        assert_eq!(inverse(f64::NAN, Good, MoveScheme::Econ8, X05), None);
        assert_eq!(inverse(0.0, Good, MoveScheme::Econ8, 0.0), None);
        assert_eq!(inverse(0.0, Good, MoveScheme::Econ8, f64::NAN), None);
        // Mate-like alternative: a `??` against +∞ still has an answer (T = 2).
        let x = inverse(f64::INFINITY, Blunder, MoveScheme::Econ8, X05).unwrap();
        // T' = 2 − 0.75 = 1.25 → x = −x05·log2(0.75) = 0.62·0.4150374992788438
        assert!(close(x, 0.257_323_249_552_883_2, 1e-14));
    }

    /// Prints the tables of the report (`cargo test print_tables -- --nocapture`).
    #[test]
    fn print_tables_at_0_62() {
        // One value per line, `kind scheme symbol value`, so that an independent
        // script can diff them; `{}` prints the shortest round-trip decimal.
        println!("total - - {}", total_area(X05));
        for scheme in PositionScheme::ALL {
            for (x, s) in position_boundaries(scheme, X05) {
                println!("boundary {scheme} {s} {x}");
            }
        }
        for scheme in MoveScheme::ALL {
            println!("unit {scheme} - {}", scheme.unit(X05));
            let t = move_thresholds(scheme, X05);
            for (s, t) in [Speculative, Good, Brilliant].into_iter().zip(t) {
                println!("threshold {scheme} {s} {t}");
            }
            for s in MoveSymbol::ALL {
                println!("fraction {scheme} {s} {}", area_fraction(s, scheme));
                let x = inverse(0.0, s, scheme, X05).map_or(f64::NAN, |x| x);
                println!("inverse_from_0 {scheme} {s} {x}");
                let x = inverse(1.0, s, scheme, X05).map_or(f64::NAN, |x| x);
                println!("inverse_from_1 {scheme} {s} {x}");
            }
        }
    }

    proptest! {
        #[test]
        fn classify_position_monotone(a in evals(), b in evals(), x05 in x05s(), i in 0usize..3) {
            let scheme = PositionScheme::ALL[i];
            let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
            let (l, h) = (classify_position(lo, scheme, x05), classify_position(hi, scheme, x05));
            prop_assert!(l.level() <= h.level());
            prop_assert_eq!(classify_position(-a, scheme, x05), classify_position(a, scheme, x05).mirror());
            if scheme == PositionScheme::SevenEqual {
                prop_assert!(l.level().abs() <= 3 && h.level().abs() <= 3);
            }
        }

        #[test]
        fn inverse_round_trip(
            x_old in prop_oneof![evals(), -200.0f64..200.0],
            x05 in x05s(),
            si in 0usize..6,
            mi in 0usize..4,
        ) {
            let (symbol, scheme) = (MoveSymbol::ALL[si], MoveScheme::ALL[mi]);
            if let Some(x_new) = inverse(x_old, symbol, scheme, x05).filter(|x| x.is_finite()) {
                let total = total_area(x05);
                let f = area_fraction(symbol, scheme);
                let d = rr(x_old, x_new, x05);
                // x_new lies exactly on the symbol's threshold, so the recomputed d
                // (log2 then exp2 again) may land an ulp or so on either side of it.
                prop_assert!(close(d, f * total, 1e-12 * total), "d {} vs {}", d, f * total);
                // Nudge outward by 1e-9 of the area: far above that rounding noise and
                // far below the gap to the next threshold (≥ 1/14 of the area).
                let nudged = d + f.signum() * 1e-9 * total;
                prop_assert_eq!(classify_move(nudged, scheme, x05), Some(symbol));
                // …and just inside towards 0 it is the next weaker symbol (or none).
                let weaker = classify_move(d - f.signum() * 1e-9 * total, scheme, x05);
                prop_assert_ne!(weaker, Some(symbol));
            }
        }
    }
}
