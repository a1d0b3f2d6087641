//! zstd decompression with the reader's guards: sizes capped and checked against the frame header before anything
//! is allocated, one context per thread, and a text frame's first bytes decoded alone (its lead).

use super::format::BundleError;

thread_local! {
    /// One zstd decompression context per thread, reused for every frame (with a dictionary or none, whole or a
    /// lead): creating one costs more than decoding a small frame, and its tables are fresh pages in a CLI process.
    static DECOMPRESSOR: std::cell::RefCell<Option<zstd::zstd_safe::DCtx<'static>>> =
        const { std::cell::RefCell::new(None) };
}

/// Decompresses one zstd frame that must hold exactly `raw_len` bytes. The size written in the zstd frame header
/// is compared with `raw_len` before anything is allocated, and decompression stops at `raw_len`: a small file
/// can never make the reader allocate more than its index claims (itself capped). `dict`: the raw-content
/// dictionary the frame was compressed with ([`FrameEntry::dict`](super::format::FrameEntry::dict)).
pub(super) fn decompress_capped(
    path: &str,
    raw: &[u8],
    raw_len: u64,
    what: &str,
    dict: Option<&[u8]>,
) -> Result<Vec<u8>, BundleError> {
    let corrupt = |why: String| BundleError::Corrupt { path: path.to_string(), what: format!("{what} ({why})") };
    match zstd::zstd_safe::get_frame_content_size(raw) {
        Ok(Some(n)) if n == raw_len => {}
        Ok(Some(n)) => return Err(corrupt(format!("{n} bytes, the index says {raw_len}"))),
        _ => return Err(corrupt("no zstd frame size".into())),
    }
    let capacity = usize::try_from(raw_len).map_err(|_| corrupt(format!("{raw_len} bytes")))?;
    // Raw-content dictionary (the caller refused one with the trained-dictionary magic); a frame compressed with
    // another dictionary, or none, fails zstd's checks or decodes to bytes whose MessagePack or size check fails,
    // never a panic.
    let mut bytes = Vec::with_capacity(capacity);
    DECOMPRESSOR
        .with(|cell| {
            let mut slot = cell.borrow_mut();
            let d = slot.get_or_insert_with(zstd::zstd_safe::DCtx::create);
            match dict {
                Some(dict) => d.decompress_using_dict(&mut bytes, raw, dict),
                None => d.decompress(&mut bytes, raw),
            }
        })
        .map_err(|code| corrupt(zstd::zstd_safe::get_error_name(code).to_string()))?;
    if bytes.len() != capacity {
        return Err(corrupt(format!("{} bytes, the index says {raw_len}", bytes.len())));
    }
    Ok(bytes)
}

/// Compressed bytes fed to the streaming decoder per call by [`decompress_prefix`]: zstd decodes a block once it
/// holds all of it, so once the prefix is out, at most the blocks that end within one such slice are decoded past it.
const PREFIX_FEED: usize = 4096;

/// The first `want` bytes (fewer when the frame is shorter) of zstd frame `raw`, whose content is `raw_len` bytes,
/// decoding only the blocks that hold them (a frame written by `Frame::with_lead` ends a block where its lead
/// ends). Errors as [`decompress_capped`].
pub(super) fn decompress_prefix(
    path: &str,
    raw: &[u8],
    raw_len: u64,
    what: &str,
    dict: Option<&[u8]>,
    want: usize,
) -> Result<Vec<u8>, BundleError> {
    use zstd::zstd_safe::{InBuffer, OutBuffer, ResetDirective};
    let corrupt = |why: String| BundleError::Corrupt { path: path.to_string(), what: format!("{what} ({why})") };
    let err = |code| corrupt(zstd::zstd_safe::get_error_name(code).to_string());
    match zstd::zstd_safe::get_frame_content_size(raw) {
        Ok(Some(n)) if n == raw_len => {}
        Ok(Some(n)) => return Err(corrupt(format!("{n} bytes, the index says {raw_len}"))),
        _ => return Err(corrupt("no zstd frame size".into())),
    }
    let whole = usize::try_from(raw_len).map_err(|_| corrupt(format!("{raw_len} bytes")))?;
    let want = whole.min(want);
    // zstd decodes straight into `out` (a stable output buffer must be able to hold the whole frame; only the
    // pages written are touched): without it the decoder allocated a window as large as the frame plus two
    // blocks (366 KB for Semi's Table document) and copied the lead out of it.
    let mut out: Vec<u8> = Vec::with_capacity(whole);
    DECOMPRESSOR.with(|cell| {
        let mut slot = cell.borrow_mut();
        let d = slot.get_or_insert_with(zstd::zstd_safe::DCtx::create);
        d.reset(ResetDirective::SessionAndParameters).map_err(err)?;
        d.set_parameter(zstd::zstd_safe::DParameter::StableOutBuffer(true)).map_err(err)?;
        if let Some(dict) = dict {
            d.load_dictionary(dict).map_err(err)?;
        }
        let mut output = OutBuffer::around(&mut out);
        let mut fed = 0;
        let result = loop {
            let end = raw.len().min(fed + PREFIX_FEED);
            let mut input = InBuffer::around(&raw[fed..end]);
            let before = output.pos();
            let left = match d.decompress_stream(&mut output, &mut input) {
                Ok(left) => left,
                Err(code) => break Err(err(code)),
            };
            if input.pos() == 0 && output.pos() == before {
                break Err(corrupt("the zstd frame stops decoding".into()));
            }
            fed += input.pos();
            // Done: the prefix is out, the frame ended, or the input ended (a short frame is caught below).
            if output.pos() >= want || left == 0 || fed == raw.len() {
                break Ok(());
            }
        };
        // The dictionary is not kept: the next frame may have none.
        let _ = d.reset(ResetDirective::SessionAndParameters);
        result
    })?;
    if out.len() < want {
        return Err(corrupt(format!("{} bytes where {want} were expected", out.len())));
    }
    out.truncate(want);
    Ok(out)
}
