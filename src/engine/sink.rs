//! Where a stage's chunks go: committed to the dataset (a part per table,
//! then the manifest), or streamed into a shard's parts and completed by its
//! `shard.json` ([`crate::dataset::shard`]).

use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use arrow::record_batch::RecordBatch;

use super::pool::Chunk;
use super::positions::GameTask;
use crate::Error;
use crate::dataset::part::PartWriter;
use crate::dataset::shard::{self, Shard};
use crate::dataset::writer::DatasetWriter;
use crate::dataset::{EngineChunk, EngineRun, part_file};
use crate::schema::Table;

/// A chunk's rows: the stage's table, then `analysis_failures`.
pub(super) type Batches<'t> = [(&'t Table, RecordBatch); 2];

/// What a chunk counts besides its rows.
pub(super) struct Counts {
    /// When its work began.
    pub started: Instant,
    pub games: u64,
    /// Positions with rows, `reused` of them copied ([`super::reuse`]).
    pub positions: u64,
    pub reused: u64,
    pub restarts: u64,
}

impl Counts {
    /// A pool chunk's counts.
    pub fn of<O>(chunk: &Chunk<O>) -> Counts {
        Counts {
            started: chunk.started,
            games: chunk.results.len() as u64,
            positions: chunk.results.iter().map(|r| r.positions).sum(),
            reused: 0,
            restarts: chunk.restarts,
        }
    }
}

pub(super) enum Sink<'a> {
    /// The dataset's writer, and the parts committed so far.
    Commit(&'a mut DatasetWriter, Vec<u32>),
    /// Boxed: a shard's writer is far larger than the dataset's borrow.
    Shard(Box<ShardWriter>),
}

/// A shard being written: one part per table, and its chunk's counts.
pub(super) struct ShardWriter {
    name: String,
    /// The games of the shard, in order (part of its fingerprint).
    game_ids: Vec<String>,
    writers: Vec<PartWriter>,
    files: BTreeMap<String, String>,
    chunk: EngineChunk,
}

impl Sink<'_> {
    /// Starts shard `name` for the games of `todo`, with a part per table.
    pub(super) fn shard(
        root: &Path,
        name: &str,
        todo: &[GameTask],
        tables: [&Table; 2],
    ) -> Result<Sink<'static>, Error> {
        let dir = shard::begin(root, name)?;
        let files: BTreeMap<String, String> = tables
            .iter()
            .map(|t| (t.name.to_string(), format!("{}.parquet", t.name)))
            .collect();
        let writers = tables
            .iter()
            .map(|t| PartWriter::create_at(&dir.join(&files[t.name]), t))
            .collect::<Result<_, _>>()?;
        Ok(Sink::Shard(Box::new(ShardWriter {
            name: name.to_string(),
            game_ids: todo.iter().map(|t| t.game_id.to_string()).collect(),
            writers,
            files,
            chunk: EngineChunk {
                part: 0,
                started_unix: unix_now(),
                seconds: 0.0,
                games: 0,
                positions: 0,
                lines: 0,
                failures: 0,
                reused: 0,
                restarts: 0,
                files: BTreeMap::new(),
                shard: None,
            },
        })))
    }

    /// Adds a chunk's rows: a committed part per table and the manifest that
    /// lists them under `run`, or rows appended to the shard's parts.
    pub(super) fn add(
        &mut self,
        run: &EngineRun,
        counts: Counts,
        batches: Batches<'_>,
    ) -> Result<(), Error> {
        let (lines, failures) = (batches[0].1.num_rows(), batches[1].1.num_rows());
        let Counts {
            started,
            games,
            positions,
            reused,
            restarts,
        } = counts;
        match self {
            Sink::Shard(w) => {
                for (pw, (_, b)) in w.writers.iter_mut().zip(&batches) {
                    pw.write(b)?;
                }
                let c = &mut w.chunk;
                c.games += games;
                c.positions += positions;
                c.lines += lines as u64;
                c.failures += failures as u64;
                c.reused += reused;
                c.restarts += restarts;
                Ok(())
            }
            Sink::Commit(ds, parts) => {
                let part = ds.next_part();
                let mut writers = Vec::with_capacity(batches.len());
                for (t, b) in &batches {
                    let mut w = PartWriter::create(ds.root(), t, part)?;
                    w.write(b)?;
                    writers.push(w);
                }
                for w in writers {
                    w.commit()?;
                }
                let c = EngineChunk {
                    part,
                    started_unix: unix_now().saturating_sub(started.elapsed().as_secs()),
                    seconds: started.elapsed().as_secs_f64(),
                    games,
                    positions,
                    lines: lines as u64,
                    failures: failures as u64,
                    reused,
                    restarts,
                    files: batches
                        .iter()
                        .map(|(t, _)| (t.name.to_string(), part_file(t, part)))
                        .collect(),
                    shard: None,
                };
                ds.add_chunk(run, c);
                ds.commit()?;
                parts.push(part);
                Ok(())
            }
        }
    }

    /// The parts committed; a shard's parts are committed, then its
    /// `shard.json` (the shard's commit point) with `run`'s settings and one
    /// chunk.
    pub(super) fn finish(
        self,
        root: &Path,
        run: &EngineRun,
        started: Instant,
    ) -> Result<Vec<u32>, Error> {
        let w = match self {
            Sink::Commit(_, parts) => return Ok(parts),
            Sink::Shard(w) => w,
        };
        for pw in w.writers {
            pw.commit()?;
        }
        let mut chunk = w.chunk;
        chunk.seconds = started.elapsed().as_secs_f64();
        chunk.files = w.files.clone();
        let fingerprint = shard::fingerprint(
            w.game_ids.iter().map(String::as_str),
            &serde_json::json!({ "label": run.label, "settings": run.fingerprint }),
        );
        shard::finish(
            root,
            &Shard {
                name: w.name,
                fingerprint,
                started_unix: chunk.started_unix,
                seconds: chunk.seconds,
                options: serde_json::Value::Null,
                inputs: Vec::new(),
                files: w.files,
                analysis: Some(EngineRun {
                    chunks: vec![chunk],
                    ..run.clone()
                }),
            },
        )?;
        Ok(Vec::new())
    }
}

fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}
