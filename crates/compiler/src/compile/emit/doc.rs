//! One document compiled: examples expanded and demos read, parsed, counted (sections, blocks, tables, the
//! placeholder view stored as the frame's lead), its search units and props tables.

use std::collections::BTreeMap;

use super::component::import_statement;
use super::load::{ReadProblem, load_demos, read_text};
use super::{CompiledDoc, Ctx};
use crate::bundle::format::Lead;
use crate::bundle::writer::Frame;
use crate::compile::diagnostic::{Diagnostic, Stage};
use crate::compile::examples::{self, fence_demo};
use crate::compile::markdown;
use crate::compile::walk::WalkedFile;
use crate::model::*;
use crate::search::index::{self as search_index, DocSource};
use crate::view::placeholder_view_layout;

/// What a document served as its placeholder `view` stores (format 9): the view, then the text of each hidden
/// block and table (`replaced`, from [`placeholder_view_layout`]), and the [`Lead`] that splices the document back.
fn view_lead(view: String, text: &str, replaced: &[[usize; 4]]) -> (String, Lead) {
    let mut stored = view;
    let bytes = stored.len() as u32;
    let mut spans = Vec::with_capacity(replaced.len() * 3);
    for &[start, end, at, to] in replaced {
        stored.push_str(&text[start..end]);
        spans.extend([at as u32, to as u32, (end - start) as u32]);
    }
    (stored, Lead { bytes, spans })
}

pub(super) fn compile_doc(
    ctx: &Ctx,
    key: &str,
    name: &str,
    lang: &str,
    f: &WalkedFile,
    typescript: &[String],
) -> Option<CompiledDoc> {
    let text = read_doc(ctx, f)?;
    compile_doc_text(ctx, key, name, lang, f, text, typescript, None)
}

/// The text of a document file, or `None` with the problem reported.
fn read_doc(ctx: &Ctx, f: &WalkedFile) -> Option<String> {
    match read_text(f, ctx.config.walk.max_file_bytes) {
        Ok(t) => Some(t),
        Err(ReadProblem::Binary) => {
            ctx.report(Diagnostic::new(
                f.rel.clone(),
                Stage::Read,
                "binary file where a document was expected; skipped",
            ));
            None
        }
        Err(ReadProblem::Skip(d)) => {
            ctx.report(d);
            None
        }
    }
}

/// The document of a component that has none but has stories (a Storybook-only design system, a component no page
/// documents): a title, a line saying so, then its stories under "Stories", each a heading with its title and its
/// code as a fenced block (format 14: `DocMeta::generated` counts them), in the set's default language, under the
/// first story file's path. The stories are the text here, not beside it as with a written document: there is no
/// file to keep as written, and `--detail full` must show them. `None` when the component has no story.
pub(super) fn compile_story_doc(ctx: &Ctx, key: &str, name: &str) -> Option<CompiledDoc> {
    let files = ctx.examples.story_files_of(key);
    let first = files.first()?;
    let title = ctx.examples.story_component_of(key).unwrap_or_else(|| name.to_string());
    let listed: Vec<String> = files.iter().map(|f| format!("`{}`", f.rel)).collect();
    let mut text = format!(
        "# {title}\n\n{title} has no document in this repository. Its examples below are its Storybook stories, \
         from {}.\n",
        listed.join(", ")
    );
    let f = (*first).clone();
    // The stories as they would join a written document, then written into the text.
    let mut probe = markdown::parse_as(&text, markdown::Syntax::CommonMark);
    let attached = examples::beside::attach(ctx.examples, key, &f.rel, &text, &mut probe);
    let mut written = Vec::new();
    text.push_str(&format!("\n## {}\n", examples::beside::STORIES));
    for b in probe.code_blocks {
        let (Some(demo), Some(code)) = (b.meta.demo, b.code) else { continue };
        let heading = demo.title.clone().unwrap_or_else(|| b.meta.index.to_string());
        text.push_str(&format!("\n### {}\n\n", heading.replace('\n', " ")));
        written.push(examples::Example { at: text.len(), meta: demo });
        text.push_str(&fence_demo(&code, &b.meta.lang));
        text.push('\n');
    }
    let generated = Generated { examples: written, attached };
    compile_doc_text(ctx, key, name, ctx.default_lang, &f, text, &[], Some(generated))
}

/// A document the compiler wrote ([`compile_story_doc`]): its examples (already in its text) and what attaching
/// them read.
struct Generated {
    examples: Vec<examples::Example>,
    attached: examples::beside::Attached,
}

/// A document's text as stored, parsed: examples expanded (a written document) or marked (a generated one), demos
/// read, stories attached beside a written document's text; with the files read (`deps`), and where the stored
/// text's lines come from in the file (`None` when it is the file as written).
struct Parsed {
    text: String,
    doc: markdown::Document,
    deps: Vec<crate::compile::cache::Dependency>,
    source_lines: Option<Vec<(usize, u32)>>,
}

fn parse_doc(
    ctx: &Ctx,
    (key, lang, f): (&str, &str, &WalkedFile),
    text: String,
    typescript: &[String],
    generated: Option<Generated>,
) -> Parsed {
    let mut deps = Vec::new();
    if let Some(g) = generated {
        let mut doc = markdown::parse_as(&text, markdown::Syntax::CommonMark);
        examples::mark(&mut doc, &g.examples);
        report_attached(ctx, f, g.attached, &mut deps);
        return Parsed { text, doc, deps, source_lines: None };
    }
    let syntax = markdown::Syntax::of_path(&f.rel);
    // The props tables served (the document's own, else the sources'), for `@interface Name` lines.
    let props_names: Vec<String> = if text.contains("@interface ") {
        let own: Vec<String> =
            crate::compile::props::from_markdown(&f.rel, lang, &text).into_iter().map(|t| t.name).collect();
        if own.is_empty() { typescript.to_vec() } else { own }
    } else {
        Vec::new()
    };
    let (text, examples, source_lines) = match examples::expand(ctx.examples, &f.rel, &text, lang, syntax, &props_names)
    {
        Some(e) => {
            for p in e.problems {
                ctx.report(Diagnostic::new(format!("{}:{}", f.rel, p.line), Stage::Markdown, p.message));
            }
            deps.extend(e.deps);
            if !e.unrecognised.is_empty() {
                let list: Vec<String> = e.unrecognised.iter().map(|(name, n)| format!("<{name}> ×{n}")).collect();
                ctx.report(Diagnostic::note(
                    f.rel.clone(),
                    Stage::Markdown,
                    format!("{UNRECOGNISED}{} {UNRECOGNISED_HINT}", list.join(", ")),
                ));
            }
            (e.text, e.examples, Some(e.source_lines))
        }
        None => (text, Vec::new(), None),
    };
    let mut doc = markdown::parse_as(&text, syntax);
    examples::mark(&mut doc, &examples);
    load_demos(ctx, f, &mut doc, &mut deps);
    let stories = examples::beside::attach(ctx.examples, key, &f.rel, &text, &mut doc);
    report_attached(ctx, f, stories, &mut deps);
    Parsed { text, doc, deps, source_lines }
}

/// Reports the notes of attaching stories to the document `f` and keeps the files they read.
fn report_attached(
    ctx: &Ctx,
    f: &WalkedFile,
    attached: examples::beside::Attached,
    deps: &mut Vec<crate::compile::cache::Dependency>,
) {
    deps.extend(attached.deps);
    for note in attached.notes {
        ctx.report(Diagnostic::note(f.rel.clone(), Stage::Markdown, note));
    }
}

#[allow(clippy::too_many_arguments)]
fn compile_doc_text(
    ctx: &Ctx,
    key: &str,
    name: &str,
    lang: &str,
    f: &WalkedFile,
    text: String,
    typescript: &[String],
    generated: Option<Generated>,
) -> Option<CompiledDoc> {
    let stories = generated.as_ref().map_or(0, |g| g.examples.len() as u32);
    let Parsed { text, mut doc, deps, source_lines } = parse_doc(ctx, (key, lang, f), text, typescript, generated);
    if doc.unclosed_front_matter {
        ctx.report(Diagnostic::new(
            format!("{}:1", f.rel),
            Stage::Markdown,
            "front matter opened by `---` on line 1 is never closed by a `---` line; the document is served as \
             written and its `key: value` lines are not read as metadata (add the closing `---`)",
        ));
    }
    let slice = |a: u32, b: u32| text.get(a as usize..b as usize).unwrap_or("");
    let mut frames = Vec::new();
    let mut push = |frame: std::io::Result<Frame>| match frame {
        Ok(fr) => frames.push(fr),
        Err(e) => ctx.report(Diagnostic::new(f.rel.clone(), Stage::Markdown, e.to_string())),
    };
    let mut maps = TokenMaps::new();
    let (map, slices) = ctx.tokens.map_counts(&text);
    let tokens = map.total();
    for b in &mut doc.code_blocks {
        // A demo file is served fenced with its language, as the other blocks are (the search index keeps reading
        // its bare code).
        let served = b.code.as_deref().map(|code| match &b.meta.demo {
            Some(_) => std::borrow::Cow::Owned(fence_demo(code, &b.meta.lang)),
            None => std::borrow::Cow::Borrowed(code),
        });
        b.meta.tokens = slices.count(served.as_deref().unwrap_or_else(|| slice(b.start_byte, b.end_byte)));
        if let Some(code) = served.as_deref() {
            push(Frame::new(keys::block(lang, b.index), code));
            maps.insert(keys::block(lang, b.index), ctx.tokens.map(code));
        }
    }
    // What each block uses (format 12), for `prop`'s example and `search --uses`.
    let uses: Vec<BlockUses> = crate::usage::blocks::blocks_uses(
        doc.code_blocks
            .iter()
            .map(|b| (b.code.as_deref().unwrap_or_else(|| slice(b.start_byte, b.end_byte)), b.meta.lang.as_str())),
        ctx.examples.component_keys(),
    );
    if uses.iter().any(|u| !u.is_empty()) {
        push(Frame::new(keys::uses(lang), &uses));
    }
    for t in &mut doc.tables {
        t.tokens = slices.count(slice(t.start_byte, t.end_byte));
    }
    for s in &mut doc.sections {
        s.meta.tokens = slices.count(slice(s.start_byte, s.end_byte));
    }
    let code_blocks: Vec<CodeBlockMeta> = doc.code_blocks.iter().map(|b| b.meta.clone()).collect();
    let tables = doc.tables.clone();
    // The view is stored as the lead of the document's frame (format 9: the view, then the hidden spans' text,
    // `view_lead`), with its token map. Placeholders cost ~30 tokens each, so a document of many tiny blocks is
    // served whole when hiding would not save anything. A
    // document with a demo (`<code src="…">`, its code not in the text) always gets the view, whatever its length:
    // served whole it would show the bare element, the demo's number and size nowhere (trial item 5).
    let has_demo = code_blocks.iter().any(|b| b.demo.is_some());
    let mut hidden = (doc.lines > ctx.config.thresholds.doc_hide_lines || has_demo) && !code_blocks.is_empty();
    let mut view_tokens = tokens;
    let mut lead = None;
    if hidden {
        let (view, _, replaced) = placeholder_view_layout(&text, &code_blocks, &tables);
        let view_map = ctx.tokens.map_known(&view, &slices.segments()).0;
        hidden = has_demo || view_map.total() < tokens;
        if hidden {
            view_tokens = view_map.total();
            maps.insert(keys::view(lang), view_map);
            lead = Some(view_lead(view, &text, &replaced));
        }
    }
    maps.insert(keys::doc(lang), map);
    let sections: Vec<SectionMeta> = doc.sections.iter().map(|s| s.meta.clone()).collect();
    // Search units reuse the counts above (sections, code blocks) wherever their spans are the same.
    let counts = search_index::Counted {
        // The blocks' slices of the document, for packing split sections (a code unit of a cleaned block takes
        // its served count).
        blocks: code_blocks
            .iter()
            .map(|b| if b.cleaned { slices.count(slice(b.start_byte, b.end_byte)) } else { b.tokens })
            .collect(),
        sections: sections.iter().map(|s| s.tokens).collect(),
    };
    let source = DocSource { component: key, name, lang, path: &f.rel };
    let units = search_index::doc_units(&source, &text, &doc, &counts, &slices);
    let import = import_statement(name, &code_blocks, &text);
    // As `context` prints it (format 14).
    let import_tokens = import.as_deref().map_or(0, |i| ctx.tokens.count(&crate::view::import_line(i)));
    let meta = DocMeta {
        lang: lang.to_string(),
        path: f.rel.clone(),
        title: doc.title.clone(),
        brief: doc.brief.clone(),
        import,
        card_tokens: 0, // counted once the component's files and props are known

        lines: doc.lines,
        bytes: text.len() as u32,
        tokens,
        hidden,
        view_tokens,
        code_blocks,
        sections,
        tables,
        generated: stories,
        import_tokens,
    };
    let props = crate::compile::props::from_markdown(&f.rel, lang, &text);
    let row_lines = props.iter().map(|t| row_lines(&text, t, source_lines.as_deref())).collect();
    Some(CompiledDoc { meta, text, lead, frames, maps, props, row_lines, units, deps })
}

/// The 1-based line of each row of API table `table` in the document as written: in `text` (the text it was read
/// from), from the line after its delimiter row, the next table line whose first cell holds the row's name (rows
/// with an empty name cell are not props), then through the expansion's `source_lines` when the text was
/// expanded; 0 where none is found.
fn row_lines(text: &str, table: &PropsTable, source_lines: Option<&[(usize, u32)]>) -> Vec<u32> {
    let lines = expanded_row_lines(text, table);
    match source_lines {
        Some(map) => lines.into_iter().map(|l| examples::source_line(text, map, l).unwrap_or(0)).collect(),
        None => lines,
    }
}

/// [`row_lines`] in `text` itself.
fn expanded_row_lines(text: &str, table: &PropsTable) -> Vec<u32> {
    let body: Vec<(u32, &str)> = text
        .split('\n')
        .zip(1u32..)
        .skip(table.line as usize + 1)
        .map(|(l, n)| (n, l))
        .take_while(|(_, l)| l.contains('|'))
        .collect();
    let mut next = 0;
    table
        .props
        .iter()
        .map(|p| {
            let first_cell = |l: &str| -> String {
                let cell = l.trim().trim_start_matches('|').split('|').next().unwrap_or("");
                cell.replace(['`', '*', '\\'], "")
            };
            match body[next..].iter().position(|(_, l)| first_cell(l).contains(p.name.as_str())) {
                Some(at) => {
                    next += at + 1;
                    body[next - 1].0
                }
                None => 0,
            }
        })
        .collect()
}

/// How a document's note on site markup no rule knows begins; the list of `<Name> ×count` follows.
const UNRECOGNISED: &str = "site markup no rule knows, kept as text: ";
const UNRECOGNISED_HINT: &str = "(add an [[examples]] rule if it names an example)";

/// One note summing the documents' notes on unrecognised site markup by element name (`<Sandpack> ×12 in 5
/// documents`), so a new site's markup shows as numbers in `build --verbose`; `None` when there is none. Read
/// back from the notes (cached components bring theirs from the cache, not from a new parse).
pub(super) fn unrecognised_total(diagnostics: &[Diagnostic]) -> Option<Diagnostic> {
    let mut by: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    for d in diagnostics.iter().filter(|d| d.note) {
        let Some(list) = d.message.strip_prefix(UNRECOGNISED).and_then(|m| m.strip_suffix(UNRECOGNISED_HINT)) else {
            continue;
        };
        for item in list.trim().split(", ") {
            let Some((name, n)) = item.rsplit_once(" ×") else { continue };
            let entry = by.entry(name.to_string()).or_default();
            entry.0 += n.parse::<usize>().unwrap_or(0);
            entry.1 += 1;
        }
    }
    if by.is_empty() {
        return None;
    }
    let mut items: Vec<(String, (usize, usize))> = by.into_iter().collect();
    items.sort_by(|a, b| b.1.0.cmp(&a.1.0).then_with(|| a.0.cmp(&b.0)));
    let list: Vec<String> = items
        .iter()
        .map(|(name, (n, docs))| format!("{name} ×{n} in {docs} document{}", if *docs == 1 { "" } else { "s" }))
        .collect();
    Some(Diagnostic::note(
        "(all documents)",
        Stage::Markdown,
        format!("site markup no rule knows, by element: {}", list.join(", ")),
    ))
}
