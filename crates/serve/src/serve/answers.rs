//! Recent tool answers, kept per bundle set: a repeated call (an agent asking again for the component list, or the
//! same document) is answered from here instead of being looked up, rendered and converted to JSON again. Answers
//! are deterministic for a set (sets are immutable generations), so an entry is valid as long as its set is the
//! one served: entries hold the set they were answered from and match only that same open set; a rebuild makes
//! the library open a new set, whose calls miss, and the old set's entries are dropped when the new set's first
//! answer is stored. Errors are never kept. Bounded by [`ANSWER_CACHE_BYTES`].
//!
//! The same store, holding bytes, keeps the stdio session's answers as written on the wire ([`super::replay`]).

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use rmcp::model::{CallToolResult, JsonObject};

use crate::read::BundleSet;

/// Bound of the kept answers, in bytes of their texts times [`JSON_FACTOR`] (structuredContent repeats the text
/// with its metadata): a few dozen of Semi's largest answers.
pub const ANSWER_CACHE_BYTES: usize = 4 << 20;

/// Estimated bytes in memory of an answer per byte of its text (the text, the JSON value holding it again, rows).
const JSON_FACTOR: usize = 4;

/// The key of a tool call's answer: the tool name, NUL, the arguments as JSON (`null` when absent; an object's
/// keys in serde_json's order, so the same arguments give the same key whatever order the client sent them in).
pub fn answer_key(tool: &str, arguments: Option<&JsonObject>) -> String {
    format!("{tool}\0{}", serde_json::to_string(&arguments).unwrap_or_default())
}

/// The kept answers of type `T` (by default rmcp's results), oldest first, within a bound in bytes.
pub struct Answers<T = CallToolResult> {
    inner: Mutex<Kept<T>>,
    /// The bound, in the bytes each entry is counted for.
    bound: usize,
}

impl<T> Default for Answers<T> {
    /// Bounded by [`ANSWER_CACHE_BYTES`].
    fn default() -> Self {
        Answers::with_bound(ANSWER_CACHE_BYTES)
    }
}

struct Kept<T> {
    entries: VecDeque<Entry<T>>,
    bytes: usize,
}

struct Entry<T> {
    set: Arc<BundleSet>,
    /// As [`answer_key`] makes it.
    key: String,
    value: T,
    bytes: usize,
}

impl<T> Answers<T> {
    /// An empty store holding at most `bound` bytes (as entries are counted by [`Answers::keep`]); an entry over a
    /// quarter of it is not kept.
    pub fn with_bound(bound: usize) -> Self {
        Answers { inner: Mutex::new(Kept { entries: VecDeque::new(), bytes: 0 }), bound }
    }

    /// Whether an answer is kept for `key` from `set` (the very same open set).
    pub fn contains(&self, set: &Arc<BundleSet>, key: &str) -> bool {
        let kept = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        kept.entries.iter().any(|e| e.key == key && Arc::ptr_eq(&e.set, set))
    }

    /// Keeps `value`, counted as `bytes`, for `key` from `set` (unless it alone exceeds a quarter of the bound, or
    /// one is kept already); drops the entries of sets replaced by `set` (same directory, another generation), then
    /// the oldest ones over the bound.
    pub fn keep(&self, set: &Arc<BundleSet>, key: String, value: T, bytes: usize) {
        if bytes > self.bound / 4 {
            return;
        }
        let mut kept = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        let before = kept.entries.len();
        kept.entries.retain(|e| Arc::ptr_eq(&e.set, set) || e.set.dir() != set.dir());
        if kept.entries.len() != before {
            kept.bytes = kept.entries.iter().map(|e| e.bytes).sum();
        }
        if kept.entries.iter().any(|e| e.key == key && Arc::ptr_eq(&e.set, set)) {
            return;
        }
        kept.bytes += bytes;
        kept.entries.push_back(Entry { set: set.clone(), key, value, bytes });
        while kept.bytes > self.bound {
            match kept.entries.pop_front() {
                Some(old) => kept.bytes -= old.bytes,
                None => break,
            }
        }
    }

    /// Number of answers kept (for tests).
    pub fn len(&self) -> usize {
        self.inner.lock().unwrap_or_else(|e| e.into_inner()).entries.len()
    }

    /// Whether none is kept.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl<T: Clone> Answers<T> {
    /// The answer kept for `key` from `set` (the very same open set).
    pub fn get(&self, set: &Arc<BundleSet>, key: &str) -> Option<T> {
        let kept = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        kept.entries.iter().find(|e| e.key == key && Arc::ptr_eq(&e.set, set)).map(|e| e.value.clone())
    }
}

impl Answers<CallToolResult> {
    /// Keeps `result` (unless it is an error) for `key` from `set`, counted as its texts' bytes times
    /// [`JSON_FACTOR`]; as [`Answers::keep`].
    pub fn put(&self, set: &Arc<BundleSet>, key: String, result: &CallToolResult) {
        if result.is_error == Some(true) {
            return;
        }
        let text: usize =
            result.content.iter().map(|c| c.as_text().map_or(0, |t| t.text.len())).sum::<usize>() + key.len();
        let bytes = text * JSON_FACTOR;
        if bytes <= self.bound / 4 {
            self.keep(set, key, result.clone(), bytes);
        }
    }
}
