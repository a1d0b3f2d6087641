//! The function index, the skeleton and their limits, on small sources and on the real inputs.

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
                && let Some(d) = child.child_by_field_name("declaration").or_else(|| child.child_by_field_name("value"))
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
            let pair =
                kinds.len() == 2 && kinds.contains(&&FunctionKind::Getter) && kinds.contains(&&FunctionKind::Setter);
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

    let long: Vec<_> = semi.iter().filter(|p| std::fs::read_to_string(p).unwrap().split('\n').count() >= 500).collect();
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
