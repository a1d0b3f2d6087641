//! The lookup errors ([`LookupError`]) and the diagnosis of a directory that holds no set ([`no_bundles`]).

use std::path::{Path, PathBuf};

use crate::budget::BudgetError;
use crate::bundle::BundleError;

use super::names::{entries, first_names, suggest};

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
        format!(
            "; it has {}: {}",
            entries(*known, *guides),
            first_names(first, (known + guides) as usize, "`components` (`--guides`), MCP: list_components")
        )
    } else {
        suggest(suggestions)
    })]
    UnknownComponent {
        /// How many components there are (guides apart).
        known: u32,
        /// How many guides there are (pages named as components are, listed apart).
        guides: u32,
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
    /// An empty language (`--lang ''`, `lang=""`): named apart, as no language is no language tag at all.
    #[error(
        "the language asked for is empty: name one of this set's languages, {available}, or leave it out for {default}"
    )]
    EmptyLang {
        /// Languages present.
        available: String,
        /// The set's default language.
        default: String,
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
    /// No prop of that name in the component's tables.
    #[error("`{component}` has no prop `{prop}`; nearest of its {known}: {}", nearest.join(", "))]
    UnknownProp {
        /// Component.
        component: String,
        /// Prop asked for, as written.
        prop: String,
        /// How many props the tables searched have.
        known: usize,
        /// The nearest prop names (the first ones when none is near).
        nearest: Vec<String>,
    },
    /// A prop path goes on past a prop whose type names no stored props table.
    #[error(
        "`{component}.{prop}` is of type `{types}`, which names no props table stored for {component}: ask for \
         `{prop}` alone"
    )]
    NotNested {
        /// Component.
        component: String,
        /// The prop whose type was followed.
        prop: String,
        /// Its type(s), as written.
        types: String,
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
    /// A design token query or value longer than `MAX_TOKEN_QUERY_BYTES` (128; `read/lookups/design_tokens.rs`):
    /// refused, as its echo in the answer's header would not fit a small budget (a trial's 40 KB answer at 300).
    #[error(
        "the design token query is {bytes} bytes, over the {max}-byte limit: name a token, a prefix or a value (a \
         colour, a length) in a few characters"
    )]
    TokenQueryTooLong {
        /// Bytes of the query.
        bytes: usize,
        /// The limit.
        max: usize,
    },
    /// A `token-for` value that is no colour, length or duration (or is empty): nothing can have it as its value.
    #[error(
        "{} is not a value `token-for` reads: give one colour (`#1677ff`, `rgb(22, 119, 255)`, `hsl()`, a CSS colour \
         name), length (`12px`, `0.75rem`, `0`) or duration (`200ms`, `.3s`); tokens by name: `tokens NAME` (MCP \
         `search_docs(query=\"NAME\", kind=\"token\")`)",
        if value.is_empty() { "an empty value".to_string() } else { format!("`{value}`") }
    )]
    NotATokenValue {
        /// The value asked, echoed.
        value: String,
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
    /// A `context` call naming no component or more than it takes.
    #[error("context takes 1 to {max} components; {asked} named (repeats count once)")]
    ContextCount {
        /// Distinct components named.
        asked: usize,
        /// The most it takes.
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

pub(super) fn join_dirs(dirs: &[PathBuf]) -> String {
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
