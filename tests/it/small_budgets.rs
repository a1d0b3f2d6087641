//! Answers near the smallest budget (trial "edges2", items 2–5): a search hit's follow-up call serves the lines the
//! hit states, a search of several systems lists its first hit at 300 tokens, errors name the closest names first,
//! and the CLI writes CLI commands.

use crate::common;

use mydesign_docs::read::{BundleSet, Detail, DetailsView, Paging};
use mydesign_docs::render::Render as _;
use mydesign_docs::search::Kind;
use mydesign_docs::search::query::SearchOptions;
use serde_json::Value;

/// A long Chinese question whose first hit is a section of Semi's `table` (zh-CN): at 300 tokens its call named
/// the whole document while the hit stated the section's lines 3130–3259; at 460 it named the section.
const LONG_CJK: &str = "表格 如何 实现 单元格 缩略 以及 可伸缩列 拖拽 排序 的 自定义 渲染";

/// The arguments of a call written `tool(key=JSON, key=JSON, …)`, as an object.
fn call_arguments(call: &str) -> (String, serde_json::Map<String, Value>) {
    let (tool, rest) = call.split_once('(').unwrap_or_else(|| panic!("not a call: {call}"));
    let mut rest = rest.strip_suffix(')').unwrap_or_else(|| panic!("not a call: {call}"));
    let mut args = serde_json::Map::new();
    while !rest.is_empty() {
        let (key, value) = rest.split_once('=').unwrap_or_else(|| panic!("no `=` in {rest} of {call}"));
        let mut values = serde_json::Deserializer::from_str(value).into_iter::<Value>();
        let v = values.next().unwrap_or_else(|| panic!("no value for {key} in {call}")).unwrap();
        args.insert(key.to_string(), v);
        rest = value[values.byte_offset()..].trim_start_matches(", ");
    }
    (tool.to_string(), args)
}

/// The lines `start..=end` (1-based) of `component`'s whole document in `lang`.
fn document_lines(set: &BundleSet, component: &str, lang: Option<&str>, start: u32, end: u32) -> String {
    let DetailsView::Doc(d) = set.details(component, lang, Some(Detail::Full), &[], Paging::unlimited()).unwrap()
    else {
        panic!("not a document")
    };
    d.text.split_inclusive('\n').skip(start as usize - 1).take((end - start + 1) as usize).collect()
}

/// Item 2: at every budget from 300 to 460 (step 20), each document hit listed, its written call run as written,
/// serves exactly the lines the hit states (and as many tokens).
#[test]
fn a_search_hits_call_serves_the_lines_it_states_at_small_budgets() {
    let Some(semi) = common::semi() else { return };
    let set = &semi.set;
    let (mut checked, mut sections) = (0, 0);
    for max in (300..=460).step_by(20) {
        let opts = SearchOptions { max_tokens: Some(max), lang: Some("zh-CN".into()), ..Default::default() };
        let v = set.search(LONG_CJK, &opts).unwrap();
        assert!(v.tokens <= max, "{max}: {}", v.text());
        for h in v.hits.iter().filter(|h| h.kind == Kind::Doc) {
            let (tool, args) = call_arguments(&h.follow_up.call);
            assert_eq!(tool, "component_details", "{max}: {}", h.follow_up.call);
            let names: Vec<String> = args
                .get("sections")
                .and_then(Value::as_array)
                .map(|s| s.iter().map(|s| s.as_str().unwrap().to_string()).collect())
                .unwrap_or_default();
            let (component, lang) = (args["component"].as_str().unwrap(), args.get("lang").and_then(Value::as_str));
            let DetailsView::Doc(d) = set.details(component, lang, None, &names, Paging::unlimited()).unwrap() else {
                panic!("{max}: {} is not a document answer", h.follow_up.call)
            };
            let stated = document_lines(set, component, lang, h.start_line, h.end_line);
            assert_eq!(d.text, stated, "{max}: {} states lines {}–{}", h.follow_up.call, h.start_line, h.end_line);
            assert_eq!(d.total_tokens, h.tokens, "{max}: {}", h.follow_up.call);
            checked += 1;
            sections += usize::from(!names.is_empty());
        }
    }
    // The table section is listed at most of these budgets (its call names it: 3130–3259 is `自定义行或单元格事件以及属性`).
    assert!(checked >= 5 && sections == checked, "{checked} hits checked, {sections} with their sections");
    eprintln!("{checked} hits checked");
}

/// Every part of `query` over `sets` at `max`, following cursors: each within `max` by tiktoken (CLI text, MCP
/// text, compact JSON) and within its stated size; returns the parts' hits.
fn parts(
    sets: &[&BundleSet],
    query: &str,
    max: u32,
    counter: common::Tiktoken,
) -> Vec<Vec<mydesign_docs::search::query::SearchHit>> {
    use mydesign_docs::render::Surface;
    let mut out = Vec::new();
    let mut cursor = None;
    loop {
        let opts = SearchOptions { max_tokens: Some(max), cursor: cursor.clone(), ..Default::default() };
        let v = mydesign_docs::search::query::search_sets(sets, query, &opts).unwrap();
        assert!(v.tokens <= max, "{max}: states {}", v.tokens);
        for (form, text) in [("cli", v.render(Surface::Cli)), ("mcp", v.render(Surface::Mcp)), ("json", v.json())] {
            let real = counter.count(&text);
            assert!(real <= v.tokens, "{max}: {form} is {real} tokens, stated ≤ {}: {text}", v.tokens);
        }
        out.push(v.hits.clone());
        match v.next_cursor {
            Some(c) => cursor = Some(c),
            None => return out,
        }
        assert!(out.len() < 100, "{max}: cursors loop");
    }
}

/// Item 3: a search of two systems (Semi and Blueprint) for a long Chinese question listed no hit at 300 tokens,
/// every part saying "max_tokens 309 lists it" while using ~144 tokens (the reserve held the longest ending any
/// part may write). At 300 and 320 the first part lists the best hit (shortened), every part is within the budget
/// and its stated size, and following the cursors lists every hit once, in the order of an unlimited search.
#[test]
fn a_search_of_two_systems_lists_its_first_hit_at_300_tokens() {
    use mydesign_docs::read::Library;
    use mydesign_docs::search::query::{search_sets, sets_to_search};
    let (Some(semi), Some(bp)) = (common::semi(), common::blueprint()) else { return };
    let library = Library::scan(&[semi.report.dir.clone(), bp.report.dir.clone()]).unwrap();
    let sets = sets_to_search(&library, None, None).unwrap().sets;
    let sets: Vec<&BundleSet> = sets.iter().map(|s| &**s).collect();
    let counter = common::Tiktoken::new("o200k_base");
    for query in ["树形 数据 展示 如何 展开 全部 行", "表格 固定列 和 表头 如何 同时 使用"] {
        let all = parts(&sets, query, 1_000_000, counter).concat();
        let total = search_sets(&sets, query, &SearchOptions::default()).unwrap().total as usize;
        assert!(all.len() == total && total > 3, "{query}: {} hits of {total}", all.len());
        for max in [300, 320] {
            let parts = parts(&sets, query, max, counter);
            assert!(!parts[0].is_empty(), "{query} at {max}: the first part lists no hit");
            let listed: Vec<_> = parts.concat();
            assert_eq!(listed.len(), all.len(), "{query} at {max}: every hit once");
            for (h, a) in listed.iter().zip(&all) {
                assert_eq!((&h.system, &h.document, h.score), (&a.system, &a.document, a.score), "{query} at {max}");
                // A shortened hit states the lines of the one section its call names, inside the whole hit's.
                assert!(a.start_line <= h.start_line && h.end_line <= a.end_line, "{query} at {max}");
            }
            assert_eq!(listed[0].system.as_deref(), Some("semi"), "{query} at {max}");
        }
    }
}

/// The CLI's error message (stderr without `error: `) of `args` on the set in `dir`, at 300 tokens.
fn error_at_300(dir: &std::path::Path, args: &[&str]) -> String {
    let bundles = dir.to_str().unwrap();
    let err = common::fails(dir, &[args, &["--bundles", bundles, "--max-tokens", "300"][..]].concat());
    err.trim_end().strip_prefix("error: ").unwrap_or_else(|| panic!("{args:?}: {err}")).to_string()
}

/// Item 4: an unknown name's error at 300 tokens names the nearest names first, before the byte bound cuts the
/// list: a component one letter swapped, a section one letter short, a function one letter off, a language; and a
/// very long wrong name is echoed shortened (80 characters with `…`).
#[test]
fn errors_at_300_tokens_name_the_nearest_names_first() {
    let Some(semi) = common::semi() else { return };
    let dir = &semi.report.dir;
    let err = error_at_300(dir, &["doc", "tabel"]);
    assert!(err.starts_with("unknown component `tabel` in semi 2.90.10; did you mean: table, "), "{err}");
    let err = error_at_300(dir, &["code-block", "tabel", "3"]);
    assert!(err.starts_with("unknown component `tabel` in semi 2.90.10; did you mean: table, "), "{err}");
    // No name close enough to suggest: the nearest of the first names listed.
    let err = error_at_300(dir, &["doc", "tooltipz-popover-x"]);
    assert!(err.contains("components: popover, tooltip, "), "{err}");
    // The English table has four sections with the word `Filter`; one of them first.
    let err = error_at_300(dir, &["doc", "table", "--section", "filtr", "--lang", "en-US"]);
    let listed = err.split_once("its sections (tokens): ").unwrap_or_else(|| panic!("{err}")).1;
    assert!(
        listed.starts_with("Filter Confirm Mode (filter-confirm-mode) ") || listed.starts_with("Custom Filter"),
        "{err}"
    );
    let err = error_at_300(dir, &["doc", "table", "--section", "rowselectoin"]);
    let listed = err.split_once("its sections (tokens): ").unwrap_or_else(|| panic!("{err}")).1;
    assert!(listed.starts_with("rowSelection (rowselection) "), "{err}");
    let path = "packages/semi-foundation/table/foundation.ts";
    let err = error_at_300(dir, &["function", path, "handleSrot"]);
    assert!(
        err.starts_with(&format!("no function `handleSrot` in `{path}`; did you mean: TableFoundation.handleSort, ")),
        "{err}"
    );
    let err = error_at_300(dir, &["file", "packages/semi-foundation/table/foundaton.ts"]);
    assert!(err.contains(&format!("did you mean: {path}")), "{err}");
    // Trial 4: a long message kept no name at all at 300 ("did you mean: … 8 more"): the nearest stays, the call
    // that lists them all gives way first.
    let err = error_at_300(dir, &["function", path, "TableFoundation.filterDataSourc"]);
    assert!(err.contains("did you mean: TableFoundation.filterDataSource"), "{err}");
    // Trial 5: a typo at the end of a qualified name listed the prefix `TableFoundation.init` first.
    let err = error_at_300(dir, &["function", path, "TableFoundation.initSorterOrdr"]);
    assert!(err.contains("did you mean: TableFoundation.initSorterOrder"), "{err}");
    // A path one folder off names the right file first (it listed other `utils.ts` files, alphabetically); with a
    // leading `/` the path is the repository's, as with `./`.
    let utils = "packages/semi-foundation/table/utils.ts";
    let err = error_at_300(dir, &["file", "packages/semi-foundation/tabel/utils.ts"]);
    assert!(err.contains(&format!("did you mean: {utils}")), "{err}");
    let bundles = dir.to_str().unwrap();
    let out = common::ok(dir, &["file", &format!("/{utils}"), "--bundles", bundles, "--json"]);
    assert!(out.contains(&format!("\"path\":\"{utils}\"")), "{out}");
    let err = error_at_300(dir, &["doc", "table", "--lang", "cn"]);
    assert!(err.ends_with("available: zh-CN, en-US"), "{err}");
    let err = error_at_300(dir, &["search", "table", "--lang", "zh-TW"]);
    assert!(err.ends_with("languages: zh-CN, en-US"), "{err}");
    // A wrong name of 300 characters: echoed as its first 79 and `…` (at 300 tokens the message is then cut in
    // the middle, naming the budget that shows it whole: 390, with the command that lists the components).
    let long = format!("tabel{}", "x".repeat(295));
    let err = error_at_300(dir, &["doc", &long]);
    assert!(err.contains("(cut to fit --max-tokens 300; --max-tokens 390 shows the whole message)"), "{err}");
    let bundles = dir.to_str().unwrap();
    let err = common::fails(dir, &["doc", &long, "--bundles", bundles, "--max-tokens", "390"]);
    let echoed =
        format!("error: unknown component `tabel{}…` in semi 2.90.10; it has 101 components: ", "x".repeat(74));
    assert!(err.starts_with(&echoed) && !err.contains("cut to fit"), "{err}");
}

/// The MCP tools' names: a CLI text answer writes none of them as a call.
const TOOLS: &[&str] = &[
    "list_components(",
    "component_details(",
    "get_code_block(",
    "get_changelog(",
    "component_changes(",
    "get_file_code(",
    "get_function_code(",
    "search_docs(",
];

/// Item 5: at small budgets the CLI printed a search hit's follow-up in its MCP form (`component_details(…)`),
/// the shortest levels having left the command line out. On Semi (and Semi with Blueprint), at 300 to 460 tokens,
/// every CLI text answer of search and doc writes its calls as command lines, each of which runs.
#[test]
fn cli_text_answers_write_cli_commands_at_small_budgets() {
    let (Some(semi), Some(bp)) = (common::semi(), common::blueprint()) else { return };
    // Both systems in one directory, as the trial had them.
    let both = tempfile::tempdir().unwrap();
    for set in [&semi.report.dir, &bp.report.dir] {
        std::os::unix::fs::symlink(set, both.path().join(set.file_name().unwrap())).unwrap();
    }
    let (one, two) = (semi.report.dir.to_str().unwrap(), both.path().to_str().unwrap());
    let mut commands = 0;
    for max in (300..=460).step_by(40) {
        let max = max.to_string();
        let mut runs: Vec<Vec<&str>> = vec![
            vec!["doc", "table", "--bundles", one],
            vec!["doc", "table", "--detail", "brief", "--bundles", one],
            vec!["doc", "table", "--section", "props", "--bundles", one],
            vec!["doc", "table", "--lang", "en-US", "--bundles", one],
        ];
        for q in [LONG_CJK, "树形 数据 展示 如何 展开 全部 行"] {
            let words: Vec<&str> = q.split(' ').collect();
            runs.push([&["search"][..], &words, &["--bundles", one]].concat());
            runs.push([&["search"][..], &words, &["--bundles", two]].concat());
        }
        for args in runs {
            let run = common::run(both.path(), &[&args[..], &["--max-tokens", &max]].concat());
            let err = String::from_utf8_lossy(&run.stderr);
            if !run.status.success() {
                // The set's names and the directory leave no room at this budget: said, with the budget to ask.
                assert!(
                    err.contains(" is too small for ") && err.contains("; ask for --max-tokens "),
                    "{args:?}: {err}"
                );
                continue;
            }
            let text = String::from_utf8(run.stdout).unwrap();
            for tool in TOOLS {
                assert!(!text.contains(tool), "{args:?} at {max}: an MCP call in the CLI's text: {text}");
            }
            for line in text.lines().filter(|l| l.starts_with("→ ")) {
                let command = line.strip_prefix("→ ").unwrap();
                assert!(command.starts_with("mydesign-docs "), "{args:?} at {max}: {line}");
                // Run as printed, by a shell, with the binary on PATH.
                let bin = std::path::Path::new(env!("CARGO_BIN_EXE_mydesign-docs")).parent().unwrap().to_path_buf();
                let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
                let out = std::process::Command::new("sh")
                    .arg("-c")
                    .arg(command)
                    .current_dir(both.path())
                    .env("PATH", path)
                    .output()
                    .unwrap();
                assert!(out.status.success(), "{command}: {}", String::from_utf8_lossy(&out.stderr));
                commands += 1;
            }
        }
    }
    assert!(commands >= 15, "{commands} follow-up commands run");
}

/// Trial 4: `changelog --component table --since 2.85.0` at 400 tokens served its one 217-byte row in pieces
/// ("row 1 alone is over the budget", then "[rows 1–1 of 1; 0 left; continue with …]") while the whole answer
/// states ≤ 398 tokens: a first part that fits whole by its stated bound is served whole, and is within it.
#[test]
fn a_changes_list_that_fits_whole_is_not_cut_into_pieces() {
    let Some(semi) = common::semi() else { return };
    let dir = &semi.report.dir;
    let bundles = dir.to_str().unwrap();
    let counter = common::Tiktoken::new("o200k_base");
    for json in [false, true] {
        let mut args = vec!["changelog", "--component", "table", "--since", "2.85.0", "--bundles", bundles];
        args.extend(["--max-tokens", "400"]);
        if json {
            args.push("--json");
        }
        let out = common::ok(dir, &args);
        assert!(!out.contains("alone is over the budget") && !out.contains("--cursor"), "{out}");
        assert!(out.contains("2.90.0-beta.0"), "{out}");
        assert!(counter.count(&out) <= 400, "{} tokens: {out}", counter.count(&out));
    }
}
