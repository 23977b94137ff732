//! The derived tables: computed from a dataset's parts and stored beside
//! them (EAS labels, openings, relevance per move, the game facts), with
//! their column-name modules. Apart from the written tables: they are no
//! part of the manifest, and are recomputed when their algorithm changes.

use super::base::col;
use super::metric;
use super::types::ColType::*;
use super::types::{Table, c};

/// Column names of the EAS labels table (one row per game).
pub mod eas_col {
    pub const WINNER: &str = "winner";
    pub const PLIES_FEN: &str = "plies_from_fen";
    pub const ENDGAME: &str = "endgame";
    pub const DUP_KEY: &str = "dup_key";
    pub const DUPLICATE: &str = "duplicate";
    pub const IRREGULAR: &str = "irregular";
    /// `{w,b}_sac_match`: bit k set when that side matched the level-(k+1)
    /// pawn-sacrifice file (k = 5: the queen file).
    pub const SAC_MATCH: [&str; 2] = ["w_sac_match", "b_sac_match"];
    /// `{w,b}_sac_depth`: how far the reference's chain goes, 0..=6.
    pub const SAC_DEPTH: [&str; 2] = ["w_sac_depth", "b_sac_depth"];
    /// The ply of the first level-1 match (the early-sacrifice test).
    pub const SAC1_PLY: [&str; 2] = ["w_sac1_ply", "b_sac1_ply"];
    /// The draw would be bad for that side (meaningful for draws only).
    pub const BAD_DRAW: [&str; 2] = ["w_bad_draw", "b_bad_draw"];
}

/// Column names of the openings table (one row per game).
pub mod opening_col {
    pub const OPENING_PLY: &str = "opening_ply";
    pub const ECO_TAG: &str = "eco_tag";
    pub const ECO_AGREES: &str = "eco_agrees";
    pub const UNCLASSIFIED: &str = "unclassified";
    /// `chess960_sp_{white,black}`: the Scharnagl number of each side's back
    /// rank at the start of a Chess960 game.
    pub const CHESS960_SP: [&str; 2] = ["chess960_sp_white", "chess960_sp_black"];
}

/// Column names of the relevance tables (per move and summary).
pub mod relevance_col {
    pub const OWN_EVAL: &str = "own_eval";
    pub const OWN_PREV_EVAL: &str = "own_prev_eval";
    pub const OPP_PREV_EVAL: &str = "opp_prev_eval";
    pub const SWING_RAW: &str = "swing_raw";
    pub const SWING_RR: &str = "swing_rr";
    pub const DISAGREEMENT_RAW: &str = "disagreement_raw";
    pub const DISAGREEMENT_RR: &str = "disagreement_rr";
    pub const REF_SWING_RR: &str = "ref_swing_rr";
    pub const REF_MOVES: &str = "ref_moves";
    pub const P_RESULT: &str = "p_result";
    pub const X05: &str = "x05";
    pub const MOVES: &str = "moves";
    pub const LOSS_RR_TOTAL: &str = "loss_rr_total";
    pub const LOSS_RR_MEAN: &str = "loss_rr_mean";
    pub const LOSS_RAW_TOTAL: &str = "loss_raw_total";
    pub const LOSS_RAW_MEAN: &str = "loss_raw_mean";
}

/// Derived: EAS labels, one row per game (`evallab eas`, stored by it).
pub const EAS_LABELS: Table = Table {
    name: "eas_labels",
    doc: "derived (DATASET/derived/eas_labels.parquet, by `evallab eas`): the EAS labels of each game",
    columns: &[
        c(col::GAME_ID, Int64, false, "games.game_id"),
        c(col::EVENT, Utf8, true, "Event tag"),
        c(col::ROUND, Utf8, true, "Round tag"),
        c(col::WHITE, Utf8, true, "White tag"),
        c(col::BLACK, Utf8, true, "Black tag"),
        c(col::RESULT, Utf8, true, "Result tag"),
        c(
            eas_col::WINNER,
            Utf8,
            true,
            "`w` or `b` for a decisive game",
        ),
        c(
            eas_col::PLIES_FEN,
            Int32,
            false,
            "plies counted from the start FEN's move number (EAS game length)",
        ),
        c(
            eas_col::ENDGAME,
            Bool,
            false,
            "the game matched `no_endgame_draws` (`-z`): it reached an endgame",
        ),
        c(
            eas_col::DUP_KEY,
            Int64,
            false,
            "FNV-1a of the start FEN and the UCI moves: equal keys are duplicate games",
        ),
        c(
            eas_col::DUPLICATE,
            Bool,
            false,
            "an earlier game has the same dup_key (left out of the score)",
        ),
        c(
            eas_col::IRREGULAR,
            Bool,
            false,
            "irregular termination (time forfeit, crash, …): left out of the score",
        ),
        c(
            eas_col::SAC_MATCH[0],
            UInt8,
            false,
            "the sacrifice files White matched (`-y {1..5}_pawnsac_white`, `queensac_white`): bit k for level k + 1, bit 5 the queen file",
        ),
        c(
            eas_col::SAC_DEPTH[0],
            UInt8,
            false,
            "White's sacrifice chain: the levels 1, 2, … matched in a row (1..=5; 6 = also the queen file); 0 = none",
        ),
        c(
            eas_col::SAC1_PLY[0],
            UInt32,
            true,
            "the ply (counted as plies_from_fen) at whose position White's level-1 file first matched",
        ),
        c(
            eas_col::BAD_DRAW[0],
            Bool,
            false,
            "a draw that is bad for White: no endgame reached or the opponent matched its level-1 file, and White did not",
        ),
        c(
            eas_col::SAC_MATCH[1],
            UInt8,
            false,
            "the sacrifice files Black matched (`-y {1..5}_pawnsac_black`, `queensac_black`): bit k for level k + 1, bit 5 the queen file",
        ),
        c(
            eas_col::SAC_DEPTH[1],
            UInt8,
            false,
            "Black's sacrifice chain: the levels 1, 2, … matched in a row (1..=5; 6 = also the queen file); 0 = none",
        ),
        c(
            eas_col::SAC1_PLY[1],
            UInt32,
            true,
            "the ply (counted as plies_from_fen) at whose position Black's level-1 file first matched",
        ),
        c(
            eas_col::BAD_DRAW[1],
            Bool,
            false,
            "a draw that is bad for Black: no endgame reached or the opponent matched its level-1 file, and Black did not",
        ),
    ],
};

/// Derived: the opening of each game by position (`evallab openings`).
pub const OPENINGS: Table = Table {
    name: "openings",
    doc: "derived (DATASET/derived/openings.parquet, by `evallab openings --table DIR`): each game's opening: the line of the given table (Lichess chess-openings TSV) whose final position the game reaches last, in any move order (by position key), as the table's README says (play the game backwards until a named position is found)",
    columns: &[
        c(col::GAME_ID, Int64, false, "games.game_id"),
        c(
            col::ECO,
            Utf8,
            true,
            "ECO code of that line (null: the game reaches no line's position)",
        ),
        c(
            col::OPENING,
            Utf8,
            true,
            "name of that line; for a Chess960 game that reaches none, its start position: `Chess960 SP 518 RNBQKBNR`, or White's then Black's (`Chess960 SP 0 BBQNNRKR / SP 959 RKRNNQBB`) when they differ",
        ),
        c(
            opening_col::OPENING_PLY,
            UInt32,
            true,
            "the last ply after which the game stands in the line's final position (0: its start position)",
        ),
        c(
            opening_col::ECO_TAG,
            Utf8,
            true,
            "games.eco: the ECO tag as written",
        ),
        c(
            opening_col::ECO_AGREES,
            Bool,
            true,
            "the ECO tag equals `eco` (null: no tag or no line)",
        ),
        c(
            opening_col::UNCLASSIFIED,
            Utf8,
            true,
            "why the game has no name (a Chess960 start that is no arrangement, no moves, a set-up start, no line reached); null when it has one",
        ),
        c(
            opening_col::CHESS960_SP[0],
            Int16,
            true,
            "Chess960: the Scharnagl number (0–959) of White's back rank at the start (null: a standard game, or no Chess960 arrangement)",
        ),
        c(
            opening_col::CHESS960_SP[1],
            Int16,
            true,
            "Chess960: the Scharnagl number of Black's back rank (read by file, as White's); differs from White's in Double Fischer Random",
        ),
    ],
};

/// Derived: relevance per engine move (`evallab relevance`, stored by default).
pub const RELEVANCE_MOVES: Table = Table {
    name: "relevance_moves",
    doc: "derived (DATASET/derived/relevance_moves.parquet, by `evallab relevance`): one row per engine move with an own eval, in the games' order (the moves table's), then by ply",
    columns: &[
        c(col::GAME_ID, Int64, false, "games.game_id"),
        c(col::EVENT, Utf8, true, "Event tag"),
        c(
            metric::ENGINE,
            Utf8,
            true,
            "the engine that moved (after --family merging)",
        ),
        c(metric::OPPONENT, Utf8, true, "its opponent"),
        c(col::SIDE, Utf8, false, "`w` or `b`"),
        c(col::PLY, UInt32, false, "ply of the move"),
        c(
            relevance_col::X05,
            Float64,
            false,
            "the engine's x_0_5 used, pawns",
        ),
        c(
            relevance_col::OWN_EVAL,
            Float64,
            false,
            "own eval, pawns, own POV (mates ±100, clipped to ±100)",
        ),
        c(
            relevance_col::OWN_PREV_EVAL,
            Float64,
            true,
            "the engine's previous own eval",
        ),
        c(
            relevance_col::OPP_PREV_EVAL,
            Float64,
            true,
            "the opponent's eval on the ply just before, own POV",
        ),
        c(
            relevance_col::SWING_RAW,
            Float64,
            true,
            "own eval − own previous eval",
        ),
        c(
            relevance_col::SWING_RR,
            Float64,
            true,
            "the same, relevance-reduced (rr)",
        ),
        c(
            relevance_col::DISAGREEMENT_RAW,
            Float64,
            true,
            "own eval − the opponent's preceding eval",
        ),
        c(
            relevance_col::DISAGREEMENT_RR,
            Float64,
            true,
            "the same, relevance-reduced",
        ),
        c(
            relevance_col::REF_SWING_RR,
            Float64,
            true,
            "with `--analysis`: the reference's swing (MultiPV ≥ 2), relevance-reduced: rr(second, best) when the move is its first choice, else rr(best, played); the summary's move symbols then come from it",
        ),
        c(
            relevance_col::P_RESULT,
            Float64,
            false,
            "P(own eval), the probabilistic result",
        ),
        c(
            "pos_nine_wdb",
            Utf8,
            false,
            "position symbol, nine-wdb scheme",
        ),
        c(
            "pos_nine_equal",
            Utf8,
            false,
            "position symbol, nine-equal scheme",
        ),
        c(
            "pos_seven_equal",
            Utf8,
            false,
            "position symbol, seven-equal scheme",
        ),
        c(col::TIME_MS, Int64, true, "time spent on the move, ms"),
    ],
};

/// Derived: the map step of `balance` and `calibrate`, one row per game and
/// side (`evallab facts`, one file per part).
pub const GAME_FACTS: Table = Table {
    name: "game_facts",
    doc: "derived (FACTS_DIR/part-NNNNNN.game_facts.parquet, by `evallab facts`): per game and side, what balance and calibrate need; with part-NNNNNN.eas_labels.parquet (eas_labels without `duplicate`, which the reduce adds)",
    columns: &[
        c(col::GAME_ID, Int64, false, "games.game_id"),
        c(col::EVENT, Utf8, true, "Event tag"),
        c(col::ROUND, Utf8, true, "Round tag"),
        c(
            metric::ENGINE,
            Utf8,
            true,
            "the side's player, as in the tag (families are merged by the reduce)",
        ),
        c(metric::OPPONENT, Utf8, true, "the other player"),
        c(col::SIDE, Utf8, false, "`w` or `b`"),
        c(
            metric::SCORE,
            Float64,
            true,
            "1, 0.5 or 0 for the side; null for `*`",
        ),
        c(
            metric::MAX_OWN_CP,
            Int64,
            true,
            "the side's highest own eval (own-eval scale: cp, mates ±(1000000 − n))",
        ),
        c(metric::LAST_OWN_CP, Int64, true, "the side's last own eval"),
        c(
            metric::OWN_EVALS,
            ListInt32,
            true,
            "the side's own evals without mates, cp, in ply order",
        ),
    ],
};

/// Tables computed from a dataset's parts and stored in `DATASET/derived/`
/// (or, for the facts, where `evallab facts` writes them).
pub const DERIVED_TABLES: [&Table; 4] = [&EAS_LABELS, &RELEVANCE_MOVES, &GAME_FACTS, &OPENINGS];

/// Where a derived table is stored, relative to the dataset folder.
pub fn derived_file(t: &Table) -> String {
    format!("derived/{}.parquet", t.name)
}
