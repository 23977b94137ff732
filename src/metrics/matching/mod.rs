//! Move matching (`analysis.md` §3, `metrics.md` §6): the outcome of each
//! tested move under Regan's zig-zag protocol ([`math`]), the log and results
//! file text ([`mod@format`]) and the statistics MM, EV, AE and ASD ([`query`]).

pub mod format;
pub mod math;
pub mod query;
