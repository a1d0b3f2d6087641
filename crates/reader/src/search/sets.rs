//! Which sets a search covers, and what it leaves out: the sets of a library to search ([`sets_to_search`]), and the
//! rule and wording of the [`super::query::SearchView::skipped`] entries for what cannot be read.

use std::sync::Arc;

use super::query::SKIPPED_CHARS;
use crate::read::{BundleSet, Library, LookupError};

/// Entries of [`SearchView::skipped`](super::query::SearchView::skipped) written out, at most; more are counted in
/// one last entry.
pub(super) const MAX_SKIPPED: usize = 3;

/// A [`SearchView::skipped`](super::query::SearchView::skipped) entry for `e`, cut to [`SKIPPED_CHARS`].
pub(super) fn skipped_entry(what: &str, e: &LookupError) -> String {
    let full = format!("{what}: {e}");
    if full.chars().count() <= SKIPPED_CHARS {
        full
    } else {
        format!("{}…", full.chars().take(SKIPPED_CHARS - 1).collect::<String>())
    }
}

/// `skipped` with at most `keep` entries written out, the rest counted in one last entry.
pub(super) fn capped_skipped(mut skipped: Vec<String>, keep: usize) -> Vec<String> {
    if skipped.len() > keep {
        let more = skipped.len() - keep;
        skipped.truncate(keep);
        skipped.push(format!("and {more} more (run `mydesign-docs verify` for the whole list)"));
    }
    skipped
}

/// Whether `e` says a bundle could not be read (damaged, truncated, changed underneath): its hits are skipped
/// and said so, the rest of the search is answered.
pub(super) fn unreadable(e: &LookupError) -> bool {
    !matches!(e, LookupError::UnknownComponent { .. } | LookupError::UnknownLang { .. } | LookupError::Budget(_))
}

/// Whether `e`, met while searching `set`, leaves out what it concerns (said in `skipped`) rather than failing the
/// search: an unreadable part, unless it is a damaged bundle of a copy another copy can stand in for
/// ([`crate::read::has_spare_copy`]), which [`Library::fallback`] answers from instead.
pub(super) fn left_out(e: &LookupError, set: &BundleSet) -> bool {
    unreadable(e) && !(matches!(e, LookupError::Bundle(_)) && crate::read::has_spare_copy(set))
}

/// The sets a search covers ([`sets_to_search`]), and those left out.
pub struct SetsToSearch {
    /// The sets to search, by system.
    pub sets: Vec<Arc<BundleSet>>,
    /// Sets left out because none of their system's versions opens (a damaged or old-format manifest), each
    /// `system@version: why`, and copies of a searched version that do not open (another copy is searched),
    /// `system@version copy left out: why`: pass them on in
    /// [`SearchOptions::skipped`](super::query::SearchOptions::skipped), so the answer names them.
    pub skipped: Vec<String>,
}

/// The sets a search covers: the one `system`/`version` name; with neither, and several systems in `library`,
/// the newest set of each that opens. Among several systems, one whose sets do not open is left out and named in
/// [`SetsToSearch::skipped`] (the CLI and the server search the others alike).
///
/// # Errors
/// As [`Library::select`]; among several systems, the first system's error when none opens.
pub fn sets_to_search(
    library: &Library,
    system: Option<&str>,
    version: Option<&str>,
) -> Result<SetsToSearch, LookupError> {
    let systems = library.systems();
    if system.is_none() && version.is_none() && systems.len() > 1 {
        let (mut sets, mut skipped, mut first_error) = (Vec::new(), Vec::new(), None);
        for (s, versions) in &systems {
            match library.select(Some(s), None) {
                Ok(set) => {
                    skipped.extend(copies_skipped(library, &set));
                    sets.push(set);
                }
                Err(e) if unreadable(&e) => {
                    let newest = versions.last().map(String::as_str).unwrap_or_default();
                    skipped.push(skipped_entry(&format!("{s}@{newest}"), &e));
                    first_error.get_or_insert(e);
                }
                Err(e) => return Err(e),
            }
        }
        return match first_error {
            Some(e) if sets.is_empty() => Err(e),
            _ => Ok(SetsToSearch { sets, skipped }),
        };
    }
    let set = library.select(system, version)?;
    Ok(SetsToSearch { skipped: copies_skipped(library, &set), sets: vec![set] })
}

/// [`SetsToSearch::skipped`] entries for the copies of `set`'s version in other directories that do not open
/// (another copy, `set`, is searched): `system@version copy left out: why` (the error names the copy's path).
pub(super) fn copies_skipped(library: &Library, set: &BundleSet) -> Vec<String> {
    let head = set.head();
    library
        .unopened_copies(&head.system, &head.version)
        .into_iter()
        .map(|d| {
            let full = format!("{}@{} copy left out: {}", d.system, d.version, d.error);
            if full.chars().count() <= SKIPPED_CHARS {
                full
            } else {
                format!("{}…", full.chars().take(SKIPPED_CHARS - 1).collect::<String>())
            }
        })
        .collect()
}
