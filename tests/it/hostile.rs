//! No input can take the machine or leave a wrong state (issue 26 §3): hostile pack files, damaged sets that pass
//! their checksums, races between store commands, huge or changing repository files, names that are escape
//! sequences. Each repro is small: a generated pack, a sparse file, a race loop bounded in trials.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn arg(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

/// Runs the binary with the store at `store`, its address space capped at `limit_mb` MB (`ulimit -v`): a command
/// that tries to allocate more fails instead of taking the machine.
fn run_capped(cwd: &Path, store: &Path, limit_mb: u64, args: &[&str]) -> Output {
    Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {}; exec \"$0\" \"$@\"", limit_mb * 1024))
        .arg(env!("CARGO_BIN_EXE_mydesign-docs"))
        .args(args)
        .current_dir(cwd)
        .env("MYDESIGN_DOCS_HOME", store)
        .env_remove("XDG_DATA_HOME")
        .output()
        .expect("run binary")
}

/// One piece of a hand-written zstd frame: bytes stored as they are, or a run of zeros (RLE blocks: 4 bytes of
/// frame per 128 KiB, so a few KB of pack expand to gigabytes).
enum Part {
    Raw(Vec<u8>),
    Zeros(u64),
}

const BLOCK: u64 = 128 << 10;

/// A zstd frame (RFC 8878) of raw and RLE blocks, no content size, with a window of `2^window_log` bytes.
fn frame(parts: &[Part], window_log: u8) -> Vec<u8> {
    let mut blocks: Vec<(u32, Vec<u8>)> = Vec::new();
    for part in parts {
        match part {
            Part::Raw(data) => {
                blocks.extend(data.chunks(BLOCK as usize).map(|c| ((c.len() as u32) << 3, c.to_vec())));
            }
            &Part::Zeros(mut n) => {
                while n > 0 {
                    let take = n.min(BLOCK);
                    blocks.push((1 << 1 | (take as u32) << 3, vec![0]));
                    n -= take;
                }
            }
        }
    }
    let mut out = 0xFD2F_B528u32.to_le_bytes().to_vec();
    out.push(0);
    out.push((window_log - 10) << 3);
    if blocks.is_empty() {
        blocks.push((0, Vec::new()));
    }
    let last = blocks.len() - 1;
    for (i, (header, payload)) in blocks.into_iter().enumerate() {
        out.extend_from_slice(&(header | u32::from(i == last)).to_le_bytes()[..3]);
        out.extend_from_slice(&payload);
    }
    out
}

/// `frame` with the pack trailer (skippable frame holding the xxh3 of every byte before it).
fn with_trailer(mut frame: Vec<u8>) -> Vec<u8> {
    let sum = xxhash_rust::xxh3::xxh3_64(&frame);
    frame.extend_from_slice(&0x184D_2A50u32.to_le_bytes());
    frame.extend_from_slice(&16u32.to_le_bytes());
    frame.extend_from_slice(b"MDPKSUM1");
    frame.extend_from_slice(&sum.to_le_bytes());
    frame
}

/// A tar header block for `name` declaring `size` bytes.
fn tar_header(name: &str, size: u64, kind: tar::EntryType) -> Vec<u8> {
    let mut h = tar::Header::new_gnu();
    h.set_entry_type(kind);
    h.set_size(size);
    h.set_mode(0o644);
    if kind.is_gnu_longname() {
        h.as_old_mut().name[..13].copy_from_slice(b"././@LongLink");
    } else {
        h.set_path(name).unwrap();
    }
    h.set_cksum();
    h.as_bytes().to_vec()
}

/// A tar entry with its content and padding, as raw bytes.
fn tar_entry(name: &str, data: &[u8]) -> Vec<u8> {
    let mut out = tar_header(name, data.len() as u64, tar::EntryType::Regular);
    out.extend_from_slice(data);
    out.resize(out.len().next_multiple_of(512), 0);
    out
}

/// A pack manifest (JSON) for the sample's `my-design@3.4.0` listing `files` (name, bytes, xxh3).
fn pack_manifest(files: &[(&str, u64, &str)]) -> Vec<u8> {
    let files: Vec<serde_json::Value> =
        files.iter().map(|(n, b, x)| serde_json::json!({"name": n, "bytes": b, "xxh3": x})).collect();
    let build_id = files[0]["xxh3"].clone();
    serde_json::to_vec(&serde_json::json!({
        "format": 1, "system": "my-design", "version": "3.4.0", "build_id": build_id,
        "built_by": "hand-made", "files": files
    }))
    .unwrap()
}

/// Installs `pack` (bytes) into a fresh store under a 1 GB address-space cap: (stderr, exit code, seconds, store).
fn install_hostile(tmp: &Path, name: &str, pack: &[u8]) -> (String, Option<i32>, f64, PathBuf) {
    let path = tmp.join(name);
    std::fs::write(&path, pack).unwrap();
    let store = tmp.join(format!("store-{name}"));
    let t = std::time::Instant::now();
    let out = run_capped(tmp, &store, 1024, &["install", arg(&path)]);
    let secs = t.elapsed().as_secs_f64();
    (String::from_utf8_lossy(&out.stderr).into_owned(), out.status.code(), secs, store)
}

/// The store holds no set and no leftover temporary directory.
fn assert_store_empty(store: &Path, what: &str) {
    let left: Vec<String> = std::fs::read_dir(store)
        .map(|r| r.filter_map(Result::ok).map(|e| e.file_name().to_string_lossy().into_owned()).collect())
        .unwrap_or_default();
    assert!(left.is_empty(), "{what} left {left:?} in the store");
}

const GIB4: u64 = 4 << 30;

#[test]
fn a_pack_entry_declaring_gigabytes_is_refused_before_a_byte_of_it_is_read() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let mb = b"manifest.bundle bytes";
    let mb_sum = format!("{:016x}", xxhash_rust::xxh3::xxh3_64(mb));
    let json = pack_manifest(&[("manifest.bundle", mb.len() as u64, &mb_sum)]);

    // manifest.bundle declares 4 GiB (of zeros: 128 KB of RLE blocks) where the pack manifest says 21 bytes.
    let mut head = tar_entry("mydesign-pack.json", &json);
    head.extend(tar_header("my-design@3.4.0/manifest.bundle", GIB4, tar::EntryType::Regular));
    let pack = with_trailer(frame(&[Part::Raw(head), Part::Zeros(GIB4)], 17));
    assert!(pack.len() < 200_000, "{} bytes", pack.len());
    let (err, code, secs, store) = install_hostile(t, "entry-bomb.tar.zst", &pack);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("manifest.bundle: the archive declares 4294967296 bytes, the pack manifest says 21"), "{err}");
    assert!(err.contains("nothing was installed (the store is unchanged)"), "{err}");
    assert!(secs < 10.0, "{secs} s");
    assert_store_empty(&store, "entry-bomb");

    // The pack manifest itself declares 4 GiB.
    let mut head = tar_header("mydesign-pack.json", GIB4, tar::EntryType::Regular);
    head.extend_from_slice(&json);
    let pack = with_trailer(frame(&[Part::Raw(head), Part::Zeros(GIB4 - json.len() as u64)], 17));
    let (err, code, _, store) = install_hostile(t, "manifest-bomb.tar.zst", &pack);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("mydesign-pack.json declares 4294967296 bytes, over the cap of 16777216"), "{err}");
    assert_store_empty(&store, "manifest-bomb");

    // A GNU long name of 4 GiB (the tar crate would read it whole).
    let mut head = tar_entry("mydesign-pack.json", &json);
    head.extend(tar_header("", GIB4, tar::EntryType::GNULongName));
    let pack = with_trailer(frame(&[Part::Raw(head), Part::Zeros(GIB4)], 17));
    let (err, code, _, store) = install_hostile(t, "longname-bomb.tar.zst", &pack);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("a long name of 4294967296 bytes, over the cap of 4096"), "{err}");
    assert_store_empty(&store, "longname-bomb");
}

#[test]
fn a_pack_manifest_listing_far_more_than_its_file_holds_is_refused_before_anything_is_written() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    // 900 MB announced and delivered (zeros), in a pack of ~30 KB: the sizes agree, only the ratio gives it away.
    let big = 900u64 << 20;
    let json = pack_manifest(&[("manifest.bundle", big, "0123456789abcdef")]);
    let mut head = tar_entry("mydesign-pack.json", &json);
    head.extend(tar_header("my-design@3.4.0/manifest.bundle", big, tar::EntryType::Regular));
    let pack = with_trailer(frame(&[Part::Raw(head), Part::Zeros(big)], 17));
    let (err, code, secs, store) = install_hostile(t, "ratio-bomb.tar.zst", &pack);
    assert_eq!(code, Some(2), "{err}");
    let want = format!("the pack manifest lists 943718400 bytes of files in a {}-byte pack file, over 64×", pack.len());
    assert!(err.contains(&want), "{err}");
    assert!(secs < 10.0, "{secs} s");
    assert_store_empty(&store, "ratio-bomb");

    // Over the absolute cap whatever the ratio.
    let json = pack_manifest(&[("manifest.bundle", 3 << 30, "0123456789abcdef")]);
    let pack = with_trailer(frame(&[Part::Raw(tar_entry("mydesign-pack.json", &json))], 17));
    let (err, code, _, _) = install_hostile(t, "cap.tar.zst", &pack);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("lists 3221225472 bytes of files, over the cap of 1073741824"), "{err}");
}

#[test]
fn a_zstd_frame_asking_for_a_huge_window_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let json = pack_manifest(&[("manifest.bundle", 21, "0123456789abcdef")]);
    // Window 2^26 (64 MiB) declared in the frame header: within zstd's default limit (2^27), over the pack's (2^23).
    let pack = with_trailer(frame(&[Part::Raw(tar_entry("mydesign-pack.json", &json))], 26));
    let (err, code, _, store) = install_hostile(tmp.path(), "window.tar.zst", &pack);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("nothing was installed"), "{err}");
    assert!(err.to_lowercase().contains("memory") || err.contains("window"), "{err}");
    assert_store_empty(&store, "window");
}

/// The sample's real pack file: (bytes, decompressed archive).
fn sample_archive(tmp: &Path) -> (Vec<u8>, Vec<u8>) {
    let set = &common::sample().report.dir;
    let out = run_capped(tmp, &tmp.join("unused"), 4096, &["pack", "--bundles", arg(set), "-o", arg(tmp)]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let bytes = std::fs::read(tmp.join("my-design@3.4.0.tar.zst")).unwrap();
    let archive = zstd::decode_all(&bytes[..bytes.len() - 24]).unwrap();
    (bytes, archive)
}

/// Where the archive's end-of-archive zero blocks begin.
fn archive_end(archive: &[u8]) -> usize {
    let mut at = 0;
    while at + 512 <= archive.len() && archive[at..at + 512].iter().any(|&b| b != 0) {
        let size = tar::Header::from_byte_slice(&archive[at..at + 512]).entry_size().unwrap() as usize;
        at += 512 + size.next_multiple_of(512);
    }
    at
}

#[test]
fn an_entry_after_the_listed_files_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let (_, archive) = sample_archive(t);
    let end = archive_end(&archive);
    let mut tampered = archive[..end].to_vec();
    tampered.extend(tar_entry("my-design@3.4.0/extra.bundle", b"not listed"));
    tampered.extend_from_slice(&archive[end..]);
    let pack = with_trailer(zstd::encode_all(&tampered[..], 3).unwrap());
    let (err, code, _, store) = install_hostile(t, "trailing.tar.zst", &pack);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("the archive holds `my-design@3.4.0/extra.bundle` after the files its manifest lists"),
        "{err}"
    );
    assert_store_empty(&store, "trailing");

    // The untouched archive, recompressed the same way, installs: the refusal is the extra entry's.
    let pack = with_trailer(zstd::encode_all(&archive[..], 3).unwrap());
    let (err, code, _, store) = install_hostile(t, "clean.tar.zst", &pack);
    assert_eq!(code, Some(0), "{err}");
    assert!(store.join("my-design@3.4.0/manifest.bundle").is_file());
}

/// Peak resident set (KiB) and success of the binary run with `args` in `cwd`, measured by Python's
/// `getrusage(RUSAGE_CHILDREN)`; `None` (the reason printed) without python3.
fn peak_rss_kib(cwd: &Path, args: &[&str]) -> Option<(u64, bool)> {
    let script = "import resource, subprocess, sys\n\
                  r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n\
                  print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, r.returncode)";
    let out = Command::new("python3")
        .arg("-c")
        .arg(script)
        .arg(env!("CARGO_BIN_EXE_mydesign-docs"))
        .args(args)
        .current_dir(cwd)
        .output();
    let Ok(out) = out.map_err(|e| common::skip(format_args!("no python3 to measure the peak RSS: {e}"))) else {
        return None;
    };
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    let mut words = text.split_whitespace();
    let rss = words.next()?.parse().ok()?;
    Some((rss, words.next() == Some("0")))
}

#[test]
fn a_sparse_gigabyte_file_in_the_repository_costs_no_memory_and_a_rebuild_reads_none_of_it() {
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().join("repo");
    common::copy_tree(&common::root().join("corpus"), &repo);
    // A 1 GiB sparse asset beside the sources, and one of 5 MB (under the 10 MB limit: hashed, streamed).
    std::fs::File::create(repo.join("src/huge.bin")).unwrap().set_len(1 << 30).unwrap();
    std::fs::File::create(repo.join("src/mid.bin")).unwrap().set_len(5 << 20).unwrap();
    let out = tmp.path().join("out");
    let Some((rss, ok)) = peak_rss_kib(tmp.path(), &["build", arg(&repo), "--out", arg(&out)]) else { return };
    assert!(ok, "the build failed");
    // The sample alone peaks at ~100 MB; reading the asset whole took 1,067 MB.
    assert!(rss < 400_000, "peak RSS {rss} KiB");
    let t = std::time::Instant::now();
    let again = common::ok(tmp.path(), &["build", arg(&repo), "--out", arg(&out)]);
    assert!(again.contains("the published set is already this build, nothing written"), "{again}");
    // Keyed by size and mtime, the asset is not read again (reading it took 16 s of a rebuild on the 2-core box).
    assert!(t.elapsed().as_secs_f64() < 8.0, "{:?}", t.elapsed());
}

/// A repository with one component `icon` whose folder holds `n` sources.
fn icon_repo(dir: &Path, n: usize) {
    std::fs::create_dir_all(dir.join("docs/icon")).unwrap();
    std::fs::create_dir_all(dir.join("src/icon")).unwrap();
    std::fs::write(dir.join("package.json"), r#"{"name": "icons", "version": "1.0.0"}"#).unwrap();
    std::fs::write(
        dir.join("mydesign-docs.toml"),
        "[[docs]]\npattern = \"docs/{component}/index.md\"\nlang = \"en-US\"\n\n\
         [sources]\npatterns = [\"src/{component}/**\"]\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("docs/icon/index.md"),
        "# Icon\n\nIcons.\n\n## API\n\n| Property | Type |\n|---|---|\n| size | number |\n",
    )
    .unwrap();
    for i in 0..n {
        std::fs::write(
            dir.join(format!("src/icon/icon{i}.tsx")),
            format!("export const Icon{i} = (p: {{ size: number }}) => p.size * {i};\n"),
        )
        .unwrap();
    }
}

#[test]
fn build_time_is_linear_in_the_files_of_one_component() {
    let tmp = tempfile::tempdir().unwrap();
    let time = |n: usize| {
        let repo = tmp.path().join(format!("icons{n}"));
        icon_repo(&repo, n);
        let out = tmp.path().join(format!("out{n}"));
        let config = mydesign_docs::config::Config::load(&repo, None).unwrap();
        let opts = mydesign_docs::compile::BuildOptions { repo, out, config, progress: false };
        let t = std::time::Instant::now();
        let report = mydesign_docs::compile::build(&opts).unwrap();
        assert_eq!(report.manifest.components.len(), 1);
        (t.elapsed().as_secs_f64(), report)
    };
    let (small, _) = time(500);
    let (large, report) = time(4000);
    let set = mydesign_docs::read::BundleSet::open(&report.dir).unwrap();
    assert_eq!(set.files("icon").unwrap().files.len(), 4000);
    // 8× the files: 8× the time when linear (less, with the fixed costs); it was 10× for 4× the files
    // (`BTreeMap::append` into the component's token maps once per file) and 64× would be quadratic.
    assert!(large / small < 20.0, "500 files: {small:.2} s, 4,000 files: {large:.2} s");
}

/// A document of ~120 KB whose every line names `word`.
fn doc_text(word: &str) -> String {
    format!("# Racy\n\n{}", format!("The {word} line of the racy document.\n\n").repeat(3000))
}

#[test]
fn a_file_saved_during_a_build_never_leaves_a_stale_set() {
    use std::sync::atomic::{AtomicBool, Ordering};
    let tmp = tempfile::tempdir().unwrap();
    let repo = tmp.path().join("repo");
    std::fs::create_dir_all(repo.join("docs/racy")).unwrap();
    std::fs::create_dir_all(repo.join("docs/calm")).unwrap();
    std::fs::write(repo.join("package.json"), r#"{"name": "race", "version": "1.0.0"}"#).unwrap();
    std::fs::write(repo.join("docs/calm/index.md"), "# Calm\n\nNothing moves here.\n").unwrap();
    let doc = repo.join("docs/racy/index.md");
    std::fs::write(&doc, doc_text("first")).unwrap();
    let out = tmp.path().join("out");
    let config = mydesign_docs::config::Config::load(&repo, None).unwrap();
    let opts = mydesign_docs::compile::BuildOptions { repo: repo.clone(), out, config, progress: false };
    let cache = tmp.path().join("cache");
    let build = || mydesign_docs::compile::build_with_cache(&opts, Some(&cache)).unwrap();
    build();
    for trial in 0..12 {
        // An editor saving in place over and over (truncate, then two writes): a build may read any of its states.
        let stop = AtomicBool::new(false);
        let last = std::thread::scope(|s| {
            let writer = s.spawn(|| {
                let mut n = 0u32;
                while !stop.load(Ordering::Relaxed) {
                    n += 1;
                    let text = doc_text(&format!("w{trial}x{n}"));
                    let mut f = std::fs::File::create(&doc).unwrap();
                    use std::io::Write;
                    f.write_all(&text.as_bytes()[..text.len() / 2]).unwrap();
                    std::thread::sleep(std::time::Duration::from_micros(300));
                    f.write_all(&text.as_bytes()[text.len() / 2..]).unwrap();
                }
                n
            });
            build();
            stop.store(true, Ordering::Relaxed);
            writer.join().unwrap()
        });
        // The file settled: a cached build must publish what a fresh build of the tree publishes.
        let cached = build();
        let fresh_opts = mydesign_docs::compile::BuildOptions {
            repo: repo.clone(),
            out: tmp.path().join(format!("fresh{trial}")),
            config: mydesign_docs::config::Config::load(&repo, None).unwrap(),
            progress: false,
        };
        let fresh = mydesign_docs::compile::build(&fresh_opts).unwrap();
        assert_eq!(
            cached.manifest.build_id, fresh.manifest.build_id,
            "trial {trial} ({last} saves during the build): the cached build published a stale set"
        );
    }
}

/// Runs the binary with the store at `store`; (success, stderr).
fn run_store(cwd: &Path, store: &Path, args: &[&str]) -> (bool, String) {
    let out = run_capped(cwd, store, 4096, args);
    (out.status.success(), String::from_utf8_lossy(&out.stderr).into_owned())
}

#[test]
fn install_force_racing_remove_never_leaves_a_dangling_link() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    // Two builds of one version: the sample, and the sample with one document changed.
    let a = common::sample().report.dir.clone();
    let repo = t.join("repo");
    common::copy_tree(&common::root().join("corpus"), &repo);
    let doc = repo.join("docs/button/index.md");
    let text = std::fs::read_to_string(&doc).unwrap();
    std::fs::write(&doc, format!("{text}\nAnother build.\n")).unwrap();
    let b = common::build_into(&repo, "default", &t.join("out-b")).dir;
    let store = t.join("store");
    let link = store.join("my-design@3.4.0");
    for trial in 0..15 {
        let from = if trial % 2 == 0 { &a } else { &b };
        assert!(run_store(t, &store, &["install", arg(from), "--force"]).0);
        let (installed, removed) = std::thread::scope(|s| {
            let other = if trial % 2 == 0 { &b } else { &a };
            let install = s.spawn(|| run_store(t, &store, &["install", arg(other), "--force"]));
            let remove = s.spawn(|| run_store(t, &store, &["remove", "my-design@3.4.0"]));
            (install.join().unwrap(), remove.join().unwrap())
        });
        assert!(installed.0, "trial {trial}: install failed: {}", installed.1);
        // Either order is fine: what is left must be whole, or nothing.
        let dangling = std::fs::symlink_metadata(&link).is_ok() && !link.join("manifest.bundle").is_file();
        assert!(!dangling, "trial {trial}: a dangling link (remove: {removed:?})");
        if link.exists() {
            assert!(run_store(t, &store, &["verify", "--store", arg(&store)]).0, "trial {trial}");
        }
        let generations = std::fs::read_dir(&store)
            .unwrap()
            .filter(|e| e.as_ref().unwrap().file_name().to_string_lossy().starts_with(".my-design@3.4.0.gen-"))
            .count();
        assert!(generations <= 2, "trial {trial}: {generations} generations left");
    }
    // A link whose generation was deleted by hand: `remove` removes it, `install` replaces it.
    let target = std::fs::read_link(&link).unwrap_or_else(|_| {
        assert!(run_store(t, &store, &["install", arg(&a), "--force"]).0);
        std::fs::read_link(&link).unwrap()
    });
    std::fs::remove_dir_all(store.join(&target)).unwrap();
    let (ok, err) = run_store(t, &store, &["remove", "my-design@3.4.0"]);
    assert!(ok, "{err}");
    assert!(std::fs::symlink_metadata(&link).is_err(), "the dangling link is still there");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let (ok, err) = run_store(t, &store, &["install", arg(&a)]);
    assert!(ok, "{err}");
    assert!(link.join("manifest.bundle").is_file());
}

#[test]
fn bytes_appended_to_a_manifest_fail_verify_and_every_lookup() {
    let tmp = tempfile::tempdir().unwrap();
    let t = tmp.path();
    let set = t.join("out/my-design@3.4.0");
    common::copy_tree(&common::sample().report.dir, &set);
    common::ok(t, &["verify", "--bundles", arg(&t.join("out"))]);
    let manifest = set.join("manifest.bundle");
    let mut f = std::fs::OpenOptions::new().append(true).open(&manifest).unwrap();
    std::io::Write::write_all(&mut f, b"tail").unwrap();
    drop(f);
    for args in [&["verify"][..], &["components"][..]] {
        let mut args = args.to_vec();
        args.extend(["--bundles", arg(&set)]);
        let err = common::fails(t, &args);
        assert!(
            err.contains("manifest.bundle: corrupt 4 bytes after the index, which ends a bundle"),
            "{args:?}: {err}"
        );
    }
}
