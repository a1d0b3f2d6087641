//! Edges of the promise (issue 10): code blocks served as code, MDX fences, unclosed front matter, version order and
//! damaged sets, shell-quoted continuation commands, ambiguous sections, explicit languages, line ranges.

use crate::common;
use crate::common::Tiktoken;

use std::path::Path;

use mydesign_docs::read::{BundleSet, Paging};

fn write(root: &Path, rel: &str, bytes: &[u8]) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, bytes).unwrap();
}

const LIST_DOC: &str =
    "# List\n\n- Style it:\n\n\t```css\n\t.btn { color: red; }\n\t```\n\n> ```js\n> quoted();\n> ```\n";
const CRLF_DOC: &str = "# Crlf\r\n\r\n```js\r\na();\r\n```\r\n";
const MDX_DOC: &str = "# Install\n\n<Tabs>\n<Tab label=\"npm\">\n```bash\nnpm i x\n```\n</Tab>\n</Tabs>\n";

/// Builds `repo` with its own `mydesign-docs.toml` into `out`; returns the set's directory.
fn build(repo: &Path, out: &Path) -> std::path::PathBuf {
    build_report(repo, out).dir
}

/// [`build`], returning the whole report.
fn build_report(repo: &Path, out: &Path) -> mydesign_docs::compile::BuildReport {
    let config = mydesign_docs::config::Config::load(repo, None).unwrap();
    let options = mydesign_docs::compile::BuildOptions {
        repo: repo.to_path_buf(),
        out: out.to_path_buf(),
        config,
        progress: false,
    };
    mydesign_docs::compile::build(&options).unwrap()
}

/// A repository whose documents hold the awkward blocks.
fn awkward_repo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let r = dir.path();
    write(r, "package.json", br#"{"name": "edges", "version": "1.0.0"}"#);
    write(
        r,
        "mydesign-docs.toml",
        b"[[docs]]\npattern = \"docs/{component}/index.md\"\nlang = \"en-US\"\n\n\
          [[docs]]\npattern = \"mdx/{component}/index.mdx\"\nlang = \"en-US\"\n",
    );
    write(r, "docs/listy/index.md", LIST_DOC.as_bytes());
    write(r, "docs/crlf/index.md", CRLF_DOC.as_bytes());
    write(r, "docs/tabsmd/index.md", MDX_DOC.as_bytes());
    write(r, "mdx/tabsmdx/index.mdx", MDX_DOC.as_bytes());
    write(r, "docs/front/index.md", b"---\ntitle: Never closed\n\n# Front\n\n```js\nf();\n```\n");
    dir
}

#[test]
fn code_blocks_are_served_as_code_and_counted_as_served() {
    let repo = awkward_repo();
    let out = tempfile::tempdir().unwrap();
    let set = BundleSet::open(&build(repo.path(), out.path())).unwrap();
    let block = |c: &str, i: u32| set.code_block(c, i, None, Paging::unlimited()).unwrap();

    let css = block("listy", 1);
    assert_eq!(css.text, "```css\n.btn { color: red; }\n```");
    assert_eq!((css.block.start_line, css.block.end_line), (5, 7));
    assert!(css.block.cleaned);
    let bpe = tiktoken_rs::o200k_base().unwrap();
    assert_eq!(css.block.tokens as usize, bpe.encode_ordinary(&css.text).len());
    assert_eq!(block("listy", 2).text, "```js\nquoted();\n```");
    let crlf = block("crlf", 1);
    assert_eq!(crlf.text, "```js\na();\n```");
    assert_eq!((crlf.block.start_line, crlf.block.end_line), (3, 5));
    // The document itself is still the raw source.
    let doc = set.doc("listy", None, mydesign_docs::read::Detail::Normal, &[], Paging::unlimited()).unwrap();
    assert_eq!(doc.text, LIST_DOC);
}

#[test]
fn mdx_fences_after_jsx_lines_are_code_blocks_and_md_keeps_commonmark() {
    let repo = awkward_repo();
    let out = tempfile::tempdir().unwrap();
    let set = BundleSet::open(&build(repo.path(), out.path())).unwrap();
    let mdx = set.code_block("tabsmdx", 1, None, Paging::unlimited()).unwrap();
    assert_eq!((mdx.count, mdx.text.as_str()), (1, "```bash\nnpm i x\n```"));
    // The same text in a .md document: `<Tabs>` opens an HTML block up to the blank line (CommonMark).
    assert!(set.code_block("tabsmd", 1, None, Paging::unlimited()).is_err());
}

#[test]
fn unclosed_front_matter_is_a_warning_and_the_document_is_served() {
    let repo = awkward_repo();
    let out = tempfile::tempdir().unwrap();
    let o = common::run(repo.path(), &["build", ".", "--out", out.path().to_str().unwrap()]);
    assert!(o.status.success());
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(
        err.contains(
            "warning: markdown: docs/front/index.md:1: front matter opened by `---` on line 1 is never closed"
        ),
        "{err}"
    );
    let set = BundleSet::discover(out.path(), None, None).unwrap();
    let doc = set.doc("front", None, mydesign_docs::read::Detail::Normal, &[], Paging::unlimited()).unwrap();
    assert!(doc.text.starts_with("---\ntitle: Never closed\n"));
    assert_eq!(doc.code_blocks, 1);
}

/// Builds the same tiny repository at each version into one output directory.
fn versions_dir(versions: &[&str]) -> (tempfile::TempDir, tempfile::TempDir) {
    let repo = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    write(repo.path(), "docs/good/index.md", b"# Good\n\n```js\ngood();\n```\n");
    for v in versions {
        let pkg = format!(r#"{{"name": "vers", "version": "{v}"}}"#);
        write(repo.path(), "package.json", pkg.as_bytes());
        common::build_into(repo.path(), "default", out.path());
    }
    (repo, out)
}

#[test]
fn prereleases_order_below_their_release() {
    let (_repo, out) = versions_dir(&["2.0.0", "2.0.0-beta.1", "1.9.0"]);
    let set = BundleSet::discover(out.path(), None, None).unwrap();
    assert_eq!(set.head().version, "2.0.0");
    let lib = mydesign_docs::read::Library::scan(&[out.path().to_path_buf()]).unwrap();
    assert_eq!(lib.systems(), [("vers".to_string(), vec!["1.9.0".into(), "2.0.0-beta.1".into(), "2.0.0".into()])]);
}

/// Trial 4: an old set of another system beside a good one (`--bundles old --bundles good`) made every lookup
/// without `--system` fail with "holds several systems"; a system none of whose sets opens leaves no choice.
#[test]
fn a_system_whose_sets_do_not_open_does_not_make_the_system_ambiguous() {
    let (repo, out) = versions_dir(&["1.0.0"]);
    let good = tempfile::tempdir().unwrap();
    let sample = common::build_into(&common::root().join("corpus"), "default", good.path()).dir;
    let manifest = out.path().join("vers@1.0.0/manifest.bundle");
    let mut bytes = std::fs::read(&manifest).unwrap();
    bytes[8..10].copy_from_slice(&8u16.to_le_bytes());
    std::fs::write(&manifest, bytes).unwrap();
    let dirs = [out.path().to_path_buf(), good.path().to_path_buf()];
    let lib = mydesign_docs::read::Library::scan(&dirs).unwrap();
    assert_eq!(lib.select(None, None).unwrap().dir(), sample);
    let (o, g) = (out.path().to_str().unwrap(), good.path().to_str().unwrap());
    let run = common::run(repo.path(), &["doc", "button", "--bundles", o, "--bundles", g]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    // The set left out is named (trial 5: it was not, being of another system than the one served).
    let err = String::from_utf8(run.stderr).unwrap();
    assert!(err.starts_with("warning: bundle set vers 1.0.0 in ") && err.contains(" cannot be read: "), "{err}");
    // Two systems that open still need `--system`.
    let both = tempfile::tempdir().unwrap();
    let _ = common::build_into(&common::root().join("corpus"), "default", both.path());
    let (_repo2, out2) = versions_dir(&["1.0.0"]);
    let lib = mydesign_docs::read::Library::scan(&[out2.path().to_path_buf(), both.path().to_path_buf()]).unwrap();
    let err = lib.select(None, None).err().map(|e| e.to_string()).unwrap_or_default();
    assert!(err.contains("holds several systems (my-design, vers)"), "{err}");
}

#[test]
fn a_damaged_newest_set_falls_back_to_the_newest_healthy_one_and_is_reported() {
    let (repo, out) = versions_dir(&["1.0.0", "1.1.0"]);
    let newest = out.path().join("vers@1.1.0/manifest.bundle");
    let mut bytes = std::fs::read(&newest).unwrap();
    let n = bytes.len();
    bytes[n - 3] ^= 0xff;
    std::fs::write(&newest, bytes).unwrap();

    let lib = mydesign_docs::read::Library::scan(&[out.path().to_path_buf()]).unwrap();
    assert_eq!(lib.select(None, None).unwrap().head().version, "1.0.0");
    assert!(lib.select(None, Some("1.1.0")).is_err(), "an explicit damaged version is still an error");
    let damaged = lib.damaged_defaults(None);
    assert_eq!(damaged.len(), 1);
    assert_eq!((damaged[0].version.as_str(), damaged[0].fallback.as_deref()), ("1.1.0", Some("1.0.0")));

    let o = out.path().to_str().unwrap();
    let run = common::run(repo.path(), &["code-block", "good", "1", "--bundles", o]);
    assert!(run.status.success());
    assert_eq!(String::from_utf8(run.stdout).unwrap().matches("good();").count(), 1);
    let err = String::from_utf8(run.stderr).unwrap();
    assert!(err.starts_with("warning: bundle set vers 1.1.0 in "), "{err}");
    assert!(err.contains(" is damaged: ") && err.contains("; serving 1.0.0 by default"), "{err}");
    let err = common::fails(repo.path(), &["verify", "--bundles", o]);
    assert!(err.contains("1 of the bundle sets in ") && err.contains("vers 1.1.0"), "{err}");
}

/// Trial (walk item 3): `serve --bundles dmg --bundles n-am`, both holding the same `system@version` and the copy
/// in `dmg` of an older format: every call failed with "bundle format 8 is not supported", even `search_docs`;
/// reversed, the good copy was served silently. Both orders now serve the good copy and name the one left out.
#[test]
fn a_copy_of_a_version_that_does_not_open_is_left_out_for_a_good_one_in_either_order() {
    use mydesign_docs::read::Library;
    use mydesign_docs::search::query::sets_to_search;
    let corpus = common::root().join("corpus");
    let (dmg, good) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let bad = common::build_into(&corpus, "default", dmg.path()).dir;
    let served = common::build_into(&corpus, "default", good.path()).dir;
    // The manifest's format version (u16 at offset 8) says 8, as a set built by the previous release does.
    let manifest = bad.join("manifest.bundle");
    let mut bytes = std::fs::read(&manifest).unwrap();
    bytes[8..10].copy_from_slice(&8u16.to_le_bytes());
    std::fs::write(&manifest, bytes).unwrap();
    use mydesign_docs::bundle::format::{FORMAT_VERSION, OLDEST_SUPPORTED};
    let why = format!(
        "{}: bundle format 8 is not supported (this reader supports {OLDEST_SUPPORTED}..={FORMAT_VERSION}); rebuild \
         with this version of mydesign-docs",
        bad.canonicalize().unwrap().join("manifest.bundle").display()
    );
    // Cut to the entries' cap, past the copy's path and the reason.
    let skipped = format!("my-design@3.4.0 copy left out: {why}");
    let cap = mydesign_docs::search::query::SKIPPED_CHARS;
    let skipped = if skipped.chars().count() <= cap {
        skipped
    } else {
        format!("{}…", skipped.chars().take(cap - 1).collect::<String>())
    };
    assert!(skipped.contains("manifest.bundle: bundle format 8 is not supported"), "{skipped}");
    let (d, g) = (dmg.path().to_str().unwrap(), good.path().to_str().unwrap());
    for order in [[d, g], [g, d]] {
        let dirs: Vec<std::path::PathBuf> = order.iter().map(std::path::PathBuf::from).collect();
        let lib = Library::scan(&dirs).unwrap();
        assert_eq!(lib.systems(), [("my-design".to_string(), vec!["3.4.0".to_string()])]);
        assert_eq!(lib.select(None, None).unwrap().dir(), served);
        assert_eq!(lib.select(Some("my-design"), Some("3.4.0")).unwrap().dir(), served);
        let left_out: Vec<String> = lib.damaged_defaults(None).iter().map(|d| d.to_string()).collect();
        assert_eq!(
            left_out,
            [format!(
                "bundle set my-design 3.4.0 in {} cannot be read: {why}; another copy of 3.4.0 is served (rebuild or \
                 remove this one)",
                bad.display()
            )]
        );
        for (system, version) in [(None, None), (Some("my-design"), Some("3.4.0"))] {
            let chosen = sets_to_search(&lib, system, version).unwrap();
            assert_eq!(chosen.sets.len(), 1);
            assert_eq!(chosen.sets[0].dir(), served);
            assert_eq!(chosen.skipped, std::slice::from_ref(&skipped));
        }
        // `verify` still lists the copy that does not open.
        assert_eq!(lib.damaged_all().iter().map(|d| d.dir.clone()).collect::<Vec<_>>(), std::slice::from_ref(&bad));

        // MCP: the good copy answers, and search names the one left out.
        let mut c = crate::mcp::mcp_stdio::StdioClient::start(&["--bundles", order[0], "--bundles", order[1]]);
        let r = c.call("search_docs", serde_json::json!({"query": "button"}));
        assert_ne!(r["result"]["isError"], true, "{r}");
        assert_eq!(r["result"]["structuredContent"]["skipped"], serde_json::json!([skipped.clone()]), "{r}");
        assert!(!r["result"]["structuredContent"]["hits"].as_array().unwrap().is_empty(), "{r}");
        for args in [
            serde_json::json!({"component": "button"}),
            serde_json::json!({"component": "button", "system": "my-design", "version": "3.4.0"}),
        ] {
            let r = c.call("component_details", args);
            assert_ne!(r["result"]["isError"], true, "{r}");
            assert_eq!(r["result"]["structuredContent"]["version"], "3.4.0", "{r}");
        }
        // CLI: `serve` says at start which copy it leaves out.
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_mydesign-docs"))
            .args(["serve", "--bundles", order[0], "--bundles", order[1]])
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains(&format!("in {} cannot be read: ", bad.display())), "{err}");
        assert!(err.contains("another copy of 3.4.0 is served"), "{err}");
    }
    // The sets given directly (`--bundles dmg/my-design@3.4.0 --bundles good/my-design@3.4.0`), in either order.
    for order in [[&bad, &served], [&served, &bad]] {
        let lib = Library::scan(&[order[0].clone(), order[1].clone()]).unwrap();
        assert_eq!(lib.select(Some("my-design"), Some("3.4.0")).unwrap().dir(), served);
        assert_eq!(sets_to_search(&lib, None, None).unwrap().skipped, std::slice::from_ref(&skipped));
    }
    // With no good copy, the version asked for by name is an error naming the copy and what to do.
    let lib = Library::scan(&[dmg.path().to_path_buf()]).unwrap();
    assert_eq!(lib.select(Some("my-design"), Some("3.4.0")).err().unwrap().to_string(), why);
    assert_eq!(lib.select(None, None).err().unwrap().to_string(), why);
    let mut c = crate::mcp::mcp_stdio::StdioClient::start(&["--bundles", d]);
    let r = c.call("component_details", serde_json::json!({"component": "button", "version": "3.4.0"}));
    assert_eq!(r["result"]["isError"], true, "{r}");
    assert_eq!(r["result"]["content"][0]["text"], why.as_str(), "{r}");
    let err = common::fails(dmg.path(), &["doc", "button", "--bundles", d, "--version", "3.4.0"]);
    assert_eq!(err.trim(), format!("error: {why}"));
}

/// Runs `command` (as printed) through `sh -c` in `cwd`, with the binary on `PATH`; returns stdout.
#[cfg(unix)]
pub(crate) fn sh(cwd: &Path, command: &str) -> String {
    let bin = Path::new(env!("CARGO_BIN_EXE_mydesign-docs")).parent().unwrap().to_path_buf();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let out = std::process::Command::new("sh").arg("-c").arg(command).current_dir(cwd).env("PATH", path).output();
    let out = out.unwrap();
    assert!(out.status.success(), "`{command}` failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// An empty repository `q` 1.0.0 (`<tempdir>/repo`), built into `../my docs/out` by the quoting tests.
#[cfg(unix)]
fn q_repo() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("repo");
    write(&repo, "package.json", br#"{"name": "q", "version": "1.0.0"}"#);
    (dir, repo)
}

#[cfg(unix)]
#[test]
fn printed_commands_are_shell_quoted_and_run_as_printed() {
    let (_dir, repo) = q_repo();
    // Over 888 lines, with code blocks: served as its placeholder view, whose header names the call for the whole.
    let mut doc = String::from("# O'Brien\n");
    for i in 1..=230 {
        doc.push_str(&format!("\n## Part {i}\n\nSome text about part {i} with several words to fill the budget.\n"));
        if i % 50 == 0 {
            doc.push_str(&format!("\n```js\n{}```\n", format!("part{i}(\"with some arguments\");\n").repeat(40)));
        }
    }
    write(&repo, "docs/o'brien/index.md", doc.as_bytes());
    let source: String = (1..=600).map(|i| format!("export const v{i} = {i}; // it's line {i}\n")).collect();
    write(&repo, "src/components/Good/it's \"big\".ts", source.as_bytes());
    common::ok(&repo, &["build", ".", "--out", "../my docs/out"]);

    // A cut document prints the call that continues it: pasted into a shell, it serves the next part.
    let first = common::ok(&repo, &["doc", "o'brien", "--bundles", "../my docs/out", "--max-tokens", "300"]);
    let tail = first.rsplit_once("continue with ").unwrap().1;
    let command = tail.trim_end().strip_suffix(']').unwrap();
    assert!(command.contains(" 'o'\\''brien' ") && command.contains(" --bundles '../my docs/out'"), "{command}");
    let second = sh(&repo, command);
    assert!(second.contains("## Part ") && !second.contains("# O'Brien\n"), "{second}");

    // The hint for the whole document is a whole call too (issue 14: one builder), quoted, and runs as printed.
    let full = first.split_once("; everything with ").unwrap().1.split(" · ").next().unwrap();
    assert_eq!(
        full,
        "mydesign-docs doc 'o'\\''brien' --detail full --system q --version 1.0.0 --bundles '../my docs/out' --lang en-US"
    );
    let whole = sh(&repo, &format!("{full} --max-tokens 100000"));
    assert!(
        whole.contains("```js\npart200(\"with some arguments\");\n") && whole.contains("## Part 230"),
        "{whole:.300}"
    );

    // A skeleton names the call that serves the whole file, with its path quoted.
    let path = "src/components/Good/it's \"big\".ts";
    let skeleton = common::ok(&repo, &["file", path, "--bundles", "../my docs/out"]);
    let command = skeleton.split_once(" with ").unwrap().1.split(" · ").next().unwrap();
    assert!(command.starts_with("mydesign-docs file 'src/components/Good/it'\\''s \"big\".ts' --full "), "{command}");
    let whole = sh(&repo, command);
    let served = whole.split_once('\n').unwrap().1;
    assert!(served.trim_end() == source.trim_end(), "the pasted command did not serve the whole file");
}

/// Search hits name the call that serves all of them (issue 14: one builder for follow-up calls). Their CLI form,
/// printed by `search` with a component, heading slug and path holding quotes and spaces, runs as printed through
/// `sh -c`; their MCP form is the tool with its `arguments` written `name=JSON`.
#[cfg(unix)]
#[test]
fn search_follow_ups_are_shell_quoted_and_run_as_printed() {
    let (_dir, repo) = q_repo();
    let doc = "# O'Brien\n\nAn intro.\n\n## Quoting rules {#it's-\"q\"}\n\nZanzibar words about quoting.\n\n\
               ## Demo\n\n```js\nzanzibarDemo();\n```\n";
    write(&repo, "docs/o'brien/index.md", doc.as_bytes());
    let source = "export function zanzibarQuote(a: number) {\n  return a + 1;\n}\n";
    write(&repo, "src/components/Good/it's \"big\".ts", source.as_bytes());
    common::ok(&repo, &["build", ".", "--out", "../my docs/out"]);
    let search = |kind: &str| {
        let args = ["search", "zanzibar", "--bundles", "../my docs/out", "--kind", kind];
        let text = common::ok(&repo, &args);
        let json: serde_json::Value =
            serde_json::from_str(&common::ok(&repo, &[&args[..], &["--json"]].concat())).unwrap();
        let hit = json["hits"][0]["follow_up"].clone();
        let printed = text.lines().find_map(|l| l.strip_prefix("→ ")).unwrap_or_else(|| panic!("{text}")).to_string();
        (hit, printed)
    };
    let set = "--system q --version 1.0.0 --bundles '../my docs/out'";
    let cases = [
        (
            "doc",
            r#"component_details(system="q", version="1.0.0", lang="en-US", component="o'brien", sections=["it's-\"q\""])"#,
            format!(r#"mydesign-docs doc 'o'\''brien' --section 'it'\''s-"q"' {set} --lang en-US"#),
            "Zanzibar words about quoting.",
        ),
        (
            "code",
            r#"get_code_block(system="q", version="1.0.0", lang="en-US", component="o'brien", index=1)"#,
            format!(r#"mydesign-docs code-block 'o'\''brien' 1 {set} --lang en-US"#),
            "zanzibarDemo();",
        ),
        (
            "function",
            r#"get_function_code(system="q", version="1.0.0", path="src/components/Good/it's \"big\".ts", function="zanzibarQuote")"#,
            format!(r#"mydesign-docs function 'src/components/Good/it'\''s "big".ts' zanzibarQuote {set}"#),
            "return a + 1;",
        ),
    ];
    for (kind, call, cli, served) in cases {
        let (follow_up, printed) = search(kind);
        assert_eq!(follow_up["call"], call, "{kind}");
        assert_eq!((follow_up["cli"].as_str(), printed.as_str()), (Some(cli.as_str()), cli.as_str()), "{kind}");
        // The MCP form is the tool and its structured arguments, each `name=` its JSON.
        let args = follow_up["arguments"].as_object().unwrap();
        let mut written: Vec<String> = args.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let mut in_call: Vec<String> =
            call.split_once('(').unwrap().1.strip_suffix(')').unwrap().split(", ").map(String::from).collect();
        written.sort();
        in_call.sort();
        assert_eq!((follow_up["tool"].as_str(), written), (call.split_once('(').map(|c| c.0), in_call), "{kind}");
        let out = sh(&repo, &cli);
        assert!(out.contains(served), "{kind}: `{cli}` served\n{out}");
    }
}

fn section_repo() -> (tempfile::TempDir, tempfile::TempDir, std::path::PathBuf) {
    let repo = tempfile::tempdir().unwrap();
    let r = repo.path();
    write(r, "package.json", br#"{"name": "secs", "version": "1.0.0"}"#);
    let en = "# Pager\n\n## Demos\n\n### Pagination\n\ndemo text\n\n## API\n\n### Pagination\n\n| Prop | Type |\n|---|---|\n| page | number |\n\n## Only English\n\ntext\n";
    let zh = "# 分页\n\n## 代码演示\n\n### 基本\n\n演示\n\n## API\n\n### pagination\n\n| 属性 | 类型 |\n|---|---|\n| page | number |\n";
    write(r, "docs/pager/index.md", en.as_bytes());
    write(r, "docs/pager/index.zh-CN.md", zh.as_bytes());
    let out = tempfile::tempdir().unwrap();
    let dir = common::build_into(r, "default", out.path()).dir;
    (repo, out, dir)
}

#[test]
fn an_ambiguous_section_name_is_an_error_naming_parents_and_slugs() {
    let (_repo, _out, dir) = section_repo();
    let set = BundleSet::open(&dir).unwrap();
    let doc = |lang: Option<&str>, s: &str| {
        set.doc("pager", lang, mydesign_docs::read::Detail::Normal, &[s.to_string()], Paging::unlimited())
    };
    let err = doc(Some("en-US"), "Pagination").unwrap_err().to_string();
    assert_eq!(
        err,
        "`pager` (en-US) has 2 sections named `Pagination`: Demos › Pagination (pagination); API › Pagination \
         (pagination-1); pass the one you want as listed (`API › Pagination`) or by its slug (`pagination-1`)"
    );
    // TRIAL item 20: both forms the error lists are accepted.
    for form in ["API › Pagination", "api › pagination", "API > Pagination"] {
        let api = doc(Some("en-US"), form).unwrap_or_else(|e| panic!("{form}: {e}"));
        assert_eq!((api.sections.clone(), api.part.lines.0), (vec!["Pagination".to_string()], 11), "{form}");
    }
    assert_eq!(doc(Some("en-US"), "Demos › Pagination").unwrap().part.lines.0, 5);
    let err = doc(Some("en-US"), "Nowhere › Pagination").unwrap_err().to_string();
    assert!(err.starts_with("`pager` (en-US) has no section `Nowhere › Pagination`"), "{err}");
    let api = doc(Some("en-US"), "pagination-1").unwrap();
    assert_eq!((api.sections.clone(), api.part.lines.0), (vec!["Pagination".to_string()], 11));
    assert_eq!(doc(Some("en-US"), "pagination").unwrap().part.lines.0, 5);
    // One heading only in the zh-CN document: its title finds it there.
    assert_eq!(doc(Some("zh-CN"), "Pagination").unwrap().part.lines.0, 11);
}

#[test]
fn an_explicit_language_wins_over_a_heading_found_in_another() {
    let (_repo, _out, dir) = section_repo();
    let set = BundleSet::open(&dir).unwrap();
    let asked = ["Only English".to_string()];
    let err = set
        .doc("pager", Some("zh-CN"), mydesign_docs::read::Detail::Normal, &asked, Paging::unlimited())
        .unwrap_err()
        .to_string();
    assert_eq!(
        err,
        "`pager` (zh-CN) has no section `Only English`; the en-US document has it: ask for lang en-US (`--lang \
         en-US`, `lang=\"en-US\"` in MCP tools), or leave the language out"
    );
    // Without a language, the document that has the heading serves it and the answer names its language.
    let found = set.doc("pager", None, mydesign_docs::read::Detail::Normal, &asked, Paging::unlimited()).unwrap();
    assert_eq!(found.lang, "en-US");
}

#[test]
fn semi_table_pagination_is_the_api_section() {
    let Some(semi) = common::semi() else {
        eprintln!("skipped: the real Semi corpus is absent (set MYDESIGN_REAL_CORPUS)");
        return;
    };
    let doc = |lang: &str, s: &str| {
        let asked = [s.to_string()];
        semi.set.doc("table", Some(lang), mydesign_docs::read::Detail::Normal, &asked, Paging::unlimited())
    };
    let zh = doc("zh-CN", "Pagination").unwrap();
    assert_eq!((zh.part.lines.0, zh.part.lines.1), (6192, 6210));
    let en = doc("en-US", "Pagination").unwrap();
    assert_eq!((en.part.lines.0, en.part.lines.1), (5796, 5813));
    let err = doc("zh-CN", "Table With Pagination").unwrap_err().to_string();
    assert!(err.contains("the en-US document has it"), "{err}");
    // The code blocks are unchanged in number; the ones in list items are served clean.
    let view = semi.set.doc("table", Some("zh-CN"), mydesign_docs::read::Detail::Normal, &[], Paging::unlimited());
    assert_eq!(view.unwrap().code_blocks, 53);
}

#[test]
fn line_ranges_reversed_and_past_the_end() {
    let repo = tempfile::tempdir().unwrap();
    let r = repo.path();
    write(r, "package.json", br#"{"name": "lines", "version": "1.0.0"}"#);
    write(r, "docs/good/index.md", b"# Good\n\n## Usage\n\ntext\n");
    let source: String = (1..=30).map(|i| format!("export const v{i} = {i};\n")).collect();
    write(r, "src/components/Good/Good.ts", source.as_bytes());
    common::ok(r, &["build", ".", "--out", "out"]);
    let path = "src/components/Good/Good.ts";
    let err = common::fails(r, &["file", path, "--start-line", "20", "--end-line", "10"]);
    assert!(err.contains("start line 20 is after end line 10"), "{err}");
    assert!(!err.contains("out of range"), "{err}");
    // An end past the file is served to the last line and said in the header.
    let tail = common::ok(r, &["file", path, "--start-line", "29", "--end-line", "100"]);
    let (header, body) = tail.split_once('\n').unwrap();
    assert!(header.contains("lines 29–30 of 31 (end line 100 is past the end: the range ends at line 31)"), "{header}");
    assert_eq!(body.trim_end(), "export const v29 = 29;\nexport const v30 = 30;");

    // The card's header spells the CLI form on the CLI.
    let card = common::ok(r, &["doc", "good", "--detail", "brief"]);
    let header = card.lines().next().unwrap();
    assert!(header.contains("or --section TITLE … by title or slug]"), "{header}");
    assert!(!header.contains("sections=["), "{header}");
}

#[test]
fn a_cleaned_block_over_the_budget_pages_through_its_code() {
    let repo = tempfile::tempdir().unwrap();
    let r = repo.path();
    write(r, "package.json", br#"{"name": "long", "version": "1.0.0"}"#);
    let body: String = (1..=400).map(|i| format!("   const value{i} = compute({i}, \"item {i}\");\n")).collect();
    write(r, "docs/long/index.md", format!("# Long\n\n1. Step:\n\n   ```js\n{body}   ```\n").as_bytes());
    let out = tempfile::tempdir().unwrap();
    let set = BundleSet::open(&common::build_into(r, "default", out.path()).dir).unwrap();
    let expected = format!("```js\n{}```", body.replace("\n   ", "\n").trim_start_matches(' '));
    let budget = mydesign_docs::budget::Budget::new(set.head().thresholds.max_tokens, Some(300)).unwrap();
    let (mut joined, mut cursor, mut parts) = (String::new(), None::<String>, 0);
    loop {
        let view = set.code_block("long", 1, None, Paging { budget, cursor: cursor.as_deref() }).unwrap();
        assert!(view.part.tokens <= 300, "part {parts} has {} tokens", view.part.tokens);
        joined.push_str(&view.part.text);
        parts += 1;
        match view.next_cursor {
            Some(c) => cursor = Some(c),
            None => break,
        }
    }
    assert!(parts > 10, "{parts} parts");
    assert!(joined == expected, "the parts do not rebuild the cleaned code");
}

/// A new user's trial: arguments that made no sense were accepted, and `--json` was pretty-printed past the budget.
#[test]
fn cli_arguments_from_a_new_users_trial() {
    let built = common::sample();
    let bundles = built.report.dir.parent().unwrap().to_str().unwrap().to_string();
    let tmp = tempfile::tempdir().unwrap();
    let at = |args: &[&str]| -> Vec<String> {
        let mut v: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        v.extend(["--bundles".into(), bundles.clone()]);
        v
    };
    let args = at(&["changelog", "--component", "table", "--since", "garbage"]);
    let err = common::fails(tmp.path(), &args.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(err.trim(), "error: --since garbage: not a version (e.g. 3.4.0)");
    let args = at(&["diff", "table", "3.10.0", "3.4.0"]);
    let err = common::fails(tmp.path(), &args.iter().map(String::as_str).collect::<Vec<_>>());
    let runnable = format!("`mydesign-docs diff table 3.4.0 3.10.0 --bundles {bundles}`");
    assert_eq!(
        err.trim(),
        format!("error: 3.10.0 is newer than 3.4.0: compare from the older version to the newer, {runnable}")
    );
    let err = common::fails(tmp.path(), &["serve", "--max-tokens", "250"]);
    assert!(err.contains("250 is not in 300..="), "{err}");
    let err = common::fails(tmp.path(), &["setup", "--client", "cursor", "--write", "--project", "no/such/dir"]);
    assert!(err.contains("--project no/such/dir: no such directory"), "{err}");
    assert!(!tmp.path().join("no").exists());
    // `pack -o dist/` makes the directory it names.
    let args = at(&["pack", "-o", "dist/"]);
    let out = common::ok(tmp.path(), &args.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(tmp.path().join("dist/my-design@3.4.0.tar.zst").is_file(), "{out}");
    // `--json` is the compact JSON MCP sends, which the budget bounds: at 300 it stays within 300 tokens.
    let counter = Tiktoken::new("o200k_base");
    for lookup in [vec!["doc", "table", "--detail", "brief"], vec!["files", "table"], vec!["doc", "table", "--full"]] {
        let mut args = at(&lookup);
        args.extend(["--max-tokens".into(), "300".into(), "--json".into()]);
        let json = common::ok(tmp.path(), &args.iter().map(String::as_str).collect::<Vec<_>>());
        assert!(!json.trim_end().contains('\n'), "{lookup:?}: compact JSON is one line");
        let tokens = counter.count(json.trim_end());
        assert!(tokens <= 300, "{lookup:?}: --json is {tokens} tokens at --max-tokens 300");
    }
}

/// A new user's trial: `--full` (MCP: `detail=full`) with a cursor of the normal (placeholder) view was silently
/// ignored, and the normal view continued. It is an error naming the cursor's view; so is `--detail brief` with a
/// document's cursor, and `full` with a card's.
#[test]
fn a_cursor_of_another_view_is_an_error_not_ignored() {
    let built = common::sample();
    let set = built.report.dir.to_str().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let json = common::ok(tmp.path(), &["doc", "table", "--max-tokens", "500", "--json", "--bundles", set]);
    let first: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(first["hidden"], true, "table (1,444 lines) is served as its placeholder view");
    let cursor = first["next_cursor"].as_str().expect("cut at 500");
    let err = common::fails(tmp.path(), &["doc", "table", "--full", "--cursor", cursor, "--bundles", set]);
    assert_eq!(
        err.trim(),
        "error: this cursor continues the normal document of `table` (en-US), but the call asks for --detail full: \
         drop --detail/--full to continue it, or drop the cursor to start the full answer"
    );
    let err = common::fails(tmp.path(), &["doc", "table", "--detail", "brief", "--cursor", cursor, "--bundles", set]);
    assert!(
        err.contains("continues the normal document of `table` (en-US), but the call asks for --detail brief"),
        "{err}"
    );
    // Without a detail, the cursor continues its own view.
    let next = common::ok(tmp.path(), &["doc", "table", "--cursor", cursor, "--json", "--bundles", set]);
    let next: serde_json::Value = serde_json::from_str(&next).unwrap();
    assert_eq!((next["hidden"].as_bool(), next["first_row"].as_u64()), (Some(true), None));
    assert_eq!(next["served_lines"][0].as_u64(), first["served_lines"][1].as_u64().map(|l| l + 1));
    // `full` with a cursor of the card.
    let card = common::ok(
        tmp.path(),
        &["doc", "table", "--detail", "brief", "--max-tokens", "350", "--json", "--bundles", set],
    );
    let card: serde_json::Value = serde_json::from_str(&card).unwrap();
    let cursor = card["next_cursor"].as_str().expect("the card is cut at 350");
    let err = common::fails(tmp.path(), &["doc", "table", "--full", "--cursor", cursor, "--bundles", set]);
    assert!(
        err.contains("this cursor continues the card of `table` (en-US), but the call asks for --detail full"),
        "{err}"
    );
    // Trial item 11: `normal` named beside a cursor of the full document (or of the card) is an error too, in the
    // CLI and over MCP; a cursor of a short document's `normal` answer (which is the full document) still goes on.
    let full = common::ok(tmp.path(), &["doc", "table", "--full", "--max-tokens", "500", "--json", "--bundles", set]);
    let full: serde_json::Value = serde_json::from_str(&full).unwrap();
    let full_cursor = full["next_cursor"].as_str().expect("cut at 500");
    let err =
        common::fails(tmp.path(), &["doc", "table", "--detail", "normal", "--cursor", full_cursor, "--bundles", set]);
    assert_eq!(
        err.trim(),
        "error: this cursor continues the full document of `table` (en-US), but the call asks for --detail normal: \
         drop --detail/--full to continue it, or drop the cursor to start the normal answer"
    );
    let err = common::fails(tmp.path(), &["doc", "table", "--detail", "normal", "--cursor", cursor, "--bundles", set]);
    assert!(err.contains("continues the card of `table` (en-US), but the call asks for --detail normal"), "{err}");
    let err =
        common::fails(tmp.path(), &["doc", "table", "--detail", "brief", "--cursor", full_cursor, "--bundles", set]);
    assert!(
        err.contains("continues the full document of `table` (en-US), but the call asks for --detail brief"),
        "{err}"
    );
    let tag = common::ok(
        tmp.path(),
        &["doc", "tag", "--detail", "normal", "--max-tokens", "350", "--json", "--bundles", set],
    );
    let tag: serde_json::Value = serde_json::from_str(&tag).unwrap();
    assert_eq!(tag["hidden"], false, "tag is under the threshold: normal serves the full document");
    let tag_cursor = tag["next_cursor"].as_str().expect("tag is cut at 350");
    common::ok(tmp.path(), &["doc", "tag", "--detail", "normal", "--cursor", tag_cursor, "--bundles", set]);
    let mut c = crate::mcp::mcp_stdio::StdioClient::start(&["--bundles", set]);
    let r = c.call(
        "component_details",
        serde_json::json!({"component": "table", "detail": "normal", "cursor": full_cursor}),
    );
    assert_eq!(r["result"]["isError"], true, "{r}");
    assert!(
        r["result"]["content"][0]["text"]
            .as_str()
            .is_some_and(|t| t
                .contains("continues the full document of `table` (en-US), but the call asks for detail=\"normal\"")),
        "{r}"
    );
    let r = c.call("component_details", serde_json::json!({"component": "table", "cursor": full_cursor}));
    assert_ne!(r["result"]["isError"], true, "without detail the cursor goes on: {r}");
}

/// A new user's trial: an empty cursor was reported as a "checksum mismatch", `changelog-99999999999999999999` as an
/// unknown component, and the `max_tokens` argument error stated two ranges (the schema's 0.. and "≥300").
#[test]
fn small_messages_from_a_new_users_trial() {
    let built = common::sample();
    let set = built.report.dir.to_str().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let err = common::fails(tmp.path(), &["doc", "table", "--cursor", "", "--bundles", set]);
    assert_eq!(
        err.trim(),
        "error: the cursor is empty: leave --cursor out to get the first part; a cut answer ends with the command \
         that continues it"
    );
    let err = common::fails(tmp.path(), &["doc", "changelog-99999999999999999999", "--bundles", set]);
    // The page is named as asked, not as the u32 it was read into (issue 26).
    assert_eq!(
        err.trim(),
        "error: changelog page 99999999999999999999 is out of range: the en-US changelog has pages 1..6"
    );
    // A name that only starts like one is still a component name.
    let err = common::fails(tmp.path(), &["doc", "changelog-x", "--bundles", set]);
    assert!(err.contains("unknown component `changelog-x`"), "{err}");
    // TRIAL item 19: with no close name, the error names what exists (the first 10 of 17), not only a count.
    let err = common::fails(tmp.path(), &["doc", "nope", "--bundles", set]);
    assert_eq!(
        err.trim(),
        format!(
            "error: unknown component `nope` in my-design 3.4.0; it has 17 components: avatar, badge, button, \
             checkbox, date-picker, empty, form, input, modal, pagination and 7 more (list them with `mydesign-docs \
             components --bundles {set}`)"
        )
    );
    let err = common::fails(tmp.path(), &["file", "nope", "--bundles", set]);
    assert_eq!(
        err.trim(),
        format!(
            "error: no file `nope` in my-design 3.4.0; paths are listed by component: `mydesign-docs files COMPONENT \
             --bundles {set}`"
        )
    );
    // Over MCP, the one range `max_tokens` takes (the schema's minimum is the reader's).
    let mut c = crate::mcp::mcp_stdio::StdioClient::start(&["--bundles", set]);
    for (tool, args) in [
        ("component_details", serde_json::json!({"component": "table", "max_tokens": 5})),
        ("get_changelog", serde_json::json!({"max_tokens": -5})),
    ] {
        let r = c.call(tool, args);
        assert_eq!(r["result"]["isError"], true, "{r}");
        let got = if tool == "get_changelog" { "-5" } else { "5" };
        assert_eq!(
            r["result"]["content"][0]["text"],
            format!("{tool}: invalid argument `max_tokens`: expected an integer from 300 to 4294967295; got {got}")
        );
    }
    let r = c.call("search_docs", serde_json::json!({"query": "table", "max_tokens": 299}));
    assert_eq!(
        r["result"]["content"][0]["text"],
        "search_docs: invalid argument `max_tokens`: expected an integer from 300 to 4294967295; got 299"
    );
    let r = c.call("component_details", serde_json::json!({"component": "table", "cursor": ""}));
    assert_eq!(
        r["result"]["content"][0]["text"],
        "the cursor is empty: leave it out to get the first part; a cut answer ends with the call that continues it \
         (its next_cursor)"
    );
}

/// TRIAL item 7: a source over the 4 MiB limit of source analysis is stored as text only; the build warning says
/// so without contradicting itself, and `function` says why it has no function index (not "the bundle is
/// incomplete").
#[test]
fn a_source_over_the_analysis_limit_says_why_it_has_no_functions() {
    let dir = tempfile::tempdir().unwrap();
    let r = dir.path();
    write(r, "package.json", br#"{"name": "big", "version": "1.0.0"}"#);
    write(
        r,
        "mydesign-docs.toml",
        b"[[docs]]\npattern = \"docs/{component}/index.md\"\nlang = \"en-US\"\n\n\
          [sources]\npatterns = [\"src/components/{component}/**\"]\n",
    );
    write(r, "docs/big/index.md", b"# Big\n\nA big source.\n");
    write(r, "CHANGELOG.md", b"# Changelog\n\n## 1.0.0\n\n- Big.\n");
    let one = "export function g(a: number): number {\n  return a + 1;\n}\n";
    let text = one.repeat(4 * 1024 * 1024 / one.len() + 1);
    let bytes = text.len();
    assert!(bytes > 4 * 1024 * 1024);
    write(r, "src/components/Big/many.ts", text.as_bytes());
    let out = tempfile::tempdir().unwrap();
    let report = build_report(r, out.path());
    let warnings: Vec<String> = report.diagnostics.iter().filter(|d| !d.is_note()).map(ToString::to_string).collect();
    assert_eq!(
        warnings,
        [format!(
            "source: src/components/Big/many.ts: {bytes} bytes, over the 4194304-byte (4 MiB) limit of source \
             analysis: no function index or skeleton; stored as text, served by `file`"
        )]
    );
    let set = BundleSet::open(&report.dir).unwrap();
    let e = set.function("src/components/Big/many.ts", "g", Paging::unlimited()).unwrap_err().to_string();
    assert_eq!(
        e,
        format!(
            "`src/components/Big/many.ts` has no function index: it is {bytes} bytes, over the 4194304-byte (4 MiB) \
             limit of source analysis, so the build stored it as text only; read it with `file` and a line range \
             (--start-line/--end-line, start_line/end_line in MCP tools)"
        )
    );
    // The text is there.
    let part = set.file("src/components/Big/many.ts", false, Some((1, 3)), Paging::unlimited()).unwrap();
    assert_eq!(part.text, one);
}

/// Trial 4: `verify --bundles out` failed with "holds several systems" when out/ held the sample and another
/// system (README's builds put them side by side): every system is verified, one line each.
#[test]
fn verify_checks_every_system_of_a_directory() {
    let (repo, out) = versions_dir(&["1.0.0"]);
    let _ = common::build_into(&common::root().join("corpus"), "default", out.path());
    let o = out.path().to_str().unwrap();
    let text = common::ok(repo.path(), &["verify", "--bundles", o]);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(lines[0].starts_with("ok: my-design 3.4.0 in ") && lines[1].starts_with("ok: vers 1.0.0 in "), "{text}");
    let json = common::ok(repo.path(), &["verify", "--bundles", o, "--json"]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v.as_array().map(Vec::len), Some(2), "{json}");
    let one = common::ok(repo.path(), &["verify", "--bundles", o, "--system", "vers", "--json"]);
    let v: serde_json::Value = serde_json::from_str(&one).unwrap();
    assert_eq!((v["ok"].as_bool(), v["system"].as_str()), (Some(true), Some("vers")), "{one}");
    // Both systems damaged: one run names both (trial 6: it stopped at the first).
    for system in ["vers@1.0.0", "my-design@3.4.0"] {
        let dir = std::fs::canonicalize(out.path().join(system)).unwrap();
        let bundle = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| p.extension().is_some_and(|x| x == "bundle") && !p.ends_with("manifest.bundle"))
            .unwrap();
        let mut bytes = std::fs::read(&bundle).unwrap();
        let at = bytes.len() / 2;
        bytes[at] ^= 0xff;
        std::fs::write(&bundle, bytes).unwrap();
    }
    let err = common::fails(repo.path(), &["verify", "--bundles", o]);
    assert!(err.contains(" bundles of my-design 3.4.0 in ") && err.contains(" bundles of vers 1.0.0 in "), "{err}");
}
