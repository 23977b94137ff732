//! One writer per dataset: an advisory lock on `DATASET/.evallab.lock`.
//!
//! The lock is the operating system's (`flock`), held on the open file, so a
//! process that dies — even by `kill -9` — releases it at once: a stale lock
//! cannot block anybody. The file's content names the holder (pid, host,
//! command, start time) for the error message of a second writer; a holder
//! that ended normally empties it, so content found when taking the lock is
//! the trace of a writer that died, which [`DatasetLock::stale`] reports.
//!
//! `flock` works between processes of one host and on most local
//! filesystems; on network filesystems it depends on the mount.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};

use crate::Error;

/// The lock file's name inside a dataset folder.
pub const LOCK_FILE: &str = ".evallab.lock";

/// Who holds (or held) a dataset's lock.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct Holder {
    pub pid: u32,
    pub host: String,
    pub command: String,
    pub since_unix: u64,
}

impl std::fmt::Display for Holder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "pid {} on host {} (`evallab {}`, started at unix time {})",
            self.pid, self.host, self.command, self.since_unix
        )
    }
}

/// The held lock; dropping it releases the lock.
#[derive(Debug)]
pub struct DatasetLock {
    file: File,
    path: PathBuf,
    /// The holder recorded in the file when the lock was taken: a writer
    /// that died without releasing it.
    pub stale: Option<Holder>,
}

impl DatasetLock {
    /// Takes the lock of the dataset at `root` (creating the folder), or
    /// fails at once with an error naming the holder.
    pub(crate) fn acquire(root: &Path, command: &str) -> Result<DatasetLock, Error> {
        std::fs::create_dir_all(root).map_err(|e| Error::io(root, e))?;
        let path = root.join(LOCK_FILE);
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(|e| Error::io(&path, e))?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                let holder = read_holder(&mut file).map_or_else(
                    || "another process (it has not written its name yet)".to_string(),
                    |h| h.to_string(),
                );
                return Err(Error::Locked {
                    path: path.display().to_string(),
                    holder,
                });
            }
            Err(TryLockError::Error(e)) => return Err(Error::io(&path, e)),
        }
        let stale = read_holder(&mut file);
        let me = Holder {
            pid: std::process::id(),
            host: host_name(),
            command: command.to_string(),
            since_unix: SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.as_secs()),
        };
        let text = serde_json::to_string(&me)? + "\n";
        let io = |e| Error::io(&path, e);
        file.set_len(0).map_err(io)?;
        file.seek(SeekFrom::Start(0)).map_err(io)?;
        file.write_all(text.as_bytes()).map_err(io)?;
        file.sync_all().map_err(io)?;
        Ok(DatasetLock { file, path, stale })
    }

    /// The lock file.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for DatasetLock {
    fn drop(&mut self) {
        // Empty means "released normally"; the lock itself goes with the file
        // handle. The file stays: removing it would let a waiting process lock
        // an unlinked inode while a third creates a fresh one.
        let _ = self.file.set_len(0);
        let _ = self.file.unlock();
    }
}

fn read_holder(file: &mut File) -> Option<Holder> {
    let mut text = String::new();
    file.seek(SeekFrom::Start(0)).ok()?;
    file.read_to_string(&mut text).ok()?;
    serde_json::from_str(text.trim()).ok()
}

fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .or_else(|_| std::fs::read_to_string("/etc/hostname"))
        .map(|s| s.trim().to_string())
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "unknown".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_writer_is_refused_with_the_holders_name() {
        let dir = tempfile::tempdir().unwrap();
        let first = DatasetLock::acquire(dir.path(), "ingest").unwrap();
        assert_eq!(first.stale, None);
        let err = DatasetLock::acquire(dir.path(), "eas").unwrap_err();
        let msg = err.to_string();
        assert!(
            msg.contains(&format!("pid {}", std::process::id()))
                && msg.contains("`evallab ingest`"),
            "{msg}"
        );
        drop(first);
        let again = DatasetLock::acquire(dir.path(), "eas").unwrap();
        assert_eq!(again.stale, None, "a normal release leaves no trace");
    }

    #[test]
    fn a_dead_holders_trace_is_reported_as_stale() {
        let dir = tempfile::tempdir().unwrap();
        let dead = Holder {
            pid: 999_999,
            host: "elsewhere".into(),
            command: "ingest".into(),
            since_unix: 1,
        };
        std::fs::write(
            dir.path().join(LOCK_FILE),
            serde_json::to_string(&dead).unwrap(),
        )
        .unwrap();
        let lock = DatasetLock::acquire(dir.path(), "ingest").unwrap();
        assert_eq!(lock.stale, Some(dead));
    }
}
