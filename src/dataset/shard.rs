//! Shards: one piece of a distributed ingest (`ingest --shard`) or engine
//! run (`analyze|match|policy --slice K/N --shard`), written beside the dataset by many
//! processes at once, and committed later, many in one manifest, by
//! [`commit_shards`] (`evallab commit`).
//!
//! ```text
//! DATASET/shards/<name>/games.parquet    the shard's parts (committed files that no manifest lists):
//! DATASET/shards/<name>/moves.parquet    games, moves, rejects of an ingest shard;
//! DATASET/shards/<name>/rejects.parquet  the stage's table and analysis_failures of an engine shard
//! DATASET/shards/<name>/shard.json       written last: the shard's commit point
//! ```
//!
//! A shard writer takes no lock: it writes only inside its own folder, which
//! no reader opens. A folder without `shard.json` is a half-written shard
//! (its writer died or is still running) and is never committed. `commit`
//! holds the dataset's lock, links every complete shard's parts into the
//! table folders under new part numbers, and commits one manifest that adds
//! one run per ingest shard and one chunk of its label's run per
//! engine shard, recording the shard's name and content fingerprint;
//! only then are the shard folders removed. So the dataset gains all the
//! shards or none, and committing is idempotent: a shard whose fingerprint,
//! or whose every input (analysed game), the manifest already has is skipped — a task that
//! was retried and wrote its shard twice, or a commit run twice, adds no game
//! twice.

use std::collections::{BTreeMap, HashSet};
use std::fs;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::Error;
use crate::dataset::inspect::repeated_of_parts;
use crate::dataset::lock::Holder;
use crate::dataset::remove::other_versions;
use crate::dataset::writer::{DatasetWriter, Open};
use crate::dataset::{Dataset, EngineRun, InputRecord, Run, commit, part_file};
use crate::schema::{self, Table};

/// The folder of the shards inside a dataset.
pub const SHARDS_DIR: &str = "shards";
/// A shard's commit point.
pub const SHARD_FILE: &str = "shard.json";

/// What a run committed from a shard records about it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct ShardRecord {
    pub name: String,
    pub fingerprint: String,
}

/// A complete shard, as its `shard.json` describes it.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Shard {
    pub name: String,
    /// [`fingerprint`] of its inputs and options.
    pub fingerprint: String,
    pub started_unix: u64,
    pub seconds: f64,
    /// An ingest shard's options and inputs.
    #[serde(default)]
    pub options: serde_json::Value,
    #[serde(default)]
    pub inputs: Vec<InputRecord>,
    /// Table name → file inside the shard's folder.
    pub files: BTreeMap<String, String>,
    /// An engine shard (`analyze|match|policy --shard`): the run's settings
    /// and the one chunk of results (its files are the shard's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub analysis: Option<EngineRun>,
}

/// The content fingerprint of a shard: its inputs' sha256 in order and the
/// ingest options, so the same work gives the same fingerprint wherever and
/// however often it runs.
///
/// ```
/// let a = evallab::dataset::shard::fingerprint(["ab", "cd"], &serde_json::json!({"pv": true}));
/// let b = evallab::dataset::shard::fingerprint(["cd", "ab"], &serde_json::json!({"pv": true}));
/// assert_eq!(a.len(), 64);
/// assert_ne!(a, b);
/// ```
pub fn fingerprint<'a>(
    sha256s: impl IntoIterator<Item = &'a str>,
    options: &serde_json::Value,
) -> String {
    let mut h = Sha256::new();
    h.update(b"evallab shard 1\n");
    for s in sha256s {
        h.update(s.as_bytes());
        h.update(b"\n");
    }
    h.update(options.to_string().as_bytes());
    evallab_pgn::input::hex(&h.finalize())
}

/// A shard name is a plain file name: letters, digits, `-`, `_`, `.`, not
/// starting with a dot (those are the commit protocol's temp names).
pub fn check_name(name: &str) -> Result<(), Error> {
    let ok = !name.is_empty()
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if ok {
        Ok(())
    } else {
        Err(Error::Usage(format!(
            "--shard {name}: a shard name is letters, digits, `-`, `_` and `.`, not starting with `.`"
        )))
    }
}

/// The folder of shard `name`.
pub fn shard_dir(root: &Path, name: &str) -> PathBuf {
    root.join(SHARDS_DIR).join(name)
}

/// Starts writing shard `name`: withdraws an earlier attempt's `shard.json`
/// first, so that its parts are never mixed with this attempt's.
pub fn begin(root: &Path, name: &str) -> Result<PathBuf, Error> {
    check_name(name)?;
    let dir = shard_dir(root, name);
    let done = dir.join(SHARD_FILE);
    match fs::remove_file(&done) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(Error::io(&done, e)),
    }
    fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
    Ok(dir)
}

/// Completes a shard whose parts are committed in its folder.
pub fn finish(root: &Path, shard: &Shard) -> Result<(), Error> {
    let text = serde_json::to_string_pretty(shard)? + "\n";
    commit::write_bytes(
        &shard_dir(root, &shard.name).join(SHARD_FILE),
        text.as_bytes(),
    )
}

/// The complete shards (by name) and the names of the incomplete ones.
pub fn list(root: &Path) -> Result<(Vec<Shard>, Vec<String>), Error> {
    let dir = root.join(SHARDS_DIR);
    let mut names: Vec<String> = match fs::read_dir(&dir) {
        Ok(entries) => entries
            .flatten()
            .filter(|e| e.path().is_dir())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => return Err(Error::io(&dir, e)),
    };
    names.sort();
    let (mut complete, mut incomplete) = (Vec::new(), Vec::new());
    for name in names {
        let path = dir.join(&name).join(SHARD_FILE);
        match fs::read_to_string(&path) {
            Ok(text) => {
                let shard: Shard = serde_json::from_str(&text)
                    .map_err(|e| Error::Dataset(format!("{}: {e}", path.display())))?;
                complete.push(shard);
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => incomplete.push(name),
            Err(e) => return Err(Error::io(&path, e)),
        }
    }
    Ok((complete, incomplete))
}

/// Links a shard's parts into the table folders as part `part`; returns
/// table → file, relative to the dataset.
fn link_parts(
    ds: &Dataset,
    shard: &Shard,
    part: u32,
    tables: &[&Table],
) -> Result<BTreeMap<String, String>, Error> {
    let dir = shard_dir(&ds.root, &shard.name);
    let mut files = BTreeMap::new();
    for (table, file) in &shard.files {
        let t = tables.iter().find(|t| t.name == table).ok_or_else(|| {
            Error::Dataset(format!(
                "shard {}: unexpected table {table} in its {SHARD_FILE}",
                shard.name
            ))
        })?;
        let rel = part_file(t, part);
        commit::link_into(&dir.join(file), &ds.root.join(&rel))?;
        files.insert(table.clone(), rel);
    }
    Ok(files)
}

/// Adds an engine shard as a chunk of its label's run (in memory;
/// the caller commits the manifest). Skipped when the label has the shard
/// (fingerprint) or all its games; an error when it has some of them, or
/// when the label was run with other settings.
fn commit_analysis(
    ds: &mut DatasetWriter,
    shard: Shard,
    report: &mut CommitReport,
) -> Result<(), Error> {
    let Some(settings) = shard.analysis.clone() else {
        return Ok(());
    };
    let mut chunk = settings.chunks.first().cloned().ok_or_else(|| {
        Error::Dataset(format!(
            "shard {}: an analysis without its chunk",
            shard.name
        ))
    })?;
    let existing = ds.manifest.analysis(&settings.label).cloned();
    if let Some(old) = &existing {
        if old.fingerprint != settings.fingerprint {
            return Err(Error::Dataset(format!(
                "shard {}: label `{}` was run with other settings; nothing was committed",
                shard.name, settings.label
            )));
        }
        let seen = old.chunks.iter().any(|c| {
            c.shard
                .as_ref()
                .is_some_and(|s| s.fingerprint == shard.fingerprint)
        });
        // The tables the shard wrote: its stage's and `analysis_failures`.
        let tables: Vec<&Table> = schema::ANALYSIS_TABLES
            .into_iter()
            .filter(|t| shard.files.contains_key(t.name))
            .collect();
        let done = ds.done_games(old, &tables)?;
        let mine = shard_games(&shard_dir(&ds.root, &shard.name), &shard)?;
        let overlap = mine.iter().filter(|g| done.contains(g)).count();
        if seen || (overlap == mine.len() && !mine.is_empty()) {
            report.already.push(shard.name);
            return Ok(());
        }
        if overlap > 0 {
            return Err(Error::Dataset(format!(
                "shard {}: {overlap} of its {} games are already analysed under label `{}`; \
                 nothing was committed",
                shard.name,
                mine.len(),
                settings.label
            )));
        }
    }
    let part = ds.next_part();
    chunk.part = part;
    chunk.files = link_parts(ds, &shard, part, &schema::ANALYSIS_TABLES)?;
    chunk.shard = Some(ShardRecord {
        name: shard.name.clone(),
        fingerprint: shard.fingerprint,
    });
    report.committed.push((shard.name, part, chunk.games, 0));
    ds.add_chunk(&settings, chunk);
    Ok(())
}

/// The game ids in an engine shard's parts.
fn shard_games(dir: &Path, shard: &Shard) -> Result<HashSet<i64>, Error> {
    use polars::prelude::*;
    let mut out = HashSet::new();
    for file in shard.files.values() {
        let path = dir.join(file);
        let ids = LazyFrame::scan_parquet(
            PlRefPath::new(path.to_string_lossy().as_ref()),
            ScanArgsParquet::default(),
        )?
        .select([col(schema::col::GAME_ID)])
        .collect()?;
        out.extend(ids.column(schema::col::GAME_ID)?.i64()?.into_no_null_iter());
    }
    Ok(out)
}

/// What [`commit_shards`] did.
#[derive(Debug, Clone, Default)]
pub struct CommitReport {
    /// Shards added, with their part number, games (ingested or analysed)
    /// and rejects.
    pub committed: Vec<(String, u32, u64, u64)>,
    /// Shards the dataset already had (same fingerprint, or every input).
    pub already: Vec<String>,
    /// Shard folders without `shard.json` (a writer died or is running), left alone.
    pub incomplete: Vec<String>,
    /// Leftovers of an interrupted earlier writer that were removed.
    pub removed: Vec<PathBuf>,
    pub stale_lock: Option<Holder>,
    /// Games of the committed shards the dataset now holds more than once.
    pub repeated: u64,
    /// Inputs of the committed shards whose file the dataset held in another
    /// version (see [`crate::ingest::IngestReport::versions`]): taken out in
    /// the same commit with `replace`, else held beside.
    pub versions: Vec<(String, Vec<InputRecord>)>,
}

/// Commits the complete shards (all, or those named in `only`) to the
/// dataset at `root` (created if missing) in one manifest, in name order.
/// A shard that shares some inputs with the dataset, but not all, is an
/// error and nothing is committed: its games would be there twice.
/// With `replace`, an input whose file the dataset held in another version
/// (not one it grew from) takes that version's place, as `ingest --replace`.
pub fn commit_shards(root: &Path, only: &[String], replace: bool) -> Result<CommitReport, Error> {
    only.iter().try_for_each(|n| check_name(n))?;
    // A new dataset's folder holds its shards already: no folder is a typo
    // (it was created, and "0 shards committed" said nothing was wrong).
    if !root.is_dir() {
        return Err(Error::Dataset(format!(
            "{}: no such folder: no dataset and no shards to commit",
            root.display()
        )));
    }
    let mut ds = DatasetWriter::open(root, "commit", Open::OrCreate)?;
    let mut report = CommitReport {
        stale_lock: ds.stale().cloned(),
        removed: ds.removed().to_vec(),
        ..CommitReport::default()
    };
    let (shards, incomplete) = list(root)?;
    let wanted = |n: &String| only.is_empty() || only.contains(n);
    for n in only {
        if shards.iter().any(|s| &s.name == n) || incomplete.contains(n) {
            continue;
        }
        // Committed by an earlier run of `commit` (its folder is gone).
        let chunks = ds.manifest.analyses.iter().flat_map(|a| &a.chunks);
        let committed = ds.manifest.runs.iter().map(|r| &r.shard);
        if committed
            .chain(chunks.map(|c| &c.shard))
            .any(|s| s.as_ref().is_some_and(|s| &s.name == n))
        {
            report.already.push(n.clone());
        } else {
            return Err(Error::Dataset(format!(
                "{}: no shard named {n}",
                shard_dir(root, n).display()
            )));
        }
    }
    report.incomplete = incomplete.into_iter().filter(wanted).collect();
    // The versions the dataset held before this commit.
    let before: Vec<InputRecord> = ds.manifest.inputs().cloned().collect();
    let before: Vec<&InputRecord> = before.iter().collect();
    for shard in shards.into_iter().filter(|s| wanted(&s.name)) {
        if shard.analysis.is_some() {
            commit_analysis(&mut ds, shard, &mut report)?;
            continue;
        }
        let seen = ds.manifest.runs.iter().any(|r| {
            r.shard
                .as_ref()
                .is_some_and(|s| s.fingerprint == shard.fingerprint)
        });
        let known: Vec<&InputRecord> = shard
            .inputs
            .iter()
            .filter(|i| ds.manifest.has_input(i))
            .collect();
        if seen || known.len() == shard.inputs.len() {
            report.already.push(shard.name);
            continue;
        }
        if let Some(i) = known.first() {
            return Err(Error::Dataset(format!(
                "shard {}: its input {} (sha256 {}) is already in the dataset (or the same PGN \
                 stored otherwise), its other inputs are \
                 not; nothing was committed (write the shard again: a shard writer skips inputs \
                 the dataset has)",
                shard.name,
                i.path,
                &i.sha256[..12]
            )));
        }
        let part = ds.next_part();
        let files = link_parts(&ds, &shard, part, &schema::TABLES)?;
        let (games, rejects) = shard
            .inputs
            .iter()
            .fold((0, 0), |(g, r), i| (g + i.games, r + i.rejects));
        report
            .committed
            .push((shard.name.clone(), part, games, rejects));
        let new = shard
            .inputs
            .iter()
            .filter(|i| i.grown.is_none())
            .map(|i| (i.path.as_str(), i.resolved.as_ref().map(PathBuf::from)));
        report.versions.extend(other_versions(new, &before));
        ds.add_run(Run {
            part,
            started_unix: shard.started_unix,
            seconds: shard.seconds,
            options: shard.options,
            inputs: shard.inputs,
            files,
            shard: Some(ShardRecord {
                name: shard.name,
                fingerprint: shard.fingerprint,
            }),
        });
    }
    if replace && !report.versions.is_empty() {
        ds.replace_versions(&report.versions)?;
    }
    if !report.committed.is_empty() {
        ds.commit()?;
        // The committed ingest runs' games the dataset now holds more than once.
        let parts: Vec<u32> = report.committed.iter().map(|c| c.1).collect();
        report.repeated = repeated_of_parts(root, &parts)?;
    }
    // Past the commit point: the committed shards' folders go (their parts
    // live on as links in the table folders).
    for name in report.committed.iter().map(|c| &c.0).chain(&report.already) {
        let dir = shard_dir(root, name);
        match fs::remove_dir_all(&dir) {
            // Committed by an earlier `commit` whose folder is gone.
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => return Err(Error::io(&dir, e)),
            _ => {}
        }
    }
    Ok(report)
}
