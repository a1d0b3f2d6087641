//! Every lookup answers at the smallest budget (issue 26 §1: Arco's `doc table`, `tokens` and props were refused at
//! 300, antd-mobile's lists at 300/301, and a 17-byte `--bundles` path made the CLI refuse): on each of the six real
//! inputs, every lookup at 300 and 301 answers — never "ask for max_tokens N" — in every form it is read in (the
//! MCP text item and `structuredContent`, the CLI text, `--json`), each within the budget as tiktoken counts it,
//! and its chain goes on for a few parts at the same budget. Then the CLI itself, run with a long `--bundles`
//! directory (48 bytes), answers every lookup at 300 within budget.

use std::path::Path;

use crate::common::{self, Built, Tiktoken};

use mydesign_docs::budget::Budget;
use mydesign_docs::read::{BundleSet, Detail, ListKind, LookupError, Paging};
use mydesign_docs::render::{Forms, Render, Surface, fitted};
use mydesign_docs::search::query::SearchOptions;

/// The budgets swept: the documented minimum and the one after it (antd-mobile's lists failed at both).
const BUDGETS: [u32; 2] = [300, 301];

/// Parts followed per chain: the first part (whose header says the most) and the first continuations.
const PARTS: usize = 3;

/// Answers checked, and the lookups that answered.
#[derive(Default)]
struct Tally {
    answers: u32,
    lookups: u32,
    /// What was refused or went over, all of it (one run shows every kind).
    failures: Vec<String>,
}

/// Follows `call` at `max` in `forms` for up to [`PARTS`] parts: each answers, and each form read is within `max`.
fn follow<V: Render>(
    what: &str,
    max: u32,
    forms: Forms,
    counter: &Tiktoken,
    tally: &mut Tally,
    call: &dyn Fn(Paging) -> Result<V, LookupError>,
) {
    let budget = Budget::new(10_000, Some(max)).unwrap();
    let mut cursor: Option<String> = None;
    for n in 0..PARTS {
        let view = match fitted(budget, cursor.as_deref(), forms, call) {
            Ok(view) => view,
            Err(e) => return tally.failures.push(format!("{what} at {max} ({forms:?}), part {n}: refused: {e}")),
        };
        let read = match forms {
            Forms::Mcp => vec![view.render(Surface::Mcp), view.structured().to_string()],
            Forms::Cli => vec![view.render(Surface::Cli)],
            Forms::Json => vec![view.json()],
        };
        for form in &read {
            let tokens = counter.count(form);
            if tokens > max {
                tally.failures.push(format!("{what} at {max} ({forms:?}), part {n}: {tokens} tokens:\n{form:.1500}"));
            }
            tally.answers += 1;
        }
        match view.structured()["next_cursor"].as_str() {
            Some(c) => cursor = Some(c.to_string()),
            None => break,
        }
    }
}

/// [`follow`] in the three ways an answer is read.
fn every_form<V: Render>(
    what: &str,
    counter: &Tiktoken,
    tally: &mut Tally,
    call: &dyn Fn(Paging) -> Result<V, LookupError>,
) {
    for max in BUDGETS {
        for forms in [Forms::Mcp, Forms::Cli, Forms::Json] {
            follow(what, max, forms, counter, tally, call);
        }
    }
    tally.lookups += 1;
}

/// Every lookup of `set` for `components` (in each language), its first two files, their first function, the
/// design tokens, the changelog and a search.
fn sweep_set(name: &str, set: &BundleSet, components: &[&str], tally: &mut Tally) {
    let counter = Tiktoken::new(&set.head().encoding);
    let langs = set.head().langs.clone();
    let unlimited = Paging::unlimited;
    for lang in &langs {
        let l = Some(lang.as_str());
        let what = |k: &str| format!("{name} {lang} {k}");
        every_form(&what("components"), &counter, tally, &|p| set.list_paged(l, ListKind::Component, p));
        if set.guides(l).is_ok_and(|g| !g.components.is_empty()) {
            every_form(&what("guides"), &counter, tally, &|p| set.list_paged(l, ListKind::Guide, p));
        }
        for &c in components {
            let what = |k: &str| format!("{name} {lang} {c} {k}");
            for (kind, detail) in [("doc", Detail::Normal), ("doc full", Detail::Full), ("card", Detail::Brief)] {
                every_form(&what(kind), &counter, tally, &|p| set.details(c, l, detail, &[], p));
            }
            let props = ["props".to_string()];
            if set.props(c, l, unlimited()).is_ok() {
                every_form(&what("props"), &counter, tally, &|p| set.details(c, l, Detail::Normal, &props, p));
            }
            let first_prop = set.props(c, l, unlimited()).ok().and_then(|v| {
                v.props.iter().flat_map(|t| t.props.iter()).next().map(|p| p.name.trim_end_matches('?').to_string())
            });
            if let Some(prop) = first_prop {
                every_form(&what(&format!("prop {prop}")), &counter, tally, &|p| set.prop(c, &prop, l, p));
            }
            if set.code_block(c, 1, l, unlimited()).is_ok() {
                every_form(&what("code block"), &counter, tally, &|p| set.code_block(c, 1, l, p));
            }
            if let Ok(changes) = mydesign_docs::diff::changelog_since(set, c, "0.0.0", l) {
                every_form(&what("changelog --component"), &counter, tally, &|p| changes.page(p));
            }
        }
        if set.head().changelog.as_ref().is_some_and(|log| log.langs.iter().any(|x| &x.lang == lang)) {
            every_form(&what("changelog"), &counter, tally, &|p| set.changelog(Some(1), l, p));
        }
    }
    // Several components in one budget (issue 29 item 2): both swept ones.
    let both: Vec<String> = components.iter().map(|c| c.to_string()).collect();
    for lang in &langs {
        every_form(&format!("{name} {lang} context"), &counter, tally, &|p| set.context(&both, Some(lang), p));
    }
    let first = components[0];
    every_form(&format!("{name} {first} files"), &counter, tally, &|p| set.files_paged(first, p));
    let files: Vec<String> =
        set.files_paged(first, unlimited()).unwrap().files.iter().take(2).map(|f| f.path.clone()).collect();
    for f in &files {
        for (kind, full) in [("skeleton", false), ("file", true)] {
            every_form(&format!("{name} {f} {kind}"), &counter, tally, &|p| set.file(f, full, None, p));
        }
        if let Some(func) = set.functions(f).ok().and_then(|fs| fs.into_iter().next()) {
            every_form(&format!("{name} {f} {}", func.qualified), &counter, tally, &|p| {
                set.function(f, &func.qualified, p)
            });
        }
    }
    if set.design_tokens().is_ok_and(|t| !t.tokens.is_empty()) {
        every_form(&format!("{name} tokens"), &counter, tally, &|p| set.design_tokens_paged(None, None, None, p));
        every_form(&format!("{name} token-for"), &counter, tally, &|p| set.token_for("#1677ff", p));
    }
    // `search --uses` (issue 29 item 3): its rows charged what they show, its chain followed by the cursor.
    for lang in &langs {
        let l = Some(lang.as_str());
        if set.uses(first, l, unlimited()).is_ok_and(|u| u.total > 0) {
            every_form(&format!("{name} {lang} uses {first}"), &counter, tally, &|p| set.uses(first, l, p));
        }
    }
    // A component with only sources (no document) serves its props tables and each prop.
    let only_sources = set.components(None).unwrap().components.into_iter().find(|r| r.langs.is_empty());
    if let Some(row) = only_sources.filter(|r| set.props(&r.name, None, unlimited()).is_ok()) {
        let c = row.name.as_str();
        let props = ["props".to_string()];
        every_form(&format!("{name} {c} props (sources only)"), &counter, tally, &|p| {
            set.details(c, None, Detail::Normal, &props, p)
        });
        let view = set.props(c, None, unlimited()).unwrap();
        if let Some(prop) = view.props.iter().flat_map(|t| t.props.iter()).next() {
            let prop = prop.name.trim_end_matches('?').to_string();
            every_form(&format!("{name} {c} prop {prop} (sources only)"), &counter, tally, &|p| {
                set.prop(c, &prop, None, p)
            });
        }
    }
    // A search is served by its own fitting (`search::query`), at its budget; its forms are checked the same way.
    for max in BUDGETS {
        let opts = SearchOptions { max_tokens: Some(max), ..Default::default() };
        let view = set.search(first, &opts).unwrap_or_else(|e| panic!("{name} search {first} at {max}: {e}"));
        for form in [view.render(Surface::Mcp), view.render(Surface::Cli), view.json()] {
            let tokens = counter.count(&form);
            assert!(tokens <= max, "{name} search {first} at {max}: {tokens} tokens:\n{form:.1500}");
            tally.answers += 1;
        }
    }
    tally.lookups += 1;
}

/// The six real inputs (those present) and the components swept on each.
fn inputs() -> Vec<(&'static str, Option<&'static Built>, [&'static str; 2])> {
    vec![
        ("semi", common::semi(), ["table", "button"]),
        ("blueprint", common::blueprint(), ["buttons", "alert"]),
        ("antd-mobile", common::antd_mobile(), ["button", "infinite-scroll"]),
        ("arco-design", common::detected_build("arco-design"), ["table", "button"]),
        ("chakra-ui", common::detected_build("chakra-ui"), ["button", "table"]),
        ("vant", common::detected_build("vant"), ["button", "picker"]),
    ]
}

#[test]
fn every_lookup_answers_at_300_on_the_real_inputs_in_every_form() {
    let mut tally = Tally::default();
    let mut swept = 0;
    for (name, built, components) in inputs() {
        let Some(built) = built else { continue };
        sweep_set(name, &built.set, &components, &mut tally);
        swept += 1;
    }
    assert!(tally.failures.is_empty(), "{} failures:\n{}", tally.failures.len(), tally.failures.join("\n"));
    eprintln!(
        "{} lookups on {swept} real inputs at 300 and 301: {} answers within budget",
        tally.lookups, tally.answers
    );
}

/// The CLI as a person runs it, with a long `--bundles` directory (the commands it prints repeat it): every lookup
/// of each real input at 300 exits 0 and prints within the budget, text and `--json`.
#[test]
fn the_cli_answers_every_lookup_at_300_with_a_long_bundles_directory() {
    let mut runs = 0;
    for (name, built, [c, _]) in inputs() {
        let Some(built) = built else { continue };
        let set = &built.set;
        let counter = Tiktoken::new(&set.head().encoding);
        // A 48-byte directory name linked to the folder holding the set.
        let holder = tempfile::tempdir().unwrap().keep();
        let dir = holder.join("a-bundles-directory-with-a-rather-long-name-here");
        let out = built.report.dir.parent().unwrap();
        std::os::unix::fs::symlink(out, &dir).unwrap();
        let dir = dir.to_str().unwrap().to_string();
        let system = set.head().system.clone();
        let file = set.files_paged(c, Paging::unlimited()).unwrap().files.first().map(|f| f.path.clone());
        let mut calls: Vec<Vec<String>> =
            ["components", "doc", "doc --detail brief", "doc --full", "doc --section props", "code-block 1", "files"]
                .iter()
                .map(|k| {
                    let mut words: Vec<String> = k.split(' ').map(str::to_string).collect();
                    if *k != "components" {
                        words.insert(1, c.to_string());
                    }
                    words
                })
                .collect();
        calls.push(vec!["search".into(), c.into()]);
        calls.push(vec!["search".into(), "--uses".into(), c.into()]);
        calls.push(vec!["tokens".into()]);
        calls.push(vec!["agents-md".into()]);
        calls.extend(file.map(|f| vec!["file".into(), f]));
        for call in calls {
            for json in [false, true] {
                // `agents-md` writes one Markdown section (`--json` is refused as not applying).
                if json && call[0] == "agents-md" {
                    continue;
                }
                let mut args: Vec<&str> = call.iter().map(String::as_str).collect();
                args.extend(["--system", &system, "--bundles", &dir, "--max-tokens", "300"]);
                if json {
                    args.push("--json");
                }
                let run = common::run(Path::new("/"), &args);
                let stderr = String::from_utf8_lossy(&run.stderr);
                if call[0] == "tokens" && stderr.contains("no design tokens") {
                    continue;
                }
                // A component whose document has no JSX example has no uses to list (an answer, not a refusal).
                if call.get(1).is_some_and(|w| w == "--uses") && stderr.contains("has no") {
                    continue;
                }
                assert!(run.status.success(), "{name}: {args:?} refused: {stderr}");
                let stdout = String::from_utf8(run.stdout).unwrap();
                let tokens = counter.count(&stdout);
                assert!(tokens <= 300, "{name}: {args:?} printed {tokens} tokens:\n{stdout}");
                runs += 1;
            }
        }
    }
    eprintln!("{runs} CLI runs at 300 with a 48-byte --bundles directory, all answered within budget");
}

/// `check` answers at 300 (it refused `--max-tokens` before): code using the first components of each real input
/// with a misspelt prop on each element, so it has more findings than 300 tokens hold; the findings that fit are
/// printed, the rest counted with the budget that prints them all (which does print them all).
#[test]
fn check_answers_at_300_on_the_real_inputs() {
    let mut runs = 0;
    for (name, built, _) in inputs() {
        let Some(built) = built else { continue };
        let set = &built.set;
        let counter = Tiktoken::new(&set.head().encoding);
        let dir = built.report.dir.parent().unwrap().to_str().unwrap().to_string();
        let system = set.head().system.clone();
        let Some(package) = set.head().package.clone() else { continue };
        let names: Vec<String> = set
            .components(None)
            .unwrap()
            .components
            .iter()
            .filter(|r| !r.langs.is_empty())
            .map(|r| r.name.split('-').map(|w| w[..1].to_uppercase() + &w[1..]).collect::<String>())
            .take(12)
            .collect();
        let code = format!(
            "import {{ {} }} from '{package}';\nexport default () => (\n  <div>\n{}  </div>\n);\n",
            names.join(", "),
            names.iter().map(|n| format!("    <{n} sizze=\"large\" colr=\"x\" />\n")).collect::<String>()
        );
        let holder = tempfile::tempdir().unwrap();
        let file = holder.path().join("page.tsx");
        std::fs::write(&file, &code).unwrap();
        let file = file.to_str().unwrap();
        for json in [false, true] {
            let mut args = vec!["check", file, "--system", &system, "--bundles", &dir, "--max-tokens", "300"];
            if json {
                args.push("--json");
            }
            let run = common::run(Path::new("/"), &args);
            let stderr = String::from_utf8_lossy(&run.stderr);
            assert!(matches!(run.status.code(), Some(0 | 1)), "{name}: {args:?}: {stderr}");
            let stdout = String::from_utf8(run.stdout).unwrap();
            let tokens = counter.count(&stdout);
            assert!(tokens <= 300, "{name}: {args:?} printed {tokens} tokens:\n{stdout}");
            // The note names the budget that prints them all, and that budget does.
            let note = if json { stderr.to_string() } else { stdout.clone() };
            if let Some(at) = note.split("--max-tokens ").nth(1).and_then(|r| r.split(' ').next()) {
                let mut whole = args.clone();
                whole[7] = at;
                let all = common::run(Path::new("/"), &whole);
                let out = String::from_utf8(all.stdout).unwrap();
                assert!(!out.contains(" findings; --max-tokens"), "{name}: {whole:?} still cut:\n{out}");
                assert!(counter.count(&out) <= at.parse::<u32>().unwrap(), "{name}: {whole:?}");
            }
            runs += 1;
        }
    }
    eprintln!("{runs} check runs at 300 on the real inputs, all within budget");
}
