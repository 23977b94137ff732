//! The results commands' outputs: standings, crosstable, ratings, pairs and opening-stats.

use super::quantity::*;

const GAMES_WON: Quantity = q("wins", "Wins", "", 0, HI, "Those games the engine won.");
const GAMES_DRAWN: Quantity = q("draws", "Draws", "", 0, None, "Those games drawn.");
const GAMES_LOST: Quantity = q(
    "losses",
    "Losses",
    "",
    0,
    LO,
    "Those games the engine lost.",
);

// ---------------------------------------------------------------------------
// Group keys and names, shared by the outputs below.

/// The row's engine, names merged by `--family`.
const PLAYER: Quantity = q(
    "engine",
    "Engine",
    "",
    0,
    None,
    "The engine: the player's name, after `--family` merging.",
);
const OPPONENT: Quantity = q(
    "opponent",
    "Opponent",
    "",
    0,
    None,
    "The other engine (after `--family` merging).",
);
const ECO: Quantity = q(
    "eco",
    "ECO",
    "",
    0,
    None,
    "The opening's ECO code: the games' ECO tag, or with `--source classified` the ECO of \
     the game's line in the `openings` table; empty for games without one.",
);

// ---------------------------------------------------------------------------
// standings

/// Finished games of an engine (standings, crosstable).
const FINISHED_GAMES: Quantity = q(
    "games",
    "Games",
    "",
    0,
    None,
    "Finished games (1-0, 0-1, 1/2-1/2) the engine played in the group.",
);
const FINISHED_WINS: Quantity = q("wins", "Wins", "", 0, HI, "Finished games won.");
const FINISHED_DRAWS: Quantity = q("draws", "Draws", "", 0, None, "Finished games drawn.");
const FINISHED_LOSSES: Quantity = q("losses", "Losses", "", 0, LO, "Finished games lost.");
const STANDING_POINTS: Quantity = q(
    "points",
    "Points",
    "",
    1,
    HI,
    "Points in the finished games: a win 1, a draw ½.",
);
const STANDING_SCORE_PCT: Quantity = q(
    "score_pct",
    "Score",
    "%",
    1,
    HI,
    "Points per finished game, in % (100 · points / games); empty without one.",
);
const STANDING_RANK: Quantity = q(
    "rank",
    "Rank",
    "",
    0,
    None,
    "Place in the group: by points, then Sonneborn–Berger, then wins; engines equal on all \
     three share the rank (1, 2, 2, 4); empty for an engine without a finished game.",
);

pub const STANDINGS: Output = Output {
    name: "standings",
    title: "Standings",
    doc: "`evallab standings`: one row per event (`--by event,engine`, the default), TCEC \
          season (`--by season,engine`) or all games (`--by engine`) and engine, in rank \
          order: results, the colour split, Sonneborn–Berger and how the games ended \
          (docs/definitions/standings.md). `--engine` hides rows; points, Sonneborn–Berger \
          and ranks stay those of the whole group.",
    columns: &[
        EVENT,
        SEASON,
        STANDING_RANK,
        PLAYER,
        FINISHED_GAMES,
        FINISHED_WINS,
        FINISHED_DRAWS,
        FINISHED_LOSSES,
        STANDING_POINTS,
        STANDING_SCORE_PCT,
        q(
            "white_games",
            "Games with White",
            "",
            0,
            None,
            "Finished games it had White.",
        ),
        q(
            "white_points",
            "Points with White",
            "",
            1,
            HI,
            "Points in the finished games it had White.",
        ),
        q(
            "black_games",
            "Games with Black",
            "",
            0,
            None,
            "Finished games it had Black.",
        ),
        q(
            "black_points",
            "Points with Black",
            "",
            1,
            HI,
            "Points in the finished games it had Black.",
        ),
        q(
            "sonneborn_berger",
            "Sonneborn–Berger",
            "",
            2,
            HI,
            "The tie-break (FIDE): over the engine's games, the opponent's points in the group \
             for a win, half of them for a draw, nothing for a loss.",
        ),
        q(
            "end_*",
            "Games ended by class",
            "",
            0,
            None,
            "One column per termination class, always all 15, `*` ranging over mate, win_rule, \
             draw_rule, tablebase, fifty_moves, repetition, stalemate, insufficient_material, \
             time, crash, resignation, manual, adjudication, unfinished and unknown: the \
             engine's games that ended so (`end_unfinished` its `*` games, which count \
             nowhere else).",
        ),
        built(q(
            "endings",
            "How the games ended",
            "",
            0,
            None,
            "Built by the report from the `end_*` columns: the termination classes that occur, \
             each with its count of the engine's games.",
        )),
    ],
};

pub const STANDINGS_TERMINATIONS: Output = Output {
    name: "standings --terminations",
    title: "How the games ended",
    doc: "`evallab standings --terminations`: the number and share of games per termination \
          class in each event (the default), season (`--by season,engine`) or the whole \
          selection (`--by engine`), each game once, most frequent first \
          (docs/definitions/standings.md).",
    columns: &[
        EVENT,
        SEASON,
        q(
            "termination_class",
            "Termination class",
            "",
            0,
            None,
            "How the games ended, from their Result, Termination and TerminationDetails tags: \
             mate, win_rule, draw_rule, tablebase, fifty_moves, repetition, stalemate, \
             insufficient_material, time, crash, resignation, manual, adjudication, \
             unfinished (result `*`) or unknown (the tags do not say).",
        ),
        q(
            "games",
            "Games",
            "",
            0,
            None,
            "Games of the group that ended so, each game once, unfinished ones included; with \
             `--engine`, the games an engine it matches played.",
        ),
        q(
            "pct",
            "Share of games",
            "%",
            1,
            None,
            "Those games' share of the group's games, in %.",
        ),
    ],
};

// ---------------------------------------------------------------------------
// crosstable

/// A colour's W/D/L count in the long crosstable.
const fn colour_count(name: &'static str, label: &'static str, doc: &'static str) -> Quantity {
    q(name, label, "", 0, None, doc)
}

pub const CROSSTABLE_LONG: Output = Output {
    name: "crosstable",
    title: "Head-to-head results",
    doc: "`evallab crosstable`: one row per event (`--by event,engine`, the default), TCEC \
          season (`--by season,engine`) or all games (`--by engine`), engine and opponent \
          that met in finished games, sorted by them; A's wins against B are B's losses \
          against A. `--engine` keeps the rows of the engines it matches \
          (docs/definitions/standings.md).",
    columns: &[
        EVENT,
        SEASON,
        PLAYER,
        OPPONENT,
        q(
            "games",
            "Games",
            "",
            0,
            None,
            "Finished games between the engine and the opponent in the group.",
        ),
        GAMES_WON,
        GAMES_DRAWN,
        GAMES_LOST,
        q(
            "points",
            "Points",
            "",
            1,
            HI,
            "The engine's points against the opponent: a win 1, a draw ½.",
        ),
        colour_count(
            "white_wins",
            "Wins with White",
            "Games the engine won with White against the opponent.",
        ),
        colour_count(
            "white_draws",
            "Draws with White",
            "Games the engine drew with White against the opponent.",
        ),
        colour_count(
            "white_losses",
            "Losses with White",
            "Games the engine lost with White against the opponent.",
        ),
        colour_count(
            "black_wins",
            "Wins with Black",
            "Games the engine won with Black against the opponent.",
        ),
        colour_count(
            "black_draws",
            "Draws with Black",
            "Games the engine drew with Black against the opponent.",
        ),
        colour_count(
            "black_losses",
            "Losses with Black",
            "Games the engine lost with Black against the opponent.",
        ),
    ],
};

pub const CROSSTABLE: Output = Output {
    name: "crosstable --wide",
    title: "Crosstable",
    doc: "`evallab crosstable --wide`: the head-to-head matrix, one row per engine of the \
          standings (in their order: rank order within an event) and one column per \
          opponent with the engine's points/games against it.",
    columns: &[
        EVENT,
        SEASON,
        STANDING_RANK,
        PLAYER,
        STANDING_POINTS,
        FINISHED_GAMES,
        q(
            "*",
            "Against opponent",
            "points/games",
            0,
            None,
            "One column per opponent, `*` ranging over the engines of the table in standings \
             order, then any other opponent by name: the engine's points (one decimal) and \
             finished games against it, as `2.5/4`; empty where the two did not meet. An \
             opponent named like another column (`games`) is `vs games`.",
        ),
    ],
};

// ---------------------------------------------------------------------------
// ratings

const RATING_KIND: Quantity = q(
    "kind",
    "Kind",
    "",
    0,
    None,
    "How the engine enters the fit: `normal`, or `all wins` / `all losses` when it won or \
     lost every game (set aside, then rated where that had even odds: R6, R7).",
);
const RATING_POINTS: Quantity = q(
    "points",
    "Points",
    "",
    1,
    HI,
    "Points in the engine's games with a result in the selection, a win 1 and a draw ½ \
     (Ordo's POINTS).",
);
const RATING_PLAYED: Quantity = q(
    "played",
    "Games",
    "",
    0,
    None,
    "The engine's games with a result in the selection (Ordo's PLAYED; with `--engine`, only \
     games between two engines it matches).",
);

pub const RATINGS: Output = Output {
    name: "ratings",
    title: "Ratings",
    doc: "`evallab ratings` (also with `--each-group`): Ordo's maximum-likelihood Elo, one row \
          per engine, the rated ones by group, then rating, then those not rated with the \
          reason (docs/definitions/ratings.md).",
    columns: &[
        q(
            "rank",
            "Rank",
            "",
            0,
            None,
            "Place among the rated engines in the table's order (by group, then rating), \
             numbered on across groups; empty for an engine not rated.",
        ),
        PLAYER,
        q(
            "rating",
            "Elo",
            "",
            0,
            HI,
            "The rating: the rated engines of its group average `--average` (2300; those that \
             won or lost every game left out of the average), or the `--anchor` has it; empty \
             for an engine not rated.",
        ),
        q(
            "error",
            "± Elo",
            "95 %",
            0,
            LO,
            "Half the 95 % interval of the rating: its standard deviation over the \
             `--bootstrap` replays times the normal quantile of `--level`; empty without \
             replays, for the anchor, or when the rating does not vary.",
        ),
        RATING_POINTS,
        RATING_PLAYED,
        q(
            "score_pct",
            "Score",
            "%",
            1,
            HI,
            "Points per game, in % (100 · points / played).",
        ),
        q(
            "cfs_next",
            "CFS next",
            "%",
            0,
            None,
            "Confidence (Ordo's LOS) that the engine is stronger than the next one down in its \
             group, Φ(Δ / σ) with σ the spread of their difference over the replays; empty for a \
             group's last engine, without replays, or when the difference never varies.",
        ),
        q(
            "wins",
            "Wins",
            "",
            0,
            HI,
            "The engine's games won in the selection.",
        ),
        q(
            "draws",
            "Draws",
            "",
            0,
            None,
            "The engine's games drawn in the selection.",
        ),
        q(
            "losses",
            "Losses",
            "",
            0,
            LO,
            "The engine's games lost in the selection.",
        ),
        q(
            "group",
            "Group",
            "",
            0,
            None,
            "The connectivity group the engine is in (R9), numbered as `ratings --groups` numbers \
             it, rated or not (the summary's `group`); empty for an engine in no group.",
        ),
        RATING_KIND,
        q(
            "reason",
            "Why none",
            "",
            0,
            None,
            "Why the engine has no rating (alone in its group, not connected to the anchor's \
             group, no finite solution, opponents in no one rated group); empty when rated.",
        ),
    ],
};

/// Written beside `-o FILE.EXT` as `FILE.summary.EXT`; without `-o`, as a
/// text table on stderr.
pub const RATINGS_SUMMARY: Output = Output {
    name: "ratings (summary)",
    title: "Rating parameters",
    doc: "`evallab ratings`'s summary, beside `-o FILE.EXT` as `FILE.summary.EXT` (without \
          `-o`, as a text table on stderr): the fitted parameters per connectivity group \
          rated.",
    columns: &[
        q(
            "group",
            "Group",
            "",
            0,
            None,
            "The connectivity group rated (R9), numbered as in the ratings' `group` and \
             `--groups` (a group that could not be rated has no row).",
        ),
        q(
            "engines",
            "Engines",
            "",
            0,
            None,
            "Engines rated in the group, those that won or lost every game included.",
        ),
        q(
            "games",
            "Games",
            "",
            0,
            None,
            "Games with a result between the group's engines.",
        ),
        q(
            "reference",
            "Reference (anchor)",
            "",
            0,
            None,
            "What the group's ratings are relative to: `average 2300` (its rated engines \
             average `--average`) or `NAME = 2300` (the `--anchor`).",
        ),
        q(
            "white_advantage",
            "White advantage",
            "Elo",
            0,
            None,
            "The Elo White's move is worth: fitted (`--white auto`, R8) or the fixed `--white`.",
        ),
        q(
            "white_sd",
            "± White",
            "Elo",
            0,
            LO,
            "Its standard deviation over the replays and the fit (as Ordo's); empty when it is \
             fixed or without replays.",
        ),
        q(
            "draw_rate_pct",
            "Draw rate of equals",
            "%",
            1,
            None,
            "The draw rate between equal engines: fitted (`--draw-rate auto`, R8) or the fixed \
             `--draw-rate`.",
        ),
        q(
            "draw_rate_sd_pct",
            "± Draw rate of equals",
            "%",
            1,
            LO,
            "Its standard deviation over the replays and the fit, in percentage points; empty \
             when it is fixed or without replays.",
        ),
        q(
            "bootstrap",
            "Replays",
            "",
            0,
            None,
            "Replays behind the errors and CFS: `--bootstrap`, or 0 without any (`--bootstrap` \
             0 or 1).",
        ),
        q(
            "level",
            "Level",
            "",
            3,
            None,
            "The level of the errors' intervals, a fraction (`--level`).",
        ),
        q(
            "disconnected_replays",
            "Split replays",
            "",
            0,
            None,
            "Replays that still split into groups after the redraws (R11), rated on their \
             largest group.",
        ),
        q(
            "solver",
            "Solver",
            "",
            0,
            None,
            "How the rating equations were solved: `newton` or `ordo` (`--solver`).",
        ),
        q(
            "note",
            "Note",
            "",
            0,
            None,
            "A warning when the errors need one (a fitted draw rate where one colour never won: \
             R8); empty otherwise.",
        ),
    ],
};

pub const RATINGS_GROUPS: Output = Output {
    name: "ratings --groups",
    title: "Connectivity groups",
    doc: "`evallab ratings --groups`: each engine's connectivity group instead of the ratings \
          (Ordo's -g), by group, engines without one last (docs/definitions/ratings.md, R9).",
    columns: &[
        PLAYER,
        q(
            "group",
            "Group",
            "",
            0,
            None,
            "The engine's connectivity group (R9), numbered from 1 over all groups (as \
             `ratings --each-group` numbers them); an engine that won or lost every game joins \
             its opponents' group when they are all in one, else empty.",
        ),
        q(
            "group_size",
            "Group size",
            "",
            0,
            None,
            "Engines in that group; empty without a group.",
        ),
        RATING_KIND,
        RATING_POINTS,
        RATING_PLAYED,
    ],
};

pub const RATINGS_LOS: Output = Output {
    name: "ratings --los-matrix",
    title: "Confidence matrix",
    doc: "`evallab ratings --los-matrix FILE` writes it to FILE (Ordo's -C): the CFS (LOS) of \
          every pair of rated engines.",
    columns: &[
        q(
            "engine",
            "Engine",
            "",
            0,
            None,
            "The row's engine: the rated engines in the ratings' order (by group, then rating).",
        ),
        q(
            "*",
            "CFS over",
            "%",
            0,
            None,
            "One column per rated engine, `*` ranging over their names in the rows' order: the \
             confidence that the row's engine is stronger than the column's; empty on the \
             diagonal, across groups, and without replays. An engine named `engine` is \
             `vs engine`.",
        ),
    ],
};

// ---------------------------------------------------------------------------
// pairs

/// A pentanomial bin: pairs scoring `label` points of 2.
const fn bin(name: &'static str, label: &'static str, doc: &'static str) -> Quantity {
    q(name, label, "pairs", 0, None, doc)
}

pub const PAIRS: Output = Output {
    name: "pairs",
    title: "Game pairs",
    doc: "`evallab pairs`: colour-swapped game pairs per event (`--by event,engine`, the \
          default), TCEC season (`--by season,engine`) or all events (`--by engine`) and \
          engine pair, pentanomial; with `--sprt` the GSPRT (docs/definitions/pairs.md).",
    columns: &[
        EVENT,
        SEASON,
        q(
            "engine",
            "Engine",
            "",
            0,
            None,
            "The engine whose view the row takes (after `--family`): the first by name of the \
             two, or with `--engine` each one it matches.",
        ),
        OPPONENT,
        q(
            "pairs",
            "Pairs",
            "",
            0,
            None,
            "Colour-swapped pairs of the two in the group: one opening played twice, the \
             colours swapped.",
        ),
        bin("ll", "0", "Pairs scoring 0 points of 2 (two losses)."),
        bin("ld", "½", "Pairs scoring ½ (a loss and a draw)."),
        bin(
            "dd_wl",
            "1",
            "Pairs scoring 1 (two draws, or a win and a loss).",
        ),
        bin("wd", "1½", "Pairs scoring 1½ (a win and a draw)."),
        bin("ww", "2", "Pairs scoring 2 (two wins)."),
        q(
            "busted",
            "Busted",
            "pairs",
            0,
            None,
            "Pairs scoring 1 with a win each (each engine won with the same colour): part of \
             `dd_wl`.",
        ),
        q(
            "wins",
            "Wins",
            "",
            0,
            None,
            "Games of the pairs the engine won.",
        ),
        q("draws", "Draws", "", 0, None, "Games of the pairs drawn."),
        q(
            "losses",
            "Losses",
            "",
            0,
            None,
            "Games of the pairs the engine lost.",
        ),
        q(
            "unpaired",
            "Unpaired games",
            "",
            0,
            None,
            "Games between the two in the group that are in no pair (unfinished ones \
             included).",
        ),
        q(
            "score",
            "Score",
            "",
            3,
            None,
            "The engine's points per game over the pairs, a fraction (pair points / 2, \
             averaged).",
        ),
        q(
            "score_se",
            "Score standard error",
            "",
            3,
            LO,
            "The standard error of the score from the pairs: √(σ²/n), σ² the variance of the \
             pair scores, n the pairs.",
        ),
        q(
            "score_se_trinomial",
            "Score standard error if independent",
            "",
            3,
            None,
            "The same from the games as if independent (trinomial).",
        ),
        q(
            "se_ratio",
            "Standard error ratio",
            "",
            2,
            None,
            "score_se / score_se_trinomial: below 1 when a pair's two games are negatively \
             correlated or the colours score differently; empty when either is 0.",
        ),
        q(
            "elo",
            "Elo difference",
            "",
            0,
            None,
            "The engine's logistic Elo over the opponent from the score, −400 log10(1/score − \
             1); empty at a score of 0 or 1.",
        ),
        q(
            "elo_lo",
            "Elo low",
            "95 %",
            0,
            None,
            "The low end of its 95 % interval, the Elo of score − 1.96 · score_se; empty where \
             that leaves (0, 1) or the variance is 0.",
        ),
        q(
            "elo_hi",
            "Elo high",
            "95 %",
            0,
            None,
            "The high end, the Elo of score + 1.96 · score_se; empty likewise.",
        ),
        q(
            "elo_error",
            "± Elo",
            "95 %",
            0,
            LO,
            "Half its 95 % interval, (elo_hi − elo_lo) / 2, from the pairs (as fastchess \
             prints `elo ± error`).",
        ),
        q(
            "elo_error_trinomial",
            "± Elo if independent",
            "95 %",
            0,
            None,
            "The same from the games as if independent: larger than the pairs' when the pairs' \
             games are negatively correlated.",
        ),
        q(
            "nelo",
            "Normalized Elo",
            "",
            0,
            None,
            "(score − ½) / (√2 σ) · 800 / ln 10, σ the pair scores' standard deviation; empty \
             when it is 0.",
        ),
        q(
            "nelo_error",
            "± Normalized Elo",
            "95 %",
            0,
            LO,
            "Half its 95 % interval, 1.96 · score_se / (√2 σ) · 800 / ln 10.",
        ),
        q(
            "llr",
            "LLR",
            "",
            2,
            None,
            "With `--sprt`: the GSPRT log-likelihood ratio of H1 against H0 on the pentanomial \
             counts (fastchess's; `--sprt-model` sets the Elo scale of the bounds); empty \
             without pairs.",
        ),
        q(
            "llr_lower",
            "LLR lower bound",
            "",
            2,
            None,
            "With `--sprt`: ln(β / (1 − α)); H0 is accepted at or below it.",
        ),
        q(
            "llr_upper",
            "LLR upper bound",
            "",
            2,
            None,
            "With `--sprt`: ln((1 − β) / α); H1 is accepted at or above it.",
        ),
        q(
            "sprt",
            "SPRT",
            "",
            0,
            None,
            "With `--sprt`: `H1 accepted`, `H0 accepted` or `continue`; empty without pairs.",
        ),
        q(
            "reason",
            "Why none",
            "",
            0,
            None,
            "Why values are missing: no pairs, a score of 0 or 100 % (Elo not finite), every \
             pair in one bin (variance 0), or an interval end at a score of 0 or 100 %; empty \
             otherwise.",
        ),
    ],
};

pub const PAIRS_OPENINGS: Output = Output {
    name: "pairs --openings",
    title: "Decisive and busted openings",
    doc: "`evallab pairs --openings`: the pairs that are reverse kills (2–0), other decisive \
          openings (1½–½) or busted (1–1, each engine winning with the same colour), one row \
          each in game order; with `--engine`, the pairs of an engine it matches \
          (docs/definitions/pairs.md, R3–R5).",
    columns: &[
        q(
            "event",
            "Event",
            "",
            0,
            None,
            "The pair's event (its games' Event tag).",
        ),
        q(
            "first_round",
            "First round",
            "",
            0,
            None,
            "The first game's Round tag.",
        ),
        q(
            "second_round",
            "Second round",
            "",
            0,
            None,
            "The second game's Round tag.",
        ),
        q(
            "first_game_id",
            "First game id",
            "",
            0,
            None,
            "The first game's id in the dataset (`games.game_id`).",
        ),
        q(
            "second_game_id",
            "Second game id",
            "",
            0,
            None,
            "The second game's id in the dataset.",
        ),
        q(
            "engine",
            "Engine",
            "",
            0,
            None,
            "White in the first game (after `--family`): the pair's scores are its.",
        ),
        q(
            "opponent",
            "Opponent",
            "",
            0,
            None,
            "Black in the first game (after `--family`).",
        ),
        q(
            "first_result",
            "First result",
            "",
            0,
            None,
            "The first game's result (1-0, 0-1 or 1/2-1/2).",
        ),
        q(
            "second_result",
            "Second result",
            "",
            0,
            None,
            "The second game's result (the engine has Black).",
        ),
        q(
            "pair_score",
            "Pair score",
            "",
            0,
            None,
            "The engine's points and the opponent's over the pair: 2-0, 1.5-0.5, 1-1, 0.5-1.5 \
             or 0-2.",
        ),
        q(
            "kind",
            "Kind",
            "",
            0,
            None,
            "`reverse kill` (one engine won both games), `decisive` (won 1½–½) or `busted` \
             (1–1, each engine winning with the same colour).",
        ),
        q(
            "winner",
            "Winner",
            "",
            0,
            None,
            "The engine that won the pair; empty for a busted one.",
        ),
        q("eco", "ECO", "", 0, None, "The first game's ECO tag."),
        q(
            "opening",
            "Opening",
            "",
            0,
            None,
            "The first game's Opening tag.",
        ),
        q(
            "opening_ply",
            "Opening plies",
            "",
            0,
            None,
            "The ply of the position the pair shares (its opening): the first game's last book \
             move, 0 for a set-up start without book moves, 8 for a standard start without \
             them (R2).",
        ),
        q(
            "opening_moves",
            "Opening moves",
            "",
            0,
            None,
            "The first game's moves in SAN up to that ply, space-separated.",
        ),
    ],
};

pub const PAIRS_UNPAIRED: Output = Output {
    name: "pairs --unpaired",
    title: "Games in no pair",
    doc: "`evallab pairs --unpaired`: the selected games in no colour-swapped pair, with the \
          reason, by input file and game number; with `--engine`, those where White or Black \
          matches.",
    columns: &[
        GAME_ID,
        GAME_EVENT,
        ROUND,
        q(
            "white",
            "White",
            "",
            0,
            None,
            "The White player (after `--family`).",
        ),
        q(
            "black",
            "Black",
            "",
            0,
            None,
            "The Black player (after `--family`).",
        ),
        q(
            "result",
            "Result",
            "",
            0,
            None,
            "The recorded result: 1-0, 0-1, 1/2-1/2 or *.",
        ),
        q(
            "source_file",
            "Source file",
            "",
            0,
            None,
            "The input file the game was ingested from, as given to `evallab ingest`.",
        ),
        q(
            "game_number",
            "Game number",
            "",
            0,
            None,
            "The game's 1-based position in that file.",
        ),
        q(
            "reason",
            "Why unpaired",
            "",
            0,
            None,
            "Why the game is in no pair: unfinished (result *), a player's name missing or \
             both the same, no opening (no book moves from the standard start and fewer than 8 \
             plies), or no colour-swapped game of the same engines on the same opening in its \
             event and file.",
        ),
    ],
};

// ---------------------------------------------------------------------------
// opening-stats

/// An opening's finished games.
const OPENING_GAMES: Quantity = q(
    "games",
    "Games",
    "",
    0,
    None,
    "Finished games (1-0, 0-1, 1/2-1/2) of the row; with `--engine`, those an engine it \
     matches played.",
);
const OPENING_NAME: Quantity = q(
    "opening",
    "Opening",
    "",
    0,
    None,
    "The opening: the games' Opening tag, or with `--source classified` the game's line in \
     the `openings` table; with `--by start`, the start position's name (`Chess960 SP 518 \
     RNBQKBNR`, White's then Black's when they differ); empty for games without one.",
);
/// The opening of `--by opening,engine` (no `--by start` there).
const ENGINE_OPENING: Quantity = q(
    "opening",
    "Opening",
    "",
    0,
    None,
    "The opening: the games' Opening tag, or with `--source classified` the game's line in \
     the `openings` table; empty for games without one.",
);

pub const OPENINGS: Output = Output {
    name: "opening-stats",
    title: "Openings",
    doc: "`evallab opening-stats`: results per opening (most played first), or with `--by \
          start` per Chess960 start position (in SP order; a start that is no Chess960 \
          arrangement last, by its FEN), over finished games, with the colour-swapped pairs by their first game's opening; `--by event,opening` and `--by \
          event,start` split the rows per event (docs/definitions/standings.md).",
    columns: &[
        q(
            "event",
            "Event",
            "",
            0,
            None,
            "The event (the games' Event tag), with `--by event,opening` or `--by event,start`.",
        ),
        ECO,
        q(
            "chess960_sp_white",
            "Chess960 SP of White",
            "",
            0,
            None,
            "With `--by start`: the Scharnagl number (0–959) of White's back rank at the start.",
        ),
        q(
            "chess960_sp_black",
            "Chess960 SP of Black",
            "",
            0,
            None,
            "With `--by start`: the Scharnagl number of Black's back rank (read by file, as \
             White's); it differs from White's in Double Fischer Random.",
        ),
        OPENING_NAME,
        OPENING_GAMES,
        q("white_wins", "White wins", "", 0, None, "Games White won."),
        q("draws", "Draws", "", 0, None, "Games drawn."),
        q("black_wins", "Black wins", "", 0, None, "Games Black won."),
        q(
            "white_score_pct",
            "White's score",
            "%",
            0,
            None,
            "White's points per game in %, a win 1 and a draw ½ (the report shows it with its \
             interval, `white_score_lo`–`white_score_hi`).",
        ),
        q(
            "white_score_lo",
            "White's score low",
            "95 %",
            0,
            None,
            "The low end of its 95 % Wilson score interval in %, x = White's points, n = games \
             (conservative with draws: never too narrow).",
        ),
        q(
            "white_score_hi",
            "White's score high",
            "95 %",
            0,
            None,
            "The high end of that interval, in %.",
        ),
        q(
            "draw_pct",
            "Draws",
            "%",
            0,
            None,
            "Drawn games of all games, in %.",
        ),
        q(
            "draw_lo",
            "Draws low",
            "95 %",
            0,
            None,
            "The low end of its 95 % Wilson score interval, in %.",
        ),
        q(
            "draw_hi",
            "Draws high",
            "95 %",
            0,
            None,
            "The high end of that interval, in %.",
        ),
        q(
            "decisive_pct",
            "Decisive games",
            "%",
            0,
            None,
            "Games won by either side of all games, in % (100 − the draws').",
        ),
        q(
            "pairs",
            "Pairs",
            "",
            0,
            None,
            "Colour-swapped game pairs (`evallab pairs`) whose first game is of the row; with \
             `--engine`, those an engine it matches played.",
        ),
        q(
            "decisive_pairs",
            "Decisive pairs",
            "",
            0,
            None,
            "Pairs won by one engine, 2–0 or 1½–½ (TCEC's decisive openings).",
        ),
        q(
            "reverse_kills",
            "Reverse kills",
            "",
            0,
            None,
            "Pairs one engine won 2–0 (among the decisive pairs).",
        ),
        q(
            "busted_pairs",
            "Busted",
            "",
            0,
            None,
            "Pairs scored 1–1 with each engine winning with the same colour.",
        ),
    ],
};

pub const OPENINGS_PER_ENGINE: Output = Output {
    name: "opening-stats --by opening,engine",
    title: "Openings per engine",
    doc: "`evallab opening-stats --by opening,engine`: one row per opening and engine, over \
          finished games, by opening, then engine (docs/definitions/standings.md).",
    columns: &[
        ECO,
        ENGINE_OPENING,
        PLAYER,
        q(
            "games",
            "Games",
            "",
            0,
            None,
            "Finished games (1-0, 0-1, 1/2-1/2) the engine played with the opening.",
        ),
        GAMES_WON,
        GAMES_DRAWN,
        GAMES_LOST,
        q(
            "points",
            "Points",
            "",
            1,
            HI,
            "The engine's points in them: a win 1, a draw ½.",
        ),
        q("score_pct", "Score", "%", 0, HI, "Points per game, in %."),
        q(
            "score_lo",
            "Score low",
            "95 %",
            0,
            None,
            "The low end of its 95 % Wilson score interval in %, x = points, n = games \
             (conservative with draws: never too narrow).",
        ),
        q(
            "score_hi",
            "Score high",
            "95 %",
            0,
            None,
            "The high end of that interval, in %.",
        ),
    ],
};
