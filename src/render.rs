//! One renderer for every lookup: the structured form is the view itself (serialized as JSON), the text form is a
//! one-line bracketed header (system, version, what was served, its size in tokens, how to get more) followed by
//! the content exactly as stored. CLI and MCP share it, so both say the same thing.

use crate::read::*;

/// A view that renders to text.
pub trait Render: serde::Serialize {
    /// The text form: header line, then content.
    fn text(&self) -> String;

    /// The structured form, as pretty JSON.
    fn json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
    }
}

/// `12345` → `12,345`.
pub fn thousands(n: impl Into<u64>) -> String {
    let s = n.into().to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `1 code block`, `2 code blocks`.
pub fn plural(n: impl Into<u64>, word: &str) -> String {
    let n = n.into();
    format!("{} {word}{}", thousands(n), if n == 1 { "" } else { "s" })
}

fn served(s: &Served) -> String {
    format!("{} {}", s.system, s.version)
}

impl Render for ComponentsView {
    fn text(&self) -> String {
        let mut out = format!(
            "[{} · {} · sizes for {} · tokens of the default view{}]\n",
            served(&self.served),
            plural(self.components.len() as u64, "component"),
            self.lang,
            self.changelog_pages.map_or(String::new(), |p| format!(" · changelog: {}", plural(p, "page")))
        );
        let width = self.components.iter().map(|c| c.name.chars().count()).max().unwrap_or(4).max(4);
        out.push_str(&format!(
            "{:<width$}  {:>7}  {:>6}  {:>5}  {}\n",
            "NAME", "TOKENS", "BLOCKS", "FILES", "TITLE — BRIEF"
        ));
        for c in &self.components {
            let title = c.title.as_deref().unwrap_or("");
            let mut about = match (title, c.brief.as_deref()) {
                ("", None) => String::new(),
                (t, None) => t.to_string(),
                ("", Some(b)) => b.to_string(),
                (t, Some(b)) => format!("{t} — {b}"),
            };
            let has_lang = c.langs.iter().any(|l| l.eq_ignore_ascii_case(&self.lang));
            if !has_lang {
                let note = match c.langs.as_slice() {
                    [] => "(sources only)".to_string(),
                    langs => format!("({} only)", langs.join(", ")),
                };
                about = if about.is_empty() { note } else { format!("{note} {about}") };
            }
            let tokens = if has_lang { thousands(c.tokens) } else { "—".into() };
            out.push_str(&format!(
                "{:<width$}  {:>7}  {:>6}  {:>5}  {}\n",
                c.name, tokens, c.code_blocks, c.files, about
            ));
        }
        if self.shared_files > 0 {
            out.push_str(&format!(
                "[+ {} of shared folders that are no component: files _shared]\n",
                plural(self.shared_files, "file")
            ));
        }
        out
    }
}

impl Render for DocView {
    fn text(&self) -> String {
        let hidden = if self.hidden {
            format!(
                " · {} hidden (document over {} lines): get one with get_code_block (CLI: code-block {} N), the whole document with full (CLI: --full)",
                plural(self.code_blocks, "code block"),
                self.threshold,
                self.component
            )
        } else {
            format!(" · {}", plural(self.code_blocks, "code block"))
        };
        let full =
            if self.hidden { format!(" (whole document: {})", thousands(self.full_tokens)) } else { String::new() };
        format!(
            "[{} · {} · {} · {} · {} lines{hidden} · {} tokens{full}]\n{}",
            served(&self.served),
            self.component,
            self.lang,
            self.path,
            thousands(self.lines),
            thousands(self.tokens),
            self.text
        )
    }
}

impl Render for CodeBlockView {
    fn text(&self) -> String {
        let b = &self.block;
        let info = if b.info.is_empty() { String::new() } else { format!(" · {}", b.info) };
        let heading = b.heading.as_ref().map_or(String::new(), |h| format!(" · under \"{h}\""));
        format!(
            "[{} · {} · {} · code block {}/{}{info}{heading} · lines {}–{} · {} tokens]\n{}",
            served(&self.served),
            self.component,
            self.lang,
            b.index,
            self.count,
            b.start_line,
            b.end_line,
            thousands(b.tokens),
            self.text
        )
    }
}

impl Render for ChangelogView {
    fn text(&self) -> String {
        let nav = |label: &str, p: Option<u32>| p.map_or(String::new(), |p| format!(" · {label}: changelog-{p}"));
        format!(
            "[{} · changelog · {} · page {}/{} · lines {}–{} · {} tokens{}{}]\n{}\n[page {}/{} · {} lines per page · {} lines in all]",
            served(&self.served),
            self.lang,
            self.page,
            self.pages,
            thousands(self.start_line),
            thousands(self.end_line),
            thousands(self.tokens),
            nav("previous (newer)", self.previous),
            nav("next (older)", self.next),
            self.text,
            self.page,
            self.pages,
            self.page_lines,
            thousands(self.total_lines)
        )
    }
}

impl Render for FilesView {
    fn text(&self) -> String {
        let mut out =
            format!("[{} · {} · {}]\n", served(&self.served), self.component, plural(self.files.len() as u64, "file"));
        let width = self.files.iter().map(|f| f.path.chars().count()).max().unwrap_or(4).max(4);
        out.push_str(&format!("{:<width$}  {:>6}  {:>7}  {:>9}  NOTES\n", "PATH", "LINES", "TOKENS", "FUNCTIONS"));
        for f in &self.files {
            let mut notes = Vec::new();
            if let Some(s) = &f.skeleton {
                notes.push(format!("skeleton {} lines, {} tokens", thousands(s.lines), thousands(s.tokens)));
            }
            if f.kind == crate::model::FileKind::Binary {
                notes.push(format!("binary, {} bytes", thousands(f.bytes)));
            }
            if f.parse_errors > 0 {
                notes.push(plural(f.parse_errors, "syntax error"));
            }
            out.push_str(&format!(
                "{:<width$}  {:>6}  {:>7}  {:>9}  {}\n",
                f.path,
                thousands(f.lines),
                thousands(f.tokens),
                f.functions,
                notes.join("; ")
            ));
        }
        out
    }
}

impl Render for FileView {
    fn text(&self) -> String {
        let f = &self.file;
        let what = match (&f.skeleton, self.skeleton) {
            (Some(s), true) => format!(
                " · skeleton (source of {}+ lines): {} lines, {} outer function {} replaced by {{ /* ... */ }}; whole file ({} tokens) with full (CLI: --full)",
                self.threshold,
                thousands(s.lines),
                s.outer_bodies,
                if s.outer_bodies == 1 { "body" } else { "bodies" },
                thousands(f.tokens)
            ),
            _ if f.kind == crate::model::FileKind::Binary => " · binary file, not stored".to_string(),
            _ => String::new(),
        };
        let mut out = format!(
            "[{} · {} · {} lines{what} · {} tokens]\n{}",
            served(&self.served),
            f.path,
            thousands(f.lines),
            thousands(self.tokens),
            self.text
        );
        if self.skeleton && !self.functions.is_empty() {
            out.push_str(&format!(
                "\n[{} (not counted above); get one with get_function_code (CLI: function {} NAME): {}]",
                plural(self.functions.len() as u64, "function"),
                f.path,
                self.functions.join(", ")
            ));
        }
        out
    }
}

impl Render for FunctionView {
    fn text(&self) -> String {
        let f = &self.function;
        format!(
            "[{} · {} · {} ({}) · lines {}–{} · {} tokens]\n{}",
            served(&self.served),
            self.path,
            f.qualified,
            f.kind,
            f.start_line,
            f.end_line,
            thousands(f.tokens),
            self.text
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plurals() {
        assert_eq!(plural(1u32, "code block"), "1 code block");
        assert_eq!(plural(1611u32, "page"), "1,611 pages");
    }

    #[test]
    fn thousands_groups_digits() {
        assert_eq!(thousands(0u32), "0");
        assert_eq!(thousands(999u32), "999");
        assert_eq!(thousands(6374u32), "6,374");
        assert_eq!(thousands(1234567u64), "1,234,567");
    }
}
