//! Layout detection (issue 9 items 1, 4, 5, 9): small repositories of each shape written here, built with no
//! configuration and no preset; the detection report and what was built are pinned with insta snapshots
//! (`INSTA_UPDATE=always cargo test --test it detect::` to refresh, then review the diff). On the real inputs: Semi and
//! Blueprint detect the components and versions of their presets; antd-mobile (dumi layout) gives its 76
//! documented components in both languages and a prerelease version.

use crate::common;

use std::path::Path;

use mydesign_docs::compile::{BuildOptions, BuildReport, build, detect, walk};
use mydesign_docs::config::{Config, WalkConfig};
use mydesign_docs::read::BundleSet;

/// Writes `files` (path, text) under `root`.
pub(crate) fn write(root: &Path, files: &[(&str, &str)]) {
    for (rel, text) in files {
        let p = root.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
}

/// The detection of `repo` with the default walk.
pub(crate) fn detected(repo: &Path) -> detect::Detection {
    let files = walk::walk(repo, &WalkConfig::default()).unwrap().files;
    detect::detect(repo, &files).expect("a layout is detected")
}

/// `repo` built with `config` into a kept temporary directory.
pub(crate) fn build_with(repo: &Path, config: Config) -> BuildReport {
    let out = tempfile::tempdir().unwrap().keep();
    build(&BuildOptions { repo: repo.into(), out, config, progress: false }).unwrap()
}

/// The detection report, then one line per component (name: languages, files), the version and its source, and
/// every warning.
fn summary(repo: &Path) -> String {
    let d = detected(repo);
    let report = build_with(repo, d.config.clone());
    let mut out = vec![d.report(), String::new()];
    for c in &report.manifest.components {
        let langs: Vec<&str> = c.docs.iter().map(|d| d.lang.as_str()).collect();
        out.push(format!("{} ({}): [{}], {} files", c.name, c.key, langs.join(", "), c.files));
    }
    out.push(format!("version {} from {}", report.manifest.version, report.version_source));
    for w in report.diagnostics.iter().filter(|d| !d.is_note()) {
        out.push(format!("warning: {w}"));
    }
    out.join("\n")
}

const ZH: &str = "# 表格 Table\n\n表格用于展示结构化的数据，支持排序、筛选和分页。\n";
const EN: &str = "# Table\n\nTables show structured data with sorting, filters and pages.\n";
const TSX: &str = "export function Thing(props: { a: string }) {\n  return props.a;\n}\n";

#[test]
fn semi_like_monorepo_uses_the_component_package_and_ignores_the_private_root() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        &[
            ("package.json", r#"{"name": "root", "private": true, "version": "0.0.1"}"#),
            ("content/show/table/index.md", ZH),
            ("content/show/table/index-en-US.md", EN),
            ("content/basic/button/index.md", ZH),
            ("content/basic/button/index-en-US.md", EN),
            ("content/ecosystem/changelog/index.md", "# 更新日志\n\n#### 🎉 2.3.0 (2026-01-02)\n\n- 修复\n"),
            ("content/ecosystem/changelog/index-en-US.md", "# Changelog\n\n#### 🎉 2.3.0 (2026-01-02)\n\n- Fix\n"),
            ("packages/ui/package.json", r#"{"name": "@x/ui", "version": "2.3.0"}"#),
            ("packages/ui/table/index.tsx", TSX),
            ("packages/ui/button/index.tsx", TSX),
            ("packages/ui/utils/dom.ts", TSX),
            ("packages/ui/_base/base.ts", TSX),
            ("packages/theme/package.json", r#"{"name": "@x/theme", "version": "9.9.9"}"#),
            ("packages/theme/scss/a.scss", "a { b: c }\n"),
            ("packages/theme/src/index.ts", TSX),
        ],
    );
    insta::assert_snapshot!("semi_like", summary(dir.path()));
}

#[test]
fn dumi_layout_with_demos_and_a_prerelease() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        &[
            ("package.json", r#"{"name": "dumi-ui", "version": "1.2.0-beta.3"}"#),
            ("CHANGELOG.en-US.md", "# Changelog\n\n## 1.1.0\n\n- Fix\n"),
            ("CHANGELOG.zh-CN.md", "# 更新日志\n\n## 1.1.0\n\n- 修复\n"),
            ("components/button/index.en-US.md", EN),
            ("components/button/index.zh-CN.md", ZH),
            ("components/button/demo/basic.tsx", TSX),
            ("components/button/button.tsx", TSX),
            ("components/date-picker/index.en-US.md", EN),
            ("components/date-picker/index.zh-CN.md", ZH),
            ("components/date-picker/index.tsx", TSX),
            ("components/locale/en_US.ts", TSX),
            ("components/style/index.ts", TSX),
            ("docs/index.en-US.md", EN),
        ],
    );
    let text = summary(dir.path());
    assert!(text.contains("version 1.2.0-beta.3 from package.json"), "{text}");
    insta::assert_snapshot!("dumi_like", text);
}

#[test]
fn blueprint_like_documents_beside_sources_share_a_folder_by_file_name() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        &[
            ("package.json", r#"{"name": "@bp/core", "version": "6.0.0"}"#),
            ("src/components/button/buttons.mdx", EN),
            ("src/components/button/buttons.tsx", TSX),
            ("src/components/forms/checkbox.mdx", EN),
            ("src/components/forms/numeric-input.mdx", EN),
            ("src/components/forms/numericInput.tsx", TSX),
            ("src/components/forms/controls.tsx", TSX),
            ("src/components/tag/tag.mdx", EN),
            ("src/components/tag/tag.tsx", TSX),
            ("src/index.ts", "export * from './components';\n"),
        ],
    );
    let d = detected(dir.path());
    let report = build_with(dir.path(), d.config.clone());
    let set = BundleSet::open(&report.dir).unwrap();
    let files =
        |c: &str| -> Vec<String> { set.files(c).unwrap().files.iter().map(|f| f.path.clone()).collect::<Vec<_>>() };
    assert_eq!(files("numeric-input"), ["src/components/forms/controls.tsx", "src/components/forms/numericInput.tsx"]);
    assert_eq!(files("checkbox"), ["src/components/forms/controls.tsx"]);
    insta::assert_snapshot!("blueprint_like", summary(dir.path()));
}

#[test]
fn a_docs_folder_and_a_small_repository_with_readmes() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        &[
            ("package.json", r#"{"name": "docs-ui", "version": "0.3.0"}"#),
            ("docs/general/button.md", EN),
            ("docs/data/table.md", EN),
            ("docs/data/table.zh-CN.md", ZH),
            ("src/button/index.tsx", TSX),
            ("src/table/index.tsx", TSX),
        ],
    );
    insta::assert_snapshot!("docs_folder", summary(dir.path()));

    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        &[
            ("package.json", r#"{"name": "small", "version": "0.1.0"}"#),
            ("README.md", "# small\n"),
            ("src/components/Button/README.md", EN),
            ("src/components/Button/Button.tsx", TSX),
            ("src/components/Card/Card.mdx", EN),
            ("src/components/Card/Card.tsx", TSX),
            ("src/components/CardGrid/CardGrid.tsx", TSX),
        ],
    );
    insta::assert_snapshot!("readme_beside_sources", summary(dir.path()));
}

#[test]
fn print_config_writes_a_file_that_builds_the_same_and_zero_components_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        &[
            ("package.json", r#"{"name": "small", "version": "0.1.0"}"#),
            ("src/components/Button/README.md", EN),
            ("src/components/Button/Button.tsx", TSX),
        ],
    );
    let repo = dir.path().to_str().unwrap();
    let toml = common::ok(dir.path(), &["build", repo, "--print-config"]);
    assert!(toml.contains("pattern = \"src/components/{component}/README.md\""), "{toml}");
    std::fs::write(dir.path().join("mydesign-docs.toml"), &toml).unwrap();
    let out = common::ok(dir.path(), &["build", repo, "--out", "out"]);
    assert!(!out.contains("detected layout"), "an explicit file wins: {out}");
    assert!(out.contains("1 component,"), "{out}");

    let empty = tempfile::tempdir().unwrap();
    write(empty.path(), &[("README.md", "# nothing\n"), ("src/index.ts", TSX)]);
    let err = common::fails(empty.path(), &["build", empty.path().to_str().unwrap(), "--out", "out"]);
    assert!(err.contains("no component found"), "{err}");
    assert!(err.contains("found: 2 files, 1 Markdown/MDX documents (most in . (1)), 1 source files"), "{err}");
    assert!(err.contains("--preset") && err.contains("docs/config.md"), "{err}");
    // An explicit configuration that finds nothing is an error too, not "0 components".
    let err = common::fails(empty.path(), &["build", empty.path().to_str().unwrap(), "--preset", "semi"]);
    assert!(err.contains("no component found with this layout"), "{err}");
}

#[test]
fn a_preset_and_the_file_merge_field_by_field() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), &[("mydesign-docs.toml", "[system]\nversion = \"1.0.0\"\n[thresholds]\ndoc_hide_lines = 100\n")]);
    let c = Config::load(dir.path(), Some("semi")).unwrap();
    assert_eq!(c.system.name.as_deref(), Some("semi"));
    assert_eq!(c.system.version.as_deref(), Some("1.0.0"));
    assert_eq!(c.thresholds.doc_hide_lines, 100);
    assert_eq!(c.thresholds.changelog_page_lines, 300);
    assert_eq!(c.docs, Config::preset("semi").unwrap().docs);
}

/// Every warning of a build (notes left out), as printed.
fn warnings(report: &BuildReport) -> Vec<String> {
    report.diagnostics.iter().filter(|d| !d.is_note()).map(|d| d.to_string()).collect()
}

/// The keys of the components built (guides, built apart, left out).
fn keys(report: &BuildReport) -> Vec<String> {
    report.manifest.components.iter().filter(|c| !c.guide).map(|c| c.key.clone()).collect()
}

#[test]
fn real_inputs_detect_what_their_presets_say() {
    let Some(real) = common::real_corpus() else {
        eprintln!("skipped: the real corpus (../shared) is absent");
        return;
    };
    {
        let repo = real.join("semi");
        let d = detected(&repo);
        assert!(d.ambiguous.is_none(), "semi");
        // The builds other tests share: detected (no preset), and with the preset.
        let auto = &common::detected_build("semi").unwrap().report;
        let with_preset = &common::semi().unwrap().report;
        assert_eq!(keys(auto), keys(with_preset), "semi");
        assert_eq!(auto.manifest.version, with_preset.manifest.version, "semi");
        let docs = |r: &BuildReport| r.manifest.components.iter().map(|c| c.docs.len()).sum::<usize>();
        assert_eq!(docs(auto), docs(with_preset), "semi");
    }
    // Blueprint: detection reads the package's exports (issue 24), so pages that document no exported component are
    // guides, not components as the preset keeps them, and a page is named after the export it documents
    // (`buttons.mdx` documents `Button`).
    let auto = &common::detected_build("blueprint").unwrap().report;
    let with_preset = &common::blueprint().unwrap().report;
    assert_eq!(auto.manifest.version, with_preset.manifest.version, "blueprint");
    let (auto_keys, preset_keys) = (keys(auto), keys(with_preset));
    let guides: Vec<&str> = auto.manifest.components.iter().filter(|c| c.guide).map(|c| c.key.as_str()).collect();
    for guide in ["accessibility", "classes", "colors", "components", "hooks", "index", "variables"] {
        assert!(preset_keys.iter().any(|k| k == guide) && !auto_keys.iter().any(|k| k == guide), "{guide}");
        // Built as a guide (issue 24 item 2).
        assert!(guides.contains(&guide), "{guide}: {guides:?}");
    }
    assert!(auto_keys.iter().any(|k| k == "button") && !auto_keys.iter().any(|k| k == "buttons"));
    // Every ES re-export shape reaches the export list: `export { Checkbox, Radio, Switch } from
    // "./forms/controls"` (each has its `…Props`), `HotkeysTarget` re-exported by `hotkeys/index.ts`, `Label` of
    // `html/html.tsx`, the hooks `useHotkeys` and `useOverlayStack`: their pages are components, not guides.
    for page in ["checkbox", "radio", "switch", "label", "hotkeys-target", "use-hotkeys", "use-overlay-stack"] {
        assert!(auto_keys.contains(&mydesign_docs::model::component_key(page)), "{page}");
    }
    // `typography.mdx` documents CSS classes, no export: still a guide.
    assert!(!auto_keys.iter().any(|k| k == "typography"));
    let renamed = ["button", "slider"];
    let unknown: Vec<&String> =
        auto_keys.iter().filter(|k| !preset_keys.contains(k) && !renamed.contains(&k.as_str())).collect();
    assert!(unknown.is_empty(), "components the preset does not have: {unknown:?}");
    assert!(auto_keys.len() >= 55, "{}", auto_keys.len());
    let repo = real.join("antd-mobile");
    let d = detected(&repo);
    assert!(d.layout.starts_with("dumi-like"), "{}", d.layout);
    // 2 × (72 `index.<lang>.md` + 4 `<name>.<lang>.md`) under the rules `index.en.md` and `index.zh.md`.
    assert_eq!((d.documents, d.components), (152, 76));
    let report = &common::detected_build("antd-mobile").unwrap().report;
    // The same as the `dumi` preset written for it.
    let with_preset = &common::antd_mobile().unwrap().report;
    assert_eq!(keys(report), keys(with_preset));
    assert_eq!(report.manifest.version, with_preset.manifest.version);
    // The components' documents and blocks; detection also makes guides of `docs/` (the preset has no guides).
    let of_components = |r: &mydesign_docs::compile::BuildReport| -> (usize, usize) {
        let docs = r.manifest.components.iter().filter(|c| !c.guide).flat_map(|c| &c.docs);
        docs.fold((0, 0), |(n, blocks), d| (n + 1, blocks + d.code_blocks as usize))
    };
    assert_eq!(of_components(report), of_components(with_preset));
    assert!(with_preset.manifest.components.iter().all(|c| !c.guide));
    assert_eq!(report.manifest.components.iter().filter(|c| c.guide).count(), 17);
    let both = report
        .manifest
        .components
        .iter()
        .filter(|c| !c.guide)
        .filter(|c| c.docs.iter().map(|d| d.lang.as_str()).collect::<Vec<_>>() == ["en-US", "zh-CN"])
        .count();
    // 72 with `index.<lang>.md`, 4 with `<name>.<lang>.md` (calendar, calendar-picker(-view), skeleton).
    assert_eq!(both, 76);
    assert_eq!(report.manifest.version, "5.42.4-alpha.0");
    assert!(mydesign_docs::compile::is_prerelease(&report.manifest.version));
}

#[test]
fn documents_named_after_their_folder_are_documents_and_unused_markdown_is_reported() {
    // Trial item 4 on a small repository: ten folders with `index.<lang>.md`, one with `calendar.<lang>.md`, a stray
    // `notes.md` and a demo description.
    let dir = tempfile::tempdir().unwrap();
    let names = ["alert", "badge", "button", "card", "dialog", "empty", "form", "grid", "input", "list"];
    let mut files: Vec<(String, String)> =
        vec![("package.json".into(), r#"{"name": "m-ui", "version": "1.0.0"}"#.into())];
    for n in names {
        files.push((format!("src/components/{n}/index.en.md"), EN.into()));
        files.push((format!("src/components/{n}/index.zh.md"), ZH.into()));
        files.push((format!("src/components/{n}/{n}.tsx"), TSX.into()));
    }
    files.extend(
        [
            ("src/components/calendar/calendar.en.md", "# Calendar\n\n## When to Use\n\nPick a day.\n"),
            ("src/components/calendar/calendar.zh.md", "# Calendar 日历\n\n## 何时使用\n\n选择日期。\n"),
            ("CHANGELOG.md", "# Changelog\n\n## 1.0.0\n\n- Start\n"),
            ("src/components/calendar/calendar.tsx", TSX),
            ("src/components/calendar/notes.md", "# Notes\n"),
            ("src/components/button/demos/demo1.md", "A button.\n"),
            ("src/components/button/demos/demo1.tsx", TSX),
        ]
        .map(|(a, b)| (a.to_string(), b.to_string())),
    );
    let files: Vec<(&str, &str)> = files.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
    write(dir.path(), &files);
    let d = detected(dir.path());
    let patterns: Vec<&str> = d.config.docs.iter().map(|r| r.pattern.as_str()).collect();
    assert_eq!(patterns, ["src/components/{component}/index.en.md", "src/components/{component}/index.zh.md"]);
    assert_eq!((d.documents, d.components), (22, 11));
    for config in [d.config.clone(), Config::preset("dumi").unwrap()] {
        let report = build_with(dir.path(), config);
        let set = BundleSet::open(&report.dir).unwrap();
        let meta = set.component_meta("calendar").unwrap().1;
        let docs: Vec<(&str, &str)> = meta.docs.iter().map(|d| (d.lang.as_str(), d.path.as_str())).collect();
        assert_eq!(
            docs,
            [("en-US", "src/components/calendar/calendar.en.md"), ("zh-CN", "src/components/calendar/calendar.zh.md")]
        );
        let titles: Vec<&str> = meta.docs.iter().flat_map(|d| d.sections.iter().map(|s| s.title.as_str())).collect();
        assert_eq!(titles, ["Calendar", "When to Use", "Calendar 日历", "何时使用"]);
        let warnings = warnings(&report);
        assert_eq!(
            warnings,
            ["layout: src/components/calendar/notes.md: Markdown file in a component's folder is not a document: no \
              [[docs]] rule takes it (add one, see docs/config.md); it is served only as a file"]
        );
    }
}

#[test]
fn a_readme_is_the_document_of_its_folder_unless_a_written_rule_gives_one() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        &[
            ("package.json", r#"{"name": "r-ui", "version": "2.0.0"}"#),
            ("CHANGELOG.md", "# Changelog\n\n## 2.0.0\n\n- Start\n"),
            ("docs/button/README.md", "# Button\n\nPress it.\n"),
            ("docs/card/README.md", "# Card (readme)\n"),
            ("docs/card/index.md", "# Card\n\nA box.\n"),
            ("docs/tag/tag.md", "# Tag\n"),
            ("docs/tag/tag.zh-CN.md", "# 标签\n"),
        ],
    );
    let report = build_with(dir.path(), Config::preset("default").unwrap());
    let set = BundleSet::open(&report.dir).unwrap();
    let mut docs: Vec<String> = Vec::new();
    for c in &report.manifest.components {
        let meta = set.component_meta(&c.key).unwrap().1;
        docs.extend(meta.docs.iter().map(|d| format!("{} {} {}", c.key, d.lang, d.path)));
    }
    assert_eq!(
        docs,
        [
            "button en-US docs/button/README.md",
            "card en-US docs/card/index.md",
            "tag en-US docs/tag/tag.md",
            "tag zh-CN docs/tag/tag.zh-CN.md"
        ]
    );
    let warnings = warnings(&report);
    assert_eq!(
        warnings,
        ["layout: docs/card/README.md: a second en-US document for component `card`; keeping docs/card/index.md"]
    );
}

#[test]
fn a_monorepo_of_component_packages_is_named_by_their_scope_and_reads_each_package_changelog() {
    // Trial item 13: packages/{button 2.1.0, tooltip 2.1.3, utils} under a private root `mono-root`.
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        &[
            ("package.json", r#"{"name":"mono-root","private":true,"workspaces":["packages/*"]}"#),
            ("packages/button/package.json", r#"{"name":"@mono/button","version":"2.1.0"}"#),
            ("packages/button/README.md", "# Button\n\nPress it.\n"),
            ("packages/button/CHANGELOG.md", "# Changelog\n\n## 2.1.0\n\n- Sizes\n"),
            ("packages/button/src/index.tsx", TSX),
            ("packages/tooltip/package.json", r#"{"name":"@mono/tooltip","version":"2.1.3"}"#),
            ("packages/tooltip/README.md", "# Tooltip\n\nHover it.\n"),
            ("packages/tooltip/CHANGELOG.md", "# Changelog\n\n## 2.1.3\n\n- Delay\n"),
            ("packages/tooltip/src/index.tsx", TSX),
            ("packages/utils/package.json", r#"{"name":"@mono/utils","version":"0.0.1"}"#),
            ("packages/utils/src/index.ts", TSX),
        ],
    );
    let d = detected(dir.path());
    assert_eq!(d.config.system.name.as_deref(), Some("mono"));
    assert_eq!(
        d.notes,
        [
            "name: mono (the npm scope of the 2 component packages; the root package is private)",
            "version: the component packages differ (packages/button 2.1.0, packages/tooltip 2.1.3); the build takes \
             one package's: set [system] version to choose",
        ]
    );
    assert!(d.report().contains("\n  name: mono (the npm scope"), "{}", d.report());
    let report = build_with(dir.path(), d.config.clone());
    assert_eq!(report.manifest.system, "mono");
    assert_eq!(keys(&report), ["button", "tooltip"]);
    // Each package's CHANGELOG.md is its component's own changelog (issue 24 item 4), not a warning.
    let rules: Vec<(&str, &str)> = d.config.changelog.iter().map(|r| (r.path.as_str(), r.lang.as_str())).collect();
    assert_eq!(rules, [("packages/{component}/CHANGELOG.md", "en-US")]);
    assert!(d.report().contains("\n  component changelogs: 2 components: packages/{component}/CHANGELOG.md (en-US)"));
    assert!(warnings(&report).is_empty(), "{:?}", warnings(&report));
    let set = BundleSet::open(&report.dir).unwrap();
    let changes = mydesign_docs::diff::changelog_since(&set, "tooltip", "0.0.0", None).unwrap();
    let got: Vec<(&str, Vec<&str>)> =
        changes.changelog.iter().map(|r| (r.version.as_str(), r.lines.iter().map(String::as_str).collect())).collect();
    assert_eq!(got, [("2.1.3", vec!["- Delay"])]);
    // A public root keeps its own name.
    write(dir.path(), &[("package.json", r#"{"name":"acme","version":"1.0.0"}"#)]);
    assert_eq!(detected(dir.path()).config.system.name, None);
}
