//! The bundle file format: independently compressed frames behind a small index.
//!
//! ```text
//! offset  size  field                                         (all integers little-endian)
//!      0     8  MAGIC  = 89 'M' 'Y' 'D' 'B' 0D 0A 1A          PNG-style: catches text-mode and truncation damage
//!      8     2  format version (u16)                          OLDEST_SUPPORTED ..= FORMAT_VERSION
//!     10     2  flags (u16), 0                                any other value: written by a newer mydesign-docs
//!     12     4  reserved (u32), 0                             likewise
//!     16     8  index offset (u64)                            start of the index frame
//!     24     8  index length (u64)                            compressed bytes
//!     32     8  index raw length (u64)                        decompressed bytes, at most MAX_INDEX_BYTES
//!     40     8  index xxh3-64 (u64)                           of the compressed index bytes
//!     48     8  header xxh3-64 (u64)                          of bytes 0..48
//!     56     …  frames: each a zstd-compressed MessagePack value; then the index frame
//! ```
//! A frame may name another frame of the same bundle as its zstd dictionary ([`FrameEntry::dict`], format 8): it is
//! compressed with that frame's decompressed bytes as raw-content dictionary, so text it shares with it (a translated
//! document's code, tables and prop names shared with the original) is stored once. Only one level: a dictionary
//! frame has no dictionary itself.
//! The index is a MessagePack [`Index`]: the bundle's [`Identity`] (who it is: system, version, key, encoding,
//! build id) and its `Vec<FrameEntry>` sorted by key, compressed with zstd. Each frame carries its own xxh3-64
//! (checked on every read, so a damaged frame is an error, never a wrong answer) and its uncompressed size (the
//! decompression capacity, capped by [`MAX_FRAME_BYTES`] and checked against the zstd frame header before anything
//! is allocated). The header checksum covers the index checksum, which covers every frame checksum: it is the cheap
//! fingerprint of the whole file that the manifest records per bundle and the reader compares on every open. The
//! whole-file checksum also lives in the manifest and is checked only by `verify`. Mirrored in `docs/format.md`.

use serde::{Deserialize, Serialize};

/// The words of [`BundleError::UnsupportedVersion`]'s message that say a bundle is of another format (not
/// damaged): what a message carried as text is recognised by.
pub const UNSUPPORTED_FORMAT: &str = "is not supported (this reader supports";

/// First 8 bytes of every bundle file.
pub const MAGIC: [u8; 8] = [0x89, b'M', b'Y', b'D', b'B', 0x0D, 0x0A, 0x1A];
/// Format version written by this build.
pub const FORMAT_VERSION: u16 = 14;
/// Oldest format version this reader accepts.
pub const OLDEST_SUPPORTED: u16 = 10;
/// The cut-point rule the stored token maps depend on (`Manifest::cut_rule`): where
/// [`crate::budget::cut_points`] cuts a text (line starts except blank lines and lines starting with `/`, word ends
/// inside lines over 1 KiB) and the compiler's finer cuts of segments over 64 tokens
/// ([`crate::budget::split_segment`]: boundaries both o200k and cl100k keep, else forced char-boundary cuts). The
/// reader recomputes the first at lookup time and sums counts stored per segment, so a set cut by another rule
/// would be served with wrong sizes: a reader refuses a manifest whose rule it does not know
/// ([`BundleError::UnknownCutRule`]). Change the rule → bump this (and [`FORMAT_VERSION`]).
pub const CUT_RULE: u16 = 1;
/// The first bytes of a trained zstd dictionary (`ZSTD_MAGIC_DICTIONARY`, little-endian): a frame dictionary
/// ([`FrameEntry::dict`]) is raw content, and one starting with these bytes would be read as a trained dictionary,
/// so the writer never makes one and the reader refuses it (MessagePack bytes of one value never start so).
pub const ZSTD_DICT_MAGIC: [u8; 4] = [0x37, 0xA4, 0x30, 0xEC];
/// Size of the fixed header in bytes.
pub const HEADER_LEN: usize = 56;
/// Largest uncompressed frame the reader will allocate for (256 MiB): a bigger claimed size means corruption.
pub const MAX_FRAME_BYTES: u64 = 256 << 20;
/// Largest decompressed index the reader will allocate for (64 MiB; Semi's largest is a few KiB).
pub const MAX_INDEX_BYTES: u64 = 64 << 20;

/// Byte offsets of the header fields.
pub(crate) mod offset {
    pub const VERSION: usize = 8;
    pub const FLAGS: usize = 10;
    pub const RESERVED: usize = 12;
    pub const INDEX_OFFSET: usize = 16;
    pub const INDEX_LEN: usize = 24;
    pub const INDEX_RAW_LEN: usize = 32;
    pub const INDEX_XXH3: usize = 40;
    pub const HEADER_XXH3: usize = 48;
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
    /// Key of the frame of this bundle whose decompressed bytes are this frame's zstd dictionary (raw content), or
    /// `None` (format 8). A document in another language than the component's default one names the default
    /// language's document (`doc/en-US` → `doc/zh-CN`): a translation repeats its original's code blocks, tables
    /// and prop names, which it then stores once (Semi: 217 KB, 8.5 % of its bundles). Reading such a frame reads
    /// and checks its dictionary frame first; that frame has no dictionary itself.
    pub dict: Option<String>,
    /// For a text frame stored with a lead (format 9), how its text is spliced from what it holds; `None` for every
    /// other frame. See [`Lead`].
    pub lead: Option<Lead>,
}

/// A text frame stored with a lead (format 9, [`FrameEntry::lead`]): the frame holds one MessagePack string
/// `lead ++ rest`, and its zstd frame ends a block right after the lead, so the lead is decoded alone without the
/// rest (`Bundle::get_lead`). The text is the lead with its `spans` replaced, in order, by the consecutive pieces
/// of `rest`. A document over the hide threshold is stored so: its lead is the placeholder view the reader serves
/// (`view::placeholder_view_layout`), its rest the hidden code blocks and tables, so a `doc` lookup decodes the
/// view's bytes (Semi's `table`: 29 KB of 230 KB) and never rebuilds it, and every byte of the document is still
/// stored once.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lead {
    /// Bytes of the lead (of the string's content, after its MessagePack header).
    pub bytes: u32,
    /// The replaced spans, flattened as `[lead start, lead end, rest bytes]` per span (byte offsets into the lead,
    /// ascending, not overlapping; the rest's pieces follow each other from its start).
    pub spans: Vec<u32>,
}

impl Lead {
    /// The spans as `(lead start, lead end, rest bytes)`.
    pub fn spans(&self) -> impl Iterator<Item = (u32, u32, u32)> + '_ {
        self.spans.chunks_exact(3).map(|s| (s[0], s[1], s[2]))
    }
}

/// Who a bundle is: stored in its index, checked by the reader against the manifest that names it, so a bundle
/// swapped with another, taken from another system or version, or counted with another encoding is an error.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Identity {
    /// Design-system name, as `Manifest.system`.
    pub system: String,
    /// Version, as `Manifest.version`.
    pub version: String,
    /// What the bundle holds: a component key (`ComponentEntry.key`, `_shared` for shared sources), or one of the
    /// set's own bundles `(manifest)`, `(changelog)`, `(search)` (parenthesised: no component key has parentheses).
    pub key: String,
    /// Token encoding of the stored counts, as `Manifest.encoding`.
    pub encoding: String,
    /// In `manifest.bundle`, the build that wrote it, as `Manifest.build_id`: a hash of the manifest's contents
    /// before the bundle list is added (so two builds of the same inputs have the same id, and any change gives
    /// another). In every other bundle 0 (format 7): a bundle's bytes then depend only on its own contents, so a
    /// rebuild keeps the unchanged ones (links them from the previous generation); the manifest pins each by size
    /// and header checksum, which the reader compares on every open.
    pub build_id: u64,
}

/// Identity key of the manifest bundle.
pub const MANIFEST_KEY: &str = "(manifest)";
/// Identity key of the changelog bundle.
pub const CHANGELOG_KEY: &str = "(changelog)";
/// Identity key of the search bundle.
pub const SEARCH_KEY: &str = "(search)";

/// The decoded index frame of a bundle.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Index {
    /// Who the bundle is.
    pub identity: Identity,
    /// Frames sorted by key.
    pub frames: Vec<FrameEntry>,
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
    /// The manifest's token maps were cut by a rule this reader does not know ([`CUT_RULE`]).
    #[error(
        "{path}: token counts were stored for cut rule {found}, this reader knows rule {CUT_RULE}: it was written by a newer mydesign-docs; upgrade mydesign-docs or rebuild with this version"
    )]
    UnknownCutRule {
        /// The manifest bundle.
        path: String,
        /// The rule in the manifest.
        found: u16,
    },
    /// Flags or reserved header bytes that this reader does not know.
    #[error(
        "{path}: header {what} is set, so it was written by a newer mydesign-docs; upgrade mydesign-docs or rebuild with this version"
    )]
    NewerWriter {
        /// The bundle file.
        path: String,
        /// Which field, with its value.
        what: String,
    },
    /// The bundle is intact but is not the one the manifest names (swapped, from another system, version, build
    /// or encoding).
    #[error(
        "{path}: this bundle is {found}, but the manifest expects {expected}; the set mixes bundles of different builds, copy the whole set again or rebuild"
    )]
    WrongBundle {
        /// The bundle file.
        path: String,
        /// What the manifest expects (field and value).
        expected: String,
        /// What the bundle says (same field).
        found: String,
    },
    /// A frame that the index does not have.
    #[error("{path}: no frame `{key}`; the bundle is incomplete, rebuild it")]
    MissingFrame {
        /// The bundle file.
        path: String,
        /// The key looked up.
        key: String,
    },
    /// A `manifest.bundle` of another set than its directory names (issue 26 §3: a foreign manifest copied into a
    /// set was served under its own name): the set is damaged, whichever side is right.
    #[error(
        "{path}: this manifest is set {found}, but its directory is named {named}; a set copied or renamed over another, copy the whole set again or rebuild"
    )]
    ForeignSet {
        /// The manifest file.
        path: String,
        /// `system@version` of the manifest.
        found: String,
        /// `system@version` of the directory's name.
        named: String,
    },
}
