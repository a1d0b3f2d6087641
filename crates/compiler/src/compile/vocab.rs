//! The o200k_base vocabulary in a form that loads in a few milliseconds, for incremental builds (issue 12 item 2).
//!
//! tiktoken-rs builds its `CoreBPE` from the vocabulary's base64 text on first use: it decodes 200k lines, fills
//! an encoder and a decoder map, clones and sorts every token and compiles and clones its regexes — most of a
//! one-document rebuild's CPU. A build with a cache writes the vocabulary it loaded that way, once, to the cache
//! directory ([`write`]); a later build reads that file ([`read_checked`], [`parse`]) into [`FastBpe`]: one read,
//! one checksum, one pass of bounds checks, and the hash table is the file itself; the pre-tokenizer is the same
//! pattern (`tiktoken_rs::O200K_BASE_PAT_STR`). [`FastBpe::count`] is the count `CoreBPE::encode_ordinary`
//! gives: the same pieces, a piece that is a token counts 1, others are merged pair by pair, lowest rank first
//! and leftmost among equals (the rule of tiktoken's merge loops), with a heap so a long piece costs `n log n`.
//!
//! File layout (all little-endian): `MAGIC` (8 bytes), the xxh3-64 of the rest (8), the key (8: the tool's
//! version, the bundle format's and the encoding, [`key`]), the token count (4), the table's slots (4, a power of
//! two), the table (4 per slot: 0 empty, else 1 + an entry's index; a token's first slot is its xxh3-64 modulo
//! the slots, then the next ones), the entries in rank order (12 each: offset and length of the token's bytes,
//! rank), the tokens' bytes. xxh3-64 is fixed by its specification, so the table does not depend on a hash
//! crate's version. A file whose magic, checksum, key or layout does not check is not used (a note; rewritten).

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::path::Path;

use xxhash_rust::xxh3::{Xxh3, xxh3_64};

/// First bytes of a vocabulary file (the last byte is the layout's version).
const MAGIC: &[u8; 8] = b"MDDVOCB2";

/// The only encoding with a fast form: the default one, whose pre-tokenizer pattern tiktoken-rs exports.
pub const ENCODING: &str = "o200k_base";

/// The vocabulary file of [`ENCODING`] in cache directory `dir`.
pub fn file_in(dir: &Path) -> std::path::PathBuf {
    dir.join(format!("vocabulary-{ENCODING}.bin"))
}

/// The key a vocabulary file is written under: the tool's version and the bundle format's (a tool with another
/// tiktoken-rs is another version) and the encoding's name.
fn key() -> u64 {
    let mut h = Xxh3::new();
    h.update(env!("CARGO_PKG_VERSION").as_bytes());
    h.update(&crate::bundle::format::FORMAT_VERSION.to_le_bytes());
    h.update(ENCODING.as_bytes());
    h.digest()
}

/// A byte-pair encoder that counts tokens as tiktoken's `CoreBPE::encode_ordinary` does (see the module). The
/// vocabulary is the file's bytes as read: an open-addressing table (xxh3-64 of the token, linear probing) over
/// (offset, length, rank) entries and the tokens' bytes, checked once when read ([`parse`]), never rebuilt.
pub struct FastBpe {
    bytes: Vec<u8>,
    /// Slots of the table (a power of two, more than the tokens: probing always meets an empty slot).
    slots: usize,
    /// Where the table (`slots` × u32: 0 empty, else 1 + the entry's index) starts.
    table_at: usize,
    /// Where the entries (u32 offset into the tokens' bytes, u32 length, u32 rank) start.
    entries_at: usize,
    /// Where the tokens' bytes start.
    blob_at: usize,
    regex: fancy_regex::Regex,
}

/// The u32 at byte `at` of `bytes` (0 past the end: [`parse`] checked every offset read).
fn u32_at(bytes: &[u8], at: usize) -> u32 {
    bytes.get(at..at + 4).map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

impl FastBpe {
    /// Tokens in `text`; `None` when the pre-tokenizer fails on it (its backtracking limit), where the caller
    /// counts with tiktoken instead.
    pub fn count(&self, text: &str) -> Option<u32> {
        let mut n = 0u32;
        for piece in self.regex.find_iter(text) {
            n += self.piece(piece.ok()?.as_str().as_bytes());
        }
        Some(n)
    }

    /// The rank of token `token`, `None` when it is not one.
    fn rank(&self, token: &[u8]) -> Option<u32> {
        let mask = self.slots - 1;
        let mut slot = xxh3_64(token) as usize & mask;
        loop {
            let e = u32_at(&self.bytes, self.table_at + 4 * slot) as usize;
            if e == 0 {
                return None;
            }
            let at = self.entries_at + 12 * (e - 1);
            let (offset, len) = (u32_at(&self.bytes, at) as usize, u32_at(&self.bytes, at + 4) as usize);
            let start = self.blob_at + offset;
            if self.bytes.get(start..start + len) == Some(token) {
                return Some(u32_at(&self.bytes, at + 8));
            }
            slot = (slot + 1) & mask;
        }
    }

    /// Tokens of one piece of the pre-tokenizer.
    fn piece(&self, piece: &[u8]) -> u32 {
        if piece.len() <= 1 || self.rank(piece).is_some() {
            return piece.len().min(1) as u32;
        }
        let len = piece.len();
        let rank = |a: usize, b: usize| self.rank(&piece[a..b]);
        // Parts as a linked list of start offsets: `next[s]` ends the part starting at `s`, `prev[s]` starts the
        // part before it; `alive[s]`: a part starts at `s`.
        let mut next: Vec<usize> = (1..=len).collect();
        let mut prev: Vec<usize> = (0..len).map(|i| i.wrapping_sub(1)).collect();
        let mut alive = vec![true; len];
        // Candidate merges (rank, start of the left part, end of the right part): the smallest rank first, then
        // the leftmost. An entry is stale once its left part is gone or its pair no longer ends at `end`.
        let mut heap: BinaryHeap<Reverse<(u32, usize, usize)>> = BinaryHeap::with_capacity(len);
        for i in 0..len - 1 {
            if let Some(r) = rank(i, i + 2) {
                heap.push(Reverse((r, i, i + 2)));
            }
        }
        let mut parts = len as u32;
        while let Some(Reverse((_, s, end))) = heap.pop() {
            let mid = next[s];
            if !alive[s] || mid >= len || next[mid] != end {
                continue;
            }
            next[s] = end;
            alive[mid] = false;
            parts -= 1;
            if end < len {
                prev[end] = s;
                if let Some(r) = rank(s, next[end]) {
                    heap.push(Reverse((r, s, next[end])));
                }
            }
            if s > 0 {
                let p = prev[s];
                if let Some(r) = rank(p, end) {
                    heap.push(Reverse((r, p, end)));
                }
            }
        }
        parts
    }
}

/// The vocabulary of `file`, when it is a vocabulary file of this tool (`Ok(None)`: there is none; `Err`: it is
/// damaged or of another version, with why): [`read_checked`] then [`parse`].
#[cfg(test)]
pub fn read(file: &Path) -> Result<Option<FastBpe>, String> {
    read_checked(file)?.map(parse).transpose()
}

/// The bytes of `file` when its magic, checksum and key check (`Ok(None)`: there is none; `Err`: why not).
pub fn read_checked(file: &Path) -> Result<Option<Vec<u8>>, String> {
    let bytes = match std::fs::read(file) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("unreadable: {e}")),
    };
    if bytes.len() < 32 || &bytes[..8] != MAGIC {
        return Err("not a vocabulary file of this version".into());
    }
    let le64 = |b: &[u8]| u64::from_le_bytes(b.try_into().unwrap_or_default());
    if xxh3_64(&bytes[16..]) != le64(&bytes[8..16]) {
        return Err("checksum mismatch".into());
    }
    if le64(&bytes[16..24]) != key() {
        return Err("written by another version of the tool".into());
    }
    Ok(Some(bytes))
}

/// The vocabulary in `bytes` (a file [`read_checked`] accepted), its table and entries checked: every table
/// value names an entry, every entry's bytes are in the file.
pub fn parse(bytes: Vec<u8>) -> Result<FastBpe, String> {
    let count = u32_at(&bytes, 24) as usize;
    let slots = u32_at(&bytes, 28) as usize;
    if bytes.len() < 32 || !slots.is_power_of_two() || slots <= count {
        return Err("malformed".into());
    }
    let table_at = 32;
    let entries_at = table_at + 4 * slots;
    let blob_at = entries_at + 12 * count;
    let blob_len = bytes.len().checked_sub(blob_at).ok_or("truncated")?;
    if (0..slots).any(|i| u32_at(&bytes, table_at + 4 * i) as usize > count) {
        return Err("malformed table".into());
    }
    let outside = |i: usize| {
        let (offset, len) = (u32_at(&bytes, entries_at + 12 * i) as usize, u32_at(&bytes, entries_at + 12 * i + 4));
        offset.checked_add(len as usize).is_none_or(|end| end > blob_len)
    };
    if (0..count).any(outside) {
        return Err("malformed entries".into());
    }
    let regex = fancy_regex::Regex::new(tiktoken_rs::O200K_BASE_PAT_STR).map_err(|e| e.to_string())?;
    Ok(FastBpe { bytes, slots, table_at, entries_at, blob_at, regex })
}

/// Writes the ordinary tokens of `bpe` (its vocabulary, special tokens left out: `encode_ordinary` never makes
/// them) as the vocabulary file `file`, through a temporary file and a rename.
///
/// # Errors
/// Any I/O error.
pub fn write(bpe: &tiktoken_rs::CoreBPE, file: &Path) -> std::io::Result<()> {
    let special: Vec<u32> = bpe.special_tokens().iter().flat_map(|s| bpe.encode_with_special_tokens(s)).collect();
    let mut tokens: Vec<(u32, Vec<u8>)> = Vec::with_capacity(200_000);
    // Ranks are dense from 0; the loop goes well past the last one (o200k_base: 199,997 ordinary tokens).
    let mut missing = 0;
    for rank in 0u32.. {
        if missing > 4096 {
            break;
        }
        let Ok(token) = bpe.decode_bytes(&[rank]) else {
            missing += 1;
            continue;
        };
        missing = 0;
        if !special.contains(&rank) {
            tokens.push((rank, token));
        }
    }
    let count = tokens.len();
    let slots = (count * 2).next_power_of_two();
    let mut table = vec![0u32; slots];
    let mut entries = Vec::with_capacity(12 * count);
    let mut blob = Vec::new();
    for (i, (rank, token)) in tokens.iter().enumerate() {
        let mut slot = xxh3_64(token) as usize & (slots - 1);
        while table[slot] != 0 {
            slot = (slot + 1) & (slots - 1);
        }
        table[slot] = i as u32 + 1;
        entries.extend_from_slice(&(blob.len() as u32).to_le_bytes());
        entries.extend_from_slice(&(token.len() as u32).to_le_bytes());
        entries.extend_from_slice(&rank.to_le_bytes());
        blob.extend_from_slice(token);
    }
    let mut body = Vec::with_capacity(16 + 4 * slots + entries.len() + blob.len());
    body.extend_from_slice(&key().to_le_bytes());
    body.extend_from_slice(&(count as u32).to_le_bytes());
    body.extend_from_slice(&(slots as u32).to_le_bytes());
    table.iter().for_each(|e| body.extend_from_slice(&e.to_le_bytes()));
    body.extend_from_slice(&entries);
    body.extend_from_slice(&blob);
    super::cache::write_sealed(file, MAGIC, &body)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// tiktoken's o200k_base and the fast form written from it and read back.
    fn both() -> (&'static tiktoken_rs::CoreBPE, &'static FastBpe) {
        static FAST: std::sync::OnceLock<FastBpe> = std::sync::OnceLock::new();
        let bpe = tiktoken_rs::o200k_base_singleton();
        let fast = FAST.get_or_init(|| {
            let dir = tempfile::tempdir().unwrap();
            write(bpe, &file_in(dir.path())).unwrap();
            read(&file_in(dir.path())).unwrap().expect("the file just written")
        });
        (bpe, fast)
    }

    fn assert_same(text: &str, what: &str) {
        let (bpe, fast) = both();
        assert_eq!(
            fast.count(text),
            Some(bpe.encode_ordinary(text).len() as u32),
            "{what}: {:?}",
            &text[..text.len().min(80)]
        );
    }

    #[test]
    fn the_file_holds_every_ordinary_token() {
        let (bpe, fast) = both();
        // o200k_base: 199,998 ordinary ranks (0..=199,997); its special tokens are not in the file.
        let count = u32_at(&fast.bytes, 24);
        assert_eq!(count, 199_998);
        for rank in [0, 1, 1000, 199_997] {
            let token = bpe.decode_bytes(&[rank]).unwrap();
            assert_eq!(fast.rank(&token), Some(rank));
        }
        assert_eq!(fast.rank(b"<|endoftext|>"), None);
        assert_eq!(fast.rank(b"not a token at all, surely"), None);
    }

    #[test]
    fn counts_are_tiktokens_on_words_code_cjk_and_long_pieces() {
        let texts = [
            String::new(),
            "hello world".into(),
            "<|endoftext|> is text here".into(),
            "don't stop\nit's\n'quoted' WE'LL see\r\n\r\n".into(),
            "表格组件用于展示多条结构类似的数据，可对数据进行排序、筛选。".repeat(20),
            "function a(b,c){return b+c}var d=a(1,2);".repeat(50),
            // Long pieces: merged with the heap (tiktoken's large-piece loop).
            "=".repeat(5000),
            " ".repeat(3000) + "x",
            "\n".repeat(2000),
            (0..20_000u32).map(|i| char::from(b"0123456789abcdef"[(i * 7919 % 16) as usize])).collect(),
            "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
                .into(),
            "ééééééééé😀😀😀 ̀ ̀ naïve Ünïcödé ½ ⅞ ①②".into(),
        ];
        for (i, text) in texts.iter().enumerate() {
            assert_same(text, &format!("text {i}"));
        }
    }

    /// Every file of the sample design system, and of the real corpora when they are assembled.
    #[test]
    fn counts_are_tiktokens_on_the_corpora() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus");
        let mut dirs = vec![root];
        match std::env::var_os("MYDESIGN_REAL_CORPUS") {
            Some(real) => dirs.push(real.into()),
            None => eprintln!("skipped the real corpora: MYDESIGN_REAL_CORPUS is not set"),
        }
        let mut files = 0;
        while let Some(dir) = dirs.pop() {
            for e in std::fs::read_dir(&dir).unwrap().filter_map(Result::ok) {
                let path = e.path();
                if path.is_dir() {
                    dirs.push(path);
                } else if let Ok(text) = std::fs::read_to_string(&path) {
                    assert_same(&text, &path.display().to_string());
                    files += 1;
                }
            }
        }
        assert!(files > 20, "{files} files");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        #[test]
        fn counts_are_tiktokens_on_any_text(text in "[a-c ='é表\\n\\t.0-9A-Z_]{0,400}") {
            assert_same(&text, "generated");
        }

        #[test]
        fn counts_are_tiktokens_on_long_runs(unit in "[=a-b .\\n]{1,3}", n in 30usize..600) {
            assert_same(&unit.repeat(n), "run");
        }
    }

    #[test]
    fn a_damaged_or_foreign_file_is_refused() {
        let (bpe, _) = both();
        let dir = tempfile::tempdir().unwrap();
        let file = file_in(dir.path());
        assert!(read(&file).unwrap().is_none(), "no file: no vocabulary, no error");
        write(bpe, &file).unwrap();
        let good = std::fs::read(&file).unwrap();
        let mut flipped = good.clone();
        let at = flipped.len() / 2;
        flipped[at] ^= 1;
        std::fs::write(&file, &flipped).unwrap();
        assert_eq!(read(&file).err().as_deref(), Some("checksum mismatch"));
        std::fs::write(&file, &good[..100]).unwrap();
        assert_eq!(read(&file).err().as_deref(), Some("checksum mismatch"));
        std::fs::write(&file, b"not a vocabulary at all, but long enough").unwrap();
        assert_eq!(read(&file).err().as_deref(), Some("not a vocabulary file of this version"));
        // Checksummed but inconsistent (a bug, not a disk error): refused by the layout checks.
        let sealed = |mut bytes: Vec<u8>| {
            let sum = xxh3_64(&bytes[16..]);
            bytes[8..16].copy_from_slice(&sum.to_le_bytes());
            std::fs::write(&file, bytes).unwrap();
        };
        let mut odd_slots = good.clone();
        odd_slots[28] ^= 1;
        sealed(odd_slots);
        assert_eq!(read(&file).err().as_deref(), Some("malformed"));
        let mut bad_entry = good.clone();
        let slots = u32_at(&good, 28) as usize;
        let entries_at = 32 + 4 * slots;
        bad_entry[entries_at + 4..entries_at + 8].copy_from_slice(&u32::MAX.to_le_bytes());
        sealed(bad_entry);
        assert_eq!(read(&file).err().as_deref(), Some("malformed entries"));
        let mut bad_table = good.clone();
        let used = (0..slots).find(|&i| u32_at(&good, 32 + 4 * i) != 0).unwrap();
        bad_table[32 + 4 * used..36 + 4 * used].copy_from_slice(&u32::MAX.to_le_bytes());
        sealed(bad_table);
        assert_eq!(read(&file).err().as_deref(), Some("malformed table"));
        sealed(good);
        assert!(read(&file).unwrap().is_some(), "the good file, re-sealed, reads");
    }
}
