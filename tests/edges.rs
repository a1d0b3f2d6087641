//! Edges of the promise (issue 10): code blocks served as code, MDX fences, unclosed front matter, version order and
//! damaged sets, shell-quoted continuation commands, ambiguous sections, explicit languages, line ranges.

mod common;

use std::path::Path;

use mydesign_docs::read::{BundleSet, Paging};

fn write(root: &Path, rel: &str, bytes: &[u8]) {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, bytes).unwrap();
}

const LIST_DOC: &str = "# List\n\n- Style it:\n\n\t```css\n\t.btn { color: red; }\n\t```\n\n> ```js\n> quoted();\n> ```\n";
const CRLF_DOC: &str = "# Crlf\r\n\r\n```js\r\na();\r\n```\r\n";
const MDX_DOC: &str = "# Install\n\n<Tabs>\n<Tab label=\"npm\">\n```bash\nnpm i x\n```\n</Tab>\n</Tabs>\n";

/// Builds `repo` with its own `mydesign-docs.toml` into `out`; returns the set's directory.
fn build(repo: &Path, out: &Path) -> std::path::PathBuf {
    let config = mydesign_docs::config::Config::load(repo, None).unwrap();
    let options = mydesign_docs::compile::BuildOptions {
        repo: repo.to_path_buf(),
        out: out.to_path_buf(),
        config,
        progress: false,
    };
    mydesign_docs::compile::build(&options).unwrap().dir
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
        err.contains("warning: markdown: docs/front/index.md:1: front matter opened by `---` on line 1 is never closed"),
        "{err}"
    );
    let set = BundleSet::discover(out.path(), None, None).unwrap();
    let doc = set.doc("front", None, mydesign_docs::read::Detail::Normal, &[], Paging::unlimited()).unwrap();
    assert!(doc.text.starts_with("---\ntitle: Never closed\n"));
    assert_eq!(doc.code_blocks, 1);
}
