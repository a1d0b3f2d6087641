//! What changed in one component between two versions of a design system (`component_changes` over MCP, `diff` and
//! `changelog --component --since` on the command line): props added, removed and changed (type, default,
//! optional, deprecation), functions added and removed, and the changelog lines of the releases after the older
//! version up to the newer one that name the component. Built from stored metadata only: no parsing, no tokenizing.
//!
//! **Budget.** The answer is a list of rows (one per prop change, function or changelog line) served like the
//! other lists ([`crate::read::ListPart`]): rows are computed from metadata, so they have no stored token counts,
//! and each is bounded by its bytes (every o200k or cl100k token is at least one byte) in its text form and in its
//! JSON form, whichever is longer, plus its release heading when it starts one. Rows are kept while their bounds
//! fit `max_tokens − ENVELOPE_TOKENS`; the header, section headings, footer and JSON envelope stay under
//! [`crate::budget::ENVELOPE_TOKENS`] (`tests/it/sweep.rs` tokenizes every part at budgets from 300 up). A cut
//! answer says which rows it served and gives the call (with its cursor) that continues; a single row longer than
//! the whole budget is served in pieces ([`RowPiece`], said in the header), the cursor resuming inside the row, so
//! the parts serve every row whole.
//! The size an answer states (`tokens`, "≤ N tokens" in its header) bounds the whole answer in its largest form:
//! the rows' bounds plus [`bound`] of everything else (the cursor counted a token per three digits).
//!
//! **Which props.** A component's props are its documents' API tables when it has them (in the language asked
//! for, else the set's default), else its `XxxProps` TypeScript types. Beside API tables the compiler keeps the
//! TypeScript types (`props-typescript`, format 7): the props they show changed and the documents' tables do not
//! follow the documents' rows (named by their interface: `TagProps.shape`). Every answer says which source each
//! version's props came from ([`PropsSources`]).

use std::collections::{BTreeMap, BTreeSet};

use schemars::JsonSchema;
use serde::Serialize;

use crate::budget::{BudgetError, Cursor, Request, bound};
use crate::model::{PropsOrigin, keys};
use crate::read::{BundleSet, ListPart, LookupError, Paging, Served};
use crate::render::{Arg, Render, Surface, list_cut, plural, served, thousands, tokens_word};

/// One prop that changed: `Table.prop` and its old and new description.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, JsonSchema)]
pub struct PropChange {
    /// `Table.prop`, e.g. `ButtonProps.size`.
    pub name: String,
    /// Before (`type = default`, `(required)`, `(deprecated)`), absent when added.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub before: Option<String>,
    /// After, absent when removed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub after: Option<String>,
}

/// A changelog release that names the component, with the lines that do.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, JsonSchema)]
pub struct Release {
    /// Version as its heading writes it.
    pub version: String,
    /// The lines of the release that name the component (every non-blank line of a component's own changelog),
    /// trimmed.
    pub lines: Vec<String>,
    /// True when this part starts inside the release (its first lines were in the previous part).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub continued: bool,
}

/// The whole comparison of one component between two versions, before it is cut to a budget ([`Changes::page`]).
#[derive(Debug, Clone)]
pub struct Changes {
    /// The set answering: the newer one (its system, version and note).
    pub served: Served,
    /// Component (display name in the newer version, else the older).
    pub component: String,
    /// Component key, as cursors name it.
    key: String,
    /// Older version.
    pub from: String,
    /// Newer version (the version served).
    pub to: String,
    /// The language asked for (props of documents and the changelog), if any.
    pub lang: Option<String>,
    /// Props added, removed or changed, by name.
    pub props: Vec<PropChange>,
    /// Where each version's props were read from (none when only the changelog was compared).
    pub props_source: Option<PropsSources>,
    /// Qualified names of functions added.
    pub functions_added: Vec<String>,
    /// Qualified names of functions removed.
    pub functions_removed: Vec<String>,
    /// Changelog releases after `from` up to `to` that mention the component, newest first.
    pub changelog: Vec<Release>,
    /// Only the changelog was compared (`changelog --component --since`): no props or functions.
    pub changelog_only: bool,
}

/// Where the props of one version were read from.
#[derive(Debug, Clone, Copy, Default, Serialize, PartialEq, Eq, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum PropsSource {
    /// The component's documents' API tables, in [`PropsSources::lang`] (no TypeScript types kept beside them: the
    /// sources have none, or the set is of format 6).
    Documents,
    /// The documents' API tables, and the TypeScript types kept beside them (format 7) for the props whose change
    /// shows only there.
    DocumentsAndTypescript,
    /// Its `XxxProps` TypeScript types (its documents have no API tables).
    Typescript,
    /// No props tables (or the component is not in that version).
    #[default]
    None,
}

impl PropsSource {
    fn words(self, lang: &str) -> String {
        match self {
            PropsSource::Documents => format!("the documents' API tables ({lang})"),
            PropsSource::DocumentsAndTypescript => {
                format!("the documents' API tables ({lang}) and, for props changed only there, TypeScript types")
            }
            PropsSource::Typescript => "TypeScript types".into(),
            PropsSource::None => "no props tables".into(),
        }
    }
}

/// Where the props compared came from, in each version.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, JsonSchema)]
pub struct PropsSources {
    /// In the older version.
    pub from: PropsSource,
    /// In the newer version.
    pub to: PropsSource,
    /// Language of the documents' tables compared.
    pub lang: String,
}

impl PropsSources {
    /// In words, for the text form: `from the documents' API tables (en-US)`, or each version's source when they
    /// differ (`3.4.0 from …, 3.5.0 from …`).
    pub fn note(&self, from: &str, to: &str) -> String {
        if self.from == self.to {
            format!("from {}", self.from.words(&self.lang))
        } else {
            format!("{from} from {}, {to} from {}", self.from.words(&self.lang), self.to.words(&self.lang))
        }
    }
}

/// [`Changes`] cut to a budget: the rows of one part, the totals of the whole, and the cursor of the next part.
#[derive(Debug, Serialize, JsonSchema)]
pub struct ChangesView {
    /// The set answering (the newer version).
    #[serde(flatten)]
    pub served: Served,
    /// Component.
    pub component: String,
    /// Older version.
    pub from: String,
    /// Newer version (= `version`).
    pub to: String,
    /// Language asked for, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lang: Option<String>,
    /// Only the changelog was compared (no props or functions).
    pub changelog_only: bool,
    /// Upper bound of the tokens of this whole answer, in its largest form (text or JSON; see the module docs).
    pub tokens: u32,
    /// Where each version's props came from (absent when only the changelog was compared).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub props_source: Option<PropsSources>,
    /// Props that differ in all: added, removed and changed.
    pub total_props: u32,
    /// Of them, props added (no `before`); left out when 0.
    #[serde(skip_serializing_if = "is_zero", default)]
    pub total_props_added: u32,
    /// Of them, props removed (no `after`); left out when 0.
    #[serde(skip_serializing_if = "is_zero", default)]
    pub total_props_removed: u32,
    /// Functions added in all.
    pub total_functions_added: u32,
    /// Functions removed in all.
    pub total_functions_removed: u32,
    /// Releases that mention the component, in all.
    pub total_releases: u32,
    /// Props changed (of this part).
    pub props: Vec<PropChange>,
    /// Functions added (of this part).
    pub functions_added: Vec<String>,
    /// Functions removed (of this part).
    pub functions_removed: Vec<String>,
    /// Changelog releases and lines (of this part), newest first.
    pub changelog: Vec<Release>,
    /// A piece of one row too long for the budget, instead of rows: a part that serves a piece serves nothing
    /// else, and its cursor continues the same row where the piece ends (never the next row: nothing is lost).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub piece: Option<RowPiece>,
    /// The piece's release started in an earlier part (text form: `### version (continued)`).
    #[serde(skip)]
    piece_continues_release: bool,
    /// Rows served.
    #[serde(flatten)]
    pub part: ListPart,
}

/// A piece of a row's text line (`+ name: type`, `- fn`, a changelog line), served when the row alone is over the
/// budget: the pieces of a row, in the order the cursors serve them, make its line.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, JsonSchema)]
pub struct RowPiece {
    /// The row, 1-based among all rows of the comparison.
    pub row: u32,
    /// Where the row sits: `props`, `functions_added`, `functions_removed` or `changelog`.
    pub kind: String,
    /// The release, for a changelog line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// Byte offset of this piece in the row's line.
    pub from: u32,
    /// Bytes of the whole line.
    pub bytes: u32,
    /// The piece, exactly as in the line.
    pub text: String,
}

impl RowPiece {
    /// Whether the row's line goes on after this piece.
    pub fn continues(&self) -> bool {
        (self.from as usize + self.text.len()) < self.bytes as usize
    }

    /// The piece's line in the text form: `…` where the row's line goes on before or after it.
    fn line(&self) -> String {
        format!("{}{}{}", if self.from > 0 { "…" } else { "" }, self.text, if self.continues() { "…" } else { "" })
    }
}

/// Tokens of what a [`RowPiece`] adds beside its text, in its larger form: the JSON keys and numbers
/// (`,"piece":{"row":…,"kind":"functions_removed","from":…,"bytes":…,"text":""}`, 84 bytes with 5-digit
/// numbers: 28 by [`bound`]), or the header's words about it and the `…` marks (` · row 12,345 alone is over the
/// budget: bytes 12,345–12,399 of its 12,399 (…), the rest in the next part`, 30 by [`bound`]); the release's
/// version beside it is counted by its bytes.
const PIECE_FIELDS_TOKENS: usize = 30;

impl ChangesView {
    /// Rows in this part (a piece of a row counts as one).
    pub fn rows(&self) -> usize {
        self.props.len()
            + self.functions_added.len()
            + self.functions_removed.len()
            + self.changelog.iter().map(|r| r.lines.len()).sum::<usize>()
            + usize::from(self.piece.is_some())
    }
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

/// One version's props by `Table.prop`: `main` (TypeScript tables when the component has no API tables, else the
/// documents' in `lang`), `typescript` (the TypeScript tables kept beside API tables, format 7), and the source.
#[derive(Debug, Default)]
struct VersionProps {
    main: BTreeMap<String, String>,
    typescript: BTreeMap<String, String>,
    source: PropsSource,
}

/// `tables`' props by `Table.prop` (the first table naming one wins).
fn by_name<'a>(tables: impl Iterator<Item = &'a crate::model::PropsTable>) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for t in tables {
        for p in &t.props {
            out.entry(format!("{}.{}", t.name, p.name)).or_insert_with(|| describe(p));
        }
    }
    out
}

/// The props of `component` in `set` (see [`VersionProps`]).
fn props(set: &BundleSet, component: &str, lang: &str) -> Result<VersionProps, LookupError> {
    let (bundle, _) = set.component_meta(component)?;
    let tables = set.props_of(&bundle)?;
    if tables.iter().any(|t| t.origin == PropsOrigin::Typescript) {
        let main = by_name(tables.iter().filter(|t| t.origin == PropsOrigin::Typescript));
        return Ok(VersionProps { main, typescript: BTreeMap::new(), source: PropsSource::Typescript });
    }
    let docs: Vec<&crate::model::PropsTable> =
        tables.iter().filter(|t| t.lang.as_deref().is_some_and(|l| l.eq_ignore_ascii_case(lang))).collect();
    let kept: Vec<crate::model::PropsTable> = match bundle.get(keys::PROPS_TYPESCRIPT) {
        Ok(t) => t,
        Err(crate::bundle::BundleError::MissingFrame { .. }) => vec![],
        Err(e) => return Err(e.into()),
    };
    let source = match (docs.is_empty(), kept.is_empty()) {
        (true, _) => PropsSource::None,
        (false, true) => PropsSource::Documents,
        (false, false) => PropsSource::DocumentsAndTypescript,
    };
    // Without API tables in `lang` there is nothing to prefer the kept types to: they are the props.
    let (main, typescript) = match source {
        PropsSource::None if !kept.is_empty() => {
            return Ok(VersionProps {
                main: by_name(kept.iter()),
                typescript: BTreeMap::new(),
                source: PropsSource::Typescript,
            });
        }
        _ => (by_name(docs.into_iter()), by_name(kept.iter())),
    };
    Ok(VersionProps { main, typescript, source })
}

/// The props whose description differs between `old` and `new` (added, removed or changed), by name.
fn changed_props(old: &BTreeMap<String, String>, new: &BTreeMap<String, String>) -> Vec<PropChange> {
    let mut out = Vec::new();
    for k in old.keys().chain(new.keys()).collect::<BTreeSet<_>>() {
        let (b, a) = (old.get(k), new.get(k));
        if b != a {
            out.push(PropChange { name: k.clone(), before: b.cloned(), after: a.cloned() });
        }
    }
    out
}

/// A prop's own name: `size` of `Tag.size` or `TagProps.size`.
fn prop_name(qualified: &str) -> &str {
    qualified.rsplit_once('.').map_or(qualified, |(_, p)| p)
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
    !needle.is_empty()
        && text
            .match_indices(needle)
            .any(|(i, _)| !word(text[..i].chars().next_back()) && !word(text[i + needle.len()..].chars().next()))
}

/// Releases of `set`'s changelog (in `lang`, else its first language) with versions in `(from, to]` whose lines
/// mention `component` (its name or key, case-insensitive, as a whole word).
fn changelog(
    set: &BundleSet,
    lang: Option<&str>,
    from: &str,
    to: &str,
    component: &str,
) -> Result<Vec<Release>, LookupError> {
    let (Some(from), Some(to)) = (crate::version::parse(from), crate::version::parse(to)) else { return Ok(vec![]) };
    if let Some(own) = own_changelog(set, lang, &from, component)? {
        return Ok(own);
    }
    let Some(entry) = set.head().changelog.as_ref() else { return Ok(vec![]) };
    let bundle = set.bundle(&entry.bundle)?;
    let meta: crate::model::ChangelogMeta = bundle.get(keys::CHANGELOG)?;
    // Without a language, the set's default one, as every other lookup (trial 7: Semi's zh-CN set answered
    // `changelog --since` from its en-US changelog, the first stored), else the first.
    let want = lang.unwrap_or(&set.head().default_lang);
    let Some(l) = meta.langs.iter().find(|l| l.summary.lang.eq_ignore_ascii_case(want)).or(meta.langs.first()) else {
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
        let Some(v) = crate::version::parse(&r.version) else { continue };
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
            out.push(Release { version: r.version.clone(), lines: hits, continued: false });
        }
    }
    Ok(out)
}

/// The releases after `from` of `component`'s own changelog (issue 24 item 4) in `lang` (else the set's default
/// language, else its first), every non-blank line of each under its heading: the whole entry is about the
/// component. No upper bound: the file is as the set's build read it, and a component package of a monorepo may
/// be versioned past the set (the set takes one package's version). `None` when the component keeps no changelog of its own (its entries are then looked for in
/// the set's changelog by name).
fn own_changelog(
    set: &BundleSet,
    lang: Option<&str>,
    from: &semver::Version,
    component: &str,
) -> Result<Option<Vec<Release>>, LookupError> {
    // A component absent from this version has no entries of its own here (the set's changelog may name it).
    let meta = match set.component_meta(component) {
        Ok((_, meta)) => meta,
        Err(LookupError::UnknownComponent { .. }) => return Ok(None),
        Err(e) => return Err(e),
    };
    let want = lang.unwrap_or(&set.head().default_lang);
    let Some(log) = meta.changelogs.iter().find(|c| c.lang.eq_ignore_ascii_case(want)).or(meta.changelogs.first())
    else {
        return Ok(None);
    };
    let owner = set.file_owner(&log.path)?.unwrap_or_else(|| meta.key.clone());
    let bundle = set.bundle(&set.component(&owner)?.bundle)?;
    let text: String = bundle.get_text(&keys::file(&log.path))?;
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for r in &log.releases {
        let Some(v) = crate::version::parse(&r.version) else { continue };
        if v <= *from {
            continue;
        }
        let body = lines.get(r.start_line as usize..(r.end_line as usize).min(lines.len())).unwrap_or(&[]);
        let kept: Vec<String> = body.iter().map(|l| l.trim()).filter(|l| !l.is_empty()).map(str::to_string).collect();
        out.push(Release { version: r.version.clone(), lines: kept, continued: false });
    }
    Ok(Some(out))
}

/// `r`, or the empty value when the component is not in that version (added or removed between the two).
fn or_empty<T: Default>(r: Result<T, LookupError>) -> Result<T, LookupError> {
    match r {
        Err(LookupError::UnknownComponent { .. }) => Ok(T::default()),
        other => other,
    }
}

/// Compares `component` in `old` and `new` (two versions of one system): props in `lang` (TypeScript tables when
/// the component has them, else its documents' tables), functions, and `new`'s changelog.
///
/// # Errors
/// [`LookupError::ReversedVersions`] when `old` is newer than `new`; the component is in neither version (with the
/// closest names); a damaged bundle.
pub fn changes(old: &BundleSet, new: &BundleSet, component: &str, lang: Option<&str>) -> Result<Changes, LookupError> {
    // `en` is `en-US`, and a language the set does not have is an error: compared in no language, props came out
    // as "0 changed" (a new user's trial).
    let lang = lang.map(|l| new.components_lang(Some(l))).transpose()?;
    let lang = lang.as_deref();
    let (from, to) = (old.head().version.clone(), new.head().version.clone());
    if crate::version::cmp(&from, &to).is_gt() {
        return Err(LookupError::ReversedVersions { component: crate::read::echo(component), from, to });
    }
    let entry = new.component(component).or_else(|_| old.component(component))?;
    let (name, key) = (entry.name.clone(), entry.key.clone());
    let props_lang = lang.unwrap_or(&new.head().default_lang);
    let (p_old, p_new) = (or_empty(props(old, component, props_lang))?, or_empty(props(new, component, props_lang))?);
    let mut prop_changes = changed_props(&p_old.main, &p_new.main);
    // Then the props changed only in the TypeScript types kept beside the documents' tables.
    let shown: BTreeSet<String> = prop_changes.iter().map(|c| prop_name(&c.name).to_string()).collect();
    let in_typescript = changed_props(&p_old.typescript, &p_new.typescript);
    prop_changes.extend(in_typescript.into_iter().filter(|c| !shown.contains(prop_name(&c.name))));
    let (s_old, s_new) = (p_old.source, p_new.source);
    let (f_old, f_new) = (or_empty(functions(old, component))?, or_empty(functions(new, component))?);
    Ok(Changes {
        served: new.served(),
        component: name.clone(),
        key,
        props: prop_changes,
        props_source: Some(PropsSources { from: s_old, to: s_new, lang: props_lang.to_string() }),
        functions_added: f_new.difference(&f_old).cloned().collect(),
        functions_removed: f_old.difference(&f_new).cloned().collect(),
        changelog: changelog(new, lang, &from, &to, &name)?,
        from,
        to,
        lang: lang.map(str::to_string),
        changelog_only: false,
    })
}

/// Compares `component` between versions `from` and `to` (default: the version `library` serves by default) of
/// `system` (required when the library holds several): what `component_changes` and `diff` answer.
///
/// # Errors
/// An unknown system or version (naming those installed), `from` newer than `to`, as [`changes`].
pub fn compare(
    library: &crate::read::Library,
    system: Option<&str>,
    component: &str,
    from: &str,
    to: Option<&str>,
    lang: Option<&str>,
) -> Result<Changes, LookupError> {
    let new = library.select(system, to)?;
    let old = library.select(Some(&new.head().system), Some(from))?;
    changes(&old, &new, component, lang)
}

/// `changelog --component X --since V`: the changelog lines of `set`'s releases after `since` (any version, installed
/// or not) that name `component`, as [`Changes`] with no props or functions.
///
/// # Errors
/// An unknown component (with the closest names); `since` newer than the set ([`LookupError::SinceNewer`]); a
/// damaged bundle.
pub fn changelog_since(
    set: &BundleSet,
    component: &str,
    since: &str,
    lang: Option<&str>,
) -> Result<Changes, LookupError> {
    let entry = set.component(component)?;
    let (name, key) = (entry.name.clone(), entry.key.clone());
    let lang = lang.map(|l| set.components_lang(Some(l))).transpose()?;
    let lang = lang.as_deref();
    let version = set.head().version.clone();
    let bare = since.trim().trim_start_matches(['v', 'V']);
    if crate::version::parse(bare).is_some() && crate::version::cmp(bare, &version).is_gt() {
        return Err(LookupError::SinceNewer { since: bare.to_string(), system: set.head().system.clone(), version });
    }
    Ok(Changes {
        served: set.served(),
        changelog: changelog(set, lang, since, &version, &name)?,
        component: name,
        key,
        from: since.trim().trim_start_matches(['v', 'V']).to_string(),
        to: version,
        lang: lang.map(str::to_string),
        props: vec![],
        props_source: None,
        functions_added: vec![],
        functions_removed: vec![],
        changelog_only: true,
    })
}

/// One row of a comparison, as served.
#[derive(Debug, Clone)]
enum Row {
    Prop(PropChange),
    Added(String),
    Removed(String),
    /// A changelog line of release `.0` (an index into [`Changes::changelog`]).
    Log(usize, String),
}

/// Bytes of `s` as a JSON string, with its separator.
fn json_bytes(s: &str) -> usize {
    s.len() + crate::budget::json_escapes(s) + 3
}

impl Row {
    /// Where the row sits in the structured form.
    fn kind(&self) -> &'static str {
        match self {
            Row::Prop(_) => "props",
            Row::Added(_) => "functions_added",
            Row::Removed(_) => "functions_removed",
            Row::Log(..) => "changelog",
        }
    }

    /// The row's line in the text form.
    fn text(&self) -> String {
        match self {
            Row::Prop(p) => prop_line(p),
            Row::Added(f) => format!("+ {f}"),
            Row::Removed(f) => format!("- {f}"),
            Row::Log(_, line) => line.clone(),
        }
    }

    /// An upper bound of the tokens the row adds to the text form and to the JSON form, whichever is larger: their
    /// bytes (every token is at least one byte).
    fn bound(&self) -> usize {
        let json = match self {
            Row::Prop(p) => {
                json_bytes(&p.name)
                    + p.before.as_deref().map_or(0, |b| json_bytes(b) + 10)
                    + p.after.as_deref().map_or(0, |a| json_bytes(a) + 9)
                    + 10
            }
            Row::Added(f) | Row::Removed(f) | Row::Log(_, f) => json_bytes(f),
        };
        json.max(self.text().len() + 1)
    }
}

/// The text line of a prop change: `+ name: after`, `- name: before`, `~ name: before → after`.
pub fn prop_line(p: &PropChange) -> String {
    match (&p.before, &p.after) {
        (None, Some(a)) => format!("+ {}: {a}", p.name),
        (Some(b), None) => format!("- {}: {b}", p.name),
        (Some(b), Some(a)) => format!("~ {}: {b} → {a}", p.name),
        (None, None) => format!("~ {}", p.name),
    }
}

impl Changes {
    /// Every row, in order: props, functions added, functions removed, changelog lines (newest release first).
    fn rows(&self) -> Vec<Row> {
        let mut rows: Vec<Row> = self.props.iter().cloned().map(Row::Prop).collect();
        rows.extend(self.functions_added.iter().cloned().map(Row::Added));
        rows.extend(self.functions_removed.iter().cloned().map(Row::Removed));
        for (i, r) in self.changelog.iter().enumerate() {
            rows.extend(r.lines.iter().cloned().map(|l| Row::Log(i, l)));
        }
        rows
    }

    /// What a cursor of this comparison continues.
    fn request(&self) -> Request {
        Request::Changes {
            component: self.key.clone(),
            from: self.from.clone(),
            to: self.to.clone(),
            lang: self.lang.clone(),
            changelog_only: self.changelog_only,
        }
    }

    /// The part of the comparison `paging` asks for: from its cursor's row (which must continue this comparison) as
    /// many rows as fit the budget's content room by their bounds, at least one (shortened when alone over the
    /// room), with the cursor of the rest. See the module docs for the bound.
    ///
    /// # Errors
    /// A cursor that is malformed, of another comparison or set, or of another build of this one.
    pub fn page(&self, paging: Paging) -> Result<ChangesView, LookupError> {
        let rows = self.rows();
        let label = format!("{}@{}", self.served.system, self.served.version);
        let request = self.request();
        let lines: Vec<String> = rows.iter().map(Row::text).collect();
        let identity: String = lines.iter().map(|l| l.clone() + "\n").collect();
        // Where each row's line starts in `identity`: a cursor's offset is a byte offset into it, at a row's start
        // or inside a row served in pieces.
        let starts: Vec<usize> = lines
            .iter()
            .scan(0, |at, l| {
                let start = *at;
                *at += l.len() + 1;
                Some(start)
            })
            .collect();
        let (first, inner) = match paging.cursor {
            Some(c) => {
                let cursor = Cursor::decode(c)?;
                cursor.check(&label, &request, &identity)?;
                let offset = cursor.offset as usize;
                let row = starts.partition_point(|&s| s <= offset).saturating_sub(1);
                let inner = offset - starts.get(row).copied().unwrap_or(0);
                match lines.get(row) {
                    Some(line) if inner < line.len().max(1) && line.is_char_boundary(inner) => (row, inner),
                    _ => {
                        let why = "it does not point where a part starts";
                        return Err(BudgetError::Malformed { why: why.into() }.into());
                    }
                }
            }
            None => (0, 0),
        };
        let room = paging.budget.content() as usize;
        let heading = |i: usize| -> usize {
            match rows.get(i) {
                Some(Row::Log(r, _)) => self.changelog[*r].version.len() + 40,
                _ => 0,
            }
        };
        // A piece of row `i` from byte `from` of its line: as much as fits the room (at least one character).
        let piece_of = |i: usize, from: usize, room: usize| -> (RowPiece, usize) {
            let line = &lines[i];
            let release = match &rows[i] {
                Row::Log(r, _) => self.changelog[*r].version.len() + 12,
                _ => 0,
            };
            let fixed = PIECE_FIELDS_TOKENS + release;
            let mut end = from;
            let mut cost = fixed;
            for (j, ch) in line[from..].char_indices() {
                let mut buf = [0u8; 4];
                let c = ch.encode_utf8(&mut buf);
                // Its bytes, what JSON escaping adds, and the text form's `…` marks.
                let add = c.len() + crate::budget::json_escapes(c);
                if cost + add > room && j > 0 {
                    break;
                }
                cost += add;
                end = from + j + c.len();
            }
            let version = match &rows[i] {
                Row::Log(r, _) => Some(self.changelog[*r].version.clone()),
                _ => None,
            };
            let piece = RowPiece {
                row: i as u32 + 1,
                kind: rows[i].kind().to_string(),
                version,
                from: from as u32,
                bytes: line.len() as u32,
                text: line[from..end].to_string(),
            };
            (piece, cost)
        };
        // The rows served from `first` within `room` (the content budget, bytes as tokens), with the unclamped
        // bound of the whole answer.
        let assemble = |room: usize| -> (ChangesView, u32) {
            let mut served: Vec<Row> = Vec::new();
            let mut piece: Option<RowPiece> = None;
            let mut used = 0usize;
            if inner > 0 {
                let (p, cost) = piece_of(first, inner, room);
                used = cost;
                piece = Some(p);
            } else {
                for (i, row) in rows.iter().enumerate().skip(first) {
                    let starts_release =
                        i == first || !matches!((&rows[i - 1], row), (Row::Log(a, _), Row::Log(b, _)) if a == b);
                    let cost = row.bound() + if starts_release { heading(i) } else { 0 };
                    if used + cost <= room {
                        used += cost;
                        served.push(row.clone());
                        continue;
                    }
                    if served.is_empty() {
                        // One row alone over the budget: served in pieces, this part the first.
                        let (p, cost) = piece_of(i, 0, room);
                        used = cost;
                        piece = Some(p);
                    }
                    break;
                }
            }
            // Where the next part starts: inside the row of an unfinished piece, else at the next row.
            let next = match &piece {
                Some(p) if p.continues() => Some(starts[first] + p.from as usize + p.text.len()),
                Some(_) => starts.get(first + 1).copied(),
                None => starts.get(first + served.len()).copied(),
            };
            let mut part = ListPart {
                rows_total: rows.len() as u32,
                first_row: first as u32,
                tokens_exact: false,
                next_cursor: None,
                max_tokens: paging.budget.lowered.then_some(paging.budget.max_tokens),
                terse: false,
            };
            if let Some(offset) = next {
                let (set, text) = (Cursor::set_id(&label), Cursor::text_id(&identity));
                part.next_cursor = Some(Cursor { set, text, request: request.clone(), offset: offset as u32 }.encode());
            }
            let mut view = ChangesView {
                served: self.served.clone(),
                component: self.component.clone(),
                from: self.from.clone(),
                to: self.to.clone(),
                lang: self.lang.clone(),
                changelog_only: self.changelog_only,
                tokens: 0,
                props_source: self.props_source.clone(),
                total_props: self.props.len() as u32,
                total_props_added: self.props.iter().filter(|p| p.before.is_none()).count() as u32,
                total_props_removed: self.props.iter().filter(|p| p.after.is_none()).count() as u32,
                total_functions_added: self.functions_added.len() as u32,
                total_functions_removed: self.functions_removed.len() as u32,
                total_releases: self.changelog.len() as u32,
                props: vec![],
                functions_added: vec![],
                functions_removed: vec![],
                changelog: vec![],
                piece_continues_release: piece.as_ref().is_some_and(|p| p.from > 0)
                    || matches!(rows.get(first), Some(Row::Log(r, _)) if first_of(&rows, first, *r)),
                piece,
                part,
            };
            for row in served {
                match row {
                    Row::Prop(p) => view.props.push(p),
                    Row::Added(f) => view.functions_added.push(f),
                    Row::Removed(f) => view.functions_removed.push(f),
                    Row::Log(r, line) => {
                        let release = &self.changelog[r];
                        match view.changelog.last_mut() {
                            Some(last) if last.version == release.version => last.lines.push(line),
                            _ => {
                                // Only the part's first release can have started in the previous part.
                                let continued = view.changelog.is_empty() && first_of(&rows, first, r);
                                view.changelog.push(Release {
                                    version: release.version.clone(),
                                    lines: vec![line],
                                    continued,
                                })
                            }
                        }
                    }
                }
            }
            let bound = view.whole_bound(used);
            (view, bound)
        };
        // A first part that fits whole by the bound it states is served whole: the rows' room reserves the largest
        // envelope, and a 217-byte row was served in pieces at 400 tokens whose whole answer states 398 (trial 4).
        let whole = paging.cursor.is_none().then(|| assemble(usize::MAX));
        let (mut view, bound) = match whole.filter(|(_, b)| *b <= paging.budget.max_tokens) {
            Some(whole) => whole,
            None => assemble(room),
        };
        view.tokens = bound.min(paging.budget.max_tokens);
        Ok(view)
    }
}

impl ChangesView {
    /// The lines of this part's rows in the text form.
    fn row_lines(&self) -> Vec<String> {
        let mut lines: Vec<String> = self.props.iter().map(prop_line).collect();
        lines.extend(self.functions_added.iter().map(|f| format!("+ {f}")));
        lines.extend(self.functions_removed.iter().map(|f| format!("- {f}")));
        lines.extend(self.changelog.iter().flat_map(|r| r.lines.iter().cloned()));
        lines.extend(self.piece.as_ref().map(RowPiece::line));
        lines
    }

    /// An upper bound of the whole answer's tokens in its largest form (the text for either surface, or the JSON):
    /// `rows` (the bounds of the rows served, which cover both forms of each) plus [`bound`] of the rest, the
    /// cursor counted a token per three digits (exact: it is digits).
    fn whole_bound(&mut self, rows: usize) -> u32 {
        // As many digits as any figure the header may state.
        self.tokens = 999_999;
        let cursor = self.part.next_cursor.clone().unwrap_or_default();
        let rest = |text: &str| -> u32 {
            if cursor.is_empty() {
                return bound(text);
            }
            // A cursor is digits: a token per three, exactly (`budget::envelope_bound`).
            let each = crate::budget::envelope_bound(&cursor);
            bound(&text.replace(&cursor, "")) + text.matches(&cursor).count() as u32 * each
        };
        let mut left: BTreeMap<String, usize> = BTreeMap::new();
        for line in self.row_lines() {
            *left.entry(line).or_default() += 1;
        }
        let text = |surface: Surface| -> u32 {
            let mut left = left.clone();
            let mut sum = 0;
            for line in self.render(surface).lines() {
                match left.get_mut(line) {
                    Some(n) if *n > 0 => *n -= 1,
                    _ => sum += rest(line) + 1,
                }
            }
            sum
        };
        let mut json = serde_json::to_value(&*self).unwrap_or_default();
        for key in ["props", "functions_added", "functions_removed"] {
            json[key] = serde_json::Value::Array(vec![]);
        }
        if let Some(releases) = json["changelog"].as_array_mut() {
            releases.iter_mut().for_each(|r| r["lines"] = serde_json::Value::Array(vec![]));
        }
        if json["piece"].is_object() {
            json["piece"]["text"] = serde_json::Value::String(String::new());
        }
        let envelope = text(Surface::Cli).max(text(Surface::Mcp)).max(rest(&json.to_string()));
        (rows as u32).saturating_add(envelope)
    }
}

/// For `skip_serializing_if`: a count of 0 is left out of the JSON (a changelog-only answer has no props).
fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl ChangesView {
    /// The props that differ, counted by kind: `2 props added, 1 removed, 1 changed` (with `noun`, as the header
    /// writes it; `2 added, 1 removed, 1 changed` without), only the kinds there are; `0 props changed` for none.
    fn props_counts(&self, noun: bool) -> String {
        let (added, removed) = (self.total_props_added, self.total_props_removed);
        let changed = self.total_props.saturating_sub(added).saturating_sub(removed);
        let kinds = [(added, "added"), (removed, "removed"), (changed, "changed")];
        let mut words: Vec<String> = Vec::new();
        for (n, kind) in kinds.into_iter().filter(|(n, _)| *n > 0) {
            match words.is_empty() && noun {
                true => words.push(format!("{} {kind}", plural(n, "prop"))),
                false => words.push(format!("{n} {kind}")),
            }
        }
        match words.is_empty() {
            true if noun => "0 props changed".to_string(),
            true => "0 changed".to_string(),
            false => words.join(", "),
        }
    }
}

impl Render for ChangesView {
    fn render(&self, surface: Surface) -> String {
        let (p, fa, fr) = (self.total_props, self.total_functions_added, self.total_functions_removed);
        let releases = format!(
            "{} {}",
            plural(self.total_releases, "release"),
            if self.total_releases == 1 { "mentions it" } else { "mention it" }
        );
        // Without `--since` the range starts at 0.0.0: every release up to the one served.
        let every = self.from.trim_start_matches(['v', 'V']) == "0.0.0";
        let what = if self.changelog_only && every {
            format!("changelog, all releases up to {} · {releases}", self.to)
        } else if self.changelog_only {
            format!("changelog after {} up to {} · {releases}", self.from, self.to)
        } else {
            format!("{} → {} · {}, functions +{fa} −{fr}, {releases}", self.from, self.to, self.props_counts(true))
        };
        let shortened = match &self.piece {
            Some(p) => format!(
                " · row {} alone is over the budget: bytes {}–{} of its {} (…){}",
                thousands(p.row),
                thousands(p.from + 1),
                thousands(p.from + p.text.len() as u32),
                thousands(p.bytes),
                if p.continues() { ", the rest in the next part" } else { "" }
            ),
            None => String::new(),
        };
        let mut out = format!(
            "[{} · {}: {what} · ≤ {} {}{shortened}]\n",
            served(&self.served),
            self.component,
            thousands(self.tokens),
            tokens_word(self.tokens)
        );
        // Where each section sits among all the rows, and the rows of this part.
        let (a, last) = (self.part.first_row, self.part.next_cursor.is_none());
        let b = a + self.rows() as u32;
        let heading = |out: &mut String, start: u32, end: u32, title: &str, counts: String, note: &str| {
            let overlaps = start < b && end > a;
            let empty_here = start == end && a <= start && (start < b || last);
            if overlaps || empty_here {
                let continued = if a > start && a < end { ", continued" } else { "" };
                out.push_str(&format!("## {title} ({counts}{continued}{note})\n"));
            }
        };
        if !self.changelog_only {
            let source =
                self.props_source.as_ref().map_or(String::new(), |s| format!("; {}", s.note(&self.from, &self.to)));
            heading(&mut out, 0, p, "Props", self.props_counts(false), &source);
            out.extend(self.props.iter().map(|c| prop_line(c) + "\n"));
            heading(&mut out, p, p + fa + fr, "Functions", format!("+{fa} −{fr}"), "");
            out.extend(self.functions_added.iter().map(|f| format!("+ {f}\n")));
            out.extend(self.functions_removed.iter().map(|f| format!("- {f}\n")));
            if let Some(p) = self.piece.as_ref().filter(|p| p.version.is_none()) {
                out.push_str(&(p.line() + "\n"));
            }
        }
        let start = if self.changelog_only { 0 } else { p + fa + fr };
        heading(&mut out, start, self.part.rows_total, "Changelog", releases.clone(), "");
        if self.changelog_only && self.total_releases == 0 && self.part.first_row == 0 {
            // Why nothing: the range, and when it is empty, that it is.
            let range =
                if every { format!("up to {}", self.to) } else { format!("after {} up to {}", self.from, self.to) };
            let why = if crate::version::cmp(self.from.trim_start_matches(['v', 'V']), &self.to).is_ge() {
                format!(" (no release is after {}: it is the version served; name an older one)", self.from)
            } else {
                String::new()
            };
            out.push_str(&format!("No release {range} mentions {}{why}.\n", self.component));
        }
        for r in &self.changelog {
            out.push_str(&format!("### {}{}\n", r.version, if r.continued { " (continued)" } else { "" }));
            out.extend(r.lines.iter().map(|l| format!("{l}\n")));
        }
        if let Some((p, version)) = self.piece.as_ref().and_then(|p| Some((p, p.version.as_ref()?))) {
            let continued = if self.piece_continues_release { " (continued)" } else { "" };
            out.push_str(&format!("### {version}{continued}\n{}\n", p.line()));
        }
        if let Some(cur) = &self.part.next_cursor {
            let c = ("component", Arg::Str(self.component.clone()));
            let lang = self.lang.as_deref();
            let call = if self.changelog_only {
                let args =
                    [("--component", Arg::Str(self.component.clone())), ("--since", Arg::Str(self.from.clone()))];
                surface.resume(&self.served, lang, ("get_changelog", "changelog"), &args, self.part.max_tokens, cur)
            } else {
                let args = [c, ("from", Arg::Str(self.from.clone()))];
                surface.resume(&self.served, lang, ("component_changes", "diff"), &args, self.part.max_tokens, cur)
            };
            out.push_str(&list_cut(&self.part, self.rows(), &call));
        }
        out
    }
}

/// Whether the part starting at row `first` starts inside release `r` (a row of `r` comes before `first`).
fn first_of(rows: &[Row], first: usize, r: usize) -> bool {
    first > 0 && matches!(rows.get(first - 1), Some(Row::Log(x, _)) if *x == r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_words_only() {
        assert!(names_word("- table: fix sorting", "table"));
        assert!(names_word("fix `table` and tag", "tag"));
        assert!(!names_word("stable release", "table"));
        assert!(!names_word("tables are faster", "table"));
        assert!(!names_word("anything", ""));
    }

    #[test]
    fn rows_are_bounded_by_their_longer_form() {
        let p = PropChange { name: "Tag.size".into(), before: Some("'a' | \"b\"".into()), after: None };
        let row = Row::Prop(p);
        assert_eq!(row.text(), "- Tag.size: 'a' | \"b\"");
        // JSON: {"name":"Tag.size","before":"'a' | \"b\""} is 42 bytes (43 with its comma); the text line 21.
        let json = serde_json::to_string(&match &row {
            Row::Prop(p) => p.clone(),
            _ => unreachable!(),
        })
        .unwrap();
        assert_eq!((json.len(), row.text().len()), (42, 21));
        assert_eq!(row.bound(), 45, "name 8 + 3, before 9 + 2 escapes + 3 + 10, braces 10");
    }
}
