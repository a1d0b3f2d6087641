//! Ranking: which units answer a query and in what order. BM25F over the query's terms with the boosts of a named
//! component and a named identifier ([`rank`]), the "did you mean" corrections of unknown words
//! ([`SearchIndex::suggestions`]), the best units kept ([`keep_best`]) and merged into hits ([`merge`]), per set
//! ([`BundleSet::ranked`]) and across the sets searched ([`ranked_sets`]).

use std::collections::HashSet;
use std::sync::Arc;

use super::analyze::{analyze, is_cjk};
use super::loaded::SearchIndex;
use super::query::{
    MAX_HITS, MAX_QUERY_TERMS, MERGE_MAX_TOKENS, MIN_SCORE_RATIO, SUGGESTIONS, SearchOptions, SearchView,
};
use super::render::{NO_HIT_LIST, bounded, echo_within};
use super::sets::{left_out, skipped_entry};
use super::{Kind, UnitInfo};
use crate::read::{BundleSet, LookupError};

impl SearchIndex {
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
}

/// A ranked unit or a run of merged units.
pub(super) struct Group {
    pub(super) score: f32,
    pub(super) kind: Kind,
    pub(super) source: u32,
    /// In document order.
    pub(super) units: Vec<UnitInfo>,
    /// Index in `units` of the best-scoring unit (whose section path the hit shows).
    pub(super) best: usize,
}

impl Group {
    pub(super) fn start_line(&self) -> u32 {
        self.units.first().map_or(0, |u| u.start_line)
    }
    pub(super) fn end_line(&self) -> u32 {
        self.units.iter().map(|u| u.end_line).max().unwrap_or(0)
    }
    pub(super) fn tokens(&self) -> u32 {
        self.units.iter().map(|u| u.tokens).sum()
    }
}

/// Whether a language tag is Chinese or Japanese (searched for queries in those scripts).
pub(super) fn is_cjk_lang(lang: &str) -> bool {
    let l = lang.to_ascii_lowercase();
    l.starts_with("zh") || l.starts_with("ja")
}

/// The distinct terms of a query, at most [`MAX_QUERY_TERMS`]; a short query's stop words written as whole words
/// (`more`, `Tabs more`) too: the index holds them only where they are exact identifiers (prop names).
pub(super) fn query_terms(query: &str) -> Vec<String> {
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
    // "the example with fixed columns": `example` asks for a kind (code, [`asked_kinds`]); as a term it ranked a
    // section that mentions examples above the one with fixed columns. Kept when it is the query's only word.
    let mut cues: Vec<String> = Vec::new();
    analyze(EXAMPLE_WORDS, |t| cues.push(t.to_string()));
    if terms.iter().any(|t| !cues.contains(t)) {
        terms.retain(|t| !cues.contains(t));
    }
    terms
}

/// The words that ask for an example rather than name what it shows.
const EXAMPLE_WORDS: &str = "example examples demo demos";

/// `text` with each whole occurrence of the lower-case `word` (as [`super::analyze::dictionary_words`] cuts words)
/// replaced by `by`.
pub(super) fn replace_word(text: &str, word: &str, by: &str) -> String {
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

/// One set's part of a search: its index, its ranked groups, the "did you mean" note, and the answer it would give
/// alone (with no hits: its message says why).
pub(super) struct Ranked {
    pub(super) ix: Arc<SearchIndex>,
    pub(super) groups: Vec<Group>,
    pub(super) note: Option<String>,
    pub(super) view: SearchView,
}

impl BundleSet {
    /// Ranks this set's units for `query`: the groups to show (best first), or the message saying why there are
    /// none, with the "did you mean" note.
    pub(super) fn ranked(&self, query: &str, opts: &SearchOptions, max_tokens: u32) -> Result<Ranked, LookupError> {
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
        let cjk = self.cjk_named(query);
        let ranked_units = rank_named(&ix, query, &terms, &langs, component.as_deref(), opts, &cjk)?;
        let mut ranked = keep_best(self.guides_below(&ix, query, &cjk, ranked_units)?);
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
                let units = rank_named(&ix, &corrected, &fixed, &langs, component.as_deref(), opts, &cjk)?;
                ranked = keep_best(self.guides_below(&ix, &corrected, &cjk, units)?);
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

/// A set searched, with its ranking.
pub(super) type SetPart<'s> = (&'s BundleSet, Ranked);

/// Ranks each of `sets` for `query` ([`BundleSet::ranked`]): their parts of the search, and the
/// [`SearchView::skipped`] entries so far (`opts.skipped`, then each set whose search index cannot be read). Among
/// several sets, one without the `component` filtered on, or whose index is unreadable, is left out.
///
/// # Errors
/// The set's error when one set is searched; among several, the first error when no set is left.
pub(super) fn ranked_sets<'s>(
    sets: &[&'s BundleSet],
    query: &str,
    opts: &SearchOptions,
    max_tokens: u32,
) -> Result<(Vec<SetPart<'s>>, Vec<String>), LookupError> {
    let several = sets.len() > 1;
    let mut parts: Vec<(&BundleSet, Ranked)> = Vec::new();
    let mut first_error = None;
    let mut skipped: Vec<String> = opts.skipped.clone();
    for &set in sets {
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
    Ok((parts, skipped))
}

impl BundleSet {
    /// The components a Chinese query names by their Chinese name: a run of 2 or more Chinese characters of a
    /// component's document title (`PullRefresh 下拉刷新`) that the query holds (spaces aside), the longest such names
    /// only (`下拉刷新列表` names the pull-refresh, not also the list `列表`: short names are common words inside
    /// longer ones). Empty for a query without Chinese.
    pub(super) fn cjk_named(&self, query: &str) -> HashSet<String> {
        if !query.chars().any(is_cjk) {
            return HashSet::new();
        }
        let q: String = query.chars().filter(|c| !c.is_whitespace()).collect();
        let mut found: Vec<(usize, &str)> = Vec::new();
        for c in &self.head().components {
            for title in c.docs.iter().filter_map(|d| d.title.as_deref()) {
                for run in title.split(|ch: char| !is_cjk(ch)) {
                    let n = run.chars().count();
                    if n >= 2 && q.contains(run) {
                        found.push((n, &c.key));
                    }
                }
            }
        }
        let longest = found.iter().map(|f| f.0).max().unwrap_or(0);
        found.into_iter().filter(|f| f.0 == longest).map(|f| f.1.to_string()).collect()
    }
}

/// The share of its score a guide's unit keeps when the query names a component ([`BundleSet::guides_below`]).
pub const GUIDE_WEIGHT: f32 = 0.5;

impl BundleSet {
    /// Guides below the components a query names: when the query's words (or its Chinese run) name a component
    /// that is no guide, each unit of a guide keeps [`GUIDE_WEIGHT`] of its score, so a guide page sharing the
    /// words (Vant's `useCountDown` guide for "count down") ranks below the component's own page; a query that
    /// names only a guide (`use count down`) leaves the ranking as it is. `ranked` is best first, and so is the
    /// result (ties by unit id).
    fn guides_below(
        &self,
        ix: &SearchIndex,
        query: &str,
        cjk: &HashSet<String>,
        mut ranked: Vec<(f32, u32)>,
    ) -> Result<Vec<(f32, u32)>, LookupError> {
        let m = self.manifest()?;
        let guides: HashSet<&str> = m.components.iter().filter(|c| c.guide).map(|c| c.key.as_str()).collect();
        if guides.is_empty() {
            return Ok(ranked);
        }
        let mut named = named_components(ix, query);
        named.extend(cjk.iter().cloned());
        if !named.iter().any(|k| !guides.contains(k.as_str())) {
            return Ok(ranked);
        }
        let meta = &ix.meta;
        for r in &mut ranked {
            let source = &meta.sources[meta.unit_source[r.1 as usize] as usize];
            if guides.contains(source.component.as_str()) {
                r.0 *= GUIDE_WEIGHT;
            }
        }
        ranked.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        Ok(ranked)
    }
}

/// [`rank_named`] with no component named beside those the query's words name.
#[cfg(test)]
pub(super) fn rank(
    ix: &SearchIndex,
    query_words: &str,
    terms: &[String],
    langs: &[String],
    component: Option<&str>,
    opts: &SearchOptions,
) -> Result<Vec<(f32, u32)>, LookupError> {
    rank_named(ix, query_words, terms, langs, component, opts, &HashSet::new())
}

/// Ranks the units holding any of `terms` that pass the filters: `(score, unit)`, best first (ties by unit id).
/// The units of the components the query names ([`named_components`], and `also_named`: those a Chinese query names,
/// [`BundleSet::cjk_named`]) score more.
pub(super) fn rank_named(
    ix: &SearchIndex,
    query_words: &str,
    terms: &[String],
    langs: &[String],
    component: Option<&str>,
    opts: &SearchOptions,
    also_named: &HashSet<String>,
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
            // A component's own changelog is about it (its source passed the component filter above).
            (Some(m), Kind::Changelog) => {
                !meta.sources[meta.unit_source[u] as usize].component.is_empty() || m.contains(&(u as u32))
            }
            _ => true,
        }
    };
    // Sources of the components the query names: their units score `w.component` times more.
    let mut named = named_components(ix, query_words);
    named.extend(also_named.iter().cloned());
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
    let asked = asked_kinds(query_words);
    let mut scores = vec![0f32; n];
    let mut touched: Vec<u32> = Vec::new();
    for t in terms {
        let Some((shard, i)) = ix.lookup(t)? else { continue };
        let identifier = identifiers.contains(t);
        let form = if super::analyze::is_exact_form(t) { super::analyze::EXACT_FORM_WEIGHT } else { 1.0 };
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
            scores[ui] += form * idf * weighted * (w.k1 + 1.0) / (weighted + w.k1)
                * w.kinds[kind]
                * asked[kind]
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

/// Score multiplier of the kinds a question asks for by its words (indexed by [`Kind::code`]): "which version
/// added", "release", "changelog", "哪个版本" ask for changelog entries; "signature", "implementation", "source
/// code", "签名", "源码" for functions. Those kinds rank below documents at equal match (`Weights::kinds`), which
/// is right for most questions and wrong for these: the task benchmark's version and signature questions were
/// answered by the sections that mention the name (issue 27). 1 for every kind otherwise.
pub(super) fn asked_kinds(query: &str) -> [f32; 5] {
    const CHANGELOG: [&str; 10] = [
        "which version",
        "what version",
        "which release",
        "what release",
        "since version",
        "changelog",
        "release note",
        "哪个版本",
        "更新日志",
        "什么版本",
    ];
    const CODE: [&str; 6] = ["example", "demo", "sample code", "示例", "演示", "例子"];
    const FUNCTION: [&str; 8] =
        ["signature", "implementation", "source code", "function", "签名", "源码", "实现", "函数"];
    /// How much more an asked kind scores: enough to pass a document section that matches as well.
    const ASKED: f32 = 3.0;
    let q = query.to_lowercase();
    let mut out = [1.0; 5];
    // "which Button version", "what Table Select release": the question word, at most two names, the kind ("what
    // is the version prop" asks for a prop).
    let words: Vec<&str> = q.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).collect();
    let asks_version = words.iter().enumerate().any(|(i, w)| {
        let kind = |v: &&str| matches!(*v, "version" | "versions" | "release" | "releases");
        let name = |v: &&str| !matches!(*v, "is" | "are" | "was" | "the" | "a" | "an" | "of");
        matches!(*w, "which" | "what") && words[i + 1..].iter().take(3).find(|v| kind(v) || !name(v)).is_some_and(kind)
    });
    if asks_version || CHANGELOG.iter().any(|c| q.contains(c)) {
        out[Kind::Changelog as usize] = ASKED;
    }
    if CODE.iter().any(|c| q.contains(c)) {
        out[Kind::Code as usize] = ASKED;
    }
    if FUNCTION.iter().any(|c| q.contains(c)) {
        out[Kind::Function as usize] = ASKED;
    }
    out
}

/// The component keys the query names: a run of one to three consecutive words of `query` (lower-cased, joined)
/// that is a component key of the index (`select`; `tree select` or `TreeSelect` → `treeselect`). A key named by a
/// run inside a longer named run is dropped (`tree select` names `treeselect`, not also `select`).
pub(super) fn named_components(ix: &SearchIndex, query: &str) -> HashSet<String> {
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

/// The units worth showing: those scoring at least [`MIN_SCORE_RATIO`] of the top, and the best [`MIN_KEPT`]
/// whatever their score (issue 26 §2: the component a Chinese question asked about ranked 7th, under half the
/// top, and was cut), at most `4 ×` [`MAX_HITS`].
pub(super) fn keep_best(mut ranked: Vec<(f32, u32)>) -> Vec<(f32, u32)> {
    let top = ranked.first().map_or(0.0, |r| r.0);
    let mut k = 0;
    ranked.retain(|r| {
        k += 1;
        r.0 > 0.0 && (k <= MIN_KEPT || r.0 >= top * MIN_SCORE_RATIO)
    });
    ranked.truncate(4 * MAX_HITS);
    ranked
}

/// Units kept whatever their score, the best first (a question's answer within the first five hits).
pub const MIN_KEPT: usize = 5;

/// Loads the ranked units and merges those of one document that touch: adjacent sections (or parts), and code
/// blocks inside a section that is a hit too. Groups keep the best score of their units and are ordered by it.
pub(super) fn merge(ix: &SearchIndex, ranked: Vec<(f32, u32)>) -> Result<Vec<Group>, LookupError> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bundle::Bundle;

    #[test]
    fn a_question_for_a_version_asks_for_changelog_entries_with_a_name_between() {
        let changelog = |q: &str| asked_kinds(q)[Kind::Changelog as usize] > 1.0;
        assert!(changelog("which Button version fixed onClick on a disabled link"));
        assert!(changelog("in what Table Select release was it added"));
        assert!(changelog("Table 横向滚动在哪个版本修复"));
        assert!(!changelog("which props does Button take"));
        assert!(!changelog("what is the version prop of Upload for"));
    }
    use crate::search::Weights;
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
        // The best MIN_KEPT units are kept whatever their score; after them, only those of at least half the top.
        let scores = |v: &[f32]| v.iter().enumerate().map(|(i, &s)| (s, i as u32)).collect::<Vec<_>>();
        let kept = |v: Vec<(f32, u32)>| keep_best(v).iter().map(|r| r.1).collect::<Vec<_>>();
        assert_eq!(kept(scores(&[10.0, 9.0, 4.0, 1.0, 1.0, 1.0, 1.0])), [0, 1, 2, 3, 4]);
        assert_eq!(kept(scores(&[10.0, 9.0, 8.0, 7.0, 6.0, 5.5, 4.0])), [0, 1, 2, 3, 4, 5]);
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
