//! An engine's search → rows of the `analysis` table; failures → rows of
//! `analysis_failures`. The builders' column order is the schema's.

use std::sync::Arc;

use arrow::array::{
    ArrayRef, BooleanBuilder, Int16Builder, Int32Builder, Int64Builder, StringBuilder,
    UInt8Builder, UInt16Builder,
};
use arrow::record_batch::RecordBatch;
use evallab_uci::{Bound, Info, Score, Search};
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Color};

use crate::schema::{ANALYSIS, ANALYSIS_FAILURES};

/// One kept line of a search, checked and in table units.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    pub depth: u16,
    pub seldepth: Option<u16>,
    pub multipv: u8,
    pub score_cp: Option<i32>,
    pub score_mate: Option<i16>,
    pub bound: &'static str,
    pub wdl: Option<[u16; 3]>,
    pub nodes: Option<i64>,
    pub nps: Option<i64>,
    pub time_ms: Option<i64>,
    pub tbhits: Option<i64>,
    pub pv: Vec<String>,
    pub is_final: bool,
}

/// The lines of a search to keep: the final line of each MultiPV rank, and
/// with `all_depths` every completed (depth, multipv) line before it.
///
/// Every kept line must have a depth, a score and a legal first move in
/// `pos`: an engine that says otherwise is sending garbage (the error names
/// the line).
pub fn lines(search: &Search, pos: &Chess, all_depths: bool) -> Result<Vec<Line>, String> {
    let finals = search.final_lines();
    let kept: Vec<&Info> = if all_depths {
        search.by_depth()
    } else {
        finals.clone()
    };
    if finals.is_empty() {
        return Err(format!(
            "no info line with a score and a pv before `bestmove {}`",
            search.bestmove
        ));
    }
    check_move(pos, &search.bestmove).map_err(|e| format!("bestmove: {e}"))?;
    kept.into_iter()
        .map(|info| {
            let is_final = finals.iter().any(|f| std::ptr::eq(*f, info));
            line(info, pos, is_final)
        })
        .collect()
}

fn line(info: &Info, pos: &Chess, is_final: bool) -> Result<Line, String> {
    let what = || describe(info);
    let depth = info
        .depth
        .ok_or_else(|| format!("no depth in {}", what()))?;
    let score = info
        .score
        .ok_or_else(|| format!("no score in {}", what()))?;
    let first = info
        .pv
        .first()
        .ok_or_else(|| format!("no pv in {}", what()))?;
    check_move(pos, first).map_err(|e| format!("{e} in {}", what()))?;
    let (score_cp, score_mate) = match score {
        Score::Cp(cp) => (Some(cp), None),
        Score::Mate(m) => (None, Some(m.clamp(i16::MIN as i32, i16::MAX as i32) as i16)),
    };
    let small = |v: u32| v.min(u16::MAX as u32) as u16;
    Ok(Line {
        depth: small(depth),
        seldepth: info.seldepth.map(small),
        multipv: info.multipv.unwrap_or(1).min(u8::MAX as u32) as u8,
        score_cp,
        score_mate,
        bound: match info.bound {
            Bound::Exact => "exact",
            Bound::Lower => "lower",
            Bound::Upper => "upper",
        },
        wdl: info.wdl.map(|w| w.map(small)),
        nodes: info.nodes.map(|v| v as i64),
        nps: info.nps.map(|v| v as i64),
        time_ms: info.time_ms.map(|v| v as i64),
        tbhits: info.tbhits.map(|v| v as i64),
        pv: info.pv.clone(),
        is_final,
    })
}

fn describe(info: &Info) -> String {
    format!(
        "the line of depth {} multipv {}",
        info.depth.map_or("?".into(), |d| d.to_string()),
        info.multipv.unwrap_or(1)
    )
}

/// A move the engine named must be legal in the position it was given.
fn check_move(pos: &Chess, m: &str) -> Result<(), String> {
    let uci: UciMove = m.parse().map_err(|_| format!("`{m}` is not a UCI move"))?;
    uci.to_move(pos)
        .map(|_| ())
        .map_err(|_| format!("`{m}` is not a legal move in this position"))
}

/// Builders of the `analysis` table; fields in schema order.
#[derive(Default)]
pub struct AnalysisBuilder {
    game_id: Int64Builder,
    ply: UInt16Builder,
    label: StringBuilder,
    depth: UInt16Builder,
    seldepth: UInt16Builder,
    multipv: UInt8Builder,
    mv: StringBuilder,
    score_cp: Int32Builder,
    score_mate: Int16Builder,
    white_cp: Int32Builder,
    white_mate: Int16Builder,
    bound: StringBuilder,
    wdl: [UInt16Builder; 3],
    nodes: Int64Builder,
    nps: Int64Builder,
    time_ms: Int64Builder,
    tbhits: Int64Builder,
    pv: StringBuilder,
    is_final: BooleanBuilder,
    rows: usize,
}

impl AnalysisBuilder {
    /// Appends the lines of the position before `ply` (`turn`: its side to move).
    pub fn push(&mut self, game_id: i64, ply: u16, label: &str, turn: Color, lines: &[Line]) {
        let sign = if turn == Color::White { 1 } else { -1 };
        for l in lines {
            self.game_id.append_value(game_id);
            self.ply.append_value(ply);
            self.label.append_value(label);
            self.depth.append_value(l.depth);
            self.seldepth.append_option(l.seldepth);
            self.multipv.append_value(l.multipv);
            self.mv.append_value(&l.pv[0]);
            self.score_cp.append_option(l.score_cp);
            self.score_mate.append_option(l.score_mate);
            self.white_cp.append_option(l.score_cp.map(|v| v * sign));
            self.white_mate
                .append_option(l.score_mate.map(|v| v * sign as i16));
            self.bound.append_value(l.bound);
            for (b, v) in self.wdl.iter_mut().zip(0..3) {
                b.append_option(l.wdl.map(|w| w[v]));
            }
            self.nodes.append_option(l.nodes);
            self.nps.append_option(l.nps);
            self.time_ms.append_option(l.time_ms);
            self.tbhits.append_option(l.tbhits);
            self.pv.append_value(l.pv.join(" "));
            self.is_final.append_value(l.is_final);
            self.rows += 1;
        }
    }

    pub fn rows(&self) -> usize {
        self.rows
    }

    pub fn finish(&mut self) -> RecordBatch {
        self.rows = 0;
        let [w, d, l] = &mut self.wdl;
        let cols: Vec<ArrayRef> = vec![
            Arc::new(self.game_id.finish()),
            Arc::new(self.ply.finish()),
            Arc::new(self.label.finish()),
            Arc::new(self.depth.finish()),
            Arc::new(self.seldepth.finish()),
            Arc::new(self.multipv.finish()),
            Arc::new(self.mv.finish()),
            Arc::new(self.score_cp.finish()),
            Arc::new(self.score_mate.finish()),
            Arc::new(self.white_cp.finish()),
            Arc::new(self.white_mate.finish()),
            Arc::new(self.bound.finish()),
            Arc::new(w.finish()),
            Arc::new(d.finish()),
            Arc::new(l.finish()),
            Arc::new(self.nodes.finish()),
            Arc::new(self.nps.finish()),
            Arc::new(self.time_ms.finish()),
            Arc::new(self.tbhits.finish()),
            Arc::new(self.pv.finish()),
            Arc::new(self.is_final.finish()),
        ];
        RecordBatch::try_new(ANALYSIS.arrow_schema(), cols)
            .unwrap_or_else(|e| panic!("analysis builder out of step with schema: {e}"))
    }
}

/// Builders of the `analysis_failures` table.
#[derive(Default)]
pub struct FailuresBuilder {
    game_id: Int64Builder,
    ply: UInt16Builder,
    label: StringBuilder,
    fen: StringBuilder,
    attempt: UInt8Builder,
    reason: StringBuilder,
    rows: usize,
}

impl FailuresBuilder {
    pub fn push(
        &mut self,
        game_id: i64,
        ply: u16,
        label: &str,
        fen: &str,
        attempt: u8,
        reason: &str,
    ) {
        self.game_id.append_value(game_id);
        self.ply.append_value(ply);
        self.label.append_value(label);
        self.fen.append_value(fen);
        self.attempt.append_value(attempt);
        self.reason.append_value(reason);
        self.rows += 1;
    }

    pub fn rows(&self) -> usize {
        self.rows
    }

    pub fn finish(&mut self) -> RecordBatch {
        self.rows = 0;
        let cols: Vec<ArrayRef> = vec![
            Arc::new(self.game_id.finish()),
            Arc::new(self.ply.finish()),
            Arc::new(self.label.finish()),
            Arc::new(self.fen.finish()),
            Arc::new(self.attempt.finish()),
            Arc::new(self.reason.finish()),
        ];
        RecordBatch::try_new(ANALYSIS_FAILURES.arrow_schema(), cols)
            .unwrap_or_else(|e| panic!("analysis_failures builder out of step with schema: {e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_builders_match_schemas() {
        assert_eq!(
            AnalysisBuilder::default().finish().num_columns(),
            ANALYSIS.columns.len()
        );
        assert_eq!(
            FailuresBuilder::default().finish().num_columns(),
            ANALYSIS_FAILURES.columns.len()
        );
    }

    #[test]
    fn white_pov_flips_for_black_to_move() {
        use arrow::array::Array;

        let l = Line {
            depth: 10,
            seldepth: Some(14),
            multipv: 1,
            score_cp: Some(35),
            score_mate: None,
            bound: "exact",
            wdl: Some([100, 850, 50]),
            nodes: Some(20000),
            nps: None,
            time_ms: None,
            tbhits: None,
            pv: vec!["e7e5".into(), "g1f3".into()],
            is_final: true,
        };
        let mate = Line {
            score_cp: None,
            score_mate: Some(-3),
            ..l.clone()
        };
        let mut b = AnalysisBuilder::default();
        b.push(7, 2, "x", Color::Black, &[l, mate]);
        let rb = b.finish();
        let white_cp = rb
            .column(
                ANALYSIS
                    .columns
                    .iter()
                    .position(|c| c.name == "white_cp")
                    .unwrap(),
            )
            .as_any()
            .downcast_ref::<arrow::array::Int32Array>()
            .unwrap()
            .clone();
        let white_mate = rb
            .column(
                ANALYSIS
                    .columns
                    .iter()
                    .position(|c| c.name == "white_mate")
                    .unwrap(),
            )
            .as_any()
            .downcast_ref::<arrow::array::Int16Array>()
            .unwrap()
            .clone();
        assert_eq!(white_cp.value(0), -35);
        assert!(white_cp.is_null(1));
        assert_eq!(white_mate.value(1), 3);
    }
}
