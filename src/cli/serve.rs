//! `serve`: open the library, set up stderr logging, run the MCP server on stdio or streamable HTTP.

use std::net::{Ipv4Addr, SocketAddr, ToSocketAddrs};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::Context;
use clap::Args;
use mydesign_docs::budget::MIN_MAX_TOKENS;
use mydesign_docs::project::{default_project, project_library};
use mydesign_docs::serve::{
    DEFAULT_CONNECTION_IDLE, DEFAULT_MAX_CONNECTIONS, DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_IDLE, DocsServer,
    HttpOptions, bind_http, open_library, serve_stdio,
};

// Options of `serve` (not a doc comment: see `cli::LookupArgs`).
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Directory holding bundle sets (<system>@<version>/), or one set; repeatable. Default: ./out when it holds a
    /// set, else the store ($MYDESIGN_DOCS_HOME, else $XDG_DATA_HOME/mydesign-docs, ~/.local/share/mydesign-docs).
    #[arg(long, value_name = "DIR")]
    bundles: Vec<PathBuf>,
    /// Serve streamable HTTP at http://ADDR/mcp instead of stdio. ADDR is HOST:PORT (HOST an IP address or a name
    /// such as localhost, which binds its loopback address), or a PORT bound on 127.0.0.1 (port 0 picks a free
    /// one, logged on stderr).
    #[arg(long, value_name = "ADDR", value_parser = parse_addr)]
    http: Option<SocketAddr>,
    /// With --http: also accept requests from this browser Origin (scheme://host:port or scheme://host:*);
    /// repeatable. http://localhost, http://127.0.0.1 and requests without Origin are always accepted.
    #[arg(long, value_name = "ORIGIN", requires = "http")]
    allow_origin: Vec<String>,
    /// With --http: most MCP sessions open at once; a client starting one more gets HTTP 503 and a JSON-RPC error
    /// naming the cap.
    #[arg(long, value_name = "N", requires = "http", default_value_t = DEFAULT_MAX_SESSIONS as u32,
          value_parser = super::at_least(1, u32::MAX))]
    max_sessions: u32,
    /// With --http: a session without a request for this many seconds is closed (its client starts a new one).
    #[arg(long, value_name = "SECS", requires = "http", default_value_t = DEFAULT_SESSION_IDLE.as_secs(),
          value_parser = super::at_least(1, u64::from(u32::MAX)))]
    session_idle_secs: u64,
    /// With --http: most connections open at once; one more gets HTTP 503 with Retry-After and is closed.
    #[arg(long, value_name = "N", requires = "http", default_value_t = DEFAULT_MAX_CONNECTIONS as u32,
          value_parser = super::at_least(1, u32::MAX))]
    max_connections: u32,
    /// With --http: a connection that sends no request for this many seconds is closed (its client reconnects).
    #[arg(long, value_name = "SECS", requires = "http", default_value_t = DEFAULT_CONNECTION_IDLE.as_secs(),
          value_parser = super::at_least(1, u64::from(u32::MAX)))]
    connection_idle_secs: u64,
    /// Cap on every answer, in tokens (default: each bundle set's `max_tokens`, 10,000 unless configured); calls
    /// may only lower it; at least 300 (the smallest budget a call may ask for). Answers over it are cut on whole lines, with a cursor to continue.
    #[arg(long, value_name = "N", value_parser = super::at_least(i64::from(MIN_MAX_TOKENS), u32::MAX))]
    max_tokens: Option<u32>,
    /// The project whose dependencies pick the version served of each system (node_modules, else the lockfile:
    /// package-lock.json, pnpm-lock.yaml, yarn.lock; else the range in package.json); when that version is not
    /// installed, the nearest lower one, said in every answer. Sets shipped in its installed packages (a
    /// "mydesign-docs" field in their package.json) are served first, the header saying where they came from.
    /// Default: the current directory when it has a package.json.
    #[arg(long, value_name = "DIR")]
    project: Option<PathBuf>,
}

fn parse_addr(s: &str) -> Result<SocketAddr, String> {
    if let Ok(port) = s.parse::<u16>() {
        return Ok(SocketAddr::from((Ipv4Addr::LOCALHOST, port)));
    }
    if let Ok(addr) = s.parse() {
        return Ok(addr);
    }
    let invalid = || format!("`{s}` is not HOST:PORT (e.g. 127.0.0.1:8080 or localhost:8080) or a port");
    let (host, _) = s.rsplit_once(':').ok_or_else(invalid)?;
    let found: Vec<SocketAddr> = s.to_socket_addrs().map_err(|e| format!("{}: {e}", invalid()))?.collect();
    // A name with several addresses (localhost: 127.0.0.1 and ::1) binds the IPv4 one, as clients try it first.
    let addr = found.iter().find(|a| a.is_ipv4()).or(found.first()).copied();
    let addr = addr.ok_or_else(|| format!("`{host}` has no address"))?;
    if host.eq_ignore_ascii_case("localhost") && !addr.ip().is_loopback() {
        return Err(format!("`{host}` resolves to {}, not a loopback address", addr.ip()));
    }
    Ok(addr)
}

/// Logs go to stderr only (stdout is the protocol on stdio); the level comes from `RUST_LOG` (`LEVEL` and
/// `target=LEVEL` directives, comma-separated: `tracing_subscriber`'s `Targets` syntax, without `EnvFilter`'s span
/// and field filters, whose regex engine would be ~0.2 MB of the reader-only binary), default: warnings, plus this
/// program's own start-up line. An unparsable `RUST_LOG` falls back to the default.
fn init_logging() {
    use tracing_subscriber::filter::{LevelFilter, Targets};
    use tracing_subscriber::layer::SubscriberExt as _;
    use tracing_subscriber::util::SubscriberInitExt as _;
    let filter = std::env::var("RUST_LOG").ok().and_then(|v| v.parse::<Targets>().ok()).unwrap_or_else(|| {
        Targets::new().with_default(LevelFilter::WARN).with_target("mydesign_docs", LevelFilter::INFO)
    });
    let _ = tracing_subscriber::fmt().with_writer(std::io::stderr).finish().with(filter).try_init();
}

pub fn run(args: ServeArgs) -> anyhow::Result<ExitCode> {
    init_logging();
    let mut library = match args.project.clone().or_else(default_project) {
        None => open_library(&args.bundles)?,
        Some(project) => {
            if !project.is_dir() {
                anyhow::bail!("--project {}: no such directory", project.display());
            }
            for dir in args.bundles.iter().filter(|d| !d.is_dir()) {
                tracing::warn!("--bundles {}: no such directory", dir.display());
            }
            let found = project_library(&args.bundles, &project)?;
            for shipped in &found.shipped {
                tracing::info!("{}: bundles shipped in {}", project.display(), shipped.dir.display());
            }
            for line in &found.report {
                tracing::info!("{}: {line}", project.display());
            }
            found.library
        }
    };
    library.on_fallback(|notice| tracing::warn!("{notice}"));
    for damaged in library.damaged_defaults(None) {
        tracing::warn!("{damaged}");
    }
    let library = Arc::new(library);
    let served: Vec<String> = library.systems().iter().map(|(s, v)| format!("{s} {}", v.join(", "))).collect();
    let mut server = DocsServer::new(library);
    if let Some(n) = args.max_tokens {
        server = server.with_max_tokens(n);
    }
    match args.http {
        None => {
            tracing::info!("serving {} over MCP on stdio", served.join("; "));
            let runtime =
                tokio::runtime::Builder::new_current_thread().enable_all().build().context("tokio runtime")?;
            runtime.block_on(serve_stdio(server))?;
        }
        Some(addr) => {
            tracing::info!("serving {}", served.join("; "));
            // One thread serves every session too (answers take well under a millisecond), and the binary links
            // no multi-thread scheduler (issue 14's 6 MB).
            let runtime =
                tokio::runtime::Builder::new_current_thread().enable_all().build().context("tokio runtime")?;
            runtime.block_on(async {
                let options = HttpOptions {
                    allow_origins: args.allow_origin,
                    max_sessions: args.max_sessions as usize,
                    session_idle: std::time::Duration::from_secs(args.session_idle_secs),
                    max_connections: args.max_connections as usize,
                    connection_idle: std::time::Duration::from_secs(args.connection_idle_secs),
                    ..HttpOptions::new(addr)
                };
                let http = bind_http(options).await?;
                // Said whatever RUST_LOG is: with port 0 this is the only way to learn the port.
                eprintln!("serving MCP at {}", http.url());
                http.serve(server).await
            })?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_by_port_ip_or_name() {
        assert_eq!(parse_addr("8808"), Ok("127.0.0.1:8808".parse().unwrap()));
        assert_eq!(parse_addr("[::1]:80"), Ok("[::1]:80".parse().unwrap()));
        assert_eq!(parse_addr("localhost:8808"), Ok("127.0.0.1:8808".parse().unwrap()));
        assert!(parse_addr("localhost").unwrap_err().contains("not HOST:PORT"));
        assert!(parse_addr("localhost:http").unwrap_err().contains("not HOST:PORT"));
    }
}
