//! Streamable HTTP: rmcp's `StreamableHttpService` at `/mcp` behind a minimal hyper HTTP/1.1 server. One session
//! per client (rmcp's `LocalSessionManager`), each connection on its own task, so sessions run concurrently.
//!
//! Before rmcp sees a request, [`route`] refuses what rmcp would let through or answer badly: a request with more
//! than one `Origin` header (403), a new session (an `initialize` without a session id) beyond
//! [`HttpOptions::max_sessions`] (503 with `Retry-After` and a JSON-RPC error naming the cap, with the request's id), a POST body that is not JSON
//! (400 with the JSON-RPC parse error -32700, where rmcp says 415; id null, or the body's id when only bytes that
//! are not UTF-8 spoil it), and, in a live session, a misshapen message ([`super::precheck`], as over stdio: 400 with a JSON-RPC
//! error, or 200 with an `isError` tool result for `arguments` that are not an object), and hands a request whose
//! id rmcp cannot hold to it under a stand-in ([`super::ids`]). At most [`HttpOptions::max_connections`]
//! connections are served (one more gets 503 and is closed); a connection idle for
//! [`HttpOptions::connection_idle`] is closed; tool calls run on the blocking pool ([`DocsServer::offloaded`]). Accepted sockets set `TCP_NODELAY`: without it the last segment of each answer waits for the client's
//! delayed ACK (~40 ms a call). Sessions idle for [`HttpOptions::session_idle`] are closed by rmcp.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Incoming};
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};

use super::precheck::Precheck;
use super::{DocsServer, ServeError};

/// Where and to whom the HTTP transport answers.
#[derive(Clone, Debug)]
pub struct HttpOptions {
    /// Address to bind. Loopback (`127.0.0.1`) unless the operator names another interface.
    pub addr: SocketAddr,
    /// Browser origins accepted besides the defaults (`http://localhost`, `http://127.0.0.1`, `http://[::1]`, any
    /// port), as `scheme://host[:port]` or `scheme://host:*`. Requests without an `Origin` header are always
    /// accepted (they do not come from a browser page).
    pub allow_origins: Vec<String>,
    /// Most MCP sessions open at once; an `initialize` beyond it gets 503 and a JSON-RPC error saying so
    /// ([`DEFAULT_MAX_SESSIONS`] by default).
    pub max_sessions: usize,
    /// A session without a request for this long is closed (rmcp's keep-alive; [`DEFAULT_SESSION_IDLE`] by
    /// default); its client gets 404 and starts a new one.
    pub session_idle: Duration,
    /// Most connections open at once ([`DEFAULT_MAX_CONNECTIONS`] by default): one more is answered 503 with
    /// `Retry-After` and closed, so idle sockets can never take every file descriptor and leave the server
    /// unreachable (issue 26 §3: 1,030 idle sockets did).
    pub max_connections: usize,
    /// A connection that sends no request for this long is closed, before its first request and between two
    /// ([`DEFAULT_CONNECTION_IDLE`] by default; hyper's header-read timeout, which starts when the connection is
    /// idle). A streaming answer in progress is not idle.
    pub connection_idle: Duration,
}

impl HttpOptions {
    /// Options for `addr` with the default origins, session cap and idle timeout.
    pub fn new(addr: SocketAddr) -> Self {
        HttpOptions {
            addr,
            allow_origins: Vec::new(),
            max_sessions: DEFAULT_MAX_SESSIONS,
            session_idle: DEFAULT_SESSION_IDLE,
            max_connections: DEFAULT_MAX_CONNECTIONS,
            connection_idle: DEFAULT_CONNECTION_IDLE,
        }
    }
}

/// Default cap on open connections: 512, half the usual descriptor limit (1,024), and two per session at the
/// session cap (a client's POSTs and its event stream).
pub const DEFAULT_MAX_CONNECTIONS: usize = 512;

/// Default idle timeout of a connection: 60 s. Clients reconnect at once when they have something to send, so
/// closing an idle connection costs them one handshake.
pub const DEFAULT_CONNECTION_IDLE: Duration = Duration::from_secs(60);

/// Default cap on live sessions: 256 (an idle session holds ~80 KB, so ~20 MB at most).
pub const DEFAULT_MAX_SESSIONS: usize = 256;

/// Default idle timeout of a session: 2 minutes (rmcp: 5), so an abandoned session is freed soon
/// while an agent thinking between calls keeps its session.
pub const DEFAULT_SESSION_IDLE: Duration = Duration::from_secs(120);

/// `Retry-After` of a new session refused at the cap, in seconds: a session frees its place when closed or after
/// [`HttpOptions::session_idle`]; clients that honour the header try again soon rather than give up.
const RETRY_AFTER_SECS: &str = "10";

/// The largest POST body read, in bytes (16 MiB, as the stdio line cap); larger ones get 413.
const MAX_BODY_BYTES: usize = 16 * 1024 * 1024;

/// The path the MCP endpoint is served at.
pub const MCP_PATH: &str = "/mcp";

/// Origins accepted by default: pages served from this machine.
const DEFAULT_ORIGINS: [&str; 3] = ["http://localhost:*", "http://127.0.0.1:*", "http://[::1]:*"];

/// rmcp's settings: loopback `Host` names (plus the bound address when it is a specific other interface) against DNS
/// rebinding, and the `Origin` allow-list (a request with another `Origin` gets 403 Forbidden).
fn config(options: &HttpOptions) -> StreamableHttpServerConfig {
    let mut hosts = vec!["localhost".to_string(), "127.0.0.1".to_string(), "::1".to_string()];
    let ip = options.addr.ip();
    if !ip.is_loopback() && !ip.is_unspecified() {
        hosts.push(ip.to_string());
    }
    let origins = DEFAULT_ORIGINS.iter().map(|o| o.to_string()).chain(options.allow_origins.iter().cloned());
    StreamableHttpServerConfig::default().with_allowed_hosts(hosts).with_allowed_origins(origins)
}

/// A bound HTTP listener, not yet serving: [`bind_http`] then [`HttpListener::serve`], so the caller can say where
/// it listens (with port 0 the system picks the port) before the first request.
pub struct HttpListener {
    listener: tokio::net::TcpListener,
    local: SocketAddr,
    options: HttpOptions,
}

/// Binds `options.addr`. Warns (stderr log) when the address is not loopback.
///
/// # Errors
/// [`ServeError::Bind`] when the address cannot be bound.
pub async fn bind_http(options: HttpOptions) -> Result<HttpListener, ServeError> {
    let bind = |reason| ServeError::Bind { addr: options.addr, reason };
    let listener = tokio::net::TcpListener::bind(options.addr).await.map_err(bind)?;
    let local = listener.local_addr().map_err(bind)?;
    if !local.ip().is_loopback() {
        tracing::warn!("listening on {local}, which is not a loopback address: other machines can reach this server");
    }
    Ok(HttpListener { listener, local, options })
}

impl HttpListener {
    /// The address bound.
    pub fn local_addr(&self) -> SocketAddr {
        self.local
    }

    /// The MCP endpoint, `http://ADDR/mcp`.
    pub fn url(&self) -> String {
        format!("http://{}{MCP_PATH}", self.local)
    }

    /// Serves `server` at [`Self::url`] until the process is stopped: one MCP session per client, each connection
    /// on its own task. Never returns an error: a failed `accept` (a connection reset before it was taken, no file
    /// descriptors left) is logged and the server goes on.
    pub async fn serve(self, server: DocsServer) -> Result<(), ServeError> {
        let server_precheck = server.precheck();
        let mut manager = LocalSessionManager::default();
        manager.session_config.keep_alive = Some(self.options.session_idle);
        let sessions = Arc::new(manager);
        // Tool calls off the runtime's thread: sessions share it.
        let server = server.offloaded();
        let service = StreamableHttpService::new(
            move || Ok(server.clone()),
            sessions.clone(),
            config(&self.options).with_max_request_body_bytes(MAX_BODY_BYTES),
        );
        let precheck = server_precheck;
        let endpoint = Arc::new(Endpoint {
            service,
            sessions,
            max_sessions: self.options.max_sessions,
            precheck,
            ids: super::ids::Ids::default(),
        });
        let open = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        loop {
            let (stream, peer) = match self.listener.accept().await {
                Ok(accepted) => accepted,
                Err(e) => {
                    tracing::warn!("accept failed: {e}");
                    tokio::time::sleep(std::time::Duration::from_millis(10)).await;
                    continue;
                }
            };
            if let Err(e) = stream.set_nodelay(true) {
                tracing::debug!("TCP_NODELAY on the connection from {peer}: {e}");
            }
            let Some(slot) = Slot::take(&open, self.options.max_connections) else {
                tracing::warn!("refused a connection from {peer}: {} open, the cap", self.options.max_connections);
                tokio::spawn(refuse(stream, self.options.max_connections));
                continue;
            };
            let endpoint = endpoint.clone();
            let idle = self.options.connection_idle;
            tokio::spawn(async move {
                let _slot = slot;
                let handler = hyper::service::service_fn(move |request: Request<Incoming>| {
                    let endpoint = endpoint.clone();
                    async move { Ok::<_, Infallible>(route(&endpoint, request).await) }
                });
                let connection = hyper::server::conn::http1::Builder::new()
                    .timer(hyper_util::rt::TokioTimer::new())
                    .header_read_timeout(idle)
                    .serve_connection(TokioIo::new(stream), handler);
                if let Err(e) = connection.await {
                    tracing::debug!("connection from {peer}: {e}");
                }
            });
        }
    }
}

/// One of the [`HttpOptions::max_connections`] places, given back when the connection ends.
struct Slot(Arc<std::sync::atomic::AtomicUsize>);

impl Slot {
    /// A place when fewer than `max` are taken.
    fn take(open: &Arc<std::sync::atomic::AtomicUsize>, max: usize) -> Option<Slot> {
        use std::sync::atomic::Ordering;
        open.fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| (n < max).then_some(n + 1)).ok()?;
        Some(Slot(open.clone()))
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, std::sync::atomic::Ordering::AcqRel);
    }
}

/// How long a refused connection is given to take its 503 before it is closed.
const REFUSE_WRITE: Duration = Duration::from_secs(2);

/// Answers a connection over the cap with 503, `Retry-After` and a JSON-RPC error naming the cap (id null: its
/// request is not read), then closes it.
async fn refuse(mut stream: tokio::net::TcpStream, max: usize) {
    use tokio::io::AsyncWriteExt;
    let message = format!(
        "too many connections: the server's cap of {max} is reached (serve --max-connections); idle ones close \
         after serve --connection-idle-secs, retry then"
    );
    let body = serde_json::json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32000, "message": message}});
    let body = body.to_string();
    let response = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\nretry-after: {RETRY_AFTER_SECS}\r\n\
         connection: close\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    );
    let _ = tokio::time::timeout(REFUSE_WRITE, async {
        let _ = stream.write_all(response.as_bytes()).await;
        let _ = stream.shutdown().await;
    })
    .await;
}

type Body = http_body_util::combinators::BoxBody<Bytes, Infallible>;

/// What every connection shares: rmcp's service and its sessions, and the cap on them.
struct Endpoint {
    service: StreamableHttpService<DocsServer, LocalSessionManager>,
    sessions: Arc<LocalSessionManager>,
    max_sessions: usize,
    /// The shape check the stdio transport runs too.
    precheck: Precheck,
    /// Stand-ins for the ids rmcp cannot hold ([`super::ids`]).
    ids: super::ids::Ids,
}

/// A plain-text answer.
fn text_response(status: StatusCode, text: String) -> Response<Body> {
    let mut response = Response::new(Full::new(Bytes::from(text)).boxed());
    *response.status_mut() = status;
    response
}

/// A JSON-RPC error answer with an HTTP status: `id` is the request's when it is known, else null.
fn json_rpc_error(status: StatusCode, id: serde_json::Value, code: i64, message: &str) -> Response<Body> {
    let body = serde_json::json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}});
    json_response(status, body)
}

/// A JSON body with an HTTP status.
fn json_response(status: StatusCode, body: serde_json::Value) -> Response<Body> {
    let mut response = text_response(status, body.to_string());
    response
        .headers_mut()
        .insert(hyper::header::CONTENT_TYPE, hyper::header::HeaderValue::from_static("application/json"));
    response
}

async fn route(endpoint: &Arc<Endpoint>, request: Request<Incoming>) -> Response<Body> {
    let path = request.uri().path();
    if path != MCP_PATH && path != "/mcp/" {
        return text_response(StatusCode::NOT_FOUND, format!("not found: MCP is served at {MCP_PATH}\n"));
    }
    // rmcp checks the first `Origin` only: a page could add its own after an allowed one.
    if request.headers().get_all(hyper::header::ORIGIN).iter().count() > 1 {
        return text_response(StatusCode::FORBIDDEN, "Forbidden: more than one Origin header\n".to_string());
    }
    let delete = request.method() == hyper::Method::DELETE;
    let request = if request.method() == hyper::Method::POST {
        let no_session = !request.headers().contains_key("mcp-session-id");
        let (parts, body) = request.into_parts();
        let bytes = match http_body_util::Limited::new(body, MAX_BODY_BYTES).collect().await {
            Ok(collected) => collected.to_bytes(),
            Err(e) => {
                let message = format!("request body over {MAX_BODY_BYTES} bytes (16 MiB) or unreadable: {e}");
                // Not read: its id is not known.
                return json_rpc_error(StatusCode::PAYLOAD_TOO_LARGE, serde_json::Value::Null, -32600, &message);
            }
        };
        let message = match serde_json::from_slice::<serde_json::Value>(&bytes) {
            Ok(message) => message,
            Err(e) => {
                let (id, message) = super::precheck::parse_error(&bytes, "body", &e);
                return json_rpc_error(StatusCode::BAD_REQUEST, id, -32700, &message);
            }
        };
        // Only an `initialize` without a session opens one: it alone is refused when the cap is full (any other
        // request without a session gets rmcp's 400, full or not).
        if no_session && message.get("method").and_then(serde_json::Value::as_str) == Some("initialize") {
            let live = endpoint.sessions.sessions.read().await.len();
            if live >= endpoint.max_sessions {
                tracing::warn!("refused a new MCP session: {live} open, the cap is {}", endpoint.max_sessions);
                // The request was read: its id is echoed (a number or a string; else null).
                let id = message.get("id").filter(|v| v.is_number() || v.is_string()).cloned().unwrap_or_default();
                let message = format!(
                    "too many MCP sessions: {live} are open and the server's cap is {} (serve --max-sessions); \
                     close unused sessions (HTTP DELETE) or retry when idle ones expire",
                    endpoint.max_sessions
                );
                let mut response = json_rpc_error(StatusCode::SERVICE_UNAVAILABLE, id, -32000, &message);
                response
                    .headers_mut()
                    .insert(hyper::header::RETRY_AFTER, hyper::header::HeaderValue::from_static(RETRY_AFTER_SECS));
                return response;
            }
        }
        // In a live session, a misshapen message gets the answer stdio gives it (rmcp's would be a bare -32601);
        // without one, rmcp answers as for any request (400 or 404).
        if let Some(answer) = endpoint.precheck.answer(&message)
            && let Some(id) = parts.headers.get("mcp-session-id").and_then(|v| v.to_str().ok())
            && endpoint.sessions.sessions.read().await.contains_key(id)
        {
            let status = if answer.is_protocol_error() { StatusCode::BAD_REQUEST } else { StatusCode::OK };
            return json_response(status, answer.to_json());
        }
        // An id rmcp cannot hold (it answered 415): under a stand-in, restored in the answer's body.
        if let Some(sent) = endpoint.ids.stand_in(&message)
            && let Ok(body) = serde_json::to_vec(&sent)
        {
            let mut request = Request::from_parts(parts, Full::new(Bytes::from(body)));
            request.headers_mut().remove(hyper::header::CONTENT_LENGTH);
            let response = endpoint.service.handle(request).await;
            let endpoint = endpoint.clone();
            return response.map(move |body| {
                body.map_frame(move |frame| match frame.into_data() {
                    Ok(data) => hyper::body::Frame::data(endpoint.ids.restore(&data).map_or(data, Bytes::from)),
                    Err(frame) => frame,
                })
                .boxed()
            });
        }
        Request::from_parts(parts, Full::new(bytes))
    } else {
        let (parts, _) = request.into_parts();
        Request::from_parts(parts, Full::new(Bytes::new()))
    };
    let mut response = endpoint.service.handle(request).await;
    // rmcp answers a session DELETE with 202 Accepted, but the session is closed by then: say 200, which the
    // Python SDK expects (it logs a failed termination on 202).
    if delete && response.status() == StatusCode::ACCEPTED {
        *response.status_mut() = StatusCode::OK;
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_origins_and_hosts() {
        let c = config(&HttpOptions {
            allow_origins: vec!["https://x.dev".into()],
            ..HttpOptions::new("127.0.0.1:0".parse().unwrap())
        });
        assert_eq!(c.allowed_origins, ["http://localhost:*", "http://127.0.0.1:*", "http://[::1]:*", "https://x.dev"]);
        assert_eq!(c.allowed_hosts, ["localhost", "127.0.0.1", "::1"]);
        let c = config(&HttpOptions::new("192.0.2.7:80".parse().unwrap()));
        assert_eq!(c.allowed_hosts.last().map(String::as_str), Some("192.0.2.7"));
    }
}
