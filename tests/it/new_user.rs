//! Edges a new user met (the `edges` trial): a UTF-8 BOM, dumi's `Props` headings, demo blocks fenced, `verify`
//! and `--bundles` on directories that hold no usable set, `install` errors naming the source, numeric arguments
//! out of range, unused Markdown reported. Small inputs written here; the real antd-mobile facts are in
//! `real_dumi.rs`.

use crate::common;

use std::path::Path;

use mydesign_docs::read::{BundleSet, Detail, Paging};

fn write(root: &Path, rel: &str, text: &str) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

const BOM: &str = "\u{feff}";

#[test]
fn a_bom_is_stripped_from_documents_sources_and_changelogs_with_line_numbers_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let r = dir.path();
    write(r, "package.json", &format!("{BOM}{{\"name\": \"bom-sys\", \"version\": \"1.2.3\"}}"));
    write(r, "docs/tag/index.md", &format!("{BOM}# Tag\n\nA tag.\n\n## Usage\n\n```tsx\n<Tag />\n```\n"));
    write(r, "src/components/tag/index.tsx", &format!("{BOM}export function tag() {{\n  return 1;\n}}\n"));
    write(r, "CHANGELOG.md", &format!("{BOM}# Changelog\n\n## 1.2.3\n\n- Tag: fixed.\n"));
    let out = tempfile::tempdir().unwrap();
    let report = common::build_into(r, "default", out.path());
    let set = BundleSet::open(&report.dir).unwrap();
    // package.json with a BOM still gives the name and version.
    assert_eq!((set.head().system.as_str(), set.head().version.as_str()), ("bom-sys", "1.2.3"));
    let doc = set.doc("tag", None, Detail::Full, &[], Paging::unlimited()).unwrap();
    assert_eq!(doc.text, "# Tag\n\nA tag.\n\n## Usage\n\n```tsx\n<Tag />\n```\n");
    // The H1 is a heading (with the BOM it was the text of a paragraph), on line 1 as in the file.
    assert_eq!(doc.title.as_deref(), Some("Tag"));
    assert_eq!(doc.lines, 10);
    let usage = set.doc("tag", None, Detail::Full, &["Usage".into()], Paging::unlimited()).unwrap();
    assert_eq!(usage.part.lines, (5, 9));
    let block = set.code_block("tag", 1, None, Paging::unlimited()).unwrap();
    assert_eq!((block.block.start_line, block.block.end_line), (7, 9));
    let file = set.file("src/components/tag/index.tsx", false, None, Paging::unlimited()).unwrap();
    assert_eq!(file.part.text, "export function tag() {\n  return 1;\n}\n");
    assert_eq!((file.file.lines, file.file.bytes), (4, 38));
    let line1 = set.file("src/components/tag/index.tsx", false, Some((1, 1)), Paging::unlimited()).unwrap();
    assert_eq!(line1.part.text, "export function tag() {\n");
    let function = set.function("src/components/tag/index.tsx", "tag", Paging::unlimited()).unwrap();
    assert_eq!(function.text, "export function tag() {\n  return 1;\n}");
    let page = set.changelog(None, None, Paging::unlimited()).unwrap();
    assert!(page.text.starts_with("# Changelog\n"), "{:?}", page.text);
}

/// Copies the files of the set `from` (through its generation link) into `to`, leaving out `skip`.
fn copy_set(from: &Path, to: &Path, skip: &str) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        if e.file_name() != skip {
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
}

#[test]
fn verify_reports_a_set_without_its_manifest_alone_or_beside_a_good_one() {
    let sample = &common::sample().report.dir;
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    // Alone: the directory holds one set, half-copied (no manifest.bundle).
    copy_set(sample, &t.join("only/my-design@3.4.0"), "manifest.bundle");
    let err = common::fails(t, &["verify", "--bundles", "only"]);
    assert_eq!(
        err,
        "error: only/my-design@3.4.0 is a damaged bundle set: its manifest.bundle is missing (copy the whole set \
         again, or rebuild it)\n"
    );
    // Beside a good set: the good one is verified, the broken one named, exit 2.
    copy_set(sample, &t.join("both/my-design@3.4.0"), "");
    copy_set(sample, &t.join("both/my-design@3.5.0"), "manifest.bundle");
    let err = common::fails(t, &["verify", "--bundles", "both"]);
    assert!(
        err.starts_with(
            "error: 1 of the bundle sets in both do not open (the default version skips them):\n  bundle set \
             my-design 3.5.0 in both/my-design@3.5.0 is damaged: its manifest.bundle is missing; rebuild it\n"
        ),
        "{err}"
    );
    // A set link whose generation was removed.
    copy_set(sample, &t.join("linked/my-design@3.4.0"), "");
    std::os::unix::fs::symlink(t.join("gone"), t.join("linked/my-design@3.6.0")).unwrap();
    let err = common::fails(t, &["verify", "--bundles", "linked"]);
    assert!(
        err.contains(&format!(
            "bundle set my-design 3.6.0 in linked/my-design@3.6.0 is damaged: it is a link to {}, which does not \
             exist",
            t.join("gone").display()
        )),
        "{err}"
    );
    // The good set alone verifies; a pack file beside it is not a set.
    std::fs::write(t.join("both/my-design@3.4.0.tar.zst"), b"not looked at").unwrap();
    std::fs::remove_dir_all(t.join("both/my-design@3.5.0")).unwrap();
    let out = common::ok(t, &["verify", "--bundles", "both"]);
    assert!(out.starts_with("ok: my-design 3.4.0 in both/my-design@3.4.0: "), "{out}");
}

#[test]
fn bundles_that_hold_no_set_say_what_they_are_and_what_to_do() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    std::fs::create_dir(t.join("empty")).unwrap();
    std::fs::write(t.join("notes.txt"), "x").unwrap();
    std::fs::write(t.join("semi@2.0.0.tar.zst"), "x").unwrap();
    let err = |dir: &str| common::fails(t, &["components", "--bundles", dir]);
    assert_eq!(
        err("missing"),
        "error: missing does not exist: --bundles takes a directory of bundle sets (out/ of `mydesign-docs build`, \
         holding <system>@<version>/) or one set\n"
    );
    assert_eq!(
        err("notes.txt"),
        "error: notes.txt is a file, not a directory: --bundles takes a directory of bundle sets (out/ of \
         `mydesign-docs build`, holding <system>@<version>/) or one set\n"
    );
    assert_eq!(
        err("semi@2.0.0.tar.zst"),
        "error: semi@2.0.0.tar.zst is a pack file, not a directory: install it with `mydesign-docs install \
         semi@2.0.0.tar.zst` (lookups then read the store), or unpack it with `mydesign-docs build \
         semi@2.0.0.tar.zst --out DIR`\n"
    );
    assert_eq!(
        err("empty"),
        "error: no bundle sets in empty (a set is a <system>@<version>/ directory holding manifest.bundle): build \
         one with `mydesign-docs build REPO --out empty`\n"
    );
    // The same words from `serve`, and from `install` of a directory that holds no set.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_mydesign-docs"))
        .args(["serve", "--bundles", "empty"])
        .current_dir(t)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let serve_err = String::from_utf8_lossy(&out.stderr);
    assert!(serve_err.contains("no bundle sets in empty (a set is a <system>@<version>/"), "{serve_err}");
    let err = common::fails(t, &["install", "empty", "--store", "store"]);
    assert!(err.starts_with("error: no bundle sets in empty"), "{err}");
}

#[test]
fn install_names_the_damaged_bundle_in_the_directory_given_not_a_temporary_path() {
    let sample = &common::sample().report.dir;
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    copy_set(sample, &t.join("copy/my-design@3.4.0"), "");
    let bundle = t.join("copy/my-design@3.4.0/button.bundle");
    let mut bytes = std::fs::read(&bundle).unwrap();
    let at = bytes.len() - 10;
    bytes[at] ^= 0x40;
    std::fs::write(&bundle, bytes).unwrap();
    // The set as the user spelled it (a trailing `/` dropped).
    for (given, set) in [
        ("copy", "copy/my-design@3.4.0"),
        ("copy/my-design@3.4.0", "copy/my-design@3.4.0"),
        ("./copy/my-design@3.4.0/", "./copy/my-design@3.4.0"),
    ] {
        let err = common::fails(t, &["install", given, "--store", "store"]);
        assert_eq!(
            err,
            format!(
                "error: {set}/button.bundle: checksum mismatch in whole file; the file is damaged, copy it again or \
                 rebuild; nothing was installed from {set} (the store is unchanged)\n"
            ),
            "install {given}"
        );
    }
    assert!(!t.join("store/my-design@3.4.0").exists());
}

#[test]
fn numeric_arguments_out_of_range_state_their_range() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let huge = "99999999999999999999999";
    let cases: [(&[&str], &str, &str); 9] = [
        (
            &["doc", "x", "--max-tokens", huge],
            "number too large",
            "--max-tokens takes a whole number from 300 to 4294967295",
        ),
        (
            &["doc", "x", "--max-tokens", "120"],
            "120 is not in 300..=4294967295",
            "--max-tokens takes a whole number from 300",
        ),
        (&["code-block", "x", "0"], "0 is not in 1..=4294967295", "<INDEX> takes a whole number from 1 to 4294967295"),
        (&["code-block", "x", huge], "number too large", "<INDEX> takes a whole number from 1 to 4294967295"),
        (&["changelog", "--page", huge], "number too large", "--page takes a whole number from 1 to 4294967295"),
        (
            &["file", "x", "--start-line", "0"],
            "0 is not in 1..=",
            "--start-line takes a whole number from 1 to 4294967295",
        ),
        (
            &["file", "x", "--end-line", huge],
            "number too large",
            "--end-line takes a whole number from 1 to 4294967295",
        ),
        (
            &["serve", "--max-tokens", huge],
            "number too large",
            "--max-tokens takes a whole number from 300 to 4294967295",
        ),
        (
            &["serve", "--http", "0", "--session-idle-secs", huge],
            "number too large",
            "--session-idle-secs takes a whole number from 1 to 4294967295",
        ),
    ];
    for (args, why, tip) in cases {
        let err = common::fails(t, args);
        assert!(err.contains(why) && err.contains(&format!("tip: {tip}")), "{args:?}: {err}");
    }
}

#[test]
fn mcp_integer_arguments_state_their_range() {
    let sample = common::sample().report.dir.to_str().unwrap().to_string();
    let mut c = crate::mcp::mcp_stdio::StdioClient::start(&["--bundles", &sample]);
    let text = |r: &serde_json::Value| r["result"]["content"][0]["text"].as_str().unwrap_or_default().to_string();
    let cases = [
        (
            "get_file_code",
            serde_json::json!({"path": "x", "start_line": 0}),
            "invalid argument `start_line`: expected an integer from 1 to 4294967295; got 0",
        ),
        (
            "get_file_code",
            serde_json::json!({"path": "x", "end_line": 1e24}),
            "invalid argument `end_line`: expected an integer from 1 to 4294967295 (Inclusive); got 1e+24",
        ),
        (
            "get_code_block",
            serde_json::json!({"component": "button", "index": 99_999_999_999u64}),
            "invalid argument `index`: expected an integer from 1 to 4294967295",
        ),
        (
            "component_details",
            serde_json::json!({"component": "button", "max_tokens": 5}),
            "invalid argument `max_tokens`: expected an integer from 300 to 4294967295; got 5",
        ),
    ];
    for (tool, args, want) in cases {
        let r = c.call(tool, args.clone());
        assert_eq!(r["result"]["isError"], true, "{tool} {args}: {r}");
        assert!(text(&r).contains(want), "{tool} {args}: {}", text(&r));
    }
}

#[test]
fn markdown_no_rule_takes_is_a_note_per_folder_and_a_summary_line() {
    let dir = tempfile::tempdir().unwrap();
    let r = dir.path();
    write(r, "package.json", r#"{"name": "guides", "version": "1.0.0"}"#);
    write(r, "README.md", "# Guides\n");
    write(r, "docs/tag/index.md", "# Tag\n\n<code src=\"./demo/basic.tsx\"></code>\n");
    write(r, "docs/tag/demo/basic.tsx", "export default () => null;\n");
    write(r, "docs/tag/demo/basic.md", "The basic tag.\n");
    for name in ["install", "theming", "faq", "migrate", "ssr", "i18n"] {
        write(r, &format!("docs/guide/{name}.md"), &format!("# {name}\n"));
    }
    let out = tempfile::tempdir().unwrap();
    let report = common::build_into(r, "default", out.path());
    let notes: Vec<String> = report
        .diagnostics
        .iter()
        .filter(|d| mydesign_docs::compile::layout::unread_markdown_count(d).is_some())
        .map(|d| d.to_string())
        .collect();
    assert_eq!(
        notes,
        [
            "layout: ./: 1 Markdown file not used: no [[docs]] rule, changelog or source pattern takes them \
             (README.md); a [[docs]] rule serves them as documents (docs/config.md)",
            "layout: docs/guide/: 6 Markdown files not used: no [[docs]] rule, changelog or source pattern takes them \
             (faq.md, i18n.md, install.md, migrate.md, … (2 more)); a [[docs]] rule serves them as documents \
             (docs/config.md)",
        ]
    );
    // The build summary counts them without --verbose.
    let o = out.path().join("cli");
    let summary = common::ok(r, &["build", ".", "--preset", "default", "--out", o.to_str().unwrap(), "--no-cache"]);
    assert!(summary.contains("\n  Markdown not used: 7 files (./ 1, docs/guide/ 6)\n"), "{summary}");
}

#[test]
fn demo_files_are_fenced_longer_than_any_backtick_run_inside() {
    let dir = tempfile::tempdir().unwrap();
    let r = dir.path();
    write(r, "package.json", r#"{"name": "fences", "version": "1.0.0"}"#);
    write(r, "docs/md/index.md", "# Md\n\n<code src=\"./demo/a.tsx\"></code>\n\n<code src=\"./demo/b.jsx\"></code>\n");
    // A demo whose template literal holds a Markdown fence, and one without a final newline.
    let a = "const md = `\n```js\nx\n```\n`;\nexport default () => md;\n";
    write(r, "docs/md/demo/a.tsx", a);
    write(r, "docs/md/demo/b.jsx", "export default () => null;");
    let out = tempfile::tempdir().unwrap();
    let report = common::build_into(r, "default", out.path());
    let set = BundleSet::open(&report.dir).unwrap();
    let a_block = set.code_block("md", 1, None, Paging::unlimited()).unwrap();
    assert_eq!(a_block.text, format!("````tsx\n{a}````"));
    let b_block = set.code_block("md", 2, None, Paging::unlimited()).unwrap();
    assert_eq!(b_block.text, "```jsx\nexport default () => null;\n```");
    assert_eq!(b_block.block.lang, "jsx");
}

#[test]
fn a_props_heading_under_no_heading_is_named_by_its_path() {
    let dir = tempfile::tempdir().unwrap();
    let r = dir.path();
    write(r, "package.json", r#"{"name": "bare", "version": "1.0.0"}"#);
    let doc = "## Props\n\nSee below.\n\n| Name | Description | Type | Default |\n| --- | --- | --- | --- |\n| size | How big. \
               | `number` | `1` |\n\n## Usage\n\nUse it.\n";
    write(r, "docs/dot/index.md", doc);
    let out = tempfile::tempdir().unwrap();
    let report = common::build_into(r, "default", out.path());
    let set = BundleSet::open(&report.dir).unwrap();
    let card = set.card("dot", None, Paging::unlimited()).unwrap();
    assert!(card.text.contains("(section \"props\"; the heading: section \" › Props\")"), "{}", card.text);
    let one = |s: &str| set.details("dot", None, None, &[s.to_string()], Paging::unlimited()).unwrap();
    assert!(matches!(one("props"), mydesign_docs::read::DetailsView::Props(_)));
    let mydesign_docs::read::DetailsView::Doc(d) = one("› Props") else { panic!("the heading") };
    assert_eq!(
        d.text,
        "## Props\n\nSee below.\n\n| Name | Description | Type | Default |\n| --- | --- | --- | --- |\n| size | How big. | `number` | `1` |\n\n"
    );
    // The CLI says the same.
    let o = report.dir.to_str().unwrap();
    let text = common::ok(r, &["doc", "dot", "--section", "› Props", "--bundles", o]);
    assert!(text.contains("sections: Props · ") && text.contains("\nSee below.\n"), "{text}");
    assert!(!text.contains("## Usage"), "{text}");
}

#[test]
fn install_names_a_built_set_by_its_link_not_its_generation() {
    // `out/` as `build` writes it: `my-design@3.4.0` is a link to `.my-design@3.4.0.gen-<id>/`.
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let report = common::build_into(&common::root().join("corpus"), "default", &t.join("out"));
    let manifest = report.dir.join("manifest.bundle");
    let mut bytes = std::fs::read(&manifest).unwrap();
    bytes[8..10].copy_from_slice(&7u16.to_le_bytes());
    std::fs::write(&manifest, bytes).unwrap();
    let err = common::fails(t, &["install", "out", "--store", "store"]);
    use mydesign_docs::bundle::format::{FORMAT_VERSION, OLDEST_SUPPORTED};
    assert_eq!(
        err,
        format!(
            "error: out/my-design@3.4.0/manifest.bundle: bundle format 7 is not supported (this reader supports \
             {OLDEST_SUPPORTED}..={FORMAT_VERSION}); rebuild with this version of mydesign-docs; nothing was installed \
             from out/my-design@3.4.0 (the store is unchanged)\n"
        )
    );
}

/// A new user's trial: `install DIR` with a good set and a damaged one installed the good one, then said of the
/// damaged one "nothing was installed … (the store is unchanged)". Every set is verified first: the store stays
/// as it was, as the message says.
#[test]
fn install_of_a_directory_with_one_damaged_set_installs_none() {
    let (versions, _) = crate::release::two_versions();
    let t = tempfile::tempdir().unwrap();
    let t = t.path();
    copy_set(&common::sample().report.dir, &t.join("both/my-design@3.4.0"), "");
    copy_set(&versions.join("built/my-design@3.5.0"), &t.join("both/my-design@3.5.0"), "");
    let bundle = t.join("both/my-design@3.5.0/button.bundle");
    let len = std::fs::metadata(&bundle).unwrap().len();
    std::fs::OpenOptions::new().write(true).open(&bundle).unwrap().set_len(len / 2).unwrap();
    let err = common::fails(t, &["install", "both", "--store", "store"]);
    assert!(err.contains("both/my-design@3.5.0") && err.contains("the store is unchanged"), "{err}");
    let installed: Vec<_> = std::fs::read_dir(t.join("store"))
        .map(|d| {
            d.filter_map(Result::ok).map(|e| e.file_name()).filter(|n| !n.to_string_lossy().starts_with('.')).collect()
        })
        .unwrap_or_default();
    assert!(installed.is_empty(), "installed: {installed:?}");
}

/// Several systems in `out/` and no `--system`: the one the current directory's `package.json` depends on answers,
/// and stderr says so and names the others; without such a dependency the error lists the systems (issue 31).
#[test]
fn the_project_names_the_default_system_among_several() {
    let tmp = tempfile::tempdir().unwrap();
    common::copy_tree(&common::root().join("corpus"), &tmp.path().join("mine"));
    common::copy_tree(&common::root().join("corpus"), &tmp.path().join("other"));
    let package = tmp.path().join("other/package.json");
    let text = std::fs::read_to_string(&package).unwrap();
    std::fs::write(&package, text.replace("\"my-design\"", "\"@acme/other-design\"")).unwrap();
    for repo in ["mine", "other"] {
        common::ok(tmp.path(), &["build", repo, "--out", "out"]);
    }
    let app = tmp.path().join("app");
    std::fs::create_dir_all(&app).unwrap();
    let bundles = tmp.path().join("out");
    let args = ["doc", "button", "--detail", "brief", "--bundles", bundles.to_str().unwrap()];
    let unnamed = common::run(&app, &args);
    assert_eq!(unnamed.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&unnamed.stderr);
    assert!(stderr.contains("holds several systems (acme-other-design, my-design)"), "{stderr}");
    write(&app, "package.json", r#"{"name": "app", "dependencies": {"@acme/other-design": "^3.4.0", "react": "18"}}"#);
    let named = common::run(&app, &args);
    let (stdout, stderr) = (String::from_utf8_lossy(&named.stdout), String::from_utf8_lossy(&named.stderr));
    assert!(named.status.success(), "{stderr}");
    assert!(stdout.starts_with("[acme-other-design 3.4.0 · button card"), "{stdout}");
    assert_eq!(
        stderr.trim_end(),
        "note: serving acme-other-design: ./package.json depends on @acme/other-design (--system chooses another: \
         my-design)"
    );
}
