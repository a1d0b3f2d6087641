//! Design tokens of stylesheets: CSS custom properties (`--semi-color-primary: …`), SCSS variables
//! (`$color-primary: …`) and Less variables (`@primary-6: …`), read statement by statement.
//!
//! A stylesheet is split into statements (`name: value;`, a block's selector before `{`, a `}`) with comments,
//! strings and interpolations (`#{…}`, `@{…}`) skipped, so a `;` or brace inside them ends nothing. Variables are
//! read at the top level only (a variable inside a rule is local to it); custom properties inside any block, the
//! mode taken from the enclosing selectors and at-rules (`dark` or `light` in them: `body[theme-mode="dark"]`,
//! `@media (prefers-color-scheme: dark)`). A comment on the declaration's line, or on the lines right above it, is
//! its description. No SCSS or Less grammar is used: only declarations are read, and every maintained CSS parser
//! rejects one dialect or the other (Less's `@name:` and `~'…'`, SCSS's `#{…}`).

use super::RawToken;
use crate::model::TokenSource;

/// The dialect of a stylesheet, from its extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// `.css`: custom properties only.
    Css,
    /// `.scss`: `$variables` and custom properties.
    Scss,
    /// `.less`: `@variables` and custom properties.
    Less,
}

impl Dialect {
    /// The dialect of `path`'s extension; `None` for a file that is no stylesheet.
    pub fn of(path: &str) -> Option<Dialect> {
        match path.rsplit_once('.')?.1 {
            "css" => Some(Dialect::Css),
            "scss" => Some(Dialect::Scss),
            "less" => Some(Dialect::Less),
            _ => None,
        }
    }
}

/// One statement: its text (comments removed, whitespace trimmed), its 1-based line, how it ended (`;`, `{`, `}`
/// or the end of the file), and the comments on its line or right above it.
struct Statement {
    text: String,
    line: u32,
    end: char,
    comment: String,
}

/// Splits `text` into statements.
fn statements(text: &str) -> Vec<Statement> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let (mut line, mut start_line) = (1u32, 1u32);
    let mut comment = String::new();
    let mut chars = text.chars().peekable();
    let mut interp = 0u32;
    let mut quote: Option<char> = None;
    let push = |out: &mut Vec<Statement>, cur: &mut String, comment: &mut String, line: u32, end: char| {
        out.push(Statement { text: cur.trim().to_string(), line, end, comment: std::mem::take(comment) });
        cur.clear();
    };
    while let Some(c) = chars.next() {
        if cur.trim().is_empty() {
            start_line = line;
        }
        if c == '\n' {
            line += 1;
        }
        if let Some(q) = quote {
            cur.push(c);
            if c == '\\' {
                cur.extend(chars.next());
            } else if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            '"' | '\'' => {
                quote = Some(c);
                cur.push(c);
            }
            '/' if chars.peek() == Some(&'/') && !cur.ends_with(':') => {
                // A line comment (SCSS, Less); `url(http://…)` keeps its `//` (after a `:`).
                let mut body = String::new();
                for d in chars.by_ref() {
                    if d == '\n' {
                        line += 1;
                        break;
                    }
                    body.push(d);
                }
                add_comment(&mut comment, body.trim_start_matches('/'));
                if !cur.trim().is_empty() {
                    // A comment after an unfinished statement on its line: keep the line break it ended.
                    cur.push(' ');
                }
            }
            '/' if chars.peek() == Some(&'*') => {
                chars.next();
                let mut body = String::new();
                let mut prev = ' ';
                for d in chars.by_ref() {
                    if d == '\n' {
                        line += 1;
                    }
                    if prev == '*' && d == '/' {
                        body.pop();
                        break;
                    }
                    body.push(d);
                    prev = d;
                }
                add_comment(&mut comment, &body);
            }
            '{' if cur.ends_with('#') || cur.ends_with('@') || interp > 0 => {
                interp += 1;
                cur.push(c);
            }
            '}' if interp > 0 => {
                interp -= 1;
                cur.push(c);
            }
            ';' | '{' | '}' => {
                let end_line = start_line;
                // A trailing comment on the same line belongs to this statement.
                let mut trailing = String::new();
                let mut rest = chars.clone();
                while let Some(&d) = rest.peek() {
                    if d == ' ' || d == '\t' {
                        rest.next();
                    } else {
                        break;
                    }
                }
                if rest.peek() == Some(&'/') {
                    let mut probe = rest.clone();
                    probe.next();
                    if probe.peek() == Some(&'/') {
                        probe.next();
                        let body: String = probe.clone().take_while(|&d| d != '\n').collect();
                        trailing = body.trim().trim_start_matches('/').trim().to_string();
                        for _ in 0..body.chars().count() {
                            probe.next();
                        }
                        chars = probe;
                    }
                }
                if !trailing.is_empty() {
                    comment = trailing;
                }
                push(&mut out, &mut cur, &mut comment, end_line, c);
            }
            _ => cur.push(c),
        }
    }
    if !cur.trim().is_empty() {
        push(&mut out, &mut cur, &mut comment, start_line, '\0');
    }
    out
}

/// Appends one comment's text (trimmed, `*` margins dropped) to the pending description.
fn add_comment(pending: &mut String, body: &str) {
    let text: Vec<&str> =
        body.lines().map(|l| l.trim().trim_start_matches('*').trim()).filter(|l| !l.is_empty()).collect();
    let text = text.join(" ");
    if text.is_empty() {
        return;
    }
    if !pending.is_empty() {
        pending.push(' ');
    }
    pending.push_str(&text);
}

/// Whether `text` (a stylesheet) reads as a token file: at least three variable or custom-property declarations,
/// and they are at least half of its declarations. A component's stylesheet declares a few local variables among
/// many properties; a theme's or a variables file is mostly declarations of values.
pub fn is_token_file(dialect: Dialect, text: &str) -> bool {
    let (mut vars, mut other) = (0usize, 0usize);
    for s in statements(text) {
        if s.end != ';' {
            continue;
        }
        match declaration(dialect, &s.text) {
            Some(_) => vars += 1,
            None if s.text.contains(':') => other += 1,
            None => {}
        }
    }
    vars >= 3 && vars >= other
}

/// `(name, value, source)` of a variable or custom-property declaration `text`; `None` for anything else
/// (`@import`, a property, a Sass control statement).
fn declaration(dialect: Dialect, text: &str) -> Option<(String, String, TokenSource)> {
    let (name, value) = text.split_once(':')?;
    let (name, value) = (name.trim(), value.trim());
    let value = value.trim_end_matches("!default").trim_end_matches("!global").trim();
    let ident = |s: &str| {
        !s.is_empty() && s.chars().all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '{' | '}' | '@' | '$'))
    };
    let source = if let Some(rest) = name.strip_prefix("--") {
        ident(rest).then_some(TokenSource::CssVariable)?
    } else if let (Dialect::Scss, Some(rest)) = (dialect, name.strip_prefix('$')) {
        ident(rest).then_some(TokenSource::Scss)?
    } else if let (Dialect::Less, Some(rest)) = (dialect, name.strip_prefix('@')) {
        // `@{prefix}-color: …` is a property whose name is interpolated (a custom property when the prefix is
        // `--…`): read by the caller once the prefix is known; `@media …:` is no declaration.
        (ident(rest) && !rest.starts_with("media") && !rest.starts_with("import")).then_some(TokenSource::Less)?
    } else {
        return None;
    };
    Some((name.to_string(), value.to_string(), source))
}

/// The mode named by an enclosing selector or at-rule: `dark` or `light` when one of them says so, else `""`.
fn mode_of(selectors: &[String]) -> String {
    for s in selectors.iter().rev() {
        let lower = s.to_lowercase();
        if lower.contains("dark") {
            return "dark".into();
        }
        if lower.contains("light") {
            return "light".into();
        }
    }
    String::new()
}

/// The tokens declared in stylesheet `text` (repository path `path`): top-level variables and custom properties
/// in any block. Less's interpolated names (`@{prefix}-color-white`) are read with the prefix's value when a
/// top-level variable of the file gives it (`~'…'` quotes removed).
pub fn read(dialect: Dialect, path: &str, text: &str) -> Vec<RawToken> {
    let mut out: Vec<RawToken> = Vec::new();
    let mut blocks: Vec<String> = Vec::new();
    let mut strings: std::collections::HashMap<String, String> = std::collections::HashMap::new();
    for s in statements(text) {
        if s.end == '{' {
            blocks.push(s.text.clone());
            continue;
        }
        // A `}` ends the statement before it too (a last declaration without `;`), inside the block it closes.
        if let Some(token) = token_of(dialect, path, &s, &blocks, &mut strings) {
            merge(&mut out, token);
        }
        if s.end == '}' {
            blocks.pop();
        }
    }
    out
}

/// The token statement `s` declares inside `blocks` (the enclosing selectors and at-rules), if any; a top-level
/// variable's value is also kept in `strings` for the interpolations of later names.
fn token_of(
    dialect: Dialect,
    path: &str,
    s: &Statement,
    blocks: &[String],
    strings: &mut std::collections::HashMap<String, String>,
) -> Option<RawToken> {
    let text = interpolate(&s.text, strings);
    let (name, value, source) = declaration(dialect, &text)?;
    // `@{prefix}-color: …` whose prefix another file gives: a property of its block, named once the set's
    // variables are known (`resolve::interpolate_names`).
    let property = source == TokenSource::CssVariable || name.starts_with("@{");
    if !property && !blocks.is_empty() {
        return None;
    }
    if !property {
        let unquoted = value.trim_start_matches('~').trim_matches(|c| c == '\'' || c == '"');
        strings.insert(name.trim_start_matches(['@', '$']).to_string(), unquoted.to_string());
    }
    let mode = if property { mode_of(blocks) } else { String::new() };
    Some(RawToken {
        name,
        source,
        values: vec![(mode, value)],
        description: s.comment.clone(),
        file: path.to_string(),
        line: s.line,
        ..RawToken::default()
    })
}

/// Adds `token` to `out`, or its value to the token of the same name and form already read (the same custom
/// property in a dark theme's block: one token, one value a mode; the last declaration of a mode wins).
fn merge(out: &mut Vec<RawToken>, token: RawToken) {
    let Some(t) = out.iter_mut().find(|t| t.name == token.name && t.source == token.source) else {
        out.push(token);
        return;
    };
    for (mode, value) in token.values {
        match t.values.iter_mut().find(|(m, _)| *m == mode) {
            Some(v) => v.1 = value,
            None => t.values.push((mode, value)),
        }
    }
}

/// `text` with each `@{name}` replaced by `strings[name]` when known.
fn interpolate(text: &str, strings: &std::collections::HashMap<String, String>) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find("@{") {
        out.push_str(&rest[..i]);
        let Some(j) = rest[i..].find('}') else { break };
        let name = &rest[i + 2..i + j];
        match strings.get(name) {
            Some(v) => out.push_str(v),
            None => out.push_str(&rest[i..=i + j]),
        }
        rest = &rest[i + j + 1..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scss_variables_with_comments_and_lines() {
        let text = "// primary\n$color-a: #fff; // white\n\n.x { $local: 1px; color: red; }\n$b: $color-a !default;\n";
        let t = read(Dialect::Scss, "v.scss", text);
        let got: Vec<(&str, &str, u32, &str)> =
            t.iter().map(|t| (t.name.as_str(), t.values[0].1.as_str(), t.line, t.description.as_str())).collect();
        assert_eq!(got, [("$color-a", "#fff", 2, "white"), ("$b", "$color-a", 5, "")]);
    }

    #[test]
    fn custom_properties_per_mode() {
        let text = ":root {\n  --c: #000;\n  --d: url(http://x/y);\n}\n[data-theme='dark'] {\n  --c: #fff\n}\n";
        let t = read(Dialect::Css, "t.css", text);
        assert_eq!(t.len(), 2);
        assert_eq!(t[0].values, [(String::new(), "#000".to_string()), ("dark".to_string(), "#fff".to_string())]);
        assert_eq!(t[1].values[0].1, "url(http://x/y)");
    }

    #[test]
    fn less_interpolated_names_and_token_files() {
        let text = "@prefix: ~'--arco';\n@{prefix}-color-white: #fff;\n@media (x) { a: b; }\n@c: 1px;\n";
        let t = read(Dialect::Less, "t.less", text);
        let names: Vec<&str> = t.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, ["@prefix", "--arco-color-white", "@c"]);
        assert!(is_token_file(Dialect::Less, text));
        assert!(!is_token_file(Dialect::Scss, ".a { color: red; margin: 0; $x: 1; }"));
    }
}
