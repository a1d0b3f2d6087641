//! Rendering of a search's answer: the text of a [`SearchView`] and its hits' headers ([`header_text`]), the
//! echoed query, the messages it writes, and the upper bounds ([`bound`], [`json_string_bound`]) its size is fitted
//! with.

use super::Kind;
use super::query::{SearchHit, SearchView};
use crate::budget::bound;
use crate::read::LookupError;
use crate::render::{Arg, Render, Surface};

/// Longest query echoed back, in chars.
pub(super) const ECHO_CHARS: usize = 120;
/// The share of `max_tokens` the echoed query may take, by [`bound`] (a token per byte of CJK): 1/6, so that 120
/// characters of a CJK query (360 bytes) no longer outweigh a budget of 300 and leave no room for the answer.
pub(super) const ECHO_SHARE: u32 = 6;

/// The first chars of `text` (at most [`ECHO_CHARS`]) whose [`bound`] is within `max_tokens / ECHO_SHARE`.
pub(super) fn echo_within(text: &str, max_tokens: u32) -> String {
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

/// Tokens of the line a hit without its text shows instead (an upper bound, with its newline).
pub(super) const NOT_SHOWN: &str = "[text not shown: over the token budget; get it with the call above]\n";
/// Tokens allowed for each join of two pieces of an answer (a header and a text, two hits): where they meet, the
/// tokenizer may split one token more than it did in each piece alone.
pub(super) const JOIN_SLACK: u32 = 2;

/// An upper bound of the tokens of `text` (`tokens` of its own) written as a JSON string: the quotes, two tokens
/// per escaped character (`\n`, `\"`, `\\`, `\t`, `\r`) and six per other control character.
pub(super) fn json_string_bound(text: &str, tokens: u32) -> u32 {
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

/// The end of the no-hit message: the MCP tool, which the CLI's text writes as its `components` command.
pub(super) const NO_HIT_LIST: &str = "list the components with list_components";

/// The error for an answer whose bound, `view.tokens`, is over `max_tokens`: it names the budget that serves it.
/// A larger budget `B` echoes more of the query, twice at most (the query, and the corrected query a note shows),
/// each within `B / ECHO_SHARE`: `B` = 3/2 of this bound holds it.
pub(super) fn over_budget(view: &SearchView, max_tokens: u32) -> LookupError {
    let request = format!("search \"{}\"", view.query);
    let needed = view.tokens.saturating_mul(3).div_ceil(2);
    crate::budget::BudgetError::TooSmallForNames { asked: max_tokens, request, needed }.into()
}

/// `view` (an answer without hits) with its `tokens` set to the bound of its larger form.
pub(super) fn bounded(mut view: SearchView) -> SearchView {
    view.tokens = 999_999;
    let json = serde_json::to_string(&view).unwrap_or_default();
    view.tokens = bound(&view.render(Surface::Cli)).max(bound(&view.render(Surface::Mcp))).max(bound(&json));
    view
}

/// The message of an answer whose listed hits do not all show their text.
pub(super) fn texts_message(default_budget: bool) -> String {
    format!(
        "texts over the budget: see the follow-up calls{}",
        if default_budget { " or raise max_tokens" } else { "" }
    )
}

/// The message of a part whose first hit is over the budget even shortened: passed over (the cursor goes on
/// after it), with the budget `lists` that lists it, or, when that is above the operator's `cap` (which no call can
/// ask past), that no budget lists it.
pub(super) fn passed_message(hit: u32, lists: u32, cap: u32) -> String {
    if lists <= cap {
        format!("hit {hit} is over the budget: max_tokens {lists} lists it")
    } else {
        // No longer than the other form (`cap` < `lists`): the reserve measured with that one holds it.
        format!("hit {hit} is over the budget: none up to {cap} lists it")
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
        crate::view::line_span(h.start_line, h.end_line)
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

    #[test]
    fn bounds_are_above_the_bytes_they_stand_for() {
        assert_eq!(bound("abc"), 1);
        assert_eq!(bound("abcd"), 2);
        assert_eq!(bound("表格"), 6, "a token per byte of other characters");
        assert_eq!(json_string_bound("a\"b\n", 3), 3 + 2 + 2 + 4);
    }
}
