//! The dumi-style document features on small inputs written here: demo files referenced by `<code src="…">` are
//! code blocks (served exactly, in document order, warnings for a missing file or a path that leaves the
//! repository), and headings with explicit `{#id}` anchors.

use crate::common;

use std::path::Path;

use mydesign_docs::read::{BundleSet, Detail, Paging};

fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

const DOC: &str = "# Tag\n\n```bash\nnpm i tag\n```\n\n## Demos\n\n<code src=\"./demo/basic.tsx\">Basic usage</code>\n\n\
<code src=\"./demo/missing.tsx\"></code>\n\n<code src=\"../../../../etc/passwd\"></code>\n\n```tsx\nafter();\n```\n";
const BASIC: &str = "import { Tag } from 'lib';\n\nexport default () => <Tag color=\"blue\">Basic</Tag>;\n";

/// The `tag` repository of [`DOC`] (its demo `basic.tsx` described in `basic.md`), built: the temporary
/// directories (kept while the test runs) and the build's report.
fn build_tag() -> ([tempfile::TempDir; 2], mydesign_docs::compile::BuildReport) {
    let dir = tempfile::tempdir().unwrap();
    let r = dir.path();
    write(r, "package.json", r#"{"name": "demo-sys", "version": "1.0.0"}"#);
    write(r, "docs/tag/index.md", DOC);
    write(r, "docs/tag/demo/basic.tsx", BASIC);
    write(r, "docs/tag/demo/basic.md", "A tag in its simplest form.\n");
    let out = tempfile::tempdir().unwrap();
    let report = common::build_into(r, "default", out.path());
    ([dir, out], report)
}

#[test]
fn demo_files_become_code_blocks() {
    let (_dirs, report) = build_tag();
    let warnings: Vec<String> = report.diagnostics.iter().filter(|d| !d.note).map(|d| d.to_string()).collect();
    assert!(
        warnings
            .iter()
            .any(|w| w.starts_with("markdown: docs/tag/index.md:11: demo `<code src=\"./demo/missing.tsx\">`")),
        "{warnings:#?}"
    );
    assert!(
        warnings.iter().any(|w| w.contains("docs/tag/index.md:13") && w.contains("leaves the repository")),
        "{warnings:#?}"
    );
    let set = BundleSet::open(&report.dir).unwrap();
    // The fence before, the demo, the fence after: missing and outside demos are not blocks.
    let first = set.code_block("tag", 1, None, Paging::unlimited()).unwrap();
    assert_eq!(first.count, 3);
    let demo = set.code_block("tag", 2, None, Paging::unlimited()).unwrap();
    assert_eq!(demo.text, format!("```tsx\n{BASIC}```"));
    assert_eq!(demo.block.lang, "tsx");
    let meta = demo.block.demo.as_ref().unwrap();
    assert_eq!(meta.path, "docs/tag/demo/basic.tsx");
    assert_eq!(meta.title.as_deref(), Some("Basic usage"));
    assert_eq!(meta.description_path.as_deref(), Some("docs/tag/demo/basic.md"));
    let text = mydesign_docs::render::Render::render(&demo, mydesign_docs::render::Surface::Cli);
    assert!(text.contains("demo file docs/tag/demo/basic.tsx \"Basic usage\""), "{text}");
    assert!(text.contains("described in docs/tag/demo/basic.md"), "{text}");
    let third = set.code_block("tag", 3, None, Paging::unlimited()).unwrap();
    assert_eq!(third.text, "```tsx\nafter();\n```");
}

#[test]
fn explicit_anchors_name_sections_in_either_language() {
    let dir = tempfile::tempdir().unwrap();
    let r = dir.path();
    write(r, "package.json", r#"{"name": "anchors", "version": "1.0.0"}"#);
    write(r, "docs/tag/index.md", "# Tag\n\n## Using in TypeScript {#using-in-typescript}\n\nTyped.\n\n## API\n\nx\n");
    write(
        r,
        "docs/tag/index.zh-CN.md",
        "# 标签\n\n## 在 TypeScript 中使用 {#using-in-typescript}\n\n类型。\n\n## API\n\ny\n",
    );
    let out = tempfile::tempdir().unwrap();
    let report = common::build_into(r, "default", out.path());
    let set = BundleSet::open(&report.dir).unwrap();
    let doc = |lang: &str, section: &str| {
        let lang = (!lang.is_empty()).then_some(lang);
        set.doc("tag", lang, Detail::Full, &[section.to_string()], Paging::unlimited())
            .unwrap_or_else(|e| panic!("{lang:?} {section}: {e}"))
            .text
    };
    let en = "## Using in TypeScript {#using-in-typescript}\n\nTyped.\n\n";
    assert_eq!(doc("en-US", "using-in-typescript"), en);
    assert_eq!(doc("en-US", "Using in TypeScript"), en);
    let zh = "## 在 TypeScript 中使用 {#using-in-typescript}\n\n类型。\n\n";
    assert_eq!(doc("zh-CN", "using-in-typescript"), zh);
    assert_eq!(doc("zh-CN", "在 TypeScript 中使用"), zh);
    // No language named: the title in the other language finds its document.
    assert_eq!(doc("", "在 TypeScript 中使用"), zh);
    assert_eq!(doc("", "Using in TypeScript"), en);
    let meta = set.component_meta("tag").unwrap().1;
    let titles: Vec<&str> = meta.docs.iter().map(|d| d.sections[1].title.as_str()).collect();
    assert_eq!(titles, ["Using in TypeScript", "在 TypeScript 中使用"]);
}

#[test]
fn a_demo_search_hit_shows_and_counts_the_demo_code_its_follow_up_serves() {
    // Trial (walk item 2): the hit of a demo block showed the bare `<code src>` tag with the tag's 13 tokens, while
    // its follow-up `code-block` served the demo file.
    let (_dirs, report) = build_tag();
    let set = BundleSet::open(&report.dir).unwrap();
    let served = set.code_block("tag", 2, None, Paging::unlimited()).unwrap();
    assert_eq!(served.text, format!("```tsx\n{BASIC}```"));
    let tokens = common::Tiktoken::new("o200k_base").count(&served.text);
    assert_eq!(served.block.tokens, tokens);
    let opts = mydesign_docs::search::query::SearchOptions {
        kind: Some(mydesign_docs::search::Kind::Code),
        max_tokens: Some(10_000),
        ..Default::default()
    };
    let view = set.search("Tag color blue", &opts).unwrap();
    let hit = view.hits.first().expect("the demo's hit");
    assert_eq!(hit.follow_up.arguments.get("index").and_then(|v| v.as_u64()), Some(2));
    // The lines of the `<code>` element (as `code-block`'s header says), the demo code and its count.
    assert_eq!((hit.start_line, hit.end_line), (9, 9));
    assert_eq!(hit.text.as_deref(), Some(served.text.as_str()));
    assert_eq!(hit.tokens, tokens);
}
