//! Frames that are MessagePack maps, read by key ([`KeyedFrame`]: the map's keys indexed without decoding its
//! values), and the bounded walk over MessagePack bytes that indexes them; the string headers of text frames.

use serde::de::DeserializeOwned;

use super::format::BundleError;

/// A decompressed frame holding a MessagePack map from string keys to values
/// ([`Bundle::get_keyed`](super::Bundle::get_keyed)): the bytes
/// and, per key, where its value's bytes are. Values are decoded on demand.
pub struct KeyedFrame {
    pub(super) path: String,
    pub(super) frame: String,
    pub(super) bytes: Vec<u8>,
    /// (key, value's byte range), sorted by key; of a key written twice, the last value (as a map decodes).
    pub(super) keys: Vec<(String, std::ops::Range<usize>)>,
}

impl KeyedFrame {
    /// Decodes the value of `key`; `None` when the map has no such key.
    ///
    /// # Errors
    /// `Corrupt` when the value does not decode as `T`.
    pub fn get<T: DeserializeOwned>(&self, key: &str) -> Option<Result<T, BundleError>> {
        let i = self.keys.binary_search_by(|(k, _)| k.as_str().cmp(key)).ok()?;
        let bytes = &self.bytes[self.keys[i].1.clone()];
        Some(rmp_serde::from_slice(bytes).map_err(|err| BundleError::Corrupt {
            path: self.path.clone(),
            what: format!("frame `{}` at `{key}` ({err})", self.frame),
        }))
    }

    /// How many keys the map has.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether the map is empty.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }
}

/// Deepest nesting [`skip_value`] follows: far more than any frame's shapes, and a bound on the recursion.
const MAX_DEPTH: u32 = 64;

/// Big-endian unsigned integer of `n` bytes at `at`.
fn be_at(bytes: &[u8], at: usize, n: usize) -> Option<usize> {
    let b = bytes.get(at..at.checked_add(n)?)?;
    Some(b.iter().fold(0usize, |acc, &x| (acc << 8) | usize::from(x)))
}

/// Where the MessagePack value starting at `at` ends (exclusive), without decoding it; `None` when the bytes do not
/// hold one whole value (or nest deeper than [`MAX_DEPTH`]). Never reads out of bounds.
fn skip_value(bytes: &[u8], at: usize, depth: u32) -> Option<usize> {
    let m = *bytes.get(at)?;
    let after = |n: usize| at.checked_add(n).filter(|&end| end <= bytes.len());
    // (header bytes, payload bytes) for scalars, strings, binaries and extensions; arrays and maps loop below.
    let (items, header) = match m {
        0x00..=0x7f | 0xc0 | 0xc2 | 0xc3 | 0xe0..=0xff => return after(1),
        0x80..=0x8f => (2 * usize::from(m & 0x0f), 1),
        0x90..=0x9f => (usize::from(m & 0x0f), 1),
        0xa0..=0xbf => return after(1 + usize::from(m & 0x1f)),
        0xc4 | 0xd9 => return after(2 + be_at(bytes, at + 1, 1)?),
        0xc5 | 0xda => return after(3 + be_at(bytes, at + 1, 2)?),
        0xc6 | 0xdb => return after(5usize.checked_add(be_at(bytes, at + 1, 4)?)?),
        0xc7 => return after(3 + be_at(bytes, at + 1, 1)?),
        0xc8 => return after(4 + be_at(bytes, at + 1, 2)?),
        0xc9 => return after(6usize.checked_add(be_at(bytes, at + 1, 4)?)?),
        0xca | 0xce | 0xd2 => return after(5),
        0xcb | 0xcf | 0xd3 => return after(9),
        0xcc | 0xd0 => return after(2),
        0xcd | 0xd1 => return after(3),
        0xd4 => return after(3),
        0xd5 => return after(4),
        0xd6 => return after(6),
        0xd7 => return after(10),
        0xd8 => return after(18),
        0xdc => (be_at(bytes, at + 1, 2)?, 3),
        0xdd => (be_at(bytes, at + 1, 4)?, 5),
        0xde => (2 * be_at(bytes, at + 1, 2)?, 3),
        0xdf => (2usize.checked_mul(be_at(bytes, at + 1, 4)?)?, 5),
        0xc1 => return None,
    };
    if depth >= MAX_DEPTH {
        return None;
    }
    let mut pos = after(header)?;
    // Every item takes at least one byte: a count larger than the bytes left fails at the end of the bytes. Integers
    // (the token maps are lists of them) are stepped over here, without a call each.
    for _ in 0..items {
        pos = match *bytes.get(pos)? {
            0x00..=0x7f | 0xc0 | 0xc2 | 0xc3 | 0xe0..=0xff => pos + 1,
            0xcc | 0xd0 => pos + 2,
            0xcd | 0xd1 => pos + 3,
            0xce | 0xd2 => pos + 5,
            _ => skip_value(bytes, pos, depth + 1)?,
        };
    }
    (pos <= bytes.len()).then_some(pos)
}

/// The keys of the MessagePack map of string keys that fills `bytes`, with their values' byte ranges, sorted by
/// key (the last of a repeated key kept); `None` when `bytes` are not exactly one such map.
pub(super) fn index_map(bytes: &[u8]) -> Option<Vec<(String, std::ops::Range<usize>)>> {
    let m = *bytes.first()?;
    let (n, mut pos) = match m {
        0x80..=0x8f => (usize::from(m & 0x0f), 1),
        0xde => (be_at(bytes, 1, 2)?, 3),
        0xdf => (be_at(bytes, 1, 4)?, 5),
        _ => return None,
    };
    let mut keys = Vec::with_capacity(n.min(bytes.len() / 2));
    for _ in 0..n {
        let header = str_prefix(bytes.get(pos..)?)?;
        let key_end = skip_value(bytes, pos, 0)?;
        let key = std::str::from_utf8(&bytes[pos + header..key_end]).ok()?.to_string();
        let end = skip_value(bytes, key_end, 0)?;
        keys.push((key, key_end..end));
        pos = end;
    }
    if pos != bytes.len() {
        return None;
    }
    // Stable sort, then keep the last of each run of equal keys.
    keys.sort_by(|a, b| a.0.cmp(&b.0));
    let mut out: Vec<(String, std::ops::Range<usize>)> = Vec::with_capacity(keys.len());
    for k in keys {
        match out.last_mut() {
            Some(last) if last.0 == k.0 => *last = k,
            _ => out.push(k),
        }
    }
    Some(out)
}

/// The length of the MessagePack string header at the start of `bytes` (any string, whatever follows it: its
/// content may go on past them).
pub(super) fn str_prefix(bytes: &[u8]) -> Option<usize> {
    match *bytes.first()? {
        0xa0..=0xbf => Some(1),
        0xd9 => Some(2),
        0xda => Some(3),
        0xdb => Some(5),
        _ => None,
    }
}

/// The length of the MessagePack string header (fixstr, str8, str16 or str32) at the start of `bytes` when the
/// string it announces ends exactly at the end of `bytes`; `None` for anything else.
pub(super) fn str_header(bytes: &[u8]) -> Option<usize> {
    let be = |n: usize| bytes.get(1..1 + n).map(|b| b.iter().fold(0usize, |acc, &x| (acc << 8) | usize::from(x)));
    let (header, len): (usize, usize) = match *bytes.first()? {
        m @ 0xa0..=0xbf => (1, usize::from(m & 0x1f)),
        0xd9 => (2, be(1)?),
        0xda => (3, be(2)?),
        0xdb => (5, be(4)?),
        _ => return None,
    };
    (header.checked_add(len)? == bytes.len()).then_some(header)
}

#[cfg(test)]
mod tests {
    use super::*;

    type TokenMapsLike = std::collections::BTreeMap<String, u32>;

    #[test]
    fn the_map_index_never_reads_past_its_bytes() {
        let mut maps = TokenMapsLike::new();
        for i in 0..20 {
            maps.insert(format!("k{i}"), i * 1000);
        }
        let good = rmp_serde::to_vec(&maps).unwrap();
        assert_eq!(index_map(&good).map(|k| k.len()), Some(20));
        // Every truncation is refused; every flipped byte is refused or indexes whole values.
        for n in 0..good.len() {
            assert_eq!(index_map(&good[..n]), None, "{n} bytes");
        }
        for i in 0..good.len() {
            for x in [0x01, 0x5a, 0xff] {
                let mut bad = good.clone();
                bad[i] ^= x;
                if let Some(keys) = index_map(&bad) {
                    assert!(
                        keys.iter().all(|(_, r)| r.end <= bad.len() && skip_value(&bad, r.start, 0) == Some(r.end))
                    );
                }
            }
        }
        // Huge counts with few bytes, and nesting past the depth bound.
        assert_eq!(skip_value(&[0xdd, 0xff, 0xff, 0xff, 0xff, 0x01], 0, 0), None);
        assert_eq!(skip_value(&[0xdf, 0xff, 0xff, 0xff, 0xff], 0, 0), None);
        assert_eq!(skip_value(&[0x91; 100], 0, 0), None);
        assert_eq!(skip_value(&[0x91, 0x91, 0x01], 0, 0), Some(3));
        assert_eq!(skip_value(&[0xc1], 0, 0), None);
    }
}
