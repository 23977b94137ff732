//! Writing a result frame as a table, CSV, JSON, NDJSON or Parquet, to stdout
//! or a file (files are written to a temp name and renamed into place).

use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use polars::prelude::*;

use crate::Error;

/// Output format of a result frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    /// Aligned text table for people.
    #[default]
    Table,
    Csv,
    /// One JSON array of row objects.
    Json,
    /// One JSON object per line.
    Ndjson,
    Parquet,
}

impl std::str::FromStr for Format {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        Ok(match s {
            "table" => Format::Table,
            "csv" => Format::Csv,
            "json" => Format::Json,
            "ndjson" => Format::Ndjson,
            "parquet" => Format::Parquet,
            _ => {
                return Err(format!(
                    "unknown format `{s}`: table, csv, json, ndjson, parquet"
                ));
            }
        })
    }
}

/// Writes `df` in `format` to `path`, or to stdout when `path` is `None`.
pub fn write(df: &mut DataFrame, format: Format, path: Option<&Path>) -> Result<(), Error> {
    match path {
        None => {
            if format == Format::Parquet {
                return Err(Error::Input("--format parquet needs -o FILE".into()));
            }
            let stdout = io::stdout();
            let mut out = stdout.lock();
            write_to(df, format, &mut out)?;
            out.flush().map_err(|e| Error::io(Path::new("<stdout>"), e))
        }
        Some(path) => {
            ensure_parent(path)?;
            let tmp = tmp_name(path);
            let mut f = File::create(&tmp).map_err(|e| Error::io(&tmp, e))?;
            write_to(df, format, &mut f)?;
            f.sync_all().map_err(|e| Error::io(&tmp, e))?;
            std::fs::rename(&tmp, path).map_err(|e| Error::io(path, e))
        }
    }
}

/// Writes a text file atomically (temp name, then rename).
pub fn write_text(path: &Path, text: &str) -> Result<(), Error> {
    ensure_parent(path)?;
    let tmp = tmp_name(path);
    std::fs::write(&tmp, text).map_err(|e| Error::io(&tmp, e))?;
    std::fs::rename(&tmp, path).map_err(|e| Error::io(path, e))
}

/// Creates the folder a file goes into.
pub fn ensure_parent(path: &Path) -> Result<(), Error> {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => {
            std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))
        }
        _ => Ok(()),
    }
}

/// A hidden temp name beside `path`.
pub fn tmp_name(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map_or("out".into(), |n| n.to_string_lossy().into_owned());
    path.with_file_name(format!(".{name}.tmp"))
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
