//! Fitting: what one part of a search lists within its token budget. Both forms of the answer (the text, and the
//! view as compact JSON: MCP's structuredContent) stay within the budget: stored counts for the hits' texts, and
//! upper bounds (see [`bound`]) for everything around them. A reserve holds the longest ending any part writes
//! ([`Search::reserve`]); hit headers are listed in half of what it leaves ([`Search::list`]), texts fill the rest
//! ([`Search::show_texts`]); a first hit that does not fit even shortened is passed over, naming the budget that
//! lists it ([`Search::part`]). An answer without hits fits its `skipped` entries to the budget ([`no_hits`]).

use super::cursor::{SearchCursor, next_call};
use super::query::{MAX_HITS, SearchHit, SearchOptions, SearchView};
use super::rank::{Group, Ranked};
use super::render::{
    JOIN_SLACK, NOT_SHOWN, bounded, echo_within, header_text, json_string_bound, over_budget, passed_message,
    texts_message,
};
use super::sets::{MAX_SKIPPED, capped_skipped, left_out, skipped_entry};
use crate::budget::bound;
use crate::read::{BundleSet, LookupError};
use crate::render::{Render, Surface};

/// The answer when no set has a hit: `view` with the "did you mean" message of a set that has one, and as many
/// `skipped` entries as fit the budget (the rest counted).
///
/// # Errors
/// [`crate::budget::BudgetError::TooSmallForNames`] when even without entries it is over `max_tokens` (long names,
/// many suggestions): refused rather than over the budget.
pub(super) fn no_hits(
    mut view: SearchView,
    parts: &[(&BundleSet, Ranked)],
    skipped: Vec<String>,
    max_tokens: u32,
) -> Result<SearchView, LookupError> {
    // The first set's message (the same words for every set but "did you mean").
    let message = parts.iter().find_map(|(_, r)| r.view.message.clone().filter(|m| m.contains("did you mean")));
    if let Some(m) = message {
        view.message = Some(m);
    }
    // What was left out is said here too, as many entries as fit the budget (the rest counted).
    let mut keep = skipped.len().min(MAX_SKIPPED);
    loop {
        view.skipped = capped_skipped(skipped.clone(), keep);
        let view = bounded(view.clone());
        if view.tokens <= max_tokens {
            return Ok(view);
        }
        if keep == 0 {
            // Long names or many suggestions: refused rather than over the budget.
            return Err(over_budget(&view, max_tokens));
        }
        keep -= 1;
    }
}

/// One part of a search with hits, as `search_sets` asks for it: the sets and their ranked parts, the query and
/// options, the budget, and where the cursor puts the part in the list of all hits.
pub(super) struct Search<'a> {
    /// Each set searched with its ranking (the hits' `usize` indexes into it).
    pub parts: &'a [(&'a BundleSet, Ranked)],
    /// The sets asked for (the continuation names them).
    pub sets: &'a [&'a BundleSet],
    pub query: &'a str,
    pub opts: &'a SearchOptions,
    /// The operator's cap (no call can ask past it).
    pub cap: u32,
    pub max_tokens: u32,
    /// The "did you mean" note, written before any message.
    pub note: Option<String>,
    /// Hits in all parts.
    pub total: u32,
    /// Hits listed by the parts before this one.
    pub skip: u32,
    /// [`super::cursor::sets_id`] and [`super::cursor::search_id`] of this search, for the next cursor.
    pub sets_hash: u32,
    pub search_hash: u32,
}

/// The sizes of a part as it is filled: upper bounds of its text and JSON forms, and how its continuation is
/// written.
struct Reserve {
    /// Bound of the text form so far (the reserve, then what is listed).
    text: u32,
    /// Bound of the JSON form so far.
    json: u32,
    /// The reserve with the call written out, kept to name the budget that lists a hit passed over.
    full: (u32, u32),
    /// The continuation is too long to write out within half the budget: it is written short (the cursor).
    long_query: bool,
    /// The budget at which the continuation is written out in half: what the messages ask for.
    needed: u32,
    /// The message saying the continuation is written short.
    too_long: String,
}

/// The bounds a hit's header adds to the text form (with the line standing for a text not shown) and to the JSON
/// form.
fn sizes(hit: &SearchHit) -> (u32, u32) {
    let header = bound(&header_text(hit, Surface::Mcp)).max(bound(&header_text(hit, Surface::Cli))) + JOIN_SLACK;
    (header + bound(NOT_SHOWN), bound(&serde_json::to_string(hit).unwrap_or_default()) + JOIN_SLACK)
}

impl Search<'_> {
    /// `m` after the "did you mean" note.
    fn with_note(&self, m: Option<String>) -> Option<String> {
        match (&self.note, m) {
            (Some(n), Some(m)) => Some(format!("{n}. {m}")),
            (Some(n), None) => Some(n.clone()),
            (None, m) => m,
        }
    }

    /// The reserve: the bounds of `view` written with the longest ending any part may write (the note, the longer
    /// of its two messages, the next call with the longest cursor, the largest figures).
    fn reserve(&self, view: &SearchView) -> Reserve {
        let max_tokens = self.max_tokens;
        let longest = SearchCursor { sets: u32::MAX, search: u32::MAX, skip: u32::MAX }.encode();
        // The longer of the two messages a part can carry before the continuation's: texts not shown, or a first
        // hit passed over (with the budget that lists it).
        let first_message = [texts_message(true), passed_message(99_999, 999_999, u32::MAX)]
            .into_iter()
            .max_by_key(String::len)
            .unwrap_or_default();
        let placeholder = SearchView {
            tokens: 999_999,
            total: 99_999,
            first: 99_999,
            omitted: 99_999,
            message: self.with_note(Some(first_message.clone())),
            next_cursor: Some(longest.clone()),
            next: Some(next_call(self.sets, self.query, self.opts, &longest)),
            ..view.clone()
        };
        let mut text = bound(&placeholder.render(Surface::Cli)).max(bound(&placeholder.render(Surface::Mcp)));
        let mut json = bound(&serde_json::to_string(&placeholder).unwrap_or_default());
        let full = (text, json);
        // A continuation too long to write out within half the budget (a long query, a long `--bundles` directory)
        // is written short: the cursor, to pass to the same search (`render` writes it when `next` is absent), with
        // a message naming the budget that writes the call out (trial: the text carried no continuation at all).
        let long_query = text.max(json) > max_tokens / 2;
        let needed = 2 * text.max(json) + 1;
        let too_long = format!(
            "the call that continues is too long to write out at max_tokens {max_tokens} (max_tokens {needed} or \
             more writes it)"
        );
        if long_query {
            let placeholder = SearchView {
                next: None,
                message: self.with_note(Some(format!("{first_message}. {too_long}"))),
                ..placeholder.clone()
            };
            text = bound(&placeholder.render(Surface::Cli)).max(bound(&placeholder.render(Surface::Mcp)));
            json = bound(&serde_json::to_string(&placeholder).unwrap_or_default());
        }
        Reserve { text, json, full, long_query, needed, too_long }
    }

    /// Hit `hit` of group `g` of set `i` at shortening `level`: 0 whole, 1 the best section alone (its lines
    /// stated), 2 without the CLI form in the structured form (the CLI's text still writes it), 3 without the
    /// structured arguments (`call` alone), 4 the CLI's text writing the MCP call, only when the command line does
    /// not fit. The call keeps its section at every level: a hit never states lines its call does not serve (a
    /// call of the whole document did, trial "edges2" item 2).
    fn level(&self, i: usize, g: &Group, hit: &SearchHit, level: u8) -> Result<SearchHit, LookupError> {
        let (set, ranked) = &self.parts[i];
        let mut h = if level == 0 { hit.clone() } else { set.hit(&ranked.ix, g, 1)? };
        if level >= 2 {
            // Out of the structured form; the CLI's text still writes the command line.
            h.follow_up.cli_text = std::mem::take(&mut h.follow_up.cli);
        }
        if level >= 3 {
            // The shortest: the call written out alone (no arguments beside it that could disagree).
            h.follow_up.arguments.clear();
        }
        if level == 4 {
            // Only where the command line itself cannot fit (a `--bundles` directory of hundreds of characters):
            // the CLI's text writes the MCP call rather than pass the hit over.
            h.follow_up.cli_text.clear();
        }
        h.system = hit.system.clone();
        Ok(h)
    }

    /// The hits this part lists, without their texts: best first without gaps, in at most half of what the reserve
    /// leaves (so that a larger budget lists at least as many: the headers' sizes do not depend on it). The first
    /// hit of a part is always listed, shortened when it must be ([`Search::level`]); one that does not fit even so
    /// is not, and the budget that would list it is returned beside.
    #[allow(clippy::type_complexity)]
    fn list<'h>(
        &self,
        hits: &'h [(usize, Group, SearchHit)],
        r: &mut Reserve,
    ) -> Result<(Vec<(usize, &'h Group, SearchHit)>, Option<u32>), LookupError> {
        let max_tokens = self.max_tokens;
        let reserve = r.text.max(r.json);
        let listing = reserve + max_tokens.saturating_sub(reserve) / 2;
        let mut listed: Vec<(usize, &Group, SearchHit)> = Vec::new();
        // The budget that would list a first hit passed over here.
        let mut lists_passed: Option<u32> = None;
        for (i, g, hit) in hits.iter().skip(self.skip as usize) {
            if listed.len() >= MAX_HITS {
                break;
            }
            let (header, in_json) = sizes(hit);
            if r.text + header <= listing && r.json + in_json <= listing {
                r.text += header;
                r.json += in_json;
                listed.push((*i, g, hit.clone()));
                continue;
            }
            if listed.is_empty() {
                // The first hit of the part: listed whole when it fits the whole budget, else shortened.
                let mut found = None;
                let mut shortest = (0, 0);
                for n in 0..=4u8 {
                    let h = self.level(*i, g, hit, n)?;
                    let (header, in_json) = sizes(&h);
                    if r.text + header <= max_tokens && r.json + in_json <= max_tokens {
                        found = Some((h, header, in_json));
                        break;
                    }
                    shortest = (header, in_json);
                }
                if found.is_none() {
                    // Passed over: the smallest budget that lists it shortest. Below `needed` the continuation is
                    // written short (this reserve); from `needed` on, whole (the full reserve). A few tokens more
                    // for the digits of the budget itself, written in the answer.
                    let (header, in_json) = shortest;
                    let short = (r.text + header).max(r.json + in_json) + 4;
                    let full = (r.full.0 + header).max(r.full.1 + in_json) + 4;
                    lists_passed = Some(if !r.long_query || short >= r.needed { full.max(r.needed) } else { short });
                }
                if let Some((h, header, in_json)) = found {
                    r.text += header;
                    r.json += in_json;
                    listed.push((*i, g, h));
                }
            }
            break;
        }
        Ok((listed, lists_passed))
    }

    /// Texts of the `listed` hits, best hit first, while they fit (a hit whose text does not fit keeps its
    /// follow-up call alone). A text that cannot be read is left out and said in `view.skipped` while that fits.
    fn show_texts(
        &self,
        listed: &mut [(usize, &Group, SearchHit)],
        r: &mut Reserve,
        view: &mut SearchView,
    ) -> Result<(), LookupError> {
        let max_tokens = self.max_tokens;
        for (i, g, hit) in listed {
            let (set, ix) = (self.parts[*i].0, &self.parts[*i].1.ix);
            // Merged neighbours' counts are summed: each join may cost a token more than the parts did.
            let tokens = hit.tokens + JOIN_SLACK * (g.units.len() as u32).saturating_sub(1);
            let shown = bound(NOT_SHOWN);
            if r.text + tokens > max_tokens + shown || r.json + tokens > max_tokens {
                continue;
            }
            let text = match set.hit_text(ix, g, &hit.spans) {
                Ok(text) => text,
                Err(e) if left_out(&e, set) => {
                    // Listed without its text (its call names the damage when made), and said so while it fits.
                    let entry = skipped_entry(&set.hit_source(ix, g), &e);
                    let cost = bound(&format!("[skipped, unreadable: {entry}]\n")) + 3;
                    let fits = r.text + cost <= max_tokens && r.json + cost <= max_tokens;
                    if fits && !view.skipped.contains(&entry) && view.skipped.len() <= MAX_SKIPPED {
                        r.text += cost;
                        r.json += cost;
                        view.skipped.push(entry);
                    }
                    continue;
                }
                Err(e) => return Err(e),
            };
            let text_in_json = json_string_bound(&text, tokens);
            if r.text - shown + tokens <= max_tokens && r.json + text_in_json <= max_tokens {
                r.text = r.text - shown + tokens;
                r.json += text_in_json;
                hit.text = Some(text);
            }
        }
        Ok(())
    }

    /// The part as written with `listed` (and `passed` hits passed over, listable at `lists_passed`), its size not
    /// yet stated: the figures, the next cursor and call, and the messages.
    fn written(
        &self,
        view: &SearchView,
        r: &Reserve,
        listed: Vec<SearchHit>,
        passed: u32,
        lists_passed: Option<u32>,
    ) -> SearchView {
        let mut view = view.clone();
        let (skip, total) = (self.skip, self.total);
        let n = listed.len() as u32;
        view.hits = listed;
        view.total = total;
        view.first = if n > 0 { skip + 1 } else { 0 };
        view.omitted = total - skip - n - passed;
        if view.omitted > 0 {
            let cursor =
                SearchCursor { sets: self.sets_hash, search: self.search_hash, skip: skip + n + passed }.encode();
            view.next = (!r.long_query).then(|| next_call(self.sets, self.query, self.opts, &cursor));
            view.next_cursor = Some(cursor);
        }
        let without_text = view.hits.iter().any(|h| h.text.is_none());
        let mut message = without_text.then(|| texts_message(self.opts.max_tokens.is_none()));
        if passed > 0 {
            message = Some(passed_message(skip + 1, lists_passed.unwrap_or(r.needed), self.cap));
        }
        if r.long_query && view.omitted > 0 {
            message = Some(message.map_or(String::new(), |m| m + ". ") + &r.too_long);
        }
        view.message = self.with_note(message);
        view
    }

    /// This part of the search: `view` (the answer's frame, its `skipped` entries in) with the hits that fit, from
    /// `hits` (every hit of the search, [`super::hits::listed_hits`]) after the cursor.
    ///
    /// # Errors
    /// A hit's bundle that fails otherwise than by being unreadable; an answer whose reserve alone is over the
    /// budget ([`crate::budget::BudgetError::TooSmallForNames`]).
    pub(super) fn part(
        &self,
        mut view: SearchView,
        hits: &[(usize, Group, SearchHit)],
    ) -> Result<SearchView, LookupError> {
        let max_tokens = self.max_tokens;
        let mut r = self.reserve(&view);
        let (mut listed, lists_passed) = self.list(hits, &mut r)?;
        self.show_texts(&mut listed, &mut r, &mut view)?;
        // A first hit too long to list even shortened (a path or heading of thousands of characters) is passed
        // over, and said so: the cursor goes on after it.
        let passed = u32::from(listed.is_empty() && self.skip < self.total);
        if passed > 0 {
            // The reserve held the longest ending any part may write (the longest message, cursor and figures):
            // what this part writes may leave its first hit room, shortened as above. It is listed when the bound
            // of the part as written with it (its true bound, stated) is within the budget (trial "edges2" item 3:
            // every part of a search of two systems said "max_tokens 309 lists it" at 300, using ~144 tokens).
            // Last, with the query echoed in half its share (the echo only: the cursor and the calls carry the
            // query).
            if let Some((i, g, hit)) = hits.get(self.skip as usize) {
                for share in [max_tokens, max_tokens / 2] {
                    for n in 0..=4u8 {
                        let mut with = self.written(&view, &r, vec![self.level(*i, g, hit, n)?], 0, lists_passed);
                        with.query = echo_within(self.query.trim(), share);
                        let with = bounded(with);
                        if with.tokens <= max_tokens {
                            return Ok(with);
                        }
                    }
                }
            }
        }
        let listed = listed.into_iter().map(|(_, _, h)| h).collect();
        let mut view = self.written(&view, &r, listed, passed, lists_passed);
        view.tokens = r.text.max(r.json);
        if view.tokens > max_tokens {
            // The reserve alone is over the budget (long names: the set's, a component's, skipped entries), so no
            // hit is listed: the bound of what is written is stated instead, and an answer that could go over is
            // refused.
            let written = bounded(view.clone());
            if written.tokens > max_tokens {
                return Err(over_budget(&written, max_tokens));
            }
            view = written;
        }
        Ok(view)
    }
}
