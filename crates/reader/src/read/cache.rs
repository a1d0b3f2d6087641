//! The caches of a [`BundleSet`] ([`SetCache`]): decoded component entries, metadata, texts, their cut points and
//! token maps, all kept in one generic cache ([`Cache`]), bounded for the texts and what is computed from them.

use std::collections::{HashMap, VecDeque};
use std::hash::Hash;
use std::sync::{Arc, Mutex};

use crate::budget::Cuts;
use crate::bundle::reader::KeyedFrame;
use crate::bundle::{Bundle, BundleError};
use crate::model::*;

use super::error::LookupError;
use super::set::BundleSet;

/// What the per-set caches (texts, cut points, token maps) key a text by: its bundle's path and its frame key.
pub(super) fn text_id(bundle: &Bundle, key: &str) -> String {
    format!("{}\0{key}", bundle.path())
}

/// Texts whose cut points are kept (~24 bytes a line: 32 of Semi's largest documents would be ~4.6 MB).
const CUTS_CACHE_ENTRIES: usize = 32;

/// Bound of [`SetCache::texts`], in bytes of text: about 20 of Semi's largest documents.
const TEXT_CACHE_BYTES: usize = 4 << 20;

/// A map shared by the threads answering from one set, kept whole or bounded: with a bound, the values' weights
/// (`weight` of each) add up to at most `cap`, the oldest insertions dropped first (a hit does not make an entry
/// younger) but never the one just inserted, so a value heavier than the bound is still served once. A poisoned
/// lock is taken over: a panic in another lookup leaves the entries as whole as before it.
pub(super) struct Cache<K, V> {
    state: Mutex<CacheState<K, V>>,
    /// `None`: every entry is kept as long as the set.
    bound: Option<Bound<V>>,
}

/// The bound of a [`Cache`]: at most `cap` of weight, each value weighing `weight(value)`.
struct Bound<V> {
    cap: usize,
    weight: fn(&V) -> usize,
}

/// The entries of a [`Cache`]; their insertion order and total weight are kept only when it is bounded.
struct CacheState<K, V> {
    map: HashMap<K, V>,
    order: VecDeque<K>,
    weight: usize,
}

impl<K: Eq + Hash + Clone, V: Clone> Cache<K, V> {
    /// A cache that keeps every entry.
    pub(super) fn kept() -> Cache<K, V> {
        Cache { state: Mutex::new(CacheState { map: HashMap::new(), order: VecDeque::new(), weight: 0 }), bound: None }
    }

    /// A cache of at most `cap` in weight, each value weighing `weight(value)`.
    pub(super) fn bounded(cap: usize, weight: fn(&V) -> usize) -> Cache<K, V> {
        Cache { bound: Some(Bound { cap, weight }), ..Cache::kept() }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, CacheState<K, V>> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The value under `key`, if kept.
    pub(super) fn get<Q: Eq + Hash + ?Sized>(&self, key: &Q) -> Option<V>
    where
        K: std::borrow::Borrow<Q>,
    {
        self.lock().map.get(key).cloned()
    }

    /// Whether a value is kept under `key`.
    pub(super) fn contains<Q: Eq + Hash + ?Sized>(&self, key: &Q) -> bool
    where
        K: std::borrow::Borrow<Q>,
    {
        self.lock().map.contains_key(key)
    }

    /// The first `found(value)` that is `Some`, over the values in no particular order.
    pub(super) fn find<R>(&self, found: impl FnMut(&V) -> Option<R>) -> Option<R> {
        self.lock().map.values().find_map(found)
    }

    /// Keeps `value` under `key` (replacing the value there, which then counts as inserted now), dropping the
    /// oldest entries past the bound.
    pub(super) fn insert(&self, key: K, value: V) {
        let mut state = self.lock();
        let Some(Bound { cap, weight }) = &self.bound else {
            state.map.insert(key, value);
            return;
        };
        state.weight += weight(&value);
        if let Some(old) = state.map.insert(key.clone(), value) {
            state.weight -= weight(&old);
            state.order.retain(|k| *k != key);
        }
        state.order.push_back(key);
        while state.weight > *cap && state.order.len() > 1 {
            let Some(oldest) = state.order.pop_front() else { break };
            if let Some(old) = state.map.remove(&oldest) {
                state.weight -= weight(&old);
            }
        }
    }

    /// The value under `key`, else `load`ed and kept. Two threads missing at once both load; the second's value
    /// replaces the first's (they are the same frame).
    pub(super) fn get_or_load<E>(&self, key: K, load: impl FnOnce() -> Result<V, E>) -> Result<V, E> {
        if let Some(found) = self.get(&key) {
            return Ok(found);
        }
        let value = load()?;
        self.insert(key, value.clone());
        Ok(value)
    }
}

/// Everything a [`BundleSet`] decodes once and keeps (open bundles, the whole manifest and `kept` values stay on the
/// set: they are its state, not copies of frames).
pub(super) struct SetCache {
    /// Component entries and their bundles' records by component key, decoded from `entry/<key>` frames (one per
    /// component looked up): a lookup by name never decodes the whole manifest.
    pub(super) entries: Cache<String, (Arc<ComponentEntry>, BundleFile)>,
    /// Decoded `component` frames joined with their documents' lists: small, and read by nearly every lookup of a
    /// long-running server.
    pub(super) metas: Cache<String, Arc<ComponentMeta>>,
    /// `component` frames as stored (their documents' lists empty, format 10), read by a lookup of one document.
    pub(super) heads: Cache<String, Arc<ComponentMeta>>,
    /// `doc-lists/<lang>` frames by component key and language.
    pub(super) doc_lists: Cache<(String, String), Arc<DocLists>>,
    /// Recently decoded documents and files (code blocks and functions are slices of them), so that a server asked
    /// for several blocks of one document decodes it once: at most [`TEXT_CACHE_BYTES`] of text.
    pub(super) texts: Cache<String, Arc<String>>,
    /// The decoded `changelog` frame (pages and releases of every language), read by every changelog lookup.
    pub(super) changelog: Cache<(), Arc<ChangelogMeta>>,
    /// Cut points of recently served texts (at most [`CUTS_CACHE_ENTRIES`]).
    pub(super) cuts: Cache<String, Arc<Cuts>>,
    /// `tokens` frames by bundle path, decompressed and indexed by text key (each text's map is decoded when its
    /// cut points are computed): every lookup that serves a text without a map of its own reads one.
    pub(super) maps: Cache<String, Arc<KeyedFrame>>,
    /// The token map decoded last (by bundle path and text key): a lookup reads one text's map up to three times
    /// (its total, [`BundleSet::whole_part`], its cut points).
    pub(super) last_map: Cache<String, Arc<TokenMap>>,
}

impl SetCache {
    /// Empty caches with the bounds above.
    pub(super) fn new() -> SetCache {
        SetCache {
            entries: Cache::kept(),
            metas: Cache::kept(),
            heads: Cache::kept(),
            doc_lists: Cache::kept(),
            texts: Cache::bounded(TEXT_CACHE_BYTES, |text| text.len()),
            changelog: Cache::kept(),
            cuts: Cache::bounded(CUTS_CACHE_ENTRIES, |_| 1),
            maps: Cache::kept(),
            last_map: Cache::bounded(1, |_| 1),
        }
    }
}

impl BundleSet {
    /// The text frame `key` of `bundle`, from the cache or decoded (and cached).
    pub(crate) fn text(&self, bundle: &Bundle, key: &str) -> Result<Arc<String>, LookupError> {
        self.cached(text_id(bundle, key), || bundle.get_text(key))
    }

    /// The lead of text frame `key` of `bundle` (a document's placeholder view, format 9: [`Bundle::get_lead`]),
    /// from the cache or decoded alone (and cached); `None` when the frame has no lead.
    pub(super) fn lead(&self, bundle: &Bundle, key: &str) -> Result<Option<Arc<String>>, LookupError> {
        if bundle.frame_lead(key).is_none() {
            return Ok(None);
        }
        let lead = || {
            bundle
                .get_lead(key)?
                .ok_or_else(|| BundleError::MissingFrame { path: bundle.path().into(), key: key.into() })
        };
        self.cached(format!("{}\0lead", text_id(bundle, key)), lead).map(Some)
    }

    /// The text cached under `id`, else `load`ed and cached.
    fn cached(
        &self,
        id: String,
        load: impl FnOnce() -> Result<String, BundleError>,
    ) -> Result<Arc<String>, LookupError> {
        Ok(self.cache.texts.get_or_load(id, || load().map(Arc::new))?)
    }

    /// The segments of `text` (stored, or rebuilt under `text_key`) with their stored token counts. The `tokens`
    /// frame of a bundle is decoded once and kept.
    pub(crate) fn cuts(&self, bundle: &Bundle, text_key: &str, text: &str) -> Result<Arc<Cuts>, LookupError> {
        // Cut points cost a scan of the whole text (0.5 ms for Semi's Table): kept for the texts used last, as the
        // texts themselves are.
        let id = text_id(bundle, text_key);
        self.cache.cuts.get_or_load(id, || self.compute_cuts(bundle, text_key, text).map(Arc::new))
    }

    fn compute_cuts(&self, bundle: &Bundle, text_key: &str, text: &str) -> Result<Cuts, LookupError> {
        let map = self.token_map(bundle, text_key)?;
        let corrupt = |what: String| BundleError::Corrupt { path: bundle.path().to_string(), what };
        Cuts::new(text, &map).ok_or_else(|| corrupt(format!("token map of `{text_key}` does not fit its text")).into())
    }

    /// The stored token map of the text under `text_key`.
    pub(super) fn token_map(&self, bundle: &Bundle, text_key: &str) -> Result<Arc<TokenMap>, LookupError> {
        let id = text_id(bundle, text_key);
        self.cache.last_map.get_or_load(id, || self.read_token_map(bundle, text_key).map(Arc::new))
    }

    fn read_token_map(&self, bundle: &Bundle, text_key: &str) -> Result<TokenMap, LookupError> {
        let corrupt = |what: String| BundleError::Corrupt { path: bundle.path().to_string(), what };
        // A long text's map has a frame of its own (format 9); the others are in the `tokens` frame.
        let own = keys::tokens(text_key);
        if bundle.has(&own) {
            return Ok(bundle.get(&own)?);
        }
        let maps = (self.cache.maps)
            .get_or_load(bundle.path().to_string(), || bundle.get_keyed(keys::TOKENS).map(Arc::new))?;
        Ok(maps.get(text_key).ok_or_else(|| corrupt(format!("no token map for `{text_key}`")))??)
    }
}

#[cfg(test)]
mod tests {
    use super::Cache;

    #[test]
    fn a_bounded_cache_drops_the_oldest_past_its_weight_but_never_the_newest() {
        let cache: Cache<&str, String> = Cache::bounded(10, String::len);
        cache.insert("a", "1234".into());
        cache.insert("b", "1234".into());
        assert!(cache.get("a").is_some() && cache.get("b").is_some());
        // A hit does not make `a` younger: it goes first.
        cache.insert("c", "1234".into());
        assert!(cache.get("a").is_none() && cache.get("b").is_some() && cache.get("c").is_some());
        // A value over the bound alone is kept until the next insert.
        cache.insert("big", "x".repeat(20));
        assert!(cache.get("b").is_none() && cache.get("c").is_none() && cache.contains("big"));
        cache.insert("d", "1".into());
        assert!(!cache.contains("big") && cache.contains("d"));
    }

    #[test]
    fn a_bounded_cache_of_one_keeps_the_last_value_and_a_replaced_key_counts_once() {
        let last: Cache<String, u32> = Cache::bounded(1, |_| 1);
        last.insert("x".into(), 1);
        last.insert("y".into(), 2);
        assert_eq!((last.get("x"), last.get("y")), (None, Some(2)));
        let cuts: Cache<u32, u32> = Cache::bounded(2, |_| 1);
        cuts.insert(1, 1);
        cuts.insert(1, 2);
        cuts.insert(2, 2);
        assert_eq!((cuts.get(&1), cuts.get(&2)), (Some(2), Some(2)));
    }

    #[test]
    fn a_kept_cache_keeps_everything() {
        let kept: Cache<u32, u32> = Cache::kept();
        (0..1000).for_each(|i| kept.insert(i, i));
        assert_eq!(kept.get(&0), Some(0));
        assert_eq!(kept.find(|v| (*v == 999).then_some("found")), Some("found"));
        let loaded: Result<u32, ()> = kept.get_or_load(5000, || Ok(7));
        assert_eq!((loaded, kept.get(&5000)), (Ok(7), Some(7)));
    }
}
