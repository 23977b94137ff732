//! Eval → win/draw/loss models fitted as Stockfish's `WDL_model` fits them
//! (docs/definitions/wdl.md): `scoreWDLstat`'s counts of (outcome, move,
//! material, eval) read from the tables ([`query`]), `scoreWDL.py`'s three
//! fits of a(material), b(material) ([`math`]), per group with bootstrap
//! intervals over games, and an out-of-sample validation against the game
//! results ([`validate`]).
//!
//! a(m) is the eval at which half of the games are won at material m: the
//! seed's x_0_5 as a function of the material on the board (x05 = a/100).

pub mod math;
pub mod powell;
pub mod query;
pub mod validate;

use std::collections::BTreeMap;
use std::ops::Range;

use polars::prelude::*;
use rayon::prelude::*;

use crate::metrics::calibrate::SplitMix64;
use crate::metrics::chunks::CHUNK_PLIES;
use crate::metrics::{Count, Selection, Ticker};
use crate::schema::{col, metric};
pub use math::{Fit, Fitting, Grid, Model, NoFit, Outcome, Prior, Settings, Solver, poly3};

/// The pooled positions a group's fit counts beside its own (`--prior-positions`):
/// chosen out of sample on the TCEC archive (docs/guide/wdl.md), where about
/// this many both beat each engine alone and the pool alone within an era
/// and matched the pool across eras.
pub const PRIOR_POSITIONS: f64 = 10_000.0;

/// What the fits are grouped by (`--by`): pooled by default.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Group {
    /// One fit over every selected position.
    #[default]
    All,
    Engine,
    Event,
    Season,
    EventEngine,
    SeasonEngine,
}

impl crate::choice::Choice for Group {
    const ALL: &'static [Self] = &[
        Group::All,
        Group::Engine,
        Group::Event,
        Group::Season,
        Group::EventEngine,
        Group::SeasonEngine,
    ];
    fn name(self) -> &'static str {
        match self {
            Group::All => "all",
            Group::Engine => "engine",
            Group::Event => "event",
            Group::Season => "season",
            Group::EventEngine => "event,engine",
            Group::SeasonEngine => "season,engine",
        }
    }
    fn help(self) -> &'static str {
        match self {
            Group::All => "One fit over every selected position",
            Group::Engine => "One fit per engine (the mover: its own evals)",
            Group::Event => "One fit per event",
            Group::Season => {
                "One fit per TCEC season (\"Season N\" in the event; other events alone)"
            }
            Group::EventEngine => "One fit per event and engine",
            Group::SeasonEngine => "One fit per season and engine",
        }
    }
}
crate::display_choice!(Group);

impl Group {
    /// The grouping columns of [`query::positions`].
    pub fn keys(self) -> Vec<&'static str> {
        match self {
            Group::All => vec![],
            Group::Engine => vec![metric::ENGINE],
            Group::Event => vec![col::EVENT],
            Group::Season => vec![metric::SEASON],
            Group::EventEngine => vec![col::EVENT, metric::ENGINE],
            Group::SeasonEngine => vec![metric::SEASON, metric::ENGINE],
        }
    }
}

/// Everything `wdl` needs to know.
#[derive(Debug, Clone)]
pub struct Options {
    pub group: Group,
    pub selection: Selection,
    pub settings: Settings,
    /// `scoreWDLstat --binWidth`: evals rounded to this many centipawns.
    pub bin_width: i32,
    /// Groups with fewer retained positions get no fit (a reason instead).
    pub min_positions: f64,
    /// With groups, each group's fit counts the pooled selection as this
    /// many positions beside its own ([`Prior`]; 0: each group alone).
    pub prior_positions: f64,
    /// Bootstrap resamples over games (0: none), their seed and level.
    pub bootstrap: usize,
    pub seed: u64,
    pub level: f64,
    /// Told of each fit: a group's, or with a bootstrap each resample's.
    pub progress: Ticker,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            group: Group::All,
            selection: Selection::default(),
            settings: Settings::default(),
            bin_width: 5,
            min_positions: 1000.0,
            prior_positions: PRIOR_POSITIONS,
            bootstrap: 0,
            seed: 1,
            level: 0.95,
            progress: Ticker::default(),
        }
    }
}

/// A group's count per (outcome letter, move, material, eval): `scoreWDLstat`'s map.
type Counts = BTreeMap<(char, i32, i32, i32), f64>;

/// One counted key with its game (the bootstrap resamples games).
#[derive(Debug, Clone, Copy)]
struct Row {
    game: usize,
    outcome: Outcome,
    mv: i32,
    material: i32,
    eval: i32,
    count: f64,
}

/// One group's data and fit.
#[derive(Debug, Clone)]
pub struct GroupFit {
    pub key: Vec<String>,
    pub games: usize,
    /// Positions counted (every eval, before the fit's window).
    pub counted: f64,
    pub fit: Result<Fit, NoFit>,
    /// Bootstrap percentile intervals of a and b at the target material.
    pub a_interval: Option<(f64, f64)>,
    pub b_interval: Option<(f64, f64)>,
    /// Why a fitted group has no intervals (too few resamples fitted).
    pub interval_note: Option<String>,
    /// The pooled positions its fit counted beside its own (0: none).
    pub prior_positions: f64,
    /// Each key's count: `scoreWDLstat`'s map of this group.
    counts: Counts,
}

/// Every group's fit, in key order.
#[derive(Debug, Clone)]
pub struct Fitted {
    pub keys: Vec<&'static str>,
    pub groups: Vec<GroupFit>,
    pub settings: Settings,
    pub level: f64,
}

/// A Poisson(1) draw: the bootstrap weight of a game (a resample with
/// replacement of the games, drawn game by game).
fn poisson1(rng: &mut SplitMix64) -> f64 {
    let limit = (-1.0f64).exp();
    let mut k = 0.0;
    let mut p = 1.0;
    loop {
        p *= (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        if p <= limit {
            return k;
        }
        k += 1.0;
    }
}

/// The q-quantile of sorted values (linear interpolation).
fn quantile(sorted: &[f64], q: f64) -> f64 {
    let pos = q * (sorted.len() - 1) as f64;
    let (lo, hi) = (pos.floor() as usize, pos.ceil() as usize);
    sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo as f64)
}

fn grid_of(rows: &[Row], s: &Settings, weight: impl Fn(usize) -> f64) -> Grid {
    let mut g = Grid::new(s);
    for r in rows {
        let w = weight(r.game);
        if w > 0.0 {
            g.add(s, r.outcome, r.mv, r.material, r.eval, w * r.count);
        }
    }
    g
}

/// Fits one group: the point fit, then `bootstrap` refits on games drawn
/// with replacement (Poisson weights), each seeded from `seed` and the key.
/// `counts` is the group's map (its rows summed over the games).
/// `count` is told of the point fit and of each resample ([`units`]).
#[allow(clippy::too_many_arguments)]
fn fit_group(
    key: Vec<String>,
    rows: Vec<Row>,
    counts: Counts,
    games: usize,
    prior: Option<&Prior>,
    opts: &Options,
    count: &Count,
) -> GroupFit {
    let s = &opts.settings;
    let fit_grid = |g: &Grid| match prior {
        Some(p) => math::fit_with_prior(g, s, p),
        None => math::fit(g, s),
    };
    let grid = grid_of(&rows, s, |_| 1.0);
    let retained: f64 = grid.retained().iter().sum();
    let fit = if retained < opts.min_positions && retained > 0.0 {
        Err(NoFit::TooFewPositions(retained as u64))
    } else {
        fit_grid(&grid)
    };
    count.tick();
    let (mut a_interval, mut b_interval, mut interval_note) = (None, None, None);
    if fit.is_err() {
        count.add(opts.bootstrap);
    }
    if fit.is_ok() && opts.bootstrap > 0 {
        let target = f64::from(s.mom_target);
        let mut rng = SplitMix64(opts.seed ^ key_hash(&key));
        // The resamples' weights drawn in order, then fitted in parallel:
        // the same intervals whatever the number of threads.
        let weights: Vec<Vec<f64>> = (0..opts.bootstrap)
            .map(|_| (0..games).map(|_| poisson1(&mut rng)).collect())
            .collect();
        let fits: Vec<(f64, f64)> = weights
            .par_iter()
            .filter_map(|w| {
                let f = fit_grid(&grid_of(&rows, s, |g| w[g]));
                count.tick();
                let f = f.ok()?;
                Some((f.model.a(target), f.model.b(target)))
            })
            .collect();
        let (mut a_s, mut b_s): (Vec<f64>, Vec<f64>) = fits.into_iter().unzip();
        // Intervals only when nearly every resample could be fitted.
        if a_s.len() * 10 >= opts.bootstrap * 9 && a_s.len() >= 2 {
            let alpha = (1.0 - opts.level) / 2.0;
            for (vals, out) in [(&mut a_s, &mut a_interval), (&mut b_s, &mut b_interval)] {
                vals.sort_by(f64::total_cmp);
                *out = Some((quantile(vals, alpha), quantile(vals, 1.0 - alpha)));
            }
        } else {
            interval_note = Some(format!(
                "no interval: {} of {} resamples could be fitted, fewer than 90 %",
                a_s.len(),
                opts.bootstrap
            ));
        }
    }
    let counted = rows.iter().map(|r| r.count).sum();
    GroupFit {
        key,
        games,
        counted,
        fit,
        a_interval,
        b_interval,
        interval_note,
        prior_positions: prior.map_or(0.0, |p| p.positions),
        counts,
    }
}

/// The groups' prior ([`Prior`]): the pooled grid of every group's counts
/// and its fit; None without groups, with `prior_positions` 0, or when the
/// pool itself has no fit (each group is then fitted alone).
fn pooled_prior(
    keys: &[&str],
    counts: impl Iterator<Item = ((char, i32, i32, i32), f64)>,
    opts: &Options,
) -> Option<Prior> {
    if keys.is_empty() || opts.prior_positions <= 0.0 {
        return None;
    }
    let s = &opts.settings;
    let pool = window(counts, s);
    let pooled = math::fit(&pool, s).ok()?;
    Prior::new(&pool, &pooled.model, s, opts.prior_positions)
}

/// A group's own positions' share of its fit against its prior's (None
/// without positions).
pub fn own_share(own: f64, prior_positions: f64) -> Option<f64> {
    (own > 0.0).then(|| own / (own + prior_positions))
}

/// Counts in the fit's window, as a grid.
fn window(counts: impl Iterator<Item = ((char, i32, i32, i32), f64)>, s: &Settings) -> Grid {
    let mut grid = Grid::new(s);
    for ((o, mv, m, e), c) in counts {
        grid.add(
            s,
            Outcome::from_letter(o).unwrap_or(Outcome::Draw),
            mv,
            m,
            e,
            c,
        );
    }
    grid
}

/// The fits of `groups` groups: each group's point fit and its resamples
/// (counted as done when a group without a point fit skips them).
fn units(groups: usize, opts: &Options) -> usize {
    groups * (1 + opts.bootstrap)
}

/// FNV-1a of a group key: each group's bootstrap stream is its own, whatever
/// the other groups.
fn key_hash(key: &[String]) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for b in key.iter().flat_map(|k| k.bytes().chain([0])) {
        h = (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
    }
    h
}

/// Counts the positions of the selected games and fits every group.
///
/// The games are read a chunk at a time ([`query::in_chunks`]). With a
/// bootstrap the counts per game are kept (the resamples draw games); without
/// one each chunk's counts are summed over its games at once, so what is kept
/// is one row per group and (outcome, move, material, eval).
pub fn wdl(games: LazyFrame, moves: LazyFrame, opts: &Options) -> Result<Fitted, crate::Error> {
    wdl_in_chunks(games, moves, opts, CHUNK_PLIES)
}

/// [`wdl`] in chunks of about `chunk_plies` plies.
pub fn wdl_in_chunks(
    games: LazyFrame,
    moves: LazyFrame,
    opts: &Options,
    chunk_plies: u64,
) -> Result<Fitted, crate::Error> {
    let keys = opts.group.keys();
    let mut by = keys.clone();
    by.push(col::GAME_ID);
    let sel = &opts.selection;
    if opts.bootstrap > 0 {
        let per_game =
            query::counts_in_chunks(games, moves, sel, opts.bin_width, &by, chunk_plies)?;
        return Ok(fit_counts(&per_game, keys, opts)?);
    }
    let mut n_games: BTreeMap<Vec<String>, usize> = BTreeMap::new();
    let mut groups: BTreeMap<Vec<String>, Counts> = BTreeMap::new();
    query::in_chunks(games, moves, sel, chunk_plies, |g, m| {
        let per_game =
            query::unsorted_counts(query::positions(g, m, sel, opts.bin_width), &by).collect()?;
        // A game is in one chunk only: the chunks' games add up.
        for (key, n) in games_per_group(&per_game, &keys)? {
            *n_games.entry(key).or_default() += n;
        }
        // Each chunk's counts added into its groups' maps at once (whole
        // numbers: exact in any order). Re-grouping a running polars total
        // with each chunk held every cell of every group twice, string keys
        // and all: 3.1 GB on the archive concatenated 4×.
        add_counts(&summed(&per_game, &keys)?, &keys, &mut groups)?;
        Ok(())
    })?;
    Ok(fit_maps(groups, keys, n_games, opts))
}

/// Fits every group of a counts frame ([`query::counts`] by the group keys
/// and game id, sorted so). Without a bootstrap the games are summed first.
pub fn fit_counts(
    per_game: &DataFrame,
    keys: Vec<&'static str>,
    opts: &Options,
) -> PolarsResult<Fitted> {
    let n_games = games_per_group(per_game, &keys)?;
    if opts.bootstrap > 0 {
        fit_rows(per_game, keys, n_games, opts)
    } else {
        let mut groups = BTreeMap::new();
        add_counts(per_game, &keys, &mut groups)?;
        Ok(fit_maps(groups, keys, n_games, opts))
    }
}

/// The games per group of a counts frame by the group keys and game id;
/// an error when a material is unknown.
fn games_per_group(
    per_game: &DataFrame,
    keys: &[&str],
) -> PolarsResult<BTreeMap<Vec<String>, usize>> {
    if per_game.column(query::cols::MATERIAL)?.null_count() > 0 {
        return Err(PolarsError::ComputeError(
            "the moves table is not in game and ply order: the material before a move is unknown"
                .into(),
        ));
    }
    let key_exprs: Vec<Expr> = keys.iter().map(|k| col(*k)).collect();
    let games_per_group = if keys.is_empty() {
        per_game
            .clone()
            .lazy()
            .select([col(col::GAME_ID).n_unique().alias("games")])
    } else {
        per_game
            .clone()
            .lazy()
            .group_by(key_exprs)
            .agg([col(col::GAME_ID).n_unique().alias("games")])
    }
    .collect()?;
    let mut n_games = BTreeMap::new();
    let kc = key_columns(&games_per_group, keys)?;
    let g = games_per_group.column("games")?.cast(&DataType::UInt64)?;
    let g = g.u64()?;
    for i in 0..games_per_group.height() {
        n_games.insert(key_at(&kc, i), g.get(i).unwrap_or(0) as usize);
    }
    Ok(n_games)
}

/// A counts frame summed over its games: one row per key and count, game id 0,
/// in no particular order (for [`add_counts`]).
fn summed(counts: &DataFrame, keys: &[&str]) -> PolarsResult<DataFrame> {
    use query::cols;
    let mut by: Vec<Expr> = keys.iter().map(|k| col(*k)).collect();
    by.extend(cols::COUNTED_BY.map(col));
    counts
        .clone()
        .lazy()
        .group_by(by)
        .agg([
            col(cols::COUNT).sum(),
            lit(0i64).cast(DataType::Int64).first().alias(col::GAME_ID),
        ])
        .collect()
}

/// Fits every group of a counts frame by game, sorted by the keys, with
/// each group's games (the bootstrap's resamples).
fn fit_rows(
    df: &DataFrame,
    keys: Vec<&'static str>,
    n_games: BTreeMap<Vec<String>, usize>,
    opts: &Options,
) -> PolarsResult<Fitted> {
    let game = df.column(col::GAME_ID)?.i64()?;
    let cc = CountCols::new(df)?;
    let mut groups: Vec<GroupFit> = Vec::new();
    let runs = key_runs(&key_columns(df, &keys)?, df.height());
    let prior = pooled_prior(
        &keys,
        (0..df.height()).map(|i| (cc.key(i), cc.count(i))),
        opts,
    );
    let count = opts.progress.count(units(runs.len(), opts));
    for (key, run) in runs {
        // The group's games numbered in id order as they come.
        let mut ids: BTreeMap<i64, usize> = BTreeMap::new();
        let mut counts = Counts::new();
        let rows: Vec<Row> = run
            .map(|i| {
                let n = ids.len();
                let (letter, mv, material, eval) = cc.key(i);
                let count = cc.count(i);
                *counts.entry((letter, mv, material, eval)).or_insert(0.0) += count;
                Row {
                    game: *ids.entry(game.get(i).unwrap_or(0)).or_insert(n),
                    outcome: Outcome::from_letter(letter).unwrap_or(Outcome::Draw),
                    mv,
                    material,
                    eval,
                    count,
                }
            })
            .collect();
        let games = n_games.get(&key).copied().unwrap_or(ids.len());
        groups.push(fit_group(
            key,
            rows,
            counts,
            games,
            prior.as_ref(),
            opts,
            &count,
        ));
    }
    if groups.is_empty() && keys.is_empty() {
        groups.push(fit_group(
            Vec::new(),
            Vec::new(),
            Counts::new(),
            0,
            None,
            opts,
            &count,
        ));
    }
    Ok(Fitted {
        keys,
        groups,
        settings: opts.settings,
        level: opts.level,
    })
}

/// Adds a counts frame (by the group keys and [`query::cols::COUNTED_BY`],
/// in any order) into each group's map. Its groups are found by hashing the
/// keys: sorting the rows by the string keys (event, engine) first cost a
/// sixth of `wdl --by event,engine` on the TCEC archive.
fn add_counts(
    df: &DataFrame,
    keys: &[&str],
    groups: &mut BTreeMap<Vec<String>, Counts>,
) -> PolarsResult<()> {
    let parts = if keys.is_empty() || df.height() == 0 {
        vec![df.clone()]
    } else {
        df.partition_by(keys.iter().copied(), true)?
    };
    for part in parts.iter().filter(|p| p.height() > 0) {
        let cc = CountCols::new(part)?;
        let counts = groups
            .entry(key_at(&key_columns(part, keys)?, 0))
            .or_default();
        for i in 0..part.height() {
            *counts.entry(cc.key(i)).or_insert(0.0) += cc.count(i);
        }
    }
    Ok(())
}

/// Fits every group of its counts (summed over the games), in key order and
/// in parallel: the fits are independent (`--by engine` on the archive took
/// 32 s one by one). With a bootstrap, [`fit_rows`] fits the groups in turn
/// and each group's resamples in parallel.
fn fit_maps(
    groups: BTreeMap<Vec<String>, Counts>,
    keys: Vec<&'static str>,
    n_games: BTreeMap<Vec<String>, usize>,
    opts: &Options,
) -> Fitted {
    let groups: Vec<(Vec<String>, Counts)> = groups.into_iter().collect();
    let prior = pooled_prior(
        &keys,
        groups
            .iter()
            .flat_map(|(_, c)| c.iter().map(|(&k, &n)| (k, n))),
        opts,
    );
    let count = opts.progress.count(units(groups.len(), opts));
    let mut fits: Vec<GroupFit> = groups
        .into_par_iter()
        .map(|(key, counts)| {
            let rows = counts
                .iter()
                .map(|(&(o, mv, material, eval), &count)| Row {
                    game: 0,
                    outcome: Outcome::from_letter(o).unwrap_or(Outcome::Draw),
                    mv,
                    material,
                    eval,
                    count,
                })
                .collect();
            let games = n_games.get(&key).copied().unwrap_or(1);
            fit_group(key, rows, counts, games, prior.as_ref(), opts, &count)
        })
        .collect();
    if fits.is_empty() && keys.is_empty() {
        fits.push(fit_group(
            Vec::new(),
            Vec::new(),
            Counts::new(),
            0,
            None,
            opts,
            &count,
        ));
    }
    Fitted {
        keys,
        groups: fits,
        settings: opts.settings,
        level: opts.level,
    }
}

/// The counted columns of a counts frame ([`query::cols::COUNTED_BY`] and the count).
struct CountCols<'a> {
    outcome: &'a StringChunked,
    mv: &'a Int32Chunked,
    material: &'a Int32Chunked,
    eval: &'a Int32Chunked,
    count: &'a Float64Chunked,
}

impl<'a> CountCols<'a> {
    fn new(df: &'a DataFrame) -> PolarsResult<CountCols<'a>> {
        use query::cols;
        Ok(CountCols {
            outcome: df.column(cols::OUTCOME)?.str()?,
            mv: df.column(cols::MOVE)?.i32()?,
            material: df.column(cols::MATERIAL)?.i32()?,
            eval: df.column(cols::EVAL)?.i32()?,
            count: df.column(cols::COUNT)?.f64()?,
        })
    }

    /// Row `i`'s (outcome letter, move, material, eval): a key of [`Counts`].
    fn key(&self, i: usize) -> (char, i32, i32, i32) {
        (
            self.outcome
                .get(i)
                .and_then(|o| o.chars().next())
                .and_then(Outcome::from_letter)
                .unwrap_or(Outcome::Draw)
                .letter(),
            self.mv.get(i).unwrap_or(0),
            self.material.get(i).unwrap_or(0),
            self.eval.get(i).unwrap_or(0),
        )
    }

    fn count(&self, i: usize) -> f64 {
        self.count.get(i).unwrap_or(0.0)
    }
}

/// The runs of equal group keys in a frame of `height` rows sorted by them:
/// each group's key and rows.
fn key_runs(kc: &[StringChunked], height: usize) -> Vec<(Vec<String>, Range<usize>)> {
    let mut runs = Vec::new();
    let mut start = 0;
    while start < height {
        let mut end = start + 1;
        while end < height && kc.iter().all(|c| c.get(end) == c.get(start)) {
            end += 1;
        }
        runs.push((key_at(kc, start), start..end));
        start = end;
    }
    runs
}

fn key_columns(df: &DataFrame, keys: &[&str]) -> PolarsResult<Vec<StringChunked>> {
    keys.iter()
        .map(|k| df.column(k).and_then(|c| c.str().cloned()))
        .collect()
}

fn key_at(kc: &[StringChunked], i: usize) -> Vec<String> {
    kc.iter()
        .map(|c| c.get(i).unwrap_or("").to_string())
        .collect()
}

/// Output columns of [`Fitted::table`] besides the group keys.
pub mod out {
    pub const GAMES: &str = "games";
    pub const COUNTED: &str = "positions_counted";
    pub const POSITIONS: &str = "positions";
    pub const WINS: &str = "wins";
    pub const DRAWS: &str = "draws";
    pub const LOSSES: &str = "losses";
    pub const FITTING: &str = "fitting";
    pub const MOM_TARGET: &str = "mom_target";
    pub const PRIOR: &str = "prior_positions";
    pub const OWN_SHARE: &str = "own_share";
    pub const AS: [&str; 4] = ["as0", "as1", "as2", "as3"];
    pub const BS: [&str; 4] = ["bs0", "bs1", "bs2", "bs3"];
    pub const A: &str = "a_target";
    pub const B: &str = "b_target";
    pub const A_LO: &str = "a_lo";
    pub const A_HI: &str = "a_hi";
    pub const B_LO: &str = "b_lo";
    pub const B_HI: &str = "b_hi";
    pub const X05: &str = "x05_target";
    pub const DRAW_AT_ZERO: &str = "draw_rate_0";
    pub const OBJECTIVE: &str = "objective";
    pub const REASON: &str = "reason";
}

impl GroupFit {
    /// Distinct (outcome, move, material, eval) keys: `scoreWDLstat`'s map size.
    pub fn keys(&self) -> usize {
        self.counts.len()
    }

    /// Positions in the fit's window.
    pub fn retained(&self, s: &Settings) -> f64 {
        self.window(s).retained().iter().sum()
    }

    /// The group's counts in the fit's window.
    fn window(&self, s: &Settings) -> Grid {
        window(self.counts.iter().map(|(&k, &c)| (k, c)), s)
    }

    /// Observed rates at the materials `lo..=hi` (the fit's move window):
    /// (eval, positions, win rate, draw rate) per eval bin with positions.
    pub fn rates(&self, s: &Settings, lo: i32, hi: i32) -> Vec<(f64, f64, f64, f64)> {
        let mut bins: BTreeMap<i32, [f64; 3]> = BTreeMap::new();
        for (&(o, mv, m, e), &c) in &self.counts {
            if (lo..=hi).contains(&m)
                && (s.move_min..=s.move_max).contains(&mv)
                && e.abs() <= s.eval_max
            {
                let o = Outcome::from_letter(o).unwrap_or(Outcome::Draw);
                bins.entry(e).or_default()[o as usize] += c;
            }
        }
        bins.into_iter()
            .map(|(e, [w, d, l])| {
                let n = w + d + l;
                (f64::from(e), n, w / n, d / n)
            })
            .collect()
    }
}

impl Fitted {
    /// One row per group: the keys, the counts, the coefficients as
    /// WDL_model prints them, a and b at the target material (with intervals
    /// under a bootstrap), x05 = a/100 in pawns, the draw rate at eval 0.
    pub fn table(&self) -> PolarsResult<DataFrame> {
        let t = f64::from(self.settings.mom_target);
        let mut columns: Vec<Column> = Vec::new();
        for (i, k) in self.keys.iter().enumerate() {
            let v: Vec<&str> = self.groups.iter().map(|g| g.key[i].as_str()).collect();
            columns.push(Column::new((*k).into(), v));
        }
        let fits: Vec<Option<&Fit>> = self.groups.iter().map(|g| g.fit.as_ref().ok()).collect();
        let per = |f: &dyn Fn(&GroupFit) -> Option<f64>| -> Vec<Option<f64>> {
            self.groups.iter().map(f).collect()
        };
        let ints =
            |f: &dyn Fn(&GroupFit) -> u64| -> Vec<u64> { self.groups.iter().map(f).collect() };
        columns.push(Column::new(out::GAMES.into(), ints(&|g| g.games as u64)));
        columns.push(Column::new(
            out::COUNTED.into(),
            ints(&|g| g.counted as u64),
        ));
        let r: Vec<[f64; 3]> = self
            .groups
            .iter()
            .map(|g| g.window(&self.settings).retained())
            .collect();
        columns.push(Column::new(
            out::POSITIONS.into(),
            r.iter()
                .map(|r| r.iter().sum::<f64>() as u64)
                .collect::<Vec<_>>(),
        ));
        for (i, name) in [out::WINS, out::DRAWS, out::LOSSES].into_iter().enumerate() {
            columns.push(Column::new(
                name.into(),
                r.iter().map(|r| r[i] as u64).collect::<Vec<_>>(),
            ));
        }
        columns.push(Column::new(
            out::FITTING.into(),
            vec![self.settings.fitting.reference_name(); self.groups.len()],
        ));
        columns.push(Column::new(
            out::MOM_TARGET.into(),
            vec![self.settings.mom_target; self.groups.len()],
        ));
        columns.push(Column::new(
            out::PRIOR.into(),
            ints(&|g| g.prior_positions as u64),
        ));
        columns.push(Column::new(
            out::OWN_SHARE.into(),
            r.iter()
                .zip(&self.groups)
                .map(|(r, g)| own_share(r.iter().sum(), g.prior_positions))
                .collect::<Vec<_>>(),
        ));
        for i in 0..4 {
            columns.push(Column::new(
                out::AS[i].into(),
                fits.iter()
                    .map(|f| f.map(|f| f.model.as_[i]))
                    .collect::<Vec<_>>(),
            ));
        }
        for i in 0..4 {
            columns.push(Column::new(
                out::BS[i].into(),
                fits.iter()
                    .map(|f| f.map(|f| f.model.bs[i]))
                    .collect::<Vec<_>>(),
            ));
        }
        let a = per(&|g| g.fit.as_ref().ok().map(|f| f.model.a(t)));
        let b = per(&|g| g.fit.as_ref().ok().map(|f| f.model.b(t)));
        columns.push(Column::new(out::A.into(), a.clone()));
        columns.push(Column::new(
            out::A_LO.into(),
            per(&|g| g.a_interval.map(|i| i.0)),
        ));
        columns.push(Column::new(
            out::A_HI.into(),
            per(&|g| g.a_interval.map(|i| i.1)),
        ));
        columns.push(Column::new(out::B.into(), b.clone()));
        columns.push(Column::new(
            out::B_LO.into(),
            per(&|g| g.b_interval.map(|i| i.0)),
        ));
        columns.push(Column::new(
            out::B_HI.into(),
            per(&|g| g.b_interval.map(|i| i.1)),
        ));
        columns.push(Column::new(
            out::X05.into(),
            a.iter().map(|a| a.map(|a| a / 100.0)).collect::<Vec<_>>(),
        ));
        columns.push(Column::new(
            out::DRAW_AT_ZERO.into(),
            a.iter()
                .zip(&b)
                .map(|(a, b)| Some(1.0 - 2.0 / (1.0 + (a.as_ref()? / b.as_ref()?).exp())))
                .collect::<Vec<_>>(),
        ));
        columns.push(Column::new(
            out::OBJECTIVE.into(),
            per(&|g| g.fit.as_ref().ok().map(|f| f.objective)),
        ));
        columns.push(Column::new(
            out::REASON.into(),
            self.groups
                .iter()
                .map(|g| match &g.fit {
                    Err(e) => Some(e.to_string()),
                    Ok(_) => g.interval_note.clone(),
                })
                .collect::<Vec<_>>(),
        ));
        DataFrame::new_infer_height(columns)
    }

    /// The counts in `scoreWDLstat`'s JSON (`{"('W', 12, 62, 35)": 4, …}`),
    /// over every group: what its `-o` writes, for `scoreWDL.py`.
    pub fn counts_json(&self) -> String {
        let mut all: BTreeMap<(char, i32, i32, i32), f64> = BTreeMap::new();
        for g in &self.groups {
            for (k, c) in &g.counts {
                *all.entry(*k).or_insert(0.0) += c;
            }
        }
        let map: serde_json::Map<String, serde_json::Value> = all
            .into_iter()
            .map(|((o, mv, m, e), c)| {
                (
                    format!("('{o}', {mv}, {m}, {e})"),
                    serde_json::Value::from(c as u64),
                )
            })
            .collect();
        serde_json::to_string_pretty(&serde_json::Value::Object(map)).unwrap_or_default()
    }

    /// The pooled model of a one-group fit (None when it has no fit).
    pub fn model(&self) -> Option<Model> {
        self.groups.first()?.fit.as_ref().ok().map(|f| f.model)
    }
}
