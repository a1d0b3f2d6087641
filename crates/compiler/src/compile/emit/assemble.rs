//! Stage 4: the manifest (statistics, languages, version, the token counts of the list answers) from the compiled
//! units, and the bundles' file names.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::publish::Spool;
use super::units::Unit;
use super::{
    CompiledChangelog, CompiledComponent, CompiledSet, LazyCounter, PackedFile, SpooledChangelog, SpooledComponent,
};
use crate::compile::cache::Cache;
use crate::compile::diagnostic::Diagnostic;
use crate::compile::layout::{Layout, SHARED};
use crate::compile::stamp::{ResolvedVersion, resolve_version};
use crate::config::{CONFIG_FILE, Config, check_name, package_json};
use crate::model::*;
use crate::search::index::PackedUnits;
use crate::version;

/// What stage 4 (the manifest) reads besides the compiled units.
pub(super) struct Assembly<'a> {
    pub(super) repo: &'a Path,
    pub(super) walked: &'a [crate::compile::walk::WalkedFile],
    pub(super) layout: &'a Layout,
    pub(super) config: &'a Config,
    pub(super) default_lang: String,
    pub(super) cache: Option<&'a Cache>,
    pub(super) tokens: &'a LazyCounter,
}

/// Stage 4: the manifest (statistics, languages, version, list counts) and the bundles' writers, from the
/// compiled components and changelog.
pub(super) fn assemble(
    a: Assembly,
    components: Vec<SpooledComponent>,
    changelog: SpooledChangelog,
    spool: Spool,
    diagnostics: &mut Vec<Diagnostic>,
) -> anyhow::Result<CompiledSet> {
    let Assembly { repo, walked, layout, config, default_lang, cache, tokens } = a;
    let mut stats = BuildStats::default();
    // Search units in a fixed order: documents by component and language, functions by path, then the changelog.
    let mut units: Vec<PackedUnits> = Vec::new();
    let mut owned: Vec<PackedFile> = Vec::new();
    let mut components = components;
    for c in &mut components {
        units.push(std::mem::take(&mut c.units));
        owned.append(&mut c.owned);
    }
    owned.sort_by(|a, b| a.meta.path.cmp(&b.meta.path));
    let mut file_owners = Vec::new();
    for file in owned {
        units.push(file.units);
        stats.files += 1;
        stats.source_bytes += file.meta.bytes;
        if file.meta.kind == FileKind::Source {
            stats.sources += 1;
        }
        stats.skeletons += u32::from(file.meta.skeleton.is_some());
        stats.functions += file.meta.functions;
        file_owners.push(FileOwner { path: file.meta.path.clone(), component: file.meta.owner.clone() });
    }

    let mut entries = Vec::new();
    let mut shared_entry = None;
    let mut bundles = Vec::new();
    let mut file_lists: BTreeMap<String, Vec<FileMeta>> = BTreeMap::new();
    for SpooledComponent { component: CompiledComponent { key, entry, meta, .. }, bundle, .. } in components {
        for d in &meta.docs {
            stats.documents += 1;
            stats.code_blocks += d.code_blocks.len() as u32;
            stats.source_bytes += u64::from(d.bytes);
            stats.raw_tokens += u64::from(d.tokens);
            stats.view_tokens += u64::from(d.view_tokens);
        }
        stats.component_changelogs += meta.changelogs.len() as u32;
        stats.component_releases += meta.changelogs.iter().map(|c| c.releases.len() as u32).sum::<u32>();
        file_lists.insert(key.clone(), meta.files);
        if key == SHARED {
            shared_entry = Some(entry);
        } else {
            entries.push(entry);
        }
        bundles.push((key, bundle));
    }
    let SpooledChangelog { changelog: CompiledChangelog { meta: changelog_meta, .. }, bundle, units: changelog_units } =
        changelog;
    if let Some(c) = &changelog_meta {
        for l in &c.langs {
            stats.raw_tokens += u64::from(l.summary.tokens);
            stats.view_tokens += l.pages.first().map_or(0, |p| u64::from(p.tokens));
        }
    }
    // The newest release by SemVer (a prerelease below its release), else the first heading of the file.
    let releases = || changelog_meta.iter().flat_map(|c| c.langs.iter().flat_map(|l| l.releases.iter()));
    let newest = releases()
        .filter_map(|r| Some((version::parse(&r.version)?, r)))
        .max_by(|a, b| a.0.cmp(&b.0))
        .map(|(_, r)| r)
        .or_else(|| changelog_meta.as_ref().and_then(|c| c.langs.iter().find_map(|l| l.releases.first())))
        .map(|r| r.version.clone());
    let (pkg_name, _) = package_json(repo);
    let system = config.system.name.clone().or(pkg_name).unwrap_or_else(|| {
        repo.canonicalize()
            .ok()
            .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
            .unwrap_or_else(|| "design-system".into())
    });
    let mut langs: Vec<String> = entries.iter().flat_map(|e| e.docs.iter().map(|d| d.lang.clone())).collect();
    if let Some(c) = &changelog_meta {
        langs.extend(c.langs.iter().map(|l| l.summary.lang.clone()));
    }
    langs.sort();
    langs.dedup();
    let changelog_entry = changelog_meta.as_ref().map(|c| ChangelogEntry {
        bundle: "changelog.bundle".into(),
        langs: c.langs.iter().map(|l| l.summary.clone()).collect(),
    });
    units.push(changelog_units);
    let ResolvedVersion { version, source: version_source, diagnostics: version_diags } =
        resolve_version(config, repo, layout.package.as_deref(), newest.as_deref());
    diagnostics.extend(version_diags);
    check_name("system name", &system).map_err(|e| anyhow::anyhow!("{e}; set [system] name in {CONFIG_FILE}"))?;
    check_name("version", &version).map_err(|e| anyhow::anyhow!("{e}; set [system] version or --set-version"))?;
    let manifest = Manifest {
        format_version: crate::bundle::format::FORMAT_VERSION,
        system,
        version,
        built_by: format!("mydesign-docs {}", env!("CARGO_PKG_VERSION")),
        encoding: config.encoding.clone(),
        default_lang,
        langs,
        thresholds: config.thresholds.clone(),
        components: entries,
        shared: shared_entry,
        files: file_owners,
        changelog: changelog_entry,
        bundles: vec![],
        stats,
        search: None,
        list_tokens: vec![],
        list_json_tokens: vec![],
        list_row_tokens: vec![],
        package: config.system.package.clone().or_else(|| package_full_name(repo)),
        source: config.system.source.clone(),
        build_id: 0,
        // The rule `tokens.rs` cut every token map by (`budget::cut_points` + `split_segment`).
        cut_rule: crate::bundle::format::CUT_RULE,
    };
    crate::compile::timing::timing("stage 4: manifest");
    let manifest = count_lists(manifest, &file_lists, tokens, cache);
    crate::compile::timing::timing("stage 4: list counts");
    let design_tokens =
        super::design_tokens::compile(walked, layout, config, (&manifest.default_lang, tokens), diagnostics);
    crate::compile::timing::timing("stage 4: design tokens");
    Ok(CompiledSet {
        manifest,
        components: bundles,
        changelog: bundle,
        search: units,
        spool,
        version_source,
        design_tokens,
    })
}

/// `name` of the repository's `package.json`, scope kept (`@douyinfe/semi-ui`): what projects depend on.
fn package_full_name(repo: &Path) -> Option<String> {
    let text = crate::compile::text::read_to_string(repo.join("package.json")).ok()?;
    let value: serde_json::Value = serde_json::from_str(&text).ok()?;
    value.get("name")?.as_str().map(str::to_string).filter(|n| !n.is_empty())
}

/// Stores the token counts of the list answers (`list_components` per language, and with `component` per
/// component), rendered for MCP clients by the reader's own code: lists are built from the manifest at lookup time,
/// and the reader cannot count.
fn count_lists(
    mut manifest: Manifest,
    file_lists: &BTreeMap<String, Vec<FileMeta>>,
    tokens: &LazyCounter,
    cache: Option<&Cache>,
) -> Manifest {
    use crate::read::{ComponentsView, FilesView, ListKind, Served};
    use crate::render::Render;
    // The counts depend on nothing but the manifest so far and the file lists: reused when both are unchanged.
    let key = cache.and_then(|_| {
        let mut h = xxhash_rust::xxh3::Xxh3::new();
        h.update(&rmp_serde::to_vec(&manifest).ok()?);
        h.update(&rmp_serde::to_vec(file_lists).ok()?);
        Some(h.digest())
    });
    let unit = Unit::new(cache, "lists", key);
    if let Some(counts) = unit.get::<ListCounts>(|_| None) {
        let entries = manifest.components.iter_mut().chain(manifest.shared.as_mut());
        for (entry, (text, json, rows)) in entries.zip(counts.files) {
            (entry.files_tokens, entry.files_json_tokens, entry.file_row_tokens) = (text, json, rows);
        }
        (manifest.list_tokens, manifest.list_json_tokens) = (counts.list, counts.list_json);
        manifest.list_row_tokens = counts.list_rows;
        return manifest;
    }
    // Otherwise each text is counted, unless the last build counted the same text (one changed document changes
    // the component lists, not the other components' file lists).
    let memo_for = format!("{} {}", env!("CARGO_PKG_VERSION"), manifest.encoding);
    let previous: BTreeMap<(u64, u64), u32> = cache
        .and_then(|c| c.previous::<ListCounts>("lists"))
        .filter(|p| p.memo_for == memo_for)
        .map(|p| p.memo.into_iter().collect())
        .unwrap_or_default();
    let mut memo = Vec::new();
    let mut count = |text: String| {
        let h = xxhash_rust::xxh3::xxh3_128(text.as_bytes());
        let hash = ((h >> 64) as u64, h as u64);
        let n = previous.get(&hash).copied().unwrap_or_else(|| tokens.count(&text));
        memo.push((hash, n));
        n
    };
    let served = Served { system: manifest.system.clone(), version: manifest.version.clone(), note: None };
    let entries = manifest.components.iter_mut().chain(manifest.shared.as_mut());
    for entry in entries {
        let files = file_lists.get(&entry.key).cloned().unwrap_or_default();
        let width = crate::render::column(files.iter().map(|f| f.path.chars().count()));
        entry.file_row_tokens = files
            .iter()
            .map(|f| row_tokens(&mut count, crate::render::file_row_line(f, width), serde_json::to_string(f)))
            .collect();
        let view = FilesView {
            served: served.clone(),
            component: entry.name.clone(),
            tokens: 0,
            files,
            part: Default::default(),
        };
        entry.files_tokens = count(view.text());
        entry.files_json_tokens = count(view.json());
    }
    let mut list_rows = Vec::new();
    let (list_tokens, list_json_tokens) = manifest
        .langs
        .iter()
        .map(|lang| {
            let view = ComponentsView::new(&manifest, lang.clone());
            // The component list's rows, then the guide list's (format 14), each padded to its own list's widest.
            let guides = ComponentsView::of_kind(&manifest, lang.clone(), ListKind::Guide);
            let mut rows = Vec::new();
            for list in [&view, &guides] {
                let width = crate::render::column(list.components.iter().map(|c| c.name.chars().count()));
                for c in &list.components {
                    let line = crate::render::component_row_line(c, lang, width);
                    rows.push(row_tokens(&mut count, line, serde_json::to_string(c)));
                }
            }
            list_rows.push((lang.clone(), rows));
            ((lang.clone(), count(view.text())), (lang.clone(), count(view.json())))
        })
        .unzip();
    (manifest.list_tokens, manifest.list_json_tokens) = (list_tokens, list_json_tokens);
    manifest.list_row_tokens = list_rows;
    if unit.is_cached() {
        let files: Vec<(u32, u32, Vec<u32>)> = manifest
            .components
            .iter()
            .chain(manifest.shared.as_ref())
            .map(|e| (e.files_tokens, e.files_json_tokens, e.file_row_tokens.clone()))
            .collect();
        memo.sort_unstable();
        memo.dedup();
        let counts = ListCounts {
            files,
            list: manifest.list_tokens.clone(),
            list_json: manifest.list_json_tokens.clone(),
            list_rows: manifest.list_row_tokens.clone(),
            memo_for,
            memo,
        };
        unit.put(vec![], &counts);
    }
    manifest
}

/// A list row's tokens in its larger form: its text `line` (padded to the whole list's widest name, the most a cut
/// list pads it) or its `json` object with the comma that follows it, each counted by `count`.
fn row_tokens(count: &mut dyn FnMut(String) -> u32, line: String, json: serde_json::Result<String>) -> u32 {
    count(line).max(json.map_or(0, |j| count(format!("{j},"))))
}

/// The list counts the cache keeps (unit `lists`): the manifest's, and every text counted, by its xxh3-128, so a
/// build whose manifest changed counts only the list texts that changed.
#[derive(Serialize, Deserialize)]
struct ListCounts {
    /// Per entry (components, then `_shared`): (text, JSON) tokens of its file list, and each of its rows'.
    files: Vec<(u32, u32, Vec<u32>)>,
    /// Per language: tokens of the component list's text.
    list: Vec<(String, u32)>,
    /// Per language: tokens of the component list's JSON.
    list_json: Vec<(String, u32)>,
    /// Per language: tokens of each row of the component list (`Manifest::list_row_tokens`).
    list_rows: Vec<(String, Vec<u32>)>,
    /// The tool's version and the encoding the memo's counts are of.
    memo_for: String,
    /// (xxh3-128 of a text as two halves, its tokens), sorted.
    memo: Vec<((u64, u64), u32)>,
}

/// File names of the set's own bundles, which no component may take.
const RESERVED: [&str; 3] = ["manifest", "changelog", "search"];

/// File name of a component's bundle: the key when it is plain ASCII, at most 200 bytes (so the name and its
/// temporary name stay within the filesystem's 255) and not one of the set's own bundle names, else a hash of it.
pub(super) fn bundle_file_name(key: &str) -> String {
    if !key.is_empty()
        && key.len() <= 200
        && !RESERVED.contains(&key)
        && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    {
        format!("{key}.bundle")
    } else {
        format!("c-{:016x}.bundle", xxhash_rust::xxh3::xxh3_64(key.as_bytes()))
    }
}
