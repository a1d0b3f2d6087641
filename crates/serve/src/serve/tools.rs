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
use serde_json::Value;

use super::DocsServer;
use crate::budget::Budget;
use crate::diff::ChangesView;
use crate::read::{
    BundleSet, ChangelogView, CodeBlockView, ComponentsView, Detail, DetailsView, FileView, FilesView, FunctionView,
    ListKind, LookupError, Paging,
};
use crate::render::{Render, Surface};
use crate::search::Kind;
use crate::search::query::{SearchOptions, SearchView};

/// Which bundle set to read; part of every tool's parameters.
#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct SetParams {
    /// The design system, when several are served. The schema gives it no description: the server's
    /// instructions say when to pass it, and a description would cost `tools/list` tokens in every tool.
    #[schemars(description = "")]
    pub system: Option<String>,
    /// The version (the highest when omitted). No description in the schema either: the server's instructions
    /// say to omit it for the highest, and each tool's repeat of it cost `tools/list` 40 tokens (what
    /// `list_components`' `components` needed).
    #[schemars(description = "")]
    pub version: Option<String>,
}

/// Budget and continuation; part of the parameters of every tool that returns text.
#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct PageParams {
    /// The answer's budget in tokens, at least [`crate::budget::MIN_MAX_TOKENS`] (the schema says so by its
    /// `minimum` alone: a description would repeat it, and cost `tools/list` tokens in every tool).
    #[schemars(range(min = crate::budget::MIN_MAX_TOKENS), description = "")]
    pub max_tokens: Option<u32>,
    /// A next_cursor.
    pub cursor: Option<String>,
}

/// `list_components` parameters.
#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct ListComponentsParams {
    /// List this one's files instead.
    pub component: Option<String>,
    /// Several: import, key props, an example each.
    pub components: Option<Vec<String>>,
    /// component (default) | guide: pages documenting no component.
    pub kind: Option<ListKind>,
    /// e.g. en-US.
    pub lang: Option<String>,
    #[serde(flatten)]
    #[allow(missing_docs)]
    pub paging: PageParams,
    #[serde(flatten)]
    #[allow(missing_docs)]
    pub set: SetParams,
}

/// `component_details` parameters.
#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct ComponentDetailsParams {
    /// Name (any spelling) or changelog-N.
    pub component: String,
    /// e.g. en-US.
    pub lang: Option<String>,
    /// brief: card with sizes; normal (default).
    pub detail: Option<Detail>,
    /// Headings (title or slug), or ["props"]: the props tables.
    pub sections: Option<Vec<String>>,
    // One prop ("loading", "columns.sorter"): its rows, declaration and smallest example. No description:
    // tools/list stays within its 1,500 tokens (the answer's header says what it is).
    #[allow(missing_docs)]
    pub prop: Option<String>,
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
    /// e.g. en-US.
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
    /// Default 1.
    #[schemars(range(min = 1))]
    pub page: Option<u32>,
    /// e.g. en-US.
    pub lang: Option<String>,
    #[serde(flatten)]
    #[allow(missing_docs)]
    pub paging: PageParams,
    #[serde(flatten)]
    #[allow(missing_docs)]
    pub set: SetParams,
}

/// `component_changes` parameters.
#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct ChangesParams {
    /// Component name.
    pub component: String,
    /// Older version.
    pub from: String,
    /// e.g. en-US.
    pub lang: Option<String>,
    #[serde(flatten)]
    #[allow(missing_docs)]
    pub paging: PageParams,
    #[serde(flatten)]
    #[allow(missing_docs)]
    pub set: SetParams,
}

/// `get_file_code` parameters.
#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct FileCodeParams {
    /// Path as listed.
    pub path: String,
    /// Not the skeleton.
    #[serde(default)]
    pub full: bool,
    /// 1-based (the schema says so by its `minimum` alone, which argument errors state).
    #[schemars(range(min = 1), description = "")]
    pub start_line: Option<u32>,
    /// Inclusive.
    #[schemars(range(min = 1))]
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
    /// Path as listed.
    pub path: String,
    /// Table.render, or a unique name.
    pub function: String,
    #[serde(flatten)]
    #[allow(missing_docs)]
    pub paging: PageParams,
    #[serde(flatten)]
    #[allow(missing_docs)]
    pub set: SetParams,
}

/// `search_docs` parameters.
#[derive(Debug, Default, Deserialize, JsonSchema)]
pub struct SearchParams {
    /// Any question or names.
    #[serde(default)]
    pub query: String,
    // Instead of `query`: the examples using "Table.rowSelection" (or "Table"). No description, as `prop`.
    #[allow(missing_docs)]
    pub uses: Option<String>,
    /// Only this component.
    pub component: Option<String>,
    /// doc, code, function, changelog, props, token, token-for.
    pub kind: Option<String>,
    /// e.g. en-US.
    pub lang: Option<String>,
    // Default 2000 (no description: tools/list stays within its 1,500 tokens with `uses`; the answer states its
    // budget).
    #[allow(missing_docs)]
    #[schemars(range(min = crate::budget::MIN_MAX_TOKENS))]
    pub max_tokens: Option<u32>,
    // A next_cursor (no description: tools/list stays within its 1,500 tokens; the answer shows the call).
    #[allow(missing_docs)]
    pub cursor: Option<String>,
    #[serde(flatten)]
    #[allow(missing_docs)]
    pub set: SetParams,
}

/// `search_docs`' answer: the hits, or with `uses` the examples using a prop. Serialized as the inner view,
/// untagged.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum SearchAnswer {
    /// The hits.
    Hits(SearchView),
    /// The examples using a prop.
    Uses(crate::read::UsesView),
}

/// `list_components`' answer: the component list, or one component's files when `component` is given.
/// Serialized as the inner view, untagged.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(untagged)]
pub enum ListView {
    /// The components.
    Components(ComponentsView),
    /// One component's files.
    Files(FilesView),
    /// Several components in one budget (`components`).
    Context(crate::read::ContextView),
}

impl Render for ListView {
    fn render(&self, surface: crate::render::Surface) -> String {
        match self {
            ListView::Components(v) => v.render(surface),
            ListView::Files(v) => v.render(surface),
            ListView::Context(v) => v.render(surface),
        }
    }

    const MEASURED: bool = true;

    fn content(&self) -> Option<&str> {
        match self {
            ListView::Context(v) => v.content(),
            _ => None,
        }
    }

    fn rows_text(&self) -> Option<String> {
        match self {
            ListView::Components(v) => v.rows_text(),
            ListView::Files(v) => v.rows_text(),
            ListView::Context(_) => None,
        }
    }

    fn is_terse(&self) -> bool {
        match self {
            ListView::Components(v) => v.is_terse(),
            ListView::Files(v) => v.is_terse(),
            ListView::Context(v) => v.is_terse(),
        }
    }

    fn shorten(&mut self) {
        match self {
            ListView::Components(v) => v.shorten(),
            ListView::Files(v) => v.shorten(),
            ListView::Context(v) => v.shorten(),
        }
    }
}

/// The fields an `outputSchema` declares: the ones every answer shares (the system and version served, and for
/// answers with a text, the text and its size in tokens).
pub const OUTPUT_ENVELOPE: [&str; 4] = ["system", "version", "tokens", "text"];

/// The `outputSchema` of a tool answering `T`: an object requiring the [`OUTPUT_ENVELOPE`] fields that `T`
/// always writes (from its schemars schema). Their types and the view's other fields are documented on the view
/// types in `crate::read` and are in every `structuredContent`, but declaring them (even the envelope's types) would
/// add ~50 tokens a tool to `tools/list`, whose every token is paid for in the agent's context. Extra fields are
/// allowed, so the schema validates every answer (the Python SDK checks each one against it in the tests). A view
/// with several shapes (an untagged enum, an `anyOf`) requires the envelope fields all of them have.
pub fn output_schema<T: JsonSchema + 'static>() -> Arc<JsonObject> {
    let full = schema_for_output::<T>();
    let defs = full.get("$defs").and_then(Value::as_object);
    let shapes: Vec<&JsonObject> = match full.get("anyOf").and_then(Value::as_array) {
        Some(any) => any.iter().filter_map(Value::as_object).map(|s| resolve(s, defs)).collect(),
        None => vec![full.as_ref()],
    };
    let required: Vec<Value> = OUTPUT_ENVELOPE
        .iter()
        .filter(|field| {
            shapes
                .iter()
                .all(|s| s.get("required").and_then(Value::as_array).is_some_and(|r| r.contains(&Value::from(**field))))
        })
        .map(|field| Value::from(*field))
        .collect();
    let mut schema = JsonObject::new();
    schema.insert("type".into(), "object".into());
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

/// The `inputSchema` of a tool taking `T`: its JSON schema (the doc comments of `T`'s fields are the argument
/// descriptions the model reads, unless a field sets an empty `description`), without the `$schema` URL and number
/// formats, and with optional arguments typed
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
    let defs = schema.remove("$defs");
    let required: Vec<Value> = schema.get("required").and_then(Value::as_array).cloned().unwrap_or_default();
    if let Some(props) = schema.get_mut("properties").and_then(Value::as_object_mut) {
        for (name, prop) in props.iter_mut() {
            let Some(prop) = prop.as_object_mut() else { continue };
            prop.remove("format");
            if prop.get("description").is_some_and(|d| d == "") {
                prop.remove("description");
            }
            // An enum of documented constants (`detail`) becomes a plain string enum: its variants' doc comments
            // are for Rust readers, and would cost the model ~100 tokens.
            if let Some(values) = string_enum(prop, defs.as_ref()) {
                prop.remove("anyOf");
                prop.remove("$ref");
                prop.insert("type".into(), "string".into());
                prop.insert("enum".into(), values.into());
            }
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

/// The constants of a property that is (or may be null or) a `$ref` to a `oneOf` of string constants.
fn string_enum(prop: &JsonObject, defs: Option<&Value>) -> Option<Vec<Value>> {
    let target = prop.get("$ref").or_else(|| prop.get("anyOf")?.as_array()?.iter().find_map(|m| m.get("$ref")))?;
    let name = target.as_str()?.strip_prefix("#/$defs/")?;
    let variants = defs?.get(name)?.get("oneOf")?.as_array()?;
    variants.iter().map(|v| v.get("const").filter(|c| c.is_string()).cloned()).collect()
}

/// The largest integer argument: every integer parameter is a `u32` (indexes, pages, lines, token counts).
const MAX_INTEGER: u64 = u32::MAX as u64;

/// Checks a tool's `arguments` against the `inputSchema` the tool declares (as [`input_schema`] makes it), before
/// they are deserialized, so that a malformed or out-of-range argument is a tool error the model can read and
/// correct (MCP 2025-11-25, SEP-1303: input validation is a tool execution error, not a JSON-RPC one).
///
/// Checked, in this order: no argument outside `properties` (the message lists the accepted ones); every `required`
/// one present and not null; each value of its declared `type` (`string`, `integer` from `minimum` (else 0) to
/// 4,294,967,295, `boolean`, `array` of `items`' type) and among its `enum` when it has one. A null optional
/// argument counts as omitted.
///
/// # Errors
/// The first violation, as one sentence naming the parameter, the expected form and range, its description from
/// the schema, and the value received (shortened to 60 characters).
pub fn check_arguments(schema: &JsonObject, arguments: Option<&JsonObject>) -> Result<(), String> {
    let empty = JsonObject::new();
    let arguments = arguments.unwrap_or(&empty);
    let properties = schema.get("properties").and_then(Value::as_object).unwrap_or(&empty);
    if let Some(unknown) = arguments.keys().find(|k| !properties.contains_key(k.as_str())) {
        let accepted: Vec<&str> = properties.keys().map(String::as_str).collect();
        let unknown = crate::read::echo(unknown);
        return Err(format!("unknown argument `{unknown}`: the arguments are {}", accepted.join(", ")));
    }
    let required = schema.get("required").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    for name in required.iter().filter_map(Value::as_str) {
        if arguments.get(name).is_none_or(Value::is_null) {
            let expected = properties.get(name).map(expected_form).unwrap_or_default();
            return Err(format!("missing argument `{name}`: {expected}"));
        }
    }
    for (name, value) in arguments.iter().filter(|(_, v)| !v.is_null()) {
        let Some(prop) = properties.get(name) else { continue };
        if !fits(prop, value) {
            return Err(format!("invalid argument `{name}`: {}; got {}", expected_form(prop), shown(value)));
        }
    }
    Ok(())
}

/// Whether `value` has the type, range and enum `prop` declares.
fn fits(prop: &Value, value: &Value) -> bool {
    let in_enum = prop.get("enum").and_then(Value::as_array).is_none_or(|e| e.contains(value));
    let typed = match prop.get("type").and_then(Value::as_str) {
        Some("string") => value.is_string(),
        Some("boolean") => value.is_boolean(),
        Some("integer") => {
            let min = prop.get("minimum").and_then(Value::as_u64).unwrap_or(0);
            value.as_u64().is_some_and(|n| (min..=MAX_INTEGER).contains(&n))
        }
        Some("array") => value
            .as_array()
            .is_some_and(|items| items.iter().all(|item| prop.get("items").is_none_or(|of| fits(of, item)))),
        _ => true,
    };
    typed && in_enum
}

/// What a parameter takes, in words: its type, range or values, then its description.
fn expected_form(prop: &Value) -> String {
    let form = if let Some(values) = prop.get("enum").and_then(Value::as_array) {
        let values: Vec<String> = values.iter().map(Value::to_string).collect();
        format!("one of {}", values.join(", "))
    } else {
        match prop.get("type").and_then(Value::as_str) {
            Some("integer") => {
                let min = prop.get("minimum").and_then(Value::as_u64).unwrap_or(0);
                format!("an integer from {min} to {MAX_INTEGER}")
            }
            Some("array") => {
                let of = prop.get("items").and_then(|i| i.get("type")).and_then(Value::as_str).unwrap_or("value");
                format!("an array of {of}s")
            }
            Some("boolean") => "true or false".to_string(),
            Some(t) => format!("a {t}"),
            None => "a value".to_string(),
        }
    };
    match prop.get("description").and_then(Value::as_str) {
        Some(d) => format!("expected {form} ({})", d.trim_end_matches('.')),
        None => format!("expected {form}"),
    }
}

/// A received value as JSON, cut to 60 characters.
fn shown(value: &Value) -> String {
    let text = value.to_string();
    match text.char_indices().nth(60) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text,
    }
}

/// A call's `max_tokens` that the operator's cap lowered: (asked, cap).
type Capped = std::cell::Cell<Option<(u32, u32)>>;

/// What a call whose `max_tokens` the cap lowered is told: the line its text starts with, and the field its
/// `structuredContent` gets (`max_tokens_capped`).
fn cap_note(asked: u32, cap: u32) -> (String, Value) {
    use crate::render::thousands;
    let (a, c) = (thousands(asked), thousands(cap));
    let line = format!("[max_tokens {a} is over this server's cap of {c} tokens: answered within {c}]\n");
    (line, serde_json::json!({ "asked": asked, "cap": cap }))
}

/// Tokens the cap note takes in the larger of the two forms (its bytes: a token is at least a byte), with the
/// JSON key and its separators.
fn cap_note_tokens(asked: u32, cap: u32) -> u32 {
    let (line, json) = cap_note(asked, cap);
    let field = json.to_string().len() + r#","max_tokens_capped":"#.len();
    line.len().max(field) as u32
}

/// `result` with the cap note ([`cap_note`]) when `capped` says the cap lowered the call's `max_tokens`: the
/// budget the answer was cut to kept its tokens out ([`DocsServer::budget`]). Error results are left alone.
fn noting_cap(mut result: CallToolResult, capped: Option<(u32, u32)>) -> CallToolResult {
    let Some((asked, cap)) = capped.filter(|_| result.is_error != Some(true)) else { return result };
    let (line, json) = cap_note(asked, cap);
    if let Some(block) = result.content.first_mut()
        && let Some(text) = block.as_text().map(|t| t.text.clone())
    {
        *block = ContentBlock::text(line + &text);
    }
    if let Some(Value::Object(fields)) = &mut result.structured_content {
        fields.insert("max_tokens_capped".into(), json);
    }
    result
}

/// The answer to a lookup: the view as `structuredContent` plus its text, or an `isError` result naming what
/// exists, within `budget()` tokens ([`LookupError::fitted`], from [`DocsServer::error_budget`] and
/// [`DocsServer::set_cap`], asked only for an error).
fn answer<V: Render>(result: Result<V, LookupError>, budget: impl FnOnce() -> u32) -> CallToolResult {
    let view = match result {
        Ok(view) => view,
        Err(e) => return CallToolResult::error(vec![ContentBlock::text(e.fitted(Surface::Mcp, budget()))]),
    };
    let mut result = CallToolResult::success(vec![ContentBlock::text(view.text())]);
    result.structured_content = Some(view.structured());
    result
}

impl DocsServer {
    /// Selects the set named by `at`, then runs `lookup` on it (on another copy of the set when a bundle of the
    /// first is damaged: [`crate::read::Library::fallback`]); an error fits `max_tokens` (else the cap).
    fn lookup<V: Render>(
        &self,
        at: &SetParams,
        max_tokens: Option<u32>,
        lookup: impl Fn(&BundleSet) -> Result<V, LookupError>,
    ) -> CallToolResult {
        let budget = self.error_budget(max_tokens, crate::budget::DEFAULT_MAX_TOKENS);
        let (system, version) = (at.system.as_deref(), at.version.as_deref());
        let result = self.library.fallback(|| self.library.select(system, version).and_then(|set| lookup(&set)));
        answer(result, || budget.min(self.set_cap(system, version)))
    }

    /// [`DocsServer::lookup`] for a tool that returns text: within the operator's cap, lowered by `max_tokens`,
    /// continuing `cursor`; an answer whose `max_tokens` the cap lowered says so ([`noting_cap`]).
    fn paged<V: Render>(
        &self,
        at: &SetParams,
        page: &PageParams,
        lookup: impl Fn(&BundleSet, Paging) -> Result<V, LookupError>,
    ) -> CallToolResult {
        let capped = Capped::default();
        let result = self.lookup(at, page.max_tokens, |set| {
            let budget = self.budget(self.cap(set), page.max_tokens, &capped)?;
            let forms = crate::render::Forms::Mcp;
            crate::render::fitted(budget, page.cursor.as_deref(), forms, |paging| lookup(set, paging))
        });
        noting_cap(result, capped.get())
    }

    /// The budget of a call asking `max_tokens` under the operator's `cap` (`serve --max-tokens`, else the set's):
    /// [`Budget::new`]; when the cap lowers `max_tokens` (trial 6: silently), the tokens of the note that says so
    /// ([`cap_note_tokens`]) are kept out of it and `capped` records (asked, cap) for [`noting_cap`], unless the cap
    /// leaves no room for them beside the smallest budget (a cap under 300 + the note's tokens: no note).
    fn budget(&self, cap: u32, max_tokens: Option<u32>, capped: &Capped) -> Result<Budget, crate::budget::BudgetError> {
        let cap = cap.max(crate::budget::MIN_MAX_TOKENS);
        if let Some(asked) = max_tokens.filter(|&asked| asked > cap) {
            let within = cap.saturating_sub(cap_note_tokens(asked, cap));
            if within >= crate::budget::MIN_MAX_TOKENS {
                capped.set(Some((asked, cap)));
                return Budget::new(within, Some(asked));
            }
        }
        Budget::new(cap, max_tokens)
    }
}

#[tool_router(router = tool_router, vis = "pub(super)")]
impl DocsServer {
    /// List the components with title, one-line description and the size in tokens of each document; or, given
    /// `component`, that component's files.
    #[tool(
        name = "list_components",
        input_schema = input_schema::<ListComponentsParams>(),
        title = "List components",
        description = "Components with token sizes, or one component's files. Start here.",
        annotations(read_only_hint = true, destructive_hint = false, idempotent_hint = true, open_world_hint = false),
        output_schema = output_schema::<ListView>()
    )]
    fn list_components(&self, Parameters(p): Parameters<ListComponentsParams>) -> CallToolResult {
        if let Some(names) = &p.components {
            if p.paging.cursor.is_some() {
                let message = "`components` is answered in one part (its header names the max_tokens that shows all): \
                               drop `cursor`";
                return CallToolResult::error(vec![ContentBlock::text(message)]);
            }
            // Several components share one budget: 6,000 tokens unless the call asks for another.
            let paging =
                PageParams { max_tokens: p.paging.max_tokens.or(Some(crate::read::CONTEXT_MAX_TOKENS)), cursor: None };
            return self.paged(&p.set, &paging, |set, paging| {
                set.context(names, p.lang.as_deref(), paging).map(ListView::Context)
            });
        }
        self.paged(&p.set, &p.paging, |set, paging| match &p.component {
            Some(c) => set.files_paged(c, paging).map(ListView::Files),
            None => set.list_paged(p.lang.as_deref(), p.kind.unwrap_or_default(), paging).map(ListView::Components),
        })
    }

    /// A component's document (or a changelog page).
    #[tool(
        name = "component_details",
        input_schema = input_schema::<ComponentDetailsParams>(),
        title = "Component document",
        description = "A component's document; long ones show code blocks and big tables as placeholders.",
        annotations(read_only_hint = true, destructive_hint = false, idempotent_hint = true, open_world_hint = false),
        output_schema = output_schema::<DetailsView>()
    )]
    fn component_details(&self, Parameters(mut p): Parameters<ComponentDetailsParams>) -> CallToolResult {
        if let Some(prop) = p.prop.take() {
            // A prop's answer is small: 300 tokens unless the call asks for another budget.
            p.paging.max_tokens = p.paging.max_tokens.or(Some(crate::read::PROP_MAX_TOKENS));
            return self.paged(&p.set, &p.paging, |set, paging| {
                set.prop(&p.component, &prop, p.lang.as_deref(), paging).map(DetailsView::Prop)
            });
        }
        let sections = p.sections.unwrap_or_default();
        self.paged(&p.set, &p.paging, |set, paging| {
            set.details(&p.component, p.lang.as_deref(), p.detail, &sections, paging)
        })
    }

    /// One code block of a document.
    #[tool(
        name = "get_code_block",
        input_schema = input_schema::<CodeBlockParams>(),
        title = "Code block",
        description = "A document's code block by placeholder number.",
        annotations(read_only_hint = true, destructive_hint = false, idempotent_hint = true, open_world_hint = false),
        output_schema = output_schema::<CodeBlockView>()
    )]
    fn get_code_block(&self, Parameters(p): Parameters<CodeBlockParams>) -> CallToolResult {
        self.paged(&p.set, &p.paging, |set, paging| set.code_block(&p.component, p.index, p.lang.as_deref(), paging))
    }

    /// One changelog page.
    #[tool(
        name = "get_changelog",
        input_schema = input_schema::<ChangelogParams>(),
        title = "Changelog page",
        description = "One changelog page; page 1 is the newest.",
        annotations(read_only_hint = true, destructive_hint = false, idempotent_hint = true, open_world_hint = false),
        output_schema = output_schema::<ChangelogView>()
    )]
    fn get_changelog(&self, Parameters(p): Parameters<ChangelogParams>) -> CallToolResult {
        self.paged(&p.set, &p.paging, |set, paging| set.changelog(p.page, p.lang.as_deref(), paging))
    }

    /// What changed in a component between two versions.
    #[tool(
        name = "component_changes",
        input_schema = input_schema::<ChangesParams>(),
        title = "Component changes",
        description = "Changes since an older version: props, functions, changelog.",
        annotations(read_only_hint = true, destructive_hint = false, idempotent_hint = true, open_world_hint = false),
        output_schema = output_schema::<ChangesView>()
    )]
    fn component_changes(&self, Parameters(p): Parameters<ChangesParams>) -> CallToolResult {
        let (system, version) = (p.set.system.as_deref(), p.set.version.as_deref());
        let budget = self.error_budget(p.paging.max_tokens, crate::budget::DEFAULT_MAX_TOKENS);
        let capped = Capped::default();
        let result = answer(
            self.library.fallback(|| {
                let changes =
                    crate::diff::compare(&self.library, system, &p.component, &p.from, version, p.lang.as_deref())?;
                let set = self.library.select(Some(&changes.served.system), Some(&changes.to))?;
                changes.page(Paging {
                    budget: self.budget(self.cap(&set), p.paging.max_tokens, &capped)?,
                    cursor: p.paging.cursor.as_deref(),
                })
            }),
            || budget.min(self.set_cap(system, version)),
        );
        noting_cap(result, capped.get())
    }

    /// One file, as its skeleton or whole.
    #[tool(
        name = "get_file_code",
        input_schema = input_schema::<FileCodeParams>(),
        title = "File source",
        description = "A source file; large ones as a skeleton unless full or a line range.",
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

    /// BM25 search over the compiled index.
    #[tool(
        name = "search_docs",
        input_schema = input_schema::<SearchParams>(),
        title = "Search",
        description = "Search docs, code, functions, changelog; hits give their calls.",
        annotations(read_only_hint = true, destructive_hint = false, idempotent_hint = true, open_world_hint = false),
        output_schema = output_schema::<SearchAnswer>()
    )]
    fn search_docs(&self, Parameters(p): Parameters<SearchParams>) -> Result<CallToolResult, ErrorData> {
        if let Some(uses) = &p.uses {
            let paging = PageParams {
                max_tokens: p.max_tokens.or(Some(crate::search::query::DEFAULT_MAX_TOKENS)),
                cursor: p.cursor.clone(),
            };
            return Ok(self.paged(&p.set, &paging, |set, paging| set.uses(uses, p.lang.as_deref(), paging)));
        }
        // Design tokens are looked up, not searched: a list of the set's tokens, cut by rows like the other lists.
        let paging = PageParams { max_tokens: p.max_tokens, cursor: p.cursor.clone() };
        match p.kind.as_deref() {
            Some("token") => {
                return Ok(self.paged(&p.set, &paging, |set, paging| {
                    set.design_tokens_paged(Some(&p.query), None, p.component.as_deref(), paging)
                }));
            }
            Some("token-for") => return Ok(self.paged(&p.set, &paging, |set, paging| set.token_for(&p.query, paging))),
            _ => {}
        }
        let kind = match p.kind.as_deref().map(|k| (k, Kind::parse(k))) {
            Some((k, None)) => {
                let message = format!(
                    "invalid argument `kind`: {k:?} is not doc, code, function, changelog, props, token or token-for"
                );
                return Ok(CallToolResult::error(vec![ContentBlock::text(message)]));
            }
            other => other.and_then(|(_, kind)| kind),
        };
        // Without `system`, every system loaded is searched (each hit names its own).
        let budget = self.error_budget(p.max_tokens, crate::search::query::DEFAULT_MAX_TOKENS);
        let capped = Capped::default();
        let result = answer(
            self.library.fallback(|| {
                let (system, version) = (p.set.system.as_deref(), p.set.version.as_deref());
                let chosen = crate::search::query::sets_to_search(&self.library, system, version)?;
                let sets = chosen.sets;
                let opts = SearchOptions {
                    skipped: chosen.skipped,
                    component: p.component.clone(),
                    kind,
                    lang: p.lang.clone(),
                    max_tokens: p.max_tokens,
                    // The cap the note keeps its tokens out of, when it lowers `max_tokens`.
                    token_cap: sets
                        .iter()
                        .map(|set| self.cap(set))
                        .min()
                        .map(|cap| self.budget(cap, p.max_tokens, &capped).map_or(cap, |b| b.max_tokens)),
                    cursor: p.cursor.clone(),
                    ..Default::default()
                };
                let sets: Vec<&BundleSet> = sets.iter().map(|s| &**s).collect();
                crate::search::query::search_sets(&sets, &p.query, &opts)
            }),
            || budget.min(self.set_cap(p.set.system.as_deref(), p.set.version.as_deref())),
        );
        Ok(noting_cap(result, capped.get()))
    }

    /// One function of a source.
    #[tool(
        name = "get_function_code",
        input_schema = input_schema::<FunctionCodeParams>(),
        title = "Function source",
        description = "One function or method's source.",
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
    use serde_json::json;

    #[test]
    fn output_schemas_declare_the_envelope() {
        let doc = output_schema::<DetailsView>();
        assert_eq!(doc["type"], "object");
        assert_eq!(doc["required"], json!(["system", "version", "tokens", "text"]));
        assert!(doc.get("properties").is_none(), "types are documented, not declared: tools/list stays small");
        let list = output_schema::<ComponentsView>();
        assert_eq!(list["required"], json!(["system", "version", "tokens"]));
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
    fn arguments_are_checked_against_the_schema() {
        let s = input_schema::<CodeBlockParams>();
        let check = |args: Value| check_arguments(&s, args.as_object());
        assert_eq!(check(json!({"component": "table", "index": 3})), Ok(()));
        assert_eq!(check(json!({"component": "table", "index": 3, "lang": null})), Ok(()), "null = omitted");
        assert_eq!(
            check(json!({"component": "table", "index": 0})).unwrap_err(),
            "invalid argument `index`: expected an integer from 1 to 4294967295 (1-based, as in the placeholders); \
             got 0"
        );
        for bad in [json!(-1), json!(1.5), json!("3"), json!(4294967296u64)] {
            let e = check(json!({"component": "table", "index": bad})).unwrap_err();
            assert!(e.starts_with("invalid argument `index`: expected an integer from 1 to 4294967295"), "{e}");
        }
        assert_eq!(
            check(json!({"index": 3})).unwrap_err(),
            "missing argument `component`: expected a string (Component name)"
        );
        assert!(check(json!(null)).unwrap_err().starts_with("missing argument `component`"), "no arguments at all");
        assert_eq!(
            check(json!({"component": "table", "index": 1, "idx": 2})).unwrap_err(),
            "unknown argument `idx`: the arguments are component, cursor, index, lang, max_tokens, system, version"
        );
        let d = input_schema::<ComponentDetailsParams>();
        let e = check_arguments(&d, json!({"component": "t", "detail": "all"}).as_object()).unwrap_err();
        assert!(e.contains(r#"one of "brief", "normal", "full""#) && e.ends_with(r#"got "all""#), "{e}");
        let e = check_arguments(&d, json!({"component": "t", "sections": ["a", 2]}).as_object()).unwrap_err();
        assert!(e.starts_with("invalid argument `sections`: expected an array of strings"), "{e}");
        let long = "x".repeat(500);
        let e = check_arguments(&d, json!({"component": 7, "lang": long}).as_object()).unwrap_err();
        assert!(e.starts_with("invalid argument `component`") || e.contains("…"), "{e}");
        let f = input_schema::<FileCodeParams>();
        let e = check_arguments(&f, json!({"path": "a.ts", "full": "yes"}).as_object()).unwrap_err();
        assert_eq!(e, r#"invalid argument `full`: expected true or false (Not the skeleton); got "yes""#);
    }
}
