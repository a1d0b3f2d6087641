//! The store and the pack file: how a bundle set travels from a release job to an air-gapped machine.
//!
//! - **Pack file** (`<system>@<version>.tar.zst`, written by [`pack`]): one zstd frame holding a tar archive, then a
//!   16-byte zstd *skippable frame* that carries the whole-file checksum. `zstd -d | tar x` still unpacks it (zstd
//!   skips skippable frames). The archive holds, in this order and with fixed metadata (mode 0644, mtime 0, uid/gid
//!   0, no user names), `mydesign-pack.json` ([`PackManifest`]: system, version, build id, every file with its size
//!   in bytes and xxh3-64) and then `<system>@<version>/manifest.bundle` and the set's bundles sorted by name. The
//!   same bundle set always gives the same bytes. The trailer is `50 2A 4D 18` (skippable-frame magic 0x184D2A50,
//!   little-endian), `10 00 00 00` (16 payload bytes), `MDPKSUM1`, then the xxh3-64 of every byte before the trailer,
//!   little-endian. The full binary compresses the archive; a binary without the `build` feature (the reader-only
//!   one) stores it in raw zstd blocks ([`zstd_stored`]) and links no zstd compressor.
//! - **Store** ([`store_dir`]): a directory of installed sets, `<store>/<system>@<version>/`, the same layout as a
//!   build's `out/`, so [`Library::scan`] reads it directly. [`install`] unpacks into a hidden temporary directory of
//!   the store, verifies every file and frame there, and renames it into place: a failed or interrupted install
//!   leaves the store as it was (a killed one leaves only a hidden `.install-*` directory, removed by a later
//!   install after an hour).
//! - **Build id**: the xxh3-64 of a set's `manifest.bundle` in 16 hex digits. The manifest records every bundle's
//!   size and checksum, so two sets with the same build id hold the same bytes.
//!
//! Where lookups read when no `--bundles` is given ([`default_dirs`]): `./out` when it holds a set, else the store.

use std::io::Write;

pub mod npm;
#[cfg(feature = "build")]
mod npm_fetch;
mod unpack;
#[cfg(feature = "build")]
pub use npm_fetch::install_npm;

/// The prefix of an `install` argument naming an npm package spec (`npm:@s/ui-docs@2.61.3`).
pub const NPM_PREFIX: &str = "npm:";
use std::path::{Path, PathBuf};
pub use unpack::PACK_SET_CAP;

use serde::{Deserialize, Serialize};

use crate::model::Manifest;
use crate::read::{BundleSet, Library, LookupError};

pub use mydesign_docs_reader::locate::{STORE_ENV, default_dirs, store_dir};

/// Name of the pack manifest, the first entry of a pack file's archive.
pub const PACK_MANIFEST: &str = "mydesign-pack.json";

/// Format number of the pack file, in [`PackManifest::format`].
pub const PACK_FORMAT: u32 = 1;

/// Bytes of the checksum trailer at the end of a pack file.
const TRAILER_BYTES: usize = 24;
const TRAILER_MAGIC: [u8; 4] = 0x184D_2A50u32.to_le_bytes();
const TRAILER_TAG: &[u8; 8] = b"MDPKSUM1";
/// zstd level of pack files: the bundles inside are compressed already, so only tar headers and padding shrink.
#[cfg(feature = "build")]
const PACK_LEVEL: i32 = 3;

/// Why a pack, install, list or remove failed. Every message names the file or set and what to do.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// A file or directory could not be read or written.
    #[error("{path}: {reason}")]
    Io {
        /// The path.
        path: String,
        /// The operating system's reason (not a `source`, so an error chain says it once).
        reason: std::io::Error,
    },
    /// The pack file is damaged, truncated, tampered with or not a pack file; nothing was installed.
    #[error("{path}: {message}; nothing was installed (the store is unchanged)")]
    BadPack {
        /// The pack file.
        path: String,
        /// What is wrong.
        message: String,
    },
    /// The same version is installed from a different build.
    #[error(
        "{name} is already installed from another build ({installed}; this one is {new}); pass --force to replace it"
    )]
    Conflict {
        /// `system@version`.
        name: String,
        /// Build id installed.
        installed: String,
        /// Build id offered.
        new: String,
    },
    /// `remove` named a set that is not installed.
    #[error("{name} is not installed in {store}; installed: {available}")]
    NotInstalled {
        /// What was asked for.
        name: String,
        /// The store.
        store: String,
        /// `system@version` of every installed set, or `nothing`.
        available: String,
    },
    /// A set offered to `install` failed its checks (a damaged bundle, a checksum mismatch): named where it came
    /// from.
    #[error("{message}; nothing was installed from {origin} (the store is unchanged)")]
    Damaged {
        /// The set directory, or `FILE › <system>@<version>` for a pack file.
        origin: String,
        /// What is wrong, naming the damaged file inside `origin`.
        message: String,
    },
    /// A lookup error of a set (a damaged bundle, a checksum mismatch, no set found).
    #[error(transparent)]
    Lookup(#[from] LookupError),
    /// Anything else that is the caller's to fix (a bad argument).
    #[error("{0}")]
    Usage(String),
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> StoreError + '_ {
    move |reason| StoreError::Io { path: path.display().to_string(), reason }
}

/// The build id of the set in `dir`: xxh3-64 of its `manifest.bundle`, 16 hex digits.
///
/// # Errors
/// The manifest cannot be read.
pub fn build_id(dir: &Path) -> Result<String, StoreError> {
    let path = dir.join("manifest.bundle");
    let bytes = std::fs::read(&path).map_err(io(&path))?;
    Ok(format!("{:016x}", xxhash_rust::xxh3::xxh3_64(&bytes)))
}

/// The manifest of a pack file (`mydesign-pack.json`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PackManifest {
    /// [`PACK_FORMAT`].
    pub format: u32,
    /// Design-system name.
    pub system: String,
    /// Version.
    pub version: String,
    /// Build id ([`build_id`]).
    pub build_id: String,
    /// The tool that built the set, e.g. `mydesign-docs 0.1.0`.
    pub built_by: String,
    /// Every file of the set, `manifest.bundle` first, then by name.
    pub files: Vec<PackedFile>,
}

/// One file of a packed set.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PackedFile {
    /// File name inside the set directory.
    pub name: String,
    /// Size in bytes.
    pub bytes: u64,
    /// xxh3-64 of the file, 16 hex digits.
    pub xxh3: String,
}

impl PackManifest {
    /// `system@version`.
    pub fn name(&self) -> String {
        format!("{}@{}", self.system, self.version)
    }

    /// Total bytes of the set's files.
    pub fn bytes(&self) -> u64 {
        self.files.iter().map(|f| f.bytes).sum()
    }
}

/// What [`pack`] wrote.
#[derive(Debug, Clone)]
pub struct Packed {
    /// The pack file.
    pub path: PathBuf,
    /// Its manifest.
    pub manifest: PackManifest,
    /// Size of the pack file in bytes.
    pub bytes: u64,
}

/// A name usable as one path component: not empty, no separator, not `.`/`..`, no control character.
fn safe_component(name: &str) -> bool {
    !name.is_empty()
        && name != "."
        && name != ".."
        && !name.starts_with('.')
        && !name.chars().any(|c| c == '/' || c == '\\' || c.is_control())
}

fn tar_header(size: u64) -> tar::Header {
    let mut h = tar::Header::new_ustar();
    h.set_size(size);
    h.set_mode(0o644);
    h.set_mtime(0);
    h.set_uid(0);
    h.set_gid(0);
    h.set_entry_type(tar::EntryType::Regular);
    h
}

/// Packs the set `set` into `out` (a file; a directory gets `<system>@<version>.tar.zst` inside), atomically
/// (temporary sibling, fsync, rename). Only `manifest.bundle` and the bundles its manifest lists are packed; each
/// is checked against the manifest's size and checksum first, so a damaged set is never packed.
///
/// # Errors
/// A file that cannot be read or written; a bundle that does not match the manifest.
pub fn pack(set: &BundleSet, out: &Path) -> Result<Packed, StoreError> {
    set.verify()?;
    let (manifest, files) = read_set(set)?;
    let name = manifest.name();
    let contents: Vec<Vec<u8>> = files.into_iter().map(|(_, data)| data).collect();
    let json = serde_json::to_vec_pretty(&manifest).map_err(|e| StoreError::Usage(e.to_string()))?;

    let mut tar = tar::Builder::new(Vec::new());
    let mut append = |path: &str, data: &[u8]| {
        let mut h = tar_header(data.len() as u64);
        tar.append_data(&mut h, path, data)
    };
    // `-o dist/` names a directory, made when missing; `-o file.tar.zst` a file.
    let names_dir = out.is_dir() || out.as_os_str().to_string_lossy().ends_with('/');
    if names_dir {
        std::fs::create_dir_all(out).map_err(io(out))?;
    }
    let out_path = if names_dir { out.join(format!("{name}.tar.zst")) } else { out.to_path_buf() };
    append(PACK_MANIFEST, &json).map_err(io(&out_path))?;
    for (f, data) in manifest.files.iter().zip(&contents) {
        append(&format!("{name}/{}", f.name), data).map_err(io(&out_path))?;
    }
    let archive = tar.into_inner().map_err(io(&out_path))?;
    let mut bytes = pack_frame(&archive).map_err(io(&out_path))?;
    let sum = xxhash_rust::xxh3::xxh3_64(&bytes);
    bytes.extend_from_slice(&TRAILER_MAGIC);
    bytes.extend_from_slice(&16u32.to_le_bytes());
    bytes.extend_from_slice(TRAILER_TAG);
    bytes.extend_from_slice(&sum.to_le_bytes());
    crate::bundle::writer::write_atomically(&out_path, &bytes).map_err(io(&out_path))?;
    Ok(Packed { path: out_path, manifest, bytes: bytes.len() as u64 })
}

/// The archive as one zstd frame: compressed at [`PACK_LEVEL`] by the full binary; stored (raw blocks, see
/// [`zstd_stored`]) by a binary without the `build` feature, which then links no zstd compressor (0.43 MB of the
/// reader-only binary). The bundles inside are compressed already: stored, a pack of Semi is ~3 % larger (tar
/// headers and padding), and any zstd decoder, `install` included, reads both.
fn pack_frame(archive: &[u8]) -> std::io::Result<Vec<u8>> {
    #[cfg(feature = "build")]
    return zstd::bulk::compress(archive, PACK_LEVEL);
    #[cfg(not(feature = "build"))]
    return Ok(zstd_stored(archive));
}

/// Largest raw block of a zstd frame (bytes): the format's block size limit, 128 KiB.
const RAW_BLOCK: usize = 128 << 10;

/// `data` as one zstd frame of raw (stored) blocks, written by hand (RFC 8878, 3.1.1): magic, a frame header with
/// a 128 KiB window and the 8-byte content size, then blocks of at most [`RAW_BLOCK`] bytes, the last one marked
/// (an empty `data` is one empty last block). No content checksum: the pack trailer checks the whole file.
pub fn zstd_stored(data: &[u8]) -> Vec<u8> {
    let blocks = data.len().div_ceil(RAW_BLOCK).max(1);
    let mut out = Vec::with_capacity(4 + 2 + 8 + 3 * blocks + data.len());
    out.extend_from_slice(&0xFD2F_B528u32.to_le_bytes());
    // Frame header descriptor: content-size field of 8 bytes (0b11 << 6), not single-segment, no checksum, no
    // dictionary; window descriptor: exponent 7, mantissa 0 = 2^(10+7) = 128 KiB.
    out.push(0b1100_0000);
    out.push(7 << 3);
    out.extend_from_slice(&(data.len() as u64).to_le_bytes());
    let mut chunks = data.chunks(RAW_BLOCK).peekable();
    if chunks.peek().is_none() {
        out.extend_from_slice(&[1, 0, 0]);
    }
    while let Some(chunk) = chunks.next() {
        // Block header, 3 bytes little-endian: last-block bit, type 0 (raw) in bits 1-2, size in bits 3-23.
        let last = u32::from(chunks.peek().is_none());
        out.extend_from_slice(&(last | (chunk.len() as u32) << 3).to_le_bytes()[..3]);
        out.extend_from_slice(chunk);
    }
    out
}

/// A set to install: its pack manifest and its files, in memory (read from a set directory) or already written
/// into a temporary directory of the store (unpacked from a pack file, never held whole).
struct Unpacked {
    manifest: PackManifest,
    files: Files,
}

/// Name and bytes of each file of a set, `manifest.bundle` first.
type NamedFiles = Vec<(String, Vec<u8>)>;

/// Where the files of an [`Unpacked`] set are.
enum Files {
    /// Name and bytes of each file, `manifest.bundle` first.
    Memory(NamedFiles),
    /// A hidden `.install-*` directory of the store holding every file.
    Written(PathBuf),
}

/// What [`install`] did with one set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Installed {
    /// Newly installed.
    New,
    /// The same build was installed already: nothing changed.
    Unchanged,
    /// A different build of the same version was replaced (`--force`).
    Replaced {
        /// The build id that was replaced.
        previous: String,
    },
    /// The installed copy was damaged (a file not what its manifest pins, or missing) and was replaced, with or
    /// without `--force`.
    Repaired {
        /// What was wrong with it (the reader's error, naming the file).
        damage: String,
    },
}

/// One set installed: its name, build id, size in bytes and what happened.
#[derive(Debug, Clone)]
pub struct InstallReport {
    /// `system@version`.
    pub name: String,
    /// Build id.
    pub build_id: String,
    /// Bytes of the set's files.
    pub bytes: u64,
    /// Where it is.
    pub dir: PathBuf,
    /// What happened.
    pub outcome: Installed,
}

/// Installs `from` into `store`: a pack file, a bundle set directory (holding `manifest.bundle`), or a directory of
/// sets (`out/`, every `<system>@<version>/` in it). Each set is written to a hidden temporary directory of the
/// store, verified there (every bundle against the manifest's size and checksum, every frame decoded) and renamed
/// into place. The same build again is a no-op; a different build of an installed version needs `force`; an
/// installed copy that is damaged ([`BundleSet::damage`], or [`BundleSet::verify`] with `force`) is replaced.
///
/// # Errors
/// [`StoreError::BadPack`] for a damaged file (the store is unchanged), [`StoreError::Conflict`] without `force`,
/// a set that fails verification, or an I/O error.
pub fn install(from: &Path, store: &Path, force: bool) -> Result<Vec<InstallReport>, StoreError> {
    let meta = std::fs::metadata(from).map_err(io(from))?;
    // Each set with where it comes from, as its errors name it: the set directory, or `FILE › <system>@<version>`.
    let sets: Vec<(Unpacked, String)> = if meta.is_dir() {
        let dirs: Vec<PathBuf> = if from.join("manifest.bundle").is_file() {
            vec![from.to_path_buf()]
        } else {
            let mut dirs: Vec<PathBuf> = std::fs::read_dir(from)
                .map_err(io(from))?
                .filter_map(|e| e.ok())
                .map(|e| e.path())
                .filter(|p| {
                    let n = p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
                    n.contains('@') && !n.starts_with('.') && p.join("manifest.bundle").is_file()
                })
                .collect();
            dirs.sort();
            dirs
        };
        if dirs.is_empty() {
            // What is there instead: sets missing their manifest, or nothing a build wrote.
            return Err(crate::read::no_bundles(&[from.to_path_buf()], false).into());
        }
        let shown = |d: &Path| d.components().collect::<PathBuf>().display().to_string();
        dirs.iter()
            .map(|d| {
                let origin = shown(d);
                // Every set is verified before any is installed: a damaged one beside good ones leaves the store
                // as it was (a new user's trial: the good sets were installed, the error said "unchanged").
                let verified = || -> Result<Unpacked, StoreError> {
                    let set = read_set_dir(d)?;
                    BundleSet::open(d)?.verify()?;
                    Ok(set)
                };
                // The reader names the set's generation (its canonical path): name it as the user did.
                let set = verified().map_err(|e| match e {
                    StoreError::Lookup(e) => {
                        StoreError::Damaged { origin: origin.clone(), message: renamed(&e.to_string(), d, &origin) }
                    }
                    other => other,
                })?;
                Ok((set, origin))
            })
            .collect::<Result<_, StoreError>>()?
    } else {
        // Unpacked straight into the store's temporary directory, each file streamed through its checks.
        std::fs::create_dir_all(store).map_err(io(store))?;
        clean_stale(store);
        let tmp = store.join(format!(".install-{}", unique_suffix()));
        std::fs::create_dir(&tmp).map_err(io(&tmp))?;
        let manifest = unpack::unpack_into(from, &tmp).inspect_err(|_| {
            let _ = std::fs::remove_dir_all(&tmp);
        })?;
        let origin = format!("{} › {}", from.display(), manifest.name());
        vec![(Unpacked { manifest, files: Files::Written(tmp) }, origin)]
    };
    std::fs::create_dir_all(store).map_err(io(store))?;
    clean_stale(store);
    sets.into_iter().map(|(set, origin)| install_one(set, &origin, store, force)).collect()
}

/// `message` with the directory `dir` (canonical, as the reader names it, or as given) spelled `origin`.
fn renamed(message: &str, dir: &Path, origin: &str) -> String {
    // As typed but without a trailing `/` (`origin` has none either).
    let names = [dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf()), dir.components().collect()];
    names.iter().map(|p| p.display().to_string()).fold(message.to_string(), |m, name| m.replace(&name, origin))
}

/// Reads a set directory as if it had been unpacked (so both paths share the checks of [`install_one`]).
fn read_set_dir(dir: &Path) -> Result<Unpacked, StoreError> {
    let (manifest, files) = read_set(&BundleSet::open(dir)?)?;
    Ok(Unpacked { manifest, files: Files::Memory(files) })
}

/// The files of an open set (`manifest.bundle`, then its bundles by name) and the pack manifest describing them.
fn read_set(set: &BundleSet) -> Result<(PackManifest, NamedFiles), StoreError> {
    let m = set.manifest()?;
    let dir = set.dir();
    if !safe_component(&m.system) || !safe_component(&m.version) {
        return Err(StoreError::Usage(format!(
            "{}: the system or version ({}@{}) is not usable as a directory name",
            dir.display(),
            m.system.escape_debug(),
            m.version.escape_debug()
        )));
    }
    let mut names: Vec<String> = m.bundles.iter().map(|b| b.name.clone()).collect();
    names.sort();
    names.insert(0, "manifest.bundle".into());
    let mut files = Vec::new();
    let mut packed = Vec::new();
    for n in names {
        if !safe_component(&n) {
            return Err(StoreError::Usage(format!("{}: unusable bundle name `{}`", dir.display(), n.escape_debug())));
        }
        let path = dir.join(&n);
        let data = std::fs::read(&path).map_err(io(&path))?;
        packed.push(PackedFile {
            name: n.clone(),
            bytes: data.len() as u64,
            xxh3: format!("{:016x}", xxhash_rust::xxh3::xxh3_64(&data)),
        });
        files.push((n, data));
    }
    let manifest = PackManifest {
        format: PACK_FORMAT,
        system: m.system.clone(),
        version: m.version.clone(),
        build_id: format!("{:016x}", xxhash_rust::xxh3::xxh3_64(&files[0].1)),
        built_by: m.built_by.clone(),
        files: packed,
    };
    Ok((manifest, files))
}

fn unique_suffix() -> String {
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0);
    format!("{}-{nanos}", std::process::id())
}

/// Removes `.install-*` / `.remove-*` directories over an hour old: left by installs or removals that were killed.
fn clean_stale(store: &Path) {
    let Ok(read) = std::fs::read_dir(store) else { return };
    for e in read.filter_map(|e| e.ok()) {
        let n = e.file_name().to_string_lossy().into_owned();
        if !(n.starts_with(".install-") || n.starts_with(".remove-")) {
            continue;
        }
        let old = e.metadata().and_then(|m| m.modified()).ok().and_then(|t| t.elapsed().ok());
        if old.is_some_and(|d| d.as_secs() > 3600) {
            let _ = std::fs::remove_dir_all(e.path());
        }
    }
}

/// Installs one set read from `origin` (a set directory, or `FILE › <system>@<version>` inside a pack file): a
/// failed check names the file there, never the store's temporary directory it was checked in.
fn install_one(set: Unpacked, origin: &str, store: &Path, force: bool) -> Result<InstallReport, StoreError> {
    let m = &set.manifest;
    let name = m.name();
    let dest = store.join(&name);
    let report = |outcome| InstallReport {
        name: name.clone(),
        build_id: m.build_id.clone(),
        bytes: m.bytes(),
        dir: dest.clone(),
        outcome,
    };
    let previous = if dest.join("manifest.bundle").is_file() { Some(build_id(&dest)?) } else { None };
    // An installed copy that is not what its manifest pins (a file cut, rewritten or gone) is replaced, `--force` or
    // not: it is no build worth keeping (new-user trial: a same-build install over it said "unchanged"). `--force`
    // checks it in full (every frame decoded), else `damage`'s check (sizes and whole-file checksums).
    let damage = if dest.exists() {
        match BundleSet::damage(&dest) {
            None if force => BundleSet::open(&dest).and_then(|s| s.verify()).err().map(|e| e.to_string()),
            found => found,
        }
    } else {
        None
    };
    // A pack's files are already in a temporary directory of the store: removed when nothing is installed.
    let discard = |files: &Files| {
        if let Files::Written(tmp) = files {
            let _ = std::fs::remove_dir_all(tmp);
        }
    };
    if let (Some(prev), None) = (&previous, &damage) {
        if *prev == m.build_id {
            discard(&set.files);
            return Ok(report(Installed::Unchanged));
        }
        if !force {
            discard(&set.files);
            return Err(StoreError::Conflict { name: name.clone(), installed: prev.clone(), new: m.build_id.clone() });
        }
    }
    let (tmp, written) = match &set.files {
        Files::Written(tmp) => (tmp.clone(), Ok(())),
        Files::Memory(files) => {
            let tmp = store.join(format!(".install-{}", unique_suffix()));
            let written = (|| {
                std::fs::create_dir(&tmp).map_err(io(&tmp))?;
                for (n, data) in files {
                    let path = tmp.join(n);
                    let mut f = std::fs::File::create(&path).map_err(io(&path))?;
                    f.write_all(data).and_then(|()| f.sync_all()).map_err(io(&path))?;
                }
                Ok(())
            })();
            (tmp, written)
        }
    };
    let checked = || -> Result<(), StoreError> {
        // The set as the reader will see it: the manifest names these system/version, every bundle matches it and
        // every frame decodes.
        let opened = BundleSet::open(&tmp)?;
        let om: &Manifest = opened.manifest()?;
        if om.system != m.system || om.version != m.version {
            return Err(StoreError::BadPack {
                path: name.clone(),
                message: format!(
                    "the pack manifest says {name}, the bundle manifest says {}@{}",
                    om.system, om.version
                ),
            });
        }
        let listed: std::collections::BTreeSet<&str> = om.bundles.iter().map(|b| b.name.as_str()).collect();
        let have: std::collections::BTreeSet<&str> = m.files[1..].iter().map(|f| f.name.as_str()).collect();
        if listed != have {
            return Err(StoreError::BadPack {
                path: name.clone(),
                message: "the files packed are not the bundles its manifest lists".into(),
            });
        }
        opened.verify()?;
        Ok(())
    };
    // A damaged set is named where it came from: the temporary directory is gone once this returns.
    let result = written.and_then(|()| {
        checked().map_err(|e| match e {
            StoreError::Lookup(e) => {
                StoreError::Damaged { origin: origin.to_string(), message: renamed(&e.to_string(), &tmp, origin) }
            }
            other => other,
        })
    });
    if let Err(e) = result {
        let _ = std::fs::remove_dir_all(&tmp);
        return Err(e);
    }
    // Into place, as a build publishes: a new generation and the `<system>@<version>` link replaced in one rename,
    // so a reader (a running `serve`) sees the old set or the new one, never a mix, and moves to the new one at its
    // next request.
    let generation = BundleSet::open(&tmp).map(|s| s.head().build_id).unwrap_or_default();
    crate::publish::publish_generation(store, &name, &tmp, generation).map_err(io(&dest))?;
    let outcome = match (previous, damage) {
        (_, Some(damage)) => Installed::Repaired { damage },
        (None, None) => Installed::New,
        (Some(prev), None) => Installed::Replaced { previous: prev },
    };
    sync_dir(store);
    Ok(report(outcome))
}

fn sync_dir(dir: &Path) {
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
}

/// One installed set, as `list` shows it.
#[derive(Debug, Clone, Serialize)]
pub struct StoreEntry {
    /// Design-system name.
    pub system: String,
    /// Version.
    pub version: String,
    /// Bytes of its files.
    pub bytes: u64,
    /// Build id ([`build_id`]).
    pub build_id: String,
    /// The tool that built it.
    pub built_by: String,
    /// Its directory.
    pub dir: PathBuf,
}

/// A set of the store that does not open (an older bundle format, a damaged manifest), as `list` shows it: the
/// other sets are listed all the same.
#[derive(Debug, Clone, Serialize)]
pub struct UnreadableSet {
    /// Design-system name (from the directory name).
    pub system: String,
    /// Version (from the directory name).
    pub version: String,
    /// Its directory.
    pub dir: PathBuf,
    /// Why it does not open (the reader's error, naming the file).
    pub error: String,
    /// What to do: install it again once rebuilt by this version, or remove it (the commands).
    pub what_to_do: String,
}

/// What `list` finds in a store: the sets that open, and those that do not.
#[derive(Debug, Clone, Default, Serialize)]
pub struct StoreListing {
    /// The installed sets that open, by system then version (ascending, as lookups order them).
    pub sets: Vec<StoreEntry>,
    /// The installed sets that do not open, in the same order; omitted from JSON when there is none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unreadable: Vec<UnreadableSet>,
}

/// The sets installed in `store`, by system then version (ascending, as lookups order them). An empty or missing
/// store gives an empty listing. A set that does not open (written by an older format, damaged) is listed in
/// [`StoreListing::unreadable`] with why and what to do, and the listing goes on.
///
/// # Errors
/// `store` is itself a set (it holds a `manifest.bundle`) whose manifest cannot be read.
pub fn list(store: &Path) -> Result<StoreListing, StoreError> {
    let library = match Library::scan(&[store.to_path_buf()]) {
        Ok(l) => l,
        Err(LookupError::NoBundles { .. }) => return Ok(StoreListing::default()),
        Err(e) => return Err(e.into()),
    };
    let mut out = StoreListing::default();
    for (system, versions) in library.systems() {
        for version in versions {
            let dir = store.join(format!("{system}@{version}"));
            let entry = (|| -> Result<StoreEntry, StoreError> {
                let set = BundleSet::open(&dir)?;
                let bytes = std::fs::metadata(dir.join("manifest.bundle")).map(|m| m.len()).unwrap_or(0)
                    + set.manifest()?.bundles.iter().map(|b| b.bytes).sum::<u64>();
                Ok(StoreEntry {
                    build_id: build_id(&dir)?,
                    built_by: set.head().built_by.clone(),
                    system: system.clone(),
                    version: version.clone(),
                    bytes,
                    dir: dir.clone(),
                })
            })();
            match entry {
                Ok(e) => out.sets.push(e),
                Err(e) => {
                    let name = format!("{system}@{version}");
                    out.unreadable.push(UnreadableSet {
                        what_to_do: format!(
                            "install it again once rebuilt (`mydesign-docs install DIR_OR_PACK --force`), or remove \
                             it (`mydesign-docs remove {name}`)"
                        ),
                        system: system.clone(),
                        version,
                        dir,
                        error: e.to_string(),
                    });
                }
            }
        }
    }
    Ok(out)
}

/// Removes `name` (`system@version`) from `store`, holding the store's lock (the one a publication takes, so an
/// `install` racing it lands wholly before or after, never leaving a link to a removed generation): the link is
/// removed first (readers see the set whole or not at all), then the generation it named and the older ones. A
/// dangling link of that name (its generation deleted by hand or by an older version) is removed as well.
///
/// # Errors
/// [`StoreError::NotInstalled`] naming what is installed; an I/O error.
pub fn remove(store: &Path, name: &str) -> Result<PathBuf, StoreError> {
    let (system, version) =
        name.split_once('@').filter(|(s, v)| safe_component(s) && safe_component(v)).ok_or_else(|| {
            StoreError::Usage(format!("`{}` is not SYSTEM@VERSION (e.g. semi@2.102.0)", name.escape_debug()))
        })?;
    // Held until this returns; a store that does not exist holds nothing to remove (the listing says so).
    let _lock = match std::fs::File::open(store) {
        Ok(f) => Some(f.lock().map(|()| f).map_err(io(store))?),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(io(store)(e)),
    };
    let literal = store.join(name);
    if std::fs::symlink_metadata(&literal).is_ok_and(|m| m.file_type().is_symlink()) && !literal.exists() {
        std::fs::remove_file(&literal).map_err(io(&literal))?;
        remove_generations(store, &literal)?;
        sync_dir(store);
        return Ok(literal);
    }
    let listing = list(store)?;
    // Every installed set, unreadable ones too (an old format is removed like any other).
    let installed: Vec<(&str, &str, &PathBuf)> = (listing.sets.iter().map(|e| (&e.system, &e.version, &e.dir)))
        .chain(listing.unreadable.iter().map(|e| (&e.system, &e.version, &e.dir)))
        .map(|(s, v, d)| (s.as_str(), v.as_str(), d))
        .collect();
    let Some(&(_, _, entry_dir)) =
        installed.iter().find(|(s, v, _)| s.eq_ignore_ascii_case(system) && *v == version.trim_start_matches('v'))
    else {
        let available: Vec<String> = installed.iter().map(|(s, v, _)| format!("{s}@{v}")).collect();
        return Err(StoreError::NotInstalled {
            name: name.to_string(),
            store: store.display().to_string(),
            available: if available.is_empty() { "nothing".into() } else { available.join(", ") },
        });
    };
    if std::fs::symlink_metadata(entry_dir).is_ok_and(|m| m.file_type().is_symlink()) {
        std::fs::remove_file(entry_dir).map_err(io(entry_dir))?;
    } else {
        // A plain directory (installed before generations): renamed aside, then deleted.
        let old = store.join(format!(".remove-{}", unique_suffix()));
        std::fs::rename(entry_dir, &old).map_err(io(entry_dir))?;
        sync_dir(store);
        std::fs::remove_dir_all(&old).map_err(io(&old))?;
    }
    sync_dir(store);
    remove_generations(store, entry_dir)?;
    Ok(entry_dir.clone())
}

/// Deletes the generations of the set whose link is `link` (`.<system>@<version>.gen-*`): its link is gone, so no
/// reader reaches them any more. Called under the store's lock.
fn remove_generations(store: &Path, link: &Path) -> Result<(), StoreError> {
    let prefix = format!(".{}.gen-", link.file_name().unwrap_or_default().to_string_lossy());
    for e in std::fs::read_dir(store).into_iter().flatten().filter_map(Result::ok) {
        if e.file_name().to_string_lossy().starts_with(&prefix) {
            std::fs::remove_dir_all(e.path()).map_err(io(&e.path()))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::zstd_stored;

    #[test]
    fn stored_zstd_frames_decode_with_zstd_at_every_block_boundary() {
        // Empty, one byte, exactly one block, one byte over, several blocks.
        for n in [0usize, 1, 131_072, 131_073, 300_000] {
            let data: Vec<u8> = (0..n).map(|i| (i * 7 % 251) as u8).collect();
            let frame = zstd_stored(&data);
            assert_eq!(frame.len(), 14 + 3 * n.div_ceil(131_072).max(1) + n, "{n} bytes");
            assert_eq!(zstd::zstd_safe::get_frame_content_size(&frame).unwrap(), Some(n as u64), "{n} bytes");
            assert_eq!(zstd::stream::decode_all(&frame[..]).unwrap(), data, "{n} bytes, streaming");
            assert_eq!(zstd::bulk::decompress(&frame, n).unwrap(), data, "{n} bytes, one shot");
        }
    }
}
