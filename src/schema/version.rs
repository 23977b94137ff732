//! The schema's version: the number written into every Parquet file, what
//! each version changed (for the message to a dataset of an older one), and
//! the metadata keys. Its own file because the table types stamp it into each
//! Arrow schema: it stands below them, apart from the tables themselves.

/// Version of the table layout written by this build.
pub const SCHEMA_VERSION: &str = "4";
/// What each version changed, for the message to a dataset of an older one
/// (whose tables lack columns, or hold values this build reads otherwise).
pub const SCHEMA_CHANGES: [(&str, &str); 3] = [
    ("2", "games.variant_inferred"),
    (
        "3",
        "moves.latency_ms; fastchess's tl, n, sd, nps, hashfull, tbhits and pv read into their columns; \
         UCI movetext read; tokens that are no move reject their game; the Polyglot position keys \
         moves.position_key and games.start_key",
    ),
    (
        "4",
        "plies, move numbers and counters u32 (u16 or u8 before, clamped): games.plies, \
         variations_skipped, evals, unparsed_comments; moves.ply, move_number, halfmove_clock, \
         repetition; rejects.ply_reached; the ply of analysis, analysis_failures, policy, match \
         (and match.move_number), relevance_moves and openings.opening_ply; a value its column \
         cannot hold is null with its text kept: comment fields in moves.comment_extra, \
         Date/WhiteElo/BlackElo/PlyCount tags in games.other_tags (partial and impossible dates \
         too), a mate beyond ±32767 moves absurd",
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
}
