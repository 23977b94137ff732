//! `evallab eas <DATASET>`: the EAS aggressiveness score per engine.

use evallab::metrics::matches;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::ValueEnum;
use evallab::dataset::Dataset;
use evallab::facts::read_facts;
use evallab::metrics::eas::{EasOptions, Rules, cols, score, stored_labels};
use evallab::render::annotate::AnnotateOptions;
use evallab::schema::{EAS_LABELS, col as gcol};
use polars::prelude::*;

use super::OutputArgs;

/// Rule set of the reference tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum RuleSet {
    /// V6.0 (2025), the current reference.
    V6,
    /// V5.2–5.8.
    V5,
}

/// Games behind a number, for `--games`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Kind {
    Sac1,
    Sac2,
    Sac3,
    Sac4,
    Sac5,
    #[value(name = "sacq")]
    SacQ,
    /// Wins of at most L moves (the short-win limit).
    Short,
    BadDraws,
}

/// EAS (Engine Aggressiveness Statistics) per engine, ranked.
///
/// EAS (Engine Aggressiveness Statistics) per engine, ranked: sacrifices in
/// wins, early sacrifices and short wins, bad draws (see README, "EAS").
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Dataset folder written by `evallab ingest`.
    dataset: PathBuf,
    /// Rule set: v6 (current reference) or v5 (V5.2–5.8).
    #[arg(long, value_enum, default_value_t = RuleSet::V6)]
    rules: RuleSet,
    /// Fix the all-games average length (moves) instead of computing it.
    #[arg(long, value_name = "N")]
    hard_avg: Option<i32>,
    /// Keep engines matching this regex (the population stays the input).
    #[arg(long, value_name = "REGEX")]
    engine: Option<String>,
    /// Use only the games of events matching this regex as the input.
    #[arg(long, value_name = "REGEX")]
    event: Option<String>,
    /// List the games behind a number of the --engine engines instead.
    #[arg(long, value_enum)]
    games: Option<Kind>,
    /// With --games: also write those games as PGN (annotated, see `annotate`).
    #[arg(long, value_name = "FILE", requires = "games")]
    pgn: Option<PathBuf>,
    /// Recompute the per-game labels even if stored ones are current.
    #[arg(long)]
    relabel: bool,
    /// Read the per-part labels from DIR (written by `evallab facts`) instead
    /// of the stored ones.
    #[arg(long, value_name = "DIR", conflicts_with = "relabel")]
    facts: Option<PathBuf>,
    #[command(flatten)]
    out: OutputArgs,
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    // Every option is checked before the labels are stored.
    if a.games.is_some() && a.engine.is_none() {
        return Err(super::usage("--games needs --engine REGEX"));
    }
    if let Some(re) = &a.event {
        regex::Regex::new(re)
            .map_err(|e| super::usage(format!("--event: bad regex `{re}`: {e}")))?;
    }
    a.out.check()?;
    let ds = Dataset::open(&a.dataset)?;
    let engine = a
        .engine
        .as_deref()
        .map(|re| {
            regex::Regex::new(re)
                .map_err(|e| super::usage(format!("--engine: bad regex `{re}`: {e}")))
        })
        .transpose()?;
    let t = Instant::now();
    let (mut lab, computed) = match &a.facts {
        Some(dir) => (read_facts(&ds, dir)?.1, false),
        None => stored_labels(&ds, a.relabel)?,
    };
    if computed {
        eprintln!(
            "eas labels: {} games in {:.2}s, stored in {}",
            lab.height(),
            t.elapsed().as_secs_f64(),
            ds.derived_path(&EAS_LABELS).display()
        );
    }
    if let Some(re) = &a.event {
        lab = lab
            .lazy()
            .filter(matches(col(gcol::EVENT), re.as_str()))
            .collect()?;
    }
    let opts = EasOptions {
        rules: match a.rules {
            RuleSet::V6 => Rules::V6,
            RuleSet::V5 => Rules::V5,
        },
        hard_avg: a.hard_avg,
        engine: engine.clone(),
    };
    let (mut table, g) = score(&lab, &opts)?;
    if let (Some(kind), Some(re)) = (a.games, &a.engine) {
        let mut df = games_behind(&lab, kind, re, g.short_limit)?;
        if let Some(path) = &a.pgn {
            let ids = df.column(gcol::GAME_ID)?.as_materialized_series().clone();
            let filter = col(gcol::GAME_ID).is_in(lit(ids).implode(false), false);
            let n =
                super::annotate::write_games(&ds, filter, AnnotateOptions::default(), None, path)?;
            eprintln!("{n} games written to {}", path.display());
        }
        a.out.write(&mut df)?;
        return Ok(ExitCode::SUCCESS);
    }
    eprintln!(
        "avg_all = {} moves ({} decisive games), L = {}, early_limit = {} plies, rules {:?}",
        g.avg_all, g.decisive_games, g.short_limit, g.early_limit, opts.rules
    );
    a.out.write(&mut table)?;
    Ok(ExitCode::SUCCESS)
}

/// The games of the matching engines behind one number of the table.
fn games_behind(lab: &DataFrame, kind: Kind, re: &str, l: i32) -> anyhow::Result<DataFrame> {
    let side = |s: usize, name: &str, color: &str| -> LazyFrame {
        let mut f = lab.clone().lazy().filter(matches(col(name), re));
        let won = col(cols::WINNER)
            .eq(lit(color))
            .and(col(cols::DUPLICATE).not())
            .and(col(cols::IRREGULAR).not());
        // The chain's depth: 1..=5 the highest level, 6 the queen.
        let depth = col(cols::SAC_DEPTH[s]);
        f = f.filter(match kind {
            Kind::SacQ => won.and(depth.eq(lit(6u8))),
            Kind::Short => won.and(col(cols::PLIES_FEN).lt_eq(lit(2 * l))),
            Kind::BadDraws => col(gcol::RESULT)
                .eq(lit("1/2-1/2"))
                .and(col(cols::BAD_DRAW[s])),
            k => {
                let n = k as u8 + 1;
                won.and(depth.eq(lit(n)))
            }
        });
        f.select([
            col(gcol::GAME_ID),
            col(gcol::EVENT),
            col(gcol::ROUND),
            col(gcol::WHITE),
            col(gcol::BLACK),
            col(gcol::RESULT),
            col(cols::PLIES_FEN),
            col(cols::SAC_DEPTH[s]).alias("sac_depth"),
            col(cols::SAC1_PLY[s]).alias("sac1_ply"),
        ])
    };
    let df = concat(
        [side(0, gcol::WHITE, "w"), side(1, gcol::BLACK, "b")],
        UnionArgs::default(),
    )?
    .sort([gcol::GAME_ID], SortMultipleOptions::default())
    .collect()?;
    Ok(df)
}
