//! Documents matched to the exported components (issue 24 items 2 and 3): how many of the components the design
//! system exports a set of `[[docs]]` rules documents, per language, which have no document, and how many
//! matched pages name no exported component (guides). Printed by `build` for detected and configured layouts.

use std::collections::{BTreeMap, BTreeSet};

use super::api::Api;
use super::layout::Layout;
pub use super::names::{exported_key, singular};
use crate::model::component_key;

/// What a set of document rules covers of the exported components.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Coverage {
    /// Exported components (display names), sorted by id, with the other exports a document names (hooks).
    pub exported: Vec<String>,
    /// Exported components with a document in any language (keys).
    pub documented: BTreeSet<String>,
    /// Documented exported components per language.
    pub by_lang: BTreeMap<String, usize>,
    /// Exported components with no document (display names).
    pub missing: Vec<String>,
    /// Guide pages: those the `[[docs]]` rules match that name no exported component, then those the
    /// `[[guides]]` rules take.
    pub guides: Vec<String>,
    /// How many of `guides` the `[[docs]]` rules match.
    pub unnamed_guides: usize,
}

impl Coverage {
    /// One line for a person: `69 of 71 exported components documented (en-US 69, zh-CN 69); 2 without a
    /// document: ConfigProvider, Trigger; 14 guide pages`.
    pub fn line(&self) -> String {
        let langs: Vec<String> = self.by_lang.iter().map(|(l, n)| format!("{l} {n}")).collect();
        let mut out = format!(
            "{} of {} exported components documented ({})",
            self.documented.len(),
            self.exported.len(),
            if langs.is_empty() { "none".to_string() } else { langs.join(", ") }
        );
        if !self.missing.is_empty() {
            const SHOWN: usize = 12;
            let more = self.missing.len().saturating_sub(SHOWN);
            let mut names = self.missing.iter().take(SHOWN).cloned().collect::<Vec<_>>().join(", ");
            if more > 0 {
                names.push_str(&format!(" and {more} more"));
            }
            out.push_str(&format!("; {} without a document: {names}", self.missing.len()));
        }
        out.push_str(&format!("; {} guide page{}", self.guides.len(), if self.guides.len() == 1 { "" } else { "s" }));
        out
    }
}

/// The coverage of a classified `layout` (its documents placed by the configuration's rules, see
/// `layout::classify_exported`) over the components `api` exports; `None` when the API lists none (no readable
/// entry). The build counts its components and guides from the same layout, so the numbers agree.
pub fn coverage(layout: &Layout, api: &Api) -> Option<Coverage> {
    if api.components.is_empty() {
        return None;
    }
    // Hooks and other exports count once a document names them (`use-hotkeys.mdx` documents `useHotkeys`).
    let keys = api.documentable();
    let mut per_lang: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (key, plan) in layout.components.iter().filter(|(k, _)| keys.contains_key(*k)) {
        for lang in plan.docs.keys() {
            per_lang.entry(lang.clone()).or_default().insert(key.clone());
        }
    }
    let documented: BTreeSet<String> = per_lang.values().flatten().cloned().collect();
    let missing =
        api.components.iter().filter(|e| !documented.contains(&component_key(&e.id))).map(|e| e.name.clone()).collect();
    let mut exported: Vec<&super::api::Export> = api.components.iter().collect();
    exported.extend(api.others.iter().filter(|e| documented.contains(&component_key(&e.id))));
    exported.sort_by(|a, b| a.id.cmp(&b.id));
    Some(Coverage {
        exported: exported.iter().map(|e| e.name.clone()).collect(),
        by_lang: per_lang.iter().map(|(l, k)| (l.clone(), k.len())).collect(),
        documented,
        missing,
        guides: layout.guides.iter().map(|(_, _, f)| f.rel.clone()).collect(),
        unnamed_guides: layout.unnamed_guides,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plural_file_names_match_their_component() {
        let keys: BTreeSet<String> = ["button", "checkbox", "menu", "progress"].map(String::from).into();
        assert_eq!(exported_key("buttons", &keys).as_deref(), Some("button"));
        assert_eq!(exported_key("Checkboxes", &keys).as_deref(), Some("checkbox"));
        assert_eq!(exported_key("menus", &keys).as_deref(), Some("menu"));
        assert_eq!(exported_key("progress", &keys).as_deref(), Some("progress"));
        assert_eq!(exported_key("colors", &keys), None);
    }
}
