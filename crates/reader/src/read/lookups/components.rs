//! `components` (MCP `list_components`): the component or guide list, cut to the budget by rows.

use crate::budget::{Cursor, Request};

use crate::read::error::LookupError;
use crate::read::paging::Paging;
use crate::read::set::BundleSet;
use crate::read::views::{ComponentRow, ComponentsView, ListKind, row_bound};

/// Tokens a row's stored count is raised by for the joins around it in the whole answer (a JSON row's `},{`
/// pieces, a text row's newline): the budget sweeps (`tests/it/sweep.rs`) check the sum with tiktoken.
const ROW_JOIN_TOKENS: u32 = 2;

/// Row `i`'s stored token count plus [`ROW_JOIN_TOKENS`], when `stored` has one count per row of a list of `len`.
pub(in crate::read) fn stored_row(stored: &[u32], len: usize, i: usize) -> Option<u32> {
    (stored.len() == len).then(|| stored[i] + ROW_JOIN_TOKENS)
}

impl BundleSet {
    /// All components, with sizes of their documents in `lang` (default language when `None`).
    ///
    /// # Errors
    /// [`LookupError::UnknownLang`] for a language the set does not have.
    pub fn components(&self, lang: Option<&str>) -> Result<ComponentsView, LookupError> {
        let lang = self.components_lang(lang)?;
        Ok(ComponentsView { served: self.served(), ..ComponentsView::new(self.manifest()?, lang) })
    }

    /// All guides (pages that document no exported component), as [`BundleSet::components`] lists components.
    ///
    /// # Errors
    /// As [`BundleSet::components`].
    pub fn guides(&self, lang: Option<&str>) -> Result<ComponentsView, LookupError> {
        let lang = self.components_lang(lang)?;
        Ok(ComponentsView { served: self.served(), ..ComponentsView::of_kind(self.manifest()?, lang, ListKind::Guide) })
    }

    /// [`BundleSet::components`] cut to the budget of `paging` (continuing its cursor): the whole list when its
    /// stored size fits, else rows by their upper bounds ([`ListPart`]).
    ///
    /// # Errors
    /// As [`BundleSet::components`]; a refused cursor.
    pub fn components_paged(&self, lang: Option<&str>, paging: Paging) -> Result<ComponentsView, LookupError> {
        self.list_paged(lang, ListKind::Component, paging)
    }

    /// [`BundleSet::components_paged`] of the entries of `kind` (`components --guides`: [`ListKind::Guide`]). A
    /// guide list's size is the sum of its rows' stored tokens (format 14; not the list's own, which is not stored).
    ///
    /// # Errors
    /// As [`BundleSet::components`]; a refused cursor.
    pub fn list_paged(
        &self,
        lang: Option<&str>,
        kind: ListKind,
        paging: Paging,
    ) -> Result<ComponentsView, LookupError> {
        let lang = match paging.cursor.map(Cursor::decode).transpose()?.map(|c| c.request) {
            Some(Request::Components { lang }) => Some(lang),
            _ => lang.map(str::to_string),
        };
        // The rows (and their bounds) are made only from the cursor's row on, as far as the budget reaches: a
        // walk over a long list stays linear.
        let lang = self.components_lang(lang.as_deref())?;
        let m = self.manifest()?;
        let width = m.components.iter().map(|c| c.name.len()).max().unwrap_or(4).max(4);
        let indices = kind.indices(m);
        let names: Vec<&str> = indices.iter().map(|&i| m.components[i].name.as_str()).collect();
        let of = |counts: &[(String, u32)]| counts.iter().find(|(l, _)| *l == lang).map_or(0, |(_, t)| *t);
        // Each row's stored tokens (a guide list's since format 14), else its bound by bytes.
        let stored = kind.stored_rows(m, &lang);
        let bound = |i: usize| {
            stored_row(stored, names.len(), i)
                .unwrap_or_else(|| row_bound(&ComponentsView::row(m, indices[i], &lang), width))
        };
        // Whole only when both forms fit: the text's and the JSON's stored sizes.
        let whole = match kind {
            ListKind::Component => of(&m.list_tokens).max(of(&m.list_json_tokens)),
            ListKind::Guide => (0..names.len()).map(bound).sum(),
        };
        let request = Request::Components { lang: lang.clone() };
        let paging = self.echoing(paging, &[(lang.as_str(), 4)]);
        let (rows, mut part) = self.list_part(&request, &names, &bound, whole, paging)?;
        part.tokens_exact &= kind.is_component();
        if part.next_cursor.is_none() && rows.start == 0 {
            return Ok(ComponentsView { part, served: self.served(), ..ComponentsView::of_kind(m, lang, kind) });
        }
        let tokens = rows.clone().map(bound).sum();
        let components: Vec<ComponentRow> = rows.map(|i| ComponentsView::row(m, indices[i], &lang)).collect();
        Ok(ComponentsView {
            tokens,
            components,
            part,
            served: self.served(),
            ..ComponentsView::new_empty(m, lang, kind)
        })
    }
}
