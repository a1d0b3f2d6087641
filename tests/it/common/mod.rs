//! Shared test helpers: the real corpus (assembled from ../shared at run time), bundle sets built once per test
//! binary, and running the binary.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

use mydesign_docs::compile::{BuildOptions, BuildReport, build};
use mydesign_docs::config::Config;
use mydesign_docs::read::BundleSet;

/// The project root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[path = "../../../src/test_support.rs"]
mod test_support;
pub use test_support::{real_corpus, skip};

/// tiktoken itself (tiktoken-rs), the reference the tests recount answers with: independent of the compiler's counter
/// (bpe-openai), which `tokens::counts_equal_tiktoken_on_every_real_file` checks against it.
#[derive(Clone, Copy)]
pub struct Tiktoken(&'static tiktoken_rs::CoreBPE);

impl Tiktoken {
    /// The counter for `encoding` (`o200k_base` or `cl100k_base`); panics on any other name.
    pub fn new(encoding: &str) -> Tiktoken {
        Tiktoken(match encoding {
            "o200k_base" => tiktoken_rs::o200k_base_singleton(),
            "cl100k_base" => tiktoken_rs::cl100k_base_singleton(),
            other => panic!("no tiktoken encoding {other}"),
        })
    }

    /// Tokens in `text`, special-token strings counted as text (`encode_ordinary`).
    pub fn count(&self, text: &str) -> u32 {
        self.0.encode_ordinary(text).len() as u32
    }
}

/// Builds `repo` with `preset` into a fresh temporary directory.
pub fn build_into(repo: &Path, preset: &str, out: &Path) -> BuildReport {
    let config = Config::preset(preset).expect("preset");
    build(&BuildOptions { repo: repo.to_path_buf(), out: out.to_path_buf(), config, progress: false })
        .unwrap_or_else(|e| panic!("build of {} failed: {e:#}", repo.display()))
}

/// A bundle set built once per test binary: (report, open set). Kept in a leaked temporary directory.
pub struct Built {
    pub report: BuildReport,
    pub set: BundleSet,
    pub repo: PathBuf,
}

fn build_once(cell: &'static OnceLock<Option<Built>>, repo: Option<PathBuf>, preset: &str) -> Option<&'static Built> {
    cell.get_or_init(|| {
        let repo = repo?;
        let out = tempfile::tempdir().expect("tempdir").keep();
        let report = build_into(&repo, preset, &out);
        let set = BundleSet::open(&report.dir).expect("open built set");
        Some(Built { report, set, repo })
    })
    .as_ref()
}

/// Semi Design, built with the `semi` preset.
pub fn semi() -> Option<&'static Built> {
    static CELL: OnceLock<Option<Built>> = OnceLock::new();
    build_once(&CELL, real_corpus().map(|d| d.join("semi")), "semi")
}

/// Blueprint, built with the `blueprint` preset.
pub fn blueprint() -> Option<&'static Built> {
    static CELL: OnceLock<Option<Built>> = OnceLock::new();
    build_once(&CELL, real_corpus().map(|d| d.join("blueprint")), "blueprint")
}

/// antd-mobile (dumi layout), built with the `dumi` preset; `None` (the reason printed) when the assembled corpus
/// has no `antd-mobile/`.
pub fn antd_mobile() -> Option<&'static Built> {
    static CELL: OnceLock<Option<Built>> = OnceLock::new();
    let repo = real_corpus().map(|d| d.join("antd-mobile")).filter(|d| {
        let there = d.is_dir();
        if !there {
            skip(format_args!("real-corpus test: {} is absent", d.display()));
        }
        there
    });
    build_once(&CELL, repo, "dumi")
}

/// The real input `name` (a folder of the assembled corpus) built with the layout detection finds, no preset and
/// no configuration, once per test binary and shared by every test that only reads it: the real inputs' builds are
/// most of the suite's time, and before this one build of Arco or Chakra was made four times. `None` (the reason
/// printed) when the corpus or that input is absent.
pub fn detected_build(name: &str) -> Option<&'static Built> {
    type Cells = std::sync::Mutex<std::collections::HashMap<String, &'static OnceLock<Option<Built>>>>;
    static CELLS: OnceLock<Cells> = OnceLock::new();
    let repo = real_corpus()?.join(name);
    if !repo.is_dir() {
        skip(format_args!("real-corpus test: {} is absent", repo.display()));
        return None;
    }
    // The map's lock is held only to find the cell; the cell's own lock makes a second caller wait for the build.
    let cell: &'static OnceLock<Option<Built>> = CELLS
        .get_or_init(Default::default)
        .lock()
        .unwrap()
        .entry(name.to_string())
        .or_insert_with(|| Box::leak(Box::new(OnceLock::new())));
    cell.get_or_init(|| {
        let files = mydesign_docs::compile::walk::walk(&repo, &mydesign_docs::config::WalkConfig::default())
            .expect("walk")
            .files;
        let config = mydesign_docs::compile::detect::detect(&repo, &files).expect("a layout is detected").config;
        let out = tempfile::tempdir().expect("tempdir").keep();
        let report = build(&BuildOptions { repo: repo.clone(), out, config, progress: false })
            .unwrap_or_else(|e| panic!("build of {} failed: {e:#}", repo.display()));
        let set = BundleSet::open(&report.dir).expect("open built set");
        Some(Built { report, set, repo })
    })
    .as_ref()
}

/// The project's own sample `corpus/`, built with the default preset.
pub fn sample() -> &'static Built {
    static CELL: OnceLock<Option<Built>> = OnceLock::new();
    build_once(&CELL, Some(root().join("corpus")), "default").expect("sample corpus builds")
}

/// Copies the directory `from` into `to` (created), recursively; panics on any error.
pub fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let dest = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_tree(&e.path(), &dest);
        } else {
            std::fs::copy(e.path(), &dest).unwrap();
        }
    }
}

/// Runs the `mydesign-docs` binary with `args` in `cwd`.
pub fn run(cwd: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mydesign-docs")).current_dir(cwd).args(args).output().expect("run binary")
}

/// stdout of a successful run, or a panic showing stderr.
pub fn ok(cwd: &Path, args: &[&str]) -> String {
    let out = run(cwd, args);
    assert!(out.status.success(), "{args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("utf-8 stdout")
}

/// stderr of a run that must fail with exit code 2.
pub fn fails(cwd: &Path, args: &[&str]) -> String {
    let out = run(cwd, args);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {}", String::from_utf8_lossy(&out.stdout));
    String::from_utf8(out.stderr).expect("utf-8 stderr")
}

/// Every file below `dir` with its bytes, sorted by relative path.
pub fn tree_bytes(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("read_dir") {
            let p = e.expect("entry").path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p.strip_prefix(dir).expect("prefix").display().to_string();
                out.push((rel, std::fs::read(&p).expect("read")));
            }
        }
    }
    out.sort();
    out
}
