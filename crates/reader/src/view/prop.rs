//! One prop's rows as a `prop` answer shows them (issue 29 item 1): a line of text and a JSON row per table that
//! has the prop. The compiler renders both with these functions to store their exact tokens
//! ([`crate::model::PropSite`]); the reader renders them again to serve them.

use std::fmt::Write as _;

use schemars::JsonSchema;
use serde::Serialize;

use crate::model::{CodeBlockMeta, Prop, PropsOrigin, PropsTable};

/// One table's row of a prop, structured: the table it is in, where it is declared, and the row.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct PropRow {
    /// The table's name: the TypeScript type (`ButtonProps`) or the heading of a document's API table.
    pub table: String,
    /// Where the table was found.
    pub origin: PropsOrigin,
    /// Repository-relative path of the file declaring it.
    pub path: String,
    /// 1-based line: the member's line in TypeScript, else the table's first line.
    pub line: u32,
    /// Language of the document (document tables only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lang: Option<String>,
    /// The row.
    #[serde(flatten)]
    pub prop: Prop,
}

impl PropRow {
    /// The row of `prop` in `table`, declared at `line` of `path` (`None`: the table's file; line 0: the table's
    /// line).
    pub fn new(table: &PropsTable, prop: &Prop, path: Option<&str>, line: u32) -> PropRow {
        PropRow {
            table: table.name.clone(),
            origin: table.origin,
            path: path.unwrap_or(&table.path).to_string(),
            line: if line == 0 { table.line } else { line },
            lang: table.lang.clone(),
            prop: prop.clone(),
        }
    }
}

/// The row as one line of text: `- ButtonProps, src/button.tsx:42: \`loading?: boolean\`, default \`false\`,
/// @since 1.2, @deprecated. Description` (a document's row reads `- Button API table (zh-CN), …`). Newlines of
/// the source's cells are flattened to spaces, so a row is always one line.
pub fn prop_line(row: &PropRow) -> String {
    let flat = |s: &str| s.replace(['\n', '\r'], " ");
    let p = &row.prop;
    let mut out = match (&row.origin, &row.lang) {
        (PropsOrigin::Document, Some(lang)) => format!("- {} API table ({lang}), ", flat(&row.table)),
        (PropsOrigin::Document, None) => format!("- {} API table, ", flat(&row.table)),
        (PropsOrigin::Typescript, _) => format!("- {}, ", flat(&row.table)),
    };
    let optional = if p.optional { "?" } else { "" };
    let _ = write!(out, "{}:{}: `{}{optional}: {}`", row.path, row.line, flat(&p.name), flat(&p.type_text));
    if let Some(default) = &p.default {
        let _ = write!(out, ", default `{}`", flat(default));
    }
    if let Some(since) = &p.since {
        let _ = write!(out, ", @since {}", flat(since));
    }
    if p.deprecated {
        out.push_str(", @deprecated");
    }
    if let Some(about) = p.description.as_deref().map(str::trim).filter(|d| !d.is_empty()) {
        let _ = write!(out, ". {}", flat(about));
    }
    out.push('\n');
    out
}

/// The example a `prop` answer (`PropView`) or a `search --uses` list names.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct ExampleRef {
    /// Its code block number in the document (`code-block COMPONENT N`).
    pub index: u32,
    /// Its demo's title, else the heading above it.
    pub title: Option<String>,
    /// Tokens of the block.
    pub tokens: u32,
    /// First line in the document.
    pub start_line: u32,
    /// Last line.
    pub end_line: u32,
    /// Whether `text` shows its code.
    pub shown: bool,
    /// The story file it comes from, for a Storybook story kept beside the document (it has no lines there).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub story: Option<String>,
}

impl ExampleRef {
    /// The reference to code block `b` titled `title`, its code `shown` or not.
    pub fn new(b: &CodeBlockMeta, title: Option<String>, shown: bool) -> ExampleRef {
        ExampleRef {
            index: b.index,
            title,
            tokens: b.tokens,
            start_line: b.start_line,
            end_line: b.end_line,
            shown,
            story: story_of(b).map(str::to_string),
        }
    }
}

/// The story file of block `b` when it is a Storybook story kept beside the document (no bytes of the document:
/// its lines are the place it was attached, not its own).
pub fn story_of(b: &CodeBlockMeta) -> Option<&str> {
    let demo = b.demo.as_ref()?;
    (demo.story.is_some() && b.start_byte == b.end_byte).then_some(demo.path.as_str())
}

/// `line 12` for one line, `lines 10–40` for more.
pub fn line_span(start: u32, end: u32) -> String {
    if start == end { format!("line {start}") } else { format!("lines {start}–{end}") }
}

/// One example of a `search --uses` list: `- code block 12 "Title", lines 10–40, 120 tokens` (a story: `story in
/// stories/Button.story.tsx` for its lines).
pub fn example_line(e: &ExampleRef) -> String {
    let title = e.title.as_deref().map_or(String::new(), |t| format!(" \"{}\"", t.replace(['\n', '\r'], " ")));
    let at = match &e.story {
        Some(path) => format!("story in {path}"),
        None => line_span(e.start_line, e.end_line),
    };
    format!("- code block {}{title}, {at}, {} tokens\n", e.index, e.tokens)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_is_one_line_with_its_site_and_tags() {
        let table = PropsTable {
            name: "ButtonProps".into(),
            origin: PropsOrigin::Typescript,
            path: "src/button.tsx".into(),
            lang: None,
            line: 3,
            end_line: 20,
            extends: vec![],
            unresolved_extends: vec![],
            props: vec![],
        };
        let prop = Prop {
            name: "loading".into(),
            type_text: "boolean".into(),
            optional: true,
            default: Some("false".into()),
            description: Some("Shows a spinner\nand blocks clicks".into()),
            since: Some("1.2".into()),
            deprecated: true,
        };
        let row = PropRow::new(&table, &prop, None, 7);
        assert_eq!(
            prop_line(&row),
            "- ButtonProps, src/button.tsx:7: `loading?: boolean`, default `false`, @since 1.2, @deprecated. Shows a \
             spinner and blocks clicks\n"
        );
        assert_eq!(PropRow::new(&table, &prop, None, 0).line, 3);
        assert_eq!(PropRow::new(&table, &prop, Some("src/base.ts"), 9).path, "src/base.ts");
    }
}
