//! Layout detection (issue 9 item 1): with no `mydesign-docs.toml` and no `--preset`, `build` looks at the walked
//! files and writes the configuration a person would have written. Recognised shapes:
//!
//! - **component folders** holding `index.md` / `index.<lang>.md` / `index-<lang>.md` / `README.md` /
//!   `<Name>/<Name>.mdx`: Semi's `content/*/<component>/index.md` + `index-en-US.md`, dumi's
//!   `components/<name>/index.<lang>.md` with `demo(s)/`, antd-mobile's `src/components/<name>/index.en.md`, a
//!   small repository's `src/components/Button/README.md`;
//! - **named documents** `<dir>/**/<component>.md(x)` (optionally `<component>.<lang>.md`): colocated beside sources
//!   (Blueprint: `beside_docs`) or in a documents folder (`docs/**/<component>.md`).
//!
//! The shape with the most documented components wins. Sources: the directory whose child folders are named like
//! the most documented components (`src/components`, a monorepo's `packages/semi-foundation`), as
//! `<dir>/{component}/**`. Changelog: a documented `changelog` folder of the winning shape, else `CHANGELOG*.md` at
//! the root, else in the package that holds the sources. A document's language is its tag (`en` → `en-US`,
//! `zh` → `zh-CN`); untagged documents are `zh-CN` when a sample of them is mostly Chinese, else `en-US`.
//!
//! Reads a few documents to sample their language; otherwise pure.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use super::names::lang_tag;
use super::walk::WalkedFile;
use crate::config::{ChangelogRule, Config, DocRule, SourceRule};
use crate::model::component_key;

/// What detection found, and the configuration it stands for.
#[derive(Clone, Debug)]
pub struct Detection {
    /// The shape recognised, for a person (`dumi-like component folders`).
    pub layout: String,
    /// The configuration: `docs`, `changelog` and `sources` filled in, the rest default.
    pub config: Config,
    /// Documents matched by the rules.
    pub documents: usize,
    /// Documented components (distinct names).
    pub components: usize,
    /// Source files under the source pattern.
    pub sources: usize,
    /// Changelog files found (the set's, one per language).
    pub changelogs: usize,
    /// Components with a changelog of their own (per-component `[[changelog]]` rules).
    pub component_changelogs: usize,
    /// Pages the `[[guides]]` rules take (documentation folders' Markdown that documents no component).
    pub guides: usize,
    /// The design-system package and its exported components, when a public package was found.
    pub api: Option<super::api::Api>,
    /// What the rules document of the exported components, when the API lists them.
    pub coverage: Option<super::matching::Coverage>,
    /// Why the layout cannot be chosen without a configuration (`build` exits 2 with this), when it cannot.
    pub ambiguous: Option<String>,
    /// What a person should know that no rule says, one line each (trial item 13: a monorepo whose component
    /// folders are packages of different versions, per-package changelogs that are not read).
    pub notes: Vec<String>,
}

impl Detection {
    /// The detection report printed by `build` (deterministic: no timing, no absolute path).
    pub fn report(&self) -> String {
        let c = &self.config;
        let mut out = vec![format!("detected layout: {}", self.layout)];
        let docs: Vec<String> = c.docs.iter().map(|d| format!("{} ({})", d.pattern, d.lang)).collect();
        out.push(format!(
            "  documents: {} in {} components: {}",
            self.documents,
            self.components,
            if docs.is_empty() { "none".into() } else { docs.join(", ") }
        ));
        let beside = if c.sources.beside_docs { ", and files beside each document" } else { "" };
        out.push(format!(
            "  sources: {} files: {}{beside}",
            self.sources,
            if c.sources.patterns.is_empty() { "none".into() } else { c.sources.patterns.join(", ") }
        ));
        let (own, set): (Vec<&ChangelogRule>, Vec<&ChangelogRule>) =
            c.changelog.iter().partition(|r| r.path.contains("{component}"));
        let logs: Vec<String> = set.iter().map(|r| format!("{} ({})", r.path, r.lang)).collect();
        out.push(format!("  changelog: {}", if logs.is_empty() { "none found".into() } else { logs.join(", ") }));
        if !own.is_empty() {
            let rules: Vec<String> = own.iter().map(|r| format!("{} ({})", r.path, r.lang)).collect();
            out.push(format!("  component changelogs: {} components: {}", self.component_changelogs, rules.join(", ")));
        }
        // The count is the build's (coverage classifies with this configuration): the rules' pages and the
        // documents that name no exported component.
        let mut sources: Vec<String> = c.guides.iter().map(|r| format!("{} ({})", r.pattern, r.lang)).collect();
        if let Some(n) = self.coverage.as_ref().map(|c| c.unnamed_guides).filter(|n| *n > 0) {
            sources.push(format!("{n} documents naming no exported component"));
        }
        if !sources.is_empty() {
            out.push(format!("  guides: {} pages: {}", self.guides, sources.join(", ")));
        }
        let mut langs: Vec<&str> = c.docs.iter().map(|d| d.lang.as_str()).collect();
        langs.extend(c.changelog.iter().map(|r| r.lang.as_str()));
        let mut seen = BTreeSet::new();
        langs.retain(|l| seen.insert(*l));
        if langs.is_empty() {
            out.push("  languages: none documented (a component's stories are served in en-US)".into());
        } else {
            out.push(format!("  languages: {} (default {})", langs.join(", "), langs[0]));
        }
        if let Some(a) = &self.api {
            let p = &a.package;
            let at = if p.dir.is_empty() { "package.json".to_string() } else { format!("{}/package.json", p.dir) };
            out.push(format!(
                "  design system: {} {} ({at}, {}); {}",
                p.name,
                p.version.as_deref().unwrap_or("(no version)"),
                a.chosen_by,
                match &a.entry {
                    Some(e) if !a.components.is_empty() => format!("{} components exported by {e}", a.components.len()),
                    Some(e) => format!("{e} exports no component folder: components from folder rules"),
                    None => "no readable entry: components from folder rules".to_string(),
                }
            ));
        }
        if let Some(c) = &self.coverage {
            out.push(format!("  coverage: {}", c.line()));
        }
        out.extend(self.notes.iter().map(|n| format!("  {n}")));
        out.push("  to adjust: mydesign-docs build --print-config > mydesign-docs.toml, then edit it".into());
        out.join("\n")
    }
}

const DOC_EXT: [&str; 2] = ["md", "mdx"];
const SOURCE_EXT: [&str; 9] = ["ts", "tsx", "js", "jsx", "mjs", "cjs", "vue", "svelte", "scss"];
/// Stems that are never a component's named document.
const NOT_DOC_STEMS: [&str; 8] =
    ["index", "readme", "changelog", "license", "contributing", "code_of_conduct", "security", "history"];

fn ext_of(file: &str) -> Option<(&str, &str)> {
    file.rsplit_once('.')
}

fn is_hidden(rel: &str) -> bool {
    rel.split('/').any(|p| p.starts_with('.'))
}

/// One file-name form of a component folder: the pattern's file part and its language (`None`: untagged).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Form {
    file: String,
    tag: Option<String>,
}

/// The form of a document file inside its component folder `dir`, if it is one.
fn folder_form(dir: &str, file: &str) -> Option<Form> {
    let (rest, ext) = ext_of(file)?;
    if !DOC_EXT.contains(&ext) {
        return None;
    }
    if rest == "index" || rest.eq_ignore_ascii_case("readme") {
        return Some(Form { file: file.into(), tag: None });
    }
    // `Button/README.en-US.md`, `button/README.zh-CN.md` (Arco, Vant): a README per language.
    if let Some(tag) = rest.get(..7).filter(|h| h.eq_ignore_ascii_case("readme.")).map(|_| &rest[7..]) {
        return Some(Form { file: file.into(), tag: Some(lang_tag(tag)?) });
    }
    if let Some(tag) = rest.strip_prefix("index.").or_else(|| rest.strip_prefix("index-")) {
        return Some(Form { file: file.into(), tag: Some(lang_tag(tag)?) });
    }
    // `Card/Card.mdx`, `Card/Card.zh-CN.md`: named as its folder (the same text: the pattern repeats the capture).
    let (stem, tag) = rest.split_once('.').map_or((rest, None), |(s, t)| (s, Some(t)));
    if stem != dir {
        return None;
    }
    match tag {
        None => Some(Form { file: format!("{{component}}.{ext}"), tag: None }),
        Some(t) => Some(Form { file: format!("{{component}}.{t}.{ext}"), tag: Some(lang_tag(t)?) }),
    }
}

/// The family of a folder form's file: its suffix after `index` or `{component}` (`.en.md`, `-en-US.md`, `.md`;
/// `README.md` is `.md`). The forms of one family are the siblings of `config::sibling_patterns`; a form of
/// no family (`Readme.mdx`) is its own.
fn family(file: &str) -> String {
    if file == "README.md" {
        return ".md".into();
    }
    match file.strip_prefix("index").or_else(|| file.strip_prefix("{component}")) {
        Some(suffix) => suffix.to_string(),
        None => file.to_string(),
    }
}

/// A candidate shape: its rules by form (pattern, tag, files matched) and components.
struct Candidate {
    layout: String,
    rules: Vec<(String, Option<String>, Vec<String>)>,
    keys: BTreeSet<String>,
    beside_docs: bool,
    changelog: Vec<(String, Option<String>)>,
}

/// The pattern of a set of same-depth directories: their common segments, `*` where they differ.
fn common_pattern(dirs: &BTreeSet<&str>) -> String {
    let split: Vec<Vec<&str>> = dirs.iter().map(|d| d.split('/').filter(|s| !s.is_empty()).collect()).collect();
    let depth = split.first().map_or(0, Vec::len);
    (0..depth)
        .map(|i| if split.iter().all(|s| s[i] == split[0][i]) { split[0][i] } else { "*" })
        .collect::<Vec<_>>()
        .join("/")
}

fn join(prefix: &str, rest: &str) -> String {
    if prefix.is_empty() { rest.to_string() } else { format!("{prefix}/{rest}") }
}

/// Component folders (`<container>/<name>/index[.<lang>].md` and the like).
fn folder_candidates(files: &[WalkedFile]) -> Vec<Candidate> {
    // (first segment of the container, its depth) → container, folder, form, path.
    type Entry<'a> = (&'a str, &'a str, Form, &'a str);
    let mut clusters: BTreeMap<(String, usize), Vec<Entry>> = BTreeMap::new();
    for f in files.iter().filter(|f| !is_hidden(&f.rel)) {
        let parts: Vec<&str> = f.rel.split('/').collect();
        if parts.len() < 2 {
            continue;
        }
        let (dir, file) = (parts[parts.len() - 2], parts[parts.len() - 1]);
        let Some(form) = folder_form(dir, file) else { continue };
        let container_len = f.rel.len() - file.len() - dir.len() - 1;
        let container = f.rel[..container_len].trim_end_matches('/');
        let first = container.split('/').next().unwrap_or("").to_string();
        let depth = container.split('/').filter(|s| !s.is_empty()).count();
        clusters.entry((first, depth)).or_default().push((container, dir, form, &f.rel));
    }
    let folders = |v: &Vec<Entry>| v.iter().map(|e| (e.0, e.1)).collect::<BTreeSet<_>>().len();
    // The four largest clusters are candidates (scored later by the exported components they document: Arco's
    // `components/<Name>/README.<lang>.md` beside a `site/` of more folders).
    let mut clusters: Vec<((String, usize), Vec<Entry>)> = clusters.into_iter().collect();
    clusters.sort_by(|a, b| folders(&b.1).cmp(&folders(&a.1)).then(a.0.cmp(&b.0)));
    clusters
        .into_iter()
        .take(4)
        .enumerate()
        .filter(|(i, c)| *i == 0 || folders(&c.1) >= 2)
        .filter_map(|(_, (_, entries))| cluster_candidate(files, entries))
        .collect()
}

/// One cluster of component folders as a candidate.
fn cluster_candidate(files: &[WalkedFile], entries: Vec<(&str, &str, Form, &str)>) -> Option<Candidate> {
    type Entry<'a> = (&'a str, &'a str, Form, &'a str);
    let folders = |v: &Vec<Entry>| v.iter().map(|e| (e.0, e.1)).collect::<BTreeSet<_>>().len();
    let n = folders(&entries);
    let containers: BTreeSet<&str> = entries.iter().map(|e| e.0).collect();
    let container = common_pattern(&containers);
    // A `changelog` folder is the changelog, not a component.
    let (logs, docs): (Vec<&Entry>, Vec<&Entry>) = entries.iter().partition(|e| component_key(e.1) == "changelog");
    let changelog = logs.iter().map(|e| (e.3.to_string(), e.2.tag.clone())).collect();
    // Forms of one family (`index.en.md`, `{component}.en.md`: the same suffix) are one rule, written with the
    // family's most common form: the rule stands for the others (`config::sibling_patterns`), so antd-mobile's 4
    // `calendar/calendar.en.md` beside 68 `<name>/index.en.md` are documents, not lost under the 1-in-10 floor.
    // (family, tag) → form's file → paths.
    type Families<'a> = BTreeMap<(String, &'a Option<String>), BTreeMap<&'a str, Vec<String>>>;
    let mut by_family: Families = BTreeMap::new();
    for e in &docs {
        by_family.entry((family(&e.2.file), &e.2.tag)).or_default().entry(&e.2.file).or_default().push(e.3.to_string());
    }
    let min = n.div_ceil(10).max(1);
    let mut rules: Vec<(String, Option<String>, Vec<String>)> = by_family
        .into_iter()
        .filter_map(|((_, tag), forms)| {
            let file = forms.iter().max_by(|a, b| a.1.len().cmp(&b.1.len()).then(b.0.cmp(a.0)))?.0.to_string();
            let mut paths: Vec<String> = forms.into_values().flatten().collect();
            paths.sort();
            (paths.len() >= min).then(|| (join(&container, &format!("{{component}}/{file}")), tag.clone(), paths))
        })
        .collect();
    // Untagged forms first (the default language), then by count.
    rules.sort_by(|a, b| a.1.is_some().cmp(&b.1.is_some()).then(b.2.len().cmp(&a.2.len())).then(a.0.cmp(&b.0)));
    let kept: BTreeSet<&str> = rules.iter().flat_map(|r| r.2.iter().map(String::as_str)).collect();
    let keys: BTreeSet<String> = docs.iter().filter(|e| kept.contains(e.3)).map(|e| component_key(e.1)).collect();
    let doc_dirs: BTreeSet<String> =
        docs.iter().map(|e| e.3.rsplit_once('/').map_or("", |(d, _)| d).to_string()).collect();
    let demos = files.iter().any(|f| {
        f.rel.rsplit_once('/').is_some_and(|(d, _)| {
            d.rsplit_once('/')
                .is_some_and(|(parent, last)| matches!(last, "demo" | "demos") && doc_dirs.contains(parent))
        })
    });
    let layout = if demos {
        format!("dumi-like component folders with demos ({container}/<name>/index.<lang>.md)")
    } else if rules.iter().any(|r| r.0.contains("{component}/index")) {
        format!("component folders with index documents ({container}/<name>/index.md, Semi-like)")
    } else {
        format!("component folders with their own documents ({container}/<name>/README.md or <Name>.mdx)")
    };
    Some(Candidate { layout, rules, keys, beside_docs: false, changelog })
}

/// Named documents (`<prefix>/**/<component>.md(x)`), colocated with sources or in a documents folder.
fn named_candidate(files: &[WalkedFile], source_dirs: &BTreeSet<&str>) -> Option<Candidate> {
    let mut found: Vec<(&str, &str, Option<String>, &str, &str)> = Vec::new(); // dir, stem, tag, ext, path
    for f in files.iter().filter(|f| !is_hidden(&f.rel)) {
        let Some((dir, file)) = f.rel.rsplit_once('/') else { continue };
        if dir.split('/').any(|p| matches!(p, "demo" | "demos")) {
            continue;
        }
        let Some((rest, ext)) = ext_of(file) else { continue };
        if !DOC_EXT.contains(&ext) {
            continue;
        }
        let (stem, tag) = rest.split_once('.').map_or((rest, None), |(s, t)| (s, Some(t)));
        if NOT_DOC_STEMS.contains(&stem.to_ascii_lowercase().as_str()) && stem != "index" || stem.is_empty() {
            continue;
        }
        let tag = match tag.map(lang_tag) {
            None => None,
            Some(Some(l)) => Some(l),
            // `button.stories.mdx`, `a.b.md`: not a language.
            Some(None) => continue,
        };
        found.push((dir, stem, tag, ext, &f.rel));
    }
    if found.is_empty() {
        return None;
    }
    // The common directory prefix of all of them.
    let mut prefix: Vec<&str> = found[0].0.split('/').collect();
    for (dir, ..) in &found {
        let parts: Vec<&str> = dir.split('/').collect();
        let same = prefix.iter().zip(&parts).take_while(|(a, b)| a == b).count();
        prefix.truncate(same);
    }
    let prefix = prefix.join("/");
    let mut rules: BTreeMap<(Option<String>, &str), Vec<String>> = BTreeMap::new();
    for (_, _, tag, ext, path) in &found {
        rules.entry((tag.clone(), ext)).or_default().push(path.to_string());
    }
    let min = found.len().div_ceil(10).max(1);
    let mut rules: Vec<(String, Option<String>, Vec<String>)> = rules
        .into_iter()
        .filter(|(_, paths)| paths.len() >= min)
        .map(|((tag, ext), paths)| {
            let file = match &tag {
                None => format!("{{component}}.{ext}"),
                Some(_) => {
                    let t = paths[0].rsplit('/').next().unwrap_or("").split('.').nth(1).unwrap_or("").to_string();
                    format!("{{component}}.{t}.{ext}")
                }
            };
            (join(&prefix, &format!("**/{file}")), tag, paths)
        })
        .collect();
    rules.sort_by(|a, b| a.1.is_some().cmp(&b.1.is_some()).then(b.2.len().cmp(&a.2.len())).then(a.0.cmp(&b.0)));
    let kept: BTreeSet<&str> = rules.iter().flat_map(|r| r.2.iter().map(String::as_str)).collect();
    let keys: BTreeSet<String> = found.iter().filter(|f| kept.contains(f.4)).map(|f| component_key(f.1)).collect();
    let dirs: BTreeSet<&str> = found.iter().map(|f| f.0).collect();
    let beside = dirs.iter().filter(|d| source_dirs.contains(*d)).count();
    let beside_docs = beside * 2 >= dirs.len();
    let layout = if beside_docs {
        format!("documents beside their sources ({prefix}/**/<component>.mdx, Blueprint-like)")
    } else {
        format!("a documents folder ({prefix}/**/<component>.md)")
    };
    Some(Candidate { layout, rules, keys, beside_docs, changelog: vec![] })
}

/// Whether a sample of `paths` is mostly Chinese (CJK ideographs ≥ 1/8 of the letters).
fn mostly_chinese(repo: &Path, paths: &[String]) -> bool {
    let (mut cjk, mut letters) = (0usize, 0usize);
    for p in paths.iter().take(6) {
        let Ok(text) = std::fs::read_to_string(repo.join(p)) else { continue };
        for c in text.chars().take(20_000) {
            if ('\u{4e00}'..='\u{9fff}').contains(&c) {
                cjk += 1;
            } else if c.is_alphabetic() {
                letters += 1;
            }
        }
    }
    cjk > 0 && cjk * 8 >= letters
}

/// Detects the layout of `repo` from its walked `files`. `None` when no document shape was found at all.
pub fn detect(repo: &Path, files: &[WalkedFile]) -> Option<Detection> {
    let is_source = |rel: &str| ext_of(rel).is_some_and(|(_, e)| SOURCE_EXT.contains(&e));
    let source_dirs: BTreeSet<&str> =
        files.iter().filter(|f| is_source(&f.rel)).filter_map(|f| f.rel.rsplit_once('/').map(|(d, _)| d)).collect();
    let api = super::api::read(repo, files, None);
    let exported: BTreeSet<String> =
        api.iter().flat_map(|a| a.components.iter().map(|e| component_key(&e.id))).collect();
    let mut candidates: Vec<Candidate> = Vec::new();
    candidates.extend(folder_candidates(files));
    if !exported.is_empty() {
        // The one folder of named documents that documents the most exported components (a site app's
        // `content/docs/components/`), apart from its sibling folders of guides, charts and blog posts.
        let mut by_dir: BTreeMap<&str, BTreeSet<String>> = BTreeMap::new();
        for f in files.iter().filter(|f| !is_hidden(&f.rel)) {
            let Some((dir, file)) = f.rel.rsplit_once('/') else { continue };
            let Some((rest, ext)) = ext_of(file) else { continue };
            let stem = rest.split('.').next().unwrap_or(rest);
            if DOC_EXT.contains(&ext)
                && let Some(k) = super::matching::exported_key(stem, &exported)
            {
                by_dir.entry(dir).or_default().insert(k);
            }
        }
        if let Some((dir, _)) = by_dir.iter().max_by(|a, b| a.1.len().cmp(&b.1.len()).then(b.0.cmp(a.0))) {
            let prefix = format!("{dir}/");
            let inside: Vec<WalkedFile> = files
                .iter()
                .filter(|f| f.rel.strip_prefix(&prefix).is_some_and(|r| !r.contains('/')))
                .cloned()
                .collect();
            candidates.extend(named_candidate(&inside, &source_dirs).map(|mut c| {
                for r in &mut c.rules {
                    r.0 = r.0.replace("/**/", "/");
                }
                c.layout = c.layout.replace("/**/", "/");
                c
            }));
        }
    }
    candidates.extend(named_candidate(files, &source_dirs));
    // No document at all, but a package that exports components (a Storybook-only design system): the exports
    // are the components, their sources and stories what there is to serve.
    if candidates.is_empty() && api.as_ref().is_some_and(|a| !a.components.is_empty()) {
        candidates.push(Candidate {
            layout: "no documents: components from the package's exports (examples from their stories)".into(),
            rules: vec![],
            keys: exported.clone(),
            beside_docs: false,
            changelog: vec![],
        });
    }
    let scores: Vec<usize> = candidates.iter().map(|c| score(c, &exported)).collect();
    // The most exported components documented; then the fewest other pages; then the first (folders first).
    let best_index = (0..candidates.len()).max_by(|&a, &b| {
        let others = |i: usize| candidates[i].keys.len() - scores[i];
        scores[a].cmp(&scores[b]).then(others(b).cmp(&others(a))).then(b.cmp(&a))
    })?;
    // A narrower rule documenting nearly the same components (within 5 %) with under half the other pages wins
    // over a catch-all one: Chakra's `content/docs/components/{component}.mdx` over `content/**/{component}.mdx`,
    // whose charts page would answer for `tooltip`.
    let others = |i: usize| candidates[i].keys.len() - scores[i];
    let best_index = (0..candidates.len())
        .filter(|&i| scores[i] * 20 >= scores[best_index] * 19 && others(i) * 2 < others(best_index))
        .min_by_key(|&i| (others(i), std::cmp::Reverse(scores[i])))
        .unwrap_or(best_index);
    let ambiguous = ambiguity(&candidates, &scores, best_index, &exported);
    let best = candidates.swap_remove(best_index);
    // Untagged documents: Chinese or English by a sample.
    let untagged: Vec<String> = best.rules.iter().filter(|r| r.1.is_none()).flat_map(|r| r.2.clone()).collect();
    let base = if mostly_chinese(repo, &untagged) { "zh-CN" } else { "en-US" };
    let docs: Vec<DocRule> = best
        .rules
        .iter()
        .map(|(p, tag, _)| DocRule { pattern: p.clone(), lang: tag.clone().unwrap_or_else(|| base.into()) })
        .collect();
    let documents = best.rules.iter().map(|r| r.2.len()).sum();

    // Sources: the directory whose child folders are named like the most documented components.
    let mut score: BTreeMap<&str, BTreeSet<String>> = BTreeMap::new();
    for f in files.iter().filter(|f| is_source(&f.rel) && !is_hidden(&f.rel)) {
        let mut start = 0;
        let rel = f.rel.as_str();
        while let Some(i) = rel[start..].find('/') {
            let end = start + i;
            let child = &rel[start..end];
            let key = component_key(child);
            if best.keys.contains(&key) {
                score.entry(rel[..start].trim_end_matches('/')).or_default().insert(key);
            }
            start = end + 1;
        }
    }
    let source_dir = score
        .iter()
        .max_by(|a, b| a.1.len().cmp(&b.1.len()).then(b.0.len().cmp(&a.0.len())))
        .filter(|(_, keys)| !keys.is_empty())
        .map(|(d, _)| d.to_string())
        .or_else(|| {
            // No folder is named like a document: the usual places of component folders, when they hold sources.
            ["src/components", "components", "src"].into_iter().map(String::from).find(|d| {
                files.iter().any(|f| {
                    is_source(&f.rel)
                        && f.rel.strip_prefix(d.as_str()).is_some_and(|r| r.starts_with('/') && r[1..].contains('/'))
                })
            })
        });
    // With an API, the folders holding the exported components' folders (a component spread over two packages
    // gives two).
    let api_dirs = api.as_ref().map(export_parents).unwrap_or_default();
    let source_dir = api_dirs.first().cloned().or(source_dir);
    let source_dirs: Vec<String> = if api_dirs.is_empty() { source_dir.iter().cloned().collect() } else { api_dirs };
    let patterns: Vec<String> = source_dirs.iter().map(|d| join(d, "{component}/**")).collect();
    let sources = files
        .iter()
        .filter(|f| {
            source_dirs.iter().any(|d| {
                let prefix = if d.is_empty() { String::new() } else { format!("{d}/") };
                f.rel.strip_prefix(&prefix).is_some_and(|r| r.contains('/'))
            })
        })
        .count();

    // Changelog: the documented folder, else the root's, else the sources' package's.
    let mut changelog: Vec<ChangelogRule> = Vec::new();
    let log_rule = |path: &str, tag: Option<String>| {
        let lang = tag
            .unwrap_or_else(|| if mostly_chinese(repo, &[path.to_string()]) { "zh-CN".into() } else { "en-US".into() });
        ChangelogRule { path: path.to_string(), lang }
    };
    for (path, tag) in &best.changelog {
        changelog.push(log_rule(path, tag.clone()));
    }
    if changelog.is_empty() {
        let mut dirs = vec![String::new()];
        if let Some(d) = &source_dir {
            // The package above the sources (`packages/ui` for `packages/ui/src/components`).
            let mut dir = d.as_str();
            loop {
                if files.iter().any(|f| f.rel == join(dir, "package.json")) && !dir.is_empty() {
                    dirs.push(dir.to_string());
                    break;
                }
                match dir.rsplit_once('/') {
                    Some((parent, _)) => dir = parent,
                    None => break,
                }
            }
        }
        for dir in dirs {
            for f in files {
                let Some(file) =
                    (if dir.is_empty() { Some(f.rel.as_str()) } else { f.rel.strip_prefix(&format!("{dir}/")) })
                else {
                    continue;
                };
                if file.contains('/') {
                    continue;
                }
                let Some((rest, "md")) = ext_of(file) else { continue };
                let Some(tail) = rest.get(..9).filter(|h| h.eq_ignore_ascii_case("changelog")).map(|_| &rest[9..])
                else {
                    continue;
                };
                let tag = match tail {
                    "" => None,
                    t => match lang_tag(&t[1..]) {
                        Some(l) if t.starts_with(['.', '-']) => Some(l),
                        _ => continue,
                    },
                };
                changelog.push(log_rule(&f.rel, tag));
            }
            if !changelog.is_empty() {
                break;
            }
        }
        // Still none: a `changelog[.<lang>].md` page anywhere in the design-system package (Vant's
        // `packages/vant/docs/markdown/changelog.en-US.md`), the shallowest, outside component folders.
        if changelog.is_empty()
            && let Some(pkg) = &api
        {
            let prefix = if pkg.package.dir.is_empty() { String::new() } else { format!("{}/", pkg.package.dir) };
            let mut found: Vec<(usize, String, Option<String>)> = Vec::new();
            for f in files.iter().filter(|f| !is_hidden(&f.rel) && f.rel.starts_with(&prefix)) {
                let file = f.rel.rsplit('/').next().unwrap_or("");
                let Some((rest, "md" | "mdx")) = ext_of(file) else { continue };
                let (stem, tag) = rest.split_once(['.', '-']).map_or((rest, None), |(s, t)| (s, Some(t)));
                if !stem.eq_ignore_ascii_case("changelog")
                    || f.rel.split('/').any(|p| exported.contains(&component_key(p)))
                {
                    continue;
                }
                let tag = match tag.map(lang_tag) {
                    None => None,
                    Some(Some(t)) => Some(t),
                    Some(None) => continue,
                };
                found.push((f.rel.matches('/').count(), f.rel.clone(), tag));
            }
            if let Some(depth) = found.iter().map(|f| f.0).min() {
                for (_, path, tag) in found.into_iter().filter(|f| f.0 == depth) {
                    changelog.push(log_rule(&path, tag));
                }
            }
        }
        // Still none: pages whose front matter says `changelog: true` (a site's release notes: Arco's
        // `site/docs/version_v2.en-US.md`), one per language tag.
        if changelog.is_empty() {
            let mut langs = BTreeSet::new();
            for f in super::page_subject::changelog_pages(repo, files).into_iter().filter(|f| !is_hidden(&f.rel)) {
                let file = f.rel.rsplit('/').next().unwrap_or(&f.rel);
                let tag = file.rsplit('.').nth(1).and_then(lang_tag);
                if langs.insert(tag.clone()) {
                    changelog.push(log_rule(&f.rel, tag));
                }
            }
        }
        // The untagged one first, as documents.
        changelog.sort_by_key(|r| r.path.len());
    }
    let changelogs = changelog.len();
    // Each component's own changelog beside its sources, whether or not the set has one.
    let mut with_logs: BTreeSet<String> = best.keys.clone();
    with_logs.extend(exported.iter().cloned());
    let own_logs = super::own_changelogs::detect(files, &patterns, &with_logs, base);
    let own_patterns: Vec<crate::config::Pattern> = own_logs.iter().filter_map(|r| r.per_component()).collect();
    let component_changelogs = files
        .iter()
        .filter_map(|f| own_patterns.iter().find_map(|p| p.capture(&f.rel)))
        .map(component_key)
        .collect::<BTreeSet<_>>()
        .len();
    let (name, mut notes) = package_components(repo, files, source_dir.as_deref(), &best.keys);
    let per_package: Vec<&str> = match &source_dir {
        Some(d) if changelog.is_empty() => files
            .iter()
            .map(|f| f.rel.as_str())
            .filter(|rel| {
                rel.strip_prefix(d.as_str())
                    .and_then(|r| r.strip_prefix('/'))
                    .and_then(|r| r.split_once('/'))
                    .is_some_and(|(folder, file)| {
                        best.keys.contains(&component_key(folder)) && file.to_ascii_lowercase().starts_with("changelog")
                    })
            })
            .filter(|rel| !own_patterns.iter().any(|p| p.capture(rel).is_some()))
            .collect(),
        _ => vec![],
    };
    if !per_package.is_empty() {
        notes.push(format!(
            "per-package changelogs are not read (one changelog per language): {}; name one with [[changelog]] path",
            per_package.join(", ")
        ));
    }
    let mut layout = best.layout.clone();
    if let Some(pkg) = source_dir.as_deref().filter(|d| d.starts_with("packages/")) {
        let name = pkg.split('/').take(2).collect::<Vec<_>>().join("/");
        layout.push_str(&format!("; monorepo: components in {name}"));
    }
    changelog.extend(own_logs);
    let mut config = Config {
        docs,
        changelog,
        sources: SourceRule { patterns, beside_docs: best.beside_docs, not_components: vec![] },
        ..Config::default()
    };
    // Identity from the design-system package: never a private one (a workspace root), its scope kept
    // (`@chakra-ui/react` → `chakra-ui-react`); an unscoped root package is the default name anyway.
    let name = name.or_else(|| {
        let a = api.as_ref().filter(|a| a.imports >= 10 || !a.components.is_empty())?;
        let p = &a.package;
        (!p.private && (p.name.starts_with('@') || !p.dir.is_empty())).then(|| super::api::system_name(&p.name))
    });
    if let Some(a) = api.as_ref().filter(|a| a.imports >= 10 || !a.components.is_empty()) {
        config.system.package = Some(a.package.name.clone());
        config.system.exports_decide = true;
    }
    config.system.name = name;
    let packages = super::api::packages(repo, files);
    let design_system = api.as_ref().map(|a| &a.package);
    let (guide_rules, guides, guide_notes) =
        super::guide_rules::detect_rules(repo, files, &config, &packages, (design_system, &exported), base);
    config.guides = guide_rules;
    notes.extend(guide_notes);
    // Coverage and the guide count from the layout the build will classify with this configuration.
    let (coverage, guides) = match api.as_ref() {
        Some(a) => {
            let subjects = super::page_subject::Subjects::new(repo, a);
            let layout = super::layout::classify_exported(files, &config, Some(&subjects)).layout;
            (super::matching::coverage(&layout, a), layout.guides.len())
        }
        None => (None, guides),
    };
    let components = match &coverage {
        Some(c) => c.documented.len(),
        None => best.keys.len(),
    };
    Some(Detection {
        layout,
        config,
        documents,
        components,
        sources,
        changelogs,
        component_changelogs,
        guides,
        notes,
        api,
        coverage,
        ambiguous,
    })
}

/// How many exported components a candidate documents (all its components when the API lists none).
fn score(c: &Candidate, exported: &BTreeSet<String>) -> usize {
    if exported.is_empty() {
        return c.keys.len();
    }
    c.keys.iter().filter(|k| super::matching::exported_key(k, exported).is_some()).count()
}

/// Why the best candidate cannot be chosen silently (issue 24 item 3): it documents under half of the exported
/// components, or another candidate documenting other components comes within 10 % of it. The message lists the
/// candidates with their counts and the `[[docs]]` lines that choose each.
fn ambiguity(candidates: &[Candidate], scores: &[usize], best: usize, exported: &BTreeSet<String>) -> Option<String> {
    if exported.is_empty() {
        return None;
    }
    let documented = |i: usize| -> BTreeSet<String> {
        candidates[i].keys.iter().filter_map(|k| super::matching::exported_key(k, exported)).collect()
    };
    let mine = documented(best);
    let rivals: Vec<usize> = (0..candidates.len())
        .filter(|&i| i != best && scores[i] * 10 >= scores[best] * 9 && scores[i] > 0)
        // A rule that documents the same components (a wider pattern over the same pages) is no rival.
        .filter(|&i| {
            let theirs = documented(i);
            !(theirs.is_subset(&mine) || mine.is_subset(&theirs))
        })
        .collect();
    let under_half = scores[best] * 2 < exported.len();
    if !under_half && rivals.is_empty() {
        return None;
    }
    let mut out = vec![if under_half {
        format!(
            "the best document layout documents only {} of the {} exported components (under half)",
            scores[best],
            exported.len()
        )
    } else {
        "two document layouts document different components within 10 % of each other".to_string()
    }];
    for i in std::iter::once(best).chain(rivals) {
        let c = &candidates[i];
        out.push(format!("  {}: {} of {} exported components", c.layout, scores[i], exported.len()));
        for (pattern, tag, _) in &c.rules {
            out.push(format!("    [[docs]] pattern = \"{pattern}\" lang = \"{}\"", tag.as_deref().unwrap_or("en-US")));
        }
    }
    out.push(format!(
        "  choose one: write these lines into {} (build --print-config prints a starting point)",
        crate::config::CONFIG_FILE
    ));
    Some(out.join("\n"))
}

/// The folders holding the exported components' folders, most components first (`components`,
/// `packages/react/src/components`; a logic package's `packages/foundation` too); only folders holding at least
/// two of them, or a tenth.
fn export_parents(api: &super::api::Api) -> Vec<String> {
    let mut parents: BTreeMap<String, usize> = BTreeMap::new();
    for e in &api.components {
        for d in &e.dirs {
            let parent = d.rsplit_once('/').map_or("", |(p, _)| p);
            *parents.entry(parent.to_string()).or_default() += 1;
        }
    }
    let min = (api.components.len() / 10).max(2);
    let mut out: Vec<(String, usize)> = parents.into_iter().filter(|(_, n)| *n >= min).collect();
    out.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    out.into_iter().map(|(d, _)| d).collect()
}

/// A monorepo whose component folders are packages (`packages/button/package.json`, trial item 13): the system
/// name, when the root package is private (or absent) and every component package has the same npm scope
/// (`@mono/button`, `@mono/tooltip` → `mono`, not the private root's `mono-root`); and a note when their versions
/// differ (the build takes the version of one of them: `[system] version` chooses).
fn package_components(
    repo: &Path,
    files: &[WalkedFile],
    source_dir: Option<&str>,
    keys: &BTreeSet<String>,
) -> (Option<String>, Vec<String>) {
    let read = |dir: &str| -> Option<serde_json::Value> {
        serde_json::from_str(&super::text::read_to_string(repo.join(dir).join("package.json")).ok()?).ok()
    };
    let Some(d) = source_dir else { return (None, vec![]) };
    let mut packages: Vec<(String, Option<String>, Option<String>)> = Vec::new(); // dir, name, version
    for f in files {
        let Some(folder) =
            f.rel.strip_prefix(d).and_then(|r| r.strip_prefix('/')).and_then(|r| r.strip_suffix("/package.json"))
        else {
            continue;
        };
        if folder.contains('/') || !keys.contains(&component_key(folder)) {
            continue;
        }
        let dir = join(d, folder);
        let Some(value) = read(&dir) else { continue };
        let field = |k: &str| value.get(k).and_then(|v| v.as_str()).map(str::to_string);
        packages.push((dir, field("name"), field("version")));
    }
    if packages.len() < 2 {
        return (None, vec![]);
    }
    let root_private = read("").is_none_or(|v| v.get("private").and_then(|p| p.as_bool()).unwrap_or(false));
    let scopes: BTreeSet<Option<&str>> = packages
        .iter()
        .map(|(_, n, _)| n.as_deref().and_then(|n| n.strip_prefix('@')).and_then(|n| n.split_once('/')).map(|s| s.0))
        .collect();
    let name = match scopes.into_iter().collect::<Vec<_>>()[..] {
        [Some(scope)] if root_private => Some(scope.to_string()),
        _ => None,
    };
    let mut notes = Vec::new();
    if let Some(n) = &name {
        notes.push(format!(
            "name: {n} (the npm scope of the {} component packages; the root package is private)",
            packages.len()
        ));
    }
    let versions: BTreeSet<&str> = packages.iter().filter_map(|p| p.2.as_deref()).collect();
    if versions.len() > 1 {
        let list: Vec<String> =
            packages.iter().filter_map(|(dir, _, v)| Some(format!("{dir} {}", v.as_deref()?))).collect();
        notes.push(format!(
            "version: the component packages differ ({}); the build takes one package's: set [system] version to choose",
            list.join(", ")
        ));
    }
    (name, notes)
}

/// What a repository holds, for the error when no component is found: counts of documents, sources and changelog
/// files, the directories with the most documents, and how to configure.
pub fn inventory(files: &[WalkedFile]) -> String {
    let ext = |f: &WalkedFile| ext_of(f.rel.rsplit('/').next().unwrap_or("")).map_or("", |(_, e)| e).to_string();
    let docs: Vec<&WalkedFile> = files.iter().filter(|f| DOC_EXT.contains(&ext(f).as_str())).collect();
    let sources = files.iter().filter(|f| SOURCE_EXT.contains(&ext(f).as_str())).count();
    let logs = docs
        .iter()
        .filter(|f| f.rel.rsplit('/').next().unwrap_or("").to_ascii_lowercase().starts_with("changelog"))
        .count();
    let mut dirs: BTreeMap<&str, usize> = BTreeMap::new();
    for f in &docs {
        *dirs.entry(f.rel.rsplit_once('/').map_or(".", |(d, _)| d)).or_default() += 1;
    }
    let mut dirs: Vec<(&str, usize)> = dirs.into_iter().collect();
    dirs.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let top: Vec<String> = dirs.iter().take(5).map(|(d, n)| format!("{d} ({n})")).collect();
    format!(
        "found: {} files, {} Markdown/MDX documents{}, {} source files, {} changelog files.\n\
         to configure: pass --preset ({}) or write {} with [[docs]] rules such as \
         `pattern = \"docs/{{component}}.md\"` (see docs/config.md; `build --print-config` prints a starting point)",
        files.len(),
        docs.len(),
        if top.is_empty() { String::new() } else { format!(" (most in {})", top.join(", ")) },
        sources,
        logs,
        // From the list itself, so a new preset is never left out of this message (`dumi` once was).
        crate::config::PRESETS.join(", "),
        crate::config::CONFIG_FILE
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn language_tags_are_normalised() {
        assert_eq!(lang_tag("en").as_deref(), Some("en-US"));
        assert_eq!(lang_tag("zh").as_deref(), Some("zh-CN"));
        assert_eq!(lang_tag("en-US").as_deref(), Some("en-US"));
        assert_eq!(lang_tag("pt-BR").as_deref(), Some("pt-BR"));
        assert_eq!(lang_tag("stories"), None);
        assert_eq!(lang_tag("d"), None);
    }

    #[test]
    fn folder_forms() {
        let f = |d: &str, file: &str| folder_form(d, file).map(|f| (f.file, f.tag));
        assert_eq!(f("button", "index.md"), Some(("index.md".into(), None)));
        assert_eq!(f("button", "index.en.md"), Some(("index.en.md".into(), Some("en-US".into()))));
        assert_eq!(f("button", "index-en-US.md"), Some(("index-en-US.md".into(), Some("en-US".into()))));
        assert_eq!(f("Button", "README.md"), Some(("README.md".into(), None)));
        assert_eq!(f("Card", "Card.mdx"), Some(("{component}.mdx".into(), None)));
        assert_eq!(f("Card", "Other.mdx"), None);
        assert_eq!(f("Card", "index.ts"), None);
    }
}
