//! Props and emitted events of Vue components, as the props tables the reader serves (`doc … --section props`).
//!
//! Read from the script tree `props::from_typescript` already parsed (a `.vue` file's `<script>` blocks in place,
//! or a `.ts`/`.tsx`/`.js` file):
//! - `<script setup>` macros: `defineProps<{…}>()`, `defineProps<Props>()` (an interface or type alias of the same
//!   file), runtime `defineProps({…})` / `defineProps([…])`, defaults from `withDefaults(defineProps<…>(), {…})`
//!   or a destructuring `const { size = 'md' } = defineProps<…>()`; `defineEmits<{ (e: 'change', v: number): void
//!   }>()`, `defineEmits<{ change: [v: number] }>()`, `defineEmits(['change'])`.
//! - Options: the `props` and `emits` of `defineComponent({…})` (any script) or of a `.vue` file's default-exported
//!   options object; `props: buttonProps` is followed to a `const buttonProps = {…}` of the same file.
//!
//! A runtime prop `{ type: String as PropType<Size>, required: true, default: 'md' }` gives type `Size`, not
//! optional, default `'md'`; a constructor type is kept as written (`String`, `[String, Number]` → `String |
//! Number`); any other value (a helper call) is its source text as the type, since its meaning is not known
//! without running it.
//!
//! Tables are named `<Component>Props` and `<Component>Emits` (events are rows: the event's name, its payload as the
//! type, never marked optional), except
//! that `defineProps<ButtonProps>()` fills the `ButtonProps` table. `<Component>` is the component's own `name`
//! (`defineComponent({ name: 'Table' })`, `defineOptions({ name: 'Table' })`) when it is a string literal; else a
//! guess from the file name, stated here: `button-group.vue` → `ButtonGroup`, `index.vue` → its folder's name.

use std::collections::HashMap;

use tree_sitter::Node;

use super::defaults::{object_entries, pattern_defaults};
use super::{collapse, end_line_of, jsdoc, line_of, members, node_text, unquote};
use crate::compile::names::{name_from_path, pascal_case};
use crate::model::{Prop, PropsOrigin, PropsTable};

/// Nodes of interest met in one walk of the tree.
#[derive(Default)]
struct Found<'t> {
    define_props: Vec<Node<'t>>,
    define_emits: Vec<Node<'t>>,
    /// Options objects: `defineComponent`'s argument, a `.vue` file's default-exported object.
    options: Vec<Node<'t>>,
    /// `defineOptions({ name: 'X' })`'s name.
    options_name: Option<String>,
    /// Program-level `const x = {…}` / `[…]`, by name.
    consts: HashMap<&'t str, Node<'t>>,
    /// Type declarations (interfaces and object type aliases), by name.
    types: HashMap<&'t str, Node<'t>>,
}

/// Adds the Vue props and events tables of the script tree `root` of `path` to `tables` (which holds the
/// `XxxProps` types `from_typescript` found: a `defineProps<XxxProps>()` adds its defaults there). `vue`: the text
/// is a `.vue` file, whose default-exported plain object is an options object.
pub(super) fn add(path: &str, text: &str, root: Node, vue: bool, tables: &mut Vec<PropsTable>) {
    let found = walk(text, root, vue);
    if found.define_props.is_empty() && found.define_emits.is_empty() && found.options.is_empty() {
        return;
    }
    let guessed = found
        .options
        .iter()
        .find_map(|o| string_pair(text, *o, "name"))
        .or_else(|| found.options_name.clone())
        .map(|n| pascal_case(&n))
        .unwrap_or_else(|| name_from_path(path));
    let table = |name: String, node: Node, props: Vec<Prop>| PropsTable {
        name,
        origin: PropsOrigin::Typescript,
        path: path.to_string(),
        lang: None,
        line: line_of(node),
        end_line: end_line_of(node),
        extends: Vec::new(),
        unresolved_extends: Vec::new(),
        props,
    };
    for &call in &found.define_props {
        let (name, mut props) = match call.child_by_field_name("type_arguments").and_then(first_named) {
            Some(t) if t.kind() == "object_type" => (format!("{guessed}Props"), members(text, t)),
            Some(t) => {
                let name = node_text(text, t).to_string();
                let props = found.types.get(name.as_str()).map(|d| type_members(text, *d)).unwrap_or_default();
                (name, props)
            }
            None => {
                let props = arguments(call).first().map(|a| runtime_props(text, *a, &found)).unwrap_or_default();
                (format!("{guessed}Props"), props)
            }
        };
        let defaults = macro_defaults(text, call);
        set_defaults(&mut props, &defaults);
        merge(tables, table(name, call, props), &defaults);
    }
    for &call in &found.define_emits {
        let events = match call.child_by_field_name("type_arguments").and_then(first_named) {
            Some(t) if t.kind() == "object_type" => typed_events(text, t),
            Some(t) => found.types.get(node_text(text, t)).map(|d| typed_events(text, *d)).unwrap_or_default(),
            None => arguments(call).first().map(|a| runtime_events(text, *a, &found)).unwrap_or_default(),
        };
        merge(tables, table(format!("{guessed}Emits"), call, events), &[]);
    }
    for &options in &found.options {
        let name = string_pair(text, options, "name").map(|n| pascal_case(&n)).unwrap_or_else(|| guessed.clone());
        if let Some(value) = pair_value(text, options, "props").map(unwrap) {
            let props = runtime_props(text, value, &found);
            merge(tables, table(format!("{name}Props"), value, props), &[]);
        }
        if let Some(value) = pair_value(text, options, "emits").map(unwrap) {
            let events = runtime_events(text, value, &found);
            merge(tables, table(format!("{name}Emits"), value, events), &[]);
        }
    }
}

fn walk<'t>(text: &'t str, root: Node<'t>, vue: bool) -> Found<'t> {
    let mut found = Found::default();
    let mut cursor = root.walk();
    for child in root.named_children(&mut cursor) {
        let declaration = match child.kind() {
            "export_statement" => child.child_by_field_name("declaration"),
            _ => Some(child),
        };
        let Some(declaration) = declaration else { continue };
        match declaration.kind() {
            "lexical_declaration" | "variable_declaration" => {
                let mut inner = declaration.walk();
                for d in declaration.named_children(&mut inner).filter(|d| d.kind() == "variable_declarator") {
                    if let (Some(n), Some(v)) = (d.child_by_field_name("name"), d.child_by_field_name("value")) {
                        found.consts.insert(node_text(text, n), unwrap(v));
                    }
                }
            }
            "interface_declaration" | "type_alias_declaration" => {
                if let Some(n) = declaration.child_by_field_name("name") {
                    found.types.insert(node_text(text, n), declaration);
                }
            }
            _ => {}
        }
    }
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        match node.kind() {
            "call_expression" => {
                let callee = node.child_by_field_name("function").map(|f| node_text(text, f)).unwrap_or("");
                match callee {
                    "defineProps" => found.define_props.push(node),
                    "defineEmits" => found.define_emits.push(node),
                    "defineComponent" => found.options.extend(arguments(node).first().filter(|a| a.kind() == "object")),
                    "defineOptions" => {
                        found.options_name = arguments(node).first().and_then(|o| string_pair(text, *o, "name"));
                    }
                    _ => {}
                }
            }
            "export_statement" if vue => {
                found.options.extend(node.child_by_field_name("value").map(unwrap).filter(|v| v.kind() == "object"));
            }
            _ => {}
        }
        let mut inner = node.walk();
        let first = stack.len();
        stack.extend(node.named_children(&mut inner));
        stack[first..].reverse();
    }
    found
}

/// Strips parentheses and `as` / `satisfies` assertions (`{…} as const`).
fn unwrap(mut node: Node) -> Node {
    for _ in 0..16 {
        match node.kind() {
            "parenthesized_expression" | "as_expression" | "satisfies_expression" => match first_named(node) {
                Some(inner) => node = inner,
                None => break,
            },
            _ => break,
        }
    }
    node
}

fn first_named(node: Node) -> Option<Node> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor).find(|c| c.kind() != "comment")
}

/// A call's arguments (comments left out), unwrapped.
fn arguments(call: Node) -> Vec<Node> {
    let Some(args) = call.child_by_field_name("arguments") else { return Vec::new() };
    let mut cursor = args.walk();
    args.named_children(&mut cursor).filter(|c| c.kind() != "comment").map(unwrap).collect()
}

/// The value of the `key: value` pair of an object literal (parentheses stripped), or of `key` as a shorthand property.
fn pair_value<'t>(text: &str, object: Node<'t>, key: &str) -> Option<Node<'t>> {
    let mut cursor = object.walk();
    let found = object.named_children(&mut cursor).find(|p| match p.kind() {
        "pair" => p.child_by_field_name("key").is_some_and(|k| unquote(node_text(text, k)) == key),
        "shorthand_property_identifier" => node_text(text, *p) == key,
        _ => false,
    })?;
    match found.kind() {
        // Parentheses only: `type: String as PropType<T>` keeps its assertion, which is the type.
        "pair" => found.child_by_field_name("value").map(unwrap_type_value),
        _ => Some(found),
    }
}

/// A string literal `key: '…'` of an object literal.
fn string_pair(text: &str, object: Node, key: &str) -> Option<String> {
    let value = pair_value(text, object, key).filter(|v| v.kind() == "string")?;
    Some(unquote(node_text(text, value))).filter(|s| !s.is_empty())
}

/// An identifier resolved to the program-level `const` it names, else the node itself.
fn resolve<'t>(text: &str, node: Node<'t>, found: &Found<'t>) -> Node<'t> {
    match node.kind() {
        "identifier" => found.consts.get(node_text(text, node)).copied().unwrap_or(node),
        _ => node,
    }
}

/// The members of an interface or of an object type alias.
fn type_members(text: &str, decl: Node) -> Vec<Prop> {
    let body = match decl.kind() {
        "interface_declaration" => decl.child_by_field_name("body"),
        _ => decl.child_by_field_name("value").filter(|v| v.kind() == "object_type"),
    };
    body.map(|b| members(text, b)).unwrap_or_default()
}

/// The doc comment right before `node`.
fn doc_before(text: &str, node: Node) -> super::JsDoc {
    node.prev_named_sibling()
        .filter(|c| c.kind() == "comment")
        .map(|c| node_text(text, c))
        .filter(|c| c.starts_with("/**"))
        .map(jsdoc)
        .unwrap_or_default()
}

fn prop(text: &str, at: Node, name: String, type_text: String, optional: bool, default: Option<String>) -> Prop {
    let doc = doc_before(text, at);
    Prop {
        name,
        type_text,
        optional,
        default: default.or(doc.default),
        description: doc.description,
        since: doc.since,
        deprecated: doc.deprecated,
    }
}

/// Runtime props: `['a', 'b']` or `{ a: String, b: { type: Number, required: true, default: 0 } }`.
fn runtime_props<'t>(text: &str, value: Node<'t>, found: &Found<'t>) -> Vec<Prop> {
    let value = resolve(text, value, found);
    let mut cursor = value.walk();
    let children: Vec<Node> = value.named_children(&mut cursor).collect();
    match value.kind() {
        "array" => children
            .into_iter()
            .filter(|c| c.kind() == "string")
            .map(|c| prop(text, c, unquote(node_text(text, c)), String::new(), true, None))
            .collect(),
        "object" => children
            .into_iter()
            .filter_map(|p| match p.kind() {
                "pair" => {
                    let name = unquote(node_text(text, p.child_by_field_name("key")?));
                    let v = unwrap_type_value(p.child_by_field_name("value")?);
                    if v.kind() == "object" {
                        let type_text = pair_value(text, v, "type").map(|t| prop_type(text, t)).unwrap_or_default();
                        let required = pair_value(text, v, "required").is_some_and(|r| node_text(text, r) == "true");
                        let default = pair_value(text, v, "default").map(|d| collapse(node_text(text, d)));
                        Some(prop(text, p, name, type_text, !required, default))
                    } else {
                        Some(prop(text, p, name, prop_type(text, v), true, None))
                    }
                }
                "shorthand_property_identifier" => {
                    Some(prop(text, p, node_text(text, p).to_string(), String::new(), true, None))
                }
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// A prop's value with parentheses stripped (an `as PropType<…>` is kept: it is the type).
fn unwrap_type_value(mut node: Node) -> Node {
    while node.kind() == "parenthesized_expression" {
        match first_named(node) {
            Some(inner) => node = inner,
            None => break,
        }
    }
    node
}

/// A runtime prop type as text: `String as PropType<Size>` → `Size`, `[String, Number]` → `String | Number`, a
/// constructor or anything else as written.
fn prop_type(text: &str, node: Node) -> String {
    let node = unwrap_type_value(node);
    match node.kind() {
        "as_expression" => {
            let mut cursor = node.walk();
            let ty = node.named_children(&mut cursor).nth(1);
            let argument = ty
                .filter(|t| t.kind() == "generic_type")
                .filter(|t| t.child_by_field_name("name").is_some_and(|n| node_text(text, n).ends_with("PropType")))
                .and_then(|t| t.child_by_field_name("type_arguments"))
                .and_then(first_named);
            match argument {
                Some(a) => collapse(node_text(text, a)),
                None => collapse(node_text(text, node)),
            }
        }
        "array" => {
            let mut cursor = node.walk();
            let parts: Vec<String> = node.named_children(&mut cursor).map(|c| prop_type(text, c)).collect();
            parts.join(" | ")
        }
        _ => collapse(node_text(text, node)),
    }
}

/// Defaults given to a `defineProps` call: `withDefaults(defineProps<…>(), { a: 1 })` or
/// `const { a = 1 } = defineProps<…>()`.
fn macro_defaults(text: &str, call: Node) -> Vec<(String, String)> {
    let Some(parent) = call.parent() else { return Vec::new() };
    if parent.kind() == "arguments"
        && let Some(outer) = parent.parent().filter(|o| o.kind() == "call_expression")
        && outer.child_by_field_name("function").is_some_and(|f| node_text(text, f) == "withDefaults")
    {
        return arguments(outer)
            .get(1)
            .filter(|o| o.kind() == "object")
            .map(|o| object_entries(text, *o))
            .unwrap_or_default();
    }
    if parent.kind() == "variable_declarator"
        && let Some(pattern) = parent.child_by_field_name("name").filter(|n| n.kind() == "object_pattern")
    {
        return pattern_defaults(text, pattern);
    }
    Vec::new()
}

fn set_defaults(props: &mut [Prop], defaults: &[(String, String)]) {
    for (name, value) in defaults {
        if let Some(p) = props.iter_mut().find(|p| &p.name == name) {
            p.default = Some(value.clone());
        }
    }
}

/// Events of a `defineEmits` type: call signatures `(e: 'change', value: number): void` (name from the first
/// parameter's string type, the rest as the payload) and named tuples `change: [value: number]`.
fn typed_events(text: &str, ty: Node) -> Vec<Prop> {
    let body = match ty.kind() {
        "interface_declaration" => ty.child_by_field_name("body"),
        "type_alias_declaration" => ty.child_by_field_name("value"),
        _ => Some(ty),
    };
    let Some(body) = body else { return Vec::new() };
    let mut out = Vec::new();
    let mut cursor = body.walk();
    for member in body.named_children(&mut cursor) {
        if member.kind() != "call_signature" {
            continue;
        }
        let Some(params) = member.child_by_field_name("parameters") else { continue };
        let mut inner = params.walk();
        let list: Vec<Node> = params.named_children(&mut inner).filter(|p| p.kind() != "comment").collect();
        let Some(first) = list.first() else { continue };
        let Some(name_type) = first.child_by_field_name("type").and_then(first_named) else { continue };
        let name = unquote(node_text(text, name_type));
        let payload: Vec<String> = list[1..].iter().map(|p| collapse(node_text(text, *p))).collect();
        out.push(prop(text, member, name, format!("({})", payload.join(", ")), false, None));
    }
    // A listener may always be left out: an event row never says optional (`?`), which reads as a prop's.
    out.extend(members(text, body).into_iter().map(|mut p| {
        p.optional = false;
        p
    }));
    out
}

/// Runtime events: `['change', 'update:modelValue']` or `{ change: (v) => true, close: null }`.
fn runtime_events<'t>(text: &str, value: Node<'t>, found: &Found<'t>) -> Vec<Prop> {
    let value = resolve(text, value, found);
    let mut cursor = value.walk();
    let children: Vec<Node> = value.named_children(&mut cursor).collect();
    children
        .into_iter()
        .filter_map(|c| {
            match (value.kind(), c.kind()) {
                ("array", "string") => Some(unquote(node_text(text, c))),
                ("object", "pair") => c.child_by_field_name("key").map(|k| unquote(node_text(text, k))),
                ("object", "method_definition") => c.child_by_field_name("name").map(|k| unquote(node_text(text, k))),
                ("object", "shorthand_property_identifier") => Some(node_text(text, c).to_string()),
                _ => None,
            }
            .map(|name| prop(text, c, name, String::new(), false, None))
        })
        .collect()
}

/// Adds `table`, or completes the table of the same name and file already found (an `XxxProps` interface that
/// `defineProps<XxxProps>()` names gets the macro's defaults; an empty one, such as `type XProps =
/// ExtractPropTypes<typeof xProps>`, gets the props).
fn merge(tables: &mut Vec<PropsTable>, table: PropsTable, defaults: &[(String, String)]) {
    if table.props.is_empty() {
        if let Some(t) = tables.iter_mut().find(|t| t.name == table.name && t.path == table.path) {
            set_defaults(&mut t.props, defaults);
        }
        return;
    }
    match tables.iter_mut().find(|t| t.name == table.name && t.path == table.path) {
        Some(t) if t.props.is_empty() => t.props = table.props,
        Some(t) => set_defaults(&mut t.props, defaults),
        None => tables.push(table),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compile::source::SourceLang;

    fn tables(lang: SourceLang, path: &str, text: &str) -> Vec<PropsTable> {
        super::super::from_typescript(lang, path, text)
    }

    fn rows(t: &PropsTable) -> Vec<(&str, &str, bool, Option<&str>)> {
        t.props.iter().map(|p| (p.name.as_str(), p.type_text.as_str(), p.optional, p.default.as_deref())).collect()
    }

    #[test]
    fn script_setup_type_props_with_defaults_and_emits() {
        let text = "<script setup lang=\"ts\">\ninterface Props {\n  /** The size. */\n  size?: 'sm' | 'md';\n  label: string;\n}\nconst props = withDefaults(defineProps<Props>(), { size: 'md' });\nconst emit = defineEmits<{\n  (e: 'change', value: number): void;\n  (e: 'close'): void;\n}>();\n</script>\n<template><p>{{ label }}</p></template>\n";
        let t = tables(SourceLang::Vue, "src/tag/index.vue", text);
        let props = t.iter().find(|t| t.name == "Props").expect("Props");
        assert_eq!(rows(props), [("size", "'sm' | 'md'", true, Some("'md'")), ("label", "string", false, None)]);
        assert_eq!(props.props[0].description.as_deref(), Some("The size."));
        assert_eq!((props.line, props.end_line), (2, 6));
        let emits = t.iter().find(|t| t.name == "TagEmits").expect("TagEmits");
        assert_eq!(rows(emits), [("change", "(value: number)", false, None), ("close", "()", false, None)]);
        assert_eq!(emits.line, 8);
    }

    #[test]
    fn inline_type_destructured_defaults_and_tuple_emits() {
        let text = "<script setup lang=\"ts\">\nconst { round = false } = defineProps<{ round?: boolean; text: string }>();\ndefineEmits<{ select: [index: number] }>();\ndefineOptions({ name: 'van-chip' });\n</script>\n";
        let t = tables(SourceLang::Vue, "src/chip/Chip.vue", text);
        assert_eq!(rows(&t[0]), [("round", "boolean", true, Some("false")), ("text", "string", false, None)]);
        assert_eq!(t[0].name, "VanChipProps");
        assert_eq!(t[1].name, "VanChipEmits");
        assert_eq!(rows(&t[1]), [("select", "[index: number]", false, None)]);
    }

    #[test]
    fn options_props_and_emits_in_define_component_and_vue_objects() {
        let ts = "import { defineComponent, type PropType } from 'vue';\nexport const tableProps = {\n  /** Rows. */\n  data: { type: Array as PropType<Row[]>, required: true },\n  size: { type: [String, Number], default: 'md' },\n  bordered: Boolean,\n  height: makeNumberProp(0),\n};\nexport default defineComponent({\n  name: 'Table',\n  props: tableProps,\n  emits: ['sort', 'update:page'],\n  setup() {},\n});\n";
        let t = tables(SourceLang::TypeScript, "src/table/Table.ts", ts);
        assert_eq!(t[0].name, "TableProps");
        assert_eq!(
            rows(&t[0]),
            [
                ("data", "Row[]", false, None),
                ("size", "String | Number", true, Some("'md'")),
                ("bordered", "Boolean", true, None),
                ("height", "makeNumberProp(0)", true, None),
            ]
        );
        assert_eq!(t[0].props[0].description.as_deref(), Some("Rows."));
        assert_eq!(t[1].name, "TableEmits");
        assert_eq!(rows(&t[1]), [("sort", "", false, None), ("update:page", "", false, None)]);
        let vue = "<template><i/></template>\n<script>\nexport default {\n  props: ['name', 'color'],\n  emits: { click: null },\n};\n</script>\n";
        let t = tables(SourceLang::Vue, "src/icon/icon.vue", vue);
        assert_eq!(t[0].name, "IconProps");
        assert_eq!(rows(&t[0]), [("name", "", true, None), ("color", "", true, None)]);
        assert_eq!((t[0].line, t[1].name.as_str()), (4, "IconEmits"));
        // A plain default-exported object of a .ts file is no component.
        assert!(tables(SourceLang::TypeScript, "a.ts", "export default { props: ['a'] };").is_empty());
    }

    #[test]
    fn names_guessed_from_paths() {
        assert_eq!(name_from_path("src/button-group.vue"), "ButtonGroup");
        assert_eq!(name_from_path("src/action-sheet/index.vue"), "ActionSheet");
        assert_eq!(name_from_path("Foo.vue"), "Foo");
    }
}
