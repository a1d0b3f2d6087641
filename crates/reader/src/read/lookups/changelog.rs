//! `changelog` (MCP `get_changelog`): one page of the changelog.

use std::sync::Arc;

use crate::budget::{Cursor, Part, Request};
use crate::bundle::BundleError;
use crate::model::*;

use crate::read::error::LookupError;
use crate::read::names::echo;
use crate::read::paging::{Paging, TextRef};
use crate::read::set::BundleSet;
use crate::read::views::ChangelogView;

/// Splits `changelog` / `changelog-N` (Semi's addressing) into a page number.
pub fn changelog_page_name(name: &str) -> Option<Option<u32>> {
    let rest = name.trim().to_ascii_lowercase();
    let rest = rest.strip_prefix("changelog")?;
    if rest.is_empty() {
        return Some(None);
    }
    // A page number too large for u32 (or u64) is still a page request (and out of range), not a component name.
    let digits = rest.strip_prefix('-').filter(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))?;
    Some(Some(digits.parse::<u32>().unwrap_or(u32::MAX)))
}

impl BundleSet {
    /// Changelog page `page` (1-based, 1 = newest; default 1, or the cursor's page) in `lang`, cut to the budget
    /// when it is over it. The cursor of the last part of a page starts the next page, so following cursors from
    /// page 1 reads the whole changelog once.
    ///
    /// # Errors
    /// No changelog (in that language), page out of range (naming `1..T`), a refused budget or cursor, damaged
    /// bundle.
    pub fn changelog(
        &self,
        page: Option<u32>,
        lang: Option<&str>,
        paging: Paging,
    ) -> Result<ChangelogView, LookupError> {
        // A cursor names its page, which wins over `page`: the last part of page 1 continues with page 2, and an
        // agent repeating its call with the new cursor still says page 1.
        let page = match paging.cursor.map(Cursor::decode) {
            Some(Ok(Cursor { request: Request::Changelog { page, .. }, .. })) => Some(page),
            _ => page,
        };
        let lang = self.lang(lang);
        let lang = lang.as_deref();
        let want = lang.unwrap_or(&self.manifest.default_lang);
        let no_changelog = |available: String| LookupError::NoChangelog {
            system: self.manifest.system.clone(),
            version: self.manifest.version.clone(),
            lang: echo(want),
            available,
        };
        let entry = self.manifest.changelog.as_ref().ok_or_else(|| no_changelog(String::new()))?;
        let summary = entry
            .langs
            .iter()
            .find(|l| l.lang.eq_ignore_ascii_case(want))
            .or_else(|| if lang.is_none() { entry.langs.first() } else { None })
            .ok_or_else(|| no_changelog(entry.langs.iter().map(|l| l.lang.as_str()).collect::<Vec<_>>().join(", ")))?;
        let page = page.unwrap_or(1);
        if page == 0 || page > summary.pages {
            let page = page.to_string();
            return Err(LookupError::PageOutOfRange { page, lang: summary.lang.clone(), pages: summary.pages });
        }
        let bundle = self.bundle(&entry.bundle)?;
        let meta = self.cache.changelog.get_or_load((), || bundle.get(keys::CHANGELOG).map(Arc::new))?;
        let lang_meta = meta
            .langs
            .iter()
            .find(|l| l.summary.lang == summary.lang)
            .ok_or_else(|| BundleError::Corrupt { path: entry.bundle.clone(), what: "changelog languages".into() })?;
        let p = lang_meta
            .pages
            .get(page as usize - 1)
            .ok_or_else(|| BundleError::Corrupt { path: entry.bundle.clone(), what: "changelog pages".into() })?;
        let text: String = bundle.get_text(&keys::page(&summary.lang, page))?;
        let key = keys::page(&summary.lang, page);
        let request = Request::Changelog { lang: summary.lang.clone(), page };
        // Releases whose heading is in the part (page-relative lines), each bounded by its bytes and 3 for quotes
        // and comma in the JSON list.
        let in_part = |part: &Part, line: u32| {
            let rel = line + 1 - p.start_line.min(line + 1);
            !part.text.is_empty() && (part.lines.0..=part.lines.1).contains(&rel)
        };
        let lists = |part: &Part| {
            lang_meta.releases.iter().filter(|r| in_part(part, r.start_line)).map(|r| r.version.len() as u32 + 3).sum()
        };
        let paging = self.echoing(paging, &[]);
        let (mut part, mut next_cursor) =
            self.part_with(&request, TextRef::new(&text, (&bundle, &key), &[(0, text.len())]), paging, &lists)?;
        let releases: Vec<String> =
            lang_meta.releases.iter().filter(|r| in_part(&part, r.start_line)).map(|r| r.version.clone()).collect();
        // Lines of the file, not of the page.
        part.lines = (part.lines.0 + p.start_line - 1, part.lines.1 + p.start_line - 1);
        if next_cursor.is_none() && page < summary.pages {
            let next = Request::Changelog { lang: summary.lang.clone(), page: page + 1 };
            next_cursor =
                Some(Cursor { set: Cursor::set_id(&self.label()), text: 0, request: next, offset: 0 }.encode());
        }
        Ok(ChangelogView {
            served: self.served(),
            lang: summary.lang.clone(),
            page,
            pages: summary.pages,
            start_line: p.start_line,
            end_line: p.end_line,
            total_lines: summary.lines,
            page_lines: self.manifest.thresholds.changelog_page_lines,
            tokens: part.tokens,
            page_tokens: p.tokens,
            previous: (page > 1).then(|| page - 1),
            next: (page < summary.pages).then(|| page + 1),
            releases,
            text: part.text.clone(),
            part,
            next_cursor,
        })
    }
}
