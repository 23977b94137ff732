//! `ingest`: inputs → batches of games → parallel parse → Parquet parts.
//!
//! Three stages run at once: a reader thread decompresses and splits the inputs
//! (in order) into batches, a rayon pool of `jobs` threads parses each batch as
//! it comes, and a writer thread hands the rows, in input order, to the Parquet
//! writers, which encode and compress their columns as tasks on the same pool.
//! So the output is identical whatever `jobs` is, and `jobs` threads do all
//! the work but the reading. Memory is bounded by the number of batches in
//! flight, not by the input size.

use std::collections::BTreeMap;
use std::fs;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, SyncSender, channel, sync_channel};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use arrow::record_batch::RecordBatch;
use rayon::prelude::*;

use crate::Error;
use crate::dataset::lock::{DatasetLock, Holder};
use crate::dataset::part::PartWriter;
use crate::dataset::shard::{self, Shard};
use crate::dataset::{Dataset, InputRecord, Manifest, Run};
use crate::schema::{self, MANIFEST_FILE};
use crate::tables::Tables;
use evallab_pgn::game::{Counts, ParseOptions, Source, parse_batch};
use evallab_pgn::input::{self, Input};
use evallab_pgn::split::{Batch, Splitter};

/// Options of an ingest run.
#[derive(Debug, Clone, Copy)]
pub struct IngestOptions {
    /// Worker threads: they parse the batches and encode the columns.
    pub jobs: usize,
    pub parse: ParseOptions,
    /// Target size of a batch of PGN text handed to one parser thread.
    pub batch_bytes: usize,
    /// Start the dataset afresh instead of adding to it.
    pub overwrite: bool,
}

impl Default for IngestOptions {
    fn default() -> Self {
        IngestOptions {
            jobs: std::thread::available_parallelism().map_or(1, |n| n.get()),
            parse: ParseOptions::default(),
            batch_bytes: 4 << 20,
            overwrite: false,
        }
    }
}

/// Progress, reported after every group of batches.
#[derive(Debug, Clone, Copy, Default)]
pub struct Progress {
    pub inputs_total: usize,
    /// Inputs whose every batch has been parsed.
    pub inputs_done: usize,
    /// Compressed bytes of the inputs done.
    pub bytes_done: u64,
    pub bytes_total: u64,
    pub counts: Counts,
}

/// What an ingest run did.
#[derive(Debug, Clone, Default)]
pub struct IngestReport {
    /// The part written (`None` when every input was already in the dataset).
    pub part: Option<u32>,
    pub inputs: Vec<InputRecord>,
    /// Inputs skipped because their sha256 is already in the dataset (name, sha256).
    pub skipped: Vec<(String, String)>,
    pub counts: Counts,
    /// Decompressed bytes read.
    pub pgn_bytes: u64,
    pub seconds: f64,
    /// Leftovers of an interrupted earlier run, and parts replaced by
    /// `--overwrite`, that were removed.
    pub removed: Vec<PathBuf>,
    /// A writer that died holding the dataset's lock (its trace was found).
    pub stale_lock: Option<Holder>,
}

/// Ingests `inputs` (files, directories, globs or `-`) into the dataset at `root`.
///
/// Holds the dataset's lock throughout. The new parts are committed first, the
/// manifest last; only then are replaced parts (`--overwrite`) removed, so a
/// failure or a kill at any point leaves the previous dataset readable.
pub fn ingest(
    root: &Path,
    inputs: &[String],
    opts: IngestOptions,
    progress: &mut dyn FnMut(&Progress),
) -> Result<IngestReport, Error> {
    let started = Instant::now();
    // Inputs that do not exist fail before the dataset folder is even created.
    let expanded = input::expand(inputs)?;
    let lock = DatasetLock::acquire(root, "ingest")?;
    let mut ds = Dataset::open_or_create(root, opts.overwrite)?;
    let mut report = IngestReport {
        stale_lock: lock.stale.clone(),
        removed: ds.collect_garbage()?,
        ..IngestReport::default()
    };
    // Part numbers only grow (also across --overwrite), so that a manifest can
    // never name a file written after it.
    let part = ds.next_part();
    let mut runs = if opts.overwrite {
        Vec::new()
    } else {
        ds.manifest.runs.clone()
    };
    let known = |sha: &str| runs.iter().flat_map(|r| &r.inputs).any(|i| i.sha256 == sha);
    let pool = thread_pool(opts.jobs)?;
    let todo = select_inputs(&pool, expanded, root, known, &mut report.skipped)?;
    if !todo.is_empty() {
        let writers = [&schema::GAMES, &schema::MOVES, &schema::REJECTS]
            .map(|t| PartWriter::create(&ds.root, t, part));
        ingest_inputs(&pool, &todo, writers, opts, progress, &mut report)?;
        report.part = Some(part);
        runs.push(Run {
            part,
            started_unix: unix_now(),
            seconds: started.elapsed().as_secs_f64(),
            options: serde_json::json!({
                "jobs": opts.jobs,
                "pv": opts.parse.keep_pv,
                "batch_bytes": opts.batch_bytes,
            }),
            inputs: report.inputs.clone(),
            files: Run::base_files(part),
            shard: None,
        });
    } else if !opts.overwrite {
        report.seconds = started.elapsed().as_secs_f64();
        return Ok(report);
    }
    ds.manifest.runs = runs;
    ds.save_manifest()?;
    // The commit point is passed: parts the manifest no longer lists go.
    report.removed.extend(ds.collect_garbage()?);
    report.seconds = started.elapsed().as_secs_f64();
    Ok(report)
}

/// Ingests `inputs` into shard `name` of the dataset at `root` (see
/// [`crate::dataset::shard`]): the parts go to the shard's folder, and
/// nothing becomes visible to readers until `evallab commit`. Takes no lock,
/// so that many shards are written at once. Inputs the dataset already has
/// are skipped; when all are, no shard is written.
pub fn ingest_shard(
    root: &Path,
    name: &str,
    inputs: &[String],
    opts: IngestOptions,
    progress: &mut dyn FnMut(&Progress),
) -> Result<IngestReport, Error> {
    shard::check_name(name)?;
    if opts.overwrite {
        return Err(Error::Usage(
            "--shard adds to a dataset; it cannot --overwrite it".into(),
        ));
    }
    let started = Instant::now();
    let expanded = input::expand(inputs)?;
    // The committed dataset, read as any reader does (the shard does not change it).
    let committed = if root.join(MANIFEST_FILE).exists() {
        Dataset::open(root)?.manifest
    } else {
        fs::create_dir_all(root).map_err(|e| Error::io(root, e))?;
        Manifest::default()
    };
    let mut report = IngestReport::default();
    let pool = thread_pool(opts.jobs)?;
    let todo = select_inputs(
        &pool,
        expanded,
        root,
        |sha| committed.has_input(sha),
        &mut report.skipped,
    )?;
    if todo.is_empty() {
        report.seconds = started.elapsed().as_secs_f64();
        return Ok(report);
    }
    let dir = shard::begin(root, name)?;
    let tables = [&schema::GAMES, &schema::MOVES, &schema::REJECTS];
    let files: BTreeMap<String, String> = tables
        .iter()
        .map(|t| (t.name.to_string(), format!("{}.parquet", t.name)))
        .collect();
    let writers = tables.map(|t| PartWriter::create_at(&dir.join(&files[t.name]), t));
    ingest_inputs(&pool, &todo, writers, opts, progress, &mut report)?;
    // Only what changes the rows is fingerprinted (the output is the same
    // whatever the jobs or the batch size).
    let options = serde_json::json!({ "pv": opts.parse.keep_pv });
    let shard = Shard {
        name: name.to_string(),
        fingerprint: shard::fingerprint(report.inputs.iter().map(|i| i.sha256.as_str()), &options),
        started_unix: unix_now(),
        seconds: started.elapsed().as_secs_f64(),
        options,
        inputs: report.inputs.clone(),
        files,
        analysis: None,
    };
    shard::finish(root, &shard)?;
    report.seconds = started.elapsed().as_secs_f64();
    Ok(report)
}

/// The worker threads (`--jobs`); they hash the inputs first.
fn thread_pool(jobs: usize) -> Result<rayon::ThreadPool, Error> {
    let jobs = jobs.max(1);
    rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(|e| Error::Usage(format!("--jobs {jobs}: cannot start the threads: {e}")))
}

/// Hashes the inputs and keeps those neither `known` nor repeated (by
/// sha256), recording the others in `skipped`.
///
/// The inputs are hashed in parallel on `pool` (game ids need every input's
/// sha256 before its first row, so this phase precedes parsing; hashed one
/// after the other it capped the 1 -> 2 jobs speed-up). The selection then
/// runs in input order, as before.
fn select_inputs(
    pool: &rayon::ThreadPool,
    expanded: Vec<(String, PathBuf)>,
    spool_dir: &Path,
    known: impl Fn(&str) -> bool,
    skipped: &mut Vec<(String, String)>,
) -> Result<Vec<Input>, Error> {
    let resolved: Vec<Result<Input, Error>> = pool.install(|| {
        expanded
            .into_par_iter()
            .map(|(name, path)| Ok(input::resolve(name, path, spool_dir)?))
            .collect()
    });
    let mut todo: Vec<Input> = Vec::new();
    let mut failed = None;
    for inp in resolved {
        match inp {
            Err(e) => {
                failed.get_or_insert(e);
            }
            // After a failure, the remaining inputs are only cleaned up.
            Ok(inp) if failed.is_some() => cleanup_spool(&inp),
            Ok(inp) => {
                if known(&inp.sha256) || todo.iter().any(|t| t.sha256 == inp.sha256) {
                    skipped.push((inp.name.clone(), inp.sha256.clone()));
                    cleanup_spool(&inp);
                } else {
                    todo.push(inp);
                }
            }
        }
    }
    if let Some(e) = failed {
        todo.iter().for_each(cleanup_spool);
        return Err(e);
    }
    Ok(todo)
}

/// Parses `todo` into the three part writers (games, moves, rejects) and
/// commits them; fills the report's inputs, counts and bytes.
fn ingest_inputs(
    pool: &rayon::ThreadPool,
    todo: &[Input],
    writers: [Result<PartWriter, Error>; 3],
    opts: IngestOptions,
    progress: &mut dyn FnMut(&Progress),
    report: &mut IngestReport,
) -> Result<(), Error> {
    let result = writers
        .into_iter()
        .collect::<Result<Vec<_>, _>>()
        .and_then(|w| run(pool, w, todo, opts, progress));
    todo.iter().for_each(cleanup_spool);
    let (per_input, pgn_bytes) = result?;
    report.inputs = todo
        .iter()
        .zip(&per_input)
        .map(|(inp, c)| {
            report.counts += *c;
            InputRecord {
                path: inp.name.clone(),
                size: inp.size,
                sha256: inp.sha256.clone(),
                games: c.games,
                rejects: c.rejects,
                plies: c.plies,
                unparsed_comments: c.unparsed_comments,
            }
        })
        .collect();
    report.pgn_bytes = pgn_bytes;
    Ok(())
}

fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

fn cleanup_spool(inp: &Input) {
    if inp.name == "-" {
        let _ = fs::remove_file(&inp.path);
    }
}

/// A batch tagged with its input, or the end of an input.
enum Item {
    Batch(usize, Batch),
    InputDone(usize),
}

/// The rows of one batch: games, moves, rejects.
type Parsed = (RecordBatch, RecordBatch, RecordBatch);

fn run(
    pool: &rayon::ThreadPool,
    writers: Vec<PartWriter>,
    inputs: &[Input],
    opts: IngestOptions,
    progress: &mut dyn FnMut(&Progress),
) -> Result<(Vec<Counts>, u64), Error> {
    let jobs = opts.jobs.max(1);
    let mut writers = writers;
    let (item_tx, item_rx) = sync_channel::<Item>(jobs * 2);
    let (out_tx, out_rx) = sync_channel::<Parsed>(2);
    let mut per_input = vec![Counts::default(); inputs.len()];
    let mut prog = Progress {
        inputs_total: inputs.len(),
        bytes_total: inputs.iter().map(|i| i.size).sum(),
        ..Progress::default()
    };
    let mut pgn_bytes = 0u64;
    std::thread::scope(|s| -> Result<(), Error> {
        let reader = s.spawn(|| read_inputs(inputs, opts.batch_bytes, item_tx));
        // The writer encodes each batch's columns on the parser pool, between
        // parse tasks: every `--jobs` thread does both kinds of work.
        // (Waiting, for the next batch or for the columns, happens here, never
        // on a pool thread.)
        let writer = s.spawn(move || -> Result<_, Error> {
            for (g, m, r) in out_rx {
                writers[0].write_on(&g, pool)?;
                writers[1].write_on(&m, pool)?;
                writers[2].write_on(&r, pool)?;
            }
            Ok(writers)
        });
        let parsed = parse_all(pool, inputs, opts, item_rx, &out_tx, |item_counts, done| {
            for (i, c) in item_counts {
                per_input[i] += c;
                prog.counts += c;
            }
            for i in done {
                prog.inputs_done += 1;
                prog.bytes_done += inputs[i].size;
            }
            progress(&prog);
        });
        drop(out_tx);
        let read = reader.join().expect("reader thread panicked");
        let writers = writer.join().expect("writer thread panicked");
        // The reader's error explains a parse stop caused by a closed channel.
        pgn_bytes = read?;
        parsed?;
        for w in writers? {
            pool.install(|| w.commit())?;
        }
        Ok(())
    })?;
    Ok((per_input, pgn_bytes))
}

/// Parses the batches on `pool` as they arrive and sends their rows in input
/// order.
///
/// No batch waits for another to start: each is a task of its own, and the
/// results are put back in order before they are sent. (Groups of `jobs`
/// batches with a barrier after each left a thread idle whenever the batches
/// of a group differed in size, as the inputs' last batches do.) At most
/// `2 × jobs` batches are between the reader and the writer at once, parsed
/// or not, which bounds the memory. (`4 × jobs` was not measurably faster and
/// took the peak RSS on the corpus concatenated 4× from 265 MB to 328 MB.)
fn parse_all(
    pool: &rayon::ThreadPool,
    inputs: &[Input],
    opts: IngestOptions,
    items: Receiver<Item>,
    out: &SyncSender<Parsed>,
    mut report: impl FnMut(Vec<(usize, Counts)>, Vec<usize>),
) -> Result<(), Error> {
    let window = 2 * opts.jobs.max(1);
    let (done_tx, done_rx) = channel();
    // Items by sequence number: a parsed batch, or the end of an input.
    let mut ready: BTreeMap<usize, Result<Done, Panic>> = BTreeMap::new();
    let (mut next_in, mut next_out) = (0usize, 0usize);
    // Returning drops `items`, which stops the reader.
    pool.in_place_scope(|scope| {
        let mut items = items.into_iter();
        loop {
            // Fill the window, then wait for the oldest item to be done.
            while next_in - next_out < window {
                match items.next() {
                    Some(Item::Batch(i, b)) => {
                        let tx = done_tx.clone();
                        let seq = next_in;
                        scope.spawn(move |_| {
                            let parsed = catch_unwind(AssertUnwindSafe(|| {
                                let src = Source {
                                    name: &inputs[i].name,
                                    sha256: &inputs[i].sha256,
                                };
                                let mut t = Tables::default();
                                let c = parse_batch(&b, src, opts.parse, &mut t);
                                Done::Batch(
                                    (i, c),
                                    (t.games.finish(), t.moves.finish(), t.rejects.finish()),
                                )
                            }));
                            // The receiver outlives the scope.
                            let _ = tx.send((seq, parsed));
                        });
                    }
                    Some(Item::InputDone(i)) => {
                        ready.insert(next_in, Ok(Done::Input(i)));
                    }
                    None => break,
                }
                next_in += 1;
            }
            if next_out == next_in {
                break;
            }
            while !ready.contains_key(&next_out) {
                let (seq, parsed) = done_rx.recv().expect("a parse task vanished");
                ready.insert(seq, parsed);
            }
            while let Some(item) = ready.remove(&next_out) {
                next_out += 1;
                match item.unwrap_or_else(|panic| resume_unwind(panic)) {
                    Done::Input(i) => report(Vec::new(), vec![i]),
                    Done::Batch(counts, rows) => {
                        if out.send(rows).is_err() {
                            // The writer stopped; its error is reported by the
                            // caller. The scope waits for the tasks in flight.
                            return;
                        }
                        report(vec![counts], Vec::new());
                    }
                }
            }
        }
    });
    Ok(())
}

/// What a parse task hands back, or an input's end.
enum Done {
    Batch((usize, Counts), Parsed),
    Input(usize),
}

type Panic = Box<dyn std::any::Any + Send>;

/// Decompresses and splits the inputs in order. Returns the PGN bytes read.
fn read_inputs(inputs: &[Input], batch_bytes: usize, tx: SyncSender<Item>) -> Result<u64, Error> {
    let mut total = 0u64;
    for (i, inp) in inputs.iter().enumerate() {
        let reader = input::open_decoded(&inp.path).map_err(|e| Error::io(&inp.path, e))?;
        let mut split = Splitter::new(reader);
        loop {
            let batch = split.next_batch(batch_bytes).map_err(|e| Error::Io {
                path: inp.name.clone(),
                err: e,
            })?;
            let Some(batch) = batch else { break };
            total += batch.buf.len() as u64;
            if tx.send(Item::Batch(i, batch)).is_err() {
                return Ok(total);
            }
        }
        if tx.send(Item::InputDone(i)).is_err() {
            return Ok(total);
        }
    }
    Ok(total)
}
