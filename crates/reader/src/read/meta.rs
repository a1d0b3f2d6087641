//! What lookups resolve first: a component by name, its metadata and document lists, a language as the set
//! spells it, and the document to serve.

use std::sync::Arc;

use crate::bundle::Bundle;
use crate::model::*;

use super::error::LookupError;
use super::names::{FIRST_NAMES, by_similarity, closest, echo, nearest_first};
use super::set::BundleSet;

impl BundleSet {
    /// The manifest entry of component `name` (matched by key, so `DatePicker`, `date-picker` and `datepicker`
    /// are the same), else of the one component whose title has that key (a document named otherwise than its
    /// export: `doc radio` reads `radio-group`, documented by `radio.mdx` titled "Radio").
    ///
    /// # Errors
    /// [`LookupError::UnknownComponent`] with the closest names.
    pub fn component(&self, name: &str) -> Result<Arc<ComponentEntry>, LookupError> {
        if let Some(shared) = self.manifest.shared.as_ref().filter(|s| name.trim() == s.key) {
            return Ok(Arc::new(shared.clone()));
        }
        let key = component_key(name);
        if let Some((entry, _)) = self.lookup_entry(&key)? {
            return Ok(entry);
        }
        let comps = &self.manifest()?.components;
        // No key: the one component titled so (Chakra's `radio.mdx`, titled "Radio", documents `radio-group`).
        let titled = |c: &&ComponentEntry| c.title.as_deref().is_some_and(|t| component_key(t) == key);
        let by_title = || match comps.iter().filter(titled).collect::<Vec<_>>().as_slice() {
            [one] => Some(Arc::new((*one).clone())),
            _ => None,
        };
        let found = comps.binary_search_by(|c| c.key.as_str().cmp(&key)).map(|i| Arc::new(comps[i].clone()));
        found.or_else(|e| by_title().ok_or(e)).map_err(|_| {
            LookupError::UnknownComponent {
                name: echo(name),
                system: self.manifest.system.clone(),
                version: self.manifest.version.clone(),
                suggestions: {
                    // Titles too: `表格` is in Table's title "Table 表格".
                    let q = name.trim().to_lowercase();
                    let mut by_title: Vec<String> = comps
                        .iter()
                        .filter(|c| !q.is_empty() && c.title.as_ref().is_some_and(|t| t.to_lowercase().contains(&q)))
                        .map(|c| c.name.clone())
                        .take(5)
                        .collect();
                    if by_title.is_empty() {
                        by_title = closest(name, comps.iter().map(|c| c.name.as_str()), 5);
                    }
                    by_similarity(&[name], &mut by_title, |n| n.as_str());
                    by_title
                },
                // The nearest names first, when none is close enough to suggest.
                first: {
                    let mut names: Vec<&str> = comps.iter().map(|c| c.name.as_str()).collect();
                    by_similarity(&[name], &mut names, |n| n);
                    names.into_iter().take(FIRST_NAMES).map(str::to_string).collect()
                },
                known: comps.iter().filter(|c| !c.guide).count() as u32,
                guides: comps.iter().filter(|c| c.guide).count() as u32,
            }
        })
    }

    /// The metadata of component `name`: its `component` frame joined with every document's `doc-lists/<lang>`
    /// frame (format 10), decoded once and kept.
    ///
    /// # Errors
    /// Unknown component or a damaged bundle.
    pub fn component_meta(&self, name: &str) -> Result<(Arc<Bundle>, Arc<ComponentMeta>), LookupError> {
        let (bundle, head, whole) = self.component_head(name)?;
        if whole {
            return Ok((bundle, head));
        }
        let docs = (head.docs.iter())
            .map(|d| Ok(d.with_lists((*self.doc_lists(&bundle, &head.key, &d.lang)?).clone())))
            .collect::<Result<_, LookupError>>()?;
        let meta = Arc::new(ComponentMeta { docs, ..(*head).clone() });
        self.cache.metas.insert(head.key.clone(), meta.clone());
        Ok((bundle, meta))
    }

    /// The `component` frame of `name` as stored (every document's lists empty), or its whole metadata when that
    /// is kept already (then `true`): what a lookup of one document needs, beside that document's lists
    /// ([`BundleSet::doc_lists`]).
    pub(super) fn component_head(&self, name: &str) -> Result<(Arc<Bundle>, Arc<ComponentMeta>, bool), LookupError> {
        let entry = self.component(name)?;
        let bundle = self.bundle(&entry.bundle)?;
        if let Some(meta) = self.cache.metas.get(&entry.key) {
            return Ok((bundle, meta, true));
        }
        let head = self.cache.heads.get_or_load(entry.key.clone(), || bundle.get(keys::COMPONENT).map(Arc::new))?;
        Ok((bundle, head, false))
    }

    /// The lists of component `key`'s document in `lang`, from its `doc-lists/<lang>` frame, decoded once and kept.
    pub(super) fn doc_lists(&self, bundle: &Bundle, key: &str, lang: &str) -> Result<Arc<DocLists>, LookupError> {
        let id = (key.to_string(), lang.to_string());
        Ok(self.cache.doc_lists.get_or_load(id, || bundle.get(&keys::doc_lists(lang)).map(Arc::new))?)
    }

    /// A requested language as the set spells it: `zh-cn` → `zh-CN`, and `en` → `en-US` when one language of the
    /// set has that primary subtag; anything else is returned as given (the lookup then names what exists).
    pub(super) fn lang(&self, lang: Option<&str>) -> Option<String> {
        let want = lang?.trim();
        let langs = &self.manifest.langs;
        if let Some(l) = langs.iter().find(|l| l.eq_ignore_ascii_case(want)) {
            return Some(l.clone());
        }
        let primary = |l: &str| l.split(['-', '_']).next().unwrap_or(l).to_ascii_lowercase();
        let matches: Vec<&String> = langs.iter().filter(|l| primary(l) == primary(want)).collect();
        Some(if matches.len() == 1 { matches[0].clone() } else { want.to_string() })
    }

    /// [`LookupError::EmptyLang`] (naming the set's languages) when `lang` is given but empty or blank.
    fn check_empty_lang(&self, lang: Option<&str>) -> Result<(), LookupError> {
        match lang {
            Some(l) if l.trim().is_empty() => Err(LookupError::EmptyLang {
                available: self.manifest.langs.join(", "),
                default: self.manifest.default_lang.clone(),
            }),
            _ => Ok(()),
        }
    }

    /// Picks the document in `lang` (default: the set's default language, else the first the component has).
    pub(super) fn pick_doc<'m>(&self, meta: &'m ComponentMeta, lang: Option<&str>) -> Result<&'m DocMeta, LookupError> {
        self.check_empty_lang(lang)?;
        let lang = self.lang(lang);
        let lang = lang.as_deref();
        let want = lang.unwrap_or(&self.manifest.default_lang);
        let found = meta.docs.iter().find(|d| d.lang.eq_ignore_ascii_case(want));
        match (found, lang) {
            (Some(d), _) => Ok(d),
            (None, None) if !meta.docs.is_empty() => Ok(&meta.docs[0]),
            _ => Err(LookupError::NoDocument {
                component: meta.name.clone(),
                lang: echo(want),
                available: if meta.docs.is_empty() {
                    "none: it has only sources (their props tables: the section `props`; its files: `files`)".into()
                } else {
                    nearest_first(want, meta.docs.iter().map(|d| d.lang.as_str()))
                },
            }),
        }
    }

    /// [`BundleSet::pick_doc`], or for a component with no document at all (only sources: Chakra's `InputGroup`,
    /// the shared folders' `_shared`) a stand-in without text, sections or code blocks in `lang` (a language of the
    /// set, else its default one), from which its sources' props tables are served: TypeScript tables have no
    /// language.
    ///
    /// # Errors
    /// As [`BundleSet::pick_doc`] for a component with documents; [`LookupError::UnknownLang`] for a language the
    /// set does not have.
    pub(super) fn doc_or_sources<'m>(
        &self,
        meta: &'m ComponentMeta,
        lang: Option<&str>,
    ) -> Result<std::borrow::Cow<'m, DocMeta>, LookupError> {
        if !meta.docs.is_empty() {
            return self.pick_doc(meta, lang).map(std::borrow::Cow::Borrowed);
        }
        Ok(std::borrow::Cow::Owned(DocMeta {
            lang: self.components_lang(lang)?,
            path: String::new(),
            title: None,
            brief: None,
            import: None,
            card_tokens: 0,
            lines: 0,
            bytes: 0,
            tokens: 0,
            hidden: false,
            view_tokens: 0,
            code_blocks: vec![],
            sections: vec![],
            tables: vec![],
            generated: 0,
            import_tokens: 0,
        }))
    }

    /// The set's language `lang` names (an alias such as `en` resolved, case ignored), else the default one: what
    /// a component list reports sizes for and what `diff` and `changelog --since` read.
    ///
    /// # Errors
    /// [`LookupError::UnknownLang`] (naming the set's languages) when the set has no such language.
    pub(crate) fn components_lang(&self, lang: Option<&str>) -> Result<String, LookupError> {
        self.check_empty_lang(lang)?;
        let lang = self.lang(lang);
        let lang = lang.as_deref();
        let langs = &self.manifest.langs;
        let lang = match lang {
            None => self.manifest.default_lang.clone(),
            Some(l) => langs
                .iter()
                .find(|x| x.eq_ignore_ascii_case(l))
                .cloned()
                .ok_or_else(|| LookupError::UnknownLang { lang: echo(l), available: nearest_first(l, langs) })?,
        };
        Ok(lang)
    }
}
