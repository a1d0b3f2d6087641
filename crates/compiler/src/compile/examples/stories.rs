//! Storybook stories (Component Story Format) as examples: each named export of a story file (`*.stories.tsx`,
//! `*.story.tsx`, any of tsx/ts/jsx/js) is one example, titled with its `name` / `storyName` when it sets one,
//! else its export name; its code is the export, the file's imports and top-level declarations it uses (followed
//! transitively) and the `Story.prop = …` statements that follow it. A re-export
//! (`export { ButtonBasic as Basic } from "compositions/examples/button-basic"`) points to the module it names.
//! The default export's `title` (its last `/` segment) or `component` names the component; without either, the
//! file name does (a guess the caller states). A file that does not parse, or has no default export, is an error
//! saying why (the build warns with it: issue 25's trial found such files dropped silently).

use std::collections::HashSet;
use std::path::Path;

use tree_sitter::Node;

use super::super::source::{self, SourceLang};

/// One story.
#[derive(Clone, Debug, PartialEq)]
pub struct Story {
    /// The export name (`Basic`).
    pub export: String,
    /// Its title: the `name` / `storyName` it sets, else the export name.
    pub title: String,
    /// Its code: what it uses from the file, then the export; empty for a re-export.
    pub code: String,
    /// For a re-export, the module it comes from (`compositions/examples/button-basic`).
    pub from: Option<String>,
}

/// How a story file names its component.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Named {
    /// By the default export's `title`.
    Title,
    /// By the default export's `component`.
    Component,
    /// By nothing: the file name is used (a guess).
    FileName,
}

/// What a story file holds.
#[derive(Clone, Debug, PartialEq)]
pub struct StoryFile {
    /// The component it documents, as written (`Button`, `Date Picker`, `date-picker`).
    pub component: String,
    /// Where [`StoryFile::component`] comes from.
    pub named: Named,
    /// Its stories, in file order.
    pub stories: Vec<Story>,
}

/// Whether `rel` names a story file.
pub fn is_story_file(rel: &str) -> bool {
    let name = rel.rsplit('/').next().unwrap_or(rel);
    let Some((stem, ext)) = name.rsplit_once('.') else { return false };
    matches!(ext, "tsx" | "ts" | "jsx" | "js") && (stem.ends_with(".stories") || stem.ends_with(".story"))
}

/// Reads the story file `rel` (`text`).
///
/// # Errors
/// Why Storybook would read no story from it, for a person: not a TypeScript/JavaScript file, syntax errors (their
/// count and the first one's line), no default export (Component Story Format requires one).
pub fn read(rel: &str, text: &str) -> Result<StoryFile, String> {
    let lang = SourceLang::from_path(Path::new(rel)).ok_or("not a .tsx/.ts/.jsx/.js file")?;
    let tree = source::parse_checked(lang, text)?;
    let root = tree.root_node();
    let src = |n: Node| text.get(n.byte_range()).unwrap_or("");
    let mut imports: Vec<Node> = Vec::new();
    let mut locals: Vec<(Vec<String>, Node)> = Vec::new();
    // Export name, the node to show, the local name it binds (for `X.storyName = …`), the module re-exported.
    let mut exports: Vec<(String, Node, Option<String>, Option<String>)> = Vec::new();
    let mut meta: Option<(String, Named)> = None;
    let mut meta_local: Option<String> = None;
    let mut has_default = false;
    let mut cursor = root.walk();
    let top: Vec<Node> = root.named_children(&mut cursor).collect();
    for node in &top {
        match node.kind() {
            "import_statement" => imports.push(*node),
            "export_statement" => {
                let is_default = (0..node.child_count()).filter_map(|i| node.child(i)).any(|c| c.kind() == "default");
                if is_default {
                    has_default = true;
                    if let Some(v) = node.child_by_field_name("value").filter(|v| v.kind() == "identifier") {
                        meta_local = Some(src(v).to_string());
                    }
                    meta = meta.or_else(|| meta_component(*node, &top, text));
                    continue;
                }
                let from = node.child_by_field_name("source").map(|s| src(s).trim_matches(['"', '\'']).to_string());
                if let Some(decl) = node.child_by_field_name("declaration") {
                    for name in declared_names(decl, text) {
                        exports.push((name.clone(), *node, Some(name), None));
                    }
                    continue;
                }
                let mut c = node.walk();
                for clause in node.named_children(&mut c).filter(|n| n.kind() == "export_clause") {
                    let mut c2 = clause.walk();
                    for spec in clause.named_children(&mut c2).filter(|n| n.kind() == "export_specifier") {
                        let local = spec.child_by_field_name("name").map(|n| src(n).to_string());
                        let name = spec.child_by_field_name("alias").map(|n| src(n).to_string()).or(local.clone());
                        let Some(name) = name.filter(|n| n != "default") else { continue };
                        match &from {
                            Some(m) => exports.push((name, *node, None, Some(m.clone()))),
                            // `export { Basic }`: the local declaration is the story.
                            None => {
                                let decl = local
                                    .as_ref()
                                    .and_then(|l| locals.iter().find(|(ns, _)| ns.contains(l)).map(|(_, n)| *n));
                                exports.push((name, decl.unwrap_or(*node), local, None));
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
    // The meta object is Storybook's, not the story's: never shown as something a story uses.
    if let Some(m) = &meta_local {
        locals.retain(|(names, _)| !names.contains(m));
    }
    if !has_default {
        return Err("no default export: the Component Story Format needs one (`export default { title, component \
                    }`), so Storybook reads no story from it"
            .to_string());
    }
    let (component, named) = meta.unwrap_or_else(|| {
        let name = rel.rsplit('/').next().unwrap_or(rel);
        (name.split('.').next().unwrap_or(name).to_string(), Named::FileName)
    });
    let stories = exports
        .into_iter()
        .map(|(export, node, local, from)| {
            let after: Vec<Node> = local.as_deref().map_or_else(Vec::new, |l| assignments_to(&top, l, text));
            let title = story_name(node, &after, text).unwrap_or_else(|| export.clone());
            let code = if from.is_some() { String::new() } else { with_uses(node, &after, &imports, &locals, text) };
            Story { export, title, code, from }
        })
        .collect();
    Ok(StoryFile { component, named, stories })
}

/// The top-level statements assigning a property of `local` (`Basic.storyName = "…"`, `Basic.args = {…}`).
fn assignments_to<'t>(top: &[Node<'t>], local: &str, text: &str) -> Vec<Node<'t>> {
    let src = |n: Node| text.get(n.byte_range()).unwrap_or("");
    top.iter()
        .copied()
        .filter(|n| n.kind() == "expression_statement")
        .filter(|n| {
            let Some(assign) = n.named_child(0).filter(|a| a.kind() == "assignment_expression") else { return false };
            let left = assign.child_by_field_name("left");
            left.filter(|l| l.kind() == "member_expression")
                .and_then(|l| l.child_by_field_name("object"))
                .is_some_and(|o| src(o) == local)
        })
        .collect()
}

/// The title a story sets: `name` of its object (CSF 3), else `storyName` (CSF 2, as a property or an assignment).
fn story_name(node: Node, after: &[Node], text: &str) -> Option<String> {
    let src = |n: Node| text.get(n.byte_range()).unwrap_or("");
    let string = |v: Node| {
        (v.kind() == "string" || v.kind() == "template_string")
            .then(|| src(v).trim_matches(['"', '\'', '`']).to_string())
            .filter(|s| !s.is_empty())
    };
    if let Some(object) = node.child_by_field_name("declaration").and_then(find_object) {
        for key in ["name", "storyName"] {
            if let Some(v) = field(object, key, text).and_then(string) {
                return Some(v);
            }
        }
    }
    after.iter().find_map(|n| {
        let assign = n.named_child(0)?;
        let prop = assign.child_by_field_name("left")?.child_by_field_name("property")?;
        (src(prop) == "storyName").then(|| assign.child_by_field_name("right")).flatten().and_then(string)
    })
}

/// The value of the pair `key` of an object literal.
fn field<'t>(object: Node<'t>, key: &str, text: &str) -> Option<Node<'t>> {
    let src = |n: Node| text.get(n.byte_range()).unwrap_or("");
    let mut c = object.walk();
    let pairs: Vec<Node> = object.named_children(&mut c).filter(|n| n.kind() == "pair").collect();
    pairs
        .into_iter()
        .find(|p| p.child_by_field_name("key").is_some_and(|k| src(k).trim_matches(['"', '\'']) == key))?
        .child_by_field_name("value")
}

/// The names a top-level declaration binds (`const A = …, B = …`, `function f`, `class C`, a type).
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

/// The component the default export names (`export default { title: "Components / Button", component: Button }`,
/// directly or through a `const meta = {…}` it names): its title's last segment, else its component.
fn meta_component(export: Node, top: &[Node], text: &str) -> Option<(String, Named)> {
    let src = |n: Node| text.get(n.byte_range()).unwrap_or("");
    let value = export.child_by_field_name("value").or_else(|| export.child_by_field_name("declaration"))?;
    let object = find_object(value).or_else(|| {
        // `export default meta`: the object of `const meta = …`.
        let name = src(value);
        top.iter().find(|n| declared_names(**n, text).iter().any(|d| d == name)).and_then(|n| find_object(*n))
    })?;
    if let Some(title) = field(object, "title", text).filter(|v| v.kind() == "string") {
        let title = src(title).trim_matches(['"', '\'', '`']);
        let last = title.rsplit('/').next().unwrap_or(title).trim();
        if !last.is_empty() {
            return Some((last.to_string(), Named::Title));
        }
    }
    field(object, "component", text)
        .filter(|v| v.kind() == "identifier" || v.kind() == "member_expression")
        .map(|v| (src(v).to_string(), Named::Component))
}

/// The first object literal in `node` (through `satisfies`, `as`, parentheses, a declarator), not inside a
/// function.
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

/// `node`'s text preceded by the imports and top-level declarations it uses, transitively, and followed by the
/// statements `after` it (a name counts as used when it appears as a word of the text: a declaration a comment
/// names is taken too, which shows more code, never less).
fn with_uses(node: Node, after: &[Node], imports: &[Node], locals: &[(Vec<String>, Node)], text: &str) -> String {
    let src = |n: Node| text.get(n.byte_range()).unwrap_or("");
    let words = |s: &str| -> HashSet<String> {
        s.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
            .filter(|w| !w.is_empty())
            .map(String::from)
            .collect()
    };
    let mut used: Vec<usize> = Vec::new();
    let mut seen = words(src(node));
    for n in after {
        seen.extend(words(src(*n)));
    }
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
    for n in after {
        out.push_str(src(*n));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const CSF: &str = "import React from 'react';\nimport { Button, Space } from '@self';\nimport { unused } from 'x';\n\n\
                       export default { title: 'General / Button', component: Button };\n\n\
                       const Row = ({ children }) => <Space>{children}</Space>;\n\nconst other = 1;\n\n\
                       export const Basic = () => <Row><Button>Hi</Button></Row>;\n\n\
                       export function Loading() {\n  return <Button loading />;\n}\n\
                       Loading.storyName = 'Is loading';\n\n\
                       export { ButtonBasic as Remote } from \"compositions/examples/button-basic\"\n";

    #[test]
    fn each_named_export_is_a_story_with_what_it_uses() {
        let f = read("stories/Button.stories.tsx", CSF).unwrap();
        assert_eq!((f.component.as_str(), f.named), ("Button", Named::Title));
        let names: Vec<(&str, &str)> = f.stories.iter().map(|s| (s.export.as_str(), s.title.as_str())).collect();
        assert_eq!(names, [("Basic", "Basic"), ("Loading", "Is loading"), ("Remote", "Remote")]);
        assert_eq!(
            f.stories[0].code,
            "import { Button, Space } from '@self';\n\nconst Row = ({ children }) => <Space>{children}</Space>;\n\n\
             export const Basic = () => <Row><Button>Hi</Button></Row>;\n"
        );
        assert_eq!(
            f.stories[1].code,
            "import { Button, Space } from '@self';\n\nexport function Loading() {\n  return <Button loading />;\n}\n\
             Loading.storyName = 'Is loading';\n"
        );
        assert_eq!(f.stories[2].from.as_deref(), Some("compositions/examples/button-basic"));
        assert!(is_story_file("a/button.stories.tsx") && is_story_file("Table.story.tsx"));
        assert!(!is_story_file("story.tsx") && !is_story_file("a.stories.mdx"));
    }

    #[test]
    fn the_meta_object_is_never_part_of_a_story_and_without_it_the_file_names_the_component() {
        let f = read(
            "x/Tag.stories.tsx",
            "import type { Meta, StoryObj } from '@storybook/react';\nimport { Tag } from './tag';\n\
             const meta: Meta<typeof Tag> = { component: Tag, args: { big: true } };\nexport default meta;\n\
             export const A: StoryObj = { name: 'Small tag', args: { big: false } };\n",
        )
        .unwrap();
        assert_eq!((f.component.as_str(), f.named), ("Tag", Named::Component));
        assert_eq!(f.stories[0].title, "Small tag");
        assert_eq!(
            f.stories[0].code,
            "import type { Meta, StoryObj } from '@storybook/react';\n\n\
             export const A: StoryObj = { name: 'Small tag', args: { big: false } };\n"
        );
        let f = read("x/date-picker.story.tsx", "export default {};\nexport const A = () => null;\n").unwrap();
        assert_eq!((f.component.as_str(), f.named), ("date-picker", Named::FileName));
    }
}
