//! `cargo xtask search-quality` (issue 26 §2): how often search finds what a set holds, on the real inputs.
//!
//! Two measures per input, both made in process on the built set ([`BundleSet::search`], the lookup the CLI and
//! the server answer with):
//! - **findable words**: of a fixed sample of the words of its documents, examples and sources ([`sample`]), the
//!   share whose search lists a hit containing the word: the hit's lines in the repository file it names (or its
//!   text) hold the word, case aside. The hit's lines, not only its shown text, so the budget plays no part.
//! - **questions**: the questions of `eval/search/<input>.toml` ([`questions`]), recall@1 and recall@5 (the
//!   component asked about is the first hit's, or among the first five hits'), per language.

pub mod questions;
pub mod sample;

use std::collections::HashMap;
use std::path::Path;

use mydesign_docs_reader::read::BundleSet;
use mydesign_docs_reader::search::query::{SearchOptions, SearchView};

pub use questions::Question;
pub use sample::{Origin, Word};

/// Budget of each search (the largest a lookup takes by default): every hit is listed, most with their texts.
pub const MAX_TOKENS: u32 = 10_000;

/// One sampled word and whether its search found it.
#[derive(Clone, Debug)]
pub struct WordResult {
    /// The word.
    pub word: Word,
    /// A hit contains it.
    pub found: bool,
}

/// One question and where its component ranked.
#[derive(Clone, Debug)]
pub struct QuestionResult {
    /// The question.
    pub question: Question,
    /// 1-based rank of the first hit on the component asked about; `None` when no hit is.
    pub rank: Option<usize>,
    /// The components of the first five hits, for the report of misses.
    pub top: Vec<String>,
}

/// The report of one input.
#[derive(Clone, Debug, Default)]
pub struct InputReport {
    /// Its name (a folder of the real corpus).
    pub input: String,
    /// The sampled words.
    pub words: Vec<WordResult>,
    /// Its questions.
    pub questions: Vec<QuestionResult>,
}

/// `(found, sampled)` of the words `keep` selects.
pub fn word_share(words: &[&WordResult], keep: impl Fn(&WordResult) -> bool) -> (usize, usize) {
    let kept: Vec<_> = words.iter().filter(|w| keep(w)).collect();
    (kept.iter().filter(|w| w.found).count(), kept.len())
}

/// `(recall@1 hits, recall@5 hits, questions)` of the questions in `lang` (`None`: all).
pub fn recall(questions: &[&QuestionResult], lang: Option<&str>) -> (usize, usize, usize) {
    let kept: Vec<_> = questions.iter().filter(|q| lang.is_none_or(|l| q.question.lang == l)).collect();
    let at = |k: usize| kept.iter().filter(|q| q.rank.is_some_and(|r| r <= k)).count();
    (at(1), at(5), kept.len())
}

/// Samples the words of `set` (built from `repo`) and searches each.
///
/// # Errors
/// A bundle of the set that cannot be read while sampling.
pub fn words(set: &BundleSet, repo: &Path) -> anyhow::Result<Vec<WordResult>> {
    let mut files = Files::new(repo);
    let sampled = sample::sample(set, repo)?;
    Ok(sampled
        .into_iter()
        .map(|word| {
            let opts = SearchOptions { lang: word.lang.clone(), max_tokens: Some(MAX_TOKENS), ..Default::default() };
            let found = set.search(&word.text, &opts).is_ok_and(|view| files.contains(&view, &word.text));
            WordResult { word, found }
        })
        .collect())
}

/// Searches each question in `set` and ranks its component.
pub fn questions(set: &BundleSet, asked: &[Question]) -> Vec<QuestionResult> {
    asked
        .iter()
        .map(|q| {
            let opts = SearchOptions { max_tokens: Some(MAX_TOKENS), ..Default::default() };
            let components: Vec<String> = set
                .search(&q.question, &opts)
                .map(|v| v.hits.iter().map(|h| h.component.clone().unwrap_or_default()).collect())
                .unwrap_or_default();
            let wanted = questions::key(&q.component);
            let rank = components.iter().position(|c| questions::key(c) == wanted).map(|i| i + 1);
            QuestionResult { question: q.clone(), rank, top: components.into_iter().take(5).collect() }
        })
        .collect()
}

/// The repository's files a search's hits name, read once each (lower-cased).
struct Files<'a> {
    repo: &'a Path,
    read: HashMap<String, Option<String>>,
}

impl<'a> Files<'a> {
    fn new(repo: &'a Path) -> Files<'a> {
        Files { repo, read: HashMap::new() }
    }

    /// Whether a hit of `view` contains `word` (case aside): in the lines it names of its file, or in its text.
    fn contains(&mut self, view: &SearchView, word: &str) -> bool {
        let word = word.to_lowercase();
        view.hits.iter().any(|hit| {
            if hit.text.as_ref().is_some_and(|t| t.to_lowercase().contains(&word)) {
                return true;
            }
            let repo = self.repo;
            let text = self
                .read
                .entry(hit.document.clone())
                .or_insert_with(|| std::fs::read_to_string(repo.join(&hit.document)).ok().map(|t| t.to_lowercase()));
            let Some(text) = text else { return false };
            let (first, last) = (hit.start_line.max(1) as usize, hit.end_line.max(hit.start_line) as usize);
            text.split('\n').skip(first - 1).take(last + 1 - first).any(|line| line.contains(&word))
        })
    }
}

/// The report as JSON (`target/search-quality.json`): per input and in all, the findable shares and recalls, and
/// every miss.
pub fn to_json(reports: &[InputReport]) -> serde_json::Value {
    use serde_json::json;
    let summary = |words: &[&WordResult], questions: &[&QuestionResult]| {
        let mut shares = serde_json::Map::new();
        for origin in [Origin::Document, Origin::Example, Origin::Source] {
            for (chinese, script) in [(false, "other"), (true, "chinese")] {
                let (f, n) = word_share(words, |w| w.word.origin == origin && w.word.chinese == chinese);
                shares.insert(format!("{} {script}", origin.name()), json!([f, n]));
            }
        }
        let (f, n) = word_share(words, |_| true);
        shares.insert("all".into(), json!([f, n]));
        let mut recalls = serde_json::Map::new();
        for lang in ["en", "zh"] {
            let (r1, r5, n) = recall(questions, Some(lang));
            recalls.insert(lang.into(), json!({ "at1": r1, "at5": r5, "questions": n }));
        }
        json!({ "words": shares, "questions": recalls })
    };
    let mut inputs = serde_json::Map::new();
    let (mut all_words, mut all_questions) = (Vec::new(), Vec::new());
    for r in reports {
        let words: Vec<&WordResult> = r.words.iter().collect();
        let questions: Vec<&QuestionResult> = r.questions.iter().collect();
        let mut value = summary(&words, &questions);
        value["missed_words"] = json!(
            r.words
                .iter()
                .filter(|w| !w.found)
                .map(|w| format!("{} ({})", w.word.text, w.word.path))
                .collect::<Vec<_>>()
        );
        value["missed_questions"] = json!(
            r.questions
                .iter()
                .filter(|q| q.rank != Some(1))
                .map(|q| json!({ "id": q.question.id, "rank": q.rank, "top": q.top }))
                .collect::<Vec<_>>()
        );
        inputs.insert(r.input.clone(), value);
        all_words.extend(words);
        all_questions.extend(questions);
    }
    json!({ "command": "cargo xtask search-quality", "all": summary(&all_words, &all_questions), "inputs": inputs })
}
