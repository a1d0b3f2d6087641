//! Search cursor chains at the smallest budgets (issue 26 §1: at 300–333, 6 of 1,080 chains skipped a hit and 19
//! listed the same section twice): on real inputs, for questions in each of their languages, every budget from 300
//! to 333 follows the cursors to the end; the parts list no line of a document twice, and every line the ranking
//! lists at a large budget is listed (neighbours merged at one budget may come apart at another, so hits are
//! compared by the lines they cover). A hit too long to list is passed over and said so.

use crate::common::{self, Built};

use mydesign_docs::read::BundleSet;
use mydesign_docs::search::query::SearchOptions;

/// What a chain listed: each hit's (document, first line, last line), and how many hits were passed over.
fn chain(set: &BundleSet, query: &str, max: u32) -> (Vec<(String, u32, u32)>, u32) {
    let (mut out, mut passed) = (Vec::new(), 0);
    let mut cursor: Option<String> = None;
    let mut total = None;
    for part in 0.. {
        assert!(part < 10_000, "{query} at {max}: cursors do not end");
        let opts = SearchOptions { max_tokens: Some(max), cursor: cursor.clone(), ..Default::default() };
        let view = set.search(query, &opts).unwrap_or_else(|e| panic!("{query} at {max}, part {part}: {e}"));
        assert_eq!(*total.get_or_insert(view.total), view.total, "{query} at {max}: the total changed");
        if view.hits.is_empty() && view.next_cursor.is_some() {
            passed += 1;
        }
        out.extend(view.hits.iter().map(|h| (format!("{}:{}", h.kind.name(), h.document), h.start_line, h.end_line)));
        match view.next_cursor {
            Some(c) => cursor = Some(c),
            None => break,
        }
    }
    (out, passed)
}

#[test]
#[ignore = "issue 26 §1, not fixed yet: Semi `table fixed column` at 300 lists lines 5553–5669 of the Table document, \
            then a shortened hit stating its section's lines 5502–5669 (the same lines again)"]
fn search_chains_at_300_to_333_list_every_line_once_on_the_real_inputs() {
    let built = |b: Option<&'static Built>| b.map(|b| &b.set);
    let inputs = [
        (built(common::semi()), ["table fixed column", "表格 固定列", "select onChange"]),
        (built(common::blueprint()), ["button intent", "popover position", "dialog close"]),
        (built(common::antd_mobile()), ["picker columns", "弹出层 关闭", "infinite scroll load more"]),
    ];
    let mut chains = 0;
    for (set, queries) in inputs {
        let Some(set) = set else { continue };
        for q in queries {
            let (whole, _) = chain(set, q, 100_000);
            assert!(whole.len() >= 2, "{q}: {whole:?}");
            for max in 300..=333 {
                let (listed, passed) = chain(set, q, max);
                for (i, a) in listed.iter().enumerate() {
                    for b in &listed[..i] {
                        let overlap = a.0 == b.0 && a.1 <= b.2 && b.1 <= a.2;
                        assert!(!overlap, "{q} at {max}: {a:?} lists lines of {b:?} again\n{listed:#?}");
                    }
                }
                let missing: Vec<_> = whole
                    .iter()
                    .filter(|w| !(w.1..=w.2).all(|l| listed.iter().any(|h| h.0 == w.0 && h.1 <= l && l <= h.2)))
                    .collect();
                assert!(passed > 0 || missing.is_empty(), "{q} at {max}: not listed {missing:?}\n{listed:#?}");
                chains += 1;
            }
        }
    }
    eprintln!("{chains} search chains, every line once");
}
