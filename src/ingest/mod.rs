//! `ingest`: inputs → batches of games → parallel parse → Parquet parts.
//!
//! Three stages run at once: a reader thread decompresses and splits the inputs
//! (in order) into batches, a rayon pool of `jobs` threads parses each batch as
//! it comes, and a writer thread hands the rows, in input order, to the Parquet
//! writers, which encode and compress their columns as tasks on the same pool.
//! Beside them a hasher thread hashes the inputs, whose sha256 the game ids
//! need (see `run`). So the output is identical whatever `jobs` is, and
//! `jobs` threads do all the work but the reading and hashing. Memory is
//! bounded by the number of batches in flight, not by the input size.

pub mod puzzles;
pub mod tables;

use std::collections::{BTreeMap, HashMap};
use std::fs;
use std::io::{BufRead, BufReader, Read};
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, SyncSender, channel, sync_channel};
use std::sync::{Arc, OnceLock};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use arrow::array::{ArrayRef, AsArray, Int64Array, StringArray};
use arrow::datatypes::{Int64Type, SchemaRef};
use arrow::record_batch::RecordBatch;
use rayon::prelude::*;

use crate::Error;
use crate::dataset::inspect::repeated_of_parts;
use crate::dataset::lock::Holder;
use crate::dataset::part::PartWriter;
use crate::dataset::remove::other_versions;
use crate::dataset::shard::{self, Shard};
use crate::dataset::writer::{DatasetWriter, Open};
use crate::dataset::{Dataset, InputRecord, Manifest, Run};
use crate::schema::{self, MANIFEST_FILE};
use evallab_pgn::game::{Counts, ParseOptions, Source, game_id, parse_batch};
use evallab_pgn::input::{self, Content, ContentReader, Input};
use evallab_pgn::split::{Batch, Splitter};
use tables::Tables;

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
    /// An input whose file was ingested before with other content (edited,
    /// or completed after a cut) takes that earlier version's place: its
    /// rows go in the same commit ([`IngestReport::versions`]).
    pub replace: bool,
}

impl Default for IngestOptions {
    fn default() -> Self {
        IngestOptions {
            jobs: std::thread::available_parallelism().map_or(1, |n| n.get()),
            parse: ParseOptions::default(),
            batch_bytes: 4 << 20,
            overwrite: false,
            replace: false,
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
    /// Inputs skipped because the dataset, or an input before them, already
    /// holds them (by sha256, or by decoded content): (name, why).
    pub skipped: Vec<(String, String)>,
    /// Compressed inputs that end early (a partial download): their games
    /// before the damage are in, the one it cut is a `truncated input`
    /// reject, so the dataset is complete but for the rejects.
    pub truncated: Vec<String>,
    pub counts: Counts,
    /// Decompressed bytes read.
    pub pgn_bytes: u64,
    pub seconds: f64,
    /// Leftovers of an interrupted earlier run, removed when the dataset was
    /// opened (not the parts this run replaced).
    pub removed: Vec<PathBuf>,
    /// A writer that died holding the dataset's lock (its trace was found).
    pub stale_lock: Option<Holder>,
    /// Inputs of this run whose file the dataset holds in another version
    /// (not one it grew from): (name, the earlier versions). With
    /// `replace`, those versions were taken out in the run's commit;
    /// without, both are held.
    pub versions: Vec<(String, Vec<InputRecord>)>,
    /// Games of this run the dataset now holds more than once (a copy of a
    /// game already in it, or read twice): `evallab inspect` lists them.
    pub repeated: u64,
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
    let open = if opts.overwrite {
        Open::Replace
    } else {
        Open::OrCreate
    };
    let mut ds = DatasetWriter::open(root, "ingest", open)?;
    let mut report = IngestReport {
        stale_lock: ds.stale().cloned(),
        removed: ds.removed().to_vec(),
        ..IngestReport::default()
    };
    // Part numbers only grow (also across --overwrite), so that a manifest can
    // never name a file written after it.
    let part = ds.next_part();
    if opts.overwrite {
        ds.set_runs(Vec::new());
    }
    let known: Vec<&InputRecord> = ds.manifest().inputs().collect();
    let pool = thread_pool(opts.jobs)?;
    let mut todo = select_inputs(&pool, expanded, root, &known, &mut report.skipped)?;
    resume_grown(root, &mut todo, &known)?;
    report.versions = new_versions(&todo, &known);
    if !todo.is_empty() {
        let writers = [&schema::GAMES, &schema::MOVES, &schema::REJECTS]
            .map(|t| PartWriter::create(root, t, part));
        ingest_inputs(&pool, &todo, writers, opts, progress, &mut report)?;
        // A dataset is replaced only by a whole one: not by inputs that hold
        // no game (a saved web page, an image, an empty file), which would
        // leave it empty, nor by a cut download. Nothing is committed then.
        if opts.overwrite && report.counts.games == 0 {
            return Err(Error::InputData(format!(
                "{}: no PGN game could be read ({} rejected); --overwrite kept the dataset as it was",
                input_names(&report.inputs),
                report.counts.rejects
            )));
        }
        if opts.overwrite && !report.truncated.is_empty() {
            return Err(Error::InputData(format!(
                "{}: the input ends early (a cut download?); --overwrite kept the dataset as it \
                 was: ingest the whole file, or without --overwrite to add what it holds",
                report.truncated.join(", ")
            )));
        }
        report.part = Some(part);
        ds.add_run(Run {
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
        // After the run is added, so that the rewritten parts number after it.
        if opts.replace && !report.versions.is_empty() {
            ds.replace_versions(&report.versions)?;
        }
    } else if !opts.overwrite {
        report.seconds = started.elapsed().as_secs_f64();
        return Ok(report);
    }
    // The commit point; then parts the manifest no longer lists go.
    ds.commit()?;
    if let Some(part) = report.part {
        report.repeated = repeated_of_parts(root, &[part])?;
    }
    report.seconds = started.elapsed().as_secs_f64();
    Ok(report)
}

/// The inputs' names for a message: the first three, then how many more.
pub fn input_names(inputs: &[InputRecord]) -> String {
    let mut names: Vec<&str> = inputs.iter().take(3).map(|i| i.path.as_str()).collect();
    let more = format!("and {} more", inputs.len().saturating_sub(3));
    if inputs.len() > 3 {
        names.push(&more);
    }
    names.join(", ")
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
        Dataset::open(root)?.manifest().clone()
    } else {
        fs::create_dir_all(root).map_err(|e| Error::io(root, e))?;
        Manifest::default()
    };
    let mut report = IngestReport::default();
    let pool = thread_pool(opts.jobs)?;
    let known: Vec<&InputRecord> = committed.inputs().collect();
    let mut todo = select_inputs(&pool, expanded, root, &known, &mut report.skipped)?;
    resume_grown(root, &mut todo, &known)?;
    report.versions = new_versions(&todo, &known);
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

/// Resolves the inputs and keeps those neither `known` nor repeated,
/// recording the others in `skipped` with the reason: the same sha256, or the
/// same decoded content (the same PGN plain and compressed).
///
/// Only an input as large as another, known or given, can repeat its sha256:
/// those are hashed here, in parallel on `pool`, and the selection runs in
/// input order. The others are hashed while they are parsed (see [`run`]):
/// hashing first left a CPU idle 1.4 s of an 11 s ingest of the TCEC corpus
/// concatenated 4× into one file. Likewise only an input whose first decoded
/// bytes ([`input::HEAD_BYTES`]) are another's can repeat its content: every
/// input's head is hashed here, and only those sharing one are decoded whole
/// before the parse.
fn select_inputs(
    pool: &rayon::ThreadPool,
    expanded: Vec<(String, PathBuf)>,
    spool_dir: &Path,
    known: &[&InputRecord],
    skipped: &mut Vec<(String, String)>,
) -> Result<Vec<Input>, Error> {
    let resolved: Vec<Result<Input, Error>> = expanded
        .into_iter()
        .map(|(name, path)| Ok(input::resolve(name, path, spool_dir)?))
        .collect();
    let mut sizes: HashMap<u64, usize> = HashMap::new();
    let given = resolved.iter().flatten().map(|i| i.size);
    for size in given.chain(known.iter().map(|k| k.size)) {
        *sizes.entry(size).or_default() += 1;
    }
    // An input that cannot be decoded has no head: its read fails later,
    // naming it.
    let resolved: Vec<Result<(Input, Option<String>), Error>> = pool.install(|| {
        resolved
            .into_par_iter()
            .map(|inp| {
                let mut inp = inp?;
                if sizes[&inp.size] > 1 {
                    inp.sha256 = Some(inp.hash()?);
                }
                let head = input::content_head(&inp.path).ok();
                Ok((inp, head))
            })
            .collect()
    });
    // Inputs recorded before content hashes (runs before 2026-11-28): the
    // head of their file, where it is still at its recorded path, so that
    // the same PGN stored another way is still found (its sha256 is checked
    // before a skip: the file must be the recorded one).
    let legacy: Vec<(&InputRecord, String)> = pool.install(|| {
        known
            .par_iter()
            .filter(|k| k.content.is_none())
            .filter_map(|k| Some((*k, input::content_head(Path::new(&k.path)).ok()?)))
            .collect()
    });
    let short = |h: &str| h[..12].to_string();
    let mut todo: Vec<Input> = Vec::new();
    // The heads of `todo`, and the contents of those decoded whole.
    let mut heads: Vec<Option<String>> = Vec::new();
    let mut contents: HashMap<usize, Content> = HashMap::new();
    let mut failed = None;
    for inp in resolved {
        let (inp, head) = match inp {
            Err(e) => {
                failed.get_or_insert(e);
                continue;
            }
            // After a failure, the remaining inputs are only cleaned up.
            Ok((inp, _)) if failed.is_some() => {
                cleanup_spool(&inp);
                continue;
            }
            Ok(x) => x,
        };
        let repeat = match &inp.sha256 {
            Some(sha) if known.iter().any(|k| &k.sha256 == sha) => {
                Some(format!("already in the dataset (sha256 {})", short(sha)))
            }
            Some(sha) if todo.iter().any(|t| t.sha256.as_ref() == Some(sha)) => {
                Some(format!("given twice (sha256 {})", short(sha)))
            }
            _ => match same_content(
                &inp,
                head.as_deref(),
                (known, &legacy),
                &todo,
                &heads,
                &mut contents,
            ) {
                Ok(r) => r,
                Err(e) => {
                    failed.get_or_insert(e);
                    cleanup_spool(&inp);
                    continue;
                }
            },
        };
        match repeat {
            Some(why) => {
                skipped.push((inp.name.clone(), why));
                cleanup_spool(&inp);
            }
            None => {
                todo.push(inp);
                heads.push(head);
            }
        }
    }
    if let Some(e) = failed {
        todo.iter().for_each(cleanup_spool);
        return Err(e);
    }
    Ok(todo)
}

/// Marks the inputs of `todo` that continue an earlier version of theirs in
/// the dataset at `root`: the same file (by its path resolved, as recorded
/// or else from the recorded path) with its
/// earlier content as its first bytes and a game's tags after them, as the
/// archive of a running event grows ([`input::grown_from`]). Such an input is
/// read from where that version ended: its games are not held twice, and
/// they keep their ids (and any engine analysis of them). An earlier version
/// that ended in a cut game (its last game a `truncated input` reject), or
/// one recorded without its content (before 2026-11-28), is not continued:
/// the input is read whole, and the ingest's note counts its repeated games.
fn resume_grown(root: &Path, todo: &mut [Input], known: &[&InputRecord]) -> Result<(), Error> {
    // Each recorded file's latest version (one grown twice continues the
    // second), by its resolved path: each path resolved once.
    let mut latest: HashMap<PathBuf, (&InputRecord, &Content)> = HashMap::new();
    for k in known {
        if let (Some(c), Some(path)) = (&k.content, k.resolved_path()) {
            latest.insert(path, (k, c));
        }
    }
    let mut truncated: Option<Vec<String>> = None;
    for inp in todo.iter_mut() {
        let Some(&(k, earlier)) = inp.resolved.as_ref().and_then(|p| latest.get(p)) else {
            continue;
        };
        let truncated = match &mut truncated {
            Some(t) => t,
            None => truncated.insert(truncated_inputs(root)?),
        };
        let Ok(games) = u32::try_from(k.games_through()) else {
            continue;
        };
        if truncated.contains(&k.sha256) || is_puzzle_csv(&inp.path)? {
            continue;
        }
        let at =
            input::grown_from(&inp.path, earlier, games).map_err(|e| Error::io(&inp.path, e))?;
        inp.grown = at.map(|at| input::Grown {
            earlier_sha256: k.sha256.clone(),
            at,
        });
    }
    Ok(())
}

/// The inputs of `todo` that are other versions of recorded files (see
/// [`other_versions`]): those that continue their file (grew) are not.
fn new_versions(todo: &[Input], known: &[&InputRecord]) -> Vec<(String, Vec<InputRecord>)> {
    let new = todo
        .iter()
        .filter(|inp| inp.grown.is_none())
        .map(|inp| (inp.name.as_str(), inp.resolved.clone()));
    other_versions(new, known)
}

/// The sha256 of the inputs whose last game the dataset holds as a
/// `truncated input` reject.
fn truncated_inputs(root: &Path) -> Result<Vec<String>, Error> {
    use polars::prelude::*;
    let rejects = Dataset::open(root)?
        .scan(&schema::REJECTS)?
        .filter(
            col(schema::col::REASON)
                .str()
                .starts_with(lit("truncated input")),
        )
        .select([col(schema::col::SOURCE_SHA256)])
        .unique(None, UniqueKeepStrategy::Any)
        .collect()?;
    Ok(rejects
        .column(schema::col::SOURCE_SHA256)?
        .str()?
        .iter()
        .flatten()
        .map(str::to_string)
        .collect())
}

/// Whether the input at `path` is a puzzle CSV (by its first line, as
/// [`read_inputs`] tells).
fn is_puzzle_csv(path: &Path) -> Result<bool, Error> {
    let mut head = Vec::new();
    input::open_decoded(path)
        .and_then(|r| BufReader::new(r).take(4096).read_until(b'\n', &mut head))
        .map_err(|e| Error::io(path, e))?;
    Ok(puzzles::is_puzzle_csv(&head))
}

/// Why `inp` repeats the content of a known input (with its recorded
/// content, or a `legacy` one without: by its file's head) or of one in
/// `todo` (whose heads are `heads`), or `None`. Decodes whole only the
/// inputs that share a head, each once (`contents`, by index into `todo`).
fn same_content(
    inp: &Input,
    head: Option<&str>,
    (known, legacy): (&[&InputRecord], &[(&InputRecord, String)]),
    todo: &[Input],
    heads: &[Option<String>],
    contents: &mut HashMap<usize, Content>,
) -> Result<Option<String>, Error> {
    let Some(head) = head else { return Ok(None) };
    let same_head_known: Vec<&InputRecord> = known
        .iter()
        .copied()
        .filter(|k| k.content.as_ref().is_some_and(|c| c.head == head))
        .collect();
    let same_head_legacy: Vec<&InputRecord> = legacy
        .iter()
        .filter(|(_, h)| h == head)
        .map(|(k, _)| *k)
        .collect();
    let same_head_given: Vec<usize> = (0..todo.len())
        .filter(|&i| heads[i].as_deref() == Some(head))
        .collect();
    if same_head_known.is_empty() && same_head_legacy.is_empty() && same_head_given.is_empty() {
        return Ok(None);
    }
    let whole = |path: &Path| input::content(path).map_err(|e| Error::io(path, e));
    let mine = whole(&inp.path)?;
    let id = &mine.xxh3[..12];
    if let Some(k) = same_head_known
        .iter()
        .find(|k| k.content.as_ref().is_some_and(|c| c == &mine))
    {
        return Ok(Some(format!(
            "the same PGN as {}, already in the dataset (content xxh3 {id})",
            k.path
        )));
    }
    for k in same_head_legacy {
        let path = Path::new(&k.path);
        if whole(path)? == mine
            && input::hash_file(path).map_err(|e| Error::io(path, e))?.1 == k.sha256
        {
            return Ok(Some(format!(
                "the same PGN as {}, already in the dataset (content xxh3 {id}, read again \
                 from its file: recorded without one)",
                k.path
            )));
        }
    }
    for i in same_head_given {
        let theirs = match contents.entry(i) {
            std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
            std::collections::hash_map::Entry::Vacant(e) => e.insert(whole(&todo[i].path)?),
        };
        if *theirs == mine {
            return Ok(Some(format!(
                "the same PGN as {}, given before it (content xxh3 {id})",
                todo[i].name
            )));
        }
    }
    Ok(None)
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
    let Ingested {
        counts,
        sha256s,
        contents,
        pgn_bytes,
    } = result?;
    report.inputs = todo
        .iter()
        .zip(counts.iter().zip(sha256s))
        .zip(contents)
        .map(|((inp, (c, sha256)), content)| {
            report.counts += *c;
            if c.truncated > 0 {
                report.truncated.push(inp.name.clone());
            }
            InputRecord {
                path: inp.name.clone(),
                size: inp.size,
                sha256,
                games: c.games,
                rejects: c.rejects,
                plies: c.plies,
                unparsed_comments: c.unparsed_comments,
                content: Some(content),
                grown: inp.grown.clone(),
                resolved: inp
                    .resolved
                    .as_ref()
                    .map(|p| p.to_string_lossy().into_owned()),
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

/// A batch tagged with its input (and, for a puzzle CSV, what its rows add),
/// or the end of an input.
enum Item {
    Batch(usize, Batch, Option<puzzles::Extra>),
    InputDone(usize),
}

/// The rows of one batch: games, moves, rejects, and the input whose sha256
/// they still lack (see [`Source::sha256`]).
struct Parsed {
    pending: Option<usize>,
    tables: [RecordBatch; 3],
}

/// Rows of a table that may wait for their input's sha256 (see
/// [`PartWriter::write_pending`]): past this, the writer waits for the hash.
/// The full row groups among them keep only their compressed chunks and the
/// id columns. On the TCEC corpus concatenated 4× into one file, at
/// `--jobs 2`, this covers the whole hash (CPUs idle 1.3–1.8 s in all, peak
/// RSS 249–276 MB); 512 Ki rows left the writer waiting 0.6 s for it (idle
/// 1.9 s), hashing before parsing left one CPU idle 1.4 s (idle 3.2–3.6 s).
const MAX_PENDING_ROWS: usize = 1024 * 1024;

/// The columns derived from the input's sha256.
const SHA256_COLUMNS: [&str; 2] = [schema::col::GAME_ID, schema::col::SOURCE_SHA256];

/// What [`run`] read: per input its counts, sha256 and content; the
/// decompressed bytes.
struct Ingested {
    counts: Vec<Counts>,
    sha256s: Vec<String>,
    contents: Vec<Content>,
    pgn_bytes: u64,
}

/// Parses, hashes and writes `inputs`.
fn run(
    pool: &rayon::ThreadPool,
    writers: Vec<PartWriter>,
    inputs: &[Input],
    opts: IngestOptions,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Ingested, Error> {
    let jobs = opts.jobs.max(1);
    let mut writers = writers;
    let schemas = [&schema::GAMES, &schema::MOVES, &schema::REJECTS].map(|t| t.arrow_schema());
    let (item_tx, item_rx) = sync_channel::<Item>(jobs * 2);
    let (out_tx, out_rx) = sync_channel::<Parsed>(2);
    let (hashed_tx, hashed_rx) = channel::<()>();
    let hashes: Vec<OnceLock<String>> = inputs
        .iter()
        .map(|i| i.sha256.clone().map(OnceLock::from).unwrap_or_default())
        .collect();
    let mut per_input = vec![Counts::default(); inputs.len()];
    let mut prog = Progress {
        inputs_total: inputs.len(),
        bytes_total: inputs.iter().map(|i| i.size).sum(),
        ..Progress::default()
    };
    let mut pgn_bytes = 0u64;
    let mut contents = Vec::new();
    std::thread::scope(|s| -> Result<(), Error> {
        let reader = s.spawn(|| read_inputs(inputs, opts.batch_bytes, item_tx));
        // Inputs not hashed by the selection are hashed beside the parsing,
        // in order; batches parsed before their input's hash have their
        // sha256 columns filled in by the writer (a hash is far faster than
        // a parse, so this is the first input's first batches). Its sender
        // goes with it: a writer waiting for a hash learns that it stopped.
        // (As a task of the pool, the hashing took a thread from the parse
        // at the start only, and glibc's per-thread arenas grew apart: peak
        // RSS 284–336 MB on the TCEC corpus concatenated 4×, against 264–282
        // MB this way.)
        let hashes = &hashes;
        let hasher = s.spawn(move || -> Result<(), Error> {
            for (inp, hash) in inputs.iter().zip(hashes) {
                if hash.get().is_none() {
                    let _ = hash.set(inp.hash()?);
                    let _ = hashed_tx.send(());
                }
            }
            Ok(())
        });
        // The writer encodes each batch's columns on the parser pool, between
        // parse tasks: every `--jobs` thread does both kinds of work.
        // (Waiting, for the next batch or for the columns, happens here, never
        // on a pool thread.)
        let schemas = &schemas;
        let writer = s.spawn(move || -> Result<_, Error> {
            let fields = schemas.each_ref().map(sha256_fields);
            for parsed in out_rx {
                for ((w, rows), fields) in writers.iter_mut().zip(&parsed.tables).zip(&fields) {
                    w.write_pending(rows, pool, fields, parsed.pending)?;
                }
                release(&mut writers, schemas, hashes, pool)?;
                // Bounded memory: past the bound, wait for the next hash.
                while writers.iter().any(|w| w.pending_rows() > MAX_PENDING_ROWS) {
                    if hashed_rx.recv().is_err() {
                        // The hasher stopped (its error is reported by the caller).
                        return Err(Error::Dataset("an input could not be hashed".into()));
                    }
                    release(&mut writers, schemas, hashes, pool)?;
                }
            }
            Ok(writers)
        });
        let parsed = parse_all(
            pool,
            inputs,
            hashes,
            opts,
            item_rx,
            &out_tx,
            |item_counts, done| {
                for (i, c) in item_counts {
                    per_input[i] += c;
                    prog.counts += c;
                }
                for i in done {
                    prog.inputs_done += 1;
                    prog.bytes_done += inputs[i].size;
                }
                progress(&prog);
            },
        );
        drop(out_tx);
        let read = reader.join().expect("reader thread panicked");
        let hashed = hasher.join().expect("hasher thread panicked");
        let writers = writer.join().expect("writer thread panicked");
        // The reader's and the hasher's errors explain a parse or write stop
        // caused by a closed channel.
        (pgn_bytes, contents) = read?;
        assert_eq!(contents.len(), inputs.len(), "every input read to its end");
        hashed?;
        parsed?;
        let mut writers = writers?;
        release(&mut writers, schemas, hashes, pool)?;
        for w in writers {
            pool.install(|| w.commit())?;
        }
        Ok(())
    })?;
    let sha256s = hashes
        .into_iter()
        .map(|h| h.into_inner().expect("every input was hashed"))
        .collect();
    Ok(Ingested {
        counts: per_input,
        sha256s,
        contents,
        pgn_bytes,
    })
}

/// The fields of a table derived from the input's sha256.
fn sha256_fields(schema: &SchemaRef) -> Vec<usize> {
    SHA256_COLUMNS
        .iter()
        .filter_map(|c| schema.index_of(c).ok())
        .collect()
}

/// Writes the waiting sha256 columns whose inputs are hashed by now.
fn release(
    writers: &mut [PartWriter],
    schemas: &[SchemaRef; 3],
    hashes: &[OnceLock<String>],
    pool: &rayon::ThreadPool,
) -> Result<(), Error> {
    for (w, arrow) in writers.iter_mut().zip(schemas) {
        w.release(pool, &mut |tag, field, values| match tag {
            None => Some(values.clone()),
            Some(i) => Some(sha256_column(
                arrow.field(field).name(),
                hashes[i].get()?,
                values,
            )),
        })?;
    }
    Ok(())
}

/// The final values of a sha256 column parsed before the input's hash (see
/// [`Source::sha256`]): game numbers become game ids, and the empty
/// `source_sha256` the hash.
fn sha256_column(name: &str, sha256: &str, values: &ArrayRef) -> ArrayRef {
    if name == schema::col::SOURCE_SHA256 {
        return Arc::new(StringArray::from_iter_values(std::iter::repeat_n(
            sha256,
            values.len(),
        )));
    }
    let numbers = values.as_primitive::<Int64Type>();
    // A game's moves are consecutive rows: one id per game.
    let mut last: Option<(i64, i64)> = None;
    let ids = Int64Array::from_iter_values(numbers.values().iter().map(|&n| match last {
        Some((m, id)) if m == n => id,
        _ => {
            let id = game_id(sha256, n as u32);
            last = Some((n, id));
            id
        }
    }));
    Arc::new(ids)
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
    hashes: &[OnceLock<String>],
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
                    Some(Item::Batch(i, b, extra)) => {
                        let tx = done_tx.clone();
                        let seq = next_in;
                        scope.spawn(move |_| {
                            let parsed = catch_unwind(AssertUnwindSafe(|| {
                                let src = Source {
                                    name: &inputs[i].name,
                                    sha256: hashes[i].get().map(String::as_str),
                                };
                                let mut t = Tables::default();
                                let c = match &extra {
                                    Some(x) => x.parse(&b, src, opts.parse, &mut t),
                                    None => parse_batch(&b, src, opts.parse, &mut t),
                                };
                                let pending = src.sha256.is_none().then_some(i);
                                let tables =
                                    [t.games.finish(), t.moves.finish(), t.rejects.finish()];
                                Done::Batch((i, c), Parsed { pending, tables })
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

/// Decompresses and splits the inputs in order (a Lichess puzzle CSV, known
/// by its header, row by row). Returns the bytes read.
/// Sends input `i`'s batches; `false` when the parse stopped taking them.
fn split_into<R: Read>(
    tx: &SyncSender<Item>,
    i: usize,
    mut split: Splitter<R>,
    batch_bytes: usize,
    total: &mut u64,
) -> std::io::Result<bool> {
    while let Some(batch) = split.next_batch(batch_bytes)? {
        *total += batch.buf.len() as u64;
        if tx.send(Item::Batch(i, batch, None)).is_err() {
            return Ok(false);
        }
    }
    Ok(true)
}

fn read_inputs(
    inputs: &[Input],
    batch_bytes: usize,
    tx: SyncSender<Item>,
) -> Result<(u64, Vec<Content>), Error> {
    let mut total = 0u64;
    let mut contents = Vec::with_capacity(inputs.len());
    for (i, inp) in inputs.iter().enumerate() {
        let io_err = |err| Error::Io {
            path: inp.name.clone(),
            err,
        };
        let reader = input::open_decoded(&inp.path).map_err(|e| Error::io(&inp.path, e))?;
        let (reader, content) = ContentReader::new(reader);
        let mut reader = BufReader::with_capacity(1 << 16, reader);
        // The first line (at most 4 KiB of it) tells a puzzle CSV; it is
        // then read again, in front of the rest.
        let mut head = Vec::new();
        let peeked = (&mut reader).take(4096).read_until(b'\n', &mut head);
        let is_csv = puzzles::is_puzzle_csv(&head);
        // A cut input ends there for the reader too (the splitters make the
        // cut game a reject); any other error fails the input.
        let rest: Box<dyn BufRead + Send> = match peeked {
            Ok(_) => Box::new(reader),
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => {
                Box::new(BufReader::new(Failed(Some(e))))
            }
            Err(e) => return Err(io_err(e)),
        };
        let reader = std::io::Cursor::new(head).chain(rest);
        let sent = if let Some(g) = &inp.grown {
            // Its earlier version's games are in the dataset: their bytes
            // are hashed with the rest (the content is the whole file's),
            // not split again.
            let mut reader = reader;
            let read = std::io::copy(&mut (&mut reader).take(g.at.offset), &mut std::io::sink())
                .map_err(io_err)?;
            if read < g.at.offset {
                return Err(Error::InputData(format!(
                    "{}: the file changed while it was read (it is shorter than its earlier \
                     version, {} bytes, now)",
                    inp.name, g.at.offset
                )));
            }
            split_into(
                &tx,
                i,
                Splitter::resume(reader, g.at),
                batch_bytes,
                &mut total,
            )
            .map_err(io_err)?
        } else if is_csv {
            let mut rows = puzzles::PuzzleReader::new(reader).map_err(io_err)?;
            loop {
                let Some((batch, extra, read)) = rows.next_batch(batch_bytes).map_err(io_err)?
                else {
                    break true;
                };
                total += read;
                if tx.send(Item::Batch(i, batch, Some(extra))).is_err() {
                    break false;
                }
            }
        } else {
            split_into(&tx, i, Splitter::new(reader), batch_bytes, &mut total).map_err(io_err)?
        };
        contents.push(content.content());
        if !sent || tx.send(Item::InputDone(i)).is_err() {
            return Ok((total, contents));
        }
    }
    Ok((total, contents))
}

/// A reader that fails once with the error it holds, then ends.
struct Failed(Option<std::io::Error>);

impl Read for Failed {
    fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
        self.0.take().map_or(Ok(0), Err)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Game numbers become the ids the parser gives once the hash is known
    /// (a game's moves repeat its number); the empty hashes, the hash.
    #[test]
    fn sha256_columns_get_their_final_values() {
        let sha = "ab";
        let numbers: ArrayRef = Arc::new(Int64Array::from(vec![3, 3, 3, 5, 1, 1]));
        let ids = sha256_column(schema::col::GAME_ID, sha, &numbers);
        let want: Vec<i64> = [3, 3, 3, 5, 1, 1].map(|n| game_id(sha, n)).to_vec();
        assert_eq!(ids.as_primitive::<Int64Type>().values().to_vec(), want);
        let empty: ArrayRef = Arc::new(StringArray::from(vec![""; 2]));
        let hashes = sha256_column(schema::col::SOURCE_SHA256, sha, &empty);
        assert_eq!(
            hashes.as_string::<i32>().iter().collect::<Vec<_>>(),
            [Some(sha); 2]
        );
    }
}
