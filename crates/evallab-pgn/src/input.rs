//! Input discovery and decoding: files, directories, globs and stdin; plain,
//! gzip, zstd, bzip2 and xz detected by magic bytes, never by file name.

use std::fs::File;
use std::io::{self, BufReader, Read};
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::Error;
use crate::split::Resume;

/// One input file of an ingest run.
#[derive(Debug, Clone)]
pub struct Input {
    /// The path as the user named it (`-` for stdin).
    pub name: String,
    /// Where the bytes are read from (stdin is spooled to a temp file first so
    /// that it can be hashed and read).
    pub path: PathBuf,
    pub size: u64,
    /// sha256 of the bytes as stored, hex; `None` until [`Input::hash`].
    pub sha256: Option<String>,
    /// `path` resolved (absolute, links followed); `None` for stdin: by it
    /// an earlier version of the file is found ([`grown_from`]).
    pub resolved: Option<PathBuf>,
    /// The earlier version of it already read ([`grown_from`]): only the
    /// games after it are read.
    pub grown: Option<Grown>,
}

/// An input that continues an earlier version of itself (recorded in the
/// manifest).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Grown {
    /// The earlier version's sha256 (its games keep their ids).
    pub earlier_sha256: String,
    /// Where it ended.
    pub at: Resume,
}

impl Input {
    /// The input's sha256 (see [`hash_file`]).
    pub fn hash(&self) -> Result<String, Error> {
        let (_, sha) = hash_file(&self.path).map_err(|e| Error::io(&self.path, e))?;
        Ok(sha)
    }
}

/// Compression of an input, from its first bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compression {
    None,
    Gzip,
    Zstd,
    Bzip2,
    Xz,
}

impl Compression {
    /// Detects the compression from the first bytes of a file.
    ///
    /// ```
    /// use evallab_pgn::input::Compression;
    /// assert_eq!(Compression::detect(&[0x28, 0xb5, 0x2f, 0xfd, 0]), Compression::Zstd);
    /// assert_eq!(Compression::detect(b"[Event \"x\"]"), Compression::None);
    /// ```
    pub fn detect(head: &[u8]) -> Compression {
        match head {
            [0x1f, 0x8b, ..] => Compression::Gzip,
            [0x28, 0xb5, 0x2f, 0xfd, ..] => Compression::Zstd,
            [b'B', b'Z', b'h', ..] => Compression::Bzip2,
            [0xfd, b'7', b'z', b'X', b'Z', 0, ..] => Compression::Xz,
            _ => Compression::None,
        }
    }
}

fn is_glob(s: &str) -> bool {
    s.contains(['*', '?', '['])
}

/// Whether a file found while walking a directory looks like PGN.
fn looks_like_pgn(path: &Path) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    name.ends_with(".pgn") || name.contains(".pgn.")
}

/// Expands the command-line inputs into a sorted, de-duplicated list of paths
/// (`-` stays `-`). A directory contributes every `*.pgn*` file below it.
pub fn expand(args: &[String]) -> Result<Vec<(String, PathBuf)>, Error> {
    let mut out = Vec::new();
    for arg in args {
        let path = PathBuf::from(arg);
        if arg == "-" {
            out.push((arg.clone(), path));
        } else if path.is_dir() {
            let mut found = Vec::new();
            walk(&path, &mut found).map_err(|e| Error::io(&path, e))?;
            found.sort();
            if found.is_empty() {
                return Err(Error::InputData(format!(
                    "{arg}: no *.pgn* files in directory"
                )));
            }
            out.extend(found.into_iter().map(|p| (p.display().to_string(), p)));
        } else if path.exists() {
            out.push((arg.clone(), path));
        } else if is_glob(arg) {
            let mut found: Vec<PathBuf> = glob::glob(arg)
                .map_err(|e| Error::Usage(format!("{arg}: bad glob: {e}")))?
                .filter_map(Result::ok)
                .filter(|p| p.is_file())
                .collect();
            found.sort();
            if found.is_empty() {
                return Err(Error::InputData(format!("{arg}: glob matches no file")));
            }
            out.extend(found.into_iter().map(|p| (p.display().to_string(), p)));
        } else {
            return Err(Error::io(&path, not_found()));
        }
    }
    let mut seen = std::collections::HashSet::new();
    out.retain(|(_, p)| seen.insert(p.clone()));
    Ok(out)
}

/// The error of a path that does not exist (io's own text for `NotFound` is
/// "entity not found").
pub fn not_found() -> io::Error {
    io::Error::new(io::ErrorKind::NotFound, "no such file or directory")
}

/// The `*.pgn*` regular files below `dir`. As ripgrep walks by default, a
/// link to a directory is not followed (a link back up looped: 287 inputs
/// for 7 files), a link to a file is; a FIFO or socket named `*.pgn` is
/// passed over (reading one waited forever).
fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let path = entry.path();
        let kind = entry.file_type()?;
        if kind.is_dir() {
            walk(&path, out)?;
        } else if looks_like_pgn(&path)
            && (kind.is_file() || kind.is_symlink() && path.metadata().is_ok_and(|m| m.is_file()))
        {
            out.push(path);
        }
    }
    Ok(())
}

/// Hashes a file (sha256, hex) and returns its size.
///
/// A regular file is hashed through read-only memory maps of 16 MiB windows:
/// `read` into a buffer spent as long copying out of the page cache as
/// hashing (2.2 s for the 1.7 GB TCEC corpus concatenated 4×, 1.4 s mapped),
/// and an ingest's parsing waits for its inputs' hashes. (Windows, because
/// mapped pages count in the resident set. A file truncated while it is
/// hashed faults the process, as in ripgrep; the previous dataset is intact.)
pub fn hash_file(path: &Path) -> io::Result<(u64, String)> {
    let f = File::open(path)?;
    let meta = f.metadata()?;
    if !meta.is_file() {
        return hash_read(f);
    }
    Ok((meta.len(), hash_mapped(&f, meta.len(), 16 << 20)?))
}

/// [`hash_file`] of a regular file of `size` bytes, `window` bytes mapped at
/// a time (a multiple of the page size). No `MADV_SEQUENTIAL`: it let the
/// kernel drop the pages from the page cache, and the parse read them again
/// from disk.
fn hash_mapped(f: &File, size: u64, window: u64) -> io::Result<String> {
    let mut h = Sha256::new();
    let mut at = 0;
    while at < size {
        let len = window.min(size - at);
        // SAFETY: read only, dropped at once; the file changing under it is
        // the documented hazard above.
        let map = unsafe {
            memmap2::MmapOptions::new()
                .offset(at)
                .len(len as usize)
                .map(f)?
        };
        h.update(&map[..]);
        at += len;
    }
    Ok(hex(&h.finalize()))
}

/// [`hash_file`] through `read`, for what cannot be mapped.
fn hash_read(mut f: File) -> io::Result<(u64, String)> {
    let mut h = Sha256::new();
    let mut buf = vec![0u8; 1 << 20];
    let mut size = 0u64;
    loop {
        let n = f.read(&mut buf)?;
        if n == 0 {
            break;
        }
        size += n as u64;
        h.update(&buf[..n]);
    }
    Ok((size, hex(&h.finalize())))
}

/// Lower-case hex of bytes.
pub fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    bytes
        .iter()
        .fold(String::with_capacity(bytes.len() * 2), |mut s, b| {
            let _ = write!(s, "{b:02x}");
            s
        })
}

/// Decoded bytes of an input whose hash (xxh3-64) is its content's cheap
/// fingerprint: two inputs whose first bytes differ cannot be the same PGN,
/// so only inputs sharing them are decoded and hashed whole before a parse.
pub const HEAD_BYTES: usize = 64 << 10;

/// What an input holds, whatever its compression: the same PGN stored plain
/// and as `.gz` has one content, two sha256s. (Recorded in the manifest.)
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Content {
    /// Decoded bytes.
    pub bytes: u64,
    /// xxh3-64 of the first [`HEAD_BYTES`], hex.
    pub head: String,
    /// xxh3-128 of every decoded byte, hex.
    pub xxh3: String,
}

/// Shared state of a [`ContentReader`], read once its reader is done.
#[derive(Default)]
struct ContentState {
    bytes: u64,
    head: xxhash_rust::xxh3::Xxh3,
    all: xxhash_rust::xxh3::Xxh3,
}

/// A reader that hashes what passes through it ([`Content`]); its
/// [`ContentHandle`] gives the result after the reader was moved away (into a
/// splitter).
pub struct ContentReader<R> {
    inner: R,
    state: std::sync::Arc<std::sync::Mutex<ContentState>>,
}

/// The [`Content`] of what a [`ContentReader`] has read so far.
#[derive(Clone)]
pub struct ContentHandle(std::sync::Arc<std::sync::Mutex<ContentState>>);

impl<R: Read> ContentReader<R> {
    pub fn new(inner: R) -> (Self, ContentHandle) {
        let state = std::sync::Arc::default();
        let handle = ContentHandle(std::sync::Arc::clone(&state));
        (ContentReader { inner, state }, handle)
    }
}

impl<R: Read> Read for ContentReader<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        let mut s = self.state.lock().expect("content hash");
        let in_head = HEAD_BYTES.saturating_sub(s.bytes as usize).min(n);
        s.head.update(&buf[..in_head]);
        s.all.update(&buf[..n]);
        s.bytes += n as u64;
        Ok(n)
    }
}

impl ContentHandle {
    pub fn content(&self) -> Content {
        let s = self.0.lock().expect("content hash");
        Content {
            bytes: s.bytes,
            head: format!("{:016x}", s.head.digest()),
            xxh3: format!("{:032x}", s.all.digest128()),
        }
    }
}

/// The xxh3-64 (hex) of an input's first [`HEAD_BYTES`] decoded bytes (all of
/// them when it is shorter), as [`Content::head`].
pub fn content_head(path: &Path) -> io::Result<String> {
    let mut head = Vec::with_capacity(HEAD_BYTES);
    open_decoded(path)?
        .take(HEAD_BYTES as u64)
        .read_to_end(&mut head)?;
    Ok(format!("{:016x}", xxhash_rust::xxh3::xxh3_64(&head)))
}

/// An input's whole [`Content`], decoded once.
pub fn content(path: &Path) -> io::Result<Content> {
    let (mut r, handle) = ContentReader::new(open_decoded(path)?);
    io::copy(&mut r, &mut io::sink())?;
    Ok(handle.content())
}

/// Where the input at `path` continues an earlier version whose content was
/// `earlier` and which held `games` games: when that content is the input's
/// first bytes (the file grew: games were appended, as an archive of a
/// running event grows) and a tag section follows it. `None` otherwise (the
/// file was edited, or nothing but whitespace was added).
pub fn grown_from(path: &Path, earlier: &Content, games: u32) -> io::Result<Option<Resume>> {
    /// Counts the lines of what passes through it.
    struct Lines(u64, u64);
    impl io::Write for Lines {
        fn write(&mut self, b: &[u8]) -> io::Result<usize> {
            self.0 += memchr::memchr_iter(b'\n', b).count() as u64;
            self.1 += memchr::memchr_iter(b'\r', b).count() as u64;
            Ok(b.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }
    let mut reader = BufReader::new(open_decoded(path)?);
    let (mut prefix, handle) = ContentReader::new((&mut reader).take(earlier.bytes));
    let mut lines = Lines(0, 0);
    io::copy(&mut prefix, &mut lines)?;
    if handle.content() != *earlier {
        return Ok(None);
    }
    // The next game's tags must follow: an earlier version cut inside a
    // game (its last game a reject) does not end where a game starts.
    let mut next = [0u8];
    loop {
        if reader.read(&mut next)? == 0 {
            return Ok(None);
        }
        if !next[0].is_ascii_whitespace() {
            break;
        }
    }
    if next[0] != b'[' {
        return Ok(None);
    }
    // Lines end in LF or CRLF, or in a lone CR (classic Mac OS).
    let newlines = if lines.0 > 0 { lines.0 } else { lines.1 };
    let Ok(line) = u32::try_from(newlines + 1) else {
        return Ok(None);
    };
    Ok(Some(Resume {
        offset: earlier.bytes,
        line,
        games,
    }))
}

/// Resolves an expanded path into an [`Input`] with its size, spooling stdin
/// to `spool_dir` first; it is not hashed yet.
pub fn resolve(name: String, path: PathBuf, spool_dir: &Path) -> Result<Input, Error> {
    let path = if name == "-" {
        let spooled = spool_dir.join(format!(".stdin-{}.tmp", std::process::id()));
        let mut f = File::create(&spooled).map_err(|e| Error::io(&spooled, e))?;
        io::copy(&mut io::stdin().lock(), &mut f).map_err(|e| Error::io(Path::new("-"), e))?;
        spooled
    } else {
        path
    };
    let size = std::fs::metadata(&path)
        .map_err(|e| Error::io(&path, e))?
        .len();
    let resolved = (name != "-")
        .then(|| std::fs::canonicalize(&path).ok())
        .flatten();
    Ok(Input {
        name,
        path,
        size,
        sha256: None,
        resolved,
        grown: None,
    })
}

/// Opens an input and returns a reader of its decompressed bytes.
pub fn open_decoded(path: &Path) -> io::Result<Box<dyn Read + Send>> {
    let mut f = BufReader::with_capacity(1 << 16, File::open(path)?);
    let head = {
        use std::io::BufRead;
        f.fill_buf()?.to_vec()
    };
    Ok(match Compression::detect(&head) {
        Compression::None => Box::new(f),
        Compression::Gzip => Box::new(GzipMembers::new(f)),
        Compression::Zstd => Box::new(zstd::stream::read::Decoder::with_buffer(f)?),
        Compression::Bzip2 => Box::new(bzip2::bufread::MultiBzDecoder::new(f)),
        Compression::Xz => Box::new(liblzma::bufread::XzDecoder::new_multi_decoder(f)),
    })
}

/// gzip's members one after another, as `gzip -dc` reads them: zero bytes
/// after a member are padding (tape archivers and some downloaders fill the
/// last block with them), not the start of another member. flate2's
/// `MultiGzDecoder` failed the whole input there ("invalid gzip header").
/// Anything else after the padding is still an error.
struct GzipMembers<R: io::BufRead> {
    member: Option<flate2::bufread::GzDecoder<R>>,
}

impl<R: io::BufRead> GzipMembers<R> {
    fn new(r: R) -> Self {
        GzipMembers {
            member: Some(flate2::bufread::GzDecoder::new(r)),
        }
    }
}

impl<R: io::BufRead> Read for GzipMembers<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while let Some(member) = self.member.as_mut() {
            let n = member.read(buf)?;
            if n > 0 || buf.is_empty() {
                return Ok(n);
            }
            let mut rest = self.member.take().expect("a member").into_inner();
            let head = rest.fill_buf()?;
            match head.first() {
                None => {}
                Some(0) => skip_zero_padding(&mut rest)?,
                Some(_) => self.member = Some(flate2::bufread::GzDecoder::new(rest)),
            }
        }
        Ok(0)
    }
}

/// Reads `r` to its end, which must hold only zero bytes.
fn skip_zero_padding(r: &mut impl io::BufRead) -> io::Result<()> {
    loop {
        let buf = r.fill_buf()?;
        if buf.is_empty() {
            return Ok(());
        }
        if buf.iter().any(|&b| b != 0) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "bytes after the zero padding that follows the gzip data",
            ));
        }
        let n = buf.len();
        r.consume(n);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    /// Two gzip members, then zero padding: read as `gzip -dc` reads them;
    /// anything but zeros after the padding is an error.
    #[test]
    fn gzip_members_and_zero_padding() {
        let gz = |t: &[u8]| {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            e.write_all(t).unwrap();
            e.finish().unwrap()
        };
        let read = |bytes: &[u8]| {
            let mut out = Vec::new();
            GzipMembers::new(io::BufReader::with_capacity(7, bytes))
                .read_to_end(&mut out)
                .map(|_| out)
        };
        let mut bytes = [gz(b"1. e4 *\n"), gz(b"1. d4 *\n")].concat();
        assert_eq!(read(&bytes).unwrap(), b"1. e4 *\n1. d4 *\n");
        bytes.extend([0; 512]);
        assert_eq!(read(&bytes).unwrap(), b"1. e4 *\n1. d4 *\n");
        bytes.push(b'x');
        let err = read(&bytes).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidData, "{err}");
        // A cut member is still an early end (exit 9 upstream).
        let cut = gz(&[b'a'; 5000]);
        let err = read(&cut[..cut.len() - 4]).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::UnexpectedEof, "{err}");
    }

    /// `text` as it is and in each compression, by extension.
    fn encodings(text: &[u8]) -> Vec<(&'static str, Vec<u8>)> {
        let mut encoded: Vec<(&str, Vec<u8>)> = vec![("plain", text.to_vec())];
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(text).unwrap();
        encoded.push(("gz", gz.finish().unwrap()));
        encoded.push(("zst", zstd::encode_all(text, 1).unwrap()));
        let mut bz = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
        bz.write_all(text).unwrap();
        encoded.push(("bz2", bz.finish().unwrap()));
        let mut xz = liblzma::write::XzEncoder::new(Vec::new(), 1);
        xz.write_all(text).unwrap();
        encoded.push(("xz", xz.finish().unwrap()));
        encoded
    }

    #[test]
    fn every_compression_round_trips() {
        let text = b"[Event \"x\"]\n\n1. e4 e5 *\n";
        let dir = tempfile::tempdir().unwrap();
        for (ext, bytes) in encodings(text) {
            // A misleading name: detection must not look at it.
            let p = dir.path().join(format!("g.{ext}.txt"));
            std::fs::write(&p, bytes).unwrap();
            let mut out = Vec::new();
            open_decoded(&p).unwrap().read_to_end(&mut out).unwrap();
            assert_eq!(out, text, "{ext}");
        }
    }

    /// One PGN in every compression has one content: its size, the hash of
    /// its first HEAD_BYTES (equal to `content_head`) and of it all; a
    /// change past the head changes only the whole hash.
    #[test]
    fn content_is_the_same_in_every_compression() {
        let text = "[Event \"x\"]\n\n1. e4 e5 *\n\n".repeat(10_000);
        let dir = tempfile::tempdir().unwrap();
        let mut seen = None;
        for (ext, bytes) in encodings(text.as_bytes()) {
            let p = dir.path().join(ext);
            std::fs::write(&p, bytes).unwrap();
            let c = content(&p).unwrap();
            assert_eq!(c.bytes, text.len() as u64, "{ext}");
            assert_eq!(content_head(&p).unwrap(), c.head, "{ext}");
            assert_eq!(
                c.head,
                format!(
                    "{:016x}",
                    xxhash_rust::xxh3::xxh3_64(&text.as_bytes()[..HEAD_BYTES])
                )
            );
            assert_eq!(seen.get_or_insert_with(|| c.clone()), &c, "{ext}");
        }
        let mut other = text.into_bytes();
        *other.last_mut().unwrap() = b' ';
        let p = dir.path().join("other");
        std::fs::write(&p, &other).unwrap();
        let (c, first) = (content(&p).unwrap(), seen.unwrap());
        assert_eq!((c.bytes, &c.head), (first.bytes, &first.head));
        assert_ne!(c.xxh3, first.xxh3);
        // Shorter than the head: the head is all of it.
        std::fs::write(&p, b"1. e4 *\n").unwrap();
        let c = content(&p).unwrap();
        assert_eq!(
            c.head,
            format!("{:016x}", xxhash_rust::xxh3::xxh3_64(b"1. e4 *\n"))
        );
    }

    /// Issue 29: each compression, cut at 60 %: the games before the damage
    /// are read, the one it cut is a `truncated input` reject at its offset.
    #[test]
    fn a_truncated_input_keeps_its_complete_games() {
        use crate::game::{ParseOptions, Source, parse_batch};
        use crate::split::Splitter;
        // One game of 200 bytes, 5000 times: game n starts at (n - 1) * 200.
        let game = format!("[Event \"g\"]\n\n1. e4 e5 2. Nf3 {{{:>165}}} *\n\n", "");
        assert_eq!(game.len(), 200);
        let text = game.repeat(5000);
        let dir = tempfile::tempdir().unwrap();
        for (ext, bytes) in encodings(text.as_bytes()).into_iter().skip(1) {
            let p = dir.path().join(ext);
            std::fs::write(&p, &bytes[..bytes.len() * 3 / 5]).unwrap();
            let mut split = Splitter::new(open_decoded(&p).unwrap());
            let (mut log, mut counts) = (Log::default(), crate::game::Counts::default());
            let src = Source {
                name: ext,
                sha256: Some("00"),
            };
            while let Some(b) = split.next_batch(1 << 16).unwrap() {
                counts += parse_batch(&b, src, ParseOptions::default(), &mut log);
            }
            let kept = counts.games;
            assert!(kept > 1000, "{ext}: {kept}");
            assert_eq!((counts.rejects, counts.truncated), (1, 1), "{ext}");
            let (number, offset, reason) = log.0.unwrap();
            assert_eq!(
                (number, offset),
                (kept as u32 + 1, kept as i64 * 200),
                "{ext}"
            );
            assert!(reason.starts_with("truncated input: "), "{reason}");
        }
    }

    /// The reject of a sink (there is one at most here).
    #[derive(Default)]
    struct Log(Option<(u32, i64, String)>);

    impl crate::Sink for Log {
        fn mv(&mut self, _: &crate::sink::MoveRecord<'_>) {}
        fn game(&mut self, _: &crate::sink::GameRecord<'_>) {}
        fn reject(&mut self, r: &crate::sink::RejectRecord<'_>) {
            assert!(self.0.is_none());
            self.0 = Some((r.game_number, r.byte_offset, r.reason.to_string()));
        }
    }

    #[test]
    fn mapped_and_read_hashes_are_sha256() {
        // FIPS 180-2's "abc" vector, the empty input, and one across three
        // map windows (checked against `read`), mapped and read.
        let dir = tempfile::tempdir().unwrap();
        let big = dir.path().join("big");
        let text: Vec<u8> = (0..3 * 4096 + 7).map(|i| (i % 251) as u8).collect();
        std::fs::write(&big, &text).unwrap();
        let (size, sha) = hash_read(File::open(&big).unwrap()).unwrap();
        assert_eq!(size, text.len() as u64);
        assert_eq!(
            hash_mapped(&File::open(&big).unwrap(), size, 4096).unwrap(),
            sha
        );
        let abc = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
        let empty = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
        for (name, text, want) in [("abc", "abc", abc), ("empty", "", empty)] {
            let p = dir.path().join(name);
            std::fs::write(&p, text).unwrap();
            assert_eq!(hash_file(&p).unwrap(), (text.len() as u64, want.into()));
            let read = hash_read(File::open(&p).unwrap()).unwrap();
            assert_eq!(read, (text.len() as u64, want.into()));
        }
    }

    #[test]
    fn expand_dirs_and_globs() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        for f in ["b.pgn", "a.pgn.zst", "sub/c.PGN", "notes.txt"] {
            std::fs::write(dir.path().join(f), "").unwrap();
        }
        let d = dir.path().display().to_string();
        let got = expand(std::slice::from_ref(&d)).unwrap();
        let names: Vec<_> = got
            .iter()
            .map(|(_, p)| p.strip_prefix(dir.path()).unwrap().display().to_string())
            .collect();
        assert_eq!(names, ["a.pgn.zst", "b.pgn", "sub/c.PGN"]);
        // A link back up is not followed, a link to a file is; a FIFO is no input.
        std::os::unix::fs::symlink("..", dir.path().join("sub/loop")).unwrap();
        std::os::unix::fs::symlink("../b.pgn", dir.path().join("sub/link.pgn")).unwrap();
        let fifo = dir.path().join("pipe.pgn");
        assert!(
            std::process::Command::new("mkfifo")
                .arg(&fifo)
                .status()
                .unwrap()
                .success()
        );
        let names: Vec<_> = expand(std::slice::from_ref(&d))
            .unwrap()
            .iter()
            .map(|(_, p)| p.strip_prefix(dir.path()).unwrap().display().to_string())
            .collect();
        assert_eq!(names, ["a.pgn.zst", "b.pgn", "sub/c.PGN", "sub/link.pgn"]);
        let got = expand(&[format!("{d}/*.pgn"), format!("{d}/b.pgn")]).unwrap();
        assert_eq!(got.len(), 1, "duplicates are dropped");
        assert!(expand(&[format!("{d}/nothing*.pgn")]).is_err());
        let missing = expand(&[format!("{d}/missing.pgn")])
            .unwrap_err()
            .to_string();
        assert!(
            missing.contains("missing.pgn: no such file or directory"),
            "{missing}"
        );
    }
}
