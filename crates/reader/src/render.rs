//! One renderer for every lookup: the structured form is the view itself (serialized as JSON), the text form is a
//! one-line bracketed header (system, version, what was served, its size in tokens, how to get more) followed by
//! the content exactly as stored. CLI and MCP share it, so both say the same thing; only the calls that fetch more
//! are spelled for the [`Surface`] reading them, always with the system, version and language that were served so
//! following one never lands on another set.

use crate::budget::Part;
use crate::read::*;

/// `component_details` / `doc`: the tool and subcommand that serve documents, cards and props.
const DETAILS: (&str, &str) = ("component_details", "doc");

/// Who reads a rendered text, which decides how "fetch more" calls are spelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Surface {
    /// An MCP client: `get_code_block(system="semi", version="2.102.0", lang="zh-CN", component="table", index=N)`.
    Mcp,
    /// A person or script at the command line: `mydesign-docs code-block table N --system semi --version …`.
    Cli,
}

/// One argument of a follow-up call, typed so that each [`Surface`] spells it as its reader sends it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Arg {
    /// A string: a JSON string for MCP (`component="table"`), one shell-quoted word for the CLI (`'o'\''brien'`).
    Str(String),
    /// A whole number: `index=12` / `12`.
    Num(u64),
    /// A switch that is on: `full=true` / `--full`.
    On,
    /// A list of strings: a JSON array for MCP (`sections=["a","b"]`), the CLI flag (the first field, e.g.
    /// `--section`) repeated, one shell-quoted value each (`--section a --section 'b c'`). An empty list is left out
    /// on both surfaces.
    List(&'static str, Vec<String>),
    /// A placeholder the reader fills in (`N`, `NAME`): written bare on both surfaces.
    Hole(&'static str),
    /// A placeholder for a list whose items the reader fills in: the CLI flag (the first field) and the item's
    /// placeholder (the second). MCP `sections=[TITLE, …]`, CLI `--section TITLE …` (the flag repeatable).
    Holes(&'static str, &'static str),
}

impl Arg {
    /// The value as JSON, as an MCP client sends it (a placeholder as its name, a string).
    pub fn json(&self) -> serde_json::Value {
        match self {
            Arg::Str(v) => v.as_str().into(),
            Arg::Num(n) => (*n).into(),
            Arg::On => true.into(),
            Arg::List(_, vs) => vs.clone().into(),
            Arg::Hole(h) => (*h).into(),
            Arg::Holes(_, h) => vec![*h].into(),
        }
    }
}

impl From<String> for Arg {
    fn from(v: String) -> Arg {
        Arg::Str(v)
    }
}

impl From<&str> for Arg {
    fn from(v: &str) -> Arg {
        Arg::Str(v.to_string())
    }
}

impl From<u32> for Arg {
    fn from(n: u32) -> Arg {
        Arg::Num(n.into())
    }
}

/// The MCP arguments of a call for the set of `s`, in order: `system`, `version`, `lang` when given, then `args`
/// (a CLI flag `--start-line` is MCP's `start_line`; empty lists are left out).
fn mcp_arguments<'a>(
    s: &Served,
    lang: Option<&str>,
    args: &'a [(&str, Arg)],
) -> impl Iterator<Item = (String, std::borrow::Cow<'a, Arg>)> {
    use std::borrow::Cow;
    let set = [("system", Arg::Str(s.system.clone())), ("version", Arg::Str(s.version.clone()))];
    let set = set
        .into_iter()
        .chain(lang.map(|l| ("lang", Arg::Str(l.to_string()))))
        .map(|(k, v)| (k.to_string(), Cow::Owned(v)));
    let own = args
        .iter()
        .filter(|(_, v)| !matches!(v, Arg::List(_, vs) if vs.is_empty()))
        .map(|(k, v)| (Surface::Mcp.name(k), Cow::Borrowed(v)));
    set.chain(own)
}

/// The arguments of the MCP call [`Surface::call`] writes, as the JSON object a client sends (what a search hit's
/// `follow_up.arguments` holds).
pub fn call_arguments(
    s: &Served,
    lang: Option<&str>,
    args: &[(&str, Arg)],
) -> serde_json::Map<String, serde_json::Value> {
    mcp_arguments(s, lang, args).map(|(k, v)| (k, v.json())).collect()
}

impl Surface {
    /// The call that continues a cut answer: [`Surface::call`] with `args`, the cursor, and the call's own
    /// `max_tokens` when it set one (so every part keeps the budget the first was asked for).
    pub(crate) fn resume(
        self,
        s: &Served,
        lang: Option<&str>,
        (tool, cli): (&str, &str),
        args: &[(&'static str, Arg)],
        max_tokens: Option<u32>,
        cursor: &str,
    ) -> String {
        let mut args = args.to_vec();
        args.push(("--cursor", cursor.into()));
        args.extend(max_tokens.map(|n| ("--max-tokens", n.into())));
        self.call(s, lang, tool, cli, &args)
    }

    /// The one builder of "the call that gets more", used by every answer: MCP tool `tool` / CLI subcommand `cli`
    /// (its words) for the set of `s`, in `lang` when given, with `args`. MCP: `tool(name=value, …)`, values as
    /// JSON (see [`call_arguments`]). CLI: `mydesign-docs cli …`, a value positional unless its name starts with
    /// `--`, every value quoted for a POSIX shell, then [`cli_set_args`] and `--lang`.
    pub fn call(self, s: &Served, lang: Option<&str>, tool: &str, cli: &str, args: &[(&str, Arg)]) -> String {
        match self {
            Surface::Mcp => {
                let parts: Vec<String> = mcp_arguments(s, lang, args).map(|(k, v)| self.arg(&k, &v)).collect();
                format!("{tool}({})", parts.join(", "))
            }
            Surface::Cli => {
                // Every word quoted for a POSIX shell: the command runs as printed when pasted.
                let mut tail = format!(" {}", cli_set_args(s));
                tail.extend(lang.map(|l| format!(" {}", self.arg("--lang", &Arg::from(l)))));
                cli_command(cli, args, &tail)
            }
        }
    }

    /// One argument as this surface's calls write it ([`Surface::call`] writes each with it), for hints that name
    /// an argument rather than a whole call. `name` is the CLI's: `--detail` (a flag), or a positional's name
    /// (`component`). MCP: `detail="full"`, `index=N`, `sections=["a"]`, `sections=[TITLE, …]`, `full=true`. CLI:
    /// `--detail full`, `--full`, `--section a`, `--section TITLE …`; a positional is its value alone; every value
    /// quoted for a POSIX shell (`--detail 'a b'`). An empty [`Arg::List`] is empty on the CLI.
    pub fn arg(self, name: &str, value: &Arg) -> String {
        match self {
            Surface::Mcp => {
                let k = self.name(name);
                match value {
                    Arg::Hole(h) => format!("{k}={h}"),
                    Arg::Holes(_, h) => format!("{k}=[{h}, …]"),
                    v => format!("{k}={}", crate::escape::json(&v.json())),
                }
            }
            Surface::Cli => {
                let q = |v: &str| crate::escape::shell_word(v).into_owned();
                let value = match value {
                    Arg::Str(v) => q(v),
                    Arg::Num(n) => n.to_string(),
                    Arg::Hole(h) => h.to_string(),
                    Arg::On => return name.to_string(),
                    Arg::List(flag, vs) => {
                        return vs.iter().map(|v| format!("{flag} {}", q(v))).collect::<Vec<_>>().join(" ");
                    }
                    Arg::Holes(flag, h) => return format!("{flag} {h} …"),
                };
                if name.starts_with("--") { format!("{name} {value}") } else { value }
            }
        }
    }

    /// An argument's name as this surface spells it, from the CLI's: `--max-tokens` is MCP's `max_tokens`.
    pub fn name(self, name: &str) -> String {
        match self {
            Surface::Mcp => name.trim_start_matches("--").replace('-', "_"),
            Surface::Cli => name.to_string(),
        }
    }
}

/// `mydesign-docs cli` with `args` as [`Surface::arg`] writes them, then `tail` (the set's options, each word
/// with its leading space). A positional value that starts with `-` (a component named `-x`) would be read as an
/// option: then the options come first and the positionals after `--`, so the command runs as printed.
pub(crate) fn cli_command(cli: &str, args: &[(&str, Arg)], tail: &str) -> String {
    let positional = |k: &str| !k.starts_with("--");
    let dashed = args.iter().any(|(k, v)| positional(k) && matches!(v, Arg::Str(v) if v.starts_with('-')));
    let word = |(k, v): &(&str, Arg)| Surface::Cli.arg(k, v);
    let mut words = vec![format!("mydesign-docs {cli}")];
    if dashed {
        words.extend(args.iter().filter(|(k, _)| !positional(k)).map(word).filter(|w| !w.is_empty()));
        let mut out = words.join(" ") + tail + " --";
        for w in args.iter().filter(|(k, _)| positional(k)).map(word) {
            out.push(' ');
            out.push_str(&w);
        }
        return out;
    }
    words.extend(args.iter().map(word).filter(|w| !w.is_empty()));
    words.join(" ") + tail
}

/// Records the CLI's `--bundles` directories, in the order given (see [`cli_set_args`]); the default `out` alone is
/// not recorded. The commands a CLI process prints repeat them, so that pasting one reads the same bundles (and
/// falls back to the same copies). Set once by the CLI (a process has one list); never by the server.
pub fn set_cli_bundles(dirs: &[String]) {
    crate::read::record_cli_bundles(dirs);
}

/// `--system S --version V` (and `--bundles DIR` when the CLI was given one) for commands printed to the CLI, each
/// value quoted for a POSIX shell (`--bundles 'my docs/out'`).
pub fn cli_set_args(s: &Served) -> String {
    let q = |v: &str| crate::escape::shell_word(v).into_owned();
    format!("--system {} --version {}{}", q(&s.system), q(&s.version), cli_bundles_arg())
}

/// ` --bundles DIR` for each `--bundles` directory the CLI was given, else nothing: for commands printed without
/// `--system` (a search of every system).
pub fn cli_bundles_arg() -> String {
    let dirs = crate::read::cli_bundles().unwrap_or_default();
    dirs.iter().map(|dir| format!(" --bundles {}", crate::escape::shell_word(dir))).collect()
}

/// The `--system` and `--version` a CLI process was given (see [`set_cli_selection`]).
static CLI_SELECTION: std::sync::OnceLock<(Option<String>, Option<String>)> = std::sync::OnceLock::new();

/// Records the `--system` and `--version` of the CLI's command line, as given: the calls its error messages name
/// ([`Surface::hint`]) repeat them, so that pasting one reads the set the failed command read. Set once by the CLI;
/// never by the server.
pub fn set_cli_selection(system: Option<&str>, version: Option<&str>) {
    let _ = CLI_SELECTION.set((system.map(str::to_string), version.map(str::to_string)));
}

/// ` --system S --version V` as the command line gave them ([`set_cli_selection`]), then [`cli_bundles_arg`].
fn cli_selection_args() -> String {
    let q = |v: &String| crate::escape::shell_word(v).into_owned();
    let (system, version) = CLI_SELECTION.get().map_or((None, None), |(s, v)| (s.as_ref(), v.as_ref()));
    let mut out = String::new();
    out.extend(system.map(|s| format!(" --system {}", q(s))));
    out.extend(version.map(|v| format!(" --version {}", q(v))));
    out + &cli_bundles_arg()
}

impl Surface {
    /// A call that an error message names (one that lists what exists, or asks again the right way), for the set
    /// the failed call asked for rather than one an answer served: MCP `tool(k=v, …)` with `lang` first when
    /// given; CLI `mydesign-docs cli …`, `--lang` when given, then the `--system`, `--version` and `--bundles` the
    /// command line gave ([`set_cli_selection`], [`set_cli_bundles`]), every value quoted for a POSIX shell, so
    /// that it runs as printed and reads the same set. Arguments are spelled by [`Surface::arg`].
    pub fn hint(self, tool: &str, cli: &str, lang: Option<&str>, args: &[(&str, Arg)]) -> String {
        let lang = lang.map(|l| ("--lang", Arg::from(l)));
        match self {
            Surface::Mcp => {
                let all = lang.iter().chain(args).map(|(k, v)| self.arg(k, v)).filter(|w| !w.is_empty());
                format!("{tool}({})", all.collect::<Vec<_>>().join(", "))
            }
            Surface::Cli => {
                let args: Vec<(&str, Arg)> = args.iter().chain(&lang).cloned().collect();
                cli_command(cli, &args, &cli_selection_args())
            }
        }
    }

    /// A call named inside an error message: the CLI's between backticks (a command to paste), MCP's bare.
    fn quoted_hint(self, tool: &str, cli: &str, lang: Option<&str>, args: &[(&str, Arg)]) -> String {
        match self {
            Surface::Mcp => self.hint(tool, cli, lang, args),
            Surface::Cli => format!("`{}`", self.hint(tool, cli, lang, args)),
        }
    }
}

impl LookupError {
    /// This error's message for `surface`: the calls and arguments it names are spelled as that surface's reader
    /// sends them (MCP `component_details(component="table", detail="brief")`, `lang="en-US"`; CLI
    /// `mydesign-docs doc table --detail brief --system semi`, `--lang en-US`), never both; the rest of the text is
    /// the [`std::fmt::Display`] form's (which names both spellings, for logs).
    pub fn message(&self, surface: Surface) -> String {
        use crate::budget::BudgetError;
        let q = |name: &str, v: Arg| format!("`{}`", surface.arg(name, &v));
        let max_tokens = surface.name("--max-tokens");
        match self {
            LookupError::UnknownComponent { known, first, name, system, version, suggestions }
                if suggestions.is_empty() =>
            {
                let list = surface.quoted_hint("list_components", "components", None, &[]);
                let names = first_names(first, *known, &list);
                format!("unknown component `{name}` in {system} {version}; it has {known} components: {names}")
            }
            LookupError::UnknownPath { path, system, version, suggestions, outside: false }
                if suggestions.is_empty() =>
            {
                format!(
                    "no file `{path}` in {system} {version}; paths are listed by component: {}",
                    files_of_a_component(surface)
                )
            }
            LookupError::NotAnalyzed { path, why } => format!(
                "`{path}` has no function index: {why}, so the build stored it as text only; read it by line range: \
                 {}",
                surface.quoted_hint(
                    "get_file_code",
                    "file",
                    None,
                    &[("path", path.as_str().into()), ("--start-line", Arg::Hole("N")), ("--end-line", Arg::Hole("M"))]
                )
            ),
            LookupError::SeveralSystems { dir, names } => {
                format!(
                    "{dir} holds several systems ({}); choose one with {}",
                    names.join(", "),
                    q("--system", Arg::Hole("NAME"))
                )
            }
            LookupError::SectionInOtherLang { component, lang, asked, other } => format!(
                "`{component}` ({lang}) has no section {}; the {other} document has it: ask for {}, or leave the \
                 language out",
                asked.join(", "),
                q("--lang", other.as_str().into())
            ),
            LookupError::ReversedRange { path, start, end } => format!(
                "start line {start} is after end line {end}: ask for lines with start ≤ end ({} {}) in `{path}`",
                q("--start-line", Arg::Hole("N")),
                q("--end-line", Arg::Hole("M"))
            ),
            LookupError::PropsAlone => format!(
                "`props` is answered on its own ({}): ask for the headings in another call",
                q("sections", Arg::List("--section", vec!["props".into()]))
            ),
            LookupError::ReversedVersions { component, from, to } => {
                // MCP's newer version is `version`; the CLI's is `diff`'s second positional.
                let newer = if surface == Surface::Mcp { "--version" } else { "to" };
                let args = [
                    ("component", Arg::from(component.as_str())),
                    ("from", to.as_str().into()),
                    (newer, from.as_str().into()),
                ];
                let call = surface.quoted_hint("component_changes", "diff", None, &args);
                format!("{from} is newer than {to}: compare from the older version to the newer, {call}")
            }
            LookupError::Budget(BudgetError::EmptyCursor) if surface == Surface::Cli => {
                "the cursor is empty: leave --cursor out to get the first part; a cut answer ends with the command \
                 that continues it"
                    .to_string()
            }
            LookupError::Budget(BudgetError::Malformed { why }) if surface == Surface::Cli => {
                format!("malformed cursor: {why}; pass the --cursor of the command a cut answer ends with, unchanged")
            }
            LookupError::Budget(BudgetError::Stale { set, request }) if surface == Surface::Cli => format!(
                "this cursor is from another build of {set} ({request}; the text changed since): repeat the command \
                 without --cursor"
            ),
            LookupError::CursorOfOtherView { cursor, asked } => format!(
                "this cursor continues {cursor}, but the call asks for {}: drop {} to continue it, or drop the cursor \
                 to start the {asked} answer",
                surface.arg("--detail", &asked.as_str().into()),
                match surface {
                    Surface::Mcp => "`detail`",
                    Surface::Cli => "--detail/--full",
                }
            ),
            LookupError::Budget(BudgetError::TooSmall { asked }) => {
                format!("{max_tokens} {asked} is below the minimum of {} tokens", crate::budget::MIN_MAX_TOKENS)
            }
            LookupError::Budget(BudgetError::TooSmallForNames { asked, request, needed }) => format!(
                "{max_tokens} {asked} is too small for {request}: the names it repeats (path, headings, the set's \
                 name and version, the --bundles directory) leave no room for its first lines; ask for {max_tokens} \
                 {needed} or more"
            ),
            LookupError::DamagedVersion { error, system, others, .. } => format!(
                "{error}; other versions of {system} open: {}: ask for one with {}",
                others.join(", "),
                q("--version", others[0].as_str().into())
            ),
            other => other.to_string(),
        }
    }

    /// The names this message lists (sections, candidates, functions, paths) and the call that lists them all,
    /// spelled for `surface`, for [`crate::budget::fit_error`] to shorten; `None` when it lists none that can grow
    /// long.
    pub fn listing(&self, surface: Surface) -> Option<crate::budget::Listing<'_>> {
        use crate::budget::Listing;
        let outline = |component: &str, lang: &str| {
            let args = [("component", component.into()), ("--detail", "brief".into())];
            format!("the outline: {}", surface.quoted_hint("component_details", "doc", Some(lang), &args))
        };
        let functions = |path: &str| {
            format!("the file: {}", surface.quoted_hint("get_file_code", "file", None, &[("path", path.into())]))
        };
        match self {
            LookupError::UnknownSection { component, lang, available, .. } => {
                Some(Listing { items: available, sep: "; ", all: outline(component, lang) })
            }
            LookupError::AmbiguousSection { component, lang, candidates, .. } => {
                Some(Listing { items: candidates, sep: "; ", all: outline(component, lang) })
            }
            LookupError::UnknownFunction { path, suggestions, .. } => {
                Some(Listing { items: suggestions, sep: ", ", all: functions(path) })
            }
            LookupError::AmbiguousFunction { path, candidates, .. } => {
                Some(Listing { items: candidates, sep: ", ", all: functions(path) })
            }
            // No close name: the first names, whose list already ends with the call that lists every name.
            LookupError::UnknownComponent { first, suggestions, .. } if suggestions.is_empty() => {
                Some(Listing { items: first, sep: ", ", all: String::new() })
            }
            LookupError::UnknownComponent { suggestions, .. } => Some(Listing {
                items: suggestions,
                sep: ", ",
                all: surface.quoted_hint("list_components", "components", None, &[]),
            }),
            LookupError::UnknownPath { suggestions, .. } => {
                Some(Listing { items: suggestions, sep: ", ", all: files_of_a_component(surface) })
            }
            _ => None,
        }
    }

    /// This error's [`LookupError::message`] for `surface` within an error answer of `max_tokens`
    /// ([`crate::budget::fit_error`], its notes naming the budget as `surface` spells it).
    pub fn fitted(&self, surface: Surface, max_tokens: u32) -> String {
        let listing = self.listing(surface);
        crate::budget::fit_error_as(&self.message(surface), listing.as_ref(), max_tokens, &surface.name("--max-tokens"))
    }
}

/// The call that lists a component's files, with the component left to fill in.
fn files_of_a_component(surface: Surface) -> String {
    surface.quoted_hint("list_components", "files", None, &[("component", Arg::Hole("COMPONENT"))])
}

/// A view that renders to text.
pub trait Render: serde::Serialize {
    /// The text form for `surface`: header line, then content.
    fn render(&self, surface: Surface) -> String;

    /// The text form for MCP clients (what `text` content carries).
    fn text(&self) -> String {
        self.render(Surface::Mcp)
    }

    /// The structured form as compact JSON: the bytes an MCP client receives as `structuredContent`, which the
    /// budget bounds (pretty-printing would add indentation tokens the budget does not count).
    fn json(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
    }
}

impl Render for DetailsView {
    fn render(&self, surface: Surface) -> String {
        match self {
            DetailsView::Doc(v) => v.render(surface),
            DetailsView::Changelog(v) => v.render(surface),
            DetailsView::Card(v) => v.render(surface),
            DetailsView::Props(v) => v.render(surface),
        }
    }
}

pub use crate::units::{plural, thousands};

/// Widest padded column of a list (characters): longer names overflow their column instead of widening it. Rust's
/// formatter panics on a width over 65,535, which a hand-made bundle's 70,000-character name would reach.
const MAX_COLUMN: usize = 80;

/// Width of a list's name column: the longest of `widths` (characters), at least 4, at most [`MAX_COLUMN`].
pub fn column(widths: impl Iterator<Item = usize>) -> usize {
    widths.max().unwrap_or(4).clamp(4, MAX_COLUMN)
}

/// One row of the component list's text form (`list_components`, `components`) in language `lang`, its name padded
/// to `width` characters ([`column`]), newline included. The compiler counts each row this way for the list's
/// per-row token bounds (`Manifest::list_row_tokens`).
pub fn component_row_line(c: &ComponentRow, lang: &str, width: usize) -> String {
    let title = c.title.as_deref().unwrap_or("");
    let mut about = match (title, c.brief.as_deref()) {
        ("", None) => String::new(),
        (t, None) => t.to_string(),
        ("", Some(b)) => b.to_string(),
        (t, Some(b)) => format!("{t} — {b}"),
    };
    let has_lang = c.langs.iter().any(|l| l.eq_ignore_ascii_case(lang));
    if !has_lang {
        let note = match c.langs.as_slice() {
            [] => "(sources only)".to_string(),
            langs => format!("({} only)", langs.join(", ")),
        };
        about = if about.is_empty() { note } else { format!("{note} {about}") };
    }
    let tokens = if has_lang { thousands(c.tokens) } else { "—".into() };
    format!("{:<width$}  {:>7}  {:>6}  {:>5}  {}\n", c.name, tokens, c.code_blocks, c.files, about)
}

/// One row of a file list's text form (`list_components` with `component`, `files`), its path padded to `width`
/// characters ([`column`]), newline included; counted by the compiler as [`component_row_line`] is.
pub fn file_row_line(f: &crate::model::FileMeta, width: usize) -> String {
    let mut notes = Vec::new();
    if let Some(s) = &f.skeleton {
        notes.push(format!("skeleton {}, {}", plural(s.lines, "line"), plural(s.tokens, "token")));
    }
    if f.kind == crate::model::FileKind::Binary {
        notes.push(format!("binary, {} bytes", thousands(f.bytes)));
    }
    if f.parse_errors > 0 {
        notes.push(plural(f.parse_errors, "syntax error"));
    }
    format!(
        "{:<width$}  {:>6}  {:>7}  {:>9}  {}\n",
        f.path,
        thousands(f.lines),
        thousands(f.tokens),
        f.functions,
        notes.join("; ")
    )
}

/// `token` for 1, else `tokens` (after a number printed on its own, as in `3 of 1 token`).
pub(crate) fn tokens_word(n: u32) -> &'static str {
    if n == 1 { "token" } else { "tokens" }
}

pub(crate) fn served(s: &Served) -> String {
    match &s.note {
        Some(note) => format!("{} {} · {note}", s.system, s.version),
        None => format!("{} {}", s.system, s.version),
    }
}

impl Render for ComponentsView {
    fn render(&self, surface: Surface) -> String {
        let mut out = format!(
            "[{} · {} · sizes for {} · tokens of the default view{}]\n",
            served(&self.served),
            plural(
                u64::from(self.part.rows_total.max(self.components.len() as u32)),
                if self.kind.is_component() { "component" } else { "guide" }
            ),
            self.lang,
            self.changelog_pages.map_or(String::new(), |p| format!(" · changelog: {}", plural(p, "page")))
        );
        let width = column(self.components.iter().map(|c| c.name.chars().count()));
        out.push_str(&format!(
            "{:<width$}  {:>7}  {:>6}  {:>5}  {}\n",
            "NAME", "TOKENS", "BLOCKS", "FILES", "TITLE — BRIEF"
        ));
        for c in &self.components {
            out.push_str(&component_row_line(c, &self.lang, width));
        }
        let guide_args = |surface: Surface| -> Vec<(&'static str, Arg)> {
            match surface {
                Surface::Mcp => vec![("kind", "guide".into())],
                Surface::Cli => vec![("--guides", Arg::On)],
            }
        };
        if let Some(cur) = &self.part.next_cursor {
            let tool = ("list_components", "components");
            let args = if self.kind.is_component() { vec![] } else { guide_args(surface) };
            let call = surface.resume(&self.served, Some(&self.lang), tool, &args, self.part.max_tokens, cur);
            out.push_str(&list_cut(&self.part, self.components.len(), &call));
        }
        if self.guides > 0 {
            let call = surface.call(&self.served, None, "list_components", "components", &guide_args(surface));
            out.push_str(&format!(
                "[+ {} (pages that document no component, read with doc like any): {call}]\n",
                plural(self.guides, "guide")
            ));
        }
        if self.shared_files > 0 {
            let call = surface.call(&self.served, None, "list_components", "files", &[("component", "_shared".into())]);
            out.push_str(&format!(
                "[+ {} of shared folders that are no component: {call}]\n",
                plural(self.shared_files, "file")
            ));
        }
        out
    }
}

/// The line ending a cut list: which rows were served, how many are left, and the call that continues.
pub(crate) fn list_cut(part: &ListPart, served: usize, call: &str) -> String {
    let first = part.first_row as usize + 1;
    let left = (part.rows_total as usize).saturating_sub(part.first_row as usize + served);
    format!(
        "[rows {}–{} of {}; {} left; continue with {call}]\n",
        thousands(first as u64),
        thousands((first + served).saturating_sub(1) as u64),
        thousands(part.rows_total),
        thousands(left as u64)
    )
}

/// The text of a part: `text` framed by what a reader needs to know when it is not the whole of what was asked
/// for: a line before it when it continues a code block (and the reopened fence), and after it the closing fence
/// of a block it ends inside and the call that continues (`more`, given when the part was cut).
fn framed(part: &Part, text: &str, more: Option<String>) -> String {
    framed_in(part, text, more, "line")
}

/// [`framed`], the cut line naming the part's last line as a `unit` (`skeleton line` for a skeleton, whose line
/// numbers are not the file's: TRIAL item 6).
fn framed_in(part: &Part, text: &str, more: Option<String>, unit: &str) -> String {
    let mut out = String::with_capacity(text.len() + 256);
    if let (Some(index), Some(reopen)) = (part.starts_in_block, &part.reopen) {
        out.push_str(&format!("[code block #{index}, continued]\n{reopen}\n"));
    }
    out.push_str(text);
    let end_line = |out: &mut String, line: &str| {
        if !out.is_empty() && !out.ends_with('\n') {
            out.push('\n');
        }
        out.push_str(line);
    };
    if let (Some(index), Some(close)) = (part.ends_in_block, &part.close) {
        end_line(&mut out, &format!("{close}\n[code block #{index} continues in the next part]"));
    }
    if let (Some(rest), Some(call)) = (&part.cut, more) {
        // A long line cut inside is not a line served whole: its rest is among the lines left.
        let at = if text.is_empty() || text.ends_with('\n') { "after" } else { "inside" };
        end_line(
            &mut out,
            &format!(
                "[cut {at} {unit} {}: {} and {} left; continue with {call}]",
                thousands(part.lines.1),
                plural(rest.lines, "line"),
                plural(rest.tokens, "token")
            ),
        );
    }
    out
}

/// `lines 1–120 of 6,374 · ` (`what` = `lines`, `view lines`) when a part is not the whole text, else nothing.
/// `at most ` before a part's token count when it is an upper bound (a part that starts or ends inside a segment
/// cut by bytes, [`Part::tokens_exact`]), else nothing.
fn at_most(part: &Part) -> &'static str {
    if part.tokens_exact { "" } else { "at most " }
}

fn served_lines(part: &Part, what: &str, of: u32) -> String {
    if part.cut.is_none() && part.lines.0 <= 1 && part.starts_in_block.is_none() {
        return String::new();
    }
    format!("{what} {}–{} of {} · ", thousands(part.lines.0), thousands(part.lines.1), thousands(of))
}

impl Render for DocView {
    fn render(&self, surface: Surface) -> String {
        let lang = Some(self.lang.as_str());
        let c = ("component", Arg::Str(self.component.clone()));
        // How to fetch what is hidden: said by the first part only (continuations keep their envelope small).
        let hidden = if self.hidden && self.part.offset == 0 {
            let block = surface.call(
                &self.served,
                lang,
                "get_code_block",
                "code-block",
                &[c.clone(), ("index", Arg::Hole("N"))],
            );
            let full =
                surface.call(&self.served, lang, DETAILS.0, DETAILS.1, &[c.clone(), ("--detail", "full".into())]);
            // A short document is hidden only for its demos (`<code src="…">`, kept in their own files).
            let why = if self.lines > self.threshold {
                format!("document over {} lines", self.threshold)
            } else {
                "demo code is in its own files".to_string()
            };
            format!(
                " · {} hidden ({why}): get one with {block}; everything with {full}",
                plural(self.code_blocks, "code block"),
            )
        } else if self.hidden {
            format!(" · {} hidden", plural(self.code_blocks, "code block"))
        } else {
            format!(" · {}", plural(self.code_blocks, "code block"))
        };
        let what = if self.sections.is_empty() {
            format!("{}{hidden}", plural(self.lines, "line"))
        } else {
            format!("sections: {}", self.sections.join(", "))
        };
        let of = if self.part.cut.is_some() || self.part.starts_in_block.is_some() || self.next_cursor.is_some() {
            format!(" of {}", thousands(self.total_tokens))
        } else {
            String::new()
        };
        let last = if of.is_empty() { self.tokens } else { self.total_tokens };
        let whole =
            if self.hidden { format!(" (whole document: {})", thousands(self.full_tokens)) } else { String::new() };
        let more = self.next_cursor.as_ref().map(|cur| {
            surface.resume(&self.served, lang, DETAILS, std::slice::from_ref(&c), self.part.max_tokens, cur)
        });
        format!(
            "[{} · {} · {} · {} · {what} · {}{}{}{of} {}{whole}]\n{}",
            served(&self.served),
            self.component,
            self.lang,
            self.path,
            if self.hidden {
                served_lines(&self.part, "view lines", self.part.text_lines)
            } else {
                served_lines(&self.part, "lines", self.lines)
            },
            at_most(&self.part),
            thousands(self.tokens),
            tokens_word(last),
            framed(&self.part, &self.text, more)
        )
    }
}

impl Render for CardView {
    fn render(&self, surface: Surface) -> String {
        let lang = Some(self.lang.as_str());
        let c = ("component", Arg::Str(self.component.clone()));
        let normal = surface.call(&self.served, lang, "component_details", "doc", std::slice::from_ref(&c));
        let more = self.next_cursor.as_ref().map(|cur| {
            surface.resume(&self.served, lang, DETAILS, std::slice::from_ref(&c), self.part.max_tokens, cur)
        });
        format!(
            "[{} · {} card · {} · {} · the document: {normal} ({}), or {} by title or slug]\n{}",
            served(&self.served),
            self.component,
            self.lang,
            plural(self.tokens, "token"),
            plural(self.view_tokens, "token"),
            surface.arg("sections", &Arg::Holes("--section", "TITLE")),
            framed(&self.part, &self.text, more)
        )
    }
}

impl Render for PropsView {
    fn render(&self, surface: Surface) -> String {
        let lang = Some(self.lang.as_str());
        let more = self.next_cursor.as_ref().map(|cur| {
            let args = [("component", Arg::Str(self.component.clone()))];
            surface.resume(&self.served, lang, DETAILS, &args, self.part.max_tokens, cur)
        });
        format!(
            "[{} · {} props · {} · {} in {} · {}]\n{}",
            served(&self.served),
            self.component,
            self.lang,
            plural(self.props_total, "prop"),
            plural(self.tables_total, "table"),
            plural(self.tokens, "token"),
            framed(&self.part, &self.text, more)
        )
    }
}

impl Render for CodeBlockView {
    fn render(&self, surface: Surface) -> String {
        let b = &self.block;
        let info = if b.info.is_empty() { String::new() } else { format!(" · {}", b.info) };
        let mut heading = b.heading.as_ref().map_or(String::new(), |h| format!(" · under \"{h}\""));
        if let Some(d) = &b.demo {
            // The demo file's path, title and description (a long description attribute is cut here; the whole of
            // it is in the structured answer).
            heading.push_str(&format!(" · demo file {}", d.path));
            if let Some(t) = &d.title {
                heading.push_str(&format!(" \"{}\"", cut_chars(t, 80)));
            }
            if let Some(text) = &d.description {
                heading.push_str(&format!(" · description \"{}\"", cut_chars(text, 120)));
            }
            if let Some(md) = &d.description_path {
                heading.push_str(&format!(" · described in {md}"));
            }
        }
        let more = self.next_cursor.as_ref().map(|cur| {
            let args = [("component", Arg::Str(self.component.clone())), ("index", Arg::from(b.index))];
            let tool = ("get_code_block", "code-block");
            surface.resume(&self.served, Some(&self.lang), tool, &args, self.part.max_tokens, cur)
        });
        let of = if more.is_some() || self.part.starts_in_block.is_some() {
            format!("{}{} of ", at_most(&self.part), thousands(self.part.tokens))
        } else {
            String::new()
        };
        // An example kept beside the text (a story) has no lines in the document.
        let lines = if b.start_byte == b.end_byte && b.demo.is_some() {
            "beside the document".to_string()
        } else {
            format!("lines {}–{}", b.start_line, b.end_line)
        };
        format!(
            "[{} · {} · {} · code block {}/{}{info}{heading} · {lines} · {of}{}]\n{}",
            served(&self.served),
            self.component,
            self.lang,
            b.index,
            self.count,
            plural(b.tokens, "token"),
            framed(&self.part, &self.text, more)
        )
    }
}

/// `text` cut to `max` chars, with `…` when cut.
fn cut_chars(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_owned(),
    }
}

impl Render for ChangelogView {
    fn render(&self, surface: Surface) -> String {
        let nav = |label: &str, p: Option<u32>| {
            p.map_or(String::new(), |p| {
                let args = [("--page", Arg::from(p))];
                format!(
                    " · {label}: {}",
                    surface.call(&self.served, Some(&self.lang), "get_changelog", "changelog", &args)
                )
            })
        };
        let releases = match self.releases.as_slice() {
            [] => String::new(),
            [one] => format!(" · release {one}"),
            [first, .., last] => format!(" · releases {first} … {last}"),
        };
        // Within a page, the cursor continues it; at its end, the next page is named instead.
        let more = self.part.cut.as_ref().and(self.next_cursor.as_ref()).map(|cur| {
            let args = [("--page", Arg::from(self.page))];
            let tool = ("get_changelog", "changelog");
            surface.resume(&self.served, Some(&self.lang), tool, &args, self.part.max_tokens, cur)
        });
        // The next page is named once the page is whole; a cut page names its continuation instead.
        let next = if more.is_none() { nav("next (older)", self.next) } else { String::new() };
        format!(
            "[{} · changelog · {} · page {}/{} ({} each, {} in all) · lines {}–{}{releases} · {}{}{next}]\n{}",
            served(&self.served),
            self.lang,
            self.page,
            self.pages,
            plural(self.page_lines, "line"),
            thousands(self.total_lines),
            thousands(self.part.lines.0),
            thousands(self.part.lines.1),
            at_most(&self.part),
            plural(self.tokens, "token"),
            framed(&self.part, &self.text, more),
        )
    }
}

impl Render for FilesView {
    fn render(&self, surface: Surface) -> String {
        let mut out = format!(
            "[{} · {} · {}]\n",
            served(&self.served),
            self.component,
            plural(u64::from(self.part.rows_total.max(self.files.len() as u32)), "file")
        );
        let width = column(self.files.iter().map(|f| f.path.chars().count()));
        out.push_str(&format!("{:<width$}  {:>6}  {:>7}  {:>9}  NOTES\n", "PATH", "LINES", "TOKENS", "FUNCTIONS"));
        for f in &self.files {
            out.push_str(&file_row_line(f, width));
        }
        if let Some(cur) = &self.part.next_cursor {
            let args = [("component", Arg::Str(self.component.clone()))];
            let tool = ("list_components", "files");
            let call = surface.resume(&self.served, None, tool, &args, self.part.max_tokens, cur);
            out.push_str(&list_cut(&self.part, self.files.len(), &call));
        }
        out
    }
}

impl Render for FileView {
    fn render(&self, surface: Surface) -> String {
        let f = &self.file;
        let path = ("path", Arg::Str(f.path.clone()));
        let what = match (&f.skeleton, self.skeleton) {
            (Some(s), true) => format!(
                " · skeleton (source of {}+ lines): {}, {} outer function {} replaced by {{ /* ... */ }}; whole file ({}) with {}",
                self.threshold,
                plural(s.lines, "line"),
                s.outer_bodies,
                if s.outer_bodies == 1 { "body" } else { "bodies" },
                plural(f.tokens, "token"),
                surface.call(&self.served, None, "get_file_code", "file", &[path.clone(), ("--full", Arg::On)])
            ),
            _ if f.kind == crate::model::FileKind::Binary => " · binary file, not stored".to_string(),
            _ => String::new(),
        };
        let lines = match self.range {
            // An end past the file is served to the last line, and said (docs/lookups.md: line ranges).
            Some((_, end)) if end != u32::MAX && end > f.lines => format!(
                "lines {}–{} of {} (end line {} is past the end: the range ends at line {})",
                thousands(self.part.lines.0),
                thousands(self.part.lines.1),
                thousands(f.lines),
                thousands(end),
                thousands(f.lines)
            ),
            Some(_) => format!(
                "lines {}–{} of {}",
                thousands(self.part.lines.0),
                thousands(self.part.lines.1),
                thousands(f.lines)
            ),
            // A skeleton's parts count the skeleton's lines (its bodies are folded): said so, never as the file's.
            None => match (&f.skeleton, self.skeleton) {
                (Some(s), true) => {
                    format!("{}{}", served_lines(&self.part, "skeleton lines", s.lines), plural(f.lines, "line"))
                }
                _ => format!("{}{}", served_lines(&self.part, "lines", f.lines), plural(f.lines, "line")),
            },
        };
        let unit = if self.skeleton { "skeleton line" } else { "line" };
        let about = at_most(&self.part);
        let more = self.next_cursor.as_ref().map(|cur| {
            let tool = ("get_file_code", "file");
            surface.resume(&self.served, None, tool, std::slice::from_ref(&path), self.part.max_tokens, cur)
        });
        let mut out = format!(
            "[{} · {} · {lines}{what} · {about}{}]\n{}",
            served(&self.served),
            f.path,
            plural(self.tokens, "token"),
            framed_in(&self.part, &self.text, more, unit)
        );
        if self.skeleton && self.part.offset == 0 && self.functions.is_empty() && self.functions_total > 0 {
            // No room for names under this budget: say so in a few tokens.
            let n = plural(self.functions_total, "function");
            out.push_str(&format!("\n[{n}; a larger {} lists the largest]", surface.name("--max-tokens")));
        } else if self.skeleton && self.part.offset == 0 && self.functions_total > 0 {
            let call = surface.call(
                &self.served,
                None,
                "get_function_code",
                "function",
                &[path, ("function", Arg::Hole("NAME"))],
            );
            // The largest functions first, as many as the budget left room for (see `FileView::functions`).
            let mut list: Vec<String> = self.functions.iter().map(|f| format!("{} {}", f.name, f.tokens)).collect();
            let left = self.functions_total as usize - self.functions.len();
            if left > 0 {
                list.push(format!("… {left} more with a larger {}", surface.name("--max-tokens")));
            }
            out.push_str(&format!(
                "\n[{}, largest first with tokens; get one with {call}: {}]",
                plural(self.functions_total, "function"),
                list.join(", ")
            ));
        }
        out
    }
}

impl Render for FunctionView {
    fn render(&self, surface: Surface) -> String {
        let f = &self.function;
        let more = self.next_cursor.as_ref().map(|cur| {
            let args = [("path", Arg::Str(self.path.clone())), ("function", Arg::Str(f.qualified.clone()))];
            let tool = ("get_function_code", "function");
            surface.resume(&self.served, None, tool, &args, self.part.max_tokens, cur)
        });
        let of = if more.is_some() || self.part.offset > 0 {
            format!("{}{} of ", at_most(&self.part), thousands(self.part.tokens))
        } else {
            String::new()
        };
        format!(
            "[{} · {} · {} ({}) · lines {}–{} · {of}{}]\n{}",
            served(&self.served),
            self.path,
            f.qualified,
            f.kind,
            f.start_line,
            f.end_line,
            plural(f.tokens, "token"),
            framed(&self.part, &self.text, more)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_70000_character_name_is_listed_whole_without_panicking() {
        let long = "n".repeat(70_000);
        let file = crate::model::FileMeta {
            path: long.clone(),
            kind: crate::model::FileKind::Text,
            lines: 1,
            bytes: 1,
            tokens: 1,
            skeleton: None,
            functions: 0,
            parse_errors: 0,
            owner: "x".into(),
        };
        let view = crate::read::FilesView {
            served: Served { system: "s".into(), version: "1".into(), note: None },
            component: "x".into(),
            tokens: 0,
            files: vec![file],
            part: crate::read::ListPart {
                rows_total: 1,
                first_row: 0,
                tokens_exact: true,
                next_cursor: None,
                max_tokens: None,
            },
        };
        let text = view.render(Surface::Cli);
        assert!(text.contains(&format!("{long}       1        1          0")), "{}", &text[..100]);
        assert_eq!(column([3usize, 70_000].into_iter()), MAX_COLUMN);
        assert_eq!(column([9usize].into_iter()), 9);
    }

    #[test]
    fn calls_carry_the_set_served_on_both_surfaces() {
        let s = Served { system: "semi".into(), version: "2.102.0".into(), note: None };
        let args = [("component", Arg::from("table")), ("index", Arg::Hole("N"))];
        assert_eq!(
            Surface::Mcp.call(&s, Some("zh-CN"), "get_code_block", "code-block", &args),
            "get_code_block(system=\"semi\", version=\"2.102.0\", lang=\"zh-CN\", component=\"table\", index=N)"
        );
        assert_eq!(
            Surface::Cli.call(&s, Some("zh-CN"), "get_code_block", "code-block", &args),
            "mydesign-docs code-block table N --system semi --version 2.102.0 --lang zh-CN"
        );
        let full = [("path", Arg::from("a/b.ts")), ("--full", Arg::On)];
        assert_eq!(
            Surface::Cli.call(&s, None, "get_file_code", "file", &full),
            "mydesign-docs file a/b.ts --full --system semi --version 2.102.0"
        );
        assert_eq!(
            Surface::Mcp.call(&s, None, "get_file_code", "file", &full),
            "get_file_code(system=\"semi\", version=\"2.102.0\", path=\"a/b.ts\", full=true)"
        );
    }

    #[test]
    fn calls_quote_their_values_for_each_surface() {
        let s = Served { system: "my ds".into(), version: "1.0.0-beta.1".into(), note: None };
        let args = [("path", Arg::from("src/it's \"q\".ts")), ("--start-line", Arg::from(3))];
        assert_eq!(
            Surface::Cli.call(&s, None, "get_file_code", "file", &args),
            "mydesign-docs file 'src/it'\\''s \"q\".ts' --start-line 3 --system 'my ds' --version 1.0.0-beta.1"
        );
        assert_eq!(
            Surface::Mcp.call(&s, None, "get_file_code", "file", &args),
            "get_file_code(system=\"my ds\", version=\"1.0.0-beta.1\", path=\"src/it's \\\"q\\\".ts\", start_line=3)"
        );
    }

    /// The calls an error names: MCP's tool call, the CLI's command (quoted, `--lang` after the arguments; no set
    /// options here: no CLI recorded any in this process).
    #[test]
    fn error_hints_are_calls_of_their_surface() {
        let args = [("component", Arg::from("o'brien")), ("--detail", Arg::from("brief"))];
        assert_eq!(
            Surface::Mcp.hint("component_details", "doc", Some("en-US"), &args),
            "component_details(lang=\"en-US\", component=\"o'brien\", detail=\"brief\")"
        );
        assert_eq!(
            Surface::Cli.hint("component_details", "doc", Some("en-US"), &args),
            "mydesign-docs doc 'o'\\''brien' --detail brief --lang en-US"
        );
        let hole = [("component", Arg::Hole("COMPONENT"))];
        assert_eq!(Surface::Mcp.hint("list_components", "files", None, &hole), "list_components(component=COMPONENT)");
        assert_eq!(Surface::Cli.hint("list_components", "files", None, &hole), "mydesign-docs files COMPONENT");
    }

    #[test]
    fn hints_spell_one_argument_as_the_calls_do() {
        // A hint naming one argument, with a space or a quote in its value: shell-quoted on the CLI, JSON for MCP.
        let v = Arg::from("it's a \"b\"");
        assert_eq!(Surface::Cli.arg("--detail", &v), "--detail 'it'\\''s a \"b\"'");
        assert_eq!(Surface::Mcp.arg("--detail", &v), "detail=\"it's a \\\"b\\\"\"");
        assert_eq!(Surface::Cli.arg("component", &Arg::from("a b")), "'a b'", "a positional is its value");
        let sections = Arg::Holes("--section", "TITLE");
        assert_eq!(
            (Surface::Mcp.arg("sections", &sections), Surface::Cli.arg("sections", &sections)),
            ("sections=[TITLE, …]".to_string(), "--section TITLE …".to_string())
        );
        assert_eq!(
            (Surface::Mcp.name("--max-tokens"), Surface::Cli.name("--max-tokens")),
            ("max_tokens".into(), "--max-tokens".into())
        );
        assert_eq!(
            (Surface::Mcp.arg("--full", &Arg::On), Surface::Cli.arg("--full", &Arg::On)),
            ("full=true".into(), "--full".into())
        );
    }

    #[test]
    fn list_arguments_are_a_json_array_for_mcp_and_a_repeated_flag_for_the_cli() {
        let s = Served { system: "semi".into(), version: "2.102.0".into(), note: None };
        let slugs = vec!["it's-\"q\"".to_string(), "a b".to_string()];
        let args = [("component", Arg::from("o'brien")), ("sections", Arg::List("--section", slugs))];
        assert_eq!(
            Surface::Mcp.call(&s, Some("en-US"), "component_details", "doc", &args),
            "component_details(system=\"semi\", version=\"2.102.0\", lang=\"en-US\", component=\"o'brien\", \
             sections=[\"it's-\\\"q\\\"\",\"a b\"])"
        );
        assert_eq!(
            Surface::Cli.call(&s, Some("en-US"), "component_details", "doc", &args),
            "mydesign-docs doc 'o'\\''brien' --section 'it'\\''s-\"q\"' --section 'a b' --system semi --version 2.102.0 \
             --lang en-US"
        );
        assert_eq!(
            serde_json::Value::from(call_arguments(&s, Some("en-US"), &args)),
            serde_json::json!({
                "system": "semi", "version": "2.102.0", "lang": "en-US", "component": "o'brien",
                "sections": ["it's-\"q\"", "a b"]
            })
        );
        // An empty list is no argument on either surface.
        let none = [("component", Arg::from("x")), ("sections", Arg::List("--section", vec![]))];
        assert_eq!(
            Surface::Mcp.call(&s, None, "t", "doc", &none),
            "t(system=\"semi\", version=\"2.102.0\", component=\"x\")"
        );
        assert_eq!(
            Surface::Cli.call(&s, None, "t", "doc", &none),
            "mydesign-docs doc x --system semi --version 2.102.0"
        );
        assert_eq!(call_arguments(&s, None, &none).len(), 3);
    }

    #[test]
    fn strings_that_look_like_numbers_or_placeholders_stay_strings() {
        // A version `2`, a component named `N` or `true`: MCP strings (the tools' schemas say so), CLI words.
        let s = Served { system: "x".into(), version: "2".into(), note: None };
        let args = [("component", Arg::from("N")), ("from", Arg::from("2")), ("--cursor", Arg::from("true"))];
        assert_eq!(
            Surface::Mcp.call(&s, None, "component_changes", "diff", &args),
            "component_changes(system=\"x\", version=\"2\", component=\"N\", from=\"2\", cursor=\"true\")"
        );
        assert_eq!(
            Surface::Cli.call(&s, None, "component_changes", "diff", &args),
            "mydesign-docs diff N 2 --cursor true --system x --version 2"
        );
    }

    #[test]
    fn a_line_cut_inside_is_not_said_to_be_served() {
        let part = Part {
            lines: (1, 3),
            cut: Some(crate::budget::Rest { tokens: 40, lines: 5 }),
            tokens_exact: true,
            ..Part::default()
        };
        assert_eq!(
            framed(&part, "a\nb\nthe first half of line 3", Some("CALL".into())),
            "a\nb\nthe first half of line 3\n[cut inside line 3: 5 lines and 40 tokens left; continue with CALL]"
        );
        assert_eq!(
            framed(&part, "a\nb\nc\n", Some("CALL".into())),
            "a\nb\nc\n[cut after line 3: 5 lines and 40 tokens left; continue with CALL]"
        );
    }

    #[test]
    fn plurals() {
        assert_eq!(plural(1u32, "code block"), "1 code block");
        assert_eq!(plural(1611u32, "page"), "1,611 pages");
        assert_eq!((plural(1u32, "token"), plural(1u32, "line")), ("1 token".into(), "1 line".into()));
        assert_eq!((tokens_word(1), tokens_word(0)), ("token", "tokens"));
    }

    #[test]
    fn thousands_groups_digits() {
        assert_eq!(thousands(0u32), "0");
        assert_eq!(thousands(999u32), "999");
        assert_eq!(thousands(6374u32), "6,374");
        assert_eq!(thousands(1234567u64), "1,234,567");
    }
}
