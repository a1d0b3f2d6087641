//! Exact token counts with tiktoken (tiktoken-rs). Only the compiler counts tokens; the reader serves the counts
//! stored in the bundles.

use tiktoken_rs::CoreBPE;

use crate::budget::{MAX_SEGMENT_TOKENS, cut_points, split_segment};
use crate::model::TokenMap;

/// A token counter for one encoding.
#[derive(Clone, Copy)]
pub struct TokenCounter {
    bpe: &'static CoreBPE,
}

impl TokenCounter {
    /// The counter for `encoding`: `o200k_base` (GPT-4o and later; the default) or `cl100k_base`.
    ///
    /// # Errors
    /// Any other name.
    pub fn new(encoding: &str) -> Result<TokenCounter, String> {
        let bpe = match encoding {
            "o200k_base" => tiktoken_rs::o200k_base_singleton(),
            "cl100k_base" => tiktoken_rs::cl100k_base_singleton(),
            other => return Err(format!("unknown token encoding `{other}` (o200k_base or cl100k_base)")),
        };
        Ok(TokenCounter { bpe })
    }

    /// Tokens in `text`, with special-token strings counted as ordinary text (documents are data, not prompts).
    pub fn count(&self, text: &str) -> u32 {
        self.bpe.encode_ordinary(text).len() as u32
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
        let mut map = TokenMap::default();
        let mut start = 0;
        for end in cut_points(text).into_iter().chain([text.len()]) {
            if end <= start {
                continue;
            }
            let count = self.count(&text[start..end]);
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
            start = end;
        }
        map
    }
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

    #[test]
    fn cut_points_skip_blank_lines_and_slashes() {
        assert_eq!(cut_points("a\nb\n\nc\n/d\n e"), vec![2, 5, 10]);
        let long_line = "word, ".repeat(600);
        let cuts = cut_points(&long_line);
        assert!(cuts.len() >= 10, "a 3,600-byte line is cut after words: {cuts:?}");
        assert!(cuts.iter().all(|&c| long_line[c..].starts_with(',')));
    }
}
