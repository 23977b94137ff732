//! Column builders for the three tables, filled by the game parser (through
//! [`evallab_pgn::Sink`]) and turned into Arrow record batches whose schemas
//! come from [`crate::schema`].

use std::sync::Arc;

use arrow::array::{
    ArrayRef, BooleanBuilder, Date32Builder, Float32Builder, Float64Builder, Int16Builder,
    Int32Builder, Int64Builder, StringBuilder, UInt8Builder, UInt16Builder, UInt32Builder,
};
use arrow::record_batch::RecordBatch;
use evallab_pgn::comment::EvalKind;
use evallab_pgn::sink::{GameRecord, MoveRecord, RejectRecord, Sink};

use crate::schema::{self, Table};

fn batch(table: &Table, columns: Vec<ArrayRef>) -> RecordBatch {
    // The column order below mirrors the schema; a mismatch is a bug caught by tests.
    RecordBatch::try_new(table.arrow_schema(), columns)
        .unwrap_or_else(|e| panic!("{} builder out of step with schema: {e}", table.name))
}

/// Builders for [`schema::GAMES`]; fields in schema order.
#[derive(Default)]
pub struct GamesBuilder {
    pub game_id: Int64Builder,
    pub source_file: StringBuilder,
    pub source_sha256: StringBuilder,
    pub game_number: UInt32Builder,
    pub byte_offset: Int64Builder,
    pub line: UInt32Builder,
    pub event: StringBuilder,
    pub site: StringBuilder,
    pub date: Date32Builder,
    pub round: StringBuilder,
    pub white: StringBuilder,
    pub black: StringBuilder,
    pub result: StringBuilder,
    pub white_elo: Int32Builder,
    pub black_elo: Int32Builder,
    pub time_control: StringBuilder,
    pub tc_base_s: Float64Builder,
    pub tc_increment_s: Float64Builder,
    pub eco: StringBuilder,
    pub opening: StringBuilder,
    pub termination: StringBuilder,
    pub termination_details: StringBuilder,
    pub ply_count_tag: Int32Builder,
    pub start_fen: StringBuilder,
    pub variant: StringBuilder,
    pub variant_inferred: BooleanBuilder,
    pub engine_options: StringBuilder,
    pub plies: UInt16Builder,
    pub variations_skipped: UInt16Builder,
    pub dialect: StringBuilder,
    pub evals: UInt16Builder,
    pub unparsed_comments: UInt16Builder,
    pub other_tags: StringBuilder,
}

impl GamesBuilder {
    pub fn finish(&mut self) -> RecordBatch {
        let cols: Vec<ArrayRef> = vec![
            Arc::new(self.game_id.finish()),
            Arc::new(self.source_file.finish()),
            Arc::new(self.source_sha256.finish()),
            Arc::new(self.game_number.finish()),
            Arc::new(self.byte_offset.finish()),
            Arc::new(self.line.finish()),
            Arc::new(self.event.finish()),
            Arc::new(self.site.finish()),
            Arc::new(self.date.finish()),
            Arc::new(self.round.finish()),
            Arc::new(self.white.finish()),
            Arc::new(self.black.finish()),
            Arc::new(self.result.finish()),
            Arc::new(self.white_elo.finish()),
            Arc::new(self.black_elo.finish()),
            Arc::new(self.time_control.finish()),
            Arc::new(self.tc_base_s.finish()),
            Arc::new(self.tc_increment_s.finish()),
            Arc::new(self.eco.finish()),
            Arc::new(self.opening.finish()),
            Arc::new(self.termination.finish()),
            Arc::new(self.termination_details.finish()),
            Arc::new(self.ply_count_tag.finish()),
            Arc::new(self.start_fen.finish()),
            Arc::new(self.variant.finish()),
            Arc::new(self.variant_inferred.finish()),
            Arc::new(self.engine_options.finish()),
            Arc::new(self.plies.finish()),
            Arc::new(self.variations_skipped.finish()),
            Arc::new(self.dialect.finish()),
            Arc::new(self.evals.finish()),
            Arc::new(self.unparsed_comments.finish()),
            Arc::new(self.other_tags.finish()),
        ];
        batch(&schema::GAMES, cols)
    }
}

/// Builders for [`schema::MOVES`]; fields in schema order.
#[derive(Default)]
pub struct MovesBuilder {
    pub game_id: Int64Builder,
    pub ply: UInt16Builder,
    pub move_number: UInt16Builder,
    pub side: StringBuilder,
    pub san: StringBuilder,
    pub uci: StringBuilder,
    pub is_capture: BooleanBuilder,
    pub is_check: BooleanBuilder,
    pub is_mate: BooleanBuilder,
    pub promotion: StringBuilder,
    pub is_book: BooleanBuilder,
    pub eval_kind: StringBuilder,
    pub eval_cp: Int32Builder,
    pub mate: Int16Builder,
    pub eval_raw: StringBuilder,
    pub depth: Int16Builder,
    pub seldepth: Int16Builder,
    pub nodes: Int64Builder,
    pub nps: Int64Builder,
    pub time_ms: Int64Builder,
    pub time_left_ms: Int64Builder,
    pub tb_hits: Int64Builder,
    pub hash_full: Float32Builder,
    pub ponder_hit: Float32Builder,
    pub expected_reply: StringBuilder,
    pub pv: StringBuilder,
    pub r50: Int16Builder,
    pub rd: Int16Builder,
    pub rr: Int16Builder,
    pub mb: StringBuilder,
    pub wdl: StringBuilder,
    pub comment_extra: StringBuilder,
    /// White then Black, each P N B R Q.
    pub material: [[UInt8Builder; 5]; 2],
    pub material_balance: Int16Builder,
    pub halfmove_clock: UInt16Builder,
    pub repetition: UInt8Builder,
    pub dead_material: BooleanBuilder,
}

impl MovesBuilder {
    pub fn finish(&mut self) -> RecordBatch {
        let mut cols: Vec<ArrayRef> = vec![
            Arc::new(self.game_id.finish()),
            Arc::new(self.ply.finish()),
            Arc::new(self.move_number.finish()),
            Arc::new(self.side.finish()),
            Arc::new(self.san.finish()),
            Arc::new(self.uci.finish()),
            Arc::new(self.is_capture.finish()),
            Arc::new(self.is_check.finish()),
            Arc::new(self.is_mate.finish()),
            Arc::new(self.promotion.finish()),
            Arc::new(self.is_book.finish()),
            Arc::new(self.eval_kind.finish()),
            Arc::new(self.eval_cp.finish()),
            Arc::new(self.mate.finish()),
            Arc::new(self.eval_raw.finish()),
            Arc::new(self.depth.finish()),
            Arc::new(self.seldepth.finish()),
            Arc::new(self.nodes.finish()),
            Arc::new(self.nps.finish()),
            Arc::new(self.time_ms.finish()),
            Arc::new(self.time_left_ms.finish()),
            Arc::new(self.tb_hits.finish()),
            Arc::new(self.hash_full.finish()),
            Arc::new(self.ponder_hit.finish()),
            Arc::new(self.expected_reply.finish()),
            Arc::new(self.pv.finish()),
            Arc::new(self.r50.finish()),
            Arc::new(self.rd.finish()),
            Arc::new(self.rr.finish()),
            Arc::new(self.mb.finish()),
            Arc::new(self.wdl.finish()),
            Arc::new(self.comment_extra.finish()),
        ];
        for side in &mut self.material {
            for b in side {
                cols.push(Arc::new(b.finish()));
            }
        }
        cols.push(Arc::new(self.material_balance.finish()));
        cols.push(Arc::new(self.halfmove_clock.finish()));
        cols.push(Arc::new(self.repetition.finish()));
        cols.push(Arc::new(self.dead_material.finish()));
        batch(&schema::MOVES, cols)
    }
}

/// Builders for [`schema::REJECTS`]; fields in schema order.
#[derive(Default)]
pub struct RejectsBuilder {
    pub game_id: Int64Builder,
    pub source_file: StringBuilder,
    pub source_sha256: StringBuilder,
    pub game_number: UInt32Builder,
    pub line: UInt32Builder,
    pub byte_offset: Int64Builder,
    pub event: StringBuilder,
    pub round: StringBuilder,
    pub white: StringBuilder,
    pub black: StringBuilder,
    pub ply_reached: UInt16Builder,
    pub reason: StringBuilder,
}

impl RejectsBuilder {
    pub fn finish(&mut self) -> RecordBatch {
        let cols: Vec<ArrayRef> = vec![
            Arc::new(self.game_id.finish()),
            Arc::new(self.source_file.finish()),
            Arc::new(self.source_sha256.finish()),
            Arc::new(self.game_number.finish()),
            Arc::new(self.line.finish()),
            Arc::new(self.byte_offset.finish()),
            Arc::new(self.event.finish()),
            Arc::new(self.round.finish()),
            Arc::new(self.white.finish()),
            Arc::new(self.black.finish()),
            Arc::new(self.ply_reached.finish()),
            Arc::new(self.reason.finish()),
        ];
        batch(&schema::REJECTS, cols)
    }
}

/// The three tables' rows produced from one batch of games.
#[derive(Default)]
pub struct Tables {
    pub games: GamesBuilder,
    pub moves: MovesBuilder,
    pub rejects: RejectsBuilder,
}

impl Sink for Tables {
    #[inline]
    fn mv(&mut self, r: &MoveRecord<'_>) {
        let b = &mut self.moves;
        b.game_id.append_value(r.game_id);
        b.ply.append_value(r.ply);
        b.move_number.append_value(r.move_number);
        b.side.append_value(if r.white { "w" } else { "b" });
        b.san.append_value(r.san);
        b.uci.append_value(r.uci);
        b.is_capture.append_value(r.is_capture);
        b.is_check.append_value(r.is_check);
        b.is_mate.append_value(r.is_mate);
        let mut promotion = [0u8; 4];
        b.promotion
            .append_option(r.promotion.map(|p| &*p.encode_utf8(&mut promotion)));
        b.is_book.append_value(r.is_book);
        b.eval_kind.append_option(r.eval_kind.map(EvalKind::name));
        b.eval_cp.append_option(r.eval_cp);
        b.mate.append_option(r.mate);
        b.eval_raw.append_option(r.eval_raw);
        b.depth.append_option(r.depth);
        b.seldepth.append_option(r.seldepth);
        b.nodes.append_option(r.nodes);
        b.nps.append_option(r.nps);
        b.time_ms.append_option(r.time_ms);
        b.time_left_ms.append_option(r.time_left_ms);
        b.tb_hits.append_option(r.tb_hits);
        b.hash_full.append_option(r.hash_full);
        b.ponder_hit.append_option(r.ponder_hit);
        b.expected_reply.append_option(r.expected_reply);
        b.pv.append_option(r.pv);
        b.r50.append_option(r.r50);
        b.rd.append_option(r.rd);
        b.rr.append_option(r.rr);
        b.mb.append_option(r.mb);
        b.wdl.append_option(r.wdl);
        b.comment_extra.append_option(r.comment_extra);
        for (builders, counts) in b.material.iter_mut().zip(&r.material) {
            for (builder, &n) in builders.iter_mut().zip(counts) {
                builder.append_value(n);
            }
        }
        b.material_balance.append_value(r.material_balance);
        b.halfmove_clock.append_value(r.halfmove_clock);
        b.repetition.append_value(r.repetition);
        b.dead_material.append_value(r.dead_material);
    }

    #[inline]
    fn game(&mut self, r: &GameRecord<'_>) {
        let b = &mut self.games;
        b.game_id.append_value(r.game_id);
        b.source_file.append_value(r.source_file);
        b.source_sha256.append_value(r.source_sha256);
        b.game_number.append_value(r.game_number);
        b.byte_offset.append_value(r.byte_offset);
        b.line.append_value(r.line);
        b.event.append_option(r.event);
        b.site.append_option(r.site);
        b.date.append_option(r.date);
        b.round.append_option(r.round);
        b.white.append_option(r.white);
        b.black.append_option(r.black);
        b.result.append_option(r.result);
        b.white_elo.append_option(r.white_elo);
        b.black_elo.append_option(r.black_elo);
        b.time_control.append_option(r.time_control);
        b.tc_base_s.append_option(r.tc_base_s);
        b.tc_increment_s.append_option(r.tc_increment_s);
        b.eco.append_option(r.eco);
        b.opening.append_option(r.opening);
        b.termination.append_option(r.termination);
        b.termination_details.append_option(r.termination_details);
        b.ply_count_tag.append_option(r.ply_count_tag);
        b.start_fen.append_option(r.start_fen);
        b.variant.append_value(r.variant);
        b.variant_inferred.append_value(r.variant_inferred);
        b.engine_options.append_option(r.engine_options);
        b.plies.append_value(r.plies);
        b.variations_skipped.append_value(r.variations_skipped);
        b.dialect.append_option(r.dialect.map(|d| d.name()));
        b.evals.append_value(r.evals);
        b.unparsed_comments.append_value(r.unparsed_comments);
        b.other_tags.append_option(r.other_tags);
    }

    #[inline]
    fn reject(&mut self, r: &RejectRecord<'_>) {
        let b = &mut self.rejects;
        b.game_id.append_value(r.game_id);
        b.source_file.append_value(r.source_file);
        b.source_sha256.append_value(r.source_sha256);
        b.game_number.append_value(r.game_number);
        b.line.append_value(r.line);
        b.byte_offset.append_value(r.byte_offset);
        b.event.append_option(r.event);
        b.round.append_option(r.round);
        b.white.append_option(r.white);
        b.black.append_option(r.black);
        b.ply_reached.append_value(r.ply_reached);
        b.reason.append_value(r.reason);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_builders_match_schemas() {
        let mut t = Tables::default();
        assert_eq!(t.games.finish().num_columns(), schema::GAMES.columns.len());
        assert_eq!(t.moves.finish().num_columns(), schema::MOVES.columns.len());
        assert_eq!(
            t.rejects.finish().num_columns(),
            schema::REJECTS.columns.len()
        );
    }
}
