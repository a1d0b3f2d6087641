//! The version a bundle set is stamped with, and where it came from (issue 9 item 4).

use std::path::Path;

use super::diagnostic::{Diagnostic, Stage};
use crate::config::Config;
use crate::version;

/// The version a set is stamped with, as [`resolve_version`] chose it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolvedVersion {
    /// The version (`2.90.10`).
    pub version: String,
    /// Where it came from, for the build report (`packages/ui/package.json`, `the changelog's newest release`).
    pub source: String,
    /// Notes and warnings about the choice (a private package's version ignored, a package and changelog that
    /// disagree).
    pub diagnostics: Vec<Diagnostic>,
}

/// The version to stamp on a bundle set, where it came from, and the diagnostics of the choice (issue 9 item 4):
/// the configured version; else the `version` of the `package.json` of the package that owns the components
/// (`package`, from [`layout::Layout::package`]; the repository root when `None`) unless that package is
/// `private` (a monorepo root's `0.0.1` never wins: a note says it was ignored); else the newest changelog release
/// (SemVer order, a prerelease below its release); else `0.0.0`. When the package and the changelog disagree, a
/// warning names both.
pub fn resolve_version(
    config: &Config,
    repo: &Path,
    package: Option<&str>,
    newest_release: Option<&str>,
) -> ResolvedVersion {
    let mut diags = Vec::new();
    let resolved = |version: String, source: String, diagnostics| ResolvedVersion { version, source, diagnostics };
    if let Some(v) = &config.system.version {
        return resolved(v.clone(), "the configuration".into(), diags);
    }
    let package = package.unwrap_or("");
    let file = if package.is_empty() { "package.json".to_string() } else { format!("{package}/package.json") };
    let pkg = crate::config::package_version(&repo.join(package));
    let from_package = match pkg {
        Some((v, true)) => {
            diags.push(Diagnostic::note(
                file.clone(),
                Stage::Version,
                format!("version {v} ignored: the package is private (a workspace root, not what is published)"),
            ));
            None
        }
        Some((v, false)) => Some(v),
        None => None,
    };
    let same = |a: &str, b: &str| match (version::parse(a), version::parse(b)) {
        (Some(x), Some(y)) => x == y,
        _ => a == b,
    };
    match (from_package, newest_release) {
        (Some(v), newest) => {
            if let Some(n) = newest.filter(|n| !same(&v, n)) {
                diags.push(Diagnostic::new(
                    file.clone(),
                    Stage::Version,
                    format!(
                        "says {v} but the changelog's newest release is {n}; using {v} (set [system] version or \
                         --set-version to choose)"
                    ),
                ));
            }
            resolved(v, file, diags)
        }
        (None, Some(n)) => resolved(n.to_string(), "the changelog's newest release".into(), diags),
        (None, None) => {
            resolved("0.0.0".into(), "nowhere (no package.json version, no changelog release)".into(), diags)
        }
    }
}
