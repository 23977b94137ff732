//! The WDL model and its fits, as Stockfish's `WDL_model` (`scoreWDL.py`)
//! defines them (docs/definitions/wdl.md, readings W1–W9).
//!
//! win(x) = 1 / (1 + exp(−(x − a)/b)), loss(x) = win(−x), draw = 1 − win − loss,
//! with a and b cubic polynomials of y = mom / mom_target (mom: the material
//! on the board, 9Q+5R+3B+3N+P, both sides). Evals x in centipawns.
//!
//! The three fits of the reference (`--modelFitting`):
//! - `fitDensity`: per material with enough wins, least squares of win(x) to
//!   the observed win rate of each eval bin (every bin weighs the same); then
//!   a cubic least-squares fit of those a(m), b(m).
//! - `optimizeProbability`: from there, the 8 coefficients that maximise the
//!   likelihood of every position's game outcome.
//! - `optimizeScore`: likewise, minimising the squared error of the expected
//!   score (win + draw/2) against the game score.
//!
//! The reference minimises with scipy's Powell; we minimise the same
//! objectives with a damped Newton method (analytic gradients in a and b, the
//! chain rule through the polynomials, which are linear in their
//! coefficients). Both stop at the objective's minimum, so the coefficients
//! agree to the tolerance `scripts/wdl_compare.py` checks (W7).

use super::powell;
pub use crate::metrics::x05::model::{B_MIN, Model, logistic, poly3, win_rate};

/// How the coefficients are fitted (WDL_model's `--modelFitting`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Fitting {
    /// Least squares of the win-rate curve to the win densities, per material.
    FitDensity,
    /// Maximum likelihood of the game outcomes (`updateWDL.sh`'s choice).
    #[default]
    OptimizeProbability,
    /// Least squares of the expected score against the game score.
    OptimizeScore,
}

impl crate::choice::Choice for Fitting {
    const ALL: &'static [Self] = &[
        Fitting::OptimizeProbability,
        Fitting::FitDensity,
        Fitting::OptimizeScore,
    ];
    fn name(self) -> &'static str {
        match self {
            Fitting::FitDensity => "fit-density",
            Fitting::OptimizeProbability => "optimize-probability",
            Fitting::OptimizeScore => "optimize-score",
        }
    }
    fn help(self) -> &'static str {
        match self {
            Fitting::OptimizeProbability => {
                "Maximise the likelihood of every position's game outcome (updateWDL.sh's choice)"
            }
            Fitting::FitDensity => {
                "Least squares of the win-rate curve to each material's win densities"
            }
            Fitting::OptimizeScore => "Least squares of the expected score against the game score",
        }
    }
    fn aliases(self) -> &'static [&'static str] {
        match self {
            Fitting::FitDensity => &["fitDensity"],
            Fitting::OptimizeProbability => &["optimizeProbability"],
            Fitting::OptimizeScore => &["optimizeScore"],
        }
    }
}
crate::display_choice!(Fitting);

impl Fitting {
    /// The reference's spelling (`--modelFitting`).
    pub fn reference_name(self) -> &'static str {
        match self {
            Fitting::FitDensity => "fitDensity",
            Fitting::OptimizeProbability => "optimizeProbability",
            Fitting::OptimizeScore => "optimizeScore",
        }
    }
}

/// How the objective is minimised (W7).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Solver {
    /// scipy's Powell as `scoreWDL.py` calls it: stops where the reference
    /// stops (after a sweep or two, with scipy's default ftol 1e-4).
    #[default]
    Powell,
    /// Damped Newton steps to the objective's minimum.
    Newton,
}

impl crate::choice::Choice for Solver {
    const ALL: &'static [Self] = &[Solver::Powell, Solver::Newton];
    fn name(self) -> &'static str {
        match self {
            Solver::Powell => "powell",
            Solver::Newton => "newton",
        }
    }
    fn help(self) -> &'static str {
        match self {
            Solver::Powell => {
                "scipy's Powell as scoreWDL.py calls it: WDL_model's coefficients, which stop after a sweep or two, short of the minimum"
            }
            Solver::Newton => "Damped Newton steps to the objective's minimum",
        }
    }
}
crate::display_choice!(Solver);

/// The data window and fit settings; the defaults are `updateWDL.sh`'s
/// (`--momType material --momTarget 58 --materialMin 17 --moveMin 1`) and
/// `scoreWDL.py`'s own (materialMax 78, moveMax 120, evalMax 400, winMin 10).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Settings {
    pub fitting: Fitting,
    pub solver: Solver,
    pub mom_target: i32,
    pub material_min: i32,
    pub material_max: i32,
    pub move_min: i32,
    pub move_max: i32,
    /// |eval| ≤ this many centipawns are fitted.
    pub eval_max: i32,
    /// A material value with fewer wins gets no local fit (W5).
    pub win_min: f64,
}

/// WDL_model's defaults (`scoreWDL.py`'s arguments, `updateWDL.sh`'s fitting).
const DEFAULT_SETTINGS: Settings = Settings {
    fitting: Fitting::OptimizeProbability,
    solver: Solver::Powell,
    mom_target: 58,
    material_min: 17,
    material_max: 78,
    move_min: 1,
    move_max: 120,
    eval_max: 400,
    win_min: 10.0,
};

impl Default for Settings {
    fn default() -> Settings {
        DEFAULT_SETTINGS
    }
}

/// The reference's floor of a probability inside a logarithm.
const P_MIN: f64 = 1e-14;

/// Win, draw and loss counts (or bootstrap weights) on the grid
/// material × eval of the data window, as `scoreWDL.py`'s `WdlData`.
#[derive(Debug, Clone, PartialEq)]
pub struct Grid {
    pub material_min: i32,
    pub eval_max: i32,
    /// Indexed [material − material_min][eval + eval_max]; 0 = win, 1 = draw, 2 = loss.
    pub counts: [Vec<f64>; 3],
    n_material: usize,
}

/// A game outcome from the mover's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Win = 0,
    Draw = 1,
    Loss = 2,
}

impl Outcome {
    /// The reference's letter (W, D, L).
    pub fn letter(self) -> char {
        match self {
            Outcome::Win => 'W',
            Outcome::Draw => 'D',
            Outcome::Loss => 'L',
        }
    }

    pub fn from_letter(c: char) -> Option<Outcome> {
        match c {
            'W' => Some(Outcome::Win),
            'D' => Some(Outcome::Draw),
            'L' => Some(Outcome::Loss),
            _ => None,
        }
    }

    /// The game score of the outcome (1, ½, 0).
    pub fn score(self) -> f64 {
        match self {
            Outcome::Win => 1.0,
            Outcome::Draw => 0.5,
            Outcome::Loss => 0.0,
        }
    }
}

impl Grid {
    pub fn new(s: &Settings) -> Grid {
        let n_material = (s.material_max - s.material_min + 1).max(0) as usize;
        let n = n_material * (2 * s.eval_max as usize + 1);
        Grid {
            material_min: s.material_min,
            eval_max: s.eval_max,
            counts: [vec![0.0; n], vec![0.0; n], vec![0.0; n]],
            n_material,
        }
    }

    fn width(&self) -> usize {
        2 * self.eval_max as usize + 1
    }

    /// The cell of (move, material, eval) when it is inside the window
    /// (`load_json_data`'s filters), `None` when left out.
    pub fn cell(&self, s: &Settings, mv: i32, material: i32, eval: i32) -> Option<usize> {
        let inside = (s.move_min..=s.move_max).contains(&mv)
            && (s.material_min..=s.material_max).contains(&material)
            && eval.abs() <= s.eval_max;
        inside.then(|| {
            (material - self.material_min) as usize * self.width() + (eval + self.eval_max) as usize
        })
    }

    /// Adds `weight` positions of `outcome` to a [`Grid::cell`].
    pub fn add_to(&mut self, cell: usize, outcome: Outcome, weight: f64) {
        self.counts[outcome as usize][cell] += weight;
    }

    /// Adds `weight` positions of (outcome, move, material, eval) when they are
    /// inside the window; false when left out.
    pub fn add(
        &mut self,
        s: &Settings,
        outcome: Outcome,
        mv: i32,
        material: i32,
        eval: i32,
        weight: f64,
    ) -> bool {
        let cell = self.cell(s, mv, material, eval);
        if let Some(i) = cell {
            self.add_to(i, outcome, weight);
        }
        cell.is_some()
    }

    /// Adds `factor` times another grid of the same settings: the pooled
    /// positions as a group's prior.
    pub fn add_scaled(&mut self, other: &Grid, factor: f64) {
        for (mine, theirs) in self.counts.iter_mut().zip(&other.counts) {
            for (m, t) in mine.iter_mut().zip(theirs) {
                *m += factor * t;
            }
        }
    }

    /// Positions retained as (wins, draws, losses).
    pub fn retained(&self) -> [f64; 3] {
        self.counts.each_ref().map(|c| c.iter().sum())
    }

    /// The material rows with data: (material, cells of (eval, w, d, l)).
    fn rows(&self) -> Vec<(i32, Vec<Cell>)> {
        let w = self.width();
        (0..self.n_material)
            .map(|r| {
                let cells = (0..w)
                    .filter_map(|j| {
                        let i = r * w + j;
                        let [cw, cd, cl] = self.counts.each_ref().map(|c| c[i]);
                        (cw + cd + cl > 0.0).then_some(Cell {
                            x: j as f64 - f64::from(self.eval_max),
                            w: cw,
                            d: cd,
                            l: cl,
                        })
                    })
                    .collect();
                (self.material_min + r as i32, cells)
            })
            .collect()
    }
}

/// One eval bin of one material: its eval and outcome counts.
#[derive(Debug, Clone, Copy)]
struct Cell {
    x: f64,
    w: f64,
    d: f64,
    l: f64,
}

impl Cell {
    fn total(&self) -> f64 {
        self.w + self.d + self.l
    }
}

/// A function of (a, b) per material row, with its gradient.
type RowObjective = fn(&[Cell], f64, f64) -> (f64, [f64; 2]);

/// A row objective with its gradient (for Newton steps) and without it (for
/// Powell, which reads the value alone: the same value, computed the same
/// way, without the gradient's work).
#[derive(Clone, Copy)]
struct Objective {
    grad: RowObjective,
    value: RowObjective,
}

/// Win and loss rates with their derivatives in (a, b).
struct Rates {
    w: f64,
    l: f64,
    dw: [f64; 2],
    dl: [f64; 2],
}

/// The derivatives only with `GRAD` (else zero).
fn rates<const GRAD: bool>(x: f64, a: f64, b: f64) -> Rates {
    let bb = b.max(B_MIN);
    let (u, v) = ((x - a) / bb, (-x - a) / bb);
    let (w, l) = (logistic(u), logistic(v));
    if !GRAD {
        return Rates {
            w,
            l,
            dw: [0.0; 2],
            dl: [0.0; 2],
        };
    }
    // d/da σ((x−a)/b) = −σ(1−σ)/b; d/db = −σ(1−σ)·u/b (0 where b is guarded).
    let db = if b > B_MIN { 1.0 } else { 0.0 };
    let (sw, sl) = (w * (1.0 - w) / bb, l * (1.0 - l) / bb);
    Rates {
        w,
        l,
        dw: [-sw, -sw * u * db],
        dl: [-sl, -sl * v * db],
    }
}

/// −Σ log P(outcome), the reference's `evalLogProbability` before its division by N.
fn log_probability<const GRAD: bool>(cells: &[Cell], a: f64, b: f64) -> (f64, [f64; 2]) {
    let (mut f, mut g) = (0.0, [0.0; 2]);
    for c in cells {
        let r = rates::<GRAD>(c.x, a, b);
        let d = 1.0 - r.w - r.l;
        for (count, p, dp) in [
            (c.w, r.w, r.dw),
            (c.d, d, [-r.dw[0] - r.dl[0], -r.dw[1] - r.dl[1]]),
            (c.l, r.l, r.dl),
        ] {
            if count > 0.0 {
                f -= count * p.max(P_MIN).ln();
                if GRAD && p > P_MIN {
                    g[0] -= count * dp[0] / p;
                    g[1] -= count * dp[1] / p;
                }
            }
        }
    }
    (f, g)
}

/// Σ count·(expected score − game score)², the reference's `scoreError`
/// squared and before its division by N (the same minimum).
fn score_error<const GRAD: bool>(cells: &[Cell], a: f64, b: f64) -> (f64, [f64; 2]) {
    let (mut f, mut g) = (0.0, [0.0; 2]);
    for c in cells {
        let r = rates::<GRAD>(c.x, a, b);
        // `estimateScore`: win + draw/2 with draw = 1 − win − loss.
        let e = r.w + 0.5 * (1.0 - r.w - r.l);
        let de = [0.5 * (r.dw[0] - r.dl[0]), 0.5 * (r.dw[1] - r.dl[1])];
        for (count, s) in [(c.w, 1.0), (c.d, 0.5), (c.l, 0.0)] {
            f += count * (e - s) * (e - s);
            if GRAD {
                g[0] += count * 2.0 * (e - s) * de[0];
                g[1] += count * 2.0 * (e - s) * de[1];
            }
        }
    }
    (f, g)
}

/// Σ (win rate − observed win density)² over the bins, each bin once
/// (`curve_fit(win_rate, xdata, ywindata)`).
fn density_error(cells: &[Cell], a: f64, b: f64) -> (f64, [f64; 2]) {
    let (mut f, mut g) = (0.0, [0.0; 2]);
    for c in cells {
        let r = rates::<true>(c.x, a, b);
        let e = r.w - c.w / c.total();
        f += e * e;
        g[0] += 2.0 * e * r.dw[0];
        g[1] += 2.0 * e * r.dw[1];
    }
    (f, g)
}

/// The gradient's Hessian in (a, b) by central differences of the analytic
/// gradient (the gradient is exact; the minimum is where it vanishes).
fn row_hessian(obj: RowObjective, cells: &[Cell], a: f64, b: f64) -> [[f64; 2]; 2] {
    let h = [1e-4 * a.abs().max(1.0), 1e-4 * b.abs().max(1.0)];
    let mut hess = [[0.0; 2]; 2];
    for (k, hk) in h.iter().enumerate() {
        let (mut p, mut m) = ([a, b], [a, b]);
        p[k] += hk;
        m[k] -= hk;
        let (_, gp) = obj(cells, p[0], p[1]);
        let (_, gm) = obj(cells, m[0], m[1]);
        for i in 0..2 {
            hess[i][k] = (gp[i] - gm[i]) / (2.0 * hk);
        }
    }
    // Symmetrise the difference quotients.
    let off = 0.5 * (hess[0][1] + hess[1][0]);
    hess[0][1] = off;
    hess[1][0] = off;
    hess
}

/// Solves A·x = y by Gaussian elimination with partial pivoting; None when singular.
fn solve(mut a: Vec<Vec<f64>>, mut y: Vec<f64>) -> Option<Vec<f64>> {
    let n = y.len();
    for k in 0..n {
        let p = (k..n).max_by(|&i, &j| a[i][k].abs().total_cmp(&a[j][k].abs()))?;
        if a[p][k].abs() < 1e-300 || !a[p][k].is_finite() {
            return None;
        }
        a.swap(k, p);
        y.swap(k, p);
        let pivot = a[k].clone();
        for i in k + 1..n {
            let f = a[i][k] / pivot[k];
            for (aij, pj) in a[i].iter_mut().zip(&pivot).skip(k) {
                *aij -= f * pj;
            }
            y[i] -= f * y[k];
        }
    }
    let mut x = vec![0.0; n];
    for k in (0..n).rev() {
        let s: f64 = (k + 1..n).map(|j| a[k][j] * x[j]).sum();
        x[k] = (y[k] - s) / a[k][k];
    }
    Some(x)
}

/// The objective's value, gradient and Hessian at a point.
type Quadratic = (f64, Vec<f64>, Vec<Vec<f64>>);

/// Minimises by Newton steps damped as Levenberg–Marquardt (the damping grows
/// until a step lowers the objective). Stops when a nearly undamped step
/// moves no parameter by more than 1e-10 of its size. Returns the point and
/// whether it stopped so.
fn minimize(
    f: impl Fn(&[f64]) -> Quadratic,
    value: impl Fn(&[f64]) -> f64,
    x0: &[f64],
) -> (Vec<f64>, bool) {
    let mut x = x0.to_vec();
    let mut lambda = 1e-3;
    for _ in 0..500 {
        let (fx, g, h) = f(&x);
        if !fx.is_finite() {
            return (x, false);
        }
        let mut moved = false;
        for _ in 0..60 {
            let damped: Vec<Vec<f64>> = (0..x.len())
                .map(|i| {
                    let mut row = h[i].clone();
                    row[i] += lambda * h[i][i].abs().max(1e-12);
                    row
                })
                .collect();
            let Some(step) = solve(damped, g.iter().map(|v| -v).collect()) else {
                lambda *= 10.0;
                continue;
            };
            let next: Vec<f64> = x.iter().zip(&step).map(|(a, d)| a + d).collect();
            let fn_ = value(&next);
            if fn_.is_finite() && fn_ <= fx {
                // A small step is the minimum when it is nearly Newton's, or
                // when it no longer lowers the objective (a minimum to
                // rounding); one shrunk by a large damping that still lowers
                // it is small because of the damping.
                let small = (lambda <= 1e-2 || fn_ >= fx)
                    && x.iter()
                        .zip(&step)
                        .all(|(xi, d)| d.abs() <= 1e-10 * xi.abs().max(1.0));
                x = next;
                lambda = (lambda / 10.0).max(1e-12);
                moved = true;
                if small {
                    return (x, true);
                }
                break;
            }
            lambda *= 10.0;
        }
        if !moved {
            // No step lowers the objective at any damping: a minimum to rounding.
            return (x, true);
        }
    }
    (x, false)
}

/// Minimises a row objective over (a, b) from a start.
fn fit_row(obj: RowObjective, cells: &[Cell], start: [f64; 2]) -> Option<[f64; 2]> {
    let (x, _converged) = minimize(
        |p| {
            let (f, g) = obj(cells, p[0], p[1]);
            let h = row_hessian(obj, cells, p[0], p[1]);
            (f, g.to_vec(), h.iter().map(|r| r.to_vec()).collect())
        },
        // b ≤ 0 is no model (the reference's guard would flatten the gradient
        // there and stop): such steps are refused.
        |p| {
            if p[1] > B_MIN {
                obj(cells, p[0], p[1]).0
            } else {
                f64::INFINITY
            }
        },
        &start,
    );
    // Where the steps stop short of the test (a near-step win curve on sparse
    // data, b → 0), the last point stands, as curve_fit's does: dropping the
    // material would move the cubic more than the point's imprecision.
    x.iter().all(|v| v.is_finite()).then(|| [x[0], x[1]])
}

/// Least-squares cubic in y of values at points (`curve_fit(poly3, …)`).
fn polyfit(ys: &[f64], values: &[f64]) -> Option<[f64; 4]> {
    let phi = |y: f64| [y * y * y, y * y, y, 1.0];
    let mut ata = vec![vec![0.0; 4]; 4];
    let mut aty = vec![0.0; 4];
    for (&y, &v) in ys.iter().zip(values) {
        let p = phi(y);
        for i in 0..4 {
            aty[i] += p[i] * v;
            for j in 0..4 {
                ata[i][j] += p[i] * p[j];
            }
        }
    }
    let c = solve(ata, aty)?;
    Some([c[0], c[1], c[2], c[3]])
}

/// A fit's result: the model and what it was fitted from.
#[derive(Debug, Clone, PartialEq)]
pub struct Fit {
    pub model: Model,
    /// The local fits (material, a, b) the polynomials started from.
    pub local: Vec<(i32, f64, f64)>,
    /// Positions retained (wins, draws, losses).
    pub retained: [f64; 3],
    /// The objective at the result, divided by the positions (the reference's
    /// "Final objective function"; for optimizeScore its square root).
    pub objective: f64,
}

/// Why a group has no fit.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NoFit {
    #[error("no positions in the window")]
    NoData,
    #[error("{0} positions in the window, fewer than the minimum")]
    TooFewPositions(u64),
    #[error("{0} material values with at least the minimum wins; a cubic needs 4")]
    TooFewMaterials(usize),
    #[error("the fit did not converge")]
    NoConvergence,
    /// A prior needs an objective to add to: fitDensity has none.
    #[error("fitDensity has no objective for the pooled prior")]
    NoObjective,
    /// Somewhere in the material window the fitted a is not in (0, 2·evalMax)
    /// or b not in (0, evalMax): the data do not identify the curve (too few
    /// wins or losses; the reference would print the coefficients anyway).
    #[error("a or b out of range at material {0}: too little data to identify the model")]
    Degenerate(i32),
}

/// Fits the model to a grid with the settings' method (`fit_ab_globally`).
pub fn fit(grid: &Grid, s: &Settings) -> Result<Fit, NoFit> {
    let retained = grid.retained();
    let n: f64 = retained.iter().sum();
    if n <= 0.0 {
        return Err(NoFit::NoData);
    }
    let rows = grid.rows();
    let target = f64::from(s.mom_target);
    let row_obj = objective_of(s.fitting);
    // Local fits where a material has enough wins (`fit_abs_locally`): the win
    // densities first, from (100, 100/6) as the reference starts with
    // NormalizeToPawnValue 100; then the method's own objective.
    let mut local = Vec::new();
    for (m, cells) in &rows {
        let wins: f64 = cells.iter().map(|c| c.w).sum();
        if wins < s.win_min || cells.is_empty() {
            continue;
        }
        let Some(mut ab) = fit_row(density_error, cells, [100.0, 100.0 / 6.0]) else {
            continue;
        };
        if let Some(obj) = row_obj {
            let n: f64 = cells.iter().map(Cell::total).sum();
            match s.solver {
                Solver::Newton => {
                    if let Some(refined) = fit_row(obj.grad, cells, ab) {
                        ab = refined;
                    }
                }
                Solver::Powell => {
                    let mut f =
                        |p: &[f64]| reference_value(s.fitting, (obj.value)(cells, p[0], p[1]).0, n);
                    let p = powell::minimize(&mut f, &ab, POWELL_XTOL, POWELL_MAXITER);
                    ab = [p[0], p[1]];
                }
            }
        }
        local.push((*m, ab[0], ab[1]));
    }
    if local.len() < 4 {
        return Err(NoFit::TooFewMaterials(local.len()));
    }
    let ys: Vec<f64> = local.iter().map(|l| f64::from(l.0) / target).collect();
    let as_ =
        polyfit(&ys, &local.iter().map(|l| l.1).collect::<Vec<_>>()).ok_or(NoFit::NoConvergence)?;
    let bs =
        polyfit(&ys, &local.iter().map(|l| l.2).collect::<Vec<_>>()).ok_or(NoFit::NoConvergence)?;
    let mut model = Model {
        as_,
        bs,
        mom_target: s.mom_target,
        material_min: s.material_min,
        material_max: s.material_max,
    };
    let objective = match row_obj {
        None => 0.0,
        Some(obj) => {
            let coeffs = match s.solver {
                Solver::Newton => global_minimum(obj, &rows, target, &model, None)?,
                Solver::Powell => {
                    let x0 = coefficients(&model);
                    let mut f = |c: &[f64]| {
                        reference_value(s.fitting, global_value(obj.value, &rows, target, c), n)
                    };
                    powell::minimize(&mut f, &x0, POWELL_XTOL, POWELL_MAXITER)
                }
            };
            if !coeffs.iter().all(|c| c.is_finite()) {
                return Err(NoFit::NoConvergence);
            }
            model.as_.copy_from_slice(&coeffs[0..4]);
            model.bs.copy_from_slice(&coeffs[4..8]);
            reference_value(
                s.fitting,
                global_value(obj.value, &rows, target, &coeffs),
                n,
            )
        }
    };
    identified(&model, s)?;
    Ok(Fit {
        model,
        local,
        retained,
        objective,
    })
}

/// The objective a fitting minimises over the coefficients (fitDensity has
/// none: its polynomials are least squares through the local fits).
fn objective_of(fitting: Fitting) -> Option<Objective> {
    match fitting {
        Fitting::FitDensity => None,
        Fitting::OptimizeProbability => Some(Objective {
            grad: log_probability::<true>,
            value: log_probability::<false>,
        }),
        Fitting::OptimizeScore => Some(Objective {
            grad: score_error::<true>,
            value: score_error::<false>,
        }),
    }
}

/// A curve whose 50 % point lies far beyond the evals it was fitted on, or
/// that is flat over them, is not identified by the data (W8).
fn identified(model: &Model, s: &Settings) -> Result<(), NoFit> {
    let emax = f64::from(s.eval_max);
    match (s.material_min..=s.material_max).find(|&m| {
        let (a, b) = (model.a(f64::from(m)), model.b(f64::from(m)));
        !(a > 0.0 && a < 2.0 * emax && b > 0.0 && b < emax)
    }) {
        Some(m) => Err(NoFit::Degenerate(m)),
        None => Ok(()),
    }
}

/// A group's prior: the pooled model, with the information of `positions`
/// pooled positions. A Gaussian on the 8 coefficients centred on the pooled
/// fit, whose precision is the pooled objective's Hessian there per position
/// times `positions`: the Laplace approximation of counting the pool as that
/// many of the group's own positions (a power prior). A small group's fit
/// leans on the pool, a large one's on its own data.
#[derive(Debug, Clone, PartialEq)]
pub struct Prior {
    pub model: Model,
    pub positions: f64,
    precision: Vec<Vec<f64>>,
}

impl Prior {
    /// The prior of the groups of a pooled grid and its fit, worth at most
    /// the pool's own positions (a pool is not counted more than once); None
    /// for fitDensity (no objective to add it to) or a Hessian that is not
    /// finite.
    pub fn new(pool: &Grid, pooled: &Model, s: &Settings, positions: f64) -> Option<Prior> {
        let obj = objective_of(s.fitting)?;
        let n: f64 = pool.retained().iter().sum();
        let positions = positions.min(n);
        let (_, _, h) = quadratic(
            obj,
            &pool.rows(),
            f64::from(s.mom_target),
            &coefficients(pooled),
        );
        let precision: Vec<Vec<f64>> = h
            .iter()
            .map(|r| r.iter().map(|v| v * positions / n).collect())
            .collect();
        precision
            .iter()
            .flatten()
            .all(|v| v.is_finite())
            .then_some(Prior {
                model: *pooled,
                positions,
                precision,
            })
    }

    /// The penalty ½ dᵀ P d, d = c − the pooled coefficients; with its
    /// gradient P d and Hessian P added into `q`.
    fn add(&self, c: &[f64], q: Option<&mut Quadratic>) -> f64 {
        let d: Vec<f64> = c
            .iter()
            .zip(coefficients(&self.model))
            .map(|(c, p)| c - p)
            .collect();
        let pd: Vec<f64> = self
            .precision
            .iter()
            .map(|r| r.iter().zip(&d).map(|(p, d)| p * d).sum())
            .collect();
        let penalty = 0.5 * d.iter().zip(&pd).map(|(d, p)| d * p).sum::<f64>();
        if let Some((f, g, h)) = q {
            *f += penalty;
            for ((gi, pdi), (hi, pi)) in
                g.iter_mut().zip(&pd).zip(h.iter_mut().zip(&self.precision))
            {
                *gi += pdi;
                for (hij, pij) in hi.iter_mut().zip(pi) {
                    *hij += pij;
                }
            }
        }
        penalty
    }
}

/// A model's 8 coefficients, a's then b's.
fn coefficients(m: &Model) -> Vec<f64> {
    m.as_.iter().chain(&m.bs).copied().collect()
}

/// Fits the model to a group's grid with a [`Prior`]: the group's objective
/// plus the prior's penalty, minimised by Newton steps from the pooled model
/// (no local fits: the prior identifies the curve where the group's data do
/// not). The objective reported is the group's own, per own position.
pub fn fit_with_prior(grid: &Grid, s: &Settings, prior: &Prior) -> Result<Fit, NoFit> {
    let retained = grid.retained();
    let n: f64 = retained.iter().sum();
    if n <= 0.0 {
        return Err(NoFit::NoData);
    }
    let obj = objective_of(s.fitting).ok_or(NoFit::NoObjective)?;
    let rows = grid.rows();
    let target = f64::from(s.mom_target);
    let coeffs = global_minimum(obj, &rows, target, &prior.model, Some(prior))?;
    let mut model = prior.model;
    model.as_.copy_from_slice(&coeffs[0..4]);
    model.bs.copy_from_slice(&coeffs[4..8]);
    identified(&model, s)?;
    Ok(Fit {
        model,
        local: Vec::new(),
        retained,
        objective: reference_value(
            s.fitting,
            global_value(obj.value, &rows, target, &coeffs),
            n,
        ),
    })
}

/// `scoreWDL.py`'s Powell options: `{"maxiter": 100000, "xtol": 1e-6}`.
const POWELL_XTOL: f64 = 1e-6;
const POWELL_MAXITER: usize = 100_000;

/// The reference's objective from a row objective's sum over `n` positions:
/// −Σ ln p / N (`evalLogProbability`), √(Σ (E − s)² / N) (`scoreError`).
fn reference_value(fitting: Fitting, sum: f64, n: f64) -> f64 {
    match fitting {
        Fitting::OptimizeScore => (sum / n).sqrt(),
        _ => sum / n,
    }
}

fn basis(y: f64) -> [f64; 4] {
    [y * y * y, y * y, y, 1.0]
}

fn global_value(obj: RowObjective, rows: &[(i32, Vec<Cell>)], target: f64, c: &[f64]) -> f64 {
    let (ca, cb) = ([c[0], c[1], c[2], c[3]], [c[4], c[5], c[6], c[7]]);
    rows.iter()
        .filter(|(_, cells)| !cells.is_empty())
        .map(|(m, cells)| {
            let y = f64::from(*m) / target;
            obj(cells, poly3(&ca, y), poly3(&cb, y)).0
        })
        .sum()
}

/// The objective over every material row at coefficients `c`, with its
/// gradient and Hessian in them.
fn quadratic(obj: Objective, rows: &[(i32, Vec<Cell>)], target: f64, c: &[f64]) -> Quadratic {
    let (ca, cb) = ([c[0], c[1], c[2], c[3]], [c[4], c[5], c[6], c[7]]);
    let (mut f, mut g, mut h) = (0.0, vec![0.0; 8], vec![vec![0.0; 8]; 8]);
    for (m, cells) in rows.iter().filter(|(_, cells)| !cells.is_empty()) {
        let y = f64::from(*m) / target;
        let (a, b) = (poly3(&ca, y), poly3(&cb, y));
        let (fm, gm) = (obj.grad)(cells, a, b);
        let hm = row_hessian(obj.grad, cells, a, b);
        let phi = basis(y);
        f += fm;
        for i in 0..8 {
            let (pi, ki) = (phi[i % 4], i / 4);
            g[i] += gm[ki] * pi;
            for j in 0..8 {
                h[i][j] += hm[ki][j / 4] * pi * phi[j % 4];
            }
        }
    }
    (f, g, h)
}

/// The 8 coefficients minimising the objective over every material row: a
/// and b are linear in the coefficients, so the gradient and Hessian are the
/// rows' (a, b) ones times the polynomial basis.
fn global_minimum(
    obj: Objective,
    rows: &[(i32, Vec<Cell>)],
    target: f64,
    start: &Model,
    prior: Option<&Prior>,
) -> Result<Vec<f64>, NoFit> {
    let quad = |c: &[f64]| -> Quadratic {
        let mut q = quadratic(obj, rows, target, c);
        if let Some(p) = prior {
            p.add(c, Some(&mut q));
        }
        q
    };
    let value = |c: &[f64]| {
        global_value(obj.value, rows, target, c) + prior.map_or(0.0, |p| p.add(c, None))
    };
    let (x, ok) = minimize(quad, value, &coefficients(start));
    if ok && x.iter().all(|v| v.is_finite()) {
        Ok(x)
    } else {
        Err(NoFit::NoConvergence)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn poly3_is_highest_power_first() {
        // 2y³ + 3y² + 5y + 7 at y = 2: 16 + 12 + 10 + 7.
        assert_eq!(poly3(&[2.0, 3.0, 5.0, 7.0], 2.0), 45.0);
    }

    #[test]
    fn model_rates_are_symmetric_and_half_at_a() {
        let m = Model {
            as_: [0.0, 0.0, 0.0, 100.0],
            bs: [0.0, 0.0, 0.0, 20.0],
            mom_target: 58,
            material_min: 17,
            material_max: 78,
        };
        let (w, d, l) = m.wdl(100.0, 58.0);
        assert!((w - 0.5).abs() < 1e-15);
        // loss(100) = σ((−100 − 100)/20) = σ(−10).
        assert!((l - 1.0 / (1.0 + 10f64.exp())).abs() < 1e-15);
        assert!((w + d + l - 1.0).abs() < 1e-15);
        let (w0, d0, l0) = m.wdl(0.0, 58.0);
        assert_eq!(w0, l0);
        // Draw rate at 0: 1 − 2/(1 + e^(a/b)), the reference's printed formula.
        assert!((d0 - (1.0 - 2.0 / (1.0 + 5f64.exp()))).abs() < 1e-15);
        assert!((m.score(0.0, 58.0) - 0.5).abs() < 1e-15);
        // Material outside the window is clamped.
        assert_eq!(m.a(3.0), m.a(17.0));
    }

    /// Counts drawn exactly from a known model (expected counts, no noise):
    /// every method must recover it, to the solver's precision.
    #[test]
    fn every_method_recovers_a_model_from_its_own_expected_counts() {
        let truth = Model {
            as_: [-60.0, 180.0, -150.0, 400.0].map(|v| v / 3.0),
            bs: [-20.0, 60.0, -50.0, 90.0].map(|v| v / 3.0),
            mom_target: 58,
            material_min: 17,
            material_max: 78,
        };
        for (fitting, solver) in [
            (Fitting::FitDensity, Solver::Powell),
            (Fitting::OptimizeProbability, Solver::Powell),
            (Fitting::OptimizeProbability, Solver::Newton),
            (Fitting::OptimizeScore, Solver::Powell),
            (Fitting::OptimizeScore, Solver::Newton),
        ] {
            let s = Settings {
                fitting,
                solver,
                ..Settings::default()
            };
            let mut grid = Grid::new(&s);
            for m in 17..=78 {
                for x in (-400..=400).step_by(5) {
                    let (w, d, l) = truth.wdl(f64::from(x), f64::from(m));
                    for (o, p) in [(Outcome::Win, w), (Outcome::Draw, d), (Outcome::Loss, l)] {
                        grid.add(&s, o, 30, m, x, 1000.0 * p);
                    }
                }
            }
            let fit = fit(&grid, &s).unwrap();
            for m in 17..=78 {
                let m = f64::from(m);
                assert!(
                    (fit.model.a(m) - truth.a(m)).abs() < 1e-3,
                    "{fitting:?} a({m}) = {} vs {}",
                    fit.model.a(m),
                    truth.a(m)
                );
                assert!(
                    (fit.model.b(m) - truth.b(m)).abs() < 1e-3,
                    "{fitting:?} b({m})"
                );
            }
        }
    }

    /// A model's expected counts, `per_cell` positions at each (material in
    /// `materials`, eval in steps of 5): no noise, so a fit's minimum is the model.
    fn expected(
        truth: &Model,
        s: &Settings,
        materials: std::ops::RangeInclusive<i32>,
        per_cell: f64,
    ) -> Grid {
        let mut grid = Grid::new(s);
        for m in materials {
            for x in (-400..=400).step_by(5) {
                let (w, d, l) = truth.wdl(f64::from(x), f64::from(m));
                for (o, p) in [(Outcome::Win, w), (Outcome::Draw, d), (Outcome::Loss, l)] {
                    grid.add(s, o, 30, m, x, per_cell * p);
                }
            }
        }
        grid
    }

    fn cubic(a: f64, b: f64) -> Model {
        Model {
            as_: [0.0, 0.0, 0.0, a],
            bs: [0.0, 0.0, 0.0, b],
            mom_target: 58,
            material_min: 17,
            material_max: 78,
        }
    }

    /// The default window, minimised to the minimum.
    const NEWTON: Settings = Settings {
        solver: Solver::Newton,
        ..DEFAULT_SETTINGS
    };

    /// A group whose positions are distributed as its pool's has the pool's
    /// minimum as its own: the prior (centred there) cannot move it.
    #[test]
    fn a_group_like_its_pool_keeps_the_pool_s_fit() {
        let s = NEWTON;
        let pool = expected(&cubic(120.0, 40.0), &s, 17..=78, 100.0);
        let pooled = fit(&pool, &s).unwrap().model;
        let mut group = Grid::new(&s);
        group.add_scaled(&pool, 0.01);
        let prior = Prior::new(&pool, &pooled, &s, 10_000.0).unwrap();
        let f = fit_with_prior(&group, &s, &prior).unwrap();
        for m in [17.0, 40.0, 58.0, 78.0] {
            assert!((f.model.a(m) - pooled.a(m)).abs() < 1e-6, "a({m})");
            assert!((f.model.b(m) - pooled.b(m)).abs() < 1e-6, "b({m})");
        }
    }

    /// A group unlike its pool lands between the two: nearer its own curve
    /// the more of its own positions there are against the prior's, at its
    /// own minimum with a prior of no positions, and never past either end.
    #[test]
    fn the_prior_weighs_a_group_s_own_positions_against_the_pool_s() {
        let s = NEWTON;
        let pool = expected(&cubic(120.0, 40.0), &s, 17..=78, 100.0);
        let pooled = fit(&pool, &s).unwrap().model;
        let own = cubic(160.0, 40.0);
        let a_at = |per_cell: f64, positions: f64| {
            let group = expected(&own, &s, 17..=78, per_cell);
            let prior = Prior::new(&pool, &pooled, &s, positions).unwrap();
            fit_with_prior(&group, &s, &prior).unwrap().model.a(58.0)
        };
        // A prior of no positions: the group's own minimum, its true curve.
        assert!((a_at(1.0, 0.0) - 160.0).abs() < 1e-6);
        // 9,982 own positions (62 materials × 161 evals) against 1,000, 10,000 and
        // 100,000 of the pool's.
        let (a1, a10, a100) = (a_at(1.0, 1e3), a_at(1.0, 1e4), a_at(1.0, 1e5));
        assert!(
            120.0 < a100 && a100 < a10 && a10 < a1 && a1 < 160.0,
            "{a100} {a10} {a1}"
        );
        // About half-way where the two are worth as much.
        assert!((a10 - 140.0).abs() < 8.0, "{a10}");
        // Ten times the own positions against the same prior: nearer its own.
        assert!(a_at(10.0, 1e4) > a10 + 10.0);
    }

    /// The fit with a prior is the penalised objective's minimum: no
    /// coefficient moved by a thousandth of its size lowers it.
    #[test]
    fn the_fit_with_a_prior_is_the_penalised_minimum() {
        let s = NEWTON;
        let pool = expected(&cubic(120.0, 40.0), &s, 17..=78, 100.0);
        let pooled = fit(&pool, &s).unwrap().model;
        let group = expected(&cubic(160.0, 30.0), &s, 30..=70, 0.5);
        let prior = Prior::new(&pool, &pooled, &s, 10_000.0).unwrap();
        let f = fit_with_prior(&group, &s, &prior).unwrap();
        let obj = objective_of(s.fitting).unwrap();
        let rows = group.rows();
        let value = |c: &[f64]| global_value(obj.value, &rows, 58.0, c) + prior.add(c, None);
        let at = coefficients(&f.model);
        let v0 = value(&at);
        for i in 0..8 {
            for sign in [-1.0, 1.0] {
                let mut c = at.clone();
                c[i] += sign * 1e-3 * c[i].abs().max(1.0);
                assert!(
                    value(&c) >= v0,
                    "coefficient {i}, {sign}: {} < {v0}",
                    value(&c)
                );
            }
        }
    }

    /// The prior's precision is the pooled objective's Hessian per position
    /// times its positions: against second differences of the objective.
    #[test]
    fn the_prior_s_precision_is_the_pooled_hessian_per_position() {
        let s = NEWTON;
        let pool = expected(&cubic(120.0, 40.0), &s, 17..=78, 100.0);
        let pooled = fit(&pool, &s).unwrap().model;
        let prior = Prior::new(&pool, &pooled, &s, 10_000.0).unwrap();
        let obj = objective_of(s.fitting).unwrap();
        let rows = pool.rows();
        let n: f64 = pool.retained().iter().sum();
        let f = |c: &[f64]| global_value(obj.value, &rows, 58.0, c);
        let c0 = coefficients(&pooled);
        for i in 0..8 {
            for j in 0..8 {
                let (hi, hj) = (1e-3 * c0[i].abs().max(1.0), 1e-3 * c0[j].abs().max(1.0));
                let at = |si: f64, sj: f64| {
                    let mut c = c0.clone();
                    c[i] += si * hi;
                    c[j] += sj * hj;
                    f(&c)
                };
                let h = (at(1.0, 1.0) - at(1.0, -1.0) - at(-1.0, 1.0) + at(-1.0, -1.0))
                    / (4.0 * hi * hj);
                let want = h * 10_000.0 / n;
                let got = prior.precision[i][j];
                assert!(
                    (got - want).abs() <= 1e-4 * want.abs().max(1e-3),
                    "[{i}][{j}] {got} vs {want}"
                );
            }
        }
    }

    /// Too few materials for a cubic alone, yet with the prior the group is
    /// fitted; and the prior is worth no more than the pool's positions.
    #[test]
    fn the_prior_identifies_a_group_its_data_do_not() {
        let s = NEWTON;
        let pool = expected(&cubic(120.0, 40.0), &s, 17..=78, 100.0);
        let pooled = fit(&pool, &s).unwrap().model;
        let group = expected(&cubic(130.0, 40.0), &s, 40..=41, 1.0);
        assert_eq!(fit(&group, &s), Err(NoFit::TooFewMaterials(2)));
        let prior = Prior::new(&pool, &pooled, &s, 1e12).unwrap();
        assert_eq!(prior.positions, pool.retained().iter().sum::<f64>());
        let prior = Prior::new(&pool, &pooled, &s, 10_000.0).unwrap();
        let f = fit_with_prior(&group, &s, &prior).unwrap();
        let a = f.model.a(40.0);
        assert!(120.0 < a && a < 130.0, "{a}");
        // fitDensity has no objective for a prior.
        let density = Settings {
            fitting: Fitting::FitDensity,
            ..s
        };
        assert!(Prior::new(&pool, &pooled, &density, 10_000.0).is_none());
    }

    #[test]
    fn the_window_filters_as_the_reference_loads() {
        let s = Settings::default();
        let mut g = Grid::new(&s);
        assert!(g.add(&s, Outcome::Win, 1, 17, -400, 1.0));
        assert!(g.add(&s, Outcome::Draw, 120, 78, 400, 2.0));
        assert!(!g.add(&s, Outcome::Win, 121, 40, 0, 1.0)); // moveMax 120
        assert!(!g.add(&s, Outcome::Win, 0, 40, 0, 1.0)); // moveMin 1
        assert!(!g.add(&s, Outcome::Win, 10, 16, 0, 1.0)); // materialMin 17
        assert!(!g.add(&s, Outcome::Win, 10, 79, 0, 1.0));
        assert!(!g.add(&s, Outcome::Loss, 10, 40, 405, 1.0)); // evalMax 400
        assert!(!g.add(&s, Outcome::Loss, 10, 40, -1001, 1.0)); // a mate
        assert_eq!(g.retained(), [1.0, 2.0, 0.0]);
    }

    #[test]
    fn too_few_materials_is_said() {
        let s = Settings::default();
        let mut g = Grid::new(&s);
        for x in [-100, 0, 100, 200] {
            g.add(&s, Outcome::Win, 10, 40, x, 20.0);
            g.add(&s, Outcome::Loss, 10, 40, -x, 20.0);
        }
        assert_eq!(fit(&g, &s), Err(NoFit::TooFewMaterials(1)));
        assert_eq!(fit(&Grid::new(&s), &s), Err(NoFit::NoData));
    }
}
