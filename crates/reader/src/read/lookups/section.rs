//! Sections of a document named by title or slug: what `doc --section` serves.

use crate::model::*;

use crate::read::error::LookupError;
use crate::read::names::{NEAR, echo, similarity};
use crate::read::set::BundleSet;

/// `Parent › Title (slug)` of `s` among `sections` (its nearest enclosing heading; none for a top-level one).
fn section_path(sections: &[SectionMeta], s: &SectionMeta) -> String {
    match section_parent(sections, s) {
        Some(p) => format!("{} › {} ({})", p.title, s.title, s.slug),
        None => format!("{} ({})", s.title, s.slug),
    }
}

/// The heading `s` is under: the nearest one before it of a higher level.
fn section_parent<'a>(sections: &'a [SectionMeta], s: &SectionMeta) -> Option<&'a SectionMeta> {
    sections.iter().rev().find(|p| p.start_line < s.start_line && p.level < s.level)
}

impl BundleSet {
    /// Whether the document of `name` in `lang` has a heading `title` (by title or slug, case-insensitively).
    ///
    /// # Errors
    /// Unknown component, no document in that language, damaged bundle.
    pub fn has_section(&self, name: &str, lang: Option<&str>, title: &str) -> Result<bool, LookupError> {
        let (_, meta) = self.component_meta(name)?;
        let doc = self.pick_doc(&meta, lang)?;
        Ok(doc.sections.iter().any(|s| s.title.eq_ignore_ascii_case(title) || s.slug.eq_ignore_ascii_case(title)))
    }

    /// The sections of `doc` named by `asked` (title or slug, case-insensitive), in document order, each once; a
    /// section inside another one asked for is dropped (it is served with its parent).
    pub(in crate::read) fn find_sections(
        &self,
        meta: &ComponentMeta,
        doc: &DocMeta,
        props: &[PropsTable],
        asked: &[String],
    ) -> Result<Vec<SectionMeta>, LookupError> {
        let matches = |s: &SectionMeta, q: &str| {
            let q = q.trim().trim_start_matches('#').trim();
            s.title.eq_ignore_ascii_case(q) || s.slug.eq_ignore_ascii_case(q) || s.slug == crate::view::slugify(q)
        };
        let mut found: Vec<SectionMeta> = Vec::new();
        let mut missing = Vec::new();
        for q in asked {
            let mut candidates: Vec<&SectionMeta> = doc.sections.iter().filter(|s| matches(s, q)).collect();
            // `Parent › Title`, as the ambiguous-section error lists headings (`>` too): the title under that parent;
            // `› Title`, a title under no heading.
            if let (true, Some((parent, title))) = (candidates.is_empty(), q.rsplit_once(['›', '>'])) {
                let top = parent.trim().is_empty();
                candidates = doc
                    .sections
                    .iter()
                    .filter(|s| matches(s, title))
                    .filter(|s| match section_parent(&doc.sections, s) {
                        Some(p) => !top && matches(p, parent),
                        None => top,
                    })
                    .collect();
            }
            // Several headings answer to the name (Semi's Table has `Pagination` under Demos and under API): a
            // query spelled exactly as one's slug names that one; otherwise the caller must choose.
            let exact = q.trim().trim_start_matches('#').trim();
            let chosen = match candidates.as_slice() {
                [] => None,
                [one] => Some(*one),
                many => match many.iter().find(|s| s.slug == exact) {
                    Some(s) => Some(*s),
                    None => {
                        return Err(LookupError::AmbiguousSection {
                            component: meta.name.clone(),
                            lang: doc.lang.clone(),
                            asked: echo(q),
                            candidates: many.iter().map(|s| section_path(&doc.sections, s)).collect(),
                        });
                    }
                },
            };
            match chosen {
                Some(s) => found.push(s.clone()),
                None => missing.push(format!("`{}`", echo(q))),
            }
        }
        if !missing.is_empty() {
            // The sections nearest to the names asked first (a list cut to fit the budget keeps them), each by its
            // title or slug, whichever is nearer.
            let asked: Vec<&str> = asked.iter().map(String::as_str).collect();
            let mut sections: Vec<&SectionMeta> = doc.sections.iter().filter(|s| (2..=4).contains(&s.level)).collect();
            sections.sort_by_cached_key(|s| {
                let near = |q: &&str| similarity(q, &s.title).max(similarity(q, &s.slug));
                let score = asked.iter().map(near).fold(0.0, f64::max);
                std::cmp::Reverse(if score < NEAR { 0 } else { (score * 1e9) as i64 })
            });
            return Err(LookupError::UnknownSection {
                component: meta.name.clone(),
                lang: doc.lang.clone(),
                asked: missing,
                available: sections
                    .into_iter()
                    .map(|s| format!("{} ({}) {}", s.title, s.slug, crate::units::thousands(s.tokens)))
                    .collect(),
            });
        }
        // A heading with nothing under it but the next heading of its level (Semi's `## API 参考`, followed by
        // `## Table`, `## Column`, … each with its table) stands for the sections after it: up to the last one
        // holding a props table of this document.
        let last_table =
            props.iter().filter(|t| t.origin == PropsOrigin::Document && t.path == doc.path).map(|t| t.line).max();
        for s in &mut found {
            let empty = s.tokens <= 20 && s.end_line <= s.start_line + 2;
            if let Some(line) = last_table.filter(|&l| empty && l > s.end_line) {
                let group_end = doc
                    .sections
                    .iter()
                    .filter(|x| x.level <= s.level && x.start_line > s.start_line && x.start_line <= line)
                    .map(|x| x.end_line)
                    .max();
                if let Some(end) = group_end {
                    s.end_line = end;
                }
            }
        }
        found.sort_by_key(|s| s.start_line);
        found.dedup_by_key(|s| s.start_line);
        let outer: Vec<(u32, u32)> = found.iter().map(|s| (s.start_line, s.end_line)).collect();
        found.retain(|s| !outer.iter().any(|&(a, b)| a < s.start_line && s.end_line <= b));
        Ok(found)
    }
}
