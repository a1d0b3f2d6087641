//! Vue single-file components (`.vue`): where their scripts are, so the TypeScript/JavaScript grammar parses them
//! in place.
//!
//! A `.vue` file is HTML-like: top-level `<template>`, `<script>` / `<script setup>` and `<style>` blocks.
//! [`scripts`] parses the file with tree-sitter-html and returns the byte and point ranges of the top-level script
//! blocks' text and the grammar their `lang` attribute asks for. `source::parse` then hands those ranges to the
//! script grammar (`Parser::set_included_ranges`): the tree's offsets and rows are the `.vue` file's own, so the
//! function index, the skeleton (only script function bodies are elided; `<template>` and `<style>` stay as
//! written) and the props' lines need no translation.

use std::cell::RefCell;

use tree_sitter::{Node, Parser, Point, Range};

use super::{SourceError, SourceLang};

/// The script blocks of one `.vue` file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VueScripts {
    /// The grammar the blocks are parsed with: TSX when a block says `lang="tsx"`, else TypeScript when one says
    /// `lang="ts"`, else JavaScript (no `lang`, `js`, `jsx`: the JavaScript grammar also reads JSX). Vue requires
    /// a component's `<script>` and `<script setup>` to share one `lang`, so one grammar fits both.
    pub grammar: SourceLang,
    /// The text ranges of the blocks parsed, in file order (never overlapping; empty blocks left out).
    pub ranges: Vec<Range>,
    /// `lang` values no grammar here reads (`coffee`, …): those blocks are not parsed.
    pub unknown_langs: Vec<String>,
}

thread_local! {
    /// One HTML parser per thread, created on first use.
    static HTML: RefCell<Option<Parser>> = const { RefCell::new(None) };
}

fn html_parser() -> Result<Parser, SourceError> {
    let mut parser = Parser::new();
    parser
        .set_language(&tree_sitter_html::LANGUAGE.into())
        .map_err(|e| SourceError::Parser(format!("HTML grammar: {e}")))?;
    Ok(parser)
}

/// Finds the top-level `<script>` blocks of the `.vue` file `text` (see [`VueScripts`]).
///
/// # Errors
///
/// [`SourceError::Parser`] when tree-sitter cannot load the HTML grammar or returns no tree (never for malformed
/// markup, which tree-sitter recovers from: the blocks it still recognises are returned).
pub fn scripts(text: &str) -> Result<VueScripts, SourceError> {
    let run = |parser: &mut Parser| {
        parser.parse(text, None).ok_or_else(|| SourceError::Parser("HTML: parse returned no tree".into()))
    };
    // As `source::parse`: a thread-local parser, or a fresh one when the thread-local is unavailable.
    let cached = HTML.try_with(|cell| {
        let Ok(mut slot) = cell.try_borrow_mut() else { return None };
        if slot.is_none() {
            match html_parser() {
                Ok(p) => *slot = Some(p),
                Err(e) => return Some(Err(e)),
            }
        }
        slot.as_mut().map(run)
    });
    let tree = match cached {
        Ok(Some(result)) => result?,
        _ => run(&mut html_parser()?)?,
    };
    let root = tree.root_node();
    let mut ranges = Vec::new();
    let mut langs = Vec::new();
    let mut unknown_langs = Vec::new();
    let mut cursor = root.walk();
    for block in root.named_children(&mut cursor).filter(|n| n.kind() == "script_element") {
        let lang = lang_attribute(text, block);
        let grammar = match lang.as_deref() {
            None | Some("js" | "jsx" | "javascript") => SourceLang::JavaScript,
            Some("ts" | "typescript") => SourceLang::TypeScript,
            Some("tsx") => SourceLang::Tsx,
            Some(other) => {
                unknown_langs.push(other.to_string());
                continue;
            }
        };
        let mut inner = block.walk();
        let Some(raw) = block.named_children(&mut inner).find(|n| n.kind() == "raw_text") else { continue };
        langs.push(grammar);
        ranges.push(raw.range());
    }
    let grammar = if langs.contains(&SourceLang::Tsx) {
        SourceLang::Tsx
    } else if langs.contains(&SourceLang::TypeScript) {
        SourceLang::TypeScript
    } else {
        SourceLang::JavaScript
    };
    Ok(VueScripts { grammar, ranges, unknown_langs })
}

/// The `lang` attribute of a script element, lower-cased and unquoted.
fn lang_attribute(text: &str, block: Node) -> Option<String> {
    let mut cursor = block.walk();
    let start = block.named_children(&mut cursor).find(|n| n.kind() == "start_tag")?;
    let mut inner = start.walk();
    for attribute in start.named_children(&mut inner).filter(|n| n.kind() == "attribute") {
        let mut parts = attribute.walk();
        let children: Vec<Node> = attribute.named_children(&mut parts).collect();
        let Some(name) = children.iter().find(|n| n.kind() == "attribute_name") else { continue };
        if !text.get(name.byte_range()).is_some_and(|n| n.eq_ignore_ascii_case("lang")) {
            continue;
        }
        let value = children.iter().find(|n| matches!(n.kind(), "attribute_value" | "quoted_attribute_value"))?;
        let raw = text.get(value.byte_range())?;
        return Some(raw.trim_matches(['"', '\'']).trim().to_ascii_lowercase());
    }
    None
}

/// The range tree-sitter is given for a `.vue` file with no script: one empty range at its start, so the script
/// grammar reads nothing (an empty list of ranges would mean the whole file).
pub fn empty_range() -> Range {
    let zero = Point { row: 0, column: 0 };
    Range { start_byte: 0, end_byte: 0, start_point: zero, end_point: zero }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn script_blocks_are_found_with_their_lang_and_ranges() {
        let text = "<template>\n  <button @click=\"go\">x</button>\n</template>\n\n<script lang=\"ts\">\nexport default { name: 'X' };\n</script>\n<script setup lang='ts'>\nconst go = () => 1;\n</script>\n<style>\n.a { color: red }\n</style>\n";
        let s = scripts(text).unwrap();
        assert_eq!(s.grammar, SourceLang::TypeScript);
        assert_eq!(s.ranges.len(), 2);
        assert_eq!(&text[s.ranges[0].start_byte..s.ranges[0].end_byte], "\nexport default { name: 'X' };\n");
        assert_eq!(s.ranges[0].start_point.row, 4);
        assert_eq!(&text[s.ranges[1].start_byte..s.ranges[1].end_byte], "\nconst go = () => 1;\n");
        assert!(s.unknown_langs.is_empty());
    }

    #[test]
    fn lang_picks_the_grammar_and_unknown_langs_are_reported() {
        assert_eq!(scripts("<script>var a = <b/>;</script>").unwrap().grammar, SourceLang::JavaScript);
        assert_eq!(scripts("<script lang=tsx>let a = <b/>;</script>").unwrap().grammar, SourceLang::Tsx);
        let s = scripts("<script lang=\"coffee\">a = 1</script><template><p/></template>").unwrap();
        assert!(s.ranges.is_empty());
        assert_eq!(s.unknown_langs, ["coffee"]);
        // A script inside the template is the template's, not the component's.
        assert!(scripts("<template><div><script>var x;</script></div></template>").unwrap().ranges.is_empty());
        assert!(scripts("").unwrap().ranges.is_empty());
    }

    use crate::compile::source::{BODY_PLACEHOLDER, FunctionKind, MAX_SCOPE_DEPTH, analyze};

    const SFC: &str = "<template>\n  <div @scroll=\"onScroll\">{{ a }}</div>\n</template>\n\n<script lang=\"ts\">\nimport { defineComponent } from 'vue';\nexport default defineComponent({\n  name: 'Table',\n  setup() {\n    const onTbodyScroll = (e: Event) => {\n      return e;\n    };\n    return { onTbodyScroll };\n  },\n});\n</script>\n\n<style scoped>\n.a { color: red; }\n</style>\n";

    #[test]
    fn functions_of_a_vue_file_have_its_lines_and_bytes_and_the_component_name() {
        let a = analyze(SourceLang::Vue, SFC, 1).unwrap();
        assert_eq!(a.parse_errors, 0);
        let got: Vec<(&str, &FunctionKind, u32, u32)> =
            a.functions.iter().map(|f| (f.qualified.as_str(), f.kind(), f.start_line, f.end_line)).collect();
        assert_eq!(
            got,
            [
                ("Table.setup", &FunctionKind::Method, 9, 14),
                ("Table.setup.onTbodyScroll", &FunctionKind::Arrow, 10, 12)
            ]
        );
        let f = &a.functions[1];
        assert_eq!(
            &SFC[f.start_byte as usize..f.end_byte as usize],
            "const onTbodyScroll = (e: Event) => {\n      return e;\n    };"
        );
        // Template and style as written; only the script's outermost body is elided.
        let skeleton = a.skeleton.unwrap();
        assert!(skeleton.starts_with("<template>\n  <div @scroll=\"onScroll\">{{ a }}</div>\n</template>\n"));
        assert!(skeleton.contains(&format!("  setup() {BODY_PLACEHOLDER},\n")));
        assert!(skeleton.ends_with("<style scoped>\n.a { color: red; }\n</style>\n"));
        assert_eq!(a.outer_bodies, 1);
    }

    #[test]
    fn define_component_names_scopes_in_ts_too_but_plain_objects_only_in_vue() {
        let ts = "export default defineComponent({ name: 'Tabs', setup() { function go() {} } });";
        let names: Vec<String> =
            analyze(SourceLang::TypeScript, ts, 1).unwrap().functions.iter().map(|f| f.qualified.clone()).collect();
        assert_eq!(names, ["Tabs.setup", "Tabs.setup.go"]);
        // `name` from a variable is unknown statically: with no file name, the export stays `default`.
        let ts = "const [name] = createNamespace('tabs');\nexport default defineComponent({ name, setup() {} });";
        assert_eq!(analyze(SourceLang::TypeScript, ts, 1).unwrap().functions[0].qualified, "default.setup");
        // Named after its file, as Vue names such a component.
        let a = crate::compile::source::analyze_file("src/swipe/Swipe.tsx", SourceLang::TypeScript, ts, 1).unwrap();
        assert_eq!(a.functions[0].qualified, "Swipe.setup");
        let a = crate::compile::source::analyze_file(
            "src/swipe/index.vue",
            SourceLang::Vue,
            "<script>export default { data() {} }</script>",
            1,
        )
        .unwrap();
        assert_eq!(a.functions[0].qualified, "Swipe.data");
        let obj = "export default { name: 'Cfg', load() {} };";
        assert_eq!(analyze(SourceLang::TypeScript, obj, 1).unwrap().functions[0].qualified, "default.load");
        let vue = format!("<script>\n{obj}\n</script>");
        assert_eq!(analyze(SourceLang::Vue, &vue, 1).unwrap().functions[0].qualified, "Cfg.load");
    }

    #[test]
    fn a_vue_file_without_a_script_has_no_functions_and_its_text_as_skeleton() {
        let text = "<template>\n  <p>function f() {}</p>\n</template>\n";
        let a = analyze(SourceLang::Vue, text, 1).unwrap();
        assert!(a.functions.is_empty());
        assert_eq!(a.skeleton.as_deref(), Some(text));
        let a = analyze(SourceLang::Vue, "<script lang=\"coffee\">f = -> 1</script>", 1).unwrap();
        assert_eq!(a.unknown_script_langs, ["coffee"]);
        assert!(a.functions.is_empty());
    }

    #[test]
    fn nesting_deeper_than_the_cap_is_counted_not_indexed() {
        let depth = 200;
        let mut text = String::new();
        for i in 0..depth {
            text.push_str(&format!("function f{i}() {{\n"));
        }
        text.push_str(&"}\n".repeat(depth));
        let a = analyze(SourceLang::JavaScript, &text, 1).unwrap();
        assert_eq!(a.parse_errors, 0);
        assert_eq!(a.functions.len(), MAX_SCOPE_DEPTH);
        assert_eq!(a.too_deep, depth - MAX_SCOPE_DEPTH);
        assert_eq!(a.functions.last().unwrap().qualified.split('.').count(), MAX_SCOPE_DEPTH);
    }
}
