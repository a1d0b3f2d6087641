//! `mydesign-docs build`: compile, print diagnostics and a summary.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use mydesign_docs::compile::{BuildOptions, build_denying_warnings, build_with_cache, detect, is_prerelease, walk};
use mydesign_docs::config::{CONFIG_FILE, Config, WalkConfig};
use mydesign_docs::render::{plural, thousands};

// Arguments of `build` (not a doc comment: see `cli::LookupArgs`).
#[derive(Args, Debug)]
pub struct BuildArgs {
    /// Repository to compile. Default: the current directory when it has a mydesign-docs.toml or package.json,
    /// else ./corpus (the project's sample design system).
    repo: Option<PathBuf>,
    /// Output directory; the bundle set goes to OUT/<system>@<version>/.
    #[arg(long, default_value = "out")]
    out: PathBuf,
    /// Layout preset: default, semi, blueprint or dumi. REPO/mydesign-docs.toml, when present, is merged over it
    /// (the file wins field by field). With neither, the layout is detected and reported.
    #[arg(long)]
    preset: Option<String>,
    /// Print the configuration this build would use (detected, preset or file) as a mydesign-docs.toml to edit,
    /// and stop.
    #[arg(long)]
    print_config: bool,
    /// Token encoding: o200k_base or cl100k_base (overrides the configuration).
    #[arg(long)]
    encoding: Option<String>,
    /// Version to stamp (overrides the configuration, package.json and the changelog).
    #[arg(long = "set-version")]
    set_version: Option<String>,
    /// Print every note (components without sources or without documents), not only warnings.
    #[arg(long, short)]
    verbose: bool,
    /// Exit with code 2, publishing nothing (the previous set stays), when the build has a warning.
    #[arg(long)]
    deny_warnings: bool,
    /// Build this tag, branch or commit of REPO (a local git repository or a URL), fetched shallowly with git into a
    /// temporary directory. The manifest records the repository, reference, commit and tag.
    #[arg(long = "ref", value_name = "REF")]
    reference: Option<String>,
    /// Incremental build cache: components whose inputs did not change are reused from it, not recompiled (the
    /// set is byte-identical to a full build). Default: OUT/.cache/<system>, one per design system.
    #[arg(long, value_name = "DIR")]
    cache: Option<PathBuf>,
    /// Compile everything, reading and writing no cache.
    #[arg(long, conflicts_with = "cache")]
    no_cache: bool,
    /// After the build, watch REPO and rebuild (incrementally) whenever a file changes, printing one line per
    /// rebuild; a failed rebuild is a warning and watching goes on. Ctrl-C stops.
    #[arg(long, conflicts_with = "reference")]
    watch: bool,
}

/// The coverage line of a configured layout: its `[[docs]]` rules over the components the design-system package
/// (`[system] package`, else as detection finds it) exports; `None` when no package or entry is readable.
fn coverage_line(repo: &Path, config: &Config) -> Option<String> {
    let files = walk::walk(repo, &config.walk).ok()?.files;
    let api = mydesign_docs::compile::api::read(repo, &files, config.system.package.as_deref())
        .filter(|a| !a.components.is_empty())
        .or_else(|| mydesign_docs::compile::api::read(repo, &files, None))?;
    let subjects = mydesign_docs::compile::page_subject::Subjects::new(repo, &api);
    let layout = mydesign_docs::compile::layout::classify_exported(&files, config, Some(&subjects)).layout;
    let c = mydesign_docs::compile::matching::coverage(&layout, &api)?;
    Some(format!("  coverage: {} ({} exports)", c.line(), api.package.name))
}

fn default_repo() -> PathBuf {
    let here = Path::new(".");
    if here.join(CONFIG_FILE).exists() || here.join("package.json").exists() || !Path::new("corpus").is_dir() {
        here.to_path_buf()
    } else {
        PathBuf::from("corpus")
    }
}

pub fn run(args: BuildArgs) -> anyhow::Result<ExitCode> {
    let repo = args.repo.clone().unwrap_or_else(default_repo);
    // A pack file is only verified and unpacked into OUT.
    if repo.is_file() && repo.to_string_lossy().ends_with(".tar.zst") {
        for r in mydesign_docs::store::install(&repo, &args.out, true)? {
            super::emit(&format!(
                "unpacked {} (build {}) into {}: verified, nothing compiled",
                r.name,
                r.build_id,
                r.dir.display()
            ))?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    let repo_text = repo.to_string_lossy().into_owned();
    let (checkout, source) = match &args.reference {
        Some(r) => {
            let (c, s) = super::source::fetch(&repo_text, r)?;
            (Some(c), Some(s))
        }
        None if super::source::is_remote(&repo_text) => {
            anyhow::bail!("{repo_text} is a remote repository: name the tag, branch or commit to build with --ref")
        }
        None => (None, super::source::local_source(&repo)),
    };
    let repo = checkout.as_ref().map_or(repo, |c| c.dir.clone());
    let explicit = args.preset.is_some() || repo.join(CONFIG_FILE).exists();
    let mut detected = None;
    let mut config = if explicit || !repo.is_dir() {
        Config::load(&repo, args.preset.as_deref())?
    } else {
        let files = walk::walk(&repo, &WalkConfig::default()).map_err(anyhow::Error::msg)?.files;
        // A repository with no document but a package exporting components is built from the exports.
        let exports_only = |d: &detect::Detection| {
            d.config.docs.is_empty() && d.api.as_ref().is_some_and(|a| !a.components.is_empty())
        };
        match detect::detect(&repo, &files).filter(|d| d.components > 0 || exports_only(d)) {
            // Nothing is picked silently (issue 24 item 3): the candidates and the lines that choose each.
            Some(d) if d.ambiguous.is_some() && !args.print_config => anyhow::bail!(
                "{}: no document layout can be chosen without a configuration: {}",
                repo.display(),
                d.ambiguous.as_deref().unwrap_or_default()
            ),
            Some(d) => {
                let config = d.config.clone();
                detected = Some(d);
                config
            }
            None => anyhow::bail!(
                "{}: no component found: no layout recognised.\n{}",
                repo.display(),
                detect::inventory(&files)
            ),
        }
    };
    config.system.source = source;
    if let Some(e) = args.encoding {
        config.encoding = e;
    }
    if let Some(v) = args.set_version {
        config.system.version = Some(v);
    }
    if args.print_config {
        // The example rules in force are written out too, the built-in ones included, so that they can be edited.
        config.examples = mydesign_docs::compile::examples::rules::effective(&config.examples);
        super::emit(config.to_toml().trim_end())?;
        return Ok(ExitCode::SUCCESS);
    }
    let cache =
        (!args.no_cache).then(|| args.cache.clone().unwrap_or_else(|| default_cache(&args.out, &config, &repo)));
    let opts = BuildOptions { repo, out: args.out.clone(), config, progress: std::io::stderr().is_terminal() };
    let report = build_denying_warnings(&opts, cache.as_deref(), args.deny_warnings && !args.watch)?;
    let (notes, warnings): (Vec<_>, Vec<_>) = report.diagnostics.iter().partition(|d| d.is_note());
    for line in warning_lines(&warnings, args.verbose) {
        eprintln!("{line}");
    }
    if args.verbose {
        for d in &notes {
            eprintln!("note: {d}");
        }
    }
    let m = &report.manifest;
    let s = &m.stats;
    let mut out: Vec<String> = detected.iter().map(|d| d.report()).collect();
    // Coverage of the exported components, for a configured layout too (issue 24 item 3).
    let configured_coverage = match &detected {
        Some(_) => None,
        None => coverage_line(&opts.repo, &opts.config),
    };
    out.push(format!(
        "{} {} {} → {} in {:.2} s",
        if report.published { "built" } else { "compiled, not published," },
        m.system,
        m.version,
        report.dir.display(),
        report.elapsed.as_secs_f64()
    ));
    if let Some(damage) = &report.repaired {
        out.push(format!(
            "  repaired: the published set was this build but damaged ({damage}); a fresh copy replaced it"
        ));
    }
    out.extend(configured_coverage);
    let pre = if is_prerelease(&m.version) { "a prerelease, " } else { "" };
    out.push(format!("  version {} ({pre}from {})", m.version, report.version_source));
    let guides = m.components.iter().filter(|c| c.guide).count();
    // A guide in two languages is one guide of two pages: detection counts pages.
    let guide_pages: usize = m.components.iter().filter(|c| c.guide).map(|c| c.docs.len()).sum();
    let guides_part = match guides {
        0 => String::new(),
        n if guide_pages != n => {
            format!(", {} of {guide_pages} pages (components --guides)", plural(n as u64, "guide"))
        }
        n => format!(", {} (components --guides)", plural(n as u64, "guide")),
    };
    out.push(format!(
        "  {}{}, {} ({}), {}",
        plural((m.components.len() - guides) as u64, "component"),
        guides_part,
        plural(s.documents, "document"),
        m.langs.join(", "),
        plural(s.code_blocks, "code block")
    ));
    out.push(format!(
        "  {}, {}, {}, {} indexed",
        plural(s.files, "file"),
        plural(s.sources, "source"),
        plural(s.skeletons, "skeleton"),
        plural(s.functions, "function")
    ));
    if let Some(c) = &m.changelog {
        let pages: Vec<String> = c
            .langs
            .iter()
            .map(|l| format!("{} {} lines → {}", l.lang, thousands(l.lines), plural(l.pages, "page")))
            .collect();
        out.push(format!("  changelog: {}", pages.join("; ")));
    }
    if s.component_changelogs > 0 {
        out.push(format!(
            "  component changelogs: {}, {} (`changelog --component NAME`)",
            plural(s.component_changelogs, "file"),
            plural(s.component_releases, "release")
        ));
    }
    // Documents, sources and changelog against their bundles; the search index is reported on its own, as it is
    // not a copy of the inputs but an addition to them.
    let search_bytes =
        m.search.as_ref().and_then(|x| m.bundles.iter().find(|b| b.name == x.bundle)).map_or(0, |b| b.bytes);
    let content_bytes = s.bundle_bytes - search_bytes;
    let ratio = |b: u64| if s.source_bytes == 0 { 0.0 } else { b as f64 / s.source_bytes as f64 };
    out.push(format!(
        "  bytes: {} source → {} bundles ({:.2}×)",
        thousands(s.source_bytes),
        thousands(content_bytes),
        ratio(content_bytes)
    ));
    if let Some(x) = &m.search {
        out.push(format!(
            "  search index: {} units, {} terms, {} bytes ({:.2}× with the bundles)",
            thousands(x.units),
            thousands(x.terms),
            thousands(search_bytes),
            ratio(s.bundle_bytes)
        ));
    }
    out.push(format!(
        "  tokens ({}): {} raw → {} in default views",
        m.encoding,
        thousands(s.raw_tokens),
        thousands(s.view_tokens)
    ));
    if report.reused > 0 {
        out.push(format!(
            "  incremental: {} reused, {} recompiled{}{}",
            plural(u64::from(report.reused), "unit"),
            thousands(u64::from(report.recompiled)),
            match report.files_reused {
                0 => String::new(),
                n => format!(" ({} unchanged, not parsed again)", plural(u64::from(n), "source file")),
            },
            if report.unchanged { "; the published set is already this build, nothing written" } else { "" }
        ));
    }
    // Markdown nobody configured (a guide folder), counted from its notes: visible without --verbose.
    let unread: Vec<(&str, usize)> = notes
        .iter()
        .filter_map(|d| Some((d.path.as_str(), mydesign_docs::compile::layout::unread_markdown_count(d)?)))
        .collect();
    if !unread.is_empty() {
        let total = unread.iter().map(|(_, n)| n).sum::<usize>() as u64;
        let mut folders: Vec<String> = unread.iter().take(4).map(|(dir, n)| format!("{dir} {n}")).collect();
        if unread.len() > 4 {
            folders.push(format!("… ({} more folders)", unread.len() - 4));
        }
        out.push(format!("  Markdown not used: {} ({})", plural(total, "file"), folders.join(", ")));
    }
    // Story files Storybook would read no story from (issue 25's trial: dropped silently), each a warning above.
    let unread_stories = warnings
        .iter()
        .filter(|d| d.message.starts_with(mydesign_docs::compile::examples::beside::UNREAD_STORY))
        .count();
    if unread_stories > 0 {
        out.push(format!("  story files not read: {} (see the warnings)", plural(unread_stories as u64, "file")));
    }
    if !warnings.is_empty() || !notes.is_empty() {
        let hint = if args.verbose || notes.is_empty() { "" } else { " (notes: --verbose)" };
        out.push(format!(
            "  {}, {}{hint}",
            plural(warnings.len() as u64, "warning"),
            plural(notes.len() as u64, "note")
        ));
    }
    super::emit(&out.join("\n"))?;
    if args.watch {
        return watch(&opts, cache.as_deref());
    }
    if args.deny_warnings && !warnings.is_empty() {
        // Nothing was published (or the published set already was this very build): the exit code fails the CI
        // job that asked for a clean build.
        let left = if report.published {
            format!("{} is an earlier build of these same inputs, left as it was", report.dir.display())
        } else if report.dir.exists() {
            format!("nothing was published: {} is still the previous set", report.dir.display())
        } else {
            format!("nothing was published: {} was not created", report.dir.display())
        };
        eprintln!(
            "error: the build has {} and --deny-warnings was given: failing (exit 2); {left}",
            plural(warnings.len() as u64, "warning")
        );
        return Ok(ExitCode::from(2));
    }
    Ok(ExitCode::SUCCESS)
}

/// The default cache directory: `OUT/.cache/<system>`, one per design system, so that building several systems into
/// one `out/` (README's real inputs) keeps each one's cache instead of only the last one's (a build removes the
/// entries it did not use). The system is the configured or detected name, else the design-system package, else
/// the name in the repository's `package.json`, else the repository folder's name; characters other than ASCII
/// letters, digits, `.`, `_` and `-` become `-` (`@scope/name` → `scope-name`).
fn default_cache(out: &Path, config: &Config, repo: &Path) -> PathBuf {
    let from_package_json = || {
        let text = std::fs::read(repo.join("package.json")).ok()?;
        let json: serde_json::Value = serde_json::from_slice(&text).ok()?;
        json.get("name")?.as_str().map(str::to_string)
    };
    let name = config
        .system
        .name
        .clone()
        .or_else(|| config.system.package.clone())
        .or_else(from_package_json)
        .or_else(|| repo.canonicalize().ok()?.file_name()?.to_str().map(str::to_string))
        .unwrap_or_default();
    let safe: String =
        name.chars().map(|c| if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') { c } else { '-' }).collect();
    let safe = safe.trim_start_matches(['-', '.']);
    out.join(".cache").join(if safe.is_empty() { "default" } else { safe })
}

/// `build --watch`: rebuilds `opts.repo` (incrementally, through `cache`) whenever files under it change, changes
/// debounced by 200 ms, printing one line per rebuild and the warnings of that rebuild. A rebuild that fails (or a
/// broken file) is a warning and watching goes on; Ctrl-C ends it with exit code 0. Changes under the output
/// directory and `.git/` are not watched. The configuration is the one of the first build.
fn watch(opts: &BuildOptions, cache: Option<&Path>) -> anyhow::Result<ExitCode> {
    use notify_debouncer_mini::notify::RecursiveMode;
    use std::sync::mpsc;
    use std::time::Duration;

    enum Event {
        Changed(Vec<PathBuf>),
        Failed(String),
        Stop,
    }
    let (tx, rx) = mpsc::channel();
    let stop = tx.clone();
    ctrlc::set_handler(move || {
        let _ = stop.send(Event::Stop);
    })
    .map_err(|e| anyhow::anyhow!("cannot handle Ctrl-C: {e}"))?;
    let events = tx.clone();
    let mut debouncer = notify_debouncer_mini::new_debouncer(
        Duration::from_millis(200),
        move |res: notify_debouncer_mini::DebounceEventResult| {
            let _ = events.send(match res {
                Ok(evs) => Event::Changed(evs.into_iter().map(|e| e.path).collect()),
                Err(e) => Event::Failed(e.to_string()),
            });
        },
    )
    .map_err(|e| anyhow::anyhow!("cannot watch {}: {e}", opts.repo.display()))?;
    debouncer
        .watcher()
        .watch(&opts.repo, RecursiveMode::Recursive)
        .map_err(|e| anyhow::anyhow!("cannot watch {}: {e}", opts.repo.display()))?;
    let out = opts.out.canonicalize().unwrap_or_else(|_| opts.out.clone());
    let ignored = |p: &Path| p.starts_with(&out) || p.components().any(|c| c.as_os_str() == ".git");
    // Reading a file is an event too (inotify's open and close, which the debouncer passes on without a kind), so
    // the build's own reads would start the next build: only a path modified (or gone) since the last build started
    // counts. The margin covers the file system's coarse clock (a jiffy behind the precise one).
    let mut since = std::time::SystemTime::now();
    let modified = |p: &Path, since: std::time::SystemTime| {
        std::fs::metadata(p).and_then(|m| m.modified()).map_or(true, |t| t + Duration::from_millis(50) >= since)
    };
    super::emit(&format!("watching {} (Ctrl-C stops)", opts.repo.display()))?;
    while let Ok(event) = rx.recv() {
        match event {
            Event::Stop => break,
            Event::Failed(e) => eprintln!("warning: watching: {e}"),
            Event::Changed(paths) => {
                if paths.iter().all(|p| ignored(p) || !modified(p, since)) {
                    continue;
                }
                since = std::time::SystemTime::now();
                match build_with_cache(opts, cache) {
                    Ok(report) => {
                        let warnings: Vec<_> = report.diagnostics.iter().filter(|d| !d.is_note()).collect();
                        for d in &warnings {
                            eprintln!("warning: {d}");
                        }
                        let what = if report.unchanged {
                            "unchanged".to_string()
                        } else {
                            format!("build {:016x}", report.manifest.build_id)
                        };
                        super::emit(&format!(
                            "rebuilt {} {} in {:.2} s: {what}, {} recompiled, {} reused, {}",
                            report.manifest.system,
                            report.manifest.version,
                            report.elapsed.as_secs_f64(),
                            report.recompiled,
                            report.reused,
                            plural(warnings.len() as u64, "warning")
                        ))?;
                    }
                    Err(e) => eprintln!("warning: rebuild failed: {e:#}; still watching"),
                }
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Warnings of one kind shown before the rest of that kind is counted on one line.
const SHOWN_PER_KIND: usize = 3;

/// The `warning:` lines of `warnings`: every one with `verbose`, else at most [`SHOWN_PER_KIND`] of each kind (its
/// stage and its message with the quoted names, paths and numbers left out) and a line counting the rest, so that
/// 151 unresolved references or 138 unread template pages read as a count and three examples, not as noise that
/// hides the one different warning. Nothing is dropped from the report: `--verbose` lists them all.
fn warning_lines(warnings: &[&mydesign_docs::compile::Diagnostic], verbose: bool) -> Vec<String> {
    let kind = |d: &mydesign_docs::compile::Diagnostic| {
        let mut out = format!("{} ", d.stage);
        let mut quoted = false;
        for c in d.message.chars() {
            if c == '`' {
                quoted = !quoted;
                out.push('`');
            } else if !quoted && !c.is_ascii_digit() {
                out.push(c);
            }
        }
        // The tried paths of an unresolved reference differ per reference.
        out.split(" (tried").next().unwrap_or("").to_string()
    };
    let mut counts: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for d in warnings {
        *counts.entry(kind(d)).or_default() += 1;
    }
    let mut shown: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    let mut out = Vec::new();
    for d in warnings {
        let k = kind(d);
        let n = shown.entry(k.clone()).or_default();
        *n += 1;
        let total = counts[&k];
        if verbose || total <= SHOWN_PER_KIND + 1 || *n <= SHOWN_PER_KIND {
            out.push(format!("warning: {d}"));
        } else if *n == SHOWN_PER_KIND + 1 {
            out.push(format!(
                "warning: … and {} more {} warnings like the {SHOWN_PER_KIND} above (--verbose lists them)",
                total - SHOWN_PER_KIND,
                d.stage
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use mydesign_docs::compile::{Diagnostic, Stage};

    #[test]
    fn warnings_of_one_kind_are_counted_after_three_and_listed_with_verbose() {
        let mut all: Vec<Diagnostic> = (0..6)
            .map(|i| {
                Diagnostic::new(
                    format!("d{i}.md"),
                    Stage::Markdown,
                    format!("example reference `@x E{i}` resolves to no file (tried a{i}.tsx)"),
                )
            })
            .collect();
        all.push(Diagnostic::new("z.md", Stage::Layout, "a second en-US document"));
        let refs: Vec<&Diagnostic> = all.iter().collect();
        let lines = warning_lines(&refs, false);
        assert_eq!(lines.len(), 5, "{lines:#?}");
        assert!(lines[2].contains("d2.md"));
        assert_eq!(lines[3], "warning: … and 3 more markdown warnings like the 3 above (--verbose lists them)");
        assert!(lines[4].contains("a second en-US document"));
        assert_eq!(warning_lines(&refs, true).len(), 7);
        // Four of a kind are all shown: a count line would save nothing.
        assert_eq!(warning_lines(&refs[2..], false).len(), 5);
    }
}
