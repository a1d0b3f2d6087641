//! One walked file compiled: its text, and for a source its skeleton, function index (with search units) and
//! props tables, each counted.

use std::collections::BTreeMap;

use std::path::Path;

use super::load::{ReadProblem, read_text};
use super::{CompiledFile, Ctx};
use crate::bundle::writer::Frame;
use crate::compile::diagnostic::{Diagnostic, Stage};
use crate::compile::source::{MAX_SCOPE_DEPTH, SourceAnalysis, SourceLang, analyze_file};
use crate::compile::walk::WalkedFile;
use crate::line_index::line_count;
use crate::model::*;
use crate::search::index as search_index;

pub(super) fn compile_file(ctx: &Ctx, f: &WalkedFile, owner: &str) -> Option<CompiledFile> {
    let mut meta = FileMeta {
        path: f.rel.clone(),
        kind: FileKind::Text,
        lines: 0,
        bytes: f.bytes,
        tokens: 0,
        skeleton: None,
        functions: 0,
        parse_errors: 0,
        owner: owner.to_string(),
    };
    let text = match read_text(f, ctx.config.walk.max_file_bytes) {
        Ok(t) => t,
        Err(ReadProblem::Binary) => {
            meta.kind = FileKind::Binary;
            if SourceLang::from_path(Path::new(&f.rel)).is_some() {
                let message = "binary content in a source file; listed, not stored";
                ctx.report(Diagnostic::new(f.rel.clone(), Stage::Read, message));
            }
            return Some(CompiledFile {
                meta,
                frames: vec![],
                maps: TokenMaps::new(),
                props: vec![],
                prop_lines: Default::default(),
                units: vec![],
            });
        }
        Err(ReadProblem::Skip(d)) => {
            ctx.report(d);
            return None;
        }
    };
    let frame_err = |e: std::io::Error| ctx.report(Diagnostic::new(f.rel.clone(), Stage::Source, e.to_string()));
    meta.bytes = text.len() as u64;
    meta.lines = line_count(&text);
    let mut frames = Vec::new();
    let mut maps = TokenMaps::new();
    let mut props = Vec::new();
    let (map, slices) = ctx.tokens.map_counts(&text);
    meta.tokens = map.total();
    maps.insert(keys::file(&f.rel), map);
    let mut units = Vec::new();
    if let Some(lang) = SourceLang::from_path(Path::new(&f.rel)) {
        meta.kind = FileKind::Source;
        props = crate::compile::props::from_typescript(lang, &f.rel, &text);
        match analyze_file(&f.rel, lang, &text, ctx.config.thresholds.skeleton_min_lines as usize) {
            Ok(a) => {
                if a.parse_errors > 0 {
                    // The grammar's word, not a verdict on the file: tree-sitter-typescript rejects some valid
                    // code (a parameter named `any` in `(any) => T`).
                    let at = a.first_error_line.map_or(String::new(), |l| format!("first at line {l}; "));
                    // Spelt here: the compiler uses the reader's logic only to render and count.
                    let errors =
                        format!("{} syntax error{}", a.parse_errors, if a.parse_errors == 1 { "" } else { "s" });
                    ctx.report(Diagnostic::new(
                        f.rel.clone(),
                        Stage::Source,
                        format!(
                            "tree-sitter found {} ({at}the grammar may reject valid code it does not know); skeleton \
                             and function index are partial",
                            errors
                        ),
                    ));
                }
                report_vue_and_depth(ctx, &f.rel, &a);
                if !a.jsx_ampersand_lines.is_empty() {
                    let lines = a.jsx_ampersand_lines.iter().map(u32::to_string).collect::<Vec<_>>().join(", ");
                    ctx.report(Diagnostic::note(
                        f.rel.clone(),
                        Stage::Source,
                        format!(
                            "a bare `&` in JSX on line(s) {lines} is valid TSX that the tree-sitter grammar misparses \
                             (a known grammar bug); parsed with it read as a space: skeleton and function index are \
                             complete"
                        ),
                    ));
                }
                meta.parse_errors = a.parse_errors as u32;
                // Functions as `function` serves them: a getter and its setter are one.
                let names: std::collections::BTreeSet<&str> =
                    a.functions.iter().map(|f| f.qualified.as_str()).collect();
                meta.functions = names.len() as u32;
                if let Some(sk) = &a.skeleton {
                    let map = ctx.tokens.map(sk);
                    meta.skeleton = Some(SkeletonMeta {
                        lines: line_count(sk),
                        tokens: map.total(),
                        outer_bodies: a.outer_bodies as u32,
                    });
                    maps.insert(keys::skeleton(&f.rel), map);
                    Frame::new(keys::skeleton(&f.rel), sk.as_str()).map(|fr| frames.push(fr)).unwrap_or_else(frame_err);
                }
                let functions: Vec<FunctionMeta> = a
                    .functions
                    .iter()
                    .map(|func| {
                        let start = with_indentation(&text, func.start_byte);
                        FunctionMeta {
                            start_byte: start,
                            tokens: text.get(start as usize..func.end_byte as usize).map_or(0, |s| slices.count(s)),
                            ..func.meta.clone()
                        }
                    })
                    .collect();
                units = search_index::function_units(owner, &f.rel, &text, &functions, &slices);
                Frame::new(keys::functions(&f.rel), &functions).map(|fr| frames.push(fr)).unwrap_or_else(frame_err);
            }
            Err(e) => ctx.report(Diagnostic::new(
                f.rel.clone(),
                Stage::Source,
                format!("{e}: no function index or skeleton; stored as text, served by `file`"),
            )),
        }
    }
    Frame::new(keys::file(&f.rel), text.as_str()).map(|fr| frames.push(fr)).unwrap_or_else(frame_err);
    let prop_lines = member_lines(&text, &props);
    Some(CompiledFile { meta, frames, maps, props, prop_lines, units })
}

/// Reports what the analysis of `rel` left out: functions nested past the depth cap (a warning), `.vue` script
/// blocks in a language no grammar reads (a note).
fn report_vue_and_depth(ctx: &Ctx, rel: &str, a: &SourceAnalysis) {
    if a.too_deep > 0 {
        let message = format!(
            "{} functions nested more than {} scopes deep are not in the function index (the functions enclosing \
             them are, with their text)",
            a.too_deep, MAX_SCOPE_DEPTH
        );
        ctx.report(Diagnostic::new(rel.to_string(), Stage::Source, message));
    }
    for lang in &a.unknown_script_langs {
        let message = format!("`<script lang=\"{lang}\">` is not parsed (no grammar for it): served as text only");
        ctx.report(Diagnostic::note(rel.to_string(), Stage::Source, message));
    }
}

/// Moves `start` back to the start of its line when only indentation precedes it there, so a method is served
/// with its own indentation (its closing brace has it too) and the slice stays exact.
fn with_indentation(text: &str, start: u32) -> u32 {
    let start = start as usize;
    let Some(before) = text.get(..start) else { return start as u32 };
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    if before[line_start..].chars().all(|c| c == ' ' || c == '\t') { line_start as u32 } else { start as u32 }
}

/// The line of each prop of `tables` in its table's own span (`line..=end_line` of the interface or type alias that
/// tree-sitter delimited), by `Table.prop`: the first line of the span that declares the member (`name`, `'name'`
/// or `readonly name`, then `?`, `:`, `(` or `<`). Props merged in from extended types are declared elsewhere and
/// have none here (the file of the extended type has theirs).
fn member_lines(text: &str, tables: &[PropsTable]) -> BTreeMap<String, u32> {
    let lines: Vec<&str> = text.split('\n').collect();
    let mut out = BTreeMap::new();
    for t in tables {
        let span = lines.get(t.line.saturating_sub(1) as usize..(t.end_line as usize).min(lines.len())).unwrap_or(&[]);
        for p in &t.props {
            let declares = |line: &str| {
                let l = line.trim_start();
                let l = l.strip_prefix("readonly ").unwrap_or(l);
                let l = l.strip_prefix(['\'', '"']).unwrap_or(l);
                l.strip_prefix(p.name.as_str())
                    .map(|r| r.trim_start_matches(['\'', '"']).trim_start())
                    .is_some_and(|r| r.starts_with(['?', ':', '(', '<']))
            };
            if let Some(i) = span.iter().position(|l| declares(l)) {
                out.insert(format!("{}.{}", t.name, p.name), t.line + i as u32);
            }
        }
    }
    out
}
