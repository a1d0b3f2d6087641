//! A new user's trial of the lookups on the real inputs (issues 24, 26, 29, 30 follow-ups), each finding a kind:
//! a component with only sources answers its props; `tokens --component` matches names as every lookup does and
//! refuses one that names nothing; a `search --uses` list is cut by what its rows show and goes on by a cursor;
//! the guide list fills its budget, unknown names count guides apart, and a guide ranks below the component its
//! name holds; CSS named colours are colours; an empty language is named as empty. Expected values are read from
//! the real builds and files at run time.

use std::collections::BTreeSet;
use std::path::Path;

use crate::common::{self, Tiktoken};

use mydesign_docs::budget::Budget;
use mydesign_docs::model::component_key;
use mydesign_docs::read::{Detail, DetailsView, LookupError, Paging};
use mydesign_docs::render::{Forms, Render, Surface, fitted};
use mydesign_docs::search::query::SearchOptions;

/// `date-picker` → `DatePicker`.
fn pascal(kebab: &str) -> String {
    kebab
        .split('-')
        .map(|w| {
            let mut c = w.chars();
            c.next().map_or(String::new(), |f| f.to_uppercase().chain(c).collect())
        })
        .collect()
}

#[test]
fn a_component_with_only_sources_answers_its_props_tables_and_each_prop() {
    let Some(built) = common::detected_build("chakra-ui") else { return };
    let set = &built.set;
    let rows = set.components(None).unwrap().components;
    let only_sources: Vec<String> = rows.iter().filter(|r| r.langs.is_empty()).map(|r| r.name.clone()).collect();
    assert!(!only_sources.is_empty(), "Chakra has exported components without a document");
    let props = ["props".to_string()];
    let mut answered = 0;
    for name in only_sources.iter().map(String::as_str).chain(["_shared"]) {
        match set.details(name, None, Detail::Normal, &props, Paging::unlimited()) {
            Ok(DetailsView::Props(view)) => {
                assert!(view.props_total > 0 || view.tables_total > 0, "{name}: {view:?}");
                for table in &view.props {
                    // Each table is the sources' own: declared in the file it names.
                    let source = std::fs::read_to_string(built.repo.join(&table.path)).unwrap();
                    assert!(source.contains(&table.name), "{name}: `{}` not in {}", table.name, table.path);
                    let Some(first) = table.props.first() else { continue };
                    let prop = first.name.trim_end_matches('?');
                    // And `prop` answers it, from the same row (it said "no en-US document" before).
                    if name != "_shared" {
                        let one = set.prop(name, prop, None, Paging::unlimited()).unwrap();
                        assert!(one.text.contains(prop), "{name}.{prop}: {}", one.text);
                    }
                }
                answered += 1;
            }
            Ok(other) => panic!("{name}: not a props answer: {}", other.render(Surface::Cli)),
            // Only a component whose sources declare no props type has none to serve, and says so.
            Err(e) => assert!(e.to_string().contains("declare no props type"), "{name}: {e}"),
        }
        // Another section of a document it does not have names what there is instead.
        let e = set.details(name, None, Detail::Normal, &["usage".to_string()], Paging::unlimited()).unwrap_err();
        assert!(e.to_string().contains("the section `props`"), "{name}: {e}");
    }
    assert!(answered > only_sources.len() / 2, "{answered} of {} answered", only_sources.len());
    // `_shared` (the shared folders' hooks) answers from its sources' types too.
    assert!(set.props("_shared", None, Paging::unlimited()).is_ok());
}

#[test]
fn tokens_of_a_component_are_found_by_any_spelling_of_its_name_and_an_unknown_name_is_an_error() {
    let mut tagged_otherwise = 0;
    for input in ["vant", "antd-mobile"] {
        let Some(built) = common::detected_build(input) else { continue };
        let set = &built.set;
        let Ok(all) = set.design_tokens() else { continue };
        let tags: BTreeSet<String> = all.tokens.iter().filter_map(|t| t.component.clone()).collect();
        let rows = set.components(None).unwrap().components;
        let mut checked = 0;
        for tag in &tags {
            let Some(row) = rows.iter().find(|r| component_key(&r.name) == component_key(tag)) else { continue };
            let want = all.tokens.iter().filter(|t| t.component.as_deref() == Some(tag.as_str())).count() as u32;
            for spelling in [row.name.clone(), pascal(&row.name), row.name.to_uppercase(), tag.clone()] {
                let view = set.design_tokens_paged(None, None, Some(&spelling), Paging::unlimited()).unwrap();
                assert_eq!(view.part.rows_total, want, "{input}: tokens --component {spelling} (tagged `{tag}`)");
            }
            tagged_otherwise += usize::from(*tag != row.name);
            checked += 1;
        }
        assert!(checked >= 5 || tags.is_empty(), "{input}: {checked} components checked of {} tags", tags.len());
        let e = set.design_tokens_paged(None, None, Some("no-such-widget"), Paging::unlimited()).unwrap_err();
        assert!(matches!(e, LookupError::UnknownComponent { .. }), "{input}: {e}");
        let dir = built.report.dir.parent().unwrap().to_str().unwrap().to_string();
        let system = set.head().system.clone();
        let run = common::run(
            Path::new("/"),
            &["tokens", "--component", "no-such-widget", "--system", &system, "--bundles", &dir],
        );
        assert_eq!(run.status.code(), Some(2), "{input}: {run:?}");
        assert!(String::from_utf8_lossy(&run.stderr).contains("unknown component"), "{run:?}");
    }
    // Vant tags its tokens `actionbar` where the component is `action-bar`: the finding.
    if common::detected_build("vant").is_some() {
        assert!(tagged_otherwise > 0, "no token tagged otherwise than its component's name");
    }
}

#[test]
fn a_uses_list_is_cut_by_what_its_rows_show_smallest_first_and_goes_on_by_a_cursor() {
    let Some(built) = common::detected_build("chakra-ui") else { return };
    let set = &built.set;
    let counter = Tiktoken::new(&set.head().encoding);
    let all = set.uses("Button", None, Paging::unlimited()).unwrap();
    assert!(all.total >= 10 && all.examples.len() == all.total as usize, "{}", all.render(Surface::Cli));
    // The document's own examples smallest first, then the stories beside it.
    let own: Vec<u32> = all.examples.iter().filter(|e| e.story.is_none()).map(|e| e.tokens).collect();
    assert!(own.windows(2).all(|w| w[0] <= w[1]), "{own:?}");
    let order: Vec<u32> = all.examples.iter().map(|e| e.index).collect();
    for max in [300, 500, 700] {
        for forms in [Forms::Mcp, Forms::Cli, Forms::Json] {
            let budget = Budget::new(10_000, Some(max)).unwrap();
            let (mut cursor, mut listed, mut first_fill) = (None::<String>, Vec::new(), None);
            loop {
                let view = fitted(budget, cursor.as_deref(), forms, |p| set.uses("Button", None, p)).unwrap();
                let read = match forms {
                    Forms::Mcp => vec![view.render(Surface::Mcp), view.structured().to_string()],
                    Forms::Cli => vec![view.render(Surface::Cli)],
                    Forms::Json => vec![view.json()],
                };
                let mut most = 0;
                for form in &read {
                    let tokens = counter.count(form);
                    assert!(tokens <= max, "{forms:?} at {max}: {tokens} tokens:\n{form}");
                    most = most.max(tokens);
                }
                first_fill.get_or_insert(most);
                listed.extend(view.examples.iter().map(|e| e.index));
                match view.structured()["next_cursor"].as_str() {
                    Some(c) => cursor = Some(c.to_string()),
                    None => break,
                }
                assert!(listed.len() <= order.len(), "a chain that does not end");
            }
            // Every example once, in the list's order; a cut first part fills most of its budget (it listed 0–2
            // rows at 300–700 when each row was bounded by its bytes under the fixed reserve).
            assert_eq!(listed, order, "{forms:?} at {max}");
            let fill = first_fill.unwrap();
            assert!(fill * 2 >= max, "{forms:?} at {max}: the first part used {fill} tokens");
        }
    }
}

#[test]
fn the_guide_list_fills_its_budget_and_unknown_names_count_guides_apart() {
    let Some(built) = common::detected_build("vant") else { return };
    let set = &built.set;
    let counter = Tiktoken::new(&set.head().encoding);
    let guides = set.guides(None).unwrap().components.len();
    let components = set.components(None).unwrap().components.len();
    assert!(guides > 5, "Vant has guide pages");
    for max in [300, 1_000] {
        let budget = Budget::new(10_000, Some(max)).unwrap();
        let view = fitted(budget, None, Forms::Mcp, |p| set.list_paged(None, mydesign_docs::read::ListKind::Guide, p))
            .unwrap();
        let text = counter.count(&view.render(Surface::Mcp));
        let json = counter.count(&view.structured().to_string());
        assert!(text.max(json) <= max, "{text} / {json} tokens at {max}");
        // Cut by the rows' stored tokens (format 14): most of the budget, where byte bounds filled a fraction.
        assert!(view.part.next_cursor.is_some(), "the guide list is longer than {max}");
        assert!(text.max(json) * 2 >= max, "{text} / {json} tokens of {max}");
    }
    let e = set.details("no-such-widget", None, Detail::Normal, &[], Paging::unlimited()).unwrap_err();
    let message = e.message(Surface::Cli);
    let counted = format!("it has {components} components and {guides} guides");
    assert!(message.contains(&counted), "{message}");
    assert!(message.contains("components --guides"), "{message}");
}

#[test]
fn a_guide_ranks_below_the_component_its_name_holds() {
    let mut pairs = 0;
    for input in ["vant", "chakra-ui", "arco-design"] {
        let Some(built) = common::detected_build(input) else { continue };
        let set = &built.set;
        let guides: Vec<String> = set.guides(None).unwrap().components.iter().map(|r| r.name.clone()).collect();
        let components: Vec<String> = set.components(None).unwrap().components.iter().map(|r| r.name.clone()).collect();
        for g in &guides {
            // A component whose whole name is a run of the guide's words (`use-count-down` holds `count-down`).
            let words = format!("-{g}-");
            for c in components.iter().filter(|c| c.contains('-') && words.contains(&format!("-{c}-"))) {
                let query = c.replace('-', " ");
                let view = set.search(&query, &SearchOptions::default()).unwrap();
                let top = view.hits.first().unwrap_or_else(|| panic!("{input}: no hit for {query:?}"));
                assert!(!top.guide, "{input}: {query:?} ranks the guide {g} first: {}", view.render(Surface::Cli));
                assert_eq!(top.component.as_deref().map(component_key), Some(component_key(c)), "{input}: {query:?}");
                pairs += 1;
            }
        }
    }
    if common::detected_build("vant").is_some() {
        assert!(pairs > 0, "no guide named after a component (Vant's use-count-down)");
    }
}

#[test]
fn css_named_colours_are_values_and_an_empty_language_is_named_as_empty() {
    let Some(built) = common::detected_build("vant") else { return };
    let set = &built.set;
    for (name, hex) in [("rebeccapurple", "#663399ff"), ("RebeccaPurple", "#663399ff"), ("aliceblue", "#f0f8ffff")] {
        let view = set.token_for(name, Paging::unlimited()).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(view.normalized.as_deref(), Some(hex), "{name}");
    }
    let langs = set.head().langs.clone();
    let e = set.details("button", Some(""), Detail::Normal, &[], Paging::unlimited()).unwrap_err();
    let message = e.to_string();
    assert!(message.contains("empty") && langs.iter().all(|l| message.contains(l.as_str())), "{message}");
    let e = set.components(Some(" ")).unwrap_err();
    assert!(matches!(e, LookupError::EmptyLang { .. }), "{e}");
}
