//! Renamed options and values. An old spelling is still read for one release:
//! the command line is rewritten to the new one before clap parses it, and a
//! note on stderr says what to write instead. This table is the one source of
//! the rewrite, of `__commands` (the Python API's deprecated keywords) and of
//! the renames table in docs/reference/options.md.

use std::ffi::OsString;

/// How an old option's value becomes the new one's.
#[derive(Debug, Clone, Copy)]
pub enum Values {
    /// Unchanged.
    Same,
    /// A percentage becomes a fraction (`95` → `0.95`).
    PercentToFraction,
    /// Old words become new ones; other values pass unchanged.
    Words(&'static [(&'static str, &'static str)]),
}

/// One rename: in `commands`, `--old` is read as `--new` (the same name when
/// only values were renamed).
#[derive(Debug)]
pub struct Rename {
    pub commands: &'static [&'static str],
    pub old: &'static str,
    pub new: &'static str,
    pub values: Values,
    /// Why, in a few words (docs and the note).
    pub why: &'static str,
}

const ENGINE_STAGES: &[&str] = &["analyze", "match", "policy"];
const X05_USERS: &[&str] = &["relevance", "report", "annotate", "calc"];
/// Commands whose rows are always per engine: `--by` names the engine key too.
const ENGINE_ROWS: &[&str] = &[
    "standings",
    "crosstable",
    "pairs",
    "balance",
    "calibrate",
    "relevance",
    "engine-stats",
    "agreement",
    "ease",
];

/// Every rename since 0.1, in the order of the docs' table. Renamed in the
/// release after 0.1 (issue 40); the old spellings go in the one after.
pub const RENAMES: &[Rename] = &[
    Rename {
        commands: ENGINE_STAGES,
        old: "--engine",
        new: "--uci",
        values: Values::Same,
        why: "`--engine` is the engine-name filter everywhere else",
    },
    Rename {
        commands: ENGINE_STAGES,
        old: "--engine-option",
        new: "--uci-option",
        values: Values::Same,
        why: "the option of the `--uci` engine",
    },
    Rename {
        commands: &["match"],
        old: "--out-dir",
        new: "--output",
        values: Values::Same,
        why: "`-o/--output` is where every command writes",
    },
    Rename {
        commands: &["ratings"],
        old: "--simulations",
        new: "--bootstrap",
        values: Values::Same,
        why: "one resampling option (Ordo's replays are a parametric bootstrap)",
    },
    Rename {
        commands: &["difficulty"],
        old: "--resamples",
        new: "--bootstrap",
        values: Values::Same,
        why: "one resampling option",
    },
    Rename {
        commands: &["ratings"],
        old: "--confidence",
        new: "--level",
        values: Values::PercentToFraction,
        why: "one confidence convention: a fraction, as `calibrate` and `wdl`",
    },
    Rename {
        commands: &["report"],
        old: "--games",
        new: "--trajectories",
        values: Values::Same,
        why: "`--games` lists the games behind a number (`eas`, `adjudicate`)",
    },
    Rename {
        commands: X05_USERS,
        old: "--x05-from",
        new: "--x05",
        values: Values::Same,
        why: "one `--x05` for a number, per-engine values or a WDL model",
    },
    Rename {
        commands: ENGINE_ROWS,
        old: "--by",
        new: "--by",
        values: Values::Words(&[
            ("all", "engine"),
            ("event", "event,engine"),
            ("season", "season,engine"),
        ]),
        why: "a `--by` value names every key of the rows (`wdl --by event` pools the engines)",
    },
    Rename {
        commands: &["adjudicate"],
        old: "--by",
        new: "--by",
        values: Values::Words(&[("total", "all")]),
        why: "`all` is one group of every selected game, in every command",
    },
    Rename {
        commands: &["match"],
        old: "--by",
        new: "--by",
        values: Values::Words(&[
            ("player", "engine"),
            ("event,player", "event,engine"),
            ("game,player", "game,engine"),
        ]),
        why: "one word for the engine key",
    },
    Rename {
        commands: &["opening-stats"],
        old: "--by",
        new: "--by",
        values: Values::Words(&[("engine", "opening,engine")]),
        why: "a `--by` value names every key of the rows",
    },
    Rename {
        commands: &["calc"],
        old: "--scheme",
        new: "--move-scheme",
        values: Values::Same,
        why: "`annotate` names the same scheme `--move-scheme`",
    },
];

/// The command line with every old spelling replaced, and a note for each.
/// `argv[1]` is the command; nothing after `--` is touched.
pub fn rewrite(argv: Vec<OsString>) -> (Vec<OsString>, Vec<String>) {
    let Some(command) = argv.get(1).and_then(|c| c.to_str()).map(str::to_owned) else {
        return (argv, Vec::new());
    };
    let renames: Vec<&Rename> = RENAMES
        .iter()
        .filter(|r| r.commands.contains(&command.as_str()))
        .collect();
    if renames.is_empty() {
        return (argv, Vec::new());
    }
    let mut out = Vec::with_capacity(argv.len());
    let mut notes = Vec::new();
    let mut words = argv.into_iter();
    while let Some(word) = words.next() {
        let Some(text) = word.to_str().map(str::to_owned) else {
            out.push(word);
            continue;
        };
        if text == "--" {
            out.push(word);
            out.extend(words.by_ref());
            break;
        }
        let (flag, inline) = match text.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_owned(), Some(v.to_owned())),
            _ => (text.clone(), None),
        };
        let Some(r) = renames.iter().find(|r| r.old == flag) else {
            out.push(word);
            continue;
        };
        let value = match inline {
            Some(v) => Some(v),
            None => words.next().map(|v| v.to_string_lossy().into_owned()),
        };
        let Some(value) = value else {
            // A missing value: clap says so, under the new name.
            out.push(r.new.into());
            continue;
        };
        let new_value = convert(r.values, &value);
        if r.old != r.new || new_value != value {
            notes.push(format!(
                "note: `{command} {} {value}` is deprecated and read as `{} {new_value}` ({})",
                r.old, r.new, r.why
            ));
        }
        out.push(r.new.into());
        out.push(new_value.into());
    }
    (out, notes)
}

fn convert(values: Values, value: &str) -> String {
    match values {
        Values::Same => value.to_owned(),
        // A value that is not a number passes as it is: clap names it.
        Values::PercentToFraction => value
            .parse::<f64>()
            .map_or_else(|_| value.to_owned(), |p| format!("{}", p / 100.0)),
        Values::Words(words) => words
            .iter()
            .find(|(old, _)| *old == value)
            .map_or_else(|| value.to_owned(), |(_, new)| (*new).to_owned()),
    }
}

/// The renames table of docs/reference/options.md.
pub fn markdown() -> String {
    let mut s = String::from("| command | was | now | why |\n|---|---|---|---|\n");
    for r in RENAMES {
        let (was, now) = match r.values {
            Values::Words(words) => (
                words
                    .iter()
                    .map(|(o, _)| format!("`{} {o}`", r.old))
                    .collect::<Vec<_>>()
                    .join(", "),
                words
                    .iter()
                    .map(|(_, n)| format!("`{} {n}`", r.new))
                    .collect::<Vec<_>>()
                    .join(", "),
            ),
            Values::PercentToFraction => (
                format!("`{} PERCENT`", r.old),
                format!("`{} FRACTION` (95 → 0.95)", r.new),
            ),
            Values::Same => (format!("`{}`", r.old), format!("`{}`", r.new)),
        };
        s += &format!(
            "| {} | {was} | {now} | {} |\n",
            r.commands.join(", "),
            r.why
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::*;

    fn words(line: &str) -> Vec<OsString> {
        line.split(' ').map(OsString::from).collect()
    }

    fn line(argv: &[OsString]) -> String {
        argv.iter()
            .map(|w| w.to_string_lossy())
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn old_spellings_are_read_as_the_new_ones_with_a_note() {
        let (argv, notes) = rewrite(words(
            "evallab analyze ds --engine /sf --engine-option=Hash=8 --depth 3",
        ));
        assert_eq!(
            line(&argv),
            "evallab analyze ds --uci /sf --uci-option Hash=8 --depth 3"
        );
        assert_eq!(notes.len(), 2);
        assert!(notes[0].contains("`analyze --engine /sf` is deprecated and read as `--uci /sf`"));

        let (argv, notes) = rewrite(words("evallab ratings ds --confidence 90 --engine Sf"));
        // `--engine` is a name filter in ratings: not renamed there.
        assert_eq!(line(&argv), "evallab ratings ds --level 0.9 --engine Sf");
        assert_eq!(notes.len(), 1);

        let (argv, notes) = rewrite(words("evallab balance ds --by event --format csv"));
        assert_eq!(
            line(&argv),
            "evallab balance ds --by event,engine --format csv"
        );
        assert_eq!(notes.len(), 1);
        // The new spelling passes silently; so does everything after `--`.
        let (argv, notes) = rewrite(words("evallab balance ds --by season,engine -- --by event"));
        assert_eq!(
            line(&argv),
            "evallab balance ds --by season,engine -- --by event"
        );
        assert!(notes.is_empty());
        // `wdl --by event` is a real value there (one fit per event).
        assert!(rewrite(words("evallab wdl ds --by event")).1.is_empty());
    }

    /// Every new spelling is an option (and value) of its command, and no old
    /// one is still declared there: the rewrite cannot shadow a live option.
    #[test]
    fn every_rename_lands_on_a_live_option() {
        let cli = super::super::Cli::command();
        for r in RENAMES {
            for c in r.commands {
                let cmd = cli
                    .find_subcommand(c)
                    .unwrap_or_else(|| panic!("no command {c}"));
                let long = |f: &str| {
                    cmd.get_arguments()
                        .find(|a| a.get_long() == Some(f.trim_start_matches("--")))
                };
                let new = long(r.new).unwrap_or_else(|| panic!("{c}: no {}", r.new));
                if r.old != r.new {
                    assert!(long(r.old).is_none(), "{c}: {} is still declared", r.old);
                }
                if let Values::Words(words) = r.values {
                    let live: Vec<String> = new
                        .get_possible_values()
                        .iter()
                        .flat_map(|p| {
                            p.get_name_and_aliases()
                                .map(str::to_owned)
                                .collect::<Vec<_>>()
                        })
                        .collect();
                    for (old, newv) in words {
                        assert!(
                            live.iter().any(|v| v == newv),
                            "{c} {}: no value {newv}",
                            r.new
                        );
                        assert!(
                            !live.iter().any(|v| v == old),
                            "{c} {}: {old} still live",
                            r.new
                        );
                    }
                }
            }
        }
    }
}
