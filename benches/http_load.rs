//! The full HTTP load test: `cargo bench --bench http_load [-- CALLS CONCURRENCY]` (default 10,000 calls from 64
//! concurrent sessions) against `mydesign-docs serve --http 127.0.0.1:0` on the sample corpus (built into a
//! temporary directory), over loopback only. Prints p50/p99/max per call, the throughput, and the server's resident
//! memory (VmRSS and VmHWM from /proc) after the run; exits non-zero on any failed call. The CI-sized form (2,000 at
//! 16) is the test `http_load_2000_calls_at_16` in tests/it/mcp.rs.

#[path = "../tests/it/common/mcp_http.rs"]
mod mcp_http;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};

use mcp_http::{load, percentile};

fn main() {
    let args: Vec<usize> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let (calls, clients) = match args.as_slice() {
        [c, k, ..] => (*c, (*k).max(1)),
        _ => (10_000, 64),
    };
    let bin = env!("CARGO_BIN_EXE_mydesign-docs");
    let out = tempfile::tempdir().expect("temporary directory");
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    let built = Command::new(bin).arg("build").arg(&corpus).arg("--out").arg(out.path()).output().expect("build");
    assert!(built.status.success(), "building the sample failed: {}", String::from_utf8_lossy(&built.stderr));

    let mut server = Command::new(bin)
        .args(["serve", "--http", "127.0.0.1:0", "--max-sessions", &(clients + 8).to_string(), "--bundles"])
        .arg(out.path())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn serve");
    let mut stderr = BufReader::new(server.stderr.take().unwrap());
    let mut line = String::new();
    let authority = loop {
        line.clear();
        assert!(stderr.read_line(&mut line).unwrap() > 0, "server exited before saying where it listens");
        if let Some(url) = line.trim().strip_prefix("serving MCP at http://") {
            break url.trim_end_matches("/mcp").to_string();
        }
    };
    std::thread::spawn(move || std::io::copy(&mut stderr, &mut std::io::sink()));

    let (mut times, wall) = load(&authority, calls, clients);
    times.sort();
    let status = std::fs::read_to_string(format!("/proc/{}/status", server.id())).unwrap_or_default();
    let field = |name: &str| {
        status.lines().find_map(|l| l.strip_prefix(name)).map(|v| v.trim().to_string()).unwrap_or("?".into())
    };
    println!("HTTP load, loopback: {} calls at concurrency {clients}, 0 errors, {wall:.2?}", times.len());
    println!(
        "per call: p50 {:.2?}, p99 {:.2?}, max {:.2?}; {:.0} calls/s",
        percentile(&times, 50),
        percentile(&times, 99),
        times[times.len() - 1],
        times.len() as f64 / wall.as_secs_f64()
    );
    println!("server memory after the run: VmRSS {}, VmHWM (peak) {}", field("VmRSS:"), field("VmHWM:"));
    let _ = server.kill();
    let _ = server.wait();
}
