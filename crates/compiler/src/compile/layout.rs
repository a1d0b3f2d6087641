//! Classifies walked files by the layout configuration: which are changelogs, which are documents (of which
//! component and language), and which files each component lists. Pure data in, data out: no I/O.

use std::collections::{BTreeMap, BTreeSet};

use super::diagnostic::{Diagnostic, Stage};
pub use super::names::kebab_case;
use super::page_subject::Subjects;
use super::walk::WalkedFile;
use crate::config::{Config, Pattern, sibling_patterns};
use crate::model::component_key;

/// Directory names that are build output, never components nor shared code, whatever the configuration says.
const NEVER_COMPONENTS: [&str; 4] = ["lib", "es", "dist", "cjs"];

/// Source directory names that hold shared code, styles or tooling, not a component, unless a document names them
/// (issue 9 item 5): their files are served by path under [`SHARED`]. The top folders of a monorepo's other
/// packages (`src`, `scss`, `test`, `docs`, `script`) are among them, so `packages/*/{component}/**` makes no
/// component of them.
pub const KNOWN_NON_COMPONENTS: [&str; 30] = [
    "style",
    "styles",
    "locale",
    "locales",
    "theme",
    "themes",
    "version",
    "hooks",
    "hook",
    "utils",
    "util",
    "helpers",
    "base",
    "common",
    "shared",
    "constants",
    "types",
    "typings",
    "global",
    "assets",
    "icons",
    "keyframes",
    "src",
    "scss",
    "test",
    "tests",
    "docs",
    "script",
    "scripts",
    "demos",
];

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
    /// The package that owns the components: the nearest directory above most components' source files that has
    /// a `package.json` among the walked files (`packages/semi-foundation`); `""` for the repository root; `None`
    /// when no walked `package.json` is above them. Its `package.json` gives the version (see
    /// [`super::resolve_version`]).
    pub package: Option<String>,
    /// Guide pages, as (language, name, file): first the documents a `[[docs]]` rule matched that name no
    /// exported component (a site's guide, blog or chart pages; only when the exports are known), then the pages
    /// the `[[guides]]` rules take. Never components; [`super::guides::plan`] makes them guide plans.
    pub guides: Vec<(String, String, WalkedFile)>,
    /// How many of [`Layout::guides`] come first from the `[[docs]]` rules.
    pub unnamed_guides: usize,
}

/// Extensions of Markdown documents (`.md`, `.mdx`).
const DOC_EXTENSIONS: [&str; 2] = ["md", "mdx"];

/// Key of the pseudo-component that holds shared, non-component source folders.
pub const SHARED: &str = "_shared";

/// One component's inputs.
#[derive(Debug, Default)]
pub struct ComponentPlan {
    /// Canonical name: the kebab-case id of the first document's captured name, else of the first source
    /// directory's (`Button` and `button` both give `button`, `DatePicker` gives `date-picker`). Titles are the
    /// documents' own.
    pub name: String,
    /// Documents by language (one per language).
    pub docs: BTreeMap<String, WalkedFile>,
    /// Files listed for the component, sorted by path.
    pub files: Vec<WalkedFile>,
    /// A guide page (no exported component): built and read like a component, listed apart.
    pub guide: bool,
    /// The component's own changelog by language (a per-component `[[changelog]]` rule matched it); each is also
    /// one of `files`, so `file` serves it.
    pub changelogs: BTreeMap<String, WalkedFile>,
    /// Other names it goes by (keys): those of its documents named otherwise (`radio` of Chakra's `radio.mdx`, the
    /// document of `radio-group`), so a story titled `Radio` is its too.
    pub aliases: Vec<String>,
}

/// Whether a name captured by a source pattern may be a component: not a file (`index.d.ts`), not `_shared` or
/// hidden, not a build folder, not a known non-component ([`KNOWN_NON_COMPONENTS`]), not excluded by the
/// configuration.
fn is_component_name(name: &str, config: &Config) -> bool {
    !(name.starts_with('_')
        || name.starts_with('.')
        || name.contains('.')
        || NEVER_COMPONENTS.contains(&name)
        || KNOWN_NON_COMPONENTS.iter().any(|n| component_key(n) == component_key(name))
        || config.sources.not_components.iter().any(|n| component_key(n) == component_key(name)))
}

/// Whether a name captured by a document pattern may be a component: a document makes a component of any
/// directory or file name (a documented `_portal` included) except a file-like name with a `.` (`button.zh-CN`
/// under the pattern of another language), a hidden name, or one the configuration excludes.
fn is_doc_component_name(name: &str, config: &Config) -> bool {
    !(name.contains('.')
        || component_key(name).is_empty()
        || ["readme", "changelog", "license", "contributing"].contains(&name.to_ascii_lowercase().as_str())
        || config.sources.not_components.iter().any(|n| component_key(n) == component_key(name)))
}

/// The component among `keys` that a file of a directory shared by several documents belongs to: the one whose
/// key equals the file name's (`numericInput.tsx` → `numericinput`, `_numeric-input.scss` too), else the longest
/// key the file name starts with (`radioGroup.tsx` → `radio`); `None` when no key matches (the file belongs to all).
fn owner_by_file_name<'a>(rel: &str, keys: &'a BTreeSet<String>) -> Option<&'a String> {
    let file = rel.rsplit('/').next().unwrap_or(rel);
    let stem = component_key(file.split('.').next().unwrap_or(file));
    if stem.is_empty() {
        return None;
    }
    keys.get(&stem).or_else(|| keys.iter().filter(|k| stem.starts_with(k.as_str())).max_by_key(|k| k.len()))
}

/// Stage 2's output: the layout and what classifying reported (unused Markdown, documents without a language, …).
#[derive(Debug, Default)]
pub struct Classified {
    /// Which files are documents, sources and changelogs of which component.
    pub layout: Layout,
    /// Warnings and notes about the layout.
    pub diagnostics: Vec<Diagnostic>,
}

/// Sorts `files` into a [`Layout`]. Patterns were validated with the config.
pub fn classify(files: &[WalkedFile], config: &Config) -> Classified {
    classify_exported(files, config, None)
}

/// [`classify`], with what the design system exports (`compile::page_subject`): a document names the exported
/// component its captured name stands for (`buttons.md` → `button`), else the one its title or imports name
/// ([`Subjects::subject`], stated in a note); a document naming none is a guide ([`Layout::guides`]), never a
/// component (issue 24 item 2).
pub fn classify_exported(files: &[WalkedFile], config: &Config, subjects: Option<&Subjects>) -> Classified {
    let mut layout = Layout::default();
    let exported = subjects.map(|s| &s.ids);
    let exported_keys: BTreeSet<String> = exported.map(|m| m.keys().cloned().collect()).unwrap_or_default();
    // Documents whose name names no export, decided once every named document is placed.
    let mut unnamed: Vec<(&str, &str, &WalkedFile)> = Vec::new();
    let mut diags = Vec::new();
    let langs: Option<&Vec<String>> = config.system.langs.as_ref();
    let wanted = |lang: &str| langs.is_none_or(|l| l.iter().any(|x| x == lang));
    // The written rules, then the patterns they also stand for (`{component}/{component}.en.md` beside
    // `{component}/index.en.md`: see [`sibling_patterns`]), flagged `false`.
    let mut doc_patterns: Vec<(Pattern, &str, bool)> =
        config.docs.iter().filter_map(|d| Some((Pattern::parse(&d.pattern).ok()?, d.lang.as_str(), true))).collect();
    let mut siblings: BTreeSet<String> = config.docs.iter().map(|d| d.pattern.clone()).collect();
    for d in &config.docs {
        for sibling in sibling_patterns(&d.pattern) {
            if siblings.insert(sibling.clone())
                && let Ok(p) = Pattern::parse(&sibling)
            {
                doc_patterns.push((p, d.lang.as_str(), false));
            }
        }
    }
    let source_patterns: Vec<Pattern> = config.sources.patterns.iter().filter_map(|p| Pattern::parse(p).ok()).collect();
    let log_patterns: Vec<(Pattern, &str)> =
        config.changelog.iter().filter_map(|c| Some((c.per_component()?, c.lang.as_str()))).collect();
    // Per-component changelogs met in pass 1 (captured name, language, file), attached once the plans are known.
    let mut own_logs: Vec<(&str, &str, &WalkedFile)> = Vec::new();

    // Pass 1: changelogs and documents.
    let mut is_doc = BTreeSet::new();
    let mut doc_dirs: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    // Components and languages whose document came from a sibling pattern: a written rule's document replaces it.
    let mut by_sibling: BTreeSet<(String, String)> = BTreeSet::new();
    for f in files {
        if let Some(rule) = config.changelog.iter().find(|c| c.path == f.rel && c.per_component().is_none()) {
            if wanted(&rule.lang) {
                layout.changelogs.push((rule.lang.clone(), f.clone()));
            }
            is_doc.insert(f.rel.clone());
            continue;
        }
        if let Some((name, lang)) = log_patterns.iter().find_map(|(p, lang)| Some((p.capture(&f.rel)?, *lang))) {
            if wanted(lang) {
                own_logs.push((name, lang, f));
            }
            continue;
        }
        // The first rule whose capture can name a component: `docs/**/{component}.md` captures `button.zh-CN`
        // from `docs/button.zh-CN.md`, which the rule `docs/**/{component}.zh-CN.md` after it names properly.
        let mut captured = None;
        let found = doc_patterns.iter().find_map(|(p, lang, written)| {
            let name = p.capture(&f.rel)?;
            captured.get_or_insert(name);
            is_doc_component_name(name, config).then_some((name, *lang, *written))
        });
        if captured.is_some() {
            is_doc.insert(f.rel.clone());
        }
        let Some((name, lang, written)) = found else {
            let meta =
                |n: &str| ["readme", "changelog", "license", "contributing"].contains(&n.to_ascii_lowercase().as_str());
            if let Some(name) = captured.filter(|n| !meta(n)) {
                // Never silent: a document that matched a rule but cannot name a component is lost input (a
                // repository's README or LICENSE is not).
                diags.push(Diagnostic::new(
                    f.rel.clone(),
                    Stage::Layout,
                    format!(
                        "document skipped: `{name}` cannot be a component name (it contains `.` or is in [sources] \
                         not_components); rename the folder or change the [[docs]] pattern"
                    ),
                ));
            }
            continue;
        };
        if !wanted(lang) {
            continue;
        }
        let (key, id) = match exported {
            Some(ids) if !ids.is_empty() => match super::names::exported_key(name, &exported_keys) {
                Some(k) => {
                    let id = ids.get(&k).cloned().unwrap_or_else(|| kebab_case(name));
                    (k, id)
                }
                None => {
                    unnamed.push((lang, name, f));
                    continue;
                }
            },
            _ => (component_key(name), kebab_case(name)),
        };
        let plan = layout.components.entry(key.clone()).or_default();
        if plan.name.is_empty() {
            plan.name = id;
        }
        let pair = (key.clone(), lang.to_string());
        if let Some(first) = plan.docs.get(lang) {
            let (kept, dropped) = if written && by_sibling.remove(&pair) {
                let dropped = first.rel.clone();
                plan.docs.insert(lang.to_string(), f.clone());
                (f.rel.clone(), dropped)
            } else {
                (first.rel.clone(), f.rel.clone())
            };
            diags.push(Diagnostic::new(
                dropped,
                Stage::Layout,
                format!("a second {lang} document for component `{key}`; keeping {kept}"),
            ));
            continue;
        }
        if !written {
            by_sibling.insert(pair);
        }
        plan.docs.insert(lang.to_string(), f.clone());
        let dir = f.rel.rsplit_once('/').map_or("", |(d, _)| d).to_string();
        doc_dirs.entry(dir).or_default().insert(key);
    }

    if let Some(subjects) = subjects {
        place_unnamed(&mut layout, subjects, unnamed, &mut doc_dirs, &mut diags);
    }

    // Pass 2: every other file matched by a source pattern.
    // Markdown in a component's folder that no rule takes is reported, never dropped silently (trial item 4);
    // demo folders hold demo descriptions, read with their demos.
    let own_log_paths: BTreeSet<&str> = own_logs.iter().map(|l| l.2.rel.as_str()).collect();
    let unused_markdown = |f: &WalkedFile| {
        if own_log_paths.contains(f.rel.as_str()) {
            return None;
        }
        let is_md = f.rel.rsplit_once('.').is_some_and(|(_, e)| DOC_EXTENSIONS.contains(&e));
        let in_demos = f.rel.split('/').any(super::examples::is_example_folder);
        let file = f.rel.rsplit('/').next().unwrap_or(&f.rel).to_ascii_lowercase();
        (is_md && !in_demos).then(|| {
            let message = if file.starts_with("changelog") {
                // A monorepo package's own changelog (trial item 13).
                "a component's own changelog is not read (one changelog per language: name it with [[changelog]] \
                 path); it is served only as a file"
            } else {
                "Markdown file in a component's folder is not a document: no [[docs]] rule takes it (add one, see \
                 docs/config.md); it is served only as a file"
            };
            Diagnostic::new(f.rel.clone(), Stage::Layout, message)
        })
    };
    // Markdown reported as unused in a component's folder (not counted again below).
    let mut reported: BTreeSet<&str> = BTreeSet::new();
    for f in files.iter().filter(|f| !is_doc.contains(&f.rel)) {
        let Some((name, dir)) = source_patterns.iter().find_map(|p| p.capture_with_dir(&f.rel)) else {
            let parent = f.rel.rsplit_once('/').map_or("", |(d, _)| d);
            if doc_dirs.contains_key(parent) {
                let unused = unused_markdown(f);
                if unused.is_some() {
                    reported.insert(f.rel.as_str());
                }
                diags.extend(unused);
            }
            continue;
        };
        let beside: Option<&BTreeSet<String>> = if config.sources.beside_docs { doc_dirs.get(dir) } else { None };
        let owned = beside.is_some()
            || layout.components.get(&component_key(name)).is_some_and(|p| !p.docs.is_empty())
            || is_component_name(name, config);
        if owned {
            diags.extend(unused_markdown(f));
        }
        match beside {
            Some(keys) => match owner_by_file_name(&f.rel, keys) {
                Some(key) => layout.components.entry(key.clone()).or_default().files.push(f.clone()),
                None => {
                    for key in keys {
                        layout.components.entry(key.clone()).or_default().files.push(f.clone());
                    }
                }
            },
            None if layout.components.get(&component_key(name)).is_some_and(|p| !p.docs.is_empty())
                || is_component_name(name, config) =>
            {
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
    attach_own_changelogs(&mut layout, own_logs, &exported_keys, &mut diags);
    let unused = unused_markdown_files(files, &layout, &is_doc, &reported);
    // `[[guides]]` rules take what no other rule took; their pages need no note (the rule says what they are).
    // A page named like an exported component stays unused, in the note below.
    let ruled = super::guide_rules::ruled_pages(unused.iter().copied(), &config.guides, &exported_keys, wanted);
    let ruled_paths: BTreeSet<&str> = ruled.iter().map(|(_, _, f)| f.rel.as_str()).collect();
    diags.extend(unread_markdown(unused.iter().copied().filter(|f| !ruled_paths.contains(f.rel.as_str()))));
    if !layout.guides.is_empty() {
        let mut by_folder: BTreeMap<&str, usize> = BTreeMap::new();
        for (_, _, f) in &layout.guides {
            *by_folder.entry(f.rel.rsplit_once('/').map_or(".", |(d, _)| d)).or_default() += 1;
        }
        for (dir, n) in by_folder {
            diags.push(Diagnostic::note(
                dir,
                Stage::Layout,
                format!("{n} guide page(s): a [[docs]] rule matches them but they name no exported component"),
            ));
        }
    }
    layout.unnamed_guides = layout.guides.len();
    layout.guides.extend(ruled);
    // The owning package: the one most components' files sit in.
    let packages: BTreeSet<String> = files
        .iter()
        .filter_map(|f| match f.rel.rsplit_once('/') {
            Some((dir, "package.json")) => Some(dir.to_string()),
            None if f.rel == "package.json" => Some(String::new()),
            _ => None,
        })
        .collect();
    let mut votes: BTreeMap<&str, usize> = BTreeMap::new();
    for plan in layout.components.values() {
        if let Some(p) = plan.files.first().and_then(|f| super::walk::package_of(&f.rel, &packages)) {
            *votes.entry(p).or_default() += 1;
        }
    }
    layout.package =
        votes.into_iter().max_by_key(|(p, n)| (*n, std::cmp::Reverse(p.len()))).map(|(p, _)| p.to_string());
    // Rules that match nothing: a warning when nothing of the kind was found at all, else a note (a repository may
    // document fewer languages than the preset knows).
    let missing: Vec<&str> = config
        .changelog
        .iter()
        .filter(|r| wanted(&r.lang) && r.per_component().is_none() && !files.iter().any(|f| f.rel == r.path))
        .map(|r| r.path.as_str())
        .collect();
    if !missing.is_empty() && layout.changelogs.is_empty() {
        diags.push(Diagnostic::new(missing.join(", "), Stage::Layout, "no changelog found at these paths"));
    } else {
        for path in missing {
            diags.push(Diagnostic::note(path, Stage::Layout, "no changelog at this path"));
        }
    }
    let any_doc = layout.components.values().any(|p| !p.docs.is_empty());
    for (i, (pattern, lang, _)) in doc_patterns.iter().filter(|p| p.2).enumerate() {
        if wanted(lang) && !files.iter().any(|f| pattern.capture(&f.rel).is_some()) {
            // Rules that parsed are all of them (the config was validated), so `i` names the rule itself.
            let rule = config.docs.get(i).map_or("", |d| d.pattern.as_str());
            let message = format!("no {lang} document matches this pattern");
            diags.push(if any_doc {
                Diagnostic::note(rule, Stage::Layout, message)
            } else {
                Diagnostic::new(rule, Stage::Layout, message)
            });
        }
    }
    for plan in layout.components.values() {
        let key = &plan.name;
        if plan.docs.is_empty() {
            diags.push(Diagnostic::note(
                key.clone(),
                Stage::Layout,
                format!("component `{key}` has sources but no document"),
            ));
        } else if plan.files.is_empty() && !source_patterns.is_empty() {
            diags.push(Diagnostic::note(
                key.clone(),
                Stage::Layout,
                format!("component `{key}` has documents but no sources"),
            ));
        }
    }
    Classified { layout, diagnostics: diags }
}

/// Places the documents whose file name names no export: each documents the export its title or imports name
/// when that one has no document in its language yet (a note says what decided), else it is a guide.
fn place_unnamed(
    layout: &mut Layout,
    subjects: &Subjects,
    unnamed: Vec<(&str, &str, &WalkedFile)>,
    doc_dirs: &mut BTreeMap<String, BTreeSet<String>>,
    diags: &mut Vec<Diagnostic>,
) {
    for (lang, name, f) in unnamed {
        let free = |k: &str| layout.components.get(k).is_none_or(|p| !p.docs.contains_key(lang));
        let Some((key, why)) = subjects.subject(f, name, free) else {
            layout.guides.push((lang.to_string(), name.to_string(), f.clone()));
            continue;
        };
        let id = subjects.ids.get(&key).cloned().unwrap_or_else(|| kebab_case(&key));
        diags.push(Diagnostic::note(
            f.rel.clone(),
            Stage::Layout,
            format!("documents `{id}`: its file name names no export, but {why}"),
        ));
        let plan = layout.components.entry(key.clone()).or_default();
        if plan.name.is_empty() {
            plan.name = id;
        }
        plan.docs.insert(lang.to_string(), f.clone());
        let alias = component_key(name);
        if !plan.aliases.contains(&alias) {
            plan.aliases.push(alias);
        }
        let dir = f.rel.rsplit_once('/').map_or("", |(d, _)| d).to_string();
        doc_dirs.entry(dir).or_default().insert(key);
    }
}

impl Layout {
    /// Every name a component goes by (its key and its aliases, by [`component_key`]) → its key; a key wins over
    /// another component's alias.
    pub fn names(&self) -> BTreeMap<String, String> {
        let aliases = self.components.iter().flat_map(|(k, p)| p.aliases.iter().map(move |a| (a.clone(), k.clone())));
        let mut out: BTreeMap<String, String> = aliases.collect();
        out.extend(self.components.keys().map(|k| (k.clone(), k.clone())));
        out
    }
}

/// Adds to [`Layout::shared`] the source files of what the package exports beside its components (hooks such as
/// Chakra's `useDisclosure` in `src/hooks/`, utilities) that no component lists: the API is what an agent calls,
/// so its code is served by path and its functions are indexed, like a shared folder's.
pub fn share_exported_modules(layout: &mut Layout, files: &[WalkedFile], api: &super::api::Api) {
    let listed: BTreeSet<&str> =
        layout.components.values().flat_map(|p| &p.files).chain(&layout.shared).map(|f| f.rel.as_str()).collect();
    let places: Vec<&str> = api.others.iter().flat_map(|e| e.dirs.iter().map(String::as_str)).collect();
    let inside =
        |rel: &str| places.iter().any(|p| rel == *p || rel.strip_prefix(p).is_some_and(|r| r.starts_with('/')));
    let source = |rel: &str| {
        super::source::SourceLang::from_path(std::path::Path::new(rel)).is_some()
            && !rel.split('/').any(|s| s.starts_with('.') || NEVER_COMPONENTS.contains(&s))
    };
    let added: Vec<WalkedFile> = files
        .iter()
        .filter(|f| !listed.contains(f.rel.as_str()) && source(&f.rel) && inside(&f.rel))
        .cloned()
        .collect();
    layout.shared.extend(added);
    layout.shared.sort_by(|a, b| a.rel.cmp(&b.rel));
}

/// Gives each component its own changelogs (`logs`: captured name, language, file), each also listed among its
/// files. A changelog whose component has no plan, or a second one in a language, is reported, never dropped
/// silently.
fn attach_own_changelogs(
    layout: &mut Layout,
    logs: Vec<(&str, &str, &WalkedFile)>,
    exported: &BTreeSet<String>,
    diags: &mut Vec<Diagnostic>,
) {
    for (name, lang, f) in logs {
        let key = component_key(name);
        let key = if layout.components.contains_key(&key) {
            key
        } else {
            match super::names::exported_key(name, exported) {
                Some(k) if layout.components.contains_key(&k) => k,
                _ => {
                    let message = format!("a changelog of `{name}`, which is not a component here: not read");
                    diags.push(Diagnostic::note(f.rel.clone(), Stage::Layout, message));
                    continue;
                }
            }
        };
        let Some(plan) = layout.components.get_mut(&key) else { continue };
        if let Some(first) = plan.changelogs.get(lang) {
            let message = format!("a second {lang} changelog for component `{key}`; keeping {}", first.rel);
            diags.push(Diagnostic::new(f.rel.clone(), Stage::Layout, message));
            continue;
        }
        plan.changelogs.insert(lang.to_string(), f.clone());
        if !plan.files.iter().any(|x| x.rel == f.rel) {
            let at = plan.files.partition_point(|x| x.rel < f.rel);
            plan.files.insert(at, f.clone());
        }
    }
}

/// What the note of [`unread_markdown`] says after its count.
const UNREAD_MARKDOWN: &str = "not used: no [[docs]] rule, changelog or source pattern takes them";

/// The number of Markdown files a note of unused Markdown (one folder's) counts; `None` for any other diagnostic.
/// The build summary adds these up.
pub fn unread_markdown_count(d: &Diagnostic) -> Option<usize> {
    if d.stage != Stage::Layout || !d.note || !d.message.contains(UNREAD_MARKDOWN) {
        return None;
    }
    d.message.split(' ').next()?.parse().ok()
}

/// Markdown files no rule takes (trial: antd-mobile's `docs/guide/*.md`): not a document or changelog, not a file
/// of a component or of `_shared`, not a demo's description, not reported already as a component folder's unused
/// Markdown. `[[guides]]` rules choose among these.
fn unused_markdown_files<'a>(
    files: &'a [WalkedFile],
    layout: &Layout,
    is_doc: &BTreeSet<String>,
    reported: &BTreeSet<&str>,
) -> Vec<&'a WalkedFile> {
    let used: BTreeSet<&str> =
        layout.components.values().flat_map(|p| &p.files).chain(&layout.shared).map(|f| f.rel.as_str()).collect();
    files
        .iter()
        .filter(|f| {
            let is_md = f.rel.rsplit_once('.').is_some_and(|(_, e)| DOC_EXTENSIONS.contains(&e));
            let in_demos = f.rel.split('/').any(super::examples::is_example_folder);
            let rel = f.rel.as_str();
            is_md && !in_demos && !is_doc.contains(rel) && !used.contains(rel) && !reported.contains(rel)
        })
        .collect()
}

/// The note on Markdown files the build does not use at all (`unused`, after the guide rules took theirs): one
/// note per folder, with the count and the first few names, so that a guide folder nobody configured is visible
/// in `build --verbose` without a line per file.
fn unread_markdown<'a>(unused: impl Iterator<Item = &'a WalkedFile>) -> Vec<Diagnostic> {
    let mut by_folder: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for f in unused {
        let (dir, name) = f.rel.rsplit_once('/').unwrap_or(("", f.rel.as_str()));
        by_folder.entry(dir).or_default().push(name);
    }
    const NAMED: usize = 4;
    by_folder
        .into_iter()
        .map(|(dir, names)| {
            let mut list = names.iter().take(NAMED).copied().collect::<Vec<_>>().join(", ");
            if names.len() > NAMED {
                list.push_str(&format!(", … ({} more)", names.len() - NAMED));
            }
            let count = names.len();
            let files = if count == 1 { "Markdown file" } else { "Markdown files" };
            let path = if dir.is_empty() { "./".to_string() } else { format!("{dir}/") };
            Diagnostic::note(
                path,
                Stage::Layout,
                format!(
                    "{count} {files} {UNREAD_MARKDOWN} ({list}); a [[docs]] rule serves them as documents \
                     (docs/config.md)"
                ),
            )
        })
        .collect()
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
        let Classified { layout, diagnostics: diags } = classify(&files, &Config::default());
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
        let diags = classify(&walked(&["docs/a/index.md"]), &Config::default()).diagnostics;
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
        let Classified { layout, .. } = classify(&files, &Config::preset("blueprint").unwrap());
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
        let Classified { layout, .. } = classify(&files, &Config::preset("semi").unwrap());
        assert_eq!(layout.components.keys().collect::<Vec<_>>(), ["table"]);
        let shared: Vec<_> = layout.shared.iter().map(|f| f.rel.as_str()).collect();
        assert_eq!(shared, ["packages/semi-foundation/_base/a.ts", "packages/semi-foundation/base/foundation.ts"]);
    }

    #[test]
    fn a_shared_directory_gives_each_file_to_the_document_it_names() {
        let files = walked(&[
            "src/components/forms/checkbox.mdx",
            "src/components/forms/numeric-input.mdx",
            "src/components/forms/radio.mdx",
            "src/components/forms/_numeric-input.scss",
            "src/components/forms/controls.tsx",
            "src/components/forms/numericInput.tsx",
            "src/components/forms/radioGroup.tsx",
        ]);
        let Classified { layout, .. } = classify(&files, &Config::preset("blueprint").unwrap());
        let s = summary(&layout);
        assert_eq!(s[0].2, ["src/components/forms/controls.tsx"]);
        assert_eq!(
            s[1].2,
            [
                "src/components/forms/_numeric-input.scss",
                "src/components/forms/controls.tsx",
                "src/components/forms/numericInput.tsx"
            ]
        );
        assert_eq!(s[2].2, ["src/components/forms/controls.tsx", "src/components/forms/radioGroup.tsx"]);
    }

    #[test]
    fn documented_underscore_folders_are_components_and_other_packages_top_folders_are_not() {
        let mut config = Config::preset("semi").unwrap();
        config.docs.insert(0, crate::config::DocRule { pattern: "docs/{component}.md".into(), lang: "en-US".into() });
        let files = walked(&[
            "docs/_portal.md",
            "package.json",
            "packages/ui/package.json",
            "packages/ui/_portal/index.tsx",
            "packages/ui/_utils/a.ts",
            "packages/ui/button/index.tsx",
            "packages/ui/src/x.ts",
            "packages/theme/scss/a.scss",
            "packages/theme/test/a.ts",
            "packages/theme/docs/a.ts",
            "packages/theme/script/a.ts",
            "packages/ui/hooks/useX.ts",
        ]);
        let Classified { layout, diagnostics: diags } = classify(&files, &config);
        assert_eq!(layout.components.keys().collect::<Vec<_>>(), ["button", "portal"]);
        assert_eq!(layout.components["portal"].name, "_portal");
        assert_eq!(layout.components["portal"].files[0].rel, "packages/ui/_portal/index.tsx");
        assert_eq!(layout.shared.len(), 7);
        assert_eq!(layout.package.as_deref(), Some("packages/ui"));
        // Two rules of one language: the one that matches nothing names itself.
        let missing: Vec<_> = diags.iter().filter(|d| d.message.contains("document matches")).collect();
        let paths: Vec<_> = missing.iter().map(|d| d.path.as_str()).collect();
        assert_eq!(paths, ["content/*/{component}/index.md", "content/*/{component}/index-en-US.md"]);
    }

    #[test]
    fn names_are_kebab_case_ids_whoever_captured_them() {
        let files = walked(&["docs/Button/index.md", "src/components/Button/a.tsx", "src/components/CardGrid/a.tsx"]);
        let Classified { layout, .. } = classify(&files, &Config::default());
        let names: Vec<_> = layout.components.values().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["button", "card-grid"]);
        assert_eq!(kebab_case("README"), "readme");
        assert_eq!(kebab_case("HTMLTable"), "html-table");
        assert_eq!(kebab_case("aiChatDialogue"), "ai-chat-dialogue");
        assert_eq!(kebab_case("date-picker"), "date-picker");
    }
}
