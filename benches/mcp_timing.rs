//! MCP timings that were tests asserting almost nothing (issue 14): `cargo bench --bench mcp_timing`. Builds the
//! sample corpus into a temporary directory, then prints
//! - start-up over stdio: spawn of `mydesign-docs serve` → `initialize` answered (median of 5), and
//! - 100 tool calls in a row over stdio on one connection (seven tools in turn): total and per call.
//!
//! Exits non-zero when a call fails. `cargo xtask bench` measures the same on the real inputs with a release build.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

const BIN: &str = env!("CARGO_BIN_EXE_mydesign-docs");

/// `serve` over stdio with the handshake done.
struct StdioServer {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    next_id: u64,
}

impl StdioServer {
    fn start(bundles: &Path) -> StdioServer {
        let mut child = Command::new(BIN)
            .arg("serve")
            .arg("--bundles")
            .arg(bundles)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn mydesign-docs serve");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = BufReader::new(child.stdout.take().expect("stdout"));
        let mut s = StdioServer { child, stdin, stdout, next_id: 1 };
        let init = s.request(
            "initialize",
            json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "mcp_timing", "version": "1"}}),
        );
        assert!(init["result"].is_object(), "initialize failed: {init}");
        writeln!(s.stdin, "{}", json!({"jsonrpc": "2.0", "method": "notifications/initialized"})).unwrap();
        s
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        writeln!(self.stdin, "{}", json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})).unwrap();
        self.stdin.flush().unwrap();
        loop {
            let mut line = String::new();
            assert!(self.stdout.read_line(&mut line).unwrap() > 0, "server closed stdout during {method}");
            let msg: Value = serde_json::from_str(&line).expect("JSON-RPC line");
            if msg["id"] == id {
                return msg;
            }
        }
    }
}

impl Drop for StdioServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn main() {
    let out = tempfile::tempdir().expect("temporary directory");
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let built = Command::new(BIN).arg("build").arg(&corpus).arg("--out").arg(out.path()).output().expect("build");
    assert!(built.status.success(), "building the sample failed: {}", String::from_utf8_lossy(&built.stderr));
    let set = std::fs::read_dir(out.path()).unwrap().next().expect("a set").unwrap().path();

    let mut starts: Vec<Duration> = (0..5)
        .map(|_| {
            let t = Instant::now();
            let s = StdioServer::start(&set);
            let took = t.elapsed();
            drop(s);
            took
        })
        .collect();
    starts.sort();
    println!("stdio start-up, spawn → initialized: median {:.2?} (min {:.2?})", starts[2], starts[0]);

    let calls = [
        ("list_components", json!({})),
        ("component_details", json!({"component": "table"})),
        ("get_code_block", json!({"component": "table", "index": 33})),
        ("get_changelog", json!({"page": 6})),
        ("list_component_files", json!({"component": "table"})),
        ("get_file_code", json!({"path": "src/components/Table/Table.tsx"})),
        ("get_function_code", json!({"path": "src/components/Table/Table.tsx", "function": "Table.render"})),
    ];
    let mut s = StdioServer::start(&set);
    let t = Instant::now();
    for i in 0..100 {
        let (tool, args) = &calls[i % calls.len()];
        let r = s.request("tools/call", json!({"name": tool, "arguments": args}));
        assert_eq!(r["result"]["isError"], false, "{tool}: {r}");
    }
    let took = t.elapsed();
    println!("100 calls in a row over stdio: {took:.2?} ({:.2?} per call)", took / 100);
}
