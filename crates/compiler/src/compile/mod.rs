//! The compiler half: walk → classify → parse and count (rayon) → bundle. Everything expensive happens here, once:
//! Markdown parsing (comrak), source analysis (tree-sitter) and token counting (tiktoken's encodings, with bpe-openai).
//!
//! A bad input file never stops a build: it becomes a [`Diagnostic`] and the build goes on. The build fails only
//! when nothing usable was found or the output cannot be written.

pub mod api;
mod cache;
pub mod changelog;
pub mod design_tokens;
pub mod detect;
pub mod diagnostic;
mod emit;
pub mod examples;
pub mod guide_rules;
pub mod guides;
pub mod layout;
pub mod markdown;
pub mod matching;
pub mod names;
pub mod own_changelogs;
pub mod page_subject;
pub mod props;
pub mod source;
mod stamp;
pub mod text;
mod timing;
pub mod tokens;
pub mod walk;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

// The driver's shared types live in leaf modules (the modules of `compile/` import them from there, never from
// here, so `compile/` has no import circle); they keep their `compile::` paths for the crate's users.
pub use diagnostic::{Diagnostic, Stage, escape_controls};
pub use emit::write_bundle_set;
pub use stamp::{ResolvedVersion, resolve_version};
pub use text::{read_to_string, strip_bom};

use crate::config::Config;
use crate::model::Manifest;

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
    /// Where the version came from (`package.json`, `packages/ui/package.json`, `the changelog's newest release`).
    pub version_source: String,
    /// Units (components, the changelog, the list counts) taken from the incremental build cache; 0 without one.
    pub reused: u32,
    /// Units compiled and stored in the cache; 0 without one.
    pub recompiled: u32,
    /// Source files of recompiled components taken from the cache (their content and owner unchanged) instead of
    /// parsed and counted again; 0 without one.
    pub files_reused: u32,
    /// Whether the published set was already this build (same build id) and nothing was written.
    pub unchanged: bool,
    /// Why the published generation of this very build was damaged (a bundle cut or rewritten since, named), when
    /// it was: this build rewrote it (a fresh generation in its place, never mended in place).
    pub repaired: Option<String>,
    /// Whether this build's set is the one published at [`BuildReport::dir`]: false when
    /// [`build_denying_warnings`] refused it for its warnings (nothing was published; the previous set, if any,
    /// stays).
    pub published: bool,
}

/// Builds the bundle set of `opts.repo`.
///
/// # Errors
/// The repository is not a directory, nothing usable was found in it (no document, changelog or source), or the
/// output could not be written. Problems with single files are diagnostics in the report instead.
pub fn build(opts: &BuildOptions) -> anyhow::Result<BuildReport> {
    build_with_cache(opts, None)
}

/// Builds the bundle set of `opts.repo` as [`build`] does, reusing from the incremental build cache in `cache`
/// (created when missing) every component whose inputs did not change (issue 12 item 2). The set published is
/// byte-identical to a build without the cache. When it is the set already published (same build id), nothing is
/// written. The cache keeps only what this build used; a damaged entry is a note and is recompiled.
///
/// # Errors
/// As [`build`].
pub fn build_with_cache(opts: &BuildOptions, cache: Option<&Path>) -> anyhow::Result<BuildReport> {
    build_denying_warnings(opts, cache, false)
}

/// [`build_with_cache`]; with `deny_warnings`, a build that has a warning (a diagnostic that is not a note) is not
/// published (`build --deny-warnings`, TRIAL item 15): the set is compiled and written to a temporary directory
/// that is then removed, `out/<system>@<version>` stays what it was (a running `serve` sees no change), and the
/// report says `published: false`. A tree whose set is already the published one writes nothing either way.
///
/// # Errors
/// As [`build`].
pub fn build_denying_warnings(
    opts: &BuildOptions,
    cache: Option<&Path>,
    deny_warnings: bool,
) -> anyhow::Result<BuildReport> {
    build_attempt(opts, cache, deny_warnings, 0)
}

/// Builds made again when walked files change during a cached build (see [`changed_since`]) before it gives up
/// and says so.
const CHANGED_RETRIES: u32 = 2;

/// One attempt of [`build_denying_warnings`]; `attempt` counts the builds made again because files changed under
/// the previous one.
fn build_attempt(
    opts: &BuildOptions,
    cache: Option<&Path>,
    deny_warnings: bool,
    attempt: u32,
) -> anyhow::Result<BuildReport> {
    let start = Instant::now();
    timing::start(start);
    let repo = &opts.repo;
    if !repo.is_dir() {
        anyhow::bail!("{}: not a directory", repo.display());
    }
    opts.config.validate().map_err(anyhow::Error::msg)?;
    // Said before anything is walked or created under it (a trial got the bare "File exists (os error 17)").
    if opts.out.exists() && !opts.out.is_dir() {
        anyhow::bail!(
            "--out {}: exists and is not a directory; the output is a directory (created when missing) holding \
             one <system>@<version> set per build: name another path or remove this file",
            opts.out.display()
        );
    }
    // Spools of killed builds (Ctrl-C: `.build.tmp-PID`) go at the start of every build, not only of one that
    // writes (issue 31: an unchanged rebuild left them); only those of processes that are gone.
    emit::remove_stale_temporaries(&opts.out, "build");
    let walk::Walked { files, mut diagnostics, stories: set_apart } =
        walk::walk(repo, &opts.config.walk).map_err(anyhow::Error::msg)?;
    timing::timing("walk");
    // An unchanged tree: the set record says which set these inputs made, and it is still the one published. The
    // story files the walk set apart count as inputs (a new one adds examples to its component).
    let set = cache.map(|dir| {
        let keyed: Vec<walk::WalkedFile> = files.iter().chain(&set_apart).cloned().collect();
        let hashes = cache::hash_files(&keyed, opts.config.walk.max_file_bytes);
        (dir, cache::set_key(&opts.config.to_toml(), &keyed, &hashes), hashes)
    });
    let stories = examples::beside::story_files(set_apart, &files);
    if let Some((dir, key, _)) = &set
        && let Some(report) = unchanged_set(opts, dir, *key, &diagnostics)
    {
        return Ok(BuildReport { elapsed: start.elapsed(), ..report });
    }
    timing::timing("set key");
    let walk_diagnostics = diagnostics.len();
    // With `[system] package` (detection writes it), the package's exports name the components.
    let api = opts
        .config
        .system
        .package
        .as_deref()
        .filter(|_| opts.config.system.exports_decide)
        .and_then(|p| api::read(repo, &files, Some(p)))
        .filter(|a| !a.components.is_empty());
    let subjects = api.as_ref().map(|a| page_subject::Subjects::new(repo, a));
    let layout::Classified { mut layout, diagnostics: layout_diags } =
        layout::classify_exported(&files, &opts.config, subjects.as_ref());
    if let Some(a) = &api {
        layout::share_exported_modules(&mut layout, &files, a);
    }
    published_package(repo, &files, &opts.config, &mut layout);
    diagnostics.extend(layout_diags);
    diagnostics.extend(guide_rules::unmatched(&files, &opts.config.guides));
    if layout.components.is_empty() {
        anyhow::bail!(
            "{}: no component found with this layout ({} changelog file(s) matched).\n{}",
            repo.display(),
            layout.changelogs.len(),
            detect::inventory(&files)
        );
    }
    // Pages naming no exported component are built as guides, listed apart (issue 24 item 2).
    guides::plan(&mut layout);
    let (set, unit_cache, hashed) = match set {
        Some((dir, key, hashes)) => (Some((dir, key)), Some(cache::Cache::open(dir, hashes.clone())), hashes),
        None => (None, None, BTreeMap::new()),
    };
    let inputs = emit::Inputs {
        repo,
        walked: &files,
        stories: &stories,
        layout: &layout,
        config: &opts.config,
        progress: opts.progress,
        cache: unit_cache.as_ref(),
    };
    let compiled = emit::compile_all(&inputs, emit::Spool::new(&opts.out)?, &mut diagnostics)?;
    timing::timing("compiled and assembled");
    let version_source = compiled.version_source.clone();
    let finished = unit_cache.map(cache::Cache::finish);
    let (reused, recompiled, files_reused) =
        finished.as_ref().map_or((0, 0, 0), |f| (f.reused, f.recompiled, f.taken_aside));
    let publish = !(deny_warnings && diagnostics.iter().any(|d| !d.is_note()));
    let mut repaired = None;
    let ((manifest, dir), unchanged) = match emit::published(&opts.out, &compiled).filter(|_| reused > 0) {
        Some(published) => (published, true),
        None => {
            repaired = emit::published_damage(&opts.out, &compiled).filter(|_| publish);
            (emit::write_bundle_set_publishing(&opts.out, compiled, publish)?, false)
        }
    };
    let published = publish || unchanged;
    timing::timing("written");
    // A file saved while this build ran may have been compiled from other bytes than those its keys hashed: the
    // set record and the units would then pin a set the files no longer make ("nothing changed" ever after). So
    // the walked files are hashed again; on a change the cache is emptied (its entries may pair a key with other
    // bytes) and the build is made again, from the files as they are now.
    let changed = match &set {
        Some(_) => changed_since(&files, &hashed, opts.config.walk.max_file_bytes),
        None => Vec::new(),
    };
    if !changed.is_empty() {
        if let Some((cache_dir, _)) = set {
            cache::purge(cache_dir);
        }
        if attempt < CHANGED_RETRIES {
            return build_attempt(opts, cache, deny_warnings, attempt + 1);
        }
        diagnostics.push(Diagnostic::new(
            changed.join(", "),
            Stage::Cache,
            format!(
                "changed during the build, {} times in a row: the set published may mix the files' versions and \
                 nothing was kept in the cache, so the next build compiles them again",
                attempt + 1
            ),
        ));
    }
    if let (Some((cache_dir, key)), Some(finished)) = (set.filter(|_| changed.is_empty()), finished) {
        // Recorded before the cache's own notes join: a rebuild that finds the record reuses every unit, cleanly.
        let record = cache::SetRecord {
            name: format!("{}@{}", manifest.system, manifest.version),
            build_id: manifest.build_id,
            units: reused + recompiled,
            version_source: version_source.clone(),
            diagnostics: diagnostics[walk_diagnostics.min(diagnostics.len())..].to_vec(),
        };
        let mut deps = finished.deps;
        // The version and the package name come from these (read outside the walk when it excludes them).
        let packages = ["package.json".to_string()]
            .into_iter()
            .chain(layout.package.as_ref().filter(|p| !p.is_empty()).map(|p| format!("{p}/package.json")))
            .map(|rel| {
                let hash = cache::file_hash(repo, &rel);
                (rel, hash)
            });
        deps.extend(packages);
        if finished.notes.is_empty() {
            cache::write_set(cache_dir, key, deps, &record);
        }
        diagnostics.extend(finished.notes);
    }
    diagnostics.sort();
    Ok(BuildReport {
        manifest,
        dir,
        diagnostics,
        elapsed: start.elapsed(),
        version_source,
        reused,
        recompiled,
        files_reused,
        unchanged,
        repaired,
        published,
    })
}

/// The walked files whose content key ([`cache::hash_files`]) is not `before`'s any more, sorted.
fn changed_since(files: &[walk::WalkedFile], before: &BTreeMap<String, Option<u64>>, max_bytes: u64) -> Vec<String> {
    let now = cache::hash_files(files, max_bytes);
    now.into_iter().filter(|(rel, h)| before.get(rel) != Some(h)).map(|(rel, _)| rel).collect()
}

/// When the sources sit in a private package (or one without a version) behind the published design-system package
/// (`[system] package`), the published one owns the version (issue 24 item 4: never 0.0.0 while a published
/// package has a version).
fn published_package(repo: &Path, files: &[walk::WalkedFile], config: &Config, layout: &mut layout::Layout) {
    let Some(wanted) = config.system.package.as_deref() else { return };
    let owner = layout.package.as_deref().unwrap_or("");
    if crate::config::package_version(&repo.join(owner)).is_some_and(|(_, private)| !private) {
        return;
    }
    let published =
        api::packages(repo, files).into_iter().find(|p| p.name == wanted && !p.private && p.version.is_some());
    if let Some(p) = published {
        layout.package = Some(p.dir);
    }
}

/// The report of a build whose inputs are those of the set recorded in the cache `dir` under `key`, when that set
/// is still the one published in `opts.out` (issue 12 item 3: an unchanged tree reads no cached unit and writes
/// nothing). `walk` holds this build's walk diagnostics (the record keeps the others).
fn unchanged_set(opts: &BuildOptions, dir: &Path, key: u64, walk: &[Diagnostic]) -> Option<BuildReport> {
    let record = cache::read_set(dir, key, |rel| cache::file_hash(&opts.repo, rel))?;
    let (manifest, set_dir) = emit::published_as(&opts.out, &record.name, record.build_id)?;
    let mut diagnostics: Vec<Diagnostic> = walk.to_vec();
    diagnostics.extend(record.diagnostics);
    diagnostics.sort();
    Some(BuildReport {
        manifest,
        dir: set_dir,
        diagnostics,
        elapsed: Duration::ZERO,
        version_source: record.version_source,
        reused: record.units,
        recompiled: 0,
        files_reused: 0,
        unchanged: true,
        repaired: None,
        published: true,
    })
}

/// Whether `version` is a SemVer prerelease (`5.42.4-alpha.0`), read leniently ([`crate::version::parse`]).
pub use crate::version::is_prerelease;
