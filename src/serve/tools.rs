//! The MCP tools: their parameters (the doc comments become each tool's `inputSchema`), and one method per tool
//! calling the reader. Each answer is `structuredContent` (the view, whose JSON schema is the tool's
//! `outputSchema`) plus the view's rendered text; a failed lookup is an `isError` result with the
//! [`LookupError`]'s message, which names what exists.

use std::sync::Arc;

use rmcp::handler::server::tool::schema_for_output;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock, JsonObject};
use rmcp::{ErrorData, tool, tool_router};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::DocsServer;
use crate::budget::{Budget, Cursor, Request};
use crate::read::{
    BundleSet, CardView, ChangelogView, CodeBlockView, ComponentsView, Detail, DocView, FileView, FilesView,
    FunctionView, LookupError, Paging, PropsView, changelog_page_name,
};
use crate::render::Render;

/// Which bundle set to read; part of every tool's parameters.
#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct SetParams {
    /// Design system, when several are served.
    pub system: Option<String>,
    /// Default: the highest served.
    pub version: Option<String>,
}

/// Budget and continuation; part of the parameters of every tool that returns text.
#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct PageParams {
    /// Lower token cap for this answer (min 200).
    pub max_tokens: Option<u32>,
    /// next_cursor of a cut answer, to continue it.
    pub cursor: Option<String>,
}

/// `list_components` parameters.
#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct ListComponentsParams {
    /// Language of the sizes, e.g. en-US, zh-CN (default: the system's own).
    pub lang: Option<String>,
    #[serde(flatten)]
    #[allow(missing_docs)]
    pub set: SetParams,
}

/// `component_details` parameters.
#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct ComponentDetailsParams {
    /// Component name as listed (any spelling: Table, date-picker), or changelog / changelog-N.
    pub component: String,
    /// e.g. en-US, zh-CN (default: the system's own).
    pub lang: Option<String>,
    /// brief: card with sizes; normal (default): code blocks as placeholders if long; full: everything.
    pub detail: Option<Detail>,
    /// Only these headings (title or slug), or "props".
    pub sections: Option<Vec<String>>,
    #[serde(flatten)]
    #[allow(missing_docs)]
    pub paging: PageParams,
    #[serde(flatten)]
    #[allow(missing_docs)]
    pub set: SetParams,
}

/// `get_code_block` parameters.
#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct CodeBlockParams {
    /// Component name.
    pub component: String,
    /// 1-based, as in the placeholders.
    #[schemars(range(min = 1))]
    pub index: u32,
    /// e.g. en-US, zh-CN (default: the system's own).
    pub lang: Option<String>,
    #[serde(flatten)]
    #[allow(missing_docs)]
    pub paging: PageParams,
    #[serde(flatten)]
    #[allow(missing_docs)]
    pub set: SetParams,
}

/// `get_changelog` parameters.
#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct ChangelogParams {
    /// 1-based; 1 (default) = newest.
    #[schemars(range(min = 1))]
    pub page: Option<u32>,
    /// e.g. en-US, zh-CN (default: the system's own).
    pub lang: Option<String>,
    #[serde(flatten)]
    #[allow(missing_docs)]
    pub paging: PageParams,
    #[serde(flatten)]
    #[allow(missing_docs)]
    pub set: SetParams,
}

/// `list_component_files` parameters.
#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct ComponentFilesParams {
    /// Component name.
    pub component: String,
    #[serde(flatten)]
    #[allow(missing_docs)]
    pub set: SetParams,
}

/// `get_file_code` parameters.
#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct FileCodeParams {
    /// Repository-relative path, as listed by list_component_files.
    pub path: String,
    /// Whole file, not the skeleton.
    #[serde(default)]
    pub full: bool,
    /// First line to return (1-based); with end_line, exactly those lines.
    pub start_line: Option<u32>,
    /// Last line to return (inclusive).
    pub end_line: Option<u32>,
    #[serde(flatten)]
    #[allow(missing_docs)]
    pub paging: PageParams,
    #[serde(flatten)]
    #[allow(missing_docs)]
    pub set: SetParams,
}

/// `get_function_code` parameters.
#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct FunctionCodeParams {
    /// Repository-relative path, as listed.
    pub path: String,
    /// Qualified name (Table.render) or a simple name unique in the file.
    pub function: String,
    #[serde(flatten)]
    #[allow(missing_docs)]
    pub paging: PageParams,
    #[serde(flatten)]
    #[allow(missing_docs)]
    pub set: SetParams,
}

/// `component_details`' answer: a document, or a changelog page when the name is `changelog` / `changelog-N`
/// (Semi's addressing). Serialized as the inner view, untagged.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum DetailsView {
    /// A component's document.
    Doc(DocView),
    /// A changelog page.
    Changelog(ChangelogView),
    /// A component card (`detail=brief`).
    Card(CardView),
    /// Props tables (`sections=["props"]`).
    Props(PropsView),
}

impl Render for DetailsView {
    fn render(&self, surface: crate::render::Surface) -> String {
        match self {
            DetailsView::Doc(v) => v.render(surface),
            DetailsView::Changelog(v) => v.render(surface),
            DetailsView::Card(v) => v.render(surface),
            DetailsView::Props(v) => v.render(surface),
        }
    }
}

/// What `component_details` (and the CLI's `doc`) answers: a changelog page for `changelog` / `changelog-N` unless
/// a component has that name; the props tables for `sections=["props"]` (unless the document has a heading of that
/// name); the card for `detail=brief` without sections; else the document or its sections.
///
/// # Errors
/// As [`BundleSet::doc`], [`BundleSet::card`], [`BundleSet::props`] and [`BundleSet::changelog`].
pub fn details(
    set: &BundleSet,
    name: &str,
    lang: Option<&str>,
    detail: Detail,
    sections: &[String],
    paging: Paging,
) -> Result<DetailsView, LookupError> {
    if let Some(page) = changelog_page_name(name).filter(|_| set.component(name).is_err()) {
        return set.changelog(page, lang, paging).map(DetailsView::Changelog);
    }
    let continues = |what: &str| {
        paging.cursor.and_then(|c| Cursor::decode(c).ok()).is_some_and(|c| match c.request {
            Request::Doc { detail, .. } => detail == what,
            _ => false,
        })
    };
    let props_asked = matches!(sections, [one] if one.trim().eq_ignore_ascii_case("props"));
    if (props_asked && !set.has_section(name, lang, "props")?) || continues("props") {
        return set.props(name, lang, paging).map(DetailsView::Props);
    }
    if (detail == Detail::Brief && sections.is_empty() && paging.cursor.is_none()) || continues("brief") {
        return set.card(name, lang, paging).map(DetailsView::Card);
    }
    set.doc(name, lang, detail, sections, paging).map(DetailsView::Doc)
}

/// The fields an `outputSchema` declares: the ones every answer shares (the system and version served, and for
/// answers with a text, the text and its size in tokens).
pub const OUTPUT_ENVELOPE: [&str; 4] = ["system", "version", "tokens", "text"];

/// The `outputSchema` of a tool answering `T`: the [`OUTPUT_ENVELOPE`] fields of `T`'s serialized JSON schema
/// (schemars), with their types, required when `T` always writes them. The view's other fields are in every
/// `structuredContent` too (documented on the view types in `crate::read`), but declaring them all would more than
/// double `tools/list`, whose every token is paid for in the agent's context. Extra fields are allowed, so the
/// schema validates every answer (the Python SDK checks each one against it in the tests). A view with several
/// shapes (an untagged enum, an `anyOf`) declares the envelope fields all of them have.
pub fn output_schema<T: JsonSchema + 'static>() -> Arc<JsonObject> {
    let full = schema_for_output::<T>();
    let defs = full.get("$defs").and_then(Value::as_object);
    let shapes: Vec<&JsonObject> = match full.get("anyOf").and_then(Value::as_array) {
        Some(any) => any.iter().filter_map(Value::as_object).map(|s| resolve(s, defs)).collect(),
        None => vec![full.as_ref()],
    };
    let mut properties = JsonObject::new();
    let mut required = Vec::new();
    for field in OUTPUT_ENVELOPE {
        let types: Option<Vec<Value>> = shapes
            .iter()
            .map(|s| s.get("properties")?.get(field)?.as_object().and_then(|p| type_of(p, defs)))
            .collect();
        let Some(t) = types.and_then(|t| t.into_iter().next()) else { continue };
        properties.insert(field.into(), json!({ "type": t }));
        let required_in =
            |s: &&JsonObject| s.get("required").and_then(Value::as_array).is_some_and(|r| r.contains(&field.into()));
        if shapes.iter().all(required_in) {
            required.push(Value::from(field));
        }
    }
    let mut schema = JsonObject::new();
    schema.insert("type".into(), "object".into());
    schema.insert("properties".into(), Value::Object(properties));
    schema.insert("required".into(), Value::Array(required));
    Arc::new(schema)
}

/// Follows a local `$ref` (`#/$defs/Name`).
fn resolve<'a>(schema: &'a JsonObject, defs: Option<&'a JsonObject>) -> &'a JsonObject {
    schema
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| r.strip_prefix("#/$defs/"))
        .and_then(|name| defs?.get(name)?.as_object())
        .unwrap_or(schema)
}

/// The JSON type(s) a property schema allows: its `type`, the type of what it refers to, or the union over an
/// `anyOf`; `None` when unconstrained.
fn type_of(schema: &JsonObject, defs: Option<&JsonObject>) -> Option<Value> {
    let schema = resolve(schema, defs);
    if let Some(t) = schema.get("type") {
        return Some(t.clone());
    }
    if schema.contains_key("properties") {
        return Some("object".into());
    }
    let members = schema.get("anyOf").or_else(|| schema.get("oneOf"))?.as_array()?;
    let mut types: Vec<Value> = Vec::new();
    for m in members {
        match type_of(m.as_object()?, defs)? {
            Value::Array(ts) => types.extend(ts),
            t => types.push(t),
        }
    }
    types.dedup();
    Some(if types.len() == 1 { types.remove(0) } else { Value::Array(types) })
}

/// The `inputSchema` of a tool taking `T`: its JSON schema (the doc comments of `T`'s fields are the argument
/// descriptions the model reads), without the `$schema` URL and number formats, and with optional arguments typed
/// as their value (`"string"`, not `["string", "null"]`): leaving one out is how it is omitted.
///
/// # Panics
/// When `T`'s schema is not an object (a programming error: tool parameters are structs).
pub fn input_schema<T: JsonSchema + 'static>() -> Arc<JsonObject> {
    let mut schema = rmcp::handler::server::tool::schema_for_input::<T>()
        .unwrap_or_else(|e| panic!("tool parameters must be a struct: {e}"))
        .as_ref()
        .clone();
    schema.remove("$schema");
    let required: Vec<Value> = schema.get("required").and_then(Value::as_array).cloned().unwrap_or_default();
    if let Some(props) = schema.get_mut("properties").and_then(Value::as_object_mut) {
        for (name, prop) in props.iter_mut() {
            let Some(prop) = prop.as_object_mut() else { continue };
            prop.remove("format");
            if prop.get("minimum").and_then(Value::as_u64) == Some(0) {
                prop.remove("minimum");
            }
            if !required.iter().any(|r| r == name)
                && let Some(Value::Array(types)) = prop.get("type")
                && let [t, n] = types.as_slice()
                && n == "null"
            {
                let t = t.clone();
                prop.insert("type".into(), t);
            }
        }
    }
    Arc::new(schema)
}

/// A 1-based number that must not be 0.
fn at_least_one(name: &str, n: u32) -> Result<u32, ErrorData> {
    if n == 0 {
        Err(ErrorData::invalid_params(format!("`{name}` is 1-based: 0 is not a valid {name}"), None))
    } else {
        Ok(n)
    }
}

/// The answer to a lookup: the view as `structuredContent` plus its text, or an `isError` result naming what
/// exists.
fn answer<V: Render>(result: Result<V, LookupError>) -> CallToolResult {
    let view = match result {
        Ok(view) => view,
        Err(e) => return CallToolResult::error(vec![ContentBlock::text(e.to_string())]),
    };
    match serde_json::to_value(&view) {
        Ok(value) => {
            let mut result = CallToolResult::success(vec![ContentBlock::text(view.text())]);
            result.structured_content = Some(value);
            result
        }
        Err(e) => CallToolResult::error(vec![ContentBlock::text(format!("cannot serialize the answer: {e}"))]),
    }
}

impl DocsServer {
    /// Selects the set named by `at`, then runs `lookup` on it.
    fn lookup<V: Render>(
        &self,
        at: &SetParams,
        lookup: impl FnOnce(&BundleSet) -> Result<V, LookupError>,
    ) -> CallToolResult {
        answer(self.library.select(at.system.as_deref(), at.version.as_deref()).and_then(|set| lookup(&set)))
    }

    /// [`DocsServer::lookup`] for a tool that returns text: within the operator's cap, lowered by `max_tokens`,
    /// continuing `cursor`.
    fn paged<V: Render>(
        &self,
        at: &SetParams,
        page: &PageParams,
        lookup: impl FnOnce(&BundleSet, Paging) -> Result<V, LookupError>,
    ) -> CallToolResult {
        self.lookup(at, |set| {
            let budget = Budget::new(self.cap(set), page.max_tokens)?;
            lookup(set, Paging { budget, cursor: page.cursor.as_deref() })
        })
    }
}

#[tool_router(router = tool_router, vis = "pub(super)")]
impl DocsServer {
    /// List the components with title, one-line description and the size in tokens of each document.
    #[tool(
        name = "list_components",
        input_schema = input_schema::<ListComponentsParams>(),
        title = "List components",
        description = "List the design system's components: name, title, one-line description, size in tokens of \
                       the document, code blocks and files. Start here.",
        annotations(read_only_hint = true, destructive_hint = false, idempotent_hint = true, open_world_hint = false),
        output_schema = output_schema::<ComponentsView>()
    )]
    fn list_components(&self, Parameters(p): Parameters<ListComponentsParams>) -> CallToolResult {
        self.lookup(&p.set, |set| set.components(p.lang.as_deref()))
    }

    /// A component's document (or a changelog page).
    #[tool(
        name = "component_details",
        input_schema = input_schema::<ComponentDetailsParams>(),
        title = "Component document",
        description = "A component's document (Markdown). Long documents show code blocks as numbered \
                       placeholders: fetch one with get_code_block, or all with full. `changelog` / `changelog-N` \
                       give changelog pages.",
        annotations(read_only_hint = true, destructive_hint = false, idempotent_hint = true, open_world_hint = false),
        output_schema = output_schema::<DetailsView>()
    )]
    fn component_details(&self, Parameters(p): Parameters<ComponentDetailsParams>) -> CallToolResult {
        let sections = p.sections.unwrap_or_default();
        self.paged(&p.set, &p.paging, |set, paging| {
            details(set, &p.component, p.lang.as_deref(), p.detail.unwrap_or_default(), &sections, paging)
        })
    }

    /// One code block of a document.
    #[tool(
        name = "get_code_block",
        input_schema = input_schema::<CodeBlockParams>(),
        title = "Code block",
        description = "One code block of a component's document, exactly as written (fences included), by the \
                       number its placeholder shows.",
        annotations(read_only_hint = true, destructive_hint = false, idempotent_hint = true, open_world_hint = false),
        output_schema = output_schema::<CodeBlockView>()
    )]
    fn get_code_block(&self, Parameters(p): Parameters<CodeBlockParams>) -> Result<CallToolResult, ErrorData> {
        let index = at_least_one("index", p.index)?;
        Ok(self.paged(&p.set, &p.paging, |set, paging| set.code_block(&p.component, index, p.lang.as_deref(), paging)))
    }

    /// One changelog page.
    #[tool(
        name = "get_changelog",
        input_schema = input_schema::<ChangelogParams>(),
        title = "Changelog page",
        description = "One page of the changelog, newest releases first (page 1); the answer names the previous and \
                       next pages.",
        annotations(read_only_hint = true, destructive_hint = false, idempotent_hint = true, open_world_hint = false),
        output_schema = output_schema::<ChangelogView>()
    )]
    fn get_changelog(&self, Parameters(p): Parameters<ChangelogParams>) -> Result<CallToolResult, ErrorData> {
        let page = p.page.map(|n| at_least_one("page", n)).transpose()?;
        Ok(self.paged(&p.set, &p.paging, |set, paging| set.changelog(page, p.lang.as_deref(), paging)))
    }

    /// A component's files.
    #[tool(
        name = "list_component_files",
        input_schema = input_schema::<ComponentFilesParams>(),
        title = "Component files",
        description = "A component's source files with lines, tokens, skeleton sizes and function counts.",
        annotations(read_only_hint = true, destructive_hint = false, idempotent_hint = true, open_world_hint = false),
        output_schema = output_schema::<FilesView>()
    )]
    fn list_component_files(&self, Parameters(p): Parameters<ComponentFilesParams>) -> CallToolResult {
        self.lookup(&p.set, |set| set.files(&p.component))
    }

    /// One file, as its skeleton or whole.
    #[tool(
        name = "get_file_code",
        input_schema = input_schema::<FileCodeParams>(),
        title = "File source",
        description = "A source file by path. Large sources come as a skeleton (function bodies elided) with the \
                       list of their functions; full gives the whole file.",
        annotations(read_only_hint = true, destructive_hint = false, idempotent_hint = true, open_world_hint = false),
        output_schema = output_schema::<FileView>()
    )]
    fn get_file_code(&self, Parameters(p): Parameters<FileCodeParams>) -> CallToolResult {
        let lines = match (p.start_line, p.end_line) {
            (None, None) => None,
            (start, end) => Some((start.unwrap_or(1), end.unwrap_or(u32::MAX))),
        };
        self.paged(&p.set, &p.paging, |set, paging| set.file(&p.path, p.full, lines, paging))
    }

    /// One function of a source.
    #[tool(
        name = "get_function_code",
        input_schema = input_schema::<FunctionCodeParams>(),
        title = "Function source",
        description = "One function, method or arrow function of a source file, exactly as written.",
        annotations(read_only_hint = true, destructive_hint = false, idempotent_hint = true, open_world_hint = false),
        output_schema = output_schema::<FunctionView>()
    )]
    fn get_function_code(&self, Parameters(p): Parameters<FunctionCodeParams>) -> CallToolResult {
        self.paged(&p.set, &p.paging, |set, paging| set.function(&p.path, &p.function, paging))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_schemas_declare_the_envelope() {
        let doc = output_schema::<DetailsView>();
        assert_eq!(doc["type"], "object");
        assert_eq!(doc["required"], json!(["system", "version", "tokens", "text"]));
        assert_eq!(doc["properties"]["tokens"], json!({"type": "integer"}));
        let list = output_schema::<ComponentsView>();
        assert_eq!(list["required"], json!(["system", "version"]));
    }

    #[test]
    fn input_schemas_are_lean() {
        let s = input_schema::<CodeBlockParams>();
        assert_eq!(s["required"], json!(["component", "index"]));
        assert_eq!(s["properties"]["index"]["minimum"], 1);
        assert_eq!(s["properties"]["lang"]["type"], "string");
        assert_eq!(s["properties"]["system"]["type"], "string", "the flattened set parameters are there");
        assert!(s.get("$schema").is_none() && s["properties"]["index"].get("format").is_none());
    }

    #[test]
    fn zero_is_not_a_number_here() {
        assert_eq!(at_least_one("index", 3).ok(), Some(3));
        let e = at_least_one("page", 0).unwrap_err();
        assert_eq!(e.code, rmcp::model::ErrorCode::INVALID_PARAMS);
        assert!(e.message.contains("1-based"));
    }
}
