//! scipy's Powell minimiser (`scipy.optimize.minimize(method="Powell")`,
//! scipy 1.17: `_minimize_powell`, `_linesearch_powell`, `bracket`,
//! `Brent.optimize`), ported step for step so that `wdl` stops where
//! WDL_model's `scoreWDL.py` stops (reading W7): with `xtol` 1e-6 and scipy's
//! default `ftol` 1e-4 the search ends after one or two sweeps, before the
//! objective's minimum.

/// `bracket(func, xa=0, xb=1)`: three points around a minimum along a line,
/// or, when none is found, the best of the last three (as
/// `_recover_from_bracket_error` hands them on). `f0` is f(0), which the
/// caller holds: scipy evaluates it again (about one evaluation in twelve
/// of a WDL fit), to the same value.
fn bracket(f: &mut dyn FnMut(f64) -> f64, f0: f64) -> Result<[f64; 6], (f64, f64)> {
    const GOLD: f64 = 1.618034;
    const VERY_SMALL: f64 = 1e-21;
    const GROW_LIMIT: f64 = 110.0;
    let (mut xa, mut xb) = (0.0f64, 1.0f64);
    let (mut fa, mut fb) = (f0, f(xb));
    if fa < fb {
        std::mem::swap(&mut xa, &mut xb);
        std::mem::swap(&mut fa, &mut fb);
    }
    let mut xc = xb + GOLD * (xb - xa);
    let mut fc = f(xc);
    let mut iter = 0;
    while fc < fb {
        let tmp1 = (xb - xa) * (fb - fc);
        let tmp2 = (xb - xc) * (fb - fa);
        let val = tmp2 - tmp1;
        let denom = if val.abs() < VERY_SMALL {
            2.0 * VERY_SMALL
        } else {
            2.0 * val
        };
        let mut w = xb - ((xb - xc) * tmp2 - (xb - xa) * tmp1) / denom;
        let wlim = xb + GROW_LIMIT * (xc - xb);
        if iter > 1000 {
            break;
        }
        iter += 1;
        let mut fw;
        if (w - xc) * (xb - w) > 0.0 {
            fw = f(w);
            if fw < fc {
                xa = xb;
                xb = w;
                fa = fb;
                fb = fw;
                break;
            } else if fw > fb {
                xc = w;
                fc = fw;
                break;
            }
            w = xc + GOLD * (xc - xb);
            fw = f(w);
        } else if (w - wlim) * (wlim - xc) >= 0.0 {
            w = wlim;
            fw = f(w);
        } else if (w - wlim) * (xc - w) > 0.0 {
            fw = f(w);
            if fw < fc {
                xb = xc;
                xc = w;
                w = xc + GOLD * (xc - xb);
                fb = fc;
                fc = fw;
                fw = f(w);
            }
        } else {
            w = xc + GOLD * (xc - xb);
            fw = f(w);
        }
        xa = xb;
        xb = xc;
        xc = w;
        fa = fb;
        fb = fc;
        fc = fw;
    }
    let cond1 = (fb < fc && fb <= fa) || (fb < fa && fb <= fc);
    let cond2 = (xa < xb && xb < xc) || (xc < xb && xb < xa);
    let cond3 = xa.is_finite() && xb.is_finite() && xc.is_finite();
    if cond1 && cond2 && cond3 {
        Ok([xa, xb, xc, fa, fb, fc])
    } else {
        // argmin over (fa, fb, fc), the first on ties; NaN anywhere: NaN.
        let (xs, fs) = ([xa, xb, xc], [fa, fb, fc]);
        if xs.iter().chain(&fs).any(|v| v.is_nan()) {
            return Err((f64::NAN, f64::NAN));
        }
        let i = (0..3).fold(0, |m, i| if fs[i] < fs[m] { i } else { m });
        Err((xs[i], fs[i]))
    }
}

/// `Brent.optimize` with the bracket of [`bracket`] (`f0` = f(0)): (x, f(x)).
fn brent(f: &mut dyn FnMut(f64) -> f64, tol: f64, f0: f64) -> (f64, f64) {
    const MINTOL: f64 = 1.0e-11;
    const CG: f64 = 0.3819660;
    let [xa, xb, xc, _fa, fb, _fc] = match bracket(f, f0) {
        Ok(b) => b,
        Err(best) => return best,
    };
    let (mut x, mut w, mut v) = (xb, xb, xb);
    let (mut fx, mut fw, mut fv) = (fb, fb, fb);
    let (mut a, mut b) = if xa < xc { (xa, xc) } else { (xc, xa) };
    let mut deltax: f64 = 0.0;
    let mut rat: f64 = 0.0;
    for _ in 0..500 {
        let tol1 = tol * x.abs() + MINTOL;
        let tol2 = 2.0 * tol1;
        let xmid = 0.5 * (a + b);
        if (x - xmid).abs() < tol2 - 0.5 * (b - a) {
            break;
        }
        if deltax.abs() <= tol1 {
            deltax = if x >= xmid { a - x } else { b - x };
            rat = CG * deltax;
        } else {
            let tmp1 = (x - w) * (fx - fv);
            let mut tmp2 = (x - v) * (fx - fw);
            let mut p = (x - v) * tmp2 - (x - w) * tmp1;
            tmp2 = 2.0 * (tmp2 - tmp1);
            if tmp2 > 0.0 {
                p = -p;
            }
            tmp2 = tmp2.abs();
            let dx_temp = deltax;
            deltax = rat;
            if p > tmp2 * (a - x) && p < tmp2 * (b - x) && p.abs() < (0.5 * tmp2 * dx_temp).abs() {
                rat = p * 1.0 / tmp2;
                let u = x + rat;
                if (u - a) < tol2 || (b - u) < tol2 {
                    rat = if xmid - x >= 0.0 { tol1 } else { -tol1 };
                }
            } else {
                deltax = if x >= xmid { a - x } else { b - x };
                rat = CG * deltax;
            }
        }
        let u = if rat.abs() < tol1 {
            if rat >= 0.0 { x + tol1 } else { x - tol1 }
        } else {
            x + rat
        };
        let fu = f(u);
        if fu > fx {
            if u < x {
                a = u;
            } else {
                b = u;
            }
            if fu <= fw || w == x {
                v = w;
                w = u;
                fv = fw;
                fw = fu;
            } else if fu <= fv || v == x || v == w {
                v = u;
                fv = fu;
            }
        } else {
            if u >= x {
                a = x;
            } else {
                b = x;
            }
            v = w;
            w = x;
            x = u;
            fv = fw;
            fw = fx;
            fx = fu;
        }
    }
    (x, fx)
}

/// `_linesearch_powell` without bounds: the minimum of f(p + α·xi) by
/// [`brent`] (tolerance `tol`; `fval` = f(p)), as (f, the new point, α·xi).
fn line_search(
    f: &mut dyn FnMut(&[f64]) -> f64,
    p: &[f64],
    xi: &[f64],
    tol: f64,
    fval: f64,
) -> (f64, Vec<f64>, Vec<f64>) {
    if xi.iter().all(|v| *v == 0.0) {
        return (fval, p.to_vec(), xi.to_vec());
    }
    let mut along = |alpha: f64| {
        let q: Vec<f64> = p.iter().zip(xi).map(|(p, x)| p + alpha * x).collect();
        f(&q)
    };
    let (alpha, fret) = brent(&mut along, tol, fval);
    let step: Vec<f64> = xi.iter().map(|x| alpha * x).collect();
    let q = p.iter().zip(&step).map(|(p, s)| p + s).collect();
    (fret, q, step)
}

/// `minimize(f, x0, method="Powell", options={"maxiter": maxiter, "xtol": xtol})`
/// with scipy's default `ftol` 1e-4 and no bounds (then `maxfev` is unlimited).
pub fn minimize(
    f: &mut dyn FnMut(&[f64]) -> f64,
    x0: &[f64],
    xtol: f64,
    maxiter: usize,
) -> Vec<f64> {
    const FTOL: f64 = 1e-4;
    let n = x0.len();
    let mut direc: Vec<Vec<f64>> = (0..n)
        .map(|i| (0..n).map(|j| if i == j { 1.0 } else { 0.0 }).collect())
        .collect();
    let mut x = x0.to_vec();
    let mut fval = f(&x);
    let mut x1 = x.clone();
    let mut iter = 0;
    loop {
        let fx = fval;
        let mut bigind = 0;
        let mut delta = 0.0;
        for (i, d) in direc.iter().enumerate() {
            let fx2 = fval;
            let (fv, xn, _) = line_search(f, &x, d, xtol * 100.0, fval);
            fval = fv;
            x = xn;
            if fx2 - fval > delta {
                delta = fx2 - fval;
                bigind = i;
            }
        }
        iter += 1;
        let bnd = FTOL * (fx.abs() + fval.abs()) + 1e-20;
        if 2.0 * (fx - fval) <= bnd || iter >= maxiter || (fx.is_nan() && fval.is_nan()) {
            break;
        }
        let direc1: Vec<f64> = x.iter().zip(&x1).map(|(a, b)| a - b).collect();
        x1 = x.clone();
        let x2: Vec<f64> = x.iter().zip(&direc1).map(|(a, d)| a + d).collect();
        let fx2 = f(&x2);
        if fx > fx2 {
            let mut t = 2.0 * (fx + fx2 - 2.0 * fval);
            let temp = fx - fval - delta;
            t *= temp * temp;
            let temp = fx - fx2;
            t -= delta * temp * temp;
            if t < 0.0 {
                let (fv, xn, d) = line_search(f, &x, &direc1, xtol * 100.0, fval);
                fval = fv;
                x = xn;
                if d.iter().any(|v| *v != 0.0) {
                    direc[bigind] = direc[n - 1].clone();
                    direc[n - 1] = d;
                }
            }
        }
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    /// scipy 1.17.1: `minimize(f, x0, method="Powell", options={"xtol":
    /// 1e-6, "maxiter": 100000})`; x, and the number of evaluations: scipy's
    /// `nfev` less one per line search (58 and 6 here), whose f(0) scipy
    /// evaluates again where we reuse the value held.
    #[test]
    fn stops_where_scipy_stops() {
        let mut calls = 0;
        let mut rosen = |x: &[f64]| {
            calls += 1;
            100.0 * (x[1] - x[0] * x[0]).powi(2) + (1.0 - x[0]).powi(2)
        };
        let x = minimize(&mut rosen, &[-1.2, 1.0], 1e-6, 100_000);
        assert!((x[0] - 1.000_000_000_000_018_9).abs() < 1e-13, "{x:?}");
        assert!((x[1] - 1.000_000_000_000_039_7).abs() < 1e-13, "{x:?}");
        assert_eq!(calls, 701 - 58);
        // Stopped by ftol after 3 sweeps, away from the minimum.
        let mut calls = 0;
        let mut f = |x: &[f64]| {
            calls += 1;
            (x[0] - 3.0).powi(2) + 10.0 * (x[1] + 1.0).powi(2) + x[0] * x[1] + 0.1 * x[0].powi(4)
        };
        let x = minimize(&mut f, &[0.0, 0.0], 1e-6, 100_000);
        assert!((x[0] - 1.985_096_944_126_577).abs() < 1e-12, "{x:?}");
        assert!((x[1] + 1.099_254_847_206_328_8).abs() < 1e-12, "{x:?}");
        assert_eq!(calls, 61 - 6);
    }

    #[test]
    fn brent_finds_a_parabola_vertex() {
        let mut f = |a: f64| (a - 3.0).powi(2) + 1.0;
        let f0 = f(0.0);
        let (x, fx) = brent(&mut f, 1e-4, f0);
        assert!((x - 3.0).abs() < 1e-6 && (fx - 1.0).abs() < 1e-12);
    }
}
