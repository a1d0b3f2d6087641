//! The data that crosses from the compiler to the reader: every type here is serialized into bundles with
//! MessagePack, so it is a compatibility boundary (bump `bundle::format::FORMAT_VERSION` when a field changes).
//!
//! Units throughout: lines are 1-based and inclusive, counted as `text.split('\n')` (the Semi Design MCP
//! server's count, so a file ending in a newline has `wc -l` + 1 lines); bytes are offsets into UTF-8 text;
//! tokens are exact counts in the manifest's `encoding` (o200k_base unless configured), computed at build time.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

mod design_tokens;
pub use design_tokens::*;

/// Frame keys of a component bundle and of the changelog bundle. One place, so writer and reader agree.
pub mod keys {
    /// The [`super::ComponentMeta`] of a component bundle.
    pub const COMPONENT: &str = "component";
    /// The [`super::Manifest`] of `manifest.bundle`.
    pub const MANIFEST: &str = "manifest";
    /// The head of the manifest ([`super::Manifest::head`]: every field but the component, file and component
    /// bundle lists) in `manifest.bundle` (format 6): what every lookup needs, decoded on open.
    pub const HEAD: &str = "head";
    /// One component's [`super::ComponentLookup`] in `manifest.bundle` (format 6), by its key: a lookup by name
    /// decodes this small frame, found by binary search in the bundle's sorted index, not the whole manifest.
    pub fn entry(component_key: &str) -> String {
        format!("entry/{component_key}")
    }
    /// Prefix of the frames of `manifest.bundle` that list [`super::Manifest::files`] (format 10): each holds up to
    /// [`super::FILES_PER_FRAME`] consecutive [`super::FileOwner`]s and is keyed by its first path, so the owner of a
    /// path is in the last such frame whose key is not after `files/<path>` (one binary search in the bundle's
    /// index); the `manifest` frame itself stores `files` empty.
    pub const FILES: &str = "files/";
    /// The frame of [`FILES`] whose first path is `first_path`.
    pub fn files(first_path: &str) -> String {
        format!("{FILES}{first_path}")
    }
    /// The [`super::ChangelogMeta`] of `changelog.bundle`.
    pub const CHANGELOG: &str = "changelog";
    /// The set's [`super::DesignTokens`] in `manifest.bundle` (format 12; absent from older sets: no tokens).
    pub const DESIGN_TOKENS: &str = "design-tokens";

    /// Whole text of the document in `lang`.
    pub fn doc(lang: &str) -> String {
        format!("doc/{lang}")
    }
    /// The [`super::DocLists`] of the document in `lang` (format 10): its code blocks, sections and tables, which
    /// the [`COMPONENT`] frame stores empty.
    pub fn doc_lists(lang: &str) -> String {
        format!("doc-lists/{lang}")
    }
    /// Whole text of a source file (repository-relative path).
    pub fn file(path: &str) -> String {
        format!("file/{path}")
    }
    /// The cleaned code of block `index` (1-based) of the document in `lang`, stored only when it differs from the
    /// block's source slice (see [`super::CodeBlockMeta::cleaned`]).
    pub fn block(lang: &str, index: u32) -> String {
        format!("block/{lang}/{index}")
    }
    /// Skeleton of a source file (only for sources over the skeleton threshold).
    pub fn skeleton(path: &str) -> String {
        format!("skeleton/{path}")
    }
    /// Function index of a source file: `Vec<FunctionMeta>`.
    pub fn functions(path: &str) -> String {
        format!("functions/{path}")
    }
    /// Changelog page `n` (1-based) in `lang`.
    pub fn page(lang: &str, n: u32) -> String {
        format!("page/{lang}/{n}")
    }
    /// The placeholder view of the document in `lang`: no text is stored under it (the reader rebuilds the view),
    /// only its [`super::TokenMap`].
    pub fn view(lang: &str) -> String {
        format!("view/{lang}")
    }
    /// The component card of the document in `lang` (`detail=brief`): rebuilt by the reader, only its
    /// [`super::TokenMap`] is stored.
    pub fn card(lang: &str) -> String {
        format!("card/{lang}")
    }
    /// The props tables of a component as Markdown (`sections=["props"]`) for the document in `lang`: rebuilt by the
    /// reader, only its [`super::TokenMap`] is stored.
    pub fn props_text(lang: &str) -> String {
        format!("props/{lang}")
    }
    /// The props tables of a component: `Vec<PropsTable>`, all languages and sources.
    pub const PROPS: &str = "props";
    /// The TypeScript [`super::PropsTable`]s of a component whose `props` frame holds its documents' API tables
    /// (format 7): not served as its props (the documents' win), kept so that `diff` can compare props changed only
    /// in TypeScript. Absent when `props` is already TypeScript, or there is none.
    pub const PROPS_TYPESCRIPT: &str = "props-typescript";
    /// Exact tokens of the `props` frame's tables as a props answer's JSON carries them (format 9): one
    /// [`super::PropsTokens`] per table, in the frame's order. Lets the reader list rows by their structured
    /// size instead of an upper bound of it.
    pub const PROPS_TOKENS: &str = "props-tokens";
    /// What each code block of the document in `lang` uses (format 12): a [`super::BlockUses`] per block, in the
    /// order of its [`super::DocLists::code_blocks`]. Absent in older sets and for documents without JSX blocks.
    pub fn uses(lang: &str) -> String {
        format!("uses/{lang}")
    }
    /// Where each prop of the component's tables is declared and the exact tokens of its `prop` answer row
    /// (format 12): one [`super::TableSites`] per table of [`PROPS`], then one per table of [`PROPS_TYPESCRIPT`].
    pub const PROP_SITES: &str = "prop-sites";
    /// The [`super::TokenMaps`] of the bundle's texts whose map has no frame of its own ([`tokens`]).
    pub const TOKENS: &str = "tokens";
    /// The [`super::TokenMap`] of text `text_key` of the bundle (`tokens/doc/zh-CN`, `tokens/file/<path>`, …) in a
    /// frame of its own, for a map of at least [`super::OWN_FRAME_SEGMENTS`] segments (format 9): a lookup then
    /// decodes the map of the text it serves, not the whole [`TOKENS`] frame (0.41 M of the 3.5 M instructions of
    /// a `doc table` process on Semi). Smaller maps stay in [`TOKENS`], where they compress together.
    pub fn tokens(text_key: &str) -> String {
        format!("tokens/{text_key}")
    }
}

/// What one code block uses, read at build time with tree-sitter's TSX grammar (issue 29 item 3): `Name` for each
/// element of an imported name (the name it is exported as, `Form.Input` as written after its first part),
/// `Name.prop` for each attribute (values are not kept: no lookup reads them, and they took Semi's bundles past
/// 0.35× its sources), and `Name.prop>key` for each key of the object literals its value holds (format 13:
/// `Table.columns>sorter`, nested keys joined by `>`). Sorted, no repeats; empty for a block that is no JSX or TSX.
pub type BlockUses = Vec<String>;

/// The sites of one table's props ([`keys::PROP_SITES`]), in the table's row order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableSites {
    /// One per prop.
    pub rows: Vec<PropSite>,
}

/// Where a prop is declared and what its row of a `prop` answer costs.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PropSite {
    /// The file declaring it when that is not the table's `path` (a prop merged in from an extended type).
    pub path: Option<String>,
    /// 1-based line of its member (TypeScript), or of its row in the document as written (format 13; a set of
    /// format 12 has 0 there, read as the table's line); 0 when not found.
    pub line: u32,
    /// Exact tokens of its line as [`crate::view::prop_line`] renders it.
    pub text_tokens: u32,
    /// Exact tokens of that line without its description (the row a small budget cuts the description of).
    pub short_tokens: u32,
    /// Exact tokens of its compact JSON as a `prop` answer lists it ([`crate::view::PropRow`]).
    pub json_tokens: u32,
    /// Exact tokens of its entry in a `context` answer's list of names ([`crate::view::name_entry`]; format 14, 0
    /// in older sets, which `context` bounds by the entry's bytes instead).
    #[serde(default)]
    pub name_tokens: u32,
}

/// Tokens of one [`PropsTable`] in a props answer's JSON (frame [`keys::PROPS_TOKENS`], format 9), counted by the
/// compiler in the manifest's encoding: the compact JSON of the table without its rows (`"props":[]`), and of each
/// row (a [`Prop`]), in order. The reader adds a few tokens per join (brackets, commas) to the sum.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PropsTokens {
    /// The table's JSON with `props` empty.
    pub head: u32,
    /// Each row's JSON.
    pub rows: Vec<u32>,
}

/// Sources larger than this many bytes (4 MiB, fixed) are not analyzed by the compiler: they are stored as text
/// only, with no function index and no skeleton (the compiler's `source::MAX_SOURCE_BYTES`; the reader names it
/// when `function` is asked of such a file).
pub const MAX_ANALYZED_SOURCE_BYTES: u64 = 4 * 1024 * 1024;

/// The rule numbers a bundle set was compiled with (defaults from the Semi Design MCP server). In a configuration
/// file each field may be given alone; an unknown one is an error (issue 31: `max_token = 500` left the cap at
/// 10,000 without a word). Manifests store it as a MessagePack array, which names no field, so this does not
/// bear on reading sets.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Thresholds {
    /// Documents with more lines than this are served as a placeholder view (888).
    pub doc_hide_lines: u32,
    /// Lines per changelog page (300).
    pub changelog_page_lines: u32,
    /// Sources with at least this many lines are served as a skeleton (500).
    pub skeleton_min_lines: u32,
    /// Cap on every response, in tokens, unless `serve --max-tokens` says otherwise (10,000; wcgw's budgets).
    pub max_tokens: u32,
}

impl Default for Thresholds {
    fn default() -> Self {
        Thresholds { doc_hide_lines: 888, changelog_page_lines: 300, skeleton_min_lines: 500, max_tokens: 10_000 }
    }
}

/// File owners per `files/<first path>` frame of `manifest.bundle` ([`keys::FILES`]): a lookup by path decodes
/// one small frame (Semi's ~700 owners were 32 KB of the 77 KB manifest every `file` and `function` decoded).
pub const FILES_PER_FRAME: usize = 64;

/// `manifest.bundle`: what a bundle set holds, small enough to decode on every lookup.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// Bundle format version the set was written with (`bundle::format::FORMAT_VERSION`).
    pub format_version: u16,
    /// Design-system name, e.g. `semi`.
    pub system: String,
    /// Version of the documentation compiled, e.g. `2.102.0`.
    pub version: String,
    /// The tool that built it, e.g. `mydesign-docs 0.1.0`.
    pub built_by: String,
    /// Token encoding of every stored count: `o200k_base` or `cl100k_base`.
    pub encoding: String,
    /// Language served when a lookup names none.
    pub default_lang: String,
    /// Languages compiled, sorted.
    pub langs: Vec<String>,
    /// Rule numbers used.
    pub thresholds: Thresholds,
    /// Components, sorted by `key`.
    pub components: Vec<ComponentEntry>,
    /// Shared source folders that are no component (`_utils`, Semi's `base`): files served by path, listed as
    /// the pseudo-component `_shared`, never in `components`.
    pub shared: Option<ComponentEntry>,
    /// Which component bundle stores each source file, sorted by `path`. Stored in the `files/` frames
    /// ([`keys::FILES`]), not in the `manifest` frame; [`crate::bundle::writer::BundleWriter::add_manifest`] and
    /// [`crate::bundle::reader::read_manifest`] split and join them.
    pub files: Vec<FileOwner>,
    /// The changelog, when the repository has one.
    pub changelog: Option<ChangelogEntry>,
    /// Every bundle file with its size and checksum, for `verify`.
    pub bundles: Vec<BundleFile>,
    /// Totals for the build summary.
    pub stats: BuildStats,
    /// The search index (`search.bundle`); absent in sets built before search existed.
    #[serde(default)]
    pub search: Option<SearchEntry>,
    /// Tokens of the component list (`list_components`, as MCP clients get it) per language.
    pub list_tokens: Vec<(String, u32)>,
    /// Tokens of the same list's JSON (`structuredContent`, `--json`) per language: the whole list is served
    /// uncut only when both forms fit the budget.
    pub list_json_tokens: Vec<(String, u32)>,
    /// Per language, the tokens of each component's row in the list's larger form (its text line, padded to the
    /// widest name, or its JSON object with a comma), in the order of `components`: the reader bounds a cut list
    /// by these, not by bytes (a Chinese brief is a token per character, not per byte). Since format 14 the guide
    /// list's rows follow (padded to the widest guide name). Empty when not stored; a list of another length is
    /// ignored.
    #[serde(default)]
    pub list_row_tokens: Vec<(String, Vec<u32>)>,
    /// The npm package whose version a project pins (`serve --project`), e.g. `@douyinfe/semi-ui`: `[system]
    /// package` of the config, else `name` of the repository's `package.json`. Absent in sets of format 2.
    #[serde(default)]
    pub package: Option<String>,
    /// Where the sources came from, when `build` knew (a git checkout or `--ref`). Absent in sets of format 2.
    #[serde(default)]
    pub source: Option<SourceInfo>,
    /// The build's id, stored in every bundle's identity (`bundle::format::Identity`): a hash of this manifest
    /// before `bundles` and `build_id` are filled in.
    pub build_id: u64,
    /// The cut-point rule of every token map (`bundle::format::CUT_RULE`); a reader refuses one it does not know.
    pub cut_rule: u16,
}

/// The source a set was built from (`build REPO [--ref REF]`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct SourceInfo {
    /// The repository: its URL (`remote.origin.url`, or the one given to `build`) or local path.
    pub repository: String,
    /// The `--ref` given (tag, branch or commit), if any.
    pub reference: Option<String>,
    /// The commit built (40 hex digits).
    pub commit: Option<String>,
    /// A tag pointing at that commit, if any.
    pub tag: Option<String>,
}

/// The search index in the manifest.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SearchEntry {
    /// File name of the search bundle.
    pub bundle: String,
    /// Units indexed (sections and their parts, code blocks, functions, changelog releases).
    pub units: u32,
    /// Distinct terms.
    pub terms: u32,
}

/// One component in the manifest.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ComponentEntry {
    /// Lookup key: the name lower-cased with `-` and `_` removed (`date-picker` → `datepicker`).
    pub key: String,
    /// Display name, from the document directory (or the source directory when there is no document).
    pub name: String,
    /// Title from the document's front matter or first H1.
    pub title: Option<String>,
    /// One-line description from the front matter (`brief`/`description`) or the first paragraph.
    pub brief: Option<String>,
    /// Documents by language, sorted by `lang`.
    pub docs: Vec<DocSummary>,
    /// Number of files listed for the component.
    pub files: u32,
    /// Tokens of the component's file list (`list_components` with `component`).
    pub files_tokens: u32,
    /// Tokens of that list's JSON (`structuredContent`, `--json`).
    pub files_json_tokens: u32,
    /// The tokens of each row of that list in its larger form (text line padded to the longest path, or JSON
    /// object with a comma), in list order, as `Manifest::list_row_tokens`.
    #[serde(default)]
    pub file_row_tokens: Vec<u32>,
    /// File name of its bundle inside the bundle set directory.
    pub bundle: String,
    /// A guide (format 11): a page that documents no exported component (a site's guide, blog or overview page).
    /// Read like any component's document (`doc`, `search`), listed apart (`components --guides`), never in the
    /// component list. `false` in sets of format 10.
    #[serde(default)]
    pub guide: bool,
}

/// Sizes of one document, for lists.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DocSummary {
    /// Language tag, e.g. `zh-CN`.
    pub lang: String,
    /// Lines of the whole document.
    pub lines: u32,
    /// CommonMark fenced code blocks.
    pub code_blocks: u32,
    /// Tokens of the whole document.
    pub tokens: u32,
    /// Tokens of the default view (the placeholder view over the threshold, else the whole document).
    pub view_tokens: u32,
    /// This language's title (front matter `title`, else first H1): `components --lang X` shows X's.
    #[serde(default)]
    pub title: Option<String>,
    /// This language's one-line description.
    #[serde(default)]
    pub brief: Option<String>,
    /// As [`DocMeta::generated`] (format 14; 0 before).
    #[serde(default)]
    pub generated: u32,
}

/// Where a source file is stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileOwner {
    /// Repository-relative path with `/` separators.
    pub path: String,
    /// Key of the component whose bundle stores it.
    pub component: String,
}

/// The changelog in the manifest.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChangelogEntry {
    /// File name of the changelog bundle.
    pub bundle: String,
    /// One summary per language, sorted by `lang`.
    pub langs: Vec<ChangelogSummary>,
}

/// Size of the changelog in one language.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChangelogSummary {
    /// Language tag.
    pub lang: String,
    /// Repository-relative path of the changelog file.
    pub path: String,
    /// Lines of the whole changelog.
    pub lines: u32,
    /// Number of pages (`ceil(lines / changelog_page_lines)`).
    pub pages: u32,
    /// Tokens of the whole changelog.
    pub tokens: u32,
    /// Release entries found (headings that carry a version).
    pub releases: u32,
}

/// One component as a lookup by name needs it: its manifest entry and its bundle file's record (size and
/// checksums, compared with the bundle on open). The `entry/<key>` frames of `manifest.bundle` (format 6).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ComponentLookup {
    /// The component's entry, as in [`Manifest::components`].
    pub entry: ComponentEntry,
    /// Its bundle's record, as in [`Manifest::bundles`].
    pub bundle: BundleFile,
}

impl Manifest {
    /// The manifest without the lists that grow with the number of components: `components`, `files` and
    /// `list_row_tokens` empty, `bundles` keeping only the files that are no component's (the manifest's own lists
    /// name the changelog, search and shared bundles). Stored as the `head` frame; a set is opened by decoding it
    /// alone.
    pub fn head(&self) -> Manifest {
        let component_bundles: std::collections::HashSet<&str> =
            self.components.iter().map(|c| c.bundle.as_str()).collect();
        Manifest {
            components: Vec::new(),
            files: Vec::new(),
            // Rows of the component list, which only the whole manifest (with `components`) serves: every lookup
            // decodes the head, and at 10× Semi these were 2,020 counts.
            list_row_tokens: Vec::new(),
            bundles: self.bundles.iter().filter(|b| !component_bundles.contains(b.name.as_str())).cloned().collect(),
            ..self.clone()
        }
    }

    /// Every component with its bundle's record (`entry/<key>` frames), in key order. A component whose bundle
    /// is not listed gets an empty record (its open then fails the size check, as with the whole manifest).
    pub fn lookups(&self) -> impl Iterator<Item = ComponentLookup> + '_ {
        self.components.iter().map(|c| {
            let bundle = match self.bundles.binary_search_by(|b| b.name.as_str().cmp(&c.bundle)) {
                Ok(i) => self.bundles[i].clone(),
                Err(_) => BundleFile { name: c.bundle.clone(), bytes: 0, xxh3: 0, header_xxh3: 0 },
            };
            ComponentLookup { entry: c.clone(), bundle }
        })
    }
}

/// A bundle file of the set, for `verify`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BundleFile {
    /// File name inside the bundle set directory.
    pub name: String,
    /// Size in bytes.
    pub bytes: u64,
    /// xxh3-64 of the whole file (checked by `verify`).
    pub xxh3: u64,
    /// The bundle's header checksum, a fingerprint of the whole file (checked on every open).
    pub header_xxh3: u64,
}

/// Totals of a build.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BuildStats {
    /// Documents compiled (all languages).
    pub documents: u32,
    /// Code blocks in all documents.
    pub code_blocks: u32,
    /// Files listed for components.
    pub files: u32,
    /// Sources analysed with tree-sitter.
    pub sources: u32,
    /// Skeletons produced.
    pub skeletons: u32,
    /// Functions indexed.
    pub functions: u32,
    /// Bytes of every input compiled (documents, changelogs, listed files).
    pub source_bytes: u64,
    /// Bytes of every bundle file except the manifest.
    pub bundle_bytes: u64,
    /// Tokens of every document and changelog in full.
    pub raw_tokens: u64,
    /// Tokens of every document's default view plus one changelog page per language.
    pub view_tokens: u64,
    /// Components' own changelog files (format 12; all languages).
    #[serde(default)]
    pub component_changelogs: u32,
    /// Release entries in those files.
    #[serde(default)]
    pub component_releases: u32,
}

/// The `component` frame of a component bundle: everything about it except the texts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ComponentMeta {
    /// Lookup key (see [`ComponentEntry::key`]).
    pub key: String,
    /// Display name.
    pub name: String,
    /// Documents by language, sorted by `lang`.
    pub docs: Vec<DocMeta>,
    /// Files of the component, sorted by path.
    pub files: Vec<FileMeta>,
    /// The component's own changelogs (format 12), one per language, sorted by `lang`; empty when it keeps none
    /// (its entries are then found in the set's changelog by name).
    #[serde(default)]
    pub changelogs: Vec<ComponentChangelog>,
}

/// A component's own changelog in one language (Arco's `components/Button/__changelog__/index.en-US.md`): the
/// file (one of the component's files, whose text is its `file/<path>` frame) and its release entries.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ComponentChangelog {
    /// Language tag.
    pub lang: String,
    /// Repository-relative path of the file.
    pub path: String,
    /// Release entries in file order (newest first as written), lines of the file.
    pub releases: Vec<ReleaseMeta>,
}

/// The lists of one document, stored apart from the [`ComponentMeta`] (format 10, frame [`keys::doc_lists`]): a
/// lookup of one document decodes its own lists, not those of every language (Semi's Table: 0.41 M instructions
/// instead of 0.69 M).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DocLists {
    /// As [`DocMeta::code_blocks`].
    pub code_blocks: Vec<CodeBlockMeta>,
    /// As [`DocMeta::sections`].
    pub sections: Vec<SectionMeta>,
    /// As [`DocMeta::tables`].
    pub tables: Vec<TableMeta>,
}

impl ComponentMeta {
    /// What the writer stores: this meta with every document's lists empty (the `component` frame), and each
    /// document's lists by language (the `doc-lists/<lang>` frames). [`DocMeta::with_lists`] joins them back.
    pub fn split_lists(&self) -> (ComponentMeta, Vec<(String, DocLists)>) {
        let mut head = self.clone();
        let lists = head
            .docs
            .iter_mut()
            .map(|d| {
                let lists = DocLists {
                    code_blocks: std::mem::take(&mut d.code_blocks),
                    sections: std::mem::take(&mut d.sections),
                    tables: std::mem::take(&mut d.tables),
                };
                (d.lang.clone(), lists)
            })
            .collect();
        (head, lists)
    }
}

impl DocMeta {
    /// This document (as the `component` frame stores it, its lists empty) with `lists`.
    pub fn with_lists(&self, lists: DocLists) -> DocMeta {
        DocMeta { code_blocks: lists.code_blocks, sections: lists.sections, tables: lists.tables, ..self.clone() }
    }
}

/// One document of a component.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DocMeta {
    /// Language tag.
    pub lang: String,
    /// Repository-relative path.
    pub path: String,
    /// Title (front matter `title`, else first H1).
    pub title: Option<String>,
    /// One-line description.
    pub brief: Option<String>,
    /// The import statement of the component, from the document's code blocks (e.g.
    /// `import { Table } from '@douyinfe/semi-ui';`).
    pub import: Option<String>,
    /// Tokens of the component card (`detail=brief`) in this language.
    pub card_tokens: u32,
    /// Lines of the whole document.
    pub lines: u32,
    /// Bytes of the whole document.
    pub bytes: u32,
    /// Tokens of the whole document.
    pub tokens: u32,
    /// True when the document is over `doc_hide_lines` and its default view hides code blocks.
    pub hidden: bool,
    /// Tokens of the default view.
    pub view_tokens: u32,
    /// Code blocks in document order.
    pub code_blocks: Vec<CodeBlockMeta>,
    /// Headings in document order.
    pub sections: Vec<SectionMeta>,
    /// GFM tables in document order.
    pub tables: Vec<TableMeta>,
    /// 0 for a document written in the repository; else the number of Storybook stories the compiler generated
    /// this document from (format 14): a component with stories and no document gets a title, a line saying so
    /// and its stories as code blocks, under its first story file's `path`. 0 in sets of format 13 and older.
    #[serde(default)]
    pub generated: u32,
    /// Exact tokens of `import` as a `context` answer prints it ([`crate::view::import_line`]; format 14, 0 in older
    /// sets and without an import, which `context` bounds by the line's bytes instead).
    #[serde(default)]
    pub import_tokens: u32,
}

/// One GFM table of a document (the placeholder view hides long ones, as it hides code blocks).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct TableMeta {
    /// Body rows.
    pub rows: u32,
    /// Plain text of the nearest heading above it.
    pub heading: Option<String>,
    /// First line (the header row).
    pub start_line: u32,
    /// Last line.
    pub end_line: u32,
    /// Byte offset of its first line.
    pub start_byte: u32,
    /// Byte offset of the end of its last line (newline excluded).
    pub end_byte: u32,
    /// Tokens of the table.
    pub tokens: u32,
}

/// One fenced code block.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct CodeBlockMeta {
    /// 1-based number within its document (`#N` of the placeholders).
    pub index: u32,
    /// The whole info string, e.g. `jsx live=true dir="column"`.
    pub info: String,
    /// First word of the info string; empty when there is none.
    pub lang: String,
    /// Plain text of the nearest heading above it.
    pub heading: Option<String>,
    /// First line (the opening fence).
    pub start_line: u32,
    /// Last line (the closing fence).
    pub end_line: u32,
    /// Byte offset of the block's first line in the document (code blocks are served as slices of the document
    /// frame: one stored copy of every text).
    pub start_byte: u32,
    /// Byte offset of the end of its last line (exclusive, newline excluded).
    pub end_byte: u32,
    /// Tokens of the block as served (fences included): of the cleaned code when `cleaned`, else of the slice.
    pub tokens: u32,
    /// The source slice is not the code a Markdown renderer sees (the block sits in a list item or block quote, or
    /// the file has CRLF line endings): the cleaned code (container indentation and `>` markers removed, LF line
    /// endings) is stored as its own text frame [`keys::block`] and served instead of the slice. The block's lines
    /// and bytes still name its source.
    pub cleaned: bool,
    /// Set when the block is a demo file referenced by `<code src="…">` (dumi): its code (the file, exactly) is
    /// the [`keys::block`] frame (`cleaned` is true); its lines and bytes are those of the `<code>` element.
    pub demo: Option<DemoMeta>,
}

/// The demo file behind a code block (see [`CodeBlockMeta::demo`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct DemoMeta {
    /// Repository-relative path of the demo file (resolved from the `src` attribute and the document's folder).
    pub path: String,
    /// The `title` attribute or the element's text, e.g. `Basic usage`.
    pub title: Option<String>,
    /// The `description` attribute.
    pub description: Option<String>,
    /// Repository-relative path of the demo's sibling Markdown description (`demo/basic.md` beside
    /// `demo/basic.tsx`), when it exists; named in the `code-block` header (`file` serves it when the layout lists
    /// it among the component's files, as a `src/components/<name>/demos/` layout does).
    pub description_path: Option<String>,
    /// The demo is marked `debug` (shown by the site only in development).
    pub debug: bool,
    /// The Storybook story this example is, as `<story file>#<export>` (format 11): a story of the story file, or
    /// an example file a story re-exports. The card counts them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub story: Option<String>,
}

/// One heading of a document and the lines it spans.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct SectionMeta {
    /// Heading level, 1 to 6.
    pub level: u8,
    /// Plain text of the heading.
    pub title: String,
    /// GitHub-style slug of the title.
    pub slug: String,
    /// The heading's line.
    pub start_line: u32,
    /// Last line before the next heading of the same or a higher level.
    pub end_line: u32,
    /// Tokens of the section's lines.
    pub tokens: u32,
}

/// What a listed file is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum FileKind {
    /// `.ts/.tsx/.js/.jsx/.vue` (a `.vue` file's `<script>` blocks): analysed with tree-sitter, has a function index.
    Source,
    /// Any other text file, stored whole.
    Text,
    /// Binary file: listed with its size, not stored.
    Binary,
}

/// One file listed for a component.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct FileMeta {
    /// Repository-relative path with `/` separators.
    pub path: String,
    /// What it is.
    pub kind: FileKind,
    /// Lines (0 for binary files).
    pub lines: u32,
    /// Size in bytes.
    pub bytes: u64,
    /// Tokens of the whole text (0 for binary files).
    pub tokens: u32,
    /// The skeleton, for sources with at least `skeleton_min_lines` lines.
    pub skeleton: Option<SkeletonMeta>,
    /// Functions in its function index.
    pub functions: u32,
    /// tree-sitter ERROR/MISSING nodes found (the index and skeleton are then partial).
    pub parse_errors: u32,
    /// Key of the component whose bundle stores the text (files may be shared by several components).
    pub owner: String,
}

/// Size of a skeleton.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct SkeletonMeta {
    /// Lines of the skeleton.
    pub lines: u32,
    /// Tokens of the skeleton.
    pub tokens: u32,
    /// Outermost function bodies replaced by `{ ... }`.
    pub outer_bodies: u32,
}

/// What kind of function-like thing a function index entry is (found by the compiler's source analysis).
/// Serialized in kebab-case (`"function-expression"`, `"class-property"`, ...).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum FunctionKind {
    /// `function f() {}` declaration (also `export`, `export default`, `async`).
    Function,
    /// `function* g() {}` declaration, or a `function* () {}` expression held by a variable,
    /// assignment or default export.
    Generator,
    /// `const x = function () {}` (named after the variable, even when the expression has its own
    /// name), an assignment `a.b = function () {}`, or a named function expression held by nothing
    /// (`call(function named() {})`, named after itself).
    FunctionExpression,
    /// `const f = () => ...`, block or expression body, named after the variable or assignment target.
    Arrow,
    /// A class method, or an object-literal method shorthand `{ foo() {} }` (also `static`, `async`,
    /// generator `*m() {}`, `#private`, computed `[Symbol.iterator]() {}`).
    Method,
    /// A class `constructor`.
    Constructor,
    /// A `get x() {}` accessor, in a class or an object literal.
    Getter,
    /// A `set x(v) {}` accessor, in a class or an object literal.
    Setter,
    /// A class field whose value is a function: `handleClick = () => {}`, `x = function () {}`.
    ClassProperty,
    /// An object-literal property whose value is a function: `{ bar: function () {}, baz: () => {} }`.
    ObjectProperty,
    /// A declaration without a body: an overload head with no implementation after it, `declare function f();`,
    /// an abstract method, or a method signature of an interface or class. (Overload heads followed by their
    /// implementation are one entry of the implementation's kind.)
    Signature,
}

impl FunctionKind {
    /// Every kind, in declaration order.
    pub const ALL: [FunctionKind; 11] = [
        FunctionKind::Function,
        FunctionKind::Generator,
        FunctionKind::FunctionExpression,
        FunctionKind::Arrow,
        FunctionKind::Method,
        FunctionKind::Constructor,
        FunctionKind::Getter,
        FunctionKind::Setter,
        FunctionKind::ClassProperty,
        FunctionKind::ObjectProperty,
        FunctionKind::Signature,
    ];

    /// The kebab-case name it is serialized as (`function-expression`).
    pub fn as_str(&self) -> &'static str {
        match self {
            FunctionKind::Function => "function",
            FunctionKind::Generator => "generator",
            FunctionKind::FunctionExpression => "function-expression",
            FunctionKind::Arrow => "arrow",
            FunctionKind::Method => "method",
            FunctionKind::Constructor => "constructor",
            FunctionKind::Getter => "getter",
            FunctionKind::Setter => "setter",
            FunctionKind::ClassProperty => "class-property",
            FunctionKind::ObjectProperty => "object-property",
            FunctionKind::Signature => "signature",
        }
    }
}

/// The kinds of a function index entry: one for a stored entry; a getter and its setter (or overloads) that
/// `function` serves together have theirs in order. Serialized as their kebab-case names joined with `+`
/// (`method`, `getter+setter`): the string the format has always stored, so the bytes are those of format 5.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FunctionKinds(pub Vec<FunctionKind>);

impl FunctionKinds {
    /// One kind.
    pub fn one(kind: FunctionKind) -> FunctionKinds {
        FunctionKinds(vec![kind])
    }
}

impl std::fmt::Display for FunctionKinds {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, k) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("+")?;
            }
            f.write_str(k.as_str())?;
        }
        Ok(())
    }
}

impl PartialEq<&str> for FunctionKinds {
    fn eq(&self, other: &&str) -> bool {
        let mut rest = *other;
        for (i, k) in self.0.iter().enumerate() {
            if i > 0 {
                let Some(r) = rest.strip_prefix('+') else { return false };
                rest = r;
            }
            let Some(r) = rest.strip_prefix(k.as_str()) else { return false };
            rest = r;
        }
        rest.is_empty()
    }
}

impl Serialize for FunctionKinds {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for FunctionKinds {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = std::borrow::Cow::<'de, str>::deserialize(d)?;
        text.split('+')
            .map(|name| {
                FunctionKind::ALL
                    .iter()
                    .find(|k| k.as_str() == name)
                    .cloned()
                    .ok_or_else(|| serde::de::Error::custom(format!("unknown function kind `{name}`")))
            })
            .collect::<Result<Vec<_>, _>>()
            .map(FunctionKinds)
    }
}

/// One entry of a file's function index.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct FunctionMeta {
    /// Simple name, e.g. `render`.
    pub name: String,
    /// Qualified name, e.g. `Table.render`.
    pub qualified: String,
    /// Kind, e.g. `method`, `arrow`, `getter` (serialized as its kebab-case name; `getter+setter` when a view
    /// serves several entries of one name together).
    #[schemars(with = "String")]
    pub kind: FunctionKinds,
    /// First line of the whole member or declaration.
    pub start_line: u32,
    /// Last line.
    pub end_line: u32,
    /// Byte offset where it starts in the file.
    pub start_byte: u32,
    /// Byte offset where it ends (exclusive).
    pub end_byte: u32,
    /// Tokens of its text.
    pub tokens: u32,
}

/// The `changelog` frame of `changelog.bundle`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChangelogMeta {
    /// One per language, sorted by `lang`.
    pub langs: Vec<ChangelogLang>,
}

/// The changelog in one language.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChangelogLang {
    /// Sizes.
    pub summary: ChangelogSummary,
    /// Pages in order (page 1 = top of the file, the newest entries).
    pub pages: Vec<PageMeta>,
    /// Release entries in file order (newest first).
    pub releases: Vec<ReleaseMeta>,
}

/// One changelog page.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PageMeta {
    /// 1-based page number.
    pub number: u32,
    /// First line of the page in the file.
    pub start_line: u32,
    /// Last line.
    pub end_line: u32,
    /// Tokens of the page text.
    pub tokens: u32,
}

/// One release entry of a changelog.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReleaseMeta {
    /// Version, e.g. `2.102.0`.
    pub version: String,
    /// Date `YYYY-MM-DD` when the heading has one.
    pub date: Option<String>,
    /// First line (the heading).
    pub start_line: u32,
    /// Last line.
    pub end_line: u32,
}

/// Exact token counts inside one text, so the reader can cut it to a token budget without a tokenizer: the text
/// is tiled by segments that end at the *cut points* of `budget::cut_points` (a pure function of the text, run by
/// the compiler and again by the reader, so only the counts are stored), where tiktoken's pre-tokenizer always
/// starts a new piece; the tokens of any run of whole segments are then exactly the sum of their counts.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TokenMap {
    /// Tokens of each segment, in text order; they add up to the text's token count (plus one per forced cut).
    #[serde(with = "packed_u32")]
    pub tokens: Vec<u32>,
    /// Byte offsets of extra cut points the compiler added inside segments of more than
    /// [`crate::budget::MAX_SEGMENT_TOKENS`] tokens, where both encodings' pre-tokenizers start a new piece
    /// ([`crate::budget::split_segment`]): counts across them stay exact. Ascending.
    #[serde(with = "packed_u32")]
    pub extra: Vec<u32>,
    /// Byte offsets of forced cut points (at char boundaries) inside runs with no piece boundary for
    /// [`crate::budget::SPLIT_BYTES`] bytes (a base64 or hex line): a count across one is an upper bound, the sum
    /// of the pieces' counts plus one token of slack per forced cut. Ascending, disjoint from `extra`.
    #[serde(with = "packed_u32")]
    pub forced: Vec<u32>,
}

/// A `Vec<u32>` stored as one MessagePack bin of unsigned LEB128 numbers (format 10, [`TokenMap`]'s fields: a
/// segment's count takes one byte): decoded in one pass over the bytes, where an array of integers was decoded
/// number by number (the 6,000 counts of a Semi document were 1.5 M instructions of a `code-block` lookup).
/// Errors: those of [`crate::varint::get`] (a number cut short, over `u32::MAX` or overlong).
mod packed_u32 {
    use std::borrow::Cow;

    use serde::{Deserializer, Serializer, de};

    pub fn serialize<S: Serializer>(values: &[u32], s: S) -> Result<S::Ok, S::Error> {
        let mut bytes = Vec::with_capacity(values.len());
        for &v in values {
            crate::varint::put(&mut bytes, v);
        }
        serde_bytes::serialize(&bytes, s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u32>, D::Error> {
        // Borrowed from the frame's bytes (`rmp_serde::from_slice`): no copy before the one decoding pass.
        let bytes: Cow<'de, [u8]> = serde_bytes::deserialize(d)?;
        crate::varint::get_all(&bytes).map_err(de::Error::custom)
    }
}

impl TokenMap {
    /// Tokens of the whole text: exact when `forced` is empty, else an upper bound (one token of slack per forced
    /// cut).
    pub fn total(&self) -> u32 {
        self.tokens.iter().sum::<u32>() + self.forced.len() as u32
    }
}

/// The `tokens` frame of a bundle: the [`TokenMap`] of every text it stores or that the reader rebuilds from it,
/// by the text's frame key (`doc/zh-CN`, `view/zh-CN`, `card/zh-CN`, `props/zh-CN`, `file/<path>`,
/// `skeleton/<path>`, `page/<lang>/<n>`). One frame per bundle: thousands of small maps compress far better together.
pub type TokenMaps = std::collections::BTreeMap<String, TokenMap>;

/// A [`TokenMap`] of at least this many segments is stored in a frame of its own (`keys::tokens`, format 9).
pub const OWN_FRAME_SEGMENTS: usize = 256;

/// Where a props table was extracted from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum PropsOrigin {
    /// A TypeScript `interface XxxProps` or `type XxxProps = {…}` of a source file.
    Typescript,
    /// A Markdown table under an API heading of a document.
    Document,
}

/// One props table of a component: the props of one React component (or of a sub-component, e.g. Semi's
/// `Table.Column`), extracted at build time.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct PropsTable {
    /// What the props belong to: the interface name for TypeScript (`AlertProps`), the heading above the table
    /// for documents (`Table`, `Column`).
    pub name: String,
    /// Where it was found.
    pub origin: PropsOrigin,
    /// Repository-relative path of the file it was found in.
    pub path: String,
    /// Language of the document (documents only).
    pub lang: Option<String>,
    /// First line of the interface, type alias or table (1-based).
    pub line: u32,
    /// Last line of it (1-based, inclusive): the closing `}` or `;`, the table's last row (from the parser's
    /// node, tree-sitter's or comrak's).
    pub end_line: u32,
    /// Types it extends whose props were merged in (TypeScript only), e.g. `OverlayLifecycleProps`: declared in
    /// the same file, or in another file of the repository reached through imports and re-exports; types that
    /// could not be resolved are listed in `unresolved_extends`.
    pub extends: Vec<String>,
    /// Extended types found nowhere in the repository (e.g. `React.HTMLAttributes`; their props are not in
    /// `props`).
    pub unresolved_extends: Vec<String>,
    /// Props in source order.
    pub props: Vec<Prop>,
}

/// One prop of a [`PropsTable`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Prop {
    /// Prop name, e.g. `canEscapeKeyCancel`.
    pub name: String,
    /// Type as written (TypeScript) or as the table's type cell reads once reduced to text (`<ApiType>` JSX and
    /// links reduced to their text), e.g. `boolean`, `"top" | "bottom"`.
    pub type_text: String,
    /// Whether it may be omitted (`?` in TypeScript; documents: true unless the table marks it required).
    pub optional: bool,
    /// Default value: JSDoc `@default`, `defaultProps`, a destructuring default, or the table's default column.
    pub default: Option<String>,
    /// Description: the JSDoc comment without its tags, or the table's description cell, as plain text.
    pub description: Option<String>,
    /// Version it appeared in, when stated (JSDoc `@since`, a document's version column).
    pub since: Option<String>,
    /// Whether it is deprecated (JSDoc `@deprecated`, or the document says so).
    pub deprecated: bool,
}

/// Normalizes a component name into its lookup key: lower-cased, with `-`, `_`, `.` and spaces removed, so that
/// `date-picker`, `DatePicker` and `datepicker` meet.
pub fn component_key(name: &str) -> String {
    name.chars().filter(|c| !matches!(c, '-' | '_' | '.' | ' ')).flat_map(char::to_lowercase).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn component_keys_meet_across_spellings() {
        assert_eq!(component_key("date-picker"), "datepicker");
        assert_eq!(component_key("DatePicker"), "datepicker");
        assert_eq!(component_key("tag_input"), "taginput");
    }

    /// A document and its list summary as a format-13 set stores them (MessagePack arrays shorter: no
    /// `generated`, no `import_tokens`) read as written documents.
    #[test]
    fn format_13_documents_read_as_written_ones() {
        let doc = DocMeta {
            lang: "en-US".into(),
            path: "docs/button.md".into(),
            title: Some("Button".into()),
            brief: None,
            import: None,
            card_tokens: 1,
            lines: 2,
            bytes: 3,
            tokens: 4,
            hidden: false,
            view_tokens: 4,
            code_blocks: vec![],
            sections: vec![],
            tables: vec![],
            generated: 0,
            import_tokens: 0,
        };
        let now = rmp_serde::to_vec(&doc).unwrap();
        // 16 fields: `array16 16`; the last two, `generated` and `import_tokens` (format 14), are the fixint 0.
        assert_eq!((&now[..3], &now[now.len() - 2..]), (&[0xdc, 0, 16][..], &[0, 0][..]));
        let v13 = [&[0x9e][..], &now[3..now.len() - 2]].concat();
        assert_eq!(rmp_serde::from_slice::<DocMeta>(&v13).unwrap(), doc);
        let summary = DocSummary {
            lang: "en-US".into(),
            lines: 2,
            code_blocks: 0,
            tokens: 4,
            view_tokens: 4,
            title: None,
            brief: None,
            generated: 0,
        };
        let now = rmp_serde::to_vec(&summary).unwrap();
        assert_eq!((now[0], now.last()), (0x98, Some(&0)));
        let v13 = [&[0x97][..], &now[1..now.len() - 1]].concat();
        assert_eq!(rmp_serde::from_slice::<DocSummary>(&v13).unwrap(), summary);
    }
}
