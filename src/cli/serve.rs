//! `serve`: open the library, set up stderr logging, run the MCP server on stdio or streamable HTTP.

use std::net::{Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::Context;
use clap::Args;
use mydesign_docs::project::{choose, default_project, project_version};
use mydesign_docs::read::Library;
use mydesign_docs::serve::{DocsServer, HttpOptions, bind_http, open_library, serve_stdio};

/// Options of `serve`.
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Directory holding bundle sets (<system>@<version>/), or one set; repeatable. Default: ./out when it holds a
    /// set, else the store ($MYDESIGN_DOCS_HOME, else $XDG_DATA_HOME/mydesign-docs, ~/.local/share/mydesign-docs).
    #[arg(long, value_name = "DIR")]
    bundles: Vec<PathBuf>,
    /// Serve streamable HTTP at http://ADDR/mcp instead of stdio. ADDR is HOST:PORT, or a PORT bound on 127.0.0.1
    /// (port 0 picks a free one, logged on stderr).
    #[arg(long, value_name = "ADDR", value_parser = parse_addr)]
    http: Option<SocketAddr>,
    /// With --http: also accept requests from this browser Origin (scheme://host:port or scheme://host:*);
    /// repeatable. http://localhost, http://127.0.0.1 and requests without Origin are always accepted.
    #[arg(long, value_name = "ORIGIN", requires = "http")]
    allow_origin: Vec<String>,
    /// Cap on every answer, in tokens (default: each bundle set's `max_tokens`, 10,000 unless configured); calls
    /// may only lower it. Answers over it are cut on whole lines, with a cursor to continue.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(200..))]
    max_tokens: Option<u32>,
    /// The project whose dependencies pick the version served of each system (node_modules, else the lockfile:
    /// package-lock.json, pnpm-lock.yaml, yarn.lock; else the range in package.json); when that version is not
    /// installed, the nearest lower one, said in every answer. Default: the current directory when it has a
    /// package.json.
    #[arg(long, value_name = "DIR")]
    project: Option<PathBuf>,
}

/// Pins each system's version to the one the project uses ([`mydesign_docs::project`]), logging what was chosen.
fn pin_project(library: &mut Library, project: &std::path::Path) -> anyhow::Result<()> {
    for (system, versions) in library.systems() {
        let set = library.select(Some(&system), None)?;
        let package = set.manifest().package.clone().unwrap_or_else(|| system.clone());
        let Some(wanted) = project_version(project, &package) else {
            tracing::info!(
                "{}: no dependency on {package}; serving {system} {}",
                project.display(),
                set.manifest().version
            );
            continue;
        };
        let Some(choice) = choose(&wanted, &versions) else { continue };
        tracing::info!(
            "{}: {package} {} ({}); serving {system} {}",
            project.display(),
            wanted.version,
            wanted.source.file(),
            choice.version
        );
        library.pin(&system, &choice.version, choice.note)?;
    }
    Ok(())
}

fn parse_addr(s: &str) -> Result<SocketAddr, String> {
    if let Ok(port) = s.parse::<u16>() {
        return Ok(SocketAddr::from((Ipv4Addr::LOCALHOST, port)));
    }
    s.parse().map_err(|_| format!("`{s}` is not HOST:PORT (e.g. 127.0.0.1:8080) or a port"))
}

/// Logs go to stderr only (stdout is the protocol on stdio); the level comes from `RUST_LOG`, default: warnings,
/// plus this program's own start-up line.
fn init_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn,mydesign_docs=info"));
    let _ = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr).try_init();
}

pub fn run(args: ServeArgs) -> anyhow::Result<ExitCode> {
    init_logging();
    let mut library = open_library(&args.bundles)?;
    if let Some(project) = args.project.clone().or_else(default_project) {
        if !project.is_dir() {
            anyhow::bail!("--project {}: no such directory", project.display());
        }
        pin_project(&mut library, &project)?;
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
            let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().context("tokio runtime")?;
            runtime.block_on(async {
                let http = bind_http(HttpOptions { addr, allow_origins: args.allow_origin }).await?;
                // Said whatever RUST_LOG is: with port 0 this is the only way to learn the port.
                eprintln!("serving MCP at {}", http.url());
                http.serve(server).await
            })?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
