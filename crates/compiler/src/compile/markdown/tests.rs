//! Documents cut into sections, code blocks, tables and front matter; the real inputs' documents.

use super::*;
use crate::view::placeholder_view;

fn block_text<'t>(text: &'t str, b: &CodeBlock) -> &'t str {
    &text[b.start_byte as usize..b.end_byte as usize]
}

fn section_text<'t>(text: &'t str, s: &Section) -> &'t str {
    &text[s.start_byte as usize..s.end_byte as usize]
}

#[test]
fn fences_of_every_kind() {
    let text = "# Kinds\n\n```js x=1\na\n```\n\n~~~ py\nb\n~~~\n\n````md\n```\nc\n```\n````\n";
    let doc = parse(text);
    let got: Vec<_> =
        doc.code_blocks.iter().map(|b| (b.index, b.info.as_str(), b.lang.as_str(), b.start_line, b.end_line)).collect();
    assert_eq!(got, [(1, "js x=1", "js", 3, 5), (2, "py", "py", 7, 9), (3, "md", "md", 11, 15)]);
    assert_eq!(block_text(text, &doc.code_blocks[0]), "```js x=1\na\n```");
    assert_eq!(block_text(text, &doc.code_blocks[1]), "~~~ py\nb\n~~~");
    assert_eq!(block_text(text, &doc.code_blocks[2]), "````md\n```\nc\n```\n````");
    assert_eq!(doc.code_blocks[0].start_byte, 9);
    assert_eq!(doc.code_blocks[0].end_byte, 24);
    assert_eq!(doc.code_blocks[0].heading.as_deref(), Some("Kinds"));
    assert_eq!(doc.lines, 16);
}

#[test]
fn demo_elements_are_code_blocks_in_document_order() {
    let text = "# Button\n\n```js\nfirst();\n```\n\n## Demos\n\n<code src=\"./demo/basic.tsx\">Basic usage</code>\n\n\
                    <code src='./demo/a.tsx' title=\"Sizes\" description=\"Three sizes\" /> <code src=\"./demo/b.jsx\" debug></code>\n\n\
                    `<code src=\"./demo/inline.tsx\">` is how.\n\n<!-- <code src=\"./demo/hidden.tsx\"/> -->\n\n```html\n<code src=\"x.tsx\"></code>\n```\n\n<code>plain</code>\n";
    let doc = parse(text);
    let got: Vec<_> = doc
        .code_blocks
        .iter()
        .map(|b| (b.index, b.lang.as_str(), b.start_line, b.end_line, b.demo_tag.as_ref().map(|d| d.src.as_str())))
        .collect();
    assert_eq!(
        got,
        [
            (1, "js", 3, 5, None),
            (2, "tsx", 9, 9, Some("./demo/basic.tsx")),
            (3, "tsx", 11, 11, Some("./demo/a.tsx")),
            (4, "jsx", 11, 11, Some("./demo/b.jsx")),
            (5, "html", 17, 19, None),
        ]
    );
    let d = |i: usize| doc.code_blocks[i].demo_tag.clone().unwrap();
    assert_eq!(d(1).title.as_deref(), Some("Basic usage"));
    assert_eq!(
        (d(2).title.as_deref(), d(2).description.as_deref(), d(2).debug),
        (Some("Sizes"), Some("Three sizes"), false)
    );
    assert_eq!((d(3).title, d(3).debug), (None, true));
    assert_eq!(block_text(text, &doc.code_blocks[1]), "<code src=\"./demo/basic.tsx\">Basic usage</code>");
    assert_eq!(block_text(text, &doc.code_blocks[3]), "<code src=\"./demo/b.jsx\" debug></code>");
    assert_eq!(doc.code_blocks[1].heading.as_deref(), Some("Demos"));
}

#[test]
fn explicit_heading_anchors_are_stripped_and_become_the_slug() {
    let text = "# Button\n\n## Using in TypeScript {#using-in-typescript}\n\n### 在 TypeScript 中使用 {#ts-zh .unnumbered}\n\n\
                    ## Sets {#}\n\n## Using in TypeScript {#using-in-typescript}\n\n## Code `{#x}` here\n";
    let doc = parse(text);
    let got: Vec<_> = doc.sections.iter().map(|s| (s.title.as_str(), s.slug.as_str())).collect();
    assert_eq!(
        got,
        [
            ("Button", "button"),
            ("Using in TypeScript", "using-in-typescript"),
            ("在 TypeScript 中使用", "ts-zh"),
            ("Sets {#}", "sets-"),
            ("Using in TypeScript", "using-in-typescript-1"),
            ("Code {#x} here", "code-x-here"),
        ]
    );
}

#[test]
fn indented_code_is_not_a_code_block() {
    let doc = parse("para\n\n    ```js\n    indented\n    ```\n");
    assert!(doc.code_blocks.is_empty());
}

#[test]
fn fence_in_html_comment_and_inline_backticks_are_not_blocks() {
    let text = "Use ```js``` inline.\n\n<!--\n```material\n1,2\n```\n-->\n\n```jsx\nok\n```\n";
    let doc = parse(text);
    assert_eq!(doc.code_blocks.len(), 1);
    assert_eq!(doc.code_blocks[0].start_line, 9);
    assert_eq!(doc.code_blocks[0].info, "jsx");
}

#[test]
fn fences_in_list_items_and_block_quotes() {
    let text = "- item\n\n  ```js\n  x\n  ```\n- ```\n  y\n  ```\n\n> ```ts\n> z\n> ```\n";
    let doc = parse(text);
    let got: Vec<_> = doc.code_blocks.iter().map(|b| (b.start_line, b.end_line, block_text(text, b))).collect();
    assert_eq!(got, [(3, 5, "  ```js\n  x\n  ```"), (6, 8, "- ```\n  y\n  ```"), (10, 12, "> ```ts\n> z\n> ```"),]);
}

#[test]
fn unclosed_fence_at_eof() {
    let text = "# T\n```js\ncode\n";
    let doc = parse(text);
    let b = &doc.code_blocks[0];
    assert_eq!((b.start_line, b.end_line, doc.lines), (2, 3, 4));
    assert_eq!(block_text(text, b), "```js\ncode");

    let text = "```js\ncode";
    let b = &parse(text).code_blocks[0];
    assert_eq!((b.start_line, b.end_line), (1, 2));
    assert_eq!(block_text(text, b), text);

    let b = &parse("```").code_blocks[0];
    assert_eq!((b.start_line, b.end_line, b.start_byte, b.end_byte), (1, 1, 0, 3));

    // An unclosed fence in a block quote ends with the quote.
    let text = "> ```js\n> x\n\nafter\n";
    let b = &parse(text).code_blocks[0];
    assert_eq!((b.start_line, b.end_line), (1, 2));
    assert_eq!(block_text(text, b), "> ```js\n> x");
}

#[test]
fn crlf_line_endings() {
    let text = "---\r\ntitle: T\r\n---\r\n# H\r\n\r\n```js\r\nx\r\n```\r\nend\r\n";
    let doc = parse(text);
    assert_eq!(doc.lines, 10);
    assert_eq!(doc.front_matter, [("title".to_owned(), "T".to_owned())]);
    let b = &doc.code_blocks[0];
    assert_eq!((b.start_line, b.end_line), (6, 8));
    assert_eq!(block_text(text, b), "```js\r\nx\r\n```");
    let s = &doc.sections[0];
    assert_eq!((s.start_line, s.end_line), (4, 10));
    assert_eq!(section_text(text, s), "# H\r\n\r\n```js\r\nx\r\n```\r\nend\r\n");
}

#[test]
fn lone_carriage_returns_map_onto_newline_lines() {
    // comrak ends lines at a lone '\r'; our lines are split('\n').
    let text = "a\rb\n\n```js\rx\r```\n# H\n";
    let doc = parse(text);
    let b = &doc.code_blocks[0];
    assert_eq!((b.start_line, b.end_line), (3, 3));
    assert_eq!(block_text(text, b), "```js\rx\r```");
    assert_eq!(doc.sections[0].start_line, 4);
}

#[test]
fn front_matter_fields_title_and_brief() {
    let text = "---\ntitle: 'Table 表格'\norder: 81 # sort key\nbrief: \"say \\\"hi\\\"\"\nnested:\n  a: 1\ntags:\n  - x\nbody: |\n  long\nurl: http://x.y/z\n---\n\n# Other\n\nFirst para.\n";
    let doc = parse(text);
    let fm: Vec<(&str, &str)> = doc.front_matter.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    assert_eq!(fm, [("title", "Table 表格"), ("order", "81"), ("brief", "say \"hi\""), ("url", "http://x.y/z"),]);
    assert_eq!(doc.title.as_deref(), Some("Table 表格"));
    assert_eq!(doc.brief.as_deref(), Some("say \"hi\""));
    // Front matter shifts nothing: line numbers count from the top of the file.
    assert_eq!(doc.sections[0].start_line, 14);
    assert_eq!(doc.sections[0].start_byte, 132);
}

#[test]
fn title_and_brief_fall_back_to_the_body() {
    let text = "import { X } from \"y\";\n\n@reactExample XExample\n\n# Alert <Badge/>\n\n**Alerts** notify `users`\nof things.\n";
    let doc = parse(text);
    assert!(doc.front_matter.is_empty());
    assert_eq!(doc.title.as_deref(), Some("Alert"));
    assert_eq!(doc.brief.as_deref(), Some("Alerts notify users of things."));

    let doc = parse("---\ndescription: D\n---\nP\n");
    assert_eq!((doc.title, doc.brief.as_deref()), (None, Some("D")));

    let long = "字".repeat(300);
    let brief = parse(&long).brief.unwrap();
    assert_eq!(brief.chars().count(), 200);
    assert!(brief.ends_with("字…"));
    let words = "word ".repeat(60);
    let brief = parse(&words).brief.unwrap();
    assert!(brief.ends_with("word…") && brief.chars().count() <= 200, "{brief}");
}

#[test]
fn setext_headings_and_section_ranges() {
    let text = "Title\nmore\n===\n\nintro\n\nSub\n---\n\nbody\n\n### Deep\n\nx\n\nSub 2\n---\n";
    let doc = parse(text);
    let got: Vec<_> =
        doc.sections.iter().map(|s| (s.level, s.title.as_str(), s.slug.as_str(), s.start_line, s.end_line)).collect();
    assert_eq!(
        got,
        [
            (1, "Title more", "title-more", 1, 18),
            (2, "Sub", "sub", 7, 15),
            (3, "Deep", "deep", 12, 15),
            (2, "Sub 2", "sub-2", 16, 18),
        ]
    );
    assert_eq!(section_text(text, &doc.sections[2]), "### Deep\n\nx\n");
    assert_eq!(doc.title.as_deref(), Some("Title more"));
}

#[test]
fn heading_plain_text_with_inline_code_and_jsx() {
    let text = "## `onChange` *事件* <ApiType>x</ApiType> [link](u)\n\n## Props\n\n## Props\n";
    let doc = parse(text);
    assert_eq!(doc.sections[0].title, "onChange 事件 x link");
    assert_eq!(doc.sections[0].slug, "onchange-事件-x-link");
    assert_eq!(doc.sections[1].slug, "props");
    assert_eq!(doc.sections[2].slug, "props-1");
}

#[test]
fn chinese_headings_and_slugs() {
    assert_eq!(slugify("Table 表格"), "table-表格");
    assert_eq!(slugify("如何使用"), "如何使用");
    assert_eq!(slugify("API 参考 (Props)"), "api-参考-props");
    assert_eq!(slugify("🎉 2.102.0 (2026-07-31)"), "-21020-2026-07-31");
    assert_eq!(slugify("snake_case & more!"), "snake_case--more");
    let doc = parse("## 代码演示\n\n### 基本表格\n\n```jsx live=true\nx\n```\n");
    assert_eq!(doc.sections[1].slug, "基本表格");
    assert_eq!(doc.code_blocks[0].heading.as_deref(), Some("基本表格"));
    assert_eq!(doc.sections[1].start_byte, 17);
}

#[test]
fn empty_document() {
    let doc = parse("");
    assert_eq!(
        doc,
        Document {
            lines: 1,
            front_matter: vec![],
            title: None,
            brief: None,
            code_blocks: vec![],
            sections: vec![],
            tables: vec![],
            unclosed_front_matter: false,
        }
    );
    assert_eq!(placeholder_view("", &doc.code_blocks), "");
}

#[test]
fn odd_inputs_never_panic() {
    for text in [
        "\u{feff}```js\nx\n```\n",
        "\u{feff}---\ntitle: a\n---\n```\n",
        "a\0b\n```js\nx\0\n```\n",
        "-\t```js\n \tx\n  ```\n",
        "---\n",
        "---\n---\n",
        "\r\r\r```\r",
        "#\n##\n",
        "> - 1. ```\n>      x\n",
    ] {
        let doc = parse(text);
        for b in &doc.code_blocks {
            assert!(text.get(b.start_byte as usize..b.end_byte as usize).is_some());
        }
        let view = placeholder_view(text, &doc.code_blocks);
        assert_eq!(parse(&view).code_blocks.len(), doc.code_blocks.len(), "{text:?}");
    }
}

#[test]
fn placeholder_view_exact() {
    let text = "# Basic table\n\nIntro.\n\n```jsx live=true\nconst a = 1;\nrender(a);\n```\n\n- step\n\n  ~~~\n  npm i\n  ~~~\n> ```\n> q\n> ```\n";
    let doc = parse(text);
    let view = placeholder_view(text, &doc.code_blocks);
    let want = "# Basic table\n\nIntro.\n\n```text\n[code block #1 hidden: jsx, 4 lines, under \"Basic table\"]\n```\n\n- step\n\n  ```text\n  [code block #2 hidden: 3 lines, under \"Basic table\"]\n  ```\n> ```text\n> [code block #3 hidden: 3 lines, under \"Basic table\"]\n> ```\n";
    assert_eq!(view, want);
    let again = parse(&view);
    assert_eq!(again.code_blocks.len(), 3);
    assert!(again.code_blocks.iter().all(|b| b.info == "text"));
}

#[test]
fn tables_are_found_and_long_ones_hidden_in_the_view() {
    use crate::model::TableMeta;
    use crate::view::placeholder_view_spans;
    let text = "## API\n\n| Prop | Type |\n| --- | --- |\n| a | `string` |\n| b | number |\n\nAfter.\n";
    let doc = parse(text);
    assert_eq!(doc.tables.len(), 1);
    let t = &doc.tables[0];
    assert_eq!((t.rows, t.heading.as_deref(), t.start_line, t.end_line), (2, Some("API"), 3, 6));
    assert_eq!(
        &text[t.start_byte as usize..t.end_byte as usize],
        "| Prop | Type |\n| --- | --- |\n| a | `string` |\n| b | number |"
    );
    let meta = |tokens| TableMeta {
        rows: t.rows,
        heading: t.heading.clone(),
        start_line: t.start_line,
        end_line: t.end_line,
        start_byte: t.start_byte,
        end_byte: t.end_byte,
        tokens,
    };
    let (view, spans) = placeholder_view_spans::<CodeBlock>(text, &[], &[meta(250)]);
    assert_eq!(
        view,
        "## API\n\n[table hidden: 2 rows, 250 tokens, under \"API\"; get it as section \"API\"]\n\nAfter.\n"
    );
    assert!(spans.is_empty(), "tables are one line: nothing to cut inside");
    let (small, _) = placeholder_view_spans::<CodeBlock>(text, &[], &[meta(199)]);
    assert_eq!(small, text, "tables under 200 tokens stay");
}

#[test]
fn a_demo_placeholder_replaces_only_its_element_on_its_line() {
    let text = "## Demos\n\n<code src=\"./a.tsx\">Basic</code> <code src=\"./b.tsx\" />\n\n```js\nx\n```\n";
    let doc = parse(text);
    assert_eq!(
        placeholder_view(text, &doc.code_blocks),
        "## Demos\n\n[code block #1 hidden: tsx, 1 line, demo \"Basic\"] [code block #2 hidden: tsx, 1 line, demo]\n\n\
             ```text\n[code block #3 hidden: js, 3 lines, under \"Demos\"]\n```\n"
    );
}

#[test]
fn placeholder_keeps_list_markers_crlf_and_outfences_the_summary() {
    // A `~~~` fence may carry backticks in its info string: the placeholder fence is longer than any of them.
    let tilde = "~~~a```b\nx\n~~~\n";
    let doc = parse(tilde);
    assert_eq!(placeholder_view(tilde, &doc.code_blocks), "````text\n[code block #1 hidden: a```b, 3 lines]\n````\n");
    let text = "1. ```js\r\n   x\r\n   ```\r\n";
    let doc = parse(text);
    let view = placeholder_view(text, &doc.code_blocks);
    assert_eq!(view, "1. ```text\r\n   [code block #1 hidden: js, 3 lines]\r\n   ```\r\n");
}

#[test]
fn serde_round_trip_shape() {
    fn assert_serde<T: Serialize + for<'de> Deserialize<'de> + Clone + PartialEq>() {}
    assert_serde::<Document>();
    assert_serde::<CodeBlock>();
    assert_serde::<Section>();
}

// ---- Real inputs (assembled by ../shared/corpus/assemble.sh; skipped without it). ----

use crate::test_support::real_corpus;
use std::path::{Path, PathBuf};

/// `semi/content/<category>/<name>/<file_name>`, sorted.
fn semi_docs(root: &Path, file_name: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for category in std::fs::read_dir(root.join("semi/content")).unwrap() {
        let category = category.unwrap().path();
        if !category.is_dir() {
            continue;
        }
        for doc in std::fs::read_dir(&category).unwrap() {
            let path = doc.unwrap().path().join(file_name);
            if path.is_file() {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap()
}

#[test]
fn real_semi_key_documents() {
    let Some(root) = real_corpus() else { return };
    let content = root.join("semi/content");
    for (path, lines, blocks) in [
        ("show/table/index.md", 6374, 53),
        ("input/form/index.md", 2607, 51),
        ("basic/button/index.md", 611, 18),
        ("input/checkbox/index.md", 0, 13),
        ("show/table/index-en-US.md", 5978, 50),
        ("ecosystem/changelog/index.md", 5069, 0),
        ("ecosystem/changelog/index-en-US.md", 5211, 0),
    ] {
        let text = read(&content.join(path));
        let doc = parse(&text);
        if lines > 0 {
            assert_eq!(doc.lines, lines, "{path}");
        }
        assert_eq!(doc.lines as usize, text.split('\n').count(), "{path}");
        assert_eq!(doc.code_blocks.len(), blocks, "{path}");
    }
    let table = parse(&read(&content.join("show/table/index.md")));
    assert_eq!(table.title.as_deref(), Some("Table 表格"));
    assert!(table.brief.as_deref().unwrap().starts_with("表格用于呈现结构化的数据内容"));
    assert_eq!(table.code_blocks[0].info, "jsx import");
    assert_eq!(table.code_blocks[0].heading.as_deref(), Some("如何使用"));
    assert_eq!(table.sections[0].title, "如何使用");
    assert_eq!(table.sections[0].slug, "如何使用");
}

#[test]
fn real_semi_totals() {
    let Some(root) = real_corpus() else { return };
    for (file_name, want_blocks, want_long) in [("index.md", 1130, 17), ("index-en-US.md", 1123, 17)] {
        let docs = semi_docs(&root, file_name);
        assert_eq!(docs.len(), 102, "{file_name}");
        let (mut blocks, mut long, mut sections) = (0, Vec::new(), 0);
        for path in &docs {
            let text = read(path);
            let doc = parse(&text);
            blocks += doc.code_blocks.len();
            sections += doc.sections.len();
            if doc.lines > 888 {
                long.push(path.parent().unwrap().file_name().unwrap().to_owned());
            }
            for b in &doc.code_blocks {
                let fenced = &text[b.start_byte as usize..b.end_byte as usize];
                let first = fenced.trim_start_matches([' ', '\t', '>', '-', '*']);
                assert!(first.starts_with("```") || first.starts_with("~~~"), "{path:?}");
            }
        }
        println!("{file_name}: {blocks} code blocks, {sections} sections, over 888 lines: {long:?}");
        assert_eq!(blocks, want_blocks, "{file_name}");
        assert_eq!(long.len(), want_long, "{file_name}");
        assert!(long.iter().any(|n| n == "changelog"), "the changelog is among them");
    }
}

#[test]
fn real_semi_table_blocks_and_placeholder_view() {
    let Some(root) = real_corpus() else { return };
    let text = read(&root.join("semi/content/show/table/index.md"));
    let doc = parse(&text);
    let last = &doc.code_blocks[52];
    assert_eq!(last.index, 53);
    let last_text = &text[last.start_byte as usize..last.end_byte as usize];
    // Block 53 sits in a FAQ list item: its range starts at the line start, indentation
    // included, and ends right after the closing fence.
    assert_eq!((last.start_line, last.end_line, last.lang.as_str()), (6333, 6336, "text"));
    assert!(last_text.starts_with("    ```text\n"), "{last_text}");
    assert!(last_text.ends_with("\n    ```"), "{last_text}");
    assert_eq!(last_text.lines().count() as u32, last.end_line - last.start_line + 1);

    let view = placeholder_view(&text, &doc.code_blocks);
    for n in 1..=53 {
        assert!(view.contains(&format!("[code block #{n} hidden: ")), "#{n}");
    }
    assert!(!view.contains("[code block #54 hidden"));
    let again = parse(&view);
    assert_eq!(again.code_blocks.len(), 53);
    for (n, b) in again.code_blocks.iter().enumerate() {
        assert_eq!(b.info, "text");
        let body = &view[b.start_byte as usize..b.end_byte as usize];
        assert!(body.contains(&format!("[code block #{} hidden: ", n + 1)), "{body}");
    }
    // Nothing outside the blocks changed.
    let mut rest = String::new();
    let mut at = 0;
    for b in &doc.code_blocks {
        rest.push_str(&text[at..b.start_byte as usize]);
        at = b.end_byte as usize;
    }
    rest.push_str(&text[at..]);
    let mut view_rest = String::new();
    let mut at = 0;
    for b in &again.code_blocks {
        view_rest.push_str(&view[at..b.start_byte as usize]);
        at = b.end_byte as usize;
    }
    view_rest.push_str(&view[at..]);
    assert_eq!(rest, view_rest);
    println!(
        "table: {} lines, {} bytes; placeholder view {} lines, {} bytes",
        doc.lines,
        text.len(),
        view.split('\n').count(),
        view.len()
    );
}

#[test]
fn real_blueprint_mdx_parses() {
    let Some(root) = real_corpus() else { return };
    let mut files = Vec::new();
    let mut stack = vec![root.join("blueprint")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "mdx") {
                files.push(path);
            }
        }
    }
    files.sort();
    assert_eq!(files.len(), 74);
    let (mut sections, mut blocks, mut untitled) = (0, 0, Vec::new());
    for path in &files {
        let text = read(path);
        let doc = parse(&text);
        sections += doc.sections.len();
        blocks += doc.code_blocks.len();
        if doc.title.is_none() {
            untitled.push(path.file_name().unwrap().to_owned());
        }
        if let Some(brief) = &doc.brief {
            assert!(!brief.starts_with("import ") && !brief.starts_with('@'), "{path:?}");
        }
    }
    let alert = parse(&read(&root.join("blueprint/src/components/alert/alert.mdx")));
    assert_eq!(alert.title.as_deref(), Some("Alert"));
    assert_eq!(alert.sections[0].title, "Alert");
    assert_eq!(alert.code_blocks[0].info, "ts copy");
    println!(
        "blueprint: {} .mdx files, {sections} sections, {blocks} code blocks, untitled: {untitled:?}",
        files.len()
    );
}

#[test]
fn real_semi_parse_timing() {
    let Some(root) = real_corpus() else { return };
    let mut docs = semi_docs(&root, "index.md");
    docs.extend(semi_docs(&root, "index-en-US.md"));
    let texts: Vec<String> = docs.iter().map(|p| read(p)).collect();
    let bytes: usize = texts.iter().map(String::len).sum();
    let started = std::time::Instant::now();
    let blocks: usize = texts.iter().map(|t| parse(t).code_blocks.len()).sum();
    let elapsed = started.elapsed();
    assert_eq!(texts.len(), 204);
    println!(
        "parse(): {} Semi docs, {:.1} MB, {blocks} code blocks in {:.1} ms (one thread, {} build)",
        texts.len(),
        bytes as f64 / 1e6,
        elapsed.as_secs_f64() * 1e3,
        if cfg!(debug_assertions) { "debug" } else { "release" }
    );
}
