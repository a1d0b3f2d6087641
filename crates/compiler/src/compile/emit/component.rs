//! One component compiled: its documents (in parallel), cards, props tables and their counts, the `doc/<lang>`
//! frames (a translation compressed against its original) and the token maps' frames. The files it owns are
//! attached by the schedule.

use std::collections::BTreeMap;

use rayon::prelude::*;

use super::assemble::bundle_file_name;
use super::doc::{compile_doc, compile_story_doc};
use super::load::read_changelog;
use super::{CompiledComponent, CompiledDoc, CompiledFile, Ctx, Pending};
use crate::bundle::writer::Frame;
use crate::compile::changelog;
use crate::compile::diagnostic::{Diagnostic, Stage};
use crate::compile::layout::ComponentPlan;
use crate::model::*;
use crate::search::index::{self as search_index, UnitDraft};
use crate::view::{PropRow, card, name_entry, prop_line, props_text};

/// The statement that imports component `name` in the document's code blocks: the first `import { … } from '…'`
/// line naming it (`DatePicker` for `date-picker`); `None` when no line names it.
pub(super) fn import_statement(name: &str, blocks: &[CodeBlockMeta], text: &str) -> Option<String> {
    let key = component_key(name);
    blocks
        .iter()
        .filter_map(|b| text.get(b.start_byte as usize..b.end_byte as usize))
        .flat_map(str::lines)
        .map(str::trim)
        .filter(|l| l.starts_with("import ") && l.contains(" from "))
        .find(|l| {
            let names = l.split(" from ").next().unwrap_or("");
            names
                .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
                .any(|n| !n.is_empty() && component_key(n) == key)
        })
        .map(str::to_string)
}

/// Compiles component `key`'s documents, cards and props (stage 3; the files it owns are attached by the
/// caller), reporting into `ctx`.
pub(super) fn compile_component(
    ctx: Ctx,
    key: &str,
    plan: &ComponentPlan,
    files: &BTreeMap<&str, CompiledFile>,
) -> Pending {
    let mut docs = Vec::new();
    let mut deps = Vec::new();
    let mut frames = Vec::new();
    let mut units = Vec::new();
    let mut maps = TokenMaps::new();
    // A component's documents (one per language) compile in parallel too: the largest component would otherwise
    // be the last task of the build.
    // The sources' props tables, which `@interface Name` lines of the documents point to.
    let mut typescript = source_props(key, plan, files);
    let typescript_names: Vec<String> = typescript.iter().map(|t| t.name.clone()).collect();
    let mut compiled: Vec<Option<CompiledDoc>> = plan
        .docs
        .par_iter()
        .map(|(lang, f)| {
            let c = compile_doc(&ctx, key, &plan.name, lang, f, &typescript_names);
            ctx.progress.inc(1);
            c
        })
        .collect();
    // No document, but stories: a page saying so, which the stories join (issue 25: they were dropped).
    if plan.docs.is_empty() && !plan.guide {
        compiled.push(compile_story_doc(&ctx, key, &plan.name));
    }
    let compiled: Vec<CompiledDoc> = compiled.into_iter().flatten().collect();
    frames.extend(doc_frames(&ctx, &compiled));
    let mut props: Vec<PropsTable> = Vec::new();
    let mut row_lines: Vec<Vec<u32>> = Vec::new();
    for mut c in compiled {
        docs.push(c.meta);
        frames.extend(c.frames);
        units.extend(c.units);
        maps.extend(std::mem::take(&mut c.maps));
        props.append(&mut c.props);
        row_lines.append(&mut c.row_lines);
        deps.append(&mut c.deps);
    }
    let metas: Vec<FileMeta> =
        plan.files.iter().filter_map(|f| files.get(f.rel.as_str())).map(|c| c.meta.clone()).collect();
    // The documents' tables win; the sources' types are kept beside them for `diff` (format 7).
    if props.is_empty() {
        props = std::mem::take(&mut typescript);
    } else if !typescript.is_empty() {
        match Frame::new(keys::PROPS_TYPESCRIPT, &typescript) {
            Ok(fr) => frames.push(fr),
            Err(e) => ctx.report(Diagnostic::new(plan.name.clone(), Stage::Props, e.to_string())),
        }
    }
    // Each prop's declaration and its `prop` answer row counted (format 12): the documents' tables, then the
    // sources' types kept beside them.
    if !props.is_empty() {
        let sites = prop_sites(&ctx, props.iter().chain(&typescript), &row_lines, files);
        match Frame::new(keys::PROP_SITES, &sites) {
            Ok(fr) => frames.push(fr),
            Err(e) => ctx.report(Diagnostic::new(plan.name.clone(), Stage::Props, e.to_string())),
        }
    }
    units.extend(search_index::props_units(key, &plan.name, &props, &ctx.tokens));
    for doc in &mut docs {
        let own: Vec<PropsTable> = props
            .iter()
            .filter(|t| t.origin == PropsOrigin::Typescript || t.lang.as_deref() == Some(doc.lang.as_str()))
            .cloned()
            .collect();
        let card_map = ctx.tokens.map(&card(&plan.name, doc, &metas, &own));
        doc.card_tokens = card_map.total();
        maps.insert(keys::card(&doc.lang), card_map);
        maps.insert(keys::props_text(&doc.lang), ctx.tokens.map(&props_text(&plan.name, &own)));
    }
    // A component with only sources (no document: Chakra's `InputGroup`, the shared folders' `_shared`) serves its
    // sources' props tables in the set's default language (format 14), so their token map is stored under it.
    if docs.is_empty() && !props.is_empty() {
        maps.insert(keys::props_text(ctx.default_lang), ctx.tokens.map(&props_text(&plan.name, &props)));
    }
    if !props.is_empty() {
        // Each table's and row's JSON as a props answer carries it, counted exactly (format 9): the reader lists
        // rows by these instead of an upper bound (trial finding 4).
        let count = |json: serde_json::Result<String>| json.map_or(u32::MAX / 4, |j| ctx.tokens.count(&j));
        let counts: Vec<PropsTokens> = props
            .iter()
            .map(|t| PropsTokens {
                head: count(serde_json::to_string(&PropsTable { props: vec![], ..t.clone() })),
                rows: t.props.iter().map(|p| count(serde_json::to_string(p))).collect(),
            })
            .collect();
        for frame in [Frame::new(keys::PROPS, &props), Frame::new(keys::PROPS_TOKENS, &counts)] {
            match frame {
                Ok(fr) => frames.push(fr),
                Err(e) => ctx.report(Diagnostic::new(plan.name.clone(), Stage::Props, e.to_string())),
            }
        }
    }
    let primary = docs.iter().find(|d| d.lang == ctx.default_lang).or(docs.first());
    let entry = ComponentEntry {
        key: key.to_string(),
        name: plan.name.clone(),
        title: primary.and_then(|d| d.title.clone()),
        brief: primary.and_then(|d| d.brief.clone()),
        docs: docs
            .iter()
            .map(|d| DocSummary {
                lang: d.lang.clone(),
                lines: d.lines,
                code_blocks: d.code_blocks.len() as u32,
                tokens: d.tokens,
                view_tokens: d.view_tokens,
                title: d.title.clone(),
                brief: d.brief.clone(),
                generated: d.generated,
            })
            .collect(),
        files: metas.len() as u32,
        files_tokens: 0, // counted once the set's system and version are known (see `count_lists`)
        files_json_tokens: 0,
        file_row_tokens: vec![],
        bundle: bundle_file_name(key),
        guide: plan.guide,
    };
    let changelogs = own_changelogs(&ctx, key, plan, &mut units);
    let meta = ComponentMeta { key: key.to_string(), name: plan.name.clone(), docs, files: metas, changelogs };
    let diagnostics = ctx.into_diagnostics().into_iter().collect();
    let component = CompiledComponent { key: key.to_string(), entry, meta, frames, units, owned: vec![], diagnostics };
    Pending { component, maps, deps }
}

/// The component's own changelogs (issue 24 item 4): each file's release entries, and their search units added to
/// `units` (read from the file, whose text the component's files already store). An unreadable one is reported.
fn own_changelogs(ctx: &Ctx, key: &str, plan: &ComponentPlan, units: &mut Vec<UnitDraft>) -> Vec<ComponentChangelog> {
    let mut out = Vec::new();
    for (lang, f) in &plan.changelogs {
        let Some(text) = read_changelog(ctx, f) else { continue };
        let found = changelog::releases(&text);
        if found.is_empty() {
            let message = "a component changelog with no release heading (`## 1.2.3`): served as a file only";
            ctx.report(Diagnostic::note(f.rel.clone(), Stage::Layout, message));
        }
        units.extend(search_index::release_units(key, lang, &f.rel, &text, &found, &[], &ctx.tokens));
        let releases = found.into_iter().map(|r| r.meta).collect();
        out.push(ComponentChangelog { lang: lang.clone(), path: f.rel.clone(), releases });
    }
    out
}

/// The `doc/<lang>` frames of a component's documents (format 8): the default language's document (else the
/// first) on its own, every other language's compressed with it as zstd dictionary ([`Frame::with_dictionary`]):
/// a translation repeats its original's code blocks, tables and prop names, stored once this way (Semi: 1,059,610
/// → 843,550 bytes of documents). Reading a translation decompresses the original too, then the translation
/// mostly as copies from it (Semi's `table` in en-US: 102 µs, its zh-CN original alone 85 µs). A frame that cannot
/// be made is reported, as any frame.
fn doc_frames(ctx: &Ctx, docs: &[CompiledDoc]) -> Vec<Frame> {
    let base = docs.iter().position(|d| d.meta.lang == ctx.default_lang).unwrap_or(0);
    let Some(original) = docs.get(base) else { return Vec::new() };
    let original_key = keys::doc(&original.meta.lang);
    // What a frame holds: the text, or (format 9) its view as lead and then the hidden spans.
    let dict = Frame::raw(original.lead.as_ref().map_or(original.text.as_str(), |(s, _)| s.as_str()));
    let made: Vec<(usize, std::io::Result<Frame>)> = docs
        .par_iter()
        .enumerate()
        .map(|(i, d)| {
            let key = keys::doc(&d.meta.lang);
            let frame = match (&dict, &d.lead) {
                (Ok(raw), Some((_, lead))) if i == base => Frame::with_lead(key, raw, lead.clone(), None),
                (Ok(raw), None) if i == base => Frame::from_raw(key, raw),
                (Ok(dict), Some((text, lead))) => Frame::raw(text.as_str())
                    .and_then(|raw| Frame::with_lead(key, &raw, lead.clone(), Some((&original_key, dict)))),
                (Ok(raw), None) => Frame::with_dictionary(key, d.text.as_str(), &original_key, raw),
                (Err(e), _) => Err(std::io::Error::other(e.to_string())),
            };
            (i, frame)
        })
        .collect();
    made.into_iter()
        .filter_map(|(i, frame)| {
            frame
                .map_err(|e| ctx.report(Diagnostic::new(docs[i].meta.path.clone(), Stage::Markdown, e.to_string())))
                .ok()
        })
        .collect()
}

/// The token maps' frames (format 9): a `tokens/<text key>` frame for each map of at least
/// [`crate::model::OWN_FRAME_SEGMENTS`] segments (a lookup decodes the map of the text it serves only), the others
/// together in the `tokens` frame (small maps compress together: one frame per map made Semi's bundles 2.2 %
/// larger).
pub(super) fn token_frames(maps: &TokenMaps) -> impl Iterator<Item = std::io::Result<Frame>> + '_ {
    let own = |m: &TokenMap| m.tokens.len() >= crate::model::OWN_FRAME_SEGMENTS;
    let shared: TokenMaps = maps.iter().filter(|(_, m)| !own(m)).map(|(k, m)| (k.clone(), m.clone())).collect();
    std::iter::once(Frame::new(keys::TOKENS, &shared))
        .chain(maps.iter().filter(move |(_, m)| own(m)).map(|(key, map)| Frame::new(keys::tokens(key), map)))
}

/// The props tables of a component without API tables in its documents: the `XxxProps` types of its sources
/// (Blueprint's way), only those named after the component when some are (a folder of several components, such as
/// Blueprint's `forms/`, lists the same sources for each).
fn source_props(key: &str, plan: &ComponentPlan, files: &BTreeMap<&str, CompiledFile>) -> Vec<PropsTable> {
    let all: Vec<&PropsTable> =
        plan.files.iter().filter_map(|f| files.get(f.rel.as_str())).flat_map(|c| &c.props).collect();
    let named: Vec<&PropsTable> = all.iter().copied().filter(|t| component_key(&t.name).starts_with(key)).collect();
    if named.is_empty() { all } else { named }.into_iter().cloned().collect()
}

/// The [`TableSites`] of `tables`: each TypeScript prop's line, in its table's file or else in the file of the
/// extended type it was merged in from (found among the compiled files' member lines), each document row's line
/// in the document as written (`row_lines`, by table, for the documents' tables that come first), and the exact
/// tokens of its `prop` answer row as text and JSON (rendered with the reader's [`prop_line`] and [`PropRow`]).
fn prop_sites<'a>(
    ctx: &Ctx,
    tables: impl Iterator<Item = &'a PropsTable>,
    row_lines: &[Vec<u32>],
    files: &BTreeMap<&str, CompiledFile>,
) -> Vec<TableSites> {
    let own = |path: &str, table: &str, prop: &str| {
        files.get(path).and_then(|f| f.prop_lines.get(&format!("{table}.{prop}")).copied())
    };
    let inherited = |t: &PropsTable, prop: &str| {
        t.extends.iter().find_map(|e| {
            let key = format!("{e}.{prop}");
            files.iter().find_map(|(path, f)| f.prop_lines.get(&key).map(|&l| (path.to_string(), l)))
        })
    };
    tables
        .enumerate()
        .map(|(i, t)| TableSites {
            rows: t
                .props
                .iter()
                .enumerate()
                .map(|(r, p)| {
                    let (path, line) = match t.origin {
                        PropsOrigin::Document => (None, row_lines.get(i).and_then(|l| l.get(r)).copied().unwrap_or(0)),
                        PropsOrigin::Typescript => match own(&t.path, &t.name, &p.name) {
                            Some(l) => (None, l),
                            None => inherited(t, &p.name).map_or((None, 0), |(path, l)| (Some(path), l)),
                        },
                    };
                    let row = PropRow::new(t, p, path.as_deref(), line);
                    let json = serde_json::to_string(&row).map_or(u32::MAX / 4, |j| ctx.tokens.count(&j));
                    let mut short = row.clone();
                    short.prop.description = None;
                    PropSite {
                        path,
                        line,
                        text_tokens: ctx.tokens.count(&prop_line(&row)),
                        short_tokens: ctx.tokens.count(&prop_line(&short)),
                        json_tokens: json,
                        name_tokens: ctx.tokens.count(&name_entry(&p.name)),
                    }
                })
                .collect(),
        })
        .collect()
}
