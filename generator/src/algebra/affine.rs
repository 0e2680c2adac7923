//! The affine map of the tag -> slot function.

use crc::Algorithm;

use crate::{catalog, gf2::Matrix, Alphabet};

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
    /// Extracts the map by evaluating the CRC (the `crc` crate's) on the tag of mask 0 and on
    /// the `tag_len * d` tags of one set bit: `1 + tag_len * d` CRCs of `tag_len` bytes.
    ///
    /// `slots` must be a power of two from 2 to 65536; the caller checks.
    #[must_use]
    pub fn extract(crc: &Algorithm<u16>, alphabet: &Alphabet, tag_len: usize, slots: u32) -> Self {
        let crc = catalog::reference_crc(crc);
        let slot_mask = (slots - 1) as u16;
        let slot = |tag: &[u8]| crc.checksum(tag) & slot_mask;
        let mut tag = vec![alphabet.offset(); tag_len];
        let offset = slot(&tag);
        let d = alphabet.symbol_bits() as usize;
        let mut columns = Vec::with_capacity(tag_len * d);
        for k in 0..tag_len {
            for j in 0..d {
                tag[k] = alphabet.symbols()[1 << j];
                columns.push(slot(&tag) ^ offset);
                tag[k] = alphabet.offset();
            }
        }
        Self {
            offset,
            columns,
            slot_bits: slots.trailing_zeros(),
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
