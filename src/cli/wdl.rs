//! `evallab wdl <DATASET>`: eval → win/draw/loss models fitted as
//! Stockfish's WDL_model fits them, per group, and their validation on game
//! results out of sample.

use std::process::ExitCode;

use evallab::metrics::wdl::{self, Fitting, Group, Options, Settings, Solver, validate};
use evallab::render::{format, plot};
use evallab::schema::outputs as out;
use evallab::schema::{GAMES, MOVES};

use super::args::WritePath;
use super::args::choice;
use super::args::{StatArgs, regex_value, usage};

/// Fit Stockfish's WDL model: win rate by eval and material, per group.
///
/// Counts every move's eval (the mover's, before the move: its material
/// 9Q+5R+3B+3N+P and move number) against the game's result as Stockfish's
/// WDL_model (scoreWDLstat) counts a PGN, and fits win(x) = 1/(1+exp(−(x−a)/b)),
/// loss(x) = win(−x), with a and b cubic in material/58, as scoreWDL.py does.
/// a(m) is the eval (cp) at which half of the games are won: x_0_5 = a/100
/// pawns, as it varies with the material. Pooled over the selection by
/// default; --by fits each group, leaning on the pooled fit as on
/// --prior-positions more positions. --validate scores this and the seed's
/// models on game results out of sample (docs/guide/wdl.md).
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  evallab wdl ds                                  pooled fit, one row\n  evallab wdl ds --by engine --bootstrap 200      per engine, 95 % intervals of a and b\n  evallab wdl ds --by event,engine --prior-positions 0\n                                                  each group alone, without the pool\n  evallab wdl ds --counts-json counts.json        scoreWDLstat's JSON, for scoreWDL.py\n  evallab wdl ds --validate --train 'Season ([1-9]|1[0-9]|20) ' --test 'Season (2[1-9]) '\n  evallab wdl ds --validate --split games --train 'Season 2[1-9] '\n                                                  within those events: half the games each"
)]
pub struct Args {
    /// One fit over the selection (all), or one per group.
    #[arg(long, value_parser = choice::<Group>(), default_value_t = Group::All)]
    by: Group,
    /// How the coefficients are fitted (WDL_model's --modelFitting).
    #[arg(long, value_parser = choice::<Fitting>(), default_value_t = Fitting::OptimizeProbability)]
    fitting: Fitting,
    /// How optimizeProbability and optimizeScore minimise: as WDL_model
    /// (powell, its coefficients) or to the minimum (newton).
    #[arg(long, value_parser = choice::<Solver>(), default_value_t = Solver::Powell)]
    solver: Solver,
    /// The polynomials are in material / this (WDL_model's --momTarget);
    /// a_target and b_target are a and b there.
    #[arg(long, default_value_t = 58, value_parser = clap::value_parser!(i32).range(1..=78))]
    mom_target: i32,
    /// Fit positions with at least this material (--materialMin).
    #[arg(long, default_value_t = 17, value_parser = clap::value_parser!(i32).range(0..=78))]
    material_min: i32,
    /// Fit positions with at most this material (--materialMax).
    #[arg(long, default_value_t = 78, value_parser = clap::value_parser!(i32).range(0..=200))]
    material_max: i32,
    /// Fit positions from this full move on (--moveMin).
    #[arg(long, default_value_t = 1)]
    move_min: i32,
    /// Fit positions up to this full move (--moveMax; moves after 200 are never counted).
    #[arg(long, default_value_t = 120)]
    move_max: i32,
    /// Fit evals up to this many centipawns either way (--evalMax).
    #[arg(long, default_value_t = 400, value_parser = clap::value_parser!(i32).range(1..=1000))]
    eval_max: i32,
    /// A material value with fewer wins gets no local fit (--winMin).
    #[arg(long, default_value_t = 10)]
    win_min: u32,
    /// Evals are rounded to this many centipawns (scoreWDLstat --binWidth).
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(i32).range(1..=100))]
    bin_width: i32,
    /// A group with fewer positions in the fit's window gets no fit (a reason instead).
    #[arg(long, default_value_t = 1000)]
    min_positions: u64,
    /// With --by: each group's fit counts the pooled selection as this many
    /// positions beside its own (a prior centred on the pooled fit; at most
    /// the pool's own number), so a small group leans on the pool and a large
    /// one on its own data; 0: each group alone. --fitting fit-density has no objective to add it to: its
    /// groups are fitted alone.
    #[arg(long, default_value_t = wdl::PRIOR_POSITIONS as u64)]
    prior_positions: u64,
    #[command(flatten)]
    resample: super::args::BootstrapArgs,
    /// Level of the bootstrap intervals, in (0, 1).
    #[arg(long, default_value_t = 0.95, value_parser = super::args::level)]
    level: f64,
    /// Also write the counts as scoreWDLstat's JSON (every group together), for scoreWDL.py.
    #[arg(long, value_name = "FILE")]
    counts_json: Option<WritePath>,
    /// Also write the pooled model (`--by all`) as JSON, for `--x05 FILE` of
    /// relevance, report, annotate and calc: a position's x05 is then
    /// a(its material)/100.
    #[arg(long, value_name = "FILE")]
    save_model: Option<WritePath>,
    /// Also draw the observed win and draw rates by eval with the fitted
    /// curves, and a, b by material (.svg or .png; the first 4 groups).
    #[arg(long, value_name = "FILE")]
    plot: Option<WritePath>,
    /// Instead of the fits: score the WDL model and the seed's x05 curves on
    /// the --test events' positions, fitted on the --train events' (standard
    /// games, cp evals); the reliability table goes beside the output.
    #[arg(long, requires = "train")]
    validate: bool,
    /// --validate: test on other events (--test) or on the other half of the
    /// --train events' games.
    #[arg(long, value_parser = choice::<validate::Split>(), default_value_t = validate::Split::Events, requires = "validate")]
    split: validate::Split,
    /// --validate: the training events (regex).
    #[arg(long, value_name = "REGEX", requires = "validate", value_parser = regex_value)]
    train: Option<String>,
    /// --validate: the test events (regex; a match here wins over --train).
    #[arg(long, value_name = "REGEX", requires = "validate", value_parser = regex_value)]
    test: Option<String>,
    /// --validate: an engine's own WDL model needs this many training positions.
    #[arg(long, default_value_t = 20_000, requires = "validate")]
    min_engine_positions: u64,
    #[command(flatten)]
    stat: StatArgs,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if args.material_min >= args.material_max {
        return Err(usage("--material-min must be below --material-max"));
    }
    if !(args.material_min..=args.material_max).contains(&args.mom_target) {
        return Err(usage(
            "--mom-target must lie between --material-min and --material-max",
        ));
    }
    if args.move_min > args.move_max {
        return Err(usage("--move-min must not exceed --move-max"));
    }
    if args.save_model.is_some() && !matches!(args.by, Group::All) {
        return Err(usage(
            "--save-model saves the pooled model: use it with --by all",
        ));
    }
    if let Some(path) = &args.plot {
        plot::check_path(path)?;
    }
    let settings = Settings {
        fitting: args.fitting,
        solver: args.solver,
        mom_target: args.mom_target,
        material_min: args.material_min,
        material_max: args.material_max,
        move_min: args.move_min,
        move_max: args.move_max,
        eval_max: args.eval_max,
        win_min: f64::from(args.win_min),
    };
    let (ds, selection) = args.stat.open()?;
    if args.validate {
        match (args.split, &args.test) {
            (validate::Split::Events, None) => {
                return Err(usage(
                    "--validate needs --test (the test events), or --split games",
                ));
            }
            (validate::Split::Games, Some(_)) => {
                return Err(usage(
                    "--split games tests on the other half of the --train events' games: drop --test",
                ));
            }
            _ => {}
        }
        let opts = validate::Options {
            train: args.train.unwrap_or_default(),
            test: args.test.unwrap_or_default(),
            split: args.split,
            seed: args.resample.seed,
            selection,
            settings,
            bin_width: args.bin_width,
            min_engine_positions: args.min_engine_positions as f64,
            prior_positions: args.prior_positions as f64,
            default_x05: evallab::metrics::x05::DEFAULT,
        };
        let v = validate::validate(ds.scan(&GAMES)?, ds.scan(&MOVES)?, &opts)?;
        eprintln!(
            "trained on {} positions of {} games, scored on {} positions of {} games",
            v.train_positions, v.train_games, v.test_positions, v.test_games
        );
        args.stat.out.write(&mut v.table()?, &out::WDL_VALIDATION)?;
        // Beside -o as FILE.reliability.EXT, else on stderr (as the ratings'
        // summary): a second table on stdout broke a CSV reader's one table.
        match args.stat.out.beside("reliability") {
            Some(side) => side.write(&mut v.reliability_table()?, &out::WDL_RELIABILITY)?,
            None => eprintln!(
                "{}",
                format::shown(&v.reliability_table()?, &out::WDL_RELIABILITY)?
            ),
        }
        return Ok(ExitCode::SUCCESS);
    }
    let shown = super::progress::Shared::new("fits");
    let opts = Options {
        group: args.by,
        selection,
        settings,
        bin_width: args.bin_width,
        min_positions: args.min_positions as f64,
        prior_positions: args.prior_positions as f64,
        bootstrap: args.resample.bootstrap,
        seed: args.resample.seed,
        level: args.level,
        progress: shown.ticker("fitted"),
    };
    let fitted = wdl::wdl(ds.scan(&GAMES)?, ds.scan(&MOVES)?, &opts)?;
    shown.finish();
    if let Some(path) = &args.counts_json {
        evallab::render::format::write_text(path, &fitted.counts_json())?;
    }
    // The table first: a plot or model that cannot be made (no group has a
    // fit) fails the command after the table has said why.
    args.stat.out.write(&mut fitted.table()?, &out::WDL)?;
    if let Some(path) = &args.plot {
        plot::wdl(&fitted, path)?;
    }
    if let Some(path) = &args.save_model {
        match &fitted.groups[0].fit {
            Ok(f) => f.model.save(path)?,
            Err(e) => {
                return Err(
                    evallab::Error::InputData(format!("--save-model: no model: {e}")).into(),
                );
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
