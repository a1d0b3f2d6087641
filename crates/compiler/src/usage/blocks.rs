//! What each code block of one document uses (format 12's `uses/<lang>` frame, for `prop`'s example and `search
//! --uses`): JSX read as TSX ([`super::uses`]), and Vue templates ([`super::vue`]): a `vue` block's
//! `<template>`, an `html` block (a template fragment, as Vant's documents write them), and the `template:`
//! strings of a JavaScript/TypeScript block (Storybook for Vue: `render: () => ({ components, template: '…' })`).
//! The library's element prefix (`van` of `<van-button>`) is the one the document's template elements share.

use std::collections::BTreeSet;

use tree_sitter::Node;

use super::vue::{self, TemplateElement};
use crate::model::BlockUses;

/// Code languages whose blocks are read as TSX for what they use (TSX parses JSX, JavaScript and TypeScript).
const JSX_LANGS: [&str; 9] =
    ["jsx", "tsx", "js", "javascript", "ts", "typescript", "react", "javascriptreact", "typescriptreact"];

/// Code languages whose blocks are Vue template markup (a whole single-file component, or a fragment).
const TEMPLATE_LANGS: [&str; 3] = ["vue", "html", "template"];

/// What each of `blocks` (code, fence lines included or not, and language) uses, in order: JSX elements as
/// [`super::uses`] names them, template elements that are one of `components` (keys in
/// [`crate::model::component_key`] form) as [`vue::uses`] does; nothing for other languages (shell, CSS).
pub fn blocks_uses<'a>(
    blocks: impl IntoIterator<Item = (&'a str, &'a str)>,
    components: &BTreeSet<String>,
) -> Vec<BlockUses> {
    let read: Vec<(BlockUses, Vec<TemplateElement>)> = blocks
        .into_iter()
        .map(|(code, lang)| {
            let lang = lang.trim().to_ascii_lowercase();
            let code = without_fences(code);
            if JSX_LANGS.contains(&lang.as_str()) {
                let elements = template_strings(&code).iter().flat_map(|t| vue::template_elements(t)).collect();
                (super::uses(&super::read_recovering(&code)), elements)
            } else if TEMPLATE_LANGS.contains(&lang.as_str()) {
                (Vec::new(), vue::template_elements(&code))
            } else {
                (Vec::new(), Vec::new())
            }
        })
        .collect();
    let prefix = vue::prefix(read.iter().flat_map(|(_, e)| e), components);
    read.into_iter()
        .map(|(mut jsx, elements)| {
            if !elements.is_empty() {
                jsx.extend(vue::uses(&elements, components, prefix.as_deref()));
                jsx.sort();
                jsx.dedup();
            }
            jsx
        })
        .collect()
}

/// `code` without its opening and closing fence lines, when it has them.
fn without_fences(code: &str) -> String {
    let is_fence = |l: &str| l.trim_start().starts_with("```") || l.trim_start().starts_with("~~~");
    let mut lines: Vec<&str> = code.lines().collect();
    if lines.first().is_some_and(|l| is_fence(l)) {
        lines.remove(0);
        if lines.last().is_some_and(|l| is_fence(l)) {
            lines.pop();
        }
    }
    lines.join("\n")
}

/// The strings of the `template` properties of `code`'s object literals (`template: '<Button … />'`, a template
/// literal's text as written), read as TSX.
pub fn template_strings(code: &str) -> Vec<String> {
    if !code.contains("template") {
        return Vec::new();
    }
    let Ok(tree) = super::parse(code) else { return Vec::new() };
    let text = |n: Node| code.get(n.byte_range()).unwrap_or("");
    let mut out = Vec::new();
    let mut stack = vec![tree.root_node()];
    while let Some(node) = stack.pop() {
        if node.kind() == "pair"
            && node.child_by_field_name("key").is_some_and(|k| text(k).trim_matches(['"', '\'']) == "template")
            && let Some(value) =
                node.child_by_field_name("value").filter(|v| matches!(v.kind(), "string" | "template_string"))
        {
            let raw = text(value);
            out.push(raw.get(1..raw.len().saturating_sub(1)).unwrap_or("").to_string());
        }
        let mut c = node.walk();
        stack.extend(node.named_children(&mut c));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::component_key;

    #[test]
    fn jsx_vue_and_storybook_templates_are_read_and_share_the_prefix() {
        let components: BTreeSet<String> = ["button", "cell"].iter().map(|n| component_key(n)).collect();
        let story = "import Button from './Button.vue';\nexport const Primary = {\n  render: (args) => ({\n    \
                     components: { Button },\n    setup() { return { args }; },\n    \
                     template: `<Button v-bind=\"args\" size=\"small\">Go</Button>`,\n  }),\n};\n";
        let got = blocks_uses(
            [
                ("```html\n<van-button type=\"primary\">A</van-button>\n```", "html"),
                ("<template><van-cell is-link /></template>\n<script setup>\nconst a = 1;\n</script>\n", "vue"),
                ("<Button loading />", "tsx"),
                (story, "ts"),
                ("npm i x", "bash"),
            ],
            &components,
        );
        assert_eq!(got[0], ["Button", "Button.type"]);
        assert_eq!(got[1], ["Cell", "Cell.is-link", "Cell.isLink"]);
        assert_eq!(got[2], ["Button", "Button.loading"]);
        assert_eq!(got[3], ["Button", "Button.size"]);
        assert!(got[4].is_empty());
    }
}
