//! The last new-user trials' findings (task `trial`): each is a silent loss or an unclear error met on real
//! inputs, tested here with the value the trial expected, on a small input written here and, where the finding
//! names them, on the real inputs.

use crate::common;

use std::path::Path;
use std::process::{Command, Output};

/// Runs the binary in `cwd` with the store at `store` (`MYDESIGN_DOCS_HOME`).
fn run_store(cwd: &Path, store: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mydesign-docs"))
        .current_dir(cwd)
        .args(args)
        .env("MYDESIGN_DOCS_HOME", store)
        .env_remove("XDG_DATA_HOME")
        .output()
        .expect("run binary")
}

/// Copies the files of the set `from` (a link to its generation is followed) into `to`.
fn copy_set(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
    }
}

/// Rewrites the format version of the manifest of the set in `dir` (bytes 8..10 of the header).
fn set_format(dir: &Path, version: u16) {
    let manifest = dir.join("manifest.bundle");
    let mut bytes = std::fs::read(&manifest).unwrap();
    bytes[8..10].copy_from_slice(&version.to_le_bytes());
    std::fs::write(&manifest, bytes).unwrap();
}

/// Finding 1: `list --store` stopped at a set of an older bundle format ("bundle format 7 is not supported"),
/// listing nothing. Every readable set is listed; the old one is listed with why it is unreadable and what to do
/// (rebuild or reinstall, or remove it), in text and JSON, and `remove` removes it.
#[test]
fn list_shows_every_set_and_names_an_old_format_set_with_what_to_do() {
    use mydesign_docs::bundle::format::{FORMAT_VERSION, OLDEST_SUPPORTED};
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let store = t.join("store");
    let sample = &common::sample().report.dir;
    let out = run_store(t, &store, &["install", sample.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // An older build of another version sits in the store, as an upgrade leaves it.
    let old = store.join("my-design@3.3.0");
    copy_set(sample, &old);
    set_format(&old, OLDEST_SUPPORTED - 1);
    // And a set that sorts after it, so a listing that stops at the old one misses it.
    copy_set(sample, &store.join("zz-design@1.0.0"));

    let out = run_store(t, &store, &["list"]);
    assert!(out.status.success(), "list failed: {}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let build_id = mydesign_docs::store::build_id(sample).unwrap();
    let bytes = common::tree_bytes(sample).iter().map(|(_, b)| b.len() as u64).sum::<u64>();
    let built_by = format!("mydesign-docs {}", env!("CARGO_PKG_VERSION"));
    let old_manifest = old.join("manifest.bundle");
    assert_eq!(
        text,
        format!(
            "{store} (store)\n\
             my-design@3.3.0  unreadable: {om}: bundle format {old_v} is not supported (this reader supports \
             {OLDEST_SUPPORTED}..={FORMAT_VERSION}); rebuild with this version of mydesign-docs; install it again \
             once rebuilt (`mydesign-docs install DIR_OR_PACK --force`), or remove it (`mydesign-docs remove \
             my-design@3.3.0`)\n\
             my-design@3.4.0  {b} bytes  build {build_id}  ({built_by})\n\
             zz-design@1.0.0  {b} bytes  build {build_id}  ({built_by})\n",
            store = store.display(),
            om = old_manifest.display(),
            old_v = OLDEST_SUPPORTED - 1,
            b = mydesign_docs::render::thousands(bytes),
        )
    );
    let out = run_store(t, &store, &["list", "--json"]);
    assert!(out.status.success());
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let names: Vec<String> = json["sets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| format!("{}@{}", s["system"].as_str().unwrap(), s["version"].as_str().unwrap()))
        .collect();
    assert_eq!(names, ["my-design@3.4.0", "zz-design@1.0.0"]);
    let bad = &json["unreadable"];
    assert_eq!(bad.as_array().map(Vec::len), Some(1), "{json}");
    assert_eq!((bad[0]["system"].as_str(), bad[0]["version"].as_str()), (Some("my-design"), Some("3.3.0")));
    assert!(
        bad[0]["error"].as_str().unwrap().contains(&format!("bundle format {} is not supported", OLDEST_SUPPORTED - 1)),
        "{json}"
    );
    assert!(bad[0]["what_to_do"].as_str().unwrap().contains("mydesign-docs remove my-design@3.3.0"), "{json}");

    // The old set can be removed (remove listed the store first, and stopped at it too).
    let out = run_store(t, &store, &["remove", "my-design@3.3.0"]);
    assert!(out.status.success(), "remove failed: {}", String::from_utf8_lossy(&out.stderr));
    assert!(!old.exists());
    let out = run_store(t, &store, &["list"]);
    assert!(!String::from_utf8(out.stdout).unwrap().contains("3.3.0"));
}

/// The sample built into `out` as the system `name` (version 3.4.0, the sample's).
fn build_as(name: &str, out: &Path) -> std::path::PathBuf {
    use mydesign_docs::compile::{BuildOptions, build};
    use mydesign_docs::config::Config;
    let mut config = Config::preset("default").unwrap();
    config.system.name = Some(name.into());
    let repo = common::root().join("corpus");
    build(&BuildOptions { repo, out: out.to_path_buf(), config, progress: false }).unwrap().dir
}

/// Finding 2: a CLI search over several systems (no `--system`) failed when one set's manifest was damaged, while
/// the server's answered from the others. Both search the sets that open and name the one left out in `skipped`
/// (text and JSON), by one code path (`sets_to_search` → `search_sets`).
#[test]
fn a_search_over_several_systems_skips_and_names_a_set_whose_manifest_is_damaged() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    build_as("my-design", &out);
    let other = build_as("other-design", &out);
    let manifest = other.join("manifest.bundle");
    let len = std::fs::metadata(&manifest).unwrap().len();
    std::fs::OpenOptions::new().write(true).open(&manifest).unwrap().set_len(len / 2).unwrap();
    let o = out.to_str().unwrap();

    let text = common::ok(tmp.path(), &["search", "tag", "color", "--bundles", o]);
    assert!(text.starts_with("[my-design 3.4.0 · search \"tag color\" · hits 1–"), "{text}");
    let skipped: Vec<&str> = text.lines().filter(|l| l.starts_with("[skipped, unreadable: ")).collect();
    assert_eq!(skipped.len(), 1, "{text}");
    assert!(
        skipped[0].starts_with("[skipped, unreadable: other-design@3.4.0: ")
            && skipped[0].contains("manifest.bundle: truncated"),
        "{text}"
    );
    let json: serde_json::Value =
        serde_json::from_str(&common::ok(tmp.path(), &["search", "tag", "color", "--bundles", o, "--json"])).unwrap();
    assert_eq!(json["system"], "my-design");
    assert!(json["hits"].as_array().is_some_and(|h| !h.is_empty()), "{json}");
    let entry = json["skipped"][0].as_str().unwrap_or_default();
    assert!(entry.starts_with("other-design@3.4.0: ") && entry.contains("manifest.bundle: truncated"), "{json}");
    // No hits at all still says what was left out.
    let text = common::ok(tmp.path(), &["search", "zzzqqqxxy", "--bundles", o]);
    assert!(text.contains("[skipped, unreadable: other-design@3.4.0: "), "{text}");

    // The server answers the same.
    let mut c = crate::mcp::mcp_stdio::StdioClient::start(&["--bundles", o]);
    let r = c.call("search_docs", serde_json::json!({"query": "tag color"}));
    let s = &r["result"]["structuredContent"];
    assert_ne!(r["result"]["isError"], true, "{r}");
    assert_eq!(s["system"], "my-design", "{r}");
    let entry = s["skipped"][0].as_str().unwrap_or_default();
    assert!(entry.starts_with("other-design@3.4.0: ") && entry.contains("manifest.bundle: truncated"), "{r}");

    // Only the damaged system asked for: its error, not a silent empty answer.
    let err = common::fails(tmp.path(), &["search", "tag", "--system", "other-design", "--bundles", o]);
    assert!(err.contains("manifest.bundle: truncated"), "{err}");
}
