//! Damage that passes every checksum is still refused (issue 26 §3, integrity): a forged term dictionary (the
//! fst's own checksum made to match, the bundle resealed and its manifest entry updated) and a manifest of another
//! set than its directory names.

use crate::common;
use crate::release::run_in;

use std::path::Path;

use mydesign_docs::bundle::Bundle;
use mydesign_docs::bundle::writer::{BundleWriter, Frame};
use mydesign_docs::search::{Bytes, keys};

fn arg(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

/// A copy of the sample set in `dir`.
fn sample_copy(dir: &Path) {
    std::fs::create_dir_all(dir).unwrap();
    for e in std::fs::read_dir(&common::sample().report.dir).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), dir.join(e.file_name())).unwrap();
    }
}

/// crc32c (Castagnoli, reflected), masked: the checksum fst keeps in its last 4 bytes.
fn crc32c(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 { (crc >> 1) ^ 0x82F6_3B78 } else { crc >> 1 };
        }
    }
    // fst keeps it "masked" (as Snappy frames do).
    (!crc).rotate_right(15).wrapping_add(0xA282_EAD8)
}

/// Rewrites `set/search.bundle` with its dictionary's key count raised by one and the fst checksum recomputed,
/// every frame and the file resealed, and the manifest's record of the file updated: every checksum holds.
/// Returns the dictionary's true key count.
fn forge_dictionary(set: &Path) -> u64 {
    let path = set.join("search.bundle");
    let b = Bundle::open(&path).unwrap();
    let mut w = BundleWriter::new();
    w.identify(b.identity().clone());
    let file = std::fs::read(&path).unwrap();
    let mut keys_in = 0;
    for key in b.keys().map(str::to_string).collect::<Vec<_>>() {
        assert_eq!(b.frame_dictionary(&key), None, "search frames have no zstd dictionary");
        let range = b.frame_range(&key).unwrap();
        let mut raw = zstd::decode_all(&file[range.start as usize..range.end as usize]).unwrap();
        if key == keys::DICTIONARY {
            let Bytes(mut fst) = b.get::<Bytes>(&key).unwrap();
            let n = fst.len() - 4 - 16;
            keys_in = u64::from_le_bytes(fst[n..n + 8].try_into().unwrap());
            fst[n..n + 8].copy_from_slice(&(keys_in + 1).to_le_bytes());
            let end = fst.len() - 4;
            let crc = crc32c(&fst[..end]);
            fst[end..].copy_from_slice(&crc.to_le_bytes());
            raw = Frame::raw(&Bytes(fst)).unwrap();
        }
        w.push(Frame::from_raw(key, &raw).unwrap());
    }
    drop(b);
    let sealed = w.into_bytes().unwrap();
    std::fs::write(&path, &sealed).unwrap();
    let header = u64::from_le_bytes(sealed[48..56].try_into().unwrap());
    crate::robustness::rewrite_manifest(set, |m| {
        let e = m.bundles.iter_mut().find(|e| e.name == "search.bundle").unwrap();
        e.bytes = sealed.len() as u64;
        e.xxh3 = xxhash_rust::xxh3::xxh3_64(&sealed);
        e.header_xxh3 = header;
    });
    keys_in
}

#[test]
fn a_forged_term_dictionary_is_refused_by_verify_install_and_search() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let out = t.join("out");
    let set = out.join("my-design@3.4.0");
    sample_copy(&set);
    let keys_in = forge_dictionary(&set);
    // 599 before format 13: the whole identifiers that title declaration units are dictionary words too.
    assert_eq!(keys_in, 868, "the sample's dictionary");
    let store = t.join("store");
    let want = format!(
        "search.bundle: corrupt search index (term dictionary: {keys_in} keys reachable, the header says {}); \
         rebuild with `mydesign-docs build`",
        keys_in + 1
    );
    // verify: the set's one damaged bundle, exit 2.
    let run = |args: &[&str]| {
        let o = run_in(t, &store, args);
        (o.status.code(), String::from_utf8_lossy(&o.stderr).into_owned())
    };
    let (code, err) = run(&["verify", "--bundles", arg(&out)]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains(&want) && err.starts_with("error: 1 of the 20 bundles of my-design 3.4.0"), "{err}");
    // install: refused, nothing installed.
    let (code, err) = run(&["install", arg(&set)]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains(&want), "{err}");
    assert!(!store.join("my-design@3.4.0").exists());
    // search for a misspelt word (the dictionary's "did you mean"): an error naming it, never a panic (101).
    let (code, err) = run(&["search", "tabel selecton", "--bundles", arg(&out)]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains(&want), "{err}");
    // The sample's own dictionary passes.
    common::ok(t, &["verify", "--bundles", arg(common::sample().report.dir.parent().unwrap())]);
}

#[test]
fn a_manifest_of_another_set_than_its_directory_names_is_a_damaged_set() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let out = t.join("out");
    // The sample set under another version's name: what the directory says is not what the manifest is.
    let set = out.join("my-design@9.9.9");
    sample_copy(&set);
    let o = arg(&out);
    let want = "manifest.bundle: this manifest is set my-design@3.4.0, but its directory is named my-design@9.9.9; \
                a set copied or renamed over another";
    for args in [&["components", "--bundles", o][..], &["doc", "table", "--bundles", o], &["verify", "--bundles", o]] {
        let err = common::fails(t, args);
        assert!(err.contains(want), "{args:?}: {err}");
    }
    // Given directly, too.
    let err = common::fails(t, &["components", "--bundles", arg(&set)]);
    assert!(err.contains(want), "{err}");
    // A directory not named `<system>@<version>` names no set: the manifest says which it is.
    let plain = t.join("plain");
    std::fs::rename(&set, &plain).unwrap();
    let listed = common::ok(t, &["components", "--bundles", arg(&plain)]);
    assert!(listed.starts_with("[my-design 3.4.0"), "{listed}");
}
