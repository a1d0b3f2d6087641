//! The lookup subcommands: open the bundle set, call the reader, print text or JSON.

use std::process::ExitCode;

use mydesign_docs::compile::source::{SourceLang, dump_tree};
use mydesign_docs::read::{BundleSet, changelog_page_name};
use mydesign_docs::render::{Render, thousands};

use super::{Command, LookupArgs};

fn open(args: &LookupArgs) -> anyhow::Result<std::sync::Arc<BundleSet>> {
    Ok(BundleSet::discover(&args.bundles, args.system.as_deref(), args.version.as_deref())?)
}

fn print(view: &impl Render, json: bool) -> anyhow::Result<ExitCode> {
    println!("{}", if json { view.json() } else { view.text() });
    Ok(ExitCode::SUCCESS)
}

pub fn run(command: Command) -> anyhow::Result<ExitCode> {
    match command {
        Command::Build(args) => super::build::run(args),
        Command::Components(a) => print(&open(&a)?.components(a.lang.as_deref()), a.json),
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
        Command::DumpTs { file } => {
            let lang = SourceLang::from_path(&file)
                .ok_or_else(|| anyhow::anyhow!("{}: not a .ts/.tsx/.js/.jsx file", file.display()))?;
            let text = std::fs::read_to_string(&file).map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
            print!("{}", dump_tree(lang, &text)?);
            Ok(ExitCode::SUCCESS)
        }
        Command::Verify(a) => {
            let set = open(&a)?;
            let (bundles, frames) = set.verify()?;
            let m = set.manifest();
            println!(
                "ok: {} {} in {}: {bundles} bundles, {} frames, checksums match",
                m.system,
                m.version,
                set.dir().display(),
                thousands(frames as u64)
            );
            Ok(ExitCode::SUCCESS)
        }
    }
}
