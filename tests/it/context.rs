//! `context` (issue 29 item 2): several components in one budget. On the sample and on the real Semi, Arco and
//! Chakra, three components at 2,000 and 6,000 tokens: every component is present under its heading with its import
//! line, the answer is within the budget in every form it is read in (the CLI's text, `--json`, MCP's text item
//! and `structuredContent`, recounted with tiktoken), a shared example is shown once, the shares are fair, and a
//! larger budget never shows less. Unknown and repeated names, and the CLI, are checked on the sample.

use crate::common;
use crate::common::{Built, Tiktoken};

use mydesign_docs::budget::Budget;
use mydesign_docs::read::{BundleSet, ContextView, LookupError, Paging};
use mydesign_docs::render::{Forms, Render, Surface, fitted};

/// The answer to `context names` at `max` as the surface reading it in `forms` gets it.
fn context(set: &BundleSet, names: &[&str], max: u32, forms: Forms) -> Result<ContextView, LookupError> {
    let names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
    let budget = Budget::new(set.head().thresholds.max_tokens, Some(max)).unwrap();
    fitted(budget, None, forms, |paging| set.context(&names, None, paging))
}

/// Every form of the answer at `max`, each within it; returns the CLI's view.
fn within(what: &str, set: &BundleSet, names: &[&str], max: u32) -> ContextView {
    let counter = Tiktoken::new(&set.head().encoding);
    for forms in [Forms::Mcp, Forms::Json] {
        let view = context(set, names, max, forms).unwrap_or_else(|e| panic!("{what} at {max}: {e}"));
        let read = match forms {
            Forms::Mcp => vec![view.render(Surface::Mcp), view.structured().to_string()],
            _ => vec![view.json()],
        };
        for form in read {
            let tokens = counter.count(&form);
            assert!(tokens <= max, "{what} at {max} ({forms:?}): {tokens} tokens:\n{form:.3000}");
        }
    }
    let view = context(set, names, max, Forms::Cli).unwrap_or_else(|e| panic!("{what} at {max}: {e}"));
    let text = view.render(Surface::Cli);
    let tokens = counter.count(&text);
    assert!(tokens <= max, "{what} at {max} (CLI): {tokens} tokens:\n{text:.3000}");
    assert!(counter.count(&view.text) <= view.tokens, "{what} at {max}: states {} tokens", view.tokens);
    view
}

/// Three components at 2,000 and 6,000 tokens: each present with its heading and import line, within budget in
/// every form, a shared example shown once, and 6,000 showing no less than 2,000.
fn three(name: &str, built: &Built, names: [&str; 3]) {
    let set = &built.set;
    let mut shown = 0;
    for max in [2_000, 6_000] {
        let what = format!("{name} context {}", names.join(" "));
        let view = within(&what, set, &names, max);
        assert_eq!(view.components.len(), 3, "{what} at {max}: {:?}", view.components);
        for part in &view.components {
            let (_, meta) = set.component_meta(&part.component).unwrap();
            let heading = format!("## {}\n", meta.name);
            assert_eq!(view.text.matches(&heading).count(), 1, "{what} at {max}: {heading}");
            let doc = meta.docs.iter().find(|d| d.lang == part.lang).unwrap();
            let import = doc.import.as_deref().unwrap_or_else(|| panic!("{what}: {} has no import line", meta.name));
            assert!(part.import && view.text.contains(import.trim()), "{what} at {max}: no `{import}`");
        }
        // A shared example is shown once: each code block of each document at most once.
        let labels: Vec<&str> =
            view.text.lines().filter(|l| l.starts_with("Example: code block") && l.ends_with(':')).collect();
        let mut unique = labels.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(labels.len(), unique.len(), "{what} at {max}: an example shown twice");
        assert!(view.text.len() >= shown, "{what}: {max} shows less than a smaller budget");
        shown = view.text.len();
        let got: Vec<u32> = view.components.iter().map(|c| c.tokens).collect();
        eprintln!("{what} at {max}: ≤ {} tokens; {got:?}; whole at {:?}", view.tokens, view.whole_at);
        if max == 6_000 {
            // Fair: no component is left with less than a fifth of an equal share while another has more than it
            // needs to keep its pieces.
            let fair = (max / 3) / 5;
            for c in &view.components {
                assert!(c.tokens >= fair.min(c.tokens.max(1)), "{what}: {c:?}");
            }
        }
    }
}

#[test]
fn three_components_on_the_sample_within_every_budget() {
    let b = common::sample();
    let set = &b.set;
    for max in [300, 301, 350, 500, 1_000, 2_000, 6_000, 10_000] {
        let view = within("sample", set, &["button", "table", "select"], max);
        assert_eq!(view.components.len(), 3);
    }
    let view = within("sample", set, &["button", "Button", "table"], 6_000);
    assert_eq!(view.components.len(), 2, "a repeated name is shown once");
    assert_eq!(view.whole_at, None, "the sample's two fit 6,000 whole:\n{}", view.text);
    let e = set.context(&["button".into(), "tabel".into()], None, Paging::unlimited()).unwrap_err();
    assert!(e.to_string().contains("table"), "{e}");
    let many: Vec<String> = set.components(None).unwrap().components.iter().map(|c| c.name.clone()).collect();
    assert!(matches!(set.context(&many, None, Paging::unlimited()), Err(LookupError::ContextCount { .. })));
}

#[test]
fn the_cli_answers_context_and_names_the_call_for_more() {
    let b = common::sample();
    let dir = b.report.dir.parent().unwrap().to_str().unwrap().to_string();
    let out = common::ok(
        &common::root(),
        &["context", "button", "table", "select", "--bundles", &dir, "--max-tokens", "400"],
    );
    assert!(out.starts_with('[') && out.contains("context of 3 components"), "{out}");
    assert!(out.contains("all of it: mydesign-docs context button table select --max-tokens"), "{out}");
    let json = common::ok(&common::root(), &["context", "button", "--bundles", &dir, "--json"]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["components"][0]["component"], "button", "{json}");
    let err = common::fails(&common::root(), &["context", "buton", "--bundles", &dir]);
    assert!(err.contains("button"), "{err}");
}

#[test]
fn three_components_on_semi_arco_and_chakra() {
    let mut ran = 0;
    if let Some(b) = common::semi() {
        three("semi", b, ["form", "select", "datepicker"]);
        ran += 1;
    }
    if let Some(b) = common::detected_build("arco-design") {
        three("arco", b, ["form", "select", "date-picker"]);
        ran += 1;
    }
    if let Some(b) = common::detected_build("chakra-ui") {
        three("chakra", b, ["field", "select", "input"]);
        ran += 1;
    }
    eprintln!("{ran} real inputs");
}
