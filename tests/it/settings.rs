//! No silent settings (issue 31) and the small trial findings of issue 26: contradictory flags refused, `setup`
//! saying what it will serve, spools of killed builds removed at the next build's start, `build --out FILE` saying
//! what is wrong.

use crate::common;

use std::path::Path;
use std::process::Command;

fn arg(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

#[test]
fn contradictory_detail_flags_are_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let bundles = common::sample().report.dir.parent().unwrap().to_path_buf();
    let err = common::fails(tmp.path(), &["doc", "table", "--full", "--detail", "brief", "--bundles", arg(&bundles)]);
    assert!(err.contains("the argument '--full' cannot be used with '--detail <DETAIL>'"), "{err}");
    // Each alone still answers.
    let full = common::ok(tmp.path(), &["doc", "table", "--full", "--bundles", arg(&bundles)]);
    let same = common::ok(tmp.path(), &["doc", "table", "--detail", "full", "--bundles", arg(&bundles)]);
    assert_eq!(full, same);
}

#[test]
fn setup_says_what_it_will_serve_and_warns_when_nothing_is_there() {
    let tmp = tempfile::tempdir().unwrap();
    let setup = |bundles: &Path| {
        let out = Command::new(env!("CARGO_BIN_EXE_mydesign-docs"))
            .current_dir(tmp.path())
            .args(["setup", "--client", "cursor", "--bundles", arg(bundles)])
            .env("HOME", tmp.path())
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        (String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
    };
    let missing = tmp.path().join("no-store");
    let (stdout, stderr) = setup(&missing);
    assert!(
        stderr.starts_with(&format!(
            "warning: {} does not exist: the configured server has nothing to serve and will exit at start; build one",
            missing.display()
        )),
        "{stderr}"
    );
    assert!(stdout.contains("\"mcpServers\""), "the snippet is still printed, on stdout alone: {stdout}");
    let empty = tmp.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let (_, stderr) = setup(&empty);
    assert!(stderr.starts_with(&format!("warning: {} holds no bundle set", empty.display())), "{stderr}");
    let bundles = common::sample().report.dir.parent().unwrap().to_path_buf();
    let (_, stderr) = setup(&bundles);
    assert_eq!(stderr.trim_end(), format!("the server will serve my-design 3.4.0 from {}", bundles.display()));
}

#[test]
fn spools_of_killed_builds_go_at_the_next_builds_start_even_when_nothing_is_written() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let corpus = common::root().join("corpus");
    let build = || common::ok(tmp.path(), &["build", arg(&corpus), "--out", arg(&out)]);
    build();
    // A process that is gone (above any pid_max Linux allows) and one that runs (this test).
    let dead = out.join(".build.tmp-4000000000");
    let alive = out.join(format!(".build.tmp-{}", std::process::id()));
    for d in [&dead, &alive] {
        std::fs::create_dir_all(d).unwrap();
        std::fs::write(d.join("x.bundle"), b"partial").unwrap();
    }
    let msg = build();
    assert!(msg.contains("nothing written"), "an unchanged rebuild: {msg}");
    assert!(!dead.exists(), "the dead build's spool is removed");
    assert!(alive.join("x.bundle").is_file(), "a running build's spool is kept");
}

#[test]
fn build_out_naming_a_file_says_what_is_wrong() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("out.txt");
    std::fs::write(&file, b"mine").unwrap();
    let corpus = common::root().join("corpus");
    let err = common::fails(tmp.path(), &["build", arg(&corpus), "--out", arg(&file)]);
    assert!(
        err.contains(&format!(
            "--out {}: exists and is not a directory; the output is a directory (created when missing)",
            file.display()
        )),
        "{err}"
    );
    assert_eq!(std::fs::read(&file).unwrap(), b"mine", "the file is left as it was");
}
