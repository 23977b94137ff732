//! The engine commands' outputs: agreement, match, ease, difficulty, and the openings counts.

use super::quantity::*;

const PUZZLE_ID: Quantity = q("puzzle_id", "Puzzle", "", 0, None, "The Lichess PuzzleId.");

// ---------------------------------------------------------------------------
// Group keys, shared by the outputs below.

/// `game_id` as a group key (`ease --per-game`, `match --by game,engine`).
const GAME_KEY: Quantity = q(
    "game_id",
    "Game id",
    "",
    0,
    None,
    "The game (its dataset id): a group key when the rows are per game.",
);
/// The mover of the positions (after `--family` merging).
const MOVER: Quantity = q(
    "engine",
    "Engine",
    "",
    0,
    None,
    "The engine to move in the positions (the player's name after `--family` merging).",
);

// ---------------------------------------------------------------------------
// agreement

pub const AGREEMENT: Output = Output {
    name: "agreement",
    title: "Agreement with a reference analysis",
    doc: "`evallab agreement`: the archive against a reference analysis, per event (the \
          default), per season or over all events, and engine (docs/definitions/agreement.md).",
    columns: &[
        EVENT,
        SEASON,
        MOVER,
        q(
            "positions",
            "Positions",
            "",
            0,
            None,
            "The engine's moves whose position the reference analysed (it has a final best line).",
        ),
        q(
            "top1_share",
            "Reference's first choice",
            "share",
            2,
            None,
            "Share of those moves that are the reference's first choice (its final MultiPV 1 line).",
        ),
        q(
            "eval_pairs",
            "Eval pairs",
            "",
            0,
            None,
            "Positions where both the archived eval and the reference's best line are \
             centipawn evals (no mate, no placeholder).",
        ),
        q(
            "mean_abs_diff_pawns",
            "Eval difference",
            "pawns",
            2,
            LO,
            "Mean absolute difference of the archived and the reference eval over the eval \
             pairs, both White's view and clipped to ±10 pawns.",
        ),
        q(
            "eval_corr",
            "Eval correlation",
            "r",
            3,
            HI,
            "Pearson's r of the archived and the reference evals over the eval pairs; empty \
             when either has no variance.",
        ),
        q(
            "loss_moves",
            "Moves priced",
            "",
            0,
            None,
            "Played moves the reference priced: all but those not among its lines whose next \
             position it did not analyse (a game's last analysed ply).",
        ),
        q(
            "mean_loss_cp",
            "Mean loss",
            "cp",
            1,
            LO,
            "Mean of the reference's best line minus the played move, mover's view, each \
             clamped to ±1000 (a mate counts ±1000); the played move's value is its own line, \
             else minus the best line of the next position.",
        ),
        q(
            "mean_accuracy",
            "Accuracy",
            "%",
            1,
            HI,
            "Mean lichess accuracy of the played moves, from the mover's win% before (best \
             line) and after (played move), with lichess's +1, clamped to 0–100.",
        ),
    ],
};

pub const AGREEMENT_MOVES: Output = Output {
    name: "agreement --moves-out",
    title: "Agreement per position",
    doc: "`evallab agreement --moves-out FILE` (Parquet): one row per analysed position of the \
          selection whose move is in the archive, the input of the agreement's summary \
          (docs/definitions/agreement.md).",
    columns: &[
        GAME_ID,
        q(
            "ply",
            "Ply",
            "",
            0,
            None,
            "The position is the one before this ply; its move is the game's move at this ply.",
        ),
        GAME_EVENT,
        q(
            "season",
            "Season",
            "",
            0,
            None,
            "N of \"Season N\" in the event's name, else the event's name itself.",
        ),
        MOVER,
        q("side", "Side", "", 0, None, "`w` or `b`: the side to move."),
        q("uci", "Move played", "", 0, None, "The game's move, UCI."),
        q(
            "ref_move",
            "Reference's move",
            "",
            0,
            None,
            "The reference's first choice (its final MultiPV 1 line), UCI.",
        ),
        q(
            "top1",
            "First choice",
            "",
            0,
            None,
            "The move played is the reference's first choice.",
        ),
        q(
            "archived_pawns",
            "Archived eval",
            "pawns",
            2,
            None,
            "The archived eval, White's view, clipped to ±10; empty unless it and the \
             reference's are both centipawn evals.",
        ),
        q(
            "ref_pawns",
            "Reference eval",
            "pawns",
            2,
            None,
            "The reference's best line, White's view, clipped to ±10; empty unless it and the \
             archived eval are both centipawn evals.",
        ),
        q(
            "best_cp",
            "Best line",
            "cp",
            0,
            None,
            "The reference's best line, mover's view, clamped to ±1000 (a mate counts ±1000).",
        ),
        q(
            "second_cp",
            "Second line",
            "cp",
            0,
            None,
            "The reference's second line (MultiPV 2), as `best_cp`; empty without one.",
        ),
        q(
            "played_cp",
            "Played move",
            "cp",
            0,
            None,
            "The played move's value, as `best_cp`: its own line when the reference searched \
             it, else minus the best line of the next position; empty at a game's last \
             analysed ply then.",
        ),
        q(
            "loss_cp",
            "Loss",
            "cp",
            0,
            LO,
            "Best line minus played move, clipped to 0–2000.",
        ),
        q(
            "accuracy",
            "Accuracy",
            "%",
            1,
            HI,
            "lichess's accuracy of the move from the mover's win% before (best line) and \
             after (played move), with lichess's +1, clamped to 0–100.",
        ),
    ],
};

// ---------------------------------------------------------------------------
// match

pub const MATCHING: Output = Output {
    name: "match",
    title: "Move matching",
    doc: "`evallab match`'s statistics (stdout or `--stats FILE`): Regan's move matching per \
          tested player, per event and player (`--by event,engine`) or per game and player \
          (`--by game,engine`) (docs/definitions/matching.md).",
    columns: &[
        EVENT,
        GAME_KEY,
        q(
            "player",
            "Player",
            "",
            0,
            None,
            "The tested player: the mover's name, as `--player` matched it.",
        ),
        q("moves", "Moves", "", 0, None, "Moves tested."),
        q(
            "mm",
            "Move match",
            "share",
            2,
            None,
            "Share of the moves that are the engine's first choice at the last SLM depth d.",
        ),
        q(
            "mm_lo",
            "Move match low",
            "95 %",
            2,
            None,
            "Lower end of MM's bootstrap interval: the 2.5 % percentile over `--bootstrap` \
             resamples of the player's games (of its moves with `--by game,engine`); empty \
             with no resample.",
        ),
        q(
            "mm_hi",
            "Move match high",
            "95 %",
            2,
            None,
            "Upper end of MM's bootstrap interval: the 97.5 % percentile of the same resamples.",
        ),
        q(
            "valued_moves",
            "Valued moves",
            "",
            0,
            None,
            "Moves with a valid final-MLM eval of both the played and the top move: those EV, \
             AE and ASD count (repetitions and bound scores left out).",
        ),
        q(
            "ev",
            "Equal value",
            "share",
            2,
            None,
            "Share of the valued moves whose final-MLM eval equals the top move's (ties count).",
        ),
        q(
            "ae",
            "Average error",
            "pawns",
            3,
            LO,
            "Mean drop, top move minus played move, over the valued moves (final MLM, mover's \
             view, evals capped at ±10, a mate ±10).",
        ),
        q(
            "asd",
            "Scaled error",
            "pawns",
            3,
            LO,
            "Mean of ∫ dz/(1+|z|) from the played eval to the top eval over the valued moves: \
             a drop counts less in a lopsided position.",
        ),
        q(
            "full",
            "Full matches",
            "",
            0,
            None,
            "Moves that are the first choice at every SLM depth and in the final MLM (FULL).",
        ),
        q(
            "main",
            "Main matches",
            "",
            0,
            None,
            "Other moves that are the first choice at the last SLM depth d (MAIN).",
        ),
        q(
            "part",
            "Partial matches",
            "",
            0,
            None,
            "Moves that are the first choice at some SLM depth but not at d (PART).",
        ),
        q(
            "non",
            "No match",
            "",
            0,
            None,
            "Moves that are the first choice at no SLM depth (NON).",
        ),
        q(
            "repetitions",
            "Repetitions",
            "",
            0,
            None,
            "Moves into a position that occurred earlier in the game (value NaN).",
        ),
    ],
};

pub const MATCH_TABLE: Output = Output {
    name: "match -o",
    title: "Tested moves",
    doc: "`evallab match -o DIR`'s `DIR/match.parquet`: the run's rows of the dataset's `match` \
          table (`evallab schema match`) for the selected games, with the games' tags, in \
          dataset game order, then ply order.",
    columns: &[
        GAME_ID,
        q(
            "ply",
            "Ply",
            "",
            0,
            None,
            "The tested move is the game's move at this ply.",
        ),
        q(
            "label",
            "Run",
            "",
            0,
            None,
            "The match run's label (the dataset manifest's `analyses`).",
        ),
        q(
            "player",
            "Player",
            "",
            0,
            None,
            "The tested player (the mover's name).",
        ),
        q(
            "side",
            "Side",
            "",
            0,
            None,
            "`w` or `b`: the side that moved.",
        ),
        q(
            "move_number",
            "Move number",
            "",
            0,
            None,
            "The move number as printed.",
        ),
        q("san", "Move", "", 0, None, "The move played, SAN."),
        q(
            "played",
            "Move in UCI",
            "",
            0,
            None,
            "The move played, UCI.",
        ),
        q(
            "bits",
            "Bits",
            "",
            0,
            None,
            "One character per SLM depth dmin..d: 1 when the engine's first choice at that \
             depth is the move played, else 0.",
        ),
        q(
            "match_type",
            "Match type",
            "",
            0,
            None,
            "FULL, MAIN, PART or NON.",
        ),
        q(
            "value_name",
            "Value name",
            "",
            0,
            None,
            "`delta` (FULL, MAIN: played minus best alternative) or `delta2` (PART, NON: \
             played minus top move).",
        ),
        q(
            "value",
            "Delta",
            "pawns",
            2,
            None,
            "The delta as the log prints it (9.99: every alternative is mated); empty for NaN \
             (a repetition, or no valid eval).",
        ),
        q(
            "top_at_d",
            "First choice at d",
            "",
            0,
            None,
            "The move played is the first choice at the last SLM depth d (counts for MM).",
        ),
        q(
            "equal_value",
            "Equal value",
            "",
            0,
            None,
            "The move played has the top move's final-MLM eval (EV); empty when invalid.",
        ),
        q(
            "played_cp",
            "Played eval",
            "cp",
            0,
            None,
            "The final MLM's eval of the move played, mover's view, capped at ±1000 (a mate \
             ±1000).",
        ),
        q(
            "top_cp",
            "Top eval",
            "cp",
            0,
            None,
            "The final MLM's eval of the engine's top move, as `played_cp`.",
        ),
        q(
            "alt_cp",
            "Best alternative eval",
            "cp",
            0,
            None,
            "The final MLM's eval of the best alternative to the move played, as `played_cp`; \
             empty without one.",
        ),
        q(
            "drop_pawns",
            "Drop",
            "pawns",
            2,
            LO,
            "The AE term: (top_cp − played_cp)/100; empty when invalid.",
        ),
        q(
            "scaled_drop",
            "Scaled drop",
            "pawns",
            3,
            LO,
            "The ASD term: ∫ dz/(1+|z|) from the played eval to the top eval.",
        ),
        q(
            "all_mated",
            "All alternatives mated",
            "",
            0,
            None,
            "FULL or MAIN, and every alternative loses to mate (value 9.99).",
        ),
        q(
            "repetition",
            "Repetition",
            "",
            0,
            None,
            "The move repeats an earlier position of the game (value NaN).",
        ),
        q(
            "top_move",
            "Top move",
            "",
            0,
            None,
            "The final MLM's first move, UCI.",
        ),
        q(
            "slm_moves",
            "SLM first choices",
            "",
            0,
            None,
            "The SLM first choice at each depth dmin..d, UCI, space separated.",
        ),
        q(
            "match_line",
            "Match line",
            "",
            0,
            None,
            "The outcome line as in the log and the results file.",
        ),
        q(
            "log",
            "Log",
            "",
            0,
            None,
            "The move's labelled engine output as in the log (MLM, SLM per depth, final MLM).",
        ),
        q(
            "game_index",
            "Game index",
            "",
            0,
            None,
            "The game's row in the dataset's games table, from 0 (the rows' order).",
        ),
        GAME_EVENT,
        q("site", "Site", "", 0, None, "The game's Site tag."),
        q(
            "date",
            "Date",
            "",
            0,
            None,
            "The game's date, YYYY-MM-DD; empty when unknown.",
        ),
        ROUND,
        WHITE,
        BLACK,
    ],
};

// ---------------------------------------------------------------------------
// ease

/// The positions of a group: with an ease, joined to the played move.
const EASE_POSITIONS_COUNT: Quantity = q(
    "positions",
    "Positions",
    "",
    0,
    None,
    "Positions the engine faced that have an ease and a final best line of the analysis.",
);
const MEAN_EASE: Quantity = q(
    "mean_ease",
    "Mean ease",
    "",
    2,
    None,
    "Mean ease of those positions.",
);
const EASE_MEAN_LOSS: Quantity = q(
    "mean_loss_cp",
    "Mean loss",
    "cp",
    1,
    LO,
    "The played move's mean loss by the analysis (`agreement`'s: best line minus played move, \
     mover's view, clamped to ±1000) over those positions.",
);

pub const EASE: Output = Output {
    name: "ease",
    title: "Ease per engine",
    doc: "`evallab ease`: ease of the positions each engine faced, and its losses in the \
          treacherous and the other ones, per engine (the default), per event or season and \
          engine (`--by`), or per game and engine (`--per-game`) (docs/definitions/ease.md).",
    columns: &[
        EVENT,
        SEASON,
        GAME_KEY,
        MOVER,
        EASE_POSITIONS_COUNT,
        MEAN_EASE,
        q(
            "treacherous",
            "Treacherous",
            "",
            0,
            None,
            "Positions with ease below `--cut` (default 0.5).",
        ),
        q(
            "treacherous_share",
            "Treacherous share",
            "share",
            2,
            None,
            "Share of the positions that are treacherous.",
        ),
        EASE_MEAN_LOSS,
        q(
            "mean_loss_cp_treacherous",
            "Mean loss, treacherous",
            "cp",
            1,
            LO,
            "The played move's mean loss in the treacherous positions; empty without one.",
        ),
        q(
            "mean_loss_cp_other",
            "Mean loss, other",
            "cp",
            1,
            LO,
            "The played move's mean loss in the other positions; empty without one.",
        ),
    ],
};

pub const EASE_BANDS: Output = Output {
    name: "ease --bands",
    title: "Loss per ease band",
    doc: "`evallab ease --bands EDGES`: the played move's mean loss per ease band, per engine \
          (or as `--by` or `--per-game` group) (docs/definitions/ease.md).",
    columns: &[
        EVENT,
        SEASON,
        GAME_KEY,
        MOVER,
        q(
            "ease_band",
            "Ease band",
            "",
            0,
            None,
            "The band cut at the `--bands` edges: `< a`, `[a, b)`, …, `>= z` (a band holds its \
             lower edge).",
        ),
        EASE_POSITIONS_COUNT,
        MEAN_EASE,
        EASE_MEAN_LOSS,
    ],
};

pub const EASE_POSITIONS: Output = Output {
    name: "ease --positions",
    title: "Ease per position",
    doc: "`evallab ease --positions`: the ease of every position the analysis covers \
          (docs/definitions/ease.md).",
    columns: &[
        GAME_ID,
        q(
            "ply",
            "Ply",
            "",
            0,
            None,
            "The position is the one before this ply.",
        ),
        q(
            "ease",
            "Ease",
            "",
            3,
            None,
            "1 − (Σ P_i^1.5 · max(0, Q_max − Q_i)/2)^(1/3) over the candidates (`--form \
             per-term`: 1 − Σ of the terms' cube roots); near 1 easy, near 0 treacherous; \
             empty when no candidate has both P and Q.",
        ),
        q(
            "candidates",
            "Candidates",
            "",
            0,
            None,
            "Lines of the analysis' top `--top` (default 5) with both a prior P and a Q.",
        ),
        q(
            "candidate_moves",
            "Candidate moves",
            "",
            0,
            None,
            "Their moves, UCI, in MultiPV order, space separated.",
        ),
        q(
            "q_max",
            "Best Q",
            "",
            3,
            None,
            "The largest Q = 2/(1+e^(−0.00368208·cp)) − 1 of the lines used (side to move's \
             view, a mate ±1), also of a line the policy did not price; empty when no line \
             gives Q.",
        ),
        q(
            "prior_best",
            "Prior of the best line",
            "",
            3,
            None,
            "The prior of the first line with a Q (lowest MultiPV), as stored: a fraction, or \
             a percentage from a `--policy-file` in percent; empty when the policy did not \
             price it.",
        ),
        q(
            "expected_rating",
            "Expected puzzle rating",
            "",
            0,
            None,
            "With `--rating-model`: the Lichess puzzle rating the model expects of the \
             position read as a puzzle, its line the analysis' best move and the game's \
             continuation while forced (docs/definitions/difficulty.md, reading 7); empty \
             where the position lacks the analysis or the policy.",
        ),
    ],
};

// ---------------------------------------------------------------------------
// difficulty

/// A line feature of `difficulty --puzzles` (docs/definitions/difficulty.md).
const fn feature(
    name: &'static str,
    label: &'static str,
    unit: &'static str,
    digits: u8,
    doc: &'static str,
) -> Quantity {
    q(name, label, unit, digits, None, doc)
}

pub const DIFFICULTY: Output = Output {
    name: "difficulty",
    title: "Line features against puzzle ratings",
    doc: "`evallab difficulty`: each line feature's rank correlations with the Lichess puzzle \
          rating, over all puzzles and per theme (docs/definitions/difficulty.md).",
    columns: &[
        q(
            "theme",
            "Theme",
            "",
            0,
            None,
            "`all` (every puzzle), then each Lichess theme of the puzzles, most puzzles first.",
        ),
        q("puzzles", "Puzzles", "", 0, None, "Puzzles in the group."),
        q(
            "measure",
            "Feature",
            "",
            0,
            None,
            "The line feature (a feature column of `difficulty --puzzles`).",
        ),
        q(
            "n",
            "Puzzles with it",
            "",
            0,
            None,
            "Puzzles of the group with the feature and a rating.",
        ),
        q(
            "rho",
            "Spearman's rho",
            "",
            3,
            None,
            "Spearman's rank correlation of the feature with the rating (positive: higher \
             means harder); empty with a reason.",
        ),
        q(
            "rho_lo",
            "rho low",
            "95 %",
            3,
            None,
            "Lower end of rho's bootstrap interval: the 2.5 % percentile over `--bootstrap` \
             resamples of the puzzles.",
        ),
        q(
            "rho_hi",
            "rho high",
            "95 %",
            3,
            None,
            "Upper end of rho's bootstrap interval: the 97.5 % percentile.",
        ),
        q(
            "tau",
            "Kendall's tau-b",
            "",
            3,
            None,
            "Kendall's tau-b of the feature with the rating; empty with a reason.",
        ),
        q(
            "tau_lo",
            "tau low",
            "95 %",
            3,
            None,
            "Lower end of tau's bootstrap interval (the same resamples as rho's).",
        ),
        q(
            "tau_hi",
            "tau high",
            "95 %",
            3,
            None,
            "Upper end of tau's bootstrap interval.",
        ),
        q(
            "reason",
            "Why none",
            "",
            0,
            None,
            "Why the row has no correlation or no interval: a theme with fewer than \
             `--min-theme` puzzles, fewer than 2 puzzles with the feature, a constant feature \
             or rating, or no resample that varies.",
        ),
    ],
};

pub const DIFFICULTY_PUZZLES: Output = Output {
    name: "difficulty --puzzles",
    title: "Puzzle line features",
    doc: "`evallab difficulty --puzzles`: one row per puzzle, in puzzle id order, with the \
          features of its whole solution line (docs/definitions/difficulty.md); the engine \
          features read the puzzle's move at every solver position as the solution.",
    columns: &[
        GAME_ID,
        PUZZLE_ID,
        q(
            "rating",
            "Rating",
            "",
            0,
            None,
            "The puzzle's Lichess rating (higher: harder).",
        ),
        q(
            "rating_deviation",
            "Rating deviation",
            "",
            0,
            None,
            "The rating's deviation (RatingDeviation; settled at 90 or below).",
        ),
        q(
            "plays",
            "Plays",
            "",
            0,
            None,
            "Times the puzzle was played (NbPlays).",
        ),
        q(
            "themes",
            "Themes",
            "",
            0,
            None,
            "The puzzle's Lichess themes, space separated.",
        ),
        q(
            "solution",
            "Solution",
            "",
            0,
            None,
            "The solver's first move (ply 2), UCI.",
        ),
        feature(
            "solver_moves",
            "Solver moves",
            "",
            0,
            "The solver's moves in the line.",
        ),
        feature(
            "quiet_moves",
            "Quiet moves",
            "",
            0,
            "Solver moves that neither capture, check nor promote.",
        ),
        feature("solver_checks", "Checks", "", 0, "Solver moves that check."),
        feature(
            "solver_captures",
            "Captures",
            "",
            0,
            "Solver moves that capture.",
        ),
        feature(
            "ends_in_mate",
            "Ends in mate",
            "",
            0,
            "1 when the line's last move mates, else 0.",
        ),
        feature(
            "after_capture",
            "After a capture",
            "",
            0,
            "1 when the opponent's move into the first position captured (a recapture), else 0.",
        ),
        feature(
            "legal_first",
            "Legal moves, first",
            "",
            0,
            "The solver's legal moves at the first position.",
        ),
        feature(
            "legal_mean",
            "Legal moves, mean",
            "",
            1,
            "The solver's legal moves, mean over the line's solver positions.",
        ),
        feature(
            "replies_mean",
            "Replies, mean",
            "",
            1,
            "The opponent's legal replies after each solver move but the last, their mean; \
             empty for a one-move line.",
        ),
        feature(
            "replies_min",
            "Replies, fewest",
            "",
            0,
            "The fewest of those replies; empty for a one-move line.",
        ),
        feature(
            "forcing_first",
            "Forcing moves, first",
            "",
            0,
            "The solver's legal moves at the first position that check or capture.",
        ),
        feature(
            "material",
            "Material",
            "pawns",
            0,
            "Both sides' material at the first position (pawn 1, knight and bishop 3, rook 5, \
             queen 9).",
        ),
        feature(
            "pieces",
            "Pieces",
            "pawns",
            0,
            "Both sides' material at the first position without the pawns.",
        ),
        feature(
            "material_edge",
            "Material edge",
            "pawns",
            0,
            "The solver's material minus the opponent's at the first position.",
        ),
        feature(
            "prior_first",
            "Prior, first",
            "",
            3,
            "The policy's prior of the solution at the first position, a fraction.",
        ),
        feature(
            "prior_min",
            "Prior, lowest",
            "",
            3,
            "The lowest prior of the solution over the line; empty when a position lacks it.",
        ),
        feature(
            "prior_second",
            "Prior, second",
            "",
            3,
            "The prior of the solution at the second solver position; empty for a one-move line.",
        ),
        feature(
            "surprisal",
            "Surprisal",
            "nats",
            2,
            "Σ −ln max(P, 10⁻⁴) of the solution's priors over the line; empty when a position \
             lacks one.",
        ),
        feature(
            "rank_first",
            "Policy rank, first",
            "",
            0,
            "1 + the moves the policy prices above the solution at the first position (ties \
             do not count).",
        ),
        feature(
            "rank_max",
            "Policy rank, worst",
            "",
            0,
            "The worst such rank over the line; empty when a position lacks it.",
        ),
        feature(
            "policy_misses",
            "Policy misses",
            "",
            0,
            "Solver positions where the solution is not the policy's first choice; empty when \
             a position lacks the policy.",
        ),
        feature(
            "entropy_first",
            "Policy entropy, first",
            "nats",
            2,
            "−Σ p ln p over every priced legal move at the first position (p = P / ΣP).",
        ),
        feature(
            "entropy_mean",
            "Policy entropy, mean",
            "nats",
            2,
            "The policy entropy, mean over the line; empty when a position lacks it.",
        ),
        feature(
            "depth_first",
            "Depth to find, first",
            "",
            0,
            "At the first position, the first depth of the final run of depths whose MultiPV \
             1 move is the solution (the last depth + 1 when the last depth's is another); \
             empty without `analyze --all-depths`.",
        ),
        feature(
            "depth_max",
            "Depth to find, deepest",
            "",
            0,
            "The largest depth to find over the line; empty when a position lacks it.",
        ),
        feature(
            "depth_last",
            "Depth to find, last",
            "",
            0,
            "The depth to find at the last solver position.",
        ),
        feature(
            "depth_sum",
            "Depth to find, sum",
            "",
            0,
            "The depths to find summed over the line; empty when a position lacks one.",
        ),
        feature(
            "gap_first",
            "Q gap, first",
            "",
            3,
            "Q of the best line minus the second largest Q at the first position; empty with \
             fewer than two lines with a Q.",
        ),
        feature(
            "gap_min",
            "Q gap, smallest",
            "",
            3,
            "The smallest Q gap over the line; empty when a position lacks it.",
        ),
        feature(
            "gap_mean",
            "Q gap, mean",
            "",
            3,
            "The Q gap, mean over the line; empty when a position lacks it.",
        ),
        feature(
            "good_first",
            "Good moves, first",
            "",
            0,
            "Lines within 0.1 Q of the best (the best included) at the first position: the \
             moves that keep the result.",
        ),
        feature(
            "good_max",
            "Good moves, most",
            "",
            0,
            "The most good moves at a solver position of the line; empty when a position \
             lacks them.",
        ),
        feature(
            "engine_misses",
            "Engine misses",
            "",
            0,
            "Solver positions where the analysis' best move is not the solution; empty when a \
             position lacks the analysis.",
        ),
        feature(
            "ease_first",
            "Ease, first",
            "",
            3,
            "Ease (sum form) of the first position.",
        ),
        feature(
            "q_first",
            "Best Q, first",
            "",
            3,
            "Q of the best line at the first position: how much the solution wins.",
        ),
        q(
            "reason",
            "Why no engine features",
            "",
            0,
            None,
            "Why the engine features are missing: the solver positions lacking the analysis or \
             the policy (named by ply), or the puzzle's line could not be replayed; empty when \
             none is missing.",
        ),
    ],
};

/// The nested cross-validation's scores (over all puzzles, or the settled ones).
pub const DIFFICULTY_MODELS: Output = Output {
    name: "difficulty --models",
    title: "Expected-rating models",
    doc: "`evallab difficulty --models` (also `--save-model FILE`): each model family's nested \
          cross-validation, then the whole choice's, scored on the pooled out-of-fold \
          predictions (docs/definitions/difficulty.md, reading 9).",
    columns: &[
        q(
            "kind",
            "Model",
            "",
            0,
            None,
            "The family: constant, isotonic, linear-ranks, ridge, gbt; then `selected`, the \
             whole choice (the family picked per outer fold).",
        ),
        q(
            "settings",
            "Settings",
            "",
            0,
            None,
            "Per outer fold, `; ` separated: the settings the inner folds picked (for \
             `selected`, the family), or `too few rows`.",
        ),
        q(
            "n",
            "Puzzles",
            "",
            0,
            None,
            "Puzzles with an out-of-fold prediction.",
        ),
        q(
            "cv_rho",
            "Spearman's rho",
            "",
            3,
            HI,
            "Spearman's rho of the predictions with the ratings; null when undefined (a constant), \
             and every measure null where the family priced no puzzle.",
        ),
        q(
            "cv_mae",
            "MAE",
            "rating points",
            0,
            LO,
            "Mean absolute error of the predictions.",
        ),
        q(
            "cv_mae_se",
            "± MAE",
            "rating points",
            1,
            None,
            "The MAE's standard error: the absolute errors' standard deviation over √n.",
        ),
        q(
            "cv_rmse",
            "RMSE",
            "rating points",
            0,
            LO,
            "Root mean squared error of the predictions.",
        ),
        q(
            "n_settled",
            "Settled puzzles",
            "",
            0,
            None,
            "Those puzzles whose RatingDeviation is at most 90.",
        ),
        q(
            "cv_rho_settled",
            "Spearman's rho, settled",
            "",
            3,
            HI,
            "Spearman's rho over the settled puzzles.",
        ),
        q(
            "cv_mae_settled",
            "MAE, settled",
            "rating points",
            0,
            LO,
            "Mean absolute error over the settled puzzles.",
        ),
        q(
            "cv_rmse_settled",
            "RMSE, settled",
            "rating points",
            0,
            LO,
            "Root mean squared error over the settled puzzles.",
        ),
        q(
            "rmse_over_sd_settled",
            "RMSE over sd, settled",
            "",
            2,
            LO,
            "The settled RMSE over the settled puzzles' rating standard deviation (predicting \
             their mean scores 1).",
        ),
        q(
            "chosen",
            "Shipped",
            "",
            0,
            None,
            "True on the family of the model `--save-model` saved (the whole choice run again \
             on every puzzle); false on `selected`, and on every row without `--save-model`.",
        ),
    ],
};

pub const DIFFICULTY_PREDICTIONS: Output = Output {
    name: "difficulty --predict",
    title: "Expected puzzle ratings",
    doc: "`evallab difficulty --predict FILE`: a saved model's expected rating of each puzzle, \
          in puzzle id order (the model is not refitted).",
    columns: &[
        PUZZLE_ID,
        q(
            "rating",
            "Rating",
            "",
            0,
            None,
            "The puzzle's Lichess rating.",
        ),
        q(
            "rating_deviation",
            "Rating deviation",
            "",
            0,
            None,
            "The rating's deviation (RatingDeviation).",
        ),
        q(
            "expected_rating",
            "Expected rating",
            "",
            0,
            None,
            "The model's expected rating of the puzzle; empty when it is not priced (a solver \
             position lacks the analysis or the policy).",
        ),
    ],
};

pub const DIFFICULTY_BREAKDOWN: Output = Output {
    name: "difficulty --breakdown",
    title: "Expected ratings per group",
    doc: "`evallab difficulty --models --breakdown band|theme` (the whole choice's out-of-fold \
          predictions) or `--predict FILE --breakdown band|theme` (the saved model's): the \
          predictions against the ratings per 200-point rating band or per Lichess theme.",
    columns: &[
        q(
            "group",
            "Group",
            "",
            0,
            None,
            "`all` (every priced puzzle), then the rating bands in order (`0800-0999`) or the \
             themes, most puzzles first (a puzzle in each of its themes); groups with fewer \
             than `--min-theme` puzzles are left out.",
        ),
        q("n", "Puzzles", "", 0, None, "Priced puzzles in the group."),
        q(
            "rating_mean",
            "Mean rating",
            "",
            0,
            None,
            "Their mean Lichess rating.",
        ),
        q(
            "expected_mean",
            "Mean expected rating",
            "",
            0,
            None,
            "Their mean expected rating.",
        ),
        q(
            "expected_sd",
            "Expected rating sd",
            "",
            0,
            None,
            "The expected ratings' standard deviation (over n).",
        ),
        q(
            "expected_p10",
            "Expected rating p10",
            "",
            0,
            None,
            "The expected ratings' 10th percentile (nearest rank).",
        ),
        q(
            "expected_p90",
            "Expected rating p90",
            "",
            0,
            None,
            "The expected ratings' 90th percentile (nearest rank).",
        ),
        q(
            "rho",
            "Spearman's rho",
            "",
            3,
            HI,
            "Spearman's rho of the expected ratings with the ratings; null when undefined.",
        ),
        q(
            "mae",
            "MAE",
            "rating points",
            0,
            LO,
            "Mean absolute error of the expected ratings.",
        ),
        q(
            "rmse",
            "RMSE",
            "rating points",
            0,
            LO,
            "Root mean squared error of the expected ratings.",
        ),
        q(
            "mae_constant",
            "MAE of the mean",
            "rating points",
            0,
            None,
            "The mean absolute error of predicting every puzzle the mean rating of all priced \
             puzzles: the constant to beat.",
        ),
    ],
};

// ---------------------------------------------------------------------------
// openings

pub const OPENING_CLASSIFICATION: Output = Output {
    name: "openings",
    title: "Opening classification",
    doc: "`evallab openings`: the counts of the per-game classification it stores as the \
          dataset's `openings` table, over every game of the dataset.",
    columns: &[
        q("games", "Games", "", 0, None, "Games of the dataset."),
        q(
            "classified",
            "Classified",
            "",
            0,
            None,
            "Games with an opening name: a table line's position reached, or a Chess960 start \
             position.",
        ),
        q(
            "eco_tagged",
            "ECO tagged",
            "",
            0,
            None,
            "Games with an ECO tag.",
        ),
        q(
            "tagged_and_classified",
            "Tagged and classified",
            "",
            0,
            None,
            "Games with an ECO tag that reached a table line (a Chess960 start name does not \
             count).",
        ),
        q(
            "agreeing",
            "Agreeing",
            "",
            0,
            None,
            "Of those, games whose ECO tag equals the line's ECO code.",
        ),
        q(
            "classified_pct",
            "Classified",
            "%",
            1,
            None,
            "Classified games of all games.",
        ),
        q(
            "agreeing_pct",
            "Agreeing",
            "%",
            1,
            None,
            "Agreeing games of the tagged and classified ones; null when there is none.",
        ),
    ],
};
