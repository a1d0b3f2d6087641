//! Text and list paging: the budget of one lookup ([`Paging`]), the names an answer echoes, and the cutting of
//! a text or a list into the part that fits with the cursor of the rest.

use crate::budget::{Budget, BudgetError, Cursor, Fence, Part, Request, serve};
use crate::bundle::Bundle;

use super::cache::text_id;
use super::error::LookupError;
use super::set::BundleSet;
use super::views::ListPart;

/// The budget of one lookup and the cursor it continues, if any.
#[derive(Clone, Copy, Debug, Default)]
pub struct Paging<'a> {
    /// Token budget of the response.
    pub budget: Budget,
    /// `next_cursor` of a previous part.
    pub cursor: Option<&'a str>,
}

impl Paging<'_> {
    /// No budget at all: every text whole (for programs that want the exact texts, and tests).
    pub fn unlimited() -> Paging<'static> {
        Paging { budget: Budget { max_tokens: u32::MAX, ..Budget::default() }, cursor: None }
    }
}

/// The text a part is served from ([`BundleSet::part`]): its bytes, where it is stored (the bundle and text key
/// whose token map and cut points it has), the byte ranges of it that the answer serves (the whole text, a code
/// block's span, a document's sections), and the code blocks (fences) a part keeps whole when it can.
#[derive(Clone, Copy)]
pub(super) struct TextRef<'a> {
    /// The whole stored text (a document, its placeholder view, a file, a page).
    pub(super) text: &'a str,
    /// The bundle holding it.
    pub(super) bundle: &'a Bundle,
    /// Its frame key (the token map's and cut points' key).
    pub(super) key: &'a str,
    /// The byte ranges served, in order.
    pub(super) ranges: &'a [(usize, usize)],
    /// The code blocks of the text, by byte span.
    pub(super) fences: &'a [Fence],
}

impl<'a> TextRef<'a> {
    /// `ranges` of `text`, stored in `bundle` under `key`, without fences.
    pub(super) fn new(text: &'a str, (bundle, key): (&'a Bundle, &'a str), ranges: &'a [(usize, usize)]) -> Self {
        TextRef { text, bundle, key, ranges, fences: &[] }
    }

    /// This text with its code blocks.
    pub(super) fn with_fences(self, fences: &'a [Fence]) -> Self {
        TextRef { fences, ..self }
    }
}

/// The `--bundles` directories of this CLI process (in the order given) when they are not the default `out` alone
/// (kept here, below `render`, whose printed commands repeat them, so that the budget can reserve their bytes).
static CLI_BUNDLES: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();

/// Records the CLI's `--bundles` directories ([`crate::render::set_cli_bundles`]); the default `out` alone (or
/// none) is not recorded.
pub(crate) fn record_cli_bundles(dirs: &[String]) {
    if !dirs.is_empty() && dirs != ["out"] {
        let _ = CLI_BUNDLES.set(dirs.to_vec());
    }
}

/// The CLI's `--bundles` directories, if recorded.
pub(crate) fn cli_bundles() -> Option<&'static [String]> {
    CLI_BUNDLES.get().map(Vec::as_slice)
}

/// [`BudgetError::TooSmallForNames`] for `request` under `paging`, whose first part needs `need` tokens of content
/// (the budget that serves it: the envelope, the names' reserve and `need`).
fn too_small_for_names(paging: Paging, request: &Request, need: u32) -> LookupError {
    let needed = crate::budget::ENVELOPE_TOKENS.saturating_add(paging.budget.echo).saturating_add(need);
    let asked = paging.budget.max_tokens;
    BudgetError::TooSmallForNames {
        asked,
        request: request.to_string(),
        needed: needed.max(crate::budget::MIN_MAX_TOKENS),
    }
    .into()
}

/// Most calls an answer's text writes (the continuation and up to two hints, as the skeleton's `--full` and
/// function calls): each repeats the set's names and the CLI's `--bundles` directory.
const ECHO_CALLS: u32 = 3;

/// Tokens of the CLI's `--bundles` directory, by [`crate::budget::bound`] with its quotes, that
/// [`crate::budget::ENVELOPE_TOKENS`] covers in each call: a temporary directory (`/tmp/.tmpAbC123`, 15 bytes), as
/// `tests/it/sweep.rs` runs the CLI on antd-mobile's hidden documents at every budget from 300 to 420.
const CLI_BUNDLES_FREE_TOKENS: u32 = 6;

/// The room the smallest budget leaves beside the envelope when no name needs reserving, where every segment fits
/// (tokens): beside longer names that leave less, texts and lists are served only whole, so a chain never stops at
/// a cursor that cannot be followed at its budget.
const CUT_ROOM: u32 = crate::budget::MIN_MAX_TOKENS - crate::budget::ENVELOPE_TOKENS;

/// An upper bound of a part's structured form: its text's tokens, what escaping the text adds, and the `lists`
/// beside it (tokens).
pub(super) fn structured_tokens(part: &Part, lists: &dyn Fn(&Part) -> u32) -> u32 {
    let escapes = 2 * crate::budget::json_escapes(&part.text) as u32;
    part.tokens.saturating_add(escapes).saturating_add(lists(part))
}

impl BundleSet {
    /// Which rows of a list of `names` (whose rows have token upper bounds `bound(row)`, and whose larger form, text
    /// or JSON, is `whole` tokens long as stored) to serve under `paging`, and the [`ListPart`] saying so.
    pub(super) fn list_part(
        &self,
        request: &Request,
        names: &[&str],
        bound: &dyn Fn(usize) -> u32,
        whole: u32,
        paging: Paging,
    ) -> Result<(std::ops::Range<usize>, ListPart), LookupError> {
        let label = self.label();
        let identity = names.join("\n");
        let first = match paging.cursor {
            Some(c) => {
                let cursor = Cursor::decode(c)?;
                cursor.check(&label, request, &identity)?;
                if cursor.offset as usize >= names.len() {
                    return Err(BudgetError::Malformed { why: "it points past the end of the list".into() }.into());
                }
                cursor.offset as usize
            }
            None => 0,
        };
        let mut part = ListPart {
            rows_total: names.len() as u32,
            first_row: first as u32,
            tokens_exact: true,
            next_cursor: None,
            max_tokens: paging.budget.lowered.then_some(paging.budget.max_tokens),
            terse: false,
        };
        if first == 0 && whole <= paging.budget.content() {
            return Ok((0..names.len(), part));
        }
        part.tokens_exact = false;
        let (kept, _) = crate::budget::listed_within((first..names.len()).map(bound), paging.budget.content());
        // As for texts (`part_with`): beside names that leave less than the smallest budget's room, a list is
        // served only whole, so a chain never stops at a cursor it cannot follow.
        if paging.budget.echo > 0 && paging.budget.content() < CUT_ROOM {
            let need = if kept == 0 { bound(first) } else { 0 };
            return Err(too_small_for_names(paging, request, need.max(CUT_ROOM)));
        }
        let end = (first + kept.max(1)).min(names.len());
        if end < names.len() {
            let (set, text) = (Cursor::set_id(&label), Cursor::text_id(&identity));
            part.next_cursor = Some(Cursor { set, text, request: request.clone(), offset: end as u32 }.encode());
        }
        Ok((first..end, part))
    }

    /// `paging` with tokens reserved for the names the answer echoes beyond what [`crate::budget::ENVELOPE_TOKENS`]
    /// covers: `names` with their repetitions and the note once ([`crate::budget::echo_tokens`]), and the set's own
    /// by all their bytes ([`crate::budget::set_echo_tokens`]: `system`, `version` and the language in the header
    /// and in each of up to [`ECHO_CALLS`] calls, the CLI's `--bundles` directory in each call).
    pub(super) fn echoing<'p>(&self, paging: Paging<'p>, names: &[(&str, u32)]) -> Paging<'p> {
        let note = self.note.get().map(|n| (n.as_str(), 1));
        let all: Vec<(&str, u32)> = names.iter().copied().chain(note).collect();
        // The set's names beyond the few bytes the envelope was measured with (`set_echo_tokens`; the longest
        // language stands for the one served), and the CLI's directory with its shell quotes as the answer's own
        // words are bounded (`budget::bound`, as `diff` and `search` bound the calls they print), beyond
        // `CLI_BUNDLES_FREE_TOKENS`.
        let lang = self.manifest.langs.iter().max_by_key(|l| l.len()).map_or("", String::as_str);
        let set = [
            (self.manifest.system.as_str(), ECHO_CALLS + 1),
            (self.manifest.version.as_str(), ECHO_CALLS + 1),
            (lang, ECHO_CALLS + 1),
        ];
        let bundles = cli_bundles().map_or(0, |dirs| {
            // The first directory's words with its quotes; each further one's with its ` --bundles `.
            let words = dirs.iter().enumerate().fold(0u32, |sum, (i, d)| {
                let arg = if i == 0 { format!("'{d}'") } else { format!(" --bundles '{d}'") };
                sum.saturating_add(crate::budget::bound(&arg))
            });
            words.saturating_sub(CLI_BUNDLES_FREE_TOKENS).saturating_mul(ECHO_CALLS)
        });
        let echo =
            crate::budget::echo_tokens(all).saturating_add(crate::budget::set_echo_tokens(set)).saturating_add(bundles);
        let budget = paging.budget.echoing(echo);
        Paging { budget, ..paging }
    }

    /// The first part of `text` when it is served whole (`ranges` is the whole text, no cursor) and its tokens fit
    /// `room`: built from the token map's total and the text's line count, without its cut points (a scan of the
    /// whole text: 3 M instructions of Semi's Table document, served whole by `doc --detail full` at a large
    /// budget). The same part [`serve`] gives then. `None` when it does not apply, or the text's cut points are
    /// kept already.
    fn whole_part(&self, at: TextRef, room: u32) -> Result<Option<Part>, LookupError> {
        let TextRef { text, bundle, key, ranges, .. } = at;
        let id = text_id(bundle, key);
        let kept = || self.cache.cuts.contains(&id);
        if text.is_empty() || ranges != [(0, text.len())] || kept() {
            return Ok(None);
        }
        let map = self.token_map(bundle, key)?;
        if map.total() > room {
            return Ok(None);
        }
        let lines = crate::line_index::line_count(text);
        Ok(Some(Part {
            text: text.to_string(),
            tokens: map.total(),
            tokens_exact: map.forced.is_empty(),
            lines: (1, lines - u32::from(text.ends_with('\n'))),
            text_lines: lines,
            ..Part::default()
        }))
    }

    /// Serves the ranges of `at` as one part within the budget of `paging`, continuing its cursor when given (which
    /// must continue `request` on this set). Returns the part and the cursor of the next one.
    pub(super) fn part(
        &self,
        request: &Request,
        at: TextRef,
        paging: Paging,
    ) -> Result<(Part, Option<String>), LookupError> {
        self.part_with(request, at, paging, &|_| 0)
    }

    /// [`BundleSet::part`] for a view whose structured form carries more than the part's text: `lists` bounds, in
    /// tokens, what the view's lists add to its JSON for a given part. The part is shrunk until its tokens, the
    /// tokens JSON escaping can add to it (two per escaped byte, [`crate::budget::json_escapes`]: `\n` before an
    /// indentation splits one token into three) and the lists fit
    /// the content budget, so that the text item and the structuredContent both stay within `max_tokens`.
    pub(super) fn part_with(
        &self,
        request: &Request,
        at: TextRef,
        paging: Paging,
        lists: &dyn Fn(&Part) -> u32,
    ) -> Result<(Part, Option<String>), LookupError> {
        let label = self.label();
        let room = paging.budget.content();
        // A measured budget's reserve holds the lists as the answer printed them (`render::fitted`).
        let lists: &dyn Fn(&Part) -> u32 = if paging.budget.measured { &|_| 0 } else { lists };
        // The structured form's bound: the part's text, what escaping adds, and the lists beside it.
        let fits = |part: &Part| structured_tokens(part, lists) <= room;
        let whole = match paging.cursor {
            None => self.whole_part(at, room)?.filter(|p| fits(p)),
            Some(_) => None,
        };
        let mut part = match whole {
            Some(part) => part,
            None => self.cut_part(request, at, paging, lists)?,
        };
        // Without names beyond the envelope's, the smallest budget leaves this room, where every segment fits: a
        // chain always goes on. Beside longer names that leave less, a text is served only when it is served
        // whole, so a chain never stops at a cursor that cannot be followed at its budget: the first part is
        // refused instead, naming the budget that serves it (trial item 1).
        if paging.budget.echo > 0 && room < CUT_ROOM {
            if !fits(&part) {
                // Not even the first segment fits: an error, never an answer over the budget.
                let need = structured_tokens(&part, lists);
                return Err(too_small_for_names(paging, request, need.max(CUT_ROOM)));
            }
            if part.next_offset.is_some() || paging.cursor.is_some() {
                return Err(too_small_for_names(paging, request, CUT_ROOM));
            }
        }
        part.max_tokens = paging.budget.lowered.then_some(paging.budget.max_tokens);
        // The text's hash only when a cursor carries it (hashing Semi's Table document was 0.25 M instructions).
        let next = part.next_offset.map(|offset| {
            let (set, text) = (Cursor::set_id(&label), Cursor::text_id(at.text));
            Cursor { set, text, request: request.clone(), offset }.encode()
        });
        Ok((part, next))
    }

    /// [`BundleSet::part_with`]'s part when the text is cut: from the cursor's offset (checked against `request`
    /// and the text), the longest run of segments whose structured form (text, escapes, `lists`) fits the budget.
    fn cut_part(
        &self,
        request: &Request,
        at: TextRef,
        paging: Paging,
        lists: &dyn Fn(&Part) -> u32,
    ) -> Result<Part, LookupError> {
        let TextRef { text, bundle, key, ranges, fences } = at;
        let cuts = self.cuts(bundle, key, text)?;
        let offset = match paging.cursor {
            Some(c) => {
                let cursor = Cursor::decode(c)?;
                cursor.check(&self.label(), request, text)?;
                let total: usize = ranges.iter().map(|(a, b)| b.saturating_sub(*a)).sum();
                if cursor.offset as usize >= total.max(1) {
                    return Err(BudgetError::Malformed { why: "it points past the end of the text".into() }.into());
                }
                if !crate::budget::valid_offset(text, &cuts, ranges, cursor.offset) {
                    return Err(BudgetError::Malformed { why: "it does not point where a part starts".into() }.into());
                }
                cursor.offset
            }
            None => 0,
        };
        let room = paging.budget.content();
        // A fence a part of this budget serves whole: its structured form (text and escapes) beside the lists of
        // an empty part fits.
        let fixed = lists(&Part::default());
        let fits_whole = |f: &Fence| {
            let escapes = text.get(f.start..f.end).map_or(u32::MAX, |t| 2 * crate::budget::json_escapes(t) as u32);
            cuts.tokens(f.start, f.end).0.saturating_add(escapes).saturating_add(fixed) <= room
        };
        let mut part = serve(text, &cuts, ranges, offset, room, fences, &fits_whole);
        if structured_tokens(&part, lists) > room {
            // The largest text whose structured form fits, by bisection over the text's share of the budget (the
            // bound grows with it). Shrinking by the excess instead could end far below the budget when the lists
            // drop as whole tables leave the part (Semi's Button props at 1,200 tokens served 11). Every candidate
            // is a prefix of the first part's text (served from the same offset with less), so its escapes are
            // read from the first part's running count, not counted again (14 scans of 30 KB for `doc --full`).
            let mut escaped = Vec::with_capacity(part.text.len() + 1);
            escaped.push(0u32);
            let mut sum = 0u32;
            for b in part.text.bytes() {
                sum += u32::from(crate::budget::escape_bytes(b));
                escaped.push(sum);
            }
            let whole = std::mem::take(&mut part.text);
            let fits = |p: &Part| {
                let escapes = match escaped.get(p.text.len()) {
                    Some(&e) if whole.starts_with(&p.text) => 2 * e,
                    _ => 2 * crate::budget::json_escapes(&p.text) as u32,
                };
                p.tokens.saturating_add(escapes).saturating_add(lists(p)) <= room
            };
            let (mut lo, mut hi) = (0, room);
            part = serve(text, &cuts, ranges, offset, 0, fences, &fits_whole);
            while hi - lo > 1 {
                let mid = lo + (hi - lo) / 2;
                let candidate = serve(text, &cuts, ranges, offset, mid, fences, &fits_whole);
                if fits(&candidate) {
                    (lo, part) = (mid, candidate);
                } else {
                    hi = mid;
                }
            }
        }
        Ok(part)
    }
}
