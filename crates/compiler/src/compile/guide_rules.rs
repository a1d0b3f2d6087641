//! `[[guides]]` rules (issue 24 item 2): which Markdown pages outside the document rules are guides. Detection
//! writes the rules ([`detect_rules`]): the Markdown of the documentation folders (`docs`, `site`, `content`,
//! `guides`, …) of the packages that are the design system's — its own package, the packages holding its documents
//! or sources, the repository root, and apps (a package with no entry point: a docs site) — never of a library or
//! tool beside it (a CLI's docs, a codemod's) nor of a template or test folder. The layout applies them
//! ([`ruled_pages`]) to what no other rule took; [`super::guides::plan`] makes the pages guide plans.

use std::collections::{BTreeMap, BTreeSet};

use super::diagnostic::{Diagnostic, Stage};
use super::names::lang_tag;
use super::walk::WalkedFile;
use crate::config::{Config, GuideRule, Pattern};

/// Folder names that hold a package's documentation pages (`docs_spec`, `docs-site` count as `docs`).
const DOC_FOLDERS: [&str; 8] = ["docs", "doc", "documentation", "site", "website", "content", "guide", "guides"];

/// Folder names whose Markdown is never a guide of the design system: scaffolding, tests, dependencies.
const NOT_GUIDE_FOLDERS: [&str; 12] = [
    "node_modules",
    "test",
    "tests",
    "__tests__",
    "fixtures",
    "__fixtures__",
    "template",
    "templates",
    "__template__",
    "generators",
    "sandbox",
    "playground",
];

/// File stems that are a repository's or package's own papers, never a guide.
const NOT_GUIDE_STEMS: [&str; 6] = ["changelog", "license", "contributing", "code_of_conduct", "security", "history"];

/// The name of a guide page: its file name without extension and language tag (`theming.en-US.md` → `theming`);
/// `index` and `README` pages are named by their folder.
pub fn page_name(rel: &str) -> String {
    let (dir, file) = rel.rsplit_once('/').unwrap_or(("", rel));
    let stem = file.rsplit_once('.').map_or(file, |(s, _)| s);
    let stem = match stem.rsplit_once('.') {
        Some((s, tag)) if lang_tag(tag).is_some() => s,
        _ => stem,
    };
    if (stem == "index" || stem.eq_ignore_ascii_case("readme")) && !dir.is_empty() {
        return dir.rsplit('/').next().unwrap_or(dir).to_string();
    }
    stem.to_string()
}

/// Whether the page `rel` is named like one of the `exported` components (keys): a site's design-spec page of
/// `transfer` is about that component, and as a guide it would outrank the component's own document in search.
fn names_an_export(rel: &str, exported: &BTreeSet<String>) -> bool {
    super::matching::exported_key(&page_name(rel), exported).is_some()
}

/// The guide pages among `unused` (Markdown no other rule took) that a `[[guides]]` rule of a `wanted` language
/// matches, as (language, name, file): the first matching rule gives the language. A page named like one of the
/// `exported` components (keys) is never a guide.
pub fn ruled_pages<'a>(
    unused: impl Iterator<Item = &'a WalkedFile>,
    rules: &[GuideRule],
    exported: &BTreeSet<String>,
    wanted: impl Fn(&str) -> bool,
) -> Vec<(String, String, WalkedFile)> {
    // Validated with the configuration: a rule that does not parse matches nothing.
    let matchers: Vec<(globset::GlobMatcher, &str)> =
        rules.iter().filter_map(|r| Some((r.matcher().ok()?, r.lang.as_str()))).collect();
    unused
        .filter(|f| !names_an_export(&f.rel, exported))
        .filter_map(|f| {
            let lang = matchers.iter().find(|(m, _)| m.is_match(&f.rel))?.1;
            wanted(lang).then(|| (lang.to_string(), page_name(&f.rel), f.clone()))
        })
        .collect()
}

/// A warning per `[[guides]]` rule whose pattern matches none of the walked `files` (a typo, a folder that moved):
/// such a rule would take nothing, silently. Named by its pattern and language, at `[[guides]]`.
pub fn unmatched(files: &[WalkedFile], rules: &[GuideRule]) -> Vec<Diagnostic> {
    rules
        .iter()
        .filter_map(|r| {
            // Validated with the configuration: a rule whose glob does not parse never reaches a build.
            let m = r.matcher().ok()?;
            (!files.iter().any(|f| m.is_match(&f.rel))).then(|| {
                Diagnostic::new(
                    "[[guides]]",
                    Stage::Layout,
                    format!(
                        "pattern `{}` (lang {}) matches no file of the repository, so it takes no guide page; fix \
                         or remove the rule",
                        crate::escape::shown(&r.pattern),
                        crate::escape::shown(&r.lang)
                    ),
                )
            })
        })
        .collect()
}

/// The `[[guides]]` rules detection writes for `config` (its documents, changelogs and sources already chosen),
/// with the number of pages they take. `packages` are the workspace's (`compile::api::packages`), `design_system`
/// the design-system package's folder when one was found, `exported` the keys of its exports (a page named like
/// one is about that component, never a guide: see `layout`), `base` the language of untagged pages.
pub fn detect_rules(
    files: &[WalkedFile],
    config: &Config,
    packages: &[super::api::Package],
    (design_system, exported): (Option<&str>, &BTreeSet<String>),
    base: &str,
) -> (Vec<GuideRule>, usize) {
    let patterns: Vec<Pattern> = config
        .docs
        .iter()
        .map(|d| d.pattern.as_str())
        .chain(config.sources.patterns.iter().map(String::as_str))
        .chain(config.changelog.iter().map(|c| c.path.as_str()).filter(|p| p.contains("{component}")))
        .filter_map(|p| Pattern::parse(p).ok())
        .collect();
    let dirs: BTreeSet<String> = packages.iter().map(|p| p.dir.clone()).collect();
    // The package a file belongs to; the repository root when none holds it.
    let owner = |rel: &str| super::walk::package_of(rel, &dirs).unwrap_or("").to_string();
    // The design system's packages: its own, those holding its documents or sources, the root; apps.
    let mut ours: BTreeSet<String> = [String::new()].into_iter().chain(design_system.map(String::from)).collect();
    for f in files.iter().filter(|f| patterns.iter().any(|p| p.capture(&f.rel).is_some())) {
        ours.insert(owner(&f.rel));
    }
    ours.extend(packages.iter().filter(|p| !p.is_library()).map(|p| p.dir.clone()));
    let langs: BTreeSet<&str> = config.docs.iter().map(|d| d.lang.as_str()).collect();
    let changelogs: BTreeSet<&str> = config.changelog.iter().map(|c| c.path.as_str()).collect();
    // (documentation folder, tag as written, extension) → pages.
    let mut roots: BTreeMap<(String, Option<String>, String), usize> = BTreeMap::new();
    for f in files {
        let rel = f.rel.as_str();
        let Some((path, ext)) = rel.rsplit_once('.').filter(|(_, e)| ["md", "mdx"].contains(e)) else { continue };
        let file = path.rsplit('/').next().unwrap_or(path);
        let stem = file.split('.').next().unwrap_or(file).to_ascii_lowercase();
        if NOT_GUIDE_STEMS.contains(&stem.as_str())
            || names_an_export(rel, exported)
            || changelogs.contains(rel)
            || patterns.iter().any(|p| p.capture(rel).is_some())
        {
            continue;
        }
        let own = owner(rel);
        if !ours.contains(&own) {
            continue;
        }
        let inner = if own.is_empty() { rel } else { &rel[own.len() + 1..] };
        let folders: Vec<&str> = inner.split('/').collect();
        let folders = &folders[..folders.len() - 1];
        let excluded =
            |s: &&str| s.starts_with('.') || NOT_GUIDE_FOLDERS.contains(s) || super::examples::is_example_folder(s);
        if folders.iter().any(excluded) {
            continue;
        }
        let is_doc_folder =
            |s: &&str| DOC_FOLDERS.contains(s) || s.strip_prefix("docs").is_some_and(|r| r.starts_with(['_', '-']));
        let Some(at) = folders.iter().position(is_doc_folder) else { continue };
        let root =
            if own.is_empty() { folders[..=at].join("/") } else { format!("{own}/{}", folders[..=at].join("/")) };
        let tag = file
            .rsplit_once('.')
            .map(|(_, t)| t)
            .filter(|t| lang_tag(t).is_some_and(|l| t.contains('-') || langs.contains(l.as_str())));
        let lang = tag.and_then(lang_tag).unwrap_or_else(|| base.to_string());
        if !langs.contains(lang.as_str()) {
            continue;
        }
        *roots.entry((root, tag.map(String::from), ext.to_string())).or_default() += 1;
    }
    let pages = roots.values().sum();
    // Tagged rules first: an untagged rule's `*.md` also matches `x.zh-CN.md`.
    let mut rules: Vec<(bool, GuideRule)> = roots
        .into_keys()
        .map(|(root, tag, ext)| {
            let pattern = match &tag {
                Some(t) => format!("{root}/**/*.{t}.{ext}"),
                None => format!("{root}/**/*.{ext}"),
            };
            let lang = tag.as_deref().and_then(lang_tag).unwrap_or_else(|| base.to_string());
            (tag.is_none(), GuideRule { pattern, lang })
        })
        .collect();
    rules.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.pattern.cmp(&b.1.pattern)));
    (rules.into_iter().map(|(_, r)| r).collect(), pages)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(rel: &str) -> WalkedFile {
        WalkedFile { rel: rel.into(), abs: rel.into(), bytes: 1 }
    }

    #[test]
    fn a_page_is_named_by_its_file_without_tag_or_by_its_folder() {
        assert_eq!(page_name("site/docs/theming.en-US.md"), "theming");
        assert_eq!(page_name("docs/guide/dark-mode.zh.md"), "dark-mode");
        assert_eq!(page_name("content/blog/01-v3.mdx"), "01-v3");
        assert_eq!(page_name("content/guides/forms/index.mdx"), "forms");
        assert_eq!(page_name("docs/migration/README.md"), "migration");
        assert_eq!(page_name("changelog.common.en-US.md"), "changelog.common");
    }

    /// A site app beside the components, a CLI tool with docs of its own, a template folder, a package's README:
    /// only the design system's documentation folders become guide rules, tagged ones first.
    #[test]
    fn guide_rules_cover_the_design_systems_documentation_folders_only() {
        let dir = tempfile::tempdir().unwrap();
        let rels = [
            "package.json",
            "packages/ui/package.json",
            "packages/ui/src/button/index.tsx",
            "packages/ui/docs/theming.en-US.md",
            "packages/ui/docs/theming.zh-CN.md",
            "packages/ui/docs/extra/faq.en-US.md",
            "packages/cli/package.json",
            "packages/cli/docs/commands.md",
            "packages/ui/README.md",
            "apps/site/package.json",
            "apps/site/content/components/button.mdx",
            "apps/site/content/blog/launch.mdx",
            "apps/site/content/guides/forms/index.mdx",
            "apps/site/templates/docs/page.mdx",
            "docs/CONTRIBUTING.md",
        ];
        for rel in rels {
            let path = dir.path().join(rel);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            let text = match rel {
                "package.json" => r#"{"name": "root", "private": true}"#,
                "packages/ui/package.json" => r#"{"name": "@x/ui", "version": "1.0.0", "main": "index.js"}"#,
                "packages/cli/package.json" => r#"{"name": "@x/cli", "version": "1.0.0", "bin": "cli.js"}"#,
                "apps/site/package.json" => r#"{"name": "site", "private": true}"#,
                _ => "# Page\n",
            };
            std::fs::write(&path, text).unwrap();
        }
        let files: Vec<WalkedFile> = rels.iter().map(|r| file(r)).collect();
        let packages = crate::compile::api::packages(dir.path(), &files);
        let config = Config {
            docs: vec![
                crate::config::DocRule {
                    pattern: "apps/site/content/components/{component}.mdx".into(),
                    lang: "en-US".into(),
                },
                crate::config::DocRule {
                    pattern: "packages/ui/docs/{component}.zh-CN.md".into(),
                    lang: "zh-CN".into(),
                },
            ],
            sources: crate::config::SourceRule {
                patterns: vec!["packages/ui/src/{component}/**".into()],
                ..Default::default()
            },
            ..Config::default()
        };
        let exported: BTreeSet<String> = ["button".to_string(), "launch".to_string()].into();
        let (rules, pages) = detect_rules(&files, &config, &packages, (Some("packages/ui"), &exported), "en-US");
        let rules: Vec<(&str, &str)> = rules.iter().map(|r| (r.pattern.as_str(), r.lang.as_str())).collect();
        assert_eq!(rules, [("packages/ui/docs/**/*.en-US.md", "en-US"), ("apps/site/content/**/*.mdx", "en-US"),]);
        // `theming.zh-CN.md` is taken by the documents rule, `launch.mdx` is named like an export: not guide pages.
        assert_eq!(pages, 3);
        // Given every file (the layout gives only those no other rule took), a rule takes what it matches, in a
        // wanted language, named by file or folder.
        let rule = GuideRule { pattern: "apps/site/content/**/*.mdx".into(), lang: "en-US".into() };
        let none = BTreeSet::new();
        let taken = ruled_pages(files.iter(), std::slice::from_ref(&rule), &none, |l| l == "en-US");
        let taken: Vec<(&str, &str)> = taken.iter().map(|(_, n, f)| (n.as_str(), f.rel.as_str())).collect();
        assert!(ruled_pages(files.iter(), std::slice::from_ref(&rule), &none, |l| l == "zh-CN").is_empty());
        // Named like an export: not a guide.
        let launch: BTreeSet<String> = ["launch".to_string()].into();
        assert_eq!(ruled_pages(files.iter(), &[rule], &launch, |_| true).len(), 2);
        assert_eq!(
            taken,
            [
                ("button", "apps/site/content/components/button.mdx"),
                ("launch", "apps/site/content/blog/launch.mdx"),
                ("forms", "apps/site/content/guides/forms/index.mdx"),
            ]
        );
    }
}
