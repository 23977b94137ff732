//! The expected-rating model: a line's features → expected puzzle rating.
//!
//! Four families against the constant (each fold's mean rating), chosen by
//! nested k-fold cross-validation on the training puzzles ([`nested`]):
//! - [`Kind::Isotonic`]: a monotone step function of one feature (pool
//!   adjacent violators, the direction of the feature's Spearman rho);
//! - [`Kind::LinearRanks`]: a linear regression of the rating on the
//!   features' percentiles in the training sample (their empirical CDF,
//!   mid-ranks for ties, interpolated between stored points), so that one
//!   outlying value cannot pull the fit;
//! - [`Kind::Ridge`]: ridge regression on the standardised features;
//! - [`Kind::Gbt`]: gradient-boosted trees ([`super::gbt`]).
//!
//! Each family's settings (the feature, the penalty, depth and trees) are
//! picked by an inner cross-validation inside each outer fold, and the
//! family by the same inner error: no fold both picks and scores.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::gbt::{self, Booster, Params};
use super::math::spearman;
use crate::Error;
use crate::metrics::calibrate::math::SplitMix64;

/// At most this many points of a measure's CDF are stored.
const CDF_POINTS: usize = 200;
/// Ridge on the normal equations, for a singular design (a constant measure).
const RIDGE: f64 = 1e-9;

/// A fitted model's parameters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Kind {
    Isotonic {
        /// The measure's lower edge of each step, ascending.
        x: Vec<f64>,
        /// The expected rating from that edge on (below the first: the first).
        y: Vec<f64>,
    },
    LinearRanks {
        /// Per measure: points (value, percentile) of its training CDF.
        cdf: Vec<Vec<(f64, f64)>>,
        intercept: f64,
        /// Rating points per unit of percentile, per measure.
        coefficients: Vec<f64>,
    },
    /// Ridge regression on the standardised features (a missing value is
    /// the training mean).
    Ridge {
        mean: Vec<f64>,
        sd: Vec<f64>,
        intercept: f64,
        coefficients: Vec<f64>,
    },
    /// Gradient-boosted trees on the raw features ([`super::gbt`]).
    Gbt { booster: Booster },
}

/// Scores of predictions against ratings: on every puzzle, and on those
/// whose rating is settled (RatingDeviation ≤ [`SETTLED_RD`], the
/// competitions' filter), with the settled ratings' standard deviation, the
/// yardstick of RMSE.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct CvScore {
    pub folds: usize,
    pub seed: u64,
    pub n: usize,
    #[serde(deserialize_with = "null_as_nan")]
    pub spearman: f64,
    #[serde(deserialize_with = "null_as_nan")]
    pub mae: f64,
    #[serde(deserialize_with = "null_as_nan")]
    pub mae_se: f64,
    #[serde(deserialize_with = "null_as_nan")]
    pub rmse: f64,
    pub n_settled: usize,
    #[serde(deserialize_with = "null_as_nan")]
    pub spearman_settled: f64,
    #[serde(deserialize_with = "null_as_nan")]
    pub mae_settled: f64,
    #[serde(deserialize_with = "null_as_nan")]
    pub rmse_settled: f64,
    #[serde(deserialize_with = "null_as_nan")]
    pub sd_settled: f64,
}

/// A number JSON wrote as null (NaN has no JSON spelling) reads back as NaN.
fn null_as_nan<'de, D: serde::Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    Option::<f64>::deserialize(d).map(|v| v.unwrap_or(f64::NAN))
}

/// A rating is settled at this RatingDeviation or below.
pub const SETTLED_RD: f64 = 90.0;

/// A model file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RatingModel {
    pub evallab_version: String,
    /// The features the model reads, in its order.
    pub features: Vec<String>,
    #[serde(flatten)]
    pub kind: Kind,
    /// The training puzzles: count and sha256 of their sorted `id,rating` lines.
    pub training_puzzles: usize,
    /// Share of the training puzzles the model prices.
    pub coverage: f64,
    pub training_sha256: String,
    /// The analysis and policy runs the features came from.
    pub analysis: String,
    pub policy: String,
    /// The nested cross-validation of the whole choice (family and its
    /// settings picked inside each outer fold), on the training puzzles.
    pub cv: CvScore,
}

impl RatingModel {
    /// The expected rating of a position's `features` (in the model's
    /// order); `None` when one is missing.
    #[must_use]
    ///
    /// Ridge and trees read a missing feature (a one-move line has no
    /// replies); the rank models need every one.
    pub fn predict(&self, features: &[Option<f64>]) -> Option<f64> {
        if matches!(self.kind, Kind::Isotonic { .. } | Kind::LinearRanks { .. })
            && features.iter().any(Option::is_none)
        {
            return None;
        }
        let x: Vec<f64> = features.iter().map(|v| v.unwrap_or(f64::NAN)).collect();
        Some(predict(&self.kind, &x))
    }

    /// The model's family, by name.
    #[must_use]
    pub fn family_name(&self) -> &'static str {
        match &self.kind {
            Kind::Isotonic { .. } => Family::Isotonic.name(),
            Kind::LinearRanks { .. } => Family::LinearRanks.name(),
            Kind::Ridge { coefficients, .. } if coefficients.is_empty() => Family::Constant.name(),
            Kind::Ridge { .. } => Family::Ridge.name(),
            Kind::Gbt { .. } => Family::Gbt.name(),
        }
    }

    pub fn save(&self, path: &std::path::Path) -> Result<(), Error> {
        // One line per CDF point would make thousands of lines: compact.
        let text = serde_json::to_string(self).map_err(|e| Error::Dataset(e.to_string()))?;
        std::fs::write(path, text + "\n").map_err(|e| Error::io(path, e))
    }

    pub fn load(path: &std::path::Path) -> Result<Self, Error> {
        let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
        let model: RatingModel = serde_json::from_str(&text).map_err(|e| {
            Error::InputData(format!(
                "{}: not an evallab rating model ({e})",
                path.display()
            ))
        })?;
        let n = model.features.len();
        let fits = match &model.kind {
            Kind::Isotonic { x, y } => n == 1 && x.len() == y.len() && !x.is_empty(),
            Kind::LinearRanks {
                cdf, coefficients, ..
            } => cdf.len() == n && coefficients.len() == n && cdf.iter().all(|c| !c.is_empty()),
            Kind::Ridge {
                mean,
                sd,
                coefficients,
                ..
            } => mean.len() == n && sd.len() == n && coefficients.len() == n,
            Kind::Gbt { booster } => booster
                .trees
                .iter()
                .flatten()
                .all(|node| node.feature().is_none_or(|f| f < n)),
        };
        if !fits {
            return Err(Error::InputData(format!(
                "{}: the model's parameters do not match its {n} features",
                path.display()
            )));
        }
        Ok(model)
    }
}

/// sha256 of the training puzzles' sorted `id,rating` lines.
#[must_use]
pub fn training_hash(puzzles: &[(String, f64)]) -> String {
    let mut lines: Vec<String> = puzzles
        .iter()
        .map(|(id, r)| format!("{id},{r}\n"))
        .collect();
    lines.sort();
    let mut h = Sha256::new();
    for l in lines {
        h.update(l.as_bytes());
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

fn predict(kind: &Kind, x: &[f64]) -> f64 {
    match kind {
        Kind::Isotonic { x: edges, y } => {
            let i = edges.partition_point(|e| *e <= x[0]);
            y[i.saturating_sub(1)]
        }
        Kind::LinearRanks {
            cdf,
            intercept,
            coefficients,
        } => {
            intercept
                + x.iter()
                    .zip(cdf)
                    .zip(coefficients)
                    .map(|((v, c), b)| b * percentile(c, *v))
                    .sum::<f64>()
        }
        Kind::Ridge {
            mean,
            sd,
            intercept,
            coefficients,
        } => {
            intercept
                + x.iter()
                    .zip(mean.iter().zip(sd))
                    .zip(coefficients)
                    .map(|((v, (m, s)), b)| if v.is_nan() { 0.0 } else { b * (v - m) / s })
                    .sum::<f64>()
        }
        Kind::Gbt { booster } => booster.predict(x),
    }
}

/// The percentile of `v` on the stored CDF: interpolated between points,
/// clamped at the ends.
fn percentile(cdf: &[(f64, f64)], v: f64) -> f64 {
    let i = cdf.partition_point(|p| p.0 < v);
    if i == 0 {
        return cdf[0].1;
    }
    if i == cdf.len() {
        return cdf[i - 1].1;
    }
    let ((x0, u0), (x1, u1)) = (cdf[i - 1], cdf[i]);
    if x1 == v {
        return u1;
    }
    u0 + (u1 - u0) * (v - x0) / (x1 - x0)
}

/// The empirical CDF of `values` at each distinct value (mid-ranks over n),
/// thinned to at most [`CDF_POINTS`] points (the ends kept).
fn fit_cdf(values: &[f64]) -> Vec<(f64, f64)> {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len() as f64;
    let mut points = Vec::new();
    let mut i = 0;
    while i < v.len() {
        let j = v[i..].partition_point(|x| *x == v[i]) + i;
        points.push((v[i], (i as f64 + j as f64) / 2.0 / n));
        i = j;
    }
    if points.len() > CDF_POINTS {
        let last = points.len() - 1;
        points = (0..CDF_POINTS)
            .map(|k| points[k * last / (CDF_POINTS - 1)])
            .collect();
    }
    points
}

/// Isotonic (pool adjacent violators) fit of `y` on `x`, increasing or not.
/// A step's lower edge is midway between the previous step's last value
/// and its first, so that no training value sits on an edge.
fn fit_isotonic(x: &[f64], y: &[f64], increasing: bool) -> Kind {
    let mut order: Vec<usize> = (0..x.len()).collect();
    order.sort_by(|&a, &b| x[a].total_cmp(&x[b]));
    let sign = if increasing { 1.0 } else { -1.0 };
    // Equal x first share a group: (x, sum y, count).
    let mut groups: Vec<(f64, f64, f64)> = Vec::new();
    for &i in &order {
        match groups.last_mut() {
            Some(g) if g.0 == x[i] => {
                g.1 += sign * y[i];
                g.2 += 1.0;
            }
            _ => groups.push((x[i], sign * y[i], 1.0)),
        }
    }
    // Blocks of groups (first x, last x, sum, count), pooled while they decrease.
    let mut blocks: Vec<(f64, f64, f64, f64)> = Vec::new();
    for g in groups {
        blocks.push((g.0, g.0, g.1, g.2));
        while blocks.len() > 1 {
            let (a, b) = (blocks[blocks.len() - 2], blocks[blocks.len() - 1]);
            if a.2 / a.3 <= b.2 / b.3 {
                break;
            }
            blocks.pop();
            *blocks.last_mut().expect("two blocks") = (a.0, b.1, a.2 + b.2, a.3 + b.3);
        }
    }
    let edges = (0..blocks.len())
        .map(|i| {
            if i == 0 {
                blocks[0].0
            } else {
                (blocks[i - 1].1 + blocks[i].0) / 2.0
            }
        })
        .collect();
    Kind::Isotonic {
        x: edges,
        y: blocks.iter().map(|b| sign * b.2 / b.3).collect(),
    }
}

/// Least squares of `y` on the columns' percentiles (with an intercept).
fn fit_linear_ranks(cols: &[Vec<f64>], y: &[f64]) -> Kind {
    let cdf: Vec<Vec<(f64, f64)>> = cols.iter().map(|c| fit_cdf(c)).collect();
    let k = cols.len() + 1;
    let row = |i: usize| -> Vec<f64> {
        std::iter::once(1.0)
            .chain(cols.iter().zip(&cdf).map(|(c, f)| percentile(f, c[i])))
            .collect()
    };
    let mut a = vec![vec![0.0; k + 1]; k];
    for (i, yi) in y.iter().enumerate() {
        let r = row(i);
        for p in 0..k {
            for q in 0..k {
                a[p][q] += r[p] * r[q];
            }
            a[p][k] += r[p] * yi;
        }
    }
    for (p, ap) in a.iter_mut().enumerate().skip(1) {
        ap[p] += RIDGE * y.len() as f64;
    }
    let beta = solve(a);
    Kind::LinearRanks {
        cdf,
        intercept: beta[0],
        coefficients: beta[1..].to_vec(),
    }
}

/// Gauss-Jordan with partial pivoting on an augmented k×(k+1) system.
fn solve(mut a: Vec<Vec<f64>>) -> Vec<f64> {
    let k = a.len();
    for c in 0..k {
        let p = (c..k)
            .max_by(|&i, &j| a[i][c].abs().total_cmp(&a[j][c].abs()))
            .expect("rows");
        a.swap(c, p);
        let pivot = a[c][c];
        if pivot.abs() < 1e-300 {
            continue;
        }
        for v in a[c].iter_mut() {
            *v /= pivot;
        }
        for r in 0..k {
            if r != c {
                let f = a[r][c];
                let src = a[c].clone();
                for (v, s) in a[r].iter_mut().zip(src) {
                    *v -= f * s;
                }
            }
        }
    }
    a.iter().map(|r| r[k]).collect()
}

/// Ridge regression: standardise on `x`'s known values, then least
/// squares with `lambda` × rows on the coefficients (not the intercept).
fn fit_ridge(x: &[Vec<f64>], y: &[f64], lambda: f64) -> Kind {
    let k = x.first().map_or(0, Vec::len);
    let (mut mean, mut sd) = (vec![0.0; k], vec![1.0; k]);
    for f in 0..k {
        let v: Vec<f64> = x.iter().map(|r| r[f]).filter(|v| !v.is_nan()).collect();
        if v.is_empty() {
            continue;
        }
        let m = v.iter().sum::<f64>() / v.len() as f64;
        let var = v.iter().map(|a| (a - m).powi(2)).sum::<f64>() / v.len() as f64;
        mean[f] = m;
        sd[f] = if var > 0.0 { var.sqrt() } else { 1.0 };
    }
    let z = |r: &[f64], f: usize| {
        if r[f].is_nan() {
            0.0
        } else {
            (r[f] - mean[f]) / sd[f]
        }
    };
    let my = y.iter().sum::<f64>() / y.len().max(1) as f64;
    // The features are centred (a missing value at the mean), so the
    // intercept is the mean rating and the system holds the slopes alone.
    let mut a = vec![vec![0.0; k + 1]; k];
    for (r, yi) in x.iter().zip(y) {
        let zr: Vec<f64> = (0..k).map(|f| z(r, f)).collect();
        for p in 0..k {
            for q in 0..k {
                a[p][q] += zr[p] * zr[q];
            }
            a[p][k] += zr[p] * (yi - my);
        }
    }
    for (p, ap) in a.iter_mut().enumerate() {
        ap[p] += lambda * y.len() as f64 + RIDGE;
    }
    let beta = solve(a);
    // Centring on the known values leaves the missing ones' mean off 0:
    // the intercept absorbs it.
    let fitted_mean = x
        .iter()
        .map(|r| (0..k).map(|f| beta[f] * z(r, f)).sum::<f64>())
        .sum::<f64>()
        / y.len().max(1) as f64;
    Kind::Ridge {
        mean,
        sd,
        intercept: my - fitted_mean,
        coefficients: beta,
    }
}

/// Training rows: each puzzle's features, its rating and RatingDeviation.
#[derive(Debug, Clone)]
pub struct Sample {
    pub features: Vec<Option<f64>>,
    pub rating: f64,
    pub deviation: Option<f64>,
}

impl Sample {
    fn x(&self, feats: &[usize]) -> Vec<f64> {
        feats
            .iter()
            .map(|&f| self.features[f].unwrap_or(f64::NAN))
            .collect()
    }
}

/// The model families compared, each with the settings its inner
/// cross-validation chooses among.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    /// Each fold's mean rating: the baseline.
    Constant,
    /// Monotone in the one always-known feature that scores best.
    Isotonic,
    /// Linear on the percentiles of the always-known features.
    LinearRanks,
    /// Ridge on every feature; the penalty chosen.
    Ridge,
    /// Boosted trees on every feature; depth and trees chosen.
    Gbt,
}

impl Family {
    pub const ALL: [Family; 5] = [
        Family::Constant,
        Family::Isotonic,
        Family::LinearRanks,
        Family::Ridge,
        Family::Gbt,
    ];

    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Family::Constant => "constant",
            Family::Isotonic => "isotonic",
            Family::LinearRanks => "linear-ranks",
            Family::Ridge => "ridge",
            Family::Gbt => "gbt",
        }
    }
}

/// Penalties the ridge's inner cross-validation chooses among (per row, on
/// standardised features).
const RIDGE_LAMBDAS: [f64; 5] = [1e-4, 1e-3, 1e-2, 1e-1, 1.0];
/// Tree depths the boosting's inner cross-validation chooses among; the
/// number of trees is chosen at the same time, up to [`GBT_MAX_TREES`].
const GBT_DEPTHS: [u8; 2] = [4, 6];
const GBT_MAX_TREES: usize = 1200;
const GBT_RATE: f64 = 0.05;

fn gbt_params(depth: u8, trees: usize, seed: u64) -> Params {
    Params {
        trees,
        depth,
        rate: GBT_RATE,
        min_leaf: 20,
        lambda: 1.0,
        subsample: 0.8,
        seed,
    }
}

/// A family with its settings: what one fit needs.
#[derive(Debug, Clone, PartialEq)]
pub enum Spec {
    Constant,
    Isotonic(usize),
    LinearRanks(Vec<usize>),
    Ridge {
        features: Vec<usize>,
        lambda: f64,
    },
    Gbt {
        features: Vec<usize>,
        depth: u8,
        trees: usize,
    },
}

impl Spec {
    /// The features' indices.
    #[must_use]
    pub fn features(&self) -> Vec<usize> {
        match self {
            Spec::Constant => vec![],
            Spec::Isotonic(f) => vec![*f],
            Spec::LinearRanks(fs)
            | Spec::Ridge { features: fs, .. }
            | Spec::Gbt { features: fs, .. } => fs.clone(),
        }
    }

    /// The settings, for the table.
    #[must_use]
    pub fn describe(&self, names: &[&str]) -> String {
        match self {
            Spec::Constant => "mean rating".to_string(),
            Spec::Isotonic(f) => names[*f].to_string(),
            Spec::LinearRanks(fs) => format!("{} features", fs.len()),
            Spec::Ridge { features, lambda } => {
                format!("{} features, lambda {lambda}", features.len())
            }
            Spec::Gbt {
                features,
                depth,
                trees,
            } => {
                format!("{} features, depth {depth}, {trees} trees", features.len())
            }
        }
    }

    /// Fits on `rows`; `None` when too few rows hold the features.
    #[must_use]
    pub fn fit(&self, rows: &[&Sample], seed: u64) -> Option<Kind> {
        let feats = self.features();
        let y: Vec<f64> = rows.iter().map(|r| r.rating).collect();
        if rows.len() < feats.len() + 2 {
            return None;
        }
        let x: Vec<Vec<f64>> = rows.iter().map(|r| r.x(&feats)).collect();
        Some(match self {
            Spec::Constant => Kind::Ridge {
                mean: vec![],
                sd: vec![],
                intercept: y.iter().sum::<f64>() / y.len() as f64,
                coefficients: vec![],
            },
            Spec::Isotonic(_) => {
                let c: Vec<f64> = x.iter().map(|r| r[0]).collect();
                let up = spearman(&c, &y).unwrap_or(0.0) >= 0.0;
                fit_isotonic(&c, &y, up)
            }
            Spec::LinearRanks(_) => {
                let cols: Vec<Vec<f64>> = (0..feats.len())
                    .map(|j| x.iter().map(|r| r[j]).collect())
                    .collect();
                fit_linear_ranks(&cols, &y)
            }
            Spec::Ridge { lambda, .. } => fit_ridge(&x, &y, *lambda),
            Spec::Gbt { depth, trees, .. } => Kind::Gbt {
                booster: gbt::fit(&x, &y, &gbt_params(*depth, *trees, seed)),
            },
        })
    }
}

/// The features every row knows (the rank families need them all).
fn always_known(rows: &[&Sample], n_features: usize) -> Vec<usize> {
    (0..n_features)
        .filter(|&f| rows.iter().all(|r| r.features[f].is_some()))
        .collect()
}

/// Inner cross-validation: the setting of `family` with the lowest squared
/// error on `rows`, and that error (mean over the rows).
fn select(
    family: Family,
    rows: &[&Sample],
    n_features: usize,
    folds: usize,
    seed: u64,
) -> Option<(Spec, f64)> {
    let every: Vec<usize> = (0..n_features).collect();
    let known = always_known(rows, n_features);
    let fold_of = fold_assignment(rows.len(), folds, seed);
    let split = |f: usize| -> (Vec<&Sample>, Vec<&Sample>) {
        let (mut tr, mut te) = (Vec::new(), Vec::new());
        for (i, r) in rows.iter().enumerate() {
            if fold_of[i] == f {
                te.push(*r)
            } else {
                tr.push(*r)
            }
        }
        (tr, te)
    };
    let mse = |spec: &Spec| -> Option<f64> {
        let mut sq = 0.0;
        for f in 0..folds {
            let (tr, te) = split(f);
            let kind = spec.fit(&tr, seed)?;
            let feats = spec.features();
            sq += te
                .iter()
                .map(|r| (predict(&kind, &r.x(&feats)) - r.rating).powi(2))
                .sum::<f64>();
        }
        Some(sq / rows.len() as f64)
    };
    let best = |specs: Vec<Spec>| {
        specs
            .into_iter()
            .filter_map(|s| Some((mse(&s)?, s)))
            .min_by(|a, b| a.0.total_cmp(&b.0))
            .map(|(e, s)| (s, e))
    };
    match family {
        Family::Constant => best(vec![Spec::Constant]),
        Family::Isotonic => best(known.iter().map(|&f| Spec::Isotonic(f)).collect()),
        Family::LinearRanks => best(vec![Spec::LinearRanks(known)]),
        Family::Ridge => best(
            RIDGE_LAMBDAS
                .iter()
                .map(|&lambda| Spec::Ridge {
                    features: every.clone(),
                    lambda,
                })
                .collect(),
        ),
        Family::Gbt => {
            // Each depth's error after every number of trees, from one fit
            // per fold: the depth and count with the lowest.
            let mut out: Option<(Spec, f64)> = None;
            for depth in GBT_DEPTHS {
                let mut sq = vec![0.0; GBT_MAX_TREES];
                for f in 0..folds {
                    let (tr, te) = split(f);
                    let y: Vec<f64> = tr.iter().map(|r| r.rating).collect();
                    let x: Vec<Vec<f64>> = tr.iter().map(|r| r.x(&every)).collect();
                    let b = gbt::fit(&x, &y, &gbt_params(depth, GBT_MAX_TREES, seed));
                    for r in &te {
                        for (s, p) in sq.iter_mut().zip(b.staged(&r.x(&every))) {
                            *s += (p - r.rating).powi(2);
                        }
                    }
                }
                let (t, e) = sq
                    .iter()
                    .enumerate()
                    .min_by(|a, b| a.1.total_cmp(b.1))
                    .map(|(t, e)| (t + 1, e / rows.len() as f64))?;
                if out.as_ref().is_none_or(|o| e < o.1) {
                    out = Some((
                        Spec::Gbt {
                            features: every.clone(),
                            depth,
                            trees: t,
                        },
                        e,
                    ));
                }
            }
            out
        }
    }
}

/// One family's outer-fold predictions and the settings each fold chose.
#[derive(Debug, Clone)]
pub struct Assessed {
    /// The family, or `None` for the whole choice (family picked per fold).
    pub family: Option<Family>,
    /// Out-of-fold prediction of every row (`NaN`: not priced).
    pub predictions: Vec<f64>,
    /// Per outer fold: the spec chosen, described.
    pub chosen: Vec<String>,
    pub score: CvScore,
}

/// How the nested cross-validation runs.
#[derive(Debug, Clone, Copy)]
pub struct Nesting {
    pub outer: usize,
    pub inner: usize,
    pub seed: u64,
}

/// Nested cross-validation: in each of `outer` folds, every family picks
/// its setting by `inner`-fold cross-validation on the training part, is
/// fitted there and predicts the held-out part; the whole choice picks the
/// family with the lowest inner error, so no fold both picks and scores.
/// One entry per family, then the whole choice (`family` none).
#[must_use]
pub fn nested(rows: &[Sample], n_features: usize, names: &[&str], nest: Nesting) -> Vec<Assessed> {
    let fold_of = fold_assignment(rows.len(), nest.outer, nest.seed);
    let fams = Family::ALL;
    let mut preds = vec![vec![f64::NAN; rows.len()]; fams.len() + 1];
    let mut chosen = vec![Vec::new(); fams.len() + 1];
    for f in 0..nest.outer {
        let train: Vec<&Sample> = (0..rows.len())
            .filter(|&i| fold_of[i] != f)
            .map(|i| &rows[i])
            .collect();
        let test: Vec<usize> = (0..rows.len()).filter(|&i| fold_of[i] == f).collect();
        let mut best: Option<(usize, f64)> = None;
        for (k, &fam) in fams.iter().enumerate() {
            let Some((spec, inner)) = select(fam, &train, n_features, nest.inner, nest.seed) else {
                chosen[k].push("too few rows".to_string());
                continue;
            };
            let Some(kind) = spec.fit(&train, nest.seed) else {
                chosen[k].push("too few rows".to_string());
                continue;
            };
            let feats = spec.features();
            for &i in &test {
                preds[k][i] = predict(&kind, &rows[i].x(&feats));
            }
            chosen[k].push(spec.describe(names));
            if best.is_none_or(|b| inner < b.1) {
                best = Some((k, inner));
            }
        }
        if let Some((k, _)) = best {
            for &i in &test {
                preds[fams.len()][i] = preds[k][i];
            }
            chosen[fams.len()].push(fams[k].name().to_string());
        }
    }
    let ratings: Vec<f64> = rows.iter().map(|r| r.rating).collect();
    let dev: Vec<Option<f64>> = rows.iter().map(|r| r.deviation).collect();
    preds
        .into_iter()
        .zip(chosen)
        .enumerate()
        .map(|(k, (p, chosen))| Assessed {
            family: fams.get(k).copied(),
            score: score(&p, &ratings, &dev, nest),
            predictions: p,
            chosen,
        })
        .collect()
}

/// Spearman, MAE (and its standard error) and RMSE of the priced
/// predictions, over all rows and over the settled ones.
#[must_use]
pub fn score(pred: &[f64], rating: &[f64], deviation: &[Option<f64>], nest: Nesting) -> CvScore {
    let pick = |settled: bool| -> (Vec<f64>, Vec<f64>) {
        pred.iter()
            .zip(rating)
            .zip(deviation)
            .filter(|((p, _), d)| !p.is_nan() && (!settled || d.is_some_and(|d| d <= SETTLED_RD)))
            .map(|((p, r), _)| (*p, *r))
            .unzip()
    };
    let stats = |(p, r): (Vec<f64>, Vec<f64>)| {
        let e = errors(&p, &r);
        let n = r.len().max(1) as f64;
        let mr = r.iter().sum::<f64>() / n;
        let sd = (r.iter().map(|v| (v - mr).powi(2)).sum::<f64>() / n).sqrt();
        (p.len(), e.spearman, e.mae, e.mae_se, e.rmse, sd)
    };
    let (n, rho, mae, mae_se, rmse, _) = stats(pick(false));
    let (ns, rhos, maes, _, rmses, sds) = stats(pick(true));
    CvScore {
        folds: nest.outer,
        seed: nest.seed,
        n,
        spearman: rho,
        mae,
        mae_se,
        rmse,
        n_settled: ns,
        spearman_settled: rhos,
        mae_settled: maes,
        rmse_settled: rmses,
        sd_settled: sds,
    }
}

/// How far predictions are from the truth.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Errors {
    pub spearman: f64,
    pub mae: f64,
    pub mae_se: f64,
    pub rmse: f64,
}

/// Spearman (NaN when undefined), MAE with its standard error, and RMSE of
/// `pred` against `truth`.
#[must_use]
pub fn errors(pred: &[f64], truth: &[f64]) -> Errors {
    let n = pred.len();
    let err: Vec<f64> = pred.iter().zip(truth).map(|(a, b)| (a - b).abs()).collect();
    let mae = err.iter().sum::<f64>() / n.max(1) as f64;
    let var = err.iter().map(|e| (e - mae).powi(2)).sum::<f64>() / (n as f64 - 1.0).max(1.0);
    Errors {
        spearman: spearman(pred, truth).unwrap_or(f64::NAN),
        mae,
        mae_se: (var / n.max(1) as f64).sqrt(),
        rmse: (err.iter().map(|e| e * e).sum::<f64>() / n.max(1) as f64).sqrt(),
    }
}

/// Fold of each row: a seeded shuffle dealt round-robin (fold sizes differ
/// by at most one).
fn fold_assignment(n: usize, folds: usize, seed: u64) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    let mut rng = SplitMix64(seed);
    for i in (1..n).rev() {
        order.swap(i, rng.below(i + 1));
    }
    let mut fold = vec![0; n];
    for (k, &i) in order.iter().enumerate() {
        fold[i] = k % folds;
    }
    fold
}

/// Where a model's training puzzles and features came from.
#[derive(Debug, Clone)]
pub struct Provenance<'a> {
    /// Puzzle id and rating of every training row.
    pub puzzles: &'a [(String, f64)],
    /// The puzzles offered, priced or not (the model's coverage is the
    /// training rows' share of them).
    pub offered: usize,
    pub analysis: &'a str,
    pub policy: &'a str,
}

/// The model to ship: the whole choice run on every row (each family's
/// setting by `inner`-fold cross-validation, the family with the lowest
/// error), fitted on every row; `cv` is the nested score of that choice.
#[must_use]
pub fn fit_final(
    rows: &[Sample],
    names: &[&str],
    nest: Nesting,
    cv: CvScore,
    from: &Provenance,
) -> Option<RatingModel> {
    let all: Vec<&Sample> = rows.iter().collect();
    let spec = Family::ALL
        .iter()
        .filter_map(|&f| select(f, &all, names.len(), nest.inner, nest.seed))
        .min_by(|a, b| a.1.total_cmp(&b.1))?
        .0;
    let kind = spec.fit(&all, nest.seed)?;
    let feats = spec.features();
    Some(RatingModel {
        evallab_version: env!("CARGO_PKG_VERSION").to_string(),
        features: feats.iter().map(|&f| names[f].to_string()).collect(),
        coverage: rows.len() as f64 / from.offered.max(1) as f64,
        kind,
        training_puzzles: from.puzzles.len(),
        training_sha256: training_hash(from.puzzles),
        analysis: from.analysis.to_string(),
        policy: from.policy.to_string(),
        cv,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn isotonic_pools_violators() {
        // y falls from 5 (x 2) to 3 (x 3): pooled, 4; x 4 twice: 7.
        let x = [1.0, 2.0, 3.0, 4.0, 4.0];
        let y = [1.0, 5.0, 3.0, 6.0, 8.0];
        let Kind::Isotonic { x: e, y: v } = fit_isotonic(&x, &y, true) else {
            unreachable!()
        };
        // Edges midway: 1 (the first), (1 + 2)/2, (3 + 4)/2.
        assert_eq!(e, [1.0, 1.5, 3.5]);
        assert_eq!(v, [1.0, 4.0, 7.0]);
        // Decreasing: the mirror image.
        let neg: Vec<f64> = y.iter().map(|v| -v).collect();
        let Kind::Isotonic { y: v, .. } = fit_isotonic(&x, &neg, false) else {
            unreachable!()
        };
        assert_eq!(v, [-1.0, -4.0, -7.0]);
        let k = fit_isotonic(&x, &y, true);
        assert_eq!(
            [0.0, 1.0, 2.5, 3.0, 9.0].map(|v| predict(&k, &[v])),
            [1.0, 1.0, 4.0, 4.0, 7.0]
        );
    }

    #[test]
    fn cdf_mid_ranks_and_interpolation() {
        let c = fit_cdf(&[3.0, 1.0, 2.0, 2.0]);
        // 1: rank 1 → (0 + 1)/2/4; 2: ranks 2–3 → (1 + 3)/2/4; 3: (3 + 4)/2/4.
        assert_eq!(c, [(1.0, 0.125), (2.0, 0.5), (3.0, 0.875)]);
        assert_eq!(percentile(&c, 1.5), 0.3125);
        assert_eq!(percentile(&c, 0.0), 0.125);
        assert_eq!(percentile(&c, 2.0), 0.5);
        assert_eq!(percentile(&c, 9.0), 0.875);
        let many: Vec<f64> = (0..1000).map(f64::from).collect();
        let c = fit_cdf(&many);
        assert_eq!(c.len(), CDF_POINTS);
        assert_eq!((c[0].0, c[CDF_POINTS - 1].0), (0.0, 999.0));
    }

    /// An exact linear relation on the percentiles is recovered.
    #[test]
    fn linear_ranks_recovers_a_line() {
        let x: Vec<f64> = (0..10).map(|v| f64::from(v * v)).collect();
        // Percentiles (i + 0.5)/10; rating = 1000 + 800·u.
        let y: Vec<f64> = (0..10)
            .map(|i| 1000.0 + 800.0 * (i as f64 + 0.5) / 10.0)
            .collect();
        let Kind::LinearRanks {
            intercept,
            coefficients,
            ..
        } = fit_linear_ranks(&[x], &y)
        else {
            unreachable!()
        };
        assert!((intercept - 1000.0).abs() < 1e-3, "{intercept}");
        assert!((coefficients[0] - 800.0).abs() < 1e-3);
    }

    /// Rows whose rating is 1000 + 5·f0 + noise, f1 pure noise, and f2 a
    /// step only boosted trees catch (+300 when f2 > 0.5, missing in some).
    fn rows(n: usize) -> Vec<Sample> {
        let mut rng = SplitMix64(5);
        (0..n)
            .map(|i| {
                let (a, c) = (rng.below(100) as f64, rng.below(1000) as f64 / 1000.0);
                let step = if c > 0.5 { 300.0 } else { 0.0 };
                Sample {
                    features: vec![
                        Some(a),
                        Some(rng.below(1000) as f64),
                        (i % 10 != 0).then_some(c),
                    ],
                    rating: 1000.0 + 5.0 * a + step + rng.below(100) as f64,
                    deviation: Some(if i % 2 == 0 { 60.0 } else { 120.0 }),
                }
            })
            .collect()
    }

    /// Nested cross-validation: every family scored on every row, the
    /// trees (which see the step) best, the constant worst; the whole
    /// choice picks the trees in each outer fold; seeded and balanced folds.
    #[test]
    fn nested_cross_validation() {
        let rows = rows(400);
        let folds = fold_assignment(400, 5, 1);
        assert!((0..5).all(|f| folds.iter().filter(|&&x| x == f).count() == 80));
        assert_eq!(folds, fold_assignment(400, 5, 1));
        let nest = Nesting {
            outer: 4,
            inner: 3,
            seed: 1,
        };
        let all = nested(&rows, 3, &["a", "noise", "step"], nest);
        assert_eq!(all.len(), Family::ALL.len() + 1);
        let by = |f: Option<Family>| all.iter().find(|a| a.family == f).unwrap();
        let (gbt, ridge, constant) = (
            by(Some(Family::Gbt)),
            by(Some(Family::Ridge)),
            by(Some(Family::Constant)),
        );
        assert!(
            all.iter()
                .all(|a| a.score.n == 400 && a.score.n_settled == 200),
            "{all:?}"
        );
        assert!(gbt.score.rmse < ridge.score.rmse && ridge.score.rmse < constant.score.rmse);
        assert!(gbt.score.spearman > 0.9, "{:?}", gbt.score);
        // Isotonic and linear ranks use the always-known features only.
        assert!(by(Some(Family::Isotonic)).chosen.iter().all(|c| c == "a"));
        let whole = by(None);
        assert_eq!(whole.chosen, vec!["gbt"; 4]);
        assert_eq!(whole.predictions, gbt.predictions);
        // The constant's RMSE is the ratings' spread (about their sd).
        let r: Vec<f64> = rows.iter().map(|r| r.rating).collect();
        let m = r.iter().sum::<f64>() / 400.0;
        let sd = (r.iter().map(|v| (v - m).powi(2)).sum::<f64>() / 400.0).sqrt();
        assert!((constant.score.rmse / sd - 1.0).abs() < 0.05);
    }

    /// The scores by hand on three rows, one unpriced, one unsettled.
    #[test]
    fn scores_by_hand() {
        let nest = Nesting {
            outer: 2,
            inner: 2,
            seed: 0,
        };
        let s = score(
            &[1100.0, 1300.0, f64::NAN, 1500.0],
            &[1000.0, 1400.0, 1200.0, 1600.0],
            &[Some(50.0), Some(90.0), Some(50.0), Some(200.0)],
            nest,
        );
        assert_eq!((s.n, s.n_settled), (3, 2));
        assert_eq!((s.mae, s.rmse, s.spearman), (100.0, 100.0, 1.0));
        assert_eq!((s.mae_settled, s.sd_settled), (100.0, 200.0));
    }

    /// Ridge with no penalty is least squares: an exact line comes back,
    /// and a missing value predicts as the mean.
    #[test]
    fn ridge_recovers_a_line() {
        let x: Vec<Vec<f64>> = (0..10)
            .map(|i| vec![f64::from(i), f64::from(i % 2)])
            .collect();
        let y: Vec<f64> = x.iter().map(|r| 100.0 + 3.0 * r[0] - 7.0 * r[1]).collect();
        let k = fit_ridge(&x, &y, 0.0);
        for r in &x {
            assert!((predict(&k, r) - (100.0 + 3.0 * r[0] - 7.0 * r[1])).abs() < 1e-6);
        }
        // Feature 0 missing: as if at its mean, 4.5.
        assert!((predict(&k, &[f64::NAN, 0.0]) - (100.0 + 13.5)).abs() < 1e-6);
        // A heavy penalty shrinks toward the mean rating.
        let heavy = fit_ridge(&x, &y, 1e6);
        assert!((predict(&heavy, &x[0]) - y.iter().sum::<f64>() / 10.0).abs() < 0.1);
    }

    #[test]
    fn model_file_round_trip() {
        let rows = rows(60);
        let refs: Vec<&Sample> = rows.iter().collect();
        for spec in [
            Spec::Isotonic(0),
            Spec::LinearRanks(vec![0, 1]),
            Spec::Ridge {
                features: vec![0, 1, 2],
                lambda: 0.01,
            },
            Spec::Gbt {
                features: vec![0, 1, 2],
                depth: 2,
                trees: 5,
            },
        ] {
            let m = RatingModel {
                evallab_version: "0.1.0".into(),
                features: spec.features().iter().map(|f| format!("f{f}")).collect(),
                kind: spec.fit(&refs, 1).unwrap(),
                training_puzzles: 60,
                coverage: 1.0,
                training_sha256: training_hash(&[("a".into(), 1500.0)]),
                analysis: "sf".into(),
                policy: "maia".into(),
                cv: score(
                    &[1.0, 2.0],
                    &[1.0, 3.0],
                    &[None, None],
                    Nesting {
                        outer: 2,
                        inner: 2,
                        seed: 1,
                    },
                ),
            };
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("m.json");
            m.save(&path).unwrap();
            let back = RatingModel::load(&path).unwrap();
            // serde_json parses a float to within an ulp, not always to the bit.
            let close = |a: f64, b: f64| (a - b).abs() <= 1e-9 * a.abs().max(1.0);
            assert_eq!((&back.features, back.cv.n), (&m.features, m.cv.n));
            assert_eq!(back.training_sha256, m.training_sha256);
            for v in [-5.0, 0.0, 3.5, 7.0, 19.0, 40.0] {
                let x: Vec<Option<f64>> = spec.features().iter().map(|_| Some(v)).collect();
                assert!(close(back.predict(&x).unwrap(), m.predict(&x).unwrap()));
            }
            let mut missing: Vec<Option<f64>> = spec.features().iter().map(|_| Some(7.0)).collect();
            missing[0] = None;
            // The rank models need every feature; ridge and trees do not.
            let rank = matches!(spec, Spec::Isotonic(_) | Spec::LinearRanks(_));
            assert_eq!(back.predict(&missing).is_none(), rank);
        }
        let dir = tempfile::tempdir().unwrap();
        let bad = dir.path().join("bad.json");
        std::fs::write(&bad, "{\"kind\": \"isotonic\"}").unwrap();
        let e = RatingModel::load(&bad).unwrap_err().to_string();
        assert!(
            e.contains("bad.json") && e.contains("not an evallab rating model"),
            "{e}"
        );
    }

    #[test]
    fn the_training_hash_ignores_order() {
        let a = training_hash(&[("x".into(), 1.0), ("y".into(), 2.0)]);
        let b = training_hash(&[("y".into(), 2.0), ("x".into(), 1.0)]);
        assert_eq!(a, b);
        assert_ne!(a, training_hash(&[("x".into(), 1.0), ("y".into(), 3.0)]));
        assert_eq!(a.len(), 64);
    }
}
