//! Writing a result frame as a table, CSV, JSON, NDJSON or Parquet, to stdout
//! or a file (through the commit protocol, [`crate::dataset::commit`]).

use std::io::{self, Write};
use std::path::Path;

use polars::prelude::*;

use crate::Error;
use crate::dataset::commit;

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

/// Whether `format` can go to `path` (Parquet needs a file): commands check
/// this before they write anything.
pub fn check(format: Format, path: Option<&Path>) -> Result<(), Error> {
    if format == Format::Parquet && path.is_none() {
        return Err(Error::Usage("--format parquet needs -o FILE".into()));
    }
    Ok(())
}

/// Writes `df` in `format` to `path`, or to stdout when `path` is `None`.
pub fn write(df: &mut DataFrame, format: Format, path: Option<&Path>) -> Result<(), Error> {
    check(format, path)?;
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

/// Writes a text file through the commit protocol.
pub fn write_text(path: &Path, text: &str) -> Result<(), Error> {
    commit::write_bytes(path, text.as_bytes())
}

fn write_to<W: Write>(df: &mut DataFrame, format: Format, out: &mut W) -> Result<(), Error> {
    match format {
        Format::Table => {
            writeln!(out, "{df}").map_err(|e| Error::io(Path::new("<output>"), e))?;
        }
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
