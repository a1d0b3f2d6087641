//! Upper bounds of tokens without a tokenizer ([`bound`], [`json_escapes`]) and error answers fitted to a budget
//! ([`fit_error`]: the one rule for the CLI and the server).

use super::{MIN_MAX_TOKENS, listed_within};

/// An upper bound of the tokens of `text`, without a tokenizer: a token per 3 ASCII bytes (the words, paths,
/// numbers and JSON punctuation of headers and envelopes tokenize at about 4 bytes per token in o200k and cl100k)
/// and a token per byte of other characters (a token is never shorter than a byte). Meant for the answer's own
/// lines (headers, follow-up calls, JSON keys), not for arbitrary text, whose counts are stored; the budget sweeps of
/// `tests/it/search.rs` and `tests/it/sweep.rs` check it with tiktoken on the real corpora.
pub fn bound(text: &str) -> u32 {
    let ascii = text.bytes().filter(u8::is_ascii).count() as u32;
    ascii.div_ceil(3) + (text.len() as u32 - ascii)
}

/// An upper bound of the tokens of an answer's envelope `text` (its header, footer and JSON fields with the names
/// and the cursor as printed), without a tokenizer, piece by piece as the o200k and cl100k pre-tokenizers split
/// it: a run of digits is a token per three (both encodings hold every number under 1,000: exact, so a decimal
/// cursor costs what it says); a run of ASCII letters, cut where a capital follows a small letter (o200k splits
/// there), 1 + a token per five letters, the space before it included (English words and identifiers are a
/// token or two); a run of ASCII punctuation a token per two (one piece: JSON's `":"` and `","` are a token);
/// any other ASCII byte a token; `·`, `–`, `—` and `…` a token each; a CJK character two; any other
/// character a token per byte (a token is never shorter than a byte). Checked with tiktoken on every part of the
/// fill report's lookups on the six real inputs (`tests/it/fill.rs`), where it is 1.2–2 times the true count.
pub fn envelope_bound(text: &str) -> u32 {
    let bytes = text.as_bytes();
    let (mut tokens, mut i) = (0u32, 0usize);
    while i < bytes.len() {
        let b = bytes[i];
        if b.is_ascii_digit() {
            let run = bytes[i..].iter().take_while(|b| b.is_ascii_digit()).count();
            tokens += run.div_ceil(3) as u32;
            i += run;
        } else if b.is_ascii_alphabetic() {
            // One piece: capitals, then small letters; a capital after a small letter starts the next.
            let mut end = i + 1;
            while end < bytes.len()
                && bytes[end].is_ascii_alphabetic()
                && !(bytes[end].is_ascii_uppercase() && bytes[end - 1].is_ascii_lowercase())
            {
                end += 1;
            }
            tokens += 1 + (end - i) as u32 / 5;
            i = end;
        } else if b.is_ascii_punctuation() {
            // One piece of the pre-tokenizer: JSON's `":"`, `","`, `{"` and the like are a token each.
            let run = bytes[i..].iter().take_while(|b| b.is_ascii_punctuation()).count();
            tokens += run.div_ceil(2) as u32;
            i += run;
        } else if b.is_ascii() {
            // A space merges into the word after it (counted there); any other byte is a token.
            let merges = b == b' ' && bytes.get(i + 1).is_some_and(u8::is_ascii_alphabetic);
            tokens += u32::from(!merges);
            i += 1;
        } else {
            let c = text[i..].chars().next().unwrap_or(' ');
            tokens += match c {
                '·' | '–' | '—' | '…' => 1,
                // CJK ideographs, kana, hangul and full-width forms: a token or two each in both encodings.
                '\u{3000}'..='\u{9fff}' | '\u{ac00}'..='\u{d7af}' | '\u{ff00}'..='\u{ffef}' => 2,
                c => c.len_utf8() as u32,
            };
            i += c.len_utf8();
        }
    }
    tokens
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
}
