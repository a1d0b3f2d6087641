//! The word sample of the search-quality report: words of a set's documents, examples and sources, read from the
//! repository files the set was built from, chosen by a hash of the word (the same sample on every run).
//!
//! A word is a run of ASCII letters, digits, `_` and `$` of 3 to 32 bytes holding a letter and not an English stop
//! word (what search drops on purpose: `would` is no question), or 2 to 4 Chinese characters of a run not broken by
//! a particle (`的`) nor across a question word (`如何`, which the analysis drops). Documents are the lines of a component's documents outside their code blocks; examples are
//! their code blocks and the demo files those name; sources the source files of the components that are no demo.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use mydesign_docs_reader::model::FileKind;
use mydesign_docs_reader::read::BundleSet;
use mydesign_docs_reader::search::analyze::{breaks_cjk_run, is_cjk, is_stop_word, terms};

/// Where a sampled word was read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Origin {
    /// A document's prose (its lines outside code blocks).
    Document,
    /// A document's code block or the demo file it names.
    Example,
    /// A source file.
    Source,
}

impl Origin {
    /// The name reported.
    pub fn name(self) -> &'static str {
        match self {
            Origin::Document => "documents",
            Origin::Example => "examples",
            Origin::Source => "sources",
        }
    }
}

/// One sampled word.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Word {
    /// As written in the file.
    pub text: String,
    /// Where it was read.
    pub origin: Origin,
    /// The language of the document it was read in (searched in that language); `None` for sources.
    pub lang: Option<String>,
    /// Chinese characters (reported apart from the other words).
    pub chinese: bool,
    /// The file it was read in (repository-relative).
    pub path: String,
}

/// Words sampled per origin (documents split between English and Chinese where the set has Chinese documents).
pub const PER_ORIGIN: usize = 100;

/// Candidates of one group: word (lower-cased key) → the word as first met, its language and file.
type Candidates = BTreeMap<String, (String, Option<String>, String)>;

/// The sample of `set` (built from `repo`): [`PER_ORIGIN`] words of each origin where there are that many, the
/// shortfall of one origin taken from the others, so at least `3 × PER_ORIGIN` words when the input has them.
pub fn sample(set: &BundleSet, repo: &Path) -> anyhow::Result<Vec<Word>> {
    let mut groups: BTreeMap<(Origin, bool), Candidates> = BTreeMap::new();
    let manifest = set.manifest()?;
    for entry in &manifest.components {
        let (_, meta) = set.component_meta(&entry.key)?;
        let mut demos = BTreeSet::new();
        for doc in &meta.docs {
            let Ok(text) = std::fs::read_to_string(repo.join(&doc.path)) else { continue };
            let lines: Vec<&str> = text.split('\n').collect();
            let mut in_block = vec![false; lines.len() + 2];
            for block in &doc.code_blocks {
                for line in block.start_line..=block.end_line {
                    if let Some(b) = in_block.get_mut(line as usize) {
                        *b = true;
                    }
                }
                if let Some(demo) = &block.demo {
                    demos.insert(demo.path.clone());
                    if let Ok(code) = std::fs::read_to_string(repo.join(&demo.path)) {
                        collect(&code, Origin::Example, Some(&doc.lang), &demo.path, &mut groups);
                    }
                }
            }
            for (n, line) in lines.iter().enumerate() {
                let origin = if in_block[n + 1] { Origin::Example } else { Origin::Document };
                collect(line, origin, Some(&doc.lang), &doc.path, &mut groups);
            }
        }
        for file in meta.files.iter().filter(|f| f.kind == FileKind::Source && !demos.contains(&f.path)) {
            if let Ok(code) = std::fs::read_to_string(repo.join(&file.path)) {
                collect(&code, Origin::Source, None, &file.path, &mut groups);
            }
        }
    }
    Ok(choose(groups))
}

/// Takes [`PER_ORIGIN`] words of each origin by hash order (documents half English, half Chinese when both are
/// there; examples and sources as they come), then tops the sample up to `3 × PER_ORIGIN` from what is left.
fn choose(groups: BTreeMap<(Origin, bool), Candidates>) -> Vec<Word> {
    let mut ordered: BTreeMap<(Origin, bool), Vec<Word>> = groups
        .into_iter()
        .map(|((origin, chinese), words)| {
            let mut words: Vec<Word> =
                words.into_values().map(|(text, lang, path)| Word { text, origin, lang, chinese, path }).collect();
            words.sort_by_key(|w| (fnv1a(&w.text.to_lowercase()), w.text.clone()));
            ((origin, chinese), words)
        })
        .collect();
    let mut out = Vec::new();
    for origin in [Origin::Document, Origin::Example, Origin::Source] {
        let chinese_docs = origin == Origin::Document && ordered.get(&(origin, true)).is_some_and(|w| !w.is_empty());
        let quotas: Vec<(bool, usize)> = match (origin, chinese_docs) {
            (Origin::Document, true) => vec![(false, PER_ORIGIN / 2), (true, PER_ORIGIN / 2)],
            // Examples and sources: Chinese in comments and strings as it occurs, a quarter at most.
            (Origin::Document, false) => vec![(false, PER_ORIGIN)],
            _ => vec![(true, PER_ORIGIN / 4), (false, PER_ORIGIN)],
        };
        let mut taken = 0;
        for (chinese, quota) in quotas {
            let Some(words) = ordered.get_mut(&(origin, chinese)) else { continue };
            let n = quota.min(words.len()).min(PER_ORIGIN - taken);
            out.extend(words.drain(..n));
            taken += n;
        }
    }
    // Top up: an input with few sources (or no Chinese) still gives 3 × PER_ORIGIN words.
    for words in ordered.values_mut() {
        let n = (3 * PER_ORIGIN).saturating_sub(out.len()).min(words.len());
        out.extend(words.drain(..n));
    }
    out
}

/// Adds the words of `text` to their groups (the first file and language a word is met in are kept).
fn collect(
    text: &str,
    origin: Origin,
    lang: Option<&str>,
    path: &str,
    groups: &mut BTreeMap<(Origin, bool), Candidates>,
) {
    let mut add = |word: &str, chinese: bool| {
        groups
            .entry((origin, chinese))
            .or_default()
            .entry(word.to_lowercase())
            .or_insert_with(|| (word.to_string(), lang.map(str::to_string), path.to_string()));
    };
    for w in text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '$')) {
        let w = w.trim_matches(['_', '$']);
        if (3..=32).contains(&w.len())
            && w.bytes().any(|b| b.is_ascii_alphabetic())
            && !is_stop_word(&w.to_ascii_lowercase())
        {
            add(w, false);
        }
    }
    for run in text.split(|c: char| !is_cjk(c) || breaks_cjk_run(c)).filter(|r| r.chars().count() >= 2) {
        // Only windows whose every pair is a term of the run: a question word (`如何`) is dropped by the analysis,
        // and a window across it (`定一个作`) is no word anyone searches.
        let bigrams: BTreeSet<String> = terms(run).into_iter().collect();
        let chars: Vec<char> = run.chars().collect();
        for len in 2..=4.min(chars.len()) {
            for window in chars.windows(len) {
                if window.windows(2).all(|p| bigrams.contains(&p.iter().collect::<String>())) {
                    add(&window.iter().collect::<String>(), true);
                }
            }
        }
    }
}

/// FNV-1a, 64 bits: the sample's order (any fixed hash would do; this one needs no crate).
fn fnv1a(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_identifiers_and_chinese_runs_without_stop_words() {
        let mut groups = BTreeMap::new();
        collect(
            "if (el.clientHeight > 10) would 表格的固定列 如何",
            Origin::Example,
            Some("zh-CN"),
            "a.md",
            &mut groups,
        );
        let ascii: Vec<&str> = groups[&(Origin::Example, false)].values().map(|(w, _, _)| w.as_str()).collect();
        assert_eq!(ascii, ["clientHeight"]);
        let chinese: Vec<&String> = groups[&(Origin::Example, true)].keys().collect();
        assert_eq!(chinese, ["固定", "固定列", "定列", "表格"]);
    }
}
