//! Incremental builds (issue 12 item 2): the content-hash cache reuses every component whose inputs did not
//! change, and the published set is byte-identical to a cold build of the same tree; `build --watch` rebuilds on
//! change.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use mydesign_docs::compile::{BuildOptions, BuildReport, Stage, build, build_with_cache, detect, walk};
use mydesign_docs::config::{Config, WalkConfig};

use crate::common;

/// The configuration `build` uses for `repo` without a preset: the detected layout.
fn detected(repo: &Path) -> Config {
    let files = walk::walk(repo, &WalkConfig::default()).unwrap().files;
    detect::detect(repo, &files).expect("a layout is detected").config
}

fn options(repo: &Path, out: &Path, config: Config) -> BuildOptions {
    BuildOptions { repo: repo.to_path_buf(), out: out.to_path_buf(), config, progress: false }
}

/// Every file of the published set under `dir` (the link resolved), by name.
fn files_of(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    for e in std::fs::read_dir(dir).unwrap().filter_map(Result::ok) {
        out.insert(e.file_name().to_string_lossy().into_owned(), std::fs::read(e.path()).unwrap());
    }
    assert!(out.contains_key("manifest.bundle"), "no manifest in {}", dir.display());
    out
}

fn assert_same_sets(incremental: &BuildReport, cold: &BuildReport) {
    let (a, b) = (files_of(&incremental.dir), files_of(&cold.dir));
    assert_eq!(a.keys().collect::<Vec<_>>(), b.keys().collect::<Vec<_>>(), "the same bundle files");
    for (name, bytes) in &a {
        assert!(bytes == &b[name], "{name} differs between the incremental and the cold build");
    }
    assert_eq!(incremental.manifest.build_id, cold.manifest.build_id);
    assert_eq!(incremental.diagnostics, cold.diagnostics, "the same diagnostics, replayed from the cache");
}

/// A writable copy of the sample design system (`corpus/`) in a temporary directory: the directory and the copy.
fn sample_copy() -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().join("corpus");
    common::copy_tree(&common::root().join("corpus"), &repo);
    (tmp, repo)
}

fn entries(cache: &Path) -> usize {
    std::fs::read_dir(cache)
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| e.path().extension().is_some_and(|x| x == "entry"))
        .count()
}

/// Cold build with the cache, one document changed, incremental build: byte-identical to a cold build (no cache)
/// of the changed tree, with only that component and the list counts recompiled.
fn change_one_document(repo: &Path, config: Config, document: &str) {
    let tmp = tempfile::tempdir().unwrap();
    let (out, cache) = (tmp.path().join("out"), tmp.path().join("cache"));
    let first = build_with_cache(&options(repo, &out, config.clone()), Some(&cache)).unwrap();
    assert_eq!(first.reused, 0, "an empty cache reuses nothing");
    assert!(first.recompiled > 3, "every unit compiled and stored: {}", first.recompiled);
    // One entry per unit, and one per component unit (all but the changelog and the list counts; the shared
    // files' pseudo-component too) with its source files, set aside for its next recompilation.
    let components = first.recompiled as usize - 2;
    assert_eq!(entries(&cache), first.recompiled as usize + components, "one entry per unit, one per component");

    let again = build_with_cache(&options(repo, &out, config.clone()), Some(&cache)).unwrap();
    assert_eq!((again.reused, again.recompiled, again.unchanged), (first.recompiled, 0, true), "unchanged tree");
    assert_eq!(again.manifest.build_id, first.manifest.build_id);
    let first_generation = std::fs::canonicalize(&first.dir).unwrap();

    let path = repo.join(document);
    let mut text = std::fs::read_to_string(&path).unwrap();
    text.push_str("\n## Incremental\n\nA section added after the first build, about caches.\n");
    std::fs::write(&path, text).unwrap();
    let incremental = build_with_cache(&options(repo, &out, config.clone()), Some(&cache)).unwrap();
    // The component of the document and the list counts (its document's size enters the component list).
    assert_eq!((incremental.recompiled, incremental.reused), (2, first.recompiled - 2));
    assert!(!incremental.unchanged);
    assert_ne!(incremental.manifest.build_id, first.manifest.build_id);
    // Its source files did not change: none is parsed and counted again.
    let set = mydesign_docs::read::BundleSet::open(&incremental.dir).unwrap();
    let changed = incremental.manifest.components.iter().find(|c| document.contains(&c.key)).map(|c| c.key.as_str());
    let (_, meta) = set.component_meta(changed.unwrap_or("no component for the document")).unwrap();
    let owned = meta.files.iter().filter(|f| f.owner == meta.key).count();
    assert!(owned > 0, "the changed component owns source files");
    assert_eq!(incremental.files_reused as usize, owned, "its source files are taken from the cache");
    let cold = build(&options(repo, &tmp.path().join("cold"), config)).unwrap();
    assert_same_sets(&incremental, &cold);
    assert_eq!(entries(&cache), first.recompiled as usize + components, "no entry left behind");
    // Only the changed component's bundle, the search index and the manifest were written; every other bundle is
    // the previous generation's file (hard-linked, format 7).
    let rewritten = rewritten_files(&first_generation, &std::fs::canonicalize(&incremental.dir).unwrap());
    assert_eq!(rewritten.len(), 3, "{rewritten:?}");
    assert!(rewritten.contains(&"manifest.bundle".to_string()) && rewritten.contains(&"search.bundle".to_string()));
    let changed: Vec<&str> = incremental
        .manifest
        .components
        .iter()
        .filter(|c| rewritten.contains(&c.bundle))
        .map(|c| c.key.as_str())
        .collect();
    assert_eq!(changed.len(), 1, "{rewritten:?}");
}

/// The files of generation `new` that are not the same file (inode) as in generation `old`.
fn rewritten_files(old: &Path, new: &Path) -> Vec<String> {
    use std::os::unix::fs::MetadataExt;
    let mut out = Vec::new();
    for e in std::fs::read_dir(new).unwrap().filter_map(Result::ok) {
        let name = e.file_name().to_string_lossy().into_owned();
        let same = std::fs::metadata(old.join(&name)).is_ok_and(|m| m.ino() == e.metadata().unwrap().ino());
        if !same {
            out.push(name);
        }
    }
    out.sort();
    out
}

#[test]
fn one_changed_document_recompiles_one_component_and_the_set_is_byte_identical_to_a_cold_build() {
    let (_tmp, repo) = sample_copy();
    let config = detected(&repo);
    change_one_document(&repo, config, "docs/button/index.md");
}

/// A writable copy of the real Blueprint input in a temporary directory, with its preset; `None` (the skip printed)
/// when the real corpus is not assembled.
fn blueprint_copy() -> Option<(tempfile::TempDir, std::path::PathBuf, Config)> {
    let Some(real) = common::real_corpus() else {
        common::skip(format_args!("the real corpus is not assembled (../shared absent)"));
        return None;
    };
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().join("blueprint");
    common::copy_tree(&real.join("blueprint"), &repo);
    Some((tmp, repo, Config::preset("blueprint").unwrap()))
}

#[test]
fn blueprint_one_changed_document_is_byte_identical_to_a_cold_build() {
    // Blueprint's props follow `extends` into other files: those files are dependencies of the cached units.
    let Some((_tmp, repo, config)) = blueprint_copy() else { return };
    let files = walk::walk(&repo, &config.walk).unwrap().files;
    let document = files
        .iter()
        .map(|f| f.rel.clone())
        .find(|r| r.ends_with("button/buttons.mdx"))
        .expect("Blueprint has a button document");
    change_one_document(&repo, config, &document);
}

#[test]
fn a_source_followed_by_extends_invalidates_the_components_that_read_it() {
    // Blueprint's ButtonProps extends ActionProps from `common/props.ts`: change that file (owned by no button
    // document) and the button components are recompiled, with the same result as a cold build.
    let Some((tmp, repo, config)) = blueprint_copy() else { return };
    let (out, cache) = (tmp.path().join("out"), tmp.path().join("cache"));
    let first = build_with_cache(&options(&repo, &out, config.clone()), Some(&cache)).unwrap();
    let files = walk::walk(&repo, &config.walk).unwrap().files;
    let props = files.iter().find(|f| f.rel.ends_with("common/props.ts")).expect("common/props.ts");
    let text = std::fs::read_to_string(&props.abs).unwrap();
    let changed = text.replacen("export interface ActionProps", "export interface ActionProps {\n    /** Added by the test. */\n    incrementalTestProp?: boolean;\n}\nexport interface ActionPropsOld", 1);
    assert_ne!(changed, text, "ActionProps is declared in common/props.ts");
    std::fs::write(&props.abs, changed).unwrap();
    let incremental = build_with_cache(&options(&repo, &out, config.clone()), Some(&cache)).unwrap();
    assert!(
        incremental.recompiled > 2,
        "the components reading ActionProps are recompiled: {}",
        incremental.recompiled
    );
    assert!(incremental.reused < first.recompiled);
    let cold = build(&options(&repo, &tmp.path().join("cold"), config)).unwrap();
    assert_same_sets(&incremental, &cold);
}

#[test]
fn a_damaged_cache_entry_is_recompiled_with_a_note_never_trusted() {
    let (tmp, repo) = sample_copy();
    let config = detected(&repo);
    let (out, cache) = (tmp.path().join("out"), tmp.path().join("cache"));
    let first = build_with_cache(&options(&repo, &out, config.clone()), Some(&cache)).unwrap();
    // Flip one byte in the middle of the largest entry (frames, token maps and units).
    let largest = std::fs::read_dir(&cache)
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| e.path().extension().is_some_and(|x| x == "entry"))
        .max_by_key(|e| e.metadata().unwrap().len())
        .unwrap()
        .path();
    let mut bytes = std::fs::read(&largest).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x55;
    std::fs::write(&largest, bytes).unwrap();
    // Without the set record (which would answer this unchanged tree without reading any unit), units are read.
    std::fs::remove_file(cache.join("set.record")).unwrap();
    let again = build_with_cache(&options(&repo, &out, config.clone()), Some(&cache)).unwrap();
    assert_eq!((again.recompiled, again.reused), (1, first.recompiled - 1));
    let notes: Vec<String> =
        again.diagnostics.iter().filter(|d| d.stage == Stage::Cache).map(|d| d.to_string()).collect();
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(notes[0].contains("damaged cache entry ignored (checksum mismatch)"), "{}", notes[0]);
    assert!(again.diagnostics.iter().find(|d| d.stage == Stage::Cache).unwrap().is_note());
    // Recompiled to the same bytes: the published set is the first build's.
    assert!(again.unchanged);
    assert_eq!(again.manifest.build_id, first.manifest.build_id);
}

/// Every file under `dir` (hidden ones and links too, recursively), with its length and modification time.
fn listing(dir: &Path) -> BTreeMap<PathBuf, (u64, std::time::SystemTime)> {
    let mut out = BTreeMap::new();
    for e in std::fs::read_dir(dir).unwrap().filter_map(Result::ok) {
        let meta = std::fs::symlink_metadata(e.path()).unwrap();
        if meta.is_dir() {
            out.extend(listing(&e.path()));
        }
        out.insert(e.path(), (meta.len(), meta.modified().unwrap()));
    }
    out
}

#[test]
fn an_unchanged_tree_reads_no_cached_unit_and_writes_nothing() {
    // Issue 12 item 3: the set record answers an unchanged tree right after the walk.
    let (tmp, repo) = sample_copy();
    let config = detected(&repo);
    let (out, cache) = (tmp.path().join("out"), tmp.path().join("cache"));
    let first = build_with_cache(&options(&repo, &out, config.clone()), Some(&cache)).unwrap();
    assert!(cache.join("set.record").is_file());
    // Every unit entry damaged: a build that read one would report it (and recompile).
    for e in std::fs::read_dir(&cache).unwrap().filter_map(Result::ok) {
        if e.path().extension().is_some_and(|x| x == "entry") {
            let mut bytes = std::fs::read(e.path()).unwrap();
            let middle = bytes.len() / 2;
            bytes[middle] ^= 0x55;
            std::fs::write(e.path(), bytes).unwrap();
        }
    }
    let (out_before, cache_before) = (listing(&out), listing(&cache));
    std::thread::sleep(Duration::from_millis(20));
    let again = build_with_cache(&options(&repo, &out, config.clone()), Some(&cache)).unwrap();
    assert_eq!((again.reused, again.recompiled, again.unchanged), (first.recompiled, 0, true));
    assert_eq!(again.manifest.build_id, first.manifest.build_id);
    assert_eq!(again.dir, first.dir);
    assert_eq!(again.version_source, first.version_source);
    assert_eq!(again.diagnostics, first.diagnostics, "the same diagnostics, replayed from the set record");
    assert!(again.diagnostics.iter().all(|d| d.stage != Stage::Cache), "no cached unit read");
    assert_eq!(listing(&out), out_before, "nothing written in the output");
    assert_eq!(listing(&cache), cache_before, "nothing written in the cache");

    // A changed document goes past the record (and finds the damaged entries, recompiled with notes).
    let path = repo.join("docs/button/index.md");
    std::fs::write(&path, std::fs::read_to_string(&path).unwrap() + "\n## More\n\nAbout records.\n").unwrap();
    let changed = build_with_cache(&options(&repo, &out, config.clone()), Some(&cache)).unwrap();
    assert!(!changed.unchanged);
    assert_eq!(changed.recompiled, first.recompiled);
    let cold = build(&options(&repo, &tmp.path().join("cold"), config)).unwrap();
    assert_eq!(changed.manifest.build_id, cold.manifest.build_id);
}

#[test]
fn a_removed_component_leaves_no_cache_entry_behind() {
    let (tmp, repo) = sample_copy();
    let config = detected(&repo);
    let (out, cache) = (tmp.path().join("out"), tmp.path().join("cache"));
    let first = build_with_cache(&options(&repo, &out, config.clone()), Some(&cache)).unwrap();
    std::fs::remove_dir_all(repo.join("docs/badge")).unwrap();
    std::fs::remove_dir_all(repo.join("src/components/Badge")).unwrap();
    let again = build_with_cache(&options(&repo, &out, config.clone()), Some(&cache)).unwrap();
    assert_eq!(again.manifest.components.len() + 1, first.manifest.components.len());
    // Each unit's, and each component unit's source files (all units but the changelog and the list counts).
    let units = (again.reused + again.recompiled) as usize;
    assert_eq!(entries(&cache), units + units - 2);
    // Entries are named by the hash of their unit's name.
    let badge = format!("{:016x}.entry", xxhash_rust::xxh3::xxh3_64(b"component/badge"));
    assert!(first.manifest.components.iter().any(|c| c.key == "badge"));
    assert!(std::fs::read_dir(&cache).unwrap().all(|e| e.unwrap().file_name().to_string_lossy() != badge));
    let cold = build(&options(&repo, &tmp.path().join("cold"), config)).unwrap();
    assert_same_sets(&again, &cold);
}

/// The build id of the set published in `out` (0 while there is none).
fn published_id(out: &Path) -> u64 {
    let Ok(dirs) = std::fs::read_dir(out) else { return 0 };
    for e in dirs.filter_map(Result::ok) {
        if e.file_name().to_string_lossy().contains('@')
            && !e.file_name().to_string_lossy().starts_with('.')
            && let Ok(set) = mydesign_docs::read::BundleSet::open(&e.path())
        {
            return set.head().build_id;
        }
    }
    0
}

fn wait_for(what: &str, timeout: Duration, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(start.elapsed() < timeout, "timed out after {timeout:?} waiting for {what}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn build_watch_rebuilds_on_change_and_survives_a_broken_file() {
    let (tmp, repo) = sample_copy();
    let out: PathBuf = tmp.path().join("out");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_mydesign-docs"))
        .arg("build")
        .arg(&repo)
        .arg("--out")
        .arg(&out)
        .arg("--watch")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    struct Kill(std::process::Child);
    impl Drop for Kill {
        fn drop(&mut self) {
            let _ = self.0.kill();
            let _ = self.0.wait();
        }
    }
    let stdout = child.stdout.take().unwrap();
    let stderr = child.stderr.take().unwrap();
    let mut child = Kill(child);
    let lines = std::sync::Arc::new(std::sync::Mutex::new(Vec::<String>::new()));
    for stream in [Box::new(stdout) as Box<dyn std::io::Read + Send>, Box::new(stderr)] {
        let lines = lines.clone();
        std::thread::spawn(move || {
            use std::io::BufRead;
            for line in std::io::BufReader::new(stream).lines().map_while(Result::ok) {
                lines.lock().unwrap().push(line);
            }
        });
    }
    let timeout = Duration::from_secs(30);
    wait_for("the first build", timeout, || published_id(&out) != 0);
    let first = published_id(&out);
    wait_for("watching", timeout, || lines.lock().unwrap().iter().any(|l| l.starts_with("watching ")));
    // Nothing changed, so nothing is rebuilt: the build's own reads of the tree (inotify open/close events) must not
    // start the next build (the trial saw ~10 "rebuilt … unchanged" lines a second).
    std::thread::sleep(Duration::from_millis(1500));
    let idle: Vec<String> = lines.lock().unwrap().iter().filter(|l| l.starts_with("rebuilt ")).cloned().collect();
    assert_eq!(idle, Vec::<String>::new(), "rebuilt with nothing changed");

    let doc = repo.join("docs/button/index.md");
    let mut text = std::fs::read_to_string(&doc).unwrap();
    text.push_str("\n## Watched\n\nAdded while `build --watch` runs.\n");
    std::fs::write(&doc, &text).unwrap();
    wait_for("the rebuild after a change", timeout, || published_id(&out) != first);
    let second = published_id(&out);
    wait_for("the rebuild's line", timeout, || lines.lock().unwrap().iter().any(|l| l.starts_with("rebuilt ")));

    // A broken document (not UTF-8): a warning, and watching goes on.
    std::fs::write(&doc, b"# Button\n\xff\xfe broken\n").unwrap();
    wait_for("the warning about the broken file", timeout, || {
        lines.lock().unwrap().iter().any(|l| l.contains("docs/button/index.md") && l.contains("not UTF-8"))
    });
    std::fs::write(&doc, &text).unwrap();
    wait_for("the rebuild after the fix", timeout, || published_id(&out) == second);
    assert!(child.0.try_wait().unwrap().is_none(), "still watching: {:?}", lines.lock().unwrap());
    // Ctrl-C (SIGINT) ends it cleanly.
    let pid = child.0.id().to_string();
    std::process::Command::new("kill").args(["-INT", &pid]).status().unwrap();
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.0.try_wait().unwrap() {
            break s;
        }
        assert!(start.elapsed() < timeout, "SIGINT did not end `build --watch`");
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success(), "exit status after Ctrl-C: {status:?}; output {:?}", lines.lock().unwrap());
}

/// A new user's trial: a search cursor from a set rebuilt since (same system and version, another build) was
/// accepted, and continued a list of hits in another order. It is refused, as a document's cursor is.
#[test]
fn a_search_cursor_does_not_continue_over_a_rebuild_of_the_same_version() {
    let (tmp, repo) = sample_copy();
    let out = tmp.path().join("out");
    let (repo_arg, out_arg) = (repo.to_str().unwrap(), out.to_str().unwrap());
    common::ok(tmp.path(), &["build", repo_arg, "--out", out_arg, "--no-cache"]);
    let search = |cursor: Option<&str>| {
        let mut args = vec!["search", "button", "--bundles", out_arg, "--max-tokens", "300", "--json"];
        args.extend(cursor.map(|c| ["--cursor", c]).into_iter().flatten());
        common::run(tmp.path(), &args)
    };
    let first: serde_json::Value = serde_json::from_slice(&search(None).stdout).unwrap();
    let cursor = first["next_cursor"].as_str().expect("the search is cut at 300 tokens").to_string();
    assert!(search(Some(&cursor)).status.success(), "the same build continues");
    let doc = repo.join("docs/button/index.md");
    let text = std::fs::read_to_string(&doc).unwrap();
    std::fs::write(&doc, format!("{text}\n## Button groups\n\nButtons in a button group share a border.\n")).unwrap();
    common::ok(tmp.path(), &["build", repo_arg, "--out", out_arg, "--no-cache"]);
    let after = search(Some(&cursor));
    assert_eq!(after.status.code(), Some(2));
    // With `--json` the error is the JSON answer.
    let err: serde_json::Value = serde_json::from_slice(&after.stdout).unwrap();
    let err = err["error"].as_str().unwrap();
    assert!(err.contains("this search on another build") && err.contains("search \"button\""), "{err}");
}

/// Two design systems built into one `out/` keep a cache each (issue 31: README's real-input block built three
/// systems into `out/`, and the cache kept only the last one's, so none of them ever hit it).
#[test]
fn two_systems_built_into_one_out_keep_a_cache_each() {
    let tmp = tempfile::tempdir().unwrap();
    let first = tmp.path().join("first");
    common::copy_tree(&common::root().join("corpus"), &first);
    let second = tmp.path().join("second");
    common::copy_tree(&common::root().join("corpus"), &second);
    let package = std::fs::read_to_string(second.join("package.json")).unwrap();
    std::fs::write(second.join("package.json"), package.replace("\"my-design\"", "\"@acme/other-design\"")).unwrap();
    let build = |repo: &Path| common::ok(tmp.path(), &["build", repo.to_str().unwrap(), "--out", "out"]);
    build(&first);
    build(&second);
    let again = build(&first);
    assert!(again.contains("the published set is already this build, nothing written"), "{again}");
    let mut caches: Vec<String> = std::fs::read_dir(tmp.path().join("out/.cache"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    caches.sort();
    assert_eq!(caches, ["acme-other-design", "my-design"]);
}
