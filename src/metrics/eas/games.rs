//! The games behind one number of the EAS table (`eas --games`).

use polars::prelude::*;

use super::labels::cols;
use crate::Error;
use crate::metrics::{Selection, game_listing};
use crate::schema::col;

/// Which number's games (`--games`): wins with a sacrifice chain of highest
/// level 1..=5 or the queen's, short wins, bad draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Behind {
    Sac1,
    Sac2,
    Sac3,
    Sac4,
    Sac5,
    SacQ,
    Short,
    BadDraws,
}

impl crate::choice::Choice for Behind {
    const ALL: &'static [Self] = &[
        Behind::Sac1,
        Behind::Sac2,
        Behind::Sac3,
        Behind::Sac4,
        Behind::Sac5,
        Behind::SacQ,
        Behind::Short,
        Behind::BadDraws,
    ];
    fn name(self) -> &'static str {
        match self {
            Behind::Sac1 => "sac1",
            Behind::Sac2 => "sac2",
            Behind::Sac3 => "sac3",
            Behind::Sac4 => "sac4",
            Behind::Sac5 => "sac5",
            Behind::SacQ => "sacq",
            Behind::Short => "short",
            Behind::BadDraws => "bad-draws",
        }
    }
    fn help(self) -> &'static str {
        match self {
            Behind::Short => "Wins of at most L moves (the short-win limit)",
            _ => "",
        }
    }
}
crate::display_choice!(Behind);

impl Behind {
    /// The row's condition for the side with index `s` (0 White, 1 Black),
    /// `won` its scoring win, `short_limit` L (moves).
    fn condition(self, s: usize, won: Expr, short_limit: i32) -> Expr {
        // The chain's depth: 1..=5 the highest level, 6 the queen.
        let depth = col(cols::SAC_DEPTH[s]);
        let sac = |level: u8| won.clone().and(depth.clone().eq(lit(level)));
        match self {
            Behind::Sac1 => sac(1),
            Behind::Sac2 => sac(2),
            Behind::Sac3 => sac(3),
            Behind::Sac4 => sac(4),
            Behind::Sac5 => sac(5),
            Behind::SacQ => sac(6),
            Behind::Short => won.and(col(cols::PLIES_FEN).lt_eq(lit(2 * short_limit))),
            Behind::BadDraws => col(col::RESULT)
                .eq(lit("1/2-1/2"))
                .and(col(cols::BAD_DRAW[s])),
        }
    }
}

/// The games of the selection's engines (every engine without a regex)
/// behind one number of the table over `labels`, from each engine's side,
/// by game id: game_id, event, round, white, black, result, plies_fen,
/// sac_depth, sac1_ply.
pub fn games_behind(
    labels: &DataFrame,
    sel: &Selection,
    which: Behind,
    short_limit: i32,
) -> Result<DataFrame, Error> {
    let labels = sel.games(labels.clone().lazy());
    let side = |s: usize, name: &str, color: &str| -> LazyFrame {
        let mine = sel.engines(labels.clone(), name);
        let won = col(cols::WINNER)
            .eq(lit(color))
            .and(col(cols::DUPLICATE).not())
            .and(col(cols::IRREGULAR).not());
        let mut listed = game_listing(&[cols::PLIES_FEN]);
        listed.extend([
            col(cols::SAC_DEPTH[s]).alias("sac_depth"),
            col(cols::SAC1_PLY[s]).alias("sac1_ply"),
        ]);
        mine.filter(which.condition(s, won, short_limit))
            .select(listed)
    };
    Ok(concat(
        [side(0, col::WHITE, "w"), side(1, col::BLACK, "b")],
        UnionArgs::default(),
    )?
    .sort([col::GAME_ID], SortMultipleOptions::default())
    .collect()?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::tests::ids;

    /// Four games of A and B: 1. A wins with a level-2 sacrifice in 40
    /// plies; 2. B wins with the queen's in 90; 3. a draw bad for B;
    /// 4. A wins a duplicate with a level-2 sacrifice (not a scoring win).
    fn labels() -> DataFrame {
        df!(
            col::GAME_ID => [1i64, 2, 3, 4],
            col::EVENT => ["E1", "E1", "E2", "E2"],
            col::ROUND => ["1", "2", "3", "4"],
            col::WHITE => ["A", "A", "B", "A"],
            col::BLACK => ["B", "B", "A", "B"],
            col::RESULT => ["1-0", "0-1", "1/2-1/2", "1-0"],
            cols::WINNER => [Some("w"), Some("b"), None, Some("w")],
            cols::PLIES_FEN => [40i32, 90, 100, 40],
            cols::DUPLICATE => [false, false, false, true],
            cols::IRREGULAR => [false; 4],
            cols::SAC_DEPTH[0] => [2u8, 0, 0, 2],
            cols::SAC_DEPTH[1] => [0u8, 6, 0, 0],
            cols::SAC1_PLY[0] => [Some(12u32), None, None, Some(12)],
            cols::SAC1_PLY[1] => [None, Some(30u32), None, None],
            cols::BAD_DRAW[0] => [false, false, true, false],
            cols::BAD_DRAW[1] => [false; 4],
        )
        .unwrap()
    }

    fn sel(engine: Option<&str>, event: Option<&str>) -> Selection {
        Selection::new(event.map(Into::into), engine.map(Into::into), &[]).unwrap()
    }

    #[test]
    fn games_behind_each_number() {
        let l = labels();
        let a = sel(Some("^A$"), None);
        let got = games_behind(&l, &a, Behind::Sac2, 30).unwrap();
        assert_eq!(ids(&got), [1]);
        let depth = got.column("sac_depth").unwrap().u8().unwrap().get(0);
        assert_eq!(depth, Some(2));
        assert_eq!(
            ids(&games_behind(&l, &a, Behind::SacQ, 30).unwrap()),
            [] as [i64; 0]
        );
        let b = sel(Some("^B$"), None);
        assert_eq!(ids(&games_behind(&l, &b, Behind::SacQ, 30).unwrap()), [2]);
        // Short: at most 2·L plies; game 1 is 40 plies, within L = 20 not 19.
        assert_eq!(ids(&games_behind(&l, &a, Behind::Short, 20).unwrap()), [1]);
        assert!(games_behind(&l, &a, Behind::Short, 19).unwrap().height() == 0);
        // The bad draw is B's (White in game 3): its side's flag, not A's.
        assert_eq!(
            ids(&games_behind(&l, &b, Behind::BadDraws, 30).unwrap()),
            [3]
        );
        assert_eq!(
            ids(&games_behind(&l, &a, Behind::BadDraws, 30).unwrap()),
            [] as [i64; 0]
        );
        // Without an engine regex, every engine; an event regex narrows.
        let all = sel(None, None);
        assert_eq!(
            ids(&games_behind(&l, &all, Behind::Short, 50).unwrap()),
            [1, 2]
        );
        let e2 = sel(None, Some("E2"));
        assert_eq!(
            ids(&games_behind(&l, &e2, Behind::Sac2, 30).unwrap()),
            [] as [i64; 0]
        );
    }

    #[test]
    fn families_merge_the_engines_listed() {
        let l = labels();
        let s = Selection::new(None, Some("^AB$".into()), &["^[AB]$=AB".into()]).unwrap();
        let got = games_behind(&l, &s, Behind::Sac2, 30).unwrap();
        assert_eq!(ids(&got), [1]);
        let white = got.column(col::WHITE).unwrap().str().unwrap().get(0);
        assert_eq!(white, Some("AB"));
    }
}
