//! The lookup subcommands: open the bundle set, call the reader, print text or JSON.

use std::process::ExitCode;

use mydesign_docs::budget::Budget;
use mydesign_docs::compile::source::{SourceLang, dump_tree};
use mydesign_docs::read::{BundleSet, Detail, Paging};
use mydesign_docs::render::{Render, Surface, thousands};
use mydesign_docs::search::query::SearchOptions;
use mydesign_docs::serve::tools::details;

use super::{Command, LookupArgs, emit};

fn open(args: &LookupArgs) -> anyhow::Result<std::sync::Arc<BundleSet>> {
    mydesign_docs::render::set_cli_bundles(&args.bundles.to_string_lossy());
    Ok(BundleSet::discover(&args.bundles, args.system.as_deref(), args.version.as_deref())?)
}

/// The budget (`--max-tokens`, capped by the set's) and cursor of a lookup.
fn paging<'a>(set: &BundleSet, args: &'a LookupArgs) -> anyhow::Result<Paging<'a>> {
    let budget = Budget::new(set.manifest().thresholds.max_tokens, args.max_tokens)?;
    Ok(Paging { budget, cursor: args.cursor.as_deref() })
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
        Command::Components(a) => {
            let set = open(&a)?;
            print(&set.components_paged(a.lang.as_deref(), paging(&set, &a)?)?, a.json)
        }
        Command::Doc { component, detail, full, sections, lookup: a } => {
            let set = open(&a)?;
            let detail = if full { Detail::Full } else { detail };
            // Semi's addressing (`changelog` / `changelog-N`) and `--section props` as over MCP.
            print(&details(&set, &component, a.lang.as_deref(), detail, &sections, paging(&set, &a)?)?, a.json)
        }
        Command::CodeBlock { component, index, lookup: a } => {
            let set = open(&a)?;
            print(&set.code_block(&component, index, a.lang.as_deref(), paging(&set, &a)?)?, a.json)
        }
        Command::Changelog { page, lookup: a } => {
            let set = open(&a)?;
            print(&set.changelog(page, a.lang.as_deref(), paging(&set, &a)?)?, a.json)
        }
        Command::Files { component, lookup: a } => {
            let set = open(&a)?;
            print(&set.files_paged(&component, paging(&set, &a)?)?, a.json)
        }
        Command::File { path, full, start_line, end_line, lookup: a } => {
            let set = open(&a)?;
            let lines = match (start_line, end_line) {
                (None, None) => None,
                (start, end) => Some((start.unwrap_or(1), end.unwrap_or(u32::MAX))),
            };
            print(&set.file(&path, full, lines, paging(&set, &a)?)?, a.json)
        }
        Command::Function { path, name, lookup: a } => {
            let set = open(&a)?;
            print(&set.function(&path, &name, paging(&set, &a)?)?, a.json)
        }
        Command::Search { query, component, kind, lookup: a } => {
            // `--max-tokens` here is the search budget (default 2,000), still capped by the set's.
            let set = open(&a)?;
            let opts = SearchOptions {
                component,
                kind,
                lang: a.lang.clone(),
                max_tokens: a.max_tokens,
                token_cap: Some(set.manifest().thresholds.max_tokens),
                ..Default::default()
            };
            print(&set.search(&query, &opts)?, a.json)
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
