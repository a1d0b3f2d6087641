//! Markdown/MDX documents as plain data: front matter, headings (sections), fenced code blocks,
//! and the placeholder view that hides code blocks in long documents.
//!
//! **API boundary:** comrak's AST never leaves this file (and `props`, which reads API tables with the same
//! options and helpers). [`parse`] walks it once and returns a
//! [`Document`], which is plain data (`Clone`, `PartialEq`, serde), so later passes and the bundle
//! writer never see a parser type.
//!
//! Conventions shared by every position in this module:
//! - **Lines** are 1-based and inclusive, and are the pieces of `text.split('\n')`, the way the
//!   Semi Design MCP server counts them. A file that ends in `"\n"` therefore has a last, empty
//!   line (its line count is `wc -l` + 1). A lone `'\r'` does not start a line of ours (CommonMark
//!   treats it as a line ending; positions are mapped back onto `'\n'` lines).
//! - **Byte offsets** index the original UTF-8 text passed to [`parse`], always on char
//!   boundaries. A range `start_byte..end_byte` covers whole lines: from the first byte of its
//!   first line (indentation and container markers such as `> ` or `- ` included) to the end of
//!   its last line, *without* that line's terminator (`"\n"`, or `"\r\n"` in CRLF files).
//!
//! Parsing never fails and never panics: every input, however malformed, yields a `Document`.

use std::collections::HashSet;

use comrak::nodes::{AstNode, NodeValue};
use comrak::{Arena, Options, parse_document};
use serde::{Deserialize, Serialize};

mod clean;
mod demo_tags;
mod front_matter;
mod lines;
mod metadata;

use clean::{clean_code, mask_jsx_lines};
use demo_tags::add_demo_blocks;
use front_matter::{opens_front_matter, parse_front_matter};
pub(crate) use lines::LineMap;

use crate::model::{CodeBlockMeta, SectionMeta, TableMeta};

/// Longest [`Document::brief`] taken from a paragraph, in chars (Unicode scalar values).
const BRIEF_MAX_CHARS: usize = 200;

/// One CommonMark *fenced* code block (```` ``` ````, `~~~`, or a longer fence), or a dumi demo element. Indented
/// code blocks are not code blocks here; neither is a fence inside an HTML comment or HTML block, nor inline
/// ```` ``` ```` in prose.
///
/// The parser fills the model's [`CodeBlockMeta`] (what the bundle stores) and keeps beside it what only the
/// compiler needs: the cleaned code and the demo element as written. `meta.tokens` is 0 here (the compiler's
/// `emit` counts it) and `meta.demo` is `None` (`emit` sets it once the demo file is read); `meta.cleaned` is
/// `code.is_some()`. Field reads go through to `meta` ([`std::ops::Deref`]).
///
/// In `meta`: `index` is the 1-based position among the document's code blocks in document order (the `#N` of
/// the placeholders and of "get code block"); `info` the whole info string after the opening fence, trimmed
/// (`""` when there is none), `lang` its first word; `heading` the plain text of the nearest heading (any level)
/// above the block; `start_line` the opening fence's line, `end_line` the closing fence's line, or, when the fence
/// is never closed, the block's last line of content (end of the document or of the enclosing list item / block
/// quote); `start_byte` the start of `start_line` (indentation and container markers included) and `end_byte` the
/// end of `end_line` without its line terminator, so `text[start_byte..end_byte]` is exactly lines
/// `start_line..=end_line`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CodeBlock {
    /// The block as the bundle stores it (tokens and demo filled in by the compiler).
    pub meta: CodeBlockMeta,
    /// The block as a Markdown renderer sees it, fences included, when that differs from the
    /// source slice `text[start_byte..end_byte]`: the container's indentation (list item) and
    /// `>` markers (block quote) removed from every line, and line endings `"\n"` (no `"\r"`).
    /// `None` when the slice is already clean (the usual top-level, LF case).
    pub code: Option<String>,
    /// Set when the block is a demo file referenced by `<code src="…">` (dumi): the element as written. Its code is
    /// the file's, read by the compiler, which then sets `meta.demo`; the block's lines and bytes are those of the
    /// `<code>` element in the document.
    pub demo_tag: Option<Demo>,
}

impl std::ops::Deref for CodeBlock {
    type Target = CodeBlockMeta;
    fn deref(&self) -> &CodeBlockMeta {
        &self.meta
    }
}

/// A demo file referenced from a document by `<code src="./demo/basic.tsx">Basic usage</code>` (dumi; also
/// self-closing `<code src="…" />`, with `title` / `description` attributes, and a bare `debug` attribute).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Demo {
    /// The `src` attribute as written, relative to the document (e.g. `./demos/demo1.tsx`).
    pub src: String,
    /// The `title` attribute, else the element's text (`Basic usage`), trimmed; `None` when both are empty.
    pub title: Option<String>,
    /// The `description` attribute, trimmed; `None` when absent or empty.
    pub description: Option<String>,
    /// The bare `debug` attribute (dumi shows such demos only in development).
    pub debug: bool,
}

/// One heading (ATX `#…` or setext `===`/`---`, H1–H6) and the lines it governs: the model's [`SectionMeta`]
/// (`tokens` 0 here, counted by the compiler's `emit`) and its byte span. Field reads go through to `meta`.
///
/// In `meta`: `level` 1..=6; `title` the plain text of the heading (text and inline code without backticks,
/// emphasis and link text kept, HTML/JSX tags dropped, whitespace runs collapsed to one space, trimmed); `slug`
/// the GitHub-style anchor of `title` (see [`slugify`]), or the heading's explicit `{#id}`, made unique within the
/// document by appending `-1`, `-2`, … to repeats, as GitHub does; `start_line` the heading's first line (for a
/// setext heading, its first text line); `end_line` the line before the next heading of the same or a higher
/// level (smaller or equal `level`), or the document's last line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Section {
    /// The section as the bundle stores it (tokens counted by the compiler).
    pub meta: SectionMeta,
    /// Byte offset of the start of `start_line`.
    pub start_byte: u32,
    /// Byte offset of the end of `end_line`, excluding its line terminator.
    pub end_byte: u32,
}

impl std::ops::Deref for Section {
    type Target = SectionMeta;
    fn deref(&self) -> &SectionMeta {
        &self.meta
    }
}

/// Our plain-data view of one Markdown/MDX document. Produced by [`parse`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Document {
    /// Number of lines, `text.split('\n').count()` (so a file ending in `"\n"` counts `wc -l` + 1,
    /// and an empty text has 1 line), as the Semi Design MCP server counts them.
    pub lines: u32,
    /// The simple `key: value` lines of a leading `---` YAML front matter block, in file order.
    /// Values are trimmed and unquoted (`'…'`/`"…"`), and a plain value loses a trailing
    /// ` # comment`. Nested YAML (indented lines, list items, keys with an empty value, block
    /// scalars `|`/`>`) is ignored. Empty when the document has no front matter.
    pub front_matter: Vec<(String, String)>,
    /// Front matter `title`, else a leading metadata fence's title, else the plain text of the first H1; `None`
    /// when none exists or all are empty.
    pub title: Option<String>,
    /// Front matter `brief`, else `description`, else a leading metadata fence's description, else the plain text
    /// of the first paragraph that
    /// is not an MDX `import`/`export` line or a Blueprint `@directive`, cut to 200 chars at a word boundary with `…`
    /// (on a char boundary, no ellipsis). `None` when nothing qualifies.
    pub brief: Option<String>,
    /// Every fenced code block, in document order (`index` 1..=len), but a leading metadata fence (see
    /// `metadata.rs`).
    pub code_blocks: Vec<CodeBlock>,
    /// Every heading H1–H6, in document order, including headings nested in list items or block
    /// quotes (but never text inside code blocks or HTML blocks).
    pub sections: Vec<Section>,
    /// Every GFM table, in document order, as the bundle stores it (`tokens` 0 here, counted by the compiler's
    /// `emit`): `rows` counts body rows (not the header row), `heading` is the plain text of the nearest heading
    /// above, `start_line` the header row, `end_line` the last body row, and the byte span covers those lines
    /// without the last line's terminator.
    pub tables: Vec<TableMeta>,
    /// The document opens with a `---` line that no later `---` line closes: it is read as
    /// Markdown (a thematic break, then text), not as front matter, and the compiler warns.
    pub unclosed_front_matter: bool,
}

/// Which block rules a document follows, from its file name (see [`Syntax::of_path`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Syntax {
    /// CommonMark (+ GFM): a line holding only an HTML/JSX tag starts an HTML block that runs to
    /// the next blank line, swallowing a fence right after it.
    CommonMark,
    /// MDX: a line holding only JSX tags is a JSX element and ends there; the next line (a fence,
    /// a heading…) is Markdown again. HTML comments `<!-- … -->` still hide what they enclose.
    Mdx,
}

impl Syntax {
    /// `Mdx` for a `.mdx` path (any case), else `CommonMark`.
    pub fn of_path(path: &str) -> Syntax {
        let mdx = path.rsplit_once('.').is_some_and(|(_, ext)| ext.eq_ignore_ascii_case("mdx"));
        if mdx { Syntax::Mdx } else { Syntax::CommonMark }
    }
}

/// Parses `text` (CommonMark + GFM tables, strikethrough, autolinks and task lists, with a
/// leading `---` front matter block) and returns its plain-data view.
///
/// MDX is read as CommonMark: `import` lines become paragraphs, JSX elements on their own
/// lines become HTML blocks (so a fence inside `<!-- … -->` or an unbroken JSX block is not a
/// code block, as CommonMark says), and JSX tags inside headings are dropped from titles.
///
/// Never fails and never panics.
pub fn parse(text: &str) -> Document {
    parse_as(text, Syntax::CommonMark)
}

/// [`parse`] under `syntax`'s block rules. For [`Syntax::Mdx`], every line that holds only JSX
/// tags (outside fences) is read as a blank line, so it starts no HTML block; positions are
/// unchanged (the line keeps its length).
pub fn parse_as(text: &str, syntax: Syntax) -> Document {
    let masked = match syntax {
        Syntax::Mdx => mask_jsx_lines(text),
        Syntax::CommonMark => None,
    };
    let input = masked.as_deref().unwrap_or(text);
    let lines = LineMap::new(text);
    let arena = Arena::new();
    let root = parse_document(&arena, input, &comrak_options());
    let mut saw_front_matter = false;

    let mut front_matter = Vec::new();
    let mut headings: Vec<Heading> = Vec::new();
    let mut code_blocks = Vec::new();
    let mut tables = Vec::new();
    let mut first_h1: Option<String> = None;
    let mut first_paragraph: Option<String> = None;
    // The first block after the front matter, when it is a fence: its language and text (metadata, maybe).
    let mut first_block: Option<Option<(String, String)>> = None;

    for node in blocks(root) {
        let data = node.data();
        let pos = data.sourcepos;
        if first_block.is_none() && !matches!(data.value, NodeValue::FrontMatter(_) | NodeValue::Document) {
            first_block = Some(match &data.value {
                NodeValue::CodeBlock(b) if b.fenced => {
                    Some((b.info.split_whitespace().next().unwrap_or("").to_string(), b.literal.clone()))
                }
                _ => None,
            });
        }
        match &data.value {
            NodeValue::FrontMatter(raw) => {
                saw_front_matter = true;
                front_matter = parse_front_matter(raw);
            }
            NodeValue::Heading(heading) => {
                let (title, anchor) = split_anchor(plain_text(node));
                if heading.level == 1 && first_h1.is_none() && !title.is_empty() {
                    first_h1 = Some(title.clone());
                }
                let level = heading.level.clamp(1, 6);
                headings.push(Heading { level, title, line: lines.line_of_cm_line(pos.start.line), anchor });
            }
            NodeValue::CodeBlock(block) if block.fenced => {
                let start_line = lines.line_of_cm_line(pos.start.line);
                let end_line = lines.line_of_cm_line(pos.end.line).max(start_line).min(lines.count());
                let info = block.info.trim().to_owned();
                let lang = info.split_whitespace().next().unwrap_or("").to_owned();
                let code = clean_code(text, &lines, block, start_line, end_line);
                let meta = CodeBlockMeta {
                    index: to_u32(code_blocks.len() + 1),
                    info,
                    lang,
                    heading: headings.last().map(|h| h.title.clone()),
                    start_line,
                    end_line,
                    start_byte: to_u32(lines.start(start_line)),
                    end_byte: to_u32(lines.end(end_line)),
                    tokens: 0,
                    cleaned: code.is_some(),
                    demo: None,
                };
                code_blocks.push(CodeBlock { meta, code, demo_tag: None });
            }
            NodeValue::Table(_) => {
                let start_line = lines.line_of_cm_line(pos.start.line);
                let end_line = lines.line_of_cm_line(pos.end.line).max(start_line).min(lines.count());
                tables.push(TableMeta {
                    rows: to_u32(node.children().count().saturating_sub(1)),
                    heading: headings.last().map(|h| h.title.clone()),
                    start_line,
                    end_line,
                    start_byte: to_u32(lines.start(start_line)),
                    end_byte: to_u32(lines.end(end_line)),
                    tokens: 0,
                });
            }
            NodeValue::Paragraph if first_paragraph.is_none() => {
                let text = plain_text(node);
                if is_brief_candidate(&text) {
                    first_paragraph = Some(shorten(&text, BRIEF_MAX_CHARS));
                }
            }
            _ => {}
        }
    }

    // A leading fence of metadata (issue 24 item 5) is the title and description, never a code block.
    let fence = first_block.flatten().and_then(|(lang, code)| metadata::from_fence(&lang, &code));
    if fence.is_some() && !code_blocks.is_empty() {
        code_blocks.remove(0);
        for (i, b) in code_blocks.iter_mut().enumerate() {
            b.meta.index = to_u32(i + 1);
        }
    }
    let fence = fence.unwrap_or_default();
    let field = |key: &str| front_matter.iter().find(|(k, v)| k == key && !v.is_empty()).map(|(_, v)| v.clone());
    let title = field("title").or(fence.title).or(first_h1);
    let brief = field("brief").or_else(|| field("description")).or(fence.brief).or(first_paragraph);

    add_demo_blocks(text, &lines, &headings, &mut code_blocks);
    let sections = sections(&headings, &lines);
    let unclosed_front_matter = !saw_front_matter && opens_front_matter(text);
    Document { lines: lines.count(), title, brief, sections, front_matter, code_blocks, tables, unclosed_front_matter }
}

pub use crate::view::slugify;

/// A parsed block is placed like its stored [`CodeBlockMeta`], but its size is not known yet (the placeholder names
/// its lines) and its demo is the element as written.
impl crate::view::BlockSpan for CodeBlock {
    fn index(&self) -> u32 {
        self.meta.index
    }
    fn info(&self) -> &str {
        &self.meta.info
    }
    fn heading(&self) -> Option<&str> {
        self.meta.heading.as_deref()
    }
    fn lines(&self) -> (u32, u32) {
        (self.meta.start_line, self.meta.end_line)
    }
    fn bytes(&self) -> (u32, u32) {
        (self.meta.start_byte, self.meta.end_byte)
    }
    fn demo_title(&self) -> Option<&str> {
        self.demo_tag.as_ref().map(|d| d.title.as_deref().unwrap_or(""))
    }
}

/// The parser options: CommonMark plus the GFM extensions that change no fence or heading
/// (tables, strikethrough, autolinks, task lists) and `---` front matter. Extensions that would
/// read MDX/JSX prose differently from CommonMark (math, directives, `>>>` quotes, definition
/// lists) stay off, so block counts match plain CommonMark parsers.
pub(super) fn comrak_options() -> Options<'static> {
    let mut options = Options::default();
    options.extension.front_matter_delimiter = Some("---".to_owned());
    options.extension.table = true;
    options.extension.strikethrough = true;
    options.extension.autolink = true;
    options.extension.tasklist = true;
    options
}

/// The block nodes under `root`, in document order. Inline content (the children of paragraphs,
/// headings and tables) is not visited: no heading, code block or paragraph lives there.
pub(super) fn blocks<'a>(root: &'a AstNode<'a>) -> impl Iterator<Item = &'a AstNode<'a>> {
    let mut stack = vec![root];
    std::iter::from_fn(move || {
        let node = stack.pop()?;
        let leaf = matches!(node.data().value, NodeValue::Paragraph | NodeValue::Heading(_) | NodeValue::Table(_));
        if !leaf {
            stack.extend(node.reverse_children());
        }
        Some(node)
    })
}

/// Plain text of a node's inline content: text, inline code (without backticks), math and the
/// text inside emphasis, links and image alt text; HTML/JSX tags dropped; line breaks become
/// spaces; whitespace runs collapsed to one space; trimmed.
pub(super) fn plain_text<'a>(node: &'a AstNode<'a>) -> String {
    let mut raw = String::new();
    for child in node.descendants().skip(1) {
        match &child.data().value {
            NodeValue::Text(text) => raw.push_str(text),
            NodeValue::Code(code) => raw.push_str(&code.literal),
            NodeValue::Math(math) => raw.push_str(&math.literal),
            NodeValue::SoftBreak | NodeValue::LineBreak => raw.push(' '),
            _ => {}
        }
    }
    raw.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `text` cut to at most `max` chars, at a word boundary when there is one in the last fifth, ending with `…`
/// when anything was cut.
fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let cut: String = text.chars().take(max.saturating_sub(1)).collect();
    let at_word = cut.rfind(' ').filter(|&i| i >= cut.len() * 4 / 5).unwrap_or(cut.len());
    format!("{}…", cut[..at_word].trim_end())
}

/// Whether a paragraph's plain text can serve as a document brief: not empty, not an MDX ESM
/// line (`import …`, `export …`) and not a Blueprint `@directive Name` line.
fn is_brief_candidate(text: &str) -> bool {
    let is_directive = text.strip_prefix('@').is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_alphabetic()));
    !text.is_empty() && !is_directive && !text.starts_with("import ") && !text.starts_with("export ")
}

/// A heading's plain text without a trailing explicit anchor ` {#id}` (dumi, Docusaurus, Pandoc, kramdown), and the
/// id: `"Using in TypeScript {#using-in-typescript}"` → (`"Using in TypeScript"`, `Some("using-in-typescript")`).
/// Pandoc attributes after the id (`{#id .class}`) are dropped with it; `{#}` or a brace run that is no anchor
/// stays in the title.
pub(super) fn split_anchor(title: String) -> (String, Option<String>) {
    let Some(open) = title.rfind("{#") else { return (title, None) };
    let rest = &title[open + 2..];
    let Some(body) = rest.strip_suffix('}') else { return (title, None) };
    let id = body.split_whitespace().next().unwrap_or("");
    if id.is_empty() || body.contains(['{', '}']) || !body.starts_with(|c: char| !c.is_whitespace()) {
        return (title, None);
    }
    let id = id.to_owned();
    let stripped = title[..open].trim_end().to_owned();
    (stripped, Some(id))
}

/// One heading as the parse finds it, before sections are closed.
struct Heading {
    /// 1..=6.
    level: u8,
    /// Plain text, without a trailing explicit anchor.
    title: String,
    /// Its (first) line, 1-based.
    line: u32,
    /// The explicit `{#id}` (dumi, Docusaurus, Pandoc, kramdown), if any.
    anchor: Option<String>,
}

/// Sections from the headings in document order; a heading with an explicit anchor takes it as its slug
/// (deduplicated like the others).
fn sections(headings: &[Heading], lines: &LineMap) -> Vec<Section> {
    let mut used: HashSet<String> = HashSet::new();
    let mut out: Vec<Section> = Vec::with_capacity(headings.len());
    // Indices of sections still open, with strictly increasing levels.
    let mut open: Vec<usize> = Vec::new();
    for h in headings {
        while let Some(&i) = open.last() {
            if out[i].meta.level < h.level {
                break;
            }
            open.pop();
            close(&mut out[i], h.line.saturating_sub(1), lines);
        }
        let base = h.anchor.clone().unwrap_or_else(|| slugify(&h.title));
        let mut slug = base.clone();
        let mut n = 0;
        while used.contains(&slug) {
            n += 1;
            slug = format!("{base}-{n}");
        }
        used.insert(slug.clone());
        open.push(out.len());
        let meta = SectionMeta {
            level: h.level,
            title: h.title.clone(),
            slug,
            start_line: h.line,
            end_line: h.line,
            tokens: 0,
        };
        out.push(Section { meta, start_byte: to_u32(lines.start(h.line)), end_byte: 0 });
    }
    for i in open {
        close(&mut out[i], lines.count(), lines);
    }
    out
}

fn close(section: &mut Section, end_line: u32, lines: &LineMap) {
    section.meta.end_line = end_line.max(section.start_line);
    section.end_byte = to_u32(lines.end(section.end_line));
}

fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests;
