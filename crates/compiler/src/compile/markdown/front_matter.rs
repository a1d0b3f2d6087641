//! YAML-ish front matter (`---` … `---`): whether a document opens one, and its `key: value` lines.

/// Whether `text`'s first line is a `---` front matter opener (comrak's rule: `---` then only
/// spaces/tabs), so that, when comrak found no front matter, it was never closed.
pub(super) fn opens_front_matter(text: &str) -> bool {
    let first = text.split('\n').next().unwrap_or("");
    first.strip_prefix("---").is_some_and(|rest| rest.trim_end_matches(['\r', ' ', '\t']).is_empty())
}

/// The `key: value` lines of comrak's front matter blob (delimiters included).
pub(super) fn parse_front_matter(raw: &str) -> Vec<(String, String)> {
    let mut fields = Vec::new();
    for line in raw.split('\n').skip(1) {
        let line = line.strip_suffix('\r').unwrap_or(line);
        if line.trim_end() == "---" {
            break;
        }
        if line.is_empty() || line.starts_with([' ', '\t', '#', '-']) {
            continue;
        }
        let (key, value) = match line.split_once(':') {
            Some((key, value)) if value.is_empty() || value.starts_with([' ', '\t']) => (key.trim(), value.trim()),
            _ => continue,
        };
        if key.is_empty() || value.is_empty() || value.starts_with(['|', '>']) {
            continue;
        }
        fields.push((key.to_owned(), unquote(value)));
    }
    fields
}

/// A YAML scalar on one line, unquoted: `"a \"b\""` → `a "b"`, `'it''s'` → `it's`, and
/// `plain # comment` → `plain`.
fn unquote(value: &str) -> String {
    if value.len() >= 2 && value.starts_with('"') && value.ends_with('"') {
        let inner = &value[1..value.len() - 1];
        let mut out = String::with_capacity(inner.len());
        let mut chars = inner.chars();
        while let Some(c) = chars.next() {
            if c != '\\' {
                out.push(c);
                continue;
            }
            match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some(other) => out.push(other),
                None => out.push('\\'),
            }
        }
        out
    } else if value.len() >= 2 && value.starts_with('\'') && value.ends_with('\'') {
        value[1..value.len() - 1].replace("''", "'")
    } else {
        let end = value.find(" #").or_else(|| value.find("\t#"));
        value[..end.unwrap_or(value.len())].trim_end().to_owned()
    }
}
