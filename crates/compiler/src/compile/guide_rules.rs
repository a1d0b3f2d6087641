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
    super::names::exported_key(&page_name(rel), exported).is_some()
}

/// The guide pages among `unused` (Markdown no other rule took) that a `[[guides]]` rule of a `wanted` language
/// matches, as (language, name, file): the first matching rule gives the language. A page named like one of the
/// `exported` components (keys) is never a guide, nor are a repository's papers (changelogs, licences).
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
        .filter(|f| !names_an_export(&f.rel, exported) && !is_papers(&f.rel))
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

/// Whether a folder is named like a version (`1.x`, `v2`, `2.0`): the documentation of one version of some
/// product, kept beside the others (an old major, or another tool's versions), never the current guides.
fn is_version_folder(name: &str) -> bool {
    let rest = name.strip_prefix(['v', 'V']).unwrap_or(name);
    rest.starts_with(|c: char| c.is_ascii_digit())
        && rest.split('.').all(|p| p == "x" || (!p.is_empty() && p.chars().all(|c| c.is_ascii_digit())))
}

/// Whether `text` names the package `name` as a word (`vant` in `import { Button } from 'vant'`, not in
/// "relevant").
fn mentions(text: &str, name: &str) -> bool {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    text.match_indices(name).any(|(at, _)| {
        !text[..at].chars().next_back().is_some_and(word) && !text[at + name.len()..].chars().next().is_some_and(word)
    })
}

/// Whether `text` shows code importing a module (`import x from 'y'`, also in a diff: `+ import …`): with no import
/// of the design system, the evidence that a folder documents another product's code (a template app's), where
/// prose that never names the package may still be the design system's own guide.
fn imports_code(text: &str) -> bool {
    text.lines()
        .map(|l| l.trim_start_matches(['+', '-', ' ', '\t']))
        .any(|l| l.strip_prefix("import ").is_some_and(|rest| rest.contains("from") || rest.starts_with(['\'', '"'])))
}

/// One documentation page a rule may take.
struct Page {
    /// The documentation folder it sits in (`site/docs`).
    root: String,
    /// The first folder below `root` holding it (`pro` of `site/docs/pro/mock.en-US.md`), `None` at the root.
    group: Option<String>,
    /// Its language tag as written, and its extension.
    tag: Option<String>,
    ext: String,
    /// Whether a folder between `root` and it is named like a version.
    versioned: bool,
    rel: String,
}

/// The `[[guides]]` rules detection writes for `config` (its documents, changelogs and sources already chosen),
/// with the number of pages they take and notes on the folders left out. `packages` are the workspace's
/// (`compile::api::packages`), `design_system` the design-system package when one was found, `exported` the keys
/// of its exports (a page named like one is about that component, never a guide: see `layout`), `base` the
/// language of untagged pages. Pages are read from `repo` for one rule: a folder below a documentation folder
/// whose pages import code but never from the design-system package nor name it, or that holds only version
/// folders, is another product's documentation (a template app's, a tool's versions) and is left out, with a note.
pub fn detect_rules(
    repo: &std::path::Path,
    files: &[WalkedFile],
    config: &Config,
    packages: &[super::api::Package],
    (design_system, exported): (Option<&super::api::Package>, &BTreeSet<String>),
    base: &str,
) -> (Vec<GuideRule>, usize, Vec<String>) {
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
    let mut ours: BTreeSet<String> = [String::new()].into_iter().chain(design_system.map(|p| p.dir.clone())).collect();
    for f in files.iter().filter(|f| patterns.iter().any(|p| p.capture(&f.rel).is_some())) {
        ours.insert(owner(&f.rel));
    }
    ours.extend(packages.iter().filter(|p| !p.is_library()).map(|p| p.dir.clone()));
    let langs: BTreeSet<&str> = config.docs.iter().map(|d| d.lang.as_str()).collect();
    let changelogs: BTreeSet<&str> = config.changelog.iter().map(|c| c.path.as_str()).collect();
    let mut pages: Vec<Page> = Vec::new();
    for f in files {
        let rel = f.rel.as_str();
        let Some((path, ext)) = rel.rsplit_once('.').filter(|(_, e)| ["md", "mdx"].contains(e)) else { continue };
        let file = path.rsplit('/').next().unwrap_or(path);
        if is_papers(rel)
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
        pages.push(Page {
            root,
            group: folders.get(at + 1).map(|g| g.to_string()),
            tag: tag.map(String::from),
            ext: ext.to_string(),
            versioned: folders[at + 1..].iter().any(|f| is_version_folder(f)),
            rel: rel.to_string(),
        });
    }
    let (left_out, notes) = other_products(repo, &pages, design_system.map(|p| p.name.as_str()));
    pages.retain(|p| !p.group.as_ref().is_some_and(|g| left_out.contains(&(p.root.clone(), g.clone()))));
    let split: BTreeSet<&str> = left_out.iter().map(|(r, _)| r.as_str()).collect();
    // (folder the rule covers, whether only its own pages, tag as written, extension) → pages.
    let mut folders: BTreeMap<(String, bool, Option<String>, String), usize> = BTreeMap::new();
    for p in &pages {
        let folder = match (&p.group, split.contains(p.root.as_str())) {
            (Some(g), true) => (format!("{}/{g}", p.root), false),
            (None, true) => (p.root.clone(), true),
            (_, false) => (p.root.clone(), false),
        };
        *folders.entry((folder.0, folder.1, p.tag.clone(), p.ext.clone())).or_default() += 1;
    }
    let count = folders.values().sum();
    // Tagged rules first: an untagged rule's `*.md` also matches `x.zh-CN.md`.
    let mut rules: Vec<(bool, GuideRule)> = folders
        .into_keys()
        .map(|(folder, own_only, tag, ext)| {
            let any = if own_only { "" } else { "**/" };
            let pattern = match &tag {
                Some(t) => format!("{folder}/{any}*.{t}.{ext}"),
                None => format!("{folder}/{any}*.{ext}"),
            };
            let lang = tag.as_deref().and_then(lang_tag).unwrap_or_else(|| base.to_string());
            (tag.is_none(), GuideRule { pattern, lang })
        })
        .collect();
    rules.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.pattern.cmp(&b.1.pattern)));
    (rules.into_iter().map(|(_, r)| r).collect(), count, notes)
}

/// The folders below documentation folders, as (root, group), that hold another product's documentation: only
/// version folders, or pages that import code but never `package` and never name it (read from `repo`: an app's
/// docs); with a note for each.
fn other_products(
    repo: &std::path::Path,
    pages: &[Page],
    package: Option<&str>,
) -> (BTreeSet<(String, String)>, Vec<String>) {
    let mut groups: BTreeMap<(String, String), Vec<&Page>> = BTreeMap::new();
    for p in pages {
        if let Some(g) = &p.group {
            groups.entry((p.root.clone(), g.clone())).or_default().push(p);
        }
    }
    let (mut out, mut notes) = (BTreeSet::new(), Vec::new());
    for ((root, group), members) in groups {
        let why = if members.iter().all(|p| p.versioned) {
            "holds only version folders (one product's docs per version)".to_string()
        } else if let Some(name) = package
            && let texts =
                members.iter().filter_map(|p| std::fs::read_to_string(repo.join(&p.rel)).ok()).collect::<Vec<_>>()
            && !texts.iter().any(|t| mentions(t, name))
            && texts.iter().any(|t| imports_code(t))
        {
            format!("its pages import code but never from {name}, nor name it")
        } else {
            continue;
        };
        notes.push(format!(
            "not guides: {root}/{group} ({} pages) {why}: another product's documentation; a [[guides]] rule takes it",
            members.len()
        ));
        out.insert((root, group));
    }
    (out, notes)
}

/// A repository's or package's own papers (`CHANGELOG.md`, `LICENSE.md`, `changelog.common.en-US.md`): never a
/// guide, whatever rule matches them.
fn is_papers(rel: &str) -> bool {
    let file = rel.rsplit('/').next().unwrap_or(rel);
    let stem = file.split('.').next().unwrap_or(file).to_ascii_lowercase();
    NOT_GUIDE_STEMS.contains(&stem.as_str())
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

    #[test]
    fn version_folders_and_package_mentions() {
        for v in ["1.x", "v2", "2.0", "V3.1.x", "10"] {
            assert!(is_version_folder(v), "{v}");
        }
        for v in ["docs", "v", "x", "2d-charts", "v2-migration", "1.x-beta"] {
            assert!(!is_version_folder(v), "{v}");
        }
        assert!(mentions("import { Button } from 'vant'", "vant"));
        assert!(mentions("import 'vant/lib/index.css'", "vant"));
        assert!(!mentions("a relevant page", "vant"));
        assert!(!mentions("install vant-cli", "vant"));
        assert!(mentions("npm i @chakra-ui/react", "@chakra-ui/react"));
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
            "apps/site/content/template-app/start.mdx",
            "apps/site/content/cli/1.x/init.mdx",
            "apps/site/content/cli/2.x/init.mdx",
            "apps/site/content/changelog.common.mdx",
            "apps/site/content/guides/a11y.mdx",
        ];
        for rel in rels {
            let path = dir.path().join(rel);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            let text = match rel {
                "package.json" => r#"{"name": "root", "private": true}"#,
                "packages/ui/package.json" => r#"{"name": "@x/ui", "version": "1.0.0", "main": "index.js"}"#,
                "packages/cli/package.json" => r#"{"name": "@x/cli", "version": "1.0.0", "bin": "cli.js"}"#,
                "apps/site/package.json" => r#"{"name": "site", "private": true}"#,
                // A template app's page never names the design system; the others show its import.
                "apps/site/content/template-app/start.mdx" => "# Start\n\n```tsx\nimport routes from '@/routes'\n```\n",
                // Prose that never names the package: still the design system's guide.
                "apps/site/content/guides/a11y.mdx" => "# Accessibility\n\nLabel every control.\n",
                _ => "# Page\n\n```tsx\nimport { Button } from '@x/ui'\n```\n",
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
        let ui = packages.iter().find(|p| p.dir == "packages/ui");
        let (rules, pages, notes) = detect_rules(dir.path(), &files, &config, &packages, (ui, &exported), "en-US");
        let rules: Vec<(&str, &str)> = rules.iter().map(|r| (r.pattern.as_str(), r.lang.as_str())).collect();
        // The site's folders of another product (a template app never naming `@x/ui`, a tool's version folders)
        // are left out, so its rules name the folders kept (the blog's one page is named like an export).
        assert_eq!(
            rules,
            [("packages/ui/docs/**/*.en-US.md", "en-US"), ("apps/site/content/guides/**/*.mdx", "en-US"),]
        );
        assert_eq!(
            notes,
            [
                "not guides: apps/site/content/cli (2 pages) holds only version folders (one product's docs per \
                 version): another product's documentation; a [[guides]] rule takes it",
                "not guides: apps/site/content/template-app (1 pages) its pages import code but never from @x/ui, \
                 nor name it: another product's documentation; a [[guides]] rule takes it",
            ]
        );
        // `theming.zh-CN.md` is taken by the documents rule, `launch.mdx` is named like an export, the changelog
        // is a paper: not guide pages.
        assert_eq!(pages, 4);
        // Given every file (the layout gives only those no other rule took), a rule takes what it matches, in a
        // wanted language, named by file or folder.
        let rule = GuideRule { pattern: "apps/site/content/**/*.mdx".into(), lang: "en-US".into() };
        let none = BTreeSet::new();
        let taken = ruled_pages(files.iter(), std::slice::from_ref(&rule), &none, |l| l == "en-US");
        let taken: Vec<(&str, &str)> = taken.iter().map(|(_, n, f)| (n.as_str(), f.rel.as_str())).collect();
        assert!(ruled_pages(files.iter(), std::slice::from_ref(&rule), &none, |l| l == "zh-CN").is_empty());
        // Named like an export: not a guide.
        let launch: BTreeSet<String> = ["launch".to_string()].into();
        assert_eq!(ruled_pages(files.iter(), &[rule], &launch, |_| true).len(), 6);
        // A written rule takes the folders detection leaves out, never a changelog.
        assert_eq!(
            taken,
            [
                ("button", "apps/site/content/components/button.mdx"),
                ("launch", "apps/site/content/blog/launch.mdx"),
                ("forms", "apps/site/content/guides/forms/index.mdx"),
                ("start", "apps/site/content/template-app/start.mdx"),
                ("init", "apps/site/content/cli/1.x/init.mdx"),
                ("init", "apps/site/content/cli/2.x/init.mdx"),
                ("a11y", "apps/site/content/guides/a11y.mdx"),
            ]
        );
    }
}
