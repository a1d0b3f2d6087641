//! Fuzzing of the reader's decoders over the real sample bundles (issue 13): every mutation must give an error or
//! an answer, never a panic. Three kinds of case, each over a bundle of the sample set chosen by the case:
//! - **raw**: bytes of a whole bundle file flipped, truncated, overwritten or spliced, then opened and every frame
//!   read (header, index and frame checks);
//! - **resealed**: one frame's decompressed MessagePack mutated, then the bundle rebuilt with valid checksums and
//!   identity and the manifest updated to match, as a hand-made bundle would be; then every lookup is run on the
//!   set and every answer rendered (the decoders and the renderer behind the checks);
//! - **cursor**: real cursors mutated, and arbitrary strings, decoded and used in a lookup.
//!
//! `proptest_cases` run with every `cargo test` (a modest count); the ignored `fuzz_million` runs 10⁶ cases
//! (`cargo xtask fuzz`, or `cargo test --release --lib fuzz_million -- --ignored`; `FUZZ_CASES` overrides the count)
//! and prints the count of cases tried and survived.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use proptest::prelude::*;
use proptest::test_runner::{Config as RunnerConfig, TestRunner};

use super::format::MANIFEST_KEY;
use super::writer::{BundleWriter, Frame};
use super::{Bundle, BundleError};
use crate::budget::Budget;
use crate::model::Manifest;
use crate::read::{BundleSet, Detail, Paging};
use crate::render::Render;
use crate::search::query::SearchOptions;

/// A built set: its directory and its files' bytes by name.
type Sample = (PathBuf, Vec<(String, Vec<u8>)>);

/// The sample corpus built once into a kept temporary directory.
fn sample() -> &'static Sample {
    static SET: OnceLock<Sample> = OnceLock::new();
    SET.get_or_init(|| {
        // This crate sits at crates/reader; the sample is the workspace's corpus/.
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
        let out = tempfile::tempdir().expect("tempdir").keep();
        let config = mydesign_docs_compiler::config::Config::preset("default").expect("preset");
        let options =
            mydesign_docs_compiler::compile::BuildOptions { repo: root.join("corpus"), out, config, progress: false };
        let report = mydesign_docs_compiler::compile::build(&options).expect("build the sample");
        let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(&report.dir)
            .expect("read set")
            .map(|e| {
                let e = e.expect("entry");
                (e.file_name().to_string_lossy().into_owned(), std::fs::read(e.path()).expect("read bundle"))
            })
            .collect();
        files.sort();
        (report.dir, files)
    })
}

/// One mutation of a byte string; positions are taken modulo its length.
#[derive(Clone, Debug)]
enum Mutation {
    Flip {
        at: usize,
        xor: u8,
    },
    Truncate {
        at: usize,
    },
    Overwrite {
        at: usize,
        bytes: Vec<u8>,
    },
    Insert {
        at: usize,
        bytes: Vec<u8>,
    },
    Remove {
        at: usize,
        len: usize,
    },
    /// Replaces a MessagePack length or integer near `at` with a large value (0xcd/0xce markers).
    BigNumber {
        at: usize,
        wide: bool,
    },
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        4 => (any::<usize>(), 1..=255u8).prop_map(|(at, xor)| Mutation::Flip { at, xor }),
        1 => any::<usize>().prop_map(|at| Mutation::Truncate { at }),
        2 => (any::<usize>(), proptest::collection::vec(any::<u8>(), 1..9))
            .prop_map(|(at, bytes)| Mutation::Overwrite { at, bytes }),
        1 => (any::<usize>(), proptest::collection::vec(any::<u8>(), 1..9))
            .prop_map(|(at, bytes)| Mutation::Insert { at, bytes }),
        1 => (any::<usize>(), 1..16usize).prop_map(|(at, len)| Mutation::Remove { at, len }),
        1 => (any::<usize>(), any::<bool>()).prop_map(|(at, wide)| Mutation::BigNumber { at, wide }),
    ]
}

fn apply(bytes: &mut Vec<u8>, m: &Mutation) {
    if bytes.is_empty() {
        return;
    }
    let n = bytes.len();
    match m {
        Mutation::Flip { at, xor } => bytes[at % n] ^= xor,
        Mutation::Truncate { at } => bytes.truncate(at % n),
        Mutation::Overwrite { at, bytes: b } => {
            for (i, v) in b.iter().enumerate() {
                if let Some(slot) = bytes.get_mut(at % n + i) {
                    *slot = *v;
                }
            }
        }
        Mutation::Insert { at, bytes: b } => {
            let at = at % n;
            bytes.splice(at..at, b.iter().copied());
        }
        Mutation::Remove { at, len } => {
            let at = at % n;
            bytes.drain(at..(at + len).min(n));
        }
        Mutation::BigNumber { at, wide } => {
            let at = at % n;
            let big: &[u8] = if *wide { &[0xce, 0x7f, 0xff, 0xff, 0xff] } else { &[0xcd, 0xff, 0xff] };
            for (i, v) in big.iter().enumerate() {
                if let Some(slot) = bytes.get_mut(at + i) {
                    *slot = *v;
                }
            }
        }
    }
}

/// A case: which bundle of the set, which frame (for resealed cases), and the mutations.
#[derive(Clone, Debug)]
struct Case {
    kind: u8,
    file: usize,
    frame: usize,
    mutations: Vec<Mutation>,
}

fn case() -> impl Strategy<Value = Case> {
    (0..3u8, any::<usize>(), any::<usize>(), proptest::collection::vec(mutation(), 1..4))
        .prop_map(|(kind, file, frame, mutations)| Case { kind, file, frame, mutations })
}

/// Writes `files` (name, bytes) into a fresh directory named like the set.
fn write_set(files: &[(String, Vec<u8>)]) -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dir = tmp.path().join(sample().0.file_name().expect("set name"));
    std::fs::create_dir_all(&dir).expect("mkdir");
    for (name, bytes) in files {
        std::fs::write(dir.join(name), bytes).expect("write");
    }
    (tmp, dir)
}

/// Every lookup of the sample's first component and file, every answer rendered; results are ignored (errors are
/// fine), panics are not.
fn exercise(dir: &Path) {
    let Ok(set) = BundleSet::open(dir) else { return };
    let p = Paging::unlimited;
    let budget = || Paging { budget: Budget::default(), cursor: None };
    let _ = set.components(None).map(|v| v.text());
    // A damaged whole manifest is an error for the lookups that need it; the others still run, by the sample's names.
    let (names, paths) = match set.manifest() {
        Ok(m) => (
            m.components.iter().take(2).map(|c| c.key.clone()).collect(),
            m.files.iter().take(2).map(|f| f.path.clone()).collect(),
        ),
        Err(_) => sample_names(),
    };
    for name in &names {
        let _ = set.doc(name, None, Detail::Normal, &[], budget()).map(|v| v.text());
        let _ = set.doc(name, None, Detail::Full, &[], p()).map(|v| v.text());
        let _ = set.card(name, None, budget()).map(|v| v.text());
        let _ = set.props(name, None, budget()).map(|v| v.text());
        let _ = set.code_block(name, 1, None, p()).map(|v| v.text());
        let _ = set.files(name).map(|v| v.text());
    }
    for path in &paths {
        let _ = set.file(path, false, None, budget()).map(|v| v.text());
        if let Ok(functions) = set.functions(path)
            && let Some(f) = functions.first()
        {
            let _ = set.function(path, &f.qualified, p()).map(|v| v.text());
        }
    }
    let _ = set.changelog(Some(1), None, budget()).map(|v| v.text());
    let _ = set.search("table selection", &SearchOptions::default()).map(|v| v.text());
    let _ = set.search("button", &SearchOptions::default()).map(|v| v.text());
}

/// Rebuilds bundle `bytes` with frame number `frame` mutated (decompressed MessagePack), valid checksums and the
/// same identity; returns the new bytes, or `None` when the original cannot be read.
fn reseal(path: &Path, frame: usize, mutations: &[Mutation]) -> Option<Vec<u8>> {
    let b = Bundle::open(path).ok()?;
    let keys: Vec<String> = b.keys().map(str::to_string).collect();
    let target = frame % keys.len().max(1);
    let mut w = BundleWriter::new();
    w.identify(b.identity().clone());
    for (i, key) in keys.iter().enumerate() {
        let mut raw = b.raw_frame(key).ok()?;
        if i == target {
            for m in mutations {
                apply(&mut raw, m);
            }
        }
        w.push(Frame::from_msgpack(key, &raw).ok()?);
    }
    w.into_bytes().ok()
}

/// The manifest bundle `bytes` with `edit` applied to the decoded manifest, resealed (with its head and entries).
fn edit_manifest(manifest_bytes: &[u8], edit: impl FnOnce(&mut Manifest)) -> Option<Vec<u8>> {
    let (_tmp, dir) = write_set(&[("manifest.bundle".into(), manifest_bytes.to_vec())]);
    let b = Bundle::open(&dir.join("manifest.bundle")).ok()?;
    let mut m = crate::bundle::reader::read_manifest(&b).ok()?;
    edit(&mut m);
    let mut w = BundleWriter::new();
    w.identify(b.identity().clone());
    w.add_manifest(&m).ok()?;
    w.into_bytes().ok()
}

/// A scratch file per thread for the cheap cases.
fn scratch() -> PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    let dir = DIR.get_or_init(|| tempfile::tempdir().expect("tempdir").keep());
    dir.join(format!("{:?}.bundle", std::thread::current().id()).replace(['(', ')'], ""))
}

/// Runs one case; returns whether it ran to the end (it always should: a panic fails the test instead). A `full`
/// case writes a whole set and runs every lookup; a cheap one (most of the long run) checks only the decoders it
/// touches: the mutated bundle's header, index and frames, or the cursor decoder.
fn run_case(c: &Case, full: bool) -> bool {
    let (_, files) = sample();
    let file = c.file % files.len();
    let mut files = files.clone();
    match c.kind {
        0 if !full => {
            let bytes = &mut files[file].1;
            for m in &c.mutations {
                apply(bytes, m);
            }
            let path = scratch();
            if std::fs::write(&path, &*bytes).is_ok()
                && let Ok(b) = Bundle::open(&path)
            {
                for key in b.keys().take(16).map(str::to_string).collect::<Vec<_>>() {
                    let _ = b.raw_frame(&key);
                }
            }
        }
        1 if !full => {
            let path = scratch();
            if std::fs::write(&path, &files[file].1).is_err() {
                return true;
            }
            if let Some(sealed) = reseal(&path, c.frame, &c.mutations)
                && std::fs::write(&path, &sealed).is_ok()
                && let Ok(b) = Bundle::open(&path)
            {
                let key = files[file].0.clone();
                decode_typed(&b, &key);
            }
        }
        2 if !full => {
            let mut cursor = sample_cursor().into_bytes();
            for m in &c.mutations {
                apply(&mut cursor, m);
            }
            let _ = crate::budget::Cursor::decode(&String::from_utf8_lossy(&cursor));
        }
        0 => {
            let bytes = &mut files[file].1;
            for m in &c.mutations {
                apply(bytes, m);
            }
            let (_tmp, dir) = write_set(&files);
            if let Ok(b) = Bundle::open(&dir.join(&files[file].0)) {
                for key in b.keys().map(str::to_string).collect::<Vec<_>>() {
                    let _ = b.raw_frame(&key);
                }
                let _ = b.check_all();
            }
            exercise(&dir);
        }
        1 => {
            let (_tmp, dir) = write_set(&files);
            let path = dir.join(&files[file].0);
            let Some(sealed) = reseal(&path, c.frame, &c.mutations) else { return true };
            let name = files[file].0.clone();
            if name == "manifest.bundle" {
                files[file].1 = sealed;
            } else {
                let header = u64::from_le_bytes(sealed[48..56].try_into().unwrap_or_default());
                let size = sealed.len() as u64;
                files[file].1 = sealed;
                let at = files.iter().position(|(n, _)| n == "manifest.bundle").unwrap_or(0);
                let Some(m) = edit_manifest(&files[at].1, |m| {
                    if let Some(e) = m.bundles.iter_mut().find(|e| e.name == name) {
                        e.bytes = size;
                        e.header_xxh3 = header;
                    }
                }) else {
                    return true;
                };
                files[at].1 = m;
            }
            let (_tmp2, dir2) = write_set(&files);
            exercise(&dir2);
        }
        _ => {
            let (dir, _) = sample();
            let Ok(set) = BundleSet::open(dir) else { return true };
            let Some(name) = set.manifest().unwrap().components.first().map(|c| c.key.clone()) else { return true };
            let paging = Paging {
                budget: Budget::new(10_000, Some(crate::budget::MIN_MAX_TOKENS)).unwrap_or_default(),
                cursor: None,
            };
            let Ok(first) = set.doc(&name, None, Detail::Full, &[], paging) else { return true };
            let mut cursor = first.next_cursor.clone().unwrap_or_default().into_bytes();
            for m in &c.mutations {
                apply(&mut cursor, m);
            }
            let cursor = String::from_utf8_lossy(&cursor).into_owned();
            let _ = crate::budget::Cursor::decode(&cursor);
            let paging = Paging {
                budget: Budget::new(10_000, Some(crate::budget::MIN_MAX_TOKENS)).unwrap_or_default(),
                cursor: Some(&cursor),
            };
            let _ = set.doc(&name, None, Detail::Full, &[], paging).map(|v| v.text());
        }
    }
    true
}

/// The sample's first two component keys and file paths (what [`exercise`] looks up when a mutated set's whole
/// manifest no longer decodes).
fn sample_names() -> (Vec<String>, Vec<String>) {
    static NAMES: OnceLock<(Vec<String>, Vec<String>)> = OnceLock::new();
    NAMES
        .get_or_init(|| {
            let set = BundleSet::open(&sample().0).expect("open sample");
            let m = set.manifest().expect("the sample's manifest");
            (
                m.components.iter().take(2).map(|c| c.key.clone()).collect(),
                m.files.iter().take(2).map(|f| f.path.clone()).collect(),
            )
        })
        .clone()
}

/// A real cursor (the second part of the sample's first document at 300 tokens).
fn sample_cursor() -> String {
    static CURSOR: OnceLock<String> = OnceLock::new();
    CURSOR
        .get_or_init(|| {
            let set = BundleSet::open(&sample().0).expect("open sample");
            let name = set.manifest().unwrap().components.first().map(|c| c.key.clone()).unwrap_or_default();
            let budget = Budget::new(10_000, Some(crate::budget::MIN_MAX_TOKENS)).expect("budget");
            let first = set.doc(&name, None, Detail::Full, &[], Paging { budget, cursor: None }).expect("doc");
            first.next_cursor.expect("the first document is over 300 tokens")
        })
        .clone()
}

/// Decodes every frame of `b` with the type its key stores (the set's decoders, without the lookups).
fn decode_typed(b: &Bundle, file: &str) {
    use crate::model::*;
    for key in b.keys().map(str::to_string).collect::<Vec<_>>() {
        let k = key.as_str();
        let _ = match k {
            keys::MANIFEST | keys::HEAD if file == "manifest.bundle" => b.get::<Manifest>(k).map(drop),
            k if k.starts_with("entry/") => b.get::<ComponentLookup>(k).map(drop),
            k if k.starts_with(keys::FILES) => b.get::<Vec<FileOwner>>(k).map(drop),
            "component" => b.get::<ComponentMeta>(k).map(drop),
            k if k.starts_with("doc-lists/") => b.get::<DocLists>(k).map(drop),
            k if k.starts_with("tokens/") => b.get::<TokenMap>(k).map(drop),
            "tokens" => b.get::<TokenMaps>(k).map(drop).and(b.get_keyed(k).map(|maps| {
                // The keyed decoding the lookups use: every key, and one that is not there.
                for key in b.get::<TokenMaps>(k).map(|m| m.into_keys().collect()).unwrap_or_else(|_| vec![]) {
                    let _ = maps.get::<TokenMap>(&key);
                }
                let _ = maps.get::<TokenMap>("doc/none");
            })),
            "props" => b.get::<Vec<PropsTable>>(k).map(drop),
            "changelog" => b.get::<ChangelogMeta>(k).map(drop),
            k if k.starts_with("functions/") => b.get::<Vec<FunctionMeta>>(k).map(drop),
            k if k.starts_with("doc/") || k.starts_with("file/") || k.starts_with("page/") => {
                b.get::<String>(k).map(drop).and(b.get_text(k).map(drop))
            }
            _ => b.get::<serde::de::IgnoredAny>(k).map(drop),
        };
    }
}

fn run(cases: u32, full_every: usize) -> (u32, u32) {
    let mut runner = TestRunner::new(RunnerConfig { cases, failure_persistence: None, ..RunnerConfig::default() });
    let tried = std::sync::atomic::AtomicU32::new(0);
    let result = runner.run(&case(), |c| {
        tried.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        prop_assert!(run_case(&c, c.frame % full_every == 0));
        Ok(())
    });
    let tried = tried.into_inner();
    if let Err(e) = result {
        panic!("after {tried} cases: {e}");
    }
    (tried, tried)
}

#[test]
fn proptest_cases() {
    let (tried, survived) = run(64, 1);
    eprintln!("fuzz: {tried} mutations tried, {survived} answered without a panic");
    assert_eq!(tried, survived);
}

/// 10⁶ cases (or `FUZZ_CASES`): `cargo xtask fuzz`.
#[test]
#[ignore = "long: run by `cargo xtask fuzz`"]
fn fuzz_million() {
    let cases = std::env::var("FUZZ_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(1_000_000);
    let started = std::time::Instant::now();
    let (tried, survived) = run(cases, 1000);
    eprintln!("fuzz: {tried} mutations tried, {survived} answered without a panic, in {:?}", started.elapsed());
    assert_eq!(tried, survived);
}

#[test]
fn resealed_bundles_reach_the_decoders() {
    // A resealed bundle with no mutation is accepted: the reseal path is a real hand-made bundle, not one the
    // checks would refuse before any decoder runs.
    let (dir, files) = sample();
    let at = files.iter().position(|(n, _)| n != "manifest.bundle" && n != "search.bundle").expect("a component");
    let sealed = reseal(&dir.join(&files[at].0), 0, &[]).expect("reseal");
    let b = {
        let (_tmp, d) = write_set(&[(files[at].0.clone(), sealed)]);
        Bundle::open(&d.join(&files[at].0)).expect("open resealed")
    };
    assert_ne!(b.identity().key, MANIFEST_KEY);
    assert!(b.keys().count() > 1);
    let _: Option<BundleError> = None;
}
