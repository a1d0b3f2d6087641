//! Exact token counts with tiktoken (tiktoken-rs). Only the compiler counts tokens; the reader serves the counts
//! stored in the bundles.

use tiktoken_rs::CoreBPE;

use crate::budget::cut_points;
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
    pub fn map(&self, text: &str) -> TokenMap {
        let mut map = TokenMap::default();
        let mut start = 0;
        for end in cut_points(text).into_iter().chain([text.len()]) {
            if end > start {
                map.tokens.push(self.count(&text[start..end]));
                start = end;
            }
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
                assert_eq!(map.tokens.len(), cut_points(text).len() + usize::from(!text.is_empty()));
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
