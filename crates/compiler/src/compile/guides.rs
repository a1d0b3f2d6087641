//! Guides (issue 24 item 2): pages that document no component (a site's guide, blog, migration, theming or
//! chart pages) are built as components flagged `guide`: `doc` and `search` read them like any document,
//! `components --guides` lists them apart, and the component list never shows them. A page is a guide when a
//! `[[docs]]` rule matches it but it names no exported component, or when a `[[guides]]` rule takes it
//! ([`super::guide_rules`]).

use std::collections::{BTreeMap, BTreeSet};

use super::layout::{ComponentPlan, Layout};
use super::names::kebab_case;
use crate::model::component_key;

/// Moves `layout.guides` into `layout.components` as guide plans (no source files). A guide is named by its
/// captured name (`typography`); one whose key is a component's, or another guide's in another folder, is named
/// with its parent folder too (`docs-index`, then the whole path), so no page is dropped or merged with another.
/// The same name in two languages of one folder (`guide.md`, `guide.zh-CN.md`) is one guide with two documents.
pub fn plan(layout: &mut Layout) -> usize {
    let guides = std::mem::take(&mut layout.guides);
    // Folder of each guide name in use, so that a page of another folder takes a longer name.
    let mut folder_of: BTreeMap<String, String> = BTreeMap::new();
    let taken: BTreeSet<String> = layout.components.keys().cloned().collect();
    let mut count = 0;
    for (lang, name, f) in guides {
        let folder = f.rel.rsplit_once('/').map_or("", |(d, _)| d).to_string();
        let candidates = [
            kebab_case(&name),
            kebab_case(&format!("{}-{name}", folder.rsplit('/').next().unwrap_or(""))),
            kebab_case(&f.rel.rsplit_once('.').map_or(f.rel.as_str(), |(p, _)| p).replace('/', "-")),
        ];
        let free = |id: &str| {
            let key = component_key(id);
            !key.is_empty()
                && !taken.contains(&key)
                && folder_of.get(&key).is_none_or(|d| *d == folder)
                && layout.components.get(&key).is_none_or(|p| p.guide && !p.docs.contains_key(&lang))
        };
        let Some(id) = candidates.iter().find(|c| free(c)) else { continue };
        let key = component_key(id);
        folder_of.insert(key.clone(), folder);
        let plan = layout.components.entry(key).or_insert_with(|| ComponentPlan {
            name: id.clone(),
            guide: true,
            ..ComponentPlan::default()
        });
        if plan.docs.is_empty() {
            count += 1;
        }
        plan.docs.insert(lang, f);
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compile::walk::WalkedFile;

    fn file(rel: &str) -> WalkedFile {
        WalkedFile { rel: rel.into(), abs: rel.into(), bytes: 1 }
    }

    #[test]
    fn guides_are_plans_named_apart_from_components_and_each_other() {
        let mut layout = Layout::default();
        layout.components.insert("button".into(), ComponentPlan { name: "button".into(), ..ComponentPlan::default() });
        for (lang, name, rel) in [
            ("en-US", "index", "docs/index.md"),
            ("zh-CN", "index", "docs/index.zh-CN.md"),
            ("en-US", "index", "blog/index.md"),
            ("en-US", "button", "blog/button.md"),
            ("en-US", "Theming", "docs/Theming.md"),
        ] {
            layout.guides.push((lang.into(), name.into(), file(rel)));
        }
        assert_eq!(plan(&mut layout), 4);
        let guides: Vec<(&str, Vec<&str>)> = layout
            .components
            .values()
            .filter(|p| p.guide)
            .map(|p| (p.name.as_str(), p.docs.values().map(|f| f.rel.as_str()).collect()))
            .collect();
        assert_eq!(
            guides,
            [
                ("blog-button", vec!["blog/button.md"]),
                ("blog-index", vec!["blog/index.md"]),
                ("index", vec!["docs/index.md", "docs/index.zh-CN.md"]),
                ("theming", vec!["docs/Theming.md"]),
            ]
        );
        assert!(layout.guides.is_empty() && !layout.components["button"].guide);
    }
}
