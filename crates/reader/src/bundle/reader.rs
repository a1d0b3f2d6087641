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

use super::decompress::{decompress_capped, decompress_prefix};
use super::format::{
    BundleError, FORMAT_VERSION, FrameEntry, HEADER_LEN, Identity, Index, Lead, MAGIC, MAX_FRAME_BYTES,
    MAX_INDEX_BYTES, OLDEST_SUPPORTED, ZSTD_DICT_MAGIC, offset,
};
use super::keyed::{index_map, str_header, str_prefix};
use crate::model::{FileOwner, Manifest, keys};

/// An open bundle: the open file, its size and header checksum when opened, and its decoded index.
pub struct Bundle {
    path: String,
    file: File,
    len: u64,
    /// Where the index ends: the writer puts nothing after it.
    index_end: u64,
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
        let index_end = index_at + index_len;
        Ok(Bundle { path: name, file, len, index_end, header_xxh3, identity, index: frames })
    }

    /// Checks that the index ends the file, as the writer leaves it: bytes appended to a bundle whose size nothing
    /// pins (`manifest.bundle`; a component's size is pinned by the manifest, which names both sizes) would
    /// otherwise pass every check.
    ///
    /// # Errors
    /// [`BundleError::Corrupt`] naming the number of bytes after the index.
    pub fn check_ends_at_index(&self) -> Result<(), BundleError> {
        match self.len - self.index_end {
            0 => Ok(()),
            extra => Err(BundleError::Corrupt {
                path: self.path.clone(),
                what: format!("{extra} bytes after the index, which ends a bundle"),
            }),
        }
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

    /// The key of the frame whose bytes are frame `key`'s zstd dictionary ([`FrameEntry::dict`], format 8), when
    /// `key` exists and has one: for tools and tests that look at how a bundle is stored.
    pub fn frame_dictionary(&self, key: &str) -> Option<&str> {
        self.entry(key).and_then(|e| e.dict.as_deref())
    }

    /// The last frame key that starts with `prefix` and is not after `key` (byte order, as the index is sorted):
    /// the frame of a sorted list split into frames keyed by their first item that would hold `key`.
    pub fn floor_key(&self, prefix: &str, key: &str) -> Option<&str> {
        let at = self.index.partition_point(|e| e.key.as_str() <= key);
        at.checked_sub(1).map(|i| self.index[i].key.as_str()).filter(|k| k.starts_with(prefix))
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

    /// Reads and decompresses text frame `key` (a MessagePack string): the same answer as `get::<String>`, but the
    /// string is the decompressed buffer itself, its header dropped in place, instead of a copy (a document of
    /// 230 KB was copied once more, into fresh pages, on every `doc` lookup). Anything but one plain string
    /// filling the frame goes through `get`, so errors are the same.
    ///
    /// # Errors
    /// As [`Bundle::get`].
    pub fn get_text(&self, key: &str) -> Result<String, BundleError> {
        let entry = self
            .entry(key)
            .ok_or_else(|| BundleError::MissingFrame { path: self.path.clone(), key: key.to_string() })?;
        let mut bytes = self.frame(entry)?;
        if let Some(lead) = &entry.lead {
            return self.spliced(entry, lead, bytes);
        }
        if let Some(header) = str_header(&bytes) {
            bytes.drain(..header);
            // simdutf8 checks the whole buffer at SIMD speed (std's check was a tenth of a `doc table` process on
            // a 230 KB document); only a valid buffer becomes a `String`.
            if simdutf8::basic::from_utf8(&bytes).is_ok() {
                // SAFETY: `bytes` was just checked to be valid UTF-8.
                return Ok(unsafe { String::from_utf8_unchecked(bytes) });
            }
        }
        self.get(key)
    }

    /// How text frame `key` is spliced from its lead and rest, when it is stored with a lead ([`Lead`], format 9).
    pub fn frame_lead(&self, key: &str) -> Option<&Lead> {
        self.entry(key).and_then(|e| e.lead.as_ref())
    }

    /// The lead of text frame `key` ([`Lead`], format 9) — a document's placeholder view — decoded alone: only the
    /// zstd blocks that hold it are decompressed (the whole frame is still read and its checksum checked).
    /// `Ok(None)` when the frame has no lead.
    ///
    /// # Errors
    /// As [`Bundle::get`]; `Corrupt` when the lead is not a string's first bytes in UTF-8.
    pub fn get_lead(&self, key: &str) -> Result<Option<String>, BundleError> {
        let entry = self
            .entry(key)
            .ok_or_else(|| BundleError::MissingFrame { path: self.path.clone(), key: key.to_string() })?;
        let Some(lead) = &entry.lead else { return Ok(None) };
        let what = format!("frame `{}`", entry.key);
        let corrupt = |why: &str| BundleError::Corrupt { path: self.path.clone(), what: format!("{what} ({why})") };
        let raw = read_at(&self.path, &self.file, entry.offset, entry.len, &what)?;
        check_xxh3(&self.path, &raw, entry.xxh3, &what)?;
        let dict = match &entry.dict {
            None => None,
            Some(dict_key) => Some(self.dictionary(&what, dict_key)?),
        };
        // The string's header is 1, 2, 3 or 5 bytes; 5 more decoded bytes always hold it.
        let head = 5usize.saturating_add(lead.bytes as usize);
        let mut bytes = decompress_prefix(&self.path, &raw, entry.raw_len, &what, dict.as_deref(), head)?;
        let header = str_prefix(&bytes).ok_or_else(|| corrupt("not a string"))?;
        let end = header + lead.bytes as usize;
        if bytes.len() < end {
            return Err(corrupt("a lead longer than its text"));
        }
        bytes.truncate(end);
        bytes.drain(..header);
        match simdutf8::basic::from_utf8(&bytes) {
            // SAFETY: `bytes` was just checked to be valid UTF-8.
            Ok(_) => Ok(Some(unsafe { String::from_utf8_unchecked(bytes) })),
            Err(_) => Err(corrupt("a lead that is not UTF-8")),
        }
    }

    /// The text of a frame stored with `lead`, from its decompressed bytes `raw` (a string `lead ++ rest`): the
    /// lead with its spans replaced by the rest's pieces, spliced in place over `raw` (only the lead is copied
    /// aside: a piece of the rest is moved down to where the text has reached, which is never past where the
    /// rest's unread pieces start). Every span is checked before it is used.
    fn spliced(&self, entry: &FrameEntry, lead: &Lead, mut raw: Vec<u8>) -> Result<String, BundleError> {
        let corrupt = |why: &str| BundleError::Corrupt {
            path: self.path.clone(),
            what: format!("frame `{}` ({why})", entry.key),
        };
        let header = str_header(&raw).ok_or_else(|| corrupt("not a string"))?;
        let lead_len = lead.bytes as usize;
        let rest_at = header.checked_add(lead_len).filter(|&at| at <= raw.len()).ok_or_else(|| corrupt("lead size"))?;
        if !lead.spans.len().is_multiple_of(3) {
            return Err(corrupt("lead spans"));
        }
        let rest_len = raw.len() - rest_at;
        let head = raw[header..rest_at].to_vec();
        // Written: `raw[..w]`; copied: the lead up to `copied`; taken: the rest up to `taken`.
        let (mut w, mut copied, mut taken) = (0usize, 0usize, 0usize);
        for (start, end, n) in lead.spans() {
            let (start, end, n) = (start as usize, end as usize, n as usize);
            if !(copied <= start && start <= end && end <= lead_len) || n > rest_len - taken {
                return Err(corrupt("lead spans"));
            }
            raw[w..w + start - copied].copy_from_slice(&head[copied..start]);
            w += start - copied;
            raw.copy_within(rest_at + taken..rest_at + taken + n, w);
            (w, copied, taken) = (w + n, end, taken + n);
        }
        if taken != rest_len {
            return Err(corrupt("lead spans"));
        }
        raw[w..w + lead_len - copied].copy_from_slice(&head[copied..]);
        raw.truncate(w + lead_len - copied);
        match simdutf8::basic::from_utf8(&raw) {
            // SAFETY: `raw` was just checked to be valid UTF-8.
            Ok(_) => Ok(unsafe { String::from_utf8_unchecked(raw) }),
            Err(_) => Err(corrupt("a text that is not UTF-8")),
        }
    }

    /// Reads, decompresses and decodes frame `key`, a MessagePack map from string keys to values, and indexes its keys
    /// without decoding the values: [`KeyedFrame::get`] then decodes one value. A lookup that needs one text's
    /// token map out of a bundle's thousands no longer decodes them all (0.9 M of the 7.3 M instructions of a
    /// whole `doc table` process on Semi).
    ///
    /// # Errors
    /// As [`Bundle::get`]; `Corrupt` when the frame is not such a map.
    pub fn get_keyed(&self, key: &str) -> Result<KeyedFrame, BundleError> {
        let entry = self
            .entry(key)
            .ok_or_else(|| BundleError::MissingFrame { path: self.path.clone(), key: key.to_string() })?;
        let bytes = self.frame(entry)?;
        let keys = index_map(&bytes).ok_or_else(|| BundleError::Corrupt {
            path: self.path.clone(),
            what: format!("frame `{key}` (not a map of string keys)"),
        })?;
        Ok(KeyedFrame { path: self.path.clone(), frame: key.to_string(), bytes, keys })
    }

    /// Reads, checks and decompresses one frame; a frame with a dictionary (format 8) reads its dictionary frame
    /// first, which must exist and have none itself.
    fn frame(&self, entry: &FrameEntry) -> Result<Vec<u8>, BundleError> {
        let what = format!("frame `{}`", entry.key);
        let raw = read_at(&self.path, &self.file, entry.offset, entry.len, &what)?;
        check_xxh3(&self.path, &raw, entry.xxh3, &what)?;
        let Some(dict_key) = &entry.dict else {
            return decompress_capped(&self.path, &raw, entry.raw_len, &what, None);
        };
        let dict = self.dictionary(&what, dict_key)?;
        decompress_capped(&self.path, &raw, entry.raw_len, &what, Some(&dict))
    }

    /// The decompressed bytes of frame `dict_key`, the dictionary of `what`: it must exist, have no dictionary
    /// itself and not start with zstd's dictionary magic.
    fn dictionary(&self, what: &str, dict_key: &str) -> Result<Vec<u8>, BundleError> {
        let corrupt = |why: &str| BundleError::Corrupt { path: self.path.clone(), what: format!("{what} ({why})") };
        let dict_entry = self
            .entry(dict_key)
            .ok_or_else(|| corrupt(&format!("its dictionary `{dict_key}` is not a frame of the bundle")))?;
        if dict_entry.dict.is_some() {
            return Err(corrupt(&format!("its dictionary `{dict_key}` has a dictionary itself")));
        }
        let dict = self.frame(dict_entry)?;
        if dict.starts_with(&ZSTD_DICT_MAGIC) {
            return Err(corrupt(&format!("its dictionary `{dict_key}` starts with zstd's dictionary magic")));
        }
        Ok(dict)
    }

    /// The decompressed MessagePack bytes of frame `key` (for the fuzz tests, which re-seal mutated frames).
    #[cfg(test)]
    pub(crate) fn raw_frame(&self, key: &str) -> Result<Vec<u8>, BundleError> {
        let entry = self
            .entry(key)
            .ok_or_else(|| BundleError::MissingFrame { path: self.path.clone(), key: key.to_string() })?;
        self.frame(entry)
    }

    /// Reads and decompresses every frame, checking each checksum and size, and that each text stored with a lead
    /// splices back (the full check of `verify`).
    ///
    /// # Errors
    /// The first damaged frame.
    pub fn check_all(&self) -> Result<usize, BundleError> {
        for entry in &self.index {
            let bytes = self.frame(entry)?;
            // A text stored with a lead must splice back (format 9).
            if let Some(lead) = &entry.lead {
                self.spliced(entry, lead, bytes)?;
            }
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
    let bytes = decompress_capped(path, raw, raw_len, "index", None)?;
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

pub use super::keyed::KeyedFrame;

/// The whole [`Manifest`] of `manifest.bundle` `b`: its `manifest` frame with [`Manifest::files`] joined from the
/// `files/` frames ([`keys::FILES`], format 10) in key order.
///
/// # Errors
/// As [`Bundle::get`]; `Corrupt` when a `files/` frame is empty or not keyed by its first path, or the paths are not
/// strictly ascending.
pub fn read_manifest(b: &Bundle) -> Result<Manifest, BundleError> {
    let mut manifest: Manifest = b.get(keys::MANIFEST)?;
    for key in b.keys().filter(|k| k.starts_with(keys::FILES)) {
        let chunk: Vec<FileOwner> = b.get(key)?;
        let first = chunk.first().map(|f| keys::files(&f.path));
        let ascending = chunk.windows(2).all(|w| w[0].path < w[1].path)
            && manifest.files.last().zip(chunk.first()).is_none_or(|(a, b)| a.path < b.path);
        if first.as_deref() != Some(key) || !ascending {
            let what = format!("frame `{key}` (file owners not keyed by their first path, or out of order)");
            return Err(BundleError::Corrupt { path: b.path().to_string(), what });
        }
        manifest.files.extend(chunk);
    }
    Ok(manifest)
}

fn check_xxh3(path: &str, bytes: &[u8], want: u64, what: &str) -> Result<(), BundleError> {
    if xxh3_64(bytes) != want {
        return Err(BundleError::ChecksumMismatch { path: path.to_string(), what: what.to_string() });
    }
    Ok(())
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
    fn text_frames_decode_in_place_as_get_does() {
        // Each MessagePack string width: fixstr (< 32 bytes), str8, str16, str32; and non-ASCII text.
        let texts = ["", "second", &"é".repeat(40), &"表格".repeat(6_000), &"x".repeat(70_000)];
        let mut w = BundleWriter::new();
        for (i, t) in texts.iter().enumerate() {
            w.add(format!("t{i}"), &t.to_string()).unwrap();
        }
        w.add("n", &vec![1u32, 2, 3]).unwrap();
        let b = open_bytes(&w.into_bytes().unwrap()).unwrap();
        let headers: Vec<Option<usize>> =
            texts.iter().map(|t| str_header(&rmp_serde::to_vec(&t.to_string()).unwrap())).collect();
        assert_eq!(headers, [Some(1), Some(1), Some(2), Some(3), Some(5)]);
        for (i, t) in texts.iter().enumerate() {
            assert_eq!(b.get_text(&format!("t{i}")).unwrap(), *t);
            assert_eq!(b.get_text(&format!("t{i}")).unwrap(), b.get::<String>(&format!("t{i}")).unwrap());
        }
        // Not a string: the same error as `get::<String>`.
        assert_eq!(b.get_text("n").unwrap_err().to_string(), b.get::<String>("n").unwrap_err().to_string());
        assert!(matches!(b.get_text("missing"), Err(BundleError::MissingFrame { .. })));
        // A header announcing more or fewer bytes than the frame holds, and invalid UTF-8, are not taken in place.
        assert_eq!(str_header(&[0xa3, b'a', b'b']), None);
        assert_eq!(str_header(&[0xa1, b'a', b'b']), None);
        assert_eq!(str_header(&[0xda, 0x00]), None);
        assert_eq!(str_header(&[0xd9, 0x01, 0xff]), Some(2));
    }

    #[test]
    fn keyed_frames_decode_one_value_as_the_whole_map_does() {
        use crate::model::{TokenMap, TokenMaps};
        let mut maps = TokenMaps::new();
        // Values of every integer width, empty lists, and enough keys for a map16 header.
        for i in 0..40u32 {
            let tokens = vec![i, 200 + i, 70_000 + i, u32::MAX - i];
            maps.insert(format!("file/src/{i}.ts"), TokenMap { tokens, extra: vec![i + 1], forced: vec![] });
        }
        maps.insert("doc/zh-CN".into(), TokenMap { tokens: vec![5; 300], extra: vec![], forced: vec![9, 99] });
        let mut w = BundleWriter::new();
        w.add("tokens", &maps).unwrap();
        w.add("n", &vec![1u32, 2, 3]).unwrap();
        let b = open_bytes(&w.into_bytes().unwrap()).unwrap();
        let keyed = b.get_keyed("tokens").unwrap();
        assert_eq!(keyed.len(), 41);
        for (key, map) in &maps {
            assert_eq!(&keyed.get::<TokenMap>(key).unwrap().unwrap(), map, "{key}");
        }
        assert!(keyed.get::<TokenMap>("doc/en-US").is_none());
        // A value of another shape is an error of that key, not a panic.
        assert!(keyed.get::<String>("doc/zh-CN").unwrap().is_err());
        let err = b.get_keyed("n").err().unwrap();
        assert!(err.to_string().contains("frame `n` (not a map of string keys)"), "{err}");
        // A key written twice keeps its last value, as decoding the map does.
        let twice = [0x82, 0xa1, b'k', 0x01, 0xa1, b'k', 0x02];
        assert_eq!(rmp_serde::from_slice::<TokenMapsLike>(&twice).unwrap()["k"], 2);
        let keys = index_map(&twice).unwrap();
        assert_eq!(keys, [("k".to_string(), 6..7)]);
    }

    type TokenMapsLike = std::collections::BTreeMap<String, u32>;

    /// A text like a document and its translation: the same code, other prose.
    fn document(prose: &str) -> String {
        (0..40)
            .map(|i| {
                format!(
                    "## {prose} {i}\n\n{prose} paragraph {i}.\n\n```jsx\nimport {{ Button{i} }} from 'lib';\n\
                     function Demo{i}() {{ return <Button{i} size={{{i}}} onClick={{() => set({i})}} />; }}\n```\n"
                )
            })
            .collect()
    }

    /// `bytes` (a bundle) with its index edited by `edit`, resealed (index checksum and lengths, header checksum).
    fn with_index(bytes: &[u8], edit: impl FnOnce(&mut Index)) -> Vec<u8> {
        let at = u64_at(bytes, offset::INDEX_OFFSET) as usize;
        let len = u64_at(bytes, offset::INDEX_LEN) as usize;
        let mut index: Index =
            rmp_serde::from_slice(&zstd::bulk::decompress(&bytes[at..at + len], 1 << 20).unwrap()).unwrap();
        edit(&mut index);
        let raw = rmp_serde::to_vec(&index).unwrap();
        let packed = zstd::bulk::compress(&raw, 3).unwrap();
        let mut out = bytes[..at].to_vec();
        out.extend_from_slice(&packed);
        out[offset::INDEX_LEN..offset::INDEX_LEN + 8].copy_from_slice(&(packed.len() as u64).to_le_bytes());
        out[offset::INDEX_RAW_LEN..offset::INDEX_RAW_LEN + 8].copy_from_slice(&(raw.len() as u64).to_le_bytes());
        out[offset::INDEX_XXH3..offset::INDEX_XXH3 + 8].copy_from_slice(&xxh3_64(&packed).to_le_bytes());
        let sum = xxh3_64(&out[..offset::HEADER_XXH3]);
        out[offset::HEADER_XXH3..HEADER_LEN].copy_from_slice(&sum.to_le_bytes());
        out
    }

    fn dictionary_sample() -> (Vec<u8>, String, String) {
        use crate::bundle::writer::Frame;
        let (original, translation) = (document("原文"), document("Translated"));
        let mut w = BundleWriter::new();
        let dict = Frame::raw(original.as_str()).unwrap();
        w.push(Frame::from_raw("doc/zh-CN", &dict).unwrap());
        w.push(Frame::with_dictionary("doc/en-US", translation.as_str(), "doc/zh-CN", &dict).unwrap());
        w.add("n", &vec![1u32, 2, 3]).unwrap();
        (w.into_bytes().unwrap(), original, translation)
    }

    #[test]
    fn a_frame_with_a_dictionary_stores_what_it_shares_once() {
        use crate::bundle::writer::Frame;
        let (bytes, original, translation) = dictionary_sample();
        let b = open_bytes(&bytes).unwrap();
        assert_eq!(b.get_text("doc/en-US").unwrap(), translation);
        assert_eq!(b.get::<String>("doc/en-US").unwrap(), translation);
        assert_eq!(b.get_text("doc/zh-CN").unwrap(), original);
        assert_eq!(b.check_all().unwrap(), 3);
        assert_eq!(b.frame_dictionary("doc/en-US"), Some("doc/zh-CN"));
        assert_eq!((b.frame_dictionary("doc/zh-CN"), b.frame_dictionary("missing")), (None, None));
        // The shared code is not stored again: the translation takes under half its size alone.
        let alone = Frame::new("doc/en-US", translation.as_str()).unwrap().len() as u64;
        let range = b.frame_range("doc/en-US").unwrap();
        assert!((range.end - range.start) * 2 < alone, "{range:?} vs {alone} bytes alone");
        // The same frames give the same bytes.
        assert_eq!(dictionary_sample().0, bytes);
    }

    #[test]
    fn the_writer_refuses_a_dictionary_that_is_missing_or_has_one_itself() {
        use crate::bundle::writer::Frame;
        let dict = Frame::raw("original").unwrap();
        let mut w = BundleWriter::new();
        w.push(Frame::with_dictionary("b", "text", "a", &dict).unwrap());
        let err = w.into_bytes().unwrap_err().to_string();
        assert_eq!(err, "frame `b`: its dictionary `a` is not a frame of the bundle");
        let mut w = BundleWriter::new();
        w.push(Frame::from_raw("a", &dict).unwrap());
        w.push(Frame::with_dictionary("b", "text", "a", &dict).unwrap());
        w.push(Frame::with_dictionary("c", "text", "b", &dict).unwrap());
        let err = w.into_bytes().unwrap_err().to_string();
        assert_eq!(err, "frame `c`: its dictionary `b` has a dictionary itself");
        assert!(Frame::with_dictionary("b", "text", "a", &ZSTD_DICT_MAGIC).is_err());
    }

    #[test]
    fn a_bad_dictionary_is_an_error_of_that_frame_never_a_panic() {
        let (good, _, translation) = dictionary_sample();
        let frame_err = |bytes: &[u8]| open_bytes(bytes).unwrap().get_text("doc/en-US").unwrap_err().to_string();
        let set_dict = |dict: Option<&str>| {
            with_index(&good, |i| {
                i.frames.iter_mut().find(|e| e.key == "doc/en-US").unwrap().dict = dict.map(String::from)
            })
        };
        assert!(frame_err(&set_dict(Some("doc/fr"))).contains("its dictionary `doc/fr` is not a frame of the bundle"));
        // Another frame as dictionary, or none: zstd or the size check refuses it.
        for other in [Some("n"), None] {
            let err = frame_err(&set_dict(other));
            assert!(err.contains("frame `doc/en-US` ("), "{other:?}: {err}");
        }
        // A chain: the dictionary has a dictionary itself.
        let chained =
            with_index(&good, |i| i.frames.iter_mut().find(|e| e.key == "doc/zh-CN").unwrap().dict = Some("n".into()));
        assert!(frame_err(&chained).contains("its dictionary `doc/zh-CN` has a dictionary itself"));
        // A damaged dictionary frame: its checksum fails when the translation is read.
        let b = open_bytes(&good).unwrap();
        let at = b.frame_range("doc/zh-CN").unwrap().start as usize + 10;
        let mut damaged = good.clone();
        damaged[at] ^= 0x5a;
        let b = open_bytes(&damaged).unwrap();
        assert!(matches!(b.get_text("doc/en-US"), Err(BundleError::ChecksumMismatch { .. })));
        assert_eq!(b.get::<Vec<u32>>("n").unwrap(), [1, 2, 3]);
        assert_eq!(open_bytes(&good).unwrap().get_text("doc/en-US").unwrap(), translation);
    }

    /// `text` stored with a lead: each `(start, end, placeholder)` span of `text` replaced by its placeholder in
    /// the lead. Returns the lead, the stored string (lead, then the spans' text) and the [`Lead`].
    fn with_placeholders(text: &str, spans: &[(usize, usize, &str)]) -> (String, String, Lead) {
        let (mut lead, mut rest, mut flat, mut copied) = (String::new(), String::new(), vec![], 0);
        for &(start, end, placeholder) in spans {
            lead.push_str(&text[copied..start]);
            flat.extend([lead.len() as u32, (lead.len() + placeholder.len()) as u32, (end - start) as u32]);
            lead.push_str(placeholder);
            rest.push_str(&text[start..end]);
            copied = end;
        }
        lead.push_str(&text[copied..]);
        let lead_bytes = lead.len() as u32;
        (lead.clone(), lead + &rest, Lead { bytes: lead_bytes, spans: flat })
    }

    /// A long document (prose, then a code block, 300 times: ~470 KB, so lead and rest span several zstd blocks)
    /// and its spans: every code block hidden behind a placeholder.
    fn long_document() -> (String, Vec<(usize, usize, String)>) {
        let (mut text, mut spans) = (String::new(), vec![]);
        for i in 0..300 {
            text.push_str(&format!(
                "## 第 {i} 节 Section {i}\n\n{}\n\n",
                "Prose of the section, é ü 表格. ".repeat(4 * (i % 7 + 1))
            ));
            let start = text.len();
            text.push_str(&format!(
                "```jsx\n{}```\n",
                format!("const v{i} = <Table rows={{{i}}} />; // {}\n", i * 7919).repeat(2 * (i % 13 + 3))
            ));
            spans.push((start, text.len(), format!("```text\n[code block #{} hidden]\n```\n", i + 1)));
            text.push('\n');
        }
        (text, spans)
    }

    #[test]
    fn a_text_stored_with_a_lead_reads_whole_and_by_its_lead() {
        use crate::bundle::writer::Frame;
        let (text, spans) = long_document();
        let spans: Vec<(usize, usize, &str)> = spans.iter().map(|(a, b, p)| (*a, *b, p.as_str())).collect();
        let (lead_text, stored, lead) = with_placeholders(&text, &spans);
        assert!(lead_text.len() > 128 << 10 && stored.len() - lead_text.len() > 128 << 10, "{}", stored.len());
        let raw = Frame::raw(stored.as_str()).unwrap();
        let mut w = BundleWriter::new();
        w.push(Frame::with_lead("doc/zh-CN", &raw, lead.clone(), None).unwrap());
        // A translation (same lengths, so the same spans) stored with a lead against the original's frame as
        // dictionary.
        let translated = text.replace("Prose", "Texte");
        let t_spans: Vec<(usize, usize, &str)> =
            spans.iter().map(|&(a, b, _)| (a, b, "```text\n[hidden]\n```\n")).collect();
        let (t_lead, t_stored, t_spans) = with_placeholders(&translated, &t_spans);
        let t_raw = Frame::raw(t_stored.as_str()).unwrap();
        w.push(Frame::with_lead("doc/en-US", &t_raw, t_spans, Some(("doc/zh-CN", &raw))).unwrap());
        w.add("plain", &text).unwrap();
        let bytes = w.into_bytes().unwrap();
        let b = open_bytes(&bytes).unwrap();
        assert_eq!(b.get_text("doc/zh-CN").unwrap(), text);
        assert_eq!(b.get::<String>("doc/zh-CN").unwrap(), stored, "`get` gives what the frame holds");
        assert_eq!(b.get_lead("doc/zh-CN").unwrap().as_deref(), Some(lead_text.as_str()));
        assert_eq!(b.frame_lead("doc/zh-CN"), Some(&lead));
        assert_eq!(b.get_text("doc/en-US").unwrap(), translated);
        assert_eq!(b.get_lead("doc/en-US").unwrap().as_deref(), Some(t_lead.as_str()));
        assert_eq!((b.get_lead("plain").unwrap(), b.frame_lead("plain")), (None, None));
        assert_eq!(b.get_text("plain").unwrap(), text);
        assert_eq!(b.check_all().unwrap(), 3);
        // The lead alone decodes from fewer blocks than the whole: the prefix decoder stops where the lead ends.
        let range = b.frame_range("doc/zh-CN").unwrap();
        let compressed = &bytes[range.start as usize..range.end as usize];
        let head = decompress_prefix("x", compressed, raw.len() as u64, "f", None, 100).unwrap();
        assert_eq!(head, raw[..100]);
        // Stored with its lead, the text takes about what it takes alone (within 3 %).
        let alone = Frame::new("x", text.as_str()).unwrap().len();
        assert!((range.end - range.start) as f64 <= alone as f64 * 1.03, "{range:?} vs {alone} bytes alone");
    }

    #[test]
    fn a_damaged_lead_frame_is_an_error_never_a_panic() {
        use crate::bundle::writer::Frame;
        let (text, spans) = long_document();
        let spans: Vec<(usize, usize, &str)> = spans.iter().map(|(a, b, p)| (*a, *b, p.as_str())).collect();
        let (_, stored, lead) = with_placeholders(&text, &spans[..40]);
        let mut w = BundleWriter::new();
        w.push(Frame::with_lead("doc/zh-CN", &Frame::raw(stored.as_str()).unwrap(), lead.clone(), None).unwrap());
        let good = w.into_bytes().unwrap();
        // A flipped byte of the compressed frame: its checksum, for the whole text and the lead alike.
        let at = open_bytes(&good).unwrap().frame_range("doc/zh-CN").unwrap().start as usize + 200;
        let mut bad = good.clone();
        bad[at] ^= 0x5a;
        let b = open_bytes(&bad).unwrap();
        assert!(matches!(b.get_text("doc/zh-CN"), Err(BundleError::ChecksumMismatch { .. })));
        assert!(matches!(b.get_lead("doc/zh-CN"), Err(BundleError::ChecksumMismatch { .. })));
        // Spans that do not fit the lead or the rest, a lead longer than the text, spans not in threes, spans out
        // of order, too few or too many rest bytes: `Corrupt`, for every edit.
        let n = lead.spans.len();
        type Edit = Box<dyn Fn(&mut Lead)>;
        let edits: Vec<Edit> = vec![
            Box::new(|l| l.bytes = u32::MAX),
            Box::new(|l| l.bytes += 1),
            Box::new(|l| l.spans[1] = u32::MAX),
            Box::new(|l| l.spans[2] = u32::MAX),
            Box::new(|l| l.spans[2] += 1),
            Box::new(|l| l.spans[2] -= 1),
            Box::new(|l| l.spans.pop().map(drop).unwrap_or(())),
            Box::new(|l| l.spans.swap(0, 3)),
            Box::new(move |l| l.spans[n - 2] = l.spans[n - 3] - 1),
            Box::new(|l| l.spans.truncate(3)),
        ];
        for (i, edit) in edits.iter().enumerate() {
            let bytes = with_index(&good, |index| edit(index.frames[0].lead.as_mut().unwrap()));
            let b = open_bytes(&bytes).unwrap();
            let err = b.get_text("doc/zh-CN").unwrap_err();
            assert!(matches!(err, BundleError::Corrupt { .. }), "edit {i}: {err}");
            assert!(matches!(b.check_all(), Err(BundleError::Corrupt { .. })), "edit {i}: `verify` sees it too");
            // The lead alone is served or refused, never past the frame.
            if let Ok(Some(lead)) = b.get_lead("doc/zh-CN") {
                assert!(stored.starts_with(&lead), "edit {i}");
            }
        }
        // A lead that cuts a character in two: refused, for the text and for the lead.
        let cut = stored.char_indices().find(|(_, c)| c.len_utf8() > 1).unwrap().0 + 1;
        let bytes = with_index(&good, |index| index.frames[0].lead.as_mut().unwrap().bytes = cut as u32);
        let b = open_bytes(&bytes).unwrap();
        assert!(b.get_lead("doc/zh-CN").unwrap_err().to_string().contains("not UTF-8"));
        assert!(b.get_text("doc/zh-CN").is_err());
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
        // A newer format than this reader writes.
        let newer = crate::bundle::format::FORMAT_VERSION + 1;
        v[offset::VERSION..offset::VERSION + 2].copy_from_slice(&newer.to_le_bytes());
        let err = open_bytes(&v).err().unwrap();
        assert!(matches!(err, BundleError::UnsupportedVersion { found, .. } if found == newer), "{err}");
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
