//! The win-draw balance x_0_5 every consumer shares (relevance, the report,
//! annotate, calc): its default, the value types and where a value comes
//! from: one number, a per-engine file (`calibrate --toml`) or a WDL model
//! (`wdl --save-model`), whose x05 at a position is a(its material)/100.
//! Below calibrate, wdl and relevance: they import it, it imports none of them.

pub mod file;
pub mod model;

pub use file::X05Source;
pub use model::Model;

/// The seed's x_0_5 in pawns (TCEC Season 9 Superfinal, Stockfish:
/// `../shared/spec/metrics.md` §1): what a consumer uses when no calibrated
/// value or WDL model is given.
pub const DEFAULT: f64 = 0.62;

/// The x05 of a consumer: a default, per-engine values, or a WDL model.
#[derive(Debug, Clone, PartialEq)]
pub struct X05 {
    pub default: f64,
    pub per_engine: Vec<(String, f64)>,
    /// A WDL model: a position's x05 is a(its material)/100 (then
    /// `per_engine` is empty).
    pub model: Option<Model>,
}

impl X05 {
    /// Every engine and position at `value`.
    pub fn fixed(value: f64) -> X05 {
        X05 {
            default: value,
            per_engine: Vec::new(),
            model: None,
        }
    }

    /// The x05 of a position: the model's at its material, else the engine's
    /// own value, else the default.
    pub fn at(&self, engine: &str, material: f64) -> f64 {
        if let Some(m) = &self.model {
            return m.a(material) / 100.0;
        }
        self.per_engine
            .iter()
            .find(|(e, _)| e == engine)
            .map_or(self.default, |(_, v)| *v)
    }

    /// What it is, in a few words (the annotator tag, notes).
    pub fn describe(&self) -> String {
        match (&self.model, self.per_engine.len()) {
            (Some(m), _) => format!("WDL model, a(58)/100 = {:.3}", m.a(58.0) / 100.0),
            (None, 0) => format!("{}", self.default),
            (None, n) => format!("{n} engines' own, else {}", self.default),
        }
    }
}
