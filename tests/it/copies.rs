//! Copies of one `system@version` in several `--bundles` directories (trial "edges2", item 1): a copy whose
//! manifest opens but whose bundles are damaged inside (a frame's checksum) must not be served while another copy
//! has them intact, for every lookup kind, in the CLI and over MCP, and the fallback is said.

use std::path::Path;

use crate::common;

/// Flips one byte in the middle of every frame of every bundle of `set` but its manifest: each lookup that reads a
/// frame of them fails its checksum, while the manifest (sizes and header checksums included) still opens.
fn damage_every_frame(set: &Path) -> usize {
    let mut flipped = 0;
    for e in std::fs::read_dir(set).unwrap() {
        let path = e.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if !name.ends_with(".bundle") || name == "manifest.bundle" {
            continue;
        }
        let bundle = mydesign_docs::bundle::Bundle::open(&path).unwrap();
        let ranges: Vec<std::ops::Range<u64>> = bundle.keys().filter_map(|k| bundle.frame_range(k)).collect();
        drop(bundle);
        let mut bytes = std::fs::read(&path).unwrap();
        for r in ranges.iter().filter(|r| r.end > r.start) {
            bytes[(r.start + (r.end - r.start) / 2) as usize] ^= 0x5a;
            flipped += 1;
        }
        std::fs::write(&path, bytes).unwrap();
    }
    flipped
}

/// The sample built into two directories, the first copy with every frame damaged ([`damage_every_frame`]):
/// (first, second, the damaged set's directory).
fn two_copies() -> (tempfile::TempDir, tempfile::TempDir, std::path::PathBuf) {
    let corpus = common::root().join("corpus");
    let (first, second) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let bad = common::build_into(&corpus, "default", first.path()).dir;
    common::build_into(&corpus, "default", second.path());
    assert!(damage_every_frame(&bad) > 100);
    (first, second, bad)
}

/// The lookups of the trial, one or more per kind (doc in each form, code block, changelog page and component
/// lines, files, file, function, search).
const LOOKUPS: &[&[&str]] = &[
    &["components"],
    &["doc", "table"],
    &["doc", "button", "--lang", "zh-CN"],
    &["doc", "badge", "--detail", "brief"],
    &["doc", "badge", "--section", "using-in-typescript", "--lang", "zh-CN"],
    &["doc", "badge", "--section", "props"],
    &["code-block", "table", "33"],
    &["changelog", "--page", "2"],
    &["doc", "changelog-6", "--lang", "zh-CN"],
    &["changelog", "--component", "table", "--since", "3.0.0"],
    &["files", "table"],
    &["file", "src/components/Table/Table.tsx"],
    &["file", "src/components/Tag/Tag.tsx", "--start-line", "3", "--end-line", "9"],
    &["function", "src/components/Table/Table.tsx", "Table.render"],
    &["search", "selectable", "rows"],
    &["search", "changelog", "--kind", "changelog"],
];

#[test]
fn a_copy_damaged_inside_is_answered_from_the_intact_copy_by_every_cli_lookup() {
    let (first, second, bad) = two_copies();
    let (d, g) = (first.path().to_str().unwrap(), second.path().to_str().unwrap());

    // The damaged copy alone: its checksum error, as before.
    let err = common::fails(first.path(), &["doc", "table", "--bundles", d]);
    assert!(err.contains("checksum mismatch"), "{err}");

    // The intact copy named twice is one copy (the same directory), whose printed commands are as long as those
    // naming both directories: the budgets reserve the same bytes for them.
    assert_eq!(d.len(), g.len());
    let (twice, both) = (format!("--bundles {g} --bundles {g}"), format!("--bundles {d} --bundles {g}"));
    let bad = bad.canonicalize().unwrap();
    for args in LOOKUPS {
        for json in [&[][..], &["--json"][..]] {
            let json: &[&str] = json;
            let alone = common::ok(second.path(), &[*args, &["--bundles", g, "--bundles", g][..], json].concat());
            let run = common::run(second.path(), &[*args, &["--bundles", d, "--bundles", g][..], json].concat());
            let stderr = String::from_utf8_lossy(&run.stderr);
            assert!(run.status.success(), "{args:?} failed: {stderr}");
            // The commands printed repeat both directories, in the order given.
            assert_eq!(String::from_utf8(run.stdout).unwrap(), alone.replace(&twice, &both), "{args:?} {json:?}");
            if args[0] != "components" {
                let said = format!(
                    "warning: my-design 3.4.0 in {}: a bundle is damaged ({}/",
                    first.path().join("my-design@3.4.0").display(),
                    bad.display()
                );
                let answered =
                    format!("; answered from the copy in {}", second.path().join("my-design@3.4.0").display());
                assert!(stderr.contains(&said) && stderr.contains(&answered), "{args:?}: {stderr}");
            }
        }
    }
}

/// The MCP calls that answer the CLI lookups above.
fn calls() -> Vec<(&'static str, serde_json::Value)> {
    use serde_json::json;
    vec![
        ("list_components", json!({})),
        ("list_components", json!({"component": "table"})),
        ("component_details", json!({"component": "table"})),
        ("component_details", json!({"component": "button", "lang": "zh-CN"})),
        ("component_details", json!({"component": "badge", "detail": "brief"})),
        ("component_details", json!({"component": "badge", "sections": ["props"]})),
        ("component_details", json!({"component": "changelog-6", "lang": "zh-CN"})),
        ("get_code_block", json!({"component": "table", "index": 33})),
        ("get_changelog", json!({"page": 2})),
        ("get_file_code", json!({"path": "src/components/Table/Table.tsx"})),
        ("get_function_code", json!({"path": "src/components/Table/Table.tsx", "function": "Table.render"})),
        ("search_docs", json!({"query": "selectable rows"})),
        ("search_docs", json!({"query": "selectable rows", "system": "my-design", "version": "3.4.0"})),
    ]
}

#[test]
fn a_copy_damaged_inside_is_answered_from_the_intact_copy_by_every_tool_and_logged() {
    let (first, second, _) = two_copies();
    let (d, g) = (first.path().to_str().unwrap(), second.path().to_str().unwrap());
    let mut both = crate::mcp::mcp_stdio::StdioClient::start(&["--bundles", d, "--bundles", g]);
    let mut alone = crate::mcp::mcp_stdio::StdioClient::start(&["--bundles", g]);
    let mut damaged = crate::mcp::mcp_stdio::StdioClient::start(&["--bundles", d]);
    for (tool, args) in calls() {
        let want = alone.call(tool, args.clone());
        assert_ne!(want["result"]["isError"], true, "{tool} {args}: {want}");
        assert_eq!(both.call(tool, args.clone())["result"], want["result"], "{tool} {args}");
        if tool != "list_components" || args.get("component").is_some() {
            let r = damaged.call(tool, args.clone());
            assert_eq!(r["result"]["isError"], true, "{tool} {args}: the damaged copy alone fails: {r}");
        }
    }
    // A resource read too.
    let uri = serde_json::json!({"uri": "mydesign://my-design/3.4.0/table"});
    assert_eq!(both.request("resources/read", uri.clone())["result"], alone.request("resources/read", uri)["result"]);

    // The server's log names the damaged copy and the one that answered.
    let init = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_code_block","arguments":{"component":"table","index":1}}}
"#;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_mydesign-docs"))
        .args(["serve", "--bundles", d, "--bundles", g])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write as _;
    child.stdin.take().unwrap().write_all(init.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains(r#""id":2"#) && !stdout.contains(r#""isError":true"#), "{stdout}");
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(
        log.contains(&format!(
            "my-design 3.4.0 in {}: a bundle is damaged",
            first.path().join("my-design@3.4.0").display()
        )) && log.contains(&format!("answered from the copy in {}", second.path().join("my-design@3.4.0").display())),
        "{log}"
    );
}
