//! `diff <component> <v1> <v2>`: what changed in one component between two installed versions: props added, removed
//! and changed (type, default, optional, deprecation), functions added and removed, and the changelog releases after
//! v1 up to v2 whose entries mention the component. Built from stored metadata only (no parsing, no tokenizing).
//!
//! Budget: the text is cut on whole lines at `max_tokens` **bytes**, a bound that needs no tokenizer (every o200k or
//! cl100k token is at least one byte), so the answer never exceeds `max_tokens` tokens; a cut answer says how many
//! lines it left out.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use crate::model::{PropsOrigin, keys};
use crate::read::{BundleSet, LookupError};

/// One prop that changed: `table.prop` and its old and new description line.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct PropChange {
    /// `Table.prop`, e.g. `ButtonProps.size`.
    pub name: String,
    /// Before (`type = default`, `optional`, `deprecated`), absent when added.
    pub before: Option<String>,
    /// After, absent when removed.
    pub after: Option<String>,
}

/// What changed in a component between two versions.
#[derive(Debug, Clone, Serialize)]
pub struct Changes {
    /// Design system.
    pub system: String,
    /// Component (display name in the newer version).
    pub component: String,
    /// Older version.
    pub from: String,
    /// Newer version.
    pub to: String,
    /// Props added, removed or changed, by name.
    pub props: Vec<PropChange>,
    /// Qualified names of functions added.
    pub functions_added: Vec<String>,
    /// Qualified names of functions removed.
    pub functions_removed: Vec<String>,
    /// Changelog releases after `from` up to `to` that mention the component: (version, matching lines).
    pub changelog: Vec<(String, Vec<String>)>,
    /// Only the changelog was compared (`changelog --component --since`): the text has no props or functions.
    #[serde(skip)]
    pub changelog_only: bool,
}

fn describe(p: &crate::model::Prop) -> String {
    let mut s = p.type_text.clone();
    if let Some(d) = &p.default {
        s.push_str(&format!(" = {d}"));
    }
    if !p.optional {
        s.push_str(" (required)");
    }
    if p.deprecated {
        s.push_str(" (deprecated)");
    }
    s
}

/// Props by `Table.prop` (TypeScript tables, else the document's in `lang`, default: the set's default language).
fn props(set: &BundleSet, component: &str, lang: Option<&str>) -> Result<BTreeMap<String, String>, LookupError> {
    let (bundle, _) = set.component_meta(component)?;
    let tables = set.props_of(&bundle)?;
    let ts = tables.iter().any(|t| t.origin == PropsOrigin::Typescript);
    let lang = Some(lang.unwrap_or(&set.manifest().default_lang));
    let mut out = BTreeMap::new();
    for t in tables.iter().filter(|t| {
        if ts { t.origin == PropsOrigin::Typescript } else { lang.is_none_or(|l| t.lang.as_deref() == Some(l)) }
    }) {
        for p in &t.props {
            out.entry(format!("{}.{}", t.name, p.name)).or_insert_with(|| describe(p));
        }
    }
    Ok(out)
}

fn functions(set: &BundleSet, component: &str) -> Result<BTreeSet<String>, LookupError> {
    let mut out = BTreeSet::new();
    for f in set.files(component)?.files.into_iter().filter(|f| f.functions > 0) {
        for func in set.functions(&f.path)? {
            out.insert(func.qualified);
        }
    }
    Ok(out)
}

/// Whether `needle` occurs in `text` as a whole word (`table` in "Table: fix", not in "stable" or "tables").
fn names_word(text: &str, needle: &str) -> bool {
    let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    text.match_indices(needle)
        .any(|(i, _)| !word(text[..i].chars().next_back()) && !word(text[i + needle.len()..].chars().next()))
}

fn parse(v: &str) -> Option<semver::Version> {
    semver::Version::parse(v.trim().trim_start_matches('v')).ok()
}

/// Releases of `set`'s changelog (in `lang`, else its first language) with versions in `(from, to]` whose lines
/// mention `component` (its name or key, case-insensitive).
fn changelog(
    set: &BundleSet,
    lang: Option<&str>,
    from: &str,
    to: &str,
    component: &str,
) -> Result<Vec<(String, Vec<String>)>, LookupError> {
    let Some(entry) = set.manifest().changelog.as_ref() else { return Ok(vec![]) };
    let (Some(from), Some(to)) = (parse(from), parse(to)) else { return Ok(vec![]) };
    let bundle = set.bundle(&entry.bundle)?;
    let meta: crate::model::ChangelogMeta = bundle.get(keys::CHANGELOG)?;
    let Some(l) =
        meta.langs.iter().find(|l| lang.is_some_and(|x| l.summary.lang.eq_ignore_ascii_case(x))).or(meta.langs.first())
    else {
        return Ok(vec![]);
    };
    let mut lines: Vec<String> = Vec::new();
    for p in &l.pages {
        let text: String = bundle.get(&keys::page(&l.summary.lang, p.number))?;
        lines.extend(text.lines().map(str::to_string));
    }
    let needles = [component.to_lowercase(), crate::model::component_key(component)];
    let mut out = Vec::new();
    for r in &l.releases {
        let Some(v) = parse(&r.version) else { continue };
        if v <= from || v > to {
            continue;
        }
        let body = lines.get(r.start_line as usize..(r.end_line as usize).min(lines.len())).unwrap_or(&[]);
        let hits: Vec<String> = body
            .iter()
            .filter(|line| {
                let low = line.to_lowercase();
                needles.iter().any(|n| names_word(&low, n))
            })
            .map(|line| line.trim().to_string())
            .collect();
        if !hits.is_empty() {
            out.push((r.version.clone(), hits));
        }
    }
    Ok(out)
}

/// `r`, or the empty value when the component is not in that version (added or removed between the two).
fn or_empty<T: Default>(r: Result<T, LookupError>) -> Result<T, LookupError> {
    match r {
        Err(LookupError::UnknownComponent { .. }) => Ok(T::default()),
        other => other,
    }
}

/// Compares `component` in `old` and `new` (two versions of one system).
///
/// # Errors
/// The component is in neither version; a damaged bundle.
pub fn changes(old: &BundleSet, new: &BundleSet, component: &str, lang: Option<&str>) -> Result<Changes, LookupError> {
    let name = new.component(component).or_else(|_| old.component(component))?.name.clone();
    let (p_old, p_new) = (or_empty(props(old, component, lang))?, or_empty(props(new, component, lang))?);
    let mut prop_changes = Vec::new();
    for k in p_old.keys().chain(p_new.keys()).collect::<BTreeSet<_>>() {
        let (b, a) = (p_old.get(k), p_new.get(k));
        if b != a {
            prop_changes.push(PropChange { name: k.clone(), before: b.cloned(), after: a.cloned() });
        }
    }
    let (f_old, f_new) = (or_empty(functions(old, component))?, or_empty(functions(new, component))?);
    Ok(Changes {
        system: new.manifest().system.clone(),
        component: name.clone(),
        from: old.manifest().version.clone(),
        to: new.manifest().version.clone(),
        props: prop_changes,
        functions_added: f_new.difference(&f_old).cloned().collect(),
        functions_removed: f_old.difference(&f_new).cloned().collect(),
        changelog: changelog(new, lang, &old.manifest().version, &new.manifest().version, &name)?,
        changelog_only: false,
    })
}

/// `changelog --component X --since V`: the changelog lines of `set`'s releases after `since` that name `component`,
/// as [`Changes`] with no props or functions.
///
/// # Errors
/// An unknown component (with the closest names); a damaged bundle.
pub fn changelog_since(
    set: &BundleSet,
    component: &str,
    since: &str,
    lang: Option<&str>,
) -> Result<Changes, LookupError> {
    let name = set.component(component)?.name.clone();
    let version = set.manifest().version.clone();
    Ok(Changes {
        system: set.manifest().system.clone(),
        changelog: changelog(set, lang, since, &version, &name)?,
        component: name,
        from: since.trim_start_matches('v').to_string(),
        to: version,
        props: vec![],
        functions_added: vec![],
        functions_removed: vec![],
        changelog_only: true,
    })
}

impl Changes {
    /// The text form, cut on whole lines at `max_tokens` bytes (see the module docs).
    pub fn render(&self, max_tokens: u32) -> String {
        let mut lines = vec![format!("[{} · {}: {} → {}]", self.system, self.component, self.from, self.to)];
        if !self.changelog_only {
            self.render_code(&mut lines);
        }
        lines.push(format!("## Changelog ({} releases mention it)", self.changelog.len()));
        for (v, hits) in &self.changelog {
            lines.push(format!("### {v}"));
            lines.extend(hits.iter().cloned());
        }
        let cap = max_tokens as usize;
        let mut out = String::new();
        for (i, line) in lines.iter().enumerate() {
            let note = format!("… {} more lines (raise --max-tokens)", lines.len() - i);
            if out.len() + line.len() + 1 + note.len() + 1 > cap {
                out.push_str(&note);
                return out;
            }
            out.push_str(line);
            out.push('\n');
        }
        out.trim_end().to_string()
    }

    /// The props and functions sections.
    fn render_code(&self, lines: &mut Vec<String>) {
        lines.push(format!("## Props ({} changed)", self.props.len()));
        for p in &self.props {
            lines.push(match (&p.before, &p.after) {
                (None, Some(a)) => format!("+ {}: {a}", p.name),
                (Some(b), None) => format!("- {}: {b}", p.name),
                (Some(b), Some(a)) => format!("~ {}: {b} → {a}", p.name),
                (None, None) => continue,
            });
        }
        lines.push(format!("## Functions (+{} −{})", self.functions_added.len(), self.functions_removed.len()));
        lines.extend(self.functions_added.iter().map(|f| format!("+ {f}")));
        lines.extend(self.functions_removed.iter().map(|f| format!("- {f}")));
    }
}

/// Both sets of `system` for a diff, from a library.
///
/// # Errors
/// As [`crate::read::Library::select`].
pub fn select_pair(
    library: &crate::read::Library,
    system: Option<&str>,
    v1: &str,
    v2: &str,
) -> Result<(std::sync::Arc<BundleSet>, std::sync::Arc<BundleSet>), LookupError> {
    Ok((library.select(system, Some(v1))?, library.select(system, Some(v2))?))
}
