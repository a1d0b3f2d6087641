//! The fill report (issue 26 §1): on each of the six real inputs, every text lookup × budget, how much of each
//! part is content and how much is header and footer, in the three forms an answer is read in: the MCP text item,
//! the CLI's text (`render(Surface::Cli)`, what `mydesign-docs doc …` prints) and the compact JSON
//! (`structuredContent`, `--json`). Every part of every form is within its budget (the CLI text form went over on
//! an unseen repository while the others held: `doc X --lang zh-CN --max-tokens 320`); the figures are printed as
//! a table (`BENCHMARKS.md` records them, with the command) and the floors below are asserted.
//!
//! Content is the tokens of a part's `text` (documents, cards, props, blocks, files, functions, changelog pages),
//! or of its rows' lines (lists: every text line that is not a bracketed header or footer). Overhead is the rest of
//! the form. Fill is measured on cut parts only (a part with a `next_cursor`): a last part is as short as what is
//! left.

use std::collections::BTreeMap;

use crate::common::{self, Built, Tiktoken};

use mydesign_docs::budget::envelope_bound;
use mydesign_docs::budget::{Budget, BudgetError};
use mydesign_docs::read::{BundleSet, Detail, LookupError, Paging};
use mydesign_docs::render::{Forms, Render, Surface, fitted};

/// The budgets of the report: the minimum, the one of the CLI overrun, and the usual ones.
const BUDGETS: [u32; 5] = [300, 320, 500, 1_000, 2_000];

/// Parts followed per chain: enough to see continuation parts, not a whole long document at 300.
const PARTS: usize = 12;

/// What one lookup kind at one budget measured.
#[derive(Default, Clone, Copy)]
struct Row {
    parts: u32,
    /// Cut parts (with a `next_cursor`): the ones fill is measured on.
    cut: u32,
    content: u64,
    /// Content of the cut parts' JSON (MCP) form: the `text` string, or a list's rows array, as written.
    content_json: u64,
    min_fill: Option<f64>,
    /// Largest header+footer of a part, per form: MCP text, CLI text, JSON.
    over: [u32; 3],
    over_sum: [u64; 3],
    /// Parts measured per form (the CLI chain is followed on its own).
    counted: [u32; 3],
    /// Largest part per form, over its budget (must stay ≤ 1).
    max_ratio: f64,
}

type Report = BTreeMap<(String, u32), Row>;

/// Tokens of the rows of a list answer: its text lines that are not a bracketed header or footer.
fn row_text(rendered: &str) -> String {
    rendered.lines().filter(|l| !l.starts_with('[')).map(|l| format!("{l}\n")).collect()
}

/// Follows `call` at `max` for up to [`PARTS`] parts, recording each part under `kind`.
fn measure<V: Render + serde::Serialize>(
    what: &str,
    kind: &str,
    set: &BundleSet,
    max: u32,
    counter: &Tiktoken,
    report: &mut Report,
    call: &dyn Fn(Paging) -> Result<V, LookupError>,
) {
    let budget = Budget::new(set.head().thresholds.max_tokens, Some(max)).unwrap();
    // As the server and the CLI serve it: the reserve measured on the envelope of the forms read (MCP: text and
    // JSON; CLI: its text), each chain followed on its own. Fill is the MCP chain's.
    for forms in [Forms::Mcp, Forms::Cli] {
        let mut cursor: Option<String> = None;
        for n in 0..PARTS {
            let view = match fitted(budget, cursor.as_deref(), forms, call) {
                Err(LookupError::Budget(BudgetError::TooSmallForNames { .. })) if n == 0 => {
                    eprintln!("{what} at {max} ({forms:?}): refused as too small for its names");
                    let input = what.split(' ').next().unwrap_or_default();
                    report.entry((format!("REFUSED {input} {kind}"), max)).or_default().parts += 1;
                    return;
                }
                Err(e) if n == 0 => return eprintln!("{what} at {max}: {e}"),
                r => r.unwrap_or_else(|e| panic!("{what} at {max} ({forms:?}), part {n}: {e}")),
            };
            let json = view.structured();
            let read: Vec<(usize, String)> = match forms {
                Forms::Mcp => vec![(0, view.render(Surface::Mcp)), (2, serde_json::to_string(&json).unwrap())],
                _ => vec![(1, view.render(Surface::Cli))],
            };
            let content = match json["text"].as_str() {
                Some(text) => counter.count(text),
                None => counter.count(&row_text(&view.render(Surface::Mcp))),
            };
            // The JSON form's content: its text as a JSON string, or a list's rows (the one array of a list).
            let content_json = match json.get("text") {
                Some(text) => counter.count(&text.to_string()),
                None => ["components", "files", "rows", "changelog"]
                    .iter()
                    .find_map(|k| json.get(*k))
                    .map_or(0, |rows| counter.count(&rows.to_string())),
            };
            let next = json["next_cursor"].as_str().map(str::to_string);
            let row = report.entry((kind.to_string(), max)).or_default();
            for (i, form) in &read {
                let tokens = counter.count(form);
                assert!(tokens <= max, "{what} at {max}, part {n}: form {i} is {tokens} tokens:\n{form:.800}");
                let over = tokens.saturating_sub(content);
                row.over[*i] = row.over[*i].max(over);
                row.over_sum[*i] += u64::from(over);
                row.counted[*i] += 1;
                row.max_ratio = row.max_ratio.max(f64::from(tokens) / f64::from(max));
                // The envelope's bound, which the budget reserved, is over its true count.
                if let Some(text) = view.content().filter(|t| !t.is_empty()) {
                    let escaped = serde_json::to_string(text).unwrap();
                    let inner = if *i == 2 { &escaped[1..escaped.len() - 1] } else { text };
                    let envelope = form.replacen(inner, "", 1);
                    let (bound, count) = (envelope_bound(&envelope), counter.count(&envelope));
                    assert!(bound >= count, "{what} at {max}, part {n}: envelope bound {bound} < {count}:\n{envelope}");
                }
            }
            if forms == Forms::Mcp {
                row.parts += 1;
                if next.is_some() {
                    let fill = f64::from(content) / f64::from(max);
                    row.cut += 1;
                    row.content += u64::from(content);
                    row.content_json += u64::from(content_json);
                    row.min_fill = Some(row.min_fill.map_or(fill, |m: f64| m.min(fill)));
                }
            }
            match next {
                Some(c) => cursor = Some(c),
                None => break,
            }
        }
    }
}

/// Every text lookup of `set` at every budget: the component list, and for the `components` named (each of its
/// languages) the files list, the document, the card, the props, the first code block; the first two files of the
/// first component whole and as a skeleton, and their first function; the changelog's first page per language.
fn measure_set(name: &str, set: &BundleSet, components: &[&str], report: &mut Report) {
    let counter = Tiktoken::new(&set.head().encoding);
    let langs = set.head().langs.clone();
    let files: Vec<String> = components
        .first()
        .and_then(|c| set.files_paged(c, Paging::unlimited()).ok())
        .map(|v| v.files.iter().take(2).map(|f| f.path.clone()).collect())
        .unwrap_or_default();
    for &max in &BUDGETS {
        for lang in &langs {
            let l = Some(lang.as_str());
            measure(&format!("{name} components {lang}"), "list_components", set, max, &counter, report, &|p| {
                set.components_paged(l, p)
            });
            for &c in components {
                let what = |k: &str| format!("{name} {c} {lang} {k}");
                for (kind, detail) in [("doc", Detail::Normal), ("doc full", Detail::Full), ("card", Detail::Brief)] {
                    measure(&what(kind), kind, set, max, &counter, report, &|p| set.details(c, l, detail, &[], p));
                }
                let props = ["props".to_string()];
                measure(&what("props"), "props", set, max, &counter, report, &|p| {
                    set.details(c, l, Detail::Normal, &props, p)
                });
                measure(&what("code block"), "code block", set, max, &counter, report, &|p| set.code_block(c, 1, l, p));
            }
            if set.head().changelog.as_ref().is_some_and(|log| log.langs.iter().any(|x| &x.lang == lang)) {
                measure(&format!("{name} changelog {lang}"), "changelog", set, max, &counter, report, &|p| {
                    set.changelog(Some(1), l, p)
                });
            }
        }
        for &c in components {
            measure(&format!("{name} {c} files"), "files", set, max, &counter, report, &|p| set.files_paged(c, p));
            let l = langs.first().map(String::as_str);
            if let Ok(changes) = mydesign_docs::diff::changelog_since(set, c, "0.0.0", l) {
                measure(
                    &format!("{name} {c} changelog --component"),
                    "changelog --comp",
                    set,
                    max,
                    &counter,
                    report,
                    &|p| changes.page(p),
                );
            }
        }
        if set.design_tokens().is_ok_and(|t| !t.tokens.is_empty()) {
            measure(&format!("{name} tokens"), "tokens", set, max, &counter, report, &|p| {
                set.design_tokens_paged(None, None, None, p)
            });
        }
        for f in &files {
            for (kind, full) in [("skeleton", false), ("file", true)] {
                measure(&format!("{name} {f} {kind}"), kind, set, max, &counter, report, &|p| {
                    set.file(f, full, None, p)
                });
            }
            if let Some(func) = set.functions(f).ok().and_then(|fs| fs.into_iter().next()) {
                measure(&format!("{name} {f} {}", func.qualified), "function", set, max, &counter, report, &|p| {
                    set.function(f, &func.qualified, p)
                });
            }
        }
    }
}

/// The three real inputs no preset describes, built with the layout detection finds (once per test binary).
fn detected(name: &str) -> Option<&'static BundleSet> {
    common::detected_build(name).map(|b| &b.set)
}

/// The formatted report: one line per lookup kind and budget.
fn table(report: &Report) -> String {
    let mut out = String::from(
        "lookup            budget  parts  cut  fill(mean)  fill(min)  JSON fill  overhead MCP/CLI/JSON mean  max          worst/budget\n",
    );
    for ((kind, max), r) in report {
        let mean = |i: usize| r.over_sum[i] as f64 / f64::from(r.counted[i].max(1));
        out.push_str(&format!(
            "{kind:<17} {max:>6}  {:>5}  {:>3}  {:>10}  {:>9}  {:>9}  {:>6.0}/{:>4.0}/{:>4.0}              {:>4}/{:>4}/{:>4}  {:.3}\n",
            r.parts,
            r.cut,
            if r.cut > 0 { format!("{:.2}", r.content as f64 / f64::from(r.cut) / f64::from(*max)) } else { "-".into() },
            r.min_fill.map_or("-".into(), |f| format!("{f:.2}")),
            if r.cut > 0 {
                format!("{:.2}", r.content_json as f64 / f64::from(r.cut) / f64::from(*max))
            } else {
                "-".into()
            },
            mean(0),
            mean(1),
            mean(2),
            r.over[0],
            r.over[1],
            r.over[2],
            r.max_ratio,
        ));
    }
    out
}

/// The fill report over the six real inputs (those present): every part of every form within its budget, and the
/// table printed (`cargo test --test it -- fill_report --nocapture`).
#[test]
fn fill_report_on_the_real_inputs() {
    let mut report = Report::new();
    let built = |b: Option<&'static Built>| b.map(|b| &b.set);
    let inputs: [(&str, Option<&BundleSet>, &[&str]); 6] = [
        ("semi", built(common::semi()), &["table", "button"]),
        ("blueprint", built(common::blueprint()), &["buttons", "alert"]),
        ("antd-mobile", built(common::antd_mobile()), &["button", "infinite-scroll"]),
        ("arco-design", detected("arco-design"), &["button", "table"]),
        ("chakra-ui", detected("chakra-ui"), &["button", "table"]),
        ("vant", detected("vant"), &["button", "picker"]),
    ];
    let mut measured = 0;
    for (name, set, components) in inputs {
        let Some(set) = set else {
            eprintln!("skipping {name}: not in MYDESIGN_REAL_CORPUS");
            continue;
        };
        measure_set(name, set, components, &mut report);
        measured += 1;
    }
    if measured == 0 {
        return;
    }
    eprintln!("fill report over {measured} real inputs:\n{}", table(&report));
}
