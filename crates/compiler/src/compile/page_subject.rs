//! What a Markdown page is about when its path does not say (issue 24 item 2).
//!
//! - A page of the components' documents folder whose file name names no export still documents one when its
//!   front matter (`component:`) or title names it, or when it imports, from the design system's package, a
//!   component that has no document of its own and whose key shares the page name's or title's stem (at least
//!   [`MIN_STEM`] letters): Chakra's `radio.mdx` imports `RadioGroup`,
//!   `segmented-control.mdx` imports `SegmentGroup`, `environment-provider.mdx` imports `EnvironmentProvider`,
//!   which the `Environment` folder re-exports ([`Api::part_of`]). The layout decides with [`Subjects::subject`]
//!   and says what it was based on.
//! - A page whose front matter says `changelog: true` is a changelog (Arco's site: `version_v2.en-US.md`), found
//!   by [`changelog_pages`] when no file is named like one.

use std::collections::BTreeMap;
use std::path::Path;

use super::api::Api;
use super::markdown::{Syntax, parse_as};
use super::walk::WalkedFile;
use crate::model::component_key;

/// Pages larger than this are not read for their subject (a documents folder's page is far smaller).
const MAX_PAGE_BYTES: u64 = 1 << 20;

/// The shortest stem a page's name and an imported component must share (`radio` of `radio` / `radiogroup`):
/// shorter ones (`in`, `tab`) match unrelated names.
const MIN_STEM: usize = 4;

/// The exports a page may document, and how to read a page for them.
pub struct Subjects<'a> {
    repo: &'a Path,
    api: &'a Api,
    /// Documentable keys → ids ([`Api::documentable`]).
    pub ids: BTreeMap<String, String>,
}

impl<'a> Subjects<'a> {
    /// The subjects of `api`'s package, reading pages under `repo`.
    pub fn new(repo: &'a Path, api: &'a Api) -> Self {
        let ids = api.documentable().into_iter().map(|(k, e)| (k, e.id.clone())).collect();
        Subjects { repo, api, ids }
    }

    /// The exported key the page `file` (captured name `name`, which names no export) documents, with what that is
    /// based on; `undocumented(key)` says whether a key is still free (a component with a document of its own in
    /// the page's language is never given a second one). `None` when the page names none: it is a guide.
    pub fn subject(
        &self,
        file: &WalkedFile,
        name: &str,
        undocumented: impl Fn(&str) -> bool,
    ) -> Option<(String, String)> {
        if file.bytes > MAX_PAGE_BYTES {
            return None;
        }
        let text = std::fs::read_to_string(self.repo.join(&file.rel)).ok()?;
        let doc = parse_as(&text, Syntax::of_path(&file.rel));
        // The key a name stands for: an export's, or the component whose folder re-exports it.
        let key_of = |n: &str| {
            let k = component_key(n);
            if self.ids.contains_key(&k) { Some(k) } else { self.api.part_of.get(&k).cloned() }
        };
        // What a name says of `key`: itself, or a part its folder re-exports.
        let part = |n: &str, key: &str| match component_key(n) == key {
            true => String::new(),
            false => format!(", a part its `{}` folder re-exports", self.ids.get(key).map_or(key, String::as_str)),
        };
        // Front matter `component: RadioGroup` says it outright; then the title.
        let component = doc.front_matter.iter().find(|(k, _)| k == "component").map(|(_, v)| v);
        if let Some(c) = component
            && let Some(k) = key_of(c).filter(|k| undocumented(k))
        {
            return Some((k.clone(), format!("its front matter names `{c}`{}", part(c, &k))));
        }
        if let Some(title) = &doc.title
            && let Some(k) = key_of(title).filter(|k| undocumented(k))
        {
            return Some((k.clone(), format!("its title `{title}` names it{}", part(title, &k))));
        }
        let stems: Vec<String> =
            std::iter::once(component_key(name)).chain(doc.title.as_deref().map(component_key)).collect();
        let package = self.api.package.name.as_str();
        let mut best: Option<(usize, String, String)> = None;
        // Other imports as close as the best: named in the note, for a person to decide with `component:`.
        let mut tied: Vec<String> = Vec::new();
        for import in imports(&text, &doc) {
            let from_package =
                import.source == package || import.source.strip_prefix(package).is_some_and(|r| r.starts_with('/'));
            if !from_package || import.imported == "*" || import.imported == "default" {
                continue;
            }
            let Some(k) = key_of(&import.imported).filter(|k| undocumented(k)) else { continue };
            let shared = stems.iter().map(|s| common_prefix(s, &k)).max().unwrap_or(0);
            match &best {
                _ if shared < MIN_STEM => {}
                Some(b) if shared == b.0 && k != b.1 && !tied.contains(&import.imported) => {
                    tied.push(import.imported.clone())
                }
                Some(b) if shared <= b.0 => {}
                _ => {
                    best = Some((shared, k, import.imported.clone()));
                    tied.clear();
                }
            }
        }
        best.map(|(_, k, imported)| {
            let mut why = format!("it imports `{imported}` from {package}{}", part(&imported, &k));
            if !tied.is_empty() {
                why.push_str(&format!(
                    " (first of {}, as close: front matter `component: <Name>` decides)",
                    std::iter::once(format!("`{imported}`"))
                        .chain(tied.iter().map(|t| format!("`{t}`")))
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
            (k, why)
        })
    }
}

/// How many leading characters `a` and `b` share.
fn common_prefix(a: &str, b: &str) -> usize {
    a.chars().zip(b.chars()).take_while(|(x, y)| x == y).count()
}

/// The imports of a page: those of its script code blocks, and an MDX page's own `import` lines.
fn imports(text: &str, doc: &super::markdown::Document) -> Vec<crate::usage::Import> {
    let mut out = Vec::new();
    let script = ["tsx", "jsx", "ts", "js", "typescript", "javascript"];
    let mut in_blocks = vec![false; text.split('\n').count() + 1];
    for b in &doc.code_blocks {
        for l in b.start_line..=b.end_line {
            if let Some(x) = in_blocks.get_mut(l as usize) {
                *x = true;
            }
        }
        if !script.contains(&b.lang.as_str()) {
            continue;
        }
        let raw = text.get(b.start_byte as usize..b.end_byte as usize).unwrap_or("");
        // The fence lines themselves are not code.
        let inner: Vec<&str> = raw.split('\n').skip(1).collect();
        let inner = match inner.split_last() {
            Some((last, rest)) if last.trim_start().starts_with(['`', '~']) => rest.join("\n"),
            _ => inner.join("\n"),
        };
        out.extend(crate::usage::read_recovering(&inner).imports);
    }
    let own: Vec<&str> = text
        .split('\n')
        .enumerate()
        .filter(|(i, l)| !in_blocks.get(i + 1).copied().unwrap_or(false) && l.starts_with("import "))
        .map(|(_, l)| l)
        .collect();
    if !own.is_empty() {
        out.extend(crate::usage::read_recovering(&own.join("\n")).imports);
    }
    out
}

/// The pages among `files` whose front matter says `changelog: true` (a site's release-notes page), read from
/// `repo`; Markdown only, at most [`MAX_PAGE_BYTES`] each.
pub fn changelog_pages<'f>(repo: &Path, files: &'f [WalkedFile]) -> Vec<&'f WalkedFile> {
    files
        .iter()
        .filter(|f| f.bytes <= MAX_PAGE_BYTES && f.rel.rsplit_once('.').is_some_and(|(_, e)| matches!(e, "md" | "mdx")))
        .filter(|f| {
            let Ok(text) = std::fs::read_to_string(repo.join(&f.rel)) else { return false };
            super::examples::demo_md::split_front_matter(&text)
                .0
                .and_then(|y| serde_yaml_ng::from_str::<serde_yaml_ng::Mapping>(y).ok())
                .and_then(|m| m.get("changelog").and_then(serde_yaml_ng::Value::as_bool))
                .unwrap_or(false)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A package whose `radio-group` folder is a component and whose `env` folder re-exports a provider from
    /// another package; pages named otherwise than their export.
    #[test]
    fn a_page_documents_the_export_its_title_or_imports_name() {
        let dir = tempfile::tempdir().unwrap();
        let import = |name: &str| format!("# Page\n\n```tsx\nimport {{ {name}, Stack }} from '@x/ui'\n```\n");
        let files = [
            ("package.json", r#"{"name": "@x/ui", "version": "1.0.0", "main": "src/index.ts"}"#.to_string()),
            (
                "src/index.ts",
                "export * from './radio-group'\nexport * from './env'\nexport * from './stack'\n\
                 export * from './stack-item'\nexport * from './stack-group'\n"
                    .into(),
            ),
            ("src/radio-group/index.ts", "export const RadioGroup = () => null\n".into()),
            ("src/stack/index.ts", "export const Stack = () => null\n".into()),
            ("src/env/index.ts", "export { EnvProvider, useEnv } from '@ext/env'\n".into()),
            ("docs/radio.mdx", import("RadioGroup")),
            ("docs/env-provider.mdx", "---\ntitle: Env Provider\n---\n\nWraps the app.\n".into()),
            ("docs/tabs.mdx", import("RadioGroup")),
            ("docs/choice.md", "---\ncomponent: RadioGroup\n---\n\n# Choosing one\n".into()),
            ("docs/stacks.md", "```tsx\nimport { StackItem, StackGroup } from '@x/ui'\n```\n".into()),
            ("src/stack-item/index.ts", "export const StackItem = () => null\n".into()),
            ("src/stack-group/index.ts", "export const StackGroup = () => null\n".into()),
            ("docs/changes.md", "---\nchangelog: true\n---\n\n## 1.0.0\n".into()),
        ];
        let mut walked = Vec::new();
        for (rel, text) in &files {
            let path = dir.path().join(rel);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, text).unwrap();
            walked.push(WalkedFile { rel: rel.to_string(), abs: path, bytes: text.len() as u64 });
        }
        let api = crate::compile::api::read(dir.path(), &walked, None).unwrap();
        assert_eq!(api.part_of.get("envprovider").map(String::as_str), Some("env"));
        let subjects = Subjects::new(dir.path(), &api);
        let page = |rel: &str| walked.iter().find(|f| f.rel == rel).unwrap();
        let free = |_: &str| true;
        assert_eq!(
            subjects.subject(page("docs/radio.mdx"), "radio", free),
            Some(("radiogroup".into(), "it imports `RadioGroup` from @x/ui".into()))
        );
        assert_eq!(
            subjects.subject(page("docs/env-provider.mdx"), "env-provider", free),
            Some(("env".into(), "its title `Env Provider` names it, a part its `env` folder re-exports".into()))
        );
        assert_eq!(
            subjects.subject(page("docs/choice.md"), "choice", free),
            Some(("radiogroup".into(), "its front matter names `RadioGroup`".into()))
        );
        // Two imports as close: the first, and the note names both.
        assert_eq!(
            subjects.subject(page("docs/stacks.md"), "stacks", |k| k != "stack"),
            Some((
                "stackitem".into(),
                "it imports `StackItem` from @x/ui (first of `StackItem`, `StackGroup`, as close: front matter \
                 `component: <Name>` decides)"
                    .into()
            ))
        );
        // No stem shared with the page's name or title: a guide. Nor when the component already has its page.
        assert_eq!(subjects.subject(page("docs/tabs.mdx"), "tabs", free), None);
        assert_eq!(subjects.subject(page("docs/radio.mdx"), "radio", |k| k != "radiogroup"), None);
        let logs: Vec<&str> = changelog_pages(dir.path(), &walked).iter().map(|f| f.rel.as_str()).collect();
        assert_eq!(logs, ["docs/changes.md"]);
    }
}
