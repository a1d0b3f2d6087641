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

use super::Diagnostic;

/// First bytes of every cache entry (the last byte is the entry layout's version).
const MAGIC: &[u8; 8] = b"MDDCACH2";

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
    std::fs::read(root.join(rel)).ok().map(|b| xxh3_64(&b))
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
}

impl Cache {
    /// Opens (creating it when missing) the cache in `dir` and reads its entries. A damaged entry is a note and is
    /// removed; an unreadable directory gives an empty cache.
    pub fn open(dir: &Path) -> Cache {
        let mut cache = Cache {
            dir: dir.to_path_buf(),
            entries: BTreeMap::new(),
            used: Mutex::new(BTreeSet::new()),
            notes: Mutex::new(Vec::new()),
            counts: Mutex::new((0, 0)),
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
                        "cache",
                        format!("damaged cache entry ignored ({why}); its unit is recompiled"),
                    ));
                    let _ = std::fs::remove_file(&file);
                }
            }
        }
        cache
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
        if let Ok(mut u) = self.used.lock() {
            u.insert(name.to_string());
        }
        let entry = self.entries.get(name).filter(|e| e.key == key)?;
        if entry.deps.iter().any(|(rel, hash)| current(rel) != *hash) {
            return None;
        }
        match rmp_serde::from_slice(&entry.bytes[entry.value_at..]) {
            Ok(v) => {
                if let Ok(mut c) = self.counts.lock() {
                    c.0 += 1;
                }
                Some(v)
            }
            Err(e) => {
                self.note(Diagnostic::note(name, "cache", format!("cache entry does not decode ({e}); recompiled")));
                None
            }
        }
    }

    /// Stores `value` for unit `name` under `key`, with the extra files it read. A failure to write is a note (the
    /// next build recompiles the unit).
    pub fn put<T: Serialize>(&self, name: &str, key: u64, deps: Vec<Dependency>, value: &T) {
        if let Ok(mut u) = self.used.lock() {
            u.insert(name.to_string());
        }
        if let Ok(mut c) = self.counts.lock() {
            c.1 += 1;
        }
        let file = self.dir.join(format!("{:016x}.entry", xxh3_64(name.as_bytes())));
        let header = Header { name: name.to_string(), key, deps };
        let written = (|| -> std::io::Result<()> {
            let mut body = rmp_serde::to_vec(&header).map_err(std::io::Error::other)?;
            rmp_serde::encode::write(&mut body, value).map_err(std::io::Error::other)?;
            let mut bytes = Vec::with_capacity(body.len() + 16);
            bytes.extend_from_slice(MAGIC);
            bytes.extend_from_slice(&xxh3_64(&body).to_le_bytes());
            bytes.extend_from_slice(&body);
            std::fs::create_dir_all(&self.dir)?;
            // Temporary file and rename: a reader of the cache sees the old entry or the new one. No fsync: a torn
            // entry after a crash fails its checksum and is recompiled.
            let tmp = file.with_extension(format!("tmp-{}", std::process::id()));
            std::fs::write(&tmp, &bytes)?;
            std::fs::rename(&tmp, &file)
        })();
        if let Err(e) = written {
            self.note(Diagnostic::note(
                self.dir.display().to_string(),
                "cache",
                format!("cannot write the cache entry of {name} ({e}); it will be recompiled next time"),
            ));
        }
    }

    /// Removes the entries this build did not use (units that no longer exist), so the cache does not grow
    /// without bound, and left-over temporary files. Returns the notes (damaged entries, write failures) and the
    /// counts of units reused and recompiled.
    pub fn finish(self) -> (Vec<Diagnostic>, u32, u32) {
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
        (self.notes.into_inner().unwrap_or_else(|e| e.into_inner()), reused, recompiled)
    }
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
