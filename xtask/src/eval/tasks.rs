//! The task set (`eval/tasks/<input>.toml`, issue 27): questions an agent asks while it codes, each with the facts
//! that answer it.
//!
//! A file is named after the input it is about: `sample` is `corpus/`, any other name a folder of the real corpus
//! (`target/real-corpus/<name>`, assembled from `../shared`). Each `[[task]]` has:
//! - `id`: unique across the set;
//! - `question`: as an agent would put it, in English or Chinese;
//! - `lang`: `en` or `zh` (reported apart);
//! - `component`: the component the task is about, when it is about one (the `semi-rules` policy must name it;
//!   `ours+card` opens its card first);
//! - `kind`: `doc` (default), `example`, `props`, `changelog` or `source`: what kind of fact it is;
//! - `facts`: strings that must all occur in what the agent was given for the task to count as solved (a prop
//!   name, a default value, a line of an example, a signature). Short on purpose: they identify the fact, they do not
//!   copy the input's text.

use std::path::Path;

use anyhow::{Context, bail};
use serde::Deserialize;

/// What kind of fact a task asks for.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq, PartialOrd, Ord)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// A fact of a component's document text.
    #[default]
    Doc,
    /// A fact of an example's code.
    Example,
    /// A row of a props table.
    Props,
    /// A changelog entry.
    Changelog,
    /// A fact of the sources (a signature, a type).
    Source,
}

/// One task; see the module docs for the fields.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Task {
    /// Unique id.
    pub id: String,
    /// The question, as an agent asks it.
    pub question: String,
    /// `en` or `zh`.
    pub lang: String,
    /// The component, when the task is about one.
    #[serde(default)]
    pub component: Option<String>,
    /// What kind of fact it asks for.
    #[serde(default)]
    pub kind: Kind,
    /// Strings that must all occur in what the agent was given.
    pub facts: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TaskFile {
    task: Vec<Task>,
}

/// The tasks of one input: its name (the file's stem) and tasks, in the file's order.
pub struct InputTasks {
    /// `sample` or a folder name of the real corpus.
    pub input: String,
    /// Its tasks.
    pub tasks: Vec<Task>,
}

/// Every `*.toml` of `dir` with its text, in name order (the task files, and the search questions of
/// `crate::quality::questions`).
///
/// # Errors
/// `dir` or a file that cannot be read (named).
pub fn toml_files(dir: &Path) -> anyhow::Result<Vec<(std::path::PathBuf, String)>> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .with_context(|| format!("reading {}", dir.display()))?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|file| {
            let text = std::fs::read_to_string(&file).with_context(|| format!("reading {}", file.display()))?;
            Ok((file, text))
        })
        .collect()
}

/// Reads every `*.toml` of `dir`, in name order. Errors: a file that does not parse (with its path), a task
/// without facts, a language other than `en`/`zh`, an id used twice.
pub fn load(dir: &Path) -> anyhow::Result<Vec<InputTasks>> {
    let mut seen = std::collections::BTreeSet::new();
    let mut out = Vec::new();
    for (file, text) in toml_files(dir)? {
        let parsed: TaskFile =
            toml::from_str(&text).with_context(|| format!("{} is not a task file", file.display()))?;
        for task in &parsed.task {
            if task.facts.is_empty() || task.facts.iter().any(|f| f.trim().is_empty()) {
                bail!("{}: task `{}` has an empty fact list or an empty fact", file.display(), task.id);
            }
            if task.lang != "en" && task.lang != "zh" {
                bail!("{}: task `{}`: lang must be `en` or `zh`, not `{}`", file.display(), task.id, task.lang);
            }
            if !seen.insert(task.id.clone()) {
                bail!("{}: task id `{}` is used twice", file.display(), task.id);
            }
        }
        let input = file.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        out.push(InputTasks { input, tasks: parsed.task });
    }
    Ok(out)
}
