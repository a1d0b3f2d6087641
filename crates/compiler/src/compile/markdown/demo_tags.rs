//! dumi's demo elements (`<code src="…">`) outside fenced blocks: found line by line and added to the document's
//! code blocks, in document order.

use super::{CodeBlock, Demo, Heading, LineMap, to_u32};
use crate::model::CodeBlockMeta;

/// Adds a code block for every `<code src="…">` element outside fenced blocks (see [`Demo`]), and renumbers every
/// block in document order. A `<code` inside an inline code span (after an odd number of backticks on its line)
/// or an HTML comment is not a demo.
pub(super) fn add_demo_blocks(text: &str, lines: &LineMap, headings: &[Heading], blocks: &mut Vec<CodeBlock>) {
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
