//! Token budgets and cursors (the reader's half of context control, after wcgw: budgets in tokens, not lines, and
//! truncation that says so). A text is served in *parts* that each fit a budget: a part ends at a cut point of the
//! text's stored [`TokenMap`] (a whole line, so its token count is the exact sum of stored counts: nothing is
//! tokenized here), and an opaque [`Cursor`] names the request and where the next part starts. Following cursors
//! to the end yields every byte of the text exactly once.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde::{Deserialize, Serialize};

use crate::model::TokenMap;

/// The operator's default cap on one response, in tokens (`serve --max-tokens`): well under the 25,000 tokens at
/// which Claude Code rejects a tool result.
pub const DEFAULT_MAX_TOKENS: u32 = 10_000;

/// The smallest `max_tokens` a call may ask for, in tokens: below it a part would be mostly header.
pub const MIN_MAX_TOKENS: u32 = 200;

/// Tokens every budget keeps for the header and footer lines the reader writes around the stored text (which it
/// cannot count without a tokenizer). Measured on the real corpora: the longest header with its continuation call
/// is under 120 tokens (`tests/budget.rs` tokenizes every envelope it sees and asserts this bound).
pub const ENVELOPE_TOKENS: u32 = 150;

/// Why a budget or cursor was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BudgetError {
    /// `max_tokens` under [`MIN_MAX_TOKENS`].
    #[error("max_tokens {asked} is below the minimum of {MIN_MAX_TOKENS} tokens")]
    TooSmall {
        /// What was asked for.
        asked: u32,
    },
    /// Not a cursor this reader wrote.
    #[error("malformed cursor: {why}; pass the next_cursor of a previous answer unchanged")]
    Malformed {
        /// What is wrong.
        why: String,
    },
    /// A cursor of another bundle set, document or file.
    #[error("this cursor continues {cursor}, not {call}; repeat that call with it, or drop the cursor")]
    Mismatch {
        /// What the cursor continues.
        cursor: String,
        /// What this call asked for.
        call: String,
    },
}

/// The budget of one response, in tokens of content (the stored text served).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Whole-response cap: the operator's cap, or the call's `max_tokens` when lower.
    pub max_tokens: u32,
}

impl Budget {
    /// The budget for a call: `max_tokens` (if any) lowered to the operator's `cap`.
    ///
    /// # Errors
    /// [`BudgetError::TooSmall`] when `max_tokens` is under [`MIN_MAX_TOKENS`].
    pub fn new(cap: u32, max_tokens: Option<u32>) -> Result<Budget, BudgetError> {
        match max_tokens {
            Some(asked) if asked < MIN_MAX_TOKENS => Err(BudgetError::TooSmall { asked }),
            Some(asked) => Ok(Budget { max_tokens: asked.min(cap.max(MIN_MAX_TOKENS)) }),
            None => Ok(Budget { max_tokens: cap.max(MIN_MAX_TOKENS) }),
        }
    }

    /// Tokens left for stored text once the envelope is reserved.
    pub fn content(self) -> u32 {
        self.max_tokens.saturating_sub(ENVELOPE_TOKENS)
    }
}

impl Default for Budget {
    fn default() -> Self {
        Budget { max_tokens: DEFAULT_MAX_TOKENS }
    }
}

/// Where the segments of a [`TokenMap`] end, with cumulative counts: `ends[i]` is the byte offset where segment `i`
/// ends, `cum[i]` the tokens of segments `0..=i`.
pub struct Cuts {
    ends: Vec<usize>,
    cum: Vec<u64>,
}

impl Cuts {
    /// The cut points of `map`.
    pub fn new(map: &TokenMap) -> Cuts {
        let (mut at, mut total) = (0usize, 0u64);
        let mut ends = Vec::with_capacity(map.bytes.len());
        let mut cum = Vec::with_capacity(map.bytes.len());
        for (b, t) in map.bytes.iter().zip(&map.tokens) {
            at += *b as usize;
            total += u64::from(*t);
            ends.push(at);
            cum.push(total);
        }
        Cuts { ends, cum }
    }

    /// Length of the text the map describes, in bytes.
    pub fn len(&self) -> usize {
        self.ends.last().copied().unwrap_or(0)
    }

    /// Whether the map describes an empty text.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Tokens before byte `at`, and whether `at` is a cut point (else the count includes the whole segment `at`
    /// falls in, an upper bound).
    fn before(&self, at: usize, round_up: bool) -> (u64, bool) {
        if at == 0 {
            return (0, true);
        }
        // The first segment ending at or after `at`.
        let i = self.ends.partition_point(|&e| e < at);
        match self.ends.get(i) {
            Some(&e) if e == at => (self.cum[i], true),
            Some(_) => {
                let whole = if round_up { self.cum[i] } else { i.checked_sub(1).map_or(0, |j| self.cum[j]) };
                (whole, false)
            }
            None => (self.cum.last().copied().unwrap_or(0), true),
        }
    }

    /// Tokens of `text[start..end]`: exact when both ends are cut points, else the tokens of the whole segments
    /// around it (an upper bound), with `false`.
    pub fn tokens(&self, start: usize, end: usize) -> (u32, bool) {
        let (a, exact_a) = self.before(start, false);
        let (b, exact_b) = self.before(end, true);
        (u32::try_from(b.saturating_sub(a)).unwrap_or(u32::MAX), exact_a && exact_b)
    }

    /// The end of the longest part of `text[start..end]` that fits `budget` tokens: a cut point (or `end`).
    /// Always makes progress: when even the first segment is over the budget, the part is that segment alone
    /// (a single line longer than the budget, which only unsplittable text of thousands of bytes can be).
    pub fn fit(&self, start: usize, end: usize, budget: u32) -> usize {
        if self.tokens(start, end).0 <= budget {
            return end;
        }
        let (base, _) = self.before(start, false);
        let limit = base + u64::from(budget);
        // Last cut point in (start, end) whose cumulative count is within the limit.
        let first = self.ends.partition_point(|&e| e <= start);
        let last = self.ends.partition_point(|&e| e < end);
        let within = self.cum[first..last].partition_point(|&c| c <= limit);
        match within {
            0 => self.ends.get(first).copied().unwrap_or(end).min(end),
            n => self.ends[first + n - 1],
        }
    }

    /// Whether byte `at` is a cut point (or an end of the text).
    pub fn is_cut(&self, at: usize) -> bool {
        at == 0 || self.ends.binary_search(&at).is_ok()
    }
}

/// What a cursor continues: the request, as the tool call that made it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Request {
    /// `component_details`: component key, language, detail level (`normal`/`full`), section slugs.
    Doc {
        /// Component key.
        component: String,
        /// Language served.
        lang: String,
        /// `normal` or `full`.
        detail: String,
        /// Sections requested (slugs), empty for the whole document.
        sections: Vec<String>,
    },
    /// `get_changelog`: language and page.
    Changelog {
        /// Language served.
        lang: String,
        /// Page number.
        page: u32,
    },
    /// `get_file_code`: path, whole file or skeleton, line range.
    File {
        /// Repository-relative path.
        path: String,
        /// Whole file rather than the skeleton.
        full: bool,
        /// Line range asked for.
        lines: Option<(u32, u32)>,
    },
    /// `get_code_block`.
    Block {
        /// Component key.
        component: String,
        /// Language served.
        lang: String,
        /// Block number.
        index: u32,
    },
    /// `get_function_code`.
    Function {
        /// Repository-relative path.
        path: String,
        /// Qualified name.
        qualified: String,
    },
}

impl std::fmt::Display for Request {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Request::Doc { component, lang, detail, sections } if sections.is_empty() => {
                write!(f, "the {detail} document of `{component}` ({lang})")
            }
            Request::Doc { component, lang, sections, .. } => {
                write!(f, "sections {} of `{component}` ({lang})", sections.join(", "))
            }
            Request::Changelog { lang, page } => write!(f, "changelog page {page} ({lang})"),
            Request::File { path, .. } => write!(f, "file `{path}`"),
            Request::Block { component, lang, index } => write!(f, "code block {index} of `{component}` ({lang})"),
            Request::Function { path, qualified } => write!(f, "function `{qualified}` of `{path}`"),
        }
    }
}

/// Where the next part of a cut response starts: the bundle set, the request, and a byte offset into the text it
/// serves. Sent as an opaque string (MessagePack, a checksum, URL-safe base64).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cursor {
    /// `system@version` of the set that served the first part.
    pub set: String,
    /// What is being continued.
    pub request: Request,
    /// Byte offset into the served text (for several sections: into their concatenation).
    pub offset: u32,
}

impl Cursor {
    /// The opaque form.
    pub fn encode(&self) -> String {
        let mut bytes = rmp_serde::to_vec(self).unwrap_or_default();
        let sum = xxhash_rust::xxh3::xxh3_64(&bytes) as u32;
        bytes.extend_from_slice(&sum.to_le_bytes());
        URL_SAFE_NO_PAD.encode(bytes)
    }

    /// Parses an opaque cursor.
    ///
    /// # Errors
    /// [`BudgetError::Malformed`] for anything this reader did not write (bad base64, checksum, layout).
    pub fn decode(s: &str) -> Result<Cursor, BudgetError> {
        let malformed = |why: &str| BudgetError::Malformed { why: why.into() };
        let bytes = URL_SAFE_NO_PAD.decode(s.trim()).map_err(|_| malformed("not base64url"))?;
        let (body, sum) = bytes.split_at_checked(bytes.len().saturating_sub(4)).ok_or_else(|| malformed("too short"))?;
        if sum.len() != 4 || (xxhash_rust::xxh3::xxh3_64(body) as u32).to_le_bytes() != sum {
            return Err(malformed("checksum mismatch (cut short or edited?)"));
        }
        rmp_serde::from_slice(body).map_err(|_| malformed("unknown layout"))
    }

    /// Checks that this cursor continues `request` on set `set`.
    ///
    /// # Errors
    /// [`BudgetError::Mismatch`] naming what the cursor continues.
    pub fn check(&self, set: &str, request: &Request) -> Result<(), BudgetError> {
        if self.set != set {
            return Err(BudgetError::Mismatch { cursor: format!("{} of {}", self.request, self.set), call: set.into() });
        }
        if &self.request != request {
            return Err(BudgetError::Mismatch { cursor: self.request.to_string(), call: request.to_string() });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(segments: &[(u32, u32)]) -> TokenMap {
        TokenMap { bytes: segments.iter().map(|s| s.0).collect(), tokens: segments.iter().map(|s| s.1).collect() }
    }

    #[test]
    fn budgets_are_lowered_never_raised() {
        assert_eq!(Budget::new(10_000, None).unwrap().max_tokens, 10_000);
        assert_eq!(Budget::new(10_000, Some(500)).unwrap().max_tokens, 500);
        assert_eq!(Budget::new(1_000, Some(50_000)).unwrap().max_tokens, 1_000);
        assert_eq!(Budget::new(10_000, Some(199)), Err(BudgetError::TooSmall { asked: 199 }));
        assert!(BudgetError::TooSmall { asked: 5 }.to_string().contains("minimum of 200 tokens"));
        assert_eq!(Budget::new(10_000, Some(200)).unwrap().content(), 50);
    }

    #[test]
    fn fit_ends_on_cut_points_within_budget() {
        // Segments of 10, 20, 30 bytes with 5, 7, 9 tokens: ends 10, 30, 60; cumulative 5, 12, 21.
        let cuts = Cuts::new(&map(&[(10, 5), (20, 7), (30, 9)]));
        assert_eq!(cuts.len(), 60);
        assert_eq!(cuts.tokens(0, 60), (21, true));
        assert_eq!(cuts.tokens(10, 30), (7, true));
        assert_eq!(cuts.tokens(15, 30), (7, false), "inside a segment: the whole segment, flagged");
        assert_eq!(cuts.fit(0, 60, 100), 60);
        assert_eq!(cuts.fit(0, 60, 12), 30);
        assert_eq!(cuts.fit(0, 60, 11), 10);
        assert_eq!(cuts.fit(10, 60, 16), 60);
        assert_eq!(cuts.fit(10, 60, 15), 30);
        assert_eq!(cuts.fit(0, 60, 1), 10, "a segment over the budget is served alone");
        assert_eq!(cuts.fit(0, 20, 1), 10);
        assert!(cuts.is_cut(30) && !cuts.is_cut(31));
    }

    #[test]
    fn cursors_round_trip_and_refuse_garbage() {
        let request = Request::Changelog { lang: "zh-CN".into(), page: 3 };
        let c = Cursor { set: "semi@2.102.0".into(), request: request.clone(), offset: 1234 };
        let s = c.encode();
        assert!(s.chars().all(|ch| ch.is_ascii_alphanumeric() || ch == '-' || ch == '_'), "{s}");
        assert_eq!(Cursor::decode(&s).unwrap(), c);
        assert!(c.check("semi@2.102.0", &request).is_ok());
        let other = c.check("semi@2.101.0", &request).unwrap_err().to_string();
        assert!(other.contains("semi@2.102.0") && other.contains("changelog page 3"), "{other}");
        let page4 = Request::Changelog { lang: "zh-CN".into(), page: 4 };
        assert!(matches!(c.check("semi@2.102.0", &page4), Err(BudgetError::Mismatch { .. })));
        for bad in ["", "!!!", "abc", &s[..s.len() - 2], &format!("{s}A")] {
            assert!(matches!(Cursor::decode(bad), Err(BudgetError::Malformed { .. })), "{bad}");
        }
    }
}
