//! Reader side of search: [`BundleSet::search`] ranks units with BM25F over the query's terms and answers with the
//! best of them, their texts within a token budget, and the exact call that gets more.
//!
//! Only what a query needs is decompressed: the small `meta` frame, the term shards of the query's terms, the unit
//! chunks of the hits, and the frames holding the hits' texts (the document, source file or changelog page frames
//! the other lookups serve too: one stored copy of every text). A [`SearchIndex`] keeps what it decoded, and the
//! set keeps its index, so a long-running server decodes each frame once.
//!
//! Any string is a valid query: nothing in it is syntax. An empty query is answered with a message, a query of no
//! known term with no hits.
//!
//! This module holds the search's shapes and its one entry, [`search_sets`], whose steps live beside it:
//! `loaded` (the index), `rank` (scoring, BM25F, corrections), `hits` (what each hit is and its text), `cursor`,
//! `fit` (what fits the budget) and `render` (the answer's text); `sets` chooses the sets to search. Their public
//! items are re-exported here, at the paths callers use.

use std::sync::Arc;

use schemars::JsonSchema;
use serde::Serialize;

use super::cursor;
use super::fit;
use super::hits::listed_hits;
use super::rank::{Ranked, ranked_sets};
use super::sets::{MAX_SKIPPED, capped_skipped};
use super::{Kind, Weights};
use crate::read::{BundleSet, LookupError, Served};

pub use super::loaded::SearchIndex;
pub use super::render::header_text;
pub use super::sets::{SetsToSearch, sets_to_search};
pub use crate::budget::bound;

/// Default token budget of an answer.
pub const DEFAULT_MAX_TOKENS: u32 = 2000;
/// Hits are kept down to this fraction of the top score.
pub const MIN_SCORE_RATIO: f32 = 0.5;
/// Most hits listed in an answer (with or without their text).
pub const MAX_HITS: usize = 10;
/// Most distinct query terms ranked (a longer question keeps its first ones).
pub const MAX_QUERY_TERMS: usize = 256;

/// The longest search query accepted, in bytes (16 KiB: a long question is a few hundred, a pasted paragraph a few
/// thousand; a thousandth of the 16 MiB a request may carry). Longer ones are refused before any analysis
/// ([`LookupError::QueryTooLong`]).
pub const MAX_QUERY_BYTES: usize = 16 * 1024;
/// Adjacent units of one document are merged into one hit up to this many tokens (the unit size limit).
pub const MERGE_MAX_TOKENS: u32 = 1200;
/// Most "did you mean" suggestions per misspelt word.
pub const SUGGESTIONS: usize = 3;

/// What to search and how much to return.
#[derive(Clone, Debug, Default)]
pub struct SearchOptions {
    /// Only units of this component (any spelling); changelog releases that mention it.
    pub component: Option<String>,
    /// Only units of this kind.
    pub kind: Option<Kind>,
    /// Only documents and changelog in this language (functions have none and always qualify). Default: the
    /// query's script: Chinese/Japanese text searches the `zh`/`ja` languages, other text the others (each only
    /// when the set has such a language).
    pub lang: Option<String>,
    /// Token budget of the answer (default [`DEFAULT_MAX_TOKENS`]; at least [`crate::budget::MIN_MAX_TOKENS`], as
    /// for every lookup: less is a [`LookupError::Budget`]).
    pub max_tokens: Option<u32>,
    /// The operator's cap on any answer: `max_tokens` never exceeds it.
    pub token_cap: Option<u32>,
    /// Ranking weights (default: those the index was built with); for tuning.
    pub weights: Option<Weights>,
    /// The `next_cursor` of an earlier part of the same search: this part lists the hits after those.
    pub cursor: Option<String>,
    /// Sets left out before the search because they do not open ([`SetsToSearch::skipped`]): the answer's
    /// [`SearchView::skipped`] names them first.
    pub skipped: Vec<String>,
}

/// The call that gets more of a hit: an MCP tool with its arguments, and the CLI equivalent.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct FollowUp {
    /// MCP tool name: `component_details` (with `sections`: heading slugs), `get_code_block`,
    /// `get_function_code` or `get_changelog`.
    pub tool: String,
    /// Its arguments, the system, version and language served included: the same call as [`FollowUp::call`], also
    /// in a hit shortened to fit the budget; left out only at the shortest, where `call` and `tool` alone remain.
    #[serde(skip_serializing_if = "serde_json::Map::is_empty")]
    pub arguments: serde_json::Map<String, serde_json::Value>,
    /// The call written out, e.g. `get_code_block(system="semi", version="2.102.0", lang="zh-CN",
    /// component="table", index=12)`.
    pub call: String,
    /// The same as a command line, e.g. `mydesign-docs code-block table 12 --system semi --version 2.102.0 --lang
    /// zh-CN` (documents: `doc table --section <slug>`); absent at the shortest.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub cli: String,
    /// The command line a hit listed at the shortest writes in the CLI's text (trial "edges2" item 5: the CLI
    /// printed the MCP form there), when `cli` is left out of the structured form; not serialized.
    #[serde(skip)]
    #[schemars(skip)]
    pub cli_text: String,
}

/// An example named by a hit.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct HitExample {
    /// Its code block number (`get_code_block` / `code-block` serves it).
    pub block: u32,
    /// Repository-relative path of its file.
    pub path: String,
    /// Its title, when it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Kept beside the document's text (a story): it has no lines in the document.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub beside: bool,
}

/// Examples a document hit names at most (the first ones of its sections).
pub const HIT_EXAMPLES: usize = 3;

/// One hit: a unit, or adjacent units of one document merged.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct SearchHit {
    /// Design system of the hit, when several were searched (its follow-up call names it too).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub system: Option<String>,
    /// What it is.
    pub kind: Kind,
    /// Component name (none for the changelog).
    pub component: Option<String>,
    /// True when `component` is a guide (a page that documents no component; `components --guides`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub guide: bool,
    /// Repository-relative path of the document, source file or changelog.
    pub document: String,
    /// Language of the document or changelog (none for source files).
    pub lang: Option<String>,
    /// Enclosing headings (documents, code blocks), qualified name (functions) or release heading (changelog);
    /// absent when empty (a shortened hit's: its call names the section).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub section: Vec<String>,
    /// First line in the document.
    pub start_line: u32,
    /// Last line (inclusive).
    pub end_line: u32,
    /// Language of a code block (the info string's first word).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code_lang: Option<String>,
    /// The examples the hit is or holds (a code block that is an example file, a story, a demo; the example
    /// blocks of a document hit's sections, at most [`HIT_EXAMPLES`]): a hit on an example's code, title or
    /// description names it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub examples: Vec<HitExample>,
    /// BM25F score (higher is better; comparable within one answer only).
    pub score: f32,
    /// Tokens of the hit's text (stored counts).
    pub tokens: u32,
    /// For a document section: the sections its follow-up call serves, as line ranges (inclusive), whose lines
    /// and tokens the hit states and whose text it shows (trial item 3: it stated its own lines while the call
    /// served the section with its subsections).
    #[serde(skip)]
    #[schemars(skip)]
    pub spans: Vec<(u32, u32)>,
    /// The text, exactly as in the document or file; absent when it did not fit the budget (use `follow_up`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// How to get the whole section, code block, function or changelog page.
    pub follow_up: FollowUp,
    // (Shortened further when it must: the call of merged sections names the best one, whose lines the hit then
    // states; then `follow_up.cli` is left out of the JSON (the CLI text still writes it); at the shortest `follow_up.arguments`
    // are left out too. The call always names its section.)
    /// True when the hit is listed shortened to fit a small budget (a part's first hit only): its `section` is left
    /// out; `follow_up` (its arguments the same call as `call`) still says how to get it.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub shortened: bool,
}

/// `search`: the best units for a query.
#[derive(Clone, Debug, Serialize, JsonSchema)]
pub struct SearchView {
    /// Source of the answer.
    #[serde(flatten)]
    pub served: Served,
    /// The query (cut to 120 characters, and to a sixth of `max_tokens` by its bytes outside ASCII; to a twelfth
    /// where that lists a part's first hit).
    pub query: String,
    /// Languages searched (functions have none and are always searched).
    pub langs: Vec<String>,
    /// Hits, best first: those scoring at least half the top score, with their texts while the budget lasts.
    pub hits: Vec<SearchHit>,
    /// Hits in all parts.
    pub total: u32,
    /// Number of the first hit listed (1-based; 0 with none), as the text says; not in the JSON form, where it is
    /// `total - omitted - hits + 1`.
    #[serde(skip)]
    #[schemars(skip)]
    pub first: u32,
    /// Hits after those listed (the next parts list them).
    pub omitted: u32,
    /// Cursor of the next part.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
    /// The call that lists the next part (the same query, filters and budget, with `next_cursor`), as the text
    /// writes it; not in the JSON form, where `next_cursor` is the one new argument.
    #[serde(skip)]
    #[schemars(skip)]
    pub next: Option<FollowUp>,
    /// Tokens of the answer, an upper bound for both its forms (the text, and this view as compact JSON): the texts
    /// served (stored counts) plus upper bounds of the headers and the JSON around them. Never over `max_tokens`.
    pub tokens: u32,
    /// The budget applied.
    pub max_tokens: u32,
    /// Why there are no hits, or how to get more.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// Bundles whose hits were left out because they could not be read, each with why (`table.bundle: truncated
    /// …`): the intact bundles are searched, and this says what is missing (at most [`SKIPPED_CHARS`] each).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub skipped: Vec<String>,
}

/// Characters of each [`SearchView::skipped`] entry, at most.
pub const SKIPPED_CHARS: usize = 200;

impl BundleSet {
    /// The search index of this set, opened on first use and kept.
    ///
    /// # Errors
    /// [`LookupError::NoSearchIndex`] for a set built before search existed; a damaged bundle.
    pub fn search_index(&self) -> Result<Arc<SearchIndex>, LookupError> {
        self.kept(|set| {
            let m = set.head();
            let entry = m
                .search
                .as_ref()
                .ok_or_else(|| LookupError::NoSearchIndex { system: m.system.clone(), version: m.version.clone() })?;
            SearchIndex::open(set.bundle(&entry.bundle)?)
        })
    }

    /// Searches the set for `query` (any string: a question, names, Chinese or English) and answers with the best
    /// units within the token budget.
    ///
    /// # Errors
    /// An unknown component or language in the filters, a set without search index, a damaged bundle, a
    /// `max_tokens` under [`crate::budget::MIN_MAX_TOKENS`]. The query only when over [`MAX_QUERY_BYTES`].
    pub fn search(&self, query: &str, opts: &SearchOptions) -> Result<SearchView, LookupError> {
        search_sets(&[self], query, opts)
    }
}

/// Searches `sets` for `query` ([`BundleSet::search`] on each) and answers with the best hits of all of them within
/// one token budget, best first. With several sets, each hit names its system (and its follow-up call carries it);
/// a `component` filter applies to the sets that have that component.
///
/// The steps: the budget, ranking each set ([`super::rank`]), the list of every hit ([`super::hits`]), the cursor's
/// place in it ([`super::cursor`]), and what of it this part lists within the budget ([`super::fit`]).
///
/// # Errors
/// As [`BundleSet::search`]; an unknown component is an error only when no set has it.
pub fn search_sets(sets: &[&BundleSet], query: &str, opts: &SearchOptions) -> Result<SearchView, LookupError> {
    if query.len() > MAX_QUERY_BYTES {
        return Err(LookupError::QueryTooLong { bytes: query.len(), max: MAX_QUERY_BYTES });
    }
    // The budget is checked as every lookup's is (at least `MIN_MAX_TOKENS`); search's default is lower.
    let cap = opts.token_cap.unwrap_or(u32::MAX).max(crate::budget::MIN_MAX_TOKENS);
    let max_tokens = match opts.max_tokens {
        Some(asked) => crate::budget::Budget::new(cap, Some(asked))?.max_tokens,
        None => DEFAULT_MAX_TOKENS.min(cap),
    };
    let several = sets.len() > 1;
    let (mut parts, mut skipped) = ranked_sets(sets, query, opts, max_tokens)?;
    let note = parts.iter().find_map(|(_, r)| r.note.clone());
    let mut view = combined_view(&parts, several);
    if parts.iter().all(|(_, r)| r.groups.is_empty()) {
        return fit::no_hits(view, &parts, skipped, max_tokens);
    }
    view.message = None;
    let hits = listed_hits(&mut parts, several, &mut skipped)?;
    let total = hits.len() as u32;
    let (sets_hash, search_hash) = (cursor::sets_id(sets), cursor::search_id(query, opts));
    let skip = cursor::skip(opts.cursor.as_deref(), sets_hash, search_hash, total, &view.query)?;
    view.skipped = capped_skipped(skipped, MAX_SKIPPED);
    let search =
        fit::Search { parts: &parts, sets, query, opts, cap, max_tokens, note, total, skip, sets_hash, search_hash };
    search.part(view, &hits)
}

/// The answer's frame before any hit: the first set's answer alone, naming every set searched (systems, versions,
/// notes, languages) when there are `several`.
fn combined_view(parts: &[(&BundleSet, Ranked)], several: bool) -> SearchView {
    let mut view = parts[0].1.view.clone();
    if several {
        let systems: Vec<&str> = parts.iter().map(|(s, _)| s.head().system.as_str()).collect();
        let versions: Vec<&str> = parts.iter().map(|(s, _)| s.head().version.as_str()).collect();
        let notes: Vec<String> = parts.iter().filter_map(|(s, _)| s.served().note).collect();
        let note = (!notes.is_empty()).then(|| notes.join("; "));
        view.served = Served { system: systems.join(", "), version: versions.join(", "), note };
        let mut langs: Vec<String> = parts.iter().flat_map(|(_, r)| r.view.langs.iter().cloned()).collect();
        langs.sort();
        langs.dedup();
        view.langs = langs;
    }
    view
}
