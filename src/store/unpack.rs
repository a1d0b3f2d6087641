//! Reading a pack file without trusting it (issue 26): a 33 KB pack must not make `install` allocate gigabytes.
//!
//! - The whole-file checksum is computed by streaming the file (no copy of it in memory).
//! - The zstd decoder's window is capped ([`WINDOW_LOG_MAX`]), so a frame header cannot ask for a large buffer.
//! - Tar entries are read raw: the tar crate would read a GNU long-name or pax header whole, whatever size it
//!   declares; here a long name is read up to [`LONG_NAME_CAP`] and any other entry type is refused.
//! - Every entry's declared size is checked before a byte of it is read: the pack manifest against
//!   [`PACK_MANIFEST_CAP`], each file against the size the pack manifest lists (whose total is capped by
//!   [`PACK_SET_CAP`]); a file is streamed to disk through its hash, never held whole.
//! - An entry after the listed files is refused: a pack holds exactly what its manifest lists.

use std::io::{BufReader, Read, Seek, SeekFrom, Write};
use std::path::Path;

use super::{PACK_FORMAT, PACK_MANIFEST, PackManifest, StoreError, TRAILER_BYTES, TRAILER_MAGIC, TRAILER_TAG, io};

/// Cap on the pack manifest's size (bytes): a hand-made archive cannot make install allocate more.
pub(super) const PACK_MANIFEST_CAP: u64 = 16 << 20;
/// Cap on the bytes of the files a pack manifest lists (1 GiB): a real set is a few MB,
/// and a pack declaring more is refused before anything is written.
pub const PACK_SET_CAP: u64 = 1 << 30;
/// How many times its own size a pack's files may total (see [`unpack_into`]).
const BOMB_RATIO: u64 = 64;
/// Cap on a GNU long name (bytes): a path of the set is a few dozen bytes.
const LONG_NAME_CAP: u64 = 4096;
/// Largest zstd window a pack's frame may ask for (2^23 = 8 MiB). `pack` writes level 3 (window 2^21 at most) or
/// raw blocks (2^17); the decoder's default (2^27) would let a frame header reserve 128 MiB.
const WINDOW_LOG_MAX: u32 = 23;
/// Read buffer of the checksum pass and the copies (bytes).
const CHUNK: usize = 64 << 10;

/// Reads the pack file `path`, checks everything that can be checked without the reader (trailer and whole-file
/// checksum, archive, pack manifest, every file's size and xxh3 against it, nothing after the listed files) and
/// writes its files into the existing directory `dir`. Memory stays bounded whatever the file declares.
///
/// # Errors
/// [`StoreError::BadPack`] for anything wrong with the file; an I/O error writing into `dir`.
pub(super) fn unpack_into(path: &Path, dir: &Path) -> Result<PackManifest, StoreError> {
    let bad = |message: String| StoreError::BadPack { path: path.display().to_string(), message };
    let mut file = std::fs::File::open(path).map_err(io(path))?;
    let len = file.metadata().map_err(io(path))?.len();
    let mut magic = [0u8; 4];
    if len < (TRAILER_BYTES + 4) as u64 || file.read_exact(&mut magic).is_err() || magic != [0x28, 0xB5, 0x2F, 0xFD] {
        return Err(bad(format!(
            "not a mydesign-docs pack file ({len} bytes; a pack file is a zstd frame and a checksum trailer, written \
             by `mydesign-docs pack`)"
        )));
    }
    let body = len - TRAILER_BYTES as u64;
    let mut trailer = [0u8; TRAILER_BYTES];
    file.seek(SeekFrom::Start(body)).and_then(|_| file.read_exact(&mut trailer)).map_err(io(path))?;
    if trailer[..4] != TRAILER_MAGIC || trailer[4..8] != 16u32.to_le_bytes() || &trailer[8..16] != TRAILER_TAG {
        return Err(bad(
            "truncated or damaged: the checksum trailer at its end is missing (was the copy cut short?)".into()
        ));
    }
    let want = u64::from_le_bytes(trailer[16..24].try_into().unwrap_or_default());
    file.seek(SeekFrom::Start(0)).map_err(io(path))?;
    let (got, _) = hash_copy(&mut (&mut file).take(body), &mut std::io::sink()).map_err(io(path))?;
    if got != want {
        return Err(bad(format!(
            "checksum mismatch: the file's xxh3 is {got:016x}, its trailer says {want:016x} (damaged or tampered with)"
        )));
    }
    file.seek(SeekFrom::Start(0)).map_err(io(path))?;
    let mut decoder = zstd::stream::read::Decoder::with_buffer(BufReader::new(file.take(body)))
        .map_err(|e| bad(format!("zstd: {e}")))?;
    decoder.window_log_max(WINDOW_LOG_MAX).map_err(|e| bad(format!("zstd: {e}")))?;
    let mut archive = tar::Archive::new(decoder);
    let mut entries = Entries { inner: archive.entries().map_err(|e| bad(format!("tar: {e}")))?.raw(true) };

    let (first, mut e) = entries.next().map_err(&bad)?.ok_or_else(|| bad("the archive is empty".into()))?;
    if first != PACK_MANIFEST {
        return Err(bad(format!("the archive does not start with {PACK_MANIFEST} (found `{}`)", first.escape_debug())));
    }
    let size = e.header().entry_size().map_err(|e| bad(format!("tar: {e}")))?;
    if size > PACK_MANIFEST_CAP {
        return Err(bad(format!("{PACK_MANIFEST} declares {size} bytes, over the cap of {PACK_MANIFEST_CAP}")));
    }
    let json = read_exactly(&mut e, size).map_err(|e| bad(format!("{PACK_MANIFEST}: {e}")))?;
    drop(e);
    let manifest: PackManifest = serde_json::from_slice(&json).map_err(|e| bad(format!("{PACK_MANIFEST}: {e}")))?;
    if manifest.format != PACK_FORMAT {
        return Err(bad(format!(
            "pack format {} (this mydesign-docs reads format {PACK_FORMAT}; install a newer mydesign-docs)",
            manifest.format
        )));
    }
    if !super::safe_component(&manifest.system) || !super::safe_component(&manifest.version) {
        return Err(bad("the system or version in the pack manifest is not usable as a directory name".into()));
    }
    if manifest.files.first().map(|f| f.name.as_str()) != Some("manifest.bundle") {
        return Err(bad("the pack manifest does not list manifest.bundle first".into()));
    }
    let total = manifest.files.iter().fold(0u64, |t, f| t.saturating_add(f.bytes));
    if total > PACK_SET_CAP {
        return Err(bad(format!("the pack manifest lists {total} bytes of files, over the cap of {PACK_SET_CAP}")));
    }
    // Bundles are compressed already, so a real pack is about the size of its set (the sample: 397,253 bytes of pack
    // for 403,806 of bundles, 0.98×);
    // a manifest listing far more than the file could hold is a decompression bomb, refused before any write.
    if total > len.saturating_mul(BOMB_RATIO).saturating_add(1 << 20) {
        return Err(bad(format!(
            "the pack manifest lists {total} bytes of files in a {len}-byte pack file, over {BOMB_RATIO}× its size: \
             the bundles inside are compressed already, so no real pack expands that much"
        )));
    }
    let prefix = format!("{}/", manifest.name());
    let mut seen = std::collections::BTreeSet::new();
    for f in &manifest.files {
        if !super::safe_component(&f.name) || !seen.insert(f.name.as_str()) {
            return Err(bad(format!(
                "unusable or repeated file name `{}` in the pack manifest",
                f.name.escape_debug()
            )));
        }
        let (name, mut e) =
            entries.next().map_err(&bad)?.ok_or_else(|| bad(format!("the archive ends before {}", f.name)))?;
        if name.strip_prefix(&prefix) != Some(f.name.as_str()) {
            return Err(bad(format!("expected {prefix}{} in the archive, found `{}`", f.name, name.escape_debug())));
        }
        let size = e.header().entry_size().map_err(|e| bad(format!("tar: {e}")))?;
        if size != f.bytes {
            return Err(bad(format!(
                "{}: the archive declares {size} bytes, the pack manifest says {} (nothing of it was read)",
                f.name, f.bytes
            )));
        }
        let out_path = dir.join(&f.name);
        let mut out = std::fs::File::create(&out_path).map_err(io(&out_path))?;
        let (sum, n) = hash_copy(&mut (&mut e).take(size), &mut out).map_err(|e| bad(format!("{}: {e}", f.name)))?;
        let sum = format!("{sum:016x}");
        if n != f.bytes || sum != f.xxh3 {
            return Err(bad(format!(
                "{}: {n} bytes with xxh3 {sum}, the pack manifest says {} bytes with xxh3 {}",
                f.name, f.bytes, f.xxh3
            )));
        }
        out.sync_all().map_err(io(&out_path))?;
    }
    if let Some((name, _)) = entries.next().map_err(&bad)? {
        return Err(bad(format!(
            "the archive holds `{}` after the files its manifest lists (a pack holds exactly those)",
            name.escape_debug()
        )));
    }
    if manifest.files[0].bytes == 0 || manifest.files[0].xxh3 != manifest.build_id {
        return Err(bad("the build id does not match manifest.bundle".into()));
    }
    Ok(manifest)
}

/// The raw entries of an archive, each with its name: a GNU long name (as `pack` writes for a path over 100 bytes)
/// is read (capped) and applied to the entry after it; any entry type but a regular file is refused.
struct Entries<'a, R: Read> {
    inner: tar::Entries<'a, R>,
}

impl<'a, R: Read> Entries<'a, R> {
    fn next(&mut self) -> Result<Option<(String, tar::Entry<'a, R>)>, String> {
        let mut long_name: Option<Vec<u8>> = None;
        loop {
            let Some(e) = self.inner.next() else {
                return match long_name {
                    Some(_) => Err("the archive ends after a long name".into()),
                    None => Ok(None),
                };
            };
            let mut e = e.map_err(|e| format!("tar: {e}"))?;
            let kind = e.header().entry_type();
            let size = e.header().entry_size().map_err(|e| format!("tar: {e}"))?;
            if kind.is_gnu_longname() && long_name.is_none() {
                if size > LONG_NAME_CAP {
                    return Err(format!("a long name of {size} bytes, over the cap of {LONG_NAME_CAP}"));
                }
                let mut name = read_exactly(&mut e, size).map_err(|e| format!("tar: {e}"))?;
                if name.last() == Some(&0) {
                    name.pop();
                }
                long_name = Some(name);
                continue;
            }
            if !kind.is_file() {
                return Err(format!("an archive entry of type {kind:?} (a pack holds regular files only)"));
            }
            let bytes = long_name.unwrap_or_else(|| e.header().path_bytes().into_owned());
            let name = String::from_utf8(bytes).map_err(|_| "an archive entry whose name is not UTF-8".to_string())?;
            return Ok(Some((name, e)));
        }
    }
}

/// Reads exactly `size` bytes, allocating only as they arrive (the size is at most a cap of the caller's).
fn read_exactly(r: &mut impl Read, size: u64) -> std::io::Result<Vec<u8>> {
    let mut out = Vec::with_capacity(size.min(CHUNK as u64) as usize);
    r.take(size).read_to_end(&mut out)?;
    if out.len() as u64 != size {
        return Err(std::io::Error::new(std::io::ErrorKind::UnexpectedEof, "entry cut short"));
    }
    Ok(out)
}

/// Copies `r` to `w` through xxh3-64, one [`CHUNK`] at a time: (hash, bytes copied).
pub(super) fn hash_copy(r: &mut impl Read, w: &mut impl Write) -> std::io::Result<(u64, u64)> {
    let mut hasher = xxhash_rust::xxh3::Xxh3::new();
    let mut buf = vec![0u8; CHUNK];
    let mut n = 0u64;
    loop {
        let got = match r.read(&mut buf) {
            Ok(0) => break,
            Ok(got) => got,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        hasher.update(&buf[..got]);
        w.write_all(&buf[..got])?;
        n += got as u64;
    }
    Ok((hasher.digest(), n))
}
