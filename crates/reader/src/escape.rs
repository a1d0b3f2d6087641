//! The one rule for echoing text that came from outside (a query, a name or path from the repository, a version or
//! kind on the command line): control characters (a newline, a tab, an escape sequence's ESC, DEL, C1 controls) and
//! the bidirectional-text controls that reorder the text around them are never printed raw, so an echo is one line
//! that cannot rewrite the terminal or the answer around it. Shown text writes them as Rust's `escape_debug` does
//! (`\n`, `\u{1b}`, `\u{202e}`); a shell word that must keep them (a query to search again) is ANSI-C quoted
//! (`$'a\x1bb'`, which bash, zsh and ksh read back byte for byte); a JSON string writes them as `\uXXXX`.

use std::borrow::Cow;

/// Whether `c` is hidden or reorders text: a control character, or a bidirectional-text control (U+202A–U+202E
/// and U+2066–U+2069 reorder; U+200E/U+200F and U+061C mark direction).
pub fn is_unsafe(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}' | '\u{61c}')
}

/// `s` with every [`is_unsafe`] character written as `escape_debug` writes it (`\n`, `\t`, `\u{1b}`); the rest
/// (quotes, backslashes, any other non-ASCII) as given. Borrowed when nothing needs escaping.
pub fn shown(s: &str) -> Cow<'_, str> {
    if !s.chars().any(is_unsafe) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if is_unsafe(c) {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// `s` as one word of a shell command that reads back as `s`: POSIX single quotes where needed (as
/// `shell_words::quote`), or, when `s` holds an [`is_unsafe`] character, ANSI-C quoting with those characters as
/// `\xHH` / `\uHHHH` escapes (`$'a\x1bb'`), so that the printed command neither carries them raw nor searches for
/// something else.
pub fn shell_word(s: &str) -> Cow<'_, str> {
    if !s.chars().any(is_unsafe) {
        return shell_words::quote(s);
    }
    let mut out = String::from("$'");
    for c in s.chars() {
        match c {
            '\'' => out.push_str("\\'"),
            '\\' => out.push_str("\\\\"),
            c if is_unsafe(c) && (c as u32) < 0x80 => out.push_str(&format!("\\x{:02x}", c as u32)),
            c if is_unsafe(c) => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('\'');
    Cow::Owned(out)
}

/// `value` as compact JSON with every [`is_unsafe`] character inside its strings written `\uXXXX` (serde_json
/// escapes only U+0000–U+001F): the same value for a JSON reader, no raw DEL, C1 or bidi control on a screen.
pub fn json(value: &serde_json::Value) -> String {
    let text = value.to_string();
    if !text.chars().any(is_unsafe) {
        return text;
    }
    // Outside strings compact JSON holds no such character: every one left is inside a string, where `\uXXXX`
    // means it (all of them are in the Basic Multilingual Plane).
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if is_unsafe(c) {
            out.push_str(&format!("\\u{:04x}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn echoes_carry_no_control_or_bidi_character() {
        assert_eq!(shown("but\u{1b}[31mton\nx"), "but\\u{1b}[31mton\\nx");
        assert_eq!(shown("a\u{202e}b\u{7f}"), "a\\u{202e}b\\u{7f}");
        assert!(matches!(shown("表格 'x' \\"), Cow::Borrowed(_)));
        assert_eq!(shell_word("a b"), "'a b'");
        assert_eq!(shell_word("-x"), "-x");
        assert_eq!(shell_word("it's\u{1b}[1m\n"), "$'it\\'s\\x1b[1m\\x0a'");
        assert_eq!(shell_word("\u{202e}x"), "$'\\u202ex'");
        let v = serde_json::json!({"q": "a\u{1b}b\u{202e}c\u{85}"});
        assert_eq!(json(&v), r#"{"q":"a\u001bb\u202ec\u0085"}"#);
        let back: serde_json::Value = serde_json::from_str(&json(&v)).unwrap();
        assert_eq!(back, v);
    }
}
