//! `evallab calc`: the relevance math of metrics.md §2 at the command line, for
//! quick checks: scheme boundaries, rr between two evals, P(x), the inverse.

use std::process::ExitCode;

use evallab::metrics::relevance::math::{
    cumulative, prob_exp, prob_sigmoid, relevance, rr, total_area,
};
use evallab::metrics::relevance::symbols::{
    MoveScheme, MoveSymbol, PositionScheme, classify_move, classify_position, inverse,
    move_thresholds, position_boundaries,
};

/// Relevance-reduction calculator: boundaries, differences, P(x), inverse.
///
/// Relevance-reduction calculator: boundaries of every NAG scheme (--limits),
/// the relevance-reduced difference between two evals (--from/--to), P(x) and
/// the position symbols of one eval (--eval), or the eval that earns a move
/// symbol against an alternative (--inverse X_OLD SYMBOL --move-scheme S).
#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("what").required(true).args(["limits", "from", "eval", "inverse"])))]
// calc has no engine to look up: the shared help's per-engine file is none of its.
#[command(mut_arg("x05", |a| a.help("x_0_5: pawns (> 0), or a WDL model of `wdl --save-model` (its a(--material)/100)")))]
pub struct Args {
    #[command(flatten)]
    x05: super::args::X05Args,
    /// With a WDL model as --x05: the material (9Q+5R+3B+3N+P, both sides)
    /// whose a(material)/100 is the x05.
    #[arg(long, default_value_t = 58, value_parser = clap::value_parser!(u32).range(0..=200))]
    material: u32,
    /// Print every scheme's position boundaries and move thresholds.
    #[arg(long)]
    limits: bool,
    /// Eval before (pawns, mover POV), with --to.
    #[arg(long, requires = "to", allow_negative_numbers = true)]
    from: Option<f64>,
    /// Eval after (pawns, mover POV), with --from.
    #[arg(long, requires = "from", allow_negative_numbers = true)]
    to: Option<f64>,
    /// One eval (pawns, White POV): relevance, C, P and the position symbols.
    #[arg(long, allow_negative_numbers = true)]
    eval: Option<f64>,
    /// X_OLD SYMBOL: the eval that earns SYMBOL (!?, !, !!, ?!, ?, ??) against X_OLD.
    #[arg(long, num_args = 2, value_names = ["X_OLD", "SYMBOL"], allow_negative_numbers = true, requires = "move_scheme")]
    inverse: Option<Vec<String>>,
    /// Move symbols for --inverse: econ7, econ8, gen20, gen12 (as `annotate
    /// --move-scheme`).
    #[arg(long)]
    move_scheme: Option<MoveScheme>,
}

fn symbol(s: &str) -> anyhow::Result<MoveSymbol> {
    MoveSymbol::ALL
        .into_iter()
        .find(|m| m.glyph() == s)
        .ok_or_else(|| {
            super::args::usage(format!(
                "unknown move symbol `{s}`: use !?, !, !!, ?!, ?, ??"
            ))
        })
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    let source = a.x05.source()?;
    let x05 = match &source.x05.model {
        Some(m) => {
            let v = m.a(f64::from(a.material)) / 100.0;
            if !(v > 0.0 && v.is_finite()) {
                return Err(super::args::usage(format!(
                    "the WDL model's a({})/100 = {v} is not a positive x05",
                    a.material
                )));
            }
            outln!("WDL model {}: x05 = a({})/100", source.file, a.material);
            v
        }
        None if source.x05.per_engine.is_empty() => source.x05.default,
        None => {
            return Err(super::args::usage(
                "--x05: calc takes pawns or a WDL model (wdl --save-model), not a per-engine file",
            ));
        }
    };
    outln!(
        "x05 = {x05} pawns; total area 2·x05/ln 2 = {:.6}",
        total_area(x05)
    );
    if a.limits {
        outln!(
            "\nposition boundaries (White POV; Black's are the negatives; a value on a boundary takes the outer symbol):"
        );
        for s in PositionScheme::ALL {
            let b: Vec<String> = position_boundaries(s, x05)
                .into_iter()
                .map(|(x, sym)| format!("{} from {x:.4}", sym.glyph()))
                .collect();
            outln!("  {:<12} = below the first | {}", s.name(), b.join(" | "));
        }
        outln!("\nmove thresholds on |rr| (pawns), and the eval earning the symbol against 0.00:");
        outln!(
            "  {:<7} {:>9} {:>9} {:>9}   {:>9} {:>9} {:>9}",
            "scheme",
            "!? ?!",
            "! ?",
            "!! ??",
            "x(!?)",
            "x(!)",
            "x(!!)"
        );
        for s in MoveScheme::ALL {
            let t = move_thresholds(s, x05);
            let inv = |m| inverse(0.0, m, s, x05).map_or("-".into(), |v| format!("{v:.4}"));
            outln!(
                "  {:<7} {:>9.4} {:>9.4} {:>9.4}   {:>9} {:>9} {:>9}",
                s.name(),
                t[0],
                t[1],
                t[2],
                inv(MoveSymbol::Speculative),
                inv(MoveSymbol::Good),
                inv(MoveSymbol::Brilliant)
            );
        }
    }
    if let (Some(from), Some(to)) = (a.from, a.to) {
        let d = rr(from, to, x05);
        outln!(
            "\nrr({from}, {to}) = {d:.6} (raw difference {:.6})",
            to - from
        );
        for s in MoveScheme::ALL {
            let sym = classify_move(d, s, x05).map_or("(none)", |m| m.glyph());
            outln!("  {:<7} {sym}", s.name());
        }
    }
    if let Some(x) = a.eval {
        outln!(
            "\nf({x}) = {:.6}  C({x}) = {:.6}  P({x}) = {:.6}  P_sigmoid({x}) = {:.6}",
            relevance(x, x05),
            cumulative(x, x05),
            prob_exp(x, x05),
            prob_sigmoid(x, x05)
        );
        for s in PositionScheme::ALL {
            let p = classify_position(x, s, x05);
            outln!("  {:<12} {} (${})", s.name(), p.glyph(), p.nag());
        }
    }
    if let Some(v) = &a.inverse {
        let x_old: f64 = v[0]
            .parse()
            .map_err(|_| super::args::usage(format!("X_OLD `{}` is not a number", v[0])))?;
        let sym = symbol(&v[1])?;
        let scheme = a
            .move_scheme
            .expect("clap: --inverse requires --move-scheme");
        match inverse(x_old, sym, scheme, x05) {
            Some(x) => outln!(
                "\n{} against {x_old} in {}: x_new = {x:.6}",
                sym.glyph(),
                scheme.name()
            ),
            None => outln!(
                "\n{} against {x_old} in {}: no eval earns it",
                sym.glyph(),
                scheme.name()
            ),
        }
    }
    Ok(ExitCode::SUCCESS)
}
