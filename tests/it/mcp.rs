//! The MCP server end to end: the real binary (`mydesign-docs serve`) driven over stdio by a bare JSON-RPC client
//! written here (every tool, every error path, 100 calls in a row, resources, the size of `tools/list`), over HTTP
//! for the transport's own rules (loopback, `Host`, `Origin`, `/mcp`), and by two clients nobody here wrote when
//! `.ci/run` has installed them (else they print why and skip): the official Python `mcp` SDK
//! (`tests/it/mcp_client.py`, over stdio and HTTP, in `target/mcp-venv`) and the MCP Inspector CLI
//! (`target/mcp-inspector`).
//! Everything runs on the sample corpus; the Semi Design corpus adds the compiler issue's real values when
//! `../shared` is present.

use crate::common;
use crate::common::Tiktoken;
#[path = "common/mcp_http.rs"]
pub(crate) mod mcp_http;
#[path = "common/mcp_stdio.rs"]
pub(crate) mod mcp_stdio;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use mcp_http::{HttpSession, load, percentile};
use mcp_stdio::StdioClient;
use serde_json::{Value, json};

/// JSON-RPC "invalid params".
const INVALID_PARAMS: i64 = -32602;

/// The stdio client with this file's assertions on answers.
struct Client(StdioClient);

impl std::ops::Deref for Client {
    type Target = StdioClient;
    fn deref(&self) -> &StdioClient {
        &self.0
    }
}

impl std::ops::DerefMut for Client {
    fn deref_mut(&mut self) -> &mut StdioClient {
        &mut self.0
    }
}

impl Client {
    /// Starts `mydesign-docs serve ARGS` and completes the handshake.
    fn start(args: &[&str]) -> Client {
        Client(StdioClient::start(args))
    }

    /// A successful tool result: checks the contract every answer keeps (text + structuredContent naming the system
    /// and version served, the text's header saying the same) and returns (text, structuredContent).
    fn ok(&mut self, tool: &str, args: Value) -> (String, Value) {
        let r = self.call(tool, args.clone());
        let result = &r["result"];
        assert_eq!(result["isError"], false, "{tool} {args}: {r}");
        let text = result["content"][0]["text"].as_str().unwrap_or_else(|| panic!("no text content: {r}")).to_string();
        assert_eq!(result["content"][0]["type"], "text");
        let s = result["structuredContent"].clone();
        let header = format!("[{} {} · ", s["system"].as_str().unwrap(), s["version"].as_str().unwrap());
        assert!(
            text.starts_with(&header),
            "{tool}: text header does not name {header}: {}",
            &text[..80.min(text.len())]
        );
        (text, s)
    }

    /// A failed lookup: an `isError` result; returns its text.
    fn lookup_error(&mut self, tool: &str, args: Value) -> String {
        let r = self.call(tool, args.clone());
        assert_eq!(r["result"]["isError"], true, "{tool} {args} should fail as a tool result: {r}");
        r["result"]["content"][0]["text"].as_str().expect("error text").to_string()
    }

    /// A malformed request: a JSON-RPC invalid-params error; returns its message.
    fn invalid_params(&mut self, tool: &str, args: Value) -> String {
        let r = self.call(tool, args.clone());
        assert_eq!(r["error"]["code"], INVALID_PARAMS, "{tool} {args} should be invalid params: {r}");
        r["error"]["message"].as_str().expect("message").to_string()
    }
}

/// The sample's bundle set, built once per test binary.
pub(crate) fn sample_dir() -> PathBuf {
    common::sample().report.dir.clone()
}

fn arg(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

/// Tokens (o200k_base) of a JSON value as sent.
fn tokens(v: &Value) -> u32 {
    Tiktoken::new("o200k_base").count(&v.to_string())
}

#[test]
fn initialize_declares_only_what_is_implemented() {
    let dir = sample_dir();
    let c = Client::start(&["--bundles", arg(&dir)]);
    let caps = &c.init["capabilities"];
    assert!(caps["tools"].is_object() && caps["resources"].is_object(), "{caps}");
    for absent in ["prompts", "logging", "completions"] {
        assert!(caps[absent].is_null(), "{absent} declared but not implemented: {caps}");
    }
    assert!(caps["resources"]["subscribe"].is_null() && caps["tools"]["listChanged"].is_null(), "{caps}");
    assert_eq!(c.init["serverInfo"]["name"], "mydesign-docs");
    let instructions = c.init["instructions"].as_str().expect("instructions");
    assert!(instructions.contains("my-design 3.4.0"), "instructions name what is served: {instructions}");
    assert!(instructions.contains("list_components → component_details"), "{instructions}");
}

#[test]
fn tools_list_is_complete_and_small() {
    let dir = sample_dir();
    let mut c = Client::start(&["--bundles", arg(&dir)]);
    // What is sent: the response line as the server wrote it (its key order, compact), not a re-serialization.
    let sent = c.request_raw("tools/list", json!({}));
    let msg: Value = serde_json::from_str(&sent).expect("tools/list answer is JSON");
    let tools = msg["result"]["tools"].clone();
    assert_eq!(msg["jsonrpc"], "2.0", "{sent}");
    let tools = tools.as_array().expect("tools");
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "component_changes",
            "component_details",
            "get_changelog",
            "get_code_block",
            "get_file_code",
            "get_function_code",
            "list_components",
            "search_docs"
        ]
    );
    for t in tools {
        let name = t["name"].as_str().unwrap();
        assert!(name.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_'), "{name}");
        assert!(t["title"].is_string() && t["description"].is_string(), "{name}: title and description");
        assert_eq!(
            t["annotations"],
            json!({"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": false}),
            "{name}"
        );
        assert_eq!(t["inputSchema"]["type"], "object", "{name}");
        assert_eq!(t["outputSchema"]["type"], "object", "{name}");
        for p in ["system", "version"] {
            assert_eq!(t["inputSchema"]["properties"][p]["type"], "string", "{name} takes {p}");
        }
    }
    let seen: Vec<Value> = tools
        .iter()
        .map(|t| json!({"name": t["name"], "description": t["description"], "input_schema": t["inputSchema"]}))
        .collect();
    let (bytes, all_tokens, seen_tokens) =
        (sent.len(), Tiktoken::new("o200k_base").count(&sent), tokens(&Value::Array(seen)));
    eprintln!(
        "tools/list: {} tools, {bytes} bytes, {all_tokens} tokens (o200k_base); name + description + inputSchema \
         (what a model is shown): {seen_tokens} tokens",
        tools.len()
    );
    assert!(all_tokens <= 1_500, "tools/list is {all_tokens} tokens, the goal is ≤ 1,500");
}

#[test]
fn every_tool_answers_on_the_sample() {
    let dir = sample_dir();
    let mut c = Client::start(&["--bundles", arg(&dir)]);
    let (text, s) = c.ok("list_components", json!({}));
    assert_eq!(s["components"].as_array().map(Vec::len), Some(17), "{text}");
    assert!(text.contains("table"));
    let (_, s) = c.ok("list_components", json!({"lang": "zh-CN"}));
    assert_eq!(s["lang"], "zh-CN");
    // Several components in one budget (issue 29 item 2): the default 6,000, a smaller one naming the call for all.
    let (text, s) = c.ok("list_components", json!({"components": ["button", "Table", "button"]}));
    let names: Vec<&str> =
        s["components"].as_array().unwrap().iter().map(|p| p["component"].as_str().unwrap()).collect();
    assert_eq!(names, ["button", "table"], "{text:.400}");
    assert!(text.contains("## button\nimport { Button } from 'my-design';"), "{text:.400}");
    let (text, s) = c.ok("list_components", json!({"components": ["button", "table"], "max_tokens": 400}));
    assert!(
        s["whole_at"].as_u64().is_some() && text.contains("components=[\"button\",\"table\"], max_tokens="),
        "{text}"
    );

    let (text, s) = c.ok("component_details", json!({"component": "Table"}));
    assert_eq!(
        (s["lines"].as_u64(), s["code_blocks"].as_u64(), s["hidden"].as_bool()),
        (Some(1444), Some(33), Some(true))
    );
    assert!(text.contains("get_code_block") && text.contains("#33") && !text.contains("#34"), "placeholders");
    let (_, full) = c.ok("component_details", json!({"component": "table", "detail": "full"}));
    assert_eq!(full["hidden"], false);
    assert!(full["tokens"].as_u64() > s["tokens"].as_u64());
    // Semi's addressing: changelog / changelog-N through component_details.
    let (text, s) = c.ok("component_details", json!({"component": "changelog-6"}));
    assert_eq!((s["page"].as_u64(), s["pages"].as_u64(), s["next"].as_u64()), (Some(6), Some(6), None), "{text:.200}");
    let (_, s) = c.ok("component_details", json!({"component": "changelog"}));
    assert_eq!(s["page"], 1);

    let (text, s) = c.ok("get_code_block", json!({"component": "table", "index": 33}));
    assert_eq!((s["index"].as_u64(), s["count"].as_u64(), s["doc_lang"].as_str()), (Some(33), Some(33), Some("en-US")));
    assert!(text.contains("code block 33/33"), "{text:.200}");

    let (text, s) = c.ok("get_changelog", json!({"page": 6}));
    assert_eq!((s["page"].as_u64(), s["previous"].as_u64(), s["next"].as_u64()), (Some(6), Some(5), None));
    assert!(text.contains("page 6/6"), "{text:.200}");
    let (_, s) = c.ok("get_changelog", json!({}));
    assert_eq!((s["page"].as_u64(), s["next"].as_u64()), (Some(1), Some(2)));

    let (_, s) = c.ok("list_components", json!({"component": "table"}));
    let paths: Vec<&str> = s["files"].as_array().unwrap().iter().map(|f| f["path"].as_str().unwrap()).collect();
    assert!(paths.contains(&"src/components/Table/Table.tsx"), "{paths:?}");

    let (text, s) = c.ok("get_file_code", json!({"path": "src/components/Table/Table.tsx"}));
    assert_eq!(s["skeleton"], true);
    assert!(s["functions"].as_array().unwrap().iter().any(|f| f["name"] == "Table.render"), "{text:.300}");
    let (_, s) = c.ok("get_file_code", json!({"path": "./src/components/Table/Table.tsx", "full": true}));
    assert_eq!((s["skeleton"].as_bool(), s["file"]["lines"].as_u64()), (Some(false), Some(1738)));

    let (text, s) =
        c.ok("get_function_code", json!({"path": "src/components/Table/Table.tsx", "function": "Table.render"}));
    assert_eq!(s["qualified"], "Table.render");
    assert!(text.contains("render("), "{text:.300}");

    // The version asked for, with or without a leading v, and the system by name.
    let (_, s) =
        c.ok("get_code_block", json!({"component": "button", "index": 1, "version": "v3.4.0", "system": "my-design"}));
    assert_eq!(s["version"], "3.4.0");

    // Search, and its follow-up call as given.
    let (text, s) = c.ok("search_docs", json!({"query": "how do I select table rows", "kind": "doc"}));
    let hit = &s["hits"][0];
    assert_eq!(
        (hit["component"].as_str(), hit["follow_up"]["tool"].as_str()),
        (Some("table"), Some("component_details"))
    );
    assert!(text.contains("component_details("), "{text:.400}");
    let (text, section) = c.ok("component_details", hit["follow_up"]["arguments"].clone());
    let served = section["sections"].as_array().unwrap();
    assert!(served.iter().any(|t| t.as_str().is_some_and(|t| t.contains("election"))), "{text:.300}");
    let e = c.lookup_error("search_docs", json!({"query": "x", "kind": "poem"}));
    assert_eq!(
        e, "invalid argument `kind`: \"poem\" is not doc, code, function, changelog, props, token or token-for",
        "a tool error"
    );

    // Budgets: a small one cuts on a whole line and gives the call that continues.
    let (text, s) = c.ok("component_details", json!({"component": "table", "detail": "full", "max_tokens": 500}));
    let cursor = s["next_cursor"].as_str().expect("a 14,843-token document is cut at 500");
    assert!(text.contains(&format!("continue with the same call and cursor=\"{cursor}\"]")), "{text}");
    let (_, next) = c.ok("component_details", json!({"component": "table", "cursor": cursor, "max_tokens": 500}));
    assert_eq!(next["served_lines"][0].as_u64(), s["served_lines"][1].as_u64().map(|l| l + 1));
    let e = c.lookup_error("component_details", json!({"component": "button", "cursor": cursor}));
    assert!(e.contains("this cursor continues the full document of `table` (en-US)"), "{e}");
    let (_, card) = c.ok("component_details", json!({"component": "table", "detail": "brief"}));
    assert_eq!(card["detail"], "brief");
    let (_, props) = c.ok("component_details", json!({"component": "table", "sections": ["props"]}));
    assert!(props["props"].as_array().is_some_and(|p| !p.is_empty()), "{props}");
}

#[test]
fn failed_lookups_are_tool_errors_that_name_what_exists() {
    let dir = sample_dir();
    let mut c = Client::start(&["--bundles", arg(&dir)]);
    let e = c.lookup_error("component_details", json!({"component": "tabel"}));
    assert!(e.contains("did you mean: table"), "{e}");
    let e = c.lookup_error("get_code_block", json!({"component": "table", "index": 34}));
    assert_eq!(e, "code block 34 is out of range: `table` (en-US) has code blocks 1..33");
    let e = c.lookup_error("get_changelog", json!({"page": 7}));
    assert!(e.contains("1..6"), "{e}");
    let e = c.lookup_error("component_details", json!({"component": "changelog-9"}));
    assert!(e.contains("1..6"), "{e}");
    let e = c.lookup_error("get_function_code", json!({"path": "src/components/Table/Table.tsx", "function": "rendr"}));
    assert!(e.contains("Table.render"), "{e}");
    let e = c.lookup_error("get_file_code", json!({"path": "Tabel.tsx"}));
    assert!(e.contains("src/components/Table/Table.tsx"), "{e}");
    let e = c.lookup_error("list_components", json!({"component": "tabel"}));
    assert!(e.contains("table"), "{e}");
    let e = c.lookup_error("list_components", json!({"version": "9.9.9"}));
    assert!(e.contains("available: 3.4.0"), "{e}");
    let e = c.lookup_error("get_changelog", json!({"system": "semi-design"}));
    assert!(e.contains("available: my-design"), "{e}");
    let e = c.lookup_error("component_details", json!({"component": "table", "lang": "fr-FR"}));
    assert!(e.contains("en-US"), "{e}");
}

/// `component_changes` (issue 11 item 4) between two installed versions of the sample: what changed, cut by the
/// budget and continued by the call the answer gives, and errors that name what is installed.
#[test]
fn component_changes_between_installed_versions() {
    let (_, store) = crate::release::two_versions();
    let mut c = Client::start(&["--bundles", arg(store)]);
    let (text, s) = c.ok("component_changes", json!({"component": "Tag", "from": "3.4.0"}));
    assert_eq!(
        (s["component"].as_str(), s["from"].as_str(), s["to"].as_str()),
        (Some("tag"), Some("3.4.0"), Some("3.5.0"))
    );
    let props: Vec<&str> = s["props"].as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect();
    assert_eq!(props, ["Tag.dot", "Tag.size", "Tag.visible", "TagProps.outlined"]);
    assert_eq!(s["props"][0], json!({"name": "Tag.dot", "after": "boolean = false"}));
    assert_eq!((s["functions_added"].clone(), s["functions_removed"].clone()), (json!(["tagColorOf"]), json!([])));
    assert_eq!(s["changelog"], json!([{"version": "3.5.0", "lines": ["- Tag: add `shape` and the `huge` size"]}]));
    assert_eq!((s["rows_total"].as_u64(), s["tokens"].as_u64(), s.get("next_cursor")), (Some(6), Some(544), None));
    assert_eq!(
        (s["total_props"].as_u64(), s["total_props_added"].as_u64(), s["total_props_removed"].as_u64()),
        (Some(4), Some(2), Some(1))
    );
    assert!(text.contains("\n## Functions (+1 −0)\n+ tagColorOf\n"), "{text}");
    // Cut at 300 tokens: the answer names the call that continues it; following it serves every row once.
    let mut args = json!({"component": "tag", "from": "3.4.0", "max_tokens": 300});
    let mut rows = 0;
    for part in 0.. {
        assert!(part < 10, "cursors do not end");
        let (text, s) = c.ok("component_changes", args.clone());
        assert_eq!(s["first_row"].as_u64(), Some(rows), "{text}");
        rows += (s["props"].as_array().unwrap().len()
            + s["functions_added"].as_array().unwrap().len()
            + s["changelog"].as_array().unwrap().iter().map(|r| r["lines"].as_array().unwrap().len()).sum::<usize>())
            as u64;
        // A row alone over the budget comes in pieces: counted once, with its last piece.
        let piece = &s["piece"];
        if piece.is_object() {
            assert_eq!(piece["row"].as_u64(), Some(rows + 1), "{text}");
            let end = piece["from"].as_u64().unwrap() + piece["text"].as_str().unwrap().len() as u64;
            rows += u64::from(end == piece["bytes"].as_u64().unwrap());
        }
        let Some(cursor) = s["next_cursor"].as_str() else { break };
        // One short line: the client repeats its own call with the cursor (issue 26).
        let call = format!("continue with the same call and cursor=\"{cursor}\"]");
        assert!(text.trim_end().ends_with(&call), "{text}");
        args = json!({"system": "my-design", "version": "3.5.0", "component": "tag", "from": "3.4.0", "cursor": cursor, "max_tokens": 300});
    }
    assert_eq!(rows, 6);
    // Errors name what exists.
    let e = c.lookup_error("component_changes", json!({"component": "tag", "from": "3.3.0"}));
    assert!(e.contains("version 3.3.0 of my-design is not in") && e.ends_with("available: 3.4.0, 3.5.0"), "{e}");
    let e = c.lookup_error("component_changes", json!({"component": "tag", "from": "3.4.0", "version": "4.0.0"}));
    assert!(e.ends_with("available: 3.4.0, 3.5.0"), "{e}");
    let e = c.lookup_error("component_changes", json!({"component": "tga", "from": "3.4.0"}));
    assert!(e.contains("did you mean: tag"), "{e}");
    let e = c.lookup_error("component_changes", json!({"component": "tag", "from": "3.5.0", "version": "3.4.0"}));
    let call = "component_changes(component=\"tag\", from=\"3.4.0\", version=\"3.5.0\")";
    assert_eq!(e, format!("3.5.0 is newer than 3.4.0: compare from the older version to the newer, {call}"));
    let e = c.lookup_error("component_changes", json!({"component": "tag"}));
    assert_eq!(e, "component_changes: missing argument `from`: expected a string (Older version)");
    // A cursor of another tool is refused, naming what it continues.
    let (_, files) = c.ok("list_components", json!({"component": "table", "max_tokens": 300}));
    let cursor = files["next_cursor"].as_str().expect("the sample's table files are cut at 300");
    let e = c.lookup_error("component_changes", json!({"component": "tag", "from": "3.4.0", "cursor": cursor}));
    assert!(e.contains("this cursor continues the file list of `table`"), "{e}");
}

/// A running server serves (and names) a version installed after it started, and stops serving a removed one,
/// without a restart (a new user's trial: it needed one).
#[test]
fn versions_installed_or_removed_under_a_running_server_are_seen() {
    let (built, _) = crate::release::two_versions();
    let v350 = built.join("built/my-design@3.5.0");
    let store = tempfile::tempdir().unwrap();
    let cli = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_mydesign-docs"))
            .args(args)
            .env("MYDESIGN_DOCS_HOME", store.path())
            .output()
            .unwrap();
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    };
    cli(&["install", arg(&sample_dir())]);
    let mut c = Client::start(&["--bundles", arg(store.path())]);
    let (_, s) = c.ok("list_components", json!({}));
    assert_eq!(s["version"], "3.4.0");
    cli(&["install", arg(&v350)]);
    let (text, s) = c.ok("list_components", json!({}));
    assert_eq!(s["version"], "3.5.0", "{text:.200}");
    let e = c.lookup_error("list_components", json!({"version": "9.9.9"}));
    assert!(e.ends_with("available: 3.4.0, 3.5.0"), "{e}");
    let (_, s) = c.ok("component_changes", json!({"component": "tag", "from": "3.4.0"}));
    assert_eq!(
        (s["to"].as_str(), s["total_props"].as_u64()),
        (Some("3.5.0"), Some(4)),
        "3 in the document, 1 in TypeScript only"
    );
    cli(&["remove", "my-design@3.5.0"]);
    let (_, s) = c.ok("list_components", json!({}));
    assert_eq!(s["version"], "3.4.0");
    let e = c.lookup_error("get_code_block", json!({"component": "table", "index": 1, "version": "3.5.0"}));
    assert!(e.ends_with("available: 3.4.0"), "{e}");
}

#[test]
fn malformed_arguments_are_tool_errors_and_the_server_keeps_running() {
    let dir = sample_dir();
    let mut c = Client::start(&["--bundles", arg(&dir)]);
    let index = "get_code_block: invalid argument `index`: expected an integer from 1 to 4294967295 (1-based, as in \
                 the placeholders); got";
    let page = "get_changelog: invalid argument `page`: expected an integer from 1 to 4294967295 (Default 1); got";
    for (tool, args, expected) in [
        ("get_code_block", json!({"component": "table", "index": 0}), format!("{index} 0")),
        ("get_code_block", json!({"component": "table", "index": -1}), format!("{index} -1")),
        ("get_code_block", json!({"component": "table", "index": 1.5}), format!("{index} 1.5")),
        ("get_code_block", json!({"component": "table", "index": "3"}), format!("{index} \"3\"")),
        ("get_code_block", json!({"component": "table", "index": 4294967296u64}), format!("{index} 4294967296")),
        (
            "get_code_block",
            json!({"index": 3}),
            "get_code_block: missing argument `component`: expected a string (Component name)".into(),
        ),
        ("get_changelog", json!({"page": 0}), format!("{page} 0")),
        ("get_changelog", json!({"page": -4}), format!("{page} -4")),
        (
            "component_details",
            json!({"component": ["table"]}),
            "component_details: invalid argument `component`: expected a string (Name (any spelling) or \
             changelog-N); got [\"table\"]"
                .into(),
        ),
        (
            "get_file_code",
            json!({"path": "src/components/Table/Table.tsx", "full": "yes"}),
            "get_file_code: invalid argument `full`: expected true or false (Not the skeleton); got \"yes\"".into(),
        ),
        (
            "component_details",
            json!({"component": "table", "detail": "everything"}),
            "component_details: invalid argument `detail`: expected one of \"brief\", \"normal\", \"full\" (brief: \
             card with sizes; normal (default)); got \"everything\""
                .into(),
        ),
        (
            "list_components",
            json!({"language": "en-US"}),
            "list_components: unknown argument `language`: the arguments are component, components, cursor, kind, lang, max_tokens, system, version"
                .into(),
        ),
        (
            "search_docs",
            json!({"query": "table", "kind": "widget"}),
            "invalid argument `kind`: \"widget\" is not doc, code, function, changelog, props, token or token-for".into(),
        ),
    ] {
        let message = c.lookup_error(tool, args.clone());
        assert_eq!(message, expected, "{tool} {args}");
        // Still serving after each one.
        c.ok("get_code_block", json!({"component": "table", "index": 1}));
    }
    // No `arguments` at all for a tool with a required one.
    let r = c.request("tools/call", json!({"name": "get_file_code"}));
    assert_eq!(r["result"]["isError"], true, "{r}");
    assert!(r["result"]["content"][0]["text"].as_str().unwrap().contains("missing argument `path`"), "{r}");
    // An unknown tool stays a protocol error, naming the tools.
    let message = c.invalid_params("no_such_tool", json!({}));
    assert!(message.contains("unknown tool `no_such_tool`") && message.contains("list_components"), "{message}");
    // An unknown method is the protocol's own error naming the methods there are, and the session goes on.
    let r = c.request("no/such/method", json!({}));
    assert_eq!(r["error"]["code"], -32601, "{r}");
    assert_eq!(
        r["error"]["message"],
        "method not found: `no/such/method`; this server answers initialize, ping, tools/list, tools/call, \
         resources/list, resources/templates/list, resources/read",
        "{r}"
    );
    c.ok("list_components", json!({}));
}

/// A new user's trial: over HTTP, `tools/call` with `"arguments": "str"` got a bare `-32601 "tools/call"` where
/// stdio answered an `isError` result; a call with no `params` or a `name` that is no string got the same. Both
/// transports now run one pre-check (`serve::precheck`) and answer each exactly the same way.
#[test]
fn ill_shaped_tool_calls_get_the_same_answer_over_stdio_and_http() {
    let tools = "component_changes, component_details, get_changelog, get_code_block, get_file_code, \
                 get_function_code, list_components, search_docs";
    let cases = [
        (
            json!({"jsonrpc": "2.0", "id": 41, "method": "tools/call", "params": {"name": "get_code_block", "arguments": "str"}}),
            200,
            json!({"jsonrpc": "2.0", "id": 41, "result": {"isError": true, "content": [{"type": "text", "text":
                "get_code_block: invalid arguments: `arguments` must be an object of named arguments, e.g. \
                 {\"component\": \"table\"}; got \"str\""}]}}),
        ),
        (
            json!({"jsonrpc": "2.0", "id": 42, "method": "tools/call"}),
            400,
            json!({"jsonrpc": "2.0", "id": 42, "error": {"code": INVALID_PARAMS, "message": format!(
                "invalid params: tools/call needs `params` with the tool's `name`, e.g. {{\"name\": \
                 \"list_components\", \"arguments\": {{}}}}; tools: {tools}")}}),
        ),
        (
            json!({"jsonrpc": "2.0", "id": 43, "method": "tools/call", "params": {"name": 5, "arguments": {}}}),
            400,
            json!({"jsonrpc": "2.0", "id": 43, "error": {"code": INVALID_PARAMS, "message": format!(
                "invalid params: `name` must be a tool name (a string), got 5; tools: {tools}")}}),
        ),
        // TRIAL item 26: an unknown method names itself and the methods there are.
        (
            json!({"jsonrpc": "2.0", "id": 44, "method": "nosuch"}),
            400,
            json!({"jsonrpc": "2.0", "id": 44, "error": {"code": -32601, "message":
                "method not found: `nosuch`; this server answers initialize, ping, tools/list, tools/call, \
                 resources/list, resources/templates/list, resources/read"}}),
        ),
    ];
    let dir = sample_dir();
    let mut stdio = Client::start(&["--bundles", arg(&dir)]);
    let server = HttpServer::start("0", &["--bundles", arg(&dir)]);
    let mut http = HttpSession::start(server.authority());
    for (message, status, expected) in &cases {
        stdio.send(message);
        assert_eq!(&stdio.next_message(), expected, "stdio: {message}");
        let r = http.post(message, &[]);
        assert_eq!((r.status, &r.message()), (*status, expected), "HTTP: {message}");
        // Both keep serving.
        stdio.ok("list_components", json!({}));
        assert_eq!(http.call("list_components", json!({}))["result"]["isError"], false);
    }
    // Without a session, HTTP answers as for any request without one (rmcp's 400), not with the pre-check.
    let r = HttpSession::connect(server.authority()).post(&cases[0].0, &[]);
    assert_eq!(r.status, 400, "{}", r.body);
    assert!(!r.body.contains("invalid arguments"), "{}", r.body);
}

/// The stdio framing: a line that is not JSON gets the parse error (-32700, id null); a line over 16 MiB gets an
/// error for its id; the session goes on after both.
#[test]
fn stdio_answers_non_json_and_over_long_lines() {
    let dir = sample_dir();
    let mut c = Client::start(&["--bundles", arg(&dir)]);
    writeln!(c.stdin, "this is not JSON").unwrap();
    let r = c.next_message();
    assert_eq!(r["id"], Value::Null, "{r}");
    assert_eq!(r["error"]["code"], -32700, "{r}");
    assert!(r["error"]["message"].as_str().unwrap().starts_with("parse error: the line is not JSON"), "{r}");
    c.ok("list_components", json!({}));
    // 16 MiB + 1 byte of query: never held whole, answered with its id.
    let head =
        r#"{"jsonrpc":"2.0","id":777,"method":"tools/call","params":{"name":"search_docs","arguments":{"query":""#;
    let fill = "a".repeat(mydesign_docs::serve::MAX_LINE_BYTES + 1 - head.len());
    c.stdin.write_all(head.as_bytes()).unwrap();
    c.stdin.write_all(fill.as_bytes()).unwrap();
    writeln!(c.stdin, r#""}}}}"#).unwrap();
    c.stdin.flush().unwrap();
    let r = c.next_message();
    assert_eq!(r["id"], 777, "{r}");
    assert_eq!(r["error"]["code"], -32600, "{r}");
    assert_eq!(r["error"]["message"], "request over 16777216 bytes (16 MiB): not read");
    c.ok("list_components", json!({}));
    // A line exactly at the cap is read (and answered by the tool: here, an unknown argument).
    let head =
        r#"{"jsonrpc":"2.0","id":778,"method":"tools/call","params":{"name":"list_components","arguments":{"x":""#;
    let tail = r#""}}}"#;
    let fill = "b".repeat(mydesign_docs::serve::MAX_LINE_BYTES - head.len() - tail.len());
    writeln!(c.stdin, "{head}{fill}{tail}").unwrap();
    let r = c.next_message();
    assert_eq!(r["id"], 778, "{r}");
    assert_eq!(r["result"]["isError"], true, "{}", &r.to_string()[..200]);
}

#[test]
fn resources_serve_documents_by_uri() {
    let dir = sample_dir();
    let mut c = Client::start(&["--bundles", arg(&dir)]);
    let r = c.request("resources/templates/list", json!({}));
    let templates = r["result"]["resourceTemplates"].as_array().expect("templates");
    assert_eq!(templates.len(), 1);
    assert_eq!(templates[0]["uriTemplate"], "mydesign://{system}/{version}/{component}");
    assert_eq!(templates[0]["mimeType"], "text/markdown");
    let r = c.request("resources/list", json!({}));
    let uris: Vec<&str> =
        r["result"]["resources"].as_array().unwrap().iter().map(|r| r["uri"].as_str().unwrap()).collect();
    assert!(uris.contains(&"mydesign://my-design/3.4.0/table"), "{uris:?}");
    assert!(!uris.iter().any(|u| u.ends_with("/spin")), "spin has no document: {uris:?}");
    let (doc, _) = c.ok("component_details", json!({"component": "table"}));
    for uri in ["mydesign://my-design/3.4.0/table", "mydesign://my-design/latest/Table"] {
        let r = c.request("resources/read", json!({"uri": uri}));
        let contents = &r["result"]["contents"][0];
        assert_eq!(contents["text"].as_str(), Some(doc.as_str()), "{uri}");
        assert_eq!(contents["mimeType"], "text/markdown");
    }
    let r = c.request("resources/read", json!({"uri": "mydesign://my-design/3.4.0/tabel"}));
    assert!(r["error"]["message"].as_str().unwrap().contains("did you mean: table"), "{r}");
    let r = c.request("resources/read", json!({"uri": "file:///etc/passwd"}));
    assert_eq!(r["error"]["code"], INVALID_PARAMS, "{r}");
}

#[test]
fn stdout_carries_only_json_rpc_even_with_debug_logs() {
    let dir = sample_dir();
    let mut child = Command::new(env!("CARGO_BIN_EXE_mydesign-docs"))
        .args(["serve", "--bundles", arg(&dir)])
        .env("RUST_LOG", "trace")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let messages = [
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}),
        json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "get_code_block", "arguments": {"component": "table", "index": 0}}}),
        json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "component_details", "arguments": {"component": "table"}}}),
    ];
    for m in &messages {
        writeln!(stdin, "{m}").unwrap();
    }
    drop(stdin); // end of input: the server answers what it has and exits
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8(out.stdout).unwrap();
    let ids: Vec<Value> = stdout
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .map(|m| m["id"].clone())
        .collect();
    assert_eq!(ids, [json!(1), json!(2), json!(3), json!(4)], "{stdout:.500}");
    assert!(!out.stderr.is_empty(), "logs go to stderr");
}

/// stdin and stdout that are files, not pipes, are served through tokio's stdio (pipes go through the event loop:
/// `serve_stdio`): the call is answered, then the server ends with its input.
#[test]
fn stdio_files_that_are_no_pipes_are_served_too() {
    let dir = sample_dir();
    let tmp = tempfile::tempdir().unwrap();
    let (input, output) = (tmp.path().join("in.jsonl"), tmp.path().join("out.jsonl"));
    let call = |id: u32| json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": "component_details", "arguments": {"component": "table"}}});
    let messages = [
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        call(2),
    ];
    std::fs::write(&input, messages.iter().map(|m| format!("{m}\n")).collect::<String>()).unwrap();
    let status = Command::new(env!("CARGO_BIN_EXE_mydesign-docs"))
        .args(["serve", "--bundles", arg(&dir)])
        .stdin(std::fs::File::open(&input).unwrap())
        .stdout(std::fs::File::create(&output).unwrap())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    let out = std::fs::read_to_string(&output).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out:.500}");
    let answer: Value = serde_json::from_str(lines[1]).unwrap();
    assert_eq!((answer["id"].as_u64(), answer["result"]["isError"].as_bool()), (Some(2), Some(false)), "{out:.500}");
    assert!(answer["result"]["content"][0]["text"].as_str().unwrap().contains("table"));
}

#[test]
fn start_up_errors_say_where_bundles_were_looked_for() {
    let tmp = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_mydesign-docs"))
        .args(["serve", "--bundles"])
        .arg(tmp.path().join("nothing-here"))
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("nothing-here does not exist: --bundles takes a directory of bundle sets"), "{err}");
    assert!(out.stdout.is_empty());
    // No --bundles: ./out, then $XDG_DATA_HOME/mydesign-docs; both named when both are empty.
    let out = Command::new(env!("CARGO_BIN_EXE_mydesign-docs"))
        .arg("serve")
        .current_dir(tmp.path())
        .env("XDG_DATA_HOME", tmp.path().join("data"))
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("out") && err.contains("data/mydesign-docs"), "{err}");
}

#[test]
fn bundles_default_to_out_then_the_user_data_directory() {
    let set = sample_dir();
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data/mydesign-docs");
    std::fs::create_dir_all(&data).unwrap();
    std::os::unix::fs::symlink(&set, data.join("my-design@3.4.0")).unwrap();
    let serve = |cwd: &Path| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_mydesign-docs"));
        c.arg("serve").current_dir(cwd).env("XDG_DATA_HOME", tmp.path().join("data"));
        c
    };
    let instructions = |cmd: &mut Command| {
        let mut child = cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null()).spawn().unwrap();
        let mut stdin = child.stdin.take().unwrap();
        writeln!(stdin, "{}", json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}})).unwrap();
        drop(stdin);
        let out = child.wait_with_output().unwrap();
        let first: Value = serde_json::from_slice(out.stdout.split(|b| *b == b'\n').next().unwrap()).unwrap();
        first["result"]["instructions"].as_str().unwrap().to_string()
    };
    // No ./out: the data directory.
    assert!(instructions(&mut serve(tmp.path())).contains("my-design 3.4.0"));
    // ./out wins when it holds a set.
    let cwd = tmp.path().join("project");
    std::fs::create_dir_all(cwd.join("out")).unwrap();
    let other = build_variant("other-design", "1.0.0");
    std::os::unix::fs::symlink(&other, cwd.join("out/other-design@1.0.0")).unwrap();
    let text = instructions(&mut serve(&cwd));
    assert!(text.contains("other-design 1.0.0") && !text.contains("my-design"), "{text}");
}

/// The sample built again under another system name and version, once per test binary.
fn build_variant(name: &str, version: &str) -> PathBuf {
    use mydesign_docs::compile::{BuildOptions, build};
    use mydesign_docs::config::Config;
    let out = tempfile::tempdir().unwrap().keep();
    let mut config = Config::preset("default").unwrap();
    config.system.name = Some(name.into());
    config.system.version = Some(version.into());
    let report = build(&BuildOptions { repo: common::root().join("corpus"), out, config, progress: false }).unwrap();
    report.dir
}

#[test]
fn several_systems_and_versions_at_once() {
    let v340 = sample_dir();
    let v350 = build_variant("my-design", "3.5.0");
    let other = build_variant("other-design", "1.0.0");
    let mut c = Client::start(&["--bundles", arg(&v340), "--bundles", arg(&v350), "--bundles", arg(&other)]);
    let instructions = c.init["instructions"].as_str().unwrap().to_string();
    assert!(
        instructions.contains("my-design 3.4.0, 3.5.0") && instructions.contains("other-design 1.0.0"),
        "{instructions}"
    );
    // Two systems: a call must name one, and the error lists them.
    let e = c.lookup_error("list_components", json!({}));
    assert!(e.contains("my-design") && e.contains("other-design") && e.contains("system"), "{e}");
    // No version: the highest; every answer says which it served.
    let (text, s) = c.ok("get_code_block", json!({"system": "my-design", "component": "table", "index": 1}));
    assert_eq!(s["version"], "3.5.0");
    assert!(text.starts_with("[my-design 3.5.0 · "));
    let (_, s) =
        c.ok("get_code_block", json!({"system": "my-design", "version": "3.4.0", "component": "table", "index": 1}));
    assert_eq!(s["version"], "3.4.0");
    let (_, s) = c.ok("list_components", json!({"system": "other-design"}));
    assert_eq!((s["system"].as_str(), s["version"].as_str()), (Some("other-design"), Some("1.0.0")));
    let r = c.request("resources/list", json!({}));
    let uris: Vec<&str> =
        r["result"]["resources"].as_array().unwrap().iter().map(|r| r["uri"].as_str().unwrap()).collect();
    assert!(
        uris.contains(&"mydesign://my-design/3.5.0/table") && uris.contains(&"mydesign://other-design/1.0.0/table")
    );
    assert!(!uris.contains(&"mydesign://my-design/3.4.0/table"), "only the highest version is listed");
    let r = c.request("resources/read", json!({"uri": "mydesign://my-design/3.4.0/button"}));
    assert!(r["result"]["contents"][0]["text"].as_str().unwrap().starts_with("[my-design 3.4.0 · button"));
}

/// `mydesign-docs serve --http ADDR ARGS`, killed on drop; `url` is what it printed.
pub(crate) struct HttpServer {
    child: Child,
    url: String,
}

impl HttpServer {
    pub(crate) fn start(addr: &str, args: &[&str]) -> HttpServer {
        let mut child = Command::new(env!("CARGO_BIN_EXE_mydesign-docs"))
            .args(["serve", "--http", addr])
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stderr = BufReader::new(child.stderr.take().unwrap());
        let mut line = String::new();
        let url = loop {
            line.clear();
            assert!(stderr.read_line(&mut line).unwrap() > 0, "server exited before saying where it listens");
            if let Some(url) = line.trim().strip_prefix("serving MCP at ") {
                break url.to_string();
            }
        };
        // Keep draining stderr so the server never blocks on a full pipe.
        std::thread::spawn(move || std::io::copy(&mut stderr, &mut std::io::sink()));
        HttpServer { child, url }
    }

    pub(crate) fn authority(&self) -> &str {
        self.url.trim_start_matches("http://").trim_end_matches("/mcp")
    }

    /// Sends one raw HTTP/1.1 request and returns the status code.
    fn status(&self, method: &str, path: &str, headers: &[(&str, &str)], body: &str) -> u16 {
        let mut stream = TcpStream::connect(self.authority()).unwrap();
        stream.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        let mut req = format!("{method} {path} HTTP/1.1\r\nConnection: close\r\nContent-Length: {}\r\n", body.len());
        if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("host")) {
            req.push_str(&format!("Host: {}\r\n", self.authority()));
        }
        for (k, v) in headers {
            req.push_str(&format!("{k}: {v}\r\n"));
        }
        req.push_str("\r\n");
        req.push_str(body);
        stream.write_all(req.as_bytes()).unwrap();
        let mut status = [0u8; 12];
        stream.read_exact(&mut status).unwrap();
        let line = String::from_utf8_lossy(&status);
        line[9..12].parse().unwrap_or_else(|_| panic!("bad status line {line:?}"))
    }

    fn initialize(&self, extra: &[(&str, &str)]) -> u16 {
        let body = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}).to_string();
        let mut headers = vec![("Content-Type", "application/json"), ("Accept", "application/json, text/event-stream")];
        headers.extend_from_slice(extra);
        self.status("POST", "/mcp", &headers, &body)
    }
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn http_binds_loopback_and_checks_origin_and_host() {
    let dir = sample_dir();
    let server = HttpServer::start("0", &["--bundles", arg(&dir), "--allow-origin", "https://tools.example.com:*"]);
    assert!(server.url.starts_with("http://127.0.0.1:") && server.url.ends_with("/mcp"), "{}", server.url);
    assert_eq!(server.initialize(&[]), 200, "no Origin: not a browser, accepted");
    assert_eq!(server.initialize(&[("Origin", "http://localhost:5173")]), 200);
    assert_eq!(server.initialize(&[("Origin", "http://127.0.0.1:8080")]), 200);
    assert_eq!(server.initialize(&[("Origin", "https://tools.example.com")]), 200, "--allow-origin");
    assert_eq!(server.initialize(&[("Origin", "http://evil.example")]), 403);
    assert_eq!(server.initialize(&[("Origin", "https://localhost.evil.example")]), 403);
    assert_eq!(server.initialize(&[("Host", "evil.example")]), 403, "DNS rebinding: a foreign Host");
    assert_eq!(server.status("GET", "/", &[], ""), 404);
    assert_eq!(server.status("POST", "/mcp/other", &[], "{}"), 404);
    // Still serving after all of these.
    assert_eq!(server.initialize(&[]), 200);
}

/// The Python interpreter of the virtual environment `.ci/run` installs the `mcp` SDK into (or
/// `$MYDESIGN_MCP_PYTHON`), or `None` with the reason printed.
fn python_with_mcp() -> Option<PathBuf> {
    let python = std::env::var_os("MYDESIGN_MCP_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| common::root().join("target/mcp-venv/bin/python"));
    if !python.exists() {
        common::skip(format_args!(
            "the Python MCP SDK client test: {} not found (`.ci/run` creates it: python3 -m venv target/mcp-venv \
             && target/mcp-venv/bin/pip install mcp)",
            python.display()
        ));
        return None;
    }
    let check = Command::new(&python).args(["-c", "import mcp, jsonschema"]).output().ok()?;
    if !check.status.success() {
        common::skip(format_args!(
            "the Python MCP SDK client test: `import mcp` fails in {}: {}",
            python.display(),
            String::from_utf8_lossy(&check.stderr)
        ));
        return None;
    }
    Some(python)
}

/// Runs tests/it/mcp_client.py (stdio and HTTP, legacy and 2026-07-28 connections) and shows its report.
fn python_client(bundles: &Path, profile: &str) {
    let Some(python) = python_with_mcp() else { return };
    let out = Command::new(python)
        .arg(common::root().join("tests/it/mcp_client.py"))
        .args(["--server", env!("CARGO_BIN_EXE_mydesign-docs"), "--bundles", arg(bundles), "--profile", profile])
        .env("RUST_LOG", "error")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    eprintln!("{stdout}");
    assert!(
        out.status.success(),
        "tests/it/mcp_client.py --profile {profile} failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains(", 0 failed"), "{stdout}");
}

#[test]
fn python_sdk_client_on_the_sample() {
    python_client(&sample_dir(), "sample");
}

#[test]
fn python_sdk_client_on_semi() {
    let Some(semi) = common::semi() else { return };
    python_client(&semi.report.dir, "semi");
}

#[test]
fn semi_values_over_stdio() {
    let Some(semi) = common::semi() else { return };
    let mut c = Client::start(&["--bundles", arg(&semi.report.dir)]);
    assert!(c.init["instructions"].as_str().unwrap().contains("semi 2.90.10"));
    let (text, s) = c.ok("component_details", json!({"component": "table"}));
    assert_eq!(
        (s["lines"].as_u64(), s["code_blocks"].as_u64(), s["lang"].as_str()),
        (Some(6374), Some(53), Some("zh-CN"))
    );
    assert!(text.starts_with("[semi 2.90.10 · table · zh-CN"), "{text:.200}");
    let (_, s) = c.ok("get_code_block", json!({"component": "table", "index": 53}));
    assert_eq!((s["start_line"].as_u64(), s["end_line"].as_u64()), (Some(6333), Some(6336)));
    let e = c.lookup_error("get_code_block", json!({"component": "table", "index": 54}));
    assert_eq!(e, "code block 54 is out of range: `table` (zh-CN) has code blocks 1..53");
    let (text, s) = c.ok("get_changelog", json!({"page": 17}));
    assert_eq!((s["page"].as_u64(), s["pages"].as_u64(), s["total_lines"].as_u64()), (Some(17), Some(17), Some(5069)));
    assert!(text.contains("page 17/17"));
    let e = c.lookup_error("get_changelog", json!({"page": 18}));
    assert_eq!(e, "changelog page 18 is out of range: the zh-CN changelog has pages 1..17");
    let (_, s) = c.ok("get_changelog", json!({"page": 18, "lang": "en-US"}));
    assert_eq!((s["pages"].as_u64(), s["total_lines"].as_u64()), (Some(18), Some(5211)));
    let (_, s) = c.ok("component_details", json!({"component": "changelog-17"}));
    assert_eq!(s["page"], 17);
    let (_, s) = c.ok("get_code_block", json!({"component": "table", "index": 50, "lang": "en-US"}));
    assert_eq!(s["count"], 50);
    for (component, blocks) in [("form", 51), ("button", 18), ("checkbox", 13)] {
        let (_, s) = c.ok("component_details", json!({"component": component}));
        assert_eq!(s["code_blocks"], blocks, "{component}");
    }
    let path = "packages/semi-foundation/table/foundation.ts";
    let (_, s) = c.ok("get_file_code", json!({"path": path}));
    assert_eq!((s["skeleton"].as_bool(), s["file"]["lines"].as_u64()), (Some(true), Some(1286)));
    let (_, s) = c.ok("get_function_code", json!({"path": path, "function": "TableFoundation.init"}));
    assert_eq!(s["qualified"], "TableFoundation.init");
    let (_, s) = c.ok("list_components", json!({"component": "Table"}));
    assert!(s["files"].as_array().unwrap().iter().any(|f| f["path"] == path));
    let e = c.lookup_error("component_details", json!({"component": "Tabel"}));
    assert!(e.starts_with("unknown component `Tabel` in semi 2.90.10; did you mean: table"), "{e}");
    let e = c.lookup_error("get_file_code", json!({"path": "../../etc/passwd"}));
    assert!(e.starts_with("no file `../../etc/passwd` in semi 2.90.10"), "{e}");
    let (_, s) = c.ok("list_components", json!({}));
    assert!(s["components"].as_array().unwrap().len() >= 101);
    for _ in 0..100 {
        c.ok("get_code_block", json!({"component": "table", "index": 53}));
    }
}

/// The MCP Inspector CLI `.ci/run` installs with npm into `target/mcp-inspector`, or `None` with the reason printed.
fn inspector() -> Option<PathBuf> {
    let bin = common::root().join("target/mcp-inspector/node_modules/.bin/mcp-inspector");
    if bin.exists() {
        Some(bin)
    } else {
        common::skip(format_args!(
            "the MCP Inspector CLI test: {} not found (`.ci/run` installs it: npm install --prefix \
             target/mcp-inspector @modelcontextprotocol/inspector)",
            bin.display()
        ));
        None
    }
}

/// Runs the Inspector CLI and parses the JSON it prints; it exits non-zero when the result is an error, so that must
/// match what the JSON says.
fn inspect(inspector: &Path, args: &[&str]) -> Value {
    let out = Command::new(inspector).arg("--cli").args(args).env("RUST_LOG", "error").output().unwrap();
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    // A result on stdout; a protocol error as the last line of stderr.
    let json =
        if stdout.trim().is_empty() { stderr.lines().rfind(|l| l.starts_with('{')).unwrap_or("") } else { &stdout };
    let v: Value = serde_json::from_str(json)
        .unwrap_or_else(|e| panic!("inspector {args:?} printed no JSON ({e}): {stdout}\n{stderr}"));
    let failed = v["isError"] == true || v["error"].is_object();
    assert_eq!(out.status.success(), !failed, "inspector {args:?}: {stdout}\n{stderr}");
    v
}

#[test]
fn mcp_inspector_cli_over_stdio_and_http() {
    let Some(inspector) = inspector() else { return };
    let dir = sample_dir();
    let bin = env!("CARGO_BIN_EXE_mydesign-docs");
    // --strict: the Inspector's tool-schema portability checks fail the run on any error-severity problem.
    let list = inspect(&inspector, &["--strict", bin, "serve", "--bundles", arg(&dir), "--method", "tools/list"]);
    assert_eq!(list["tools"].as_array().map(Vec::len), Some(8), "{list}");
    let call = |target: &[&str], tool: &str, tool_args: &[&str]| {
        let mut args: Vec<&str> = target.to_vec();
        args.extend(["--method", "tools/call", "--tool-name", tool, "--tool-arg"]);
        args.extend(tool_args);
        inspect(&inspector, &args)
    };
    let stdio = [bin, "serve", "--bundles", arg(&dir)];
    let r = call(&stdio, "get_code_block", &["component=table", "index=33"]);
    assert_eq!((r["structuredContent"]["index"].as_u64(), r["isError"].as_bool()), (Some(33), Some(false)), "{r}");
    let r = call(&stdio, "get_code_block", &["component=table", "index=34"]);
    assert_eq!(r["isError"], true, "{r}");
    let r = call(&stdio, "get_code_block", &["component=table", "index=0"]);
    // An out-of-range argument is a tool error the model can read (SEP-1303), not a JSON-RPC error.
    assert_eq!(r["isError"], true, "{r}");
    assert!(r["content"][0]["text"].as_str().is_some_and(|t| t.contains("1-based")), "{r}");
    let server = HttpServer::start("0", &["--bundles", arg(&dir)]);
    let r = call(&[server.url.as_str()], "get_changelog", &["page=6"]);
    assert_eq!(
        (r["structuredContent"]["page"].as_u64(), r["structuredContent"]["next"].as_u64()),
        (Some(6), None),
        "{r}"
    );
    let read = inspect(
        &inspector,
        &[&server.url, "--method", "resources/read", "--uri", "mydesign://my-design/latest/button"],
    );
    assert!(read["contents"][0]["text"].as_str().unwrap().starts_with("[my-design 3.4.0 · button"), "{read}");
}

#[test]
fn http_refuses_duplicate_origins_and_non_json_bodies() {
    let dir = sample_dir();
    let server = HttpServer::start("localhost:0", &["--bundles", arg(&dir)]);
    assert!(server.url.starts_with("http://127.0.0.1:"), "localhost binds loopback: {}", server.url);
    let ok = ("Origin", "http://localhost:5173");
    assert_eq!(server.initialize(&[ok]), 200);
    assert_eq!(
        server.initialize(&[ok, ("Origin", "http://evil.example")]),
        403,
        "a second Origin after an allowed one"
    );
    assert_eq!(server.initialize(&[ok, ok]), 403, "even the same one twice");
    let mut s = HttpSession::connect(server.authority());
    let r = s.raw_post(b"{\"jsonrpc\": \"2.0\", \"id\": 1, ", &[]);
    assert_eq!(r.status, 400, "{}", r.body);
    let m = r.message();
    assert_eq!(m["error"]["code"], -32700, "{m}");
    assert_eq!(m["id"], Value::Null, "{m}");
    assert!(m["error"]["message"].as_str().unwrap().starts_with("parse error: the body is not JSON"), "{m}");
    // The same connection and the server go on.
    let mut s = HttpSession::start(server.authority());
    let r = s.call("list_components", json!({}));
    assert_eq!(r["result"]["isError"], false, "{r}");
    let r = s.call("get_code_block", json!({"component": "table", "index": 0}));
    assert_eq!(r["result"]["isError"], true, "invalid arguments are tool errors over HTTP too: {r}");
}

#[test]
fn http_caps_live_sessions() {
    let dir = sample_dir();
    let server = HttpServer::start("0", &["--bundles", arg(&dir), "--max-sessions", "2", "--session-idle-secs", "600"]);
    // A request without a session that is not `initialize`: refused the same way whether the cap is full or not
    // (a new user's trial: 503 when full), since it would open no session.
    let list = json!({"jsonrpc": "2.0", "id": 5, "method": "tools/list"});
    let not_full = HttpSession::connect(server.authority()).post(&list, &[]);
    assert_eq!(not_full.status, 400, "{}", not_full.body);
    let mut a = HttpSession::start(server.authority());
    let _b = HttpSession::start(server.authority());
    let full = HttpSession::connect(server.authority()).post(&list, &[]);
    assert_eq!((full.status, full.body.as_str()), (not_full.status, not_full.body.as_str()));
    let mut c = HttpSession::connect(server.authority());
    let r = c.initialize();
    assert_eq!(r.status, 503, "{}", r.body);
    assert_eq!(r.header("retry-after"), Some("10"), "only a new session is refused, with when to retry");
    let m = r.message();
    assert_eq!(
        m["error"]["message"],
        "too many MCP sessions: 2 are open and the server's cap is 2 (serve --max-sessions); close unused sessions \
         (HTTP DELETE) or retry when idle ones expire"
    );
    // Open sessions keep working; closing one frees a place.
    assert_eq!(a.call("list_components", json!({}))["result"]["isError"], false);
    let id = a.session.clone().unwrap();
    assert_eq!(server.status("DELETE", "/mcp", &[("Mcp-Session-Id", &id)], ""), 200);
    let mut c = HttpSession::start(server.authority());
    assert_eq!(c.call("list_components", json!({}))["result"]["isError"], false);
}

#[test]
fn http_idle_sessions_expire() {
    let dir = sample_dir();
    let server = HttpServer::start("0", &["--bundles", arg(&dir), "--max-sessions", "1", "--session-idle-secs", "1"]);
    let mut a = HttpSession::start(server.authority());
    assert_eq!(a.call("list_components", json!({}))["result"]["isError"], false);
    assert_eq!(HttpSession::connect(server.authority()).initialize().status, 503, "the one place is taken");
    // Bounded wait: the idle session is closed after 1 s.
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let status = HttpSession::connect(server.authority()).initialize().status;
        if status == 200 {
            break;
        }
        assert!(Instant::now() < deadline, "the idle session was not closed within 10 s");
        std::thread::sleep(Duration::from_millis(200));
    }
}

#[test]
fn http_port_in_use_is_said_once() {
    let dir = sample_dir();
    let first = HttpServer::start("0", &["--bundles", arg(&dir)]);
    let out = Command::new(env!("CARGO_BIN_EXE_mydesign-docs"))
        .args(["serve", "--bundles", arg(&dir), "--http", first.authority()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    let error = stderr.lines().find(|l| l.starts_with("error:")).unwrap_or_else(|| panic!("{stderr}"));
    assert_eq!(error.matches("Address already in use").count(), 1, "{error}");
    assert!(error.contains(&format!("cannot listen on {}", first.authority())), "{error}");
}

/// TCP_NODELAY: sequential calls on one keep-alive connection answer in well under the ~40 ms of a delayed ACK.
#[test]
fn http_sequential_calls_are_fast() {
    let dir = sample_dir();
    let server = HttpServer::start("0", &["--bundles", arg(&dir)]);
    let mut s = HttpSession::start(server.authority());
    let mut times = Vec::new();
    for _ in 0..200 {
        let t = Instant::now();
        let r = s.call("get_code_block", json!({"component": "table", "index": 1}));
        times.push(t.elapsed());
        assert_eq!(r["result"]["isError"], false, "{r}");
    }
    times.sort();
    let (p50, p99) = (percentile(&times, 50), percentile(&times, 99));
    eprintln!("HTTP, 200 sequential calls on one connection: p50 {p50:?}, p99 {p99:?}");
    assert!(p50 < Duration::from_millis(5), "p50 {p50:?}: TCP_NODELAY missing?");
}

/// The CI-sized load test: 2,000 calls from 16 concurrent sessions over loopback, 0 errors.
#[test]
fn http_load_2000_calls_at_16() {
    let dir = sample_dir();
    let server = HttpServer::start("0", &["--bundles", arg(&dir)]);
    let (calls, clients) = (2_000, 16);
    let (mut times, wall) = load(server.authority(), calls, clients);
    assert_eq!(times.len(), calls, "every call answered, 0 errors");
    times.sort();
    eprintln!(
        "HTTP load: {calls} calls at concurrency {clients} in {wall:?}: p50 {:?}, p99 {:?}",
        percentile(&times, 50),
        percentile(&times, 99)
    );
}

/// A server over the sample whose tool `get_changelog` and resource reads of `…/button` panic (the test-only
/// fault hook), to show that a panic is answered and the server keeps serving.
fn panicking_server() -> mydesign_docs::serve::DocsServer {
    let library = std::sync::Arc::new(mydesign_docs::serve::open_library(&[sample_dir()]).expect("sample"));
    mydesign_docs::serve::DocsServer::new(library).with_fault_hook(std::sync::Arc::new(|what: &str| {
        if what == "get_changelog" || what.ends_with("/button") {
            panic!("injected fault in {what}");
        }
    }))
}

/// A runtime as `serve` builds (one thread).
pub(crate) fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap()
}

const PANIC_ANSWER: &str = "internal error in tool get_changelog: injected fault in get_changelog. This is a bug in \
                            mydesign-docs";

#[test]
fn a_panic_is_answered_over_stdio() {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt};
    let rt = runtime();
    let (client, server_side) = tokio::io::duplex(1 << 20);
    let (read, write) = tokio::io::split(server_side);
    let served = rt.spawn(mydesign_docs::serve::serve_io(panicking_server(), read, write));
    let (read, mut write) = tokio::io::split(client);
    let mut read = tokio::io::BufReader::new(read);
    let mut exchange = |msg: Value| -> Option<Value> {
        rt.block_on(async {
            write.write_all(format!("{msg}\n").as_bytes()).await.unwrap();
            // A notification gets no answer.
            msg.get("id")?;
            let mut line = String::new();
            let read_one = read.read_line(&mut line);
            tokio::time::timeout(Duration::from_secs(30), read_one).await.expect("answered").unwrap();
            Some(serde_json::from_str(&line).unwrap())
        })
    };
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}});
    assert!(exchange(init).unwrap()["result"].is_object());
    exchange(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    let call = |id: u64, name: &str| json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": name, "arguments": {}}});
    for id in 2..5 {
        let r = exchange(call(id, "get_changelog")).unwrap();
        assert_eq!(r["id"], id);
        assert_eq!(r["result"]["isError"], true, "{r}");
        let text = r["result"]["content"][0]["text"].as_str().unwrap();
        assert!(text.starts_with(PANIC_ANSWER), "{text}");
        let r = exchange(call(id + 100, "list_components")).unwrap();
        assert_eq!(r["result"]["isError"], false, "still serving: {r}");
    }
    let r = exchange(json!({"jsonrpc": "2.0", "id": 9, "method": "resources/read", "params": {"uri": "mydesign://my-design/latest/button"}})).unwrap();
    assert_eq!(r["id"], 9);
    assert!(r["error"]["message"].as_str().unwrap().starts_with("internal error in resource"), "{r}");
    rt.block_on(write.shutdown()).unwrap();
    rt.block_on(async { tokio::time::timeout(Duration::from_secs(10), served).await })
        .expect("the session ends with its input")
        .unwrap()
        .expect("clean end");
}

#[test]
fn a_panic_is_answered_over_http() {
    let rt = runtime();
    let options = mydesign_docs::serve::HttpOptions::new("127.0.0.1:0".parse().unwrap());
    let listener = rt.block_on(mydesign_docs::serve::bind_http(options)).unwrap();
    let authority = listener.local_addr().to_string();
    // The server's runtime has one thread, as `serve --http`'s: driven here while this thread is the client.
    std::thread::spawn(move || rt.block_on(listener.serve(panicking_server())));
    let mut s = HttpSession::start(&authority);
    for _ in 0..3 {
        let start = Instant::now();
        let r = s.call("get_changelog", json!({}));
        assert!(start.elapsed() < Duration::from_secs(5), "answered at once, not at the stream's timeout");
        assert_eq!(r["result"]["isError"], true, "{r}");
        assert!(r["result"]["content"][0]["text"].as_str().unwrap().starts_with(PANIC_ANSWER), "{r}");
        assert_eq!(s.call("list_components", json!({}))["result"]["isError"], false, "still serving");
    }
}

/// Issue 13, item 1: bundles truncated and rewritten in place (as `cp` over a set or `rsync --inplace` do) under a
/// running server. With a memory map this killed the server by SIGBUS; every call must now be answered (an answer
/// or a tool error) and the server must keep serving once the files are whole again.
#[test]
fn bundles_rewritten_in_place_under_the_server_never_kill_it() {
    let src = sample_dir();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join(src.file_name().unwrap());
    std::fs::create_dir_all(&dir).unwrap();
    for e in std::fs::read_dir(&src).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), dir.join(e.file_name())).unwrap();
    }
    let victims: Vec<(PathBuf, Vec<u8>)> = ["table.bundle", "button.bundle", "search.bundle"]
        .iter()
        .map(|f| (dir.join(f), std::fs::read(dir.join(f)).unwrap()))
        .collect();
    let mut c = Client::start(&["--bundles", arg(&dir)]);
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let writer = {
        let (stop, victims) = (stop.clone(), victims.clone());
        std::thread::spawn(move || {
            let mut rounds = 0u32;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                for (path, good) in &victims {
                    // In place: same inode, like `cp` over an existing file.
                    let mut f = std::fs::OpenOptions::new().write(true).open(path).unwrap();
                    match rounds % 4 {
                        0 => f.set_len(good.len() as u64 / 3).unwrap(),
                        1 => f.set_len(0).unwrap(),
                        2 => {
                            let garbage: Vec<u8> = good.iter().map(|b| b ^ 0x5a).collect();
                            f.write_all(&garbage).unwrap();
                        }
                        _ => {
                            f.set_len(0).unwrap();
                            f.write_all(good).unwrap();
                        }
                    }
                }
                rounds += 1;
                std::thread::sleep(Duration::from_micros(200));
            }
            for (path, good) in &victims {
                let mut f = std::fs::OpenOptions::new().write(true).open(path).unwrap();
                f.set_len(0).unwrap();
                f.write_all(good).unwrap();
            }
            rounds
        })
    };
    let calls = [
        ("component_details", json!({"component": "table", "detail": "full"})),
        ("get_code_block", json!({"component": "button", "index": 1})),
        ("get_file_code", json!({"path": "src/components/Table/Table.tsx"})),
        ("search", json!({"query": "table row selection"})),
        ("component_details", json!({"component": "button"})),
    ];
    let (mut answers, mut errors) = (0, 0);
    for i in 0..400 {
        let (tool, args) = &calls[i % calls.len()];
        let r = c.call(tool, args.clone());
        if r["result"]["isError"] == false {
            answers += 1;
        } else {
            assert!(r["result"]["isError"] == true || r["error"].is_object(), "{r}");
            errors += 1;
        }
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let rounds = writer.join().unwrap();
    eprintln!("400 calls during {rounds} in-place rewrite rounds: {answers} answers, {errors} errors, 0 deaths");
    assert_eq!(answers + errors, 400);
    assert!(c.child.try_wait().unwrap().is_none(), "the server died");
    // Whole again: the same server answers.
    let (text, _) = c.ok("get_code_block", json!({"component": "button", "index": 1}));
    assert!(text.contains("button"), "{text}");
}

/// A document whose every part names generation `n`: title, brief, first and last line; `n % 7 + 1` filler lines,
/// so the line count in each answer's header says which generation its metadata came from.
fn generation_doc(n: u32) -> String {
    let filler = "Filler line.\n".repeat((n % 7 + 1) as usize);
    format!(
        "---\ntitle: Gen {n}\nbrief: Generation {n} brief.\n---\n\n## Usage\n\nGeneration {n} starts.\n\n{filler}\nGeneration {n} ends.\n"
    )
}

/// The generation numbers an answer names, and the line count of its header (`· N lines ·`).
fn generations_in(text: &str) -> (Vec<u32>, Option<u32>) {
    let marks = text
        .split("Generation ")
        .skip(1)
        .filter_map(|rest| rest.split(|c: char| !c.is_ascii_digit()).next()?.parse().ok())
        .collect();
    let header = text.lines().next().unwrap_or("");
    let lines = header.split(" · ").find_map(|p| p.strip_suffix(" lines")?.replace(',', "").parse().ok());
    (marks, lines)
}

/// Issue 13, item 4: rebuilds publish generations; a server and a CLI reading during a loop of rebuilds never mix
/// two builds in one answer, never fail, and move to the new generation without a restart.
#[test]
fn rebuilds_under_a_server_and_a_cli_give_consistent_answers() {
    let repo = tempfile::tempdir().unwrap();
    let r = repo.path();
    let write = |rel: &str, text: &str| {
        let p = r.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    };
    write("package.json", r#"{"name": "gens", "version": "1.0.0"}"#);
    write("docs/good/index.md", &generation_doc(0));
    let out = tempfile::tempdir().unwrap();
    let o = out.path().to_path_buf();
    let build = |r: &Path, o: &Path| {
        let config = mydesign_docs::config::Config::preset("default").unwrap();
        let options = mydesign_docs::compile::BuildOptions {
            repo: r.to_path_buf(),
            out: o.to_path_buf(),
            config,
            progress: false,
        };
        mydesign_docs::compile::build(&options).unwrap()
    };
    build(r, &o);
    let mut c = Client::start(&["--bundles", arg(&o)]);
    let rebuilds = 12u32;
    let builder = {
        let (r, o) = (r.to_path_buf(), o.clone());
        std::thread::spawn(move || {
            for n in 1..=rebuilds {
                std::fs::write(r.join("docs/good/index.md"), generation_doc(n)).unwrap();
                build(&r, &o);
            }
        })
    };
    let check = |text: &str, seen: &mut Vec<u32>, offset: &mut Option<i64>| {
        let (marks, lines) = generations_in(text);
        assert!(marks.len() >= 3, "{text}");
        assert!(marks.iter().all(|m| *m == marks[0]), "two generations in one answer: {marks:?}\n{text}");
        let n = marks[0];
        let lines = i64::from(lines.unwrap_or_else(|| panic!("no line count: {text}")));
        let base = lines - i64::from(n % 7 + 1);
        assert_eq!(*offset.get_or_insert(base), base, "header lines of another generation than the text (gen {n})");
        seen.push(n);
    };
    let (mut seen, mut offset, mut checked) = (Vec::new(), None, 0u32);
    while !builder.is_finished() {
        let (text, _) = c.ok("component_details", json!({"component": "good", "detail": "full"}));
        check(&text, &mut seen, &mut offset);
        checked += 1;
        if checked % 4 == 0 {
            let text = common::ok(&o, &["doc", "good", "--detail", "full", "--bundles", arg(&o)]);
            check(&text, &mut seen, &mut offset);
            checked += 1;
        }
    }
    builder.join().unwrap();
    let (text, _) = c.ok("component_details", json!({"component": "good", "detail": "full"}));
    check(&text, &mut seen, &mut offset);
    checked += 1;
    let last = *seen.last().unwrap();
    let mut distinct = seen.clone();
    distinct.dedup();
    eprintln!("{checked} answers checked over {rebuilds} rebuilds, 0 errors; generations answered from: {distinct:?}");
    assert_eq!(last, rebuilds, "the server did not move to the last generation");
    assert!(seen.windows(2).all(|w| w[0] <= w[1]), "went back to an older generation: {seen:?}");
    let gens = std::fs::read_dir(&o)
        .unwrap()
        .filter(|e| e.as_ref().unwrap().file_name().to_string_lossy().contains(".gen-"))
        .count();
    assert!(gens <= 2, "{gens} generations kept");
}

/// Kept answers (`serve::answers`) are per tool and arguments: a repeated call gets the same answer, other
/// arguments their own, and an error is never kept in place of an answer.
#[test]
fn repeated_calls_get_the_same_answer_and_other_arguments_their_own() {
    let dir = sample_dir();
    let mut c = Client::start(&["--bundles", arg(&dir)]);
    let (full, _) = c.ok("component_details", json!({"component": "table"}));
    let (brief, _) = c.ok("component_details", json!({"component": "table", "detail": "brief"}));
    let (tabs, _) = c.ok("component_details", json!({"component": "tabs"}));
    assert_ne!(full, brief);
    assert_ne!(full, tabs);
    assert!(tabs.contains("tabs"), "{tabs}");
    for _ in 0..3 {
        assert_eq!(c.ok("component_details", json!({"component": "table"})).0, full);
        assert_eq!(c.ok("component_details", json!({"component": "table", "detail": "brief"})).0, brief);
    }
    let r = c.call("component_details", json!({"component": "tabel"}));
    assert_eq!(r["result"]["isError"], true, "{r}");
    let r = c.call("component_details", json!({"component": "tabel"}));
    assert_eq!(r["result"]["isError"], true, "{r}");
}

/// An in-process stdio session (`serve_io` over a pipe) whose response lines are read raw.
struct RawSession {
    rt: tokio::runtime::Runtime,
    write: tokio::io::WriteHalf<tokio::io::DuplexStream>,
    read: tokio::io::BufReader<tokio::io::ReadHalf<tokio::io::DuplexStream>>,
}

impl RawSession {
    /// Serves `server`, initialized.
    fn start(server: mydesign_docs::serve::DocsServer) -> RawSession {
        let rt = runtime();
        let (client, server_side) = tokio::io::duplex(1 << 20);
        let (read, write) = tokio::io::split(server_side);
        rt.spawn(mydesign_docs::serve::serve_io(server, read, write));
        let (read, write) = tokio::io::split(client);
        let mut s = RawSession { rt, write, read: tokio::io::BufReader::new(read) };
        let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}});
        assert!(s.send(&init.to_string()).contains("\"result\""));
        s.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
        s
    }

    /// Sends one line; returns the answer line (empty for a notification).
    fn send(&mut self, line: &str) -> String {
        use tokio::io::{AsyncBufReadExt, AsyncWriteExt};
        self.rt.block_on(async {
            self.write.write_all(format!("{line}\n").as_bytes()).await.unwrap();
            if !line.contains("\"id\"") {
                return String::new();
            }
            let mut answer = String::new();
            let read_one = self.read.read_line(&mut answer);
            tokio::time::timeout(Duration::from_secs(30), read_one).await.expect("answered").unwrap();
            answer
        })
    }

    /// A `tools/call` of `tool` with `id` (as JSON) and `params` besides the name.
    fn call(&mut self, id: &str, tool: &str, args: &str) -> String {
        self.send(&format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"{tool}","arguments":{args}}}}}"#
        ))
    }
}

/// A server over `dir` counting the calls that reach its tool handler (the fault hook runs first in each).
fn counting_server(dir: &Path) -> (mydesign_docs::serve::DocsServer, std::sync::Arc<std::sync::atomic::AtomicUsize>) {
    let library = std::sync::Arc::new(mydesign_docs::serve::open_library(&[dir.to_path_buf()]).expect("bundles"));
    let handled = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let count = handled.clone();
    let server = mydesign_docs::serve::DocsServer::new(library).with_fault_hook(std::sync::Arc::new(move |_: &str| {
        count.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    }));
    (server, handled)
}

/// The response line without its id: `{"jsonrpc":"2.0","id":` then the id then the rest.
fn after_id<'a>(line: &'a str, id: &str) -> &'a str {
    let head = format!(r#"{{"jsonrpc":"2.0","id":{id},"#);
    line.strip_prefix(&head).unwrap_or_else(|| panic!("not the answer to {id}: {line:.200}"))
}

/// Issue 12 item 4: over stdio, a repeated call is answered with the bytes rmcp wrote the first time, under the
/// new id, without reaching the tool handler; a call with other arguments, with `_meta`, or one answered with an
/// error still reaches it each time.
#[test]
fn repeated_calls_over_stdio_are_replayed_byte_for_byte() {
    use std::sync::atomic::Ordering::SeqCst;
    let (server, handled) = counting_server(&sample_dir());
    let mut s = RawSession::start(server);
    let first = s.call("1", "list_components", "{}");
    assert_eq!(handled.load(SeqCst), 1);
    let rest = after_id(&first, "1");
    assert!(rest.starts_with(r#""result":{"content":[{"type":"text","text":"[my-design 3.4.0"#), "{rest:.200}");
    for id in ["2", r#""a\"b,c""#, "-3", "-9223372036854775808"] {
        let again = s.call(id, "list_components", "{}");
        assert_eq!(after_id(&again, id), rest, "id {id}");
    }
    let table = s.call("7", "list_components", r#"{"component":"table","lang":null}"#);
    assert_eq!(handled.load(SeqCst), 2, "other arguments reach the handler");
    let again = s.call("8", "list_components", r#"{"lang":null,"component":"table"}"#);
    assert_eq!(after_id(&again, "8"), after_id(&table, "7"), "the same arguments in another order");
    assert_eq!(handled.load(SeqCst), 2);
    let meta = s.send(
        r#"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"list_components","arguments":{},"_meta":{"progressToken":1}}}"#,
    );
    assert_eq!(after_id(&meta, "9"), rest);
    assert_eq!(handled.load(SeqCst), 3, "a call with _meta goes to rmcp");
    for id in 10..13 {
        let e = s.call(&id.to_string(), "component_details", r#"{"component":"tabel"}"#);
        assert!(after_id(&e, &id.to_string()).contains(r#""isError":true"#), "{e}");
    }
    assert_eq!(handled.load(SeqCst), 6, "errors are never replayed");
}

/// On Semi, the replayed `list_components` is the 101 components, byte for byte as rmcp wrote them.
#[test]
fn semi_list_components_is_replayed_byte_for_byte() {
    let Some(semi) = common::semi() else { return };
    let (server, handled) = counting_server(&semi.report.dir);
    let mut s = RawSession::start(server);
    let first = s.call("1", "list_components", r#"{"system":"semi"}"#);
    let second = s.call("2", "list_components", r#"{"system":"semi"}"#);
    assert_eq!(after_id(&second, "2"), after_id(&first, "1"));
    assert_eq!(handled.load(std::sync::atomic::Ordering::SeqCst), 1);
    let answer: Value = serde_json::from_str(&second).unwrap();
    let s = &answer["result"]["structuredContent"];
    assert_eq!((s["rows_total"].as_u64(), s["components"].as_array().map(Vec::len)), (Some(101), Some(101)));
}

/// A new user's trial: `resources/list` had no budget (251 resources, 13,629 tokens in one answer, over the
/// server's cap). It is paged under the cap with `nextCursor`, every resource listed once.
#[test]
fn resources_list_is_paged_within_the_cap() {
    let Some(b) = common::semi() else { return };
    let counter = Tiktoken::new("o200k_base");
    let with_docs = b.set.manifest().unwrap().components.iter().filter(|c| !c.docs.is_empty()).count();
    for cap in [None, Some(300), Some(1_000)] {
        let mut args = vec!["--bundles".to_string(), arg(&b.report.dir).to_string()];
        args.extend(cap.map(|n| ["--max-tokens".to_string(), n.to_string()]).into_iter().flatten());
        let mut c = Client::start(&args.iter().map(String::as_str).collect::<Vec<_>>());
        let (mut uris, mut pages, mut cursor) = (Vec::new(), 0, None::<String>);
        loop {
            let params = cursor.as_ref().map_or(json!({}), |c| json!({"cursor": c}));
            let r = c.request("resources/list", params);
            let result = &r["result"];
            let tokens = counter.count(&result.to_string());
            assert!(tokens <= cap.unwrap_or(10_000), "{cap:?}, page {pages}: {tokens} tokens");
            uris.extend(result["resources"].as_array().unwrap().iter().map(|r| r["uri"].as_str().unwrap().to_string()));
            pages += 1;
            match result["nextCursor"].as_str() {
                Some(next) => cursor = Some(next.to_string()),
                None => break,
            }
        }
        let unique: std::collections::BTreeSet<&String> = uris.iter().collect();
        assert_eq!((uris.len(), unique.len()), (with_docs, with_docs), "{cap:?}: every resource once");
        // (Pages are bounded by bytes: Semi's 101 take 2 at the default cap, 5,787 tokens in all.)
        assert!(pages > 1 || cap.is_none(), "{cap:?}: {pages} pages");
        let r = c.request("resources/list", json!({"cursor": "nope"}));
        assert_eq!(r["error"]["code"], INVALID_PARAMS, "{r}");
    }
}

/// Task `trial` finding 5: two JSON-RPC error replies carried `"id": null` where the request's id was knowable: a
/// request line with invalid UTF-8 inside a string (stdio, and an HTTP body), and the 503 at the HTTP session cap.
/// Each echoes the request's id; a line that cannot be read as JSON at all keeps null, as JSON-RPC 2.0 says
/// ("If there was an error in detecting the id ... it MUST be Null").
#[test]
fn json_rpc_errors_echo_the_id_where_it_is_knowable() {
    let dir = sample_dir();
    let mut c = Client::start(&["--bundles", arg(&dir)]);
    let bad = b"{\"jsonrpc\":\"2.0\",\"id\":41,\"method\":\"tools/call\",\"params\":{\"name\":\"search_docs\",\"arguments\":{\"query\":\"\xff\xfe\"}}}\n";
    c.stdin.write_all(bad).unwrap();
    c.stdin.flush().unwrap();
    let r = c.next_message();
    assert_eq!(r["id"], 41, "{r}");
    assert_eq!(r["error"]["code"], -32700, "{r}");
    let message = r["error"]["message"].as_str().unwrap();
    assert!(message.starts_with("parse error: the line is not UTF-8"), "{r}");
    // A string id too; and not JSON at all (bad bytes or not): null.
    c.stdin
        .write_all(b"{\"jsonrpc\":\"2.0\",\"id\":\"q-7\",\"method\":\"ping\",\"params\":{\"x\":\"\xc3\"}}\n")
        .unwrap();
    c.stdin.flush().unwrap();
    assert_eq!(c.next_message()["id"], "q-7");
    c.stdin.write_all(b"\xff\xfe not JSON, \"id\": 9\n").unwrap();
    c.stdin.flush().unwrap();
    let r = c.next_message();
    assert_eq!((r["id"].clone(), r["error"]["code"].clone()), (Value::Null, json!(-32700)), "{r}");
    c.ok("list_components", json!({}));

    let server = HttpServer::start("0", &["--bundles", arg(&dir), "--max-sessions", "1", "--session-idle-secs", "600"]);
    let mut s = HttpSession::start(server.authority());
    let r = s.raw_post(bad.trim_ascii_end(), &[]);
    assert_eq!(r.status, 400, "{}", r.body);
    let m = r.message();
    assert_eq!((m["id"].clone(), m["error"]["code"].clone()), (json!(41), json!(-32700)), "{m}");
    assert!(m["error"]["message"].as_str().unwrap().starts_with("parse error: the body is not UTF-8"), "{m}");
    // The session cap: the refused `initialize`'s id (HttpSession sends 0; here 12).
    let init = json!({"jsonrpc": "2.0", "id": 12, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}});
    let r = HttpSession::connect(server.authority()).post(&init, &[]);
    assert_eq!(r.status, 503, "{}", r.body);
    assert_eq!(r.message()["id"], 12, "{}", r.body);
}

/// Trial 6: a server cap (`serve --max-tokens`) that lowered a call's `max_tokens` said nothing. The answer says
/// so, first in its text and as `max_tokens_capped` in its structured form, and both stay within the cap; a call
/// within the cap gets no note.
#[test]
fn an_answer_whose_max_tokens_the_cap_lowered_says_so_within_the_cap() {
    let dir = sample_dir();
    let counter = Tiktoken::new("o200k_base");
    let mut c = Client::start(&["--bundles", arg(&dir), "--max-tokens", "1000"]);
    let calls = [
        ("component_details", json!({"component": "table", "max_tokens": 5000})),
        ("list_components", json!({"max_tokens": 5000})),
        ("get_file_code", json!({"path": "src/components/Table/Table.tsx", "max_tokens": 5000})),
        ("search_docs", json!({"query": "table row selection", "max_tokens": 5000})),
        ("get_changelog", json!({"max_tokens": 5000})),
    ];
    for (tool, args) in calls {
        let r = c.call(tool, args);
        let result = &r["result"];
        assert_ne!(result["isError"], true, "{tool}: {r}");
        let text = result["content"][0]["text"].as_str().unwrap();
        assert!(
            text.starts_with("[max_tokens 5,000 is over this server's cap of 1,000 tokens: answered within 1,000]\n["),
            "{tool}: {text:.200}"
        );
        let s = &result["structuredContent"];
        assert_eq!(s["max_tokens_capped"], json!({"asked": 5000, "cap": 1000}), "{tool}");
        let (t, j) = (counter.count(text), counter.count(&s.to_string()));
        assert!(t <= 1000 && j <= 1000, "{tool}: text {t}, JSON {j} tokens over the cap of 1,000");
    }
    // Within the cap: no note.
    let r = c.call("component_details", json!({"component": "table", "max_tokens": 900}));
    let text = r["result"]["content"][0]["text"].as_str().unwrap();
    assert!(text.starts_with("[my-design 3.4.0 · table"), "{text:.200}");
    assert!(r["result"]["structuredContent"].get("max_tokens_capped").is_none(), "{r}");
}
