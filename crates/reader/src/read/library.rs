//! The library of bundle sets found in one or more directories ([`Library`]): listing, selecting a system and
//! version, and falling back to another copy of a version when a bundle of the first is damaged.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::bundle::BundleError;

use super::error::{LookupError, incomplete_sets, join_dirs, no_bundles};
use super::names::echo;
use super::set::BundleSet;
use super::views::Served;

/// Every bundle set found in one or more directories, each opened on first use: what `serve` and the lookups
/// choose from. Several systems and versions can sit side by side.
pub struct Library {
    dirs: Vec<PathBuf>,
    /// `(system, version, directory)`, sorted by system then version (ascending), copies of one version in the
    /// order of their directories (the first that opens is served); listed again when a directory that holds sets
    /// changes ([`Library::refresh`]).
    entries: std::sync::RwLock<Vec<(String, String, PathBuf)>>,
    open: Mutex<HashMap<PathBuf, Arc<BundleSet>>>,
    /// Version served by default per system, instead of the highest ([`Library::pin`]).
    pins: HashMap<String, String>,
    /// What the last listing saw, to tell when to list again.
    listed: Mutex<Listing>,
    /// Where [`Library::fallback`] says that a damaged copy was left out for another (default: stderr, as
    /// `warning: …`; `serve` logs it instead: [`Library::on_fallback`]).
    notice: Box<dyn Fn(&str) + Send + Sync>,
}

/// The copies of a version that the lookup running on this thread under [`Library::fallback`] leaves out.
#[derive(Default)]
struct FallbackScope {
    /// Copies (their entry directories) whose bundles were found damaged during this lookup.
    left_out: Vec<PathBuf>,
    /// The copies that another copy of their version could stand in for, when the scope began.
    spare: Vec<PathBuf>,
}

thread_local! {
    /// The scope of the [`Library::fallback`] running on this thread, if any: [`Library::select`] (through
    /// `open_entry`) skips its `left_out` copies, wherever the lookup calls it (a search of several systems and a
    /// comparison of two versions select sets themselves).
    static FALLBACK: std::cell::RefCell<Option<FallbackScope>> = const { std::cell::RefCell::new(None) };
}

/// The bundle file a [`BundleError`] names.
fn damaged_file(e: &BundleError) -> &str {
    match e {
        BundleError::Io { path, .. }
        | BundleError::NotABundle { path }
        | BundleError::UnsupportedVersion { path, .. }
        | BundleError::Truncated { path, .. }
        | BundleError::ChecksumMismatch { path, .. }
        | BundleError::Corrupt { path, .. }
        | BundleError::UnknownCutRule { path, .. }
        | BundleError::NewerWriter { path, .. }
        | BundleError::WrongBundle { path, .. }
        | BundleError::MissingFrame { path, .. }
        | BundleError::ForeignSet { path, .. } => path,
    }
}

/// Whether `set` is a copy that a lookup running under [`Library::fallback`] can replace by another copy of its
/// version: a search of several systems then returns the set's damaged-bundle error (for the fallback to answer
/// from the other copy) instead of leaving the set out.
pub fn has_spare_copy(set: &BundleSet) -> bool {
    FALLBACK.with(|f| f.borrow().as_ref().is_some_and(|scope| scope.spare.iter().any(|d| d == set.dir())))
}

/// The directories holding sets (not sets given directly) with their modification times when last listed, and
/// when that was.
struct Listing {
    stamps: Vec<(PathBuf, Option<std::time::SystemTime>)>,
    at: std::time::SystemTime,
}

/// A directory modified this close to its last listing (or after it) is listed again at the next request:
/// modification times are coarse (a file system may keep one tick for several changes), so an entry added in
/// the same tick as the listing would otherwise go unseen.
const RACY_MTIME: std::time::Duration = std::time::Duration::from_secs(2);

/// The `<system>@<version>/` sets directly under `dir` (hidden names, such as generations, skipped).
fn sets_in(dir: &Path, entries: &mut Vec<(String, String, PathBuf)>) {
    let Ok(read) = std::fs::read_dir(dir) else { return };
    for e in read.filter_map(|e| e.ok()) {
        let name = e.file_name().to_string_lossy().into_owned();
        let Some((s, v)) = name.split_once('@') else { continue };
        if !name.starts_with('.') && e.path().join("manifest.bundle").is_file() {
            entries.push((s.to_string(), v.to_string(), e.path()));
        }
    }
}

/// `(system, version)` of a directory named `<system>@<version>` (the name of a symlink, not its target).
pub(super) fn set_name(dir: &Path) -> Option<(String, String)> {
    let name = dir.file_name()?.to_string_lossy().into_owned();
    let (s, v) = name.split_once('@')?;
    (!s.is_empty() && !v.is_empty() && !name.starts_with('.')).then(|| (s.to_string(), v.to_string()))
}

/// Sorts by system then version; the sort is stable, so the copies of one version (the same `system@version` in
/// several directories) stay in the order their directories were given: every copy is kept, since one that does
/// not open (damaged, an older format) must not hide a good one ([`Library::open_entry`]).
fn sort_entries(entries: &mut Vec<(String, String, PathBuf)>) {
    entries.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| crate::version::cmp(&a.1, &b.1)));
    entries.dedup_by(|a, b| a.0 == b.0 && a.1 == b.1 && a.2 == b.2);
}

fn mtime(dir: &Path) -> Option<std::time::SystemTime> {
    std::fs::metadata(dir).and_then(|m| m.modified()).ok()
}

impl Library {
    /// Lists the bundle sets in `dirs`: each directory is a set itself (it holds `manifest.bundle`) or holds
    /// `<system>@<version>/` sets. Only directory names are read here (and the manifest of a directory that is a set).
    ///
    /// # Errors
    /// [`LookupError::NoBundles`] when no directory holds any set; a damaged manifest of a set given directly
    /// (alone, or not named `<system>@<version>`: among several directories, a named one is listed and left out
    /// when another copy of its version opens).
    pub fn scan(dirs: &[PathBuf]) -> Result<Library, LookupError> {
        let mut entries = Vec::new();
        let mut open = HashMap::new();
        let at = std::time::SystemTime::now();
        let mut stamps = Vec::new();
        for dir in dirs {
            if dir.join("manifest.bundle").is_file() {
                let set = match BundleSet::open(dir) {
                    Ok(set) => set,
                    // A `<system>@<version>` set that does not open is listed by its name, as in a scanned
                    // directory: another copy of it may be served, else its lookups say why.
                    Err(e) => match set_name(dir) {
                        Some((s, v)) if dirs.len() > 1 => {
                            entries.push((s, v, dir.clone()));
                            continue;
                        }
                        _ => return Err(e),
                    },
                };
                entries.push((set.manifest.system.clone(), set.manifest.version.clone(), dir.clone()));
                open.insert(dir.clone(), Arc::new(set));
                continue;
            }
            stamps.push((dir.clone(), mtime(dir)));
            sets_in(dir, &mut entries);
        }
        if entries.is_empty() {
            return Err(no_bundles(dirs, false));
        }
        sort_entries(&mut entries);
        Ok(Library {
            dirs: dirs.to_vec(),
            entries: std::sync::RwLock::new(entries),
            open: Mutex::new(open),
            pins: HashMap::new(),
            listed: Mutex::new(Listing { stamps, at }),
            notice: Box::new(|message| eprintln!("warning: {message}")),
        })
    }

    /// Lists the sets of the scanned directories again when one of them changed since the last listing (its
    /// modification time moved, or is within [`RACY_MTIME`] of that listing), so that a running server serves a
    /// version installed or built after it started, and stops listing a removed one. Costs one `stat` per
    /// directory when nothing changed; sets given directly are kept as they are. Called by [`Library::select`]
    /// and [`Library::systems`], so at every request.
    pub fn refresh(&self) {
        let mut listed = self.listed.lock().unwrap_or_else(|e| e.into_inner());
        let at = listed.at;
        let stale = listed.stamps.iter().any(|(dir, seen)| {
            let now = mtime(dir);
            now != *seen || now.is_some_and(|t| t + RACY_MTIME >= at)
        });
        if !stale {
            return;
        }
        let now = std::time::SystemTime::now();
        for (dir, seen) in listed.stamps.iter_mut() {
            *seen = mtime(dir);
        }
        listed.at = now;
        let mut entries = self.entries.write().unwrap_or_else(|e| e.into_inner());
        // In the order of the directories, as `scan` lists them (the first copy of a version is served): a
        // scanned directory listed again, a set given directly kept as it is.
        let mut fresh = Vec::new();
        for dir in &self.dirs {
            if listed.stamps.iter().any(|(d, _)| d == dir) {
                sets_in(dir, &mut fresh);
            } else {
                fresh.extend(entries.iter().filter(|(_, _, d)| d == dir).cloned());
            }
        }
        sort_entries(&mut fresh);
        *entries = fresh;
    }

    /// The entries as last listed.
    fn entries(&self) -> std::sync::RwLockReadGuard<'_, Vec<(String, String, PathBuf)>> {
        self.entries.read().unwrap_or_else(|e| e.into_inner())
    }

    /// The library of the CLI's lookups and of `serve`: every set in `dirs` when some are given (`--bundles`,
    /// repeatable), else the first of [`crate::locate::default_dirs`] (`./out`, then the store) that holds a set.
    /// Only directory names and the manifests of sets given directly are read: no bundle is decompressed here.
    /// [`Library::dirs`] says where the sets were found.
    ///
    /// # Errors
    /// [`LookupError::NoBundles`] naming every directory searched; a damaged manifest of a set given directly.
    pub fn open(dirs: &[PathBuf]) -> Result<Library, LookupError> {
        if !dirs.is_empty() {
            return Library::scan(dirs);
        }
        let defaults = crate::locate::default_dirs();
        for dir in &defaults {
            match Library::scan(std::slice::from_ref(dir)) {
                Err(LookupError::NoBundles { .. }) => continue,
                other => return other,
            }
        }
        Library::scan(&defaults).map_err(|e| match e {
            LookupError::NoBundles { .. } => no_bundles(&defaults, true),
            other => other,
        })
    }

    /// The directories scanned (as given to [`Library::scan`]).
    pub fn dirs(&self) -> &[PathBuf] {
        &self.dirs
    }

    /// Systems and their versions (ascending), for lists and error messages.
    pub fn systems(&self) -> Vec<(String, Vec<String>)> {
        self.refresh();
        let mut out: Vec<(String, Vec<String>)> = Vec::new();
        for (s, v, _) in self.entries().iter() {
            match out.last_mut() {
                // Another copy of the same version.
                Some((last, versions)) if last == s && versions.last() == Some(v) => {}
                Some((last, versions)) if last == s => versions.push(v.clone()),
                _ => out.push((s.clone(), vec![v.clone()])),
            }
        }
        out
    }

    /// Serves `version` of `system` when a call names no version (instead of the highest), with `note` (why) in
    /// every answer's header when given. Used by `serve --project` (`crate::project`).
    ///
    /// # Errors
    /// As [`Library::select`] for that system and version.
    pub fn pin(&mut self, system: &str, version: &str, note: Option<String>) -> Result<(), LookupError> {
        let set = self.select(Some(system), Some(version))?;
        if let Some(note) = note {
            let _ = set.note.set(note);
        }
        self.pins.insert(set.manifest.system.clone(), set.manifest.version.clone());
        Ok(())
    }

    /// The notes of pinned versions ([`Library::pin`]), one per system that has one.
    pub fn notes(&self) -> Vec<String> {
        let open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        let mut out: Vec<String> =
            open.values().filter_map(|s| s.note.get().map(|n| format!("{}: {n}", s.manifest.system))).collect();
        out.sort();
        out
    }

    /// The set of `system` (required when there are several) at `version` (default: the pinned version, else the
    /// highest present).
    ///
    /// # Errors
    /// `System` (unknown, or several and none chosen), `UnknownVersion`, or a damaged manifest.
    pub fn select(&self, system: Option<&str>, version: Option<&str>) -> Result<Arc<BundleSet>, LookupError> {
        let systems = self.systems();
        let names: Vec<&str> = systems.iter().map(|(s, _)| s.as_str()).collect();
        let where_ = join_dirs(&self.dirs);
        let (system, versions) = match system {
            Some(want) => {
                systems.iter().find(|(s, _)| s.eq_ignore_ascii_case(want)).ok_or_else(|| LookupError::System {
                    message: format!("no system `{}` in {where_}; available: {}", echo(want), names.join(", ")),
                })?
            }
            None if systems.len() == 1 => &systems[0],
            // Every set was removed while the library was open.
            None if systems.is_empty() => return Err(no_bundles(&self.dirs, false)),
            None => {
                // A system none of whose sets opens (an older format, damaged) leaves no choice to make: the other
                // is served, and `damaged_defaults` names the ones left out (trial 4: old sets beside a new one
                // made every lookup without `--system` fail).
                let mut readable =
                    systems.iter().filter(|(s, versions)| versions.iter().any(|v| self.open_entry(s, v).is_ok()));
                match (readable.next(), readable.next()) {
                    (Some(one), None) => one,
                    _ => {
                        let names = names.iter().map(|n| n.to_string()).collect();
                        return Err(LookupError::SeveralSystems { dir: where_, names });
                    }
                }
            }
        };
        let pinned = if version.is_none() { self.pins.get(system) } else { None };
        let version = match pinned
            .map(String::as_str)
            .or(version)
            .map(str::trim)
            .filter(|v| !v.eq_ignore_ascii_case("latest") && !v.is_empty())
        {
            Some(v) => versions.iter().find(|x| x.as_str() == v.trim_start_matches('v')).ok_or_else(|| {
                LookupError::UnknownVersion {
                    system: system.clone(),
                    version: echo(v),
                    dir: where_.clone(),
                    available: versions.join(", "),
                }
            })?,
            None => {
                // The newest healthy set: a damaged newer one is skipped (and reported by `damaged_defaults`).
                let mut first_error = None;
                for v in versions.iter().rev() {
                    match self.open_entry(system, v) {
                        Ok(set) => return Ok(set),
                        Err(e) => {
                            first_error.get_or_insert(e);
                        }
                    }
                }
                return Err(first_error.unwrap_or_else(|| no_bundles(&self.dirs, false)));
            }
        };
        self.open_entry(system, version)
    }

    /// Says through `notice` (instead of on stderr) when [`Library::fallback`] answers from another copy of a
    /// version because a bundle of the first is damaged: `serve` logs it.
    pub fn on_fallback(&mut self, notice: impl Fn(&str) + Send + Sync + 'static) {
        self.notice = Box::new(notice);
    }

    /// Runs `lookup` (which selects its sets from this library) and, when it fails because a bundle of a set is
    /// damaged (any [`BundleError`]: a frame's checksum, a truncated or swapped file, a missing bundle) while
    /// another copy of the same `system@version` (the same set in another `--bundles` directory) opens, runs it
    /// again with the damaged copy left out, until it succeeds or no copy is left; each copy left out is said
    /// ([`Library::on_fallback`]) once the lookup succeeded, naming the damaged bundle and the copy that answered.
    /// The one place every lookup kind falls back (the CLI's and the server's): a copy whose manifest opens but
    /// whose bundles are damaged inside is otherwise served first, in `--bundles` order.
    ///
    /// A lookup that fails otherwise (an unknown name, a budget) is not run again; with no version in two copies
    /// the lookup runs once, as without this.
    ///
    /// # Errors
    /// `lookup`'s last error.
    pub fn fallback<T>(&self, lookup: impl FnMut() -> Result<T, LookupError>) -> Result<T, LookupError> {
        self.fallback_to_copies(lookup).map_err(|e| self.naming_other_versions(e))
    }

    /// `e`, or when it is a damaged bundle of a set while other versions of that system open,
    /// [`LookupError::DamagedVersion`] naming them (newest first): trial 6, a damaged newest version failed every
    /// lookup without saying that the older versions installed work. Not a fallback: the version asked for (or
    /// the default, the newest that opens) stays the one answered, so a session never mixes two versions.
    /// Not generic (one copy in the binary, whatever the lookup's view).
    fn naming_other_versions(&self, e: LookupError) -> LookupError {
        let LookupError::Bundle(error) = e else { return e };
        let held = {
            let open = self.open.lock().unwrap_or_else(|e| e.into_inner());
            let file = Path::new(damaged_file(&error));
            open.values().find(|set| file.starts_with(&set.pinned)).map(|set| set.served())
        };
        let Some(Served { system, version, .. }) = held else { return error.into() };
        let versions = self.systems().into_iter().find(|(s, _)| *s == system).map(|(_, v)| v).unwrap_or_default();
        let others: Vec<String> =
            versions.into_iter().rev().filter(|v| *v != version && self.open_entry(&system, v).is_ok()).collect();
        match others.is_empty() {
            true => error.into(),
            false => LookupError::DamagedVersion { error: Box::new(error), system, version, others },
        }
    }

    /// [`Library::fallback`] among the copies of one version.
    fn fallback_to_copies<T>(&self, mut lookup: impl FnMut() -> Result<T, LookupError>) -> Result<T, LookupError> {
        let nested = FALLBACK.with(|f| f.borrow().is_some());
        let spare = if nested { Vec::new() } else { self.spare_copies() };
        if spare.is_empty() {
            return lookup();
        }
        /// Ends the scope however the lookup ends (a panic in a server's tool included).
        struct Reset;
        impl Drop for Reset {
            fn drop(&mut self) {
                FALLBACK.with(|f| *f.borrow_mut() = None);
            }
        }
        FALLBACK.with(|f| *f.borrow_mut() = Some(FallbackScope { left_out: Vec::new(), spare }));
        let _reset = Reset;
        let mut said: Vec<(String, String, PathBuf, String)> = Vec::new();
        loop {
            let result = lookup();
            let damaged = match &result {
                Err(LookupError::Bundle(e)) => self.copy_holding(damaged_file(e)).map(|c| (c, e.to_string())),
                _ => None,
            };
            let Some(((system, version, dir), why)) = damaged else {
                if result.is_ok() {
                    for (system, version, dir, why) in &said {
                        // The copy that answered: the first of the version's copies not left out that opens.
                        let answered = self.open_entry(system, version).map(|s| s.dir().to_path_buf());
                        let answered =
                            answered.map_or_else(|_| "another copy".to_string(), |d| d.display().to_string());
                        (self.notice)(&format!(
                            "{system} {version} in {}: a bundle is damaged ({why}); answered from the copy in \
                             {answered} (copy the damaged set again or rebuild it)",
                            dir.display()
                        ));
                    }
                }
                return result;
            };
            let again = FALLBACK.with(|f| {
                let mut scope = f.borrow_mut();
                let Some(scope) = scope.as_mut() else { return true };
                let again = scope.left_out.contains(&dir);
                scope.left_out.push(dir.clone());
                again
            });
            // A copy left out already (the lookup did not select again): its error is the answer.
            if again {
                return result;
            }
            // Another copy of the version must open, else the damaged copy's error is the answer.
            if self.open_entry(&system, &version).is_err() {
                return result;
            }
            said.push((system, version, dir, why));
        }
    }

    /// The copies (entry directories) of every version held by several directories, each of which another copy of
    /// its version could stand in for.
    fn spare_copies(&self) -> Vec<PathBuf> {
        let entries = self.entries();
        let twin = |i: usize| {
            let (s, v, _) = &entries[i];
            let same = |j: usize| entries.get(j).is_some_and(|(s2, v2, _)| s2 == s && v2 == v);
            same(i + 1) || (i > 0 && same(i - 1))
        };
        (0..entries.len()).filter(|&i| twin(i)).map(|i| entries[i].2.clone()).collect()
    }

    /// The entry `(system, version, directory)` of the open set whose generation holds the bundle file `file`
    /// (a path as the set's bundles are opened: under its resolved directory), if it is one of several copies.
    fn copy_holding(&self, file: &str) -> Option<(String, String, PathBuf)> {
        let dir = {
            let open = self.open.lock().unwrap_or_else(|e| e.into_inner());
            open.iter().find(|(_, set)| Path::new(file).starts_with(&set.pinned)).map(|(d, _)| d.clone())?
        };
        let spare = FALLBACK.with(|f| f.borrow().as_ref().is_some_and(|s| s.spare.contains(&dir)));
        let entries = self.entries();
        spare.then(|| entries.iter().find(|(_, _, d)| *d == dir).cloned()).flatten()
    }

    /// The set `system@version` of the entries, opened once and kept: the first of its copies (one per directory
    /// holding it, in the order given) that opens; a copy that does not is left out ([`Library::unopened_copies`]
    /// names it), and so is a copy that a [`Library::fallback`] running on this thread found damaged.
    ///
    /// # Errors
    /// When no copy opens, the first copy's error (which names its directory).
    fn open_entry(&self, system: &str, version: &str) -> Result<Arc<BundleSet>, LookupError> {
        let mut first_error = None;
        let left_out = FALLBACK.with(|f| f.borrow().as_ref().map(|s| s.left_out.clone()).unwrap_or_default());
        for dir in self.copies(system, version).into_iter().filter(|d| !left_out.contains(d)) {
            match self.open_dir(&dir) {
                Ok(set) => return Ok(set),
                Err(e) => {
                    first_error.get_or_insert(e);
                }
            }
        }
        Err(first_error.unwrap_or_else(|| no_bundles(&self.dirs, false)))
    }

    /// The directories holding `system@version`, in the order given.
    fn copies(&self, system: &str, version: &str) -> Vec<PathBuf> {
        self.entries().iter().filter(|(s, v, _)| s == system && v == version).map(|(_, _, d)| d.clone()).collect()
    }

    /// The copies of `system@version` that do not open while another copy does (and is served): empty when the
    /// version has one copy, or when none opens (the lookup's error says why then).
    pub fn unopened_copies(&self, system: &str, version: &str) -> Vec<DamagedSet> {
        let copies = self.copies(system, version);
        if copies.len() < 2 {
            return Vec::new();
        }
        let results: Vec<(PathBuf, Result<Arc<BundleSet>, LookupError>)> =
            copies.into_iter().map(|d| (d.clone(), self.open_dir(&d))).collect();
        if !results.iter().any(|(_, r)| r.is_ok()) {
            return Vec::new();
        }
        results
            .into_iter()
            .filter_map(|(dir, r)| r.err().map(|e| (dir, e)))
            .map(|(dir, e)| DamagedSet {
                system: system.to_string(),
                version: version.to_string(),
                dir,
                error: e.to_string(),
                fallback: Some(version.to_string()),
            })
            .collect()
    }

    /// The set in `dir`, opened once and kept.
    fn open_dir(&self, dir: &Path) -> Result<Arc<BundleSet>, LookupError> {
        let dir = dir.to_path_buf();
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        // A set stays open while its directory resolves to the same generation; after a rebuild published a new
        // one, the next request opens it (answers in flight keep their `Arc` of the old one).
        if let Some(set) = open.get(&dir).filter(|s| dir.canonicalize().is_ok_and(|now| now == s.pinned)) {
            return Ok(set.clone());
        }
        let set = Arc::new(BundleSet::open(&dir)?);
        open.insert(dir, set.clone());
        Ok(set)
    }

    /// The damaged sets a default lookup skips: per system (or only `system`), every set newer than the newest one
    /// that opens, with the version served instead. Opens (and keeps) the manifests it reads; `serve` logs these at
    /// start and the CLI prints them when it falls back.
    pub fn damaged_defaults(&self, system: Option<&str>) -> Vec<DamagedSet> {
        let mut out = Vec::new();
        for (name, versions) in self.systems() {
            if system.is_some_and(|s| !s.eq_ignore_ascii_case(&name)) {
                continue;
            }
            let mut skipped = Vec::new();
            let mut fallback = None;
            for v in versions.iter().rev() {
                match self.open_entry(&name, v) {
                    Ok(_) => {
                        fallback = Some(v.clone());
                        break;
                    }
                    Err(e) => skipped.push((v.clone(), e.to_string())),
                }
            }
            for (version, error) in skipped {
                let dir = self.dir_of(&name, &version);
                out.push(DamagedSet { system: name.clone(), version, dir, error, fallback: fallback.clone() });
            }
            // The served version's copies that do not open (another copy of it is served).
            if let Some(v) = &fallback {
                out.extend(self.unopened_copies(&name, v));
            }
        }
        out
    }

    /// Every set that does not open (its manifest is missing or damaged), for `verify`: with those listed, the
    /// `<system>@<version>` directories of the scanned directories that lack a `manifest.bundle`
    /// ([`incomplete_sets`]), which lookups never list.
    pub fn damaged_all(&self) -> Vec<DamagedSet> {
        let mut out = Vec::new();
        for dir in &self.dirs {
            for (path, error) in incomplete_sets(dir) {
                let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
                let (system, version) = name.split_once('@').unwrap_or((name.as_str(), ""));
                let (system, version) = (system.to_string(), version.to_string());
                out.push(DamagedSet { system, version, dir: path, error, fallback: None });
            }
        }
        let entries = self.entries().clone();
        for (system, version, dir) in &entries {
            if let Err(e) = self.open_dir(dir) {
                let fallback = None;
                let (system, version, dir) = (system.clone(), version.clone(), dir.clone());
                out.push(DamagedSet { system, version, dir, error: e.to_string(), fallback });
            }
        }
        out
    }

    fn dir_of(&self, system: &str, version: &str) -> PathBuf {
        self.entries()
            .iter()
            .find(|(s, v, _)| s == system && v == version)
            .map(|(_, _, d)| d.clone())
            .unwrap_or_default()
    }
}

/// A bundle set that does not open (see [`Library::damaged_defaults`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DamagedSet {
    /// System name (from the directory name).
    pub system: String,
    /// Version (from the directory name).
    pub version: String,
    /// The set's directory.
    pub dir: PathBuf,
    /// Why it does not open.
    pub error: String,
    /// The version a default lookup serves instead (the same version when another copy of it, in another
    /// directory, is served); `None` when no set of the system opens (or for `verify`).
    pub fallback: Option<String>,
}

impl std::fmt::Display for DamagedSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // A set of another bundle format is not damaged: its error already says what to do (trial 4).
        let other_format = self.error.contains(crate::bundle::format::UNSUPPORTED_FORMAT);
        let state = if other_format { "cannot be read" } else { "is damaged" };
        write!(f, "bundle set {} {} in {} {state}: {}", self.system, self.version, self.dir.display(), self.error)?;
        match &self.fallback {
            Some(v) if *v == self.version => {
                write!(f, "; another copy of {v} is served (rebuild or remove this one)")
            }
            Some(v) => write!(f, "; serving {v} by default (rebuild it, or pass --version {v})"),
            None if other_format => Ok(()),
            None => write!(f, "; rebuild it"),
        }
    }
}
