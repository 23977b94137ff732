//! Stockfish's WDL model as a function: win, draw and loss rates by eval and
//! material, and a(material), the eval at which half of the games are won:
//! x_0_5 = a/100 pawns, by the material on the board. Fitted by
//! [`crate::metrics::wdl`], saved by `wdl --save-model`, read by every x05
//! consumer (`--x05 FILE`).

use std::path::Path;

use polars::prelude::*;
use serde::{Deserialize, Serialize};

use crate::Error;

/// p(y) = ((c0·y + c1)·y + c2)·y + c3 with c in WDL_model's `as[]` order
/// (highest power first).
pub fn poly3(c: &[f64; 4], y: f64) -> f64 {
    ((c[0] * y + c[1]) * y + c[2]) * y + c[3]
}

/// The logistic 1/(1 + e^(−z)) without overflow.
pub fn logistic(z: f64) -> f64 {
    if z < 0.0 {
        let e = z.exp();
        e / (1.0 + e)
    } else {
        1.0 / (1.0 + (-z).exp())
    }
}

/// The reference's guard: b below 1e-8 counts as 1e-8.
pub const B_MIN: f64 = 1e-8;

/// Win rate at eval x (centipawns, the mover's POV) for parameters a, b.
pub fn win_rate(x: f64, a: f64, b: f64) -> f64 {
    logistic((x - a) / b.max(B_MIN))
}

/// A fitted model: `as`/`bs` in WDL_model's order, polynomials of
/// material / `mom_target`. Outside the fitted material range the material is
/// clamped to it, as Stockfish clamps it (`std::clamp(material, 17, 78)`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Model {
    #[serde(rename = "as")]
    pub as_: [f64; 4],
    pub bs: [f64; 4],
    pub mom_target: i32,
    pub material_min: i32,
    pub material_max: i32,
}

impl Model {
    fn y(&self, material: f64) -> f64 {
        material.clamp(f64::from(self.material_min), f64::from(self.material_max))
            / f64::from(self.mom_target)
    }

    /// a(material), centipawns: the eval at which half of the games are won.
    pub fn a(&self, material: f64) -> f64 {
        poly3(&self.as_, self.y(material))
    }

    /// b(material), centipawns: the spread of the win-rate curve.
    pub fn b(&self, material: f64) -> f64 {
        poly3(&self.bs, self.y(material))
    }

    /// (win, draw, loss) at eval x (centipawns, mover's POV).
    pub fn wdl(&self, x: f64, material: f64) -> (f64, f64, f64) {
        let (a, b) = (self.a(material), self.b(material));
        let w = win_rate(x, a, b);
        let l = win_rate(-x, a, b);
        (w, 1.0 - w - l, l)
    }

    /// The expected score win + draw/2 at eval x (centipawns).
    pub fn score(&self, x: f64, material: f64) -> f64 {
        let (w, d, _) = self.wdl(x, material);
        w + 0.5 * d
    }
}

impl Model {
    /// a(material)/100 as a polars expression of a material column: the
    /// x05 (pawns) of each row's position.
    pub fn x05_expr(&self, material: Expr) -> Expr {
        let y = material.cast(DataType::Float64).clip(
            lit(f64::from(self.material_min)),
            lit(f64::from(self.material_max)),
        ) / lit(f64::from(self.mom_target));
        let c = self.as_;
        (((lit(c[0]) * y.clone() + lit(c[1])) * y.clone() + lit(c[2])) * y + lit(c[3])) / lit(100.0)
    }

    /// The model as JSON (`wdl --save-model`).
    pub fn save(&self, path: &Path) -> Result<(), Error> {
        let text = serde_json::to_string_pretty(self)
            .map_err(|e| Error::InputData(format!("model not written: {e}")))?;
        crate::dataset::commit::write_bytes(path, format!("{text}\n").as_bytes())
    }

    /// Parses a model file's text; None when it is not one.
    pub fn parse(text: &str) -> Option<Model> {
        serde_json::from_str(text).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model() -> Model {
        Model {
            as_: [0.0, 0.0, 58.0, 100.0],
            bs: [0.0, 0.0, 0.0, 60.0],
            mom_target: 58,
            material_min: 17,
            material_max: 78,
        }
    }

    #[test]
    fn x05_expr_is_a_over_100_with_the_material_clamped() {
        let m = model();
        let df = df!("m" => [10i32, 20, 58, 90])
            .unwrap()
            .lazy()
            .select([m.x05_expr(col("m")).alias("x")])
            .collect()
            .unwrap();
        let x: Vec<f64> = df
            .column("x")
            .unwrap()
            .f64()
            .unwrap()
            .into_no_null_iter()
            .collect();
        // a(m) = m + 100 inside 17..78: 1.17 (clamped), 1.20, 1.58, 1.78 (clamped).
        let want = [1.17, 1.20, 1.58, 1.78];
        for (g, w) in x.iter().zip(want) {
            assert!((g - w).abs() < 1e-12, "{x:?}");
        }
        assert!((m.a(20.0) / 100.0 - 1.2).abs() < 1e-12);
    }

    #[test]
    fn a_model_file_round_trips_in_wdl_models_names() {
        let m = model();
        let text = serde_json::to_string(&m).unwrap();
        assert!(
            text.starts_with("{\"as\":[0.0,0.0,58.0,100.0],\"bs\":"),
            "{text}"
        );
        assert_eq!(Model::parse(&text), Some(m));
        assert_eq!(Model::parse("[x05]\n"), None);
    }
}
