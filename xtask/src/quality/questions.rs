//! The search questions (`eval/search/<input>.toml`, issue 26 §2): questions written for the search alone, each
//! naming the component whose documents answer it, scored by the rank of that component's first hit.
//!
//! A file is named after the input it is about (a folder of the real corpus). Each `[[question]]` has:
//! - `id`: unique across the files;
//! - `question`: as an agent or a developer would type it, in English or Chinese;
//! - `lang`: `en` or `zh` (reported apart);
//! - `component`: the component (as listed: `swipe-action`) a right answer is about.

use std::path::Path;

use anyhow::{Context, bail};
use serde::Deserialize;

/// One question; see the module docs for the fields.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Question {
    /// Unique id.
    pub id: String,
    /// The question.
    pub question: String,
    /// `en` or `zh`.
    pub lang: String,
    /// The component a right hit is about.
    pub component: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct QuestionFile {
    question: Vec<Question>,
}

/// The questions of each input: `(input, questions)` in file-name order.
///
/// # Errors
/// A file that does not parse (named), a language other than `en`/`zh`, an id used twice.
pub fn load(dir: &Path) -> anyhow::Result<Vec<(String, Vec<Question>)>> {
    let mut seen = std::collections::BTreeSet::new();
    let mut out = Vec::new();
    for (file, text) in crate::eval::tasks::toml_files(dir)? {
        let parsed: QuestionFile =
            toml::from_str(&text).with_context(|| format!("{} is not a question file", file.display()))?;
        for q in &parsed.question {
            if q.lang != "en" && q.lang != "zh" {
                bail!("{}: question `{}`: lang must be `en` or `zh`, not `{}`", file.display(), q.id, q.lang);
            }
            if !seen.insert(q.id.clone()) {
                bail!("{}: question id `{}` is used twice", file.display(), q.id);
            }
        }
        let input = file.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        out.push((input, parsed.question));
    }
    Ok(out)
}

/// A component name compared across spellings (`Swipe-Action`, `swipe_action`, `swipeaction`).
pub fn key(name: &str) -> String {
    name.chars().filter(|c| *c != '-' && *c != '_').flat_map(char::to_lowercase).collect()
}
