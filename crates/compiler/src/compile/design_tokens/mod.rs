//! Design tokens (issue 30): the named values a design system's theme keeps (colours, spacing, radii, fonts,
//! shadows, motion), read from the walked files with no configuration, or from the files `[[tokens]]` rules name.
//! Not to be confused with [`super::tokens`], the tokenizer that counts tiktoken tokens.
//!
//! One reader per source form: [`stylesheet`] (CSS custom properties, SCSS and Less variables), [`theme_object`]
//! (TypeScript/JavaScript `defineTokens` / `defineSemanticTokens` objects, tree-sitter), [`dtcg`] (DTCG JSON),
//! [`documented`] (the "CSS Variables" / "Design Token" tables of component documents). Each gives
//! [`RawToken`]s as written; [`resolve`] replaces references between them, normalises values for comparison and
//! infers types.

pub mod documented;
pub mod dtcg;
mod resolve;
pub mod stylesheet;
pub mod theme_object;

use std::collections::HashMap;

use rayon::prelude::*;

use crate::compile::diagnostic::{Diagnostic, Stage};
use crate::compile::layout::Layout;
use crate::compile::walk::WalkedFile;
use crate::config::{TokenForm, TokenRule};
use crate::model::{DesignToken, TokenSource, TokenType};

pub use resolve::resolve;

/// Folders whose files are no source of the design system's own tokens, when detected: examples, demos, tests,
/// documentation sites and apps, templates (they define tokens of their own to show the API, or a site's theme).
const NOT_THEME_FOLDERS: &[&str] = &[
    "examples",
    "example",
    "demo",
    "demos",
    "docs",
    "site",
    "sites",
    "stories",
    "story",
    "test",
    "tests",
    "__tests__",
    "fixtures",
    "apps",
    "templates",
    "template",
    "generators",
    "playground",
    "e2e",
];

/// Largest file read for tokens (bytes): theme files are small; a bundle of generated CSS is no source of names.
const MAX_TOKEN_FILE_BYTES: u64 = 2_000_000;

/// A token as its source writes it, before references are resolved.
#[derive(Clone, Debug, Default)]
pub struct RawToken {
    /// Its name in its form (`--x`, `$x`, `@x`, `colors.gray.50`).
    pub name: String,
    /// Other names of it (a documented variable's global name).
    pub aliases: Vec<String>,
    /// The form it was written in.
    pub source: TokenSource,
    /// The type its source declares (DTCG `$type`, a theme object's category), if any.
    pub kind: Option<TokenType>,
    /// Declared semantic (`defineSemanticTokens`).
    pub semantic: bool,
    /// Its component's key, `None` for a global token.
    pub component: Option<String>,
    /// (mode, value as written) per mode; mode `""` for the only value.
    pub values: Vec<(String, String)>,
    /// Its description.
    pub description: String,
    /// Repository-relative path.
    pub file: String,
    /// 1-based line.
    pub line: u32,
}

/// The design tokens of the walked files, resolved, in file order, with the problems met (an unreadable file, a
/// source form that does not parse). With `rules`, only the files they match are read, in the form each names;
/// without, every file that reads as a token source ([`detect`]) is.
///
/// A component's token tables are read from its document in `lang` (else its first), so a table translated into
/// several languages is read once.
pub fn compile(
    walked: &[WalkedFile],
    layout: &Layout,
    rules: &[TokenRule],
    lang: &str,
) -> (Vec<DesignToken>, Vec<Diagnostic>) {
    let owners = owners(layout);
    let documents = documents(layout, lang);
    // Components only: a guide page named like a folder (Arco's `color`, `theme` pages) owns no token.
    let components: std::collections::BTreeSet<&str> =
        layout.components.iter().filter(|(_, p)| !p.guide).map(|(k, _)| k.as_str()).collect();
    let read: Vec<(Vec<RawToken>, Option<Diagnostic>)> = walked
        .par_iter()
        .filter(|f| f.bytes <= MAX_TOKEN_FILE_BYTES)
        .filter_map(|f| {
            let (form, component) = match rules.is_empty() {
                true if f.rel.split('/').any(|d| NOT_THEME_FOLDERS.contains(&d))
                    && !documents.contains(f.rel.as_str()) =>
                {
                    return None;
                }
                true => (None, None),
                false => {
                    let (form, component) = rules.iter().find_map(|r| r.matches(&f.rel))?;
                    (Some(form), component)
                }
            };
            let text = match crate::compile::text::read_to_string(&f.abs) {
                Ok(t) => t,
                Err(e) if form.is_some() => {
                    return Some((vec![], Some(Diagnostic::new(&f.rel, Stage::Read, e.to_string()))));
                }
                Err(_) => return None,
            };
            let (mut tokens, problem) = read_file(&f.rel, &text, form, documents.contains(f.rel.as_str()))?;
            let owner = component.or_else(|| owners.get(f.rel.as_str()).cloned());
            // The nearest folder (up to three levels) named as a component: Semi's
            // `semi-foundation/button/variables.scss`, Arco's `components/button/style/token.less`. Not for a theme
            // object's or a DTCG file's tokens: those forms define the system's tokens (Chakra's
            // `react/src/theme/tokens/colors.ts` is no token of its `Theme` component).
            let by_folder =
                || f.rel.split('/').rev().skip(1).take(3).find(|d| components.contains(d)).map(str::to_string);
            for t in &mut tokens {
                let global_form = matches!(t.source, TokenSource::Js | TokenSource::Dtcg);
                let fallback = if global_form { None } else { by_folder() };
                t.component = t.component.take().or_else(|| owner.clone()).or(fallback);
            }
            Some((tokens, problem))
        })
        .collect();
    let mut raw = Vec::new();
    let mut diagnostics = Vec::new();
    for (tokens, problem) in read {
        raw.extend(tokens);
        diagnostics.extend(problem);
    }
    (one_per_value(resolve(merge_modes(resolve::interpolate_names(raw)))), diagnostics)
}

/// `tokens` with each token that another file declares with the same name, form, component and values (a theme's
/// compiled copy, the same preset in two packages) listed once: the first in file order, the others' `file:line` in its
/// `also_in`.
fn one_per_value(tokens: Vec<DesignToken>) -> Vec<DesignToken> {
    let mut out: Vec<DesignToken> = Vec::with_capacity(tokens.len());
    type Key = (String, TokenSource, Option<String>, Vec<(String, String)>);
    let mut first: HashMap<Key, usize> = HashMap::new();
    for t in tokens {
        let values = t
            .values
            .iter()
            .map(|v| (v.mode.clone(), v.resolved.clone().unwrap_or_else(|| v.written.clone())))
            .collect();
        let key = (t.name.clone(), t.source, t.component.clone(), values);
        match first.get(&key) {
            Some(&i) if out[i].file != t.file || out[i].line != t.line => {
                out[i].also_in.push(format!("{}:{}", t.file, t.line));
            }
            _ => {
                first.insert(key, out.len());
                out.push(t);
            }
        }
    }
    out
}

/// `raw` with the tokens of one name and form that other files give in other modes joined into the first
/// (a DTCG theme's `dark/` files, a dark theme's stylesheet): one token, one value a mode. A second declaration
/// in a mode already read stays a token of its own (both are listed).
fn merge_modes(raw: Vec<RawToken>) -> Vec<RawToken> {
    let mut out: Vec<RawToken> = Vec::with_capacity(raw.len());
    let mut first: HashMap<(String, TokenSource), usize> = HashMap::new();
    for t in raw {
        let key = (t.name.clone(), t.source);
        if let Some(&i) = first.get(&key) {
            let into = &mut out[i];
            if into.file != t.file && t.values.iter().all(|(m, _)| into.values.iter().all(|(n, _)| n != m)) {
                into.values.extend(t.values);
                continue;
            }
        } else {
            first.insert(key, out.len());
        }
        out.push(t);
    }
    out
}

/// Each component's document in `lang`, else its first: the documents whose token tables are read.
fn documents<'l>(layout: &'l Layout, lang: &str) -> std::collections::HashSet<&'l str> {
    let plans = layout.components.values().filter(|p| !p.guide);
    plans.filter_map(|p| p.docs.get(lang).or_else(|| p.docs.values().next())).map(|f| f.rel.as_str()).collect()
}

/// The component key of every file the layout lists (documents and sources).
fn owners(layout: &Layout) -> HashMap<&str, String> {
    let mut out = HashMap::new();
    for (key, plan) in &layout.components {
        if plan.guide {
            continue;
        }
        for f in plan.docs.values().chain(&plan.files) {
            out.entry(f.rel.as_str()).or_insert_with(|| key.clone());
        }
    }
    out
}

/// The tokens of one file, in `form` when a rule names it, else in the form its name and text read as; `None` when
/// it is no token source. A component's document is read for its token tables only when `document` is true.
fn read_file(
    path: &str,
    text: &str,
    form: Option<TokenForm>,
    document: bool,
) -> Option<(Vec<RawToken>, Option<Diagnostic>)> {
    let form = match form {
        Some(f) => f,
        None => detect(path, text, document)?,
    };
    Some(match form {
        TokenForm::Css | TokenForm::Scss | TokenForm::Less => {
            let dialect = match form {
                TokenForm::Scss => stylesheet::Dialect::Scss,
                TokenForm::Less => stylesheet::Dialect::Less,
                _ => stylesheet::Dialect::Css,
            };
            (stylesheet::read(dialect, path, text), None)
        }
        TokenForm::Js => match theme_object::read(path, text) {
            Ok(t) => (t, None),
            Err(e) => (vec![], Some(Diagnostic::new(path, Stage::Source, e))),
        },
        TokenForm::Dtcg => match dtcg::read(path, text) {
            Ok(t) => (t, None),
            Err(e) => (vec![], Some(Diagnostic::new(path, Stage::Read, format!("DTCG tokens: {e}")))),
        },
        TokenForm::Documented => (documented::read(path, text), None),
    })
}

/// The form `path` is a token source in, detected: a stylesheet that is mostly variable declarations
/// ([`stylesheet::is_token_file`]), a script calling `defineTokens` / `defineSemanticTokens`, a JSON file with
/// DTCG `$value`s, a component's document with a token table; `None` for any other file.
fn detect(path: &str, text: &str, document: bool) -> Option<TokenForm> {
    let ext = path.rsplit_once('.').map_or("", |(_, e)| e);
    match ext {
        "css" | "scss" | "less" => {
            let dialect = stylesheet::Dialect::of(path)?;
            stylesheet::is_token_file(dialect, text).then_some(match dialect {
                stylesheet::Dialect::Css => TokenForm::Css,
                stylesheet::Dialect::Scss => TokenForm::Scss,
                stylesheet::Dialect::Less => TokenForm::Less,
            })
        }
        "ts" | "tsx" | "js" | "mjs" | "cjs" | "jsx" => theme_object::is_token_file(text).then_some(TokenForm::Js),
        "json" => dtcg::is_token_file(text).then_some(TokenForm::Dtcg),
        "md" | "mdx" if document => documented::has_token_table(text).then_some(TokenForm::Documented),
        _ => None,
    }
}
