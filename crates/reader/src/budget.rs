//! Token budgets and cursors (the reader's half of context control, after wcgw: budgets in tokens, not lines, and
//! truncation that says so). A text is served in *parts* that each fit a budget: a part ends at a cut point of the
//! text's stored [`TokenMap`](crate::model::TokenMap) (a whole line, so its token count is the exact sum of stored
//! counts: nothing is tokenized here), and an opaque [`Cursor`] names the request and where the next part starts.
//! Following cursors to the end yields every byte of the text exactly once.
//!
//! This module holds the budget of a call ([`Budget`], the envelope and echo reserves); `cut` the cut rule and
//! [`Cuts`], `parts` serving a text in parts, `cursor` the cursors, `bounds` token bounds and error answers.

mod bounds;
mod cursor;
mod cut;
mod parts;

pub use bounds::{
    ERROR_ENVELOPE_TOKENS, Listing, bound, envelope_bound, error_bytes, escape_bytes, fit_error, fit_error_as,
    json_escapes,
};
pub use cursor::{Cursor, DocForm, Request};
pub use cut::{Cuts, cut_points, split_segment};
pub use parts::{Fence, Part, Rest, serve, valid_offset};

/// The operator's default cap on one response, in tokens (`serve --max-tokens`): well under the 25,000 tokens at
/// which Claude Code rejects a tool result.
pub const DEFAULT_MAX_TOKENS: u32 = 10_000;

/// The smallest `max_tokens` a call may ask for, in tokens: below it a part would be mostly header.
pub const MIN_MAX_TOKENS: u32 = 300;

/// Tokens every budget keeps for the header and footer lines the reader writes around the stored text (which it
/// cannot count without a tokenizer): the first header names how to fetch what is hidden, and a cut part ends with
/// its continuation call, whose cursor alone is ~30 tokens. `tests/it/budget.rs` tokenizes every envelope of every part
/// of every Semi document and of the changelog and asserts this bound.
pub const ENVELOPE_TOKENS: u32 = 230;

/// Tokens a skeleton's answer keeps, beside [`ENVELOPE_TOKENS`], for its longer header (the call for the whole
/// file) and its function-list footer (without the names, which are budgeted by their bytes). `tests/it/sweep.rs`
/// tokenizes every answer at budgets from 300 up and asserts the whole text fits.
pub const SKELETON_ENVELOPE_TOKENS: u32 = 60;

/// Bytes of each echoed name (a path, component, section title, `system`, `version`, `--bundles` directory) that
/// [`ENVELOPE_TOKENS`] already covers at each place the answer repeats it: the longest of Semi's paths
/// (`packages/semi-foundation/table/foundation.ts`, 44 bytes) fit with it. Every byte beyond is reserved as one
/// token ([`echo_tokens`]), as a token is never shorter than a byte.
pub const ECHO_FREE_BYTES: usize = 48;

/// Tokens an answer must reserve, beside [`ENVELOPE_TOKENS`], for the names it echoes: `names` are `(name, times)`,
/// the name and how many times the text or the JSON answer (whichever repeats it more) writes it, cursors included
/// (a cursor writes a name of its request in base64: 4/3 of its bytes). Each byte over [`ECHO_FREE_BYTES`] counts
/// a token at each repetition.
pub fn echo_tokens<'a>(names: impl IntoIterator<Item = (&'a str, u32)>) -> u32 {
    names
        .into_iter()
        .map(|(name, times)| (name.len().saturating_sub(ECHO_FREE_BYTES) as u32).saturating_mul(times))
        .fold(0u32, u32::saturating_add)
}

/// Tokens an answer reserves, beside [`ENVELOPE_TOKENS`], for the names of the set it is served from (`system`,
/// `version`, the language) and for the CLI's `--bundles` directory: `names` are `(name, times)` as for
/// [`echo_tokens`], but every byte counts a token, none is free. These names are written in the header and in
/// every call an answer prints, and nothing bounds how densely they tokenize: antd-mobile's version
/// `5.42.4-alpha.0` is 9 tokens in 14 bytes, written 4 times in a hidden document's first part (header, the two
/// hints, the continuation), and `/tmp/…` directories ~1 token per 3 bytes. When they were free up to
/// [`ECHO_FREE_BYTES`] each (while the envelope was measured on Semi's `semi`, `2.90.10`, `zh-CN`), such answers
/// went 1–27 tokens over their budget (trial item 1). Only [`SET_FREE_BYTES`] of each are free.
pub fn set_echo_tokens<'a>(names: impl IntoIterator<Item = (&'a str, u32)>) -> u32 {
    names
        .into_iter()
        .map(|(name, times)| (name.len().saturating_sub(SET_FREE_BYTES) as u32).saturating_mul(times))
        .fold(0u32, u32::saturating_add)
}

/// Bytes of each of the set's names (`system`, `version`, language) that [`ENVELOPE_TOKENS`] covers: it was
/// measured on Semi (`2.90.10`, 7 bytes, 6 tokens), Blueprint and the sample (`blueprint`, `my-design`: 9 bytes).
/// Every byte beyond is reserved as a token at each repetition ([`set_echo_tokens`]); the CLI's `--bundles`
/// directory, never part of that measurement, is reserved whole (by [`bound`]) in each call.
pub const SET_FREE_BYTES: usize = 9;

/// Lines longer than this many bytes (1 KiB, about 250 tokens of English) are also cut after words.
pub const LONG_SEGMENT_BYTES: usize = 1024;

/// Segments counted at more than this many tokens are split further by the compiler ([`split_segment`]), so that
/// every segment fits the content budget of the smallest `max_tokens` (300 − [`ENVELOPE_TOKENS`] = 70 tokens)
/// and a part always ends within its budget.
pub const MAX_SEGMENT_TOKENS: u32 = 64;

/// The longest piece [`split_segment`] leaves, in bytes: at most this many tokens, as every token is at least a
/// byte.
pub const SPLIT_BYTES: usize = 64;

/// How many of the leading `bounds` (upper bounds in tokens of list entries) fit in `room` tokens, and the tokens
/// they take: entries are kept in order while their sum fits.
pub fn listed_within(bounds: impl IntoIterator<Item = u32>, room: u32) -> (usize, u32) {
    let (mut kept, mut used) = (0, 0u32);
    for b in bounds {
        if used.saturating_add(b) > room {
            break;
        }
        kept += 1;
        used += b;
    }
    (kept, used)
}

/// Why a budget or cursor was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BudgetError {
    /// `max_tokens` under [`MIN_MAX_TOKENS`].
    #[error("max_tokens {asked} is below the minimum of {MIN_MAX_TOKENS} tokens")]
    TooSmall {
        /// What was asked for.
        asked: u32,
    },
    /// `max_tokens` too small for an answer that repeats long names (a path, heading, the set's name and version,
    /// the `--bundles` directory): beside them, not even the first stored segment fits.
    #[error(
        "max_tokens {asked} is too small for {request}: the names it repeats (path, headings, the set's name and \
         version, the --bundles directory) leave no room for its first lines; ask for max_tokens {needed} or more"
    )]
    TooSmallForNames {
        /// What was asked for.
        asked: u32,
        /// What was asked, as a cursor names it.
        request: String,
        /// The smallest budget that serves the first part.
        needed: u32,
    },
    /// An empty cursor (`--cursor ""`, `cursor: ""`).
    #[error(
        "the cursor is empty: leave it out to get the first part; a cut answer ends with the call that continues it \
         (its next_cursor)"
    )]
    EmptyCursor,
    /// Not a cursor this reader wrote.
    #[error("malformed cursor: {why}; pass the next_cursor of a previous answer unchanged")]
    Malformed {
        /// What is wrong.
        why: String,
    },
    /// A cursor made on another build of the same `system@version`: the text it points into has changed.
    #[error(
        "this cursor is from another build of {set} ({request}; the text changed since): repeat the call without cursor"
    )]
    Stale {
        /// `system@version`.
        set: String,
        /// What the cursor continues.
        request: String,
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
    /// Whether the call lowered the cap (continuation calls then repeat `max_tokens`).
    pub lowered: bool,
    /// Tokens reserved for the long names the answer echoes ([`echo_tokens`]), beside [`ENVELOPE_TOKENS`]; 0 until
    /// the view that serves the call knows its names, and always 0 for a measured budget.
    pub echo: u32,
    /// Tokens reserved for what the answer prints beside its content (header, footer, JSON fields): the fixed
    /// [`ENVELOPE_TOKENS`], or, for a [`Budget::measured`] one, the [`envelope_bound`] of the envelope the answer
    /// printed when served under a smaller reserve (`render::fitted`).
    pub envelope: u32,
    /// Whether `envelope` was measured on the answer's own envelope, names included: then no name is reserved by
    /// its bytes ([`Budget::echoing`] keeps `echo` at 0) and the JSON lists beside a text are in it.
    pub measured: bool,
}

impl Budget {
    /// The budget for a call: `max_tokens` (if any) lowered to the operator's `cap`.
    ///
    /// # Errors
    /// [`BudgetError::TooSmall`] when `max_tokens` is under [`MIN_MAX_TOKENS`].
    pub fn new(cap: u32, max_tokens: Option<u32>) -> Result<Budget, BudgetError> {
        match max_tokens {
            Some(asked) if asked < MIN_MAX_TOKENS => Err(BudgetError::TooSmall { asked }),
            Some(asked) => {
                let cap = cap.max(MIN_MAX_TOKENS);
                Ok(Budget { max_tokens: asked.min(cap), lowered: asked < cap, ..Budget::default() })
            }
            None => Ok(Budget { max_tokens: cap.max(MIN_MAX_TOKENS), ..Budget::default() }),
        }
    }

    /// Tokens left for stored text once the envelope and the echoed names are reserved.
    pub fn content(self) -> u32 {
        self.max_tokens.saturating_sub(self.envelope).saturating_sub(self.echo)
    }

    /// This budget with `echo` tokens reserved for the echoed names ([`echo_tokens`]). What is left may not hold
    /// the first stored segment: the view then answers [`BudgetError::TooSmallForNames`] rather than go over. A
    /// measured budget reserves none: its envelope holds the names as printed.
    pub fn echoing(self, echo: u32) -> Budget {
        Budget { echo: if self.measured { 0 } else { echo }, ..self }
    }

    /// This budget keeping `envelope` tokens (an [`envelope_bound`] of what the answer prints beside its content)
    /// instead of [`ENVELOPE_TOKENS`] and the names' reserve.
    pub fn measured(self, envelope: u32) -> Budget {
        Budget { envelope, measured: true, echo: 0, ..self }
    }
}

impl Default for Budget {
    fn default() -> Self {
        Budget { max_tokens: DEFAULT_MAX_TOKENS, lowered: false, echo: 0, envelope: ENVELOPE_TOKENS, measured: false }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn echoed_names_are_reserved_by_their_bytes_beyond_the_free_ones() {
        let path = "p".repeat(113);
        // 113 − 48 = 65 bytes over, repeated 6 times; a 48-byte name costs nothing beyond the envelope.
        assert_eq!(echo_tokens([(path.as_str(), 6), ("x".repeat(48).as_str(), 9)]), 390);
        assert_eq!(echo_tokens([("semi", 4), ("2.90.10", 4)]), 0);
        let b = Budget::new(10_000, Some(1_000)).unwrap().echoing(390);
        assert_eq!((b.content(), b.max_tokens), (1_000 - ENVELOPE_TOKENS - 390, 1_000));
        assert_eq!(Budget::new(10_000, Some(300)).unwrap().echoing(390).content(), 0);
    }

    #[test]
    fn the_sets_names_are_reserved_beyond_nine_bytes() {
        // Semi's and the sample's names cost nothing beyond the envelope; antd-mobile's 14-byte prerelease version
        // (9 tokens) reserves 5 tokens at each of its 4 places, its 11-byte name 2.
        assert_eq!(set_echo_tokens([("semi", 4), ("2.90.10", 4), ("my-design", 4), ("zh-CN", 4)]), 0);
        assert_eq!(set_echo_tokens([("antd-mobile", 4), ("5.42.4-alpha.0", 4), ("en-US", 4)]), 28);
    }

    #[test]
    fn budgets_are_lowered_never_raised() {
        assert_eq!(Budget::new(10_000, None).unwrap().max_tokens, 10_000);
        assert_eq!(Budget::new(10_000, Some(500)).unwrap().max_tokens, 500);
        assert_eq!(Budget::new(1_000, Some(50_000)).unwrap().max_tokens, 1_000);
        assert_eq!(Budget::new(10_000, Some(299)), Err(BudgetError::TooSmall { asked: 299 }));
        assert!(BudgetError::TooSmall { asked: 5 }.to_string().contains("minimum of 300 tokens"));
        assert_eq!(Budget::new(10_000, Some(300)).unwrap().content(), 70);
    }
}
