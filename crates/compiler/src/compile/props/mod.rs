//! Props tables: the props of a component, extracted at build time from the two places design systems write
//! them down.
//!
//! - [`from_typescript`]: `interface XxxProps` and `type XxxProps = …` declarations of a `.ts`/`.tsx` source
//!   (Blueprint documents its props this way: its `.mdx` pages only point at the interfaces), parsed with
//!   tree-sitter. Descriptions, defaults and versions come from the JSDoc comment of each member; defaults also
//!   from `defaultProps` and from destructuring defaults of a function component's parameter.
//! - [`from_markdown`]: Markdown tables under an API heading of a document (Semi Design writes `## API 参考`,
//!   then one `## Table` / `### Column` heading per table), parsed with comrak's GFM table extension.
//!
//! Both return plain data ([`PropsTable`]); no parser type leaves `compile/`. Neither fails nor panics on any
//! input: what cannot be read is left out. Trees are walked with explicit stacks, so deeply nested input cannot
//! overflow the stack.

use std::collections::{HashMap, HashSet};

use tree_sitter::Node;

use super::source::SourceLang;
use crate::model::{Prop, PropsOrigin, PropsTable};
use defaults::{CodeDefaults, assigned_default_props, class_component, function_component, static_default_props};

mod defaults;
pub(crate) mod document;
mod types;
mod vue;

pub use document::from_markdown;
pub use types::TypeIndex;

/// Generic types whose arguments change what they mean (`Omit<A, "x">` is not `Omit`): an `extends` of one of
/// these is kept whole, as written (whitespace collapsed), in [`PropsTable::unresolved_extends`]; any other
/// generic is listed by its name without arguments (`Props<T>` → `Props`).
const UTILITY_TYPES: &[&str] = &[
    "Omit",
    "Pick",
    "Partial",
    "Required",
    "Readonly",
    "Record",
    "Exclude",
    "Extract",
    "NonNullable",
    "Parameters",
    "ReturnType",
    "InstanceType",
    "Awaited",
];

// ---- TypeScript ----------------------------------------------------------------------------------------------

/// The props tables declared in one TypeScript / TSX / JavaScript source file.
///
/// **What is a props table.** Every `interface XxxProps { … }` (exported or not, at any depth, including
/// namespaces) and every `type XxxProps = …` whose value is an object type `{ … }`, a type reference
/// (`type RadioProps = ControlProps`) or an intersection of those (`type XProps = A & { … }`), whose name ends
/// with `Props` (`Props` itself included). Unions are not props tables. One [`PropsTable`] per declaration, in
/// source order, with `origin` [`PropsOrigin::Typescript`], `lang` `None`, `name` the declared name and `line`
/// the 1-based line where the declaration starts (`export` excluded).
///
/// **Props.** Each property signature (`a?: T`) and method signature (`onClose(evt: E): void`) of the object
/// bodies, in source order. Index, call and construct signatures are not props.
/// - `name`: as written; a quoted name (`"aria-label"`) without its quotes.
/// - `type_text`: the annotation as written, whitespace runs collapsed to one space and a leading `|` or `&` of a
///   multi-line union dropped; `""` when there is none. For a method signature, everything after the name (and
///   its `?`): `(evt: E): void`.
/// - `optional`: the member has `?`.
/// - From the JSDoc comment (`/** … */`) right before the member: `description` is its text before the first
///   block tag, each line without its leading `*`, lines joined with one space (inline Markdown and HTML kept as
///   written); `default` is the text of `@default` (or `@defaultValue`), quotes kept (`@default "OK"` →
///   `"OK"`); `since` the text of `@since`; `deprecated` whether `@deprecated` is present, and its text, the advice,
///   ends the description as `(deprecated: <text>)` (`@deprecated use size="large" instead` on Blueprint's
///   `large?`: trial item 12), which the props table shows in place of the bare `(deprecated)`.
///
/// **Extends.** `interface A extends B, C` and the non-object members of an intersection alias. A type declared
/// in the same file (an interface, or a type alias accepted above, whatever its name) is *resolved*: its props
/// are appended after the own ones (an own prop wins on a name clash, and the first inherited one wins among
/// inherited ones), its own extends are followed depth-first (cycles are cut), and its name goes to
/// `extends`. Anything else goes to `unresolved_extends` as written: generics by their name (`Props<T>` →
/// `Props`, `React.HTMLAttributes<E>` → `React.HTMLAttributes`), utility generics ([`UTILITY_TYPES`]) whole
/// (`Omit<A, "x">`). Both lists hold the types met along the whole chain, in depth-first order, without repeats.
///
/// **Defaults from code** fill `default` where the JSDoc gives none, value text as written (whitespace
/// collapsed), first from `defaultProps`, then from destructuring:
/// - `static defaultProps[: T] = { a: 1 }` in a class: for the props type named in `T` (`Partial<XProps>` →
///   `XProps`), else the props type argument of the class's `extends` (`React.Component<XProps>`).
/// - `X.defaultProps = { … }`: for the props type of component `X` declared in the file (a class as above, or a
///   function component as below), else for `XProps`.
/// - A function component (a function, or an arrow / function expression held by a variable, possibly through
///   wrapper calls such as `memo(forwardRef(…))`, whose name starts with an upper-case letter) whose first
///   parameter is `({ a = 1, b: alias = 2 }: XProps)`, or `(props: XProps)` destructured at the top of its body
///   (`const { a = 1 } = props;`). The props type is the parameter's annotation, else the variable's
///   (`React.FC<XProps>`), else the last `…Props` type argument of the wrapper calls (`forwardRef<E, XProps>`).
///
/// Defaults apply to the table of that name after inherited props are merged in, so they reach inherited props
/// too. A file that cannot be parsed (over the size limit of the source analyzer) yields no tables; a file with
/// syntax errors yields what tree-sitter could recover.
pub fn from_typescript(lang: SourceLang, path: &str, text: &str) -> Vec<PropsTable> {
    let Ok(tree) = super::source::parse(lang, text) else {
        return Vec::new();
    };
    let mut decls: Vec<Decl> = Vec::new();
    let mut found = CodeDefaults::default();
    let root = tree.root_node();
    let mut cursor = root.walk();
    // Every visited node with the index of its parent: tree-sitter's `Node::parent` walks down from the root
    // (O(depth)), so asking it for each of 20,000 nested functions was quadratic; this is O(1) per step up.
    let mut arena: Vec<(Node, Option<usize>)> = vec![(root, None)];
    let mut stack = vec![0usize];
    while let Some(at) = stack.pop() {
        let node = arena[at].0;
        let ancestors = std::iter::successors(arena[at].1, |&i| arena[i].1).map(|i| arena[i].0);
        match node.kind() {
            "interface_declaration" => decls.extend(interface_decl(text, node)),
            "type_alias_declaration" => decls.extend(alias_decl(text, node)),
            "public_field_definition" | "field_definition" => static_default_props(text, node, ancestors, &mut found),
            "assignment_expression" => assigned_default_props(text, node, &mut found),
            "class_declaration" | "abstract_class_declaration" | "class" => class_component(text, node, &mut found),
            "function_declaration" | "arrow_function" | "function_expression" | "function" => {
                function_component(text, node, ancestors, &mut found);
            }
            _ => {}
        }
        let first = arena.len();
        arena.extend(node.named_children(&mut cursor).map(|c| (c, Some(at))));
        stack.extend((first..arena.len()).rev());
    }

    let by_name: HashMap<&str, usize> = decls.iter().enumerate().rev().map(|(i, d)| (d.name.as_str(), i)).collect();
    let defaults = found.by_type(&by_name);
    let mut tables = Vec::new();
    for (i, decl) in decls.iter().enumerate() {
        if !decl.name.ends_with("Props") {
            continue;
        }
        let mut table = PropsTable {
            name: decl.name.clone(),
            origin: PropsOrigin::Typescript,
            path: path.to_string(),
            lang: None,
            line: decl.line,
            end_line: decl.end_line,
            extends: Vec::new(),
            unresolved_extends: Vec::new(),
            props: decl.props.clone(),
        };
        merge_extends(&decls, &by_name, i, &mut table);
        for (prop, value) in defaults.get(decl.name.as_str()).into_iter().flatten() {
            if let Some(p) = table.props.iter_mut().find(|p| &p.name == prop && p.default.is_none()) {
                p.default = Some(value.clone());
            }
        }
        tables.push(table);
    }
    // Vue components declare props with macros or options objects, not (only) `XxxProps` types.
    vue::add(path, text, root, lang == SourceLang::Vue, &mut tables);
    tables
}

/// An interface or accepted type alias of the file, before extends are merged.
struct Decl {
    name: String,
    line: u32,
    /// Last line of the declaration (its closing `}` or `;`).
    end_line: u32,
    props: Vec<Prop>,
    extends: Vec<Ext>,
}

/// One extended type: `key` is the name to look up in the file (`None` for utility generics over what the file
/// does not declare, and other non-references), `shown` what to list, `filter` what a utility generic around it
/// does to its props.
struct Ext {
    key: Option<String>,
    shown: String,
    filter: Filter,
}

/// What the utility generics around an extended type do to the props it brings (`Partial<A>`, `Omit<A, 'x'>`,
/// `Pick<A, 'y'>`), combined outermost last.
#[derive(Clone, Debug, Default)]
struct Filter {
    /// Names `Omit` removes.
    omit: Vec<String>,
    /// Names `Pick` keeps (all when `None`).
    pick: Option<Vec<String>>,
    /// `Partial` (`Some(true)`) or `Required` (`Some(false)`) sets every prop's `optional`.
    optional: Option<bool>,
}

impl Filter {
    /// `prop` as the filter lets it through, `None` when it is removed.
    fn apply(&self, prop: &Prop) -> Option<Prop> {
        if self.omit.contains(&prop.name) || self.pick.as_ref().is_some_and(|k| !k.contains(&prop.name)) {
            return None;
        }
        let mut p = prop.clone();
        if let Some(optional) = self.optional {
            p.optional = optional;
        }
        Some(p)
    }

    /// This filter inside `outer` (`Partial<Omit<A, 'x'>>`: the omit applies, then the partial).
    fn within(&self, outer: &Filter) -> Filter {
        let mut omit = self.omit.clone();
        omit.extend(outer.omit.iter().cloned());
        let pick = match (&self.pick, &outer.pick) {
            (Some(a), Some(b)) => Some(a.iter().filter(|n| b.contains(n)).cloned().collect()),
            (a, b) => a.clone().or_else(|| b.clone()),
        };
        Filter { omit, pick, optional: outer.optional.or(self.optional) }
    }
}

/// Utility generics whose first argument's props pass through (changed by a [`Filter`]): `Partial`, `Required`,
/// `Readonly` and `Omit`/`Pick` with string literal keys.
fn filter_of(name: &str, keys: Option<Node>, text: &str) -> Option<Filter> {
    let literals = |n: Node| -> Option<Vec<String>> {
        let mut out = Vec::new();
        let mut stack = vec![n];
        while let Some(t) = stack.pop() {
            match t.kind() {
                "union_type" | "parenthesized_type" => {
                    let mut cursor = t.walk();
                    stack.extend(t.named_children(&mut cursor));
                }
                "literal_type" => out.push(unquote(node_text(text, t))),
                _ => return None,
            }
        }
        Some(out)
    };
    match name {
        "Partial" => Some(Filter { optional: Some(true), ..Filter::default() }),
        "Required" => Some(Filter { optional: Some(false), ..Filter::default() }),
        "Readonly" => Some(Filter::default()),
        "Omit" => Some(Filter { omit: literals(keys?)?, ..Filter::default() }),
        "Pick" => Some(Filter { pick: Some(literals(keys?)?), ..Filter::default() }),
        _ => None,
    }
}

/// Appends the props of the local types `decls[at]` extends (depth-first, cycles cut) and fills both extends
/// lists.
fn merge_extends(decls: &[Decl], by_name: &HashMap<&str, usize>, at: usize, table: &mut PropsTable) {
    let mut seen_props: HashSet<String> = table.props.iter().map(|p| p.name.clone()).collect();
    let mut visited: HashSet<usize> = HashSet::from([at]);
    let mut stack: Vec<(&Ext, Filter)> = decls[at].extends.iter().rev().map(|e| (e, e.filter.clone())).collect();
    while let Some((ext, filter)) = stack.pop() {
        match ext.key.as_deref().and_then(|k| by_name.get(k)) {
            Some(&i) => {
                if !visited.insert(i) {
                    continue;
                }
                let decl = &decls[i];
                if !table.extends.contains(&decl.name) {
                    table.extends.push(decl.name.clone());
                }
                for p in decl.props.iter().filter_map(|p| filter.apply(p)) {
                    if seen_props.insert(p.name.clone()) {
                        table.props.push(p);
                    }
                }
                stack.extend(decl.extends.iter().rev().map(|e| (e, e.filter.within(&filter))));
            }
            None => {
                if !table.unresolved_extends.contains(&ext.shown) {
                    table.unresolved_extends.push(ext.shown.clone());
                }
            }
        }
    }
}

fn interface_decl(text: &str, node: Node) -> Option<Decl> {
    let name = node_text(text, node.child_by_field_name("name")?).to_string();
    let mut cursor = node.walk();
    let mut extends = Vec::new();
    for child in node.named_children(&mut cursor) {
        if child.kind() == "extends_type_clause" {
            let mut inner = child.walk();
            extends.extend(child.named_children(&mut inner).filter(|t| t.kind() != "comment").map(|t| ext_of(text, t)));
        }
    }
    let props = node.child_by_field_name("body").map(|b| members(text, b)).unwrap_or_default();
    Some(Decl { name, line: line_of(node), end_line: end_line_of(node), props, extends })
}

fn alias_decl(text: &str, node: Node) -> Option<Decl> {
    let name = node_text(text, node.child_by_field_name("name")?).to_string();
    let mut value = node.child_by_field_name("value")?;
    while value.kind() == "parenthesized_type" {
        value = value.named_child(0)?;
    }
    if !matches!(
        value.kind(),
        "object_type" | "intersection_type" | "type_identifier" | "nested_type_identifier" | "generic_type"
    ) {
        return None;
    }
    let mut props = Vec::new();
    let mut extends = Vec::new();
    let mut cursor = value.walk();
    // Each type with the filter of the utility generics around it (`Partial<A & B>`: both partial) and the
    // outermost of them as written: a type it leads to that the file does not declare is listed as that whole text,
    // so that no later step follows it without its filter.
    let mut stack: Vec<(Node, Filter, Option<String>)> = vec![(value, Filter::default(), None)];
    while let Some((t, filter, outer)) = stack.pop() {
        match t.kind() {
            "object_type" => props.extend(members(text, t).iter().filter_map(|p| filter.apply(p))),
            "intersection_type" | "parenthesized_type" => {
                let children: Vec<Node> = t.named_children(&mut cursor).collect();
                stack.extend(children.into_iter().rev().map(|c| (c, filter.clone(), outer.clone())));
            }
            "comment" => {}
            "generic_type" if let Some((inner, own)) = passed_through(text, t) => {
                let outer = outer.or_else(|| Some(collapse(node_text(text, t))));
                stack.push((inner, own.within(&filter), outer));
            }
            _ => {
                let ext = ext_of(text, t);
                let shown = outer.unwrap_or(ext.shown);
                extends.push(Ext { filter: ext.filter.within(&filter), shown, ..ext });
            }
        }
    }
    Some(Decl { name, line: line_of(node), end_line: end_line_of(node), props, extends })
}

/// The first type argument of a utility generic whose props pass through it (`Partial<A & B>` → `A & B`), with
/// what it does to them; `None` for any other generic.
fn passed_through<'t>(text: &str, node: Node<'t>) -> Option<(Node<'t>, Filter)> {
    let name = node.child_by_field_name("name").map(|n| collapse(node_text(text, n)))?;
    let args = node.child_by_field_name("type_arguments")?;
    let mut cursor = args.walk();
    let mut kids = args.named_children(&mut cursor).filter(|c| c.kind() != "comment");
    let inner = kids.next()?;
    let filter = filter_of(name.rsplit('.').next().unwrap_or(""), kids.next(), text)?;
    Some((inner, filter))
}

fn ext_of(text: &str, node: Node) -> Ext {
    let whole = collapse(node_text(text, node));
    match node.kind() {
        "type_identifier" | "nested_type_identifier" => {
            Ext { key: Some(whole.clone()), shown: whole, filter: Filter::default() }
        }
        "generic_type" => {
            let name = node.child_by_field_name("name").map(|n| collapse(node_text(text, n))).unwrap_or_default();
            let last = name.rsplit('.').next().unwrap_or("");
            // A utility generic over a type named in the file (`Omit<BaseProps, 'x'>`) brings that type's props
            // through its filter; over anything else it stays unresolved, shown whole.
            if let Some((inner, filter)) = passed_through(text, node)
                && matches!(inner.kind(), "type_identifier" | "nested_type_identifier")
            {
                let key = collapse(node_text(text, inner));
                Ext { key: Some(key), shown: whole, filter }
            } else if name.is_empty() || UTILITY_TYPES.contains(&last) {
                Ext { key: None, shown: whole, filter: Filter::default() }
            } else {
                Ext { key: Some(name.clone()), shown: name, filter: Filter::default() }
            }
        }
        _ => Ext { key: None, shown: whole, filter: Filter::default() },
    }
}

/// The props of an `interface_body` or `object_type`.
pub(super) fn members(text: &str, body: Node) -> Vec<Prop> {
    let mut cursor = body.walk();
    let mut props = Vec::new();
    for member in body.named_children(&mut cursor) {
        let is_method = match member.kind() {
            "property_signature" => false,
            "method_signature" => true,
            _ => continue,
        };
        let Some(name_node) = member.child_by_field_name("name") else { continue };
        let name = unquote(node_text(text, name_node));
        if name.is_empty() {
            continue;
        }
        let mut inner = member.walk();
        let optional = member.children(&mut inner).any(|c| c.kind() == "?");
        let type_text = if is_method {
            let start = member
                .child_by_field_name("type_parameters")
                .or_else(|| member.child_by_field_name("parameters"))
                .map_or(member.end_byte(), |n| n.start_byte());
            let sig = text.get(start..member.end_byte()).unwrap_or("");
            collapse(sig).trim_end_matches([';', ',']).trim_end().to_string()
        } else {
            member
                .child_by_field_name("type")
                .and_then(|ann| {
                    let mut c = ann.walk();
                    ann.named_children(&mut c).find(|n| n.kind() != "comment")
                })
                .map(|t| collapse(node_text(text, t)).trim_start_matches(['|', '&']).trim_start().to_string())
                .unwrap_or_default()
        };
        let doc = member
            .prev_named_sibling()
            .filter(|c| c.kind() == "comment")
            .map(|c| node_text(text, c))
            .filter(|c| c.starts_with("/**"))
            .map(jsdoc)
            .unwrap_or_default();
        props.push(Prop {
            name,
            type_text,
            optional,
            default: doc.default,
            description: doc.description,
            since: doc.since,
            deprecated: doc.deprecated,
        });
    }
    props
}

/// What a member's JSDoc comment says.
#[derive(Default, Debug, PartialEq, Eq)]
pub(super) struct JsDoc {
    pub(super) description: Option<String>,
    pub(super) default: Option<String>,
    pub(super) since: Option<String>,
    pub(super) deprecated: bool,
}

/// Reads a `/** … */` comment: the description before the first block tag (a line starting with `@`), and the
/// `@default`/`@defaultValue`, `@since` and `@deprecated` tags (a tag's text runs until the next tag).
pub(super) fn jsdoc(comment: &str) -> JsDoc {
    let inner = comment.strip_prefix("/**").unwrap_or(comment);
    let inner = inner.strip_suffix("*/").unwrap_or(inner);
    let mut description: Vec<&str> = Vec::new();
    let mut tags: Vec<(&str, Vec<&str>)> = Vec::new();
    for line in inner.lines() {
        let line = line.trim();
        let line = if line == "*" {
            ""
        } else if let Some(rest) = line.strip_prefix("* ").or_else(|| line.strip_prefix("*\t")) {
            rest.trim()
        } else {
            line
        };
        if let Some(tag) = line.strip_prefix('@') {
            let (name, rest) = tag.split_once(char::is_whitespace).unwrap_or((tag, ""));
            tags.push((name, vec![rest]));
        } else if let Some((_, lines)) = tags.last_mut() {
            lines.push(line);
        } else {
            description.push(line);
        }
    }
    let mut doc = JsDoc { description: non_empty(collapse(&description.join(" "))), ..JsDoc::default() };
    for (name, lines) in tags {
        let value = non_empty(collapse(&lines.join(" ")));
        match name {
            "default" | "defaultValue" if doc.default.is_none() => doc.default = value,
            "since" if doc.since.is_none() => doc.since = value,
            "deprecated" => {
                doc.deprecated = true;
                if let Some(advice) = value {
                    let note = format!("(deprecated: {advice})");
                    doc.description = Some(match doc.description.take() {
                        Some(d) => format!("{d} {note}"),
                        None => note,
                    });
                }
            }
            _ => {}
        }
    }
    doc
}

pub(super) fn node_text<'a>(text: &'a str, node: Node) -> &'a str {
    text.get(node.byte_range()).unwrap_or("")
}

pub(super) fn line_of(node: Node) -> u32 {
    u32::try_from(node.start_position().row).unwrap_or(u32::MAX).saturating_add(1)
}

/// The 1-based line `node` ends on.
pub(super) fn end_line_of(node: Node) -> u32 {
    u32::try_from(node.end_position().row).unwrap_or(u32::MAX).saturating_add(1)
}

/// `"a-b"` or `'a-b'` → `a-b`; anything else as it is.
pub(super) fn unquote(s: &str) -> String {
    let quoted =
        s.len() >= 2 && ((s.starts_with('"') && s.ends_with('"')) || (s.starts_with('\'') && s.ends_with('\'')));
    if quoted { s[1..s.len() - 1].to_string() } else { s.to_string() }
}

/// `s` with every run of whitespace one space, trimmed.
pub(super) fn collapse(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `s`, or `None` when it is empty.
pub(super) fn non_empty(s: String) -> Option<String> {
    (!s.is_empty()).then_some(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn props_tables_end_where_their_table_or_type_ends() {
        let md = "# Table\n\n## API\n\n| Prop | Type |\n| --- | --- |\n| a | `{` |\n| b | string |\n\nAfter.\n";
        let t = &from_markdown("docs/table.md", "en-US", md)[0];
        assert_eq!((t.line, t.end_line), (5, 8));
        let ts = "import x from 'y';\n\nexport interface ButtonProps {\n  /** a `}` in a comment */\n  \
                  label?: string; // }\n  size?: '}' | 'large';\n  style?: { color: string };\n}\n\nconst z = 1;\n";
        let t = &from_typescript(SourceLang::Tsx, "src/button.tsx", ts)[0];
        assert_eq!((t.line, t.end_line), (3, 8));
        let alias = "export type SharedProps = Base &\n  Other;\nconst z = 1;\n";
        let t = &from_typescript(SourceLang::Tsx, "src/shared.ts", alias)[0];
        assert_eq!((t.line, t.end_line), (1, 2));
    }

    #[test]
    fn extends_resolve_through_imports_reexports_and_the_package_entry() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let files = [
            ("package.json", r#"{"name": "@acme/ui"}"#),
            ("src/index.ts", "export * from './common';\n"),
            ("src/common/index.ts", "export { Base as BaseProps } from './base';\nexport * from './intent';\n"),
            (
                "src/common/base.ts",
                "import { Cls } from '../cls';\nexport interface Base extends Cls {\n  /** Off. */\n  disabled?: boolean;\n}\n",
            ),
            ("src/common/intent.ts", "export interface IntentProps { intent?: Intent; }\n"),
            ("src/cls.tsx", "export interface Cls { className?: string; }\n"),
            (
                "src/button/button.tsx",
                "import type { BaseProps } from '../common';\nimport { IntentProps as I } from '@acme/ui';\n\
             export interface ButtonProps extends BaseProps, I, Missing, React.HTMLAttributes<E> {\n  big?: boolean;\n}\n",
            ),
        ];
        for (rel, text) in files {
            std::fs::create_dir_all(root.join(rel).parent().unwrap()).unwrap();
            std::fs::write(root.join(rel), text).unwrap();
        }
        let rel = "src/button/button.tsx";
        let mut tables = from_typescript(SourceLang::Tsx, rel, files[6].1);
        assert_eq!(tables[0].unresolved_extends, ["BaseProps", "I", "Missing", "React.HTMLAttributes"]);
        let index = TypeIndex::new(root, files.iter().map(|(p, _)| *p), 1_000_000);
        index.resolve_table(&mut tables[0]);
        let t = &tables[0];
        assert_eq!(t.extends, ["Base", "Cls", "IntentProps"]);
        assert_eq!(t.unresolved_extends, ["Missing", "React.HTMLAttributes"]);
        let props: Vec<(&str, Option<&str>)> =
            t.props.iter().map(|p| (p.name.as_str(), p.description.as_deref())).collect();
        assert_eq!(props, [("big", None), ("disabled", Some("Off.")), ("className", None), ("intent", None)]);
    }

    fn prop(name: &str, type_text: &str, optional: bool) -> Prop {
        Prop {
            name: name.into(),
            type_text: type_text.into(),
            optional,
            default: None,
            description: None,
            since: None,
            deprecated: false,
        }
    }

    fn find<'a>(tables: &'a [PropsTable], name: &str) -> &'a PropsTable {
        tables.iter().find(|t| t.name == name).unwrap_or_else(|| panic!("no table {name}"))
    }

    fn get<'a>(table: &'a PropsTable, name: &str) -> &'a Prop {
        table.props.iter().find(|p| p.name == name).unwrap_or_else(|| panic!("no prop {name} in {}", table.name))
    }

    const PANEL: &str = r#"import type { Remote } from "./remote";

interface Base {
    /** Shared id. */
    id?: string;
    size: number;
}

interface Sized extends Base, Remote<string> {
    /** Overridden below. */
    size: "small" | "large";
}

/**
 * Props of the panel.
 */
export interface PanelProps extends Sized, Omit<Other, "x">, Ns.Thing {
    /**
     * Whether the panel
     * can be closed.
     *
     * @default false
     * @since 1.2.0
     */
    closable?: boolean;

    /** @deprecated use `closable` */
    dismissible?: boolean;

    /** The title. @default ignored, not a block tag */
    title: React.ReactNode;

    /**
     * Tone.
     * @default "calm"
     */
    tone?:
        | "calm"
        | "loud";

    "aria-label"?: string;

    onClose?(evt: MouseEvent, reason: string): void;
    render<T>(item: T): JSX.Element,
    size: number;
    [key: string]: unknown;
}

interface LoopAProps extends LoopBProps { a: 1 }
interface LoopBProps extends LoopAProps { b: 2 }
"#;

    #[test]
    fn interfaces_with_jsdoc_methods_and_extends() {
        let tables = from_typescript(SourceLang::Tsx, "src/panel.tsx", PANEL);
        let names: Vec<&str> = tables.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["PanelProps", "LoopAProps", "LoopBProps"]);
        let panel = &tables[0];
        assert_eq!((panel.path.as_str(), panel.line, panel.lang.as_deref()), ("src/panel.tsx", 17, None));
        assert_eq!(panel.origin, PropsOrigin::Typescript);
        assert_eq!(panel.extends, ["Sized", "Base"]);
        // Depth-first: Sized's `Remote<string>` is met before the next extends of PanelProps.
        assert_eq!(panel.unresolved_extends, ["Remote", r#"Omit<Other, "x">"#, "Ns.Thing"]);
        let want = vec![
            Prop {
                default: Some("false".into()),
                description: Some("Whether the panel can be closed.".into()),
                since: Some("1.2.0".into()),
                ..prop("closable", "boolean", true)
            },
            Prop {
                deprecated: true,
                description: Some("(deprecated: use `closable`)".into()),
                ..prop("dismissible", "boolean", true)
            },
            Prop {
                description: Some("The title. @default ignored, not a block tag".into()),
                ..prop("title", "React.ReactNode", false)
            },
            Prop {
                default: Some(r#""calm""#.into()),
                description: Some("Tone.".into()),
                ..prop("tone", r#""calm" | "loud""#, true)
            },
            prop("aria-label", "string", true),
            prop("onClose", "(evt: MouseEvent, reason: string): void", true),
            prop("render", "<T>(item: T): JSX.Element", false),
            prop("size", "number", false),
            // Inherited: Sized's own props (its `size` loses to PanelProps'), then Base's.
            Prop { description: Some("Shared id.".into()), ..prop("id", "string", true) },
        ];
        assert_eq!(panel.props, want);

        // Cycles are cut: each side gets the other's props once.
        let a = find(&tables, "LoopAProps");
        assert_eq!(a.extends, ["LoopBProps"]);
        assert_eq!(a.props.iter().map(|p| p.name.as_str()).collect::<Vec<_>>(), ["a", "b"]);
        assert!(a.unresolved_extends.is_empty());
    }

    #[test]
    fn type_aliases_and_intersections() {
        let src = r#"type Common = { /** Common flag. */ flag?: boolean };
export type ButtonProps = Common & React.HTMLAttributes<HTMLButtonElement> & {
    /** Kind. @since 2.0 */
    kind: "a" | "b";
};
type RadioProps = ButtonProps;
type PickedProps = Pick<ButtonProps, "kind">;
type EitherProps = ButtonProps | RadioProps;
type WrappedProps = (Common & { x: number });
"#;
        let tables = from_typescript(SourceLang::TypeScript, "b.ts", src);
        let names: Vec<&str> = tables.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["ButtonProps", "RadioProps", "PickedProps", "WrappedProps"]);
        let button = &tables[0];
        assert_eq!(button.line, 2);
        assert_eq!(button.extends, ["Common"]);
        assert_eq!(button.unresolved_extends, ["React.HTMLAttributes"]);
        assert_eq!(
            button.props,
            vec![
                // "@since" inside a line is not a block tag.
                Prop { description: Some("Kind. @since 2.0".into()), ..prop("kind", r#""a" | "b""#, false) },
                Prop { description: Some("Common flag.".into()), ..prop("flag", "boolean", true) },
            ]
        );
        let radio = &tables[1];
        assert_eq!(radio.extends, ["ButtonProps", "Common"]);
        assert_eq!(radio.props.len(), 2);
        // `Pick` of a type of the file keeps the props it names, and what that type could not resolve.
        let picked = &tables[2];
        assert_eq!(picked.props.iter().map(|p| p.name.as_str()).collect::<Vec<_>>(), ["kind"]);
        assert_eq!(picked.unresolved_extends, ["React.HTMLAttributes"]);
        let wrapped = &tables[3];
        assert_eq!(wrapped.props.iter().map(|p| p.name.as_str()).collect::<Vec<_>>(), ["x", "flag"]);
    }

    #[test]
    fn utility_generics_over_the_files_types_pass_their_props_through() {
        // Arco's Button: the props type is `Partial<>` of intersections of local types and an `Omit<>` of React's.
        let src = r#"export interface BaseButtonProps { /** Loading. */ loading?: boolean; size: 'a' | 'b'; }
export type AnchorButtonProps = { href: string } & BaseButtonProps & Omit<AnchorHTMLAttributes<any>, 'type'>;
export type FinalButtonProps = { htmlType?: 'button' } & BaseButtonProps;
export type ButtonProps = Partial<FinalButtonProps & AnchorButtonProps>;
type NoSizeProps = Omit<BaseButtonProps, 'size'>;
type StrictProps = Required<Pick<BaseButtonProps, 'loading'>>;
"#;
        let tables = from_typescript(SourceLang::TypeScript, "i.ts", src);
        let button = find(&tables, "ButtonProps");
        let names: Vec<(&str, bool)> = button.props.iter().map(|p| (p.name.as_str(), p.optional)).collect();
        assert_eq!(names, [("htmlType", true), ("loading", true), ("size", true), ("href", true)]);
        assert_eq!(get(button, "loading").description.as_deref(), Some("Loading."));
        assert_eq!(button.extends, ["FinalButtonProps", "BaseButtonProps", "AnchorButtonProps"]);
        assert_eq!(button.unresolved_extends, ["Omit<AnchorHTMLAttributes<any>, 'type'>"]);
        let no_size = find(&tables, "NoSizeProps");
        assert_eq!(no_size.props.iter().map(|p| p.name.as_str()).collect::<Vec<_>>(), ["loading"]);
        let strict = find(&tables, "StrictProps");
        assert_eq!(
            strict.props.iter().map(|p| (p.name.as_str(), p.optional)).collect::<Vec<_>>(),
            [("loading", false)]
        );
    }

    #[test]
    fn defaults_from_default_props_and_destructuring() {
        let src = r#"export interface CardProps {
    /** @default 3 */
    elevation?: number;
    interactive?: boolean;
    label?: string;
}
export class Card extends React.PureComponent<CardProps, State> {
    static defaultProps = { elevation: 1, interactive: false, "label": 'card' };
}
interface TagProps { round?: boolean; minimal?: boolean; size?: string }
export class Tag extends AbstractComponent<TagProps> {
    public static defaultProps: Partial<TagProps> = {
        round: true,
    };
}
Tag.defaultProps = { minimal: true, round: false };
interface ChipProps { a?: number; b?: string; c?: boolean; d?: number[] }
export function Chip({ a = 1, b: renamed = "x", c }: ChipProps) { return null; }
Chip.defaultProps = { c: true };
interface BadgeProps { dot?: boolean; count?: number }
export const Badge = React.forwardRef<HTMLSpanElement, BadgeProps>((props, ref) => {
    const { dot = false, count = 10 } = props;
    return null;
});
interface PillProps { tone?: string }
export const Pill: React.FC<PillProps> = ({ tone = "calm" }) => null;
interface LooseProps { n?: number }
function helper({ n = 5 }: LooseProps) {}
"#;
        let tables = from_typescript(SourceLang::Tsx, "c.tsx", src);
        let default = |table: &str, name: &str| get(find(&tables, table), name).default.clone();
        // JSDoc wins over defaultProps.
        assert_eq!(default("CardProps", "elevation").as_deref(), Some("3"));
        assert_eq!(default("CardProps", "interactive").as_deref(), Some("false"));
        assert_eq!(default("CardProps", "label").as_deref(), Some("'card'"));
        // The static field comes first, then the assignment.
        assert_eq!(default("TagProps", "round").as_deref(), Some("true"));
        assert_eq!(default("TagProps", "minimal").as_deref(), Some("true"));
        assert_eq!(default("TagProps", "size"), None);
        // defaultProps (through the function's parameter type) before destructuring.
        assert_eq!(default("ChipProps", "a").as_deref(), Some("1"));
        assert_eq!(default("ChipProps", "b").as_deref(), Some(r#""x""#));
        assert_eq!(default("ChipProps", "c").as_deref(), Some("true"));
        assert_eq!(default("ChipProps", "d"), None);
        assert_eq!(default("BadgeProps", "dot").as_deref(), Some("false"));
        assert_eq!(default("BadgeProps", "count").as_deref(), Some("10"));
        assert_eq!(default("PillProps", "tone").as_deref(), Some(r#""calm""#));
        // A lower-case helper is not a component.
        assert_eq!(default("LooseProps", "n"), None);
    }

    #[test]
    fn typescript_odd_inputs_do_not_panic() {
        let deep = "type DeepProps = ".to_string() + &"{ a: ".repeat(5_000) + "1";
        let chain: String =
            (0..500).map(|i| format!("interface P{i}Props extends P{}Props {{ p{i}: {i} }}\n", i + 1)).collect();
        let inputs = [
            "",
            "interface",
            "interface Props",
            "interface XProps extends { }",
            "type XProps = ",
            "type XProps = { a?: }",
            "export interface BrokenProps { /** unterminated",
            "class A { static defaultProps = 1; } A.defaultProps = 2;",
            "const X = ({ a = }: XProps) => null;",
            "\u{feff}interface ÜProps { \"é\"?: string; /** 😀 */ x: 1 }",
            deep.as_str(),
            chain.as_str(),
        ];
        for lang in [SourceLang::TypeScript, SourceLang::Tsx, SourceLang::JavaScript] {
            for input in inputs {
                let _ = from_typescript(lang, "x.ts", input);
            }
        }
        let tables = from_typescript(SourceLang::TypeScript, "x.ts", &chain);
        assert_eq!(tables.len(), 500);
        assert_eq!(tables[0].props.len(), 500);
        assert_eq!(tables[0].unresolved_extends, ["P500Props"]);
    }

    #[test]
    fn jsdoc_tags() {
        let doc = jsdoc(
            "/**\n * First line\n *   second **bold**.\n *\n * @default {\n *   a: 1 }\n * @since v3\n * @deprecated\n */",
        );
        assert_eq!(
            doc,
            JsDoc {
                description: Some("First line second **bold**.".into()),
                default: Some("{ a: 1 }".into()),
                since: Some("v3".into()),
                deprecated: true,
            }
        );
        assert_eq!(jsdoc("/** **Bold** start. */").description.as_deref(), Some("**Bold** start."));
        // The advice of `@deprecated` is kept, after the description (Blueprint's `large?`).
        let doc = jsdoc(
            "/**\n     * Whether this tag should use large styles.\n     *\n     * @deprecated use size=\"large\" instead\n     * @default false\n     */",
        );
        assert_eq!(
            doc.description.as_deref(),
            Some("Whether this tag should use large styles. (deprecated: use size=\"large\" instead)")
        );
        assert!(doc.deprecated);
        assert_eq!(doc.default.as_deref(), Some("false"));
        assert_eq!(jsdoc("/** @deprecated Use `b`. */").description.as_deref(), Some("(deprecated: Use `b`.)"));
        assert_eq!(jsdoc("/***/"), JsDoc::default());
    }

    const SEMI_LIKE: &str = "# Widget 组件

| 属性 | 说明 |
| --- | --- |
| early | 不在 API 区域 |

## API 参考

## Widget

| 属性 | 说明 | 类型 | 默认值 | 版本 |
| --- | --- | --- | --- | --- |
| bordered | 是否有边框 | boolean | false |
| `mode` | 模式，见[Mode](#mode) | 'a' \\| 'b' | 'a' | **2.1.0** |
| parts | 组成元素 | <a target=\"_blank\" href=\"https://example.com/x.ts#L1\">WidgetParts</a> | - | - |
| kind | 种类 | <ApiType detail='{ a: 1 }'>Kind</ApiType> | | |
| items | 数据 | Array<string> \\| ReactNode<br/>\\|(x: number) => void | [] |
| field | 映射路径<br/>**必填** | string |
| oldProp | 已废弃，请使用 mode | string |
| required | 是否展示必填的\\*号 | boolean | false |
| short |
|  | 空名字 | string |

### Widget.Item

| Properties | Description | Type | Default | Version |
| --- | --- | --- | --- | --- |
| key | Required and must be unique | string | - |
| aria-required | Set aria-required | string | - |
| legacy | **Deprecated**, use key | string | - |

| 名称 | 说明 |
| --- | --- |
| notProps | 没有名字列 |

## Methods

| Name | Description |
| --- | --- |
| focus() | Focuses |

# Other

| 属性 | 说明 |
| --- | --- |
| late | 已离开 API 区域 |
";

    #[test]
    fn markdown_tables_under_api_headings() {
        let tables = from_markdown("content/widget/index.md", "zh-CN", SEMI_LIKE);
        let names: Vec<(&str, u32)> = tables.iter().map(|t| (t.name.as_str(), t.line)).collect();
        assert_eq!(names, [("Widget", 11), ("Widget.Item", 26)]);
        let widget = &tables[0];
        assert_eq!(widget.origin, PropsOrigin::Document);
        assert_eq!((widget.path.as_str(), widget.lang.as_deref()), ("content/widget/index.md", Some("zh-CN")));
        assert!(widget.extends.is_empty() && widget.unresolved_extends.is_empty());
        let with = |p: Prop, description: &str| Prop { description: Some(description.into()), ..p };
        let want = vec![
            Prop { default: Some("false".into()), ..with(prop("bordered", "boolean", true), "是否有边框") },
            Prop {
                default: Some("'a'".into()),
                since: Some("2.1.0".into()),
                ..with(prop("mode", "'a' | 'b'", true), "模式，见Mode")
            },
            with(prop("parts", "WidgetParts", true), "组成元素"),
            with(prop("kind", "Kind", true), "种类"),
            Prop {
                default: Some("[]".into()),
                ..with(prop("items", "Array<string> | ReactNode |(x: number) => void", true), "数据")
            },
            with(prop("field", "string", false), "映射路径 必填"),
            Prop { deprecated: true, ..with(prop("oldProp", "string", true), "已废弃，请使用 mode") },
            Prop {
                default: Some("false".into()), ..with(prop("required", "boolean", true), "是否展示必填的*号")
            },
            prop("short", "", true),
        ];
        assert_eq!(widget.props, want);
        let item = &tables[1];
        assert_eq!(item.lang.as_deref(), Some("zh-CN"));
        assert_eq!(
            item.props,
            vec![
                with(prop("key", "string", false), "Required and must be unique"),
                with(prop("aria-required", "string", true), "Set aria-required"),
                Prop { deprecated: true, ..with(prop("legacy", "string", true), "Deprecated, use key") },
            ]
        );
    }

    #[test]
    fn markdown_zones_and_headings() {
        // Blueprint-style: an API heading followed by directives, not tables.
        let blueprint = "# Alert\n\n## Props interface\n\n@interface AlertProps\n";
        assert!(from_markdown("alert.mdx", "", blueprint).is_empty());
        // A nested API heading closes at the next heading of a higher level.
        let nested = "## Usage\n\n#### via props.x\n\n### Binding\n\n| Name | Type |\n| - | - |\n| a | b |\n";
        assert!(from_markdown("x.md", "en-US", nested).is_empty());
        // A table right under the API heading takes its name; CRLF and a lone CR keep our line numbers.
        let crlf = "x\r\r\n## API\r\n\r\n| Prop | Type | Default |\r\n|---|---|---|\r\n| on | `boolean` | `true` |\r\n";
        let tables = from_markdown("y.md", "en-US", crlf);
        assert_eq!(tables.len(), 1);
        assert_eq!((tables[0].name.as_str(), tables[0].line), ("API", 4));
        assert_eq!(tables[0].props, vec![Prop { default: Some("true".into()), ..prop("on", "boolean", true) }]);
        // No heading above at all: not in a zone.
        assert!(from_markdown("z.md", "", "| 属性 | 说明 |\n|---|---|\n| a | b |\n").is_empty());
    }

    #[test]
    fn markdown_odd_inputs_do_not_panic() {
        let deep_quotes = ">".repeat(10_000) + " ## API\n\n| Name |\n|---|\n| a |";
        let wide = "## API\n\n| Name |\n|---|\n".to_string() + &"| a | b | c | d |\n".repeat(1000);
        let inputs = [
            "",
            "## API",
            "## API\n\n| Name |\n|---|\n",
            "## API\n\n| Name | Default |\n|---|---|\n| a |\n|\n| | |\n",
            "## API\n\n|Name|\n|:-:|\n|<a>|\n|`|\n|\\|\n",
            "## API\n\n| Name | Type |\n|---|---|\n| a | x<y<z<w |\n| b | </x> <!-- c --> |\n",
            "\u{feff}## 属性\r\r| 属性 | 类型 |\r|---|---|\r| é | 😀 |",
            deep_quotes.as_str(),
            wide.as_str(),
        ];
        for input in inputs {
            let _ = from_markdown("x.md", "zh-CN", input);
        }
        let tables = from_markdown("x.md", "", &wide);
        assert_eq!((tables.len(), tables[0].props.len()), (1, 1000));
    }
}
