//! Props tables of a Markdown / MDX document: GFM tables under an API heading (Semi Design's way).

use comrak::nodes::{AstNode, NodeValue};
use comrak::{Arena, parse_document};

use super::{collapse, non_empty};
use crate::compile::markdown::{LineMap, blocks, comrak_options, plain_text, split_anchor};
use crate::model::{Prop, PropsOrigin, PropsTable};

/// Header texts (trimmed, compared case-insensitively) that mark a column, per field. The name column is what
/// makes a table a props table; Semi Design writes `属性 | 说明 | 类型 | 默认值 | 版本` and
/// `Properties | Description | Type | Default | Version` (also `Instructions`, `参数`, `Name`, …).
const NAME_HEADERS: &[&str] = &[
    "属性",
    "参数",
    "参数名",
    "property",
    "properties",
    "prop",
    "props",
    "name",
    "parameter",
    "parameters",
    "attribute",
];
const DESCRIPTION_HEADERS: &[&str] = &["说明", "描述", "description", "instructions", "instruction", "desc"];
const TYPE_HEADERS: &[&str] = &["类型", "type", "data type"];
const DEFAULT_HEADERS: &[&str] = &["默认值", "default", "default value"];
const VERSION_HEADERS: &[&str] = &["版本", "version"];

/// HTML element names that stay tags even right after an identifier (`ReactNode<br/>`); any other tag-like
/// text right after an identifier is a generic argument (`Array<string>`) and is kept as text.
const HTML_ELEMENTS: &[&str] = &[
    "a", "b", "br", "code", "del", "div", "em", "i", "img", "kbd", "mark", "p", "s", "small", "span", "strong", "sub",
    "sup", "u",
];

/// The props tables of one Markdown / MDX document.
///
/// **Which tables.** A GFM table (comrak's table extension) that sits in an *API zone* and whose header row has
/// a name column. An API zone starts at a heading whose plain text contains `API`, `Props` or `属性`
/// (case-insensitive: `## API 参考`, `## API reference`, `### Select Props`) and runs until a heading of a
/// higher level (fewer `#`), so Semi's `## API 参考` followed by sibling `## Table`, `## Column` headings keeps
/// them all in the zone. The name column is the first header cell reading one of `属性`, `参数`, `参数名`,
/// `Property`, `Properties`, `Prop`, `Props`, `Name`, `Parameter(s)`, `Attribute`; the other columns are found by
/// header text: description (`说明`, `描述`, `Description`, `Instructions`), type (`类型`, `Type`), default
/// (`默认值`, `Default`, `Default value`), version (`版本`, `Version`). Blueprint's `@interface AlertProps` lines
/// are not tables and yield nothing (its props come from [`super::from_typescript`]). Tables whose nearest heading
/// mentions `Method` or `方法` list instance methods, not props, and are skipped too.
///
/// **Each table** becomes one [`PropsTable`] with `origin` [`PropsOrigin::Document`], `name` the plain text of
/// the nearest heading above it (`Table`, `Column`, `Select Props`), `lang` `Some(lang)` (`None` when `lang` is
/// empty), `line` the 1-based line of its header row (lines are `text.split('\n')`, as in
/// [`crate::compile::markdown`]), and no extends.
///
/// **Each body row** with a non-empty name cell becomes a [`Prop`]. Cells are reduced to plain text from the
/// AST: inline code → its text, links, emphasis and strong → their text, HTML / JSX tags dropped with the text
/// between them kept (`<ApiType detail='…'>Foo</ApiType>` → `Foo`; `<br/>` → a space), except that a tag-like
/// `<…>` right after an identifier that is not an HTML element is a generic argument and stays
/// (`Array<string>`); escaped pipes `\|` → `|`; whitespace collapsed. Missing cells read as empty.
/// - `default`: `None` when the cell is empty, `-`, `—` or `无`.
/// - `since`: the version cell, `None` when empty or `-`.
/// - `deprecated`: the description mentions `deprecated` (any case), `废弃` or `已废弃`.
/// - `optional`: true unless the table says the prop is required: the name or default cell contains `必填`, or
///   the description contains `必填` not followed by `的` (`是否展示必填的*号` describes a `required` prop, it
///   is not required itself), or, in English, the description starts with `Required`, or contains
///   `(required)` or `required!`, or ends with `, required` (a final `.` ignored); the name cell containing `(required)`
///   counts too. A bare word `required` elsewhere (`aria-required`, `the key required by React`) does not.
pub fn from_markdown(path: &str, lang: &str, text: &str) -> Vec<PropsTable> {
    let lines = LineMap::new(text);
    let arena = Arena::new();
    let root = parse_document(&arena, text, &comrak_options());
    let mut tables = Vec::new();
    let mut heading: Option<String> = None;
    let mut api_level: Option<u8> = None;
    for node in blocks(root) {
        let (is_heading, level, start_line, end_line) = {
            let data = node.data();
            let (start, end) = (data.sourcepos.start.line, data.sourcepos.end.line);
            match &data.value {
                NodeValue::Heading(h) => (true, h.level, start, end),
                NodeValue::Table(_) => (false, 0, start, end),
                _ => continue,
            }
        };
        if is_heading {
            let title = split_anchor(plain_text(node)).0;
            if api_level.is_some_and(|l| level < l) {
                api_level = None;
            }
            if api_level.is_none() && is_api_heading(&title) {
                api_level = Some(level);
            }
            heading = Some(title);
            continue;
        }
        if api_level.is_none() || heading.as_deref().is_some_and(is_methods_heading) {
            continue;
        }
        let Some(props) = table_props(node) else { continue };
        tables.push(PropsTable {
            name: heading.clone().unwrap_or_default(),
            origin: PropsOrigin::Document,
            path: path.to_string(),
            lang: (!lang.is_empty()).then(|| lang.to_string()),
            line: lines.line_of_cm_line(start_line),
            end_line: lines.line_of_cm_line(end_line),
            extends: Vec::new(),
            unresolved_extends: Vec::new(),
            props,
        });
    }
    tables
}

/// `## Methods` / `## 方法`: a table of instance methods (`getCurrentPageData()`), not props.
fn is_methods_heading(title: &str) -> bool {
    title.to_lowercase().contains("method") || title.contains("方法")
}

fn is_api_heading(title: &str) -> bool {
    let lower = title.to_lowercase();
    lower.contains("api") || lower.contains("props") || lower.contains("属性")
}

/// The props of a table node, or `None` when its header row has no name column.
fn table_props<'a>(table: &'a AstNode<'a>) -> Option<Vec<Prop>> {
    let mut rows = table.children().filter(|r| matches!(r.data().value, NodeValue::TableRow(_)));
    let header: Vec<String> = rows.next()?.children().map(cell_text).collect();
    let column = |names: &[&str]| header.iter().position(|h| names.contains(&h.to_lowercase().as_str()));
    let name_col = column(NAME_HEADERS)?;
    let (desc_col, type_col, default_col, version_col) =
        (column(DESCRIPTION_HEADERS), column(TYPE_HEADERS), column(DEFAULT_HEADERS), column(VERSION_HEADERS));
    let mut props = Vec::new();
    for row in rows {
        let cells: Vec<String> = row.children().map(cell_text).collect();
        let cell = |col: Option<usize>| col.and_then(|c| cells.get(c)).cloned().unwrap_or_default();
        let name = cell(Some(name_col));
        if name.is_empty() {
            continue;
        }
        let description = cell(desc_col);
        let default = cell(default_col);
        let version = cell(version_col);
        let required = name.contains("必填")
            || name.to_lowercase().contains("(required)")
            || default.contains("必填")
            || says_required(&description);
        let deprecated = {
            let lower = description.to_lowercase();
            lower.contains("deprecated") || description.contains("废弃")
        };
        let default = if matches!(default.as_str(), "" | "-" | "—" | "无") || default.contains("必填") {
            None
        } else {
            Some(default)
        };
        props.push(Prop {
            name,
            type_text: cell(type_col),
            optional: !required,
            default,
            description: non_empty(description),
            since: non_empty(version).filter(|v| v != "-"),
            deprecated,
        });
    }
    Some(props)
}

/// Whether a description marks its prop required (see [`from_markdown`]).
fn says_required(description: &str) -> bool {
    let zh = description.match_indices("必填").any(|(i, m)| !description[i + m.len()..].starts_with('的'));
    let lower = description.to_lowercase();
    let end = lower.trim_end_matches(['.', '。', ' ', '!', '*']);
    zh || lower.starts_with("required")
        || lower.starts_with("**required")
        || lower.contains("(required)")
        || lower.contains("required!")
        || end.ends_with(", required")
        || end.ends_with("，required")
}

/// Plain text of a table cell (see [`from_markdown`]).
pub(crate) fn cell_text<'a>(cell: &'a AstNode<'a>) -> String {
    let mut raw = String::new();
    for node in cell.descendants().skip(1) {
        match &node.data().value {
            NodeValue::Text(t) => raw.push_str(t),
            NodeValue::Code(code) => raw.push_str(&code.literal),
            NodeValue::SoftBreak | NodeValue::LineBreak => raw.push(' '),
            NodeValue::HtmlInline(html) => {
                if is_generic_argument(&raw, html) {
                    raw.push_str(html);
                } else if html.get(..3).is_some_and(|t| t.eq_ignore_ascii_case("<br")) {
                    raw.push(' ');
                }
            }
            _ => {}
        }
    }
    collapse(&raw)
}

/// Whether an inline "HTML" node is really a generic argument: it opens right after an identifier character
/// and its tag name is not an HTML element (`Array` + `<string>`, but not `ReactNode` + `<br/>`).
fn is_generic_argument(before: &str, html: &str) -> bool {
    let after_identifier = before.chars().next_back().is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$');
    let Some(tag) = html.strip_prefix('<').filter(|t| !t.starts_with(['/', '!', '?'])) else { return false };
    let name: String = tag.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '-').collect();
    after_identifier && !name.is_empty() && !HTML_ELEMENTS.contains(&name.to_ascii_lowercase().as_str())
}
