//! Compiler side of search: cuts what the compiler already parsed into units, analyzes their terms, counts their
//! tokens with the compiler's [`TokenCounter`], and writes `search.bundle`.
//!
//! Units, each with a title, a context and a body (the fields of [`Weights`]):
//! - **doc**: a document section at every heading level H1–H4 (deeper headings stay in their H4), from its heading
//!   to the next heading of level ≤ 4; the text before the first heading is a unit too. A section over
//!   [`HARD_LIMIT`] tokens is split into parts of about [`TARGET`] tokens at paragraph and code-block boundaries,
//!   never inside a fence. Title: the heading; context: document title, component name, enclosing headings;
//!   body: the prose (code blocks are indexed as code units, so their terms are not counted twice).
//! - **code**: every fenced code block. Title: the heading above it; context: as its section; body: the code
//!   between the fences.
//! - **function**: every function of the function index. Title: the qualified name; context: the file path;
//!   body: the doc comment and the signature, which are also the text served.
//! - **changelog**: one release entry per version and language. Title: the heading (version, date); body: the
//!   entry.
//!
//! - **props**: every props table, taken from TypeScript (Blueprint's `AlertProps`) or from a document's API table
//!   (Semi's `Select` table, in its document's language). Title: the table's name, and its props' whole
//!   identifiers (`onchange`; stop words such as `more` too); context: the component; body: each prop's name,
//!   type, default and description. Its text is the table as `sections=["props"]` renders it.
//!
//! Everything here is deterministic: units are numbered in the order the caller passes them (sorted by component,
//! language, position), terms are sorted, no hash-map order reaches the output.

use std::collections::HashMap;

// FxHash: xxh3's streaming hasher (`Xxh3DefaultBuilder`) cost ~100 ns per short term (issue 12 item 2); no
// hash-map order reaches the output, so the hasher does not change the bundles.
use rustc_hash::FxBuildHasher;

use rayon::prelude::*;

use super::analyze::analyze;
use super::{
    Bytes, Kind, MAX_TF, SearchMeta, Source, TermShard, UnitChunk, UnitInfo, Weights, keys, put_varint, shard_of,
};
use crate::bundle::writer::{BundleWriter, Frame};
use crate::compile::changelog::Release;
use crate::compile::markdown::Document;
use crate::compile::tokens::{TextCounts, TokenCounter};
use crate::line_index::LineIndex;
use crate::model::{PropsOrigin, PropsTable, SearchEntry};

/// Tokens a section part aims at when a section is split.
pub const TARGET: u32 = 800;
/// Sections over this many tokens are split.
pub const HARD_LIMIT: u32 = 1200;
/// Units per unit chunk frame.
pub const CHUNK: u32 = 128;
/// Raw bytes of postings a term shard aims at.
const SHARD_BYTES: usize = 48 << 10;

/// Bit of a posting: the term is in the unit's title.
pub const IN_TITLE: u32 = 2;
/// Bit of a posting: the term is in the unit's context.
pub const IN_CONTEXT: u32 = 1;

/// A unit before it is numbered: its details and its terms.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct UnitDraft {
    /// What it is.
    pub kind: Kind,
    /// Where its text is.
    pub source: Source,
    /// Details (its `source` index is set by [`build`]).
    pub info: UnitInfo,
    /// Terms, sorted, each with its posting value: body frequency (capped at [`MAX_TF`]) shifted left by 2, or'ed
    /// with the [`IN_TITLE`]/[`IN_CONTEXT`] bits.
    pub terms: PackedTerms,
    /// Body length in terms.
    pub len: u32,
    /// Words of the title and context (and prop names), lower-cased as written (unstemmed), sorted and unique:
    /// the spellings [`build`] stores in the term dictionary that "did you mean" suggestions come from.
    pub words: PackedStrings,
}

/// Strings packed into one buffer (string `i` is `text[ends[i - 1]..ends[i]]`): a unit's terms cost their bytes
/// and 4 bytes each, not a heap allocation each (issue 12: the search units of every component are held until the
/// index is built; with one `String` per term they were the largest part of a build's peak memory).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PackedStrings {
    text: String,
    ends: Vec<u32>,
}

impl PackedStrings {
    /// Packs `strings` in the order given.
    pub fn new<'s>(strings: impl IntoIterator<Item = &'s str>) -> PackedStrings {
        let mut p = PackedStrings::default();
        for s in strings {
            p.text.push_str(s);
            p.ends.push(p.text.len() as u32);
        }
        p
    }

    /// How many strings.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The strings, in order.
    pub fn iter(&self) -> impl Iterator<Item = &str> + '_ {
        self.ends.iter().scan(0usize, |start, &end| {
            let s = self.text.get(*start..end as usize).unwrap_or("");
            *start = end as usize;
            Some(s)
        })
    }
}

/// A unit's sorted terms with their one-byte posting values (see [`UnitDraft::terms`]).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PackedTerms {
    terms: PackedStrings,
    values: Vec<u8>,
}

impl PackedTerms {
    /// How many terms.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The terms in order, each with its body frequency (capped at [`MAX_TF`]) and its
    /// [`IN_TITLE`]/[`IN_CONTEXT`] bits.
    pub fn iter(&self) -> impl Iterator<Item = (&str, u32, u32)> + '_ {
        self.terms.iter().zip(&self.values).map(|(t, &v)| (t, u32::from(v) >> 2, u32::from(v) & 3))
    }

    /// The posting value of each term, in order (what a posting stores: `tf << 2 | bits`).
    fn values(&self) -> &[u8] {
        &self.values
    }
}

impl UnitDraft {
    /// A unit of `kind` from its three fields, analyzed (the way every builder here makes them, and the way the
    /// props units of a later extraction will).
    pub fn new(kind: Kind, source: Source, info: UnitInfo, title: &str, context: &str, body: &str) -> UnitDraft {
        let mut f = Fields::default();
        f.title(title);
        f.context(context);
        f.body(body);
        f.finish(kind, source, info)
    }
}

/// Collects the fields of one unit into its sorted term list.
#[derive(Default)]
struct Fields {
    map: HashMap<String, (u32, u32), FxBuildHasher>,
    len: u32,
    words: Vec<String>,
}

impl Fields {
    /// The entry of `term`, allocated only the first time it is seen.
    fn entry<'m>(map: &'m mut HashMap<String, (u32, u32), FxBuildHasher>, term: &str) -> &'m mut (u32, u32) {
        if !map.contains_key(term) {
            map.insert(term.to_string(), (0, 0));
        }
        map.get_mut(term).expect("just inserted")
    }
    fn title(&mut self, text: &str) {
        analyze(text, |t| Self::entry(&mut self.map, t).1 |= IN_TITLE);
        self.spellings(text);
    }
    /// One term of the title, as given (already analyzed), with its spelling for "did you mean".
    fn title_term(&mut self, term: &str) {
        Self::entry(&mut self.map, term).1 |= IN_TITLE;
        self.spellings(term);
    }
    fn context(&mut self, text: &str) {
        analyze(text, |t| Self::entry(&mut self.map, t).1 |= IN_CONTEXT);
        self.spellings(text);
    }
    /// Keeps the dictionary words of `text` (see [`dictionary_words`]).
    fn spellings(&mut self, text: &str) {
        dictionary_words(text, |w| self.words.push(w.to_string()));
    }
    fn body(&mut self, text: &str) {
        analyze(text, |t| {
            Self::entry(&mut self.map, t).0 += 1;
            self.len += 1;
        });
    }
    /// The terms of `text` that the unit does not hold yet, each counted once in the body: what a unit mentions
    /// beside what it says (a function body's identifiers, an example's string literals and comments), findable
    /// without outweighing its own words. Not added to the body's length.
    fn mentions(&mut self, text: &str) {
        analyze(text, |t| {
            let e = Self::entry(&mut self.map, t);
            e.0 = e.0.max(1);
        });
    }
    fn finish(self, kind: Kind, source: Source, info: UnitInfo) -> UnitDraft {
        let mut terms: Vec<(&String, &(u32, u32))> = self.map.iter().collect();
        terms.sort_unstable_by(|a, b| a.0.cmp(b.0));
        let packed = PackedTerms {
            terms: PackedStrings::new(terms.iter().map(|(t, _)| t.as_str())),
            values: terms.iter().map(|(_, (tf, f))| ((tf.min(&MAX_TF) << 2) | f) as u8).collect(),
        };
        let mut words = self.words;
        words.sort_unstable();
        words.dedup();
        let words = PackedStrings::new(words.iter().map(String::as_str));
        UnitDraft { kind, source, info, terms: packed, len: self.len, words }
    }
}

pub use crate::search::analyze::{DICT_WORD_MAX, dictionary_words};

mod sources;
pub use sources::function_units;

/// A text with its [`LineIndex`] (lines counted as `split('\n')`, 1-based).
struct Lines<'a> {
    text: &'a str,
    index: LineIndex,
}

impl<'a> Lines<'a> {
    fn new(text: &'a str) -> Self {
        Lines { text, index: LineIndex::new(text) }
    }
    fn count(&self) -> u32 {
        self.index.count()
    }
    /// Start byte of line `n`.
    fn start(&self, n: u32) -> usize {
        self.index.start(n)
    }
    /// End byte of line `n`, without its line terminator.
    fn end(&self, n: u32) -> usize {
        let end = self.index.end(n).max(self.start(n));
        if end > self.start(n) && self.text.as_bytes().get(end - 1) == Some(&b'\r') { end - 1 } else { end }
    }
    /// Lines `a..=b`.
    fn slice(&self, a: u32, b: u32) -> &'a str {
        let (s, e) = (self.start(a), self.end(b));
        self.text.get(s..e.max(s)).unwrap_or("")
    }
    fn is_blank(&self, n: u32) -> bool {
        self.slice(n, n).trim().is_empty()
    }
}

/// Last line of a leading `---` front matter block (0 when there is none).
fn front_matter_end(lines: &Lines) -> u32 {
    if lines.slice(1, 1).trim_end() != "---" {
        return 0;
    }
    (2..=lines.count()).find(|&n| lines.slice(n, n).trim_end() == "---").unwrap_or(0)
}

/// Where a document is: the arguments of [`doc_units`] that describe it.
pub struct DocSource<'a> {
    /// Component key.
    pub component: &'a str,
    /// Component display name.
    pub name: &'a str,
    /// Language tag.
    pub lang: &'a str,
    /// Repository-relative path.
    pub path: &'a str,
}

/// A span of lines of one section: a paragraph group or one whole code block.
#[derive(Clone, Copy)]
struct Piece {
    start: u32,
    end: u32,
    /// Index into the document's code blocks when the piece is one.
    block: Option<usize>,
}

/// Token counts the compiler already made for a document, reused where a unit has the same span.
pub struct Counted {
    /// Tokens of each code block's slice of the document, in order (fences included); a cleaned block's unit
    /// takes its served count (`CodeBlockMeta::tokens`) instead.
    pub blocks: Vec<u32>,
    /// Tokens of each section of [`Document::sections`] (its whole span, sub-sections included).
    pub sections: Vec<u32>,
}

/// The units of one document: its sections (split when over [`HARD_LIMIT`] tokens) and its code blocks.
///
/// Token counts are exact: a unit whose span is a whole section or code block takes the count already made; other
/// sections and the parts of split sections are counted.
pub fn doc_units(
    src: &DocSource,
    text: &str,
    doc: &Document,
    counted: &Counted,
    tokens: &TextCounts,
) -> Vec<UnitDraft> {
    let block_tokens = counted.blocks.as_slice();
    let lines = Lines::new(text);
    let source = Source { component: src.component.into(), lang: src.lang.into(), path: src.path.into() };
    let title = doc.title.clone().unwrap_or_default();
    // The front matter's `subtitle` names the component too (`subtitle: 树选择`: its Chinese name), so every unit of
    // the document carries it as the English name is carried.
    let subtitle = doc.front_matter.iter().find(|(k, _)| k == "subtitle").map_or("", |(_, v)| v.as_str());
    let doc_context = format!("{title} {subtitle} {}", src.name);
    let heads: Vec<&crate::compile::markdown::Section> = doc.sections.iter().filter(|s| s.level <= 4).collect();
    let first_line = front_matter_end(&lines) + 1;
    let mut out = Vec::new();

    // The front matter's words a person reads (issue 24 item 5: a component's own description, searched word for
    // word, found nothing): one unit over its lines, in the document's context.
    let said: Vec<&str> = doc
        .front_matter
        .iter()
        .filter(|(k, _)| matches!(k.as_str(), "title" | "subtitle" | "description" | "brief" | "summary"))
        .map(|(_, v)| v.as_str())
        .collect();
    if first_line > 1 && !said.is_empty() {
        let mut f = Fields::default();
        f.title(&title);
        f.context(&doc_context);
        f.body(&said.join("\n"));
        let end = first_line - 1;
        let info = UnitInfo {
            start_line: 1,
            end_line: end,
            start_byte: 0,
            end_byte: lines.end(end) as u32,
            tokens: tokens.count(lines.slice(1, end)),
            ..UnitInfo::default()
        };
        out.push(f.finish(Kind::Doc, source.clone(), info));
    }

    // The segments: (first line, last line, index into `heads` of the heading that starts it).
    let mut segments: Vec<(u32, u32, Option<usize>)> = Vec::new();
    let intro_end = heads.first().map_or(lines.count(), |h| h.start_line.saturating_sub(1));
    if intro_end >= first_line {
        segments.push((first_line, intro_end, None));
    }
    for (i, h) in heads.iter().enumerate() {
        let end = heads.get(i + 1).map_or(lines.count(), |n| n.start_line.saturating_sub(1)).max(h.start_line);
        segments.push((h.start_line.max(first_line), end, Some(i)));
    }

    // Enclosing headings (levels 2..=4) of every heading.
    let mut stack: Vec<(u8, &str)> = Vec::new();
    let mut paths: Vec<Vec<String>> = Vec::with_capacity(heads.len());
    for h in &heads {
        while stack.last().is_some_and(|(l, _)| *l >= h.level) {
            stack.pop();
        }
        let mut p: Vec<String> = stack.iter().filter(|(l, _)| *l > 1).map(|(_, t)| t.to_string()).collect();
        p.push(h.title.clone());
        paths.push(p);
        stack.push((h.level, &h.title));
    }

    let blocks = &doc.code_blocks;
    for (start, end, head) in segments {
        if start > end {
            continue;
        }
        let heading = head.map(|i| heads[i]);
        let path = head.map(|i| paths[i].clone()).unwrap_or_default();
        let ancestors = path.iter().take(path.len().saturating_sub(1)).cloned().collect::<Vec<_>>().join(" ");
        let context = format!("{doc_context} {ancestors}");
        let own_title = heading.map_or_else(|| title.clone(), |h| h.title.clone());
        // Body lines start after the heading line (a setext heading's underline is markup).
        let body_start = if heading.is_some() { start + 1 } else { start };
        let pieces = pieces(&lines, blocks, body_start, end);
        if pieces.is_empty() {
            // A heading with nothing under it but sub-sections: the sub-sections are the units.
            continue;
        }
        let same_section = head.and_then(|i| {
            let s = heads[i];
            (s.start_line == start && s.end_line == end).then(|| doc.sections.iter().position(|x| std::ptr::eq(x, s)))
        });
        let count = match same_section.flatten().and_then(|i| counted.sections.get(i)) {
            Some(&n) => n,
            None => tokens.count(lines.slice(start, end)),
        };
        let parts: Vec<(u32, u32, u32)> = if count <= HARD_LIMIT {
            vec![(start, end, count)]
        } else {
            split(&lines, &pieces, start, end, block_tokens, tokens)
        };
        let n = parts.len() as u16;
        for (k, (a, b, part_tokens)) in parts.into_iter().enumerate() {
            let mut f = Fields::default();
            f.title(&own_title);
            f.context(&context);
            for p in pieces.iter().filter(|p| p.block.is_none() && p.end >= a && p.start <= b) {
                f.body(lines.slice(p.start.max(a), p.end.min(b)));
            }
            let info = UnitInfo {
                start_line: a,
                end_line: b,
                start_byte: lines.start(a) as u32,
                end_byte: lines.end(b) as u32,
                tokens: part_tokens,
                part: k as u16 + 1,
                parts: n,
                ..UnitInfo::default()
            };
            out.push(f.finish(Kind::Doc, source.clone(), info));
        }
    }

    // Code units, each in its section's context.
    for (i, b) in blocks.iter().enumerate() {
        let at = heads.partition_point(|h| h.start_line <= b.start_line);
        let path = at.checked_sub(1).map(|h| paths[h].clone()).unwrap_or_default();
        let mut f = Fields::default();
        // An example's own title and description are what a question about it names (a story's heading is only
        // "Stories"); its heading and file name give context.
        let demo_title = b.demo.as_ref().and_then(|d| d.title.as_deref());
        f.title(demo_title.or(b.heading.as_deref()).unwrap_or(&title));
        let file = b.demo.as_ref().map_or("", |d| d.path.rsplit('/').next().unwrap_or(""));
        let heading = if demo_title.is_some() { b.heading.as_deref().unwrap_or("") } else { "" };
        f.context(&format!("{doc_context} {} {heading} {file}", path.join(" ")));
        if let Some(d) = b.demo.as_ref().and_then(|d| d.description.as_deref()) {
            f.body(d);
        }
        let code = match (&b.demo, &b.code) {
            // A demo file's block: its code is the file's, read by the compiler.
            (Some(_), Some(code)) => code.as_str(),
            _ if b.end_line > b.start_line + 1 => lines.slice(b.start_line + 1, b.end_line - 1),
            _ => "",
        };
        f.body(&without_prose_literals(code));
        // Its Chinese literals (labels, example titles, texts) are findable, counted once (issue 26 §2: Chinese in
        // code blocks found nothing). English sentences stay out: demo data and labels (`"Dialog footer"`) ranked
        // examples above the sections that explain the same words.
        f.mentions(&chinese_literals(code));
        let info = UnitInfo {
            start_line: b.start_line,
            end_line: b.end_line,
            start_byte: b.start_byte,
            end_byte: b.end_byte,
            // A demo or cleaned block's hit serves its own frame (what `get_code_block` serves): that count.
            tokens: if b.cleaned { b.tokens } else { block_tokens.get(i).copied().unwrap_or(0) },
            block: b.index,
            ..UnitInfo::default()
        };
        out.push(f.finish(Kind::Code, source.clone(), info));
    }
    out
}

/// The string literals of `code` that hold Chinese or Japanese, one a line.
fn chinese_literals(code: &str) -> String {
    let mut out = String::new();
    for (i, piece) in code.split(['\'', '"', '`']).enumerate() {
        // Odd pieces are between quotes (approximately: an escaped quote shifts them, which only moves a few words).
        if i % 2 == 1 && super::analyze::has_cjk(piece) {
            out.push_str(piece);
            out.push('\n');
        }
    }
    out
}

/// Code with the contents of its sentence-like string literals (with a space or a Chinese character: demo data,
/// labels, placeholders) blanked out; identifiers, one-word literals (`'left'`, `"primary"`) and comments stay.
fn without_prose_literals(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    for line in code.split_inclusive('\n') {
        let mut rest = line;
        while let Some(open) = rest.find(['\'', '"', '`']) {
            let q = rest.as_bytes()[open];
            out.push_str(&rest[..=open]);
            let body = &rest[open + 1..];
            let mut close = None;
            let mut escaped = false;
            for (i, b) in body.bytes().enumerate() {
                match b {
                    _ if escaped => escaped = false,
                    b'\\' => escaped = true,
                    _ if b == q => {
                        close = Some(i);
                        break;
                    }
                    _ => {}
                }
            }
            let Some(close) = close else {
                rest = body;
                continue;
            };
            let lit = &body[..close];
            if lit.contains(char::is_whitespace) || super::analyze::has_cjk(lit) {
                out.push(' ');
            } else {
                out.push_str(lit);
            }
            out.push(q as char);
            rest = &body[close + 1..];
        }
        out.push_str(rest);
    }
    out
}

/// The pieces of lines `start..=end`: each code block whole, and runs of other lines cut after blank lines.
fn pieces(lines: &Lines, blocks: &[crate::compile::markdown::CodeBlock], start: u32, end: u32) -> Vec<Piece> {
    let mut out = Vec::new();
    let mut n = start;
    let mut para: Option<u32> = None;
    let mut bi = blocks.partition_point(|b| b.end_line < start);
    while n <= end {
        if let Some(b) = blocks.get(bi).filter(|b| b.start_line == n) {
            if let Some(p) = para.take() {
                out.push(Piece { start: p, end: n - 1, block: None });
            }
            let last = b.end_line.min(end).max(n);
            out.push(Piece { start: n, end: last, block: Some(bi) });
            n = last + 1;
            bi += 1;
            continue;
        }
        if blocks.get(bi).is_some_and(|b| b.start_line < n) {
            bi += 1;
            continue;
        }
        if lines.is_blank(n) {
            if let Some(p) = para.take() {
                out.push(Piece { start: p, end: n, block: None });
            }
        } else if para.is_none() {
            para = Some(n);
        }
        n += 1;
    }
    if let Some(p) = para {
        out.push(Piece { start: p, end, block: None });
    }
    out
}

/// Tokens of prose, estimated for packing only: a token per 4 bytes of ASCII, one per other character.
fn estimate(text: &str) -> u32 {
    let ascii = text.bytes().filter(u8::is_ascii).count();
    let other = text.chars().count() - ascii;
    (ascii / 4 + other) as u32
}

/// Splits an oversized section into parts of about [`TARGET`] tokens at piece boundaries: `(start, end, tokens)`.
fn split(
    lines: &Lines,
    pieces: &[Piece],
    start: u32,
    end: u32,
    block_tokens: &[u32],
    tokens: &TextCounts,
) -> Vec<(u32, u32, u32)> {
    // Parts are packed from code blocks' exact counts and estimates of the prose (the tokenizer is the build's
    // costliest step after compression); each part is then counted exactly. A paragraph over the target (a long
    // API table has no blank line) is cut at its lines instead.
    let mut fine: Vec<(u32, u32, u32)> = Vec::new();
    let mut covered = start.saturating_sub(1);
    let gap = |fine: &mut Vec<(u32, u32, u32)>, a: u32, b: u32| {
        if a <= b {
            fine.push((a, b, estimate(lines.slice(a, b))));
        }
    };
    for (i, p) in pieces.iter().enumerate() {
        // The heading line (and anything before the first piece) goes with the first part.
        let p_start = if i == 0 { start } else { p.start };
        gap(&mut fine, covered + 1, p_start.saturating_sub(1));
        covered = p.end;
        match p.block {
            Some(b) => fine.push((p_start, p.end, block_tokens.get(b).copied().unwrap_or(0))),
            None => {
                let size = estimate(lines.slice(p_start, p.end));
                if size <= TARGET || p_start == p.end {
                    fine.push((p_start, p.end, size));
                } else {
                    for n in p_start..=p.end {
                        fine.push((n, n, estimate(lines.slice(n, n))));
                    }
                }
            }
        }
    }
    gap(&mut fine, covered + 1, end);
    // The pieces and the blank lines between them now cover `start..=end`: each part is the pieces it packs.
    let mut parts: Vec<(u32, u32, u32)> = Vec::new();
    for (p_start, p_end, size) in fine {
        match parts.last_mut() {
            Some((_, b, sum)) if *sum + size <= TARGET => {
                *b = p_end;
                *sum += size;
            }
            _ => parts.push((p_start, p_end, size)),
        }
    }
    if let Some(last) = parts.last_mut() {
        last.1 = end;
    }
    // The sums only packed the parts: each part is counted whole, exactly.
    for p in &mut parts {
        p.2 = tokens.count(lines.slice(p.0, p.1));
    }
    parts
}

/// The release units of one changelog: the set's (`component` empty) or a component's own (`component` its key;
/// the unit is read from the file `path`). A release inside one page is counted from that page's segment counts
/// (`pages`: the [`TextCounts`] of the page bodies, slices of `text`), others are tokenized.
pub fn release_units(
    component: &str,
    lang: &str,
    path: &str,
    text: &str,
    releases: &[Release],
    pages: &[TextCounts],
    tokens: &TokenCounter,
) -> Vec<UnitDraft> {
    let lines = Lines::new(text);
    let source = Source { component: component.into(), lang: lang.into(), path: path.into() };
    releases
        .par_iter()
        .map(|r| {
            let mut f = Fields::default();
            f.title(&r.heading);
            f.context("changelog");
            if r.end_line > r.start_line {
                f.body(lines.slice(r.start_line + 1, r.end_line));
            }
            let whole = text.get(r.start_byte as usize..r.end_byte as usize).unwrap_or("");
            let info = UnitInfo {
                start_line: r.start_line,
                end_line: r.end_line,
                start_byte: r.start_byte,
                end_byte: r.end_byte,
                tokens: pages.iter().find(|p| p.holds(whole)).map_or_else(|| tokens.count(whole), |p| p.count(whole)),
                ..UnitInfo::default()
            };
            f.finish(Kind::Changelog, source.clone(), info)
        })
        .collect()
}

/// A term with its postings: (term, unit id gaps, values).
type TermPostings = (String, Vec<u8>, Vec<u8>);

/// Search units held compactly until the index is built (issue 12: at 10× Semi the drafts, with their strings and
/// vectors, were half of the build's peak heap): the MessagePack of the drafts, compressed with zstd at level 1.
/// [`build_packed`] decodes one at a time.
/// Serializable, so the incremental build cache keeps a component's units packed.
#[derive(Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct PackedUnits {
    compressed: Bytes,
    raw_len: usize,
    count: usize,
}

impl PackedUnits {
    /// Packs `units` (in their order).
    ///
    /// # Errors
    /// Serialization or compression failure (neither happens for drafts made here).
    pub fn pack(units: &[UnitDraft]) -> std::io::Result<PackedUnits> {
        if units.is_empty() {
            return Ok(PackedUnits::default());
        }
        thread_local! {
            /// This thread's level-1 context (one per thread, not one per pack).
            static PACKER: std::cell::RefCell<Option<zstd::bulk::Compressor<'static>>> =
                const { std::cell::RefCell::new(None) };
        }
        let raw = rmp_serde::to_vec(units).map_err(std::io::Error::other)?;
        // zstd returns a buffer of the input's size bound: shrunk, or the pack would hold the raw size.
        let mut compressed = PACKER.with(|cell| -> std::io::Result<Vec<u8>> {
            let Ok(mut slot) = cell.try_borrow_mut() else { return zstd::bulk::compress(&raw, 1) };
            if slot.is_none() {
                *slot = Some(zstd::bulk::Compressor::new(1)?);
            }
            match slot.as_mut() {
                Some(c) => c.compress(&raw),
                None => zstd::bulk::compress(&raw, 1),
            }
        })?;
        compressed.shrink_to_fit();
        Ok(PackedUnits { compressed: Bytes(compressed), raw_len: raw.len(), count: units.len() })
    }

    /// The units packed, in order.
    ///
    /// # Errors
    /// The bytes do not decode (a bug: they were made by [`PackedUnits::pack`]).
    pub fn unpack(&self) -> std::io::Result<Vec<UnitDraft>> {
        if self.count == 0 {
            return Ok(Vec::new());
        }
        let raw = zstd::bulk::decompress(&self.compressed.0, self.raw_len)?;
        rmp_serde::from_slice(&raw).map_err(std::io::Error::other)
    }

    /// How many units.
    pub fn len(&self) -> usize {
        self.count
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }
}

/// Numbers `drafts` in the order given and writes the search bundle: the `meta` frame, the term shards and the
/// unit chunks (frames compressed in parallel).
///
/// # Errors
/// Serialization or compression failure.
pub fn build(drafts: Vec<UnitDraft>, weights: Weights) -> std::io::Result<(BundleWriter, SearchEntry)> {
    let mut postings = Postings::default();
    drafts.into_iter().for_each(|d| postings.add(d));
    postings.finish(weights)
}

/// Packs unpacked at a time by [`build_packed`].
const UNPACK_WINDOW: usize = 64;

/// As [`build`], from packed units (each unpacked in turn, so the drafts are never all in memory).
///
/// # Errors
/// As [`build`], or a pack that does not decode.
pub fn build_packed(packs: Vec<PackedUnits>, weights: Weights) -> std::io::Result<(BundleWriter, SearchEntry)> {
    let mut postings = Postings::default();
    // Packs are unpacked a window at a time, in parallel, while the postings take them in order: the drafts of one
    // window only are in memory.
    for window in packs.chunks(UNPACK_WINDOW) {
        let unpacked: Vec<Vec<UnitDraft>> =
            window.par_iter().map(PackedUnits::unpack).collect::<std::io::Result<_>>()?;
        unpacked.into_iter().flatten().for_each(|d| postings.add(d));
    }
    postings.finish(weights)
}

/// The index under construction: units numbered as they are added, postings by term.
#[derive(Default)]
struct Postings {
    sources: Vec<Source>,
    source_ids: HashMap<Source, u32>,
    unit_kind: Vec<u8>,
    unit_source: Vec<u32>,
    unit_len: Vec<u32>,
    len_sum: [f64; Kind::ALL.len()],
    len_count: [u32; Kind::ALL.len()],
    /// term → (last unit id, gap varints, values)
    postings: HashMap<String, (u32, Vec<u8>, Vec<u8>), FxBuildHasher>,
    infos: Vec<UnitInfo>,
    /// The dictionary's words (a hash set while units are added: sorted once at the end).
    dictionary: std::collections::HashSet<String, FxBuildHasher>,
}

impl Postings {
    /// Numbers `d` (the next id) and adds its terms.
    fn add(&mut self, d: UnitDraft) {
        for w in d.words.iter() {
            if !self.dictionary.contains(w) {
                self.dictionary.insert(w.to_string());
            }
        }
        let id = self.infos.len() as u32;
        let sid = match self.source_ids.get(&d.source) {
            Some(&sid) => sid,
            None => {
                self.sources.push(d.source.clone());
                let sid = self.sources.len() as u32 - 1;
                self.source_ids.insert(d.source.clone(), sid);
                sid
            }
        };
        self.unit_kind.push(d.kind.code());
        self.unit_source.push(sid);
        self.unit_len.push(d.len);
        self.len_sum[d.kind.code() as usize] += f64::from(d.len);
        self.len_count[d.kind.code() as usize] += 1;
        for (term, &value) in d.terms.terms.iter().zip(d.terms.values()) {
            let e = match self.postings.get_mut(term) {
                Some(e) => e,
                None => self.postings.entry(term.to_string()).or_insert_with(|| (0, Vec::new(), Vec::new())),
            };
            put_varint(&mut e.1, id - e.0);
            e.2.push(value);
            e.0 = id;
        }
        self.infos.push(UnitInfo { source: sid, ..d.info });
    }

    /// The search bundle of the units added.
    fn finish(self, weights: Weights) -> std::io::Result<(BundleWriter, SearchEntry)> {
        let Postings {
            sources, unit_kind, unit_source, unit_len, len_sum, len_count, postings, infos, dictionary, ..
        } = self;
        let n = infos.len();
        let avg_len: [f32; Kind::ALL.len()] =
            std::array::from_fn(
                |k| if len_count[k] == 0 { 1.0 } else { (len_sum[k] / f64::from(len_count[k])) as f32 },
            );
        let terms = postings.len() as u32;
        let raw: usize = postings.iter().map(|(t, p)| t.len() + p.1.len() + p.2.len() + 8).sum();
        let shards = (raw / SHARD_BYTES).clamp(1, 1024) as u32;
        let mut by_shard: Vec<Vec<TermPostings>> = vec![Vec::new(); shards as usize];
        for (term, (_, gaps, values)) in postings {
            by_shard[shard_of(&term, shards) as usize].push((term, gaps, values));
        }
        let mut frames: Vec<Frame> = by_shard
            .into_par_iter()
            .enumerate()
            .map(|(i, mut list)| {
                list.sort_unstable_by(|a, b| a.0.cmp(&b.0));
                let mut shard = TermShard::default();
                let mut prev = String::new();
                for (term, gaps, values) in list {
                    // Front coding: the bytes shared with the previous term (on a char boundary) are not repeated.
                    let mut shared = prev.bytes().zip(term.bytes()).take_while(|(a, b)| a == b).count().min(255);
                    while !term.is_char_boundary(shared) {
                        shared -= 1;
                    }
                    shard.shared.0.push(shared as u8);
                    shard.suffix_lens.0.push((term.len() - shared) as u8);
                    shard.suffixes.push_str(&term[shared..]);
                    prev = term;
                    put_varint(&mut shard.df.0, values.len() as u32);
                    shard.gaps.0.extend_from_slice(&gaps);
                    shard.values.0.extend_from_slice(&values);
                }
                Frame::new(keys::shard(i as u32), &shard)
            })
            .collect::<std::io::Result<_>>()?;
        let chunks: Vec<Frame> = infos
            .par_chunks(CHUNK as usize)
            .enumerate()
            .map(|(i, units)| Frame::new(keys::units(i as u32), &UnitChunk { units: units.to_vec() }))
            .collect::<std::io::Result<_>>()?;
        frames.extend(chunks);
        let meta = SearchMeta {
            units: n as u32,
            terms,
            shards,
            chunk: CHUNK,
            weights,
            avg_len,
            sources,
            unit_kind: Bytes(unit_kind),
            unit_source,
            unit_len,
        };
        let mut w = BundleWriter::new();
        w.add(keys::META, &meta)?;
        // The term dictionary: an FST set of the words (sorted, as the builder requires).
        let mut dictionary: Vec<String> = dictionary.into_iter().collect();
        dictionary.sort_unstable();
        let dict = fst::Set::from_iter(dictionary.iter()).map_err(std::io::Error::other)?;
        w.add(keys::DICTIONARY, &Bytes(dict.into_fst().into_inner()))?;
        for f in frames {
            w.push(f);
        }
        Ok((w, SearchEntry { bundle: super::BUNDLE_NAME.into(), units: n as u32, terms }))
    }
}

/// Units of the props tables of component `key` (display name `name`): those taken from TypeScript and the API
/// tables of its documents (those carry their document's language, so the language filter applies); their tokens
/// are those of the text a hit serves, [`crate::view::props_text`] of the one table. Prop names that are English
/// stop words (`more`) are indexed whole in the title field: an exact identifier stays findable.
/// A unit's range is the table's lines (`line` to `end_line`, as its parser found them).
pub fn props_units(key: &str, name: &str, tables: &[PropsTable], tokens: &TokenCounter) -> Vec<UnitDraft> {
    tables
        .iter()
        .map(|t| {
            let lang =
                if t.origin == PropsOrigin::Document { t.lang.clone().unwrap_or_default() } else { String::new() };
            let source = Source { component: key.to_string(), lang, path: t.path.clone() };
            let info = UnitInfo {
                source: 0,
                start_line: t.line,
                end_line: t.end_line,
                start_byte: 0,
                end_byte: 0,
                tokens: tokens.count(&crate::view::props_text(name, std::slice::from_ref(t))),
                part: 1,
                parts: 1,
                block: 0,
                name: t.name.clone(),
            };
            let body: Vec<String> = t
                .props
                .iter()
                .map(|p| {
                    let default = p.default.as_deref().unwrap_or("");
                    format!("{} {} {default} {}", p.name, p.type_text, p.description.as_deref().unwrap_or(""))
                })
                .collect();
            let mut f = Fields::default();
            f.title(&t.name);
            f.context(name);
            f.body(&body.join("\n"));
            for p in &t.props {
                f.spellings(&p.name);
                // A prop's whole identifier (`onchange`) is a title term: a query naming the prop names the table.
                // Single-word names (`loading`) stay body terms, so prose questions keep meeting prose first.
                let whole: String = p.name.chars().filter(|&c| c != '-').flat_map(char::to_lowercase).collect();
                analyze(&p.name, |w| {
                    if w == whole && super::analyze::identifier_parts(&p.name).len() > 1 {
                        Fields::entry(&mut f.map, w).1 |= IN_TITLE;
                    }
                });
                super::analyze::stop_identifiers(&p.name, |w| Fields::entry(&mut f.map, w).1 |= IN_TITLE);
            }
            f.finish(Kind::Props, source, info)
        })
        .collect()
}
