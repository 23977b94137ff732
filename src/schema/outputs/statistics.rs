//! Outputs of balance, calibrate, wdl, relevance, eas, adjudicate and engine-stats.

use super::quantity::*;

const MODEL: Quantity = q("model", "Model", "", 0, None, "The eval → outcome model.");
const GAME_PLIES: Quantity = q("plies", "Plies", "", 0, None, "Plies of the game.");

// ---------------------------------------------------------------------------
// Group keys and game listings, shared by the outputs below.

/// `event` in the clock check's rows, one per era and event (no `--by`).
const CLOCK_EVENT: Quantity = q(
    "event",
    "Event",
    "",
    0,
    None,
    "The event (its games' Event tag).",
);

// ---------------------------------------------------------------------------
// balance

pub const BALANCE: Output = Output {
    name: "balance",
    title: "Win-draw balance",
    doc: "`evallab balance`: the win-draw balance x_0_5 per engine, by event (the default), by \
          season or over all events (docs/definitions/balance-calibrate.md).",
    columns: &[
        EVENT,
        SEASON,
        ENGINE,
        q(
            "games",
            "Games",
            "",
            0,
            None,
            "Games of the engine with a result (not `*`).",
        ),
        q(
            "official_wins",
            "Wins (recorded)",
            "",
            0,
            None,
            "Games the result says it won.",
        ),
        q(
            "hollow_wins",
            "Hollow wins",
            "",
            0,
            None,
            "Recorded wins whose last own eval is exactly 0.00 (typically a tablebase \
             adjudication of a position the 50-move rule makes unwinnable).",
        ),
        q(
            "wins",
            "Actual wins",
            "",
            0,
            None,
            "Recorded wins less hollow wins: W.",
        ),
        DRAWS,
        q("losses", "Losses", "", 0, None, "Games lost."),
        q(
            "non_won_with_eval",
            "Non-won with an eval",
            "",
            0,
            None,
            "Non-won games (draws, losses, hollow wins) with at least one own eval: the \
             maxima the balance is ranked among.",
        ),
        q(
            "highest_eval_without_win",
            "Highest eval without win",
            "pawns",
            2,
            None,
            "The largest maximum own eval of the non-won games (a mate in n prints as \
             10000 − n/100).",
        ),
        q(
            "highest_game_id",
            "Highest-eval game id",
            "",
            0,
            None,
            "The game of that highest eval (ties: the lowest game id).",
        ),
        q(
            "highest_round",
            "Highest-eval game",
            "round",
            0,
            None,
            "The round of that game.",
        ),
        q(
            "balance",
            "Balance x05",
            "pawns",
            2,
            None,
            "The W-th largest maximum own eval of the non-won games: the eval from which \
             the engine wins as often as not.",
        ),
        q(
            "balance_game_id",
            "Balance game id",
            "",
            0,
            None,
            "The game whose maximum sets the balance (ties: the lowest game id).",
        ),
        q(
            "balance_round",
            "Balance game",
            "round",
            0,
            None,
            "The round of the game that sets the balance.",
        ),
        q(
            "non_won_reaching_balance",
            "Non-won at balance",
            "",
            0,
            None,
            "Non-won games whose maximum own eval reached the balance (0 without a balance).",
        ),
        q(
            "reason",
            "Why none",
            "",
            0,
            None,
            "Why there is no balance: no actual wins, or fewer non-won games with an own eval \
             than actual wins.",
        ),
    ],
};

/// Built by the HTML report per engine (`render::report::sections::x05_compared`):
/// no command writes it.
pub const X05: Output = Output {
    name: "report: x05",
    title: "x05 three ways",
    doc: "The report's x05 three ways per engine (docs/definitions/wdl.md).",
    columns: &[
        built(q(
            "engine",
            "Engine",
            "",
            0,
            None,
            "The engine (player name).",
        )),
        built(q(
            "balance",
            "Balance",
            "pawns",
            2,
            None,
            "The W-th largest non-won maximum (`evallab balance`).",
        )),
        built(q(
            "ml",
            "Maximum likelihood",
            "pawns",
            2,
            None,
            "Calibrate's maximum-likelihood x05 of P(x).",
        )),
        built(q(
            "wdl_58",
            "WDL at material 58",
            "pawns",
            2,
            None,
            "a(58)/100 of the engine's WDL model in the event (with the pooled prior).",
        )),
        built(q(
            "wdl_20",
            "WDL at material 20",
            "pawns",
            2,
            None,
            "a(20)/100 of the same model (an endgame).",
        )),
        built(q(
            "wdl_positions",
            "WDL positions",
            "",
            0,
            None,
            "Positions the engine's WDL model was fitted to.",
        )),
        built(q(
            "wdl_own_share",
            "WDL own share",
            "",
            2,
            None,
            "WDL positions / (WDL positions + the prior's positions): how much of the model is the \
             engine's own data in the event, the rest the pool of the selected events.",
        )),
        built(q("note", "Note", "", 0, None, "Why there is no WDL model.")),
    ],
};

// ---------------------------------------------------------------------------
// calibrate

pub const CALIBRATE: Output = Output {
    name: "calibrate",
    title: "x05 calibrated",
    doc: "`evallab calibrate`: x_0_5 per engine by rank, threshold and maximum likelihood, \
          with bootstrap intervals (`--bootstrap N`; empty without), and the pooled estimate \
          (docs/definitions/balance-calibrate.md).",
    columns: &[
        EVENT,
        SEASON,
        ENGINE,
        q(
            "games",
            "Games",
            "",
            0,
            None,
            "Games of the engine with a result (not `*`).",
        ),
        q(
            "positions",
            "Positions",
            "",
            0,
            None,
            "Own evals in those games, mates left out: the positions the ml is fitted to.",
        ),
        q(
            "x05_rank",
            "x05 by rank",
            "pawns",
            2,
            None,
            "The rank estimate: the W-th largest maximum own eval of the non-won games (the \
             win-draw balance).",
        ),
        q(
            "rank_lo",
            "x05 by rank low",
            "95 %",
            2,
            None,
            "Its bootstrap interval's lower end (2.5 % percentile of the resamples of the games).",
        ),
        q(
            "rank_hi",
            "x05 by rank high",
            "95 %",
            2,
            None,
            "Its bootstrap interval's upper end (97.5 % percentile).",
        ),
        q(
            "x05_threshold",
            "x05 by threshold",
            "pawns",
            2,
            None,
            "The threshold estimate: the lowest of the games' maximum own evals x with \
             P(win | maximum own eval ≥ x) ≥ 0.5.",
        ),
        q(
            "threshold_lo",
            "x05 by threshold low",
            "95 %",
            2,
            None,
            "Its bootstrap interval's lower end.",
        ),
        q(
            "threshold_hi",
            "x05 by threshold high",
            "95 %",
            2,
            None,
            "Its bootstrap interval's upper end.",
        ),
        q(
            "x05_ml",
            "x05 by maximum likelihood",
            "pawns",
            3,
            None,
            "The x05 whose P(x) maximises the likelihood of the game results (own POV) of \
             every position with an own eval.",
        ),
        q(
            "ml_lo",
            "x05 by maximum likelihood low",
            "95 %",
            3,
            None,
            "Its bootstrap interval's lower end.",
        ),
        q(
            "ml_hi",
            "x05 by maximum likelihood high",
            "95 %",
            3,
            None,
            "Its bootstrap interval's upper end.",
        ),
        q(
            "ml_se_log",
            "Standard error of ln x05",
            "",
            3,
            LO,
            "The cluster-robust (sandwich) standard error of ln x05_ml, games as clusters.",
        ),
        q(
            "x05_pooled",
            "x05 pooled",
            "pawns",
            3,
            None,
            "The ml shrunk toward the mean of all engines by its precision (empirical Bayes \
             on ln x05), or without a usable ml the posterior mode under that prior: what \
             `--toml` writes.",
        ),
        q(
            "pooled_lo",
            "x05 pooled low",
            "95 %",
            3,
            None,
            "Its interval's lower end at `--level` (default 0.95).",
        ),
        q(
            "pooled_hi",
            "x05 pooled high",
            "95 %",
            3,
            None,
            "Its interval's upper end at `--level`.",
        ),
        q(
            "pooled_weight",
            "Own weight",
            "",
            2,
            None,
            "The weight of the engine's own estimate in the pooled value (0: the pool's mean).",
        ),
        q(
            "rank_reason",
            "Why no rank",
            "",
            0,
            None,
            "Why the rank method has no estimate, when it has none.",
        ),
        q(
            "threshold_reason",
            "Why no threshold",
            "",
            0,
            None,
            "Why the threshold method has no estimate, when it has none.",
        ),
        q(
            "ml_reason",
            "Why no maximum likelihood",
            "",
            0,
            None,
            "Why the ml has no estimate, when it has none (no own evals, no likelihood \
             maximum inside 0.02–50 pawns, or own evals from one game only).",
        ),
    ],
};

// ---------------------------------------------------------------------------
// wdl

pub const WDL: Output = Output {
    name: "wdl",
    title: "WDL model fits",
    doc: "`evallab wdl`: Stockfish's WDL model win(x) = 1/(1+exp(−(x−a)/b)) fitted as \
          WDL_model fits it, with a and b cubic in material/`--mom-target`; one row per group \
          of `--by` (docs/guide/wdl.md).",
    columns: &[
        EVENT,
        SEASON,
        q(
            "engine",
            "Engine",
            "",
            0,
            None,
            "The engine (the mover: its own evals), a group key when `--by` groups by engine.",
        ),
        q(
            "games",
            "Games",
            "",
            0,
            None,
            "Games with at least one counted eval.",
        ),
        q(
            "positions_counted",
            "Positions counted",
            "",
            0,
            None,
            "Every counted eval: non-book moves with a cp or mate eval up to move 200, in \
             games with a result whose Termination tag is none of scoreWDLstat's five bad ones \
             (time forfeit, abandoned, …).",
        ),
        q(
            "positions",
            "Positions fitted",
            "",
            0,
            None,
            "Counted evals in the fit's window (moves, material and |eval| within the \
             `--move-*`, `--material-*` and `--eval-max` limits).",
        ),
        q(
            "wins",
            "Wins",
            "positions",
            0,
            None,
            "Positions in the window whose game the mover won.",
        ),
        q(
            "draws",
            "Draws",
            "positions",
            0,
            None,
            "Positions in the window whose game was drawn.",
        ),
        q(
            "losses",
            "Losses",
            "positions",
            0,
            None,
            "Positions in the window whose game the mover lost.",
        ),
        q(
            "fitting",
            "Fitting",
            "",
            0,
            None,
            "The fit, by WDL_model's name: fitDensity, optimizeProbability or optimizeScore \
             (`--fitting`).",
        ),
        q(
            "mom_target",
            "Target material",
            "",
            0,
            None,
            "The material the polynomials are scaled to and a, b are given at (`--mom-target`).",
        ),
        q(
            "prior_positions",
            "Prior positions",
            "",
            0,
            None,
            "The pooled positions the group's fit counted beside its own (`--prior-positions`; \
             0: the group alone, as without groups, with fitDensity, or when the pool has no fit).",
        ),
        q(
            "own_share",
            "Own share",
            "share",
            3,
            None,
            "positions / (positions + prior_positions): how much of the fit is the group's own \
             data (1: none of the pool's).",
        ),
        q(
            "as0",
            "a coefficient y³",
            "cp",
            1,
            None,
            "The cubic coefficient of a(m) = ((as0·y + as1)·y + as2)·y + as3, y = material / \
             mom_target.",
        ),
        q(
            "as1",
            "a coefficient y²",
            "cp",
            1,
            None,
            "The quadratic coefficient of a(m).",
        ),
        q(
            "as2",
            "a coefficient y",
            "cp",
            1,
            None,
            "The linear coefficient of a(m).",
        ),
        q(
            "as3",
            "a coefficient 1",
            "cp",
            1,
            None,
            "The constant term of a(m).",
        ),
        q(
            "bs0",
            "b coefficient y³",
            "cp",
            1,
            None,
            "The cubic coefficient of b(m), likewise.",
        ),
        q(
            "bs1",
            "b coefficient y²",
            "cp",
            1,
            None,
            "The quadratic coefficient of b(m).",
        ),
        q(
            "bs2",
            "b coefficient y",
            "cp",
            1,
            None,
            "The linear coefficient of b(m).",
        ),
        q(
            "bs3",
            "b coefficient 1",
            "cp",
            1,
            None,
            "The constant term of b(m).",
        ),
        q(
            "a_target",
            "a at target material",
            "cp",
            0,
            None,
            "a(mom_target): the eval at which half the games are won.",
        ),
        q(
            "a_lo",
            "a low",
            "95 %",
            0,
            None,
            "Its bootstrap interval's lower end at `--level` (`--bootstrap N`; empty without).",
        ),
        q(
            "a_hi",
            "a high",
            "95 %",
            0,
            None,
            "Its bootstrap interval's upper end.",
        ),
        q(
            "b_target",
            "b at target material",
            "cp",
            0,
            None,
            "b(mom_target): the spread of the win curve.",
        ),
        q(
            "b_lo",
            "b low",
            "95 %",
            0,
            None,
            "Its bootstrap interval's lower end at `--level`.",
        ),
        q(
            "b_hi",
            "b high",
            "95 %",
            0,
            None,
            "Its bootstrap interval's upper end.",
        ),
        q(
            "x05_target",
            "x05 at target material",
            "pawns",
            2,
            None,
            "a(mom_target)/100: the seed's x_0_5 at that material.",
        ),
        q(
            "draw_rate_0",
            "Draw rate at 0.00",
            "share",
            3,
            None,
            "The model's draw rate at eval 0 at the target material, 1 − 2/(1 + e^(a/b)).",
        ),
        q(
            "objective",
            "Objective",
            "",
            4,
            None,
            "The fit's objective at its result divided by the positions (WDL_model's final \
             objective; for optimizeScore its square root).",
        ),
        q(
            "reason",
            "Why none",
            "",
            0,
            None,
            "Why the group has no fit (too few positions, too few materials with a local fit, \
             a or b out of range), or why its interval is missing.",
        ),
    ],
};

pub const WDL_VALIDATION: Output = Output {
    name: "wdl --validate",
    title: "WDL models out of sample",
    doc: "`evallab wdl --validate --train RE --test RE`: every eval → outcome model fitted on \
          the training events, scored on the test events' positions: one row per model and \
          subset (docs/guide/wdl.md).",
    columns: &[
        MODEL,
        q(
            "parameter",
            "Parameter",
            "",
            0,
            None,
            "What it was fitted to, in words (its parameter).",
        ),
        q(
            "positions",
            "Subset",
            "",
            0,
            None,
            "Which test positions: all, those in the fit window (|x| ≤ `--eval-max`, material \
             in range) or those outside the window.",
        ),
        q(
            "test_positions",
            "Positions",
            "",
            0,
            None,
            "Test positions scored (standard games, cp evals).",
        ),
        q(
            "test_games",
            "Games",
            "",
            0,
            None,
            "The games of those positions (the clusters of the intervals).",
        ),
        q(
            "log_loss",
            "Log loss",
            "",
            4,
            LO,
            "Mean log loss of the mover's predicted expected score against its game's score.",
        ),
        q(
            "log_loss_lo",
            "Log loss low",
            "95 %",
            4,
            None,
            "Its interval's lower end (clustered by game).",
        ),
        q(
            "log_loss_hi",
            "Log loss high",
            "95 %",
            4,
            None,
            "Its interval's upper end.",
        ),
        q(
            "brier",
            "Brier",
            "",
            4,
            LO,
            "Mean squared error of the expected score.",
        ),
        q(
            "brier_lo",
            "Brier low",
            "95 %",
            4,
            None,
            "Its interval's lower end.",
        ),
        q(
            "brier_hi",
            "Brier high",
            "95 %",
            4,
            None,
            "Its interval's upper end.",
        ),
        q(
            "log_loss_vs_best_x05",
            "Log loss vs best x05",
            "",
            4,
            LO,
            "Log loss minus that of P(x) at the best single x05, paired by position \
             (negative: better).",
        ),
        q(
            "vs_best_lo",
            "vs best low",
            "95 %",
            4,
            None,
            "Its interval's lower end.",
        ),
        q(
            "vs_best_hi",
            "vs best high",
            "95 %",
            4,
            None,
            "Its interval's upper end.",
        ),
        q(
            "brier_vs_best_x05",
            "Brier vs best x05",
            "",
            4,
            LO,
            "Brier minus that of P(x) at the best single x05, paired by position \
             (negative: better).",
        ),
        q(
            "brier_vs_best_lo",
            "Brier vs best low",
            "95 %",
            4,
            None,
            "Its interval's lower end.",
        ),
        q(
            "brier_vs_best_hi",
            "Brier vs best high",
            "95 %",
            4,
            None,
            "Its interval's upper end.",
        ),
    ],
};

/// Written beside `-o FILE.EXT` as `FILE.reliability.EXT`; without `-o`,
/// after the validation table on stdout.
pub const WDL_RELIABILITY: Output = Output {
    name: "wdl --validate (reliability)",
    title: "WDL models' reliability",
    doc: "`evallab wdl --validate`'s reliability table, beside `-o FILE.EXT` as \
          `FILE.reliability.EXT` (without `-o`, after the validation table): per model and \
          decile of its prediction on the test positions, the mean predicted and observed score.",
    columns: &[
        MODEL,
        q(
            "decile",
            "Decile",
            "",
            0,
            None,
            "The decile of the model's predictions, 1 the lowest.",
        ),
        q(
            "predicted",
            "Predicted",
            "score",
            3,
            None,
            "The mean predicted expected score of the decile's positions.",
        ),
        q(
            "observed",
            "Observed",
            "score",
            3,
            None,
            "The mean game score of those positions, the mover's.",
        ),
        q(
            "test_positions",
            "Positions",
            "",
            0,
            None,
            "Test positions in the decile.",
        ),
    ],
};

// ---------------------------------------------------------------------------
// relevance

const REL_MOVES: Quantity = q(
    "moves",
    "Moves",
    "",
    0,
    None,
    "The engine's non-book moves with an own eval.",
);
const LOSS_RR_TOTAL: Quantity = q(
    "loss_rr_total",
    "Total loss, reduced",
    "pawns",
    2,
    LO,
    "Sum of the drops of the own eval from its previous own eval, relevance-reduced.",
);
const LOSS_RR_MEAN: Quantity = q(
    "loss_rr_mean",
    "Mean loss, reduced",
    "pawns/move",
    3,
    LO,
    "That sum per move (a drop where the game is decided counts little).",
);
const LOSS_RAW_TOTAL: Quantity = q(
    "loss_raw_total",
    "Total loss, raw",
    "pawns",
    2,
    LO,
    "Sum of the drops of the own eval from its previous own eval, as evaluated (clamped to \
     ±100 pawns).",
);
const LOSS_RAW_MEAN: Quantity = q(
    "loss_raw_mean",
    "Mean loss, raw",
    "pawns/move",
    3,
    LO,
    "That sum per move.",
);
const REF_MOVES: Quantity = q(
    "ref_moves",
    "Moves priced",
    "",
    0,
    None,
    "Moves the reference analysis priced (a reference swing): the moves the symbol counts \
     are read from.",
);

/// A move-symbol count: `scheme_symbol`, the swings in its band.
macro_rules! symbol_count {
    ($name:literal, $label:literal, $better:expr, $doc:literal) => {
        q($name, $label, "moves", 0, $better, $doc)
    };
}

const ECON7_DUBIOUS: Quantity = symbol_count!(
    "econ7_dubious",
    "econ7 ?!",
    LO,
    "Moves whose relevance-reduced swing (with `--analysis`, the reference's reading) is a \
     drop from the econ7 `?!` threshold up to below its `?` one."
);
const ECON7_SPECULATIVE: Quantity = symbol_count!(
    "econ7_speculative",
    "econ7 !?",
    None,
    "Swings that are a gain from the econ7 `!?` threshold up to below its `!` one."
);
const ECON7_MISTAKE: Quantity = symbol_count!(
    "econ7_mistake",
    "econ7 ?",
    LO,
    "Swings that are a drop from the econ7 `?` threshold up to below its `??` one."
);
const ECON7_GOOD: Quantity = symbol_count!(
    "econ7_good",
    "econ7 !",
    HI,
    "Swings that are a gain from the econ7 `!` threshold up to below its `!!` one."
);
const ECON7_BLUNDER: Quantity = symbol_count!(
    "econ7_blunder",
    "econ7 ??",
    LO,
    "Swings that are a drop of at least the econ7 `??` threshold."
);
const ECON7_BRILLIANT: Quantity = symbol_count!(
    "econ7_brilliant",
    "econ7 !!",
    HI,
    "Swings that are a gain of at least the econ7 `!!` threshold."
);
// econ8's labels are the bare symbols: the report's relevance table shows this scheme.
const ECON8_DUBIOUS: Quantity = symbol_count!(
    "econ8_dubious",
    "?!",
    LO,
    "Moves whose relevance-reduced swing (with `--analysis`, the reference's reading) is a \
     drop reaching the dubious-move symbol of econ8 but not the mistake's."
);
const ECON8_SPECULATIVE: Quantity = symbol_count!(
    "econ8_speculative",
    "!?",
    None,
    "Swings that are a gain reaching the speculative-move symbol of econ8 but not the good \
     move's."
);
const ECON8_MISTAKE: Quantity = symbol_count!(
    "econ8_mistake",
    "?",
    LO,
    "Swings that are a drop reaching the mistake symbol of econ8 but not the blunder's."
);
const ECON8_GOOD: Quantity = symbol_count!(
    "econ8_good",
    "!",
    HI,
    "Swings that are a gain reaching the good-move symbol of econ8 but not the brilliant \
     move's."
);
const ECON8_BLUNDER: Quantity = symbol_count!(
    "econ8_blunder",
    "??",
    LO,
    "Swings that are a drop reaching the blunder symbol of econ8."
);
const ECON8_BRILLIANT: Quantity = symbol_count!(
    "econ8_brilliant",
    "!!",
    HI,
    "Swings that are a gain reaching the brilliant-move symbol of econ8."
);
const GEN20_DUBIOUS: Quantity = symbol_count!(
    "gen20_dubious",
    "gen20 ?!",
    LO,
    "Swings that are a drop from the gen20 `?!` threshold up to below its `?` one."
);
const GEN20_SPECULATIVE: Quantity = symbol_count!(
    "gen20_speculative",
    "gen20 !?",
    None,
    "Swings that are a gain from the gen20 `!?` threshold up to below its `!` one."
);
const GEN20_MISTAKE: Quantity = symbol_count!(
    "gen20_mistake",
    "gen20 ?",
    LO,
    "Swings that are a drop from the gen20 `?` threshold up to below its `??` one."
);
const GEN20_GOOD: Quantity = symbol_count!(
    "gen20_good",
    "gen20 !",
    HI,
    "Swings that are a gain from the gen20 `!` threshold up to below its `!!` one."
);
const GEN20_BLUNDER: Quantity = symbol_count!(
    "gen20_blunder",
    "gen20 ??",
    LO,
    "Swings that are a drop of at least the gen20 `??` threshold."
);
const GEN20_BRILLIANT: Quantity = symbol_count!(
    "gen20_brilliant",
    "gen20 !!",
    HI,
    "Swings that are a gain of at least the gen20 `!!` threshold."
);
const GEN12_DUBIOUS: Quantity = symbol_count!(
    "gen12_dubious",
    "gen12 ?!",
    LO,
    "Swings that are a drop from the gen12 `?!` threshold up to below its `?` one."
);
const GEN12_SPECULATIVE: Quantity = symbol_count!(
    "gen12_speculative",
    "gen12 !?",
    None,
    "Swings that are a gain from the gen12 `!?` threshold up to below its `!` one."
);
const GEN12_MISTAKE: Quantity = symbol_count!(
    "gen12_mistake",
    "gen12 ?",
    LO,
    "Swings that are a drop from the gen12 `?` threshold up to below its `??` one."
);
const GEN12_GOOD: Quantity = symbol_count!(
    "gen12_good",
    "gen12 !",
    HI,
    "Swings that are a gain from the gen12 `!` threshold up to below its `!!` one."
);
const GEN12_BLUNDER: Quantity = symbol_count!(
    "gen12_blunder",
    "gen12 ??",
    LO,
    "Swings that are a drop of at least the gen12 `??` threshold."
);
const GEN12_BRILLIANT: Quantity = symbol_count!(
    "gen12_brilliant",
    "gen12 !!",
    HI,
    "Swings that are a gain of at least the gen12 `!!` threshold."
);
const TIME_BY_CLASS: Quantity = q(
    "time_s_*",
    "Time spent",
    "s",
    1,
    None,
    "Seconds the engine spent on its moves with an own eval, by the nine-wdb class of that \
     eval from its point of view; `*` is crushing_behind, decisive_behind, moderate_behind, \
     slight_behind, equal, slight_ahead, moderate_ahead, decisive_ahead or crushing_ahead.",
);

/// The relevance summary's columns, `$extra` (the reference's) after the losses.
macro_rules! relevance_columns {
    ($($extra:expr),*) => {
        &[
            EVENT,
            SEASON,
            ENGINE,
            REL_MOVES,
            LOSS_RR_TOTAL,
            LOSS_RR_MEAN,
            LOSS_RAW_TOTAL,
            LOSS_RAW_MEAN,
            $($extra,)*
            ECON7_DUBIOUS,
            ECON7_SPECULATIVE,
            ECON7_MISTAKE,
            ECON7_GOOD,
            ECON7_BLUNDER,
            ECON7_BRILLIANT,
            ECON8_DUBIOUS,
            ECON8_SPECULATIVE,
            ECON8_MISTAKE,
            ECON8_GOOD,
            ECON8_BLUNDER,
            ECON8_BRILLIANT,
            GEN20_DUBIOUS,
            GEN20_SPECULATIVE,
            GEN20_MISTAKE,
            GEN20_GOOD,
            GEN20_BLUNDER,
            GEN20_BRILLIANT,
            GEN12_DUBIOUS,
            GEN12_SPECULATIVE,
            GEN12_MISTAKE,
            GEN12_GOOD,
            GEN12_BLUNDER,
            GEN12_BRILLIANT,
            TIME_BY_CLASS,
        ]
    };
}

pub const RELEVANCE: Output = Output {
    name: "relevance",
    title: "Relevance",
    doc: "`evallab relevance`: per engine (`--by event,engine`, `season,engine`: per event or \
          season and engine) the \
          relevance-reduced eval drops and the move symbols their swings reach, each swing \
          counted once at its highest symbol (docs/guide/relevance.md).",
    columns: relevance_columns!(),
};

/// `relevance --analysis LABEL` needs a reference analysis (`evallab
/// analyze`, an engine): its symbol counts are read from the reference.
pub const RELEVANCE_ANALYSIS: Output = Output {
    name: "relevance --analysis",
    title: "Relevance from a reference analysis",
    doc: "`evallab relevance --analysis LABEL`: the relevance summary with the move symbols \
          read from a reference analysis (MultiPV ≥ 2) instead of the archived evals' swings \
          (docs/definitions/agreement.md).",
    columns: relevance_columns!(REF_MOVES),
};

// ---------------------------------------------------------------------------
// eas

pub const EAS: Output = Output {
    name: "eas",
    title: "EAS",
    doc: "`evallab eas`: Stefan Pohl's EAS aggressiveness score per engine, ranked; with \
          `--by event,engine` (or `season,engine`) each event (season) is its own population \
          (docs/definitions/eas.md).",
    columns: &[
        EVENT,
        SEASON,
        q(
            "rank",
            "Rank",
            "",
            0,
            None,
            "Place by EAS (within its event or season with `--by`).",
        ),
        ENGINE,
        q("games", "Games", "", 0, None, "Games the engine played."),
        q(
            "wins",
            "Wins",
            "",
            0,
            None,
            "Games won, duplicates (the same moves as an earlier game) and irregular \
             terminations left out.",
        ),
        DRAWS,
        q(
            "sac1",
            "Level-1 sacrifices",
            "wins",
            0,
            HI,
            "Wins whose highest sacrifice level is 1: the winner matched the level-1 pattern \
             file and not level 2.",
        ),
        q(
            "sac1_pct",
            "Level-1 sacrifices",
            "% of wins",
            1,
            HI,
            "Those wins as a share of the wins.",
        ),
        q(
            "sac2",
            "Level-2 sacrifices",
            "wins",
            0,
            HI,
            "Wins whose highest sacrifice level is 2 (the level-1 and level-2 files matched \
             in a row).",
        ),
        q(
            "sac2_pct",
            "Level-2 sacrifices",
            "% of wins",
            1,
            HI,
            "Those wins as a share of the wins.",
        ),
        q(
            "sac3",
            "Level-3 sacrifices",
            "wins",
            0,
            HI,
            "Wins whose highest sacrifice level is 3.",
        ),
        q(
            "sac3_pct",
            "Level-3 sacrifices",
            "% of wins",
            1,
            HI,
            "Those wins as a share of the wins.",
        ),
        q(
            "sac4",
            "Level-4 sacrifices",
            "wins",
            0,
            HI,
            "Wins whose highest sacrifice level is 4.",
        ),
        q(
            "sac4_pct",
            "Level-4 sacrifices",
            "% of wins",
            1,
            HI,
            "Those wins as a share of the wins.",
        ),
        q(
            "sac5",
            "Level-5 sacrifices",
            "wins",
            0,
            HI,
            "Wins whose highest sacrifice level is 5, without the queen's.",
        ),
        q(
            "sac5_pct",
            "Level-5 sacrifices",
            "% of wins",
            1,
            HI,
            "Those wins as a share of the wins.",
        ),
        q(
            "sacq",
            "Queen sacrifices",
            "wins",
            0,
            HI,
            "Wins with a queen sacrifice: the levels 1 to 5 and the queen file matched in a row.",
        ),
        q(
            "sacq_pct",
            "Queen sacrifices",
            "% of wins",
            1,
            HI,
            "Those wins as a share of the wins.",
        ),
        q(
            "early_sac_pct",
            "Early sacrifices",
            "% of sacrifice wins",
            1,
            HI,
            "Sacrifice wins whose level-1 file matched by ply early_limit + 8.",
        ),
        q(
            "short_win_pct",
            "Short wins",
            "% of wins",
            1,
            HI,
            "Wins no longer than L moves (L = avg_all − 15, within 30–95; V5: its own L).",
        ),
        q(
            "bad_draw_pct",
            "Bad draws",
            "% of draws",
            1,
            LO,
            "Draws that never reached an endgame or in which the opponent matched its level-1 \
             file, unless the engine matched its own.",
        ),
        q(
            "avg_win_moves",
            "Average win",
            "moves",
            0,
            LO,
            "The average length of its wins (plies counted from the start position's move \
             number, halved).",
        ),
        q(
            "part_sac",
            "Sacrifice part",
            "",
            0,
            HI,
            "The EAS part of the sacrifices.",
        ),
        q(
            "part_early",
            "Early part",
            "",
            0,
            HI,
            "The EAS part of early sacrifices and win length (0 with `--rules v5`).",
        ),
        q(
            "part_short",
            "Short-win part",
            "",
            0,
            HI,
            "The EAS part of the short wins.",
        ),
        q(
            "part_draw",
            "Bad-draw part",
            "",
            0,
            HI,
            "The EAS part of the bad draws (fewer score more).",
        ),
        q(
            "eas",
            "EAS",
            "",
            0,
            HI,
            "The aggressiveness score: the sum of the four parts.",
        ),
        built(q(
            "parts",
            "Parts",
            "",
            0,
            None,
            "The four parts as a bar, scaled to the top score.",
        )),
        q(
            "warning",
            "Warning",
            "",
            0,
            None,
            "\"few wins or draws\": fewer than 50 wins or 30 draws, too few for a steady score.",
        ),
        q(
            "avg_all",
            "Average decisive game",
            "moves",
            0,
            None,
            "With `--by` by event or season: the group's average length of its decisive games \
             (avg_all).",
        ),
        q(
            "short_limit",
            "Short-win limit",
            "moves",
            0,
            None,
            "With `--by` by event or season: the group's L, the longest short win.",
        ),
        q(
            "early_limit",
            "Early limit",
            "plies",
            0,
            None,
            "With `--by` by event or season: the group's early_limit, max(10, avg_all/2).",
        ),
        q(
            "decisive_games",
            "Decisive games",
            "",
            0,
            None,
            "With `--by` by event or season: the group's decisive games, avg_all's base.",
        ),
    ],
};

pub const EAS_GAMES: Output = Output {
    name: "eas --games",
    title: "Games behind an EAS number",
    doc: "`evallab eas --games sac1|…|sac5|sacq|short|bad-draws --engine RE`: the games behind \
          one number of the `--engine` engines, from each engine's side, in the dataset's order.",
    columns: &[
        GAME_ID,
        GAME_EVENT,
        ROUND,
        WHITE,
        BLACK,
        RESULT,
        q(
            "plies_from_fen",
            "Plies",
            "",
            0,
            None,
            "The game's length in plies, counted from its start position's move number.",
        ),
        q(
            "sac_depth",
            "Sacrifice level",
            "",
            0,
            None,
            "The engine's highest sacrifice level in the game: 0 none, 1–5, 6 the queen's.",
        ),
        q(
            "sac1_ply",
            "First sacrifice",
            "ply",
            0,
            None,
            "The ply (counted from the start position's move number) at which the engine's \
             level-1 file first matched; empty without a match.",
        ),
    ],
};

// ---------------------------------------------------------------------------
// adjudicate

const RULES: Quantity = q(
    "rules",
    "Rules",
    "",
    0,
    None,
    "The rule set replayed (its name).",
);
const ADJ_ENGINE: Quantity = q(
    "engine",
    "Engine",
    "",
    0,
    None,
    "The engine (player name), with `--by engine` or `event,engine`: its games from its side.",
);
const RESIGNED: Quantity = q(
    "resigned",
    "Given away",
    "games",
    0,
    None,
    "Per engine: firings whose result is a loss for the engine (the rule gave the game to its \
     opponent).",
);
const ADJ_GAMES: Quantity = q(
    "games",
    "Games",
    "",
    0,
    None,
    "Games replayed (per engine, the games it played).",
);
const FIRED: Quantity = q(
    "fired",
    "Fired",
    "games",
    0,
    None,
    "Games in which the rule set fired, at their last ply or before (the 50-move, threefold \
     and dead-material rules included).",
);
const FIRED_DECISIVE: Quantity = q(
    "fired_decisive",
    "Fired decisive",
    "games",
    0,
    None,
    "Firings with a decisive result (a resignation or a win rule).",
);
const FIRED_DRAW: Quantity = q(
    "fired_draw",
    "Fired draw",
    "games",
    0,
    None,
    "Firings with a draw.",
);
const AGREE: Quantity = q(
    "agree",
    "Agree",
    "games",
    0,
    HI,
    "Finished games the rule set ended with the recorded result.",
);
const WRONG: Quantity = q(
    "wrong",
    "Wrong",
    "games",
    0,
    LO,
    "Finished games it ended with another result than the recorded one.",
);
const WRONG_DECISIVE: Quantity = q(
    "wrong_decisive",
    "Wrong decisive",
    "games",
    0,
    LO,
    "Wrong firings with a decisive result.",
);
const WRONG_DRAW: Quantity = q(
    "wrong_draw",
    "Wrong draw",
    "games",
    0,
    LO,
    "Wrong firings with a draw (in a decisive game).",
);
const CENSORED: Quantity = q(
    "censored",
    "Censored",
    "games",
    0,
    None,
    "Games without a final result, and games adjudicated otherwise (TCEC's rules, \
     tablebases, the GUI) in which the rule set did not fire: their rest was never played.",
);
const ADJ_PLIES: Quantity = q("plies", "Plies", "", 0, None, "Plies of the games.");
const PLIES_SAVED: Quantity = q(
    "plies_saved",
    "Plies saved",
    "",
    0,
    HI,
    "Plies played after the firing ply, in agreeing games.",
);
const SAVED_PCT: Quantity = q(
    "saved_pct",
    "Saved",
    "% of plies",
    1,
    HI,
    "Those plies as a share of all plies.",
);
const HOURS_SAVED: Quantity = q(
    "hours_saved",
    "Hours saved",
    "h",
    1,
    HI,
    "The recorded move times of those plies.",
);

pub const ADJUDICATION: Output = Output {
    name: "adjudicate",
    title: "Adjudication",
    doc: "`evallab adjudicate --rules PRESET|FILE`: resign and draw rules replayed over the \
          games, summed over all selected games or per `--by` group \
          (docs/definitions/adjudication.md).",
    columns: &[
        RULES,
        EVENT,
        ADJ_ENGINE,
        ADJ_GAMES,
        FIRED,
        FIRED_DECISIVE,
        FIRED_DRAW,
        RESIGNED,
        AGREE,
        WRONG,
        WRONG_DECISIVE,
        WRONG_DRAW,
        CENSORED,
        ADJ_PLIES,
        PLIES_SAVED,
        SAVED_PCT,
        HOURS_SAVED,
        built(q(
            "draw.score",
            "Draw score",
            "cp",
            0,
            None,
            "The report's sweep of the cutechess draw rule: its score threshold in the row.",
        )),
    ],
};

pub const ADJUDICATION_GAMES: Output = Output {
    name: "adjudicate --games",
    title: "Games behind an adjudication verdict",
    doc: "`evallab adjudicate --games agree|wrong|censored`: the games with that verdict, in \
          the dataset's order.",
    columns: &[
        GAME_ID,
        GAME_EVENT,
        ROUND,
        WHITE,
        BLACK,
        RESULT,
        GAME_PLIES,
        q(
            "fire_ply",
            "Fired at",
            "ply",
            0,
            None,
            "The ply after which the rule set ends the game; empty when it never fires.",
        ),
        q(
            "clause",
            "Clause",
            "",
            0,
            None,
            "The rule that fired (resign, draw, threefold repetition, …).",
        ),
        q(
            "rule_result",
            "Rule's result",
            "",
            0,
            None,
            "The result the rule gives the game.",
        ),
        q(
            "plies_saved",
            "Plies saved",
            "",
            0,
            None,
            "Plies played after the firing ply if the verdict is agree, else 0.",
        ),
    ],
};

pub const ADJUDICATION_SWEEP: Output = Output {
    name: "adjudicate --sweep",
    title: "Adjudication sweep",
    doc: "`evallab adjudicate --sweep KEY=FROM..TO:STEP` (one or two keys): the summary over \
          all selected games, or per `--by` group, at every point of the grid, the swept keys \
          first.",
    columns: &[
        q(
            "resign.*",
            "Resign key",
            "",
            0,
            None,
            "A swept key of the cutechess resign rule, named as swept; `*` is movecount or \
             score.",
        ),
        q(
            "draw.*",
            "Draw key",
            "",
            0,
            None,
            "A swept key of the cutechess draw rule; `*` is movenumber, movecount or score.",
        ),
        q(
            "tcec.*",
            "TCEC key",
            "",
            0,
            None,
            "A swept key of the TCEC eras' rules; `*` is draw.movenumber, draw.movecount, \
             draw.score, draw.maxpieces, draw.maxpawns, win.movecount, win.score or tb.men.",
        ),
        q(
            "terra.*",
            "Terra key",
            "",
            1,
            None,
            "A swept key of Terra's rules; `*` is a numeric key of terra.resign or terra.draw \
             (terra.resign.score, terra.draw.contempt, …).",
        ),
        EVENT,
        ADJ_ENGINE,
        ADJ_GAMES,
        FIRED,
        FIRED_DECISIVE,
        FIRED_DRAW,
        RESIGNED,
        AGREE,
        WRONG,
        WRONG_DECISIVE,
        WRONG_DRAW,
        CENSORED,
        ADJ_PLIES,
        PLIES_SAVED,
        SAVED_PCT,
        HOURS_SAVED,
    ],
};

const ERA: Quantity = q(
    "era",
    "Era",
    "",
    0,
    None,
    "The TCEC era of the rule set that applies (empty: no era matches the event).",
);
const RD_PLIES: Quantity = q(
    "rd_plies",
    "Rd plies",
    "",
    0,
    None,
    "Plies at which the archive wrote a draw clock Rd.",
);
const RD_AGREE: Quantity = q(
    "rd_agree",
    "Rd agree",
    "plies",
    0,
    HI,
    "Of those, plies whose replayed Rd equals the archive's.",
);
const RR_PLIES: Quantity = q(
    "rr_plies",
    "Rr plies",
    "",
    0,
    None,
    "Plies at which the archive wrote a win clock Rr.",
);
const RR_AGREE: Quantity = q(
    "rr_agree",
    "Rr agree",
    "plies",
    0,
    HI,
    "Of those, plies whose replayed Rr equals the archive's.",
);
const RD_PCT: Quantity = q(
    "rd_pct",
    "Rd agree",
    "%",
    2,
    HI,
    "rd_agree as a share of rd_plies.",
);
const RR_PCT: Quantity = q(
    "rr_pct",
    "Rr agree",
    "%",
    2,
    HI,
    "rr_agree as a share of rr_plies.",
);
const RD_ARCHIVE: Quantity = q(
    "rd_archive",
    "Rd archived",
    "plies",
    0,
    None,
    "The archive's Rd at that ply (plies still needed; −r−1 while the rule cannot fire yet; \
     −1000 when off).",
);
const RD_REPLAY: Quantity = q(
    "rd_replay",
    "Rd replayed",
    "plies",
    0,
    None,
    "The replay's Rd at that ply.",
);
const RR_ARCHIVE: Quantity = q(
    "rr_archive",
    "Rr archived",
    "plies",
    0,
    None,
    "The archive's Rr at that ply.",
);
const RR_REPLAY: Quantity = q(
    "rr_replay",
    "Rr replayed",
    "plies",
    0,
    None,
    "The replay's Rr at that ply.",
);

pub const ADJUDICATION_CLOCKS: Output = Output {
    name: "adjudicate --check-clocks",
    title: "TCEC clocks replayed",
    doc: "`evallab adjudicate --rules tcec --check-clocks`: the replayed TCEC clocks Rd and Rr \
          against those the archive wrote after every ply, per era and event \
          (docs/definitions/adjudication.md).",
    columns: &[
        ERA,
        CLOCK_EVENT,
        RD_PLIES,
        RD_AGREE,
        RR_PLIES,
        RR_AGREE,
        q(
            "first_bad_game",
            "First disagreeing game",
            "",
            0,
            None,
            "The lowest game id with a ply whose replayed clocks disagree.",
        ),
        q(
            "first_bad_ply",
            "First disagreeing ply",
            "",
            0,
            None,
            "That game's first disagreeing ply.",
        ),
        RD_ARCHIVE,
        RD_REPLAY,
        RR_ARCHIVE,
        RR_REPLAY,
        RD_PCT,
        RR_PCT,
    ],
};

pub const ADJUDICATION_CLOCKS_GAMES: Output = Output {
    name: "adjudicate --check-clocks --games",
    title: "Games whose clocks disagree",
    doc: "`evallab adjudicate --check-clocks --games wrong`: the games whose replayed clocks \
          disagree with the archive's, with their first disagreeing ply.",
    columns: &[
        GAME_ID,
        ERA,
        q(
            "first_bad_ply",
            "First disagreeing ply",
            "",
            0,
            None,
            "The game's first ply whose replayed clocks disagree.",
        ),
        q(
            "rd",
            "Rd archived",
            "plies",
            0,
            None,
            "The archive's Rd at that ply.",
        ),
        RD_REPLAY,
        q(
            "rr",
            "Rr archived",
            "plies",
            0,
            None,
            "The archive's Rr at that ply.",
        ),
        RR_REPLAY,
        q(
            "bad_plies",
            "Disagreeing plies",
            "",
            0,
            LO,
            "The game's plies whose replayed Rd or Rr disagrees.",
        ),
        GAME_EVENT,
        ROUND,
    ],
};

pub const ADJUDICATION_CLOCKS_SWEEP: Output = Output {
    name: "adjudicate --check-clocks --sweep",
    title: "TCEC rule parameters from the clocks",
    doc: "`evallab adjudicate --rules tcec --check-clocks --sweep KEY=FROM..TO:STEP`: per era \
          and event, the rule set's own clock agreement and the grid point's that agrees best.",
    columns: &[
        ERA,
        CLOCK_EVENT,
        q(
            "plies",
            "Clock values",
            "",
            0,
            None,
            "Archived Rd and Rr values compared, together.",
        ),
        q(
            "agree_pct",
            "Agree",
            "%",
            2,
            HI,
            "The rule set's own replay: the values it reproduces, as a share of them.",
        ),
        q(
            "tcec.*",
            "Best TCEC key",
            "",
            0,
            None,
            "The best point's value of a swept key of the TCEC rules (`*` as in `--sweep \
             tcec.*`), shown only where that point does strictly better.",
        ),
        q(
            "best_pct",
            "Best agree",
            "%",
            2,
            HI,
            "The best grid point's agreement (the grid's first among equals).",
        ),
        q(
            "derived",
            "Derived",
            "",
            0,
            None,
            "Whether the best point agrees on strictly more values than the rule set's own.",
        ),
    ],
};

/// Written beside `-o FILE.EXT` as `FILE.eras.EXT` (on stderr without `-o`).
pub const ADJUDICATION_CLOCKS_ERAS: Output = Output {
    name: "adjudicate --check-clocks (eras)",
    title: "TCEC clocks per era",
    doc: "`evallab adjudicate --check-clocks -o FILE.EXT` writes it as `FILE.eras.EXT` (without \
          `-o`, on stderr): the clock agreement summed per era.",
    columns: &[
        ERA,
        q(
            "events",
            "Events",
            "",
            0,
            None,
            "Events of the era with clocks.",
        ),
        RD_PLIES,
        RD_AGREE,
        RR_PLIES,
        RR_AGREE,
        RD_PCT,
        RR_PCT,
    ],
};

/// Written beside `-o FILE.EXT` as `FILE.causes.EXT` (on stderr without `-o`).
pub const ADJUDICATION_CLOCKS_CAUSES: Output = Output {
    name: "adjudicate --check-clocks (causes)",
    title: "Clock disagreements by cause",
    doc: "`evallab adjudicate --check-clocks -o FILE.EXT` writes it as `FILE.causes.EXT` \
          (without `-o`, on stderr): the disagreeing plies by kind, with the first one as an \
          example.",
    columns: &[
        q(
            "cause",
            "Cause",
            "",
            0,
            None,
            "The kind of disagreement: a placeholder eval in the count window, the win clock, \
             or how the draw counts differ.",
        ),
        q(
            "plies",
            "Plies",
            "",
            0,
            None,
            "Disagreeing plies of that kind.",
        ),
        q(
            "example_game",
            "Example game",
            "",
            0,
            None,
            "The first such ply's game (lowest game id).",
        ),
        q("example_ply", "Example ply", "", 0, None, "That ply."),
        RD_ARCHIVE,
        RD_REPLAY,
        RR_ARCHIVE,
        RR_REPLAY,
    ],
};

/// Written beside `-o FILE.EXT` as `FILE.rule-ends.EXT` (on stderr without `-o`).
pub const ADJUDICATION_CLOCKS_RULE_ENDS: Output = Output {
    name: "adjudicate --check-clocks (rule-ends)",
    title: "TCEC rule ends per era",
    doc: "`evallab adjudicate --check-clocks -o FILE.EXT` writes it as `FILE.rule-ends.EXT` \
          (without `-o`, on stderr): per era, the games the archive says TCEC's draw or win \
          rule ended, and how many the replay fires at exactly their last ply.",
    columns: &[
        ERA,
        q(
            "games",
            "Games",
            "",
            0,
            None,
            "Games whose termination names the TCEC draw or win rule.",
        ),
        q(
            "fired_at_end",
            "Fired at the end",
            "games",
            0,
            HI,
            "Of those, games the replay ends by that rule at exactly their last ply.",
        ),
    ],
};

/// Written beside `-o FILE.EXT` as `FILE.exceptions.EXT` (on stderr without `-o`).
pub const ADJUDICATION_CLOCKS_EXCEPTIONS: Output = Output {
    name: "adjudicate --check-clocks (exceptions)",
    title: "TCEC rule ends the replay misses",
    doc: "`evallab adjudicate --check-clocks -o FILE.EXT` writes it as `FILE.exceptions.EXT` \
          (without `-o`, on stderr): the games ended by a TCEC rule that the replay does not \
          end by that rule at their last ply.",
    columns: &[
        GAME_ID,
        GAME_EVENT,
        ROUND,
        WHITE,
        BLACK,
        RESULT,
        GAME_PLIES,
        q(
            "archive_rule",
            "Archived rule",
            "",
            0,
            None,
            "The rule the archive's termination names: tcec draw rule or tcec win rule.",
        ),
        ERA,
        q(
            "fire_ply",
            "Fired at",
            "ply",
            0,
            None,
            "The ply after which the replay ends the game; empty when it never fires.",
        ),
        q(
            "clause",
            "Clause",
            "",
            0,
            None,
            "The rule the replay fired.",
        ),
        q(
            "ok",
            "Fired at the end",
            "",
            0,
            None,
            "Whether the replay fired the archived rule at the last ply (false in this table).",
        ),
    ],
};

// ---------------------------------------------------------------------------
// engine-stats

const PHASE: Quantity = q(
    "phase",
    "Phase",
    "",
    0,
    None,
    "With `--phase`: the game phase after the move, endgame (at most 6 knights, bishops, rooks \
     and queens), middlegame (at most 10, or after move 15) or opening.",
);
const FROM_MOVE: Quantity = q(
    "from_move",
    "From move",
    "",
    0,
    None,
    "With bands: the band's first move number (bands of `--bands N` moves).",
);
const TO_MOVE: Quantity = q(
    "to_move",
    "To move",
    "",
    0,
    None,
    "With bands: the band's last move number.",
);
const ENGINE_MOVES: Quantity = q(
    "moves",
    "Moves",
    "",
    0,
    None,
    "The engine's non-book moves in the group.",
);

pub const ENGINE_STATS: Output = Output {
    name: "engine-stats",
    title: "Engine search statistics",
    doc: "`evallab engine-stats`: from the engines' own move comments (book moves left out), \
          per field the moves that recorded it, its mean and its median; empty where no move \
          recorded it; `--phase` splits by game phase, `--bands N` by move numbers \
          (docs/guide/engine-stats.md).",
    columns: &[
        EVENT,
        SEASON,
        ENGINE,
        PHASE,
        FROM_MOVE,
        TO_MOVE,
        ENGINE_MOVES,
        q(
            "depth_moves",
            "Depth recorded",
            "moves",
            0,
            None,
            "Moves with a search depth.",
        ),
        q(
            "depth_mean",
            "Depth, mean",
            "plies",
            1,
            None,
            "Mean search depth.",
        ),
        q(
            "depth_median",
            "Depth, median",
            "plies",
            1,
            None,
            "Median search depth.",
        ),
        q(
            "seldepth_moves",
            "Seldepth recorded",
            "moves",
            0,
            None,
            "Moves with a selective depth.",
        ),
        q(
            "seldepth_mean",
            "Seldepth, mean",
            "plies",
            1,
            None,
            "Mean selective depth.",
        ),
        q(
            "seldepth_median",
            "Seldepth, median",
            "plies",
            1,
            None,
            "Median selective depth.",
        ),
        q(
            "nodes_moves",
            "Nodes recorded",
            "moves",
            0,
            None,
            "Moves with a node count.",
        ),
        q(
            "nodes_mean",
            "Nodes, mean",
            "",
            0,
            None,
            "Mean nodes searched per move.",
        ),
        q(
            "nodes_median",
            "Nodes, median",
            "",
            0,
            None,
            "Median nodes searched per move.",
        ),
        q(
            "nps_moves",
            "Speed recorded",
            "moves",
            0,
            None,
            "Moves with a speed (nodes per second).",
        ),
        q(
            "nps_mean",
            "Speed, mean",
            "nodes/s",
            0,
            None,
            "Mean search speed.",
        ),
        q(
            "nps_median",
            "Speed, median",
            "nodes/s",
            0,
            None,
            "Median search speed.",
        ),
        q(
            "time_s_moves",
            "Time recorded",
            "moves",
            0,
            None,
            "Moves with the time they took.",
        ),
        q(
            "time_s_mean",
            "Time, mean",
            "s",
            3,
            None,
            "Mean time per move.",
        ),
        q(
            "time_s_median",
            "Time, median",
            "s",
            3,
            None,
            "Median time per move.",
        ),
        q(
            "tb_hits_moves",
            "Tablebase hits recorded",
            "moves",
            0,
            None,
            "Moves with a tablebase hit count.",
        ),
        q(
            "tb_hits_mean",
            "Tablebase hits, mean",
            "",
            0,
            None,
            "Mean tablebase hits per move.",
        ),
        q(
            "tb_hits_median",
            "Tablebase hits, median",
            "",
            0,
            None,
            "Median tablebase hits per move.",
        ),
        q(
            "hash_full_moves",
            "Hash usage recorded",
            "moves",
            0,
            None,
            "Moves with the hash table's fill.",
        ),
        q(
            "hash_full_mean",
            "Hash usage, mean",
            "%",
            1,
            None,
            "Mean hash table fill.",
        ),
        q(
            "hash_full_median",
            "Hash usage, median",
            "%",
            1,
            None,
            "Median hash table fill.",
        ),
        q(
            "ponder_hit_moves",
            "Ponder hits recorded",
            "moves",
            0,
            None,
            "Moves with a ponder-hit rate.",
        ),
        q(
            "ponder_hit_mean",
            "Ponder hits, mean",
            "%",
            1,
            None,
            "Mean ponder-hit rate.",
        ),
        q(
            "ponder_hit_median",
            "Ponder hits, median",
            "%",
            1,
            None,
            "Median ponder-hit rate.",
        ),
    ],
};

pub const ENGINE_STATS_TIME_USAGE: Output = Output {
    name: "engine-stats --time-usage",
    title: "Clock use",
    doc: "`evallab engine-stats --time-usage`: per engine and band of move numbers (10 unless \
          `--bands N`), the share of its clock a move used, time / (time + clock after the \
          move), and the median time used and clock left (docs/guide/engine-stats.md).",
    columns: &[
        EVENT,
        SEASON,
        ENGINE,
        q(
            "from_move",
            "From move",
            "",
            0,
            None,
            "The band's first move number.",
        ),
        q(
            "to_move",
            "To move",
            "",
            0,
            None,
            "The band's last move number.",
        ),
        ENGINE_MOVES,
        q(
            "clock_moves",
            "Moves with clock",
            "",
            0,
            None,
            "Moves with both the time used and the clock after the move.",
        ),
        q(
            "clock_share_mean",
            "Clock share, mean",
            "share",
            4,
            None,
            "Mean share of the clock a move used, time / (time + clock after the move); an \
             increment added at the move understates it slightly.",
        ),
        q(
            "clock_share_median",
            "Clock share, median",
            "share",
            4,
            None,
            "Its median.",
        ),
        q(
            "time_median_s",
            "Time used, median",
            "s",
            1,
            None,
            "Median time used by those moves.",
        ),
        q(
            "time_left_median_s",
            "Clock left, median",
            "s",
            1,
            None,
            "Median clock after those moves.",
        ),
    ],
};
