//! Storybook stories (Component Story Format) as examples: each named export of a `*.stories.tsx` /
//! `*.story.tsx` file is one example, titled with its export name, its code the export and what it uses from the
//! file (the imports and top-level declarations whose names it mentions, followed transitively); a re-export
//! (`export { ButtonBasic as Basic } from "compositions/examples/button-basic"`) points to the file it names. The
//! default export's `title` (last `/` segment) or `component` names the component, else the file name does.

use std::collections::HashSet;
use std::path::Path;

use tree_sitter::Node;

use super::super::source::{self, SourceLang};

/// One story.
#[derive(Clone, Debug, PartialEq)]
pub struct Story {
    /// The export name (`Basic`).
    pub name: String,
    /// Its code: what it uses from the file, then the export; empty for a re-export.
    pub code: String,
    /// For a re-export, the module it comes from (`compositions/examples/button-basic`).
    pub from: Option<String>,
}

/// What a story file holds.
#[derive(Clone, Debug, PartialEq)]
pub struct StoryFile {
    /// The component it documents, as written (`Button`, `Date Picker`).
    pub component: String,
    /// Its stories, in file order.
    pub stories: Vec<Story>,
}

/// Whether `rel` names a story file.
pub fn is_story_file(rel: &str) -> bool {
    let name = rel.rsplit('/').next().unwrap_or(rel);
    let Some((stem, ext)) = name.rsplit_once('.') else { return false };
    matches!(ext, "tsx" | "ts" | "jsx" | "js") && (stem.ends_with(".stories") || stem.ends_with(".story"))
}

/// Reads the story file `rel` (`text`); `None` when it is not parsable.
pub fn read(rel: &str, text: &str) -> Option<StoryFile> {
    let lang = SourceLang::from_path(Path::new(rel))?;
    let tree = source::parse(lang, text).ok()?;
    let root = tree.root_node();
    let src = |n: Node| text.get(n.byte_range()).unwrap_or("");
    let mut imports: Vec<Node> = Vec::new();
    let mut locals: Vec<(Vec<String>, Node)> = Vec::new();
    let mut exports: Vec<(String, Node, Option<String>)> = Vec::new();
    let mut component = None;
    let mut cursor = root.walk();
    let top: Vec<Node> = root.named_children(&mut cursor).collect();
    for node in &top {
        match node.kind() {
            "import_statement" => imports.push(*node),
            "export_statement" => {
                let is_default = (0..node.child_count()).filter_map(|i| node.child(i)).any(|c| c.kind() == "default");
                if is_default {
                    component = component.or_else(|| meta_component(*node, &top, text));
                    continue;
                }
                let from = node.child_by_field_name("source").map(|s| src(s).trim_matches(['"', '\'']).to_string());
                if let Some(decl) = node.child_by_field_name("declaration") {
                    for name in declared_names(decl, text) {
                        exports.push((name, *node, None));
                    }
                } else {
                    let mut c = node.walk();
                    for clause in node.named_children(&mut c).filter(|n| n.kind() == "export_clause") {
                        let mut c2 = clause.walk();
                        for spec in clause.named_children(&mut c2).filter(|n| n.kind() == "export_specifier") {
                            let name = spec.child_by_field_name("alias").or_else(|| spec.child_by_field_name("name"));
                            let local = spec.child_by_field_name("name").map(|n| src(n).to_string());
                            let Some(name) = name.map(|n| src(n).to_string()) else { continue };
                            match &from {
                                Some(m) => exports.push((name, *node, Some(m.clone()))),
                                // `export { Basic }`: the local declaration is the story.
                                None => {
                                    let decl = local
                                        .and_then(|l| locals.iter().find(|(ns, _)| ns.contains(&l)).map(|(_, n)| *n));
                                    exports.push((name, decl.unwrap_or(*node), None));
                                }
                            }
                        }
                    }
                }
            }
            _ => {
                let names = declared_names(*node, text);
                if !names.is_empty() {
                    locals.push((names, *node));
                }
            }
        }
    }
    let component = component.unwrap_or_else(|| {
        let name = rel.rsplit('/').next().unwrap_or(rel);
        name.split('.').next().unwrap_or(name).to_string()
    });
    let stories = exports
        .into_iter()
        .map(|(name, node, from)| {
            let code = if from.is_some() { String::new() } else { with_uses(node, &imports, &locals, text) };
            Story { name, code, from }
        })
        .collect();
    Some(StoryFile { component, stories })
}

/// The names a top-level declaration binds (`const A = …, B = …`, `function f`, `class C`).
fn declared_names(node: Node, text: &str) -> Vec<String> {
    let src = |n: Node| text.get(n.byte_range()).unwrap_or("").to_string();
    match node.kind() {
        "lexical_declaration" | "variable_declaration" => {
            let mut c = node.walk();
            node.named_children(&mut c)
                .filter(|n| n.kind() == "variable_declarator")
                .filter_map(|d| d.child_by_field_name("name").filter(|n| n.kind() == "identifier").map(src))
                .collect()
        }
        "function_declaration"
        | "class_declaration"
        | "generator_function_declaration"
        | "interface_declaration"
        | "type_alias_declaration"
        | "enum_declaration" => node.child_by_field_name("name").map(src).into_iter().collect(),
        _ => Vec::new(),
    }
}

/// The component named by the default export (`export default { title: "Components / Button", component: Button }`,
/// directly or through a `const meta = {…}` it names).
fn meta_component(export: Node, top: &[Node], text: &str) -> Option<String> {
    let src = |n: Node| text.get(n.byte_range()).unwrap_or("");
    let value = export.child_by_field_name("value").or_else(|| export.child_by_field_name("declaration"))?;
    let object = find_object(value).or_else(|| {
        // `export default meta`: the object of `const meta = …`.
        let name = src(value);
        top.iter().find(|n| declared_names(**n, text).iter().any(|d| d == name)).and_then(|n| find_object(*n))
    })?;
    let mut c = object.walk();
    let pairs: Vec<Node> = object.named_children(&mut c).filter(|n| n.kind() == "pair").collect();
    let field = |key: &str| {
        pairs
            .iter()
            .find(|p| p.child_by_field_name("key").is_some_and(|k| src(k).trim_matches(['"', '\'']) == key))?
            .child_by_field_name("value")
    };
    if let Some(title) = field("title").filter(|v| v.kind() == "string") {
        let title = src(title).trim_matches(['"', '\'', '`']);
        let last = title.rsplit('/').next().unwrap_or(title).trim();
        if !last.is_empty() {
            return Some(last.to_string());
        }
    }
    field("component").filter(|v| v.kind() == "identifier").map(|v| src(v).to_string())
}

/// The first object literal in `node` (through `satisfies`, `as`, parentheses, a declarator).
fn find_object(node: Node) -> Option<Node> {
    if node.kind() == "object" {
        return Some(node);
    }
    let mut c = node.walk();
    let children: Vec<Node> = node.named_children(&mut c).collect();
    children
        .into_iter()
        .find_map(|n| if matches!(n.kind(), "arrow_function" | "function_expression") { None } else { find_object(n) })
}

/// `node`'s text preceded by the imports and top-level declarations it uses, transitively (a name counts as used
/// when it appears as a word of the text: a guess that may take a declaration a comment names).
fn with_uses(node: Node, imports: &[Node], locals: &[(Vec<String>, Node)], text: &str) -> String {
    let src = |n: Node| text.get(n.byte_range()).unwrap_or("");
    let words = |s: &str| -> HashSet<String> {
        s.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
            .filter(|w| !w.is_empty())
            .map(String::from)
            .collect()
    };
    let mut used: Vec<usize> = Vec::new();
    let mut seen = words(src(node));
    loop {
        let before = used.len();
        for (i, (names, decl)) in locals.iter().enumerate() {
            if decl.id() != node.id() && !used.contains(&i) && names.iter().any(|n| seen.contains(n)) {
                used.push(i);
                seen.extend(words(src(*decl)));
            }
        }
        if used.len() == before {
            break;
        }
    }
    used.sort_by_key(|&i| locals[i].1.start_byte());
    let mut out = String::new();
    for import in imports {
        let mut c = import.walk();
        let bound: HashSet<String> = import
            .named_children(&mut c)
            .filter(|n| n.kind() == "import_clause")
            .flat_map(|clause| words(src(clause)))
            .collect();
        if bound.iter().any(|w| seen.contains(w) && w != "type" && w != "as") {
            out.push_str(src(*import));
            out.push('\n');
        }
    }
    if !out.is_empty() {
        out.push('\n');
    }
    for i in used {
        out.push_str(src(locals[i].1));
        out.push_str("\n\n");
    }
    out.push_str(src(node));
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const CSF: &str = "import React from 'react';\nimport { Button, Space } from '@self';\nimport { unused } from 'x';\n\n\
                       export default { title: 'General / Button', component: Button };\n\n\
                       const Row = ({ children }) => <Space>{children}</Space>;\n\nconst other = 1;\n\n\
                       export const Basic = () => <Row><Button>Hi</Button></Row>;\n\n\
                       export function Loading() {\n  return <Button loading />;\n}\n\n\
                       export { ButtonBasic as Remote } from \"compositions/examples/button-basic\"\n";

    #[test]
    fn each_named_export_is_a_story_with_what_it_uses() {
        let f = read("stories/Button.stories.tsx", CSF).unwrap();
        assert_eq!(f.component, "Button");
        let names: Vec<&str> = f.stories.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["Basic", "Loading", "Remote"]);
        assert_eq!(
            f.stories[0].code,
            "import { Button, Space } from '@self';\n\nconst Row = ({ children }) => <Space>{children}</Space>;\n\n\
             export const Basic = () => <Row><Button>Hi</Button></Row>;\n"
        );
        assert!(f.stories[1].code.ends_with("export function Loading() {\n  return <Button loading />;\n}\n"));
        assert_eq!(f.stories[2].from.as_deref(), Some("compositions/examples/button-basic"));
        assert!(is_story_file("a/button.stories.tsx") && is_story_file("Table.story.tsx"));
        assert!(!is_story_file("story.tsx") && !is_story_file("a.stories.mdx"));
    }

    #[test]
    fn the_meta_object_may_be_a_named_const_and_without_title_the_file_names_the_component() {
        let f = read(
            "x/Tag.stories.tsx",
            "const meta = { component: Tag } satisfies Meta;\nexport default meta;\nexport const A = 1;\n",
        )
        .unwrap();
        assert_eq!(f.component, "Tag");
        let f = read("x/date-picker.story.tsx", "export const A = () => null;\n").unwrap();
        assert_eq!(f.component, "date-picker");
    }
}
