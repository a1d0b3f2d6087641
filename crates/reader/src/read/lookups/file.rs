//! `file` (MCP `get_file_code`): one file, as its skeleton, whole, or a line range; and how a requested path
//! is found.

use std::sync::Arc;

use crate::budget::{BudgetError, Cursor, Part, Request};
use crate::bundle::{Bundle, BundleError};
use crate::model::*;

use crate::read::error::LookupError;
use crate::read::lookups::function::function_sizes;
use crate::read::names::{by_similarity, closest, echo, resolve_dots};
use crate::read::paging::{Paging, TextRef};
use crate::read::set::BundleSet;
use crate::read::views::{FileView, FunctionSize};

impl BundleSet {
    /// Normalizes a requested path (`./a`, `a\b`, `a/../b`: [`resolve_dots`]) and finds the component storing it.
    /// Requested paths are only ever compared with the manifest's list, never joined to a directory, so `../`
    /// cannot escape; one that climbs above the repository's root is an unknown path saying so.
    pub(in crate::read) fn locate(&self, path: &str) -> Result<(String, Arc<Bundle>, FileMeta), LookupError> {
        let norm = path.trim().replace('\\', "/");
        // `./x`, `/x` and `x` name the same file of the repository (paths are repository-relative).
        let Some(mut norm) = resolve_dots(norm.trim_start_matches('/')) else {
            return Err(LookupError::UnknownPath {
                path: echo(path),
                system: self.manifest.system.clone(),
                version: self.manifest.version.clone(),
                suggestions: Vec::new(),
                outside: true,
            });
        };
        let owner = match self.file_owner(&norm)? {
            Some(owner) => owner,
            None => match self.only_file_like(&norm)? {
                Some(file) => {
                    norm = file.path;
                    file.component
                }
                None => return Err(self.unknown_path(path, &norm)?),
            },
        };
        let (bundle, meta) = self.component_meta(&owner)?;
        let file = meta.files.iter().find(|f| f.path == norm).cloned().ok_or_else(|| BundleError::Corrupt {
            path: bundle.path().to_string(),
            what: format!("file list (no `{norm}`)"),
        })?;
        Ok((norm, bundle, file))
    }

    /// The one file a path no component lists stands for, when exactly one does: the file whose path ends with
    /// `/norm` (a partial path, `table/utils.ts`), else the one equal to it but for ASCII case. The answer names the
    /// whole path; two or more candidates are suggestions ([`BundleSet::unknown_path`]), never a guess.
    fn only_file_like(&self, norm: &str) -> Result<Option<FileOwner>, LookupError> {
        let files = &self.manifest()?.files;
        let tail = format!("/{norm}");
        let only = |found: Vec<&FileOwner>| match found.as_slice() {
            [one] => Some((*one).clone()),
            _ => None,
        };
        let ending = only(files.iter().filter(|f| !norm.is_empty() && f.path.ends_with(&tail)).collect());
        Ok(ending.or_else(|| only(files.iter().filter(|f| f.path.eq_ignore_ascii_case(norm)).collect())))
    }

    /// The error for a path no component lists (`norm`, normalised from `path`), suggesting what it could be.
    fn unknown_path(&self, path: &str, norm: &str) -> Result<LookupError, LookupError> {
        let files = &self.manifest()?.files;
        // Agents often pass a partial path: suggest the paths it ends, then the files of that name.
        let lower = norm.to_lowercase();
        let base = lower.rsplit('/').next().unwrap_or(&lower).to_string();
        // The files whose path ends so, nearest to the whole path first (`tabel/utils.ts` names `table/utils.ts`
        // before the other `utils.ts`).
        let ends = |suffix: &str| -> Vec<String> {
            let mut found: Vec<&str> = (files.iter())
                .filter(|f| !suffix.is_empty() && f.path.to_lowercase().ends_with(suffix))
                .map(|f| f.path.as_str())
                .collect();
            by_similarity(&[norm], &mut found, |p| p);
            found.into_iter().take(5).map(str::to_string).collect()
        };
        let mut by_name = ends(&format!("/{lower}"));
        if by_name.is_empty() {
            by_name = ends(&base);
        }
        if by_name.is_empty() {
            // A misspelt file name (`Tabel.tsx`): the files whose name is nearest.
            let name_of = |p: &str| p.rsplit('/').next().unwrap_or(p).to_string();
            let near = closest(&name_of(norm), files.iter().map(|f| f.path.rsplit('/').next().unwrap_or(&f.path)), 5);
            let mut found: Vec<&str> =
                files.iter().filter(|f| near.contains(&name_of(&f.path))).map(|f| f.path.as_str()).collect();
            by_similarity(&[norm], &mut found, |p| p);
            by_name = found.into_iter().take(5).map(str::to_string).collect();
        }
        if by_name.is_empty() {
            by_name = closest(norm, files.iter().map(|f| f.path.as_str()), 5);
        }
        Ok(LookupError::UnknownPath {
            path: echo(path),
            system: self.manifest.system.clone(),
            version: self.manifest.version.clone(),
            suggestions: by_name,
            outside: false,
        })
    }

    /// File `path`: its skeleton when it has one, unless `full` or a line range is given; binary files have no
    /// text. `lines` (1-based, inclusive, of the original file, as wcgw's ranges) serves exactly those lines. Cut to
    /// the budget either way.
    ///
    /// # Errors
    /// Unknown path (with suggestions), a line range outside the file, a refused budget or cursor, damaged bundle.
    pub fn file(
        &self,
        path: &str,
        full: bool,
        lines: Option<(u32, u32)>,
        paging: Paging,
    ) -> Result<FileView, LookupError> {
        // A cursor carries the form and range of the first call: a continuation names only the path.
        let (full, lines) = match paging.cursor.map(Cursor::decode).transpose()?.map(|c| c.request) {
            Some(Request::File { full, lines, .. }) => (full, lines),
            _ => (full, lines),
        };
        let (norm, bundle, file) = self.locate(path)?;
        let skeleton = !full && lines.is_none() && file.skeleton.is_some();
        // The function list goes with the skeleton (whose bodies it points to), not with whole files or ranges.
        let mut functions = if file.kind == FileKind::Source && skeleton {
            function_sizes(&bundle.get::<Vec<FunctionMeta>>(&keys::functions(&norm))?)
        } else {
            vec![]
        };
        let functions_total = functions.len() as u32;
        functions.sort_by(|a, b| b.tokens.cmp(&a.tokens).then_with(|| a.name.cmp(&b.name)));
        let first_part = paging.cursor.is_none();
        let mut view = FileView {
            served: self.served(),
            file: file.clone(),
            skeleton,
            threshold: self.manifest.thresholds.skeleton_min_lines,
            tokens: 0,
            range: lines,
            functions,
            functions_total,
            part: Part { tokens_exact: true, ..Part::default() },
            next_cursor: None,
            text: String::new(),
        };
        if file.kind == FileKind::Binary {
            return Ok(view);
        }
        let key = if skeleton { keys::skeleton(&norm) } else { keys::file(&norm) };
        let text = self.text(&bundle, &key)?;
        let range = match lines {
            None => (0, text.len()),
            Some((start, end)) => {
                let last = file.lines;
                if start != 0 && end < start {
                    return Err(LookupError::ReversedRange { path: norm, start, end });
                }
                if start == 0 || start > last {
                    // An open end (`start_line` alone) is named as the last line.
                    let end = if end == u32::MAX { start } else { end };
                    return Err(LookupError::LineRange { path: norm, start, end, lines: last });
                }
                let cuts = self.cuts(&bundle, &key, &text)?;
                (cuts.line_start(start), cuts.line_start(end.min(last) + 1))
            }
        };
        // Echoed: the path in the header, the `--full` and function calls, the continuation and its cursor.
        let paging = self.echoing(paging, &[(norm.as_str(), 6)]);
        let request = Request::File { path: norm, full: !skeleton, lines };
        // The skeleton's longer header and its function-list footer are an envelope of their own, and the list's
        // names (on the first part only, bounded by their bytes) come out of the content too, so the whole answer
        // and its JSON stay within max_tokens (measured by tests/it/sweep.rs). A skeleton served whole leaves its
        // names what it did not use; a cut one serves three quarters of the content as text (a share that only
        // grows with the budget: a larger budget never serves less) and leaves the names what its text did not use.
        // A measured budget's reserve holds them as printed.
        let envelope = if skeleton && !paging.budget.measured { crate::budget::SKELETON_ENVELOPE_TOKENS } else { 0 };
        let lowered = |by: u32| {
            let mut p = paging;
            p.budget.max_tokens = p.budget.max_tokens.saturating_sub(by);
            p
        };
        // An error of a lowered budget names the call's own.
        let raised = |e: LookupError, by: u32| match e {
            LookupError::Budget(BudgetError::TooSmallForNames { asked, request, needed }) => {
                let (asked, needed) = (asked + by, needed.saturating_add(by));
                LookupError::Budget(BudgetError::TooSmallForNames { asked, request, needed })
            }
            e => e,
        };
        let (mut part, mut next_cursor) = self
            .part(&request, TextRef::new(&text, (&bundle, &key), &[range]), lowered(envelope))
            .map_err(|e| raised(e, envelope))?;
        let bounds = view.functions.iter().map(FunctionSize::bound);
        let kept = if !first_part {
            0
        } else if next_cursor.is_none() {
            let json = part.tokens + 2 * crate::budget::json_escapes(&part.text) as u32;
            let left = paging.budget.content().saturating_sub(envelope).saturating_sub(json);
            crate::budget::listed_within(bounds, left).0
        } else if view.functions.is_empty() {
            0
        } else {
            let quarter = paging.budget.content().saturating_sub(envelope) / 4;
            // When the names' quarter leaves no room for the first lines, the part keeps the whole share.
            if let Ok(smaller) =
                self.part(&request, TextRef::new(&text, (&bundle, &key), &[range]), lowered(envelope + quarter))
            {
                (part, next_cursor) = smaller;
            }
            let json = part.tokens + 2 * crate::budget::json_escapes(&part.text) as u32;
            let left = paging.budget.content().saturating_sub(envelope).saturating_sub(json);
            crate::budget::listed_within(bounds, left).0
        };
        view.functions.truncate(kept);
        if part.max_tokens.is_some() {
            part.max_tokens = Some(paging.budget.max_tokens); // the call's own, not the one lowered here
        }
        view.tokens = part.tokens;
        view.text = part.text.clone();
        view.part = part;
        if let (Some((start, end)), true) = (lines, view.text.is_empty()) {
            // The empty line after a final newline: served, and named, though it has no text.
            view.part.lines = (start, end.min(view.file.lines));
        }
        view.next_cursor = next_cursor;
        Ok(view)
    }
}
