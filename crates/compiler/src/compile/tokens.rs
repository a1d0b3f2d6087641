//! Exact token counts in tiktoken's encodings (`o200k_base`, `cl100k_base`), counted with bpe-openai's prebuilt
//! encoders: the same counts as tiktoken (the tests check them against tiktoken-rs on every real-corpus file), loaded
//! in a third of the time, which is most of an incremental build's fixed cost. Only the compiler counts tokens; the
//! reader serves the counts stored in the bundles.

use std::collections::HashMap;

use bpe_openai::Tokenizer;

use crate::budget::{MAX_SEGMENT_TOKENS, cut_points, split_segment};
use crate::model::TokenMap;

/// A token counter for one encoding.
#[derive(Clone, Copy)]
pub struct TokenCounter {
    bpe: &'static Tokenizer,
}

impl TokenCounter {
    /// The counter for `encoding`: `o200k_base` (GPT-4o and later; the default) or `cl100k_base`.
    ///
    /// # Errors
    /// Any other name.
    pub fn new(encoding: &str) -> Result<TokenCounter, String> {
        let bpe = match encoding {
            "o200k_base" => bpe_openai::o200k_base(),
            "cl100k_base" => bpe_openai::cl100k_base(),
            other => return Err(format!("unknown token encoding `{other}` (o200k_base or cl100k_base)")),
        };
        Ok(TokenCounter { bpe })
    }

    /// Tokens in `text`, with special-token strings counted as ordinary text (documents are data, not prompts), as
    /// tiktoken's `encode_ordinary` counts them.
    pub fn count(&self, text: &str) -> u32 {
        self.bpe.count(text) as u32
    }

    /// The [`TokenMap`] of `text`: segments cut at [`cut_points`], each counted on its own. Their counts add up to
    /// [`TokenCounter::count`] of the whole text (asserted on the real corpora), because a cut point is always where
    /// the pre-tokenizer starts a new piece, and BPE never merges across pieces. One count per segment of
    /// [`cut_points`] (none for an empty text).
    ///
    /// A segment of more than [`MAX_SEGMENT_TOKENS`] is split further ([`split_segment`]) into pieces counted on
    /// their own, recorded in the map's `extra` (exact) and `forced` (upper bound) cut points, so that the reader
    /// can end a part inside a long line and no part is ever over its budget.
    pub fn map(&self, text: &str) -> TokenMap {
        self.map_counts(text).0
    }

    /// The [`TokenMap`] of `text` (as [`TokenCounter::map`]) and the [`TextCounts`] that count its slices from the
    /// same encoding work: the text is tokenized once, and a slice between cut points costs no tokenizer call.
    pub fn map_counts<'t>(&self, text: &'t str) -> (TokenMap, TextCounts<'t>) {
        self.map_known(text, &HashMap::new())
    }

    /// [`TokenCounter::map_counts`] of `text`, taking the count of a segment from `known` (whole segments of
    /// another text, by their text: [`TextCounts::segments`]) when it is there: a document's view shares most of its
    /// lines with the document.
    pub fn map_known<'t>(&self, text: &'t str, known: &HashMap<&str, u32>) -> (TokenMap, TextCounts<'t>) {
        let mut map = TokenMap::default();
        let mut counts = TextCounts { counter: *self, text, bounds: vec![0], prefix: vec![0] };
        let mut start = 0;
        for end in cut_points(text).into_iter().chain([text.len()]) {
            if end <= start {
                continue;
            }
            let count = known.get(&text[start..end]).copied().unwrap_or_else(|| self.count(&text[start..end]));
            if count <= MAX_SEGMENT_TOKENS {
                map.tokens.push(count);
            } else {
                let (exact, forced) = split_segment(text, start, end);
                let mut cuts: Vec<usize> = exact.iter().chain(&forced).copied().collect();
                cuts.sort_unstable();
                let mut from = start;
                for cut in cuts.into_iter().chain([end]) {
                    map.tokens.push(self.count(&text[from..cut]));
                    from = cut;
                }
                map.extra.extend(exact.into_iter().map(|o| o as u32));
                map.forced.extend(forced.into_iter().map(|o| o as u32));
            }
            // The whole segment's own count (a split segment's pieces may add up to more, across forced cuts).
            counts.bounds.push(end);
            counts.prefix.push(counts.prefix.last().copied().unwrap_or(0) + count);
            start = end;
        }
        (map, counts)
    }
}

/// Exact token counts of slices of one text, made from the segment counts of its [`TokenMap`] (see
/// [`TokenCounter::map_counts`]) instead of tokenizing the slice again.
///
/// A slice `text[a..b]` is counted as its head `text[a..c]` up to the first cut point `c`, the whole segments
/// between cut points (already counted), and its tail after the last cut point: the same rule as the map's (a cut
/// point starts a new piece of both encodings' pre-tokenizers, and BPE never merges across pieces), applied to the
/// slice, so the sum is what tokenizing the slice gives. Where the rule might not hold in the slice (the tail's
/// line is cut blank or starts with `/`, fewer than one whole segment), the slice is
/// tokenized. Any `&str` that is not a slice of the text is tokenized too.
pub struct TextCounts<'t> {
    counter: TokenCounter,
    text: &'t str,
    /// 0, the cut points, `text.len()`: byte offsets, ascending.
    bounds: Vec<usize>,
    /// Tokens of `text[..bounds[i]]`, as the sum of the whole segments' counts.
    prefix: Vec<u32>,
}

impl<'t> TextCounts<'t> {
    /// The text's whole segments (between consecutive cut points) and their counts, for
    /// [`TokenCounter::map_known`].
    pub fn segments(&self) -> HashMap<&'t str, u32> {
        let text: &'t str = self.text;
        (1..self.bounds.len())
            .map(|k| (&text[self.bounds[k - 1]..self.bounds[k]], self.prefix[k] - self.prefix[k - 1]))
            .collect()
    }

    /// Whether `s` is a slice of the text (by its address), so that [`TextCounts::count`] derives its count.
    pub fn holds(&self, s: &str) -> bool {
        let (base, at) = (self.text.as_ptr() as usize, s.as_ptr() as usize);
        at >= base && at + s.len() <= base + self.text.len()
    }

    /// Tokens in `s`: exactly [`TokenCounter::count`] of `s`, derived from the segment counts when `s` is a slice
    /// of the text (found by its address).
    pub fn count(&self, s: &str) -> u32 {
        if !self.holds(s) {
            return self.counter.count(s);
        }
        let at = s.as_ptr() as usize - self.text.as_ptr() as usize;
        self.count_range(at, at + s.len())
    }

    /// Tokens in `text[a..b]` (byte offsets at char boundaries).
    fn count_range(&self, a: usize, b: usize) -> u32 {
        let text = self.text;
        let direct = || self.counter.count(&text[a..b]);
        // The first cut point at or after `a` and the last at or before `b`.
        let i = self.bounds.partition_point(|&c| c < a);
        let Some(j) = self.bounds.partition_point(|&c| c <= b).checked_sub(1) else { return direct() };
        if i >= j {
            return direct();
        }
        let (first, last) = (self.bounds[i], self.bounds[j]);
        // A line cut point before a tail holds only when the tail's first line is not blank and does not start with
        // `/` (the rule of `cut_points`); a word cut point holds whatever follows it.
        let tail = &text[last..b];
        if last < b && text.as_bytes()[last - 1] == b'\n' && !clean_tail(tail) {
            return direct();
        }
        let head = if first > a { self.counter.count(&text[a..first]) } else { 0 };
        let tail = if last < b { self.counter.count(tail) } else { 0 };
        head + (self.prefix[j] - self.prefix[i]) + tail
    }
}

/// Whether a line cut point before `tail` (the rest of a slice) still starts a new piece: the same test as
/// `cut_points` makes on a whole line, on the line as the slice cuts it.
fn clean_tail(tail: &str) -> bool {
    tail.as_bytes().first().is_some_and(|&b| b != b'/') && tail.split('\n').next().is_some_and(|l| !l.trim().is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_match_tiktoken() {
        // Reference values from OpenAI's tiktoken: the cookbook's "tiktoken is great!" is 6 cl100k tokens.
        let o200k = TokenCounter::new("o200k_base").unwrap();
        assert_eq!(o200k.count("hello world"), 2);
        assert_eq!(o200k.count(""), 0);
        let cl100k = TokenCounter::new("cl100k_base").unwrap();
        assert_eq!(cl100k.count("tiktoken is great!"), 6);
        // A special-token string in a document is text, not one special token.
        assert!(o200k.count("<|endoftext|>") > 1);
        assert!(TokenCounter::new("gpt2").is_err());
    }

    #[test]
    fn maps_add_up_to_the_whole_count() {
        let long_line = "word, ".repeat(600);
        let texts = [
            "",
            "one line",
            "a\n\n\nb\n",
            "x = 1;\n// comment\n/* block */\ny();\n",
            "fn a() {\n    body();\n}\n\n  \n\tz\r\nw\r\n",
            "表格，固定列。\n## 标题\n\n中文段落\n",
            "don't stop\nit's\n'quoted'\n",
            long_line.as_str(),
        ];
        for encoding in ["o200k_base", "cl100k_base"] {
            let counter = TokenCounter::new(encoding).unwrap();
            for text in texts {
                let map = counter.map(text);
                assert_eq!(map.total(), counter.count(text), "{encoding}: {text:?}");
                let segments = cut_points(text).len() + map.extra.len() + map.forced.len();
                assert_eq!(map.tokens.len(), segments + usize::from(!text.is_empty()));
                assert!(map.forced.is_empty(), "{text:?}");
            }
        }
    }

    /// Hostile lines (issue 10 item 2): a run with no piece boundary for its whole length (hex, base64), a
    /// full-width-only Chinese paragraph, a minified line. Every segment fits [`MAX_SEGMENT_TOKENS`]; counts across
    /// boundary cuts stay exact, across forced cuts they are upper bounds.
    #[test]
    fn long_lines_are_split_into_small_segments() {
        let hex: String = (0..20_000u32).map(|i| char::from(b"0123456789abcdef"[(i * 7919 % 16) as usize])).collect();
        let b64: String = (0..200_000u32)
            .map(|i| {
                char::from(
                    b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"[(i * 7919 % 64) as usize],
                )
            })
            .collect();
        let zh = "表格组件用于展示多条结构类似的数据，可对数据进行排序、筛选、对比或其他自定义操作。".repeat(200);
        let minified = "function a(b,c){return b+c}var d=a(1,2);if(d>2){console.log(d)}".repeat(300);
        // Quoted words, the sample's Modal and Tag lines: `'` after a letter is a boundary unless a contraction.
        let quoted = "| type | 'info' \\| 'success' \\| 'warning' \\| 'error' | it's 'sun' we'd 'Dawn' |".repeat(40);
        for encoding in ["o200k_base", "cl100k_base"] {
            let counter = TokenCounter::new(encoding).unwrap();
            for (what, text, exact) in [
                ("hex", &hex, false),
                ("base64", &b64, true),
                ("zh", &zh, true),
                ("minified", &minified, true),
                ("quoted", &quoted, true),
            ] {
                let map = counter.map(text);
                let whole = counter.count(text);
                assert!(map.tokens.iter().all(|&t| t <= MAX_SEGMENT_TOKENS), "{encoding} {what}");
                if exact {
                    assert!(map.forced.is_empty(), "{encoding} {what}: {} forced cuts", map.forced.len());
                    assert_eq!(map.total(), whole, "{encoding} {what}");
                } else {
                    assert!(!map.forced.is_empty());
                    assert!(map.total() >= whole, "{encoding} {what}: {} < {whole}", map.total());
                }
                eprintln!(
                    "{encoding} {what}: {} bytes, {whole} tokens, map {} ({} segments)",
                    text.len(),
                    map.total(),
                    map.tokens.len()
                );
            }
        }
    }

    /// Slices counted from a text's segment counts are exactly the slices tokenized: every pair of line starts
    /// (sections, tables, code blocks, search parts) and spans ending mid-line (functions end at `}`), on texts
    /// with blank lines, `//` lines, indented and long lines, CJK and contractions.
    #[test]
    fn slice_counts_are_the_slices_tokenized() {
        let long_line = format!("{}\n", "the word, then 'quoted' it's ".repeat(60));
        let text = format!(
            "# Title\n\nIntro don't stop.\n\n## API\n\n| a | b |\n|---|---|\n| x | 'y' |\n\n```ts\nfn a() {{\n    \
             body();\n}}\n// note\n/* c */\n  \n\t\tz\r\nw\r\n```\n{long_line}表格，固定列。\n  indented\n\n\n/x\nend"
        );
        let mut offsets: Vec<usize> = (0..=text.len()).filter(|&i| text.is_char_boundary(i)).collect();
        offsets.retain(|&i| i == 0 || i == text.len() || text.as_bytes()[i - 1] == b'\n' || i % 31 == 0);
        for encoding in ["o200k_base", "cl100k_base"] {
            let counter = TokenCounter::new(encoding).unwrap();
            let (map, slices) = counter.map_counts(&text);
            assert_eq!(map, counter.map(&text));
            // A text that shares lines with it (a view: blocks replaced by a placeholder) maps as on its own.
            let view = text.replacen("fn a() {", "[code block 1 hidden]", 1).replacen("表格", "x", 1);
            assert_eq!(counter.map_known(&view, &slices.segments()).0, counter.map(&view), "{encoding}");
            for (n, &a) in offsets.iter().enumerate() {
                for &b in &offsets[n..] {
                    let s = &text[a..b];
                    assert_eq!(slices.count(s), counter.count(s), "{encoding}: {a}..{b} {s:?}");
                }
            }
            // A string that is not a slice of the text is tokenized.
            let other = String::from("hello world");
            assert_eq!(slices.count(&other), counter.count(&other));
        }
    }

    #[test]
    fn cut_points_skip_blank_lines_and_slashes() {
        assert_eq!(cut_points("a\nb\n\nc\n/d\n e"), vec![2, 5, 10]);
        let long_line = "word, ".repeat(600);
        let cuts = cut_points(&long_line);
        assert!(cuts.len() >= 10, "a 3,600-byte line is cut after words: {cuts:?}");
        assert!(cuts.iter().all(|&c| long_line[c..].starts_with(',')));
    }
}
