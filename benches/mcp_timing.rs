//! MCP timings that were tests asserting almost nothing (issue 14): `cargo bench --bench mcp_timing`. Builds the
//! sample corpus into a temporary directory, then prints
//! - start-up over stdio: spawn of `mydesign-docs serve` → `initialize` answered (median of 5), and
//! - 100 tool calls in a row over stdio on one connection (seven tools in turn): total and per call.
//!
//! Exits non-zero when a call fails. `cargo xtask bench` measures the same on the real inputs with a release build.

#[path = "../tests/it/common/mcp_stdio.rs"]
mod mcp_stdio;

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use mcp_stdio::StdioClient;
use serde_json::json;

const BIN: &str = env!("CARGO_BIN_EXE_mydesign-docs");

fn main() {
    let out = tempfile::tempdir().expect("temporary directory");
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let built = Command::new(BIN).arg("build").arg(&corpus).arg("--out").arg(out.path()).output().expect("build");
    assert!(built.status.success(), "building the sample failed: {}", String::from_utf8_lossy(&built.stderr));
    let set = std::fs::read_dir(out.path()).unwrap().next().expect("a set").unwrap().path();

    let mut starts: Vec<Duration> = (0..5)
        .map(|_| {
            let t = Instant::now();
            let s = StdioClient::start(&["--bundles", set.to_str().expect("UTF-8 path")]);
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
        ("list_components", json!({"component": "table"})),
        ("get_file_code", json!({"path": "src/components/Table/Table.tsx"})),
        ("get_function_code", json!({"path": "src/components/Table/Table.tsx", "function": "Table.render"})),
    ];
    let mut s = StdioClient::start(&["--bundles", set.to_str().expect("UTF-8 path")]);
    let t = Instant::now();
    for i in 0..100 {
        let (tool, args) = &calls[i % calls.len()];
        let r = s.call(tool, args.clone());
        assert_eq!(r["result"]["isError"], false, "{tool}: {r}");
    }
    let took = t.elapsed();
    println!("100 calls in a row over stdio: {took:.2?} ({:.2?} per call)", took / 100);
}
