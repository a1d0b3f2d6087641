//! `mydesign-docs export --llms-txt DIR` (issue 28 item 4): the served set as files for agents without MCP,
//! following the llms.txt convention: `DIR/llms.txt`, the index (an H1 with the system's name, a blockquote
//! summary, then a `## Components` section of links, most used first: `agents-md`'s ranking and lines), and
//! `DIR/components/<name>.md` per documented component: its import line, the props that matter, one example (the
//! `context` lookup's answer for it alone) and then its document, code blocks inline where the document's own
//! view keeps them, cut on a line to fit. Each file is at most `--max-tokens` tokens in the set's encoding, counted
//! with the compiler's counter (so the command needs the `build` feature, as `agents-md`).
//!
//! Written atomically: into a temporary directory beside `DIR`, fsynced, then renamed into place (a previous
//! export is renamed aside first and removed after), so a reader never sees a half-written file. Deterministic:
//! the same set gives the same bytes.

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use mydesign_docs::budget::Budget;
use mydesign_docs::compile::tokens::TokenCounter;
use mydesign_docs::read::{BundleSet, ComponentRow, Detail, Paging};

use super::agents_md::{Ranked, most_that_fit, ranked, short};

/// The budget of each file in tokens (`--max-tokens`), when the command names none.
pub const DEFAULT_MAX_TOKENS: u32 = 4_000;

/// The share of a component file's budget that its import line, props and example may take (the `context`
/// answer for it); the document fills the rest.
const CONTEXT_SHARE: u32 = 2;

/// What an export wrote.
#[derive(Debug)]
pub struct Exported {
    /// Component files written.
    pub components: usize,
    /// Bytes of every file, `llms.txt` included.
    pub bytes: u64,
    /// The largest file's tokens.
    pub largest: u32,
}

/// Exports `set` in `lang` into `dir` (replaced whole), each file within `max_tokens`.
///
/// # Errors
/// A lookup error of the set, an unknown encoding, a budget too small for the index's links, a `dir` that is
/// neither absent, empty nor a previous export ([`replaceable`]), or a write error.
pub fn llms_txt(set: &BundleSet, lang: Option<&str>, max_tokens: u32, dir: &Path) -> anyhow::Result<Exported> {
    let counter = TokenCounter::new(&set.head().encoding).map_err(anyhow::Error::msg)?;
    let index = ranked(set, lang)?;
    let mut files: Vec<(String, String)> = Vec::new();
    let mut largest = 0;
    for row in &index.rows {
        let name = file_name(&row.name, files.iter().map(|(n, _)| n.as_str()));
        let text = component_file(set, row, &index.lang, max_tokens, &counter)?;
        largest = largest.max(counter.count(&text));
        files.push((name, text));
    }
    let llms = index_file(set, &index, &files, max_tokens, &counter)?;
    largest = largest.max(counter.count(&llms));
    let bytes = llms.len() as u64 + files.iter().map(|(_, t)| t.len() as u64).sum::<u64>();
    replaceable(dir)?;
    publish(dir, &llms, &files).with_context(|| format!("writing {}", dir.display()))?;
    Ok(Exported { components: files.len(), bytes, largest })
}

/// `components/<name>.md` for component `name`: its kebab-case name of letters, digits, `-`, `_` and `.` (others
/// become `-`), `-2`, `-3`… when two names meet.
fn file_name<'a>(name: &str, taken: impl Iterator<Item = &'a str> + Clone) -> String {
    let stem: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') { c.to_ascii_lowercase() } else { '-' })
        .collect();
    let stem = stem.trim_matches(['.', '-']).to_string();
    let stem = if stem.is_empty() { "component".to_string() } else { stem };
    (1..)
        .map(|n| if n == 1 { format!("components/{stem}.md") } else { format!("components/{stem}-{n}.md") })
        .find(|f| taken.clone().all(|t| t != f))
        .unwrap_or_default()
}

/// One component's file: title and summary, the `context` answer for it alone (import line, props, one example)
/// within half the budget, then its document, cut on a line so that the file is within `max_tokens`.
fn component_file(
    set: &BundleSet,
    row: &ComponentRow,
    lang: &str,
    max_tokens: u32,
    counter: &TokenCounter,
) -> anyhow::Result<String> {
    let head = set.head();
    let mut top = format!("# {}\n\n", row.name);
    if let Some(brief) = row.brief.as_deref().map(short).filter(|b| !b.is_empty()) {
        top.push_str(&format!("> {brief}\n\n"));
    }
    top.push_str(&format!("{} {}, exported by mydesign-docs.\n\n", head.system, head.version));
    let share = (max_tokens / CONTEXT_SHARE).max(mydesign_docs::budget::MIN_MAX_TOKENS);
    let paging = Paging { budget: Budget::new(u32::MAX, Some(share))?, cursor: None };
    if let Ok(view) = set.context(std::slice::from_ref(&row.name), Some(lang), paging) {
        // Its own heading is the file's title.
        let body = view.text.split_once('\n').map_or("", |(_, rest)| rest);
        top.push_str(body);
        top.push('\n');
    }
    let doc = set.doc(&row.name, Some(lang), Detail::Normal, &[], Paging::unlimited())?;
    let more = format!("\n[The rest of the document: `mydesign-docs doc {}`.]\n", row.name);
    let whole = format!("{top}## Document\n\n{}", doc.text);
    if counter.count(&whole) <= max_tokens {
        return Ok(whole);
    }
    // The most lines of the document that fit with the note saying where the rest is.
    let lines: Vec<&str> = doc.text.split_inclusive('\n').collect();
    let compose = |kept: usize| format!("{top}## Document\n\n{}{more}", lines[..kept].concat());
    let fits = |kept: usize| counter.count(&compose(kept)) <= max_tokens;
    if !fits(0) {
        bail!(
            "--max-tokens {max_tokens} is too small for {}'s file: its import line, props and example take more",
            row.name
        );
    }
    Ok(compose(most_that_fit(lines.len(), fits)))
}

/// `llms.txt`: the H1, the blockquote summary, how to get more, and one link line per component (most used
/// first, with its one-line description while the budget holds them; every link always).
fn index_file(
    set: &BundleSet,
    index: &Ranked,
    files: &[(String, String)],
    max_tokens: u32,
    counter: &TokenCounter,
) -> anyhow::Result<String> {
    let head = set.head();
    let mut top = format!(
        "# {}\n\n> {} {}: the documentation of its {} components for coding agents, one Markdown file each (import \
         line, the props that matter, one example, then the document; at most {max_tokens} tokens a file).",
        head.system,
        head.system,
        head.version,
        files.len()
    );
    if let Some(from) = &index.import_from {
        top.push_str(&format!(" Import from `{}`.", from.trim_matches(['\'', '"'])));
    }
    top.push_str(
        "\n\nComponents are listed most used first. More than a file holds: `mydesign-docs doc NAME`, \
         `mydesign-docs search \"…\"`, or the MCP server (`mydesign-docs serve`).\n\n## Components\n\n",
    );
    let line = |row: &ComponentRow, file: &str, brief: bool| match row.brief.as_deref().map(short) {
        Some(b) if brief && !b.is_empty() => format!("- [{}]({file}): {b}\n", row.name),
        _ => format!("- [{}]({file})\n", row.name),
    };
    let compose = |briefs: usize| -> String {
        let mut text = top.clone();
        for (i, (row, (file, _))) in index.rows.iter().zip(files).enumerate() {
            text.push_str(&line(row, file, i < briefs));
        }
        text
    };
    let fits = |briefs: usize| counter.count(&compose(briefs)) <= max_tokens;
    if !fits(0) {
        bail!(
            "--max-tokens {max_tokens} is too small for llms.txt: its links to the {} components take {} tokens",
            files.len(),
            counter.count(&compose(0))
        );
    }
    Ok(compose(most_that_fit(files.len(), fits)))
}

/// Whether `dir` may be replaced whole: absent, an empty directory, or a previous export (`llms.txt` and
/// `components/*.md`, nothing else). Anything else is refused, so an export never deletes a person's files or the
/// bundle set it reads (a trial exported into the set's own directory).
///
/// # Errors
/// A `dir` without a name of its own (`.`, `..`, `/`), a file, or a directory holding anything else, naming the
/// first other entry.
fn replaceable(dir: &Path) -> anyhow::Result<()> {
    let named = dir.file_name().is_some_and(|n| n != "." && n != "..");
    if !named {
        bail!("--llms-txt {}: name a directory of its own for the export (it is replaced whole)", dir.display());
    }
    if !dir.exists() {
        return Ok(());
    }
    let entries = |d: &Path| -> anyhow::Result<Vec<(String, bool)>> {
        let mut out = Vec::new();
        for e in std::fs::read_dir(d).with_context(|| format!("--llms-txt {}", d.display()))? {
            let e = e?;
            out.push((e.file_name().to_string_lossy().into_owned(), e.file_type()?.is_dir()));
        }
        Ok(out)
    };
    if !dir.is_dir() {
        bail!("--llms-txt {}: exists and is not a directory; name another path", dir.display());
    }
    let mut other = None;
    for (name, is_dir) in entries(dir)? {
        match (name.as_str(), is_dir) {
            ("llms.txt", false) => {}
            ("components", true) => {
                other = entries(&dir.join("components"))?
                    .into_iter()
                    .find(|(n, d)| *d || !n.ends_with(".md"))
                    .map(|(n, _)| format!("components/{n}"));
            }
            _ => other = Some(name),
        }
        if let Some(name) = other {
            bail!(
                "--llms-txt {}: holds `{name}`, which no export wrote; the export replaces its directory whole, so it \
                 writes only into an absent or empty directory or over a previous export: name another path",
                dir.display()
            );
        }
    }
    Ok(())
}

/// Writes `llms.txt` and `files` into a temporary directory beside `dir`, fsynced, then renames it to `dir` (a
/// previous `dir` renamed aside first, then removed).
fn publish(dir: &Path, llms: &str, files: &[(String, String)]) -> std::io::Result<()> {
    use std::io::Write as _;
    let parent = dir.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    std::fs::create_dir_all(parent)?;
    let name = dir.file_name().map_or_else(|| "export".into(), |n| n.to_string_lossy().into_owned());
    let sibling = |what: &str| -> PathBuf { parent.join(format!(".{name}.{what}-{}", std::process::id())) };
    let tmp = sibling("tmp");
    let _ = std::fs::remove_dir_all(&tmp);
    let write = || -> std::io::Result<()> {
        std::fs::create_dir_all(tmp.join("components"))?;
        for (path, text) in
            std::iter::once(("llms.txt", llms)).chain(files.iter().map(|(p, t)| (p.as_str(), t.as_str())))
        {
            let mut f = std::fs::File::create(tmp.join(path))?;
            f.write_all(text.as_bytes())?;
            f.sync_all()?;
        }
        for d in [tmp.join("components"), tmp.clone()] {
            std::fs::File::open(d)?.sync_all()?;
        }
        Ok(())
    };
    if let Err(e) = write() {
        let _ = std::fs::remove_dir_all(&tmp);
        return Err(e);
    }
    let old = sibling("old");
    let had = dir.exists();
    if had {
        std::fs::rename(dir, &old)?;
    }
    std::fs::rename(&tmp, dir)?;
    if let Ok(d) = std::fs::File::open(parent) {
        let _ = d.sync_all();
    }
    if had {
        std::fs::remove_dir_all(&old)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_are_kebab_and_distinct() {
        let taken = ["components/button.md".to_string()];
        assert_eq!(file_name("Date Picker", std::iter::empty()), "components/date-picker.md");
        assert_eq!(file_name("Button", taken.iter().map(String::as_str)), "components/button-2.md");
        assert_eq!(file_name("../x", std::iter::empty()), "components/x.md");
        assert_eq!(file_name("表格", std::iter::empty()), "components/component.md");
    }
}
