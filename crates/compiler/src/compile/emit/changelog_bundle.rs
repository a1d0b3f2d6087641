//! The changelog compiled: pages per language, their counts, releases and their search units.

use rayon::prelude::*;

use super::component::token_frames;
use super::load::read_changelog;
use super::{CompiledChangelog, Ctx};
use crate::bundle::writer::Frame;
use crate::compile::changelog;
use crate::compile::walk::WalkedFile;
use crate::line_index::line_count;
use crate::model::*;
use crate::search::index as search_index;

/// Compiles the changelog files (stage 3), reporting into `ctx`.
pub(super) fn compile_changelogs(ctx: Ctx, changelogs: &[(String, WalkedFile)]) -> anyhow::Result<CompiledChangelog> {
    let mut units = Vec::new();
    let none = |units, ctx: Ctx| CompiledChangelog {
        meta: None,
        frames: vec![],
        units,
        diagnostics: ctx.into_diagnostics().into_iter().collect(),
    };
    if changelogs.is_empty() {
        return Ok(none(units, ctx));
    }
    let mut frames = Vec::new();
    let mut langs = Vec::new();
    let mut maps = TokenMaps::new();
    for (lang, f) in changelogs {
        let Some(text) = read_changelog(&ctx, f) else { continue };
        let pages = changelog::pages(&text, ctx.config.thresholds.changelog_page_lines);
        let mapped = pages
            .par_iter()
            .map(|p| {
                // A page keeps the newline that ends its last line, so pages (and the parts of a page served to a
                // budget) rejoin into the file by plain concatenation.
                let end =
                    if (p.end_byte as usize) < text.len() { p.end_byte as usize + 1 } else { p.end_byte as usize };
                let body = text.get(p.start_byte as usize..end).unwrap_or("");
                let (map, counts) = ctx.tokens.map_counts(body);
                (p, body, map, counts)
            })
            .collect::<Vec<_>>();
        let mut page_counts = Vec::with_capacity(mapped.len());
        let page_metas: Vec<PageMeta> = mapped
            .into_iter()
            .map(|(p, body, map, counts)| {
                page_counts.push(counts);
                let key = keys::page(lang, p.number);
                frames.push(Frame::new(&key, body)?);
                let tokens = map.total();
                maps.insert(key, map);
                Ok(PageMeta { tokens, ..p.meta.clone() })
            })
            .collect::<std::io::Result<_>>()?;
        let found = changelog::releases(&text);
        units.extend(search_index::release_units("", lang, &f.rel, &text, &found, &page_counts, &ctx.tokens));
        let releases: Vec<ReleaseMeta> = found.into_iter().map(|r| r.meta).collect();
        let summary = ChangelogSummary {
            lang: lang.clone(),
            path: f.rel.clone(),
            lines: line_count(&text),
            pages: page_metas.len() as u32,
            tokens: page_metas.iter().map(|p| p.tokens).sum(),
            releases: releases.len() as u32,
        };
        langs.push(ChangelogLang { summary, pages: page_metas, releases });
    }
    if langs.is_empty() {
        return Ok(none(units, ctx));
    }
    langs.sort_by(|a, b| a.summary.lang.cmp(&b.summary.lang));
    let meta = ChangelogMeta { langs };
    frames.push(Frame::new(keys::CHANGELOG, &meta)?);
    for frame in token_frames(&maps) {
        frames.push(frame?);
    }
    let diagnostics = ctx.into_diagnostics().into_iter().collect();
    Ok(CompiledChangelog { meta: Some(meta), frames, units, diagnostics })
}
