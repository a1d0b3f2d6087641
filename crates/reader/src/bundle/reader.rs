//! Opens a bundle file and decodes single frames with positioned reads (`pread`). Opening reads and checks the
//! header and the index; each frame read reads that frame's bytes and checks its checksum. No offset is used before
//! it has been bounds-checked, no size is allocated before it has been capped, and no byte pattern can make the
//! reader panic.
//!
//! # Why positioned reads, not a memory map
//! Versions before format 5 mapped each bundle. A mapped file that is truncated or rewritten in place underneath
//! the reader (`cp` over an existing set, `rsync --inplace`, an editor saving in place) turns the next access to a
//! vanished page into SIGBUS, which kills the whole server (36 of 40 such trials did). Catching SIGBUS needs a
//! process-wide signal handler and `siglongjmp` around every access, which Rust cannot do soundly. With `pread`
//! the same event is an ordinary short read (→ [`BundleError::Truncated`]) or different bytes (→ a checksum
//! mismatch): an error for that one call, never a signal. The cost is one system call and one copy of the
//! compressed frame per read (frames are a few KiB; the lookup bench moved by less than its noise), and the index
//! is decoded once per open, as before.
//!
//! Hazards that remain, by design: a file replaced by rename keeps serving the old inode through the open
//! descriptor (consistent, and the set's manifest pins which files belong together); a file rewritten in place
//! can pass every check only if it is rewritten with identical bytes. The reader checks each bundle's identity,
//! size and header checksum against the manifest on open (`read::BundleSet::bundle`).

use std::fs::File;
use std::os::unix::fs::FileExt;
use std::path::Path;

use serde::de::DeserializeOwned;
use xxhash_rust::xxh3::xxh3_64;

use super::format::{
    BundleError, FORMAT_VERSION, FrameEntry, HEADER_LEN, Identity, Index, MAGIC, MAX_FRAME_BYTES, MAX_INDEX_BYTES,
    OLDEST_SUPPORTED, offset,
};

/// An open bundle: the open file, its size and header checksum when opened, and its decoded index.
pub struct Bundle {
    path: String,
    file: File,
    len: u64,
    header_xxh3: u64,
    identity: Identity,
    index: Vec<FrameEntry>,
}

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(a)
}

/// Reads `len` bytes at `at`: a short read (the file shrank) is `Truncated`, never a panic or a signal.
fn read_at(path: &str, file: &File, at: u64, len: u64, what: &str) -> Result<Vec<u8>, BundleError> {
    let truncated = || BundleError::Truncated { path: path.to_string(), what: format!("{what} at {at}+{len}") };
    let n = usize::try_from(len).map_err(|_| truncated())?;
    let mut buf = vec![0u8; n];
    match file.read_exact_at(&mut buf, at) {
        Ok(()) => Ok(buf),
        Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => Err(truncated()),
        Err(error) => Err(BundleError::Io { path: path.to_string(), error }),
    }
}

impl Bundle {
    /// Opens `path` and validates, in order: size, magic, version, header checksum, flags and reserved bytes,
    /// index bounds, index checksum, index size, index contents (every frame inside the file, keys sorted).
    ///
    /// # Errors
    /// [`BundleError::Io`], `NotABundle`, `UnsupportedVersion`, `Truncated`, `ChecksumMismatch`, `NewerWriter` or
    /// `Corrupt`.
    pub fn open(path: &Path) -> Result<Bundle, BundleError> {
        let name = path.display().to_string();
        let io = |error| BundleError::Io { path: name.clone(), error };
        let file = File::open(path).map_err(io)?;
        let len = file.metadata().map_err(io)?.len();
        let head = read_at(&name, &file, 0, len.min(HEADER_LEN as u64), "header")?;
        let (index_at, index_len, index_raw, header_xxh3) = parse_header(&name, &head, len)?;
        let raw = read_at(&name, &file, index_at, index_len, "index")?;
        let Index { identity, frames } = parse_index(&name, &head, &raw, index_at, index_raw)?;
        Ok(Bundle { path: name, file, len, header_xxh3, identity, index: frames })
    }

    /// The bundle's path as given to `open`.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// Who the bundle says it is (from its index).
    pub fn identity(&self) -> &Identity {
        &self.identity
    }

    /// Size of the file in bytes when it was opened.
    pub fn file_len(&self) -> u64 {
        self.len
    }

    /// The header checksum (xxh3-64 of header bytes 0..48): a fingerprint of the whole file, since it covers the
    /// index checksum, which covers every frame's checksum.
    pub fn header_xxh3(&self) -> u64 {
        self.header_xxh3
    }

    /// Frame keys, sorted.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.index.iter().map(|e| e.key.as_str())
    }

    /// Whether a frame exists.
    pub fn has(&self, key: &str) -> bool {
        self.entry(key).is_some()
    }

    /// Where frame `key`'s compressed bytes are in the file (byte offsets), if it exists: for tools and tests that
    /// look at or damage one frame.
    pub fn frame_range(&self, key: &str) -> Option<std::ops::Range<u64>> {
        self.entry(key).map(|e| e.offset..e.offset + e.len)
    }

    fn entry(&self, key: &str) -> Option<&FrameEntry> {
        self.index.binary_search_by(|e| e.key.as_str().cmp(key)).ok().map(|i| &self.index[i])
    }

    /// Reads, decompresses and decodes frame `key`.
    ///
    /// # Errors
    /// `MissingFrame`; `ChecksumMismatch`/`Corrupt` when the frame is damaged; `Truncated` when the file shrank
    /// since it was opened.
    pub fn get<T: DeserializeOwned>(&self, key: &str) -> Result<T, BundleError> {
        let entry = self
            .entry(key)
            .ok_or_else(|| BundleError::MissingFrame { path: self.path.clone(), key: key.to_string() })?;
        let bytes = self.frame(entry)?;
        rmp_serde::from_slice(&bytes)
            .map_err(|err| BundleError::Corrupt { path: self.path.clone(), what: format!("frame `{key}` ({err})") })
    }

    fn frame(&self, entry: &FrameEntry) -> Result<Vec<u8>, BundleError> {
        let raw = read_at(&self.path, &self.file, entry.offset, entry.len, &format!("frame `{}`", entry.key))?;
        check_xxh3(&self.path, &raw, entry.xxh3, &format!("frame `{}`", entry.key))?;
        decompress_capped(&self.path, &raw, entry.raw_len, &format!("frame `{}`", entry.key))
    }

    /// The decompressed MessagePack bytes of frame `key` (for the fuzz tests, which re-seal mutated frames).
    #[cfg(test)]
    pub(crate) fn raw_frame(&self, key: &str) -> Result<Vec<u8>, BundleError> {
        let entry = self
            .entry(key)
            .ok_or_else(|| BundleError::MissingFrame { path: self.path.clone(), key: key.to_string() })?;
        self.frame(entry)
    }

    /// Reads and decompresses every frame, checking each checksum and size (the full check of `verify`).
    ///
    /// # Errors
    /// The first damaged frame.
    pub fn check_all(&self) -> Result<usize, BundleError> {
        for entry in &self.index {
            self.frame(entry)?;
        }
        Ok(self.index.len())
    }
}

/// Checks the fixed header of a file of `len` bytes; returns the index's offset, compressed and raw lengths, and
/// the header checksum.
fn parse_header(path: &str, b: &[u8], len: u64) -> Result<(u64, u64, u64, u64), BundleError> {
    let p = || path.to_string();
    if b.len() < MAGIC.len() || b[..MAGIC.len()] != MAGIC {
        return Err(BundleError::NotABundle { path: p() });
    }
    if b.len() < HEADER_LEN {
        return Err(BundleError::Truncated { path: p(), what: format!("{} of {HEADER_LEN} header bytes", b.len()) });
    }
    let version = u16_at(b, offset::VERSION);
    if !(OLDEST_SUPPORTED..=FORMAT_VERSION).contains(&version) {
        return Err(BundleError::UnsupportedVersion { path: p(), found: version });
    }
    let header_xxh3 = u64_at(b, offset::HEADER_XXH3);
    if xxh3_64(&b[..offset::HEADER_XXH3]) != header_xxh3 {
        return Err(BundleError::ChecksumMismatch { path: p(), what: "header".into() });
    }
    let flags = u16_at(b, offset::FLAGS);
    if flags != 0 {
        return Err(BundleError::NewerWriter { path: p(), what: format!("flags {flags:#06x}") });
    }
    let reserved = u32_at(b, offset::RESERVED);
    if reserved != 0 {
        return Err(BundleError::NewerWriter { path: p(), what: format!("reserved field {reserved:#010x}") });
    }
    let (at, n, raw) =
        (u64_at(b, offset::INDEX_OFFSET), u64_at(b, offset::INDEX_LEN), u64_at(b, offset::INDEX_RAW_LEN));
    if at < HEADER_LEN as u64 || at.checked_add(n).is_none_or(|end| end > len) {
        return Err(BundleError::Truncated { path: p(), what: format!("index at {at}+{n} beyond {len} bytes") });
    }
    if raw > MAX_INDEX_BYTES {
        return Err(BundleError::Corrupt {
            path: p(),
            what: format!("index size {raw} bytes (the limit is {MAX_INDEX_BYTES})"),
        });
    }
    Ok((at, n, raw, header_xxh3))
}

/// Checks and decodes the index bytes `raw` (compressed), which start at `index_at`.
fn parse_index(path: &str, head: &[u8], raw: &[u8], index_at: u64, raw_len: u64) -> Result<Index, BundleError> {
    let p = || path.to_string();
    check_xxh3(path, raw, u64_at(head, offset::INDEX_XXH3), "index")?;
    let bytes = decompress_capped(path, raw, raw_len, "index")?;
    let index: Index =
        rmp_serde::from_slice(&bytes).map_err(|e| BundleError::Corrupt { path: p(), what: format!("index ({e})") })?;
    for e in &index.frames {
        let end = e.offset.checked_add(e.len);
        if e.offset < HEADER_LEN as u64 || end.is_none_or(|end| end > index_at) || e.raw_len > MAX_FRAME_BYTES {
            return Err(BundleError::Corrupt { path: p(), what: format!("index entry `{}`", e.key) });
        }
    }
    if index.frames.windows(2).any(|w| w[0].key >= w[1].key) {
        return Err(BundleError::Corrupt { path: p(), what: "index order".into() });
    }
    Ok(index)
}

fn check_xxh3(path: &str, bytes: &[u8], want: u64, what: &str) -> Result<(), BundleError> {
    if xxh3_64(bytes) != want {
        return Err(BundleError::ChecksumMismatch { path: path.to_string(), what: what.to_string() });
    }
    Ok(())
}

thread_local! {
    /// One zstd decompression context per thread, reused: creating one costs more than decoding a small frame.
    static DECOMPRESSOR: std::cell::RefCell<Option<zstd::bulk::Decompressor<'static>>> =
        const { std::cell::RefCell::new(None) };
}

/// Decompresses one zstd frame that must hold exactly `raw_len` bytes. The size written in the zstd frame header
/// is compared with `raw_len` before anything is allocated, and decompression stops at `raw_len`: a small file
/// can never make the reader allocate more than its index claims (itself capped).
fn decompress_capped(path: &str, raw: &[u8], raw_len: u64, what: &str) -> Result<Vec<u8>, BundleError> {
    let corrupt = |why: String| BundleError::Corrupt { path: path.to_string(), what: format!("{what} ({why})") };
    match zstd::zstd_safe::get_frame_content_size(raw) {
        Ok(Some(n)) if n == raw_len => {}
        Ok(Some(n)) => return Err(corrupt(format!("{n} bytes, the index says {raw_len}"))),
        _ => return Err(corrupt("no zstd frame size".into())),
    }
    let capacity = usize::try_from(raw_len).map_err(|_| corrupt(format!("{raw_len} bytes")))?;
    let bytes = DECOMPRESSOR
        .with(|cell| {
            let mut slot = cell.borrow_mut();
            let d = match slot.as_mut() {
                Some(d) => d,
                None => slot.insert(zstd::bulk::Decompressor::new()?),
            };
            d.decompress(raw, capacity)
        })
        .map_err(|e| corrupt(e.to_string()))?;
    if bytes.len() != capacity {
        return Err(corrupt(format!("{} bytes, the index says {raw_len}", bytes.len())));
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bundle::writer::BundleWriter;

    fn sample() -> Vec<u8> {
        let mut w = BundleWriter::new();
        w.add("b", &"second".to_string()).unwrap();
        w.add("a", &vec![1u32, 2, 3]).unwrap();
        w.into_bytes().unwrap()
    }

    fn open_bytes(bytes: &[u8]) -> Result<Bundle, BundleError> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.bundle");
        std::fs::write(&path, bytes).unwrap();
        Bundle::open(&path)
    }

    #[test]
    fn round_trips_frames_in_any_insertion_order() {
        let b = open_bytes(&sample()).unwrap();
        assert_eq!(b.keys().collect::<Vec<_>>(), ["a", "b"]);
        assert_eq!(b.get::<Vec<u32>>("a").unwrap(), [1, 2, 3]);
        assert_eq!(b.get::<String>("b").unwrap(), "second");
        assert!(matches!(b.get::<String>("c"), Err(BundleError::MissingFrame { .. })));
        assert_eq!(b.check_all().unwrap(), 2);
    }

    #[test]
    fn same_frames_give_identical_bytes() {
        let mut w = BundleWriter::new();
        w.add("a", &vec![1u32, 2, 3]).unwrap();
        w.add("b", &"second".to_string()).unwrap();
        assert_eq!(w.into_bytes().unwrap(), sample());
    }

    #[test]
    fn rejects_bad_magic_version_and_truncation() {
        let good = sample();
        assert!(matches!(open_bytes(b"hello"), Err(BundleError::NotABundle { .. })));
        assert!(matches!(open_bytes(&good[..20]), Err(BundleError::Truncated { .. })));
        let mut v = good.clone();
        v[offset::VERSION] = 9;
        let err = open_bytes(&v).err().unwrap();
        assert!(matches!(err, BundleError::UnsupportedVersion { found: 9, .. }), "{err}");
        assert!(err.to_string().contains("rebuild"));
        let cut = &good[..good.len() - 3];
        assert!(matches!(open_bytes(cut), Err(BundleError::Truncated { .. })));
    }

    #[test]
    fn every_flipped_byte_is_an_error_or_still_a_correct_answer() {
        let good = sample();
        for i in 0..good.len() {
            let mut bad = good.clone();
            bad[i] ^= 0x5a;
            // Opening or reading must fail cleanly; a flip in an unused header byte may still read correctly.
            if let Ok(b) = open_bytes(&bad) {
                if let Ok(v) = b.get::<Vec<u32>>("a") {
                    assert_eq!(v, [1, 2, 3], "byte {i}");
                }
                if let Ok(v) = b.get::<String>("b") {
                    assert_eq!(v, "second", "byte {i}");
                }
            }
        }
    }

    /// `bytes` with header field `at` set to `value` (of `width` bytes) and the header checksum recomputed, as a
    /// hand-made bundle would have.
    fn patched(at: usize, width: usize, value: u64) -> Vec<u8> {
        let mut b = sample();
        b[at..at + width].copy_from_slice(&value.to_le_bytes()[..width]);
        let sum = xxh3_64(&b[..offset::HEADER_XXH3]);
        b[offset::HEADER_XXH3..HEADER_LEN].copy_from_slice(&sum.to_le_bytes());
        b
    }

    #[test]
    fn flags_and_reserved_bytes_must_be_zero() {
        let err = open_bytes(&patched(offset::FLAGS, 2, 1)).err().unwrap();
        assert_eq!(
            err.to_string().split_once(": ").unwrap().1,
            "header flags 0x0001 is set, so it was written by a newer mydesign-docs; upgrade mydesign-docs or rebuild with this version"
        );
        let err = open_bytes(&patched(offset::RESERVED, 4, 0x100)).err().unwrap();
        assert!(err.to_string().contains("header reserved field 0x00000100 is set"), "{err}");
    }

    #[test]
    fn index_sizes_are_capped_and_checked_before_allocating() {
        let err = open_bytes(&patched(offset::INDEX_RAW_LEN, 8, MAX_INDEX_BYTES + 1)).err().unwrap();
        assert!(err.to_string().contains("corrupt index size 67108865 bytes (the limit is 67108864)"), "{err}");
        // A claimed size below the limit but not the zstd frame's own: refused before decompressing.
        let good = sample();
        let real = u64_at(&good, offset::INDEX_RAW_LEN);
        let err = open_bytes(&patched(offset::INDEX_RAW_LEN, 8, real * 1000)).err().unwrap();
        assert!(err.to_string().contains(&format!("index ({real} bytes, the index says {})", real * 1000)), "{err}");
    }

    #[test]
    fn a_file_truncated_after_open_is_an_error_not_a_signal() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.bundle");
        std::fs::write(&path, sample()).unwrap();
        let b = Bundle::open(&path).unwrap();
        std::fs::OpenOptions::new().write(true).open(&path).unwrap().set_len(HEADER_LEN as u64 + 2).unwrap();
        let err = b.get::<String>("b").unwrap_err();
        assert!(matches!(err, BundleError::Truncated { .. }), "{err}");
        // Rewritten in place with other bytes of the same length: a checksum mismatch.
        let mut other = sample();
        let at = HEADER_LEN + 1;
        other[at] ^= 0xff;
        std::fs::write(&path, &other).unwrap();
        assert!(b.get::<Vec<u32>>("a").is_err());
    }

    #[test]
    fn flipped_frame_byte_is_a_checksum_mismatch() {
        let mut bad = sample();
        bad[HEADER_LEN + 1] ^= 1;
        let b = open_bytes(&bad).unwrap();
        let err = b.get::<Vec<u32>>("a").unwrap_err();
        assert!(matches!(err, BundleError::ChecksumMismatch { .. }), "{err}");
        assert!(err.to_string().contains("frame `a`"));
    }
}
