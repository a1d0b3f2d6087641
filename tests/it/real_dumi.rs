//! The compiler and reader on the real antd-mobile input (dumi layout: `src/components/<name>/index.en.md` +
//! `index.zh.md`, demos referenced by `<code src="./demos/demo1.tsx">` and kept in `demos/*.tsx`). Skips, saying
//! why, when the assembled corpus has no `antd-mobile/`.

use crate::common;

use mydesign_docs::compile::Stage;
use mydesign_docs::read::{Detail, Paging};
use mydesign_docs::search::Kind;
use mydesign_docs::search::query::SearchOptions;

/// `<code … src=` references in the documents of language `tag` (`en`, `zh`) of `repo`, counted in the files
/// themselves: `<name>/index.<tag>.md`, or `<name>/<name>.<tag>.md` (calendar and 3 others).
fn references(repo: &std::path::Path, tag: &str) -> usize {
    let mut n = 0;
    for dir in std::fs::read_dir(repo.join("src/components")).unwrap() {
        let dir = dir.unwrap().path();
        let name = dir.file_name().unwrap().to_string_lossy().to_string();
        for file in [format!("index.{tag}.md"), format!("{name}.{tag}.md")] {
            if let Ok(text) = std::fs::read_to_string(dir.join(file)) {
                n += text.matches("<code src=").count();
            }
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
    // 164 + 166 in the `index.<lang>.md` documents, 13 + 13 in the 4 `<name>.<lang>.md` ones (trial item 4).
    assert_eq!(per_lang, [177, 179]);
    assert_eq!(per_lang, [references(&b.repo, "en"), references(&b.repo, "zh")]);
    let missing: Vec<_> = b.report.diagnostics.iter().filter(|d| d.message.contains("demo")).collect();
    assert!(missing.is_empty(), "{missing:?}");
}

#[test]
fn button_demo_2_is_served_exactly() {
    let Some(b) = common::antd_mobile() else { return };
    let block = b.set.code_block("button", 2, Some("en-US"), Paging::unlimited()).unwrap();
    let file = std::fs::read_to_string(b.repo.join("src/components/button/demos/demo2.tsx")).unwrap();
    // Fenced with its language, as every code block is served (new-user trial).
    assert_eq!(block.text, format!("```tsx\n{file}```"));
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
fn a_demo_hit_shows_the_demo_code_with_its_served_tokens() {
    // Trial (walk item 2): `search button disabled loading` listed first `code tsx · button · … lines 13–13 · 13
    // tokens` with the text `<code src="./demos/demo2.tsx"></code>`; its `code-block button 2` served 325 tokens.
    let Some(b) = common::antd_mobile() else { return };
    let opts = SearchOptions { max_tokens: Some(20_000), ..SearchOptions::default() };
    let view = b.set.search("button disabled loading", &opts).unwrap();
    let hit = view.hits.first().expect("a hit");
    assert_eq!(hit.kind, Kind::Code);
    assert_eq!(hit.component.as_deref(), Some("button"));
    assert_eq!(hit.follow_up.arguments.get("index").and_then(|v| v.as_u64()), Some(2));
    let lang = hit.lang.as_deref();
    let block = b.set.code_block("button", 2, lang, Paging::unlimited()).unwrap();
    let file = std::fs::read_to_string(b.repo.join("src/components/button/demos/demo2.tsx")).unwrap();
    assert_eq!(block.text, format!("```tsx\n{file}```"));
    assert_eq!(hit.text.as_deref(), Some(block.text.as_str()));
    assert_eq!(hit.tokens, common::Tiktoken::new("o200k_base").count(&block.text));
    assert_eq!(hit.tokens, block.block.tokens);
    assert_eq!(hit.tokens, 325);
    assert_eq!((hit.start_line, hit.end_line), (13, 13));
}

#[test]
fn valid_tsx_gives_no_source_warning() {
    let Some(b) = common::antd_mobile() else { return };
    let source: Vec<String> =
        b.report.diagnostics.iter().filter(|d| d.stage == Stage::Source && !d.note).map(|d| d.to_string()).collect();
    assert!(source.is_empty(), "{source:#?}");
    // water-mark's demo 2 has `&` in a JSX attribute string (`…&ixlib=rb-1.2.1&auto=format…`): a note, and its
    // demo function is indexed.
    let note = b.report.diagnostics.iter().find(|d| d.path == "src/components/water-mark/demos/demo2.tsx");
    assert!(note.is_some_and(|d| d.note && d.message.contains("line(s) 14")), "{note:?}");
    let functions = b.set.functions("src/components/water-mark/demos/demo2.tsx").unwrap();
    assert!(!functions.is_empty());
}

/// The titles of the sections of level 1 and 2 of `component`'s document in `lang`, and the document's path.
fn outline(b: &common::Built, component: &str, lang: &str) -> (String, Vec<String>) {
    let meta = b.set.component_meta(component).unwrap().1;
    let doc = meta.docs.iter().find(|d| d.lang == lang).unwrap_or_else(|| panic!("{component} has no {lang} document"));
    (doc.path.clone(), doc.sections.iter().filter(|s| s.level <= 2).map(|s| s.title.clone()).collect())
}

#[test]
fn documents_named_after_their_component_are_documents_in_both_languages() {
    // Trial item 4: `calendar/calendar.en.md` beside the `index.en.md` of the other 72 folders.
    let Some(b) = common::antd_mobile() else { return };
    let expected: [(&str, [&str; 4], [&str; 4]); 4] = [
        (
            "calendar",
            ["Calendar", "When to Use", "Demos", "Calendar"],
            ["Calendar 日历", "何时使用", "示例", "Calendar"],
        ),
        (
            "calendar-picker",
            ["CalendarPicker", "When to Use", "Demos", "CalendarPicker"],
            ["CalendarPicker 日历选择器", "何时使用", "示例", "CalendarPicker"],
        ),
        (
            "calendar-picker-view",
            ["CalendarPickerView", "Demos", "CalendarPickerView", ""],
            ["CalendarPickerView 日历选择器视图", "示例", "CalendarPickerView", ""],
        ),
        (
            "skeleton",
            ["Skeleton", "When to Use", "Demos", "Skeleton"],
            ["Skeleton 骨架屏", "何时使用", "示例", "Skeleton"],
        ),
    ];
    for (name, en, zh) in expected {
        for (lang, tag, titles) in [("en-US", "en", en), ("zh-CN", "zh", zh)] {
            let (path, got) = outline(b, name, lang);
            assert_eq!(path, format!("src/components/{name}/{name}.{tag}.md"));
            let want: Vec<&str> = titles.iter().copied().filter(|t| !t.is_empty()).collect();
            assert_eq!(got[..want.len()], want[..], "{name} {lang}: {got:?}");
        }
    }
    // Skeleton's sub-components are sections of its document.
    let (_, got) = outline(b, "skeleton", "en-US");
    assert_eq!(got[4..], ["Skeleton.Title", "Skeleton.Paragraph"]);
    // No Markdown file of a component folder is left unused, and nothing says so.
    let unused: Vec<_> = b.report.diagnostics.iter().filter(|d| d.message.contains("not a document")).collect();
    assert!(unused.is_empty(), "{unused:?}");
}

#[test]
fn an_empty_demo_element_is_a_numbered_block_in_the_view() {
    // Trial item 5: swipe-action's only demo, `<code src="./demos/demo1.tsx"></code>` in a 49-line document.
    let Some(b) = common::antd_mobile() else { return };
    let block = b.set.code_block("swipe-action", 1, Some("en-US"), Paging::unlimited()).unwrap();
    let file = std::fs::read_to_string(b.repo.join("src/components/swipe-action/demos/demo1.tsx")).unwrap();
    assert_eq!(block.text, format!("```tsx\n{file}```"));
    assert_eq!(block.count, 1);
    // 685 tokens of code, 4 of fences.
    assert_eq!(block.block.tokens, 689);
    assert_eq!(block.block.demo.as_ref().unwrap().path, "src/components/swipe-action/demos/demo1.tsx");
    let view = b.set.doc("swipe-action", Some("en-US"), Detail::Normal, &[], Paging::unlimited()).unwrap();
    assert_eq!(view.lines, 49);
    assert!(view.hidden);
    assert!(
        view.text.contains("## Demos\n\n[code block #1 hidden: tsx, 689 tokens, demo]\n\n## SwipeAction"),
        "{}",
        view.text
    );
    assert!(!view.text.contains("<code src="), "{}", view.text);
    let header = mydesign_docs::render::Render::render(&view, mydesign_docs::render::Surface::Cli);
    assert!(header.contains("1 code block hidden (demo code is in its own files)"), "{header}");
    // The whole document still has the element as written.
    let full = b.set.doc("swipe-action", Some("en-US"), Detail::Full, &[], Paging::unlimited()).unwrap();
    assert!(full.text.contains("<code src=\"./demos/demo1.tsx\"></code>"));
}

#[test]
fn markdown_outside_the_components_is_reported_as_unused_with_its_count() {
    // New-user trial: antd-mobile's `docs/guide/*.md` (28 files, both languages) and `docs/*.md` (6) were ignored
    // without a word.
    let Some(b) = common::antd_mobile() else { return };
    let unread: Vec<(&str, usize)> = b
        .report
        .diagnostics
        .iter()
        .filter_map(|d| Some((d.path.as_str(), mydesign_docs::compile::layout::unread_markdown_count(d)?)))
        .collect();
    assert_eq!(unread, [("./", 1), ("docs/", 6), ("docs/guide/", 28)]);
    let guide = b.report.diagnostics.iter().find(|d| d.path == "docs/guide/").unwrap();
    assert!(guide.note);
    assert!(
        guide.message.starts_with(
            "28 Markdown files not used: no [[docs]] rule, changelog or source pattern takes them (css-variables.en.md, \
             css-variables.zh.md, dark-mode.en.md, dark-mode.zh.md, … (24 more))"
        ),
        "{}",
        guide.message
    );
}

#[test]
fn a_demo_cut_by_the_budget_closes_and_reopens_its_fence() {
    // New-user trial: `code-block button 2 --max-tokens 300` printed the demo without fences, and its first part
    // ended with a stray closing fence. 330 tokens: antd-mobile's names (`5.42.4-alpha.0`, …) leave too little room
    // at 300, which is refused (`sweep::antd_mobile_documents_hidden_for_demos_fit_every_budget_near_the_minimum`).
    let Some(b) = common::antd_mobile() else { return };
    let file = std::fs::read_to_string(b.repo.join("src/components/button/demos/demo2.tsx")).unwrap();
    let budget = mydesign_docs::budget::Budget::new(10_000, Some(330)).unwrap();
    let (mut cursor, mut joined, mut parts) = (None::<String>, String::new(), 0);
    loop {
        let paging = Paging { budget, cursor: cursor.as_deref() };
        let part = b.set.code_block("button", 2, Some("en-US"), paging).unwrap();
        let shown = mydesign_docs::render::Render::render(&part, mydesign_docs::render::Surface::Cli);
        let fences = shown.lines().filter(|l| l.starts_with("```")).count();
        assert_eq!(fences % 2, 0, "part {parts}: unbalanced fences\n{shown}");
        let first_fence = shown.lines().find(|l| l.starts_with("```"));
        assert_eq!(first_fence, Some("```tsx"), "part {parts} opens (or reopens) the tsx fence\n{shown}");
        joined.push_str(&part.text);
        parts += 1;
        match part.next_cursor {
            Some(c) => cursor = Some(c),
            None => break,
        }
    }
    assert!(parts > 1, "the budget cuts the demo ({parts} part)");
    assert_eq!(joined, format!("```tsx\n{file}```"));
}

#[test]
fn props_serves_the_props_tables_the_card_advertises_even_beside_a_props_heading() {
    // New-user trial: antd-mobile's documents have a `### Props` heading; `--section props` served that section
    // alone, not the three tables the card lists under "props".
    let Some(b) = common::antd_mobile() else { return };
    let sections = |s: &[&str]| s.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let card = b.set.card("button", Some("en-US"), Paging::unlimited()).unwrap();
    assert!(
        card.text.contains(
            "\n## Props tables: Props (11), CSS Variables (6), Ref (1) (section \"props\"; the heading: section \
             \"Button › Props\")\n"
        ),
        "{}",
        card.text
    );
    let advertised: Vec<String> = card.props.iter().map(|(n, _)| n.clone()).collect();
    for asked in ["props", "Props", " PROPS "] {
        let v = b.set.details("button", Some("en-US"), None, &sections(&[asked]), Paging::unlimited()).unwrap();
        let mydesign_docs::read::DetailsView::Props(p) = v else { panic!("{asked}: not the props tables") };
        let served: Vec<String> = p.props.iter().map(|t| t.name.clone()).collect();
        assert_eq!(served, advertised, "{asked}");
        assert_eq!((p.tables_total, p.props_total), (3, 18));
    }
    // The heading itself, by its path, or beside another heading.
    let doc = |s: &[&str]| match b.set.details("button", Some("en-US"), None, &sections(s), Paging::unlimited()) {
        Ok(mydesign_docs::read::DetailsView::Doc(d)) => (d.part.lines, d.sections),
        other => panic!("{s:?}: {other:?}"),
    };
    assert_eq!(doc(&["Button › Props"]), ((17, 34), vec!["Props".to_string()]));
    assert_eq!(doc(&["Props", "CSS Variables"]), ((17, 45), vec!["Props".to_string(), "CSS Variables".to_string()]));
    // zh-CN: the heading is 属性, and `props` was the tables already.
    let v = b.set.details("button", Some("zh-CN"), None, &sections(&["props"]), Paging::unlimited()).unwrap();
    assert!(matches!(v, mydesign_docs::read::DetailsView::Props(ref p) if p.tables_total == 3), "{v:?}");
}

/// A new user's trial: `doc button --section props --json --max-tokens 420` answered `"props": []` in every part,
/// the tables being longer than a part; the rows were only in the text. A part now lists the rows it shows, in
/// their tables: following the cursors lists every prop once, each in its part's text. (At 420 a part is a row or
/// two, whose structured copy does not fit beside its text: those parts list none.)
#[test]
fn props_cut_by_the_budget_list_the_rows_each_part_shows() {
    let Some(b) = common::antd_mobile() else { return };
    let whole = b.set.props("button", Some("en-US"), Paging::unlimited()).unwrap();
    let all: Vec<(String, String)> =
        whole.props.iter().flat_map(|t| t.props.iter().map(|p| (t.name.clone(), p.name.clone()))).collect();
    assert_eq!(all.len(), 18);
    for max in [600, 1_000] {
        let budget = mydesign_docs::budget::Budget::new(10_000, Some(max)).unwrap();
        let (mut cursor, mut listed, mut parts) = (None::<String>, Vec::new(), 0);
        loop {
            let part = b.set.props("button", Some("en-US"), Paging { budget, cursor: cursor.as_deref() }).unwrap();
            for t in &part.props {
                for p in &t.props {
                    assert!(
                        part.text.contains(&format!("| {}", p.name)),
                        "{max}, part {parts}: {} not in its text",
                        p.name
                    );
                    listed.push((t.name.clone(), p.name.clone()));
                }
            }
            parts += 1;
            match part.next_cursor {
                Some(c) => cursor = Some(c),
                None => break,
            }
        }
        assert!(parts > 1, "{max}: cut");
        assert_eq!(listed, all, "{max}: every prop once, in order");
    }
}
