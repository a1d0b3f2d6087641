//! Classifies walked files by the layout configuration: which are changelogs, which are documents (of which
//! component and language), and which files each component lists. Pure data in, data out: no I/O.

use std::collections::{BTreeMap, BTreeSet};

use super::Diagnostic;
use super::walk::WalkedFile;
use crate::config::{Config, Pattern};
use crate::model::component_key;

/// Directory names that are build output or shared code, never components, whatever the configuration says.
const NEVER_COMPONENTS: [&str; 4] = ["lib", "es", "dist", "cjs"];

/// What the repository holds, by component.
#[derive(Debug, Default)]
pub struct Layout {
    /// Components by key.
    pub components: BTreeMap<String, ComponentPlan>,
    /// Changelog files by language.
    pub changelogs: Vec<(String, WalkedFile)>,
    /// Files of shared folders that are not components (`_utils`, Semi's `base`): served by path, listed under
    /// the pseudo-component [`SHARED`], never in the component list.
    pub shared: Vec<WalkedFile>,
}

/// Key of the pseudo-component that holds shared, non-component source folders.
pub const SHARED: &str = "_shared";

/// One component's inputs.
#[derive(Debug, Default)]
pub struct ComponentPlan {
    /// Display name: the first document's captured name, else the first source directory's.
    pub name: String,
    /// Documents by language (one per language).
    pub docs: BTreeMap<String, WalkedFile>,
    /// Files listed for the component, sorted by path.
    pub files: Vec<WalkedFile>,
}

/// Whether a captured name may be a component: not a file (`index.d.ts`), not `_shared` or hidden, not a build
/// folder, not excluded by the configuration.
fn is_component_name(name: &str, config: &Config) -> bool {
    !(name.starts_with('_')
        || name.contains('.')
        || NEVER_COMPONENTS.contains(&name)
        || config.sources.not_components.iter().any(|n| component_key(n) == component_key(name)))
}

/// `DatePicker` → `date-picker`: source folders' PascalCase as the kebab-case documents use.
fn kebab_case(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    for (i, c) in name.chars().enumerate() {
        if c.is_uppercase() && i > 0 && !out.ends_with('-') {
            out.push('-');
        }
        out.extend(c.to_lowercase());
    }
    out.replace('_', "-")
}

/// Sorts `files` into a [`Layout`]. Patterns were validated with the config.
pub fn classify(files: &[WalkedFile], config: &Config) -> (Layout, Vec<Diagnostic>) {
    let mut layout = Layout::default();
    let mut diags = Vec::new();
    let langs: Option<&Vec<String>> = config.system.langs.as_ref();
    let wanted = |lang: &str| langs.is_none_or(|l| l.iter().any(|x| x == lang));
    let doc_patterns: Vec<(Pattern, &str)> =
        config.docs.iter().filter_map(|d| Some((Pattern::parse(&d.pattern).ok()?, d.lang.as_str()))).collect();
    let source_patterns: Vec<Pattern> = config.sources.patterns.iter().filter_map(|p| Pattern::parse(p).ok()).collect();

    // Pass 1: changelogs and documents.
    let mut is_doc = BTreeSet::new();
    let mut doc_dirs: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in files {
        if let Some(rule) = config.changelog.iter().find(|c| c.path == f.rel) {
            if wanted(&rule.lang) {
                layout.changelogs.push((rule.lang.clone(), f.clone()));
            }
            is_doc.insert(f.rel.clone());
            continue;
        }
        let Some((name, lang)) = doc_patterns.iter().find_map(|(p, lang)| Some((p.capture(&f.rel)?, *lang))) else {
            continue;
        };
        is_doc.insert(f.rel.clone());
        if !wanted(lang) || !is_component_name(name, config) {
            continue;
        }
        let key = component_key(name);
        let plan = layout.components.entry(key.clone()).or_default();
        if plan.name.is_empty() {
            plan.name = name.to_string();
        }
        if let Some(first) = plan.docs.get(lang) {
            diags.push(Diagnostic::new(
                f.rel.clone(),
                "layout",
                format!("a second {lang} document for component `{key}`; keeping {}", first.rel),
            ));
            continue;
        }
        plan.docs.insert(lang.to_string(), f.clone());
        let dir = f.rel.rsplit_once('/').map_or("", |(d, _)| d).to_string();
        doc_dirs.entry(dir).or_default().insert(key);
    }

    // Pass 2: every other file matched by a source pattern.
    for f in files.iter().filter(|f| !is_doc.contains(&f.rel)) {
        let Some((name, dir)) = source_patterns.iter().find_map(|p| p.capture_with_dir(&f.rel)) else {
            continue;
        };
        let beside: Option<&BTreeSet<String>> = if config.sources.beside_docs { doc_dirs.get(dir) } else { None };
        match beside {
            Some(keys) => {
                for key in keys {
                    layout.components.entry(key.clone()).or_default().files.push(f.clone());
                }
            }
            None if is_component_name(name, config) => {
                let plan = layout.components.entry(component_key(name)).or_default();
                if plan.name.is_empty() {
                    plan.name = kebab_case(name);
                }
                plan.files.push(f.clone());
            }
            None if !NEVER_COMPONENTS.contains(&name) => layout.shared.push(f.clone()),
            None => {}
        }
    }
    // Rules that match nothing: a warning when nothing of the kind was found at all, else a note (a repository may
    // document fewer languages than the preset knows).
    let missing: Vec<&str> = config
        .changelog
        .iter()
        .filter(|r| wanted(&r.lang) && !files.iter().any(|f| f.rel == r.path))
        .map(|r| r.path.as_str())
        .collect();
    if !missing.is_empty() && layout.changelogs.is_empty() {
        diags.push(Diagnostic::new(missing.join(", "), "layout", "no changelog found at these paths"));
    } else {
        for path in missing {
            diags.push(Diagnostic::note(path, "layout", "no changelog at this path"));
        }
    }
    let any_doc = layout.components.values().any(|p| !p.docs.is_empty());
    for (pattern, lang) in &doc_patterns {
        if wanted(lang) && !files.iter().any(|f| pattern.capture(&f.rel).is_some()) {
            let rule = config.docs.iter().find(|d| d.lang == *lang).map_or("", |d| d.pattern.as_str());
            let message = format!("no {lang} document matches this pattern");
            diags.push(if any_doc {
                Diagnostic::note(rule, "layout", message)
            } else {
                Diagnostic::new(rule, "layout", message)
            });
        }
    }
    for plan in layout.components.values() {
        let key = &plan.name;
        if plan.docs.is_empty() {
            diags.push(Diagnostic::note(
                key.clone(),
                "layout",
                format!("component `{key}` has sources but no document"),
            ));
        } else if plan.files.is_empty() && !source_patterns.is_empty() {
            diags.push(Diagnostic::note(
                key.clone(),
                "layout",
                format!("component `{key}` has documents but no sources"),
            ));
        }
    }
    (layout, diags)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn walked(paths: &[&str]) -> Vec<WalkedFile> {
        paths.iter().map(|p| WalkedFile { rel: p.to_string(), abs: p.into(), bytes: 1 }).collect()
    }

    fn summary(layout: &Layout) -> Vec<(String, Vec<String>, Vec<String>)> {
        layout
            .components
            .iter()
            .map(|(k, p)| {
                let docs = p.docs.iter().map(|(l, f)| format!("{l}:{}", f.rel)).collect();
                (k.clone(), docs, p.files.iter().map(|f| f.rel.clone()).collect())
            })
            .collect()
    }

    #[test]
    fn default_layout_matches_docs_to_sources_across_spellings() {
        let files = walked(&[
            "CHANGELOG.md",
            "docs/date-picker/index.md",
            "docs/date-picker/index.zh-CN.md",
            "docs/empty/index.md",
            "src/components/DatePicker/DatePicker.tsx",
            "src/components/Spin/Spin.tsx",
            "src/components/_utils/dom.ts",
            "src/index.ts",
        ]);
        let (layout, diags) = classify(&files, &Config::default());
        assert_eq!(layout.changelogs.len(), 1);
        assert_eq!(
            summary(&layout),
            [
                (
                    "datepicker".into(),
                    vec!["en-US:docs/date-picker/index.md".into(), "zh-CN:docs/date-picker/index.zh-CN.md".into()],
                    vec!["src/components/DatePicker/DatePicker.tsx".into()]
                ),
                ("empty".into(), vec!["en-US:docs/empty/index.md".into()], vec![]),
                ("spin".into(), vec![], vec!["src/components/Spin/Spin.tsx".into()]),
            ]
        );
        assert_eq!(layout.components["datepicker"].name, "date-picker");
        assert_eq!(layout.components["spin"].name, "spin");
        assert_eq!(layout.shared.iter().map(|f| f.rel.as_str()).collect::<Vec<_>>(), ["src/components/_utils/dom.ts"]);
        let messages: Vec<_> = diags.iter().map(|d| (d.message.as_str(), d.note)).collect();
        assert_eq!(
            messages,
            [
                ("no changelog at this path", true),
                ("component `empty` has documents but no sources", true),
                ("component `spin` has sources but no document", true)
            ]
        );
        // Nothing of a kind at all is a warning.
        let (_, diags) = classify(&walked(&["docs/a/index.md"]), &Config::default());
        assert_eq!(diags[0].to_string(), "layout: CHANGELOG.md, CHANGELOG.zh-CN.md: no changelog found at these paths");
        assert!(!diags[0].note);
    }

    #[test]
    fn blueprint_layout_shares_a_directory_between_its_documents() {
        let files = walked(&[
            "src/components/forms/checkbox.mdx",
            "src/components/forms/switch.mdx",
            "src/components/forms/controls.tsx",
            "src/components/icon/icon.tsx",
            "src/components/components.mdx",
            "src/components/index.ts",
        ]);
        let (layout, _) = classify(&files, &Config::preset("blueprint").unwrap());
        let s = summary(&layout);
        let keys: Vec<_> = s.iter().map(|c| c.0.as_str()).collect();
        assert_eq!(keys, ["checkbox", "components", "icon", "switch"]);
        assert_eq!(s[0].2, ["src/components/forms/controls.tsx"]);
        assert_eq!(s[3].2, ["src/components/forms/controls.tsx"]);
        assert_eq!(s[2].2, ["src/components/icon/icon.tsx"]);
        assert!(s[1].2.is_empty());
    }

    #[test]
    fn build_folders_never_become_components() {
        let files = walked(&[
            "packages/semi-foundation/_base/a.ts",
            "packages/semi-foundation/base/foundation.ts",
            "packages/semi-foundation/lib/x.js",
            "packages/semi-foundation/index.d.ts",
            "packages/semi-foundation/table/foundation.ts",
        ]);
        let (layout, _) = classify(&files, &Config::preset("semi").unwrap());
        assert_eq!(layout.components.keys().collect::<Vec<_>>(), ["table"]);
        let shared: Vec<_> = layout.shared.iter().map(|f| f.rel.as_str()).collect();
        assert_eq!(shared, ["packages/semi-foundation/_base/a.ts", "packages/semi-foundation/base/foundation.ts"]);
    }
}
