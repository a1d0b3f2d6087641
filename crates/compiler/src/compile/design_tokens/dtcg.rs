//! Design tokens of DTCG JSON files (the W3C Design Tokens Community Group format), read with serde_json: a
//! token is an object with `$value`, its name the path of group keys to it (`color.blue.500`), its type its own
//! `$type` or the nearest group's, its description `$description`. Aliases `{color.blue.500}` are resolved with the
//! other references ([`super::resolve`]). A dimension written as an object (`{"value": 4, "unit": "px"}`) reads
//! as `4px`; another composite value (a shadow, a typography) as its JSON. The mode is the file's: `dark` or
//! `light` as a folder or a dot-separated part of its name (`themes/dark/surface.tokens.json`,
//! `palette.dark.tokens.json`).

use serde_json::{Map, Value};

use super::RawToken;
use crate::model::{TokenSource, TokenType};

/// Whether `text` holds DTCG tokens (a `"$value"` key).
pub fn is_token_file(text: &str) -> bool {
    text.contains("\"$value\"")
}

/// The type a DTCG `$type` names.
fn dtcg_type(t: &str) -> TokenType {
    match t {
        "color" => TokenType::Color,
        "dimension" | "spacing" | "sizing" | "borderRadius" | "borderWidth" | "fontSize" => TokenType::Dimension,
        "fontFamily" | "fontWeight" | "typography" => TokenType::Font,
        "shadow" | "boxShadow" => TokenType::Shadow,
        "duration" => TokenType::Duration,
        "cubicBezier" => TokenType::Easing,
        "number" | "lineHeight" | "opacity" => TokenType::Number,
        _ => TokenType::Other,
    }
}

/// The mode of the file at `path`: `dark` or `light` when a folder or a dot-separated part of its name says so.
fn mode_of(path: &str) -> String {
    let parts = path.split('/').flat_map(|s| s.split('.'));
    parts.map(str::to_lowercase).find(|p| p == "dark" || p == "light").unwrap_or_default()
}

/// The tokens of `text` (repository path `path`).
///
/// # Errors
/// The text is not JSON (serde_json's message, with its line and column).
pub fn read(path: &str, text: &str) -> Result<Vec<RawToken>, String> {
    let root: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    if let Value::Object(map) = &root {
        let mut walk = Walk { path, text, mode: mode_of(path), out: &mut out };
        walk.group(map, &mut Vec::new(), None);
    }
    out.sort_by_key(|t| t.line);
    Ok(out)
}

/// The walk of one file.
struct Walk<'a> {
    path: &'a str,
    text: &'a str,
    mode: String,
    out: &'a mut Vec<RawToken>,
}

impl Walk<'_> {
    /// The tokens and groups of `group`, at `keys`, with the `$type` a group above declared.
    fn group(&mut self, group: &Map<String, Value>, keys: &mut Vec<String>, inherited: Option<&str>) {
        let own = group.get("$type").and_then(Value::as_str).or(inherited);
        for (key, value) in group {
            if key.starts_with('$') {
                continue;
            }
            let Value::Object(child) = value else { continue };
            keys.push(key.clone());
            match child.get("$value") {
                Some(v) => self.token(child, v, keys, own),
                None => self.group(child, keys, own),
            }
            keys.pop();
        }
    }

    /// The token at `keys`.
    fn token(&mut self, token: &Map<String, Value>, value: &Value, keys: &[String], inherited: Option<&str>) {
        let kind = token.get("$type").and_then(Value::as_str).or(inherited).map(dtcg_type);
        let written = match value {
            Value::String(s) => s.clone(),
            Value::Object(o) if o.contains_key("value") && o.contains_key("unit") => {
                format!("{}{}", o["value"], o["unit"].as_str().unwrap_or(""))
            }
            other => other.to_string(),
        };
        let description = token.get("$description").and_then(Value::as_str).unwrap_or("").to_string();
        self.out.push(RawToken {
            name: keys.join("."),
            source: TokenSource::Dtcg,
            kind,
            values: vec![(self.mode.clone(), written)],
            description,
            file: self.path.to_string(),
            line: line_of(self.text, keys),
            ..RawToken::default()
        });
    }
}

/// The 1-based line of the last of `keys`, found as each key's first `"key"` after its parent's.
fn line_of(text: &str, keys: &[String]) -> u32 {
    let mut at = 0;
    for k in keys {
        let quoted = format!("\"{k}\"");
        match text[at..].find(&quoted) {
            Some(i) => at += i,
            None => break,
        }
    }
    text[..at].matches('\n').count() as u32 + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_types_aliases_and_lines() {
        let text = "{\n  \"color\": {\n    \"$type\": \"color\",\n    \"blue\": { \"$value\": \"#0000ff\" },\n    \"primary\": {\n      \"$value\": \"{color.blue}\", \"$description\": \"main\"\n    }\n  },\n  \"space\": { \"1\": { \"$type\": \"dimension\", \"$value\": { \"value\": 4, \"unit\": \"px\" } } }\n}\n";
        let t = read("x/dark/a.tokens.json", text).expect("json");
        let got: Vec<(&str, &str, u32)> = t.iter().map(|t| (t.name.as_str(), t.values[0].1.as_str(), t.line)).collect();
        assert_eq!(got, [("color.blue", "#0000ff", 4), ("color.primary", "{color.blue}", 5), ("space.1", "4px", 9)]);
        assert_eq!(t[0].values[0].0, "dark");
        assert_eq!(t[1].description, "main");
        assert_eq!(t[2].kind, Some(TokenType::Dimension));
    }
}
