//! The reader half: finds a bundle set, opens bundles (positioned reads) on first use, and answers each lookup by
//! decompressing only the frames it returns. It never parses Markdown, runs tree-sitter or counts tokens: every
//! number it reports was stored by the compiler.
//!
//! Lookups return plain serializable views (the structured output of CLI `--json` and of MCP tools); `render`
//! turns them into text. A failed lookup is a [`LookupError`] that names what exists.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use schemars::JsonSchema;
use serde::Serialize;

use crate::budget::{Budget, BudgetError, Cursor, Cuts, DocForm, Fence, Part, Request, serve};
use crate::bundle::format::{CHANGELOG_KEY, CUT_RULE, MANIFEST_KEY, SEARCH_KEY};
use crate::bundle::reader::KeyedFrame;
use crate::bundle::{Bundle, BundleError};
use crate::model::*;

/// Why a lookup failed. Every message says what exists or what to do.
#[derive(Debug, thiserror::Error)]
pub enum LookupError {
    /// No bundle set where one was expected.
    #[error("{why}")]
    NoBundles {
        /// Directory searched.
        dir: String,
        /// What was found there and what to do, for each directory searched ([`no_bundles`]): it does not exist,
        /// is a file (a pack file: how to install it), holds a set missing its `manifest.bundle`, or holds no set
        /// (the build command that makes one).
        why: String,
    },
    /// A system the directories do not hold.
    #[error("{message}")]
    System {
        /// What is wrong and which systems exist.
        message: String,
    },
    /// Several systems, none chosen.
    #[error("{dir} holds several systems ({}); choose one with --system (`system` in MCP tools)", names.join(", "))]
    SeveralSystems {
        /// The directories searched.
        dir: String,
        /// The systems they hold.
        names: Vec<String>,
    },
    /// The version asked for is not there.
    #[error("version {version} of {system} is not in {dir}; available: {available}")]
    UnknownVersion {
        /// System.
        system: String,
        /// Version asked for.
        version: String,
        /// Directory searched.
        dir: String,
        /// Versions present.
        available: String,
    },
    /// No component of that name.
    #[error("unknown component `{name}` in {system} {version}{}", if suggestions.is_empty() {
        format!("; it has {known} components: {}", first_names(first, *known, "`components`, MCP: list_components"))
    } else {
        suggest(suggestions)
    })]
    UnknownComponent {
        /// How many components there are.
        known: usize,
        /// The first names of the list (at most [`FIRST_NAMES`]), named when no name is close.
        first: Box<[String]>,
        /// Name asked for.
        name: String,
        /// System.
        system: String,
        /// Version.
        version: String,
        /// Closest names.
        suggestions: Vec<String>,
    },
    /// A language the bundle set does not have.
    #[error("no {lang} documents in this bundle set; languages: {available}")]
    UnknownLang {
        /// Language asked for.
        lang: String,
        /// Languages present.
        available: String,
    },
    /// The component has no document in that language (or none at all).
    #[error("component `{component}` has no {lang} document; available: {available}")]
    NoDocument {
        /// Component.
        component: String,
        /// Language asked for.
        lang: String,
        /// Languages it has (may be "none").
        available: String,
    },
    /// Code block number out of range.
    #[error("code block {index} is out of range: `{component}` ({lang}) has code blocks 1..{count}")]
    BlockOutOfRange {
        /// Component.
        component: String,
        /// Language.
        lang: String,
        /// Number asked for.
        index: u32,
        /// Blocks in the document.
        count: u32,
    },
    /// The document has no code blocks at all.
    #[error("`{component}` ({lang}) has no code blocks")]
    NoBlocks {
        /// Component.
        component: String,
        /// Language.
        lang: String,
    },
    /// Changelog page out of range.
    #[error("changelog page {page} is out of range: the {lang} changelog has pages 1..{pages}")]
    PageOutOfRange {
        /// Page asked for, as asked (a number too large for any page is named as written).
        page: String,
        /// Language.
        lang: String,
        /// Pages there are.
        pages: u32,
    },
    /// No changelog in this bundle set (or not in that language).
    #[error("no {lang} changelog in {system} {version}{}", if available.is_empty() { String::new() } else { format!("; available: {available}") })]
    NoChangelog {
        /// System.
        system: String,
        /// Version.
        version: String,
        /// Language asked for.
        lang: String,
        /// Languages that have one.
        available: String,
    },
    /// No file at that path.
    #[error("no file `{path}` in {system} {version}{}", if *outside {
        ": the path climbs out of the repository (paths are relative to its root)".to_string()
    } else if suggestions.is_empty() {
        "; paths are listed by component: `files <component>` (MCP: list_components with component)".to_string()
    } else {
        suggest(suggestions)
    })]
    UnknownPath {
        /// Path asked for.
        path: String,
        /// System.
        system: String,
        /// Version.
        version: String,
        /// Closest paths.
        suggestions: Vec<String>,
        /// Whether the path climbs above the repository's root (`../x`): no file can match it.
        outside: bool,
    },
    /// The file has no function index (not a source, or none found).
    #[error("`{path}` has no function index: it is not a .ts/.tsx/.js/.jsx/.vue source or has no named functions")]
    NoFunctions {
        /// Path.
        path: String,
    },
    /// A source the compiler stored as text only, without analyzing it (over
    /// [`crate::model::MAX_ANALYZED_SOURCE_BYTES`], or a parser failure its build warning names).
    #[error(
        "`{path}` has no function index: {why}, so the build stored it as text only; read it with `file` and a line \
         range (--start-line/--end-line, start_line/end_line in MCP tools)"
    )]
    NotAnalyzed {
        /// Path.
        path: String,
        /// Why, from what the manifest says of the file.
        why: String,
    },
    /// No function of that name in the file.
    #[error("no function `{name}` in `{path}`{}", suggest(suggestions))]
    UnknownFunction {
        /// File.
        path: String,
        /// Name asked for.
        name: String,
        /// Closest qualified names (all of them when the file has few).
        suggestions: Vec<String>,
    },
    /// A simple name shared by several functions.
    #[error("`{name}` is ambiguous in `{path}`; use a qualified name: {}", candidates.join(", "))]
    AmbiguousFunction {
        /// File.
        path: String,
        /// Name asked for.
        name: String,
        /// Qualified names that match, each with its lines: `Table.render (lines 812–840)`.
        candidates: Vec<String>,
    },
    /// The set has no search index (built before search existed).
    #[error("{system} {version} has no search index: rebuild it with this version of `mydesign-docs build`")]
    NoSearchIndex {
        /// System.
        system: String,
        /// Version.
        version: String,
    },
    /// Sections asked for that the document does not have.
    #[error("`{component}` ({lang}) has no section {}; its sections (tokens): {}", asked.join(", "), available.join("; "))]
    UnknownSection {
        /// Component.
        component: String,
        /// Language.
        lang: String,
        /// The names not found, quoted.
        asked: Vec<String>,
        /// `title (slug) N` for each H2–H4 section, the nearest to the names asked first ([`similarity`]; the
        /// document's order among equals).
        available: Vec<String>,
    },
    /// A section name that several headings of the document answer to.
    #[error(
        "`{component}` ({lang}) has {} sections named `{asked}`: {}; pass the one you want as listed (`{}`) or by \
         its slug (`{}`)",
        candidates.len(),
        candidates.join("; "),
        candidates.last().and_then(|c| c.rsplit_once(" (")).map_or("", |(path, _)| path),
        candidates.last().and_then(|c| c.rsplit_once(" (")).map_or("", |(_, slug)| slug.trim_end_matches(')'))
    )]
    AmbiguousSection {
        /// Component.
        component: String,
        /// Language.
        lang: String,
        /// The name asked for.
        asked: String,
        /// `Parent › Title (slug)` of each heading it matches, in document order; both `Parent › Title` and
        /// `slug` are accepted as a section name.
        candidates: Vec<String>,
    },
    /// Sections asked for in an explicit language whose document lacks them, found in another language's document.
    #[error(
        "`{component}` ({lang}) has no section {}; the {other} document has it: ask for lang {other} \
         (`--lang {other}`, `lang=\"{other}\"` in MCP tools), or leave the language out",
        asked.join(", ")
    )]
    SectionInOtherLang {
        /// Component.
        component: String,
        /// Language asked for.
        lang: String,
        /// The names asked for, quoted.
        asked: Vec<String>,
        /// The language whose document has them.
        other: String,
    },
    /// A line range outside the file.
    #[error("lines {start}–{end} are out of range: `{path}` has lines 1–{lines}")]
    LineRange {
        /// File.
        path: String,
        /// First line asked for.
        start: u32,
        /// Last line asked for.
        end: u32,
        /// Lines of the file.
        lines: u32,
    },
    /// A line range whose start is after its end.
    #[error(
        "start line {start} is after end line {end}: ask for lines with start ≤ end (`--start-line N --end-line M`, \
         `start_line`/`end_line` in MCP tools) in `{path}`"
    )]
    ReversedRange {
        /// File.
        path: String,
        /// First line asked for.
        start: u32,
        /// Last line asked for.
        end: u32,
    },
    /// `props` asked for together with headings.
    #[error(
        "`props` is answered on its own (`--section props`, sections=[\"props\"] in MCP tools): ask for the headings \
         in another call"
    )]
    PropsAlone,
    /// `changelog --since` a version newer than the set served.
    #[error(
        "--since {since} is newer than the set served, {system} {version}: its changelog has no release after \
         {since}; give a version up to {version} (or --version a newer set, when one is installed)"
    )]
    SinceNewer {
        /// The version given.
        since: String,
        /// System served.
        system: String,
        /// Its version.
        version: String,
    },
    /// A comparison whose older version is the newer one.
    #[error(
        "{from} is newer than {to}: compare from the older version (`from` in MCP tools, the first version of `diff`) \
         to the newer (`version`, the second)"
    )]
    ReversedVersions {
        /// The component compared.
        component: String,
        /// The version given as the older.
        from: String,
        /// The version given as the newer.
        to: String,
    },
    /// A cursor of one view of a document passed with a `detail` that asks for another.
    #[error(
        "this cursor continues {cursor}, but the call asks for detail={asked}: drop `detail` (CLI: --detail/--full) \
         to continue it, or drop the cursor to start the {asked} answer"
    )]
    CursorOfOtherView {
        /// What the cursor continues.
        cursor: String,
        /// The detail asked for.
        asked: String,
    },
    /// A search query longer than [`crate::search::query::MAX_QUERY_BYTES`]: refused before it is analysed (issue 26
    /// §3: one 6 MB query held a server for ~13 s).
    #[error(
        "the search query is {bytes} bytes, over the {max}-byte limit: ask a question or name what to find in a few \
         words (long text is not a query)"
    )]
    QueryTooLong {
        /// Bytes of the query.
        bytes: usize,
        /// The limit.
        max: usize,
    },
    /// A refused `max_tokens` or cursor.
    #[error(transparent)]
    Budget(#[from] BudgetError),
    /// A damaged bundle.
    #[error(transparent)]
    Bundle(#[from] BundleError),
    /// A damaged bundle of a set while other versions of its system open ([`Library::fallback`]): the lookup is
    /// not answered from another version (one session would mix versions, call by call), it names them.
    #[error("{error}; other versions of {system} open: {} (`--version V`, `version` in MCP tools)", others.join(", "))]
    DamagedVersion {
        /// The damaged bundle (boxed: the variant would double the size of every `LookupError`).
        error: Box<BundleError>,
        /// System.
        system: String,
        /// The version whose bundle is damaged.
        version: String,
        /// The other versions whose sets open, newest first.
        others: Vec<String>,
    },
}

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

/// The budget of one lookup and the cursor it continues, if any.
#[derive(Clone, Copy, Debug, Default)]
pub struct Paging<'a> {
    /// Token budget of the response.
    pub budget: Budget,
    /// `next_cursor` of a previous part.
    pub cursor: Option<&'a str>,
}

impl Paging<'_> {
    /// No budget at all: every text whole (for programs that want the exact texts, and tests).
    pub fn unlimited() -> Paging<'static> {
        Paging { budget: Budget { max_tokens: u32::MAX, lowered: false, echo: 0 }, cursor: None }
    }
}

/// The `--bundles` directories of this CLI process (in the order given) when they are not the default `out` alone
/// (kept here, below `render`, whose printed commands repeat them, so that the budget can reserve their bytes).
static CLI_BUNDLES: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();

/// Records the CLI's `--bundles` directories ([`crate::render::set_cli_bundles`]); the default `out` alone (or
/// none) is not recorded.
pub(crate) fn record_cli_bundles(dirs: &[String]) {
    if !dirs.is_empty() && dirs != ["out"] {
        let _ = CLI_BUNDLES.set(dirs.to_vec());
    }
}

/// The CLI's `--bundles` directories, if recorded.
pub(crate) fn cli_bundles() -> Option<&'static [String]> {
    CLI_BUNDLES.get().map(Vec::as_slice)
}

/// [`BudgetError::TooSmallForNames`] for `request` under `paging`, whose first part needs `need` tokens of content
/// (the budget that serves it: the envelope, the names' reserve and `need`).
fn too_small_for_names(paging: Paging, request: &Request, need: u32) -> LookupError {
    let needed = crate::budget::ENVELOPE_TOKENS.saturating_add(paging.budget.echo).saturating_add(need);
    let asked = paging.budget.max_tokens;
    BudgetError::TooSmallForNames {
        asked,
        request: request.to_string(),
        needed: needed.max(crate::budget::MIN_MAX_TOKENS),
    }
    .into()
}

/// Most calls an answer's text writes (the continuation and up to two hints, as the skeleton's `--full` and
/// function calls): each repeats the set's names and the CLI's `--bundles` directory.
const ECHO_CALLS: u32 = 3;

/// Tokens of the CLI's `--bundles` directory, by [`crate::budget::bound`] with its quotes, that
/// [`crate::budget::ENVELOPE_TOKENS`] covers in each call: a temporary directory (`/tmp/.tmpAbC123`, 15 bytes), as
/// `tests/it/sweep.rs` runs the CLI on antd-mobile's hidden documents at every budget from 300 to 420.
const CLI_BUNDLES_FREE_TOKENS: u32 = 6;

/// Longest name, path or query part looked up by similarity, in chars; longer ones are echoed shortened.
pub const MAX_NAME_CHARS: usize = 256;

/// `s` (a name, path, version or other argument the caller gave) for a message that echoes it: at most 80 chars of
/// it, with `…` when cut (a 1 MB argument is not echoed back), and every control character (a newline, a tab, an
/// escape sequence's ESC) and bidirectional-text control written as Rust's `escape_debug` writes it (`\n`, `\t`,
/// `\u{1b}`, `\u{202e}`), so an echoed argument is one line that cannot rewrite the terminal or the text around
/// it. Quotes and backslashes are kept as given. The one helper every echo of user input goes through.
pub fn echo(s: &str) -> String {
    let mut out = String::with_capacity(s.len().min(320));
    for (i, c) in s.chars().enumerate() {
        if i == 79 && s.chars().nth(80).is_some() {
            out.push('…');
            break;
        }
        if crate::escape::is_unsafe(c) {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    out
}

/// A repository-relative `path` with its `.` and empty segments dropped and each `..` taking away the segment
/// before it, lexically (the file system is never asked: `a/link/../b` is `a/b` whatever `link` is); `None` when
/// a `..` climbs above the root (`../x`, `a/../../x`).
pub(crate) fn resolve_dots(path: &str) -> Option<String> {
    let mut kept: Vec<&str> = Vec::new();
    for segment in path.split('/') {
        match segment {
            "" | "." => {}
            ".." => {
                kept.pop()?;
            }
            name => kept.push(name),
        }
    }
    Some(kept.join("/"))
}

/// How many component names an unknown-component error lists when none is close (TRIAL item 19).
pub const FIRST_NAMES: usize = 10;

/// `a, b and 7 more (list them with …)`: the first names of a list of `known`, and where the rest are (`call`, the
/// call that lists them).
pub(crate) fn first_names(first: &[String], known: usize, call: &str) -> String {
    let list = format!("list them with {call}");
    match known.saturating_sub(first.len()) {
        0 if !first.is_empty() => first.join(", "),
        0 => format!("({list})"),
        more => format!("{} and {more} more ({list})", first.join(", ")),
    }
}

fn suggest(s: &[String]) -> String {
    if s.is_empty() { String::new() } else { format!("; did you mean: {}?", s.join(", ")) }
}

/// The closest `max` candidates to `query`, for did-you-mean messages: substring matches first, then by normalized
/// Damerau-Levenshtein similarity above 0.5, comparing with the whole candidate and with its last segment (after
/// the last `.` or `/`), so `rendr` finds `Table.render` and `table.tsx` finds `src/components/Table/Table.tsx`.
pub fn closest<'a>(query: &str, candidates: impl IntoIterator<Item = &'a str>, max: usize) -> Vec<String> {
    // Edit distance is quadratic: a name longer than any real one gets no suggestions rather than a slow answer.
    if query.chars().count() > MAX_NAME_CHARS {
        return vec![];
    }
    let q = query.to_lowercase();
    let score = |l: &str| {
        let sim = strsim::normalized_damerau_levenshtein(&q, l);
        // A candidate holding the query comes first. One inside the query counts only when it is a good part of
        // it (the tail `ts` of every path is inside any `….ts` query), and less than a whole name one letter off
        // (`TableFoundation.init` inside `TableFoundation.initSorterOrdr` came before `…initSorterOrder`: trial 5).
        let inside = l.len() * 2 >= q.len() && q.contains(l);
        if q.is_empty() {
            sim
        } else if l.contains(&q) {
            1.0 + sim
        } else if inside {
            0.25 + sim
        } else {
            sim
        }
    };
    let mut scored: Vec<(f64, &str)> = candidates
        .into_iter()
        .map(|c| {
            let l = c.to_lowercase();
            let tail = l.rsplit(['.', '/']).next().unwrap_or(&l);
            (score(&l).max(score(tail)), c)
        })
        .filter(|(s, _)| *s > 0.5)
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
    scored.dedup_by(|a, b| a.1 == b.1);
    scored.into_iter().take(max).map(|(_, c)| c.to_string()).collect()
}

/// How close `candidate` is to `query`, for ordering the names an unknown-name error lists (best first, so that a
/// list cut to fit the budget keeps the nearest): the best normalized Damerau-Levenshtein similarity of the whole
/// query or one of its words to the whole candidate, to its last segment (after the last `.` or `/`) or to one of
/// its words (words split on anything but letters and digits: `filtr` is near `Custom Filter Rendering`), plus 1
/// when the candidate contains the query; a small share of the whole query's similarity to the whole candidate breaks ties
/// between candidates sharing a word. Case is ignored; 0 for an empty query or one over [`MAX_NAME_CHARS`].
pub fn similarity(query: &str, candidate: &str) -> f64 {
    let q = query.trim().to_lowercase();
    if q.is_empty() || q.chars().count() > MAX_NAME_CHARS {
        return 0.0;
    }
    let c = candidate.to_lowercase();
    let whole = strsim::normalized_damerau_levenshtein(&q, &c);
    let words = |s: &str| {
        s.split(|ch: char| !ch.is_alphanumeric()).filter(|w| !w.is_empty()).map(str::to_string).collect::<Vec<_>>()
    };
    let mut theirs = words(&c);
    theirs.push(c.rsplit(['.', '/']).next().unwrap_or(&c).to_string());
    let mut ours = words(&q);
    ours.push(q.clone());
    let best = ours
        .iter()
        .flat_map(|o| theirs.iter().map(move |t| strsim::normalized_damerau_levenshtein(o, t)))
        .fold(whole, f64::max);
    // A name holding the query is what was asked for, partly written. A name inside a longer query (`…init` inside
    // `…initSorterOrdr`) gets no bonus: its words already count in `best`, and the whole name one letter off must
    // come first (trial 5 listed the prefix first).
    let inside = c.contains(&q);
    best + f64::from(u8::from(inside)) + whole / 8.0
}

/// What the per-set caches (texts, cut points, token maps) key a text by: its bundle's path and its frame key.
fn text_id(bundle: &Bundle, key: &str) -> String {
    format!("{}\0{key}", bundle.path())
}

/// The [`similarity`] under which a name is not near at all: such names keep their order, after the near ones
/// (a query like `nope` leaves a list in its own order).
const NEAR: f64 = 0.5;

/// `names` nearest to `query` first ([`similarity`]), joined with `, `: the languages an unknown-language error
/// names.
pub(crate) fn nearest_first<S: AsRef<str>>(query: &str, names: impl IntoIterator<Item = S>) -> String {
    let mut names: Vec<S> = names.into_iter().collect();
    by_similarity(&[query], &mut names, |n| n.as_ref());
    names.iter().map(AsRef::as_ref).collect::<Vec<&str>>().join(", ")
}

/// `items` ordered by [`similarity`] of `key(item)` to the nearest of `queries`, best first; ties keep their order.
fn by_similarity<T>(queries: &[&str], items: &mut [T], key: impl Fn(&T) -> &str) {
    // A stable sort by a fixed-point key (scores are at most 2.125).
    items.sort_by_cached_key(|t| {
        let score = queries.iter().map(|q| similarity(q, key(t))).fold(0.0, f64::max);
        std::cmp::Reverse(if score < NEAR { 0 } else { (score * 1e9) as i64 })
    });
}

/// What [`BundleSet::verify_all`] checked.
#[derive(Debug)]
pub struct Verified {
    /// Bundle files the manifest lists (all checked).
    pub bundles: usize,
    /// Frames decoded in the bundles found whole.
    pub frames: usize,
    /// One error per missing, resized or damaged bundle, in the manifest's order.
    pub damaged: Vec<LookupError>,
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
}

impl ComponentsView {
    /// The row of the `i`-th component of `manifest` (which must exist), with its sizes in `lang`.
    fn row(manifest: &Manifest, i: usize, lang: &str) -> ComponentRow {
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
    fn new_empty(manifest: &Manifest, lang: String, kind: ListKind) -> ComponentsView {
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
            let width = manifest.components.iter().map(|c| c.name.len()).max().unwrap_or(4).max(4);
            (indices.iter().map(|&i| row_bound(&ComponentsView::row(manifest, i, &lang), width)).sum(), false)
        };
        let part = ListPart { rows_total: indices.len() as u32, tokens_exact, ..ListPart::default() };
        ComponentsView { served, lang, tokens, components, changelog_pages, shared_files, part, kind, guides }
    }
}

/// One row of the component list.
#[derive(Debug, Serialize, JsonSchema)]
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
    /// Lines served and what is left (a card is cut only under a very small budget).
    #[serde(flatten)]
    pub part: Part,
    /// Pass it as `cursor` to get the next part.
    pub next_cursor: Option<String>,
    /// The card as text.
    pub text: String,
}

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

/// An open bundle set: its manifest, and its bundles opened lazily and kept open.
pub struct BundleSet {
    dir: PathBuf,
    /// `dir` resolved once when opened: the generation this set answers from (`out/<system>@<version>` is a link to
    /// an immutable `.…gen-<id>` directory that a rebuild replaces), so every bundle comes from the same build.
    pinned: PathBuf,
    /// The manifest's head (`keys::HEAD`: no component, file or component bundle list), decoded on open.
    manifest: Manifest,
    /// `manifest.bundle`, kept open: component entries and the whole manifest are decoded from it on demand.
    manifest_bundle: Bundle,
    /// The whole manifest (`keys::MANIFEST`), decoded by the first lookup that needs a list (`components`, a
    /// path's owner, an unknown name's suggestions, `verify`).
    full: std::sync::OnceLock<Manifest>,
    /// Component entries and their bundles' records by component key, decoded from `entry/<key>` frames (one per
    /// component looked up): a lookup by name never decodes the whole manifest.
    lookups: Mutex<HashMap<String, (Arc<ComponentEntry>, BundleFile)>>,
    open: Mutex<HashMap<String, Arc<Bundle>>>,
    /// Decoded `component` frames joined with their documents' lists: small, and read by nearly every lookup of a
    /// long-running server.
    metas: Mutex<HashMap<String, Arc<ComponentMeta>>>,
    /// `component` frames as stored (their documents' lists empty, format 10), read by a lookup of one document.
    heads: Mutex<HashMap<String, Arc<ComponentMeta>>>,
    /// `doc-lists/<lang>` frames by component key and language.
    doc_lists: Mutex<HashMap<(String, String), Arc<DocLists>>>,
    /// Recently decoded documents and files (code blocks and functions are slices of them), so that a server asked
    /// for several blocks of one document decodes it once.
    texts: Mutex<TextCache>,
    /// The decoded `changelog` frame (pages and releases of every language), read by every changelog lookup.
    changelog: Mutex<Option<Arc<ChangelogMeta>>>,
    /// Cut points of recently served texts, oldest first (at most [`CUTS_CACHE_ENTRIES`]).
    cuts: Mutex<std::collections::VecDeque<(String, Arc<Cuts>)>>,
    /// `tokens` frames by bundle path, decompressed and indexed by text key (each text's map is decoded when its
    /// cut points are computed): every lookup that serves a text without a map of its own reads one.
    maps: Mutex<HashMap<String, Arc<KeyedFrame>>>,
    /// The token map decoded last (bundle path and text key): a lookup reads one text's map up to three times
    /// (its total, [`BundleSet::whole_part`], its cut points).
    last_map: Mutex<Option<(String, Arc<TokenMap>)>>,
    /// State that modules above this one decode once per set and keep ([`BundleSet::kept`]; the search index of
    /// `search::query`), one value per type: `read` need not know their types.
    kept: Mutex<Vec<Arc<dyn std::any::Any + Send + Sync>>>,
    /// Why this set is served by default for its system ([`Library::pin`]): said in every answer's header.
    note: std::sync::OnceLock<String>,
}

/// Decoded text frames, oldest first, at most [`TEXT_CACHE_BYTES`] of text in all.
#[derive(Default)]
struct TextCache {
    entries: std::collections::VecDeque<(String, Arc<String>)>,
    bytes: usize,
}

/// Texts whose cut points are kept (~24 bytes a line: 32 of Semi's largest documents would be ~4.6 MB).
const CUTS_CACHE_ENTRIES: usize = 32;

/// Bound of [`TextCache`], in bytes of text: about 20 of Semi's largest documents.
const TEXT_CACHE_BYTES: usize = 4 << 20;

/// Every bundle set found in one or more directories, each opened on first use: what `serve` and the lookups
/// choose from. Several systems and versions can sit side by side.
pub struct Library {
    dirs: Vec<PathBuf>,
    /// `(system, version, directory)`, sorted by system then version (ascending), copies of one version in the
    /// order of their directories (the first that opens is served); listed again when a directory that holds sets
    /// changes ([`Library::refresh`]).
    entries: std::sync::RwLock<Vec<(String, String, PathBuf)>>,
    open: Mutex<HashMap<PathBuf, Arc<BundleSet>>>,
    /// Version served by default per system, instead of the highest ([`Library::pin`]).
    pins: HashMap<String, String>,
    /// What the last listing saw, to tell when to list again.
    listed: Mutex<Listing>,
    /// Where [`Library::fallback`] says that a damaged copy was left out for another (default: stderr, as
    /// `warning: …`; `serve` logs it instead: [`Library::on_fallback`]).
    notice: Box<dyn Fn(&str) + Send + Sync>,
}

/// The copies of a version that the lookup running on this thread under [`Library::fallback`] leaves out.
#[derive(Default)]
struct FallbackScope {
    /// Copies (their entry directories) whose bundles were found damaged during this lookup.
    left_out: Vec<PathBuf>,
    /// The copies that another copy of their version could stand in for, when the scope began.
    spare: Vec<PathBuf>,
}

thread_local! {
    /// The scope of the [`Library::fallback`] running on this thread, if any: [`Library::select`] (through
    /// `open_entry`) skips its `left_out` copies, wherever the lookup calls it (a search of several systems and a
    /// comparison of two versions select sets themselves).
    static FALLBACK: std::cell::RefCell<Option<FallbackScope>> = const { std::cell::RefCell::new(None) };
}

/// The bundle file a [`BundleError`] names.
fn damaged_file(e: &BundleError) -> &str {
    match e {
        BundleError::Io { path, .. }
        | BundleError::NotABundle { path }
        | BundleError::UnsupportedVersion { path, .. }
        | BundleError::Truncated { path, .. }
        | BundleError::ChecksumMismatch { path, .. }
        | BundleError::Corrupt { path, .. }
        | BundleError::UnknownCutRule { path, .. }
        | BundleError::NewerWriter { path, .. }
        | BundleError::WrongBundle { path, .. }
        | BundleError::MissingFrame { path, .. }
        | BundleError::ForeignSet { path, .. } => path,
    }
}

/// Whether `set` is a copy that a lookup running under [`Library::fallback`] can replace by another copy of its
/// version: a search of several systems then returns the set's damaged-bundle error (for the fallback to answer
/// from the other copy) instead of leaving the set out.
pub fn has_spare_copy(set: &BundleSet) -> bool {
    FALLBACK.with(|f| f.borrow().as_ref().is_some_and(|scope| scope.spare.iter().any(|d| d == set.dir())))
}

/// The directories holding sets (not sets given directly) with their modification times when last listed, and
/// when that was.
struct Listing {
    stamps: Vec<(PathBuf, Option<std::time::SystemTime>)>,
    at: std::time::SystemTime,
}

/// A directory modified this close to its last listing (or after it) is listed again at the next request:
/// modification times are coarse (a file system may keep one tick for several changes), so an entry added in
/// the same tick as the listing would otherwise go unseen.
const RACY_MTIME: std::time::Duration = std::time::Duration::from_secs(2);

/// The `<system>@<version>/` sets directly under `dir` (hidden names, such as generations, skipped).
fn sets_in(dir: &Path, entries: &mut Vec<(String, String, PathBuf)>) {
    let Ok(read) = std::fs::read_dir(dir) else { return };
    for e in read.filter_map(|e| e.ok()) {
        let name = e.file_name().to_string_lossy().into_owned();
        let Some((s, v)) = name.split_once('@') else { continue };
        if !name.starts_with('.') && e.path().join("manifest.bundle").is_file() {
            entries.push((s.to_string(), v.to_string(), e.path()));
        }
    }
}

/// Sorts by system then version; the sort is stable, so the copies of one version (the same `system@version` in
/// several directories) stay in the order their directories were given: every copy is kept, since one that does
/// not open (damaged, an older format) must not hide a good one ([`Library::open_entry`]).
/// `(system, version)` of a directory named `<system>@<version>` (the name of a symlink, not its target).
fn set_name(dir: &Path) -> Option<(String, String)> {
    let name = dir.file_name()?.to_string_lossy().into_owned();
    let (s, v) = name.split_once('@')?;
    (!s.is_empty() && !v.is_empty() && !name.starts_with('.')).then(|| (s.to_string(), v.to_string()))
}

fn sort_entries(entries: &mut Vec<(String, String, PathBuf)>) {
    entries.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| crate::version::cmp(&a.1, &b.1)));
    entries.dedup_by(|a, b| a.0 == b.0 && a.1 == b.1 && a.2 == b.2);
}

fn mtime(dir: &Path) -> Option<std::time::SystemTime> {
    std::fs::metadata(dir).and_then(|m| m.modified()).ok()
}

impl Library {
    /// Lists the bundle sets in `dirs`: each directory is a set itself (it holds `manifest.bundle`) or holds
    /// `<system>@<version>/` sets. Only directory names are read here (and the manifest of a directory that is a set).
    ///
    /// # Errors
    /// [`LookupError::NoBundles`] when no directory holds any set; a damaged manifest of a set given directly
    /// (alone, or not named `<system>@<version>`: among several directories, a named one is listed and left out
    /// when another copy of its version opens).
    pub fn scan(dirs: &[PathBuf]) -> Result<Library, LookupError> {
        let mut entries = Vec::new();
        let mut open = HashMap::new();
        let at = std::time::SystemTime::now();
        let mut stamps = Vec::new();
        for dir in dirs {
            if dir.join("manifest.bundle").is_file() {
                let set = match BundleSet::open(dir) {
                    Ok(set) => set,
                    // A `<system>@<version>` set that does not open is listed by its name, as in a scanned
                    // directory: another copy of it may be served, else its lookups say why.
                    Err(e) => match set_name(dir) {
                        Some((s, v)) if dirs.len() > 1 => {
                            entries.push((s, v, dir.clone()));
                            continue;
                        }
                        _ => return Err(e),
                    },
                };
                entries.push((set.manifest.system.clone(), set.manifest.version.clone(), dir.clone()));
                open.insert(dir.clone(), Arc::new(set));
                continue;
            }
            stamps.push((dir.clone(), mtime(dir)));
            sets_in(dir, &mut entries);
        }
        if entries.is_empty() {
            return Err(no_bundles(dirs, false));
        }
        sort_entries(&mut entries);
        Ok(Library {
            dirs: dirs.to_vec(),
            entries: std::sync::RwLock::new(entries),
            open: Mutex::new(open),
            pins: HashMap::new(),
            listed: Mutex::new(Listing { stamps, at }),
            notice: Box::new(|message| eprintln!("warning: {message}")),
        })
    }

    /// Lists the sets of the scanned directories again when one of them changed since the last listing (its
    /// modification time moved, or is within [`RACY_MTIME`] of that listing), so that a running server serves a
    /// version installed or built after it started, and stops listing a removed one. Costs one `stat` per
    /// directory when nothing changed; sets given directly are kept as they are. Called by [`Library::select`]
    /// and [`Library::systems`], so at every request.
    pub fn refresh(&self) {
        let mut listed = self.listed.lock().unwrap_or_else(|e| e.into_inner());
        let at = listed.at;
        let stale = listed.stamps.iter().any(|(dir, seen)| {
            let now = mtime(dir);
            now != *seen || now.is_some_and(|t| t + RACY_MTIME >= at)
        });
        if !stale {
            return;
        }
        let now = std::time::SystemTime::now();
        let mut fresh = Vec::new();
        for (dir, seen) in listed.stamps.iter_mut() {
            *seen = mtime(dir);
            sets_in(dir, &mut fresh);
        }
        listed.at = now;
        let mut entries = self.entries.write().unwrap_or_else(|e| e.into_inner());
        // Sets given directly (not under a scanned directory) stay.
        let scanned: Vec<&PathBuf> = listed.stamps.iter().map(|(d, _)| d).collect();
        fresh.extend(
            entries.iter().filter(|(_, _, d)| !d.parent().is_some_and(|p| scanned.iter().any(|s| *s == p))).cloned(),
        );
        sort_entries(&mut fresh);
        *entries = fresh;
    }

    /// The entries as last listed.
    fn entries(&self) -> std::sync::RwLockReadGuard<'_, Vec<(String, String, PathBuf)>> {
        self.entries.read().unwrap_or_else(|e| e.into_inner())
    }

    /// The library of the CLI's lookups and of `serve`: every set in `dirs` when some are given (`--bundles`,
    /// repeatable), else the first of [`crate::locate::default_dirs`] (`./out`, then the store) that holds a set.
    /// Only directory names and the manifests of sets given directly are read: no bundle is decompressed here.
    /// [`Library::dirs`] says where the sets were found.
    ///
    /// # Errors
    /// [`LookupError::NoBundles`] naming every directory searched; a damaged manifest of a set given directly.
    pub fn open(dirs: &[PathBuf]) -> Result<Library, LookupError> {
        if !dirs.is_empty() {
            return Library::scan(dirs);
        }
        let defaults = crate::locate::default_dirs();
        for dir in &defaults {
            match Library::scan(std::slice::from_ref(dir)) {
                Err(LookupError::NoBundles { .. }) => continue,
                other => return other,
            }
        }
        Library::scan(&defaults).map_err(|e| match e {
            LookupError::NoBundles { .. } => no_bundles(&defaults, true),
            other => other,
        })
    }

    /// The directories scanned (as given to [`Library::scan`]).
    pub fn dirs(&self) -> &[PathBuf] {
        &self.dirs
    }

    /// Systems and their versions (ascending), for lists and error messages.
    pub fn systems(&self) -> Vec<(String, Vec<String>)> {
        self.refresh();
        let mut out: Vec<(String, Vec<String>)> = Vec::new();
        for (s, v, _) in self.entries().iter() {
            match out.last_mut() {
                // Another copy of the same version.
                Some((last, versions)) if last == s && versions.last() == Some(v) => {}
                Some((last, versions)) if last == s => versions.push(v.clone()),
                _ => out.push((s.clone(), vec![v.clone()])),
            }
        }
        out
    }

    /// Serves `version` of `system` when a call names no version (instead of the highest), with `note` (why) in
    /// every answer's header when given. Used by `serve --project` (`crate::project`).
    ///
    /// # Errors
    /// As [`Library::select`] for that system and version.
    pub fn pin(&mut self, system: &str, version: &str, note: Option<String>) -> Result<(), LookupError> {
        let set = self.select(Some(system), Some(version))?;
        if let Some(note) = note {
            let _ = set.note.set(note);
        }
        self.pins.insert(set.manifest.system.clone(), set.manifest.version.clone());
        Ok(())
    }

    /// The notes of pinned versions ([`Library::pin`]), one per system that has one.
    pub fn notes(&self) -> Vec<String> {
        let open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        let mut out: Vec<String> =
            open.values().filter_map(|s| s.note.get().map(|n| format!("{}: {n}", s.manifest.system))).collect();
        out.sort();
        out
    }

    /// The set of `system` (required when there are several) at `version` (default: the pinned version, else the
    /// highest present).
    ///
    /// # Errors
    /// `System` (unknown, or several and none chosen), `UnknownVersion`, or a damaged manifest.
    pub fn select(&self, system: Option<&str>, version: Option<&str>) -> Result<Arc<BundleSet>, LookupError> {
        let systems = self.systems();
        let names: Vec<&str> = systems.iter().map(|(s, _)| s.as_str()).collect();
        let where_ = join_dirs(&self.dirs);
        let (system, versions) = match system {
            Some(want) => {
                systems.iter().find(|(s, _)| s.eq_ignore_ascii_case(want)).ok_or_else(|| LookupError::System {
                    message: format!("no system `{}` in {where_}; available: {}", echo(want), names.join(", ")),
                })?
            }
            None if systems.len() == 1 => &systems[0],
            // Every set was removed while the library was open.
            None if systems.is_empty() => return Err(no_bundles(&self.dirs, false)),
            None => {
                // A system none of whose sets opens (an older format, damaged) leaves no choice to make: the other
                // is served, and `damaged_defaults` names the ones left out (trial 4: old sets beside a new one
                // made every lookup without `--system` fail).
                let mut readable =
                    systems.iter().filter(|(s, versions)| versions.iter().any(|v| self.open_entry(s, v).is_ok()));
                match (readable.next(), readable.next()) {
                    (Some(one), None) => one,
                    _ => {
                        let names = names.iter().map(|n| n.to_string()).collect();
                        return Err(LookupError::SeveralSystems { dir: where_, names });
                    }
                }
            }
        };
        let pinned = if version.is_none() { self.pins.get(system) } else { None };
        let version = match pinned
            .map(String::as_str)
            .or(version)
            .map(str::trim)
            .filter(|v| !v.eq_ignore_ascii_case("latest") && !v.is_empty())
        {
            Some(v) => versions.iter().find(|x| x.as_str() == v.trim_start_matches('v')).ok_or_else(|| {
                LookupError::UnknownVersion {
                    system: system.clone(),
                    version: echo(v),
                    dir: where_.clone(),
                    available: versions.join(", "),
                }
            })?,
            None => {
                // The newest healthy set: a damaged newer one is skipped (and reported by `damaged_defaults`).
                let mut first_error = None;
                for v in versions.iter().rev() {
                    match self.open_entry(system, v) {
                        Ok(set) => return Ok(set),
                        Err(e) => {
                            first_error.get_or_insert(e);
                        }
                    }
                }
                return Err(first_error.unwrap_or_else(|| no_bundles(&self.dirs, false)));
            }
        };
        self.open_entry(system, version)
    }

    /// Says through `notice` (instead of on stderr) when [`Library::fallback`] answers from another copy of a
    /// version because a bundle of the first is damaged: `serve` logs it.
    pub fn on_fallback(&mut self, notice: impl Fn(&str) + Send + Sync + 'static) {
        self.notice = Box::new(notice);
    }

    /// Runs `lookup` (which selects its sets from this library) and, when it fails because a bundle of a set is
    /// damaged (any [`BundleError`]: a frame's checksum, a truncated or swapped file, a missing bundle) while
    /// another copy of the same `system@version` (the same set in another `--bundles` directory) opens, runs it
    /// again with the damaged copy left out, until it succeeds or no copy is left; each copy left out is said
    /// ([`Library::on_fallback`]) once the lookup succeeded, naming the damaged bundle and the copy that answered.
    /// The one place every lookup kind falls back (the CLI's and the server's): a copy whose manifest opens but
    /// whose bundles are damaged inside is otherwise served first, in `--bundles` order.
    ///
    /// A lookup that fails otherwise (an unknown name, a budget) is not run again; with no version in two copies
    /// the lookup runs once, as without this.
    ///
    /// # Errors
    /// `lookup`'s last error.
    pub fn fallback<T>(&self, lookup: impl FnMut() -> Result<T, LookupError>) -> Result<T, LookupError> {
        self.fallback_to_copies(lookup).map_err(|e| self.naming_other_versions(e))
    }

    /// `e`, or when it is a damaged bundle of a set while other versions of that system open,
    /// [`LookupError::DamagedVersion`] naming them (newest first): trial 6, a damaged newest version failed every
    /// lookup without saying that the older versions installed work. Not a fallback: the version asked for (or
    /// the default, the newest that opens) stays the one answered, so a session never mixes two versions.
    /// Not generic (one copy in the binary, whatever the lookup's view).
    fn naming_other_versions(&self, e: LookupError) -> LookupError {
        let LookupError::Bundle(error) = e else { return e };
        let held = {
            let open = self.open.lock().unwrap_or_else(|e| e.into_inner());
            let file = Path::new(damaged_file(&error));
            open.values().find(|set| file.starts_with(&set.pinned)).map(|set| set.served())
        };
        let Some(Served { system, version, .. }) = held else { return error.into() };
        let versions = self.systems().into_iter().find(|(s, _)| *s == system).map(|(_, v)| v).unwrap_or_default();
        let others: Vec<String> =
            versions.into_iter().rev().filter(|v| *v != version && self.open_entry(&system, v).is_ok()).collect();
        match others.is_empty() {
            true => error.into(),
            false => LookupError::DamagedVersion { error: Box::new(error), system, version, others },
        }
    }

    /// [`Library::fallback`] among the copies of one version.
    fn fallback_to_copies<T>(&self, mut lookup: impl FnMut() -> Result<T, LookupError>) -> Result<T, LookupError> {
        let nested = FALLBACK.with(|f| f.borrow().is_some());
        let spare = if nested { Vec::new() } else { self.spare_copies() };
        if spare.is_empty() {
            return lookup();
        }
        /// Ends the scope however the lookup ends (a panic in a server's tool included).
        struct Reset;
        impl Drop for Reset {
            fn drop(&mut self) {
                FALLBACK.with(|f| *f.borrow_mut() = None);
            }
        }
        FALLBACK.with(|f| *f.borrow_mut() = Some(FallbackScope { left_out: Vec::new(), spare }));
        let _reset = Reset;
        let mut said: Vec<(String, String, PathBuf, String)> = Vec::new();
        loop {
            let result = lookup();
            let damaged = match &result {
                Err(LookupError::Bundle(e)) => self.copy_holding(damaged_file(e)).map(|c| (c, e.to_string())),
                _ => None,
            };
            let Some(((system, version, dir), why)) = damaged else {
                if result.is_ok() {
                    for (system, version, dir, why) in &said {
                        // The copy that answered: the first of the version's copies not left out that opens.
                        let answered = self.open_entry(system, version).map(|s| s.dir().to_path_buf());
                        let answered =
                            answered.map_or_else(|_| "another copy".to_string(), |d| d.display().to_string());
                        (self.notice)(&format!(
                            "{system} {version} in {}: a bundle is damaged ({why}); answered from the copy in \
                             {answered} (copy the damaged set again or rebuild it)",
                            dir.display()
                        ));
                    }
                }
                return result;
            };
            let again = FALLBACK.with(|f| {
                let mut scope = f.borrow_mut();
                let Some(scope) = scope.as_mut() else { return true };
                let again = scope.left_out.contains(&dir);
                scope.left_out.push(dir.clone());
                again
            });
            // A copy left out already (the lookup did not select again): its error is the answer.
            if again {
                return result;
            }
            // Another copy of the version must open, else the damaged copy's error is the answer.
            if self.open_entry(&system, &version).is_err() {
                return result;
            }
            said.push((system, version, dir, why));
        }
    }

    /// The copies (entry directories) of every version held by several directories, each of which another copy of
    /// its version could stand in for.
    fn spare_copies(&self) -> Vec<PathBuf> {
        let entries = self.entries();
        let twin = |i: usize| {
            let (s, v, _) = &entries[i];
            let same = |j: usize| entries.get(j).is_some_and(|(s2, v2, _)| s2 == s && v2 == v);
            same(i + 1) || (i > 0 && same(i - 1))
        };
        (0..entries.len()).filter(|&i| twin(i)).map(|i| entries[i].2.clone()).collect()
    }

    /// The entry `(system, version, directory)` of the open set whose generation holds the bundle file `file`
    /// (a path as the set's bundles are opened: under its resolved directory), if it is one of several copies.
    fn copy_holding(&self, file: &str) -> Option<(String, String, PathBuf)> {
        let dir = {
            let open = self.open.lock().unwrap_or_else(|e| e.into_inner());
            open.iter().find(|(_, set)| Path::new(file).starts_with(&set.pinned)).map(|(d, _)| d.clone())?
        };
        let spare = FALLBACK.with(|f| f.borrow().as_ref().is_some_and(|s| s.spare.contains(&dir)));
        let entries = self.entries();
        spare.then(|| entries.iter().find(|(_, _, d)| *d == dir).cloned()).flatten()
    }

    /// The set `system@version` of the entries, opened once and kept: the first of its copies (one per directory
    /// holding it, in the order given) that opens; a copy that does not is left out ([`Library::unopened_copies`]
    /// names it), and so is a copy that a [`Library::fallback`] running on this thread found damaged.
    ///
    /// # Errors
    /// When no copy opens, the first copy's error (which names its directory).
    fn open_entry(&self, system: &str, version: &str) -> Result<Arc<BundleSet>, LookupError> {
        let mut first_error = None;
        let left_out = FALLBACK.with(|f| f.borrow().as_ref().map(|s| s.left_out.clone()).unwrap_or_default());
        for dir in self.copies(system, version).into_iter().filter(|d| !left_out.contains(d)) {
            match self.open_dir(&dir) {
                Ok(set) => return Ok(set),
                Err(e) => {
                    first_error.get_or_insert(e);
                }
            }
        }
        Err(first_error.unwrap_or_else(|| no_bundles(&self.dirs, false)))
    }

    /// The directories holding `system@version`, in the order given.
    fn copies(&self, system: &str, version: &str) -> Vec<PathBuf> {
        self.entries().iter().filter(|(s, v, _)| s == system && v == version).map(|(_, _, d)| d.clone()).collect()
    }

    /// The copies of `system@version` that do not open while another copy does (and is served): empty when the
    /// version has one copy, or when none opens (the lookup's error says why then).
    pub fn unopened_copies(&self, system: &str, version: &str) -> Vec<DamagedSet> {
        let copies = self.copies(system, version);
        if copies.len() < 2 {
            return Vec::new();
        }
        let results: Vec<(PathBuf, Result<Arc<BundleSet>, LookupError>)> =
            copies.into_iter().map(|d| (d.clone(), self.open_dir(&d))).collect();
        if !results.iter().any(|(_, r)| r.is_ok()) {
            return Vec::new();
        }
        results
            .into_iter()
            .filter_map(|(dir, r)| r.err().map(|e| (dir, e)))
            .map(|(dir, e)| DamagedSet {
                system: system.to_string(),
                version: version.to_string(),
                dir,
                error: e.to_string(),
                fallback: Some(version.to_string()),
            })
            .collect()
    }

    /// The set in `dir`, opened once and kept.
    fn open_dir(&self, dir: &Path) -> Result<Arc<BundleSet>, LookupError> {
        let dir = dir.to_path_buf();
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        // A set stays open while its directory resolves to the same generation; after a rebuild published a new
        // one, the next request opens it (answers in flight keep their `Arc` of the old one).
        if let Some(set) = open.get(&dir).filter(|s| dir.canonicalize().is_ok_and(|now| now == s.pinned)) {
            return Ok(set.clone());
        }
        let set = Arc::new(BundleSet::open(&dir)?);
        open.insert(dir, set.clone());
        Ok(set)
    }

    /// The damaged sets a default lookup skips: per system (or only `system`), every set newer than the newest one
    /// that opens, with the version served instead. Opens (and keeps) the manifests it reads; `serve` logs these at
    /// start and the CLI prints them when it falls back.
    pub fn damaged_defaults(&self, system: Option<&str>) -> Vec<DamagedSet> {
        let mut out = Vec::new();
        for (name, versions) in self.systems() {
            if system.is_some_and(|s| !s.eq_ignore_ascii_case(&name)) {
                continue;
            }
            let mut skipped = Vec::new();
            let mut fallback = None;
            for v in versions.iter().rev() {
                match self.open_entry(&name, v) {
                    Ok(_) => {
                        fallback = Some(v.clone());
                        break;
                    }
                    Err(e) => skipped.push((v.clone(), e.to_string())),
                }
            }
            for (version, error) in skipped {
                let dir = self.dir_of(&name, &version);
                out.push(DamagedSet { system: name.clone(), version, dir, error, fallback: fallback.clone() });
            }
            // The served version's copies that do not open (another copy of it is served).
            if let Some(v) = &fallback {
                out.extend(self.unopened_copies(&name, v));
            }
        }
        out
    }

    /// Every set that does not open (its manifest is missing or damaged), for `verify`: with those listed, the
    /// `<system>@<version>` directories of the scanned directories that lack a `manifest.bundle`
    /// ([`incomplete_sets`]), which lookups never list.
    pub fn damaged_all(&self) -> Vec<DamagedSet> {
        let mut out = Vec::new();
        for dir in &self.dirs {
            for (path, error) in incomplete_sets(dir) {
                let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
                let (system, version) = name.split_once('@').unwrap_or((name.as_str(), ""));
                let (system, version) = (system.to_string(), version.to_string());
                out.push(DamagedSet { system, version, dir: path, error, fallback: None });
            }
        }
        let entries = self.entries().clone();
        for (system, version, dir) in &entries {
            if let Err(e) = self.open_dir(dir) {
                let fallback = None;
                let (system, version, dir) = (system.clone(), version.clone(), dir.clone());
                out.push(DamagedSet { system, version, dir, error: e.to_string(), fallback });
            }
        }
        out
    }

    fn dir_of(&self, system: &str, version: &str) -> PathBuf {
        self.entries()
            .iter()
            .find(|(s, v, _)| s == system && v == version)
            .map(|(_, _, d)| d.clone())
            .unwrap_or_default()
    }
}

/// `Parent › Title (slug)` of `s` among `sections` (its nearest enclosing heading; none for a top-level one).
/// The fences of a document's placeholder view stored as its frame's lead: each replaced span whose document
/// range is a code block's (the view put blocks before tables of the same start, so a block's range is the
/// block) is that block's placeholder, at its place in the view.
fn lead_fences(lead: &crate::bundle::format::Lead, blocks: &[CodeBlockMeta]) -> Vec<Fence> {
    let mut fences = Vec::with_capacity(blocks.len());
    // The blocks by their document span (in document order already; sorted here so nothing depends on it).
    let mut spans: Vec<(i64, i64, u32)> =
        blocks.iter().map(|b| (i64::from(b.start_byte), i64::from(b.end_byte), b.index)).collect();
    spans.sort_unstable();
    // Bytes the document has more than the view before the current span.
    let mut delta = 0i64;
    let mut run: (Option<(i64, i64)>, usize) = (None, 0);
    for (start, end, n) in lead.spans() {
        let doc_start = i64::from(start) + delta;
        let doc_end = doc_start + i64::from(n);
        // Blocks kept beside the text (stories) share one empty span at its end: the k-th lead span of a run of
        // equal ones is the k-th block of that span (in number order).
        let key = (doc_start, doc_end);
        let k = if run.0 == Some(key) { run.1 + 1 } else { 0 };
        run = (Some(key), k);
        let first = spans.partition_point(|&(a, b, _)| (a, b) < key);
        if let Some(&(_, _, index)) = spans.get(first + k).filter(|&&(a, b, _)| (a, b) == key) {
            fences.push(Fence { index, start: start as usize, end: end as usize });
        }
        delta += i64::from(n) - (i64::from(end) - i64::from(start));
    }
    fences
}

fn section_path(sections: &[SectionMeta], s: &SectionMeta) -> String {
    match section_parent(sections, s) {
        Some(p) => format!("{} › {} ({})", p.title, s.title, s.slug),
        None => format!("{} ({})", s.title, s.slug),
    }
}

/// The heading `s` is under: the nearest one before it of a higher level.
fn section_parent<'a>(sections: &'a [SectionMeta], s: &SectionMeta) -> Option<&'a SectionMeta> {
    sections.iter().rev().find(|p| p.start_line < s.start_line && p.level < s.level)
}

/// A bundle set that does not open (see [`Library::damaged_defaults`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DamagedSet {
    /// System name (from the directory name).
    pub system: String,
    /// Version (from the directory name).
    pub version: String,
    /// The set's directory.
    pub dir: PathBuf,
    /// Why it does not open.
    pub error: String,
    /// The version a default lookup serves instead (the same version when another copy of it, in another
    /// directory, is served); `None` when no set of the system opens (or for `verify`).
    pub fallback: Option<String>,
}

impl std::fmt::Display for DamagedSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // A set of another bundle format is not damaged: its error already says what to do (trial 4).
        let other_format = self.error.contains(crate::bundle::format::UNSUPPORTED_FORMAT);
        let state = if other_format { "cannot be read" } else { "is damaged" };
        write!(f, "bundle set {} {} in {} {state}: {}", self.system, self.version, self.dir.display(), self.error)?;
        match &self.fallback {
            Some(v) if *v == self.version => {
                write!(f, "; another copy of {v} is served (rebuild or remove this one)")
            }
            Some(v) => write!(f, "; serving {v} by default (rebuild it, or pass --version {v})"),
            None if other_format => Ok(()),
            None => write!(f, "; rebuild it"),
        }
    }
}

/// Qualified names of a function index, each once (a getter and its setter share one), in source order.
fn qualified_names(index: &[FunctionMeta]) -> Vec<String> {
    function_sizes(index).into_iter().map(|f| f.name).collect()
}

/// The functions of an index, each qualified name once (a getter and its setter add up), in source order.
fn function_sizes(index: &[FunctionMeta]) -> Vec<FunctionSize> {
    let mut out: Vec<FunctionSize> = Vec::new();
    let mut at: HashMap<&str, usize> = HashMap::new();
    for f in index {
        match at.get(f.qualified.as_str()) {
            Some(&i) => out[i].tokens += f.tokens,
            None => {
                at.insert(&f.qualified, out.len());
                out.push(FunctionSize { name: f.qualified.clone(), line: f.start_line, tokens: f.tokens });
            }
        }
    }
    out
}

/// Tokens a row's stored count is raised by for the joins around it in the whole answer (a JSON row's `},{`
/// pieces, a text row's newline): the budget sweeps (`tests/it/sweep.rs`) check the sum with tiktoken.
const ROW_JOIN_TOKENS: u32 = 2;

/// Row `i`'s stored token count plus [`ROW_JOIN_TOKENS`], when `stored` has one count per row of a list of `len`.
fn stored_row(stored: &[u32], len: usize, i: usize) -> Option<u32> {
    (stored.len() == len).then(|| stored[i] + ROW_JOIN_TOKENS)
}

/// The room the smallest budget leaves beside the envelope when no name needs reserving, where every segment fits
/// (tokens): beside longer names that leave less, texts and lists are served only whole, so a chain never stops at
/// a cursor that cannot be followed at its budget.
const CUT_ROOM: u32 = crate::budget::MIN_MAX_TOKENS - crate::budget::ENVELOPE_TOKENS;

/// An upper bound of a part's structured form: its text's tokens, what escaping the text adds, and the `lists`
/// beside it (tokens).
fn structured_tokens(part: &Part, lists: &dyn Fn(&Part) -> u32) -> u32 {
    let escapes = 2 * crate::budget::json_escapes(&part.text) as u32;
    part.tokens.saturating_add(escapes).saturating_add(lists(part))
}

/// Tokens allowed for each join of a props answer's JSON beyond the stored counts of its pieces (a row's comma,
/// a table's brackets): JSON punctuation that meets across a join is one pre-tokenizer piece, which may take a
/// token more than the two pieces did.
const PROPS_JOIN_TOKENS: u32 = 2;

/// An upper bound of the tokens a props table adds to a part's JSON beside its rows, when the stored counts
/// (`props-tokens`, format 9) do not match the tables: its fields but `props`,
/// bounded from the JSON they make, with the strings read from the sources (name, path, language, extended types)
/// at a token per byte (a token is never shorter than a byte) and the rest by [`crate::budget::bound`] plus a tenth.
fn table_json_bound(t: &PropsTable) -> u32 {
    let skeleton = PropsTable {
        name: String::new(),
        path: String::new(),
        lang: t.lang.as_ref().map(|_| String::new()),
        extends: t.extends.iter().map(|_| String::new()).collect(),
        unresolved_extends: t.unresolved_extends.iter().map(|_| String::new()).collect(),
        props: vec![],
        ..t.clone()
    };
    let own = serde_json::to_string(&skeleton).map_or(u32::MAX / 4, |j| crate::budget::bound(&j));
    let strings = t.name.len()
        + t.path.len()
        + t.lang.as_ref().map_or(0, String::len)
        + t.extends.iter().chain(&t.unresolved_extends).map(String::len).sum::<usize>();
    let escapes = crate::budget::json_escapes(&t.name) + crate::budget::json_escapes(&t.path);
    own + own / 10 + (strings + escapes) as u32 + 2
}

/// An upper bound of a component row's tokens in the list's JSON and text forms, for sets without stored row counts:
/// the bytes of its JSON (with a comma), plus the text form's padding to `width` and its number columns and
/// language note.
fn row_bound(row: &ComponentRow, width: usize) -> u32 {
    (serde_json::to_string(row).map_or(1000, |j| j.len() + 1) + width + 60) as u32
}

fn join_dirs(dirs: &[PathBuf]) -> String {
    dirs.iter().map(|d| d.display().to_string()).collect::<Vec<_>>().join(", ")
}

/// The set-like entries of `dir` that are no set: `<system>@<version>` directories (or links) without a
/// `manifest.bundle`, each with what is missing. Hidden names (generations, temporary directories) and files (pack
/// files sit beside sets in a `dist/`) are skipped. `dir` itself counts when it holds bundles but no manifest.
pub fn incomplete_sets(dir: &Path) -> Vec<(PathBuf, String)> {
    let missing = |set: &Path| -> Option<String> {
        if set.join(MANIFEST_FILE).is_file() {
            return None;
        }
        if std::fs::symlink_metadata(set).is_ok_and(|m| m.file_type().is_symlink()) && !set.exists() {
            let target = std::fs::read_link(set).map(|t| t.display().to_string()).unwrap_or_default();
            return Some(format!("it is a link to {target}, which does not exist"));
        }
        Some(format!("its {MANIFEST_FILE} is missing"))
    };
    let mut out = Vec::new();
    let Ok(read) = std::fs::read_dir(dir) else { return out };
    let mut bundles = false;
    for e in read.filter_map(|e| e.ok()) {
        let name = e.file_name().to_string_lossy().into_owned();
        bundles |= name.ends_with(".bundle");
        let set_like = name.split_once('@').is_some_and(|(s, v)| !s.is_empty() && !v.is_empty());
        let path = e.path();
        let dir_or_link = path.is_dir() || std::fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_symlink());
        if set_like && !name.starts_with('.') && dir_or_link && !path.is_file() {
            out.extend(missing(&path).map(|why| (path, why)));
        }
    }
    if bundles && !dir.join(MANIFEST_FILE).is_file() {
        out.push((dir.to_path_buf(), format!("it holds bundles but its {MANIFEST_FILE} is missing")));
    }
    out.sort();
    out
}

/// The name of a set's manifest file.
const MANIFEST_FILE: &str = "manifest.bundle";

/// [`LookupError::NoBundles`] for `dirs` (given with `--bundles`, or the defaults when `defaults`), saying for each
/// what is there: no such directory, a file (a pack file: install or unpack it), sets missing their manifest, or
/// no set (how to build one).
pub fn no_bundles(dirs: &[PathBuf], defaults: bool) -> LookupError {
    let why: Vec<String> = dirs
        .iter()
        .map(|d| {
            let shown = d.display();
            match std::fs::metadata(d) {
                Err(_) if defaults => format!("{shown} does not exist"),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => format!(
                    "{shown} does not exist: --bundles takes a directory of bundle sets (out/ of `mydesign-docs \
                     build`, holding <system>@<version>/) or one set"
                ),
                Err(e) => format!("{shown} cannot be read ({e})"),
                Ok(m) if !m.is_dir() && shown.to_string().ends_with(".tar.zst") => format!(
                    "{shown} is a pack file, not a directory: install it with `mydesign-docs install {shown}` \
                     (lookups then read the store), or unpack it with `mydesign-docs build {shown} --out DIR`"
                ),
                Ok(m) if !m.is_dir() => format!(
                    "{shown} is a file, not a directory: --bundles takes a directory of bundle sets (out/ of \
                     `mydesign-docs build`, holding <system>@<version>/) or one set"
                ),
                Ok(_) => {
                    let damaged = incomplete_sets(d);
                    if damaged.is_empty() {
                        format!(
                            "no bundle sets in {shown} (a set is a <system>@<version>/ directory holding \
                             {MANIFEST_FILE}): build one with `mydesign-docs build REPO --out {shown}`"
                        )
                    } else {
                        let list: Vec<String> = damaged
                            .iter()
                            .map(|(p, why)| format!("{} is a damaged bundle set: {why}", p.display()))
                            .collect();
                        format!("{} (copy the whole set again, or rebuild it)", list.join("; "))
                    }
                }
            }
        })
        .collect();
    let why = if defaults {
        format!(
            "no bundles in {} ({}): run `mydesign-docs build` first (it writes out/), install a pack file with \
             `mydesign-docs install FILE`, or pass --bundles DIR",
            join_dirs(dirs),
            why.join("; ")
        )
    } else {
        why.join("; ")
    };
    LookupError::NoBundles { dir: join_dirs(dirs), why }
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
}

/// Splits `changelog` / `changelog-N` (Semi's addressing) into a page number.
pub fn changelog_page_name(name: &str) -> Option<Option<u32>> {
    let rest = name.trim().to_ascii_lowercase();
    let rest = rest.strip_prefix("changelog")?;
    if rest.is_empty() {
        return Some(None);
    }
    // A page number too large for u32 (or u64) is still a page request (and out of range), not a component name.
    let digits = rest.strip_prefix('-').filter(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))?;
    Some(Some(digits.parse::<u32>().unwrap_or(u32::MAX)))
}

/// Checks a bundle's identity against the manifest that names it under `key` (a component key or one of the set's
/// own bundle keys), field by field, naming the first difference with both values.
fn check_identity(b: &Bundle, m: &Manifest, key: &str) -> Result<(), BundleError> {
    let id = b.identity();
    let describe = |k: &str| match k {
        MANIFEST_KEY => "the manifest".to_string(),
        CHANGELOG_KEY => "the changelog".to_string(),
        SEARCH_KEY => "the search index".to_string(),
        k => format!("component `{}`", echo(k)),
    };
    let pairs: [(&str, String, String); 5] = [
        ("system", echo(&m.system), echo(&id.system)),
        ("version", echo(&m.version), echo(&id.version)),
        ("encoding", echo(&m.encoding), echo(&id.encoding)),
        // Format 7: only the manifest carries the build id; the others are pinned by the manifest's size and header
        // checksum of them.
        (
            "build",
            format!("{:016x}", if key == MANIFEST_KEY { m.build_id } else { 0 }),
            format!("{:016x}", id.build_id),
        ),
        ("key", describe(key), describe(&id.key)),
    ];
    match pairs.into_iter().find(|(_, want, got)| want != got) {
        None => Ok(()),
        Some(("key", want, got)) => {
            Err(BundleError::WrongBundle { path: b.path().to_string(), expected: want, found: got })
        }
        Some((field, want, got)) => Err(BundleError::WrongBundle {
            path: b.path().to_string(),
            expected: format!("{field} {want}"),
            found: format!("{field} {got}"),
        }),
    }
}

impl BundleSet {
    /// Finds and opens one bundle set under `dir` (see [`Library::scan`] and [`Library::select`]).
    ///
    /// # Errors
    /// As [`Library::scan`] and [`Library::select`].
    pub fn discover(dir: &Path, system: Option<&str>, version: Option<&str>) -> Result<Arc<BundleSet>, LookupError> {
        Library::scan(&[dir.to_path_buf()])?.select(system, version)
    }

    /// Opens the bundle set in `dir` (which holds `manifest.bundle`).
    ///
    /// # Errors
    /// A missing or damaged manifest.
    pub fn open(dir: &Path) -> Result<BundleSet, LookupError> {
        let pinned = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
        let path = pinned.join("manifest.bundle");
        if !path.is_file() {
            return Err(no_bundles(&[dir.to_path_buf()], false));
        }
        let bundle = Bundle::open(&path)?;
        bundle.check_ends_at_index()?;
        let manifest: Manifest = bundle.get(keys::HEAD)?;
        check_identity(&bundle, &manifest, MANIFEST_KEY)?;
        if manifest.cut_rule != CUT_RULE {
            return Err(
                BundleError::UnknownCutRule { path: bundle.path().to_string(), found: manifest.cut_rule }.into()
            );
        }
        // A directory named `<system>@<version>` (as `build`, `install` and lookups name sets) holds that set: its
        // name is what lookups list, so another set's manifest in it would be served under a name it is not.
        if let Some((system, version)) = set_name(dir)
            && (system != manifest.system || version != manifest.version)
        {
            return Err(BundleError::ForeignSet {
                path: bundle.path().to_string(),
                found: format!("{}@{}", manifest.system, manifest.version),
                named: format!("{system}@{version}"),
            }
            .into());
        }
        Ok(BundleSet {
            dir: dir.to_path_buf(),
            pinned,
            manifest,
            manifest_bundle: bundle,
            full: std::sync::OnceLock::new(),
            lookups: Mutex::new(HashMap::new()),
            open: Mutex::new(HashMap::new()),
            metas: Mutex::new(HashMap::new()),
            heads: Mutex::new(HashMap::new()),
            doc_lists: Mutex::new(HashMap::new()),
            texts: Mutex::new(TextCache::default()),
            changelog: Mutex::new(None),
            maps: Mutex::new(HashMap::new()),
            last_map: Mutex::new(None),
            cuts: Mutex::new(std::collections::VecDeque::new()),
            kept: Mutex::new(Vec::new()),
            note: std::sync::OnceLock::new(),
        })
    }

    /// The value of type `T` this set keeps, made by `init` on first use (under the set's lock, so once) and kept
    /// as long as the set: how a module built on `read` (the search index of `search::query`) caches per-set state
    /// without `read` depending on it. An `Err` from `init` is returned and nothing is kept.
    ///
    /// # Errors
    /// `init`'s.
    pub fn kept<T: std::any::Any + Send + Sync, E>(
        &self,
        init: impl FnOnce(&BundleSet) -> Result<T, E>,
    ) -> Result<Arc<T>, E> {
        let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(found) = kept.iter().find_map(|v| v.clone().downcast::<T>().ok()) {
            return Ok(found);
        }
        let made = Arc::new(init(self)?);
        kept.push(made.clone());
        Ok(made)
    }

    /// The manifest's head, decoded on open: every field of [`Manifest`] but the lists that grow with the set
    /// (`components` and `files` are empty, `bundles` holds only the set's own files; see [`Manifest::head`]). What
    /// a lookup needs (system, version, languages, thresholds) without decoding the whole manifest.
    pub fn head(&self) -> &Manifest {
        &self.manifest
    }

    /// The whole manifest, decoded on first use and kept: what lists, path owners and suggestions need. Fields that
    /// do not grow with the set are in [`BundleSet::head`], which cannot fail.
    ///
    /// # Errors
    /// A damaged `manifest` frame (`manifest.bundle` changed since it was opened), or one that disagrees with the
    /// head decoded on open. Never an empty list in its place: that would be silent loss.
    pub fn manifest(&self) -> Result<&Manifest, LookupError> {
        if let Some(m) = self.full.get() {
            return Ok(m);
        }
        let m = crate::bundle::reader::read_manifest(&self.manifest_bundle)?;
        if m.build_id != self.manifest.build_id || m.system != self.manifest.system {
            let path = self.manifest_bundle.path().to_string();
            return Err(BundleError::Corrupt { path, what: "manifest (its head names another build)".into() }.into());
        }
        Ok(self.full.get_or_init(|| m))
    }

    /// The key of the component whose bundle stores file `path` (exact, normalised), `None` when no component lists
    /// it: from the whole manifest when it is decoded, else from the one `files/` frame that would hold it (format
    /// 10), not the whole manifest.
    ///
    /// # Errors
    /// A damaged `files/` frame.
    pub(crate) fn file_owner(&self, path: &str) -> Result<Option<String>, LookupError> {
        let find = |files: &[FileOwner]| {
            files.binary_search_by(|f| f.path.as_str().cmp(path)).ok().map(|i| files[i].component.clone())
        };
        if let Some(m) = self.full.get() {
            return Ok(find(&m.files));
        }
        let Some(key) = self.manifest_bundle.floor_key(keys::FILES, &keys::files(path)) else { return Ok(None) };
        let chunk: Vec<FileOwner> = self.manifest_bundle.get(key)?;
        Ok(find(&chunk))
    }

    /// The entry of the component with key `key` and its bundle's record: from the cache, else its `entry/<key>`
    /// frame (found by binary search in the manifest bundle's index); `None` when no component has that key.
    fn lookup_entry(&self, key: &str) -> Result<Option<(Arc<ComponentEntry>, BundleFile)>, LookupError> {
        if let Some(found) = self.lookups.lock().unwrap_or_else(|e| e.into_inner()).get(key) {
            return Ok(Some(found.clone()));
        }
        let frame = keys::entry(key);
        if !self.manifest_bundle.has(&frame) {
            return Ok(None);
        }
        let ComponentLookup { entry, bundle } = self.manifest_bundle.get(&frame)?;
        if entry.key != key || entry.bundle != bundle.name {
            let path = self.manifest_bundle.path().to_string();
            return Err(
                BundleError::Corrupt { path, what: format!("frame `{frame}` (it names `{}`)", entry.key) }.into()
            );
        }
        let found = (Arc::new(entry), bundle);
        self.lookups.lock().unwrap_or_else(|e| e.into_inner()).insert(key.to_string(), found.clone());
        Ok(Some(found))
    }

    /// The directory of the set.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    pub(crate) fn served(&self) -> Served {
        let note = self.note.get().cloned();
        Served { system: self.manifest.system.clone(), version: self.manifest.version.clone(), note }
    }

    /// The bundle file `file` (a name inside the set directory, as the manifest lists it), opened and memory-mapped
    /// on first use and kept open.
    ///
    /// # Errors
    /// [`LookupError`] when the file is missing or not a valid bundle.
    pub fn bundle(&self, file: &str) -> Result<Arc<Bundle>, LookupError> {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(b) = open.get(file) {
            return Ok(b.clone());
        }
        let b = Arc::new(Bundle::open(&self.pinned.join(file))?);
        self.check_bundle(file, &b)?;
        open.insert(file.to_string(), b.clone());
        Ok(b)
    }

    /// Checks that the bundle opened from `file` is the one the manifest names: its size and header checksum as
    /// the manifest records them, and its identity (system, version, encoding, build, key). Cheap: no frame is
    /// read. The full hash is `verify`'s.
    fn check_bundle(&self, file: &str, b: &Bundle) -> Result<(), BundleError> {
        let m = &self.manifest;
        let wrong =
            |expected: String, found: String| BundleError::WrongBundle { path: b.path().to_string(), expected, found };
        // A component's bundle was just named by its entry (cached); the set's own bundles are in the head; only
        // a file named otherwise needs the whole manifest.
        let cached = {
            let lookups = self.lookups.lock().unwrap_or_else(|e| e.into_inner());
            lookups.values().find(|(c, _)| c.bundle == file).map(|(c, f)| (c.key.clone(), f.clone()))
        };
        let whole =
            || self.manifest().map_err(|e| BundleError::Corrupt { path: b.path().to_string(), what: e.to_string() });
        let key = if m.search.as_ref().is_some_and(|s| s.bundle == file) {
            SEARCH_KEY.to_string()
        } else if m.changelog.as_ref().is_some_and(|c| c.bundle == file) {
            CHANGELOG_KEY.to_string()
        } else if let Some((key, _)) = &cached {
            key.clone()
        } else if let Some(shared) = m.shared.as_ref().filter(|s| s.bundle == file) {
            shared.key.clone()
        } else {
            let full = whole()?;
            let entry = full.components.iter().find(|c| c.bundle == file);
            entry.map(|c| c.key.clone()).unwrap_or_else(|| format!("(not listed: {file})"))
        };
        check_identity(b, m, &key)?;
        let listed = match (cached, m.bundles.binary_search_by(|f| f.name.as_str().cmp(file))) {
            (Some((_, listed)), _) => listed,
            (None, Ok(i)) => m.bundles[i].clone(),
            (None, Err(_)) => {
                let full = whole()?;
                let Ok(i) = full.bundles.binary_search_by(|f| f.name.as_str().cmp(file)) else {
                    return Err(wrong("the bundles it lists".into(), format!("`{file}`, which it does not list")));
                };
                full.bundles[i].clone()
            }
        };
        if b.file_len() != listed.bytes {
            return Err(wrong(format!("{} bytes", listed.bytes), format!("{} bytes", b.file_len())));
        }
        if b.header_xxh3() != listed.header_xxh3 {
            return Err(wrong(
                format!("header checksum {:016x}", listed.header_xxh3),
                format!("header checksum {:016x}", b.header_xxh3()),
            ));
        }
        Ok(())
    }

    /// The text frame `key` of `bundle`, from the cache or decoded (and cached).
    pub(crate) fn text(&self, bundle: &Bundle, key: &str) -> Result<Arc<String>, LookupError> {
        self.cached(text_id(bundle, key), || bundle.get_text(key))
    }

    /// The lead of text frame `key` of `bundle` (a document's placeholder view, format 9: [`Bundle::get_lead`]),
    /// from the cache or decoded alone (and cached); `None` when the frame has no lead.
    fn lead(&self, bundle: &Bundle, key: &str) -> Result<Option<Arc<String>>, LookupError> {
        if bundle.frame_lead(key).is_none() {
            return Ok(None);
        }
        let lead = || {
            bundle
                .get_lead(key)?
                .ok_or_else(|| BundleError::MissingFrame { path: bundle.path().into(), key: key.into() })
        };
        self.cached(format!("{}\0lead", text_id(bundle, key)), lead).map(Some)
    }

    /// The text cached under `id`, else `load`ed and cached.
    fn cached(
        &self,
        id: String,
        load: impl FnOnce() -> Result<String, BundleError>,
    ) -> Result<Arc<String>, LookupError> {
        let lock = || self.texts.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, text)) = lock().entries.iter().find(|(k, _)| *k == id) {
            return Ok(text.clone());
        }
        let text: Arc<String> = Arc::new(load()?);
        let mut cache = lock();
        cache.bytes += text.len();
        cache.entries.push_back((id, text.clone()));
        while cache.bytes > TEXT_CACHE_BYTES && cache.entries.len() > 1 {
            if let Some((_, old)) = cache.entries.pop_front() {
                cache.bytes -= old.len();
            }
        }
        Ok(text)
    }

    /// The manifest entry of component `name` (matched by key, so `DatePicker`, `date-picker` and `datepicker`
    /// are the same).
    ///
    /// # Errors
    /// [`LookupError::UnknownComponent`] with the closest names.
    pub fn component(&self, name: &str) -> Result<Arc<ComponentEntry>, LookupError> {
        if let Some(shared) = self.manifest.shared.as_ref().filter(|s| name.trim() == s.key) {
            return Ok(Arc::new(shared.clone()));
        }
        let key = component_key(name);
        if let Some((entry, _)) = self.lookup_entry(&key)? {
            return Ok(entry);
        }
        let comps = &self.manifest()?.components;
        comps.binary_search_by(|c| c.key.as_str().cmp(&key)).map(|i| Arc::new(comps[i].clone())).map_err(|_| {
            LookupError::UnknownComponent {
                name: echo(name),
                system: self.manifest.system.clone(),
                version: self.manifest.version.clone(),
                suggestions: {
                    // Titles too: `表格` is in Table's title "Table 表格".
                    let q = name.trim().to_lowercase();
                    let mut by_title: Vec<String> = comps
                        .iter()
                        .filter(|c| !q.is_empty() && c.title.as_ref().is_some_and(|t| t.to_lowercase().contains(&q)))
                        .map(|c| c.name.clone())
                        .take(5)
                        .collect();
                    if by_title.is_empty() {
                        by_title = closest(name, comps.iter().map(|c| c.name.as_str()), 5);
                    }
                    by_similarity(&[name], &mut by_title, |n| n.as_str());
                    by_title
                },
                // The nearest names first, when none is close enough to suggest.
                first: {
                    let mut names: Vec<&str> = comps.iter().map(|c| c.name.as_str()).collect();
                    by_similarity(&[name], &mut names, |n| n);
                    names.into_iter().take(FIRST_NAMES).map(str::to_string).collect()
                },
                known: comps.len(),
            }
        })
    }

    /// The metadata of component `name`: its `component` frame joined with every document's `doc-lists/<lang>`
    /// frame (format 10), decoded once and kept.
    ///
    /// # Errors
    /// Unknown component or a damaged bundle.
    pub fn component_meta(&self, name: &str) -> Result<(Arc<Bundle>, Arc<ComponentMeta>), LookupError> {
        let (bundle, head, whole) = self.component_head(name)?;
        if whole {
            return Ok((bundle, head));
        }
        let docs = (head.docs.iter())
            .map(|d| Ok(d.with_lists((*self.doc_lists(&bundle, &head.key, &d.lang)?).clone())))
            .collect::<Result<_, LookupError>>()?;
        let meta = Arc::new(ComponentMeta { docs, ..(*head).clone() });
        self.metas.lock().unwrap_or_else(|e| e.into_inner()).insert(head.key.clone(), meta.clone());
        Ok((bundle, meta))
    }

    /// The `component` frame of `name` as stored (every document's lists empty), or its whole metadata when that
    /// is kept already (then `true`): what a lookup of one document needs, beside that document's lists
    /// ([`BundleSet::doc_lists`]).
    fn component_head(&self, name: &str) -> Result<(Arc<Bundle>, Arc<ComponentMeta>, bool), LookupError> {
        let entry = self.component(name)?;
        let bundle = self.bundle(&entry.bundle)?;
        if let Some(meta) = self.metas.lock().unwrap_or_else(|e| e.into_inner()).get(&entry.key) {
            return Ok((bundle, meta.clone(), true));
        }
        if let Some(head) = self.heads.lock().unwrap_or_else(|e| e.into_inner()).get(&entry.key) {
            return Ok((bundle, head.clone(), false));
        }
        let head: Arc<ComponentMeta> = Arc::new(bundle.get(keys::COMPONENT)?);
        self.heads.lock().unwrap_or_else(|e| e.into_inner()).insert(entry.key.clone(), head.clone());
        Ok((bundle, head, false))
    }

    /// The lists of component `key`'s document in `lang`, from its `doc-lists/<lang>` frame, decoded once and kept.
    fn doc_lists(&self, bundle: &Bundle, key: &str, lang: &str) -> Result<Arc<DocLists>, LookupError> {
        let id = (key.to_string(), lang.to_string());
        if let Some(lists) = self.doc_lists.lock().unwrap_or_else(|e| e.into_inner()).get(&id) {
            return Ok(lists.clone());
        }
        let lists: Arc<DocLists> = Arc::new(bundle.get(&keys::doc_lists(lang))?);
        self.doc_lists.lock().unwrap_or_else(|e| e.into_inner()).insert(id, lists.clone());
        Ok(lists)
    }

    /// A requested language as the set spells it: `zh-cn` → `zh-CN`, and `en` → `en-US` when one language of the
    /// set has that primary subtag; anything else is returned as given (the lookup then names what exists).
    fn lang(&self, lang: Option<&str>) -> Option<String> {
        let want = lang?.trim();
        let langs = &self.manifest.langs;
        if let Some(l) = langs.iter().find(|l| l.eq_ignore_ascii_case(want)) {
            return Some(l.clone());
        }
        let primary = |l: &str| l.split(['-', '_']).next().unwrap_or(l).to_ascii_lowercase();
        let matches: Vec<&String> = langs.iter().filter(|l| primary(l) == primary(want)).collect();
        Some(if matches.len() == 1 { matches[0].clone() } else { want.to_string() })
    }

    /// Picks the document in `lang` (default: the set's default language, else the first the component has).
    fn pick_doc<'m>(&self, meta: &'m ComponentMeta, lang: Option<&str>) -> Result<&'m DocMeta, LookupError> {
        let lang = self.lang(lang);
        let lang = lang.as_deref();
        let want = lang.unwrap_or(&self.manifest.default_lang);
        let found = meta.docs.iter().find(|d| d.lang.eq_ignore_ascii_case(want));
        match (found, lang) {
            (Some(d), _) => Ok(d),
            (None, None) if !meta.docs.is_empty() => Ok(&meta.docs[0]),
            _ => Err(LookupError::NoDocument {
                component: meta.name.clone(),
                lang: echo(want),
                available: if meta.docs.is_empty() {
                    "none (the component has only sources; see `files`)".into()
                } else {
                    nearest_first(want, meta.docs.iter().map(|d| d.lang.as_str()))
                },
            }),
        }
    }

    /// All components, with sizes of their documents in `lang` (default language when `None`).
    ///
    /// # Errors
    /// [`LookupError::UnknownLang`] for a language the set does not have.
    pub fn components(&self, lang: Option<&str>) -> Result<ComponentsView, LookupError> {
        let lang = self.components_lang(lang)?;
        Ok(ComponentsView { served: self.served(), ..ComponentsView::new(self.manifest()?, lang) })
    }

    /// All guides (pages that document no exported component), as [`BundleSet::components`] lists components.
    ///
    /// # Errors
    /// As [`BundleSet::components`].
    pub fn guides(&self, lang: Option<&str>) -> Result<ComponentsView, LookupError> {
        let lang = self.components_lang(lang)?;
        Ok(ComponentsView { served: self.served(), ..ComponentsView::of_kind(self.manifest()?, lang, ListKind::Guide) })
    }

    /// The set's language `lang` names (an alias such as `en` resolved, case ignored), else the default one: what
    /// a component list reports sizes for and what `diff` and `changelog --since` read.
    ///
    /// # Errors
    /// [`LookupError::UnknownLang`] (naming the set's languages) when the set has no such language.
    pub(crate) fn components_lang(&self, lang: Option<&str>) -> Result<String, LookupError> {
        let lang = self.lang(lang);
        let lang = lang.as_deref();
        let langs = &self.manifest.langs;
        let lang = match lang {
            None => self.manifest.default_lang.clone(),
            Some(l) => langs
                .iter()
                .find(|x| x.eq_ignore_ascii_case(l))
                .cloned()
                .ok_or_else(|| LookupError::UnknownLang { lang: echo(l), available: nearest_first(l, langs) })?,
        };
        Ok(lang)
    }

    /// [`BundleSet::components`] cut to the budget of `paging` (continuing its cursor): the whole list when its
    /// stored size fits, else rows by their upper bounds ([`ListPart`]).
    ///
    /// # Errors
    /// As [`BundleSet::components`]; a refused cursor.
    pub fn components_paged(&self, lang: Option<&str>, paging: Paging) -> Result<ComponentsView, LookupError> {
        self.list_paged(lang, ListKind::Component, paging)
    }

    /// [`BundleSet::components_paged`] of the entries of `kind` (`components --guides`: [`ListKind::Guide`]). A
    /// guide list's sizes are its rows' upper bounds (not stored).
    ///
    /// # Errors
    /// As [`BundleSet::components`]; a refused cursor.
    pub fn list_paged(
        &self,
        lang: Option<&str>,
        kind: ListKind,
        paging: Paging,
    ) -> Result<ComponentsView, LookupError> {
        let lang = match paging.cursor.map(Cursor::decode).transpose()?.map(|c| c.request) {
            Some(Request::Components { lang }) => Some(lang),
            _ => lang.map(str::to_string),
        };
        // The rows (and their bounds) are made only from the cursor's row on, as far as the budget reaches: a
        // walk over a long list stays linear.
        let lang = self.components_lang(lang.as_deref())?;
        let m = self.manifest()?;
        let width = m.components.iter().map(|c| c.name.len()).max().unwrap_or(4).max(4);
        let indices = kind.indices(m);
        let names: Vec<&str> = indices.iter().map(|&i| m.components[i].name.as_str()).collect();
        let of = |counts: &[(String, u32)]| counts.iter().find(|(l, _)| *l == lang).map_or(0, |(_, t)| *t);
        // The stored sizes are the component list's (rows in its order); a guide list has its rows' bounds.
        let stored = match kind {
            ListKind::Component => {
                m.list_row_tokens.iter().find(|(l, _)| *l == lang).map_or(&[][..], |(_, rows)| rows.as_slice())
            }
            ListKind::Guide => &[][..],
        };
        let bound = |i: usize| {
            stored_row(stored, names.len(), i)
                .unwrap_or_else(|| row_bound(&ComponentsView::row(m, indices[i], &lang), width))
        };
        // Whole only when both forms fit: the text's and the JSON's stored sizes.
        let whole = match kind {
            ListKind::Component => of(&m.list_tokens).max(of(&m.list_json_tokens)),
            ListKind::Guide => (0..names.len()).map(bound).sum(),
        };
        let request = Request::Components { lang: lang.clone() };
        let paging = self.echoing(paging, &[(lang.as_str(), 4)]);
        let (rows, mut part) = self.list_part(&request, &names, &bound, whole, paging)?;
        part.tokens_exact &= kind.is_component();
        if part.next_cursor.is_none() && rows.start == 0 {
            return Ok(ComponentsView { part, served: self.served(), ..ComponentsView::of_kind(m, lang, kind) });
        }
        let tokens = rows.clone().map(bound).sum();
        let components: Vec<ComponentRow> = rows.map(|i| ComponentsView::row(m, indices[i], &lang)).collect();
        Ok(ComponentsView {
            tokens,
            components,
            part,
            served: self.served(),
            ..ComponentsView::new_empty(m, lang, kind)
        })
    }

    /// Which rows of a list of `names` (whose rows have token upper bounds `bound(row)`, and whose larger form, text
    /// or JSON, is `whole` tokens long as stored) to serve under `paging`, and the [`ListPart`] saying so.
    fn list_part(
        &self,
        request: &Request,
        names: &[&str],
        bound: &dyn Fn(usize) -> u32,
        whole: u32,
        paging: Paging,
    ) -> Result<(std::ops::Range<usize>, ListPart), LookupError> {
        let label = self.label();
        let identity = names.join("\n");
        let first = match paging.cursor {
            Some(c) => {
                let cursor = Cursor::decode(c)?;
                cursor.check(&label, request, &identity)?;
                if cursor.offset as usize >= names.len() {
                    return Err(BudgetError::Malformed { why: "it points past the end of the list".into() }.into());
                }
                cursor.offset as usize
            }
            None => 0,
        };
        let mut part = ListPart {
            rows_total: names.len() as u32,
            first_row: first as u32,
            tokens_exact: true,
            next_cursor: None,
            max_tokens: paging.budget.lowered.then_some(paging.budget.max_tokens),
        };
        if first == 0 && whole <= paging.budget.content() {
            return Ok((0..names.len(), part));
        }
        part.tokens_exact = false;
        let (kept, _) = crate::budget::listed_within((first..names.len()).map(bound), paging.budget.content());
        // As for texts (`part_with`): beside names that leave less than the smallest budget's room, a list is
        // served only whole, so a chain never stops at a cursor it cannot follow.
        if paging.budget.echo > 0 && paging.budget.content() < CUT_ROOM {
            let need = if kept == 0 { bound(first) } else { 0 };
            return Err(too_small_for_names(paging, request, need.max(CUT_ROOM)));
        }
        let end = (first + kept.max(1)).min(names.len());
        if end < names.len() {
            let (set, text) = (Cursor::set_id(&label), Cursor::text_id(&identity));
            part.next_cursor = Some(Cursor { set, text, request: request.clone(), offset: end as u32 }.encode());
        }
        Ok((first..end, part))
    }

    /// `paging` with tokens reserved for the names the answer echoes beyond what [`crate::budget::ENVELOPE_TOKENS`]
    /// covers: `names` with their repetitions and the note once ([`crate::budget::echo_tokens`]), and the set's own
    /// by all their bytes ([`crate::budget::set_echo_tokens`]: `system`, `version` and the language in the header
    /// and in each of up to [`ECHO_CALLS`] calls, the CLI's `--bundles` directory in each call).
    fn echoing<'p>(&self, paging: Paging<'p>, names: &[(&str, u32)]) -> Paging<'p> {
        let note = self.note.get().map(|n| (n.as_str(), 1));
        let all: Vec<(&str, u32)> = names.iter().copied().chain(note).collect();
        // The set's names beyond the few bytes the envelope was measured with (`set_echo_tokens`; the longest
        // language stands for the one served), and the CLI's directory with its shell quotes as the answer's own
        // words are bounded (`budget::bound`, as `diff` and `search` bound the calls they print), beyond
        // `CLI_BUNDLES_FREE_TOKENS`.
        let lang = self.manifest.langs.iter().max_by_key(|l| l.len()).map_or("", String::as_str);
        let set = [
            (self.manifest.system.as_str(), ECHO_CALLS + 1),
            (self.manifest.version.as_str(), ECHO_CALLS + 1),
            (lang, ECHO_CALLS + 1),
        ];
        let bundles = cli_bundles().map_or(0, |dirs| {
            // The first directory's words with its quotes; each further one's with its ` --bundles `.
            let words = dirs.iter().enumerate().fold(0u32, |sum, (i, d)| {
                let arg = if i == 0 { format!("'{d}'") } else { format!(" --bundles '{d}'") };
                sum.saturating_add(crate::budget::bound(&arg))
            });
            words.saturating_sub(CLI_BUNDLES_FREE_TOKENS).saturating_mul(ECHO_CALLS)
        });
        let echo =
            crate::budget::echo_tokens(all).saturating_add(crate::budget::set_echo_tokens(set)).saturating_add(bundles);
        let budget = paging.budget.echoing(echo);
        Paging { budget, ..paging }
    }

    /// `system@version`, as cursors name the set.
    fn label(&self) -> String {
        format!("{}@{}", self.manifest.system, self.manifest.version)
    }

    /// The segments of `text` (stored, or rebuilt under `text_key`) with their stored token counts. The `tokens`
    /// frame of a bundle is decoded once and kept.
    pub(crate) fn cuts(&self, bundle: &Bundle, text_key: &str, text: &str) -> Result<Arc<Cuts>, LookupError> {
        // Cut points cost a scan of the whole text (0.5 ms for Semi's Table): kept for the texts used last, as the
        // texts themselves are.
        let id = text_id(bundle, text_key);
        let lock = || self.cuts.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, cuts)) = lock().iter().find(|(k, _)| *k == id) {
            return Ok(cuts.clone());
        }
        let cuts = Arc::new(self.compute_cuts(bundle, text_key, text)?);
        let mut cache = lock();
        cache.push_back((id, cuts.clone()));
        if cache.len() > CUTS_CACHE_ENTRIES {
            cache.pop_front();
        }
        Ok(cuts)
    }

    fn compute_cuts(&self, bundle: &Bundle, text_key: &str, text: &str) -> Result<Cuts, LookupError> {
        let map = self.token_map(bundle, text_key)?;
        let corrupt = |what: String| BundleError::Corrupt { path: bundle.path().to_string(), what };
        Cuts::new(text, &map).ok_or_else(|| corrupt(format!("token map of `{text_key}` does not fit its text")).into())
    }

    /// The stored token map of the text under `text_key`.
    fn token_map(&self, bundle: &Bundle, text_key: &str) -> Result<Arc<TokenMap>, LookupError> {
        let id = text_id(bundle, text_key);
        let last = || self.last_map.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, map)) = last().as_ref().filter(|(k, _)| *k == id) {
            return Ok(map.clone());
        }
        let map = Arc::new(self.read_token_map(bundle, text_key)?);
        *last() = Some((id, map.clone()));
        Ok(map)
    }

    fn read_token_map(&self, bundle: &Bundle, text_key: &str) -> Result<TokenMap, LookupError> {
        let corrupt = |what: String| BundleError::Corrupt { path: bundle.path().to_string(), what };
        // A long text's map has a frame of its own (format 9); the others are in the `tokens` frame.
        let own = keys::tokens(text_key);
        if bundle.has(&own) {
            return Ok(bundle.get(&own)?);
        }
        let cached = self.maps.lock().unwrap_or_else(|e| e.into_inner()).get(bundle.path()).cloned();
        let maps = match cached {
            Some(m) => m,
            None => {
                let m = Arc::new(bundle.get_keyed(keys::TOKENS)?);
                self.maps.lock().unwrap_or_else(|e| e.into_inner()).insert(bundle.path().to_string(), m.clone());
                m
            }
        };
        Ok(maps.get(text_key).ok_or_else(|| corrupt(format!("no token map for `{text_key}`")))??)
    }

    /// The first part of `text` when it is served whole (`ranges` is the whole text, no cursor) and its tokens fit
    /// `room`: built from the token map's total and the text's line count, without its cut points (a scan of the
    /// whole text: 3 M instructions of Semi's Table document, served whole by `doc --detail full` at a large
    /// budget). The same part [`serve`] gives then. `None` when it does not apply, or the text's cut points are
    /// kept already.
    fn whole_part(
        &self,
        (bundle, key): (&Bundle, &str),
        text: &str,
        ranges: &[(usize, usize)],
        room: u32,
    ) -> Result<Option<Part>, LookupError> {
        let id = text_id(bundle, key);
        let kept = || self.cuts.lock().unwrap_or_else(|e| e.into_inner()).iter().any(|(k, _)| *k == id);
        if text.is_empty() || ranges != [(0, text.len())] || kept() {
            return Ok(None);
        }
        let map = self.token_map(bundle, key)?;
        if map.total() > room {
            return Ok(None);
        }
        let lines = crate::line_index::line_count(text);
        Ok(Some(Part {
            text: text.to_string(),
            tokens: map.total(),
            tokens_exact: map.forced.is_empty(),
            lines: (1, lines - u32::from(text.ends_with('\n'))),
            text_lines: lines,
            ..Part::default()
        }))
    }

    /// Serves `ranges` of `text` as one part within the budget of `paging`, continuing its cursor when given (which
    /// must continue `request` on this set). Returns the part and the cursor of the next one.
    fn part(
        &self,
        request: &Request,
        text: &str,
        at: (&Bundle, &str),
        ranges: &[(usize, usize)],
        fences: &[Fence],
        paging: Paging,
    ) -> Result<(Part, Option<String>), LookupError> {
        self.part_with(request, text, at, ranges, fences, paging, &|_| 0)
    }

    /// [`BundleSet::part`] for a view whose structured form carries more than the part's text: `lists` bounds, in
    /// tokens, what the view's lists add to its JSON for a given part. The part is shrunk until its tokens, the
    /// tokens JSON escaping can add to it (two per escaped byte, [`crate::budget::json_escapes`]: `\n` before an
    /// indentation splits one token into three) and the lists fit
    /// the content budget, so that the text item and the structuredContent both stay within `max_tokens`.
    #[allow(clippy::too_many_arguments)]
    fn part_with(
        &self,
        request: &Request,
        text: &str,
        at: (&Bundle, &str),
        ranges: &[(usize, usize)],
        fences: &[Fence],
        paging: Paging,
        lists: &dyn Fn(&Part) -> u32,
    ) -> Result<(Part, Option<String>), LookupError> {
        let label = self.label();
        let room = paging.budget.content();
        // The structured form's bound: the part's text, what escaping adds, and the lists beside it.
        let fits = |part: &Part| structured_tokens(part, lists) <= room;
        let whole = match paging.cursor {
            None => self.whole_part(at, text, ranges, room)?.filter(|p| fits(p)),
            Some(_) => None,
        };
        let mut part = match whole {
            Some(part) => part,
            None => self.cut_part(request, text, at, ranges, fences, paging, lists)?,
        };
        // Without names beyond the envelope's, the smallest budget leaves this room, where every segment fits: a
        // chain always goes on. Beside longer names that leave less, a text is served only when it is served
        // whole, so a chain never stops at a cursor that cannot be followed at its budget: the first part is
        // refused instead, naming the budget that serves it (trial item 1).
        if paging.budget.echo > 0 && room < CUT_ROOM {
            if !fits(&part) {
                // Not even the first segment fits: an error, never an answer over the budget.
                let need = structured_tokens(&part, lists);
                return Err(too_small_for_names(paging, request, need.max(CUT_ROOM)));
            }
            if part.next_offset.is_some() || paging.cursor.is_some() {
                return Err(too_small_for_names(paging, request, CUT_ROOM));
            }
        }
        part.max_tokens = paging.budget.lowered.then_some(paging.budget.max_tokens);
        // The text's hash only when a cursor carries it (hashing Semi's Table document was 0.25 M instructions).
        let next = part.next_offset.map(|offset| {
            let (set, text) = (Cursor::set_id(&label), Cursor::text_id(text));
            Cursor { set, text, request: request.clone(), offset }.encode()
        });
        Ok((part, next))
    }

    /// [`BundleSet::part_with`]'s part when the text is cut: from the cursor's offset (checked against `request`
    /// and the text), the longest run of segments whose structured form (text, escapes, `lists`) fits the budget.
    #[allow(clippy::too_many_arguments)]
    fn cut_part(
        &self,
        request: &Request,
        text: &str,
        (bundle, key): (&Bundle, &str),
        ranges: &[(usize, usize)],
        fences: &[Fence],
        paging: Paging,
        lists: &dyn Fn(&Part) -> u32,
    ) -> Result<Part, LookupError> {
        let cuts = self.cuts(bundle, key, text)?;
        let offset = match paging.cursor {
            Some(c) => {
                let cursor = Cursor::decode(c)?;
                cursor.check(&self.label(), request, text)?;
                let total: usize = ranges.iter().map(|(a, b)| b.saturating_sub(*a)).sum();
                if cursor.offset as usize >= total.max(1) {
                    return Err(BudgetError::Malformed { why: "it points past the end of the text".into() }.into());
                }
                if !crate::budget::valid_offset(text, &cuts, ranges, cursor.offset) {
                    return Err(BudgetError::Malformed { why: "it does not point where a part starts".into() }.into());
                }
                cursor.offset
            }
            None => 0,
        };
        let room = paging.budget.content();
        // A fence a part of this budget serves whole: its structured form (text and escapes) beside the lists of
        // an empty part fits.
        let fixed = lists(&Part::default());
        let fits_whole = |f: &Fence| {
            let escapes = text.get(f.start..f.end).map_or(u32::MAX, |t| 2 * crate::budget::json_escapes(t) as u32);
            cuts.tokens(f.start, f.end).0.saturating_add(escapes).saturating_add(fixed) <= room
        };
        let mut part = serve(text, &cuts, ranges, offset, room, fences, &fits_whole);
        if structured_tokens(&part, lists) > room {
            // The largest text whose structured form fits, by bisection over the text's share of the budget (the
            // bound grows with it). Shrinking by the excess instead could end far below the budget when the lists
            // drop as whole tables leave the part (Semi's Button props at 1,200 tokens served 11). Every candidate
            // is a prefix of the first part's text (served from the same offset with less), so its escapes are
            // read from the first part's running count, not counted again (14 scans of 30 KB for `doc --full`).
            let mut escaped = Vec::with_capacity(part.text.len() + 1);
            escaped.push(0u32);
            let mut sum = 0u32;
            for b in part.text.bytes() {
                sum += u32::from(crate::budget::escape_bytes(b));
                escaped.push(sum);
            }
            let whole = std::mem::take(&mut part.text);
            let fits = |p: &Part| {
                let escapes = match escaped.get(p.text.len()) {
                    Some(&e) if whole.starts_with(&p.text) => 2 * e,
                    _ => 2 * crate::budget::json_escapes(&p.text) as u32,
                };
                p.tokens.saturating_add(escapes).saturating_add(lists(p)) <= room
            };
            let (mut lo, mut hi) = (0, room);
            part = serve(text, &cuts, ranges, offset, 0, fences, &fits_whole);
            while hi - lo > 1 {
                let mid = lo + (hi - lo) / 2;
                let candidate = serve(text, &cuts, ranges, offset, mid, fences, &fits_whole);
                if fits(&candidate) {
                    (lo, part) = (mid, candidate);
                } else {
                    hi = mid;
                }
            }
        }
        Ok(part)
    }

    /// The document of `name` at `detail` (`normal`: the placeholder view when it is over the threshold; `full`:
    /// the whole document), or only `sections` of it (headings matched by title or slug, case-insensitively, in
    /// either language; whole, code blocks included), cut to the budget. `Brief` is served by [`BundleSet::card`].
    ///
    /// # Errors
    /// Unknown component, no document in that language, unknown sections (listing those there are with their
    /// sizes), a refused budget or cursor, damaged bundle.
    pub fn doc(
        &self,
        name: &str,
        lang: Option<&str>,
        mut detail: Detail,
        sections: &[String],
        paging: Paging,
    ) -> Result<DocView, LookupError> {
        // A cursor carries the detail and sections of the first call: a continuation names only the component.
        let mut sections = sections.to_vec();
        let continued = paging.cursor.map(Cursor::decode).transpose()?.map(|c| c.request);
        if let Some(Request::Doc { form, sections: s, .. }) = &continued {
            let form = *form;
            // A detail that names another view than the cursor's is an error, not ignored: `full` with a cursor of
            // the placeholder view, `brief` (the card) with a cursor of a document.
            let other = match detail {
                Detail::Full => form == DocForm::Normal,
                Detail::Brief => sections.is_empty() && matches!(form, DocForm::Normal | DocForm::Full),
                Detail::Normal => false,
            };
            if let Some(request) = continued.as_ref().filter(|_| other) {
                return Err(LookupError::CursorOfOtherView {
                    cursor: request.to_string(),
                    asked: detail.name().into(),
                });
            }
            detail = if form == DocForm::Full { Detail::Full } else { Detail::Normal };
            sections = s.clone();
        }
        let sections = sections.as_slice();
        // Without sections, the document's own lists are all it needs (not every language's, format 10).
        let (bundle, meta, whole) = match sections.is_empty() {
            true => self.component_head(name)?,
            false => self.component_meta(name).map(|(b, m)| (b, m, true))?,
        };
        let doc = self.pick_doc(&meta, lang)?;
        // The document's lists: its own frame's when only the head was read (kept, not copied into a `DocMeta`).
        let own = if whole { None } else { Some(self.doc_lists(&bundle, &meta.key, &doc.lang)?) };
        // Headings are looked for in the language asked for, then in the component's other documents: a heading
        // written in the other language is served from the document that has it (the answer names its language).
        // Mapping headings across languages by position is wrong too often (Semi orders them differently).
        let (doc, found) = if sections.is_empty() {
            (doc, vec![])
        } else {
            let props = self.props_of(&bundle)?;
            match self.find_sections(&meta, doc, &props, sections) {
                Ok(found) => (doc, found),
                // Only a heading missing here is looked for elsewhere (an ambiguous one is an answer to give).
                Err(e @ LookupError::UnknownSection { .. }) => {
                    let other = meta
                        .docs
                        .iter()
                        .filter(|d| d.lang != doc.lang)
                        .find_map(|d| self.find_sections(&meta, d, &props, sections).ok().map(|f| (d, f)));
                    match other {
                        // An explicit language wins: say where the heading is instead of switching language.
                        Some((d, _)) if lang.is_some() => {
                            return Err(LookupError::SectionInOtherLang {
                                component: meta.name.clone(),
                                lang: doc.lang.clone(),
                                asked: sections.iter().map(|q| format!("`{}`", echo(q))).collect(),
                                other: d.lang.clone(),
                            });
                        }
                        Some(found) => found,
                        None => return Err(e),
                    }
                }
                Err(e) => return Err(e),
            }
        };
        let (blocks, tables) = match &own {
            Some(lists) => (lists.code_blocks.as_slice(), lists.tables.as_slice()),
            None => (doc.code_blocks.as_slice(), doc.tables.as_slice()),
        };
        let hidden = doc.hidden && detail != Detail::Full && found.is_empty();
        let doc_key = keys::doc(&doc.lang);
        // The placeholder view is the lead of the document's frame (format 9): decoded alone, never rebuilt.
        let lead = if hidden { self.lead(&bundle, &doc_key)? } else { None };
        let whole = match &lead {
            Some(view) => view.clone(),
            None => self.text(&bundle, &doc_key)?,
        };
        let request = Request::Doc {
            component: meta.key.clone(),
            lang: doc.lang.clone(),
            form: if hidden { DocForm::Normal } else { DocForm::Full },
            sections: found.iter().map(|s| s.slug.clone()).collect(),
        };
        let (text, key, fences) = if let (true, Some(lead)) = (hidden, bundle.frame_lead(&doc_key)) {
            (std::borrow::Cow::Borrowed(whole.as_str()), keys::view(&doc.lang), lead_fences(lead, blocks))
        } else if hidden {
            let (view, spans) = crate::view::placeholder_view_spans(&whole, blocks, tables);
            let fences = spans.into_iter().map(|(index, start, end)| Fence { index, start, end }).collect();
            (std::borrow::Cow::Owned(view), keys::view(&doc.lang), fences)
        } else {
            let fences = blocks
                .iter()
                .map(|b| Fence { index: b.index, start: b.start_byte as usize, end: b.end_byte as usize })
                .collect::<Vec<_>>();
            (std::borrow::Cow::Borrowed(whole.as_str()), keys::doc(&doc.lang), fences)
        };
        // A text served whole needs its token map's total only, not its cut points (see `whole_part`).
        let (ranges, total_tokens): (Vec<(usize, usize)>, u32) = if found.is_empty() {
            (vec![(0, text.len())], self.token_map(&bundle, &key)?.total())
        } else {
            let cuts = self.cuts(&bundle, &key, &text)?;
            let ranges: Vec<(usize, usize)> =
                found.iter().map(|s| (cuts.line_start(s.start_line), cuts.line_start(s.end_line + 1))).collect();
            let total = ranges.iter().map(|&(a, b)| cuts.tokens(a, b).0).sum();
            (ranges, total)
        };
        // The section titles and the document's title beside the text, bounded by their bytes.
        let fields: usize =
            found.iter().map(|s| s.title.len() + crate::budget::json_escapes(&s.title) + 3).sum::<usize>()
                + doc.title.as_deref().map_or(0, |t| t.len() + crate::budget::json_escapes(t));
        let lists = |_: &Part| fields as u32;
        // Echoed: the component in the header, two hints, the continuation and its cursor; the path in the header
        // and the JSON; each section's title in the header, its slug in the cursor.
        let mut names = vec![(meta.name.as_str(), 6), (doc.path.as_str(), 2)];
        names.extend(found.iter().flat_map(|s| [(s.title.as_str(), 1), (s.slug.as_str(), 2)]));
        let paging = self.echoing(paging, &names);
        let (part, next_cursor) = self.part_with(&request, &text, (&bundle, &key), &ranges, &fences, paging, &lists)?;
        Ok(DocView {
            served: self.served(),
            component: meta.name.clone(),
            lang: doc.lang.clone(),
            path: doc.path.clone(),
            title: doc.title.clone(),
            lines: doc.lines,
            code_blocks: blocks.len() as u32,
            detail: if hidden { Detail::Normal } else { Detail::Full },
            hidden,
            threshold: self.manifest.thresholds.doc_hide_lines,
            sections: found.iter().map(|s| s.title.clone()).collect(),
            tokens: part.tokens,
            total_tokens,
            full_tokens: doc.tokens,
            text: part.text.clone(),
            part,
            next_cursor,
        })
    }

    /// What `component_details` and the CLI's `doc` answer: a changelog page for `changelog` / `changelog-N` unless
    /// a component has that name; the props tables for `sections=["props"]`, even when the document has a heading
    /// of that name (served as `Parent › Props`, or when named beside other headings); the card for `detail=brief`
    /// without sections; else the document or its sections. A cursor continues the form it was cut from.
    ///
    /// # Errors
    /// As [`BundleSet::doc`], [`BundleSet::card`], [`BundleSet::props`] and [`BundleSet::changelog`];
    /// [`LookupError::PropsAlone`] for `props` beside other sections; [`LookupError::CursorOfOtherView`] when
    /// `detail` is named (`Some`, or a bare [`Detail`]) and is not the view the cursor continues (`None`: the
    /// cursor's).
    pub fn details(
        &self,
        name: &str,
        lang: Option<&str>,
        detail: impl Into<Option<Detail>>,
        sections: &[String],
        paging: Paging,
    ) -> Result<DetailsView, LookupError> {
        let named = detail.into();
        let detail = named.unwrap_or_default();
        // A cursor carries its view: a detail named beside it must be that view (a document's sections, served
        // whole, go with any).
        let cursor = paging.cursor.and_then(|c| Cursor::decode(c).ok()).map(|c| c.request);
        if let (Some(asked), Some(request @ Request::Doc { component, lang, form, sections: s })) = (named, &cursor) {
            // `normal` of a document under the threshold is the full document (its cursor says so).
            let hidden = || {
                let (_, meta) = self.component_meta(component).ok()?;
                self.pick_doc(&meta, Some(lang)).ok().map(|d| d.hidden)
            };
            let same = match form {
                DocForm::Card => asked == Detail::Brief,
                DocForm::Props => asked == Detail::Normal,
                DocForm::Normal => asked == Detail::Normal,
                DocForm::Full => {
                    !s.is_empty() || asked == Detail::Full || (asked == Detail::Normal && hidden() == Some(false))
                }
            };
            if !same {
                return Err(LookupError::CursorOfOtherView { cursor: request.to_string(), asked: asked.name().into() });
            }
        }
        if let Some(page) = changelog_page_name(name).filter(|_| self.component(name).is_err()) {
            // A number past u32 is asked as the last u32 (out of range for any changelog): the error names the
            // number as written, not that stand-in.
            let asked = name.trim().rsplit('-').next().unwrap_or_default().trim_start_matches('0');
            return self.changelog(page, lang, paging).map(DetailsView::Changelog).map_err(|e| match e {
                LookupError::PageOutOfRange { lang, pages, .. } if page == Some(u32::MAX) => {
                    LookupError::PageOutOfRange { page: echo(asked), lang, pages }
                }
                e => e,
            });
        }
        let continues = |what: DocForm| {
            paging.cursor.and_then(|c| Cursor::decode(c).ok()).is_some_and(|c| match c.request {
                Request::Doc { form, .. } => form == what,
                _ => false,
            })
        };
        // `props` alone is the props tables, always: the card advertises them under that name, also where the
        // document has a heading "Props" (dumi's), which is served as `Parent › Props`. Beside other headings,
        // `props` is that heading when the document has one (else the tables, which come alone: `PropsAlone`).
        let props_named = sections.iter().any(|s| s.trim().eq_ignore_ascii_case("props"))
            && (sections.len() == 1 || !self.has_section(name, lang, "props")?);
        if props_named && sections.len() > 1 {
            return Err(LookupError::PropsAlone);
        }
        if detail == Detail::Full && (continues(DocForm::Props) || continues(DocForm::Card)) {
            let cursor = paging.cursor.and_then(|c| Cursor::decode(c).ok()).map(|c| c.request.to_string());
            return Err(LookupError::CursorOfOtherView { cursor: cursor.unwrap_or_default(), asked: "full".into() });
        }
        if props_named || continues(DocForm::Props) {
            return self.props(name, lang, paging).map(DetailsView::Props);
        }
        if (detail == Detail::Brief && sections.is_empty() && paging.cursor.is_none()) || continues(DocForm::Card) {
            return self.card(name, lang, paging).map(DetailsView::Card);
        }
        self.doc(name, lang, detail, sections, paging).map(DetailsView::Doc)
    }

    /// The component card of `name` in `lang` (`detail=brief`), cut to the budget.
    ///
    /// # Errors
    /// As [`BundleSet::doc`].
    pub fn card(&self, name: &str, lang: Option<&str>, paging: Paging) -> Result<CardView, LookupError> {
        let (bundle, meta) = self.component_meta(name)?;
        let doc = self.pick_doc(&meta, lang)?;
        let props: Vec<PropsTable> = self.props_of(&bundle)?;
        let text = crate::view::card(&meta.name, doc, &meta.files, &props);
        let key = keys::card(&doc.lang);
        let request =
            Request::Doc { component: meta.key.clone(), lang: doc.lang.clone(), form: DocForm::Card, sections: vec![] };
        let props: Vec<(String, u32)> = props
            .iter()
            .filter(|t| t.origin == PropsOrigin::Typescript || t.lang.as_deref() == Some(doc.lang.as_str()))
            .map(|t| (t.name.clone(), t.props.len() as u32))
            .collect();
        // The card's fields beside its text, bounded by their bytes (JSON escapes included).
        let bytes = |s: &Option<String>| s.as_deref().map_or(0, |s| s.len() + crate::budget::json_escapes(s));
        let lists_bound = props.iter().map(|(n, _)| n.len() + crate::budget::json_escapes(n) + 10).sum::<usize>();
        let mut fields = bytes(&doc.title) + bytes(&doc.brief) + bytes(&doc.import) + lists_bound;
        // Echoed: the component in the header, the document call, the continuation and its cursor; the path in the
        // JSON.
        let paging = self.echoing(paging, &[(meta.name.as_str(), 5), (doc.path.as_str(), 2)]);
        // The brief and import line (also in the card's text) stay out of the JSON unless the whole card fits
        // beside them: the text's share then only grows with the budget (a larger budget never serves less; it
        // did when they came back at half the content and took the text's room).
        let whole = u64::from(self.token_map(&bundle, &key)?.total()) + 2 * crate::budget::json_escapes(&text) as u64;
        let lean = whole + fields as u64 > u64::from(paging.budget.content());
        if lean {
            fields = bytes(&doc.title) + lists_bound;
        }
        let lists = |_: &Part| fields as u32;
        let (part, next_cursor) =
            self.part_with(&request, &text, (&bundle, &key), &[(0, text.len())], &[], paging, &lists)?;
        Ok(CardView {
            served: self.served(),
            component: meta.name.clone(),
            lang: doc.lang.clone(),
            path: doc.path.clone(),
            title: doc.title.clone(),
            brief: doc.brief.clone().filter(|_| !lean),
            import: doc.import.clone().filter(|_| !lean),
            detail: Detail::Brief,
            tokens: part.tokens,
            full_tokens: doc.tokens,
            view_tokens: doc.view_tokens,
            sections: doc.sections.iter().filter(|s| (2..=4).contains(&s.level)).count() as u32,
            code_blocks: doc.code_blocks.len() as u32,
            props,
            files: meta.files.len() as u32,
            text: part.text.clone(),
            part,
            next_cursor,
        })
    }

    /// The props tables of `name` (from its sources, and from its document's API tables in `lang`) as Markdown
    /// tables, cut to the budget.
    ///
    /// # Errors
    /// Unknown component, no document in that language, a refused budget or cursor, damaged bundle.
    pub fn props(&self, name: &str, lang: Option<&str>, paging: Paging) -> Result<PropsView, LookupError> {
        let (bundle, meta) = self.component_meta(name)?;
        let doc = self.pick_doc(&meta, lang)?;
        let stored = self.props_of(&bundle)?;
        // The tables' and rows' JSON tokens, counted by the compiler (format 9), when they match the tables.
        let exact = match bundle.get::<Vec<PropsTokens>>(keys::PROPS_TOKENS) {
            Ok(c) => Some(c),
            Err(BundleError::MissingFrame { .. }) => None,
            Err(e) => return Err(e.into()),
        }
        .filter(|c| c.len() == stored.len() && c.iter().zip(&stored).all(|(c, t)| c.rows.len() == t.props.len()));
        let (props, counts): (Vec<PropsTable>, Vec<Option<PropsTokens>>) = stored
            .into_iter()
            .enumerate()
            .filter(|(_, t)| t.origin == PropsOrigin::Typescript || t.lang.as_deref() == Some(doc.lang.as_str()))
            .map(|(i, t)| (t, exact.as_ref().and_then(|c| c.get(i).cloned())))
            .unzip();
        let (text, table_spans) = crate::view::props_text_spans(&meta.name, &props);
        let key = keys::props_text(&doc.lang);
        let cuts = self.cuts(&bundle, &key, &text)?;
        let request = Request::Doc {
            component: meta.key.clone(),
            lang: doc.lang.clone(),
            form: DocForm::Props,
            sections: vec![],
        };
        // Each table's rows (one line per prop, after its heading, a blank line, the header and the rule) with an
        // upper bound of their JSON's tokens: the row's stored count, plus 48 for its field names and nulls, plus
        // what escaping its strings adds; and the table's own (its heading's count, its field names, its path).
        struct Rows {
            head: u32,
            rows: Vec<(usize, usize, u32)>,
        }
        let line_ends = |a: usize, b: usize| {
            let mut ends: Vec<usize> = text[a..b].match_indices('\n').map(|(i, _)| a + i + 1).collect();
            ends.insert(0, a);
            ends
        };
        let tables: Vec<Rows> = props
            .iter()
            .zip(&table_spans)
            .zip(&counts)
            .map(|((t, &(a, b)), exact)| {
                let starts = line_ends(a, b);
                let rows = t
                    .props
                    .iter()
                    .enumerate()
                    .filter_map(|(i, p)| {
                        let (ra, rb) = (*starts.get(4 + i)?, *starts.get(5 + i)?);
                        let escapes = crate::budget::json_escapes(&p.type_text)
                            + p.description.as_deref().map_or(0, crate::budget::json_escapes)
                            + p.default.as_deref().map_or(0, crate::budget::json_escapes);
                        // Stored exactly (format 9): the row's JSON, and a comma and a join's token.
                        let structured = match exact {
                            Some(c) => c.rows.get(i).map_or(u32::MAX / 4, |n| n + PROPS_JOIN_TOKENS),
                            None => cuts.tokens(ra, rb).0 + 48 + escapes as u32,
                        };
                        Some((ra, rb, structured))
                    })
                    .collect();
                let head = exact.as_ref().map_or_else(|| table_json_bound(t), |c| c.head + 2 * PROPS_JOIN_TOKENS);
                Rows { head, rows }
            })
            .collect();
        // Structured, the rows this part shows (no more than its text: clients may show either to the model),
        // each in its table.
        let inside = |part: &Part, a: usize, b: usize| {
            let start = part.offset as usize;
            a >= start && b <= start + part.text.len() && a < b
        };
        let shown = |part: &Part, i: usize| -> Vec<usize> {
            let t = &tables[i];
            let whole = inside(part, table_spans[i].0, table_spans[i].1);
            // A row is listed by the part its line ends in: a line longer than a part (cut inside, at the extra cut
            // points of a long segment) is listed once, with the part that completes it.
            let ends_in = |b: usize| b > part.offset as usize && b <= part.offset as usize + part.text.len();
            (0..t.rows.len()).filter(|&r| whole || ends_in(t.rows[r].1)).collect()
        };
        let listed = |part: &Part, i: usize| {
            !shown(part, i).is_empty()
                || (tables[i].rows.is_empty() && inside(part, table_spans[i].0, table_spans[i].1))
        };
        let lists = |part: &Part| {
            (0..tables.len())
                .filter(|&i| listed(part, i))
                .map(|i| tables[i].head + shown(part, i).iter().map(|&r| tables[i].rows[r].2).sum::<u32>())
                .sum::<u32>()
        };
        // Echoed: the component in the header, the continuation and its cursor, the JSON.
        let paging = self.echoing(paging, &[(meta.name.as_str(), 5)]);
        // The structured form is bounded by its own envelope, not the text form's: its fields but `text` and
        // `props` (names, counts, lines, the cursor), bounded here from the JSON they make, leave more room than
        // the [`ENVELOPE_TOKENS`] the text form's header and continuation call keep, and that room goes to the
        // rows' structured copies (below ~450 tokens Semi's Table listed none: trial finding 4). The lists' bound
        // is lowered by the difference, so `part_with` checks the structured form against `max_tokens`.
        let (tables_total, props_total) = (props.len() as u32, props.iter().map(|t| t.props.len() as u32).sum());
        // Per part: its own numbers, and its cursor (with the largest hashes) when it has a next part.
        let (served, name, lang) = (self.served(), meta.name.clone(), doc.lang.clone());
        let json_envelope = |part: &Part| -> u32 {
            let cursor = part
                .next_offset
                .map(|offset| Cursor { set: u32::MAX, text: u32::MAX, request: request.clone(), offset }.encode());
            let view = PropsView {
                served: served.clone(),
                component: name.clone(),
                lang: lang.clone(),
                tokens: part.tokens,
                tables_total,
                props_total,
                props: vec![],
                // A part that leaves rows out lists none: its JSON has these two fields instead of the rows' bounds
                // (a few tokens against their tens), so they are not reserved beside the rows.
                unlisted_props: 0,
                structured_at: None,
                part: Part { text: String::new(), ..part.clone() },
                next_cursor: cursor.as_ref().map(|_| String::new()),
                text: String::new(),
            };
            let own = serde_json::to_string(&view).map_or(u32::MAX / 4, |j| crate::budget::bound(&j));
            // The cursor at a token per byte: base64 tokenizes far worse than the answer's own words (up to 0.82
            // tokens a byte in o200k and cl100k, measured on 3,000 props cursors), which `bound` counts at 1/3.
            own + cursor.map_or(0, |c| c.len() as u32)
        };
        let reserved = crate::budget::ENVELOPE_TOKENS + paging.budget.echo;
        let full_lists = &lists;
        let lists = |part: &Part| -> u32 {
            let slack = reserved.saturating_sub(json_envelope(part));
            full_lists(part).saturating_sub(slack)
        };
        let (part, next_cursor) =
            self.part_with(&request, &text, (&bundle, &key), &[(0, text.len())], &[], paging, &lists)?;
        // A part of one segment is served even when its rows do not fit beside it structured (a row of hundreds of
        // tokens at the smallest budget): it then lists none, as its text says all, and says how many it leaves
        // out and the budget that lists them: the text form's (the part's tokens beside the envelope and the
        // echoed names) or the structured form's (its envelope, the part, its escapes and its rows' copies),
        // whichever is more.
        let structured = structured_tokens(&part, &lists) <= paging.budget.content();
        let unlisted_props: u32 =
            if structured { 0 } else { (0..tables.len()).map(|i| shown(&part, i).len() as u32).sum() };
        let structured_at = (unlisted_props > 0).then(|| {
            let text_form = part.tokens + crate::budget::ENVELOPE_TOKENS + paging.budget.echo;
            let json_form = json_envelope(&part) + structured_tokens(&part, &full_lists);
            text_form.max(json_form)
        });
        let props = props
            .into_iter()
            .enumerate()
            .filter(|&(i, _)| structured && listed(&part, i))
            .map(|(i, mut t)| {
                let keep = shown(&part, i);
                if keep.len() < t.props.len() {
                    t.props = keep.into_iter().map(|r| t.props[r].clone()).collect();
                }
                t
            })
            .collect();
        Ok(PropsView {
            served: self.served(),
            component: meta.name.clone(),
            lang: doc.lang.clone(),
            tokens: part.tokens,
            tables_total,
            props_total,
            props,
            unlisted_props,
            structured_at,
            text: part.text.clone(),
            part,
            next_cursor,
        })
    }

    /// Whether the document of `name` in `lang` has a heading `title` (by title or slug, case-insensitively).
    ///
    /// # Errors
    /// Unknown component, no document in that language, damaged bundle.
    pub fn has_section(&self, name: &str, lang: Option<&str>, title: &str) -> Result<bool, LookupError> {
        let (_, meta) = self.component_meta(name)?;
        let doc = self.pick_doc(&meta, lang)?;
        Ok(doc.sections.iter().any(|s| s.title.eq_ignore_ascii_case(title) || s.slug.eq_ignore_ascii_case(title)))
    }

    /// The props tables stored for a component (none in bundles of components without any).
    pub fn props_of(&self, bundle: &Bundle) -> Result<Vec<PropsTable>, LookupError> {
        match bundle.get(keys::PROPS) {
            Ok(p) => Ok(p),
            Err(BundleError::MissingFrame { .. }) => Ok(vec![]),
            Err(e) => Err(e.into()),
        }
    }

    /// The sections of `doc` named by `asked` (title or slug, case-insensitive), in document order, each once; a
    /// section inside another one asked for is dropped (it is served with its parent).
    fn find_sections(
        &self,
        meta: &ComponentMeta,
        doc: &DocMeta,
        props: &[PropsTable],
        asked: &[String],
    ) -> Result<Vec<SectionMeta>, LookupError> {
        let matches = |s: &SectionMeta, q: &str| {
            let q = q.trim().trim_start_matches('#').trim();
            s.title.eq_ignore_ascii_case(q) || s.slug.eq_ignore_ascii_case(q) || s.slug == crate::view::slugify(q)
        };
        let mut found: Vec<SectionMeta> = Vec::new();
        let mut missing = Vec::new();
        for q in asked {
            let mut candidates: Vec<&SectionMeta> = doc.sections.iter().filter(|s| matches(s, q)).collect();
            // `Parent › Title`, as the ambiguous-section error lists headings (`>` too): the title under that parent;
            // `› Title`, a title under no heading.
            if let (true, Some((parent, title))) = (candidates.is_empty(), q.rsplit_once(['›', '>'])) {
                let top = parent.trim().is_empty();
                candidates = doc
                    .sections
                    .iter()
                    .filter(|s| matches(s, title))
                    .filter(|s| match section_parent(&doc.sections, s) {
                        Some(p) => !top && matches(p, parent),
                        None => top,
                    })
                    .collect();
            }
            // Several headings answer to the name (Semi's Table has `Pagination` under Demos and under API): a
            // query spelled exactly as one's slug names that one; otherwise the caller must choose.
            let exact = q.trim().trim_start_matches('#').trim();
            let chosen = match candidates.as_slice() {
                [] => None,
                [one] => Some(*one),
                many => match many.iter().find(|s| s.slug == exact) {
                    Some(s) => Some(*s),
                    None => {
                        return Err(LookupError::AmbiguousSection {
                            component: meta.name.clone(),
                            lang: doc.lang.clone(),
                            asked: echo(q),
                            candidates: many.iter().map(|s| section_path(&doc.sections, s)).collect(),
                        });
                    }
                },
            };
            match chosen {
                Some(s) => found.push(s.clone()),
                None => missing.push(format!("`{}`", echo(q))),
            }
        }
        if !missing.is_empty() {
            // The sections nearest to the names asked first (a list cut to fit the budget keeps them), each by its
            // title or slug, whichever is nearer.
            let asked: Vec<&str> = asked.iter().map(String::as_str).collect();
            let mut sections: Vec<&SectionMeta> = doc.sections.iter().filter(|s| (2..=4).contains(&s.level)).collect();
            sections.sort_by_cached_key(|s| {
                let near = |q: &&str| similarity(q, &s.title).max(similarity(q, &s.slug));
                let score = asked.iter().map(near).fold(0.0, f64::max);
                std::cmp::Reverse(if score < NEAR { 0 } else { (score * 1e9) as i64 })
            });
            return Err(LookupError::UnknownSection {
                component: meta.name.clone(),
                lang: doc.lang.clone(),
                asked: missing,
                available: sections
                    .into_iter()
                    .map(|s| format!("{} ({}) {}", s.title, s.slug, crate::units::thousands(s.tokens)))
                    .collect(),
            });
        }
        // A heading with nothing under it but the next heading of its level (Semi's `## API 参考`, followed by
        // `## Table`, `## Column`, … each with its table) stands for the sections after it: up to the last one
        // holding a props table of this document.
        let last_table =
            props.iter().filter(|t| t.origin == PropsOrigin::Document && t.path == doc.path).map(|t| t.line).max();
        for s in &mut found {
            let empty = s.tokens <= 20 && s.end_line <= s.start_line + 2;
            if let Some(line) = last_table.filter(|&l| empty && l > s.end_line) {
                let group_end = doc
                    .sections
                    .iter()
                    .filter(|x| x.level <= s.level && x.start_line > s.start_line && x.start_line <= line)
                    .map(|x| x.end_line)
                    .max();
                if let Some(end) = group_end {
                    s.end_line = end;
                }
            }
        }
        found.sort_by_key(|s| s.start_line);
        found.dedup_by_key(|s| s.start_line);
        let outer: Vec<(u32, u32)> = found.iter().map(|s| (s.start_line, s.end_line)).collect();
        found.retain(|s| !outer.iter().any(|&(a, b)| a < s.start_line && s.end_line <= b));
        Ok(found)
    }

    /// Code block `index` (1-based) of `name`'s document, cut to the budget when it is over it.
    ///
    /// # Errors
    /// Unknown component, no document in that language, index out of range (naming `1..N`), a refused budget or
    /// cursor, damaged bundle.
    pub fn code_block(
        &self,
        name: &str,
        index: u32,
        lang: Option<&str>,
        paging: Paging,
    ) -> Result<CodeBlockView, LookupError> {
        let (bundle, meta) = self.component_meta(name)?;
        let doc = self.pick_doc(&meta, lang)?;
        let count = doc.code_blocks.len() as u32;
        if count == 0 {
            return Err(LookupError::NoBlocks { component: meta.name.clone(), lang: doc.lang.clone() });
        }
        let block = index.checked_sub(1).and_then(|i| doc.code_blocks.get(i as usize)).ok_or_else(|| {
            LookupError::BlockOutOfRange { component: meta.name.clone(), lang: doc.lang.clone(), index, count }
        })?;
        // A block in a list item or block quote, or in a CRLF file, is served from its cleaned-code frame.
        let text_key = if block.cleaned { keys::block(&doc.lang, index) } else { keys::doc(&doc.lang) };
        let whole = self.text(&bundle, &text_key)?;
        let (start, end) =
            if block.cleaned { (0, whole.len()) } else { (block.start_byte as usize, block.end_byte as usize) };
        if whole.get(start..end).is_none() {
            let what = format!("code block {index} span");
            return Err(BundleError::Corrupt { path: bundle.path().to_string(), what }.into());
        }
        let request = Request::Block { component: meta.key.clone(), lang: doc.lang.clone(), index };
        let fences = [Fence { index, start, end }];
        // Echoed: the component in the header, the continuation and its cursor, the JSON; the demo file's paths.
        let mut names = vec![(meta.name.as_str(), 5)];
        names.extend(
            block
                .demo
                .iter()
                .flat_map(|d| [(d.path.as_str(), 2)].into_iter().chain(d.description_path.as_deref().map(|p| (p, 2)))),
        );
        let paging = self.echoing(paging, &names);
        let (part, next_cursor) =
            self.part(&request, &whole, (&bundle, &text_key), &[(start, end)], &fences, paging)?;
        Ok(CodeBlockView {
            served: self.served(),
            component: meta.name.clone(),
            lang: doc.lang.clone(),
            block: block.clone(),
            count,
            text: part.text.clone(),
            part,
            next_cursor,
        })
    }

    /// Changelog page `page` (1-based, 1 = newest; default 1, or the cursor's page) in `lang`, cut to the budget
    /// when it is over it. The cursor of the last part of a page starts the next page, so following cursors from
    /// page 1 reads the whole changelog once.
    ///
    /// # Errors
    /// No changelog (in that language), page out of range (naming `1..T`), a refused budget or cursor, damaged
    /// bundle.
    pub fn changelog(
        &self,
        page: Option<u32>,
        lang: Option<&str>,
        paging: Paging,
    ) -> Result<ChangelogView, LookupError> {
        // A cursor names its page, which wins over `page`: the last part of page 1 continues with page 2, and an
        // agent repeating its call with the new cursor still says page 1.
        let page = match paging.cursor.map(Cursor::decode) {
            Some(Ok(Cursor { request: Request::Changelog { page, .. }, .. })) => Some(page),
            _ => page,
        };
        let lang = self.lang(lang);
        let lang = lang.as_deref();
        let want = lang.unwrap_or(&self.manifest.default_lang);
        let no_changelog = |available: String| LookupError::NoChangelog {
            system: self.manifest.system.clone(),
            version: self.manifest.version.clone(),
            lang: echo(want),
            available,
        };
        let entry = self.manifest.changelog.as_ref().ok_or_else(|| no_changelog(String::new()))?;
        let summary = entry
            .langs
            .iter()
            .find(|l| l.lang.eq_ignore_ascii_case(want))
            .or_else(|| if lang.is_none() { entry.langs.first() } else { None })
            .ok_or_else(|| no_changelog(entry.langs.iter().map(|l| l.lang.as_str()).collect::<Vec<_>>().join(", ")))?;
        let page = page.unwrap_or(1);
        if page == 0 || page > summary.pages {
            let page = page.to_string();
            return Err(LookupError::PageOutOfRange { page, lang: summary.lang.clone(), pages: summary.pages });
        }
        let bundle = self.bundle(&entry.bundle)?;
        let cached = self.changelog.lock().unwrap_or_else(|e| e.into_inner()).clone();
        let meta = match cached {
            Some(meta) => meta,
            None => {
                let meta: Arc<ChangelogMeta> = Arc::new(bundle.get(keys::CHANGELOG)?);
                *self.changelog.lock().unwrap_or_else(|e| e.into_inner()) = Some(meta.clone());
                meta
            }
        };
        let lang_meta = meta
            .langs
            .iter()
            .find(|l| l.summary.lang == summary.lang)
            .ok_or_else(|| BundleError::Corrupt { path: entry.bundle.clone(), what: "changelog languages".into() })?;
        let p = lang_meta
            .pages
            .get(page as usize - 1)
            .ok_or_else(|| BundleError::Corrupt { path: entry.bundle.clone(), what: "changelog pages".into() })?;
        let text: String = bundle.get_text(&keys::page(&summary.lang, page))?;
        let key = keys::page(&summary.lang, page);
        let request = Request::Changelog { lang: summary.lang.clone(), page };
        // Releases whose heading is in the part (page-relative lines), each bounded by its bytes and 3 for quotes
        // and comma in the JSON list.
        let in_part = |part: &Part, line: u32| {
            let rel = line + 1 - p.start_line.min(line + 1);
            !part.text.is_empty() && (part.lines.0..=part.lines.1).contains(&rel)
        };
        let lists = |part: &Part| {
            lang_meta.releases.iter().filter(|r| in_part(part, r.start_line)).map(|r| r.version.len() as u32 + 3).sum()
        };
        let paging = self.echoing(paging, &[]);
        let (mut part, mut next_cursor) =
            self.part_with(&request, &text, (&bundle, &key), &[(0, text.len())], &[], paging, &lists)?;
        let releases: Vec<String> =
            lang_meta.releases.iter().filter(|r| in_part(&part, r.start_line)).map(|r| r.version.clone()).collect();
        // Lines of the file, not of the page.
        part.lines = (part.lines.0 + p.start_line - 1, part.lines.1 + p.start_line - 1);
        if next_cursor.is_none() && page < summary.pages {
            let next = Request::Changelog { lang: summary.lang.clone(), page: page + 1 };
            next_cursor =
                Some(Cursor { set: Cursor::set_id(&self.label()), text: 0, request: next, offset: 0 }.encode());
        }
        Ok(ChangelogView {
            served: self.served(),
            lang: summary.lang.clone(),
            page,
            pages: summary.pages,
            start_line: p.start_line,
            end_line: p.end_line,
            total_lines: summary.lines,
            page_lines: self.manifest.thresholds.changelog_page_lines,
            tokens: part.tokens,
            page_tokens: p.tokens,
            previous: (page > 1).then(|| page - 1),
            next: (page < summary.pages).then(|| page + 1),
            releases,
            text: part.text.clone(),
            part,
            next_cursor,
        })
    }

    /// The files of component `name`.
    ///
    /// # Errors
    /// Unknown component, damaged bundle.
    pub fn files(&self, name: &str) -> Result<FilesView, LookupError> {
        let entry = self.component(name)?;
        let tokens = entry.files_tokens;
        let (_, meta) = self.component_meta(name)?;
        let part = ListPart { rows_total: meta.files.len() as u32, tokens_exact: true, ..ListPart::default() };
        Ok(FilesView { served: self.served(), component: meta.name.clone(), tokens, files: meta.files.clone(), part })
    }

    /// [`BundleSet::files`] cut to the budget of `paging` (continuing its cursor), as
    /// [`BundleSet::components_paged`].
    ///
    /// # Errors
    /// As [`BundleSet::files`]; a refused cursor.
    pub fn files_paged(&self, name: &str, paging: Paging) -> Result<FilesView, LookupError> {
        let mut view = self.files(name)?;
        let all = std::mem::take(&mut view.files);
        let width = all.iter().map(|f| f.path.len()).max().unwrap_or(4).max(4);
        let entry = self.component(name)?;
        let bound = |i: usize| {
            stored_row(&entry.file_row_tokens, all.len(), i)
                .unwrap_or_else(|| (serde_json::to_string(&all[i]).map_or(1000, |j| j.len() + 1) + width + 80) as u32)
        };
        let names: Vec<&str> = all.iter().map(|f| f.path.as_str()).collect();
        let request = Request::Files { component: view.component.clone() };
        // Echoed: the component in the header, the continuation and its cursor, the JSON.
        let paging = self.echoing(paging, &[(view.component.as_str(), 5)]);
        let whole = view.tokens.max(entry.files_json_tokens);
        let (rows, part) = self.list_part(&request, &names, &bound, whole, paging)?;
        if part.next_cursor.is_some() || rows.start > 0 {
            view.tokens = rows.clone().map(bound).sum();
        }
        view.files = all.into_iter().skip(rows.start).take(rows.len()).collect();
        view.part = part;
        Ok(view)
    }

    /// Normalizes a requested path (`./a`, `a\b`, `a/../b`: [`resolve_dots`]) and finds the component storing it.
    /// Requested paths are only ever compared with the manifest's list, never joined to a directory, so `../`
    /// cannot escape; one that climbs above the repository's root is an unknown path saying so.
    fn locate(&self, path: &str) -> Result<(String, Arc<Bundle>, FileMeta), LookupError> {
        let norm = path.trim().replace('\\', "/");
        // `./x`, `/x` and `x` name the same file of the repository (paths are repository-relative).
        let Some(mut norm) = resolve_dots(norm.trim_start_matches('/')) else {
            return Err(LookupError::UnknownPath {
                path: echo(path),
                system: self.manifest.system.clone(),
                version: self.manifest.version.clone(),
                suggestions: Vec::new(),
                outside: true,
            });
        };
        let owner = match self.file_owner(&norm)? {
            Some(owner) => owner,
            None => match self.only_file_like(&norm)? {
                Some(file) => {
                    norm = file.path;
                    file.component
                }
                None => return Err(self.unknown_path(path, &norm)?),
            },
        };
        let (bundle, meta) = self.component_meta(&owner)?;
        let file = meta.files.iter().find(|f| f.path == norm).cloned().ok_or_else(|| BundleError::Corrupt {
            path: bundle.path().to_string(),
            what: format!("file list (no `{norm}`)"),
        })?;
        Ok((norm, bundle, file))
    }

    /// The one file a path no component lists stands for, when exactly one does: the file whose path ends with
    /// `/norm` (a partial path, `table/utils.ts`), else the one equal to it but for ASCII case. The answer names the
    /// whole path; two or more candidates are suggestions ([`BundleSet::unknown_path`]), never a guess.
    fn only_file_like(&self, norm: &str) -> Result<Option<FileOwner>, LookupError> {
        let files = &self.manifest()?.files;
        let tail = format!("/{norm}");
        let only = |found: Vec<&FileOwner>| match found.as_slice() {
            [one] => Some((*one).clone()),
            _ => None,
        };
        let ending = only(files.iter().filter(|f| !norm.is_empty() && f.path.ends_with(&tail)).collect());
        Ok(ending.or_else(|| only(files.iter().filter(|f| f.path.eq_ignore_ascii_case(norm)).collect())))
    }

    /// The error for a path no component lists (`norm`, normalised from `path`), suggesting what it could be.
    fn unknown_path(&self, path: &str, norm: &str) -> Result<LookupError, LookupError> {
        let files = &self.manifest()?.files;
        // Agents often pass a partial path: suggest the paths it ends, then the files of that name.
        let lower = norm.to_lowercase();
        let base = lower.rsplit('/').next().unwrap_or(&lower).to_string();
        // The files whose path ends so, nearest to the whole path first (`tabel/utils.ts` names `table/utils.ts`
        // before the other `utils.ts`).
        let ends = |suffix: &str| -> Vec<String> {
            let mut found: Vec<&str> = (files.iter())
                .filter(|f| !suffix.is_empty() && f.path.to_lowercase().ends_with(suffix))
                .map(|f| f.path.as_str())
                .collect();
            by_similarity(&[norm], &mut found, |p| p);
            found.into_iter().take(5).map(str::to_string).collect()
        };
        let mut by_name = ends(&format!("/{lower}"));
        if by_name.is_empty() {
            by_name = ends(&base);
        }
        if by_name.is_empty() {
            // A misspelt file name (`Tabel.tsx`): the files whose name is nearest.
            let name_of = |p: &str| p.rsplit('/').next().unwrap_or(p).to_string();
            let near = closest(&name_of(norm), files.iter().map(|f| f.path.rsplit('/').next().unwrap_or(&f.path)), 5);
            let mut found: Vec<&str> =
                files.iter().filter(|f| near.contains(&name_of(&f.path))).map(|f| f.path.as_str()).collect();
            by_similarity(&[norm], &mut found, |p| p);
            by_name = found.into_iter().take(5).map(str::to_string).collect();
        }
        if by_name.is_empty() {
            by_name = closest(norm, files.iter().map(|f| f.path.as_str()), 5);
        }
        Ok(LookupError::UnknownPath {
            path: echo(path),
            system: self.manifest.system.clone(),
            version: self.manifest.version.clone(),
            suggestions: by_name,
            outside: false,
        })
    }

    /// File `path`: its skeleton when it has one, unless `full` or a line range is given; binary files have no
    /// text. `lines` (1-based, inclusive, of the original file, as wcgw's ranges) serves exactly those lines. Cut to
    /// the budget either way.
    ///
    /// # Errors
    /// Unknown path (with suggestions), a line range outside the file, a refused budget or cursor, damaged bundle.
    pub fn file(
        &self,
        path: &str,
        full: bool,
        lines: Option<(u32, u32)>,
        paging: Paging,
    ) -> Result<FileView, LookupError> {
        // A cursor carries the form and range of the first call: a continuation names only the path.
        let (full, lines) = match paging.cursor.map(Cursor::decode).transpose()?.map(|c| c.request) {
            Some(Request::File { full, lines, .. }) => (full, lines),
            _ => (full, lines),
        };
        let (norm, bundle, file) = self.locate(path)?;
        let skeleton = !full && lines.is_none() && file.skeleton.is_some();
        // The function list goes with the skeleton (whose bodies it points to), not with whole files or ranges.
        let mut functions = if file.kind == FileKind::Source && skeleton {
            function_sizes(&bundle.get::<Vec<FunctionMeta>>(&keys::functions(&norm))?)
        } else {
            vec![]
        };
        let functions_total = functions.len() as u32;
        functions.sort_by(|a, b| b.tokens.cmp(&a.tokens).then_with(|| a.name.cmp(&b.name)));
        let first_part = paging.cursor.is_none();
        let mut view = FileView {
            served: self.served(),
            file: file.clone(),
            skeleton,
            threshold: self.manifest.thresholds.skeleton_min_lines,
            tokens: 0,
            range: lines,
            functions,
            functions_total,
            part: Part { tokens_exact: true, ..Part::default() },
            next_cursor: None,
            text: String::new(),
        };
        if file.kind == FileKind::Binary {
            return Ok(view);
        }
        let key = if skeleton { keys::skeleton(&norm) } else { keys::file(&norm) };
        let text = self.text(&bundle, &key)?;
        let range = match lines {
            None => (0, text.len()),
            Some((start, end)) => {
                let last = file.lines;
                if start != 0 && end < start {
                    return Err(LookupError::ReversedRange { path: norm, start, end });
                }
                if start == 0 || start > last {
                    // An open end (`start_line` alone) is named as the last line.
                    let end = if end == u32::MAX { start } else { end };
                    return Err(LookupError::LineRange { path: norm, start, end, lines: last });
                }
                let cuts = self.cuts(&bundle, &key, &text)?;
                (cuts.line_start(start), cuts.line_start(end.min(last) + 1))
            }
        };
        // Echoed: the path in the header, the `--full` and function calls, the continuation and its cursor.
        let paging = self.echoing(paging, &[(norm.as_str(), 6)]);
        let request = Request::File { path: norm, full: !skeleton, lines };
        // The skeleton's longer header and its function-list footer are an envelope of their own, and the list's
        // names (on the first part only, bounded by their bytes) come out of the content too, so the whole answer
        // and its JSON stay within max_tokens (measured by tests/it/sweep.rs). A skeleton served whole leaves its
        // names what it did not use; a cut one serves three quarters of the content as text (a share that only
        // grows with the budget: a larger budget never serves less) and leaves the names what its text did not use.
        let envelope = if skeleton { crate::budget::SKELETON_ENVELOPE_TOKENS } else { 0 };
        let lowered = |by: u32| {
            let mut p = paging;
            p.budget.max_tokens = p.budget.max_tokens.saturating_sub(by);
            p
        };
        // An error of a lowered budget names the call's own.
        let raised = |e: LookupError, by: u32| match e {
            LookupError::Budget(BudgetError::TooSmallForNames { asked, request, needed }) => {
                let (asked, needed) = (asked + by, needed.saturating_add(by));
                LookupError::Budget(BudgetError::TooSmallForNames { asked, request, needed })
            }
            e => e,
        };
        let (mut part, mut next_cursor) = self
            .part(&request, &text, (&bundle, &key), &[range], &[], lowered(envelope))
            .map_err(|e| raised(e, envelope))?;
        let bounds = view.functions.iter().map(FunctionSize::bound);
        let kept = if !first_part {
            0
        } else if next_cursor.is_none() {
            let json = part.tokens + 2 * crate::budget::json_escapes(&part.text) as u32;
            let left = paging.budget.content().saturating_sub(envelope).saturating_sub(json);
            crate::budget::listed_within(bounds, left).0
        } else if view.functions.is_empty() {
            0
        } else {
            let quarter = paging.budget.content().saturating_sub(envelope) / 4;
            // When the names' quarter leaves no room for the first lines, the part keeps the whole share.
            if let Ok(smaller) = self.part(&request, &text, (&bundle, &key), &[range], &[], lowered(envelope + quarter))
            {
                (part, next_cursor) = smaller;
            }
            let json = part.tokens + 2 * crate::budget::json_escapes(&part.text) as u32;
            let left = paging.budget.content().saturating_sub(envelope).saturating_sub(json);
            crate::budget::listed_within(bounds, left).0
        };
        view.functions.truncate(kept);
        if part.max_tokens.is_some() {
            part.max_tokens = Some(paging.budget.max_tokens); // the call's own, not the one lowered here
        }
        view.tokens = part.tokens;
        view.text = part.text.clone();
        view.part = part;
        if let (Some((start, end)), true) = (lines, view.text.is_empty()) {
            // The empty line after a final newline: served, and named, though it has no text.
            view.part.lines = (start, end.min(view.file.lines));
        }
        view.next_cursor = next_cursor;
        Ok(view)
    }

    /// The function index of source `path`, in source order.
    ///
    /// # Errors
    /// Unknown path, not a source, damaged bundle.
    pub fn functions(&self, path: &str) -> Result<Vec<FunctionMeta>, LookupError> {
        Ok(self.source_index(path)?.2)
    }

    fn source_index(&self, path: &str) -> Result<(String, Arc<Bundle>, Vec<FunctionMeta>), LookupError> {
        let (norm, bundle, file) = self.locate(path)?;
        if file.kind != FileKind::Source {
            return Err(LookupError::NoFunctions { path: norm });
        }
        // The compiler writes a source's function index whenever it analyzed it: without one, it did not.
        if !bundle.has(&keys::functions(&norm)) {
            let limit = crate::model::MAX_ANALYZED_SOURCE_BYTES;
            let why = if file.bytes > limit {
                format!("it is {} bytes, over the {limit}-byte (4 MiB) limit of source analysis", file.bytes)
            } else {
                "the build could not parse it (its build warning says why)".to_string()
            };
            return Err(LookupError::NotAnalyzed { path: norm, why });
        }
        let index = bundle.get(&keys::functions(&norm))?;
        Ok((norm, bundle, index))
    }

    /// Function `name` of file `path`: matched by qualified name (`Table.render`), else by a unique simple name.
    ///
    /// # Errors
    /// Unknown path, no function index, unknown name (listing the closest names), an ambiguous simple name
    /// (listing the qualified ones), damaged bundle.
    pub fn function(&self, path: &str, name: &str, paging: Paging) -> Result<FunctionView, LookupError> {
        let (norm, bundle, index) = self.source_index(path)?;
        if index.is_empty() {
            return Err(LookupError::NoFunctions { path: norm });
        }
        let name = name.trim();
        // A qualified name, or a simple name that leads to exactly one qualified name; letter case matters only
        // when it tells names apart.
        let exact = |n: &str, f: &FunctionMeta| f.qualified == n || f.name == n;
        let folded = |n: &str, f: &FunctionMeta| f.qualified.eq_ignore_ascii_case(n) || f.name.eq_ignore_ascii_case(n);
        let qualified = if index.iter().any(|f| f.qualified == name) {
            name.to_string()
        } else {
            let matcher = if index.iter().any(|f| exact(name, f)) { exact } else { folded };
            let mut candidates: Vec<String> = Vec::new();
            for f in index.iter().filter(|f| matcher(name, f)) {
                if !candidates.contains(&f.qualified) {
                    candidates.push(f.qualified.clone());
                }
            }
            match candidates.len() {
                1 => candidates.remove(0),
                0 => {
                    let names = qualified_names(&index);
                    let mut suggestions = closest(name, names.iter().map(String::as_str), 8);
                    if suggestions.is_empty() {
                        suggestions = names;
                        by_similarity(&[name], &mut suggestions, |n| n.as_str());
                    }
                    return Err(LookupError::UnknownFunction { path: norm, name: echo(name), suggestions });
                }
                _ => {
                    // Each candidate with the lines it serves (a getter/setter pair: from the first to the last).
                    let candidates = candidates
                        .iter()
                        .map(|q| {
                            let all = index.iter().filter(|f| &f.qualified == q);
                            let start = all.clone().map(|f| f.start_line).min().unwrap_or(0);
                            let end = all.map(|f| f.end_line).max().unwrap_or(0);
                            format!("{q} (lines {start}–{end})")
                        })
                        .collect();
                    return Err(LookupError::AmbiguousFunction { path: norm, name: echo(name), candidates });
                }
            }
        };
        // A getter and its setter (or overloads) share a qualified name: serve them together, as the one exact span
        // from the first to the last.
        let all: Vec<&FunctionMeta> = index.iter().filter(|f| f.qualified == qualified).collect();
        let (Some(first), Some(last)) = (all.first(), all.iter().max_by_key(|f| f.end_byte)) else {
            return Err(LookupError::NoFunctions { path: norm });
        };
        let merged = FunctionMeta {
            kind: FunctionKinds(all.iter().flat_map(|f| f.kind.0.iter().cloned()).collect()),
            end_line: last.end_line,
            end_byte: last.end_byte,
            tokens: all.iter().map(|f| f.tokens).sum(),
            ..(*first).clone()
        };
        let text = self.text(&bundle, &keys::file(&norm))?;
        let (start, end) = (merged.start_byte as usize, merged.end_byte as usize);
        if text.get(start..end).is_none() {
            let what = format!("function `{}` span", merged.qualified);
            return Err(BundleError::Corrupt { path: bundle.path().to_string(), what }.into());
        }
        let file_key = keys::file(&norm);
        let request = Request::Function { path: norm.clone(), qualified: merged.qualified.clone() };
        // Echoed: in the header, the continuation and its cursor, the JSON.
        let paging = self.echoing(paging, &[(norm.as_str(), 5), (merged.qualified.as_str(), 5)]);
        let (part, next_cursor) = self.part(&request, &text, (&bundle, &file_key), &[(start, end)], &[], paging)?;
        Ok(FunctionView {
            served: self.served(),
            path: norm,
            function: merged,
            text: part.text.clone(),
            part,
            next_cursor,
        })
    }

    /// Why the set in `dir` is not what its manifest pins, or `None` when it is: the manifest opens and its frames
    /// decode, and every bundle it lists has the size and whole-file checksum the manifest records (read and
    /// hashed, ~2 ms for Semi's 2.4 MB; their frames are not decompressed: [`BundleSet::verify`] is the full
    /// check, which a whole-file checksum already settles for their bytes). What a rebuild or an install of the
    /// same build checks before keeping a published generation (trials 7 and 8: a truncated bundle, then one with
    /// a byte flipped in the middle, was kept and the build said nothing was written). The reason names the
    /// damaged file, every one when several are (a rebuild's `repaired:` line named 1 of 4).
    pub fn damage(dir: &Path) -> Option<String> {
        let check = || -> Result<Vec<String>, LookupError> {
            let set = BundleSet::open(dir)?;
            set.manifest_bundle.check_all()?;
            let bundles = &set.manifest()?.bundles;
            let damaged: Vec<(&str, String)> = bundles
                .iter()
                .filter_map(|b| set.check_file(b).err().map(|e| (b.name.as_str(), e.to_string())))
                .collect();
            Ok(match damaged.as_slice() {
                [] => vec![],
                [(_, one)] => vec![one.clone()],
                // Every name, one reason: the paths and advice repeated per file made a line of kilobytes.
                [(_, first), ..] => {
                    let names: Vec<&str> = damaged.iter().map(|(n, _)| *n).collect();
                    vec![format!(
                        "{} of {} bundles: {}; the first: {first}",
                        names.len(),
                        bundles.len(),
                        names.join(", ")
                    )]
                }
            })
        };
        match check() {
            Ok(damaged) => damaged.into_iter().next(),
            Err(e) => Some(e.to_string()),
        }
    }

    /// Recomputes the checksum of every bundle file against the manifest and decompresses every frame. Returns
    /// `(bundles, frames)` checked.
    ///
    /// # Errors
    /// The first missing, resized or damaged bundle (see [`BundleSet::verify_all`] for every one).
    pub fn verify(&self) -> Result<(usize, usize), LookupError> {
        let mut checked = self.verify_all()?;
        match checked.damaged.is_empty() {
            true => Ok((checked.bundles, checked.frames)),
            false => Err(checked.damaged.remove(0)),
        }
    }

    /// [`BundleSet::verify`] of every bundle, going on past a damaged one: what `verify` on the command line lists.
    ///
    /// # Errors
    /// When the manifest cannot be read or its frames disagree with it (then no bundle can be checked).
    pub fn verify_all(&self) -> Result<Verified, LookupError> {
        let m = self.manifest()?;
        self.check_manifest_frames(m)?;
        let mut checked = Verified { bundles: m.bundles.len(), frames: 0, damaged: Vec::new() };
        for b in &m.bundles {
            // The search index's dictionary too: an fst damaged inside passes every checksum (issue 26 §3).
            let searched = m.search.as_ref().is_some_and(|s| s.bundle == b.name);
            let checked_one = self.verify_bundle(b).and_then(|frames| {
                if searched {
                    self.search_index()?.check()?;
                }
                Ok(frames)
            });
            match checked_one {
                Ok(frames) => checked.frames += frames,
                Err(e) => checked.damaged.push(e),
            }
        }
        Ok(checked)
    }

    /// One bundle file against its manifest entry: size, whole-file checksum ([`BundleSet::check_file`]), every
    /// frame decoded. Returns the frames checked.
    fn verify_bundle(&self, b: &crate::model::BundleFile) -> Result<usize, LookupError> {
        let path = self.check_file(b)?;
        Ok(Bundle::open(&path)?.check_all()?)
    }

    /// One bundle file's bytes against its manifest entry: its size, then its whole-file checksum. Returns its path.
    fn check_file(&self, b: &crate::model::BundleFile) -> Result<PathBuf, LookupError> {
        let path = self.pinned.join(&b.name);
        let bytes =
            std::fs::read(&path).map_err(|error| BundleError::Io { path: path.display().to_string(), error })?;
        let p = path.display().to_string();
        if bytes.len() as u64 != b.bytes {
            return Err(BundleError::Truncated {
                path: p,
                what: format!("{} bytes, the manifest says {}", bytes.len(), b.bytes),
            }
            .into());
        }
        if xxhash_rust::xxh3::xxh3_64(&bytes) != b.xxh3 {
            return Err(BundleError::ChecksumMismatch { path: p, what: "whole file".into() }.into());
        }
        Ok(path)
    }

    /// Checks that the head and every `entry/<key>` frame of `manifest.bundle` say what the whole manifest `m`
    /// says (a writer's promise; `verify` holds it to it).
    fn check_manifest_frames(&self, m: &Manifest) -> Result<(), LookupError> {
        let path = || self.manifest_bundle.path().to_string();
        if self.manifest != m.head() {
            return Err(
                BundleError::Corrupt { path: path(), what: "head (it differs from the manifest)".into() }.into()
            );
        }
        let entries = self.manifest_bundle.keys().filter(|k| k.starts_with("entry/")).count();
        if entries != m.components.len() {
            let what = format!("entries ({entries} for {} components)", m.components.len());
            return Err(BundleError::Corrupt { path: path(), what }.into());
        }
        for want in m.lookups() {
            let key = keys::entry(&want.entry.key);
            let got: ComponentLookup = self.manifest_bundle.get(&key)?;
            if got != want {
                return Err(BundleError::Corrupt {
                    path: path(),
                    what: format!("frame `{key}` (it differs from the manifest)"),
                }
                .into());
            }
        }
        Ok(())
    }
}
