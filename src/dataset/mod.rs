//! A dataset folder: Parquet parts per table, and `manifest.json`, which lists
//! the committed parts and every input ingested.
//!
//! ```text
//! DATASET/manifest.json
//! DATASET/games/part-000001.parquet
//! DATASET/moves/part-000001.parquet
//! DATASET/rejects/part-000001.parquet
//! DATASET/analysis/part-000002.parquet            engine re-analysis (`evallab analyze`)
//! DATASET/analysis_failures/part-000002.parquet   positions the engine failed on
//! DATASET/derived/…            tables computed from the parts (EAS labels, …)
//! DATASET/shards/<name>/…      uncommitted results of a distributed ingest or analysis ([`shard`])
//! DATASET/.evallab.lock        held by the one process writing the dataset
//! ```
//!
//! Every write goes through [`commit`]: parts are committed under names the
//! manifest does not list yet, then the manifest is committed (the commit
//! point), then files it no longer lists are removed. A run that fails or is
//! killed at any point leaves the previous manifest and every part it lists
//! in place. Only a [`writer::DatasetWriter`] writes: it holds the dataset's
//! [`lock`], and a [`Dataset`] itself is read-only.

pub mod commit;
pub mod derived;
pub mod inspect;
pub mod lock;
pub mod part;
pub mod remove;
pub mod shard;
pub mod writer;

use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::fs;
use std::path::{Path, PathBuf};

use polars::prelude::*;
use serde::{Deserialize, Serialize};

use crate::Error;
use crate::schema::{self, MANIFEST_FILE, Table, col};

/// One input file as recorded in the manifest.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct InputRecord {
    pub path: String,
    pub size: u64,
    pub sha256: String,
    pub games: u64,
    pub rejects: u64,
    pub plies: u64,
    pub unparsed_comments: u64,
    /// Its decoded content, by which the same PGN stored plain and
    /// compressed is one input (absent in runs before 2026-11-28).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<evallab_pgn::input::Content>,
    /// Read from where its earlier version (the same file before games were
    /// appended to it), already in the dataset, ended: its counts are the
    /// new games'.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grown: Option<evallab_pgn::input::Grown>,
    /// Its path resolved (absolute, links followed) when it was read, by
    /// which a grown file is found from any working folder (absent for
    /// stdin, and in runs before 2026-11-28).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resolved: Option<String>,
}

impl InputRecord {
    /// The games (numbered spans) of the whole file as recorded: those of
    /// its earlier versions too.
    pub fn games_through(&self) -> u64 {
        let before = self.grown.as_ref().map_or(0, |g| u64::from(g.at.games));
        before + self.games + self.rejects
    }

    /// Where its file is: its path resolved when it was read, or (recorded
    /// before 2026-11-28) its recorded path resolved now.
    pub fn resolved_path(&self) -> Option<PathBuf> {
        match &self.resolved {
            Some(r) => Some(PathBuf::from(r)),
            None => fs::canonicalize(&self.path).ok(),
        }
    }

    /// Whether `other` is this input again: the same sha256, or the same
    /// decoded content (the same PGN plain and compressed).
    pub fn repeats(&self, other: &InputRecord) -> bool {
        self.sha256 == other.sha256
            || matches!((&self.content, &other.content), (Some(a), Some(b)) if a == b)
    }
}

/// One ingest run.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Run {
    /// Part number: the run's files are `<table>/part-<part>.parquet`.
    pub part: u32,
    pub started_unix: u64,
    pub seconds: f64,
    pub options: serde_json::Value,
    pub inputs: Vec<InputRecord>,
    /// Table name → the part file this run committed, relative to the dataset
    /// folder (what readers open; never a glob).
    #[serde(default)]
    pub files: BTreeMap<String, String>,
    /// The shard this run was committed from (`evallab commit`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<shard::ShardRecord>,
}

impl Run {
    /// The files of a run that wrote every base table as part `part`.
    pub fn base_files(part: u32) -> BTreeMap<String, String> {
        schema::TABLES
            .iter()
            .map(|t| (t.name.to_string(), part_file(t, part)))
            .collect()
    }
}

/// The engine that ran: its `id name` and the executable's path.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct EngineId {
    pub name: String,
    pub path: String,
}

/// One engine run (`evallab analyze|match|policy --label …`, an
/// `evallab::engine::Stage`): what was run, and the chunks of results
/// committed so far (a resumed run adds chunks).
///
/// Manifests written before the stages shared one driver stored the runs
/// flat (`engine`, `engine_path`, `limit`, `multipv`, `all_depths`, `plies`,
/// `skip_book`, `weights_sha256`); they read as the same runs
/// (`LegacyRun`) and are written back in this layout.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(remote = "Self")]
pub struct EngineRun {
    pub label: String,
    /// The stage that wrote it: `analyze`, `match` or `policy`.
    pub stage: String,
    pub engine: EngineId,
    /// Every `setoption` sent, in order (name, value).
    pub options: Vec<(String, String)>,
    /// The stage's settings (a JSON object): with the engine and its
    /// options, what the label stands for.
    pub settings: serde_json::Value,
    /// Hash of the engine, its options and the settings: a label keeps one
    /// meaning ([`EngineRun::settings_fingerprint`]).
    pub fingerprint: String,
    pub chunks: Vec<EngineChunk>,
}

impl Serialize for EngineRun {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        EngineRun::serialize(self, s)
    }
}

impl<'de> Deserialize<'de> for EngineRun {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = serde_json::Value::deserialize(d)?;
        let run = if v.get("stage").is_some() {
            EngineRun::deserialize(v)
        } else {
            LegacyRun::deserialize(v).map(EngineRun::from)
        };
        run.map_err(serde::de::Error::custom)
    }
}

/// A run as manifests stored it before [`EngineRun`]: a match protocol in
/// `limit`, a policy's weights in `weights_sha256`.
#[derive(Deserialize)]
struct LegacyRun {
    label: String,
    engine: String,
    engine_path: String,
    options: Vec<(String, String)>,
    limit: String,
    multipv: u32,
    all_depths: bool,
    plies: Option<String>,
    skip_book: bool,
    fingerprint: String,
    chunks: Vec<EngineChunk>,
    #[serde(default)]
    weights_sha256: Option<String>,
}

impl From<LegacyRun> for EngineRun {
    /// The stage's settings as the stages record them (the fingerprint was
    /// computed from the same keys, so a resumed label keeps its meaning).
    fn from(o: LegacyRun) -> EngineRun {
        use serde_json::json;
        let (stage, settings) = match o.weights_sha256 {
            Some(sha) => (
                "policy",
                json!({ "weights_sha256": sha, "limit": o.limit, "plies": o.plies, "skip_book": o.skip_book }),
            ),
            None if o.limit.starts_with("match:") => (
                "match",
                json!({ "protocol": o.limit, "moves": o.plies, "skip_book": o.skip_book }),
            ),
            None => (
                "analyze",
                json!({ "limit": o.limit, "multipv": o.multipv, "all_depths": o.all_depths,
                        "plies": o.plies, "skip_book": o.skip_book }),
            ),
        };
        EngineRun {
            label: o.label,
            stage: stage.into(),
            engine: EngineId {
                name: o.engine,
                path: o.engine_path,
            },
            options: o.options,
            settings,
            fingerprint: o.fingerprint,
            chunks: o.chunks,
        }
    }
}

impl EngineRun {
    /// Some committed chunk has a part of `table` (`analysis` for `evallab
    /// analyze`, `match` for `evallab match`).
    pub fn has_table(&self, table: &Table) -> bool {
        self.chunks.iter().any(|c| c.files.contains_key(table.name))
    }

    /// The first 8 bytes of sha256 of the engine, its options and the
    /// settings (in their order), in hex.
    pub fn settings_fingerprint(&self) -> String {
        use sha2::{Digest, Sha256};
        let mut key = serde_json::json!({
            "engine": self.engine.name,
            "path": self.engine.path,
            "options": self.options,
        });
        if let (Some(k), Some(s)) = (key.as_object_mut(), self.settings.as_object()) {
            k.extend(s.clone());
        }
        let d = Sha256::digest(key.to_string().as_bytes());
        evallab_pgn::input::hex(&d[..8])
    }

    /// A setting as text (`None`: absent or null).
    pub fn setting(&self, key: &str) -> Option<&str> {
        self.settings.get(key).and_then(serde_json::Value::as_str)
    }

    /// The searches at a position: an `analyze` or `policy` run's `go` limit
    /// (`nodes 20000`), a `match` run's protocol.
    pub fn limit(&self) -> &str {
        self.setting("limit")
            .or_else(|| self.setting("protocol"))
            .unwrap_or("")
    }

    /// The `MultiPV` sent (1 when none was).
    pub fn multipv(&self) -> u32 {
        self.options
            .iter()
            .find(|(k, _)| k == "MultiPV")
            .and_then(|(_, v)| v.parse().ok())
            .unwrap_or(1)
    }

    /// Every completed depth was kept, not only the final lines.
    pub fn all_depths(&self) -> bool {
        self.settings
            .get("all_depths")
            .and_then(serde_json::Value::as_bool)
            .unwrap_or(false)
    }

    /// The ply range (`analyze`, `policy`) or move range (`match`).
    pub fn plies(&self) -> Option<&str> {
        self.setting("plies").or_else(|| self.setting("moves"))
    }
}

/// Results of one engine run committed together.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct EngineChunk {
    pub part: u32,
    pub started_unix: u64,
    pub seconds: f64,
    pub games: u64,
    pub positions: u64,
    pub lines: u64,
    pub failures: u64,
    /// Of `positions`, those whose rows were copied from an earlier run with
    /// the same settings (`analyze --reuse`), not searched.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub reused: u64,
    /// Engine restarts (crash, timeout, garbage) while computing the chunk.
    pub restarts: u64,
    /// Table name → part file, relative to the dataset folder.
    pub files: BTreeMap<String, String>,
    /// The shard this chunk was committed from (`evallab commit`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<shard::ShardRecord>,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// The dataset manifest.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Manifest {
    pub tool: String,
    pub tool_version: String,
    pub schema_version: String,
    pub runs: Vec<Run>,
    /// Engine analyses of the dataset's positions (kept across `ingest
    /// --overwrite`: game ids depend only on the inputs' content).
    #[serde(default)]
    pub analyses: Vec<EngineRun>,
    /// Each listed part's size and hash when it was committed (by path as
    /// listed): `Dataset::open` checks the sizes, `evallab inspect --verify`
    /// the hashes. Parts of manifests written before 2026-11-28 get theirs at
    /// the next commit.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub sums: BTreeMap<String, PartSum>,
}

/// A frame's game ids, in its order.
pub fn game_ids(df: &DataFrame) -> PolarsResult<Vec<i64>> {
    Ok(df
        .column(col::GAME_ID)?
        .i64()?
        .into_no_null_iter()
        .collect())
}

/// The rows of these games: a filter that a scan applies as it reads, so
/// that only their rows are held.
pub fn game_id_in(ids: &[i64]) -> Expr {
    let ids = Series::new(col::GAME_ID.into(), ids);
    col(col::GAME_ID).is_in(lit(ids).implode(false), false)
}

/// A part's size and xxh3-128 (hex) at its commit.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct PartSum {
    pub bytes: u64,
    pub xxh3: String,
}

impl PartSum {
    /// The part at `path` as it is now.
    pub fn of(path: &Path) -> Result<PartSum, Error> {
        let file = fs::File::open(path).map_err(|e| Error::io(path, e))?;
        let (mut r, hashed) = evallab_pgn::input::ContentReader::new(file);
        std::io::copy(&mut r, &mut std::io::sink()).map_err(|e| Error::io(path, e))?;
        let c = hashed.content();
        Ok(PartSum {
            bytes: c.bytes,
            xxh3: c.xxh3,
        })
    }
}

impl Default for Manifest {
    fn default() -> Self {
        Manifest {
            tool: "evallab".into(),
            tool_version: env!("CARGO_PKG_VERSION").into(),
            schema_version: schema::SCHEMA_VERSION.into(),
            runs: Vec::new(),
            analyses: Vec::new(),
            sums: BTreeMap::new(),
        }
    }
}

impl Manifest {
    /// Every input of every run.
    pub fn inputs(&self) -> impl Iterator<Item = &InputRecord> {
        self.runs.iter().flat_map(|r| r.inputs.iter())
    }

    /// Whether this input (or the same PGN stored otherwise) was already
    /// ingested.
    pub fn has_input(&self, input: &InputRecord) -> bool {
        self.inputs().any(|i| i.repeats(input))
    }

    /// The analysis run with this label.
    pub fn analysis(&self, label: &str) -> Option<&EngineRun> {
        self.analyses.iter().find(|a| a.label == label)
    }

    /// Adds a committed chunk to the run labelled as `run` (or adds `run`
    /// with this one chunk): the only place a manifest's engine runs grow.
    pub fn add_chunk(&mut self, run: &EngineRun, chunk: EngineChunk) {
        match self.analyses.iter_mut().find(|a| a.label == run.label) {
            Some(a) => a.chunks.push(chunk),
            None => self.analyses.push(EngineRun {
                chunks: vec![chunk],
                ..run.clone()
            }),
        }
    }

    /// The analysis (or policy, or match) run with this label, or a usage
    /// error naming the dataset.
    pub fn require_analysis(&self, label: &str, root: &Path) -> Result<&EngineRun, Error> {
        self.analysis(label).ok_or_else(|| {
            Error::Usage(format!(
                "no run `{label}` in {}; `evallab inspect` lists the runs",
                root.display()
            ))
        })
    }

    /// Every committed file: the ingest runs' and the analysis chunks'.
    pub fn files(&self) -> impl Iterator<Item = (&String, &String)> {
        let runs = self.runs.iter().flat_map(|r| r.files.iter());
        let chunks = self
            .analyses
            .iter()
            .flat_map(|a| a.chunks.iter().flat_map(|c| c.files.iter()));
        runs.chain(chunks)
    }

    /// Totals over all inputs.
    pub fn totals(&self) -> (u64, u64, u64) {
        self.inputs().fold((0, 0, 0), |(g, r, p), i| {
            (g + i.games, r + i.rejects, p + i.plies)
        })
    }
}

/// A dataset folder and its manifest, read-only: writes go through a
/// [`writer::DatasetWriter`].
#[derive(Debug, Clone)]
pub struct Dataset {
    root: PathBuf,
    manifest: Manifest,
}

/// A table's part file, relative to the dataset folder.
pub fn part_file(table: &Table, part: u32) -> String {
    format!("{}/part-{part:06}.parquet", table.name)
}

impl Dataset {
    /// The dataset folder.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The committed manifest.
    pub fn manifest(&self) -> &Manifest {
        &self.manifest
    }

    /// Opens a dataset written by `evallab ingest`, checking that every part
    /// its manifest lists is there.
    pub fn open(root: &Path) -> Result<Dataset, Error> {
        let ds = Dataset::load(root, true)?;
        let missing: Vec<String> = ds
            .manifest
            .files()
            .map(|(_, f)| f)
            .filter(|f| !root.join(f).is_file())
            .cloned()
            .collect();
        if !missing.is_empty() {
            return Err(Error::Dataset(format!(
                "{}: the manifest lists {} part(s) that are missing: {}; the folder was changed \
                 outside evallab (restore them, or rebuild it with `evallab ingest --overwrite`)",
                root.display(),
                missing.len(),
                missing.join(", ")
            )));
        }
        // A part cut or replaced after its commit (a copy that stopped, a
        // file written over) is found by its size, at the price of a stat.
        let resized: Vec<String> = ds
            .manifest
            .sums
            .iter()
            .filter_map(|(f, sum)| {
                let now = fs::metadata(root.join(f)).ok()?.len();
                (now != sum.bytes)
                    .then(|| format!("{f} ({now} bytes, committed with {})", sum.bytes))
            })
            .collect();
        if !resized.is_empty() {
            return Err(Error::Dataset(format!(
                "{}: {} part(s) changed after their commit: {}; the folder was changed outside \
                 evallab (restore them, or rebuild it with `evallab ingest --overwrite`)",
                root.display(),
                resized.len(),
                resized.join(", ")
            )));
        }
        Ok(ds)
    }

    /// Reads the manifest without checking the parts (for a writer that is
    /// about to replace them); `same_version`: refuse another schema version.
    fn load(root: &Path, same_version: bool) -> Result<Dataset, Error> {
        let path = root.join(MANIFEST_FILE);
        let text = fs::read_to_string(&path).map_err(|e| {
            if e.kind() == std::io::ErrorKind::NotFound {
                Error::Dataset(format!(
                    "{}: not an evallab dataset (no {MANIFEST_FILE}); create it with `evallab ingest`",
                    root.display()
                ))
            } else {
                Error::io(&path, e)
            }
        })?;
        let mut manifest: Manifest = serde_json::from_str(&text)
            .map_err(|e| Error::Dataset(format!("{}: {e}", path.display())))?;
        if same_version && manifest.schema_version != schema::SCHEMA_VERSION {
            let changes = schema::changes_since(&manifest.schema_version);
            return Err(Error::Dataset(format!(
                "{}: schema version {} but this evallab reads version {}{}; re-ingest the inputs \
                 (`evallab ingest --overwrite`)",
                root.display(),
                manifest.schema_version,
                schema::SCHEMA_VERSION,
                if changes.is_empty() {
                    String::new()
                } else {
                    format!(" (since then: {})", changes.join("; "))
                }
            )));
        }
        // Manifests written before runs named their files.
        for r in &mut manifest.runs {
            if r.files.is_empty() {
                r.files = Run::base_files(r.part);
            }
        }
        Ok(Dataset {
            root: root.to_path_buf(),
            manifest,
        })
    }

    /// Opens a dataset for writing, or starts an empty one if the folder has
    /// no manifest. With `replace`, missing parts and another schema version
    /// are no error: the writer is about to replace them all.
    fn open_or_create(root: &Path, replace: bool) -> Result<Dataset, Error> {
        if root.join(MANIFEST_FILE).exists() {
            return if replace {
                Dataset::load(root, false)
            } else {
                Dataset::open(root)
            };
        }
        fs::create_dir_all(root).map_err(|e| Error::io(root, e))?;
        Ok(Dataset {
            root: root.to_path_buf(),
            manifest: Manifest::default(),
        })
    }

    /// The committed part files of a table.
    pub fn parts(&self, table: &Table) -> Vec<PathBuf> {
        self.manifest
            .files()
            .filter(|(t, _)| *t == table.name)
            .map(|(_, f)| self.root.join(f))
            .collect()
    }

    /// A lazy scan over a table's committed parts.
    pub fn scan(&self, table: &Table) -> Result<LazyFrame, Error> {
        let parts = self.parts(table);
        if parts.is_empty() {
            // A table that only an engine run writes (analysis, policy, ...)
            // may be missing from a dataset that has games.
            let why = if self.manifest.files().next().is_none() {
                "the dataset has no ingested data yet".to_string()
            } else {
                format!(
                    "the dataset has no `{}` table yet: no run has written it",
                    table.name
                )
            };
            return Err(Error::Dataset(format!("{}: {why}", self.root.display())));
        }
        scan_files(&parts)
    }

    /// A lazy scan of one ingest run's part of a table (the games of a part
    /// and their moves are written by the same run).
    pub fn scan_run(&self, run: &Run, table: &Table) -> Result<LazyFrame, Error> {
        let file = run.files.get(table.name).ok_or_else(|| {
            Error::Dataset(format!(
                "{}: part {} has no {} file",
                self.root.display(),
                run.part,
                table.name
            ))
        })?;
        scan_files(&[self.root.join(file)])
    }

    /// Commits the manifest: the commit point of every dataset write. It is
    /// stamped with this build's tool and schema versions.
    fn save_manifest(&mut self) -> Result<(), Error> {
        // Every listed part gets its sum once (at its commit), no other.
        let listed: BTreeSet<String> = self.manifest.files().map(|(_, f)| f.clone()).collect();
        self.manifest.sums.retain(|f, _| listed.contains(f));
        // (A part already missing, kept by `--overwrite` with an engine run,
        // is named by the next open, not summed.)
        for f in listed {
            let path = self.root.join(&f);
            if !self.manifest.sums.contains_key(&f) && path.is_file() {
                self.manifest.sums.insert(f, PartSum::of(&path)?);
            }
        }
        let current = Manifest::default();
        self.manifest.tool_version = current.tool_version;
        self.manifest.schema_version = current.schema_version;
        let text = serde_json::to_string_pretty(&self.manifest)? + "\n";
        commit::write_bytes(&self.root.join(MANIFEST_FILE), text.as_bytes())
    }

    /// Removes temp files and table parts the manifest does not list (left by
    /// a run that failed or was killed, or replaced by `--overwrite`). Only
    /// for the holder of the dataset's lock, after its manifest is committed.
    fn collect_garbage(&self) -> Result<Vec<PathBuf>, Error> {
        let mut removed = Vec::new();
        let keep: Vec<PathBuf> = schema::ALL_TABLES
            .iter()
            .flat_map(|t| self.parts(t))
            .collect();
        let mut dirs = vec![self.root.clone()];
        dirs.extend(schema::ALL_TABLES.iter().map(|t| self.root.join(t.name)));
        for dir in dirs {
            let Ok(entries) = fs::read_dir(&dir) else {
                continue;
            };
            for entry in entries.flatten() {
                let p = entry.path();
                let name = entry.file_name().to_string_lossy().into_owned();
                let orphan = dir != self.root && name.ends_with(".parquet") && !keep.contains(&p);
                if commit::is_tmp_name(&name) || orphan {
                    fs::remove_file(&p).map_err(|e| Error::io(&p, e))?;
                    removed.push(p);
                }
            }
        }
        // Derived tables are written through the commit protocol too (and
        // are not in the manifest): only their temp files are garbage, and
        // the `.parts` stamps older evallabs kept beside them (a stamp is now
        // in the table's own metadata).
        for entry in fs::read_dir(self.derived_dir())
            .into_iter()
            .flatten()
            .flatten()
        {
            let p = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            if commit::is_tmp_name(&name) || name.ends_with(".parts") {
                fs::remove_file(&p).map_err(|e| Error::io(&p, e))?;
                removed.push(p);
            }
        }
        Ok(removed)
    }

    /// The games with committed rows in `tables` among `run`'s chunks.
    pub fn done_games(&self, run: &EngineRun, tables: &[&Table]) -> Result<HashSet<i64>, Error> {
        use polars::prelude::{UniqueKeepStrategy, col};
        let mut done = HashSet::new();
        for table in tables {
            let files: Vec<PathBuf> = run
                .chunks
                .iter()
                .filter_map(|c| c.files.get(table.name))
                .map(|f| self.root.join(f))
                .collect();
            if files.is_empty() {
                continue;
            }
            let ids = scan_files(&files)?
                .select([col(schema::col::GAME_ID)])
                .unique(None, UniqueKeepStrategy::Any)
                .collect()?;
            done.extend(ids.column(schema::col::GAME_ID)?.i64()?.into_no_null_iter());
        }
        Ok(done)
    }

    /// The next free part number (shared by ingest runs and analysis chunks).
    pub fn next_part(&self) -> u32 {
        let runs = self.manifest.runs.iter().map(|r| r.part);
        let chunks = self
            .manifest
            .analyses
            .iter()
            .flat_map(|a| a.chunks.iter().map(|c| c.part));
        runs.chain(chunks).max().unwrap_or(0) + 1
    }
}

/// A lazy scan over Parquet files (of the dataset).
pub(crate) fn scan_files(files: &[PathBuf]) -> Result<LazyFrame, Error> {
    let paths = files
        .iter()
        .map(|p| PlRefPath::new(p.to_string_lossy().as_ref()))
        .collect();
    Ok(LazyFrame::scan_parquet_files(
        paths,
        ScanArgsParquet::default(),
    )?)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An empty table is named when the dataset has other data (a dataset
    /// with games but no policy run is not "without ingested data").
    #[test]
    fn a_missing_table_is_named() {
        let text = include_str!("testdata/manifest-before-engine-runs.json");
        let mut manifest: Manifest = serde_json::from_str(text).unwrap();
        manifest.analyses.clear();
        let ds = Dataset {
            root: PathBuf::from("ds"),
            manifest,
        };
        let err = ds.scan(&crate::schema::POLICY).err().unwrap().to_string();
        assert!(
            err.contains("ds: the dataset has no `policy` table yet: no run has written it"),
            "{err}"
        );
        let empty = Dataset {
            root: PathBuf::from("ds"),
            manifest: Manifest::default(),
        };
        let err = empty
            .scan(&crate::schema::POLICY)
            .err()
            .unwrap()
            .to_string();
        assert!(
            err.contains("ds: the dataset has no ingested data yet"),
            "{err}"
        );
    }

    /// A manifest written by evallab before [`EngineRun`] (runs of
    /// `analyze`, `match` twice and `policy` on the demo data) reads as the
    /// same runs: their settings hash to the fingerprints it stored, so their
    /// labels resume, and it reads back from the layout it is written in.
    #[test]
    fn manifests_before_engine_runs_read_and_keep_their_fingerprints() {
        let text = include_str!("testdata/manifest-before-engine-runs.json");
        let m: Manifest = serde_json::from_str(text).unwrap();
        let stages: Vec<&str> = m.analyses.iter().map(|a| a.stage.as_str()).collect();
        assert_eq!(stages, ["analyze", "match", "match", "policy"]);
        let (a, p) = (&m.analyses[0], &m.analyses[3]);
        assert_eq!(a.engine.name, "Stockfish 15.1");
        assert_eq!(a.engine.path, "/usr/games/stockfish");
        assert_eq!(
            (a.limit(), a.multipv(), a.all_depths()),
            ("nodes 1000", 2, true)
        );
        assert_eq!(m.analyses[1].plies(), Some("moves 10..19"));
        assert_eq!(m.analyses[1].multipv(), 4);
        assert!(m.analyses[1].limit().starts_with("match: mlm depth 6"));
        assert_eq!((p.limit(), p.multipv()), ("nodes 1", 1));
        assert_eq!(p.setting("weights_sha256").map(str::len), Some(64));
        for run in [a, p] {
            assert_eq!(run.settings_fingerprint(), run.fingerprint, "{}", run.label);
        }
        // A match's player was hashed but not stored.
        for (run, player) in [(&m.analyses[1], "."), (&m.analyses[2], "Stockfish")] {
            let mut run = run.clone();
            if let Some(s) = run.settings.as_object_mut() {
                s.insert("player".into(), player.into());
            }
            assert_eq!(run.settings_fingerprint(), run.fingerprint, "{}", run.label);
        }
        assert_eq!(m.analyses[0].chunks[0].lines, 5864);
        let again: Manifest = serde_json::from_str(&serde_json::to_string(&m).unwrap()).unwrap();
        assert_eq!(again, m);
        assert!(
            serde_json::to_string(&m)
                .unwrap()
                .contains(r#""stage":"analyze""#)
        );
    }
}
