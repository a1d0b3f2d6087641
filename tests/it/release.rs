//! From release to agent (issue 11): `pack` → `install` into a store → `list` / `remove`, refusals of damaged pack
//! files with the store unchanged, lookups and `serve` reading the store when no `--bundles` is given, and the
//! air-gapped round trip with the official Python MCP client.

use crate::common;
use crate::common::Tiktoken;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Runs the binary in `cwd` with the store at `store` (`MYDESIGN_DOCS_HOME`), nothing else from the environment's
/// data directories.
pub(crate) fn run_in(cwd: &Path, store: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mydesign-docs"))
        .current_dir(cwd)
        .args(args)
        .env("MYDESIGN_DOCS_HOME", store)
        .env_remove("XDG_DATA_HOME")
        .output()
        .expect("run binary")
}

/// `args` run in `cwd` with `store`; its standard output, after asserting success.
pub(crate) fn ok_in(cwd: &Path, store: &Path, args: &[&str]) -> String {
    let out = run_in(cwd, store, args);
    assert!(out.status.success(), "{args:?} failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("utf-8 stdout")
}

fn fails_in(cwd: &Path, store: &Path, args: &[&str]) -> String {
    let out = run_in(cwd, store, args);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {}", String::from_utf8_lossy(&out.stdout));
    String::from_utf8(out.stderr).expect("utf-8 stderr")
}

/// `p` as a command-line argument.
pub(crate) fn arg(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

fn dir_bytes(dir: &Path) -> u64 {
    std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().metadata().unwrap().len()).sum()
}

/// The sample packed once into a temporary directory: (pack file, set directory).
fn sample_pack(tmp: &Path) -> PathBuf {
    let set = &common::sample().report.dir;
    let out = ok_in(tmp, &tmp.join("unused-store"), &["pack", "--bundles", arg(set), "-o", arg(tmp)]);
    let file = tmp.join("my-design@3.4.0.tar.zst");
    assert!(out.starts_with("packed my-design@3.4.0 (build "), "{out}");
    assert!(file.is_file(), "{out}");
    file
}

#[test]
fn pack_is_deterministic_smaller_than_the_set_and_installs_once() {
    let tmp = tempfile::tempdir().unwrap();
    let set = &common::sample().report.dir;
    let file = sample_pack(tmp.path());
    // Same bundles, same bytes.
    let again = tmp.path().join("again.tar.zst");
    ok_in(tmp.path(), tmp.path(), &["pack", "--bundles", arg(set), "-o", arg(&again)]);
    assert_eq!(std::fs::read(&file).unwrap(), std::fs::read(&again).unwrap(), "pack is not deterministic");
    // ≤ the bundle set's bytes.
    let (packed, set_bytes) = (std::fs::metadata(&file).unwrap().len(), dir_bytes(set));
    assert!(packed <= set_bytes, "pack file {packed} bytes > set {set_bytes} bytes");
    // Any tar + zstd tool reads it: the first entry is the pack manifest.
    let build_id = mydesign_docs::store::build_id(set).unwrap();
    assert_eq!(build_id.len(), 16);

    let store = tmp.path().join("store");
    let out = ok_in(tmp.path(), &store, &["install", arg(&file)]);
    assert_eq!(
        out.trim(),
        format!(
            "my-design@3.4.0 (build {build_id}, {} bytes): installed in {}",
            mydesign_docs::render::thousands(set_bytes),
            store.join("my-design@3.4.0").display()
        )
    );
    // The installed set is the built one, byte for byte.
    assert_eq!(common::tree_bytes(&store.join("my-design@3.4.0")), common::tree_bytes(set));
    let before = common::tree_bytes(&store);
    let out = ok_in(tmp.path(), &store, &["install", arg(&file)]);
    assert!(out.contains("already installed (same build): unchanged"), "{out}");
    assert_eq!(common::tree_bytes(&store), before);

    let list = ok_in(tmp.path(), &store, &["list"]);
    assert!(
        list.contains(&format!(
            "my-design@3.4.0  {} bytes  build {build_id}",
            mydesign_docs::render::thousands(set_bytes)
        )),
        "{list}"
    );
    let json: serde_json::Value = serde_json::from_str(&ok_in(tmp.path(), &store, &["list", "--json"])).unwrap();
    assert_eq!(json["sets"][0]["build_id"], build_id.as_str());
    assert_eq!(json["sets"][0]["bytes"], set_bytes);

    // A lookup in a directory without ./out reads the store.
    let elsewhere = tempfile::tempdir().unwrap();
    let comps = ok_in(elsewhere.path(), &store, &["components"]);
    assert!(comps.starts_with("[my-design 3.4.0 · 17 components"), "{comps}");
    // Neither ./out nor the store holds a set: the error names both places searched.
    let empty_store = tmp.path().join("empty-store");
    let err = fails_in(elsewhere.path(), &empty_store, &["components"]);
    assert!(err.contains("out") && err.contains("empty-store"), "{err}");

    // remove: gone from the store and from lookups; removing it again names what is installed.
    let out = ok_in(tmp.path(), &store, &["remove", "my-design@3.4.0"]);
    assert_eq!(out.trim(), format!("removed {}", store.join("my-design@3.4.0").display()));
    assert!(common::tree_bytes(&store).is_empty());
    let err = fails_in(tmp.path(), &store, &["remove", "my-design@3.4.0"]);
    assert!(err.contains("my-design@3.4.0 is not installed") && err.contains("installed: nothing"), "{err}");
    let err = fails_in(tmp.path(), &store, &["remove", "../etc"]);
    assert!(err.contains("is not SYSTEM@VERSION"), "{err}");
}

#[test]
fn a_directory_installs_and_another_build_of_the_version_needs_force() {
    let tmp = tempfile::tempdir().unwrap();
    let store = tmp.path().join("store");
    let set = &common::sample().report.dir;
    ok_in(tmp.path(), &store, &["install", arg(set)]);
    let first = mydesign_docs::store::build_id(&store.join("my-design@3.4.0")).unwrap();
    assert_eq!(first, mydesign_docs::store::build_id(set).unwrap());

    // Same version, one document changed: another build.
    let repo = tmp.path().join("repo");
    common::copy_tree(&common::root().join("corpus"), &repo);
    let doc = repo.join("docs/tag/index.md");
    let text = std::fs::read_to_string(&doc).unwrap();
    std::fs::write(&doc, format!("{text}\n\nOne more paragraph for a second build.\n")).unwrap();
    let out = tmp.path().join("out2");
    let report = common::build_into(&repo, "default", &out);
    let second = mydesign_docs::store::build_id(&report.dir).unwrap();
    assert_ne!(first, second);

    let before = common::tree_bytes(&store);
    let err = fails_in(tmp.path(), &store, &["install", arg(&out)]);
    assert!(
        err.contains(&format!(
            "my-design@3.4.0 is already installed from another build ({first}; this one is {second}); pass --force"
        )),
        "{err}"
    );
    assert_eq!(common::tree_bytes(&store), before, "a refused install changed the store");
    let msg = ok_in(tmp.path(), &store, &["install", "--force", arg(&out)]);
    assert!(msg.contains(&format!("installed, replacing build {first}")), "{msg}");
    assert_eq!(common::tree_bytes(&store.join("my-design@3.4.0")), common::tree_bytes(&report.dir));
    // No temporary directory is left behind: the link, its generation and the previous one (kept for readers).
    let mut names: Vec<String> =
        std::fs::read_dir(&store).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    names.sort();
    let current = std::fs::read_link(store.join("my-design@3.4.0")).unwrap().to_string_lossy().into_owned();
    assert!(names.contains(&current) && names.contains(&"my-design@3.4.0".to_string()), "{names:?}");
    assert_eq!(names.len(), 3, "{names:?}");
    assert!(names.iter().filter(|n| n.starts_with('.')).all(|n| n.starts_with(".my-design@3.4.0.gen-")), "{names:?}");
}

#[test]
fn truncated_or_tampered_pack_files_are_refused_and_the_store_is_unchanged() {
    let tmp = tempfile::tempdir().unwrap();
    let file = sample_pack(tmp.path());
    let bytes = std::fs::read(&file).unwrap();
    let store = tmp.path().join("store");
    // A store that holds something already: it must stay exactly as it was.
    ok_in(tmp.path(), &store, &["install", arg(&file)]);
    ok_in(tmp.path(), &store, &["remove", "my-design@3.4.0"]);
    ok_in(tmp.path(), &store, &["install", arg(&common::sample().report.dir)]);
    let before = common::tree_bytes(&store);
    let try_install = |name: &str, data: &[u8], force: bool| -> String {
        let path = tmp.path().join(name);
        std::fs::write(&path, data).unwrap();
        let mut args = vec!["install", arg(&path)];
        if force {
            args.push("--force");
        }
        let err = fails_in(tmp.path(), &store, &args);
        assert!(err.contains("nothing was installed (the store is unchanged)"), "{name}: {err}");
        assert_eq!(common::tree_bytes(&store), before, "{name} changed the store");
        err
    };

    let err = try_install("cut.tar.zst", &bytes[..bytes.len() / 2], true);
    assert!(err.contains("truncated or damaged: the checksum trailer at its end is missing"), "{err}");
    let err = try_install("cut-by-one.tar.zst", &bytes[..bytes.len() - 1], true);
    assert!(err.contains("checksum trailer"), "{err}");
    let mut flipped = bytes.clone();
    flipped[bytes.len() / 3] ^= 0x40;
    let err = try_install("flipped.tar.zst", &flipped, true);
    assert!(err.contains("checksum mismatch"), "{err}");
    // Tampered with and the trailer recomputed: the archive's own checks refuse it.
    let body = flipped.len() - 24;
    let sum = xxhash_rust::xxh3::xxh3_64(&flipped[..body]);
    flipped[body + 16..].copy_from_slice(&sum.to_le_bytes());
    try_install("resummed.tar.zst", &flipped, true);
    // A file's content replaced inside a well-formed pack (new zstd frame, new trailer): the per-file checksum.
    let archive = zstd::decode_all(&bytes[..bytes.len() - 24]).unwrap();
    let mut archive = archive;
    let name = b"my-design@3.4.0/manifest.bundle";
    let header = archive.windows(name.len()).position(|w| w == name).expect("manifest.bundle in the archive");
    archive[header + 512 + 100] ^= 0x01;
    let mut repacked = zstd::encode_all(&archive[..], 3).unwrap();
    let sum = xxhash_rust::xxh3::xxh3_64(&repacked);
    repacked.extend_from_slice(&bytes[bytes.len() - 24..bytes.len() - 8]);
    repacked.extend_from_slice(&sum.to_le_bytes());
    let err = try_install("edited.tar.zst", &repacked, true);
    assert!(err.contains("the pack manifest says"), "{err}");
    let err = try_install("not-a-pack.tar.zst", b"hello", true);
    assert!(err.contains("not a mydesign-docs pack file"), "{err}");
}

/// Build → pack → install into a fresh store (a temporary HOME, no source tree, no ./out) → `serve` with no
/// `--bundles` answers the official Python MCP client.
#[test]
fn air_gapped_round_trip_with_the_python_mcp_client() {
    let Some(python) = python_with_mcp() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let file = sample_pack(tmp.path());
    // The receiving machine: only the pack file and the binary.
    let home = tmp.path().join("home");
    let work = tmp.path().join("work");
    std::fs::create_dir_all(&work).unwrap();
    let carried = work.join("my-design@3.4.0.tar.zst");
    std::fs::copy(&file, &carried).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_mydesign-docs"))
        .current_dir(&work)
        .args(["install", arg(&carried)])
        .env("HOME", &home)
        .env_remove("XDG_DATA_HOME")
        .env_remove("MYDESIGN_DOCS_HOME")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(home.join(".local/share/mydesign-docs/my-design@3.4.0/manifest.bundle").is_file());
    let out = Command::new(python)
        .current_dir(&work)
        .arg(common::root().join("tests/it/mcp_client.py"))
        .args(["--server", env!("CARGO_BIN_EXE_mydesign-docs"), "--profile", "sample"])
        .env("HOME", &home)
        .env_remove("XDG_DATA_HOME")
        .env_remove("MYDESIGN_DOCS_HOME")
        .env("RUST_LOG", "error")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    eprintln!("{stdout}");
    assert!(out.status.success(), "mcp_client.py failed:\n{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains(", 0 failed"), "{stdout}");
}

fn python_with_mcp() -> Option<PathBuf> {
    let python = std::env::var_os("MYDESIGN_MCP_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| common::root().join("target/mcp-venv/bin/python"));
    let usable = python.exists()
        && Command::new(&python).args(["-c", "import mcp, jsonschema"]).output().is_ok_and(|o| o.status.success());
    if !usable {
        common::skip(format_args!(
            "the air-gapped round trip: {} with the MCP SDK not found (CI creates it: python3 -m venv \
             target/mcp-venv && target/mcp-venv/bin/pip install mcp)",
            python.display()
        ));
        return None;
    }
    Some(python)
}

/// Figures for the real Semi set: pack and install time and size (printed), pack ≤ the set's bytes (asserted).
#[test]
fn semi_pack_and_install_figures() {
    let Some(semi) = common::semi() else {
        return; // `common::semi` printed why (or failed the test in CI)
    };
    let tmp = tempfile::tempdir().unwrap();
    let set = mydesign_docs::read::BundleSet::open(&semi.report.dir).unwrap();
    let t = std::time::Instant::now();
    let packed = mydesign_docs::store::pack(&set, tmp.path()).unwrap();
    let pack_ms = t.elapsed().as_millis();
    let set_bytes = dir_bytes(&semi.report.dir);
    let t = std::time::Instant::now();
    let r = mydesign_docs::store::install(&packed.path, &tmp.path().join("store"), false).unwrap();
    let install_ms = t.elapsed().as_millis();
    eprintln!(
        "semi: set {set_bytes} bytes, pack file {} bytes ({:.4}×), pack {pack_ms} ms, install {install_ms} ms",
        packed.bytes,
        packed.bytes as f64 / set_bytes as f64
    );
    assert_eq!(r[0].name, "semi@2.90.10");
    assert!(packed.bytes <= set_bytes, "pack {} > set {set_bytes}", packed.bytes);
}

/// `serve --bundles STORE --project DIR` over stdio: (instructions, text of `list_components`).
fn serve_project(store: &Path, project: &Path) -> (String, String) {
    serve_list_components(&["serve", "--bundles", arg(store), "--project", arg(project)], None)
}

/// Runs `args` (a `serve` command) over stdio, with the store at `store` when given: (instructions, text of
/// `list_components`).
pub(crate) fn serve_list_components(args: &[&str], store: Option<&Path>) -> (String, String) {
    use std::io::{BufRead, BufReader, Write};
    use std::process::Stdio;
    let mut command = Command::new(env!("CARGO_BIN_EXE_mydesign-docs"));
    if let Some(store) = store {
        command.env("MYDESIGN_DOCS_HOME", store).env_remove("XDG_DATA_HOME");
    }
    let mut child =
        command.args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null()).spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut read = |id: u64| -> serde_json::Value {
        loop {
            let mut line = String::new();
            assert!(stdout.read_line(&mut line).unwrap() > 0, "server closed stdout");
            let v: serde_json::Value = serde_json::from_str(&line).unwrap();
            if v["id"] == id {
                return v;
            }
        }
    };
    let init = serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}});
    writeln!(stdin, "{init}").unwrap();
    let instructions = read(1)["result"]["instructions"].as_str().unwrap().to_string();
    writeln!(stdin, "{}", serde_json::json!({"jsonrpc": "2.0", "method": "notifications/initialized"})).unwrap();
    let call = serde_json::json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "list_components", "arguments": {}}});
    writeln!(stdin, "{call}").unwrap();
    let r = read(2);
    let text = r["result"]["content"][0]["text"].as_str().unwrap_or_else(|| panic!("{r}")).to_string();
    let _ = child.kill();
    let _ = child.wait();
    (instructions, text)
}

#[test]
fn serve_project_serves_the_version_the_project_uses() {
    let tmp = tempfile::tempdir().unwrap();
    let store = tmp.path().join("store");
    ok_in(tmp.path(), &store, &["install", arg(&common::sample().report.dir)]);
    let mut config = mydesign_docs::config::Config::preset("default").unwrap();
    config.system.version = Some("3.2.0".into());
    let out = tmp.path().join("out-320");
    let report = mydesign_docs::compile::build(&mydesign_docs::compile::BuildOptions {
        repo: common::root().join("corpus"),
        out,
        config,
        progress: false,
    })
    .unwrap();
    assert_eq!(report.manifest.package.as_deref(), Some("my-design"), "the package name comes from package.json");
    ok_in(tmp.path(), &store, &["install", arg(&report.dir)]);

    let project = |name: &str, files: &[(&str, &str)]| -> PathBuf {
        let dir = tmp.path().join(name);
        for (path, text) in files {
            let p = dir.join(path);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
        }
        dir
    };
    let manifest = r#"{"name": "app", "dependencies": {"my-design": "^3.0.0", "react": "^18.0.0"}}"#;
    let nearest = |source: &str| {
        format!("my-design 3.2.0 · project uses 3.3.1 ({source}); serving 3.2.0, the nearest installed · 17 components")
    };
    type Case<'a> = (&'a str, Vec<(&'a str, &'a str)>, String);
    let cases: Vec<Case> = vec![
        (
            "node-modules",
            vec![("package.json", manifest), ("node_modules/my-design/package.json", r#"{"name": "my-design", "version": "3.2.0"}"#)],
            "my-design 3.2.0 · 17 components".to_string(),
        ),
        (
            "npm",
            vec![("package.json", manifest), ("package-lock.json", r#"{"lockfileVersion": 3, "packages": {"": {}, "node_modules/my-design": {"version": "3.3.1"}}}"#)],
            nearest("package-lock.json"),
        ),
        (
            "pnpm",
            vec![("package.json", manifest), ("pnpm-lock.yaml", "lockfileVersion: '9.0'\n\npackages:\n\n  my-design@3.3.1:\n    resolution: {integrity: sha512-x}\n")],
            nearest("pnpm-lock.yaml"),
        ),
        (
            "yarn",
            vec![("package.json", manifest), ("yarn.lock", "# yarn lockfile v1\n\nmy-design@^3.0.0:\n  version \"3.3.1\"\n")],
            nearest("yarn.lock"),
        ),
        (
            "range",
            vec![("package.json", r#"{"dependencies": {"my-design": "~3.2.0"}}"#)],
            "my-design 3.2.0 · project requires ~3.2.0 (package.json: no lockfile or node_modules); serving 3.2.0, the highest installed that matches · 17 components".to_string(),
        ),
        ("unrelated", vec![("package.json", r#"{"dependencies": {"react": "^18.0.0"}}"#)], "my-design 3.4.0 · 17 components".to_string()),
    ];
    for (name, files, header) in cases {
        let dir = project(name, &files);
        let (instructions, text) = serve_project(&store, &dir);
        assert!(text.starts_with(&format!("[{header}")), "{name}: {}", text.lines().next().unwrap_or(""));
        let note = header.split(" · ").nth(1).filter(|n| n.starts_with("project"));
        match note {
            Some(note) => assert!(
                instructions.contains(&format!("Version for this project: my-design: {note}.")),
                "{name}: {instructions}"
            ),
            None => assert!(!instructions.contains("Version for this project"), "{name}: {instructions}"),
        }
    }
}

#[test]
fn setup_write_merges_and_keeps_foreign_entries() {
    let tmp = tempfile::tempdir().unwrap();
    let store = tmp.path().join("store");
    let home = tmp.path().join("home");
    let project = tmp.path().join("project");
    std::fs::create_dir_all(project.join(".cursor")).unwrap();
    std::fs::create_dir_all(home.join(".codex")).unwrap();
    let setup = |args: &[&str]| -> Output {
        Command::new(env!("CARGO_BIN_EXE_mydesign-docs"))
            .current_dir(&project)
            .arg("setup")
            .args(args)
            .env("MYDESIGN_DOCS_HOME", &store)
            .env("HOME", &home)
            .output()
            .unwrap()
    };
    let exe = std::fs::canonicalize(env!("CARGO_BIN_EXE_mydesign-docs")).unwrap();
    let exe = exe.to_str().unwrap();

    // Cursor, project file with another server and another top-level key.
    let cursor = project.join(".cursor/mcp.json");
    let before = r#"{"mcpServers": {"github": {"command": "gh-mcp", "args": ["--x"]}}, "other": [1, 2]}"#;
    std::fs::write(&cursor, before).unwrap();
    let out = setup(&["--client", "cursor", "--write"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&cursor).unwrap()).unwrap();
    assert_eq!(v["mcpServers"]["github"], serde_json::json!({"command": "gh-mcp", "args": ["--x"]}));
    assert_eq!(v["other"], serde_json::json!([1, 2]));
    assert_eq!(
        v["mcpServers"]["mydesign-docs"],
        serde_json::json!({"command": exe, "args": ["serve", "--bundles", store.to_str().unwrap()]})
    );
    assert_eq!(std::fs::read_to_string(project.join(".cursor/mcp.json.bak")).unwrap(), before);
    // Twice: still one entry, foreign ones kept.
    assert!(setup(&["--client", "cursor", "--write"]).status.success());
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&cursor).unwrap()).unwrap();
    assert_eq!(v["mcpServers"].as_object().unwrap().len(), 2);

    // Codex, user TOML with comments and another server: kept as written.
    let codex = home.join(".codex/config.toml");
    let toml_before = "# my settings\nmodel = \"o3\"\n\n[mcp_servers.docs]\ncommand = \"docs-mcp\" # keep me\n";
    std::fs::write(&codex, toml_before).unwrap();
    assert!(setup(&["--client", "codex", "--write", "--user"]).status.success());
    let text = std::fs::read_to_string(&codex).unwrap();
    assert!(text.starts_with(toml_before), "{text}");
    let t: toml::Table = text.parse().unwrap();
    assert_eq!(t["mcp_servers"]["mydesign-docs"]["command"].as_str(), Some(exe));
    assert_eq!(t["mcp_servers"]["docs"]["command"].as_str(), Some("docs-mcp"));

    // VS Code: a new file, the `servers` key and a stdio entry.
    assert!(setup(&["--client", "vscode", "--write"]).status.success());
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(project.join(".vscode/mcp.json")).unwrap()).unwrap();
    assert_eq!(v["servers"]["mydesign-docs"]["type"], "stdio");
    assert!(!project.join(".vscode/mcp.json.bak").exists(), "no backup of a file that did not exist");

    // A JSON file with comments (Zed's settings) is refused, not rewritten.
    let zed = project.join(".zed/settings.json");
    std::fs::create_dir_all(zed.parent().unwrap()).unwrap();
    let jsonc = "// Zed settings\n{\n  \"theme\": \"One Dark\",\n}\n";
    std::fs::write(&zed, jsonc).unwrap();
    let out = setup(&["--client", "zed", "--write"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("is not plain JSON"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(std::fs::read_to_string(&zed).unwrap(), jsonc);

    // Claude Code: the command to run.
    let out = setup(&["--client", "claude-code"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with(&format!(
            "claude mcp add --scope project mydesign-docs -- {exe} serve --bundles {}",
            store.display()
        )),
        "{text}"
    );
}

#[test]
fn completions_and_man_page() {
    let tmp = tempfile::tempdir().unwrap();
    for (shell, marker) in
        [("bash", "complete -F"), ("zsh", "#compdef mydesign-docs"), ("fish", "complete -c mydesign-docs")]
    {
        let text = ok_in(tmp.path(), tmp.path(), &["completions", shell]);
        assert!(text.contains(marker) && text.contains("install"), "{shell}: {}", &text[..200.min(text.len())]);
    }
    let man = ok_in(tmp.path(), tmp.path(), &["man"]);
    assert!(man.contains(".TH mydesign-docs 1") && man.contains("install"), "{}", &man[..200]);
}

/// The shell recipe of docs/ci.md, exactly as written there, on the sample: build on a tag, verify, pack, install.
#[test]
fn ci_recipe_runs_end_to_end_on_the_sample() {
    let doc = std::fs::read_to_string(common::root().join("docs/ci.md")).unwrap();
    let block = doc.split("<!-- recipe:begin -->").nth(1).and_then(|r| r.split("<!-- recipe:end -->").next()).unwrap();
    let script = block.trim().strip_prefix("```sh").and_then(|s| s.strip_suffix("```")).expect("one sh block");
    let tmp = tempfile::tempdir().unwrap();
    let dist = tmp.path().join("dist");
    let out = Command::new("bash")
        .arg("-c")
        .arg(script)
        .current_dir(tmp.path())
        .env("MYDESIGN_DOCS", env!("CARGO_BIN_EXE_mydesign-docs"))
        .env("REPO", common::root().join("corpus"))
        .env("TAG", "v3.4.0")
        .env("DIST", &dist)
        .env_remove("ATTACH")
        .env_remove("PRESET")
        .env_remove("NPM_PACKAGE_DIR")
        .env_remove("NPM_PUBLISH")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "recipe failed:\n{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    let file = dist.join("my-design@3.4.0.tar.zst");
    assert!(stdout.contains("ok: my-design 3.4.0 in "), "{stdout}");
    assert!(stdout.contains("my-design@3.4.0 (build ") && stdout.contains("): installed in "), "{stdout}");
    let sha = std::fs::read_to_string(dist.join("my-design@3.4.0.tar.zst.sha256")).unwrap();
    assert!(sha.ends_with("  my-design@3.4.0.tar.zst\n"), "{sha}");
    // The file CI publishes is the one `pack` gives for the same sources.
    let local = sample_pack(tmp.path());
    assert_eq!(std::fs::read(&file).unwrap(), std::fs::read(&local).unwrap());
    // And the companion npm package, the same bytes as `pack --npm` of the same sources.
    let npm = std::fs::read(dist.join("npm/my-design-docs-3.4.0.tgz")).unwrap();
    let set = arg(&common::sample().report.dir);
    ok_in(tmp.path(), tmp.path(), &["pack", "--npm", "--bundles", set, "-o", arg(&tmp.path().join("local.tgz"))]);
    assert_eq!(npm, std::fs::read(tmp.path().join("local.tgz")).unwrap());
}

fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .current_dir(dir)
        .args(args)
        .env("GIT_AUTHOR_NAME", "t")
        .env("GIT_AUTHOR_EMAIL", "t@example.invalid")
        .env("GIT_COMMITTER_NAME", "t")
        .env("GIT_COMMITTER_EMAIL", "t@example.invalid")
        .output()
        .expect("git");
    assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// `build REPO --ref TAG` on a repository made here: the tagged tree is built (not HEAD), and the manifest records
/// repository, reference, commit and tag; a pack file given to `build` is only verified and unpacked.
#[test]
fn build_from_a_git_ref_records_the_source() {
    if Command::new("git").arg("--version").output().is_err() {
        common::skip(format_args!("no git on PATH"));
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().join("repo");
    common::copy_tree(&common::root().join("corpus"), &repo);
    git(&repo, &["init", "--quiet"]);
    git(&repo, &["add", "."]);
    git(&repo, &["commit", "--quiet", "-m", "3.4.0"]);
    git(&repo, &["tag", "v3.4.0"]);
    let tagged = git(&repo, &["rev-parse", "HEAD"]);
    let doc = repo.join("docs/tag/index.md");
    std::fs::write(&doc, std::fs::read_to_string(&doc).unwrap() + "\nUnreleased paragraph after the tag.\n").unwrap();
    git(&repo, &["commit", "--quiet", "-am", "after"]);
    let head = git(&repo, &["rev-parse", "HEAD"]);

    let out = tmp.path().join("out");
    ok_in(tmp.path(), tmp.path(), &["build", arg(&repo), "--ref", "v3.4.0", "--out", arg(&out)]);
    let set = mydesign_docs::read::BundleSet::open(&out.join("my-design@3.4.0")).unwrap();
    let source = set.manifest().unwrap().source.clone().expect("source recorded");
    assert_eq!(source.repository, arg(&repo));
    assert_eq!(source.reference.as_deref(), Some("v3.4.0"));
    assert_eq!(source.commit.as_deref(), Some(tagged.as_str()));
    assert_eq!(source.tag.as_deref(), Some("v3.4.0"));
    assert_eq!(set.head().built_by, format!("mydesign-docs {}", env!("CARGO_PKG_VERSION")));
    let tag_doc = ok_in(tmp.path(), tmp.path(), &["doc", "tag", "--full", "--bundles", arg(&out)]);
    assert!(!tag_doc.contains("Unreleased paragraph"), "built HEAD, not the tag");
    // No temporary checkout is left behind.
    let leftovers = std::fs::read_dir(std::env::temp_dir())
        .unwrap()
        .filter_map(|e| e.ok())
        .any(|e| e.file_name().to_string_lossy().starts_with(&format!("mydesign-docs-src-{}", std::process::id())));
    assert!(!leftovers);

    // The working tree itself: its HEAD commit, no tag.
    let out2 = tmp.path().join("out2");
    ok_in(tmp.path(), tmp.path(), &["build", arg(&repo), "--out", arg(&out2)]);
    let set = mydesign_docs::read::BundleSet::open(&out2.join("my-design@3.4.0")).unwrap();
    let source = set.manifest().unwrap().source.clone().expect("source recorded");
    assert_eq!((source.commit.as_deref(), source.tag.as_deref(), source.reference), (Some(head.as_str()), None, None));

    // A ref that does not exist: git's reason, exit 2.
    let err = fails_in(tmp.path(), tmp.path(), &["build", arg(&repo), "--ref", "v9.9.9", "--out", arg(&out2)]);
    assert!(err.contains("cannot fetch `v9.9.9`"), "{err}");

    // A pack file: verified and unpacked, nothing compiled.
    let file = sample_pack(tmp.path());
    let out3 = tmp.path().join("out3");
    let text = ok_in(tmp.path(), tmp.path(), &["build", arg(&file), "--out", arg(&out3)]);
    assert!(text.starts_with("unpacked my-design@3.4.0 (build "), "{text}");
    assert_eq!(common::tree_bytes(&out3.join("my-design@3.4.0")), common::tree_bytes(&common::sample().report.dir));
}

/// A store holding the sample (3.4.0) and a 3.5.0 built from a copy of it whose `tag` differs: a function and a
/// prop (`outlined`, in TypeScript only) added to `Tag.tsx`, one prop changed, one added and one removed in its
/// document's table, and a 3.5.0 changelog release
/// naming `Tag` (and `Table`). Built once per test binary; returns (a working directory, the store).
pub(crate) fn two_versions() -> &'static (PathBuf, PathBuf) {
    static CELL: std::sync::OnceLock<(PathBuf, PathBuf)> = std::sync::OnceLock::new();
    CELL.get_or_init(|| {
        let tmp = tempfile::tempdir().unwrap().keep();
        let store = tmp.join("store");
        ok_in(&tmp, &store, &["install", arg(&common::sample().report.dir)]);
        let repo = tmp.join("repo");
        common::copy_tree(&common::root().join("corpus"), &repo);
        let tag = repo.join("src/components/Tag/Tag.tsx");
        // And a prop added in TypeScript only (`outlined`; the documents' tables do not list it).
        let src = std::fs::read_to_string(&tag).unwrap().replacen(
            "    size?: 'small' | 'default' | 'large';\n",
            "    size?: 'small' | 'default' | 'large';\n    /** Draws only the outline. */\n    outlined?: boolean;\n",
            1,
        );
        assert!(src.contains("outlined?: boolean"), "Tag.tsx changed: the TypeScript-only prop was not added");
        std::fs::write(
            &tag,
            src + "\nexport function tagColorOf(props: TagProps): string {\n    return props.color ?? 'grey';\n}\n",
        )
        .unwrap();
        // The sample's props come from the document's tables: one changed, one added, one removed.
        let doc = repo.join("docs/tag/index.md");
        let text = std::fs::read_to_string(&doc).unwrap();
        let text = text
            .replacen(
                "| size | Size | 'small' \\| 'default' \\| 'large' | 'default' |  |",
                "| size | Size | 'small' \\| 'default' \\| 'large' \\| 'huge' | 'large' |  |",
                1,
            )
            .replacen(
                "| visible | Controlled visibility | boolean | - |  |\n",
                "| dot | Show a dot | boolean | false | 3.5.0 |\n",
                1,
            );
        std::fs::write(&doc, text).unwrap();
        let log = repo.join("CHANGELOG.md");
        let text = std::fs::read_to_string(&log).unwrap().replacen(
            "## 3.x\n\n",
            "## 3.x\n\n#### 3.5.0 (2026-11-20)\n\n- **Feat**\n    - Tag: add `shape` and the `huge` size\n    - Table: unrelated change\n\n",
            1,
        );
        std::fs::write(&log, text).unwrap();
        // Not `./out`, which lookups would read before the store.
        let out = tmp.join("built");
        ok_in(&tmp, &store, &["build", arg(&repo), "--out", arg(&out), "--set-version", "3.5.0"]);
        ok_in(&tmp, &store, &["install", arg(&out)]);
        (tmp, store)
    })
}

/// `diff` between two builds of the sample whose sources and changelog differ.
#[test]
fn diff_shows_props_functions_and_changelog_between_versions() {
    let (tmp, store) = two_versions();
    let text = ok_in(tmp, store, &["diff", "tag", "3.4.0", "3.5.0"]);
    let expected = [
        "[my-design 3.5.0 · tag: 3.4.0 → 3.5.0 · 2 props added, 1 removed, 1 changed, functions +1 −0, 1 release \
         mentions it · ≤ 544 tokens]",
        "## Props (2 added, 1 removed, 1 changed; from the documents' API tables (en-US) and, for props changed only there, TypeScript \
         types)",
        "+ Tag.dot: boolean = false",
        "~ Tag.size: 'small' | 'default' | 'large' = 'default' → 'small' | 'default' | 'large' | 'huge' = 'large'",
        "- Tag.visible: boolean",
        "+ TagProps.outlined: boolean",
        "## Functions (+1 −0)",
        "+ tagColorOf",
        "## Changelog (1 release mentions it)",
        "### 3.5.0",
        "- Tag: add `shape` and the `huge` size",
    ];
    assert_eq!(text.trim_end(), expected.join("\n"));
    // The newer version defaults to the highest installed.
    assert_eq!(ok_in(tmp, store, &["diff", "tag", "3.4.0"]), text);
    let err = fails_in(tmp, store, &["diff", "tag", "3.4.0", "3.5.0", "--max-tokens", "120"]);
    assert!(err.contains("120 is not in 300..=4294967295") && err.contains("tip: --max-tokens takes"), "{err}");
    let err = fails_in(tmp, store, &["diff", "tag", "3.4.0", "9.0.0"]);
    assert!(err.contains("9.0.0") && err.contains("available: 3.4.0, 3.5.0"), "{err}");
    let err = fails_in(tmp, store, &["diff", "tag", "3.5.0", "3.4.0"]);
    let runnable = "`mydesign-docs diff tag 3.4.0 3.5.0`";
    assert!(
        err.contains(&format!("3.5.0 is newer than 3.4.0: compare from the older version to the newer, {runnable}"))
    );
    // A new user's trial: `--lang en` (the alias every other lookup takes) compared props in no language and
    // answered "0 props changed"; `fr` did the same. The alias is the language; another is refused.
    let en = ok_in(tmp, store, &["diff", "tag", "3.4.0", "3.5.0", "--lang", "en"]);
    assert_eq!(en.lines().skip(1).collect::<Vec<_>>(), text.lines().skip(1).collect::<Vec<_>>(), "{en}");
    let err = fails_in(tmp, store, &["diff", "tag", "3.4.0", "3.5.0", "--lang", "fr"]);
    assert!(err.contains("fr") && err.contains("en-US, zh-CN"), "{err}");
    let err = fails_in(tmp, store, &["changelog", "--component", "tag", "--since", "3.4.0", "--lang", "xx"]);
    assert!(err.contains("xx") && err.contains("en-US, zh-CN"), "{err}");
}

/// A new user's trial: a diff with nothing changed stated "≤ 0 tokens" (its rows' bound) for a ~40-token answer.
/// The figure bounds the whole answer, in each form, counted here with tiktoken.
#[test]
fn a_diff_with_nothing_changed_states_a_size_that_bounds_it() {
    let (tmp, store) = two_versions();
    let text = ok_in(tmp, store, &["diff", "button", "3.4.0", "3.5.0"]);
    assert_eq!(
        text.trim_end(),
        "[my-design 3.5.0 · button: 3.4.0 → 3.5.0 · 0 props changed, functions +0 −0, 0 releases mention it · ≤ 145 \
         tokens]\n## Props (0 changed; from the documents' API tables (en-US) and, for props changed only there, \
         TypeScript types)\n## Functions (+0 −0)\n## Changelog (0 releases mention it)"
    );
    let json: serde_json::Value =
        serde_json::from_str(&ok_in(tmp, store, &["diff", "button", "3.4.0", "3.5.0", "--json"])).unwrap();
    assert_eq!(json["tokens"], 145);
    let both = "documents-and-typescript";
    assert_eq!(json["props_source"], serde_json::json!({"from": both, "to": both, "lang": "en-US"}));
    let counter = Tiktoken::new("o200k_base");
    let compact = serde_json::to_string(&json).unwrap();
    for (form, answer) in [("text", text.trim_end()), ("json", compact.as_str())] {
        let real = counter.count(answer);
        assert!(real > 0 && real <= 145, "{form}: {real} tokens, stated ≤ 145");
    }
}

/// The parts of a `diff --json` at `max` tokens, following each part's cursor.
fn diff_parts(tmp: &Path, store: &Path, max: &str) -> Vec<serde_json::Value> {
    let mut parts: Vec<serde_json::Value> = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let mut args = vec!["diff", "tag", "3.4.0", "3.5.0", "--json", "--max-tokens", max];
        if let Some(c) = &cursor {
            args.extend(["--cursor", c.as_str()]);
        }
        let part: serde_json::Value = serde_json::from_str(&ok_in(tmp, store, &args)).unwrap();
        cursor = part["next_cursor"].as_str().map(str::to_string);
        parts.push(part);
        if cursor.is_none() || parts.len() > 20 {
            return parts;
        }
    }
}

/// A diff over the budget is cut by row bounds (bytes: the reader does not tokenize), says so, and continues with
/// a cursor; a row alone over the budget is shortened and marked.
#[test]
fn diff_is_cut_by_the_budget_and_continues() {
    let (tmp, store) = two_versions();
    // Row bounds (module docs of `diff`): dot 47, size 135, visible 44, outlined 49 (TypeScript only), tagColorOf
    // 13, the changelog line 41 + its release heading 45. At 500 the room is 270: the first three rows (226), then
    // the other three (148).
    let parts = diff_parts(tmp, store, "500");
    let rows: Vec<(u64, u64)> =
        parts.iter().map(|p| (p["first_row"].as_u64().unwrap(), p["rows_total"].as_u64().unwrap())).collect();
    assert_eq!(rows, [(0, 6), (3, 6)]);
    assert_eq!(parts[0]["props"].as_array().unwrap().len(), 3);
    assert_eq!(parts[1]["changelog"][0]["lines"][0], "- Tag: add `shape` and the `huge` size");
    assert!(parts.iter().all(|p| p.get("shortened").is_none()));
    // At 300 (room 70): dot; size alone, in 3 pieces; visible; outlined and tagColorOf; the changelog line alone,
    // in 2 pieces (trial item 2: a row shortened to fit lost its rest, the cursor going on with the next row).
    let parts = diff_parts(tmp, store, "300");
    let firsts: Vec<u64> = parts.iter().map(|p| p["first_row"].as_u64().unwrap()).collect();
    assert_eq!(firsts, [0, 1, 1, 1, 2, 3, 5, 5]);
    let pieces: Vec<(u64, u64)> =
        parts.iter().filter_map(|p| Some((p["piece"]["row"].as_u64()?, p["piece"]["from"].as_u64()?))).collect();
    // 40 bytes a piece: the room (70) less the piece's fields (30); 23 for the changelog line, less its release
    // (`3.5.0`: 5 + 12).
    assert_eq!(pieces, [(2, 0), (2, 40), (2, 80), (6, 0), (6, 23)]);
    // The pieces of a row make its line.
    let size: String = parts[1..4].iter().map(|p| p["piece"]["text"].as_str().unwrap()).collect();
    assert!(size.starts_with("~ Tag.size: ") && size.len() as u64 == parts[1]["piece"]["bytes"].as_u64().unwrap());
    let line: String = parts[6..8].iter().map(|p| p["piece"]["text"].as_str().unwrap()).collect();
    assert_eq!(line, "- Tag: add `shape` and the `huge` size");
    // The text says where it was cut, and gives the command that continues.
    let text = ok_in(tmp, store, &["diff", "tag", "3.4.0", "3.5.0", "--max-tokens", "300"]);
    let last = text.trim_end().lines().last().unwrap();
    assert!(last.starts_with("[rows 1–1 of 6; 5 left; continue with mydesign-docs diff tag 3.4.0 --cursor "), "{last}");
    assert!(last.ends_with(" --max-tokens 300 --system my-design --version 3.5.0]"), "{last}");
    let cursor = parts[0]["next_cursor"].as_str().unwrap();
    let second = ok_in(tmp, store, &["diff", "tag", "3.4.0", "--max-tokens", "300", "--cursor", cursor]);
    assert!(second.starts_with("[my-design 3.5.0 · tag: 3.4.0 → 3.5.0 · "), "{second}");
    assert!(
        second.lines().next().unwrap().contains(" · row 2 alone is over the budget: bytes 1–40 of its "),
        "{second}"
    );
    assert!(
        second.contains(
            "## Props (2 added, 1 removed, 1 changed, continued; from the documents' API tables (en-US) and, for props changed only \
             there, TypeScript types)\n~ Tag.size: "
        ),
        "{second}"
    );
    // A cursor of this comparison refused for another one.
    let err = fails_in(tmp, store, &["diff", "button", "3.4.0", "--cursor", cursor]);
    assert!(
        err.contains("this cursor continues the changes of `tag` from 3.4.0 to 3.5.0, not the changes of `button`"),
        "{err}"
    );
}

#[test]
fn changelog_since_lists_the_releases_that_name_the_component() {
    let tmp = tempfile::tempdir().unwrap();
    let set = &common::sample().report.dir;
    let text = ok_in(
        tmp.path(),
        tmp.path(),
        &["changelog", "--component", "table", "--since", "3.3.4", "--bundles", arg(set)],
    );
    let heads: Vec<&str> = text.lines().filter(|l| l.starts_with('[') || l.starts_with('#')).collect();
    assert_eq!(
        heads,
        [
            "[my-design 3.4.0 · table: changelog after 3.3.4 up to 3.4.0 · 3 releases mention it · ≤ 1,402 tokens]",
            "## Changelog (3 releases mention it)",
            "### 3.4.0",
            "### 3.3.6",
            "### 3.3.5"
        ]
    );
    assert_eq!(text.lines().filter(|l| l.starts_with("- Table: ")).count(), 4 + 3 + 1);
    // Without --since: every release up to the one served, said so; a range with none says why.
    let all = ok_in(tmp.path(), tmp.path(), &["changelog", "--component", "table", "--bundles", arg(set)]);
    assert!(all.starts_with("[my-design 3.4.0 · table: changelog, all releases up to 3.4.0 · "), "{all}");
    let none = ok_in(
        tmp.path(),
        tmp.path(),
        &["changelog", "--component", "table", "--since", "3.4.0", "--bundles", arg(set)],
    );
    assert!(
        none.contains("No release after 3.4.0 up to 3.4.0 mentions table (no release is after 3.4.0: it is the version served; name an older one)."),
        "{none}"
    );
    let err = fails_in(
        tmp.path(),
        tmp.path(),
        &["changelog", "--component", "tabel", "--since", "3.3.4", "--bundles", arg(set)],
    );
    assert!(err.contains("did you mean: table"), "{err}");
    // TRIAL item 14: a --since newer than the set is an error, not "0 releases mention it".
    let err = fails_in(
        tmp.path(),
        tmp.path(),
        &["changelog", "--component", "table", "--since", "3.5.0", "--bundles", arg(set)],
    );
    assert_eq!(
        err.trim(),
        "error: --since 3.5.0 is newer than the set served, my-design 3.4.0: its changelog has no release after \
         3.5.0; give a version up to 3.4.0 (or --version a newer set, when one is installed)"
    );
    // The set's own version is no error: nothing is newer.
    let text = ok_in(
        tmp.path(),
        tmp.path(),
        &["changelog", "--component", "table", "--since", "3.4.0", "--bundles", arg(set)],
    );
    assert!(
        text.starts_with("[my-design 3.4.0 · table: changelog after 3.4.0 up to 3.4.0 · 0 releases mention it"),
        "{text}"
    );
}

/// Trial 6: `verify --store DIR` was refused ("unexpected argument") while install, list and remove take `--store`.
/// It verifies the sets installed there, as `--bundles DIR` does; with `--bundles` too it is a usage error.
#[test]
fn verify_takes_the_store_as_the_other_store_commands_do() {
    let tmp = tempfile::tempdir().unwrap();
    let (store, elsewhere) = (tmp.path().join("my store"), tmp.path().join("other home"));
    ok_in(tmp.path(), &store, &["install", arg(&common::sample().report.dir)]);
    // The store given is the one verified, not $MYDESIGN_DOCS_HOME's.
    let out = ok_in(tmp.path(), &elsewhere, &["verify", "--store", arg(&store)]);
    // 383 frames: the 5 stories of Button, a block frame each in both languages, are among them; and (format 12)
    // each component's `prop-sites` and each document's `uses/<lang>`; (format 13) the search index's two more
    // frames of units and terms (its declaration units).
    assert_eq!(
        out.trim_end(),
        format!("ok: my-design 3.4.0 in {}/my-design@3.4.0: 20 bundles, 383 frames, checksums match", store.display())
    );
    let json = ok_in(tmp.path(), &elsewhere, &["verify", "--store", arg(&store), "--json"]);
    assert_eq!(serde_json::from_str::<serde_json::Value>(&json).unwrap()["ok"], true, "{json}");
    let err = fails_in(tmp.path(), &elsewhere, &["verify", "--store", arg(&store), "--bundles", arg(&store)]);
    assert!(err.contains("'--store <DIR>' cannot be used with '--bundles <BUNDLES>'"), "{err}");
    // A damaged bundle in the store is named.
    let set = std::fs::read_link(store.join("my-design@3.4.0")).unwrap();
    let button = store.join(set).join("button.bundle");
    let len = std::fs::metadata(&button).unwrap().len();
    std::fs::OpenOptions::new().write(true).open(&button).unwrap().set_len(len / 2).unwrap();
    let err = fails_in(tmp.path(), &elsewhere, &["verify", "--store", arg(&store)]);
    assert!(err.contains("1 of the 20 bundles of my-design 3.4.0 in ") && err.contains("button.bundle"), "{err}");
}

/// Trial 7: without a language, `changelog --since` (and `diff`'s changelog) reads the set's default language, as
/// every other lookup: Semi's set is zh-CN, and it answered from the en-US changelog, the first stored.
#[test]
fn changelog_since_reads_the_sets_default_language() {
    let Some(b) = common::semi() else { return };
    let since = |lang: Option<&str>| {
        let changes = mydesign_docs::diff::changelog_since(&b.set, "table", "2.88.0", lang).unwrap();
        serde_json::to_value(&changes.changelog).unwrap()
    };
    assert_eq!(b.set.head().default_lang, "zh-CN");
    let (default, zh, en) = (since(None), since(Some("zh-CN")), since(Some("en-US")));
    assert_eq!(default, zh);
    assert_ne!(default, en, "the two changelogs differ in their words");
}
