//! The caches of a [`BundleSet`]: decoded texts, their cut points and token maps.

use std::sync::Arc;

use crate::budget::Cuts;
use crate::bundle::{Bundle, BundleError};
use crate::model::*;

use super::error::LookupError;
use super::set::BundleSet;

/// What the per-set caches (texts, cut points, token maps) key a text by: its bundle's path and its frame key.
pub(super) fn text_id(bundle: &Bundle, key: &str) -> String {
    format!("{}\0{key}", bundle.path())
}

/// Decoded text frames, oldest first, at most [`TEXT_CACHE_BYTES`] of text in all.
#[derive(Default)]
pub(super) struct TextCache {
    entries: std::collections::VecDeque<(String, Arc<String>)>,
    bytes: usize,
}

/// Texts whose cut points are kept (~24 bytes a line: 32 of Semi's largest documents would be ~4.6 MB).
const CUTS_CACHE_ENTRIES: usize = 32;

/// Bound of [`TextCache`], in bytes of text: about 20 of Semi's largest documents.
const TEXT_CACHE_BYTES: usize = 4 << 20;

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
        let lock = || self.texts.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, text)) = lock().entries.iter().find(|(k, _)| *k == id) {
            return Ok(text.clone());
        }
        let text: Arc<String> = Arc::new(load()?);
        let mut cache = lock();
        cache.bytes += text.len();
        cache.entries.push_back((id, text.clone()));
        while cache.bytes > TEXT_CACHE_BYTES && cache.entries.len() > 1 {
            if let Some((_, old)) = cache.entries.pop_front() {
                cache.bytes -= old.len();
            }
        }
        Ok(text)
    }

    /// The segments of `text` (stored, or rebuilt under `text_key`) with their stored token counts. The `tokens`
    /// frame of a bundle is decoded once and kept.
    pub(crate) fn cuts(&self, bundle: &Bundle, text_key: &str, text: &str) -> Result<Arc<Cuts>, LookupError> {
        // Cut points cost a scan of the whole text (0.5 ms for Semi's Table): kept for the texts used last, as the
        // texts themselves are.
        let id = text_id(bundle, text_key);
        let lock = || self.cuts.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, cuts)) = lock().iter().find(|(k, _)| *k == id) {
            return Ok(cuts.clone());
        }
        let cuts = Arc::new(self.compute_cuts(bundle, text_key, text)?);
        let mut cache = lock();
        cache.push_back((id, cuts.clone()));
        if cache.len() > CUTS_CACHE_ENTRIES {
            cache.pop_front();
        }
        Ok(cuts)
    }

    fn compute_cuts(&self, bundle: &Bundle, text_key: &str, text: &str) -> Result<Cuts, LookupError> {
        let map = self.token_map(bundle, text_key)?;
        let corrupt = |what: String| BundleError::Corrupt { path: bundle.path().to_string(), what };
        Cuts::new(text, &map).ok_or_else(|| corrupt(format!("token map of `{text_key}` does not fit its text")).into())
    }

    /// The stored token map of the text under `text_key`.
    pub(super) fn token_map(&self, bundle: &Bundle, text_key: &str) -> Result<Arc<TokenMap>, LookupError> {
        let id = text_id(bundle, text_key);
        let last = || self.last_map.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, map)) = last().as_ref().filter(|(k, _)| *k == id) {
            return Ok(map.clone());
        }
        let map = Arc::new(self.read_token_map(bundle, text_key)?);
        *last() = Some((id, map.clone()));
        Ok(map)
    }

    fn read_token_map(&self, bundle: &Bundle, text_key: &str) -> Result<TokenMap, LookupError> {
        let corrupt = |what: String| BundleError::Corrupt { path: bundle.path().to_string(), what };
        // A long text's map has a frame of its own (format 9); the others are in the `tokens` frame.
        let own = keys::tokens(text_key);
        if bundle.has(&own) {
            return Ok(bundle.get(&own)?);
        }
        let cached = self.maps.lock().unwrap_or_else(|e| e.into_inner()).get(bundle.path()).cloned();
        let maps = match cached {
            Some(m) => m,
            None => {
                let m = Arc::new(bundle.get_keyed(keys::TOKENS)?);
                self.maps.lock().unwrap_or_else(|e| e.into_inner()).insert(bundle.path().to_string(), m.clone());
                m
            }
        };
        Ok(maps.get(text_key).ok_or_else(|| corrupt(format!("no token map for `{text_key}`")))??)
    }
}
