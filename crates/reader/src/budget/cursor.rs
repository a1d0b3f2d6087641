//! Cursors: what a cut answer hands its continuation ([`Cursor`]: the set, the [`Request`] and a byte offset),
//! sent as an opaque string and checked when it comes back.

use serde::{Deserialize, Serialize};

use super::BudgetError;

/// What a cursor continues: the request, as the tool call that made it. Its variants (and [`DocForm`]'s) are
/// written under one-letter names: every byte of a cursor is printed twice a part (text and JSON).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Request {
    /// `component_details`: component key, language, detail level (`normal`/`full`), section slugs.
    #[serde(rename = "d")]
    Doc {
        /// Component key.
        component: String,
        /// Language served.
        lang: String,
        /// Which text of the document.
        form: DocForm,
        /// Sections requested (slugs), empty for the whole document.
        sections: Vec<String>,
    },
    /// `get_changelog`: language and page.
    #[serde(rename = "l")]
    Changelog {
        /// Language served.
        lang: String,
        /// Page number.
        page: u32,
    },
    /// `get_file_code`: path, whole file or skeleton, line range.
    #[serde(rename = "f")]
    File {
        /// Repository-relative path.
        path: String,
        /// Whole file rather than the skeleton.
        full: bool,
        /// Line range asked for.
        lines: Option<(u32, u32)>,
    },
    /// `get_code_block`.
    #[serde(rename = "b")]
    Block {
        /// Component key.
        component: String,
        /// Language served.
        lang: String,
        /// Block number.
        index: u32,
    },
    /// `list_components`: rows of the list in a language.
    #[serde(rename = "c")]
    Components {
        /// Language of the sizes.
        lang: String,
    },
    /// `list_components` with a component: rows of its file list.
    #[serde(rename = "s")]
    Files {
        /// Component name.
        component: String,
    },
    /// `get_function_code`.
    #[serde(rename = "u")]
    Function {
        /// Repository-relative path.
        path: String,
        /// Qualified name.
        qualified: String,
    },
    /// `component_changes` / `diff` / `changelog --component --since`: rows of a comparison.
    #[serde(rename = "g")]
    Changes {
        /// Component key.
        component: String,
        /// Older version.
        from: String,
        /// Newer version.
        to: String,
        /// Language asked for.
        lang: Option<String>,
        /// Only the changelog compared.
        changelog_only: bool,
    },
    /// `tokens` / `search_docs(kind="token")`: rows of the matching design tokens.
    Tokens {
        /// The query (empty: all).
        query: String,
        /// The type asked for, by name.
        kind: Option<String>,
        /// The component asked for.
        component: Option<String>,
    },
    /// `token-for` / `search_docs(kind="token-for")`: rows of the tokens of a value.
    TokenFor {
        /// The value as asked.
        value: String,
    },
    /// `search --uses` / `search_docs(uses=…)`: rows of the examples that use a component or one of its props.
    #[serde(rename = "x")]
    Uses {
        /// What was asked (`Table.rowSelection`, `Table`).
        what: String,
        /// Language served.
        lang: String,
    },
}

impl std::fmt::Display for Request {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Request::Doc { component, lang, form, sections } if sections.is_empty() => {
                write!(f, "the {} of `{component}` ({lang})", form.name())
            }
            Request::Doc { component, lang, sections, .. } => {
                write!(f, "sections {} of `{component}` ({lang})", sections.join(", "))
            }
            Request::Changelog { lang, page } => write!(f, "changelog page {page} ({lang})"),
            Request::File { path, .. } => write!(f, "file `{path}`"),
            Request::Block { component, lang, index } => write!(f, "code block {index} of `{component}` ({lang})"),
            Request::Function { path, qualified } => write!(f, "function `{qualified}` of `{path}`"),
            Request::Components { lang } => write!(f, "the component list ({lang})"),
            Request::Files { component } => write!(f, "the file list of `{component}`"),
            Request::Changes { component, from, to, .. } => {
                write!(f, "the changes of `{component}` from {from} to {to}")
            }
            Request::Tokens { query, .. } if query.is_empty() => write!(f, "the design tokens"),
            Request::Tokens { query, .. } => write!(f, "the design tokens matching `{query}`"),
            Request::TokenFor { value } => write!(f, "the design tokens of `{value}`"),
            Request::Uses { what, lang } => write!(f, "the examples using `{what}` ({lang})"),
        }
    }
}

/// The text of a component's document a [`Request::Doc`] serves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum DocForm {
    /// The placeholder view.
    #[serde(rename = "n")]
    Normal,
    /// The whole document (also the form sections are served in).
    #[serde(rename = "f")]
    Full,
    /// The component card.
    #[serde(rename = "c")]
    Card,
    /// The props tables.
    #[serde(rename = "p")]
    Props,
}

impl DocForm {
    /// What it is called in messages.
    pub fn name(self) -> &'static str {
        match self {
            DocForm::Normal => "normal document",
            DocForm::Full => "full document",
            DocForm::Card => "card",
            DocForm::Props => "props tables",
        }
    }
}

/// Where the next part of a cut response starts: the bundle set, the request, and a byte offset into the text it
/// serves. Sent as an opaque string of decimal digits (MessagePack and a checksum, [`to_digits`]): digits tokenize
/// at exactly a token per three in o200k and cl100k, so an answer's envelope bound counts its cursor exactly, where
/// base64 went up to 0.82 tokens a byte and had to be reserved at one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cursor {
    /// Hash of `system@version` of the set that served the first part ([`Cursor::set_id`]): four bytes, where the
    /// label would make every continuation call several tokens longer.
    pub set: u32,
    /// Hash of the whole text the offset points into ([`Cursor::text_id`]), so a cursor of an earlier build of the
    /// same set is refused instead of pointing into another text (0 for offset 0, which fits any text).
    pub text: u32,
    /// What is being continued.
    pub request: Request,
    /// Byte offset into the served text (for several sections: into their concatenation).
    pub offset: u32,
}

impl Cursor {
    /// The [`Cursor::set`] of the set labelled `system@version`.
    pub fn set_id(label: &str) -> u32 {
        xxhash_rust::xxh3::xxh3_64(label.as_bytes()) as u32
    }

    /// The [`Cursor::text`] of `text`: its xxh3-64, cut to 32 bits (about 10 µs for 100 KB).
    pub fn text_id(text: &str) -> u32 {
        xxhash_rust::xxh3::xxh3_64(text.as_bytes()) as u32
    }

    /// The opaque form.
    pub fn encode(&self) -> String {
        let mut bytes = rmp_serde::to_vec(self).unwrap_or_default();
        let sum = xxhash_rust::xxh3::xxh3_64(&bytes) as u32;
        bytes.extend_from_slice(&sum.to_le_bytes());
        to_digits(&bytes)
    }

    /// Parses an opaque cursor.
    ///
    /// # Errors
    /// [`BudgetError::EmptyCursor`] for an empty one; [`BudgetError::Malformed`] for anything this reader did not
    /// write (not digits of [`to_digits`], checksum, layout).
    pub fn decode(s: &str) -> Result<Cursor, BudgetError> {
        let malformed = |why: &str| BudgetError::Malformed { why: why.into() };
        if s.trim().is_empty() {
            return Err(BudgetError::EmptyCursor);
        }
        let bytes = from_digits(s.trim()).ok_or_else(|| malformed("not the digits of a cursor"))?;
        let (body, sum) =
            bytes.split_at_checked(bytes.len().saturating_sub(4)).ok_or_else(|| malformed("too short"))?;
        if sum.len() != 4 || (xxhash_rust::xxh3::xxh3_64(body) as u32).to_le_bytes() != sum {
            return Err(malformed("checksum mismatch (cut short or edited?)"));
        }
        rmp_serde::from_slice(body).map_err(|_| malformed("unknown layout"))
    }

    /// Checks that this cursor continues `request` on set `set`, in `text` (the whole text its offset points into).
    ///
    /// # Errors
    /// [`BudgetError::Mismatch`] naming what the cursor continues; [`BudgetError::Stale`] when `text` is not the
    /// text the cursor was made for (another build of the same set).
    pub fn check(&self, set: &str, request: &Request, text: &str) -> Result<(), BudgetError> {
        if self.set != Cursor::set_id(set) {
            let cursor = format!("{} of another bundle set (not {set}: rebuilt, or another version)", self.request);
            return Err(BudgetError::Mismatch { cursor, call: request.to_string() });
        }
        if &self.request != request {
            return Err(BudgetError::Mismatch { cursor: self.request.to_string(), call: request.to_string() });
        }
        if self.offset != 0 && self.text != Cursor::text_id(text) {
            return Err(BudgetError::Stale { set: set.to_string(), request: self.request.to_string() });
        }
        Ok(())
    }
}

/// Digits written for a chunk of `n` bytes (index `n`, 0–7): the fewest that hold every `n`-byte number.
const CHUNK_DIGITS: [usize; 8] = [0, 3, 5, 8, 10, 13, 15, 17];

/// `bytes` as decimal digits: each chunk of 7 bytes (big-endian) as 17 digits, a last shorter one of `n` bytes as
/// [`CHUNK_DIGITS`]`[n]`, zero-padded (2.43 digits a byte, 0.81 tokens). The length says the last chunk's size.
pub fn to_digits(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 5 / 2 + 3);
    for chunk in bytes.chunks(7) {
        let n = chunk.iter().fold(0u64, |n, &b| (n << 8) | u64::from(b));
        out.push_str(&format!("{n:0width$}", width = CHUNK_DIGITS[chunk.len()]));
    }
    out
}

/// The bytes [`to_digits`] wrote as `digits`; `None` for anything it cannot have written (a character that is not
/// a digit, a length no chunking gives, a chunk over its bytes' range).
pub fn from_digits(digits: &str) -> Option<Vec<u8>> {
    if !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let (whole, rest) = (digits.len() / 17, digits.len() % 17);
    let last = CHUNK_DIGITS.iter().position(|&d| d == rest)?;
    let mut out = Vec::with_capacity(whole * 7 + last);
    let mut at = 0;
    for n in std::iter::repeat_n(7, whole).chain((last > 0).then_some(last)) {
        let value: u64 = digits.get(at..at + CHUNK_DIGITS[n])?.parse().ok()?;
        if value >> (8 * n) != 0 {
            return None;
        }
        out.extend_from_slice(&value.to_be_bytes()[8 - n..]);
        at += CHUNK_DIGITS[n];
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursors_round_trip_and_refuse_garbage() {
        let request = Request::Changelog { lang: "zh-CN".into(), page: 3 };
        let c = Cursor {
            set: Cursor::set_id("semi@2.102.0"),
            text: Cursor::text_id("page text"),
            request: request.clone(),
            offset: 1234,
        };
        let s = c.encode();
        assert!(s.bytes().all(|b| b.is_ascii_digit()), "{s}");
        assert_eq!(Cursor::decode(&s).unwrap(), c);
        assert!(c.check("semi@2.102.0", &request, "page text").is_ok());
        let other = c.check("semi@2.101.0", &request, "page text").unwrap_err().to_string();
        assert!(
            other.contains("another bundle set (not semi@2.101.0") && other.contains("changelog page 3"),
            "{other}"
        );
        let page4 = Request::Changelog { lang: "zh-CN".into(), page: 4 };
        assert!(matches!(c.check("semi@2.102.0", &page4, "page text"), Err(BudgetError::Mismatch { .. })));
        let stale = c.check("semi@2.102.0", &request, "xypage text").unwrap_err().to_string();
        assert_eq!(
            stale,
            "this cursor is from another build of semi@2.102.0 (changelog page 3 (zh-CN); the text changed since): \
             repeat the call without cursor"
        );
        for bad in ["!!!", "abc", &s[..s.len() - 2], &format!("{s}A"), &format!("{s}0"), "99999999999999999"] {
            assert!(matches!(Cursor::decode(bad), Err(BudgetError::Malformed { .. })), "{bad}");
        }
        // An empty cursor is said to be empty, not "malformed: checksum mismatch" (a new user's trial).
        for empty in ["", "  "] {
            assert_eq!(Cursor::decode(empty), Err(BudgetError::EmptyCursor), "{empty:?}");
        }
    }

    #[test]
    fn digits_round_trip_every_length() {
        for len in 0..30usize {
            let bytes: Vec<u8> = (0..len).map(|i| (i * 97 + 255) as u8).collect();
            let digits = to_digits(&bytes);
            assert_eq!(digits.len(), len / 7 * 17 + CHUNK_DIGITS[len % 7], "{len}");
            assert_eq!(from_digits(&digits), Some(bytes), "{len}");
        }
        assert_eq!(to_digits(&[0xff; 7]), "72057594037927935");
        assert_eq!(from_digits("256"), None, "one byte holds up to 255");
        assert_eq!(from_digits("1234"), None, "no chunking writes 4 digits");
    }
}
