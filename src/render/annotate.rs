//! Annotated PGN: each move gets a move NAG ($1–$6) and a position NAG
//! ($10–$21) computed from the engines' evals, and a comment with the eval and
//! the probabilistic result, so that any PGN viewer shows them and our own
//! ingest reads them back (the comment is in the lichess `[%eval …]` dialect).
//!
//! The move symbol compares the eval after the move with the eval before it
//! (the previous ply's eval, both in the mover's POV): without re-analysis the
//! eval before the move stands for the best alternative of §2.5, so a drop
//! earns ?!, ? or ?? and a gain !?, ! or !!. Mates count as ±100 pawns.
//!
//! With a reference analysis ([`Reference`], MultiPV ≥ 2) the symbol is §2.5's
//! own reading instead: the reference's best move played earns !?, ! or !! by
//! its margin over the reference's second-best line; any other move earns ?!,
//! ? or ?? by what it loses against the best line.

use std::fmt::Write as _;

use polars::prelude::*;

use crate::Error;
use crate::dataset::Dataset;
use crate::metrics::agreement::query::per_move;
use crate::metrics::relevance::CLAMP_PAWNS;
use crate::metrics::relevance::math::{prob_exp, reference_swing, rr};
use crate::metrics::relevance::symbols::{
    MoveScheme, MoveSymbol, PositionScheme, classify_move, classify_position,
};
use crate::metrics::x05::X05;
use crate::metrics::{Families, MATERIAL, with_material_before};
use crate::schema::{ANALYSIS, GAMES, MOVES, col, metric};

/// Symbol schemes and x05 used to annotate.
#[derive(Debug, Clone, Copy)]
pub struct AnnotateOptions {
    pub x05: f64,
    pub position_scheme: PositionScheme,
    pub move_scheme: MoveScheme,
}

impl Default for AnnotateOptions {
    /// The default x05, `nine-wdb` and `econ8`, as the CLI defaults.
    fn default() -> Self {
        AnnotateOptions {
            x05: crate::metrics::x05::DEFAULT,
            position_scheme: PositionScheme::NineWdb,
            move_scheme: MoveScheme::Econ8,
        }
    }
}

/// `YYYY.MM.DD` from days since 1970-01-01 (inverse of `tags::parse_date`).
///
/// ```
/// assert_eq!(evallab::render::annotate::format_date(17116), "2016.11.11");
/// ```
pub fn format_date(days: i32) -> String {
    let z = i64::from(days) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

fn tag_value(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The move symbol of a move: the relevance-reduced change from the eval
/// before it (`prev`, the previous ply's) to its own eval, in the mover's POV
/// (both White POV pawns); `None` without both evals or below the threshold.
pub fn move_symbol(
    prev: Option<f64>,
    x: Option<f64>,
    mover_white: bool,
    opts: AnnotateOptions,
) -> Option<MoveSymbol> {
    let (a, b) = (prev?, x?);
    let sign = if mover_white { 1.0 } else { -1.0 };
    classify_move(rr(sign * a, sign * b, opts.x05), opts.move_scheme, opts.x05)
}

/// The reference analysis of one position, centipawns in the mover's POV
/// (`metrics::agreement::query::per_move`'s columns).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Reference {
    /// The move played is the reference's first choice.
    pub top1: bool,
    pub best_cp: f64,
    pub second_cp: Option<f64>,
    pub played_cp: Option<f64>,
}

/// The move symbol by a reference analysis (see the module docs); `None`
/// below the threshold, or without the line it needs.
///
/// ```
/// use evallab::render::annotate::{AnnotateOptions, Reference, reference_symbol};
/// use evallab::metrics::relevance::symbols::MoveSymbol;
/// let opts = AnnotateOptions::default();
/// // The only good move: best +1.00, the second best −2.00.
/// let only = Reference { top1: true, best_cp: 100.0, second_cp: Some(-200.0), played_cp: Some(100.0) };
/// assert_eq!(reference_symbol(only, opts), Some(MoveSymbol::Brilliant));
/// // A move that throws away three pawns in a level position.
/// let bad = Reference { top1: false, best_cp: 0.0, second_cp: Some(-10.0), played_cp: Some(-300.0) };
/// assert_eq!(reference_symbol(bad, opts), Some(MoveSymbol::Blunder));
/// ```
pub fn reference_symbol(r: Reference, opts: AnnotateOptions) -> Option<MoveSymbol> {
    let swing = reference_swing(r.top1, r.best_cp, r.second_cp, r.played_cp, opts.x05)?;
    classify_move(swing, opts.move_scheme, opts.x05)
}

/// Reference analyses by (game id, ply), for [`write_pgn`].
pub type References = std::collections::HashMap<(i64, u32), Reference>;

/// White-POV eval of a move in pawns (mates at ±[`CLAMP_PAWNS`]).
pub fn white_pov(kind: Option<&str>, cp: Option<i32>, mate: Option<i16>) -> Option<f64> {
    match kind {
        Some("cp") => cp.map(|c| (f64::from(c) / 100.0).clamp(-CLAMP_PAWNS, CLAMP_PAWNS)),
        Some("mate") => mate.map(|m| if m >= 0 { CLAMP_PAWNS } else { -CLAMP_PAWNS }),
        _ => None,
    }
}

/// Writes the games (rows of the games table) with their moves as annotated
/// PGN. With `reference`, the move symbols are the reference's (moves it did
/// not analyse get none).
///
/// The x05 of each move is `x05`'s for its mover and, with a WDL model, the
/// material before the move (the moves' `material` column, when present);
/// `opts.x05` is not used.
pub fn write_pgn(
    games: &DataFrame,
    moves: &DataFrame,
    opts: AnnotateOptions,
    x05: &X05,
    reference: Option<&References>,
) -> Result<String, Error> {
    let mut out = String::new();
    let s = |df: &DataFrame, c: &str| -> Result<StringChunked, Error> {
        Ok(df.column(c)?.str()?.clone())
    };
    let gid = games.column(col::GAME_ID)?.i64()?.clone();
    let (event, site, round, white, black, result) = (
        s(games, col::EVENT)?,
        s(games, col::SITE)?,
        s(games, col::ROUND)?,
        s(games, col::WHITE)?,
        s(games, col::BLACK)?,
        s(games, col::RESULT)?,
    );
    let (fen, variant) = (s(games, col::START_FEN)?, s(games, col::VARIANT)?);
    let date = games.column(col::DATE)?.cast(&DataType::Int32)?;
    let date = date.i32()?.clone();
    let m_gid = moves.column(col::GAME_ID)?.i64()?.clone();
    let m_num = moves.column(col::MOVE_NUMBER)?.cast(&DataType::UInt32)?;
    let m_num = m_num.u32()?.clone();
    let (m_side, m_san, m_kind) = (
        s(moves, col::SIDE)?,
        s(moves, col::SAN)?,
        s(moves, col::EVAL_KIND)?,
    );
    let m_cp = moves.column(col::EVAL_CP)?.i32()?.clone();
    let m_mate = moves.column(col::MATE)?.i16()?.clone();
    let m_ply = moves.column(col::PLY)?.u32()?.clone();
    let m_material = match moves.column(MATERIAL) {
        Ok(c) => Some(c.cast(&DataType::Float64)?.f64()?.clone()),
        Err(_) => None,
    };
    // Moves are grouped by game in table order; index them by game id.
    let mut by_game: std::collections::HashMap<i64, Vec<usize>> = Default::default();
    for (i, g) in m_gid.iter().enumerate() {
        if let Some(g) = g {
            by_game.entry(g).or_default().push(i);
        }
    }
    for gi in 0..games.height() {
        let id = gid.get(gi).unwrap_or_default();
        let opt = |c: &StringChunked| c.get(gi).unwrap_or("?").to_string();
        let mut tags = vec![
            ("Event", opt(&event)),
            ("Site", opt(&site)),
            (
                "Date",
                date.get(gi).map_or("????.??.??".into(), format_date),
            ),
            ("Round", opt(&round)),
            ("White", opt(&white)),
            ("Black", opt(&black)),
            ("Result", opt(&result)),
        ];
        if let Some(f) = fen.get(gi) {
            tags.push(("SetUp", "1".into()));
            tags.push(("FEN", f.to_string()));
        }
        if variant.get(gi) == Some("chess960") {
            tags.push(("Variant", "chess960".into()));
        }
        tags.push((
            "Annotator",
            format!(
                "evallab {} (x05 {}, {}, {})",
                env!("CARGO_PKG_VERSION"),
                x05.describe(),
                opts.position_scheme.name(),
                opts.move_scheme.name()
            ),
        ));
        for (k, v) in &tags {
            let _ = writeln!(out, "[{k} \"{}\"]", tag_value(v));
        }
        out.push('\n');
        let mut line = String::new();
        let mut prev: Option<f64> = None;
        let mut first = true;
        for &i in by_game.get(&id).map(Vec::as_slice).unwrap_or(&[]) {
            let is_white = m_side.get(i) == Some("w");
            let mover = if is_white {
                white.get(gi)
            } else {
                black.get(gi)
            };
            let material = m_material
                .as_ref()
                .and_then(|m| m.get(i))
                .unwrap_or(f64::from(crate::metrics::START_MATERIAL));
            let opts = AnnotateOptions {
                x05: x05.at(mover.unwrap_or(""), material),
                ..opts
            };
            let mut tok = String::new();
            let num = m_num.get(i).unwrap_or(1);
            if is_white {
                let _ = write!(tok, "{num}. ");
            } else if first {
                let _ = write!(tok, "{num}... ");
            }
            first = false;
            tok.push_str(m_san.get(i).unwrap_or("?"));
            let x = white_pov(m_kind.get(i), m_cp.get(i), m_mate.get(i));
            let sym = match reference {
                None => move_symbol(prev, x, is_white, opts),
                Some(r) => m_ply
                    .get(i)
                    .and_then(|p| r.get(&(id, p)))
                    .and_then(|r| reference_symbol(*r, opts)),
            };
            if let Some(sym) = sym {
                let _ = write!(tok, " ${}", sym.nag());
            }
            if let Some(x) = x {
                let pos = classify_position(x, opts.position_scheme, opts.x05);
                let _ = write!(tok, " ${}", pos.nag());
                let eval = match (m_kind.get(i), m_mate.get(i)) {
                    (Some("mate"), Some(m)) => format!("#{m}"),
                    _ => format!("{x:.2}"),
                };
                let _ = write!(
                    tok,
                    " {{[%eval {eval}] P(White)={:.3}}}",
                    prob_exp(x, opts.x05)
                );
                prev = Some(x);
            }
            // Keep lines short for old viewers.
            if line.len() + tok.len() > 79 && !line.is_empty() {
                let _ = writeln!(out, "{}", line.trim_end());
                line.clear();
            }
            line.push_str(&tok);
            line.push(' ');
        }
        line.push_str(&opt(&result));
        let _ = writeln!(out, "{}\n", line.trim_end());
    }
    Ok(out)
}

/// The reference analysis of the games' positions.
pub fn references(ds: &Dataset, games: &DataFrame, label: &str) -> Result<References, Error> {
    let ids = games.column(col::GAME_ID)?.as_materialized_series().clone();
    let selected =
        |lf: LazyFrame| lf.filter(col(col::GAME_ID).is_in(lit(ids.clone()).implode(false), false));
    let df = per_move(
        games.clone().lazy(),
        selected(ds.scan(&MOVES)?),
        selected(ds.scan(&ANALYSIS)?),
        label,
        &Families::default(),
    )
    .collect()?;
    let f = |c: &str| -> Result<Float64Chunked, Error> { Ok(df.column(c)?.f64()?.clone()) };
    let (gid, ply, top1) = (
        df.column(col::GAME_ID)?.i64()?.clone(),
        df.column(col::PLY)?.u32()?.clone(),
        df.column(metric::TOP1)?.bool()?.clone(),
    );
    let (best, second, played) = (
        f(metric::BEST_CP)?,
        f(metric::SECOND_CP)?,
        f(metric::PLAYED_CP)?,
    );
    let mut out = References::new();
    for i in 0..df.height() {
        let (Some(g), Some(p), Some(b)) = (gid.get(i), ply.get(i), best.get(i)) else {
            continue;
        };
        out.insert(
            (g, p),
            Reference {
                top1: top1.get(i).unwrap_or(false),
                best_cp: b,
                second_cp: second.get(i),
                played_cp: played.get(i),
            },
        );
    }
    Ok(out)
}

/// Writes the games matching `filter` (with their moves) as annotated PGN
/// to `path`, in the dataset's order (its inputs' order, each file's games
/// as written); returns how many. No matching game is an error.
pub fn write_games(
    ds: &Dataset,
    filter: Expr,
    opts: AnnotateOptions,
    x05: &X05,
    analysis: Option<&str>,
    path: &std::path::Path,
) -> Result<usize, Error> {
    let games = ds.scan(&GAMES)?.filter(filter).collect()?;
    if games.height() == 0 {
        return Err(Error::Usage("no game matches the selection".into()));
    }
    let ids = games.column(col::GAME_ID)?.as_materialized_series().clone();
    // What write_pgn reads of the moves.
    let read = [
        col::GAME_ID,
        col::PLY,
        col::MOVE_NUMBER,
        col::SIDE,
        col::SAN,
        col::EVAL_KIND,
        col::EVAL_CP,
        col::MATE,
    ];
    // The selected games' moves first: the material before each move only
    // where a WDL model needs it (it shifts within each game).
    let moves = ds
        .scan(&MOVES)?
        .filter(col(col::GAME_ID).is_in(lit(ids).implode(false), false));
    let (moves, read) = match x05.model {
        Some(_) => (
            with_material_before(moves, games.clone().lazy()),
            read.into_iter().chain([MATERIAL]).collect::<Vec<_>>(),
        ),
        None => (moves, read.to_vec()),
    };
    let moves = moves
        .select(read.into_iter().map(col).collect::<Vec<_>>())
        .sort([col::GAME_ID, col::PLY], SortMultipleOptions::default())
        .collect()?;
    let refs = match analysis {
        Some(label) => Some(references(ds, &games, label)?),
        None => None,
    };
    let pgn = write_pgn(&games, &moves, opts, x05, refs.as_ref())?;
    crate::render::format::write_text(path, &pgn)?;
    Ok(games.height())
}

/// The games of a listing (its `game_id` column, e.g. `eas --games`), as a
/// filter for [`write_games`].
pub fn listed(listing: &DataFrame) -> Result<Expr, Error> {
    let ids = listing
        .column(col::GAME_ID)?
        .as_materialized_series()
        .clone();
    Ok(col(col::GAME_ID).is_in(lit(ids).implode(false), false))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_round_trip() {
        for d in [-1, 0, 1, 17116, 18690, 20000, 59] {
            assert_eq!(evallab_pgn::tags::parse_date(&format_date(d)), Some(d));
        }
    }
}
