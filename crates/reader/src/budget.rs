//! Token budgets and cursors (the reader's half of context control, after wcgw: budgets in tokens, not lines, and
//! truncation that says so). A text is served in *parts* that each fit a budget: a part ends at a cut point of the
//! text's stored [`TokenMap`] (a whole line, so its token count is the exact sum of stored counts: nothing is
//! tokenized here), and an opaque [`Cursor`] names the request and where the next part starts. Following cursors
//! to the end yields every byte of the text exactly once.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde::{Deserialize, Serialize};

use crate::line_index::LineIndex;
use crate::model::TokenMap;

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

/// Whether `c` is certainly a letter or digit of both pre-tokenizers' letter and number classes (`\p{L}`,
/// `\p{N}`): ASCII alphanumerics and the CJK, kana and Hangul blocks. (Not every `char::is_alphanumeric`: some
/// combining vowel signs are alphabetic in Rust but `\p{M}` in the regexes.)
fn plain_letter(c: char) -> bool {
    c.is_ascii_alphanumeric()
        || matches!(c, '\u{3040}'..='\u{30FF}' | '\u{3400}'..='\u{4DBF}' | '\u{4E00}'..='\u{9FFF}' | '\u{AC00}'..='\u{D7AF}')
}

/// Whether a piece of both pre-tokenizers ends before `c` when it follows a [`plain_letter`]: an ASCII space,
/// ASCII punctuation other than `'` (which may start a contraction), or common full-width and CJK punctuation.
fn breaks_word(c: char) -> bool {
    c == ' '
        || (c.is_ascii_punctuation() && c != '\'')
        || matches!(
            c,
            '，' | '。'
                | '、'
                | '；'
                | '：'
                | '？'
                | '！'
                | '（'
                | '）'
                | '「'
                | '」'
                | '『'
                | '』'
                | '《'
                | '》'
                | '【'
                | '】'
                | '…'
                | '—'
                | '“'
                | '”'
        )
}

/// Extra cut points inside `text[from..to]` (a segment of more than [`MAX_SEGMENT_TOKENS`] tokens) so that no
/// piece is longer than [`SPLIT_BYTES`]: `(exact, forced)`, ascending. Greedy: from each cut, the last piece
/// boundary of both pre-tokenizers (a [`plain_letter`] followed by a [`breaks_word`] character, or by a `'` that
/// cannot start a contraction) within
/// [`SPLIT_BYTES`] bytes, else a forced cut at the last char boundary within them.
pub fn split_segment(text: &str, from: usize, to: usize) -> (Vec<usize>, Vec<usize>) {
    let (mut exact, mut forced) = (Vec::new(), Vec::new());
    let Some(seg) = text.get(from..to) else { return (exact, forced) };
    // Piece boundaries of the segment, relative to `from`.
    let mut bounds = Vec::new();
    let mut prev: Option<char> = None;
    let mut chars = seg.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        // `'` too, unless it may start a contraction (`'s`, `'t`, `'re`, `'ve`, `'m`, `'ll`, `'d`), which o200k
        // joins to the word before it.
        let quote = c == '\''
            && chars
                .peek()
                .is_none_or(|&(_, n)| !matches!(n.to_ascii_lowercase(), 's' | 't' | 'r' | 'v' | 'm' | 'l' | 'd'));
        if prev.is_some_and(plain_letter) && (breaks_word(c) || quote) {
            bounds.push(i);
        }
        prev = Some(c);
    }
    let mut pos = 0;
    while seg.len() - pos > SPLIT_BYTES {
        let limit = pos + SPLIT_BYTES;
        let next = bounds.partition_point(|&b| b <= limit);
        match next.checked_sub(1).map(|j| bounds[j]).filter(|&b| b > pos) {
            Some(b) => {
                exact.push(from + b);
                pos = b;
            }
            None => {
                let mut at = limit;
                while !seg.is_char_boundary(at) {
                    at -= 1;
                }
                forced.push(from + at);
                pos = at;
            }
        }
    }
    (exact, forced)
}

/// Byte offsets (ascending, never 0 or `text.len()`) where both o200k_base's and cl100k_base's pre-tokenizer
/// regexes must start a new piece, so no token spans them:
///
/// - the start of a line after `\n`, unless the line is blank (`\s*[\r\n]+` takes runs of newlines and the
///   whitespace between them) or starts with `/` (o200k's punctuation piece ` ?[^\s\p{L}\p{N}]+[\r\n/]*` takes
///   the newline *and* following slashes, as in `;\n//`);
/// - inside lines longer than [`LONG_SEGMENT_BYTES`], at most one every 256 bytes: the position after a
///   letter or digit followed by an ASCII space or ASCII punctuation other than `'` (a letter or number piece ends
///   at the first character that is neither, and `'` may start a contraction such as `'s`).
pub fn cut_points(text: &str) -> Vec<usize> {
    let mut out = Vec::new();
    let mut last = 0;
    for p in crate::line_index::line_starts(text)
        .filter(|&p| p < text.len() && clean_line_start(&text[p..]))
        .chain([text.len()])
    {
        if p - last > LONG_SEGMENT_BYTES {
            out.extend(word_cuts(text, last, p));
        }
        if p < text.len() {
            out.push(p);
        }
        last = p;
    }
    out
}

/// Whether the line `line` starts with is neither blank (only whitespace, `char::is_whitespace`, as `trim` takes)
/// nor starts with `/`. Looks at the line's characters until the first that is not whitespace, which for most lines
/// is the first: finding each line's end first and trimming it was two thirds of `cut_points` (4.1 M instructions
/// of a 230 KB document, every `doc --detail full` of Semi's `table`).
fn clean_line_start(line: &str) -> bool {
    let first = line.as_bytes()[0];
    first != b'/' && line.chars().take_while(|&c| c != '\n').any(|c| !c.is_whitespace())
}

/// Cut points strictly inside `text[from..to]`, at least 256 bytes apart (see [`cut_points`]).
fn word_cuts(text: &str, from: usize, to: usize) -> Vec<usize> {
    let mut out = Vec::new();
    let mut last = from;
    let mut prev: Option<char> = None;
    for (i, c) in text[from..to].char_indices() {
        let at = from + i;
        let ends_word =
            prev.is_some_and(char::is_alphanumeric) && (c == ' ' || (c.is_ascii_punctuation() && c != '\''));
        if ends_word && at - last >= 256 && to - at >= 64 {
            out.push(at);
            last = at;
        }
        prev = Some(c);
    }
    out
}

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

/// An upper bound of the tokens of `text`, without a tokenizer: a token per 3 ASCII bytes (the words, paths,
/// numbers and JSON punctuation of headers and envelopes tokenize at about 4 bytes per token in o200k and cl100k)
/// and a token per byte of other characters (a token is never shorter than a byte). Meant for the answer's own
/// lines (headers, follow-up calls, JSON keys), not for arbitrary text, whose counts are stored; the budget sweeps of
/// `tests/it/search.rs` and `tests/it/sweep.rs` check it with tiktoken on the real corpora.
pub fn bound(text: &str) -> u32 {
    let ascii = text.bytes().filter(u8::is_ascii).count() as u32;
    ascii.div_ceil(3) + (text.len() as u32 - ascii)
}

/// Bytes JSON adds to `text` when it escapes it (`"`, `\\` and control characters: `\n` adds one, `\u0001`
/// five); an upper bound of the tokens the escaping adds.
pub fn json_escapes(text: &str) -> usize {
    // Eight bytes at a time: a word with no byte under 0x20, no `"` and no `\` (most of a Markdown text) adds
    // nothing, found with the zero-byte tests of "Bit Twiddling Hacks" (which may flag a word that has none, never
    // miss one); a flagged word is counted byte by byte from the table. Byte by byte throughout was ~6 instructions
    // a byte (0.17 M of a `doc table`, whose text is counted once).
    const ONES: u64 = u64::from_le_bytes([1; 8]);
    const HIGH: u64 = u64::from_le_bytes([0x80; 8]);
    let zero_in = |x: u64| x.wrapping_sub(ONES) & !x & HIGH != 0;
    let table = |bytes: &[u8]| bytes.iter().map(|&b| escape_bytes(b) as usize).sum::<usize>();
    let (words, rest) = text.as_bytes().as_chunks::<8>();
    let mut added = table(rest);
    for word in words {
        let w = u64::from_le_bytes(*word);
        let below_space = w.wrapping_sub(ONES * 0x20) & !w & HIGH != 0;
        if below_space || zero_in(w ^ (ONES * u64::from(b'"'))) || zero_in(w ^ (ONES * u64::from(b'\\'))) {
            added += table(word);
        }
    }
    added
}

/// Bytes JSON adds when it escapes byte `b` of a UTF-8 text ([`json_escapes`] of one byte; 0 for the bytes of a
/// multi-byte character).
pub fn escape_bytes(b: u8) -> u8 {
    ESCAPE_BYTES[b as usize]
}

/// Tokens an error answer keeps, beside its message, for what wraps it: the CLI's `error: ` and newline or
/// `{"error":""}`, the MCP tool result `{"content":[{"type":"text","text":""}],"isError":true}` (18 tokens in
/// o200k). The message itself is bounded by its bytes, JSON escapes included ([`error_bytes`]).
pub const ERROR_ENVELOPE_TOKENS: u32 = 32;

/// An upper bound of the tokens of an error message, JSON-escaped: its bytes plus what escaping adds (a token is
/// never shorter than a byte; an error echoes names and arguments, whose density nothing bounds).
pub fn error_bytes(text: &str) -> u32 {
    u32::try_from(text.len() + json_escapes(text)).unwrap_or(u32::MAX)
}

/// A list of names written inside an error message (`items` joined by `sep`), which [`fit_error`] may shorten,
/// and where the whole list is (`all`: the call that lists them, in the form of the surface reading the message).
#[derive(Debug, Clone)]
pub struct Listing<'a> {
    /// The names, as the message writes them.
    pub items: &'a [String],
    /// What the message writes between two names.
    pub sep: &'static str,
    /// The call that lists them all, as the reader's surface spells it (`render::Surface::hint`); empty when the
    /// message names it already.
    pub all: String,
}

/// `message` made to fit an error answer of `max_tokens` (the call's budget, or the cap; [`ERROR_ENVELOPE_TOKENS`]
/// kept for the wrapper): unchanged when its [`error_bytes`] fit. Else, when it writes the names of `listing`, as
/// many of them as fit are kept in order and the rest replaced by `… N more (max_tokens M lists them; <all>)`: the N left out, not the whole list when the names are its first few;
/// failing that, the message is cut in the middle (its end says what to do), where it names the `max_tokens`
/// that shows it whole. The one rule
/// of the CLI (stderr and `--json`) and the MCP server (`isError` results). Its notes name the budget as MCP's
/// argument `max_tokens`; [`fit_error_as`] names it as the reader's surface spells it.
pub fn fit_error(message: &str, listing: Option<&Listing>, max_tokens: u32) -> String {
    fit_error_as(message, listing, max_tokens, "max_tokens")
}

/// [`fit_error`] with its notes naming the budget `budget_arg` (`max_tokens`, or the CLI's `--max-tokens`).
pub fn fit_error_as(message: &str, listing: Option<&Listing>, max_tokens: u32, budget_arg: &str) -> String {
    let room = max_tokens.max(MIN_MAX_TOKENS).saturating_sub(ERROR_ENVELOPE_TOKENS);
    let full = error_bytes(message);
    if full <= room {
        return message.to_string();
    }
    let whole = full.saturating_add(ERROR_ENVELOPE_TOKENS);
    if let Some(l) = listing.filter(|l| !l.items.is_empty()) {
        let joined = l.items.join(l.sep);
        if let Some(at) = message.find(&joined) {
            let (before, after) = (&message[..at], &message[at + joined.len()..]);
            // The count written is at most `items.len()`: its digits bound the note's bytes. The call that lists
            // them all gives way when it would leave no name (the nearest is the one worth showing).
            for with_call in [true, false] {
                let note = |n: usize| match with_call {
                    true => format!("… {n} more ({budget_arg} {whole} lists them; {})", l.all),
                    false => format!("… {n} more ({budget_arg} {whole} lists them)"),
                };
                let fixed = error_bytes(before) + error_bytes(after) + error_bytes(&note(l.items.len()));
                let sep = error_bytes(l.sep);
                let (kept, _) = listed_within(l.items.iter().map(|i| error_bytes(i) + sep), room.saturating_sub(fixed));
                if (kept == 0 || l.all.is_empty()) && with_call {
                    continue;
                }
                let mut out = String::with_capacity(room as usize);
                out.push_str(before);
                for item in &l.items[..kept] {
                    out.push_str(item);
                    out.push_str(l.sep);
                }
                out.push_str(&note(l.items.len() - kept));
                out.push_str(after);
                if error_bytes(&out) <= room {
                    return out;
                }
            }
        }
    }
    // Cut in the middle: a message's end is what to do (the budget to ask for, the names it suggests).
    let note = format!(" … (cut to fit {budget_arg} {max_tokens}; {budget_arg} {whole} shows the whole message) … ");
    let left = room.saturating_sub(error_bytes(&note));
    let head = left - left / 2;
    let chars_within = |chars: &mut dyn Iterator<Item = char>, mut room: u32| {
        let mut bytes = 0;
        for c in chars {
            let b = error_bytes(c.encode_utf8(&mut [0u8; 4]));
            if b > room {
                break;
            }
            room -= b;
            bytes += c.len_utf8();
        }
        bytes
    };
    let end = chars_within(&mut message.chars(), head);
    let tail = chars_within(&mut message[end..].chars().rev(), left - head);
    format!("{}{note}{}", &message[..end], &message[message.len() - tail..])
}

/// What JSON's escaping adds to each byte, for [`json_escapes`].
static ESCAPE_BYTES: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 0x20 {
        table[b] = 5;
        b += 1;
    }
    let mut short = [b'"', b'\\', b'\n', b'\r', b'\t', 0x08, 0x0c].as_slice();
    while let [first, rest @ ..] = short {
        table[*first as usize] = 1;
        short = rest;
    }
    table
};

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
    /// the view that serves the call knows its names.
    pub echo: u32,
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
                Ok(Budget { max_tokens: asked.min(cap), lowered: asked < cap, echo: 0 })
            }
            None => Ok(Budget { max_tokens: cap.max(MIN_MAX_TOKENS), lowered: false, echo: 0 }),
        }
    }

    /// Tokens left for stored text once the envelope and the echoed names are reserved.
    pub fn content(self) -> u32 {
        self.max_tokens.saturating_sub(ENVELOPE_TOKENS).saturating_sub(self.echo)
    }

    /// This budget with `echo` tokens reserved for the echoed names ([`echo_tokens`]). What is left may not hold
    /// the first stored segment: the view then answers [`BudgetError::TooSmallForNames`] rather than go over.
    pub fn echoing(self, echo: u32) -> Budget {
        Budget { echo, ..self }
    }
}

impl Default for Budget {
    fn default() -> Self {
        Budget { max_tokens: DEFAULT_MAX_TOKENS, lowered: false, echo: 0 }
    }
}

/// Where the segments of a [`TokenMap`] end, with cumulative counts: `ends[i]` is the byte offset where segment `i`
/// ends, `cum[i]` the tokens of segments `0..=i`.
pub struct Cuts {
    ends: Vec<usize>,
    /// Cumulative counts, with one token of slack added at each forced cut.
    cum: Vec<u64>,
    /// The forced cuts (ascending): a count over a range that reaches past one is an upper bound.
    forced: Vec<usize>,
    /// The text's lines, for line numbers in O(log n).
    lines: LineIndex,
}

impl Cuts {
    /// The segments of `text` ([`cut_points`]) with their counts from `map`; `None` when the map does not have
    /// one count per segment (a bundle built with another cut rule, or damaged).
    /// The map's `extra` and `forced` cut points must be char boundaries strictly inside the text.
    pub fn new(text: &str, map: &TokenMap) -> Option<Cuts> {
        let inside = |o: &u32| (*o as usize) > 0 && (*o as usize) < text.len() && text.is_char_boundary(*o as usize);
        if !map.extra.iter().all(inside) || !map.forced.iter().all(inside) {
            return None;
        }
        let forced: Vec<usize> = map.forced.iter().map(|&o| o as usize).collect();
        // The cut points (ascending) merged with the map's own (sorted here; few): collecting all into one vector
        // and sorting it cost half of a whole-document `Cuts::new`.
        let points = cut_points(text);
        let mut more: Vec<usize> = map.extra.iter().map(|&o| o as usize).chain(forced.iter().copied()).collect();
        more.sort_unstable();
        let mut ends = Vec::with_capacity(points.len() + more.len() + 1);
        let (mut a, mut b) = (points.iter().peekable(), more.iter().peekable());
        while let Some(&next) = match (a.peek(), b.peek()) {
            (Some(x), Some(y)) if y < x => b.next(),
            (Some(_), _) => a.next(),
            (None, _) => b.next(),
        } {
            ends.push(next);
        }
        ends.push(text.len());
        ends.retain(|&e| e > 0);
        let before = ends.len();
        ends.dedup();
        if ends.len() != before || ends.len() != map.tokens.len() || !forced.is_sorted() {
            return None;
        }
        let mut total = 0u64;
        let mut cum = Vec::with_capacity(ends.len());
        for (end, t) in ends.iter().zip(&map.tokens) {
            total += u64::from(*t) + u64::from(forced.binary_search(end).is_ok());
            cum.push(total);
        }
        Some(Cuts { ends, cum, forced, lines: LineIndex::new(text) })
    }

    /// Byte offset where 1-based `line` starts; the text's end for lines past the last (so `line_start(n + 1)`
    /// ends line `n`, newline included).
    pub fn line_start(&self, line: u32) -> usize {
        self.lines.start(line)
    }

    /// The 1-based line of byte `at` (lines counted as `split('\n')`).
    pub fn line_at(&self, at: usize) -> u32 {
        self.lines.line_of(at)
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
        // A forced cut in (start, end]: its slack is in the count, which is then an upper bound.
        let crosses_forced = self.forced.get(self.forced.partition_point(|&f| f <= start)).is_some_and(|&f| f <= end);
        (u32::try_from(b.saturating_sub(a)).unwrap_or(u32::MAX), exact_a && exact_b && !crosses_forced)
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

/// A fenced block of the served text, so a part never ends inside one silently: byte span and what to write when
/// a part closes or reopens it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fence {
    /// Block number in its document.
    pub index: u32,
    /// Byte range of the block (opening fence line to the end of the closing fence).
    pub start: usize,
    /// End of the closing fence (exclusive).
    pub end: usize,
}

/// One part of a text served under a budget.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Part {
    /// The text served: exact bytes of the stored text, the parts of several ranges joined.
    #[serde(skip)]
    pub text: String,
    /// Tokens of `text` (exact unless `tokens_exact` is false: see [`Cuts::tokens`]); `served_tokens` in JSON,
    /// beside the `tokens` of the whole block or function for those lookups.
    #[serde(rename = "served_tokens")]
    pub tokens: u32,
    /// Whether `tokens` is exact: false only for line ranges that start or end inside a segment.
    pub tokens_exact: bool,
    /// First and last line served, 1-based, in the text the lines belong to (the document, its placeholder view,
    /// the file, the changelog file).
    #[serde(rename = "served_lines")]
    pub lines: (u32, u32),
    /// What was left out, when the part was cut.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cut: Option<Rest>,
    /// The block the part ends inside (its fence is closed in the text form and reopened by the next part).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ends_in_block: Option<u32>,
    /// The block the part starts inside (continued from the previous part).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub starts_in_block: Option<u32>,
    /// Offset the next part starts at, in the joined ranges (for the cursor).
    #[serde(skip)]
    pub next_offset: Option<u32>,
    /// The opening fence line of the block the part starts inside, to reopen it in the text form.
    #[serde(skip)]
    pub reopen: Option<String>,
    /// The fence that closes the block the part ends inside, for the text form.
    #[serde(skip)]
    pub close: Option<String>,
    /// The call's own `max_tokens`, which the continuation call repeats.
    #[serde(skip)]
    pub max_tokens: Option<u32>,
    /// Lines of the text the part belongs to (the document, its placeholder view, the file, the page).
    pub text_lines: u32,
    /// Where the part starts in the joined ranges, in bytes: 0 for a first part.
    #[serde(skip)]
    pub offset: u32,
}

/// The opening fence line of `fence` in `text`, and the fence run that closes it (` ``` `, `~~~~`), without the
/// container prefix (indentation, `>`, list markers).
fn fence_lines(text: &str, fence: &Fence) -> (String, String) {
    let first = text.get(fence.start..fence.end).and_then(|t| t.split('\n').next()).unwrap_or("");
    let first = first.trim_end_matches('\r');
    let body = first.trim_start_matches(|c: char| !matches!(c, '`' | '~'));
    let run: String = body.chars().take_while(|&c| c == body.chars().next().unwrap_or('`')).collect();
    (body.to_string(), if run.is_empty() { "```".into() } else { run })
}

/// What a cut part left for later parts.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Rest {
    /// Tokens not served yet.
    pub tokens: u32,
    /// Lines not served yet.
    pub lines: u32,
}

/// Serves `ranges` of `text` (byte ranges, in order, joined) from `offset` (into the joined ranges) within `budget`
/// tokens of content: the longest run of whole segments that fits, at least one segment. A part that would end
/// inside a fence ends before the fence instead when `whole` says a part of the call's budget serves that fence
/// whole; otherwise, and when the fence starts the part, it ends inside (and says so): ending before a block that
/// the next part cuts anyway only spends a call (Semi's `table --section 基本表格` served 46 tokens at 400–1,200).
/// Never panics: ranges are clamped to the text and to char boundaries the map cuts at.
pub fn serve(
    text: &str,
    cuts: &Cuts,
    ranges: &[(usize, usize)],
    offset: u32,
    budget: u32,
    fences: &[Fence],
    whole: &dyn Fn(&Fence) -> bool,
) -> Part {
    let ranges = clamp_ranges(text, ranges);
    let line_at = |at: usize| cuts.line_at(at);
    let mut part = Part { tokens_exact: true, text_lines: line_at(text.len()), offset, ..Part::default() };
    // Where `offset` falls: nothing is served from inside a character.
    let Some((mut i, mut cur)) = locate(&ranges, offset).filter(|&(_, at)| text.is_char_boundary(at)) else {
        return part;
    };
    if let Some(f) = fences.iter().find(|f| f.start < cur && cur < f.end) {
        part.starts_in_block = Some(f.index);
        part.reopen = Some(fence_lines(text, f).0);
    }
    part.lines.0 = line_at(cur);
    let mut left = budget;
    let mut served = offset as usize;
    let mut first_piece = true;
    while let Some(&(_, end)) = ranges.get(i) {
        let mut stop = cuts.fit(cur, end, left);
        let (t, _) = cuts.tokens(cur, stop);
        if !first_piece && t > left {
            stop = cur; // the next range does not fit at all
        }
        if stop < end && stop > cur {
            // Not inside a fence that a part can serve whole, unless the fence began before this part's own start.
            if let Some(f) = fences.iter().find(|f| f.start < stop && stop < f.end)
                && f.start > cur
                && cuts.is_cut(f.start)
                && whole(f)
            {
                stop = f.start;
            }
        }
        if stop > cur {
            let Some(piece) = text.get(cur..stop) else {
                return part; // unreachable: ranges and cut points are char boundaries of `text`
            };
            let (tokens, exact) = cuts.tokens(cur, stop);
            part.text.push_str(piece);
            part.tokens += tokens;
            part.tokens_exact &= exact;
            part.lines.1 = line_at(stop.saturating_sub(1).max(cur));
            left = left.saturating_sub(tokens);
            served += stop - cur;
        }
        first_piece = false;
        if stop < end {
            if let Some(f) = fences.iter().find(|f| f.start < stop && stop < f.end) {
                part.ends_in_block = Some(f.index);
                part.close = Some(fence_lines(text, f).1);
            }
            let mut rest = Rest { tokens: cuts.tokens(stop, end).0, lines: line_at(end - 1) - line_at(stop) + 1 };
            for &(a, b) in &ranges[i + 1..] {
                rest.tokens += cuts.tokens(a, b).0;
                rest.lines += line_at(b.saturating_sub(1).max(a)) - line_at(a) + 1;
            }
            part.cut = Some(rest);
            part.next_offset = Some(served as u32);
            return part;
        }
        i += 1;
        if let Some(&(next, _)) = ranges.get(i) {
            cur = next;
        }
    }
    part
}

/// `ranges` clamped to `text` and to its char boundaries (rounded down), empty ones dropped.
fn clamp_ranges(text: &str, ranges: &[(usize, usize)]) -> Vec<(usize, usize)> {
    let floor = |mut i: usize| {
        i = i.min(text.len());
        while !text.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    ranges.iter().map(|&(a, b)| (floor(a), floor(b))).filter(|(a, b)| a < b).collect()
}

/// Where `offset` (into the joined `ranges`) falls: the range's index and the byte offset in the text; `None` past
/// the end.
fn locate(ranges: &[(usize, usize)], offset: u32) -> Option<(usize, usize)> {
    let mut skip = offset as usize;
    for (i, &(a, b)) in ranges.iter().enumerate() {
        if skip < b - a {
            return Some((i, a + skip));
        }
        skip -= b - a;
    }
    None
}

/// Whether `offset` (into the joined `ranges` of `text`) is where a part can start: inside the ranges, on a char
/// boundary, and at a cut point or the start of a range. Cursors this reader wrote always are; anything else
/// (an edited cursor with a recomputed checksum) is refused before serving.
pub fn valid_offset(text: &str, cuts: &Cuts, ranges: &[(usize, usize)], offset: u32) -> bool {
    let ranges = clamp_ranges(text, ranges);
    locate(&ranges, offset).is_some_and(|(i, at)| {
        text.is_char_boundary(at) && (cuts.is_cut(at) || ranges.get(i).is_some_and(|r| r.0 == at))
    })
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
        /// Which text of the document.
        form: DocForm,
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
    /// `list_components`: rows of the list in a language.
    Components {
        /// Language of the sizes.
        lang: String,
    },
    /// `list_components` with a component: rows of its file list.
    Files {
        /// Component name.
        component: String,
    },
    /// `get_function_code`.
    Function {
        /// Repository-relative path.
        path: String,
        /// Qualified name.
        qualified: String,
    },
    /// `component_changes` / `diff` / `changelog --component --since`: rows of a comparison.
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
        }
    }
}

/// The text of a component's document a [`Request::Doc`] serves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum DocForm {
    /// The placeholder view.
    Normal,
    /// The whole document (also the form sections are served in).
    Full,
    /// The component card.
    Card,
    /// The props tables.
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
/// serves. Sent as an opaque string (MessagePack, a checksum, URL-safe base64).
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
        URL_SAFE_NO_PAD.encode(bytes)
    }

    /// Parses an opaque cursor.
    ///
    /// # Errors
    /// [`BudgetError::EmptyCursor`] for an empty one; [`BudgetError::Malformed`] for anything this reader did not
    /// write (bad base64, checksum, layout).
    pub fn decode(s: &str) -> Result<Cursor, BudgetError> {
        let malformed = |why: &str| BudgetError::Malformed { why: why.into() };
        if s.trim().is_empty() {
            return Err(BudgetError::EmptyCursor);
        }
        let bytes = URL_SAFE_NO_PAD.decode(s.trim()).map_err(|_| malformed("not base64url"))?;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_keeps_its_budget_cutting_its_list_by_name() {
        let items: Vec<String> = (1..=100).map(|i| format!("name{i:03}")).collect();
        let message = format!("no `x`; did you mean: {}?", items.join(", "));
        assert_eq!(fit_error(&message, None, 2000), message, "fits whole: unchanged");
        let all = "`list`".to_string();
        let listing = Listing { items: &items, sep: ", ", all };
        let cut = fit_error(&message, Some(&listing), 300);
        // 268 bytes of message: the lead (22), the note for 100 (52), the `?`, and 21 names of 9 bytes with `, `.
        assert_eq!(error_bytes(&message) + ERROR_ENVELOPE_TOKENS, 953);
        assert!(cut.starts_with("no `x`; did you mean: name001, name002, "), "{cut}");
        assert!(cut.ends_with("name021, … 79 more (max_tokens 953 lists them; `list`)?"), "{cut}");
        assert!(error_bytes(&cut) <= 300 - ERROR_ENVELOPE_TOKENS, "{}", error_bytes(&cut));
        // The budget named serves it whole.
        assert_eq!(fit_error(&message, Some(&listing), 953), message);
        // No list to cut (or not found in the message): cut in the middle, keeping its end (what to do).
        let long = format!("\"é\" {}; ask for max_tokens 2000", "word ".repeat(200));
        let cut = fit_error(&long, None, 300);
        assert!(cut.starts_with("\"é\" word word"), "{cut}");
        assert!(cut.contains(" … (cut to fit max_tokens 300; max_tokens 1064 shows the whole message) … "), "{cut}");
        assert!(cut.ends_with("word word ; ask for max_tokens 2000"), "{cut}");
        assert!(error_bytes(&cut) <= 268 && error_bytes(&cut) > 260, "{}", error_bytes(&cut));
    }

    #[test]
    fn a_clean_line_start_is_a_line_that_trims_to_something() {
        let lines = [
            "a",
            " a",
            "\t\t",
            "   \n  x",
            "\r\n",
            "\r",
            "\u{3000}\u{3000}",
            "\u{3000}表",
            "\u{a0}\n",
            "\u{85}x",
            "/x",
            " /x",
            "\u{feff}",
            "\u{200b}",
            "  \u{2028}  \nz",
            "é",
            "\n",
        ];
        for line in lines {
            let trimmed = line.as_bytes()[0] != b'/' && line.split('\n').next().is_some_and(|l| !l.trim().is_empty());
            assert_eq!(clean_line_start(line), trimmed, "{line:?}");
        }
        // Cut points of lines like those, and a map's cut points out of order: as before, sorted and deduplicated.
        let text = lines.join("\n");
        let ends: Vec<usize> = cut_points(&text);
        assert!(ends.is_sorted() && ends.windows(2).all(|w| w[0] < w[1]), "{ends:?}");
        let extra: Vec<u32> = vec![3, 1];
        let mut all: Vec<usize> = ends.iter().copied().chain([1, 3, text.len()]).collect();
        all.sort_unstable();
        all.dedup();
        let map = TokenMap { tokens: vec![1; all.len()], extra, forced: vec![] };
        let cuts = Cuts::new(&text, &map).expect("the map fits");
        assert_eq!(cuts.ends, all);
        assert_eq!(cuts.tokens(0, text.len()), (all.len() as u32, true));
    }

    #[test]
    fn json_escapes_is_what_serde_json_adds() {
        for c in (0u8..0x80).map(char::from).chain(['é', '表', '😀']) {
            let text = format!("a{c}b");
            let added = serde_json::to_string(&text).unwrap().len() - text.len() - 2;
            assert_eq!(json_escapes(&text), added, "{c:?}");
        }
        assert_eq!(json_escapes("say \"hi\"\n\u{1}"), 1 + 1 + 1 + 5);
        // Counted eight bytes at a time: every byte at every place of a word, beside multi-byte characters.
        for c in (0u8..0x80).map(char::from).chain(['é', '表', '😀']) {
            for at in 0..17 {
                let text = format!("{}{c}{}表", "x".repeat(at), "y".repeat(16 - at));
                let added = serde_json::to_string(&text).unwrap().len() - text.len() - 2;
                assert_eq!(json_escapes(&text), added, "{c:?} at {at}");
            }
        }
    }

    /// A text of lines of the given byte lengths (newline included), with the given token counts.
    fn text_of(segments: &[(usize, u32)]) -> (String, TokenMap) {
        let text = segments.iter().map(|&(len, _)| format!("{}\n", "x".repeat(len - 1))).collect();
        (text, TokenMap { tokens: segments.iter().map(|s| s.1).collect(), ..TokenMap::default() })
    }

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

    #[test]
    fn fit_ends_on_cut_points_within_budget() {
        // Segments of 10, 20, 30 bytes with 5, 7, 9 tokens: ends 10, 30, 60; cumulative 5, 12, 21.
        let (text, map) = text_of(&[(10, 5), (20, 7), (30, 9)]);
        let cuts = Cuts::new(&text, &map).unwrap();
        assert!(
            Cuts::new(&text, &TokenMap { tokens: vec![5, 7], ..TokenMap::default() }).is_none(),
            "one count per segment"
        );
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
        assert_eq!((cuts.line_start(1), cuts.line_start(2), cuts.line_start(3), cuts.line_start(4)), (0, 10, 30, 60));
        assert_eq!((cuts.line_at(0), cuts.line_at(10), cuts.line_at(59)), (1, 2, 3));
    }

    /// A text of one-token lines `L1\n` … with a fence over lines 4–6.
    fn lines(n: usize) -> (String, Cuts) {
        let text: String = (1..=n).map(|i| format!("L{i}\n")).collect();
        let map = TokenMap { tokens: vec![1; n], ..TokenMap::default() };
        let cuts = Cuts::new(&text, &map).unwrap();
        (text, cuts)
    }

    #[test]
    fn parts_rejoin_the_text_exactly() {
        let (text, cuts) = lines(12);
        let fences = [Fence { index: 1, start: text.find("L4").unwrap(), end: text.find("L7").unwrap() - 1 }];
        let mut joined = String::new();
        let mut offset = 0;
        let mut parts = Vec::new();
        loop {
            let part = serve(&text, &cuts, &[(0, text.len())], offset, 4, &fences, &|_| true);
            joined.push_str(&part.text);
            parts.push(part.clone());
            match part.next_offset {
                Some(next) => offset = next,
                None => break,
            }
        }
        assert_eq!(joined, text);
        // L1–L3 (the fence starting at L4 would not fit whole), L4–L7, L8–L11, L12.
        let spans: Vec<(u32, u32)> = parts.iter().map(|p| p.lines).collect();
        assert_eq!(spans, vec![(1, 3), (4, 7), (8, 11), (12, 12)]);
        assert_eq!(parts[0].cut, Some(Rest { tokens: 9, lines: 9 }));
        assert_eq!(parts[0].ends_in_block, None, "cut before the fence, not inside");
        assert!(parts.iter().all(|p| p.tokens <= 4));
    }

    #[test]
    fn a_part_fills_into_a_fence_no_part_serves_whole() {
        let (text, cuts) = lines(12);
        let fences = [Fence { index: 1, start: text.find("L4").unwrap(), end: text.find("L7").unwrap() - 1 }];
        let first = serve(&text, &cuts, &[(0, text.len())], 0, 4, &fences, &|_| false);
        assert_eq!((first.text.as_str(), first.ends_in_block), ("L1\nL2\nL3\nL4\n", Some(1)));
        let second = serve(&text, &cuts, &[(0, text.len())], first.next_offset.unwrap(), 4, &fences, &|_| false);
        assert_eq!((second.lines, second.starts_in_block), ((5, 8), Some(1)));
    }

    #[test]
    fn a_fence_longer_than_the_budget_is_cut_and_marked() {
        let (text, cuts) = lines(12);
        let fences = [Fence { index: 2, start: 0, end: text.find("L9").unwrap() - 1 }];
        let first = serve(&text, &cuts, &[(0, text.len())], 0, 3, &fences, &|_| true);
        assert_eq!(first.text, "L1\nL2\nL3\n");
        assert_eq!(first.ends_in_block, Some(2));
        let second = serve(&text, &cuts, &[(0, text.len())], first.next_offset.unwrap(), 3, &fences, &|_| true);
        assert_eq!(second.starts_in_block, Some(2));
        assert_eq!(
            (first.close.as_deref(), second.reopen.as_deref()),
            (Some("```"), Some("")),
            "no fence line: a bare one"
        );
        assert_eq!(second.lines, (4, 6));
    }

    #[test]
    fn several_ranges_are_joined() {
        let (text, cuts) = lines(10);
        let a = (text.find("L2").unwrap(), text.find("L4").unwrap());
        let b = (text.find("L7").unwrap(), text.find("L9").unwrap());
        let whole = serve(&text, &cuts, &[a, b], 0, 100, &[], &|_| true);
        assert_eq!(whole.text, "L2\nL3\nL7\nL8\n");
        assert_eq!((whole.tokens, whole.cut.clone(), whole.next_offset), (4, None, None));
        let first = serve(&text, &cuts, &[a, b], 0, 3, &[], &|_| true);
        assert_eq!(first.text, "L2\nL3\nL7\n");
        assert_eq!(first.cut, Some(Rest { tokens: 1, lines: 1 }));
        let rest = serve(&text, &cuts, &[a, b], first.next_offset.unwrap(), 3, &[], &|_| true);
        assert_eq!(rest.text, "L8\n");
        assert_eq!(
            serve(&text, &cuts, &[a, b], 99, 3, &[], &|_| true).text,
            "",
            "an offset past the end serves nothing"
        );
    }

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
        assert!(s.chars().all(|ch| ch.is_ascii_alphanumeric() || ch == '-' || ch == '_'), "{s}");
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
        for bad in ["!!!", "abc", &s[..s.len() - 2], &format!("{s}A")] {
            assert!(matches!(Cursor::decode(bad), Err(BudgetError::Malformed { .. })), "{bad}");
        }
        // An empty cursor is said to be empty, not "malformed: checksum mismatch" (a new user's trial).
        for empty in ["", "  "] {
            assert_eq!(Cursor::decode(empty), Err(BudgetError::EmptyCursor), "{empty:?}");
        }
    }
}
