//! `setup --check`: start a configured MCP server the way a client would (its command and arguments, over stdio),
//! shake hands, list its tools, call `list_components`, and stop it (issue 31: a configured server that exits at
//! start was found only when the agent had no tools).
//!
//! Request parameters are rmcp's own model types in a JSON-RPC envelope ([`Request`]), serialized with serde;
//! answers are read with serde into the few fields the probe reports ([`InitializeAnswer`], [`ToolsAnswer`],
//! [`CallAnswer`]). Not rmcp's message enums nor its full result types: their serializers and deserializers cost the
//! reader-only binary ~0.2 MB (issue 14's 6 MB bound) for three requests. The framing is MCP's stdio framing, one
//! JSON-RPC message a line. Not rmcp's client, for the same reason.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use rmcp::model::{CallToolRequestParams, ClientCapabilities, Implementation, InitializeRequestParams};
use serde::{Deserialize, Serialize};

/// A JSON-RPC 2.0 request (with `id`) or notification (without), as MCP's stdio framing carries it.
#[derive(Serialize)]
struct Request<'a, P: Serialize> {
    jsonrpc: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<i64>,
    method: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    params: Option<P>,
}

impl<'a, P: Serialize> Request<'a, P> {
    fn new(id: Option<i64>, method: &'a str, params: Option<P>) -> Self {
        Request { jsonrpc: "2.0", id, method, params }
    }
}

/// The fields of MCP's `InitializeResult` the probe reports.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct InitializeAnswer {
    protocol_version: String,
    server_info: NameVersion,
}

#[derive(Deserialize)]
struct NameVersion {
    name: String,
    version: String,
}

/// The fields of MCP's `ListToolsResult` the probe reports.
#[derive(Deserialize)]
struct ToolsAnswer {
    tools: Vec<ToolName>,
}

#[derive(Deserialize)]
struct ToolName {
    name: String,
}

/// The fields of MCP's `CallToolResult` the probe reports: its content blocks (text ones carry `text`) and
/// `isError`.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct CallAnswer {
    content: Vec<ContentAnswer>,
    #[serde(default)]
    is_error: Option<bool>,
}

#[derive(Deserialize)]
struct ContentAnswer {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    text: Option<String>,
}

/// What a started server said: its name and version, the protocol version agreed, its tools, and the text of its
/// `list_components` answer.
#[derive(Debug)]
pub struct Probe {
    /// `serverInfo.name` and `.version` from the `initialize` result.
    pub server: String,
    /// The protocol version the server answered with.
    pub protocol: String,
    /// The tools' names, as `tools/list` gave them.
    pub tools: Vec<String>,
    /// The text content of `list_components` (the operator's budget applies), or the error text when it was an
    /// `isError` result.
    pub components: Result<String, String>,
}

/// Why a probe failed. Each carries what the server wrote on stderr (its own reason for exiting, most often).
#[derive(Debug, thiserror::Error)]
pub enum ProbeError {
    /// The command could not be started at all (not found, not executable).
    #[error("could not start `{command}`: {reason}")]
    Spawn {
        /// The configured command.
        command: String,
        /// The operating system's reason.
        reason: String,
    },
    /// The server exited, closed stdout, answered with a JSON-RPC error, or sent something that is not the
    /// expected answer.
    #[error("{what}{}", stderr_tail(.stderr))]
    Failed {
        /// What went wrong, in words.
        what: String,
        /// The server's stderr up to that point.
        stderr: String,
    },
    /// No answer within the time allowed.
    #[error("no answer to {request} within {} s{}", .waited.as_secs(), stderr_tail(.stderr))]
    Timeout {
        /// The request that got no answer.
        request: &'static str,
        /// How long the probe waited.
        waited: Duration,
        /// The server's stderr up to that point.
        stderr: String,
    },
}

fn stderr_tail(stderr: &str) -> String {
    let text = stderr.trim();
    if text.is_empty() {
        String::new()
    } else {
        // The last lines are the reason (an error chain ends there); a chatty server's start-up lines are not.
        let lines: Vec<&str> = text.lines().collect();
        let tail = &lines[lines.len().saturating_sub(12)..];
        format!("\nthe server's stderr:\n  {}", tail.join("\n  "))
    }
}

/// A running server under probe: its stdin, the lines of its stdout (read on a thread, so a silent server times
/// out instead of blocking), and its stderr (collected on a thread).
struct Session {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: mpsc::Receiver<String>,
    stderr: mpsc::Receiver<String>,
    stderr_text: String,
    deadline: Duration,
}

impl Session {
    fn stderr(&mut self) -> String {
        while let Ok(chunk) = self.stderr.try_recv() {
            self.stderr_text.push_str(&chunk);
        }
        self.stderr_text.clone()
    }

    fn failed(&mut self, what: impl Into<String>) -> ProbeError {
        // Give an exiting server a moment to finish writing its reason.
        let _ = self.child.try_wait();
        std::thread::sleep(Duration::from_millis(50));
        ProbeError::Failed { what: what.into(), stderr: self.stderr() }
    }

    fn send<P: Serialize>(&mut self, message: &Request<'_, P>) -> Result<(), ProbeError> {
        let mut line = serde_json::to_string(message).map_err(|e| self.failed(format!("encoding a request: {e}")))?;
        line.push('\n');
        let written = match self.stdin.as_mut() {
            Some(stdin) => stdin.write_all(line.as_bytes()).and_then(|()| stdin.flush()),
            None => Ok(()),
        };
        written.map_err(|e| self.failed(format!("the server closed its input ({e}): it exited")))
    }

    /// The `result` of the response to request `id`, skipping notifications and log messages the server sends
    /// meanwhile.
    fn result(&mut self, id: i64, request: &'static str) -> Result<serde_json::Value, ProbeError> {
        let start = Instant::now();
        loop {
            let left = self.deadline.saturating_sub(start.elapsed());
            let line = match self.lines.recv_timeout(left) {
                Ok(line) => line,
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    return Err(ProbeError::Timeout { request, waited: self.deadline, stderr: self.stderr() });
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    let status = self.child.wait().map(|s| s.to_string()).unwrap_or_else(|e| e.to_string());
                    return Err(self.failed(format!("the server exited ({status}) before answering {request}")));
                }
            };
            let message: serde_json::Value = match serde_json::from_str(&line) {
                Ok(value) => value,
                Err(e) => {
                    let shown: String = line.chars().take(200).collect();
                    return Err(self.failed(format!("the server wrote a line that is not JSON ({e}): {shown}")));
                }
            };
            if message.get("id").and_then(serde_json::Value::as_i64) != Some(id) {
                continue;
            }
            if let Some(error) = message.get("error") {
                return Err(self.failed(format!("{request} was answered with an error: {error}")));
            }
            return match message.get("result") {
                Some(result) => Ok(result.clone()),
                None => Err(self.failed(format!("the answer to {request} has neither result nor error"))),
            };
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        // Closing stdin is how an MCP client ends a stdio session; a server that does not stop is killed.
        drop(self.stdin.take());
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(2) {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn typed<T: serde::de::DeserializeOwned>(
    session: &mut Session,
    value: serde_json::Value,
    request: &str,
) -> Result<T, ProbeError> {
    serde_json::from_value(value).map_err(|e| session.failed(format!("the answer to {request} is not MCP's: {e}")))
}

/// Starts `command args…`, probes it as described in the module docs, and stops it. `deadline` bounds each wait
/// for an answer (start-up included in the first).
pub fn probe(command: &str, args: &[String], deadline: Duration) -> Result<Probe, ProbeError> {
    let mut child = Command::new(command)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| ProbeError::Spawn { command: command.to_string(), reason: e.to_string() })?;
    let (line_tx, lines) = mpsc::channel();
    if let Some(stdout) = child.stdout.take() {
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                match line {
                    Ok(line) if line.trim().is_empty() => {}
                    Ok(line) => {
                        if line_tx.send(line).is_err() {
                            return;
                        }
                    }
                    Err(_) => return,
                }
            }
        });
    }
    let (err_tx, stderr) = mpsc::channel();
    if let Some(mut err) = child.stderr.take() {
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = err.read(&mut buf) {
                if n == 0 || err_tx.send(String::from_utf8_lossy(&buf[..n]).into_owned()).is_err() {
                    return;
                }
            }
        });
    }
    let stdin = child.stdin.take();
    let mut session = Session { child, stdin, lines, stderr, stderr_text: String::new(), deadline };

    let client = Implementation::new("mydesign-docs setup --check", env!("CARGO_PKG_VERSION"));
    let init = InitializeRequestParams::new(ClientCapabilities::default(), client);
    session.send(&Request::new(Some(1), "initialize", Some(init)))?;
    let result = session.result(1, "initialize")?;
    let init: InitializeAnswer = typed(&mut session, result, "initialize")?;
    session.send(&Request::<()>::new(None, "notifications/initialized", None))?;

    session.send(&Request::<()>::new(Some(2), "tools/list", None))?;
    let result = session.result(2, "tools/list")?;
    let tools: ToolsAnswer = typed(&mut session, result, "tools/list")?;

    let call = CallToolRequestParams::new("list_components");
    session.send(&Request::new(Some(3), "tools/call", Some(call)))?;
    let result = session.result(3, "tools/call list_components")?;
    let called: CallAnswer = typed(&mut session, result, "tools/call list_components")?;
    let text: Vec<String> =
        called.content.into_iter().filter(|block| block.kind == "text").filter_map(|block| block.text).collect();
    let text = text.join("\n");
    Ok(Probe {
        server: format!("{} {}", init.server_info.name, init.server_info.version),
        protocol: init.protocol_version,
        tools: tools.tools.into_iter().map(|t| t.name).collect(),
        components: if called.is_error == Some(true) { Err(text) } else { Ok(text) },
    })
}
