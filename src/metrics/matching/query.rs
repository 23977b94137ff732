//! Statistics of the `match` table per group (player, game, event): MM, EV,
//! AE and ASD (`analysis.md` §3), with counts.

use polars::prelude::*;

use crate::schema::{col, match_col as m};

/// Column names of the statistics.
pub mod out {
    pub const MOVES: &str = "moves";
    pub const MM: &str = "mm";
    pub const MM_LO: &str = "mm_lo";
    pub const MM_HI: &str = "mm_hi";
    pub const EV: &str = "ev";
    pub const AE: &str = "ae";
    pub const ASD: &str = "asd";
    pub const VALID: &str = "valued_moves";
    pub const FULL: &str = "full";
    pub const MAIN: &str = "main";
    pub const PART: &str = "part";
    pub const NON: &str = "non";
    pub const REPETITIONS: &str = "repetitions";
}

/// Grouping of the statistics (`--by`: engine, event,engine, game,engine;
/// the engine is the tested player).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum By {
    #[default]
    Engine,
    EventEngine,
    GameEngine,
}

impl crate::choice::Choice for By {
    const ALL: &'static [Self] = &[By::Engine, By::EventEngine, By::GameEngine];
    fn name(self) -> &'static str {
        match self {
            By::Engine => "engine",
            By::EventEngine => "event,engine",
            By::GameEngine => "game,engine",
        }
    }
}
crate::display_choice!(By);

impl By {
    /// The group keys, and the units MM's bootstrap resamples: the games,
    /// or per game its plies.
    pub fn keys(self) -> (&'static [&'static str], &'static [&'static str]) {
        match self {
            By::Engine => (&[m::PLAYER], &[col::GAME_ID]),
            By::EventEngine => (&[col::EVENT, m::PLAYER], &[col::GAME_ID]),
            By::GameEngine => (&[col::GAME_ID, m::PLAYER], &[col::PLY]),
        }
    }
}

/// [`with_interval`] grouped `by`.
pub fn statistics(rows: LazyFrame, by: By, bootstrap: usize, seed: u64) -> PolarsResult<DataFrame> {
    let (keys, cluster) = by.keys();
    with_interval(rows, keys, cluster, bootstrap, seed)
}

/// MM, EV, AE and ASD of the `match` rows per `keys`, sorted by the keys.
///
/// MM counts every tested move; EV, AE and ASD count the moves with a valid
/// final-MLM eval of both the played and the top move (`valued_moves`:
/// repetitions and invalid data are left out).
pub fn summary(rows: LazyFrame, keys: &[&str]) -> LazyFrame {
    let count_type = |t: &str, name: &str| {
        col(m::MATCH_TYPE)
            .eq(lit(t))
            .cast(DataType::UInt32)
            .sum()
            .alias(name)
    };
    let keys_e: Vec<Expr> = keys.iter().map(|k| col(*k)).collect();
    rows.group_by(keys_e)
        .agg([
            len().alias(out::MOVES),
            col(m::TOP_AT_D)
                .cast(DataType::Float64)
                .mean()
                .alias(out::MM),
            col(m::EQUAL_VALUE).count().alias(out::VALID),
            col(m::EQUAL_VALUE)
                .cast(DataType::Float64)
                .mean()
                .alias(out::EV),
            col(m::DROP_PAWNS).mean().alias(out::AE),
            col(m::SCALED_DROP).mean().alias(out::ASD),
            count_type("FULL", out::FULL),
            count_type("MAIN", out::MAIN),
            count_type("PART", out::PART),
            count_type("NON", out::NON),
            col(crate::schema::col::REPETITION)
                .cast(DataType::UInt32)
                .sum()
                .alias(out::REPETITIONS),
        ])
        .sort(keys.to_vec(), SortMultipleOptions::default())
}

/// Per group (`keys`) and cluster (`cluster`, e.g. the game): first choices
/// at depth d and moves, the input of [`super::math::mm_interval`].
pub fn mm_clusters(rows: LazyFrame, keys: &[&str], cluster: &[&str]) -> LazyFrame {
    let mut by: Vec<Expr> = keys.iter().map(|k| col(*k)).collect();
    by.extend(cluster.iter().map(|k| col(*k)));
    let mut sort: Vec<&str> = keys.to_vec();
    sort.extend(cluster);
    rows.group_by(by)
        .agg([
            col(m::TOP_AT_D).cast(DataType::UInt32).sum().alias("hits"),
            len().cast(DataType::UInt32).alias("n"),
        ])
        .sort(sort, SortMultipleOptions::default())
}

/// [`summary`] with MM's bootstrap interval (`mm_lo`, `mm_hi`: 2.5 % and
/// 97.5 % over `bootstrap` resamples of the `cluster` units of each group,
/// seeded by `seed`).
pub fn with_interval(
    rows: LazyFrame,
    keys: &[&str],
    cluster: &[&str],
    bootstrap: usize,
    seed: u64,
) -> PolarsResult<DataFrame> {
    let mut df = summary(rows.clone(), keys).collect()?;
    let cl = mm_clusters(rows, keys, cluster).collect()?;
    // Group rows are sorted by the keys in both frames: walk them together.
    let key_of = |df: &DataFrame, i: usize| -> PolarsResult<Vec<String>> {
        keys.iter()
            .map(|k| Ok(df.column(k)?.get(i)?.to_string()))
            .collect()
    };
    let hits = cl.column("hits")?.u32()?;
    let n = cl.column("n")?.u32()?;
    let (mut lo, mut hi) = (
        Vec::with_capacity(df.height()),
        Vec::with_capacity(df.height()),
    );
    let mut j = 0;
    for i in 0..df.height() {
        let key = key_of(&df, i)?;
        let mut units = Vec::new();
        while j < cl.height() && key_of(&cl, j)? == key {
            units.push((hits.get(j).unwrap_or(0), n.get(j).unwrap_or(0)));
            j += 1;
        }
        let iv = super::math::mm_interval(&units, bootstrap, seed);
        lo.push(iv.map(|x| x.0));
        hi.push(iv.map(|x| x.1));
    }
    let at = df.get_column_index(out::MM).map_or(df.width(), |i| i + 1);
    df.insert_column(at, Column::new(out::MM_HI.into(), hi))?;
    df.insert_column(at, Column::new(out::MM_LO.into(), lo))?;
    Ok(df)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::col as c;

    #[test]
    fn summary_by_hand() {
        // Two moves of A: a FULL match (drop 0) and a NON move losing 0.5
        // from +1.0 to +0.5; one repetition of B (no eval counts).
        let df = df!(
            m::PLAYER => ["A", "A", "B"],
            m::MATCH_TYPE => ["FULL", "NON", "MAIN"],
            m::TOP_AT_D => [true, false, true],
            m::EQUAL_VALUE => [Some(true), Some(false), None],
            m::DROP_PAWNS => [Some(0.0), Some(0.5), None],
            m::SCALED_DROP => [Some(0.0), Some(2f64.ln() - 1.5f64.ln()), None],
            c::REPETITION => [false, false, true],
        )
        .unwrap();
        let s = summary(df.lazy(), &[m::PLAYER]).collect().unwrap();
        let f = |name: &str| s.column(name).unwrap().cast(&DataType::Float64).unwrap();
        let f = |name: &str, i: usize| f(name).f64().unwrap().get(i);
        assert_eq!(f(out::MOVES, 0), Some(2.0));
        assert_eq!(f(out::MM, 0), Some(0.5));
        assert_eq!(f(out::EV, 0), Some(0.5));
        assert_eq!(f(out::AE, 0), Some(0.25));
        assert!((f(out::ASD, 0).unwrap() - (2f64.ln() - 1.5f64.ln()) / 2.0).abs() < 1e-12);
        assert_eq!(f(out::MM, 1), Some(1.0));
        assert_eq!(f(out::VALID, 1), Some(0.0));
        assert_eq!(f(out::EV, 1), None);
        assert_eq!(f(out::REPETITIONS, 1), Some(1.0));
        assert_eq!(f(out::NON, 0), Some(1.0));
    }
}
