//! `cargo xtask synth --scale N [--out DIR]`: an N× Semi-like input made from the real Semi input
//! (`$MYDESIGN_REAL_CORPUS/semi`, else `target/real-corpus/semi`, assembled on demand), for the scale figures of
//! issue 12 (build time and memory at 10×, lookups flat at 10×).
//!
//! Copy 0 is the input as it is; copies 1..N rename every component: the document folder `content/show/table`
//! becomes `content/show/tableX3` and the source folder `packages/semi-foundation/table` `…/tableX3`, so the
//! component `table` has the siblings `table-x1` … `table-x{N-1}` (the compiler's kebab-case of `tableX3`).
//! Inside a copy the names are rewritten too (`Table` → `TableX3`, `TableFoundation` → `TableX3Foundation`,
//! `'../table/…'` and `semi-table` → `tableX3`), and each changelog bullet naming components is repeated once per
//! copy with the names rewritten. Lowercase names are only rewritten after a path or class-name character
//! (`/ - . ' " \``), so keywords such as `switch` in code stay keywords.
//!
//! So that the search index and zstd see distinct data and not N identical copies, each prose line of a copied
//! document has its sentences rotated by an amount derived from (copy, path, line), and each copied source file
//! starts with a one-line comment naming its copy. Everything is deterministic: sorted directory walks and a fixed
//! hash, so the same N gives the same bytes. The output goes under `target/` (default `target/synth/semi-x{N}`)
//! and is never committed.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};

/// Source folders of the semi preset that are no component (`Config::preset("semi")`'s `not_components`) and the
/// compiler's shared `_portal`: copied once, never renamed.
const NOT_COMPONENTS: [&str; 6] = ["base", "utils", "icons", "keyframes", "scripts", "_portal"];
/// The changelog folder under `content/` (matched by the changelog rule, not a component).
const CHANGELOG_DIR: &str = "content/ecosystem/changelog";

/// Parses `--scale N [--out DIR]` and writes the input; prints where.
pub fn run(args: &[String], root: &Path, semi: PathBuf) -> anyhow::Result<()> {
    let mut scale: Option<usize> = None;
    let mut out: Option<PathBuf> = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--scale" => scale = Some(it.next().context("--scale N")?.parse().context("--scale N: a number")?),
            "--out" => out = Some(PathBuf::from(it.next().context("--out DIR")?)),
            other => bail!("synth: unknown argument `{other}`; usage: cargo xtask synth --scale N [--out DIR]"),
        }
    }
    let scale = scale.context("usage: cargo xtask synth --scale N [--out DIR]")?;
    if scale == 0 {
        bail!("--scale must be at least 1");
    }
    let out = out.unwrap_or_else(|| root.join(format!("target/synth/semi-x{scale}")));
    let n = synth(&semi, &out, scale)?;
    println!("synth: {} components ({scale}× Semi) → {}", n, out.display());
    Ok(())
}

/// Writes the `scale`× input made from `semi` into `out` (replaced); returns the number of components.
pub fn synth(semi: &Path, out: &Path, scale: usize) -> anyhow::Result<usize> {
    if !semi.join("content").is_dir() || !semi.join("packages").is_dir() {
        bail!("{}: not the Semi input (no content/ and packages/)", semi.display());
    }
    let files = walk(semi)?;
    // Components: the documented folders content/<category>/<name>/index.md, keyed by their normalised name
    // (lower case, no `-`), which is how a document and its source folder meet (`colorpicker` ↔ `colorPicker`).
    let mut names: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for f in &files {
        let parts: Vec<&str> = f.split('/').collect();
        if let ["content", _, dir, "index.md"] = parts.as_slice()
            && !f.starts_with(CHANGELOG_DIR)
        {
            names.entry(norm(dir)).or_default().push(dir.to_string());
        }
    }
    for f in &files {
        let parts: Vec<&str> = f.split('/').collect();
        if let ["packages", _, dir, _, ..] = parts.as_slice()
            && let Some(v) = names.get_mut(&norm(dir))
            && !v.iter().any(|x| x == dir)
        {
            v.push(dir.to_string());
        }
    }
    let _ = std::fs::remove_dir_all(out);
    std::fs::create_dir_all(out).with_context(|| format!("create {}", out.display()))?;

    // Every folder-name variant of every component, longest first so `TableColumn` wins over `Table`.
    let mut variants: Vec<&str> = names.values().flatten().map(String::as_str).collect();
    variants.sort_by(|a, b| b.len().cmp(&a.len()).then(a.cmp(b)));
    variants.dedup();

    for f in &files {
        let bytes = std::fs::read(semi.join(f)).with_context(|| format!("read {f}"))?;
        let parts: Vec<&str> = f.split('/').collect();
        let component_dir = match parts.as_slice() {
            ["content", _, dir, _, ..] if !f.starts_with(CHANGELOG_DIR) && names.contains_key(&norm(dir)) => Some(2),
            ["packages", _, dir, _, ..] if !NOT_COMPONENTS.contains(dir) && names.contains_key(&norm(dir)) => Some(2),
            _ => None,
        };
        if f.starts_with(CHANGELOG_DIR) && f.ends_with(".md") {
            let text = String::from_utf8(bytes).with_context(|| format!("{f}: not UTF-8"))?;
            write(out, f, changelog(&text, &variants, scale).as_bytes())?;
            continue;
        }
        write(out, f, &bytes)?;
        let Some(at) = component_dir else { continue };
        let Ok(text) = std::str::from_utf8(&bytes) else { continue };
        for copy in 1..scale {
            let suffix = format!("X{copy}");
            let mut p = parts.clone();
            let renamed = format!("{}{suffix}", parts[at]);
            p[at] = &renamed;
            let path = p.join("/");
            let mut t = rename(text, &variants, &suffix);
            if f.ends_with(".md") {
                t = vary(&t, copy, &path);
            } else if f.ends_with(".ts") || f.ends_with(".tsx") || f.ends_with(".js") || f.ends_with(".scss") {
                t = format!("// synth copy {copy} of {}\n{t}", parts[at]);
            }
            write(out, &path, t.as_bytes())?;
        }
    }
    std::fs::write(out.join(".synth"), format!("{scale}x Semi (cargo xtask synth)\n"))?;
    Ok(names.len() * scale)
}

fn norm(name: &str) -> String {
    name.replace('-', "").to_lowercase()
}

fn write(out: &Path, rel: &str, bytes: &[u8]) -> anyhow::Result<()> {
    let path = out.join(rel);
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(&path, bytes).with_context(|| format!("write {}", path.display()))
}

/// Relative paths of every file under `dir`, sorted (`/`-separated).
fn walk(dir: &Path) -> anyhow::Result<Vec<String>> {
    fn go(base: &Path, dir: &Path, out: &mut Vec<String>) -> anyhow::Result<()> {
        let mut entries: Vec<_> = std::fs::read_dir(dir)?.collect::<Result<_, _>>()?;
        entries.sort_by_key(|e| e.file_name());
        for e in entries {
            let path = e.path();
            if e.file_type()?.is_dir() {
                go(base, &path, out)?;
            } else {
                let rel = path.strip_prefix(base)?.to_string_lossy().replace('\\', "/");
                out.push(rel);
            }
        }
        Ok(())
    }
    let mut out = Vec::new();
    go(dir, dir, &mut out)?;
    out.sort();
    Ok(out)
}

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    c.next().map(|f| f.to_uppercase().chain(c).collect()).unwrap_or_default()
}

/// Rewrites the component names in `text`: a capitalised name (`Table`, `ColorPicker`) not preceded by a letter or
/// digit and not followed by a lower-case letter or digit (so `TableFoundation` → `TableX3Foundation`, `Tables`
/// stays); the folder spelling (`table`, `colorPicker`) only after `/ - . ' " \`` and before a non-alphanumeric.
fn rename(text: &str, variants: &[&str], suffix: &str) -> String {
    let caps: Vec<String> = variants.iter().map(|v| capitalize(v)).collect();
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len() + text.len() / 16);
    let mut i = 0;
    let mut last = 0;
    while i < b.len() {
        let prev = if i == 0 { b' ' } else { b[i - 1] };
        if !prev.is_ascii_alphanumeric() && b[i].is_ascii_alphabetic() {
            let mut hit = None;
            for (v, cap) in variants.iter().zip(&caps) {
                let next = |len: usize| b.get(i + len).copied().unwrap_or(b' ');
                if b[i..].starts_with(cap.as_bytes()) {
                    let n = next(cap.len());
                    if !(n.is_ascii_lowercase() || n.is_ascii_digit()) {
                        hit = Some(cap.len());
                        break;
                    }
                }
                if b"/-.'\"`".contains(&prev)
                    && b[i..].starts_with(v.as_bytes())
                    && !next(v.len()).is_ascii_alphanumeric()
                {
                    hit = Some(v.len());
                    break;
                }
            }
            if let Some(len) = hit {
                out.push_str(&text[last..i + len]);
                out.push_str(suffix);
                i += len;
                last = i;
                continue;
            }
        }
        i += 1;
    }
    out.push_str(&text[last..]);
    out
}

/// FNV-1a: a fixed hash (no per-process seed) for the deterministic variations.
fn fnv(parts: &[&[u8]]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for p in parts {
        for &x in *p {
            h ^= u64::from(x);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        h ^= 0xff;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// Rotates the sentences of each prose line of a document (outside front matter and fences; not headings, tables,
/// lists, quotes, HTML/JSX or imports) by an amount derived from (copy, path, line number).
fn vary(text: &str, copy: usize, path: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut fence: Option<&str> = None;
    let mut front = text.starts_with("---");
    for (n, line) in text.split_inclusive('\n').enumerate() {
        let t = line.trim_start();
        if front {
            if n > 0 && t.starts_with("---") {
                front = false;
            }
            out.push_str(line);
            continue;
        }
        if let Some(f) = fence {
            if t.starts_with(f) {
                fence = None;
            }
            out.push_str(line);
            continue;
        }
        if t.starts_with("```") || t.starts_with("~~~") {
            fence = Some(&t[..3]);
            out.push_str(line);
            continue;
        }
        let prose = !t.is_empty()
            && !["#", "|", "<", ">", "-", "*", "+", "import", "{", "!", "["].iter().any(|p| t.starts_with(p))
            && !t.as_bytes()[0].is_ascii_digit()
            && line.len() == t.len();
        if !prose {
            out.push_str(line);
            continue;
        }
        let (body, eol) = match line.strip_suffix('\n') {
            Some(b) => (b, "\n"),
            None => (line, ""),
        };
        let sentences = split_sentences(body);
        if sentences.len() < 2 {
            out.push_str(line);
            continue;
        }
        let k = (fnv(&[&copy.to_le_bytes(), path.as_bytes(), &n.to_le_bytes()]) % sentences.len() as u64) as usize;
        let k = if k == 0 { 1 } else { k };
        for s in sentences[k..].iter().chain(&sentences[..k]) {
            let s = s.trim();
            out.push_str(s);
            if s.is_ascii() || s.ends_with(['.', '!', '?']) {
                out.push(' ');
            }
        }
        let len = out.trim_end_matches(' ').len();
        out.truncate(len);
        out.push_str(eol);
    }
    out
}

/// Splits a line after `。！？` and after `. ` (the terminator stays with its sentence); backticked spans are
/// never split.
fn split_sentences(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut code = false;
    let mut it = line.char_indices().peekable();
    while let Some((i, c)) = it.next() {
        if c == '`' {
            code = !code;
        }
        if code {
            continue;
        }
        let end = match c {
            '。' | '！' | '？' => Some(i + c.len_utf8()),
            '.' if it.peek().is_some_and(|&(_, n)| n == ' ') => Some(i + 1),
            _ => None,
        };
        if let Some(e) = end {
            if !line[start..e].trim().is_empty() {
                out.push(&line[start..e]);
            }
            start = e;
        }
    }
    if !line[start..].trim().is_empty() {
        out.push(&line[start..]);
    }
    out
}

/// Each list line naming a component is followed by one copy per synthetic copy, with the names rewritten.
fn changelog(text: &str, variants: &[&str], scale: usize) -> String {
    let mut out = String::with_capacity(text.len() * 2);
    for line in text.split_inclusive('\n') {
        out.push_str(line);
        let t = line.trim_start();
        if !(t.starts_with("- ") || t.starts_with("* ")) || t.starts_with("- 【") {
            continue;
        }
        for copy in 1..scale {
            let r = rename(line, variants, &format!("X{copy}"));
            if r == line {
                break;
            }
            out.push_str(&r);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_rewritten_where_they_name_the_component() {
        let v = ["colorPicker", "table", "switch"];
        assert_eq!(
            rename("import Table from '../table/foo'; // TableFoundation Tables semi-table switch (x)", &v, "X3"),
            "import TableX3 from '../tableX3/foo'; // TableX3Foundation Tables semi-tableX3 switch (x)"
        );
        assert_eq!(rename("ColorPicker 颜色 colorPicker", &v, "X2"), "ColorPickerX2 颜色 colorPicker");
    }

    #[test]
    fn sentences_rotate_in_prose_only() {
        let doc = "---\ntitle: A. B. C\n---\nOne. Two. Three.\n```js\nx. y. z\n```\n# H. I. J\n";
        let v = vary(doc, 1, "p");
        assert!(v.starts_with("---\ntitle: A. B. C\n---\n"));
        assert!(v.ends_with("```js\nx. y. z\n```\n# H. I. J\n"));
        let prose = v.lines().nth(3).unwrap();
        assert_ne!(prose, "One. Two. Three.");
        let mut words: Vec<&str> = prose.split(' ').collect();
        words.sort();
        assert_eq!(words, ["One.", "Three.", "Two."]);
        assert_eq!(split_sentences("甲。乙！`a. b` c"), ["甲。", "乙！", "`a. b` c"]);
    }
}
