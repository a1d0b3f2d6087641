//! `component_details` with `sections=["props"]`: the component's props tables.

use crate::budget::{Cursor, DocForm, Part, Request};
use crate::bundle::{Bundle, BundleError};
use crate::model::*;

use crate::read::error::LookupError;
use crate::read::paging::{Paging, TextRef, structured_tokens};
use crate::read::set::BundleSet;
use crate::read::views::PropsView;

/// Tokens allowed for each join of a props answer's JSON beyond the stored counts of its pieces (a row's comma,
/// a table's brackets): JSON punctuation that meets across a join is one pre-tokenizer piece, which may take a
/// token more than the two pieces did.
const PROPS_JOIN_TOKENS: u32 = 2;

/// An upper bound of the tokens a props table adds to a part's JSON beside its rows, when the stored counts
/// (`props-tokens`, format 9) do not match the tables: its fields but `props`,
/// bounded from the JSON they make, with the strings read from the sources (name, path, language, extended types)
/// at a token per byte (a token is never shorter than a byte) and the rest by [`crate::budget::bound`] plus a tenth.
fn table_json_bound(t: &PropsTable) -> u32 {
    let skeleton = PropsTable {
        name: String::new(),
        path: String::new(),
        lang: t.lang.as_ref().map(|_| String::new()),
        extends: t.extends.iter().map(|_| String::new()).collect(),
        unresolved_extends: t.unresolved_extends.iter().map(|_| String::new()).collect(),
        props: vec![],
        ..t.clone()
    };
    let own = serde_json::to_string(&skeleton).map_or(u32::MAX / 4, |j| crate::budget::bound(&j));
    let strings = t.name.len()
        + t.path.len()
        + t.lang.as_ref().map_or(0, String::len)
        + t.extends.iter().chain(&t.unresolved_extends).map(String::len).sum::<usize>();
    let escapes = crate::budget::json_escapes(&t.name) + crate::budget::json_escapes(&t.path);
    own + own / 10 + (strings + escapes) as u32 + 2
}

impl BundleSet {
    /// The props tables of `name` (from its sources, and from its document's API tables in `lang`) as Markdown
    /// tables, cut to the budget.
    ///
    /// # Errors
    /// Unknown component, no document in that language, a refused budget or cursor, damaged bundle.
    pub fn props(&self, name: &str, lang: Option<&str>, paging: Paging) -> Result<PropsView, LookupError> {
        let (bundle, meta) = self.component_meta(name)?;
        // A component with only sources is answered from their props tables (a stand-in document, format 14);
        // without any, or in a set that stored no token map for them (format 13), it has nothing to serve.
        let doc = self.doc_or_sources(&meta, lang)?;
        let doc = doc.as_ref();
        let stored = self.props_of(&bundle)?;
        if meta.docs.is_empty() && (stored.is_empty() || self.token_map(&bundle, &keys::props_text(&doc.lang)).is_err())
        {
            return Err(LookupError::NoDocument {
                component: meta.name.clone(),
                lang: doc.lang.clone(),
                available: "none, and its sources declare no props type (its files: `files`)".into(),
            });
        }
        // The tables' and rows' JSON tokens, counted by the compiler (format 9), when they match the tables.
        let exact = match bundle.get::<Vec<PropsTokens>>(keys::PROPS_TOKENS) {
            Ok(c) => Some(c),
            Err(BundleError::MissingFrame { .. }) => None,
            Err(e) => return Err(e.into()),
        }
        .filter(|c| c.len() == stored.len() && c.iter().zip(&stored).all(|(c, t)| c.rows.len() == t.props.len()));
        let (props, counts): (Vec<PropsTable>, Vec<Option<PropsTokens>>) = stored
            .into_iter()
            .enumerate()
            .filter(|(_, t)| t.origin == PropsOrigin::Typescript || t.lang.as_deref() == Some(doc.lang.as_str()))
            .map(|(i, t)| (t, exact.as_ref().and_then(|c| c.get(i).cloned())))
            .unzip();
        let (text, table_spans) = crate::view::props_text_spans(&meta.name, &props);
        let key = keys::props_text(&doc.lang);
        let cuts = self.cuts(&bundle, &key, &text)?;
        let request = Request::Doc {
            component: meta.key.clone(),
            lang: doc.lang.clone(),
            form: DocForm::Props,
            sections: vec![],
        };
        // Each table's rows (one line per prop, after its heading, a blank line, the header and the rule) with an
        // upper bound of their JSON's tokens: the row's stored count, plus 48 for its field names and nulls, plus
        // what escaping its strings adds; and the table's own (its heading's count, its field names, its path).
        struct Rows {
            head: u32,
            rows: Vec<(usize, usize, u32)>,
        }
        let line_ends = |a: usize, b: usize| {
            let mut ends: Vec<usize> = text[a..b].match_indices('\n').map(|(i, _)| a + i + 1).collect();
            ends.insert(0, a);
            ends
        };
        let tables: Vec<Rows> = props
            .iter()
            .zip(&table_spans)
            .zip(&counts)
            .map(|((t, &(a, b)), exact)| {
                let starts = line_ends(a, b);
                let rows = t
                    .props
                    .iter()
                    .enumerate()
                    .filter_map(|(i, p)| {
                        let (ra, rb) = (*starts.get(4 + i)?, *starts.get(5 + i)?);
                        let escapes = crate::budget::json_escapes(&p.type_text)
                            + p.description.as_deref().map_or(0, crate::budget::json_escapes)
                            + p.default.as_deref().map_or(0, crate::budget::json_escapes);
                        // Stored exactly (format 9): the row's JSON, and a comma and a join's token.
                        let structured = match exact {
                            Some(c) => c.rows.get(i).map_or(u32::MAX / 4, |n| n + PROPS_JOIN_TOKENS),
                            None => cuts.tokens(ra, rb).0 + 48 + escapes as u32,
                        };
                        Some((ra, rb, structured))
                    })
                    .collect();
                let head = exact.as_ref().map_or_else(|| table_json_bound(t), |c| c.head + 2 * PROPS_JOIN_TOKENS);
                Rows { head, rows }
            })
            .collect();
        // Structured, the rows this part shows (no more than its text: clients may show either to the model),
        // each in its table.
        let inside = |part: &Part, a: usize, b: usize| {
            let start = part.offset as usize;
            a >= start && b <= start + part.text.len() && a < b
        };
        let shown = |part: &Part, i: usize| -> Vec<usize> {
            let t = &tables[i];
            let whole = inside(part, table_spans[i].0, table_spans[i].1);
            // A row is listed by the part its line ends in: a line longer than a part (cut inside, at the extra cut
            // points of a long segment) is listed once, with the part that completes it.
            let ends_in = |b: usize| b > part.offset as usize && b <= part.offset as usize + part.text.len();
            (0..t.rows.len()).filter(|&r| whole || ends_in(t.rows[r].1)).collect()
        };
        let listed = |part: &Part, i: usize| {
            !shown(part, i).is_empty()
                || (tables[i].rows.is_empty() && inside(part, table_spans[i].0, table_spans[i].1))
        };
        let lists = |part: &Part| {
            (0..tables.len())
                .filter(|&i| listed(part, i))
                .map(|i| tables[i].head + shown(part, i).iter().map(|&r| tables[i].rows[r].2).sum::<u32>())
                .sum::<u32>()
        };
        // Echoed: the component in the header, the continuation and its cursor, the JSON.
        let paging = self.echoing(paging, &[(meta.name.as_str(), 5)]);
        // The structured form is bounded by its own envelope, not the text form's: its fields but `text` and
        // `props` (names, counts, lines, the cursor), bounded here from the JSON they make, leave more room than
        // the [`ENVELOPE_TOKENS`] the text form's header and continuation call keep, and that room goes to the
        // rows' structured copies (below ~450 tokens Semi's Table listed none: trial finding 4). The lists' bound
        // is lowered by the difference, so `part_with` checks the structured form against `max_tokens`.
        let (tables_total, props_total) = (props.len() as u32, props.iter().map(|t| t.props.len() as u32).sum());
        // Per part: its own numbers, and its cursor (with the largest hashes) when it has a next part.
        let (served, name, lang) = (self.served(), meta.name.clone(), doc.lang.clone());
        let json_envelope = |part: &Part| -> u32 {
            let cursor = part
                .next_offset
                .map(|offset| Cursor { set: u32::MAX, text: u32::MAX, request: request.clone(), offset }.encode());
            let view = PropsView {
                served: served.clone(),
                component: name.clone(),
                lang: lang.clone(),
                tokens: part.tokens,
                tables_total,
                props_total,
                props: vec![],
                // A part that leaves rows out lists none: its JSON has these two fields instead of the rows' bounds
                // (a few tokens against their tens), so they are not reserved beside the rows.
                unlisted_props: 0,
                structured_at: None,
                part: Part { text: String::new(), ..part.clone() },
                next_cursor: cursor.as_ref().map(|_| String::new()),
                text: String::new(),
            };
            let own = serde_json::to_string(&view).map_or(u32::MAX / 4, |j| crate::budget::bound(&j));
            // The cursor is digits: a token per three, exactly.
            own + cursor.map_or(0, |c| crate::budget::envelope_bound(&c))
        };
        let reserved = paging.budget.envelope + paging.budget.echo;
        let full_lists = &lists;
        let lists = |part: &Part| -> u32 {
            // A measured reserve is the envelope as printed, rows included: no slack to lend them.
            let slack = if paging.budget.measured { 0 } else { reserved.saturating_sub(json_envelope(part)) };
            full_lists(part).saturating_sub(slack)
        };
        let (part, next_cursor) =
            self.part_with(&request, TextRef::new(&text, (&bundle, &key), &[(0, text.len())]), paging, &lists)?;
        // A part of one segment is served even when its rows do not fit beside it structured (a row of hundreds of
        // tokens at the smallest budget): it then lists none, as its text says all, and says how many it leaves
        // out and the budget that lists them: the text form's (the part's tokens beside the envelope and the
        // echoed names) or the structured form's (its envelope, the part, its escapes and its rows' copies),
        // whichever is more.
        // Under a measured reserve (which holds the rows the last try listed), the rows are judged against the
        // structured form's own envelope: listing them then raises the reserve, not the other way round.
        let room = match paging.budget.measured {
            true => paging.budget.max_tokens.saturating_sub(json_envelope(&part)),
            false => paging.budget.content(),
        };
        let structured = structured_tokens(&part, &lists) <= room;
        let unlisted_props: u32 =
            if structured { 0 } else { (0..tables.len()).map(|i| shown(&part, i).len() as u32).sum() };
        let structured_at = (unlisted_props > 0).then(|| {
            let text_form = part.tokens + paging.budget.envelope + paging.budget.echo;
            let json_form = json_envelope(&part) + structured_tokens(&part, &full_lists);
            text_form.max(json_form)
        });
        let props = props
            .into_iter()
            .enumerate()
            .filter(|&(i, _)| structured && listed(&part, i))
            .map(|(i, mut t)| {
                let keep = shown(&part, i);
                if keep.len() < t.props.len() {
                    t.props = keep.into_iter().map(|r| t.props[r].clone()).collect();
                }
                t
            })
            .collect();
        Ok(PropsView {
            served: self.served(),
            component: meta.name.clone(),
            lang: doc.lang.clone(),
            tokens: part.tokens,
            tables_total,
            props_total,
            props,
            unlisted_props,
            structured_at,
            text: part.text.clone(),
            part,
            next_cursor,
        })
    }

    /// The props tables stored for a component (none in bundles of components without any).
    pub fn props_of(&self, bundle: &Bundle) -> Result<Vec<PropsTable>, LookupError> {
        match bundle.get(keys::PROPS) {
            Ok(p) => Ok(p),
            Err(BundleError::MissingFrame { .. }) => Ok(vec![]),
            Err(e) => Err(e.into()),
        }
    }
}
