//! `prop` (MCP `component_details` with `prop`): one prop of a component, joined from what the build stored: its
//! row in each table that has it (the document's API table, the TypeScript type with its JSDoc tags and the line
//! declaring it), and the smallest example of the document that uses it (issue 29 item 1). Served whole within
//! the budget: what does not fit is left out in a stated order (the rows' structured copies, the example's code,
//! then rows after the first), each named with the budget that shows it.

use crate::bundle::BundleError;
use crate::model::*;
use crate::view::{PropRow, prop_line};

use crate::read::error::LookupError;
use crate::read::names::{echo, nearest};
use crate::read::paging::Paging;
use crate::read::set::BundleSet;
use crate::read::views::{ExampleRef, PropView};

/// Tokens a `prop` answer's text keeps for its header line and the example's label, with names of up to
/// [`crate::budget::ECHO_FREE_BYTES`] bytes (longer ones, and the set's names, are reserved by their bytes:
/// the set's echo reserve). Beside it, [`PROP_LEFT_OUT_TOKENS`] when something is left out. Smaller than [`crate::budget::ENVELOPE_TOKENS`]: a `prop`
/// answer has no cursor, and at its default 300 tokens that envelope would leave no room for an example.
/// `tests/it/prop.rs` and `tests/it/sweep.rs` tokenize every answer of Semi's, Arco's, Chakra's and the sample's
/// Button and Table with tiktoken.
pub const PROP_HEADER_TOKENS: u32 = 60;

/// Tokens of the line naming what was left out and the call that shows all (the CLI's, with `--system`,
/// `--version` and `--lang`).
pub const PROP_LEFT_OUT_TOKENS: u32 = 55;

/// The budget of a `prop` answer when the call names none, in tokens: one row and a small example.
pub const PROP_MAX_TOKENS: u32 = 300;

/// Tokens allowed for each join of pieces whose counts were stored apart (a row and the next, the label and the
/// code): the pieces meet at a line start, where the pre-tokenizer splits, plus a token of slack.
pub(crate) const JOIN_TOKENS: u32 = 2;

/// Tokens of the header's note that the prop was matched without case (`asked \`Loading\`, matched without case`),
/// its echo of the asked name reserved apart.
const CASE_NOTE_TOKENS: u32 = 12;

/// Props named in an unknown-prop error.
const NEAREST: usize = 6;

/// One table's row of the prop with its stored counts (text, JSON), or bounds by bytes for a set without them.
struct Found {
    row: PropRow,
    text: u32,
    /// Tokens of its line without the description.
    short: u32,
    json: u32,
}

impl BundleSet {
    /// Prop `path` of component `name` (`loading`, or `columns.sorter` to follow the prop's type to the props table
    /// of that type), with the document's rows in `lang`.
    ///
    /// # Errors
    /// Unknown component, no document in that language, [`LookupError::UnknownProp`] naming the nearest props,
    /// [`LookupError::NotNested`] when the prop's type has no stored table, a budget too small for the first row,
    /// damaged bundle.
    pub fn prop(&self, name: &str, path: &str, lang: Option<&str>, paging: Paging) -> Result<PropView, LookupError> {
        let (bundle, meta) = self.component_meta(name)?;
        // A component with only sources: its sources' rows, no example (a stand-in document without blocks).
        let doc = self.doc_or_sources(&meta, lang)?;
        let doc = doc.as_ref();
        let tables = self.prop_tables(&bundle)?;
        let sites = match bundle.get::<Vec<TableSites>>(keys::PROP_SITES) {
            Ok(s) if s.len() == tables.len() => Some(s),
            Ok(_) | Err(BundleError::MissingFrame { .. }) => None,
            Err(e) => return Err(e.into()),
        };
        let in_lang = |t: &PropsTable| t.origin == PropsOrigin::Typescript || t.lang.as_deref() == Some(&doc.lang);
        // A row may be named with dots itself (Semi's `virtualized.itemSize`): then it is one segment.
        let own_scope: Vec<usize> = (0..tables.len()).filter(|&i| in_lang(&tables[i])).collect();
        let segments: Vec<&str> = if find_rows(&tables, &own_scope, path.trim()).is_empty() {
            path.split('.').map(str::trim).collect()
        } else {
            vec![path.trim()]
        };
        if segments.iter().any(|s| s.is_empty()) {
            return Err(self.unknown_prop(&meta.name, path, tables.iter().filter(|t| in_lang(t))));
        }
        // The tables searched for the first segment: the component's own (a document's, else the sources'); a
        // later segment searches the tables named by the type of the rows found so far.
        let mut scope = own_scope;
        let mut hits: Vec<(usize, usize)> = Vec::new();
        // Each segment as its table spells it.
        let mut names: Vec<String> = Vec::new();
        for (depth, segment) in segments.iter().enumerate() {
            if depth > 0 {
                let types: Vec<String> = hits.iter().map(|&(t, r)| tables[t].props[r].type_text.clone()).collect();
                scope = nested_tables(&tables, &types, &in_lang);
                if scope.is_empty() {
                    let asked = segments[..depth].join(".");
                    return Err(LookupError::NotNested {
                        component: meta.name.clone(),
                        prop: echo(&asked),
                        types: types.join(" / "),
                    });
                }
            }
            hits = find_rows(&tables, &scope, segment);
            let mut spelt: Vec<&str> = hits.iter().map(|&(t, r)| tables[t].props[r].name.as_str()).collect();
            spelt.sort_unstable();
            spelt.dedup();
            // Matched but for case: read as the one prop so spelt, else (`onChange` and `onchange`) ask which.
            if spelt.len() != 1 {
                let asked = segments[..=depth].join(".");
                return Err(self.unknown_prop(&meta.name, &asked, scope.iter().map(|&i| &tables[i])));
            }
            names.push(spelt[0].to_string());
        }
        let asked = segments.join(".");
        let segments: Vec<&str> = names.iter().map(String::as_str).collect();
        // Documents' rows first (they are what the design system says), then the sources'. Of the sources', the
        // component's own type (`TableProps`) when it has the prop, not the internal parts' (`TableBodyProps`).
        let own = format!("{}props", component_key(&meta.name));
        let is_own = |t: usize| tables[t].origin == PropsOrigin::Typescript && component_key(&tables[t].name) == own;
        if segments.len() == 1 && hits.iter().any(|&(t, _)| is_own(t)) {
            hits.retain(|&(t, _)| tables[t].origin == PropsOrigin::Document || is_own(t));
        }
        hits.sort_by_key(|&(t, _)| (tables[t].origin != PropsOrigin::Document, t));
        let found: Vec<Found> = hits
            .iter()
            .map(|&(t, r)| {
                let site = sites.as_ref().and_then(|s| s.get(t)?.rows.get(r).cloned());
                let (p, l) = site.as_ref().map_or((None, 0), |s| (s.path.as_deref(), s.line));
                let row = PropRow::new(&tables[t], &tables[t].props[r], p, l);
                // Without stored counts (a format-11 set), a token per byte of the row and its JSON.
                let text = site.as_ref().map_or_else(|| prop_line(&row).len() as u32, |s| s.text_tokens);
                let json = site.as_ref().map_or_else(
                    || serde_json::to_string(&row).map_or(u32::MAX / 4, |j| j.len() as u32),
                    |s| s.json_tokens,
                );
                let short = site.as_ref().map_or_else(
                    || {
                        let mut short = row.clone();
                        short.prop.description = None;
                        prop_line(&short).len() as u32
                    },
                    |s| s.short_tokens,
                );
                Found { row, text, short, json }
            })
            .collect();
        let asked = (asked != segments.join(".")).then(|| echo(&asked));
        self.prop_answer(&bundle, &meta, doc, (&segments, asked), found, paging)
    }

    /// The answer for the rows `found`: what fits the budget, the smallest example of the first segment.
    fn prop_answer(
        &self,
        bundle: &crate::bundle::Bundle,
        meta: &ComponentMeta,
        doc: &DocMeta,
        (segments, asked): (&[&str], Option<String>),
        found: Vec<Found>,
        paging: Paging,
    ) -> Result<PropView, LookupError> {
        let prop = segments.join(".");
        // The examples using the prop: the blocks whose uses name it on the component's element, smallest first.
        let uses: Vec<BlockUses> = match bundle.get(&keys::uses(&doc.lang)) {
            Ok(u) => u,
            Err(BundleError::MissingFrame { .. }) => vec![],
            Err(e) => return Err(e.into()),
        };
        // A nested path is used where an object literal's key is the last segment inside the value of the ones
        // before it (`Table.columns>sorter`), not where the first segment alone is set.
        let using = blocks_using(&uses, &doc.code_blocks, &meta.name, &segments.join(">"));
        let example = match using.first() {
            Some(&i) => {
                let b = &doc.code_blocks[i];
                let text = self.code_block(&meta.name, b.index, Some(&doc.lang), Paging::unlimited())?.text;
                Some((b, text))
            }
            None => None,
        };
        let title = example.as_ref().and_then(|(b, _)| block_title(b));
        let names = [
            (meta.name.as_str(), 4),
            (prop.as_str(), 3),
            (title.as_deref().unwrap_or(""), 2),
            (asked.as_deref().unwrap_or(""), 1),
        ];
        let note = if asked.is_some() { CASE_NOTE_TOKENS } else { 0 };
        let paging = self.echoing(paging, &names);
        // The text repeats the names in its header and call (reserved by the echo); the JSON bound counts them
        // by their bytes itself.
        let room = paging.budget.max_tokens.saturating_sub(paging.budget.echo);
        let json_room = paging.budget.max_tokens;
        let served = self.served();
        let all = found.len();
        let has_code = example.is_some();
        let counts = (all as u32, using.len() as u32, paging.budget.max_tokens);
        let json_meta = |rows: usize, listed: bool, with_code: bool, cut: bool| {
            let left = left_out(all - rows, has_code && !with_code, !listed, cut);
            let block = example.as_ref().map(|(b, _)| *b);
            json_meta_bound(&served, meta, (&prop, asked.as_deref()), doc, (block, title.as_deref()), left, counts)
        };
        let label = example.as_ref().map_or(0, |(b, _)| example_label(b.index).len() as u32);
        // The sizes of each choice: rows shown (a prefix), rows listed structured, the example's code shown.
        let text_of = |rows: usize| found[..rows].iter().map(|f| f.text + JOIN_TOKENS).sum::<u32>();
        let escapes_of = |rows: usize| {
            found[..rows].iter().map(|f| crate::budget::json_escapes(&prop_line(&f.row)) as u32).sum::<u32>()
        };
        let json_of = |rows: usize| found[..rows].iter().map(|f| f.json + JOIN_TOKENS).sum::<u32>();
        let code_escapes = example.as_ref().map_or(0, |(_, t)| crate::budget::json_escapes(t) as u32);
        let code = example.as_ref().map_or(0, |(b, _)| b.tokens + JOIN_TOKENS + label);
        // Text and JSON, each with what it writes around the stored pieces.
        let size = |rows: usize, listed: bool, with_code: bool| {
            let text = text_of(rows) + if with_code { code } else { 0 };
            let left_out = rows < all || (has_code && !with_code);
            let envelope = PROP_HEADER_TOKENS + note + if left_out { PROP_LEFT_OUT_TOKENS } else { 0 };
            // The JSON carries the text (escaped) and, when listed, the rows' structured copies.
            let json = text
                + escapes_of(rows)
                + if with_code { code_escapes } else { 0 }
                + if listed { json_of(rows) } else { 0 };
            (text, text + envelope, json + json_meta(rows, listed, with_code, false))
        };
        let fits = |rows, listed, with_code| {
            let (_, t, j) = size(rows, listed, with_code);
            t <= room && j <= json_room
        };
        // Left out first: the rows' structured copies, then rows after the first (the document's and the source's
        // rows mostly say the same), then the example's code.
        let choices = [
            (all, true, has_code),
            (all, false, has_code),
            (1, false, has_code),
            (all, false, false),
            (1, false, false),
        ];
        let chosen = choices.iter().find(|&&(r, l, c)| fits(r, l, c)).copied();
        let (rows, listed, with_code) = chosen.unwrap_or((1, false, false));
        // Last: the first row with its description cut to what is left (by its bytes: a token is never shorter).
        // The first row's line when even it does not fit: its description cut to what is left, else the line
        // itself (a type of hundreds of tokens), counted by the kept bytes (a token is never shorter than a byte),
        // with the tokens it states.
        let cut: Option<(String, u32)> = match chosen {
            Some(_) => None,
            None => {
                let (_, t, j) = size(1, false, false);
                let too_small = || -> LookupError {
                    crate::budget::BudgetError::TooSmallForNames {
                        asked: paging.budget.max_tokens,
                        request: format!("prop {}.{prop}", meta.name),
                        needed: (t + paging.budget.echo).max(j),
                    }
                    .into()
                };
                let envelope = PROP_LEFT_OUT_TOKENS + PROP_HEADER_TOKENS + note;
                let json_meta = json_meta(1, false, false, true);
                let line = found[0].short + JOIN_TOKENS + 8;
                // The JSON escapes the kept bytes too (at most one byte more each).
                let keep = room.saturating_sub(line + envelope).min(json_room.saturating_sub(line + json_meta) / 2);
                let about = found[0].row.prop.description.as_deref().unwrap_or("").trim();
                let mut short = found[0].row.clone();
                short.prop.description = None;
                let short = prop_line(&short);
                if !about.is_empty() && keep >= 16 {
                    let kept = cut_at(about, keep as usize);
                    let tokens = line + kept.len() as u32;
                    Some((format!("{}. {kept}…\n", short.trim_end_matches('\n')), tokens))
                } else {
                    // From the declaration on (`name?: type`): the table and path are in the rows a larger budget
                    // shows.
                    let keep = room.saturating_sub(envelope + 8).min(json_room.saturating_sub(json_meta + 8) / 2);
                    let decl = short.find('`').map_or(short.as_str(), |at| &short[at..]);
                    if keep < 24 {
                        return Err(too_small());
                    }
                    let kept = cut_at(decl, keep as usize);
                    Some((format!("- {}…\n", kept.trim_end_matches('\n')), kept.len() as u32 + 8))
                }
            }
        };
        let whole = {
            let (_, t, j) = size(all, true, has_code);
            (t + paging.budget.echo).max(j)
        };
        let mut text: String = match &cut {
            Some((line, _)) => line.clone(),
            None => found[..rows].iter().map(|f| prop_line(&f.row)).collect(),
        };
        if let (true, Some((b, code))) = (with_code, &example) {
            text.push_str(&example_label(b.index));
            text.push_str(code);
            if !code.ends_with('\n') {
                text.push('\n');
            }
        }
        let left_out = left_out(all - rows, has_code && !with_code, !listed, cut.is_some());
        // The stated size: the stored counts, the example's label and a cut description by their bytes.
        let tokens = match &cut {
            Some((_, tokens)) => *tokens,
            None => size(rows, listed, with_code).0,
        };
        Ok(PropView {
            served: self.served(),
            component: meta.name.clone(),
            prop,
            asked,
            lang: doc.lang.clone(),
            tokens,
            rows: if listed { found[..rows].iter().map(|f| f.row.clone()).collect() } else { vec![] },
            rows_total: all as u32,
            unlisted_rows: if listed { 0 } else { rows as u32 },
            example: example.map(|(b, _)| ExampleRef::new(b, title, with_code)),
            examples_using: using.len() as u32,
            left_out,
            whole_at: (whole > paging.budget.max_tokens).then_some(whole),
            text,
        })
    }

    /// Every props table of the component: the documents' (or, without them, the sources'), then the sources'
    /// kept beside the documents'.
    pub(crate) fn prop_tables(&self, bundle: &crate::bundle::Bundle) -> Result<Vec<PropsTable>, LookupError> {
        let mut tables = self.props_of(bundle)?;
        match bundle.get::<Vec<PropsTable>>(keys::PROPS_TYPESCRIPT) {
            Ok(t) => tables.extend(t),
            Err(BundleError::MissingFrame { .. }) => {}
            Err(e) => return Err(e.into()),
        }
        Ok(tables)
    }

    /// Prop `asked` of component `meta` as its tables in `lang` (and the sources') spell it (`Loading` is
    /// `loading` when one prop matches without case); `None` when the component has no props table to check it
    /// against.
    ///
    /// # Errors
    /// [`LookupError::UnknownProp`] naming the nearest props; a damaged bundle.
    pub(crate) fn prop_spelling(
        &self,
        bundle: &crate::bundle::Bundle,
        meta: &ComponentMeta,
        lang: &str,
        asked: &str,
    ) -> Result<Option<String>, LookupError> {
        let tables = self.prop_tables(bundle)?;
        let scope: Vec<usize> = (0..tables.len())
            .filter(|&i| tables[i].origin == PropsOrigin::Typescript || tables[i].lang.as_deref() == Some(lang))
            .collect();
        if scope.iter().all(|&i| tables[i].props.is_empty()) {
            return Ok(None);
        }
        let mut spelt: Vec<&str> =
            find_rows(&tables, &scope, asked).iter().map(|&(t, r)| tables[t].props[r].name.as_str()).collect();
        spelt.sort_unstable();
        spelt.dedup();
        match spelt[..] {
            [one] => Ok(Some(one.to_string())),
            _ => Err(self.unknown_prop(&meta.name, asked, scope.iter().map(|&i| &tables[i]))),
        }
    }

    /// The unknown-prop error for `asked`, naming the nearest props of `tables`.
    fn unknown_prop<'t>(
        &self,
        component: &str,
        asked: &str,
        tables: impl Iterator<Item = &'t PropsTable>,
    ) -> LookupError {
        let mut names: Vec<&str> = tables.flat_map(|t| t.props.iter().map(|p| p.name.as_str())).collect();
        names.sort_unstable();
        names.dedup();
        let last = asked.rsplit('.').next().unwrap_or(asked);
        let nearest = nearest(last, names.iter().copied(), NEAREST);
        LookupError::UnknownProp { component: component.to_string(), prop: echo(asked), known: names.len(), nearest }
    }
}

/// The rows named `name` in the tables `scope`: exact names first, else names equal but for case.
fn find_rows(tables: &[PropsTable], scope: &[usize], name: &str) -> Vec<(usize, usize)> {
    let rows = |same: &dyn Fn(&str) -> bool| -> Vec<(usize, usize)> {
        scope
            .iter()
            .flat_map(|&t| tables[t].props.iter().enumerate().filter(|(_, p)| same(&p.name)).map(move |(r, _)| (t, r)))
            .collect()
    };
    let exact = rows(&|n| n == name);
    if exact.is_empty() { rows(&|n| n.eq_ignore_ascii_case(name)) } else { exact }
}

/// The tables a prop's types name (`ColumnProps[]`, `Array<ColumnProps<T>>`, `TableProps['columns']` are read as
/// the type names they hold): a TypeScript table of that name, or a document's table whose heading is the name
/// without `Props` (Semi's `Column` for `ColumnProps`), in the tables' order.
fn nested_tables(tables: &[PropsTable], types: &[String], in_lang: &dyn Fn(&PropsTable) -> bool) -> Vec<usize> {
    let names: Vec<&str> = types
        .iter()
        .flat_map(|t| t.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')))
        .filter(|w| w.starts_with(|c: char| c.is_ascii_uppercase()))
        .collect();
    let key = |s: &str| component_key(s.strip_suffix("Props").unwrap_or(s));
    (0..tables.len())
        .filter(|&i| in_lang(&tables[i]))
        .filter(|&i| names.iter().any(|n| tables[i].name == *n || key(&tables[i].name) == key(n)))
        .collect()
}

/// The indexes of the blocks whose uses name `prop` (`loading`, or a nested `columns>sorter`) on the component
/// `component`'s element: the document's own
/// examples before the stories beside it, each smallest first (by tokens, then document order).
pub(crate) fn blocks_using(uses: &[BlockUses], blocks: &[CodeBlockMeta], component: &str, prop: &str) -> Vec<usize> {
    let key = component_key(component);
    let names = |u: &BlockUses| {
        u.iter().any(|entry| {
            entry
                .split_once('=')
                .map_or(entry.as_str(), |(k, _)| k)
                .rsplit_once('.')
                .is_some_and(|(element, attr)| attr == prop && component_key(element) == key)
        })
    };
    let mut found: Vec<usize> =
        uses.iter().enumerate().filter(|(i, u)| *i < blocks.len() && names(u)).map(|(i, _)| i).collect();
    // The document's own examples first: a story beside it (an `@self` import, a story's harness) is the
    // developers' test of the component, not what the docs show.
    found.sort_by_key(|&i| (crate::view::story_of(&blocks[i]).is_some(), blocks[i].tokens, i));
    found
}

/// A block's title: its demo's, else the heading above it.
pub(crate) fn block_title(b: &CodeBlockMeta) -> Option<String> {
    b.demo.as_ref().and_then(|d| d.title.clone()).filter(|t| !t.is_empty()).or_else(|| b.heading.clone())
}

/// The label before an example's code in a `prop` answer.
fn example_label(index: u32) -> String {
    format!("Example (code block {index}):\n")
}

/// What a `prop` answer left out, as its `left_out` says it.
fn left_out(rows: usize, code: bool, structured: bool, description: bool) -> Vec<String> {
    let mut out = Vec::new();
    if rows > 0 {
        out.push(format!("{rows} more row{}", if rows == 1 { "" } else { "s" }));
    }
    if code {
        out.push("the example's code".to_string());
    }
    if structured {
        out.push("the rows' structured copies (JSON `rows`)".to_string());
    }
    if description {
        out.push("the end of the row".to_string());
    }
    out
}

/// An upper bound of the tokens of a `prop` answer's JSON fields but `text` and `rows`: the JSON they make with
/// `left_out`, the counts as they are and the sizes at their largest, by [`crate::budget::bound`] plus a tenth (as a props table's), and
/// the names read from the sources (system, version, component, prop, title, language) by their bytes.
fn json_meta_bound(
    served: &crate::read::views::Served,
    meta: &ComponentMeta,
    (prop, asked): (&str, Option<&str>),
    doc: &DocMeta,
    (block, title): (Option<&CodeBlockMeta>, Option<&str>),
    left_out: Vec<String>,
    (rows, using, max_tokens): (u32, u32, u32),
) -> u32 {
    let skeleton = PropView {
        served: crate::read::views::Served { system: String::new(), version: String::new(), note: None },
        component: String::new(),
        prop: String::new(),
        asked: asked.map(|_| String::new()),
        lang: String::new(),
        tokens: max_tokens,
        rows: vec![],
        rows_total: rows,
        unlisted_rows: rows,
        example: block.map(|b| ExampleRef::new(b, title.map(|_| String::new()), false)),
        examples_using: using,
        left_out,
        whole_at: Some(u32::MAX),
        text: String::new(),
    };
    let own = serde_json::to_string(&skeleton).map_or(u32::MAX / 4, |j| crate::budget::bound(&j));
    let names = [
        served.system.as_str(),
        &served.version,
        served.note.as_deref().unwrap_or(""),
        &meta.name,
        prop,
        asked.unwrap_or(""),
        &doc.lang,
        title.unwrap_or(""),
    ];
    let bytes: usize = names.iter().map(|n| n.len() + crate::budget::json_escapes(n)).sum();
    own + own / 10 + bytes as u32
}

/// The longest start of `text` of at most `max` bytes that ends at a character boundary.
fn cut_at(text: &str, max: usize) -> String {
    let mut end = max.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text[..end].to_string()
}
