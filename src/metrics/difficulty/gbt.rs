//! Gradient-boosted regression trees, squared loss, on histogram bins.
//!
//! Small on purpose (docs/definitions/difficulty.md, reading 8): the
//! trees live inside evallab's model file as plain JSON, fitting is seeded
//! and deterministic, and nothing beyond what the rating model needs is
//! here: depth-wise trees on quantile bins, shrinkage, row subsampling, an
//! L2 penalty on leaves, and a learned direction for missing values.

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::metrics::calibrate::math::SplitMix64;

/// At most this many cut points per feature (the bins are their gaps).
const MAX_CUTS: usize = 63;

/// How the trees are grown.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Params {
    pub trees: usize,
    pub depth: u8,
    /// Shrinkage of each tree's leaves.
    pub rate: f64,
    /// A split leaves at least this many rows on each side.
    pub min_leaf: usize,
    /// L2 penalty on a leaf's value (in rows).
    pub lambda: f64,
    /// Share of the rows each tree is fitted on.
    pub subsample: f64,
    pub seed: u64,
}

/// One node of a tree, as the model file holds it (short keys: a model has
/// tens of thousands of nodes).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Node {
    Split {
        /// The feature's index.
        #[serde(rename = "f")]
        feature: usize,
        /// Left when the value is below it.
        #[serde(rename = "t")]
        threshold: f64,
        /// Where a missing value goes.
        #[serde(rename = "m")]
        missing_left: bool,
        /// The children's indices in the tree.
        #[serde(rename = "l")]
        left: usize,
        #[serde(rename = "r")]
        right: usize,
    },
    Leaf {
        #[serde(rename = "v")]
        value: f64,
    },
}

impl Node {
    /// The split's feature; none for a leaf.
    #[must_use]
    pub fn feature(&self) -> Option<usize> {
        match self {
            Node::Split { feature, .. } => Some(*feature),
            Node::Leaf { .. } => None,
        }
    }
}

/// A fitted ensemble: `base` plus the leaves the rows fall into.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Booster {
    pub base: f64,
    pub trees: Vec<Vec<Node>>,
}

impl Booster {
    /// The prediction of one row (`NaN` is missing).
    #[must_use]
    pub fn predict(&self, x: &[f64]) -> f64 {
        self.trees.iter().fold(self.base, |acc, t| acc + leaf(t, x))
    }

    /// The predictions after each of the first trees: `out[k]` after k + 1.
    #[must_use]
    pub fn staged(&self, x: &[f64]) -> Vec<f64> {
        let mut acc = self.base;
        self.trees
            .iter()
            .map(|t| {
                acc += leaf(t, x);
                acc
            })
            .collect()
    }
}

fn leaf(tree: &[Node], x: &[f64]) -> f64 {
    let mut i = 0;
    loop {
        match &tree[i] {
            Node::Leaf { value } => return *value,
            Node::Split {
                feature,
                threshold,
                missing_left,
                left,
                right,
            } => {
                let v = x[*feature];
                let go_left = if v.is_nan() {
                    *missing_left
                } else {
                    v < *threshold
                };
                i = if go_left { *left } else { *right };
            }
        }
    }
}

/// Cut points of one feature's known values: midway between two distinct
/// values, at quantiles when there are many. No value is ever a cut, so a
/// threshold read back from JSON a bit off (serde_json's float parsing is
/// not always exact to the bit) sends every value the same way.
fn cuts(values: impl Iterator<Item = f64>) -> Vec<f64> {
    let mut v: Vec<f64> = values.filter(|x| !x.is_nan()).collect();
    v.sort_by(f64::total_cmp);
    v.dedup();
    let mid = |i: usize| (v[i] + v[i + 1]) / 2.0;
    if v.len() <= MAX_CUTS + 1 {
        return (0..v.len().saturating_sub(1)).map(mid).collect();
    }
    let mut c: Vec<f64> = (1..=MAX_CUTS)
        .map(|k| mid(k * (v.len() - 2) / (MAX_CUTS + 1)))
        .collect();
    c.dedup();
    c
}

/// Fits on `x` (rows of features, `NaN` missing) and `y`.
#[must_use]
pub fn fit(x: &[Vec<f64>], y: &[f64], p: &Params) -> Booster {
    let n = y.len();
    let k = x.first().map_or(0, Vec::len);
    let cut: Vec<Vec<f64>> = (0..k).map(|f| cuts(x.iter().map(|r| r[f]))).collect();
    // Bin of each value (u8::MAX: missing), feature-major.
    let bins: Vec<Vec<u8>> = (0..k)
        .map(|f| {
            x.iter()
                .map(|r| {
                    let v = r[f];
                    if v.is_nan() {
                        u8::MAX
                    } else {
                        cut[f].partition_point(|c| *c <= v) as u8
                    }
                })
                .collect()
        })
        .collect();
    let base = y.iter().sum::<f64>() / n.max(1) as f64;
    let mut pred = vec![base; n];
    let mut rng = SplitMix64(p.seed);
    let mut trees = Vec::with_capacity(p.trees);
    for _ in 0..p.trees {
        let grad: Vec<f64> = pred.iter().zip(y).map(|(a, b)| a - b).collect();
        let rows: Vec<u32> = (0..n as u32)
            .filter(|_| {
                p.subsample >= 1.0
                    || (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 <= p.subsample
            })
            .collect();
        let tree = grow(&bins, &cut, &grad, rows, p);
        for (i, r) in x.iter().enumerate() {
            pred[i] += leaf(&tree, r);
        }
        trees.push(tree);
    }
    Booster { base, trees }
}

/// The best split of a node's rows: (gain, feature, bin, missing left).
fn best_split(
    bins: &[Vec<u8>],
    grad: &[f64],
    rows: &[u32],
    p: &Params,
) -> Option<(f64, usize, usize, bool)> {
    let total: f64 = rows.iter().map(|&r| grad[r as usize]).sum();
    let count = rows.len() as f64;
    let score = |g: f64, c: f64| g * g / (c + p.lambda);
    let parent = score(total, count);
    let min = p.min_leaf as f64;
    (0..bins.len())
        .into_par_iter()
        .filter_map(|f| {
            let mut g = [0.0f64; MAX_CUTS + 2];
            let mut c = [0.0f64; MAX_CUTS + 2];
            let (mut gm, mut cm) = (0.0, 0.0);
            for &r in rows {
                let b = bins[f][r as usize];
                if b == u8::MAX {
                    gm += grad[r as usize];
                    cm += 1.0;
                } else {
                    g[b as usize] += grad[r as usize];
                    c[b as usize] += 1.0;
                }
            }
            let mut best: Option<(f64, usize, usize, bool)> = None;
            let (mut gl, mut cl) = (0.0, 0.0);
            for b in 0..=MAX_CUTS {
                gl += g[b];
                cl += c[b];
                for missing_left in [false, true] {
                    let (gl, cl) = if missing_left {
                        (gl + gm, cl + cm)
                    } else {
                        (gl, cl)
                    };
                    let (gr, cr) = (total - gl, count - cl);
                    if cl < min || cr < min {
                        continue;
                    }
                    let gain = score(gl, cl) + score(gr, cr) - parent;
                    if best.is_none_or(|x| gain > x.0) {
                        best = Some((gain, f, b, missing_left));
                    }
                }
            }
            best
        })
        // Ties to the lower feature: the same fit whatever the thread order.
        .reduce_with(|a, b| {
            if b.0 > a.0 || (b.0 == a.0 && b.1 < a.1) {
                b
            } else {
                a
            }
        })
        .filter(|s| s.0 > 1e-12)
}

fn grow(bins: &[Vec<u8>], cut: &[Vec<f64>], grad: &[f64], rows: Vec<u32>, p: &Params) -> Vec<Node> {
    let leaf_of = |rows: &[u32]| {
        let g: f64 = rows.iter().map(|&r| grad[r as usize]).sum();
        -p.rate * g / (rows.len() as f64 + p.lambda)
    };
    let mut nodes = vec![Node::Leaf {
        value: leaf_of(&rows),
    }];
    let mut open = vec![(0usize, rows, 0u8)];
    while let Some((i, rows, d)) = open.pop() {
        if d >= p.depth {
            continue;
        }
        let Some((_, f, b, missing_left)) = best_split(bins, grad, &rows, p) else {
            continue;
        };
        let (l, r): (Vec<u32>, Vec<u32>) = rows.into_iter().partition(|&r| {
            let v = bins[f][r as usize];
            if v == u8::MAX {
                missing_left
            } else {
                (v as usize) <= b
            }
        });
        let (li, ri) = (nodes.len(), nodes.len() + 1);
        for side in [&l, &r] {
            nodes.push(Node::Leaf {
                value: leaf_of(side),
            });
        }
        nodes[i] = Node::Split {
            feature: f,
            // Bin b holds the values below cut b (the last bin: every known
            // value, so the split parts the missing ones; JSON holds no inf).
            threshold: cut[f].get(b).copied().unwrap_or(f64::MAX),
            missing_left,
            left: li,
            right: ri,
        };
        open.push((li, l, d + 1));
        open.push((ri, r, d + 1));
    }
    nodes
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(trees: usize, depth: u8) -> Params {
        Params {
            trees,
            depth,
            rate: 0.3,
            min_leaf: 1,
            lambda: 0.0,
            subsample: 1.0,
            seed: 1,
        }
    }

    /// One split recovers a step exactly: the base is the mean, the first
    /// tree's leaves the two sides' residuals times the rate.
    #[test]
    fn a_step_by_hand() {
        let x: Vec<Vec<f64>> = (0..10).map(|i| vec![f64::from(i)]).collect();
        let y: Vec<f64> = (0..10).map(|i| if i < 4 { 0.0 } else { 10.0 }).collect();
        let b = fit(&x, &y, &params(1, 1));
        assert_eq!(b.base, 6.0);
        let Node::Split {
            feature, threshold, ..
        } = b.trees[0][0]
        else {
            panic!("a split at the root")
        };
        assert_eq!((feature, threshold), (0, 3.5));
        // Residuals −6 (left) and +4 (right), times 0.3.
        assert!((b.predict(&[2.0]) - (6.0 - 1.8)).abs() < 1e-12);
        assert!((b.predict(&[7.0]) - (6.0 + 1.2)).abs() < 1e-12);
        // Enough trees reach the step.
        let b = fit(&x, &y, &params(60, 1));
        assert!(b.predict(&[1.0]).abs() < 1e-6 && (b.predict(&[9.0]) - 10.0).abs() < 1e-6);
        assert_eq!(b.staged(&[9.0]).len(), 60);
        assert_eq!(*b.staged(&[9.0]).last().unwrap(), b.predict(&[9.0]));
    }

    /// An interaction no additive model holds (XOR of two signs), and a
    /// missing value sent where its rows' mean lies.
    #[test]
    fn interaction_and_missing() {
        let mut rng = SplitMix64(3);
        let mut x = Vec::new();
        let mut y = Vec::new();
        for _ in 0..400 {
            let a = rng.below(1000) as f64 / 500.0 - 1.0;
            let c = rng.below(1000) as f64 / 500.0 - 1.0;
            x.push(vec![a, c]);
            y.push(if (a > 0.0) == (c > 0.0) { 1.0 } else { -1.0 });
        }
        // Rows whose first feature is missing all have y = 5.
        for i in 0..40 {
            x.push(vec![f64::NAN, f64::from(i) / 40.0]);
            y.push(5.0);
        }
        let b = fit(&x, &y, &params(100, 3));
        for (a, c, want) in [(0.5, 0.5, 1.0), (-0.5, -0.5, 1.0), (0.5, -0.5, -1.0)] {
            assert!((b.predict(&[a, c]) - want).abs() < 0.2, "{a} {c}");
        }
        assert!((b.predict(&[f64::NAN, 0.3]) - 5.0).abs() < 0.2);
        // Seeded: the same fit twice, with subsampling too.
        let p = Params {
            subsample: 0.7,
            ..params(20, 3)
        };
        assert_eq!(fit(&x, &y, &p), fit(&x, &y, &p));
    }

    #[test]
    fn cut_points() {
        assert_eq!(cuts([3.0, 1.0, 1.0, f64::NAN, 2.0].into_iter()), [1.5, 2.5]);
        let many = cuts((0..1000).map(f64::from));
        assert_eq!(many.len(), MAX_CUTS);
        assert!(many.windows(2).all(|w| w[0] < w[1]));
        // Never a value: midway between two.
        assert!(many.iter().all(|c| c.fract() == 0.5));
    }
}
