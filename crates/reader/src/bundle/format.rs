//! The bundle file format: independently compressed frames behind a small index.
//!
//! ```text
//! offset  size  field                                         (all integers little-endian)
//!      0     8  MAGIC  = 89 'M' 'Y' 'D' 'B' 0D 0A 1A          PNG-style: catches text-mode and truncation damage
//!      8     2  format version (u16)                          OLDEST_SUPPORTED ..= FORMAT_VERSION
//!     10     2  flags (u16), 0
//!     12     4  reserved (u32), 0
//!     16     8  index offset (u64)                            start of the index frame
//!     24     8  index length (u64)                            compressed bytes
//!     32     8  index xxh3-64 (u64)                           of the compressed index bytes
//!     40     8  header xxh3-64 (u64)                          of bytes 0..40
//!     48     …  frames: each a zstd-compressed MessagePack value; then the index frame
//! ```
//! The index is a MessagePack `Vec<FrameEntry>` sorted by key, compressed with zstd. Each frame carries its own
//! xxh3-64 (checked on every read, so a damaged frame is an error, never a wrong answer) and its uncompressed size
//! (the decompression capacity, capped by [`MAX_FRAME_BYTES`]). The whole-file checksum lives in the manifest and
//! is checked only by `verify`. Mirrored in `docs/format.md`.

use serde::{Deserialize, Serialize};

/// First 8 bytes of every bundle file.
pub const MAGIC: [u8; 8] = [0x89, b'M', b'Y', b'D', b'B', 0x0D, 0x0A, 0x1A];
/// Format version written by this build.
pub const FORMAT_VERSION: u16 = 5;
/// Oldest format version this reader accepts.
pub const OLDEST_SUPPORTED: u16 = 4;
/// Size of the fixed header in bytes.
pub const HEADER_LEN: usize = 48;
/// Largest uncompressed frame the reader will allocate for (256 MiB): a bigger claimed size means corruption.
pub const MAX_FRAME_BYTES: u64 = 256 << 20;

/// Byte offsets of the header fields.
pub(crate) mod offset {
    pub const VERSION: usize = 8;
    pub const FLAGS: usize = 10;
    pub const INDEX_OFFSET: usize = 16;
    pub const INDEX_LEN: usize = 24;
    pub const INDEX_XXH3: usize = 32;
    pub const HEADER_XXH3: usize = 40;
}

/// One frame in a bundle's index.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FrameEntry {
    /// Frame key, e.g. `doc/zh-CN` (see `model::keys`).
    pub key: String,
    /// Byte offset of the compressed frame in the file.
    pub offset: u64,
    /// Compressed length in bytes.
    pub len: u64,
    /// Uncompressed (MessagePack) length in bytes.
    pub raw_len: u64,
    /// xxh3-64 of the compressed bytes.
    pub xxh3: u64,
}

/// Everything that can be wrong with a bundle file. Each message ends with what to do about it.
#[derive(Debug, thiserror::Error)]
pub enum BundleError {
    /// The file could not be opened or mapped (a missing bundle: the set is incomplete).
    #[error("{path}: {error}; the bundle set is incomplete or unreadable, copy it again or rebuild")]
    Io {
        /// The bundle file.
        path: String,
        /// The OS error (shown in the message, not chained, so it is not printed twice).
        error: std::io::Error,
    },
    /// The file does not start with [`MAGIC`].
    #[error("{path}: not a mydesign-docs bundle (bad magic); rebuild with `mydesign-docs build`")]
    NotABundle {
        /// The bundle file.
        path: String,
    },
    /// Written by a newer or too old mydesign-docs.
    #[error(
        "{path}: bundle format {found} is not supported (this reader supports {OLDEST_SUPPORTED}..={FORMAT_VERSION}); rebuild with this version of mydesign-docs"
    )]
    UnsupportedVersion {
        /// The bundle file.
        path: String,
        /// The version in the header.
        found: u16,
    },
    /// Shorter than its header or index says.
    #[error("{path}: truncated ({what}); copy the bundle again or rebuild")]
    Truncated {
        /// The bundle file.
        path: String,
        /// Which part is missing.
        what: String,
    },
    /// A checksum does not match.
    #[error("{path}: checksum mismatch in {what}; the file is damaged, copy it again or rebuild")]
    ChecksumMismatch {
        /// The bundle file.
        path: String,
        /// Which part.
        what: String,
    },
    /// Structurally invalid content.
    #[error("{path}: corrupt {what}; rebuild with `mydesign-docs build`")]
    Corrupt {
        /// The bundle file.
        path: String,
        /// What is wrong.
        what: String,
    },
    /// A frame that the index does not have.
    #[error("{path}: no frame `{key}`; the bundle is incomplete, rebuild it")]
    MissingFrame {
        /// The bundle file.
        path: String,
        /// The key looked up.
        key: String,
    },
}
