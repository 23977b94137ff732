//! A table's Parquet part, written through the commit protocol with the
//! schema version in its metadata: the one Parquet writer of every table that
//! goes into a dataset's manifest (ingest's base tables, analyze's tables).

use std::fs::File;
use std::path::Path;

use arrow::record_batch::RecordBatch;
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression, Encoding, ZstdLevel};
use parquet::file::metadata::KeyValue;
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::schema::types::ColumnPath;

use crate::Error;
use crate::dataset::commit::Staged;
use crate::dataset::part_file;
use crate::schema::{ColType, SCHEMA_VERSION, SCHEMA_VERSION_KEY, TOOL_VERSION_KEY, Table, col};

/// A table's part being written: committed (renamed into place, still
/// unlisted) when the whole run succeeded, removed otherwise.
pub struct PartWriter {
    staged: Staged,
    arrow: ArrowWriter<File>,
}

impl PartWriter {
    pub fn create(root: &Path, table: &Table, part: u32) -> Result<PartWriter, Error> {
        PartWriter::create_at(&root.join(part_file(table, part)), table)
    }

    /// A part of `table` at `dst` (a shard's staging folder, see
    /// [`crate::dataset::shard`]).
    pub fn create_at(dst: &Path, table: &Table) -> Result<PartWriter, Error> {
        let (staged, file) = Staged::create(dst)?;
        let arrow = ArrowWriter::try_new(file, table.arrow_schema(), Some(properties(table)?))?;
        Ok(PartWriter { staged, arrow })
    }

    /// Appends rows.
    pub fn write(&mut self, batch: &RecordBatch) -> Result<(), Error> {
        Ok(self.arrow.write(batch)?)
    }

    pub fn commit(self) -> Result<(), Error> {
        let file = self.arrow.into_inner()?;
        self.staged.commit(file)
    }
}

/// How every part of `table` is encoded and compressed (public for the
/// benches, which write the same bytes to memory).
pub fn properties(table: &Table) -> Result<WriterProperties, Error> {
    let mut props = WriterProperties::builder()
        // Level 1: the PV text dominates and level 3 costs much more time for a
        // few percent of size.
        .set_compression(Compression::ZSTD(ZstdLevel::try_new(1)?))
        .set_max_row_group_row_count(Some(128 * 1024))
        .set_key_value_metadata(Some(vec![
            KeyValue::new(SCHEMA_VERSION_KEY.into(), SCHEMA_VERSION.to_string()),
            KeyValue::new(
                TOOL_VERSION_KEY.into(),
                env!("CARGO_PKG_VERSION").to_string(),
            ),
        ]));
    // Dictionaries pay only for the few columns with a handful of values; for
    // the rest (PV, SAN, UCI, eval text …) hashing every value cost an eighth
    // of the ingest's CPU time, and zstd compresses their pages well without one.
    props = props.set_dictionary_enabled(false);
    for col in table.columns {
        let path = ColumnPath::from(col.name);
        if DICTIONARY_COLUMNS.contains(&col.name) {
            props = props.set_column_dictionary_enabled(path, true);
        } else if let Some(encoding) = plain_encoding(col.ty) {
            if col.ty == ColType::Utf8 {
                // Min/max of free text (PVs, SAN, tags) prunes no query, and
                // comparing every value cost a tenth of the writer's time.
                props = props.set_column_statistics_enabled(path.clone(), EnabledStatistics::None);
            }
            props = props.set_column_encoding(path, encoding);
        }
    }
    Ok(props.build())
}

/// The encoding of a column without dictionary. Integers: deltas, bit-packed
/// per block (ids, ply numbers and material counts shrink to a few bits, so
/// zstd has a fraction of the PLAIN bytes to compress). Text: the lengths
/// delta-packed apart from the bytes. Both cut the writer's CPU time and the
/// file size; polars, pyarrow and DuckDB read them.
fn plain_encoding(ty: ColType) -> Option<Encoding> {
    match ty {
        ColType::UInt8
        | ColType::UInt16
        | ColType::UInt32
        | ColType::Int16
        | ColType::Int32
        | ColType::Int64
        | ColType::Date => Some(Encoding::DELTA_BINARY_PACKED),
        ColType::Utf8 => Some(Encoding::DELTA_LENGTH_BYTE_ARRAY),
        ColType::Bool | ColType::Float32 | ColType::Float64 | ColType::ListInt32 => None,
    }
}

/// Low-cardinality text columns, written with dictionary encoding.
const DICTIONARY_COLUMNS: [&str; 10] = [
    col::SIDE,
    col::EVAL_KIND,
    col::PROMOTION,
    col::SOURCE_FILE,
    col::SOURCE_SHA256,
    col::EVENT,
    col::RESULT,
    col::VARIANT,
    col::DIALECT,
    col::TERMINATION,
];
