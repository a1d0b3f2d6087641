//! A bare MCP client over `mydesign-docs serve`'s stdio: newline-delimited JSON-RPC, one request at a time. Shared
//! by `tests/it/mcp.rs` and `benches/mcp_timing.rs` (included by path).
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use serde_json::{Value, json};

/// `mydesign-docs serve ARGS` over stdio, the handshake done.
pub struct StdioClient {
    /// The server process, for tests that check it is alive.
    pub child: Child,
    /// The server's stdin, for tests that write raw bytes.
    pub stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    next_id: u64,
    /// Result of `initialize`.
    pub init: Value,
}

impl StdioClient {
    /// Starts `mydesign-docs serve ARGS` and completes the handshake (protocol 2025-06-18).
    pub fn start(args: &[&str]) -> StdioClient {
        let mut child = Command::new(env!("CARGO_BIN_EXE_mydesign-docs"))
            .arg("serve")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn mydesign-docs serve");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = BufReader::new(child.stdout.take().expect("stdout"));
        let mut c = StdioClient { child, stdin, stdout, next_id: 1, init: Value::Null };
        let init = c.request(
            "initialize",
            json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "mcp_stdio", "version": "1"}}),
        );
        c.init = init["result"].clone();
        assert!(c.init.is_object(), "initialize failed: {init}");
        c.notify("notifications/initialized");
        c
    }

    /// Writes one message as a line.
    pub fn send(&mut self, msg: &Value) {
        writeln!(self.stdin, "{msg}").expect("write to server");
        self.stdin.flush().expect("flush");
    }

    /// The next message the server writes, whatever its id.
    pub fn next_message(&mut self) -> Value {
        let line = self.next_line();
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("stdout line is not JSON ({e}): {line:?}"))
    }

    /// The next line the server writes, exactly as written (newline excluded).
    pub fn next_line(&mut self) -> String {
        let mut line = String::new();
        assert!(self.stdout.read_line(&mut line).expect("read from server") > 0, "server closed stdout");
        line.truncate(line.trim_end_matches(['\r', '\n']).len());
        line
    }

    /// A notification (no id, no answer).
    pub fn notify(&mut self, method: &str) {
        self.send(&json!({"jsonrpc": "2.0", "method": method}));
    }

    /// Sends a request and returns the whole response (`result` or `error`). Every line the server writes must be a
    /// JSON-RPC message: stdout carries nothing else.
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let line = self.request_raw(method, params);
        serde_json::from_str(&line).expect("checked by request_raw")
    }

    /// [`StdioClient::request`], returning the response line exactly as the server wrote it (key order and spacing
    /// kept), for tests that measure what is sent.
    pub fn request_raw(&mut self, method: &str, params: Value) -> String {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let line = self.next_line();
            let msg: Value =
                serde_json::from_str(&line).unwrap_or_else(|e| panic!("stdout line is not JSON ({e}): {line:?}"));
            assert_eq!(msg["jsonrpc"], "2.0", "not JSON-RPC: {msg}");
            if msg["id"] == id {
                return line;
            }
        }
    }

    /// `tools/call`; returns the whole response.
    pub fn call(&mut self, tool: &str, args: Value) -> Value {
        self.request("tools/call", json!({"name": tool, "arguments": args}))
    }
}

impl Drop for StdioClient {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
