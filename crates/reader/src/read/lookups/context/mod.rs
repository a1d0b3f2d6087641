//! `context Form Select DatePicker` (MCP `list_components` with `components`): several components in one budget
//! (issue 29 item 2). For each, its import line, the props that matter as rows (required, then those its
//! document's examples use most, by the `uses/<lang>` index), the rest by name, and one example: the smallest that
//! shows several of the asked components together when one exists (shown once, credited to each), else its own
//! smallest. [`share`] divides the budget. Every piece's tokens were stored at build time (rows and names:
//! `prop-sites`; import lines: the document's `import_tokens`; examples: their blocks'); only the labels (headings,
//! `Example …:`, `Other props:`) are bounded, by [`crate::budget::envelope_bound`]. No cursor: what is left out
//! is said in the header with the call that shows all.

mod share;

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::bundle::{Bundle, BundleError};
use crate::model::*;
use crate::view::{PropRow, import_line, name_entry, prop_line, story_of};

use crate::read::error::LookupError;
use crate::read::lookups::prop::{JOIN_TOKENS, block_title};
use crate::read::paging::Paging;
use crate::read::set::BundleSet;
use crate::read::views::{ContextPart, ContextView};
use share::{Candidate, Demand, Got, PropCost, RowCost};

/// The most components one `context` call takes: its header names each with what it got.
pub const MAX_CONTEXT_COMPONENTS: usize = 8;

/// The budget of a `context` answer when the call names none, in tokens.
pub const CONTEXT_MAX_TOKENS: u32 = 6_000;

/// Tokens each component beyond the third adds to the envelope (its summary in the header, its JSON object),
/// reserved beside [`crate::budget::ENVELOPE_TOKENS`] when the envelope is not measured.
const PER_COMPONENT_TOKENS: u32 = 45;

/// Example candidates priced per component: the shared ones, then its own.
const CANDIDATES: usize = 3;

/// One asked component, read.
struct Asked {
    meta: Arc<ComponentMeta>,
    doc: DocMeta,
    uses: Vec<BlockUses>,
    import: Option<String>,
    /// Tokens of `import` (stored; its bytes for a set before format 14).
    import_tokens: u32,
    /// Its props in answer order, each with its row, whether it matters, and its name's tokens.
    props: Vec<(PropRow, bool, PropCost)>,
    /// How many of `props` are required.
    required: usize,
}

/// A candidate's block and where it is.
struct Example {
    /// The asked component whose document holds it.
    holder: usize,
    block: CodeBlockMeta,
    code: String,
    label: String,
}

impl BundleSet {
    /// The context of `names` (component names in any spelling; repeats shown once) in `lang`, within the budget.
    ///
    /// # Errors
    /// No name or more than [`MAX_CONTEXT_COMPONENTS`]; an unknown component (naming the nearest); a component
    /// without a document in `lang`; a budget too small for every component's heading and import line
    /// ([`crate::budget::BudgetError::TooSmallForNames`]); a damaged bundle.
    pub fn context(&self, names: &[String], lang: Option<&str>, paging: Paging) -> Result<ContextView, LookupError> {
        let mut distinct: Vec<String> = names.iter().map(|n| component_key(n)).collect();
        distinct.sort_unstable();
        distinct.dedup();
        if names.is_empty() || distinct.len() > MAX_CONTEXT_COMPONENTS {
            return Err(LookupError::ContextCount { asked: distinct.len(), max: MAX_CONTEXT_COMPONENTS });
        }
        let mut asked: Vec<Asked> = Vec::new();
        for name in names {
            let (bundle, meta) = self.component_meta(name)?;
            if asked.iter().any(|a| a.meta.key == meta.key) {
                continue;
            }
            let doc = self.pick_doc(&meta, lang)?.clone();
            asked.push(self.asked(bundle, meta, doc)?);
        }
        if asked.is_empty() || asked.len() > MAX_CONTEXT_COMPONENTS {
            return Err(LookupError::ContextCount { asked: asked.len(), max: MAX_CONTEXT_COMPONENTS });
        }
        let echoed: Vec<(&str, u32)> = asked.iter().map(|a| (a.meta.name.as_str(), 4)).collect();
        let mut paging = self.echoing(paging, &echoed);
        if !paging.budget.measured {
            let extra = PER_COMPONENT_TOKENS * (asked.len() as u32).saturating_sub(3);
            paging.budget.echo = paging.budget.echo.saturating_add(extra);
        }
        let (examples, candidates, choices) = self.examples(&asked)?;
        let longest = asked.iter().map(|a| a.meta.name.as_str()).max_by_key(|n| n.len()).unwrap_or("");
        let demands: Vec<Demand> = asked.iter().zip(&choices).map(|(a, c)| demand(a, c.clone(), longest)).collect();
        let room = paging.budget.content();
        let got = share::share(room, &demands, &candidates).map_err(|needed| {
            crate::budget::BudgetError::TooSmallForNames {
                asked: paging.budget.max_tokens,
                request: format!(
                    "context of {}",
                    asked.iter().map(|a| a.meta.name.as_str()).collect::<Vec<_>>().join(", ")
                ),
                needed: paging.budget.max_tokens - room + needed,
            }
        })?;
        // All of it: every row whole, every example (each shown once), every name, beside this envelope.
        let whole: u32 = demands.iter().map(|d| d.base + d.names_label).sum::<u32>()
            + demands.iter().flat_map(|d| &d.props).map(|p| p.row.map_or(p.name, |r| r.full)).sum::<u32>()
            + whole_examples(&demands, &candidates);
        let envelope = paging.budget.max_tokens - room;
        let all_in = got.iter().zip(&demands).all(|(g, d)| complete(g, d));
        Ok(self.context_view(&asked, &examples, &got, (!all_in).then_some(whole + envelope)))
    }

    /// Component `meta`'s document `doc`, uses, import line and props in answer order with their costs.
    fn asked(&self, bundle: Arc<Bundle>, meta: Arc<ComponentMeta>, doc: DocMeta) -> Result<Asked, LookupError> {
        let uses: Vec<BlockUses> = optional(bundle.get(&keys::uses(&doc.lang)))?.unwrap_or_default();
        let tables = self.prop_tables(&bundle)?;
        let sites: Option<Vec<TableSites>> =
            optional(bundle.get(keys::PROP_SITES))?.filter(|s: &Vec<TableSites>| s.len() == tables.len());
        let import = doc.import.as_ref().map(|i| import_line(i));
        // Stored since format 14; by its bytes before (a token is never shorter than a byte).
        let import_tokens =
            import.as_ref().map_or(0, |i| if doc.import_tokens > 0 { doc.import_tokens } else { i.len() as u32 });
        let key = component_key(&meta.name);
        // How many of the document's examples set each prop on the component's element.
        let mut used: BTreeMap<&str, u32> = BTreeMap::new();
        for entry in uses.iter().flatten() {
            if let Some((element, attr)) = entry.rsplit_once('.')
                && !attr.contains(['>', '='])
                && component_key(element) == key
            {
                *used.entry(attr).or_default() += 1;
            }
        }
        let mut props: Vec<(PropRow, bool, PropCost, u32, usize)> = Vec::new();
        for t in own_tables(&tables, &meta.name, &doc.lang) {
            for (r, p) in tables[t].props.iter().enumerate() {
                if props.iter().any(|(row, ..)| row.prop.name == p.name) {
                    continue;
                }
                let site = sites.as_ref().and_then(|s| s.get(t)?.rows.get(r));
                let row = PropRow::new(&tables[t], p, site.and_then(|s| s.path.as_deref()), site.map_or(0, |s| s.line));
                let line = prop_line(&row);
                let mut short = row.clone();
                short.prop.description = None;
                let short_line = prop_line(&short);
                let esc = |s: &str| crate::budget::json_escapes(s) as u32;
                let (full, brief) =
                    site.map_or((line.len() as u32, short_line.len() as u32), |s| (s.text_tokens, s.short_tokens));
                let entry = name_entry(&p.name);
                let name = site.map(|s| s.name_tokens).filter(|&n| n > 0).unwrap_or(entry.len() as u32);
                let uses = used.get(p.name.as_str()).copied().unwrap_or(0);
                let matters = !p.optional || uses > 0;
                let cost = PropCost {
                    row: matters.then(|| RowCost {
                        full: full + JOIN_TOKENS + esc(&line),
                        short: brief + JOIN_TOKENS + esc(&short_line),
                    }),
                    name: name + esc(&entry),
                };
                let order = props.len();
                props.push((row, !p.optional, cost, uses, order));
            }
        }
        // Required first, then by use, most used first; the rest in table order.
        props.sort_by_key(|(_, required, cost, uses, order)| {
            (!required, cost.row.is_none(), std::cmp::Reverse(*uses), *order)
        });
        let required = props.iter().filter(|p| p.1).count();
        Ok(Asked {
            meta,
            doc,
            uses,
            import,
            import_tokens,
            props: props.into_iter().map(|(row, req, cost, ..)| (row, req, cost)).collect(),
            required,
        })
    }

    /// The example candidates of the asked components: the blocks of their documents that show two or more of
    /// them (most shown first, then smallest), then each one's own smallest. Returns the examples, their costs and
    /// coverage, and each component's candidates in preference order.
    #[allow(clippy::type_complexity)]
    fn examples(&self, asked: &[Asked]) -> Result<(Vec<Example>, Vec<Candidate>, Vec<Vec<usize>>), LookupError> {
        let keys: Vec<String> = asked.iter().map(|a| component_key(&a.meta.name)).collect();
        let shows = |u: &BlockUses| -> Vec<usize> {
            (0..asked.len())
                .filter(|&j| {
                    u.iter().any(|e| {
                        let element = e.split(['.', '=', '>']).next().unwrap_or(e);
                        component_key(element) == keys[j]
                    })
                })
                .collect()
        };
        // (holder, block index, covers)
        let mut shared: Vec<(usize, usize, Vec<usize>)> = Vec::new();
        let mut own: Vec<Vec<(usize, usize)>> = vec![Vec::new(); asked.len()];
        for (h, a) in asked.iter().enumerate() {
            for (b, u) in a.uses.iter().enumerate().take(a.doc.code_blocks.len()) {
                let covers = shows(u);
                if covers.len() >= 2 {
                    shared.push((h, b, covers));
                } else if covers == [h] {
                    own[h].push((h, b));
                }
            }
        }
        let size = |h: usize, b: usize| {
            let block = &asked[h].doc.code_blocks[b];
            (story_of(block).is_some(), block.tokens, b)
        };
        shared.sort_by_key(|(h, b, covers)| (std::cmp::Reverse(covers.len()), size(*h, *b), *h));
        let mut examples: Vec<Example> = Vec::new();
        let mut candidates: Vec<Candidate> = Vec::new();
        let mut add = |h: usize, b: usize, covers: Vec<usize>| -> Result<usize, LookupError> {
            if let Some(at) = examples.iter().position(|e| e.holder == h && e.block.index as usize == b + 1) {
                return Ok(at);
            }
            let block = asked[h].doc.code_blocks[b].clone();
            let code =
                self.code_block(&asked[h].meta.name, block.index, Some(&asked[h].doc.lang), Paging::unlimited())?.text;
            let title = block_title(&block).map_or(String::new(), |t| format!(" \"{}\"", cut(&t, 60)));
            let names: Vec<&str> = covers.iter().map(|&j| asked[j].meta.name.as_str()).collect();
            let shows = if covers.len() > 1 { format!(", shows {}", names.join(", ")) } else { String::new() };
            let label = format!("Example: code block {} of {}{title}{shows}:\n", block.index, asked[h].meta.name);
            let esc = |s: &str| crate::budget::json_escapes(s) as u32;
            let cost =
                crate::budget::envelope_bound(&label) + esc(&label) + block.tokens + esc(&code) + 2 * JOIN_TOKENS;
            examples.push(Example { holder: h, block, code, label });
            candidates.push(Candidate { cost, covers });
            Ok(examples.len() - 1)
        };
        let mut choices = vec![Vec::new(); asked.len()];
        for (i, mine) in own.iter_mut().enumerate() {
            for (h, b, covers) in shared.iter().filter(|(_, _, c)| c.contains(&i)).take(CANDIDATES) {
                choices[i].push(add(*h, *b, covers.clone())?);
            }
            mine.sort_by_key(|&(h, b)| size(h, b));
            for &(h, b) in mine.iter().take(CANDIDATES) {
                choices[i].push(add(h, b, vec![i])?);
            }
        }
        Ok((examples, candidates, choices))
    }

    /// The view of what `got` gives each asked component.
    fn context_view(&self, asked: &[Asked], examples: &[Example], got: &[Got], whole_at: Option<u32>) -> ContextView {
        let mut text = String::new();
        let mut parts = Vec::new();
        for (i, (a, g)) in asked.iter().zip(got).enumerate() {
            text.push_str(&heading(&a.meta.name));
            text.extend(a.import.clone());
            for (p, (row, ..)) in a.props.iter().enumerate() {
                match g.rows[p] {
                    Some(false) => text.push_str(&prop_line(row)),
                    Some(true) => {
                        let mut short = row.clone();
                        short.prop.description = None;
                        text.push_str(&prop_line(&short));
                    }
                    None => {}
                }
            }
            let example = g.example.map(|(c, here)| (&examples[c], here));
            match example {
                Some((e, true)) => {
                    text.push_str(&e.label);
                    text.push_str(&e.code);
                    if !e.code.ends_with('\n') {
                        text.push('\n');
                    }
                }
                Some((e, false)) => {
                    let shown = got.iter().position(|o| o.example == Some((g.example.unwrap().0, true))).unwrap_or(i);
                    text.push_str(&reference(e.block.index, &asked[e.holder].meta.name, &asked[shown].meta.name));
                }
                None => {}
            }
            let unlisted: Vec<&str> =
                (0..a.props.len()).filter(|&p| g.rows[p].is_none()).map(|p| a.props[p].0.prop.name.as_str()).collect();
            if g.names > 0 {
                text.push_str("Other props:");
                for name in &unlisted[..g.names] {
                    text.push_str(&name_entry(name));
                }
                let left = unlisted.len() - g.names;
                if left > 0 {
                    text.push_str(&format!(" … and {left} more"));
                } else {
                    // The last entry's comma: the list ends there.
                    text.pop();
                }
                text.push('\n');
            }
            let rows = g.rows.iter().filter(|r| r.is_some()).count() as u32;
            parts.push(ContextPart {
                component: a.meta.name.clone(),
                lang: a.doc.lang.clone(),
                tokens: g.tokens,
                import: a.import.is_some(),
                rows,
                required: a.required as u32,
                names: g.names as u32,
                props: a.props.len() as u32,
                example: example.map(|(e, _)| e.block.index),
                example_of: example.filter(|(e, _)| e.holder != i).map(|(e, _)| asked[e.holder].meta.name.clone()),
            });
        }
        ContextView {
            served: self.served(),
            tokens: parts.iter().map(|p| p.tokens).sum(),
            components: parts,
            whole_at,
            text,
        }
    }
}

/// A frame that older sets may not have: `None` when missing.
fn optional<T>(r: Result<T, BundleError>) -> Result<Option<T>, LookupError> {
    match r {
        Ok(v) => Ok(Some(v)),
        Err(BundleError::MissingFrame { .. }) => Ok(None),
        Err(e) => Err(e.into()),
    }
}

/// The indexes of `tables` that are component `name`'s own in `lang`: the document tables (else the sources'
/// types) named after it (`Form`, `FormProps`, `Form Props`), else the first table of the document (else of the
/// sources). A document's other tables are its parts' (`Form.Input`, `ArrayField`), asked by name with `prop`.
fn own_tables(tables: &[PropsTable], name: &str, lang: &str) -> Vec<usize> {
    let key = component_key(name);
    let named = |t: &PropsTable| {
        let k = component_key(&t.name);
        k == key || k.strip_suffix("props") == Some(key.as_str()) || k.strip_suffix("api") == Some(key.as_str())
    };
    let docs: Vec<usize> = (0..tables.len())
        .filter(|&i| tables[i].origin == PropsOrigin::Document && tables[i].lang.as_deref() == Some(lang))
        .collect();
    let sources: Vec<usize> = (0..tables.len()).filter(|&i| tables[i].origin == PropsOrigin::Typescript).collect();
    for scope in [docs, sources] {
        let own: Vec<usize> = scope.iter().copied().filter(|&i| named(&tables[i])).collect();
        if !own.is_empty() {
            return own;
        }
        if let Some(&first) = scope.first() {
            return vec![first];
        }
    }
    Vec::new()
}

/// What component `a` needs, its example candidates `examples` (`longest`: the longest name asked, which a
/// reference to another's example may print twice).
fn demand(a: &Asked, examples: Vec<usize>, longest: &str) -> Demand {
    let esc = |s: &str| crate::budget::json_escapes(s) as u32;
    let head = heading(&a.meta.name);
    let import = a.import.as_deref().map_or(0, |i| a.import_tokens + esc(i));
    Demand {
        base: crate::budget::envelope_bound(&head) + esc(&head) + import + JOIN_TOKENS,
        props: a.props.iter().map(|(_, _, c)| *c).collect(),
        before_example: a.required,
        names_label: crate::budget::envelope_bound("Other props: … and 9999 more\n") + JOIN_TOKENS,
        examples,
        reference: crate::budget::envelope_bound(&reference(9999, longest, longest)) + JOIN_TOKENS,
    }
}

/// Tokens of every example shown once each: the first candidate of each component, shared ones counted once.
fn whole_examples(demands: &[Demand], candidates: &[Candidate]) -> u32 {
    let mut shown: Vec<usize> = demands.iter().filter_map(|d| d.examples.first().copied()).collect();
    shown.sort_unstable();
    shown.dedup();
    shown.iter().map(|&c| candidates[c].cost).sum::<u32>() + demands.iter().map(|d| d.reference).sum::<u32>()
}

/// Whether `g` holds all `d` asks for: every row that matters whole, an example when there is one, every name.
fn complete(g: &Got, d: &Demand) -> bool {
    let rows = d.props.iter().zip(&g.rows).all(|(p, r)| p.row.is_none() || *r == Some(false));
    let names = g.rows.iter().filter(|r| r.is_none()).count() == g.names;
    rows && names && (d.examples.is_empty() || g.example.is_some())
}

/// A component's heading in a `context` answer.
fn heading(name: &str) -> String {
    format!("## {name}\n")
}

/// The line of a component whose example is shown under another.
fn reference(index: u32, holder: &str, shown: &str) -> String {
    format!("Example: code block {index} of {holder}, shown under {shown} above.\n")
}

/// `text` cut to `max` characters, with `…` when cut.
fn cut(text: &str, max: usize) -> String {
    let one = text.replace(['\n', '\r'], " ");
    match one.char_indices().nth(max) {
        Some((at, _)) => format!("{}…", &one[..at]),
        None => one,
    }
}
