//! Design tokens of TypeScript/JavaScript theme objects, read with tree-sitter: the object passed to
//! `defineTokens(…)` / `defineSemanticTokens(…)` (Panda CSS's and Chakra UI v3's theme API), or to their category
//! forms `defineTokens.colors(…)`.
//!
//! A token is an object with a `value` key; the keys above it are its path, the category first
//! (`colors.gray.50`), a `DEFAULT` key naming its parent's path (`bg.DEFAULT` is `colors.bg`, as references write
//! it). A `value` that is an object holds one value per condition: `base` is the default mode, `_light` / `_dark`
//! (any `_condition`) the modes named without the underscore. A `description` key is its description.

use tree_sitter::Node;

use super::RawToken;
use crate::compile::source::{SourceLang, parse};
use crate::model::{TokenSource, TokenType};

/// The calls whose argument is a token object, and whether their tokens are semantic.
const CALLS: [(&str, bool); 2] = [("defineTokens", false), ("defineSemanticTokens", true)];

/// Whether `text` calls one of the theme functions.
pub fn is_token_file(text: &str) -> bool {
    CALLS.iter().any(|(name, _)| text.contains(&format!("{name}(")) || text.contains(&format!("{name}.")))
}

/// The type a theme category holds (Panda's token categories), `None` for one whose values say it.
fn category_type(category: &str) -> Option<TokenType> {
    Some(match category {
        "colors" | "gradients" => TokenType::Color,
        "spacing" | "sizes" | "radii" | "borderWidths" | "fontSizes" | "letterSpacings" | "blurs" => {
            TokenType::Dimension
        }
        "fonts" | "fontWeights" => TokenType::Font,
        "shadows" => TokenType::Shadow,
        "durations" => TokenType::Duration,
        "easings" => TokenType::Easing,
        "zIndex" | "lineHeights" | "opacity" | "aspectRatios" => TokenType::Number,
        _ => return None,
    })
}

/// The tokens of `text` (repository path `path`).
///
/// # Errors
/// The file does not parse (its tree-sitter grammar could not be loaded, or it is over the source size cap).
pub fn read(path: &str, text: &str) -> Result<Vec<RawToken>, String> {
    let lang = SourceLang::from_path(std::path::Path::new(path)).unwrap_or(SourceLang::TypeScript);
    let tree = parse(lang, text).map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    let mut stack = vec![tree.root_node()];
    while let Some(node) = stack.pop() {
        if node.kind() == "call_expression"
            && let Some((semantic, category)) = theme_call(node, text)
            && let Some(arg) = node.child_by_field_name("arguments").and_then(|a| a.named_child(0))
            && arg.kind() == "object"
        {
            let path_start: Vec<String> = category.into_iter().collect();
            let mut reader = Reader { text, file: path, semantic, out: &mut out };
            reader.object(arg, &path_start);
            continue;
        }
        let mut cursor = node.walk();
        let children: Vec<Node> = node.named_children(&mut cursor).collect();
        stack.extend(children.into_iter().rev());
    }
    Ok(out)
}

/// `(semantic, category)` when `call` is `defineTokens(…)`, `defineSemanticTokens(…)` or `defineTokens.<category>(…)`.
fn theme_call(call: Node, text: &str) -> Option<(bool, Option<String>)> {
    let f = call.child_by_field_name("function")?;
    let (callee, category) = match f.kind() {
        "identifier" => (f, None),
        "member_expression" => {
            let object = f.child_by_field_name("object")?;
            let property = f.child_by_field_name("property")?;
            (object, Some(node_text(property, text).to_string()))
        }
        _ => return None,
    };
    let name = node_text(callee, text);
    CALLS.iter().find(|(n, _)| *n == name).map(|(_, semantic)| (*semantic, category))
}

fn node_text<'a>(node: Node, text: &'a str) -> &'a str {
    text.get(node.byte_range()).unwrap_or("")
}

/// A key as written: an identifier, a number, or a string's contents.
fn key_text(key: Node, text: &str) -> String {
    let t = node_text(key, text);
    match key.kind() {
        "string" => t.trim_matches(|c| c == '"' || c == '\'' || c == '`').to_string(),
        _ => t.to_string(),
    }
}

/// A value as written: a string's contents, an array's items joined with `, `, else the expression's text.
fn value_text(value: Node, text: &str) -> String {
    match value.kind() {
        "string" => key_text(value, text),
        "template_string" => node_text(value, text).trim_matches('`').to_string(),
        "array" => {
            let mut cursor = value.walk();
            let items: Vec<String> = value.named_children(&mut cursor).map(|n| value_text(n, text)).collect();
            items.join(", ")
        }
        _ => node_text(value, text).to_string(),
    }
}

/// The walk of one theme object.
struct Reader<'a, 'o> {
    text: &'a str,
    file: &'a str,
    semantic: bool,
    out: &'o mut Vec<RawToken>,
}

impl Reader<'_, '_> {
    /// The pairs of `object` under `path`: a token where the value object has a `value` key, else a group.
    fn object(&mut self, object: Node, path: &[String]) {
        let mut cursor = object.walk();
        for pair in object.named_children(&mut cursor).filter(|p| p.kind() == "pair") {
            let (Some(key), Some(value)) = (pair.child_by_field_name("key"), pair.child_by_field_name("value")) else {
                continue;
            };
            let key = key_text(key, self.text);
            let mut child: Vec<String> = path.to_vec();
            if key != "DEFAULT" {
                child.push(key);
            }
            if value.kind() != "object" {
                continue;
            }
            match field(value, "value", self.text) {
                Some(v) => self.token(pair, value, v, &child),
                None => self.object(value, &child),
            }
        }
    }

    /// The token at `path` declared by `pair`, whose object is `token` and whose `value` is `value`.
    fn token(&mut self, pair: Node, token: Node, value: Node, path: &[String]) {
        let values = if value.kind() == "object" {
            let mut cursor = value.walk();
            value
                .named_children(&mut cursor)
                .filter(|p| p.kind() == "pair")
                .filter_map(|p| {
                    let key = key_text(p.child_by_field_name("key")?, self.text);
                    let mode = if key == "base" { String::new() } else { key.trim_start_matches('_').to_string() };
                    Some((mode, value_text(p.child_by_field_name("value")?, self.text)))
                })
                .collect()
        } else {
            vec![(String::new(), value_text(value, self.text))]
        };
        let description = field(token, "description", self.text).map(|d| value_text(d, self.text)).unwrap_or_default();
        self.out.push(RawToken {
            name: path.join("."),
            source: TokenSource::Js,
            kind: path.first().and_then(|c| category_type(c)),
            semantic: self.semantic,
            values,
            description,
            file: self.file.to_string(),
            line: pair.start_position().row as u32 + 1,
            ..RawToken::default()
        });
    }
}

/// The value of key `name` in `object`.
fn field<'t>(object: Node<'t>, name: &str, text: &str) -> Option<Node<'t>> {
    let mut cursor = object.walk();
    let found = object
        .named_children(&mut cursor)
        .filter(|p| p.kind() == "pair")
        .find(|p| p.child_by_field_name("key").is_some_and(|k| key_text(k, text) == name))?;
    found.child_by_field_name("value")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn category_calls_with_modes_and_default() {
        let text = r##"import { defineSemanticTokens } from "x"
export const c = defineSemanticTokens.colors({
  bg: {
    DEFAULT: { value: { _light: "{colors.white}", _dark: "{colors.black}" } },
    muted: { value: { base: "#eee", _dark: "#111" }, description: "quiet" },
  },
})
"##;
        let t = read("c.ts", text).expect("parses");
        assert_eq!(t.len(), 2);
        assert_eq!((t[0].name.as_str(), t[0].line), ("colors.bg", 4));
        assert_eq!(t[0].values[1], ("dark".to_string(), "{colors.black}".to_string()));
        assert_eq!(t[1].values[0], (String::new(), "#eee".to_string()));
        assert_eq!(t[1].description, "quiet");
        assert!(t[0].semantic && t[0].kind == Some(TokenType::Color));
    }

    #[test]
    fn whole_theme_objects() {
        let text = "export default defineTokens({ spacing: { 1: { value: '0.25rem' } }, fonts: { body: { value: ['Inter', 'sans-serif'] } } })";
        let t = read("t.js", text).expect("parses");
        let got: Vec<(&str, &str)> = t.iter().map(|t| (t.name.as_str(), t.values[0].1.as_str())).collect();
        assert_eq!(got, [("spacing.1", "0.25rem"), ("fonts.body", "Inter, sans-serif")]);
    }
}
