//! The views lookups return: plain serializable structs, the structured output of CLI `--json` and of MCP
//! tools, which `render` turns into text.

use schemars::JsonSchema;
use serde::Serialize;

use crate::budget::Part;
use crate::model::*;

use super::names::echo;
pub use crate::view::ExampleRef;

/// How much of a document `component_details` serves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Detail {
    /// The component card: description, import, outline with token sizes, code blocks, props, files.
    Brief,
    /// The document, with code blocks as placeholders when it is over the 888-line threshold (Semi's rule).
    #[default]
    Normal,
    /// The whole document.
    Full,
}

impl Detail {
    /// The lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Detail::Brief => "brief",
            Detail::Normal => "normal",
            Detail::Full => "full",
        }
    }
}

impl std::str::FromStr for Detail {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "brief" => Ok(Detail::Brief),
            "normal" => Ok(Detail::Normal),
            "full" => Ok(Detail::Full),
            other => Err(format!("unknown detail `{}`: brief, normal or full", echo(other))),
        }
    }
}

/// Which system and version a response came from; every view carries one.
#[derive(Clone, Debug, Serialize, PartialEq, Eq, JsonSchema)]
pub struct Served {
    /// Design-system name.
    pub system: String,
    /// Version actually served.
    pub version: String,
    /// Why this version and not the one asked for, when the server chose it for a project (`serve --project`):
    /// "project uses 2.61.3; serving 2.60.0, the nearest installed". Shown in every header.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// `components`: the list.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ComponentsView {
    /// Source of the answer.
    #[serde(flatten)]
    pub served: Served,
    /// Language of the sizes reported.
    pub lang: String,
    /// Tokens of this list as MCP clients get it (stored by the compiler, which renders it with the same code).
    pub tokens: u32,
    /// One row per component, sorted by key.
    pub components: Vec<ComponentRow>,
    /// Whether a changelog is available (`changelog` lookups).
    pub changelog_pages: Option<u32>,
    /// Files of shared folders that are no component (listed by `files _shared`).
    pub shared_files: u32,
    /// Rows served.
    #[serde(flatten)]
    pub part: ListPart,
    /// What the list holds: components (the default, not written in JSON) or guides (`components --guides`).
    #[serde(skip_serializing_if = "ListKind::is_component")]
    pub kind: ListKind,
    /// Guides of the set (pages that document no exported component), listed apart: on a component list only.
    #[serde(skip_serializing_if = "is_zero")]
    pub guides: u32,
}

/// Which entries of a set a list holds (`list_components`'s `kind`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ListKind {
    /// The components (pages documenting an exported component, or every documented folder).
    #[default]
    Component,
    /// The guides: pages that document no exported component.
    Guide,
}

impl ListKind {
    /// Whether this is the component list.
    pub fn is_component(&self) -> bool {
        *self == ListKind::Component
    }

    /// The indices in `manifest.components` of the entries of this kind.
    pub fn indices(self, manifest: &Manifest) -> Vec<usize> {
        (0..manifest.components.len()).filter(|&i| manifest.components[i].guide == (self == ListKind::Guide)).collect()
    }

    /// The stored tokens of each row of this kind's list in `lang` (`Manifest::list_row_tokens`: the component
    /// list's rows, then the guide list's since format 14); empty when the set stored none for it.
    pub(super) fn stored_rows<'m>(self, manifest: &'m Manifest, lang: &str) -> &'m [u32] {
        let rows = manifest.list_row_tokens.iter().find(|(l, _)| l == lang).map_or(&[][..], |(_, r)| r.as_slice());
        let guides = manifest.components.iter().filter(|c| c.guide).count();
        let components = manifest.components.len() - guides;
        match self {
            ListKind::Component if rows.len() == components || rows.len() == components + guides => &rows[..components],
            ListKind::Guide if rows.len() == components + guides => &rows[components..],
            _ => &[],
        }
    }
}

/// The rows of a list served under a budget ([`BundleSet::list_part`]): the whole list when its stored size fits,
/// else as many rows as fit by an upper bound of each row's tokens (its bytes in JSON, plus the text form's column
/// padding), with a cursor for the rest.
#[derive(Debug, Default, Clone, Serialize, JsonSchema)]
pub struct ListPart {
    /// Rows in all.
    pub rows_total: u32,
    /// First row served (0-based).
    pub first_row: u32,
    /// False: `tokens` is an upper bound.
    pub tokens_exact: bool,
    /// Cursor of the next rows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
    /// The call's own `max_tokens`, which the continuation call repeats.
    #[serde(skip)]
    pub max_tokens: Option<u32>,
    /// Whether the answer echoes less (as [`Part::terse`]): a short continuation, no lines beside the rows but
    /// their column heads, and only the structured fields `render::TERSE_FIELDS` keeps.
    #[serde(skip)]
    pub terse: bool,
}

impl ComponentsView {
    /// The row of the `i`-th component of `manifest` (which must exist), with its sizes in `lang`.
    pub(super) fn row(manifest: &Manifest, i: usize, lang: &str) -> ComponentRow {
        let c = &manifest.components[i];
        let doc = c.docs.iter().find(|d| d.lang.eq_ignore_ascii_case(lang));
        ComponentRow {
            name: c.name.clone(),
            // The language's own title and description, else the default language's.
            title: doc.and_then(|d| d.title.clone()).or_else(|| c.title.clone()),
            brief: doc.and_then(|d| d.brief.clone()).or_else(|| c.brief.clone()),
            langs: c.docs.iter().map(|d| d.lang.clone()).collect(),
            tokens: doc.map_or(0, |d| d.view_tokens),
            code_blocks: doc.map_or(0, |d| d.code_blocks),
            files: c.files,
            generated: doc.map_or(0, |d| d.generated),
        }
    }

    /// The list of `manifest`'s components (guides apart) with the sizes of their documents in `lang` (a language
    /// of the set). The compiler renders it too, to store its size (`Manifest::list_tokens`).
    pub fn new(manifest: &Manifest, lang: String) -> ComponentsView {
        ComponentsView::of_kind(manifest, lang, ListKind::Component)
    }

    /// [`ComponentsView::new`] of the entries of `kind`. The sizes of a guide list are not stored: its `tokens` is
    /// the sum of its rows' upper bounds, and says so (`tokens_exact` false).
    pub fn of_kind(manifest: &Manifest, lang: String, kind: ListKind) -> ComponentsView {
        let components = kind.indices(manifest).into_iter().map(|i| ComponentsView::row(manifest, i, &lang)).collect();
        ComponentsView { components, ..ComponentsView::new_empty(manifest, lang, kind) }
    }

    /// [`ComponentsView::of_kind`] without its rows.
    pub(super) fn new_empty(manifest: &Manifest, lang: String, kind: ListKind) -> ComponentsView {
        let components = vec![];
        let changelog_pages = manifest
            .changelog
            .as_ref()
            .and_then(|c| c.langs.iter().find(|l| l.lang.eq_ignore_ascii_case(&lang)).or(c.langs.first()))
            .map(|l| l.pages);
        let shared_files = manifest.shared.as_ref().map_or(0, |s| s.files);
        let served = Served { system: manifest.system.clone(), version: manifest.version.clone(), note: None };
        let indices = kind.indices(manifest);
        let guides = if kind.is_component() { (manifest.components.len() - indices.len()) as u32 } else { 0 };
        let (tokens, tokens_exact) = if kind.is_component() {
            (manifest.list_tokens.iter().find(|(l, _)| *l == lang).map_or(0, |(_, t)| *t), true)
        } else {
            // The guide rows' stored tokens (format 14), else their bounds by bytes.
            let stored = kind.stored_rows(manifest, &lang);
            let width = manifest.components.iter().map(|c| c.name.len()).max().unwrap_or(4).max(4);
            let bound = |(r, &i): (usize, &usize)| {
                super::lookups::stored_row(stored, indices.len(), r)
                    .unwrap_or_else(|| row_bound(&ComponentsView::row(manifest, i, &lang), width))
            };
            (indices.iter().enumerate().map(bound).sum(), false)
        };
        let part = ListPart { rows_total: indices.len() as u32, tokens_exact, ..ListPart::default() };
        ComponentsView { served, lang, tokens, components, changelog_pages, shared_files, part, kind, guides }
    }
}

/// One row of the component list.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct ComponentRow {
    /// Lookup name.
    pub name: String,
    /// Title.
    pub title: Option<String>,
    /// One-line description.
    pub brief: Option<String>,
    /// Languages with a document.
    pub langs: Vec<String>,
    /// Tokens of the default view of the document in the chosen language (0 when it has none).
    pub tokens: u32,
    /// Code blocks in that document.
    pub code_blocks: u32,
    /// Files listed.
    pub files: u32,
    /// The document was generated from this many Storybook stories (the component has no document of its own);
    /// absent (0) for a written document.
    #[serde(skip_serializing_if = "is_zero")]
    pub generated: u32,
}

/// `doc`: a document, whole or as the placeholder view.
#[derive(Debug, Serialize, JsonSchema)]
pub struct DocView {
    /// Source of the answer.
    #[serde(flatten)]
    pub served: Served,
    /// Component name.
    pub component: String,
    /// Language served.
    pub lang: String,
    /// Repository-relative path of the document.
    pub path: String,
    /// The document was generated from this many Storybook stories (the component has no document; `path` is its
    /// first story file); absent (0) for a written document.
    #[serde(skip_serializing_if = "is_zero")]
    pub generated: u32,
    /// Title.
    pub title: Option<String>,
    /// Lines of the whole document.
    pub lines: u32,
    /// Code blocks in the document.
    pub code_blocks: u32,
    /// Detail level served (`normal` or `full`; `brief` is a [`CardView`]).
    pub detail: Detail,
    /// Whether code blocks were replaced by placeholders (detail `normal`; document over the threshold, or with
    /// demo files at any length).
    pub hidden: bool,
    /// The threshold in lines.
    pub threshold: u32,
    /// Titles of the sections served, when sections were asked for.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub sections: Vec<String>,
    /// Tokens of `text`, exact.
    pub tokens: u32,
    /// Tokens of everything asked for (the whole view, document or sections), of which `text` is a part.
    pub total_tokens: u32,
    /// Tokens of the whole document.
    pub full_tokens: u32,
    /// Lines served and what is left.
    #[serde(flatten)]
    pub part: Part,
    /// Pass it as `cursor` to get the next part (present when the answer was cut).
    pub next_cursor: Option<String>,
    /// The text served.
    pub text: String,
}

/// `doc --detail brief`: the component card.
#[derive(Debug, Serialize, JsonSchema)]
pub struct CardView {
    /// Source of the answer.
    #[serde(flatten)]
    pub served: Served,
    /// Component name.
    pub component: String,
    /// Language of the document described.
    pub lang: String,
    /// Repository-relative path of the document.
    pub path: String,
    /// Title.
    pub title: Option<String>,
    /// One-line description (left out under a small budget; in the text).
    pub brief: Option<String>,
    /// Import statement, if any (left out with `brief`).
    pub import: Option<String>,
    /// Always `brief`.
    pub detail: Detail,
    /// Tokens of `text`, exact.
    pub tokens: u32,
    /// Tokens of the whole document.
    pub full_tokens: u32,
    /// Tokens of the default view (`detail=normal`).
    pub view_tokens: u32,
    /// H2–H4 sections (listed with their sizes in `text`; `--json doc` and `files` have every detail: the
    /// structured card stays as small as its text, for clients that show it to the model).
    pub sections: u32,
    /// Code blocks.
    pub code_blocks: u32,
    /// Props tables, by name with their number of props.
    pub props: Vec<(String, u32)>,
    /// Files of the component.
    pub files: u32,
    /// The component's design tokens: how many, and the first names (issue 30 item 4); `None` when it has none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub design_tokens: Option<CardTokens>,
    /// Lines served and what is left (a card is cut only under a very small budget).
    #[serde(flatten)]
    pub part: Part,
    /// Pass it as `cursor` to get the next part.
    pub next_cursor: Option<String>,
    /// The card as text.
    pub text: String,
}

/// A component's design tokens as its card names them: the count, and the first names in the set's order (as
/// many as [`CARD_TOKEN_NAME_BYTES`] holds); `tokens --component KEY` lists them all.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct CardTokens {
    /// Tokens of the component.
    pub total: u32,
    /// The first names.
    pub names: Vec<String>,
    /// The component's key, as `tokens --component` takes it.
    pub component: String,
}

/// Bytes of token names a card lists at most: a line of a few names beside the call that lists all, small at the
/// 300-token minimum (the names are reserved by their bytes, twice: text and JSON).
pub const CARD_TOKEN_NAME_BYTES: usize = 120;

/// `component_details` with `sections=["props"]`: the component's props tables.
#[derive(Debug, Serialize, JsonSchema)]
pub struct PropsView {
    /// Source of the answer.
    #[serde(flatten)]
    pub served: Served,
    /// Component name.
    pub component: String,
    /// Language of the document tables included.
    pub lang: String,
    /// Tokens of `text`, exact.
    pub tokens: u32,
    /// Props tables of the component in all (shown in this part or not).
    pub tables_total: u32,
    /// Props in all those tables.
    pub props_total: u32,
    /// The tables shown in `text` (all of them unless the answer was cut): from the sources, and from this
    /// document's API tables. A table the part shows only some rows of holds those rows.
    pub props: Vec<PropsTable>,
    /// Props whose rows `text` shows (ends) in this part but which `props` does not list: their structured copies
    /// did not fit beside the text within the budget (a long row at a budget under ~450 tokens). Never silent:
    /// `structured_at` is the budget at which the same call lists them.
    #[serde(skip_serializing_if = "is_zero")]
    pub unlisted_props: u32,
    /// The `max_tokens` at which this part's rows are listed in `props` too (with `unlisted_props`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub structured_at: Option<u32>,
    /// Lines served and what is left.
    #[serde(flatten)]
    pub part: Part,
    /// Pass it as `cursor` to get the next part.
    pub next_cursor: Option<String>,
    /// The tables as Markdown.
    pub text: String,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// `prop` (MCP `component_details` with `prop`): one prop, its rows in each table and its smallest example.
#[derive(Debug, Serialize, JsonSchema)]
pub struct PropView {
    /// Source of the answer.
    #[serde(flatten)]
    pub served: Served,
    /// Component name.
    pub component: String,
    /// The prop as its tables spell it, its segments joined by `.` (`loading`, `columns.sorter`).
    pub prop: String,
    /// The prop as asked, when that differs from `prop` but for case (`Loading`): a name matches case-insensitively
    /// when one prop of the component does.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub asked: Option<String>,
    /// Language of the document rows.
    pub lang: String,
    /// Tokens of `text`, at most: the exact stored counts of its rows and code, plus 2 a join.
    pub tokens: u32,
    /// The rows shown in `text`, structured: the document's API table first, then the TypeScript types (empty
    /// when they did not fit beside the text: `unlisted_rows`).
    pub rows: Vec<crate::view::PropRow>,
    /// Rows of the prop in all its tables.
    pub rows_total: u32,
    /// Rows `text` shows that `rows` does not list.
    #[serde(skip_serializing_if = "is_zero")]
    pub unlisted_rows: u32,
    /// The smallest example of the document that sets the prop on the component's element, if one does.
    pub example: Option<ExampleRef>,
    /// How many of the document's examples set it.
    pub examples_using: u32,
    /// What this budget left out (rows, the example's code).
    pub left_out: Vec<String>,
    /// The `max_tokens` at which nothing is left out, when this answer left something out.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub whole_at: Option<u32>,
    /// The rows, one line each, then the example's code when it fits.
    pub text: String,
}

/// `context` (MCP `list_components` with `components`): several components in one budget, each with its import
/// line, the props that matter, the rest by name, and one example.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ContextView {
    /// Source of the answer.
    #[serde(flatten)]
    pub served: Served,
    /// Tokens of `text`, at most: the stored counts of its pieces, the bounds of its labels, 2 a join.
    pub tokens: u32,
    /// What each component got, in the order asked (repeats left out).
    pub components: Vec<ContextPart>,
    /// The `max_tokens` at which nothing is left out, when this answer left something out.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub whole_at: Option<u32>,
    /// Each component under its `## Name` heading: import line, prop rows, example, other props by name.
    pub text: String,
}

/// What one component of a `context` answer got.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ContextPart {
    /// Component name.
    pub component: String,
    /// Language of its document.
    pub lang: String,
    /// Tokens credited to it (its part of a shared example).
    pub tokens: u32,
    /// Whether its import line is shown (the document has one).
    pub import: bool,
    /// Props shown as rows.
    pub rows: u32,
    /// Props that are required (shown first).
    pub required: u32,
    /// Other props listed by name.
    pub names: u32,
    /// Props in its tables.
    pub props: u32,
    /// The code block number of its example, if one is shown or credited.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub example: Option<u32>,
    /// The component whose document holds the example, when another's (a shared example).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub example_of: Option<String>,
}

/// `search --uses` (MCP `search_docs` with `uses`): the examples that use a component or one of its props.
#[derive(Debug, Serialize, JsonSchema)]
pub struct UsesView {
    /// Source of the answer.
    #[serde(flatten)]
    pub served: Served,
    /// Component name.
    pub component: String,
    /// What was asked: `Table.rowSelection`, or `Table` for any use of the element, as the tables spell it.
    pub uses: String,
    /// What the call named, as written (what the continuation call repeats).
    #[serde(skip)]
    pub asked: String,
    /// Language of the document.
    pub lang: String,
    /// Examples using it in all (listed or not).
    pub total: u32,
    /// The examples of this part, the document's own smallest first, then the stories beside it.
    pub examples: Vec<ExampleRef>,
    /// One line per example listed: the text form's rows (the JSON form has them as `examples`, not twice).
    #[serde(skip)]
    pub text: String,
    /// Rows served (`rows_total`: the examples using it) and the cursor of the rest.
    #[serde(flatten)]
    pub part: ListPart,
}

/// `code-block`: one code block.
#[derive(Debug, Serialize, JsonSchema)]
pub struct CodeBlockView {
    /// Source of the answer.
    #[serde(flatten)]
    pub served: Served,
    /// Component name.
    pub component: String,
    /// Language of the document (`doc_lang` in JSON: the flattened block has its own `lang`, the code's language).
    #[serde(rename = "doc_lang")]
    pub lang: String,
    /// The block's metadata (number, info string, language, heading, lines, tokens).
    #[serde(flatten)]
    pub block: CodeBlockMeta,
    /// Blocks in the document.
    pub count: u32,
    /// Lines served and what is left (only a block over the budget is cut).
    #[serde(flatten)]
    pub part: Part,
    /// Pass it as `cursor` to get the next part.
    pub next_cursor: Option<String>,
    /// The block's code as a Markdown renderer sees it, fences included (container indentation and `>` markers
    /// removed, LF line endings), or the part served.
    pub text: String,
}

/// `changelog`: one page.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ChangelogView {
    /// Source of the answer.
    #[serde(flatten)]
    pub served: Served,
    /// Language.
    pub lang: String,
    /// Page number (1 = newest).
    pub page: u32,
    /// Pages in all.
    pub pages: u32,
    /// Lines of the page in the file.
    pub start_line: u32,
    /// Last line.
    pub end_line: u32,
    /// Lines of the whole changelog.
    pub total_lines: u32,
    /// Lines per page.
    pub page_lines: u32,
    /// Tokens of `text`, exact.
    pub tokens: u32,
    /// Tokens of the whole page.
    pub page_tokens: u32,
    /// Previous page number (newer entries), if any.
    pub previous: Option<u32>,
    /// Next page number (older entries), if any.
    pub next: Option<u32>,
    /// Releases headed in this part, newest first.
    pub releases: Vec<String>,
    /// Lines served (within the page's lines of the file) and what is left of the page.
    #[serde(flatten)]
    pub part: Part,
    /// Pass it as `cursor` to continue: the rest of the page, else the next page.
    pub next_cursor: Option<String>,
    /// The page text (or the part served).
    pub text: String,
}

/// `files`: a component's file list.
#[derive(Debug, Serialize, JsonSchema)]
pub struct FilesView {
    /// Source of the answer.
    #[serde(flatten)]
    pub served: Served,
    /// Component name.
    pub component: String,
    /// Tokens of this list's text (stored by the compiler, which renders it with the same code).
    pub tokens: u32,
    /// Files, sorted by path (of this part).
    pub files: Vec<FileMeta>,
    /// Rows served.
    #[serde(flatten)]
    pub part: ListPart,
}

/// `file`: one file, as its skeleton or whole.
#[derive(Debug, Serialize, JsonSchema)]
pub struct FileView {
    /// Source of the answer.
    #[serde(flatten)]
    pub served: Served,
    /// The file's metadata.
    pub file: FileMeta,
    /// True when `text` is the skeleton (function bodies replaced by `{ ... }`); `served_lines` and the lines left
    /// then count the skeleton's lines (of `file.skeleton.lines`), not the file's.
    pub skeleton: bool,
    /// The threshold in lines for skeletons.
    pub threshold: u32,
    /// Tokens of `text` (exact unless `tokens_exact` is false).
    pub tokens: u32,
    /// The line range asked for, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub range: Option<(u32, u32)>,
    /// The largest functions that fit a quarter of the budget (first part of a skeleton).
    //  Bounded by their bytes: see `crate::budget::listed_within`.
    pub functions: Vec<FunctionSize>,
    /// Functions in the file.
    pub functions_total: u32,
    /// Lines served and what is left.
    #[serde(flatten)]
    pub part: Part,
    /// Pass it as `cursor` to get the next part.
    pub next_cursor: Option<String>,
    /// The text served.
    pub text: String,
}

/// A function of a file's index, with its size: enough to plan which to fetch.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct FunctionSize {
    /// Qualified name.
    pub name: String,
    /// First line.
    pub line: u32,
    /// Tokens of its source (getter and setter together).
    pub tokens: u32,
}

impl FunctionSize {
    /// An upper bound of the tokens this entry adds to an answer, in its JSON form
    /// (`{"name":"…","line":N,"tokens":N},`) and in the text footer (`name N, `): its bytes, as every token is at
    /// least one byte.
    pub fn bound(&self) -> u32 {
        (self.name.len() + crate::budget::json_escapes(&self.name) + 40) as u32
    }
}

/// `function`: one function's exact source.
#[derive(Debug, Serialize, JsonSchema)]
pub struct FunctionView {
    /// Source of the answer.
    #[serde(flatten)]
    pub served: Served,
    /// File.
    pub path: String,
    /// The index entry.
    #[serde(flatten)]
    pub function: FunctionMeta,
    /// Lines served and what is left (only a function over the budget is cut).
    #[serde(flatten)]
    pub part: Part,
    /// Pass it as `cursor` to get the next part.
    pub next_cursor: Option<String>,
    /// The source text, exactly as in the file (or the part served).
    pub text: String,
}

/// An upper bound of a component row's tokens in the list's JSON and text forms, for sets without stored row counts:
/// the bytes of its JSON (with a comma), plus the text form's padding to `width` and its number columns and
/// language note.
pub(super) fn row_bound(row: &ComponentRow, width: usize) -> u32 {
    (serde_json::to_string(row).map_or(1000, |j| j.len() + 1) + width + 60) as u32
}

/// `component_details`' answer (and the CLI's `doc`): a document, or a changelog page when the name is `changelog`
/// / `changelog-N` (Semi's addressing). Serialized as the inner view, untagged.
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
    /// One prop (`prop`).
    Prop(PropView),
}

/// `tokens` (MCP `search_docs` with `kind="token"`): the design tokens matching a query and filters, cut by rows.
#[derive(Debug, Serialize, JsonSchema)]
pub struct TokensView {
    /// Source of the answer.
    #[serde(flatten)]
    pub served: Served,
    /// The query as asked (a name, a prefix, a category or a type), if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub query: Option<String>,
    /// Only tokens of this type.
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub kind: Option<TokenType>,
    /// Only this component's tokens.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub component: Option<String>,
    /// Tokens of the rows served: the sum of their stored counts (exact per row; the list's joins bounded).
    pub tokens: u32,
    /// The design tokens of the set in all (before the query).
    pub set_total: u32,
    /// The matching tokens of this part: exact name first, then names starting with the query, then the others.
    pub rows: Vec<DesignToken>,
    /// Rows served (`rows_total`: the tokens that match).
    #[serde(flatten)]
    pub part: ListPart,
}

/// `token-for` (MCP `search_docs` with `kind="token-for"`): the tokens whose value is a value, exact first, then the
/// nearest colours.
#[derive(Debug, Serialize, JsonSchema)]
pub struct TokenForView {
    /// Source of the answer.
    #[serde(flatten)]
    pub served: Served,
    /// The value as asked.
    pub value: String,
    /// The value normalised (`#rrggbbaa`, `12px`, `200ms`): always present, as a value of none of those kinds is
    /// refused ([`crate::read::LookupError::NotATokenValue`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub normalized: Option<String>,
    /// Why nothing is listed, when nothing is: "no token for this value" (with the nearest colour, its value and
    /// distance). A value that is no colour, length or duration is an error, not a note.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Tokens of the rows served (upper bound: each row's stored count plus its match's bytes).
    pub tokens: u32,
    /// The matches of this part.
    pub rows: Vec<TokenMatch>,
    /// Rows served.
    #[serde(flatten)]
    pub part: ListPart,
}

/// One token whose value is (or is near) the value asked for.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct TokenMatch {
    /// CIEDE2000 ΔE from the value asked for (`crate::design_value::delta_e`), 0 for an exact match; rounded to
    /// one decimal.
    pub distance: f64,
    /// The mode whose value matched (`""`: the token's only value).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub mode: String,
    /// The token.
    pub token: DesignToken,
}
