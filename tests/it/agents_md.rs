//! `agents-md` (issue 28 item 4): the passive index within its budget (counted here with tiktoken-rs, apart from
//! the compiler's counter), every documented component named, a rewrite that changes nothing, and `--check` failing
//! once the served version changed.

use std::path::Path;

use crate::common;

fn arg(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

fn tokens(text: &str) -> usize {
    tiktoken_rs::o200k_base().unwrap().encode_ordinary(text).len()
}

/// The names of the components of `bundles` that have a document (what the index must name).
fn documented(cwd: &Path, bundles: &Path) -> Vec<String> {
    let mut names = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let mut args = vec!["components", "--json", "--bundles", arg(bundles)];
        if let Some(c) = &cursor {
            args.extend(["--cursor", c.as_str()]);
        }
        let view: serde_json::Value = serde_json::from_str(&common::ok(cwd, &args)).unwrap();
        for c in view["components"].as_array().unwrap() {
            if c["tokens"].as_u64() > Some(0) {
                names.push(c["name"].as_str().unwrap().to_string());
            }
        }
        match view["next_cursor"].as_str() {
            Some(next) => cursor = Some(next.to_string()),
            None => return names,
        }
    }
}

/// Every name of `names` is on a line of the section (`- name:`, `- name (`) or in its `Also:` list.
fn assert_names_all(section: &str, names: &[String]) {
    let also: Vec<&str> = section
        .lines()
        .find_map(|l| l.strip_prefix("Also: "))
        .map(|l| l.trim_end_matches('.').split(", ").collect())
        .unwrap_or_default();
    for name in names {
        let listed =
            section.lines().any(|l| l.starts_with(&format!("- {name}:")) || l.starts_with(&format!("- {name} (")));
        assert!(listed || also.contains(&name.as_str()), "{name} is not named:\n{section}");
    }
}

#[test]
fn the_sample_index_fits_its_budget_names_every_component_and_is_rewritten_identically() {
    let tmp = tempfile::tempdir().unwrap();
    let bundles = common::sample().report.dir.parent().unwrap().to_path_buf();
    let names = documented(tmp.path(), &bundles);
    assert_eq!(names.len(), 16);
    for budget in [2_000, 400, 300] {
        let section =
            common::ok(tmp.path(), &["agents-md", "--max-tokens", &budget.to_string(), "--bundles", arg(&bundles)]);
        assert!(tokens(&section) <= budget, "{} tokens at {budget}:\n{section}", tokens(&section));
        assert!(section.starts_with("<!-- mydesign-docs:begin my-design -->\n## my-design 3.4.0"), "{section}");
        assert!(section.ends_with("<!-- mydesign-docs:end my-design -->\n"));
        assert!(section.contains("Import from 'my-design'."), "{section}");
        assert_names_all(&section, &names);
        if budget == 2_000 {
            assert!(!section.contains("\nAlso: "), "every component has its line at 2,000:\n{section}");
            // Most used first: Button is written in more of the other documents than any other component.
            assert!(section.contains("most used first (name: what it is for; tokens of its document):\n- button: "));
        } else {
            assert!(section.contains("\nAlso: "), "{budget} cannot hold every line:\n{section}");
        }
    }
    // Written into a file with other text: only the section changes, a second write changes nothing.
    let file = tmp.path().join("AGENTS.md");
    std::fs::write(&file, "# Project rules\n\nUse pnpm.\n").unwrap();
    common::ok(tmp.path(), &["agents-md", "--write", arg(&file), "--bundles", arg(&bundles)]);
    let first = std::fs::read_to_string(&file).unwrap();
    assert!(first.starts_with("# Project rules\n\nUse pnpm.\n\n<!-- mydesign-docs:begin my-design -->"), "{first}");
    common::ok(tmp.path(), &["agents-md", "--write", arg(&file), "--bundles", arg(&bundles)]);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), first);
    common::ok(tmp.path(), &["agents-md", "--check", arg(&file), "--bundles", arg(&bundles)]);
    let names_in_dir: Vec<_> = std::fs::read_dir(tmp.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert!(!names_in_dir.iter().any(|n| n.to_string_lossy().contains(".tmp-")), "{names_in_dir:?}");

    // A marker naming no system (a new user's placeholder) is no section: left in place, and said.
    let bare = tmp.path().join("CLAUDE.md");
    std::fs::write(&bare, "# Rules\n<!-- mydesign-docs:begin -->\n").unwrap();
    let out = common::run(tmp.path(), &["agents-md", "--write", arg(&bare), "--bundles", arg(&bundles)]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(
        err.contains("warning: ") && err.contains("CLAUDE.md line 2 holds a mydesign-docs marker naming no system"),
        "{err}"
    );
    assert!(std::fs::read_to_string(&bare).unwrap().contains("<!-- mydesign-docs:begin my-design -->"));
    std::fs::remove_file(&bare).unwrap();

    // Another version served: --check fails (exit 1) and says why.
    let newer = tmp.path().join("newer");
    common::ok(&common::root(), &["build", "corpus", "--out", arg(&newer), "--set-version", "3.5.0"]);
    let stale = common::run(tmp.path(), &["agents-md", "--check", arg(&file), "--bundles", arg(&newer)]);
    let err = String::from_utf8_lossy(&stale.stderr);
    assert_eq!(stale.status.code(), Some(1), "{err}");
    assert!(err.contains("is stale") && err.contains("my-design 3.5.0"), "{err}");
    let missing = common::run(
        tmp.path(),
        &["agents-md", "--check", arg(&tmp.path().join("CLAUDE.md")), "--bundles", arg(&bundles)],
    );
    assert_eq!(missing.status.code(), Some(1));
}

#[test]
fn real_indexes_fit_2000_tokens_and_name_every_documented_component() {
    let tmp = tempfile::tempdir().unwrap();
    for input in ["semi", "arco-design", "chakra-ui"] {
        let Some(built) = common::detected_build(input) else { return };
        let bundles = built.report.dir.parent().unwrap();
        let names = documented(tmp.path(), bundles);
        assert!(names.len() >= 60, "{input}: {} documented components", names.len());
        let section = common::ok(tmp.path(), &["agents-md", "--bundles", arg(bundles)]);
        assert!(tokens(&section) <= 2_000, "{input}: {} tokens", tokens(&section));
        assert_names_all(&section, &names);
        let again = common::ok(tmp.path(), &["agents-md", "--bundles", arg(bundles)]);
        assert_eq!(section, again, "{input}: the same set gives the same bytes");
    }
}

#[test]
fn setup_writes_the_index_next_to_the_client_configuration() {
    let tmp = tempfile::tempdir().unwrap();
    let bundles = common::sample().report.dir.parent().unwrap().to_path_buf();
    let setup = || {
        std::process::Command::new(env!("CARGO_BIN_EXE_mydesign-docs"))
            .current_dir(tmp.path())
            .args(["setup", "--client", "cursor", "--write", "--agents-md", "--bundles", arg(&bundles)])
            .env("HOME", tmp.path())
            .output()
            .unwrap()
    };
    let out = setup();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains("my-design 3.4.0 index added to ./AGENTS.md"), "{said}");
    assert!(tmp.path().join(".cursor/mcp.json").is_file());
    let index = std::fs::read_to_string(tmp.path().join("AGENTS.md")).unwrap();
    let printed = common::ok(tmp.path(), &["agents-md", "--bundles", arg(&bundles)]);
    assert_eq!(index, printed, "setup writes what agents-md prints");
    let again = setup();
    assert!(String::from_utf8_lossy(&again.stdout).contains("my-design 3.4.0 index already current in"));
    // Without --write it is refused, not ignored.
    let alone = common::run(tmp.path(), &["setup", "--client", "cursor", "--agents-md", "--bundles", arg(&bundles)]);
    assert_eq!(alone.status.code(), Some(2));
}
