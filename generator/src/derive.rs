//! [`derive()`]: from a [`Spec`] to the inverse tables.

use slotgen_tables::{Crc16, SlotTable, MAX_TAG_LEN};

use crate::{gf2, AffineMap, Alphabet, Error, Spec};

/// The most input bits a table's masks hold.
pub const MAX_MASK_BITS: usize = 64;

/// Everything slotgen derives for one [`Spec`]: the affine map, its right inverse and kernel,
/// and the lookup tables.
#[derive(Clone, Debug)]
pub struct Derivation {
    /// The spec, with `tag_len` resolved.
    pub spec: Spec,
    /// The alphabet, in index order.
    pub alphabet: Alphabet,
    /// Symbols per tag.
    pub tag_len: usize,
    /// The tag -> slot map (see [`AffineMap`] for the bit numbering).
    pub map: AffineMap,
    /// The pivot columns of the linear part: the lowest-indexed independent input bits,
    /// `log2(slots)` of them.
    pub pivots: Vec<usize>,
    /// The inverse constants, one per slot bit: `inverse[i]` is the tag mask whose slot
    /// delta is `1 << i` (column `i` of the right inverse, free coordinates zero).
    pub inverse: Vec<u64>,
    /// How many low bits of the slot delta index `low`: `ceil(log2(slots) / 2)`.
    pub low_bits: u32,
    /// `2^low_bits` masks: `low[v]` is the xor of `inverse[i]` over the set bits `i` of `v`.
    pub low: Vec<u64>,
    /// `2^(log2(slots) - low_bits)` masks: `high[v]` is the xor of `inverse[low_bits + i]`
    /// over the set bits `i` of `v`.
    pub high: Vec<u64>,
    /// A basis of the kernel of the linear part, one mask per free input bit, ascending.
    pub kernel: Vec<u64>,
}

impl Derivation {
    /// The base slot: the slot of mask 0, the tag of `tag_len` copies of `alphabet[0]`.
    #[must_use]
    pub fn base_slot(&self) -> u16 {
        self.map.offset
    }

    /// `log2(slots)`.
    #[must_use]
    pub fn slot_bits(&self) -> u32 {
        self.map.slot_bits
    }

    /// The input bits of a tag mask: `tag_len * symbol_bits`.
    #[must_use]
    pub fn mask_bits(&self) -> usize {
        self.map.columns.len()
    }

    /// The CRC's catalogue name, or `custom`.
    #[must_use]
    pub fn crc_name(&self) -> &'static str {
        self.spec.crc_name()
    }

    /// The runtime's view of this derivation, borrowing its tables.
    #[must_use]
    pub fn table(&self) -> SlotTable<'_, u64> {
        SlotTable {
            crc: Crc16::new(&self.spec.crc),
            crc_name: self.crc_name(),
            slots: self.spec.slots,
            alphabet: self.alphabet.symbols(),
            symbol_bits: self.alphabet.symbol_bits(),
            tag_len: self.tag_len,
            base_slot: self.base_slot(),
            low_bits: self.low_bits,
            low: &self.low,
            high: &self.high,
            kernel: &self.kernel,
        }
    }
}

/// Checks the parts of a spec that do not depend on the tag length, and returns its
/// alphabet.
fn check_spec(spec: &Spec) -> Result<Alphabet, Error> {
    check_crc_and_slots(&spec.crc, spec.slots)?;
    Alphabet::new(&spec.alphabet)
}

/// Checks that `crc` is a CRC-16 whose parameters give its check value, and that `slots`
/// is a power of two from 2 to 65536.
pub(crate) fn check_crc_and_slots(crc: &crc::Algorithm<u16>, slots: u32) -> Result<(), Error> {
    if crc.width != 16 {
        return Err(Error::UnsupportedWidth { width: crc.width });
    }
    let computed = crate::catalog::reference_crc(crc).checksum(b"123456789");
    if computed != crc.check {
        return Err(Error::CheckMismatch {
            computed,
            stated: crc.check,
        });
    }
    if !(2..=65536).contains(&slots) || !slots.is_power_of_two() {
        return Err(Error::SlotCount {
            slots: u64::from(slots),
        });
    }
    Ok(())
}

/// The longest tag for symbols of `symbol_bits` bits: at most [`MAX_TAG_LEN`] symbols and
/// [`MAX_MASK_BITS`] bits.
#[must_use]
pub fn max_tag_len(symbol_bits: u32) -> usize {
    MAX_TAG_LEN.min(MAX_MASK_BITS / symbol_bits as usize)
}

/// The rank of the tag -> slot map for tags of `tag_len` symbols.
fn rank(spec: &Spec, alphabet: &Alphabet, tag_len: usize) -> usize {
    AffineMap::extract(&spec.crc, alphabet, tag_len, spec.slots)
        .linear()
        .rank()
}

/// The shortest tag length whose tags reach every slot, if one up to [`max_tag_len`] does.
///
/// # Errors
///
/// As [`derive()`], for everything but the tag length.
pub fn shortest_tag_len(spec: &Spec) -> Result<Option<usize>, Error> {
    let alphabet = check_spec(spec)?;
    let needed = spec.slots.trailing_zeros() as usize;
    let first = needed.div_ceil(alphabet.symbol_bits() as usize);
    Ok((first..=max_tag_len(alphabet.symbol_bits())).find(|&n| rank(spec, &alphabet, n) == needed))
}

/// Derives the inverse tables of `spec` by Gaussian elimination over GF(2).
///
/// The linear part `M` (`log2(slots) x tag_len * d`) is brought to reduced row echelon form;
/// its right inverse sets the free coordinates to zero, so `inverse[i]` is the unique
/// solution of `M x = e_i` supported on the pivot columns (the lowest-indexed independent
/// input bits). The tables split the slot delta `d = slot ^ base_slot`: `low` takes its
/// low `low_bits = ceil(log2(slots) / 2)` bits and `high` the rest.
///
/// # Errors
///
/// - [`Error::UnsupportedWidth`], [`Error::CheckMismatch`]: the CRC.
/// - [`Error::SlotCount`]: `slots` is not a power of two in `2..=65536`.
/// - [`Error::BraceInAlphabet`], [`Error::DuplicateSymbol`], [`Error::AlphabetSize`],
///   [`Error::NotAffine`]: the alphabet.
/// - [`Error::TagLen`]: `tag_len` is 0 or above [`max_tag_len`].
/// - [`Error::RankDeficient`]: tags of this length do not reach every slot.
///
/// # Examples
///
/// ```
/// let d = slotgen::derive(&slotgen::Spec::default()).unwrap();
/// assert_eq!(d.base_slot(), 13881); // the slot of "@@@@"
/// assert_eq!(d.inverse[0], 0x88d4);
/// assert_eq!(d.table().tag_for_slot(0).unwrap().to_string(), "DLH@");
/// ```
pub fn derive(spec: &Spec) -> Result<Derivation, Error> {
    let alphabet = check_spec(spec)?;
    let needed = spec.slots.trailing_zeros() as usize;
    let max = max_tag_len(alphabet.symbol_bits());
    let tag_len = match spec.tag_len {
        Some(n) if (1..=max).contains(&n) => n,
        Some(n) => {
            return Err(Error::TagLen {
                tag_len: n,
                max,
                symbol_bits: alphabet.symbol_bits(),
            })
        }
        None => shortest_tag_len(spec)?.unwrap_or(max),
    };
    let map = AffineMap::extract(&spec.crc, &alphabet, tag_len, spec.slots);
    let linear = map.linear();
    let echelon = linear.echelon();
    if echelon.rank() < needed {
        return Err(Error::RankDeficient {
            rank: echelon.rank(),
            needed,
            reachable: 1 << echelon.rank(),
            slots: u64::from(spec.slots),
            tag_len,
            shortest: shortest_tag_len(spec)?,
        });
    }
    let right_inverse = linear
        .right_inverse()
        .expect("full row rank was just checked");
    let inverse: Vec<u64> = (0..needed).map(|i| right_inverse.column_bits(i)).collect();
    let kernel = linear.kernel().iter().map(gf2::row_bits).collect();
    let low_bits = (needed as u32).div_ceil(2);
    let span = |constants: &[u64]| -> Vec<u64> {
        let mut table = vec![0u64];
        for &c in constants {
            let doubled: Vec<u64> = table.iter().map(|&m| m ^ c).collect();
            table.extend(doubled);
        }
        table
    };
    let low = span(&inverse[..low_bits as usize]);
    let high = span(&inverse[low_bits as usize..]);
    Ok(Derivation {
        spec: Spec {
            tag_len: Some(tag_len),
            ..spec.clone()
        },
        alphabet,
        tag_len,
        map,
        pivots: echelon.pivots,
        inverse,
        low_bits,
        low,
        high,
        kernel,
    })
}
