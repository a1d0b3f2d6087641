//! Fitting an answer's content to what its envelope really prints ([`fitted`]): the reserve beside the content is
//! measured on the answer as rendered (its header, footer and JSON fields, names and cursor included), not a fixed
//! worst case per part and per name.

use crate::budget::{Budget, BudgetError, envelope_bound};
use crate::read::{LookupError, Paging};

use super::{Render, Surface};

/// The reserve the first try keeps (tokens): a continuation part's envelope on MCP (its header and the short line
/// with the cursor) is about this size, so a chain's later parts are served in one try.
const FIRST_RESERVE: u32 = 96;

/// Tokens a first part's envelope leaves its chain beside the room of one stored segment (see [`fitted`]).
const CHAIN_HEADROOM: u32 = 24;

/// Tries before the fixed reserve ([`crate::budget::ENVELOPE_TOKENS`] and the names' bytes) is used instead: each
/// try raises the reserve to the envelope measured, which only changes with the part's numbers and cursor.
const TRIES: usize = 6;

/// The forms an answer is read in, whose envelopes [`fitted`] measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Forms {
    /// An MCP tool result: the text item and the `structuredContent` (compact JSON).
    Mcp,
    /// The CLI's text (its commands are longer: a person pastes them).
    Cli,
    /// The CLI's `--json`: the compact JSON alone.
    Json,
}

/// The answer of `call` under `budget`, continuing `cursor`, with the most content whose envelope fits beside it in
/// each of the `forms` it is read in: `call` is made with a measured budget
/// ([`Budget::measured`]) reserving [`FIRST_RESERVE`] tokens, then the envelope the answer printed, bounded by
/// [`envelope_bound`], until what it printed fits what was reserved. A view that says neither its content nor its
/// rows ([`Render::content`], [`Render::rows_text`]), or whose envelope finds no room, is served under the fixed
/// reserve, as before; when that refuses it for its names (a long system name, version, path or `--bundles`
/// directory), it is served *terse* ([`Render::shorten`]: the set, the part's lines and tokens, the cursor alone),
/// so that every lookup answers at the smallest budget whatever its names.
///
/// # Errors
/// `call`'s errors (those of the fixed reserve when the measured ones found no room).
pub fn fitted<V: Render>(
    budget: Budget,
    cursor: Option<&str>,
    forms: Forms,
    call: impl Fn(Paging) -> Result<V, LookupError>,
) -> Result<V, LookupError> {
    let fixed = || call(Paging { budget, cursor });
    if !V::MEASURED || budget.max_tokens == u32::MAX {
        return fixed();
    }
    let refused = |e: &LookupError| matches!(e, LookupError::Budget(BudgetError::TooSmallForNames { .. }));
    match fit(budget, cursor, forms, &call, false)? {
        Fit::Fits(view) => return Ok(view),
        // Served under the fixed reserve while it answers (a props view's envelope is measured only terse; a
        // first part that would leave its chain too little room is served whole there, or refused).
        Fit::Unmeasured | Fit::NoRoom => match fixed() {
            Err(e) if refused(&e) => {}
            answer => return answer,
        },
    }
    // Refused for its names: served terse, which holds at the smallest budget whatever they are.
    match fit(budget, cursor, forms, &call, true)? {
        Fit::Fits(view) => Ok(view),
        _ => fixed(),
    }
}

/// What [`fit`] found.
enum Fit<V> {
    /// The view, whose envelope fits beside its content.
    Fits(V),
    /// The view says neither its content nor its rows.
    Unmeasured,
    /// No reserve the tries reached held the envelope.
    NoRoom,
}

/// [`fitted`]'s tries, the answer served terse when `terse`.
fn fit<V: Render>(
    budget: Budget,
    cursor: Option<&str>,
    forms: Forms,
    call: &dyn Fn(Paging) -> Result<V, LookupError>,
    terse: bool,
) -> Result<Fit<V>, LookupError> {
    let mut reserve = FIRST_RESERVE;
    for _ in 0..TRIES {
        let measured = budget.measured(reserve);
        if measured.content() == 0 {
            break;
        }
        let mut view = match call(Paging { budget: measured, cursor }) {
            Ok(view) => view,
            Err(LookupError::Budget(BudgetError::TooSmallForNames { .. })) => break,
            Err(e) => return Err(e),
        };
        if terse {
            view.shorten();
        }
        let Some(printed) = envelope_tokens(&view, forms) else { return Ok(Fit::Unmeasured) };
        // Never past the room of one stored segment: a view that lists things beside its text (props rows, a
        // skeleton's functions) lists fewer when the room is short, and its envelope shrinks with them.
        let most = budget.max_tokens.saturating_sub(crate::budget::MAX_SEGMENT_TOKENS);
        // A first part that leaves its chain less than `CHAIN_HEADROOM` of that room is served under the fixed
        // reserve instead (whole, or refused naming the budget that serves it): a later part's envelope is a little
        // longer (the block it starts in, larger numbers), and a chain must not stop at a cursor it cannot follow.
        if cursor.is_none() && printed.saturating_add(CHAIN_HEADROOM) > most {
            break;
        }
        if printed <= reserve {
            return Ok(Fit::Fits(view));
        }
        if reserve >= most {
            break;
        }
        reserve = printed.min(most);
    }
    Ok(Fit::NoRoom)
}

/// The largest [`envelope_bound`] of `view`'s envelope over `forms`: a rendered text less its content (or its
/// rows), the structured form's bound less its content's JSON string (or with its rows' list empty). `None` when
/// the view names neither.
fn envelope_tokens<V: Render>(view: &V, forms: Forms) -> Option<u32> {
    let (content, rows) = match (view.content(), view.rows_text()) {
        (Some(c), _) => (c.to_string(), false),
        (None, Some(r)) => (r, true),
        (None, None) => return None,
    };
    let text = |s: Surface| envelope_bound(&without(&view.render(s), &content, true));
    let json = || {
        let mut value = view.structured();
        if rows && let serde_json::Value::Object(fields) = &mut value {
            // A list's rows are the one array of its structured form; their tokens were stored.
            for v in fields.values_mut().filter(|v| v.is_array()) {
                *v = serde_json::Value::Array(Vec::new());
            }
        }
        json_bound(&value, if rows { "" } else { &content })
    };
    Some(match forms {
        Forms::Mcp => text(Surface::Mcp).max(json()),
        Forms::Cli => text(Surface::Cli),
        Forms::Json => json(),
    })
}

/// An upper bound of the tokens of `value` as compact JSON, less `content` (a string equal to it counts its quotes
/// only): the structure by its punctuation (a token per bracket, comma and key's `"…":`), each key a token per
/// `_`-separated word (the views' own keys are English words), each string value by [`envelope_bound`] of its JSON
/// escape (names, paths and titles as printed), each number a token per three digits. Tighter than the bound of
/// the JSON text, which counts a key's quotes and underscores as tokens of their own.
fn json_bound(value: &serde_json::Value, content: &str) -> u32 {
    use serde_json::Value;
    match value {
        Value::Null | Value::Bool(_) => 1,
        Value::Number(n) => envelope_bound(&n.to_string()),
        Value::String(s) if s == content => 2,
        Value::String(s) => 2 + serde_json::to_string(s).map_or(u32::MAX / 4, |e| envelope_bound(&e[1..e.len() - 1])),
        Value::Array(items) => 1 + items.iter().map(|v| 1 + json_bound(v, content)).sum::<u32>(),
        Value::Object(fields) => {
            let key = |k: &str| 2 + k.split('_').filter(|w| !w.is_empty()).map(envelope_bound).sum::<u32>();
            1 + fields.iter().map(|(k, v)| key(k) + json_bound(v, content)).sum::<u32>()
        }
    }
}

/// `rendered` without the first occurrence of `content` (after the header line when `after_header`: a text form
/// starts with its bracketed header, and the content follows it).
fn without(rendered: &str, content: &str, after_header: bool) -> String {
    let from = if after_header { rendered.find('\n').map_or(0, |i| i + 1) } else { 0 };
    match rendered[from..].find(content).filter(|_| !content.is_empty()) {
        Some(at) => format!("{}{}", &rendered[..from + at], &rendered[from + at + content.len()..]),
        None => rendered.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_content_is_taken_out_after_the_header() {
        assert_eq!(without("[a · b]\nb\n[cut]", "b\n", true), "[a · b]\n[cut]");
        assert_eq!(without("{\"x\":\"b\",\"text\":\"b\\n\"}", "b\\n", false), "{\"x\":\"b\",\"text\":\"\"}");
        assert_eq!(without("[h]\n", "", true), "[h]\n");
    }
}
