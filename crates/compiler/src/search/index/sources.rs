//! The units of a source file: its functions (doc comment and signature, the identifiers of the body mentioned)
//! and its declarations outside functions (interfaces and their members, types, constants, exported names), so
//! that an identifier of a source (`clientHeight`, `isArray`, a type member) is found where it is written.

use super::{Fields, TARGET, estimate};
use crate::compile::tokens::TextCounts;
use crate::model::FunctionMeta;
use crate::search::{Kind, Source, UnitInfo};

use super::UnitDraft;

/// The units of one source file: each function's (doc comment and signature ranked, the rest of its text
/// mentioned; a getter and its setter, which share a qualified name, make one unit), then its declarations outside
/// every function ([`declaration_units`]).
pub fn function_units(
    component: &str,
    path: &str,
    text: &str,
    functions: &[FunctionMeta],
    tokens: &TextCounts,
) -> Vec<UnitDraft> {
    let source = Source { component: component.into(), lang: String::new(), path: path.into() };
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for func in functions {
        if !seen.insert(func.qualified.as_str()) {
            continue;
        }
        let start = func.start_byte as usize;
        let Some(body) = text.get(start..(func.end_byte as usize).max(start)) else { continue };
        let sig_end = start + signature_len(body);
        let doc_start = doc_comment_start(text, start);
        let Some(span) = text.get(doc_start..sig_end) else { continue };
        let mut f = Fields::default();
        f.title(&func.qualified);
        // The name without its owner (`handleSort` of `TableFoundation.handleSort`) is a title term too: a query
        // naming the function finds it by the whole identifier (the reader ranks that first).
        if let Some((_, name)) = func.qualified.rsplit_once('.') {
            f.title(name);
        }
        f.context(path);
        f.body(span);
        // What its body names (`el.clientHeight`, `Array.isArray`, a comment's words) is found in it, counted once.
        f.mentions(body);
        // The doc comment and signature are what is ranked; the range, text and size are those of what the
        // follow-up call (`get_function_code`) serves: the whole function, every entry of its name (a getter and
        // its setter) counted.
        let same = functions.iter().filter(|g| g.qualified == func.qualified);
        let whole: u32 =
            same.clone().map(|g| if g.tokens > 0 { g.tokens } else { tokens.count(text_of(text, g)) }).sum();
        let info = UnitInfo {
            start_line: same.clone().map(|g| g.start_line).min().unwrap_or(func.start_line),
            end_line: same.map(|g| g.end_line).max().unwrap_or(func.end_line),
            start_byte: func.start_byte,
            end_byte: func.end_byte,
            tokens: whole,
            name: func.qualified.clone(),
            ..UnitInfo::default()
        };
        out.push(f.finish(Kind::Function, source.clone(), info));
    }
    out.extend(declaration_units(&source, text, functions, tokens));
    out
}

/// The declaration units of a source file: its lines outside every function and import (re-exports stay: the
/// names a module exports), in runs cut at blank lines
/// and packed up to about [`TARGET`] tokens (a longer run cut at its lines). Title: the names the run declares
/// (`interface TableProps`, `const DEFAULT_SIZE`, `export type Size`) and the identifiers of several parts it holds,
/// each whole; context: the path; body: its text. A unit
/// of kind function with no name: its hit's follow-up reads its lines of the file.
fn declaration_units(source: &Source, text: &str, functions: &[FunctionMeta], tokens: &TextCounts) -> Vec<UnitDraft> {
    let lines: Vec<&str> = text.split('\n').collect();
    let mut outside = vec![true; lines.len() + 1];
    for f in functions {
        for n in f.start_line..=f.end_line.min(lines.len() as u32) {
            outside[n as usize] = false;
        }
    }
    let mut importing = false;
    for (i, line) in lines.iter().enumerate() {
        let t = line.trim_start();
        let starts = t.starts_with("import ") || t.starts_with("import{");
        if starts || importing {
            outside[i + 1] = false;
            // A multi-line import ends at its `from '…'` (or a `;`).
            importing = !(t.contains(" from ") || t.contains("from '") || t.contains("from \"") || t.ends_with(';'));
        }
    }
    // Runs of lines outside, each cut at blank lines into pieces `(first, last)` (1-based).
    let mut pieces: Vec<(u32, u32)> = Vec::new();
    let mut open: Option<u32> = None;
    for n in 1..=lines.len() as u32 {
        let blank = lines[n as usize - 1].trim().is_empty();
        if !outside[n as usize] || blank {
            if let Some(a) = open.take() {
                pieces.push((a, n - 1));
            }
            // A blank line inside a run keeps the next piece in it; a line of a function ends the run.
            if !outside[n as usize] {
                pieces.push((0, 0));
            }
            continue;
        }
        open.get_or_insert(n);
    }
    if let Some(a) = open {
        pieces.push((a, lines.len() as u32));
    }
    let starts: Vec<usize> = std::iter::once(0)
        .chain(lines.iter().scan(0usize, |at, l| {
            *at += l.len() + 1;
            Some(*at)
        }))
        .collect();
    let slice = |a: u32, b: u32| {
        let (s, e) = (starts[a as usize - 1], starts[b as usize] - 1);
        text.get(s..e.max(s)).unwrap_or("")
    };
    // Packed: pieces of one run while their estimate stays within the target; a piece over it alone, by lines.
    let mut units: Vec<(u32, u32, u32)> = Vec::new();
    let mut run_ended = true;
    for (a, b) in pieces {
        if a == 0 {
            run_ended = true;
            continue;
        }
        let size = estimate(slice(a, b));
        match units.last_mut() {
            Some((_, end, sum)) if !run_ended && *sum + size <= TARGET => {
                *end = b;
                *sum += size;
            }
            _ if size > TARGET => {
                for n in a..=b {
                    let line = estimate(slice(n, n));
                    match units.last_mut() {
                        Some((first, end, sum)) if *first >= a && *sum + line <= TARGET => {
                            *end = n;
                            *sum += line;
                        }
                        _ => units.push((n, n, line)),
                    }
                }
            }
            _ => units.push((a, b, size)),
        }
        run_ended = false;
    }
    units
        .into_iter()
        .filter_map(|(a, b, _)| {
            let body = slice(a, b);
            let mut f = Fields::default();
            // Only each name whole is a title term (`dialogfooterprops`, not `dialog`, `footer`): a query naming the
            // declaration finds it first, a question in words is not answered by a bare declaration above the
            // documents and props tables that explain it.
            // The identifiers of several parts it holds (interface members, re-exported names: `useTooltipStyles`)
            // are title terms as well, whole: a query naming one ranks it first; words match only their parts.
            let mut names = declared_names(body);
            names.extend(body.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '$')).filter(|w| {
                w.len() <= crate::search::analyze::MAX_TERM_BYTES
                    && crate::search::analyze::identifier_parts(w).len() > 1
            }));
            for name in names {
                let mut whole = None;
                super::analyze(name, |t| {
                    whole.get_or_insert_with(|| t.to_string());
                });
                if let Some(t) = whole {
                    f.title_term(&t);
                }
            }
            f.context(&source.path);
            f.body(body);
            let start = starts[a as usize - 1];
            let info = UnitInfo {
                start_line: a,
                end_line: b,
                start_byte: start as u32,
                end_byte: (start + body.len()) as u32,
                tokens: tokens.count(body),
                ..UnitInfo::default()
            };
            let draft = f.finish(Kind::Function, source.clone(), info);
            (!draft.terms.is_empty()).then_some(draft)
        })
        .collect()
}

/// The names `text` declares: the word after `interface`, `type`, `enum`, `class`, `const`, `let`, `var`,
/// `namespace` or `function` (as they start a line, after `export`, `export default`, `declare`).
fn declared_names(text: &str) -> Vec<&str> {
    const KEYWORDS: [&str; 9] = ["interface", "type", "enum", "class", "const", "let", "var", "namespace", "function"];
    let mut out = Vec::new();
    for line in text.lines() {
        let mut words = line.split_whitespace().skip_while(|w| matches!(*w, "export" | "default" | "declare"));
        if let (Some(k), Some(name)) = (words.next(), words.next())
            && KEYWORDS.contains(&k)
        {
            let name = name.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$')).next().unwrap_or("");
            if !name.is_empty() {
                out.push(name);
            }
        }
    }
    out
}

/// The text of function `g` in `text` (empty when its span is not in it).
fn text_of<'t>(text: &'t str, g: &FunctionMeta) -> &'t str {
    text.get(g.start_byte as usize..g.end_byte as usize).unwrap_or("")
}

/// Bytes of a function's signature: up to its body's `{` (outside parentheses), else its first line; at most
/// 400 bytes (on a char boundary).
fn signature_len(body: &str) -> usize {
    let mut depth = 0i32;
    for (i, c) in body.char_indices() {
        if i > 400 {
            break;
        }
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            '{' if depth <= 0 => return body[..i].trim_end().len(),
            _ => {}
        }
    }
    let first = body.find('\n').unwrap_or(body.len());
    let mut cut = first.min(400);
    while !body.is_char_boundary(cut) {
        cut -= 1;
    }
    body[..cut].trim_end().len()
}

/// Where the doc comment (`/** … */`, or a run of `//` lines) right above `start` begins; `start` when there is
/// none. Decorator lines (`@…`) between the comment and the function are included.
fn doc_comment_start(text: &str, start: usize) -> usize {
    let mut at = start;
    loop {
        let before = text[..at].trim_end();
        if before.ends_with("*/") {
            match before.rfind("/*") {
                Some(open) => {
                    at = line_start(text, open);
                    continue;
                }
                None => return at,
            }
        }
        // The previous line: a `//` comment or a decorator joins.
        let end = before.len();
        if end == 0 {
            return at;
        }
        let begin = text[..end].rfind('\n').map_or(0, |i| i + 1);
        let line = text[begin..end].trim_start();
        if line.starts_with("//") || line.starts_with('@') {
            at = begin;
            continue;
        }
        return at;
    }
}

/// Start of the line holding byte `at`, when only whitespace precedes `at` on it; else `at`.
fn line_start(text: &str, at: usize) -> usize {
    let begin = text[..at].rfind('\n').map_or(0, |i| i + 1);
    if text[begin..at].trim().is_empty() { begin } else { at }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compile::tokens::TokenCounter;
    use crate::model::{FunctionKind, FunctionKinds};

    const FILE: &str = "import { isArray } from 'lodash';\nimport {\n  Foo,\n} from './foo';\n\n\
        export interface TableProps {\n  clientHeight?: number;\n}\n\n\
        export const DEFAULT_SIZE = 'middle';\n\n\
        export function size(el) {\n  return el.offsetHeight;\n}\n";

    fn function() -> FunctionMeta {
        let start = FILE.find("export function").unwrap() as u32;
        FunctionMeta {
            name: "size".into(),
            qualified: "size".into(),
            kind: FunctionKinds::one(FunctionKind::Function),
            start_line: 12,
            end_line: 14,
            start_byte: start,
            end_byte: FILE.len() as u32 - 1,
            tokens: 0,
        }
    }

    #[test]
    fn declarations_outside_functions_and_imports_are_units_titled_by_their_names() {
        let counter = TokenCounter::new("o200k_base").unwrap();
        let (_, counts) = counter.map_counts(FILE);
        let units = function_units("table", "table.ts", FILE, &[function()], &counts);
        let spans: Vec<(u32, u32, &str)> =
            units.iter().map(|u| (u.info.start_line, u.info.end_line, u.info.name.as_str())).collect();
        // The function, then the interface and the constant (one run each side of a blank line, packed), never
        // the imports.
        assert_eq!(spans, [(12, 14, "size"), (6, 10, "")]);
        let decl = &units[1];
        let text = &FILE[decl.info.start_byte as usize..decl.info.end_byte as usize];
        assert_eq!(
            text,
            "export interface TableProps {\n  clientHeight?: number;\n}\n\nexport const DEFAULT_SIZE = 'middle';"
        );
        assert_eq!(decl.info.tokens, counter.count(text));
        let title: Vec<&str> = decl.terms.iter().filter(|t| t.2 & super::super::IN_TITLE != 0).map(|t| t.0).collect();
        assert_eq!(title, ["clientheight", "default_size", "tableprops"]);
        assert!(decl.terms.iter().any(|t| t.0 == "clientheight"), "a member is a term");
        assert!(!units.iter().any(|u| u.terms.iter().any(|t| t.0 == "isarray")), "imports are no unit");
        // The function's body is mentioned, once.
        assert!(units[0].terms.iter().any(|t| t.0 == "el.offsetheight" && t.1 == 1));
    }
}
