//! Examples wherever they live (issue 25), on small inputs written here for each dialect and on the real Arco
//! Design input: `%%Content%%` → the `__demo__/*.md` files in `order`, each language with its own title and
//! description; `<ExampleTabs name>` → the file in an `examples/` folder; `{{ name }}` → `_example/`; a
//! `demo/index.vue` no line refers to; site-only markup dropped; an unresolved reference is a warning.

use std::path::Path;

use mydesign_docs::compile::{BuildOptions, BuildReport, build};
use mydesign_docs::config::{Config, DocRule, ExampleRule, SourceRule};
use mydesign_docs::read::{BundleSet, Detail, Paging};

fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

fn config(docs: &[(&str, &str)], sources: &str) -> Config {
    Config {
        docs: docs.iter().map(|(p, l)| DocRule { pattern: p.to_string(), lang: l.to_string() }).collect(),
        changelog: vec![],
        sources: SourceRule { patterns: vec![sources.into()], beside_docs: false, not_components: vec![] },
        ..Config::preset("default").unwrap()
    }
}

fn build_with(repo: &Path, config: Config) -> (tempfile::TempDir, BuildReport, BundleSet) {
    let out = tempfile::tempdir().unwrap();
    let report = build(&BuildOptions { repo: repo.into(), out: out.path().into(), config, progress: false }).unwrap();
    let set = BundleSet::open(&report.dir).unwrap();
    (out, report, set)
}

fn doc_text(set: &BundleSet, name: &str, lang: &str) -> String {
    set.doc(name, Some(lang), Detail::Full, &[], Paging::unlimited()).unwrap().text
}

const DEMO_A: &str = "---\norder: 1\ntitle:\n  zh-CN: 尺寸\n  en-US: Size\n---\n\n## zh-CN\n\n三种尺寸。\n\n## en-US\n\n\
                      Three sizes.\n\n```js\nimport { Button } from 'lib';\nexport default () => <Button size=\"small\" />;\n```\n";
const DEMO_B: &str = "---\norder: 0\ntitle:\n  zh-CN: 基本用法\n  en-US: Basic\n---\n\n## zh-CN\n\n基本按钮。\n\n## en-US\n\n\
                      A plain button.\n\n````tsx\nexport default () => <Button>```</Button>;\n````\n";

#[test]
fn a_content_placeholder_becomes_the_folders_demos_in_order_in_each_language() {
    let dir = tempfile::tempdir().unwrap();
    let r = dir.path();
    write(r, "package.json", r#"{"name": "arc", "version": "1.0.0"}"#);
    write(r, "components/Button/README.en-US.md", "# Button\n\nA button.\n\n%%Content%%\n\n## API\n\n%%Props%%\n");
    write(r, "components/Button/README.zh-CN.md", "# Button 按钮\n\n按钮。\n\n%%Content%%\n\n## API\n");
    write(r, "components/Button/__demo__/size.md", DEMO_A);
    write(r, "components/Button/__demo__/basic.md", DEMO_B);
    write(r, "components/Button/index.tsx", "export const Button = () => null;\n");
    let cfg = config(
        &[("components/{component}/README.en-US.md", "en-US"), ("components/{component}/README.zh-CN.md", "zh-CN")],
        "components/{component}/**",
    );
    let (_out, report, set) = build_with(r, cfg);
    let warnings: Vec<String> = report.diagnostics.iter().filter(|d| !d.note).map(|d| d.to_string()).collect();
    assert!(warnings.iter().all(|w| !w.contains("__demo__")), "{warnings:#?}");
    for (lang, titles, descriptions) in [
        ("en-US", ["Basic", "Size"], ["A plain button.", "Three sizes."]),
        ("zh-CN", ["基本用法", "尺寸"], ["基本按钮。", "三种尺寸。"]),
    ] {
        let text = doc_text(&set, "button", lang);
        assert!(!text.contains("%%"), "{text}");
        assert!(text.contains(&format!("## {}\n\n{}\n\n", titles[0], descriptions[0])), "{text}");
        let first = set.code_block("button", 1, Some(lang), Paging::unlimited()).unwrap();
        assert_eq!(first.count, 2);
        assert_eq!(first.text, "````tsx\nexport default () => <Button>```</Button>;\n````");
        let meta = first.block.demo.as_ref().unwrap();
        assert_eq!(meta.path, "components/Button/__demo__/basic.md");
        assert_eq!((meta.title.as_deref(), meta.description.as_deref()), (Some(titles[0]), Some(descriptions[0])));
        let second = set.code_block("button", 2, Some(lang), Paging::unlimited()).unwrap();
        assert_eq!(
            second.text,
            "```js\nimport { Button } from 'lib';\nexport default () => <Button size=\"small\" />;\n```"
        );
        assert_eq!(second.block.demo.as_ref().unwrap().title.as_deref(), Some(titles[1]));
    }
}

const TSX: &str = "import { Button } from \"@lib/react\"\n\nexport const ButtonBasic = () => <Button>Go</Button>\n";

#[test]
fn named_references_resolve_through_the_rule_table_and_site_markup_leaves_the_views() {
    let dir = tempfile::tempdir().unwrap();
    let r = dir.path();
    write(r, "package.json", r#"{"name": "chak", "version": "1.0.0"}"#);
    write(
        r,
        "site/docs/button.mdx",
        "---\ntitle: Button\n---\n\n<ExampleTabs name=\"button-basic\" />\n\n## Props\n\n<PropTable component=\"Button\" />\n\n\
         <Explorer />\n\n<ExampleTabs name=\"button-gone\" />\n\n{{ base }}\n\n<Sandpack id=\"x\" />\n",
    );
    write(r, "apps/comp/src/examples/button-basic.tsx", TSX);
    write(r, "site/docs/_example/base.jsx", "export default 1;\n");
    write(r, "src/button/button.tsx", "export const Button = () => null;\n");
    let (_out, report, set) = build_with(r, config(&[("site/docs/{component}.mdx", "en-US")], "src/{component}/**"));
    let warnings: Vec<String> = report.diagnostics.iter().filter(|d| !d.note).map(|d| d.to_string()).collect();
    assert!(
        warnings.iter().any(|w| w.starts_with("markdown: site/docs/button.mdx:13: example reference")
            && w.contains("**/examples/button-gone")),
        "{warnings:#?}"
    );
    let notes: Vec<String> = report.diagnostics.iter().filter(|d| d.note).map(|d| d.to_string()).collect();
    assert!(notes.iter().any(|n| n.contains("<Sandpack> ×1")), "{notes:#?}");
    let text = doc_text(&set, "button", "en-US");
    for markup in ["<ExampleTabs", "<PropTable", "<Explorer", "{{"] {
        assert!(!text.contains(markup), "{markup} in {text}");
    }
    let first = set.code_block("button", 1, None, Paging::unlimited()).unwrap();
    assert_eq!(first.count, 2);
    assert_eq!(first.text, format!("```tsx\n{TSX}```"));
    assert_eq!(first.block.demo.as_ref().unwrap().path, "apps/comp/src/examples/button-basic.tsx");
    let second = set.code_block("button", 2, None, Paging::unlimited()).unwrap();
    assert_eq!(second.text, "```jsx\nexport default 1;\n```");
    assert_eq!(second.block.demo.as_ref().unwrap().path, "site/docs/_example/base.jsx");
}

#[test]
fn configured_rules_come_first_and_an_unreferenced_vue_demo_is_appended() {
    let dir = tempfile::tempdir().unwrap();
    let r = dir.path();
    write(r, "package.json", r#"{"name": "v", "version": "1.0.0"}"#);
    write(r, "src/button/README.md", "# Button\n\n```html\n<v-button />\n```\n\n@demo basic\n");
    write(r, "src/button/demo/index.vue", "<template>\n  <v-button>Hi</v-button>\n</template>\n");
    write(r, "samples/basic.ts", "export const basic = 1;\n");
    write(r, "src/button/button.ts", "export const Button = 1;\n");
    let mut cfg = config(&[("src/{component}/README.md", "en-US")], "src/{component}/**");
    cfg.examples = vec![ExampleRule { reference: "@demo {name}".into(), file: "samples/{name}".into() }];
    let (_out, _report, set) = build_with(r, cfg);
    let text = doc_text(&set, "button", "en-US");
    assert!(!text.contains("@demo"), "{text}");
    assert!(text.contains("\n## Examples\n"), "{text}");
    let blocks: Vec<String> =
        (1..=3).map(|i| set.code_block("button", i, None, Paging::unlimited()).unwrap().text).collect();
    assert_eq!(blocks[0], "```html\n<v-button />\n```");
    assert_eq!(blocks[1], "```ts\nexport const basic = 1;\n```");
    assert_eq!(blocks[2], "```vue\n<template>\n  <v-button>Hi</v-button>\n</template>\n```");
}

/// Every `__demo__` fence of the real Arco Design input is served byte for byte in both languages, Button's 9 in
/// `order`, and `%%Content%%` is in no answer.
#[test]
fn real_arco_demos_are_served_byte_for_byte() {
    let Some(corpus) = std::env::var_os("MYDESIGN_REAL_CORPUS").map(std::path::PathBuf::from) else {
        eprintln!("skipped: MYDESIGN_REAL_CORPUS is not set");
        return;
    };
    let arco = corpus.join("arco-design");
    if !arco.is_dir() {
        eprintln!("skipped: {} is missing", arco.display());
        return;
    }
    let cfg = config(
        &[("components/{component}/README.en-US.md", "en-US"), ("components/{component}/README.zh-CN.md", "zh-CN")],
        "components/{component}/**",
    );
    let (_out, _report, set) = build_with(&arco, cfg);
    let mut served = 0;
    for c in set.manifest().unwrap().components.iter() {
        for lang in ["en-US", "zh-CN"] {
            let Ok(doc) = set.doc(&c.name, Some(lang), Detail::Full, &[], Paging::unlimited()) else { continue };
            assert!(!doc.text.contains("%%Content%%"), "{} {lang}", c.name);
            for i in 1..=doc.code_blocks {
                let b = set.code_block(&c.name, i, Some(lang), Paging::unlimited()).unwrap();
                let Some(demo) = b.block.demo.as_ref() else { continue };
                let file = std::fs::read_to_string(arco.join(&demo.path)).unwrap();
                assert!(file.contains(&b.text), "{}: block {i} is not the fence of {}", c.name, demo.path);
                served += 1;
            }
        }
    }
    let demos = walkdir_count(&arco.join("components"));
    assert_eq!(served, demos * 2);
    let button = set.code_block("button", 2, Some("en-US"), Paging::unlimited()).unwrap();
    assert_eq!(button.block.demo.as_ref().unwrap().path, "components/Button/__demo__/basic.md");
    let count = (1..=button.count)
        .filter(|&i| set.code_block("button", i, Some("zh-CN"), Paging::unlimited()).unwrap().block.demo.is_some())
        .count();
    assert_eq!(count, 9);
}

/// The `.md` files in the `__demo__` folders under `dir`.
fn walkdir_count(dir: &Path) -> usize {
    let mut n = 0;
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let demo = entry.path().join("__demo__");
        if let Ok(files) = std::fs::read_dir(demo) {
            n += files.flatten().filter(|f| f.path().extension().is_some_and(|e| e == "md")).count();
        }
    }
    n
}
