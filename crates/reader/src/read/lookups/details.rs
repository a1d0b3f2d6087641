//! `component_details` (CLI `doc`): which view answers a call (document, card, props, changelog page).

use crate::budget::{Cursor, DocForm, Request};

use crate::read::error::LookupError;
use crate::read::lookups::changelog::changelog_page_name;
use crate::read::names::echo;
use crate::read::paging::Paging;
use crate::read::set::BundleSet;
use crate::read::views::{Detail, DetailsView};

impl BundleSet {
    /// What `component_details` and the CLI's `doc` answer: a changelog page for `changelog` / `changelog-N` unless
    /// a component has that name; the props tables for `sections=["props"]`, even when the document has a heading
    /// of that name (served as `Parent › Props`, or when named beside other headings); the card for `detail=brief`
    /// without sections; else the document or its sections. A cursor continues the form it was cut from.
    ///
    /// # Errors
    /// As [`BundleSet::doc`], [`BundleSet::card`], [`BundleSet::props`] and [`BundleSet::changelog`];
    /// [`LookupError::PropsAlone`] for `props` beside other sections; [`LookupError::CursorOfOtherView`] when
    /// `detail` is named (`Some`, or a bare [`Detail`]) and is not the view the cursor continues (`None`: the
    /// cursor's).
    pub fn details(
        &self,
        name: &str,
        lang: Option<&str>,
        detail: impl Into<Option<Detail>>,
        sections: &[String],
        paging: Paging,
    ) -> Result<DetailsView, LookupError> {
        let named = detail.into();
        let detail = named.unwrap_or_default();
        // A cursor carries its view: a detail named beside it must be that view (a document's sections, served
        // whole, go with any).
        let cursor = paging.cursor.and_then(|c| Cursor::decode(c).ok()).map(|c| c.request);
        if let (Some(asked), Some(request @ Request::Doc { component, lang, form, sections: s })) = (named, &cursor) {
            // `normal` of a document under the threshold is the full document (its cursor says so).
            let hidden = || {
                let (_, meta) = self.component_meta(component).ok()?;
                self.pick_doc(&meta, Some(lang)).ok().map(|d| d.hidden)
            };
            let same = match form {
                DocForm::Card => asked == Detail::Brief,
                DocForm::Props => asked == Detail::Normal,
                DocForm::Normal => asked == Detail::Normal,
                DocForm::Full => {
                    !s.is_empty() || asked == Detail::Full || (asked == Detail::Normal && hidden() == Some(false))
                }
            };
            if !same {
                return Err(LookupError::CursorOfOtherView { cursor: request.to_string(), asked: asked.name().into() });
            }
        }
        if let Some(page) = changelog_page_name(name).filter(|_| self.component(name).is_err()) {
            // A number past u32 is asked as the last u32 (out of range for any changelog): the error names the
            // number as written, not that stand-in.
            let asked = name.trim().rsplit('-').next().unwrap_or_default().trim_start_matches('0');
            return self.changelog(page, lang, paging).map(DetailsView::Changelog).map_err(|e| match e {
                LookupError::PageOutOfRange { lang, pages, .. } if page == Some(u32::MAX) => {
                    LookupError::PageOutOfRange { page: echo(asked), lang, pages }
                }
                e => e,
            });
        }
        let continues = |what: DocForm| {
            paging.cursor.and_then(|c| Cursor::decode(c).ok()).is_some_and(|c| match c.request {
                Request::Doc { form, .. } => form == what,
                _ => false,
            })
        };
        // `props` alone is the props tables, always: the card advertises them under that name, also where the
        // document has a heading "Props" (dumi's), which is served as `Parent › Props`. Beside other headings,
        // `props` is that heading when the document has one (else the tables, which come alone: `PropsAlone`).
        let props_named = sections.iter().any(|s| s.trim().eq_ignore_ascii_case("props"))
            && (sections.len() == 1 || !self.has_section(name, lang, "props")?);
        if props_named && sections.len() > 1 {
            return Err(LookupError::PropsAlone);
        }
        if detail == Detail::Full && (continues(DocForm::Props) || continues(DocForm::Card)) {
            let cursor = paging.cursor.and_then(|c| Cursor::decode(c).ok()).map(|c| c.request.to_string());
            return Err(LookupError::CursorOfOtherView { cursor: cursor.unwrap_or_default(), asked: "full".into() });
        }
        if props_named || continues(DocForm::Props) {
            return self.props(name, lang, paging).map(DetailsView::Props);
        }
        if (detail == Detail::Brief && sections.is_empty() && paging.cursor.is_none()) || continues(DocForm::Card) {
            return self.card(name, lang, paging).map(DetailsView::Card);
        }
        self.doc(name, lang, detail, sections, paging).map(DetailsView::Doc)
    }
}
