//! The term dictionary of `search.bundle` ([`super::keys::DICTIONARY`]), checked before it is used.
//!
//! `fst::Set::new` reads only the fst's header and footer: a dictionary damaged inside, in a bundle whose frame
//! and file checksums were made to match (issue 26 §3), passed `verify` and `install` and then panicked in
//! `search` when a query walked a broken node. [`load`] holds it to what a sound fst is: its own checksum (crc32c,
//! fst format 3), and then every key reachable by a walk in strictly ascending order, as many as its header
//! says, each found again by a lookup (which reads the transition tables a walk does not). A walk or lookup that
//! panics on a malformed node is caught and reported as damage. Cost: one pass over the dictionary, when it is
//! first used (a "did you mean") and in `verify`.

use std::panic::{AssertUnwindSafe, catch_unwind};

use fst::{IntoStreamer, Streamer};

/// The dictionary in `raw`, or why it is not a sound fst set.
pub(crate) fn load(raw: Vec<u8>) -> Result<fst::Set<Vec<u8>>, String> {
    let set = fst::Set::new(raw).map_err(|e| format!("term dictionary: {}", short(&e)))?;
    set.as_fst().verify().map_err(|e| format!("term dictionary: {}", short(&e)))?;
    let walked = catch_unwind(AssertUnwindSafe(|| nodes(set.as_fst()).and_then(|()| walk(&set))));
    match walked {
        Ok(Ok(())) => Ok(set),
        Ok(Err(why)) => Err(format!("term dictionary: {why}")),
        Err(_) => Err("term dictionary: a node cannot be decoded".to_string()),
    }
}

/// fst's error in a few words (its own messages are paragraphs, or "FST error" for the outer type).
fn short(e: &fst::Error) -> String {
    use fst::raw::Error as Raw;
    match e {
        fst::Error::Fst(Raw::ChecksumMismatch { .. }) => "its checksum does not match its bytes".to_string(),
        fst::Error::Fst(Raw::ChecksumMissing) => "it has no checksum".to_string(),
        fst::Error::Fst(Raw::Format { size }) => format!("{size} bytes that are not an fst"),
        fst::Error::Fst(Raw::Version { got, .. }) => format!("fst format {got}, which this reader cannot read"),
        fst::Error::Fst(other) => other.to_string(),
        other => other.to_string(),
    }
}

/// Every node reachable from the root, each once: its transitions point to nodes written before it (lower
/// addresses, as fst writes children first), so no walk can loop; and a node without transitions is final, so every
/// path a walk starts ends in a key and a walk's work is bounded by the keys it yields.
fn nodes(fst: &fst::raw::Fst<Vec<u8>>) -> Result<(), String> {
    if fst.is_empty() {
        return Ok(());
    }
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![fst.root().addr()];
    while let Some(addr) = stack.pop() {
        if !seen.insert(addr) {
            continue;
        }
        let node = fst.node(addr);
        if node.is_empty() && !node.is_final() {
            return Err(format!("node {addr} leads to no key"));
        }
        for t in node.transitions() {
            if t.addr >= addr {
                return Err(format!("node {addr} points forward, to {}", t.addr));
            }
            stack.push(t.addr);
        }
    }
    Ok(())
}

/// Every key in ascending order, as many as the header says, each found by `contains`.
fn walk(set: &fst::Set<Vec<u8>>) -> Result<(), String> {
    let mut stream = set.into_stream();
    let mut previous: Option<Vec<u8>> = None;
    let mut count = 0usize;
    while let Some(key) = stream.next() {
        if previous.as_deref().is_some_and(|p| p >= key) {
            return Err(format!("keys out of order after {count}"));
        }
        count += 1;
        // A forged node can point back at an ancestor: the walk would never end.
        if count > set.len() {
            return Err(format!("more keys reachable than the {} its header says", set.len()));
        }
        previous = Some(key.to_vec());
        if !set.contains(key) {
            return Err(format!("key {count} is not found by a lookup"));
        }
    }
    if count != set.len() {
        return Err(format!("{count} keys reachable, the header says {}", set.len()));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Vec<u8> {
        fst::Set::from_iter(["apple", "banana", "table", "tabs", "tooltip"]).unwrap().into_fst().into_inner()
    }

    /// crc32c (Castagnoli, reflected), masked, as fst computes it over everything but its last 4 bytes.
    fn crc32c(bytes: &[u8]) -> u32 {
        let mut crc = !0u32;
        for &b in bytes {
            crc ^= u32::from(b);
            for _ in 0..8 {
                crc = if crc & 1 == 1 { (crc >> 1) ^ 0x82F6_3B78 } else { crc >> 1 };
            }
        }
        // fst keeps it "masked" (as Snappy frames do).
        (!crc).rotate_right(15).wrapping_add(0xA282_EAD8)
    }

    /// `raw` with `edit` applied and its checksum made to match again (what a deliberate forgery does).
    fn resealed(mut raw: Vec<u8>, edit: impl FnOnce(&mut Vec<u8>)) -> Vec<u8> {
        edit(&mut raw);
        let n = raw.len() - 4;
        let crc = crc32c(&raw[..n]);
        raw[n..].copy_from_slice(&crc.to_le_bytes());
        raw
    }

    #[test]
    fn a_sound_dictionary_loads_and_damage_is_refused() {
        assert_eq!(load(sample()).unwrap().len(), 5);
        // A flipped byte: the fst's own checksum.
        let mut flipped = sample();
        flipped[10] ^= 0x20;
        assert_eq!(load(flipped).unwrap_err(), "term dictionary: its checksum does not match its bytes");
        // Forged: every byte of the body changed in turn, the checksum recomputed. None may panic, and none may
        // load as a set whose walk disagrees with its header.
        for at in 0..sample().len() - 4 {
            for flip in [0x01u8, 0x80, 0xFF] {
                let raw = resealed(sample(), |r| r[at] ^= flip);
                if let Ok(set) = load(raw) {
                    assert_eq!(set.stream().into_bytes().len(), set.len(), "byte {at} ^ {flip:#x}");
                }
            }
        }
        // The header's key count raised: refused by the walk.
        let raw = resealed(sample(), |r| {
            let n = r.len() - 4 - 16;
            let len = u64::from_le_bytes(r[n..n + 8].try_into().unwrap());
            r[n..n + 8].copy_from_slice(&(len + 1).to_le_bytes());
        });
        assert_eq!(load(raw).unwrap_err(), "term dictionary: 5 keys reachable, the header says 6");
    }
}
