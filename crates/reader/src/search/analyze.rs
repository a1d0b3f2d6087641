//! Term analysis, the same for the index and for queries, so that what a query says meets what a document says.
//!
//! 1. URLs (`scheme://…`) are skipped: link targets are noise to a question.
//! 2. The text is cut into words by Unicode word boundaries (UAX #29, `unicode-segmentation`); ASCII words joined
//!    by `-` with no space (`date-picker`) are one compound word.
//! 3. A word of Chinese or Japanese characters joins its neighbours into a run, and a run gives its character
//!    bigrams (`固定列` → `固定`, `定列`; a lone character gives itself). Runs break at punctuation, spaces and a
//!    few particles (`的`, `了`, `吗`, …); question bigrams (`如何`, `怎样`, `什么`, …) are dropped.
//! 4. Any other word is lower-cased and split into its identifier parts, on camel case (`onChange` → `on`,
//!    `change`; `HTMLElement` → `html`, `element`) and on `_`, `.`, `:`, `-`. Each part that is not an English stop
//!    word and has at least 2 characters is stemmed (Snowball English, `rust-stemmers`); a word of several parts
//!    is also kept whole, unstemmed (`onchange`, `form.input`, `datepicker`), so an exact identifier scores above
//!    its parts alone; a word of one part whose stem differs is also kept as written (`hijacked`, `tables`), so the
//!    very form a query says scores above the word's other forms.
//! 5. Integers of 1 or 2 digits are dropped (list items, small sizes, demo data); longer ones are kept (issue and
//!    pull-request numbers); a dotted number is kept whole, and a version `2.89.0` also gives `2.89`, so "what
//!    changed in 2.89" meets every 2.89.x.
//!
//! No model, no dictionary file, no allocation per term beyond the emitted string: this runs on every query in
//! the reader, and on every unit text in the compiler.

use std::borrow::Cow;
use std::sync::LazyLock;

use rust_stemmers::{Algorithm, Stemmer};
use unicode_segmentation::UnicodeSegmentation;

/// Longest term kept, in bytes (longer words are hashes, base64 or minified code).
pub const MAX_TERM_BYTES: usize = 48;

static STEMMER: LazyLock<Stemmer> = LazyLock::new(|| Stemmer::create(Algorithm::English));

/// English function words and the commonest JavaScript keywords: they occur in nearly every unit and would only add
/// noise (and bulk) to the index. Sorted, for binary search.
const STOP_WORDS: &[&str] = &[
    "a", "about", "above", "after", "again", "all", "also", "am", "an", "and", "any", "are", "aren", "as", "at", "be",
    "been", "being", "both", "but", "by", "can", "const", "could", "did", "didn", "do", "does", "doesn", "doing",
    "don", "during", "e.g", "each", "etc", "export", "for", "from", "had", "has", "have", "having", "he", "her",
    "here", "his", "how", "i", "i.e", "if", "import", "in", "into", "is", "isn", "it", "its", "just", "let", "me",
    "might", "more", "most", "my", "of", "on", "once", "only", "or", "other", "our", "out", "over", "own", "same",
    "she", "should", "so", "some", "such", "than", "that", "the", "their", "them", "then", "there", "these", "they",
    "this", "those", "through", "to", "too", "under", "until", "up", "var", "very", "was", "wasn", "we", "were",
    "what", "when", "where", "which", "while", "who", "whom", "why", "will", "with", "won", "would", "you", "your",
];

/// Particles that break a Chinese run (they join nothing worth a bigram).
const CJK_STOP_CHARS: &[char] = &['的', '了', '吗', '呢', '吧', '啊', '么', '怎', '我', '你', '把', '被'];

/// Question and filler bigrams dropped from Chinese runs ("how", "can", "implement", "support", "use", …).
const CJK_STOP_BIGRAMS: &[&str] = &[
    "一个", "什么", "使用", "可以", "哪些", "如何", "如果", "实现", "怎样", "是否", "支持", "为何", "能否", "这个",
    "那个", "需要", "应该",
];

/// Whether `c` is a Chinese/Japanese character handled by bigrams (Han ideographs, kana).
pub fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x3040..=0x30FF     // Hiragana, Katakana
        | 0x3400..=0x4DBF   // CJK Extension A
        | 0x4E00..=0x9FFF   // CJK Unified Ideographs
        | 0xF900..=0xFAFF   // CJK Compatibility Ideographs
        | 0x20000..=0x2FA1F) // Extensions B–F, Compatibility Supplement
}

/// Whether `c` breaks a Chinese run (a particle such as `的` joins nothing worth a bigram): what a sample of
/// searchable Chinese words cuts runs at.
pub fn breaks_cjk_run(c: char) -> bool {
    CJK_STOP_CHARS.contains(&c)
}

/// Whether `text` holds any Chinese/Japanese character.
pub fn has_cjk(text: &str) -> bool {
    text.chars().any(is_cjk)
}

/// Whether `word` is an English stop word (lower-case).
pub fn is_stop_word(word: &str) -> bool {
    STOP_WORDS.binary_search(&word).is_ok()
}

/// Calls `emit` with each word of `text` that is an English stop word written as a whole identifier (`more`,
/// `open`-like words cut out by [`analyze`]), lower-cased, in order. The index adds these for exact identifiers
/// (prop names), and short queries look them up, so a prop named `more` is findable although the word is stopped
/// in prose.
pub fn stop_identifiers(text: &str, mut emit: impl FnMut(&str)) {
    for w in text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
        if w.is_empty() || w.len() > MAX_TERM_BYTES {
            continue;
        }
        let lower = w.to_ascii_lowercase();
        if is_stop_word(&lower) {
            emit(&lower);
        }
    }
}

/// The terms of `text`, in order, repeats included.
pub fn terms(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    analyze(text, |t| out.push(t.to_string()));
    out
}

/// Calls `emit` with every term of `text`, in order, repeats included (see the module documentation).
pub fn analyze(text: &str, mut emit: impl FnMut(&str)) {
    let mut run = CjkRun::default();
    let mut rest = text;
    let mut base = 0usize;
    while !rest.is_empty() {
        let (plain, url_len) = split_url(rest);
        analyze_plain(&rest[..plain], base, &mut run, &mut emit);
        run.flush(&mut emit);
        let skip = plain + url_len;
        base += skip;
        rest = &rest[skip..];
    }
    run.flush(&mut emit);
}

/// Length of the text before the first URL, and the URL's length (0 when there is none).
fn split_url(s: &str) -> (usize, usize) {
    let Some(at) = s.find("://") else { return (s.len(), 0) };
    let bytes = s.as_bytes();
    let mut start = at;
    while start > 0 && bytes[start - 1].is_ascii_alphanumeric() {
        start -= 1;
    }
    let mut end = at + 3;
    while end < bytes.len() && bytes[end].is_ascii_graphic() && !b"()[]{}<>\"'`".contains(&bytes[end]) {
        end += 1;
    }
    if start == at {
        // `://` with no scheme: not a URL; keep the text up to and including it.
        return (at + 3, 0);
    }
    (start, end - start)
}

/// A run of adjacent Chinese/Japanese characters, turned into bigrams when it ends.
#[derive(Default)]
struct CjkRun {
    chars: Vec<char>,
    /// Byte offset just after the run's last character (to tell adjacency).
    end: usize,
    buf: String,
}

impl CjkRun {
    fn push(&mut self, c: char, at: usize, len: usize, emit: &mut impl FnMut(&str)) {
        if !self.chars.is_empty() && self.end != at {
            self.flush(emit);
        }
        self.chars.push(c);
        self.end = at + len;
    }

    fn flush(&mut self, emit: &mut impl FnMut(&str)) {
        // A question bigram (`如何`) is cut out of the run, so it leaves no bigram across its edges either.
        let mut keep = vec![true; self.chars.len()];
        for (k, w) in self.chars.windows(2).enumerate() {
            self.buf.clear();
            self.buf.extend(w);
            if CJK_STOP_BIGRAMS.contains(&self.buf.as_str()) {
                keep[k] = false;
                keep[k + 1] = false;
            }
        }
        let mut start = 0;
        while start < self.chars.len() {
            if !keep[start] {
                start += 1;
                continue;
            }
            let end = (start..self.chars.len()).find(|&k| !keep[k]).unwrap_or(self.chars.len());
            let sub = &self.chars[start..end];
            if sub.len() == 1 {
                self.buf.clear();
                self.buf.push(sub[0]);
                emit(&self.buf);
            }
            for w in sub.windows(2) {
                self.buf.clear();
                self.buf.extend(w);
                emit(&self.buf);
            }
            start = end;
        }
        self.chars.clear();
    }
}

fn is_word(seg: &str) -> bool {
    seg.chars().any(char::is_alphanumeric)
}

/// Analyzes text without URLs; `base` is its offset in the whole text (for CJK adjacency).
fn analyze_plain(text: &str, base: usize, run: &mut CjkRun, emit: &mut impl FnMut(&str)) {
    let segs: Vec<(usize, &str)> = text.split_word_bound_indices().collect();
    let mut i = 0;
    while i < segs.len() {
        let (at, seg) = segs[i];
        if seg.chars().all(is_cjk) {
            let mut off = at;
            for c in seg.chars() {
                if CJK_STOP_CHARS.contains(&c) {
                    run.flush(emit);
                } else {
                    run.push(c, base + off, c.len_utf8(), emit);
                }
                off += c.len_utf8();
            }
            i += 1;
            continue;
        }
        if !is_word(seg) {
            i += 1;
            continue;
        }
        run.flush(emit);
        // ASCII words joined by single hyphens, with no space: one compound word (`date-picker`).
        let mut end = i;
        if seg.is_ascii() {
            while end + 2 < segs.len()
                && segs[end + 1].1 == "-"
                && segs[end + 2].1.is_ascii()
                && is_word(segs[end + 2].1)
                && !segs[end + 2].1.chars().all(is_cjk)
            {
                end += 2;
            }
        }
        let stop = segs.get(end + 1).map_or(text.len(), |s| s.0);
        word(&text[at..stop], emit);
        i = end + 1;
    }
}

/// Analyzes one word (possibly a compound of hyphen-joined words).
fn word(w: &str, emit: &mut impl FnMut(&str)) {
    // Full-width forms of ASCII (`Ｔａｂｌｅ`, typed with a Chinese or Japanese input method) are their ASCII
    // letters and digits: the compatibility mapping of NFKC for this block, without NFKC's tables.
    const FULL_WIDTH: std::ops::RangeInclusive<char> = '\u{FF01}'..='\u{FF5E}';
    if w.chars().any(|c| FULL_WIDTH.contains(&c)) {
        let narrow: String = w
            .chars()
            .map(|c| if FULL_WIDTH.contains(&c) { char::from_u32(c as u32 - 0xFEE0).unwrap_or(c) } else { c })
            .collect();
        return word(&narrow, emit);
    }
    // `Table's`, `don't`: the part before the apostrophe.
    let w = match w.find(['\'', '’']) {
        Some(0) => return,
        Some(i) => &w[..i],
        None => w,
    };
    if w.len() > MAX_TERM_BYTES {
        return;
    }
    if w.starts_with(|c: char| c.is_ascii_digit()) && w.chars().all(|c| c.is_ascii_digit() || c == '.') {
        // Dotted numbers are versions. A plain integer of 3 to 12 digits is kept (issue 31: `search 3912`, a
        // pull-request number of the changelog, answered "only stop words"); shorter ones (list items, small sizes,
        // demo data) are noise in nearly every unit.
        let w = w.trim_end_matches('.');
        if !w.contains('.') {
            if (3..=12).contains(&w.len()) {
                emit(w);
            }
            return;
        }
        if w.len() > 16 {
            return;
        }
        emit(w);
        let mut dots = w.match_indices('.').map(|(i, _)| i);
        if let (Some(_), Some(second)) = (dots.next(), dots.next()) {
            emit(&w[..second]);
        }
        return;
    }
    let mut parts = Vec::new();
    for_identifier_parts(w, |p| parts.push(p));
    let mut buf = String::with_capacity(w.len());
    if parts.len() > 1 {
        let whole: String = w.chars().filter(|&c| c != '-').flat_map(char::to_lowercase).collect();
        if whole.len() >= 2 && !is_stop_word(&whole) && !whole.bytes().all(|b| b.is_ascii_digit()) {
            emit(&whole);
        }
    }
    let single = parts.len() == 1;
    for p in parts {
        buf.clear();
        buf.extend(p.chars().flat_map(char::to_lowercase));
        if buf.chars().count() < 2 || is_stop_word(&buf) || buf.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        let stemmed = stem(&buf);
        emit(&stemmed);
        // A word of prose is also kept as written when its stem differs (`hijacked` beside `hijack`): the units
        // that hold the very word a query says rank above those holding only another form of it (issue 26 §2: the
        // one `hijacked` was cut among `hijack`'s many hits). An identifier's parts are not: it is kept whole.
        if single && stemmed != buf.as_str() {
            emit(&buf);
        }
    }
}

/// Whether `term` is a word kept as written beside its stem (`hijacked`, not `hijack`): a query term that ranks
/// with [`EXACT_FORM_WEIGHT`].
pub fn is_exact_form(term: &str) -> bool {
    term.bytes().all(|b| b.is_ascii_lowercase()) && stem(term) != term
}

/// How much a word's exact form counts beside its stem: enough to rank the units holding the very word a query says
/// above those holding only another form, too little to pass a better match of the stems (counted whole, the exact
/// forms ranked examples above the sections of Semi's and Blueprint's questions).
pub const EXACT_FORM_WEIGHT: f32 = 0.35;

/// The Snowball English stem of a lower-case ASCII word; other words unchanged.
fn stem(word: &str) -> Cow<'_, str> {
    if word.bytes().all(|b| b.is_ascii_lowercase()) { STEMMER.stem(word) } else { Cow::Borrowed(word) }
}

/// Splits an identifier on `_ . : - $` and on camel-case boundaries: `onChange` → `on`, `Change`;
/// `HTMLElement` → `HTML`, `Element`; `getXMLHttp2Request` → `get`, `XML`, `Http2`, `Request`.
pub fn identifier_parts(w: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    for_identifier_parts(w, |p| parts.push(p));
    parts
}

/// Calls `f` with each identifier part of `w` (see [`identifier_parts`]), without allocating.
fn for_identifier_parts<'a>(w: &'a str, mut f: impl FnMut(&'a str)) {
    for piece in w.split(['_', '.', ':', '-', '$']).filter(|p| !p.is_empty()) {
        let mut start = 0;
        let mut it = piece.char_indices().peekable();
        let mut prev: Option<char> = None;
        while let Some((i, c)) = it.next() {
            if let Some(p) = prev {
                let next_lower = it.peek().is_some_and(|&(_, n)| n.is_lowercase());
                let boundary =
                    c.is_uppercase() && (p.is_lowercase() || p.is_ascii_digit() || (p.is_uppercase() && next_lower));
                if boundary {
                    f(&piece[start..i]);
                    start = i;
                }
            }
            prev = Some(c);
        }
        f(&piece[start..]);
    }
}

/// Calls `emit` with each word of `text` that can be a "did you mean" suggestion: ASCII letters, digits, `_` and
/// `-` runs of 3 to [`DICT_WORD_MAX`] bytes holding a letter, lower-cased.
pub fn dictionary_words(text: &str, mut emit: impl FnMut(&str)) {
    for w in text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-')) {
        let w = w.trim_matches('-');
        if (3..=DICT_WORD_MAX).contains(&w.len()) && w.bytes().any(|b| b.is_ascii_alphabetic()) {
            emit(&w.to_ascii_lowercase());
        }
    }
}

/// Longest word of the term dictionary, in bytes.
pub const DICT_WORD_MAX: usize = 32;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stop_words_are_sorted() {
        assert!(STOP_WORDS.windows(2).all(|w| w[0] < w[1]), "STOP_WORDS must stay sorted");
    }

    #[test]
    fn camel_case_identifiers_split_and_stay_whole() {
        assert_eq!(terms("onChange"), ["onchange", "chang"]);
        assert_eq!(terms("rowSelection"), ["rowselection", "row", "select"]);
        assert_eq!(terms("HTMLElement"), ["htmlelement", "html", "element"]);
        assert_eq!(terms("row_selection"), ["row_selection", "row", "select"]);
        assert_eq!(terms("Form.Input"), ["form.input", "form", "input"]);
        assert_eq!(terms("date-picker DatePicker"), ["datepicker", "date", "picker", "datepicker", "date", "picker"]);
        assert_eq!(identifier_parts("getXMLHttp2Request"), ["get", "XML", "Http2", "Request"]);
    }

    #[test]
    fn english_is_lower_cased_stemmed_and_stopped() {
        assert_eq!(
            terms("How do I make a table row selectable?"),
            ["make", "tabl", "table", "row", "select", "selectable"]
        );
        assert_eq!(
            terms("Selecting rows, selected Rows"),
            ["select", "selecting", "row", "rows", "select", "selected", "row", "rows"]
        );
        assert_eq!(
            terms("The Table's columns don't resize"),
            ["tabl", "table", "column", "columns", "resiz", "resize"]
        );
        // The word as written is kept beside its stem (`hijacked`); an identifier's parts are not (it is whole).
        assert_eq!(terms("hijacked hijack"), ["hijack", "hijacked", "hijack"]);
        assert_eq!(terms("rowSelection"), ["rowselection", "row", "select"]);
    }

    #[test]
    fn chinese_becomes_bigrams_within_runs() {
        assert_eq!(terms("表格 固定列"), ["表格", "固定", "定列"]);
        // Punctuation and particles break runs; question words are dropped.
        assert_eq!(terms("如何固定表格的列？"), ["固定", "定表", "表格", "列"]);
        assert_eq!(terms("怎么设置"), ["设置"]);
        // Mixed scripts: the Latin word between two runs ends the first.
        assert_eq!(terms("Table表格组件"), ["tabl", "table", "表格", "格组", "组件"]);
    }

    #[test]
    fn full_width_letters_and_digits_are_their_ascii_forms() {
        assert_eq!(terms("Ｔａｂｌｅ"), terms("Table"));
        assert_eq!(terms("ｏｎＣｈａｎｇｅ ３９１２"), ["onchange", "chang", "3912"]);
        // Full-width punctuation stays punctuation between Chinese runs.
        assert_eq!(terms("表格，固定列"), ["表格", "固定", "定列"]);
    }

    #[test]
    fn urls_are_skipped_and_versions_and_numbers_kept() {
        // The link text's number is a term, its URL is not.
        assert_eq!(
            terms("see [#3323](https://github.com/DouyinFE/semi-design/issues/3323) now"),
            ["see", "3323", "now"]
        );
        assert_eq!(terms("🎉 2.89.0 (2025-09-03) width 120"), ["2.89.0", "2.89", "width", "120"]);
        assert_eq!(terms("step 1 of 12, page 100, id 1234567890123"), ["step", "page", "100", "id"]);
        assert_eq!(terms("v2.89"), ["v2.89", "v2"]);
    }

    #[test]
    fn stop_words_written_as_identifiers_are_found_apart() {
        let mut out = Vec::new();
        stop_identifiers("| more | ReactNode | show more tabs |", |t| out.push(t.to_string()));
        assert_eq!(out, ["more", "more"]);
        assert!(terms("more").is_empty(), "prose analysis still drops it");
    }

    #[test]
    fn anything_is_analyzed_without_panicking() {
        for q in ["", "\"", "AND", "*", "🎉🎉", "a\u{301}b", "--", "::", "'", "’s", "x://y", "://", "\u{0}", "𠀀𠀁"]
        {
            let _ = terms(q);
        }
        assert!(terms("\"AND\" * OR").is_empty());
        let long = "表格 onChange ".repeat(1000);
        assert_eq!(terms(&long).len(), 3000);
    }
}
