//! `setup --client C [--write]`: the MCP configuration of this binary and store for one client, printed or merged
//! into the client's config file (other entries kept, the file backed up first); `completions` and `man`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, bail};
use clap::{Args, ValueEnum};

use super::emit;

/// The server's name in every client's configuration.
const SERVER_NAME: &str = "mydesign-docs";

/// MCP clients `setup` knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Client {
    /// Claude Code (`.mcp.json`, or `~/.claude.json` with --user).
    ClaudeCode,
    /// Cursor (`.cursor/mcp.json`, or `~/.cursor/mcp.json`).
    Cursor,
    /// VS Code (`.vscode/mcp.json`, or `~/.config/Code/User/mcp.json`).
    Vscode,
    /// OpenAI Codex CLI (`.codex/config.toml`, or `~/.codex/config.toml`).
    Codex,
    /// Gemini CLI (`.gemini/settings.json`, or `~/.gemini/settings.json`).
    Gemini,
    /// Windsurf (`~/.codeium/windsurf/mcp_config.json`; user config only).
    Windsurf,
    /// Zed (`.zed/settings.json`, or `~/.config/zed/settings.json`).
    Zed,
}

// Options of `setup` (not a doc comment: see `cli::LookupArgs`).
#[derive(Args, Debug)]
pub struct SetupArgs {
    /// The client to configure.
    #[arg(long, value_enum)]
    client: Client,
    /// Merge the configuration into the client's config file (backed up first to FILE.bak) instead of printing it.
    #[arg(long)]
    write: bool,
    /// Write the user's config file instead of the project's.
    #[arg(long)]
    user: bool,
    /// The project directory whose config file --write merges into (default: the current directory).
    #[arg(long, value_name = "DIR", default_value = ".")]
    project: PathBuf,
    /// Bundle directory the server reads (default: the store: $MYDESIGN_DOCS_HOME, else
    /// ~/.local/share/mydesign-docs).
    #[arg(long, value_name = "DIR")]
    bundles: Option<PathBuf>,
    /// Start the server configured in the client's config file (else the one `setup` would configure) as the client
    /// would, list its tools and what it serves, and stop it; exit 1 when it does not answer.
    #[arg(long, conflicts_with = "write")]
    check: bool,
    /// With --write, also merge an index of each served design system into this file of the project (default
    /// AGENTS.md; `agents-md` writes the same section): the agent reads it on every task.
    #[arg(long, value_name = "FILE", num_args = 0..=1, default_missing_value = "AGENTS.md", requires = "write")]
    agents_md: Option<PathBuf>,
}

/// How a client's config file holds servers.
enum Shape {
    /// JSON: `{ KEY: { name: ENTRY } }`.
    Json { key: &'static str },
    /// TOML: `[mcp_servers.name]`.
    Toml,
}

impl Client {
    fn shape(self) -> Shape {
        match self {
            Client::Vscode => Shape::Json { key: "servers" },
            Client::Zed => Shape::Json { key: "context_servers" },
            Client::Codex => Shape::Toml,
            _ => Shape::Json { key: "mcpServers" },
        }
    }

    /// The config file: the project's (relative to `project`) or the user's (relative to `home`).
    fn file(self, project: &Path, home: &Path, user: bool) -> PathBuf {
        let (base, rel) = match (self, user) {
            (Client::Windsurf, _) => (home, ".codeium/windsurf/mcp_config.json"),
            (Client::ClaudeCode, false) => (project, ".mcp.json"),
            (Client::ClaudeCode, true) => (home, ".claude.json"),
            (Client::Cursor, u) => (if u { home } else { project }, ".cursor/mcp.json"),
            (Client::Vscode, false) => (project, ".vscode/mcp.json"),
            (Client::Vscode, true) => (home, ".config/Code/User/mcp.json"),
            (Client::Codex, u) => (if u { home } else { project }, ".codex/config.toml"),
            (Client::Gemini, u) => (if u { home } else { project }, ".gemini/settings.json"),
            (Client::Zed, false) => (project, ".zed/settings.json"),
            (Client::Zed, true) => (home, ".config/zed/settings.json"),
        };
        base.join(rel)
    }

    /// The server entry in the client's JSON dialect.
    fn json_entry(self, command: &str, args: &[String]) -> serde_json::Value {
        match self {
            Client::Vscode => serde_json::json!({ "type": "stdio", "command": command, "args": args }),
            Client::Zed => serde_json::json!({ "source": "custom", "command": command, "args": args, "env": {} }),
            _ => serde_json::json!({ "command": command, "args": args }),
        }
    }
}

/// The binary's absolute path and the arguments of `serve` reading `bundles`.
fn server_command(bundles: &Path) -> anyhow::Result<(String, Vec<String>)> {
    let exe = std::env::current_exe().context("the path of this binary")?;
    let exe = exe.canonicalize().unwrap_or(exe);
    let bundles = std::path::absolute(bundles).unwrap_or_else(|_| bundles.to_path_buf());
    Ok((exe.display().to_string(), vec!["serve".into(), "--bundles".into(), bundles.display().to_string()]))
}

fn home() -> anyhow::Result<PathBuf> {
    directories::BaseDirs::new().map(|b| b.home_dir().to_path_buf()).context("no home directory is known (set HOME)")
}

/// What a server reading `bundles` will serve, in one line, or a warning when it would serve nothing (issue 31:
/// `setup` pinned an empty or missing store without a word, and the configured server then exited at start).
fn served_summary(bundles: &Path) -> String {
    let hint = "build one with `mydesign-docs build REPO --out DIR` and pass `setup --bundles DIR`, or `install` a \
                pack into the store";
    if !bundles.is_dir() {
        return format!(
            "warning: {} does not exist: the configured server has nothing to serve and will exit at start; {hint}",
            bundles.display()
        );
    }
    let library = match mydesign_docs::read::Library::open(&[bundles.to_path_buf()]) {
        Ok(library) => library,
        Err(e) => {
            return format!(
                "warning: {} holds no bundle set ({e}): the configured server will exit at start; {hint}",
                bundles.display()
            );
        }
    };
    let sets: Vec<String> = library.systems().iter().map(|(s, v)| format!("{s} {}", v.join(", "))).collect();
    if sets.is_empty() {
        return format!(
            "warning: {} holds no bundle set: the configured server will exit at start; {hint}",
            bundles.display()
        );
    }
    format!("the server will serve {} from {}", sets.join("; "), bundles.display())
}

/// Shell-quotes one word for the printed `claude mcp add` command.
fn quote(word: &str) -> String {
    if !word.is_empty() && word.chars().all(|c| c.is_ascii_alphanumeric() || "-_./=:@+".contains(c)) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

pub fn run(args: SetupArgs) -> anyhow::Result<ExitCode> {
    let bundles = match &args.bundles {
        Some(b) => b.clone(),
        None => mydesign_docs::store::store_dir(None)
            .context("no store directory is known: pass --bundles DIR or set MYDESIGN_DOCS_HOME")?,
    };
    let (command, server_args) = server_command(&bundles)?;
    if args.write && !args.user && !args.project.is_dir() {
        anyhow::bail!(
            "--project {}: no such directory (--write merges into a project's config file)",
            args.project.display()
        );
    }
    let file = args.client.file(&args.project, &home()?, args.user);
    if args.check {
        return check(args.client, &file, command, server_args);
    }
    // On stderr, so the printed snippet stays what a redirect captures.
    eprintln!("{}", served_summary(&bundles));
    if !args.write {
        let snippet = match args.client.shape() {
            Shape::Toml => {
                let mut doc = toml_edit::DocumentMut::new();
                merge_toml(&mut doc, &command, &server_args);
                doc.to_string()
            }
            Shape::Json { key } => {
                let mut map = serde_json::Map::new();
                map.insert(SERVER_NAME.into(), args.client.json_entry(&command, &server_args));
                serde_json::to_string_pretty(&serde_json::json!({ key: map }))?
            }
        };
        let mut out = String::new();
        if args.client == Client::ClaudeCode {
            let scope = if args.user { "user" } else { "project" };
            let words: Vec<String> = server_args.iter().map(|a| quote(a)).collect();
            out.push_str(&format!(
                "claude mcp add --scope {scope} {SERVER_NAME} -- {} {}\n\nor in {}:\n",
                quote(&command),
                words.join(" "),
                file.display()
            ));
        } else {
            out.push_str(&format!("in {} (`--write` merges it there):\n", file.display()));
        }
        out.push_str(snippet.trim_end());
        emit(&out)?;
        return Ok(ExitCode::SUCCESS);
    }
    let old = match std::fs::read_to_string(&file) {
        Ok(text) => Some(text),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(e).with_context(|| file.display().to_string()),
    };
    let new = match args.client.shape() {
        Shape::Json { key } => {
            let mut root: serde_json::Value = match old.as_deref().filter(|t| !t.trim().is_empty()) {
                None => serde_json::json!({}),
                Some(text) => serde_json::from_str(text).with_context(|| {
                    format!(
                        "{} is not plain JSON (comments or trailing commas?): not rewritten; add the entry printed by \
                         `mydesign-docs setup --client {}` by hand",
                        file.display(),
                        args.client.to_possible_value().map(|v| v.get_name().to_string()).unwrap_or_default()
                    )
                })?,
            };
            let Some(obj) = root.as_object_mut() else {
                bail!("{}: the top level is not a JSON object", file.display())
            };
            let servers = obj.entry(key).or_insert_with(|| serde_json::json!({}));
            let Some(servers) = servers.as_object_mut() else {
                bail!("{}: `{key}` is not a JSON object; not rewritten", file.display())
            };
            servers.insert(SERVER_NAME.into(), args.client.json_entry(&command, &server_args));
            serde_json::to_string_pretty(&root)? + "\n"
        }
        Shape::Toml => {
            let mut doc: toml_edit::DocumentMut = old
                .as_deref()
                .unwrap_or("")
                .parse()
                .with_context(|| format!("{} is not valid TOML", file.display()))?;
            merge_toml(&mut doc, &command, &server_args);
            doc.to_string()
        }
    };
    if let Some(dir) = file.parent() {
        std::fs::create_dir_all(dir).with_context(|| dir.display().to_string())?;
    }
    let backup = old.as_ref().map(|text| {
        let mut name = file.clone().into_os_string();
        name.push(".bak");
        (PathBuf::from(name), text)
    });
    if let Some((path, text)) = &backup {
        std::fs::write(path, text).with_context(|| format!("backing up to {}", path.display()))?;
    }
    mydesign_docs::bundle::writer::write_atomically(&file, new.as_bytes())
        .with_context(|| file.display().to_string())?;
    let saved = backup.map(|(p, _)| format!(" (previous version in {})", p.display())).unwrap_or_default();
    emit(&format!("{SERVER_NAME} added to {}{saved}: {command} {}", file.display(), server_args.join(" ")))?;
    if let Some(index) = &args.agents_md {
        let index = if index.is_absolute() { index.clone() } else { args.project.join(index) };
        write_agents_md(&bundles, &index)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `setup --agents-md FILE`: the `agents-md` section of the newest version of each system in `bundles`, merged into
/// `file`, each said on stdout.
#[cfg(feature = "build")]
fn write_agents_md(bundles: &Path, file: &Path) -> anyhow::Result<()> {
    use super::agents_md;
    let library = mydesign_docs::read::Library::open(&[bundles.to_path_buf()])?;
    for (system, _) in library.systems() {
        let set = library.select(Some(&system), None)?;
        let section = agents_md::section(&set, None, agents_md::DEFAULT_MAX_TOKENS)?;
        let changed = agents_md::write(file, &system, &section)?;
        let what = if changed { "added to" } else { "already current in" };
        emit(&format!("{system} {} index {what} {}", set.head().version, file.display()))?;
    }
    Ok(())
}

/// `setup --agents-md` in a binary without the compiler: the index counts tokens.
#[cfg(not(feature = "build"))]
fn write_agents_md(_: &Path, _: &Path) -> anyhow::Result<()> {
    anyhow::bail!(
        "--agents-md is not compiled into this binary (it counts tokens, the `build` feature): run `setup` of the full mydesign-docs"
    )
}

/// The `mydesign-docs` entry's command and arguments in a client's config file, if it has one.
fn configured_entry(client: Client, file: &Path) -> anyhow::Result<Option<(String, Vec<String>)>> {
    let text = match std::fs::read_to_string(file) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e).with_context(|| file.display().to_string()),
    };
    let entry = match client.shape() {
        Shape::Json { key } => {
            let root: serde_json::Value = serde_json::from_str(&text)
                .with_context(|| format!("{} is not plain JSON (comments or trailing commas?)", file.display()))?;
            let Some(entry) = root.get(key).and_then(|servers| servers.get(SERVER_NAME)) else {
                return Ok(None);
            };
            let command = entry.get("command").and_then(serde_json::Value::as_str).map(str::to_string);
            let args = entry.get("args").map(|args| match args.as_array() {
                Some(items) => items.iter().map(|a| a.as_str().map(str::to_string)).collect::<Option<Vec<_>>>(),
                None => None,
            });
            (command, args)
        }
        // toml_edit, which writes the file, reads it too: the `toml` crate's deserializer would add ~0.1 MB to the
        // reader-only binary (issue 14's 6 MB bound) for one lookup.
        Shape::Toml => {
            let doc: toml_edit::DocumentMut =
                text.parse().with_context(|| format!("{} is not valid TOML", file.display()))?;
            let Some(entry) = doc.get("mcp_servers").and_then(|servers| servers.get(SERVER_NAME)) else {
                return Ok(None);
            };
            let command = entry.get("command").and_then(toml_edit::Item::as_str).map(str::to_string);
            let args = entry.get("args").map(|args| match args.as_array() {
                Some(items) => items.iter().map(|a| a.as_str().map(str::to_string)).collect::<Option<Vec<_>>>(),
                None => None,
            });
            (command, args)
        }
    };
    let (Some(command), args) = entry else {
        bail!("{}: the `{SERVER_NAME}` entry has no `command` string", file.display());
    };
    let args = match args {
        None => Vec::new(),
        Some(Some(args)) => args,
        Some(None) => bail!("{}: the `{SERVER_NAME}` entry's `args` is not a list of strings", file.display()),
    };
    Ok(Some((command, args)))
}

/// `setup --check`: probes the configured server (issue 31), printing what it serves.
#[cfg(feature = "serve")]
fn check(client: Client, file: &Path, command: String, args: Vec<String>) -> anyhow::Result<ExitCode> {
    use mydesign_docs::serve::probe::{ProbeError, probe};
    let (command, args) = match configured_entry(client, file)? {
        Some(entry) => {
            eprintln!("checking the `{SERVER_NAME}` entry of {}", file.display());
            entry
        }
        None => {
            eprintln!(
                "{} has no `{SERVER_NAME}` entry: checking the one `setup` would write (`--write` adds it)",
                file.display()
            );
            (command, args)
        }
    };
    let shown: Vec<String> = std::iter::once(&command).chain(&args).map(|w| quote(w)).collect();
    eprintln!("starting: {}", shown.join(" "));
    match probe(&command, &args, std::time::Duration::from_secs(20)) {
        Ok(found) => {
            let mut out = format!(
                "ok: {} answered (MCP {}) with {} tools: {}\n",
                found.server,
                found.protocol,
                found.tools.len(),
                found.tools.join(", ")
            );
            match found.components {
                Ok(text) => out.push_str(&format!("list_components:\n{text}")),
                Err(text) => {
                    out.push_str(&format!("list_components failed:\n{text}"));
                    emit(&out)?;
                    return Ok(ExitCode::FAILURE);
                }
            }
            emit(&out)?;
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            let hint = match &e {
                ProbeError::Spawn { .. } => {
                    "\nthe command is not there: run `setup --write` again after moving or \
                                            reinstalling the binary"
                }
                _ => "",
            };
            eprintln!("error: the configured server does not work: {e}{hint}");
            Ok(ExitCode::FAILURE)
        }
    }
}

#[cfg(not(feature = "serve"))]
fn check(_: Client, _: &Path, _: String, _: Vec<String>) -> anyhow::Result<ExitCode> {
    bail!("`setup --check` starts the MCP server, which this binary was built without (the `serve` feature)")
}

/// Sets `[mcp_servers.mydesign-docs]` in a Codex config, keeping everything else (comments included).
fn merge_toml(doc: &mut toml_edit::DocumentMut, command: &str, args: &[String]) {
    use toml_edit::{Array, Item, Table, value};
    if !doc.contains_table("mcp_servers") {
        let mut t = Table::new();
        t.set_implicit(true);
        doc.insert("mcp_servers", Item::Table(t));
    }
    let mut entry = Table::new();
    entry.insert("command", value(command));
    entry.insert("args", value(args.iter().map(String::as_str).collect::<Array>()));
    if let Some(servers) = doc["mcp_servers"].as_table_mut() {
        servers.insert(SERVER_NAME, Item::Table(entry));
    }
}

/// Shells `completions` writes for.
#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum Shell {
    /// bash.
    Bash,
    /// zsh.
    Zsh,
    /// fish.
    Fish,
}

#[cfg(feature = "shell")]
/// `completions SHELL`: the completion script on stdout.
pub fn completions(shell: Shell) -> anyhow::Result<ExitCode> {
    use clap::CommandFactory;
    let mut cmd = super::Cli::command();
    let mut out = Vec::new();
    let shell = match shell {
        Shell::Bash => clap_complete::Shell::Bash,
        Shell::Zsh => clap_complete::Shell::Zsh,
        Shell::Fish => clap_complete::Shell::Fish,
    };
    clap_complete::generate(shell, &mut cmd, SERVER_NAME, &mut out);
    emit(String::from_utf8_lossy(&out).trim_end())?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(feature = "shell")]
/// `man [COMMAND] [--dir DIR]`: the page of `mydesign-docs` (or of one command) on stdout, or every page written
/// into `DIR` as `mydesign-docs.1` and `mydesign-docs-<command>.1` (the names the top page's SEE ALSO gives), each
/// written atomically. Pages are rendered by clap_mangen from the same definitions as `--help`.
///
/// # Errors
/// An unknown command (naming the commands), or a page that cannot be written.
pub fn man(command: Option<&str>, dir: Option<&std::path::Path>) -> anyhow::Result<ExitCode> {
    use clap::CommandFactory;
    // Subcommands are built lazily (`defer`); building the tree gives each its arguments and its `mydesign-docs-x`
    // display name, which is also the page's file name.
    let mut cli = super::Cli::command().disable_help_subcommand(true);
    cli.build();
    let pages: Vec<clap::Command> =
        std::iter::once(cli.clone()).chain(cli.get_subcommands().filter(|c| !c.is_hide_set()).cloned()).collect();
    let render = |cmd: &clap::Command| -> anyhow::Result<(String, Vec<u8>)> {
        let man = clap_mangen::Man::new(cmd.clone());
        let mut out = Vec::new();
        man.render(&mut out)?;
        Ok((man.get_filename(), out))
    };
    if let Some(dir) = dir {
        std::fs::create_dir_all(dir).map_err(|e| anyhow::anyhow!("cannot create {}: {e}", dir.display()))?;
        for page in &pages {
            let (name, roff) = render(page)?;
            let path = dir.join(&name);
            mydesign_docs::bundle::writer::write_atomically(&path, &roff)
                .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?;
            emit(&path.display().to_string())?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    let page = match command {
        None => &pages[0],
        Some(name) => pages[1..].iter().find(|c| c.get_name() == name).ok_or_else(|| {
            let names: Vec<&str> = pages[1..].iter().map(clap::Command::get_name).collect();
            anyhow::anyhow!("`{}` is not a command: {}", name.escape_debug(), names.join(", "))
        })?,
    };
    let (_, roff) = render(page)?;
    emit(String::from_utf8_lossy(&roff).trim_end())?;
    Ok(ExitCode::SUCCESS)
}

/// `completions SHELL` in a binary built without the `shell` feature (the reader-only binary): says so.
#[cfg(not(feature = "shell"))]
pub fn completions(shell: Shell) -> anyhow::Result<ExitCode> {
    let _ = shell;
    not_compiled_in("completions")
}

/// `man` in a binary built without the `shell` feature: says so.
#[cfg(not(feature = "shell"))]
pub fn man(command: Option<&str>, dir: Option<&std::path::Path>) -> anyhow::Result<ExitCode> {
    let _ = (command, dir);
    not_compiled_in("man")
}

/// The error of a command left out of this binary with the `shell` feature.
#[cfg(not(feature = "shell"))]
fn not_compiled_in(command: &str) -> anyhow::Result<ExitCode> {
    anyhow::bail!(
        "`{command}` is not compiled into this binary (built without the `shell` feature, to keep the reader-only \
         binary small); the full mydesign-docs (default features) has it"
    )
}
