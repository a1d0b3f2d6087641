//! The incremental build cache (issue 12 item 2): one file per compiled unit (a component, the changelog, the list
//! counts), keyed by a hash of everything that unit's compilation reads, so a rebuild recompiles only the units
//! whose inputs changed and reuses the others' compressed frames, token maps and search units as they were.
//!
//! An entry is `MAGIC` (8 bytes), the xxh3-64 of the rest (8 bytes, little-endian), then a MessagePack
//! [`Header`] and the MessagePack value. A file whose checksum, magic or header does not check is ignored (and
//! reported as a note), never trusted. An entry is reused only when its key is the one the build computes and
//! every extra file it recorded reading (demo files, files followed by props `extends`) still has the content
//! hash recorded. Entries not used by a build are removed at its end, so the cache holds one build's worth.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use xxhash_rust::xxh3::{Xxh3, xxh3_64};

use super::diagnostic::{Diagnostic, Stage};

/// First bytes of every cache entry (the last byte is the entry layout's version).
const MAGIC: &[u8; 8] = b"MDDCACH3";

/// Everything every key includes: the tool (its version and the bundle format's) and the whole configuration
/// (layout, thresholds, encoding). A different tool or configuration reuses nothing.
pub fn global_key(config_toml: &str) -> u64 {
    let mut h = Xxh3::new();
    h.update(MAGIC);
    h.update(env!("CARGO_PKG_VERSION").as_bytes());
    h.update(&crate::bundle::format::FORMAT_VERSION.to_le_bytes());
    h.update(config_toml.as_bytes());
    h.digest()
}

/// The content hash of the file `rel` under `root`: xxh3-64 of its bytes, `None` when it cannot be read (missing,
/// a directory, no permission). This is what a dependency records.
pub fn file_hash(root: &Path, rel: &str) -> Option<u64> {
    hash_file(&root.join(rel))
}

/// xxh3-64 of the file at `path`, read 64 KiB at a time (issue 26: hashing never holds a whole file, so a 1 GiB
/// asset costs no more memory than a small one); `None` when it cannot be read. Equal to `xxh3_64` of its bytes.
pub fn hash_file(path: &Path) -> Option<u64> {
    use std::io::Read;
    let mut file = std::fs::File::open(path).ok()?;
    let mut h = Xxh3::new();
    let mut buf = vec![0u8; 64 << 10];
    loop {
        match file.read(&mut buf) {
            Ok(0) => return Some(h.digest()),
            Ok(n) => h.update(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return None,
        }
    }
}

/// The key of a walked file's content: its streamed hash ([`hash_file`]), or for a file over `max_bytes` (which
/// no stage reads: every reader refuses it by its size first) a hash of its size and modification time, so a
/// large asset beside the sources is never read at all.
fn content_key(f: &super::walk::WalkedFile, max_bytes: u64) -> Option<u64> {
    if f.bytes <= max_bytes {
        return hash_file(&f.abs);
    }
    let meta = std::fs::metadata(&f.abs).ok()?;
    let mtime = meta.modified().ok().and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok()).unwrap_or_default();
    let mut h = Xxh3::new();
    h.update(b"over the size limit: size and mtime\0");
    h.update(&meta.len().to_le_bytes());
    h.update(&mtime.as_nanos().to_le_bytes());
    Some(h.digest())
}

/// A file a unit read beyond its listed inputs, with the content hash it had (`None`: it did not exist).
pub type Dependency = (String, Option<u64>);

/// What is read first of an entry: which unit, under which key, and what else it read.
#[derive(Serialize, Deserialize)]
struct Header {
    name: String,
    key: u64,
    deps: Vec<Dependency>,
}

/// A valid entry on disk, value not yet decoded.
struct Entry {
    key: u64,
    deps: Vec<Dependency>,
    /// The whole file (the value is decoded from `value_at` on).
    bytes: Vec<u8>,
    value_at: usize,
}

/// The cache directory of one build: entries read when opened, units looked up and stored during the build,
/// unused entries removed by [`Cache::finish`].
pub struct Cache {
    dir: PathBuf,
    entries: BTreeMap<String, Entry>,
    /// Names looked up or stored by this build (kept by `finish`).
    used: Mutex<BTreeSet<String>>,
    /// Damaged entries and write failures, reported as notes.
    notes: Mutex<Vec<Diagnostic>>,
    /// Units reused and recompiled by this build.
    counts: Mutex<(u32, u32)>,
    /// Values set aside ([`Cache::put_aside`]) that this build took instead of compiling them again.
    taken_aside: std::sync::atomic::AtomicU32,
    /// Every extra file a unit of this build read (from the entries reused and the units stored): what the set
    /// record ([`SetRecord`]) must check besides the walked files.
    deps: Mutex<BTreeSet<Dependency>>,
    /// Content hashes of the walked files, when computed before the cache was opened (see [`hash_files`]).
    hashes: BTreeMap<String, Option<u64>>,
}

/// What [`Cache::finish`] reports.
pub struct Finished {
    /// Damaged entries and write failures, as notes.
    pub notes: Vec<Diagnostic>,
    /// Units taken from the cache.
    pub reused: u32,
    /// Units compiled and stored.
    pub recompiled: u32,
    /// Parts of recompiled units taken from values set aside ([`Cache::took_aside`]).
    pub taken_aside: u32,
    /// Every extra file the units read, with its hash (see [`Cache`]'s `deps`).
    pub deps: Vec<Dependency>,
}

impl Cache {
    /// Opens (creating it when missing) the cache in `dir` and reads its entries. A damaged entry is a note and is
    /// removed; an unreadable directory gives an empty cache.
    pub fn open(dir: &Path, hashes: BTreeMap<String, Option<u64>>) -> Cache {
        let mut cache = Cache {
            dir: dir.to_path_buf(),
            entries: BTreeMap::new(),
            used: Mutex::new(BTreeSet::new()),
            notes: Mutex::new(Vec::new()),
            counts: Mutex::new((0, 0)),
            taken_aside: std::sync::atomic::AtomicU32::new(0),
            deps: Mutex::new(BTreeSet::new()),
            hashes,
        };
        let Ok(read) = std::fs::read_dir(dir) else { return cache };
        let mut files: Vec<PathBuf> = read
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "entry"))
            .collect();
        files.sort();
        for file in files {
            match read_entry(&file) {
                Ok((name, entry)) => {
                    cache.entries.insert(name, entry);
                }
                Err(why) => {
                    let shown = file.file_name().map_or(String::new(), |n| n.to_string_lossy().into_owned());
                    cache.note(Diagnostic::note(
                        shown,
                        Stage::Cache,
                        format!("damaged cache entry ignored ({why}); its unit is recompiled"),
                    ));
                    let _ = std::fs::remove_file(&file);
                }
            }
        }
        cache
    }

    /// The content hash of walked file `rel` computed when the build started (`None` when it was not walked or
    /// could not be read).
    pub fn hash_of(&self, rel: &str) -> Option<Option<u64>> {
        self.hashes.get(rel).copied()
    }

    fn record_deps(&self, deps: &[Dependency]) {
        if let Ok(mut d) = self.deps.lock() {
            d.extend(deps.iter().cloned());
        }
    }

    fn note(&self, d: Diagnostic) {
        if let Ok(mut n) = self.notes.lock() {
            n.push(d);
        }
    }

    /// The value stored for unit `name` under `key`, when every dependency it recorded still has its hash
    /// (`current` gives a dependency's hash now). `None` (the unit must be compiled) otherwise, or when the value
    /// does not decode (a note).
    pub fn get<T: DeserializeOwned>(&self, name: &str, key: u64, current: impl Fn(&str) -> Option<u64>) -> Option<T> {
        self.keep(name);
        let entry = self.entries.get(name).filter(|e| e.key == key)?;
        if entry.deps.iter().any(|(rel, hash)| current(rel) != *hash) {
            return None;
        }
        match rmp_serde::from_slice(&entry.bytes[entry.value_at..]) {
            Ok(v) => {
                if let Ok(mut c) = self.counts.lock() {
                    c.0 += 1;
                }
                self.record_deps(&entry.deps);
                Some(v)
            }
            Err(e) => {
                self.note(Diagnostic::note(
                    name,
                    Stage::Cache,
                    format!("cache entry does not decode ({e}); recompiled"),
                ));
                None
            }
        }
    }

    /// The value the cache holds for unit `name` whatever its key and dependencies (what the last build stored),
    /// for what stays valid across keys (memoized counts, checked by the caller). Not counted as a reuse. A value
    /// that does not decode is a note and `None`.
    pub fn previous<T: DeserializeOwned>(&self, name: &str) -> Option<T> {
        let entry = self.entries.get(name)?;
        match rmp_serde::from_slice(&entry.bytes[entry.value_at..]) {
            Ok(v) => Some(v),
            Err(e) => {
                self.note(Diagnostic::note(name, Stage::Cache, format!("cache entry does not decode ({e}); ignored")));
                None
            }
        }
    }

    /// Stores `value` under `name` and `key` for [`Cache::aside`] (parts of a unit, each valid by its own key,
    /// checked by the caller), without counting it as a unit compiled. A failure to write is a note.
    pub fn put_aside<T: Serialize>(&self, name: &str, key: u64, value: &T) {
        self.write(name, key, Vec::new(), value);
    }

    /// The value set aside under `name` by [`Cache::put_aside`] with this `key` (another tool version or
    /// configuration stored it under another: `None`, silently). A value that does not decode is a note and `None`.
    pub fn aside<T: DeserializeOwned>(&self, name: &str, key: u64) -> Option<T> {
        self.entries.get(name).filter(|e| e.key == key)?;
        self.previous(name)
    }

    /// Counts one part of a recompiled unit taken from a value set aside (reported, e.g. source files reused).
    pub fn took_aside(&self) {
        self.taken_aside.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }

    /// Keeps the entry `name` (if any) for the next build although this build did not read it.
    pub fn keep(&self, name: &str) {
        if let Ok(mut u) = self.used.lock() {
            u.insert(name.to_string());
        }
    }

    /// Stores `value` for unit `name` under `key`, with the extra files it read. A failure to write is a note (the
    /// next build recompiles the unit).
    pub fn put<T: Serialize>(&self, name: &str, key: u64, deps: Vec<Dependency>, value: &T) {
        if let Ok(mut c) = self.counts.lock() {
            c.1 += 1;
        }
        self.record_deps(&deps);
        self.write(name, key, deps, value);
    }

    /// Writes the entry of `name` (marked used); a failure is a note.
    fn write<T: Serialize>(&self, name: &str, key: u64, deps: Vec<Dependency>, value: &T) {
        self.keep(name);
        let file = self.dir.join(format!("{:016x}.entry", xxh3_64(name.as_bytes())));
        let written = write_entry(&file, &Header { name: name.to_string(), key, deps }, value);
        if let Err(e) = written {
            self.note(Diagnostic::note(
                self.dir.display().to_string(),
                Stage::Cache,
                format!("cannot write the cache entry of {name} ({e}); it will be recompiled next time"),
            ));
        }
    }

    /// Removes the entries this build did not use (units that no longer exist), so the cache does not grow
    /// without bound, and left-over temporary files. Returns the notes (damaged entries, write failures), the
    /// counts of units reused and recompiled and the extra files they read.
    pub fn finish(self) -> Finished {
        let used = self.used.into_inner().unwrap_or_else(|e| e.into_inner());
        let keep: BTreeSet<String> =
            used.iter().map(|name| format!("{:016x}.entry", xxh3_64(name.as_bytes()))).collect();
        for e in std::fs::read_dir(&self.dir).into_iter().flatten().filter_map(Result::ok) {
            let file = e.file_name().to_string_lossy().into_owned();
            if !keep.contains(&file) && (file.ends_with(".entry") || file.contains(".tmp-")) {
                let _ = std::fs::remove_file(e.path());
            }
        }
        drop(self.entries);
        let (reused, recompiled) = self.counts.into_inner().unwrap_or_else(|e| e.into_inner());
        Finished {
            notes: self.notes.into_inner().unwrap_or_else(|e| e.into_inner()),
            reused,
            recompiled,
            taken_aside: self.taken_aside.into_inner(),
            deps: self.deps.into_inner().unwrap_or_else(|e| e.into_inner()).into_iter().collect(),
        }
    }
}

/// File name of the set record in the cache directory (not a unit's `<hash>.entry`, so [`Cache::finish`] keeps
/// it: its key and dependencies say when it applies).
const SET_FILE: &str = "set.record";

/// The content keys of `files` ([`content_key`]: xxh3-64 of their bytes streamed, or size and mtime over
/// `max_bytes`; `None` when unreadable), read in parallel: what every key of a cached build is made of.
pub fn hash_files(files: &[super::walk::WalkedFile], max_bytes: u64) -> BTreeMap<String, Option<u64>> {
    use rayon::prelude::*;
    files.par_iter().map(|f| (f.rel.clone(), content_key(f, max_bytes))).collect()
}

/// The key of a whole build (issue 12 item 3): the tool and configuration ([`global_key`]) and every walked file's
/// path, size and content hash. The layout is a pure function of the walked files and the configuration, so an
/// equal key with equal extra files ([`SetRecord`]'s dependencies) means the same set.
pub fn set_key(config_toml: &str, files: &[super::walk::WalkedFile], hashes: &BTreeMap<String, Option<u64>>) -> u64 {
    let mut h = Xxh3::new();
    h.update(&global_key(config_toml).to_le_bytes());
    for f in files {
        h.update(f.rel.as_bytes());
        h.update(&[0]);
        h.update(&f.bytes.to_le_bytes());
        match hashes.get(&f.rel).copied().flatten() {
            Some(x) => h.update(&x.to_le_bytes()),
            None => h.update(b"unreadable"),
        }
    }
    h.digest()
}

/// What the last build with this cache published, stored once the set is published: a rebuild whose
/// [`set_key`] and extra files are unchanged finds here the set to report and reads no unit at all.
#[derive(Serialize, Deserialize)]
pub struct SetRecord {
    /// `<system>@<version>`: the directory name under the output directory.
    pub name: String,
    /// The build id of the set published.
    pub build_id: u64,
    /// Units of the build (all reused by a rebuild that finds this record).
    pub units: u32,
    /// Where the version came from.
    pub version_source: String,
    /// The build's diagnostics, but those of the walk (which a rebuild makes again).
    pub diagnostics: Vec<Diagnostic>,
}

/// The set record in `dir` when it was stored under `key` and every extra file it recorded still has its hash
/// (`current` gives a file's hash now; pseudo-paths starting with `\0` are covered by the key and skipped).
pub fn read_set(dir: &Path, key: u64, current: impl Fn(&str) -> Option<u64>) -> Option<SetRecord> {
    let (name, entry) = read_entry(&dir.join(SET_FILE)).ok()?;
    if name != "set" || entry.key != key {
        return None;
    }
    if entry.deps.iter().any(|(rel, hash)| !rel.starts_with('\0') && current(rel) != *hash) {
        return None;
    }
    rmp_serde::from_slice(&entry.bytes[entry.value_at..]).ok()
}

/// Empties the cache in `dir`: every unit entry, set-aside value and the set record (a build whose inputs changed
/// while it ran cannot tell which of them pair a key with the bytes it names).
pub fn purge(dir: &Path) {
    for e in std::fs::read_dir(dir).into_iter().flatten().filter_map(Result::ok) {
        let file = e.file_name().to_string_lossy().into_owned();
        if file.ends_with(".entry") || file == SET_FILE || file.contains(".tmp-") {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

/// Stores the set record under `key` with the extra files the build read. Best effort: without it the next build
/// takes the per-unit path.
pub fn write_set(dir: &Path, key: u64, deps: Vec<Dependency>, record: &SetRecord) {
    let _ = write_entry(&dir.join(SET_FILE), &Header { name: "set".into(), key, deps }, record);
}

/// Writes one entry file: magic, checksum, header, value. Through a temporary file and a rename, so a reader of the
/// cache sees the old entry or the new one. No fsync: a torn entry after a crash fails its checksum and is
/// recompiled.
fn write_entry<T: Serialize + ?Sized>(file: &Path, header: &Header, value: &T) -> std::io::Result<()> {
    let mut body = rmp_serde::to_vec(header).map_err(std::io::Error::other)?;
    rmp_serde::encode::write(&mut body, value).map_err(std::io::Error::other)?;
    let mut bytes = Vec::with_capacity(body.len() + 16);
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&xxh3_64(&body).to_le_bytes());
    bytes.extend_from_slice(&body);
    if let Some(dir) = file.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let tmp = file.with_extension(format!("tmp-{}", std::process::id()));
    std::fs::write(&tmp, &bytes)?;
    std::fs::rename(&tmp, file)
}

/// Reads and checks one entry file: magic, checksum, header.
fn read_entry(file: &Path) -> Result<(String, Entry), String> {
    let bytes = std::fs::read(file).map_err(|e| format!("unreadable: {e}"))?;
    if bytes.len() < 16 || &bytes[..8] != MAGIC {
        return Err("not a cache entry of this version".into());
    }
    let sum = u64::from_le_bytes(bytes[8..16].try_into().map_err(|_| "short".to_string())?);
    if xxh3_64(&bytes[16..]) != sum {
        return Err("checksum mismatch".into());
    }
    let mut cursor = std::io::Cursor::new(&bytes[16..]);
    let header: Header = rmp_serde::decode::from_read(&mut cursor).map_err(|e| format!("bad header: {e}"))?;
    let value_at = 16 + cursor.position() as usize;
    Ok((header.name, Entry { key: header.key, deps: header.deps, bytes, value_at }))
}
