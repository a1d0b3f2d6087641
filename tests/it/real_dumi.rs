//! The compiler and reader on the real antd-mobile input (dumi layout: `src/components/<name>/index.en.md` +
//! `index.zh.md`, demos referenced by `<code src="./demos/demo1.tsx">` and kept in `demos/*.tsx`). Skips, saying
//! why, when the assembled corpus has no `antd-mobile/`.

use crate::common;

use mydesign_docs::read::Paging;
use mydesign_docs::search::Kind;
use mydesign_docs::search::query::SearchOptions;

/// `<code … src=` references in the `index.<lang>.md` documents of `repo`, counted in the files themselves.
fn references(repo: &std::path::Path, lang_file: &str) -> usize {
    let mut n = 0;
    for dir in std::fs::read_dir(repo.join("src/components")).unwrap() {
        let doc = dir.unwrap().path().join(lang_file);
        if let Ok(text) = std::fs::read_to_string(&doc) {
            n += text.matches("<code src=").count();
        }
    }
    n
}

#[test]
fn every_demo_reference_is_a_code_block() {
    let Some(b) = common::antd_mobile() else { return };
    let m = b.set.manifest().unwrap();
    let mut per_lang = [0usize; 2];
    for c in &m.components {
        let meta = b.set.component_meta(&c.name).unwrap().1;
        for d in &meta.docs {
            let demos = d.code_blocks.iter().filter(|b| b.demo.is_some()).count();
            match d.lang.as_str() {
                "en-US" => per_lang[0] += demos,
                "zh-CN" => per_lang[1] += demos,
                other => panic!("unexpected language {other}"),
            }
        }
    }
    assert_eq!(per_lang, [164, 166]);
    assert_eq!(per_lang, [references(&b.repo, "index.en.md"), references(&b.repo, "index.zh.md")]);
    let missing: Vec<_> = b.report.diagnostics.iter().filter(|d| d.message.contains("demo")).collect();
    assert!(missing.is_empty(), "{missing:?}");
}

#[test]
fn button_demo_2_is_served_exactly() {
    let Some(b) = common::antd_mobile() else { return };
    let block = b.set.code_block("button", 2, Some("en-US"), Paging::unlimited()).unwrap();
    let file = std::fs::read_to_string(b.repo.join("src/components/button/demos/demo2.tsx")).unwrap();
    assert_eq!(block.text, file);
    assert_eq!(block.block.lang, "tsx");
    assert_eq!(block.count, 2);
    assert_eq!(block.block.demo.as_ref().unwrap().path, "src/components/button/demos/demo2.tsx");
    // The line of the `<code>` element in the document.
    assert_eq!((block.block.start_line, block.block.end_line), (13, 13));
    // A demo from another component's folder (`../date-picker-view/demos/demo2.tsx`).
    let pv = b.set.component_meta("picker-view").unwrap().1;
    let en = pv.docs.iter().find(|d| d.lang == "en-US").unwrap();
    let paths: Vec<&str> = en.code_blocks.iter().filter_map(|b| b.demo.as_ref()).map(|d| d.path.as_str()).collect();
    assert!(paths.contains(&"src/components/date-picker-view/demos/demo2.tsx"), "{paths:?}");
}

#[test]
fn demo_code_is_found_by_search() {
    let Some(b) = common::antd_mobile() else { return };
    // `SearchOutline` appears in button's demo 2 only within button.
    let opts = SearchOptions { component: Some("button".into()), kind: Some(Kind::Code), ..SearchOptions::default() };
    let view = b.set.search("SearchOutline", &opts).unwrap();
    let hit = view.hits.first().expect("a code hit");
    assert_eq!(hit.follow_up.arguments.get("index").and_then(|v| v.as_u64()), Some(2));
}

#[test]
fn valid_tsx_gives_no_source_warning() {
    let Some(b) = common::antd_mobile() else { return };
    let source: Vec<String> =
        b.report.diagnostics.iter().filter(|d| d.stage == "source" && !d.note).map(|d| d.to_string()).collect();
    assert!(source.is_empty(), "{source:#?}");
    // water-mark's demo 2 has `&` in a JSX attribute string (`…&ixlib=rb-1.2.1&auto=format…`): a note, and its
    // demo function is indexed.
    let note = b.report.diagnostics.iter().find(|d| d.path == "src/components/water-mark/demos/demo2.tsx");
    assert!(note.is_some_and(|d| d.note && d.message.contains("line(s) 14")), "{note:?}");
    let functions = b.set.functions("src/components/water-mark/demos/demo2.tsx").unwrap();
    assert!(!functions.is_empty());
}
