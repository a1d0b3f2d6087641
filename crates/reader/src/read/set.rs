//! One open bundle set ([`BundleSet`]): opening it, checking each bundle's identity against the manifest, and
//! verifying every bundle (`verify`, [`BundleSet::damage`]).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::bundle::format::{CHANGELOG_KEY, CUT_RULE, MANIFEST_KEY, SEARCH_KEY};
use crate::bundle::{Bundle, BundleError};
use crate::model::*;

use super::cache::SetCache;
use super::error::{LookupError, no_bundles};
use super::library::{Library, set_name};
use super::names::echo;
use super::views::Served;

/// What [`BundleSet::verify_all`] checked.
#[derive(Debug)]
pub struct Verified {
    /// Bundle files the manifest lists (all checked).
    pub bundles: usize,
    /// Frames decoded in the bundles found whole.
    pub frames: usize,
    /// One error per missing, resized or damaged bundle, in the manifest's order.
    pub damaged: Vec<LookupError>,
}

/// An open bundle set: its manifest, and its bundles opened lazily and kept open.
pub struct BundleSet {
    pub(super) dir: PathBuf,
    /// `dir` resolved once when opened: the generation this set answers from (`out/<system>@<version>` is a link to
    /// an immutable `.…gen-<id>` directory that a rebuild replaces), so every bundle comes from the same build.
    pub(super) pinned: PathBuf,
    /// The manifest's head (`keys::HEAD`: no component, file or component bundle list), decoded on open.
    pub(super) manifest: Manifest,
    /// `manifest.bundle`, kept open: component entries and the whole manifest are decoded from it on demand.
    manifest_bundle: Bundle,
    /// The whole manifest (`keys::MANIFEST`), decoded by the first lookup that needs a list (`components`, a
    /// path's owner, an unknown name's suggestions, `verify`).
    full: std::sync::OnceLock<Manifest>,
    /// The set's design tokens (`keys::DESIGN_TOKENS`), decoded by the first token lookup.
    design_tokens: std::sync::OnceLock<crate::model::DesignTokens>,
    /// The set's bundle files, opened on first use and kept open.
    open: Mutex<HashMap<String, Arc<Bundle>>>,
    /// What lookups decode from the bundles and keep: entries, metadata, texts, cut points, token maps.
    pub(super) cache: SetCache,
    /// State that modules above this one decode once per set and keep ([`BundleSet::kept`]; the search index of
    /// `search::query`), one value per type: `read` need not know their types.
    kept: Mutex<Vec<Arc<dyn std::any::Any + Send + Sync>>>,
    /// Why this set is served by default for its system ([`Library::pin`]): said in every answer's header.
    pub(super) note: std::sync::OnceLock<String>,
}

/// Checks a bundle's identity against the manifest that names it under `key` (a component key or one of the set's
/// own bundle keys), field by field, naming the first difference with both values.
fn check_identity(b: &Bundle, m: &Manifest, key: &str) -> Result<(), BundleError> {
    let id = b.identity();
    let describe = |k: &str| match k {
        MANIFEST_KEY => "the manifest".to_string(),
        CHANGELOG_KEY => "the changelog".to_string(),
        SEARCH_KEY => "the search index".to_string(),
        k => format!("component `{}`", echo(k)),
    };
    let pairs: [(&str, String, String); 5] = [
        ("system", echo(&m.system), echo(&id.system)),
        ("version", echo(&m.version), echo(&id.version)),
        ("encoding", echo(&m.encoding), echo(&id.encoding)),
        // Format 7: only the manifest carries the build id; the others are pinned by the manifest's size and header
        // checksum of them.
        (
            "build",
            format!("{:016x}", if key == MANIFEST_KEY { m.build_id } else { 0 }),
            format!("{:016x}", id.build_id),
        ),
        ("key", describe(key), describe(&id.key)),
    ];
    match pairs.into_iter().find(|(_, want, got)| want != got) {
        None => Ok(()),
        Some(("key", want, got)) => {
            Err(BundleError::WrongBundle { path: b.path().to_string(), expected: want, found: got })
        }
        Some((field, want, got)) => Err(BundleError::WrongBundle {
            path: b.path().to_string(),
            expected: format!("{field} {want}"),
            found: format!("{field} {got}"),
        }),
    }
}

impl BundleSet {
    /// Finds and opens one bundle set under `dir` (see [`Library::scan`] and [`Library::select`]).
    ///
    /// # Errors
    /// As [`Library::scan`] and [`Library::select`].
    pub fn discover(dir: &Path, system: Option<&str>, version: Option<&str>) -> Result<Arc<BundleSet>, LookupError> {
        Library::scan(&[dir.to_path_buf()])?.select(system, version)
    }

    /// Opens the bundle set in `dir` (which holds `manifest.bundle`).
    ///
    /// # Errors
    /// A missing or damaged manifest.
    pub fn open(dir: &Path) -> Result<BundleSet, LookupError> {
        let pinned = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
        let path = pinned.join("manifest.bundle");
        if !path.is_file() {
            return Err(no_bundles(&[dir.to_path_buf()], false));
        }
        let bundle = Bundle::open(&path)?;
        bundle.check_ends_at_index()?;
        let manifest: Manifest = bundle.get(keys::HEAD)?;
        check_identity(&bundle, &manifest, MANIFEST_KEY)?;
        if manifest.cut_rule != CUT_RULE {
            return Err(
                BundleError::UnknownCutRule { path: bundle.path().to_string(), found: manifest.cut_rule }.into()
            );
        }
        // A directory named `<system>@<version>` (as `build`, `install` and lookups name sets) holds that set: its
        // name is what lookups list, so another set's manifest in it would be served under a name it is not.
        if let Some((system, version)) = set_name(dir)
            && (system != manifest.system || version != manifest.version)
        {
            return Err(BundleError::ForeignSet {
                path: bundle.path().to_string(),
                found: format!("{}@{}", manifest.system, manifest.version),
                named: format!("{system}@{version}"),
            }
            .into());
        }
        Ok(BundleSet {
            dir: dir.to_path_buf(),
            pinned,
            manifest,
            manifest_bundle: bundle,
            full: std::sync::OnceLock::new(),
            design_tokens: std::sync::OnceLock::new(),
            open: Mutex::new(HashMap::new()),
            cache: SetCache::new(),
            kept: Mutex::new(Vec::new()),
            note: std::sync::OnceLock::new(),
        })
    }

    /// The value of type `T` this set keeps, made by `init` on first use (under the set's lock, so once) and kept
    /// as long as the set: how a module built on `read` (the search index of `search::query`) caches per-set state
    /// without `read` depending on it. An `Err` from `init` is returned and nothing is kept.
    ///
    /// # Errors
    /// `init`'s.
    pub fn kept<T: std::any::Any + Send + Sync, E>(
        &self,
        init: impl FnOnce(&BundleSet) -> Result<T, E>,
    ) -> Result<Arc<T>, E> {
        let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(found) = kept.iter().find_map(|v| v.clone().downcast::<T>().ok()) {
            return Ok(found);
        }
        let made = Arc::new(init(self)?);
        kept.push(made.clone());
        Ok(made)
    }

    /// The manifest's head, decoded on open: every field of [`Manifest`] but the lists that grow with the set
    /// (`components` and `files` are empty, `bundles` holds only the set's own files; see [`Manifest::head`]). What
    /// a lookup needs (system, version, languages, thresholds) without decoding the whole manifest.
    pub fn head(&self) -> &Manifest {
        &self.manifest
    }

    /// The whole manifest, decoded on first use and kept: what lists, path owners and suggestions need. Fields that
    /// do not grow with the set are in [`BundleSet::head`], which cannot fail.
    ///
    /// # Errors
    /// A damaged `manifest` frame (`manifest.bundle` changed since it was opened), or one that disagrees with the
    /// head decoded on open. Never an empty list in its place: that would be silent loss.
    pub fn manifest(&self) -> Result<&Manifest, LookupError> {
        if let Some(m) = self.full.get() {
            return Ok(m);
        }
        let m = crate::bundle::reader::read_manifest(&self.manifest_bundle)?;
        if m.build_id != self.manifest.build_id || m.system != self.manifest.system {
            let path = self.manifest_bundle.path().to_string();
            return Err(BundleError::Corrupt { path, what: "manifest (its head names another build)".into() }.into());
        }
        Ok(self.full.get_or_init(|| m))
    }

    /// The set's design tokens, decoded on first use and kept; none for a set of format 11, which stored none.
    ///
    /// # Errors
    /// A damaged `design-tokens` frame.
    pub fn design_tokens(&self) -> Result<&crate::model::DesignTokens, LookupError> {
        if let Some(t) = self.design_tokens.get() {
            return Ok(t);
        }
        let tokens = match self.manifest_bundle.has(keys::DESIGN_TOKENS) {
            true => self.manifest_bundle.get(keys::DESIGN_TOKENS)?,
            false => crate::model::DesignTokens::default(),
        };
        Ok(self.design_tokens.get_or_init(|| tokens))
    }

    /// The key of the component whose bundle stores file `path` (exact, normalised), `None` when no component lists
    /// it: from the whole manifest when it is decoded, else from the one `files/` frame that would hold it (format
    /// 10), not the whole manifest.
    ///
    /// # Errors
    /// A damaged `files/` frame.
    pub(crate) fn file_owner(&self, path: &str) -> Result<Option<String>, LookupError> {
        let find = |files: &[FileOwner]| {
            files.binary_search_by(|f| f.path.as_str().cmp(path)).ok().map(|i| files[i].component.clone())
        };
        if let Some(m) = self.full.get() {
            return Ok(find(&m.files));
        }
        let Some(key) = self.manifest_bundle.floor_key(keys::FILES, &keys::files(path)) else { return Ok(None) };
        let chunk: Vec<FileOwner> = self.manifest_bundle.get(key)?;
        Ok(find(&chunk))
    }

    /// The entry of the component with key `key` and its bundle's record: from the cache, else its `entry/<key>`
    /// frame (found by binary search in the manifest bundle's index); `None` when no component has that key.
    pub(super) fn lookup_entry(&self, key: &str) -> Result<Option<(Arc<ComponentEntry>, BundleFile)>, LookupError> {
        if let Some(found) = self.cache.entries.get(key) {
            return Ok(Some(found));
        }
        let frame = keys::entry(key);
        if !self.manifest_bundle.has(&frame) {
            return Ok(None);
        }
        let ComponentLookup { entry, bundle } = self.manifest_bundle.get(&frame)?;
        if entry.key != key || entry.bundle != bundle.name {
            let path = self.manifest_bundle.path().to_string();
            return Err(
                BundleError::Corrupt { path, what: format!("frame `{frame}` (it names `{}`)", entry.key) }.into()
            );
        }
        let found = (Arc::new(entry), bundle);
        self.cache.entries.insert(key.to_string(), found.clone());
        Ok(Some(found))
    }

    /// The directory of the set.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    pub(crate) fn served(&self) -> Served {
        let note = self.note.get().cloned();
        Served { system: self.manifest.system.clone(), version: self.manifest.version.clone(), note }
    }

    /// The bundle file `file` (a name inside the set directory, as the manifest lists it), opened and memory-mapped
    /// on first use and kept open.
    ///
    /// # Errors
    /// [`LookupError`] when the file is missing or not a valid bundle.
    pub fn bundle(&self, file: &str) -> Result<Arc<Bundle>, LookupError> {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(b) = open.get(file) {
            return Ok(b.clone());
        }
        let b = Arc::new(Bundle::open(&self.pinned.join(file))?);
        self.check_bundle(file, &b)?;
        open.insert(file.to_string(), b.clone());
        Ok(b)
    }

    /// Checks that the bundle opened from `file` is the one the manifest names: its size and header checksum as
    /// the manifest records them, and its identity (system, version, encoding, build, key). Cheap: no frame is
    /// read. The full hash is `verify`'s.
    fn check_bundle(&self, file: &str, b: &Bundle) -> Result<(), BundleError> {
        let m = &self.manifest;
        let wrong =
            |expected: String, found: String| BundleError::WrongBundle { path: b.path().to_string(), expected, found };
        // A component's bundle was just named by its entry (cached); the set's own bundles are in the head; only
        // a file named otherwise needs the whole manifest.
        let cached = (self.cache.entries).find(|(c, f)| (c.bundle == file).then(|| (c.key.clone(), f.clone())));
        let whole =
            || self.manifest().map_err(|e| BundleError::Corrupt { path: b.path().to_string(), what: e.to_string() });
        let key = if m.search.as_ref().is_some_and(|s| s.bundle == file) {
            SEARCH_KEY.to_string()
        } else if m.changelog.as_ref().is_some_and(|c| c.bundle == file) {
            CHANGELOG_KEY.to_string()
        } else if let Some((key, _)) = &cached {
            key.clone()
        } else if let Some(shared) = m.shared.as_ref().filter(|s| s.bundle == file) {
            shared.key.clone()
        } else {
            let full = whole()?;
            let entry = full.components.iter().find(|c| c.bundle == file);
            entry.map(|c| c.key.clone()).unwrap_or_else(|| format!("(not listed: {file})"))
        };
        check_identity(b, m, &key)?;
        let listed = match (cached, m.bundles.binary_search_by(|f| f.name.as_str().cmp(file))) {
            (Some((_, listed)), _) => listed,
            (None, Ok(i)) => m.bundles[i].clone(),
            (None, Err(_)) => {
                let full = whole()?;
                let Ok(i) = full.bundles.binary_search_by(|f| f.name.as_str().cmp(file)) else {
                    return Err(wrong("the bundles it lists".into(), format!("`{file}`, which it does not list")));
                };
                full.bundles[i].clone()
            }
        };
        if b.file_len() != listed.bytes {
            return Err(wrong(format!("{} bytes", listed.bytes), format!("{} bytes", b.file_len())));
        }
        if b.header_xxh3() != listed.header_xxh3 {
            return Err(wrong(
                format!("header checksum {:016x}", listed.header_xxh3),
                format!("header checksum {:016x}", b.header_xxh3()),
            ));
        }
        Ok(())
    }

    /// `system@version`, as cursors name the set.
    pub(crate) fn label(&self) -> String {
        format!("{}@{}", self.manifest.system, self.manifest.version)
    }

    /// Why the set in `dir` is not what its manifest pins, or `None` when it is: the manifest opens and its frames
    /// decode, and every bundle it lists has the size and whole-file checksum the manifest records (read and
    /// hashed, ~2 ms for Semi's 2.4 MB; their frames are not decompressed: [`BundleSet::verify`] is the full
    /// check, which a whole-file checksum already settles for their bytes). What a rebuild or an install of the
    /// same build checks before keeping a published generation (trials 7 and 8: a truncated bundle, then one with
    /// a byte flipped in the middle, was kept and the build said nothing was written). The reason names the
    /// damaged file, every one when several are (a rebuild's `repaired:` line named 1 of 4).
    pub fn damage(dir: &Path) -> Option<String> {
        let check = || -> Result<Vec<String>, LookupError> {
            let set = BundleSet::open(dir)?;
            set.manifest_bundle.check_all()?;
            let bundles = &set.manifest()?.bundles;
            let damaged: Vec<(&str, String)> = bundles
                .iter()
                .filter_map(|b| set.check_file(b).err().map(|e| (b.name.as_str(), e.to_string())))
                .collect();
            Ok(match damaged.as_slice() {
                [] => vec![],
                [(_, one)] => vec![one.clone()],
                // Every name, one reason: the paths and advice repeated per file made a line of kilobytes.
                [(_, first), ..] => {
                    let names: Vec<&str> = damaged.iter().map(|(n, _)| *n).collect();
                    vec![format!(
                        "{} of {} bundles: {}; the first: {first}",
                        names.len(),
                        bundles.len(),
                        names.join(", ")
                    )]
                }
            })
        };
        match check() {
            Ok(damaged) => damaged.into_iter().next(),
            Err(e) => Some(e.to_string()),
        }
    }

    /// Recomputes the checksum of every bundle file against the manifest and decompresses every frame. Returns
    /// `(bundles, frames)` checked.
    ///
    /// # Errors
    /// The first missing, resized or damaged bundle (see [`BundleSet::verify_all`] for every one).
    pub fn verify(&self) -> Result<(usize, usize), LookupError> {
        let mut checked = self.verify_all()?;
        match checked.damaged.is_empty() {
            true => Ok((checked.bundles, checked.frames)),
            false => Err(checked.damaged.remove(0)),
        }
    }

    /// [`BundleSet::verify`] of every bundle, going on past a damaged one: what `verify` on the command line lists.
    ///
    /// # Errors
    /// When the manifest cannot be read or its frames disagree with it (then no bundle can be checked).
    pub fn verify_all(&self) -> Result<Verified, LookupError> {
        let m = self.manifest()?;
        self.check_manifest_frames(m)?;
        let mut checked = Verified { bundles: m.bundles.len(), frames: 0, damaged: Vec::new() };
        for b in &m.bundles {
            // The search index's dictionary too: an fst damaged inside passes every checksum (issue 26 §3).
            let searched = m.search.as_ref().is_some_and(|s| s.bundle == b.name);
            let checked_one = self.verify_bundle(b).and_then(|frames| {
                if searched {
                    self.search_index()?.check()?;
                }
                Ok(frames)
            });
            match checked_one {
                Ok(frames) => checked.frames += frames,
                Err(e) => checked.damaged.push(e),
            }
        }
        Ok(checked)
    }

    /// One bundle file against its manifest entry: size, whole-file checksum ([`BundleSet::check_file`]), every
    /// frame decoded. Returns the frames checked.
    fn verify_bundle(&self, b: &crate::model::BundleFile) -> Result<usize, LookupError> {
        let path = self.check_file(b)?;
        Ok(Bundle::open(&path)?.check_all()?)
    }

    /// One bundle file's bytes against its manifest entry: its size, then its whole-file checksum. Returns its path.
    fn check_file(&self, b: &crate::model::BundleFile) -> Result<PathBuf, LookupError> {
        let path = self.pinned.join(&b.name);
        let bytes =
            std::fs::read(&path).map_err(|error| BundleError::Io { path: path.display().to_string(), error })?;
        let p = path.display().to_string();
        if bytes.len() as u64 != b.bytes {
            return Err(BundleError::Truncated {
                path: p,
                what: format!("{} bytes, the manifest says {}", bytes.len(), b.bytes),
            }
            .into());
        }
        if xxhash_rust::xxh3::xxh3_64(&bytes) != b.xxh3 {
            return Err(BundleError::ChecksumMismatch { path: p, what: "whole file".into() }.into());
        }
        Ok(path)
    }

    /// Checks that the head and every `entry/<key>` frame of `manifest.bundle` say what the whole manifest `m`
    /// says (a writer's promise; `verify` holds it to it).
    fn check_manifest_frames(&self, m: &Manifest) -> Result<(), LookupError> {
        let path = || self.manifest_bundle.path().to_string();
        if self.manifest != m.head() {
            return Err(
                BundleError::Corrupt { path: path(), what: "head (it differs from the manifest)".into() }.into()
            );
        }
        let entries = self.manifest_bundle.keys().filter(|k| k.starts_with("entry/")).count();
        if entries != m.components.len() {
            let what = format!("entries ({entries} for {} components)", m.components.len());
            return Err(BundleError::Corrupt { path: path(), what }.into());
        }
        for want in m.lookups() {
            let key = keys::entry(&want.entry.key);
            let got: ComponentLookup = self.manifest_bundle.get(&key)?;
            if got != want {
                return Err(BundleError::Corrupt {
                    path: path(),
                    what: format!("frame `{key}` (it differs from the manifest)"),
                }
                .into());
            }
        }
        Ok(())
    }
}
