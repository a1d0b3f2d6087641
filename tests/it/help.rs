//! Every command's `--help` opens with what it does and an example (issue 31: each lookup's help opened with
//! "Options shared by every lookup"), the whole text is kept in a snapshot per command so a change shows in review,
//! and `man` writes a page per command with its options.

use crate::common;

/// The commands `mydesign-docs --help` lists, in its order (`help` aside).
fn commands() -> Vec<String> {
    let root = common::root();
    let help = common::ok(&root, &["--help"]);
    let list = help.split("Commands:\n").nth(1).expect("a command list");
    list.lines()
        .take_while(|l| !l.trim().is_empty())
        .filter_map(|l| l.strip_prefix("  ").filter(|l| !l.starts_with(' ')))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .map(str::to_string)
        .collect()
}

#[test]
fn every_command_lists_what_the_binary_has() {
    let expected = [
        "build",
        "components",
        "doc",
        "code-block",
        "prop",
        "context",
        "changelog",
        "files",
        "file",
        "function",
        "search",
        "tokens",
        "token-for",
        "serve",
        "verify",
        "pack",
        "install",
        "list",
        "remove",
        "diff",
        "check",
        "agents-md",
        "export",
        "setup",
        "completions",
        "man",
    ];
    assert_eq!(commands(), expected);
}

#[test]
fn every_help_opens_with_its_purpose_and_an_example() {
    let root = common::root();
    for command in commands() {
        let help = common::ok(&root, &[&command, "--help"]);
        let mut paragraphs = help.split("\n\n");
        let purpose = paragraphs.next().unwrap();
        assert!(!purpose.contains('\n'), "{command}: the purpose is one line: {purpose:?}");
        assert!(!purpose.starts_with("Options"), "{command}: {purpose:?}");
        let example = paragraphs.next().unwrap();
        assert!(
            example.starts_with("Example: `mydesign-docs ") || example.starts_with("Example: `claude "),
            "{command}: {example:?}"
        );
        // Wrapped to the width clap falls back to without a terminal (100 columns).
        assert!(help.lines().all(|l| l.chars().count() <= 100), "{command}: a line over 100 columns:\n{help}");
        insta::assert_snapshot!(format!("help_{command}"), help);
    }
}

#[test]
fn man_writes_a_page_per_command_with_its_options() {
    let root = common::root();
    let dir = tempfile::tempdir().unwrap();
    let written = common::ok(&root, &["man", "--dir", dir.path().to_str().unwrap()]);
    let mut names: Vec<String> =
        std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    names.sort();
    let mut expected: Vec<String> = commands().iter().map(|c| format!("mydesign-docs-{c}.1")).collect();
    expected.push("mydesign-docs.1".into());
    expected.sort();
    assert_eq!(names, expected);
    assert_eq!(written.lines().count(), expected.len(), "{written}");
    // The top page names the others, and they exist; a lookup's page documents its options.
    let top = std::fs::read_to_string(dir.path().join("mydesign-docs.1")).unwrap();
    assert!(top.contains("mydesign\\-docs\\-doc(1)"), "{top}");
    let doc = std::fs::read_to_string(dir.path().join("mydesign-docs-doc.1")).unwrap();
    for option in ["\\-\\-detail", "\\-\\-section", "\\-\\-max\\-tokens", "\\-\\-bundles"] {
        assert!(doc.contains(option), "{option} missing from the doc page:\n{doc}");
    }
    assert_eq!(common::ok(&root, &["man", "doc"]).trim_end(), doc.trim_end());
    let unknown = common::run(&root, &["man", "nope"]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("`nope` is not a command: build, components, doc"));
}
