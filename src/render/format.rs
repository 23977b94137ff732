//! Writing a result frame as a table, CSV, JSON, NDJSON or Parquet, to stdout
//! or a file (through the commit protocol, [`crate::dataset::commit`]).

use std::io::{self, Write};
use std::path::Path;

use polars::prelude::*;

use crate::Error;
use crate::dataset::commit;
use crate::schema::outputs::Output;

/// Output format of a result frame (`--format`: table, csv, json, ndjson, parquet).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    #[default]
    Table,
    Csv,
    Json,
    Ndjson,
    Parquet,
}

impl crate::choice::Choice for Format {
    const ALL: &'static [Self] = &[
        Format::Table,
        Format::Csv,
        Format::Json,
        Format::Ndjson,
        Format::Parquet,
    ];
    fn name(self) -> &'static str {
        match self {
            Format::Table => "table",
            Format::Csv => "csv",
            Format::Json => "json",
            Format::Ndjson => "ndjson",
            Format::Parquet => "parquet",
        }
    }
    fn help(self) -> &'static str {
        match self {
            Format::Table => "Aligned text table for people",
            Format::Csv => "Comma-separated values with a header line",
            Format::Json => "One JSON array of row objects",
            Format::Ndjson => "One JSON object per line",
            Format::Parquet => "Apache Parquet (needs an output file)",
        }
    }
}
crate::display_choice!(Format);

impl Format {
    /// The format a file's name asks for: `.csv`, `.json`, `.ndjson` (or
    /// `.jsonl`), `.parquet` (or `.pq`), any case; `None` for any other name.
    pub fn of_path(path: &Path) -> Option<Format> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        Some(match ext.as_str() {
            "csv" => Format::Csv,
            "json" => Format::Json,
            "ndjson" | "jsonl" => Format::Ndjson,
            "parquet" | "pq" => Format::Parquet,
            _ => return None,
        })
    }

    /// The format of an output: the one given (`--format`), else the one
    /// its file's name asks for, else a table. `-o st.csv` writes CSV, as
    /// a user who names the file so expects (it wrote an aligned text table).
    pub fn resolve(given: Option<Format>, path: Option<&Path>) -> Format {
        given
            .or_else(|| path.and_then(Format::of_path))
            .unwrap_or_default()
    }
}

/// Whether `format` can go to `path` (Parquet needs a file): commands check
/// this before they write anything.
pub fn check(format: Format, path: Option<&Path>) -> Result<(), Error> {
    if format == Format::Parquet && path.is_none() {
        return Err(Error::Usage("--format parquet needs -o FILE".into()));
    }
    Ok(())
}

/// Writes `df` in `format` to `path`, or to stdout when `path` is `None`;
/// a table grouped by event or engine with its names in number order
/// ([`super::order::in_natural_order`]).
pub fn write(df: &mut DataFrame, format: Format, path: Option<&Path>) -> Result<(), Error> {
    check(format, path)?;
    let df = &mut super::order::in_natural_order(df)?;
    match path {
        None => {
            // Rendered first, so that a closed stdout surfaces as one io error
            // (BrokenPipe, exit 0) rather than inside a polars writer.
            let mut buf = Vec::new();
            write_to(df, format, &mut buf)?;
            let stdout = Path::new("<stdout>");
            let mut out = io::stdout().lock();
            out.write_all(&buf).map_err(|e| Error::io(stdout, e))?;
            out.flush().map_err(|e| Error::io(stdout, e))
        }
        Some(path) => commit::write_with(path, |f| write_to(df, format, f)),
    }
}

/// `df` as people read it in a table (`--format table`): each float column
/// as the report shows it ([`crate::schema::outputs::Quantity::format`]: the decimals its output
/// declares, `0.4110`, not `0.411`; not a number a dash), a whole number (0
/// decimals) as an integer (`54.2 %`, not `54.166667`). The other formats
/// keep every digit.
pub fn shown(df: &DataFrame, output: &Output) -> Result<DataFrame, Error> {
    let mut out = df.clone();
    for c in df.columns().iter().filter(|c| c.dtype().is_float()) {
        let Some(q) = output.get(c.name()) else {
            continue;
        };
        let values = c.cast(&DataType::Float64)?;
        let column = match q.digits {
            0 => values
                .as_materialized_series()
                .round(0, RoundMode::default())?
                .cast(&DataType::Int64)?
                .into_column(),
            _ => values
                .f64()?
                .iter()
                .map(|v| v.map(|x| q.format(x)))
                .collect::<StringChunked>()
                .with_name(c.name().clone())
                .into_column(),
        };
        out.with_column(column)?;
    }
    Ok(out)
}

/// Cells up to which polars lays out `--format table` (its layout costs
/// about 1 KB a cell: 10 GB for the whole TCEC archive's `crosstable
/// --wide`, 5,091 × 2,050); a larger frame is written by [`write_rows`].
const LAYOUT_CELLS: usize = 200_000;

/// polars' table as `main` sets it up (ASCII_MARKDOWN, every row and column,
/// no types), in two passes over the frame, memory bounded by its columns:
/// the widths, then the rows. A text is cut at `POLARS_FMT_STR_LEN`
/// characters and `...`, and a row stays one line: polars' table layout
/// (comfy-table) sometimes cuts with `…` and wraps cells past
/// `POLARS_TABLE_WIDTH`. On the whole TCEC archive, with the threshold at 0,
/// 24 of 28 commands' tables were byte-equal to polars'; the others differed
/// only in those cuts.
fn write_rows<W: Write>(df: &DataFrame, out: &mut W) -> Result<(), Error> {
    let limit = std::env::var("POLARS_FMT_STR_LEN")
        .ok()
        .and_then(|s| s.parse::<usize>().ok())
        .unwrap_or(30);
    let cut = |s: &str| match s.char_indices().nth(limit) {
        Some((end, _)) => format!("{}...", &s[..end]),
        None => s.to_string(),
    };
    let columns = df.columns();
    let cell = |c: &Column, i: usize| -> Result<String, Error> { Ok(cut(&c.get(i)?.str_value())) };
    let header: Vec<String> = columns.iter().map(|c| cut(c.name())).collect();
    let mut widths: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for (w, c) in widths.iter_mut().zip(columns) {
        for i in 0..df.height() {
            *w = (*w).max(cell(c, i)?.chars().count());
        }
    }
    write_row(out, &widths, &header)?;
    let rule: String = widths
        .iter()
        .map(|w| format!("|{}", "-".repeat(w + 2)))
        .collect();
    writeln!(out, "{rule}|").map_err(output_error)?;
    for i in 0..df.height() {
        let cells = columns
            .iter()
            .map(|c| cell(c, i))
            .collect::<Result<Vec<String>, Error>>()?;
        write_row(out, &widths, &cells)?;
    }
    Ok(())
}

/// `| a   | b |`: each text left-aligned in its column's width.
fn write_row<W: Write>(out: &mut W, widths: &[usize], texts: &[String]) -> Result<(), Error> {
    let mut s = String::new();
    for (text, w) in texts.iter().zip(widths) {
        s.push_str("| ");
        s.push_str(text);
        s.extend(std::iter::repeat_n(' ', w - text.chars().count() + 1));
    }
    s.push_str("|\n");
    out.write_all(s.as_bytes()).map_err(output_error)
}

/// A failed write of the rendered output (a file or stdout).
fn output_error(e: io::Error) -> Error {
    Error::io(Path::new("<output>"), e)
}

/// Writes a text file through the commit protocol.
pub fn write_text(path: &Path, text: &str) -> Result<(), Error> {
    commit::write_bytes(path, text.as_bytes())
}

fn write_to<W: Write>(df: &mut DataFrame, format: Format, out: &mut W) -> Result<(), Error> {
    match format {
        Format::Table if df.height() * df.width() <= LAYOUT_CELLS => {
            writeln!(out, "{df}").map_err(output_error)?;
        }
        Format::Table => write_rows(df, out)?,
        Format::Csv => CsvWriter::new(out).include_header(true).finish(df)?,
        Format::Json => JsonWriter::new(out)
            .with_json_format(JsonFormat::Json)
            .finish(df)?,
        Format::Ndjson => JsonWriter::new(out)
            .with_json_format(JsonFormat::JsonLines)
            .finish(df)?,
        Format::Parquet => {
            ParquetWriter::new(out).finish(df)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each declared float column at its declared decimals (Elo whole, the
    /// score in % to one decimal, its trailing zero kept, no `-0.0`, a NaN
    /// rating as null), the rest as it was.
    #[test]
    fn a_table_for_people_is_rounded_as_its_output_declares() {
        use crate::schema::outputs::RATINGS;
        let df = df!(
            "engine" => ["a", "b", "c", "d"],
            "rating" => [2783.49, f64::NAN, 2783.5, -0.4],
            "score_pct" => [94.69697, 54.25, 50.0, -0.04],
            "not_declared" => [0.123456, 1.0, 2.0, 3.0],
        )
        .unwrap();
        let shown = shown(&df, &RATINGS).unwrap();
        let want = df!(
            "engine" => ["a", "b", "c", "d"],
            "rating" => [Some(2783i64), None, Some(2784), Some(0)],
            "score_pct" => ["94.7", "54.2", "50.0", "0.0"],
            "not_declared" => [0.123456, 1.0, 2.0, 3.0],
        )
        .unwrap();
        assert!(shown.equals_missing(&want), "{shown}");
    }

    /// The format from the file name's extension unless one is given; no
    /// file (stdout) and an unknown extension: the table.
    #[test]
    fn a_file_name_picks_the_format_unless_one_is_given() {
        let r = |given, p: &str| Format::resolve(given, Some(Path::new(p)));
        assert_eq!(r(None, "st.csv"), Format::Csv);
        assert_eq!(r(None, "dir.v2/St.PARQUET"), Format::Parquet);
        assert_eq!(r(None, "a.pq"), Format::Parquet);
        assert_eq!(r(None, "a.jsonl"), Format::Ndjson);
        assert_eq!(r(None, "a.json"), Format::Json);
        assert_eq!(r(None, "a.txt"), Format::Table);
        assert_eq!(r(None, "csv"), Format::Table);
        assert_eq!(r(Some(Format::Table), "st.csv"), Format::Table);
        assert_eq!(Format::resolve(None, None), Format::Table);
        assert_eq!(Format::resolve(Some(Format::Json), None), Format::Json);
    }

    /// Widths from the longest text (the header's too), left-aligned, a
    /// null as `null`, a long text cut at 30 characters (polars' default
    /// when `POLARS_FMT_STR_LEN` is unset) with `...`: written out by hand.
    #[test]
    fn rows_are_written_as_polars_lays_them_out() {
        let long = "abcdefghijklmnopqrstuvwxyz0123456789";
        let df = df!(
            "name" => ["x", long],
            "n" => [Some(1i64), None],
            "f" => [0.5f64, 12.25],
        )
        .unwrap();
        let mut out = Vec::new();
        write_rows(&df, &mut out).unwrap();
        let want = [
            format!("| name{} | n    | f     |", " ".repeat(29)),
            format!("|{}|------|-------|", "-".repeat(35)),
            format!("| x{} | 1    | 0.5   |", " ".repeat(32)),
            "| abcdefghijklmnopqrstuvwxyz0123... | null | 12.25 |".to_string(),
        ];
        assert_eq!(String::from_utf8(out).unwrap(), want.join("\n") + "\n");
    }
}
