//! What each command computes, versioned ([`ALGORITHM_VERSIONS`]): the number
//! `run` records per step and a derived table's stamp carries, so that either
//! is recomputed after a change. In the schema, below `dataset`, because the
//! dataset stamps its derived tables with it.

/// What each command computes from the same inputs, versioned: bump a
/// command's number when a change alters its output, so that `run` recomputes
/// the step after an upgrade even if the evallab version stayed the same.
pub const ALGORITHM_VERSIONS: [(&str, u32); 29] = [
    ("ingest", 1),
    ("commit", 1),
    ("remove", 1),
    ("facts", 1),
    // 2: the tcec preset's eras derived from the clocks (S18 bonus, early S22).
    // 3: the fork's 2022 draw rule (piece/pawn limits, no reset), castling-right
    //    rook moves reset, silent moves break the window, eras by round.
    // 4: every digit kept in the table (CSV, JSON, Parquet); only a table
    //    for people is rounded, as its output declares.
    // 5: a unit's change divided exactly (hours saved: polars divides by a
    //    scalar through its reciprocal, 47 cp read 0.47000000000000003).
    ("adjudicate", 5),
    ("analyze", 1),
    ("match", 1),
    // 2: castling spelled as the game's moves (e1g1 in a standard game; lc0
    //    prints e1h1). A run already stored keeps its spelling: re-run it
    //    under a new label.
    ("policy", 2),
    // 2: a move repeated in a later MultiPV slot counts once.
    // 3: `--rating-model` prices a position's forced line (issue 43).
    // 4: a unit's change divided exactly (the policy prior: polars divides by a
    //    scalar through its reciprocal, 47 cp read 0.47000000000000003).
    ("ease", 4),
    // 2: the whole solution line's features, nested cross-validation of
    //    five model families, boosted trees (issue 43).
    ("difficulty", 2),
    // 2: every digit kept in the table (CSV, JSON, Parquet); only a table
    //    for people is rounded, as its output declares.
    // 3: a unit's change divided exactly (pawns: polars divides by a
    //    scalar through its reciprocal, 47 cp read 0.47000000000000003).
    ("agreement", 3),
    // 2: a unit's change divided exactly (pawns: polars divides by a
    //    scalar through its reciprocal, 47 cp read 0.47000000000000003).
    ("balance", 2),
    ("standings", 1),
    ("crosstable", 1),
    // 2: the summary's note (a draw rate at its 100 % bound).
    // 3: the summary's solver (`--solver ordo`, Ordo's own search).
    // 4: every digit kept in the table (CSV, JSON, Parquet); only a table
    //    for people is rounded, as its output declares.
    ("ratings", 4),
    // 2: pairs, decisive pairs, reverse kills and busted pairs per row;
    //    `--by start` (Chess960 start positions), per event (issue 42).
    ("opening-stats", 2),
    ("pairs", 1),
    // 2: a unit's change divided exactly (means and medians in ms, divided last: polars divides by a
    //    scalar through its reciprocal, 47 cp read 0.47000000000000003).
    ("engine-stats", 2),
    // 2: the bootstrap draws games in game-id order (whatever the parts).
    // 3: reasons instead of unidentified values, the pooled estimate, the
    //    TOML's [x05] = pooled (issue 27).
    // 4: the x05 file's header points at the book, not the README.
    // 5: every digit kept in the table (the x05 file keeps its 4 decimals);
    //    only a table for people is rounded, as its output declares.
    // 6: the likelihood's logarithms exact at confident evals (1 − P by
    //    subtraction kept 7 digits: the search stopped on its wiggles, an ml
    //    up to 2e-4 from the maximum).
    ("calibrate", 6),
    // 2: per group, the pooled selection as a prior of 10,000 positions
    //    (`--prior-positions`; columns prior_positions, own_share); the
    //    validation's per-engine pooled-prior row, `--split games`.
    // 3: the validation's tables keep every digit; only a table for people
    //    is rounded, as its output declares.
    // 4: the validation's calibrate rows as calibrate 6, its best single
    //    x05 by the same exact logarithms.
    ("wdl", 4),
    // 3: values that are not positive skipped, sums per chunk of games.
    // 4: loss totals summed exactly (nano-pawns), the same in every run.
    // 5: ... and across chunks: the chunks' partial sums added as integers
    //    (the last digit of a total depended on where the chunks were cut).
    // 6: the per-move table in the games' order (the archive's), not by game
    //    id: its chunks are slices of the moves table, each ply read once.
    // 7: a unit's change divided exactly (pawns, seconds, the means: polars divides by a
    //    scalar through its reciprocal, 47 cp read 0.47000000000000003).
    ("relevance", 7),
    ("eas", 2),
    // 4: the relevance section's sums as relevance 4.
    // 5: the ratings' note; expected puzzle ratings under the ease curve.
    // 6: the ratings summaries show the solver (`report --solver`).
    // 7: openings per event, Chess960 events by start position (issue 42).
    // 8: expected puzzle ratings from a position's forced line (issue 43).
    // 9: the relevance section as relevance 5, read a chunk at a time.
    // 10: an event's EAS bars beyond 16 engines fold under a line.
    // 11: x05 three ways from the engines' WDL models with the pooled prior,
    //     and each model's own share.
    // 12: the adjudication section replays every shipped preset (fastchess).
    // 13: each value rounded once, by the page (ratings, calibrate, agreement,
    //    adjudication and the WDL validation no longer round first).
    // 14: units divided exactly (balance, relevance, engine-stats, ease);
    //    seasons of one event each in one table of contents; a caveat
    //    every engine of an event shares said once in its EAS ranks; x05
    //    three ways as calibrate 6.
    ("report", 14),
    ("annotate", 1),
    // 2: a Chess960 game's start position by Scharnagl number (its name
    //    when it reaches no line), counted as classified (issue 42).
    // 3: the table README's rule: the last named position the game reaches.
    // 4: the summary's shares keep every digit (a table for people is
    //    rounded as its output declares).
    ("openings", 4),
    ("calc", 1),
    ("schema", 1),
    // 2: the inputs section (path, sha256, counts: what `remove` takes).
    ("inspect", 2),
    ("run", 1),
];

pub fn algorithm_version(command: &str) -> u32 {
    ALGORITHM_VERSIONS
        .iter()
        .find(|(c, _)| *c == command)
        .map_or(0, |(_, v)| *v)
}
