//! The affine map of the tag -> slot function.

use crc::Algorithm;

use crate::{catalog, gf2::Matrix, spec::SlotCount, Alphabet};

/// The linear part of a slot function `crc(message) & (slots - 1)` by byte position, counted
/// from the message's end: [`delta(k, diff)`](Self::delta) is the slot change of xoring
/// `diff` into the byte `k` positions before the last one.
///
/// A CRC's register is linear in the message, so what one byte changes depends only on how
/// many bytes follow it, not on the other bytes or on the message's length; `refout` and
/// `xorout` act on the register after the last byte, a reflection and a constant. So the
/// `8 * longest` deltas of single bits, each one CRC of the reference implementation (the
/// `crc` crate), give the linear part for every message of up to `longest` bytes. This is the
/// one place slotgen evaluates a CRC to learn its linear part: [`AffineMap::extract`], the
/// shortest-tag search and the charset choice all ask it.
///
/// # Examples
///
/// ```
/// use slotgen::{algebra::affine::ByteDeltas, spec::SlotCount};
///
/// let deltas = ByteDeltas::new(&crc::CRC_16_XMODEM, SlotCount::new(16384)?, 4);
/// // "@@@@" lands on 13881 and "A@@@" on 12216: the first of four bytes, bit 0
/// assert_eq!(deltas.slot(b"@@@@"), 13881);
/// assert_eq!(deltas.slot(b"@@@@") ^ deltas.delta(3, b'A' ^ b'@'), deltas.slot(b"A@@@"));
/// # Ok::<(), slotgen::Error>(())
/// ```
pub struct ByteDeltas {
    crc: crc::Crc<u16>,
    mask: u16,
    /// `at[k][b]`: the slot delta of flipping bit `b` of the byte `k` positions before the
    /// last one.
    at: Vec<[u16; 8]>,
}

impl ByteDeltas {
    /// The deltas of messages of up to `longest` bytes: `8 * longest` CRCs.
    #[must_use]
    pub fn new(crc: &Algorithm<u16>, slots: SlotCount, longest: usize) -> Self {
        let crc = catalog::reference_crc(crc);
        let mask = slots.mask();
        let mut message = vec![0u8; longest];
        let at = (1..=longest)
            .map(|len| {
                let zero = crc.checksum(&message[..len]);
                std::array::from_fn(|b| {
                    message[0] = 1 << b;
                    let flipped = crc.checksum(&message[..len]);
                    message[0] = 0;
                    (flipped ^ zero) & mask
                })
            })
            .collect();
        Self { crc, mask, at }
    }

    /// The slot of `message`, by the reference CRC: the offset to which deltas are added.
    #[must_use]
    pub fn slot(&self, message: &[u8]) -> u16 {
        self.crc.checksum(message) & self.mask
    }

    /// The slot delta of xoring `diff` into the byte `k` positions before the last one.
    ///
    /// # Panics
    ///
    /// When `k` is not below the `longest` given to [`new`](Self::new).
    #[must_use]
    pub fn delta(&self, k: usize, diff: u8) -> u16 {
        (0..8)
            .filter(|&b| diff >> b & 1 == 1)
            .fold(0, |acc, b| acc ^ self.at[k][b])
    }
}

/// The tag -> slot function for tags of a fixed length, as an affine map over GF(2):
/// `slot(x) = offset ^ M x`.
///
/// Bit numbering. The input `x` is a tag's mask of `tag_len * d` bits (`d` =
/// [`Alphabet::symbol_bits`]): bit `d * k + j` is bit `j` of the alphabet index of the
/// tag's symbol `k`, counting symbols from the tag's first byte. With `@ABCDEFGHIJKLMNO`
/// and 4 symbols, bit 5 is bit 1 of the second symbol's index, so `x = 1 << 5` is the tag
/// `@B@@`. The output is the slot, bit `i` = bit `i` of the slot number, `log2(slots)` bits.
///
/// Why it is affine: a CRC is affine in its message bits (the RevEng model's register is
/// linear in the message and the init value, and the xorout is a constant), masking to
/// `slots - 1` keeps low bits, and an alphabet that is an affine subspace makes each symbol
/// byte affine in its index bits. So flipping input bit `v` flips the same slot bits,
/// `columns[v]`, whatever the other bits are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AffineMap {
    /// The offset: the slot of mask 0, the tag whose symbols are all `alphabet[0]`.
    pub offset: u16,
    /// The linear part by columns: `columns[v]` is the slot delta of flipping input bit `v`.
    /// `tag_len * d` entries, each below `slots`.
    pub columns: Vec<u16>,
    /// `log2(slots)`: the rows of the linear part.
    pub slot_bits: u32,
}

impl AffineMap {
    /// Extracts the map for tags of `tag_len` symbols: the offset is the slot of the tag of
    /// mask 0, and column `d * k + j` is the slot delta of moving symbol `k` from
    /// `alphabet[0]` to `alphabet[1 << j]`, which [`ByteDeltas`] gives.
    #[must_use]
    pub fn extract(
        crc: &Algorithm<u16>,
        alphabet: &Alphabet,
        tag_len: usize,
        slots: SlotCount,
    ) -> Self {
        Self::from_deltas(
            &ByteDeltas::new(crc, slots, tag_len),
            alphabet,
            tag_len,
            slots,
        )
    }

    /// As [`extract`](Self::extract), from deltas already computed for at least `tag_len`
    /// bytes.
    #[must_use]
    pub fn from_deltas(
        deltas: &ByteDeltas,
        alphabet: &Alphabet,
        tag_len: usize,
        slots: SlotCount,
    ) -> Self {
        let offset = deltas.slot(&vec![alphabet.offset(); tag_len]);
        let basis = alphabet.basis();
        let columns = (0..tag_len)
            .flat_map(|k| basis.iter().map(move |&b| deltas.delta(tag_len - 1 - k, b)))
            .collect();
        Self {
            offset,
            columns,
            slot_bits: slots.bits(),
        }
    }

    /// The linear part `M`: `slot_bits x columns.len()`, row `i` = slot bit `i`.
    #[must_use]
    pub fn linear(&self) -> Matrix {
        let columns: Vec<u64> = self.columns.iter().map(|&c| u64::from(c)).collect();
        Matrix::from_columns(self.slot_bits as usize, &columns)
    }

    /// The slot of the tag with this mask: `offset ^ M mask`.
    #[must_use]
    pub fn apply(&self, mask: u64) -> u16 {
        self.columns
            .iter()
            .enumerate()
            .filter(|&(v, _)| mask >> v & 1 == 1)
            .fold(self.offset, |acc, (_, &c)| acc ^ c)
    }
}
