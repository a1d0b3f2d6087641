//! TypeScript / TSX / JavaScript source analysis with tree-sitter: a function index and a skeleton.
//!
//! [`analyze`] parses one file and returns a [`SourceAnalysis`]:
//!
//! - **Function index** ([`Function`]): every *named* function-like thing, with its simple and qualified
//!   name, its [`FunctionKind`], and the byte and line span of the whole member or declaration, so that
//!   `get function (path, name)` can return exactly that source.
//! - **Skeleton** (DESIGN §3, the rule taken from the Semi Design MCP server, with its fault fixed): for
//!   files of at least `skeleton_min_lines` lines, the block body of every *outermost* function-like node
//!   becomes [`BODY_PLACEHOLDER`] (`{ /* ... */ }`). Bodies are spliced out of the original text by
//!   byte offset, so everything outside them (imports, types, comments, fields, top-level statements)
//!   stays byte-identical, and the skeleton re-parses with zero errors.
//!
//! Tree-sitter types never leave `compile/` (this module and `props`, which reuses [`parse`]). The tree is walked once with an explicit stack (no
//! recursion, so deeply nested input cannot overflow the stack); no tree-sitter queries are used,
//! because qualified names need the chain of enclosing scopes, which a single walk has at hand.
//! A parse with errors is not a failure: the partial extraction is kept and the errors are counted
//! ([`SourceAnalysis::parse_errors`]), like difftastic's `ParseErrors`.

use std::cell::RefCell;
use std::collections::HashSet;
use std::fmt::Write as _;
use std::path::Path;

mod tree_walk;
pub mod vue;

use tree_sitter::{Language, Node, Parser, Tree};

use tree_walk::Walk;

/// Files larger than this many bytes (4 MiB) are not parsed: [`analyze`] returns
/// [`SourceError::TooLarge`] and the caller skips the file with that stated reason.
pub const MAX_SOURCE_BYTES: usize = crate::model::MAX_ANALYZED_SOURCE_BYTES as usize;

/// What a replaced function body becomes in the skeleton. DESIGN §3 writes it `{ ... }`, but `...` is
/// not a statement: the skeleton would not re-parse, and tree-sitter's error recovery on
/// `handle = () => { ... }` class fields swallows the whole class into one `ERROR` node. An empty block
/// holding a comment is valid in every body position (function, method, arrow), so the skeleton
/// re-parses with zero errors.
pub const BODY_PLACEHOLDER: &str = "{ /* ... */ }";

/// How many enclosing scopes (functions, classes, objects, namespaces) a function may have and still be indexed.
/// Each entry's qualified name repeats every enclosing name, so without a cap 1 MB of `function f0() { function
/// f1() { … } }` (33,000 levels) made names totalling gigabytes (issue 26). Real code stays far below: the deepest
/// qualified name in the six real inputs has 7 parts.
pub const MAX_SCOPE_DEPTH: usize = 64;

/// Which grammar to use, from the file extension: `ts` → TypeScript, `tsx` → TSX,
/// `js`/`jsx`/`mjs`/`cjs` → JavaScript (the JavaScript grammar handles JSX), `vue` → the grammar of the file's
/// `<script>` blocks, parsed in place ([`vue`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SourceLang {
    /// `.ts` files: tree-sitter-typescript's TypeScript grammar (no JSX; `<T>x` is a type assertion).
    TypeScript,
    /// `.tsx` files: tree-sitter-typescript's TSX grammar.
    Tsx,
    /// `.js`, `.jsx`, `.mjs`, `.cjs` files: tree-sitter-javascript, which also parses JSX.
    JavaScript,
    /// `.vue` single-file components: their top-level `<script>` blocks, with the grammar their `lang` names
    /// ([`vue::scripts`]), at the `.vue` file's own offsets.
    Vue,
}

impl SourceLang {
    /// The grammar for `path`, from its extension (case-sensitive, as written in the repository:
    /// `ts`, `tsx`, `js`, `jsx`, `mjs`, `cjs`); `None` for any other file. A declaration file
    /// `x.d.ts` is TypeScript.
    pub fn from_path(path: &Path) -> Option<SourceLang> {
        match path.extension()?.to_str()? {
            "ts" => Some(SourceLang::TypeScript),
            "tsx" => Some(SourceLang::Tsx),
            "js" | "jsx" | "mjs" | "cjs" => Some(SourceLang::JavaScript),
            "vue" => Some(SourceLang::Vue),
            _ => None,
        }
    }

    /// The tree-sitter grammar. TypeScript and TSX share one grammar crate and every node kind this
    /// module looks at; JavaScript differs only in `field_definition` (TS: `public_field_definition`)
    /// and where method decorators sit, both handled in the walk. `Vue` is resolved to its scripts' grammar before
    /// a parser is asked for (see [`parse`]); TypeScript is named for it only so the match is total.
    fn language(self) -> Language {
        match self {
            SourceLang::TypeScript | SourceLang::Vue => tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
            SourceLang::Tsx => tree_sitter_typescript::LANGUAGE_TSX.into(),
            SourceLang::JavaScript => tree_sitter_javascript::LANGUAGE.into(),
        }
    }

    fn index(self) -> usize {
        match self {
            SourceLang::TypeScript | SourceLang::Vue => 0,
            SourceLang::Tsx => 1,
            SourceLang::JavaScript => 2,
        }
    }
}

/// What kind of function-like thing a [`Function`] is: the model's type, stored as it is in the function index.
pub use crate::model::FunctionKind;
use crate::model::FunctionMeta;

/// One named function-like thing in a source file: the model's [`FunctionMeta`] (the function index entry the
/// bundle stores, with one kind; its `tokens` are 0 here, counted by the compiler's `emit`, which also moves
/// `start_byte` back over the line's indentation) and whether it is a `static` member. Field reads go through to
/// `meta`.
///
/// In `meta`:
/// - `name`: the simple name, `render`. For a variable, class field, object property or assignment holding the
///   function, the holder's name; `"default"` for an anonymous `export default`; string keys without their
///   quotes; computed names as their source text (`[Symbol.iterator]`).
/// - `qualified`: the names of the enclosing scopes and `name`, joined with `.`: `Table.render`,
///   `Table.render.helper`, `outer.inner`, `utils.formatDate` (from `const utils = { formatDate() {} }`). Scopes
///   are classes, namespaces, named functions and methods, and variables / class fields / object properties
///   holding a function, class or object literal, and interfaces. A getter and a setter of the same property
///   share a qualified name and differ by kind; overload heads are one entry with their implementation. Any other
///   repeated name is made unique (see [`analyze`]): a static member that meets an instance member of the same
///   name is `Toast.destroyAll (static)`, and further repeats are `name#2`, `name#3`, … in source order, so
///   different declarations never share a name.
/// - `kind`: exactly one [`FunctionKind`] (see [`Function::kind`]).
/// - `start_line`..=`end_line`: the span's lines, 1-based, inclusive.
/// - `start_byte`..`end_byte`: the span's bytes in the UTF-8 text, `end_byte` exclusive, so
///   `&text[start_byte..end_byte]` is exactly the member's source. The span is the whole member or declaration:
///   `export` included, a leading JSDoc comment not; a `const` declaration when it declares only this one variable
///   (else the declarator); a class member with its decorators.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Function {
    /// The entry as the bundle stores it.
    pub meta: FunctionMeta,
    /// A `static` class member.
    pub is_static: bool,
}

impl std::ops::Deref for Function {
    type Target = FunctionMeta;
    fn deref(&self) -> &FunctionMeta {
        &self.meta
    }
}

impl Function {
    /// Its one kind (an analysed entry has exactly one; only a view joins a getter and its setter's). An entry
    /// built elsewhere with no kind reads as [`FunctionKind::Function`].
    pub fn kind(&self) -> &FunctionKind {
        self.meta.kind.0.first().unwrap_or(&FunctionKind::Function)
    }
}

/// The result of [`analyze`] on one file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceAnalysis {
    /// The function index, in source order (sorted by `start_byte`; an enclosing function comes before
    /// the functions nested in it). Nested functions are included.
    pub functions: Vec<Function>,
    /// The file with every outermost function body replaced by [`BODY_PLACEHOLDER`]; `Some` only when the file has
    /// at least `skeleton_min_lines` lines (counted as `text.split('\n').count()`).
    pub skeleton: Option<String>,
    /// How many bodies were replaced in the skeleton (0 when there is no skeleton).
    pub outer_bodies: usize,
    /// How many `ERROR` and `MISSING` nodes the parse produced (0 for a clean parse).
    pub parse_errors: usize,
    /// The 1-based line of the first `ERROR` or `MISSING` node, if any.
    pub first_error_line: Option<u32>,
    /// Lines (1-based) where the grammar misparsed a bare `&` in JSX text or a JSX attribute string (valid TSX,
    /// a known tree-sitter-typescript bug): the file was parsed again with those `&` read as spaces, which gave
    /// a clean tree, so the index and skeleton are complete and `parse_errors` is 0. Empty for other files.
    pub jsx_ampersand_lines: Vec<u32>,
    /// Functions nested more than [`MAX_SCOPE_DEPTH`] scopes deep: not indexed (their enclosing functions are, and
    /// their text is in those), so a pathological file cannot make the index quadratic in its size. 0 normally.
    pub too_deep: usize,
    /// `lang` values of a `.vue` file's `<script>` blocks that no grammar here reads (those blocks are not parsed).
    pub unknown_script_langs: Vec<String>,
}

/// Why [`analyze`] could not analyze a file.
#[derive(Debug, thiserror::Error)]
pub enum SourceError {
    /// The text is over [`MAX_SOURCE_BYTES`]; the file is not parsed (the caller stores it as text only).
    #[error("{bytes} bytes, over the {limit}-byte (4 MiB) limit of source analysis")]
    TooLarge {
        /// Size of the text, in bytes.
        bytes: usize,
        /// The limit, [`MAX_SOURCE_BYTES`].
        limit: usize,
    },
    /// tree-sitter refused the grammar (`set_language` failed, an ABI mismatch) or `parse` returned no
    /// tree. Never returned for syntax errors, which are counted instead.
    #[error("tree-sitter parser failed: {0}")]
    Parser(String),
}

/// Analyzes one source file: the function index always, the skeleton when the file has at least
/// `skeleton_min_lines` lines (`text.split('\n').count()`, as the Semi Design MCP server counts; the
/// product's default is 500, DESIGN §3). A parse with syntax errors still succeeds, with what could be
/// extracted and the error counts.
///
/// Uses one parser per thread and language (kept in a thread-local), so it is cheap to call from rayon
/// workers.
///
/// # Errors
///
/// [`SourceError::TooLarge`] when `text` is over [`MAX_SOURCE_BYTES`]; [`SourceError::Parser`] when
/// tree-sitter cannot load the grammar or returns no tree.
///
/// # Panics
///
/// Never, on any input.
pub fn analyze(lang: SourceLang, text: &str, skeleton_min_lines: usize) -> Result<SourceAnalysis, SourceError> {
    analyze_file("", lang, text, skeleton_min_lines)
}

/// [`analyze`] for the file at `path` (repository-relative), whose name names a Vue component whose own `name` is
/// not a string literal: `export default defineComponent({ name, setup() {…} })` in `swipe/Swipe.tsx` gives
/// `Swipe.setup`, as Vue itself names a component after its file (`index.*` after its folder); with an empty
/// `path`, `default.setup`.
///
/// # Errors
///
/// As [`analyze`].
pub fn analyze_file(
    path: &str,
    lang: SourceLang,
    text: &str,
    skeleton_min_lines: usize,
) -> Result<SourceAnalysis, SourceError> {
    let (grammar, ranges, unknown_script_langs) = resolve(lang, text)?;
    let mut tree = parse_in(grammar, text, &ranges)?;
    let mut jsx_ampersand_lines = Vec::new();
    if tree.root_node().has_error()
        && let Some((clean, lines)) = reparse_without_jsx_ampersands((grammar, &ranges), text, &tree)
    {
        tree = clean;
        jsx_ampersand_lines = lines;
    }
    let root = tree.root_node();
    let (parse_errors, first_error_line) = count_errors(root);

    // Positions are those of `text` (a masked reparse keeps every byte offset).
    let mut walk = Walk::new(text, lang == SourceLang::Vue);
    walk.file_component = (!path.is_empty()).then(|| crate::compile::names::name_from_path(path));
    walk.run(root);
    let Walk { mut functions, bodies, too_deep, .. } = walk;
    functions.sort_by_key(|f| f.start_byte);
    let functions = identify(functions);

    let lines = crate::line_index::line_count(text) as usize;
    let (skeleton, outer_bodies) = if lines >= skeleton_min_lines {
        let (s, n) = splice_skeleton(text, &bodies);
        (Some(s), n)
    } else {
        (None, 0)
    };

    Ok(SourceAnalysis {
        functions,
        skeleton,
        outer_bodies,
        parse_errors,
        first_error_line,
        jsx_ampersand_lines,
        too_deep,
        unknown_script_langs,
    })
}

/// The grammar and included ranges `text` is parsed with, and (`.vue`) the script `lang`s left unparsed: for a
/// `.vue` file its scripts' ([`vue::scripts`]; one empty range when it has none, so nothing is parsed),
/// for the others `lang` itself over the whole text.
fn resolve(lang: SourceLang, text: &str) -> Result<(SourceLang, Vec<tree_sitter::Range>, Vec<String>), SourceError> {
    if text.len() > MAX_SOURCE_BYTES {
        return Err(SourceError::TooLarge { bytes: text.len(), limit: MAX_SOURCE_BYTES });
    }
    if lang != SourceLang::Vue {
        return Ok((lang, Vec::new(), Vec::new()));
    }
    let scripts = vue::scripts(text)?;
    let ranges = if scripts.ranges.is_empty() { vec![vue::empty_range()] } else { scripts.ranges };
    Ok((scripts.grammar, ranges, scripts.unknown_langs))
}

/// How many times a misparsed `&` in JSX is masked and the file parsed again (error recovery can hide a second
/// one behind the first).
const MAX_JSX_REPARSES: usize = 3;

/// When every syntax error of `tree` is an `ERROR` node starting with `&` inside a JSX element or attribute (the
/// grammar reads `&` there as the start of an entity: `Tom & Jerry`, `src='?a=1&b=2'`), the tree of `text` with
/// those `&` bytes read as spaces (same length, so every offset holds) and the lines they are on; `None` when
/// another error remains.
fn reparse_without_jsx_ampersands(
    (lang, ranges): (SourceLang, &[tree_sitter::Range]),
    text: &str,
    tree: &Tree,
) -> Option<(Tree, Vec<u32>)> {
    let mut masked = text.as_bytes().to_vec();
    let mut lines = Vec::new();
    let mut current: Option<Tree> = None;
    for _ in 0..MAX_JSX_REPARSES {
        let found = {
            let root = current.as_ref().unwrap_or(tree).root_node();
            if !root.has_error() {
                break;
            }
            let mut stack = vec![root];
            let mut cursor = root.walk();
            let mut found = false;
            while let Some(node) = stack.pop() {
                if node.is_missing() {
                    return None;
                }
                if node.is_error() {
                    let start = node.start_byte();
                    let in_jsx =
                        std::iter::successors(node.parent(), |n| n.parent()).any(|n| n.kind().starts_with("jsx_"));
                    if masked.get(start) != Some(&b'&') || !in_jsx {
                        return None;
                    }
                    for b in &mut masked[start..node.end_byte()] {
                        if *b == b'&' {
                            *b = b' ';
                        }
                    }
                    lines.push(line_of(node.start_position().row));
                    found = true;
                    continue;
                }
                for child in node.children(&mut cursor) {
                    if child.has_error() || child.is_missing() {
                        stack.push(child);
                    }
                }
            }
            found
        };
        if !found {
            return None;
        }
        // Only `&` bytes (ASCII) became spaces: still UTF-8.
        let masked_text = std::str::from_utf8(&masked).ok()?;
        current = Some(parse_in(lang, masked_text, ranges).ok()?);
    }
    let clean = current?;
    if clean.root_node().has_error() {
        return None;
    }
    lines.sort_unstable();
    lines.dedup();
    Some((clean, lines))
}

/// Makes every qualified name of `functions` (sorted by start) name one span (see [`Function`]'s `qualified`):
/// overload heads ([`FunctionKind::Signature`]) directly followed in the index by more of the same name end in one
/// entry spanning them all, of the last one's kind (`function format` of three `export function format(…)` lines
/// 1–5 is lines 1–5); a getter and a setter keep one shared name (served together); a static member meeting an
/// instance member of the same name gets ` (static)`; other repeats get `#2`, `#3`, ….
fn identify(functions: Vec<Function>) -> Vec<Function> {
    // Overload groups: a run of adjacent entries of one qualified name, all but the last bodiless.
    let mut merged: Vec<Function> = Vec::with_capacity(functions.len());
    for f in functions {
        if let Some(prev) = merged.last_mut()
            && prev.qualified == f.qualified
            && *prev.kind() == FunctionKind::Signature
            && prev.is_static == f.is_static
        {
            prev.meta.end_byte = prev.end_byte.max(f.end_byte);
            prev.meta.end_line = prev.end_line.max(f.end_line);
            prev.meta.kind = f.meta.kind;
            continue;
        }
        merged.push(f);
    }
    // How many entries share each qualified name, and whether they mix static and instance members.
    let mut seen: std::collections::HashMap<String, (usize, bool, bool)> = std::collections::HashMap::new();
    for f in &merged {
        let e = seen.entry(f.qualified.clone()).or_default();
        e.0 += 1;
        if f.is_static {
            e.1 = true;
        } else {
            e.2 = true;
        }
    }
    // Numbering within each (possibly `(static)`-suffixed) name; a setter right after a getter (or the reverse)
    // of the same name shares its number.
    let mut counters: std::collections::HashMap<String, (u32, Option<FunctionKind>)> = std::collections::HashMap::new();
    let mut taken: HashSet<String> = merged.iter().map(|f| f.qualified.clone()).collect();
    for f in &mut merged {
        let Some(&(count, has_static, has_instance)) = seen.get(&f.qualified) else { continue };
        if count < 2 {
            continue;
        }
        let base = if f.is_static && has_static && has_instance {
            format!("{} (static)", f.qualified)
        } else {
            f.qualified.clone()
        };
        let (n, last) = counters.entry(base.clone()).or_insert((0, None));
        let pairs = matches!(
            (last.as_ref(), f.kind()),
            (Some(FunctionKind::Getter), FunctionKind::Setter) | (Some(FunctionKind::Setter), FunctionKind::Getter)
        );
        if pairs {
            *last = None;
        } else {
            *n += 1;
            *last = Some(f.kind().clone());
        }
        let mut name = if *n == 1 { base.clone() } else { format!("{base}#{n}") };
        while *n > 1 && taken.contains(&name) && name != f.qualified {
            // A name like `x#2` written in the source: take the next free number.
            *n += 1;
            name = format!("{base}#{n}");
        }
        if name != f.qualified {
            taken.insert(name.clone());
            f.meta.qualified = name;
        }
    }
    merged
}

/// A readable dump of the tree-sitter syntax tree (for a `dump-ts` debug subcommand): one node per
/// line, indented two spaces per level (capped at 64 levels), as `field: kind [start..end]` with byte
/// offsets, anonymous tokens omitted, leaf and `ERROR` text quoted, `MISSING` nodes marked.
///
/// # Errors
///
/// As [`analyze`]: [`SourceError::TooLarge`] or [`SourceError::Parser`].
pub fn dump_tree(lang: SourceLang, text: &str) -> Result<String, SourceError> {
    let tree = parse(lang, text)?;
    let mut out = String::new();
    let mut cursor = tree.walk();
    let mut depth = 0usize;
    loop {
        let node = cursor.node();
        if node.is_named() || node.is_missing() {
            let field = cursor.field_name().map(|f| format!("{f}: ")).unwrap_or_default();
            let _ = write!(
                out,
                "{}{field}{} [{}..{}]",
                "  ".repeat(depth.min(64)),
                node.kind(),
                node.start_byte(),
                node.end_byte()
            );
            if node.is_missing() {
                out.push_str(" MISSING");
            } else if node.child_count() == 0 || node.is_error() {
                let _ = write!(out, " {:?}", node_text(text, node));
            }
            out.push('\n');
        }
        if cursor.goto_first_child() {
            depth += 1;
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return Ok(out);
            }
            depth = depth.saturating_sub(1);
        }
    }
}

thread_local! {
    /// One parser per language per thread, created on first use.
    static PARSERS: RefCell<[Option<Parser>; 3]> = const { RefCell::new([None, None, None]) };
}

fn new_parser(lang: SourceLang) -> Result<Parser, SourceError> {
    let mut parser = Parser::new();
    parser.set_language(&lang.language()).map_err(|e| SourceError::Parser(format!("{lang:?} grammar: {e}")))?;
    Ok(parser)
}

/// Parses `text` with the thread's cached parser for `lang` (also used by `compile::props`): a `.vue` file's
/// scripts in place, at the file's own offsets.
pub(super) fn parse(lang: SourceLang, text: &str) -> Result<Tree, SourceError> {
    let (grammar, ranges, _) = resolve(lang, text)?;
    parse_in(grammar, text, &ranges)
}

/// [`parse`] of a file whose syntax errors make it unusable (a story file, read for its exports): the tree when it
/// has none, a misparsed `&` in JSX read as a space as [`analyze_file`] does (same offsets); else why not, for a
/// person: the number of syntax errors and the first one's line, or the size limit.
pub(super) fn parse_checked(lang: SourceLang, text: &str) -> Result<Tree, String> {
    let (grammar, ranges, _) = resolve(lang, text).map_err(|e| e.to_string())?;
    let tree = parse_in(grammar, text, &ranges).map_err(|e| e.to_string())?;
    if !tree.root_node().has_error() {
        return Ok(tree);
    }
    if let Some((clean, _)) = reparse_without_jsx_ampersands((grammar, &ranges), text, &tree) {
        return Ok(clean);
    }
    let (errors, line) = count_errors(tree.root_node());
    Err(format!(
        "does not parse as {lang:?}: {errors} syntax error{}, the first on line {}",
        if errors == 1 { "" } else { "s" },
        line.unwrap_or(1)
    ))
}

/// Parses the `ranges` of `text` (all of it when empty) with the grammar `lang` (never `Vue`: see [`resolve`]).
fn parse_in(lang: SourceLang, text: &str, ranges: &[tree_sitter::Range]) -> Result<Tree, SourceError> {
    if text.len() > MAX_SOURCE_BYTES {
        return Err(SourceError::TooLarge { bytes: text.len(), limit: MAX_SOURCE_BYTES });
    }
    let run = |parser: &mut Parser| {
        // Set on every call: the parsers are shared by the thread's files, and an empty list means the whole text.
        parser
            .set_included_ranges(ranges)
            .map_err(|e| SourceError::Parser(format!("{lang:?}: included ranges: {e:?}")))?;
        parser.parse(text, None).ok_or_else(|| SourceError::Parser(format!("{lang:?}: parse returned no tree")))
    };
    // The thread-local may be unavailable (thread teardown) or, in theory, already borrowed; fall back
    // to a fresh parser rather than panic.
    let cached = PARSERS.try_with(|cell| {
        let Ok(mut parsers) = cell.try_borrow_mut() else {
            return None;
        };
        let slot = &mut parsers[lang.index()];
        if slot.is_none() {
            match new_parser(lang) {
                Ok(p) => *slot = Some(p),
                Err(e) => return Some(Err(e)),
            }
        }
        slot.as_mut().map(run)
    });
    match cached {
        Ok(Some(result)) => result,
        _ => run(&mut new_parser(lang)?),
    }
}

/// Counts `ERROR` and `MISSING` nodes, descending only into subtrees that contain an error.
fn count_errors(root: Node) -> (usize, Option<u32>) {
    if !root.has_error() {
        return (0, None);
    }
    let mut count = 0usize;
    let mut first: Option<(usize, u32)> = None;
    let mut stack = vec![root];
    let mut cursor = root.walk();
    while let Some(node) = stack.pop() {
        if node.is_error() || node.is_missing() {
            count += 1;
            let at = (node.start_byte(), line_of(node.start_position().row));
            if first.is_none_or(|f| at.0 < f.0) {
                first = Some(at);
            }
        }
        for child in node.children(&mut cursor) {
            if child.has_error() || child.is_missing() {
                stack.push(child);
            }
        }
    }
    (count, first.map(|f| f.1))
}

fn line_of(row: usize) -> u32 {
    u32::try_from(row).unwrap_or(u32::MAX).saturating_add(1)
}

fn node_text<'a>(text: &'a str, node: Node) -> &'a str {
    text.get(node.byte_range()).unwrap_or("")
}

/// Builds the skeleton from the original text and the (outermost, non-overlapping) body ranges.
fn splice_skeleton(text: &str, bodies: &[(usize, usize)]) -> (String, usize) {
    let mut sorted: Vec<(usize, usize)> = bodies.to_vec();
    sorted.sort_unstable();
    let mut out = String::with_capacity(text.len());
    let mut at = 0usize;
    let mut replaced = 0usize;
    for &(start, end) in &sorted {
        // Outermost bodies never overlap; skip defensively rather than corrupt the output.
        if start < at || end < start {
            continue;
        }
        let (Some(before), Some(_)) = (text.get(at..start), text.get(start..end)) else {
            continue;
        };
        out.push_str(before);
        out.push_str(BODY_PLACEHOLDER);
        at = end;
        replaced += 1;
    }
    out.push_str(text.get(at..).unwrap_or(""));
    (out, replaced)
}

#[cfg(test)]
mod tests;
