//! The lookup subcommands: open the bundle set, call the reader, print text or JSON.

use std::process::ExitCode;

use mydesign_docs::compile::source::{SourceLang, dump_tree};
use mydesign_docs::read::{BundleSet, changelog_page_name};
use mydesign_docs::render::{Render, Surface, thousands};
use mydesign_docs::search::query::SearchOptions;

use super::{Command, LookupArgs, emit};

fn open(args: &LookupArgs) -> anyhow::Result<std::sync::Arc<BundleSet>> {
    Ok(BundleSet::discover(&args.bundles, args.system.as_deref(), args.version.as_deref())?)
}

fn print(view: &impl Render, json: bool) -> anyhow::Result<ExitCode> {
    emit(&if json { view.json() } else { view.render(Surface::Cli) })?;
    Ok(ExitCode::SUCCESS)
}

/// Whether the command asked for JSON: its errors are then JSON on stdout too (`{"error": "..."}`), exit code 2.
fn wants_json(command: &Command) -> bool {
    match command {
        Command::Components(a) | Command::Verify(a) => a.json,
        Command::Doc { lookup: a, .. }
        | Command::CodeBlock { lookup: a, .. }
        | Command::Changelog { lookup: a, .. }
        | Command::Files { lookup: a, .. }
        | Command::File { lookup: a, .. }
        | Command::Function { lookup: a, .. }
        | Command::Search { lookup: a, .. } => a.json,
        _ => false,
    }
}

pub fn run(command: Command) -> anyhow::Result<ExitCode> {
    let json = wants_json(&command);
    match dispatch(command) {
        Err(e) if json => {
            emit(&serde_json::json!({ "error": format!("{e:#}") }).to_string())?;
            Ok(ExitCode::from(2))
        }
        other => other,
    }
}

fn dispatch(command: Command) -> anyhow::Result<ExitCode> {
    match command {
        Command::Build(args) => super::build::run(args),
        Command::Serve(args) => super::serve::run(args),
        Command::Components(a) => print(&open(&a)?.components(a.lang.as_deref())?, a.json),
        Command::Doc { component, full, lookup: a } => {
            let set = open(&a)?;
            // Semi's addressing: `changelog` / `changelog-N`, unless a component has that name.
            match changelog_page_name(&component).filter(|_| set.component(&component).is_err()) {
                Some(page) => print(&set.changelog(page, a.lang.as_deref())?, a.json),
                None => print(&set.doc(&component, a.lang.as_deref(), full)?, a.json),
            }
        }
        Command::CodeBlock { component, index, lookup: a } => {
            print(&open(&a)?.code_block(&component, index, a.lang.as_deref())?, a.json)
        }
        Command::Changelog { page, lookup: a } => print(&open(&a)?.changelog(Some(page), a.lang.as_deref())?, a.json),
        Command::Files { component, lookup: a } => print(&open(&a)?.files(&component)?, a.json),
        Command::File { path, full, lookup: a } => print(&open(&a)?.file(&path, full)?, a.json),
        Command::Function { path, name, lookup: a } => print(&open(&a)?.function(&path, &name)?, a.json),
        Command::Search { query, component, kind, max_tokens, lookup: a } => {
            let opts = SearchOptions { component, kind, lang: a.lang.clone(), max_tokens, ..Default::default() };
            print(&open(&a)?.search(&query, &opts)?, a.json)
        }
        Command::DumpTs { file } => {
            let lang = SourceLang::from_path(&file)
                .ok_or_else(|| anyhow::anyhow!("{}: not a .ts/.tsx/.js/.jsx file", file.display()))?;
            let text = std::fs::read_to_string(&file).map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
            emit(dump_tree(lang, &text)?.trim_end())?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Verify(a) => {
            let set = open(&a)?;
            let (bundles, frames) = set.verify()?;
            let m = set.manifest();
            let dir = set.dir().display().to_string();
            if a.json {
                let v = serde_json::json!({
                    "ok": true, "system": m.system, "version": m.version, "dir": dir, "bundles": bundles, "frames": frames
                });
                emit(&v.to_string())?;
            } else {
                let frames = thousands(frames as u64);
                emit(&format!(
                    "ok: {} {} in {dir}: {bundles} bundles, {frames} frames, checksums match",
                    m.system, m.version
                ))?;
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}
