//! Props defaults written in code rather than JSDoc: `defaultProps`, and the destructuring defaults of a function
//! component's props parameter, with the props type each belongs to.

use std::collections::HashMap;

use tree_sitter::Node;

use super::{collapse, node_text, unquote};

/// Defaults met in code, before they are tied to props tables.
#[derive(Default)]
pub(super) struct CodeDefaults {
    /// `defaultProps` whose props type is known: (type, prop, value).
    static_props: Vec<(String, String, String)>,
    /// `X.defaultProps = {…}`: (component, prop, value).
    assigned: Vec<(String, String, String)>,
    /// Destructuring defaults of function components: (type, prop, value).
    destructured: Vec<(String, String, String)>,
    /// Component name → its props type, for `X.defaultProps`.
    components: HashMap<String, String>,
}

impl CodeDefaults {
    /// Props type → (prop, value) in priority order (`defaultProps` first, then destructuring).
    pub(super) fn by_type(self, decls: &HashMap<&str, usize>) -> HashMap<String, Vec<(String, String)>> {
        let mut out: HashMap<String, Vec<(String, String)>> = HashMap::new();
        let CodeDefaults { static_props, assigned, destructured, components } = self;
        let assigned = assigned.into_iter().filter_map(|(component, prop, value)| {
            let ty = components.get(&component).cloned().or_else(|| {
                let guess = format!("{component}Props");
                decls.contains_key(guess.as_str()).then_some(guess)
            })?;
            Some((ty, prop, value))
        });
        for (ty, prop, value) in static_props.into_iter().chain(assigned).chain(destructured) {
            out.entry(ty).or_default().push((prop, value));
        }
        out
    }
}

/// `static defaultProps[: T] = { … }` in a class body.
pub(super) fn static_default_props<'t>(
    text: &str,
    node: Node<'t>,
    mut ancestors: impl Iterator<Item = Node<'t>>,
    found: &mut CodeDefaults,
) {
    let Some(name) = node.child_by_field_name("name").or_else(|| node.child_by_field_name("property")) else {
        return;
    };
    if node_text(text, name) != "defaultProps" {
        return;
    }
    let mut cursor = node.walk();
    if !node.children(&mut cursor).any(|c| c.kind() == "static") {
        return;
    }
    let Some(value) = node.child_by_field_name("value").filter(|v| v.kind() == "object") else { return };
    let ty = node.child_by_field_name("type").and_then(|t| first_props_type(text, t)).or_else(|| {
        let class = ancestors.nth(1)?;
        heritage_props_type(text, class)
    });
    if let Some(ty) = ty {
        for (prop, v) in object_entries(text, value) {
            found.static_props.push((ty.clone(), prop, v));
        }
    }
}

/// `X.defaultProps = { … }`.
pub(super) fn assigned_default_props(text: &str, node: Node, found: &mut CodeDefaults) {
    let (Some(left), Some(right)) = (node.child_by_field_name("left"), node.child_by_field_name("right")) else {
        return;
    };
    if left.kind() != "member_expression" || right.kind() != "object" {
        return;
    }
    let (Some(object), Some(property)) = (left.child_by_field_name("object"), left.child_by_field_name("property"))
    else {
        return;
    };
    if node_text(text, property) != "defaultProps" {
        return;
    }
    let component = collapse(node_text(text, object));
    for (prop, v) in object_entries(text, right) {
        found.assigned.push((component.clone(), prop, v));
    }
}

/// Records a class's props type (from `extends Base<XProps, …>`) under its name.
pub(super) fn class_component(text: &str, node: Node, found: &mut CodeDefaults) {
    let Some(name) = node.child_by_field_name("name").map(|n| node_text(text, n).to_string()) else { return };
    if let Some(ty) = heritage_props_type(text, node) {
        found.components.entry(name).or_insert(ty);
    }
}

/// The first `…Props` type argument of a class's `extends` clause.
fn heritage_props_type(text: &str, class: Node) -> Option<String> {
    let mut cursor = class.walk();
    let heritage = class.named_children(&mut cursor).find(|c| c.kind() == "class_heritage")?;
    let mut inner = heritage.walk();
    let extends = heritage.named_children(&mut inner).find(|c| c.kind() == "extends_clause")?;
    first_props_type(text, extends.child_by_field_name("type_arguments")?)
}

/// A function component's props type and destructuring defaults (see [`super::from_typescript`]).
pub(super) fn function_component<'t>(
    text: &str,
    node: Node<'t>,
    ancestors: impl Iterator<Item = Node<'t>>,
    found: &mut CodeDefaults,
) {
    // The component's name, and on the way up to its variable the wrappers' type arguments and the variable's
    // annotation.
    let mut wrapper_type: Option<String> = None;
    let mut declared_type: Option<String> = None;
    let name = if node.kind() == "function_declaration" {
        node.child_by_field_name("name").map(|n| node_text(text, n).to_string())
    } else {
        let mut name = None;
        for p in ancestors {
            match p.kind() {
                "arguments" | "parenthesized_expression" | "as_expression" | "satisfies_expression" => {}
                "call_expression" => {
                    if let Some(ty) = p.child_by_field_name("type_arguments").and_then(|t| last_props_type(text, t)) {
                        wrapper_type.get_or_insert(ty);
                    }
                }
                "variable_declarator" => {
                    declared_type = p.child_by_field_name("type").and_then(|t| first_props_type(text, t));
                    name = p.child_by_field_name("name").map(|n| node_text(text, n).to_string());
                    break;
                }
                _ => break,
            }
        }
        name
    };
    let Some(name) = name.filter(|n| n.starts_with(|c: char| c.is_ascii_uppercase())) else { return };
    let param = match node.child_by_field_name("parameters") {
        Some(params) => {
            let mut cursor = params.walk();
            params.named_children(&mut cursor).find(|c| !matches!(c.kind(), "comment" | "decorator"))
        }
        None => node.child_by_field_name("parameter"),
    };
    let Some(param) = param else { return };
    let pattern = param.child_by_field_name("pattern").unwrap_or(param);
    let annotated = param.child_by_field_name("type").and_then(|t| first_props_type(text, t));
    let Some(ty) = annotated.or(declared_type).or(wrapper_type) else { return };
    found.components.entry(name).or_insert_with(|| ty.clone());
    let mut entries = Vec::new();
    match pattern.kind() {
        "object_pattern" => entries = pattern_defaults(text, pattern),
        "identifier" => {
            let param_name = node_text(text, pattern);
            if let Some(body) = node.child_by_field_name("body").filter(|b| b.kind() == "statement_block") {
                let mut cursor = body.walk();
                for statement in body.named_children(&mut cursor) {
                    if !matches!(statement.kind(), "lexical_declaration" | "variable_declaration") {
                        continue;
                    }
                    let mut inner = statement.walk();
                    for declarator in statement.named_children(&mut inner) {
                        let (Some(n), Some(v)) =
                            (declarator.child_by_field_name("name"), declarator.child_by_field_name("value"))
                        else {
                            continue;
                        };
                        if n.kind() == "object_pattern" && v.kind() == "identifier" && node_text(text, v) == param_name
                        {
                            entries.extend(pattern_defaults(text, n));
                        }
                    }
                }
            }
        }
        _ => {}
    }
    for (prop, v) in entries {
        found.destructured.push((ty.clone(), prop, v));
    }
}

/// `{ a = 1, b: alias = 2, c }` → `[("a", "1"), ("b", "2")]`.
pub(super) fn pattern_defaults(text: &str, pattern: Node) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut cursor = pattern.walk();
    for child in pattern.named_children(&mut cursor) {
        let (key, value) = match child.kind() {
            "object_assignment_pattern" => (child.child_by_field_name("left"), child.child_by_field_name("right")),
            "pair_pattern" => {
                let value = child.child_by_field_name("value").filter(|v| v.kind() == "assignment_pattern");
                (child.child_by_field_name("key"), value.and_then(|v| v.child_by_field_name("right")))
            }
            _ => continue,
        };
        if let (Some(key), Some(value)) = (key, value) {
            out.push((unquote(node_text(text, key)), collapse(node_text(text, value))));
        }
    }
    out
}

/// The `key: value` entries of an object literal, values as written (whitespace collapsed); a shorthand `{ a }`
/// gives `("a", "a")`. Spreads and methods are skipped.
pub(super) fn object_entries(text: &str, object: Node) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut cursor = object.walk();
    for child in object.named_children(&mut cursor) {
        match child.kind() {
            "pair" => {
                if let (Some(k), Some(v)) = (child.child_by_field_name("key"), child.child_by_field_name("value")) {
                    out.push((unquote(node_text(text, k)), collapse(node_text(text, v))));
                }
            }
            "shorthand_property_identifier" => {
                let name = node_text(text, child).to_string();
                out.push((name.clone(), name));
            }
            _ => {}
        }
    }
    out
}

/// The first type name ending in `Props` in a type (preorder): `Partial<XProps>` → `XProps`.
fn first_props_type(text: &str, node: Node) -> Option<String> {
    props_types(text, node).into_iter().next()
}

/// The last type name ending in `Props` among type arguments: `forwardRef<E, XProps>` → `XProps`.
fn last_props_type(text: &str, node: Node) -> Option<String> {
    props_types(text, node).pop()
}

fn props_types(text: &str, node: Node) -> Vec<String> {
    let mut out = Vec::new();
    let mut cursor = node.walk();
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        if n.kind() == "type_identifier" {
            let name = node_text(text, n);
            if name.ends_with("Props") {
                out.push(name.to_string());
            }
        }
        let children: Vec<Node> = n.named_children(&mut cursor).collect();
        stack.extend(children.into_iter().rev());
    }
    out
}
