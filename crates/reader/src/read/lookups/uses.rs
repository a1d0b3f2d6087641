//! `search --uses Table.rowSelection` (MCP `search_docs` with `uses`): the examples of a component's document that
//! set a prop on its element (or use the component at all), smallest first, from what the build read in each code
//! block (issue 29 item 3; format 12's `uses/<lang>` frame). A list of block numbers, titles and sizes: the code
//! is one `code-block` call away.

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
    /// `Table` (any use of the element), in the document in `lang`, smallest first, as many as the budget lists.
    ///
    /// # Errors
    /// Unknown component, no document in that language, damaged bundle.
    pub fn uses(&self, what: &str, lang: Option<&str>, paging: Paging) -> Result<UsesView, LookupError> {
        let (component, prop) = match what.trim().split_once('.') {
            Some((c, p)) => (c, Some(p.trim())),
            None => (what.trim(), None),
        };
        let (bundle, meta) = self.component_meta(component)?;
        let doc = self.pick_doc(&meta, lang)?;
        let uses: Vec<BlockUses> = match bundle.get(&keys::uses(&doc.lang)) {
            Ok(u) => u,
            Err(BundleError::MissingFrame { .. }) => vec![],
            Err(e) => return Err(e.into()),
        };
        let found = match prop {
            Some(p) => blocks_using(&uses, &doc.code_blocks, &meta.name, p),
            None => {
                let key = component_key(&meta.name);
                let mut all: Vec<usize> = (0..uses.len().min(doc.code_blocks.len()))
                    .filter(|&i| uses[i].iter().any(|u| !u.contains(['.', '=']) && component_key(u) == key))
                    .collect();
                all.sort_by_key(|&i| (doc.code_blocks[i].tokens, i));
                all
            }
        };
        let asked = prop.map_or_else(|| meta.name.clone(), |p| format!("{}.{}", meta.name, echo(p)));
        let paging = self.echoing(paging, &[(meta.name.as_str(), 3), (asked.as_str(), 3)]);
        let examples: Vec<ExampleRef> = found
            .iter()
            .map(|&i| {
                let b = &doc.code_blocks[i];
                ExampleRef {
                    index: b.index,
                    title: block_title(b),
                    tokens: b.tokens,
                    start_line: b.start_line,
                    end_line: b.end_line,
                    shown: false,
                }
            })
            .collect();
        // Each row by its bytes (a token is never shorter than a byte), as a text line and as JSON, and a join.
        let bounds = examples.iter().map(|e| {
            let line = crate::view::example_line(e);
            let json =
                serde_json::to_string(e).map_or(u32::MAX / 4, |j| (j.len() + crate::budget::json_escapes(&j)) as u32);
            (line.len() + crate::budget::json_escapes(&line)) as u32 + json + 2
        });
        let (listed, _) = crate::budget::listed_within(bounds, paging.budget.content());
        let text: String = examples[..listed].iter().map(crate::view::example_line).collect();
        Ok(UsesView {
            served: self.served(),
            component: meta.name.clone(),
            uses: asked,
            lang: doc.lang.clone(),
            total: examples.len() as u32,
            examples: examples[..listed].to_vec(),
            text,
        })
    }
}
