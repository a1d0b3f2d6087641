//! Search cursors: what a part of a search hands the next ([`SearchCursor`]: the sets, the search and the hits
//! listed before), checked when it comes back, and the call that passes it on ([`next_call`]).

use serde::Serialize;

use super::hits::follow_up;
use super::query::{FollowUp, SearchOptions};
use crate::read::{BundleSet, LookupError};
use crate::render::{Arg, Surface};

/// What a search cursor holds: which sets and which search (query and filters) it continues, and how many hits
/// the parts before it listed. Sent as an opaque string, as [`crate::budget::Cursor`] is (MessagePack, a checksum,
/// URL-safe base64).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub(super) struct SearchCursor {
    /// Hash of the `system@version` labels searched, with their build ids.
    pub(super) sets: u32,
    /// Hash of the query and its filters.
    pub(super) search: u32,
    /// Hits listed before.
    pub(super) skip: u32,
}

impl SearchCursor {
    pub(super) fn encode(&self) -> String {
        use base64::Engine as _;
        let mut bytes = rmp_serde::to_vec(self).unwrap_or_default();
        let sum = xxhash_rust::xxh3::xxh3_64(&bytes) as u32;
        bytes.extend_from_slice(&sum.to_le_bytes());
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
    }

    pub(super) fn decode(s: &str) -> Result<SearchCursor, crate::budget::BudgetError> {
        use crate::budget::BudgetError;
        use base64::Engine as _;
        let malformed = |why: &str| BudgetError::Malformed { why: why.into() };
        if s.trim().is_empty() {
            return Err(BudgetError::EmptyCursor);
        }
        let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
            .decode(s.trim())
            .map_err(|_| malformed("not base64url"))?;
        let (body, sum) =
            bytes.split_at_checked(bytes.len().saturating_sub(4)).ok_or_else(|| malformed("too short"))?;
        if sum.len() != 4 || (xxhash_rust::xxh3::xxh3_64(body) as u32).to_le_bytes() != sum {
            return Err(malformed("checksum mismatch (cut short or edited?)"));
        }
        rmp_serde::from_slice(body).map_err(|_| malformed("not a search cursor"))
    }
}

/// The [`SearchCursor::sets`] of `sets`: their labels and build ids (a rebuild of the same version ranks other
/// hits, so a cursor of the former build is refused).
pub(super) fn sets_id(sets: &[&BundleSet]) -> u32 {
    let labels: Vec<String> =
        sets.iter().map(|s| format!("{}@{}#{}", s.head().system, s.head().version, s.head().build_id)).collect();
    xxhash_rust::xxh3::xxh3_64(labels.join(",").as_bytes()) as u32
}

/// The [`SearchCursor::search`] of `query` with the filters of `opts` (not its budget: a part may be asked with
/// another).
pub(super) fn search_id(query: &str, opts: &SearchOptions) -> u32 {
    let key = format!("{query}\u{0}{:?}\u{0}{:?}\u{0}{:?}", opts.component, opts.kind, opts.lang);
    xxhash_rust::xxh3::xxh3_64(key.as_bytes()) as u32
}

/// The call that lists the next part of a search: `search_docs` with the whole query (the cursor is checked
/// against it: a placeholder for a long one made a call that could not run, trial item 6), the filters, the
/// budget asked for and `cursor`; with the system and version when one set is searched. Its size is reserved
/// with the rest of the answer's envelope (`search_sets`).
pub(super) fn next_call(sets: &[&BundleSet], query: &str, opts: &SearchOptions, cursor: &str) -> FollowUp {
    let mut args: Vec<(&str, Arg)> = vec![("query", query.into())];
    if let Some(c) = &opts.component {
        args.push(("--component", c.clone().into()));
    }
    if let Some(k) = opts.kind {
        args.push(("--kind", k.name().into()));
    }
    if let Some(m) = opts.max_tokens {
        args.push(("--max-tokens", m.into()));
    }
    args.push(("--cursor", cursor.into()));
    let lang = opts.lang.as_deref();
    if let [set] = sets {
        return follow_up(&set.served(), lang, "search_docs", "search", &args);
    }
    if let Some(l) = lang {
        args.push(("--lang", l.into()));
    }
    let mcp: Vec<String> = args.iter().map(|(k, v)| Surface::Mcp.arg(k, v)).collect();
    FollowUp {
        tool: "search_docs".into(),
        arguments: args.iter().map(|(k, v)| (Surface::Mcp.name(k), v.json())).collect(),
        call: format!("search_docs({})", mcp.join(", ")),
        cli: crate::render::cli_command("search", &args, &crate::render::cli_bundles_arg()),
        cli_text: String::new(),
    }
}

/// The hits listed before the part `cursor` asks for (0 without one), checked against the search it continues:
/// `sets` and `search` as [`sets_id`] and [`search_id`] give them, `total` hits, `query` as echoed (for the message).
///
/// # Errors
/// A malformed cursor, one of another search or build ([`crate::budget::BudgetError::Mismatch`]), one past the
/// last hit.
pub(super) fn skip(cursor: Option<&str>, sets: u32, search: u32, total: u32, query: &str) -> Result<u32, LookupError> {
    let Some(c) = cursor else { return Ok(0) };
    let cur = SearchCursor::decode(c)?;
    if cur.sets != sets || cur.search != search {
        let cursor = if cur.search == search {
            "this search on another build of the bundles (rebuilt or replaced since)".to_string()
        } else {
            "another search (another query, filters or bundle set)".to_string()
        };
        let call = format!("search \"{query}\"");
        return Err(crate::budget::BudgetError::Mismatch { cursor, call }.into());
    }
    if cur.skip >= total {
        let why = "it points past the last hit".to_string();
        return Err(crate::budget::BudgetError::Malformed { why }.into());
    }
    Ok(cur.skip)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::render::texts_message;

    #[test]
    fn search_cursors_round_trip_and_refuse_garbage() {
        let c = SearchCursor { sets: 7, search: 9, skip: 3 };
        assert_eq!(SearchCursor::decode(&c.encode()), Ok(c));
        assert!(SearchCursor::decode("").is_err());
        assert!(SearchCursor::decode("AAAA").is_err());
        let mut edited = c.encode();
        edited.insert(2, 'x');
        assert!(SearchCursor::decode(&edited).is_err());
        assert_eq!(texts_message(false), "texts over the budget: see the follow-up calls");
    }
}
