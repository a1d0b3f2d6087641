//! `check`'s `raw-value` rule (issue 30 item 4): a raw colour or length written in a JSX attribute's value
//! (`style={{ color: '#165dff' }}`, `color="#165dff"`) where the design system has a token of that value. Values
//! are read as `token-for` reads them and matched by the same lookup (`BundleSet::token_for`): lengths exactly,
//! colours within its ΔE (`MAX_DELTA_E`), exact ones first; global tokens only (a component's own token is its
//! setting, not a value to write elsewhere). Safe side: colour names (`red`, `blue`) are never
//! raw values (components take them as preset names: Arco's `<Tag color="red">`), nor is a zero length or a
//! value inside `var(…)`; each part of a shorthand (`1px solid #e5e6eb`) is read alone.

use std::collections::HashMap;

use mydesign_docs::design_value::{Value, parse};
use mydesign_docs::read::{BundleSet, Paging};
use mydesign_docs::usage::Literal;

use super::check::Finding;

/// Tokens named in a finding's fix; the `token-for` call lists the rest.
const NAMED: usize = 3;

/// The raw values of `literals` that a token of `set` has, as findings. `cache` keeps each value's answer (a file
/// repeats its values).
pub fn raw_values(set: &BundleSet, literals: &[Literal], cache: &mut HashMap<String, Option<String>>) -> Vec<Finding> {
    let mut out = Vec::new();
    for lit in literals {
        if lit.text.contains("var(") {
            continue;
        }
        for part in parts(&lit.text) {
            let kind = match parse(part) {
                Some(Value::Color(_)) if !part.starts_with(|c: char| c.is_ascii_alphabetic()) || part.contains('(') => {
                    "colour"
                }
                Some(Value::Length(px)) if px != 0.0 => "length",
                _ => continue,
            };
            let fix = cache.entry(part.to_string()).or_insert_with(|| tokens_for(set, part)).clone();
            let Some(fix) = fix else { continue };
            out.push(Finding {
                line: lit.line,
                column: lit.column,
                rule: "raw-value",
                message: format!("raw {kind} `{part}` in `{}` of <{}>", lit.place, lit.element),
                fix,
                docs: format!("mydesign-docs token-for '{part}' --system {}", set.head().system),
            });
        }
    }
    out
}

/// The space-separated parts of a CSS value (`1px solid #e5e6eb`), a function call (`rgb(0, 0, 0)`) kept whole.
fn parts(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0u32, None);
    for (i, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            c if c.is_whitespace() && depth == 0 => {
                if let Some(s) = start.take() {
                    out.push(&text[s..i]);
                }
                continue;
            }
            _ => {}
        }
        start.get_or_insert(i);
    }
    if let Some(s) = start {
        out.push(&text[s..]);
    }
    out
}

/// The fix for raw value `value`: the tokens `token-for` lists first (exact before near, with the distance of a
/// near colour), `None` when the design system has none.
fn tokens_for(set: &BundleSet, value: &str) -> Option<String> {
    let view = set.token_for(value, Paging::unlimited()).ok()?;
    // Global tokens only: a component's token (`@btn-size-mini-height`, a documented `--gap`) is that
    // component's setting, not a value to write elsewhere.
    let global: Vec<_> = view.rows.iter().filter(|m| m.token.component.is_none()).collect();
    let first = global.first()?;
    let mut names: Vec<String> = Vec::new();
    for m in &global {
        let name = match m.distance {
            0.0 => format!("`{}`", m.token.name),
            d => format!("`{}` (ΔE {d:.1})", m.token.name),
        };
        if !names.contains(&name) {
            names.push(name);
        }
        if names.len() == NAMED {
            break;
        }
    }
    let more = (global.len() as u32).saturating_sub(names.len() as u32);
    let exact = if first.distance == 0.0 { "of this value" } else { "near this colour" };
    let rest = if more > 0 { format!(" and {more} more matches") } else { String::new() };
    Some(format!("use a token {exact}: {}{rest}", names.join(", ")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shorthand_is_read_part_by_part_and_a_call_is_one_part() {
        assert_eq!(parts("1px solid #e5e6eb"), ["1px", "solid", "#e5e6eb"]);
        assert_eq!(parts(" rgb(0, 0, 0)  2px"), ["rgb(0, 0, 0)", "2px"]);
        assert!(parts("").is_empty());
    }
}
