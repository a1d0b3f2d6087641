//! Exact token counts with tiktoken (tiktoken-rs). Only the compiler counts tokens; the reader serves the counts
//! stored in the bundles.

use tiktoken_rs::CoreBPE;

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
    /// the pre-tokenizer starts a new piece, and BPE never merges across pieces.
    pub fn map(&self, text: &str) -> TokenMap {
        let mut map = TokenMap::default();
        let mut start = 0;
        for end in cut_points(text).into_iter().chain([text.len()]) {
            if end > start {
                map.bytes.push((end - start) as u32);
                map.tokens.push(self.count(&text[start..end]));
                start = end;
            }
        }
        map
    }
}

/// Byte offsets (ascending, never 0 or `text.len()`) where both o200k_base's and cl100k_base's pre-tokenizer
/// regexes must start a new piece, so no token spans them:
///
/// - the start of a line after `\n`, unless the line is blank (`\s*[\r\n]+` takes runs of newlines and the
///   whitespace between them) or starts with `/` (o200k's punctuation piece ` ?[^\s\p{L}\p{N}]+[\r\n/]*` takes
///   the newline *and* following slashes, as in `;\n//`);
/// - inside lines longer than [`TokenMap::LONG_SEGMENT_BYTES`], at most one every 256 bytes: the position after a
///   letter or digit followed by an ASCII space or ASCII punctuation other than `'` (a letter or number piece ends
///   at the first character that is neither, and `'` may start a contraction such as `'s`).
pub fn cut_points(text: &str) -> Vec<usize> {
    let mut out = Vec::new();
    let mut last = 0;
    let line_starts = text.bytes().enumerate().filter(|(_, b)| *b == b'\n').map(|(i, _)| i + 1);
    for p in line_starts.filter(|&p| p < text.len() && clean_line_start(&text[p..])).chain([text.len()]) {
        if p - last > TokenMap::LONG_SEGMENT_BYTES {
            out.extend(word_cuts(text, last, p));
        }
        if p < text.len() {
            out.push(p);
        }
        last = p;
    }
    out
}

fn clean_line_start(line: &str) -> bool {
    let first = line.as_bytes()[0];
    first != b'/' && line.split('\n').next().is_some_and(|l| !l.trim().is_empty())
}

/// Cut points strictly inside `text[from..to]`, at least 256 bytes apart (see [`cut_points`]).
fn word_cuts(text: &str, from: usize, to: usize) -> Vec<usize> {
    let mut out = Vec::new();
    let mut last = from;
    let mut prev: Option<char> = None;
    for (i, c) in text[from..to].char_indices() {
        let at = from + i;
        let ends_word = prev.is_some_and(char::is_alphanumeric)
            && (c == ' ' || (c.is_ascii_punctuation() && c != '\''));
        if ends_word && at - last >= 256 && to - at >= 64 {
            out.push(at);
            last = at;
        }
        prev = Some(c);
    }
    out
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
                assert_eq!(map.bytes.iter().map(|b| *b as usize).sum::<usize>(), text.len());
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
