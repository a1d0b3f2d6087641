//! The one check of a message's shape that both transports run before rmcp sees it ([`Precheck::answer`]).
//!
//! rmcp answers a message that is JSON but not a JSON-RPC 2.0 message it can decode badly: -32600 without the
//! request's `id`, a bare -32601 `"tools/call"` for a `tools/call` whose `params` lack a `name` string or whose
//! `arguments` are not an object, or nothing at all. Here such a message gets an answer with its `id` that says
//! what is wrong and what to send: an invalid request (-32600) for a message that is no JSON-RPC request, an
//! invalid params error (-32602, the one an unknown tool gets) for a `tools/call` that names no tool or an unknown
//! one, and an `isError` tool result for a known tool called with `arguments` that are not an object (MCP
//! 2025-11-25: argument errors are tool execution errors, so the model can correct its call). The stdio framing
//! ([`super::stdio`]) writes the answer as one line; the HTTP endpoint ([`super::http`]) sends it as the JSON body
//! of a request in a live session.

use serde_json::{Value, json};

/// JSON-RPC "invalid request".
pub const INVALID_REQUEST: i64 = -32600;
/// JSON-RPC "invalid params".
pub const INVALID_PARAMS: i64 = -32602;
/// JSON-RPC "method not found".
pub const METHOD_NOT_FOUND: i64 = -32601;

/// The request methods this server answers, named by the error an unknown method gets (TRIAL item 26).
pub const ANSWERED_METHODS: [&str; 7] =
    ["initialize", "ping", "tools/list", "tools/call", "resources/list", "resources/templates/list", "resources/read"];

/// The request methods rmcp 3.11 decodes itself (its `ClientRequest`, the MCP specification's requests): left to
/// it, whatever it answers (an empty list, or its own error for a capability not declared). Any other method is
/// answered here with [`METHOD_NOT_FOUND`] naming [`ANSWERED_METHODS`], where rmcp's message was the bare method.
const PROTOCOL_METHODS: [&str; 21] = [
    "ping",
    "initialize",
    "server/discover",
    "completion/complete",
    "logging/setLevel",
    "prompts/get",
    "prompts/list",
    "resources/list",
    "resources/templates/list",
    "resources/read",
    "subscriptions/listen",
    "resources/subscribe",
    "resources/unsubscribe",
    "tools/call",
    "tools/list",
    "tasks/get",
    "tasks/update",
    "tasks/cancel",
    "skills/list",
    "skills/get",
    "resources/directory/read",
];

/// The parse error of a request that is not JSON (`what` is `line` or `body`), and the `id` to answer with. A
/// request that is JSON but for bytes that are not UTF-8 (inside a string) has a knowable id: it is echoed (a
/// number or a string, read from the text with those bytes replaced). Any other text that does not parse gets
/// null, as JSON-RPC 2.0 says for an id that cannot be detected.
pub fn parse_error(bytes: &[u8], what: &str, error: &serde_json::Error) -> (Value, String) {
    match std::str::from_utf8(bytes) {
        Ok(_) => (Value::Null, format!("parse error: the {what} is not JSON ({error})")),
        Err(e) => {
            let lossy = String::from_utf8_lossy(bytes);
            let id = match serde_json::from_str::<Value>(&lossy) {
                Ok(Value::Object(o)) => o.get("id").filter(|v| v.is_number() || v.is_string()).cloned(),
                _ => None,
            };
            let message = format!("parse error: the {what} is not UTF-8 (invalid byte at offset {})", e.valid_up_to());
            (id.unwrap_or(Value::Null), message)
        }
    }
}

/// What a misshapen message gets instead of rmcp's answer.
#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    /// A JSON-RPC error response.
    Error {
        /// The request's `id` (null when it has none or the message is no object).
        id: Value,
        /// [`INVALID_REQUEST`], [`INVALID_PARAMS`] or [`METHOD_NOT_FOUND`].
        code: i64,
        /// What is wrong and what to send.
        message: String,
    },
    /// A tool result with `isError: true` whose text says what is wrong with the arguments.
    ToolError {
        /// The request's `id`.
        id: Value,
        /// The text the model reads.
        text: String,
    },
}

impl Answer {
    /// The JSON-RPC response message.
    pub fn to_json(&self) -> Value {
        match self {
            Answer::Error { id, code, message } => {
                json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}})
            }
            Answer::ToolError { id, text } => json!({
                "jsonrpc": "2.0",
                "id": id,
                "result": {"content": [{"type": "text", "text": text}], "isError": true}
            }),
        }
    }

    /// The response as one line, newline included (what the stdio transport writes).
    pub fn line(&self) -> String {
        let mut line = self.to_json().to_string();
        line.push('\n');
        line
    }

    /// Whether the answer is a JSON-RPC error about the message itself (not a tool result).
    pub fn is_protocol_error(&self) -> bool {
        matches!(self, Answer::Error { .. })
    }
}

/// The message of a `tools/call` naming a tool that does not exist: the server's own (`call_tool`) and the
/// pre-check's.
pub fn unknown_tool(name: &str, tools: &[String]) -> String {
    format!("unknown tool `{}`; tools: {}", crate::read::echo(name), tools.join(", "))
}

/// The shape check, knowing the tool names it may point to.
#[derive(Clone, Debug)]
pub struct Precheck {
    tools: Vec<String>,
}

impl Precheck {
    /// A check for a server whose tools are `tools` (named in the answers that say which tools exist).
    pub fn new(tools: Vec<String>) -> Self {
        Precheck { tools }
    }

    /// The answer to `message` when it is JSON but no message rmcp would answer properly; `None` for a well-shaped
    /// one (rmcp answers it). Checked in this order: an object (not a batch); `jsonrpc` `"2.0"`; a `method` string
    /// (or, without one, a `result` or `error`: a response to a request of ours); `params` absent or an object; a
    /// request's method one of the protocol's (else [`METHOD_NOT_FOUND`], naming [`ANSWERED_METHODS`]);
    /// for `tools/call`, `params.name` a string naming a tool, then `params.arguments` absent, null or an object.
    pub fn answer(&self, message: &Value) -> Option<Answer> {
        let Some(object) = message.as_object() else {
            let why = if message.is_array() { "batches are not supported" } else { "a message is a JSON object" };
            return Some(invalid(Value::Null, INVALID_REQUEST, format!("invalid request: {why}")));
        };
        let id = object.get("id").cloned().unwrap_or(Value::Null);
        let request = |why: &str| Some(invalid(id.clone(), INVALID_REQUEST, format!("invalid request: {why}")));
        if object.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
            return request("`jsonrpc` must be \"2.0\"");
        }
        let Some(method) = object.get("method") else {
            // A response from the client (to a request of ours) has a result or an error instead.
            return if object.contains_key("result") || object.contains_key("error") {
                None
            } else {
                request("no `method`")
            };
        };
        let Some(method) = method.as_str() else { return request("`method` must be a string") };
        let params = match object.get("params") {
            None => None,
            Some(Value::Object(params)) => Some(params),
            Some(_) => return request("`params` must be an object"),
        };
        if object.contains_key("id") && !PROTOCOL_METHODS.contains(&method) {
            // A request (a notification gets no answer) of a method no MCP server has.
            let message = format!(
                "method not found: `{}`; this server answers {}",
                crate::read::echo(&method.chars().take(60).collect::<String>()),
                ANSWERED_METHODS.join(", ")
            );
            return Some(invalid(id, METHOD_NOT_FOUND, message));
        }
        if method != "tools/call" {
            return None;
        }
        let tools = self.tools.join(", ");
        let example = r#"{"name": "list_components", "arguments": {}}"#;
        let name = match params.and_then(|p| p.get("name")) {
            None | Some(Value::Null) => {
                let message = format!(
                    "invalid params: tools/call needs `params` with the tool's `name`, e.g. {example}; tools: {tools}"
                );
                return Some(invalid(id, INVALID_PARAMS, message));
            }
            Some(Value::String(name)) => name,
            Some(other) => {
                let message =
                    format!("invalid params: `name` must be a tool name (a string), got {other}; tools: {tools}");
                return Some(invalid(id, INVALID_PARAMS, message));
            }
        };
        if !self.tools.iter().any(|t| t == name) {
            return Some(invalid(id, INVALID_PARAMS, unknown_tool(name, &self.tools)));
        }
        match params.and_then(|p| p.get("arguments")) {
            None | Some(Value::Null) | Some(Value::Object(_)) => None,
            Some(other) => Some(Answer::ToolError {
                id,
                text: format!(
                    "{name}: invalid arguments: `arguments` must be an object of named arguments, e.g. \
                     {{\"component\": \"table\"}}; got {other}"
                ),
            }),
        }
    }
}

fn invalid(id: Value, code: i64, message: String) -> Answer {
    Answer::Error { id, code, message }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(v: Value) -> Option<Value> {
        let p = Precheck::new(vec!["list_components".into(), "get_code_block".into()]);
        p.answer(&v).map(|a| {
            let line = a.line();
            assert!(line.ends_with('\n') && line.matches('\n').count() == 1, "not one line: {line:?}");
            serde_json::from_str::<Value>(&line).unwrap()
        })
    }

    #[test]
    fn misshapen_messages_get_their_id_and_a_reason() {
        let r = check(json!({"jsonrpc": "2.0", "id": 999, "method": "tools/call", "params": "bad"})).unwrap();
        assert_eq!((r["id"].clone(), r["error"]["code"].clone()), (json!(999), json!(-32600)));
        assert_eq!(r["error"]["message"], "invalid request: `params` must be an object");
        let r = check(json!({"jsonrpc": "2.0", "id": 10})).unwrap();
        assert_eq!(
            (r["id"].clone(), r["error"]["message"].clone()),
            (json!(10), json!("invalid request: no `method`"))
        );
        let r = check(json!([])).unwrap();
        assert_eq!(
            (r["id"].clone(), r["error"]["message"].clone()),
            (json!(null), json!("invalid request: batches are not supported"))
        );
        let call = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "get_code_block", "arguments": [1, 2]}});
        let r = check(call).unwrap();
        assert_eq!((r["id"].clone(), r["result"]["isError"].clone()), (json!(3), json!(true)));
        assert_eq!(
            r["result"]["content"][0]["text"],
            "get_code_block: invalid arguments: `arguments` must be an object of named arguments, e.g. \
             {\"component\": \"table\"}; got [1,2]"
        );
        assert!(check(json!({"jsonrpc": "2.0", "id": 4, "method": "tools/list"})).is_none());
        assert!(check(json!({"jsonrpc": "2.0", "id": 5, "result": {}})).is_none());
        assert!(check(json!({"jsonrpc": "2.0", "method": "notifications/initialized"})).is_none());
        let r = check(json!({"jsonrpc": "2.0", "id": 8, "method": "nosuch"})).unwrap();
        assert_eq!((r["id"].clone(), r["error"]["code"].clone()), (json!(8), json!(-32601)));
        assert_eq!(
            r["error"]["message"],
            "method not found: `nosuch`; this server answers initialize, ping, tools/list, tools/call, \
             resources/list, resources/templates/list, resources/read"
        );
        assert!(check(json!({"jsonrpc": "2.0", "method": "notifications/nosuch"})).is_none(), "no answer");
        assert!(check(json!({"jsonrpc": "2.0", "id": 9, "method": "prompts/list"})).is_none(), "rmcp's");
        let fine = json!({"jsonrpc": "2.0", "id": 6, "method": "tools/call", "params": {"name": "list_components"}});
        assert!(check(fine).is_none(), "no arguments: the tool's own check says which are missing");
    }

    #[test]
    fn tool_calls_without_a_tool_name_are_invalid_params_naming_the_tools() {
        let r = check(json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call"})).unwrap();
        assert_eq!(r["error"]["code"], -32602);
        assert_eq!(
            r["error"]["message"],
            "invalid params: tools/call needs `params` with the tool's `name`, e.g. {\"name\": \"list_components\", \
             \"arguments\": {}}; tools: list_components, get_code_block"
        );
        let r = check(json!({"jsonrpc": "2.0", "id": 8, "method": "tools/call", "params": {"name": 5}})).unwrap();
        assert_eq!(
            (r["id"].clone(), r["error"]["code"].clone(), r["error"]["message"].clone()),
            (
                json!(8),
                json!(-32602),
                json!(
                    "invalid params: `name` must be a tool name (a string), got 5; tools: list_components, get_code_block"
                )
            )
        );
        let unknown =
            json!({"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {"name": "x", "arguments": "s"}});
        let r = check(unknown).unwrap();
        assert_eq!(r["error"]["message"], "unknown tool `x`; tools: list_components, get_code_block");
    }
}
