//! A changelog as pages of fixed line counts (Semi Design MCP's `changelog-N` addressing) and as
//! release entries (one per version heading).
//!
//! Lines and byte offsets follow [`super::markdown`]'s conventions: lines are the 1-based,
//! inclusive pieces of `text.split('\n')`; byte offsets index the original UTF-8 text. Nothing
//! here fails or panics.

use serde::{Deserialize, Serialize};

use super::markdown;
use crate::line_index::LineIndex;
use crate::model::{PageMeta, ReleaseMeta};

/// Lines per changelog page in the Semi Design MCP server.
pub const SEMI_PAGE_LINES: u32 = 300;

/// One page of a changelog: a run of whole lines. The model's [`PageMeta`] (`number` 1-based, page 1 the top of
/// the file, the newest entries; `start_line`..=`end_line` 1-based; `tokens` 0 here, counted by the compiler's
/// `emit`) and its byte span. Field reads go through to `meta`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Page {
    /// The page as the bundle stores it.
    pub meta: PageMeta,
    /// Byte offset of the start of `start_line`.
    pub start_byte: u32,
    /// Byte offset of the end of `end_line`, before its `'\n'` (a `'\r'` before it stays in the
    /// page): the pages' texts joined with `"\n"` reproduce the file exactly.
    pub end_byte: u32,
}

impl std::ops::Deref for Page {
    type Target = PageMeta;
    fn deref(&self) -> &PageMeta {
        &self.meta
    }
}

/// Pages of `page_lines` lines (300 in the Semi Design MCP server), page 1 = top of the file
/// (newest entries), lines counted as `text.split('\n')`.
///
/// Returns `ceil(lines / page_lines)` pages, each of `page_lines` lines but the last; an empty
/// text has one line and so one empty page. A `page_lines` of 0 is taken as 1.
pub fn pages(text: &str, page_lines: u32) -> Vec<Page> {
    let page_lines = page_lines.max(1) as usize;
    let index = LineIndex::new(text);
    let lines = index.count() as usize;
    // The empty piece after a final newline never makes a page of its own: it stays on the last page.
    let counted = if lines > 1 && text.ends_with('\n') { lines - 1 } else { lines };
    let pages = counted.div_ceil(page_lines);
    (0..pages)
        .map(|p| {
            let first = p * page_lines + 1;
            let last = if p + 1 == pages { lines } else { (p + 1) * page_lines };
            Page {
                meta: PageMeta { number: to_u32(p + 1), start_line: to_u32(first), end_line: to_u32(last), tokens: 0 },
                start_byte: to_u32(index.start(to_u32(first))),
                end_byte: to_u32(index.end(to_u32(last))),
            }
        })
        .collect()
}

/// One release entry of a changelog: a heading that names a version, and the lines under it. The model's
/// [`ReleaseMeta`] with the heading's text and the entry's byte span. Field reads go through to `meta`.
///
/// In `meta`: `version` is the version as written in the heading, without a leading `v` (`2.102.0`,
/// `2.18.0-beta.0`; a prerelease written with spaces, `1.0.0 - beta.0`, is normalised to `1.0.0-beta.0`); `date`
/// the first `YYYY-MM-DD` in the heading; `start_line` the heading's line; `end_line` the line before the next
/// release heading or the next heading of the same or a higher level, whichever comes first, or the last line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Release {
    /// The release as the bundle stores it.
    pub meta: ReleaseMeta,
    /// The heading's plain text, e.g. `🎉 2.102.0 (2026-07-31)`.
    pub heading: String,
    /// Byte offset of the start of `start_line`.
    pub start_byte: u32,
    /// Byte offset of the end of `end_line`, excluding its line terminator.
    pub end_byte: u32,
}

impl std::ops::Deref for Release {
    type Target = ReleaseMeta;
    fn deref(&self) -> &ReleaseMeta {
        &self.meta
    }
}

/// Release entries: each heading (any level) whose text contains a semver-like version `x.y.z`
/// (optionally with a `-prerelease`), e.g. `🎉 2.102.0 (2026-07-31)` or `3.4.0 (2026-10-14)`;
/// `date` = the first `YYYY-MM-DD` in the heading. In file order (newest first in Semi's
/// changelog). Uses [`markdown::parse`]'s sections, so `#` lines inside code blocks are not
/// headings.
pub fn releases(text: &str) -> Vec<Release> {
    let doc = markdown::parse(text);
    let mut out: Vec<Release> = Vec::new();
    for section in &doc.sections {
        let Some(version) = find_version(&section.title) else {
            continue;
        };
        if let Some(previous) = out.last_mut()
            && previous.end_line >= section.start_line
        {
            // A release heading nested under the previous release ends it: the previous entry
            // stops at the end of the line before (before its "\n" or "\r\n").
            let newline = section.start_byte.saturating_sub(1) as usize;
            let cr = newline > 0 && text.as_bytes().get(newline - 1) == Some(&b'\r');
            previous.meta.end_line = (section.start_line.saturating_sub(1)).max(previous.start_line);
            previous.end_byte = to_u32(newline - usize::from(cr)).max(previous.start_byte);
        }
        let meta = ReleaseMeta {
            version,
            date: find_date(&section.title),
            start_line: section.start_line,
            end_line: section.end_line,
        };
        out.push(Release {
            meta,
            heading: section.title.clone(),
            start_byte: section.start_byte,
            end_byte: section.end_byte,
        });
    }
    out
}

/// The first semver-like `x.y.z[-prerelease]` in `s` that is not part of a longer dotted number
/// (`1.2.3.4` is not a version).
fn find_version(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if !b[i].is_ascii_digit() || (i > 0 && (b[i - 1].is_ascii_digit() || b[i - 1] == b'.')) {
            i += 1;
            continue;
        }
        // Up to three dot-separated runs of digits.
        let mut end = i;
        let mut parts = 0;
        loop {
            let run = b[end..].iter().take_while(|c| c.is_ascii_digit()).count();
            if run == 0 {
                break;
            }
            end += run;
            parts += 1;
            if parts == 3 || b.get(end) != Some(&b'.') {
                break;
            }
            end += 1;
        }
        let longer = b.get(end) == Some(&b'.') && b.get(end + 1).is_some_and(u8::is_ascii_digit);
        if parts < 3 || longer {
            i = end.max(i + 1);
            continue;
        }
        let mut version = s[i..end].to_owned();
        if let Some(pre) = prerelease(&s[end..]) {
            version.push('-');
            version.push_str(pre);
        }
        return Some(version);
    }
    None
}

/// The prerelease identifiers at the start of `rest`: `-beta.0` or `-0` (semver), or `- beta.0`
/// / ` - beta.0` (written with spaces; then only when it starts with a letter, so that ranges
/// like `1.33.1 - 1.38.x` are not read as prereleases).
fn prerelease(rest: &str) -> Option<&str> {
    let (after, spaced) = match rest.strip_prefix('-') {
        Some(after) if !after.starts_with(' ') => (after, false),
        _ => {
            let after = rest.trim_start_matches(' ').strip_prefix('-')?;
            (after.trim_start_matches(' '), true)
        }
    };
    let len = after.bytes().take_while(|c| c.is_ascii_alphanumeric() || *c == b'.' || *c == b'-').count();
    let pre = after[..len].trim_end_matches(['.', '-']);
    let first = *pre.as_bytes().first()?;
    (first.is_ascii_alphabetic() || !spaced).then_some(pre)
}

/// The first `YYYY-MM-DD` in `s` that is not part of a longer run of digits.
fn find_date(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let digits = |range: std::ops::Range<usize>| b[range].iter().all(u8::is_ascii_digit);
    (0..b.len().saturating_sub(9)).find_map(|i| {
        let fits = digits(i..i + 4)
            && b[i + 4] == b'-'
            && digits(i + 5..i + 7)
            && b[i + 7] == b'-'
            && digits(i + 8..i + 10)
            && (i == 0 || !b[i - 1].is_ascii_digit())
            && !b.get(i + 10).is_some_and(u8::is_ascii_digit);
        fits.then(|| s[i..i + 10].to_owned())
    })
}

fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page_texts<'t>(text: &'t str, pages: &[Page]) -> Vec<&'t str> {
        pages.iter().map(|p| &text[p.start_byte as usize..p.end_byte as usize]).collect()
    }

    fn page(number: u32, start_line: u32, end_line: u32, start_byte: u32, end_byte: u32) -> Page {
        Page { meta: PageMeta { number, start_line, end_line, tokens: 0 }, start_byte, end_byte }
    }

    #[test]
    fn pages_of_lines() {
        let text = "a\nb\nc\nd\ne";
        let got = pages(text, 2);
        assert_eq!(got, [page(1, 1, 2, 0, 3), page(2, 3, 4, 4, 7), page(3, 5, 5, 8, 9),]);
        assert_eq!(page_texts(text, &got), ["a\nb", "c\nd", "e"]);
    }

    #[test]
    fn pages_with_trailing_newline_crlf_and_exact_fit() {
        // "a\nb\n" has 3 lines: a, b and an empty last line, which stays on the last page instead of making an
        // empty page of its own.
        let text = "a\nb\n";
        let got = pages(text, 2);
        assert_eq!(page_texts(text, &got), ["a\nb\n"]);
        assert_eq!((got[0].start_line, got[0].end_line), (1, 3));
        assert_eq!(pages("a\nb", 2).len(), 1);
        let text = "a\nb\nc\n";
        assert_eq!(page_texts(text, &pages(text, 2)), ["a\nb", "c\n"]);
        assert_eq!(page_texts(text, &pages(text, 2)).join("\n"), text);

        let text = "a\r\nb\r\nc";
        let got = pages(text, 2);
        assert_eq!(page_texts(text, &got), ["a\r\nb\r", "c"]);
        assert_eq!(page_texts(text, &got).join("\n"), text);
    }

    #[test]
    fn empty_text_has_one_empty_page_and_zero_is_one() {
        assert_eq!(pages("", 300), [page(1, 1, 1, 0, 0)]);
        assert_eq!(pages("a\nb", 0).len(), 2);
    }

    #[test]
    fn versions_and_dates() {
        let cases = [
            ("🎉 2.102.0 (2026-07-31)", Some("2.102.0"), Some("2026-07-31")),
            ("3.4.0 (2026-10-14)", Some("3.4.0"), Some("2026-10-14")),
            ("🎉2.18.0-beta.0（2022-08-24）", Some("2.18.0-beta.0"), Some("2022-08-24")),
            ("🎉 1.0.0 - beta.0 (2020-06-12)", Some("1.0.0-beta.0"), Some("2020-06-12")),
            ("🎉 1.33.1 - 1.38.x", Some("1.33.1"), None),
            ("v10.0.0-rc.1.", Some("10.0.0-rc.1"), None),
            ("1.2.3.4 then 5.6.7", Some("5.6.7"), None),
            ("Version 2.1 (2020-01-011)", None, None),
            ("Released 12020-01-01 or 2020-1-01", None, None),
            ("", None, None),
        ];
        for (heading, version, date) in cases {
            assert_eq!(find_version(heading).as_deref(), version, "{heading}");
            assert_eq!(find_date(heading).as_deref(), date, "{heading}");
        }
    }

    #[test]
    fn release_entries() {
        let text = "---\ntitle: Changelog\n---\n\n# Changelog\n\nIntro.\n\n#### 🎉 2.1.0 (2024-02-01)\n- Feat\n\n```md\n#### 9.9.9 not a heading\n```\n\n#### 2.0.0\n- Fix\n\n## Older\n\n### 1.0.0 (2020-01-01)\n#### 1.0.0-beta.1 (2019-12-01)\n- x\n";
        let got = releases(text);
        let short: Vec<_> =
            got.iter().map(|r| (r.version.as_str(), r.date.as_deref(), r.start_line, r.end_line)).collect();
        assert_eq!(
            short,
            [
                ("2.1.0", Some("2024-02-01"), 9, 15),
                ("2.0.0", None, 16, 18),
                ("1.0.0", Some("2020-01-01"), 21, 21),
                ("1.0.0-beta.1", Some("2019-12-01"), 22, 24),
            ]
        );
        let body = |r: &Release| &text[r.start_byte as usize..r.end_byte as usize];
        assert_eq!(got[0].heading, "🎉 2.1.0 (2024-02-01)");
        assert_eq!(body(&got[1]), "#### 2.0.0\n- Fix\n");
        assert_eq!(body(&got[2]), "### 1.0.0 (2020-01-01)");
        assert_eq!(body(&got[3]), "#### 1.0.0-beta.1 (2019-12-01)\n- x\n");

        let crlf = text.replace('\n', "\r\n");
        let got = releases(&crlf);
        assert_eq!(&crlf[got[2].start_byte as usize..got[2].end_byte as usize], "### 1.0.0 (2020-01-01)");
        assert!(releases("").is_empty());
    }

    // ---- Real inputs (assembled by ../shared/corpus/assemble.sh; skipped without it). ----

    fn real_changelog(file_name: &str) -> Option<String> {
        let root = crate::test_support::real_corpus()?;
        let path = root.join("semi/content/ecosystem/changelog").join(file_name);
        Some(std::fs::read_to_string(path).unwrap())
    }

    #[test]
    fn real_semi_changelog_pages() {
        for (file_name, lines, want_pages) in [("index.md", 5069, 17), ("index-en-US.md", 5211, 18)] {
            let Some(text) = real_changelog(file_name) else {
                return;
            };
            let got = pages(&text, SEMI_PAGE_LINES);
            assert_eq!(got.len(), want_pages, "{file_name}");
            assert_eq!(got.last().unwrap().end_line, lines, "{file_name}");
            assert_eq!(page_texts(&text, &got).join("\n"), text, "{file_name}");
            let (last, full) = got.split_last().unwrap();
            assert!(full.iter().all(|p| p.end_line - p.start_line + 1 == 300));
            assert_eq!(last.number as usize, want_pages);
        }
        let text = real_changelog("index.md").unwrap();
        let first = pages(&text, SEMI_PAGE_LINES).remove(0);
        let first = &text[first.start_byte as usize..first.end_byte as usize];
        assert!(first.starts_with("---\ncategory: 生态与帮助\n"));
        assert!(first.ends_with("#### 🎉 2.89.1 (2025-12-19)\n- 【Fix】"));
    }

    #[test]
    fn real_semi_changelog_releases() {
        let Some(text) = real_changelog("index.md") else {
            return;
        };
        let got = releases(&text);
        assert_eq!(got[0].heading, "🎉 2.102.0 (2026-07-31)");
        assert_eq!(got[0].version, "2.102.0");
        assert_eq!(got[0].date.as_deref(), Some("2026-07-31"));
        assert_eq!(got.last().unwrap().version, "0.0.1");
        // Every heading of this changelog names a version: the 463 headings at the start of a
        // line, plus `- #### 🎉 2.57.0 (2024-04-26)` (line 1045) inside a list item. Of these,
        // 433 are written exactly `#### 🎉 …` (DESIGN's "433 release entries"); 2 more have two
        // spaces after `####`, and 28 (2.43.x and most of the 0.x series) have no 🎉.
        let lines: Vec<&str> = text.split('\n').collect();
        let exact = got.iter().filter(|r| lines[r.start_line as usize - 1].starts_with("#### 🎉")).count();
        let party = got.iter().filter(|r| r.heading.starts_with('🎉')).count();
        println!(
            "zh-CN changelog: {} releases, {party} with 🎉, {exact} written `#### 🎉`, {} without a date",
            got.len(),
            got.iter().filter(|r| r.date.is_none()).count()
        );
        assert_eq!((got.len(), party, exact), (464, 436, 433));
        assert_eq!(got[1].start_line, got[0].end_line + 1);
        assert_eq!(got[0].start_line, 17);
        for pair in got.windows(2) {
            assert_eq!(pair[0].end_line + 1, pair[1].start_line);
        }
        let Some(en) = real_changelog("index-en-US.md") else {
            return;
        };
        let en_got = releases(&en);
        println!("en-US changelog: {} releases, newest {:?}", en_got.len(), en_got[0].heading);
        assert_eq!(en_got[0].heading, "🎉 2.102.0 (2026-07-31)");
        assert_eq!(en_got.len(), 524);
    }
}
