//! A sparse symmetric positive definite solve, L·D·Lᵀ, eliminating the
//! variable with the fewest remaining neighbours first (minimum degree).
//!
//! The rating Hessian is a weighted graph Laplacian of who played whom: the
//! TCEC archive's 1,700 connected engines form a chain of small round robins,
//! so elimination in minimum-degree order fills in little, and one factor
//! serves every simulation (fit.rs).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A multiplicative hash for variable indices (SipHash is the factoring's
/// main cost otherwise; the keys are not adversarial).
#[derive(Default)]
struct IndexHasher(u64);

impl Hasher for IndexHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0.rotate_left(5) ^ u64::from(*b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }

    fn write_usize(&mut self, i: usize) {
        self.0 = (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

type Row = HashMap<usize, f64, BuildHasherDefault<IndexHasher>>;

/// One elimination: the variable, its pivot, and the column of L below it
/// (later variable, multiplier).
type Step = (usize, f64, Vec<(usize, f64)>);

/// A factored symmetric matrix over some of `n` variables.
#[derive(Debug, Clone)]
pub struct Factor {
    /// Variables in elimination order, with the column of L below each
    /// pivot (later variable, multiplier).
    steps: Vec<Step>,
    n: usize,
}

/// A symmetric matrix being assembled: its diagonal and upper entries.
#[derive(Debug, Clone)]
pub struct Matrix {
    diag: Vec<f64>,
    off: Vec<Row>,
}

impl Matrix {
    pub fn new(n: usize) -> Matrix {
        Matrix {
            diag: vec![0.0; n],
            off: vec![Row::default(); n],
        }
    }

    pub fn add_diag(&mut self, i: usize, v: f64) {
        self.diag[i] += v;
    }

    /// Adds `v` at (i, j) and (j, i), i ≠ j.
    pub fn add_off(&mut self, i: usize, j: usize, v: f64) {
        *self.off[i].entry(j).or_insert(0.0) += v;
        *self.off[j].entry(i).or_insert(0.0) += v;
    }

    /// Factors the submatrix of the variables in `keep`; the others are
    /// dropped (their rows and columns, as if fixed). The elimination order
    /// of `like` is reused when given (the same graph: no search).
    pub fn factor(mut self, keep: &[bool], like: Option<&Factor>) -> Factor {
        let n = self.diag.len();
        for (i, &k) in keep.iter().enumerate() {
            if !k {
                for j in std::mem::take(&mut self.off[i]).into_keys() {
                    self.off[j].remove(&i);
                }
            }
        }
        let mut left: Vec<usize> = (0..n).filter(|&i| keep[i]).collect();
        let mut steps = Vec::with_capacity(left.len());
        let mut given = like.map(|f| {
            let mut order: Vec<usize> = f.steps.iter().map(|s| s.0).filter(|&v| keep[v]).collect();
            // Variables the old order lacks go last.
            let known: std::collections::HashSet<usize> = order.iter().copied().collect();
            order.extend(left.iter().filter(|v| !known.contains(v)));
            order.into_iter()
        });
        while !left.is_empty() {
            let v = match given.as_mut() {
                Some(order) => {
                    let v = order.next().expect("every variable");
                    left.pop();
                    v
                }
                None => {
                    // Fewest neighbours first; ties by index: deterministic.
                    let (pos, &v) = left
                        .iter()
                        .enumerate()
                        .min_by_key(|&(_, &v)| (self.off[v].len(), v))
                        .expect("not empty");
                    left.swap_remove(pos);
                    v
                }
            };
            let d = self.diag[v];
            let mut col: Vec<(usize, f64)> = std::mem::take(&mut self.off[v]).into_iter().collect();
            col.sort_unstable_by_key(|e| e.0);
            for &(u, _) in &col {
                self.off[u].remove(&v);
            }
            // A zero pivot: the variable is not tied to the rest (cannot happen
            // on a connected set); its step is then 0.
            let d = if d > 1e-300 { d } else { f64::INFINITY };
            for (a, &(u, au)) in col.iter().enumerate() {
                self.diag[u] -= au * au / d;
                for &(w, aw) in &col[a + 1..] {
                    self.add_off(u, w, -au * aw / d);
                }
            }
            let col = col.into_iter().map(|(u, a)| (u, a / d)).collect();
            steps.push((v, d, col));
        }
        Factor { steps, n }
    }
}

impl Factor {
    /// Solves in place; the variables not factored get 0.
    pub fn solve(&self, b: &mut [f64]) {
        debug_assert_eq!(b.len(), self.n);
        let mut x = vec![0.0; self.n];
        x.copy_from_slice(b);
        for (v, _, col) in &self.steps {
            let xv = x[*v];
            for &(u, l) in col {
                x[u] -= l * xv;
            }
        }
        for (v, d, _) in &self.steps {
            x[*v] /= d;
        }
        for (v, _, col) in self.steps.iter().rev() {
            let mut s = x[*v];
            for &(u, l) in col {
                s -= l * x[u];
            }
            x[*v] = s;
        }
        b.fill(0.0);
        for (v, _, _) in &self.steps {
            b[*v] = x[*v];
        }
    }

    /// Nonzeros of L (below the diagonal): the fill, for the tests and benches.
    pub fn nnz(&self) -> usize {
        self.steps.iter().map(|s| s.2.len()).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 4×4 SPD matrix solved against its product with a known vector.
    #[test]
    fn solves_a_small_system() {
        // A = [[4,1,0,1],[1,3,1,0],[0,1,5,2],[1,0,2,6]], x = [1,-2,3,0.5]
        let mut m = Matrix::new(4);
        for (i, d) in [4.0, 3.0, 5.0, 6.0].into_iter().enumerate() {
            m.add_diag(i, d);
        }
        m.add_off(0, 1, 1.0);
        m.add_off(0, 3, 1.0);
        m.add_off(1, 2, 1.0);
        m.add_off(2, 3, 2.0);
        let f = m.factor(&[true; 4], None);
        // A x = [4-2+0+0.5, 1-6+3, -2+15+1, 1+6+3]
        let mut b = vec![2.5, -2.0, 14.0, 10.0];
        f.solve(&mut b);
        for (got, want) in b.iter().zip([1.0, -2.0, 3.0, 0.5]) {
            assert!((got - want).abs() < 1e-12, "{b:?}");
        }
    }

    /// Dropping a variable solves the rest as if it were fixed at 0.
    #[test]
    fn dropped_variables_get_zero() {
        let mut m = Matrix::new(3);
        m.add_diag(0, 2.0);
        m.add_diag(1, 2.0);
        m.add_diag(2, 2.0);
        m.add_off(0, 1, -1.0);
        m.add_off(1, 2, -1.0);
        let f = m.factor(&[true, true, false], None);
        // [[2,-1],[-1,2]] x = [1, 1] → x = [1, 1].
        let mut b = vec![1.0, 1.0, 7.0];
        f.solve(&mut b);
        assert!((b[0] - 1.0).abs() < 1e-12 && (b[1] - 1.0).abs() < 1e-12);
        assert_eq!(b[2], 0.0);
        assert_eq!(f.nnz(), 1);
    }

    /// Refactoring in a given order solves the same system.
    #[test]
    fn a_reused_order_solves_the_same() {
        let build = || {
            let mut m = Matrix::new(4);
            for (i, d) in [4.0, 3.0, 5.0, 6.0].into_iter().enumerate() {
                m.add_diag(i, d);
            }
            m.add_off(0, 1, 1.0);
            m.add_off(0, 3, 1.0);
            m.add_off(1, 2, 1.0);
            m.add_off(2, 3, 2.0);
            m
        };
        let first = build().factor(&[true; 4], None);
        let again = build().factor(&[true; 4], Some(&first));
        let mut b = vec![2.5, -2.0, 14.0, 10.0];
        again.solve(&mut b);
        for (got, want) in b.iter().zip([1.0, -2.0, 3.0, 0.5]) {
            assert!((got - want).abs() < 1e-12, "{b:?}");
        }
    }
}
