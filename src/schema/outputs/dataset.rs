//! The outputs of `evallab inspect`: what a dataset holds.

use super::quantity::*;

const PLIES: Quantity = q(
    "plies",
    "Plies",
    "",
    0,
    None,
    "Plies (half-moves) of those games.",
);
const EVALS: Quantity = q(
    "evals",
    "Evals",
    "",
    0,
    None,
    "Plies of those games with a usable eval (centipawns or mate) in their comment.",
);

pub const INSPECT: Output = Output {
    name: "inspect",
    title: "Games per event",
    doc: "`evallab inspect -o FILE` (or `--format`): the games, plies and rejects per event; the \
          other sections beside it as `FILE.tables.EXT`, `.dialects`, `.variants`, `.rejects`, \
          `.repeated` and `.analyses` (on a terminal, all of them as a text).",
    columns: &[
        q(
            "event",
            "Event",
            "",
            0,
            None,
            "The games' Event tag (empty without one).",
        ),
        q(
            "games",
            "Games",
            "",
            0,
            None,
            "Games read into the dataset.",
        ),
        PLIES,
        EVALS,
        q(
            "rejects",
            "Rejects",
            "",
            0,
            None,
            "Games of the event rejected, each with its reason in the rejects table.",
        ),
    ],
};

pub const INSPECT_TABLES: Output = Output {
    name: "inspect (tables)",
    title: "Rows per table",
    doc: "`evallab inspect`'s rows per table, beside `-o FILE.EXT` as `FILE.tables.EXT`: the \
          games, moves and rejects, then each engine table with committed parts.",
    columns: &[
        q(
            "table",
            "Table",
            "",
            0,
            None,
            "The table (`evallab schema`).",
        ),
        q("rows", "Rows", "", 0, None, "Rows in its committed parts."),
    ],
};

pub const INSPECT_DIALECTS: Output = Output {
    name: "inspect (dialects)",
    title: "Games per comment dialect",
    doc: "`evallab inspect`'s games per comment dialect, beside `-o FILE.EXT` as \
          `FILE.dialects.EXT`.",
    columns: &[
        q(
            "dialect",
            "Dialect",
            "",
            0,
            None,
            "The dominant eval-comment dialect of the games (`games.dialect`: tcec, \
             cutechess, lichess, chessbase); empty for games without one.",
        ),
        q("games", "Games", "", 0, None, "Games in that dialect."),
        PLIES,
        EVALS,
        q(
            "unparsed_comments",
            "Unparsed comments",
            "",
            0,
            None,
            "Move comments of those games that no dialect could read (kept in the moves \
             table's `comment_extra`).",
        ),
    ],
};

pub const INSPECT_VARIANTS: Output = Output {
    name: "inspect (variants)",
    title: "Games per variant",
    doc: "`evallab inspect`'s games per variant, beside `-o FILE.EXT` as `FILE.variants.EXT`.",
    columns: &[
        q(
            "variant",
            "Variant",
            "",
            0,
            None,
            "`standard` or `chess960` (`games.variant`).",
        ),
        q("games", "Games", "", 0, None, "Games of that variant."),
        q(
            "inferred",
            "Inferred",
            "",
            0,
            None,
            "Of them, those read as Chess960 without a Variant tag saying so: their start \
             FEN is legal only as Chess960 (castling rooks off the corners).",
        ),
    ],
};

pub const INSPECT_REJECTS: Output = Output {
    name: "inspect (rejects)",
    title: "Rejected games",
    doc: "`evallab inspect`'s rejected games in input order, beside `-o FILE.EXT` as \
          `FILE.rejects.EXT` (the rejects table's columns that say where and why).",
    columns: &[
        q(
            "source_file",
            "File",
            "",
            0,
            None,
            "The input file the game was read from, as given.",
        ),
        q(
            "game_number",
            "Game number",
            "",
            0,
            None,
            "The game's number in that file, from 1.",
        ),
        q(
            "line",
            "Line",
            "",
            0,
            None,
            "The line of the problem in the decompressed input (the game's first line if \
             unknown).",
        ),
        ROUND,
        WHITE,
        BLACK,
        q(
            "reason",
            "Reason",
            "",
            0,
            None,
            "Why the game was rejected (an illegal move named by its number, an invalid FEN, \
             …).",
        ),
    ],
};

pub const INSPECT_REPEATED: Output = Output {
    name: "inspect (repeated)",
    title: "Games held more than once",
    doc: "`evallab inspect`'s games the dataset holds more than once, beside `-o FILE.EXT` as \
          `FILE.repeated.EXT`: the same tags, plies and final position, read from two files \
          or twice from one (a season's file and its event's). Every copy counts in every \
          statistic; evallab keeps them as read.",
    columns: &[
        GAME_EVENT,
        q("site", "Site", "", 0, None, "The game's Site tag."),
        q("date", "Date", "", 0, None, "The game's Date tag."),
        ROUND,
        WHITE,
        BLACK,
        RESULT,
        q("plies", "Plies", "", 0, None, "The game's plies."),
        q(
            "copies",
            "Copies",
            "",
            0,
            None,
            "How many times the dataset holds it.",
        ),
        q(
            "places",
            "Places",
            "",
            0,
            None,
            "Where each copy was read: `file #game number`, `; ` between copies.",
        ),
    ],
};

pub const INSPECT_INPUTS: Output = Output {
    name: "inspect (inputs)",
    title: "Inputs",
    doc: "`evallab inspect`'s ingested input files, from the manifest, in the order they were \
          read, beside `-o FILE.EXT` as `FILE.inputs.EXT`: what `evallab remove` takes by path \
          or sha256.",
    columns: &[
        q(
            "path",
            "Path",
            "",
            0,
            None,
            "The input as given to the ingest (`-` for stdin).",
        ),
        q(
            "sha256",
            "sha256",
            "",
            0,
            None,
            "sha256 of the file as stored (compressed bytes): the games' `source_sha256`.",
        ),
        q(
            "part",
            "Part",
            "",
            0,
            None,
            "The ingest run (part number) that holds its rows.",
        ),
        q("games", "Games", "", 0, None, "Games read from it."),
        q("rejects", "Rejects", "", 0, None, "Games rejected."),
        q("plies", "Plies", "", 0, None, "Plies of its games."),
        q(
            "grown_from",
            "Grown from",
            "",
            0,
            None,
            "For a file read from where its earlier version ended: the games of the earlier \
             version (its sha256's record holds them); empty otherwise.",
        ),
    ],
};

pub const INSPECT_ANALYSES: Output = Output {
    name: "inspect (analyses)",
    title: "Engine analyses",
    doc: "`evallab inspect`'s engine runs (`analyze`, `policy`, `match`), from the manifest, \
          beside `-o FILE.EXT` as `FILE.analyses.EXT`.",
    columns: &[
        q(
            "label",
            "Label",
            "",
            0,
            None,
            "The run's label (`--label`).",
        ),
        ENGINE,
        q(
            "limit",
            "Limit",
            "",
            0,
            None,
            "The search limit of each position, as the run recorded it (its `limit`, else \
             its protocol).",
        ),
        q("multipv", "MultiPV", "", 0, None, "Lines per position."),
        q("chunks", "Chunks", "", 0, None, "Chunks committed."),
        q("games", "Games", "", 0, None, "Games analysed."),
        q("positions", "Positions", "", 0, None, "Positions analysed."),
        q(
            "lines",
            "Lines",
            "",
            0,
            None,
            "Lines (principal variations) written.",
        ),
        q(
            "failures",
            "Failures",
            "",
            0,
            None,
            "Positions the engine failed on (in the `analysis_failures` table).",
        ),
        q(
            "restarts",
            "Restarts",
            "",
            0,
            None,
            "Times the engine was restarted (a crash or a timeout).",
        ),
    ],
};

pub const INSPECT_VERIFY: Output = Output {
    name: "inspect --verify",
    title: "Parts verified",
    doc: "`evallab inspect --verify -o FILE`: each part the manifest lists, hashed again and \
          compared with its record at commit. A part that differs is an error (exit 6) naming \
          it, and no table is written.",
    columns: &[
        q(
            "part",
            "Part",
            "",
            0,
            None,
            "The part's file, relative to the dataset folder.",
        ),
        q("table", "Table", "", 0, None, "The table it is a part of."),
        q(
            "bytes",
            "Bytes",
            "",
            0,
            None,
            "Its size as found; empty without a record (not hashed).",
        ),
        q(
            "xxh3",
            "xxh3-128",
            "",
            0,
            None,
            "Its xxh3-128 as found, hex, equal to the manifest's record; empty without a \
             record.",
        ),
        q(
            "status",
            "Status",
            "",
            0,
            None,
            "`as committed`, or `no record` for a part committed before evallab recorded \
             sums (the next write to the dataset records it).",
        ),
    ],
};
