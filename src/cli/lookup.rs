//! The lookup subcommands: open the bundle set, call the reader, print text or JSON.

use std::path::PathBuf;
use std::process::ExitCode;

use mydesign_docs::budget::Budget;
#[cfg(feature = "build")]
use mydesign_docs::compile::source::{SourceLang, dump_tree};
use mydesign_docs::read::{BundleSet, Detail, Library, ListKind, LookupError, Paging};
use mydesign_docs::render::{Forms, Render, Surface, thousands};
use mydesign_docs::search::query::{SearchOptions, search_sets, sets_to_search};

use super::{Command, LookupArgs, emit};

/// The sets of `--bundles`, else of `./out`, else of the store (the commands printed then need no `--bundles`);
/// run inside a project (a `package.json` here), the sets its dependencies ship too, and its versions served.
///
/// Leaked on purpose: a lookup process exits right after printing, and freeing the library's decoded frames one by
/// one (hundreds of blocks; large ones are unmapped page by page) is work the exit does at once anyway.
fn library(args: &LookupArgs) -> anyhow::Result<&'static Library> {
    mydesign_docs::render::set_cli_selection(args.system.as_deref(), args.version.as_deref());
    let library = if args.bundles.is_empty() {
        // Inside a project, its shipped sets first and its versions pinned (said in each header).
        match mydesign_docs::project::default_project() {
            Some(project) => mydesign_docs::project::project_library(&[], &project)?.library,
            None => Library::open(&[])?,
        }
    } else {
        let library = Library::scan(&args.bundles)?;
        // Beside directories that hold sets, a missing one is read as empty: say so (one alone is an error), and
        // leave it out of the commands the answer prints (each would warn again).
        let (dirs, missing): (Vec<&std::path::PathBuf>, Vec<_>) = args.bundles.iter().partition(|d| d.is_dir());
        for dir in missing {
            eprintln!("warning: --bundles {}: not a directory; the other directories are read", dir.display());
        }
        let dirs: Vec<String> = dirs.iter().map(|d| d.to_string_lossy().into_owned()).collect();
        mydesign_docs::render::set_cli_bundles(&dirs);
        library
    };
    Ok(Box::leak(Box::new(library)))
}

/// The library of `--bundles` (else `./out`, else the store) and the set chosen; a default lookup that skips a
/// damaged newer set says so on stderr.
fn open_library(args: &LookupArgs) -> anyhow::Result<(&'static Library, std::sync::Arc<BundleSet>)> {
    let library = library(args)?;
    let set = library.select(args.system.as_deref(), args.version.as_deref())?;
    saw_cap(set.head().thresholds.max_tokens);
    if args.version.is_none() {
        // Without --system, the sets of other systems that do not open are named too: one of them is why the
        // system was chosen (trial 5).
        let system = args.system.as_ref().map(|_| set.head().system.as_str());
        for damaged in library.damaged_defaults(system) {
            eprintln!("warning: {damaged}");
        }
    }
    Ok((library, set))
}

/// The budget (`--max-tokens`, capped by the set's) and cursor of a lookup.
fn paging<'a>(set: &BundleSet, args: &'a LookupArgs) -> Result<Paging<'a>, LookupError> {
    note_cap(args.max_tokens, set.head().thresholds.max_tokens);
    let budget = Budget::new(set.head().thresholds.max_tokens, args.max_tokens)?;
    Ok(Paging { budget, cursor: args.cursor.as_deref() })
}

/// Says on stderr, once, when `--max-tokens` is over the cap of the sets read (`max_tokens` under `[thresholds]`
/// when they were built): the answer is cut to the cap (trial 6: it was, silently; `serve` says it in the answer).
fn note_cap(asked: Option<u32>, cap: u32) {
    saw_cap(cap);
    static SAID: std::sync::Once = std::sync::Once::new();
    let cap = cap.max(mydesign_docs::budget::MIN_MAX_TOKENS);
    if let Some(asked) = asked.filter(|&asked| asked > cap) {
        SAID.call_once(|| {
            let (asked, cap) = (thousands(asked), thousands(cap));
            eprintln!("note: --max-tokens {asked} is over the set's cap of {cap} tokens; the cap is the budget");
        });
    }
}

/// Runs `lookup` on the set `args` choose, with its paging, and prints the view; when a bundle of that set is
/// damaged and another `--bundles` directory holds a copy of it, the copy answers ([`Library::fallback`], which
/// says so on stderr).
fn answer<V: Render>(
    args: &LookupArgs,
    lookup: impl Fn(&BundleSet, Paging) -> Result<V, LookupError>,
) -> anyhow::Result<ExitCode> {
    let (library, _) = open_library(args)?;
    let view = library.fallback(|| {
        let set = library.select(args.system.as_deref(), args.version.as_deref())?;
        let Paging { budget, cursor } = paging(&set, args)?;
        let forms = if args.json { Forms::Json } else { Forms::Cli };
        mydesign_docs::render::fitted(budget, cursor, forms, |paging| lookup(&set, paging))
    })?;
    print(&view, args.json)
}

fn print(view: &impl Render, json: bool) -> anyhow::Result<ExitCode> {
    emit(&if json { view.json() } else { view.render(Surface::Cli) })?;
    Ok(ExitCode::SUCCESS)
}

/// `agents-md`: the section of the set `args` choose, printed, merged into `write` or compared with `check`.
#[cfg(feature = "build")]
fn agents_md(write: Option<PathBuf>, check: Option<PathBuf>, args: &LookupArgs) -> anyhow::Result<ExitCode> {
    use super::agents_md;
    if args.cursor.is_some() || args.json {
        anyhow::bail!("agents-md writes one Markdown section: --cursor and --json do not apply");
    }
    let (_, set) = open_library(args)?;
    let max_tokens = args.max_tokens.unwrap_or(agents_md::DEFAULT_MAX_TOKENS);
    let section = agents_md::section(&set, args.lang.as_deref(), max_tokens)?;
    let system = &set.head().system;
    match (write, check) {
        (Some(file), _) => {
            let changed = agents_md::write(&file, system, &section)?;
            let what = if changed { "written into" } else { "unchanged in" };
            eprintln!("{system} {} section {what} {}", set.head().version, file.display());
            let bare = agents_md::bare_markers(&std::fs::read_to_string(&file).unwrap_or_default());
            if !bare.is_empty() {
                let lines: Vec<String> = bare.iter().map(usize::to_string).collect();
                eprintln!(
                    "warning: {} line {} holds a mydesign-docs marker naming no system, which no section is (the \
                     section is between `<!-- mydesign-docs:begin {system} -->` and its end): remove it",
                    file.display(),
                    lines.join(", ")
                );
            }
            Ok(ExitCode::SUCCESS)
        }
        (None, Some(file)) => match agents_md::check(&file, system, &section) {
            Ok(()) => {
                eprintln!("{}: the {system} section is current", file.display());
                Ok(ExitCode::SUCCESS)
            }
            Err(why) => {
                eprintln!("{why}");
                Ok(ExitCode::from(1))
            }
        },
        (None, None) => {
            emit(section.strip_suffix('\n').unwrap_or(&section))?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// `export --llms-txt DIR`: the set `args` choose as llms.txt and one Markdown file per component.
#[cfg(feature = "build")]
fn export(dir: &std::path::Path, args: &LookupArgs) -> anyhow::Result<ExitCode> {
    use super::export;
    if args.cursor.is_some() || args.json {
        anyhow::bail!("export writes files: --cursor and --json do not apply");
    }
    let (_, set) = open_library(args)?;
    let max_tokens = args.max_tokens.unwrap_or(export::DEFAULT_MAX_TOKENS);
    let started = std::time::Instant::now();
    let done = export::llms_txt(&set, args.lang.as_deref(), max_tokens, dir)?;
    eprintln!(
        "{} {}: llms.txt and {} component files written into {} ({} bytes, the largest {} tokens of {max_tokens}) in \
         {:.2} s",
        set.head().system,
        set.head().version,
        done.components,
        dir.display(),
        done.bytes,
        done.largest,
        started.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}

/// `export` in a binary without the compiler: it counts tokens, which only the compiler does.
#[cfg(not(feature = "build"))]
fn export(_: &std::path::Path, _: &LookupArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!(
        "`export` is not compiled into this binary (it counts tokens, which needs the `build` feature): run it with \
         the full mydesign-docs (docs/release.md)"
    )
}

/// `check`: every file (or standard input for `-`) read as TSX and checked against the set `args` choose.
#[cfg(feature = "build")]
fn check(files: &[PathBuf], args: &LookupArgs) -> anyhow::Result<ExitCode> {
    use super::check::{Finding, Known, check, unchecked};
    use anyhow::Context;
    if args.cursor.is_some() {
        anyhow::bail!(
            "check prints its findings from the first: --cursor does not apply (a larger --max-tokens prints more)"
        );
    }
    let (_, set) = open_library(args)?;
    let encoding = set.head().encoding.clone();
    let known = Known::read(set)?;
    let mut all: Vec<(String, Finding)> = Vec::new();
    let mut unreadable = false;
    for file in files {
        let (name, code) = if file.as_os_str() == "-" {
            let mut code = String::new();
            std::io::Read::read_to_string(&mut std::io::stdin(), &mut code).context("reading standard input")?;
            ("-".to_string(), code)
        } else {
            let bytes = std::fs::read(file).with_context(|| file.display().to_string())?;
            let Ok(code) = String::from_utf8(bytes) else {
                eprintln!("{}: not UTF-8 text", file.display());
                unreadable = true;
                continue;
            };
            (file.display().to_string(), code)
        };
        match mydesign_docs::usage::read(&code) {
            Ok(usage) => {
                all.extend(check(&known, &usage).into_iter().map(|f| (name.clone(), f)));
                // Said, not silent: a file importing another library's components is not checked against it.
                let skipped = unchecked(&known, &usage);
                if !skipped.is_empty() {
                    eprintln!(
                        "note: {name}: imports not checked (not from {}'s packages): {}",
                        known.system(),
                        skipped.join("; ")
                    );
                }
            }
            Err(e) => {
                eprintln!("{name}: {e}");
                unreadable = true;
            }
        }
    }
    let compose = |kept: usize| -> anyhow::Result<String> {
        if args.json {
            let list: Vec<serde_json::Value> = all[..kept]
                .iter()
                .map(|(file, f)| {
                    let mut v = serde_json::to_value(f).unwrap_or_default();
                    v["file"] = serde_json::Value::String(file.clone());
                    v
                })
                .collect();
            return Ok(serde_json::to_string_pretty(&list)?);
        }
        let text: Vec<String> = all[..kept]
            .iter()
            .map(|(file, f)| {
                format!(
                    "{file}:{}:{}: {}: {}\n  fix: {}\n  docs: {}",
                    f.line, f.column, f.rule, f.message, f.fix, f.docs
                )
            })
            .collect();
        Ok(text.join("\n"))
    };
    let (text, note) = match args.max_tokens {
        None => (compose(all.len())?, None),
        Some(max) => super::check::within(&encoding, max, all.len(), &compose)?,
    };
    if !text.is_empty() {
        emit(&text)?;
    }
    if let Some(note) = note {
        // Beside the JSON (a list of findings), on standard error; after the text, as its last line.
        if args.json { eprintln!("note: {note}") } else { emit(&format!("[{note}]"))? }
    }
    Ok(ExitCode::from(if unreadable {
        2
    } else if all.is_empty() {
        0
    } else {
        1
    }))
}

/// `check` in a binary without the compiler: it parses code, which only the compiler's grammars do.
#[cfg(not(feature = "build"))]
fn check(_: &[PathBuf], _: &LookupArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!(
        "`check` is not compiled into this binary (it parses code with the compiler's grammars, the `build` \
         feature): run it with the full mydesign-docs (docs/release.md)"
    )
}

/// `agents-md` in a binary without the compiler: it counts tokens, which only the compiler does.
#[cfg(not(feature = "build"))]
fn agents_md(_: Option<PathBuf>, _: Option<PathBuf>, _: &LookupArgs) -> anyhow::Result<ExitCode> {
    anyhow::bail!(
        "`agents-md` is not compiled into this binary (it counts tokens, which needs the `build` feature): run it \
         with the full mydesign-docs (docs/release.md)"
    )
}

/// The lookup options of a command that reads bundle sets (`verify` too); `None` for the others.
fn lookup_args(command: &Command) -> Option<&LookupArgs> {
    match command {
        Command::Components { lookup: a, .. }
        | Command::Verify { lookup: a, .. }
        | Command::Diff { lookup: a, .. }
        | Command::AgentsMd { lookup: a, .. }
        | Command::Export { lookup: a, .. }
        | Command::Check { lookup: a, .. } => Some(a),
        Command::Doc { lookup: a, .. }
        | Command::Prop { lookup: a, .. }
        | Command::Context { lookup: a, .. }
        | Command::CodeBlock { lookup: a, .. }
        | Command::Changelog { lookup: a, .. }
        | Command::Files { lookup: a, .. }
        | Command::File { lookup: a, .. }
        | Command::Function { lookup: a, .. }
        | Command::Tokens { lookup: a, .. }
        | Command::TokenFor { lookup: a, .. }
        | Command::Search { lookup: a, .. } => Some(a),
        _ => None,
    }
}

/// [`lookup_args`], to change.
fn lookup_args_mut(command: &mut Command) -> Option<&mut LookupArgs> {
    match command {
        Command::Components { lookup: a, .. }
        | Command::Verify { lookup: a, .. }
        | Command::Diff { lookup: a, .. }
        | Command::AgentsMd { lookup: a, .. }
        | Command::Export { lookup: a, .. }
        | Command::Check { lookup: a, .. } => Some(a),
        Command::Doc { lookup: a, .. }
        | Command::Prop { lookup: a, .. }
        | Command::Context { lookup: a, .. }
        | Command::CodeBlock { lookup: a, .. }
        | Command::Changelog { lookup: a, .. }
        | Command::Files { lookup: a, .. }
        | Command::File { lookup: a, .. }
        | Command::Function { lookup: a, .. }
        | Command::Tokens { lookup: a, .. }
        | Command::TokenFor { lookup: a, .. }
        | Command::Search { lookup: a, .. } => Some(a),
        _ => None,
    }
}

/// The one system among `names` whose package (`package` of its manifest, the design system's npm name) the
/// `package.json` of the current directory depends on (`dependencies`, `devDependencies`, `peerDependencies`),
/// with that package; `None` when there is no such file, or none or several of the systems match.
fn project_system(args: &LookupArgs, names: &[String]) -> Option<(String, String)> {
    let text = std::fs::read(std::env::current_dir().ok()?.join("package.json")).ok()?;
    let json: serde_json::Value = serde_json::from_slice(&text).ok()?;
    let depends = |package: &str| {
        ["dependencies", "devDependencies", "peerDependencies"]
            .iter()
            .any(|field| json.get(field).and_then(|d| d.get(package)).is_some())
    };
    let library = library(args).ok()?;
    let mut found = names.iter().filter_map(|name| {
        let package = library.select(Some(name), None).ok()?.head().package.clone()?;
        depends(&package).then(|| (name.clone(), package))
    });
    match (found.next(), found.next()) {
        (Some(one), None) => Some(one),
        _ => None,
    }
}

/// Whether the command asked for JSON: its errors are then JSON on stdout too (`{"error": "..."}`), exit code 2.
fn wants_json(command: &Command) -> bool {
    lookup_args(command).is_some_and(|a| a.json)
}

/// The lowest cap (`[thresholds] max_tokens`, tokens) of the sets this process answered from, once one is opened:
/// an error fits it as answers do (trial 7: a set built with a cap of 300 answered a misspelt section with a
/// 466-token error when no `--max-tokens` was given).
static SET_CAP: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(u32::MAX);

/// Records the cap of a set the process answers from ([`SET_CAP`]; at least the smallest budget).
fn saw_cap(cap: u32) {
    SET_CAP.fetch_min(cap.max(mydesign_docs::budget::MIN_MAX_TOKENS), std::sync::atomic::Ordering::Relaxed);
}

/// The budget an error of `command` must fit: its `--max-tokens`, else the default of its answers (search's
/// 2,000), at most the default cap of 10,000 (and, once known, the cap of the sets it opened: [`SET_CAP`]); 0 for
/// commands without one (their errors are not cut).
fn error_budget(command: &Command) -> u32 {
    use mydesign_docs::budget::DEFAULT_MAX_TOKENS;
    let default = match command {
        Command::Search { .. } => mydesign_docs::search::query::DEFAULT_MAX_TOKENS,
        _ => DEFAULT_MAX_TOKENS,
    };
    lookup_args(command).map_or(0, |a| a.max_tokens.unwrap_or(default)).min(DEFAULT_MAX_TOKENS)
}

pub fn run(command: Command) -> anyhow::Result<ExitCode> {
    let json = wants_json(&command);
    let budget = error_budget(&command);
    let fitted = |e: anyhow::Error, budget: u32| {
        // A lookup's error names calls and arguments as the CLI spells them (runnable commands, `--lang`), within
        // the budget; any context around it is kept.
        let lookup = e.downcast_ref::<LookupError>();
        let listing = lookup.and_then(|l| l.listing(Surface::Cli));
        let chain: Vec<String> = (e.chain())
            .map(|c| c.downcast_ref::<LookupError>().map_or_else(|| c.to_string(), |l| l.message(Surface::Cli)))
            .collect();
        let message = chain.join(": ");
        mydesign_docs::budget::fit_error_as(&message, listing.as_ref(), budget, "--max-tokens")
    };
    let rerun = reads_a_set(&command);
    let unnamed = lookup_args(&command).filter(|a| a.system.is_none()).cloned();
    let mut result = dispatch(command);
    // Several systems and no --system: the one the project in the current directory depends on answers, said on
    // stderr (issue 31: after README's real-input builds every lookup needed --system). Only on that error, so a
    // lookup in a directory of one system reads no package.json.
    if let Some(args) = &unnamed
        && let Err(e) = &result
        && let Some(LookupError::SeveralSystems { names, .. }) = e.downcast_ref::<LookupError>()
        && let Some((system, package)) = project_system(args, names)
    {
        let others: Vec<&str> = names.iter().map(String::as_str).filter(|n| *n != system).collect();
        eprintln!(
            "note: serving {system}: ./package.json depends on {package} (--system chooses another: {})",
            others.join(", ")
        );
        let mut command = <super::Cli as clap::Parser>::parse().command;
        if let Some(a) = lookup_args_mut(&mut command) {
            a.system = Some(system);
        }
        result = dispatch(command);
    }
    // A lookup pins the generation the set's link names when it opens the set; a build keeps that generation and
    // the one before it, so a lookup that outlives two rebuilds finds a bundle file removed under it. It then
    // runs once more (the command line parsed again) on the generation published now.
    if rerun && result.as_ref().is_err_and(generation_removed) {
        result = dispatch(<super::Cli as clap::Parser>::parse().command);
    }
    let budget = budget.min(SET_CAP.load(std::sync::atomic::Ordering::Relaxed));
    match result {
        Err(e) if json => {
            emit(&serde_json::json!({ "error": fitted(e, budget) }).to_string())?;
            Ok(ExitCode::from(2))
        }
        Err(e) if budget > 0 => Err(anyhow::anyhow!(fitted(e, budget))),
        other => other,
    }
}

/// Whether `command` only reads a bundle set (it may run again: [`generation_removed`]); `verify` reports what
/// it finds instead.
fn reads_a_set(command: &Command) -> bool {
    lookup_args(command).is_some() && !matches!(command, Command::Verify { .. })
}

/// Whether `e` is a bundle file not found: the set's generation was removed while the lookup ran (or the set is
/// incomplete, which a second run reports the same way).
fn generation_removed(e: &anyhow::Error) -> bool {
    use mydesign_docs::bundle::format::BundleError;
    use mydesign_docs::read::LookupError;
    let not_found =
        |b: &BundleError| matches!(b, BundleError::Io { error, .. } if error.kind() == std::io::ErrorKind::NotFound);
    e.chain().any(|c| {
        c.downcast_ref::<BundleError>().is_some_and(not_found)
            || matches!(c.downcast_ref::<LookupError>(), Some(LookupError::Bundle(b)) if not_found(b))
            || matches!(c.downcast_ref::<LookupError>(), Some(LookupError::DamagedVersion { error, .. }) if not_found(error))
    })
}

fn dispatch(command: Command) -> anyhow::Result<ExitCode> {
    match command {
        Command::Build(args) => super::build::run(args),
        Command::Serve(args) => super::serve::run(args),
        Command::Pack(args) => super::store::pack(args),
        Command::Install(args) => super::store::install(args),
        Command::List(args) => super::store::list(args),
        Command::Remove(args) => super::store::remove(args),
        Command::Setup(args) => super::setup::run(args),
        Command::AgentsMd { write, check, lookup: a } => agents_md(write, check, &a),
        Command::Export { llms_txt, lookup: a } => export(&llms_txt, &a),
        Command::Check { files, lookup: a } => check(&files, &a),
        Command::Diff { component, v1, v2, lookup: a } => {
            // The commands its errors print give both versions as arguments, never `--version` as well.
            mydesign_docs::render::set_cli_selection(a.system.as_deref(), None);
            let library = library(&a)?;
            let echo = mydesign_docs::read::echo;
            if let (Some(v2), Some(v)) = (&v2, &a.version)
                && v2.trim_start_matches('v') != v.trim_start_matches('v')
            {
                anyhow::bail!(
                    "diff {} {} {} --version {}: give the newer version once, as the second version or as --version",
                    echo(&component),
                    echo(&v1),
                    echo(v2),
                    echo(v)
                );
            }
            let to = v2.as_deref().or(a.version.as_deref());
            if let Some(to) = to.filter(|to| mydesign_docs::version::cmp(&v1, to).is_gt()) {
                let reversed =
                    LookupError::ReversedVersions { component: echo(&component), from: echo(&v1), to: echo(to) };
                return Err(reversed.into());
            }
            let view = library.fallback(|| {
                let changes =
                    mydesign_docs::diff::compare(library, a.system.as_deref(), &component, &v1, to, a.lang.as_deref())?;
                let set = library.select(a.system.as_deref(), Some(&changes.to))?;
                changes.page(paging(&set, &a)?)
            })?;
            print(&view, a.json)
        }
        Command::Completions { shell } => super::setup::completions(shell),
        Command::Man { command, dir } => super::setup::man(command.as_deref(), dir.as_deref()),
        Command::Components { guides, lookup: a } => {
            let kind = if guides { ListKind::Guide } else { ListKind::Component };
            answer(&a, |set, paging| set.list_paged(a.lang.as_deref(), kind, paging))
        }
        Command::Doc { component, detail, full, sections, lookup: a } => {
            let detail = if full { Some(Detail::Full) } else { detail };
            // Semi's addressing (`changelog` / `changelog-N`) and `--section props` as over MCP.
            answer(&a, |set, paging| set.details(&component, a.lang.as_deref(), detail, &sections, paging))
        }
        Command::Prop { component, prop, mut lookup } => {
            let (component, prop) = match prop {
                Some(prop) => (component, prop),
                None => match component.split_once('.') {
                    Some((c, p)) => (c.to_string(), p.to_string()),
                    None => anyhow::bail!(
                        "name the prop: `mydesign-docs prop {0} PROP` or `mydesign-docs prop {0}.PROP`",
                        mydesign_docs::read::echo(&component)
                    ),
                },
            };
            lookup.max_tokens = lookup.max_tokens.or(Some(mydesign_docs::read::PROP_MAX_TOKENS));
            let a = lookup;
            answer(&a, |set, paging| set.prop(&component, &prop, a.lang.as_deref(), paging))
        }
        Command::Context { components, mut lookup } => {
            if lookup.cursor.is_some() {
                anyhow::bail!(
                    "context answers in one part (its header names the budget that shows all): --cursor does not apply"
                );
            }
            lookup.max_tokens = lookup.max_tokens.or(Some(mydesign_docs::read::CONTEXT_MAX_TOKENS));
            let a = lookup;
            answer(&a, |set, paging| set.context(&components, a.lang.as_deref(), paging))
        }
        Command::CodeBlock { component, index, lookup: a } => {
            answer(&a, |set, paging| set.code_block(&component, index, a.lang.as_deref(), paging))
        }
        Command::Changelog { component: Some(component), since, lookup: a, .. } => {
            // Without --since, every release: after 0.0.0.
            let since = since.unwrap_or_else(|| "0.0.0".into());
            let digits = since.trim_start_matches('v').split(['.', '-']).next().unwrap_or("");
            if digits.parse::<u64>().is_err() {
                anyhow::bail!("--since {}: not a version (e.g. 3.4.0)", mydesign_docs::read::echo(&since));
            }
            answer(&a, |set, paging| {
                mydesign_docs::diff::changelog_since(set, &component, &since, a.lang.as_deref())?.page(paging)
            })
        }
        Command::Changelog { page, lookup: a, .. } => {
            answer(&a, |set, paging| set.changelog(page, a.lang.as_deref(), paging))
        }
        Command::Files { component, lookup: a } => answer(&a, |set, paging| set.files_paged(&component, paging)),
        Command::File { path, full, start_line, end_line, lookup: a } => {
            let lines = match (start_line, end_line) {
                (None, None) => None,
                (start, end) => Some((start.unwrap_or(1), end.unwrap_or(u32::MAX))),
            };
            answer(&a, |set, paging| set.file(&path, full, lines, paging))
        }
        Command::Function { path, name, lookup: a } => answer(&a, |set, paging| set.function(&path, &name, paging)),
        Command::Search { uses: Some(uses), mut lookup, .. } => {
            // A list of block numbers: the search's default budget (2,000).
            lookup.max_tokens = lookup.max_tokens.or(Some(mydesign_docs::search::query::DEFAULT_MAX_TOKENS));
            let a = lookup;
            answer(&a, |set, paging| set.uses(&uses, a.lang.as_deref(), paging))
        }
        Command::Tokens { query, kind, component, lookup: a } => {
            answer(&a, |set, paging| set.design_tokens_paged(query.as_deref(), kind, component.as_deref(), paging))
        }
        Command::TokenFor { value, lookup: a } => answer(&a, |set, paging| set.token_for(&value, paging)),
        Command::Search { query, component, kind, lookup: a, .. } => {
            // `--max-tokens` here is the search budget (default 2,000), still capped by the sets'. Without
            // `--system`, every system in `--bundles` is searched.
            let library = library(&a)?;
            let view = library.fallback(|| {
                let chosen = sets_to_search(library, a.system.as_deref(), a.version.as_deref())?;
                let sets = chosen.sets;
                if let Some(cap) = sets.iter().map(|s| s.head().thresholds.max_tokens).min() {
                    note_cap(a.max_tokens, cap);
                }
                let opts = SearchOptions {
                    skipped: chosen.skipped,
                    component: component.clone(),
                    kind,
                    lang: a.lang.clone(),
                    max_tokens: a.max_tokens,
                    token_cap: sets.iter().map(|s| s.head().thresholds.max_tokens).min(),
                    cursor: a.cursor.clone(),
                    ..Default::default()
                };
                let sets: Vec<&BundleSet> = sets.iter().map(|s| &**s).collect();
                search_sets(&sets, &query.join(" "), &opts)
            })?;
            print(&view, a.json)
        }
        #[cfg(not(feature = "build"))]
        Command::DumpTs { .. } => {
            anyhow::bail!("dump-ts needs tree-sitter: not compiled into this binary (no `build` feature)")
        }
        #[cfg(feature = "build")]
        Command::DumpTs { file } => {
            let lang = SourceLang::from_path(&file)
                .ok_or_else(|| anyhow::anyhow!("{}: not a .ts/.tsx/.js/.jsx/.vue file", file.display()))?;
            let text = std::fs::read_to_string(&file).map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
            emit(dump_tree(lang, &text)?.trim_end())?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Verify { store, lookup: mut a } => {
            // `--store DIR` is a directory of sets like any other (`install` publishes them as `build` does).
            a.bundles.extend(store);
            // Without --system, every system of the directories is verified (a README build puts the sample and
            // Semi side by side in out/; trial 4), each at its default version or --version.
            let library = library(&a)?;
            let systems: Vec<String> = match &a.system {
                Some(s) => vec![s.clone()],
                None => library.systems().into_iter().map(|(s, _)| s).collect(),
            };
            let (mut verified, mut failed) = (Vec::new(), Vec::new());
            for system in &systems {
                let set = match library.select(Some(system), a.version.as_deref()) {
                    Ok(set) => set,
                    // A system none of whose sets opens is reported with the others below.
                    Err(_) if a.system.is_none() && systems.len() > 1 => continue,
                    Err(e) => return Err(e.into()),
                };
                let checked = set.verify_all()?;
                if !checked.damaged.is_empty() {
                    // Every damaged bundle of every system, not only the first: one run lists what to copy again.
                    let list: Vec<String> = checked.damaged.iter().map(|e| format!("  {e}")).collect();
                    failed.push(format!(
                        "{} of the {} bundles of {} {} in {} {} damaged:\n{}",
                        checked.damaged.len(),
                        checked.bundles,
                        set.head().system,
                        set.head().version,
                        set.dir().display(),
                        if checked.damaged.len() == 1 { "is" } else { "are" },
                        list.join("\n")
                    ));
                    continue;
                }
                verified.push((set, checked.bundles, checked.frames));
            }
            if !failed.is_empty() {
                anyhow::bail!("{}", failed.join("\n"));
            }
            let oks: Vec<String> = (verified.iter())
                .map(|(set, bundles, frames)| {
                    let (m, dir) = (set.head(), set.dir().display());
                    let frames = thousands(*frames as u64);
                    format!(
                        "ok: {} {} in {dir}: {bundles} bundles, {frames} frames, checksums match",
                        m.system, m.version
                    )
                })
                .collect();
            let damaged = library.damaged_all();
            if !damaged.is_empty() {
                let list: Vec<String> = damaged.iter().map(|d| format!("  {d}")).collect();
                anyhow::bail!(
                    "{} of the bundle sets in {} do not open (the default version skips them):\n{}\n{}",
                    damaged.len(),
                    if a.bundles.is_empty() {
                        "./out or the store".to_string()
                    } else {
                        a.bundles.iter().map(|d| d.display().to_string()).collect::<Vec<_>>().join(", ")
                    },
                    list.join("\n"),
                    oks.join("\n")
                );
            }
            if a.json {
                let sets: Vec<serde_json::Value> = (verified.iter())
                    .map(|(set, bundles, frames)| {
                        let m = set.head();
                        let dir = set.dir().display().to_string();
                        serde_json::json!({
                            "ok": true, "system": m.system, "version": m.version, "dir": dir, "bundles": bundles,
                            "frames": frames
                        })
                    })
                    .collect();
                // One set: its object, as before; several: the list.
                let v = match <[_; 1]>::try_from(sets) {
                    Ok([one]) => one,
                    Err(sets) => serde_json::Value::Array(sets),
                };
                emit(&v.to_string())?;
            } else {
                emit(&oks.join("\n"))?;
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}
