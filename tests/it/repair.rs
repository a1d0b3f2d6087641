//! A damaged published set is repaired, never reported as success over it (new-user trial): a rebuild of the same
//! inputs (with or without the cache) and an install of the same build (with or without `--force`) rewrite a
//! generation whose files differ from what its manifest pins, through the atomic publish path, and say so.

use crate::common;
use crate::release::run_in;

use std::path::{Path, PathBuf};

fn arg(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

fn ok_in(cwd: &Path, store: &Path, args: &[&str]) -> String {
    let out = run_in(cwd, store, args);
    assert!(out.status.success(), "{args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("utf-8 stdout")
}

/// `verify --bundles DIR`: (exit code, stdout + stderr).
fn verify(cwd: &Path, dir: &Path) -> (Option<i32>, String) {
    let out = run_in(cwd, &cwd.join("no-store"), &["verify", "--bundles", arg(dir)]);
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    (out.status.code(), text)
}

/// Cuts the file `name` of the set published at `set` (through its link, into the generation) to 100 bytes.
fn truncate(set: &Path, name: &str) -> PathBuf {
    let path = set.canonicalize().unwrap().join(name);
    assert!(path.is_file(), "{} exists", path.display());
    std::fs::OpenOptions::new().write(true).open(&path).unwrap().set_len(100).unwrap();
    path
}

/// Flips one byte in the middle of the file `name` of the set published at `set`: same size, same header (trial 8:
/// such a copy was kept by a rebuild and by `install --force`, which said it repaired it).
fn flip(set: &Path, name: &str) {
    let path = set.canonicalize().unwrap().join(name);
    let mut bytes = std::fs::read(&path).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x55;
    std::fs::write(&path, bytes).unwrap();
}

/// A bundle of the set other than the manifest (the first by name).
fn some_bundle(set: &Path) -> String {
    let mut names: Vec<String> = std::fs::read_dir(set)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".bundle") && n != "manifest.bundle")
        .collect();
    names.sort();
    names.into_iter().next().expect("a bundle besides the manifest")
}

#[test]
fn a_rebuild_repairs_a_damaged_published_generation() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let corpus = common::root().join("corpus");
    let out = t.join("rb");
    let store = t.join("no-store");
    let build = |extra: &[&str]| {
        let mut args = vec!["build", arg(&corpus), "--out", arg(&out)];
        args.extend_from_slice(extra);
        ok_in(t, &store, &args)
    };
    build(&[]);
    let set = out.join("my-design@3.4.0");
    let generation = set.canonicalize().unwrap();
    assert_eq!(verify(t, &set).0, Some(0));

    // Same inputs, cache on: the damaged bundle is noticed on the no-change path and the set rewritten.
    let bundle = some_bundle(&set);
    truncate(&set, &bundle);
    let (code, text) = verify(t, &set);
    assert_ne!(code, Some(0), "the truncation is visible to verify: {text}");
    let msg = build(&[]);
    assert!(msg.contains("repaired:") && msg.contains(&bundle), "{msg}");
    assert!(!msg.contains("nothing written"), "{msg}");
    let (code, text) = verify(t, &set);
    assert_eq!(code, Some(0), "{text}");
    assert_eq!(set.canonicalize().unwrap(), generation, "the same build keeps its generation name");

    // Without the cache, the manifest itself cut: rewritten too.
    truncate(&set, "manifest.bundle");
    let msg = build(&["--no-cache"]);
    assert!(msg.contains("repaired:") && msg.contains("manifest.bundle"), "{msg}");
    let (code, text) = verify(t, &set);
    assert_eq!(code, Some(0), "{text}");

    // A byte flipped in the middle of a bundle, same size and header: rewritten too, with and without the cache.
    for extra in [&[][..], &["--no-cache"][..]] {
        flip(&set, &bundle);
        assert_ne!(verify(t, &set).0, Some(0));
        let msg = build(extra);
        assert!(msg.contains("repaired:") && msg.contains(&bundle), "{extra:?}: {msg}");
        let (code, text) = verify(t, &set);
        assert_eq!(code, Some(0), "{extra:?}: {text}");
    }

    // Every bundle but the manifest cut: the `repaired:` line names each one (a trial's named 1 of 4).
    let mut bundles: Vec<String> = std::fs::read_dir(&set)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".bundle") && n != "manifest.bundle")
        .collect();
    bundles.sort();
    assert!(bundles.len() >= 3, "{bundles:?}");
    for b in &bundles {
        truncate(&set, b);
    }
    let msg = build(&[]);
    let line = msg.lines().find(|l| l.contains("repaired:")).unwrap_or_else(|| panic!("{msg}"));
    // The manifest lists every bundle but itself.
    let listed = format!("{} of {} bundles: {}; the first: ", bundles.len(), bundles.len(), bundles.join(", "));
    assert!(line.contains(&listed), "{line}");
    assert_eq!(verify(t, &set).0, Some(0));

    // Intact: nothing written, no repair claimed.
    let msg = build(&[]);
    assert!(msg.contains("the published set is already this build, nothing written"), "{msg}");
    assert!(!msg.contains("repaired"), "{msg}");
    // No leftover of the damaged generation.
    let hidden: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".my-design@3.4.0.") && !n.contains(".gen-"))
        .collect();
    assert!(hidden.is_empty(), "{hidden:?}");
}

#[test]
fn an_install_of_the_same_build_repairs_a_damaged_installed_copy() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let store = t.join("store");
    let set = &common::sample().report.dir;
    let packed = ok_in(t, &store, &["pack", "--bundles", arg(set), "-o", arg(t)]);
    let file = t.join("my-design@3.4.0.tar.zst");
    assert!(file.is_file(), "{packed}");
    let build = mydesign_docs::store::build_id(set).unwrap();
    ok_in(t, &store, &["install", arg(&file)]);
    let installed = store.join("my-design@3.4.0");

    // The manifest cut: the same build, with --force, from the pack file.
    truncate(&installed, "manifest.bundle");
    assert_ne!(verify(t, &installed).0, Some(0));
    let msg = ok_in(t, &store, &["install", "--force", arg(&file)]);
    assert!(msg.contains(&format!("(build {build},")) && msg.contains("repairing the damaged installed copy"), "{msg}");
    assert!(msg.contains("manifest.bundle"), "{msg}");
    assert!(!msg.contains("replacing build"), "{msg}");
    let (code, text) = verify(t, &installed);
    assert_eq!(code, Some(0), "{text}");
    assert_eq!(mydesign_docs::store::build_id(&installed).unwrap(), build);

    // A bundle cut, no --force, from the directory: repaired rather than "unchanged".
    let bundle = some_bundle(&installed);
    truncate(&installed, &bundle);
    let msg = ok_in(t, &store, &["install", arg(set)]);
    assert!(msg.contains("repairing the damaged installed copy") && msg.contains(&bundle), "{msg}");
    let (code, text) = verify(t, &installed);
    assert_eq!(code, Some(0), "{text}");

    // The manifest cut, no --force: a repair, not a conflict with "another build".
    truncate(&installed, "manifest.bundle");
    let msg = ok_in(t, &store, &["install", arg(&file)]);
    assert!(msg.contains("repairing the damaged installed copy"), "{msg}");
    assert_eq!(verify(t, &installed).0, Some(0));

    // A byte flipped in the middle of a bundle, with --force and without: replaced, not only said to be.
    for extra in [&["--force"][..], &[][..]] {
        flip(&installed, &bundle);
        assert_ne!(verify(t, &installed).0, Some(0));
        let msg = ok_in(t, &store, &[&["install"][..], extra, &[arg(&file)][..]].concat());
        assert!(msg.contains("repairing the damaged installed copy"), "{extra:?}: {msg}");
        let (code, text) = verify(t, &installed);
        assert_eq!(code, Some(0), "{extra:?}: {text}");
    }

    // Intact: the same build is still a no-op.
    let msg = ok_in(t, &store, &["install", "--force", arg(&file)]);
    assert!(msg.contains("already installed (same build): unchanged"), "{msg}");
}
