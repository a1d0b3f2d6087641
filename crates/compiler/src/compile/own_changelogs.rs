//! Per-component changelogs found in a repository (issue 24 item 4): a design system may keep one changelog per
//! component beside its sources (Arco's `components/Button/__changelog__/index.en-US.md`, a package per component
//! with its own `CHANGELOG.md`). Detection turns the shapes it finds into `[[changelog]]` rules whose `path`
//! captures `{component}`; the layout gives each component the file its rule matches.

use std::collections::{BTreeMap, BTreeSet};

use super::names::lang_tag;
use super::walk::WalkedFile;
use crate::config::{ChangelogRule, Pattern};
use crate::model::component_key;

/// Whether a path segment names a changelog: `changelog`, `CHANGELOG`, `__changelog__` (underscores trimmed, any
/// case).
fn is_changelog_name(segment: &str) -> bool {
    segment.trim_matches('_').eq_ignore_ascii_case("changelog")
}

/// A Markdown file inside a component's folder (`rel`, relative to that folder) that is its changelog: named
/// `changelog[.<lang>|-<lang>].md`, or any Markdown file in a folder named like a changelog (`__changelog__/
/// index.en-US.md`). Returns its language tag when the name has one (`Some(None)`: untagged).
fn changelog_tag(rel: &str) -> Option<Option<String>> {
    let (dirs, file) = rel.rsplit_once('/').map_or(("", rel), |(d, f)| (d, f));
    let stem = file.strip_suffix(".md").or_else(|| file.strip_suffix(".mdx"))?;
    let (name, tag) = match stem.split_once(['.', '-']) {
        Some((name, tag)) => (name, Some(tag)),
        None => (stem, None),
    };
    if !(is_changelog_name(name) || dirs.split('/').any(is_changelog_name)) {
        return None;
    }
    match tag {
        None => Some(None),
        Some(t) => Some(Some(lang_tag(t)?)),
    }
}

/// The per-component changelog rules of `files`: every shape (the source pattern's folder with `{component}`, then
/// the path inside it) of a changelog file inside the folder of a component in `components` (keys), one rule per
/// shape and language. An untagged file's language is `untagged` (the caller's sample decides it). Sorted by path.
pub fn detect(
    files: &[WalkedFile],
    source_patterns: &[String],
    components: &BTreeSet<String>,
    untagged: &str,
) -> Vec<ChangelogRule> {
    let patterns: Vec<Pattern> = source_patterns.iter().filter_map(|p| Pattern::parse(p).ok()).collect();
    let mut shapes: BTreeMap<(String, String), usize> = BTreeMap::new();
    for f in files {
        let Some((name, dir)) = patterns.iter().find_map(|p| p.capture_with_dir(&f.rel)) else { continue };
        // Only a folder named after the component (`components/Button`), not a file pattern's capture.
        let Some(parent) = dir.strip_suffix(name).filter(|p| p.is_empty() || p.ends_with('/')) else { continue };
        if !components.contains(&component_key(name)) {
            continue;
        }
        let Some(inside) = f.rel.get(dir.len() + 1..) else { continue };
        let Some(tag) = changelog_tag(inside) else { continue };
        let shape = format!("{parent}{{component}}/{inside}");
        let lang = tag.unwrap_or_else(|| untagged.to_string());
        *shapes.entry((shape, lang)).or_default() += 1;
    }
    shapes.into_keys().map(|(path, lang)| ChangelogRule { path, lang }).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn walked(paths: &[&str]) -> Vec<WalkedFile> {
        paths.iter().map(|p| WalkedFile { rel: p.to_string(), abs: std::path::PathBuf::from(p), bytes: 1 }).collect()
    }

    #[test]
    fn a_changelog_folder_or_file_in_a_component_folder_is_a_rule_per_shape_and_language() {
        let files = walked(&[
            "components/Button/__changelog__/index.en-US.md",
            "components/Button/__changelog__/index.zh-CN.md",
            "components/Table/__changelog__/index.en-US.md",
            "components/Table/index.tsx",
            "components/Table/README.md",
            "components/Table/__demo__/changelog.tsx",
            "components/Nope/__changelog__/index.en-US.md",
            "packages/tag/CHANGELOG.md",
            "CHANGELOG.md",
        ]);
        let keys: BTreeSet<String> = ["button", "table", "tag"].into_iter().map(String::from).collect();
        let rules =
            detect(&files, &["components/{component}/**".into(), "packages/{component}/**".into()], &keys, "en-US");
        let got: Vec<(&str, &str)> = rules.iter().map(|r| (r.path.as_str(), r.lang.as_str())).collect();
        assert_eq!(
            got,
            [
                ("components/{component}/__changelog__/index.en-US.md", "en-US"),
                ("components/{component}/__changelog__/index.zh-CN.md", "zh-CN"),
                ("packages/{component}/CHANGELOG.md", "en-US"),
            ]
        );
    }

    #[test]
    fn names_that_are_not_changelogs_or_languages_are_not_taken() {
        assert_eq!(changelog_tag("CHANGELOG.md"), Some(None));
        assert_eq!(changelog_tag("changelog.zh-CN.md"), Some(Some("zh-CN".into())));
        assert_eq!(changelog_tag("__changelog__/index.md"), Some(None));
        assert_eq!(changelog_tag("changelog.tsx"), None);
        assert_eq!(changelog_tag("changelogs-old.md"), None);
        assert_eq!(changelog_tag("docs/changelog.notalang.md"), None);
        assert_eq!(changelog_tag("README.md"), None);
    }
}
