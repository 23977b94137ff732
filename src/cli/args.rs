//! The flags several commands share, each group defined once and converted
//! once into the library's options: selection, output, x05, bootstrap,
//! solver. A command flattens the groups it takes; errors name the flag.

use std::any::TypeId;
use std::path::{Path, PathBuf};

use clap::builder::{
    MapValueParser, PathBufValueParser, PossibleValue, PossibleValuesParser, TypedValueParser,
    ValueParserFactory,
};
use evallab::choice::Choice;
use evallab::dataset::Dataset;
use polars::prelude::DataFrame;
use std::process::ExitCode;

use evallab::metrics::x05::X05Source;
use evallab::metrics::{Field, Selection, SelectionError, check_regex};
use evallab::pipeline::FileUse;
use evallab::render::format::{self, Format};
use evallab::schema::outputs::Output;
use evallab::schema::{GAMES, MOVES};

/// clap's parser of a library [`Choice`]: its names, aliases and help as
/// the flag's possible values (`#[arg(value_parser = choice::<T>())]`).
pub fn choice<T: Choice>() -> impl TypedValueParser<Value = T> {
    PossibleValuesParser::new(T::ALL.iter().map(|v| {
        let p = PossibleValue::new(v.name()).aliases(v.aliases().iter().copied());
        if v.help().is_empty() {
            p
        } else {
            p.help(v.help())
        }
    }))
    .map(|s| T::from_name(&s).expect("clap checked the name"))
}

/// A regex option's value, compiled once to check it, so that clap's error
/// names the flag (`invalid value '(' for '--train <REGEX>'`).
pub fn regex_value(s: &str) -> Result<String, String> {
    regex::Regex::new(s)
        .map(|_| s.to_string())
        .map_err(|e| e.to_string())
}

/// A usage error (exit code 2): a bad option value or combination.
pub fn usage(msg: impl Into<String>) -> anyhow::Error {
    evallab::Error::Usage(msg.into()).into()
}

/// A file or folder the command reads: a pipeline step is stale when it changes.
#[derive(Debug, Clone, PartialEq)]
pub struct ReadPath(pub PathBuf);

/// A file or folder the command writes: a pipeline step is skipped only when
/// it exists.
#[derive(Debug, Clone, PartialEq)]
pub struct WritePath(pub PathBuf);

macro_rules! path_type {
    ($t:ident) => {
        impl std::ops::Deref for $t {
            type Target = Path;
            fn deref(&self) -> &Path {
                &self.0
            }
        }
        impl AsRef<Path> for $t {
            fn as_ref(&self) -> &Path {
                &self.0
            }
        }
        impl ValueParserFactory for $t {
            type Parser = MapValueParser<PathBufValueParser, fn(PathBuf) -> $t>;
            fn value_parser() -> Self::Parser {
                PathBufValueParser::new().map($t)
            }
        }
    };
}
path_type!(ReadPath);
path_type!(WritePath);

/// A preset's name or a file the command reads (`adjudicate --rules`): a
/// name that is no file adds nothing to a pipeline step's stamp.
#[derive(Debug, Clone, PartialEq)]
pub struct NameOrPath(pub String);

macro_rules! text_type {
    ($t:ident) => {
        impl std::ops::Deref for $t {
            type Target = str;
            fn deref(&self) -> &str {
                &self.0
            }
        }
        impl ValueParserFactory for $t {
            type Parser = MapValueParser<clap::builder::StringValueParser, fn(String) -> $t>;
            fn value_parser() -> Self::Parser {
                clap::builder::StringValueParser::new().map($t)
            }
        }
    };
}

text_type!(NameOrPath);

/// The label of an engine run in the dataset (`--analysis`, `--policy`,
/// `--label`): a pipeline step depends on the runs it names.
#[derive(Debug, Clone, PartialEq)]
pub struct RunLabel(pub String);

impl std::fmt::Display for RunLabel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

text_type!(RunLabel);

/// Whether an option names an engine run (its type says so).
pub fn names_run(arg: &clap::Arg) -> bool {
    arg.get_value_parser().type_id() == TypeId::of::<RunLabel>()
}

/// Whether an option's value is a file the command reads or writes, by its
/// type: the direction is declared once, with the option.
pub fn file_use(arg: &clap::Arg) -> Option<FileUse> {
    let t = arg.get_value_parser().type_id();
    if t == TypeId::of::<WritePath>() {
        Some(FileUse::Writes)
    } else if t == TypeId::of::<ReadPath>()
        || t == TypeId::of::<NameOrPath>()
        || t == TypeId::of::<X05Value>()
    {
        Some(FileUse::Reads)
    } else {
        None
    }
}

/// clap value parser of an interval's level: a fraction in (0, 1).
pub fn level(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v > 0.0 && v < 1.0 => Ok(v),
        _ => Err(format!("`{s}`: a level between 0 and 1, e.g. 0.95")),
    }
}

/// clap value parser of an x_0_5 in pawns: finite and > 0.
pub fn positive_pawns(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x > 0.0 && x.is_finite() => Ok(x),
        _ => Err(format!("`{s}` is not a positive number of pawns")),
    }
}

/// `--event`, the one declaration of every command's event filter.
#[derive(Debug, clap::Args)]
pub struct EventArgs {
    /// Only the games of events matching this regex (a game without an
    /// Event tag is the event ""; a regex that matches no event is an error).
    #[arg(long, value_name = "REGEX")]
    pub event: Option<String>,
}

/// Engine and event selection shared by the statistics commands.
#[derive(Debug, clap::Args)]
pub struct SelectionArgs {
    /// Keep engines whose name (after --family merging) matches this regex
    /// (one that matches no engine of the selected games is an error).
    #[arg(long, value_name = "REGEX")]
    engine: Option<String>,
    #[command(flatten)]
    events: EventArgs,
    /// Merge player names matching REGEX into NAME, e.g.
    /// `--family '^Stockfish=Stockfish'` (repeatable; first match wins; one
    /// that merges no player of the selected games is noted on stderr).
    #[arg(long, value_name = "REGEX=NAME")]
    family: Vec<String>,
}

impl SelectionArgs {
    /// The `--engine` regex, as given.
    pub fn engine(&self) -> Option<&str> {
        self.engine.as_deref()
    }

    pub fn selection(&self) -> anyhow::Result<Selection> {
        selection(self.events.event.clone(), self.engine.clone(), &self.family)
    }
}

/// A checked [`Selection`]; an error names the flag.
pub fn selection(
    event: Option<String>,
    engine: Option<String>,
    family: &[String],
) -> anyhow::Result<Selection> {
    Selection::new(event, engine, family).map_err(bad_selection)
}

/// A selection error as a usage error naming its flag (`--event: bad regex …`).
pub fn bad_selection(e: SelectionError) -> anyhow::Error {
    let flag = match e.field() {
        Field::Event => "--event",
        Field::Engine => "--engine",
        Field::Player => "--player",
        Field::Family => "--family",
    };
    usage(format!("{flag}: {e}"))
}

/// The selection against the dataset's games: a regex that matches nothing
/// is a usage error naming its flag and the nearest names, not an empty
/// table (`engine`: the flag of the engine regex, `--engine` or `--player`);
/// a family that merges no name is a note on stderr.
pub fn check_matches(ds: &Dataset, sel: &Selection, engine: Field) -> anyhow::Result<()> {
    let games = ds.scan(&GAMES)?;
    if let Some(e) = sel.unmatched(games.clone(), engine)? {
        return Err(bad_selection(e));
    }
    for e in sel.idle_families(games)? {
        eprintln!("note: --family merges nothing: {e}");
    }
    Ok(())
}

/// The `--event`/`--player` regexes of a command without a [`Selection`], checked.
pub fn check_regexes(regexes: &[(Field, Option<&str>)]) -> anyhow::Result<()> {
    for (field, re) in regexes {
        if let Some(re) = re {
            check_regex(*field, re).map_err(bad_selection)?;
        }
    }
    Ok(())
}

/// Bootstrap resampling of the games, shared by the commands with intervals.
#[derive(Debug, clap::Args)]
pub struct BootstrapArgs {
    /// Bootstrap resamples of the games for the intervals (0: none).
    #[arg(long, default_value_t = 0)]
    pub bootstrap: usize,
    /// Seed of the bootstrap (results are reproducible for a given seed).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// What every statistics command takes: the dataset, which games and
/// engines, and where the table goes. Flattened last, so `--help` lists the
/// command's own options first, then these under their headings.
#[derive(Debug, clap::Args)]
pub struct StatArgs {
    /// Dataset folder written by `evallab ingest`.
    pub dataset: PathBuf,
    #[command(flatten, next_help_heading = "Selection")]
    pub select: SelectionArgs,
    #[command(flatten, next_help_heading = "Output")]
    pub out: OutputArgs,
}

impl StatArgs {
    /// The first steps of every statistics command, in this order: the
    /// output checked (nothing is computed for an output that cannot be
    /// written), the selection's regexes checked, the dataset opened, the
    /// selection matched against its games.
    pub fn open(&self) -> anyhow::Result<(Dataset, Selection)> {
        self.out.check()?;
        let selection = self.select.selection()?;
        let ds = Dataset::open(&self.dataset)?;
        check_matches(&ds, &selection, Field::Engine)?;
        Ok((ds, selection))
    }

    /// check → open → compute → write, for a command whose result is one
    /// table, `output`.
    pub fn run(
        &self,
        output: &Output,
        compute: impl FnOnce(&Dataset, Selection) -> anyhow::Result<DataFrame>,
    ) -> anyhow::Result<ExitCode> {
        let (ds, selection) = self.open()?;
        let mut df = compute(&ds, selection)?;
        self.out.write(&mut df, output)?;
        Ok(ExitCode::SUCCESS)
    }
}

/// Output format and destination shared by the statistics commands.
#[derive(Debug, clap::Args)]
pub struct OutputArgs {
    /// Output format [default: the one -o FILE's extension names (.csv, .json,
    /// .ndjson, .parquet), else table].
    #[arg(long, value_parser = choice::<Format>())]
    pub(super) format: Option<Format>,
    /// Write to FILE instead of stdout (required for parquet).
    #[arg(short, long, value_name = "FILE")]
    pub(super) output: Option<WritePath>,
}

/// A value of `--x05`: pawns, or a file (per-engine values or a WDL model).
#[derive(Debug, Clone, PartialEq)]
pub enum X05Value {
    Pawns(f64),
    File(PathBuf),
}

impl std::fmt::Display for X05Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            X05Value::Pawns(v) => write!(f, "{v}"),
            X05Value::File(p) => write!(f, "{}", p.display()),
        }
    }
}

/// clap value parser of `--x05`: a positive number of pawns, else a file
/// (which a pipeline's earlier step may still have to write: checked when
/// read, [`X05Args::source`]).
fn x05_value(s: &str) -> Result<X05Value, String> {
    match s.parse::<f64>() {
        Ok(_) => positive_pawns(s).map(X05Value::Pawns),
        Err(_) => Ok(X05Value::File(PathBuf::from(s))),
    }
}

/// `--x05` of every x05 consumer (relevance, report, annotate, calc): one
/// option for a number, a per-engine file or a WDL model.
#[derive(Debug, clap::Args)]
pub struct X05Args {
    /// x_0_5: pawns (> 0), or a file: per-engine values of `calibrate --toml`
    /// (engines without one take the default, and stderr names them) or a WDL
    /// model of `wdl --save-model` (a position's x05 is a(its material)/100).
    #[arg(long, value_name = "PAWNS|FILE", value_parser = x05_value,
          default_value_t = X05Value::Pawns(evallab::metrics::x05::DEFAULT))]
    x05: X05Value,
}

impl X05Args {
    /// The x05 and where it comes from; a file is read here.
    pub fn source(&self) -> anyhow::Result<X05Source> {
        use evallab::metrics::x05::DEFAULT;
        Ok(match &self.x05 {
            X05Value::Pawns(v) => X05Source::fixed(*v),
            // A typo is a usage error naming the option, not an I/O one.
            X05Value::File(p) if !p.is_file() => {
                return Err(usage(format!(
                    "--x05 {}: neither a number of pawns nor a file (calibrate --toml, wdl --save-model)",
                    p.display()
                )));
            }
            X05Value::File(p) => X05Source::read(p, DEFAULT)?,
        })
    }
}

/// `--book` of every command that pairs games (pairs, opening-stats,
/// report): one option, read once here.
#[derive(Debug, clap::Args)]
pub struct BookArgs {
    /// The PGN book the match was played from (`-openings file=BOOK
    /// format=pgn`), for games whose PGN does not mark the book moves (the
    /// runners' minimal PGN): such a game's opening is a book line it reaches
    /// (a pair's: the deepest line both games reach), not the position after
    /// ply 8. Marked games keep their marks; an EPD book needs no --book (the
    /// FEN tag is the opening).
    #[arg(long, value_name = "FILE")]
    book: Option<ReadPath>,
    /// Each --book line cut after N plies, as the runner's `-openings
    /// plies=N` played it.
    #[arg(long, value_name = "N", requires = "book", value_parser = clap::value_parser!(u32).range(1..))]
    book_plies: Option<u32>,
}

impl BookArgs {
    /// The colour-swapped pairs of the selected games, with the book; stderr
    /// counts the unmarked games that reach none of its lines (a cut book).
    pub fn pairs(
        &self,
        ds: &Dataset,
        sel: &Selection,
    ) -> anyhow::Result<evallab::metrics::pairs::Paired> {
        let book = self.read()?;
        let (games, moves) = (ds.scan(&GAMES)?, ds.scan(&MOVES)?);
        let paired = evallab::metrics::pairs::pairs(games, moves, sel, book.as_ref())?;
        if paired.off_book > 0 {
            eprintln!(
                "{} games without book marks reach no line of the book: played with \
                 `-openings plies=N`? (--book-plies N)",
                paired.off_book
            );
        }
        Ok(paired)
    }

    /// The book, read; a missing file is a usage error naming the option.
    pub fn read(&self) -> anyhow::Result<Option<evallab::metrics::pairs::Book>> {
        let Some(p) = &self.book else {
            return Ok(None);
        };
        if !p.is_file() {
            return Err(usage(format!("--book {}: no such file", p.display())));
        }
        let book = evallab::metrics::pairs::Book::read(p, self.book_plies)?;
        for n in &book.notes {
            eprintln!("note: {n}");
        }
        Ok(Some(book))
    }
}

impl OutputArgs {
    /// Checks the combination before the command writes anything.
    pub fn check(&self) -> anyhow::Result<()> {
        format::check(self.format(), self.output.as_deref())?;
        Ok(())
    }

    /// Writes `df`, the table `output` declares: as a table for people its
    /// numbers rounded as declared ([`format::shown`]), else every digit.
    pub fn write(&self, df: &mut DataFrame, output: &Output) -> anyhow::Result<()> {
        let format = self.format();
        match format {
            Format::Table => format::write(
                &mut format::shown(df, output)?,
                format,
                self.output.as_deref(),
            )?,
            _ => format::write(df, format, self.output.as_deref())?,
        }
        Ok(())
    }

    /// A side table's output beside the main output file, in its format:
    /// `out.csv` → `out.SUFFIX.csv`. None when the output is stdout.
    pub fn beside(&self, suffix: &str) -> Option<OutputArgs> {
        let path = self.output.as_ref()?;
        let stem = path.file_stem()?.to_string_lossy();
        let name = match path.extension() {
            Some(ext) => format!("{stem}.{suffix}.{}", ext.to_string_lossy()),
            None => format!("{stem}.{suffix}"),
        };
        Some(OutputArgs {
            format: self.format,
            output: Some(WritePath(path.with_file_name(name))),
        })
    }

    /// The format written: `--format`, else the file's extension, else a table.
    pub fn format(&self) -> Format {
        Format::resolve(self.format, self.output.as_deref())
    }

    /// The output file's path for messages (`-` for stdout).
    pub fn path_display(&self) -> String {
        self.output
            .as_ref()
            .map_or_else(|| "-".into(), |p| p.display().to_string())
    }
}
