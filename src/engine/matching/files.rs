//! The output folder of `evallab match`: one log per game, one results file
//! per tested player and `match.parquet`, each written through the commit
//! protocol, from the `match` rows committed under the run's label.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, UNIX_EPOCH};

use polars::prelude::*;

use crate::Error;
use crate::dataset::{Dataset, EngineRun};
use crate::engine::matching::MatchOptions;
use crate::metrics::matching::format::{Totals, results_file};
use crate::metrics::matching::math::MatchType;
use crate::render::annotate::format_date;
use crate::render::format::{self, Format};
use crate::schema::{GAMES, MATCH, col, match_col as m};

/// What was written.
#[derive(Debug, Clone, Default)]
pub struct Written {
    pub logs: Vec<PathBuf>,
    pub results: Vec<PathBuf>,
    pub table: PathBuf,
    pub rows: DataFrame,
}

/// The run's `match` rows of the games `ids` with their games' tags, in
/// dataset game order then ply order.
pub fn rows(ds: &Dataset, label: &str, ids: &[i64]) -> Result<DataFrame, Error> {
    let ids = Series::new("ids".into(), ids);
    let games = ds.scan(&GAMES)?.with_row_index("game_index", None).select([
        col("game_index"),
        col(col::GAME_ID),
        col(col::EVENT),
        col(col::SITE),
        col(col::DATE).cast(DataType::String),
        col(col::ROUND),
        col(col::WHITE),
        col(col::BLACK),
    ]);
    Ok(ds
        .scan(&MATCH)?
        .filter(col(col::LABEL).eq(lit(label)))
        .filter(col(col::GAME_ID).is_in(lit(ids).implode(false), false))
        .join(
            games,
            [col(col::GAME_ID)],
            [col(col::GAME_ID)],
            JoinArgs::new(JoinType::Left),
        )
        .sort(["game_index", col::PLY], SortMultipleOptions::default())
        .collect()?)
}

/// Writes the logs, results files and `match.parquet` into `dir`.
pub fn write(
    dir: &Path,
    run: &EngineRun,
    opts: &MatchOptions,
    mut df: DataFrame,
) -> Result<Written, Error> {
    let header = header(run, opts);
    let s = |name: &str| -> Result<StringChunked, Error> {
        Ok(df.column(name)?.cast(&DataType::String)?.str()?.clone())
    };
    let (gid, ev, site, date, round, white, black) = (
        df.column(col::GAME_ID)?.i64()?.clone(),
        s(col::EVENT)?,
        s(col::SITE)?,
        s(col::DATE)?,
        s(col::ROUND)?,
        s(col::WHITE)?,
        s(col::BLACK)?,
    );
    let (player, line, log, kind, bits) = (
        s(m::PLAYER)?,
        s(m::MATCH_LINE)?,
        s(m::LOG)?,
        s(m::MATCH_TYPE)?,
        s(m::BITS)?,
    );
    let mut logs: Vec<(PathBuf, String)> = Vec::new();
    let mut per_player: BTreeMap<String, (Vec<String>, Totals)> = BTreeMap::new();
    let get = |c: &StringChunked, i: usize| c.get(i).unwrap_or("?").to_string();
    for i in 0..df.height() {
        let g = gid.get(i).unwrap_or(0);
        if i == 0 || gid.get(i - 1) != Some(g) {
            let name = format!(
                "{:04}_{}_vs_{}.log",
                logs.len() + 1,
                file_part(&get(&white, i)),
                file_part(&get(&black, i))
            );
            let text = format!(
                "{header}Game: {} - {}, {}, {}, round {}, {} (game_id {g})\n\n",
                get(&white, i),
                get(&black, i),
                get(&ev, i),
                get(&site, i),
                get(&round, i),
                get(&date, i),
            );
            logs.push((dir.join("logs").join(name), text));
        }
        let text = &mut logs.last_mut().expect("pushed above").1;
        text.push_str(&get(&log, i));
        text.push('\n');
        let entry = per_player.entry(get(&player, i)).or_default();
        entry.0.push(get(&line, i));
        let k = MatchType::ALL
            .into_iter()
            .find(|k| k.as_str() == get(&kind, i))
            .unwrap_or(MatchType::Non);
        entry.1.add(k, &get(&bits, i), opts.slm_depths.0);
    }
    let mut written = Written::default();
    for (path, text) in logs {
        format::write_text(&path, &text)?;
        written.logs.push(path);
    }
    for (p, (lines, totals)) in per_player {
        let path = dir.join(format!("results_{}.txt", file_part(&p)));
        let text = format!(
            "Results of {p} ({}; {})\n\n{}",
            run.engine.name,
            opts.protocol(),
            results_file(lines, &totals)
        );
        format::write_text(&path, &text)?;
        written.results.push(path);
    }
    written.table = dir.join("match.parquet");
    format::write(&mut df, Format::Parquet, Some(&written.table))?;
    written.rows = df;
    Ok(written)
}

/// A name as part of a file name: letters, digits, `.`, `-`, `_`.
fn file_part(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// The log header: date, hardware, engine, options, depths and methodology.
pub fn header(run: &EngineRun, opts: &MatchOptions) -> String {
    let started = run.chunks.first().map_or(0, |c| c.started_unix);
    let date = date_of(UNIX_EPOCH + Duration::from_secs(started));
    let opt = |n: &str| {
        run.options
            .iter()
            .find(|(k, _)| k == n)
            .map_or("?".to_string(), |(_, v)| v.clone())
    };
    let (dmin, d) = opts.slm_depths;
    let extra: Vec<String> = opts
        .engine_options
        .iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect();
    format!(
        "Move-matching log (Regan's zig-zag protocol, automated by evallab {})\n\
         Date: {date} (UTC, the run's first commit)\n\
         Hardware: {}\n\
         Engine: {} ({})\n\
         Hash: {} MB\n\
         Threads: {}\n\
         MultiPV: {} (MLM), 1 (SLM)\n\
         Other options: {}\n\
         Depths: MLM {}, SLM {dmin}..{d}, final MLM {}\n\
         Tested player: `{}` (regex on the mover's name){}{}\n\
         Methodology: for each tested move, in game order, without clearing the hash between \
         moves (ucinewgame only when a game starts): 1. MLM (MultiPV {}) to depth {} (the \
         \"{}/{}\" data); 2. SLM (MultiPV 1) to depth {d}, the first choice recorded at every \
         depth {dmin}..{d}; 3. MLM again to depth {} (\"end of depth {}\"). Bits: one \
         character per SLM depth {dmin}..{d}, 1 when the engine's first choice at that depth is \
         the move played, else 0 (our reading: the published page lost the character code). \
         FULL = first choice at every SLM depth and in the final MLM; MAIN = first choice at \
         depth {d}; PART = first choice at some depth but not at {d}; NON = never. delta (FULL, \
         MAIN) = final-MLM eval of the move played - that of the best alternative; delta2 \
         (PART, NON) = final-MLM eval of the move played - that of the engine's top move (a \
         move outside the MultiPV lines is searched alone with searchmoves at the final \
         depth). Pawns, mover's view, each eval capped at 10 (a mate counts 10); 9.99 = every \
         alternative loses to mate; NaN = the move repeats a position, or no valid eval.\n\n",
        env!("CARGO_PKG_VERSION"),
        cpu_model(),
        run.engine.name,
        run.engine.path,
        opt("Hash"),
        opt("Threads"),
        opts.multipv,
        if extra.is_empty() {
            "none".to_string()
        } else {
            extra.join(", ")
        },
        opts.mlm_depth,
        opts.final_depth,
        opts.player,
        opts.moves_text()
            .map_or(String::new(), |m| format!(", {m}")),
        if opts.skip_book {
            ", book moves skipped"
        } else {
            ""
        },
        opts.multipv,
        opts.mlm_depth,
        opts.mlm_depth,
        opts.mlm_depth,
        opts.final_depth,
        opts.final_depth,
    )
}

/// The CPU model and logical CPUs (Linux's /proc/cpuinfo), or `unknown`.
fn cpu_model() -> String {
    let info = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = info
        .lines()
        .find_map(|l| l.strip_prefix("model name"))
        .and_then(|l| l.split_once(':'))
        .map(|(_, v)| v.trim().to_string());
    let cpus = std::thread::available_parallelism().map_or(0, |n| n.get());
    match model {
        Some(m) => format!("{m}, {cpus} logical CPUs"),
        None => format!("unknown CPU model, {cpus} logical CPUs"),
    }
}

/// `YYYY-MM-DD` of a time (UTC).
fn date_of(t: std::time::SystemTime) -> String {
    let days = t
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400);
    format_date(i32::try_from(days).unwrap_or(i32::MAX)).replace('.', "-")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_by_hand() {
        assert_eq!(date_of(UNIX_EPOCH), "1970-01-01");
        // 2000-03-01 is day 11017; 2024-02-29 day 19782.
        assert_eq!(
            date_of(UNIX_EPOCH + Duration::from_secs(11_017 * 86_400)),
            "2000-03-01"
        );
        assert_eq!(
            date_of(UNIX_EPOCH + Duration::from_secs(19_782 * 86_400)),
            "2024-02-29"
        );
    }

    #[test]
    fn file_names_keep_safe_characters() {
        assert_eq!(file_part("Stockfish 8/x"), "Stockfish_8_x");
    }
}
