//! Reading input text: a walked file's (size cap, binary content, UTF-8, byte order mark) and the demo files a
//! document's `<code src="…">` elements name.

use super::Ctx;
use crate::compile::cache;
use crate::compile::diagnostic::{Diagnostic, Stage};
use crate::compile::examples::resolve_relative;
use crate::compile::markdown;
use crate::compile::walk::WalkedFile;
use crate::model::DemoMeta;

/// The text of changelog `f` (the set's or a component's), or `None` with the problem reported into `ctx`.
pub(super) fn read_changelog(ctx: &Ctx, f: &WalkedFile) -> Option<String> {
    match read_text(f, ctx.config.walk.max_file_bytes) {
        Ok(t) => Some(t),
        Err(ReadProblem::Binary) => {
            ctx.report(Diagnostic::new(f.rel.clone(), Stage::Read, "binary file where a changelog was expected"));
            None
        }
        Err(ReadProblem::Skip(d)) => {
            ctx.report(d);
            None
        }
    }
}

/// Why a file's text could not be used.
pub(super) enum ReadProblem {
    Binary,
    Skip(Diagnostic),
}

pub(super) fn read_text(f: &WalkedFile, max: u64) -> Result<String, ReadProblem> {
    let skip = |m: String| ReadProblem::Skip(Diagnostic::new(f.rel.clone(), Stage::Read, m));
    if f.bytes > max {
        return Err(skip(format!("{} bytes is over the {max}-byte limit; skipped", f.bytes)));
    }
    let bytes = std::fs::read(&f.abs).map_err(|e| skip(format!("unreadable: {e}")))?;
    if bytes.len() as u64 > max {
        return Err(skip(format!("{} bytes is over the {max}-byte limit; skipped", bytes.len())));
    }
    if bytes[..bytes.len().min(8192)].contains(&0) {
        return Err(ReadProblem::Binary);
    }
    String::from_utf8(bytes).map(crate::compile::text::strip_bom).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        skip(format!("not UTF-8 (invalid byte at offset {at}); skipped"))
    })
}

/// Reads the demo file of every `<code src="…">` block of `doc` (the document `f`) into the block's code, and
/// sets its metadata (`meta.demo`, `meta.cleaned`). `src` is resolved relative to the document's folder and
/// must stay inside the repository (lexically and after symlinks); a demo that cannot be read (missing, outside,
/// binary, too large) is a warning naming the document and line, and its block is dropped (the other blocks are
/// renumbered).
/// Every file it reads or looks for is pushed to `deps` with its content hash.
pub(super) fn load_demos(ctx: &Ctx, f: &WalkedFile, doc: &mut markdown::Document, deps: &mut Vec<cache::Dependency>) {
    if doc.code_blocks.iter().all(|b| b.demo_tag.is_none()) {
        return;
    }
    // The repository root: `f.abs` minus as many components as `f.rel` has.
    let depth = f.rel.split('/').count();
    let root = f.abs.ancestors().nth(depth).map(std::path::Path::to_path_buf);
    let doc_dir: Vec<&str> = f.rel.split('/').collect::<Vec<_>>()[..depth - 1].to_vec();
    let mut kept = Vec::with_capacity(doc.code_blocks.len());
    for mut b in std::mem::take(&mut doc.code_blocks) {
        let Some(demo) = b.demo_tag.clone() else {
            kept.push(b);
            continue;
        };
        let at = format!("{}:{}", f.rel, b.start_line);
        let warn = |why: String| {
            ctx.report(Diagnostic::new(
                at.clone(),
                Stage::Markdown,
                format!("demo `<code src=\"{}\">`: {why}; it is not served as a code block", demo.src),
            ))
        };
        let Some(rel) = resolve_relative(&doc_dir, &demo.src) else {
            warn("the path leaves the repository (or is absolute)".into());
            continue;
        };
        let Some(root) = root.as_deref() else {
            warn("the document's folder is unknown".into());
            continue;
        };
        let abs = root.join(&rel);
        deps.push((rel.clone(), cache::file_hash(root, &rel)));
        if let Some((stem, _)) = rel.rsplit_once('.') {
            let md = format!("{stem}.md");
            deps.push((md.clone(), cache::file_hash(root, &md)));
        }
        let inside = match (abs.canonicalize(), root.canonicalize()) {
            (Ok(a), Ok(r)) => a.starts_with(r),
            (Err(e), _) | (_, Err(e)) => {
                warn(format!("{rel} cannot be read ({e})"));
                continue;
            }
        };
        if !inside {
            warn(format!("{rel} resolves (through a symlink) outside the repository"));
            continue;
        }
        let bytes = std::fs::metadata(&abs).map(|m| m.len()).unwrap_or(0);
        let code = match read_text(
            &WalkedFile { rel: rel.clone(), abs: abs.clone(), bytes },
            ctx.config.walk.max_file_bytes,
        ) {
            Ok(code) => code,
            Err(ReadProblem::Binary) => {
                warn(format!("{rel} is a binary file"));
                continue;
            }
            Err(ReadProblem::Skip(d)) => {
                warn(format!("{rel}: {}", d.message));
                continue;
            }
        };
        let description_path = rel
            .rsplit_once('.')
            .map(|(stem, _)| format!("{stem}.md"))
            .filter(|md| *md != rel && root.join(md).is_file());
        b.code = Some(code);
        b.meta.cleaned = true;
        b.meta.demo = Some(DemoMeta {
            path: rel,
            title: demo.title,
            description: demo.description,
            description_path,
            debug: demo.debug,
            story: None,
        });
        kept.push(b);
    }
    for (i, b) in kept.iter_mut().enumerate() {
        b.meta.index = i as u32 + 1;
    }
    doc.code_blocks = kept;
}
