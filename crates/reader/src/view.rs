//! Document views computed from stored spans: the placeholder view of the Semi Design MCP server's 888-line rule.
//! Pure text splicing over byte ranges the compiler found with comrak, so the reader can build a view without
//! parsing Markdown, and the compiler can count its tokens with the very same function. Since format 9 the compiler
//! also stores the view it built as the lead of the document's frame, the hidden spans after it (one stored copy of
//! every text: the document is the view with its placeholders replaced), so the reader serves it as stored and
//! rebuilds it only for a frame without a lead.

use std::fmt::Write as _;

mod context;
mod prop;
pub use context::{import_line, name_entry};
pub use prop::{ExampleRef, PropRow, example_line, line_span, prop_line, story_of};

use crate::model::{CodeBlockMeta, DocMeta, FileMeta, PropsOrigin, PropsTable, SectionMeta, TableMeta};

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
    /// For a demo file's block (`<code src="…">`): its title (`Some("")` when it has none); `None` for a fence.
    fn demo_title(&self) -> Option<&str> {
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
    fn demo_title(&self) -> Option<&str> {
        self.demo.as_ref().map(|d| d.title.as_deref().unwrap_or(""))
    }
}

/// The document with every code block replaced by a numbered placeholder (Semi Design MCP's
/// rule for documents over 888 lines).
///
/// `blocks` are the document's code blocks in order (from the compiler's parse, or as stored). Each block's byte
/// range `start_byte..end_byte` is replaced by a fenced `text` block of this shape (here for block 7, of 389
/// tokens, under heading "Basic table"):
///
/// ````text
/// ```text
/// [code block #7 hidden: jsx, 389 tokens, under "Basic table"]
/// ```
/// ````
///
/// (The header of every answer says how to fetch block N, once.)
///
/// - `jsx` is the first word of the block's info string, left out (with its comma) when empty;
///   `389 tokens` is what fetching the block costs, when the block knows its size ([`BlockSpan::tokens`]),
///   else its line span (`42 lines`, fences included); `under "…"` is left out when no heading (or an empty
///   one) precedes the block.
/// - Every placeholder line starts with the block's own container prefix (its indentation, and
///   `>` of enclosing block quotes; a list marker on the fence line stays on the first line and
///   is replaced by spaces on the others), so blocks inside list items and quotes stay there.
/// - Lines are joined with `"\r\n"` when the block used CRLF, else `"\n"`. The placeholder fence
///   is longer than any backtick run in the summary (a heading or a `~~~` info string may hold some).
///
/// Everything outside the blocks is copied unchanged; no header is added (the caller adds one
/// with totals). Blocks whose ranges do not fit `text` are left as they are; never panics.
///
/// A block with an empty range at the end of the text is an example kept beside the document (a Storybook story:
/// its code is its own frame, the document stays as written): its placeholder goes on a line of its own after the
/// text, under a `## <its heading>` line written once for a run of such blocks with the same heading. The heading
/// and line breaks belong to the placeholder's replaced range, so splicing the document back removes them.
pub fn placeholder_view<B: BlockSpan>(text: &str, blocks: &[B]) -> String {
    placeholder_view_spans(text, blocks, &[]).0
}

/// Tables of at least this many tokens are hidden too in the placeholder view: a document's long API tables are
/// what is left once its code is hidden (Semi's Table: 5,500 of the 13,000 tokens of its view), and
/// `sections=["<heading>"]` or `sections=["props"]` serve them.
pub const TABLE_HIDE_TOKENS: u32 = 200;

/// [`placeholder_view`] hiding long `tables` too (those of [`TABLE_HIDE_TOKENS`] or more, each replaced by one line
/// `[table hidden: 49 rows, 2,332 tokens, under "Table"; get it as section "Table"]`), with where each code
/// block placeholder sits in the view: `(block number, start byte, end byte)`, so a part cut to a budget can tell
/// that it ends inside one.
pub fn placeholder_view_spans<B: BlockSpan>(
    text: &str,
    blocks: &[B],
    tables: &[TableMeta],
) -> (String, Vec<(u32, usize, usize)>) {
    let (view, spans, _) = placeholder_view_layout(text, blocks, tables);
    (view, spans)
}

/// Where a hidden block or table is in the document and its placeholder in the view (bytes):
/// `[document start, document end, view start, view end]`.
pub type Replaced = [usize; 4];

/// [`placeholder_view_spans`] with where each hidden block and table is in both texts, in order: `[start, end]` in
/// the document and `[start, end]` of its placeholder in the view. The document is the view with each placeholder
/// replaced by its document span: how the compiler stores a document over the threshold, its view first (the
/// reader decodes the view alone; see the bundle format's `Lead`).
pub fn placeholder_view_layout<B: BlockSpan>(
    text: &str,
    blocks: &[B],
    tables: &[TableMeta],
) -> (String, Vec<(u32, usize, usize)>, Vec<Replaced>) {
    enum Hidden<'a, B> {
        Block(&'a B),
        Table(&'a TableMeta),
    }
    let mut hidden: Vec<(usize, usize, Hidden<B>)> =
        blocks.iter().map(|b| (b.bytes().0 as usize, b.bytes().1 as usize, Hidden::Block(b))).collect();
    hidden.extend(
        tables
            .iter()
            .filter(|t| t.tokens >= TABLE_HIDE_TOKENS)
            .map(|t| (t.start_byte as usize, t.end_byte as usize, Hidden::Table(t))),
    );
    hidden.sort_by_key(|h| h.0);
    let mut out = String::with_capacity(text.len() / 2);
    let mut spans = Vec::with_capacity(blocks.len());
    let mut replaced = Vec::with_capacity(hidden.len());
    let mut copied = 0usize;
    let mut beside_heading: Option<&str> = None;
    for (start, end, what) in hidden {
        if start < copied || end < start || text.get(start..end).is_none() {
            continue;
        }
        out.push_str(&text[copied..start]);
        let at = out.len();
        match what {
            Hidden::Block(block) if start == end => {
                // An example kept beside the text (a story): its placeholder on a line of its own after the
                // document, under its heading, said once for a run of blocks with the same one.
                let heading = block.heading().unwrap_or("Examples");
                if beside_heading != Some(heading) {
                    if !out.is_empty() {
                        out.push_str(if out.ends_with("\n\n") {
                            ""
                        } else if out.ends_with('\n') {
                            "\n"
                        } else {
                            "\n\n"
                        });
                    }
                    let _ = write!(out, "## {heading}\n\n");
                    beside_heading = Some(heading);
                }
                let from = out.len();
                out.push_str(&placeholder(text, block));
                spans.push((block.index(), from, out.len()));
                out.push('\n');
            }
            Hidden::Block(block) => {
                out.push_str(&placeholder(text, block));
                spans.push((block.index(), at, out.len()));
            }
            Hidden::Table(table) => out.push_str(&table_placeholder(text, table)),
        }
        replaced.push([start, end, at, out.len()]);
        copied = end;
    }
    out.push_str(&text[copied..]);
    (out, spans, replaced)
}

/// `s` after a count other than 1 (numbers here are printed without thousands separators: see [`card`]).
fn s(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// The one-line placeholder of a hidden table, indented as the table's first line.
fn table_placeholder(text: &str, table: &TableMeta) -> String {
    let first = text[table.start_byte as usize..].split('\n').next().unwrap_or("");
    let indent = &first[..first.len() - first.trim_start_matches([' ', '\t', '>']).len()];
    let mut line = format!(
        "{indent}[table hidden: {}, {}",
        crate::units::plural(table.rows, "row"),
        crate::units::plural(table.tokens, "token")
    );
    if let Some(h) = table.heading.as_deref().filter(|h| !h.is_empty()) {
        // Neutral wording (this text is counted once for both surfaces): `--section` / `sections` both take it.
        let _ = write!(line, ", under \"{h}\"; get it as section \"{h}\"");
    }
    line.push(']');
    line
}

/// One placeholder fence for `block` (see [`placeholder_view`]); `text[start..end]` is valid.
fn placeholder<B: BlockSpan>(text: &str, block: &B) -> String {
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
    // Split at `\r` (memchr) rather than search for "\r\n": 53 blocks cost 0.25 M instructions that way.
    let crlf = original.split('\r').skip(1).any(|after| after.starts_with('\n'))
        || text[end_byte as usize..].starts_with("\r\n");
    let newline = if crlf { "\r\n" } else { "\n" };

    let (start_line, end_line) = block.lines();
    let lines = end_line.saturating_sub(start_line) + 1;
    let mut summary = format!("[code block #{} hidden: ", block.index());
    // The block's language only: the rest of the info string (`live=true dir="column"`) is for the site's renderer,
    // and costs ~10 tokens a placeholder; `get_code_block` shows it.
    if let Some(lang) = block.info().split_whitespace().next() {
        let _ = write!(summary, "{lang}, ");
    }
    // Tokens when known (what fetching the block costs), else lines; numbers without separators (fewer tokens).
    match block.tokens() {
        Some(tokens) => {
            let _ = write!(summary, "{tokens} token{}", if tokens == 1 { "" } else { "s" });
        }
        None => {
            let _ = write!(summary, "{lines} line{}", if lines == 1 { "" } else { "s" });
        }
    }
    if let Some(title) = block.demo_title() {
        // A demo's `<code src>` element sits in a line (dumi puts several on one): the placeholder replaces the
        // element only, on one line, with no fence.
        if !title.is_empty() {
            let _ = write!(summary, ", demo \"{title}\"");
        } else {
            summary.push_str(", demo");
        }
        summary.push(']');
        return summary;
    }
    if let Some(heading) = block.heading().filter(|h| !h.is_empty()) {
        let _ = write!(summary, ", under \"{heading}\"");
    }
    summary.push(']');

    let fence = "`".repeat(longest_backtick_run(&summary).max(2) + 1);
    format!("{first_prefix}{fence}text{newline}{rest_prefix}{summary}{newline}{rest_prefix}{fence}")
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

/// The component card (`component_details` at `detail=brief`): what an agent needs to plan its next calls, in
/// about 2 % of the document's tokens. Rebuilt by the reader from stored metadata; the compiler counts its tokens
/// with this same function. Shape (sizes in tokens, numbers without separators):
///
/// ```text
/// # Table 表格 (table, zh-CN: 6374 lines, 52358 tokens, 53 code blocks)
/// <one-line description>
/// import { Table } from '@douyinfe/semi-ui';
///
/// ## Sections (tokens; code blocks: #number tokens, jsx unless named)
/// - 代码演示 44381
///   - 基本表格 849: #2 802, #3 css 80
/// ## Props tables: Table (49), Column (36) (section "props")
/// ## Files in packages/semi-foundation/table/ (lines, tokens), largest first
/// - foundation.ts 1286, 10803 (skeleton 4344)
/// ```
///
/// Sections are H2 and H3 (a block under an H4 is listed with its H3); blocks under no listed heading are listed
/// on a line of their own. Files past the largest [`CARD_FILES`] are summed up in one line.
pub fn card(component: &str, doc: &DocMeta, files: &[FileMeta], props: &[PropsTable]) -> String {
    // Numbers without thousands separators: `44381` is two o200k tokens, `44,381` three.
    let mut out = format!(
        "# {} ({component}, {}: {} line{}, {} token{}, {} code block{})\n",
        doc.title.as_deref().unwrap_or(component),
        doc.lang,
        doc.lines,
        s(doc.lines as usize),
        doc.tokens,
        s(doc.tokens as usize),
        doc.code_blocks.len(),
        s(doc.code_blocks.len()),
    );
    // Storybook stories among the examples (their own blocks, or example files they re-export).
    let stories = doc.code_blocks.iter().filter(|b| b.demo.as_ref().is_some_and(|d| d.story.is_some())).count();
    if stories > 0 {
        out.pop();
        out.pop();
        let _ = writeln!(out, ", {stories} stor{})", if stories == 1 { "y" } else { "ies" });
    }
    for line in [doc.brief.as_deref(), doc.import.as_deref()].into_iter().flatten() {
        let _ = writeln!(out, "{line}");
    }
    // Blocks by the section that holds them: the innermost H2 or H3 whose lines contain the block.
    let listed: Vec<&SectionMeta> = doc.sections.iter().filter(|s| (2..=3).contains(&s.level)).collect();
    let mut blocks_of: Vec<Vec<&CodeBlockMeta>> = vec![Vec::new(); listed.len()];
    let mut loose = Vec::new();
    // Examples kept beside the text (stories: an empty span), listed under their heading after the sections.
    let mut beside: Vec<(&str, Vec<&CodeBlockMeta>)> = Vec::new();
    for b in &doc.code_blocks {
        if b.start_byte == b.end_byte {
            let heading = b.heading.as_deref().unwrap_or("Examples");
            match beside.iter_mut().find(|(h, _)| *h == heading) {
                Some((_, blocks)) => blocks.push(b),
                None => beside.push((heading, vec![b])),
            }
            continue;
        }
        let holder = listed.iter().rposition(|s| s.start_line <= b.start_line && b.start_line <= s.end_line);
        match holder {
            Some(i) => blocks_of[i].push(b),
            None => loose.push(b),
        }
    }
    // The most common block language is said once, in the legend.
    let mut langs: Vec<(&str, usize)> = Vec::new();
    for b in &doc.code_blocks {
        match langs.iter_mut().find(|(l, _)| *l == b.lang) {
            Some((_, n)) => *n += 1,
            None => langs.push((&b.lang, 1)),
        }
    }
    let common = langs.iter().max_by_key(|(_, n)| *n).map_or("", |(l, _)| *l);
    let block_list = |blocks: &[&CodeBlockMeta]| {
        blocks
            .iter()
            .map(|b| {
                let lang = if b.lang == common || b.lang.is_empty() { String::new() } else { format!(" {}", b.lang) };
                let title = match b.demo.as_ref().and_then(|d| d.title.as_deref()) {
                    Some(t) => format!(" \"{t}\""),
                    None => String::new(),
                };
                format!("#{}{lang} {}{title}", b.index, b.tokens)
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    if !listed.is_empty() || !loose.is_empty() || !beside.is_empty() {
        let legend = if common.is_empty() { String::new() } else { format!(", {common} unless named") };
        let _ = writeln!(out, "\n## Sections (tokens; code blocks: #number tokens{legend})");
    }
    if !loose.is_empty() {
        let _ = writeln!(out, "- (outside sections): {}", block_list(&loose));
    }
    for (s, blocks) in listed.iter().zip(&blocks_of) {
        let indent = "  ".repeat(usize::from(s.level.saturating_sub(2)));
        let blocks = if blocks.is_empty() { String::new() } else { format!(": {}", block_list(blocks)) };
        let _ = writeln!(out, "{indent}- {} {}{blocks}", s.title, s.tokens);
    }
    for (heading, blocks) in &beside {
        let _ = writeln!(out, "- {heading} (beside the text): {}", block_list(blocks));
    }
    let own: Vec<&PropsTable> = props
        .iter()
        .filter(|t| t.origin == PropsOrigin::Typescript || t.lang.as_deref() == Some(doc.lang.as_str()))
        .collect();
    if !own.is_empty() {
        let counted: Vec<String> = own.iter().map(|t| format!("{} ({})", t.name, t.props.len())).collect();
        // A heading titled "Props" (dumi's) is not what `props` serves: say how to name it.
        let heading = doc.sections.iter().find(|s| s.title.trim().eq_ignore_ascii_case("props")).map(|h| {
            let parent = doc.sections.iter().rev().find(|p| p.start_line < h.start_line && p.level < h.level);
            format!("; the heading: section \"{} › {}\"", parent.map_or("", |p| p.title.as_str()), h.title)
        });
        let heading = heading.unwrap_or_default();
        let _ = writeln!(out, "\n## Props tables: {} (section \"props\"{heading})", counted.join(", "));
    }
    if !files.is_empty() {
        // Paths relative to the folder they share, said once.
        let dir = common_dir(files.iter().map(|f| f.path.as_str()));
        let _ =
            writeln!(out, "\n## Files in {} (lines, tokens), largest first", if dir.is_empty() { "." } else { dir });
        let mut files: Vec<&FileMeta> = files.iter().collect();
        files.sort_by(|a, b| b.tokens.cmp(&a.tokens).then_with(|| a.path.cmp(&b.path)));
        for f in files.iter().take(CARD_FILES) {
            let skeleton = f.skeleton.as_ref().map_or(String::new(), |s| format!(" (skeleton {})", s.tokens));
            let _ = writeln!(out, "- {} {}, {}{skeleton}", &f.path[dir.len()..], f.lines, f.tokens);
        }
        if files.len() > CARD_FILES {
            let rest = &files[CARD_FILES..];
            let tokens: u64 = rest.iter().map(|f| u64::from(f.tokens)).sum();
            let _ = writeln!(out, "- and {} more, {tokens} token{}", rest.len(), s(tokens as usize));
        }
    }
    out
}

/// The longest folder prefix (ending in `/`) of every path.
fn common_dir<'a>(mut paths: impl Iterator<Item = &'a str>) -> &'a str {
    let Some(first) = paths.next() else { return "" };
    let mut len = first.rfind('/').map_or(0, |i| i + 1);
    for p in paths {
        while len > 0 && !p.starts_with(&first[..len]) {
            len = first[..len - 1].rfind('/').map_or(0, |i| i + 1);
        }
    }
    &first[..len]
}

/// Files listed one by one in a [`card`] (the largest); the rest are summed up.
pub const CARD_FILES: usize = 4;

/// The props tables of `component` as Markdown (`component_details` with `sections=["props"]`): per table a heading
/// naming it and where it comes from, then `| Prop | Type | Default | Description |` rows (`?` marks optional
/// props; `since`/deprecated notes go to the description). Cells have `|` escaped and newlines flattened.
pub fn props_text(component: &str, tables: &[PropsTable]) -> String {
    props_text_spans(component, tables).0
}

/// [`props_text`] and the byte span of each table in it (`tables[i]` is `text[spans[i].0..spans[i].1]`: its heading
/// to the next table's heading, the blank line after it included), so a reader cuts the text by table without
/// searching it. No spans when `tables` is empty.
pub fn props_text_spans(component: &str, tables: &[PropsTable]) -> (String, Vec<(usize, usize)>) {
    if tables.is_empty() {
        let text = format!(
            "No props tables were found for {component} (no `XxxProps` type in its sources, no API table in its document).\n"
        );
        return (text, Vec::new());
    }
    let cell = |s: &str| s.replace('|', "\\|").replace(['\n', '\r'], " ");
    let mut out = String::new();
    let mut spans = Vec::with_capacity(tables.len());
    for t in tables {
        let start = out.len();
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
            // The compiler ends the description with `(deprecated: <advice>)` when the source gives advice.
            if p.deprecated && !about.contains("(deprecated: ") {
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
        spans.push((start, out.len()));
    }
    (out, spans)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Prop;

    fn table(name: &str, origin: PropsOrigin, path: &str, prop: &str) -> PropsTable {
        PropsTable {
            name: name.into(),
            origin,
            path: path.into(),
            lang: None,
            line: 3,
            end_line: 5,
            extends: vec![],
            unresolved_extends: vec![],
            props: vec![Prop {
                name: prop.into(),
                type_text: "boolean".into(),
                optional: true,
                default: None,
                // A description that reads like another table's heading: spans are not found by searching.
                description: Some("## Button (see below)".into()),
                since: None,
                deprecated: false,
            }],
        }
    }

    #[test]
    fn props_tables_have_their_own_spans_even_under_one_name() {
        let tables = [
            table("Button", PropsOrigin::Typescript, "src/button.tsx", "loading"),
            table("Button", PropsOrigin::Document, "docs/button.md", "block"),
        ];
        let (text, spans) = props_text_spans("Button", &tables);
        assert_eq!(text, props_text("Button", &tables));
        let parts: Vec<&str> = spans.iter().map(|&(a, b)| &text[a..b]).collect();
        assert_eq!(
            parts,
            [
                "## Button (src/button.tsx:3)\n\n| Prop | Type | Default | Description |\n| --- | --- | --- | --- |\n\
                 | loading? | boolean |  | ## Button (see below) |\n\n",
                "## Button (docs/button.md:3)\n\n| Prop | Type | Default | Description |\n| --- | --- | --- | --- |\n\
                 | block? | boolean |  | ## Button (see below) |\n\n",
            ]
        );
        assert_eq!(spans.last().map(|s| s.1), Some(text.len()));
        assert_eq!(props_text_spans("Button", &[]).1, []);
    }
}
