//! The MCP server (rmcp): the lookups of [`crate::read`] as MCP tools, rendered by [`crate::render`], over stdio
//! or streamable HTTP. This is the only module that knows MCP or JSON-RPC; it adds no parsing, no tree-sitter and
//! no tokenizing of its own: every tool is one [`Library::select`], one [`BundleSet`](crate::read::BundleSet)
//! method and one [`Render`].
//!
//! - Tools ([`tools`]): `list_components`, `component_details`, `get_code_block`, `get_changelog`,
//!   `list_component_files`, `get_file_code`, `get_function_code`, `search_docs`. Those that return text take
//!   `max_tokens` (lowering the operator's cap, `serve --max-tokens`) and `cursor` (continuing a cut answer). Every one is read-only, declares an
//!   `outputSchema` (the fields every answer shares, cut from its view's JSON schema: [`tools::output_schema`]) and
//!   answers with `structuredContent` (the whole view) plus the rendered text. A failed lookup is a result with `isError: true` whose text names what exists; malformed arguments
//!   (wrong types, a zero index or page, an unknown tool) are JSON-RPC invalid-params errors.
//! - Resources: the template `mydesign://{system}/{version}/{component}` (version may be `latest`) reads a document
//!   as `component_details` renders it; `resources/list` lists the documents of each system's highest version.
//! - Transports: [`serve_stdio`] (stdout carries only JSON-RPC) and [`bind_http`] + [`HttpListener::serve`]
//!   (`/mcp`, loopback by default, `Host` and `Origin` checked).

mod http;
pub mod tools;

use std::path::PathBuf;
use std::sync::Arc;

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, Implementation, ListResourceTemplatesResult, ListResourcesResult,
    PaginatedRequestParams, ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult, Resource,
    ResourceContents, ResourceTemplate, ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt, tool_handler};

pub use http::{HttpListener, HttpOptions, MCP_PATH, bind_http};

use crate::read::{Library, LookupError};
use crate::render::Render;

/// Why the server could not start or stopped with an error.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The MCP handshake over stdio failed (the client closed the stream or sent no valid `initialize`).
    #[error("MCP session did not start: {0}")]
    Initialize(String),
    /// The HTTP address could not be bound.
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// Address asked for.
        addr: std::net::SocketAddr,
        /// The operating system's reason.
        source: std::io::Error,
    },
    /// Any other I/O failure of a transport.
    #[error("{what}: {source}")]
    Io {
        /// What was being done.
        what: &'static str,
        /// The operating system's reason.
        source: std::io::Error,
    },
}

/// The URI scheme of document resources: `mydesign://{system}/{version}/{component}`.
pub const RESOURCE_SCHEME: &str = "mydesign://";

/// Where bundles are looked for when no `--bundles` is given: `./out`, then the store
/// ([`crate::store::default_dirs`]: `--store`/`$MYDESIGN_DOCS_HOME`, else `$XDG_DATA_HOME/mydesign-docs`, else
/// `$HOME/.local/share/mydesign-docs`).
pub fn default_bundle_dirs() -> Vec<PathBuf> {
    crate::store::default_dirs()
}

/// Opens the library to serve: every set in `dirs` when some are given (`--bundles`, repeatable), else the first of
/// [`default_bundle_dirs`] that holds a set. Only directory names and the manifests of sets given directly are read:
/// no bundle is decompressed here.
///
/// # Errors
/// [`LookupError::NoBundles`] naming every directory searched; a damaged manifest of a set given directly.
pub fn open_library(dirs: &[PathBuf]) -> Result<Library, LookupError> {
    if !dirs.is_empty() {
        for dir in dirs.iter().filter(|d| !d.is_dir()) {
            tracing::warn!("--bundles {}: no such directory", dir.display());
        }
        return Library::scan(dirs);
    }
    let defaults = default_bundle_dirs();
    for dir in &defaults {
        match Library::scan(std::slice::from_ref(dir)) {
            Err(LookupError::NoBundles { .. }) => continue,
            other => {
                tracing::info!("bundles from {}", dir.display());
                return other;
            }
        }
    }
    Library::scan(&defaults)
}

/// The MCP server: the library it reads and the tool router. Cheap to clone (one per HTTP session).
#[derive(Clone)]
pub struct DocsServer {
    library: Arc<Library>,
    /// The operator's cap on every answer, in tokens (`serve --max-tokens`); else each set's configured cap.
    max_tokens: Option<u32>,
    instructions: Arc<str>,
    tool_router: ToolRouter<Self>,
}

impl DocsServer {
    /// A server reading `library`.
    pub fn new(library: Arc<Library>) -> Self {
        let instructions = instructions(&library).into();
        DocsServer { library, instructions, max_tokens: None, tool_router: Self::tool_router() }
    }

    /// The same server with every answer capped at `max_tokens` tokens (at least
    /// [`crate::budget::MIN_MAX_TOKENS`]) instead of each bundle set's configured cap (10,000 by default).
    pub fn with_max_tokens(mut self, max_tokens: u32) -> Self {
        self.max_tokens = Some(max_tokens.max(crate::budget::MIN_MAX_TOKENS));
        self
    }

    /// The cap for answers from `set`.
    pub(crate) fn cap(&self, set: &crate::read::BundleSet) -> u32 {
        self.max_tokens.unwrap_or(set.manifest().thresholds.max_tokens)
    }

    /// The library served.
    pub fn library(&self) -> &Arc<Library> {
        &self.library
    }
}

/// The `instructions` of the initialize result: what is served and the workflow, in a few lines.
pub fn instructions(library: &Library) -> String {
    let served: Vec<String> = library
        .systems()
        .iter()
        .map(|(s, v)| {
            let langs = library.select(Some(s), None).map(|set| set.manifest().langs.join("/")).unwrap_or_default();
            format!("{s} {} ({langs})", v.join(", "))
        })
        .collect();
    format!(
        "Design-system documentation, compiled and exact, served offline: {}. Workflow: search_docs for a question, \
         or list_components → component_details (detail=brief: a card with every section's size; default: long \
         documents show code blocks and big tables as placeholders; sections=[…] or [\"props\"] for parts) → \
         get_code_block; list_component_files → get_file_code (large sources as skeletons; start_line/end_line) → \
         get_function_code; get_changelog (page 1 = newest). Every answer states its size in tokens and fits a \
         budget; a cut answer ends with the call that continues it (cursor). Omit `version` for the highest; pass \
         `system` when several are served; `lang` picks a language (`en` or `en-US`).{}",
        served.join("; "),
        library.notes().iter().map(|n| format!(" Version for this project: {n}.")).collect::<String>()
    )
}

/// The text rmcp gives a tool result when the arguments do not deserialize; such results become invalid-params
/// errors here (the contract: malformed arguments are protocol errors).
const ARGUMENT_ERROR_PREFIX: &str = "failed to deserialize parameters";

fn is_argument_error(response: &CallToolResponse) -> Option<String> {
    let CallToolResponse::Complete(result) = response else { return None };
    if result.is_error != Some(true) || result.structured_content.is_some() {
        return None;
    }
    let text = result.content.first()?.as_text()?.text.as_str();
    text.starts_with(ARGUMENT_ERROR_PREFIX).then(|| text.to_string())
}

/// Parses `mydesign://{system}/{version}/{component}`; `version` `latest` means the highest.
fn parse_resource_uri(uri: &str) -> Option<(&str, Option<&str>, &str)> {
    let rest = uri.strip_prefix(RESOURCE_SCHEME)?;
    let mut parts = rest.splitn(3, '/');
    let (system, version, component) = (parts.next()?, parts.next()?, parts.next()?);
    if system.is_empty() || version.is_empty() || component.is_empty() || component.contains('/') {
        return None;
    }
    Some((system, (version != "latest").then_some(version), component))
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for DocsServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().enable_resources().build())
            .with_server_info(Implementation::new("mydesign-docs", env!("CARGO_PKG_VERSION")))
            .with_instructions(self.instructions.to_string())
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        if self.tool_router.get(&request.name).is_none() {
            let names: Vec<String> = self.tool_router.list_all().into_iter().map(|t| t.name.into_owned()).collect();
            return Err(ErrorData::invalid_params(
                format!("unknown tool `{}`; tools: {}", request.name, names.join(", ")),
                None,
            ));
        }
        let response = self.tool_router.call(ToolCallContext::new(self, request, context)).await?;
        match is_argument_error(&response) {
            Some(message) => Err(ErrorData::invalid_params(message, None)),
            None => Ok(response),
        }
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let mut resources = Vec::new();
        for (system, _) in self.library.systems() {
            // A set whose manifest cannot be read is left out of the list; reading it reports why.
            let Ok(set) = self.library.select(Some(&system), None) else { continue };
            let m = set.manifest();
            for c in m.components.iter().filter(|c| !c.docs.is_empty()) {
                let mut r = Resource::new(format!("{RESOURCE_SCHEME}{}/{}/{}", m.system, m.version, c.name), &c.name)
                    .with_mime_type("text/markdown");
                if let Some(t) = &c.title {
                    r = r.with_title(t);
                }
                if let Some(b) = &c.brief {
                    r = r.with_description(b);
                }
                resources.push(r);
            }
        }
        Ok(ListResourcesResult::with_all_items(resources))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        let template =
            ResourceTemplate::new(format!("{RESOURCE_SCHEME}{{system}}/{{version}}/{{component}}"), "document")
                .with_title("Component document")
                .with_description(
                    "A component's document as component_details renders it (version `latest` = the highest served; \
                 component `changelog-N` = changelog page N).",
                )
                .with_mime_type("text/markdown");
        Ok(ListResourceTemplatesResult::with_all_items(vec![template]))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let uri = request.uri;
        let (system, version, component) = parse_resource_uri(&uri).ok_or_else(|| {
            ErrorData::invalid_params(
                format!(
                    "`{uri}` is not a document URI: expected {RESOURCE_SCHEME}{{system}}/{{version}}/{{component}}"
                ),
                None,
            )
        })?;
        let view = self
            .library
            .select(Some(system), version)
            .and_then(|set| {
                let paging =
                    crate::read::Paging { budget: crate::budget::Budget::new(self.cap(&set), None)?, cursor: None };
                tools::details(&set, component, None, crate::read::Detail::Normal, &[], paging)
            })
            .map_err(|e| ErrorData::resource_not_found(e.to_string(), None))?;
        let contents = ResourceContents::text(view.text(), uri).with_mime_type("text/markdown");
        Ok(ReadResourceResult::new(vec![contents]).into())
    }
}

/// Serves `server` over stdio until the client closes the stream. stdout carries only JSON-RPC messages; logs go
/// to stderr.
///
/// # Errors
/// [`ServeError::Initialize`] when the handshake fails; [`ServeError::Io`] when the session ends abnormally.
pub async fn serve_stdio(server: DocsServer) -> Result<(), ServeError> {
    let running =
        server.serve(rmcp::transport::stdio_pipes()).await.map_err(|e| ServeError::Initialize(e.to_string()))?;
    tracing::debug!("MCP session initialized over stdio");
    let reason = running
        .waiting()
        .await
        .map_err(|e| ServeError::Io { what: "stdio session", source: std::io::Error::other(e) })?;
    tracing::debug!(?reason, "MCP session over stdio ended");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resource_uris_parse() {
        assert_eq!(parse_resource_uri("mydesign://semi/2.102.0/table"), Some(("semi", Some("2.102.0"), "table")));
        assert_eq!(parse_resource_uri("mydesign://semi/latest/changelog-3"), Some(("semi", None, "changelog-3")));
        assert_eq!(parse_resource_uri("mydesign://semi/2.102.0"), None);
        assert_eq!(parse_resource_uri("mydesign://semi/2.102.0/a/b"), None);
        assert_eq!(parse_resource_uri("file:///etc/passwd"), None);
    }
}
