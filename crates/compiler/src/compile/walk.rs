//! The parallel walk of a design-system repository (`ignore::WalkParallel`): `.gitignore` honoured (inside a git
//! repository or not), excluded directories and test/story files skipped, depth capped, symlinks followed with
//! loops reported. Each thread collects into its own vector; the lists are merged and sorted by path afterwards,
//! so the result does not depend on scheduling.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use ignore::{WalkBuilder, WalkState, overrides::OverrideBuilder};

use super::diagnostic::{Diagnostic, Stage};
use crate::config::WalkConfig;

/// A file found by the walk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WalkedFile {
    /// Path relative to the repository root, `/`-separated.
    pub rel: String,
    /// Absolute (or root-joined) path to read it from.
    pub abs: PathBuf,
    /// Size in bytes from the directory entry.
    pub bytes: u64,
}

/// Stage 1's output: the files found and the problems met on the way.
#[derive(Debug, Default)]
pub struct Walked {
    /// Files sorted by `rel`.
    pub files: Vec<WalkedFile>,
    /// Unreadable directories, symlink loops, the depth cap: reported, never stopping the walk.
    pub diagnostics: Vec<Diagnostic>,
    /// Files that only a story glob of `exclude_files` (`*.stories.*`) left out, sorted by `rel`: no sources, but
    /// the examples of their components (`examples::beside`), found in the same walk.
    pub stories: Vec<WalkedFile>,
}

/// Walks `root` with `config`: the files sorted by `rel` and the problems met (unreadable directories,
/// symlink loops), which never stop the walk.
///
/// # Errors
/// Only an invalid exclude glob in `config`.
pub fn walk(root: &Path, config: &WalkConfig) -> Result<Walked, String> {
    let mut overrides = OverrideBuilder::new(root);
    // Story globs are applied after the walk, so that the story files they leave out are listed apart.
    let (story_globs, globs): (Vec<&String>, Vec<&String>) =
        config.exclude_files.iter().partition(|g| g.contains("story") || g.contains("stories"));
    for glob in globs {
        overrides.add(&format!("!{glob}")).map_err(|e| format!("exclude_files `{glob}`: {e}"))?;
    }
    let mut stories = globset::GlobSetBuilder::new();
    for glob in story_globs {
        stories.add(globset::Glob::new(glob).map_err(|e| format!("exclude_files `{glob}`: {e}"))?);
    }
    let stories = stories.build().map_err(|e| e.to_string())?;
    let overrides = overrides.build().map_err(|e| e.to_string())?;
    let excluded: Vec<String> = config.exclude_dirs.clone();
    let walker = WalkBuilder::new(root)
        .hidden(true)
        .git_ignore(true)
        .require_git(false)
        .follow_links(true)
        .max_depth(Some(config.max_depth))
        .overrides(overrides)
        .filter_entry(move |e| {
            !(e.file_type().is_some_and(|t| t.is_dir())
                && e.depth() > 0
                && excluded.iter().any(|d| e.file_name() == d.as_str()))
        })
        .build_parallel();

    let files = Mutex::new(Vec::new());
    let diagnostics = Mutex::new(Vec::new());
    // Symlinks are followed, but never out of the repository: a link to ~/.ssh must not end up in a bundle.
    let real_root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    let real_root = &real_root;
    let max_depth = config.max_depth;
    walker.run(|| {
        let mut local =
            Local { files: Vec::new(), problems: Vec::new(), sink_files: &files, sink_diags: &diagnostics, max_depth };
        Box::new(move |entry| local.visit(root, real_root, entry))
    });
    let mut files = files.into_inner().unwrap_or_else(|e| e.into_inner());
    let mut diagnostics = diagnostics.into_inner().unwrap_or_else(|e| e.into_inner());
    files.sort_by(|a: &WalkedFile, b| a.rel.cmp(&b.rel));
    files.dedup_by(|a, b| a.rel == b.rel);
    diagnostics.sort();
    // A glob with no `/` matches a file name anywhere, as in `.gitignore`.
    let (stories, files) = files.into_iter().partition(|f| {
        let name = f.rel.rsplit('/').next().unwrap_or(&f.rel);
        stories.is_match(name) || stories.is_match(&f.rel)
    });
    Ok(Walked { files, diagnostics, stories })
}

/// Per-thread results; flushed into the shared lists when the walker drops the visitor.
struct Local<'s> {
    files: Vec<WalkedFile>,
    problems: Vec<Diagnostic>,
    sink_files: &'s Mutex<Vec<WalkedFile>>,
    sink_diags: &'s Mutex<Vec<Diagnostic>>,
    max_depth: usize,
}

impl Local<'_> {
    /// Records `entry`; [`WalkState::Skip`] for a symlinked folder that leads out of the repository, so the
    /// walker does not descend into it (one warning names the link, not one per file behind it).
    fn visit(&mut self, root: &Path, real_root: &Path, entry: Result<ignore::DirEntry, ignore::Error>) -> WalkState {
        match entry {
            Err(err) => {
                let path = error_path(&err);
                // A link to a folder above the repository is a loop to the walker (its target holds the link);
                // what the user needs to know is that it leads out, as for any other link out.
                let out = is_loop(&err) && path.as_ref().is_some_and(|p| !leads_inside(p, real_root));
                let message = if out { OUT_OF_REPOSITORY.to_string() } else { err.to_string() };
                let path = path.map(|p| relative(root, &p)).unwrap_or_default();
                self.problems.push(Diagnostic::new(path, Stage::Walk, message));
            }
            Ok(e) if e.file_type().is_some_and(|t| t.is_file()) => {
                if !leads_inside(e.path(), real_root) {
                    self.problems.push(Diagnostic::new(relative(root, e.path()), Stage::Walk, OUT_OF_REPOSITORY));
                    return WalkState::Continue;
                }
                let bytes = e.metadata().map(|m| m.len()).unwrap_or(0);
                self.files.push(WalkedFile { rel: relative(root, e.path()), abs: e.path().to_path_buf(), bytes });
            }
            Ok(e) if e.file_type().is_some_and(|t| t.is_dir()) => {
                // Only a link can lead out: a folder below one that does was never entered.
                if e.path_is_symlink() && !leads_inside(e.path(), real_root) {
                    self.problems.push(Diagnostic::new(relative(root, e.path()), Stage::Walk, OUT_OF_REPOSITORY));
                    return WalkState::Skip;
                }
                // The walker yields a directory at the cap but does not enter it: say what is lost.
                let has_entries = std::fs::read_dir(e.path()).is_ok_and(|mut d| d.next().is_some());
                if e.depth() >= self.max_depth && e.depth() > 0 && has_entries {
                    let message = format!(
                        "a folder at the depth cap ([walk] max_depth = {}); its contents are skipped",
                        self.max_depth
                    );
                    self.problems.push(Diagnostic::new(relative(root, e.path()), Stage::Walk, message));
                }
            }
            Ok(e) => {
                // Not a regular file nor a directory, even after following links: a FIFO, socket or device, which
                // reading could block on or which holds no text.
                let what = special_kind(&e);
                let message = format!("{what}, not a regular file; skipped");
                self.problems.push(Diagnostic::new(relative(root, e.path()), Stage::Walk, message));
            }
        }
        WalkState::Continue
    }
}

impl Drop for Local<'_> {
    fn drop(&mut self) {
        if let Ok(mut f) = self.sink_files.lock() {
            f.append(&mut self.files);
        }
        if let Ok(mut d) = self.sink_diags.lock() {
            d.append(&mut self.problems);
        }
    }
}

/// What kind of special file `e` is, for the warning.
fn special_kind(e: &ignore::DirEntry) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if let Some(t) = e.file_type() {
            if t.is_fifo() {
                return "a FIFO";
            }
            if t.is_socket() {
                return "a socket";
            }
            if t.is_block_device() || t.is_char_device() {
                return "a device";
            }
            if t.is_symlink() {
                return "a broken symlink";
            }
        }
    }
    let _ = e;
    "a special file"
}

/// What the walk says of a path that resolves out of the repository (a symlink, or a file below one).
const OUT_OF_REPOSITORY: &str = "a symlink that leads out of the repository; skipped";

/// Whether `path` resolves to a place inside `real_root` (the repository, its links resolved).
fn leads_inside(path: &Path, real_root: &Path) -> bool {
    path.canonicalize().is_ok_and(|real| real.starts_with(real_root))
}

/// Whether the walker's error is a symlink loop (possibly wrapped with a path or depth).
fn is_loop(err: &ignore::Error) -> bool {
    match err {
        ignore::Error::Loop { .. } => true,
        ignore::Error::WithPath { err, .. }
        | ignore::Error::WithDepth { err, .. }
        | ignore::Error::WithLineNumber { err, .. } => is_loop(err),
        _ => false,
    }
}

fn error_path(err: &ignore::Error) -> Option<PathBuf> {
    match err {
        ignore::Error::WithPath { path, .. } => Some(path.clone()),
        ignore::Error::Loop { child, .. } => Some(child.clone()),
        ignore::Error::WithDepth { err, .. } | ignore::Error::WithLineNumber { err, .. } => error_path(err),
        ignore::Error::Partial(errs) => errs.first().and_then(error_path),
        _ => None,
    }
}

/// The nearest directory above `rel` with a `package.json` in `packages` (`""` for the root).
pub fn package_of<'a>(rel: &str, packages: &'a std::collections::BTreeSet<String>) -> Option<&'a str> {
    let mut dir = rel;
    while let Some((parent, _)) = dir.rsplit_once('/') {
        if let Some(p) = packages.get(parent) {
            return Some(p.as_str());
        }
        dir = parent;
    }
    packages.get("").map(String::as_str)
}

/// `path` relative to `root` with `/` separators (the path itself when it is not below `root`).
pub fn relative(root: &Path, path: &Path) -> String {
    let rel = path.strip_prefix(root).unwrap_or(path);
    rel.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn touch(root: &Path, rel: &str) {
        let p = root.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, "x").unwrap();
    }

    #[test]
    fn depth_cap_fifos_and_control_characters_are_warnings_with_their_paths() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        touch(root, "docs/a/b/c/deep.md");
        touch(root, "docs/a/ok.md");
        touch(root, "docs/tab\tname/index.md");
        let fifo = root.join("docs/a/fifo.md");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status().is_ok_and(|s| s.success());
        let config = WalkConfig { max_depth: 3, ..WalkConfig::default() };
        let Walked { files, diagnostics: diags, .. } = walk(root, &config).unwrap();
        let rels: Vec<&str> = files.iter().map(|f| f.rel.as_str()).collect();
        assert_eq!(rels, ["docs/a/ok.md", "docs/tab\tname/index.md"]);
        let shown: Vec<String> = diags.iter().map(|d| d.to_string()).collect();
        let mut want = vec![
            "walk: docs/a/b: a folder at the depth cap ([walk] max_depth = 3); its contents are skipped".to_string(),
        ];
        if made {
            want.push("walk: docs/a/fifo.md: a FIFO, not a regular file; skipped".into());
        } else {
            eprintln!("mkfifo unavailable: the FIFO case is not checked");
        }
        assert_eq!(shown, want);
        let d = Diagnostic::new("docs/a\x1b[31mred\n", Stage::Walk, "x");
        assert_eq!(d.to_string(), "walk: docs/a\\u{1b}[31mred\\n: x");
    }

    #[test]
    fn skips_excluded_dirs_tests_stories_gitignored_and_hidden() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for rel in [
            "src/components/Table/Table.tsx",
            "src/components/Table/Table.test.tsx",
            "src/components/Table/Table.stories.tsx",
            "src/components/Table/__tests__/a.tsx",
            "src/components/Table/ignored.log",
            "lib/index.js",
            "node_modules/x/index.js",
            ".hidden/a.md",
            "docs/table/index.md",
        ] {
            touch(root, rel);
        }
        std::fs::write(root.join(".gitignore"), "*.log\n").unwrap();
        let Walked { files, diagnostics: diags, .. } = walk(root, &WalkConfig::default()).unwrap();
        let rels: Vec<_> = files.iter().map(|f| f.rel.as_str()).collect();
        assert_eq!(rels, ["docs/table/index.md", "src/components/Table/Table.tsx"]);
        assert!(diags.is_empty(), "{diags:?}");
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_out_of_the_repository_are_not_followed() {
        let outside = tempfile::tempdir().unwrap();
        touch(outside.path(), "secret.md");
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        touch(root, "docs/a/index.md");
        std::os::unix::fs::symlink(outside.path().join("secret.md"), root.join("docs/a/secret.md")).unwrap();
        std::os::unix::fs::symlink(root.join("docs/a/index.md"), root.join("docs/a/alias.md")).unwrap();
        let Walked { files, diagnostics: diags, .. } = walk(root, &WalkConfig::default()).unwrap();
        let rels: Vec<_> = files.iter().map(|f| f.rel.as_str()).collect();
        assert_eq!(rels, ["docs/a/alias.md", "docs/a/index.md"]);
        assert_eq!(diags.len(), 1);
        assert_eq!(diags[0].to_string(), "walk: docs/a/secret.md: a symlink that leads out of the repository; skipped");
    }

    #[cfg(unix)]
    #[test]
    fn a_symlinked_folder_out_of_the_repository_is_not_entered_and_named_once() {
        let outside = tempfile::tempdir().unwrap();
        for rel in ["a.md", "b.md", "deeper/c.md", "deeper/more/d.md"] {
            touch(outside.path(), rel);
        }
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        touch(root, "src/components/button/index.md");
        touch(root, "docs/shared/note.md");
        std::os::unix::fs::symlink(outside.path(), root.join("src/components/button/outside")).unwrap();
        // A folder link that stays inside is still followed.
        std::os::unix::fs::symlink(root.join("docs/shared"), root.join("src/components/button/shared")).unwrap();
        let Walked { files, diagnostics: diags, .. } = walk(root, &WalkConfig::default()).unwrap();
        let rels: Vec<_> = files.iter().map(|f| f.rel.as_str()).collect();
        assert_eq!(
            rels,
            ["docs/shared/note.md", "src/components/button/index.md", "src/components/button/shared/note.md"]
        );
        let shown: Vec<String> = diags.iter().map(|d| d.to_string()).collect();
        assert_eq!(shown, ["walk: src/components/button/outside: a symlink that leads out of the repository; skipped"]);
    }

    #[cfg(unix)]
    #[test]
    fn a_relative_link_to_a_folder_above_the_repository_is_said_to_lead_out() {
        // `docs/up -> ../..` resolves to the folder that holds the repository: a loop to the walker, a link out of
        // the repository to the user (the previous trial saw it reported as a loop).
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("repo");
        touch(&root, "docs/a/index.md");
        touch(dir.path(), "secret.md");
        std::os::unix::fs::symlink("../..", root.join("docs/up")).unwrap();
        let Walked { files, diagnostics, .. } = walk(&root, &WalkConfig::default()).unwrap();
        assert_eq!(files.iter().map(|f| f.rel.as_str()).collect::<Vec<_>>(), ["docs/a/index.md"]);
        let shown: Vec<String> = diagnostics.iter().map(|d| d.to_string()).collect();
        assert_eq!(shown, ["walk: docs/up: a symlink that leads out of the repository; skipped"]);
    }

    #[cfg(unix)]
    #[test]
    fn symlink_loop_is_reported_not_fatal() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        touch(root, "docs/a/index.md");
        std::os::unix::fs::symlink(root.join("docs"), root.join("docs/a/loop")).unwrap();
        let Walked { files, diagnostics: diags, .. } = walk(root, &WalkConfig::default()).unwrap();
        assert_eq!(files.iter().map(|f| f.rel.as_str()).collect::<Vec<_>>(), ["docs/a/index.md"]);
        assert_eq!(diags.len(), 1, "{diags:?}");
        assert_eq!(diags[0].path, "docs/a/loop");
        assert!(diags[0].message.contains("loop"), "{}", diags[0].message);
    }
}
