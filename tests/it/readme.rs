//! README's quick start runs as written (issue 31): its `sh` block is taken from README.md, and every command after
//! the install line runs in `sh` in a fresh directory holding a copy of `corpus/`, with this test's binary as
//! `mydesign-docs` on `PATH` (it stands in for `cargo install`, which the test does not repeat).

use crate::common;
use std::process::Command;

/// The lines of the first ```sh block after `## Quick start`.
fn quick_start() -> Vec<String> {
    let readme = std::fs::read_to_string(common::root().join("README.md")).unwrap();
    let section = readme.split("\n## Quick start\n").nth(1).expect("README has a Quick start section");
    let block = section.split("```sh\n").nth(1).expect("a sh block").split("```").next().unwrap();
    block.lines().map(str::to_string).collect()
}

#[test]
fn the_quick_start_runs_as_written() {
    let lines = quick_start();
    assert_eq!(lines.len(), 5, "five commands: {lines:?}");
    assert!(lines[0].starts_with("cargo install --path . --locked"), "{}", lines[0]);
    let tmp = tempfile::tempdir().unwrap();
    let work = tmp.path().join("work");
    common::copy_tree(&common::root().join("corpus"), &work.join("corpus"));
    let bin = tmp.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_mydesign-docs"), bin.join("mydesign-docs")).unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let mut outputs = Vec::new();
    for line in &lines[1..] {
        let out = Command::new("sh")
            .arg("-c")
            .arg(line)
            .current_dir(&work)
            .env("PATH", &path)
            .env("MYDESIGN_DOCS_HOME", tmp.path().join("store"))
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(out.status.success(), "`{line}` failed:\n{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
        outputs.push(stdout);
    }
    // 2: the sample's set; 3: the client line naming this binary and the set; 4: Button's card; 5: hits.
    assert!(work.join("out/my-design@3.4.0/manifest.bundle").exists());
    assert!(outputs[0].contains("my-design 3.4.0"), "{}", outputs[0]);
    let out = std::fs::canonicalize(work.join("out")).unwrap();
    assert!(outputs[1].starts_with("claude mcp add"), "{}", outputs[1]);
    assert!(outputs[1].contains(&format!("serve --bundles {}", out.display())), "{}", outputs[1]);
    assert!(outputs[2].starts_with("[my-design 3.4.0 · button card · en-US"), "{}", outputs[2]);
    assert!(outputs[2].contains("import { Button } from 'my-design';"), "{}", outputs[2]);
    assert!(outputs[3].starts_with("[my-design 3.4.0 · search \"disabled button\" · hits 1–"), "{}", outputs[3]);
    assert!(outputs[3].contains("· button ·"), "{}", outputs[3]);
}
