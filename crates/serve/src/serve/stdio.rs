//! The stdio transport's framing: newline-delimited JSON-RPC, checked here before rmcp sees it.
//!
//! rmcp's own line transport ignores a line that is not JSON and drops a line over its length cap without a word,
//! so the client waits forever for those ids. Here a reader task takes each line from the input (holding at most
//! [`MAX_LINE_BYTES`] of it), answers a line that is not JSON with the JSON-RPC parse error (-32700; id null, or the line's id when only bytes
//! that are not UTF-8 spoil it: [`super::precheck::parse_error`]) and
//! an over-long one with an invalid-request error (-32600) carrying its `id` when one is found in its first
//! [`ID_SCAN_BYTES`] bytes (else null), answers a misshapen message as the HTTP transport does
//! ([`super::precheck`]), hands a request whose id rmcp cannot hold (≥ 2^63, fractional) to it under a stand-in
//! restored in the answer ([`super::ids`]), answers a repeated tool call with the bytes rmcp wrote the first time ([`super::replay`]),
//! and passes every other JSON line on to rmcp through an in-memory pipe. A writer task copies rmcp's output lines
//! and the lines answered here to the output, whole lines only, so they never interleave.

use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;

use std::sync::Arc;

use super::ids::Ids;
use super::precheck::{INVALID_REQUEST, Precheck};
use super::replay::Replay;
use super::{DocsServer, ServeError};
use rmcp::ServiceExt;

/// The longest input line accepted, in bytes (16 MiB): longer ones are discarded as they are read (memory stays
/// bounded) and answered with an error.
pub const MAX_LINE_BYTES: usize = 16 * 1024 * 1024;

/// How much of an over-long line is searched for its `"id"`, in bytes.
pub const ID_SCAN_BYTES: usize = 4096;

/// JSON-RPC "parse error".
const PARSE_ERROR: i64 = -32700;

/// Serves `server` over stdio until the client closes the stream. stdout carries only JSON-RPC messages; logs go
/// to stderr.
///
/// When stdin and stdout are pipes (as an MCP client starts a server), they are read and written by the runtime's
/// event loop, through descriptors of their own opened non-blocking from `/proc/self/fd` (the inherited ones, which
/// other processes may share, keep their flags); else, or off Linux, through tokio's stdin and stdout, whose every
/// read and write is a hop to a blocking thread and back.
///
/// # Errors
/// As [`serve_io`].
pub async fn serve_stdio(server: DocsServer) -> Result<(), ServeError> {
    #[cfg(target_os = "linux")]
    {
        use tokio::net::unix::pipe::OpenOptions;
        let input = OpenOptions::new().open_receiver("/proc/self/fd/0");
        let output = OpenOptions::new().open_sender("/proc/self/fd/1");
        if let (Ok(input), Ok(output)) = (input, output) {
            return serve_io(server, input, output).await;
        }
    }
    serve_io(server, tokio::io::stdin(), tokio::io::stdout()).await
}

/// Serves `server` over a byte stream pair carrying newline-delimited JSON-RPC (stdio, or a pipe in tests) until
/// `input` ends, with the framing of this module.
///
/// # Errors
/// [`ServeError::Initialize`] when the handshake fails; [`ServeError::Io`] when reading, writing or the session
/// fails.
pub async fn serve_io<R, W>(server: DocsServer, input: R, output: W) -> Result<(), ServeError>
where
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    // rmcp reads `to_rmcp` and writes `from_rmcp`; 64 KiB pipes: a long line streams through them.
    let (to_rmcp, rmcp_in) = tokio::io::duplex(64 * 1024);
    let (rmcp_out, from_rmcp) = tokio::io::duplex(64 * 1024);
    let (errors, error_lines) = mpsc::unbounded_channel::<Vec<u8>>();
    let replay = Arc::new(Replay::new(server.clone()));
    let ids = Arc::new(Ids::default());
    let reader = tokio::spawn(read_lines(input, to_rmcp, errors, server.precheck(), replay.clone(), ids.clone()));
    let writer = tokio::spawn(write_lines(from_rmcp, error_lines, output, replay, ids));
    let session = async {
        // Lines reach rmcp already checked against the cap; its own cap counts the `\n` (here 2 bytes of room).
        let transport = rmcp::transport::async_rw::AsyncRwTransport::<rmcp::RoleServer, _, _>::new(rmcp_in, rmcp_out)
            .with_max_line_length(MAX_LINE_BYTES + 2);
        let running = server.serve(transport).await.map_err(|e| ServeError::Initialize(e.to_string()))?;
        tracing::debug!("MCP session initialized over stdio");
        let reason = running
            .waiting()
            .await
            .map_err(|e| ServeError::Io { what: "stdio session", reason: std::io::Error::other(e) })?;
        tracing::debug!(?reason, "MCP session over stdio ended");
        Ok(())
    };
    let result = session.await;
    // The session is over: its output pipe is closed, so the writer ends once the reader (and its error channel)
    // has.
    reader.abort();
    let written =
        writer.await.map_err(|e| ServeError::Io { what: "stdio writer", reason: std::io::Error::other(e) })?;
    result?;
    written.map_err(|reason| ServeError::Io { what: "writing stdout", reason })
}

/// One input line as read: whole, or over [`MAX_LINE_BYTES`] (its first [`ID_SCAN_BYTES`] kept).
enum Line {
    Whole(Vec<u8>),
    Oversized(Vec<u8>),
}

/// Reads the next line (without its `\n`) holding at most [`MAX_LINE_BYTES`] of it; `None` at the end of input.
async fn next_line<R: AsyncRead + Unpin>(input: &mut BufReader<R>) -> std::io::Result<Option<Line>> {
    let mut line = Vec::new();
    let mut oversized = false;
    loop {
        let buf = input.fill_buf().await?;
        if buf.is_empty() {
            // End of input: a last line without `\n` still counts.
            return Ok((!line.is_empty() || oversized).then(|| finish(line, oversized)));
        }
        let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(at) => (&buf[..at], Some(at + 1)),
            None => (buf, None),
        };
        let keep = if oversized { 0 } else { chunk.len().min(MAX_LINE_BYTES + 1 - line.len()) };
        line.extend_from_slice(&chunk[..keep]);
        if line.len() > MAX_LINE_BYTES {
            oversized = true;
            line.truncate(ID_SCAN_BYTES);
            line.shrink_to_fit();
        }
        let used = done.unwrap_or(buf.len());
        input.consume(used);
        if done.is_some() {
            return Ok(Some(finish(line, oversized)));
        }
    }
}

fn finish(line: Vec<u8>, oversized: bool) -> Line {
    if oversized { Line::Oversized(line) } else { Line::Whole(line) }
}

/// The reader task: JSON lines to rmcp, error answers for the rest (and for misshapen messages: [`Precheck`]),
/// replayed answers for repeated calls ([`Replay`]).
async fn read_lines<R, P>(
    input: R,
    mut to_rmcp: P,
    errors: mpsc::UnboundedSender<Vec<u8>>,
    precheck: Precheck,
    replay: Arc<Replay>,
    ids: Arc<Ids>,
) where
    R: AsyncRead + Unpin,
    P: AsyncWrite + Unpin,
{
    let mut input = BufReader::with_capacity(64 * 1024, input);
    loop {
        let line = match next_line(&mut input).await {
            Ok(Some(line)) => line,
            Ok(None) => return,
            Err(e) => {
                tracing::error!("reading stdin: {e}");
                return;
            }
        };
        match line {
            Line::Oversized(head) => {
                let message = format!("request over {MAX_LINE_BYTES} bytes (16 MiB): not read");
                tracing::warn!("{message}");
                let _ = errors.send(error_line(find_id(&head), INVALID_REQUEST, &message).into_bytes());
            }
            Line::Whole(mut line) => {
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                if line.iter().all(u8::is_ascii_whitespace) {
                    continue;
                }
                let message = match serde_json::from_slice::<serde_json::Value>(&line) {
                    Ok(message) => message,
                    Err(e) => {
                        let (id, message) = super::precheck::parse_error(&line, "line", &e);
                        let _ = errors.send(error_line(id, PARSE_ERROR, &message).into_bytes());
                        continue;
                    }
                };
                if let Some(answer) = precheck.answer(&message) {
                    let _ = errors.send(answer.line().into_bytes());
                    continue;
                }
                // An id rmcp cannot hold goes under a stand-in, restored by the writer ([`Ids`]).
                let (message, mut line) = match ids.stand_in(&message) {
                    Some(sent) => match serde_json::to_vec(&sent) {
                        Ok(bytes) => (sent, bytes),
                        Err(_) => (message, line),
                    },
                    None => (message, line),
                };
                if let Some(answer) = replay.answer(&message) {
                    let _ = errors.send(answer);
                    continue;
                }
                line.push(b'\n');
                if to_rmcp.write_all(&line).await.is_err() {
                    return; // The session is over.
                }
            }
        }
    }
}

/// A JSON-RPC error response, as one line.
fn error_line(id: serde_json::Value, code: i64, message: &str) -> String {
    let mut line =
        serde_json::json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}}).to_string();
    line.push('\n');
    line
}

/// The `id` of a message from its first bytes: the value after the first `"id":` when it is a number or a string
/// that ends within `head`; else null.
fn find_id(head: &[u8]) -> serde_json::Value {
    let text = String::from_utf8_lossy(head);
    let Some(at) = text.find("\"id\"") else { return serde_json::Value::Null };
    let rest = text[at + 4..].trim_start();
    let Some(rest) = rest.strip_prefix(':') else { return serde_json::Value::Null };
    let rest = rest.trim_start();
    let mut stream = serde_json::Deserializer::from_str(rest).into_iter::<serde_json::Value>();
    match stream.next() {
        Some(Ok(v @ (serde_json::Value::Number(_) | serde_json::Value::String(_)))) => v,
        _ => serde_json::Value::Null,
    }
}

/// The writer task: rmcp's lines (each shown to [`Replay::capture`]) and the lines answered by the reader task to
/// `output`, whole lines only, flushed after each.
async fn write_lines<P, W>(
    from_rmcp: P,
    mut error_lines: mpsc::UnboundedReceiver<Vec<u8>>,
    mut output: W,
    replay: Arc<Replay>,
    ids: Arc<Ids>,
) -> std::io::Result<()>
where
    P: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let mut from_rmcp = BufReader::new(from_rmcp);
    let mut line = Vec::new();
    let mut errors_open = true;
    loop {
        tokio::select! {
            read = from_rmcp.read_until(b'\n', &mut line) => {
                if read? == 0 {
                    // rmcp is done: write the errors still queued, then stop.
                    while let Ok(e) = error_lines.try_recv() {
                        output.write_all(&e).await?;
                    }
                    return output.flush().await;
                }
                replay.capture(&line);
                match ids.any().then(|| ids.restore(&line)).flatten() {
                    Some(restored) => output.write_all(&restored).await?,
                    None => output.write_all(&line).await?,
                }
                line.clear();
            }
            error = error_lines.recv(), if errors_open => match error {
                // A replayed answer carries the stand-in of the request it answers.
                Some(e) => match ids.any().then(|| ids.restore(&e)).flatten() {
                    Some(restored) => output.write_all(&restored).await?,
                    None => output.write_all(&e).await?,
                },
                None => errors_open = false,
            },
        }
        output.flush().await?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn ids_are_found_at_the_start_of_a_message() {
        assert_eq!(find_id(br#"{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"#), json!(42));
        assert_eq!(find_id(br#"{"id" : "a-7", "#), json!("a-7"));
        assert_eq!(find_id(br#"{"jsonrpc":"2.0","method":"x","params":{"q":"aaaa"#), json!(null));
        assert_eq!(find_id(br#"{"id":"unterminated"#), json!(null));
    }

    #[tokio::test]
    async fn lines_are_capped_and_split() {
        let big = vec![b'x'; MAX_LINE_BYTES + 10];
        let mut input = Vec::new();
        input.extend_from_slice(b"{\"id\":1}\r\n");
        input.extend_from_slice(br#"{"id":9,"a":""#);
        input.extend_from_slice(&big);
        input.extend_from_slice(b"\"}\nlast");
        let mut r = BufReader::with_capacity(1000, input.as_slice());
        assert!(matches!(next_line(&mut r).await.unwrap(), Some(Line::Whole(l)) if l == b"{\"id\":1}\r"));
        match next_line(&mut r).await.unwrap() {
            Some(Line::Oversized(head)) => {
                assert_eq!(head.len(), ID_SCAN_BYTES);
                assert_eq!(find_id(&head), json!(9));
            }
            _ => panic!("the long line is oversized"),
        }
        assert!(matches!(next_line(&mut r).await.unwrap(), Some(Line::Whole(l)) if l == b"last"));
        assert!(next_line(&mut r).await.unwrap().is_none());
    }
}
