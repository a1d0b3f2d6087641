//! The reader half: finds a bundle set, opens bundles by memory map on first use, and answers each lookup by
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

use crate::bundle::{Bundle, BundleError};
use crate::model::*;
use crate::view::{fetch_hint, placeholder_view};

/// Why a lookup failed. Every message says what exists or what to do.
#[derive(Debug, thiserror::Error)]
pub enum LookupError {
    /// No bundle set where one was expected.
    #[error("no bundles in {dir}: run `mydesign-docs build` first, or pass --bundles DIR")]
    NoBundles {
        /// Directory searched.
        dir: String,
    },
    /// Several systems and none chosen, or an unknown one.
    #[error("{message}")]
    System {
        /// What is wrong and which systems exist.
        message: String,
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
        format!("; it has {known} components: list them with `components` (MCP: list_components)")
    } else {
        suggest(suggestions)
    })]
    UnknownComponent {
        /// How many components there are.
        known: usize,
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
        /// Page asked for.
        page: u32,
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
    #[error("no file `{path}` in {system} {version}{}", suggest(suggestions))]
    UnknownPath {
        /// Path asked for.
        path: String,
        /// System.
        system: String,
        /// Version.
        version: String,
        /// Closest paths.
        suggestions: Vec<String>,
    },
    /// The file has no function index (not a source, or none found).
    #[error("`{path}` has no function index: it is not a .ts/.tsx/.js/.jsx source or has no named functions")]
    NoFunctions {
        /// Path.
        path: String,
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
        /// Qualified names that match.
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
    /// A damaged bundle.
    #[error(transparent)]
    Bundle(#[from] BundleError),
}

/// Longest name, path or query part looked up by similarity, in chars; longer ones are echoed shortened.
pub const MAX_NAME_CHARS: usize = 256;

/// `s` for an error message: at most 80 chars, with `…` when cut (a 1 MB argument is not echoed back).
fn echo(s: &str) -> String {
    if s.chars().count() <= 80 { s.to_string() } else { format!("{}…", s.chars().take(79).collect::<String>()) }
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
        if !q.is_empty() && (l.contains(&q) || q.contains(l)) { 1.0 + sim } else { sim }
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

/// Which system and version a response came from; every view carries one.
#[derive(Clone, Debug, Serialize, PartialEq, Eq, JsonSchema)]
pub struct Served {
    /// Design-system name.
    pub system: String,
    /// Version actually served.
    pub version: String,
}

/// `components`: the list.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ComponentsView {
    /// Source of the answer.
    #[serde(flatten)]
    pub served: Served,
    /// Language of the sizes reported.
    pub lang: String,
    /// One row per component, sorted by key.
    pub components: Vec<ComponentRow>,
    /// Whether a changelog is available (`changelog` lookups).
    pub changelog_pages: Option<u32>,
    /// Files of shared folders that are no component (listed by `files _shared`).
    pub shared_files: u32,
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
    /// Whether code blocks were replaced by placeholders (document over the threshold, not `--full`).
    pub hidden: bool,
    /// The threshold in lines.
    pub threshold: u32,
    /// Tokens of `text`.
    pub tokens: u32,
    /// Tokens of the whole document.
    pub full_tokens: u32,
    /// The text served.
    pub text: String,
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
    /// Exact source of the block, fences included.
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
    /// Tokens of `text`.
    pub tokens: u32,
    /// Previous page number (newer entries), if any.
    pub previous: Option<u32>,
    /// Next page number (older entries), if any.
    pub next: Option<u32>,
    /// Versions whose release heading is on this page, newest first.
    pub releases: Vec<String>,
    /// The page text.
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
    /// Files, sorted by path.
    pub files: Vec<FileMeta>,
}

/// `file`: one file, as its skeleton or whole.
#[derive(Debug, Serialize, JsonSchema)]
pub struct FileView {
    /// Source of the answer.
    #[serde(flatten)]
    pub served: Served,
    /// The file's metadata.
    pub file: FileMeta,
    /// True when `text` is the skeleton (function bodies replaced by `{ ... }`).
    pub skeleton: bool,
    /// The threshold in lines for skeletons.
    pub threshold: u32,
    /// Tokens of `text`.
    pub tokens: u32,
    /// Qualified names of the file's functions, each once, to fetch with `function` (empty for other files).
    pub functions: Vec<String>,
    /// The text served.
    pub text: String,
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
    /// The source text, exactly as in the file.
    pub text: String,
}

/// An open bundle set: its manifest, and its bundles opened lazily and kept mapped.
pub struct BundleSet {
    dir: PathBuf,
    manifest: Manifest,
    open: Mutex<HashMap<String, Arc<Bundle>>>,
    /// Decoded `component` frames: small, and read by nearly every lookup of a long-running server.
    metas: Mutex<HashMap<String, Arc<ComponentMeta>>>,
    /// Recently decoded documents and files (code blocks and functions are slices of them), so that a server asked
    /// for several blocks of one document decodes it once.
    texts: Mutex<TextCache>,
    /// The decoded `changelog` frame (pages and releases of every language), read by every changelog lookup.
    changelog: Mutex<Option<Arc<ChangelogMeta>>>,
    /// The search index, opened by the first search and kept (`crate::search::query`).
    pub(crate) search: Mutex<Option<Arc<crate::search::query::SearchIndex>>>,
}

/// Decoded text frames, oldest first, at most [`TEXT_CACHE_BYTES`] of text in all.
#[derive(Default)]
struct TextCache {
    entries: std::collections::VecDeque<(String, Arc<String>)>,
    bytes: usize,
}

/// Bound of [`TextCache`], in bytes of text: about 20 of Semi's largest documents.
const TEXT_CACHE_BYTES: usize = 4 << 20;

/// Every bundle set found in one or more directories, each opened on first use: what `serve` and the lookups
/// choose from. Several systems and versions can sit side by side.
pub struct Library {
    dirs: Vec<PathBuf>,
    /// `(system, version, directory)`, sorted by system then version (ascending).
    entries: Vec<(String, String, PathBuf)>,
    open: Mutex<HashMap<PathBuf, Arc<BundleSet>>>,
}

impl Library {
    /// Lists the bundle sets in `dirs`: each directory is a set itself (it holds `manifest.bundle`) or holds
    /// `<system>@<version>/` sets. Only directory names are read here (and the manifest of a directory that is a set).
    ///
    /// # Errors
    /// [`LookupError::NoBundles`] when no directory holds any set; a damaged manifest of a set given directly.
    pub fn scan(dirs: &[PathBuf]) -> Result<Library, LookupError> {
        let mut entries = Vec::new();
        let mut open = HashMap::new();
        for dir in dirs {
            if dir.join("manifest.bundle").is_file() {
                let set = BundleSet::open(dir)?;
                entries.push((set.manifest.system.clone(), set.manifest.version.clone(), dir.clone()));
                open.insert(dir.clone(), Arc::new(set));
                continue;
            }
            let Ok(read) = std::fs::read_dir(dir) else { continue };
            for e in read.filter_map(|e| e.ok()) {
                let name = e.file_name().to_string_lossy().into_owned();
                let Some((s, v)) = name.split_once('@') else { continue };
                if !name.starts_with('.') && e.path().join("manifest.bundle").is_file() {
                    entries.push((s.to_string(), v.to_string(), e.path()));
                }
            }
        }
        if entries.is_empty() {
            return Err(LookupError::NoBundles { dir: join_dirs(dirs) });
        }
        entries.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| version_cmp(&a.1, &b.1)));
        entries.dedup_by(|a, b| a.0 == b.0 && a.1 == b.1);
        Ok(Library { dirs: dirs.to_vec(), entries, open: Mutex::new(open) })
    }

    /// Systems and their versions (ascending), for lists and error messages.
    pub fn systems(&self) -> Vec<(String, Vec<String>)> {
        let mut out: Vec<(String, Vec<String>)> = Vec::new();
        for (s, v, _) in &self.entries {
            match out.last_mut() {
                Some((last, versions)) if last == s => versions.push(v.clone()),
                _ => out.push((s.clone(), vec![v.clone()])),
            }
        }
        out
    }

    /// The set of `system` (required when there are several) at `version` (default: the highest present).
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
                    message: format!("no system `{want}` in {where_}; available: {}", names.join(", ")),
                })?
            }
            None if systems.len() == 1 => &systems[0],
            None => {
                return Err(LookupError::System {
                    message: format!(
                        "{where_} holds several systems ({}); choose one with --system (`system` in MCP tools)",
                        names.join(", ")
                    ),
                });
            }
        };
        let version = match version.map(str::trim).filter(|v| !v.eq_ignore_ascii_case("latest") && !v.is_empty()) {
            Some(v) => versions.iter().find(|x| x.as_str() == v.trim_start_matches('v')).ok_or_else(|| {
                LookupError::UnknownVersion {
                    system: system.clone(),
                    version: v.to_string(),
                    dir: where_.clone(),
                    available: versions.join(", "),
                }
            })?,
            None => versions.last().ok_or_else(|| LookupError::NoBundles { dir: where_.clone() })?,
        };
        let dir = self
            .entries
            .iter()
            .find(|(s, v, _)| s == system && v == version)
            .map(|(_, _, d)| d.clone())
            .ok_or_else(|| LookupError::NoBundles { dir: where_.clone() })?;
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(set) = open.get(&dir) {
            return Ok(set.clone());
        }
        let set = Arc::new(BundleSet::open(&dir)?);
        open.insert(dir, set.clone());
        Ok(set)
    }
}

/// Qualified names of a function index, each once (a getter and its setter share one), in source order.
fn qualified_names(index: &[FunctionMeta]) -> Vec<String> {
    let mut seen = std::collections::HashSet::new();
    index.iter().filter(|f| seen.insert(f.qualified.as_str())).map(|f| f.qualified.clone()).collect()
}

fn join_dirs(dirs: &[PathBuf]) -> String {
    dirs.iter().map(|d| d.display().to_string()).collect::<Vec<_>>().join(", ")
}

/// Splits `changelog` / `changelog-N` (Semi's addressing) into a page number.
pub fn changelog_page_name(name: &str) -> Option<Option<u32>> {
    let rest = name.trim().to_ascii_lowercase();
    let rest = rest.strip_prefix("changelog")?;
    if rest.is_empty() {
        return Some(None);
    }
    // A page number too large for u32 is still a page request (and out of range), not a component name.
    rest.strip_prefix('-').and_then(|n| n.parse::<u64>().ok()).map(|n| Some(u32::try_from(n).unwrap_or(u32::MAX)))
}

/// Compares versions numerically part by part (`2.10.0` > `2.9.1`), falling back to text.
fn version_cmp(a: &str, b: &str) -> std::cmp::Ordering {
    let parts = |v: &str| -> Vec<u64> {
        v.split(|c: char| !c.is_ascii_digit()).filter(|p| !p.is_empty()).filter_map(|p| p.parse().ok()).collect()
    };
    parts(a).cmp(&parts(b)).then_with(|| a.cmp(b))
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
        let path = dir.join("manifest.bundle");
        if !path.is_file() {
            return Err(LookupError::NoBundles { dir: dir.display().to_string() });
        }
        let manifest: Manifest = Bundle::open(&path)?.get(keys::MANIFEST)?;
        Ok(BundleSet {
            dir: dir.to_path_buf(),
            manifest,
            open: Mutex::new(HashMap::new()),
            metas: Mutex::new(HashMap::new()),
            texts: Mutex::new(TextCache::default()),
            changelog: Mutex::new(None),
            search: Mutex::new(None),
        })
    }

    /// The manifest.
    pub fn manifest(&self) -> &Manifest {
        &self.manifest
    }

    /// The directory of the set.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    pub(crate) fn served(&self) -> Served {
        Served { system: self.manifest.system.clone(), version: self.manifest.version.clone() }
    }

    pub(crate) fn bundle(&self, file: &str) -> Result<Arc<Bundle>, LookupError> {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(b) = open.get(file) {
            return Ok(b.clone());
        }
        let b = Arc::new(Bundle::open(&self.dir.join(file))?);
        open.insert(file.to_string(), b.clone());
        Ok(b)
    }

    /// The text frame `key` of `bundle`, from the cache or decoded (and cached).
    pub(crate) fn text(&self, bundle: &Bundle, key: &str) -> Result<Arc<String>, LookupError> {
        let id = format!("{}\0{key}", bundle.path());
        let lock = || self.texts.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, text)) = lock().entries.iter().find(|(k, _)| *k == id) {
            return Ok(text.clone());
        }
        let text: Arc<String> = Arc::new(bundle.get(key)?);
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
    pub fn component(&self, name: &str) -> Result<&ComponentEntry, LookupError> {
        if let Some(shared) = self.manifest.shared.as_ref().filter(|s| name.trim() == s.key) {
            return Ok(shared);
        }
        let key = component_key(name);
        let comps = &self.manifest.components;
        comps.binary_search_by(|c| c.key.as_str().cmp(&key)).map(|i| &comps[i]).map_err(|_| {
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
                    by_title
                },
                known: comps.len(),
            }
        })
    }

    /// The component frame of `name`.
    ///
    /// # Errors
    /// Unknown component or a damaged bundle.
    pub fn component_meta(&self, name: &str) -> Result<(Arc<Bundle>, Arc<ComponentMeta>), LookupError> {
        let entry = self.component(name)?;
        let bundle = self.bundle(&entry.bundle)?;
        if let Some(meta) = self.metas.lock().unwrap_or_else(|e| e.into_inner()).get(&entry.key) {
            return Ok((bundle, meta.clone()));
        }
        let meta: Arc<ComponentMeta> = Arc::new(bundle.get(keys::COMPONENT)?);
        self.metas.lock().unwrap_or_else(|e| e.into_inner()).insert(entry.key.clone(), meta.clone());
        Ok((bundle, meta))
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
                lang: want.to_string(),
                available: if meta.docs.is_empty() {
                    "none (the component has only sources; see `files`)".into()
                } else {
                    meta.docs.iter().map(|d| d.lang.as_str()).collect::<Vec<_>>().join(", ")
                },
            }),
        }
    }

    /// All components, with sizes of their documents in `lang` (default language when `None`).
    ///
    /// # Errors
    /// [`LookupError::UnknownLang`] for a language the set does not have.
    pub fn components(&self, lang: Option<&str>) -> Result<ComponentsView, LookupError> {
        let lang = self.lang(lang);
        let lang = lang.as_deref();
        let langs = &self.manifest.langs;
        let lang = match lang {
            None => self.manifest.default_lang.clone(),
            Some(l) => langs
                .iter()
                .find(|x| x.eq_ignore_ascii_case(l))
                .cloned()
                .ok_or_else(|| LookupError::UnknownLang { lang: l.to_string(), available: langs.join(", ") })?,
        };
        let components = self
            .manifest
            .components
            .iter()
            .map(|c| {
                let doc = c.docs.iter().find(|d| d.lang.eq_ignore_ascii_case(&lang));
                ComponentRow {
                    name: c.name.clone(),
                    title: c.title.clone(),
                    brief: c.brief.clone(),
                    langs: c.docs.iter().map(|d| d.lang.clone()).collect(),
                    tokens: doc.map_or(0, |d| d.view_tokens),
                    code_blocks: doc.map_or(0, |d| d.code_blocks),
                    files: c.files,
                }
            })
            .collect();
        let changelog_pages = self
            .manifest
            .changelog
            .as_ref()
            .and_then(|c| c.langs.iter().find(|l| l.lang.eq_ignore_ascii_case(&lang)).or(c.langs.first()))
            .map(|l| l.pages);
        let shared_files = self.manifest.shared.as_ref().map_or(0, |s| s.files);
        Ok(ComponentsView { served: self.served(), lang, components, changelog_pages, shared_files })
    }

    /// The document of `name`: the placeholder view when it is over the threshold, unless `full`.
    ///
    /// # Errors
    /// Unknown component, no document in that language, damaged bundle.
    pub fn doc(&self, name: &str, lang: Option<&str>, full: bool) -> Result<DocView, LookupError> {
        let (bundle, meta) = self.component_meta(name)?;
        let doc = self.pick_doc(&meta, lang)?;
        let hidden = doc.hidden && !full;
        let whole = self.text(&bundle, &keys::doc(&doc.lang))?;
        let text = if hidden {
            let default_lang = &self.manifest.default_lang;
            let hint = |b: &CodeBlockMeta| fetch_hint(&meta.key, &doc.lang, default_lang, b.index);
            placeholder_view(&whole, &doc.code_blocks, &hint)
        } else {
            whole.to_string()
        };
        Ok(DocView {
            served: self.served(),
            component: meta.name.clone(),
            lang: doc.lang.clone(),
            path: doc.path.clone(),
            title: doc.title.clone(),
            lines: doc.lines,
            code_blocks: doc.code_blocks.len() as u32,
            hidden,
            threshold: self.manifest.thresholds.doc_hide_lines,
            tokens: if hidden { doc.view_tokens } else { doc.tokens },
            full_tokens: doc.tokens,
            text,
        })
    }

    /// Code block `index` (1-based) of `name`'s document.
    ///
    /// # Errors
    /// Unknown component, no document in that language, index out of range (naming `1..N`), damaged bundle.
    pub fn code_block(&self, name: &str, index: u32, lang: Option<&str>) -> Result<CodeBlockView, LookupError> {
        let (bundle, meta) = self.component_meta(name)?;
        let doc = self.pick_doc(&meta, lang)?;
        let count = doc.code_blocks.len() as u32;
        if count == 0 {
            return Err(LookupError::NoBlocks { component: meta.name.clone(), lang: doc.lang.clone() });
        }
        let block = index.checked_sub(1).and_then(|i| doc.code_blocks.get(i as usize)).ok_or_else(|| {
            LookupError::BlockOutOfRange { component: meta.name.clone(), lang: doc.lang.clone(), index, count }
        })?;
        let whole = self.text(&bundle, &keys::doc(&doc.lang))?;
        let text =
            whole.get(block.start_byte as usize..block.end_byte as usize).map(str::to_string).ok_or_else(|| {
                BundleError::Corrupt { path: bundle.path().to_string(), what: format!("code block {index} span") }
            })?;
        Ok(CodeBlockView {
            served: self.served(),
            component: meta.name.clone(),
            lang: doc.lang.clone(),
            block: block.clone(),
            count,
            text,
        })
    }

    /// Changelog page `page` (1-based, 1 = newest; default 1) in `lang`.
    ///
    /// # Errors
    /// No changelog (in that language), page out of range (naming `1..T`), damaged bundle.
    pub fn changelog(&self, page: Option<u32>, lang: Option<&str>) -> Result<ChangelogView, LookupError> {
        let lang = self.lang(lang);
        let lang = lang.as_deref();
        let want = lang.unwrap_or(&self.manifest.default_lang);
        let no_changelog = |available: String| LookupError::NoChangelog {
            system: self.manifest.system.clone(),
            version: self.manifest.version.clone(),
            lang: want.to_string(),
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
        let text = bundle.get(&keys::page(&summary.lang, page))?;
        Ok(ChangelogView {
            served: self.served(),
            lang: summary.lang.clone(),
            page,
            pages: summary.pages,
            start_line: p.start_line,
            end_line: p.end_line,
            total_lines: summary.lines,
            page_lines: self.manifest.thresholds.changelog_page_lines,
            tokens: p.tokens,
            previous: (page > 1).then(|| page - 1),
            next: (page < summary.pages).then(|| page + 1),
            releases: lang_meta
                .releases
                .iter()
                .filter(|r| (p.start_line..=p.end_line).contains(&r.start_line))
                .map(|r| r.version.clone())
                .collect(),
            text,
        })
    }

    /// The files of component `name`.
    ///
    /// # Errors
    /// Unknown component, damaged bundle.
    pub fn files(&self, name: &str) -> Result<FilesView, LookupError> {
        let (_, meta) = self.component_meta(name)?;
        Ok(FilesView { served: self.served(), component: meta.name.clone(), files: meta.files.clone() })
    }

    /// Normalizes a requested path (`./a`, `a\b`) and finds the component storing it. Requested paths are only
    /// ever compared with the manifest's list, never joined to a directory, so `../` cannot escape.
    fn locate(&self, path: &str) -> Result<(String, Arc<Bundle>, FileMeta), LookupError> {
        let norm = path.trim().replace('\\', "/");
        let norm = norm.trim_start_matches("./").to_string();
        let files = &self.manifest.files;
        let owner = files.binary_search_by(|f| f.path.as_str().cmp(&norm)).map(|i| &files[i]).map_err(|_| {
            // Agents often pass a partial path: suggest the paths it ends, then the files of that name.
            let lower = norm.to_lowercase();
            let base = lower.rsplit('/').next().unwrap_or(&lower).to_string();
            let ends = |suffix: &str| -> Vec<String> {
                files
                    .iter()
                    .filter(|f| !suffix.is_empty() && f.path.to_lowercase().ends_with(suffix))
                    .map(|f| f.path.clone())
                    .take(5)
                    .collect()
            };
            let mut by_name = ends(&format!("/{lower}"));
            if by_name.is_empty() {
                by_name = ends(&base);
            }
            if by_name.is_empty() {
                by_name = closest(&norm, files.iter().map(|f| f.path.as_str()), 5);
            }
            LookupError::UnknownPath {
                path: echo(path),
                system: self.manifest.system.clone(),
                version: self.manifest.version.clone(),
                suggestions: by_name,
            }
        })?;
        let (bundle, meta) = self.component_meta(&owner.component)?;
        let file = meta.files.iter().find(|f| f.path == norm).cloned().ok_or_else(|| BundleError::Corrupt {
            path: bundle.path().to_string(),
            what: format!("file list (no `{norm}`)"),
        })?;
        Ok((norm, bundle, file))
    }

    /// File `path`: its skeleton when it has one, unless `full`; binary files have no text.
    ///
    /// # Errors
    /// Unknown path (with suggestions), damaged bundle.
    pub fn file(&self, path: &str, full: bool) -> Result<FileView, LookupError> {
        let (norm, bundle, file) = self.locate(path)?;
        let skeleton = !full && file.skeleton.is_some();
        let (text, tokens) = match (&file.kind, skeleton) {
            (FileKind::Binary, _) => (String::new(), 0),
            (_, true) => (
                self.text(&bundle, &keys::skeleton(&norm))?.to_string(),
                file.skeleton.as_ref().map_or(0, |s| s.tokens),
            ),
            (_, false) => (self.text(&bundle, &keys::file(&norm))?.to_string(), file.tokens),
        };
        let functions = if file.kind == FileKind::Source {
            qualified_names(&bundle.get::<Vec<FunctionMeta>>(&keys::functions(&norm))?)
        } else {
            vec![]
        };
        Ok(FileView {
            served: self.served(),
            file,
            skeleton,
            threshold: self.manifest.thresholds.skeleton_min_lines,
            tokens,
            functions,
            text,
        })
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
        let index = bundle.get(&keys::functions(&norm))?;
        Ok((norm, bundle, index))
    }

    /// Function `name` of file `path`: matched by qualified name (`Table.render`), else by a unique simple name.
    ///
    /// # Errors
    /// Unknown path, no function index, unknown name (listing the closest names), an ambiguous simple name
    /// (listing the qualified ones), damaged bundle.
    pub fn function(&self, path: &str, name: &str) -> Result<FunctionView, LookupError> {
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
            let mut candidates: Vec<String> =
                index.iter().filter(|f| matcher(name, f)).map(|f| f.qualified.clone()).collect();
            candidates.dedup();
            match candidates.len() {
                1 => candidates.remove(0),
                0 => {
                    let names = qualified_names(&index);
                    let mut suggestions = closest(name, names.iter().map(String::as_str), 8);
                    if suggestions.is_empty() {
                        suggestions = names;
                    }
                    return Err(LookupError::UnknownFunction { path: norm, name: echo(name), suggestions });
                }
                _ => return Err(LookupError::AmbiguousFunction { path: norm, name: echo(name), candidates }),
            }
        };
        // A getter and its setter (or overloads) share a qualified name: serve them together, as the one exact span
        // from the first to the last.
        let all: Vec<&FunctionMeta> = index.iter().filter(|f| f.qualified == qualified).collect();
        let (Some(first), Some(last)) = (all.first(), all.iter().max_by_key(|f| f.end_byte)) else {
            return Err(LookupError::NoFunctions { path: norm });
        };
        let merged = FunctionMeta {
            kind: all.iter().map(|f| f.kind.as_str()).collect::<Vec<_>>().join("+"),
            end_line: last.end_line,
            end_byte: last.end_byte,
            tokens: all.iter().map(|f| f.tokens).sum(),
            ..(*first).clone()
        };
        let chosen = &merged;
        let text = self.text(&bundle, &keys::file(&norm))?;
        let body =
            text.get(chosen.start_byte as usize..chosen.end_byte as usize).ok_or_else(|| BundleError::Corrupt {
                path: bundle.path().to_string(),
                what: format!("function `{}` span", chosen.qualified),
            })?;
        Ok(FunctionView { served: self.served(), path: norm, function: chosen.clone(), text: body.to_string() })
    }

    /// Recomputes the checksum of every bundle file against the manifest and decompresses every frame. Returns
    /// `(bundles, frames)` checked.
    ///
    /// # Errors
    /// The first missing, resized or damaged bundle.
    pub fn verify(&self) -> Result<(usize, usize), LookupError> {
        let mut frames = 0;
        for b in &self.manifest.bundles {
            let path = self.dir.join(&b.name);
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
            frames += Bundle::open(&path)?.check_all()?;
        }
        Ok((self.manifest.bundles.len(), frames))
    }
}
