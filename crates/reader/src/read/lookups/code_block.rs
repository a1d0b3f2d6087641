//! `code-block` (MCP `get_code_block`): one code block, exactly as written.

use crate::budget::{Fence, Request};
use crate::bundle::BundleError;
use crate::model::*;

use crate::read::error::LookupError;
use crate::read::paging::{Paging, TextRef};
use crate::read::set::BundleSet;
use crate::read::views::CodeBlockView;

impl BundleSet {
    /// Code block `index` (1-based) of `name`'s document, cut to the budget when it is over it.
    ///
    /// # Errors
    /// Unknown component, no document in that language, index out of range (naming `1..N`), a refused budget or
    /// cursor, damaged bundle.
    pub fn code_block(
        &self,
        name: &str,
        index: u32,
        lang: Option<&str>,
        paging: Paging,
    ) -> Result<CodeBlockView, LookupError> {
        let (bundle, meta) = self.component_meta(name)?;
        let doc = self.pick_doc(&meta, lang)?;
        let count = doc.code_blocks.len() as u32;
        if count == 0 {
            return Err(LookupError::NoBlocks { component: meta.name.clone(), lang: doc.lang.clone() });
        }
        let block = index.checked_sub(1).and_then(|i| doc.code_blocks.get(i as usize)).ok_or_else(|| {
            LookupError::BlockOutOfRange { component: meta.name.clone(), lang: doc.lang.clone(), index, count }
        })?;
        // A block in a list item or block quote, or in a CRLF file, is served from its cleaned-code frame.
        let text_key = if block.cleaned { keys::block(&doc.lang, index) } else { keys::doc(&doc.lang) };
        let whole = self.text(&bundle, &text_key)?;
        let (start, end) =
            if block.cleaned { (0, whole.len()) } else { (block.start_byte as usize, block.end_byte as usize) };
        if whole.get(start..end).is_none() {
            let what = format!("code block {index} span");
            return Err(BundleError::Corrupt { path: bundle.path().to_string(), what }.into());
        }
        let request = Request::Block { component: meta.key.clone(), lang: doc.lang.clone(), index };
        let fences = [Fence { index, start, end }];
        // Echoed: the component in the header, the continuation and its cursor, the JSON; the demo file's paths.
        let mut names = vec![(meta.name.as_str(), 5)];
        names.extend(
            block
                .demo
                .iter()
                .flat_map(|d| [(d.path.as_str(), 2)].into_iter().chain(d.description_path.as_deref().map(|p| (p, 2)))),
        );
        let paging = self.echoing(paging, &names);
        let (part, next_cursor) = self.part(
            &request,
            TextRef::new(&whole, (&bundle, &text_key), &[(start, end)]).with_fences(&fences),
            paging,
        )?;
        Ok(CodeBlockView {
            served: self.served(),
            component: meta.name.clone(),
            lang: doc.lang.clone(),
            block: block.clone(),
            count,
            text: part.text.clone(),
            part,
            next_cursor,
        })
    }
}
