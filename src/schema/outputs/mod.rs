//! The columns of the commands' outputs as people read them: a label with
//! its unit, the decimals the quantity deserves, what it means and which way
//! is better. The HTML report's headers and their explanations come from
//! here, and so does the book's page (`evallab schema --outputs --format
//! markdown` is docs/reference/outputs.md, kept current by a test): one
//! source, so the two cannot drift.

/// Which way of a quantity is better, when one is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Better {
    Higher,
    Lower,
}

/// One output column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Quantity {
    /// The column's name in the command's output. A `*` stands for a family
    /// of columns the data decide (`end_*`: one per termination class).
    pub name: &'static str,
    /// What a reader calls it.
    pub label: &'static str,
    /// Its unit (`""` for a count or a name).
    pub unit: &'static str,
    /// Decimals it is shown with: no more than its precision deserves.
    pub digits: u8,
    pub better: Option<Better>,
    /// What it means (one or two sentences).
    pub doc: &'static str,
    /// Built by the HTML report from other columns (no command writes it).
    pub report_only: bool,
}

const fn q(
    name: &'static str,
    label: &'static str,
    unit: &'static str,
    digits: u8,
    better: Option<Better>,
    doc: &'static str,
) -> Quantity {
    Quantity {
        name,
        label,
        unit,
        digits,
        better,
        doc,
        report_only: false,
    }
}

/// A column the HTML report builds from a command's columns (`endings` from
/// the standings' `end_*`): declared with the output it belongs to, and
/// exempt from the test that every declared column is written by the command.
const fn built(
    name: &'static str,
    label: &'static str,
    unit: &'static str,
    digits: u8,
    better: Option<Better>,
    doc: &'static str,
) -> Quantity {
    Quantity {
        report_only: true,
        ..q(name, label, unit, digits, better, doc)
    }
}

const HI: Option<Better> = Some(Better::Higher);
const LO: Option<Better> = Some(Better::Lower);

impl Quantity {
    /// The header: the label, and the unit in parentheses.
    pub fn header(&self) -> String {
        if self.unit.is_empty() {
            self.label.to_string()
        } else {
            format!("{} ({})", self.label, self.unit)
        }
    }

    /// What the header explains on hover: the meaning, which way is better,
    /// and the column it shows.
    pub fn explanation(&self) -> String {
        let better = match self.better {
            Some(Better::Higher) => " Higher is better.",
            Some(Better::Lower) => " Lower is better.",
            None => "",
        };
        format!("{}{better} Column `{}`.", self.doc, self.name)
    }

    /// A value as shown: `digits` decimals; not a number shows as a dash.
    pub fn format(&self, v: f64) -> String {
        if v.is_finite() {
            format!("{v:.prec$}", prec = usize::from(self.digits))
        } else {
            "—".into()
        }
    }
}

/// The columns of one output (a command's table, or one the report builds).
#[derive(Debug, Clone, Copy)]
pub struct Output {
    pub name: &'static str,
    /// What a reader calls the table.
    pub title: &'static str,
    pub doc: &'static str,
    pub columns: &'static [Quantity],
}

impl Output {
    /// The column named `name`.
    pub fn get(&self, name: &str) -> Option<&'static Quantity> {
        self.columns.iter().find(|c| c.name == name)
    }
}

const ENGINE: Quantity = q("engine", "Engine", "", 0, None, "The engine (player name).");
const RANK: Quantity = q("rank", "Rank", "", 0, None, "Place in the table.");
const GAMES: Quantity = q("games", "Games", "", 0, None, "Games played.");
const DRAWS: Quantity = q("draws", "Draws", "", 0, None, "Games drawn.");
const POINTS: Quantity = q("points", "Points", "", 1, HI, "A win 1, a draw ½.");
const SCORE_PCT: Quantity = q("score_pct", "Score", "%", 1, HI, "Points per game.");
const GROUP: Quantity = q(
    "group",
    "Group",
    "",
    0,
    None,
    "Connectivity group: engines the games connect.",
);
const REASON: Quantity = q(
    "reason",
    "Why none",
    "",
    0,
    None,
    "Why the row has no value, when it has none.",
);

pub const STANDINGS: Output = Output {
    name: "standings",
    title: "Standings",
    doc: "`evallab standings`: points per engine (docs/definitions/standings.md).",
    columns: &[
        RANK,
        ENGINE,
        GAMES,
        q(
            "wins",
            "Wins",
            "",
            0,
            HI,
            "Games won (the recorded result).",
        ),
        DRAWS,
        q("losses", "Losses", "", 0, LO, "Games lost."),
        POINTS,
        SCORE_PCT,
        q(
            "white_points",
            "Points with White",
            "",
            1,
            HI,
            "Points in the games it had White.",
        ),
        q(
            "white_games",
            "Games with White",
            "",
            0,
            None,
            "Games it had White.",
        ),
        q(
            "black_points",
            "Points with Black",
            "",
            1,
            HI,
            "Points in the games it had Black.",
        ),
        q(
            "black_games",
            "Games with Black",
            "",
            0,
            None,
            "Games it had Black.",
        ),
        q(
            "sonneborn_berger",
            "Sonneborn–Berger",
            "",
            2,
            HI,
            "The tie-break: each opponent's points times the points scored against it.",
        ),
        q(
            "endings",
            "How the games ended",
            "",
            0,
            None,
            "Termination classes and their counts (the standings' `end_*` columns).",
        ),
    ],
};

pub const CROSSTABLE: Output = Output {
    name: "crosstable",
    title: "Crosstable",
    doc: "`evallab crosstable --wide`: the head-to-head matrix; every further column is an \
          opponent, its cells the points/games against it.",
    columns: &[RANK, ENGINE, POINTS, GAMES],
};

pub const RATINGS: Output = Output {
    name: "ratings",
    title: "Ratings",
    doc: "`evallab ratings`: Ordo's maximum-likelihood Elo (docs/definitions/ratings.md).",
    columns: &[
        RANK,
        ENGINE,
        q(
            "rating",
            "Elo",
            "",
            0,
            HI,
            "The rating, on the pool's scale (average 2300).",
        ),
        q(
            "error",
            "± Elo",
            "95 %",
            0,
            LO,
            "Half the 95 % interval of the rating, from simulated replays of the games.",
        ),
        POINTS,
        q("played", "Games", "", 0, None, "Games the rating rests on."),
        SCORE_PCT,
        q(
            "cfs_next",
            "CFS next",
            "%",
            0,
            None,
            "Confidence that the engine is stronger than the next one down.",
        ),
        GROUP,
        q(
            "kind",
            "Kind",
            "",
            0,
            None,
            "How the engine was rated (normal, all wins, …).",
        ),
        REASON,
    ],
};

pub const RATINGS_SUMMARY: Output = Output {
    name: "ratings.summary",
    title: "Rating parameters",
    doc: "`evallab ratings`: the fitted parameters per connectivity group.",
    columns: &[
        GROUP,
        q("engines", "Engines", "", 0, None, "Engines in the group."),
        GAMES,
        q(
            "reference",
            "Reference (anchor)",
            "",
            0,
            None,
            "The reference the ratings are relative to: the pool's average, or an anchored engine.",
        ),
        q(
            "white_advantage",
            "White advantage",
            "Elo",
            0,
            None,
            "The Elo White's move is worth, fitted.",
        ),
        q(
            "white_sd",
            "± White",
            "Elo",
            0,
            LO,
            "Its standard deviation over the replays.",
        ),
        q(
            "draw_rate_pct",
            "Fitted draw rate",
            "%",
            1,
            None,
            "The draw rate between equal engines, fitted.",
        ),
        q(
            "draw_rate_sd_pct",
            "± Fitted draw rate",
            "%",
            1,
            LO,
            "Its standard deviation over the replays.",
        ),
        q(
            "bootstrap",
            "Replays",
            "",
            0,
            None,
            "Simulated replays behind the errors (`--bootstrap`).",
        ),
        q(
            "solver",
            "Solver",
            "",
            0,
            None,
            "How the rating equations were solved.",
        ),
    ],
};

pub const PAIRS: Output = Output {
    name: "pairs",
    title: "Game pairs",
    doc: "`evallab pairs`: colour-swapped game pairs, pentanomial (docs/definitions/pairs.md).",
    columns: &[
        ENGINE,
        q("opponent", "Opponent", "", 0, None, "The other engine."),
        q(
            "pairs",
            "Pairs",
            "",
            0,
            None,
            "Openings played with both colours.",
        ),
        q(
            "ll",
            "0",
            "pairs",
            0,
            None,
            "Pairs scoring 0 points of 2 (two losses).",
        ),
        q(
            "ld",
            "½",
            "pairs",
            0,
            None,
            "Pairs scoring ½ (a loss and a draw).",
        ),
        q(
            "dd_wl",
            "1",
            "pairs",
            0,
            None,
            "Pairs scoring 1 (two draws, or a win and a loss).",
        ),
        q(
            "wd",
            "1½",
            "pairs",
            0,
            None,
            "Pairs scoring 1½ (a win and a draw).",
        ),
        q("ww", "2", "pairs", 0, None, "Pairs scoring 2 (two wins)."),
        q(
            "elo",
            "Elo difference",
            "",
            0,
            None,
            "The engine's Elo over the opponent, from the pair scores.",
        ),
        q(
            "elo_error",
            "± Elo",
            "95 %",
            0,
            LO,
            "Half its 95 % interval, from the pairs.",
        ),
        q(
            "elo_error_trinomial",
            "± Elo if independent",
            "95 %",
            0,
            None,
            "The same from the games as if independent: larger than the pairs' when \
             the pairs' games are correlated.",
        ),
        q(
            "nelo",
            "Normalized Elo",
            "",
            0,
            None,
            "Elo scaled by the pair scores' spread.",
        ),
        q(
            "unpaired",
            "Unpaired games",
            "",
            0,
            None,
            "Games between the two without a partner.",
        ),
        REASON,
    ],
};

pub const OPENINGS: Output = Output {
    name: "opening-stats",
    title: "Openings",
    doc: "`evallab opening-stats`: results per opening, or per Chess960 start position, with \
          the colour-swapped pairs (docs/definitions/pairs.md).",
    columns: &[
        q("eco", "ECO", "", 0, None, "The opening's ECO code."),
        q(
            "opening",
            "Opening",
            "",
            0,
            None,
            "The opening, or the Chess960 start position (Scharnagl number and arrangement).",
        ),
        GAMES,
        q("white_wins", "White wins", "", 0, None, "Games White won."),
        DRAWS,
        q("black_wins", "Black wins", "", 0, None, "Games Black won."),
        q(
            "white_score_pct",
            "White's score",
            "%, 95 % interval",
            0,
            None,
            "White's points per game, with its 95 % Wilson interval.",
        ),
        q(
            "draw_pct",
            "Draws",
            "%",
            0,
            None,
            "Drawn games of all games.",
        ),
        q(
            "pairs",
            "Pairs",
            "",
            0,
            None,
            "Colour-swapped game pairs of the opening.",
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
            "Pairs one engine won 2–0.",
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

pub const BALANCE: Output = Output {
    name: "balance",
    title: "Win-draw balance",
    doc: "`evallab balance`: the win-draw balance x_0_5 (docs/definitions/balance-calibrate.md).",
    columns: &[
        ENGINE,
        GAMES,
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
            "Recorded wins whose last own eval was 0.00 (a tablebase adjudication).",
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
            "highest_eval_without_win",
            "Highest eval without win",
            "pawns",
            2,
            None,
            "The largest own eval in a game the engine did not win.",
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
            "Non-won games whose maximum own eval reached the balance.",
        ),
        REASON,
    ],
};

pub const X05: Output = Output {
    name: "x05",
    title: "x05 three ways",
    doc: "The report's x05 three ways per engine (docs/definitions/wdl.md).",
    columns: &[
        ENGINE,
        q(
            "balance",
            "Balance",
            "pawns",
            2,
            None,
            "The W-th largest non-won maximum (`evallab balance`).",
        ),
        q(
            "ml",
            "Maximum likelihood",
            "pawns",
            2,
            None,
            "Calibrate's maximum-likelihood x05 of P(x).",
        ),
        q(
            "wdl_58",
            "WDL at material 58",
            "pawns",
            2,
            None,
            "a(58)/100 of the engine's own WDL model.",
        ),
        q(
            "wdl_20",
            "WDL at material 20",
            "pawns",
            2,
            None,
            "a(20)/100 of the engine's own WDL model (an endgame).",
        ),
        q(
            "wdl_positions",
            "WDL positions",
            "",
            0,
            None,
            "Positions the engine's WDL model was fitted to.",
        ),
        q("note", "Note", "", 0, None, "Why there is no WDL model."),
    ],
};

pub const EAS: Output = Output {
    name: "eas",
    title: "EAS",
    doc: "`evallab eas`: Stefan Pohl's EAS aggressiveness score (docs/definitions/eas.md).",
    columns: &[
        RANK,
        ENGINE,
        q("wins", "Wins", "", 0, None, "Games won."),
        DRAWS,
        q(
            "early_sac_pct",
            "Early sacrifices",
            "% of wins",
            1,
            HI,
            "Wins with a pawn sacrifice early in the game.",
        ),
        q(
            "short_win_pct",
            "Short wins",
            "% of wins",
            1,
            HI,
            "Wins no longer than L moves.",
        ),
        q(
            "bad_draw_pct",
            "Bad draws",
            "% of draws",
            1,
            LO,
            "Draws in which the engine was ahead in material.",
        ),
        q(
            "avg_win_moves",
            "Average win",
            "moves",
            0,
            LO,
            "The average length of its wins.",
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
            "The EAS part of early sacrifices and win length.",
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
        q(
            "parts",
            "Parts",
            "",
            0,
            None,
            "The four parts as a bar, scaled to the top score.",
        ),
        q(
            "warning",
            "Warning",
            "",
            0,
            None,
            "Too few wins or draws for a steady score.",
        ),
    ],
};

pub const RELEVANCE: Output = Output {
    name: "relevance",
    title: "Relevance",
    doc: "`evallab relevance`: relevance-reduced eval drops and move symbols \
          (docs/definitions/relevance.md).",
    columns: &[
        ENGINE,
        q("moves", "Moves", "", 0, None, "Own moves with an own eval."),
        q(
            "loss_rr_mean",
            "Mean loss, reduced",
            "pawns/move",
            3,
            LO,
            "Mean drop of the own eval, relevance-reduced (a drop where the game is \
             decided counts little).",
        ),
        q(
            "loss_raw_mean",
            "Mean loss, raw",
            "pawns/move",
            3,
            LO,
            "Mean drop of the own eval, as evaluated.",
        ),
        q(
            "econ8_dubious",
            "?!",
            "moves",
            0,
            LO,
            "Swings reaching the dubious-move symbol (econ8).",
        ),
        q(
            "econ8_mistake",
            "?",
            "moves",
            0,
            LO,
            "Swings reaching the mistake symbol (econ8).",
        ),
        q(
            "econ8_blunder",
            "??",
            "moves",
            0,
            LO,
            "Swings reaching the blunder symbol (econ8).",
        ),
        q(
            "econ8_speculative",
            "!?",
            "moves",
            0,
            None,
            "Swings reaching the speculative-move symbol (econ8).",
        ),
        q(
            "econ8_good",
            "!",
            "moves",
            0,
            HI,
            "Swings reaching the good-move symbol (econ8).",
        ),
        q(
            "econ8_brilliant",
            "!!",
            "moves",
            0,
            HI,
            "Swings reaching the brilliant-move symbol (econ8).",
        ),
    ],
};

pub const AGREEMENT: Output = Output {
    name: "agreement",
    title: "Agreement with a reference analysis",
    doc: "`evallab agreement`: the archive against a reference analysis \
          (docs/definitions/agreement.md).",
    columns: &[
        ENGINE,
        q(
            "positions",
            "Positions",
            "",
            0,
            None,
            "Positions the reference analysed.",
        ),
        q(
            "top1_share",
            "Reference's first choice",
            "share",
            2,
            None,
            "Played moves that are the reference's first choice.",
        ),
        q(
            "eval_pairs",
            "Eval pairs",
            "",
            0,
            None,
            "Positions with a centipawn eval from both.",
        ),
        q(
            "mean_abs_diff_pawns",
            "Eval difference",
            "pawns",
            2,
            LO,
            "Mean absolute difference of the archived and the reference eval (clipped to ±10).",
        ),
        q(
            "eval_corr",
            "Eval correlation",
            "r",
            3,
            HI,
            "Pearson's r of the archived and the reference evals.",
        ),
        q(
            "loss_moves",
            "Moves priced",
            "",
            0,
            None,
            "Played moves the reference priced.",
        ),
        q(
            "mean_loss_cp",
            "Mean loss",
            "cp",
            1,
            LO,
            "Best minus played by the reference, mover's view.",
        ),
        q(
            "mean_accuracy",
            "Accuracy",
            "%",
            1,
            HI,
            "Lichess's accuracy of the played moves by the reference.",
        ),
    ],
};

pub const MATCHING: Output = Output {
    name: "match",
    title: "Move matching",
    doc: "`evallab match`: Regan's move matching (docs/definitions/matching.md).",
    columns: &[
        q("player", "Player", "", 0, None, "The tested player."),
        q("moves", "Moves", "", 0, None, "Moves tested."),
        q(
            "mm",
            "Move match",
            "share",
            2,
            None,
            "Moves that are the engine's first choice at the last depth.",
        ),
        q(
            "ev",
            "Equal value",
            "share",
            2,
            None,
            "Moves with the first choice's eval.",
        ),
        q(
            "ae",
            "Average error",
            "pawns",
            3,
            LO,
            "Mean eval drop of the played move (evals capped at ±10).",
        ),
        q(
            "asd",
            "Scaled error",
            "pawns",
            3,
            LO,
            "The drop scaled by 1/(1+|eval|).",
        ),
        q(
            "full",
            "Full matches",
            "",
            0,
            None,
            "Moves matched at every depth.",
        ),
        q(
            "main",
            "Main matches",
            "",
            0,
            None,
            "Moves matched at the main depth.",
        ),
        q(
            "part",
            "Partial matches",
            "",
            0,
            None,
            "Moves matched at some depths.",
        ),
        q("non", "No match", "", 0, None, "Moves matched at no depth."),
    ],
};

pub const ADJUDICATION: Output = Output {
    name: "adjudicate",
    title: "Adjudication",
    doc: "`evallab adjudicate`: resign and draw rules replayed (docs/definitions/adjudication.md).",
    columns: &[
        q("rules", "Rules", "", 0, None, "The rule set replayed."),
        GAMES,
        q(
            "fired",
            "Fired",
            "games",
            0,
            None,
            "Games the rule would have ended early.",
        ),
        q(
            "agree",
            "Agree",
            "games",
            0,
            HI,
            "Fired with the recorded result.",
        ),
        q(
            "wrong",
            "Wrong",
            "games",
            0,
            LO,
            "Fired with another result than the recorded one.",
        ),
        q(
            "censored",
            "Censored",
            "games",
            0,
            None,
            "Ended by something else before the rule could fire.",
        ),
        q(
            "plies_saved",
            "Plies saved",
            "",
            0,
            HI,
            "Plies played after the rule fired, in agreeing games.",
        ),
        q(
            "saved_pct",
            "Saved",
            "% of plies",
            1,
            HI,
            "Those plies as a share of all plies.",
        ),
        q(
            "hours_saved",
            "Hours saved",
            "h",
            1,
            HI,
            "Their recorded move times.",
        ),
        q(
            "draw.score",
            "Draw score",
            "cp",
            0,
            None,
            "The cutechess draw rule's score threshold swept.",
        ),
    ],
};

pub const WDL_VALIDATION: Output = Output {
    name: "wdl.validation",
    title: "WDL models out of sample",
    doc: "The report's out-of-sample scores of the eval → outcome models (docs/definitions/wdl.md).",
    columns: &[
        q("model", "Model", "", 0, None, "The eval → outcome model."),
        q(
            "parameter",
            "Parameter",
            "",
            0,
            None,
            "Its fitted parameter.",
        ),
        q("positions", "Subset", "", 0, None, "Which test positions."),
        q(
            "test_positions",
            "Positions",
            "",
            0,
            None,
            "Test positions scored.",
        ),
        q(
            "log_loss",
            "Log loss",
            "",
            4,
            LO,
            "Mean log loss of the mover's expected score.",
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
            "Against P(x) at the best single x05 (negative: better).",
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
            "Against P(x) at the best single x05 (negative: better).",
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

pub const SUMMARY: Output = Output {
    name: "summary",
    title: "Summary",
    doc: "The report's summary of an event, first on the page and first in its section.",
    columns: &[
        q(
            "event",
            "Event",
            "",
            0,
            None,
            "The event (its section on this page).",
        ),
        GAMES,
        q("winner", "Winner", "", 0, None, "First in the standings."),
        q(
            "score",
            "Score",
            "points",
            1,
            None,
            "The points of the winner and of the runner-up.",
        ),
        q(
            "elo_difference",
            "Elo difference",
            "± 95 %",
            0,
            None,
            "The winner over the runner-up: from the colour-swapped pairs when every \
             game between them is in a pair and the pairs bound the error, else the \
             difference of their ratings with the errors added.",
        ),
        q(
            "draw_pct",
            "Drawn games",
            "%",
            0,
            None,
            "Drawn games of all games.",
        ),
        q(
            "balances",
            "Balances",
            "pawns",
            2,
            None,
            "Each engine's win-draw balance x05.",
        ),
        q(
            "eas_ranks",
            "EAS ranks",
            "",
            0,
            None,
            "The engines in EAS order, with their scores.",
        ),
    ],
};

/// Every output, in the order the book lists them.
pub const OUTPUTS: [&Output; 15] = [
    &SUMMARY,
    &STANDINGS,
    &CROSSTABLE,
    &RATINGS,
    &RATINGS_SUMMARY,
    &PAIRS,
    &OPENINGS,
    &BALANCE,
    &X05,
    &EAS,
    &RELEVANCE,
    &AGREEMENT,
    &MATCHING,
    &ADJUDICATION,
    &WDL_VALIDATION,
];

#[cfg(test)]
mod tests {
    use super::*;

    /// Names are unique per output, every label and explanation is there, and
    /// no header is a raw column name.
    #[test]
    fn every_column_has_a_label_and_a_meaning() {
        for o in OUTPUTS {
            let mut names: Vec<_> = o.columns.iter().map(|c| c.name).collect();
            names.sort_unstable();
            let n = names.len();
            names.dedup();
            assert_eq!(n, names.len(), "a column twice in {}", o.name);
            for c in o.columns {
                assert!(
                    !c.label.is_empty() && !c.doc.is_empty(),
                    "{}.{}",
                    o.name,
                    c.name
                );
                assert!(
                    !c.header().contains('_'),
                    "{}.{}: {}",
                    o.name,
                    c.name,
                    c.header()
                );
                assert!(c.doc.ends_with('.'), "{}.{}", o.name, c.name);
            }
        }
    }

    #[test]
    fn values_are_rounded_as_declared() {
        assert_eq!(BALANCE.get("balance").unwrap().format(0.6666), "0.67");
        assert_eq!(RATINGS.get("rating").unwrap().format(2350.4), "2350");
        assert_eq!(RATINGS.get("rating").unwrap().format(f64::NAN), "—");
        assert_eq!(RATINGS.get("error").unwrap().header(), "± Elo (95 %)");
    }
}
