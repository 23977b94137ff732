//! The tables `evallab ingest` writes (games, moves with their evals and
//! material, rejects) and [`col`], the column names of every dataset table.
//! The base of the dataset: everything else is computed from these rows.

use std::sync::Arc;

use super::types::ColType::*;
use super::types::{Table, base_table, builder_of, c, same_name};

/// Column names, shared by the writer, the metrics and the docs.
pub mod col {
    // Shared by several tables.
    pub const GAME_ID: &str = "game_id";
    pub const SOURCE_FILE: &str = "source_file";
    pub const SOURCE_SHA256: &str = "source_sha256";
    pub const GAME_NUMBER: &str = "game_number";
    pub const LINE: &str = "line";
    pub const BYTE_OFFSET: &str = "byte_offset";
    pub const EVENT: &str = "event";
    pub const ROUND: &str = "round";
    pub const WHITE: &str = "white";
    pub const BLACK: &str = "black";

    // games
    pub const SITE: &str = "site";
    pub const DATE: &str = "date";
    pub const RESULT: &str = "result";
    pub const WHITE_ELO: &str = "white_elo";
    pub const BLACK_ELO: &str = "black_elo";
    pub const TIME_CONTROL: &str = "time_control";
    pub const TC_BASE_S: &str = "tc_base_s";
    pub const TC_INCREMENT_S: &str = "tc_increment_s";
    pub const ECO: &str = "eco";
    pub const OPENING: &str = "opening";
    pub const TERMINATION: &str = "termination";
    pub const TERMINATION_DETAILS: &str = "termination_details";
    pub const PLY_COUNT_TAG: &str = "ply_count_tag";
    pub const START_FEN: &str = "start_fen";
    pub const START_KEY: &str = "start_key";
    pub const VARIANT: &str = "variant";
    pub const VARIANT_INFERRED: &str = "variant_inferred";
    pub const ENGINE_OPTIONS: &str = "engine_options";
    pub const PLIES: &str = "plies";
    pub const VARIATIONS_SKIPPED: &str = "variations_skipped";
    pub const DIALECT: &str = "dialect";
    pub const EVALS: &str = "evals";
    pub const UNPARSED_COMMENTS: &str = "unparsed_comments";
    pub const OTHER_TAGS: &str = "other_tags";

    // moves
    pub const PLY: &str = "ply";
    pub const MOVE_NUMBER: &str = "move_number";
    pub const SIDE: &str = "side";
    pub const SAN: &str = "san";
    pub const UCI: &str = "uci";
    pub const POSITION_KEY: &str = "position_key";
    pub const IS_CAPTURE: &str = "is_capture";
    pub const IS_CHECK: &str = "is_check";
    pub const IS_MATE: &str = "is_mate";
    pub const PROMOTION: &str = "promotion";
    pub const IS_BOOK: &str = "is_book";
    pub const EVAL_KIND: &str = "eval_kind";
    pub const EVAL_CP: &str = "eval_cp";
    pub const MATE: &str = "mate";
    pub const EVAL_RAW: &str = "eval_raw";
    pub const DEPTH: &str = "depth";
    pub const SELDEPTH: &str = "seldepth";
    pub const NODES: &str = "nodes";
    pub const NPS: &str = "nps";
    pub const TIME_MS: &str = "time_ms";
    pub const TIME_LEFT_MS: &str = "time_left_ms";
    pub const TB_HITS: &str = "tb_hits";
    pub const HASH_FULL: &str = "hash_full";
    pub const PONDER_HIT: &str = "ponder_hit";
    pub const LATENCY_MS: &str = "latency_ms";
    pub const EXPECTED_REPLY: &str = "expected_reply";
    pub const PV: &str = "pv";
    pub const R50: &str = "r50";
    pub const RD: &str = "rd";
    pub const RR: &str = "rr";
    pub const MB: &str = "mb";
    pub const WDL: &str = "wdl";
    pub const COMMENT_EXTRA: &str = "comment_extra";
    pub const WHITE_PAWNS: &str = "white_pawns";
    pub const WHITE_KNIGHTS: &str = "white_knights";
    pub const WHITE_BISHOPS: &str = "white_bishops";
    pub const WHITE_ROOKS: &str = "white_rooks";
    pub const WHITE_QUEENS: &str = "white_queens";
    pub const BLACK_PAWNS: &str = "black_pawns";
    pub const BLACK_KNIGHTS: &str = "black_knights";
    pub const BLACK_BISHOPS: &str = "black_bishops";
    pub const BLACK_ROOKS: &str = "black_rooks";
    pub const BLACK_QUEENS: &str = "black_queens";
    pub const MATERIAL_BALANCE: &str = "material_balance";
    pub const HALFMOVE_CLOCK: &str = "halfmove_clock";
    pub const REPETITION: &str = "repetition";
    pub const DEAD_MATERIAL: &str = "dead_material";

    // rejects
    pub const PLY_REACHED: &str = "ply_reached";
    pub const REASON: &str = "reason";

    // analysis, analysis_failures
    pub const LABEL: &str = "label";
    pub const MULTIPV: &str = "multipv";
    pub const MOVE: &str = "move";
    pub const SCORE_CP: &str = "score_cp";
    pub const SCORE_MATE: &str = "score_mate";
    pub const WHITE_CP: &str = "white_cp";
    pub const WHITE_MATE: &str = "white_mate";
    pub const BOUND: &str = "bound";
    pub const WDL_WIN: &str = "wdl_win";
    pub const WDL_DRAW: &str = "wdl_draw";
    pub const WDL_LOSS: &str = "wdl_loss";
    pub const IS_FINAL: &str = "is_final";
    pub const FEN: &str = "fen";
    pub const ATTEMPT: &str = "attempt";
}

/// The key columns are i64 holding the u64's bits: [`ColType`] has no
/// unsigned 64-bit type. Readers reinterpret them: polars
/// `col.reinterpret(signed=False)`, numpy `.view(np.uint64)`.
const KEY_DOC_START: &str = "Polyglot Zobrist key of the start position (the u64 of opening books and python-chess's chess.polyglot.zobrist_hash, stored as i64 with the same bits)";
const KEY_DOC_AFTER: &str = "Polyglot Zobrist key of the position after the move (the u64 of opening books and python-chess's chess.polyglot.zobrist_hash, stored as i64 with the same bits): equal keys are the same position, whatever the move order";

base_table! {
    /// One row per game that was ingested.
    GAMES, GamesBuilder, "games",
    "one row per ingested game",
    {
        game_id => (col::GAME_ID, Int64, false, "stable id: hash of the input file's sha256 and the game number (identical whatever --jobs)"),
        source_file => (col::SOURCE_FILE, Utf8, false, "input path as given on the command line (`-` for stdin)"),
        source_sha256 => (col::SOURCE_SHA256, Utf8, false, "sha256 of the input file as stored (compressed bytes)"),
        game_number => (col::GAME_NUMBER, UInt32, false, "1-based position of the game in its input file"),
        byte_offset => (col::BYTE_OFFSET, Int64, false, "offset of the game's first byte in the decompressed input"),
        line => (col::LINE, UInt32, false, "1-based line of the game's first tag in the decompressed input"),
        event => (col::EVENT, Utf8, true, "Event tag"),
        site => (col::SITE, Utf8, true, "Site tag"),
        date => (col::DATE, Date, true, "Date tag (null when unknown, partial or impossible: the text then in other_tags unless all `?`)"),
        round => (col::ROUND, Utf8, true, "Round tag"),
        white => (col::WHITE, Utf8, true, "White tag"),
        black => (col::BLACK, Utf8, true, "Black tag"),
        result => (col::RESULT, Utf8, true, "Result tag: 1-0, 0-1, 1/2-1/2 or *"),
        white_elo => (col::WHITE_ELO, Int32, true, "WhiteElo tag (null when not an i32: the text then in other_tags unless `?` or `-`)"),
        black_elo => (col::BLACK_ELO, Int32, true, "BlackElo tag (as white_elo)"),
        time_control => (col::TIME_CONTROL, Utf8, true, "TimeControl tag as written"),
        tc_base_s => (col::TC_BASE_S, Float64, true, "base time of the first time-control period, seconds"),
        tc_increment_s => (col::TC_INCREMENT_S, Float64, true, "increment of the first period, seconds"),
        eco => (col::ECO, Utf8, true, "ECO tag"),
        opening => (col::OPENING, Utf8, true, "Opening tag"),
        termination => (col::TERMINATION, Utf8, true, "Termination tag"),
        termination_details => (col::TERMINATION_DETAILS, Utf8, true, "TerminationDetails tag (TCEC)"),
        ply_count_tag => (col::PLY_COUNT_TAG, Int32, true, "PlyCount tag (as white_elo)"),
        start_fen => (col::START_FEN, Utf8, true, "FEN tag of a set-up start position (null: standard start)"),
        start_key => (col::START_KEY, Int64, false, KEY_DOC_START),
        variant => (col::VARIANT, Utf8, false, "`standard` or `chess960`"),
        variant_inferred => (col::VARIANT_INFERRED, Bool, false, "true when no Variant tag said chess960 but the start FEN is legal only as Chess960 (castling rooks off the corners)"),
        engine_options => (col::ENGINE_OPTIONS, Utf8, true, "comment before the first move (engine options or hardware)"),
        plies => (col::PLIES, UInt32, false, "plies parsed and validated"),
        variations_skipped => (col::VARIATIONS_SKIPPED, UInt32, false, "variations `( … )` skipped"),
        dialect => (col::DIALECT, Utf8, true, "dominant eval-comment dialect: tcec, cutechess, lichess, chessbase"),
        evals => (col::EVALS, UInt32, false, "moves with a usable eval (cp or mate)"),
        unparsed_comments => (col::UNPARSED_COMMENTS, UInt32, false, "move comments no dialect could read (kept in comment_extra)"),
        other_tags => (col::OTHER_TAGS, Utf8, true, "every other tag, a typed tag (Date, WhiteElo, BlackElo, PlyCount, Variant) its column cannot hold, the earlier values of a tag written twice (`White #1`), the movetext's result where the Result tag says another (`movetext result`) and text after the result (`text after the result`), as a JSON object"),
    }
}

base_table! {
    /// One row per ply of an ingested game.
    MOVES, MovesBuilder, "moves",
    "one row per ply of an ingested game",
    {
        game_id => (col::GAME_ID, Int64, false, "games.game_id"),
        ply => (col::PLY, UInt32, false, "1-based ply index in the game"),
        move_number => (col::MOVE_NUMBER, UInt32, false, "full move number as printed in PGN (continues a FEN's move number)"),
        side => (col::SIDE, Utf8, false, "`w` or `b`: the side that moved"),
        san => (col::SAN, Utf8, false, "move in SAN as reconstructed from the position"),
        uci => (col::UCI, Utf8, false, "move in UCI (Chess960 castling as king-takes-rook)"),
        position_key => (col::POSITION_KEY, Int64, false, KEY_DOC_AFTER),
        is_capture => (col::IS_CAPTURE, Bool, false, "the move captures"),
        is_check => (col::IS_CHECK, Bool, false, "the move gives check"),
        is_mate => (col::IS_MATE, Bool, false, "the move gives mate"),
        promotion => (col::PROMOTION, Utf8, true, "promotion piece letter (q, r, b, n)"),
        is_book => (col::IS_BOOK, Bool, false, "opening-book move (`book` comment)"),
        eval_kind => (col::EVAL_KIND, Utf8, true, "cp, mate, placeholder (d=1 with 0.00: no eval) or absurd (|eval| > 1000 pawns, or a mate beyond ±32767 moves)"),
        eval_cp => (col::EVAL_CP, Int32, true, "eval in centipawns, White POV (null for mates, placeholders, absurd values)"),
        mate => (col::MATE, Int16, true, "signed full moves to mate, White POV (positive: White mates)"),
        eval_raw => (col::EVAL_RAW, Utf8, true, "the eval token as written"),
        depth => (col::DEPTH, Int16, true, "search depth"),
        seldepth => (col::SELDEPTH, Int16, true, "selective depth"),
        nodes => (col::NODES, Int64, true, "nodes searched"),
        nps => (col::NPS, Int64, true, "nodes per second"),
        time_ms => (col::TIME_MS, Int64, true, "time spent on the move, ms (TCEC mt, cutechess time, lichess %emt)"),
        time_left_ms => (col::TIME_LEFT_MS, Int64, true, "clock after the move, ms (TCEC tl, lichess %clk; fastchess tl below zero after an overrun)"),
        tb_hits => (col::TB_HITS, Int64, true, "tablebase hits"),
        hash_full => (col::HASH_FULL, Float32, true, "hash usage, percent"),
        ponder_hit => (col::PONDER_HIT, Float32, true, "ponder hit, percent"),
        latency_ms => (col::LATENCY_MS, Int64, true, "the GUI's delay around the engine's move, ms (fastchess latency: measured minus reported, may be negative)"),
        expected_reply => (col::EXPECTED_REPLY, Utf8, true, "expected reply (TCEC pd)"),
        pv => (col::PV, Utf8, true, "principal variation as written (dropped with --no-pv)"),
        r50 => (col::R50, Int16, true, "TCEC R50: full moves left before the 50-move rule"),
        rd => (col::RD, Int16, true, "TCEC Rd: plies left before draw adjudication"),
        rr => (col::RR, Int16, true, "TCEC Rr: plies left before win adjudication"),
        mb => (col::MB, Utf8, true, "TCEC mb: material after the move, White minus Black, P N B R Q"),
        wdl => (col::WDL, Utf8, true, "TCEC wdl field as written"),
        comment_extra => (col::COMMENT_EXTRA, Utf8, true, "comment text no dialect field took (game-end text, unknown keys, unreadable comments, values their column cannot hold)"),
        white_pawns => (col::WHITE_PAWNS, UInt8, false, "White pawns after the move"),
        white_knights => (col::WHITE_KNIGHTS, UInt8, false, "White knights after the move"),
        white_bishops => (col::WHITE_BISHOPS, UInt8, false, "White bishops after the move"),
        white_rooks => (col::WHITE_ROOKS, UInt8, false, "White rooks after the move"),
        white_queens => (col::WHITE_QUEENS, UInt8, false, "White queens after the move"),
        black_pawns => (col::BLACK_PAWNS, UInt8, false, "Black pawns after the move"),
        black_knights => (col::BLACK_KNIGHTS, UInt8, false, "Black knights after the move"),
        black_bishops => (col::BLACK_BISHOPS, UInt8, false, "Black bishops after the move"),
        black_rooks => (col::BLACK_ROOKS, UInt8, false, "Black rooks after the move"),
        black_queens => (col::BLACK_QUEENS, UInt8, false, "Black queens after the move"),
        material_balance => (col::MATERIAL_BALANCE, Int16, false, "material White minus Black in pawns (1/3/3/5/9)"),
        halfmove_clock => (col::HALFMOVE_CLOCK, UInt32, false, "halfmove clock after the move"),
        repetition => (col::REPETITION, UInt32, false, "how often the position after the move has occurred (1 = first time)"),
        dead_material => (col::DEAD_MATERIAL, Bool, false, "only K v K, KB v K or KN v K left"),
    }
}

base_table! {
    /// One row per game that could not be ingested.
    REJECTS, RejectsBuilder, "rejects",
    "one row per game that could not be ingested, with the reason",
    {
        game_id => (col::GAME_ID, Int64, false, "the id the game would have had"),
        source_file => (col::SOURCE_FILE, Utf8, false, "input path as given"),
        source_sha256 => (col::SOURCE_SHA256, Utf8, false, "sha256 of the input file"),
        game_number => (col::GAME_NUMBER, UInt32, false, "1-based position of the game in its input file"),
        line => (col::LINE, UInt32, false, "1-based line of the problem (the game's first line if unknown)"),
        byte_offset => (col::BYTE_OFFSET, Int64, false, "offset of the game's first byte in the decompressed input"),
        event => (col::EVENT, Utf8, true, "Event tag, if known"),
        round => (col::ROUND, Utf8, true, "Round tag, if known"),
        white => (col::WHITE, Utf8, true, "White tag, if known"),
        black => (col::BLACK, Utf8, true, "Black tag, if known"),
        ply_reached => (col::PLY_REACHED, UInt32, false, "plies validated before the problem"),
        reason => (col::REASON, Utf8, false, "why the game was rejected, e.g. `illegal move 34...Nf3`"),
    }
}

/// The tables `evallab ingest` writes, one part each per run.
pub const TABLES: [&Table; 3] = [&GAMES, &MOVES, &REJECTS];
