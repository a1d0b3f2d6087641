//! What a renderer sees of a code block inside containers (list items, block quotes), and MDX's JSX-only lines
//! masked out before parsing.

use super::LineMap;

/// The code block as a renderer sees it (see [`CodeBlock::code`]): its opening fence line from
/// the fence on, comrak's `literal` (container prefixes already removed), and the closing fence
/// line from the fence on; `None` when that equals the source slice.
pub(super) fn clean_code(
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
pub(super) fn mask_jsx_lines(text: &str) -> Option<String> {
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

#[cfg(test)]
mod tests {
    use super::super::*;
    use super::is_jsx_line;

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
