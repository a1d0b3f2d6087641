//! What a new user reads when a call goes wrong (trials 4–6): CLI errors print CLI commands that run as printed
//! (with the `--system`/`--version`/`--bundles` the command line gave) and MCP errors name MCP calls, never both;
//! every echoed argument is escaped; `..` in a requested path is resolved lexically before lookup and suggestions.

use std::path::Path;

use mydesign_docs::read::{Detail, Library, LookupError, Paging};
use mydesign_docs::render::Surface;

use crate::common;

/// The sample built into `<tempdir>/my docs/out` (a directory whose name needs quoting); (tempdir, out).
fn sample_in_a_quoted_dir() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("my docs/out");
    common::build_into(&common::root().join("corpus"), "default", &out);
    (dir, out)
}

/// The commands between backticks in `message` that start with `mydesign-docs `.
fn printed_commands(message: &str) -> Vec<String> {
    message.split('`').skip(1).step_by(2).filter(|c| c.starts_with("mydesign-docs ")).map(str::to_string).collect()
}

/// The failing lookups of the trials, as CLI arguments: unknown names with and without close ones, at budgets that
/// cut their lists, a reversed line range, `props` with a heading, a bad cursor.
const FAILING: [&[&str]; 8] = [
    &["doc", "zzzzqqq"],
    &["doc", "table", "--section", "nope", "--max-tokens", "300"],
    &["file", "zzz/qq.ts"],
    &["function", "src/components/Table/Table.tsx", "nope", "--max-tokens", "300"],
    &["file", "src/components/Table/Table.tsx", "--start-line", "9", "--end-line", "3"],
    &["doc", "table", "--section", "props", "--section", "Usage"],
    &["doc", "table", "--cursor", "garbage"],
    &["components", "--lang", "xx"],
];

#[cfg(unix)]
#[test]
fn cli_errors_print_cli_commands_that_run_as_printed() {
    let (dir, out) = sample_in_a_quoted_dir();
    let bundles = out.to_str().unwrap();
    let mut ran = 0;
    for args in FAILING {
        let mut all = args.to_vec();
        all.extend(["--bundles", bundles, "--system", "my-design"]);
        let err = common::fails(dir.path(), &all);
        assert!(
            !err.contains("MCP") && !err.contains("max_tokens") && !err.contains("in MCP tools"),
            "{args:?}: {err}"
        );
        for command in printed_commands(&err) {
            // The command repeats the set options given (quoted), and runs as printed once its one placeholder
            // (a component to list the files of) is filled in.
            assert!(
                command.ends_with(" --system my-design --bundles '{bundles}'".replace("{bundles}", bundles).as_str()),
                "{command}"
            );
            let command = command.replace(" COMPONENT ", " table ");
            let listed = crate::edges::sh(dir.path(), &command);
            assert!(listed.starts_with("[my-design 3.4.0 · "), "{command}: {listed}");
            ran += 1;
        }
    }
    // The unknown component (no close name), the cut section list, the unknown path and the cut function list.
    assert_eq!(ran, 4);

    // The hints that name one argument are the CLI's flags.
    let err = |args: &[&str]| common::fails(dir.path(), &[args, &["--bundles", bundles]].concat());
    assert!(err(FAILING[4]).contains("(`--start-line N` `--end-line M`)"), "{}", err(FAILING[4]));
    assert!(err(FAILING[5]).contains("`props` is answered on its own (`--section props`)"), "{}", err(FAILING[5]));
    assert!(err(FAILING[6]).contains("pass the --cursor of the command a cut answer ends with"), "{}", err(FAILING[6]));
    // `diff` with its versions reversed prints the diff that runs (here without --version: it gave the versions).
    let reversed = err(&["diff", "table", "9.0.0", "3.4.0"]);
    assert_eq!(
        reversed.trim(),
        format!(
            "error: 9.0.0 is newer than 3.4.0: compare from the older version to the newer, `mydesign-docs diff table \
             3.4.0 9.0.0 --bundles '{bundles}'`"
        )
    );

    // Two systems side by side: `--system` is the CLI's word.
    let q = dir.path().join("q");
    std::fs::create_dir_all(&q).unwrap();
    std::fs::write(q.join("package.json"), br#"{"name": "q", "version": "1.0.0"}"#).unwrap();
    std::fs::create_dir_all(q.join("docs/good")).unwrap();
    std::fs::write(q.join("docs/good/index.md"), b"# Good\n").unwrap();
    common::build_into(&q, "default", &out);
    let several = err(&["components"]);
    assert!(several.contains("holds several systems (my-design, q); choose one with `--system NAME`"), "{several}");
    assert!(!several.contains("MCP"), "{several}");
}

#[test]
fn mcp_errors_name_mcp_calls_and_arguments_only() {
    let (_dir, out) = sample_in_a_quoted_dir();
    let library = Library::scan(std::slice::from_ref(&out)).unwrap();
    let set = library.select(None, None).unwrap();
    let budget = mydesign_docs::budget::Budget::new(300, Some(300)).unwrap();
    let small = Paging { budget, cursor: None };
    let sections = |s: &[&str]| s.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let errors: Vec<LookupError> = vec![
        set.details("zzzzqqq", None, None, &[], Paging::unlimited()).unwrap_err(),
        set.details("table", None, None, &sections(&["nope"]), small).unwrap_err(),
        set.file("zzz/qq.ts", false, None, Paging::unlimited()).unwrap_err(),
        set.function("src/components/Table/Table.tsx", "nope", small).unwrap_err(),
        set.file("src/components/Table/Table.tsx", false, Some((9, 3)), Paging::unlimited()).unwrap_err(),
        set.details("table", None, Some(Detail::Normal), &sections(&["props", "Usage"]), small).unwrap_err(),
    ];
    let texts: Vec<String> = errors.iter().map(|e| e.fitted(Surface::Mcp, 300)).collect();
    for text in &texts {
        assert!(!text.contains("mydesign-docs ") && !text.contains(" --") && !text.contains("(--"), "{text}");
    }
    assert!(texts[0].ends_with("and 7 more (list them with list_components())"), "{}", texts[0]);
    assert!(texts[2].ends_with("paths are listed by component: list_components(component=COMPONENT)"), "{}", texts[2]);
    assert!(texts[4].contains("(`start_line=N` `end_line=M`)"), "{}", texts[4]);
    assert!(texts[5].contains("(`sections=[\"props\"]`)"), "{}", texts[5]);
    // The cut lists name the budget as MCP's argument and the call that lists them all.
    assert!(
        texts[1].contains("(max_tokens ")
            && texts[1].contains("component_details(lang=\"en-US\", component=\"table\", detail=\"brief\")"),
        "{}",
        texts[1]
    );
    assert!(texts[3].contains("(max_tokens "), "{}", texts[3]);
    // And the same errors on the CLI surface name no MCP call.
    for e in &errors {
        let cli = e.fitted(Surface::Cli, 300);
        assert!(!cli.contains("MCP") && !cli.contains("list_components") && !cli.contains("_line="), "{cli}");
    }
}

/// Arguments holding a newline, a tab, ESC (a terminal colour sequence) and a right-to-left override.
const NASTY: &str = "ta\nble\t\u{1b}[31mred\u{202e}x";

/// Every echo of an argument: no raw control character reaches the message (one line, nothing the terminal runs).
#[test]
fn echoed_arguments_are_escaped_in_every_error() {
    let (dir, out) = sample_in_a_quoted_dir();
    let bundles = out.to_str().unwrap();
    let path = format!("src/{NASTY}.ts");
    let cases: Vec<Vec<&str>> = vec![
        vec!["doc", NASTY],
        vec!["doc", "table", "--section", NASTY],
        vec!["doc", "table", "--lang", NASTY],
        vec!["code-block", NASTY, "1"],
        vec!["files", NASTY],
        vec!["file", &path],
        vec!["function", "src/components/Table/Table.tsx", NASTY],
        vec!["components", "--system", NASTY],
        vec!["components", "--version", NASTY],
        vec!["diff", NASTY, "3.4.0"],
        vec!["diff", "table", NASTY, "3.4.0"],
        vec!["changelog", "--component", "table", "--since", NASTY],
        vec!["search", "x", "--component", NASTY],
    ];
    for case in &cases {
        let mut args = case.clone();
        args.extend(["--bundles", bundles]);
        let err = common::fails(dir.path(), &args);
        let line = err.trim_end();
        assert!(!line.contains('\n') && !line.contains('\u{1b}') && !line.contains('\u{202e}'), "{case:?}: {err:?}");
        assert!(line.contains("\\n") || line.contains("\\u{1b}"), "{case:?} echoes the argument escaped: {err}");
    }
    assert_eq!(mydesign_docs::read::echo(NASTY), "ta\\nble\\t\\u{1b}[31mred\\u{202e}x");
    assert_eq!(mydesign_docs::read::echo("it's \"q\" \\ ok"), "it's \"q\" \\ ok", "quotes and backslashes kept");
}

/// `..` and `.` segments are resolved before lookup and suggestions, never on the file system, and a path that
/// climbs out of the repository is refused as before.
#[test]
fn dot_segments_of_a_requested_path_are_resolved_lexically() {
    let (_dir, out) = sample_in_a_quoted_dir();
    let set = Library::scan(&[out]).unwrap().select(None, None).unwrap();
    let path = |p: &str| set.file(p, true, None, Paging::unlimited()).map(|f| f.file.path.clone());
    let real = "src/components/Table/utils.ts";
    assert_eq!(path("src/components/Button/../Table/utils.ts").unwrap(), real);
    assert_eq!(path("./src/components/./Table//utils.ts").unwrap(), real);
    assert_eq!(
        set.function("src/components/x/../Table/Table.tsx", "Table.render", Paging::unlimited())
            .map(|f| f.path.clone())
            .ok(),
        Some("src/components/Table/Table.tsx".to_string())
    );
    // Resolved, a near miss gets the suggestions of the path it means, and the message echoes what was asked.
    let err = path("src/components/x/../Table/util.ts").unwrap_err().to_string();
    assert!(err.starts_with("no file `src/components/x/../Table/util.ts` in my-design 3.4.0; did you mean: src/components/Table/utils.ts"), "{err}");
    // Climbing out of the repository is refused, with no suggestion from inside it.
    for out_of_root in ["../src/components/Table/utils.ts", "src/../../src/components/Table/utils.ts"] {
        let err = path(out_of_root).unwrap_err().to_string();
        assert!(err.contains("climbs out of the repository"), "{out_of_root}: {err}");
    }
}

/// `diff` counts the props that differ by kind and words each kind as it is: a removed prop was "1 prop changed"
/// (trial 6); a renamed one is one removed and one added.
#[test]
fn diff_counts_added_removed_and_changed_props_apart() {
    let repo = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let table = |rows: &[&str]| {
        let head = "# Good\n\n## API\n\n| Property | Description | Type | Default |\n| --- | --- | --- | --- |\n";
        head.to_string() + &rows.iter().map(|r| format!("{r}\n")).collect::<String>()
    };
    let size = "| size | Size | 'small' \\| 'large' | 'small' |";
    let versions = [
        ("1.0.0", table(&[size, "| color | Colour | string | - |", "| dot | Dot | boolean | false |"])),
        ("1.1.0", table(&[size, "| color | Colour | string | - |"])),
        ("1.2.0", table(&[size, "| colour | Colour | string | - |"])),
        ("1.3.0", table(&["| size | Size | 'small' \\| 'large' | 'large' |", "| colour | Colour | string | - |"])),
    ];
    for (v, doc) in &versions {
        std::fs::create_dir_all(repo.path().join("docs/good")).unwrap();
        std::fs::write(repo.path().join("docs/good/index.md"), doc).unwrap();
        std::fs::write(repo.path().join("package.json"), format!(r#"{{"name": "vers", "version": "{v}"}}"#)).unwrap();
        common::build_into(repo.path(), "default", out.path());
    }
    let o = out.path().to_str().unwrap();
    let header = |from: &str, to: &str| {
        let text = common::ok(repo.path(), &["diff", "good", from, to, "--bundles", o]);
        let json = common::ok(repo.path(), &["diff", "good", from, to, "--bundles", o, "--json"]);
        let json: serde_json::Value = serde_json::from_str(&json).unwrap();
        let counts = [&json["total_props"], &json["total_props_added"], &json["total_props_removed"]];
        let counts = counts.map(|n| n.as_u64().unwrap_or(0));
        let lines: Vec<String> = text.lines().take(2).map(str::to_string).collect();
        (lines[0].split(" · ").nth(2).unwrap().to_string(), lines[1].clone(), counts)
    };
    let (head, props, counts) = header("1.0.0", "1.1.0");
    assert_eq!((head.as_str(), counts), ("1 prop removed, functions +0 −0, 0 releases mention it", [1, 0, 1]));
    assert!(props.starts_with("## Props (1 removed; "), "{props}");
    let (head, props, counts) = header("1.1.0", "1.2.0");
    assert_eq!((head.as_str(), counts), ("1 prop added, 1 removed, functions +0 −0, 0 releases mention it", [2, 1, 1]));
    assert!(props.starts_with("## Props (1 added, 1 removed; "), "{props}");
    let (head, _, counts) = header("1.2.0", "1.3.0");
    assert_eq!((head.as_str(), counts), ("1 prop changed, functions +0 −0, 0 releases mention it", [1, 0, 0]));
    let (head, _, counts) = header("1.0.0", "1.3.0");
    assert_eq!(
        (head.as_str(), counts),
        ("1 prop added, 2 removed, 1 changed, functions +0 −0, 0 releases mention it", [4, 1, 2])
    );
    let (head, props, _) = header("1.3.0", "1.3.0");
    assert_eq!(
        (head.as_str(), props.get(..21)),
        ("0 props changed, functions +0 −0, 0 releases mention it", Some("## Props (0 changed; "))
    );
}

/// Trial 6: a damaged bundle in the newest version failed the lookup without naming the versions that work. The
/// error names the other versions whose sets open (newest first; one whose manifest is damaged is not named) and how
/// to ask for one; the lookup is not answered from another version behind the caller's back.
#[test]
fn a_damaged_bundle_names_the_other_versions_that_open() {
    let repo = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(repo.path().join("docs/good")).unwrap();
    std::fs::write(repo.path().join("docs/good/index.md"), "# Good\n\n```js\ngood();\n```\n").unwrap();
    for v in ["1.0.0", "1.1.0", "1.2.0", "1.3.0"] {
        std::fs::write(repo.path().join("package.json"), format!(r#"{{"name": "vers", "version": "{v}"}}"#)).unwrap();
        common::build_into(repo.path(), "default", out.path());
    }
    let damage = |file: &Path| {
        let len = std::fs::metadata(file).unwrap().len();
        std::fs::OpenOptions::new().write(true).open(file).unwrap().set_len(len / 2).unwrap();
    };
    damage(&out.path().join("vers@1.3.0/good.bundle"));
    damage(&out.path().join("vers@1.1.0/manifest.bundle"));
    let o = out.path().to_str().unwrap();
    let err = common::fails(repo.path(), &["code-block", "good", "1", "--bundles", o]);
    assert!(err.starts_with("error: ") && err.contains("/good.bundle: truncated"), "{err}");
    assert!(
        err.trim_end().ends_with("; other versions of vers open: 1.2.0, 1.0.0: ask for one with `--version 1.2.0`"),
        "{err}"
    );
    // As asked, it serves.
    let ok = common::ok(repo.path(), &["code-block", "good", "1", "--bundles", o, "--version", "1.2.0"]);
    assert!(ok.starts_with("[vers 1.2.0 · good") && ok.contains("good();"), "{ok}");
    // The same over MCP's wording, and with `--version 1.3.0` asked explicitly.
    let library = Library::scan(&[out.path().to_path_buf()]).unwrap();
    let e = library
        .fallback(|| library.select(None, Some("1.3.0"))?.code_block("good", 1, None, Paging::unlimited()))
        .unwrap_err();
    let text = e.fitted(Surface::Mcp, 2000);
    assert!(
        text.ends_with("; other versions of vers open: 1.2.0, 1.0.0: ask for one with `version=\"1.2.0\"`"),
        "{text}"
    );
    // A set of one version only: the damaged bundle's error as before.
    let only = tempfile::tempdir().unwrap();
    common::build_into(repo.path(), "default", only.path());
    damage(&only.path().join("vers@1.3.0/good.bundle"));
    let err = common::fails(repo.path(), &["code-block", "good", "1", "--bundles", only.path().to_str().unwrap()]);
    assert!(err.contains("/good.bundle: truncated") && !err.contains("other versions"), "{err}");
}

/// The server echoes escaped too: a component, path, section, argument name, tool name or resource URI holding
/// control characters comes back as one line (the decoded text, not only its JSON).
#[test]
fn the_server_echoes_arguments_escaped() {
    let (_dir, out) = sample_in_a_quoted_dir();
    let mut c = crate::mcp::mcp_stdio::StdioClient::start(&["--bundles", out.to_str().unwrap()]);
    let path = format!("src/{NASTY}.ts");
    let calls = [
        ("component_details", serde_json::json!({"component": NASTY})),
        ("component_details", serde_json::json!({"component": "table", "sections": [NASTY]})),
        ("get_file_code", serde_json::json!({"path": path})),
        ("get_function_code", serde_json::json!({"path": "src/components/Table/Table.tsx", "function": NASTY})),
        ("list_components", serde_json::json!({NASTY: 1})),
        (NASTY, serde_json::json!({})),
    ];
    for (tool, args) in calls {
        let r = c.call(tool, args.clone());
        let text = r["result"]["content"][0]["text"].as_str().or(r["error"]["message"].as_str()).unwrap_or_default();
        assert!(!text.is_empty(), "{tool} {args}: {r}");
        assert!(
            !text.contains('\n') && !text.contains('\u{1b}') && !text.contains('\u{202e}'),
            "{tool} {args}: {text:?}"
        );
        assert!(text.contains("\\n") || text.contains("\\u{1b}"), "{tool} {args}: {text}");
    }
    let uri = format!("mydesign://{NASTY}");
    let r = c.request("resources/read", serde_json::json!({ "uri": uri }));
    let message = r["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("ta\\nble") && !message.contains('\n'), "{r}");
}

/// The CLI's side of trial 6's silent cap: `--max-tokens` over the set's cap (`max_tokens` under `[thresholds]`,
/// 10,000 by default) is cut to the cap, and says so once on stderr (the answer on stdout is unchanged).
#[test]
fn the_cli_says_when_the_sets_cap_lowers_max_tokens() {
    let (dir, out) = sample_in_a_quoted_dir();
    let o = out.to_str().unwrap();
    let note = "note: --max-tokens 20,000 is over the set's cap of 10,000 tokens; the cap is the budget\n";
    for args in [
        vec!["doc", "table", "--full"],
        vec!["search", "table", "row", "selection"],
        vec!["changelog", "--component", "table", "--since", "3.0.0"],
    ] {
        let over = common::run(dir.path(), &[&args[..], &["--bundles", o, "--max-tokens", "20000"]].concat());
        let at_cap = common::run(dir.path(), &[&args[..], &["--bundles", o, "--max-tokens", "10000"]].concat());
        assert!(over.status.success() && at_cap.status.success(), "{args:?}");
        assert_eq!(String::from_utf8_lossy(&over.stderr), note, "{args:?}");
        assert_eq!(String::from_utf8_lossy(&at_cap.stderr), "", "{args:?}");
        // Answered as at the cap.
        let (a, b) = (String::from_utf8(over.stdout).unwrap(), String::from_utf8(at_cap.stdout).unwrap());
        assert_eq!(a.lines().next(), b.lines().next(), "{args:?}");
    }
}

/// Trial 7: an error keeps the set's cap (`max_tokens` under `[thresholds]`) as its budget when the call names none,
/// as answers do: a set built with a cap of 300 answered a misspelt section with 466 tokens on the CLI and 463 over
/// MCP (88 with `--max-tokens 300`).
#[test]
fn errors_fit_the_sets_cap_when_no_max_tokens_is_given() {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("repo");
    common::copy_tree(&common::root().join("corpus"), &repo);
    std::fs::write(repo.join("mydesign-docs.toml"), "[thresholds]\nmax_tokens = 300\n").unwrap();
    let out = dir.path().join("out");
    common::ok(dir.path(), &["build", repo.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    let (o, counter) = (out.to_str().unwrap(), common::Tiktoken::new("o200k_base"));
    let long = "x".repeat(60_000);
    for args in [
        vec!["doc", "table", "--section", "nope"],
        vec!["function", "src/components/Table/Table.tsx", "nope"],
        vec!["doc", "table", "--section", &long],
    ] {
        let text = common::fails(dir.path(), &[&args[..], &["--bundles", o]].concat());
        let json = common::run(dir.path(), &[&args[..], &["--bundles", o, "--json"]].concat());
        let json = String::from_utf8(json.stdout).unwrap();
        for answer in [&text, &json] {
            let tokens = counter.count(answer);
            assert!(tokens <= 300, "{:.40?}: {tokens} tokens:\n{answer}", args);
            assert!(answer.contains("nope") || answer.contains("xxxx"), "{answer}");
        }
    }
    let mut c = crate::mcp::mcp_stdio::StdioClient::start(&["--bundles", o]);
    let r = c.call("component_details", serde_json::json!({ "component": "table", "sections": ["nope"] }));
    assert_eq!(r["result"]["isError"], true, "{r}");
    let text = r["result"]["content"][0]["text"].as_str().unwrap();
    assert!(counter.count(text) <= 300, "{} tokens: {text}", counter.count(text));
}
