//! Column names of derived tables (metric outputs), shared by the library, the
//! CLI output and the notebooks. One module per command's outputs where
//! they are many; the stored tables' own names are in `col` and the
//! `*_col` modules.

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
    /// Pairs won 1½–½ or 2–0 (TCEC's decisive openings), and of them 2–0.
    pub const DECISIVE_PAIRS: &str = "decisive_pairs";
    pub const REVERSE_KILLS: &str = "reverse_kills";
    /// Pairs won 1–1 with each engine winning the same colour.
    pub const BUSTED_PAIRS: &str = "busted_pairs";
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
        ("depth", super::super::base::col::DEPTH),
        ("seldepth", super::super::base::col::SELDEPTH),
        ("nodes", super::super::base::col::NODES),
        ("nps", super::super::base::col::NPS),
        ("time_s", super::super::base::col::TIME_MS),
        ("tb_hits", super::super::base::col::TB_HITS),
        ("hash_full", super::super::base::col::HASH_FULL),
        ("ponder_hit", super::super::base::col::PONDER_HIT),
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
    pub const WHITE_SCORE_LO: &str = "white_score_lo";
    pub const WHITE_SCORE_HI: &str = "white_score_hi";
    pub const SCORE_LO: &str = "score_lo";
    pub const SCORE_HI: &str = "score_hi";
    pub const DRAW_PCT: &str = "draw_pct";
    pub const TERMINATION_CLASS: &str = "termination_class";
    /// A share of the games in percent (`standings --terminations`).
    pub const PCT: &str = "pct";
    pub const DRAW_LO: &str = "draw_lo";
    pub const DRAW_HI: &str = "draw_hi";
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
    /// Bootstrap resamples drawn (the `--bootstrap` that made them).
    pub const BOOTSTRAP: &str = "bootstrap";
    /// The intervals' level, a fraction (`--level`).
    pub const LEVEL: &str = "level";
    pub const DISCONNECTED: &str = "disconnected_replays";
    pub const SOLVER: &str = "solver";
    pub const NOTE: &str = "note";
}
