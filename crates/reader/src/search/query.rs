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

use std::collections::HashSet;
use std::sync::{Arc, OnceLock};

use schemars::JsonSchema;
use serde::Serialize;

use super::analyze::{analyze, is_cjk};
use super::{Kind, LoadedShard, SearchMeta, TermShard, UnitChunk, UnitInfo, Weights, keys, shard_of};
use crate::bundle::{Bundle, BundleError};
use crate::model::{ChangelogMeta, CodeBlockMeta, ComponentMeta, DocMeta, SectionMeta};
use crate::read::{BundleSet, Library, LookupError, Served};
use crate::render::{Arg, Render, Surface, call_arguments};

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
/// Longest query echoed back, in chars.
const ECHO_CHARS: usize = 120;
/// The share of `max_tokens` the echoed query may take, by [`bound`] (a token per byte of CJK): 1/6, so that 120
/// characters of a CJK query (360 bytes) no longer outweigh a budget of 300 and leave no room for the answer.
const ECHO_SHARE: u32 = 6;

/// The first chars of `text` (at most [`ECHO_CHARS`]) whose [`bound`] is within `max_tokens / ECHO_SHARE`.
fn echo_within(text: &str, max_tokens: u32) -> String {
    let room = max_tokens / ECHO_SHARE;
    let (mut ascii, mut other) = (0u32, 0u32);
    let mut end = 0;
    for (at, c) in text.char_indices().take(ECHO_CHARS) {
        if c.is_ascii() {
            ascii += 1
        } else {
            other += c.len_utf8() as u32
        }
        if ascii.div_ceil(3) + other > room {
            break;
        }
        end = at + c.len_utf8();
    }
    text[..end].to_string()
}

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

/// Entries of [`SearchView::skipped`] written out, at most; more are counted in one last entry.
const MAX_SKIPPED: usize = 3;

/// A [`SearchView::skipped`] entry for `e`, cut to [`SKIPPED_CHARS`].
fn skipped_entry(what: &str, e: &LookupError) -> String {
    let full = format!("{what}: {e}");
    if full.chars().count() <= SKIPPED_CHARS {
        full
    } else {
        format!("{}…", full.chars().take(SKIPPED_CHARS - 1).collect::<String>())
    }
}

/// `skipped` with at most `keep` entries written out, the rest counted in one last entry.
fn capped_skipped(mut skipped: Vec<String>, keep: usize) -> Vec<String> {
    if skipped.len() > keep {
        let more = skipped.len() - keep;
        skipped.truncate(keep);
        skipped.push(format!("and {more} more (run `mydesign-docs verify` for the whole list)"));
    }
    skipped
}

/// Whether `e` says a bundle could not be read (damaged, truncated, changed underneath): its hits are skipped
/// and said so, the rest of the search is answered.
fn unreadable(e: &LookupError) -> bool {
    !matches!(e, LookupError::UnknownComponent { .. } | LookupError::UnknownLang { .. } | LookupError::Budget(_))
}

/// Whether `e`, met while searching `set`, leaves out what it concerns (said in `skipped`) rather than failing the
/// search: an unreadable part, unless it is a damaged bundle of a copy another copy can stand in for
/// ([`crate::read::has_spare_copy`]), which [`Library::fallback`] answers from instead.
fn left_out(e: &LookupError, set: &BundleSet) -> bool {
    unreadable(e) && !(matches!(e, LookupError::Bundle(_)) && crate::read::has_spare_copy(set))
}

/// The decoded parts of a set's `search.bundle`, loaded as queries need them and kept.
pub struct SearchIndex {
    bundle: Arc<Bundle>,
    meta: SearchMeta,
    shards: Vec<OnceLock<Arc<LoadedShard>>>,
    chunks: Vec<OnceLock<Arc<UnitChunk>>>,
    changelog: OnceLock<Arc<ChangelogMeta>>,
    dictionary: OnceLock<Option<Arc<fst::Set<Vec<u8>>>>>,
    /// The component keys of the sources (for the boost of a component the query names).
    components: OnceLock<HashSet<String>>,
}

impl SearchIndex {
    /// Opens `search.bundle` and decodes its `meta` frame.
    ///
    /// # Errors
    /// A damaged bundle.
    pub fn open(bundle: Arc<Bundle>) -> Result<SearchIndex, LookupError> {
        let meta: SearchMeta = bundle.get(keys::META)?;
        let n = meta.units as usize;
        if meta.unit_kind.0.len() != n || meta.unit_source.len() != n || meta.unit_len.len() != n {
            return Err(corrupt(&bundle, "unit columns"));
        }
        if meta.unit_source.iter().any(|&s| s as usize >= meta.sources.len())
            || meta.unit_kind.0.iter().any(|&k| Kind::from_code(k).is_none())
            || meta.chunk == 0
        {
            return Err(corrupt(&bundle, "unit columns"));
        }
        let shards = (0..meta.shards).map(|_| OnceLock::new()).collect();
        let chunks = (0..meta.units.div_ceil(meta.chunk)).map(|_| OnceLock::new()).collect();
        Ok(SearchIndex {
            bundle,
            meta,
            shards,
            chunks,
            changelog: OnceLock::new(),
            dictionary: OnceLock::new(),
            components: OnceLock::new(),
        })
    }

    /// The `meta` frame.
    pub fn meta(&self) -> &SearchMeta {
        &self.meta
    }

    /// Decodes every term shard and unit chunk now (a server may call it at start so that no query pays for a
    /// decode); returns the frames decoded.
    ///
    /// # Errors
    /// A damaged bundle.
    pub fn load_all(&self) -> Result<usize, LookupError> {
        for n in 0..self.meta.shards {
            self.shard(n)?;
        }
        for n in 0..self.chunks.len() as u32 {
            self.unit(n * self.meta.chunk)?;
        }
        Ok(self.shards.len() + self.chunks.len())
    }

    fn shard(&self, n: u32) -> Result<Arc<LoadedShard>, LookupError> {
        let cell = &self.shards[n as usize];
        if let Some(s) = cell.get() {
            return Ok(s.clone());
        }
        let raw: TermShard = self.bundle.get(&keys::shard(n))?;
        let loaded = Arc::new(LoadedShard::new(raw).ok_or_else(|| corrupt(&self.bundle, "term shard"))?);
        Ok(cell.get_or_init(|| loaded).clone())
    }

    fn unit(&self, id: u32) -> Result<UnitInfo, LookupError> {
        let n = id / self.meta.chunk;
        let cell = self.chunks.get(n as usize).ok_or_else(|| corrupt(&self.bundle, "unit id"))?;
        let chunk = match cell.get() {
            Some(c) => c.clone(),
            None => {
                let c: UnitChunk = self.bundle.get(&keys::units(n))?;
                cell.get_or_init(|| Arc::new(c)).clone()
            }
        };
        let info = chunk
            .units
            .get((id % self.meta.chunk) as usize)
            .filter(|u| u.source == self.meta.unit_source[id as usize] && u.start_line <= u.end_line)
            .ok_or_else(|| corrupt(&self.bundle, "unit chunk"))?;
        Ok(info.clone())
    }

    /// The component keys of the index's sources (computed once).
    fn component_keys(&self) -> &HashSet<String> {
        self.components
            .get_or_init(|| self.meta.sources.iter().map(|s| s.component.clone()).filter(|c| !c.is_empty()).collect())
    }

    /// The term dictionary (`None` in a bundle written before it existed).
    fn dictionary(&self) -> Result<Option<Arc<fst::Set<Vec<u8>>>>, LookupError> {
        if let Some(d) = self.dictionary.get() {
            return Ok(d.clone());
        }
        let loaded = match self.bundle.get::<super::Bytes>(keys::DICTIONARY) {
            // Checked whole before use ([`super::dictionary::load`]): a damaged one is an error, never a panic.
            Ok(raw) => Some(Arc::new(super::dictionary::load(raw.0).map_err(|why| corrupt(&self.bundle, &why))?)),
            Err(BundleError::MissingFrame { .. }) => None,
            Err(e) => return Err(e.into()),
        };
        Ok(self.dictionary.get_or_init(|| loaded).clone())
    }

    /// Checks what the bundle's checksums cannot: the term dictionary is a sound fst ([`super::dictionary`]).
    /// `verify` (so `install`) runs it.
    ///
    /// # Errors
    /// A damaged dictionary, naming the search index and what is wrong.
    pub fn check(&self) -> Result<(), LookupError> {
        self.dictionary().map(|_| ())
    }

    /// "Did you mean": for each word of `query` (as [`super::analyze::dictionary_words`] cuts them) none of whose
    /// terms is in the index, the dictionary words within edit distance 2 (1 for words of 4 bytes or less): nearest
    /// first (optimal string alignment distance: a swap of two letters is one edit), then component names, then by
    /// the number of units holding their first term; at most [`SUGGESTIONS`] per word.
    pub fn suggestions(&self, query: &str) -> Result<Vec<(String, Vec<String>)>, LookupError> {
        let Some(dict) = self.dictionary()? else { return Ok(vec![]) };
        let mut words = Vec::new();
        super::analyze::dictionary_words(query, |w| words.push(w.to_string()));
        let components = self.component_keys();
        let mut out = Vec::new();
        for word in words.into_iter().take(8) {
            // A stop word is no misspelling (`would` was "corrected" to `round`).
            if dict.contains(&word) || super::analyze::is_stop_word(&word) || out.iter().any(|(w, _)| *w == word) {
                continue;
            }
            let mut known = false;
            for t in super::analyze::terms(&word) {
                known |= self.lookup(&t)?.is_some();
            }
            if known {
                continue;
            }
            let distance = if word.len() <= 4 { 1 } else { 2 };
            let Ok(lev) = fst::automaton::Levenshtein::new(&word, distance) else { continue };
            let mut found: Vec<(usize, String)> = fst::IntoStreamer::into_stream(dict.search(lev))
                .into_strs()
                .unwrap_or_default()
                .into_iter()
                .map(|cand| (strsim::osa_distance(&word, &cand), cand))
                .collect();
            // The nearest first (a transposition is one edit here), before the cap: two edits of a common word
            // match hundreds of words, streamed in byte order, and a one-edit word late in the alphabet (`viewr` →
            // `viewer`) was cut off by the cap and never suggested.
            found.sort();
            let found: Vec<String> = found.into_iter().map(|(_, cand)| cand).collect();
            let mut scored = Vec::with_capacity(found.len().min(256));
            for cand in found.into_iter().take(256) {
                let mut first = None;
                analyze(&cand, |t| {
                    if first.is_none() {
                        first = Some(t.to_string());
                    }
                });
                let df = match first {
                    Some(t) => self.lookup(&t)?.map_or(0, |(shard, i)| shard.df(i)),
                    None => 0,
                };
                let not_component = !components.contains(&crate::model::component_key(&cand));
                scored.push((strsim::osa_distance(&word, &cand), not_component, std::cmp::Reverse(df), cand));
            }
            scored.sort();
            let best: Vec<String> = scored.into_iter().take(SUGGESTIONS).map(|(_, _, _, c)| c).collect();
            if !best.is_empty() {
                out.push((word, best));
            }
        }
        Ok(out)
    }

    /// The postings of `term`: `(df, shard, index in shard)`, or `None` when no unit has it.
    fn lookup(&self, term: &str) -> Result<Option<(Arc<LoadedShard>, usize)>, LookupError> {
        let shard = self.shard(shard_of(term, self.meta.shards))?;
        Ok(shard.find(term).map(|i| (shard, i)))
    }

    /// Text of frame `key` of bundle `file` of `set` (through the set's cache of decoded texts).
    fn text(&self, set: &BundleSet, file: &str, key: &str) -> Result<Arc<String>, LookupError> {
        set.text(&*set.bundle(file)?, key)
    }

    fn changelog_meta(&self, set: &BundleSet) -> Result<Arc<ChangelogMeta>, LookupError> {
        if let Some(c) = self.changelog.get() {
            return Ok(c.clone());
        }
        let entry = set.head().changelog.as_ref().ok_or_else(|| corrupt(&self.bundle, "changelog source"))?;
        let meta: ChangelogMeta = set.bundle(&entry.bundle)?.get(crate::model::keys::CHANGELOG)?;
        Ok(self.changelog.get_or_init(|| Arc::new(meta)).clone())
    }
}

fn corrupt(bundle: &Bundle, what: &str) -> LookupError {
    BundleError::Corrupt { path: bundle.path().to_string(), what: format!("search index ({what})") }.into()
}

/// A ranked unit or a run of merged units.
struct Group {
    score: f32,
    kind: Kind,
    source: u32,
    /// In document order.
    units: Vec<UnitInfo>,
    /// Index in `units` of the best-scoring unit (whose section path the hit shows).
    best: usize,
}

impl Group {
    fn start_line(&self) -> u32 {
        self.units.first().map_or(0, |u| u.start_line)
    }
    fn end_line(&self) -> u32 {
        self.units.iter().map(|u| u.end_line).max().unwrap_or(0)
    }
    fn tokens(&self) -> u32 {
        self.units.iter().map(|u| u.tokens).sum()
    }
}

/// Whether a language tag is Chinese or Japanese (searched for queries in those scripts).
fn is_cjk_lang(lang: &str) -> bool {
    let l = lang.to_ascii_lowercase();
    l.starts_with("zh") || l.starts_with("ja")
}

/// Tokens of the line a hit without its text shows instead (an upper bound, with its newline).
const NOT_SHOWN: &str = "[text not shown: over the token budget; get it with the call above]\n";
/// Tokens allowed for each join of two pieces of an answer (a header and a text, two hits): where they meet, the
/// tokenizer may split one token more than it did in each piece alone.
const JOIN_SLACK: u32 = 2;

pub use crate::budget::bound;

/// An upper bound of the tokens of `text` (`tokens` of its own) written as a JSON string: the quotes, two tokens
/// per escaped character (`\n`, `\"`, `\\`, `\t`, `\r`) and six per other control character.
fn json_string_bound(text: &str, tokens: u32) -> u32 {
    let escapes: u32 = text
        .bytes()
        .map(|b| match b {
            b'"' | b'\\' | b'\n' | b'\r' | b'\t' => 2,
            0..0x20 => 6,
            _ => 0,
        })
        .sum();
    tokens + escapes + 2 * JOIN_SLACK
}

/// The distinct terms of a query, at most [`MAX_QUERY_TERMS`]; a short query's stop words written as whole words
/// (`more`, `Tabs more`) too: the index holds them only where they are exact identifiers (prop names).
fn query_terms(query: &str) -> Vec<String> {
    let mut terms: Vec<String> = Vec::new();
    let mut seen = HashSet::new();
    let mut add = |t: &str| {
        if terms.len() < MAX_QUERY_TERMS && seen.insert(t.to_string()) {
            terms.push(t.to_string());
        }
    };
    analyze(query, &mut add);
    if query.split_whitespace().count() <= 3 {
        super::analyze::stop_identifiers(query, &mut add);
    }
    terms
}

/// `text` with each whole occurrence of the lower-case `word` (as [`super::analyze::dictionary_words`] cuts words)
/// replaced by `by`.
fn replace_word(text: &str, word: &str, by: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut piece = String::new();
    let is_word_char = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    for c in text.chars().chain(std::iter::once(' ')) {
        if is_word_char(c) {
            piece.push(c);
            continue;
        }
        out.push_str(if piece.trim_matches('-') == word { by } else { &piece });
        piece.clear();
        out.push(c);
    }
    out.pop();
    out
}

/// The end of the no-hit message: the MCP tool, which the CLI's text writes as its `components` command.
const NO_HIT_LIST: &str = "list the components with list_components";

/// The error for an answer whose bound, `view.tokens`, is over `max_tokens`: it names the budget that serves it.
/// A larger budget `B` echoes more of the query, twice at most (the query, and the corrected query a note shows),
/// each within `B / ECHO_SHARE`: `B` = 3/2 of this bound holds it.
fn over_budget(view: &SearchView, max_tokens: u32) -> LookupError {
    let request = format!("search \"{}\"", view.query);
    let needed = view.tokens.saturating_mul(3).div_ceil(2);
    crate::budget::BudgetError::TooSmallForNames { asked: max_tokens, request, needed }.into()
}

/// `view` (an answer without hits) with its `tokens` set to the bound of its larger form.
fn bounded(mut view: SearchView) -> SearchView {
    view.tokens = 999_999;
    let json = serde_json::to_string(&view).unwrap_or_default();
    view.tokens = bound(&view.render(Surface::Cli)).max(bound(&view.render(Surface::Mcp))).max(bound(&json));
    view
}

/// The message of an answer whose listed hits do not all show their text.
fn texts_message(default_budget: bool) -> String {
    format!(
        "texts over the budget: see the follow-up calls{}",
        if default_budget { " or raise max_tokens" } else { "" }
    )
}

/// The message of a part whose first hit is over the budget even shortened: passed over (the cursor goes on
/// after it), with the budget `lists` that lists it, or, when that is above the operator's `cap` (which no call can
/// ask past), that no budget lists it.
fn passed_message(hit: u32, lists: u32, cap: u32) -> String {
    if lists <= cap {
        format!("hit {hit} is over the budget: max_tokens {lists} lists it")
    } else {
        // No longer than the other form (`cap` < `lists`): the reserve measured with that one holds it.
        format!("hit {hit} is over the budget: none up to {cap} lists it")
    }
}

/// What a search cursor holds: which sets and which search (query and filters) it continues, and how many hits
/// the parts before it listed. Sent as an opaque string, as [`crate::budget::Cursor`] is (MessagePack, a checksum,
/// URL-safe base64).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
struct SearchCursor {
    /// Hash of the `system@version` labels searched, with their build ids.
    sets: u32,
    /// Hash of the query and its filters.
    search: u32,
    /// Hits listed before.
    skip: u32,
}

impl SearchCursor {
    fn encode(&self) -> String {
        use base64::Engine as _;
        let mut bytes = rmp_serde::to_vec(self).unwrap_or_default();
        let sum = xxhash_rust::xxh3::xxh3_64(&bytes) as u32;
        bytes.extend_from_slice(&sum.to_le_bytes());
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
    }

    fn decode(s: &str) -> Result<SearchCursor, crate::budget::BudgetError> {
        use crate::budget::BudgetError;
        use base64::Engine as _;
        let malformed = |why: &str| BudgetError::Malformed { why: why.into() };
        if s.trim().is_empty() {
            return Err(BudgetError::EmptyCursor);
        }
        let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(s.trim())
            .map_err(|_| malformed("not base64url"))?;
        let (body, sum) =
            bytes.split_at_checked(bytes.len().saturating_sub(4)).ok_or_else(|| malformed("too short"))?;
        if sum.len() != 4 || (xxhash_rust::xxh3::xxh3_64(body) as u32).to_le_bytes() != sum {
            return Err(malformed("checksum mismatch (cut short or edited?)"));
        }
        rmp_serde::from_slice(body).map_err(|_| malformed("not a search cursor"))
    }
}

/// The [`SearchCursor::sets`] of `sets`: their labels and build ids (a rebuild of the same version ranks other
/// hits, so a cursor of the former build is refused).
fn sets_id(sets: &[&BundleSet]) -> u32 {
    let labels: Vec<String> =
        sets.iter().map(|s| format!("{}@{}#{}", s.head().system, s.head().version, s.head().build_id)).collect();
    xxhash_rust::xxh3::xxh3_64(labels.join(",").as_bytes()) as u32
}

/// The [`SearchCursor::search`] of `query` with the filters of `opts` (not its budget: a part may be asked with
/// another).
fn search_id(query: &str, opts: &SearchOptions) -> u32 {
    let key = format!("{query}\u{0}{:?}\u{0}{:?}\u{0}{:?}", opts.component, opts.kind, opts.lang);
    xxhash_rust::xxh3::xxh3_64(key.as_bytes()) as u32
}

/// The call that lists the next part of a search: `search_docs` with the whole query (the cursor is checked
/// against it: a placeholder for a long one made a call that could not run, trial item 6), the filters, the
/// budget asked for and `cursor`; with the system and version when one set is searched. Its size is reserved
/// with the rest of the answer's envelope (`search_sets`).
fn next_call(sets: &[&BundleSet], query: &str, opts: &SearchOptions, cursor: &str) -> FollowUp {
    let mut args: Vec<(&str, Arg)> = vec![("query", query.into())];
    if let Some(c) = &opts.component {
        args.push(("--component", c.clone().into()));
    }
    if let Some(k) = opts.kind {
        args.push(("--kind", k.name().into()));
    }
    if let Some(m) = opts.max_tokens {
        args.push(("--max-tokens", m.into()));
    }
    args.push(("--cursor", cursor.into()));
    let lang = opts.lang.as_deref();
    if let [set] = sets {
        return follow_up(&set.served(), lang, "search_docs", "search", &args);
    }
    if let Some(l) = lang {
        args.push(("--lang", l.into()));
    }
    let mcp: Vec<String> = args.iter().map(|(k, v)| Surface::Mcp.arg(k, v)).collect();
    FollowUp {
        tool: "search_docs".into(),
        arguments: args.iter().map(|(k, v)| (Surface::Mcp.name(k), v.json())).collect(),
        call: format!("search_docs({})", mcp.join(", ")),
        cli: crate::render::cli_command("search", &args, &crate::render::cli_bundles_arg()),
        cli_text: String::new(),
    }
}

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

    /// Ranks this set's units for `query`: the groups to show (best first), or the message saying why there are
    /// none, with the "did you mean" note.
    fn ranked(&self, query: &str, opts: &SearchOptions, max_tokens: u32) -> Result<Ranked, LookupError> {
        let ix = self.search_index()?;
        let m = self.head();
        let component = match &opts.component {
            Some(c) => Some(self.component(c)?.key.clone()),
            None => None,
        };
        let langs: Vec<String> = match &opts.lang {
            Some(l) => vec![m.langs.iter().find(|x| x.eq_ignore_ascii_case(l)).cloned().ok_or_else(|| {
                LookupError::UnknownLang {
                    lang: crate::read::echo(l),
                    available: crate::read::nearest_first(l, &m.langs),
                }
            })?],
            None => {
                let cjk = query.chars().any(is_cjk);
                let same: Vec<String> = m.langs.iter().filter(|l| is_cjk_lang(l) == cjk).cloned().collect();
                if same.is_empty() { m.langs.clone() } else { same }
            }
        };
        let echo = echo_within(&crate::escape::shown(query.trim()), max_tokens);
        let mut view = SearchView {
            served: self.served(),
            query: echo,
            langs: langs.clone(),
            hits: vec![],
            total: 0,
            first: 0,
            omitted: 0,
            next_cursor: None,
            next: None,
            tokens: 0,
            max_tokens,
            message: None,
            skipped: vec![],
        };
        if query.trim().is_empty() {
            view.message = Some(
                "empty query: ask a question or name what you look for, e.g. `table fixed column`, `Select onChange`, \
                 `表格 固定列`"
                    .into(),
            );
            return Ok(Ranked { ix, groups: vec![], note: None, view: bounded(view) });
        }
        let terms = query_terms(query);
        let mut ranked = keep_best(rank(&ix, query, &terms, &langs, component.as_deref(), opts)?);
        // Words found nowhere in the index (misspelt) are replaced by their nearest dictionary words and the
        // corrected query is searched (the answer says so, and lists the other suggestions): when nothing matched,
        // or in a short query of names (a question's unknown words are left to its other words).
        let mut note = None;
        if !terms.is_empty() && (ranked.is_empty() || query.split_whitespace().count() <= 3) {
            let suggestions = ix.suggestions(query)?;
            if !suggestions.is_empty() {
                let mut corrected = query.to_ascii_lowercase();
                for (word, best) in &suggestions {
                    corrected = replace_word(&corrected, word, &best[0]);
                }
                let all: Vec<&str> = suggestions.iter().flat_map(|(_, b)| b.iter().map(String::as_str)).collect();
                let shown = echo_within(&crate::escape::shown(&corrected), max_tokens);
                // The suggestions are written lower-case: as the index keeps identifiers whole and unstemmed, each
                // is a term itself too (`rowselection`).
                let mut fixed = query_terms(&corrected);
                for (_, best) in &suggestions {
                    if !fixed.contains(&best[0]) {
                        fixed.push(best[0].clone());
                    }
                }
                ranked = keep_best(rank(&ix, &corrected, &fixed, &langs, component.as_deref(), opts)?);
                note = Some(if ranked.is_empty() {
                    format!("nothing matches; did you mean: {}?", all.join(", "))
                } else {
                    let unknown: Vec<&str> = suggestions.iter().map(|(w, _)| w.as_str()).collect();
                    format!(
                        "not in the index: {}; did you mean: {}? Showing hits for \"{shown}\"",
                        unknown.join(", "),
                        all.join(", ")
                    )
                });
            }
        }
        if ranked.is_empty() {
            if let Some(n) = note {
                view.message = Some(n);
                return Ok(Ranked { ix, groups: vec![], note: None, view: bounded(view) });
            }
            let filtered = opts.component.is_some() || opts.kind.is_some() || opts.lang.is_some();
            view.message = Some(if terms.is_empty() {
                format!(
                    "no searchable word in the query (only stop words, punctuation, symbols or words over {} bytes): \
                     name the component, prop or behaviour you look for",
                    super::analyze::MAX_TERM_BYTES
                )
            } else if filtered {
                "nothing matches with these filters: try without `component`, `kind` or `lang`".into()
            } else {
                format!("nothing matches: try other words, or {NO_HIT_LIST}")
            });
            return Ok(Ranked { ix, groups: vec![], note: None, view: bounded(view) });
        }
        let groups = merge(&ix, ranked)?;
        Ok(Ranked { ix, groups, note, view })
    }
}

/// The sets a search covers ([`sets_to_search`]), and those left out.
pub struct SetsToSearch {
    /// The sets to search, by system.
    pub sets: Vec<Arc<BundleSet>>,
    /// Sets left out because none of their system's versions opens (a damaged or old-format manifest), each
    /// `system@version: why`, and copies of a searched version that do not open (another copy is searched),
    /// `system@version copy left out: why`: pass them on in [`SearchOptions::skipped`], so the answer names them.
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
fn copies_skipped(library: &Library, set: &BundleSet) -> Vec<String> {
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

/// One set's part of a search: its index, its ranked groups, the "did you mean" note, and the answer it would give
/// alone (with no hits: its message says why).
struct Ranked {
    ix: Arc<SearchIndex>,
    groups: Vec<Group>,
    note: Option<String>,
    view: SearchView,
}

/// Searches `sets` for `query` ([`BundleSet::search`] on each) and answers with the best hits of all of them within
/// one token budget, best first. With several sets, each hit names its system (and its follow-up call carries it);
/// a `component` filter applies to the sets that have that component.
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
    let mut parts: Vec<(&BundleSet, Ranked)> = Vec::new();
    let mut first_error = None;
    let mut skipped: Vec<String> = opts.skipped.clone();
    for set in sets {
        match set.ranked(query, opts, max_tokens) {
            Ok(r) => parts.push((set, r)),
            Err(e @ LookupError::UnknownComponent { .. }) if several => {
                first_error.get_or_insert(e);
            }
            // One set's unreadable index among several: the others are searched, and the answer says so.
            Err(e) if several && left_out(&e, set) => {
                skipped.push(skipped_entry(&format!("{}@{} search index", set.head().system, set.head().version), &e));
                first_error.get_or_insert(e);
            }
            Err(e) => return Err(e),
        }
    }
    if parts.is_empty() {
        return Err(first_error.unwrap_or(LookupError::NoBundles { dir: String::new(), why: "no bundle sets".into() }));
    }
    let note = parts.iter().find_map(|(_, r)| r.note.clone());
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
    if parts.iter().all(|(_, r)| r.groups.is_empty()) {
        // No hits anywhere: the first set's message (the same words for every set but "did you mean").
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
    view.message = None;
    // All sets' groups, best first (ties: set order), each with its hit (without text). Two parts of one split
    // section that were not neighbours in the ranking have the same follow-up call (the whole section): the
    // better one stands for both. This list is the same for every part and budget: cursors index into it.
    let mut all: Vec<(usize, Group)> = Vec::new();
    for (i, (_, r)) in parts.iter_mut().enumerate() {
        all.extend(std::mem::take(&mut r.groups).into_iter().map(|g| (i, g)));
    }
    all.sort_by(|a, b| b.1.score.total_cmp(&a.1.score).then(a.0.cmp(&b.0)));
    let mut calls = HashSet::new();
    let mut hits: Vec<(usize, Group, SearchHit)> = Vec::new();
    for (i, g) in all {
        let set = parts[i].0;
        // The hit's bundle is opened now (a function's hit is listed from the manifest): a hit is never listed
        // with a call that cannot be answered.
        let readable = |hit: SearchHit| match hit.component.as_deref() {
            Some(c) => set.component_meta(c).map(|_| hit),
            None => Ok(hit),
        };
        let mut hit = match set.hit(&parts[i].1.ix, &g, 0).and_then(readable) {
            Ok(hit) => hit,
            // A damaged component bundle: its hits are left out, said once per bundle.
            Err(e) if left_out(&e, set) => {
                let entry = skipped_entry(&set.hit_source(&parts[i].1.ix, &g), &e);
                if !skipped.contains(&entry) {
                    skipped.push(entry);
                }
                continue;
            }
            Err(e) => return Err(e),
        };
        if several {
            hit.system = Some(set.head().system.clone());
        }
        if calls.insert(hit.follow_up.call.clone()) {
            hits.push((i, g, hit));
        }
    }
    let total = hits.len() as u32;
    let (sets_hash, search_hash) = (sets_id(sets), search_id(query, opts));
    let skip = match opts.cursor.as_deref() {
        None => 0,
        Some(c) => {
            let cur = SearchCursor::decode(c)?;
            if cur.sets != sets_hash || cur.search != search_hash {
                let cursor = if cur.search == search_hash {
                    "this search on another build of the bundles (rebuilt or replaced since)".to_string()
                } else {
                    "another search (another query, filters or bundle set)".to_string()
                };
                let call = format!("search \"{}\"", view.query);
                return Err(crate::budget::BudgetError::Mismatch { cursor, call }.into());
            }
            if cur.skip >= total {
                let why = "it points past the last hit".to_string();
                return Err(crate::budget::BudgetError::Malformed { why }.into());
            }
            cur.skip
        }
    };
    // Both forms of the answer (the text, and the view as compact JSON: MCP's structuredContent) stay within the
    // budget: stored counts for the hits' texts, and upper bounds (see `bound`) for everything around them. The
    // reserve holds the longest ending: the note, the texts message, and the next call with the longest cursor.
    let with_note = |m: Option<String>| match (&note, m) {
        (Some(n), Some(m)) => Some(format!("{n}. {m}")),
        (Some(n), None) => Some(n.clone()),
        (None, m) => m,
    };
    view.skipped = capped_skipped(skipped, MAX_SKIPPED);
    let longest = SearchCursor { sets: u32::MAX, search: u32::MAX, skip: u32::MAX }.encode();
    // The longer of the two messages a part can carry before the continuation's: texts not shown, or a first hit
    // passed over (with the budget that lists it).
    let first_message = [texts_message(true), passed_message(99_999, 999_999, u32::MAX)]
        .into_iter()
        .max_by_key(String::len)
        .unwrap_or_default();
    let placeholder = SearchView {
        tokens: 999_999,
        total: 99_999,
        first: 99_999,
        omitted: 99_999,
        message: with_note(Some(first_message.clone())),
        next_cursor: Some(longest.clone()),
        next: Some(next_call(sets, query, opts, &longest)),
        ..view.clone()
    };
    let mut text_used = bound(&placeholder.render(Surface::Cli)).max(bound(&placeholder.render(Surface::Mcp)));
    let mut json_used = bound(&serde_json::to_string(&placeholder).unwrap_or_default());
    // The reserve with the call written out, kept to name the budget that lists a hit passed over.
    let full_reserve = (text_used, json_used);
    // A continuation too long to write out within half the budget (a long query, a long `--bundles` directory)
    // is written short: the cursor, to pass to the same search (`render` writes it when `next` is absent), with a
    // message naming the budget that writes the call out (trial: the text carried no continuation at all).
    let long_query = text_used.max(json_used) > max_tokens / 2;
    // The budget at which the continuation is written out in half: what the messages below ask for.
    let needed = 2 * text_used.max(json_used) + 1;
    let too_long = format!(
        "the call that continues is too long to write out at max_tokens {max_tokens} (max_tokens {needed} or more \
         writes it)"
    );
    if long_query {
        let placeholder = SearchView {
            next: None,
            message: with_note(Some(format!("{first_message}. {too_long}"))),
            ..placeholder.clone()
        };
        text_used = bound(&placeholder.render(Surface::Cli)).max(bound(&placeholder.render(Surface::Mcp)));
        json_used = bound(&serde_json::to_string(&placeholder).unwrap_or_default());
    }
    // Hits are listed first, without their texts, best first without gaps, in at most half of what the reserve
    // leaves (so that a larger budget lists at least as many: the headers' sizes do not depend on it); texts then
    // fill the rest, best hit first. The first hit of a part is always listed, shortened when it must be.
    let reserve = text_used.max(json_used);
    let listing = reserve + max_tokens.saturating_sub(reserve) / 2;
    let sizes = |hit: &SearchHit| {
        let header = bound(&header_text(hit, Surface::Mcp)).max(bound(&header_text(hit, Surface::Cli))) + JOIN_SLACK;
        (header + bound(NOT_SHOWN), bound(&serde_json::to_string(hit).unwrap_or_default()) + JOIN_SLACK)
    };
    // Levels of a part's first hit: 0 whole, 1 the best section alone (its lines stated), 2 without the CLI form
    // in the structured form (the CLI's text still writes it), 3 without the structured arguments (`call` alone),
    // 4 the CLI's text writing the MCP call, only when the command line does not fit. The call keeps its section at
    // every level: a hit never states lines its call does not serve (a call of the whole document did, trial
    // "edges2" item 2); a hit that does not fit even so is passed over, naming the budget that lists it.
    let level = |i: usize, g: &Group, hit: &SearchHit, level: u8| -> Result<SearchHit, LookupError> {
        let mut h = if level == 0 { hit.clone() } else { parts[i].0.hit(&parts[i].1.ix, g, 1)? };
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
    };
    let mut listed: Vec<(usize, &Group, SearchHit)> = Vec::new();
    // The budget that would list a first hit passed over here.
    let mut lists_passed: Option<u32> = None;
    for (i, g, hit) in hits.iter().skip(skip as usize) {
        if listed.len() >= MAX_HITS {
            break;
        }
        let (header, in_json) = sizes(hit);
        if text_used + header <= listing && json_used + in_json <= listing {
            text_used += header;
            json_used += in_json;
            listed.push((*i, g, hit.clone()));
            continue;
        }
        if listed.is_empty() {
            // The first hit of the part: listed whole when it fits the whole budget, else shortened.
            let mut found = None;
            let mut shortest = (0, 0);
            for n in 0..=4u8 {
                let h = level(*i, g, hit, n)?;
                let (header, in_json) = sizes(&h);
                if text_used + header <= max_tokens && json_used + in_json <= max_tokens {
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
                let short = (text_used + header).max(json_used + in_json) + 4;
                let full = (full_reserve.0 + header).max(full_reserve.1 + in_json) + 4;
                lists_passed = Some(if !long_query || short >= needed { full.max(needed) } else { short });
            }
            if let Some((h, header, in_json)) = found {
                text_used += header;
                json_used += in_json;
                listed.push((*i, g, h));
            }
        }
        break;
    }
    // Texts, best hit first, while they fit (a hit whose text does not fit keeps its follow-up call alone).
    for (i, g, hit) in &mut listed {
        let (set, ix) = (parts[*i].0, &parts[*i].1.ix);
        // Merged neighbours' counts are summed: each join may cost a token more than the parts did.
        let tokens = hit.tokens + JOIN_SLACK * (g.units.len() as u32).saturating_sub(1);
        let shown = bound(NOT_SHOWN);
        if text_used + tokens > max_tokens + shown || json_used + tokens > max_tokens {
            continue;
        }
        let text = match set.hit_text(ix, g, &hit.spans) {
            Ok(text) => text,
            Err(e) if left_out(&e, set) => {
                // Listed without its text (its call names the damage when made), and said so while it fits.
                let entry = skipped_entry(&set.hit_source(ix, g), &e);
                let cost = bound(&format!("[skipped, unreadable: {entry}]\n")) + 3;
                let fits = text_used + cost <= max_tokens && json_used + cost <= max_tokens;
                if fits && !view.skipped.contains(&entry) && view.skipped.len() <= MAX_SKIPPED {
                    text_used += cost;
                    json_used += cost;
                    view.skipped.push(entry);
                }
                continue;
            }
            Err(e) => return Err(e),
        };
        let text_in_json = json_string_bound(&text, tokens);
        if text_used - shown + tokens <= max_tokens && json_used + text_in_json <= max_tokens {
            text_used = text_used - shown + tokens;
            json_used += text_in_json;
            hit.text = Some(text);
        }
    }
    // A first hit too long to list even shortened (a path or heading of thousands of characters) is passed over,
    // and said so: the cursor goes on after it.
    let passed = u32::from(listed.is_empty() && skip < total);
    // The part as written with `listed` (and `passed` hits passed over), its size not yet stated.
    let written = |listed: Vec<SearchHit>, passed: u32| {
        let mut view = view.clone();
        let n = listed.len() as u32;
        view.hits = listed;
        view.total = total;
        view.first = if n > 0 { skip + 1 } else { 0 };
        view.omitted = total - skip - n - passed;
        if view.omitted > 0 {
            let cursor = SearchCursor { sets: sets_hash, search: search_hash, skip: skip + n + passed }.encode();
            view.next = (!long_query).then(|| next_call(sets, query, opts, &cursor));
            view.next_cursor = Some(cursor);
        }
        let without_text = view.hits.iter().any(|h| h.text.is_none());
        let mut message = without_text.then(|| texts_message(opts.max_tokens.is_none()));
        if passed > 0 {
            message = Some(passed_message(skip + 1, lists_passed.unwrap_or(needed), cap));
        }
        if long_query && view.omitted > 0 {
            message = Some(message.map_or(String::new(), |m| m + ". ") + &too_long);
        }
        view.message = with_note(message);
        view
    };
    if passed > 0 {
        // The reserve held the longest ending any part may write (the longest message, cursor and figures): what
        // this part writes may leave its first hit room, shortened as above. It is listed when the bound of the
        // part as written with it (its true bound, stated) is within the budget (trial "edges2" item 3: every
        // part of a search of two systems said "max_tokens 309 lists it" at 300, using ~144 tokens).
        // Last, with the query echoed in half its share (the echo only: the cursor and the calls carry the query).
        if let Some((i, g, hit)) = hits.get(skip as usize) {
            for share in [max_tokens, max_tokens / 2] {
                for n in 0..=4u8 {
                    let mut with = written(vec![level(*i, g, hit, n)?], 0);
                    with.query = echo_within(query.trim(), share);
                    let with = bounded(with);
                    if with.tokens <= max_tokens {
                        return Ok(with);
                    }
                }
            }
        }
    }
    let mut view = written(listed.into_iter().map(|(_, _, h)| h).collect(), passed);
    view.tokens = text_used.max(json_used);
    if view.tokens > max_tokens {
        // The reserve alone is over the budget (long names: the set's, a component's, skipped entries), so no hit
        // is listed: the bound of what is written is stated instead, and an answer that could go over is refused.
        let written = bounded(view.clone());
        if written.tokens > max_tokens {
            return Err(over_budget(&written, max_tokens));
        }
        view = written;
    }
    Ok(view)
}

impl BundleSet {
    /// A hit's details (without its text); `short` 1 lists it shortened (no section path, the best section alone in
    /// the follow-up call of merged sections, and the lines and tokens it states are that section's).
    fn hit(&self, ix: &SearchIndex, g: &Group, short: u8) -> Result<SearchHit, LookupError> {
        let src = &ix.meta.sources[g.source as usize];
        let m = self.head();
        let first = &g.units[0];
        let component = if src.component.is_empty() { None } else { Some(self.component(&src.component)?) };
        let lang = (!src.lang.is_empty()).then(|| src.lang.clone());
        let key = src.component.as_str();
        let mut section = Vec::new();
        let mut code_lang = None;
        let mut examples = Vec::new();
        let example = |b: &CodeBlockMeta| {
            b.demo.as_ref().map(|d| HitExample {
                block: b.index,
                path: d.path.clone(),
                title: d.title.clone(),
                beside: b.start_byte == b.end_byte,
            })
        };
        let (mut spans, mut span_tokens): (Vec<(u32, u32)>, u32) = (Vec::new(), 0);
        // (tool, CLI subcommand, tool-specific arguments)
        let (tool, cli, args): (&str, &str, Vec<(&str, Arg)>) = match g.kind {
            Kind::Doc | Kind::Code => {
                let (meta, i) = self.doc_meta(key, &src.lang)?;
                let doc: Option<&DocMeta> = i.map(|i| &meta.docs[i]);
                let sections = doc.map_or(&[][..], |d| d.sections.as_slice());
                let best = &g.units[g.best.min(g.units.len() - 1)];
                section = section_path(sections, best.start_line).into_iter().map(|s| s.title.clone()).collect();
                if g.kind == Kind::Code {
                    let block = doc.and_then(|d| d.code_blocks.get(first.block.saturating_sub(1) as usize));
                    code_lang = block.map(|b| b.lang.clone()).filter(|l| !l.is_empty());
                    examples.extend(block.and_then(example));
                    let args = vec![("component", key.into()), ("index", first.block.into())];
                    ("get_code_block", "code-block", args)
                } else {
                    // The sections the call names: those of the group's units (of the best one alone when
                    // shortened), a section inside another named once, with it.
                    let called = |units: &[UnitInfo]| -> Vec<&SectionMeta> {
                        let mut called: Vec<&SectionMeta> = Vec::new();
                        for u in units {
                            if let Some(s) = section_path(sections, u.start_line).last()
                                && !called.iter().any(|c| c.slug == s.slug)
                            {
                                called.push(s);
                            }
                        }
                        let nested = |s: &SectionMeta| {
                            called
                                .iter()
                                .any(|o| o.slug != s.slug && o.start_line <= s.start_line && s.end_line <= o.end_line)
                        };
                        called.iter().copied().filter(|s| !nested(s)).collect()
                    };
                    let units = if short >= 1 { std::slice::from_ref(best) } else { &g.units[..] };
                    let slugs: Vec<String> = called(units).iter().map(|s| s.slug.clone()).collect();
                    // The hit states (and shows) what its call serves: the group's sections, or the best one alone
                    // when shortened.
                    spans = called(units).iter().map(|s| (s.start_line, s.end_line)).collect();
                    let inside = |b: &&CodeBlockMeta| spans.iter().any(|&(a, z)| a <= b.start_line && b.end_line <= z);
                    examples.extend(
                        doc.map_or(&[][..], |d| d.code_blocks.as_slice())
                            .iter()
                            .filter(inside)
                            .filter_map(example)
                            .take(HIT_EXAMPLES),
                    );
                    // Counted as the call counts what it serves (`BundleSet::doc`: the stored segments of each
                    // section's lines).
                    if !spans.is_empty() {
                        let (bundle, _) = self.component_meta(key)?;
                        let doc_key = crate::model::keys::doc(&src.lang);
                        let text = self.text(&bundle, &doc_key)?;
                        let cuts = self.cuts(&bundle, &doc_key, &text)?;
                        span_tokens =
                            spans.iter().map(|&(a, b)| cuts.tokens(cuts.line_start(a), cuts.line_start(b + 1)).0).sum();
                    }
                    let args = vec![("component", key.into()), ("sections", Arg::List("--section", slugs))];
                    ("component_details", "doc", args)
                }
            }
            Kind::Props => {
                section = vec![first.name.clone()];
                let args = vec![("component", key.into()), ("sections", Arg::List("--section", vec!["props".into()]))];
                ("component_details", "doc", args)
            }
            Kind::Function => {
                section = vec![first.name.clone()];
                let args = vec![("path", src.path.clone().into()), ("function", first.name.clone().into())];
                ("get_function_code", "function", args)
            }
            Kind::Changelog => {
                let meta = ix.changelog_meta(self)?;
                let cl = meta.langs.iter().find(|l| l.summary.lang == src.lang);
                if let Some(r) = cl.and_then(|l| l.releases.iter().find(|r| r.start_line == first.start_line)) {
                    let date = r.date.as_ref().map_or(String::new(), |d| format!(" ({d})"));
                    section = vec![format!("{}{date}", r.version)];
                }
                let page = (first.start_line.saturating_sub(1) / m.thresholds.changelog_page_lines.max(1)) + 1;
                ("get_changelog", "changelog", vec![("--page", page.into())])
            }
        };
        if short > 0 {
            section.clear();
            examples.clear();
        }
        // A shortened hit keeps its structured arguments (the same call as `call`: trial item 4, where a shortened
        // hit's structuredContent lost its `sections`); only the shortest leaves them out (`search_sets`).
        let follow_up = follow_up(&self.served(), lang.as_deref(), tool, cli, &args);
        Ok(SearchHit {
            system: None,
            kind: g.kind,
            guide: component.as_ref().is_some_and(|c| c.guide),
            component: component.map(|c| c.name.clone()),
            document: src.path.clone(),
            lang: lang.clone(),
            section,
            start_line: spans.iter().map(|s| s.0).min().unwrap_or(g.start_line()),
            end_line: spans.iter().map(|s| s.1).max().unwrap_or(g.end_line()),
            code_lang,
            examples,
            score: (g.score * 100.0).round() / 100.0,
            tokens: if spans.is_empty() { g.tokens() } else { span_tokens },
            spans,
            text: None,
            follow_up,
            shortened: short > 0,
        })
    }

    /// The component's meta frame (cached by the set) and the index of its document in `lang`.
    fn doc_meta(&self, component: &str, lang: &str) -> Result<(Arc<ComponentMeta>, Option<usize>), LookupError> {
        let (_, meta) = self.component_meta(component)?;
        let i = meta.docs.iter().position(|d| d.lang == lang);
        Ok((meta, i))
    }

    /// What a hit is read from, for [`SearchView::skipped`]: its component (the changelog, or a function's file).
    fn hit_source(&self, ix: &SearchIndex, g: &Group) -> String {
        let src = &ix.meta.sources[g.source as usize];
        match g.kind {
            Kind::Changelog => "changelog".to_string(),
            Kind::Function => format!("file {}", src.path),
            _ => format!("component {}", src.component),
        }
    }

    /// The text of a hit: the sections its call serves (`spans`, line ranges of the document), a demo's or cleaned
    /// code block's own frame, else its units' span of the document or file, or its lines of the changelog.
    fn hit_text(&self, ix: &SearchIndex, g: &Group, spans: &[(u32, u32)]) -> Result<String, LookupError> {
        let src = &ix.meta.sources[g.source as usize];
        let first = &g.units[0];
        if g.kind == Kind::Code {
            // A demo (`<code src="…">`) or a cleaned block is served from its own frame, not from the document's
            // lines (where a demo is the bare tag): the hit shows what `get_code_block` serves.
            let (meta, i) = self.doc_meta(&src.component, &src.lang)?;
            let block = i.and_then(|i| meta.docs[i].code_blocks.get(first.block.saturating_sub(1) as usize));
            if block.is_some_and(|b| b.cleaned) {
                let bundle = self.component(&src.component)?.bundle.clone();
                return Ok(ix.text(self, &bundle, &crate::model::keys::block(&src.lang, first.block))?.to_string());
            }
        }
        match g.kind {
            Kind::Doc | Kind::Code | Kind::Function => {
                let (file, key) = if g.kind == Kind::Function {
                    let owner = self.file_owner(&src.path)?.ok_or_else(|| corrupt(&ix.bundle, "function source"))?;
                    (self.component(&owner)?.bundle.clone(), crate::model::keys::file(&src.path))
                } else {
                    (self.component(&src.component)?.bundle.clone(), crate::model::keys::doc(&src.lang))
                };
                let text = ix.text(self, &file, &key)?;
                if !spans.is_empty() {
                    let lines = crate::line_index::LineIndex::new(&text);
                    let mut out = String::new();
                    for &(a, b) in spans {
                        let part = text.get(lines.start(a)..lines.start(b + 1).min(text.len()));
                        out.push_str(part.ok_or_else(|| corrupt(&ix.bundle, "section span"))?);
                    }
                    return Ok(out);
                }
                let end = g.units.iter().map(|u| u.end_byte).max().unwrap_or(first.end_byte);
                text.get(first.start_byte as usize..end as usize)
                    .map(str::to_string)
                    .ok_or_else(|| corrupt(&ix.bundle, "unit span"))
            }
            Kind::Props => {
                // The one table, as `sections=["props"]` renders it (the unit's tokens were counted on this text).
                let (bundle, meta) = self.component_meta(&src.component)?;
                let tables = self.props_of(&bundle)?;
                let table = tables
                    .iter()
                    .find(|t| t.name == first.name && t.path == src.path && t.line == first.start_line)
                    .ok_or_else(|| corrupt(&ix.bundle, "props unit"))?;
                Ok(crate::view::props_text(&meta.name, std::slice::from_ref(table)))
            }
            Kind::Changelog => {
                let entry = self.head().changelog.as_ref().ok_or_else(|| corrupt(&ix.bundle, "changelog"))?;
                let per = self.head().thresholds.changelog_page_lines.max(1);
                let (a, b) = (first.start_line, g.end_line());
                let mut out: Vec<&str> = Vec::new();
                let mut pages = Vec::new();
                for p in (a - 1) / per + 1..=(b - 1) / per + 1 {
                    pages.push((p, ix.text(self, &entry.bundle, &crate::model::keys::page(&src.lang, p))?));
                }
                for (p, text) in &pages {
                    let first_line = (p - 1) * per + 1;
                    for (i, line) in text.split('\n').enumerate() {
                        let n = first_line + i as u32;
                        if n >= a && n <= b {
                            out.push(line);
                        }
                    }
                }
                Ok(out.join("\n"))
            }
        }
    }
}

/// The headings (levels 1–4) whose sections hold line `line`, outermost first; a level-1 heading only when no
/// deeper one holds it (the document title is not part of a path).
fn section_path(sections: &[SectionMeta], line: u32) -> Vec<&SectionMeta> {
    let holding: Vec<&SectionMeta> =
        sections.iter().filter(|s| s.level <= 4 && s.start_line <= line && line <= s.end_line).collect();
    let deeper: Vec<&SectionMeta> = holding.iter().copied().filter(|s| s.level > 1).collect();
    if deeper.is_empty() { holding } else { deeper }
}

/// Ranks the units holding any of `terms` that pass the filters: `(score, unit)`, best first (ties by unit id).
fn rank(
    ix: &SearchIndex,
    query_words: &str,
    terms: &[String],
    langs: &[String],
    component: Option<&str>,
    opts: &SearchOptions,
) -> Result<Vec<(f32, u32)>, LookupError> {
    let meta = &ix.meta;
    let w = opts.weights.unwrap_or(meta.weights);
    let n = meta.units as usize;
    // Which sources qualify (the language and component filters), computed once per source.
    let source_ok: Vec<bool> = meta
        .sources
        .iter()
        .map(|s| {
            let lang_ok = s.lang.is_empty() || langs.contains(&s.lang);
            let comp_ok = component.is_none_or(|c| s.component == c || s.component.is_empty());
            lang_ok && comp_ok
        })
        .collect();
    // Changelog releases qualify for a component filter when they mention it.
    let mentions: Option<HashSet<u32>> = match component {
        Some(c) => {
            let mut set = HashSet::new();
            let mut first = None;
            analyze(c, |t| {
                if first.is_none() {
                    first = Some(t.to_string());
                }
            });
            if let Some((shard, i)) = first.map(|t| ix.lookup(&t)).transpose()?.flatten() {
                shard.postings(i, |u, _| {
                    set.insert(u);
                });
            }
            Some(set)
        }
        None => None,
    };
    let ok = |u: usize| -> bool {
        let kind = Kind::from_code(meta.unit_kind.0[u]).unwrap_or(Kind::Doc);
        if opts.kind.is_some_and(|k| k != kind) || !source_ok[meta.unit_source[u] as usize] {
            return false;
        }
        match (&mentions, kind) {
            (Some(m), Kind::Changelog) => m.contains(&(u as u32)),
            _ => true,
        }
    };
    // Sources of the components the query names: their units score `w.component` times more.
    let named = named_components(ix, query_words);
    let boost: Vec<f32> = if named.is_empty() {
        vec![1.0; meta.sources.len()]
    } else {
        meta.sources.iter().map(|s| if named.contains(&s.component) { w.component } else { 1.0 }).collect()
    };
    // Whole identifiers of the query (`onChange` → `onchange`): a props table holding one as a prop name (a title
    // term of props units) is the table the query names, and a function whose name is one (a title term of function
    // units: `handleSort`, trial 6, ranked below demos calling it) is the function it names; each scores
    // `w.component` times more.
    let identifiers: HashSet<String> = query_words
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | '(' | ')' | '`' | '"' | '\'' | '?'))
        .filter(|w| super::analyze::identifier_parts(w).len() > 1)
        .map(|w| w.chars().filter(|&c| c != '-').flat_map(char::to_lowercase).collect())
        .collect();
    let mut names_prop: HashSet<u32> = HashSet::new();
    let mut scores = vec![0f32; n];
    let mut touched: Vec<u32> = Vec::new();
    for t in terms {
        let Some((shard, i)) = ix.lookup(t)? else { continue };
        let identifier = identifiers.contains(t);
        let df = shard.df(i) as f32;
        // `libm`'s logf, not `f32::ln`: the search's one call into the C math library, which made every dynamic
        // reader process load libm.so (~0.06 ms of a 2 ms CLI lookup).
        let idf = libm::logf(1.0 + (n as f32 - df + 0.5) / (df + 0.5));
        shard.postings(i, |u, v| {
            let ui = u as usize;
            if ui >= n || !ok(ui) {
                return;
            }
            let kind = meta.unit_kind.0[ui] as usize;
            let kind = kind.min(Kind::ALL.len() - 1);
            let norm = 1.0 - w.b + w.b * meta.unit_len[ui] as f32 / meta.avg_len[kind].max(1.0);
            let tf = f32::from(v >> 2);
            let weighted = w.title * f32::from((v >> 1) & 1) + w.context * f32::from(v & 1) + w.body * tf / norm;
            if scores[ui] == 0.0 {
                touched.push(u);
            }
            if identifier && (kind == Kind::Props as usize || kind == Kind::Function as usize) && v & 2 != 0 {
                names_prop.insert(u);
            }
            scores[ui] += idf * weighted * (w.k1 + 1.0) / (weighted + w.k1)
                * w.kinds[kind]
                * boost[meta.unit_source[ui] as usize];
        });
    }
    for &u in &names_prop {
        scores[u as usize] *= w.component;
    }
    let mut ranked: Vec<(f32, u32)> = touched.into_iter().map(|u| (scores[u as usize], u)).collect();
    ranked.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    Ok(ranked)
}

/// The component keys the query names: a run of one to three consecutive words of `query` (lower-cased, joined)
/// that is a component key of the index (`select`; `tree select` or `TreeSelect` → `treeselect`). A key named by a
/// run inside a longer named run is dropped (`tree select` names `treeselect`, not also `select`).
fn named_components(ix: &SearchIndex, query: &str) -> HashSet<String> {
    let keys = ix.component_keys();
    let words: Vec<String> = query
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .take(MAX_QUERY_TERMS)
        .map(crate::model::component_key)
        .collect();
    let mut found: Vec<(usize, usize, String)> = Vec::new();
    for i in 0..words.len() {
        let mut run = String::new();
        for (j, word) in words.iter().enumerate().skip(i).take(3) {
            run.push_str(word);
            if keys.contains(run.as_str()) {
                found.push((i, j, run.clone()));
            }
        }
    }
    found
        .iter()
        .filter(|(i, j, _)| !found.iter().any(|(a, b, _)| a <= i && j <= b && b - a > j - i))
        .map(|(_, _, k)| k.clone())
        .collect()
}

/// The units worth showing: those scoring at least [`MIN_SCORE_RATIO`] of the top, at most `4 ×` [`MAX_HITS`].
fn keep_best(mut ranked: Vec<(f32, u32)>) -> Vec<(f32, u32)> {
    let top = ranked.first().map_or(0.0, |r| r.0);
    ranked.retain(|r| r.0 >= top * MIN_SCORE_RATIO && r.0 > 0.0);
    ranked.truncate(4 * MAX_HITS);
    ranked
}

/// Loads the ranked units and merges those of one document that touch: adjacent sections (or parts), and code
/// blocks inside a section that is a hit too. Groups keep the best score of their units and are ordered by it.
fn merge(ix: &SearchIndex, ranked: Vec<(f32, u32)>) -> Result<Vec<Group>, LookupError> {
    let mut groups: Vec<Group> = Vec::new();
    for (score, u) in ranked {
        let info = ix.unit(u)?;
        let kind = Kind::from_code(ix.meta.unit_kind.0[u as usize]).unwrap_or(Kind::Doc);
        groups.push(Group { score, kind, source: info.source, units: vec![info], best: 0 });
    }
    // Merge in document order within each source, then restore score order.
    let mut order: Vec<usize> = (0..groups.len()).collect();
    order.sort_by_key(|&i| (groups[i].source, groups[i].start_line(), groups[i].kind != Kind::Doc));
    let mut merged: Vec<Group> = Vec::new();
    for i in order {
        let g =
            std::mem::replace(&mut groups[i], Group { score: 0.0, kind: Kind::Doc, source: 0, units: vec![], best: 0 });
        if let Some(last) = merged.last_mut()
            && last.source == g.source
            && last.kind == Kind::Doc
            && matches!(g.kind, Kind::Doc | Kind::Code)
        {
            let inside = g.end_line() <= last.end_line();
            let adjacent = g.kind == Kind::Doc
                && g.start_line() == last.end_line() + 1
                && last.tokens() + g.tokens() <= MERGE_MAX_TOKENS;
            if inside {
                last.score = last.score.max(g.score);
                continue;
            }
            if adjacent {
                if g.score > last.score {
                    last.score = g.score;
                    last.best = last.units.len() + g.best;
                }
                last.units.extend(g.units);
                continue;
            }
        }
        merged.push(g);
    }
    merged.sort_by(|a, b| {
        b.score.total_cmp(&a.score).then(a.source.cmp(&b.source)).then(a.start_line().cmp(&b.start_line()))
    });
    Ok(merged)
}

/// The follow-up call of a hit in its three forms, all from the one builder of `crate::render` (so they carry
/// the system, version and language served, as every "fetch more" call does, and the CLI form is shell-quoted).
fn follow_up(served: &Served, lang: Option<&str>, tool: &str, cli: &str, args: &[(&str, Arg)]) -> FollowUp {
    FollowUp {
        tool: tool.to_string(),
        arguments: call_arguments(served, lang, args),
        call: Surface::Mcp.call(served, lang, tool, cli, args),
        cli: Surface::Cli.call(served, lang, tool, cli, args),
        cli_text: String::new(),
    }
}

/// The header lines of a hit as rendered for `surface` (used for the budget estimate too, with the longer MCP
/// form).
pub fn header_text(h: &SearchHit, surface: Surface) -> String {
    let mut what = Vec::new();
    if let Some(s) = &h.system {
        what.push(s.clone());
    }
    if let Some(c) = &h.component {
        what.push(if h.guide { format!("{c} (guide)") } else { c.clone() });
    }
    if let Some(l) = &h.lang {
        what.push(l.clone());
    }
    if !h.section.is_empty() {
        what.push(h.section.join(" › "));
    }
    for e in &h.examples {
        let title = e.title.as_ref().map_or(String::new(), |t| format!(" \"{t}\""));
        what.push(format!("example #{} {}{title}", e.block, e.path));
    }
    let code = h.code_lang.as_ref().map_or(String::new(), |l| format!(" {l}"));
    let lines = if h.kind == Kind::Code && h.examples.iter().any(|e| e.beside) {
        "beside the text".to_string()
    } else {
        format!("lines {}–{}", h.start_line, h.end_line)
    };
    format!(
        "── {}{code} · {} · {} {lines} · score {:.2} · {} tokens\n→ {}\n",
        h.kind.name(),
        what.join(" · "),
        h.document,
        h.score,
        h.tokens,
        match surface {
            Surface::Mcp => &h.follow_up.call,
            Surface::Cli if !h.follow_up.cli.is_empty() => &h.follow_up.cli,
            Surface::Cli if !h.follow_up.cli_text.is_empty() => &h.follow_up.cli_text,
            Surface::Cli => &h.follow_up.call,
        }
    )
}

impl crate::render::Render for SearchView {
    fn render(&self, surface: Surface) -> String {
        // Several systems searched: `blueprint 6.20.0, semi 2.102.0`.
        let systems: Vec<String> = self
            .served
            .system
            .split(", ")
            .zip(self.served.version.split(", "))
            .map(|(s, v)| format!("{s} {v}"))
            .collect();
        let n = self.hits.len() as u32;
        let listed = if n > 0 && n < self.total {
            format!("hits {}–{} of {}", self.first, self.first + n - 1, self.total)
        } else {
            crate::render::plural(u64::from(n), "hit")
        };
        let mut out = format!(
            "[{} · search \"{}\" · {listed} · ≤ {} tokens]\n",
            systems.join(", "),
            self.query,
            crate::render::thousands(self.tokens)
        );
        for h in &self.hits {
            out.push_str(&header_text(h, surface));
            match &h.text {
                Some(t) => {
                    out.push_str(t);
                    out.push('\n');
                }
                None => out.push_str("[text not shown: over the token budget; get it with the call above]\n"),
            }
        }
        let more = format!(
            "{} more of {} hits",
            crate::render::thousands(u64::from(self.omitted)),
            crate::render::thousands(u64::from(self.total))
        );
        match (&self.next, &self.next_cursor) {
            (Some(next), _) => out.push_str(&format!(
                "[{more}: continue with {}]\n",
                if surface == Surface::Mcp { &next.call } else { &next.cli }
            )),
            // The call is too long to write out within the budget: the cursor, for the same search.
            (None, Some(cursor)) => out.push_str(&format!(
                "[{more}: continue with the same search and {}]\n",
                surface.arg("--cursor", &Arg::from(cursor.clone()))
            )),
            (None, None) => {}
        }
        if let Some(m) = &self.message {
            // The no-hit hint names the listing call as this surface spells it (the CLI's is `components`).
            let m = match surface {
                Surface::Cli if m.ends_with(NO_HIT_LIST) => {
                    let list = surface.hint("list_components", "components", None, &[]);
                    format!("{}`{list}`", &m[..m.len() - "list_components".len()])
                }
                _ => m.clone(),
            };
            out.push_str(&format!("[{m}]\n"));
        }
        for s in &self.skipped {
            out.push_str(&format!("[skipped, unreadable: {s}]\n"));
        }
        out.pop();
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    // The index builder is the compiler's (a dev-dependency): its types are that crate's copy of this one's, so
    // fixtures are built with `built::` types and only the written file crosses over.
    use mydesign_docs_compiler::search as built;
    use mydesign_docs_compiler::search::index::{UnitDraft, build};

    /// The compiler's copy of `kind`.
    fn built_kind(kind: Kind) -> built::Kind {
        serde_json::from_value(serde_json::to_value(kind).unwrap()).unwrap()
    }

    /// A tiny index written to a temporary bundle: (title, context, body) per unit, all `doc` units of one source.
    fn fixture(units: &[(&str, &str, &str)]) -> (tempfile::TempDir, SearchIndex) {
        let source = built::Source { component: "table".into(), lang: "en-US".into(), path: "table.md".into() };
        let drafts = units
            .iter()
            .enumerate()
            .map(|(i, (t, c, b))| {
                let info = built::UnitInfo {
                    start_line: i as u32 * 10 + 1,
                    end_line: i as u32 * 10 + 9,
                    ..Default::default()
                };
                UnitDraft::new(built::Kind::Doc, source.clone(), info, t, c, b)
            })
            .collect();
        let (w, entry) = build(drafts, built::Weights::default()).unwrap();
        assert_eq!(entry.units as usize, units.len());
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("search.bundle");
        w.finish(&path).unwrap();
        let ix = SearchIndex::open(Arc::new(Bundle::open(&path).unwrap())).unwrap();
        (dir, ix)
    }

    /// A tiny index of units of several kinds and components: (kind, component, title, context, body).
    fn mixed(units: &[(Kind, &str, &str, &str, &str)]) -> (tempfile::TempDir, SearchIndex) {
        let drafts = units
            .iter()
            .enumerate()
            .map(|(i, (k, c, t, ctx, b))| {
                let source = built::Source { component: c.to_string(), lang: String::new(), path: format!("{c}.tsx") };
                let info = built::UnitInfo {
                    start_line: i as u32 * 10 + 1,
                    end_line: i as u32 * 10 + 9,
                    ..Default::default()
                };
                UnitDraft::new(built_kind(*k), source, info, t, ctx, b)
            })
            .collect();
        let (w, _) = build(drafts, built::Weights::default()).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("search.bundle");
        w.finish(&path).unwrap();
        let ix = SearchIndex::open(Arc::new(Bundle::open(&path).unwrap())).unwrap();
        (dir, ix)
    }

    fn ranked(ix: &SearchIndex, q: &str, weights: Option<Weights>) -> Vec<(f32, u32)> {
        let terms: Vec<String> = crate::search::analyze::terms(q);
        let opts = SearchOptions { weights, ..Default::default() };
        rank(ix, q, &terms, &[], None, &opts).unwrap()
    }

    #[test]
    fn props_units_have_their_own_weight() {
        let same = ("SelectProps", "select", "onChange value options");
        let (_dir, ix) = mixed(&[
            (Kind::Function, "select", same.0, same.1, same.2),
            (Kind::Props, "select", same.0, same.1, same.2),
            (Kind::Changelog, "select", same.0, same.1, same.2),
        ]);
        let r = ranked(&ix, "onChange", None);
        assert_eq!(r.iter().map(|r| r.1).collect::<Vec<_>>(), [1, 0, 2]);
        // The props score is the function score over the function weight times the props weight.
        let w = Weights::default();
        assert!((r[0].0 * w.kinds[2] / w.kinds[4] - r[1].0).abs() < 1e-4, "{r:?}");
        // And it is the props weight that decides: lowered, props fall below functions.
        let low = Weights { kinds: [1.0, 1.0, 0.6, 0.6, 0.3], ..Weights::default() };
        assert_eq!(ranked(&ix, "onChange", Some(low))[0].1, 0);
    }

    #[test]
    fn the_component_named_in_the_query_boosts_its_units() {
        let (_dir, ix) = mixed(&[
            (Kind::Doc, "treeselect", "Remote search", "TreeSelect", "search the tree remotely: search as you type"),
            (Kind::Doc, "select", "Remote search", "Select", "load options remotely"),
        ]);
        // Without naming a component, TreeSelect's unit (more `search` in its body) is first.
        assert_eq!(ranked(&ix, "remote search", None)[0].1, 0);
        assert_eq!(ranked(&ix, "select remote search", None)[0].1, 1);
        // `tree select` names TreeSelect, not also Select.
        assert_eq!(ranked(&ix, "tree select remote search", None)[0].1, 0);
        assert_eq!(ranked(&ix, "TreeSelect remote search", None)[0].1, 0);
    }

    #[test]
    fn misspelt_words_get_the_nearest_dictionary_words() {
        let (_dir, ix) = fixture(&[
            ("Table", "Table", "rows and columns"),
            ("Tabs", "Table", "switch between panes"),
            ("Label", "Table", "a label"),
            ("rowSelection", "Table", "select rows"),
        ]);
        // A swap is one edit; the component's own name comes before other words at the same distance.
        let tabel = ix.suggestions("tabel").unwrap();
        assert_eq!(tabel, [("tabel".to_string(), vec!["table".into(), "label".into(), "tabs".into()])]);
        assert_eq!(ix.suggestions("rowSelecton").unwrap()[0].1[0], "rowselection");
        // Known words and words too far from any are left alone.
        assert!(ix.suggestions("table rows").unwrap().is_empty());
        assert!(ix.suggestions("zzzzqqq").unwrap().is_empty());
        assert_eq!(replace_word("tabel fixed-tabel tabel.", "tabel", "table"), "table fixed-tabel table.");
        // A stop word is never corrected (`would` → `could`, `round`).
        let (_dir, ix) = fixture(&[("Round", "Table", "could be round")]);
        assert!(ix.suggestions("would").unwrap().is_empty());
    }

    /// Issue 26 §2: `viewr` got no suggestion while `viewer` had 28 hits: the 300 words two edits away that sort
    /// before it filled the cap of candidates before the one-edit word was reached.
    #[test]
    fn a_one_edit_word_is_suggested_behind_hundreds_of_two_edit_words() {
        let words: Vec<String> = (b'a'..=b'z')
            .flat_map(|a| (b'a'..=b'z').map(move |b| format!("{}{}ewr", a as char, b as char)))
            .filter(|w| w != "viewr")
            .take(300)
            .collect();
        let body = format!("{} viewer", words.join(" "));
        let (_dir, ix) = fixture(&[("Viewer", "Table", &body)]);
        assert_eq!(ix.suggestions("viewr").unwrap()[0].1[0], "viewer");
    }

    #[test]
    fn search_cursors_round_trip_and_refuse_garbage() {
        let c = SearchCursor { sets: 7, search: 9, skip: 3 };
        assert_eq!(SearchCursor::decode(&c.encode()), Ok(c));
        assert!(SearchCursor::decode("").is_err());
        assert!(SearchCursor::decode("AAAA").is_err());
        let mut edited = c.encode();
        edited.insert(2, 'x');
        assert!(SearchCursor::decode(&edited).is_err());
        assert_eq!(texts_message(false), "texts over the budget: see the follow-up calls");
    }

    #[test]
    fn bounds_are_above_the_bytes_they_stand_for() {
        assert_eq!(bound("abc"), 1);
        assert_eq!(bound("abcd"), 2);
        assert_eq!(bound("表格"), 6, "a token per byte of other characters");
        assert_eq!(json_string_bound("a\"b\n", 3), 3 + 2 + 2 + 4);
    }

    fn order(ix: &SearchIndex, q: &str) -> Vec<u32> {
        let terms: Vec<String> = crate::search::analyze::terms(q);
        rank(ix, q, &terms, &["en-US".to_string()], None, &SearchOptions::default())
            .unwrap()
            .iter()
            .map(|r| r.1)
            .collect()
    }

    #[test]
    fn bm25f_ranks_title_over_context_over_body() {
        let (_dir, ix) = fixture(&[
            ("Pagination", "Table", "Split rows into pages of ten rows."),
            ("Row selection", "Table", "Select rows with checkboxes: rowSelection turns it on."),
            ("Basic usage", "Select", "A select lets users pick an option; onChange fires on selection."),
            ("Fixed columns", "Table", "Fix columns to the left while the rows scroll."),
            ("Sorting", "Table", "Sort rows by a column."),
        ]);
        // Title matches (row, select) beat the context (table, in all but one unit: a low IDF) and body matches.
        assert_eq!(order(&ix, "table row selection"), [1, 2, 0, 4, 3]);
        // Only hits of at least half the top score are kept.
        let terms = crate::search::analyze::terms("table row selection");
        let all = rank(&ix, "", &terms, &["en-US".to_string()], None, &SearchOptions::default()).unwrap();
        assert_eq!(keep_best(all).iter().map(|r| r.1).collect::<Vec<_>>(), [1, 2]);
        // An identifier is found whole; its parts alone rank lower.
        assert_eq!(order(&ix, "onChange"), [2]);
        assert_eq!(order(&ix, "rowSelection")[0], 1);
        // Long questions rank on the terms they have; none of them required.
        assert_eq!(order(&ix, "how can I make the columns stay fixed on the left side when I scroll"), [3, 4]);
        assert!(order(&ix, "nothing here matches").is_empty());
    }

    #[test]
    fn filters_exclude_units() {
        let (_dir, ix) = fixture(&[("Row selection", "Table", "rows"), ("Rows", "Table", "rows")]);
        let terms = crate::search::analyze::terms("rows");
        let none = rank(&ix, "", &terms, &["zh-CN".into()], None, &SearchOptions::default()).unwrap();
        assert!(none.is_empty());
        let opts = SearchOptions { kind: Some(Kind::Code), ..Default::default() };
        assert!(rank(&ix, "", &terms, &["en-US".into()], None, &opts).unwrap().is_empty());
        assert_eq!(
            rank(&ix, "", &terms, &["en-US".into()], Some("table"), &SearchOptions::default()).unwrap().len(),
            2
        );
        assert!(
            rank(&ix, "", &terms, &["en-US".into()], Some("select"), &SearchOptions::default()).unwrap().is_empty()
        );
    }
}
