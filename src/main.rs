//! The `evallab` binary: parse the command line, run one subcommand, map the
//! outcome to an exit code. Everything else lives in the library.

mod cli;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    // Tables are printed whole; polars reads these when formatting. Set before
    // any thread starts, and only when the user has not chosen otherwise.
    for (k, v) in [
        ("POLARS_FMT_MAX_ROWS", "-1"),
        ("POLARS_FMT_MAX_COLS", "-1"),
        ("POLARS_FMT_STR_LEN", "60"),
        ("POLARS_TABLE_WIDTH", "10000"),
        ("POLARS_FMT_TABLE_FORMATTING", "ASCII_MARKDOWN"),
        ("POLARS_FMT_TABLE_HIDE_COLUMN_DATA_TYPES", "1"),
        ("POLARS_FMT_TABLE_HIDE_DATAFRAME_SHAPE_INFORMATION", "1"),
    ] {
        if std::env::var_os(k).is_none() {
            // SAFETY: single-threaded at this point.
            unsafe { std::env::set_var(k, v) };
        }
    }
    let args = cli::Cli::parse();
    match cli::run(args) {
        Ok(code) => code,
        Err(err) => {
            eprintln!("evallab: error: {err:#}");
            ExitCode::FAILURE
        }
    }
}
