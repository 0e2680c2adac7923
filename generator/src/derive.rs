//! [`derive()`]: from a [`Spec`] to the inverse tables.

use slotgen_tables::{Crc16, SlotTable};

pub use slotgen_tables::{MAX_MASK_BITS, MAX_TAG_LEN};

use crate::algebra::affine::ByteDeltas;
use crate::spec::SlotCount;
use crate::{gf2, AffineMap, Alphabet, Error, Spec};

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
    /// The runtime's tables of tag bytes, from the masks above ([`TagWords::new`]).
    pub words: TagWords,
    /// The CRC engine that [`Derivation::table`] borrows.
    engine: Engine,
}

/// A CRC engine: the runtime's shared static for a catalogue CRC (no work), or one built
/// for a custom CRC.
#[derive(Clone, Debug)]
enum Engine {
    Shared(&'static Crc16),
    Own(Box<Crc16>),
}

impl Engine {
    fn new(algorithm: &crc::Algorithm<u16>) -> Self {
        match slotgen_tables::catalog::find(algorithm) {
            Some(engine) => Self::Shared(engine),
            None => Self::Own(Box::new(Crc16::new(algorithm))),
        }
    }

    fn get(&self) -> &Crc16 {
        match self {
            Self::Shared(engine) => engine,
            Self::Own(engine) => engine,
        }
    }
}

/// The tables of tag bytes that a [`SlotTable`] holds (see its formula), [`MAX_TAG_LEN`]
/// bytes per entry, zero past `tag_len`: generated code keeps the first `tag_len` bytes.
///
/// The alphabet being an affine subspace of GF(2)^8 indexed linearly, a tag's bytes are an
/// affine function of its mask: `word(a ^ b) = word(a) ^ word(b) ^ word(0)`, where `word(m)`
/// is the bytes of [`SlotTable::tag_from_mask`]. So the mask tables `low` and `high` of a
/// [`Derivation`] become tables of bytes with the base tag `word(0)` folded into `low`, and
/// with the base slot folded into the index (entry `v` is the entry of delta
/// `v ^ base_slot`'s part), so that a lookup indexes by the slot itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TagWords {
    /// `low[v] = word(d.low[v ^ (base_slot & low_mask)])`: whole tags.
    pub low: Vec<[u8; MAX_TAG_LEN]>,
    /// `high[v] = word(d.high[v ^ (base_slot >> low_bits)]) ^ word(0)`: byte differences.
    pub high: Vec<[u8; MAX_TAG_LEN]>,
    /// `kernel[i] = word(d.kernel[i]) ^ word(0)`: byte differences that keep the slot.
    pub kernel: Vec<[u8; MAX_TAG_LEN]>,
}

impl TagWords {
    /// The byte tables of `derivation`'s masks (its `low`, `high` and `kernel`).
    ///
    /// # Examples
    ///
    /// ```
    /// let d = slotgen::derive(&slotgen::Spec::default()).unwrap();
    /// let words = slotgen::TagWords::new(&d);
    /// // slot 5461's tag, "IDKA": 5461 = 85 + (42 << 7)
    /// let tag: Vec<u8> = (0..4).map(|i| words.low[85][i] ^ words.high[42][i]).collect();
    /// assert_eq!(tag, b"IDKA");
    /// assert_eq!(words, d.words);
    /// ```
    #[must_use]
    pub fn new(derivation: &Derivation) -> Self {
        let view = SlotTable::<MAX_TAG_LEN>::new_unverified(
            derivation.engine.get(),
            "",
            derivation.alphabet.symbols(),
            derivation.tag_len,
            &[[0; MAX_TAG_LEN]; 2],
            &[[0; MAX_TAG_LEN]; 1],
            &[],
        );
        let word = |mask: u64| view.tag_from_mask(mask).to_array();
        let zero = word(0);
        let minus_zero = |mask: u64| {
            let mut w = word(mask);
            for (b, z) in w.iter_mut().zip(zero) {
                *b ^= z;
            }
            w
        };
        let base = usize::from(derivation.base_slot());
        let low_bits = derivation.low_bits;
        let base_low = base & ((1 << low_bits) - 1);
        let base_high = base >> low_bits;
        Self {
            low: (0..derivation.low.len())
                .map(|v| word(derivation.low[v ^ base_low]))
                .collect(),
            high: (0..derivation.high.len())
                .map(|v| minus_zero(derivation.high[v ^ base_high]))
                .collect(),
            kernel: derivation.kernel.iter().map(|&k| minus_zero(k)).collect(),
        }
    }
}

/// The unsigned integer that holds a tag mask: the narrowest of 16, 32 and 64 bits that holds
/// `tag_len * symbol_bits` bits. The one owner of that choice: every emitter and front end
/// asks [`Derivation::mask_width`] and spells the type from [`bits`](Self::bits).
///
/// # Examples
///
/// ```
/// use slotgen::derive::MaskWidth;
///
/// let d = slotgen::derive(&slotgen::Spec::default())?;
/// assert_eq!(d.mask_width(), MaskWidth::U16); // 16 input bits
/// assert_eq!((MaskWidth::U16.bits(), MaskWidth::U16.hex_digits()), (16, 4));
/// assert_eq!(MaskWidth::for_bits(17), MaskWidth::U32);
/// # Ok::<(), slotgen::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MaskWidth {
    /// `u16`: up to 16 input bits.
    U16,
    /// `u32`: up to 32 input bits.
    U32,
    /// `u64`: up to 64 input bits.
    U64,
}

impl MaskWidth {
    /// The narrowest width that holds `mask_bits` bits (at most [`MAX_MASK_BITS`]).
    #[must_use]
    pub fn for_bits(mask_bits: usize) -> Self {
        match mask_bits {
            0..=16 => Self::U16,
            17..=32 => Self::U32,
            _ => Self::U64,
        }
    }

    /// The width in bits: 16, 32 or 64.
    #[must_use]
    pub fn bits(self) -> u32 {
        match self {
            Self::U16 => 16,
            Self::U32 => 32,
            Self::U64 => 64,
        }
    }

    /// The width in bytes: 2, 4 or 8.
    #[must_use]
    pub fn bytes(self) -> usize {
        self.bits() as usize / 8
    }

    /// Hex digits of a full mask: 4, 8 or 16.
    #[must_use]
    pub fn hex_digits(self) -> usize {
        self.bits() as usize / 4
    }

    /// The Rust type: `u16`, `u32` or `u64`.
    #[must_use]
    pub fn rust(self) -> &'static str {
        ["u16", "u32", "u64"][self as usize]
    }
}

impl Derivation {
    /// The integer type that holds this derivation's tag masks.
    #[must_use]
    pub fn mask_width(&self) -> MaskWidth {
        MaskWidth::for_bits(self.mask_bits())
    }

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

    /// The CRC engine of the spec's CRC, which [`table`](Self::table) borrows.
    #[must_use]
    pub fn engine(&self) -> &Crc16 {
        self.engine.get()
    }

    /// The runtime's view of this derivation, borrowing its tables ([`Derivation::words`]),
    /// [`MAX_TAG_LEN`] bytes per entry whatever the tag length. Its shape is checked, not its
    /// content: [`verify`](crate::verify()) checks that, and whether [`SlotTable::try_new`]
    /// accepts it.
    #[must_use]
    pub fn table(&self) -> SlotTable<'_, MAX_TAG_LEN> {
        SlotTable::new_unverified(
            self.engine.get(),
            self.crc_name(),
            self.alphabet.symbols(),
            self.tag_len,
            &self.words.low,
            &self.words.high,
            &self.words.kernel,
        )
    }

    /// As [`table`](Self::table), through the checked constructor [`SlotTable::try_new`].
    ///
    /// # Errors
    ///
    /// [`slotgen_tables::Error::InconsistentTable`] when the tables were edited into an
    /// inconsistent state (a derivation from [`derive()`] is consistent).
    pub fn checked_table(&self) -> Result<SlotTable<'_, MAX_TAG_LEN>, slotgen_tables::Error> {
        SlotTable::try_new(
            self.engine.get(),
            self.crc_name(),
            self.alphabet.symbols(),
            self.tag_len,
            &self.words.low,
            &self.words.high,
            &self.words.kernel,
        )
    }
}

/// The longest tag for symbols of `symbol_bits` bits: at most [`MAX_TAG_LEN`] symbols and
/// [`MAX_MASK_BITS`] bits.
#[must_use]
pub fn max_tag_len(symbol_bits: u32) -> usize {
    MAX_TAG_LEN.min(MAX_MASK_BITS / symbol_bits as usize)
}

/// The shortest tag length whose tags reach every slot, if one up to [`max_tag_len`] does.
///
/// # Errors
///
/// As [`derive()`], for everything but the tag length.
pub fn shortest_tag_len(spec: &Spec) -> Result<Option<usize>, Error> {
    let (alphabet, slots) = spec.check()?;
    Ok(shortest_len(spec, &alphabet, slots))
}

/// The shortest tag length whose map has full rank, for a checked spec: the columns of a
/// longer tag extend those of a shorter one (one more symbol before them), so one
/// [`Span`](gf2::Span) grows symbol by symbol.
fn shortest_len(spec: &Spec, alphabet: &Alphabet, slots: SlotCount) -> Option<usize> {
    let max = max_tag_len(alphabet.symbol_bits());
    let deltas = ByteDeltas::new(&spec.crc, slots, max);
    let mut span = gf2::Span::default();
    (1..=max).find(|&len| {
        for &b in &alphabet.basis() {
            span.insert(u64::from(deltas.delta(len - 1, b)));
        }
        span.rank() == slots.bits() as usize
    })
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
    let (alphabet, slots) = spec.check()?;
    let needed = slots.bits() as usize;
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
        None => shortest_len(spec, &alphabet, slots).unwrap_or(max),
    };
    let map = AffineMap::extract(&spec.crc, &alphabet, tag_len, slots);
    // one elimination gives the rank, the pivots, the right inverse and the kernel
    let echelon = map.linear().echelon();
    if echelon.rank() < needed {
        return Err(Error::RankDeficient {
            rank: echelon.rank(),
            needed,
            reachable: 1 << echelon.rank(),
            slots: u64::from(spec.slots),
            tag_len,
            shortest: shortest_len(spec, &alphabet, slots),
        });
    }
    let right_inverse = echelon
        .right_inverse()
        .expect("full row rank was just checked");
    let inverse: Vec<u64> = (0..needed).map(|i| right_inverse.column_bits(i)).collect();
    let kernel = echelon.kernel().iter().map(gf2::row_bits).collect();
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
    let mut derivation = Derivation {
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
        words: TagWords {
            low: Vec::new(),
            high: Vec::new(),
            kernel: Vec::new(),
        },
        engine: Engine::new(&spec.crc),
    };
    derivation.words = TagWords::new(&derivation);
    Ok(derivation)
}
