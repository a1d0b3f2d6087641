//! JSON-RPC ids rmcp cannot hold, carried past it.
//!
//! JSON-RPC 2.0 lets an id be any number or string; rmcp 3.11 keeps a number as an `i64`
//! (`NumberOrString::Number(i64)`), so a request whose id is ≥ 2^63, below -2^63 or fractional did not decode:
//! over HTTP it got a 415 that is no JSON-RPC answer, over stdio an answer without `id` (issue 26 §3). Both
//! transports hand such a request to rmcp under a stand-in string id ([`Ids::stand_in`]) and put the client's id
//! back in the answer ([`Ids::restore`]): the id is echoed as the client wrote it, within what JSON numbers
//! parse to (serde_json, without arbitrary precision, writes a number as it read it: an integer within `i64` or
//! `u64` exactly, any other number as the nearest float in its shortest form, so `1.50` comes back `1.5`, `1e3`
//! as `1000.0`, and an integer beyond 64 bits as its nearest float: -2^63 - 1 comes back `-9.223372036854776e+18`).

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use serde_json::Value;

/// Stand-ins waiting for their answer, at most: past it the oldest are forgotten (a client that never reads its
/// answers cannot grow the map).
const MAX_PENDING: usize = 4096;

/// How far into an answer its id is looked for, in bytes: rmcp writes `{"jsonrpc":"2.0","id":…` first (after an
/// SSE event's `data: ` over HTTP).
const ID_WINDOW: usize = 512;

/// The ids handed to rmcp as stand-ins and the client ids they stand for.
#[derive(Default)]
pub struct Ids {
    next: AtomicU64,
    /// The stand-in as JSON (quoted) → the client's id as JSON.
    pending: Mutex<HashMap<Vec<u8>, Vec<u8>>>,
}

/// Whether rmcp can hold `id` as written: a string, or an integer within `i64`. Null and other types are left to
/// the pre-check and rmcp, which refuse them.
pub fn holdable(id: &Value) -> bool {
    !matches!(id, Value::Number(n) if !n.is_i64())
}

impl Ids {
    /// For a request whose id rmcp cannot hold: the message with a stand-in string id (noted, to be restored in
    /// its answer); `None` for any other message (sent as it is).
    pub fn stand_in(&self, message: &Value) -> Option<Value> {
        let id = message.get("id").filter(|id| !holdable(id))?;
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        // A control character no client puts in an id, and a counter: never the id of another request.
        let stand_in = Value::String(format!("\u{1}mydesign-docs-id-{n}"));
        let key = serde_json::to_vec(&stand_in).ok()?;
        let original = serde_json::to_vec(id).ok()?;
        let mut pending = self.pending.lock().unwrap_or_else(|e| e.into_inner());
        if pending.len() >= MAX_PENDING {
            pending.clear();
        }
        pending.insert(key, original);
        let mut message = message.clone();
        message["id"] = stand_in;
        Some(message)
    }

    /// Whether a stand-in waits for its answer (so [`Ids::restore`] has something to do).
    pub fn any(&self) -> bool {
        !self.pending.lock().unwrap_or_else(|e| e.into_inner()).is_empty()
    }

    /// `answer` (a JSON-RPC message, or an SSE event holding one) with a stand-in id near its start replaced by
    /// the client's id, which is then forgotten; `None` when it holds none.
    pub fn restore(&self, answer: &[u8]) -> Option<Vec<u8>> {
        let mut pending = self.pending.lock().unwrap_or_else(|e| e.into_inner());
        if pending.is_empty() {
            return None;
        }
        let head = &answer[..answer.len().min(ID_WINDOW)];
        let marker = b"\"\\u0001mydesign-docs-id-";
        let at = head.windows(marker.len()).position(|w| w == marker)?;
        let end = at + 1 + head[at + 1..].iter().position(|&b| b == b'"')?;
        let key = &answer[at..=end];
        let original = pending.remove(key)?;
        let mut restored = Vec::with_capacity(answer.len() + original.len());
        restored.extend_from_slice(&answer[..at]);
        restored.extend_from_slice(&original);
        restored.extend_from_slice(&answer[end + 1..]);
        Some(restored)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn ids_rmcp_cannot_hold_go_through_a_stand_in_and_come_back_as_written() {
        let ids = Ids::default();
        for (text, holds) in [
            ("1", true),
            ("-7", true),
            ("\"a\"", true),
            ("9223372036854775808", false),
            ("-9223372036854775809", false),
            ("18446744073709551615", false),
            ("1.5", false),
            ("-0.25", false),
        ] {
            let id: Value = serde_json::from_str(text).unwrap();
            assert_eq!(holdable(&id), holds, "{text}");
            let message = json!({"jsonrpc": "2.0", "id": id, "method": "ping"});
            let Some(sent) = ids.stand_in(&message) else {
                assert!(holds, "{text}");
                continue;
            };
            assert!(sent["id"].as_str().unwrap().starts_with("\u{1}mydesign-docs-id-"), "{sent}");
            assert_eq!(sent["method"], "ping");
            // What rmcp writes back, as a line and inside an SSE event.
            let line = format!(r#"{{"jsonrpc":"2.0","id":{},"result":{{}}}}"#, sent["id"]);
            let back = ids.restore(line.as_bytes()).unwrap();
            // Beyond 64 bits, the nearest float (documented above).
            let echoed = if text == "-9223372036854775809" { "-9.223372036854776e+18" } else { text };
            assert_eq!(String::from_utf8(back).unwrap(), format!(r#"{{"jsonrpc":"2.0","id":{echoed},"result":{{}}}}"#));
            assert!(ids.restore(line.as_bytes()).is_none(), "forgotten once restored");
        }
        assert!(!ids.any());
        let sent = ids.stand_in(&json!({"jsonrpc": "2.0", "id": 1.5, "method": "ping"})).unwrap();
        let event = format!("event: message\ndata: {{\"jsonrpc\":\"2.0\",\"id\":{},\"result\":{{}}}}\n\n", sent["id"]);
        let back = String::from_utf8(ids.restore(event.as_bytes()).unwrap()).unwrap();
        assert_eq!(back, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1.5,\"result\":{}}\n\n");
        assert!(ids.restore(br#"{"jsonrpc":"2.0","id":3,"result":{}}"#).is_none());
    }
}
