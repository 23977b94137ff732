//! The `evallab` binary: parse the command line, run one subcommand, map the
//! outcome to an exit code (one per error kind: [`evallab::error`]).
//! Everything else lives in the library.

mod cli;

use std::process::ExitCode;

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
    let args = cli::parse();
    match cli::run(args) {
        Ok(code) => code,
        // The reader of our output has gone (`evallab schema | head -1`):
        // nothing is wrong, as ripgrep and the coreutils see it.
        Err(err) if broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("evallab: error: {err:#}");
            let kind = err.chain().find_map(|e| e.downcast_ref::<evallab::Error>());
            ExitCode::from(kind.map_or(1, evallab::Error::exit_code))
        }
    }
}

fn broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        e.downcast_ref::<evallab::Error>()
            .is_some_and(evallab::Error::is_broken_pipe)
            || e.downcast_ref::<std::io::Error>()
                .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
