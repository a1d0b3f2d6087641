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

use crate::line_index::LineIndex;
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
    /// Front matter `title`, else the plain text of the first H1; `None` when neither exists or
    /// both are empty.
    pub title: Option<String>,
    /// Front matter `brief`, else `description`, else the plain text of the first paragraph that
    /// is not an MDX `import`/`export` line or a Blueprint `@directive`, cut to 200 chars at a word boundary with `…`
    /// (on a char boundary, no ellipsis). `None` when nothing qualifies.
    pub brief: Option<String>,
    /// Every fenced code block, in document order (`index` 1..=len).
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

    for node in blocks(root) {
        let data = node.data();
        let pos = data.sourcepos;
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

    let field = |key: &str| front_matter.iter().find(|(k, v)| k == key && !v.is_empty()).map(|(_, v)| v.clone());
    let title = field("title").or(first_h1);
    let brief = field("brief").or_else(|| field("description")).or(first_paragraph);

    add_demo_blocks(text, &lines, &headings, &mut code_blocks);
    let sections = sections(&headings, &lines);
    let unclosed_front_matter = !saw_front_matter && opens_front_matter(text);
    Document { lines: lines.count(), title, brief, sections, front_matter, code_blocks, tables, unclosed_front_matter }
}

/// Adds a code block for every `<code src="…">` element outside fenced blocks (see [`Demo`]), and renumbers every
/// block in document order. A `<code` inside an inline code span (after an odd number of backticks on its line)
/// or an HTML comment is not a demo.
fn add_demo_blocks(text: &str, lines: &LineMap, headings: &[Heading], blocks: &mut Vec<CodeBlock>) {
    let fenced: Vec<(u32, u32)> = blocks.iter().map(|b| (b.start_line, b.end_line)).collect();
    let mut demos = Vec::new();
    let mut in_comment = false;
    for line_no in 1..=lines.count() {
        let (start, end) = (lines.start(line_no), lines.end(line_no));
        if fenced.iter().any(|&(a, b)| a <= line_no && line_no <= b) {
            continue;
        }
        let line = &text[start..end];
        let mut at = 0;
        while at < line.len() {
            let rest = &line[at..];
            if in_comment {
                match rest.find("-->") {
                    Some(i) => {
                        in_comment = false;
                        at += i + 3;
                        continue;
                    }
                    None => break,
                }
            }
            let next_comment = rest.find("<!--");
            let Some(i) = rest.find("<code") else {
                in_comment = next_comment.is_some_and(|c| !rest[c..].contains("-->"));
                break;
            };
            if next_comment.is_some_and(|c| c < i) {
                in_comment = true;
                at += next_comment.unwrap_or(0) + 4;
                continue;
            }
            let tag_start = start + at + i;
            let ticks = line[..at + i].matches('`').count();
            at += i + 5;
            if ticks % 2 == 1 {
                continue;
            }
            if let Some((demo, tag_end)) = parse_demo_tag(text, tag_start) {
                at = at.max(tag_end.min(end) - start);
                let start_line = line_no;
                let end_line = lines.line_of_byte(tag_end);
                let lang = demo.src.rsplit_once('.').map_or("", |(_, ext)| ext).to_ascii_lowercase();
                let meta = CodeBlockMeta {
                    index: 0,
                    info: lang.clone(),
                    lang,
                    heading: headings.iter().rev().find(|h| h.line <= start_line).map(|h| h.title.clone()),
                    start_line,
                    end_line,
                    start_byte: to_u32(tag_start),
                    end_byte: to_u32(tag_end),
                    tokens: 0,
                    cleaned: false,
                    demo: None,
                };
                demos.push(CodeBlock { meta, code: None, demo_tag: Some(demo) });
            }
        }
    }
    if demos.is_empty() {
        return;
    }
    blocks.extend(demos);
    blocks.sort_by_key(|b| b.start_byte);
    for (i, b) in blocks.iter_mut().enumerate() {
        b.meta.index = to_u32(i + 1);
    }
}

/// Longest `<code …>…</code>` element read as a demo, in bytes (a missing `</code>` is not searched further).
const DEMO_TAG_MAX_BYTES: usize = 4096;

/// The demo of the `<code` element at byte `at` of `text`, and the byte after the element (after `/>`, or after
/// `</code>`, or after `>` when no `</code>` follows within [`DEMO_TAG_MAX_BYTES`]); `None` when it is no
/// `<code src="…">` element.
fn parse_demo_tag(text: &str, at: usize) -> Option<(Demo, usize)> {
    let mut rest = text.get(at + 5..)?;
    if !rest.starts_with(|c: char| c.is_whitespace()) {
        return None;
    }
    let mut pos = at + 5;
    let mut attrs: Vec<(String, Option<String>)> = Vec::new();
    let self_closing;
    loop {
        let trimmed = rest.trim_start();
        pos += rest.len() - trimmed.len();
        rest = trimmed;
        if let Some(r) = rest.strip_prefix("/>") {
            self_closing = true;
            pos += 2;
            rest = r;
            break;
        }
        if let Some(r) = rest.strip_prefix('>') {
            self_closing = false;
            pos += 1;
            rest = r;
            break;
        }
        let name_len = rest.find(|c: char| c.is_whitespace() || matches!(c, '=' | '>' | '/')).unwrap_or(rest.len());
        if name_len == 0 || pos - at > DEMO_TAG_MAX_BYTES {
            return None;
        }
        let name = rest[..name_len].to_owned();
        rest = &rest[name_len..];
        pos += name_len;
        let Some(after_eq) = rest.trim_start().strip_prefix('=') else {
            attrs.push((name, None));
            continue;
        };
        let value_at = after_eq.trim_start();
        pos += rest.len() - value_at.len();
        rest = value_at;
        let (value, used) = match rest.chars().next()? {
            q @ ('"' | '\'') => {
                let close = rest[1..].find(q)?;
                (rest[1..1 + close].to_owned(), close + 2)
            }
            '{' => {
                let close = rest.find('}')?;
                let inner = rest[1..close].trim().trim_matches(['"', '\'', '`']);
                (inner.to_owned(), close + 1)
            }
            _ => {
                let n = rest.find(|c: char| c.is_whitespace() || c == '>').unwrap_or(rest.len());
                (rest[..n].to_owned(), n)
            }
        };
        attrs.push((name, Some(value)));
        rest = &rest[used..];
        pos += used;
    }
    let attr = |n: &str| attrs.iter().find(|(k, _)| k == n).map(|(_, v)| v.clone());
    let src = attr("src").flatten().filter(|s| !s.trim().is_empty())?;
    let mut end = pos;
    let mut inner = "";
    if !self_closing {
        let window = &rest[..floor_boundary(rest, DEMO_TAG_MAX_BYTES)];
        if let Some(close) = window.find("</code>") {
            inner = &rest[..close];
            end = pos + close + "</code>".len();
        }
    }
    let nonempty = |s: String| Some(s.trim().to_owned()).filter(|s| !s.is_empty());
    let inner_text = inner.split_whitespace().collect::<Vec<_>>().join(" ");
    let demo = Demo {
        src: src.trim().to_owned(),
        title: attr("title").flatten().and_then(nonempty).or_else(|| nonempty(inner_text)),
        description: attr("description").flatten().and_then(nonempty),
        debug: attrs.iter().any(|(k, _)| k == "debug"),
    };
    Some((demo, end))
}

/// The largest char boundary of `s` at or below `max`.
fn floor_boundary(s: &str, max: usize) -> usize {
    let mut i = max.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Whether `text`'s first line is a `---` front matter opener (comrak's rule: `---` then only
/// spaces/tabs), so that, when comrak found no front matter, it was never closed.
fn opens_front_matter(text: &str) -> bool {
    let first = text.split('\n').next().unwrap_or("");
    first.strip_prefix("---").is_some_and(|rest| rest.trim_end_matches(['\r', ' ', '\t']).is_empty())
}

/// The code block as a renderer sees it (see [`CodeBlock::code`]): its opening fence line from
/// the fence on, comrak's `literal` (container prefixes already removed), and the closing fence
/// line from the fence on; `None` when that equals the source slice.
fn clean_code(
    text: &str,
    lines: &LineMap,
    block: &comrak::nodes::NodeCodeBlock,
    start_line: u32,
    end_line: u32,
) -> Option<String> {
    let source = text.get(lines.start(start_line)..lines.end(end_line))?;
    let fence: String = std::iter::repeat_n(char::from(block.fence_char), block.fence_length).collect();
    let from_fence = |line: &str| -> String {
        let line = line.strip_suffix('\r').unwrap_or(line);
        line.find(fence.as_str()).map_or(line, |i| &line[i..]).to_owned()
    };
    let source_lines: Vec<&str> = source.split('\n').collect();
    let mut out = from_fence(source_lines.first().copied().unwrap_or(""));
    out.push('\n');
    out.push_str(&block.literal.replace("\r\n", "\n"));
    if block.closed && source_lines.len() > 1 {
        out.push_str(&from_fence(source_lines.last().copied().unwrap_or("")));
    } else if out.ends_with('\n') {
        out.pop();
    }
    (out != source).then_some(out)
}

/// `text` with every JSX-only line outside fences replaced by spaces of the same byte length
/// (MDX's rule, see [`Syntax::Mdx`]); `None` when no line qualifies.
fn mask_jsx_lines(text: &str) -> Option<String> {
    let mut out: Option<String> = None;
    let mut fence: Option<(char, usize)> = None;
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let body = line.trim_end_matches(['\n', '\r']);
        let trimmed = body.trim_start_matches([' ', '\t']);
        let run = |c: char| trimmed.chars().take_while(|&x| x == c).count();
        match fence {
            Some((c, n)) => {
                if run(c) >= n && trimmed[run(c)..].trim().is_empty() {
                    fence = None;
                }
            }
            None => {
                if let Some(c) = ['`', '~'].into_iter().find(|&c| run(c) >= 3) {
                    fence = Some((c, run(c)));
                } else if is_jsx_line(trimmed) {
                    let o = out.get_or_insert_with(|| text.to_owned());
                    // Safe: `at..at + body.len()` is a whole line of `text`, on char boundaries; spaces
                    // of the same byte length keep every position.
                    o.replace_range(at..at + body.len(), &" ".repeat(body.len()));
                }
            }
        }
        at += line.len();
    }
    out
}

/// Whether `line` (indentation removed) is only JSX tags: `<Tab label="npm">`, `</Tab>`,
/// `<Icon icon="add" />`, `<>`, `</>`, several on one line. Attribute values in quotes or braces
/// may hold `>`. HTML comments and declarations (`<!`) are not JSX.
fn is_jsx_line(line: &str) -> bool {
    let line = line.trim_end();
    let b = line.as_bytes();
    if b.is_empty() {
        return false;
    }
    let mut i = 0;
    while i < b.len() {
        if b[i] == b' ' || b[i] == b'\t' {
            i += 1;
            continue;
        }
        if b[i] != b'<' {
            return false;
        }
        i += 1;
        if b.get(i) == Some(&b'/') {
            i += 1;
        }
        let name_start = i;
        while i < b.len() && (b[i].is_ascii_alphanumeric() || matches!(b[i], b'.' | b':' | b'-' | b'_')) {
            i += 1;
        }
        let fragment = b.get(i) == Some(&b'>') && i == name_start;
        if !fragment && !b.get(name_start).is_some_and(u8::is_ascii_alphabetic) {
            return false;
        }
        // Attributes up to the tag's `>`: quoted strings and balanced braces may hold `>`.
        let mut depth = 0usize;
        let mut quote: Option<u8> = None;
        loop {
            let Some(&c) = b.get(i) else { return false };
            i += 1;
            match (quote, c) {
                (Some(q), c) if c == q => quote = None,
                (Some(_), _) => {}
                (None, b'"' | b'\'') if depth == 0 => quote = Some(c),
                (None, b'{') => depth += 1,
                (None, b'}') => depth = depth.saturating_sub(1),
                (None, b'>') if depth == 0 => break,
                _ => {}
            }
        }
    }
    true
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

/// The `key: value` lines of comrak's front matter blob (delimiters included).
fn parse_front_matter(raw: &str) -> Vec<(String, String)> {
    let mut fields = Vec::new();
    for line in raw.split('\n').skip(1) {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.trim_end() == "---" {
            break;
        }
        if line.is_empty() || line.starts_with([' ', '\t', '#', '-']) {
            continue;
        }
        let (key, value) = match line.split_once(':') {
            Some((key, value)) if value.is_empty() || value.starts_with([' ', '\t']) => (key.trim(), value.trim()),
            _ => continue,
        };
        if key.is_empty() || value.is_empty() || value.starts_with(['|', '>']) {
            continue;
        }
        fields.push((key.to_owned(), unquote(value)));
    }
    fields
}

/// A YAML scalar on one line, unquoted: `"a \"b\""` → `a "b"`, `'it''s'` → `it's`, and
/// `plain # comment` → `plain`.
fn unquote(value: &str) -> String {
    if value.len() >= 2 && value.starts_with('"') && value.ends_with('"') {
        let inner = &value[1..value.len() - 1];
        let mut out = String::with_capacity(inner.len());
        let mut chars = inner.chars();
        while let Some(c) = chars.next() {
            if c != '\\' {
                out.push(c);
                continue;
            }
            match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some(other) => out.push(other),
                None => out.push('\\'),
            }
        }
        out
    } else if value.len() >= 2 && value.starts_with('\'') && value.ends_with('\'') {
        value[1..value.len() - 1].replace("''", "'")
    } else {
        let end = value.find(" #").or_else(|| value.find("\t#"));
        value[..end.unwrap_or(value.len())].trim_end().to_owned()
    }
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

/// Line starts of the text in our `'\n'` numbering and in comrak's (which also ends lines at a
/// lone `'\r'`), to map comrak's sourcepos lines onto ours.
pub(super) struct LineMap<'t> {
    text: &'t str,
    /// Our lines.
    lines: LineIndex,
    /// Byte offset of the start of each comrak line; `None` when it equals `starts` (no lone
    /// `'\r'` in the text).
    cm_starts: Option<Vec<usize>>,
}

impl<'t> LineMap<'t> {
    pub(super) fn new(text: &'t str) -> Self {
        let lines = LineIndex::new(text);
        let bytes = text.as_bytes();
        let has_lone_cr = text.match_indices('\r').any(|(i, _)| bytes.get(i + 1) != Some(&b'\n'));
        let cm_starts = has_lone_cr.then(|| {
            // comrak does not count a line after a final line ending, we do; only lines comrak
            // reports are looked up, so the extra entry is harmless.
            let mut cm_starts = vec![0];
            for (i, &b) in bytes.iter().enumerate() {
                if b == b'\n' || (b == b'\r' && bytes.get(i + 1) != Some(&b'\n')) {
                    cm_starts.push(i + 1);
                }
            }
            cm_starts
        });
        LineMap { text, lines, cm_starts }
    }

    /// Our 1-based line holding byte `byte` (a byte at a line's `'\n'` belongs to that line).
    fn line_of_byte(&self, byte: usize) -> u32 {
        self.lines.line_of(byte)
    }

    /// Number of our lines (`text.split('\n').count()`), at least 1.
    fn count(&self) -> u32 {
        self.lines.count()
    }

    /// Our 1-based line holding comrak's 1-based line `cm_line` (clamped to the text).
    pub(super) fn line_of_cm_line(&self, cm_line: usize) -> u32 {
        let Some(cm_starts) = &self.cm_starts else {
            return to_u32(cm_line.clamp(1, self.lines.count() as usize));
        };
        let byte = cm_starts[cm_line.clamp(1, cm_starts.len()) - 1];
        self.lines.line_of(byte)
    }

    /// Byte offset of the start of our 1-based `line` (clamped).
    fn start(&self, line: u32) -> usize {
        self.lines.start(line.clamp(1, self.lines.count()))
    }

    /// Byte offset of the end of our 1-based `line` (clamped), before its `"\n"` or `"\r\n"`.
    fn end(&self, line: u32) -> usize {
        let line = line.clamp(1, self.lines.count());
        let end = self.lines.end(line);
        if end > self.lines.start(line) && self.text.as_bytes()[end - 1] == b'\r' { end - 1 } else { end }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::placeholder_view;

    fn block_text<'t>(text: &'t str, b: &CodeBlock) -> &'t str {
        &text[b.start_byte as usize..b.end_byte as usize]
    }

    fn section_text<'t>(text: &'t str, s: &Section) -> &'t str {
        &text[s.start_byte as usize..s.end_byte as usize]
    }

    #[test]
    fn fences_of_every_kind() {
        let text = "# Kinds\n\n```js x=1\na\n```\n\n~~~ py\nb\n~~~\n\n````md\n```\nc\n```\n````\n";
        let doc = parse(text);
        let got: Vec<_> = doc
            .code_blocks
            .iter()
            .map(|b| (b.index, b.info.as_str(), b.lang.as_str(), b.start_line, b.end_line))
            .collect();
        assert_eq!(got, [(1, "js x=1", "js", 3, 5), (2, "py", "py", 7, 9), (3, "md", "md", 11, 15)]);
        assert_eq!(block_text(text, &doc.code_blocks[0]), "```js x=1\na\n```");
        assert_eq!(block_text(text, &doc.code_blocks[1]), "~~~ py\nb\n~~~");
        assert_eq!(block_text(text, &doc.code_blocks[2]), "````md\n```\nc\n```\n````");
        assert_eq!(doc.code_blocks[0].start_byte, 9);
        assert_eq!(doc.code_blocks[0].end_byte, 24);
        assert_eq!(doc.code_blocks[0].heading.as_deref(), Some("Kinds"));
        assert_eq!(doc.lines, 16);
    }

    #[test]
    fn demo_elements_are_code_blocks_in_document_order() {
        let text = "# Button\n\n```js\nfirst();\n```\n\n## Demos\n\n<code src=\"./demo/basic.tsx\">Basic usage</code>\n\n\
                    <code src='./demo/a.tsx' title=\"Sizes\" description=\"Three sizes\" /> <code src=\"./demo/b.jsx\" debug></code>\n\n\
                    `<code src=\"./demo/inline.tsx\">` is how.\n\n<!-- <code src=\"./demo/hidden.tsx\"/> -->\n\n```html\n<code src=\"x.tsx\"></code>\n```\n\n<code>plain</code>\n";
        let doc = parse(text);
        let got: Vec<_> = doc
            .code_blocks
            .iter()
            .map(|b| (b.index, b.lang.as_str(), b.start_line, b.end_line, b.demo_tag.as_ref().map(|d| d.src.as_str())))
            .collect();
        assert_eq!(
            got,
            [
                (1, "js", 3, 5, None),
                (2, "tsx", 9, 9, Some("./demo/basic.tsx")),
                (3, "tsx", 11, 11, Some("./demo/a.tsx")),
                (4, "jsx", 11, 11, Some("./demo/b.jsx")),
                (5, "html", 17, 19, None),
            ]
        );
        let d = |i: usize| doc.code_blocks[i].demo_tag.clone().unwrap();
        assert_eq!(d(1).title.as_deref(), Some("Basic usage"));
        assert_eq!(
            (d(2).title.as_deref(), d(2).description.as_deref(), d(2).debug),
            (Some("Sizes"), Some("Three sizes"), false)
        );
        assert_eq!((d(3).title, d(3).debug), (None, true));
        assert_eq!(block_text(text, &doc.code_blocks[1]), "<code src=\"./demo/basic.tsx\">Basic usage</code>");
        assert_eq!(block_text(text, &doc.code_blocks[3]), "<code src=\"./demo/b.jsx\" debug></code>");
        assert_eq!(doc.code_blocks[1].heading.as_deref(), Some("Demos"));
    }

    #[test]
    fn explicit_heading_anchors_are_stripped_and_become_the_slug() {
        let text = "# Button\n\n## Using in TypeScript {#using-in-typescript}\n\n### 在 TypeScript 中使用 {#ts-zh .unnumbered}\n\n\
                    ## Sets {#}\n\n## Using in TypeScript {#using-in-typescript}\n\n## Code `{#x}` here\n";
        let doc = parse(text);
        let got: Vec<_> = doc.sections.iter().map(|s| (s.title.as_str(), s.slug.as_str())).collect();
        assert_eq!(
            got,
            [
                ("Button", "button"),
                ("Using in TypeScript", "using-in-typescript"),
                ("在 TypeScript 中使用", "ts-zh"),
                ("Sets {#}", "sets-"),
                ("Using in TypeScript", "using-in-typescript-1"),
                ("Code {#x} here", "code-x-here"),
            ]
        );
    }

    #[test]
    fn indented_code_is_not_a_code_block() {
        let doc = parse("para\n\n    ```js\n    indented\n    ```\n");
        assert!(doc.code_blocks.is_empty());
    }

    #[test]
    fn fence_in_html_comment_and_inline_backticks_are_not_blocks() {
        let text = "Use ```js``` inline.\n\n<!--\n```material\n1,2\n```\n-->\n\n```jsx\nok\n```\n";
        let doc = parse(text);
        assert_eq!(doc.code_blocks.len(), 1);
        assert_eq!(doc.code_blocks[0].start_line, 9);
        assert_eq!(doc.code_blocks[0].info, "jsx");
    }

    #[test]
    fn fences_in_list_items_and_block_quotes() {
        let text = "- item\n\n  ```js\n  x\n  ```\n- ```\n  y\n  ```\n\n> ```ts\n> z\n> ```\n";
        let doc = parse(text);
        let got: Vec<_> = doc.code_blocks.iter().map(|b| (b.start_line, b.end_line, block_text(text, b))).collect();
        assert_eq!(got, [(3, 5, "  ```js\n  x\n  ```"), (6, 8, "- ```\n  y\n  ```"), (10, 12, "> ```ts\n> z\n> ```"),]);
    }

    #[test]
    fn unclosed_fence_at_eof() {
        let text = "# T\n```js\ncode\n";
        let doc = parse(text);
        let b = &doc.code_blocks[0];
        assert_eq!((b.start_line, b.end_line, doc.lines), (2, 3, 4));
        assert_eq!(block_text(text, b), "```js\ncode");

        let text = "```js\ncode";
        let b = &parse(text).code_blocks[0];
        assert_eq!((b.start_line, b.end_line), (1, 2));
        assert_eq!(block_text(text, b), text);

        let b = &parse("```").code_blocks[0];
        assert_eq!((b.start_line, b.end_line, b.start_byte, b.end_byte), (1, 1, 0, 3));

        // An unclosed fence in a block quote ends with the quote.
        let text = "> ```js\n> x\n\nafter\n";
        let b = &parse(text).code_blocks[0];
        assert_eq!((b.start_line, b.end_line), (1, 2));
        assert_eq!(block_text(text, b), "> ```js\n> x");
    }

    #[test]
    fn crlf_line_endings() {
        let text = "---\r\ntitle: T\r\n---\r\n# H\r\n\r\n```js\r\nx\r\n```\r\nend\r\n";
        let doc = parse(text);
        assert_eq!(doc.lines, 10);
        assert_eq!(doc.front_matter, [("title".to_owned(), "T".to_owned())]);
        let b = &doc.code_blocks[0];
        assert_eq!((b.start_line, b.end_line), (6, 8));
        assert_eq!(block_text(text, b), "```js\r\nx\r\n```");
        let s = &doc.sections[0];
        assert_eq!((s.start_line, s.end_line), (4, 10));
        assert_eq!(section_text(text, s), "# H\r\n\r\n```js\r\nx\r\n```\r\nend\r\n");
    }

    #[test]
    fn lone_carriage_returns_map_onto_newline_lines() {
        // comrak ends lines at a lone '\r'; our lines are split('\n').
        let text = "a\rb\n\n```js\rx\r```\n# H\n";
        let doc = parse(text);
        let b = &doc.code_blocks[0];
        assert_eq!((b.start_line, b.end_line), (3, 3));
        assert_eq!(block_text(text, b), "```js\rx\r```");
        assert_eq!(doc.sections[0].start_line, 4);
    }

    #[test]
    fn front_matter_fields_title_and_brief() {
        let text = "---\ntitle: 'Table 表格'\norder: 81 # sort key\nbrief: \"say \\\"hi\\\"\"\nnested:\n  a: 1\ntags:\n  - x\nbody: |\n  long\nurl: http://x.y/z\n---\n\n# Other\n\nFirst para.\n";
        let doc = parse(text);
        let fm: Vec<(&str, &str)> = doc.front_matter.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        assert_eq!(fm, [("title", "Table 表格"), ("order", "81"), ("brief", "say \"hi\""), ("url", "http://x.y/z"),]);
        assert_eq!(doc.title.as_deref(), Some("Table 表格"));
        assert_eq!(doc.brief.as_deref(), Some("say \"hi\""));
        // Front matter shifts nothing: line numbers count from the top of the file.
        assert_eq!(doc.sections[0].start_line, 14);
        assert_eq!(doc.sections[0].start_byte, 132);
    }

    #[test]
    fn title_and_brief_fall_back_to_the_body() {
        let text = "import { X } from \"y\";\n\n@reactExample XExample\n\n# Alert <Badge/>\n\n**Alerts** notify `users`\nof things.\n";
        let doc = parse(text);
        assert!(doc.front_matter.is_empty());
        assert_eq!(doc.title.as_deref(), Some("Alert"));
        assert_eq!(doc.brief.as_deref(), Some("Alerts notify users of things."));

        let doc = parse("---\ndescription: D\n---\nP\n");
        assert_eq!((doc.title, doc.brief.as_deref()), (None, Some("D")));

        let long = "字".repeat(300);
        let brief = parse(&long).brief.unwrap();
        assert_eq!(brief.chars().count(), 200);
        assert!(brief.ends_with("字…"));
        let words = "word ".repeat(60);
        let brief = parse(&words).brief.unwrap();
        assert!(brief.ends_with("word…") && brief.chars().count() <= 200, "{brief}");
    }

    #[test]
    fn setext_headings_and_section_ranges() {
        let text = "Title\nmore\n===\n\nintro\n\nSub\n---\n\nbody\n\n### Deep\n\nx\n\nSub 2\n---\n";
        let doc = parse(text);
        let got: Vec<_> = doc
            .sections
            .iter()
            .map(|s| (s.level, s.title.as_str(), s.slug.as_str(), s.start_line, s.end_line))
            .collect();
        assert_eq!(
            got,
            [
                (1, "Title more", "title-more", 1, 18),
                (2, "Sub", "sub", 7, 15),
                (3, "Deep", "deep", 12, 15),
                (2, "Sub 2", "sub-2", 16, 18),
            ]
        );
        assert_eq!(section_text(text, &doc.sections[2]), "### Deep\n\nx\n");
        assert_eq!(doc.title.as_deref(), Some("Title more"));
    }

    #[test]
    fn heading_plain_text_with_inline_code_and_jsx() {
        let text = "## `onChange` *事件* <ApiType>x</ApiType> [link](u)\n\n## Props\n\n## Props\n";
        let doc = parse(text);
        assert_eq!(doc.sections[0].title, "onChange 事件 x link");
        assert_eq!(doc.sections[0].slug, "onchange-事件-x-link");
        assert_eq!(doc.sections[1].slug, "props");
        assert_eq!(doc.sections[2].slug, "props-1");
    }

    #[test]
    fn chinese_headings_and_slugs() {
        assert_eq!(slugify("Table 表格"), "table-表格");
        assert_eq!(slugify("如何使用"), "如何使用");
        assert_eq!(slugify("API 参考 (Props)"), "api-参考-props");
        assert_eq!(slugify("🎉 2.102.0 (2026-07-31)"), "-21020-2026-07-31");
        assert_eq!(slugify("snake_case & more!"), "snake_case--more");
        let doc = parse("## 代码演示\n\n### 基本表格\n\n```jsx live=true\nx\n```\n");
        assert_eq!(doc.sections[1].slug, "基本表格");
        assert_eq!(doc.code_blocks[0].heading.as_deref(), Some("基本表格"));
        assert_eq!(doc.sections[1].start_byte, 17);
    }

    #[test]
    fn empty_document() {
        let doc = parse("");
        assert_eq!(
            doc,
            Document {
                lines: 1,
                front_matter: vec![],
                title: None,
                brief: None,
                code_blocks: vec![],
                sections: vec![],
                tables: vec![],
                unclosed_front_matter: false,
            }
        );
        assert_eq!(placeholder_view("", &doc.code_blocks), "");
    }

    #[test]
    fn odd_inputs_never_panic() {
        for text in [
            "\u{feff}```js\nx\n```\n",
            "\u{feff}---\ntitle: a\n---\n```\n",
            "a\0b\n```js\nx\0\n```\n",
            "-\t```js\n \tx\n  ```\n",
            "---\n",
            "---\n---\n",
            "\r\r\r```\r",
            "#\n##\n",
            "> - 1. ```\n>      x\n",
        ] {
            let doc = parse(text);
            for b in &doc.code_blocks {
                assert!(text.get(b.start_byte as usize..b.end_byte as usize).is_some());
            }
            let view = placeholder_view(text, &doc.code_blocks);
            assert_eq!(parse(&view).code_blocks.len(), doc.code_blocks.len(), "{text:?}");
        }
    }

    #[test]
    fn placeholder_view_exact() {
        let text = "# Basic table\n\nIntro.\n\n```jsx live=true\nconst a = 1;\nrender(a);\n```\n\n- step\n\n  ~~~\n  npm i\n  ~~~\n> ```\n> q\n> ```\n";
        let doc = parse(text);
        let view = placeholder_view(text, &doc.code_blocks);
        let want = "# Basic table\n\nIntro.\n\n```text\n[code block #1 hidden: jsx, 4 lines, under \"Basic table\"]\n```\n\n- step\n\n  ```text\n  [code block #2 hidden: 3 lines, under \"Basic table\"]\n  ```\n> ```text\n> [code block #3 hidden: 3 lines, under \"Basic table\"]\n> ```\n";
        assert_eq!(view, want);
        let again = parse(&view);
        assert_eq!(again.code_blocks.len(), 3);
        assert!(again.code_blocks.iter().all(|b| b.info == "text"));
    }

    #[test]
    fn tables_are_found_and_long_ones_hidden_in_the_view() {
        use crate::model::TableMeta;
        use crate::view::placeholder_view_spans;
        let text = "## API\n\n| Prop | Type |\n| --- | --- |\n| a | `string` |\n| b | number |\n\nAfter.\n";
        let doc = parse(text);
        assert_eq!(doc.tables.len(), 1);
        let t = &doc.tables[0];
        assert_eq!((t.rows, t.heading.as_deref(), t.start_line, t.end_line), (2, Some("API"), 3, 6));
        assert_eq!(
            &text[t.start_byte as usize..t.end_byte as usize],
            "| Prop | Type |\n| --- | --- |\n| a | `string` |\n| b | number |"
        );
        let meta = |tokens| TableMeta {
            rows: t.rows,
            heading: t.heading.clone(),
            start_line: t.start_line,
            end_line: t.end_line,
            start_byte: t.start_byte,
            end_byte: t.end_byte,
            tokens,
        };
        let (view, spans) = placeholder_view_spans::<CodeBlock>(text, &[], &[meta(250)]);
        assert_eq!(
            view,
            "## API\n\n[table hidden: 2 rows, 250 tokens, under \"API\"; get it as section \"API\"]\n\nAfter.\n"
        );
        assert!(spans.is_empty(), "tables are one line: nothing to cut inside");
        let (small, _) = placeholder_view_spans::<CodeBlock>(text, &[], &[meta(199)]);
        assert_eq!(small, text, "tables under 200 tokens stay");
    }

    #[test]
    fn a_demo_placeholder_replaces_only_its_element_on_its_line() {
        let text = "## Demos\n\n<code src=\"./a.tsx\">Basic</code> <code src=\"./b.tsx\" />\n\n```js\nx\n```\n";
        let doc = parse(text);
        assert_eq!(
            placeholder_view(text, &doc.code_blocks),
            "## Demos\n\n[code block #1 hidden: tsx, 1 line, demo \"Basic\"] [code block #2 hidden: tsx, 1 line, demo]\n\n\
             ```text\n[code block #3 hidden: js, 3 lines, under \"Demos\"]\n```\n"
        );
    }

    #[test]
    fn placeholder_keeps_list_markers_crlf_and_outfences_the_summary() {
        // A `~~~` fence may carry backticks in its info string: the placeholder fence is longer than any of them.
        let tilde = "~~~a```b\nx\n~~~\n";
        let doc = parse(tilde);
        assert_eq!(
            placeholder_view(tilde, &doc.code_blocks),
            "````text\n[code block #1 hidden: a```b, 3 lines]\n````\n"
        );
        let text = "1. ```js\r\n   x\r\n   ```\r\n";
        let doc = parse(text);
        let view = placeholder_view(text, &doc.code_blocks);
        assert_eq!(view, "1. ```text\r\n   [code block #1 hidden: js, 3 lines]\r\n   ```\r\n");
    }

    #[test]
    fn serde_round_trip_shape() {
        fn assert_serde<T: Serialize + for<'de> Deserialize<'de> + Clone + PartialEq>() {}
        assert_serde::<Document>();
        assert_serde::<CodeBlock>();
        assert_serde::<Section>();
    }

    // ---- Real inputs (assembled by ../shared/corpus/assemble.sh; skipped without it). ----

    use crate::test_support::real_corpus;
    use std::path::{Path, PathBuf};

    /// `semi/content/<category>/<name>/<file_name>`, sorted.
    fn semi_docs(root: &Path, file_name: &str) -> Vec<PathBuf> {
        let mut out = Vec::new();
        for category in std::fs::read_dir(root.join("semi/content")).unwrap() {
            let category = category.unwrap().path();
            if !category.is_dir() {
                continue;
            }
            for doc in std::fs::read_dir(&category).unwrap() {
                let path = doc.unwrap().path().join(file_name);
                if path.is_file() {
                    out.push(path);
                }
            }
        }
        out.sort();
        out
    }

    fn read(path: &Path) -> String {
        std::fs::read_to_string(path).unwrap()
    }

    #[test]
    fn real_semi_key_documents() {
        let Some(root) = real_corpus() else { return };
        let content = root.join("semi/content");
        for (path, lines, blocks) in [
            ("show/table/index.md", 6374, 53),
            ("input/form/index.md", 2607, 51),
            ("basic/button/index.md", 611, 18),
            ("input/checkbox/index.md", 0, 13),
            ("show/table/index-en-US.md", 5978, 50),
            ("ecosystem/changelog/index.md", 5069, 0),
            ("ecosystem/changelog/index-en-US.md", 5211, 0),
        ] {
            let text = read(&content.join(path));
            let doc = parse(&text);
            if lines > 0 {
                assert_eq!(doc.lines, lines, "{path}");
            }
            assert_eq!(doc.lines as usize, text.split('\n').count(), "{path}");
            assert_eq!(doc.code_blocks.len(), blocks, "{path}");
        }
        let table = parse(&read(&content.join("show/table/index.md")));
        assert_eq!(table.title.as_deref(), Some("Table 表格"));
        assert!(table.brief.as_deref().unwrap().starts_with("表格用于呈现结构化的数据内容"));
        assert_eq!(table.code_blocks[0].info, "jsx import");
        assert_eq!(table.code_blocks[0].heading.as_deref(), Some("如何使用"));
        assert_eq!(table.sections[0].title, "如何使用");
        assert_eq!(table.sections[0].slug, "如何使用");
    }

    #[test]
    fn real_semi_totals() {
        let Some(root) = real_corpus() else { return };
        for (file_name, want_blocks, want_long) in [("index.md", 1130, 17), ("index-en-US.md", 1123, 17)] {
            let docs = semi_docs(&root, file_name);
            assert_eq!(docs.len(), 102, "{file_name}");
            let (mut blocks, mut long, mut sections) = (0, Vec::new(), 0);
            for path in &docs {
                let text = read(path);
                let doc = parse(&text);
                blocks += doc.code_blocks.len();
                sections += doc.sections.len();
                if doc.lines > 888 {
                    long.push(path.parent().unwrap().file_name().unwrap().to_owned());
                }
                for b in &doc.code_blocks {
                    let fenced = &text[b.start_byte as usize..b.end_byte as usize];
                    let first = fenced.trim_start_matches([' ', '\t', '>', '-', '*']);
                    assert!(first.starts_with("```") || first.starts_with("~~~"), "{path:?}");
                }
            }
            println!("{file_name}: {blocks} code blocks, {sections} sections, over 888 lines: {long:?}");
            assert_eq!(blocks, want_blocks, "{file_name}");
            assert_eq!(long.len(), want_long, "{file_name}");
            assert!(long.iter().any(|n| n == "changelog"), "the changelog is among them");
        }
    }

    #[test]
    fn real_semi_table_blocks_and_placeholder_view() {
        let Some(root) = real_corpus() else { return };
        let text = read(&root.join("semi/content/show/table/index.md"));
        let doc = parse(&text);
        let last = &doc.code_blocks[52];
        assert_eq!(last.index, 53);
        let last_text = &text[last.start_byte as usize..last.end_byte as usize];
        // Block 53 sits in a FAQ list item: its range starts at the line start, indentation
        // included, and ends right after the closing fence.
        assert_eq!((last.start_line, last.end_line, last.lang.as_str()), (6333, 6336, "text"));
        assert!(last_text.starts_with("    ```text\n"), "{last_text}");
        assert!(last_text.ends_with("\n    ```"), "{last_text}");
        assert_eq!(last_text.lines().count() as u32, last.end_line - last.start_line + 1);

        let view = placeholder_view(&text, &doc.code_blocks);
        for n in 1..=53 {
            assert!(view.contains(&format!("[code block #{n} hidden: ")), "#{n}");
        }
        assert!(!view.contains("[code block #54 hidden"));
        let again = parse(&view);
        assert_eq!(again.code_blocks.len(), 53);
        for (n, b) in again.code_blocks.iter().enumerate() {
            assert_eq!(b.info, "text");
            let body = &view[b.start_byte as usize..b.end_byte as usize];
            assert!(body.contains(&format!("[code block #{} hidden: ", n + 1)), "{body}");
        }
        // Nothing outside the blocks changed.
        let mut rest = String::new();
        let mut at = 0;
        for b in &doc.code_blocks {
            rest.push_str(&text[at..b.start_byte as usize]);
            at = b.end_byte as usize;
        }
        rest.push_str(&text[at..]);
        let mut view_rest = String::new();
        let mut at = 0;
        for b in &again.code_blocks {
            view_rest.push_str(&view[at..b.start_byte as usize]);
            at = b.end_byte as usize;
        }
        view_rest.push_str(&view[at..]);
        assert_eq!(rest, view_rest);
        println!(
            "table: {} lines, {} bytes; placeholder view {} lines, {} bytes",
            doc.lines,
            text.len(),
            view.split('\n').count(),
            view.len()
        );
    }

    #[test]
    fn real_blueprint_mdx_parses() {
        let Some(root) = real_corpus() else { return };
        let mut files = Vec::new();
        let mut stack = vec![root.join("blueprint")];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.extension().is_some_and(|e| e == "mdx") {
                    files.push(path);
                }
            }
        }
        files.sort();
        assert_eq!(files.len(), 74);
        let (mut sections, mut blocks, mut untitled) = (0, 0, Vec::new());
        for path in &files {
            let text = read(path);
            let doc = parse(&text);
            sections += doc.sections.len();
            blocks += doc.code_blocks.len();
            if doc.title.is_none() {
                untitled.push(path.file_name().unwrap().to_owned());
            }
            if let Some(brief) = &doc.brief {
                assert!(!brief.starts_with("import ") && !brief.starts_with('@'), "{path:?}");
            }
        }
        let alert = parse(&read(&root.join("blueprint/src/components/alert/alert.mdx")));
        assert_eq!(alert.title.as_deref(), Some("Alert"));
        assert_eq!(alert.sections[0].title, "Alert");
        assert_eq!(alert.code_blocks[0].info, "ts copy");
        println!(
            "blueprint: {} .mdx files, {sections} sections, {blocks} code blocks, untitled: {untitled:?}",
            files.len()
        );
    }

    #[test]
    fn real_semi_parse_timing() {
        let Some(root) = real_corpus() else { return };
        let mut docs = semi_docs(&root, "index.md");
        docs.extend(semi_docs(&root, "index-en-US.md"));
        let texts: Vec<String> = docs.iter().map(|p| read(p)).collect();
        let bytes: usize = texts.iter().map(String::len).sum();
        let started = std::time::Instant::now();
        let blocks: usize = texts.iter().map(|t| parse(t).code_blocks.len()).sum();
        let elapsed = started.elapsed();
        assert_eq!(texts.len(), 204);
        println!(
            "parse(): {} Semi docs, {:.1} MB, {blocks} code blocks in {:.1} ms (one thread, {} build)",
            texts.len(),
            bytes as f64 / 1e6,
            elapsed.as_secs_f64() * 1e3,
            if cfg!(debug_assertions) { "debug" } else { "release" }
        );
    }
}

#[cfg(test)]
mod clean_tests {
    use super::*;

    fn codes(text: &str) -> Vec<(u32, u32, String)> {
        let doc = parse(text);
        doc.code_blocks
            .iter()
            .map(|b| {
                let served = b.code.clone().unwrap_or_else(|| text[b.start_byte as usize..b.end_byte as usize].into());
                (b.start_line, b.end_line, served)
            })
            .collect()
    }

    #[test]
    fn tab_indented_list_item() {
        let text = "- Style it:\n\n\t```css\n\t.btn { color: red; }\n\t```\n";
        assert_eq!(codes(text), [(3, 5, "```css\n.btn { color: red; }\n```".to_string())]);
    }

    #[test]
    fn space_indented_ordered_list() {
        let text = "1. Install:\n\n   ```bash\n   npm i x\n     indented\n   ```\n2. Next\n";
        assert_eq!(codes(text), [(3, 6, "```bash\nnpm i x\n  indented\n```".to_string())]);
    }

    #[test]
    fn blockquote() {
        let text = "> Note:\n>\n> ```js\n> a();\n>\n> b();\n> ```\n";
        assert_eq!(codes(text), [(3, 7, "```js\na();\n\nb();\n```".to_string())]);
    }

    #[test]
    fn nested_blockquote_and_list() {
        let text = "> - item\n>\n>   ~~~~ts\n>   let x = 1;\n>   ~~~~\n";
        assert_eq!(codes(text), [(3, 5, "~~~~ts\nlet x = 1;\n~~~~".to_string())]);
    }

    #[test]
    fn crlf_document() {
        let text = "# T\r\n\r\n```js\r\na();\r\nb();\r\n```\r\n";
        let doc = parse(text);
        assert_eq!(doc.code_blocks[0].code.as_deref(), Some("```js\na();\nb();\n```"));
        assert_eq!((doc.code_blocks[0].start_line, doc.code_blocks[0].end_line), (3, 6));
    }

    #[test]
    fn unclosed_fence_in_list_item() {
        let text = "- a\n\n  ```sh\n  echo\n";
        assert_eq!(codes(text), [(3, 4, "```sh\necho".to_string())]);
    }

    #[test]
    fn top_level_lf_blocks_are_not_copied() {
        let doc = parse("# T\n\n```js\na();\n```\n\n  ```\n  b\n  ```\n");
        assert_eq!(doc.code_blocks.len(), 2);
        assert_eq!(doc.code_blocks[0].code, None);
        // An indented fence at top level: comrak removes up to the fence's indentation from content lines.
        assert_eq!(doc.code_blocks[1].code.as_deref(), Some("```\nb\n```"));
    }

    const TABS: &str = "# Install\n\n<Tabs>\n<Tab label=\"npm\">\n```bash\nnpm i x\n```\n</Tab>\n<Tab label=\"yarn\">\n```bash\nyarn add x\n```\n</Tab>\n</Tabs>\n\n<!--\n```js\nhidden\n```\n-->\n";

    #[test]
    fn mdx_fences_after_jsx_lines_are_code_blocks() {
        let doc = parse_as(TABS, Syntax::Mdx);
        let got: Vec<_> = doc.code_blocks.iter().map(|b| (b.start_line, b.end_line, b.lang.as_str())).collect();
        assert_eq!(got, [(5, 7, "bash"), (10, 12, "bash")]);
        assert_eq!(doc.code_blocks[1].code, None);
        assert_eq!(
            &TABS[doc.code_blocks[1].start_byte as usize..doc.code_blocks[1].end_byte as usize],
            "```bash\nyarn add x\n```"
        );
        assert_eq!(doc.sections[0].title, "Install");
    }

    #[test]
    fn md_keeps_commonmark_html_blocks() {
        // The same text as CommonMark: `<Tabs>` starts an HTML block that runs to the blank line.
        assert_eq!(parse_as(TABS, Syntax::CommonMark).code_blocks.len(), 0);
        assert_eq!(Syntax::of_path("a/b.MDX"), Syntax::Mdx);
        assert_eq!(Syntax::of_path("a/b.md"), Syntax::CommonMark);
    }

    #[test]
    fn jsx_lines() {
        assert!(is_jsx_line("<Tab label=\"npm\">"));
        assert!(is_jsx_line("</Tab>"));
        assert!(is_jsx_line("<Icon icon=\"add\" onClick={() => a > b} />"));
        assert!(is_jsx_line("<>  </>"));
        assert!(!is_jsx_line("<!-- x -->"));
        assert!(!is_jsx_line("</ResizeSensor>;"));
        assert!(!is_jsx_line("<b>bold</b> text"));
        assert!(!is_jsx_line("a <b>"));
        assert!(!is_jsx_line("<Tab label=\"unclosed"));
    }

    #[test]
    fn unclosed_front_matter_is_markdown() {
        let doc = parse("---\ntitle: Oops\n\n# Real title\n\nBody.\n");
        assert!(doc.unclosed_front_matter);
        assert!(doc.front_matter.is_empty());
        assert_eq!(doc.title.as_deref(), Some("Real title"));
        let closed = parse("---\ntitle: Fine\n---\n\n# H\n");
        assert!(!closed.unclosed_front_matter);
        assert_eq!(closed.title.as_deref(), Some("Fine"));
        assert!(!parse("# H\n\n---\n").unclosed_front_matter);
    }
}
