//! The expected-rating model: measures → expected puzzle rating.
//!
//! Two small, explainable kinds, chosen by k-fold cross-validated mean
//! absolute error on the training puzzles:
//! - [`Kind::Isotonic`]: a monotone step function of one measure (pool
//!   adjacent violators, the direction of the measure's Spearman rho);
//! - [`Kind::LinearRanks`]: a linear regression of the rating on the
//!   measures' percentiles in the training sample (their empirical CDF,
//!   mid-ranks for ties, interpolated between stored points), so that one
//!   outlying value cannot pull the fit and each coefficient reads as
//!   "rating points from the lowest to the highest value of the measure".
//!
//! A position lacking one of the model's measures has no expected rating.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

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
}

/// Cross-validated scores of a model on its training puzzles.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct CvScore {
    pub folds: usize,
    pub seed: u64,
    /// Puzzles scored (those with every candidate measure known).
    pub n: usize,
    /// Spearman's rho of prediction and rating, the mean over the folds.
    pub spearman: f64,
    /// Mean absolute error, rating points, and its standard error.
    pub mae: f64,
    pub mae_se: f64,
}

/// A model file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RatingModel {
    pub evallab_version: String,
    /// The measures the model reads, in [`Kind::LinearRanks`]'s order.
    pub features: Vec<String>,
    #[serde(flatten)]
    pub kind: Kind,
    /// The training puzzles: count and sha256 of their sorted `id,rating` lines.
    pub training_puzzles: usize,
    /// Share of the training puzzles with every measure of the model known
    /// (the others have no expected rating).
    pub coverage: f64,
    pub training_sha256: String,
    /// The analysis and policy runs the measures came from.
    pub analysis: String,
    pub policy: String,
    /// Cross-validated on the training puzzles with the model's measures.
    pub cv: CvScore,
}

impl RatingModel {
    /// The expected rating of a position's `features` (in the model's
    /// order); `None` when one is missing.
    #[must_use]
    pub fn predict(&self, features: &[Option<f64>]) -> Option<f64> {
        let x: Vec<f64> = features.iter().copied().collect::<Option<_>>()?;
        Some(predict(&self.kind, &x))
    }

    pub fn save(&self, path: &std::path::Path) -> Result<(), Error> {
        // One line per CDF point would make thousands of lines: compact.
        let text = serde_json::to_string(self).map_err(|e| Error::Dataset(e.to_string()))?;
        std::fs::write(path, text + "\n").map_err(|e| Error::io(path, e))
    }

    pub fn load(path: &std::path::Path) -> Result<Self, Error> {
        let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
        let model: RatingModel = serde_json::from_str(&text).map_err(|e| {
            Error::Usage(format!(
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
        };
        if !fits {
            return Err(Error::Usage(format!(
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
    // Blocks of groups (first x, sum, count), pooled while they decrease.
    let mut blocks: Vec<(f64, f64, f64)> = Vec::new();
    for g in groups {
        blocks.push(g);
        while blocks.len() > 1 {
            let (a, b) = (blocks[blocks.len() - 2], blocks[blocks.len() - 1]);
            if a.1 / a.2 <= b.1 / b.2 {
                break;
            }
            blocks.pop();
            *blocks.last_mut().expect("two blocks") = (a.0, a.1 + b.1, a.2 + b.2);
        }
    }
    Kind::Isotonic {
        x: blocks.iter().map(|b| b.0).collect(),
        y: blocks.iter().map(|b| sign * b.1 / b.2).collect(),
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

/// Training rows: each puzzle's measures (all features) and its rating.
#[derive(Debug, Clone)]
pub struct Sample {
    pub features: Vec<Option<f64>>,
    pub rating: f64,
}

/// A model specification: which features, which kind.
#[derive(Debug, Clone, PartialEq)]
pub enum Spec {
    Isotonic(usize),
    LinearRanks(Vec<usize>),
}

impl Spec {
    /// The features' indices.
    #[must_use]
    pub fn features(&self) -> Vec<usize> {
        match self {
            Spec::Isotonic(f) => vec![*f],
            Spec::LinearRanks(fs) => fs.clone(),
        }
    }

    /// Fits on the rows with every feature of the spec known.
    #[must_use]
    pub fn fit(&self, rows: &[&Sample]) -> Option<Kind> {
        let feats = self.features();
        let rows: Vec<(Vec<f64>, f64)> = complete(rows, &feats);
        if rows.len() < feats.len() + 2 {
            return None;
        }
        let y: Vec<f64> = rows.iter().map(|r| r.1).collect();
        let cols: Vec<Vec<f64>> = (0..feats.len())
            .map(|j| rows.iter().map(|r| r.0[j]).collect())
            .collect();
        Some(match self {
            Spec::Isotonic(_) => {
                let up = spearman(&cols[0], &y).unwrap_or(0.0) >= 0.0;
                fit_isotonic(&cols[0], &y, up)
            }
            Spec::LinearRanks(_) => fit_linear_ranks(&cols, &y),
        })
    }

    /// Pooled out-of-fold predictions over `folds` seeded folds: Spearman
    /// between prediction and rating, and the mean absolute error.
    #[must_use]
    pub fn cross_validate(&self, rows: &[Sample], folds: usize, seed: u64) -> Option<CvScore> {
        let feats = self.features();
        let fold_of = fold_assignment(rows.len(), folds, seed);
        // Spearman per fold, averaged: pooling the folds' predictions would
        // order tied measure values by fold, which is noise.
        let (mut errors, mut rhos) = (Vec::new(), Vec::new());
        for f in 0..folds {
            let train: Vec<&Sample> = (0..rows.len())
                .filter(|&i| fold_of[i] != f)
                .map(|i| &rows[i])
                .collect();
            let kind = self.fit(&train)?;
            let (mut pred, mut truth) = (Vec::new(), Vec::new());
            for (_, r) in rows.iter().enumerate().filter(|(i, _)| fold_of[*i] == f) {
                let x: Option<Vec<f64>> = feats.iter().map(|&j| r.features[j]).collect();
                if let Some(x) = x {
                    pred.push(predict(&kind, &x));
                    truth.push(r.rating);
                }
            }
            errors.extend(pred.iter().zip(&truth).map(|(p, t)| (p - t).abs()));
            rhos.extend(spearman(&pred, &truth));
        }
        let (n, mae) = mean(&errors)?;
        let var = errors.iter().map(|e| (e - mae).powi(2)).sum::<f64>() / (n as f64 - 1.0).max(1.0);
        Some(CvScore {
            folds,
            seed,
            n,
            spearman: mean(&rhos)?.1,
            mae,
            mae_se: (var / n as f64).sqrt(),
        })
    }
}

/// Count and mean; `None` when empty.
fn mean(v: &[f64]) -> Option<(usize, f64)> {
    (!v.is_empty()).then(|| (v.len(), v.iter().sum::<f64>() / v.len() as f64))
}

fn complete(rows: &[&Sample], feats: &[usize]) -> Vec<(Vec<f64>, f64)> {
    rows.iter()
        .filter_map(|r| {
            let x: Option<Vec<f64>> = feats.iter().map(|&j| r.features[j]).collect();
            Some((x?, r.rating))
        })
        .collect()
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

/// A candidate spec and its cross-validated score.
#[derive(Debug, Clone)]
pub struct Scored {
    pub spec: Spec,
    pub cv: CvScore,
}

/// The rows with every measure known: all models are scored on them, so
/// that their errors compare.
fn fully_measured(rows: &[Sample]) -> Vec<Sample> {
    rows.iter()
        .filter(|r| r.features.iter().all(Option::is_some))
        .cloned()
        .collect()
}

/// Every candidate: isotonic on each measure, linear on the ranks of all
/// measures, and linear on the ranks of the measures chosen greedily
/// (forward selection by CV MAE, while it improves). All are scored on the
/// same rows, those with every measure known, so that their errors compare.
/// Sorted best first (MAE).
#[must_use]
pub fn candidates(rows: &[Sample], n_features: usize, folds: usize, seed: u64) -> Vec<Scored> {
    let rows = fully_measured(rows);
    let rows = &rows[..];
    let score = |spec: Spec| {
        spec.cross_validate(rows, folds, seed)
            .map(|cv| Scored { spec, cv })
    };
    let mut out: Vec<Scored> = (0..n_features)
        .filter_map(|f| score(Spec::Isotonic(f)))
        .collect();
    out.extend(score(Spec::LinearRanks((0..n_features).collect())));
    let mut chosen: Vec<usize> = Vec::new();
    let mut best_mae = f64::INFINITY;
    loop {
        let step = (0..n_features)
            .filter(|f| !chosen.contains(f))
            .filter_map(|f| {
                let mut fs = chosen.clone();
                fs.push(f);
                score(Spec::LinearRanks(fs))
            })
            .min_by(|a, b| a.cv.mae.total_cmp(&b.cv.mae));
        match step {
            Some(s) if s.cv.mae < best_mae => {
                best_mae = s.cv.mae;
                chosen = s.spec.features();
                out.push(s);
            }
            _ => break,
        }
    }
    out.sort_by(|a, b| a.cv.mae.total_cmp(&b.cv.mae));
    out.dedup_by(|a, b| a.spec == b.spec);
    out
}

/// Cross-validated score of the constant model (each fold's mean rating) on
/// the rows [`candidates`] scores: the error a measure has to beat.
#[must_use]
pub fn constant_cv(rows: &[Sample], folds: usize, seed: u64) -> Option<CvScore> {
    let rows = fully_measured(rows);
    let rows = &rows[..];
    let fold_of = fold_assignment(rows.len(), folds, seed);
    let mut errors = Vec::new();
    for f in 0..folds {
        let train: Vec<f64> = (0..rows.len())
            .filter(|&i| fold_of[i] != f)
            .map(|i| rows[i].rating)
            .collect();
        let (_, m) = mean(&train)?;
        errors.extend(
            (0..rows.len())
                .filter(|&i| fold_of[i] == f)
                .map(|i| (rows[i].rating - m).abs()),
        );
    }
    let (n, mae) = mean(&errors)?;
    let var = errors.iter().map(|e| (e - mae).powi(2)).sum::<f64>() / (n as f64 - 1.0).max(1.0);
    Some(CvScore {
        folds,
        seed,
        n,
        spearman: f64::NAN,
        mae,
        mae_se: (var / n as f64).sqrt(),
    })
}

/// The model to keep: the one with the fewest measures among those whose
/// CV error is within one standard error of the lowest (the one-standard-
/// error rule: a measure more must earn its place), then the lower error.
#[must_use]
pub fn choose(scored: &[Scored]) -> Option<&Scored> {
    let best = scored.iter().min_by(|a, b| a.cv.mae.total_cmp(&b.cv.mae))?;
    scored
        .iter()
        .filter(|s| s.cv.mae <= best.cv.mae + best.cv.mae_se)
        .min_by(|a, b| {
            (a.spec.features().len().cmp(&b.spec.features().len()))
                .then(a.cv.mae.total_cmp(&b.cv.mae))
        })
}

/// Where a model's training puzzles and measures came from.
#[derive(Debug, Clone)]
pub struct Provenance<'a> {
    /// Puzzle id and rating of every training row.
    pub puzzles: &'a [(String, f64)],
    pub analysis: &'a str,
    pub policy: &'a str,
}

/// A chosen candidate (see [`choose`]) fitted on every row with its
/// measures, its CV score taken on those rows.
#[must_use]
pub fn fit_best(
    rows: &[Sample],
    names: &[&str],
    best: &Scored,
    from: &Provenance,
) -> Option<RatingModel> {
    let all: Vec<&Sample> = rows.iter().collect();
    Some(RatingModel {
        evallab_version: env!("CARGO_PKG_VERSION").to_string(),
        features: best
            .spec
            .features()
            .iter()
            .map(|&f| names[f].to_string())
            .collect(),
        kind: best.spec.fit(&all)?,
        training_puzzles: from.puzzles.len(),
        coverage: complete(&all, &best.spec.features()).len() as f64 / rows.len().max(1) as f64,
        training_sha256: training_hash(from.puzzles),
        analysis: from.analysis.to_string(),
        policy: from.policy.to_string(),
        // Scored again on every puzzle with the model's own measures, not
        // only on those with every candidate's: what a new sample will see.
        cv: best
            .spec
            .cross_validate(rows, best.cv.folds, best.cv.seed)?,
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
        assert_eq!(e, [1.0, 2.0, 4.0]);
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

    /// CV on a monotone relation with noise: isotonic and linear both rank
    /// well; the fold assignment is seeded and balanced.
    #[test]
    fn cross_validation() {
        let mut rng = SplitMix64(5);
        let rows: Vec<Sample> = (0..200)
            .map(|i| Sample {
                features: vec![Some(f64::from(i)), None],
                rating: 1000.0 + 5.0 * f64::from(i) + rng.below(100) as f64,
            })
            .collect();
        let folds = fold_assignment(200, 5, 1);
        assert!((0..5).all(|f| folds.iter().filter(|&&x| x == f).count() == 40));
        assert_eq!(folds, fold_assignment(200, 5, 1));
        let cv = Spec::Isotonic(0).cross_validate(&rows, 5, 1).unwrap();
        assert_eq!(cv.n, 200);
        assert!(cv.spearman > 0.9 && cv.mae < 60.0, "{cv:?}");
        // A feature never known: no model.
        assert!(Spec::Isotonic(1).cross_validate(&rows, 5, 1).is_none());
        // Candidates score only rows with every measure: none here.
        assert!(candidates(&rows, 2, 5, 1).is_empty());
        // With the second measure pure noise, the first carries the best model.
        let noisy: Vec<Sample> = rows
            .iter()
            .map(|r| Sample {
                features: vec![r.features[0], Some(rng.below(1000) as f64)],
                rating: r.rating,
            })
            .collect();
        let all = candidates(&noisy, 2, 5, 1);
        assert!(all[0].spec.features().contains(&0), "{:?}", all[0]);
        let iso = |f| all.iter().find(|s| s.spec == Spec::Isotonic(f)).unwrap().cv;
        assert!(iso(0).mae < iso(1).mae && iso(1).spearman.abs() < 0.2);
        let constant = constant_cv(&noisy, 5, 1).unwrap();
        assert!(iso(0).mae < constant.mae && constant.n == 200);
    }

    #[test]
    fn model_file_round_trip() {
        let rows: Vec<Sample> = (0..20)
            .map(|i| Sample {
                features: vec![Some(f64::from(i)), Some(f64::from(i % 3))],
                rating: 1500.0 + 10.0 * f64::from(i),
            })
            .collect();
        let refs: Vec<&Sample> = rows.iter().collect();
        for spec in [Spec::Isotonic(0), Spec::LinearRanks(vec![0, 1])] {
            let m = RatingModel {
                evallab_version: "0.1.0".into(),
                features: spec.features().iter().map(|f| format!("f{f}")).collect(),
                kind: spec.fit(&refs).unwrap(),
                training_puzzles: 20,
                coverage: 1.0,
                training_sha256: training_hash(&[("a".into(), 1500.0)]),
                analysis: "sf".into(),
                policy: "maia".into(),
                cv: spec.cross_validate(&rows, 4, 2).unwrap(),
            };
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("m.json");
            m.save(&path).unwrap();
            let back = RatingModel::load(&path).unwrap();
            // serde_json parses a float to within an ulp, not always to the bit.
            let close = |a: f64, b: f64| (a - b).abs() <= 1e-12 * a.abs().max(1.0);
            assert_eq!((&back.features, back.cv.n), (&m.features, m.cv.n));
            assert_eq!(back.training_sha256, m.training_sha256);
            assert!(close(back.cv.mae, m.cv.mae));
            for v in [-5.0, 0.0, 3.5, 7.0, 19.0, 40.0] {
                let x: Vec<Option<f64>> = spec.features().iter().map(|_| Some(v)).collect();
                assert!(close(back.predict(&x).unwrap(), m.predict(&x).unwrap()));
            }
            let x: Vec<Option<f64>> = spec.features().iter().map(|_| Some(7.0)).collect();
            let mut missing = x.clone();
            missing[0] = None;
            assert_eq!(back.predict(&missing), None);
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
