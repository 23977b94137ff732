//! `evallab schema [TABLE]`: the table schemas, from `evallab::schema`.

use std::process::ExitCode;

use evallab::schema::{self, ALL_TABLES, DERIVED_TABLES};

/// Print the column schemas of the dataset tables.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Only this table (games, moves, rejects, analysis, analysis_failures,
    /// eas_labels, relevance_moves).
    table: Option<String>,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let tables: Vec<_> = match &args.table {
        Some(name) => match schema::table(name) {
            Some(t) => vec![t],
            None => {
                let names: Vec<_> = ALL_TABLES
                    .iter()
                    .chain(&DERIVED_TABLES)
                    .map(|t| t.name)
                    .collect();
                return Err(super::usage(format!(
                    "unknown table `{name}`; tables: {}",
                    names.join(", ")
                )));
            }
        },
        None => ALL_TABLES.into_iter().chain(DERIVED_TABLES).collect(),
    };
    outln!("schema version {}", schema::SCHEMA_VERSION);
    for t in tables {
        outln!("\n{}: {}", t.name, t.doc);
        let width = t.columns.iter().map(|c| c.name.len()).max().unwrap_or(0);
        let tw = t
            .columns
            .iter()
            .map(|c| c.ty.name().len())
            .max()
            .unwrap_or(0)
            .max(4);
        for c in t.columns {
            let null = if c.nullable { "?" } else { " " };
            outln!("  {:width$}  {:>tw$}{null}  {}", c.name, c.ty.name(), c.doc);
        }
    }
    Ok(ExitCode::SUCCESS)
}
