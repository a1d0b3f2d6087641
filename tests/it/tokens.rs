//! The compiler counts tokens with bpe-openai's prebuilt encoders; the promise rests on those counts being
//! tiktoken's. Checked here against tiktoken itself (tiktoken-rs) on every text file of the sample and the real
//! corpora, in both encodings the compiler offers.

use std::path::Path;

use mydesign_docs::compile::tokens::TokenCounter;

use crate::common::{self, Tiktoken};

/// Every UTF-8 file under `dir` (hidden ones and ignored ones too: they are all text a design system holds).
fn texts(dir: &Path) -> Vec<(String, String)> {
    let walk = ignore::WalkBuilder::new(dir).standard_filters(false).build();
    let mut texts: Vec<(String, String)> = walk
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_some_and(|t| t.is_file()))
        .filter_map(|e| Some((e.path().display().to_string(), std::fs::read_to_string(e.path()).ok()?)))
        .collect();
    texts.sort();
    texts
}

/// The files of `dir` whose counts differ, in each encoding, and how many bytes were compared.
fn differing(dir: &Path) -> (Vec<String>, usize) {
    let texts = texts(dir);
    let mut differ = Vec::new();
    for encoding in ["o200k_base", "cl100k_base"] {
        let (ours, reference) = (TokenCounter::new(encoding).unwrap(), Tiktoken::new(encoding));
        for (path, text) in &texts {
            let (a, b) = (ours.count(text), reference.count(text));
            if a != b {
                differ.push(format!("{encoding} {path}: {a} (compiler) vs {b} (tiktoken)"));
            }
        }
    }
    (differ, texts.iter().map(|t| t.1.len()).sum())
}

#[test]
fn counts_equal_tiktoken_on_every_sample_file() {
    let (differ, bytes) = differing(&common::root().join("corpus"));
    assert!(bytes > 100_000, "the sample has {bytes} bytes of text");
    assert_eq!(differ, Vec::<String>::new());
}

#[test]
fn counts_equal_tiktoken_on_every_real_file() {
    let Some(corpus) = common::real_corpus() else { return };
    for system in ["semi", "blueprint", "antd-mobile"] {
        let (differ, bytes) = differing(&corpus.join(system));
        // Semi alone is over 8 MB of text: a walk that found nothing must not pass.
        assert!(bytes > 1_000_000, "{system}: {bytes} bytes of text");
        assert_eq!(differ, Vec::<String>::new(), "{system}");
    }
}
