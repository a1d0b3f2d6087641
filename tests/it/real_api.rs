//! Issue 24: components come from the design system's own API. On the real Arco, Chakra and Vant inputs, with no
//! configuration and no preset: the exported components, the documents matched to them, guides apart, coverage,
//! identity. Small repositories written here pin each rule (README per folder, guide-heavy site, private sources
//! behind a published package, a plural file name, an ambiguous repository). The detection report of every real
//! input is an insta snapshot, so a change to detection shows its effect on all six.

use crate::common;

use mydesign_docs::compile::BuildReport;
use mydesign_docs::read::{BundleSet, Detail, ListKind, Paging};
use mydesign_docs::render::{Render, Surface};
use mydesign_docs::search::query::SearchOptions;

use crate::detect::{build_with, detected, write};

fn documented(report: &BuildReport, lang: &str) -> usize {
    // Components only: guides are built too, listed apart.
    report.manifest.components.iter().filter(|c| !c.guide && c.docs.iter().any(|d| d.lang == lang)).count()
}

#[test]
fn arco_components_are_its_exports_documented_by_their_readmes() {
    let Some(real) = common::real_corpus() else { return eprintln!("skipped: the real corpus is absent") };
    let repo = real.join("arco-design");
    let d = detected(&repo);
    assert!(d.ambiguous.is_none(), "{:?}", d.ambiguous);
    let patterns: Vec<&str> = d.config.docs.iter().map(|r| r.pattern.as_str()).collect();
    assert_eq!(patterns, ["components/{component}/README.en-US.md", "components/{component}/README.zh-CN.md"]);
    let coverage = d.coverage.clone().unwrap();
    assert_eq!((coverage.documented.len(), coverage.exported.len()), (69, 71));
    assert_eq!(coverage.by_lang.values().copied().collect::<Vec<_>>(), [69, 69]);
    assert_eq!(d.config.system.name.as_deref(), Some("arco-design-web-react"));
    let report = &common::detected_build("arco-design").unwrap().report;
    assert_eq!(report.manifest.version, "2.66.15");
    assert_eq!((documented(report, "en-US"), documented(report, "zh-CN")), (69, 69));
    // No `__demo__` or `site/` page is a component: every component is an export (the site's pages are guides).
    assert_eq!(report.manifest.components.iter().filter(|c| !c.guide).count(), 71);
    let set = BundleSet::open(&report.dir).unwrap();
    let meta = set.component_meta("date-picker").unwrap().1;
    assert_eq!(meta.docs[0].path, "components/DatePicker/README.en-US.md");
    // No file is named like a changelog: the site's pages whose front matter says `changelog: true` are.
    let logs: Vec<(&str, &str)> = d.config.changelog.iter().map(|r| (r.path.as_str(), r.lang.as_str())).collect();
    assert!(
        logs.starts_with(&[("site/docs/version_v2.en-US.md", "en-US"), ("site/docs/version_v2.zh-CN.md", "zh-CN")])
    );
    for page in ["site/docs/version_v2.en-US.md", "site/docs/version_v2.zh-CN.md"] {
        let text = std::fs::read_to_string(repo.join(page)).unwrap();
        assert!(text.starts_with("---\nchangelog: true\n---"), "{page}");
    }
    let langs: Vec<&str> = report.manifest.changelog.iter().flat_map(|c| &c.langs).map(|l| l.lang.as_str()).collect();
    assert_eq!(langs, ["en-US", "zh-CN"]);
}

#[test]
fn chakra_components_are_the_component_pages_of_its_exports_and_tooltip_is_the_component() {
    let Some(real) = common::real_corpus() else { return eprintln!("skipped: the real corpus is absent") };
    let repo = real.join("chakra-ui");
    let d = detected(&repo);
    assert!(d.ambiguous.is_none(), "{:?}", d.ambiguous);
    let patterns: Vec<&str> = d.config.docs.iter().map(|r| r.pattern.as_str()).collect();
    assert_eq!(patterns, ["apps/www/content/docs/components/{component}.mdx"]);
    // Never the private root's name.
    assert_eq!(d.config.system.name.as_deref(), Some("chakra-ui-react"));
    let coverage = d.coverage.clone().unwrap();
    // 103 of the 117 exported components, and the pages of 5 exports re-exported beside their folder's component
    // (`IconButton` and `CloseButton` by `button/`, `LinkOverlay`, `FormatByte`, `FormatNumber`). Five pages are
    // named otherwise than their export: `radio.mdx` imports `RadioGroup`, `rating.mdx` `RatingGroup`,
    // `segmented-control.mdx` `SegmentGroup`; `environment-provider.mdx` and `locale-provider.mdx` are titled
    // after the provider the `environment` and `locale` folders re-export.
    assert_eq!((coverage.documented.len(), coverage.exported.len()), (108, 122));
    assert!(
        ["IconButton", "CloseButton", "LinkOverlay", "FormatByte", "FormatNumber"]
            .iter()
            .all(|n| coverage.exported.iter().any(|e| e == n))
    );
    let report = &common::detected_build("chakra-ui").unwrap().report;
    assert_eq!(report.manifest.version, "3.36.1");
    assert_eq!(report.manifest.system, "chakra-ui-react");
    let set = BundleSet::open(&report.dir).unwrap();
    // 103 component pages, and the components with stories but no page, whose stories make their document.
    let from_stories: Vec<&str> = report
        .manifest
        .components
        .iter()
        .filter(|c| !c.guide && !c.docs.is_empty())
        .filter(|c| set.component_meta(&c.name).unwrap().1.docs[0].path.contains(".stories."))
        .map(|c| c.name.as_str())
        .collect();
    assert_eq!(from_stories, ["loader", "toggle"]);
    assert_eq!(documented(report, "en-US"), 108 + from_stories.len());
    let meta = set.component_meta("tooltip").unwrap().1;
    assert_eq!(meta.docs[0].path, "apps/www/content/docs/components/tooltip.mdx");
    for (component, page, why) in [
        ("radio-group", "radio", "it imports `RadioGroup` from @chakra-ui/react"),
        ("rating-group", "rating", "it imports `RatingGroup` from @chakra-ui/react"),
        ("segment-group", "segmented-control", "it imports `SegmentGroup` from @chakra-ui/react"),
        ("environment", "environment-provider", "its title `Environment Provider` names it, a part its `environment`"),
        ("locale", "locale-provider", "its title `Locale Provider` names it, a part its `locale` folder re-exports"),
    ] {
        let path = format!("apps/www/content/docs/components/{page}.mdx");
        assert_eq!(set.component_meta(component).unwrap().1.docs[0].path, path);
        // The page's own name, as its title says it, reads the component (`doc radio`).
        assert_eq!(set.component(page).unwrap().name, component, "{page}");
        // The build says what decided.
        assert!(
            report.diagnostics.iter().any(|x| x.is_note() && x.path == path && x.message.contains(why)),
            "{component}: no note on {path} saying {why:?}"
        );
    }
    // Every export is a component of the set, `Locale` (a folder re-exporting Ark UI's provider) too.
    assert_eq!(report.manifest.components.iter().filter(|c| !c.guide).count(), 122);
    // The pages that name no export are guides, not components.
    let kind = |n: &str| report.manifest.components.iter().find(|c| c.name == n).map(|c| c.guide);
    assert_eq!(kind("bar-chart"), Some(true));
    assert!(report.diagnostics.iter().any(|x| x.is_note() && x.message.contains("guide page(s)")));
}

#[test]
fn vant_components_are_its_readme_folders_in_both_languages() {
    let Some(real) = common::real_corpus() else { return eprintln!("skipped: the real corpus is absent") };
    let repo = real.join("vant");
    let d = detected(&repo);
    let patterns: Vec<&str> = d.config.docs.iter().map(|r| r.pattern.as_str()).collect();
    assert_eq!(patterns, ["packages/vant/src/{component}/README.md", "packages/vant/src/{component}/README.zh-CN.md"]);
    let logs: Vec<&str> = d.config.changelog.iter().map(|r| r.path.as_str()).collect();
    assert_eq!(
        logs,
        ["packages/vant/docs/markdown/changelog.en-US.md", "packages/vant/docs/markdown/changelog.zh-CN.md"]
    );
    let report = &common::detected_build("vant").unwrap().report;
    assert_eq!(report.manifest.version, "4.10.0");
    assert_eq!(report.manifest.system, "vant");
    assert_eq!((documented(report, "en-US"), documented(report, "zh-CN")), (86, 82));
}

#[test]
fn the_detection_report_of_every_real_input() {
    let Some(real) = common::real_corpus() else { return eprintln!("skipped: the real corpus is absent") };
    for name in ["arco-design", "chakra-ui", "vant", "semi", "blueprint", "antd-mobile"] {
        let d = detected(&real.join(name));
        insta::assert_snapshot!(format!("real_{}", name.replace('-', "_")), d.report());
    }
}

const TSX: &str = "import React from 'react';\nexport interface XProps { size?: string }\nconst X = (p: XProps) => null;\nexport default X;\n";

/// A published package whose entry re-exports a private sources package, a site with more guide pages than
/// components, and a plural document name.
#[test]
fn guides_are_apart_plural_names_match_and_the_published_package_names_the_set() {
    let dir = tempfile::tempdir().unwrap();
    let mut files: Vec<(String, String)> = vec![
        ("package.json".into(), r#"{"name":"acme-root","private":true,"version":"0.0.1"}"#.into()),
        ("packages/ui/package.json".into(), r#"{"name":"@acme/ui","version":"4.2.0","module":"es/index.js"}"#.into()),
        ("packages/ui/src/index.ts".into(), "export * from '@acme/components';\n".into()),
        ("packages/components/package.json".into(), r#"{"name":"@acme/components","private":true}"#.into()),
    ];
    let names = ["Button", "Card", "DatePicker"];
    let mut index = String::new();
    for n in names {
        index.push_str(&format!("export {{ default as {n} }} from './{n}';\n"));
        files.push((format!("packages/components/src/{n}/index.tsx"), TSX.into()));
    }
    files.push(("packages/components/src/index.ts".into(), index));
    let import = "```tsx\nimport { Button } from '@acme/ui';\n```\n";
    for page in ["buttons", "card", "date-picker"] {
        files.push((format!("site/docs/{page}.md"), format!("# {page}\n\nWhat it is.\n\n{import}")));
    }
    for page in ["introduction", "theming", "colors", "migration", "faq"] {
        files.push((format!("site/docs/{page}.md"), format!("# {page}\n\nA guide.\n\n{import}")));
    }
    let files: Vec<(&str, &str)> = files.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
    write(dir.path(), &files);
    let d = detected(dir.path());
    assert!(d.ambiguous.is_none(), "{:?}", d.ambiguous);
    assert_eq!(d.config.system.name.as_deref(), Some("acme-ui"));
    assert_eq!(d.coverage.as_ref().unwrap().line(), "3 of 3 exported components documented (en-US 3); 5 guide pages");
    let report = build_with(dir.path(), d.config.clone());
    let of_kind = |guide: bool| -> Vec<&str> {
        report.manifest.components.iter().filter(|c| c.guide == guide).map(|c| c.name.as_str()).collect()
    };
    assert_eq!(of_kind(false), ["button", "card", "date-picker"]);
    // The guide pages are built, apart (issue 24 item 2).
    assert_eq!(of_kind(true), ["colors", "faq", "introduction", "migration", "theming"]);
    // The sources sit in the private package: the published one's version.
    assert_eq!((report.manifest.system.as_str(), report.manifest.version.as_str()), ("acme-ui", "4.2.0"));

    let set = BundleSet::open(&report.dir).unwrap();
    // `components` lists the components only and says how to list the guides; `--guides` lists the guides.
    let list = set.components_paged(None, Paging::unlimited()).unwrap();
    let rows: Vec<&str> = list.components.iter().map(|r| r.name.as_str()).collect();
    assert_eq!((rows, list.guides), (vec!["button", "card", "date-picker"], 5));
    let text = list.render(Surface::Cli);
    assert!(
        text.contains(
            "[+ 5 guides (pages that document no component, read with doc like any): mydesign-docs components --guides"
        ),
        "{text}"
    );
    assert!(list.render(Surface::Mcp).contains("kind=\"guide\""));
    // The stored size of the component list is the size of what is served (guides left out).
    assert_eq!(list.tokens, common::Tiktoken::new("o200k_base").count(&list.render(Surface::Mcp)));
    let guides = set.list_paged(None, ListKind::Guide, Paging::unlimited()).unwrap();
    let rows: Vec<&str> = guides.components.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(rows, ["colors", "faq", "introduction", "migration", "theming"]);
    assert!(guides.render(Surface::Cli).starts_with("[acme-ui 4.2.0 · 5 guides · "));
    assert!(
        !guides.part.tokens_exact
            && guides.tokens >= common::Tiktoken::new("o200k_base").count(&guides.render(Surface::Mcp))
    );
    // `doc` reads a guide like any document.
    let doc = set.doc("theming", None, Detail::Normal, &[], Paging::unlimited()).unwrap();
    assert_eq!((doc.component.as_str(), doc.path.as_str()), ("theming", "site/docs/theming.md"));
    // Search hits name it and say it is a guide.
    let opts = SearchOptions { max_tokens: Some(2_000), ..Default::default() };
    let view = set.search("theming", &opts).unwrap();
    let hit = view.hits.iter().find(|h| h.component.as_deref() == Some("theming")).expect("a hit on the guide");
    assert!(hit.guide);
    assert!(view.render(Surface::Cli).contains("theming (guide)"));
    assert!(!view.hits.iter().any(|h| h.component.as_deref() == Some("card") && h.guide));
}

/// Two document folders documenting different halves of the exports: nothing is picked silently.
#[test]
fn an_ambiguous_repository_lists_its_candidates() {
    let dir = tempfile::tempdir().unwrap();
    let names = ["Alert", "Badge", "Card", "Dialog", "Empty", "Form", "Grid", "Input", "List", "Menu"];
    let mut files: Vec<(String, String)> =
        vec![("package.json".into(), r#"{"name":"@x/ui","version":"1.0.0","main":"lib/index.js"}"#.into())];
    let mut index = String::new();
    for (i, n) in names.iter().enumerate() {
        index.push_str(&format!("export {{ default as {n} }} from './{n}';\n"));
        files.push((format!("src/{n}/index.tsx"), TSX.into()));
        let page = if i < 5 { format!("docs/a/{n}/index.md") } else { format!("guides/b/{n}/README.md") };
        files.push((page, format!("# {n}\n\nText.\n")));
    }
    files.push(("src/index.ts".into(), index));
    let files: Vec<(&str, &str)> = files.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
    write(dir.path(), &files);
    let d = detected(dir.path());
    let why = d.ambiguous.expect("ambiguous");
    assert!(why.contains("5 of 10 exported components"), "{why}");
    assert!(why.contains("[[docs]] pattern = \"docs/a/{component}/index.md\""), "{why}");
    assert!(why.contains("[[docs]] pattern = \"guides/b/{component}/README.md\""), "{why}");
}

#[test]
fn arco_component_changelogs_feed_changelog_component_and_search() {
    // Issue 24 item 4: `components/<Name>/__changelog__/index.<lang>.md`, with no configuration.
    let Some(built) = common::detected_build("arco-design") else { return };
    let set = &built.set;
    let meta = set.component_meta("button").unwrap().1;
    let logs: Vec<(&str, &str)> = meta.changelogs.iter().map(|c| (c.lang.as_str(), c.path.as_str())).collect();
    assert_eq!(
        logs,
        [
            ("en-US", "components/Button/__changelog__/index.en-US.md"),
            ("zh-CN", "components/Button/__changelog__/index.zh-CN.md")
        ]
    );
    // Every release heading of the file (`## 2.54.2` …), newest first as written.
    let text = std::fs::read_to_string(built.repo.join("components/Button/__changelog__/index.en-US.md")).unwrap();
    let headings: Vec<&str> = text.lines().filter_map(|l| l.strip_prefix("## ")).collect();
    let versions: Vec<&str> = meta.changelogs[0].releases.iter().map(|r| r.version.as_str()).collect();
    assert_eq!(versions, headings);
    // `changelog --component button --since 2.50`: the whole entries of 2.54.2 and 2.52.0.
    let changes = mydesign_docs::diff::changelog_since(set, "button", "2.50", None).unwrap();
    let got: Vec<&str> = changes.changelog.iter().map(|r| r.version.as_str()).collect();
    assert_eq!(got, ["2.54.2", "2.52.0"]);
    assert!(changes.changelog[1].lines.iter().any(|l| l.contains("`onClick` event will still be triggered")));
    // In Chinese, from the zh-CN file.
    let zh = mydesign_docs::diff::changelog_since(set, "table", "2.66.13", Some("zh-CN")).unwrap();
    assert_eq!(zh.changelog.first().map(|r| r.version.as_str()), Some("2.66.14"));
    assert!(zh.changelog[0].lines.iter().any(|l| l.contains('修')), "{:?}", zh.changelog[0].lines);
    assert_eq!(built.report.manifest.stats.component_changelogs, 130);
    // Search finds a release by what it fixed, and its call reads those lines of the file.
    let opts = SearchOptions { max_tokens: Some(4_000), ..Default::default() };
    let v = set.search("which Button version fixed onClick firing on a disabled link button", &opts).unwrap();
    let hit = v.hits.iter().find(|h| h.section.first().is_some_and(|s| s.starts_with("2.52.0"))).expect("the release");
    assert_eq!(hit.follow_up.tool, "get_file_code");
    assert_eq!(hit.document, "components/Button/__changelog__/index.en-US.md");
    let v = set.search("Table 横向 smooth scroll 抖动问题在哪个版本修复", &opts).unwrap();
    assert!(v.hits[0].section[0].starts_with("2.66.14"), "{:?}", v.hits[0]);
}

/// Every Markdown page of `root` (recursively) under `repo`, repository-relative, whose file name passes `keep`.
fn pages_under(repo: &std::path::Path, root: &str, keep: impl Fn(&str) -> bool) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![repo.join(root)];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().to_string();
            if path.is_dir() {
                stack.push(path);
            } else if (name.ends_with(".md") || name.ends_with(".mdx")) && keep(&name) {
                out.push(path.strip_prefix(repo).unwrap().to_string_lossy().replace('\\', "/"));
            }
        }
    }
    out.sort();
    out
}

/// Issue 24 item 2 on four real inputs with no configuration: the pages of the design system's documentation
/// folders (a site app's blog and guides, a `docs/guide` folder, a package's `docs/markdown`, a site's `docs`) are
/// guides, each a document of one guide; the documentation of the tools beside it (a CLI's docs, a codemod's, an
/// app generator's templates) is not.
#[test]
fn the_documentation_folders_pages_are_guides_and_the_tools_docs_are_not() {
    let Some(real) = common::real_corpus() else { return eprintln!("skipped: the real corpus is absent") };
    let not_papers = |n: &str| !n.to_ascii_lowercase().starts_with("changelog");
    let cases: [(&str, Vec<&str>, Vec<&str>); 4] = [
        ("chakra-ui", vec!["apps/www/content/blog", "apps/www/content/guides"], vec!["packages/codemod/docs"]),
        ("antd-mobile", vec!["docs/guide"], vec![]),
        ("vant", vec!["packages/vant/docs/markdown"], vec!["packages/vant-cli/docs", "packages/create-vant-cli-app"]),
        // Arco's site also documents a template app (`pro`: an app's code, never the package) and a CLI's versions
        // (`material/1.x`, `2.x`): other products.
        ("arco-design", vec!["site/docs/designlab"], vec!["site/src/pages", "site/docs/pro", "site/docs/material"]),
    ];
    for (name, guides, tools) in cases {
        let repo = real.join(name);
        let report = &common::detected_build(name).unwrap().report;
        let set = BundleSet::open(&report.dir).unwrap();
        let paths = |guide: bool| -> Vec<String> {
            let names = report.manifest.components.iter().filter(|c| c.guide == guide).map(|c| c.name.as_str());
            names
                .flat_map(|n| set.component_meta(n).unwrap().1.docs.iter().map(|d| d.path.clone()).collect::<Vec<_>>())
                .collect()
        };
        let guide_docs: std::collections::BTreeSet<String> = paths(true).into_iter().collect();
        for root in guides {
            let pages = pages_under(&repo, root, not_papers);
            assert!(pages.len() >= 4, "{name}: {root} has {} pages", pages.len());
            let missing: Vec<&String> = pages.iter().filter(|p| !guide_docs.contains(*p)).collect();
            assert!(missing.is_empty(), "{name}: pages of {root} that are not guides: {missing:?}");
        }
        for root in tools {
            assert!(!guide_docs.iter().any(|p| p.starts_with(root)), "{name}: a page of {root} is a guide");
        }
        // A page is a component's document or a guide's, never both.
        assert!(paths(false).iter().all(|p| !guide_docs.contains(p)), "{name}");
    }
}

/// Issue 24 items 1 and 5 on a small repository written here: a component whose sources span two packages (the
/// published one and a logic package it depends on, as Semi's `semi-ui` + `semi-foundation`) gets the folders of
/// both; a leading ```` ```yaml ```` fence and a leading fence holding the page's heading are the title and
/// description, never a code block.
#[test]
fn a_component_spans_two_packages_and_metadata_fences_give_titles() {
    let dir = tempfile::tempdir().unwrap();
    let ui = r#"{"name":"@acme/ui","version":"2.1.0","main":"index.ts","dependencies":{"@acme/foundation":"2.1.0"}}"#;
    let tsx = |n: &str| {
        format!(
            "import Foundation from '@acme/foundation/{n}/foundation';\nexport interface {n}Props {{ size?: string }}\n\
             const {n} = (p: {n}Props) => null;\nexport default {n};\n"
        )
    };
    let (button, card) = (tsx("Button"), tsx("Card"));
    let import = "```tsx\nimport { Button, Card } from '@acme/ui';\n\n<Card><Button /></Card>\n```\n";
    let button_doc = format!(
        "```yaml\ntitle: Button\ndescription: Starts an action.\norder: 1\n```\n\n## Usage\n\nPress it.\n\n{import}"
    );
    let card_doc = format!("```\nData display\n\n# Card\n\nGroups related content.\n```\n\n## Usage\n\n{import}");
    write(
        dir.path(),
        &[
            ("package.json", r#"{"name":"acme-mono","private":true}"#),
            ("packages/ui/package.json", ui),
            (
                "packages/ui/index.ts",
                "export { default as Button } from './button';\nexport { default as Card } from './card';\n",
            ),
            ("packages/ui/button/index.tsx", &button),
            ("packages/ui/card/index.tsx", &card),
            ("packages/foundation/package.json", r#"{"name":"@acme/foundation","version":"2.1.0","main":"index.ts"}"#),
            ("packages/foundation/button/foundation.ts", "export default class ButtonFoundation { press() {} }\n"),
            ("packages/foundation/card/foundation.ts", "export default class CardFoundation { open() {} }\n"),
            ("docs/button.md", &button_doc),
            ("docs/card.md", &card_doc),
        ],
    );
    let d = detected(dir.path());
    assert!(d.ambiguous.is_none(), "{:?}", d.ambiguous);
    assert_eq!(d.config.sources.patterns, ["packages/foundation/{component}/**", "packages/ui/{component}/**"]);
    let report = build_with(dir.path(), d.config.clone());
    assert_eq!((report.manifest.system.as_str(), report.manifest.version.as_str()), ("acme-ui", "2.1.0"));
    let set = BundleSet::open(&report.dir).unwrap();
    for (name, title, brief, own) in [
        ("button", "Button", "Starts an action.", "packages/foundation/button/foundation.ts"),
        ("card", "Card", "Groups related content.", "packages/foundation/card/foundation.ts"),
    ] {
        let (_, meta) = set.component_meta(name).unwrap();
        let files: Vec<&str> = meta.files.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(files, [own, &format!("packages/ui/{name}/index.tsx")], "{name}");
        let doc = &meta.docs[0];
        assert_eq!((doc.title.as_deref(), doc.brief.as_deref()), (Some(title), Some(brief)), "{name}");
        // The metadata fence is no code block: the import example is the only one.
        assert_eq!(doc.code_blocks.len(), 1, "{name}");
    }
}

/// Issue 24 item 1: what the package exports beside its components is in the set. Chakra's `index.ts` exports
/// `./hooks`; `useDisclosure` is served by path and found by search, its text the file's lines.
#[test]
fn chakra_exported_hooks_are_served_and_found() {
    let Some(built) = common::detected_build("chakra-ui") else {
        return eprintln!("skipped: the real corpus is absent");
    };
    let path = "packages/react/src/hooks/use-disclosure.ts";
    let source = std::fs::read_to_string(built.repo.join(path)).unwrap();
    let f = built.set.function(path, "useDisclosure", Paging::unlimited()).unwrap();
    let lines: Vec<&str> = source.lines().collect();
    let (a, b) = (f.function.start_line as usize, f.function.end_line as usize);
    assert!(lines[a - 1].contains("export function useDisclosure("), "{}", lines[a - 1]);
    assert!(f.text.contains(&lines[a - 1..b].join("\n")), "{}", f.text);
    let opts = SearchOptions { max_tokens: Some(2_000), ..Default::default() };
    let view = built.set.search("useDisclosure", &opts).unwrap();
    let documents: Vec<&str> = view.hits.iter().take(3).map(|h| h.document.as_str()).collect();
    assert!(documents.contains(&path), "{documents:?}");
}
