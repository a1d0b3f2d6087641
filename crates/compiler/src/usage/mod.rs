//! What a piece of TSX/JSX code uses (issue 29's `check`): its imports and its JSX elements with their attributes,
//! read with tree-sitter's TSX grammar (TSX parses JSX and TypeScript alike). The checker in the CLI compares them
//! with what a build stored (exports, props tables); this module only reads the code.

pub mod blocks;
pub mod vue;

use tree_sitter::{Node, Parser};

/// One imported binding: `import { Button as B } from 'pkg'` is `{ imported: "Button", local: "B", source: "pkg" }`;
/// a default import's `imported` is `default`, a namespace import's (`* as ui`) is `*`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Import {
    /// The exported name.
    pub imported: String,
    /// The name it has in the file.
    pub local: String,
    /// The module specifier, without quotes.
    pub source: String,
    /// 1-based line and column of the binding.
    pub line: u32,
    /// 1-based column.
    pub column: u32,
}

/// The value of a JSX attribute.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AttrValue {
    /// No value (`<Button disabled>`): `true`.
    Bare,
    /// A string literal, without quotes: `size="small"` or `size={'small'}`.
    Str(String),
    /// Any other expression, as written.
    Expr(String),
}

/// One attribute of a JSX element (spread attributes are not listed: their props are unknown).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attr {
    /// The attribute's name, e.g. `size`, `aria-label`, `xlink:href`.
    pub name: String,
    /// Its value.
    pub value: AttrValue,
    /// The keys of the object literals its value holds (`columns={[{ title: 'A', sorter: f }]}`: `title`,
    /// `sorter`), also through a variable the code declares (`columns={columns}` with `const columns = [{ … }]`),
    /// nested ones joined by `>` (`sorter>compare`), at most [`MAX_MEMBER_DEPTH`] deep, in order, no repeats.
    pub members: Vec<String>,
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub column: u32,
}

/// How deep [`Attr::members`] follows nested object literals (`columns` → `sorter` → `compare` is 2).
pub const MAX_MEMBER_DEPTH: usize = 3;

/// How many variables are followed from one attribute's value: enough for `columns={cols}` with
/// `const cols = base.concat(more)`-style indirection to stop without a loop.
const MAX_HOPS: usize = 4;

/// One JSX element (opening or self-closing).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Element {
    /// The element's name as written: `Button`, `Form.Input`, `div`.
    pub name: String,
    /// Its attributes in order.
    pub attrs: Vec<Attr>,
    /// Whether it has a spread attribute (`{...props}`): props it does not name may be set.
    pub spread: bool,
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub column: u32,
}

/// A string literal inside a JSX attribute's value (`style={{ color: '#165dff' }}`, `color="#fff"`): where raw
/// colours and lengths are written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Literal {
    /// The string, without quotes.
    pub text: String,
    /// The attribute it is in, with the object keys leading to it: `style.color`, `color`.
    pub place: String,
    /// The element's name as written.
    pub element: String,
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub column: u32,
}

/// What a file uses.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Usage {
    /// Its import bindings, in order.
    pub imports: Vec<Import>,
    /// Its JSX elements, in order.
    pub elements: Vec<Element>,
    /// The string literals of its JSX attribute values, in order.
    pub literals: Vec<Literal>,
}

/// Why code could not be read.
#[derive(Debug, thiserror::Error)]
pub enum UsageError {
    /// The grammar did not load (a build defect, not the input's).
    #[error("the TSX grammar did not load: {0}")]
    Grammar(String),
    /// The code does not parse as TSX: the first error's position.
    #[error("not valid TSX/JSX at line {line}, column {column}")]
    Syntax {
        /// 1-based line.
        line: u32,
        /// 1-based column.
        column: u32,
    },
}

fn position(node: Node) -> (u32, u32) {
    let p = node.start_position();
    (p.row as u32 + 1, p.column as u32 + 1)
}

fn text<'a>(node: Node, source: &'a str) -> &'a str {
    source.get(node.byte_range()).unwrap_or("")
}

/// The string a string-literal node holds (its fragments and escapes as written, quotes dropped).
fn string_value(node: Node, source: &str) -> String {
    let raw = text(node, source);
    raw.get(1..raw.len().saturating_sub(1)).unwrap_or("").to_string()
}

pub(crate) fn parse(code: &str) -> Result<tree_sitter::Tree, UsageError> {
    let mut parser = Parser::new();
    parser
        .set_language(&tree_sitter_typescript::LANGUAGE_TSX.into())
        .map_err(|e| UsageError::Grammar(e.to_string()))?;
    parser.parse(code, None).ok_or(UsageError::Syntax { line: 1, column: 1 })
}

/// Reads `code` as TSX. Errors: [`UsageError::Syntax`] at the first node tree-sitter could not parse.
pub fn read(code: &str) -> Result<Usage, UsageError> {
    let tree = parse(code)?;
    let root = tree.root_node();
    if root.has_error() {
        // The first error that is not the grammar's own: the TSX grammar refuses a `&` that starts no character
        // reference, valid in JSX text (`Drag & drop`) and attribute strings (`src='…?a=1&b=2'`); the rest is read.
        let mut first = None;
        let mut stack = vec![root];
        while let Some(node) = stack.pop() {
            if node.kind() == "jsx_attribute" {
                continue;
            }
            if node.is_error() && text(node, code).trim_start().starts_with('&') {
                continue;
            }
            if node.is_error() || node.is_missing() {
                let at = position(node);
                if first.is_none_or(|f| at < f) {
                    first = Some(at);
                }
                continue;
            }
            let mut cursor = node.walk();
            stack.extend(node.children(&mut cursor).filter(Node::has_error));
        }
        if let Some((line, column)) = first {
            return Err(UsageError::Syntax { line, column });
        }
    }
    Ok(collect(root, code))
}

/// Reads what `code` uses as far as tree-sitter recovers it: the examples of a document are read at build time,
/// where a snippet with an error (an elided `...`, a Vue template) still names what it uses in the parts that
/// parse. Nothing when the grammar does not load.
pub fn read_recovering(code: &str) -> Usage {
    parse(code).map(|tree| collect(tree.root_node(), code)).unwrap_or_default()
}

/// What an example uses, as stored ([`crate::model::BlockUses`]): each JSX element whose name
/// starts with an upper-case letter (a component, not a DOM element), named as its import exports it (`B` of
/// `import { Button as B }` is `Button`; `ui.Button` of a namespace import is `Button`; a default import keeps its
/// local name), then `Name.prop` per attribute and `Name.prop>key` per key of the object literals its value holds
/// ([`Attr::members`]: `Table.columns>sorter`). Sorted, no repeats.
pub fn uses(usage: &Usage) -> Vec<String> {
    let mut out = std::collections::BTreeSet::new();
    for e in &usage.elements {
        let (first, rest) = e.name.split_once('.').map_or((e.name.as_str(), None), |(a, b)| (a, Some(b)));
        let import = usage.imports.iter().find(|i| i.local == first);
        let name = match (import.map(|i| i.imported.as_str()), rest) {
            (Some("*"), Some(rest)) => rest.to_string(),
            (Some("default") | None, _) => e.name.clone(),
            (Some(imported), Some(rest)) => format!("{imported}.{rest}"),
            (Some(imported), None) => imported.to_string(),
        };
        if !name.starts_with(|c: char| c.is_ascii_uppercase()) {
            continue;
        }
        for a in &e.attrs {
            out.insert(format!("{name}.{}", a.name));
            out.extend(a.members.iter().map(|m| format!("{name}.{}>{m}", a.name)));
        }
        out.insert(name);
    }
    out.into_iter().collect()
}

/// The values of the code's variables by name (`const columns = [ … ]`): the first declaration of each name, for
/// [`Attr::members`] (a snippet rarely shadows one; a second one of the name is not followed).
type Declared<'t> = std::collections::HashMap<String, Node<'t>>;

fn declared<'t>(root: Node<'t>, code: &str) -> Declared<'t> {
    let mut out = Declared::new();
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        if node.kind() == "variable_declarator"
            && let (Some(name), Some(value)) = (node.child_by_field_name("name"), node.child_by_field_name("value"))
            && name.kind() == "identifier"
        {
            out.entry(text(name, code).to_string()).or_insert(value);
        }
        let mut cursor = node.walk();
        stack.extend(node.named_children(&mut cursor));
    }
    out
}

/// The keys of the object literals `value` holds ([`Attr::members`]): an object's keys (and, below them, their
/// values' keys as `key>inner`), an array's objects' keys, a variable followed to its declared value, an
/// expression in parentheses or `as`/`satisfies` casts looked through.
fn members(value: Node, code: &str, declared: &Declared, out: &mut Vec<String>) {
    fn walk(
        node: Node,
        code: &str,
        declared: &Declared,
        prefix: &str,
        depth: usize,
        hops: usize,
        out: &mut Vec<String>,
    ) {
        if depth >= MAX_MEMBER_DEPTH {
            return;
        }
        match node.kind() {
            "object" => {
                let mut cursor = node.walk();
                for child in node.named_children(&mut cursor) {
                    let (key, inner) = match child.kind() {
                        "pair" => (child.child_by_field_name("key"), child.child_by_field_name("value")),
                        "shorthand_property_identifier" => (Some(child), None),
                        "method_definition" => (child.child_by_field_name("name"), None),
                        _ => continue,
                    };
                    let Some(key) = key else { continue };
                    let key = match key.kind() {
                        "string" => string_value(key, code),
                        "property_identifier" | "shorthand_property_identifier" | "number" => {
                            text(key, code).to_string()
                        }
                        _ => continue,
                    };
                    let path = if prefix.is_empty() { key } else { format!("{prefix}>{key}") };
                    if !out.contains(&path) {
                        out.push(path.clone());
                    }
                    if let Some(inner) = inner {
                        walk(inner, code, declared, &path, depth + 1, hops, out);
                    }
                }
            }
            "array" => {
                let mut cursor = node.walk();
                for child in node.named_children(&mut cursor) {
                    walk(child, code, declared, prefix, depth, hops, out);
                }
            }
            "parenthesized_expression" | "as_expression" | "satisfies_expression" | "non_null_expression" => {
                if let Some(inner) = node.named_child(0) {
                    walk(inner, code, declared, prefix, depth, hops, out);
                }
            }
            "identifier" if hops < MAX_HOPS => {
                if let Some(&value) = declared.get(text(node, code)) {
                    walk(value, code, declared, prefix, depth, hops + 1, out);
                }
            }
            _ => {}
        }
    }
    walk(value, code, declared, "", 0, 0, out);
}

fn collect(root: Node, code: &str) -> Usage {
    let mut usage = Usage::default();
    let declared = declared(root, code);
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        match node.kind() {
            "import_statement" => imports(node, code, &mut usage.imports),
            "jsx_opening_element" | "jsx_self_closing_element" => {
                let e = element(node, code, &declared);
                literals(node, code, &e.name, &mut usage.literals);
                usage.elements.push(e);
            }
            _ => {}
        }
        let mut cursor = node.walk();
        let children: Vec<Node> = node.children(&mut cursor).collect();
        stack.extend(children.into_iter().rev());
    }
    usage
}

fn imports(node: Node, code: &str, out: &mut Vec<Import>) {
    let Some(source) = node.child_by_field_name("source") else { return };
    let source = string_value(source, code);
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        let (line, column) = position(n);
        match n.kind() {
            "import_specifier" => {
                let Some(name) = n.child_by_field_name("name") else { continue };
                let imported = text(name, code).trim_matches(['\'', '"']).to_string();
                let local = n.child_by_field_name("alias").map_or(imported.clone(), |a| text(a, code).to_string());
                out.push(Import { imported, local, source: source.clone(), line, column });
                continue;
            }
            "namespace_import" => {
                let mut cursor = n.walk();
                if let Some(id) = n.children(&mut cursor).find(|c| c.kind() == "identifier") {
                    let local = text(id, code).to_string();
                    out.push(Import { imported: "*".into(), local, source: source.clone(), line, column });
                }
                continue;
            }
            "import_clause" => {
                let mut cursor = n.walk();
                for c in n.children(&mut cursor) {
                    if c.kind() == "identifier" {
                        let (line, column) = position(c);
                        let local = text(c, code).to_string();
                        out.push(Import { imported: "default".into(), local, source: source.clone(), line, column });
                    }
                }
            }
            _ => {}
        }
        let mut cursor = n.walk();
        let children: Vec<Node> = n.children(&mut cursor).collect();
        stack.extend(children.into_iter().rev());
    }
}

/// The string literals in the attribute values of the element `node` ([`Literal`]), each with the attribute and
/// the object keys leading to it; a nested element's are its own.
fn literals(node: Node, code: &str, element: &str, out: &mut Vec<Literal>) {
    let mut cursor = node.walk();
    for attr in node.children_by_field_name("attribute", &mut cursor).filter(|a| a.kind() == "jsx_attribute") {
        let mut parts = attr.walk();
        let mut kids = attr.named_children(&mut parts);
        let Some(name) = kids.next() else { continue };
        let Some(value) = kids.next() else { continue };
        let mut stack = vec![(value, text(name, code).to_string())];
        while let Some((n, place)) = stack.pop() {
            match n.kind() {
                "string" => {
                    let (line, column) = position(n);
                    out.push(Literal {
                        text: string_value(n, code),
                        place,
                        element: element.to_string(),
                        line,
                        column,
                    });
                    continue;
                }
                // A nested element's attributes are read with it.
                "jsx_element" | "jsx_self_closing_element" | "jsx_opening_element" => continue,
                _ => {}
            }
            let place = match (n.kind(), n.child_by_field_name("key")) {
                ("pair", Some(k)) => format!("{place}.{}", text(k, code).trim_matches(['\'', '"'])),
                _ => place,
            };
            let mut c = n.walk();
            let children: Vec<Node> = n.named_children(&mut c).collect();
            // The key of a pair is no value.
            let key = n.child_by_field_name("key").map(|k| k.id());
            stack.extend(children.into_iter().rev().filter(|c| Some(c.id()) != key).map(|c| (c, place.clone())));
        }
    }
}

fn element(node: Node, code: &str, declared: &Declared) -> Element {
    let (line, column) = position(node);
    let name = node.child_by_field_name("name").map_or(String::new(), |n| text(n, code).to_string());
    let mut attrs = Vec::new();
    let mut spread = false;
    let mut cursor = node.walk();
    for child in node.children_by_field_name("attribute", &mut cursor) {
        match child.kind() {
            "jsx_attribute" => {
                let (line, column) = position(child);
                let mut parts = child.walk();
                let mut kids = child.named_children(&mut parts);
                let Some(name) = kids.next() else { continue };
                let value_node = kids.next();
                let mut nested = Vec::new();
                if let Some(v) = value_node.filter(|v| v.kind() == "jsx_expression")
                    && let Some(e) = v.named_child(0)
                {
                    members(e, code, declared, &mut nested);
                }
                let value = match value_node {
                    None => AttrValue::Bare,
                    Some(v) if v.kind() == "string" => AttrValue::Str(string_value(v, code)),
                    Some(v) if v.kind() == "jsx_expression" => {
                        let mut inner = v.walk();
                        let expr = v.named_children(&mut inner).next();
                        match expr {
                            Some(e) if e.kind() == "string" => AttrValue::Str(string_value(e, code)),
                            Some(e) => AttrValue::Expr(text(e, code).to_string()),
                            None => AttrValue::Expr(String::new()),
                        }
                    }
                    Some(v) => AttrValue::Expr(text(v, code).to_string()),
                };
                attrs.push(Attr { name: text(name, code).to_string(), value, members: nested, line, column });
            }
            "jsx_expression" => spread = true,
            _ => {}
        }
    }
    Element { name, attrs, spread, line, column }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn imports_and_elements_with_their_attributes() {
        let code = "import React from 'react';\nimport { Button as B, Form } from '@s/ui';\nimport * as ui from '@s/ui';\n\
                    export const A = () => (\n  <Form layout=\"vertical\">\n    <Form.Input field=\"name\" {...rest} />\n    \
                    <B size={'small'} disabled onClick={() => go()} />\n  </Form>\n);\n";
        let usage = read(code).unwrap();
        let imports: Vec<(&str, &str, &str)> =
            usage.imports.iter().map(|i| (i.imported.as_str(), i.local.as_str(), i.source.as_str())).collect();
        assert_eq!(
            imports,
            [("default", "React", "react"), ("Button", "B", "@s/ui"), ("Form", "Form", "@s/ui"), ("*", "ui", "@s/ui")]
        );
        let names: Vec<&str> = usage.elements.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(names, ["Form", "Form.Input", "B"]);
        assert!(usage.elements[1].spread);
        let b = &usage.elements[2];
        assert_eq!((b.line, b.column), (7, 5));
        assert_eq!(b.attrs[0].value, AttrValue::Str("small".into()));
        assert_eq!(b.attrs[1].value, AttrValue::Bare);
        assert_eq!(b.attrs[2].value, AttrValue::Expr("() => go()".into()));
    }

    #[test]
    fn uses_name_elements_as_their_imports_export_them() {
        let code = "import { Button as B, Form } from '@s/ui';\nimport * as ui from '@s/ui';\n\
                    const A = () => <Form layout=\"vertical\"><Form.Input field=\"name\" /><B loading size={'small'} />\
                    <ui.Tag color=\"red\" /><div id=\"x\" /></Form>;\n";
        assert_eq!(
            uses(&read(code).unwrap()),
            [
                "Button",
                "Button.loading",
                "Button.size",
                "Form",
                "Form.Input",
                "Form.Input.field",
                "Form.layout",
                "Tag",
                "Tag.color",
            ]
        );
        // A snippet with an elided part still names what parses.
        let partial = "<Table rowSelection={rowSelection} ... />\n<Button type=\"primary\">OK</Button>";
        assert!(uses(&read_recovering(partial)).contains(&"Button.type".to_string()));
    }

    #[test]
    fn object_keys_inside_a_props_value_are_its_members_also_through_a_variable() {
        let code = "import { Table } from '@s/ui';\nconst columns = [{ title: 'A', sorter: { compare: f } }, \
                    { dataIndex: 'b', render() { return 1; } }];\nconst alias = columns;\n\
                    export default () => <Table columns={alias} pagination={{ pageSize: 5 }} data={data} />;\n";
        let uses = uses(&read(code).unwrap());
        let nested: Vec<&str> = uses.iter().map(String::as_str).filter(|u| u.contains('>')).collect();
        assert_eq!(
            nested,
            [
                "Table.columns>dataIndex",
                "Table.columns>render",
                "Table.columns>sorter",
                "Table.columns>sorter>compare",
                "Table.columns>title",
                "Table.pagination>pageSize",
            ]
        );
    }

    #[test]
    fn code_that_does_not_parse_says_where() {
        let err = read("const a = <Button size=\"small\" ;\n").unwrap_err();
        assert!(matches!(err, UsageError::Syntax { line: 1, .. }), "{err}");
    }
}
