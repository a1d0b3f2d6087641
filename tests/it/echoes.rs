//! Echoes of what a user typed or a repository named (issue 26, a new user's trial): control, escape and bidi
//! characters are escaped wherever a query, kind, version or name is echoed (`mydesign_docs::escape`); a
//! component named `-x` gets a next command that runs; a page number past u32 is named as asked; the CLI's no-hit
//! hint names its own command; a cut listing names the budget that lists what it left out.

use std::path::Path;

use crate::common;

/// A repository with components `-x` (a long document, cut at 300) and `button`, built into `<dir>/out`.
fn dash_repo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("repo");
    let put = |rel: &str, text: &str| {
        let p = repo.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    };
    put("package.json", r#"{"name": "dash", "version": "1.0.0"}"#);
    put("mydesign-docs.toml", "[[docs]]\npattern = \"docs/{component}/index.md\"\nlang = \"en-US\"\n");
    let mut doc = String::from("# Dash\n");
    for i in 1..=60 {
        doc.push_str(&format!("\n## Part {i}\n\nSome text about part {i} with several words to fill the budget.\n"));
    }
    put("docs/-x/index.md", &doc);
    put("docs/button/index.md", "# Button\n\nA button.\n");
    common::ok(&repo, &["build", ".", "--out", "../out"]);
    dir
}

/// Runs `command` through bash (ANSI-C quoting is bash's, zsh's and ksh's) in `cwd` with the binary on `PATH`.
fn bash(cwd: &Path, command: &str) -> String {
    let bin = Path::new(env!("CARGO_BIN_EXE_mydesign-docs")).parent().unwrap().to_path_buf();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    let out = std::process::Command::new("bash").arg("-c").arg(command).current_dir(cwd).env("PATH", path).output();
    let out = out.unwrap();
    assert!(out.status.success(), "`{command}` failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// The call a cut answer continues with (its line `[… continue with CALL]`).
fn continuation(answer: &str) -> &str {
    let line = answer.lines().find(|l| l.contains("continue with ")).unwrap();
    line.rsplit_once("continue with ").unwrap().1.trim_end().strip_suffix(']').unwrap()
}

#[test]
fn a_component_named_dash_x_continues_with_a_command_that_runs() {
    let dir = dash_repo();
    let first = common::ok(dir.path(), &["doc", "--bundles", "out", "--max-tokens", "300", "--", "-x"]);
    let call = continuation(&first);
    assert!(call.starts_with("mydesign-docs doc --cursor "), "{call}");
    assert!(call.ends_with(" --system dash --version 1.0.0 --lang en-US -- -x"), "{call}");
    let second = bash(dir.path(), call);
    assert!(second.starts_with("[dash 1.0.0 · -x · en-US · docs/-x/index.md · "), "{second:.300}");
    assert!(second.contains("## Part ") && !second.contains("# Dash\n"), "{second:.300}");
}

#[test]
fn queries_kinds_and_versions_are_echoed_escaped() {
    let root = common::root();
    let out = common::sample().report.dir.parent().unwrap().to_str().unwrap().to_string();
    // The query in the header, and in the next command, which still searches the same words.
    let query = "button\u{1b}[31m size\n\u{202e}";
    let text = common::ok(&root, &["search", query, "--bundles", &out, "--max-tokens", "300"]);
    assert!(!text.contains(['\u{1b}', '\u{202e}']), "{text}");
    assert!(text.starts_with("[my-design 3.4.0 · search \"button\\u{1b}[31m size\\n\\u{202e}\" · hits 1–"), "{text}");
    let call = continuation(&text);
    assert!(call.starts_with("mydesign-docs search $'button\\x1b[31m size\\x0a\\u202e' --max-tokens 300 "), "{call}");
    let next = bash(&root, call);
    assert!(next.contains(" · hits 2–"), "{next:.300}");
    // The JSON form escapes the bidi control too (serde_json writes only U+0000–U+001F as `\u`).
    let json = common::ok(&root, &["search", query, "--bundles", &out, "--max-tokens", "300", "--json"]);
    assert!(!json.contains('\u{202e}'), "{json:.300}");
    // `--kind` and `--detail`: the message, not clap's raw echo.
    let err = common::fails(&root, &["search", "button", "--bundles", &out, "--kind", "x\u{1b}[1m"]);
    assert_eq!(
        err.trim(),
        "error: invalid value for --kind: `x\\u{1b}[1m` is not a kind: doc, code, function, changelog or props"
    );
    let err = common::fails(&root, &["doc", "button", "--bundles", &out, "--detail", "\u{202e}x"]);
    assert_eq!(err.trim(), "error: invalid value for --detail: unknown detail `\\u{202e}x`: brief, normal or full");
    // `build --set-version`.
    let tmp = tempfile::tempdir().unwrap();
    let o = tmp.path().join("o");
    let err =
        common::fails(&root, &["build", "corpus", "--out", o.to_str().unwrap(), "--set-version", "1.0\u{1b}[31m"]);
    assert!(err.contains("version `1.0\\u{1b}[31m` cannot name a bundle set"), "{err}");
    assert!(!err.contains('\u{1b}'), "{err}");
}

#[test]
fn a_page_past_u32_and_the_no_hit_hint_are_said_as_they_are() {
    let root = common::root();
    let out = common::sample().report.dir.parent().unwrap().to_str().unwrap().to_string();
    let err = common::fails(&root, &["doc", "changelog-99999999999", "--bundles", &out]);
    assert_eq!(err.trim(), "error: changelog page 99999999999 is out of range: the en-US changelog has pages 1..6");
    let text = common::ok(&root, &["search", "zzqqxx", "--bundles", &out]);
    assert!(
        text.trim_end().ends_with(&format!(
            "[nothing matches: try other words, or list the components with `mydesign-docs components --bundles {out}`]"
        )),
        "{text}"
    );
    // A cut listing of the first names says the budget that lists the names it left out, and that budget does.
    let err = common::fails(&root, &["doc", "changelog--1", "--bundles", &out, "--max-tokens", "300"]);
    if let Some((_, rest)) = err.split_once(" more (--max-tokens ") {
        let budget: String = rest.chars().take_while(char::is_ascii_digit).collect();
        assert!(rest[budget.len()..].starts_with(" lists them"), "{err}");
        let whole = common::fails(&root, &["doc", "changelog--1", "--bundles", &out, "--max-tokens", &budget]);
        assert!(!whole.contains(" more (--max-tokens "), "{whole}");
    }
}
