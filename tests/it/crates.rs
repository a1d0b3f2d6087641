//! The split holds (issue 14): the reader crate's normal dependency tree has none of the compiler's heavy crates
//! nor the server's, the server crate has none of the compiler's, and the reader-only binary
//! (`--no-default-features --features serve`) links no compiler. Runs `cargo tree` offline on this workspace.

use std::process::Command;

/// The compiler's heavy dependencies: Markdown parsing, tree-sitter, the tokenizer.
const COMPILER_ONLY: [&str; 5] =
    ["comrak", "tree-sitter", "tree-sitter-javascript", "tree-sitter-typescript", "tiktoken-rs"];
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
    assert!(full.iter().any(|n| n == "comrak") && full.iter().any(|n| n == "tiktoken-rs"), "{full:?}");
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
