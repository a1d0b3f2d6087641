//! Cursor fuzzing (issue 10 item 4, issue 13: "a reader never panics on any cursor"): random strings, mutated real
//! cursors, and well-formed cursors (valid checksum) with arbitrary sets, texts, requests and offsets, passed to
//! every paged lookup of the sample's bundles. Every call must return (an answer or an error), never panic.
//! `CURSOR_FUZZ_CASES` raises the case count (default 2,000 per property, to keep CI fast).

use crate::common;

use base64::Engine as _;
use mydesign_docs::budget::{Budget, Cursor, DocForm, Request};
use mydesign_docs::read::{BundleSet, Detail, Paging};
use proptest::prelude::*;

fn cases() -> u32 {
    std::env::var("CURSOR_FUZZ_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(2_000)
}

const FILE: &str = "src/components/Table/Table.tsx";

/// Every paged lookup of the sample with `cursor`; returns how many answered without error.
fn every_lookup(set: &BundleSet, cursor: &str) -> usize {
    let paging = Paging { budget: Budget::new(10_000, Some(300)).unwrap(), cursor: Some(cursor) };
    let mut ok = 0;
    for detail in [Detail::Brief, Detail::Normal, Detail::Full] {
        ok += usize::from(set.details("table", None, detail, &[], paging).is_ok());
        ok += usize::from(set.details("table", Some("zh-CN"), detail, &["props".into()], paging).is_ok());
    }
    ok += usize::from(set.code_block("table", 1, None, paging).is_ok());
    ok += usize::from(set.changelog(None, Some("zh-CN"), paging).is_ok());
    ok += usize::from(set.file(FILE, false, None, paging).is_ok());
    ok += usize::from(set.file(FILE, true, Some((3, 40)), paging).is_ok());
    if let Ok(funcs) = set.functions(FILE)
        && let Some(f) = funcs.first()
    {
        ok += usize::from(set.function(FILE, &f.qualified, paging).is_ok());
    }
    ok
}

/// Real cursors of the sample: the first cut of the table document (normal and full), the changelog and a file.
fn real_cursors(set: &BundleSet) -> Vec<String> {
    let paging = Paging { budget: Budget::new(10_000, Some(300)).unwrap(), cursor: None };
    let mut out = Vec::new();
    out.extend(set.doc("table", None, Detail::Normal, &[], paging).unwrap().next_cursor);
    out.extend(set.doc("table", Some("zh-CN"), Detail::Full, &[], paging).unwrap().next_cursor);
    out.extend(set.changelog(None, Some("zh-CN"), paging).unwrap().next_cursor);
    out.extend(set.file(FILE, true, None, paging).unwrap().next_cursor);
    assert!(out.len() >= 3, "the sample has texts over 300 tokens");
    out
}

fn request() -> impl Strategy<Value = Request> {
    let form = prop_oneof![Just(DocForm::Normal), Just(DocForm::Full), Just(DocForm::Card), Just(DocForm::Props)];
    let name = prop_oneof![Just("table".to_string()), Just("button".to_string()), ".{0,12}"];
    let lang = prop_oneof![Just("en-US".to_string()), Just("zh-CN".to_string()), ".{0,6}"];
    let path = prop_oneof![Just(FILE.to_string()), ".{0,20}"];
    let sections = prop::collection::vec(prop_oneof![Just("props".to_string()), ".{0,8}"], 0..3);
    let lines = prop::option::of((any::<u32>(), any::<u32>()));
    prop_oneof![
        (name.clone(), lang.clone(), form, sections).prop_map(|(component, lang, form, sections)| Request::Doc {
            component,
            lang,
            form,
            sections
        }),
        (lang.clone(), any::<u32>()).prop_map(|(lang, page)| Request::Changelog { lang, page }),
        (path.clone(), any::<bool>(), lines).prop_map(|(path, full, lines)| Request::File { path, full, lines }),
        (name, lang, any::<u32>()).prop_map(|(component, lang, index)| Request::Block { component, lang, index }),
        (path, ".{0,10}").prop_map(|(path, qualified)| Request::Function { path, qualified }),
    ]
}

fn offset() -> impl Strategy<Value = u32> {
    prop_oneof![0..4_000u32, any::<u32>()]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_strings_never_panic(s in prop_oneof![".{0,80}", "[A-Za-z0-9_-]{0,120}"]) {
        every_lookup(&common::sample().set, &s);
    }

    #[test]
    fn mutated_real_cursors_never_panic(pick in any::<prop::sample::Index>(), at in any::<prop::sample::Index>(),
                                        byte in any::<u8>(), cut in any::<bool>()) {
        let set = &common::sample().set;
        let cursors = real_cursors(set);
        let mut bytes = cursors[pick.index(cursors.len())].clone().into_bytes();
        let i = at.index(bytes.len());
        if cut { bytes.truncate(i) } else { bytes[i] = byte }
        every_lookup(set, &String::from_utf8_lossy(&bytes));
    }

    /// Well-formed cursors (the checksum is public: anyone can recompute it): the right set and a real cursor's
    /// text with any offset, or any set, text and request.
    #[test]
    fn well_formed_cursors_with_any_fields_never_panic(pick in any::<prop::sample::Index>(), offset in offset(),
                                                      request in request(), keep in any::<bool>(),
                                                      text in any::<u32>()) {
        let set = &common::sample().set;
        let cursors = real_cursors(set);
        let real = Cursor::decode(&cursors[pick.index(cursors.len())]).unwrap();
        let forged = if keep {
            Cursor { offset, ..real }
        } else {
            Cursor { set: real.set, text, request, offset }
        };
        every_lookup(set, &forged.encode());
    }
}

/// Every offset of a real cursor's text that is not where a part starts is refused, never served from the middle
/// of a character: the zh-CN document is mostly 3-byte characters.
#[test]
fn every_offset_of_a_real_cursor_is_served_or_refused() {
    let set = &common::sample().set;
    let budget = Budget::new(10_000, Some(300)).unwrap();
    let zh = Some("zh-CN");
    let first = set.doc("table", zh, Detail::Full, &[], Paging { budget, cursor: None }).unwrap();
    let real = Cursor::decode(first.next_cursor.as_deref().unwrap()).unwrap();
    let (mut served, mut refused) = (0, 0);
    for offset in 1..first.text.len() as u32 * 3 {
        let c = Cursor { offset, ..real.clone() }.encode();
        match set.doc("table", zh, Detail::Full, &[], Paging { budget, cursor: Some(&c) }) {
            Ok(_) => served += 1,
            Err(e) => {
                assert!(e.to_string().starts_with("malformed cursor: it does not point where a part starts"), "{e}");
                refused += 1;
            }
        }
    }
    eprintln!("{served} offsets served, {refused} refused");
    assert!(served >= 2 && refused > served, "{served} served, {refused} refused");
    // Garbage that is base64 of nothing sensible.
    let junk = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode([0u8; 64]);
    assert!(set.doc("table", zh, Detail::Full, &[], Paging { budget, cursor: Some(&junk) }).is_err());
}
