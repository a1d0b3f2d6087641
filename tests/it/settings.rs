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

/// `setup --check` (issue 31) starts what the client's config file names, as the client would: the written entry
/// answers with its tools and the components it serves; an entry whose store is gone fails with the server's own
/// reason; a command that is not there fails saying so.
#[test]
fn setup_check_starts_the_configured_server_and_says_what_it_serves() {
    let tmp = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_mydesign-docs"))
            .current_dir(tmp.path())
            .args(args)
            .env("HOME", tmp.path())
            .output()
            .unwrap();
        (out.status.code(), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
    };
    let bundles = common::sample().report.dir.parent().unwrap().to_path_buf();
    let (code, _, err) = run(&["setup", "--client", "cursor", "--write", "--bundles", arg(&bundles)]);
    assert_eq!(code, Some(0), "{err}");
    let (code, out, err) = run(&["setup", "--client", "cursor", "--check"]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(err.contains("checking the `mydesign-docs` entry of ./.cursor/mcp.json"), "{err}");
    assert!(out.starts_with(&format!("ok: mydesign-docs {} answered (MCP ", env!("CARGO_PKG_VERSION"))), "{out}");
    assert!(out.contains(" with 8 tools: "), "{out}");
    for tool in ["list_components", "component_details", "search_docs", "component_changes"] {
        assert!(out.lines().next().unwrap().contains(tool), "{tool} listed: {out}");
    }
    let listing = out.split_once("list_components:\n").map(|(_, l)| l).unwrap_or_default();
    assert!(listing.contains("my-design 3.4.0") && listing.contains("button"), "what it serves: {out}");

    // The store the entry names is gone: the server exits at start, and the check says why, in its words.
    let moved = tmp.path().join("moved");
    let (code, _, err) = run(&["setup", "--client", "cursor", "--write", "--bundles", arg(&moved)]);
    assert_eq!(code, Some(0), "{err}");
    let (code, out, err) = run(&["setup", "--client", "cursor", "--check"]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(err.contains("error: the configured server does not work: the server exited"), "{err}");
    assert!(err.contains("the server's stderr:") && err.contains(arg(&moved)), "the server's reason: {err}");

    // The command itself is gone.
    std::fs::write(
        tmp.path().join(".cursor/mcp.json"),
        r#"{"mcpServers":{"mydesign-docs":{"command":"/nonexistent/mydesign-docs","args":["serve"]}}}"#,
    )
    .unwrap();
    let (code, _, err) = run(&["setup", "--client", "cursor", "--check"]);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("could not start `/nonexistent/mydesign-docs`: No such file or directory"), "{err}");
    assert!(err.contains("run `setup --write` again"), "{err}");
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
