//! Win-draw balance (x_0_5) per engine, `../shared/spec/metrics.md` §1.
//!
//! For each group (event and engine, or engine): W = official wins minus hollow
//! wins (an official win whose winner's final own eval is exactly 0.00); over
//! every non-won game (draws, losses, hollow wins) the engine's maximum own eval;
//! the balance is the W-th largest of those maxima. Ties between equal maxima are
//! broken by game id, so the game named as setting a value is deterministic.

use polars::prelude::*;

use crate::choice::Choice;

use super::chunks::{CHUNK_PLIES, GameChunks};
use super::{Families, MATE_CP, Selection, engine_games, event_matches, own_evals, to_pawns};
use crate::Error;
use crate::schema::{col, metric};

/// What the per-engine statistics are grouped by besides the engine
/// (`--by`: engine, event,engine, season,engine).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Group {
    #[default]
    Engine,
    EventEngine,
    SeasonEngine,
}

impl Choice for Group {
    const ALL: &'static [Self] = &[Group::Engine, Group::EventEngine, Group::SeasonEngine];
    fn name(self) -> &'static str {
        match self {
            Group::Engine => "engine",
            Group::EventEngine => "event,engine",
            Group::SeasonEngine => "season,engine",
        }
    }
    fn help(self) -> &'static str {
        match self {
            // Scopes, not rows: crosstable and pairs have a row per
            // opponent (or pair) within each.
            Group::Engine => "Over all events, per engine",
            Group::EventEngine => "Per event (match, tournament stage) and engine",
            Group::SeasonEngine => {
                "Per TCEC season (\"Season N\" in the event; other events alone) and engine"
            }
        }
    }
}
crate::display_choice!(Group);

impl Group {
    /// The grouping column besides the engine: event, season or none.
    pub fn outer(self) -> Option<&'static str> {
        match self {
            Group::Engine => None,
            Group::EventEngine => Some(col::EVENT),
            Group::SeasonEngine => Some(metric::SEASON),
        }
    }
}

/// How `balance` (and the statistics built like it) groups and selects.
#[derive(Debug, Clone, Default)]
pub struct BalanceOptions {
    pub group: Group,
    pub selection: Selection,
}

impl BalanceOptions {
    /// The grouping columns.
    pub fn keys(&self) -> Vec<&'static str> {
        self.group
            .outer()
            .into_iter()
            .chain([metric::ENGINE])
            .collect()
    }
}

/// The map step of the balance and the calibrations: per (game, side) facts
/// of some games and their moves, whatever the options (no family merging,
/// no filter), so that they can be computed part by part and reduced by
/// [`select_facts`] (see `evallab facts`).
///
/// Columns: game_id, event, round, engine, opponent (names as in the tags),
/// side, score (null for `*`), max_own_cp, last_own_cp, and with `evals`
/// own_evals (the own evals without mates, in ply order, for the ml
/// calibration).
pub fn side_facts(
    games: LazyFrame,
    moves: LazyFrame,
    evals: bool,
) -> Result<LazyFrame, PolarsError> {
    let by_ply = |e: Expr| e.sort_by([col(col::PLY)], SortMultipleOptions::default());
    let mut aggs = vec![
        col(metric::OWN_CP).max().alias(metric::MAX_OWN_CP),
        by_ply(col(metric::OWN_CP))
            .last()
            .alias(metric::LAST_OWN_CP),
    ];
    if evals {
        aggs.push(
            by_ply(col(metric::OWN_CP))
                .filter(by_ply(col(metric::OWN_CP)).abs().lt(lit(MATE_CP / 2)))
                .cast(DataType::Int32)
                .alias(metric::OWN_EVALS),
        );
    }
    let per_game = own_evals(moves, &[])
        .group_by([col(col::GAME_ID), col(col::SIDE)])
        .agg(aggs);
    Ok(engine_games(games, &Families::default())?.join(
        per_game,
        [col(col::GAME_ID), col(col::SIDE)],
        [col(col::GAME_ID), col(col::SIDE)],
        JoinArgs::new(JoinType::Left),
    ))
}

/// The reduce step's start: [`side_facts`] (of one part, or of many
/// concatenated) with the options applied, and the outcome flags.
///
/// Columns: game_id, event, round, engine, opponent, side, score,
/// max_own_cp, last_own_cp, \[own_evals,\] season, hollow, won.
pub fn select_facts(side: LazyFrame, opts: &BalanceOptions) -> LazyFrame {
    let sel = &opts.selection;
    let mut lf = side;
    if let Some(re) = &sel.event {
        lf = lf.filter(event_matches(re));
    }
    lf = lf.filter(col(metric::SCORE).is_not_null()).with_columns([
        sel.families
            .apply(col(metric::ENGINE))
            .alias(metric::ENGINE),
        sel.families
            .apply(col(metric::OPPONENT))
            .alias(metric::OPPONENT),
    ]);
    let lf = sel.engines(lf, metric::ENGINE);
    let hollow = col(metric::SCORE)
        .eq(lit(1.0))
        .and(col(metric::LAST_OWN_CP).eq(lit(0i64)))
        .fill_null(lit(false));
    let season = super::season(col(col::EVENT));
    lf.with_column(season.alias(metric::SEASON))
        .with_column(hollow.alias(metric::HOLLOW))
        .with_column(
            col(metric::SCORE)
                .eq(lit(1.0))
                .and(col(metric::HOLLOW).not())
                .alias(metric::WON),
        )
}

/// Per (game, engine) facts the balance and the calibrations need, in one
/// process: [`side_facts_in_chunks`] of the selected events, then
/// [`select_facts`].
pub fn game_facts(
    games: LazyFrame,
    moves: LazyFrame,
    opts: &BalanceOptions,
    evals: bool,
) -> Result<LazyFrame, Error> {
    // Aggregate only the moves of the selected events.
    let (selected, _) = opts.selection.events(games.clone(), moves.clone());
    let side = side_facts_in_chunks(games, selected, moves, evals, CHUNK_PLIES)?;
    Ok(select_facts(side.lazy(), opts))
}

/// [`side_facts`] of the games `selected` (rows of the games table
/// `games`), a chunk of whole games (about `chunk_plies` plies) at a time
/// ([`GameChunks`]): the rows of one pass over all games, in its order, with
/// one chunk's moves in memory.
pub fn side_facts_in_chunks(
    games: LazyFrame,
    selected: LazyFrame,
    moves: LazyFrame,
    evals: bool,
    chunk_plies: u64,
) -> Result<DataFrame, Error> {
    let chunks = GameChunks::new(games, selected.clone(), chunk_plies)?;
    let df = chunks.map(&selected, &moves, |games, moves| {
        Ok(side_facts(games, moves, evals)?)
    })?;
    if chunks.len() == 1 {
        return Ok(df);
    }
    // side_facts lists White's rows, then Black's, each in the games' order;
    // chunk after chunk they alternate: a stable sort puts White's first.
    Ok(df.sort(
        [col::SIDE],
        SortMultipleOptions::default()
            .with_order_descending(true)
            .with_maintain_order(true),
    )?)
}

/// The balance table, one row per group, sorted by the group keys.
///
/// Columns: the group keys (engine; event or season first when grouped so), games, official_wins, hollow_wins, wins, draws,
/// losses, non_won_with_eval, highest_eval_without_win, highest_game_id,
/// highest_round, balance, balance_game_id, balance_round,
/// non_won_reaching_balance, reason. Evals are in pawns, own POV.
pub fn balance(facts: LazyFrame, opts: &BalanceOptions) -> Result<LazyFrame, PolarsError> {
    // The facts feed four branches (stats, highest, balance, reaching): cache
    // them so that the moves are scanned and aggregated once, not four times.
    let facts = facts.cache();
    let keys = opts.keys();
    let kcols: Vec<Expr> = keys.iter().map(|k| col(*k)).collect();
    let count_if = |e: Expr, name: &str| e.cast(DataType::UInt32).sum().alias(name);
    let non_won_eval = col(metric::WON)
        .not()
        .and(col(metric::MAX_OWN_CP).is_not_null());
    let stats = facts.clone().group_by(kcols.clone()).agg([
        len().alias(metric::GAMES),
        count_if(col(metric::SCORE).eq(lit(1.0)), metric::OFFICIAL_WINS),
        count_if(col(metric::HOLLOW), metric::HOLLOW_WINS),
        count_if(col(metric::WON), metric::WINS),
        count_if(col(metric::SCORE).eq(lit(0.5)), metric::DRAWS),
        count_if(col(metric::SCORE).eq(lit(0.0)), metric::LOSSES),
        count_if(non_won_eval.clone(), metric::NON_WON_WITH_EVAL),
    ]);
    // Rank the non-won maxima within each group: 1 = highest; ties by game id.
    let ranked = facts
        .filter(non_won_eval)
        .sort_by_exprs(
            [col(metric::MAX_OWN_CP), col(col::GAME_ID)],
            SortMultipleOptions::default().with_order_descending_multi([true, false]),
        )
        .with_column(
            col(col::GAME_ID)
                .cum_count(false)
                .over(kcols.clone())?
                .alias(metric::RANK),
        )
        .cache();
    let pick = |rank: Expr, value: &str, game: &str, round: &str| {
        let mut sel = kcols.clone();
        sel.extend([
            col(metric::MAX_OWN_CP).alias(value),
            col(col::GAME_ID).alias(game),
            col(col::ROUND).alias(round),
        ]);
        ranked
            .clone()
            .join(
                stats.clone().select(
                    kcols
                        .iter()
                        .cloned()
                        .chain([col(metric::WINS)])
                        .collect::<Vec<_>>(),
                ),
                kcols.clone(),
                kcols.clone(),
                JoinArgs::new(JoinType::Inner),
            )
            .filter(col(metric::RANK).eq(rank))
            .select(sel)
    };
    let highest = pick(
        lit(1u32),
        metric::HIGHEST_EVAL_WITHOUT_WIN,
        metric::HIGHEST_GAME_ID,
        metric::HIGHEST_ROUND,
    );
    let bal = pick(
        col(metric::WINS),
        metric::BALANCE,
        metric::BALANCE_GAME_ID,
        metric::BALANCE_ROUND,
    );
    let reaching = ranked
        .clone()
        .join(
            bal.clone().select(
                kcols
                    .iter()
                    .cloned()
                    .chain([col(metric::BALANCE)])
                    .collect::<Vec<_>>(),
            ),
            kcols.clone(),
            kcols.clone(),
            JoinArgs::new(JoinType::Inner),
        )
        .group_by(kcols.clone())
        .agg([count_if(
            col(metric::MAX_OWN_CP).gt_eq(col(metric::BALANCE)),
            metric::REACHING_BALANCE,
        )]);
    let left = |a: LazyFrame, b: LazyFrame| {
        a.join(
            b,
            kcols.clone(),
            kcols.clone(),
            JoinArgs::new(JoinType::Left),
        )
    };
    let reason = when(col(metric::WINS).eq(lit(0u32)))
        .then(lit("no actual wins (W = 0)"))
        .when(col(metric::NON_WON_WITH_EVAL).lt(col(metric::WINS)))
        .then(lit("fewer non-won games with an own eval than actual wins"))
        .otherwise(lit(NULL).cast(DataType::String));
    Ok(left(left(left(stats, highest), bal), reaching)
        .with_columns([
            to_pawns(col(metric::HIGHEST_EVAL_WITHOUT_WIN)),
            to_pawns(col(metric::BALANCE)),
            col(metric::REACHING_BALANCE).fill_null(lit(0u32)),
            reason.alias(metric::REASON),
        ])
        .sort(keys, SortMultipleOptions::default()))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A move of the tiny test frames: (game_id, ply, side, book, kind, cp, mate).
    pub(crate) type Move<'a> = (i64, u32, &'a str, bool, &'a str, Option<i32>, Option<i16>);

    /// Tiny games and moves frames: (game_id, white, black, result, and the
    /// plies counted) and moves.
    pub(crate) fn frames(
        games: &[(i64, &str, &str, &str)],
        moves: &[Move],
    ) -> (LazyFrame, LazyFrame) {
        let g = df!(
            col::GAME_ID => games.iter().map(|g| g.0).collect::<Vec<_>>(),
            col::EVENT => games.iter().map(|_| "E").collect::<Vec<_>>(),
            col::ROUND => games.iter().map(|g| g.0.to_string()).collect::<Vec<_>>(),
            col::WHITE => games.iter().map(|g| g.1).collect::<Vec<_>>(),
            col::BLACK => games.iter().map(|g| g.2).collect::<Vec<_>>(),
            col::RESULT => games.iter().map(|g| g.3).collect::<Vec<_>>(),
            col::PLIES => games
                .iter()
                .map(|g| moves.iter().filter(|m| m.0 == g.0).count() as u32)
                .collect::<Vec<_>>(),
        )
        .unwrap();
        let m = df!(
            col::GAME_ID => moves.iter().map(|m| m.0).collect::<Vec<_>>(),
            col::PLY => moves.iter().map(|m| m.1).collect::<Vec<_>>(),
            col::SIDE => moves.iter().map(|m| m.2).collect::<Vec<_>>(),
            col::IS_BOOK => moves.iter().map(|m| m.3).collect::<Vec<_>>(),
            col::EVAL_KIND => moves.iter().map(|m| m.4).collect::<Vec<_>>(),
            col::EVAL_CP => moves.iter().map(|m| m.5).collect::<Vec<_>>(),
            col::MATE => moves.iter().map(|m| m.6).collect::<Vec<_>>(),
        )
        .unwrap();
        (g.lazy(), m.lazy())
    }

    fn run(games: &[(i64, &str, &str, &str)], moves: &[Move]) -> DataFrame {
        let (g, m) = frames(games, moves);
        let opts = BalanceOptions::default();
        balance(game_facts(g, m, &opts, false).unwrap(), &opts)
            .unwrap()
            .collect()
            .unwrap()
    }

    fn row(df: &DataFrame, engine: &str) -> DataFrame {
        df.clone()
            .lazy()
            .filter(col(metric::ENGINE).eq(lit(engine)))
            .collect()
            .unwrap()
    }

    fn f(df: &DataFrame, c: &str) -> Option<f64> {
        df.column(c)
            .unwrap()
            .cast(&DataType::Float64)
            .unwrap()
            .f64()
            .unwrap()
            .get(0)
    }

    /// Engine A (White in every game) by hand:
    /// g1 win, A's evals 0.50, 3.00 → actual win.
    /// g2 win ending on 0.00 (hollow), max 1.75 → non-won, max 1.75.
    /// g3 draw, evals 0.62, 0.10 → max 0.62.
    /// g4 draw, evals 0.40, book 5.00 (ignored) → max 0.40.
    /// g5 loss, evals 0.62 (tie with g3), -2.00 → max 0.62.
    /// g6 draw, placeholder only → no own eval.
    /// W = 2 - 1 = 1; non-won maxima: 1.75, 0.62 (g3), 0.62 (g5), 0.40.
    /// Balance = 1st largest = 1.75 (g2); highest without win = 1.75 (g2);
    /// non-won reaching it: 1.
    /// Black engine B: wins g5 only, own evals -0.10 (g5) → W = 1; non-won
    /// games g1..g4, g6 have no B evals except g3 (-0.20) → maxima [-0.20] →
    /// balance -0.20 from g3.
    #[test]
    fn balance_by_hand() {
        let games = [
            (1, "A", "B", "1-0"),
            (2, "A", "B", "1-0"),
            (3, "A", "B", "1/2-1/2"),
            (4, "A", "B", "1/2-1/2"),
            (5, "A", "B", "0-1"),
            (6, "A", "B", "1/2-1/2"),
        ];
        let moves = [
            (1, 1, "w", false, "cp", Some(50), None),
            (1, 3, "w", false, "cp", Some(300), None),
            (2, 1, "w", false, "cp", Some(175), None),
            (2, 3, "w", false, "cp", Some(0), None),
            (3, 1, "w", false, "cp", Some(62), None),
            (3, 2, "b", false, "cp", Some(20), None),
            (3, 3, "w", false, "cp", Some(10), None),
            (4, 1, "w", true, "cp", Some(500), None),
            (4, 3, "w", false, "cp", Some(40), None),
            (5, 1, "w", false, "cp", Some(62), None),
            (5, 2, "b", false, "cp", Some(10), None),
            (5, 3, "w", false, "cp", Some(-200), None),
            (6, 1, "w", false, "placeholder", None, None),
        ];
        let df = run(&games, &moves);
        let a = row(&df, "A");
        assert_eq!(f(&a, metric::GAMES), Some(6.0));
        assert_eq!(f(&a, metric::OFFICIAL_WINS), Some(2.0));
        assert_eq!(f(&a, metric::HOLLOW_WINS), Some(1.0));
        assert_eq!(f(&a, metric::WINS), Some(1.0));
        assert_eq!(f(&a, metric::DRAWS), Some(3.0));
        assert_eq!(f(&a, metric::LOSSES), Some(1.0));
        assert_eq!(f(&a, metric::NON_WON_WITH_EVAL), Some(4.0));
        assert_eq!(f(&a, metric::HIGHEST_EVAL_WITHOUT_WIN), Some(1.75));
        assert_eq!(f(&a, metric::HIGHEST_GAME_ID), Some(2.0));
        assert_eq!(f(&a, metric::BALANCE), Some(1.75));
        assert_eq!(f(&a, metric::REACHING_BALANCE), Some(1.0));
        let b = row(&df, "B");
        assert_eq!(f(&b, metric::WINS), Some(1.0));
        assert_eq!(f(&b, metric::BALANCE), Some(-0.2));
        assert_eq!(f(&b, metric::BALANCE_GAME_ID), Some(3.0));
    }

    /// W = 2 with a tie at the W-th place: maxima 0.80, 0.62 (g3), 0.62 (g4),
    /// 0.30 → balance 0.62, set by the lower game id (g3), reached by 3 games.
    /// A mate score outranks every cp value, and a plateau value is ignored.
    #[test]
    fn ties_mates_and_plateaus() {
        let games = [
            (1, "A", "B", "1-0"),
            (2, "A", "B", "1-0"),
            (3, "A", "B", "1/2-1/2"),
            (4, "A", "B", "1/2-1/2"),
            (5, "A", "B", "1/2-1/2"),
            (6, "A", "B", "0-1"),
            (7, "A", "B", "1/2-1/2"),
        ];
        let moves = [
            (1, 1, "w", false, "cp", Some(100), None),
            (2, 1, "w", false, "cp", Some(100), None),
            (3, 1, "w", false, "cp", Some(62), None),
            (4, 1, "w", false, "cp", Some(62), None),
            (5, 1, "w", false, "cp", Some(30), None),
            (5, 3, "w", false, "cp", Some(15000), None),
            (6, 1, "w", false, "cp", Some(80), None),
            (7, 1, "w", false, "mate", None, Some(5)),
        ];
        let df = run(&games, &moves);
        let a = row(&df, "A");
        // g7's mate in 5 is the highest: 10000 - 5/100 pawns.
        assert_eq!(f(&a, metric::HIGHEST_EVAL_WITHOUT_WIN), Some(9999.95));
        assert_eq!(f(&a, metric::HIGHEST_GAME_ID), Some(7.0));
        // Maxima: mate (g7), 0.80 (g6), 0.62 (g3), 0.62 (g4), 0.30 (g5): W = 2 → 0.80.
        assert_eq!(f(&a, metric::BALANCE), Some(0.8));
        assert_eq!(f(&a, metric::BALANCE_GAME_ID), Some(6.0));
        assert_eq!(f(&a, metric::REACHING_BALANCE), Some(2.0));
        // Without the mate game the 2nd largest is the 0.62 tie, set by g3.
        let df = run(&games[..6], &moves[..7]);
        let a = row(&df, "A");
        assert_eq!(f(&a, metric::BALANCE), Some(0.62));
        assert_eq!(f(&a, metric::BALANCE_GAME_ID), Some(3.0));
        assert_eq!(f(&a, metric::REACHING_BALANCE), Some(3.0));
    }

    #[test]
    fn engines_without_enough_games_get_a_reason() {
        let games = [(1, "A", "B", "1/2-1/2"), (2, "B", "A", "1-0")];
        let moves = [(1, 1, "w", false, "cp", Some(20), None)];
        let df = run(&games, &moves);
        let a = row(&df, "A");
        assert_eq!(f(&a, metric::BALANCE), None);
        let reason = a.column(metric::REASON).unwrap().str().unwrap().get(0);
        assert_eq!(reason, Some("no actual wins (W = 0)"));
        let b = row(&df, "B");
        let reason = b.column(metric::REASON).unwrap().str().unwrap().get(0);
        assert_eq!(
            reason,
            Some("fewer non-won games with an own eval than actual wins")
        );
    }
}
