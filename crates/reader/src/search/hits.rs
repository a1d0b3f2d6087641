//! The hits of a search: what each ranked group is (its kind, component, section path, lines, tokens, examples) and
//! the call that serves it ([`BundleSet::hit`]), its text ([`BundleSet::hit_text`]), and the list of every hit of a
//! search, the same for every part and budget ([`listed_hits`]).

use std::collections::HashSet;
use std::sync::Arc;

use super::Kind;
use super::UnitInfo;
use super::loaded::{SearchIndex, corrupt};
use super::query::{FollowUp, HIT_EXAMPLES, HitExample, SearchHit};
use super::rank::{Group, Ranked};
use super::sets::{left_out, skipped_entry};
use crate::budget::{Cursor, Request};
use crate::model::{CodeBlockMeta, ComponentMeta, DocMeta, SectionMeta};
use crate::read::{BundleSet, LookupError, Served};
use crate::render::{Arg, Surface, call_arguments};

/// Every hit of a search: all sets' groups (taken out of `parts`), best first (ties: set order), each with its hit
/// (without text) and the index of its set in `parts`. Two parts of one split section that were not neighbours in
/// the ranking have the same follow-up call (the whole section): the better one stands for both. This list is the
/// same for every part and budget: cursors index into it. With `several` sets each hit names its system. A hit of a
/// bundle that cannot be read is left out, and said once per bundle in `skipped`.
///
/// # Errors
/// A hit's bundle that fails otherwise than by being unreadable (see [`left_out`]).
pub(super) fn listed_hits(
    parts: &mut [(&BundleSet, Ranked)],
    several: bool,
    skipped: &mut Vec<String>,
) -> Result<Vec<(usize, Group, SearchHit)>, LookupError> {
    let mut all: Vec<(usize, Group)> = Vec::new();
    for (i, (_, r)) in parts.iter_mut().enumerate() {
        all.extend(std::mem::take(&mut r.groups).into_iter().map(|g| (i, g)));
    }
    all.sort_by(|a, b| b.1.score.total_cmp(&a.1.score).then(a.0.cmp(&b.0)));
    let mut calls = HashSet::new();
    let mut hits: Vec<(usize, Group, SearchHit)> = Vec::new();
    for (i, g) in all {
        let set = parts[i].0;
        // The hit's bundle is opened now (a function's hit is listed from the manifest): a hit is never listed
        // with a call that cannot be answered.
        let readable = |hit: SearchHit| match hit.component.as_deref() {
            Some(c) => set.component_meta(c).map(|_| hit),
            None => Ok(hit),
        };
        let mut hit = match set.hit(&parts[i].1.ix, &g, 0).and_then(readable) {
            Ok(hit) => hit,
            // A damaged component bundle: its hits are left out, said once per bundle.
            Err(e) if left_out(&e, set) => {
                let entry = skipped_entry(&set.hit_source(&parts[i].1.ix, &g), &e);
                if !skipped.contains(&entry) {
                    skipped.push(entry);
                }
                continue;
            }
            Err(e) => return Err(e),
        };
        if several {
            hit.system = Some(set.head().system.clone());
        }
        if calls.insert(hit.follow_up.call.clone()) {
            hits.push((i, g, hit));
        }
    }
    Ok(hits)
}

impl BundleSet {
    /// A hit's details (without its text); `short` 1 lists it shortened (no section path, the best section alone in
    /// the follow-up call of merged sections, and the lines and tokens it states are that section's).
    pub(super) fn hit(&self, ix: &SearchIndex, g: &Group, short: u8) -> Result<SearchHit, LookupError> {
        let src = &ix.meta.sources[g.source as usize];
        let m = self.head();
        let first = &g.units[0];
        let component = if src.component.is_empty() { None } else { Some(self.component(&src.component)?) };
        let lang = (!src.lang.is_empty()).then(|| src.lang.clone());
        let key = src.component.as_str();
        let mut section = Vec::new();
        let mut code_lang = None;
        let mut examples = Vec::new();
        let example = |b: &CodeBlockMeta| {
            b.demo.as_ref().map(|d| HitExample {
                block: b.index,
                path: d.path.clone(),
                title: d.title.clone(),
                beside: b.start_byte == b.end_byte,
            })
        };
        let (mut spans, mut span_tokens): (Vec<(u32, u32)>, u32) = (Vec::new(), 0);
        // (tool, CLI subcommand, tool-specific arguments)
        let (tool, cli, args): (&str, &str, Vec<(&str, Arg)>) = match g.kind {
            Kind::Doc | Kind::Code => {
                let (meta, i) = self.doc_meta(key, &src.lang)?;
                let doc: Option<&DocMeta> = i.map(|i| &meta.docs[i]);
                let sections = doc.map_or(&[][..], |d| d.sections.as_slice());
                let best = &g.units[g.best.min(g.units.len() - 1)];
                section = section_path(sections, best.start_line).into_iter().map(|s| s.title.clone()).collect();
                if g.kind == Kind::Code {
                    let block = doc.and_then(|d| d.code_blocks.get(first.block.saturating_sub(1) as usize));
                    code_lang = block.map(|b| b.lang.clone()).filter(|l| !l.is_empty());
                    examples.extend(block.and_then(example));
                    let args = vec![("component", key.into()), ("index", first.block.into())];
                    ("get_code_block", "code-block", args)
                } else {
                    // The sections the call names: those of the group's units (of the best one alone when
                    // shortened), a section inside another named once, with it.
                    let called = |units: &[UnitInfo]| -> Vec<&SectionMeta> {
                        let mut called: Vec<&SectionMeta> = Vec::new();
                        for u in units {
                            if let Some(s) = section_path(sections, u.start_line).last()
                                && !called.iter().any(|c| c.slug == s.slug)
                            {
                                called.push(s);
                            }
                        }
                        let nested = |s: &SectionMeta| {
                            called
                                .iter()
                                .any(|o| o.slug != s.slug && o.start_line <= s.start_line && s.end_line <= o.end_line)
                        };
                        called.iter().copied().filter(|s| !nested(s)).collect()
                    };
                    let units = if short >= 1 { std::slice::from_ref(best) } else { &g.units[..] };
                    let slugs: Vec<String> = called(units).iter().map(|s| s.slug.clone()).collect();
                    // The hit states (and shows) what its call serves: the group's sections, or the best one alone
                    // when shortened.
                    spans = called(units).iter().map(|s| (s.start_line, s.end_line)).collect();
                    let inside = |b: &&CodeBlockMeta| spans.iter().any(|&(a, z)| a <= b.start_line && b.end_line <= z);
                    examples.extend(
                        doc.map_or(&[][..], |d| d.code_blocks.as_slice())
                            .iter()
                            .filter(inside)
                            .filter_map(example)
                            .take(HIT_EXAMPLES),
                    );
                    // Counted as the call counts what it serves (`BundleSet::doc`: the stored segments of each
                    // section's lines).
                    if !spans.is_empty() {
                        let (bundle, _) = self.component_meta(key)?;
                        let doc_key = crate::model::keys::doc(&src.lang);
                        let text = self.text(&bundle, &doc_key)?;
                        let cuts = self.cuts(&bundle, &doc_key, &text)?;
                        span_tokens =
                            spans.iter().map(|&(a, b)| cuts.tokens(cuts.line_start(a), cuts.line_start(b + 1)).0).sum();
                    }
                    let args = vec![("component", key.into()), ("sections", Arg::List("--section", slugs))];
                    ("component_details", "doc", args)
                }
            }
            Kind::Props => {
                section = vec![first.name.clone()];
                let args = vec![("component", key.into()), ("sections", Arg::List("--section", vec!["props".into()]))];
                ("component_details", "doc", args)
            }
            Kind::Function if first.name.is_empty() => {
                // A source's declarations outside functions (format 13): the unit's lines of its file.
                section = vec![format!("lines {}-{}", first.start_line, g.end_line())];
                let args = vec![
                    ("path", src.path.clone().into()),
                    ("--start-line", first.start_line.into()),
                    ("--end-line", g.end_line().into()),
                ];
                ("get_file_code", "file", args)
            }
            Kind::Function => {
                section = vec![first.name.clone()];
                let args = vec![("path", src.path.clone().into()), ("function", first.name.clone().into())];
                ("get_function_code", "function", args)
            }
            Kind::Changelog if !key.is_empty() => {
                // A component's own changelog: the release's lines of its file.
                let (_, meta) = self.component_meta(key)?;
                let own = meta.changelogs.iter().find(|c| c.path == src.path);
                if let Some(r) = own.and_then(|c| c.releases.iter().find(|r| r.start_line == first.start_line)) {
                    let date = r.date.as_ref().map_or(String::new(), |d| format!(" ({d})"));
                    section = vec![format!("{}{date}", r.version)];
                }
                let args = vec![
                    ("path", src.path.clone().into()),
                    ("--start-line", first.start_line.into()),
                    ("--end-line", g.end_line().into()),
                ];
                ("get_file_code", "file", args)
            }
            Kind::Changelog => {
                let meta = ix.changelog_meta(self)?;
                let cl = meta.langs.iter().find(|l| l.summary.lang == src.lang);
                if let Some(r) = cl.and_then(|l| l.releases.iter().find(|r| r.start_line == first.start_line)) {
                    let date = r.date.as_ref().map_or(String::new(), |d| format!(" ({d})"));
                    section = vec![format!("{}{date}", r.version)];
                }
                let per = m.thresholds.changelog_page_lines.max(1);
                let page = (first.start_line.saturating_sub(1) / per) + 1;
                let mut args = vec![("--page", page.into())];
                // A release inside its page is read from its heading on (a cursor at that line), not from the page's
                // top: a 300-line page cut to the budget left the release in a later part (issue 27's changelog
                // follow-ups).
                let line_in_page = first.start_line - (page - 1) * per;
                if line_in_page > 1
                    && let Some(entry) = self.head().changelog.as_ref()
                {
                    let text = ix.text(self, &entry.bundle, &crate::model::keys::page(&src.lang, page))?;
                    let offset = crate::line_index::LineIndex::new(&text).start(line_in_page) as u32;
                    let request = Request::Changelog { lang: src.lang.clone(), page };
                    let cursor =
                        Cursor { set: Cursor::set_id(&self.label()), text: Cursor::text_id(&text), request, offset };
                    args.push(("--cursor", cursor.encode().into()));
                }
                ("get_changelog", "changelog", args)
            }
        };
        if short > 0 {
            section.clear();
            examples.clear();
        }
        // A shortened hit keeps its structured arguments (the same call as `call`: trial item 4, where a shortened
        // hit's structuredContent lost its `sections`); only the shortest leaves them out (`search_sets`).
        // A file is read in no language (`get_file_code` takes none).
        let call_lang = if tool == "get_file_code" { None } else { lang.as_deref() };
        let follow_up = follow_up(&self.served(), call_lang, tool, cli, &args);
        Ok(SearchHit {
            system: None,
            kind: g.kind,
            guide: component.as_ref().is_some_and(|c| c.guide),
            component: component.map(|c| c.name.clone()),
            document: src.path.clone(),
            lang: lang.clone(),
            section,
            start_line: spans.iter().map(|s| s.0).min().unwrap_or(g.start_line()),
            end_line: spans.iter().map(|s| s.1).max().unwrap_or(g.end_line()),
            code_lang,
            examples,
            score: (g.score * 100.0).round() / 100.0,
            tokens: if spans.is_empty() { g.tokens() } else { span_tokens },
            spans,
            text: None,
            follow_up,
            shortened: short > 0,
        })
    }

    /// The component's meta frame (cached by the set) and the index of its document in `lang`.
    pub(super) fn doc_meta(
        &self,
        component: &str,
        lang: &str,
    ) -> Result<(Arc<ComponentMeta>, Option<usize>), LookupError> {
        let (_, meta) = self.component_meta(component)?;
        let i = meta.docs.iter().position(|d| d.lang == lang);
        Ok((meta, i))
    }

    /// What a hit is read from, for [`SearchView::skipped`](super::query::SearchView::skipped): its component (the
    /// changelog, or a function's file).
    pub(super) fn hit_source(&self, ix: &SearchIndex, g: &Group) -> String {
        let src = &ix.meta.sources[g.source as usize];
        match g.kind {
            Kind::Changelog if src.component.is_empty() => "changelog".to_string(),
            Kind::Function | Kind::Changelog => format!("file {}", src.path),
            _ => format!("component {}", src.component),
        }
    }

    /// The text of a hit: the sections its call serves (`spans`, line ranges of the document), a demo's or cleaned
    /// code block's own frame, else its units' span of the document or file, or its lines of the changelog.
    pub(super) fn hit_text(&self, ix: &SearchIndex, g: &Group, spans: &[(u32, u32)]) -> Result<String, LookupError> {
        let src = &ix.meta.sources[g.source as usize];
        let first = &g.units[0];
        if g.kind == Kind::Code {
            // A demo (`<code src="…">`) or a cleaned block is served from its own frame, not from the document's
            // lines (where a demo is the bare tag): the hit shows what `get_code_block` serves.
            let (meta, i) = self.doc_meta(&src.component, &src.lang)?;
            let block = i.and_then(|i| meta.docs[i].code_blocks.get(first.block.saturating_sub(1) as usize));
            if block.is_some_and(|b| b.cleaned) {
                let bundle = self.component(&src.component)?.bundle.clone();
                return Ok(ix.text(self, &bundle, &crate::model::keys::block(&src.lang, first.block))?.to_string());
            }
        }
        // A component's own changelog is read from its file, as a function is.
        let from_file = g.kind == Kind::Function || (g.kind == Kind::Changelog && !src.component.is_empty());
        match g.kind {
            Kind::Props => {
                // The one table, as `sections=["props"]` renders it (the unit's tokens were counted on this text).
                let (bundle, meta) = self.component_meta(&src.component)?;
                let tables = self.props_of(&bundle)?;
                let table = tables
                    .iter()
                    .find(|t| t.name == first.name && t.path == src.path && t.line == first.start_line)
                    .ok_or_else(|| corrupt(&ix.bundle, "props unit"))?;
                Ok(crate::view::props_text(&meta.name, std::slice::from_ref(table)))
            }
            Kind::Changelog if !from_file => {
                let entry = self.head().changelog.as_ref().ok_or_else(|| corrupt(&ix.bundle, "changelog"))?;
                let per = self.head().thresholds.changelog_page_lines.max(1);
                let (a, b) = (first.start_line, g.end_line());
                let mut out: Vec<&str> = Vec::new();
                let mut pages = Vec::new();
                for p in (a - 1) / per + 1..=(b - 1) / per + 1 {
                    pages.push((p, ix.text(self, &entry.bundle, &crate::model::keys::page(&src.lang, p))?));
                }
                for (p, text) in &pages {
                    let first_line = (p - 1) * per + 1;
                    for (i, line) in text.split('\n').enumerate() {
                        let n = first_line + i as u32;
                        if n >= a && n <= b {
                            out.push(line);
                        }
                    }
                }
                Ok(out.join("\n"))
            }
            Kind::Doc | Kind::Code | Kind::Function | Kind::Changelog => {
                let (file, key) = if from_file {
                    let owner = self.file_owner(&src.path)?.ok_or_else(|| corrupt(&ix.bundle, "function source"))?;
                    (self.component(&owner)?.bundle.clone(), crate::model::keys::file(&src.path))
                } else {
                    (self.component(&src.component)?.bundle.clone(), crate::model::keys::doc(&src.lang))
                };
                let text = ix.text(self, &file, &key)?;
                if !spans.is_empty() {
                    let lines = crate::line_index::LineIndex::new(&text);
                    let mut out = String::new();
                    for &(a, b) in spans {
                        let part = text.get(lines.start(a)..lines.start(b + 1).min(text.len()));
                        out.push_str(part.ok_or_else(|| corrupt(&ix.bundle, "section span"))?);
                    }
                    return Ok(out);
                }
                let end = g.units.iter().map(|u| u.end_byte).max().unwrap_or(first.end_byte);
                text.get(first.start_byte as usize..end as usize)
                    .map(str::to_string)
                    .ok_or_else(|| corrupt(&ix.bundle, "unit span"))
            }
        }
    }
}

/// The headings (levels 1–4) whose sections hold line `line`, outermost first; a level-1 heading only when no
/// deeper one holds it (the document title is not part of a path).
pub(super) fn section_path(sections: &[SectionMeta], line: u32) -> Vec<&SectionMeta> {
    let holding: Vec<&SectionMeta> =
        sections.iter().filter(|s| s.level <= 4 && s.start_line <= line && line <= s.end_line).collect();
    let deeper: Vec<&SectionMeta> = holding.iter().copied().filter(|s| s.level > 1).collect();
    if deeper.is_empty() { holding } else { deeper }
}

/// The follow-up call of a hit in its three forms, all from the one builder of `crate::render` (so they carry
/// the system, version and language served, as every "fetch more" call does, and the CLI form is shell-quoted).
pub(super) fn follow_up(served: &Served, lang: Option<&str>, tool: &str, cli: &str, args: &[(&str, Arg)]) -> FollowUp {
    FollowUp {
        tool: tool.to_string(),
        arguments: call_arguments(served, lang, args),
        call: Surface::Mcp.call(served, lang, tool, cli, args),
        cli: Surface::Cli.call(served, lang, tool, cli, args),
        cli_text: String::new(),
    }
}
