//! Column builders for the three tables, filled by the game parser (through
//! [`evallab_pgn::Sink`]) and turned into Arrow record batches whose schemas
//! come from [`crate::schema`].

use evallab_pgn::comment::EvalKind;
use evallab_pgn::sink::{GameRecord, MoveRecord, RejectRecord, Sink};

use crate::schema::{GamesBuilder, MovesBuilder, RejectsBuilder};

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
        b.position_key.append_value(r.key as i64);
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
        b.latency_ms.append_option(r.latency_ms);
        b.expected_reply.append_option(r.expected_reply);
        b.pv.append_option(r.pv);
        b.r50.append_option(r.r50);
        b.rd.append_option(r.rd);
        b.rr.append_option(r.rr);
        b.mb.append_option(r.mb);
        b.wdl.append_option(r.wdl);
        b.comment_extra.append_option(r.comment_extra);
        let [w, k] = &r.material;
        b.white_pawns.append_value(w[0]);
        b.white_knights.append_value(w[1]);
        b.white_bishops.append_value(w[2]);
        b.white_rooks.append_value(w[3]);
        b.white_queens.append_value(w[4]);
        b.black_pawns.append_value(k[0]);
        b.black_knights.append_value(k[1]);
        b.black_bishops.append_value(k[2]);
        b.black_rooks.append_value(k[3]);
        b.black_queens.append_value(k[4]);
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
        b.start_key.append_value(r.start_key as i64);
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
