//! Where `build` reads from: a local directory (a git checkout is recorded with its commit and tag), a git repository
//! (local or remote) at `--ref`, fetched shallowly with the `git` CLI into a temporary directory, or a pack file,
//! which is only verified and unpacked.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, bail};
use mydesign_docs::model::SourceInfo;

/// A temporary checkout, removed when dropped.
pub struct Checkout {
    /// The working tree.
    pub dir: PathBuf,
}

impl Drop for Checkout {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Runs `git ARGS` in `dir`; stdout trimmed, or an error with git's stderr.
fn git(dir: &Path, args: &[&str]) -> anyhow::Result<String> {
    let out = Command::new("git")
        .current_dir(dir)
        .args(args)
        .env("GIT_TERMINAL_PROMPT", "0")
        .output()
        .context("cannot run `git` (is it installed and on PATH?)")?;
    if !out.status.success() {
        bail!("git {}: {}", args.join(" "), String::from_utf8_lossy(&out.stderr).trim());
    }
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// Whether `repo` names a remote repository rather than a local path.
pub fn is_remote(repo: &str) -> bool {
    repo.contains("://") || (repo.contains('@') && repo.contains(':') && !Path::new(repo).exists())
}

/// The commit and tag of a local git checkout, or `None` when `dir` is not the root of one.
pub fn local_source(dir: &Path) -> Option<SourceInfo> {
    let commit = git(dir, &["rev-parse", "--verify", "HEAD"]).ok()?;
    let top = git(dir, &["rev-parse", "--show-toplevel"]).ok()?;
    // Only the repository's own root: a folder inside another project's checkout (this repository's corpus/) is not
    // that project's release.
    if std::fs::canonicalize(dir).ok()? != std::fs::canonicalize(&top).ok()? {
        return None;
    }
    let repository = git(dir, &["config", "--get", "remote.origin.url"]).ok().filter(|u| !u.is_empty()).unwrap_or(top);
    let tag = git(dir, &["describe", "--tags", "--exact-match", "HEAD"]).ok().filter(|t| !t.is_empty());
    Some(SourceInfo { repository, reference: None, commit: Some(commit), tag })
}

/// Fetches `reference` (tag, branch or commit) of `repo` (URL or local repository) with depth 1 into a temporary
/// directory.
///
/// # Errors
/// git is missing, the repository or the reference does not exist (git's message is shown).
pub fn fetch(repo: &str, reference: &str) -> anyhow::Result<(Checkout, SourceInfo)> {
    let url = if is_remote(repo) {
        repo.to_string()
    } else {
        let path = std::fs::canonicalize(repo).with_context(|| format!("{repo}: no such repository"))?;
        // file:// so that --depth applies to a local repository too.
        format!("file://{}", path.display())
    };
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0);
    let dir = std::env::temp_dir().join(format!("mydesign-docs-src-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&dir).with_context(|| dir.display().to_string())?;
    let checkout = Checkout { dir };
    let d = &checkout.dir;
    git(d, &["init", "--quiet"])?;
    git(d, &["fetch", "--quiet", "--depth", "1", "--tags", &url, reference])
        .or_else(|_| git(d, &["fetch", "--quiet", "--depth", "1", &url, reference]))
        .with_context(|| format!("cannot fetch `{reference}` from {repo} (a tag, branch or commit of it)"))?;
    git(d, &["checkout", "--quiet", "--detach", "FETCH_HEAD"])?;
    let commit = git(d, &["rev-parse", "HEAD"])?;
    let tag = git(d, &["ls-remote", "--tags", &url, &format!("refs/tags/{reference}")])
        .ok()
        .filter(|l| !l.is_empty())
        .map(|_| reference.to_string())
        .or_else(|| git(d, &["describe", "--tags", "--exact-match", "HEAD"]).ok().filter(|t| !t.is_empty()));
    let info =
        SourceInfo { repository: repo.to_string(), reference: Some(reference.to_string()), commit: Some(commit), tag };
    Ok((checkout, info))
}
