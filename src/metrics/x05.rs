//! The win-draw balance x_0_5 every consumer shares: its default.

/// The seed's x_0_5 in pawns (TCEC Season 9 Superfinal, Stockfish:
/// `../shared/spec/metrics.md` §1): what relevance, the symbols, `calc` and
/// the report use when no calibrated value or WDL model is given.
pub const DEFAULT: f64 = 0.62;
