//! Exact token counts with tiktoken (tiktoken-rs). Only the compiler counts tokens; the reader serves the counts
//! stored in the bundles.

use tiktoken_rs::CoreBPE;

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
}
