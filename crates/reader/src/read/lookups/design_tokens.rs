//! `tokens` and `token-for` (MCP `search_docs` with `kind="token"` / `"token-for"`): the set's design tokens by
//! name, prefix, category, type or component, and the tokens whose value is a value. Both are lists cut by rows,
//! each row by the tokens the compiler stored for it ([`crate::model::DesignTokens::row_tokens`]).

use crate::budget::{Cursor, Request};
use crate::design_value::{Value, delta_e, hex_color};
use crate::model::{DesignToken, DesignTokens, TokenType, component_key};

use crate::read::error::LookupError;
use crate::read::lookups::components::stored_row;
use crate::read::paging::Paging;
use crate::read::set::BundleSet;
use crate::read::views::{TokenForView, TokenMatch, TokensView};

/// The largest ΔE (CIEDE2000, [`delta_e`]) at which a colour token is listed as near a colour asked for: beyond
/// it, "no token for this value". 5 is about where two colours read as different ones side by side.
pub const MAX_DELTA_E: f64 = 5.0;

/// A name as compared: lower case, without the sigil of its form (`--`, `$`, `@`).
fn bare(name: &str) -> String {
    name.trim_start_matches(['-', '$', '@']).to_lowercase()
}

/// How well token `t` matches `query` (already [`bare`]): 0 its name (or an alias) is the query, 1 it starts with
/// it, 2 every word of the query is in its name, aliases or description, 3 it is the query's component; `None`
/// when it does not match.
fn rank(t: &DesignToken, query: &str) -> Option<u8> {
    let names = || std::iter::once(&t.name).chain(&t.aliases).map(|n| bare(n));
    if names().any(|n| n == query) {
        return Some(0);
    }
    if names().any(|n| n.starts_with(query)) {
        return Some(1);
    }
    let haystack = format!("{} {}", names().collect::<Vec<_>>().join(" "), t.description.to_lowercase());
    if query.split_whitespace().all(|w| haystack.contains(w)) {
        return Some(2);
    }
    (t.component.as_deref() == Some(query)).then_some(3)
}

/// The indices of the tokens of `all` that match, best first (by [`rank`], then in the set's order). A query that
/// names a type (`color`, `spacing`) and no `kind` is a type filter.
fn matching(all: &DesignTokens, query: &str, kind: Option<TokenType>, component: Option<&str>) -> Vec<usize> {
    let q = bare(query.trim());
    let (q, kind) = match (kind, TokenType::from_name(&q)) {
        (None, Some(t)) => (String::new(), Some(t)),
        (k, _) => (q, k),
    };
    // Both sides as lookup keys (case, dashes and underscores ignored), as every lookup matches names.
    let component =
        component.map(|c| if c.trim().eq_ignore_ascii_case("global") { "global".into() } else { component_key(c) });
    let mut ranked: Vec<(u8, usize)> = all
        .tokens
        .iter()
        .enumerate()
        .filter(|(_, t)| kind.is_none_or(|k| t.kind == k))
        .filter(|(_, t)| match component.as_deref() {
            None => true,
            Some("global") => t.component.is_none(),
            Some(c) => t.component.as_deref().is_some_and(|t| component_key(t) == c),
        })
        .filter_map(|(i, t)| if q.is_empty() { Some((0, i)) } else { rank(t, &q).map(|r| (r, i)) })
        .collect();
    ranked.sort_unstable();
    ranked.into_iter().map(|(_, i)| i).collect()
}

/// Row `i`'s tokens: its stored count with the list's joins, else (a set whose counts do not match) a bound of
/// its JSON object and text line by bytes.
fn row_bound(all: &DesignTokens, i: usize) -> u32 {
    stored_row(&all.row_tokens, all.tokens.len(), i).unwrap_or_else(|| {
        let json = serde_json::to_string(&all.tokens[i]).unwrap_or_default();
        crate::budget::bound(&json).saturating_mul(2).saturating_add(8)
    })
}

impl BundleSet {
    /// The design tokens matching `query` (a name, a prefix, a category, words of the description, a component
    /// or a type; all when empty), of `kind` and `component` when given, cut to the budget of `paging` (continuing
    /// its cursor, whose request then replaces the arguments).
    ///
    /// # Errors
    /// A damaged `design-tokens` frame; a refused cursor.
    pub fn design_tokens_paged(
        &self,
        query: Option<&str>,
        kind: Option<TokenType>,
        component: Option<&str>,
        paging: Paging,
    ) -> Result<TokensView, LookupError> {
        check_length(query.unwrap_or(""))?;
        let request = match paging.cursor.map(Cursor::decode).transpose()?.map(|c| c.request) {
            Some(r @ Request::Tokens { .. }) => r,
            _ => Request::Tokens {
                query: query.unwrap_or("").to_string(),
                kind: kind.map(|k| k.name().to_string()),
                component: component.map(str::to_string),
            },
        };
        let Request::Tokens { query, kind, component } = &request else { unreachable!("built as tokens above") };
        let kind = kind.as_deref().and_then(TokenType::from_name);
        let all = self.design_tokens()?;
        let resolved = component.as_deref().map(|c| self.token_component(all, c)).transpose()?;
        let found = matching(all, query, kind, resolved.as_deref());
        let names: Vec<&str> = found.iter().map(|&i| all.tokens[i].name.as_str()).collect();
        let bound = |r: usize| row_bound(all, found[r]);
        let whole = (0..found.len()).map(bound).sum();
        // Echoed: in the header, the continuation call and its cursor, the JSON.
        let paging = self.echoing(paging, &[(query.as_str(), 4), (component.as_deref().unwrap_or(""), 4)]);
        let (rows, part) = self.list_part(&request, &names, &bound, whole, paging)?;
        Ok(TokensView {
            served: self.served(),
            query: Some(query.clone()).filter(|q| !q.is_empty()),
            kind,
            component: component.clone(),
            tokens: rows.clone().map(bound).sum(),
            set_total: all.tokens.len() as u32,
            rows: rows.map(|r| all.tokens[found[r]].clone()).collect(),
            part,
        })
    }

    /// The tokens whose value is `value` (a colour, a length or a duration as CSS writes it), per mode: exact
    /// matches first, then colours within [`MAX_DELTA_E`] by distance, semantic tokens before palette tokens at
    /// the same distance; cut to the budget of `paging`. Nothing listed, with a note naming the nearest colour and
    /// its distance, when no token is that near.
    ///
    /// # Errors
    /// [`LookupError::NotATokenValue`] for a value that is no colour, length or duration (or empty); a damaged
    /// `design-tokens` frame; a refused cursor.
    pub fn token_for(&self, value: &str, paging: Paging) -> Result<TokenForView, LookupError> {
        check_length(value)?;
        let value = match paging.cursor.map(Cursor::decode).transpose()?.map(|c| c.request) {
            Some(Request::TokenFor { value }) => value,
            _ => value.to_string(),
        };
        // A value no token can have (not a colour, length or duration; empty) is the caller's mistake, not an
        // empty answer: an error naming what is read.
        let asked = crate::design_value::parse_asked(&value)
            .ok_or_else(|| LookupError::NotATokenValue { value: crate::read::names::echo(value.trim()) })?;
        let all = self.design_tokens()?;
        let (matches, nearest) = matches_of(all, asked);
        let note = match &nearest {
            _ if !matches.is_empty() => None,
            Some((d, i)) => Some(format!(
                "no token for this value within ΔE {MAX_DELTA_E}: the nearest colour is `{}` ({}), ΔE {d:.1}",
                all.tokens[*i].name,
                all.tokens[*i].values.iter().find_map(|v| v.resolved.as_deref()).unwrap_or("")
            )),
            None => Some("no token for this value".into()),
        };
        let extra = |m: &Match| {
            crate::budget::bound(&format!(
                "ΔE {:.1} · {} {{\"distance\":{:.1},\"mode\":\"{}\",\"token\":}}",
                m.0, m.2, m.0, m.2
            ))
        };
        let bound = |r: usize| row_bound(all, matches[r].1).saturating_add(extra(&matches[r]));
        let names: Vec<String> = matches.iter().map(|(_, i, mode)| format!("{} {mode}", all.tokens[*i].name)).collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let whole = (0..matches.len()).map(bound).sum();
        let request = Request::TokenFor { value: value.clone() };
        let paging = self.echoing(paging, &[(value.as_str(), 4), (note.as_deref().unwrap_or(""), 2)]);
        let (rows, part) = self.list_part(&request, &names, &bound, whole, paging)?;
        Ok(TokenForView {
            served: self.served(),
            normalized: Some(asked.text()),
            value,
            note,
            tokens: rows.clone().map(bound).sum(),
            rows: rows
                .map(|r| {
                    let (distance, i, mode) = &matches[r];
                    TokenMatch { distance: *distance, mode: mode.clone(), token: all.tokens[*i].clone() }
                })
                .collect(),
            part,
        })
    }
}

impl BundleSet {
    /// The component `--component` names among the tokens' components: `global`, a name the tokens are tagged
    /// with (as a key: `action-bar` is Vant's `actionbar`), else the component the set resolves the name to (its
    /// key; it may have no token).
    ///
    /// # Errors
    /// [`LookupError::UnknownComponent`] (naming the nearest components) for a name that is neither.
    fn token_component(&self, all: &DesignTokens, name: &str) -> Result<String, LookupError> {
        let key = component_key(name);
        if name.trim().eq_ignore_ascii_case("global") {
            return Ok("global".into());
        }
        if all.tokens.iter().any(|t| t.component.as_deref().is_some_and(|c| component_key(c) == key)) {
            return Ok(key);
        }
        Ok(self.component(name)?.key.clone())
    }
}

/// A match: (distance, index of the token, mode).
type Match = (f64, usize, String);

/// The (distance rounded to 0.1, token index, mode) of every mode value of `all` that is `asked` or a colour within
/// [`MAX_DELTA_E`] of it, ordered by distance, semantic first, then the set's order; and the nearest colour
/// overall (its distance and index), for the note when none is near enough.
fn matches_of(all: &DesignTokens, asked: Value) -> (Vec<Match>, Option<(f64, usize)>) {
    let want = asked.text();
    let mut found = Vec::new();
    let mut nearest: Option<(f64, usize)> = None;
    for (i, t) in all.tokens.iter().enumerate() {
        for m in &t.values {
            let Some(n) = &m.normalized else { continue };
            let distance = match (asked, hex_color(n)) {
                _ if *n == want => 0.0,
                (Value::Color(a), Some(b)) => delta_e(a, b),
                _ => continue,
            };
            // At one distance a global token before a component's (the palette's `red-6` before a tag's use of it).
            let better = |(d, j): (f64, usize)| {
                distance < d || (distance == d && t.component.is_none() && all.tokens[j].component.is_some())
            };
            if nearest.is_none_or(better) {
                nearest = Some((distance, i));
            }
            if distance <= MAX_DELTA_E {
                // Rounded to 0.1, and never to 0 when not exact: 0 says "exactly this value".
                let shown = match (distance * 10.0).round() / 10.0 {
                    0.0 if distance > 0.0 => 0.1,
                    d => d,
                };
                found.push((shown, i, m.mode.clone()));
            }
        }
    }
    // At one distance: semantic before palette, then global before a component's, then the set's order.
    found.sort_by(|a, b| {
        let rank = |i: usize| (!all.tokens[i].semantic, all.tokens[i].component.is_some());
        a.0.total_cmp(&b.0).then(rank(a.1).cmp(&rank(b.1))).then(a.1.cmp(&b.1))
    });
    (found, nearest)
}

/// Longest design token query or value, in bytes: the longest real token names are about 50 bytes, and the query is
/// echoed in every answer's header.
pub const MAX_TOKEN_QUERY_BYTES: usize = 128;

/// [`LookupError::TokenQueryTooLong`] for a query over [`MAX_TOKEN_QUERY_BYTES`].
fn check_length(query: &str) -> Result<(), LookupError> {
    if query.len() > MAX_TOKEN_QUERY_BYTES {
        return Err(LookupError::TokenQueryTooLong { bytes: query.len(), max: MAX_TOKEN_QUERY_BYTES });
    }
    Ok(())
}
