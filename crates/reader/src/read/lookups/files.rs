//! `files`: a component's file list, cut to the budget by rows.

use crate::budget::Request;

use crate::read::error::LookupError;
use crate::read::lookups::components::stored_row;
use crate::read::paging::Paging;
use crate::read::set::BundleSet;
use crate::read::views::{FilesView, ListPart};

impl BundleSet {
    /// The files of component `name`.
    ///
    /// # Errors
    /// Unknown component, damaged bundle.
    pub fn files(&self, name: &str) -> Result<FilesView, LookupError> {
        let entry = self.component(name)?;
        let tokens = entry.files_tokens;
        let (_, meta) = self.component_meta(name)?;
        let part = ListPart { rows_total: meta.files.len() as u32, tokens_exact: true, ..ListPart::default() };
        Ok(FilesView { served: self.served(), component: meta.name.clone(), tokens, files: meta.files.clone(), part })
    }

    /// [`BundleSet::files`] cut to the budget of `paging` (continuing its cursor), as
    /// [`BundleSet::components_paged`].
    ///
    /// # Errors
    /// As [`BundleSet::files`]; a refused cursor.
    pub fn files_paged(&self, name: &str, paging: Paging) -> Result<FilesView, LookupError> {
        let mut view = self.files(name)?;
        let all = std::mem::take(&mut view.files);
        let width = all.iter().map(|f| f.path.len()).max().unwrap_or(4).max(4);
        let entry = self.component(name)?;
        let bound = |i: usize| {
            stored_row(&entry.file_row_tokens, all.len(), i)
                .unwrap_or_else(|| (serde_json::to_string(&all[i]).map_or(1000, |j| j.len() + 1) + width + 80) as u32)
        };
        let names: Vec<&str> = all.iter().map(|f| f.path.as_str()).collect();
        let request = Request::Files { component: view.component.clone() };
        // Echoed: the component in the header, the continuation and its cursor, the JSON.
        let paging = self.echoing(paging, &[(view.component.as_str(), 5)]);
        let whole = view.tokens.max(entry.files_json_tokens);
        let (rows, part) = self.list_part(&request, &names, &bound, whole, paging)?;
        if part.next_cursor.is_some() || rows.start > 0 {
            view.tokens = rows.clone().map(bound).sum();
        }
        view.files = all.into_iter().skip(rows.start).take(rows.len()).collect();
        view.part = part;
        Ok(view)
    }
}
