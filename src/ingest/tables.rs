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
    fn mv(&mut self, r: &MoveRecord<'_>) {
        self.moves(std::slice::from_ref(r));
    }

    /// A game's plies a column at a time: each builder's loop keeps its state
    /// in registers. (Row by row, the 50 builders took turns: 11.8 % of an
    /// ingest's CPU samples, against 9.9 % this way, most of it the text
    /// copied.)
    fn moves(&mut self, rows: &[MoveRecord<'_>]) {
        let b = &mut self.moves;
        // `$col`: a builder; `|$r| $value`: its value in row `$r` (an Option).
        macro_rules! put {
            ($($col:ident: |$r:ident| $value:expr;)*) => {
                $( b.$col.extend_from_iter_option(rows.iter().map(|$r| $value)); )*
            };
        }
        // The text columns (`extend` of Arrow's byte builders takes Options).
        macro_rules! put_text {
            ($($col:ident: |$r:ident| $value:expr;)*) => {
                $( b.$col.extend(rows.iter().map(|$r| $value)); )*
            };
        }
        put! {
            game_id: |r| Some(r.game_id);
            ply: |r| Some(r.ply);
            move_number: |r| Some(r.move_number);
            position_key: |r| Some(r.key as i64);
            eval_cp: |r| r.eval_cp;
            mate: |r| r.mate;
            depth: |r| r.depth;
            seldepth: |r| r.seldepth;
            nodes: |r| r.nodes;
            nps: |r| r.nps;
            time_ms: |r| r.time_ms;
            time_left_ms: |r| r.time_left_ms;
            tb_hits: |r| r.tb_hits;
            hash_full: |r| r.hash_full;
            ponder_hit: |r| r.ponder_hit;
            latency_ms: |r| r.latency_ms;
            r50: |r| r.r50;
            rd: |r| r.rd;
            rr: |r| r.rr;
            white_pawns: |r| Some(r.material[0][0]);
            white_knights: |r| Some(r.material[0][1]);
            white_bishops: |r| Some(r.material[0][2]);
            white_rooks: |r| Some(r.material[0][3]);
            white_queens: |r| Some(r.material[0][4]);
            black_pawns: |r| Some(r.material[1][0]);
            black_knights: |r| Some(r.material[1][1]);
            black_bishops: |r| Some(r.material[1][2]);
            black_rooks: |r| Some(r.material[1][3]);
            black_queens: |r| Some(r.material[1][4]);
            material_balance: |r| Some(r.material_balance);
            halfmove_clock: |r| Some(r.halfmove_clock);
            repetition: |r| Some(r.repetition);
        }
        put_text! {
            side: |r| Some(if r.white { "w" } else { "b" });
            san: |r| Some(r.san);
            uci: |r| Some(r.uci);
            eval_kind: |r| r.eval_kind.map(EvalKind::name);
            eval_raw: |r| r.eval_raw;
            expected_reply: |r| r.expected_reply;
            pv: |r| r.pv;
            mb: |r| r.mb;
            wdl: |r| r.wdl;
            comment_extra: |r| r.comment_extra;
        }
        for r in rows {
            let mut letter = [0u8; 4];
            b.promotion
                .append_option(r.promotion.map(|p| &*p.encode_utf8(&mut letter)));
            b.is_capture.append_value(r.is_capture);
            b.is_check.append_value(r.is_check);
            b.is_mate.append_value(r.is_mate);
            b.is_book.append_value(r.is_book);
            b.dead_material.append_value(r.dead_material);
        }
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
