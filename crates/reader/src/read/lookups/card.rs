//! `doc --detail brief`: the component card.

use crate::budget::{DocForm, Part, Request};
use crate::model::*;

use crate::read::error::LookupError;
use crate::read::paging::{Paging, TextRef};
use crate::read::set::BundleSet;
use crate::read::views::{CARD_TOKEN_NAME_BYTES, CardTokens, CardView, Detail};

impl BundleSet {
    /// The component card of `name` in `lang` (`detail=brief`), cut to the budget.
    ///
    /// # Errors
    /// As [`BundleSet::doc`].
    pub fn card(&self, name: &str, lang: Option<&str>, paging: Paging) -> Result<CardView, LookupError> {
        let (bundle, meta) = self.component_meta(name)?;
        let doc = self.pick_doc(&meta, lang)?;
        let props: Vec<PropsTable> = self.props_of(&bundle)?;
        let text = crate::view::card(&meta.name, doc, &meta.files, &props);
        let key = keys::card(&doc.lang);
        let request =
            Request::Doc { component: meta.key.clone(), lang: doc.lang.clone(), form: DocForm::Card, sections: vec![] };
        let props: Vec<(String, u32)> = props
            .iter()
            .filter(|t| t.origin == PropsOrigin::Typescript || t.lang.as_deref() == Some(doc.lang.as_str()))
            .map(|t| (t.name.clone(), t.props.len() as u32))
            .collect();
        // The card's fields beside its text, bounded by their bytes (JSON escapes included).
        let bytes = |s: &Option<String>| s.as_deref().map_or(0, |s| s.len() + crate::budget::json_escapes(s));
        let lists_bound = props.iter().map(|(n, _)| n.len() + crate::budget::json_escapes(n) + 10).sum::<usize>();
        let design_tokens = self.card_tokens(&meta.key)?;
        // The tokens' line: its names twice (text and JSON), the count, the key and the call's words.
        let tokens_bound = design_tokens.as_ref().map_or(0, |t| {
            2 * t.names.iter().map(|n| n.len() + crate::budget::json_escapes(n) + 4).sum::<usize>()
                + 3 * t.component.len()
                + 120
        });
        let mut fields = bytes(&doc.title) + bytes(&doc.brief) + bytes(&doc.import) + lists_bound;
        // Echoed: the component in the header, the document call, the continuation and its cursor; the path in the
        // JSON.
        let paging = self.echoing(paging, &[(meta.name.as_str(), 5), (doc.path.as_str(), 2)]);
        // The brief and import line (also in the card's text) stay out of the JSON unless the whole card fits
        // beside them: the text's share then only grows with the budget (a larger budget never serves less; it
        // did when they came back at half the content and took the text's room).
        let whole = u64::from(self.token_map(&bundle, &key)?.total()) + 2 * crate::budget::json_escapes(&text) as u64;
        let lean = whole + (fields + tokens_bound) as u64 > u64::from(paging.budget.content());
        if lean {
            fields = bytes(&doc.title) + lists_bound;
        }
        // The tokens' line follows the card's last part only.
        let lists = |p: &Part| (fields + if p.next_offset.is_none() { tokens_bound } else { 0 }) as u32;
        let (part, next_cursor) =
            self.part_with(&request, TextRef::new(&text, (&bundle, &key), &[(0, text.len())]), paging, &lists)?;
        Ok(CardView {
            served: self.served(),
            component: meta.name.clone(),
            lang: doc.lang.clone(),
            path: doc.path.clone(),
            title: doc.title.clone(),
            brief: doc.brief.clone().filter(|_| !lean),
            import: doc.import.clone().filter(|_| !lean),
            detail: Detail::Brief,
            tokens: part.tokens,
            full_tokens: doc.tokens,
            view_tokens: doc.view_tokens,
            sections: doc.sections.iter().filter(|s| (2..=4).contains(&s.level)).count() as u32,
            code_blocks: doc.code_blocks.len() as u32,
            props,
            files: meta.files.len() as u32,
            design_tokens,
            text: part.text.clone(),
            part,
            next_cursor,
        })
    }

    /// The design tokens of component `key` as a card names them; `None` when it has none (or the set, of a format
    /// before 12, has no tokens).
    fn card_tokens(&self, key: &str) -> Result<Option<CardTokens>, LookupError> {
        let all = self.design_tokens()?;
        let mine: Vec<&str> =
            all.tokens.iter().filter(|t| t.component.as_deref() == Some(key)).map(|t| t.name.as_str()).collect();
        if mine.is_empty() {
            return Ok(None);
        }
        let mut names = Vec::new();
        let mut bytes = 0;
        for name in &mine {
            bytes += name.len() + 2;
            if bytes > CARD_TOKEN_NAME_BYTES {
                break;
            }
            names.push(name.to_string());
        }
        Ok(Some(CardTokens { total: mine.len() as u32, names, component: key.to_string() }))
    }
}
