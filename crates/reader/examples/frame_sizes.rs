//! Where a bundle set's bytes are: per frame kind (the key up to its first `/`; `file/` split by extension), the
//! number of frames, their compressed and decompressed (MessagePack) bytes, plus each file's header and index.
//! Issue 12's size work measures with it: `cargo run -p mydesign-docs-reader --example frame_sizes -- OUT/SYSTEM@VERSION`.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

use mydesign_docs_reader::bundle::format::{HEADER_LEN, Index};

/// Frames of one kind: how many, compressed bytes, decompressed bytes.
#[derive(Default)]
struct Kind {
    frames: u64,
    bytes: u64,
    raw: u64,
}

fn kind(bundle: &str, key: &str) -> String {
    let head = key.split('/').next().unwrap_or(key);
    let name = match head {
        "file" | "skeleton" | "functions" => {
            let ext = key.rsplit_once('.').map_or("", |(_, e)| e);
            let ext = if ext.contains('/') { "" } else { ext };
            format!("{head} .{ext}")
        }
        _ => head.to_string(),
    };
    match bundle {
        "search.bundle" => format!("search: {name}"),
        "manifest.bundle" => format!("manifest: {name}"),
        "changelog.bundle" => format!("changelog: {name}"),
        _ => name,
    }
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"))
}

fn main() {
    let Some(dir) = std::env::args().nth(1) else {
        eprintln!("usage: frame_sizes OUT/SYSTEM@VERSION");
        std::process::exit(2);
    };
    let mut kinds: BTreeMap<String, Kind> = BTreeMap::new();
    let mut files: Vec<_> = std::fs::read_dir(Path::new(&dir)).expect("read the set's directory").flatten().collect();
    files.sort_by_key(|e| e.file_name());
    let (mut total, mut own) = (0u64, 0u64);
    for entry in files {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.ends_with(".bundle") {
            continue;
        }
        let bytes = std::fs::read(entry.path()).expect("read a bundle");
        total += bytes.len() as u64;
        if name == "search.bundle" || name == "manifest.bundle" {
            own += bytes.len() as u64;
        }
        let (at, len, raw_len) = (u64_at(&bytes, 16), u64_at(&bytes, 24), u64_at(&bytes, 32));
        let index_bytes = &bytes[at as usize..(at + len) as usize];
        let raw = zstd::bulk::decompress(index_bytes, raw_len as usize).expect("decompress the index");
        let index: Index = rmp_serde::from_slice(&raw).expect("decode the index");
        let overhead = kinds.entry("(header + index)".into()).or_default();
        overhead.frames += 1;
        overhead.bytes += HEADER_LEN as u64 + len;
        overhead.raw += HEADER_LEN as u64 + raw_len;
        for f in &index.frames {
            let k = kinds.entry(kind(&name, &f.key)).or_default();
            k.frames += 1;
            k.bytes += f.len;
            k.raw += f.raw_len;
        }
    }
    let mut rows: Vec<_> = kinds.into_iter().collect();
    rows.sort_by_key(|(_, k)| std::cmp::Reverse(k.bytes));
    // Written with errors ignored: piped into `head`, the rest is not wanted.
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{:<28} {:>7} {:>11} {:>11} {:>6}", "kind", "frames", "bytes", "raw", "ratio");
    for (name, k) in &rows {
        let ratio = k.bytes as f64 / k.raw.max(1) as f64;
        let _ = writeln!(out, "{name:<28} {:>7} {:>11} {:>11} {ratio:>6.3}", k.frames, k.bytes, k.raw);
    }
    let _ = writeln!(
        out,
        "total {total} bytes; {} without the manifest and the search index (the `bytes:` line of `build`)",
        total - own
    );
}
