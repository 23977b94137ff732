//! `evallab ratings <DATASET>`: Elo ratings of all engines at once, as Ordo
//! 1.2.6 computes them.

use std::process::ExitCode;

use evallab::metrics::ratings::{RatingOptions, groups, ratings};
use evallab::schema::GAMES;

use super::args::WritePath;
use super::args::choice;
use super::args::{OutputArgs, StatArgs, usage};
use evallab::metrics::ratings::fit::Solver;
use evallab::render::format;
use evallab::schema::outputs as out;

/// Elo ratings of all engines at once, equal to Ordo 1.2.6's.
///
/// Maximum-likelihood ratings from the points (draws as half points) with
/// a logistic model (76 % at --scale Elo), the white advantage and the draw
/// rate between equal engines fitted (as `ordo -W -D`) or fixed, pool average
/// or anchor; errors, white advantage and draw rate spreads from
/// --bootstrap replays of every game (seeded), and CFS, the confidence
/// that an engine is stronger than the next one. An engine that won or lost
/// every game is rated where that had even odds. Engines the games do not
/// tie together (connectivity groups) are refused unless --each-group.
/// --engine keeps the games between two matching engines.
/// The summary (white advantage, draw rate) goes to stderr, or beside -o
/// as FILE.summary.EXT. See docs/guide/ratings.md.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The engines' average rating (Ordo's -a); with --anchor, the anchor's rating.
    #[arg(long, default_value_t = 2300.0, value_name = "ELO")]
    average: f64,
    /// Fix this engine's rating at --average (Ordo's -A; the exact name,
    /// after --family); errors are then relative to it.
    #[arg(long, value_name = "NAME")]
    anchor: Option<String>,
    /// White advantage in Elo: `auto` fits it (Ordo's -W), a number fixes
    /// it (-w; Ordo's own default is 0).
    #[arg(long, default_value = "auto", value_name = "auto|ELO", value_parser = auto_or_number)]
    white: Auto,
    /// Draw rate between equal engines in %: `auto` fits it (Ordo's -D), a
    /// number fixes it (-d; Ordo's own default is 50). It changes no rating,
    /// only the replays and the all-wins/all-losses engines.
    #[arg(long, default_value = "auto", value_name = "auto|PERCENT", value_parser = auto_or_number)]
    draw_rate: Auto,
    /// Rating difference that expects a 76 % score (Ordo's -z).
    #[arg(long, default_value_t = 202.0, value_name = "ELO")]
    scale: f64,
    /// Replays for the errors and CFS (Ordo's -s: a parametric bootstrap,
    /// each game replayed from the fitted ratings); 0: no errors. 1,000
    /// gives errors to about ±2 %. Formerly `--simulations`.
    #[arg(long, default_value_t = 1000, value_name = "N")]
    bootstrap: usize,
    /// Seed of the replays: the same seed gives the same errors.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Draw a replay again, up to N times, while an engine wins or loses
    /// all its replayed games or the replay splits into groups (as Ordo,
    /// N = 100); 0 rates every replay as drawn (a large pool, where nearly
    /// every replay has such an engine: see docs/guide/ratings.md).
    #[arg(long, default_value_t = 100, value_name = "N")]
    redraws: usize,
    /// Level of the error intervals, a fraction (Ordo's -F, in %, / 100).
    /// Formerly `--confidence PERCENT`.
    #[arg(long, default_value_t = 0.95, value_parser = super::args::level)]
    level: f64,
    /// Also write the LOS (CFS) matrix to FILE (Ordo's -C), in --format:
    /// the % confidence that the row's engine is stronger than the column's.
    #[arg(long, value_name = "FILE")]
    los_matrix: Option<WritePath>,
    /// List each engine's connectivity group instead of rating (Ordo's -g).
    #[arg(long, conflicts_with = "los_matrix")]
    groups: bool,
    /// Rate each connectivity group on its own (each on --average; with
    /// --anchor, only the anchor's group), instead of refusing.
    #[arg(long)]
    each_group: bool,
    /// How the equations are solved: `newton` to their root (fast at any
    /// size); `ordo` by Ordo 1.2.6's own search, which stops where Ordo
    /// stops, so that the white advantage, draw rate and errors equal Ordo's
    /// also where it stops short of the root (one colour never won, a large
    /// white advantage). `ordo` costs nothing on an event but is about 50×
    /// slower on a pool as large as the whole TCEC archive. See
    /// docs/guide/ratings.md.
    #[arg(long, value_parser = choice::<Solver>(), default_value_t = Solver::Newton)]
    solver: Solver,
    #[command(flatten)]
    stat: StatArgs,
}

/// `auto` or a number.
#[derive(Debug, Clone, Copy)]
enum Auto {
    Auto,
    Value(f64),
}

fn auto_or_number(s: &str) -> Result<Auto, String> {
    if s == "auto" {
        return Ok(Auto::Auto);
    }
    match s.parse::<f64>() {
        Ok(x) if x.is_finite() => Ok(Auto::Value(x)),
        _ => Err(format!("`{s}` is neither `auto` nor a number")),
    }
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let (ds, selection) = args.stat.open()?;
    if args.groups {
        let mut df = groups(ds.scan(&GAMES)?, &selection)?;
        args.stat.out.write(&mut df, &out::RATINGS_GROUPS)?;
        return Ok(ExitCode::SUCCESS);
    }
    if args.level < 0.5 {
        return Err(usage(format!(
            "--level: {} is below 0.5 (a two-sided interval's level)",
            args.level
        )));
    }
    if args.scale.is_nan() || args.scale <= 0.0 {
        return Err(usage(format!("--scale: {} is not positive", args.scale)));
    }
    let draw = match args.draw_rate {
        Auto::Auto => None,
        Auto::Value(d) if (0.0..99.9).contains(&d) => Some(d / 100.0),
        Auto::Value(d) => {
            return Err(usage(format!(
                "--draw-rate: {d} is not a percentage in [0, 99.9)"
            )));
        }
    };
    let opts = RatingOptions {
        selection,
        scale: args.scale,
        white: match args.white {
            Auto::Auto => None,
            Auto::Value(w) => Some(w),
        },
        draw,
        average: args.average,
        anchor: args.anchor.clone(),
        simulations: args.bootstrap,
        seed: args.seed,
        redraws: args.redraws,
        confidence: args.level,
        each_group: args.each_group,
        los_matrix: args.los_matrix.is_some(),
        solver: args.solver,
    };
    let mut r = ratings(ds.scan(&GAMES)?, &opts)?;
    args.stat.out.write(&mut r.ratings, &out::RATINGS)?;
    match args.stat.out.beside("summary") {
        Some(side) => side.write(&mut r.summary, &out::RATINGS_SUMMARY)?,
        None => eprintln!("{}", format::shown(&r.summary, &out::RATINGS_SUMMARY)?),
    }
    if let (Some(path), Some(los)) = (&args.los_matrix, r.los.as_mut()) {
        let side = OutputArgs {
            format: args.stat.out.format,
            output: Some(path.clone()),
        };
        side.write(los, &out::RATINGS_LOS)?;
    }
    Ok(ExitCode::SUCCESS)
}
