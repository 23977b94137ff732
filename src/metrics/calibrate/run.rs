//! One calibration over a selection: every group's three estimates, the
//! pool, and what `calibrate` writes of them (the table and the x05 file).

use std::collections::BTreeMap;

use polars::prelude::*;
use rayon::prelude::*;

use super::math::{Calibration, GameObs, Positions, calibrate_group};
use super::pool::{self, Evidence, Pooled, Prior, normal_quantile};
use super::query::observations;
use crate::metrics::Ticker;
use crate::metrics::balance::BalanceOptions;
use crate::metrics::x05::file::{self, PoolRecord, Record, X05File};
use crate::schema::metric;

/// How the groups are estimated.
#[derive(Debug, Clone, Copy)]
pub struct Settings {
    /// Bootstrap resamples for the intervals (0: none).
    pub bootstrap: usize,
    pub seed: u64,
    /// Level of the pooled intervals, in (0, 1).
    pub level: f64,
}

/// The estimates of every group (in key order) and their pool.
pub struct Calibrated {
    /// Each group's key (its `BalanceOptions::keys` values) and games.
    pub groups: BTreeMap<Vec<String>, Vec<GameObs>>,
    /// Each group's estimates, in the order of `groups`.
    pub results: Vec<(Vec<String>, Calibration)>,
    /// The prior the ml estimates shrink toward (None: no group identified).
    pub prior: Option<Prior>,
    /// Each group's pooled estimate: its ml shrunk toward the prior, or
    /// without a usable ml its likelihood's posterior mode ([`pool::pool`]);
    /// None without own evals (or without a prior).
    pub pooled: Vec<Option<Pooled>>,
    pub level: f64,
}

/// Calibrates every group of `opts` in the game facts (with own evals) of
/// [`crate::metrics::balance::game_facts`].
/// `progress` counts the groups as they are done.
pub fn calibrate(
    facts: LazyFrame,
    opts: &BalanceOptions,
    s: Settings,
    progress: &Ticker,
) -> Result<Calibrated, PolarsError> {
    let groups = observations(facts, opts)?;
    // Each group on its own (its resamples seeded alike): in parallel, in
    // the groups' order.
    let list: Vec<_> = groups.iter().collect();
    let count = progress.count(list.len());
    let results: Vec<(Vec<String>, Calibration)> = list
        .par_iter()
        .map(|&(k, games)| {
            let c = calibrate_group(games, s.bootstrap, s.seed);
            count.tick();
            (k.clone(), c)
        })
        .collect();
    let evidence: Vec<Evidence<Positions>> = groups
        .values()
        .zip(&results)
        .map(|(games, (_, c))| evidence(games, c))
        .collect();
    let (prior, pooled) = pool::pool(&evidence, normal_quantile(0.5 + s.level / 2.0));
    Ok(Calibrated {
        groups,
        results,
        prior,
        pooled,
        level: s.level,
    })
}

/// What a group brings to the pool ([`pool::pool`]): its ml with the
/// sandwich error, or with own evals but no usable ml its positions'
/// likelihood.
pub fn evidence(games: &[GameObs], c: &Calibration) -> Evidence<Positions> {
    match (c.ml.value, c.ml_sandwich) {
        (Some(ml), Some(s)) => Evidence::Ml(pool::Raw {
            theta: ml.ln(),
            s2: s.se_log.powi(2),
            deff: s.deff,
            games: c.games_with_evals,
        }),
        _ if c.positions > 0 => Evidence::Likelihood {
            loglik: Positions::of(&games.iter().collect::<Vec<_>>()),
            games: c.games_with_evals,
        },
        _ => Evidence::None,
    }
}

/// An ml with its sandwich error: the pooled value shrinks it; without one
/// the pooled value is the likelihood's posterior mode.
fn usable_ml(c: &Calibration) -> bool {
    c.ml.value.is_some() && c.ml_sandwich.is_some()
}

fn round4(v: f64) -> f64 {
    (v * 10_000.0).round() / 10_000.0
}

impl Calibrated {
    /// Groups whose ml is identified, with its error (and so shrunk).
    pub fn identified(&self) -> usize {
        self.results.iter().filter(|(_, c)| usable_ml(c)).count()
    }

    /// Groups with a pooled value: the identified ones and the posterior modes.
    pub fn pooled(&self) -> usize {
        self.pooled.iter().flatten().count()
    }

    /// One row per group: the keys of `opts`, games, positions, each
    /// method's estimate and interval, the pooled estimate, and why a
    /// method has none.
    pub fn table(&self, opts: &BalanceOptions) -> PolarsResult<DataFrame> {
        let results = &self.results;
        let mut cols: Vec<Column> = Vec::new();
        for (i, k) in opts.keys().iter().enumerate() {
            let v: Vec<&str> = results.iter().map(|(key, _)| key[i].as_str()).collect();
            cols.push(Column::new((*k).into(), v));
        }
        let n = |f: fn(&Calibration) -> usize| {
            results.iter().map(|(_, c)| f(c) as u32).collect::<Vec<_>>()
        };
        cols.push(Column::new(metric::GAMES.into(), n(|c| c.games)));
        cols.push(Column::new("positions".into(), n(|c| c.positions)));
        type Get = fn(&Calibration) -> Option<f64>;
        let est: [(&str, Get); 10] = [
            ("x05_rank", |c| c.rank.value),
            ("rank_lo", |c| c.rank.lo),
            ("rank_hi", |c| c.rank.hi),
            ("x05_threshold", |c| c.threshold.value),
            ("threshold_lo", |c| c.threshold.lo),
            ("threshold_hi", |c| c.threshold.hi),
            ("x05_ml", |c| c.ml.value),
            ("ml_lo", |c| c.ml.lo),
            ("ml_hi", |c| c.ml.hi),
            ("ml_se_log", |c| c.ml_sandwich.map(|s| s.se_log)),
        ];
        for (name, f) in est {
            let v: Vec<Option<f64>> = results.iter().map(|(_, c)| f(c)).collect();
            cols.push(Column::new(name.into(), v));
        }
        type GetPooled = fn(&Pooled) -> f64;
        let pooled_cols: [(&str, GetPooled); 4] = [
            ("x05_pooled", |p| p.value),
            ("pooled_lo", |p| p.lo),
            ("pooled_hi", |p| p.hi),
            ("pooled_weight", |p| p.weight),
        ];
        for (name, f) in pooled_cols {
            let v: Vec<Option<f64>> = self.pooled.iter().map(|p| p.as_ref().map(f)).collect();
            cols.push(Column::new(name.into(), v));
        }
        type Why = fn(&Calibration) -> Option<&'static str>;
        let reasons: [(&str, Why); 3] = [
            ("rank_reason", |c| c.rank.reason),
            ("threshold_reason", |c| c.threshold.reason),
            ("ml_reason", |c| c.ml.reason),
        ];
        for (name, f) in reasons {
            let v: Vec<Option<&str>> = results.iter().map(|(_, c)| f(c)).collect();
            cols.push(Column::new(name.into(), v));
        }
        DataFrame::new_infer_height(cols)
    }

    /// `[x05]`: each group's pooled estimate (positive and identified by
    /// construction); `[x05_estimate]` how; `[x05_missing]` why not; and
    /// each method's own identified values.
    pub fn x05_file(&self) -> X05File {
        let r4 = round4;
        let mut f = X05File {
            pool: self.prior.map(|p| PoolRecord {
                method: "empirical Bayes: DerSimonian-Laird on ln x05, sandwich errors by game; \
                         without a usable ml, the posterior mode of the likelihood tempered by \
                         the median design effect"
                    .into(),
                mean: r4(p.mu.exp()),
                tau: r4(p.tau2.sqrt()),
                engines: p.groups as u32,
            }),
            ..X05File::default()
        };
        for ((key, c), p) in self.results.iter().zip(&self.pooled) {
            match p {
                Some(p) => {
                    file::insert(&mut f.x05, key, r4(p.value));
                    let usable = usable_ml(c);
                    file::insert(
                        &mut f.x05_estimate,
                        key,
                        Record {
                            estimate: if usable { "pooled" } else { "posterior mode" }.into(),
                            ml: c.ml.value.map(r4),
                            ml_se_log: c.ml_sandwich.map(|s| r4(s.se_log)),
                            weight: r4(p.weight),
                            lo: r4(p.lo),
                            hi: r4(p.hi),
                            level: self.level,
                            games: c.games as u32,
                        },
                    );
                }
                None => file::insert(
                    &mut f.x05_missing,
                    key,
                    c.ml.reason.unwrap_or("no pooled estimate").to_string(),
                ),
            }
            for (table, e) in [
                (&mut f.x05_rank, c.rank),
                (&mut f.x05_threshold, c.threshold),
                (&mut f.x05_ml, c.ml),
            ] {
                if let Some(v) = e.value.filter(|v| *v > 0.0) {
                    file::insert(table, key, r4(v));
                }
            }
        }
        f
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::calibrate::{Estimate, Sandwich};
    use crate::metrics::x05::file::Keyed;

    fn est(value: Option<f64>, reason: Option<&'static str>) -> Estimate {
        Estimate {
            value,
            reason,
            ..Estimate::default()
        }
    }

    /// Three groups by hand: A identified and pooled; B with no ml and no
    /// pooled value (its reason goes to [x05_missing]; its positive rank
    /// value is still listed); C with no usable ml, valued by its posterior mode.
    #[test]
    fn x05_file_and_table_by_hand() {
        let a = Calibration {
            games: 40,
            games_with_evals: 40,
            positions: 900,
            rank: est(Some(0.7), None),
            threshold: est(Some(-0.1), None),
            ml: est(Some(0.654_321), None),
            ml_sandwich: Some(Sandwich {
                se_log: 0.123_456,
                deff: 5.0,
            }),
        };
        let b = Calibration {
            games: 3,
            rank: est(Some(0.5), None),
            ml: est(None, Some("no interior maximum")),
            ..Calibration::default()
        };
        let c3 = Calibration {
            games: 2,
            ml: est(None, Some("no interior maximum")),
            ..Calibration::default()
        };
        let c = Calibrated {
            groups: BTreeMap::new(),
            results: vec![
                (vec!["A".into()], a),
                (vec!["B".into()], b),
                (vec!["C".into()], c3),
            ],
            prior: Some(Prior {
                mu: 0.6f64.ln(),
                tau2: 0.04,
                var_mu: 0.01,
                var_tau2: 0.0,
                groups: 1,
            }),
            pooled: vec![
                Some(Pooled {
                    value: 0.640_04,
                    lo: 0.5,
                    hi: 0.8,
                    weight: 0.75,
                }),
                None,
                Some(Pooled {
                    value: 0.612_34,
                    lo: 0.3,
                    hi: 1.2,
                    weight: 0.05,
                }),
            ],
            level: 0.9,
        };
        assert_eq!((c.identified(), c.pooled()), (1, 2));
        let f = c.x05_file();
        assert_eq!(f.x05.get("A"), Some(&Keyed::Value(0.64)));
        assert_eq!(f.x05.get("B"), None);
        assert_eq!(
            f.x05_missing.get("B"),
            Some(&Keyed::Value("no interior maximum".to_string()))
        );
        let Some(Keyed::Value(r)) = f.x05_estimate.get("A") else {
            panic!("no estimate for A: {f:?}");
        };
        assert_eq!(
            (r.ml, r.ml_se_log, r.level, r.games),
            (Some(0.6543), Some(0.1235), 0.9, 40)
        );
        assert_eq!(r.estimate, "pooled");
        assert_eq!(f.x05.get("C"), Some(&Keyed::Value(0.6123)));
        assert_eq!(f.x05_missing.get("C"), None);
        let Some(Keyed::Value(r)) = f.x05_estimate.get("C") else {
            panic!("no estimate for C: {f:?}");
        };
        assert_eq!(
            (r.estimate.as_str(), r.ml, r.ml_se_log, r.weight),
            ("posterior mode", None, None, 0.05)
        );
        assert_eq!(f.x05_rank.get("B"), Some(&Keyed::Value(0.5)));
        // A threshold that is not positive is no value.
        assert_eq!(f.x05_threshold.get("A"), None);
        let pool = f.pool.expect("a pool");
        assert_eq!((pool.mean, pool.tau, pool.engines), (0.6, 0.2, 1));
        let t = c.table(&BalanceOptions::default()).unwrap();
        assert_eq!(t.height(), 3);
        let pooled = t.column("x05_pooled").unwrap().f64().unwrap().clone();
        // The table keeps every digit; the x05 file above keeps four.
        assert_eq!((pooled.get(1), pooled.get(2)), (None, Some(0.612_34)));
        let ml = t.column("x05_ml").unwrap().f64().unwrap().clone();
        assert_eq!((ml.get(0), ml.get(1)), (Some(0.654_321), None));
        let why = t.column("ml_reason").unwrap().str().unwrap().clone();
        assert_eq!(why.get(1), Some("no interior maximum"));
    }
}
