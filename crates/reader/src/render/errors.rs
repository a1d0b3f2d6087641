//! Errors spelled for who reads them: [`LookupError::message`], [`LookupError::listing`] and
//! [`LookupError::fitted`] name calls and arguments as the [`Surface`] reading them sends them.

use super::*;

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
            LookupError::UnknownComponent { known, guides, first, name, system, version, suggestions }
                if suggestions.is_empty() =>
            {
                let mut list = surface.quoted_hint("list_components", "components", None, &[]);
                if *guides > 0 {
                    let args = match surface {
                        Surface::Mcp => [("kind", Arg::from("guide"))],
                        Surface::Cli => [("--guides", Arg::On)],
                    };
                    let guides_call = surface.quoted_hint("list_components", "components", None, &args);
                    list = format!("{list}, the guides with {guides_call}");
                }
                let names = first_names(first, (known + guides) as usize, &list);
                let counted = entries(*known, *guides);
                format!("unknown component `{name}` in {system} {version}; it has {counted}: {names}")
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
            LookupError::NotATokenValue { value } => {
                let what = if value.is_empty() { "an empty value".to_string() } else { format!("`{value}`") };
                let by_name = match surface {
                    Surface::Mcp => "`search_docs(query=\"NAME\", kind=\"token\")`".to_string(),
                    Surface::Cli => surface.quoted_hint("search_docs", "tokens", None, &[("query", Arg::Hole("NAME"))]),
                };
                format!(
                    "{what} is not a value {} reads: give one colour (`#1677ff`, `rgb(22, 119, 255)`, `hsl()`, a CSS \
                     colour name), length (`12px`, `0.75rem`, `0`) or duration (`200ms`, `.3s`); tokens by name: \
                     {by_name}",
                    if surface == Surface::Mcp { "`search_docs(kind=\"token-for\")`" } else { "`token-for`" }
                )
            }
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
