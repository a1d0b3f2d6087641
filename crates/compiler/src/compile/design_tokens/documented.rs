//! Component-level design tokens documented in a component's document: the GFM table under a heading that names
//! CSS variables or design tokens (`### CSS Variables`, `## CSS 变量`, `## Design Token`, `## 样式变量`), read
//! with comrak like the props tables ([`crate::compile::props::document`]). A row is a token: its name column
//! (`Name`, `属性`, `名称`, `变量`), its default value (`Default`, `Default Value`, `默认值`), its description,
//! and, when the table has one, its global variable (`Global`, `全局变量`) as an alias. Cells are read as plain
//! text (inline code and emphasis marks dropped: Vant writes `_16px_`).

use comrak::nodes::{AstNode, NodeValue};
use comrak::{Arena, parse_document};

use super::RawToken;
use crate::compile::markdown::{LineMap, blocks, comrak_options, plain_text, split_anchor};
use crate::compile::props::document::cell_text;
use crate::model::TokenSource;

const NAME_HEADERS: &[&str] = &["name", "属性", "名称", "变量", "变量名", "variable", "token"];
const DEFAULT_HEADERS: &[&str] = &["default", "default value", "默认值", "value", "值"];
const DESCRIPTION_HEADERS: &[&str] = &["description", "描述", "说明"];
const GLOBAL_HEADERS: &[&str] = &["global", "全局变量", "global variable"];

/// Whether a heading's text names a token table.
fn is_token_heading(title: &str) -> bool {
    let t = title.to_lowercase();
    ["css variable", "css 变量", "css变量", "design token", "样式变量", "主题变量"].iter().any(|w| t.contains(w))
}

/// Whether `text` may hold a token table: a cheap look before the document is parsed.
pub fn has_token_table(text: &str) -> bool {
    text.lines().any(|l| l.trim_start().starts_with('#') && is_token_heading(l))
}

/// The tokens of the token tables of document `text` (repository path `path`).
pub fn read(path: &str, text: &str) -> Vec<RawToken> {
    let lines = LineMap::new(text);
    let arena = Arena::new();
    let root = parse_document(&arena, text, &comrak_options());
    let mut out = Vec::new();
    let mut zone: Option<u8> = None;
    for node in blocks(root) {
        let (level, start) = {
            let data = node.data();
            match &data.value {
                NodeValue::Heading(h) => (Some(h.level), data.sourcepos.start.line),
                NodeValue::Table(_) => (None, data.sourcepos.start.line),
                _ => continue,
            }
        };
        if let Some(level) = level {
            let title = split_anchor(plain_text(node)).0;
            if zone.is_some_and(|z| level <= z) {
                zone = None;
            }
            if is_token_heading(&title) {
                zone = Some(level);
            }
            continue;
        }
        if zone.is_some() {
            out.extend(table_tokens(node, path, lines.line_of_cm_line(start)));
        }
    }
    out
}

/// The tokens of a table whose header row (at line `line`) has a name column: one a body row, at its line.
fn table_tokens<'a>(table: &'a AstNode<'a>, path: &str, line: u32) -> Vec<RawToken> {
    let mut rows = table.children().filter(|r| matches!(r.data().value, NodeValue::TableRow(_)));
    let Some(header) = rows.next() else { return vec![] };
    let header: Vec<String> = header.children().map(cell_text).map(|h| h.to_lowercase()).collect();
    let column = |names: &[&str]| header.iter().position(|h| names.contains(&h.as_str()));
    let Some(name_col) = column(NAME_HEADERS) else { return vec![] };
    let (default_col, desc_col, global_col) =
        (column(DEFAULT_HEADERS), column(DESCRIPTION_HEADERS), column(GLOBAL_HEADERS));
    let mut out = Vec::new();
    // The delimiter row is no table row in comrak's tree: body row `i` is on line `line + 2 + i`.
    for (i, row) in rows.enumerate() {
        let cells: Vec<String> = row.children().map(cell_text).collect();
        let cell = |c: Option<usize>| c.and_then(|c| cells.get(c)).map(|s| clean(s)).unwrap_or_default();
        let name = cell(Some(name_col));
        if name.is_empty() {
            continue;
        }
        let global = cell(global_col);
        let description = cell(desc_col);
        out.push(RawToken {
            name,
            aliases: if global.is_empty() || global == "-" { vec![] } else { vec![global] },
            source: TokenSource::Documented,
            values: vec![(String::new(), cell(default_col))],
            description: if description == "-" { String::new() } else { description },
            file: path.to_string(),
            line: line + 2 + i as u32,
            ..RawToken::default()
        });
    }
    out
}

/// A cell's text without the emphasis underscores a value is wrapped in (`_16px_`).
fn clean(cell: &str) -> String {
    let t = cell.trim();
    t.strip_prefix('_').and_then(|s| s.strip_suffix('_')).unwrap_or(t).trim().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn css_variable_tables() {
        let text = "# Badge\n\n## API\n\n### CSS Variables\n\n| Name | Description | Default | Global |\n| --- | --- | --- | --- |\n| --color | Its colour | `var(--adm-color-danger)` | `--adm-badge-color` |\n| --top | - | `0` | - |\n\n## FAQ\n\n| Name | Default |\n| --- | --- |\n| x | y |\n";
        let t = read("badge.md", text);
        let got: Vec<(&str, &str, u32)> = t.iter().map(|t| (t.name.as_str(), t.values[0].1.as_str(), t.line)).collect();
        assert_eq!(got, [("--color", "var(--adm-color-danger)", 9), ("--top", "0", 10)]);
        assert_eq!(t[0].aliases, ["--adm-badge-color"]);
        assert_eq!(t[0].description, "Its colour");
        assert!(t[1].aliases.is_empty() && t[1].description.is_empty());
    }
}
