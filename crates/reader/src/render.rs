//! One renderer for every lookup: the structured form is the view itself (serialized as JSON), the text form is a
//! one-line bracketed header (system, version, what was served, its size in tokens, how to get more) followed by
//! the content exactly as stored. CLI and MCP share it, so both say the same thing; only the calls that fetch more
//! are spelled for the [`Surface`] reading them, always with the system, version and language that were served so
//! following one never lands on another set.
//!
//! This module holds the surfaces and the call builder; `errors` spells a [`LookupError`] for a surface and `views`
//! renders each view.

/// [`Render::is_terse`] and [`Render::shorten`] of a view whose `part` (a [`Part`] or a [`ListPart`]) carries
/// the flag.
macro_rules! terse_in_part {
    () => {
        fn is_terse(&self) -> bool {
            self.part.terse
        }

        fn shorten(&mut self) {
            self.part.terse = true;
        }
    };
}

mod context;
mod design_tokens;
mod errors;
mod fit;
mod terse;
mod views;

pub use fit::{Forms, fitted};
pub use terse::TERSE_FIELDS;

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
    /// The call that continues a cut answer. MCP: `the same call and cursor="…"` (a client repeats its own
    /// arguments, `max_tokens` included, and the cursor carries the view it continues; restating every argument
    /// cost each part ~40 tokens of its budget: issue 26). CLI: [`Surface::call`] with `args`, the cursor, and the
    /// call's own `max_tokens` when it set one (so every part keeps the budget the first was asked for), a command
    /// that runs as printed.
    pub(crate) fn resume(
        self,
        s: &Served,
        lang: Option<&str>,
        (tool, cli): (&str, &str),
        args: &[(&'static str, Arg)],
        max_tokens: Option<u32>,
        cursor: &str,
    ) -> String {
        if self == Surface::Mcp {
            return format!("the same call and {}", self.arg("--cursor", &Arg::from(cursor)));
        }
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

    /// A follow-up of a text answer that differs from the call answered only in the arguments named `changed`
    /// (and in the tool when `other_tool`). MCP: the tool (when another) and those arguments alone
    /// (`get_code_block with index=N`, `detail="full"`): its client repeats its own set and names, as it does with
    /// a cursor ([`Surface::resume`]). CLI: the whole command of [`Surface::call`], which runs as printed.
    pub(crate) fn follow(
        self,
        s: &Served,
        lang: Option<&str>,
        (tool, cli): (&str, &str),
        other_tool: bool,
        args: &[(&str, Arg)],
        changed: &[&str],
    ) -> String {
        if self == Surface::Cli {
            return self.call(s, lang, tool, cli, args);
        }
        let named: Vec<String> =
            args.iter().filter(|(k, _)| changed.contains(k)).map(|(k, v)| self.arg(k, v)).collect();
        match other_tool {
            true => format!("{tool} with {}", named.join(", ")),
            false => named.join(", "),
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

/// A view that renders to text.
pub trait Render: serde::Serialize {
    /// The text form for `surface`: header line, then content.
    fn render(&self, surface: Surface) -> String;

    /// Whether [`fitted`] measures this view's envelope (it says what its [`Render::content`] is).
    const MEASURED: bool = false;

    /// The stored text the view serves (exactly as its text form and its JSON `text` write it), whose tokens the
    /// budget counted: the rest of each form is its envelope ([`fitted`]). `None` for views that do not say.
    fn content(&self) -> Option<&str> {
        None
    }

    /// A list's rows as its text form writes them (one line each, in order), which [`fitted`] measures the
    /// envelope without, as it does a text view's [`Render::content`]; `None` for a view that is no list.
    fn rows_text(&self) -> Option<String> {
        None
    }

    /// Whether this answer echoes less ([`Render::shorten`]).
    fn is_terse(&self) -> bool {
        false
    }

    /// Makes this answer echo less (`terse::short_text`, [`TERSE_FIELDS`]); [`fitted`] does when the names it
    /// repeats leave no room otherwise. Views that cannot: nothing.
    fn shorten(&mut self) {}

    /// The text form for MCP clients (what `text` content carries).
    fn text(&self) -> String {
        self.render(Surface::Mcp)
    }

    /// The structured form as a JSON value (MCP's `structuredContent`): the view, or of a terse answer only the
    /// fields [`TERSE_FIELDS`] keeps.
    fn structured(&self) -> serde_json::Value {
        let mut value = serde_json::to_value(self).unwrap_or_else(|e| serde_json::json!({ "error": e.to_string() }));
        if self.is_terse()
            && let serde_json::Value::Object(fields) = &mut value
        {
            fields.retain(|k, _| TERSE_FIELDS.contains(&k.as_str()));
        }
        value
    }

    /// The structured form as compact JSON: the bytes an MCP client receives as `structuredContent`, which the
    /// budget bounds (pretty-printing would add indentation tokens the budget does not count).
    fn json(&self) -> String {
        let json =
            if self.is_terse() { serde_json::to_string(&self.structured()) } else { serde_json::to_string(self) };
        json.unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
    }
}

impl Render for DetailsView {
    fn render(&self, surface: Surface) -> String {
        match self {
            DetailsView::Doc(v) => v.render(surface),
            DetailsView::Changelog(v) => v.render(surface),
            DetailsView::Card(v) => v.render(surface),
            DetailsView::Props(v) => v.render(surface),
            DetailsView::Prop(v) => v.render(surface),
        }
    }

    const MEASURED: bool = true;

    fn is_terse(&self) -> bool {
        match self {
            DetailsView::Doc(v) => v.is_terse(),
            DetailsView::Changelog(v) => v.is_terse(),
            DetailsView::Card(v) => v.is_terse(),
            DetailsView::Props(v) => v.is_terse(),
            DetailsView::Prop(_) => false,
        }
    }

    fn shorten(&mut self) {
        match self {
            DetailsView::Doc(v) => v.shorten(),
            DetailsView::Changelog(v) => v.shorten(),
            DetailsView::Card(v) => v.shorten(),
            DetailsView::Props(v) => v.shorten(),
            DetailsView::Prop(_) => {}
        }
    }

    fn content(&self) -> Option<&str> {
        match self {
            DetailsView::Doc(v) => v.content(),
            DetailsView::Changelog(v) => v.content(),
            DetailsView::Card(v) => v.content(),
            // Props bound their structured form themselves (the rows by the exact tokens of their JSON, which
            // the envelope's bound counts at about twice that, so a measured chain could stop): the fixed reserve,
            // unless terse (the text alone).
            DetailsView::Props(v) => v.content(),
            // One prop answer fits its parts itself (rows, example), under the fixed reserve.
            DetailsView::Prop(_) => None,
        }
    }
}

pub use crate::units::{plural, thousands};

pub use context::CONTEXT;
pub use design_tokens::token_row_line;
pub use views::{column, component_row_line, file_row_line};
pub(crate) use views::{list_cut, served, tokens_word};

#[cfg(test)]
mod tests {
    use super::*;

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
}
