//! Document views computed from stored spans: the placeholder view of the Semi Design MCP server's 888-line rule.
//! Pure text splicing over byte ranges the compiler found with comrak, so the reader can build a view without
//! parsing Markdown, and the compiler can count its tokens with the very same function (one stored copy of every
//! text: the view is not stored).

use std::fmt::Write as _;

use crate::model::CodeBlockMeta;

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
    let mut out = String::with_capacity(text.len() / 2);
    let mut copied = 0usize;
    for block in blocks {
        let (start, end) = (block.bytes().0 as usize, block.bytes().1 as usize);
        if start < copied || end < start || text.get(start..end).is_none() {
            continue;
        }
        out.push_str(&text[copied..start]);
        out.push_str(&placeholder(text, block, &fetch_hint(block)));
        copied = end;
    }
    out.push_str(&text[copied..]);
    out
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
