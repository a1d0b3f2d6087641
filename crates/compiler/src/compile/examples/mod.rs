//! Examples wherever they live (issue 25): a document's references to example files are resolved through one
//! table of rules ([`rules`]) and expanded into the document the compiler stores, each example a fenced code block
//! in document order (the file's code, or a demo Markdown file's fence, byte for byte) marked with its file
//! (`CodeBlockMeta::demo`). Also the site's own syntax: placeholder lines (`%%Content%%` stands for the sibling
//! `__demo__/*.md` files in front-matter `order`; `%%Props%%`, `:: BASE_DOC ::` are dropped), documentation
//! generator headings (`@##` → `##`) and text-less MDX elements that only the site renders (dropped; the others
//! are counted per name, see [`Expanded::unrecognised`]). `file` still serves the document as written.
//!
//! dumi's `<code src>` stays an element of the document (`markdown::Demo`, read in `emit::load_demos`).

pub mod beside;
pub mod demo_md;
pub mod rules;
pub mod stories;
mod syntax;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;
use std::sync::OnceLock;

use super::cache::{self, Dependency};
use super::markdown;
use super::walk::WalkedFile;
use crate::config::{ExampleRule, WalkConfig};
use crate::model::DemoMeta;

/// The repository as example references see it: the walked files (a reference never leads outside them) and the
/// rules.
pub struct Repo<'a> {
    root: &'a Path,
    files: HashMap<&'a str, &'a WalkedFile>,
    rules: Vec<rules::Compiled>,
    max_bytes: u64,
    /// The components example files may belong to: every name one goes by → its key (the layout's `Layout::names`).
    components: BTreeMap<String, String>,
    /// The repository's story files ([`beside::story_files`]).
    story_files: &'a [WalkedFile],
    /// The story files by component, read on first use (see [`beside::StoryIndex`]).
    stories: OnceLock<beside::StoryIndex>,
    /// `components` as [`crate::model::component_key`]s, made on first use.
    component_keys: OnceLock<BTreeSet<String>>,
}

/// One example expanded into a document.
#[derive(Clone, Debug, PartialEq)]
pub struct Example {
    /// Byte offset of its fence's first line in the expanded text.
    pub at: usize,
    /// Its file, title and description, as the code block stores them.
    pub meta: DemoMeta,
}

/// A problem with one reference, reported as a warning on the document's line.
#[derive(Clone, Debug, PartialEq)]
pub struct Problem {
    /// 1-based line of the document as written.
    pub line: usize,
    /// What went wrong, naming the paths tried.
    pub message: String,
}

/// A document with its examples expanded.
#[derive(Debug, Default)]
pub struct Expanded {
    /// The text to store and serve in the place of the document as written.
    pub text: String,
    /// The examples, in document order.
    pub examples: Vec<Example>,
    /// Every file read or looked for, with its hash (the build cache checks them before reusing the component).
    pub deps: Vec<Dependency>,
    /// References that resolved to nothing.
    pub problems: Vec<Problem>,
    /// MDX/JSX elements alone on a line that no rule knows, by name, with their count (`build --verbose`).
    pub unrecognised: BTreeMap<String, usize>,
    /// Where the document's own lines went: (byte offset of a line of `text`, its 1-based line in the document as
    /// written), in order, for each line copied (or rewritten in place) from it; the examples' lines have none.
    /// Rows of an API table cite the file's line through it, not the expanded text's.
    pub source_lines: Vec<(usize, u32)>,
    changed: bool,
}

/// The 1-based line of the document as written that line `line` (1-based) of its expanded `text` was copied from,
/// by the expansion's [`Expanded::source_lines`]; `None` for a line an example brought.
pub fn source_line(text: &str, source_lines: &[(usize, u32)], line: u32) -> Option<u32> {
    let start = match line {
        0 => return None,
        1 => 0,
        // `line_starts` lists the starts of the lines after the first.
        n => crate::line_index::line_starts(text).nth(n as usize - 2)?,
    };
    let at = source_lines.binary_search_by_key(&start, |&(offset, _)| offset).ok()?;
    Some(source_lines[at].1)
}

impl<'a> Repo<'a> {
    /// The walked files of the repository at `root`, with the configured rules before the built-in ones; example
    /// files with no reference (`story_files`) attach to one of `components` (names → keys).
    pub fn new(
        root: &'a Path,
        walked: &'a [WalkedFile],
        story_files: &'a [WalkedFile],
        configured: &[ExampleRule],
        walk: &WalkConfig,
        components: BTreeMap<String, String>,
    ) -> Repo<'a> {
        Repo {
            root,
            files: walked.iter().map(|f| (f.rel.as_str(), f)).collect(),
            rules: rules::compile(configured),
            max_bytes: walk.max_file_bytes,
            components,
            story_files,
            stories: OnceLock::new(),
            component_keys: OnceLock::new(),
        }
    }

    /// The story files of the repository, read on first use.
    fn stories(&self) -> &beside::StoryIndex {
        self.stories.get_or_init(|| beside::StoryIndex::build(self, self.story_files, &self.components))
    }

    /// The set's components (and guides), as keys in [`crate::model::component_key`] form: what a Vue template's
    /// elements may name (`crate::usage::vue`).
    pub fn component_keys(&self) -> &BTreeSet<String> {
        self.component_keys.get_or_init(|| self.components.values().map(|k| crate::model::component_key(k)).collect())
    }

    /// What reading the story files left out (see [`beside::StoryIndex::problems`]); reads them when no document
    /// did yet, so the build reports them whatever its cache reused.
    pub fn story_problems(&self) -> &[super::diagnostic::Diagnostic] {
        &self.stories().problems
    }

    /// The story files of component `key`, by path.
    pub fn story_files_of(&self, key: &str) -> Vec<&WalkedFile> {
        self.stories().of(key).iter().map(|(f, _)| f).collect()
    }

    /// The component name the first story file of `key` gives (its meta's `component` or `title`).
    pub fn story_component_of(&self, key: &str) -> Option<String> {
        self.stories().of(key).first().map(|(_, s)| s.component.clone())
    }

    /// The walked file `rel`, or `rel` with one of the usual extensions when it names none that exists.
    fn find(&self, rel: &str, tried: &mut Vec<String>) -> Option<&'a WalkedFile> {
        tried.push(rel.to_string());
        if let Some(f) = self.files.get(rel) {
            return Some(f);
        }
        rules::EXTENSIONS.iter().find_map(|ext| self.files.get(format!("{rel}.{ext}").as_str()).copied())
    }

    /// The file a rule's template names for the document `doc_rel`: `./…` and `../…` from the document's folder,
    /// `**/…` the walked file whose path ends so (nearest the document when several do), else from the root.
    fn resolve(&self, doc_rel: &str, template: &str, tried: &mut Vec<String>) -> Option<&'a WalkedFile> {
        if let Some(tail) = template.strip_prefix("**/") {
            tried.push(template.to_string());
            // A bare name (no folder) also matches a file whose stem is the name in another case convention.
            let loose = |stem: &str| !tail.contains('/') && same_name(stem, tail);
            let ends = |rel: &str| {
                rel == tail || rel.ends_with(&format!("/{tail}")) || loose(rel.rsplit('/').next().unwrap_or(rel))
            };
            let mut found: Vec<&WalkedFile> = self
                .files
                .values()
                .copied()
                .filter(|f| {
                    ends(&f.rel)
                        || rules::EXTENSIONS
                            .iter()
                            .any(|ext| ends(f.rel.strip_suffix(&format!(".{ext}")).unwrap_or("")))
                })
                .collect();
            // Nearest the document: the longest shared folder prefix, then the path (a stable choice).
            let shared = |rel: &str| doc_rel.split('/').zip(rel.split('/')).take_while(|(a, b)| a == b).count();
            found.sort_by(|a, b| shared(&b.rel).cmp(&shared(&a.rel)).then(a.rel.cmp(&b.rel)));
            return found.first().copied();
        }
        if template.starts_with("./") || template.starts_with("../") {
            let dir: Vec<&str> = doc_rel.split('/').collect();
            let rel = resolve_relative(&dir[..dir.len() - 1], template)?;
            return self.find(&rel, tried);
        }
        self.find(template.trim_start_matches('/'), tried)
    }

    /// The text of a walked file, BOM dropped; `Err` says why it cannot be used.
    fn read(&self, f: &WalkedFile) -> Result<String, String> {
        if f.bytes > self.max_bytes {
            return Err(format!("{} is {} bytes, over the {}-byte limit", f.rel, f.bytes, self.max_bytes));
        }
        let bytes = std::fs::read(&f.abs).map_err(|e| format!("{} cannot be read ({e})", f.rel))?;
        if bytes[..bytes.len().min(8192)].contains(&0) {
            return Err(format!("{} is a binary file", f.rel));
        }
        String::from_utf8(bytes).map(super::text::strip_bom).map_err(|_| format!("{} is not UTF-8", f.rel))
    }

    /// The example files that belong to the document `doc_rel` with no reference: a single-file component holding
    /// all of a component's demos, `demo/index.vue` beside the document (Vant's shape).
    fn unreferenced(&self, doc_rel: &str) -> Vec<&'a WalkedFile> {
        let dir = doc_rel.rsplit_once('/').map_or("", |(d, _)| d);
        let rel = if dir.is_empty() { "demo/index.vue".to_string() } else { format!("{dir}/demo/index.vue") };
        self.files.get(rel.as_str()).copied().into_iter().collect()
    }

    /// The demo Markdown files of `dir` (a `__demo__` folder), in front-matter `order`, then by path.
    fn demo_folder(&self, dir: &str) -> Vec<&'a WalkedFile> {
        let mut found: Vec<&WalkedFile> = self
            .files
            .values()
            .copied()
            .filter(|f| {
                f.rel
                    .strip_prefix(dir)
                    .and_then(|r| r.strip_prefix('/'))
                    .is_some_and(|n| !n.contains('/') && n.ends_with(".md"))
            })
            .collect();
        found.sort_by(|a, b| a.rel.cmp(&b.rel));
        found
    }
}

/// Expands the examples and site syntax of the document `doc_rel` (`text`, read in `lang`); `None` when it holds
/// none, so the document is stored as written.
///
/// `props` names the props tables the component serves: an `@interface Name` line among them becomes a line
/// pointing to it, any other is dropped with a warning.
pub fn expand(
    repo: &Repo,
    doc_rel: &str,
    text: &str,
    lang: &str,
    syntax: markdown::Syntax,
    props: &[String],
) -> Option<Expanded> {
    let unreferenced = repo.unreferenced(doc_rel);
    if !syntax::may_hold(text, &repo.rules) && unreferenced.is_empty() {
        return None;
    }
    let mut out = expand_lines(repo, doc_rel, text, lang, syntax, props);
    if !unreferenced.is_empty() {
        // Example files no line refers to: appended after the document's own blocks, under "Examples".
        let text = &mut out.text;
        if !text.ends_with('\n') {
            text.push('\n');
        }
        text.push_str("\n## Examples\n\n");
        for f in unreferenced {
            out.deps.push((f.rel.clone(), cache::file_hash(repo.root, &f.rel)));
            let Ok(code) = repo.read(f) else { continue };
            let ext = f.rel.rsplit_once('.').map_or("", |(_, e)| e);
            out.examples.push(Example {
                at: out.text.len(),
                meta: DemoMeta {
                    path: f.rel.clone(),
                    title: None,
                    description: None,
                    description_path: None,
                    debug: false,
                    story: None,
                },
            });
            out.text.push_str(&fence_demo(&code, ext));
            out.text.push_str("\n\n");
        }
        out.changed = true;
    }
    out.changed.then_some(out)
}

fn expand_lines(
    repo: &Repo,
    doc_rel: &str,
    text: &str,
    lang: &str,
    syntax: markdown::Syntax,
    props: &[String],
) -> Expanded {
    if !syntax::may_hold(text, &repo.rules) {
        let source_lines = std::iter::once(0).chain(crate::line_index::line_starts(text)).zip(1..).collect();
        return Expanded { text: text.to_string(), source_lines, ..Expanded::default() };
    }
    let parsed = markdown::parse_as(text, syntax);
    let fences: Vec<(usize, usize)> =
        parsed.code_blocks.iter().map(|b| (b.start_byte as usize, b.end_byte as usize)).collect();
    let mut out = Expanded { text: String::with_capacity(text.len() * 2), ..Expanded::default() };
    let mut changed = false;
    let mut at = 0;
    for (n, line) in text.split_inclusive('\n').enumerate() {
        let start = at;
        at += line.len();
        let body = line.trim_end_matches(['\n', '\r']);
        let newline = &line[body.len()..];
        // Every branch below that writes this line writes it here first (an example follows it, if any).
        out.source_lines.push((out.text.len(), n as u32 + 1));
        if fences.iter().any(|&(s, e)| start >= s && start < e.max(s + 1)) {
            out.text.push_str(line);
            continue;
        }
        let level = parsed.sections.iter().rev().find(|s| (s.start_byte as usize) < start).map_or(1, |s| s.level);
        match syntax::classify(body, &repo.rules) {
            syntax::Line::Text => out.text.push_str(line),
            syntax::Line::Unrecognised(name) => {
                *out.unrecognised.entry(name).or_default() += 1;
                out.text.push_str(line);
            }
            syntax::Line::Drop => changed = true,
            syntax::Line::Interface(name) => {
                changed = true;
                if props.contains(&name) {
                    // Worded as a hidden table's placeholder: `--section props` / `sections=["props"]` serve it.
                    out.text.push_str(&format!("[props table \"{name}\": get it as section \"props\"]"));
                    out.text.push_str(newline);
                } else {
                    let known = if props.is_empty() { "none".to_string() } else { props.join(", ") };
                    out.problems.push(Problem {
                        line: n + 1,
                        message: format!(
                            "`@interface {name}` names no props table of this component (its tables: {known}); the \
                             line is dropped"
                        ),
                    });
                }
            }
            syntax::Line::Heading(h) => {
                changed = true;
                out.text.push_str(&h);
                out.text.push_str(newline);
            }
            syntax::Line::DemoFolder => {
                changed = true;
                let dir = doc_rel.rsplit_once('/').map_or("__demo__".to_string(), |(d, _)| format!("{d}/__demo__"));
                let demos = repo.demo_folder(&dir);
                if demos.is_empty() {
                    out.problems.push(Problem {
                        line: n + 1,
                        message: format!(
                            "`{}` stands for the demos of {dir}/, which holds no .md file; dropped",
                            body.trim()
                        ),
                    });
                }
                let mut read: Vec<(demo_md::Demo, &WalkedFile)> = Vec::new();
                for f in demos {
                    out.deps.push((f.rel.clone(), cache::file_hash(repo.root, &f.rel)));
                    match repo.read(f).and_then(|t| demo_md::read(&t, lang)) {
                        Ok(d) => read.push((d, f)),
                        Err(why) => out.problems.push(Problem {
                            line: n + 1,
                            message: format!("demo {}: {why}; not served as an example", f.rel),
                        }),
                    }
                }
                read.sort_by(|(a, fa), (b, fb)| {
                    let key = |o: Option<f64>| o.unwrap_or(f64::INFINITY);
                    key(a.order).total_cmp(&key(b.order)).then(fa.rel.cmp(&fb.rel))
                });
                for (demo, f) in read {
                    push_demo(&mut out, demo, &f.rel, level);
                }
                out.text.push_str(newline);
            }
            syntax::Line::Reference { rule, name } => {
                changed = true;
                let template = repo.rules[rule].file(&name);
                let mut tried = Vec::new();
                let Some(f) = repo.resolve(doc_rel, &template, &mut tried) else {
                    for t in &tried {
                        out.deps.push((t.clone(), cache::file_hash(repo.root, t)));
                    }
                    out.problems.push(Problem {
                        line: n + 1,
                        message: format!(
                            "example reference `{}` resolves to no file (tried {}, also with .{}); the line is dropped",
                            body.trim(),
                            tried.join(", "),
                            rules::EXTENSIONS.join("/.")
                        ),
                    });
                    continue;
                };
                out.deps.push((f.rel.clone(), cache::file_hash(repo.root, &f.rel)));
                let code = match repo.read(f) {
                    Ok(code) => code,
                    Err(why) => {
                        out.problems.push(Problem {
                            line: n + 1,
                            message: format!("example `{}`: {why}; dropped", body.trim()),
                        });
                        continue;
                    }
                };
                if f.rel.ends_with(".md") {
                    match demo_md::read(&code, lang) {
                        Ok(demo) => push_demo(&mut out, demo, &f.rel, level),
                        Err(why) => out
                            .problems
                            .push(Problem { line: n + 1, message: format!("demo {}: {why}; dropped", f.rel) }),
                    }
                } else {
                    let ext = f.rel.rsplit_once('.').map_or("", |(_, e)| e);
                    out.examples.push(Example {
                        at: out.text.len(),
                        meta: DemoMeta {
                            path: f.rel.clone(),
                            title: Some(name),
                            description: None,
                            description_path: None,
                            debug: false,
                            story: None,
                        },
                    });
                    out.text.push_str(&fence_demo(&code, ext));
                    out.text.push('\n');
                }
            }
        }
    }
    keep_last_of_each_offset(&mut out.source_lines);
    out.changed = changed || !out.unrecognised.is_empty();
    out
}

/// A dropped line left its offset to the next line written there: the last line of each offset is the one
/// written there.
fn keep_last_of_each_offset(lines: &mut Vec<(usize, u32)>) {
    lines.reverse();
    lines.dedup_by_key(|&mut (offset, _)| offset);
    lines.reverse();
}

/// Appends a demo Markdown file's example: a heading one level below the section it stands in, the description,
/// then its fence exactly.
fn push_demo(out: &mut Expanded, demo: demo_md::Demo, rel: &str, level: u8) {
    use std::fmt::Write as _;
    let hashes = "#".repeat(usize::from(level.clamp(1, 5)) + 1);
    if !out.text.is_empty() && !out.text.ends_with("\n\n") {
        out.text.push('\n');
    }
    let title = demo.title.clone().unwrap_or_else(|| file_stem(rel).to_string());
    let _ = write!(out.text, "{hashes} {title}\n\n");
    if let Some(d) = &demo.description {
        let _ = write!(out.text, "{d}\n\n");
    }
    out.examples.push(Example {
        at: out.text.len(),
        meta: DemoMeta {
            path: rel.to_string(),
            title: Some(title),
            description: demo.description,
            description_path: None,
            debug: false,
            story: None,
        },
    });
    out.text.push_str(&demo.fence);
    out.text.push_str("\n\n");
}

/// Whether two names are one in different case conventions (`panelStackExample`, `PanelStackExample`,
/// `panel-stack-example`).
fn same_name(a: &str, b: &str) -> bool {
    let norm = |s: &str| s.chars().filter(|c| *c != '-' && *c != '_').flat_map(char::to_lowercase).collect::<String>();
    !a.is_empty() && norm(a) == norm(b)
}

fn file_stem(rel: &str) -> &str {
    let name = rel.rsplit('/').next().unwrap_or(rel);
    name.rsplit_once('.').map_or(name, |(stem, _)| stem)
}

/// Marks the code blocks of the expanded document that are examples with their file, title and description.
pub fn mark(doc: &mut markdown::Document, examples: &[Example]) {
    let by_start: HashMap<usize, &Example> = examples.iter().map(|e| (e.at, e)).collect();
    for b in &mut doc.code_blocks {
        if let Some(e) = by_start.get(&(b.meta.start_byte as usize)) {
            b.meta.demo = Some(e.meta.clone());
        }
    }
}

/// Whether a folder of this name holds examples (their Markdown is read with them, never reported unused).
pub fn is_example_folder(name: &str) -> bool {
    matches!(name, "demo" | "demos" | "__demo__" | "_example" | "examples")
}

/// A demo file's code as a fenced block of `lang`: a backtick fence longer than any run of backticks in the code
/// (so nothing inside closes it), the code ending with a newline before the closing fence, no newline after it
/// (as a fenced block of a document is served).
pub(crate) fn fence_demo(code: &str, lang: &str) -> String {
    let longest = code.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat((longest + 1).max(3));
    let newline = if code.is_empty() || code.ends_with('\n') { "" } else { "\n" };
    format!("{fence}{lang}\n{code}{newline}{fence}")
}

/// `src` (a `/`-separated path relative to the folder `dir`, given as its segments) as a repository-relative
/// path, `.` and `..` folded; `None` when it is absolute or climbs above the repository root.
pub(crate) fn resolve_relative(dir: &[&str], src: &str) -> Option<String> {
    if src.starts_with('/') || src.contains('\\') || src.contains(':') {
        return None;
    }
    let mut parts: Vec<&str> = dir.to_vec();
    for seg in src.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            s => parts.push(s),
        }
    }
    (!parts.is_empty()).then(|| parts.join("/"))
}
