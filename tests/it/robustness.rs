//! Bad input gets a clear error and loses nothing: bad files are reported and skipped while the build completes;
//! damaged bundles are errors, never panics or wrong answers; builds are deterministic and atomic.

use crate::common;

use mydesign_docs::read::{Detail, Paging};
use std::path::Path;

use mydesign_docs::read::BundleSet;

fn write(root: &Path, rel: &str, bytes: &[u8]) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, bytes).unwrap();
}

const GOOD_DOC: &str = "---\ntitle: Good\nbrief: A good component.\n---\n\n## Usage\n\n```jsx\n<Good />\n```\n";
const GOOD_TSX: &str = "export function Good() {\n  return <div />;\n}\n";

/// A small repository in the default layout with one of every kind of bad input.
fn bad_repo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let r = dir.path();
    write(r, "package.json", br#"{"name": "@acme/bad-design", "version": "1.2.3"}"#);
    write(r, "mydesign-docs.toml", b"[walk]\nmax_file_bytes = 4000\n");
    write(r, "docs/good/index.md", GOOD_DOC.as_bytes());
    write(r, "docs/latin1/index.md", b"# Caf\xe9\n\nna\xefve text\n");
    write(r, "docs/binary/index.md", b"# Bin\n\0\0\0\x01\x02");
    write(
        r,
        "docs/weird/index.md",
        b"# Weird\n\n<div\n\n```js\nunclosed fence\n~~~~\n* [x] | a | b\n|---|\n<!-- never closed\n",
    );
    write(r, "docs/huge/index.md", "# Huge\n".repeat(1000).as_bytes());
    write(r, "src/components/Good/Good.tsx", GOOD_TSX.as_bytes());
    write(r, "src/components/Good/logo.png", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR");
    write(r, "src/components/Broken/Broken.tsx", b"export function Broken( {\n  return <div>>>;\n}}}\nclass {\n");
    #[cfg(unix)]
    std::os::unix::fs::symlink(r.join("src/components"), r.join("src/components/Good/loop")).unwrap();
    dir
}

/// TRIAL item 15: `build --deny-warnings` with a warning publishes nothing: a first build creates no set, a later
/// one leaves the published link and its manifest as they were (a running `serve` sees no change); the same build
/// without the flag does publish.
#[test]
fn deny_warnings_publishes_nothing() {
    let repo = bad_repo();
    let out = tempfile::tempdir().unwrap();
    let o = out.path().to_str().unwrap();
    let set = out.path().join("bad-design@1.2.3");
    let err = common::fails(repo.path(), &["build", ".", "--out", o, "--deny-warnings"]);
    assert!(err.contains("error: the build has "), "{err}");
    assert!(err.contains("nothing was published: ") && err.ends_with("bad-design@1.2.3 was not created\n"), "{err}");
    assert!(!set.exists(), "a refused first build created {}", set.display());
    let stdout =
        String::from_utf8(common::run(repo.path(), &["build", ".", "--out", o, "--deny-warnings"]).stdout).unwrap();
    assert!(stdout.starts_with("compiled, not published, bad-design 1.2.3 → "), "{stdout}");

    common::ok(repo.path(), &["build", ".", "--out", o]);
    let link = std::fs::read_link(&set).expect("the set is a link to its generation");
    let manifest = std::fs::read(set.join("manifest.bundle")).unwrap();
    // Changed inputs that still have warnings: refused, the previous set stays.
    write(repo.path(), "docs/extra/index.md", b"# Extra\n\nA new document.\n");
    let err = common::fails(repo.path(), &["build", ".", "--out", o, "--deny-warnings"]);
    assert!(err.contains(&format!("nothing was published: {} is still the previous set", set.display())), "{err}");
    assert_eq!(std::fs::read_link(&set).unwrap(), link);
    assert_eq!(std::fs::read(set.join("manifest.bundle")).unwrap(), manifest);
    let found = BundleSet::discover(out.path(), None, None).unwrap();
    assert!(found.doc("extra", None, Detail::Normal, &[], Paging::unlimited()).is_err(), "extra was published");
    // Without the flag the same inputs are published.
    common::ok(repo.path(), &["build", ".", "--out", o]);
    assert_ne!(std::fs::read_link(&set).unwrap(), link);
    let found = BundleSet::discover(out.path(), None, None).unwrap();
    assert!(found.doc("extra", None, Detail::Normal, &[], Paging::unlimited()).is_ok());
}

#[test]
fn bad_files_are_reported_and_skipped_and_the_build_completes() {
    let repo = bad_repo();
    let out = tempfile::tempdir().unwrap();
    let stdout = common::ok(repo.path(), &["build", ".", "--out", out.path().to_str().unwrap()]);
    assert!(stdout.starts_with("built bad-design 1.2.3 → "), "{stdout}");
    let err = {
        let o = common::run(repo.path(), &["build", ".", "--out", out.path().to_str().unwrap()]);
        String::from_utf8(o.stderr).unwrap()
    };
    for expected in [
        "warning: read: docs/latin1/index.md: not UTF-8 (invalid byte at offset 5); skipped",
        "warning: read: docs/binary/index.md: binary file where a document was expected; skipped",
        "warning: read: docs/huge/index.md: 7000 bytes is over the 4000-byte limit; skipped",
        "warning: source: src/components/Broken/Broken.tsx: tree-sitter found ",
    ] {
        assert!(err.contains(expected), "missing `{expected}` in:\n{err}");
    }
    #[cfg(unix)]
    assert!(err.contains("warning: walk: src/components/Good/loop: "), "{err}");
    // --deny-warnings turns them into exit code 2.
    common::fails(repo.path(), &["build", ".", "--out", out.path().to_str().unwrap(), "--deny-warnings"]);

    let set = BundleSet::discover(out.path(), None, None).unwrap();
    let weird = set.doc("weird", None, Detail::Normal, &[], Paging::unlimited()).unwrap();
    assert_eq!(weird.code_blocks, 1);
    assert_eq!(weird.text, std::fs::read_to_string(repo.path().join("docs/weird/index.md")).unwrap());
    assert!(set.doc("latin1", None, Detail::Normal, &[], Paging::unlimited()).is_err());
    let files = set.files("good").unwrap();
    let kinds: Vec<_> = files.files.iter().map(|f| (f.path.as_str(), f.kind)).collect();
    use mydesign_docs::model::FileKind::*;
    assert_eq!(kinds, [("src/components/Good/Good.tsx", Source), ("src/components/Good/logo.png", Binary)]);
    let broken = set.files("broken").unwrap();
    assert!(broken.files[0].parse_errors > 0);
    // The broken source is still served whole.
    let text = set.file("src/components/Broken/Broken.tsx", true, None, Paging::unlimited()).unwrap().text;
    assert!(text.starts_with("export function Broken("));
    // A build killed earlier left a temporary directory: the next build removes it (its process is gone).
    let stale = out.path().join(".bad-design@1.2.3.tmp-4000000");
    std::fs::create_dir_all(stale.join("x")).unwrap();
    common::ok(repo.path(), &["build", ".", "--out", out.path().to_str().unwrap()]);
    // Nothing temporary is left in the output directory: the published link and the one generation it names (the
    // rebuild was identical, so it kept the same generation), beside the incremental build cache.
    let mut names: Vec<String> = std::fs::read_dir(out.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != ".cache")
        .collect();
    names.sort();
    let link = std::fs::read_link(out.path().join("bad-design@1.2.3")).unwrap();
    assert_eq!(names, [link.to_string_lossy().into_owned(), "bad-design@1.2.3".to_string()]);
    assert!(names[0].starts_with(".bad-design@1.2.3.gen-"), "{names:?}");
}

#[test]
fn a_repository_with_nothing_usable_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "README.md", b"# nothing here\n");
    let err = common::fails(dir.path(), &["build", "."]);
    assert!(err.contains("no component found: no layout recognised"), "{err}");
    assert!(err.contains("found: 1 files, 1 Markdown/MDX documents (most in . (1)), 0 source files"), "{err}");
    let err = common::fails(dir.path(), &["build", "missing-dir"]);
    assert!(err.contains("missing-dir: not a directory"), "{err}");
    let err = common::fails(dir.path(), &["build", ".", "--preset", "nope"]);
    assert!(err.contains("unknown preset `nope`; the presets are: default, semi, blueprint"), "{err}");
}

fn small_set() -> (tempfile::TempDir, tempfile::TempDir, std::path::PathBuf) {
    let repo = tempfile::tempdir().unwrap();
    write(repo.path(), "package.json", br#"{"name": "tiny", "version": "0.1.0"}"#);
    write(repo.path(), "docs/good/index.md", GOOD_DOC.as_bytes());
    write(repo.path(), "src/components/Good/Good.tsx", GOOD_TSX.as_bytes());
    let out = tempfile::tempdir().unwrap();
    let report = common::build_into(repo.path(), "default", out.path());
    (repo, out, report.dir)
}

#[test]
fn damaged_bundles_give_clear_errors_with_exit_code_2() {
    let (_repo, out, dir) = small_set();
    let o = out.path().to_str().unwrap();
    let bundle = dir.join("good.bundle");
    let good = std::fs::read(&bundle).unwrap();
    assert!(common::ok(out.path(), &["verify", "--bundles", o]).starts_with("ok: tiny 0.1.0 in "));

    // Truncated.
    std::fs::write(&bundle, &good[..good.len() / 2]).unwrap();
    let err = common::fails(out.path(), &["doc", "good", "--bundles", o]);
    assert!(err.contains("good.bundle: truncated (") && err.contains("copy the bundle again or rebuild"), "{err}");

    // One byte of the document frame flipped: found by the frame checksum on read.
    let mut flipped = good.clone();
    flipped[60] ^= 0xff;
    std::fs::write(&bundle, &flipped).unwrap();
    let err = common::fails(out.path(), &["doc", "good", "--bundles", o]);
    assert!(err.contains("checksum mismatch in frame `"), "{err}");
    let err = common::fails(out.path(), &["verify", "--bundles", o]);
    assert!(err.contains("checksum mismatch in whole file"), "{err}");

    // Not a bundle at all.
    std::fs::write(&bundle, b"hello").unwrap();
    let err = common::fails(out.path(), &["files", "good", "--bundles", o]);
    assert!(err.contains("not a mydesign-docs bundle (bad magic); rebuild with `mydesign-docs build`"), "{err}");

    // A damaged manifest.
    std::fs::write(dir.join("manifest.bundle"), b"").unwrap();
    let err = common::fails(out.path(), &["components", "--bundles", o]);
    assert!(err.contains("manifest.bundle: not a mydesign-docs bundle"), "{err}");
}

#[test]
fn lookups_of_unknown_things_name_what_exists() {
    let (_repo, out, _) = small_set();
    let o = out.path().to_str().unwrap();
    let err = common::fails(out.path(), &["doc", "godo", "--bundles", o]);
    assert!(err.contains("unknown component `godo` in tiny 0.1.0; did you mean: good?"), "{err}");
    let err = common::fails(out.path(), &["code-block", "good", "2", "--bundles", o]);
    assert!(err.contains("code block 2 is out of range: `good` (en-US) has code blocks 1..1"), "{err}");
    let err = common::fails(out.path(), &["doc", "good", "--lang", "fr-FR", "--bundles", o]);
    assert!(err.contains("component `good` has no fr-FR document; available: en-US"), "{err}");
    let err = common::fails(out.path(), &["function", "src/components/Good/Good.tsx", "Bad", "--bundles", o]);
    assert!(err.contains("no function `Bad` in `src/components/Good/Good.tsx`; did you mean: Good?"), "{err}");
    let err = common::fails(out.path(), &["file", "../../../etc/passwd", "--bundles", o]);
    assert!(err.contains("no file `../../../etc/passwd` in tiny 0.1.0"), "{err}");
    let err = common::fails(out.path(), &["changelog", "--bundles", o]);
    assert!(err.contains("no en-US changelog in tiny 0.1.0"), "{err}");
    let err = common::fails(out.path(), &["components", "--bundles", o, "--version", "9.9.9"]);
    assert!(err.contains("version 9.9.9 of tiny is not in"), "{err}");
    let err = common::fails(out.path(), &["components", "--bundles", "/nonexistent"]);
    assert!(err.contains("error: /nonexistent does not exist: --bundles takes a directory of bundle sets"), "{err}");
}

#[test]
fn builds_are_byte_identical_whatever_the_thread_count() {
    let (repo, _, _) = small_set();
    let trees: Vec<_> = ["1", "2", "4"]
        .iter()
        .map(|threads| {
            let out = tempfile::tempdir().unwrap();
            let status = std::process::Command::new(env!("CARGO_BIN_EXE_mydesign-docs"))
                .args(["build", ".", "--out", out.path().to_str().unwrap()])
                .current_dir(repo.path())
                .env("RAYON_NUM_THREADS", threads)
                .output()
                .unwrap();
            assert!(status.status.success());
            common::tree_bytes(out.path())
        })
        .collect();
    assert!(!trees[0].is_empty());
    assert_eq!(trees[0], trees[1]);
    assert_eq!(trees[0], trees[2]);
}

/// A set of two components (`good`, `tag`) built with `encoding` under the package name `name`.
fn two_component_set(name: &str, encoding: &str) -> (tempfile::TempDir, tempfile::TempDir, std::path::PathBuf) {
    let repo = tempfile::tempdir().unwrap();
    let r = repo.path();
    write(r, "package.json", format!(r#"{{"name": "{name}", "version": "0.1.0"}}"#).as_bytes());
    write(r, "docs/good/index.md", GOOD_DOC.as_bytes());
    write(r, "docs/tag/index.md", b"---\ntitle: Tag\nbrief: A tag.\n---\n\n## Usage\n\nTags label things.\n");
    let out = tempfile::tempdir().unwrap();
    let mut config = mydesign_docs::config::Config::preset("default").unwrap();
    config.encoding = encoding.to_string();
    let options = mydesign_docs::compile::BuildOptions {
        repo: r.to_path_buf(),
        out: out.path().to_path_buf(),
        config,
        progress: false,
    };
    let report = mydesign_docs::compile::build(&options).unwrap();
    (repo, out, report.dir)
}

#[test]
fn swapped_or_foreign_bundles_are_errors_naming_both_sides() {
    let (_repo, out, dir) = two_component_set("tiny", "o200k_base");
    let o = out.path().to_str().unwrap();
    let good = std::fs::read(dir.join("good.bundle")).unwrap();
    let tag = std::fs::read(dir.join("tag.bundle")).unwrap();
    let manifest = std::fs::read(dir.join("manifest.bundle")).unwrap();
    assert!(common::ok(out.path(), &["doc", "good", "--bundles", o]).contains("Good"));

    // Swapped component bundles: each names the other.
    std::fs::write(dir.join("good.bundle"), &tag).unwrap();
    std::fs::write(dir.join("tag.bundle"), &good).unwrap();
    let err = common::fails(out.path(), &["doc", "good", "--bundles", o]);
    assert!(
        err.contains("good.bundle: this bundle is component `tag`, but the manifest expects component `good`"),
        "{err}"
    );
    assert!(err.contains("copy the whole set again or rebuild"), "{err}");
    std::fs::write(dir.join("good.bundle"), &good).unwrap();
    std::fs::write(dir.join("tag.bundle"), &tag).unwrap();

    // Another system's manifest over this set's bundles.
    let (_r2, _o2, other) = two_component_set("other", "o200k_base");
    std::fs::copy(other.join("manifest.bundle"), dir.join("manifest.bundle")).unwrap();
    let err = common::fails(out.path(), &["doc", "good", "--bundles", o]);
    assert!(err.contains("good.bundle: this bundle is system tiny, but the manifest expects system other"), "{err}");
    std::fs::write(dir.join("manifest.bundle"), &manifest).unwrap();

    // A bundle counted with cl100k under an o200k manifest.
    let (_r3, _o3, cl100k) = two_component_set("tiny", "cl100k_base");
    std::fs::copy(cl100k.join("good.bundle"), dir.join("good.bundle")).unwrap();
    let err = common::fails(out.path(), &["doc", "good", "--bundles", o]);
    assert!(
        err.contains("good.bundle: this bundle is encoding cl100k_base, but the manifest expects encoding o200k_base"),
        "{err}"
    );

    // Same component, same encoding, another build (the document changed): found by the size and header checksum
    // the manifest records (format 7: only the manifest carries the build id).
    let (r4, _o4, _) = two_component_set("tiny", "o200k_base");
    write(r4.path(), "docs/good/index.md", format!("{GOOD_DOC}\nOne more line.\n").as_bytes());
    let o5 = tempfile::tempdir().unwrap();
    let rebuilt = common::build_into(r4.path(), "default", o5.path());
    std::fs::copy(rebuilt.dir.join("good.bundle"), dir.join("good.bundle")).unwrap();
    let err = common::fails(out.path(), &["doc", "good", "--bundles", o]);
    assert!(
        err.contains("good.bundle: this bundle is ")
            && (err.contains(" bytes, but the manifest expects ") || err.contains("header checksum")),
        "{err}"
    );

    // Same bundle, grown by one byte at the end: the size the manifest records.
    let mut grown = good.clone();
    grown.push(0);
    std::fs::write(dir.join("good.bundle"), &grown).unwrap();
    let err = common::fails(out.path(), &["doc", "good", "--bundles", o]);
    assert!(
        err.contains(&format!(
            "this bundle is {} bytes, but the manifest expects {} bytes",
            good.len() + 1,
            good.len()
        )),
        "{err}"
    );
    std::fs::write(dir.join("good.bundle"), &good).unwrap();
    assert!(common::ok(out.path(), &["doc", "good", "--bundles", o]).contains("Good"));
}

/// Issue 13, items 7 and 9: a 239-character folder name builds (its bundle and temporary names are hashed), and a
/// document in a folder that cannot name a component (`a..b`) is a warning with its path, not a silent drop.
#[test]
fn long_and_unusable_folder_names_build_or_warn() {
    let repo = tempfile::tempdir().unwrap();
    let r = repo.path();
    let long = "x".repeat(239);
    write(r, "package.json", br#"{"name": "names", "version": "1.0.0"}"#);
    write(r, "docs/good/index.md", GOOD_DOC.as_bytes());
    write(r, &format!("docs/{long}/index.md"), GOOD_DOC.as_bytes());
    write(r, "docs/a..b/index.md", GOOD_DOC.as_bytes());
    let out = tempfile::tempdir().unwrap();
    let report = common::build_into(r, "default", out.path());
    let shown: Vec<String> = report.diagnostics.iter().map(|d| d.to_string()).collect();
    assert!(
        shown
            .iter()
            .any(|d| d.starts_with("layout: docs/a..b/index.md: document skipped: `a..b` cannot be a component name")),
        "{shown:#?}"
    );
    let o = out.path().to_str().unwrap();
    let listed = common::ok(out.path(), &["components", "--bundles", o]);
    assert!(listed.contains(&long) && listed.contains("good"), "{listed}");
    assert!(common::ok(out.path(), &["doc", &long, "--bundles", o]).contains("Good"));
}

/// Issue 13, item 8: build time was quadratic in arrow-function nesting (depth 20k took 109 s): tree-sitter's
/// `Node::parent` walks down from the root, and the props pass asked it for every function. Depth 20,000 (a
/// 0.5 MB file) builds and the file is still indexed. Its time is a benchmark figure (`cargo xtask bench`), not a
/// test's: the 30 s bound here only tells the quadratic pass (109 s) from a linear one (~0.5 s) on a loaded machine.
#[test]
fn deeply_nested_functions_build_in_linear_time() {
    let repo = tempfile::tempdir().unwrap();
    let r = repo.path();
    let n = 20_000;
    let mut src = String::from("export const Deep = ");
    for i in 0..n {
        src.push_str(&format!("(a{i}) => {{ return "));
    }
    src.push('0');
    src.push_str(&"; }".repeat(n));
    src.push_str(";\n");
    write(r, "package.json", br#"{"name": "deep", "version": "1.0.0"}"#);
    write(r, "docs/deep/index.md", GOOD_DOC.as_bytes());
    write(r, "src/components/Deep/Deep.tsx", src.as_bytes());
    let out = tempfile::tempdir().unwrap();
    let started = std::time::Instant::now();
    let report = common::build_into(r, "default", out.path());
    let took = started.elapsed();
    eprintln!("depth {n}: {} bytes built in {took:?}", src.len());
    assert!(took < std::time::Duration::from_secs(30), "depth {n} took {took:?}: quadratic again?");
    let stats = &report.manifest.stats;
    assert_eq!((stats.files, stats.sources), (1, 1), "{stats:?}");
}

/// Rewrites the set's manifest with `edit` applied (same identity, so only the edited field differs).
fn rewrite_manifest(dir: &Path, edit: impl FnOnce(&mut mydesign_docs::model::Manifest)) {
    use mydesign_docs::bundle::Bundle;
    use mydesign_docs::bundle::writer::BundleWriter;
    let path = dir.join("manifest.bundle");
    let old = Bundle::open(&path).unwrap();
    let mut manifest = mydesign_docs::bundle::reader::read_manifest(&old).unwrap();
    edit(&mut manifest);
    let mut w = BundleWriter::new();
    w.identify(old.identity().clone());
    w.add_manifest(&manifest).unwrap();
    drop(old);
    std::fs::write(&path, w.into_bytes().unwrap()).unwrap();
}

#[test]
fn a_manifest_cut_by_an_unknown_rule_is_refused_naming_the_rule() {
    let (_repo, out, dir) = two_component_set("tiny", "o200k_base");
    let o = out.path().to_str().unwrap();
    // What the compiler writes: the rule this reader knows.
    let set = BundleSet::open(&dir).unwrap();
    assert_eq!(set.head().cut_rule, mydesign_docs::bundle::format::CUT_RULE);
    assert_eq!(mydesign_docs::bundle::format::CUT_RULE, 1);
    drop(set);
    // The rewrite itself keeps the set readable (rule 1 again)...
    rewrite_manifest(&dir, |m| m.cut_rule = 1);
    assert!(common::ok(out.path(), &["doc", "good", "--bundles", o]).contains("Good"));
    // ...and a newer writer's rule 2 is refused with the rule named, for lookups and verify alike.
    rewrite_manifest(&dir, |m| m.cut_rule = 2);
    for args in [&["doc", "good", "--bundles", o][..], &["verify", "--bundles", o]] {
        let err = common::fails(out.path(), args);
        assert!(
            err.contains(
                "manifest.bundle: token counts were stored for cut rule 2, this reader knows rule 1: it was written by \
                 a newer mydesign-docs; upgrade mydesign-docs or rebuild with this version"
            ),
            "{args:?}: {err}"
        );
    }
}

/// A component bundle missing from the published generation (a set copied incompletely; or the generation removed
/// by two rebuilds while the lookup ran, when the lookup runs once more): the lookup fails once, naming the file and
/// what to do, as text and as JSON.
#[test]
fn a_missing_component_bundle_is_named_with_what_to_do() {
    let out = tempfile::tempdir().unwrap();
    let report = common::build_into(&common::root().join("corpus"), "default", out.path());
    let generation = std::fs::canonicalize(&report.dir).unwrap();
    std::fs::remove_file(generation.join("button.bundle")).unwrap();
    let dir = out.path().to_str().unwrap();
    let err = common::fails(out.path(), &["doc", "button", "--bundles", dir]);
    assert_eq!(err.matches("error:").count(), 1, "{err}");
    assert!(err.contains("button.bundle: No such file or directory"), "{err}");
    assert!(err.contains("the bundle set is incomplete or unreadable, copy it again or rebuild"), "{err}");
    let out_json = common::run(out.path(), &["doc", "button", "--json", "--bundles", dir]);
    assert_eq!(out_json.status.code(), Some(2));
    let v: serde_json::Value = serde_json::from_slice(&out_json.stdout).unwrap();
    assert!(v["error"].as_str().unwrap().contains("button.bundle: No such file or directory"), "{v}");
    // The other components still answer.
    assert!(common::ok(out.path(), &["doc", "table", "--bundles", dir]).contains("table"));
}
