//! The split holds (issue 14): the reader crate's normal dependency tree has none of the compiler's heavy crates
//! nor the server's, the server crate has none of the compiler's, and the reader-only binary
//! (`--no-default-features --features serve`) links no compiler. Runs `cargo tree` offline on this workspace.

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
const READER_LAYERS: [&str; 15] = [
    "varint",
    "escape",
    "version",
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

/// The code of a source file without its test module: everything before the first `#[cfg(test)]` that opens a
/// `mod` (test modules close the file by convention; a `#[cfg(test)]` on one item elsewhere does not stop the scan,
/// which once hid a module edge behind a test-only field).
fn without_test_module(text: &str) -> &str {
    let mut from = 0;
    while let Some(i) = text[from..].find("#[cfg(test)]") {
        let at = from + i;
        let after = text[at + "#[cfg(test)]".len()..].trim_start();
        if after.starts_with("mod ") || after.starts_with("pub mod ") || after.starts_with("pub(crate) mod ") {
            return &text[..at];
        }
        from = at + 1;
    }
    text
}

/// The `crate::<module>` paths a file of the reader crate names in code (comment lines and the test module are left
/// out: tests may use any module).
fn crate_paths(text: &str) -> Vec<String> {
    paths_after(text, "crate::")
}

/// The names that follow `prefix` in a file's code (`prefix` `name`, or each item of a `prefix{a, b::c}` group),
/// sorted, once each; comment lines and the test module are left out.
fn paths_after(text: &str, prefix: &str) -> Vec<String> {
    let code: Vec<&str> = without_test_module(text).lines().filter(|l| !l.trim_start().starts_with("//")).collect();
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

/// Whether `file` is a test-only submodule's file (`#[cfg(test)] mod fuzz;` in its folder's mod.rs: `fuzz.rs`),
/// which is a test, as a test module is.
fn is_test_only(file: &std::path::Path) -> bool {
    let (Some(dir), Some(name)) = (file.parent(), file.file_name()) else { return false };
    let mod_rs = std::fs::read_to_string(dir.join("mod.rs")).unwrap_or_default();
    mod_rs.split("#[cfg(test)]").skip(1).any(|after| {
        after.trim_start().strip_prefix("mod ").and_then(|m| m.split(';').next()).map(|n| format!("{n}.rs"))
            == Some(name.to_string_lossy().into_owned())
    })
}

/// The `.rs` files of each module of `layers` under `src` (`m.rs`, `m/*.rs`; test-only submodules left out), and
/// the edges against the layer order: a file of module `layers[i]` naming a module of a later layer, as
/// `paths(file relative to src, text)` reads them. Panics on a name that is not one of `layers` (an item of the
/// parent module, which every module may not use). Returns how many files were read, and the edges.
fn layer_back_edges(
    src: &std::path::Path,
    layers: &[&str],
    paths: impl Fn(&std::path::Path, &str) -> Vec<String>,
) -> (usize, Vec<String>) {
    let mut checked = 0;
    let mut back_edges = Vec::new();
    for (layer, module) in layers.iter().enumerate() {
        let mut files = vec![src.join(format!("{module}.rs"))];
        if let Ok(dir) = std::fs::read_dir(src.join(module)) {
            files.extend(
                dir.filter_map(Result::ok).map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "rs")),
            );
        }
        files.retain(|f| !is_test_only(f));
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
    // Sanity: every module was read (model.rs … search/query.rs), and the scan sees a real edge.
    assert!(checked >= 14, "{checked} files");
    assert_eq!(crate_paths("use crate::read::BundleSet;\n// crate::search\n"), ["read"]);
    let field = "#[cfg(test)]\nx: u8,\nuse crate::diff::x;\n#[cfg(test)]\nmod tests { use crate::search; }";
    assert_eq!(crate_paths(field), ["diff"], "a test-only item does not end the scan; the test module does");
    assert!(back_edges.is_empty(), "edges against the layer order {READER_LAYERS:?}:\n{}", back_edges.join("\n"));
}

/// The compiler's `compile/` modules in layer order (issue 23): each may use only the modules before it (and
/// itself). The driver (`compile/mod.rs`) uses them all and holds nothing they import: the shared types are in the
/// leaves (`diagnostic`, `text`, `timing`, `names`), so `compile/` has no import circle.
const COMPILE_LAYERS: [&str; 19] = [
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
    "matching",
    "examples",
    "layout",
    "guides",
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

/// The bound on the reader-only binary, stripped: 6 MB.
const READER_ONLY_MAX_BYTES: u64 = 6_000_000;

#[test]
fn the_reader_only_release_binary_is_at_most_6_mb() {
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
    ("view", &["BlockSpan", "card", "placeholder_view_layout", "props_text", "slugify"]),
    ("read", &["BundleSet", "ComponentsView", "FilesView", "Served"]),
    ("render", &["Render", "column", "component_row_line", "file_row_line"]),
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
    let mut files = Vec::new();
    let mut dirs = vec![src.clone()];
    while let Some(dir) = dirs.pop() {
        for e in std::fs::read_dir(&dir).unwrap().filter_map(Result::ok) {
            let p = e.path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") && !is_test_only(&p) {
                files.push(p);
            }
        }
    }
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
