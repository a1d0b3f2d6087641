//! Document views computed from stored spans: the placeholder view of the Semi Design MCP server's 888-line rule.
//! Pure text splicing over byte ranges the compiler found with comrak, so the reader can build a view without
//! parsing Markdown, and the compiler can count its tokens with the very same function (one stored copy of every
//! text: the view is not stored).

use std::fmt::Write as _;

use crate::model::{CodeBlockMeta, DocMeta, FileMeta, PropsOrigin, PropsTable, SectionMeta};

/// What the placeholder of a code block needs to know: implemented by the compiler's parsed block and by the
/// stored [`CodeBlockMeta`].
pub trait BlockSpan {
    /// 1-based number of the block in its document.
    fn index(&self) -> u32;
    /// Whole info string.
    fn info(&self) -> &str;
    /// Plain text of the nearest heading above.
    fn heading(&self) -> Option<&str>;
    /// First and last line (1-based, inclusive, fences included).
    fn lines(&self) -> (u32, u32);
    /// Byte range in the document, whole lines from the opening fence line to the end of the closing fence.
    fn bytes(&self) -> (u32, u32);
    /// Tokens of the block, when known (stored blocks know theirs; the parser's do not).
    fn tokens(&self) -> Option<u32> {
        None
    }
}

impl BlockSpan for CodeBlockMeta {
    fn index(&self) -> u32 {
        self.index
    }
    fn info(&self) -> &str {
        &self.info
    }
    fn heading(&self) -> Option<&str> {
        self.heading.as_deref()
    }
    fn lines(&self) -> (u32, u32) {
        (self.start_line, self.end_line)
    }
    fn bytes(&self) -> (u32, u32) {
        (self.start_byte, self.end_byte)
    }
    fn tokens(&self) -> Option<u32> {
        Some(self.tokens)
    }
}

/// The fetch instruction inside a placeholder, the same for CLI and MCP users:
/// `get_code_block(component="table", index=12)`, with `lang` when it is not the default language.
pub fn fetch_hint(component: &str, lang: &str, default_lang: &str, index: u32) -> String {
    let lang = if lang == default_lang { String::new() } else { format!(", lang=\"{lang}\"") };
    format!("get_code_block(component=\"{component}\", index={index}{lang})")
}

/// The document with every code block replaced by a numbered placeholder (Semi Design MCP's
/// rule for documents over 888 lines).
///
/// `blocks` are the document's code blocks in order (from the compiler's parse, or as stored). Each block's byte range `start_byte..end_byte` is replaced by a
/// fenced `text` block of this shape (here for block 7, 42 lines, under heading "Basic table"):
///
/// ````text
/// ```text
/// [code block #7 hidden: jsx live=true, 42 lines, 389 tokens, under "Basic table"]
/// <fetch_hint(block), each of its lines on a line of its own>
/// ```
/// ````
///
/// - `jsx live=true` is the block's whole info string, left out (with its comma) when empty;
///   `42 lines` is the block's line span `end_line - start_line + 1`, fences included (what
///   fetching the block returns); `under "…"` is left out when no heading (or an empty one)
///   precedes the block. An empty hint adds no line.
/// - Every placeholder line starts with the block's own container prefix (its indentation, and
///   `>` of enclosing block quotes; a list marker on the fence line stays on the first line and
///   is replaced by spaces on the others), so blocks inside list items and quotes stay there.
/// - Lines are joined with `"\r\n"` when the block used CRLF, else `"\n"`. The placeholder fence
///   is longer than any backtick run in the hint, so a hint cannot close it.
///
/// Everything outside the blocks is copied unchanged; no header is added (the caller adds one
/// with totals). Blocks whose ranges do not fit `text` are left as they are; never panics.
pub fn placeholder_view<B: BlockSpan>(text: &str, blocks: &[B], fetch_hint: &dyn Fn(&B) -> String) -> String {
    placeholder_view_spans(text, blocks, fetch_hint).0
}

/// [`placeholder_view`], with where each placeholder sits in the view: `(block number, start byte, end byte)`, so
/// a part cut to a budget can tell that it ends inside one.
pub fn placeholder_view_spans<B: BlockSpan>(
    text: &str,
    blocks: &[B],
    fetch_hint: &dyn Fn(&B) -> String,
) -> (String, Vec<(u32, usize, usize)>) {
    let mut out = String::with_capacity(text.len() / 2);
    let mut spans = Vec::with_capacity(blocks.len());
    let mut copied = 0usize;
    for block in blocks {
        let (start, end) = (block.bytes().0 as usize, block.bytes().1 as usize);
        if start < copied || end < start || text.get(start..end).is_none() {
            continue;
        }
        out.push_str(&text[copied..start]);
        let at = out.len();
        out.push_str(&placeholder(text, block, &fetch_hint(block)));
        spans.push((block.index(), at, out.len()));
        copied = end;
    }
    out.push_str(&text[copied..]);
    (out, spans)
}

/// One placeholder fence for `block` (see [`placeholder_view`]); `text[start..end]` is valid.
fn placeholder<B: BlockSpan>(text: &str, block: &B, hint: &str) -> String {
    let (start_byte, end_byte) = block.bytes();
    let original = &text[start_byte as usize..end_byte as usize];
    let first_line = original.split('\n').next().unwrap_or("");
    let first_prefix = container_prefix(first_line);
    let rest_prefix: String = first_prefix
        .chars()
        .filter_map(|c| match c {
            ' ' | '\t' | '>' => Some(c),
            '-' | '+' | '*' | '.' | ')' | '0'..='9' => Some(' '),
            _ => None, // a byte-order mark, say
        })
        .collect();
    let crlf = original.contains("\r\n") || text[end_byte as usize..].starts_with("\r\n");
    let newline = if crlf { "\r\n" } else { "\n" };

    let (start_line, end_line) = block.lines();
    let lines = end_line.saturating_sub(start_line) + 1;
    let mut summary = format!("[code block #{} hidden: ", block.index());
    if !block.info().is_empty() {
        let _ = write!(summary, "{}, ", block.info());
    }
    let _ = write!(summary, "{lines} line{}", if lines == 1 { "" } else { "s" });
    if let Some(tokens) = block.tokens() {
        let _ = write!(summary, ", {} token{}", crate::render::thousands(tokens), if tokens == 1 { "" } else { "s" });
    }
    if let Some(heading) = block.heading().filter(|h| !h.is_empty()) {
        let _ = write!(summary, ", under \"{heading}\"");
    }
    summary.push(']');

    let hint_lines: Vec<&str> = if hint.is_empty() {
        Vec::new()
    } else {
        hint.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l)).collect()
    };
    let longest_run = hint_lines.iter().map(|l| longest_backtick_run(l)).max().unwrap_or(0);
    let fence = "`".repeat(longest_run.max(2) + 1);

    let mut out = format!("{first_prefix}{fence}text");
    for line in std::iter::once(summary.as_str()).chain(hint_lines) {
        let _ = write!(out, "{newline}{rest_prefix}{line}");
    }
    let _ = write!(out, "{newline}{rest_prefix}{fence}");
    out
}

/// The container prefix of a fenced block's first line: the indentation, block-quote `>` and
/// list markers before its fence. Falls back to the leading whitespace if the line does not
/// continue with a fence character after such a prefix.
fn container_prefix(line: &str) -> &str {
    let prefix_len = line
        .find(|c: char| !matches!(c, ' ' | '\t' | '>' | '-' | '+' | '*' | '.' | ')' | '0'..='9' | '\u{feff}'))
        .unwrap_or(line.len());
    if matches!(line[prefix_len..].chars().next(), Some('`' | '~')) {
        &line[..prefix_len]
    } else {
        let indent = line.len() - line.trim_start_matches([' ', '\t']).len();
        &line[..indent]
    }
}

fn longest_backtick_run(line: &str) -> usize {
    line.split(|c| c != '`').map(str::len).max().unwrap_or(0)
}

/// GitHub-style heading anchor: lowercase; letters and digits of any script (so Chinese stays),
/// `-` and `_` kept; each whitespace char becomes `-`; everything else (punctuation, symbols,
/// emoji) is dropped. `"Table 表格"` → `"table-表格"`, `"🎉 2.102.0 (2026-07-31)"` →
/// `"-21020-2026-07-31"`. Not deduplicated (see [`Section::slug`]).
pub fn slugify(title: &str) -> String {
    title
        .to_lowercase()
        .chars()
        .filter_map(|c| {
            if c.is_whitespace() {
                Some('-')
            } else if c.is_alphanumeric() || c == '-' || c == '_' {
                Some(c)
            } else {
                None
            }
        })
        .collect()
}

/// The component card (`component_details` at `detail=brief`): what an agent needs to plan its next calls, in a
/// few hundred tokens. Rebuilt by the reader from stored metadata; the compiler counts its tokens with this same
/// function. Shape (every size in tokens):
///
/// ```text
/// # Table 表格 — table · zh-CN · 6,374 lines · 63,210 tokens · 53 code blocks
/// <one-line description>
/// import { Table } from '@douyinfe/semi-ui';
///
/// ## Sections (tokens; code blocks: #number language tokens)
/// - 代码演示 41,236
///   - 基本表格 1,020: #2 jsx 712
/// ## Props
/// - Table (63): bordered, childrenRecordName, …
/// ## Files (lines, tokens)
/// - packages/semi-ui/table/Table.tsx 1,738 lines, 14,120 tokens (skeleton 2,904)
/// ```
///
/// Sections are H2–H4 (H4 only when they hold code blocks); blocks under no listed heading are listed on a line
/// of their own. Files past the first [`CARD_FILES`] are summed up in one line.
pub fn card(component: &str, doc: &DocMeta, files: &[FileMeta], props: &[PropsTable]) -> String {
    use crate::render::{plural, thousands};
    let mut out = format!(
        "# {} — {component} · {} · {} lines · {} tokens · {}\n",
        doc.title.as_deref().unwrap_or(component),
        doc.lang,
        thousands(doc.lines),
        thousands(doc.tokens),
        plural(doc.code_blocks.len() as u64, "code block"),
    );
    for line in [doc.brief.as_deref(), doc.import.as_deref()].into_iter().flatten() {
        let _ = writeln!(out, "{line}");
    }
    // Blocks by the section that holds them (the innermost listed section whose lines contain the block).
    let listed: Vec<&SectionMeta> = doc.sections.iter().filter(|s| (2..=4).contains(&s.level)).collect();
    let mut blocks_of: Vec<Vec<&CodeBlockMeta>> = vec![Vec::new(); listed.len()];
    let mut loose = Vec::new();
    for b in &doc.code_blocks {
        let holder = listed.iter().rposition(|s| s.start_line <= b.start_line && b.start_line <= s.end_line);
        match holder {
            Some(i) => blocks_of[i].push(b),
            None => loose.push(b),
        }
    }
    let block_list = |blocks: &[&CodeBlockMeta]| {
        blocks
            .iter()
            .map(|b| {
                let lang = if b.lang.is_empty() { String::new() } else { format!(" {}", b.lang) };
                format!("#{}{lang} {}", b.index, thousands(b.tokens))
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    if !listed.is_empty() || !loose.is_empty() {
        out.push_str("\n## Sections (tokens; code blocks: #number language tokens)\n");
    }
    if !loose.is_empty() {
        let _ = writeln!(out, "- (outside sections): {}", block_list(&loose));
    }
    for (s, blocks) in listed.iter().zip(&blocks_of) {
        if s.level == 4 && blocks.is_empty() {
            continue;
        }
        let indent = "  ".repeat(usize::from(s.level - 2));
        let blocks = if blocks.is_empty() { String::new() } else { format!(": {}", block_list(blocks)) };
        let _ = writeln!(out, "{indent}- {} {}{blocks}", s.title, thousands(s.tokens));
    }
    let own: Vec<&PropsTable> = props
        .iter()
        .filter(|t| t.origin == PropsOrigin::Typescript || t.lang.as_deref() == Some(doc.lang.as_str()))
        .collect();
    if !own.is_empty() {
        out.push_str("\n## Props (sections=[\"props\"] for types, defaults and descriptions)\n");
        for t in own {
            let names: Vec<&str> = t.props.iter().map(|p| p.name.as_str()).collect();
            let _ = writeln!(out, "- {} ({}): {}", t.name, t.props.len(), names.join(", "));
        }
    }
    if !files.is_empty() {
        out.push_str("\n## Files (lines, tokens), largest first\n");
        let mut files: Vec<&FileMeta> = files.iter().collect();
        files.sort_by(|a, b| b.tokens.cmp(&a.tokens).then_with(|| a.path.cmp(&b.path)));
        for f in files.iter().take(CARD_FILES) {
            let skeleton =
                f.skeleton.as_ref().map_or(String::new(), |s| format!(" (skeleton {})", thousands(s.tokens)));
            let _ = writeln!(out, "- {} {}, {}{skeleton}", f.path, thousands(f.lines), thousands(f.tokens));
        }
        if files.len() > CARD_FILES {
            let rest = &files[CARD_FILES..];
            let tokens: u64 = rest.iter().map(|f| u64::from(f.tokens)).sum();
            let _ = writeln!(out, "- … {} more, {} tokens", plural(rest.len() as u64, "file"), thousands(tokens));
        }
    }
    out
}

/// Files listed one by one in a [`card`]; the rest are summed up.
pub const CARD_FILES: usize = 12;

/// The props tables of `component` as Markdown (`component_details` with `sections=["props"]`): per table a heading
/// naming it and where it comes from, then `| Prop | Type | Default | Description |` rows (`?` marks optional
/// props; `since`/deprecated notes go to the description). Cells have `|` escaped and newlines flattened.
pub fn props_text(component: &str, tables: &[PropsTable]) -> String {
    if tables.is_empty() {
        return format!(
            "No props tables were found for {component} (no `XxxProps` type in its sources, no API table in its document).\n"
        );
    }
    let cell = |s: &str| s.replace('|', "\\|").replace(['\n', '\r'], " ");
    let mut out = String::new();
    for t in tables {
        let mut from = format!("{}:{}", t.path, t.line);
        if !t.extends.is_empty() {
            let _ = write!(from, "; extends {}", t.extends.join(", "));
        }
        if !t.unresolved_extends.is_empty() {
            let _ = write!(from, "; also extends {} (not in this file)", t.unresolved_extends.join(", "));
        }
        let _ = writeln!(
            out,
            "## {} ({from})\n\n| Prop | Type | Default | Description |\n| --- | --- | --- | --- |",
            t.name
        );
        for p in &t.props {
            let mut about = p.description.clone().unwrap_or_default();
            if let Some(since) = &p.since {
                let _ = write!(about, " (since {since})");
            }
            if p.deprecated {
                about.push_str(" (deprecated)");
            }
            let _ = writeln!(
                out,
                "| {}{} | {} | {} | {} |",
                cell(&p.name),
                if p.optional { "?" } else { "" },
                cell(&p.type_text),
                cell(p.default.as_deref().unwrap_or("")),
                cell(about.trim())
            );
        }
        out.push('\n');
    }
    out
}
