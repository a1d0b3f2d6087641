//! A demo Markdown file (Arco's `__demo__/basic.md`, a Vue demo `.md`): YAML front matter (`order`, `title` as a
//! string or one per language), a description per language under `## zh-CN` / `## en-US` headings (or the text
//! before the code when there are none), and one fenced code block, the example's code.

use super::super::markdown;

/// What one demo file holds, for one language.
#[derive(Clone, Debug, PartialEq)]
pub struct Demo {
    /// Front matter `order` (demos without one sort last, then by path).
    pub order: Option<f64>,
    /// The title in the reader's language (else in the first language given).
    pub title: Option<String>,
    /// The description in the reader's language, trimmed; `None` when empty.
    pub description: Option<String>,
    /// The first fenced code block, exactly as written (fence lines included).
    pub fence: String,
}

/// The front matter fields read; unknown fields are ignored.
#[derive(serde::Deserialize, Default)]
struct Front {
    order: Option<serde_yaml_ng::Value>,
    title: Option<serde_yaml_ng::Value>,
}

/// Reads a demo file for `lang`. `Err` says why it holds no example (no fenced code block, bad front matter).
pub fn read(text: &str, lang: &str) -> Result<Demo, String> {
    let (front, body_at) = split_front_matter(text);
    let front: Front = match front {
        Some(yaml) => serde_yaml_ng::from_str(yaml).map_err(|e| format!("front matter is not valid YAML ({e})"))?,
        None => Front::default(),
    };
    let order = front.order.as_ref().and_then(|v| v.as_f64().or_else(|| v.as_str()?.trim().parse().ok()));
    let title = front.title.as_ref().and_then(|t| in_lang(t, lang));
    let body = &text[body_at..];
    let doc = markdown::parse(body);
    let block = doc.code_blocks.first().ok_or("it holds no fenced code block")?;
    let (start, end) = (block.start_byte as usize, block.end_byte as usize);
    let fence = body.get(start..end).ok_or("its code block's span is not in the text")?.to_string();
    let before = &body[..start];
    // The description: the section whose heading is the language (`## en-US`, or `## en` for `en-US`), cut at the
    // code block; without language headings, the text before the code block.
    let langs: Vec<_> = doc.sections.iter().filter(|s| is_lang_tag(&s.title)).collect();
    let description = if langs.is_empty() {
        before.trim()
    } else {
        langs
            .iter()
            .find(|s| lang_matches(&s.title, lang))
            .or_else(|| langs.first())
            .map(|s| {
                let from = body[s.start_byte as usize..].find('\n').map_or(body.len(), |n| s.start_byte as usize + n);
                let to = (s.end_byte as usize).min(start).max(from);
                body[from..to].trim()
            })
            .unwrap_or("")
    };
    let description = description.trim_end_matches("---").trim();
    Ok(Demo { order, title, description: (!description.is_empty()).then(|| description.to_string()), fence })
}

/// The YAML of a leading `---` block and where the body starts; `(None, 0)` without one (or when it is not
/// closed: the whole file is the body).
pub(crate) fn split_front_matter(text: &str) -> (Option<&str>, usize) {
    let Some(rest) = text.strip_prefix("---\n").or_else(|| text.strip_prefix("---\r\n")) else {
        return (None, 0);
    };
    let open = text.len() - rest.len();
    let mut at = 0;
    for line in rest.split_inclusive('\n') {
        if line.trim_end() == "---" {
            return (Some(&rest[..at]), open + at + line.len());
        }
        at += line.len();
    }
    (None, 0)
}

/// A title given as a string, or as a map of languages (`zh-CN: 基本用法`, `en-US: Basic`).
fn in_lang(value: &serde_yaml_ng::Value, lang: &str) -> Option<String> {
    use serde_yaml_ng::Value;
    match value {
        Value::String(s) => Some(s.trim().to_string()),
        Value::Number(n) => Some(n.to_string()),
        Value::Mapping(m) => {
            let text = |v: &Value| v.as_str().map(|s| s.trim().to_string());
            m.iter()
                .find(|(k, _)| k.as_str().is_some_and(|k| lang_matches(k, lang)))
                .and_then(|(_, v)| text(v))
                .or_else(|| m.iter().find_map(|(_, v)| text(v)))
        }
        _ => None,
    }
    .filter(|s| !s.is_empty())
}

/// `en-US`, `zh-CN`, `en`, `zh`: a heading that names a language.
fn is_lang_tag(s: &str) -> bool {
    let s = s.trim();
    let (primary, region) = s.split_once('-').unwrap_or((s, ""));
    primary.len() == 2
        && primary.chars().all(|c| c.is_ascii_lowercase())
        && (region.is_empty() || (region.len() == 2 && region.chars().all(|c| c.is_ascii_uppercase())))
}

/// `tag` names `lang` exactly, or its primary language (`en` for `en-US`).
fn lang_matches(tag: &str, lang: &str) -> bool {
    let tag = tag.trim();
    tag.eq_ignore_ascii_case(lang) || lang.split('-').next().is_some_and(|p| tag.eq_ignore_ascii_case(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    const DEMO: &str = "---\norder: 2\ntitle:\n  zh-CN: 基本用法\n  en-US: Basic\n---\n\n## zh-CN\n\n按钮分为五种。\n\n\
                        ## en-US\n\nThere are five `types`.\n\n```js\nimport { Button } from 'x';\n\nexport default App;\n```\n";

    #[test]
    fn each_language_gets_its_title_and_description_and_the_fence_is_exact() {
        let en = read(DEMO, "en-US").unwrap();
        assert_eq!(en.order, Some(2.0));
        assert_eq!(en.title.as_deref(), Some("Basic"));
        assert_eq!(en.description.as_deref(), Some("There are five `types`."));
        assert_eq!(en.fence, "```js\nimport { Button } from 'x';\n\nexport default App;\n```");
        let zh = read(DEMO, "zh-CN").unwrap();
        assert_eq!(zh.title.as_deref(), Some("基本用法"));
        assert_eq!(zh.description.as_deref(), Some("按钮分为五种。"));
    }

    #[test]
    fn a_demo_without_language_parts_or_front_matter_still_has_its_code() {
        let d = read("Shows it.\n\n```vue\n<template><van-button/></template>\n```\n", "zh-CN").unwrap();
        assert_eq!((d.order, d.title, d.description.as_deref()), (None, None, Some("Shows it.")));
        assert!(d.fence.starts_with("```vue\n"));
        assert!(read("---\ntitle: [\n---\n```js\nx\n```\n", "en-US").unwrap_err().contains("YAML"));
        assert!(read("no code", "en-US").unwrap_err().contains("no fenced code block"));
    }
}
