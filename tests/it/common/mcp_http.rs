//! A bare MCP client over streamable HTTP for the tests and the HTTP load bench (`benches/http_load.rs`): one
//! keep-alive HTTP/1.1 connection, `initialize`, then calls with the session id. Loopback servers only.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

/// One keep-alive HTTP/1.1 connection speaking MCP streamable HTTP: `initialize`, then calls with the session id.
/// Answers may come as JSON or as an SSE stream (chunked); both are read.
pub struct HttpSession {
    pub stream: BufReader<TcpStream>,
    pub authority: String,
    pub session: Option<String>,
    pub next_id: u64,
}

/// An HTTP response as read: status, headers (lower-case names), body.
pub struct HttpResponse {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl HttpResponse {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }

    /// The JSON-RPC message of the body: the body itself, or the last SSE `data:` that is a JSON object.
    pub fn message(&self) -> Value {
        if let Ok(v) = serde_json::from_str::<Value>(&self.body) {
            return v;
        }
        self.body
            .lines()
            .rev()
            .filter_map(|l| l.strip_prefix("data:"))
            .filter_map(|d| serde_json::from_str::<Value>(d.trim()).ok())
            .find(Value::is_object)
            .unwrap_or_else(|| panic!("no JSON-RPC message in the body: {:?}", self.body))
    }
}

impl HttpSession {
    pub fn connect(authority: &str) -> HttpSession {
        let stream = TcpStream::connect(authority).expect("connect");
        stream.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
        HttpSession { stream: BufReader::new(stream), authority: authority.to_string(), session: None, next_id: 1 }
    }

    /// Connects and completes the handshake; panics unless it succeeds.
    pub fn start(authority: &str) -> HttpSession {
        let mut s = HttpSession::connect(authority);
        let r = s.initialize();
        assert_eq!(r.status, 200, "initialize: {}", r.body);
        s.session = Some(r.header("mcp-session-id").expect("session id").to_string());
        let r = s.post(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}), &[]);
        assert_eq!(r.status, 202, "initialized: {}", r.body);
        s
    }

    pub fn initialize(&mut self) -> HttpResponse {
        let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "tests/it/mcp.rs", "version": "1"}}});
        self.post(&init, &[])
    }

    pub fn post(&mut self, body: &Value, extra: &[(&str, &str)]) -> HttpResponse {
        self.raw_post(body.to_string().as_bytes(), extra)
    }

    pub fn raw_post(&mut self, body: &[u8], extra: &[(&str, &str)]) -> HttpResponse {
        let mut req = format!(
            "POST /mcp HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nAccept: application/json, \
             text/event-stream\r\nContent-Length: {}\r\n",
            self.authority,
            body.len()
        );
        if let Some(id) = &self.session {
            req.push_str(&format!("Mcp-Session-Id: {id}\r\nMcp-Protocol-Version: 2025-06-18\r\n"));
        }
        for (k, v) in extra {
            req.push_str(&format!("{k}: {v}\r\n"));
        }
        req.push_str("\r\n");
        // One write: two would let the client's own Nagle delay the body (this measures the server).
        let mut bytes = req.into_bytes();
        bytes.extend_from_slice(body);
        self.stream.get_mut().write_all(&bytes).unwrap();
        self.read_response()
    }

    pub fn read_response(&mut self) -> HttpResponse {
        let mut line = String::new();
        self.stream.read_line(&mut line).expect("status line");
        let status = line.get(9..12).and_then(|s| s.parse().ok()).unwrap_or_else(|| panic!("status line {line:?}"));
        let mut headers = Vec::new();
        loop {
            line.clear();
            self.stream.read_line(&mut line).expect("header");
            let l = line.trim_end();
            if l.is_empty() {
                break;
            }
            let (k, v) = l.split_once(':').expect("header line");
            headers.push((k.trim().to_ascii_lowercase(), v.trim().to_string()));
        }
        let get = |name: &str| headers.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone());
        let mut body = Vec::new();
        if let Some(n) = get("content-length") {
            body.resize(n.parse().unwrap(), 0);
            self.stream.read_exact(&mut body).unwrap();
        } else if get("transfer-encoding").is_some_and(|t| t.contains("chunked")) {
            loop {
                line.clear();
                self.stream.read_line(&mut line).expect("chunk size");
                let size = usize::from_str_radix(line.trim(), 16).unwrap_or_else(|_| panic!("chunk size {line:?}"));
                let mut chunk = vec![0; size + 2];
                self.stream.read_exact(&mut chunk).unwrap();
                if size == 0 {
                    break;
                }
                body.extend_from_slice(&chunk[..size]);
            }
        }
        HttpResponse { status, headers, body: String::from_utf8(body).expect("utf-8 body") }
    }

    /// `tools/call`; returns the JSON-RPC response.
    pub fn call(&mut self, tool: &str, args: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        let r = self.post(
            &json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": tool, "arguments": args}}),
            &[],
        );
        assert_eq!(r.status, 200, "{tool}: {}", r.body);
        let m = r.message();
        assert_eq!(m["id"], id, "{m}");
        m
    }
}

/// The p-th percentile (0..=100) of `sorted`.
pub fn percentile(sorted: &[Duration], p: usize) -> Duration {
    sorted[(sorted.len() - 1) * p / 100]
}

/// `calls` tool calls from `clients` concurrent sessions (one thread and one keep-alive connection each), cycling
/// through four tools on the sample (`list_components`, `get_code_block` on `table`, `component_details` of
/// `button`, `search_docs`). Panics on any failed call. Returns each call's time (unsorted) and the wall time.
pub fn load(authority: &str, calls: usize, clients: usize) -> (Vec<Duration>, Duration) {
    let start = Instant::now();
    let times = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..clients)
            .map(|k| {
                scope.spawn(move || {
                    let mut s = HttpSession::start(authority);
                    let mut times = Vec::new();
                    for i in (k..calls).step_by(clients) {
                        let (tool, args) = match i % 4 {
                            0 => ("list_components", json!({})),
                            1 => ("get_code_block", json!({"component": "table", "index": 1 + i % 33})),
                            2 => ("component_details", json!({"component": "button"})),
                            _ => ("search_docs", json!({"query": "pagination page size"})),
                        };
                        let t = Instant::now();
                        let r = s.call(tool, args);
                        times.push(t.elapsed());
                        assert_eq!(r["result"]["isError"], false, "{tool}: {r}");
                    }
                    times
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().expect("client thread")).collect()
    });
    (times, start.elapsed())
}
