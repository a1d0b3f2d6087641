//! The reader's handle on a set's `search.bundle`: [`SearchIndex`] decodes the `meta` frame on open and the term
//! shards, unit chunks, dictionary and changelog metadata as queries first need them, and keeps them (a long-running
//! server decodes each frame once).

use std::collections::HashSet;
use std::sync::{Arc, OnceLock};

use super::{Kind, LoadedShard, SearchMeta, TermShard, UnitChunk, UnitInfo, keys, shard_of};
use crate::bundle::{Bundle, BundleError};
use crate::model::ChangelogMeta;
use crate::read::{BundleSet, LookupError};

/// The decoded parts of a set's `search.bundle`, loaded as queries need them and kept.
pub struct SearchIndex {
    pub(super) bundle: Arc<Bundle>,
    pub(super) meta: SearchMeta,
    pub(super) shards: Vec<OnceLock<Arc<LoadedShard>>>,
    pub(super) chunks: Vec<OnceLock<Arc<UnitChunk>>>,
    pub(super) changelog: OnceLock<Arc<ChangelogMeta>>,
    pub(super) dictionary: OnceLock<Option<Arc<fst::Set<Vec<u8>>>>>,
    /// The component keys of the sources (for the boost of a component the query names).
    pub(super) components: OnceLock<HashSet<String>>,
}

impl SearchIndex {
    /// Opens `search.bundle` and decodes its `meta` frame.
    ///
    /// # Errors
    /// A damaged bundle.
    pub fn open(bundle: Arc<Bundle>) -> Result<SearchIndex, LookupError> {
        let meta: SearchMeta = bundle.get(keys::META)?;
        let n = meta.units as usize;
        if meta.unit_kind.0.len() != n || meta.unit_source.len() != n || meta.unit_len.len() != n {
            return Err(corrupt(&bundle, "unit columns"));
        }
        if meta.unit_source.iter().any(|&s| s as usize >= meta.sources.len())
            || meta.unit_kind.0.iter().any(|&k| Kind::from_code(k).is_none())
            || meta.chunk == 0
        {
            return Err(corrupt(&bundle, "unit columns"));
        }
        let shards = (0..meta.shards).map(|_| OnceLock::new()).collect();
        let chunks = (0..meta.units.div_ceil(meta.chunk)).map(|_| OnceLock::new()).collect();
        Ok(SearchIndex {
            bundle,
            meta,
            shards,
            chunks,
            changelog: OnceLock::new(),
            dictionary: OnceLock::new(),
            components: OnceLock::new(),
        })
    }

    /// The `meta` frame.
    pub fn meta(&self) -> &SearchMeta {
        &self.meta
    }

    /// Decodes every term shard and unit chunk now (a server may call it at start so that no query pays for a
    /// decode); returns the frames decoded.
    ///
    /// # Errors
    /// A damaged bundle.
    pub fn load_all(&self) -> Result<usize, LookupError> {
        for n in 0..self.meta.shards {
            self.shard(n)?;
        }
        for n in 0..self.chunks.len() as u32 {
            self.unit(n * self.meta.chunk)?;
        }
        Ok(self.shards.len() + self.chunks.len())
    }

    pub(super) fn shard(&self, n: u32) -> Result<Arc<LoadedShard>, LookupError> {
        let cell = &self.shards[n as usize];
        if let Some(s) = cell.get() {
            return Ok(s.clone());
        }
        let raw: TermShard = self.bundle.get(&keys::shard(n))?;
        let loaded = Arc::new(LoadedShard::new(raw).ok_or_else(|| corrupt(&self.bundle, "term shard"))?);
        Ok(cell.get_or_init(|| loaded).clone())
    }

    pub(super) fn unit(&self, id: u32) -> Result<UnitInfo, LookupError> {
        let n = id / self.meta.chunk;
        let cell = self.chunks.get(n as usize).ok_or_else(|| corrupt(&self.bundle, "unit id"))?;
        let chunk = match cell.get() {
            Some(c) => c.clone(),
            None => {
                let c: UnitChunk = self.bundle.get(&keys::units(n))?;
                cell.get_or_init(|| Arc::new(c)).clone()
            }
        };
        let info = chunk
            .units
            .get((id % self.meta.chunk) as usize)
            .filter(|u| u.source == self.meta.unit_source[id as usize] && u.start_line <= u.end_line)
            .ok_or_else(|| corrupt(&self.bundle, "unit chunk"))?;
        Ok(info.clone())
    }

    /// The component keys of the index's sources (computed once).
    pub(super) fn component_keys(&self) -> &HashSet<String> {
        self.components
            .get_or_init(|| self.meta.sources.iter().map(|s| s.component.clone()).filter(|c| !c.is_empty()).collect())
    }

    /// The term dictionary (`None` in a bundle written before it existed).
    pub(super) fn dictionary(&self) -> Result<Option<Arc<fst::Set<Vec<u8>>>>, LookupError> {
        if let Some(d) = self.dictionary.get() {
            return Ok(d.clone());
        }
        let loaded = match self.bundle.get::<super::Bytes>(keys::DICTIONARY) {
            // Checked whole before use ([`super::dictionary::load`]): a damaged one is an error, never a panic.
            Ok(raw) => Some(Arc::new(super::dictionary::load(raw.0).map_err(|why| corrupt(&self.bundle, &why))?)),
            Err(BundleError::MissingFrame { .. }) => None,
            Err(e) => return Err(e.into()),
        };
        Ok(self.dictionary.get_or_init(|| loaded).clone())
    }

    /// Checks what the bundle's checksums cannot: the term dictionary is a sound fst ([`super::dictionary`]).
    /// `verify` (so `install`) runs it.
    ///
    /// # Errors
    /// A damaged dictionary, naming the search index and what is wrong.
    pub fn check(&self) -> Result<(), LookupError> {
        self.dictionary().map(|_| ())
    }

    /// The postings of `term`: `(df, shard, index in shard)`, or `None` when no unit has it.
    pub(super) fn lookup(&self, term: &str) -> Result<Option<(Arc<LoadedShard>, usize)>, LookupError> {
        let shard = self.shard(shard_of(term, self.meta.shards))?;
        Ok(shard.find(term).map(|i| (shard, i)))
    }

    /// Text of frame `key` of bundle `file` of `set` (through the set's cache of decoded texts).
    pub(super) fn text(&self, set: &BundleSet, file: &str, key: &str) -> Result<Arc<String>, LookupError> {
        set.text(&*set.bundle(file)?, key)
    }

    pub(super) fn changelog_meta(&self, set: &BundleSet) -> Result<Arc<ChangelogMeta>, LookupError> {
        if let Some(c) = self.changelog.get() {
            return Ok(c.clone());
        }
        let entry = set.head().changelog.as_ref().ok_or_else(|| corrupt(&self.bundle, "changelog source"))?;
        let meta: ChangelogMeta = set.bundle(&entry.bundle)?.get(crate::model::keys::CHANGELOG)?;
        Ok(self.changelog.get_or_init(|| Arc::new(meta)).clone())
    }
}

pub(super) fn corrupt(bundle: &Bundle, what: &str) -> LookupError {
    BundleError::Corrupt { path: bundle.path().to_string(), what: format!("search index ({what})") }.into()
}
