//! In-process lookup latency (divan): each lookup as the reader answers it, from an open bundle set, on the Semi
//! Design set when `target/real-corpus` is assembled (`cargo xtask corpus`), else on the sample.
//! Run: `cargo bench --bench lookup`.

use std::path::PathBuf;
use std::sync::LazyLock;

use mydesign_docs::budget::Budget;
use mydesign_docs::compile::{BuildOptions, build};
use mydesign_docs::config::Config;
use mydesign_docs::read::{BundleSet, Detail, Paging};

struct Target {
    set: BundleSet,
    component: &'static str,
    block: u32,
    page: u32,
    source: &'static str,
    function: &'static str,
}

static TARGET: LazyLock<Target> = LazyLock::new(|| {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let semi = root.join("target/real-corpus/semi");
    let (repo, preset) = if semi.join("content").is_dir() { (semi, "semi") } else { (root.join("corpus"), "default") };
    let out = root.join("target/bench-lookup");
    let config = Config::preset(preset).expect("preset");
    let report = build(&BuildOptions { repo, out, config, progress: false }).expect("build");
    let set = BundleSet::open(&report.dir).expect("open");
    eprintln!("benchmarking lookups on {} {}", set.head().system, set.head().version);
    if preset == "semi" {
        Target {
            set,
            component: "table",
            block: 53,
            page: 17,
            source: "packages/semi-foundation/table/foundation.ts",
            function: "TableFoundation.init",
        }
    } else {
        Target {
            set,
            component: "table",
            block: 33,
            page: 6,
            source: "src/components/Table/Table.tsx",
            function: "Table.render",
        }
    }
});

fn main() {
    LazyLock::force(&TARGET);
    divan::main();
}

#[divan::bench]
fn open_set() -> BundleSet {
    BundleSet::open(TARGET.set.dir()).unwrap()
}

#[divan::bench]
fn components() {
    divan::black_box(TARGET.set.components(None).unwrap());
}

#[divan::bench]
fn doc_view() {
    divan::black_box(TARGET.set.doc(TARGET.component, None, Detail::Normal, &[], Paging::unlimited()).unwrap());
}

/// What an agent gets by default: the view cut to the default budget of 10,000 tokens.
fn budgeted(cursor: Option<&str>) -> Paging<'_> {
    Paging { budget: Budget::default(), cursor }
}

#[divan::bench]
fn doc_view_budgeted() {
    divan::black_box(TARGET.set.doc(TARGET.component, None, Detail::Normal, &[], budgeted(None)).unwrap());
}

/// The second 10,000-token part of the whole document, through its cursor.
#[divan::bench]
fn doc_full_second_part(bencher: divan::Bencher) {
    let first = TARGET.set.doc(TARGET.component, None, Detail::Full, &[], budgeted(None)).unwrap();
    let cursor = first.next_cursor.expect("the whole document is over the budget");
    bencher.bench(|| {
        divan::black_box(TARGET.set.doc(TARGET.component, None, Detail::Full, &[], budgeted(Some(&cursor))).unwrap())
    });
}

#[divan::bench]
fn card() {
    divan::black_box(TARGET.set.card(TARGET.component, None, budgeted(None)).unwrap());
}

#[divan::bench]
fn props() {
    divan::black_box(TARGET.set.props(TARGET.component, None, budgeted(None)).unwrap());
}

#[divan::bench]
fn file_lines() {
    divan::black_box(TARGET.set.file(TARGET.source, false, Some((100, 160)), budgeted(None)).unwrap());
}

#[divan::bench]
fn doc_full() {
    divan::black_box(TARGET.set.doc(TARGET.component, None, Detail::Full, &[], Paging::unlimited()).unwrap());
}

#[divan::bench]
fn code_block() {
    divan::black_box(TARGET.set.code_block(TARGET.component, TARGET.block, None, Paging::unlimited()).unwrap());
}

#[divan::bench]
fn changelog_page() {
    divan::black_box(TARGET.set.changelog(Some(TARGET.page), None, Paging::unlimited()).unwrap());
}

#[divan::bench]
fn files() {
    divan::black_box(TARGET.set.files(TARGET.component).unwrap());
}

#[divan::bench]
fn file_skeleton() {
    divan::black_box(TARGET.set.file(TARGET.source, false, None, Paging::unlimited()).unwrap());
}

#[divan::bench]
fn function() {
    divan::black_box(TARGET.set.function(TARGET.source, TARGET.function, Paging::unlimited()).unwrap());
}

#[divan::bench]
fn unknown_component() {
    divan::black_box(TARGET.set.doc("tabel", None, Detail::Normal, &[], Paging::unlimited()).unwrap_err());
}

#[divan::bench(args = ["how do I make a table row selectable", "表格 固定列", "onChange of Select"])]
fn search(query: &str) {
    let opts = mydesign_docs::search::query::SearchOptions::default();
    divan::black_box(TARGET.set.search(query, &opts).unwrap());
}

#[divan::bench]
fn search_long_question() {
    let q = "I have a table with a few thousand rows and I need users to be able to pick several of them with \
             checkboxes, keep the first column visible while scrolling sideways, and get the selected keys in onChange";
    divan::black_box(TARGET.set.search(q, &mydesign_docs::search::query::SearchOptions::default()).unwrap());
}

#[divan::bench]
fn search_cold_open() {
    // A fresh set per query: what a CLI process pays (manifest, search meta, the shards and texts it needs).
    let set = BundleSet::open(TARGET.set.dir()).unwrap();
    divan::black_box(set.search("表格 固定列", &mydesign_docs::search::query::SearchOptions::default()).unwrap());
}
