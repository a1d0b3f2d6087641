//! Opens a bundle file by memory map and decodes single frames. Opening checks the header and the index; each
//! frame read checks that frame's checksum. No offset is used before it has been bounds-checked, and no byte
//! pattern can make the reader panic.

use std::path::Path;

use memmap2::Mmap;
use serde::de::DeserializeOwned;
use xxhash_rust::xxh3::xxh3_64;

use super::format::{
    BundleError, FORMAT_VERSION, FrameEntry, HEADER_LEN, MAGIC, MAX_FRAME_BYTES, OLDEST_SUPPORTED, offset,
};

/// An open bundle: the mapped file and its decoded index (sorted by key).
pub struct Bundle {
    path: String,
    map: Mmap,
    index: Vec<FrameEntry>,
}

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(a)
}

impl Bundle {
    /// Maps `path` and validates, in order: size, magic, version, header checksum, index bounds, index checksum,
    /// index contents (every frame inside the file, keys sorted).
    ///
    /// # Errors
    /// [`BundleError::Io`], `NotABundle`, `UnsupportedVersion`, `Truncated`, `ChecksumMismatch` or `Corrupt`.
    pub fn open(path: &Path) -> Result<Bundle, BundleError> {
        let name = path.display().to_string();
        let io = |error| BundleError::Io { path: name.clone(), error };
        let file = std::fs::File::open(path).map_err(io)?;
        // SAFETY: bundles are written once and renamed into place, never modified in place; a file replaced while
        // mapped keeps its old inode. Every read below is bounds-checked and checksummed.
        let map = unsafe { Mmap::map(&file) }.map_err(io)?;
        let index = parse_header_and_index(&name, &map)?;
        Ok(Bundle { path: name, map, index })
    }

    /// The bundle's path as given to `open`.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// Frame keys, sorted.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.index.iter().map(|e| e.key.as_str())
    }

    /// Whether a frame exists.
    pub fn has(&self, key: &str) -> bool {
        self.entry(key).is_some()
    }

    fn entry(&self, key: &str) -> Option<&FrameEntry> {
        self.index.binary_search_by(|e| e.key.as_str().cmp(key)).ok().map(|i| &self.index[i])
    }

    /// Decompresses and decodes frame `key`.
    ///
    /// # Errors
    /// `MissingFrame`, or `ChecksumMismatch`/`Corrupt` when the frame is damaged.
    pub fn get<T: DeserializeOwned>(&self, key: &str) -> Result<T, BundleError> {
        let entry = self
            .entry(key)
            .ok_or_else(|| BundleError::MissingFrame { path: self.path.clone(), key: key.to_string() })?;
        decode_frame(&self.path, &self.map, entry, key)
    }

    /// Recomputes every frame checksum and decompresses every frame (the full check of `verify`).
    ///
    /// # Errors
    /// The first damaged frame.
    pub fn check_all(&self) -> Result<usize, BundleError> {
        for entry in &self.index {
            let raw = frame_bytes(&self.path, &self.map, entry)?;
            zstd::bulk::decompress(raw, entry.raw_len as usize).map_err(|e| BundleError::Corrupt {
                path: self.path.clone(),
                what: format!("frame `{}` ({e})", entry.key),
            })?;
        }
        Ok(self.index.len())
    }
}

fn parse_header_and_index(path: &str, b: &[u8]) -> Result<Vec<FrameEntry>, BundleError> {
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
    if xxh3_64(&b[..offset::HEADER_XXH3]) != u64_at(b, offset::HEADER_XXH3) {
        return Err(BundleError::ChecksumMismatch { path: p(), what: "header".into() });
    }
    let entry = FrameEntry {
        key: "(index)".into(),
        offset: u64_at(b, offset::INDEX_OFFSET),
        len: u64_at(b, offset::INDEX_LEN),
        raw_len: MAX_FRAME_BYTES,
        xxh3: u64_at(b, offset::INDEX_XXH3),
    };
    let raw = frame_bytes(path, b, &entry)?;
    let index_bytes =
        zstd::stream::decode_all(raw).map_err(|e| BundleError::Corrupt { path: p(), what: format!("index ({e})") })?;
    let index: Vec<FrameEntry> = rmp_serde::from_slice(&index_bytes)
        .map_err(|e| BundleError::Corrupt { path: p(), what: format!("index ({e})") })?;
    let index_start = entry.offset;
    for e in &index {
        let end = e.offset.checked_add(e.len);
        if e.offset < HEADER_LEN as u64 || end.is_none_or(|end| end > index_start) || e.raw_len > MAX_FRAME_BYTES {
            return Err(BundleError::Corrupt { path: p(), what: format!("index entry `{}`", e.key) });
        }
    }
    if index.windows(2).any(|w| w[0].key >= w[1].key) {
        return Err(BundleError::Corrupt { path: p(), what: "index order".into() });
    }
    Ok(index)
}

fn frame_bytes<'a>(path: &str, b: &'a [u8], e: &FrameEntry) -> Result<&'a [u8], BundleError> {
    let range = usize::try_from(e.offset)
        .ok()
        .zip(usize::try_from(e.len).ok())
        .and_then(|(start, len)| Some(start..start.checked_add(len)?));
    let bytes = range.and_then(|r| b.get(r)).ok_or_else(|| BundleError::Truncated {
        path: path.to_string(),
        what: format!("frame `{}` at {}+{} beyond {} bytes", e.key, e.offset, e.len, b.len()),
    })?;
    if xxh3_64(bytes) != e.xxh3 {
        return Err(BundleError::ChecksumMismatch { path: path.to_string(), what: format!("frame `{}`", e.key) });
    }
    Ok(bytes)
}

thread_local! {
    /// One zstd decompression context per thread, reused: creating one costs more than decoding a small frame.
    static DECOMPRESSOR: std::cell::RefCell<Option<zstd::bulk::Decompressor<'static>>> =
        const { std::cell::RefCell::new(None) };
}

/// Decompresses one frame of at most `capacity` bytes with this thread's context.
fn decompress(raw: &[u8], capacity: usize) -> std::io::Result<Vec<u8>> {
    DECOMPRESSOR.with(|cell| {
        let mut slot = cell.borrow_mut();
        let d = match slot.as_mut() {
            Some(d) => d,
            None => slot.insert(zstd::bulk::Decompressor::new()?),
        };
        d.decompress(raw, capacity)
    })
}

fn decode_frame<T: DeserializeOwned>(path: &str, b: &[u8], e: &FrameEntry, key: &str) -> Result<T, BundleError> {
    let raw = frame_bytes(path, b, e)?;
    let corrupt =
        |what: String| BundleError::Corrupt { path: path.to_string(), what: format!("frame `{key}` ({what})") };
    let bytes = decompress(raw, e.raw_len as usize).map_err(|err| corrupt(err.to_string()))?;
    if bytes.len() as u64 != e.raw_len {
        return Err(corrupt(format!("{} bytes, index says {}", bytes.len(), e.raw_len)));
    }
    rmp_serde::from_slice(&bytes).map_err(|err| corrupt(err.to_string()))
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
