//! The split holds (issue 14): the reader crate's normal dependency tree has none of the compiler's heavy crates
//! nor the server's, the server crate has none of the compiler's, and the reader-only binary
//! (`--no-default-features --features serve`) links no compiler. Runs `cargo tree` offline on this workspace.
//! Inside the crates (issue 23): the reader's modules keep one direction, the compiler uses the reader's logic only
//! to render and count, and every package names each dependency it declares.

use std::process::Command;

/// The compiler's heavy dependencies: Markdown parsing, tree-sitter, the tokenizer.
const COMPILER_ONLY: [&str; 5] =
    ["comrak", "tree-sitter", "tree-sitter-javascript", "tree-sitter-typescript", "bpe-openai"];
/// The server's: MCP, HTTP, async runtime.
const SERVER_ONLY: [&str; 3] = ["rmcp", "hyper", "tokio"];

/// The package names in `cargo tree -e normal` of `args` (one per line, no prefix, deduplicated).
fn tree(args: &[&str]) -> Vec<String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["tree", "--offline", "-e", "normal", "--prefix", "none", "--format", "{p}"])
        .args(args)
        .output()
        .expect("cargo runs");
    assert!(out.status.success(), "cargo tree {args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    let mut names: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().next().map(str::to_string))
        .collect();
    names.sort();
    names.dedup();
    names
}

fn assert_none_of(names: &[String], banned: &[&str], what: &str) {
    let found: Vec<&String> = names.iter().filter(|n| banned.contains(&n.as_str())).collect();
    assert!(found.is_empty(), "{what} depends on {found:?}");
}

#[test]
fn the_reader_crate_has_no_compiler_or_server_dependency() {
    let names = tree(&["-p", "mydesign-docs-reader"]);
    // Sanity: the tree was read (the reader decompresses frames with zstd and hashes them with xxhash).
    assert!(names.iter().any(|n| n == "xxhash-rust") && names.iter().any(|n| n == "zstd"), "{names:?}");
    assert_none_of(&names, &COMPILER_ONLY, "mydesign-docs-reader");
    assert_none_of(&names, &SERVER_ONLY, "mydesign-docs-reader");
    assert_none_of(&names, &["mydesign-docs-compiler", "mydesign-docs-serve"], "mydesign-docs-reader");
}

#[test]
fn the_serve_crate_has_no_compiler_dependency() {
    let names = tree(&["-p", "mydesign-docs-serve"]);
    assert!(names.iter().any(|n| n == "rmcp"), "{names:?}");
    assert_none_of(&names, &COMPILER_ONLY, "mydesign-docs-serve");
    assert_none_of(&names, &["mydesign-docs-compiler"], "mydesign-docs-serve");
}

#[test]
fn the_reader_only_binary_links_no_compiler() {
    let names = tree(&["-p", "mydesign-docs", "--no-default-features", "--features", "serve"]);
    assert!(names.iter().any(|n| n == "mydesign-docs-serve"), "{names:?}");
    assert_none_of(&names, &COMPILER_ONLY, "mydesign-docs --no-default-features --features serve");
    assert_none_of(&names, &["mydesign-docs-compiler"], "mydesign-docs --no-default-features --features serve");
    // And the default binary does have the compiler (so the assertions above can fail).
    let full = tree(&["-p", "mydesign-docs"]);
    assert!(full.iter().any(|n| n == "comrak") && full.iter().any(|n| n == "bpe-openai"), "{full:?}");
}

#[test]
fn the_lookups_only_cli_links_neither_compiler_nor_server() {
    // `--no-default-features`: the CLI's lookups open the library and answer `doc` with the reader crate alone
    // (`Library::open`, `BundleSet::details`); `build` and `serve` say they are not compiled in.
    let names = tree(&["-p", "mydesign-docs", "--no-default-features"]);
    assert!(names.iter().any(|n| n == "mydesign-docs-reader"), "{names:?}");
    assert_none_of(&names, &COMPILER_ONLY, "mydesign-docs --no-default-features");
    assert_none_of(&names, &SERVER_ONLY, "mydesign-docs --no-default-features");
    assert_none_of(&names, &["mydesign-docs-compiler", "mydesign-docs-serve"], "mydesign-docs --no-default-features");
}

/// The reader crate's modules in layer order: each may use only the modules before it (and itself), so there is no
/// cycle. `search` is the search shapes, analysis and queries (`search::query` reads sets and renders).
const READER_LAYERS: [&str; 16] = [
    "varint",
    "escape",
    "version",
    "design_value",
    "model",
    "line_index",
    "units",
    "locate",
    "budget",
    "view",
    "bundle",
    "read",
    "publish",
    "render",
    "diff",
    "search",
];

/// The code of a source file without its test modules: each `#[cfg(test)] mod name { … }` block is cut out to its
/// closing brace (found by [`block_end`]) and each `#[cfg(test)] mod name;` declaration dropped; the code before
/// and after them is kept. A `#[cfg(test)]` on any other item (a test-only field or method) cuts nothing: stopping
/// the scan at the first `#[cfg(test)]` once hid `bundle/writer.rs` calling `read::BundleSet::damage`.
fn without_test_module(text: &str) -> String {
    let mut code = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find("#[cfg(test)]") {
        let after = &rest[i + "#[cfg(test)]".len()..];
        let item = after.trim_start();
        let is_mod = ["mod ", "pub mod ", "pub(crate) mod "].iter().any(|m| item.starts_with(m));
        let end = match (is_mod, item.find([';', '{'])) {
            (true, Some(j)) if item.as_bytes()[j] == b';' => Some(j + 1),
            (true, Some(j)) => block_end(&item[j..]).map(|k| j + k),
            _ => None,
        };
        match end {
            Some(end) => {
                code.push_str(&rest[..i]);
                rest = &item[end..];
            }
            None => {
                code.push_str(&rest[..i + 1]);
                rest = &rest[i + 1..];
            }
        }
    }
    code.push_str(rest);
    code
}

/// The length of the block that opens `code` (which starts with `{`), up to and with its closing brace; `None`
/// when it does not close. Braces inside comments, strings, raw strings and character literals are not counted;
/// a lifetime (`'a`) is told from a character literal (`'{'`) by the quote two characters on.
fn block_end(code: &str) -> Option<usize> {
    let b = code.as_bytes();
    let (mut depth, mut i) = (0usize, 0usize);
    while i < b.len() {
        let ident_before = i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_');
        match b[i] {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            b'/' if b.get(i + 1) == Some(&b'/') => i += code[i..].find('\n').unwrap_or(b.len() - i),
            b'/' if b.get(i + 1) == Some(&b'*') => i += code[i..].find("*/")? + 1,
            b'"' => {
                i += 1;
                while *b.get(i)? != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'r' if !ident_before && matches!(b.get(i + 1), Some(b'#' | b'"')) => {
                let hashes = code[i + 1..].bytes().take_while(|&c| c == b'#').count();
                if b.get(i + 1 + hashes) == Some(&b'"') {
                    let close = format!("\"{}", "#".repeat(hashes));
                    i += 2 + hashes + code[i + 2 + hashes..].find(&close)? + close.len() - 1;
                }
            }
            b'\'' if b.get(i + 1) == Some(&b'\\') => i += 2 + code[i + 2..].find('\'')?,
            b'\'' => {
                // `'{'` (one character, maybe several bytes) or a lifetime `'a`.
                let c = code[i + 1..].chars().next()?;
                if code[i + 1 + c.len_utf8()..].starts_with('\'') {
                    i += 1 + c.len_utf8();
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// The `crate::<module>` paths a file of the reader crate names in code (comment lines and the test module are left
/// out: tests may use any module).
fn crate_paths(text: &str) -> Vec<String> {
    paths_after(text, "crate::")
}

/// The names that follow `prefix` in a file's code (`prefix` `name`, or each item of a `prefix{a, b::c}` group),
/// sorted, once each; comment lines and the test module are left out.
fn paths_after(text: &str, prefix: &str) -> Vec<String> {
    let kept = without_test_module(text);
    let code: Vec<&str> = kept.lines().filter(|l| !l.trim_start().starts_with("//")).collect();
    let code = code.join("\n");
    let ident = |s: &str| -> String { s.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect() };
    let mut found = Vec::new();
    for (i, _) in code.match_indices(prefix) {
        let rest = &code[i + prefix.len()..];
        let Some(group) = rest.strip_prefix('{') else {
            found.push(ident(rest));
            continue;
        };
        // A group: its items up to the matching brace, each named by its first segment.
        let (mut depth, mut item) = (0, 0);
        for (j, c) in group.char_indices() {
            match c {
                '{' => depth += 1,
                '}' if depth == 0 => {
                    found.push(ident(group[item..j].trim()));
                    break;
                }
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    found.push(ident(group[item..j].trim()));
                    item = j + 1;
                }
                _ => {}
            }
        }
    }
    found.retain(|n| !n.is_empty() && n != "super");
    found.sort();
    found.dedup();
    found
}

/// Every `.rs` file below `dir`, at any depth, sorted; none when `dir` is not a folder.
fn rust_files(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for p in std::fs::read_dir(&dir).into_iter().flatten().filter_map(Result::ok).map(|e| e.path()) {
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                files.push(p);
            }
        }
    }
    files.sort();
    files
}

/// The files and folders of the test-only submodules that `files` declare: `#[cfg(test)] mod fuzz;` in
/// `bundle/mod.rs` gives `bundle/fuzz.rs` and `bundle/fuzz/`; in `a.rs`, `a/fuzz.rs` and `a/fuzz/`.
fn test_only_files(files: &[std::path::PathBuf]) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(file).unwrap();
        let dir = match file.file_name().and_then(|n| n.to_str()) {
            Some("mod.rs" | "lib.rs" | "main.rs") => file.parent().unwrap().to_path_buf(),
            _ => file.with_extension(""),
        };
        for after in text.split("#[cfg(test)]").skip(1) {
            let item = after.trim_start();
            let Some(decl) = ["mod ", "pub mod ", "pub(crate) mod "].iter().find_map(|m| item.strip_prefix(m)) else {
                continue;
            };
            let name = decl.split(';').next().unwrap_or_default().trim();
            if !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                out.push(dir.join(format!("{name}.rs")));
                out.push(dir.join(name));
            }
        }
    }
    out
}

/// The `.rs` files of each module of `layers` under `src` (`m.rs` and every file below `m/`; test-only submodules
/// left out), and
/// the edges against the layer order: a file of module `layers[i]` naming a module of a later layer, as
/// `paths(file relative to src, text)` reads them. Panics on a name that is not one of `layers` (an item of the
/// parent module, which every module may not use). Returns how many files were read, and the edges.
fn layer_back_edges(
    src: &std::path::Path,
    layers: &[&str],
    paths: impl Fn(&std::path::Path, &str) -> Vec<String>,
) -> (usize, Vec<String>) {
    let test_only = test_only_files(&rust_files(src));
    let mut checked = 0;
    let mut back_edges = Vec::new();
    for (layer, module) in layers.iter().enumerate() {
        // The module's file and every file below its folder, at any depth; files of test-only submodules are tests.
        let mut files = vec![src.join(format!("{module}.rs"))];
        files.extend(rust_files(&src.join(module)));
        files.retain(|f| !test_only.iter().any(|t| f.starts_with(t)));
        for file in files.iter().filter(|f| f.is_file()) {
            let text = std::fs::read_to_string(file).unwrap();
            checked += 1;
            for used in paths(file.strip_prefix(src).unwrap(), &text) {
                let Some(at) = layers.iter().position(|m| *m == used) else {
                    panic!("{}: {used} is not one of the modules {layers:?}", file.display());
                };
                if at > layer {
                    back_edges.push(format!("{} uses {used}", file.display()));
                }
            }
        }
    }
    (checked, back_edges)
}

#[test]
fn the_reader_modules_have_no_cycle() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/reader/src");
    let (checked, back_edges) = layer_back_edges(&src, &READER_LAYERS, |_, text| crate_paths(text));
    let test_only = test_only_files(&rust_files(&src));
    // Sanity: every module was read (model.rs … search/query.rs), and the scan sees a real edge.
    assert!(checked >= 14, "{checked} files");
    assert_eq!(crate_paths("use crate::read::BundleSet;\n// crate::search\n"), ["read"]);
    let field = "#[cfg(test)]\nx: u8,\nuse crate::diff::x;\n#[cfg(test)]\nmod tests { use crate::search; }";
    assert_eq!(crate_paths(field), ["diff"], "a test-only item does not end the scan; the test module does");
    let after = "#[cfg(test)]\nmod tests {\n    const C: char = '}';\n    // }\n    let s = \"}\";\n    use crate::search;\n}\nuse crate::read::X;\n#[cfg(test)]\nmod fuzz;\nuse crate::diff::y;";
    assert_eq!(crate_paths(after), ["diff", "read"], "the code after a test module is read; braces in text are not");
    let nested = rust_files(&src.join("bundle"));
    assert!(test_only.iter().any(|t| t.ends_with("bundle/fuzz.rs")) && nested.iter().any(|f| f.ends_with("fuzz.rs")));
    assert!(back_edges.is_empty(), "edges against the layer order {READER_LAYERS:?}:\n{}", back_edges.join("\n"));
}

/// The compiler's `compile/` modules in layer order (issue 23): each may use only the modules before it (and
/// itself). The driver (`compile/mod.rs`) uses them all and holds nothing they import: the shared types are in the
/// leaves (`diagnostic`, `text`, `timing`, `names`), so `compile/` has no import circle.
const COMPILE_LAYERS: [&str; 23] = [
    "diagnostic",
    "text",
    "timing",
    "names",
    "walk",
    "tokens",
    "markdown",
    "source",
    "props",
    "cache",
    "changelog",
    "api",
    "examples",
    "page_subject",
    "guide_rules",
    "layout",
    "matching",
    "design_tokens",
    "guides",
    "own_changelogs",
    "detect",
    "stamp",
    "emit",
];

/// The `compile/` modules a file of `compile/` (`file`, relative to it) names: `crate::compile::<m>`, and
/// `super::<m>` from `api.rs` or `emit/mod.rs`, `super::super::<m>` from `emit/load.rs` (a plain `super::` there
/// is its own module).
fn compile_paths(file: &std::path::Path, text: &str) -> Vec<String> {
    let top = file.components().count() == 1 || file.file_name().is_some_and(|n| n == "mod.rs");
    let mut names = paths_after(text, "crate::compile::");
    names.extend(paths_after(text, if top { "super::" } else { "super::super::" }));
    names.sort();
    names.dedup();
    names
}

#[test]
fn the_compile_modules_have_no_cycle() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/compiler/src/compile");
    let (checked, back_edges) = layer_back_edges(&src, &COMPILE_LAYERS, compile_paths);
    // Sanity: every module was read (diagnostic.rs … emit/publish.rs), and the scan sees real edges.
    assert!(checked >= 30, "{checked} files");
    let nested = std::path::Path::new("emit/load.rs");
    let uses = "use super::super::cache;\nuse super::Ctx;\nuse crate::compile::{markdown, walk::WalkedFile};";
    assert_eq!(compile_paths(nested, uses), ["cache", "markdown", "walk"]);
    assert_eq!(
        compile_paths(std::path::Path::new("walk.rs"), "use super::{Diagnostic, names};"),
        ["Diagnostic", "names"]
    );
    assert!(back_edges.is_empty(), "edges against the layer order {COMPILE_LAYERS:?}:\n{}", back_edges.join("\n"));
}

/// The bound on the reader-only binary, stripped: issue 14's 6 MB, raised to 6.4 MB on 2026-12-03 when the reader
/// gained design tokens (+168 KB), `prop` and `search --uses` (+153 KB), node_modules discovery (+76 KB) and measured
/// reserves (+28 KB): 6,290,376 B then; raised to 6.55 MB the same day when it gained `context` (+100 KB: the lookup
/// 22 KB, rmcp's handler for the list argument 11 KB, sort instantiations 13 KB) and the trial's lookup fixes
/// (+35 KB: stored guide rows, sources-only props, named colours): 6,493,496 B then (BENCHMARKS.md "Binary size").
/// A decision to review: the alternative is to leave those lookups out of the reader-only binary.
const READER_ONLY_MAX_BYTES: u64 = 6_550_000;

#[test]
fn the_reader_only_release_binary_is_within_its_size_bound() {
    // No release build inside `cargo test`: this checks the binary `.ci/run` (or a person) built with
    // `cargo xtask dist --reader-only` just before (dynamic, as `cargo xtask install --reader-only` installs it), and
    // skips otherwise (in CI, with MYDESIGN_REQUIRE_REAL=1, a skip is a failure).
    // Beside the binary under test (`target/debug`): `dist-reader/` (its profile) in the same directory.
    let tested = std::path::Path::new(env!("CARGO_BIN_EXE_mydesign-docs"));
    let profiles = tested.parent().and_then(std::path::Path::parent).expect("the binary is in a profile directory");
    let bin = profiles.join("dist-reader/mydesign-docs");
    let Ok(meta) = std::fs::metadata(&bin) else {
        crate::common::skip(format_args!("{} not built (cargo xtask dist --reader-only)", bin.display()));
        return;
    };
    // Which build it is: the reader-only one says `build` is not compiled in; the full one refuses a repository
    // that does not exist (asked to build `.`, it wrote a set of the checkout into `out/`: trial 4).
    let absent = tempfile::tempdir().unwrap().path().join("no-such-repository");
    let out = Command::new(&bin).arg("build").arg(&absent).output().expect("the release binary runs");
    let text = String::from_utf8_lossy(&out.stderr);
    if !text.contains("is not compiled into this binary") {
        crate::common::skip(format_args!(
            "{} is the full binary, not the reader-only one (cargo xtask dist --reader-only)",
            bin.display()
        ));
        return;
    }
    // Stripped size: `strip` into a temporary file (the binary keeps its symbols for backtraces).
    let dir = tempfile::tempdir().unwrap();
    let stripped = dir.path().join("mydesign-docs");
    let size = match Command::new("strip").arg("-o").arg(&stripped).arg(&bin).status() {
        Ok(s) if s.success() => std::fs::metadata(&stripped).unwrap().len(),
        _ => {
            eprintln!("note: no `strip`: checking the unstripped size");
            meta.len()
        }
    };
    assert!(
        size <= READER_ONLY_MAX_BYTES,
        "the reader-only binary is {size} bytes stripped, over {READER_ONLY_MAX_BYTES} (built with `cargo xtask dist \
         --reader-only`? linked statically, glibc adds 0.95 MB)"
    );
}

/// "Render to count", the one interface through which the compiler uses the reader's logic (ARCHITECTURE.md): the
/// views it renders with the reader's own code to store their sizes, the cut rule of token maps, and opening the
/// set already published (a build that would write the same set writes nothing). Everything else it takes from the
/// reader is shapes (`model`, `line_index`, `bundle`, `search`'s frame types).
const RENDER_TO_COUNT: [(&str, &[&str]); 4] = [
    (
        "view",
        &[
            "BlockSpan",
            "PropRow",
            "card",
            "import_line",
            "name_entry",
            "placeholder_view_layout",
            "prop_line",
            "props_text",
            "slugify",
        ],
    ),
    ("read", &["BundleSet", "ComponentsView", "FilesView", "ListKind", "Served"]),
    ("render", &["Render", "column", "component_row_line", "file_row_line", "token_row_line"]),
    ("budget", &["MAX_SEGMENT_TOKENS", "MIN_MAX_TOKENS", "cut_points", "split_segment"]),
];

/// The items a source names under `crate::<module>::` for each module of [`RENDER_TO_COUNT`] and the reader's other
/// logic modules, as `module::item` (`module::*` for the module itself); the test module and comment lines left
/// out. `use crate::view::{a, b};` gives both items.
fn reader_logic_items(text: &str) -> Vec<String> {
    const LOGIC: [&str; 7] = ["view", "read", "render", "budget", "diff", "locate", "units"];
    let code = without_test_module(text);
    let code: String = code.lines().filter(|l| !l.trim_start().starts_with("//")).map(|l| format!("{l}\n")).collect();
    let ident = |s: &str| -> String { s.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect() };
    let mut found = Vec::new();
    for (i, _) in code.match_indices("crate::") {
        let rest = &code[i + "crate::".len()..];
        let module = ident(rest);
        if !LOGIC.contains(&module.as_str()) {
            continue;
        }
        let after = &rest[module.len()..];
        let Some(path) = after.strip_prefix("::") else {
            found.push(format!("{module}::*"));
            continue;
        };
        if let Some(group) = path.strip_prefix('{') {
            let group = group.split('}').next().unwrap_or_default();
            found.extend(
                group.split(',').map(|s| ident(s.trim())).filter(|s| !s.is_empty()).map(|s| format!("{module}::{s}")),
            );
        } else {
            found.push(format!("{module}::{}", ident(path)));
        }
    }
    found.sort();
    found.dedup();
    found
}

#[test]
fn the_compiler_uses_the_reader_logic_only_to_render_and_count() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/compiler/src");
    let test_only = test_only_files(&rust_files(&src));
    let files: Vec<_> = rust_files(&src).into_iter().filter(|f| !test_only.iter().any(|t| f.starts_with(t))).collect();
    let allowed: Vec<String> =
        RENDER_TO_COUNT.iter().flat_map(|(m, items)| items.iter().map(move |i| format!("{m}::{i}"))).collect();
    let mut used = Vec::new();
    let mut outside = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        // The reader crate is named only by lib.rs, which re-exports its modules under `crate::`.
        if text.contains("mydesign_docs_reader::") && !file.ends_with("lib.rs") {
            outside.push(format!("{} names mydesign_docs_reader:: directly", file.display()));
        }
        for item in reader_logic_items(&text) {
            if !allowed.contains(&item) {
                outside.push(format!("{} uses crate::{item}", file.display()));
            }
            used.push(item);
        }
    }
    // Sanity: the scan reads groups and sees the interface in use (emit.rs renders cards, tokens.rs cuts).
    assert_eq!(
        reader_logic_items(
            "use crate::view::{card, props_text};\nlet x = crate::budget::cut_points(t);\n// crate::diff\n"
        ),
        ["budget::cut_points", "view::card", "view::props_text"]
    );
    assert!(used.contains(&"view::card".to_string()) && used.contains(&"budget::cut_points".to_string()), "{used:?}");
    assert!(outside.is_empty(), "outside the render-to-count interface {RENDER_TO_COUNT:?}:\n{}", outside.join("\n"));
}

/// Dependencies that no source names, on purpose: (package, dependency). The root package asks for these under its
/// `build` feature only to unify features between `cargo run` and `cargo test` (its Cargo.toml, issue 31).
const UNUSED_ON_PURPOSE: [(&str, &str); 4] = [
    ("mydesign-docs", "regex"),
    ("mydesign-docs", "regex-syntax"),
    ("mydesign-docs", "bstr"),
    ("mydesign-docs", "rustix"),
];

/// Whether `code` names the crate `name` (a dependency key, `-` read as `_`): a path `name::…` (not `x::name::…`),
/// `use name`, `extern crate name`, or the string `"name"` (serde's `with = "serde_bytes"`). Comment lines are not
/// code. A renamed dependency (`key = { package = "…" }`) is named by its key, which is what this is given.
fn names_crate(code: &str, name: &str) -> bool {
    let name = name.replace('-', "_");
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    code.lines().map(str::trim_start).filter(|l| !l.starts_with("//")).any(|line| {
        line.match_indices(name.as_str()).any(|(i, _)| {
            let (before, after) = (&line[..i], &line[i + name.len()..]);
            let path_start = !before.ends_with(|c: char| ident(c) || c == '.')
                && before.strip_suffix("::").is_none_or(|b| !b.ends_with(|c: char| ident(c) || c == '>'));
            (path_start && after.starts_with("::"))
                || ((before.ends_with("use ") || before.ends_with("extern crate ")) && !after.starts_with(ident))
                || (before.ends_with('"') && after.starts_with('"'))
        })
    })
}

/// The source files of package `dir` where each kind of dependency must be named: normal ones in `src/`, dev ones
/// also in `tests/`, `benches/` and `examples/`, build ones in `build.rs`.
fn sources_for(dir: &std::path::Path, kind: &str) -> Vec<std::path::PathBuf> {
    match kind {
        "dependencies" => rust_files(&dir.join("src")),
        "dev-dependencies" => {
            ["src", "tests", "benches", "examples"].iter().flat_map(|d| rust_files(&dir.join(d))).collect()
        }
        _ => vec![dir.join("build.rs")],
    }
}

#[test]
fn every_dependency_is_used() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let read_toml = |p: &std::path::Path| -> toml::Table { std::fs::read_to_string(p).unwrap().parse().unwrap() };
    let workspace = read_toml(&root.join("Cargo.toml"));
    let members = workspace["workspace"]["members"].as_array().unwrap().iter().map(|m| m.as_str().unwrap());
    let mut unused = Vec::new();
    let mut checked = 0;
    for dir in std::iter::once(".").chain(members).map(|m| root.join(m)) {
        let manifest = read_toml(&dir.join("Cargo.toml"));
        let package = manifest["package"]["name"].as_str().unwrap().to_string();
        // `[dependencies]` and the like, and the same under `[target.'cfg(…)'.…]`.
        let targets = manifest.get("target").and_then(|t| t.as_table()).into_iter().flat_map(|t| t.values());
        let tables = std::iter::once(&manifest).chain(targets.filter_map(|t| t.as_table()));
        for table in tables {
            for kind in ["dependencies", "dev-dependencies", "build-dependencies"] {
                let Some(deps) = table.get(kind).and_then(|d| d.as_table()) else { continue };
                let code: String = sources_for(&dir, kind)
                    .iter()
                    .filter_map(|f| std::fs::read_to_string(f).ok())
                    .collect::<Vec<_>>()
                    .join("\n");
                for name in deps.keys() {
                    checked += 1;
                    if !names_crate(&code, name) && !UNUSED_ON_PURPOSE.contains(&(package.as_str(), name.as_str())) {
                        unused.push(format!("{package}: {kind} {name}"));
                    }
                }
            }
        }
    }
    // Sanity: every manifest was read, and the scan tells a use from a mention.
    assert!(checked > 80, "{checked} dependencies");
    assert!(
        names_crate("use serde::Deserialize;", "serde")
            && names_crate("#[serde(with = \"serde_bytes\")]", "serde_bytes")
    );
    assert!(names_crate("let w = ignore::WalkBuilder::new(d);", "ignore") && names_crate("extern crate libc;", "libc"));
    assert!(names_crate("tree_sitter_javascript::LANGUAGE", "tree-sitter-javascript"));
    assert!(!names_crate("// toml::from_str\nlet toml = 1; x.toml::<u8>(); crate::toml::y; serde_json_x::z", "toml"));
    assert!(!names_crate("serde_json_x::z; use serde_jsonl;", "serde_json"));
    assert!(
        unused.is_empty(),
        "dependencies no source names (remove them, or list them in UNUSED_ON_PURPOSE with why):\n{}",
        unused.join("\n")
    );
}
