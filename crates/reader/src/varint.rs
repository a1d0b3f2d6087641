//! Unsigned LEB128 numbers, the one integer packing of the bundle format: token counts of a [`TokenMap`]
//! (`model`, format 10) and the postings of the search index (`search`, document frequencies and unit-id gaps).
//! Seven bits a byte, low bits first, the high bit set on every byte but the last; a `u32` takes 1–5 bytes.
//!
//! [`TokenMap`]: crate::model::TokenMap

/// Appends `v` as a LEB128 number.
pub fn put(out: &mut Vec<u8>, mut v: u32) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// Reads the LEB128 number at `*at`, advancing `*at` past it; `None` at the end of `bytes`, on a number cut short
/// or on one over `u32::MAX` (a fifth byte with more than four bits, or a sixth byte).
pub fn get(bytes: &[u8], at: &mut usize) -> Option<u32> {
    let mut v: u32 = 0;
    for shift in (0..35).step_by(7) {
        let b = *bytes.get(*at)?;
        *at += 1;
        if shift == 28 && b > 0x0f {
            return None;
        }
        v |= u32::from(b & 0x7f) << shift;
        if b < 0x80 {
            return Some(v);
        }
    }
    None
}

/// Every number of `bytes`, which holds only whole LEB128 numbers; `None` when one is cut short or over `u32::MAX`.
pub fn get_all(bytes: &[u8]) -> Option<Vec<u32>> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        out.push(get(bytes, &mut at)?);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_round_trip_in_their_shortest_form() {
        let values = [0, 1, 127, 128, 300, 16_383, 16_384, 1 << 21, (1 << 28) - 1, 1 << 28, u32::MAX];
        let mut bytes = Vec::new();
        for v in values {
            let before = bytes.len();
            put(&mut bytes, v);
            let width = match v {
                0..=0x7f => 1,
                0x80..=0x3fff => 2,
                0x4000..=0x1f_ffff => 3,
                0x20_0000..=0xfff_ffff => 4,
                _ => 5,
            };
            assert_eq!(bytes.len() - before, width, "{v}");
        }
        assert_eq!(get_all(&bytes).as_deref(), Some(&values[..]));
    }

    #[test]
    fn cut_short_and_over_u32_are_refused() {
        assert_eq!(get(&[], &mut 0), None);
        assert_eq!(get(&[0x80], &mut 0), None, "cut short");
        assert_eq!(get(&[0xff, 0xff, 0xff, 0xff, 0x10], &mut 0), None, "2^32");
        assert_eq!(get(&[0xff, 0xff, 0xff, 0xff, 0x0f], &mut 0), Some(u32::MAX));
        assert_eq!(get(&[0xff; 8], &mut 0), None, "over-long");
        assert_eq!(get_all(&[1, 2, 0x80]), None);
    }
}
