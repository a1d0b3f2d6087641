//! The MCP server (rmcp): the lookups of [`crate::read`] as MCP tools, rendered by [`crate::render`], over stdio
//! or streamable HTTP. This is the only module that knows MCP or JSON-RPC; it adds no parsing, no tree-sitter and
//! no tokenizing of its own: every tool is one [`Library::select`], one [`BundleSet`](crate::read::BundleSet)
//! method and one [`Render`].
//!
//! - Tools ([`tools`]): `list_components` (with `component`: its files), `component_details`, `get_code_block`,
//!   `get_changelog`, `get_file_code`, `get_function_code`, `search_docs`, `component_changes` (what changed since
//!   an older installed version, [`crate::diff`]). Those that return text take
//!   `max_tokens` (lowering the operator's cap, `serve --max-tokens`) and `cursor` (continuing a cut answer). Every one is read-only, declares an
//!   `outputSchema` (the fields every answer shares, cut from its view's JSON schema: [`tools::output_schema`]) and
//!   answers with `structuredContent` (the whole view) plus the rendered text. A failed lookup is a result with `isError: true` whose text names what exists; so are malformed
//!   arguments (wrong types, a zero index or page, a missing or unknown argument: [`tools::check_arguments`], MCP
//!   2025-11-25 SEP-1303), so the model can correct its call. Only an unknown tool or a malformed request is a
//!   JSON-RPC error. A panic inside a tool or resource read is caught at that boundary ([`guarded`]): the call is
//!   answered with an `isError` "internal error" result, the panic is logged on stderr, and the server goes on.
//! - Resources: the template `mydesign://{system}/{version}/{component}` (version may be `latest`) reads a document
//!   as `component_details` renders it; `resources/list` lists the documents of each system's highest version.
//! - Transports: [`serve_stdio`] / [`serve_io`] (stdout carries only JSON-RPC; framing: [`stdio`]) and [`bind_http`] + [`HttpListener::serve`]
//!   (`/mcp`, loopback by default, `Host` and `Origin` checked). Both answer a misshapen message (a `tools/call`
//!   without a tool name, or with `arguments` that are not an object, …) with the one [`precheck`].

pub mod answers;
mod http;
pub mod ids;
pub mod precheck;
pub mod probe;
mod replay;
pub mod stdio;
pub mod tools;

use std::path::PathBuf;
use std::sync::Arc;

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::tool::ToolCallContext;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation, ListResourceTemplatesResult,
    ListResourcesResult, PaginatedRequestParams, ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult,
    Resource, ResourceContents, ResourceTemplate, ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, tool_handler};

pub use http::{
    DEFAULT_CONNECTION_IDLE, DEFAULT_MAX_CONNECTIONS, DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_IDLE, HttpListener,
    HttpOptions, MCP_PATH, bind_http,
};
pub use stdio::{MAX_LINE_BYTES, serve_io, serve_stdio};

use crate::read::{Library, LookupError};
use crate::render::Render;

/// Why the server could not start or stopped with an error.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The MCP handshake over stdio failed (the client closed the stream or sent no valid `initialize`).
    #[error("MCP session did not start: {0}")]
    Initialize(String),
    /// The HTTP address could not be bound. The reason is part of the message, not a `source` (printing the error
    /// chain would say it twice).
    #[error("cannot listen on {addr}: {reason}")]
    Bind {
        /// Address asked for.
        addr: std::net::SocketAddr,
        /// The operating system's reason.
        reason: std::io::Error,
    },
    /// Any other I/O failure of a transport (the reason in the message, as for [`ServeError::Bind`]).
    #[error("{what}: {reason}")]
    Io {
        /// What was being done.
        what: &'static str,
        /// The operating system's reason.
        reason: std::io::Error,
    },
}

/// The URI scheme of document resources: `mydesign://{system}/{version}/{component}`.
pub const RESOURCE_SCHEME: &str = "mydesign://";

/// Opens the library to serve ([`Library::open`]: the sets of `dirs`, else of `./out`, else of the store), logging
/// a `--bundles` directory that does not exist and where the sets were found.
///
/// # Errors
/// As [`Library::open`].
pub fn open_library(dirs: &[PathBuf]) -> Result<Library, LookupError> {
    for dir in dirs.iter().filter(|d| !d.is_dir()) {
        tracing::warn!("--bundles {}: no such directory", dir.display());
    }
    let library = Library::open(dirs)?;
    if dirs.is_empty() {
        for dir in library.dirs() {
            tracing::info!("bundles from {}", dir.display());
        }
    }
    Ok(library)
}

/// The MCP server: the library it reads and the tool router. Cheap to clone (one per HTTP session).
#[derive(Clone)]
pub struct DocsServer {
    library: Arc<Library>,
    /// The operator's cap on every answer, in tokens (`serve --max-tokens`); else each set's configured cap.
    max_tokens: Option<u32>,
    instructions: Arc<str>,
    tool_router: ToolRouter<Self>,
    /// Recent answers per set, shared by every clone (HTTP sessions): repeated calls skip the lookup, the rendering
    /// and the JSON conversion.
    answers: Arc<answers::Answers>,
    /// Called first inside the panic boundary of every tool call (with the tool name) and resource read (with the
    /// URI); see [`DocsServer::with_fault_hook`].
    fault_hook: Option<FaultHook>,
    /// Tool calls run on the blocking pool ([`DocsServer::offloaded`]).
    offload: bool,
}

/// A function run inside the panic boundary of every call: the tool name, or the URI of a resource read.
pub type FaultHook = Arc<dyn Fn(&str) + Send + Sync>;

impl DocsServer {
    /// A server reading `library`.
    pub fn new(library: Arc<Library>) -> Self {
        let instructions = instructions(&library).into();
        DocsServer {
            library,
            instructions,
            max_tokens: None,
            tool_router: Self::tool_router(),
            answers: Arc::default(),
            fault_hook: None,
            offload: false,
        }
    }

    /// The same server running `hook` first inside the panic boundary of every tool call (given the tool name) and
    /// resource read (given the URI). For tests of that boundary: a hook that panics shows that the call is still
    /// answered; one that counts shows which calls reach the handler (a repeated call over stdio is replayed
    /// without: [`replay`]). Only Rust code embedding the server can set it; no command-line option or protocol
    /// message does.
    #[doc(hidden)]
    pub fn with_fault_hook(mut self, hook: FaultHook) -> Self {
        self.fault_hook = Some(hook);
        self
    }

    fn fault_point(&self, what: &str) {
        if let Some(hook) = &self.fault_hook {
            hook(what);
        }
    }

    /// The same server with every answer capped at `max_tokens` tokens (at least
    /// [`crate::budget::MIN_MAX_TOKENS`]) instead of each bundle set's configured cap (10,000 by default).
    pub fn with_max_tokens(mut self, max_tokens: u32) -> Self {
        self.max_tokens = Some(max_tokens.max(crate::budget::MIN_MAX_TOKENS));
        self
    }

    /// The cap for answers from `set`.
    pub(crate) fn cap(&self, set: &crate::read::BundleSet) -> u32 {
        self.max_tokens.unwrap_or(set.head().thresholds.max_tokens)
    }

    /// The budget an error answer fits, in tokens: the call's `max_tokens` (raised to
    /// [`crate::budget::MIN_MAX_TOKENS`]), else `default` (the tool's default answer size), both lowered to the
    /// operator's cap (`serve --max-tokens`, else [`crate::budget::DEFAULT_MAX_TOKENS`]: no set is known yet).
    pub(crate) fn error_budget(&self, max_tokens: Option<u32>, default: u32) -> u32 {
        let asked = max_tokens.map_or(default, |m| m.max(crate::budget::MIN_MAX_TOKENS));
        asked.min(self.max_tokens.unwrap_or(crate::budget::DEFAULT_MAX_TOKENS))
    }

    /// The cap ([`DocsServer::cap`]) of the set `system` and `version` select, which an error fits as its answers
    /// do (trial 7: a set built with a cap of 300 answered a misspelt section with a 463-token error); `u32::MAX`
    /// when none is selected (the error is then about that).
    pub(crate) fn set_cap(&self, system: Option<&str>, version: Option<&str>) -> u32 {
        self.library.select(system, version).map_or(u32::MAX, |set| self.cap(&set).max(crate::budget::MIN_MAX_TOKENS))
    }

    /// The library served.
    pub fn library(&self) -> &Arc<Library> {
        &self.library
    }

    /// The names of the tools, in `tools/list` order.
    pub fn tool_names(&self) -> Vec<String> {
        self.tool_router.list_all().into_iter().map(|t| t.name.into_owned()).collect()
    }

    /// The set a tool call with `arguments` reads, as the tool's own `select` will choose it (by `system` and
    /// `version`): it keys the kept answers. `None` when none is selected (the call answers an error).
    pub(crate) fn answered_from(
        &self,
        arguments: Option<&rmcp::model::JsonObject>,
    ) -> Option<Arc<crate::read::BundleSet>> {
        let arg = |k: &str| arguments.and_then(|a| a.get(k)).and_then(serde_json::Value::as_str);
        self.library.select(arg("system"), arg("version")).ok()
    }

    /// The same server running each tool call on tokio's blocking pool instead of the runtime's thread (what the
    /// HTTP transport serves: sessions share that thread). Over stdio the one session waits for its answers anyway,
    /// and the hop would add to every call's latency.
    pub fn offloaded(mut self) -> Self {
        self.offload = true;
        self
    }

    /// A tool call answered (inside the panic boundary, from the kept answers when it repeats one): what
    /// `call_tool` returns before fitting error results to the budget.
    async fn answer_call(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let name = request.name.to_string();
        let answered = guarded(&format!("tool {name}"), async {
            self.fault_point(&name);
            if let Some(tool) = self.tool_router.get(&name)
                && let Err(message) = tools::check_arguments(&tool.input_schema, request.arguments.as_ref())
            {
                return Ok(CallToolResult::error(vec![ContentBlock::text(format!("{name}: {message}"))]).into());
            }
            let set = self.answered_from(request.arguments.as_ref());
            let key = answers::answer_key(&name, request.arguments.as_ref());
            if let Some(hit) = set.as_ref().and_then(|set| self.answers.get(set, &key)) {
                return Ok(hit.into());
            }
            let response = self.tool_router.call(ToolCallContext::new(self, request, context)).await;
            if let (Some(set), Ok(CallToolResponse::Complete(result))) = (&set, &response) {
                self.answers.put(set, key, result);
            }
            response
        })
        .await;
        answered.unwrap_or_else(|message| Ok(CallToolResult::error(vec![ContentBlock::text(message)]).into()))
    }

    /// The shape check both transports run on each message before rmcp sees it ([`precheck`]).
    pub fn precheck(&self) -> precheck::Precheck {
        precheck::Precheck::new(self.tool_names())
    }
}

/// The `instructions` of the initialize result: what is served and the workflow, in a few lines.
pub fn instructions(library: &Library) -> String {
    let served: Vec<String> = library
        .systems()
        .iter()
        .map(|(s, v)| {
            let langs = library.select(Some(s), None).map(|set| set.head().langs.join("/")).unwrap_or_default();
            format!("{s} {} ({langs})", v.join(", "))
        })
        .collect();
    format!(
        "Design-system documentation, compiled and exact, served offline: {}. Workflow: search_docs for a question, \
         or list_components → component_details (detail=brief: a card with every section's size; default: long \
         documents show code blocks and big tables as placeholders; sections=[…] or [\"props\"] for parts) → \
         get_code_block; list_components(components=[…]) for several at once (import line, the props that matter, one \
         example each, in one budget); list_components(component=…) → get_file_code (large sources as skeletons; \
         start_line/end_line) → get_function_code; get_changelog (page 1 = newest); component_changes(from=…) for \
         what changed since an older version. Every answer states its size in tokens and fits a \
         budget; a cut answer ends with the call that continues it (cursor). Omit `version` for the highest; pass \
         `system` when several are served; `lang` picks a language (`en` or `en-US`).{}",
        served.join("; "),
        library.notes().iter().map(|n| format!(" Version for this project: {n}.")).collect::<String>()
    )
}

/// Runs `future`, turning a panic while it is polled into `Err` with the panic's message (also logged on stderr),
/// so that every request is answered and the server keeps serving. The views and the reader hold no locks or
/// shared mutable state across a call, so nothing is left half-updated by the unwinding.
pub async fn guarded<F: std::future::Future>(what: &str, future: F) -> Result<F::Output, String> {
    let mut future = std::pin::pin!(future);
    let caught = std::future::poll_fn(|cx| {
        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| future.as_mut().poll(cx))) {
            Ok(std::task::Poll::Pending) => std::task::Poll::Pending,
            Ok(std::task::Poll::Ready(output)) => std::task::Poll::Ready(Ok(output)),
            Err(payload) => std::task::Poll::Ready(Err(payload)),
        }
    })
    .await;
    caught.map_err(|payload| {
        let message = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic without a message".to_string());
        tracing::error!("internal error in {what}: {message}");
        format!(
            "internal error in {what}: {message}. This is a bug in mydesign-docs {}, please report it with the call \
             that caused it; the server is still running.",
            env!("CARGO_PKG_VERSION")
        )
    })
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
            return Err(ErrorData::invalid_params(precheck::unknown_tool(&request.name, &self.tool_names()), None));
        }
        let name = request.name.to_string();
        let max_tokens = request.arguments.as_ref().and_then(|a| a.get("max_tokens")).and_then(|m| m.as_u64());
        let mut answered = if self.offload {
            // Off the runtime's one I/O thread (HTTP): a long lookup holds a blocking-pool thread, not every other
            // session's reads and writes (issue 26 §3: one 6 MB search stalled every session for ~13 s).
            let server = self.clone();
            let runtime = tokio::runtime::Handle::current();
            let call = tokio::task::spawn_blocking(move || runtime.block_on(server.answer_call(request, context)));
            match call.await {
                Ok(answered) => answered,
                Err(e) => Ok(CallToolResult::error(vec![ContentBlock::text(format!(
                    "internal error in tool {name}: the call did not finish ({e}); the server is still running"
                ))])
                .into()),
            }
        } else {
            self.answer_call(request, context).await
        };
        // Every isError result within the call's budget, whatever made it (arguments, a panic, a lookup: those
        // are fitted already, with their lists cut by name).
        if let Ok(CallToolResponse::Complete(result)) = &mut answered
            && result.is_error == Some(true)
        {
            let asked = max_tokens.and_then(|m| u32::try_from(m).ok()).or(max_tokens.map(|_| u32::MAX));
            let default = if name == "search_docs" {
                crate::search::query::DEFAULT_MAX_TOKENS
            } else {
                crate::budget::DEFAULT_MAX_TOKENS
            };
            let budget = self.error_budget(asked, default);
            for block in &mut result.content {
                if let Some(text) = block.as_text().map(|t| t.text.clone()) {
                    *block = ContentBlock::text(crate::budget::fit_error(&text, None, budget));
                }
            }
        }
        answered
    }

    async fn list_resources(
        &self,
        request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let mut resources = Vec::new();
        // The answer is capped as tools' are (the smallest cap of the sets listed): a page of resources, then
        // `nextCursor` (a new user's trial: 251 resources were 13,629 tokens in one answer).
        let mut cap = u32::MAX;
        for (system, _) in self.library.systems() {
            // A set whose manifest cannot be read is left out of the list; reading it reports why.
            let Ok(set) = self.library.select(Some(&system), None) else { continue };
            cap = cap.min(self.cap(&set));
            let Ok(m) = set.manifest() else { continue };
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
        let first = match request.and_then(|r| r.cursor) {
            None => 0,
            Some(c) => c.parse::<usize>().ok().filter(|&n| n > 0 && n < resources.len()).ok_or_else(|| {
                ErrorData::invalid_params(
                    format!("cursor `{}` is not one this list gave: list again without it", crate::read::echo(&c)),
                    None,
                )
            })?,
        };
        let (kept, _) = crate::budget::listed_within(
            resources[first..].iter().map(|r| crate::budget::bound(&serde_json::to_string(r).unwrap_or_default()) + 1),
            cap.saturating_sub(crate::budget::ENVELOPE_TOKENS),
        );
        let end = (first + kept.max(1)).min(resources.len());
        let next_cursor = (end < resources.len()).then(|| end.to_string());
        let page = resources.drain(first..end).collect();
        Ok(ListResourcesResult { next_cursor, ..ListResourcesResult::with_all_items(page) })
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
        let what = format!("resource {}", request.uri);
        match guarded(&what, async { self.read_document(request.uri) }).await {
            Ok(answer) => answer,
            Err(message) => Err(ErrorData::internal_error(message, None)),
        }
    }
}

impl DocsServer {
    /// `resources/read` of a document URI.
    fn read_document(&self, uri: String) -> Result<ReadResourceResponse, ErrorData> {
        self.fault_point(&uri);
        let (system, version, component) = parse_resource_uri(&uri).ok_or_else(|| {
            ErrorData::invalid_params(
                format!(
                    "`{}` is not a document URI: expected {RESOURCE_SCHEME}{{system}}/{{version}}/{{component}}",
                    crate::read::echo(&uri)
                ),
                None,
            )
        })?;
        let view = self
            .library
            .fallback(|| {
                let set = self.library.select(Some(system), version)?;
                let paging =
                    crate::read::Paging { budget: crate::budget::Budget::new(self.cap(&set), None)?, cursor: None };
                set.details(component, None, crate::read::Detail::Normal, &[], paging)
            })
            .map_err(|e| ErrorData::resource_not_found(e.to_string(), None))?;
        let contents = ResourceContents::text(view.text(), uri).with_mime_type("text/markdown");
        Ok(ReadResourceResult::new(vec![contents]).into())
    }
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
