//! Full-text search over a bundle set: BM25 over section, code-block, function and changelog units, answered from
//! an index the compiler stores as `search.bundle`.
//!
//! - [`analyze`]: term analysis shared by the index and queries (Unicode words, lower-casing, English stemming,
//!   identifiers split on camel case, `_`, `.` and `-` and also kept whole, Chinese as character bigrams, stop
//!   words dropped). Pure Rust, no tokenizer model: the reader half stays light.
//! - `index` (compiler side, `mydesign_docs_compiler::search::index`): cuts documents, functions and changelog releases into units, counts their tokens
//!   with the compiler's `TokenCounter` and writes the term shards and unit frames.
//! - [`query`] (reader side): `BundleSet::search`, which decodes only the shards of the query's terms and the
//!   unit frames of the hits it returns, and the [`query::SearchView`] it answers with.
//!
//! The types below are what `search.bundle` stores (MessagePack frames, like every bundle): a compatibility
//! boundary, as `model.rs` is.

pub mod analyze;

mod dictionary;

mod cursor;
mod fit;
mod hits;
mod loaded;
pub mod query;
mod rank;
mod render;
mod sets;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Frame keys of `search.bundle`.
pub mod keys {
    /// The [`super::SearchMeta`] frame.
    pub const META: &str = "meta";

    /// The term dictionary: the words of titles, contexts and prop names as written (lower-cased, unstemmed), an
    /// `fst` set stored as one binary ([`super::Bytes`]). "Did you mean" runs a Levenshtein automaton over it.
    /// Absent from bundles written before format 3 (no suggestions then).
    pub const DICTIONARY: &str = "dictionary";

    /// Term shard `n` ([`super::TermShard`]): the terms whose hash falls in it, with their postings.
    pub fn shard(n: u32) -> String {
        format!("terms/{n:03}")
    }

    /// Unit chunk `n` ([`super::UnitChunk`]): details of units `n * chunk .. (n + 1) * chunk`.
    pub fn units(n: u32) -> String {
        format!("units/{n:04}")
    }
}

/// File name of the search bundle inside a bundle set directory.
pub const BUNDLE_NAME: &str = "search.bundle";

/// What a unit is. Serialized in kebab-case (`doc`, `code`, `function`, `changelog`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// A section of a document (H2–H4, split when over the unit size).
    Doc,
    /// A fenced code block, with the heading above it.
    Code,
    /// A function of the function index: qualified name, signature, doc comment.
    Function,
    /// One release entry of the changelog.
    Changelog,
    /// A props table, from TypeScript (`XxxProps`) or a document's API table: its props' names, types, defaults and
    /// descriptions.
    Props,
}

impl Kind {
    /// Every kind, in the order of their numbers.
    pub const ALL: [Kind; 5] = [Kind::Doc, Kind::Code, Kind::Function, Kind::Changelog, Kind::Props];

    /// Stored number.
    pub fn code(self) -> u8 {
        self as u8
    }

    /// From a stored number.
    pub fn from_code(code: u8) -> Option<Kind> {
        Kind::ALL.get(code as usize).copied()
    }

    /// The name used in filters and output.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Doc => "doc",
            Kind::Code => "code",
            Kind::Function => "function",
            Kind::Changelog => "changelog",
            Kind::Props => "props",
        }
    }

    /// Parses a filter name (`doc`, `docs`, `section`, `code`, `function`, `changelog`, `props`),
    /// case-insensitively.
    pub fn parse(name: &str) -> Option<Kind> {
        match name.trim().to_ascii_lowercase().as_str() {
            "doc" | "docs" | "section" | "sections" => Some(Kind::Doc),
            "code" | "code-block" | "code_block" | "example" => Some(Kind::Code),
            "function" | "functions" | "fn" => Some(Kind::Function),
            "changelog" | "release" | "releases" => Some(Kind::Changelog),
            "props" | "prop" | "api" => Some(Kind::Props),
            _ => None,
        }
    }
}

/// Weights and constants of the ranking: BM25F with one saturation over the weighted fields.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Weights {
    /// Weight of a term in the unit's own title (section heading, heading above a code block, qualified name of a
    /// function, release heading).
    pub title: f32,
    /// Weight of a term in the unit's context: document/component title and the enclosing headings.
    pub context: f32,
    /// Weight of the body's (length-normalized) term frequency.
    pub body: f32,
    /// BM25 `k1` (term-frequency saturation).
    pub k1: f32,
    /// BM25 `b` (length normalization).
    pub b: f32,
    /// Score multiplier of each kind (indexed by [`Kind::code`]): questions are mostly answered by documents, so
    /// functions (implementation details) and changelog entries rank below them at equal match; props tables have
    /// their own weight (an API question is answered by the table).
    pub kinds: [f32; 5],
    /// Score multiplier of the units of a component the query names (`select` in "select remote search", `tree
    /// select` or `TreeSelect` naming `treeselect` and not `select`), and of the props tables holding a prop the
    /// query names as a whole identifier (`onChange`).
    #[serde(default = "default_component_boost")]
    pub component: f32,
}

fn default_component_boost() -> f32 {
    1.5
}

impl Default for Weights {
    fn default() -> Self {
        Weights {
            title: 10.0,
            context: 5.0,
            body: 1.0,
            k1: 1.2,
            b: 0.75,
            kinds: [1.0, 1.0, 0.6, 0.6, 1.0],
            component: 1.5,
        }
    }
}

/// Where the text of units comes from: a document, a source file or a changelog.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Source {
    /// Component key (the owner's, for files); empty for the changelog.
    pub component: String,
    /// Language tag; empty for source files.
    pub lang: String,
    /// Repository-relative path.
    pub path: String,
}

/// The `meta` frame: sizes, weights, the sources, and one column per unit that queries filter and rank with.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SearchMeta {
    /// Units in all.
    pub units: u32,
    /// Distinct terms in all.
    pub terms: u32,
    /// Number of term shards (a term lives in shard `xxh3(term) % shards`).
    pub shards: u32,
    /// Units per unit chunk.
    pub chunk: u32,
    /// Ranking weights the index was built for (queries may override them).
    pub weights: Weights,
    /// Average body length in terms, per kind (indexed by [`Kind::code`]).
    pub avg_len: [f32; 5],
    /// Sources, indexed by `unit_source`.
    pub sources: Vec<Source>,
    /// Per unit: its [`Kind`] number.
    pub unit_kind: Bytes,
    /// Per unit: index into `sources`.
    pub unit_source: Vec<u32>,
    /// Per unit: body length in terms.
    pub unit_len: Vec<u32>,
}

/// One term shard: its terms, sorted, with their postings.
///
/// The postings of term `i` are `df[i]` units, ascending: their id gaps as varints in `gaps` (the first from 0), and
/// one byte each in `values`: `min(tf, 63) << 2 | in_title << 1 | in_context`, `tf` being the body term frequency.
/// Only lengths are stored (offsets are computed when the shard is loaded, see [`LoadedShard`]): they compress far
/// better than offsets; and gaps and values are kept apart because each compresses better on its own.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TermShard {
    /// The shard's terms, sorted, front-coded: each term's bytes after the prefix it shares with the term before,
    /// concatenated.
    pub suffixes: String,
    /// Per term: bytes shared with the term before (terms are at most [`analyze::MAX_TERM_BYTES`]).
    pub shared: Bytes,
    /// Per term: bytes of its suffix.
    pub suffix_lens: Bytes,
    /// Number of units holding each term, varints.
    pub df: Bytes,
    /// Unit id gaps of every term, varints.
    pub gaps: Bytes,
    /// Values of every term (`sum(df)` bytes).
    pub values: Bytes,
}

/// Largest body term frequency a posting records (BM25 saturates long before).
pub const MAX_TF: u32 = 63;

/// A decoded shard: its terms written out, and the offsets of each term's text, gaps and values.
#[derive(Debug, Default)]
pub struct LoadedShard {
    shard: TermShard,
    /// The terms, concatenated.
    text: String,
    /// Per term: (end of its text in `text`, its df, start of its gaps, start of its values).
    terms: Vec<(u32, u32, u32, u32)>,
}

impl LoadedShard {
    /// Writes the terms out and computes the offsets; `None` when the shard is inconsistent.
    pub fn new(shard: TermShard) -> Option<LoadedShard> {
        let n = shard.shared.0.len();
        if shard.suffix_lens.0.len() != n {
            return None;
        }
        let mut terms = Vec::with_capacity(n);
        let mut all = String::with_capacity(shard.suffixes.len() * 2);
        let (mut prev, mut suffix_at) = (0usize, 0usize);
        let (mut df_at, mut gap_at, mut value_at) = (0usize, 0usize, 0usize);
        for (&shared, &len) in shard.shared.0.iter().zip(&shard.suffix_lens.0) {
            let start = all.len();
            let prefix = all.get(prev..prev.checked_add(shared as usize)?)?.to_string();
            all.push_str(&prefix);
            all.push_str(shard.suffixes.get(suffix_at..suffix_at.checked_add(len as usize)?)?);
            suffix_at += len as usize;
            prev = start;
            let text = all.len();
            let df = get_varint(&shard.df.0, &mut df_at).ok()?;
            let gaps_start = gap_at;
            for _ in 0..df {
                get_varint(&shard.gaps.0, &mut gap_at).ok()?;
            }
            terms.push((u32::try_from(text).ok()?, df, gaps_start as u32, value_at as u32));
            value_at = value_at.checked_add(df as usize)?;
        }
        if suffix_at != shard.suffixes.len() || value_at != shard.values.0.len() {
            return None;
        }
        Some(LoadedShard { shard, text: all, terms })
    }

    /// Number of terms.
    pub fn len(&self) -> usize {
        self.terms.len()
    }

    /// Whether the shard has no terms.
    pub fn is_empty(&self) -> bool {
        self.terms.is_empty()
    }

    /// Term `i`.
    pub fn term(&self, i: usize) -> &str {
        let start = if i == 0 { 0 } else { self.terms[i - 1].0 as usize };
        self.text.get(start..self.terms[i].0 as usize).unwrap_or("")
    }

    /// Index of `term`.
    pub fn find(&self, term: &str) -> Option<usize> {
        let (mut lo, mut hi) = (0usize, self.terms.len());
        while lo < hi {
            let mid = (lo + hi) / 2;
            match self.term(mid).cmp(term) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => return Some(mid),
            }
        }
        None
    }

    /// Units holding term `i`.
    pub fn df(&self, i: usize) -> u32 {
        self.terms[i].1
    }

    /// Calls `f(unit, value)` for each posting of term `i`, units ascending.
    pub fn postings(&self, i: usize, mut f: impl FnMut(u32, u8)) {
        let (_, df, gaps, values) = self.terms[i];
        let mut at = gaps as usize;
        let mut unit = 0u32;
        let values = &self.shard.values.0[values as usize..values as usize + df as usize];
        for &v in values {
            // Checked by `new`: every gap decodes.
            unit = unit.saturating_add(get_varint(&self.shard.gaps.0, &mut at).unwrap_or(0));
            f(unit, v);
        }
    }
}

/// Details of one unit: where its text is, and what to call to get more. Section paths, slugs, code languages
/// and release versions are not repeated here: the reader takes them from the component's `DocMeta` and the
/// changelog's `ChangelogMeta` by line.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitInfo {
    /// Index into [`SearchMeta::sources`].
    pub source: u32,
    /// First line in the source (1-based).
    pub start_line: u32,
    /// Last line (inclusive).
    pub end_line: u32,
    /// Byte offset of the unit's text in the source (documents and files).
    pub start_byte: u32,
    /// End byte offset (exclusive).
    pub end_byte: u32,
    /// Tokens of the unit's text (exact, in the manifest's encoding).
    pub tokens: u32,
    /// Part number of a split section (1-based; 1 for other units).
    pub part: u16,
    /// Parts the section was split into (1 when it was not, and for other units).
    pub parts: u16,
    /// Code block number (code units); 0 for others.
    pub block: u32,
    /// Qualified name (function units); empty for others.
    pub name: String,
}

/// A unit chunk frame.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitChunk {
    /// Units `n * chunk ..`, in id order.
    pub units: Vec<UnitInfo>,
}

/// Bytes stored as one MessagePack binary (a plain `Vec<u8>` would be an array of integers, slow to decode).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Bytes(#[serde(with = "serde_bytes")] pub Vec<u8>);

pub use crate::varint::{get as get_varint, put as put_varint};

/// The shard of a term.
pub fn shard_of(term: &str, shards: u32) -> u32 {
    (xxhash_rust::xxh3::xxh3_64(term.as_bytes()) % u64::from(shards.max(1))) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_are_one_msgpack_binary() {
        let raw = rmp_serde::to_vec(&Bytes(vec![1, 2, 200])).unwrap();
        assert_eq!(raw, [0xc4, 3, 1, 2, 200]);
        assert_eq!(rmp_serde::from_slice::<Bytes>(&raw).unwrap(), Bytes(vec![1, 2, 200]));
    }

    #[test]
    fn kinds_parse_and_number() {
        for k in Kind::ALL {
            assert_eq!(Kind::from_code(k.code()), Some(k));
            assert_eq!(Kind::parse(k.name()), Some(k));
        }
        assert_eq!(Kind::parse("Code-Block"), Some(Kind::Code));
        assert_eq!(Kind::parse("props"), Some(Kind::Props));
        assert_eq!(Kind::parse("poem"), None);
    }
}
