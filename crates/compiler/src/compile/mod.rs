//! The compiler half: walk → classify → parse and count (rayon) → bundle. Everything expensive happens here, once:
//! Markdown parsing (comrak), source analysis (tree-sitter) and token counting (tiktoken).
//!
//! A bad input file never stops a build: it becomes a [`Diagnostic`] and the build goes on. The build fails only
//! when nothing usable was found or the output cannot be written.

pub mod changelog;
mod emit;
pub mod layout;
pub mod markdown;
pub mod props;
pub mod source;
pub mod tokens;
pub mod walk;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

pub use emit::write_bundle_set;

use crate::config::Config;
use crate::model::Manifest;

/// A problem with one input, reported and skipped.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Diagnostic {
    /// Repository-relative path (or component key for layout problems).
    pub path: String,
    /// Pipeline stage: `walk`, `layout`, `read`, `markdown`, `source`.
    pub stage: &'static str,
    /// What is wrong, for a person.
    pub message: String,
    /// Only informs (a component without sources, a language without a changelog); warnings report lost input.
    pub note: bool,
}

impl Diagnostic {
    /// A diagnostic for `path` at `stage`.
    pub fn new(path: impl Into<String>, stage: &'static str, message: impl Into<String>) -> Diagnostic {
        Diagnostic { path: path.into(), stage, message: message.into(), note: false }
    }

    /// A note: information about the layout, not lost input.
    pub fn note(path: impl Into<String>, stage: &'static str, message: impl Into<String>) -> Diagnostic {
        Diagnostic { note: true, ..Diagnostic::new(path, stage, message) }
    }

    /// Whether this only informs rather than reports lost input.
    pub fn is_note(&self) -> bool {
        self.note
    }
}

impl std::fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}: {}", self.stage, self.path, self.message)
    }
}

/// What to build.
pub struct BuildOptions {
    /// Repository root.
    pub repo: PathBuf,
    /// Output directory; the bundle set goes to `out/<system>@<version>/`.
    pub out: PathBuf,
    /// Layout configuration.
    pub config: Config,
    /// Show a progress bar (on a terminal).
    pub progress: bool,
}

/// The result of a build.
pub struct BuildReport {
    /// The manifest written.
    pub manifest: Manifest,
    /// The bundle set directory.
    pub dir: PathBuf,
    /// Problems met, sorted by path.
    pub diagnostics: Vec<Diagnostic>,
    /// Wall time of the whole build.
    pub elapsed: Duration,
}

/// Builds the bundle set of `opts.repo`.
///
/// # Errors
/// The repository is not a directory, nothing usable was found in it (no document, changelog or source), or the
/// output could not be written. Problems with single files are diagnostics in the report instead.
pub fn build(opts: &BuildOptions) -> anyhow::Result<BuildReport> {
    let start = Instant::now();
    let repo = &opts.repo;
    if !repo.is_dir() {
        anyhow::bail!("{}: not a directory", repo.display());
    }
    opts.config.validate().map_err(anyhow::Error::msg)?;
    let (files, mut diagnostics) = walk::walk(repo, &opts.config.walk).map_err(anyhow::Error::msg)?;
    let (layout, layout_diags) = layout::classify(&files, &opts.config);
    diagnostics.extend(layout_diags);
    if layout.components.is_empty() && layout.changelogs.is_empty() {
        anyhow::bail!(
            "{}: no documents, changelog or sources found with this layout (walked {} files); pass --preset or add {}",
            repo.display(),
            files.len(),
            crate::config::CONFIG_FILE
        );
    }
    let compiled = emit::compile_all(repo, &files, &layout, &opts.config, opts.progress, &mut diagnostics)?;
    let (manifest, dir) = write_bundle_set(&opts.out, compiled)?;
    diagnostics.sort();
    Ok(BuildReport { manifest, dir, diagnostics, elapsed: start.elapsed() })
}

/// The version to stamp on a bundle set: the configured one, else `package.json`'s, else the newest changelog
/// release, else `0.0.0`.
pub fn resolve_version(config: &Config, repo: &Path, newest_release: Option<&str>) -> String {
    config
        .system
        .version
        .clone()
        .or_else(|| crate::config::package_json(repo).1)
        .or_else(|| newest_release.map(str::to_string))
        .unwrap_or_else(|| "0.0.0".into())
}
