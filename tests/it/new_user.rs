//! Edges a new user met (the `edges` trial): a UTF-8 BOM, dumi's `Props` headings, demo blocks fenced, `verify`
//! and `--bundles` on directories that hold no usable set, `install` errors naming the source, numeric arguments
//! out of range, unused Markdown reported. Small inputs written here; the real antd-mobile facts are in
//! `real_dumi.rs`.

use crate::common;

use std::path::Path;

use mydesign_docs::read::{BundleSet, Detail, Paging};

fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

const BOM: &str = "\u{feff}";

#[test]
fn a_bom_is_stripped_from_documents_sources_and_changelogs_with_line_numbers_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let r = dir.path();
    write(r, "package.json", &format!("{BOM}{{\"name\": \"bom-sys\", \"version\": \"1.2.3\"}}"));
    write(r, "docs/tag/index.md", &format!("{BOM}# Tag\n\nA tag.\n\n## Usage\n\n```tsx\n<Tag />\n```\n"));
    write(r, "src/components/tag/index.tsx", &format!("{BOM}export function tag() {{\n  return 1;\n}}\n"));
    write(r, "CHANGELOG.md", &format!("{BOM}# Changelog\n\n## 1.2.3\n\n- Tag: fixed.\n"));
    let out = tempfile::tempdir().unwrap();
    let report = common::build_into(r, "default", out.path());
    let set = BundleSet::open(&report.dir).unwrap();
    // package.json with a BOM still gives the name and version.
    assert_eq!((set.head().system.as_str(), set.head().version.as_str()), ("bom-sys", "1.2.3"));
    let doc = set.doc("tag", None, Detail::Full, &[], Paging::unlimited()).unwrap();
    assert_eq!(doc.text, "# Tag\n\nA tag.\n\n## Usage\n\n```tsx\n<Tag />\n```\n");
    // The H1 is a heading (with the BOM it was the text of a paragraph), on line 1 as in the file.
    assert_eq!(doc.title.as_deref(), Some("Tag"));
    assert_eq!(doc.lines, 10);
    let usage = set.doc("tag", None, Detail::Full, &["Usage".into()], Paging::unlimited()).unwrap();
    assert_eq!(usage.part.lines, (5, 9));
    let block = set.code_block("tag", 1, None, Paging::unlimited()).unwrap();
    assert_eq!((block.block.start_line, block.block.end_line), (7, 9));
    let file = set.file("src/components/tag/index.tsx", false, None, Paging::unlimited()).unwrap();
    assert_eq!(file.part.text, "export function tag() {\n  return 1;\n}\n");
    assert_eq!((file.file.lines, file.file.bytes), (4, 38));
    let line1 = set.file("src/components/tag/index.tsx", false, Some((1, 1)), Paging::unlimited()).unwrap();
    assert_eq!(line1.part.text, "export function tag() {\n");
    let function = set.function("src/components/tag/index.tsx", "tag", Paging::unlimited()).unwrap();
    assert_eq!(function.text, "export function tag() {\n  return 1;\n}");
    let page = set.changelog(None, None, Paging::unlimited()).unwrap();
    assert!(page.text.starts_with("# Changelog\n"), "{:?}", page.text);
}
