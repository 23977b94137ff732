//! The single source of truth for table and column names and types.
//!
//! The Parquet files of a dataset are the contract with Python users and with the
//! metrics (which read them through polars), so every name used anywhere in the
//! crate comes from here. [`SCHEMA_VERSION`] is written into each Parquet file's
//! key-value metadata under [`SCHEMA_VERSION_KEY`]; bump it on any change to a table.

use std::sync::Arc;

use arrow::datatypes::{DataType, Field, Schema, SchemaRef};

/// Version of the table layout written by this build.
pub const SCHEMA_VERSION: &str = "3";
/// What each version changed, for the message to a dataset of an older one
/// (whose tables lack columns, or hold values this build reads otherwise).
pub const SCHEMA_CHANGES: [(&str, &str); 2] = [
    ("2", "games.variant_inferred"),
    (
        "3",
        "moves.latency_ms; fastchess's tl, n, sd, nps, hashfull, tbhits and pv read into their columns; \
         UCI movetext read; tokens that are no move reject their game; the Polyglot position keys \
         moves.position_key and games.start_key",
    ),
];
/// What changed after `version`, "N: what" per later version, oldest first
/// (all of them for a version that is not a number).
pub fn changes_since(version: &str) -> Vec<String> {
    let old: u32 = version.parse().unwrap_or(0);
    SCHEMA_CHANGES
        .iter()
        .filter(|(v, _)| v.parse::<u32>().is_ok_and(|v| v > old))
        .map(|(v, what)| format!("{v}: {what}"))
        .collect()
}

/// Parquet key-value metadata key holding [`SCHEMA_VERSION`].
pub const SCHEMA_VERSION_KEY: &str = "evallab.schema_version";
/// Parquet key-value metadata key holding the crate version that wrote the file.
pub const TOOL_VERSION_KEY: &str = "evallab.tool_version";

/// Column type of a table column (a small subset of Arrow's types).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColType {
    Bool,
    UInt8,
    UInt16,
    UInt32,
    Int16,
    Int32,
    Int64,
    Float32,
    Float64,
    Utf8,
    /// Days since 1970-01-01.
    Date,
    /// A list of i32 (derived tables only).
    ListInt32,
}

impl ColType {
    fn arrow(self) -> DataType {
        match self {
            ColType::Bool => DataType::Boolean,
            ColType::UInt8 => DataType::UInt8,
            ColType::UInt16 => DataType::UInt16,
            ColType::UInt32 => DataType::UInt32,
            ColType::Int16 => DataType::Int16,
            ColType::Int32 => DataType::Int32,
            ColType::Int64 => DataType::Int64,
            ColType::Float32 => DataType::Float32,
            ColType::Float64 => DataType::Float64,
            ColType::Utf8 => DataType::Utf8,
            ColType::Date => DataType::Date32,
            ColType::ListInt32 => {
                DataType::List(Arc::new(Field::new("item", DataType::Int32, true)))
            }
        }
    }

    /// Short type name as printed by `evallab schema`.
    pub fn name(self) -> &'static str {
        match self {
            ColType::Bool => "bool",
            ColType::UInt8 => "u8",
            ColType::UInt16 => "u16",
            ColType::UInt32 => "u32",
            ColType::Int16 => "i16",
            ColType::Int32 => "i32",
            ColType::Int64 => "i64",
            ColType::Float32 => "f32",
            ColType::Float64 => "f64",
            ColType::Utf8 => "str",
            ColType::Date => "date",
            ColType::ListInt32 => "list<i32>",
        }
    }
}

/// One column of a table.
#[derive(Debug, Clone, Copy)]
pub struct Column {
    pub name: &'static str,
    pub ty: ColType,
    pub nullable: bool,
    pub doc: &'static str,
}

const fn c(name: &'static str, ty: ColType, nullable: bool, doc: &'static str) -> Column {
    Column {
        name,
        ty,
        nullable,
        doc,
    }
}

/// A table of a dataset: its name (also its folder in the dataset) and columns.
#[derive(Debug, Clone, Copy)]
pub struct Table {
    pub name: &'static str,
    pub doc: &'static str,
    pub columns: &'static [Column],
}

impl Table {
    /// The Arrow schema of the table, with the schema version in its metadata.
    pub fn arrow_schema(&self) -> SchemaRef {
        let fields: Vec<Field> = self
            .columns
            .iter()
            .map(|col| Field::new(col.name, col.ty.arrow(), col.nullable))
            .collect();
        let meta = [(SCHEMA_VERSION_KEY.to_string(), SCHEMA_VERSION.to_string())];
        let meta: std::collections::HashMap<String, String> = meta.into_iter().collect();
        Arc::new(Schema::new_with_metadata(fields, meta))
    }

    /// Looks up a column by name.
    pub fn column(&self, name: &str) -> Option<&'static Column> {
        self.columns.iter().find(|col| col.name == name)
    }
}

/// The Arrow builder type of a [`ColType`].
macro_rules! builder_of {
    (Bool) => {
        arrow::array::BooleanBuilder
    };
    (UInt8) => {
        arrow::array::UInt8Builder
    };
    (UInt16) => {
        arrow::array::UInt16Builder
    };
    (UInt32) => {
        arrow::array::UInt32Builder
    };
    (Int16) => {
        arrow::array::Int16Builder
    };
    (Int32) => {
        arrow::array::Int32Builder
    };
    (Int64) => {
        arrow::array::Int64Builder
    };
    (Float32) => {
        arrow::array::Float32Builder
    };
    (Float64) => {
        arrow::array::Float64Builder
    };
    (Utf8) => {
        arrow::array::StringBuilder
    };
    (Date) => {
        arrow::array::Date32Builder
    };
}

/// Declares a table that evallab writes row by row, each column once: the
/// [`Table`] constant (its Arrow schema and `evallab schema` text) and a builder
/// struct with one Arrow builder per column, in schema order, whose `finish`
/// makes the record batch. An entry is `field => (name, type, nullable, doc)`;
/// a compile-time check keeps each builder field named as its column.
macro_rules! base_table {
    (
        $(#[$meta:meta])*
        $table:ident, $builder:ident, $name:literal, $doc:literal,
        { $( $field:ident => ($cname:expr, $ty:ident, $nullable:expr, $cdoc:expr) ),* $(,)? }
    ) => {
        $(#[$meta])*
        pub const $table: Table = Table {
            name: $name,
            doc: $doc,
            columns: &[ $( c($cname, $ty, $nullable, $cdoc) ),* ],
        };

        #[doc = concat!("Arrow builders of [`", stringify!($table), "`], one per column, in schema order.")]
        #[derive(Default)]
        pub struct $builder {
            $( pub $field: builder_of!($ty), )*
        }

        impl $builder {
            /// The rows appended so far, as a record batch; the builders are reset.
            pub fn finish(&mut self) -> arrow::record_batch::RecordBatch {
                let columns: Vec<arrow::array::ArrayRef> =
                    vec![ $( Arc::new(self.$field.finish()) ),* ];
                arrow::record_batch::RecordBatch::try_new($table.arrow_schema(), columns)
                    .expect("builders are generated from the schema")
            }

            /// Rows appended so far.
            pub fn rows(&self) -> usize {
                [ $( arrow::array::ArrayBuilder::len(&self.$field) ),* ][0]
            }
        }

        $(
            const _: () = assert!(
                same_name(stringify!($field), $cname),
                concat!(stringify!($table), ": builder field `", stringify!($field), "` is not named as its column"),
            );
        )*
    };
}

/// `field == column`, ignoring a raw identifier's `r#` (const: checked at compile time).
const fn same_name(field: &str, column: &str) -> bool {
    let (f, c) = (field.as_bytes(), column.as_bytes());
    let skip = if f.len() > 2 && f[0] == b'r' && f[1] == b'#' {
        2
    } else {
        0
    };
    if f.len() - skip != c.len() {
        return false;
    }
    let mut i = 0;
    while i < c.len() {
        if f[i + skip] != c[i] {
            return false;
        }
        i += 1;
    }
    true
}

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

use ColType::*;

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
        date => (col::DATE, Date, true, "Date tag (null when unknown or partial)"),
        round => (col::ROUND, Utf8, true, "Round tag"),
        white => (col::WHITE, Utf8, true, "White tag"),
        black => (col::BLACK, Utf8, true, "Black tag"),
        result => (col::RESULT, Utf8, true, "Result tag: 1-0, 0-1, 1/2-1/2 or *"),
        white_elo => (col::WHITE_ELO, Int32, true, "WhiteElo tag"),
        black_elo => (col::BLACK_ELO, Int32, true, "BlackElo tag"),
        time_control => (col::TIME_CONTROL, Utf8, true, "TimeControl tag as written"),
        tc_base_s => (col::TC_BASE_S, Float64, true, "base time of the first time-control period, seconds"),
        tc_increment_s => (col::TC_INCREMENT_S, Float64, true, "increment of the first period, seconds"),
        eco => (col::ECO, Utf8, true, "ECO tag"),
        opening => (col::OPENING, Utf8, true, "Opening tag"),
        termination => (col::TERMINATION, Utf8, true, "Termination tag"),
        termination_details => (col::TERMINATION_DETAILS, Utf8, true, "TerminationDetails tag (TCEC)"),
        ply_count_tag => (col::PLY_COUNT_TAG, Int32, true, "PlyCount tag"),
        start_fen => (col::START_FEN, Utf8, true, "FEN tag of a set-up start position (null: standard start)"),
        start_key => (col::START_KEY, Int64, false, KEY_DOC_START),
        variant => (col::VARIANT, Utf8, false, "`standard` or `chess960`"),
        variant_inferred => (col::VARIANT_INFERRED, Bool, false, "true when no Variant tag said chess960 but the start FEN is legal only as Chess960 (castling rooks off the corners)"),
        engine_options => (col::ENGINE_OPTIONS, Utf8, true, "comment before the first move (engine options or hardware)"),
        plies => (col::PLIES, UInt16, false, "plies parsed and validated"),
        variations_skipped => (col::VARIATIONS_SKIPPED, UInt16, false, "variations `( … )` skipped"),
        dialect => (col::DIALECT, Utf8, true, "dominant eval-comment dialect: tcec, cutechess, lichess, chessbase"),
        evals => (col::EVALS, UInt16, false, "moves with a usable eval (cp or mate)"),
        unparsed_comments => (col::UNPARSED_COMMENTS, UInt16, false, "move comments no dialect could read (kept in comment_extra)"),
        other_tags => (col::OTHER_TAGS, Utf8, true, "every other tag, as a JSON object"),
    }
}

base_table! {
    /// One row per ply of an ingested game.
    MOVES, MovesBuilder, "moves",
    "one row per ply of an ingested game",
    {
        game_id => (col::GAME_ID, Int64, false, "games.game_id"),
        ply => (col::PLY, UInt16, false, "1-based ply index in the game"),
        move_number => (col::MOVE_NUMBER, UInt16, false, "full move number as printed in PGN (continues a FEN's move number)"),
        side => (col::SIDE, Utf8, false, "`w` or `b`: the side that moved"),
        san => (col::SAN, Utf8, false, "move in SAN as reconstructed from the position"),
        uci => (col::UCI, Utf8, false, "move in UCI (Chess960 castling as king-takes-rook)"),
        position_key => (col::POSITION_KEY, Int64, false, KEY_DOC_AFTER),
        is_capture => (col::IS_CAPTURE, Bool, false, "the move captures"),
        is_check => (col::IS_CHECK, Bool, false, "the move gives check"),
        is_mate => (col::IS_MATE, Bool, false, "the move gives mate"),
        promotion => (col::PROMOTION, Utf8, true, "promotion piece letter (q, r, b, n)"),
        is_book => (col::IS_BOOK, Bool, false, "opening-book move (`book` comment)"),
        eval_kind => (col::EVAL_KIND, Utf8, true, "cp, mate, placeholder (d=1 with 0.00: no eval) or absurd (|eval| > 1000 pawns)"),
        eval_cp => (col::EVAL_CP, Int32, true, "eval in centipawns, White POV (null for mates, placeholders, absurd values)"),
        mate => (col::MATE, Int16, true, "signed full moves to mate, White POV (positive: White mates)"),
        eval_raw => (col::EVAL_RAW, Utf8, true, "the eval token as written"),
        depth => (col::DEPTH, Int16, true, "search depth"),
        seldepth => (col::SELDEPTH, Int16, true, "selective depth"),
        nodes => (col::NODES, Int64, true, "nodes searched"),
        nps => (col::NPS, Int64, true, "nodes per second"),
        time_ms => (col::TIME_MS, Int64, true, "time spent on the move, ms (TCEC mt, cutechess time, lichess %emt)"),
        time_left_ms => (col::TIME_LEFT_MS, Int64, true, "clock after the move, ms (TCEC tl, lichess %clk)"),
        tb_hits => (col::TB_HITS, Int64, true, "tablebase hits"),
        hash_full => (col::HASH_FULL, Float32, true, "hash usage, percent"),
        ponder_hit => (col::PONDER_HIT, Float32, true, "ponder hit, percent"),
        latency_ms => (col::LATENCY_MS, Int64, true, "the GUI's delay around the engine's move, ms (fastchess latency)"),
        expected_reply => (col::EXPECTED_REPLY, Utf8, true, "expected reply (TCEC pd)"),
        pv => (col::PV, Utf8, true, "principal variation as written (dropped with --no-pv)"),
        r50 => (col::R50, Int16, true, "TCEC R50: full moves left before the 50-move rule"),
        rd => (col::RD, Int16, true, "TCEC Rd: plies left before draw adjudication"),
        rr => (col::RR, Int16, true, "TCEC Rr: plies left before win adjudication"),
        mb => (col::MB, Utf8, true, "TCEC mb: material after the move, White minus Black, P N B R Q"),
        wdl => (col::WDL, Utf8, true, "TCEC wdl field as written"),
        comment_extra => (col::COMMENT_EXTRA, Utf8, true, "comment text no dialect field took (game-end text, unknown keys, unreadable comments)"),
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
        halfmove_clock => (col::HALFMOVE_CLOCK, UInt16, false, "halfmove clock after the move"),
        repetition => (col::REPETITION, UInt8, false, "how often the position after the move has occurred (1 = first time)"),
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
        ply_reached => (col::PLY_REACHED, UInt16, false, "plies validated before the problem"),
        reason => (col::REASON, Utf8, false, "why the game was rejected, e.g. `illegal move 34...Nf3`"),
    }
}

base_table! {
    /// One row per engine output line kept by `evallab analyze`.
    ANALYSIS, AnalysisBuilder, "analysis",
    "engine re-analysis (`evallab analyze`): one row per kept info line of the position before `ply`",
    {
        game_id => (col::GAME_ID, Int64, false, "games.game_id"),
        ply => (col::PLY, UInt16, false, "the position analysed is the one before this ply: its move is the `moves` row at this ply"),
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
        ply => (col::PLY, UInt16, false, "the position before this ply"),
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
        ply => (col::PLY, UInt16, false, "the position is the one before this ply"),
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
        ply => (col::PLY, UInt16, false, "the tested move is the `moves` row at this ply"),
        label => (col::LABEL, Utf8, false, "the match run's label (manifest `analyses`)"),
        player => (match_col::PLAYER, Utf8, false, "the tested player (the mover's name)"),
        side => (col::SIDE, Utf8, false, "`w` or `b`"),
        move_number => (col::MOVE_NUMBER, UInt16, false, "move number as printed"),
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
    doc: "derived (DATASET/derived/openings.parquet, by `evallab openings --table DIR`): each game's opening, the deepest line of the given table (Lichess chess-openings TSV) whose final position the game reaches, in any move order (by position key)",
    columns: &[
        c(col::GAME_ID, Int64, false, "games.game_id"),
        c(
            col::ECO,
            Utf8,
            true,
            "ECO code of that line (null: the game reaches no line's position)",
        ),
        c(col::OPENING, Utf8, true, "name of that line"),
        c(
            opening_col::OPENING_PLY,
            UInt16,
            true,
            "the ply after which the game first stands in the line's final position (0: its start position)",
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
            "why the game has no line (Chess960, no moves, a set-up start, none reached); null when it has one",
        ),
    ],
};

/// Derived: relevance per engine move (`evallab relevance`, stored by default).
pub const RELEVANCE_MOVES: Table = Table {
    name: "relevance_moves",
    doc: "derived (DATASET/derived/relevance_moves.parquet, by `evallab relevance`): one row per engine move with an own eval",
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
        c(col::PLY, UInt16, false, "ply of the move"),
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

/// What each command computes from the same inputs, versioned: bump a
/// command's number when a change alters its output, so that `run` recomputes
/// the step after an upgrade even if the evallab version stayed the same.
pub const ALGORITHM_VERSIONS: [(&str, u32); 28] = [
    ("ingest", 1),
    ("commit", 1),
    ("facts", 1),
    // 2: the tcec preset's eras derived from the clocks (S18 bonus, early S22).
    // 3: the fork's 2022 draw rule (piece/pawn limits, no reset), castling-right
    //    rook moves reset, silent moves break the window, eras by round.
    ("adjudicate", 3),
    ("analyze", 1),
    ("match", 1),
    ("policy", 1),
    // 2: a move repeated in a later MultiPV slot counts once.
    ("ease", 2),
    ("difficulty", 1),
    ("agreement", 1),
    ("balance", 1),
    ("standings", 1),
    ("crosstable", 1),
    // 2: the summary's note (a draw rate at its 100 % bound).
    // 3: the summary's solver (`--solver ordo`, Ordo's own search).
    ("ratings", 3),
    ("opening-stats", 1),
    ("pairs", 1),
    ("engine-stats", 1),
    // 2: the bootstrap draws games in game-id order (whatever the parts).
    // 3: reasons instead of unidentified values, the pooled estimate, the
    //    TOML's [x05] = pooled (issue 27).
    // 4: the x05 file's header points at the book, not the README.
    ("calibrate", 4),
    ("wdl", 1),
    // 3: values that are not positive skipped, sums per chunk of games.
    // 4: loss totals summed exactly (nano-pawns), the same in every run.
    ("relevance", 4),
    ("eas", 2),
    // 4: the relevance section's sums as relevance 4.
    // 5: the ratings' note; expected puzzle ratings under the ease curve.
    // 6: the ratings summaries show the solver (`report --solver`).
    ("report", 6),
    ("annotate", 1),
    ("openings", 1),
    ("calc", 1),
    ("schema", 1),
    ("inspect", 1),
    ("run", 1),
];

pub fn algorithm_version(command: &str) -> u32 {
    ALGORITHM_VERSIONS
        .iter()
        .find(|(c, _)| *c == command)
        .map_or(0, |(_, v)| *v)
}

/// Tables computed from a dataset's parts and stored in `DATASET/derived/`
/// (or, for the facts, where `evallab facts` writes them).
pub const DERIVED_TABLES: [&Table; 4] = [&EAS_LABELS, &RELEVANCE_MOVES, &GAME_FACTS, &OPENINGS];

/// Where a derived table is stored, relative to the dataset folder.
pub fn derived_file(t: &Table) -> String {
    format!("derived/{}.parquet", t.name)
}

/// The tables `evallab ingest` writes, one part each per run.
pub const TABLES: [&Table; 3] = [&GAMES, &MOVES, &REJECTS];

/// The tables `evallab analyze`, `match` and `policy` write, in parts listed under the manifest's `analyses`.
pub const ANALYSIS_TABLES: [&Table; 4] = [&ANALYSIS, &ANALYSIS_FAILURES, &MATCH, &POLICY];

/// Every table of a dataset, in the order they are documented.
pub const ALL_TABLES: [&Table; 7] = [
    &GAMES,
    &MOVES,
    &REJECTS,
    &ANALYSIS,
    &ANALYSIS_FAILURES,
    &MATCH,
    &POLICY,
];

/// Looks up a table (of the dataset, or derived) by name.
pub fn table(name: &str) -> Option<&'static Table> {
    ALL_TABLES
        .into_iter()
        .chain(DERIVED_TABLES)
        .find(|t| t.name == name)
}

/// Column names of derived tables (metric outputs), shared by the library, the
/// CLI output and the notebooks.
pub mod metric {
    pub const ENGINE: &str = "engine";
    pub const OPPONENT: &str = "opponent";
    pub const SEASON: &str = "season";
    pub const SCORE: &str = "score";
    pub const OWN_CP: &str = "own_cp";
    pub const MAX_OWN_CP: &str = "max_own_cp";
    pub const LAST_OWN_CP: &str = "last_own_cp";
    pub const OWN_EVALS: &str = "own_evals";
    pub const HOLLOW: &str = "hollow";
    pub const WON: &str = "won";
    pub const GAMES: &str = "games";
    pub const OFFICIAL_WINS: &str = "official_wins";
    pub const HOLLOW_WINS: &str = "hollow_wins";
    pub const WINS: &str = "wins";
    pub const DRAWS: &str = "draws";
    pub const LOSSES: &str = "losses";
    pub const NON_WON_WITH_EVAL: &str = "non_won_with_eval";
    pub const HIGHEST_EVAL_WITHOUT_WIN: &str = "highest_eval_without_win";
    pub const HIGHEST_GAME_ID: &str = "highest_game_id";
    pub const HIGHEST_ROUND: &str = "highest_round";
    pub const BALANCE: &str = "balance";
    pub const BALANCE_GAME_ID: &str = "balance_game_id";
    pub const BALANCE_ROUND: &str = "balance_round";
    pub const REACHING_BALANCE: &str = "non_won_reaching_balance";
    pub const REASON: &str = "reason";
    pub const RANK: &str = "rank";
    // agreement
    pub const REF_MOVE: &str = "ref_move";
    pub const TOP1: &str = "top1";
    pub const ARCHIVED_PAWNS: &str = "archived_pawns";
    pub const REF_PAWNS: &str = "ref_pawns";
    pub const BEST_CP: &str = "best_cp";
    pub const SECOND_CP: &str = "second_cp";
    pub const PLAYED_CP: &str = "played_cp";
    pub const LOSS_CP: &str = "loss_cp";
    pub const ACCURACY: &str = "accuracy";
    pub const POSITIONS: &str = "positions";
    pub const TOP1_SHARE: &str = "top1_share";
    pub const EVAL_PAIRS: &str = "eval_pairs";
    pub const MEAN_ABS_DIFF_PAWNS: &str = "mean_abs_diff_pawns";
    pub const EVAL_CORR: &str = "eval_corr";
    pub const LOSS_MOVES: &str = "loss_moves";
    pub const MEAN_LOSS_CP: &str = "mean_loss_cp";
    pub const MEAN_ACCURACY: &str = "mean_accuracy";
    /// `evallab pairs` outputs (per pair, per engine pair, openings list).
    pub mod pairs {
        pub const FIRST_GAME_ID: &str = "first_game_id";
        pub const SECOND_GAME_ID: &str = "second_game_id";
        pub const FIRST_ROUND: &str = "first_round";
        pub const SECOND_ROUND: &str = "second_round";
        pub const FIRST_RESULT: &str = "first_result";
        pub const SECOND_RESULT: &str = "second_result";
        pub const OPENING_KEY: &str = "opening_key";
        pub const OPENING_MOVES: &str = "opening_moves";
        pub const PAIR_POINTS: &str = "pair_points";
        pub const PAIR_SCORE: &str = "pair_score";
        pub const KIND: &str = "kind";
        pub const WINNER: &str = "winner";
        pub const PAIRS: &str = "pairs";
        pub const UNPAIRED: &str = "unpaired";
        /// The pentanomial bins, pair points 0, ½, 1, 1½, 2.
        pub const BINS: [&str; 5] = ["ll", "ld", "dd_wl", "wd", "ww"];
        pub const BUSTED: &str = "busted";
        pub const SCORE_SE: &str = "score_se";
        pub const SCORE_SE_TRINOMIAL: &str = "score_se_trinomial";
        pub const SE_RATIO: &str = "se_ratio";
        pub const ELO: &str = "elo";
        pub const ELO_LO: &str = "elo_lo";
        pub const ELO_HI: &str = "elo_hi";
        pub const ELO_ERROR: &str = "elo_error";
        pub const ELO_ERROR_TRINOMIAL: &str = "elo_error_trinomial";
        pub const NELO: &str = "nelo";
        pub const NELO_ERROR: &str = "nelo_error";
        pub const LLR: &str = "llr";
        pub const LLR_LOWER: &str = "llr_lower";
        pub const LLR_UPPER: &str = "llr_upper";
        pub const SPRT: &str = "sprt";
    }
    /// `evallab engine-stats` outputs.
    pub mod engine_stats {
        pub const MOVES: &str = "moves";
        pub const PHASE: &str = "phase";
        /// A band of move numbers: from_move ..= to_move.
        pub const FROM_MOVE: &str = "from_move";
        pub const TO_MOVE: &str = "to_move";
        /// The per-move fields: output prefix and moves column (time in s).
        pub const FIELDS: [(&str, &str); 8] = [
            ("depth", super::super::col::DEPTH),
            ("seldepth", super::super::col::SELDEPTH),
            ("nodes", super::super::col::NODES),
            ("nps", super::super::col::NPS),
            ("time_s", super::super::col::TIME_MS),
            ("tb_hits", super::super::col::TB_HITS),
            ("hash_full", super::super::col::HASH_FULL),
            ("ponder_hit", super::super::col::PONDER_HIT),
        ];
        pub const CLOCK_MOVES: &str = "clock_moves";
        pub const CLOCK_SHARE_MEAN: &str = "clock_share_mean";
        pub const CLOCK_SHARE_MEDIAN: &str = "clock_share_median";
        pub const TIME_MEDIAN_S: &str = "time_median_s";
        pub const TIME_LEFT_MEDIAN_S: &str = "time_left_median_s";
    }
    /// `evallab standings`, `crosstable` and `opening-stats` outputs.
    pub mod standings {
        pub const POINTS: &str = "points";
        pub const SCORE_PCT: &str = "score_pct";
        pub const WHITE_GAMES: &str = "white_games";
        pub const WHITE_POINTS: &str = "white_points";
        pub const BLACK_GAMES: &str = "black_games";
        pub const BLACK_POINTS: &str = "black_points";
        pub const SONNEBORN_BERGER: &str = "sonneborn_berger";
        /// Prefix of the per-termination-class counts (`end_mate`, …).
        pub const END_PREFIX: &str = "end_";
        pub const WHITE_WINS: &str = "white_wins";
        pub const WHITE_DRAWS: &str = "white_draws";
        pub const WHITE_LOSSES: &str = "white_losses";
        pub const BLACK_WINS: &str = "black_wins";
        pub const BLACK_DRAWS: &str = "black_draws";
        pub const BLACK_LOSSES: &str = "black_losses";
        pub const WHITE_SCORE_PCT: &str = "white_score_pct";
        pub const WHITE_SCORE_LOW: &str = "white_score_low";
        pub const WHITE_SCORE_HIGH: &str = "white_score_high";
        pub const SCORE_LOW: &str = "score_low";
        pub const SCORE_HIGH: &str = "score_high";
        pub const DRAW_PCT: &str = "draw_pct";
        pub const TERMINATION_CLASS: &str = "termination_class";
        /// A share of the games in percent (`standings --terminations`).
        pub const PCT: &str = "pct";
        pub const DRAW_LOW: &str = "draw_low";
        pub const DRAW_HIGH: &str = "draw_high";
        pub const DECISIVE_PCT: &str = "decisive_pct";
    }
    /// `evallab adjudicate` outputs (per game, per group, clocks).
    pub mod adjudication {
        pub const RULES: &str = "rules";
        pub const ERA: &str = "era";
        pub const FIRE_PLY: &str = "fire_ply";
        pub const RULE_RESULT: &str = "rule_result";
        pub const CLAUSE: &str = "clause";
        pub const VERDICT: &str = "verdict";
        pub const PLIES_SAVED: &str = "plies_saved";
        pub const TIME_SAVED_MS: &str = "time_saved_ms";
        pub const FIRED: &str = "fired";
        pub const AGREE: &str = "agree";
        pub const WRONG: &str = "wrong";
        pub const CENSORED: &str = "censored";
        pub const WRONG_DECISIVE: &str = "wrong_decisive";
        pub const WRONG_DRAW: &str = "wrong_draw";
        pub const FIRED_DECISIVE: &str = "fired_decisive";
        pub const FIRED_DRAW: &str = "fired_draw";
        pub const RESIGNED: &str = "resigned";
        pub const SAVED_PCT: &str = "saved_pct";
        pub const HOURS_SAVED: &str = "hours_saved";
        pub const RD_REPLAY: &str = "rd_replay";
        pub const RR_REPLAY: &str = "rr_replay";
    }
    /// `evallab ratings` outputs (ratings, summary, groups, LOS matrix).
    pub mod ratings {
        pub const RATING: &str = "rating";
        pub const ERROR: &str = "error";
        pub const POINTS: &str = "points";
        pub const PLAYED: &str = "played";
        pub const SCORE_PCT: &str = "score_pct";
        pub const CFS_NEXT: &str = "cfs_next";
        pub const GROUP: &str = "group";
        pub const GROUP_SIZE: &str = "group_size";
        pub const KIND: &str = "kind";
        pub const ENGINES: &str = "engines";
        pub const REFERENCE: &str = "reference";
        pub const WHITE_ADVANTAGE: &str = "white_advantage";
        pub const WHITE_SD: &str = "white_sd";
        pub const DRAW_RATE: &str = "draw_rate_pct";
        pub const DRAW_RATE_SD: &str = "draw_rate_sd_pct";
        pub const SIMULATIONS: &str = "simulations";
        pub const CONFIDENCE: &str = "confidence_pct";
        pub const DISCONNECTED: &str = "disconnected_replays";
        pub const SOLVER: &str = "solver";
        pub const NOTE: &str = "note";
    }
}

/// Name of the dataset manifest file.
pub const MANIFEST_FILE: &str = "manifest.json";

#[cfg(test)]
mod tests {
    use super::*;

    /// A dataset of version 1 hears of every change since; the current
    /// version has every change listed, the last being its own.
    #[test]
    fn changes_since_an_older_version() {
        let all = changes_since("1");
        assert_eq!(all.len(), SCHEMA_CHANGES.len());
        assert!(all[0].starts_with("2: "));
        assert_eq!(changes_since("2").len(), SCHEMA_CHANGES.len() - 1);
        assert!(changes_since(SCHEMA_VERSION).is_empty());
        assert_eq!(SCHEMA_CHANGES.last().map(|c| c.0), Some(SCHEMA_VERSION));
    }

    #[test]
    fn column_names_are_unique_per_table() {
        for t in ALL_TABLES.into_iter().chain(DERIVED_TABLES) {
            let mut names: Vec<_> = t.columns.iter().map(|c| c.name).collect();
            names.sort_unstable();
            let n = names.len();
            names.dedup();
            assert_eq!(n, names.len(), "duplicate column in {}", t.name);
        }
    }

    #[test]
    fn arrow_schema_carries_version() {
        let s = MOVES.arrow_schema();
        assert_eq!(s.metadata()[SCHEMA_VERSION_KEY], SCHEMA_VERSION);
        assert_eq!(s.field(0).name(), col::GAME_ID);
        assert!(table("rejects").is_some());
        assert!(table("nope").is_none());
    }
}
