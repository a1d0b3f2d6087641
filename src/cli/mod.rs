//! Command-line arguments (clap) and dispatch. The clap structs stay here; resolved settings are passed on as
//! plain values.

#[cfg(feature = "build")]
mod agents_md;
#[cfg(feature = "build")]
mod build;
#[cfg(not(feature = "build"))]
#[path = "no_build.rs"]
mod build;
#[cfg(feature = "build")]
mod check;
#[cfg(feature = "build")]
mod check_values;
#[cfg(feature = "build")]
mod export;
mod lookup;
mod npm;
#[cfg(feature = "serve")]
mod serve;
#[cfg(not(feature = "serve"))]
#[path = "no_serve.rs"]
mod serve;
mod setup;
#[cfg(feature = "build")]
mod source;
mod store;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

/// Compile a design system's docs and sources into compact bundles, and answer lookups from them.
#[derive(Parser, Debug)]
#[command(name = "mydesign-docs", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// Each subcommand's arguments are built only when it is the one called (`defer`): building all of them took a
/// lookup process ~250 KB of heap in 530 allocations and a tenth of its instructions.
#[derive(Subcommand, Debug)]
#[command(defer = true)]
enum Command {
    /// Compile a design-system repository into bundles (out/<system>@<version>/).
    ///
    /// Example: `mydesign-docs build path/to/design-system --out out` (no configuration: the layout is detected
    /// and reported; `--print-config` writes it out to edit).
    Build(build::BuildArgs),
    /// List the components (or, with --guides, the guide pages) with their sizes in tokens.
    ///
    /// Example: `mydesign-docs components --bundles out`, `mydesign-docs components --guides`.
    Components {
        /// List the guides instead: pages that document no exported component (read with `doc` like any).
        #[arg(long)]
        guides: bool,
        #[command(flatten)]
        lookup: LookupArgs,
    },
    /// Print a component's document, its card (--detail brief) or some of its sections.
    ///
    /// Example: `mydesign-docs doc table --detail brief`, then `mydesign-docs doc table --section props`. Over 888
    /// lines, code blocks become placeholders with their sizes in tokens; `changelog` and `changelog-N` name
    /// changelog pages.
    Doc {
        /// Component name (any spelling: Table, table, date-picker, DatePicker), or changelog / changelog-N.
        component: String,
        /// brief: the component card with sizes; normal (the default): placeholders over 888 lines; full: the whole
        /// document. With --cursor, leave it out (the cursor carries its view) or name the cursor's.
        #[arg(long, value_parser = parse_detail())]
        detail: Option<mydesign_docs::read::Detail>,
        /// The whole document, code blocks included (same as --detail full; not with --detail).
        // Refused with --detail (issue 31: `--full --detail brief` was accepted, one of them silently ignored).
        #[arg(long, conflicts_with = "detail")]
        full: bool,
        /// Only this section (heading title, slug or `Parent › Title`, either language); repeatable. `props` alone:
        /// the props tables the card lists, even when a heading is titled Props (that one is `Parent › Props`).
        #[arg(long = "section", value_name = "HEADING")]
        sections: Vec<String>,
        #[command(flatten)]
        lookup: LookupArgs,
    },
    /// Print one code block (or example) of a component's document, by the number its placeholder shows.
    ///
    /// Example: `mydesign-docs code-block table 3`. The block is served as a Markdown renderer sees it (container
    /// indentation and `>` markers removed, LF line endings).
    CodeBlock {
        /// Component name.
        component: String,
        /// Block number, 1-based, as in the placeholders.
        #[arg(value_parser = at_least(1, u32::MAX))]
        index: u32,
        #[command(flatten)]
        lookup: LookupArgs,
    },
    /// Print one prop of a component: its rows, where it is declared and the smallest example setting it.
    ///
    /// Example: `mydesign-docs prop Button.loading`, `mydesign-docs prop table columns.sorter` (a path follows the
    /// prop's type to that type's props table). Its row in each props table (the document's API table, the
    /// TypeScript type with its JSDoc tags and the line declaring it); within 300 tokens unless --max-tokens says
    /// otherwise.
    Prop {
        /// Component name, or `Component.prop` (then leave PROP out).
        component: String,
        /// The prop, or a path `prop.member` through its type.
        prop: Option<String>,
        #[command(flatten)]
        lookup: LookupArgs,
    },
    /// Print several components in one budget: each one's import line, the props that matter, one example.
    ///
    /// Example: `mydesign-docs context Form Select DatePicker --max-tokens 6000`. For each component: its import
    /// line, its required props and those its examples use most as rows, the rest by name, and one example (one
    /// that shows several of them together when the documents have one, shown once). The budget (default 6,000)
    /// is shared fairly; the header says what each got and the call for more.
    Context {
        /// Component names (any spelling); a name given twice is shown once.
        #[arg(required = true, num_args = 1..)]
        components: Vec<String>,
        #[command(flatten)]
        lookup: LookupArgs,
    },
    /// Print a page of the changelog, or one component's entries (since a version).
    ///
    /// Example: `mydesign-docs changelog --page 2`, `mydesign-docs changelog --component table --since 2.0.0`.
    /// Pages are 300 lines; page 1 holds the newest entries.
    Changelog {
        /// Page number, 1-based (default 1, or the cursor's page).
        #[arg(long, value_parser = at_least(1, u32::MAX))]
        page: Option<u32>,
        /// Only this component's entries (its own changelog's, else the lines that name it), in the releases after
        /// --since, or in every release without it (instead of a page).
        #[arg(long, conflicts_with = "page")]
        component: Option<String>,
        /// With --component: releases after this version, up to the version read.
        #[arg(long, requires = "component", value_name = "VERSION")]
        since: Option<String>,
        #[command(flatten)]
        lookup: LookupArgs,
    },
    /// List a component's files with sizes, skeletons and function counts.
    ///
    /// Example: `mydesign-docs files table`.
    Files {
        /// Component name.
        component: String,
        #[command(flatten)]
        lookup: LookupArgs,
    },
    /// Print a file: the skeleton of a source of 500+ lines, else the whole file, or a range of its lines.
    ///
    /// Example: `mydesign-docs file Table.tsx`, `mydesign-docs file Table.tsx --start-line 40 --end-line 80`.
    File {
        /// Repository-relative path, as listed by `files`.
        path: String,
        /// The whole file even when it has a skeleton.
        #[arg(long)]
        full: bool,
        /// First line to print (1-based, of the original file).
        #[arg(long, value_parser = at_least(1, u32::MAX))]
        start_line: Option<u32>,
        /// Last line to print (inclusive).
        #[arg(long, value_parser = at_least(1, u32::MAX))]
        end_line: Option<u32>,
        #[command(flatten)]
        lookup: LookupArgs,
    },
    /// Print one function of a source file, exactly as written.
    ///
    /// Example: `mydesign-docs function Table.tsx Table.render`.
    Function {
        /// Repository-relative path, as listed by `files`.
        path: String,
        /// Qualified name (Table.render) or a simple name that is unique in the file.
        name: String,
        #[command(flatten)]
        lookup: LookupArgs,
    },
    /// Search the documents, examples, functions and changelog for a question, within a token budget.
    ///
    /// Example: `mydesign-docs search how do I make a table row selectable`. Any words in any language the set
    /// has; prints the best sections, each with the call that gets more.
    Search {
        /// What to look for, e.g. "how do I make a table row selectable", "表格 固定列", "onChange of Select".
        /// Several words without quotes are one query (`search table fixed column`).
        #[arg(required_unless_present = "uses", num_args = 1..)]
        query: Vec<String>,
        /// List the examples that use a component's prop (`Table.rowSelection`) or the component (`Table`),
        /// smallest first, instead of searching.
        #[arg(long, value_name = "COMPONENT.PROP", conflicts_with_all = ["query", "kind"])]
        uses: Option<String>,
        /// Only this component (changelog releases that mention it too).
        #[arg(long)]
        component: Option<String>,
        /// Only this kind of unit: doc, code, function, changelog or props.
        #[arg(long, value_parser = parse_kind())]
        kind: Option<mydesign_docs::search::Kind>,
        #[command(flatten)]
        lookup: LookupArgs,
    },
    /// List the design tokens (colours, spacing, radii, fonts, motion…) by name, prefix or type.
    ///
    /// Example: `mydesign-docs tokens primary --type color`, `mydesign-docs tokens --component button`. Each token
    /// with its value per mode, its component and where it is written.
    Tokens {
        /// A name, a prefix (`--semi-color-`, `colors.gray`), words of the description, or a type (`color`).
        query: Option<String>,
        /// Only this type: color, dimension, font, shadow, duration, easing, number, other.
        #[arg(long = "type", value_parser = parse_token_type())]
        kind: Option<mydesign_docs::model::TokenType>,
        /// Only this component's tokens (`global`: the tokens of no component).
        #[arg(long)]
        component: Option<String>,
        #[command(flatten)]
        lookup: LookupArgs,
    },
    /// The design tokens whose value is a value: exact matches first, then the nearest colours (ΔE stated).
    ///
    /// Example: `mydesign-docs token-for '#1677ff'`, `mydesign-docs token-for 12px`,
    /// `mydesign-docs token-for 'rgba(0,0,0,.45)'`.
    TokenFor {
        /// A colour (hex, rgb(), hsl(), a CSS colour name), a length (px, rem, a unitless 0) or a duration (ms, s);
        /// anything else is an error (exit 2).
        value: String,
        #[command(flatten)]
        lookup: LookupArgs,
    },
    /// Serve the lookups to AI agents over MCP: stdio by default, streamable HTTP at /mcp with --http.
    ///
    /// Example: `claude mcp add mydesign-docs -- mydesign-docs serve --bundles out` (`setup` prints this for
    /// other clients).
    Serve(serve::ServeArgs),
    /// Check every bundle of a set against the manifest's checksums and decode every frame.
    ///
    /// Example: `mydesign-docs verify --bundles out`.
    Verify {
        /// Verify the sets installed in this store directory (the `--store` of install, list and remove); the same
        /// as `--bundles DIR`.
        #[arg(long, value_name = "DIR", conflicts_with = "bundles")]
        store: Option<PathBuf>,
        #[command(flatten)]
        lookup: LookupArgs,
    },
    /// Pack one bundle set into one portable, checksummed file for `install` on another machine.
    ///
    /// Example: `mydesign-docs pack --bundles out -o dist/` (writes dist/<system>@<version>.tar.zst).
    Pack(store::PackArgs),
    /// Verify a pack file (or a bundle set directory) and install it into the store, atomically.
    ///
    /// Example: `mydesign-docs install dist/my-design@1.2.0.tar.zst`.
    Install(store::InstallArgs),
    /// List the bundle sets installed in the store: systems, versions, sizes, build ids.
    ///
    /// Example: `mydesign-docs list`.
    List(store::ListArgs),
    /// Remove one installed set (SYSTEM@VERSION) from the store.
    ///
    /// Example: `mydesign-docs remove my-design@1.2.0`.
    Remove(store::RemoveArgs),
    /// What changed in a component between two installed versions: props, functions, changelog entries.
    ///
    /// Example: `mydesign-docs diff table 2.60.0 2.61.0`.
    Diff {
        /// Component name.
        component: String,
        /// Older version.
        v1: String,
        /// Newer version (default: --version, else the highest installed).
        v2: Option<String>,
        #[command(flatten)]
        lookup: LookupArgs,
    },
    /// Check TSX/JSX code against the design system's components and props, like a linter.
    ///
    /// Example: `mydesign-docs check src/pages/Settings.tsx`, `pbpaste | mydesign-docs check -`. Reports unknown
    /// components and props (with the nearest names), string values outside a prop's union of literals,
    /// deprecated and missing required props, each with the fix and the command that shows the docs. Exit 0
    /// clean, 1 with findings, 2 when a file does not parse.
    Check {
        /// Files to check (`.tsx`, `.jsx`, `.ts`, `.js`), or `-` for standard input.
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
        #[command(flatten)]
        lookup: LookupArgs,
    },
    /// Print an index of a design system for an agent's standing instructions, or write it into a file.
    ///
    /// Example: `mydesign-docs agents-md --write AGENTS.md` (a section between markers: a rewrite replaces only it),
    /// then `mydesign-docs agents-md --check AGENTS.md` in CI or a postinstall script (exit 1 when it is stale).
    /// Within --max-tokens (default 2,000): how to ask, the import line, one line per component, most used first,
    /// and every component named.
    AgentsMd {
        /// Merge the section into this file (created if absent; CLAUDE.md, .cursor/rules/design-system.mdc, …).
        #[arg(long, value_name = "FILE", conflicts_with = "check")]
        write: Option<PathBuf>,
        /// Exit 1 when this file's section is not what would be written (absent, another version or build).
        #[arg(long, value_name = "FILE")]
        check: Option<PathBuf>,
        #[command(flatten)]
        lookup: LookupArgs,
    },
    /// Write the docs as files for agents without MCP: llms.txt and one Markdown file per component.
    ///
    /// Example: `mydesign-docs export --llms-txt docs-for-agents`. `llms.txt` is the index (the system's name, a
    /// summary, links to the components, most used first); `components/<name>.md` holds a component's import
    /// line, the props that matter, one example and its document, each file within --max-tokens (default 4,000).
    /// The directory is replaced whole, atomically; the same set gives the same bytes.
    Export {
        /// The directory to write (replaced whole).
        #[arg(long = "llms-txt", value_name = "DIR", required = true)]
        llms_txt: PathBuf,
        #[command(flatten)]
        lookup: LookupArgs,
    },
    /// Print (or with --write, merge) an MCP client's configuration for this binary and store.
    ///
    /// Example: `mydesign-docs setup --client cursor --bundles out --write`.
    Setup(setup::SetupArgs),
    /// Print a shell completion script.
    ///
    /// Example: `mydesign-docs completions bash > /etc/bash_completion.d/mydesign-docs`.
    Completions {
        /// bash, zsh or fish.
        #[arg(value_enum)]
        shell: setup::Shell,
    },
    /// Print a man page (roff), or write every command's page into a directory.
    ///
    /// Example: `mydesign-docs man > mydesign-docs.1`, `mydesign-docs man doc`, `mydesign-docs man --dir
    /// /usr/local/share/man/man1` (mydesign-docs.1 and one mydesign-docs-<command>.1 per command, with its options).
    Man {
        /// The command whose page to print (default: the page of mydesign-docs itself, which lists the commands).
        command: Option<String>,
        /// Write every page into this directory instead of printing one.
        #[arg(long, value_name = "DIR", conflicts_with = "command")]
        dir: Option<PathBuf>,
    },
    /// Debugging: print the tree-sitter syntax tree of a source file (what skeletons and the function index see).
    #[command(hide = true)]
    DumpTs {
        /// A .ts/.tsx/.js/.jsx file.
        file: PathBuf,
    },
}

/// A whole-number argument from `lo` to `hi`, parsed by clap's ranged parser; each of its errors ("number too
/// large to fit in target type" for digits past `i64` too, which names no range) ends with a tip stating the range.
#[derive(Clone, Debug)]
pub(crate) struct InRange<T> {
    lo: i64,
    hi: i64,
    of: std::marker::PhantomData<fn() -> T>,
}

/// [`InRange`] from `lo` to the largest `T` (capped at `i64::MAX`, clap's bound).
pub(crate) fn at_least<T: TryFrom<i64> + Into<i128>>(lo: i64, max: T) -> InRange<T> {
    let hi = i64::try_from(max.into()).unwrap_or(i64::MAX);
    InRange { lo, hi, of: std::marker::PhantomData }
}

impl<T> clap::builder::TypedValueParser for InRange<T>
where
    T: TryFrom<i64> + Clone + Send + Sync + 'static,
    <T as TryFrom<i64>>::Error: Send + Sync + 'static + std::error::Error + ToString,
{
    type Value = T;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<T, clap::Error> {
        let ranged = clap::builder::RangedI64ValueParser::<T>::new().range(self.lo..=self.hi);
        ranged.parse_ref(cmd, arg, value).map_err(|mut e| {
            use clap::error::{ContextKind, ContextValue};
            let name = arg.and_then(clap::Arg::get_long).map_or_else(
                || arg.map_or("it".to_string(), |a| format!("<{}>", a.get_id().as_str().to_uppercase())),
                |l| format!("--{l}"),
            );
            let tip = format!("{name} takes a whole number from {} to {}", self.lo, self.hi);
            e.insert(ContextKind::Suggested, ContextValue::StyledStrs(vec![tip.into()]));
            e
        })
    }
}

fn parse_detail() -> Echoed<mydesign_docs::read::Detail> {
    Echoed(|s| s.parse())
}

fn parse_kind() -> Echoed<mydesign_docs::search::Kind> {
    Echoed(|s| {
        mydesign_docs::search::Kind::parse(s).ok_or_else(|| {
            format!("`{}` is not a kind: doc, code, function, changelog or props", mydesign_docs::escape::shown(s))
        })
    })
}

fn parse_token_type() -> Echoed<mydesign_docs::model::TokenType> {
    Echoed(|s| {
        mydesign_docs::model::TokenType::from_name(s).ok_or_else(|| {
            format!(
                "`{}` is not a token type: color, dimension, font, shadow, duration, easing, number or other",
                mydesign_docs::escape::shown(s)
            )
        })
    })
}

/// A value parser whose error is only its own message (which echoes the value through
/// `mydesign_docs::escape`), not clap's `invalid value '…'` prefix, which would print the value raw: an ESC or
/// bidi control in `--kind` must not reach the terminal.
#[derive(Clone)]
struct Echoed<T>(fn(&str) -> Result<T, String>);

impl<T: Clone + Send + Sync + 'static> clap::builder::TypedValueParser for Echoed<T> {
    type Value = T;

    fn parse_ref(
        &self,
        _cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<T, clap::Error> {
        (self.0)(&value.to_string_lossy()).map_err(|why| {
            let name = arg.and_then(|a| a.get_long()).map_or(String::new(), |l| format!(" for --{l}"));
            clap::Error::raw(clap::error::ErrorKind::InvalidValue, format!("invalid value{name}: {why}\n"))
        })
    }
}

// Options shared by every lookup. Not a doc comment, as on every `Args` struct of the CLI: clap takes a flattened
// struct's doc comment as the help text of each command it is part of, and every lookup's `--help` then opened with
// "Options shared by every lookup" instead of what the command does.
#[derive(Args, Debug, Clone)]
struct LookupArgs {
    /// Directory holding bundle sets (<system>@<version>/), or one bundle set; repeatable: a version held by several
    /// is read from the first copy that opens, and from the next where a bundle of it is damaged. Default: ./out
    /// when it holds a set, else the store (`--store` of install, $MYDESIGN_DOCS_HOME, else
    /// ~/.local/share/mydesign-docs).
    #[arg(long)]
    bundles: Vec<PathBuf>,
    /// Design system to read when the directory holds several.
    #[arg(long)]
    system: Option<String>,
    /// Version to read (default: the highest present that opens, in SemVer order).
    #[arg(long = "version")]
    version: Option<String>,
    /// Language of documents and changelog, e.g. zh-CN or en-US (default: the system's default language).
    #[arg(long)]
    lang: Option<String>,
    /// Print the structured result as JSON.
    #[arg(long)]
    json: bool,
    /// Token budget of the answer, at least 300 (default: the set's cap, 10,000; for `search`, 2,000); longer
    /// answers are cut on whole lines and print the command that continues them.
    #[arg(long, value_name = "N", value_parser = at_least(i64::from(mydesign_docs::budget::MIN_MAX_TOKENS), u32::MAX))]
    max_tokens: Option<u32>,
    /// Continue a cut answer: the cursor it printed.
    #[arg(long)]
    cursor: Option<String>,
}

/// Writes `text` and a newline to stdout. A closed pipe (`mydesign-docs doc table | head`) is not an error: the
/// reader has what it wanted.
///
/// # Errors
/// Any other write error.
pub(crate) fn emit(text: &str) -> anyhow::Result<()> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    // One write of the answer and its newline (stdout is line-buffered: two `write_all`s were two system calls).
    let newline = [std::io::IoSlice::new(text.as_bytes()), std::io::IoSlice::new(b"\n")];
    let written = match out.write_vectored(&newline) {
        Ok(n) if n == text.len() + 1 => Ok(()),
        Ok(n) if n >= text.len() => out.write_all(&b"\n"[n - text.len()..]),
        Ok(n) => out.write_all(&text.as_bytes()[n..]).and_then(|()| out.write_all(b"\n")),
        Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {
            out.write_all(text.as_bytes()).and_then(|()| out.write_all(b"\n"))
        }
        Err(e) => Err(e),
    };
    match written.and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e.into()),
        _ => Ok(()),
    }
}

/// Runs the parsed command; errors are printed to stderr and give exit code 2.
pub fn run(cli: Cli) -> ExitCode {
    let result = lookup::run(cli.command);
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}
