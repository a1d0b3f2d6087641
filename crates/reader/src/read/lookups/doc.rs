//! `doc`: a document, whole or as its placeholder view, or some of its sections.

use crate::budget::{Cursor, DocForm, Fence, Part, Request};
use crate::model::*;

use crate::read::error::LookupError;
use crate::read::names::echo;
use crate::read::paging::{Paging, TextRef};
use crate::read::set::BundleSet;
use crate::read::views::{Detail, DocView};

/// The fences of a document's placeholder view stored as its frame's lead: each replaced span whose document
/// range is a code block's (the view put blocks before tables of the same start, so a block's range is the
/// block) is that block's placeholder, at its place in the view.
fn lead_fences(lead: &crate::bundle::format::Lead, blocks: &[CodeBlockMeta]) -> Vec<Fence> {
    let mut fences = Vec::with_capacity(blocks.len());
    // The blocks by their document span (in document order already; sorted here so nothing depends on it).
    let mut spans: Vec<(i64, i64, u32)> =
        blocks.iter().map(|b| (i64::from(b.start_byte), i64::from(b.end_byte), b.index)).collect();
    spans.sort_unstable();
    // Bytes the document has more than the view before the current span.
    let mut delta = 0i64;
    let mut run: (Option<(i64, i64)>, usize) = (None, 0);
    for (start, end, n) in lead.spans() {
        let doc_start = i64::from(start) + delta;
        let doc_end = doc_start + i64::from(n);
        // Blocks kept beside the text (stories) share one empty span at its end: the k-th lead span of a run of
        // equal ones is the k-th block of that span (in number order).
        let key = (doc_start, doc_end);
        let k = if run.0 == Some(key) { run.1 + 1 } else { 0 };
        run = (Some(key), k);
        let first = spans.partition_point(|&(a, b, _)| (a, b) < key);
        if let Some(&(_, _, index)) = spans.get(first + k).filter(|&&(a, b, _)| (a, b) == key) {
            fences.push(Fence { index, start: start as usize, end: end as usize });
        }
        delta += i64::from(n) - (i64::from(end) - i64::from(start));
    }
    fences
}

impl BundleSet {
    /// The document of `name` at `detail` (`normal`: the placeholder view when it is over the threshold; `full`:
    /// the whole document), or only `sections` of it (headings matched by title or slug, case-insensitively, in
    /// either language; whole, code blocks included), cut to the budget. `Brief` is served by [`BundleSet::card`].
    ///
    /// # Errors
    /// Unknown component, no document in that language, unknown sections (listing those there are with their
    /// sizes), a refused budget or cursor, damaged bundle.
    pub fn doc(
        &self,
        name: &str,
        lang: Option<&str>,
        mut detail: Detail,
        sections: &[String],
        paging: Paging,
    ) -> Result<DocView, LookupError> {
        // A cursor carries the detail and sections of the first call: a continuation names only the component.
        let mut sections = sections.to_vec();
        let continued = paging.cursor.map(Cursor::decode).transpose()?.map(|c| c.request);
        if let Some(Request::Doc { form, sections: s, .. }) = &continued {
            let form = *form;
            // A detail that names another view than the cursor's is an error, not ignored: `full` with a cursor of
            // the placeholder view, `brief` (the card) with a cursor of a document.
            let other = match detail {
                Detail::Full => form == DocForm::Normal,
                Detail::Brief => sections.is_empty() && matches!(form, DocForm::Normal | DocForm::Full),
                Detail::Normal => false,
            };
            if let Some(request) = continued.as_ref().filter(|_| other) {
                return Err(LookupError::CursorOfOtherView {
                    cursor: request.to_string(),
                    asked: detail.name().into(),
                });
            }
            detail = if form == DocForm::Full { Detail::Full } else { Detail::Normal };
            sections = s.clone();
        }
        let sections = sections.as_slice();
        // Without sections, the document's own lists are all it needs (not every language's, format 10).
        let (bundle, meta, whole) = match sections.is_empty() {
            true => self.component_head(name)?,
            false => self.component_meta(name).map(|(b, m)| (b, m, true))?,
        };
        let doc = self.pick_doc(&meta, lang)?;
        // The document's lists: its own frame's when only the head was read (kept, not copied into a `DocMeta`).
        let own = if whole { None } else { Some(self.doc_lists(&bundle, &meta.key, &doc.lang)?) };
        // Headings are looked for in the language asked for, then in the component's other documents: a heading
        // written in the other language is served from the document that has it (the answer names its language).
        // Mapping headings across languages by position is wrong too often (Semi orders them differently).
        let (doc, found) = if sections.is_empty() {
            (doc, vec![])
        } else {
            let props = self.props_of(&bundle)?;
            match self.find_sections(&meta, doc, &props, sections) {
                Ok(found) => (doc, found),
                // Only a heading missing here is looked for elsewhere (an ambiguous one is an answer to give).
                Err(e @ LookupError::UnknownSection { .. }) => {
                    let other = meta
                        .docs
                        .iter()
                        .filter(|d| d.lang != doc.lang)
                        .find_map(|d| self.find_sections(&meta, d, &props, sections).ok().map(|f| (d, f)));
                    match other {
                        // An explicit language wins: say where the heading is instead of switching language.
                        Some((d, _)) if lang.is_some() => {
                            return Err(LookupError::SectionInOtherLang {
                                component: meta.name.clone(),
                                lang: doc.lang.clone(),
                                asked: sections.iter().map(|q| format!("`{}`", echo(q))).collect(),
                                other: d.lang.clone(),
                            });
                        }
                        Some(found) => found,
                        None => return Err(e),
                    }
                }
                Err(e) => return Err(e),
            }
        };
        let (blocks, tables) = match &own {
            Some(lists) => (lists.code_blocks.as_slice(), lists.tables.as_slice()),
            None => (doc.code_blocks.as_slice(), doc.tables.as_slice()),
        };
        let hidden = doc.hidden && detail != Detail::Full && found.is_empty();
        let doc_key = keys::doc(&doc.lang);
        // The placeholder view is the lead of the document's frame (format 9): decoded alone, never rebuilt.
        let lead = if hidden { self.lead(&bundle, &doc_key)? } else { None };
        let whole = match &lead {
            Some(view) => view.clone(),
            None => self.text(&bundle, &doc_key)?,
        };
        let request = Request::Doc {
            component: meta.key.clone(),
            lang: doc.lang.clone(),
            form: if hidden { DocForm::Normal } else { DocForm::Full },
            sections: found.iter().map(|s| s.slug.clone()).collect(),
        };
        let (text, key, fences) = if let (true, Some(lead)) = (hidden, bundle.frame_lead(&doc_key)) {
            (std::borrow::Cow::Borrowed(whole.as_str()), keys::view(&doc.lang), lead_fences(lead, blocks))
        } else if hidden {
            let (view, spans) = crate::view::placeholder_view_spans(&whole, blocks, tables);
            let fences = spans.into_iter().map(|(index, start, end)| Fence { index, start, end }).collect();
            (std::borrow::Cow::Owned(view), keys::view(&doc.lang), fences)
        } else {
            let fences = blocks
                .iter()
                .map(|b| Fence { index: b.index, start: b.start_byte as usize, end: b.end_byte as usize })
                .collect::<Vec<_>>();
            (std::borrow::Cow::Borrowed(whole.as_str()), keys::doc(&doc.lang), fences)
        };
        // A text served whole needs its token map's total only, not its cut points (see `whole_part`).
        let (ranges, total_tokens): (Vec<(usize, usize)>, u32) = if found.is_empty() {
            (vec![(0, text.len())], self.token_map(&bundle, &key)?.total())
        } else {
            let cuts = self.cuts(&bundle, &key, &text)?;
            let ranges: Vec<(usize, usize)> =
                found.iter().map(|s| (cuts.line_start(s.start_line), cuts.line_start(s.end_line + 1))).collect();
            let total = ranges.iter().map(|&(a, b)| cuts.tokens(a, b).0).sum();
            (ranges, total)
        };
        // The section titles and the document's title beside the text, bounded by their bytes.
        let fields: usize =
            found.iter().map(|s| s.title.len() + crate::budget::json_escapes(&s.title) + 3).sum::<usize>()
                + doc.title.as_deref().map_or(0, |t| t.len() + crate::budget::json_escapes(t));
        let lists = |_: &Part| fields as u32;
        // Echoed: the component in the header, two hints, the continuation and its cursor; the path in the header
        // and the JSON; each section's title in the header, its slug in the cursor.
        let mut names = vec![(meta.name.as_str(), 6), (doc.path.as_str(), 2)];
        names.extend(found.iter().flat_map(|s| [(s.title.as_str(), 1), (s.slug.as_str(), 2)]));
        let paging = self.echoing(paging, &names);
        let (part, next_cursor) = self.part_with(
            &request,
            TextRef::new(&text, (&bundle, &key), &ranges).with_fences(&fences),
            paging,
            &lists,
        )?;
        Ok(DocView {
            served: self.served(),
            component: meta.name.clone(),
            lang: doc.lang.clone(),
            path: doc.path.clone(),
            generated: doc.generated,
            title: doc.title.clone(),
            lines: doc.lines,
            code_blocks: blocks.len() as u32,
            detail: if hidden { Detail::Normal } else { Detail::Full },
            hidden,
            threshold: self.manifest.thresholds.doc_hide_lines,
            sections: found.iter().map(|s| s.title.clone()).collect(),
            tokens: part.tokens,
            total_tokens,
            full_tokens: doc.tokens,
            text: part.text.clone(),
            part,
            next_cursor,
        })
    }
}
