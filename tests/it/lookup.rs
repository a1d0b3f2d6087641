//! Lookups by name read one manifest entry, not the whole manifest (issue 12 item 3, format 6): `manifest.bundle`
//! holds the whole manifest, its head and one `entry/<key>` frame per component.

use mydesign_docs::bundle::Bundle;
use mydesign_docs::model::{ComponentLookup, Manifest, keys};
use mydesign_docs::read::{BundleSet, Detail, Paging};

use crate::common::{fails, ok, sample};

/// A copy of the sample set with one byte of manifest frame `frame` flipped (the file still opens: only that
/// frame's checksum fails, when it is read).
fn with_damaged_frame(frame: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let (tmp, dir) = sample_copy("set");
    let path = dir.join("manifest.bundle");
    let range = Bundle::open(&path).unwrap().frame_range(frame).expect("frame");
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[(range.start + range.end) as usize / 2] ^= 0x40;
    std::fs::write(&path, bytes).unwrap();
    (tmp, dir)
}

/// A copy of the sample set in `<tempdir>/<name>`.
fn sample_copy(name: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join(name);
    std::fs::create_dir(&dir).unwrap();
    for e in std::fs::read_dir(&sample().report.dir).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), dir.join(e.file_name())).unwrap();
    }
    (tmp, dir)
}

#[test]
fn the_manifest_bundle_has_a_head_and_one_entry_per_component() {
    let set = &sample().set;
    let m = set.manifest().unwrap();
    assert_eq!(m.components.len(), 17);
    let b = Bundle::open(&sample().report.dir.join("manifest.bundle")).unwrap();
    let entries: Vec<&str> = b.keys().filter(|k| k.starts_with("entry/")).collect();
    assert_eq!(entries.len(), 17);
    assert_eq!(entries[0], "entry/avatar");
    assert!(entries.contains(&"entry/datepicker"), "{entries:?}");
    let head: Manifest = b.get(keys::HEAD).unwrap();
    assert!(head.components.is_empty() && head.files.is_empty());
    // The head keeps the set's own bundles (manifest excluded: it lists what it holds), not the components'.
    let own: Vec<&str> = head.bundles.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(own, ["_shared.bundle", "changelog.bundle", "search.bundle"]);
    let table: ComponentLookup = b.get(&keys::entry("table")).unwrap();
    assert_eq!(table.entry.name, "table");
    assert_eq!(table.bundle.name, table.entry.bundle);
    assert_eq!(Some(&table.bundle), m.bundles.iter().find(|f| f.name == "table.bundle"));
    // `verify` holds the head and every entry to the whole manifest.
    assert_eq!(set.verify().unwrap().0, m.bundles.len());
}

#[test]
fn a_lookup_by_name_never_decodes_the_whole_manifest() {
    // The whole manifest's frame is damaged: lookups by name and by path still answer (they read the head and one
    // `entry/` or `files/` frame), the list and the suggestions for an unknown name (which need it) say which
    // frame is damaged.
    let (_tmp, dir) = with_damaged_frame(keys::MANIFEST);
    let set = BundleSet::open(&dir).unwrap();
    let doc = set.doc("DatePicker", None, Detail::Normal, &[], Paging::unlimited()).unwrap();
    assert_eq!(doc.component, "date-picker");
    assert!(set.code_block("table", 1, None, Paging::unlimited()).is_ok());
    let err = set.components(None).unwrap_err().to_string();
    assert!(err.contains("checksum mismatch in frame `manifest`"), "{err}");
    let file = set.file("src/components/Table/Table.tsx", false, None, Paging::unlimited()).unwrap();
    assert_eq!(file.file.path, "src/components/Table/Table.tsx");
    let err = set.file("src/components/Table/Tabel.tsx", false, None, Paging::unlimited()).unwrap_err();
    assert!(err.to_string().contains("checksum mismatch in frame `manifest`"), "{err}");
    // An unknown name needs the list for its suggestions: the error says why there are none.
    let err = set.component("tabel").unwrap_err().to_string();
    assert!(err.contains("checksum mismatch in frame `manifest`"), "{err}");
    let s = dir.to_str().unwrap();
    let out = ok(&dir, &["doc", "table", "--bundles", s]);
    assert!(out.starts_with("[my-design"), "{out}");
    let err = fails(&dir, &["components", "--bundles", s]);
    assert!(err.contains("frame `manifest`"), "{err}");
}

#[test]
fn a_damaged_entry_is_an_error_for_that_component_only() {
    let (_tmp, dir) = with_damaged_frame(&keys::entry("table"));
    let set = BundleSet::open(&dir).unwrap();
    let err = set.component("table").unwrap_err().to_string();
    assert!(err.contains("checksum mismatch in frame `entry/table`"), "{err}");
    assert!(set.component("tabs").is_ok());
    assert_eq!(set.components(None).unwrap().components.len(), 17);
    let err = set.verify().unwrap_err().to_string();
    assert!(err.contains("entry/table"), "{err}");
}

#[test]
fn unknown_names_still_get_suggestions() {
    let err = sample().set.component("tabel").unwrap_err().to_string();
    assert!(err.contains("table"), "{err}");
}

/// A new user's trial: `verify` stopped at the first damaged bundle. It lists every one, and exits 2.
#[test]
fn verify_lists_every_damaged_bundle() {
    let (tmp, dir) = sample_copy("my-design@3.4.0");
    let button = std::fs::read(dir.join("button.bundle")).unwrap();
    std::fs::write(dir.join("button.bundle"), &button[..100]).unwrap();
    let mut table = std::fs::read(dir.join("table.bundle")).unwrap();
    let n = table.len();
    table[n - 10] ^= 0x40;
    std::fs::write(dir.join("table.bundle"), &table).unwrap();
    let s = tmp.path().to_str().unwrap();
    let out = crate::common::run(tmp.path(), &["verify", "--bundles", s]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap().replace(dir.to_str().unwrap(), "DIR");
    let bundles = sample().set.manifest().unwrap().bundles.len();
    assert_eq!(
        err.trim_end(),
        format!(
            "error: 2 of the {bundles} bundles of my-design 3.4.0 in DIR are damaged:\n  DIR/button.bundle: truncated \
             ({} bytes, the manifest says {}); copy the bundle again or rebuild\n  DIR/table.bundle: checksum mismatch \
             in whole file; the file is damaged, copy it again or rebuild",
            100,
            button.len()
        )
    );
}

/// TRIAL item 6: the parts of a file skeleton say their line numbers are the skeleton's (801 lines), not the
/// file's (1,738), in the header and in the cut line; every part's text is exactly those skeleton lines.
#[test]
fn skeleton_parts_state_skeleton_lines() {
    use mydesign_docs::budget::Budget;
    use mydesign_docs::render::{Render, Surface};
    let set = &sample().set;
    let path = "src/components/Table/Table.tsx";
    let whole = set.file(path, false, None, Paging::unlimited()).unwrap();
    assert!(whole.skeleton);
    let skeleton_lines = whole.file.skeleton.as_ref().unwrap().lines;
    assert_eq!((whole.file.lines, skeleton_lines), (1_738, 801));
    // Lines as the compiler counts them (`split('\n')`: a final newline starts a last, empty line).
    let mut lines: Vec<&str> = whole.text.split_inclusive('\n').collect();
    if whole.text.ends_with('\n') {
        lines.push("");
    }
    assert_eq!(lines.len(), 801);
    let budget = Budget::new(set.head().thresholds.max_tokens, Some(3_000)).unwrap();
    let (mut cursor, mut next_line, mut parts) = (None::<String>, 1u32, 0);
    loop {
        let v = set.file(path, false, None, Paging { budget, cursor: cursor.as_deref() }).unwrap();
        let (a, b) = v.part.lines;
        assert_eq!(a, next_line, "parts follow each other");
        let text = v.render(Surface::Cli);
        let header = format!(" · skeleton lines {}–{} of 801 · 1,738 lines · skeleton", a, b);
        assert!(text.lines().next().unwrap().contains(&header), "{}", text.lines().next().unwrap());
        assert!(!text.contains(&format!("lines {a}–{b} of 1,738")), "{text}");
        assert_eq!(v.text, lines[a as usize - 1..b as usize].concat(), "part {a}–{b} is those skeleton lines");
        parts += 1;
        match v.next_cursor {
            Some(c) => {
                assert!(text.contains(&format!("[cut after skeleton line {b}: ")), "{text}");
                cursor = Some(c);
                next_line = b + 1;
            }
            None => {
                // The last part ends at the last line with text (line 801 is the empty one after the final newline).
                assert_eq!(b, 800);
                assert!(whole.text.ends_with(&v.text));
                break;
            }
        }
    }
    assert!(parts >= 4, "{parts} parts");
}

/// Trial 4: a list cut to a small budget counted the rows it showed in its header ("1 component" of 101).
#[test]
fn a_cut_list_counts_all_its_rows_in_its_header() {
    let (_tmp, dir) = sample_copy("set");
    let s = dir.to_str().unwrap();
    let out = ok(&dir, &["components", "--bundles", s, "--max-tokens", "400"]);
    assert!(out.lines().next().unwrap().contains(" · 17 components · "), "{out}");
    let out = ok(&dir, &["files", "table", "--bundles", s, "--max-tokens", "400"]);
    assert!(out.starts_with("[my-design 3.4.0 · table · 7 files]") && out.contains("continue with"), "{out}");
}

/// Trial 4: a missing `--bundles` directory beside one that holds sets was ignored without a word.
#[test]
fn a_missing_bundles_directory_beside_others_is_named() {
    let (tmp, dir) = sample_copy("set");
    let missing = tmp.path().join("nonexist");
    let run = crate::common::run(
        tmp.path(),
        &["doc", "button", "--bundles", dir.to_str().unwrap(), "--bundles", missing.to_str().unwrap()],
    );
    assert!(run.status.success());
    let err = String::from_utf8(run.stderr).unwrap();
    assert_eq!(
        err,
        format!("warning: --bundles {}: not a directory; the other directories are read\n", missing.display())
    );
    // The commands an answer prints leave it out (each would warn again: trial 5).
    let (d, m) = (dir.to_str().unwrap(), missing.to_str().unwrap());
    let run =
        crate::common::run(tmp.path(), &["files", "table", "--bundles", d, "--bundles", m, "--max-tokens", "400"]);
    let out = String::from_utf8(run.stdout).unwrap();
    assert!(out.contains("continue with mydesign-docs files table --cursor "), "{out}");
    assert!(out.contains(d) && !out.contains("nonexist"), "{out}");
}

/// Trial 4: a partial path (`Button/Button.tsx`) or one differing in ASCII case only matched one file and was
/// only suggested; the one file it stands for is served, under its whole path. Two candidates stay an error.
#[test]
fn a_path_that_stands_for_one_file_is_served() {
    let (_tmp, dir) = sample_copy("set");
    let s = dir.to_str().unwrap();
    for partial in ["Button/Button.tsx", "SRC/components/button/BUTTON.tsx"] {
        let out = ok(&dir, &["file", partial, "--bundles", s, "--json"]);
        assert!(out.contains("\"path\":\"src/components/Button/Button.tsx\""), "{partial}: {out}");
    }
    let err = fails(&dir, &["file", "index.ts", "--bundles", s]);
    assert!(err.contains("did you mean"), "{err}");
}
