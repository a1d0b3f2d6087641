//! Unsigned LEB128 numbers, the one integer packing of the bundle format: token counts of a [`TokenMap`]
//! (`model`, format 10) and the postings of the search index (`search`, document frequencies and unit-id gaps).
//! Seven bits a byte, low bits first, the high bit set on every byte but the last; a `u32` takes 1–5 bytes.
//!
//! Reading is strict: the writer ([`put`]) always writes a number in its fewest bytes, so anything else (a number
//! cut short, one over `u32::MAX`, or one padded with zero groups) is damage and an error, never a silently
//! different value. No crate of the build does this (the `leb128` crates are not in Cargo.lock).
//!
//! [`TokenMap`]: crate::model::TokenMap

/// Why the bytes at a position are not a LEB128 `u32` as [`put`] writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Leb128Error {
    /// The bytes end before a byte without the high bit (or there is no byte at all).
    #[error("a LEB128 number cut short")]
    CutShort,
    /// More than 32 bits: a fifth byte over `0x0f`, or a sixth byte.
    #[error("a LEB128 number over u32::MAX")]
    OverU32,
    /// Overlong: a last byte of zero after others (`80 00` for 0), which [`put`] never writes.
    #[error("a LEB128 number in more bytes than it needs")]
    Overlong,
}

/// Appends `v` as a LEB128 number, in its fewest bytes.
pub fn put(out: &mut Vec<u8>, mut v: u32) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// Reads the LEB128 number at `*at`, advancing `*at` past it.
///
/// Errors: [`Leb128Error::CutShort`] at the end of `bytes` or on a number cut short, [`Leb128Error::OverU32`],
/// [`Leb128Error::Overlong`]; `*at` is then somewhere inside the bad number.
pub fn get(bytes: &[u8], at: &mut usize) -> Result<u32, Leb128Error> {
    let mut v: u32 = 0;
    for shift in (0..35).step_by(7) {
        let b = *bytes.get(*at).ok_or(Leb128Error::CutShort)?;
        *at += 1;
        if shift == 28 && b > 0x0f {
            return Err(Leb128Error::OverU32);
        }
        v |= u32::from(b & 0x7f) << shift;
        if b < 0x80 {
            return if b == 0 && shift > 0 { Err(Leb128Error::Overlong) } else { Ok(v) };
        }
    }
    unreachable!("the fifth byte either ends the number or is over 0x0f")
}

/// Every number of `bytes`, which holds only whole LEB128 numbers; the first error of [`get`] otherwise.
pub fn get_all(bytes: &[u8]) -> Result<Vec<u32>, Leb128Error> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        out.push(get(bytes, &mut at)?);
    }
    Ok(out)
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
        assert_eq!(get_all(&bytes).as_deref(), Ok(&values[..]));
    }

    #[test]
    fn cut_short_and_over_u32_are_refused() {
        use Leb128Error::*;
        assert_eq!(get(&[], &mut 0), Err(CutShort));
        assert_eq!(get(&[0x80], &mut 0), Err(CutShort), "cut short");
        assert_eq!(get(&[0xff, 0xff, 0xff, 0xff, 0x10], &mut 0), Err(OverU32), "2^32");
        assert_eq!(get(&[0xff, 0xff, 0xff, 0xff, 0x0f], &mut 0), Ok(u32::MAX));
        assert_eq!(get(&[0xff; 8], &mut 0), Err(OverU32), "a sixth byte");
        assert_eq!(get_all(&[1, 2, 0x80]), Err(CutShort));
    }

    #[test]
    fn overlong_numbers_are_refused() {
        // What `put` never writes: zero groups past the last significant one (0 as `80 00`, 1 as `81 80 00`).
        assert_eq!(get(&[0x80, 0x00], &mut 0), Err(Leb128Error::Overlong));
        assert_eq!(get(&[0x81, 0x80, 0x00], &mut 0), Err(Leb128Error::Overlong));
        assert_eq!(get(&[0x80, 0x80, 0x80, 0x80, 0x00], &mut 0), Err(Leb128Error::Overlong));
        assert_eq!(get_all(&[0x00, 0x80, 0x01]), Ok(vec![0, 128]), "a lone zero byte and an inner zero group are fine");
    }
}
