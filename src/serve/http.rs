//! Streamable HTTP: rmcp's `StreamableHttpService` at `/mcp` behind a minimal hyper HTTP/1.1 server. One session
//! per client (rmcp's `LocalSessionManager`), each connection on its own task, so sessions run concurrently.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::Arc;

use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Incoming};
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};

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
}

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
    let bind = |source| ServeError::Bind { addr: options.addr, source };
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
        let service = StreamableHttpService::new(
            move || Ok(server.clone()),
            Arc::new(LocalSessionManager::default()),
            config(&self.options),
        );
        loop {
            let (stream, peer) = match self.listener.accept().await {
                Ok(accepted) => accepted,
                Err(e) => {
                    tracing::warn!("accept failed: {e}");
                    tokio::time::sleep(std::time::Duration::from_millis(10)).await;
                    continue;
                }
            };
            let service = service.clone();
            tokio::spawn(async move {
                let handler = hyper::service::service_fn(move |request: Request<Incoming>| {
                    let service = service.clone();
                    async move { Ok::<_, Infallible>(route(&service, request).await) }
                });
                let connection =
                    hyper::server::conn::http1::Builder::new().serve_connection(TokioIo::new(stream), handler);
                if let Err(e) = connection.await {
                    tracing::debug!("connection from {peer}: {e}");
                }
            });
        }
    }
}

type Body = http_body_util::combinators::BoxBody<Bytes, Infallible>;

async fn route(
    service: &StreamableHttpService<DocsServer, LocalSessionManager>,
    request: Request<Incoming>,
) -> Response<Body> {
    let path = request.uri().path();
    if path == MCP_PATH || path == "/mcp/" {
        let delete = request.method() == hyper::Method::DELETE;
        let mut response = service.handle(request).await;
        // rmcp answers a session DELETE with 202 Accepted, but the session is closed by then: say 200, which the
        // Python SDK expects (it logs a failed termination on 202).
        if delete && response.status() == StatusCode::ACCEPTED {
            *response.status_mut() = StatusCode::OK;
        }
        return response;
    }
    let mut response =
        Response::new(Full::new(Bytes::from(format!("not found: MCP is served at {MCP_PATH}\n"))).boxed());
    *response.status_mut() = StatusCode::NOT_FOUND;
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_origins_and_hosts() {
        let c =
            config(&HttpOptions { addr: "127.0.0.1:0".parse().unwrap(), allow_origins: vec!["https://x.dev".into()] });
        assert_eq!(c.allowed_origins, ["http://localhost:*", "http://127.0.0.1:*", "http://[::1]:*", "https://x.dev"]);
        assert_eq!(c.allowed_hosts, ["localhost", "127.0.0.1", "::1"]);
        let c = config(&HttpOptions { addr: "192.0.2.7:80".parse().unwrap(), allow_origins: vec![] });
        assert_eq!(c.allowed_hosts.last().map(String::as_str), Some("192.0.2.7"));
    }
}
