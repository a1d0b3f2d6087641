//! The project's own sample design system (`corpus/`): the rules' numbers asserted, and the CLI's outputs pinned
//! with insta snapshots (`INSTA_UPDATE=always cargo test --test it sample::` to refresh, then review the diff).

use crate::common;

use mydesign_docs::read::{Detail, Paging};
use std::path::Path;

/// Runs a lookup against the sample's bundle set.
fn lookup(args: &[&str]) -> String {
    let b = common::sample();
    let dir = b.report.dir.to_str().unwrap();
    let mut all: Vec<&str> = args.to_vec();
    all.extend(["--bundles", dir]);
    // Printed commands repeat `--bundles`: the temporary directory is not part of the snapshot.
    common::ok(Path::new("."), &all).replace(dir, "[BUNDLES]")
}

fn lookup_err(args: &[&str]) -> String {
    let b = common::sample();
    let dir = b.report.dir.to_str().unwrap();
    let mut all: Vec<&str> = args.to_vec();
    all.extend(["--bundles", dir]);
    common::fails(Path::new("."), &all).replace(dir, "[BUNDLES]")
}

#[test]
fn sample_numbers_follow_the_rules() {
    let b = common::sample();
    let m = b.set.manifest().unwrap();
    assert_eq!((m.system.as_str(), m.version.as_str(), m.default_lang.as_str()), ("my-design", "3.4.0", "en-US"));
    assert_eq!(m.components.len(), 17);
    let table = b.set.doc("table", None, Detail::Normal, &[], Paging::unlimited()).unwrap();
    assert_eq!((table.lines, table.code_blocks, table.hidden), (1444, 33, true));
    let zh = b.set.doc("table", Some("zh-CN"), Detail::Normal, &[], Paging::unlimited()).unwrap();
    assert_eq!((zh.lines, zh.code_blocks), (1451, 34));
    let button = b.set.doc("button", None, Detail::Normal, &[], Paging::unlimited()).unwrap();
    // Button's 6 blocks and its 5 stories (Button.stories.tsx), which are served as placeholders of its view.
    assert_eq!((button.lines, button.code_blocks, button.hidden), (210, 11, true));
    let changelog = b.set.changelog(None, None, Paging::unlimited()).unwrap();
    assert_eq!((changelog.pages, changelog.total_lines), (6, 1611));
    let source = b.set.file("src/components/Table/Table.tsx", false, None, Paging::unlimited()).unwrap();
    assert_eq!((source.file.lines, source.skeleton), (1738, true));
    // Build folders, tests and stories are not listed; the source-only component is.
    let all: Vec<&str> = m.files.iter().map(|f| f.path.as_str()).collect();
    assert!(!all.iter().any(|p| p.starts_with("lib/") || p.contains("__tests__") || p.contains(".stories.")));
    // _utils is no component, but its files are served by path under the pseudo-component `_shared`.
    assert!(b.set.component("spin").is_ok() && b.set.component("_utils").is_err());
    assert!(m.components.iter().all(|c| !c.name.starts_with('_')));
    let shared = b.set.files("_shared").unwrap();
    assert_eq!(shared.files.len(), 13);
    assert!(shared.files.iter().all(|f| f.path.starts_with("src/components/_utils/")));
    assert!(m.files.iter().filter(|f| f.path.contains("/_utils/")).all(|f| f.component == "_shared"));
    assert!(b.set.file("src/components/_utils/debounce.ts", false, None, Paging::unlimited()).is_ok());
    assert!(b.set.component("DatePicker").is_ok() && b.set.component("date-picker").is_ok());
}

#[test]
fn every_function_kind_of_design_3_is_indexed() {
    let b = common::sample();
    let index = b.set.functions("src/components/Table/Table.tsx").unwrap();
    let has = |q: &str, kind: &str| index.iter().any(|f| f.qualified == q && f.kind == kind);
    for (q, kind) in [
        ("compareValues", "function"),
        ("loadRemoteRows", "function"),
        ("iterateRows", "generator"),
        ("now", "function-expression"),
        ("clamp", "arrow"),
        ("getSorterConfig", "arrow"),
        ("defaultRenderers.emptyText", "method"),
        ("defaultRenderers.expandIcon", "object-property"),
        ("defaultRenderers.sortIcon", "object-property"),
        ("Table.constructor", "constructor"),
        ("Table.getDerivedStateFromProps", "method"),
        ("Table.scrollLeft", "getter"),
        ("Table.scrollLeft", "setter"),
        ("Table.reload", "method"),
        ("Table.handleSort", "class-property"),
        ("normalizeColumns.fromChildren", "function"),
        ("createFilterPredicate.matchColumn", "function"),
        ("Table.getSortedData.sortLevel", "function"),
    ] {
        assert!(has(q, kind), "{q} ({kind}) missing");
    }
    // Every function's text is exactly its slice of the file.
    let disk = std::fs::read_to_string(common::root().join("corpus/src/components/Table/Table.tsx")).unwrap();
    for f in &index {
        let view = b.set.function("src/components/Table/Table.tsx", &f.qualified, Paging::unlimited()).unwrap();
        assert_eq!(view.text, disk[view.function.start_byte as usize..view.function.end_byte as usize]);
    }
}

#[test]
fn the_build_is_deterministic_on_the_sample() {
    let outs: Vec<_> = ["1", "2"]
        .iter()
        .map(|threads| {
            let out = tempfile::tempdir().unwrap();
            let o = std::process::Command::new(env!("CARGO_BIN_EXE_mydesign-docs"))
                .args(["build", "corpus", "--out", out.path().to_str().unwrap()])
                .current_dir(common::root())
                .env("RAYON_NUM_THREADS", threads)
                .output()
                .unwrap();
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
            (out, String::from_utf8(o.stdout).unwrap())
        })
        .collect();
    assert_eq!(common::tree_bytes(outs[0].0.path()), common::tree_bytes(outs[1].0.path()));
    let summary = outs[0].1.replace(outs[0].0.path().to_str().unwrap(), "[OUT]");
    // The detection report comes first (no config, no preset); the `built` line ends with the elapsed time, which
    // varies.
    let summary: Vec<&str> =
        summary.lines().map(|l| if l.starts_with("built ") { l.rsplit_once(" in ").unwrap().0 } else { l }).collect();
    insta::assert_snapshot!("build_summary", summary.join("\n"));
}

#[test]
fn cli_text_outputs() {
    insta::assert_snapshot!("components", lookup(&["components"]));
    insta::assert_snapshot!("components_zh", lookup(&["components", "--lang", "zh-CN"]));
    insta::assert_snapshot!("doc_table_view", lookup(&["doc", "table"]));
    // (Named "whole" before Button had stories: its 5 stories, kept beside the text, make it served as its view.)
    insta::assert_snapshot!("doc_button_whole", lookup(&["doc", "button", "--lang", "zh-CN"]));
    insta::assert_snapshot!("code_block_table_33", lookup(&["code-block", "table", "33"]));
    insta::assert_snapshot!("changelog_page_2", lookup(&["changelog", "--page", "2"]));
    insta::assert_snapshot!("doc_changelog_6", lookup(&["doc", "changelog-6", "--lang", "zh-CN"]));
    insta::assert_snapshot!("files_table", lookup(&["files", "table"]));
    insta::assert_snapshot!("files_shared", lookup(&["files", "_shared"]));
    insta::assert_snapshot!("file_small_whole", lookup(&["file", "src/components/Tag/Tag.tsx"]));
    insta::assert_snapshot!("file_table_skeleton", lookup(&["file", "src/components/Table/Table.tsx"]));
    insta::assert_snapshot!(
        "function_table_render",
        lookup(&["function", "src/components/Table/Table.tsx", "Table.render"])
    );
    insta::assert_snapshot!(
        "function_getter_setter",
        lookup(&["function", "src/components/Table/Table.tsx", "Table.scrollLeft"])
    );
    // The dumi-style part: demo files referenced by `<code src>`, `{#id}` headings, overloads, a static and an
    // instance method of one name.
    insta::assert_snapshot!("doc_badge_card", lookup(&["doc", "badge", "--detail", "brief"]));
    insta::assert_snapshot!("code_block_badge_demo_3", lookup(&["code-block", "badge", "3"]));
    insta::assert_snapshot!(
        "doc_badge_anchor_zh",
        lookup(&["doc", "badge", "--section", "using-in-typescript", "--lang", "zh-CN"])
    );
    insta::assert_snapshot!(
        "function_badge_overloads",
        lookup(&["function", "src/components/Badge/Badge.tsx", "formatCount"])
    );
    insta::assert_snapshot!(
        "function_badge_static",
        lookup(&["function", "src/components/Badge/Badge.tsx", "BadgeGroup.reset (static)"])
    );
    insta::assert_snapshot!(
        "function_badge_instance",
        lookup(&["function", "src/components/Badge/Badge.tsx", "BadgeGroup.reset"])
    );
}

#[test]
fn cli_json_outputs() {
    let v: serde_json::Value = serde_json::from_str(&lookup(&["code-block", "table", "1", "--json"])).unwrap();
    assert_eq!(v["system"], "my-design");
    assert_eq!(v["version"], "3.4.0");
    assert_eq!(v["index"], 1);
    assert_eq!(v["count"], 33);
    assert!(v["text"].as_str().unwrap().starts_with("```jsx live=true"));
    let v: serde_json::Value = serde_json::from_str(&lookup(&["doc", "table", "--json"])).unwrap();
    assert_eq!(v["hidden"], true);
    assert_eq!(v["lines"], 1444);
    assert!(v["tokens"].as_u64().unwrap() < v["full_tokens"].as_u64().unwrap() / 2);
    let v: serde_json::Value = serde_json::from_str(&lookup(&["changelog", "--json"])).unwrap();
    assert_eq!((v["page"].as_u64(), v["pages"].as_u64(), v["next"].as_u64()), (Some(1), Some(6), Some(2)));
}

#[test]
fn cli_errors_name_what_exists() {
    insta::assert_snapshot!("err_block_34", lookup_err(&["code-block", "table", "34"]));
    insta::assert_snapshot!("err_page_7", lookup_err(&["changelog", "--page", "7"]));
    insta::assert_snapshot!("err_unknown_component", lookup_err(&["doc", "tabel"]));
    insta::assert_snapshot!(
        "err_unknown_function",
        lookup_err(&["function", "src/components/Table/Table.tsx", "rendr"])
    );
    insta::assert_snapshot!(
        "err_ambiguous_function",
        lookup_err(&["function", "src/components/Table/Table.tsx", "render"])
    );
    insta::assert_snapshot!("err_unknown_file", lookup_err(&["file", "Tabel.tsx"]));
    insta::assert_snapshot!(
        "err_ambiguous_badge_reset",
        lookup_err(&["function", "src/components/Badge/Badge.tsx", "reset"])
    );
    insta::assert_snapshot!("err_no_doc_for_spin", lookup_err(&["doc", "spin"]));
}

/// Format 8: a document in another language than the default one is stored with the default language's document
/// as zstd dictionary (what a translation shares with its original is stored once), and still served exactly.
#[test]
fn translated_documents_are_stored_against_their_original_and_served_exactly() {
    let b = common::sample();
    let m = b.set.manifest().unwrap();
    assert_eq!(m.default_lang, "en-US");
    let mut pairs = 0;
    for c in &m.components {
        let bundle = b.set.bundle(&c.bundle).unwrap();
        for d in &c.docs {
            let key = format!("doc/{}", d.lang);
            let expected = if d.lang == "en-US" || c.docs.len() == 1 { None } else { Some("doc/en-US") };
            assert_eq!(bundle.frame_dictionary(&key), expected, "{} {key}", c.name);
            let served = b.set.doc(&c.name, Some(&d.lang), Detail::Full, &[], Paging::unlimited()).unwrap();
            assert_eq!(served.text, std::fs::read_to_string(b.repo.join(&served.path)).unwrap(), "{} {key}", c.name);
            pairs += usize::from(expected.is_some());
        }
    }
    // The sample's zh-CN translations: table, button, select and the others with two documents.
    assert_eq!(pairs, m.components.iter().filter(|c| c.docs.len() == 2).count());
    assert!(pairs >= 3, "{pairs}");
    // Smaller than on its own: the translation of `table` against its original, and compressed alone.
    let table = b.set.bundle("table.bundle").unwrap();
    let stored = table.frame_range("doc/zh-CN").unwrap();
    let text = b.set.doc("table", Some("zh-CN"), Detail::Full, &[], Paging::unlimited()).unwrap().text;
    let alone = mydesign_docs::bundle::writer::Frame::new("doc/zh-CN", text.as_str()).unwrap().len() as u64;
    assert!((stored.end - stored.start) * 3 < alone * 2, "{stored:?}: {alone} bytes alone");
}
