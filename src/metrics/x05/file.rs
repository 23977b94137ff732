//! The x05 file written by `calibrate --toml` and read by every x05 consumer
//! (`--x05 FILE`): serde structs, so that what is written is what is read.
//! A consumer's `--x05 FILE` also takes a WDL model ([`X05Source::read`]).
//!
//! ```toml
//! [x05]                      # the value each engine takes: positive, identified
//! "Stockfish" = 0.6614
//!
//! [x05_estimate.Stockfish]   # which estimate that is, and how good
//! estimate = "pooled"
//! ml = 0.6652
//! ...
//!
//! [x05_missing]              # engines with games but no value, and why
//! "4k.c 1.0" = "no positions with an own eval"
//! ```
//!
//! With `--by event,engine` (or `season,engine`) every table is keyed by
//! event, then engine.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::{Model, X05};
use crate::Error;

/// A table keyed by engine, or by event then engine.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Keyed<T> {
    Value(T),
    Event(BTreeMap<String, T>),
}

/// Which estimate an engine's `[x05]` value is, with its interval.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// "pooled": the ml estimate shrunk toward the mean of all engines;
    /// "posterior mode": without a usable ml (none in range, or no error
    /// from one game), the mode of the engine's likelihood under that prior.
    pub estimate: String,
    /// The engine's own ml estimate and the sandwich standard error of its
    /// log, where it has them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ml: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ml_se_log: Option<f64>,
    /// The weight of the engine's own estimate in the pooled one (0 to 1).
    pub weight: f64,
    pub lo: f64,
    pub hi: f64,
    pub level: f64,
    pub games: u32,
}

/// The prior the pooled values shrink toward.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PoolRecord {
    pub method: String,
    /// exp(μ): the mean of all engines' x05 (pawns).
    pub mean: f64,
    /// τ: the spread of the engines' ln x05.
    pub tau: f64,
    pub engines: u32,
}

/// The whole file.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct X05File {
    #[serde(default)]
    pub x05: BTreeMap<String, Keyed<f64>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pool: Option<PoolRecord>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub x05_estimate: BTreeMap<String, Keyed<Record>>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub x05_missing: BTreeMap<String, Keyed<String>>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub x05_rank: BTreeMap<String, Keyed<f64>>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub x05_threshold: BTreeMap<String, Keyed<f64>>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub x05_ml: BTreeMap<String, Keyed<f64>>,
}

/// Puts `value` under `key` (engine, or event and engine).
pub fn insert<T>(table: &mut BTreeMap<String, Keyed<T>>, key: &[String], value: T) {
    match key {
        [engine] => {
            table.insert(engine.clone(), Keyed::Value(value));
        }
        [event, engine] => {
            if let Keyed::Event(m) = table
                .entry(event.clone())
                .or_insert_with(|| Keyed::Event(BTreeMap::new()))
            {
                m.insert(engine.clone(), value);
            }
        }
        _ => {}
    }
}

const HEADER: &str = "# x05 (pawns) from `evallab calibrate`: [x05] holds each engine's pooled \
estimate (docs/definitions/balance-calibrate.md),\n# [x05_estimate] how it was made, [x05_missing] the \
engines without one and why; the other tables each method's own.\n\n";

impl X05File {
    /// The file's text. Every `[x05]` value is positive: the writer holds no
    /// other (a non-positive or unidentified x05 never reaches a consumer).
    pub fn to_toml(&self) -> Result<String, Error> {
        let values = self.x05.values().flat_map(|k| match k {
            Keyed::Value(v) => vec![*v],
            Keyed::Event(m) => m.values().copied().collect(),
        });
        for v in values {
            if !(v > 0.0 && v.is_finite()) {
                return Err(Error::InputData(format!("x05 {v} is not a positive value")));
            }
        }
        let body = toml::to_string(self)
            .map_err(|e| Error::InputData(format!("x05 file not written: {e}")))?;
        Ok(format!("{HEADER}{body}"))
    }

    pub fn parse(text: &str) -> Result<X05File, String> {
        toml::from_str(text).map_err(|e| e.to_string())
    }
}

/// The per-engine x05 a consumer uses (`relevance`, `report`), with the
/// reasons the file gives for engines it has no value for.
#[derive(Debug, Clone)]
pub struct X05Source {
    pub x05: X05,
    /// Engine → why it has no value (`[x05_missing]`, or a value skipped).
    pub missing: BTreeMap<String, String>,
    /// The file, for messages.
    pub file: String,
}

impl X05Source {
    /// Every engine at `default`.
    pub fn fixed(default: f64) -> X05Source {
        X05Source {
            x05: X05::fixed(default),
            missing: BTreeMap::new(),
            file: String::new(),
        }
    }

    /// Reads a WDL model (`wdl --save-model`, JSON) or the `[x05]` table of
    /// a by-engine file (`calibrate --toml`). A non-positive or non-finite
    /// value is skipped, with a note on stderr: the engine then takes
    /// `default`, as an engine not in the file does.
    pub fn read(path: &Path, default: f64) -> Result<X05Source, Error> {
        let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
        let bad = |what: String| Error::InputData(format!("{}: {what}", path.display()));
        if let Some(model) = Model::parse(&text) {
            return Ok(X05Source {
                x05: X05 {
                    default,
                    per_engine: Vec::new(),
                    model: Some(model),
                },
                missing: BTreeMap::new(),
                file: path.display().to_string(),
            });
        }
        text.parse::<toml::Table>()
            .map_err(|e| bad(format!("not TOML: {e}")))?;
        let file = X05File::parse(&text).map_err(|e| bad(format!("not an x05 file: {e}")))?;
        let by_engine_only = |what: &str| {
            bad(format!(
                "[{what}] is keyed by event (written by `calibrate --by event,engine`?): \
                 --x05 reads a by-engine file"
            ))
        };
        let mut missing = BTreeMap::new();
        for (engine, why) in &file.x05_missing {
            match why {
                Keyed::Value(why) => missing.insert(engine.clone(), why.clone()),
                Keyed::Event(_) => return Err(by_engine_only("x05_missing")),
            };
        }
        let mut per_engine = Vec::new();
        for (engine, v) in &file.x05 {
            let &Keyed::Value(x) = v else {
                return Err(by_engine_only("x05"));
            };
            if x > 0.0 && x.is_finite() {
                per_engine.push((engine.clone(), x));
            } else {
                eprintln!(
                    "note: {}: [x05] {engine:?} = {x} is not a positive value; the engine takes {default}",
                    path.display()
                );
                missing.insert(engine.clone(), format!("{x} in the file is not positive"));
            }
        }
        Ok(X05Source {
            x05: X05 {
                default,
                per_engine,
                model: None,
            },
            missing,
            file: path.display().to_string(),
        })
    }

    /// One line naming the engines among `engines` that take the default
    /// x05, and why (None when every engine has its own value or no file was
    /// given).
    pub fn defaults_note<'a>(&self, engines: impl IntoIterator<Item = &'a str>) -> Option<String> {
        if self.file.is_empty() || self.x05.model.is_some() {
            return None;
        }
        let mut named: Vec<String> = engines
            .into_iter()
            .filter(|e| !self.x05.per_engine.iter().any(|(n, _)| n == e))
            .map(|e| match self.missing.get(e) {
                Some(why) => format!("{e} ({why})"),
                None => format!("{e} (not in the file)"),
            })
            .collect();
        named.sort();
        named.dedup();
        if named.is_empty() {
            return None;
        }
        const SHOWN: usize = 8;
        let n = named.len();
        let more = if n > SHOWN { ", …" } else { "" };
        named.truncate(SHOWN);
        Some(format!(
            "x05: {n} engine{} take the default {} (no value in {}): {}{more}",
            if n == 1 { "" } else { "s" },
            self.x05.default,
            self.file,
            named.join(", ")
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> X05File {
        let mut f = X05File::default();
        let k = |e: &str| vec![e.to_string()];
        insert(&mut f.x05, &k("Stockfish 8"), 0.6614);
        insert(&mut f.x05, &k("Houdini \"6\""), 1.25);
        insert(
            &mut f.x05_estimate,
            &k("Stockfish 8"),
            Record {
                estimate: "pooled".into(),
                ml: Some(0.6652),
                ml_se_log: Some(0.081),
                weight: 0.97,
                lo: 0.57,
                hi: 0.77,
                level: 0.95,
                games: 100,
            },
        );
        // A posterior mode: no ml with an error to write.
        insert(
            &mut f.x05_estimate,
            &k("Houdini \"6\""),
            Record {
                estimate: "posterior mode".into(),
                ml: None,
                ml_se_log: None,
                weight: 0.1,
                lo: 0.6,
                hi: 2.4,
                level: 0.95,
                games: 2,
            },
        );
        insert(&mut f.x05_missing, &k("4k.c 1.0"), reason_text());
        insert(&mut f.x05_rank, &k("Stockfish 8"), 0.62);
        f.pool = Some(PoolRecord {
            method: "DerSimonian-Laird on ln x05".into(),
            mean: 0.8,
            tau: 0.3,
            engines: 40,
        });
        f
    }

    fn reason_text() -> String {
        crate::metrics::calibrate::reason::NO_EVALS.to_string()
    }

    #[test]
    fn the_file_round_trips() {
        let f = sample();
        let text = f.to_toml().unwrap();
        assert!(text.starts_with("# x05 (pawns)"), "{text}");
        assert_eq!(X05File::parse(&text).unwrap(), f);
        // Keyed by event, then engine.
        let mut e = X05File::default();
        let k = |a: &str, b: &str| vec![a.to_string(), b.to_string()];
        insert(&mut e.x05, &k("S9 Superfinal", "Stockfish 8"), 0.6);
        insert(&mut e.x05, &k("S9 Superfinal", "Houdini 5"), 0.7);
        insert(
            &mut e.x05_missing,
            &k("S9 Superfinal", "X"),
            "why".to_string(),
        );
        assert_eq!(X05File::parse(&e.to_toml().unwrap()).unwrap(), e);
    }

    #[test]
    fn a_non_positive_value_is_never_written() {
        let mut f = sample();
        insert(&mut f.x05, &["Altair 7.1.5".to_string()], -0.95);
        assert!(f.to_toml().is_err());
        insert(&mut f.x05, &["Altair 7.1.5".to_string()], f64::NAN);
        assert!(f.to_toml().is_err());
    }

    #[test]
    fn readers_skip_bad_values_and_say_which_engines_take_the_default() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x05.toml");
        // A file of an older evallab, with a negative rank value in [x05].
        std::fs::write(
            &path,
            "[x05]\n\"Altair 7.1.5\" = -0.9500\n\"Stockfish 8\" = 0.62\n[x05_rank]\n\"Stockfish 8\" = 0.62\n",
        )
        .unwrap();
        let src = X05Source::read(&path, 0.62).unwrap();
        assert_eq!(src.x05.per_engine, [("Stockfish 8".to_string(), 0.62)]);
        let note = src
            .defaults_note(["Stockfish 8", "Altair 7.1.5", "Zappa"])
            .unwrap();
        assert!(note.contains("2 engines take the default 0.62"), "{note}");
        assert!(
            note.contains("Altair 7.1.5 (-0.95 in the file is not positive)"),
            "{note}"
        );
        assert!(note.contains("Zappa (not in the file)"), "{note}");
        assert_eq!(src.defaults_note(["Stockfish 8"]), None);
        assert_eq!(X05Source::fixed(0.62).defaults_note(["Zappa"]), None);
        // An event-keyed file is not for --x05.
        std::fs::write(&path, "[x05.\"S9\"]\n\"Stockfish 8\" = 0.62\n").unwrap();
        let err = X05Source::read(&path, 0.62).unwrap_err().to_string();
        assert!(err.contains("keyed by event"), "{err}");
        std::fs::write(&path, "[x05]\n\"Stockfish 8\" = \"high\"\n").unwrap();
        assert!(X05Source::read(&path, 0.62).is_err());
    }
}
