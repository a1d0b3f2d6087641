//! What a build reports about its inputs: a [`Diagnostic`] per problem, tagged with the [`Stage`] that met it.
//! A leaf of `compile/` (it imports none of its siblings), so every stage can report without depending on the
//! driver.

/// The pipeline stage that reported a [`Diagnostic`] (printed, and stored in the build cache, in lower case).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Stage {
    /// Walking the repository (unreadable directories, symlink loops, the depth cap).
    Walk,
    /// Classifying files into components, documents and changelogs.
    Layout,
    /// Reading a file (size cap, binary or non-UTF-8 content).
    Read,
    /// Parsing Markdown.
    Markdown,
    /// Analysing a TypeScript/JavaScript source.
    Source,
    /// Extracting props tables.
    Props,
    /// Resolving the set's version.
    Version,
    /// The incremental build cache.
    Cache,
}

impl std::fmt::Display for Stage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Stage::Walk => "walk",
            Stage::Layout => "layout",
            Stage::Read => "read",
            Stage::Markdown => "markdown",
            Stage::Source => "source",
            Stage::Props => "props",
            Stage::Version => "version",
            Stage::Cache => "cache",
        })
    }
}

/// A problem with one input, reported and skipped (stored as it is in the build cache).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub struct Diagnostic {
    /// Repository-relative path (or component key for layout problems).
    pub path: String,
    /// The pipeline stage that reported it.
    pub stage: Stage,
    /// What is wrong, for a person.
    pub message: String,
    /// Only informs (a component without sources, a language without a changelog); warnings report lost input.
    pub note: bool,
}

impl Diagnostic {
    /// A diagnostic for `path` at `stage`.
    pub fn new(path: impl Into<String>, stage: Stage, message: impl Into<String>) -> Diagnostic {
        Diagnostic { path: path.into(), stage, message: message.into(), note: false }
    }

    /// A note: information about the layout, not lost input.
    pub fn note(path: impl Into<String>, stage: Stage, message: impl Into<String>) -> Diagnostic {
        Diagnostic { note: true, ..Diagnostic::new(path, stage, message) }
    }

    /// Whether this only informs rather than reports lost input.
    pub fn is_note(&self) -> bool {
        self.note
    }
}

impl std::fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}: {}", self.stage, escape_controls(&self.path), escape_controls(&self.message))
    }
}

/// `s` with control and bidi characters escaped (`\n`, `\t`, `\u{1b}`, `\u{202e}`), so a file name cannot
/// rewrite the terminal or split a report line; other characters, including non-ASCII, are kept. The reader's
/// rule for every echo (`crate::escape::shown`).
pub fn escape_controls(s: &str) -> std::borrow::Cow<'_, str> {
    crate::escape::shown(s)
}
