//! What Vue template markup uses (issue 25's trial: Vue examples were missing from `search --uses`): the
//! components of a `.vue` single-file component's `<template>`, of a template fence (```` ```html ````, as Vant's
//! documents write them) or of a Storybook story's `template:` string, with their attributes, read with
//! tree-sitter-html. Vue's own rule says which elements are components: a PascalCase name (`VanButton`,
//! `Button`) or a name with a hyphen (`van-button`); a lower-case name without one (`button`, `div`) is a native
//! element. A name is the design system's component when its kebab-case form is one of the set's, or is one with
//! the library's prefix (`van-button` → `Button`; the prefix is what the document's elements share, see [`prefix`]).

use std::collections::{BTreeMap, BTreeSet};

use tree_sitter::{Node, Parser};

use crate::compile::names::{kebab_case, pascal_case};
use crate::model::component_key;

/// One custom element of a template: its kebab-case name and its attribute names as props and events.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TemplateElement {
    /// `van-button` for `<van-button>` and `<VanButton>`.
    pub kebab: String,
    /// Props and events it sets: `type` for `type="…"` and `:type="…"`, `click` for `@click`, `v-model` and
    /// `modelValue` for `v-model`, `show` and `v-model:show` for `v-model:show`; a kebab-case name also in
    /// camelCase and a camelCase one also in kebab-case (Vue accepts both), in order, no repeats.
    pub attrs: Vec<String>,
}

/// The custom elements of the markup `code` (a whole `.vue` file, whose `<script>` and `<style>` are skipped, or a
/// template fragment), in document order. Empty when the HTML grammar does not load.
pub fn template_elements(code: &str) -> Vec<TemplateElement> {
    let mut parser = Parser::new();
    if parser.set_language(&tree_sitter_html::LANGUAGE.into()).is_err() {
        return Vec::new();
    }
    let Some(tree) = parser.parse(code, None) else { return Vec::new() };
    let text = |n: Node| code.get(n.byte_range()).unwrap_or("");
    let mut out = Vec::new();
    let mut stack = vec![tree.root_node()];
    while let Some(node) = stack.pop() {
        if matches!(node.kind(), "script_element" | "style_element") {
            continue;
        }
        if matches!(node.kind(), "start_tag" | "self_closing_tag") {
            let mut c = node.walk();
            let children: Vec<Node> = node.named_children(&mut c).collect();
            let name = children.iter().find(|n| n.kind() == "tag_name").map(|n| text(*n)).unwrap_or("");
            if let Some(kebab) = custom_element(name) {
                let mut attrs = Vec::new();
                for a in children.iter().filter(|n| n.kind() == "attribute") {
                    let mut c = a.walk();
                    let Some(name) = a.named_children(&mut c).find(|n| n.kind() == "attribute_name") else { continue };
                    for prop in attribute_props(text(name)) {
                        if !attrs.contains(&prop) {
                            attrs.push(prop);
                        }
                    }
                }
                out.push(TemplateElement { kebab, attrs });
            }
        }
        let mut c = node.walk();
        let children: Vec<Node> = node.named_children(&mut c).collect();
        stack.extend(children.into_iter().rev());
    }
    out
}

/// The kebab-case name of a component element (`VanButton`, `van-button`, `Button`), `None` for a native one
/// (`div`, `button`: lower case, no hyphen) or Vue's built-ins that are no component of a library.
fn custom_element(name: &str) -> Option<String> {
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.') {
        return None;
    }
    let pascal = name.starts_with(|c: char| c.is_ascii_uppercase());
    if !pascal && !name.contains('-') {
        return None;
    }
    let kebab = if pascal { kebab_case(name) } else { name.to_string() };
    const BUILT_IN: [&str; 6] = ["transition", "transition-group", "keep-alive", "teleport", "suspense", "component"];
    (!BUILT_IN.contains(&kebab.as_str())).then_some(kebab)
}

/// The props and events an attribute name sets (see [`TemplateElement::attrs`]); nothing for directives that set
/// none (`v-if`, `v-for`, `v-slot`, `#default`, a bare `v-bind` / `v-on` spread, `ref`, `key`).
fn attribute_props(name: &str) -> Vec<String> {
    let name = name.trim();
    let bare = if let Some(rest) = name.strip_prefix("v-model") {
        return match rest.strip_prefix(':') {
            Some(arg) if !arg.is_empty() => with_other_case(arg).into_iter().chain([name.to_string()]).collect(),
            _ => vec!["v-model".to_string(), "modelValue".to_string()],
        };
    } else if let Some(rest) = name.strip_prefix("v-bind:").or_else(|| name.strip_prefix(':')) {
        rest
    } else if let Some(rest) = name.strip_prefix("v-on:").or_else(|| name.strip_prefix('@')) {
        rest
    } else if name.starts_with("v-") || name.starts_with('#') {
        return Vec::new();
    } else {
        name
    };
    // Modifiers (`@click.stop`, `:value.prop`) are not part of the name.
    let bare = bare.split('.').next().unwrap_or("");
    if bare.is_empty() || bare.starts_with('[') || matches!(bare, "ref" | "key" | "is") {
        return Vec::new();
    }
    with_other_case(bare)
}

/// `loading-text` → [`loading-text`, `loadingText`]; `loadingText` → [`loadingText`, `loading-text`]; `type` →
/// [`type`].
fn with_other_case(name: &str) -> Vec<String> {
    let other = if name.contains('-') {
        let mut parts = name.split('-');
        let first = parts.next().unwrap_or("").to_string();
        parts.fold(first, |mut acc, p| {
            let mut chars = p.chars();
            if let Some(c) = chars.next() {
                acc.extend(c.to_uppercase());
                acc.push_str(chars.as_str());
            }
            acc
        })
    } else {
        kebab_case(name)
    };
    if other == name { vec![name.to_string()] } else { vec![name.to_string(), other] }
}

/// The library's element prefix among `elements` (`van` of `van-button`): the first segment most often followed
/// by one of the `components` (keys, [`component_key`] form) where the whole name is none of them; `None` when no
/// element has one. Ties go to the shorter, then the first in order of the segment.
pub fn prefix<'a>(
    elements: impl IntoIterator<Item = &'a TemplateElement>,
    components: &BTreeSet<String>,
) -> Option<String> {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for e in elements {
        if components.contains(&component_key(&e.kebab)) {
            continue;
        }
        if let Some((first, rest)) = e.kebab.split_once('-')
            && components.contains(&component_key(rest))
        {
            *counts.entry(first).or_default() += 1;
        }
    }
    counts
        .into_iter()
        .max_by(|a, b| a.1.cmp(&b.1).then(b.0.len().cmp(&a.0.len())).then(b.0.cmp(a.0)))
        .map(|(p, _)| p.to_string())
}

/// What `elements` use, as stored ([`crate::model::BlockUses`], as [`super::uses`] writes JSX's): each element
/// that is one of the `components` (keys), directly or after the library's `prefix`, as its PascalCase name, and
/// `Name.prop` per prop and event it sets. Sorted, no repeats.
pub fn uses(elements: &[TemplateElement], components: &BTreeSet<String>, prefix: Option<&str>) -> Vec<String> {
    let mut out = BTreeSet::new();
    for e in elements {
        let name = if components.contains(&component_key(&e.kebab)) {
            pascal_case(&e.kebab)
        } else {
            match (prefix, e.kebab.split_once('-')) {
                (Some(p), Some((first, rest))) if first == p && components.contains(&component_key(rest)) => {
                    pascal_case(rest)
                }
                _ => continue,
            }
        };
        out.extend(e.attrs.iter().map(|a| format!("{name}.{a}")));
        out.insert(name);
    }
    out.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(names: &[&str]) -> BTreeSet<String> {
        names.iter().map(|n| component_key(n)).collect()
    }

    #[test]
    fn template_elements_map_to_the_components_with_the_library_prefix() {
        let sfc = "<template>\n  <van-button type=\"primary\" :loading-text=\"t\" @click.stop=\"go\" v-if=\"a\">A</van-button>\n  \
                   <VanDatePicker v-model:show=\"s\" v-model=\"d\" />\n  <router-link to=\"/\" />\n  <div><button disabled /></div>\n\
                   </template>\n<script setup lang=\"ts\">\nconst t = '<van-cell title=\"x\" />';\n</script>\n";
        let elements = template_elements(sfc);
        let names: Vec<&str> = elements.iter().map(|e| e.kebab.as_str()).collect();
        assert_eq!(names, ["van-button", "van-date-picker", "router-link"]);
        assert_eq!(elements[0].attrs, ["type", "loading-text", "loadingText", "click"]);
        assert_eq!(elements[1].attrs, ["show", "v-model:show", "v-model", "modelValue"]);
        let components = keys(&["button", "date-picker", "link", "cell"]);
        // `router-link` would be `Link` with the prefix `router`; the document's elements say `van`.
        let p = prefix(&elements, &components);
        assert_eq!(p.as_deref(), Some("van"));
        assert_eq!(
            uses(&elements, &components, p.as_deref()),
            [
                "Button",
                "Button.click",
                "Button.loading-text",
                "Button.loadingText",
                "Button.type",
                "DatePicker",
                "DatePicker.modelValue",
                "DatePicker.show",
                "DatePicker.v-model",
                "DatePicker.v-model:show"
            ]
        );
        // A PascalCase element that is the component itself, with no prefix (Storybook's `template:`).
        let e = template_elements("<Button variant=\"primary\" v-bind=\"args\">Go</Button>");
        assert_eq!(uses(&e, &components, None), ["Button", "Button.variant"]);
    }
}
