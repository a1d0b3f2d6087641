//! The text form of every view ([`Render`] for each of them): list rows, framed parts of texts, and the lines that
//! say what was cut and how to continue.

use super::terse::{same_call, short_text};
use super::*;

/// Widest padded column of a list (characters): longer names overflow their column instead of widening it. Rust's
/// formatter panics on a width over 65,535, which a hand-made bundle's 70,000-character name would reach.
const MAX_COLUMN: usize = 80;

/// Width of a list's name column: the longest of `widths` (characters), at least 4, at most [`MAX_COLUMN`].
pub fn column(widths: impl Iterator<Item = usize>) -> usize {
    widths.max().unwrap_or(4).clamp(4, MAX_COLUMN)
}

/// One row of the component list's text form (`list_components`, `components`) in language `lang`, its name padded
/// to `width` characters ([`column`]), newline included. The compiler counts each row this way for the list's
/// per-row token bounds (`Manifest::list_row_tokens`).
pub fn component_row_line(c: &ComponentRow, lang: &str, width: usize) -> String {
    let title = c.title.as_deref().unwrap_or("");
    let mut about = match (title, c.brief.as_deref()) {
        ("", None) => String::new(),
        (t, None) => t.to_string(),
        ("", Some(b)) => b.to_string(),
        (t, Some(b)) => format!("{t} — {b}"),
    };
    let has_lang = c.langs.iter().any(|l| l.eq_ignore_ascii_case(lang));
    if !has_lang {
        let note = match c.langs.as_slice() {
            [] => "(sources only)".to_string(),
            langs => format!("({} only)", langs.join(", ")),
        };
        about = if about.is_empty() { note } else { format!("{note} {about}") };
    }
    if c.generated > 0 && has_lang {
        let note = format!("(generated from {})", stories(c.generated));
        about = if about.is_empty() { note } else { format!("{note} {about}") };
    }
    let tokens = if has_lang { thousands(c.tokens) } else { "—".into() };
    format!("{:<width$}  {:>7}  {:>6}  {:>5}  {}\n", c.name, tokens, c.code_blocks, c.files, about)
}

/// What a header says after a generated document's path: ` (generated from 12 stories: no document)`; nothing for
/// a written one.
fn generated_note(from: u32) -> String {
    match from {
        0 => String::new(),
        n => format!(" (generated from {}: no document)", stories(n)),
    }
}

/// `1 story`, `12 stories`.
fn stories(n: u32) -> String {
    format!("{} {}", thousands(n), if n == 1 { "story" } else { "stories" })
}

/// One row of a file list's text form (`list_components` with `component`, `files`), its path padded to `width`
/// characters ([`column`]), newline included; counted by the compiler as [`component_row_line`] is.
pub fn file_row_line(f: &crate::model::FileMeta, width: usize) -> String {
    let mut notes = Vec::new();
    if let Some(s) = &f.skeleton {
        notes.push(format!("skeleton {}, {}", plural(s.lines, "line"), plural(s.tokens, "token")));
    }
    if f.kind == crate::model::FileKind::Binary {
        notes.push(format!("binary, {} bytes", thousands(f.bytes)));
    }
    if f.parse_errors > 0 {
        notes.push(plural(f.parse_errors, "syntax error"));
    }
    format!(
        "{:<width$}  {:>6}  {:>7}  {:>9}  {}\n",
        f.path,
        thousands(f.lines),
        thousands(f.tokens),
        f.functions,
        notes.join("; ")
    )
}

/// `token` for 1, else `tokens` (after a number printed on its own, as in `3 of 1 token`).
pub(crate) fn tokens_word(n: u32) -> &'static str {
    if n == 1 { "token" } else { "tokens" }
}

pub(crate) fn served(s: &Served) -> String {
    match &s.note {
        Some(note) => format!("{} {} · {note}", s.system, s.version),
        None => format!("{} {}", s.system, s.version),
    }
}

impl Render for ComponentsView {
    const MEASURED: bool = true;

    terse_in_part!();

    fn rows_text(&self) -> Option<String> {
        let width = column(self.components.iter().map(|c| c.name.chars().count()));
        Some(self.components.iter().map(|c| component_row_line(c, &self.lang, width)).collect())
    }

    fn render(&self, surface: Surface) -> String {
        let mut out = format!(
            "[{} · {} · sizes for {} · tokens of the default view{}]\n",
            served(&self.served),
            plural(
                u64::from(self.part.rows_total.max(self.components.len() as u32)),
                if self.kind.is_component() { "component" } else { "guide" }
            ),
            self.lang,
            self.changelog_pages.map_or(String::new(), |p| format!(" · changelog: {}", plural(p, "page")))
        );
        let width = column(self.components.iter().map(|c| c.name.chars().count()));
        out.push_str(&format!(
            "{:<width$}  {:>7}  {:>6}  {:>5}  {}\n",
            "NAME", "TOKENS", "BLOCKS", "FILES", "TITLE — BRIEF"
        ));
        for c in &self.components {
            out.push_str(&component_row_line(c, &self.lang, width));
        }
        let guide_args = |surface: Surface| -> Vec<(&'static str, Arg)> {
            match surface {
                Surface::Mcp => vec![("kind", "guide".into())],
                Surface::Cli => vec![("--guides", Arg::On)],
            }
        };
        if let Some(cur) = &self.part.next_cursor {
            let tool = ("list_components", "components");
            let args = if self.kind.is_component() { vec![] } else { guide_args(surface) };
            let call = match self.part.terse {
                true => same_call(surface, cur),
                false => surface.resume(&self.served, Some(&self.lang), tool, &args, self.part.max_tokens, cur),
            };
            out.push_str(&list_cut(&self.part, self.components.len(), &call));
        }
        // A terse list names no more than its rows and how to go on.
        if self.part.terse {
            return out;
        }
        if self.guides > 0 {
            let call = surface.call(&self.served, None, "list_components", "components", &guide_args(surface));
            out.push_str(&format!(
                "[+ {} (pages that document no component, read with doc like any): {call}]\n",
                plural(self.guides, "guide")
            ));
        }
        if self.shared_files > 0 {
            let call = surface.call(&self.served, None, "list_components", "files", &[("component", "_shared".into())]);
            out.push_str(&format!(
                "[+ {} of shared folders that are no component: {call}]\n",
                plural(self.shared_files, "file")
            ));
        }
        out
    }
}

/// The line ending a cut list: which rows were served, how many are left, and the call that continues.
pub(crate) fn list_cut(part: &ListPart, served: usize, call: &str) -> String {
    let first = part.first_row as usize + 1;
    let left = (part.rows_total as usize).saturating_sub(part.first_row as usize + served);
    format!(
        "[rows {}–{} of {}; {} left; continue with {call}]\n",
        thousands(first as u64),
        thousands((first + served).saturating_sub(1) as u64),
        thousands(part.rows_total),
        thousands(left as u64)
    )
}

/// The text of a part: `text` framed by what a reader needs to know when it is not the whole of what was asked
/// for: a line before it when it continues a code block (and the reopened fence), and after it the closing fence
/// of a block it ends inside and the call that continues (`more`, given when the part was cut).
fn framed(part: &Part, text: &str, more: Option<String>) -> String {
    framed_in(part, text, more, "line")
}

/// [`framed`], the cut line naming the part's last line as a `unit` (`skeleton line` for a skeleton, whose line
/// numbers are not the file's: TRIAL item 6).
pub(super) fn framed_in(part: &Part, text: &str, more: Option<String>, unit: &str) -> String {
    let mut out = String::with_capacity(text.len() + 256);
    if let (Some(index), Some(reopen)) = (part.starts_in_block, &part.reopen) {
        out.push_str(&format!("[code block #{index}, continued]\n{reopen}\n"));
    }
    out.push_str(text);
    let end_line = |out: &mut String, line: &str| {
        if !out.is_empty() && !out.ends_with('\n') {
            out.push('\n');
        }
        out.push_str(line);
    };
    if let (Some(index), Some(close)) = (part.ends_in_block, &part.close) {
        end_line(&mut out, &format!("{close}\n[code block #{index} continues in the next part]"));
    }
    if let (Some(rest), Some(call)) = (&part.cut, more) {
        // A long line cut inside is not a line served whole: its rest is among the lines left.
        let at = if text.is_empty() || text.ends_with('\n') { "after" } else { "inside" };
        end_line(
            &mut out,
            &format!(
                "[cut {at} {unit} {}: {} and {} left; continue with {call}]",
                thousands(part.lines.1),
                plural(rest.lines, "line"),
                plural(rest.tokens, "token")
            ),
        );
    }
    out
}

/// `lines 1–120 of 6,374 · ` (`what` = `lines`, `view lines`) when a part is not the whole text, else nothing.
/// `at most ` before a part's token count when it is an upper bound (a part that starts or ends inside a segment
/// cut by bytes, [`Part::tokens_exact`]), else nothing.
pub(super) fn at_most(part: &Part) -> &'static str {
    if part.tokens_exact { "" } else { "at most " }
}

fn served_lines(part: &Part, what: &str, of: u32) -> String {
    if part.cut.is_none() && part.lines.0 <= 1 && part.starts_in_block.is_none() {
        return String::new();
    }
    format!("{what} {}–{} of {} · ", thousands(part.lines.0), thousands(part.lines.1), thousands(of))
}

impl Render for DocView {
    const MEASURED: bool = true;

    fn content(&self) -> Option<&str> {
        Some(&self.text)
    }

    terse_in_part!();

    fn render(&self, surface: Surface) -> String {
        if self.part.terse {
            return short_text(&self.served, &self.part, &self.text, self.next_cursor.as_deref(), surface, "line");
        }
        let lang = Some(self.lang.as_str());
        let c = ("component", Arg::Str(self.component.clone()));
        // How to fetch what is hidden: said by the first part only (continuations keep their envelope small).
        let hidden = if self.hidden && self.part.offset == 0 {
            let args = [c.clone(), ("index", Arg::Hole("N"))];
            let block = surface.follow(&self.served, lang, ("get_code_block", "code-block"), true, &args, &["index"]);
            let args = [c.clone(), ("--detail", "full".into())];
            let full = surface.follow(&self.served, lang, DETAILS, false, &args, &["--detail"]);
            // A short document is hidden only for its demos (`<code src="…">`, kept in their own files).
            let why = if self.lines > self.threshold {
                format!("document over {} lines", self.threshold)
            } else {
                "demo code is in its own files".to_string()
            };
            format!(
                " · {} hidden ({why}): get one with {block}; everything with {full}",
                plural(self.code_blocks, "code block"),
            )
        } else if self.hidden {
            format!(" · {} hidden", plural(self.code_blocks, "code block"))
        } else {
            format!(" · {}", plural(self.code_blocks, "code block"))
        };
        let what = if self.sections.is_empty() {
            format!("{}{hidden}", plural(self.lines, "line"))
        } else {
            format!("sections: {}", self.sections.join(", "))
        };
        let of = if self.part.cut.is_some() || self.part.starts_in_block.is_some() || self.next_cursor.is_some() {
            format!(" of {}", thousands(self.total_tokens))
        } else {
            String::new()
        };
        let last = if of.is_empty() { self.tokens } else { self.total_tokens };
        let whole =
            if self.hidden { format!(" (whole document: {})", thousands(self.full_tokens)) } else { String::new() };
        let more = self.next_cursor.as_ref().map(|cur| {
            surface.resume(&self.served, lang, DETAILS, std::slice::from_ref(&c), self.part.max_tokens, cur)
        });
        format!(
            "[{} · {} · {} · {}{} · {what} · {}{}{}{of} {}{whole}]\n{}",
            served(&self.served),
            self.component,
            self.lang,
            self.path,
            generated_note(self.generated),
            if self.hidden {
                served_lines(&self.part, "view lines", self.part.text_lines)
            } else {
                served_lines(&self.part, "lines", self.lines)
            },
            at_most(&self.part),
            thousands(self.tokens),
            tokens_word(last),
            framed(&self.part, &self.text, more)
        )
    }
}

impl Render for CardView {
    const MEASURED: bool = true;

    fn content(&self) -> Option<&str> {
        Some(&self.text)
    }

    terse_in_part!();

    fn render(&self, surface: Surface) -> String {
        if self.part.terse {
            return short_text(&self.served, &self.part, &self.text, self.next_cursor.as_deref(), surface, "line");
        }
        let lang = Some(self.lang.as_str());
        let c = ("component", Arg::Str(self.component.clone()));
        let args = [c.clone(), ("--detail", "normal".into())];
        let normal = match surface {
            Surface::Mcp => surface.follow(&self.served, lang, DETAILS, false, &args, &["--detail"]),
            Surface::Cli => surface.call(&self.served, lang, DETAILS.0, DETAILS.1, std::slice::from_ref(&c)),
        };
        let more = self.next_cursor.as_ref().map(|cur| {
            surface.resume(&self.served, lang, DETAILS, std::slice::from_ref(&c), self.part.max_tokens, cur)
        });
        // The component's design tokens, after the card's text (its last part's).
        let tokens = match (&self.design_tokens, &self.next_cursor) {
            (Some(t), None) => {
                let component = Arg::Str(t.component.clone());
                let call = match surface {
                    Surface::Mcp => {
                        let args = [("kind", Arg::from("token")), ("component", component)];
                        surface.call(&self.served, None, "search_docs", "tokens", &args)
                    }
                    Surface::Cli => {
                        surface.call(&self.served, None, "search_docs", "tokens", &[("--component", component)])
                    }
                };
                let rest = t.total.saturating_sub(t.names.len() as u32);
                let more = if rest > 0 { format!(" and {rest} more") } else { String::new() };
                format!("\n## Design tokens ({}): {}{more}; all: {call}\n", t.total, t.names.join(", "))
            }
            _ => String::new(),
        };
        format!(
            "[{} · {} card · {} · {} · the document: {normal} ({}), or {} by title or slug]\n{}{tokens}",
            served(&self.served),
            self.component,
            self.lang,
            plural(self.tokens, "token"),
            plural(self.view_tokens, "token"),
            surface.arg("sections", &Arg::Holes("--section", "TITLE")),
            framed(&self.part, &self.text, more)
        )
    }
}

impl Render for PropsView {
    /// Measured only terse: its whole structured form carries the rows as JSON too, which it bounds itself by
    /// their stored tokens, under the fixed reserve; a terse one carries the text alone.
    fn content(&self) -> Option<&str> {
        self.part.terse.then_some(self.text.as_str())
    }

    terse_in_part!();

    fn render(&self, surface: Surface) -> String {
        if self.part.terse {
            return short_text(&self.served, &self.part, &self.text, self.next_cursor.as_deref(), surface, "line");
        }
        let lang = Some(self.lang.as_str());
        let more = self.next_cursor.as_ref().map(|cur| {
            let args = [("component", Arg::Str(self.component.clone()))];
            surface.resume(&self.served, lang, DETAILS, &args, self.part.max_tokens, cur)
        });
        format!(
            "[{} · {} props · {} · {} in {} · {}]\n{}",
            served(&self.served),
            self.component,
            self.lang,
            plural(self.props_total, "prop"),
            plural(self.tables_total, "table"),
            plural(self.tokens, "token"),
            framed(&self.part, &self.text, more)
        )
    }
}

impl Render for PropView {
    fn render(&self, surface: Surface) -> String {
        let lang = Some(self.lang.as_str());
        let c = ("component", Arg::Str(self.component.clone()));
        let mut head = format!(
            "[{} · {}.{} · {} · {} of {}",
            served(&self.served),
            self.component,
            self.prop,
            self.lang,
            plural(self.rows.len().max(self.unlisted_rows as usize) as u32, "row"),
            self.rows_total
        );
        if let Some(asked) = &self.asked {
            head.push_str(&format!(" · asked `{asked}`, matched without case"));
        }
        match &self.example {
            Some(e) => {
                let title = e.title.as_deref().map_or(String::new(), |t| format!(" \"{}\"", cut_chars(t, 60)));
                head.push_str(&format!(
                    " · example: code block {}{title}, {} · examples using it: {}]\n",
                    e.index,
                    plural(e.tokens, "token"),
                    self.examples_using
                ));
            }
            None => match self.prop.rsplit_once('.') {
                Some((outer, inner)) => {
                    head.push_str(&format!(" · no example of the document sets `{inner}` inside `{outer}`]\n"));
                }
                None => head.push_str(" · no example of the document sets it]\n"),
            },
        }
        // An example left out is named in the header by its block number (`code-block`/`get_code_block` serves it);
        // the call that shows all follows.
        let mut out = head + &self.text;
        if let Some(at) = self.whole_at {
            let args = [c, ("prop", Arg::Str(self.prop.clone())), ("--max-tokens", at.into())];
            let call = surface.call(&self.served, lang, DETAILS.0, "prop", &args);
            out.push_str(&format!("[left out: {}; all of it: {call}]\n", self.left_out.join(", ")));
        }
        out
    }
}

impl Render for UsesView {
    const MEASURED: bool = true;

    terse_in_part!();

    fn rows_text(&self) -> Option<String> {
        Some(self.text.clone())
    }

    fn render(&self, surface: Surface) -> String {
        let lang = Some(self.lang.as_str());
        if self.part.terse {
            let mut out = format!("[{} · examples using {}]\n{}", served(&self.served), self.uses, self.text);
            if let Some(cur) = &self.part.next_cursor {
                out.push_str(&list_cut(&self.part, self.examples.len(), &same_call(surface, cur)));
            }
            return out;
        }
        let mut out = format!(
            "[{} · examples using {} · {} · {}, the document's own smallest first]\n{}",
            served(&self.served),
            self.uses,
            self.lang,
            plural(self.total, "example"),
            self.text
        );
        if self.total == 0 {
            out.push_str("No example of the document uses it.\n");
        } else {
            let args = [("component", Arg::Str(self.component.clone())), ("index", Arg::Hole("N"))];
            let call = surface.call(&self.served, lang, "get_code_block", "code-block", &args);
            out.push_str(&format!("[the code of one: {call}]\n"));
        }
        if let Some(cur) = &self.part.next_cursor {
            let args = [("--uses", Arg::Str(self.asked.clone()))];
            let call = surface.resume(&self.served, lang, ("search_docs", "search"), &args, self.part.max_tokens, cur);
            out.push_str(&list_cut(&self.part, self.examples.len(), &call));
        }
        out
    }
}

impl Render for CodeBlockView {
    const MEASURED: bool = true;

    fn content(&self) -> Option<&str> {
        Some(&self.text)
    }

    terse_in_part!();

    fn render(&self, surface: Surface) -> String {
        if self.part.terse {
            return short_text(&self.served, &self.part, &self.text, self.next_cursor.as_deref(), surface, "line");
        }
        let b = &self.block;
        let info = if b.info.is_empty() { String::new() } else { format!(" · {}", b.info) };
        let mut heading = b.heading.as_ref().map_or(String::new(), |h| format!(" · under \"{h}\""));
        if let Some(d) = &b.demo {
            // The demo file's path, title and description (a long description attribute is cut here; the whole of
            // it is in the structured answer).
            heading.push_str(&format!(" · demo file {}", d.path));
            if let Some(t) = &d.title {
                heading.push_str(&format!(" \"{}\"", cut_chars(t, 80)));
            }
            if let Some(text) = &d.description {
                heading.push_str(&format!(" · description \"{}\"", cut_chars(text, 120)));
            }
            if let Some(md) = &d.description_path {
                heading.push_str(&format!(" · described in {md}"));
            }
        }
        let more = self.next_cursor.as_ref().map(|cur| {
            let args = [("component", Arg::Str(self.component.clone())), ("index", Arg::from(b.index))];
            let tool = ("get_code_block", "code-block");
            surface.resume(&self.served, Some(&self.lang), tool, &args, self.part.max_tokens, cur)
        });
        let of = if more.is_some() || self.part.starts_in_block.is_some() {
            format!("{}{} of ", at_most(&self.part), thousands(self.part.tokens))
        } else {
            String::new()
        };
        // An example kept beside the text (a story) has no lines in the document.
        let lines = if b.start_byte == b.end_byte && b.demo.is_some() {
            "beside the document".to_string()
        } else {
            crate::view::line_span(b.start_line, b.end_line)
        };
        format!(
            "[{} · {} · {} · code block {}/{}{info}{heading} · {lines} · {of}{}]\n{}",
            served(&self.served),
            self.component,
            self.lang,
            b.index,
            self.count,
            plural(b.tokens, "token"),
            framed(&self.part, &self.text, more)
        )
    }
}

/// `text` cut to `max` chars, with `…` when cut.
fn cut_chars(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_owned(),
    }
}

impl Render for ChangelogView {
    const MEASURED: bool = true;

    fn content(&self) -> Option<&str> {
        Some(&self.text)
    }

    terse_in_part!();

    fn render(&self, surface: Surface) -> String {
        if self.part.terse {
            return short_text(&self.served, &self.part, &self.text, self.next_cursor.as_deref(), surface, "line");
        }
        let nav = |label: &str, p: Option<u32>| {
            p.map_or(String::new(), |p| {
                let args = [("--page", Arg::from(p))];
                format!(
                    " · {label}: {}",
                    surface.follow(
                        &self.served,
                        Some(&self.lang),
                        ("get_changelog", "changelog"),
                        false,
                        &args,
                        &["--page"]
                    )
                )
            })
        };
        let releases = match self.releases.as_slice() {
            [] => String::new(),
            [one] => format!(" · release {one}"),
            [first, .., last] => format!(" · releases {first} … {last}"),
        };
        // Within a page, the cursor continues it; at its end, the next page is named instead.
        let more = self.part.cut.as_ref().and(self.next_cursor.as_ref()).map(|cur| {
            let args = [("--page", Arg::from(self.page))];
            let tool = ("get_changelog", "changelog");
            surface.resume(&self.served, Some(&self.lang), tool, &args, self.part.max_tokens, cur)
        });
        // The next page is named once the page is whole; a cut page names its continuation instead.
        let next = if more.is_none() { nav("next (older)", self.next) } else { String::new() };
        format!(
            "[{} · changelog · {} · page {}/{} ({} each, {} in all) · lines {}–{}{releases} · {}{}{next}]\n{}",
            served(&self.served),
            self.lang,
            self.page,
            self.pages,
            plural(self.page_lines, "line"),
            thousands(self.total_lines),
            thousands(self.part.lines.0),
            thousands(self.part.lines.1),
            at_most(&self.part),
            plural(self.tokens, "token"),
            framed(&self.part, &self.text, more),
        )
    }
}

impl Render for FilesView {
    const MEASURED: bool = true;

    terse_in_part!();

    fn rows_text(&self) -> Option<String> {
        let width = column(self.files.iter().map(|f| f.path.chars().count()));
        Some(self.files.iter().map(|f| file_row_line(f, width)).collect())
    }

    fn render(&self, surface: Surface) -> String {
        let mut out = format!(
            "[{} · {} · {}]\n",
            served(&self.served),
            self.component,
            plural(u64::from(self.part.rows_total.max(self.files.len() as u32)), "file")
        );
        let width = column(self.files.iter().map(|f| f.path.chars().count()));
        out.push_str(&format!("{:<width$}  {:>6}  {:>7}  {:>9}  NOTES\n", "PATH", "LINES", "TOKENS", "FUNCTIONS"));
        for f in &self.files {
            out.push_str(&file_row_line(f, width));
        }
        if let Some(cur) = &self.part.next_cursor {
            let args = [("component", Arg::Str(self.component.clone()))];
            let tool = ("list_components", "files");
            let call = match self.part.terse {
                true => same_call(surface, cur),
                false => surface.resume(&self.served, None, tool, &args, self.part.max_tokens, cur),
            };
            out.push_str(&list_cut(&self.part, self.files.len(), &call));
        }
        out
    }
}

impl Render for FileView {
    const MEASURED: bool = true;

    fn content(&self) -> Option<&str> {
        Some(&self.text)
    }

    terse_in_part!();

    fn render(&self, surface: Surface) -> String {
        if self.part.terse {
            return short_text(
                &self.served,
                &self.part,
                &self.text,
                self.next_cursor.as_deref(),
                surface,
                if self.skeleton { "skeleton line" } else { "line" },
            );
        }
        let f = &self.file;
        let path = ("path", Arg::Str(f.path.clone()));
        let what = match (&f.skeleton, self.skeleton) {
            (Some(s), true) => format!(
                " · skeleton (source of {}+ lines): {}, {} outer function {} replaced by {{ /* ... */ }}; whole file ({}) with {}",
                self.threshold,
                plural(s.lines, "line"),
                s.outer_bodies,
                if s.outer_bodies == 1 { "body" } else { "bodies" },
                plural(f.tokens, "token"),
                surface.follow(
                    &self.served,
                    None,
                    ("get_file_code", "file"),
                    false,
                    &[path.clone(), ("--full", Arg::On)],
                    &["--full"]
                )
            ),
            _ if f.kind == crate::model::FileKind::Binary => " · binary file, not stored".to_string(),
            _ => String::new(),
        };
        let lines = match self.range {
            // An end past the file is served to the last line, and said (docs/lookups.md: line ranges).
            Some((_, end)) if end != u32::MAX && end > f.lines => format!(
                "lines {}–{} of {} (end line {} is past the end: the range ends at line {})",
                thousands(self.part.lines.0),
                thousands(self.part.lines.1),
                thousands(f.lines),
                thousands(end),
                thousands(f.lines)
            ),
            Some(_) => format!(
                "lines {}–{} of {}",
                thousands(self.part.lines.0),
                thousands(self.part.lines.1),
                thousands(f.lines)
            ),
            // A skeleton's parts count the skeleton's lines (its bodies are folded): said so, never as the file's.
            None => match (&f.skeleton, self.skeleton) {
                (Some(s), true) => {
                    format!("{}{}", served_lines(&self.part, "skeleton lines", s.lines), plural(f.lines, "line"))
                }
                _ => format!("{}{}", served_lines(&self.part, "lines", f.lines), plural(f.lines, "line")),
            },
        };
        let unit = if self.skeleton { "skeleton line" } else { "line" };
        let about = at_most(&self.part);
        let more = self.next_cursor.as_ref().map(|cur| {
            let tool = ("get_file_code", "file");
            surface.resume(&self.served, None, tool, std::slice::from_ref(&path), self.part.max_tokens, cur)
        });
        let mut out = format!(
            "[{} · {} · {lines}{what} · {about}{}]\n{}",
            served(&self.served),
            f.path,
            plural(self.tokens, "token"),
            framed_in(&self.part, &self.text, more, unit)
        );
        if self.skeleton && self.part.offset == 0 && self.functions.is_empty() && self.functions_total > 0 {
            // No room for names under this budget: say so in a few tokens.
            let n = plural(self.functions_total, "function");
            out.push_str(&format!("\n[{n}; a larger {} lists the largest]", surface.name("--max-tokens")));
        } else if self.skeleton && self.part.offset == 0 && self.functions_total > 0 {
            let args = [path, ("function", Arg::Hole("NAME"))];
            let call =
                surface.follow(&self.served, None, ("get_function_code", "function"), true, &args, &["function"]);
            // The largest functions first, as many as the budget left room for (see `FileView::functions`).
            let mut list: Vec<String> = self.functions.iter().map(|f| format!("{} {}", f.name, f.tokens)).collect();
            let left = self.functions_total as usize - self.functions.len();
            if left > 0 {
                list.push(format!("… {left} more with a larger {}", surface.name("--max-tokens")));
            }
            out.push_str(&format!(
                "\n[{}, largest first with tokens; get one with {call}: {}]",
                plural(self.functions_total, "function"),
                list.join(", ")
            ));
        }
        out
    }
}

impl Render for FunctionView {
    const MEASURED: bool = true;

    fn content(&self) -> Option<&str> {
        Some(&self.text)
    }

    terse_in_part!();

    fn render(&self, surface: Surface) -> String {
        if self.part.terse {
            return short_text(&self.served, &self.part, &self.text, self.next_cursor.as_deref(), surface, "line");
        }
        let f = &self.function;
        let more = self.next_cursor.as_ref().map(|cur| {
            let args = [("path", Arg::Str(self.path.clone())), ("function", Arg::Str(f.qualified.clone()))];
            let tool = ("get_function_code", "function");
            surface.resume(&self.served, None, tool, &args, self.part.max_tokens, cur)
        });
        let of = if more.is_some() || self.part.offset > 0 {
            format!("{}{} of ", at_most(&self.part), thousands(self.part.tokens))
        } else {
            String::new()
        };
        format!(
            "[{} · {} · {} ({}) · lines {}–{} · {of}{}]\n{}",
            served(&self.served),
            self.path,
            f.qualified,
            f.kind,
            f.start_line,
            f.end_line,
            plural(f.tokens, "token"),
            framed(&self.part, &self.text, more)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_70000_character_name_is_listed_whole_without_panicking() {
        let long = "n".repeat(70_000);
        let file = crate::model::FileMeta {
            path: long.clone(),
            kind: crate::model::FileKind::Text,
            lines: 1,
            bytes: 1,
            tokens: 1,
            skeleton: None,
            functions: 0,
            parse_errors: 0,
            owner: "x".into(),
        };
        let view = crate::read::FilesView {
            served: Served { system: "s".into(), version: "1".into(), note: None },
            component: "x".into(),
            tokens: 0,
            files: vec![file],
            part: crate::read::ListPart {
                rows_total: 1,
                first_row: 0,
                tokens_exact: true,
                next_cursor: None,
                max_tokens: None,
                terse: false,
            },
        };
        let text = view.render(Surface::Cli);
        assert!(text.contains(&format!("{long}       1        1          0")), "{}", &text[..100]);
        assert_eq!(column([3usize, 70_000].into_iter()), MAX_COLUMN);
        assert_eq!(column([9usize].into_iter()), 9);
    }

    #[test]
    fn a_line_cut_inside_is_not_said_to_be_served() {
        let part = Part {
            lines: (1, 3),
            cut: Some(crate::budget::Rest { tokens: 40, lines: 5 }),
            tokens_exact: true,
            ..Part::default()
        };
        assert_eq!(
            framed(&part, "a\nb\nthe first half of line 3", Some("CALL".into())),
            "a\nb\nthe first half of line 3\n[cut inside line 3: 5 lines and 40 tokens left; continue with CALL]"
        );
        assert_eq!(
            framed(&part, "a\nb\nc\n", Some("CALL".into())),
            "a\nb\nc\n[cut after line 3: 5 lines and 40 tokens left; continue with CALL]"
        );
    }

    #[test]
    fn plurals() {
        assert_eq!(plural(1u32, "code block"), "1 code block");
        assert_eq!(plural(1611u32, "page"), "1,611 pages");
        assert_eq!((plural(1u32, "token"), plural(1u32, "line")), ("1 token".into(), "1 line".into()));
        assert_eq!((tokens_word(1), tokens_word(0)), ("token", "tokens"));
    }

    #[test]
    fn thousands_groups_digits() {
        assert_eq!(thousands(0u32), "0");
        assert_eq!(thousands(999u32), "999");
        assert_eq!(thousands(6374u32), "6,374");
        assert_eq!(thousands(1234567u64), "1,234,567");
    }
}
