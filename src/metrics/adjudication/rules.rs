//! Rule sets as data: a small TOML file with one table per rule family, every
//! threshold a key. Three presets are shipped (`data/adjudication/*.toml`,
//! embedded in the binary); any key can be overridden (`--set`, `--sweep`).
//!
//! Scores are centipawns from the mover's point of view; `movecount` counts the
//! mover's own moves (TCEC's draw rule: full moves, i.e. 2·movecount plies).
//! `[resign]`, `[draw]` and `[maxmoves]` are the options of the same names of
//! cutechess-cli and fastchess; `gui` says which of the two counts them (they
//! differ in details, see [`Gui`]).

use std::collections::HashMap;

use regex::Regex;
use serde::{Deserialize, Serialize};

use crate::Error;

/// The shipped presets: (name, TOML text).
pub const PRESETS: [(&str, &str); 4] = [
    (
        "cutechess",
        include_str!("../../../data/adjudication/cutechess.toml"),
    ),
    (
        "fastchess",
        include_str!("../../../data/adjudication/fastchess.toml"),
    ),
    ("tcec", include_str!("../../../data/adjudication/tcec.toml")),
    (
        "terra",
        include_str!("../../../data/adjudication/terra.toml"),
    ),
];

/// A rule set: the families it uses (any combination) and the "always" rules.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RuleSet {
    pub name: String,
    /// Whose counting `resign`, `draw` and `maxmoves` follow.
    #[serde(default)]
    pub gui: Gui,
    /// cutechess's and fastchess's `-resign`.
    pub resign: Option<Resign>,
    /// cutechess's and fastchess's `-draw`.
    pub draw: Option<Draw>,
    /// cutechess's and fastchess's `-maxmoves`.
    pub maxmoves: Option<MaxMoves>,
    /// TCEC's rules per era of events (first matching era wins).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tcec: Vec<TcecEra>,
    /// Terra's engine-side resignation and draw offers.
    pub terra: Option<Terra>,
    /// cutechess `-tb PATHS -tbpieces N`: tablebase adjudication (needs
    /// `--syzygy DIR`; skipped without tables). A TCEC era has its own.
    pub tb: Option<Tb>,
    #[serde(default)]
    pub always: Always,
}

/// The match runner whose adjudicator `resign`, `draw` and `maxmoves`
/// reproduce: cutechess's `gameadjudicator.cpp` or fastchess's `match.hpp`
/// trackers. They differ in what resets the draw count, the draw's move
/// floor, two-sided resignation and what `maxmoves` counts
/// (docs/definitions/adjudication.md, reading 9).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Gui {
    #[default]
    Cutechess,
    Fastchess,
}

/// `-maxmoves N`: the game is drawn after N moves (see [`Gui`] for what
/// counts); 0 is off, as in cutechess.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MaxMoves {
    pub movecount: u32,
}

/// cutechess `-resign movecount=C score=S [twosided=true]`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Resign {
    pub movecount: u32,
    pub score: i32,
    #[serde(default)]
    pub twosided: bool,
}

/// cutechess `-draw movenumber=N movecount=C score=S`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Draw {
    pub movenumber: u32,
    pub movecount: u32,
    pub score: i32,
}

/// TCEC's draw rule: `-draw` in TCEC's cutechess fork, whose May 2022 "new
/// draw rule" (Season 22 on) added `maxpieces`, `maxpawns` and `reset`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TcecDraw {
    pub movenumber: u32,
    pub movecount: u32,
    pub score: i32,
    /// Count only while the board has at most this many pieces, kings
    /// included, pawns not (0: no limit); a ply above it zeroes the count.
    #[serde(default)]
    pub maxpieces: u32,
    /// The same for pawns (0: no limit).
    #[serde(default)]
    pub maxpawns: u32,
    /// A capture or pawn move zeroes the count (and is not counted itself).
    #[serde(default = "yes")]
    pub reset: bool,
}

fn yes() -> bool {
    true
}

/// Tablebase adjudication: a position after a move with at most `men` pieces
/// (kings and pawns included) and no castling right ends the game with the
/// tables' result (cursed wins and blessed losses are draws: the 50-move rule
/// counts), as cutechess's `SyzygyTablebase::result` does.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tb {
    pub men: u32,
}

/// TCEC's win rule: both sides beyond `score` for `movecount` own moves each.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Win {
    pub movecount: u32,
    pub score: i32,
}

/// The TCEC rules of the events whose name matches `events` (and, with
/// `rounds`, of their rounds `[first, last]` only: TCEC changed an exhibition's
/// settings between rounds; the round is the Round tag's leading number).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TcecEra {
    pub era: String,
    pub events: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rounds: Option<[u32; 2]>,
    pub draw: Option<TcecDraw>,
    pub win: Option<Win>,
    pub tb: Option<Tb>,
}

/// Terra's rules (adjudication.md §2.3).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Terra {
    pub resign: Option<TerraResign>,
    pub draw: Option<TerraDraw>,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TerraResign {
    pub score: i32,
    pub movecount: u32,
    pub material: i32,
    pub opponent_seconds: f64,
    pub moves_left: u32,
    pub improvement: i32,
    pub improvement_moves: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TerraDraw {
    pub movenumber: u32,
    pub gap: u32,
    pub window: u32,
    pub contempt: i32,
    pub min_score: i32,
    pub short_seconds: f64,
    pub moves_left: u32,
}

/// Rules that end every game whatever the set: the 50-move rule, threefold
/// repetition and dead material (K v K, K+B v K, K+N v K).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Always {
    pub fifty: bool,
    pub threefold: bool,
    pub dead: bool,
}

impl Default for Always {
    fn default() -> Self {
        Always {
            fifty: true,
            threefold: true,
            dead: true,
        }
    }
}

/// The rules that apply to one event: at most one TCEC era is chosen.
#[derive(Debug, Clone, PartialEq)]
pub struct Compiled {
    pub gui: Gui,
    pub resign: Option<Resign>,
    pub draw: Option<Draw>,
    pub maxmoves: Option<MaxMoves>,
    /// The TCEC era's name and rules (None: the set has no TCEC part, or no
    /// era matches the event).
    pub tcec: Option<(String, Option<TcecDraw>, Option<Win>)>,
    pub terra: Option<Terra>,
    /// Tablebase adjudication up to this many men (the era's, else the set's).
    pub tb: Option<u32>,
    pub always: Always,
}

impl RuleSet {
    /// A preset name or a TOML file.
    pub fn load(spec: &str) -> Result<RuleSet, Error> {
        if let Some((_, text)) = PRESETS.iter().find(|(n, _)| *n == spec) {
            return RuleSet::parse(text, spec);
        }
        let path = std::path::Path::new(spec);
        if !path.exists() {
            let names: Vec<_> = PRESETS.iter().map(|(n, _)| *n).collect();
            return Err(Error::Usage(format!(
                "--rules {spec}: neither a preset ({}) nor a file",
                names.join(", ")
            )));
        }
        let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
        RuleSet::parse(&text, spec)
    }

    /// Parses and checks a rule file; errors name the file and the key.
    ///
    /// ```
    /// use evallab::metrics::adjudication::RuleSet;
    /// let e = RuleSet::parse("name = 'x'\n[draw]\nmovenumber = 1\nmovecount = 2\nscor = 3", "f.toml")
    ///     .unwrap_err().to_string();
    /// assert!(e.contains("unknown field `scor`, expected one of `movenumber`, `movecount`, `score`"), "{e}");
    /// ```
    pub fn parse(text: &str, origin: &str) -> Result<RuleSet, Error> {
        let set: RuleSet = toml::from_str(text)
            .map_err(|e| Error::InputData(format!("{origin}: {}", e.to_string().trim())))?;
        set.check()
            .map_err(|e| Error::InputData(format!("{origin}: {e}")))?;
        Ok(set)
    }

    /// Value ranges the TOML types do not express.
    fn check(&self) -> Result<(), String> {
        let pos = |key: &str, v: u32| {
            if v == 0 {
                Err(format!("{key} = 0: allowed values are integers >= 1"))
            } else {
                Ok(())
            }
        };
        let nonneg = |key: &str, v: i32| {
            if v < 0 {
                Err(format!("{key} = {v}: allowed values are integers >= 0"))
            } else {
                Ok(())
            }
        };
        if let Some(r) = &self.resign {
            pos("resign.movecount", r.movecount)?;
            nonneg("resign.score", r.score)?;
        }
        if let Some(d) = &self.draw {
            pos("draw.movecount", d.movecount)?;
            nonneg("draw.score", d.score)?;
        }
        let men = |key: &str, t: Option<Tb>| match t {
            Some(Tb { men }) if !(3..=7).contains(&men) => Err(format!(
                "{key} = {men}: allowed values are 3 to 7 (Syzygy tables)"
            )),
            _ => Ok(()),
        };
        men("tb.men", self.tb)?;
        for (i, e) in self.tcec.iter().enumerate() {
            Regex::new(&e.events).map_err(|err| format!("tcec[{i}].events: not a regex: {err}"))?;
            if let Some([a, b]) = e.rounds
                && a > b
            {
                return Err(format!(
                    "tcec[{i}].rounds = [{a}, {b}]: allowed values are [first, last] with first <= last"
                ));
            }
            men(&format!("tcec[{i}].tb.men"), e.tb)?;
            if let Some(d) = &e.draw {
                pos(&format!("tcec[{i}].draw.movenumber"), d.movenumber)?;
                pos(&format!("tcec[{i}].draw.movecount"), d.movecount)?;
                nonneg(&format!("tcec[{i}].draw.score"), d.score)?;
            }
            if let Some(w) = &e.win {
                pos(&format!("tcec[{i}].win.movecount"), w.movecount)?;
                nonneg(&format!("tcec[{i}].win.score"), w.score)?;
            }
        }
        if let Some(t) = &self.terra {
            if let Some(r) = &t.resign {
                pos("terra.resign.movecount", r.movecount)?;
                pos("terra.resign.moves_left", r.moves_left)?;
                pos("terra.resign.improvement_moves", r.improvement_moves)?;
            }
            if let Some(d) = &t.draw {
                pos("terra.draw.window", d.window)?;
                pos("terra.draw.moves_left", d.moves_left)?;
            }
        }
        Ok(())
    }

    /// The rules of one event's round (the PGN Event and Round tags).
    pub fn compile(&self, event: &str, round: &str) -> Compiled {
        self.compile_era(self.eras_of(std::iter::once((event, round)))[0])
    }

    /// Each game's TCEC era from its Event and Round tags: the index in
    /// `tcec` of the first era whose `events` regex matches the event and
    /// whose `rounds` hold the round's leading number (None: no era). Each
    /// regex runs once per distinct event, not once per game.
    pub fn eras_of<'a>(
        &self,
        games: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Vec<Option<usize>> {
        // Checked in `parse`; a set built in code with a bad regex matches nothing.
        let regexes: Vec<Option<Regex>> = self
            .tcec
            .iter()
            .map(|e| Regex::new(&e.events).ok())
            .collect();
        let mut matching: HashMap<&str, Vec<usize>> = HashMap::new();
        games
            .into_iter()
            .map(|(event, round)| {
                let eras = matching.entry(event).or_insert_with(|| {
                    (0..regexes.len())
                        .filter(|&i| regexes[i].as_ref().is_some_and(|re| re.is_match(event)))
                        .collect()
                });
                let number = round
                    .split(|c: char| !c.is_ascii_digit())
                    .next()
                    .and_then(|n| n.parse::<u32>().ok());
                eras.iter()
                    .copied()
                    .find(|&i| match (self.tcec[i].rounds, number) {
                        (None, _) => true,
                        (Some([a, b]), Some(n)) => (a..=b).contains(&n),
                        (Some(_), None) => false,
                    })
            })
            .collect()
    }

    /// The rules of the games of one TCEC era ([`RuleSet::eras_of`]).
    pub fn compile_era(&self, era: Option<usize>) -> Compiled {
        let era = era.map(|i| &self.tcec[i]);
        Compiled {
            gui: self.gui,
            resign: self.resign,
            draw: self.draw,
            maxmoves: self.maxmoves,
            tcec: era.map(|e| (e.era.clone(), e.draw, e.win)),
            terra: self.terra,
            tb: era.and_then(|e| e.tb).or(self.tb).map(|t| t.men),
            always: self.always,
        }
    }

    /// The most men any tablebase rule of the set asks for (None: no TB rule).
    pub fn tb_men(&self) -> Option<u32> {
        self.tcec
            .iter()
            .filter_map(|e| e.tb)
            .chain(self.tb)
            .map(|t| t.men)
            .max()
    }

    /// Every settable key (dotted; `tcec.*` keys set every era that has the table).
    pub fn keys(&self) -> Vec<String> {
        let mut out = Vec::new();
        if let Ok(v) = toml::Value::try_from(self) {
            leaf_keys(&v, "", &mut out);
        }
        out.sort();
        out.dedup();
        out
    }

    /// A copy with `key` set to `value` (parsed as the key's type). An unknown
    /// key is an error that lists the known ones.
    ///
    /// ```
    /// use evallab::metrics::adjudication::RuleSet;
    /// let t = RuleSet::load("tcec").unwrap();
    /// let s = t.set("tcec.draw.score", "30").unwrap();
    /// assert!(s.tcec.iter().filter_map(|e| e.draw).all(|d| d.score == 30));
    /// assert!(t.set("tcec.draw.scor", "3").unwrap_err().to_string().contains("tcec.draw.score"));
    /// ```
    pub fn set(&self, key: &str, value: &str) -> Result<RuleSet, Error> {
        let mut root = toml::Value::try_from(self)
            .map_err(|e| Error::Usage(format!("rule set `{}`: {e}", self.name)))?;
        let parts: Vec<&str> = key.split('.').collect();
        let mut hits = 0;
        set_path(&mut root, &parts, value, &mut hits)
            .map_err(|e| Error::Usage(format!("--set/--sweep {key}={value}: {e}")))?;
        if hits == 0 {
            return Err(Error::Usage(format!(
                "--set/--sweep {key}: not a key of rule set `{}`; allowed keys: {}",
                self.name,
                self.keys().join(", ")
            )));
        }
        let set: RuleSet = root
            .try_into()
            .map_err(|e: toml::de::Error| Error::Usage(format!("{key}={value}: {e}")))?;
        set.check()
            .map_err(|e| Error::Usage(format!("{key}={value}: {e}")))?;
        Ok(set)
    }
}

fn leaf_keys(v: &toml::Value, prefix: &str, out: &mut Vec<String>) {
    match v {
        toml::Value::Table(t) => {
            for (k, x) in t {
                let p = if prefix.is_empty() {
                    k.clone()
                } else {
                    format!("{prefix}.{k}")
                };
                leaf_keys(x, &p, out);
            }
        }
        toml::Value::Array(a) => a.iter().for_each(|x| leaf_keys(x, prefix, out)),
        _ if prefix == "name"
            || prefix.ends_with(".era")
            || prefix.ends_with(".events")
            || prefix.ends_with(".rounds") => {}
        _ => out.push(prefix.to_string()),
    }
}

/// Sets the leaf at `path` (through arrays: in every element that has it).
fn set_path(
    v: &mut toml::Value,
    path: &[&str],
    value: &str,
    hits: &mut usize,
) -> Result<(), String> {
    match v {
        toml::Value::Array(a) => {
            for x in a {
                set_path(x, path, value, hits)?;
            }
            Ok(())
        }
        toml::Value::Table(t) => {
            let Some(x) = t.get_mut(path[0]) else {
                return Ok(());
            };
            if path.len() > 1 {
                return set_path(x, &path[1..], value, hits);
            }
            *x = match x {
                toml::Value::Integer(_) => value
                    .parse::<f64>()
                    .ok()
                    .filter(|f| f.fract() == 0.0)
                    .map(|f| toml::Value::Integer(f as i64))
                    .ok_or("allowed values are integers")?,
                toml::Value::Float(_) => value
                    .parse::<f64>()
                    .map(toml::Value::Float)
                    .map_err(|_| "allowed values are numbers")?,
                toml::Value::Boolean(_) => value
                    .parse::<bool>()
                    .map(toml::Value::Boolean)
                    .map_err(|_| "allowed values are true and false")?,
                // A name (`gui`): the rule set's type checks it.
                toml::Value::String(_) => toml::Value::String(value.to_string()),
                _ => return Err("not a settable value".into()),
            };
            *hits += 1;
            Ok(())
        }
        _ => Ok(()),
    }
}

/// `FROM..TO:STEP` as the list of its values (TO included when on the grid).
///
/// ```
/// use evallab::metrics::adjudication::rules::range;
/// assert_eq!(range("5..20:5").unwrap(), vec![5.0, 10.0, 15.0, 20.0]);
/// assert!(range("5..20").is_err());
/// ```
pub fn range(spec: &str) -> Result<Vec<f64>, String> {
    let err = || format!("`{spec}`: expected FROM..TO:STEP, e.g. 5..50:5");
    let (span, step) = spec.split_once(':').ok_or_else(err)?;
    let (from, to) = span.split_once("..").ok_or_else(err)?;
    let (from, to, step): (f64, f64, f64) = (
        from.trim().parse().map_err(|_| err())?,
        to.trim().parse().map_err(|_| err())?,
        step.trim().parse().map_err(|_| err())?,
    );
    if step.is_nan() || step <= 0.0 || to < from || ((to - from) / step) > 10_000.0 {
        return Err(err());
    }
    let n = ((to - from) / step + 1e-9).floor() as usize;
    Ok((0..=n).map(|i| from + step * i as f64).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_parse_and_pick_the_era_by_event() {
        for (name, _) in PRESETS {
            assert_eq!(RuleSet::load(name).unwrap().name, name);
        }
        let t = RuleSet::load("tcec").unwrap();
        let era = |e: &str| t.compile(e, "1.1").tcec.map(|x| x.0);
        assert_eq!(
            era("TCEC Season 13 - Division 1").as_deref(),
            Some("S12-S13, Cup 1")
        );
        assert_eq!(
            era("TCEC Season 26 - FRD 2 League B").as_deref(),
            Some("S24-S27, Cup 11-14")
        );
        assert_eq!(
            era("TCEC Cup 2 - Round 4 - Match 29").as_deref(),
            Some("S14-S17, Cup 2-5: move floor 30")
        );
        assert_eq!(era("my own match"), None);
        let s24 = t
            .compile("TCEC Season 24 - Sufi Testing", "1.1")
            .tcec
            .unwrap();
        assert_eq!(
            s24.1,
            Some(TcecDraw {
                movenumber: 1,
                movecount: 4,
                score: 25,
                maxpieces: 6,
                maxpawns: 0,
                reset: false,
            })
        );
        assert_eq!(s24.2, None);
    }

    #[test]
    fn rounds_split_an_event_between_eras() {
        let t = RuleSet::load("tcec").unwrap();
        let event = "Bluefish vs Redmodo ponder on 170 vs 124 threads";
        let era = |r: &str| t.compile(event, r).tcec.map(|x| x.0).unwrap();
        assert_eq!(era("11.1"), "S14-S17, Cup 2-5");
        assert_eq!(era("12.1"), "Bluefish vs Redmodo: rounds 12-20 rules off");
        assert_eq!(era("20.1"), "Bluefish vs Redmodo: rounds 12-20 rules off");
        assert_eq!(era("21.1"), "Bluefish vs Redmodo: rounds 21+ win rule off");
        assert_eq!(
            era("?"),
            "S14-S17, Cup 2-5",
            "no round number: no `rounds` era"
        );
        let e = RuleSet::parse(
            "name = 'x'\n[[tcec]]\nera = 'a'\nevents = ''\nrounds = [5, 2]\n",
            "f",
        )
        .unwrap_err()
        .to_string();
        assert!(
            e.contains("tcec[0].rounds = [5, 2]: allowed values are [first, last]"),
            "{e}"
        );
        assert!(!t.keys().iter().any(|k| k.ends_with("rounds")));
    }

    #[test]
    fn errors_name_the_key_and_the_allowed_values() {
        let e = RuleSet::parse("name = 'x'\n[resign]\nmovecount = 0\nscore = 1\n", "f")
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "f: resign.movecount = 0: allowed values are integers >= 1"
        );
        let e = RuleSet::parse("name = 'x'\n[resign]\nmovecount = 'a'\nscore = 1\n", "f")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("movecount = 'a'") && e.contains("expected u32"),
            "{e}"
        );
        let e = RuleSet::parse("name = 'x'\n[resing]\n", "f")
            .unwrap_err()
            .to_string();
        assert!(e.contains("unknown field `resing`, expected one of `name`, `gui`, `resign`, `draw`, `maxmoves`, `tcec`, `terra`, `tb`, `always`"), "{e}");
        let e = RuleSet::parse("name = 'x'\n[[tcec]]\nera = 'a'\nevents = '('\n", "f")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("f: tcec[0].events: not a regex"), "{e}");
        let c = RuleSet::load("cutechess").unwrap();
        let e = c.set("draw.scor", "3").unwrap_err().to_string();
        assert!(e.contains("allowed keys: always.dead, always.fifty, always.threefold, draw.movecount, draw.movenumber, draw.score, gui, maxmoves.movecount, resign.movecount, resign.score, resign.twosided"), "{e}");
        let e = c.set("draw.score", "1.5").unwrap_err().to_string();
        assert!(e.contains("allowed values are integers"), "{e}");
        let e = c.set("resign.twosided", "yes").unwrap_err().to_string();
        assert!(e.contains("allowed values are true and false"), "{e}");
        assert_eq!(c.set("gui", "fastchess").unwrap().gui, Gui::Fastchess);
        let e = c.set("gui", "arena").unwrap_err().to_string();
        assert!(
            e.contains("unknown variant `arena`, expected `cutechess` or `fastchess`"),
            "{e}"
        );
        assert!(
            RuleSet::load("nope")
                .unwrap_err()
                .to_string()
                .contains("cutechess, fastchess, tcec, terra")
        );
    }

    #[test]
    fn ranges_include_the_end_on_the_grid() {
        assert_eq!(range("0.05..0.5:0.05").unwrap().len(), 10);
        assert_eq!(
            range("3..10:1").unwrap(),
            [3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0]
        );
        assert!(range("10..3:1").is_err() && range("1..3:0").is_err());
    }
}
