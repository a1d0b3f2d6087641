//! Writes one bundle file: frames appended in memory, then `finish` writes a temporary file, fsyncs it and
//! renames it into place, so no reader ever sees a half-written bundle.

use std::io::Write;
use std::path::{Path, PathBuf};

use serde::Serialize;
use xxhash_rust::xxh3::xxh3_64;

use super::format::{FORMAT_VERSION, FrameEntry, HEADER_LEN, Identity, Index, Lead, MAGIC, MAX_INDEX_BYTES, offset};
use crate::model::{Manifest, keys};

/// zstd level for frames. Measured on Semi (`--preset semi`, CPU time of the whole build, best of 2, 2 cores):
/// level 15 takes 2.98 s for 2,451,685 bytes of bundles (0.34× the sources), 12 2.47 s, 9 2.22 s for 2,535,072
/// bytes (0.35×), 7 2.14 s for 2,549,685 bytes (just over 0.35×), 5 and 3 2.13 s for 4–10 % more bytes again:
/// past level 9 the optimal parser costs a quarter of the build for 3 % of size. Decoding does not depend on it.
pub const ZSTD_LEVEL: i32 = 9;

/// One compressed frame, ready to be placed in a bundle. Frames are made wherever the data is (in parallel) and
/// gathered by a [`BundleWriter`].
/// Serializable so the compiler's incremental build cache can keep frames as they were compressed.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Frame {
    key: String,
    #[serde(with = "serde_bytes")]
    compressed: Vec<u8>,
    raw_len: u64,
    /// The key of the frame whose decompressed bytes were the dictionary ([`FrameEntry::dict`]).
    dict: Option<String>,
    /// How the text is spliced from a frame stored with a lead ([`FrameEntry::lead`]).
    lead: Option<Lead>,
}

impl Frame {
    /// `value` under `key`, serialized with MessagePack (fields by position: compact, and the format version guards the layout) and compressed with zstd.
    ///
    /// # Errors
    /// Serialization or compression failure (neither happens for the crate's own types).
    pub fn new<T: Serialize + ?Sized>(key: impl Into<String>, value: &T) -> std::io::Result<Frame> {
        Frame::from_raw(key, &Frame::raw(value)?)
    }

    /// The MessagePack bytes a frame of `value` holds (what it decompresses to): the `dict` of
    /// [`Frame::with_dictionary`] when this frame is the dictionary.
    ///
    /// # Errors
    /// Serialization failure (never for the crate's own types).
    pub fn raw<T: Serialize + ?Sized>(value: &T) -> std::io::Result<Vec<u8>> {
        rmp_serde::to_vec(value).map_err(std::io::Error::other)
    }

    /// A frame of MessagePack bytes `raw` (from [`Frame::raw`]) under `key`.
    ///
    /// # Errors
    /// Compression failure.
    pub fn from_raw(key: impl Into<String>, raw: &[u8]) -> std::io::Result<Frame> {
        Ok(Frame { key: key.into(), compressed: compress(raw)?, raw_len: raw.len() as u64, dict: None, lead: None })
    }

    /// `value` under `key`, compressed with `dict` — the decompressed bytes ([`Frame::raw`]) of frame `dict_key` of
    /// the same bundle — as zstd raw-content dictionary (format 8, [`FrameEntry::dict`]): what `value` shares with
    /// that frame is stored once. The reader decompresses `dict_key` first to read this frame, so `dict_key` must
    /// be a frame without a dictionary, added to the same bundle.
    ///
    /// # Errors
    /// Serialization or compression failure.
    pub fn with_dictionary<T: Serialize + ?Sized>(
        key: impl Into<String>,
        value: &T,
        dict_key: &str,
        dict: &[u8],
    ) -> std::io::Result<Frame> {
        let raw = Frame::raw(value)?;
        Ok(Frame {
            key: key.into(),
            compressed: compress_with(&raw, dict)?,
            raw_len: raw.len() as u64,
            dict: Some(dict_key.to_string()),
            lead: None,
        })
    }

    /// A text stored with a lead (format 9, [`Lead`]) under `key`: `raw` is [`Frame::raw`] of the string
    /// `lead ++ rest`, `lead.bytes` the lead's length, `lead.spans` where the rest's pieces go. Compressed as one zstd
    /// frame (so the rest is compressed with the lead as its history: the ratio barely moves) whose block ends
    /// right after the lead, so a reader decodes the lead alone. `dict` as for [`Frame::with_dictionary`]
    /// (`(dict_key, dict)`), or none.
    ///
    /// # Errors
    /// A lead longer than the string, a dictionary starting with zstd's dictionary magic, or a compression failure.
    pub fn with_lead(
        key: impl Into<String>,
        raw: &[u8],
        lead: Lead,
        dict: Option<(&str, &[u8])>,
    ) -> std::io::Result<Frame> {
        let header =
            super::keyed::str_header(raw).ok_or_else(|| std::io::Error::other("a lead frame is not a string"))?;
        let cut = header + lead.bytes as usize;
        if cut > raw.len() {
            return Err(std::io::Error::other(format!("a lead of {} bytes in a text of {}", lead.bytes, raw.len())));
        }
        if dict.is_some_and(|(_, d)| d.starts_with(&super::format::ZSTD_DICT_MAGIC)) {
            return Err(std::io::Error::other("a frame dictionary starts with zstd's dictionary magic"));
        }
        Ok(Frame {
            key: key.into(),
            compressed: compress_flushed(raw, cut, dict.map(|(_, d)| d))?,
            raw_len: raw.len() as u64,
            dict: dict.map(|(k, _)| k.to_string()),
            lead: Some(lead),
        })
    }

    /// A frame of already serialized MessagePack bytes (for the fuzz tests, which re-seal mutated frames).
    #[cfg(test)]
    pub(crate) fn from_msgpack(key: &str, raw: &[u8]) -> std::io::Result<Frame> {
        Ok(Frame {
            key: key.to_string(),
            compressed: zstd::bulk::compress(raw, 1)?,
            raw_len: raw.len() as u64,
            dict: None,
            lead: None,
        })
    }

    /// Compressed size in bytes.
    pub fn len(&self) -> usize {
        self.compressed.len()
    }

    /// Whether the compressed frame is empty (never, for frames made by [`Frame::new`]).
    pub fn is_empty(&self) -> bool {
        self.compressed.is_empty()
    }
}

/// Scratch buffers above this many bytes are not kept between frames (a rare huge frame does not pin its buffer).
const KEEP_SCRATCH: usize = 4 << 20;

thread_local! {
    /// This thread's zstd context at [`ZSTD_LEVEL`] and its output scratch buffer: a context is made once per
    /// thread, not once per frame (a level-9 context allocates and initialises its tables, ~1 MB), and frames keep
    /// exactly their compressed length (zstd's `bulk::compress` returns a buffer of the input's size bound, so
    /// every frame held its raw size in memory).
    static COMPRESSOR: std::cell::RefCell<Option<(zstd::bulk::Compressor<'static>, Vec<u8>)>> =
        const { std::cell::RefCell::new(None) };
}

/// `raw` compressed at [`ZSTD_LEVEL`], in a vector of exactly the compressed length. Byte-identical to
/// `zstd::bulk::compress(raw, ZSTD_LEVEL)`: the context keeps only its parameters between frames.
///
/// # Errors
/// A compression failure.
pub fn compress(raw: &[u8]) -> std::io::Result<Vec<u8>> {
    compress_in_context(raw, None)
}

/// `raw` compressed at [`ZSTD_LEVEL`] with `dict` as raw-content dictionary (`ZSTD_compress_usingDict`; the
/// reader's `decompress_capped` takes the same bytes), in a vector of exactly the compressed length. `dict` must
/// not start with zstd's dictionary magic (it would be read as a trained dictionary): MessagePack bytes of one
/// value never do (the reader refuses such a dictionary).
///
/// # Errors
/// A compression failure, or `dict` starting with the magic.
fn compress_with(raw: &[u8], dict: &[u8]) -> std::io::Result<Vec<u8>> {
    if dict.starts_with(&super::format::ZSTD_DICT_MAGIC) {
        return Err(std::io::Error::other("a frame dictionary starts with zstd's dictionary magic"));
    }
    compress_in_context(raw, Some(dict))
}

/// [`compress`] and [`compress_with`] in this thread's context (one per thread, not two: a level-9 context holds
/// megabytes). `ZSTD_compress_usingDict` takes its level per call and leaves neither parameters nor a dictionary
/// in the context, so [`compress`] stays byte-identical to `zstd::bulk::compress`.
fn compress_in_context(raw: &[u8], dict: Option<&[u8]>) -> std::io::Result<Vec<u8>> {
    let with_context = |slot: &mut Option<(zstd::bulk::Compressor<'static>, Vec<u8>)>| {
        if slot.is_none() {
            *slot = Some((zstd::bulk::Compressor::new(ZSTD_LEVEL)?, Vec::new()));
        }
        let Some((compressor, scratch)) = slot.as_mut() else { unreachable!("just set") };
        scratch.clear();
        scratch.reserve(zstd::zstd_safe::compress_bound(raw.len()));
        match dict {
            None => compressor.compress_to_buffer(raw, scratch).map(|_| ())?,
            Some(dict) => compressor
                .context_mut()
                .compress_using_dict(scratch, raw, dict, ZSTD_LEVEL)
                .map(|_| ())
                .map_err(|code| std::io::Error::other(zstd::zstd_safe::get_error_name(code)))?,
        }
        let out = scratch.to_vec();
        if scratch.capacity() > KEEP_SCRATCH {
            *scratch = Vec::new();
        }
        Ok(out)
    };
    // A re-entrant call (none today) compresses with its own context rather than panicking on the borrow.
    COMPRESSOR.with(|cell| match cell.try_borrow_mut() {
        Ok(mut slot) => with_context(&mut slot),
        Err(_) => with_context(&mut None),
    })
}

/// `raw` compressed at [`ZSTD_LEVEL`] (with `dict` as raw-content dictionary) as one zstd frame with its content
/// size, whose blocks end at byte `cut` (`ZSTD_e_flush` there): a streaming decoder given the compressed bytes
/// until that block's end decodes `raw[..cut]` alone. Its own context: the thread's bulk one keeps its level in
/// its parameters, which a streaming session with a dictionary would have to reset.
fn compress_flushed(raw: &[u8], cut: usize, dict: Option<&[u8]>) -> std::io::Result<Vec<u8>> {
    use zstd::zstd_safe::{CCtx, CParameter, InBuffer, OutBuffer, zstd_sys::ZSTD_EndDirective};
    let err = |code| std::io::Error::other(zstd::zstd_safe::get_error_name(code));
    let mut cctx = CCtx::create();
    cctx.set_parameter(CParameter::CompressionLevel(ZSTD_LEVEL)).map_err(err)?;
    cctx.set_pledged_src_size(Some(raw.len() as u64)).map_err(err)?;
    if let Some(dict) = dict {
        cctx.load_dictionary(dict).map_err(err)?;
    }
    let mut out: Vec<u8> = Vec::with_capacity(zstd::zstd_safe::compress_bound(raw.len()) + 64);
    let mut output = OutBuffer::around(&mut out);
    for (part, end) in [(&raw[..cut], ZSTD_EndDirective::ZSTD_e_flush), (&raw[cut..], ZSTD_EndDirective::ZSTD_e_end)] {
        let mut input = InBuffer::around(part);
        // The output holds the bound of the whole frame: each call finishes its part (0 = nothing left to flush).
        while cctx.compress_stream2(&mut output, &mut input, end).map_err(err)? != 0 {}
    }
    Ok(out)
}

/// Accumulates frames of one bundle. Frames are sorted by key in `finish`, so the bytes do not depend on the order
/// (or thread) in which they were added.
#[derive(Default)]
pub struct BundleWriter {
    frames: Vec<Frame>,
    identity: Identity,
}

/// What [`BundleWriter::finish`] wrote, as the manifest records it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Written {
    /// Size of the file in bytes.
    pub bytes: u64,
    /// xxh3-64 of the whole file (checked by `verify`).
    pub xxh3: u64,
    /// The header checksum (checked on every open).
    pub header_xxh3: u64,
}

impl BundleWriter {
    /// An empty bundle.
    pub fn new() -> Self {
        Self::default()
    }

    /// Sets who the bundle is (stored in its index; empty by default).
    pub fn identify(&mut self, identity: Identity) {
        self.identity = identity;
    }

    /// A hash of the frames added so far (keys and compressed bytes, in key order, so independent of the order of
    /// adding): with the manifest, it makes the build id.
    pub fn fingerprint(&self) -> u64 {
        let mut frames: Vec<(&str, u64, Option<&str>, Option<&Lead>)> = self
            .frames
            .iter()
            .map(|f| (f.key.as_str(), xxh3_64(&f.compressed), f.dict.as_deref(), f.lead.as_ref()))
            .collect();
        frames.sort_by(|a, b| a.0.cmp(b.0));
        fingerprint(frames.into_iter())
    }

    /// Adds a frame made elsewhere.
    pub fn push(&mut self, frame: Frame) {
        self.frames.push(frame);
    }

    /// Adds `value` under `key` (see [`Frame::new`]).
    ///
    /// # Errors
    /// As [`Frame::new`].
    pub fn add<T: Serialize + ?Sized>(&mut self, key: impl Into<String>, value: &T) -> std::io::Result<()> {
        self.frames.push(Frame::new(key, value)?);
        Ok(())
    }

    /// Adds the frames of `manifest.bundle` (format 6): the whole [`Manifest`] but its file owners (`manifest`:
    /// lists, search, `verify`), its head (`head`: what opening a set decodes), one `entry/<key>`
    /// [`crate::model::ComponentLookup`] per component (what a lookup by name decodes, found by binary search in the
    /// sorted index) and the file owners in `files/<first path>` frames of [`crate::model::FILES_PER_FRAME`]
    /// (format 10: what a lookup by path decodes). [`super::reader::read_manifest`] joins them back.
    ///
    /// # Errors
    /// As [`Frame::new`].
    pub fn add_manifest(&mut self, manifest: &Manifest) -> std::io::Result<()> {
        self.add(keys::MANIFEST, &Manifest { files: Vec::new(), ..manifest.clone() })?;
        self.add(keys::HEAD, &manifest.head())?;
        for lookup in manifest.lookups() {
            self.add(keys::entry(&lookup.entry.key), &lookup)?;
        }
        for chunk in manifest.files.chunks(crate::model::FILES_PER_FRAME) {
            self.add(keys::files(&chunk[0].path), &chunk)?;
        }
        Ok(())
    }

    /// The frames sorted by key, checked for duplicate keys and for dictionaries that are no frame of the bundle
    /// or have a dictionary themselves.
    fn sorted_frames(&mut self) -> std::io::Result<Vec<Frame>> {
        self.frames.sort_by(|a, b| a.key.cmp(&b.key));
        if let Some(w) = self.frames.windows(2).find(|w| w[0].key == w[1].key) {
            return Err(std::io::Error::other(format!("duplicate frame key `{}`", w[0].key)));
        }
        for f in &self.frames {
            let Some(dict) = &f.dict else { continue };
            match self.frames.binary_search_by(|g| g.key.as_str().cmp(dict)) {
                Ok(i) if self.frames[i].dict.is_none() => {}
                Ok(_) => {
                    return Err(std::io::Error::other(format!(
                        "frame `{}`: its dictionary `{dict}` has a dictionary itself",
                        f.key
                    )));
                }
                Err(_) => {
                    return Err(std::io::Error::other(format!(
                        "frame `{}`: its dictionary `{dict}` is not a frame of the bundle",
                        f.key
                    )));
                }
            }
        }
        Ok(std::mem::take(&mut self.frames))
    }

    /// The complete file contents: header, frames sorted by key, index.
    ///
    /// # Errors
    /// Duplicate keys (a compiler bug) or a compression failure.
    pub fn into_bytes(mut self) -> std::io::Result<Vec<u8>> {
        let mut out = vec![0u8; HEADER_LEN];
        let mut index = Vec::with_capacity(self.frames.len());
        for Frame { key, compressed, raw_len, dict, lead } in self.sorted_frames()? {
            index.push(FrameEntry {
                key,
                offset: out.len() as u64,
                len: compressed.len() as u64,
                raw_len,
                xxh3: xxh3_64(&compressed),
                dict,
                lead,
            });
            out.extend_from_slice(&compressed);
        }
        let (index_bytes, header) = index_and_header(self.identity, index, out.len() as u64)?;
        out.extend_from_slice(&index_bytes);
        out[..HEADER_LEN].copy_from_slice(&header);
        Ok(out)
    }

    /// Writes the frames (sorted by key) to `path` after a blank header and keeps only their index entries: a
    /// bundle whose frames no longer take memory, finished (identity, index, header) later by
    /// [`SpooledBundle::finish`] into the same bytes [`BundleWriter::into_bytes`] would give. The identity set by
    /// [`BundleWriter::identify`] is not kept (the set's build id is not known yet when frames are spooled).
    ///
    /// # Errors
    /// Duplicate keys, or any I/O error (the file is removed).
    pub fn spool(mut self, path: &Path) -> std::io::Result<SpooledBundle> {
        let frames = self.sorted_frames()?;
        let (index, end) = index_of(&frames);
        let written = write_frames(path, &frames);
        if written.is_err() {
            let _ = std::fs::remove_file(path);
        }
        written.map(|()| SpooledBundle { path: path.to_path_buf(), index, end, held: None })
    }

    /// As [`BundleWriter::spool`], but the frames stay in memory and nothing is written yet: for a bundle that is
    /// probably in the previous generation already (a component reused from the incremental build cache), which
    /// [`SpooledBundle::finish_or_reuse`] then links without writing (and without compressing its index) when the
    /// previous file holds exactly these bytes, and writes to `path` first otherwise.
    ///
    /// # Errors
    /// Duplicate keys.
    pub fn hold(mut self, path: &Path) -> std::io::Result<SpooledBundle> {
        let frames = self.sorted_frames()?;
        let (index, end) = index_of(&frames);
        Ok(SpooledBundle { path: path.to_path_buf(), index, end, held: Some(frames) })
    }

    /// Writes the bundle to `path` atomically (temporary file in the same directory, fsync, rename) and returns
    /// its size in bytes, whole-file xxh3-64 and header checksum.
    ///
    /// # Errors
    /// Any I/O error; the temporary file is removed and `path` is left as it was.
    pub fn finish(self, path: &Path) -> std::io::Result<Written> {
        let bytes = self.into_bytes()?;
        write_atomically(path, &bytes)?;
        let header_xxh3 = u64::from_le_bytes(bytes[offset::HEADER_XXH3..HEADER_LEN].try_into().unwrap_or_default());
        Ok(Written { bytes: bytes.len() as u64, xxh3: xxh3_64(&bytes), header_xxh3 })
    }
}

/// The hash of a bundle's frames given as (key, xxh3 of the compressed bytes, dictionary key, lead) in key order
/// (see [`BundleWriter::fingerprint`]).
fn fingerprint<'k>(frames: impl Iterator<Item = (&'k str, u64, Option<&'k str>, Option<&'k Lead>)>) -> u64 {
    let mut h = xxhash_rust::xxh3::Xxh3::new();
    for (key, xxh3, dict, lead) in frames {
        if let Some(lead) = lead {
            h.update(b"\0lead");
            for n in std::iter::once(lead.bytes).chain(lead.spans.iter().copied()) {
                h.update(&n.to_le_bytes());
            }
        }
        h.update(key.as_bytes());
        h.update(&[0]);
        h.update(&xxh3.to_le_bytes());
        if let Some(dict) = dict {
            h.update(dict.as_bytes());
            h.update(&[0]);
        }
    }
    h.digest()
}

/// The index entries of `frames` (sorted by key) placed one after the other after the header, and where they end.
fn index_of(frames: &[Frame]) -> (Vec<FrameEntry>, u64) {
    let mut at = HEADER_LEN as u64;
    let mut index = Vec::with_capacity(frames.len());
    for Frame { key, compressed, raw_len, dict, lead } in frames {
        let len = compressed.len() as u64;
        let xxh3 = xxh3_64(compressed);
        let (key, dict, lead) = (key.clone(), dict.clone(), lead.clone());
        index.push(FrameEntry { key, offset: at, len, raw_len: *raw_len, xxh3, dict, lead });
        at += len;
    }
    (index, at)
}

/// Writes a blank header and `frames` to a new file `path` (the layout [`index_of`] describes).
fn write_frames(path: &Path, frames: &[Frame]) -> std::io::Result<()> {
    let mut f = std::io::BufWriter::new(std::fs::File::create(path)?);
    f.write_all(&[0u8; HEADER_LEN])?;
    for frame in frames {
        f.write_all(&frame.compressed)?;
    }
    f.flush()
}

/// The compressed index (with `identity`) of a bundle whose frames end at byte `index_offset`, and its header.
fn index_and_header(
    identity: Identity,
    index: Vec<FrameEntry>,
    index_offset: u64,
) -> std::io::Result<(Vec<u8>, [u8; HEADER_LEN])> {
    let raw_index = rmp_serde::to_vec(&Index { identity, frames: index }).map_err(std::io::Error::other)?;
    let index_bytes = compress(&raw_index)?;
    let header = header_for(&index_bytes, raw_index.len() as u64, index_offset);
    Ok((index_bytes, header))
}

/// The header of a bundle whose compressed index `index_bytes` (of `raw_len` bytes decompressed) starts at byte
/// `index_offset`.
fn header_for(index_bytes: &[u8], raw_len: u64, index_offset: u64) -> [u8; HEADER_LEN] {
    let mut out = [0u8; HEADER_LEN];
    out[..8].copy_from_slice(&MAGIC);
    out[offset::VERSION..offset::VERSION + 2].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
    out[offset::FLAGS..offset::FLAGS + 2].copy_from_slice(&0u16.to_le_bytes());
    out[offset::INDEX_OFFSET..offset::INDEX_OFFSET + 8].copy_from_slice(&index_offset.to_le_bytes());
    out[offset::INDEX_LEN..offset::INDEX_LEN + 8].copy_from_slice(&(index_bytes.len() as u64).to_le_bytes());
    out[offset::INDEX_RAW_LEN..offset::INDEX_RAW_LEN + 8].copy_from_slice(&raw_len.to_le_bytes());
    out[offset::INDEX_XXH3..offset::INDEX_XXH3 + 8].copy_from_slice(&xxh3_64(index_bytes).to_le_bytes());
    let header_sum = xxh3_64(&out[..offset::HEADER_XXH3]);
    out[offset::HEADER_XXH3..HEADER_LEN].copy_from_slice(&header_sum.to_le_bytes());
    out
}

/// What [`SpooledBundle::finish_or_reuse`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Finished {
    /// The file, as the manifest records it.
    pub written: Written,
    /// Whether the previous generation's file was kept (linked or copied) instead of writing this one.
    pub reused: bool,
}

/// A bundle whose frames are on disk (see [`BundleWriter::spool`]), waiting for its identity.
#[derive(Debug)]
pub struct SpooledBundle {
    path: PathBuf,
    index: Vec<FrameEntry>,
    /// Where the frames end (bytes): the index's offset.
    end: u64,
    /// The frames, when they are not written to `path` yet ([`BundleWriter::hold`]).
    held: Option<Vec<Frame>>,
}

impl SpooledBundle {
    /// As [`BundleWriter::fingerprint`] of the frames spooled.
    pub fn fingerprint(&self) -> u64 {
        fingerprint(self.index.iter().map(|e| (e.key.as_str(), e.xxh3, e.dict.as_deref(), e.lead.as_ref())))
    }

    /// As [`SpooledBundle::finish`], unless `previous` — the same file in the previous generation, with what its
    /// manifest recorded of it — already holds these bytes: same size and header checksum (which covers the index,
    /// so every frame's checksum and the identity), and its whole-file checksum still the recorded one (a damaged
    /// old file is not carried over). Then it is hard-linked to `dest` (copied where links fail) and the spooled
    /// file removed: a rebuild rewrites only the bundles that changed (issue 12 item 2). The result says which.
    /// Frames held in memory ([`BundleWriter::hold`]) are compared with the old file's bytes instead, without
    /// compressing the index, and written only when they differ.
    ///
    /// # Errors
    /// Any I/O error; the spooled file is removed.
    pub fn finish_or_reuse(
        self,
        identity: Identity,
        dest: &Path,
        previous: Option<(&Path, Written)>,
    ) -> std::io::Result<Finished> {
        if let Some((old, recorded)) = previous
            && let Some(frames) = &self.held
        {
            if self.is_in(&identity, frames, old, recorded)
                && (std::fs::hard_link(old, dest).is_ok() || std::fs::copy(old, dest).is_ok())
            {
                return Ok(Finished { written: recorded, reused: true });
            }
        } else if let Some((old, recorded)) = previous {
            let (index_bytes, header) = index_and_header(identity.clone(), self.index.clone(), self.end)?;
            let bytes = self.end + index_bytes.len() as u64;
            let header_xxh3 =
                u64::from_le_bytes(header[offset::HEADER_XXH3..HEADER_LEN].try_into().unwrap_or_default());
            let same = bytes == recorded.bytes
                && header_xxh3 == recorded.header_xxh3
                && std::fs::read(old).is_ok_and(|b| b.len() as u64 == bytes && xxh3_64(&b) == recorded.xxh3);
            if same && (std::fs::hard_link(old, dest).is_ok() || std::fs::copy(old, dest).is_ok()) {
                let _ = std::fs::remove_file(&self.path);
                return Ok(Finished { written: recorded, reused: true });
            }
        }
        Ok(Finished { written: self.finish(identity, dest)?, reused: false })
    }

    /// Whether file `old`, recorded as `recorded`, is the bundle of `frames` (held in memory, as [`Self::index`]
    /// places them) with `identity`, byte for byte: its size and checksum are the recorded ones, its frames are
    /// these bytes at these offsets, its index decompresses to the index this bundle would write, and its header
    /// is the one made for that index. No compression: the index is compared decompressed (the compressed index
    /// is a function of it).
    fn is_in(&self, identity: &Identity, frames: &[Frame], old: &Path, recorded: Written) -> bool {
        let Ok(bytes) = std::fs::read(old) else { return false };
        if bytes.len() as u64 != recorded.bytes || bytes.len() < HEADER_LEN || xxh3_64(&bytes) != recorded.xxh3 {
            return false;
        }
        let field = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap_or_default());
        let (at, len, raw_len) = (field(offset::INDEX_OFFSET), field(offset::INDEX_LEN), field(offset::INDEX_RAW_LEN));
        if at != self.end || at.checked_add(len) != Some(bytes.len() as u64) || raw_len > MAX_INDEX_BYTES {
            return false;
        }
        let same_frames =
            self.index.iter().zip(frames).all(|(e, f)| {
                bytes.get(e.offset as usize..(e.offset + e.len) as usize) == Some(f.compressed.as_slice())
            });
        let index_bytes = &bytes[at as usize..];
        let Ok(raw) = zstd::bulk::decompress(index_bytes, raw_len as usize) else { return false };
        let Ok(ours) = rmp_serde::to_vec(&Index { identity: identity.clone(), frames: self.index.clone() }) else {
            return false;
        };
        same_frames
            && raw == ours
            && bytes[..HEADER_LEN] == header_for(index_bytes, raw_len, at)
            && field(offset::HEADER_XXH3) == recorded.header_xxh3
    }

    /// Appends the index (with `identity`), writes the header, fsyncs the file and renames it to `dest` (the same
    /// filesystem): the bytes [`BundleWriter::finish`] would have written. Frames held in memory are written first.
    ///
    /// # Errors
    /// Any I/O error; the spooled file is removed.
    pub fn finish(mut self, identity: Identity, dest: &Path) -> std::io::Result<Written> {
        use std::io::{Read, Seek, SeekFrom};
        let path = self.path.clone();
        if let Some(frames) = self.held.take()
            && let Err(e) = write_frames(&path, &frames)
        {
            let _ = std::fs::remove_file(&path);
            return Err(e);
        }
        let result = (|| {
            let (index_bytes, header) = index_and_header(identity, self.index, self.end)?;
            let mut f = std::fs::OpenOptions::new().read(true).write(true).open(&self.path)?;
            f.seek(SeekFrom::Start(self.end))?;
            f.write_all(&index_bytes)?;
            f.set_len(self.end + index_bytes.len() as u64)?;
            f.seek(SeekFrom::Start(0))?;
            f.write_all(&header)?;
            // The whole-file checksum, from the page cache.
            f.seek(SeekFrom::Start(0))?;
            let mut h = xxhash_rust::xxh3::Xxh3::new();
            let mut buf = vec![0u8; 256 << 10];
            let mut bytes = 0u64;
            loop {
                let n = f.read(&mut buf)?;
                if n == 0 {
                    break;
                }
                h.update(&buf[..n]);
                bytes += n as u64;
            }
            f.sync_all()?;
            std::fs::rename(&self.path, dest)?;
            let header_xxh3 =
                u64::from_le_bytes(header[offset::HEADER_XXH3..HEADER_LEN].try_into().unwrap_or_default());
            Ok(Written { bytes, xxh3: h.digest(), header_xxh3 })
        })();
        if result.is_err() {
            let _ = std::fs::remove_file(&path);
        }
        result
    }
}

/// Writes `bytes` to `path` through a temporary sibling file that is fsynced and renamed into place; the directory
/// is fsynced after the rename, so the new name survives a crash too.
///
/// # Errors
/// Any I/O error; the temporary file is removed on failure.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let tmp = temp_sibling(path);
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)?;
        sync_dir(path.parent().unwrap_or(Path::new(".")));
        Ok(())
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Fsyncs directory `dir` (its entries: names created or renamed in it), best effort: a filesystem that cannot
/// fsync a directory (some network mounts) loses only crash durability, not correctness.
pub(crate) fn sync_dir(dir: &Path) {
    let dir = if dir.as_os_str().is_empty() { Path::new(".") } else { dir };
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
}

/// `.<name>.<pid>.tmp` beside `path`; when that would pass [`MAX_NAME_BYTES`], `.<xxh3 of name>.<pid>.tmp`, so a
/// long but valid file name never makes its temporary name too long for the filesystem.
fn temp_sibling(path: &Path) -> PathBuf {
    let name = path.file_name().unwrap_or_default();
    path.with_file_name(temp_name(&name.to_string_lossy(), "tmp"))
}

/// Longest file name (bytes) the build creates: the common filesystem limit (ext4, APFS, NTFS: 255).
pub const MAX_NAME_BYTES: usize = 255;

/// A hidden temporary name made from `name`, `kind` and the process id, hashing `name` when the result would be
/// longer than [`MAX_NAME_BYTES`].
pub fn temp_name(name: &str, kind: &str) -> String {
    let pid = std::process::id();
    let plain = format!(".{name}.{pid}.{kind}");
    if plain.len() <= MAX_NAME_BYTES { plain } else { format!(".{:016x}.{pid}.{kind}", xxh3_64(name.as_bytes())) }
}

/// The directory name of set `name`'s generation for build `build_id`: `.<name>.gen-<build id, 16 hex digits>`
/// (hidden, so a scan of the output directory lists the set's link only).
pub fn generation_name(name: &str, build_id: u64) -> String {
    format!(".{name}.gen-{build_id:016x}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn writer() -> BundleWriter {
        let mut w = BundleWriter::new();
        // Added out of key order, one frame large enough to need more than one read of the checksum loop.
        w.add("doc/en-US", &"x".repeat(300_000)).unwrap();
        w.add("component", &(1u32, "two", vec![3u8; 40])).unwrap();
        w.add("block/ts/1", &"const a = 1;").unwrap();
        w
    }

    fn identity() -> Identity {
        Identity {
            system: "s".into(),
            version: "1.0.0".into(),
            key: "k".into(),
            encoding: "o200k_base".into(),
            build_id: 7,
        }
    }

    #[test]
    fn a_spooled_bundle_finishes_into_the_bytes_of_an_in_memory_one() {
        let dir = tempfile::tempdir().unwrap();
        let mut w = writer();
        let fingerprint = w.fingerprint();
        w.identify(identity());
        let expected = w.finish(&dir.path().join("memory.bundle")).unwrap();
        let spooled = writer().spool(&dir.path().join("spool")).unwrap();
        assert_eq!(spooled.fingerprint(), fingerprint);
        let written = spooled.finish(identity(), &dir.path().join("spooled.bundle")).unwrap();
        assert_eq!(written, expected);
        let (a, b) = (dir.path().join("memory.bundle"), dir.path().join("spooled.bundle"));
        assert_eq!(std::fs::read(a).unwrap(), std::fs::read(b).unwrap());
        assert!(!dir.path().join("spool").exists(), "renamed into place");
    }

    /// A held bundle (a component reused from the build cache) is linked from the previous generation only when
    /// that file is its bytes; otherwise (another identity, another frame, a damaged or missing old file) it is
    /// written, into the bytes an in-memory bundle gives.
    #[test]
    fn a_held_bundle_reuses_the_previous_file_only_when_it_is_the_same_bytes() {
        use std::os::unix::fs::MetadataExt;
        let dir = tempfile::tempdir().unwrap();
        let old = dir.path().join("old.bundle");
        let recorded = writer().spool(&dir.path().join("spool")).unwrap().finish(identity(), &old).unwrap();
        let held = writer().hold(&dir.path().join("held")).unwrap();
        assert!(!dir.path().join("held").exists(), "nothing written while held");
        assert_eq!(held.fingerprint(), writer().fingerprint());
        let done = held.finish_or_reuse(identity(), &dir.path().join("a.bundle"), Some((&old, recorded))).unwrap();
        assert_eq!(done, Finished { written: recorded, reused: true });
        let ino = |p: &Path| std::fs::metadata(p).unwrap().ino();
        assert_eq!(ino(&dir.path().join("a.bundle")), ino(&old), "hard-linked");

        // Another identity (a new version of the set), another frame, a damaged old file: written.
        let other = Identity { version: "1.0.1".into(), ..identity() };
        let mut changed = writer();
        changed.add("block/ts/2", &"let b = 2;").unwrap();
        let mut damaged_bytes = std::fs::read(&old).unwrap();
        damaged_bytes[HEADER_LEN + 3] ^= 1;
        let damaged = dir.path().join("damaged.bundle");
        std::fs::write(&damaged, &damaged_bytes).unwrap();
        for (n, (w, id, from)) in
            [(writer(), other.clone(), &old), (changed, identity(), &old), (writer(), identity(), &damaged)]
                .into_iter()
                .enumerate()
        {
            let mut memory = BundleWriter::new();
            memory.frames = w.frames.clone();
            memory.identify(id.clone());
            let expected = memory.into_bytes().unwrap();
            let dest = dir.path().join(format!("{n}.bundle"));
            let done = w.hold(&dir.path().join(format!("held-{n}"))).unwrap().finish_or_reuse(
                id,
                &dest,
                Some((from, recorded)),
            );
            assert!(!done.unwrap().reused, "case {n}");
            assert_eq!(std::fs::read(&dest).unwrap(), expected, "case {n}");
            assert_ne!(ino(&dest), ino(&old));
        }
        // No previous generation: written.
        let dest = dir.path().join("fresh.bundle");
        let done = writer().hold(&dir.path().join("held-fresh")).unwrap().finish_or_reuse(identity(), &dest, None);
        assert_eq!(done.unwrap().written, recorded);
        assert_eq!(std::fs::read(&dest).unwrap(), std::fs::read(&old).unwrap());
    }

    #[test]
    fn compress_is_zstd_bulk_at_the_bundle_level() {
        for raw in [&b""[..], b"abc", &[7u8; 100_000]] {
            assert_eq!(compress(raw).unwrap(), zstd::bulk::compress(raw, ZSTD_LEVEL).unwrap());
        }
    }
}
