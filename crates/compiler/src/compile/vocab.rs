//! The o200k_base vocabulary in a form that loads in a few milliseconds, for incremental builds (issue 12 item 2).
//!
//! tiktoken-rs builds its `CoreBPE` from the vocabulary's base64 text on first use: it decodes 200k lines, fills
//! an encoder and a decoder map, clones and sorts every token and compiles and clones its regexes — most of a
//! one-document rebuild's CPU. A build with a cache writes the vocabulary it loaded that way, once, to the cache
//! directory ([`write`]); a later build reads that file ([`read`]) into [`FastBpe`]: one read, one checksum, one
//! hash table (FxHash, as tiktoken's) over slices of the file (no allocation per token), and the same pre-tokenizer pattern
//! (`tiktoken_rs::O200K_BASE_PAT_STR`). [`FastBpe::count`] is the count `CoreBPE::encode_ordinary` gives: the
//! same pieces, a piece that is a token counts 1, others are merged pair by pair, lowest rank first and leftmost
//! among equals (the rule of tiktoken's merge loops), with a heap so a long piece costs `n log n`.
//!
//! File layout (all little-endian): `MAGIC` (8 bytes), the xxh3-64 of the rest (8), the key (8: the tool's
//! version, the bundle format's and the encoding, [`key`]), the token count (4), then per token its rank (4), its
//! length in bytes (2) and its bytes. A file whose magic, checksum, key or layout does not check is not used.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::path::Path;

use rustc_hash::FxHashMap;
use xxhash_rust::xxh3::{Xxh3, xxh3_64};

/// First bytes of a vocabulary file (the last byte is the layout's version).
const MAGIC: &[u8; 8] = b"MDDVOCB1";

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

/// A byte-pair encoder that counts tokens as tiktoken's `CoreBPE::encode_ordinary` does (see the module).
pub struct FastBpe {
    /// Token bytes (slices of the leaked file) → rank.
    ranks: FxHashMap<&'static [u8], u32>,
    regex: fancy_regex::Regex,
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

    /// Tokens of one piece of the pre-tokenizer.
    fn piece(&self, piece: &[u8]) -> u32 {
        if piece.len() <= 1 || self.ranks.contains_key(piece) {
            return piece.len().min(1) as u32;
        }
        let len = piece.len();
        let rank = |a: usize, b: usize| self.ranks.get(&piece[a..b]).copied();
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
    if bytes.len() < 28 || &bytes[..8] != MAGIC {
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

/// The vocabulary in `bytes` (a file [`read_checked`] accepted).
pub fn parse(bytes: Vec<u8>) -> Result<FastBpe, String> {
    if bytes.len() < 28 {
        return Err("truncated".into());
    }
    // The tokens are slices of the file for the life of the process (the counter is made once per process).
    let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
    let count = u32::from_le_bytes(bytes[24..28].try_into().unwrap_or_default()) as usize;
    let mut ranks = FxHashMap::with_capacity_and_hasher(count.min(1 << 20), Default::default());
    let mut at = 28;
    for _ in 0..count {
        let head = bytes.get(at..at + 6).ok_or("truncated")?;
        let rank = u32::from_le_bytes([head[0], head[1], head[2], head[3]]);
        let len = usize::from(u16::from_le_bytes([head[4], head[5]]));
        let token = bytes.get(at + 6..at + 6 + len).ok_or("truncated")?;
        ranks.insert(token, rank);
        at += 6 + len;
    }
    if at != bytes.len() || ranks.len() != count {
        return Err("malformed".into());
    }
    let regex = fancy_regex::Regex::new(tiktoken_rs::O200K_BASE_PAT_STR).map_err(|e| e.to_string())?;
    Ok(FastBpe { ranks, regex })
}

/// Writes the ordinary tokens of `bpe` (its vocabulary, special tokens left out: `encode_ordinary` never makes
/// them) as the vocabulary file `file`, through a temporary file and a rename.
///
/// # Errors
/// Any I/O error.
pub fn write(bpe: &tiktoken_rs::CoreBPE, file: &Path) -> std::io::Result<()> {
    let special: Vec<u32> = bpe.special_tokens().iter().flat_map(|s| bpe.encode_with_special_tokens(s)).collect();
    let mut body = Vec::with_capacity(3 << 20);
    body.extend_from_slice(&key().to_le_bytes());
    body.extend_from_slice(&0u32.to_le_bytes());
    let mut count = 0u32;
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
        if special.contains(&rank) {
            continue;
        }
        let len = u16::try_from(token.len()).map_err(std::io::Error::other)?;
        body.extend_from_slice(&rank.to_le_bytes());
        body.extend_from_slice(&len.to_le_bytes());
        body.extend_from_slice(&token);
        count += 1;
    }
    body[8..12].copy_from_slice(&count.to_le_bytes());
    let mut bytes = Vec::with_capacity(body.len() + 16);
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&xxh3_64(&body).to_le_bytes());
    bytes.extend_from_slice(&body);
    if let Some(dir) = file.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let tmp = file.with_extension(format!("tmp-{}", std::process::id()));
    std::fs::write(&tmp, &bytes)?;
    std::fs::rename(&tmp, file)
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
        let (_, fast) = both();
        // o200k_base: 199,998 ordinary ranks (0..=199,997); its special tokens are not in the file.
        assert_eq!(fast.ranks.len(), 199_998);
        assert_eq!(fast.ranks.values().max(), Some(&199_997));
        assert!(!fast.ranks.contains_key(b"<|endoftext|>".as_slice()));
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
    }
}
