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

use tree_sitter::{Language, Node, Parser, Tree, TreeCursor};

/// Files larger than this many bytes (4 MiB) are not parsed: [`analyze`] returns
/// [`SourceError::TooLarge`] and the caller skips the file with that stated reason.
pub const MAX_SOURCE_BYTES: usize = crate::model::MAX_ANALYZED_SOURCE_BYTES as usize;

/// What a replaced function body becomes in the skeleton. DESIGN §3 writes it `{ ... }`, but `...` is
/// not a statement: the skeleton would not re-parse, and tree-sitter's error recovery on
/// `handle = () => { ... }` class fields swallows the whole class into one `ERROR` node. An empty block
/// holding a comment is valid in every body position (function, method, arrow), so the skeleton
/// re-parses with zero errors.
pub const BODY_PLACEHOLDER: &str = "{ /* ... */ }";

/// Call wrappers whose result is *not* the wrapped function, so `const x = useMemo(() => …)` is a value,
/// not a function (see [`classify_value`]).
const NON_FUNCTION_WRAPPERS: &[&str] =
    &["useMemo", "useState", "useReducer", "useRef", "setTimeout", "setInterval", "requestAnimationFrame"];

/// How deep `memo(forwardRef(...))`-style wrapper calls are followed.
const MAX_WRAPPER_DEPTH: usize = 4;

/// How many enclosing scopes (functions, classes, objects, namespaces) a function may have and still be indexed.
/// Each entry's qualified name repeats every enclosing name, so without a cap 1 MB of `function f0() { function
/// f1() { … } }` (33,000 levels) made names totalling gigabytes (issue 26). Real code stays far below: the deepest
/// qualified name in the six real inputs has 7 parts.
pub const MAX_SCOPE_DEPTH: usize = 64;

/// Which grammar to use, from the file extension: `ts` → TypeScript, `tsx` → TSX,
/// `js`/`jsx`/`mjs`/`cjs` → JavaScript (the JavaScript grammar handles JSX), `vue` → the grammar of the file's
/// `<script>` blocks, parsed in place (`compile::vue`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SourceLang {
    /// `.ts` files: tree-sitter-typescript's TypeScript grammar (no JSX; `<T>x` is a type assertion).
    TypeScript,
    /// `.tsx` files: tree-sitter-typescript's TSX grammar.
    Tsx,
    /// `.js`, `.jsx`, `.mjs`, `.cjs` files: tree-sitter-javascript, which also parses JSX.
    JavaScript,
    /// `.vue` single-file components: their top-level `<script>` blocks, with the grammar their `lang` names
    /// ([`super::vue::scripts`]), at the `.vue` file's own offsets.
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
use crate::model::{FunctionKinds, FunctionMeta};

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
    walk.file_component = (!path.is_empty()).then(|| super::vue_props::name_from_path(path));
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
/// `.vue` file its scripts' ([`super::vue::scripts`]; one empty range when it has none, so nothing is parsed),
/// for the others `lang` itself over the whole text.
fn resolve(lang: SourceLang, text: &str) -> Result<(SourceLang, Vec<tree_sitter::Range>, Vec<String>), SourceError> {
    if text.len() > MAX_SOURCE_BYTES {
        return Err(SourceError::TooLarge { bytes: text.len(), limit: MAX_SOURCE_BYTES });
    }
    if lang != SourceLang::Vue {
        return Ok((lang, Vec::new(), Vec::new()));
    }
    let scripts = super::vue::scripts(text)?;
    let ranges = if scripts.ranges.is_empty() { vec![super::vue::empty_range()] } else { scripts.ranges };
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

/// Context handed from a node to one of its children during the walk.
#[derive(Clone, Copy, Default)]
struct Ctx<'t> {
    /// When set, the span of a function defined by this child runs from `.0`'s start to `.1`'s end
    /// (an `export` wrapper, a single-declarator `const`, an expression statement, decorators).
    outer: Option<(Node<'t>, Node<'t>)>,
    /// The child is a member of a class body (decides `Constructor` and fields).
    in_class: bool,
    /// The child is the block body of a function-like node (a skeleton candidate).
    is_body: bool,
}

enum Step<'t> {
    Enter(Node<'t>, Ctx<'t>),
    PopScope,
    LeaveBody,
}

/// What a value expression (after unwrapping parentheses and type assertions) is.
enum Value<'t> {
    /// A function or arrow (possibly inside a wrapper call such as `forwardRef(...)`).
    Func(Node<'t>),
    /// A class expression.
    Class(Node<'t>),
    /// An object literal.
    Object,
    Other,
}

struct Walk<'a, 't> {
    text: &'a str,
    functions: Vec<Function>,
    /// Byte ranges of the outermost function bodies, in walk order.
    bodies: Vec<(usize, usize)>,
    /// Enclosing scope names.
    scope: Vec<String>,
    /// Function and class nodes already named by their holder (variable, field, property, export).
    claimed: HashSet<usize>,
    /// How many replaced bodies enclose the current node.
    in_body: usize,
    stack: Vec<Step<'t>>,
    children: Vec<(Node<'t>, Ctx<'t>)>,
    /// A `.vue` file's scripts: a default-exported options object names its scope by its `name` (see
    /// [`component_name`]).
    vue: bool,
    /// Functions not indexed because [`MAX_SCOPE_DEPTH`] scopes enclose them.
    too_deep: usize,
    /// The component the file's name names (see [`analyze_file`]).
    file_component: Option<String>,
}

impl<'a, 't> Walk<'a, 't> {
    fn new(text: &'a str, vue: bool) -> Self {
        Walk {
            text,
            functions: Vec::new(),
            bodies: Vec::new(),
            scope: Vec::new(),
            claimed: HashSet::new(),
            in_body: 0,
            stack: Vec::new(),
            children: Vec::new(),
            vue,
            too_deep: 0,
            file_component: None,
        }
    }

    fn text(&self, node: Node) -> &'a str {
        node_text(self.text, node)
    }

    fn run(&mut self, root: Node<'t>) {
        let mut cursor = root.walk();
        self.stack.push(Step::Enter(root, Ctx::default()));
        while let Some(step) = self.stack.pop() {
            match step {
                Step::PopScope => {
                    self.scope.pop();
                }
                Step::LeaveBody => self.in_body = self.in_body.saturating_sub(1),
                Step::Enter(node, ctx) => self.enter(node, ctx, &mut cursor),
            }
        }
    }

    fn enter(&mut self, node: Node<'t>, ctx: Ctx<'t>, cursor: &mut TreeCursor<'t>) {
        if !node.is_named() {
            return;
        }
        if ctx.is_body {
            if self.in_body == 0 {
                self.bodies.push((node.start_byte(), node.end_byte()));
            }
            self.in_body += 1;
            self.stack.push(Step::LeaveBody);
        }
        if let Some(name) = self.visit(node, ctx)
            && self.scope.len() < MAX_SCOPE_DEPTH
        {
            self.scope.push(name);
            self.stack.push(Step::PopScope);
        }
        self.push_children(node, ctx, cursor);
    }

    /// Indexes `node` if it names a function; returns the scope name it opens for its subtree.
    fn visit(&mut self, node: Node<'t>, ctx: Ctx<'t>) -> Option<String> {
        let claimed = self.claimed.contains(&node.id());
        match node.kind() {
            "function_declaration" | "generator_function_declaration" => {
                let name = match node.child_by_field_name("name") {
                    Some(n) => self.text(n).to_string(),
                    None => "default".to_string(),
                };
                let kind = if node.kind() == "function_declaration" {
                    FunctionKind::Function
                } else {
                    FunctionKind::Generator
                };
                self.index(&name, kind, node, ctx);
                Some(name)
            }
            "function_expression" | "generator_function" if !claimed => {
                // A named function expression held by nothing, e.g. a named callback.
                let name = self.text(node.child_by_field_name("name")?).to_string();
                let kind = function_kind(node);
                self.index(&name, kind, node, ctx);
                Some(name)
            }
            "class_declaration" | "abstract_class_declaration" | "class" if !claimed => {
                node.child_by_field_name("name").map(|n| self.text(n).to_string())
            }
            "function_signature" => {
                // An overload head or `declare function f(): T;`.
                let name = self.text(node.child_by_field_name("name")?).to_string();
                self.index(&name, FunctionKind::Signature, node, ctx);
                None
            }
            "method_signature" | "abstract_method_signature" => {
                let name = property_name(self.text, node.child_by_field_name("name")?);
                self.index(&name, FunctionKind::Signature, node, ctx);
                None
            }
            "interface_declaration" => node.child_by_field_name("name").map(|n| self.text(n).to_string()),
            "internal_module" | "module" => {
                let name = property_name(self.text, node.child_by_field_name("name")?);
                Some(name)
            }
            "method_definition" => {
                let name_node = node.child_by_field_name("name")?;
                let name = property_name(self.text, name_node);
                let kind = match accessor(node, name_node) {
                    Some("get") => FunctionKind::Getter,
                    Some("set") => FunctionKind::Setter,
                    _ if ctx.in_class && name == "constructor" => FunctionKind::Constructor,
                    _ => FunctionKind::Method,
                };
                self.index(&name, kind, node, ctx);
                Some(name)
            }
            "public_field_definition" | "field_definition" => {
                let name_node = node.child_by_field_name("name").or_else(|| node.child_by_field_name("property"))?;
                let name = property_name(self.text, name_node);
                let value = node.child_by_field_name("value")?;
                self.holder(name, FunctionKind::ClassProperty, value, node, ctx)
            }
            "pair" => {
                let name = property_name(self.text, node.child_by_field_name("key")?);
                let value = node.child_by_field_name("value")?;
                self.holder(name, FunctionKind::ObjectProperty, value, node, ctx)
            }
            "variable_declarator" => {
                let name_node = node.child_by_field_name("name")?;
                if name_node.kind() != "identifier" {
                    return None;
                }
                let name = self.text(name_node).to_string();
                let value = node.child_by_field_name("value")?;
                self.holder(name, FunctionKind::Arrow, value, node, ctx)
            }
            "assignment_expression" => {
                let chain = assignment_target(self.text, node.child_by_field_name("left")?)?;
                let value = node.child_by_field_name("right")?;
                let Value::Func(func) = classify_value(self.text, value) else {
                    return None;
                };
                self.claimed.insert(func.id());
                let name = chain.rsplit('.').next().unwrap_or(&chain).to_string();
                let qualified = self.qualify(&chain);
                self.push_function(name, qualified, function_kind(func), node, ctx);
                Some(chain)
            }
            "export_statement" => {
                // `export default <expression>`: the function or class is named "default";
                // `export default function () {}` is a declaration by the language, so kind Function.
                let value = node.child_by_field_name("value")?;
                let kind = match value.kind() {
                    "function_expression" => FunctionKind::Function,
                    _ => FunctionKind::Arrow,
                };
                let name = match component_name(self.text, value, self.vue) {
                    Some(ComponentName::Literal(name)) => name,
                    Some(ComponentName::Unknown) => self.file_component.clone().unwrap_or_else(|| "default".into()),
                    None => "default".to_string(),
                };
                self.holder(name, kind, value, node, Ctx { outer: Some((node, node)), ..ctx })
            }
            _ => None,
        }
    }

    /// A named holder (variable, class field, object property, default export) of `value`: indexes a
    /// function value (claiming the function node), and opens a scope for a function, class or object.
    /// `kind` is the kind for a function value, except that variables and default exports
    /// (`FunctionKind::Arrow` passed) take the function's own kind.
    fn holder(
        &mut self,
        name: String,
        kind: FunctionKind,
        value: Node<'t>,
        node: Node<'t>,
        ctx: Ctx<'t>,
    ) -> Option<String> {
        match classify_value(self.text, value) {
            Value::Func(func) => {
                self.claimed.insert(func.id());
                let kind = if kind == FunctionKind::Arrow { function_kind(func) } else { kind };
                self.index(&name, kind, node, ctx);
                Some(name)
            }
            Value::Class(class) => {
                self.claimed.insert(class.id());
                Some(name)
            }
            Value::Object => Some(name),
            Value::Other => None,
        }
    }

    fn qualify(&self, name: &str) -> String {
        let mut q = String::new();
        for s in &self.scope {
            q.push_str(s);
            q.push('.');
        }
        q.push_str(name);
        q
    }

    fn index(&mut self, name: &str, kind: FunctionKind, node: Node<'t>, ctx: Ctx<'t>) {
        let qualified = self.qualify(name);
        self.push_function(name.to_string(), qualified, kind, node, ctx);
    }

    fn push_function(&mut self, name: String, qualified: String, kind: FunctionKind, node: Node<'t>, ctx: Ctx<'t>) {
        if self.scope.len() >= MAX_SCOPE_DEPTH {
            self.too_deep += 1;
            return;
        }
        let (first, last) = ctx.outer.unwrap_or((node, node));
        let start = first.start_byte().min(node.start_byte());
        let end = last.end_byte().max(node.end_byte());
        let start_line = line_of(first.start_position().row.min(node.start_position().row));
        let end_pos = last.end_position().max(node.end_position());
        // A span ending just after a newline ends on the previous line.
        let end_row = if end_pos.column == 0 && end > start { end_pos.row.saturating_sub(1) } else { end_pos.row };
        let mut cursor = node.walk();
        let is_static = ctx.in_class && node.children(&mut cursor).any(|c| c.kind() == "static" && !c.is_named());
        let meta = FunctionMeta {
            name,
            qualified,
            kind: FunctionKinds::one(kind),
            start_line,
            end_line: line_of(end_row).max(start_line),
            start_byte: u32::try_from(start).unwrap_or(u32::MAX),
            end_byte: u32::try_from(end).unwrap_or(u32::MAX),
            tokens: 0,
        };
        self.functions.push(Function { meta, is_static });
    }

    /// Pushes the named children of `node` (in reverse, so they pop in source order) with their context.
    fn push_children(&mut self, node: Node<'t>, ctx: Ctx<'t>, cursor: &mut TreeCursor<'t>) {
        if node.child_count() == 0 {
            return;
        }
        let kind = node.kind();
        let is_function = matches!(
            kind,
            "function_declaration"
                | "generator_function_declaration"
                | "function_expression"
                | "generator_function"
                | "arrow_function"
                | "method_definition"
        );
        let single_declarator = matches!(kind, "lexical_declaration" | "variable_declaration")
            && node.named_children(cursor).filter(|c| c.kind() == "variable_declarator").count() == 1;
        let in_class = kind == "class_body";
        let outer_here = Some(ctx.outer.unwrap_or((node, node)));

        let mut children = std::mem::take(&mut self.children);
        children.clear();
        cursor.reset(node);
        let mut decorator: Option<Node<'t>> = None;
        if cursor.goto_first_child() {
            loop {
                let child = cursor.node();
                let field = cursor.field_name();
                if child.is_named() {
                    let mut c = Ctx::default();
                    if is_function && field == Some("body") && child.kind() == "statement_block" {
                        c.is_body = true;
                    }
                    match kind {
                        "export_statement" if field == Some("declaration") => c.outer = outer_here,
                        "ambient_declaration" if child.kind() == "function_signature" => c.outer = outer_here,
                        "lexical_declaration" | "variable_declaration"
                            if single_declarator && child.kind() == "variable_declarator" =>
                        {
                            c.outer = outer_here;
                        }
                        "expression_statement" if child.kind() == "assignment_expression" => {
                            c.outer = outer_here;
                        }
                        "class_body" => {
                            c.in_class = in_class;
                            // TypeScript puts method decorators before the member, as siblings.
                            match child.kind() {
                                "decorator" => {
                                    decorator.get_or_insert(child);
                                }
                                "comment" => {}
                                _ => c.outer = decorator.take().map(|d| (d, child)),
                            }
                        }
                        _ => {}
                    }
                    children.push((child, c));
                }
                if !cursor.goto_next_sibling() {
                    break;
                }
            }
        }
        for &(child, c) in children.iter().rev() {
            self.stack.push(Step::Enter(child, c));
        }
        self.children = children;
    }
}

/// The name a default-exported Vue component gives itself: the string `name` of `defineComponent({ name: 'Table',
/// … })` (in any script), or of a plain options object `{ name: 'Table', … }` in a `.vue` file (`vue`), so its
/// functions are `Table.setup`, `Table.setup.onTbodyScroll` rather than `default.setup`;
/// [`ComponentName::Unknown`] for a component whose name is not a string literal (`name,` from a variable: not
/// known without running the code) or that has none; `None` when `value` is no component.
fn component_name(text: &str, value: Node, vue: bool) -> Option<ComponentName> {
    let value = unwrap_expression(value);
    let object = match value.kind() {
        "object" if vue => value,
        "call_expression" => {
            let callee = value.child_by_field_name("function")?;
            let callee = match callee.kind() {
                "member_expression" => callee.child_by_field_name("property")?,
                _ => callee,
            };
            if node_text(text, callee) != "defineComponent" {
                return None;
            }
            let args = value.child_by_field_name("arguments")?;
            let mut cursor = args.walk();
            let first = args.named_children(&mut cursor).find(|c| c.kind() != "comment")?;
            let first = unwrap_expression(first);
            (first.kind() == "object").then_some(first)?
        }
        _ => return None,
    };
    let mut cursor = object.walk();
    let literal = object
        .named_children(&mut cursor)
        .find(|p| p.kind() == "pair" && p.child_by_field_name("key").is_some_and(|k| property_name(text, k) == "name"))
        .and_then(|pair| pair.child_by_field_name("value"))
        .filter(|v| v.kind() == "string")
        .map(|v| property_name(text, v))
        .filter(|name| !name.is_empty() && !name.contains(['.', '\n']));
    Some(literal.map_or(ComponentName::Unknown, ComponentName::Literal))
}

/// What [`component_name`] found.
enum ComponentName {
    /// `name: 'Table'`.
    Literal(String),
    /// A component with no string `name`.
    Unknown,
}

/// The kind of a function node when it is named by a variable, assignment or default export.
fn function_kind(func: Node) -> FunctionKind {
    match func.kind() {
        "arrow_function" => FunctionKind::Arrow,
        "generator_function" => FunctionKind::Generator,
        _ => FunctionKind::FunctionExpression,
    }
}

/// `get` / `set` if the method is an accessor (the keyword comes before the name).
fn accessor(method: Node, name: Node) -> Option<&'static str> {
    let mut cursor = method.walk();
    for child in method.children(&mut cursor) {
        if child.id() == name.id() {
            break;
        }
        match child.kind() {
            "get" if !child.is_named() => return Some("get"),
            "set" if !child.is_named() => return Some("set"),
            _ => {}
        }
    }
    None
}

/// A property, method or module name: identifiers as written, strings without their quotes, computed
/// names (`[Symbol.iterator]`) and numbers as their source text.
fn property_name(text: &str, node: Node) -> String {
    let raw = node_text(text, node);
    if node.kind() == "string"
        && let Some(inner) = raw.get(1..raw.len().saturating_sub(1))
    {
        return inner.to_string();
    }
    raw.to_string()
}

/// The dotted name of an assignment target made of identifiers and property accesses (`a.b.c`), with
/// a leading `this.` dropped; `None` for anything else (`a[i]`, destructuring).
fn assignment_target(text: &str, left: Node) -> Option<String> {
    let mut parts: Vec<&str> = Vec::new();
    let mut node = left;
    for _ in 0..64 {
        match node.kind() {
            "identifier" => {
                parts.push(node_text(text, node));
                break;
            }
            "this" => break,
            "member_expression" => {
                let prop = node.child_by_field_name("property")?;
                if !matches!(prop.kind(), "property_identifier" | "private_property_identifier") {
                    return None;
                }
                parts.push(node_text(text, prop));
                node = node.child_by_field_name("object")?;
            }
            _ => return None,
        }
    }
    if parts.is_empty() {
        return None;
    }
    parts.reverse();
    Some(parts.join("."))
}

/// Strips parentheses, `as`/`satisfies` assertions and `!`.
fn unwrap_expression(mut node: Node) -> Node {
    for _ in 0..16 {
        match node.kind() {
            "parenthesized_expression" | "as_expression" | "satisfies_expression" | "non_null_expression" => {
                let mut cursor = node.walk();
                let inner = node.named_children(&mut cursor).find(|c| c.kind() != "comment");
                match inner {
                    Some(inner) => node = inner,
                    None => return node,
                }
            }
            _ => return node,
        }
    }
    node
}

/// What a held value is. A call `wrapper(fn, ...)` whose first argument is a function counts as that
/// function when the callee is a plain identifier or `React.x` and not in [`NON_FUNCTION_WRAPPERS`]:
/// this indexes `const Button = forwardRef((props, ref) => ...)`, `memo(...)`, `useCallback(...)`,
/// `debounce(...)` under the variable's name.
fn classify_value<'t>(text: &str, value: Node<'t>) -> Value<'t> {
    let mut node = unwrap_expression(value);
    for _ in 0..=MAX_WRAPPER_DEPTH {
        match node.kind() {
            "function_expression" | "generator_function" | "arrow_function" => {
                return Value::Func(node);
            }
            "class" => return Value::Class(node),
            "object" => return Value::Object,
            "call_expression" => match wrapped_argument(text, node) {
                Some(arg) => node = unwrap_expression(arg),
                None => return Value::Other,
            },
            _ => return Value::Other,
        }
    }
    Value::Other
}

fn wrapped_argument<'t>(text: &str, call: Node<'t>) -> Option<Node<'t>> {
    let callee = call.child_by_field_name("function")?;
    let callee_name = match callee.kind() {
        "identifier" => node_text(text, callee),
        "member_expression" => {
            let object = callee.child_by_field_name("object")?;
            if node_text(text, object) != "React" {
                return None;
            }
            node_text(text, callee.child_by_field_name("property")?)
        }
        _ => return None,
    };
    if NON_FUNCTION_WRAPPERS.contains(&callee_name) {
        return None;
    }
    let args = call.child_by_field_name("arguments")?;
    if args.kind() != "arguments" {
        return None;
    }
    let mut cursor = args.walk();
    args.named_children(&mut cursor).find(|c| c.kind() != "comment")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn funcs(lang: SourceLang, text: &str) -> Vec<(String, String, FunctionKind, u32, u32)> {
        let a = analyze(lang, text, usize::MAX).expect("analyze");
        assert_eq!(a.parse_errors, 0, "fixture should parse cleanly");
        a.functions
            .into_iter()
            .map(|f| (f.name.clone(), f.qualified.clone(), f.kind().clone(), f.start_line, f.end_line))
            .collect()
    }

    fn f(
        name: &str,
        qualified: &str,
        kind: FunctionKind,
        start: u32,
        end: u32,
    ) -> (String, String, FunctionKind, u32, u32) {
        (name.into(), qualified.into(), kind, start, end)
    }

    fn span<'a>(text: &'a str, func: &Function) -> &'a str {
        &text[func.start_byte as usize..func.end_byte as usize]
    }

    /// How many `ERROR`/`MISSING` nodes a re-parse of `text` has.
    fn reparse_errors(lang: SourceLang, text: &str) -> usize {
        let tree = parse(lang, text).expect("parse");
        count_errors(tree.root_node()).0
    }

    /// Kind and name of every named child of the root (`export` unwrapped, declarators listed).
    fn top_level(lang: SourceLang, text: &str) -> Vec<String> {
        let tree = parse(lang, text).expect("parse");
        let root = tree.root_node();
        let mut cursor = root.walk();
        root.named_children(&mut cursor)
            .map(|child| {
                let mut node = child;
                let mut sig = child.kind().to_string();
                if child.kind() == "export_statement"
                    && let Some(d) =
                        child.child_by_field_name("declaration").or_else(|| child.child_by_field_name("value"))
                {
                    sig.push_str(&format!(" {}", d.kind()));
                    node = d;
                }
                if let Some(name) = node.child_by_field_name("name") {
                    sig.push_str(&format!(" {}", node_text(text, name)));
                }
                let mut c2 = node.walk();
                for d in node.named_children(&mut c2) {
                    if d.kind() == "variable_declarator"
                        && let Some(name) = d.child_by_field_name("name")
                    {
                        sig.push_str(&format!(" {}", node_text(text, name)));
                    }
                }
                sig
            })
            .collect()
    }

    #[test]
    fn from_path_picks_grammar() {
        let l = |p: &str| SourceLang::from_path(Path::new(p));
        assert_eq!(l("a/b.ts"), Some(SourceLang::TypeScript));
        assert_eq!(l("a/b.d.ts"), Some(SourceLang::TypeScript));
        assert_eq!(l("b.tsx"), Some(SourceLang::Tsx));
        for js in ["b.js", "b.jsx", "b.mjs", "b.cjs"] {
            assert_eq!(l(js), Some(SourceLang::JavaScript), "{js}");
        }
        assert_eq!(l("b.md"), None);
        assert_eq!(l("Makefile"), None);
    }

    const KINDS: &str = r#"import React from "react";

export function render(a: number): string {
    function helper() {
        return 1;
    }
    return String(a + helper());
}
export default function () {}
function* gen() {}
const fe = function named() {};
export const arrow = (x: number) => x * 2;
const block = async () => {
    const inner = () => 1;
};
class Table<T> extends React.Component<T> {
    static defaults = { size: 1 };
    private count = 0;
    handleClick = () => {
        this.count++;
    };
    #secret = function () {};
    constructor(props: T) {
        super(props);
    }
    static async load() {}
    *items() {}
    #hidden() {}
    [Symbol.iterator]() {}
    get value(): number {
        return this.count;
    }
    set value(v: number) {
        this.count = v;
    }
    render() {
        const row = () => <tr />;
        return <div onClick={() => { row(); }} />;
    }
}
const utils = {
    formatDate(d: Date) { return d.toString(); },
    parse: function (s: string) { return s; },
    "trim-all": (s: string) => s.trim(),
    nested: { deep() {} },
    size: 3,
};
"#;

    #[test]
    fn indexes_every_kind() {
        use FunctionKind::*;
        let got = funcs(SourceLang::Tsx, KINDS);
        let want = vec![
            f("render", "render", Function, 3, 8),
            f("helper", "render.helper", Function, 4, 6),
            f("default", "default", Function, 9, 9),
            f("gen", "gen", Generator, 10, 10),
            f("fe", "fe", FunctionExpression, 11, 11),
            f("arrow", "arrow", Arrow, 12, 12),
            f("block", "block", Arrow, 13, 15),
            f("inner", "block.inner", Arrow, 14, 14),
            f("handleClick", "Table.handleClick", ClassProperty, 19, 21),
            f("#secret", "Table.#secret", ClassProperty, 22, 22),
            f("constructor", "Table.constructor", Constructor, 23, 25),
            f("load", "Table.load", Method, 26, 26),
            f("items", "Table.items", Method, 27, 27),
            f("#hidden", "Table.#hidden", Method, 28, 28),
            f("[Symbol.iterator]", "Table.[Symbol.iterator]", Method, 29, 29),
            f("value", "Table.value", Getter, 30, 32),
            f("value", "Table.value", Setter, 33, 35),
            f("render", "Table.render", Method, 36, 39),
            f("row", "Table.render.row", Arrow, 37, 37),
            f("formatDate", "utils.formatDate", Method, 42, 42),
            f("parse", "utils.parse", ObjectProperty, 43, 43),
            f("trim-all", "utils.trim-all", ObjectProperty, 44, 44),
            f("deep", "utils.nested.deep", Method, 45, 45),
        ];
        assert_eq!(got, want);
    }

    #[test]
    fn spans_are_whole_declarations() {
        let a = analyze(SourceLang::Tsx, KINDS, usize::MAX).unwrap();
        let by = |q: &str, k: FunctionKind| {
            a.functions.iter().find(|f| f.qualified == q && *f.kind() == k).unwrap_or_else(|| panic!("{q}"))
        };
        assert_eq!(span(KINDS, by("arrow", FunctionKind::Arrow)), "export const arrow = (x: number) => x * 2;");
        assert_eq!(span(KINDS, by("default", FunctionKind::Function)), "export default function () {}");
        assert_eq!(span(KINDS, by("fe", FunctionKind::FunctionExpression)), "const fe = function named() {};");
        assert_eq!(span(KINDS, by("Table.#secret", FunctionKind::ClassProperty)), "#secret = function () {}");
        assert_eq!(
            span(KINDS, by("Table.value", FunctionKind::Setter)),
            "set value(v: number) {\n        this.count = v;\n    }"
        );
        assert_eq!(
            span(KINDS, by("utils.parse", FunctionKind::ObjectProperty)),
            "parse: function (s: string) { return s; }"
        );
        assert!(span(KINDS, by("render", FunctionKind::Function)).starts_with("export function render("));
        // Sorted by start byte.
        assert!(a.functions.windows(2).all(|w| w[0].start_byte <= w[1].start_byte));
    }

    #[test]
    fn bodiless_declarations_are_indexed_and_overloads_are_one_entry() {
        let src = "export function format(v: number): string;
export function format(v: Date): string;
export function format(v: unknown): string {
  return String(v);
}
interface I { m(): void; p: () => void }
abstract class A {
    abstract run(): void;
    go(a: string): void;
    go(a: any) {}
}
declare function d(): void;
type T = () => void;
";
        use FunctionKind::*;
        assert_eq!(
            funcs(SourceLang::TypeScript, src),
            vec![
                f("format", "format", Function, 1, 5),
                f("m", "I.m", Signature, 6, 6),
                f("run", "A.run", Signature, 8, 8),
                f("go", "A.go", Method, 9, 10),
                f("d", "d", Signature, 12, 12),
            ]
        );
        let a = analyze(SourceLang::TypeScript, src, 1).unwrap();
        assert!(span(src, &a.functions[0]).starts_with("export function format(v: number): string;\n"));
        assert_eq!(span(src, &a.functions[4]), "declare function d(): void;");
        // Bodiless declarations stay whole in the skeleton.
        let sk = a.skeleton.unwrap();
        assert!(sk.contains("export function format(v: Date): string;\n"));
        assert!(sk.contains("abstract run(): void;") && sk.contains("declare function d(): void;"));
    }

    #[test]
    fn repeated_names_get_distinct_entries_each_with_its_own_lines() {
        let src = "class Toast {
  static destroyAll() {
    a();
  }
  destroyAll() {
    b();
  }
  get size() { return 1; }
  set size(v) {}
}
class Tabs {
  static defaultProps = {
    onTabClick: () => undefined,
  };
  other() {}
  onTabClick = (key, e) => {
    go(key, e);
  };
}
const x = { f() {} };
const y = { f() {} };
function x() {}
";
        use FunctionKind::*;
        let got = funcs(SourceLang::TypeScript, src);
        assert_eq!(
            got,
            vec![
                f("destroyAll", "Toast.destroyAll (static)", Method, 2, 4),
                f("destroyAll", "Toast.destroyAll", Method, 5, 7),
                f("size", "Toast.size", Getter, 8, 8),
                f("size", "Toast.size", Setter, 9, 9),
                f("onTabClick", "Tabs.defaultProps.onTabClick", ObjectProperty, 13, 13),
                f("other", "Tabs.other", Method, 15, 15),
                f("onTabClick", "Tabs.onTabClick", ClassProperty, 16, 18),
                f("f", "x.f", Method, 20, 20),
                f("f", "y.f", Method, 21, 21),
                f("x", "x", Function, 22, 22),
            ]
        );
        // Two declarations of one qualified name: numbered in source order.
        let got: Vec<String> =
            analyze(SourceLang::JavaScript, "function g() {}\nif (a) { function g() { return 2; } }\n", 1)
                .unwrap()
                .functions
                .into_iter()
                .map(|f| format!("{} {}-{}", f.qualified, f.start_line, f.end_line))
                .collect();
        assert_eq!(got, ["g 1-1", "g#2 2-2"]);
    }

    #[test]
    fn wrappers_assignments_namespaces_and_decorators() {
        let src = r#"export const Button = React.forwardRef<HTMLElement, P>((props, ref) => {
    const onClick = useCallback(() => {}, []);
    const total = useMemo(() => 1, []);
    const found = items.find(x => x.ok);
    return <b ref={ref} />;
});
export const Card = memo(function Card(props: P) { return null; });
Foo.prototype.bar = function () {};
namespace NS {
    export function g() {}
}
class S {
    @action.bound
    @log
    save() {}
    @observable handler = () => {};
}
export default () => {};
const K = class Inner { run() {} };
"#;
        use FunctionKind::*;
        assert_eq!(
            funcs(SourceLang::Tsx, src),
            vec![
                f("Button", "Button", Arrow, 1, 6),
                f("onClick", "Button.onClick", Arrow, 2, 2),
                f("Card", "Card", FunctionExpression, 7, 7),
                f("bar", "Foo.prototype.bar", FunctionExpression, 8, 8),
                f("g", "NS.g", Function, 10, 10),
                f("save", "S.save", Method, 13, 15),
                f("handler", "S.handler", ClassProperty, 16, 16),
                f("default", "default", Arrow, 18, 18),
                f("run", "K.run", Method, 19, 19),
            ]
        );
        let a = analyze(SourceLang::Tsx, src, usize::MAX).unwrap();
        let save = a.functions.iter().find(|f| f.name == "save").unwrap();
        assert_eq!(span(src, save), "@action.bound\n    @log\n    save() {}");
    }

    #[test]
    fn javascript_with_jsx() {
        let src = "export default function App() {
  const onClick = () => { go(); };
  return <div onClick={onClick}>{items.map(i => <i>{i}</i>)}</div>;
}
class A { @dec handle = () => {}; static x = function* () {}; #q() {} }
exports.run = async function () {};
";
        use FunctionKind::*;
        assert_eq!(
            funcs(SourceLang::JavaScript, src),
            vec![
                f("App", "App", Function, 1, 4),
                f("onClick", "App.onClick", Arrow, 2, 2),
                f("handle", "A.handle", ClassProperty, 5, 5),
                f("x", "A.x", ClassProperty, 5, 5),
                f("#q", "A.#q", Method, 5, 5),
                f("run", "exports.run", FunctionExpression, 6, 6),
            ]
        );
    }

    #[test]
    fn skeleton_replaces_outermost_bodies_only() {
        let src = r#"import { x } from "./x";
// keep me
export interface Props { a: number }
export function outer(a: number) {
    function inner() { return 1; }
    return inner() + a;
}
const arrow = (b: number) => b + 1;
const mapper = (xs: number[]) => xs.map((x) => {
    return x * 2;
});
class C {
    field = 1;
    handle = () => {
        this.field++;
    };
    get v() { return this.field; }
    method(cb = () => { return 1; }) {
        return [1].map(function (y) { return y; });
    }
}
const o = { m() { return 1; }, p: function () {}, q: 1 };
setup(() => {
    register();
});
"#;
        let a = analyze(SourceLang::Tsx, src, 0).unwrap();
        let want = r#"import { x } from "./x";
// keep me
export interface Props { a: number }
export function outer(a: number) { /* ... */ }
const arrow = (b: number) => b + 1;
const mapper = (xs: number[]) => xs.map((x) => { /* ... */ });
class C {
    field = 1;
    handle = () => { /* ... */ };
    get v() { /* ... */ }
    method(cb = () => { /* ... */ }) { /* ... */ }
}
const o = { m() { /* ... */ }, p: function () { /* ... */ }, q: 1 };
setup(() => { /* ... */ });
"#;
        assert_eq!(a.skeleton.as_deref(), Some(want));
        assert_eq!(a.outer_bodies, 9);
        assert_eq!(reparse_errors(SourceLang::Tsx, want), 0);
        assert_eq!(top_level(SourceLang::Tsx, src), top_level(SourceLang::Tsx, want));
        // The index still holds the nested functions.
        assert!(a.functions.iter().any(|f| f.qualified == "outer.inner"));
    }

    #[test]
    fn skeleton_only_from_min_lines() {
        let src = "function a() {\n  return 1;\n}\n"; // 4 lines by split('\n')
        let a = analyze(SourceLang::TypeScript, src, 5).unwrap();
        assert_eq!((a.skeleton, a.outer_bodies), (None, 0));
        let a = analyze(SourceLang::TypeScript, src, 4).unwrap();
        assert_eq!(a.skeleton.as_deref(), Some("function a() { /* ... */ }\n"));
        assert_eq!(a.outer_bodies, 1);
    }

    #[test]
    fn a_bare_ampersand_in_jsx_is_no_syntax_error() {
        let src = "const a = <div>\n  Tom & Jerry\n</div>;\nconst b = <I src='x?a=1&b=2' />;\nfunction after() {\n  return a && b;\n}\n";
        let a = analyze(SourceLang::Tsx, src, 1).unwrap();
        assert_eq!((a.parse_errors, a.first_error_line), (0, None));
        assert_eq!(a.jsx_ampersand_lines, [2, 4]);
        let names: Vec<_> = a.functions.iter().map(|f| (f.qualified.as_str(), f.start_line, f.end_line)).collect();
        assert_eq!(names, [("after", 5, 7)]);
        // The skeleton is of the original text: the `&` are kept.
        let sk = a.skeleton.unwrap();
        assert!(sk.contains("Tom & Jerry") && sk.contains("a=1&b=2") && sk.contains("function after() { /* ... */ }"));
        // A real syntax error is still one (and nothing is masked).
        let broken = analyze(SourceLang::Tsx, "const a = <div>Tom & Jerry</div>;\nfunction f( {\n", 1).unwrap();
        assert!(broken.parse_errors > 0);
        assert!(broken.jsx_ampersand_lines.is_empty());
    }

    #[test]
    fn parse_errors_are_counted_not_fatal() {
        let src = "function ok() { return 1; }\n\nfunction broken( {\n  return 2;\n}\nclass K { m() {} }\n";
        let a = analyze(SourceLang::TypeScript, src, 0).unwrap();
        assert!(a.parse_errors > 0);
        assert_eq!(a.first_error_line, Some(3));
        assert!(a.functions.iter().any(|f| f.name == "ok"));
        assert!(a.skeleton.is_some());
        let clean = analyze(SourceLang::TypeScript, "const a = 1;\n", 0).unwrap();
        assert_eq!((clean.parse_errors, clean.first_error_line), (0, None));
    }

    #[test]
    fn too_large_is_an_error() {
        let big = " ".repeat(MAX_SOURCE_BYTES + 1);
        match analyze(SourceLang::TypeScript, &big, 500) {
            Err(SourceError::TooLarge { bytes, limit }) => {
                assert_eq!((bytes, limit), (MAX_SOURCE_BYTES + 1, MAX_SOURCE_BYTES));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn odd_inputs_do_not_panic() {
        let deep_arrows = "const f = ".to_string() + &"() => ".repeat(20_000) + "1;";
        let deep_parens = "(".repeat(50_000);
        let deep_blocks = "function a() {".repeat(5_000);
        let inputs = [
            "",
            "\n",
            "\u{feff}ü😀 function é() {}",
            "}}}{{{",
            "class { get }",
            "const = => ;",
            "export default",
            "a.b = function",
            "\0\0\0",
            deep_arrows.as_str(),
            deep_parens.as_str(),
            deep_blocks.as_str(),
        ];
        for lang in [SourceLang::TypeScript, SourceLang::Tsx, SourceLang::JavaScript] {
            for input in inputs {
                let a = analyze(lang, input, 0).unwrap();
                for func in &a.functions {
                    assert!(input.get(func.start_byte as usize..func.end_byte as usize).is_some());
                    assert!(func.start_line <= func.end_line);
                }
                assert!(dump_tree(lang, input).is_ok());
            }
        }
        let deep = analyze(SourceLang::TypeScript, &deep_arrows, 0).unwrap();
        assert_eq!(deep.functions.len(), 1);
        assert_eq!(deep.outer_bodies, 0);
    }

    #[test]
    fn kinds_deserialize_from_kebab_case() {
        use serde::Deserialize;
        use serde::de::value::{Error, StrDeserializer};
        let kind = |s: &str| FunctionKind::deserialize(StrDeserializer::<Error>::new(s)).ok();
        assert_eq!(kind("function-expression"), Some(FunctionKind::FunctionExpression));
        assert_eq!(kind("class-property"), Some(FunctionKind::ClassProperty));
        assert_eq!(kind("ClassProperty"), None);
    }

    #[test]
    fn dump_tree_shows_fields() {
        let d = dump_tree(SourceLang::TypeScript, "function f() {}").unwrap();
        assert!(d.contains("  name: identifier [9..10] \"f\""), "{d}");
    }

    // ---- Real inputs ------------------------------------------------------------------------

    /// Root of the assembled real corpus (DESIGN §5); the lead will point this at the test helper.
    fn real_corpus_root() -> Option<std::path::PathBuf> {
        crate::test_support::real_corpus()
    }

    fn collect_sources(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        let mut entries: Vec<_> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                collect_sources(&path, out);
            } else if matches!(path.extension().and_then(|e| e.to_str()), Some("ts" | "tsx")) {
                out.push(path);
            }
        }
    }

    fn real_files(root: &Path) -> (Vec<std::path::PathBuf>, Vec<std::path::PathBuf>) {
        let mut semi = Vec::new();
        collect_sources(&root.join("semi/packages/semi-foundation"), &mut semi);
        let mut blueprint = Vec::new();
        collect_sources(&root.join("blueprint/src"), &mut blueprint);
        (semi, blueprint)
    }

    #[test]
    fn real_corpus_invariants() {
        let Some(root) = real_corpus_root() else {
            return;
        };
        let (semi, blueprint) = real_files(&root);
        assert!(!semi.is_empty() && !blueprint.is_empty());
        let started = std::time::Instant::now();
        let mut functions = 0usize;
        let mut bodies = 0usize;
        let mut files = 0usize;
        for path in semi.iter().chain(&blueprint) {
            let lang = SourceLang::from_path(path).unwrap();
            let text = std::fs::read_to_string(path).unwrap();
            let a = analyze(lang, &text, 0).unwrap();
            let p = path.display();
            assert_eq!(a.parse_errors, 0, "{p}: line {:?}", a.first_error_line);
            for func in &a.functions {
                let s = text
                    .get(func.start_byte as usize..func.end_byte as usize)
                    .unwrap_or_else(|| panic!("{p}: bad span {func:?}"));
                assert!(s.contains(&func.name), "{p}: {func:?} not in {s:?}");
                let first = s.split('\n').next().unwrap_or("");
                assert!(
                    first.contains(&func.name) || s.trim_start().starts_with('@'),
                    "{p}: first line of {} is {first:?}",
                    func.qualified
                );
                let lines = s.split('\n').count() as u32;
                assert_eq!(func.end_line - func.start_line + 1, lines, "{p}: {func:?}");
                let line_at = text[..func.start_byte as usize].split('\n').count() as u32;
                assert_eq!(func.start_line, line_at, "{p}: {func:?}");
            }
            // Function identity: a qualified name names one entry, or a getter and a setter.
            let mut by_name: std::collections::HashMap<&str, Vec<&FunctionKind>> = Default::default();
            for func in &a.functions {
                by_name.entry(&func.qualified).or_default().push(func.kind());
            }
            for (q, kinds) in &by_name {
                let pair = kinds.len() == 2
                    && kinds.contains(&&FunctionKind::Getter)
                    && kinds.contains(&&FunctionKind::Setter);
                assert!(kinds.len() == 1 || pair, "{p}: {q} names {kinds:?}");
            }
            let skeleton = a.skeleton.as_deref().unwrap();
            assert_eq!(reparse_errors(lang, skeleton), 0, "{p}: skeleton has errors");
            assert!(skeleton.matches(BODY_PLACEHOLDER).count() >= a.outer_bodies, "{p}");
            assert_eq!(top_level(lang, &text), top_level(lang, skeleton), "{p}");
            functions += a.functions.len();
            bodies += a.outer_bodies;
            files += 1;
        }
        println!(
            "real corpus: {files} files ({} semi-foundation .ts, {} blueprint .ts/.tsx), {functions} functions, \
             {bodies} outer bodies; checked in {:?}",
            semi.len(),
            blueprint.len(),
            started.elapsed()
        );

        let long: Vec<_> =
            semi.iter().filter(|p| std::fs::read_to_string(p).unwrap().split('\n').count() >= 500).collect();
        assert_eq!(long.len(), 17, "{long:?}");
        let table_path = root.join("semi/packages/semi-foundation/table/foundation.ts");
        let table = std::fs::read_to_string(&table_path).unwrap();
        assert_eq!(table.split('\n').count(), 1286);
        let a = analyze(SourceLang::TypeScript, &table, 500).unwrap();
        let skeleton = a.skeleton.as_deref().unwrap();
        println!(
            "table/foundation.ts: {} lines -> {} lines, {} bodies replaced, {} functions",
            table.split('\n').count(),
            skeleton.split('\n').count(),
            a.outer_bodies,
            a.functions.len()
        );
    }

    #[test]
    fn real_corpus_speed() {
        let Some(root) = real_corpus_root() else {
            return;
        };
        let (semi, blueprint) = real_files(&root);
        let texts: Vec<_> = semi
            .iter()
            .chain(&blueprint)
            .map(|p| (SourceLang::from_path(p).unwrap(), std::fs::read_to_string(p).unwrap()))
            .collect();
        let bytes: usize = texts.iter().map(|(_, t)| t.len()).sum();
        let started = std::time::Instant::now();
        let mut functions = 0;
        for (lang, text) in &texts {
            functions += analyze(*lang, text, 500).unwrap().functions.len();
        }
        let elapsed = started.elapsed();
        let started = std::time::Instant::now();
        for (lang, text) in &texts {
            parse(*lang, text).unwrap();
        }
        let parse_only = started.elapsed();
        println!(
            "speed: {} files, {} KB, {functions} functions analyzed in {elapsed:?} (one thread; \
             tree-sitter parsing alone {parse_only:?})",
            texts.len(),
            bytes / 1024
        );
    }
}
