//! References between tokens replaced, values normalised, types inferred: [`RawToken`]s to the model's
//! [`DesignToken`]s.
//!
//! A reference is `var(--name[, fallback])`, `$name` (SCSS), `@name` (Less), or `{a.b.c}` (a DTCG alias or a
//! theme object's path). Each is replaced by the referenced token's value in the same mode (else its only value),
//! itself resolved (at most [`MAX_DEPTH`] deep, so a cycle ends). A value is unresolved (kept with its expression)
//! when a reference names no token of the set (a theme package not in the input) or a function CSS does not
//! compute appears in it (Less's `fade()`, a palette plugin's `color-palette()`): those run in a preprocessor.

use std::collections::HashMap;

use super::RawToken;
use crate::design_value::{Value, normalize, parse};
use crate::model::{DesignToken, ModeValue, TokenSource, TokenType};

/// Deepest chain of references followed.
const MAX_DEPTH: u32 = 16;

/// Functions a browser computes: a resolved value may hold them. Any other function call is a preprocessor's.
const CSS_FUNCTIONS: &[&str] = &[
    "rgb",
    "rgba",
    "hsl",
    "hsla",
    "hwb",
    "lab",
    "lch",
    "oklab",
    "oklch",
    "color",
    "color-mix",
    "calc",
    "min",
    "max",
    "clamp",
    "var",
    "env",
    "cubic-bezier",
    "steps",
    "linear-gradient",
    "radial-gradient",
    "conic-gradient",
    "repeating-linear-gradient",
    "url",
    "translate",
    "translatex",
    "translatey",
    "translate3d",
    "scale",
    "rotate",
    "blur",
    "drop-shadow",
    "format",
    "local",
];

/// The tokens of the set, by the name a reference uses.
struct Index<'a> {
    tokens: &'a [RawToken],
    by_name: HashMap<&'a str, usize>,
}

impl<'a> Index<'a> {
    fn new(tokens: &'a [RawToken]) -> Self {
        let mut by_name = HashMap::new();
        // Declared names first, so a documented table's local name never hides a theme's token of that name.
        for documented in [false, true] {
            for (i, t) in tokens.iter().enumerate() {
                if (t.source == TokenSource::Documented) == documented {
                    by_name.entry(t.name.as_str()).or_insert(i);
                }
            }
        }
        Index { tokens, by_name }
    }

    /// The value of the token named `name` in `mode`, resolved; `None` when no token has that name or its value
    /// does not resolve.
    fn value_of(&self, name: &str, mode: &str, depth: u32) -> Option<String> {
        let t = &self.tokens[*self.by_name.get(name)?];
        let (_, written) = t.values.iter().find(|(m, _)| m == mode).or_else(|| t.values.first())?;
        self.resolve(written, mode, depth + 1)
    }

    /// `text` with every reference replaced, or `None` when one does not resolve.
    fn resolve(&self, text: &str, mode: &str, depth: u32) -> Option<String> {
        if depth > MAX_DEPTH {
            return None;
        }
        let mut out = String::with_capacity(text.len());
        let mut rest = text.trim();
        // Less's escape `~'…'` / `~"…"`: its text as written.
        if let Some(inner) = rest.strip_prefix('~') {
            rest = inner.trim_matches(|c| c == '\'' || c == '"');
        }
        if let Some(value) = self.less_if(rest, mode, depth) {
            return value;
        }
        while !rest.is_empty() {
            if let Some(after) = rest.strip_prefix("var(") {
                let end = closing_paren(after)?;
                let (name, fallback) = match after[..end].split_once(',') {
                    Some((n, f)) => (n.trim(), Some(f.trim())),
                    None => (after[..end].trim(), None),
                };
                // `var(~'@{prefix}-blue-6')`: the name interpolated first.
                let name = self.interpolate(name, mode, depth)?;
                let value = self.value_of(&name, mode, depth).or_else(|| self.resolve(fallback?, mode, depth + 1))?;
                out.push_str(&value);
                rest = &after[end + 1..];
            } else if let Some(after) = rest.strip_prefix("@{") {
                // Less's interpolation: the variable's value as text.
                let end = after.find('}')?;
                out.push_str(&self.interpolated(&after[..end], mode, depth)?);
                rest = &after[end + 1..];
            } else if let Some(after) = rest.strip_prefix(['$', '@']).filter(|a| a.starts_with(ident_char)) {
                let len = after.find(|c: char| !ident_char(c)).unwrap_or(after.len());
                let name = &rest[..len + 1];
                out.push_str(&self.value_of(name, mode, depth)?);
                rest = &after[len..];
            } else if let Some(after) = rest.strip_prefix('{') {
                let end = after.find('}')?;
                out.push_str(&self.value_of(&after[..end], mode, depth)?);
                rest = &after[end + 1..];
            } else {
                let c = rest.chars().next()?;
                out.push(c);
                rest = &rest[c.len_utf8()..];
            }
        }
        (!has_preprocessor_function(&out)).then_some(out)
    }

    /// The text Less's `@{name}` stands for: variable `@name`'s value, its escape quotes (`~'…'`) removed.
    fn interpolated(&self, name: &str, mode: &str, depth: u32) -> Option<String> {
        let value = self.value_of(&format!("@{name}"), mode, depth)?;
        Some(unescape(&value).to_string())
    }

    /// `text` with each `@{name}` replaced ([`Index::interpolated`]) and its escape quotes removed: a name
    /// written with interpolation (`~'@{prefix}-blue-6'` → `--blue-6`); `None` when a variable does not resolve.
    fn interpolate(&self, text: &str, mode: &str, depth: u32) -> Option<String> {
        let text = unescape(text.trim());
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(i) = rest.find("@{") {
            out.push_str(&rest[..i]);
            let end = rest[i..].find('}')? + i;
            out.push_str(&self.interpolated(&rest[i + 2..end], mode, depth + 1)?);
            rest = &rest[end + 1..];
        }
        out.push_str(rest);
        Some(out)
    }

    /// Less's `if(condition, then, else)` (a built-in since Less 3.0) with an `a = b` condition (`not (a = b)`
    /// too), comparing the two sides' values without escape quotes: `Some(value)` for such a call (`Some(None)`
    /// when a side does not resolve), `None` for any other text.
    fn less_if(&self, text: &str, mode: &str, depth: u32) -> Option<Option<String>> {
        let inner = text.strip_prefix("if(")?;
        let end = closing_paren(inner)?;
        if !inner[end + 1..].trim().is_empty() {
            return None;
        }
        let args = split_top_level(&inner[..end]);
        let [condition, then, otherwise] = args.as_slice() else { return None };
        let (negated, condition) = match condition.trim().strip_prefix("not") {
            Some(rest) => (true, rest.trim().trim_start_matches('(').trim_end_matches(')')),
            None => (false, condition.trim()),
        };
        let (a, b) = condition.split_once('=')?;
        let side = |s: &str| self.resolve(s, mode, depth + 1).map(|v| unescape(&v).to_string());
        let holds = match (side(a), side(b)) {
            (Some(a), Some(b)) => (a == b) != negated,
            _ => return Some(None),
        };
        Some(self.resolve(if holds { then } else { otherwise }, mode, depth + 1))
    }
}

/// `text` without Less's escape (`~'…'`, `~"…"`) or plain quotes around it.
fn unescape(text: &str) -> &str {
    let t = text.trim();
    let t = t.strip_prefix('~').unwrap_or(t);
    for q in ['\'', '"'] {
        if let Some(inner) = t.strip_prefix(q).and_then(|r| r.strip_suffix(q)) {
            return inner;
        }
    }
    t
}

/// `text` split at the commas outside parentheses and quotes.
fn split_top_level(text: &str) -> Vec<&str> {
    let (mut out, mut depth, mut quote, mut start) = (Vec::new(), 0u32, None, 0);
    for (i, c) in text.char_indices() {
        match (c, quote) {
            ('\'' | '"', None) => quote = Some(c),
            (q, Some(open)) if q == open => quote = None,
            (_, Some(_)) => {}
            ('(', None) => depth += 1,
            (')', None) => depth = depth.saturating_sub(1),
            (',', None) if depth == 0 => {
                out.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&text[start..]);
    out
}

/// `raw` with the names written with Less interpolation (`@{prefix}-blue-6`, declared in a block) named by the
/// set's variables (`--blue-6` when `@prefix` is `-`, however it is computed): a custom property when the name
/// then starts with `--`. A name whose variable does not resolve stays as written.
pub fn interpolate_names(mut raw: Vec<RawToken>) -> Vec<RawToken> {
    let named: Vec<(usize, String)> = {
        let index = Index::new(&raw);
        raw.iter()
            .enumerate()
            .filter(|(_, t)| t.name.contains("@{"))
            .filter_map(|(i, t)| Some((i, index.interpolate(&t.name, "", 0)?)))
            .collect()
    };
    for (i, name) in named {
        if name.starts_with("--") {
            raw[i].source = TokenSource::CssVariable;
        }
        raw[i].name = name;
    }
    raw
}

/// A character of a SCSS/Less variable name.
fn ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '-' || c == '_'
}

/// The byte offset of the `)` closing a parenthesis opened just before `text`.
fn closing_paren(text: &str) -> Option<usize> {
    let mut depth = 0u32;
    for (i, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' if depth == 0 => return Some(i),
            ')' => depth -= 1,
            _ => {}
        }
    }
    None
}

/// Whether `value` calls a function no browser computes.
fn has_preprocessor_function(value: &str) -> bool {
    let bytes = value.as_bytes();
    value.match_indices('(').any(|(i, _)| {
        let start = value[..i].rfind(|c: char| !(c.is_alphanumeric() || c == '-' || c == '_')).map_or(0, |s| s + 1);
        let name = value[start..i].to_ascii_lowercase();
        !name.is_empty() && bytes[start].is_ascii_alphabetic() && !CSS_FUNCTIONS.contains(&name.as_str())
    })
}

/// Whether `written` is one reference and nothing else: the value of a semantic (alias) token.
fn is_reference(written: &str) -> bool {
    let w = written.trim();
    let whole = |inner: &str| !inner.is_empty() && inner.chars().all(|c| ident_char(c) || c == '.');
    w.strip_prefix("var(--").and_then(|r| r.strip_suffix(')')).is_some_and(|r| whole(r.split(',').next().unwrap_or("")))
        || w.strip_prefix(['$', '@']).is_some_and(whole)
        || w.strip_prefix('{').and_then(|r| r.strip_suffix('}')).is_some_and(whole)
}

/// The type a token's name suggests, for a value that does not say (a reference not resolved, a shadow).
fn type_from_name(name: &str) -> Option<TokenType> {
    let n = name.to_lowercase();
    let has = |words: &[&str]| words.iter().any(|w| n.contains(w));
    if has(&["shadow"]) {
        Some(TokenType::Shadow)
    } else if has(&["font-family", "font_family", "fontfamily", "fonts.", "font-weight", "fontweight", "font_weight"]) {
        Some(TokenType::Font)
    } else if has(&["easing", "timing-function", "ease"]) {
        Some(TokenType::Easing)
    } else if has(&["duration", "transition-time", "motion"]) {
        Some(TokenType::Duration)
    } else if has(&["z-index", "zindex", "z_index", "opacity", "line-height", "lineheight"]) {
        Some(TokenType::Number)
    } else if has(&["color", "colour", "bg", "background", "fill", "stroke"]) {
        Some(TokenType::Color)
    } else if has(&[
        "size", "spacing", "space", "width", "height", "radius", "radii", "padding", "margin", "gap", "offset",
        "indent", "inset",
    ]) {
        Some(TokenType::Dimension)
    } else {
        None
    }
}

/// Whether `written` calls a preprocessor's colour function (Less's and Sass's `fade`, `tint`, `shade`, `darken`,
/// `lighten`, `mix`, `rgba` of a variable, a palette plugin's `color-palette`): an unresolved colour.
fn colour_function(written: &str) -> bool {
    let w = written.to_ascii_lowercase();
    ["color", "fade(", "tint(", "shade(", "darken(", "lighten(", "mix(", "rgba(", "rgb(", "hsl("]
        .iter()
        .any(|f| w.contains(f) && w.contains('('))
}

/// The type of a token: declared, else of its first normalised value, else from its name, else a number for a bare
/// number, else other.
fn type_of(t: &RawToken, values: &[ModeValue]) -> TokenType {
    if let Some(k) = t.kind {
        return k;
    }
    let first = values.iter().find_map(|v| v.resolved.as_deref().and_then(parse));
    match first {
        Some(Value::Color(_)) => TokenType::Color,
        Some(Value::Length(_)) => TokenType::Dimension,
        Some(Value::Duration(_)) => TokenType::Duration,
        // A shadow holds a colour function: its name says it is a shadow first.
        None if type_from_name(&t.name) == Some(TokenType::Shadow) => TokenType::Shadow,
        None if t.values.iter().any(|(_, w)| colour_function(w)) => TokenType::Color,
        None => type_from_name(&t.name).unwrap_or_else(|| {
            let number = values.iter().filter_map(|v| v.resolved.as_deref()).any(|r| r.trim().parse::<f64>().is_ok());
            if number { TokenType::Number } else { TokenType::Other }
        }),
    }
}

/// A dimension's bare `0` normalised as the length it is (`0px`: CSS writes a zero length without its unit); a
/// number's `0` (a z-index, an opacity) stays no length.
fn zero_length(mut v: ModeValue, kind: TokenType) -> ModeValue {
    if kind == TokenType::Dimension
        && v.normalized.is_none()
        && v.resolved.as_deref().is_some_and(|r| r.parse::<f64>() == Ok(0.0))
    {
        v.normalized = Some(Value::Length(0.0).text());
    }
    v
}

/// The model's tokens of `raw`, in order: every value resolved against the others, normalised, typed.
pub fn resolve(raw: Vec<RawToken>) -> Vec<DesignToken> {
    let index = Index::new(&raw);
    raw.iter()
        .map(|t| {
            let values: Vec<ModeValue> = t
                .values
                .iter()
                .map(|(mode, written)| {
                    let resolved = index.resolve(written, mode, 0).map(|r| r.trim().to_string());
                    let normalized = resolved.as_deref().and_then(normalize);
                    ModeValue { mode: mode.clone(), written: written.clone(), resolved, normalized }
                })
                .collect();
            let kind = type_of(t, &values);
            let values = values.into_iter().map(|v| zero_length(v, kind)).collect();
            DesignToken {
                name: t.name.clone(),
                aliases: t.aliases.clone(),
                source: t.source,
                kind,
                semantic: t.semantic || t.values.iter().all(|(_, w)| is_reference(w)),
                component: t.component.clone(),
                values,
                description: t.description.clone(),
                file: t.file.clone(),
                line: t.line,
                also_in: Vec::new(),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(name: &str, value: &str, source: TokenSource) -> RawToken {
        RawToken { name: name.into(), values: vec![(String::new(), value.into())], source, ..RawToken::default() }
    }

    #[test]
    fn references_resolve_or_stay_unresolved() {
        let tokens = resolve(vec![
            raw("$a", "#1677ff", TokenSource::Scss),
            raw("$b", "$a", TokenSource::Scss),
            raw("$c", "var(--theme-x)", TokenSource::Scss),
            raw("@d", "fade(@e, 10%)", TokenSource::Less),
            raw("@e", "#000", TokenSource::Less),
            raw("--f", "rgba(var(--g), 0.5)", TokenSource::CssVariable),
            raw("--g", "0, 0, 0", TokenSource::CssVariable),
            raw("$h", "var(--none, 12px)", TokenSource::Scss),
        ]);
        let v = |i: usize| (tokens[i].values[0].resolved.as_deref(), tokens[i].values[0].normalized.as_deref());
        assert_eq!(v(1), (Some("#1677ff"), Some("#1677ffff")));
        assert!(tokens[1].semantic && !tokens[0].semantic);
        assert_eq!(v(2), (None, None));
        assert_eq!(v(3), (None, None));
        assert_eq!(v(5), (Some("rgba(0, 0, 0, 0.5)"), Some("#00000080")));
        assert_eq!(v(7), (Some("12px"), Some("12px")));
        assert_eq!(tokens[2].kind, TokenType::Other);
        assert_eq!(tokens[7].kind, TokenType::Dimension);
    }
}
