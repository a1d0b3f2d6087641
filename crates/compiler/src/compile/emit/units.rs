//! Cache keys of a build's units (a component, its files, the changelog): what each unit's compiled value depends
//! on, hashed, so the incremental build cache reuses a unit exactly when its inputs are unchanged.

use std::collections::BTreeMap;
use std::path::Path;

use rayon::prelude::*;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::CompiledFile;
use crate::compile::cache::{self, Cache, Dependency};
use crate::compile::diagnostic::Diagnostic;
use crate::compile::layout::ComponentPlan;
use crate::compile::source::SourceLang;
use crate::compile::walk::WalkedFile;
use crate::config::Config;

/// What a component's files entry in the incremental build cache (`files/<component>`) holds for each file the
/// component compiled itself: [`super::file::compile_file`]'s result (props `extends` not yet followed) and
/// report, under the file's key. When the component is recompiled (one of its documents changed), a file whose key
/// is unchanged is taken from here instead of parsed and counted again; the result is the same bytes.
#[derive(Clone, Serialize, Deserialize)]
pub(super) struct FileRecord {
    pub(super) key: u64,
    pub(super) compiled: Option<CompiledFile>,
    pub(super) diagnostics: Vec<Diagnostic>,
}

/// A component's [`FileRecord`]s, by path.
pub(super) type FileRecords = BTreeMap<String, FileRecord>;

/// The cache entry of component `key`'s [`FileRecords`].
pub(super) fn files_entry(key: &str) -> String {
    format!("files/{key}")
}

/// The pseudo-path of a dependency on the list of walked sources (which `extends` can lead to).
pub(super) const SOURCES_DEP: &str = "\0walked sources";

/// Cache keys of one build: every input file's content hash, and the key every unit's key includes.
pub(super) struct Keys {
    pub(super) global: u64,
    hashes: BTreeMap<String, Option<u64>>,
    /// Hash of the walked source paths (see [`SOURCES_DEP`]).
    pub(super) sources: u64,
    /// Hash of the story files' paths and sizes: any component with a document may take a new one.
    stories: u64,
}

impl Keys {
    pub(super) fn new(
        config: &Config,
        walked: &[WalkedFile],
        stories: &[WalkedFile],
        inputs: Vec<&WalkedFile>,
        cache: &Cache,
    ) -> Keys {
        let hashes = inputs
            .par_iter()
            .map(|f| {
                let read = || cache::hash_file(&f.abs);
                (f.rel.clone(), cache.hash_of(&f.rel).unwrap_or_else(read))
            })
            .collect();
        let mut h = xxhash_rust::xxh3::Xxh3::new();
        for f in walked.iter().filter(|f| SourceLang::from_path(Path::new(&f.rel)).is_some()) {
            h.update(f.rel.as_bytes());
            h.update(&[0]);
        }
        let sources = h.digest();
        let mut h = xxhash_rust::xxh3::Xxh3::new();
        for f in stories {
            h.update(f.rel.as_bytes());
            h.update(&[0]);
            h.update(&f.bytes.to_le_bytes());
        }
        Keys { global: cache::global_key(&config.to_toml()), hashes, sources, stories: h.digest() }
    }

    fn file(&self, h: &mut xxhash_rust::xxh3::Xxh3, f: &WalkedFile) {
        h.update(f.rel.as_bytes());
        h.update(&[0]);
        h.update(&f.bytes.to_le_bytes());
        match self.hashes.get(&f.rel).copied().flatten() {
            Some(x) => h.update(&x.to_le_bytes()),
            None => h.update(b"unreadable"),
        }
    }

    /// The key of file `f` compiled for `owner` (what [`super::file::compile_file`] reads: the configuration, the
    /// file's path, size and content, its owner).
    pub(super) fn compiled_file(&self, f: &WalkedFile, owner: &str) -> u64 {
        let mut h = xxhash_rust::xxh3::Xxh3::new();
        h.update(&self.global.to_le_bytes());
        h.update(b"file");
        self.file(&mut h, f);
        h.update(owner.as_bytes());
        h.digest()
    }

    /// The key of component `key`: its plan (name, documents, own changelogs, files and each file's owner),
    /// every one of those files' contents, and the list of story files (its stories join its document, or make
    /// one when it has none): a story file read is a dependency of the unit, a story file added is a new key.
    pub(super) fn component(
        &self,
        key: &str,
        plan: &ComponentPlan,
        owners: &BTreeMap<&str, (&WalkedFile, &str)>,
    ) -> u64 {
        let mut h = xxhash_rust::xxh3::Xxh3::new();
        h.update(&self.global.to_le_bytes());
        for part in [key, &plan.name, if plan.guide { "guide" } else { "component" }] {
            h.update(part.as_bytes());
            h.update(&[0]);
        }
        for (lang, f) in &plan.docs {
            h.update(lang.as_bytes());
            h.update(&[0]);
            self.file(&mut h, f);
        }
        h.update(&self.stories.to_le_bytes());
        // Which of its files are its own changelogs (their contents are hashed with the files).
        h.update(b"changelogs");
        for (lang, f) in &plan.changelogs {
            for part in [lang, &f.rel] {
                h.update(part.as_bytes());
                h.update(&[0]);
            }
        }
        h.update(b"files");
        for f in &plan.files {
            self.file(&mut h, f);
            h.update(owners.get(f.rel.as_str()).map_or("", |o| o.1).as_bytes());
            h.update(&[0]);
        }
        h.digest()
    }

    pub(super) fn changelog(&self, changelogs: &[(String, WalkedFile)]) -> u64 {
        let mut h = xxhash_rust::xxh3::Xxh3::new();
        h.update(&self.global.to_le_bytes());
        for (lang, f) in changelogs {
            h.update(lang.as_bytes());
            h.update(&[0]);
            self.file(&mut h, f);
        }
        h.digest()
    }

    /// The current hash of a dependency recorded by a cache entry.
    pub(super) fn dependency(&self, repo: &Path, rel: &str) -> Option<u64> {
        if rel == SOURCES_DEP { Some(self.sources) } else { cache::file_hash(repo, rel) }
    }
}

/// One unit of the incremental build cache (a component, the changelog, the list counts): its entry's name and
/// key, or nothing when the build has no cache. A unit compiles the same way with or without one: what
/// [`Unit::get`] gives back is used, else the unit is compiled and [`Unit::put`] stores it.
pub(super) struct Unit<'c> {
    entry: Option<(&'c Cache, u64)>,
    name: String,
}

impl<'c> Unit<'c> {
    /// Unit `name` of `cache` under `key` (inert without either: gets nothing, stores nothing).
    pub(super) fn new(cache: Option<&'c Cache>, name: impl Into<String>, key: Option<u64>) -> Unit<'c> {
        Unit { entry: cache.zip(key), name: name.into() }
    }

    /// Whether the unit has a cache entry to read and write.
    pub(super) fn is_cached(&self) -> bool {
        self.entry.is_some()
    }

    /// The value stored for the unit when its key and every dependency it recorded are unchanged (`current`
    /// gives a dependency's hash now; see [`Cache::get`]); `None`: compile it.
    pub(super) fn get<T: DeserializeOwned>(&self, current: impl Fn(&str) -> Option<u64>) -> Option<T> {
        let (cache, key) = self.entry?;
        cache.get(&self.name, key, current)
    }

    /// Stores `value`, compiled for the unit, with the files it read beyond its key's (`deps`); the cache it was
    /// stored in, if any (for what the caller sets aside beside it).
    pub(super) fn put<T: Serialize>(&self, deps: Vec<Dependency>, value: &T) -> Option<&'c Cache> {
        let (cache, key) = self.entry?;
        cache.put(&self.name, key, deps, value);
        Some(cache)
    }
}
