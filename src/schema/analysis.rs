//! The tables the engine stages write (`evallab analyze`, `match`, `policy`),
//! in parts listed under the manifest's `analyses`, with the column names
//! that only they use. Apart from the ingest tables: each is one engine run's
//! output over positions of the base tables.

use std::sync::Arc;

use super::base::col;
use super::types::ColType::*;
use super::types::{Table, base_table, builder_of, c, same_name};

base_table! {
    /// One row per engine output line kept by `evallab analyze`.
    ANALYSIS, AnalysisBuilder, "analysis",
    "engine re-analysis (`evallab analyze`): one row per kept info line of the position before `ply`",
    {
        game_id => (col::GAME_ID, Int64, false, "games.game_id"),
        ply => (col::PLY, UInt32, false, "the position analysed is the one before this ply: its move is the `moves` row at this ply"),
        label => (col::LABEL, Utf8, false, "the analysis run's label (manifest `analyses`: engine, options, limit)"),
        depth => (col::DEPTH, UInt16, false, "search depth of the line"),
        seldepth => (col::SELDEPTH, UInt16, true, "selective depth"),
        multipv => (col::MULTIPV, UInt8, false, "MultiPV rank, 1 = best"),
        r#move => (col::MOVE, Utf8, false, "the line's first move (UCI)"),
        score_cp => (col::SCORE_CP, Int32, true, "score in centipawns, side-to-move POV as UCI reports it (null for mates)"),
        score_mate => (col::SCORE_MATE, Int16, true, "moves to mate, side-to-move POV (positive: the side to move mates)"),
        white_cp => (col::WHITE_CP, Int32, true, "score_cp from White's POV"),
        white_mate => (col::WHITE_MATE, Int16, true, "score_mate from White's POV"),
        bound => (col::BOUND, Utf8, false, "exact, lower or upper (a bound line is kept but never an exact score)"),
        wdl_win => (col::WDL_WIN, UInt16, true, "WDL win, per mille, side to move (when reported)"),
        wdl_draw => (col::WDL_DRAW, UInt16, true, "WDL draw, per mille"),
        wdl_loss => (col::WDL_LOSS, UInt16, true, "WDL loss, per mille, side to move"),
        nodes => (col::NODES, Int64, true, "nodes searched"),
        nps => (col::NPS, Int64, true, "nodes per second"),
        time_ms => (col::TIME_MS, Int64, true, "search time, ms"),
        tb_hits => (col::TB_HITS, Int64, true, "tablebase hits"),
        pv => (col::PV, Utf8, false, "principal variation, UCI moves separated by spaces"),
        is_final => (col::IS_FINAL, Bool, false, "the line is this multipv rank's last one of the search (the result); false: an earlier depth kept by --all-depths"),
    }
}

base_table! {
    /// One row per position `evallab analyze` could not analyse.
    ANALYSIS_FAILURES, FailuresBuilder, "analysis_failures",
    "positions the engine failed on after a restart and a retry of the game, with the reason",
    {
        game_id => (col::GAME_ID, Int64, false, "games.game_id"),
        ply => (col::PLY, UInt32, false, "the position before this ply"),
        label => (col::LABEL, Utf8, false, "the analysis run's label"),
        fen => (col::FEN, Utf8, false, "FEN of the position"),
        attempt => (col::ATTEMPT, UInt8, false, "the try that failed: 2 = the game's retry (1 = the first try, 0 = never tried)"),
        reason => (col::REASON, Utf8, false, "what the engine did: crash, timeout, malformed or illegal output (names the line)"),
    }
}

/// Column names of the `policy` table (`evallab policy`).
pub mod policy_col {
    pub const PRIOR: &str = "prior";
    pub const VISITS: &str = "visits";
    pub const Q: &str = "q";
    pub const WL: &str = "wl";
    pub const D: &str = "d";
    pub const M: &str = "m";
    pub const V: &str = "v";
}

base_table! {
    /// One row per legal move of each position a policy net priced.
    POLICY, PolicyBuilder, "policy",
    "policy priors (`evallab policy`, lc0 `VerboseMoveStats`): one row per legal move of the position before `ply`",
    {
        game_id => (col::GAME_ID, Int64, false, "games.game_id"),
        ply => (col::PLY, UInt32, false, "the position is the one before this ply"),
        label => (col::LABEL, Utf8, false, "the policy run's label (manifest `analyses`: engine, weights file and its sha256)"),
        r#move => (col::MOVE, Utf8, false, "a legal move, UCI"),
        prior => (policy_col::PRIOR, Float64, false, "the policy head's prior, a fraction (lc0 prints percent)"),
        visits => (policy_col::VISITS, UInt32, true, "visits of the move (0 with `go nodes 1`)"),
        q => (policy_col::Q, Float64, true, "Q as lc0 prints it, side to move (the parent's at 0 visits)"),
        wl => (policy_col::WL, Float64, true, "W − L of the move's node (null until visited)"),
        d => (policy_col::D, Float64, true, "draw probability of the move's node (null until visited)"),
        m => (policy_col::M, Float64, true, "moves left (null until visited)"),
        v => (policy_col::V, Float64, true, "the value head's eval of the move's node (null until visited)"),
    }
}

/// Column names of the `match` table (`evallab match`), one row per tested move.
pub mod match_col {
    pub const PLAYER: &str = "player";
    pub const PLAYED: &str = "played";
    pub const BITS: &str = "bits";
    pub const MATCH_TYPE: &str = "match_type";
    pub const VALUE_NAME: &str = "value_name";
    pub const VALUE: &str = "value";
    pub const TOP_AT_D: &str = "top_at_d";
    pub const EQUAL_VALUE: &str = "equal_value";
    pub const PLAYED_CP: &str = "played_cp";
    pub const TOP_CP: &str = "top_cp";
    pub const ALT_CP: &str = "alt_cp";
    pub const DROP_PAWNS: &str = "drop_pawns";
    pub const SCALED_DROP: &str = "scaled_drop";
    pub const ALL_MATED: &str = "all_mated";
    pub const TOP_MOVE: &str = "top_move";
    pub const SLM_MOVES: &str = "slm_moves";
    pub const MATCH_LINE: &str = "match_line";
    pub const LOG: &str = "log";
}

base_table! {
    /// One row per tested move of `evallab match` (Regan's zig-zag protocol).
    MATCH, MatchBuilder, "match",
    "move matching (`evallab match`): one row per tested move, with its outcome under the zig-zag protocol",
    {
        game_id => (col::GAME_ID, Int64, false, "games.game_id"),
        ply => (col::PLY, UInt32, false, "the tested move is the `moves` row at this ply"),
        label => (col::LABEL, Utf8, false, "the match run's label (manifest `analyses`)"),
        player => (match_col::PLAYER, Utf8, false, "the tested player (the mover's name)"),
        side => (col::SIDE, Utf8, false, "`w` or `b`"),
        move_number => (col::MOVE_NUMBER, UInt32, false, "move number as printed"),
        san => (col::SAN, Utf8, false, "the move played, SAN"),
        played => (match_col::PLAYED, Utf8, false, "the move played, UCI"),
        bits => (match_col::BITS, Utf8, false, "one character per SLM depth dmin..d: 1 = the engine's first choice at that depth is the move played"),
        match_type => (match_col::MATCH_TYPE, Utf8, false, "FULL, MAIN, PART or NON"),
        value_name => (match_col::VALUE_NAME, Utf8, false, "`delta` (FULL, MAIN) or `delta2` (PART, NON)"),
        value => (match_col::VALUE, Float64, true, "the delta in pawns as the log prints it (9.99: every alternative is mated); null = NaN (a repetition, or no valid eval)"),
        top_at_d => (match_col::TOP_AT_D, Bool, false, "the move played is the first choice at the last SLM depth d (counts for MM)"),
        equal_value => (match_col::EQUAL_VALUE, Bool, true, "final MLM: the move played has the top move's eval (EV; null when invalid)"),
        played_cp => (match_col::PLAYED_CP, Int32, true, "final MLM eval of the move played, mover POV, centipawns capped at ±1000 (mate = ±1000)"),
        top_cp => (match_col::TOP_CP, Int32, true, "final MLM eval of the engine's top move, as played_cp"),
        alt_cp => (match_col::ALT_CP, Int32, true, "final MLM eval of the best alternative to the move played, as played_cp (null: none)"),
        drop_pawns => (match_col::DROP_PAWNS, Float64, true, "AE term: (top_cp − played_cp)/100 (null when invalid)"),
        scaled_drop => (match_col::SCALED_DROP, Float64, true, "ASD term: ∫ dz/(1+|z|) from the played eval to the top eval, pawns"),
        all_mated => (match_col::ALL_MATED, Bool, false, "FULL/MAIN and every alternative loses to mate (value 9.99)"),
        repetition => (col::REPETITION, Bool, false, "the move repeats an earlier position of the game (value NaN)"),
        top_move => (match_col::TOP_MOVE, Utf8, true, "the final MLM's first move, UCI"),
        slm_moves => (match_col::SLM_MOVES, Utf8, false, "the SLM first choice at each depth dmin..d, UCI, space separated"),
        match_line => (match_col::MATCH_LINE, Utf8, false, "the outcome line as in the log"),
        log => (match_col::LOG, Utf8, false, "the move's labelled engine output as in the log (MLM, SLM per depth, final MLM)"),
    }
}

/// The tables `evallab analyze`, `match` and `policy` write, in parts listed under the manifest's `analyses`.
pub const ANALYSIS_TABLES: [&Table; 4] = [&ANALYSIS, &ANALYSIS_FAILURES, &MATCH, &POLICY];
