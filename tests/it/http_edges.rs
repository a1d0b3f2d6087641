//! The MCP transports' edges (issue 26 §3, HTTP): idle connections time out and a connection cap answers 503
//! instead of leaving the server unreachable; a slow tool call does not stall other sessions; search queries are
//! capped far below the body cap; JSON-RPC ids of any number or string are echoed as received, over HTTP and stdio.

use crate::mcp::mcp_http::HttpSession;
use crate::mcp::mcp_stdio::StdioClient;
use crate::mcp::{HttpServer, runtime, sample_dir};

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

fn arg(p: &std::path::Path) -> &str {
    p.to_str().expect("utf-8 path")
}

/// Ids JSON-RPC allows that rmcp's `i64` does not hold, and some it does, as written on the wire (numbers as
/// serde_json writes them back: see `serve::ids` for `1.50` or below -2^63).
const IDS: [&str; 6] = ["9223372036854775808", "18446744073709551615", "1.5", "-0.25", "-3", "\"id-7\""];

/// Whether `line` holds `"id":ID` as a whole value.
fn echoes(line: &str, id: &str) -> bool {
    [",", "}"].iter().any(|end| line.contains(&format!("\"id\":{id}{end}")))
}

#[test]
fn every_json_rpc_id_is_echoed_as_received_over_stdio() {
    let mut c = StdioClient::start(&["--bundles", arg(&sample_dir())]);
    for id in IDS {
        // A request rmcp answers, a tool call, and a misshapen one the pre-check answers.
        for body in [
            r#""method":"ping""#.to_string(),
            r#""method":"tools/call","params":{"name":"list_components","arguments":{}}"#.to_string(),
            r#""method":"tools/call","params":{"name":5}"#.to_string(),
        ] {
            writeln!(c.stdin, r#"{{"jsonrpc":"2.0","id":{id},{body}}}"#).unwrap();
            c.stdin.flush().unwrap();
            let line = c.next_line();
            assert!(echoes(&line, id), "{id} {body}: {line}");
            let m: Value = serde_json::from_str(&line).unwrap();
            assert!(m.get("result").is_some() || m.get("error").is_some(), "{line}");
        }
    }
    // Below -2^63 a number is read as a float: the same number comes back, in serde_json's form.
    writeln!(c.stdin, r#"{{"jsonrpc":"2.0","id":-9223372036854775809,"method":"ping"}}"#).unwrap();
    c.stdin.flush().unwrap();
    let m = c.next_message();
    assert_eq!(m["id"].as_f64(), Some(-9223372036854775809.0), "{m}");
    assert!(m.get("result").is_some(), "{m}");
    // Twice the same call with a big id: the second (replayed) answer carries its own id too.
    for id in ["9223372036854775809", "9223372036854775810"] {
        writeln!(
            c.stdin,
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"list_components","arguments":{{}}}}}}"#
        )
        .unwrap();
        c.stdin.flush().unwrap();
        let line = c.next_line();
        assert!(line.starts_with(&format!(r#"{{"jsonrpc":"2.0","id":{id},"result":"#)), "{line}");
    }
}

#[test]
fn every_json_rpc_id_is_echoed_as_received_over_http() {
    let server = HttpServer::start("127.0.0.1:0", &["--bundles", arg(&sample_dir())]);
    for id in IDS {
        // A new session (rmcp's 415 was here for an id ≥ 2^63) and a call in it.
        let mut s = HttpSession::connect(server.authority());
        let init = format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"initialize","params":{{"protocolVersion":"2025-06-18","capabilities":{{}},"clientInfo":{{"name":"t","version":"1"}}}}}}"#
        );
        let r = s.raw_post(init.as_bytes(), &[]);
        assert_eq!(r.status, 200, "{id}: {}", r.body);
        assert!(r.body.contains(&format!(r#"{{"jsonrpc":"2.0","id":{id},"result":"#)), "{id}: {}", r.body);
        s.session = Some(r.header("mcp-session-id").expect("session id").to_string());
        let r = s.post(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}), &[]);
        assert_eq!(r.status, 202);
        let call = format!(
            r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"list_components","arguments":{{}}}}}}"#
        );
        let r = s.raw_post(call.as_bytes(), &[]);
        assert_eq!(r.status, 200, "{id}: {}", r.body);
        assert!(r.body.contains(&format!(r#"{{"jsonrpc":"2.0","id":{id},"result":{{"#)), "{id}: {}", r.body);
        assert_eq!(r.message()["result"]["isError"], false);
    }
}

/// Sends a raw GET and returns (status, body) of a connection that answers and closes, or `None` when it does not
/// answer within `wait`.
fn raw_status(authority: &str, wait: Duration) -> Option<(u16, String)> {
    let mut stream = TcpStream::connect(authority).ok()?;
    stream.set_read_timeout(Some(wait)).unwrap();
    let req = format!("GET /mcp HTTP/1.1\r\nHost: {authority}\r\nAccept: text/event-stream\r\n\r\n");
    stream.write_all(req.as_bytes()).ok()?;
    let mut text = String::new();
    let _ = stream.read_to_string(&mut text);
    let status = text.get(9..12)?.parse().ok()?;
    Some((status, text.split_once("\r\n\r\n").map(|(_, b)| b.to_string()).unwrap_or_default()))
}

#[test]
fn idle_connections_time_out_and_the_cap_answers_503_instead_of_hanging() {
    let server = HttpServer::start(
        "127.0.0.1:0",
        &["--bundles", arg(&sample_dir()), "--max-connections", "8", "--connection-idle-secs", "2"],
    );
    let authority = server.authority().to_string();
    // Eight idle sockets take every place.
    let idle: Vec<TcpStream> = (0..8).map(|_| TcpStream::connect(&authority).unwrap()).collect();
    std::thread::sleep(Duration::from_millis(300));
    let t = Instant::now();
    let (status, body) = raw_status(&authority, Duration::from_secs(5)).expect("an answer, not a hang");
    assert!(t.elapsed() < Duration::from_secs(2), "refused at once: {:?}", t.elapsed());
    assert_eq!(status, 503, "{body}");
    let m: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(m["id"], Value::Null);
    assert!(
        m["error"]["message"].as_str().unwrap().starts_with(
            "too many connections: the server's cap of 8 is reached (serve --max-connections); idle ones close"
        ),
        "{m}"
    );
    // After the idle timeout the server has closed them (a read sees the end) and serves a new session.
    std::thread::sleep(Duration::from_millis(2500));
    for mut s in idle {
        s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        let mut buf = [0u8; 64];
        assert_eq!(s.read(&mut buf).unwrap_or(0), 0, "an idle connection is closed by the server");
    }
    let mut s = HttpSession::start(&authority);
    assert_eq!(s.call("list_components", json!({}))["result"]["isError"], false);
}

#[test]
fn a_slow_tool_call_does_not_stall_other_sessions() {
    let rt = runtime();
    let options = mydesign_docs::serve::HttpOptions::new("127.0.0.1:0".parse().unwrap());
    let listener = rt.block_on(mydesign_docs::serve::bind_http(options)).unwrap();
    let authority = listener.local_addr().to_string();
    let library = std::sync::Arc::new(mydesign_docs::serve::open_library(&[sample_dir()]).unwrap());
    // `get_changelog` takes 2 s (as a huge search once did), on the one-thread runtime `serve --http` has.
    let server = mydesign_docs::serve::DocsServer::new(library).with_fault_hook(std::sync::Arc::new(|what: &str| {
        if what == "get_changelog" {
            std::thread::sleep(Duration::from_secs(2));
        }
    }));
    std::thread::spawn(move || rt.block_on(listener.serve(server)));
    let mut slow = HttpSession::start(&authority);
    let mut other = HttpSession::start(&authority);
    let t = Instant::now();
    let slow_call = std::thread::spawn(move || slow.call("get_changelog", json!({})));
    std::thread::sleep(Duration::from_millis(200));
    let r = other.call("list_components", json!({}));
    let other_took = t.elapsed();
    assert_eq!(r["result"]["isError"], false);
    assert!(other_took < Duration::from_millis(1500), "the other session waited {other_took:?}");
    assert_eq!(slow_call.join().unwrap()["result"]["isError"], false);
    assert!(t.elapsed() >= Duration::from_secs(2));
}

#[test]
fn search_queries_are_capped_far_below_the_body_cap() {
    let query = "table ".repeat(700); // 4,200 bytes
    let mut c = StdioClient::start(&["--bundles", arg(&sample_dir())]);
    let r = c.call("search_docs", json!({"query": query}));
    assert_eq!(r["result"]["isError"], true, "{r}");
    assert_eq!(
        r["result"]["content"][0]["text"],
        "the search query is 4200 bytes, over the 4096-byte limit: ask a question or name what to find in a few \
         words (long text is not a query)"
    );
    // At the limit it is searched.
    let r = c.call("search_docs", json!({"query": "table ".repeat(682)}));
    assert_eq!(r["result"]["isError"], false, "{r}");
    let tmp = tempfile::tempdir().unwrap();
    let dir = sample_dir();
    let err = crate::common::fails(tmp.path(), &["search", &query, "--bundles", arg(&dir)]);
    assert!(err.contains("the search query is 4200 bytes, over the 4096-byte limit"), "{err}");
}
