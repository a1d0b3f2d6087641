//! Repeated tool calls over stdio, answered with the bytes rmcp wrote the first time.
//!
//! A repeated call answered from the kept answers ([`super::answers`]) still cost rmcp a deep clone of the result's
//! JSON tree, its serialization (escaping every byte of the text and the structured content) and the drop: 1.49 M
//! instructions of the 1.5 M of a repeated Semi `list_components` (37 KB on the wire). Here the stdio session keeps
//! the `result` of such a call as rmcp wrote it, and answers the same call again by writing those bytes under the
//! new request's `id`: byte-identical to what rmcp would write, since they are what it wrote.
//!
//! A result is kept only when all of these hold, else the call goes to rmcp as any other:
//! - the request is a `tools/call` whose `id` is a string or an integer rmcp reads as written (an `i64`) and whose
//!   `params` hold only `name` and `arguments` (no `_meta`, no task: rmcp would act on those);
//! - the server kept the call's answer (so not an error, see [`super::answers`]), for the set the call reads;
//! - rmcp's response line starts `{"jsonrpc":"2.0","id":ID,"result":` with the request's id written as serde_json
//!   writes it, and ends with `}`; and no other message with that id came while the call was in flight.
//!
//! Entries are per set like the kept answers (a rebuild's new set misses and drops the old set's lines), bounded by
//! [`LINE_CACHE_BYTES`], and live as long as the session: the negotiated protocol version, which shapes the
//! result, does not change within it.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::sync::{Arc, Mutex};

use serde_json::Value;

use super::DocsServer;
use super::answers::{Answers, answer_key};
use crate::read::BundleSet;

/// Bound of the kept response lines, in bytes.
pub const LINE_CACHE_BYTES: usize = 2 << 20;

/// The start of every response line rmcp writes, up to the id.
const PREFIX: &[u8] = br#"{"jsonrpc":"2.0","id":"#;

/// What follows the id in a successful response.
const RESULT: &[u8] = br#","result":"#;

/// In-flight calls noted at most; past it, the notes are dropped (a client whose ids rmcp writes otherwise).
const MAX_PENDING: usize = 1024;

/// The replay state of one stdio session.
pub(super) struct Replay {
    server: DocsServer,
    /// The `result` JSON of kept calls, as rmcp wrote it.
    lines: Answers<Arc<[u8]>>,
    /// Calls sent to rmcp, by their id as JSON: what they asked, or `None` when the id was reused in flight.
    pending: Mutex<HashMap<Vec<u8>, Option<Asked>>>,
}

/// What a call asked: the set it reads and its [`answer_key`].
type Asked = (Arc<BundleSet>, String);

impl Replay {
    /// The replay state of a session of `server`.
    pub(super) fn new(server: DocsServer) -> Self {
        Replay { server, lines: Answers::with_bound(LINE_CACHE_BYTES), pending: Mutex::default() }
    }

    /// For a message about to go to rmcp: the whole response line (with its `\n`) when it is a repeated call whose
    /// result is kept; else `None`, having noted a `tools/call` so that [`Replay::capture`] can keep its result (and
    /// having forgotten a noted call whose id this message reuses: neither answer is kept).
    pub(super) fn answer(&self, message: &Value) -> Option<Vec<u8>> {
        let id = message.get("id")?;
        let asked = self.asked(message).filter(|_| id.is_string() || id.is_i64());
        let id = serde_json::to_vec(id).ok()?;
        if let Some((set, key)) = &asked
            && let Some(result) = self.lines.get(set, key)
        {
            let mut line = Vec::with_capacity(PREFIX.len() + id.len() + RESULT.len() + result.len() + 2);
            for part in [PREFIX, &id, RESULT, &result, b"}\n"] {
                line.extend_from_slice(part);
            }
            return Some(line);
        }
        let mut pending = self.pending.lock().unwrap_or_else(|e| e.into_inner());
        if pending.len() >= MAX_PENDING {
            pending.clear();
        }
        match pending.entry(id) {
            Entry::Occupied(mut noted) => *noted.get_mut() = None,
            Entry::Vacant(new) => {
                if asked.is_some() {
                    new.insert(asked);
                }
            }
        }
        None
    }

    /// What a `tools/call` message asks, when it is one that may be replayed: `params` with only `name` and
    /// `arguments` (an object or absent), for a set that is served.
    fn asked(&self, message: &Value) -> Option<Asked> {
        if message.get("method").and_then(Value::as_str) != Some("tools/call") {
            return None;
        }
        let params = message.get("params")?.as_object()?;
        if params.keys().any(|k| k != "name" && k != "arguments") {
            return None;
        }
        let name = params.get("name")?.as_str()?;
        let arguments = match params.get("arguments") {
            None | Some(Value::Null) => None,
            Some(Value::Object(a)) => Some(a),
            Some(_) => return None,
        };
        Some((self.server.answered_from(arguments)?, answer_key(name, arguments)))
    }

    /// For a line rmcp wrote (with its `\n`): when it answers a noted call whose answer the server kept, keeps its
    /// `result`. A response (a result or an error) ends the note of its id; a request rmcp sends does not.
    pub(super) fn capture(&self, line: &[u8]) {
        let Some(rest) = line.strip_prefix(PREFIX) else { return };
        let Some(id) = id_token(rest) else { return };
        let after = &rest[id.len()..];
        if !after.starts_with(RESULT) && !after.starts_with(br#","error":"#) {
            return;
        }
        let asked = {
            let mut pending = self.pending.lock().unwrap_or_else(|e| e.into_inner());
            if pending.is_empty() {
                return;
            }
            pending.remove(id)
        };
        let Some(Some((set, key))) = asked else { return };
        let Some(result) = after.strip_prefix(RESULT).and_then(|r| r.strip_suffix(b"}\n")) else { return };
        if self.server.answers.contains(&set, &key) {
            self.lines.keep(&set, key, Arc::from(result), result.len());
        }
    }
}

/// The id at the start of `rest` as written: a string (to its closing quote) or a number (to the next `,`).
fn id_token(rest: &[u8]) -> Option<&[u8]> {
    if rest.first() == Some(&b'"') {
        let mut escaped = false;
        for (i, &b) in rest.iter().enumerate().skip(1) {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => return Some(&rest[..=i]),
                _ => {}
            }
        }
        None
    } else {
        rest.iter().position(|&b| b == b',').map(|end| &rest[..end])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_read_as_written() {
        assert_eq!(id_token(br#"42,"result":{}}"#), Some(&b"42"[..]));
        assert_eq!(id_token(br#""a\"b,c","result":{}}"#), Some(&br#""a\"b,c""#[..]));
        assert_eq!(id_token(br#""a\\","result":{}}"#), Some(&br#""a\\""#[..]));
        assert_eq!(id_token(br#""open"#), None);
        assert_eq!(id_token(b"7"), None);
    }
}
