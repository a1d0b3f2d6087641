//! `mydesign-docs agents-md` (issue 28 item 4): a passive index of a design system for an agent's standing
//! instructions (`AGENTS.md`, `CLAUDE.md`, `.cursor/rules/…`), within an exact token budget.
//!
//! Why: an index in the instructions is read on every task, where a tool must first be chosen; published
//! evaluations found the index beats on-demand lookups. The section is plain Markdown between two markers that
//! name the system, so a rewrite replaces only that section and several systems can share one file:
//!
//! ```text
//! <!-- mydesign-docs:begin semi -->
//! ## semi 2.90.10: design-system docs for agents
//! …how to ask, the import line, one line per component…
//! <!-- mydesign-docs:end semi -->
//! ```
//!
//! Components are ranked by use (how many other components' documents write them as a JSX element), so that when
//! the budget is short the most used keep their line; every component is still named, on one `Also:` line. Token
//! counts are the set's own encoding (`o200k_base` unless configured), counted with the compiler's counter: the
//! command needs the `build` feature.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{Context, bail};
use mydesign_docs::compile::tokens::TokenCounter;
use mydesign_docs::read::{BundleSet, ComponentRow, Detail, Paging};

/// The section's default budget in tokens (issue 28: 2,000 for a whole design system).
pub const DEFAULT_MAX_TOKENS: u32 = 2_000;

/// Characters of a component's one-line description kept on its line (cut on a word, with `…`).
const BRIEF_CHARS: usize = 90;

/// The marker lines of `system`'s section.
fn markers(system: &str) -> (String, String) {
    (format!("<!-- mydesign-docs:begin {system} -->"), format!("<!-- mydesign-docs:end {system} -->"))
}

/// `brief` cut to [`BRIEF_CHARS`] on a word boundary, one line.
pub fn short(brief: &str) -> String {
    let line = brief.split_whitespace().collect::<Vec<_>>().join(" ");
    if line.chars().count() <= BRIEF_CHARS {
        return line;
    }
    let cut: String = line.chars().take(BRIEF_CHARS).collect();
    let cut = cut.rsplit_once(' ').map_or(cut.as_str(), |(head, _)| head);
    format!("{}…", cut.trim_end_matches([',', ';', ':', '.']))
}

/// How many documents of other components write `title` as a JSX element (`<Title`, `<Title.Item`): the use
/// count the ranking sorts by.
fn uses(documents: &BTreeMap<String, String>, name: &str, title: &str) -> usize {
    let tag = format!("<{title}");
    documents
        .iter()
        .filter(|(other, text)| {
            *other != name
                && text.match_indices(&tag).any(|(at, _)| {
                    let next = text[at + tag.len()..].chars().next();
                    matches!(next, Some(' ' | '>' | '/' | '.' | '\n'))
                })
        })
        .count()
}

/// A set's documented components ranked by use, most used first (ties by name), with what the index says of
/// them: the package most import lines name, in the language read.
pub struct Ranked {
    /// The components, most used first.
    pub rows: Vec<ComponentRow>,
    /// The package most documents import the components from (`@douyinfe/semi-ui`), when they have import lines.
    pub import_from: Option<String>,
    /// The language read.
    pub lang: String,
}

/// [`Ranked`] for `set` in `lang` (else the set's default language).
///
/// # Errors
/// A lookup error of the set, or a set with no documented component.
pub fn ranked(set: &BundleSet, lang: Option<&str>) -> anyhow::Result<Ranked> {
    let head = set.head();
    let list = set.components(lang)?;
    let rows: Vec<&ComponentRow> = list.components.iter().filter(|r| r.tokens > 0).collect();
    if rows.is_empty() {
        bail!("{} {} has no documented component to index", head.system, head.version);
    }
    // Each documented component's document, whole: the use counts and the import line come from them.
    let mut documents = BTreeMap::new();
    let mut imports: BTreeMap<String, usize> = BTreeMap::new();
    for row in &rows {
        let doc = set.doc(&row.name, Some(&list.lang), Detail::Full, &[], Paging::unlimited())?;
        documents.insert(row.name.clone(), doc.text);
        if let Ok(card) = set.card(&row.name, Some(&list.lang), Paging::unlimited())
            && let Some(import) = card.import
        {
            // The package part of the line (`from '…'`): the most common one is the system's import.
            if let Some((_, from)) = import.rsplit_once(" from ") {
                *imports.entry(from.trim().trim_end_matches(';').to_string()).or_default() += 1;
            }
        }
    }
    let mut ranked: Vec<(usize, &ComponentRow)> =
        rows.iter().map(|r| (uses(&documents, &r.name, r.title.as_deref().unwrap_or(&r.name)), *r)).collect();
    ranked.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.name.cmp(&b.1.name)));
    let import_from =
        imports.iter().max_by(|a, b| a.1.cmp(b.1).then_with(|| b.0.cmp(a.0))).map(|(from, _)| from.clone());
    Ok(Ranked { rows: ranked.into_iter().map(|(_, r)| r.clone()).collect(), import_from, lang: list.lang.clone() })
}

/// The section for `set` (markers included, ending with a newline), at most `max_tokens` tokens in the set's
/// encoding, in language `lang` (else the set's default). Every component is named, or, when the budget is too
/// small for every name, as many as fit (most used first) and the count of the rest with the call that lists them.
///
/// # Errors
/// A lookup error of the set (damaged bundle, unknown language), an unknown encoding, or a budget too small for
/// the header, the markers and the call that lists the components (the message states the least that works).
pub fn section(set: &BundleSet, lang: Option<&str>, max_tokens: u32) -> anyhow::Result<String> {
    let head = set.head();
    let counter = TokenCounter::new(&head.encoding).map_err(anyhow::Error::msg)?;
    let Ranked { rows: ranked, import_from, .. } = ranked(set, lang)?;
    let system = &head.system;
    let (begin, end) = markers(system);
    let mut top = vec![
        begin,
        format!("## {system} {}: design-system docs for agents", head.version),
        String::new(),
        format!(
            "Before writing UI code with {system}, look its components up instead of guessing props: MCP \
             `component_details(component=\"NAME\", detail=\"brief\")` then `sections=[…]`, `search_docs(query=\"…\")`; \
             shell `mydesign-docs doc NAME --detail brief`, `mydesign-docs search \"…\"`."
        ),
    ];
    if let Some(from) = &import_from {
        top.push(format!("Import from {from}."));
    }
    top.push(String::new());
    top.push("Components, most used first (name: what it is for; tokens of its document):".to_string());
    let lines: Vec<String> = ranked
        .iter()
        .map(|r| match r.brief.as_deref().map(short).filter(|b| !b.is_empty()) {
            Some(brief) => format!("- {}: {brief} ({})", r.name, r.tokens),
            None => format!("- {} ({})", r.name, r.tokens),
        })
        .collect();
    // The names after the lines kept, `named` of them written and the rest counted with the call that lists them
    // (a budget too small for every name: Semi's 101 names take ~400 tokens).
    let also = |from: usize, named: usize| -> String {
        let names: Vec<&str> = ranked[from..].iter().map(|r| r.name.as_str()).collect();
        let more = names.len().saturating_sub(named);
        match (names.len(), more) {
            (0, _) => String::new(),
            (_, 0) => format!("Also: {}.\n", names.join(", ")),
            (n, _) if more == n => {
                format!("Also {n} more components: `mydesign-docs components` (MCP `list_components`) lists them.\n")
            }
            _ => format!(
                "Also: {}, and {more} more (`mydesign-docs components`, MCP `list_components`).\n",
                names[..named].join(", ")
            ),
        }
    };
    let compose = |kept: usize, named: usize| -> String {
        let mut text = top.join("\n");
        text.push('\n');
        for line in &lines[..kept] {
            text.push_str(line);
            text.push('\n');
        }
        text.push_str(&also(kept, named));
        text.push_str(&end);
        text.push('\n');
        text
    };
    // The most lines that fit: counts are not additive across lines in general, so each candidate is counted
    // whole (a binary search: the count grows with the lines kept).
    let all = lines.len();
    let fits = |kept: usize, named: usize| counter.count(&compose(kept, named)) <= max_tokens;
    if fits(0, all) {
        return Ok(compose(most_that_fit(all, |kept| fits(kept, all)), all));
    }
    // Not every name fits: no line, as many names as fit, the rest counted with the call that lists them.
    if !fits(0, 0) {
        bail!(
            "--max-tokens {max_tokens} is too small for the index of {system} {}: its header, how to ask and the \
             call that lists its {all} components take {} tokens (the least budget that works)",
            head.version,
            counter.count(&compose(0, 0))
        );
    }
    Ok(compose(0, most_that_fit(all, |named| fits(0, named))))
}

/// The most of `n` items (a prefix) for which `fits` holds, given that it holds for none and that it holds for
/// fewer whenever it holds for more (a binary search: counts are not additive across lines in general, so each
/// candidate is counted whole).
pub fn most_that_fit(n: usize, fits: impl Fn(usize) -> bool) -> usize {
    let (mut low, mut high) = (0, n);
    while low < high {
        let mid = (low + high).div_ceil(2);
        if fits(mid) { low = mid } else { high = mid - 1 }
    }
    low
}

/// `text` with `system`'s section replaced by `section`, or `section` appended (after a blank line) when `text`
/// has none. Errors: a begin marker without its end marker (the file was edited by hand: nothing is rewritten).
pub fn merge(text: &str, system: &str, section: &str) -> anyhow::Result<String> {
    let (begin, end) = markers(system);
    match (text.find(&begin), text.find(&end)) {
        (Some(start), Some(stop)) if stop > start => {
            let mut after = stop + end.len();
            if text[after..].starts_with('\n') {
                after += 1;
            }
            Ok(format!("{}{section}{}", &text[..start], &text[after..]))
        }
        (None, None) if text.is_empty() => Ok(section.to_string()),
        (None, None) => {
            let sep = if text.ends_with("\n\n") {
                ""
            } else if text.ends_with('\n') {
                "\n"
            } else {
                "\n\n"
            };
            Ok(format!("{text}{sep}{section}"))
        }
        _ => bail!("the markers of {system}'s section are not a pair (`{begin}` … `{end}`): not rewritten"),
    }
}

/// Writes `section` into `file` (created if absent), replacing only `system`'s section; atomically (the store's
/// `write_atomically`), so a reader never sees a half-written file. Returns whether the file changed.
pub fn write(file: &Path, system: &str, section: &str) -> anyhow::Result<bool> {
    let old = match std::fs::read_to_string(file) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(e).with_context(|| format!("reading {}", file.display())),
    };
    let new = merge(&old, system, section).with_context(|| file.display().to_string())?;
    if new == old {
        return Ok(false);
    }
    mydesign_docs::bundle::writer::write_atomically(file, new.as_bytes())
        .with_context(|| format!("writing {}", file.display()))?;
    Ok(true)
}

/// The 1-based lines of `text` holding a marker that names no system (`<!-- mydesign-docs:begin -->`, the same for
/// `end`): no section is that, so `write` leaves it in place, and the writer is told (a new user's hand-made
/// placeholder, or a marker whose name was deleted).
pub fn bare_markers(text: &str) -> Vec<usize> {
    let bare = |l: &str| {
        let l = l.trim();
        ["begin", "end"].iter().any(|w| {
            l.strip_prefix("<!--")
                .and_then(|r| r.trim_start().strip_prefix("mydesign-docs:"))
                .and_then(|r| r.strip_prefix(w))
                .and_then(|r| r.trim_start().strip_suffix("-->"))
                .is_some_and(|r| r.trim().is_empty())
        })
    };
    text.lines().enumerate().filter(|(_, l)| bare(l)).map(|(i, _)| i + 1).collect()
}

/// Whether `file` holds exactly `section` as `system`'s section: `Err` with the reason when it does not (absent
/// file, no section, another version or build).
pub fn check(file: &Path, system: &str, section: &str) -> Result<(), String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
    let (begin, end) = markers(system);
    let (Some(start), Some(stop)) = (text.find(&begin), text.find(&end)) else {
        return Err(format!("{} has no {system} section (write it with `agents-md --write`)", file.display()));
    };
    let found = &text[start..(stop + end.len()).min(text.len())];
    if found.trim_end() == section.trim_end() {
        Ok(())
    } else {
        let first = |s: &str| s.lines().nth(1).unwrap_or("").to_string();
        Err(format!(
            "{}: the {system} section is stale (it says `{}`; the served set gives `{}`): rewrite it with \
             `agents-md --write`",
            file.display(),
            first(found),
            first(section)
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merge_replaces_only_its_section_and_appends_when_absent() {
        let section = "<!-- mydesign-docs:begin s -->\nnew\n<!-- mydesign-docs:end s -->\n";
        let text = "# Notes\n\n<!-- mydesign-docs:begin s -->\nold\n<!-- mydesign-docs:end s -->\nafter\n";
        assert_eq!(merge(text, "s", section).unwrap(), format!("# Notes\n\n{section}after\n"));
        assert_eq!(merge("# Notes", "s", section).unwrap(), format!("# Notes\n\n{section}"));
        assert_eq!(merge("", "s", section).unwrap(), section);
        assert!(merge("<!-- mydesign-docs:begin s -->\n", "s", section).is_err());
        let bare = "x\n<!-- mydesign-docs:begin -->\n  <!--mydesign-docs:end  -->\n<!-- mydesign-docs:begin s -->\n";
        assert_eq!(bare_markers(bare), [2, 3]);
        // Another system's section is left alone.
        let other = "<!-- mydesign-docs:begin t -->\nt\n<!-- mydesign-docs:end t -->\n";
        assert_eq!(merge(other, "s", section).unwrap(), format!("{other}\n{section}"));
    }

    #[test]
    fn briefs_are_cut_on_a_word() {
        assert_eq!(short("A  short\nline."), "A short line.");
        let long = "word ".repeat(40);
        let cut = short(&long);
        assert!(cut.ends_with("word…") && cut.chars().count() <= BRIEF_CHARS + 1, "{cut}");
    }

    #[test]
    fn uses_count_other_documents_writing_the_element() {
        let docs: BTreeMap<String, String> = [
            ("form".to_string(), "<Form>\n  <Button type=\"submit\" />\n</Form>".to_string()),
            ("modal".to_string(), "<Modal footer={<Button>OK</Button>} /> <ButtonGroup />".to_string()),
            ("button".to_string(), "<Button>".to_string()),
        ]
        .into();
        assert_eq!(uses(&docs, "button", "Button"), 2);
        assert_eq!(uses(&docs, "form", "Form"), 0);
    }
}
