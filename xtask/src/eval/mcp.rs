//! A minimal MCP client over stdio for the eval's policies: it starts `mydesign-docs serve --bundles DIR`, shakes
//! hands as a client does, and calls tools, one JSON-RPC message a line (MCP's stdio framing).

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use anyhow::{Context, bail};
use serde_json::{Value, json};

/// A running server.
pub struct Server {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    next_id: i64,
}

/// One tool answer: the text content (what the agent reads) and the structured content.
pub struct Answer {
    /// The text blocks of `content`, joined by newlines.
    pub text: String,
    /// `structuredContent`, or `Value::Null`.
    pub structured: Value,
    /// `isError`.
    pub is_error: bool,
}

impl Server {
    /// Starts `bin serve --bundles bundles` and initializes the session.
    pub fn start(bin: &Path, bundles: &Path) -> anyhow::Result<Server> {
        let mut child = Command::new(bin)
            .arg("serve")
            .arg("--bundles")
            .arg(bundles)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .with_context(|| format!("starting {} serve", bin.display()))?;
        let stdin = child.stdin.take().context("no stdin")?;
        let stdout = BufReader::new(child.stdout.take().context("no stdout")?);
        let mut server = Server { child, stdin, stdout, next_id: 1 };
        let init = json!({
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": { "name": "xtask eval", "version": "1" }
        });
        server.request("initialize", init)?;
        server.send(&json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }))?;
        Ok(server)
    }

    fn send(&mut self, message: &Value) -> anyhow::Result<()> {
        let mut line = serde_json::to_string(message)?;
        line.push('\n');
        self.stdin.write_all(line.as_bytes())?;
        self.stdin.flush()?;
        Ok(())
    }

    fn request(&mut self, method: &str, params: Value) -> anyhow::Result<Value> {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }))?;
        let mut line = String::new();
        loop {
            line.clear();
            if self.stdout.read_line(&mut line)? == 0 {
                bail!("the server exited before answering {method}");
            }
            let message: Value = serde_json::from_str(&line).with_context(|| format!("not JSON: {line}"))?;
            if message.get("id").and_then(Value::as_i64) != Some(id) {
                continue;
            }
            if let Some(error) = message.get("error") {
                bail!("{method} answered with an error: {error}");
            }
            return message.get("result").cloned().context("an answer without result");
        }
    }

    /// Calls tool `name` with `arguments` (a JSON object).
    pub fn call(&mut self, name: &str, arguments: Value) -> anyhow::Result<Answer> {
        let result = self.request("tools/call", json!({ "name": name, "arguments": arguments }))?;
        let text: Vec<&str> = result
            .get("content")
            .and_then(Value::as_array)
            .map(|blocks| blocks.iter().filter_map(|b| b.get("text").and_then(Value::as_str)).collect())
            .unwrap_or_default();
        Ok(Answer {
            text: text.join("\n"),
            structured: result.get("structuredContent").cloned().unwrap_or(Value::Null),
            is_error: result.get("isError").and_then(Value::as_bool).unwrap_or(false),
        })
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
