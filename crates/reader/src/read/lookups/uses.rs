//! `search --uses Table.rowSelection` (MCP `search_docs` with `uses`): the examples of a component's document that
//! set a prop on its element (or use the component at all), smallest first, from what the build read in each code
//! block (issue 29 item 3; format 12's `uses/<lang>` frame). A list of block numbers, titles and sizes: the code
//! is one `code-block` call away. A row is charged what it shows (its line and its JSON object, bounded as the
//! answers' own lines are: [`crate::budget::envelope_bound`]), never the example's code, and a cut list ends with
//! a cursor, as every list does.

use crate::budget::{Cursor, Request};
use crate::bundle::BundleError;
use crate::model::*;

use crate::read::error::LookupError;
use crate::read::lookups::prop::{block_title, blocks_using};
use crate::read::names::echo;
use crate::read::paging::Paging;
use crate::read::set::BundleSet;
use crate::read::views::{ExampleRef, UsesView};

impl BundleSet {
    /// The examples of `what`'s component that use it: `Table.rowSelection` (the prop set on `<Table>`), or
    /// `Table` (any use of the element), in the document in `lang`: the document's own examples smallest first,
    /// then the stories beside it smallest first; cut to the budget of `paging` by rows (continuing its cursor,
    /// whose request then replaces `what` and `lang`).
    ///
    /// # Errors
    /// Unknown component, no document in that language, a prop its tables do not list
    /// ([`LookupError::UnknownProp`], naming the nearest), a refused cursor, damaged bundle.
    pub fn uses(&self, what: &str, lang: Option<&str>, paging: Paging) -> Result<UsesView, LookupError> {
        let (what, lang) = match paging.cursor.map(Cursor::decode).transpose()?.map(|c| c.request) {
            Some(Request::Uses { what, lang }) => (what, Some(lang)),
            _ => (what.to_string(), lang.map(str::to_string)),
        };
        let (component, prop) = match what.trim().split_once('.') {
            Some((c, p)) => (c, Some(p.trim())),
            None => (what.trim(), None),
        };
        let (bundle, meta) = self.component_meta(component)?;
        let doc = self.pick_doc(&meta, lang.as_deref())?;
        let uses: Vec<BlockUses> = match bundle.get(&keys::uses(&doc.lang)) {
            Ok(u) => u,
            Err(BundleError::MissingFrame { .. }) => vec![],
            Err(e) => return Err(e.into()),
        };
        // A prop the component's tables do not list is an error naming the nearest (an example cannot use it);
        // one matching without case is read as the tables spell it.
        // A nested path (`columns.sorter`) is used as an object literal's key inside the first segment's value.
        let spelt = match prop.map(|p| p.split_once('.').map_or((p, None), |(a, b)| (a, Some(b)))) {
            Some((first, rest)) => {
                let first = self.prop_spelling(&bundle, &meta, &doc.lang, first)?.unwrap_or_else(|| first.to_string());
                Some(rest.map_or(first.clone(), |r| format!("{first}>{}", r.replace('.', ">"))))
            }
            None => None,
        };
        let prop = spelt.as_deref();
        let found = match prop {
            Some(p) => blocks_using(&uses, &doc.code_blocks, &meta.name, p),
            None => {
                let key = component_key(&meta.name);
                let mut all: Vec<usize> = (0..uses.len().min(doc.code_blocks.len()))
                    .filter(|&i| uses[i].iter().any(|u| !u.contains(['.', '=']) && component_key(u) == key))
                    .collect();
                all.sort_by_key(|&i| {
                    (crate::view::story_of(&doc.code_blocks[i]).is_some(), doc.code_blocks[i].tokens, i)
                });
                all
            }
        };
        let asked = prop.map_or_else(|| meta.name.clone(), |p| format!("{}.{}", meta.name, echo(&p.replace('>', "."))));
        // Echoed: in the header, the continuation call and its cursor, the JSON.
        let paging = self.echoing(paging, &[(meta.name.as_str(), 3), (asked.as_str(), 3), (what.as_str(), 3)]);
        let examples: Vec<ExampleRef> = found
            .iter()
            .map(|&i| ExampleRef::new(&doc.code_blocks[i], block_title(&doc.code_blocks[i]), false))
            .collect();
        // Each row by what it shows, bounded as the answers' own lines are (titles are names as printed), in its
        // larger form (its line, or its JSON object with a comma), and a join.
        let bound = |r: usize| {
            let e = &examples[r];
            let line = crate::budget::envelope_bound(&crate::view::example_line(e));
            let json =
                serde_json::to_string(e).map_or(u32::MAX / 4, |j| crate::budget::envelope_bound(&format!("{j},")));
            line.max(json) + 2
        };
        let whole = (0..examples.len()).map(bound).sum();
        let names: Vec<String> = examples.iter().map(|e| e.index.to_string()).collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let request = Request::Uses { what: what.trim().to_string(), lang: doc.lang.clone() };
        let (rows, part) = self.list_part(&request, &names, &bound, whole, paging)?;
        let listed: Vec<ExampleRef> = examples[rows].to_vec();
        Ok(UsesView {
            served: self.served(),
            component: meta.name.clone(),
            uses: asked,
            asked: what.trim().to_string(),
            lang: doc.lang.clone(),
            total: examples.len() as u32,
            text: listed.iter().map(crate::view::example_line).collect(),
            examples: listed,
            part,
        })
    }
}
