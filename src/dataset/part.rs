//! A table's Parquet part, written through the commit protocol with the
//! schema version in its metadata: the one Parquet writer of every table that
//! goes into a dataset's manifest (ingest's base tables, analyze's tables).

use std::collections::VecDeque;
use std::fs::File;
use std::io::Write;
use std::ops::Range;
use std::path::Path;

use arrow::array::{ArrayRef, new_empty_array};
use arrow::datatypes::SchemaRef;
use arrow::record_batch::RecordBatch;
use parquet::arrow::ArrowWriter;
use parquet::arrow::arrow_writer::{
    ArrowColumnChunk, ArrowColumnWriter, ArrowRowGroupWriterFactory, compute_leaves,
};
use parquet::basic::{Compression, Encoding, ZstdLevel};
use parquet::errors::ParquetError;
use parquet::file::metadata::KeyValue;
use parquet::file::properties::{EnabledStatistics, WriterProperties};
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::types::ColumnPath;
use rayon::{Scope, ThreadPool};

use crate::Error;
use crate::dataset::commit::{self, Staged};
use crate::dataset::part_file;
use crate::schema::{ColType, SCHEMA_VERSION, SCHEMA_VERSION_KEY, TOOL_VERSION_KEY, Table, col};

/// A table's part being written: committed (renamed into place, still
/// unlisted) when the whole run succeeded, removed otherwise.
pub struct PartWriter {
    staged: Staged,
    parquet: ParallelWriter<File>,
}

impl PartWriter {
    pub fn create(root: &Path, table: &Table, part: u32) -> Result<PartWriter, Error> {
        PartWriter::create_at(&root.join(part_file(table, part)), table)
    }

    /// A part of `table` at `dst` (a shard's staging folder, see
    /// [`crate::dataset::shard`]).
    pub fn create_at(dst: &Path, table: &Table) -> Result<PartWriter, Error> {
        let (staged, file) = Staged::create(dst)?;
        let parquet = ParallelWriter::try_new(file, table)?;
        Ok(PartWriter { staged, parquet })
    }

    /// Appends rows; the columns are encoded on the current rayon pool.
    pub fn write(&mut self, batch: &RecordBatch) -> Result<(), Error> {
        self.write_with(batch, None, None)
    }

    /// Appends rows; the columns are encoded on `pool`, while this thread
    /// waits (see [`ParallelWriter::write_on`]).
    pub fn write_on(&mut self, batch: &RecordBatch, pool: &ThreadPool) -> Result<(), Error> {
        self.write_with(batch, Some(pool), None)
    }

    /// Appends rows whose columns `fields` may wait (see
    /// [`ParallelWriter::write_pending_with`]).
    pub fn write_pending(
        &mut self,
        batch: &RecordBatch,
        pool: &ThreadPool,
        fields: &[usize],
        tag: Option<usize>,
    ) -> Result<(), Error> {
        self.write_with(batch, Some(pool), Some((fields, tag)))
    }

    /// See [`ParallelWriter::release`].
    pub fn release(&mut self, pool: &ThreadPool, finals: Finals) -> Result<(), Error> {
        let groups = self.parquet.row_groups();
        self.parquet
            .release(Some(pool), finals)
            .map_err(|e| e.writing(self.staged.dst()))?;
        self.after_write(groups);
        Ok(())
    }

    /// Rows whose columns wait for [`PartWriter::release`].
    pub fn pending_rows(&self) -> usize {
        self.parquet.pending_rows()
    }

    fn write_with(
        &mut self,
        batch: &RecordBatch,
        pool: Option<&ThreadPool>,
        pending: Option<(&[usize], Option<usize>)>,
    ) -> Result<(), Error> {
        let groups = self.parquet.row_groups();
        let (fields, tag) = pending.unwrap_or((&[], None));
        self.parquet
            .write_pending_with(batch, pool, fields, tag)
            .map_err(|e| e.writing(self.staged.dst()))?;
        self.after_write(groups);
        Ok(())
    }

    /// Starts the write-back of row groups written out since `groups`.
    fn after_write(&self, groups: usize) {
        if self.parquet.row_groups() > groups {
            commit::start_writeback(self.parquet.inner());
        }
    }

    pub fn commit(self) -> Result<(), Error> {
        let file = self
            .parquet
            .into_inner()
            .map_err(|e| e.writing(self.staged.dst()))?;
        self.staged.commit(file)
    }
}

/// Writes a table's rows as Parquet, the same bytes as `ArrowWriter` with
/// `properties`, but encodes and compresses the columns of every batch in
/// parallel on the current rayon pool (a task per column). One writer thread
/// doing it all capped the ingest's 1 → 2 core scaling on plain input.
///
/// Some columns of a batch may wait for their final values
/// ([`Self::write_pending_with`], [`Self::release`]): the others are encoded at
/// once, and a row group is written out only when it is complete.
pub struct ParallelWriter<W: Write + Send> {
    file: SerializedFileWriter<W>,
    factory: ArrowRowGroupWriterFactory,
    schema: SchemaRef,
    /// Each field's leaf columns (their column writers).
    leaves: Vec<Range<usize>>,
    max_rows: usize,
    /// Full row groups whose columns still wait, oldest first.
    full: VecDeque<Group>,
    /// The row group being filled.
    open: Option<Group>,
}

/// A row group's columns, rows, and the columns that wait. A full group's
/// columns that do not wait are closed at once: only their compressed chunks
/// stay in memory, not their writers' page buffers.
struct Group {
    columns: Vec<Column>,
    rows: usize,
    pending: VecDeque<Pending>,
}

/// A leaf column of a row group: being written, being closed, or closed.
enum Column {
    Open(Box<ArrowColumnWriter>),
    Closing,
    Closed(Box<ArrowColumnChunk>),
}

impl Column {
    fn writer(&mut self) -> &mut ArrowColumnWriter {
        match self {
            Column::Open(w) => w,
            _ => unreachable!("a closed column is not written"),
        }
    }
}

/// Rows' columns that wait: their arrays as written, and the caller's tag
/// (`None`: final already, waiting only behind earlier rows).
struct Pending {
    tag: Option<usize>,
    rows: usize,
    columns: Vec<(usize, ArrayRef)>,
}

/// Gives a waiting column's final values: `(tag, field, values)`, or `None`
/// while they are not known.
pub type Finals<'a> = &'a mut dyn FnMut(Option<usize>, usize, &ArrayRef) -> Option<ArrayRef>;

impl<W: Write + Send> ParallelWriter<W> {
    pub fn try_new(out: W, table: &Table) -> Result<Self, Error> {
        Self::with_properties(out, table.arrow_schema(), properties(table)?)
    }

    fn with_properties(out: W, schema: SchemaRef, props: WriterProperties) -> Result<Self, Error> {
        let max_rows = props.max_row_group_row_count().unwrap_or(usize::MAX);
        // ArrowWriter puts the Arrow schema into the footer's metadata.
        let (file, factory) =
            ArrowWriter::try_new(out, schema.clone(), Some(props))?.into_serialized_writer()?;
        let mut leaves = Vec::with_capacity(schema.fields().len());
        let mut next = 0;
        for field in schema.fields() {
            let n = compute_leaves(field, &new_empty_array(field.data_type()))?.len();
            leaves.push(next..next + n);
            next += n;
        }
        Ok(ParallelWriter {
            file,
            factory,
            schema,
            leaves,
            max_rows,
            full: VecDeque::new(),
            open: None,
        })
    }

    /// Appends rows; a row group is written out whenever it is full. The
    /// columns are encoded on the current rayon pool (the global one outside
    /// any).
    pub fn write(&mut self, batch: &RecordBatch) -> Result<(), Error> {
        self.write_with(batch, None)
    }

    /// [`Self::write`], the columns encoded on `pool` while the calling
    /// thread, outside it, only waits. Called from a pool thread (through
    /// `install`), the writer picked up a parse task of the ingest whenever it
    /// waited for its last column, and the batches behind it waited for that
    /// whole parse: on the TCEC corpus concatenated 4× the two CPUs were idle
    /// 6.3 s of a 19.5 s ingest that way, 4.2 s of 18.5 s this way.
    pub fn write_on(&mut self, batch: &RecordBatch, pool: &ThreadPool) -> Result<(), Error> {
        self.write_with(batch, Some(pool))
    }

    fn write_with(&mut self, batch: &RecordBatch, pool: Option<&ThreadPool>) -> Result<(), Error> {
        self.write_pending_with(batch, pool, &[], None)
    }

    /// Appends rows whose columns `fields` are not final when `tag` is
    /// `Some`: those wait, with the tag, for [`Self::release`]; the others are
    /// encoded now. (Columns that wait for earlier rows wait here too, final
    /// or not: a column's values are encoded in row order.)
    pub fn write_pending_with(
        &mut self,
        batch: &RecordBatch,
        pool: Option<&ThreadPool>,
        fields: &[usize],
        tag: Option<usize>,
    ) -> Result<(), Error> {
        let mut fields = match tag {
            Some(_) => fields.to_vec(),
            None => Vec::new(),
        };
        for f in self.waiting_fields() {
            if !fields.contains(&f) {
                fields.push(f);
            }
        }
        let waits = !fields.is_empty();
        let mut rest = batch.clone();
        while rest.num_rows() > 0 {
            let group = match &mut self.open {
                Some(g) => g,
                None => {
                    // The row group's ordinal, counting the full ones not yet out.
                    let ordinal = self.file.flushed_row_groups().len() + self.full.len();
                    self.open.insert(Group {
                        columns: (self.factory.create_column_writers(ordinal)?)
                            .into_iter()
                            .map(|w| Column::Open(Box::new(w)))
                            .collect(),
                        rows: 0,
                        pending: VecDeque::new(),
                    })
                }
            };
            let n = rest.num_rows().min(self.max_rows - group.rows);
            let now = rest.slice(0, n);
            rest = rest.slice(n, rest.num_rows() - n);
            let mut leaves = Vec::with_capacity(group.columns.len());
            for (f, (field, column)) in self.schema.fields().iter().zip(now.columns()).enumerate() {
                if !fields.contains(&f) {
                    leaves.extend(compute_leaves(field, column)?.into_iter().map(|l| (f, l)));
                }
            }
            let mut done: Vec<Result<(), ParquetError>> = leaves.iter().map(|_| Ok(())).collect();
            // Each leaf's writer: the fields' first leaves, then the next ones in order.
            let mut writers: Vec<Option<&mut ArrowColumnWriter>> =
                group.columns.iter_mut().map(|c| Some(c.writer())).collect();
            let mut next: Vec<usize> = self.leaves.iter().map(|r| r.start).collect();
            let tasks = leaves.iter().map(|(f, leaf)| {
                let w = writers[next[*f]].take().expect("a writer per leaf");
                next[*f] += 1;
                (w, leaf)
            });
            each(pool, tasks.zip(&mut done), |((w, leaf), done)| {
                *done = w.write(leaf)
            });
            done.into_iter().collect::<Result<(), _>>()?;
            if waits {
                group.pending.push_back(Pending {
                    tag,
                    rows: n,
                    columns: fields.iter().map(|&f| (f, now.column(f).clone())).collect(),
                });
            }
            group.rows += n;
            if group.rows == self.max_rows {
                let mut group = self.open.take().expect("the open group");
                if group.pending.is_empty() && self.full.is_empty() {
                    self.flush(group, pool)?;
                } else {
                    let held = |leaf: usize| fields.iter().any(|&f| self.leaves[f].contains(&leaf));
                    close_columns(&mut group, |leaf| !held(leaf), pool)?;
                    self.full.push_back(group);
                }
            }
        }
        Ok(())
    }

    /// Encodes the waiting columns, oldest first, as long as `finals` gives
    /// their final values, and writes out the row groups then complete.
    pub fn release(&mut self, pool: Option<&ThreadPool>, finals: Finals) -> Result<(), Error> {
        let groups = self.full.iter_mut().chain(self.open.as_mut());
        'groups: for group in groups {
            while let Some(p) = group.pending.front() {
                let mut values = Vec::with_capacity(p.columns.len());
                for (f, column) in &p.columns {
                    match finals(p.tag, *f, column) {
                        Some(v) => values.push((*f, v)),
                        None => break 'groups,
                    }
                }
                // A few id columns: encoded here, not worth a task each.
                for (f, v) in values {
                    let leaves = compute_leaves(self.schema.field(f), &v)?;
                    for (i, leaf) in leaves.iter().enumerate() {
                        group.columns[self.leaves[f].start + i]
                            .writer()
                            .write(leaf)?;
                    }
                }
                group.pending.pop_front();
            }
        }
        while self.full.front().is_some_and(|g| g.pending.is_empty()) {
            let group = self.full.pop_front().expect("a full group");
            self.flush(group, pool)?;
        }
        Ok(())
    }

    /// Rows whose columns wait for [`Self::release`].
    pub fn pending_rows(&self) -> usize {
        let rows = |g: &Group| g.pending.iter().map(|p| p.rows).sum::<usize>();
        self.full.iter().chain(&self.open).map(rows).sum()
    }

    /// The fields the newest waiting rows hold back.
    fn waiting_fields(&self) -> Vec<usize> {
        let mut newest = self.open.iter().chain(self.full.iter().rev());
        newest
            .find_map(|g| g.pending.back())
            .map(|p| p.columns.iter().map(|(f, _)| *f).collect())
            .unwrap_or_default()
    }

    /// Row groups written out so far.
    pub fn row_groups(&self) -> usize {
        self.file.flushed_row_groups().len()
    }

    /// The output (what has been written to it so far).
    pub fn inner(&self) -> &W {
        self.file.inner()
    }

    /// Writes the last row group and the footer; returns the output. Fails
    /// if columns still wait.
    pub fn into_inner(mut self) -> Result<W, Error> {
        if self.pending_rows() > 0 {
            let rows = self.pending_rows();
            return Err(
                ParquetError::General(format!("{rows} rows' columns were never released")).into(),
            );
        }
        for group in std::mem::take(&mut self.full)
            .into_iter()
            .chain(self.open.take())
        {
            self.flush(group, None)?;
        }
        Ok(self.file.into_inner()?)
    }

    /// Closes a row group (its last pages are compressed in parallel) and
    /// appends it to the output.
    fn flush(&mut self, mut group: Group, pool: Option<&ThreadPool>) -> Result<(), Error> {
        close_columns(&mut group, |_| true, pool)?;
        let mut out = self.file.next_row_group()?;
        for column in group.columns {
            match column {
                Column::Closed(chunk) => chunk.append_to_row_group(&mut out)?,
                _ => unreachable!("every column was closed"),
            }
        }
        out.close()?;
        Ok(())
    }
}

/// Closes the open columns of `group` whose leaf index passes `which`, in
/// parallel (their last pages are compressed).
fn close_columns(
    group: &mut Group,
    which: impl Fn(usize) -> bool,
    pool: Option<&ThreadPool>,
) -> Result<(), Error> {
    let mut closed: Vec<(usize, Option<Result<ArrowColumnChunk, ParquetError>>)> = Vec::new();
    let mut writers = Vec::new();
    for (leaf, column) in group.columns.iter_mut().enumerate() {
        if matches!(column, Column::Open(_))
            && which(leaf)
            && let Column::Open(w) = std::mem::replace(column, Column::Closing)
        {
            writers.push(*w);
            closed.push((leaf, None));
        }
    }
    let tasks = writers.into_iter().zip(closed.iter_mut());
    each(pool, tasks, |(w, (_, chunk))| *chunk = Some(w.close()));
    for (leaf, chunk) in closed {
        group.columns[leaf] = Column::Closed(Box::new(chunk.expect("every column task ran")?));
    }
    Ok(())
}

/// Runs `f` on every task, each a rayon task on `pool` (the current pool if
/// `None`), and returns when all are done.
fn each<T: Send, F: Fn(T) + Sync>(pool: Option<&ThreadPool>, tasks: impl Iterator<Item = T>, f: F) {
    fn spawn_all<'s, T: Send + 's, F: Fn(T) + Sync>(
        s: &Scope<'s>,
        tasks: impl Iterator<Item = T>,
        f: &'s F,
    ) {
        for t in tasks {
            s.spawn(move |_| f(t));
        }
    }
    let f = &f;
    match pool {
        Some(pool) => pool.in_place_scope(|s| spawn_all(s, tasks, f)),
        None => rayon::in_place_scope(|s| spawn_all(s, tasks, f)),
    }
}

/// Rows per row group: large enough for fast scans, small enough to bound
/// the memory of a row group's encoded pages.
const ROW_GROUP_ROWS: usize = 128 * 1024;

/// How every part of `table` is encoded and compressed.
fn properties(table: &Table) -> Result<WriterProperties, Error> {
    let mut props = WriterProperties::builder()
        // Level 1: the PV text dominates and level 3 costs much more time for a
        // few percent of size.
        .set_compression(Compression::ZSTD(ZstdLevel::try_new(1)?))
        .set_max_row_group_row_count(Some(ROW_GROUP_ROWS))
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
    // Min/max prune a row group only where a column's values cluster by row
    // group; in `moves` none do (plies, material and clocks cycle within every
    // game; ids and keys are hashes), and computing them for every value cost
    // 2 % of the ingest's CPU time.
    if table.name == crate::schema::MOVES.name {
        props = props.set_statistics_enabled(EnabledStatistics::None);
    }
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
            if INCOMPRESSIBLE_COLUMNS.contains(&col.name) {
                props = props.set_column_compression(path.clone(), Compression::UNCOMPRESSED);
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

/// Engine counters whose bit-packed deltas zstd shrinks by 1–5 % on the
/// TCEC corpus (nodes, speeds, clocks, evals, depths): written uncompressed,
/// they cost no compression when written and no decompression when read, for
/// 0.5 % more bytes in all. The position key is a hash: zstd shrank its 15.5 MB
/// on the shared corpus by nothing (ratio 1.00).
const INCOMPRESSIBLE_COLUMNS: [&str; 8] = [
    col::POSITION_KEY,
    col::NODES,
    col::NPS,
    col::TIME_MS,
    col::TIME_LEFT_MS,
    col::EVAL_CP,
    col::DEPTH,
    col::SELDEPTH,
];

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::tables::Tables;
    use crate::schema::MOVES;
    use evallab_pgn::game::{ParseOptions, Source, parse_batch};
    use evallab_pgn::input;
    use evallab_pgn::split::Splitter;
    use std::sync::Arc;

    /// The moves of the demo TCEC games (with PVs).
    fn moves() -> RecordBatch {
        let demo = concat!(env!("CARGO_MANIFEST_DIR"), "/data/demo/demo_tcec.pgn.zst");
        let mut text = Vec::new();
        std::io::Read::read_to_end(
            &mut input::open_decoded(Path::new(demo)).unwrap(),
            &mut text,
        )
        .unwrap();
        let batch = Splitter::new(&text[..])
            .next_batch(usize::MAX)
            .unwrap()
            .unwrap();
        let src = Source {
            name: "demo_tcec.pgn.zst",
            sha256: Some("00"),
        };
        let mut t = Tables::default();
        parse_batch(&batch, src, ParseOptions::default(), &mut t);
        t.moves.finish()
    }

    /// The parts' own properties, with row groups of 1000 rows.
    fn small_groups() -> WriterProperties {
        properties(&MOVES)
            .unwrap()
            .into_builder()
            .set_max_row_group_row_count(Some(1000))
            .build()
    }

    fn two_threads() -> rayon::ThreadPool {
        rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap()
    }

    /// Batches that straddle row groups, written on two threads, give the
    /// bytes `ArrowWriter` gives.
    #[test]
    fn writes_what_arrow_writer_writes() {
        let rows = moves();
        let n = rows.num_rows();
        assert!(n > 4000, "{n} rows");
        let cuts = [0, 5, 1500, 1501, n];
        let mut expected =
            ArrowWriter::try_new(Vec::new(), rows.schema(), Some(small_groups())).unwrap();
        let pool = two_threads();
        let mut ours =
            ParallelWriter::with_properties(Vec::new(), rows.schema(), small_groups()).unwrap();
        for (i, w) in cuts.windows(2).enumerate() {
            let slice = rows.slice(w[0], w[1] - w[0]);
            expected.write(&slice).unwrap();
            // Both ways in: from this thread onto the pool (the ingest's
            // writer), and from a pool thread.
            if i % 2 == 0 {
                ours.write_on(&slice, &pool).unwrap();
            } else {
                pool.install(|| ours.write(&slice)).unwrap();
            }
        }
        assert_eq!(ours.row_groups(), n / 1000);
        let ours = pool.install(|| ours.into_inner()).unwrap();
        assert_eq!(ours, expected.into_inner().unwrap());
    }

    /// Rows whose id column waits (row groups fill up meanwhile) and is
    /// released later give the bytes of the final rows written at once.
    #[test]
    fn waiting_columns_give_the_same_bytes() {
        use arrow::array::{AsArray, Int64Array};
        use arrow::datatypes::Int64Type;
        let rows = moves();
        let n = rows.num_rows();
        let id = rows.schema().index_of(col::GAME_ID).unwrap();
        // What the parser writes before the hash: a stand-in for the id.
        let stand_in = |b: &RecordBatch| {
            let ids = b.column(id).as_primitive::<Int64Type>();
            let mut cols = b.columns().to_vec();
            cols[id] = Arc::new(Int64Array::from_iter_values(
                ids.values().iter().map(|v| !v),
            ));
            RecordBatch::try_new(b.schema(), cols).unwrap()
        };
        let mut expected =
            ArrowWriter::try_new(Vec::new(), rows.schema(), Some(small_groups())).unwrap();
        expected.write(&rows).unwrap();
        let pool = two_threads();
        let mut ours =
            ParallelWriter::with_properties(Vec::new(), rows.schema(), small_groups()).unwrap();
        let mut known = false;
        let finals = |known: bool| {
            move |tag: Option<usize>, f: usize, v: &ArrayRef| -> Option<ArrayRef> {
                assert_eq!(f, id);
                match tag {
                    None => Some(v.clone()),
                    Some(7) if known => {
                        let ids = v.as_primitive::<Int64Type>().values().iter().map(|v| !v);
                        Some(Arc::new(Int64Array::from_iter_values(ids)))
                    }
                    Some(_) => None,
                }
            }
        };
        // Tagged rows, then final ones behind them, across three row groups.
        let cuts = [0, 5, 1500, 2600, 3100, n];
        for (i, w) in cuts.windows(2).enumerate() {
            let slice = rows.slice(w[0], w[1] - w[0]);
            match i {
                0 | 1 => ours.write_pending_with(&stand_in(&slice), Some(&pool), &[id], Some(7)),
                _ => ours.write_pending_with(&slice, Some(&pool), &[id], None),
            }
            .unwrap();
            if i == 3 {
                // Nothing goes out before the hash, then all of it.
                ours.release(Some(&pool), &mut finals(known)).unwrap();
                assert_eq!((ours.pending_rows(), ours.row_groups()), (w[1], 0));
                known = true;
                ours.release(Some(&pool), &mut finals(known)).unwrap();
                assert_eq!((ours.pending_rows(), ours.row_groups()), (0, 3));
            }
        }
        assert_eq!(ours.into_inner().unwrap(), expected.into_inner().unwrap());
        // Columns never released are an error, not a short file.
        let mut ours =
            ParallelWriter::with_properties(Vec::new(), rows.schema(), small_groups()).unwrap();
        ours.write_pending_with(&stand_in(&rows), None, &[id], Some(7))
            .unwrap();
        assert!(ours.into_inner().is_err());
    }

    /// The columns written uncompressed are those zstd shrinks by less than
    /// a tenth on the demo games; the others stay compressed.
    #[test]
    fn incompressible_columns_are_stored_uncompressed() {
        use parquet::file::reader::{FileReader, SerializedFileReader};
        let rows = moves();
        let write = |props: WriterProperties| {
            let file = tempfile::tempfile().unwrap();
            let mut w = ParallelWriter::with_properties(file, rows.schema(), props).unwrap();
            w.write(&rows).unwrap();
            let file = w.into_inner().unwrap();
            let meta = SerializedFileReader::new(file).unwrap().metadata().clone();
            let group = meta.row_group(0).clone();
            (0..group.num_columns())
                .map(|i| group.column(i).clone())
                .collect::<Vec<_>>()
        };
        let ours = write(properties(&MOVES).unwrap());
        let zstd = Compression::ZSTD(ZstdLevel::try_new(1).unwrap());
        let all_zstd = INCOMPRESSIBLE_COLUMNS
            .iter()
            .fold(properties(&MOVES).unwrap().into_builder(), |b, c| {
                b.set_column_compression(ColumnPath::from(*c), zstd)
            });
        let zstd = write(all_zstd.build());
        for (ours, zstd) in ours.iter().zip(&zstd) {
            let name = ours.column_path().string();
            let plain = ours.compression() == Compression::UNCOMPRESSED;
            assert_eq!(
                plain,
                INCOMPRESSIBLE_COLUMNS.contains(&name.as_str()),
                "{name}"
            );
            if plain {
                let saved = 1.0 - zstd.compressed_size() as f64 / ours.compressed_size() as f64;
                assert!(saved < 0.1, "{name}: zstd saves {saved:.3}");
            }
        }
        assert!(
            zstd.iter()
                .all(|c| matches!(c.compression(), Compression::ZSTD(_)))
        );
    }
}
