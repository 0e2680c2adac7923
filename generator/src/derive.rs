//! [`derive()`]: from a [`Spec`] to the inverse tables.

use slotgen_tables::{Crc16, Scheme, SchemeName, SchemeTable, SlotTable};

pub use crate::alphabet::max_tag_len;
pub use slotgen_tables::{MAX_MASK_BITS, MAX_TAG_LEN};

use crate::algebra::affine::ByteDeltas;
use crate::scheme::invert::{eliminate, SchemeSpec, Solution, Solved};
use crate::scheme::table_spec::{crc16_scheme, engine_of};
pub use crate::scheme::TableSpec;
use crate::spec::SlotCount;
use crate::{gf2, AffineMap, Alphabet, Error, Spec};

impl TableSpec {
    /// The tables of this spec: [`derive()`].
    ///
    /// # Errors
    ///
    /// As [`derive()`].
    pub fn derive(&self) -> Result<Derivation, Error> {
        derive(self)
    }
}

/// Everything slotgen derives for one table: what a tag is solved for, the right inverse's
/// columns and the kernel, as masks and as tag bytes. One type for every table: a CRC-16
/// [`Spec`] is the scheme of its CRC under the Redis Cluster hashtag rule, its 16-bit
/// register masked to a power-of-two slot count, and is derived as that scheme is.
///
/// The runtime keeps two shapes, and [`slot_tables`](Self::slot_tables) is the one place
/// that picks between them: a CRC-16 spec also gets the two-load tables of a [`SlotTable`]
/// (a slot's tag is `low[slot & m] ^ high[slot >> b]`, two loads and an xor, the fast path
/// of Redis Cluster and its kin), computed from the inverse columns; any other scheme gets
/// the columns of a [`SchemeTable`] only
/// ([`table`](Self::table)).
///
/// Masks number the input bits as [`AffineMap`] does: bit `d * k + j` is bit `j` of symbol
/// `k`'s index (`d` bits a symbol).
#[derive(Clone, Debug)]
pub struct Derivation {
    /// The spec, with the tag length (and a scheme's slot count) resolved.
    pub spec: TableSpec,
    /// The scheme the tags are solved for (for a CRC-16 spec, its CRC's under the Redis
    /// rule, masked to the slot count).
    pub scheme: Scheme<'static>,
    /// The alphabet, in index order.
    pub alphabet: Alphabet,
    /// Symbols per tag.
    pub tag_len: usize,
    /// What the tag is solved for: the slot's bits, or a scheme's whole value.
    pub solved: Solved,
    /// The solved bits of the base tag's value (the tag of `tag_len` copies of the
    /// alphabet's first symbol): for a CRC-16 spec, its slot.
    pub base_value: u64,
    /// The pivot columns: the lowest-indexed independent input bits, one per solved bit.
    pub pivots: Vec<usize>,
    /// `inverse[i]`: the tag mask that flips solved bit `i` alone (column `i` of the right
    /// inverse, free coordinates zero).
    pub inverse: Vec<u64>,
    /// A basis of the kernel: masks that keep the solved bits, one per free input bit,
    /// ascending.
    pub kernel: Vec<u64>,
    /// `inverse` as byte differences of a tag, [`MAX_TAG_LEN`] bytes each, zero past
    /// `tag_len`: the columns of a [`SchemeTable`].
    pub columns: Vec<[u8; MAX_TAG_LEN]>,
    /// `kernel` as byte differences.
    pub kernel_words: Vec<[u8; MAX_TAG_LEN]>,
    /// The two-load tables of a [`SlotTable`]: `Some` exactly for a CRC-16 spec.
    pub slot_tables: Option<SlotTables>,
}

/// The two-load view of a CRC-16 [`Derivation`], which the runtime's [`SlotTable`] reads:
/// the map, and the inverse columns spanned into two tables by the slot delta's low and
/// high bits.
#[derive(Clone, Debug)]
pub struct SlotTables {
    /// The tag -> slot map (see [`AffineMap`] for the bit numbering).
    pub map: AffineMap,
    /// How many low bits of the slot delta index `low`: `ceil(log2(slots) / 2)`.
    pub low_bits: u32,
    /// `2^low_bits` masks: `low[v]` is the xor of `inverse[i]` over the set bits `i` of `v`.
    pub low: Vec<u64>,
    /// `2^(log2(slots) - low_bits)` masks: `high[v]` is the xor of `inverse[low_bits + i]`
    /// over the set bits `i` of `v`.
    pub high: Vec<u64>,
    /// The runtime's tables of tag bytes, from the masks above ([`TagWords::new`]).
    pub words: TagWords,
}

/// The tables of tag bytes that a [`SlotTable`] holds (see its formula), [`MAX_TAG_LEN`]
/// bytes per entry, zero past `tag_len`: generated code keeps the first `tag_len` bytes.
/// A CRC-16 derivation's are in [`SlotTables::words`].
///
/// The alphabet being an affine subspace of GF(2)^8 indexed linearly, a tag's bytes are an
/// affine function of its mask: `word(a ^ b) = word(a) ^ word(b) ^ word(0)`, where `word(m)`
/// is the bytes of [`SlotTable::tag_from_mask`]. So the mask tables `low` and `high` of
/// [`SlotTables`] become tables of bytes with the base tag `word(0)` folded into `low`, and
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
    /// The byte tables of a CRC-16 derivation's masks (its `low`, `high` and `kernel`);
    /// `None` for a derivation without [`SlotTables`].
    ///
    /// # Examples
    ///
    /// ```
    /// let d = slotgen::derive(&slotgen::Spec::default()).unwrap();
    /// let words = slotgen::TagWords::new(&d).unwrap();
    /// // slot 5461's tag, "IDKA": 5461 = 85 + (42 << 7)
    /// let tag: Vec<u8> = (0..4).map(|i| words.low[85][i] ^ words.high[42][i]).collect();
    /// assert_eq!(tag, b"IDKA");
    /// assert_eq!(words, d.slot_tables.unwrap().words);
    /// ```
    #[must_use]
    pub fn new(derivation: &Derivation) -> Option<Self> {
        let tables = derivation.slot_tables.as_ref()?;
        Some(Self::of(derivation, derivation.crc16_engine()?, tables))
    }

    fn of(derivation: &Derivation, engine: &Crc16, tables: &SlotTables) -> Self {
        let view = SlotTable::<MAX_TAG_LEN>::new_unverified(
            engine,
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
        let base = usize::from(tables.map.offset);
        let low_bits = tables.low_bits;
        let base_low = base & ((1 << low_bits) - 1);
        let base_high = base >> low_bits;
        Self {
            low: (0..tables.low.len())
                .map(|v| word(tables.low[v ^ base_low]))
                .collect(),
            high: (0..tables.high.len())
                .map(|v| minus_zero(tables.high[v ^ base_high]))
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
    /// The derivation of `solution`, for `spec`, without two-load tables: the columns of
    /// its inverse and kernel as byte differences of the base tag.
    fn from_solution(spec: TableSpec, solution: Solution) -> Self {
        let Solution {
            scheme,
            alphabet,
            tag_len,
            solved,
            base_value,
            pivots,
            inverse,
            kernel,
            ..
        } = solution;
        let base_tag = vec![alphabet.offset(); tag_len];
        let word = |mask: u64| -> [u8; MAX_TAG_LEN] {
            let mut out = [0u8; MAX_TAG_LEN];
            for (o, (t, z)) in out
                .iter_mut()
                .zip(alphabet.tag(mask, tag_len).iter().zip(&base_tag))
            {
                *o = t ^ z;
            }
            out
        };
        let columns = inverse.iter().map(|&m| word(m)).collect();
        let kernel_words = kernel.iter().map(|&m| word(m)).collect();
        Self {
            spec,
            scheme,
            alphabet,
            tag_len,
            solved,
            base_value,
            pivots,
            inverse,
            kernel,
            columns,
            kernel_words,
            slot_tables: None,
        }
    }

    /// The integer type that holds this derivation's tag masks.
    #[must_use]
    pub fn mask_width(&self) -> MaskWidth {
        MaskWidth::for_bits(self.mask_bits())
    }

    /// The base slot: the slot of mask 0, the tag of `tag_len` copies of `alphabet[0]`.
    #[must_use]
    pub fn base_slot(&self) -> u32 {
        self.scheme
            .slot(&vec![self.alphabet.offset(); self.tag_len])
    }

    /// The solved bits: `log2(slots)` for a CRC-16 spec.
    #[must_use]
    pub fn slot_bits(&self) -> u32 {
        self.solved.bits()
    }

    /// The input bits of a tag mask: `tag_len * symbol_bits`.
    #[must_use]
    pub fn mask_bits(&self) -> usize {
        self.tag_len * self.alphabet.symbol_bits() as usize
    }

    /// The first slot: 0, or the scheme's offset (1 for Tarantool vshard).
    #[must_use]
    pub fn first_slot(&self) -> u32 {
        self.scheme.offset()
    }

    /// The number of slots; a slot is in `first_slot()..first_slot() + slots()`.
    #[must_use]
    pub fn slots(&self) -> u32 {
        self.scheme.slots()
    }

    /// The CRC-16 spec, for a derivation of one.
    #[must_use]
    pub fn crc16_spec(&self) -> Option<&Spec> {
        match &self.spec {
            TableSpec::Crc16(spec) => Some(spec),
            TableSpec::Scheme(_) => None,
        }
    }

    /// The runtime's CRC-16 engine of a CRC-16 spec, which [`slot_table`](Self::slot_table)
    /// borrows.
    #[must_use]
    pub fn crc16_engine(&self) -> Option<&'static Crc16> {
        self.slot_tables.as_ref()?;
        match self.scheme.crc() {
            slotgen_tables::AnyCrc::W16(engine) => Some(engine),
            _ => None,
        }
    }

    /// The runtime's table of any scheme over this derivation's columns.
    ///
    /// # Panics
    ///
    /// Never for a derivation from [`derive()`], whose tables the constructor's checks accept
    /// (a test checks it for every scheme).
    #[must_use]
    pub fn table(&self) -> SchemeTable<'_, MAX_TAG_LEN> {
        SchemeTable::try_new(
            self.scheme,
            self.alphabet.symbols(),
            self.tag_len,
            &self.columns,
            &self.kernel_words,
        )
        .expect("a derived table passes the runtime's checks")
    }

    /// The runtime's two-load [`SlotTable`] of a CRC-16 spec, borrowing
    /// [`SlotTables::words`], [`MAX_TAG_LEN`] bytes per entry whatever the tag length; `None`
    /// for any other scheme. Its shape is checked, not its content: [`verify`](crate::verify())
    /// checks that, and whether [`SlotTable::try_new`] accepts it.
    #[must_use]
    pub fn slot_table(&self) -> Option<SlotTable<'_, MAX_TAG_LEN>> {
        let (spec, tables) = (self.crc16_spec()?, self.slot_tables.as_ref()?);
        Some(SlotTable::new_unverified(
            self.crc16_engine()?,
            spec.crc_name(),
            self.alphabet.symbols(),
            self.tag_len,
            &tables.words.low,
            &tables.words.high,
            &tables.words.kernel,
        ))
    }

    /// The bytes of the tag with mask `mask` (bit numbering as in [`inverse`](Self::inverse)).
    #[must_use]
    pub fn tag_from_mask(&self, mask: u64) -> Vec<u8> {
        self.alphabet.tag(mask, self.tag_len)
    }
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

/// Derives the tables of `spec` (a CRC-16 [`Spec`], a named scheme's
/// [`SchemeSpec`], or either as a [`TableSpec`]) by
/// Gaussian elimination over GF(2) ([`crate::scheme::invert`]).
///
/// The linear part (`solved bits x tag_len * d`) is brought to reduced row echelon form;
/// its right inverse sets the free coordinates to zero, so `inverse[i]` is the unique
/// solution supported on the pivot columns (the lowest-indexed independent input bits).
/// For a CRC-16 spec the solved bits are the slot's, and the two-load tables split the
/// slot delta `d = slot ^ base_slot`: `low` takes its low `low_bits = ceil(log2(slots) /
/// 2)` bits and `high` the rest.
///
/// # Errors
///
/// For a CRC-16 spec:
/// - [`Error::UnsupportedWidth`], [`Error::CheckMismatch`]: the CRC.
/// - [`Error::SlotCount`]: `slots` is not a power of two in `2..=65536`.
/// - [`Error::BraceInAlphabet`], [`Error::DuplicateSymbol`], [`Error::AlphabetSize`],
///   [`Error::NotAffine`]: the alphabet.
/// - [`Error::TagLen`]: `tag_len` is 0 or above [`max_tag_len`].
/// - [`Error::RankDeficient`]: tags of this length do not reach every slot.
///
/// For a scheme, as [`derive_with`].
///
/// # Examples
///
/// ```
/// let d = slotgen::derive(&slotgen::Spec::default()).unwrap();
/// assert_eq!(d.base_slot(), 13881); // the slot of "@@@@"
/// assert_eq!(d.inverse[0], 0x88d4);
/// assert_eq!(d.slot_table().unwrap().tag_for_slot(0).unwrap().to_string(), "DLH@");
/// ```
pub fn derive<S: Clone + Into<TableSpec>>(spec: &S) -> Result<Derivation, Error> {
    match spec.clone().into() {
        TableSpec::Crc16(spec) => derive_crc16(&spec),
        TableSpec::Scheme(spec) => derive_with(&spec, spec.scheme()?),
    }
}

/// Solves `scheme` for tags of `spec`'s alphabet by Gaussian elimination over GF(2)
/// ([`crate::scheme::invert`]): the named scheme's own (what [`derive()`] does for a
/// [`SchemeSpec`]), or any other,
/// with any CRC of width 8 to 64 (a catalogue entry's engine, say), output transform,
/// reduction and offset. `spec` gives the alphabet and the tag length; its `name` labels
/// errors and stays in the derivation's `spec`, so a derivation of a custom scheme is for
/// checking and for the runtime's [`SchemeTable`], not for emitters, which name the scheme
/// in their output.
///
/// The linear part (`solved bits x tag_len * d`) is brought to reduced row echelon form; its
/// right inverse sets the free coordinates to zero, so `inverse[i]` is the unique solution
/// supported on the pivot columns that flips solved bit `i` alone, and the kernel has one
/// vector per free column. Pivot choice is fixed: the lowest-indexed independent input bits.
///
/// # Errors
///
/// - [`Error::SchemeValueMask`], [`Error::SlotsAboveValues`],
///   [`Error::UnsolvableRegister`]: the scheme.
/// - [`Error::BraceInAlphabet`], [`Error::DuplicateSymbol`], [`Error::AlphabetSize`],
///   [`Error::NotAffine`], [`Error::DelimiterInAlphabet`]: the alphabet.
/// - [`Error::TagLen`]: `tag_len` is 0 or above [`max_tag_len`].
/// - [`Error::SchemeRankDeficient`]: tags of this length (or of every length, when none
///   is given) do not control every solved bit.
///
/// # Examples
///
/// ```
/// use slotgen::scheme::invert::{SchemeSpec, Solved};
/// use slotgen_tables::SchemeName;
///
/// // Tarantool vshard, 3000 buckets: 3000 is no power of two, so the tag is solved for
/// // the whole 32-bit value, which 16-symbol tags control from 10 symbols on
/// let d = slotgen::derive(&SchemeSpec::new(SchemeName::TarantoolVshard))?;
/// assert_eq!((d.solved, d.tag_len), (Solved::WholeValue(32), 10));
/// let tag = d.table().tag_for_slot(1)?; // bucket ids are 1..=3000
/// assert_eq!(d.scheme.slot(tag.as_ref()), 1);
///
/// // Codis, 1024 slots: a power of two, so only the low 10 bits are solved
/// let codis = slotgen::derive(&SchemeSpec::new(SchemeName::Codis))?;
/// assert_eq!((codis.solved, codis.tag_len), (Solved::LowBits(10), 3));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
///
/// # Examples
///
/// ```
/// use slotgen::derive::derive_with;
/// use slotgen::scheme::invert::SchemeSpec;
/// use slotgen_tables::{AnyCrc, CrcEngine, HashtagRule, Reduction, Scheme, SchemeName};
///
/// // CRC-40/GSM of the whole key, % 1000: the whole 40-bit value is solved for
/// static GSM: CrcEngine<u64> = CrcEngine::<u64>::new(&crc::CRC_40_GSM);
/// let scheme = Scheme::new(HashtagRule::WholeKey, AnyCrc::W64(&GSM), 0, u64::MAX, Reduction::Modulus, 1000, 0)?;
/// let d = derive_with(&SchemeSpec::new(SchemeName::Librdkafka), scheme)?;
/// assert_eq!(d.tag_len, 14); // 56 input bits for 40 value bits (a separate Python
/// // elimination agrees)
/// assert_eq!(scheme.slot(d.table().tag_for_slot(999)?.as_ref()), 999);
///
/// // A whole 64-bit value needs more than the 64 input bits a tag can hold
/// static XZ: CrcEngine<u64> = CrcEngine::<u64>::new(&crc::CRC_64_XZ);
/// let scheme = Scheme::new(HashtagRule::WholeKey, AnyCrc::W64(&XZ), 0, u64::MAX, Reduction::Modulus, 1000, 0)?;
/// assert!(derive_with(&SchemeSpec::new(SchemeName::Librdkafka), scheme).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn derive_with(spec: &SchemeSpec, scheme: Scheme<'static>) -> Result<Derivation, Error> {
    let solution = eliminate(spec, scheme, &|tag| scheme.value(tag))?;
    Ok(Derivation::from_solution(
        TableSpec::Scheme(solution.spec.clone()),
        solution,
    ))
}

/// A CRC-16 spec derived as its scheme, with its two-load tables.
fn derive_crc16(spec: &Spec) -> Result<Derivation, Error> {
    let (alphabet, slots) = spec.check()?;
    let max = max_tag_len(alphabet.symbol_bits());
    if let Some(n) = spec.tag_len.filter(|n| !(1..=max).contains(n)) {
        return Err(Error::TagLen {
            tag_len: n,
            max,
            symbol_bits: alphabet.symbol_bits(),
        });
    }
    let scheme = crc16_scheme(&spec.crc, slots);
    let scheme_spec = SchemeSpec {
        alphabet: spec.alphabet.clone(),
        tag_len: spec.tag_len,
        ..SchemeSpec::new(SchemeName::RedisCluster)
    };
    let solution =
        eliminate(&scheme_spec, scheme, &|tag| scheme.value(tag)).map_err(|e| match e {
            Error::SchemeRankDeficient {
                rank,
                needed,
                tag_len,
                ..
            } => Error::RankDeficient {
                rank,
                needed,
                reachable: 1 << rank,
                slots: u64::from(spec.slots),
                tag_len,
                shortest: shortest_len(spec, &alphabet, slots),
            },
            other => other,
        })?;
    let linear = solution.linear.clone();
    let resolved = Spec {
        tag_len: Some(solution.tag_len),
        ..spec.clone()
    };
    let mut derivation = Derivation::from_solution(TableSpec::Crc16(resolved), solution);
    let needed = slots.bits() as usize;
    let low_bits = (needed as u32).div_ceil(2);
    let span = |constants: &[u64]| -> Vec<u64> {
        let mut table = vec![0u64];
        for &c in constants {
            let doubled: Vec<u64> = table.iter().map(|&m| m ^ c).collect();
            table.extend(doubled);
        }
        table
    };
    let mut tables = SlotTables {
        map: AffineMap {
            offset: u16::try_from(derivation.base_value).expect("a slot of at most 16 bits"),
            columns: linear
                .iter()
                .map(|&c| u16::try_from(c).expect("a slot delta of at most 16 bits"))
                .collect(),
            slot_bits: slots.bits(),
        },
        low_bits,
        low: span(&derivation.inverse[..low_bits as usize]),
        high: span(&derivation.inverse[low_bits as usize..]),
        words: TagWords {
            low: Vec::new(),
            high: Vec::new(),
            kernel: Vec::new(),
        },
    };
    tables.words = TagWords::of(&derivation, engine_of(&spec.crc), &tables);
    derivation.slot_tables = Some(tables);
    Ok(derivation)
}
