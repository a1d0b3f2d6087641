//! Recent tool answers, kept per bundle set: a repeated call (an agent asking again for the component list, or the
//! same document) is answered from here instead of being looked up, rendered and converted to JSON again. Answers
//! are deterministic for a set (sets are immutable generations), so an entry is valid as long as its set is the
//! one served: entries hold the set they were answered from and match only that same open set; a rebuild makes
//! the library open a new set, whose calls miss, and the old set's entries are dropped when the new set's first
//! answer is stored. Errors are never kept. Bounded by [`ANSWER_CACHE_BYTES`].

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use rmcp::model::CallToolResult;

use crate::read::BundleSet;

/// Bound of the kept answers, in bytes of their texts times [`JSON_FACTOR`] (structuredContent repeats the text
/// with its metadata): a few dozen of Semi's largest answers.
pub const ANSWER_CACHE_BYTES: usize = 4 << 20;

/// Estimated bytes in memory of an answer per byte of its text (the text, the JSON value holding it again, rows).
const JSON_FACTOR: usize = 4;

/// The kept answers, oldest first.
#[derive(Default)]
pub struct Answers {
    inner: Mutex<Kept>,
}

#[derive(Default)]
struct Kept {
    entries: VecDeque<Entry>,
    bytes: usize,
}

struct Entry {
    set: Arc<BundleSet>,
    /// Tool name, NUL, the arguments as JSON.
    key: String,
    result: CallToolResult,
    bytes: usize,
}

impl Answers {
    /// The answer kept for `key` from `set` (the very same open set).
    pub fn get(&self, set: &Arc<BundleSet>, key: &str) -> Option<CallToolResult> {
        let kept = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        kept.entries.iter().find(|e| e.key == key && Arc::ptr_eq(&e.set, set)).map(|e| e.result.clone())
    }

    /// Keeps `result` (unless it is an error or alone exceeds the bound) for `key` from `set`; drops the entries of
    /// sets replaced by `set` (same directory, another generation), then the oldest ones over the bound.
    pub fn put(&self, set: &Arc<BundleSet>, key: String, result: &CallToolResult) {
        if result.is_error == Some(true) {
            return;
        }
        let text: usize =
            result.content.iter().map(|c| c.as_text().map_or(0, |t| t.text.len())).sum::<usize>() + key.len();
        let bytes = text * JSON_FACTOR;
        if bytes > ANSWER_CACHE_BYTES / 4 {
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
        kept.entries.push_back(Entry { set: set.clone(), key, result: result.clone(), bytes });
        while kept.bytes > ANSWER_CACHE_BYTES {
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
