//! One tested move → a row of the `match` table. Fields in schema order.

use std::sync::Arc;

use arrow::array::{
    ArrayRef, BooleanBuilder, Float64Builder, Int32Builder, Int64Builder, StringBuilder,
    UInt16Builder,
};
use arrow::record_batch::RecordBatch;

use crate::metrics::matching::math::{Outcome, drop_pawns, equal_value, scaled_drop};
use crate::schema::MATCH;

/// One tested move, everything the row holds.
#[derive(Debug, Clone)]
pub struct MatchRow {
    pub ply: u16,
    pub player: String,
    pub white: bool,
    pub move_number: u16,
    pub san: String,
    pub played: String,
    pub repetition: bool,
    pub outcome: Outcome,
    pub top_move: Option<String>,
    pub slm_moves: Vec<String>,
    pub line: String,
    pub log: String,
}

/// Builders of the `match` table.
#[derive(Default)]
pub struct MatchBuilder {
    game_id: Int64Builder,
    ply: UInt16Builder,
    label: StringBuilder,
    player: StringBuilder,
    side: StringBuilder,
    move_number: UInt16Builder,
    san: StringBuilder,
    played: StringBuilder,
    bits: StringBuilder,
    match_type: StringBuilder,
    value_name: StringBuilder,
    value: Float64Builder,
    top_at_d: BooleanBuilder,
    equal_value: BooleanBuilder,
    played_cp: Int32Builder,
    top_cp: Int32Builder,
    alt_cp: Int32Builder,
    drop_pawns: Float64Builder,
    scaled_drop: Float64Builder,
    all_mated: BooleanBuilder,
    repetition: BooleanBuilder,
    top_move: StringBuilder,
    slm_moves: StringBuilder,
    line: StringBuilder,
    log: StringBuilder,
    rows: usize,
}

impl MatchBuilder {
    pub fn push(&mut self, game_id: i64, label: &str, r: &MatchRow) {
        let o = &r.outcome;
        // A repetition's eval is a draw by rule, not the engine's opinion of
        // the move: it counts for MM only.
        let valued = |x: Option<i32>| x.filter(|_| !r.repetition);
        let (played, top) = (valued(o.played_cp), valued(o.top_cp));
        self.game_id.append_value(game_id);
        self.ply.append_value(r.ply);
        self.label.append_value(label);
        self.player.append_value(&r.player);
        self.side.append_value(if r.white { "w" } else { "b" });
        self.move_number.append_value(r.move_number);
        self.san.append_value(&r.san);
        self.played.append_value(&r.played);
        self.bits.append_value(&o.bits);
        self.match_type.append_value(o.kind.as_str());
        self.value_name.append_value(o.kind.value_name());
        self.value
            .append_option(Some(o.value).filter(|v| !v.is_nan()));
        self.top_at_d.append_value(o.top_at_d);
        self.equal_value
            .append_option(if r.repetition { None } else { equal_value(o) });
        self.played_cp.append_option(o.played_cp);
        self.top_cp.append_option(o.top_cp);
        self.alt_cp.append_option(o.alt_cp);
        let both = played.zip(top);
        self.drop_pawns
            .append_option(both.map(|(p, t)| drop_pawns(t, p)));
        self.scaled_drop.append_option(
            both.map(|(p, t)| scaled_drop(f64::from(t) / 100.0, f64::from(p) / 100.0)),
        );
        self.all_mated.append_value(o.all_mated);
        self.repetition.append_value(r.repetition);
        self.top_move.append_option(r.top_move.as_deref());
        self.slm_moves.append_value(r.slm_moves.join(" "));
        self.line.append_value(&r.line);
        self.log.append_value(&r.log);
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
            Arc::new(self.player.finish()),
            Arc::new(self.side.finish()),
            Arc::new(self.move_number.finish()),
            Arc::new(self.san.finish()),
            Arc::new(self.played.finish()),
            Arc::new(self.bits.finish()),
            Arc::new(self.match_type.finish()),
            Arc::new(self.value_name.finish()),
            Arc::new(self.value.finish()),
            Arc::new(self.top_at_d.finish()),
            Arc::new(self.equal_value.finish()),
            Arc::new(self.played_cp.finish()),
            Arc::new(self.top_cp.finish()),
            Arc::new(self.alt_cp.finish()),
            Arc::new(self.drop_pawns.finish()),
            Arc::new(self.scaled_drop.finish()),
            Arc::new(self.all_mated.finish()),
            Arc::new(self.repetition.finish()),
            Arc::new(self.top_move.finish()),
            Arc::new(self.slm_moves.finish()),
            Arc::new(self.line.finish()),
            Arc::new(self.log.finish()),
        ];
        RecordBatch::try_new(MATCH.arrow_schema(), cols)
            .unwrap_or_else(|e| panic!("match builder out of step with schema: {e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_builder_matches_schema() {
        assert_eq!(
            MatchBuilder::default().finish().num_columns(),
            MATCH.columns.len()
        );
    }
}
