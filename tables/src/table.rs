//! [`SlotTable`]: the static data of one derivation, and its lookups.

use core::fmt;

use crate::{Crc16, Error};

/// The longest tag a [`SlotTable`] holds, in symbols (bytes).
pub const MAX_TAG_LEN: usize = 32;

/// The most bits a tag mask holds: `tag_len * symbol_bits <= 64`, so that a mask is a `u64`.
pub const MAX_MASK_BITS: usize = 64;

/// The inverse of a hash slot function for one alphabet and tag length: what slotgen derives,
/// as static data, with O(1) slot -> tag lookups.
///
/// The slot of a tag is `crc(tag) & (slots - 1)`. For tags of `tag_len` symbols over an
/// alphabet of `2^symbol_bits` symbols that is an affine subspace of GF(2)^8, the slot is an
/// affine map over GF(2) of the tag's bytes, and (the slot map having full rank) it has an
/// affine right inverse: a tag for each slot whose bytes are an affine function of the slot's
/// bits. The table holds that inverse as two tables of tag bytes, split on the slot's bits:
///
/// ```text
/// tag(slot) = low[slot & (low.len() - 1)] ^ high[slot >> log2(low.len())]
/// ```
///
/// where the xor is byte by byte over `N` bytes: `low` (`2^ceil(log2(slots) / 2)` entries)
/// holds whole tags, `high` (`2^floor(log2(slots) / 2)` entries) holds byte differences. For
/// Redis Cluster that is 128 + 128 entries of `[u8; 4]`: 1 KiB, two loads and one 4-byte xor
/// per lookup. Every other tag of a slot is its canonical tag xor a combination of the
/// `kernel` entries, byte differences that do not move the slot.
///
/// `N` is the tag's byte count as stored: generated tables use `N = tag_len`, so a [`Tag`]
/// is `N + 1` bytes. `size_of::<SlotTable<N>>()` is 112 bytes on 64-bit targets, whatever
/// `N` (pointers to the tables and the alphabet, and the parameters); the tables it borrows
/// are `(low.len() + high.len() + kernel.len()) * N` bytes (1,032 for Redis Cluster: 1 KiB
/// of lookup tables and 8 bytes of kernel), and the CRC engine ([`Crc16`], 8,242 bytes, 8,264
/// with the `simd` feature) is borrowed too.
///
/// Values of this type are generated (by `slotgen emit rust`, `slot_table!` or the build.rs
/// API) through [`SlotTable::new`], which checks the tables in a `const` context: an
/// inconsistent table does not compile. The fields are private, so their shape can change
/// without breaking callers.
///
/// A generated table is a `const` (as [`REDIS_CLUSTER`](crate::REDIS_CLUSTER) is) with its
/// own `const` engine, so that every caller's compiler sees the table's and the engine's
/// parameters (`refin`, `xorout`, the slot mask, the tables' address) as constants and
/// inlines [`key_slot`](Self::key_slot) of a short key to a few table loads; the `low`,
/// `high` and `kernel` tables stay `static`s (one copy), and the 8 KiB engine is emitted
/// once in each code-generation unit that uses the table (one per binary with LTO). A
/// `static` table (`slot_table! { static NAME = .. }`) borrows the shared engine of
/// [`catalog`](crate::catalog) instead: one address and no copy, its parameters read
/// through the static at each call. `&REDIS_CLUSTER` is a `&'static SlotTable` (constant
/// promotion), and `static TABLE: SlotTable<'static, 4> = REDIS_CLUSTER;` gives the table
/// one address where that matters (its callers then read it through the static).
///
/// # Examples
///
/// ```
/// use slotgen_tables::REDIS_CLUSTER;
///
/// assert_eq!(REDIS_CLUSTER.key_slot(b"123456789"), 12739);
/// let tag = REDIS_CLUSTER.tag_for_slot(0).unwrap();
/// assert_eq!(tag.as_ref(), b"DLH@");
/// assert_eq!(REDIS_CLUSTER.key_slot(tag.as_ref()), 0);
///
/// // The table, its tables and its engine.
/// # #[cfg(target_pointer_width = "64")]
/// assert_eq!(core::mem::size_of_val(&REDIS_CLUSTER), 112);
/// let (low, high) = (REDIS_CLUSTER.low(), REDIS_CLUSTER.high());
/// assert_eq!(core::mem::size_of_val(low) + core::mem::size_of_val(high), 1024);
/// assert_eq!(core::mem::size_of_val(REDIS_CLUSTER.kernel()), 8);
/// assert_eq!(REDIS_CLUSTER.crc().algorithm().poly, slotgen_tables::crc::CRC_16_XMODEM.poly);
/// let table: &'static slotgen_tables::SlotTable<'static, 4> = &REDIS_CLUSTER;
/// static ONE_ADDRESS: slotgen_tables::SlotTable<'static, 4> = REDIS_CLUSTER;
/// assert_eq!(ONE_ADDRESS.key_slot(b"123456789"), table.key_slot(b"123456789"));
/// # #[cfg(all(target_pointer_width = "64", not(feature = "simd")))]
/// assert_eq!(core::mem::size_of_val(REDIS_CLUSTER.crc()), 8242);
/// # #[cfg(all(target_pointer_width = "64", feature = "simd"))]
/// assert_eq!(core::mem::size_of_val(REDIS_CLUSTER.crc()), 8264);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct SlotTable<'a, const N: usize> {
    crc: &'a Crc16,
    crc_name: &'a str,
    /// A power of two in `2..=65536`.
    slots: u32,
    /// `2^symbol_bits` bytes in ascending order.
    alphabet: &'a [u8],
    symbol_bits: u32,
    /// In `1..=N`.
    tag_len: u8,
    base_slot: u16,
    /// `log2(low.len())`.
    low_bits: u32,
    /// `low.len() - 1`, as a `usize`.
    low_mask: usize,
    low: &'a [[u8; N]],
    high: &'a [[u8; N]],
    kernel: &'a [[u8; N]],
}

/// The shape of a table, checked by every constructor: what a lookup needs in order never to
/// index out of bounds. Returns `(slots, symbol_bits, low_bits)`.
const fn check_shape<const N: usize>(
    alphabet: &[u8],
    tag_len: usize,
    low: usize,
    high: usize,
) -> Result<(u32, u32, u32), &'static str> {
    if N == 0 || N > MAX_TAG_LEN {
        return Err("the tag byte count `N` is not in `1..=32`");
    }
    if tag_len == 0 || tag_len > N {
        return Err("`tag_len` is not in `1..=N`");
    }
    if !alphabet.len().is_power_of_two() || alphabet.len() < 2 || alphabet.len() > 128 {
        return Err("the alphabet does not have 2, 4, .., or 128 symbols");
    }
    let symbol_bits = alphabet.len().trailing_zeros();
    if tag_len * symbol_bits as usize > MAX_MASK_BITS {
        return Err("`tag_len * symbol_bits` is above 64");
    }
    if !low.is_power_of_two() || !high.is_power_of_two() || !(low == high || low == 2 * high) {
        return Err("`low` and `high` do not split a power of two of slots (`low.len()` must be `high.len()` or twice it)");
    }
    let slots = low * high;
    if slots < 2 || slots > 65536 {
        return Err("`low.len() * high.len()` (the slot count) is not in `2..=65536`");
    }
    Ok((slots as u32, symbol_bits, low.trailing_zeros()))
}

pub(crate) const fn xor_const<const N: usize>(a: [u8; N], b: [u8; N]) -> [u8; N] {
    let mut out = a;
    let mut i = 0;
    while i < N {
        out[i] ^= b[i];
        i += 1;
    }
    out
}

const fn eq_const<const N: usize>(a: &[u8; N], b: &[u8; N]) -> bool {
    let mut i = 0;
    while i < N {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// Whether every byte of `entry` below `tag_len` is in `set` and every byte from `tag_len` on
/// is zero.
const fn bytes_in<const N: usize>(entry: &[u8; N], tag_len: usize, set: &[bool; 256]) -> bool {
    let mut i = 0;
    while i < N {
        if (i < tag_len && !set[entry[i] as usize]) || (i >= tag_len && entry[i] != 0) {
            return false;
        }
        i += 1;
    }
    true
}

/// Whether `table[v] == table[v & (v - 1)] ^ table[lowest bit of v] ^ table[0]` for every
/// `v`: the table is an affine function of its index.
const fn is_affine<const N: usize>(table: &[[u8; N]]) -> bool {
    let mut v = 1;
    while v < table.len() {
        let rest = v & (v - 1);
        let bit = v & v.wrapping_neg();
        let expected = xor_const(xor_const(table[rest], table[bit]), table[0]);
        if !eq_const(&table[v], &expected) {
            return false;
        }
        v += 1;
    }
    true
}

/// Checks the content of a table whose shape [`check_shape`] accepted: see
/// [`SlotTable::new`]. Returns the base slot.
#[allow(clippy::too_many_arguments)]
const fn check_content<const N: usize>(
    crc: &Crc16,
    slots: u32,
    alphabet: &[u8],
    tag_len: usize,
    low_bits: u32,
    low: &[[u8; N]],
    high: &[[u8; N]],
    kernel: &[[u8; N]],
) -> Result<u16, &'static str> {
    let slot_mask = (slots - 1) as u16;
    let mut in_alphabet = [false; 256];
    let mut in_linear = [false; 256];
    let mut i = 0;
    while i < alphabet.len() {
        let b = alphabet[i];
        if b == b'{' || b == b'}' {
            return Err("the alphabet holds `{` or `}`");
        }
        if i > 0 && alphabet[i - 1] >= b {
            return Err("the alphabet is not in strictly ascending byte order");
        }
        in_alphabet[b as usize] = true;
        in_linear[(b ^ alphabet[0]) as usize] = true;
        i += 1;
    }
    // Affine: `a ^ b ^ alphabet[0]` is in the alphabet for every pair.
    let mut i = 0;
    while i < alphabet.len() {
        let mut j = 0;
        while j < alphabet.len() {
            if !in_alphabet[(alphabet[i] ^ alphabet[j] ^ alphabet[0]) as usize] {
                return Err("the alphabet is not an affine subspace of GF(2)^8");
            }
            j += 1;
        }
        i += 1;
    }
    let mut v = 0;
    while v < low.len() {
        if !bytes_in(&low[v], tag_len, &in_alphabet) {
            return Err(
                "a `low` entry holds a byte outside the alphabet, or a nonzero byte past `tag_len`",
            );
        }
        v += 1;
    }
    let mut v = 0;
    while v < high.len() {
        if !bytes_in(&high[v], tag_len, &in_linear) {
            return Err("a `high` entry is not a difference of two tags (a byte outside `alphabet[0] ^ alphabet`, or a nonzero byte past `tag_len`)");
        }
        v += 1;
    }
    let mut v = 0;
    while v < kernel.len() {
        if !bytes_in(&kernel[v], tag_len, &in_linear) {
            return Err("a `kernel` entry is not a difference of two tags (a byte outside `alphabet[0] ^ alphabet`, or a nonzero byte past `tag_len`)");
        }
        v += 1;
    }
    if !is_affine(low) || !is_affine(high) {
        return Err("`low` or `high` is not an affine function of its index");
    }
    // The lookup is affine in the slot's bits, and so is the CRC over tags of one length:
    // their composition is the identity if it is at slot 0 and at every single-bit slot.
    let slot_bits = slots.trailing_zeros();
    let origin = xor_const(low[0], high[0]);
    if crc.const_checksum(origin.split_at(tag_len).0) & slot_mask != 0 {
        return Err("the tag of slot 0 does not land on slot 0");
    }
    let mut bit = 0;
    while bit < slot_bits {
        let tag = if bit < low_bits {
            xor_const(low[1 << bit], high[0])
        } else {
            xor_const(low[0], high[1 << (bit - low_bits)])
        };
        if crc.const_checksum(tag.split_at(tag_len).0) & slot_mask != 1 << bit {
            return Err("the tag of a single-bit slot does not land on that slot");
        }
        bit += 1;
    }
    let mask_bits = tag_len * alphabet.len().trailing_zeros() as usize;
    if mask_bits < slot_bits as usize || kernel.len() != mask_bits - slot_bits as usize {
        return Err("`kernel.len()` is not `tag_len * symbol_bits - log2(slots)`");
    }
    // Each kernel entry keeps the slot, and the entries are independent (elimination over
    // GF(2) on their bits), so each slot has `2^kernel.len()` distinct tags.
    let mut basis = [[0u8; N]; MAX_MASK_BITS];
    let mut pivots = [0usize; MAX_MASK_BITS];
    let mut k = 0;
    while k < kernel.len() {
        let moved = xor_const(origin, kernel[k]);
        if crc.const_checksum(moved.split_at(tag_len).0) & slot_mask != 0 {
            return Err("a `kernel` entry moves the slot");
        }
        let mut row = kernel[k];
        let mut r = 0;
        while r < k {
            let p = pivots[r];
            if row[p / 8] >> (p % 8) & 1 != 0 {
                row = xor_const(row, basis[r]);
            }
            r += 1;
        }
        let mut p = 0;
        while p < 8 * N && row[p / 8] >> (p % 8) & 1 == 0 {
            p += 1;
        }
        if p == 8 * N {
            return Err("the `kernel` entries are not linearly independent");
        }
        basis[k] = row;
        pivots[k] = p;
        k += 1;
    }
    let mut base = [0u8; N];
    let mut i = 0;
    while i < tag_len {
        base[i] = alphabet[0];
        i += 1;
    }
    Ok(crc.const_checksum(base.split_at(tag_len).0) & slot_mask)
}

impl<'a, const N: usize> SlotTable<'a, N> {
    /// A table from its parts, checked; in a `const` or `static`, at compile time. Generated
    /// code calls this; the parts are those of [`SlotTable`]'s formula:
    ///
    /// - `crc`: the CRC engine: a `const` of the generated table's own, or a shared static of
    ///   [`catalog`](crate::catalog).
    /// - `crc_name`: its catalogue name (`CRC-16/XMODEM`), or `custom`.
    /// - `alphabet`: `2^symbol_bits` symbols (2 to 128) in ascending byte order, an affine
    ///   subspace of GF(2)^8, without `{` or `}`.
    /// - `tag_len`: symbols per tag, in `1..=N`, with `tag_len * symbol_bits <= 64`.
    /// - `low`: `2^ceil(log2(slots) / 2)` tags, indexed by the slot's low bits.
    /// - `high`: `2^floor(log2(slots) / 2)` byte differences, indexed by the slot's high
    ///   bits. The slot count is `low.len() * high.len()`.
    /// - `kernel`: `tag_len * symbol_bits - log2(slots)` byte differences that keep the slot.
    ///
    /// Bytes of an entry at or past `tag_len` are zero.
    ///
    /// # Panics
    ///
    /// When the parts are inconsistent, with the reason [`try_new`](Self::try_new) gives (at
    /// compile time, in a `const` or `static`): a wrong shape, a byte outside the alphabet, a
    /// table that is not affine, a tag that does not land on its slot (checked at slot 0 and
    /// every single-bit slot, which decides every slot because the lookup and the CRC are
    /// both affine), a kernel entry that moves the slot or depends on the others.
    ///
    /// # Examples
    ///
    /// A 2-slot table of CRC-16/XMODEM over tags of one symbol `@` or `A` (the slot of `@` is
    /// 0, of `A` is 1):
    ///
    /// ```
    /// use slotgen_tables::{catalog, SlotTable};
    ///
    /// static LOW: [[u8; 1]; 2] = [*b"@", *b"A"];
    /// static TINY: SlotTable<'static, 1> =
    ///     SlotTable::new(&catalog::CRC_16_XMODEM, "CRC-16/XMODEM", b"@A", 1, &LOW, &[[0]], &[]);
    /// assert_eq!(TINY.tag_for_slot(1).unwrap().as_ref(), b"A");
    /// ```
    ///
    /// Swapping the two tags does not compile: `error[E0080]: evaluation of constant value
    /// failed ... the tag of slot 0 does not land on slot 0`.
    #[must_use]
    pub const fn new(
        crc: &'a Crc16,
        crc_name: &'a str,
        alphabet: &'a [u8],
        tag_len: usize,
        low: &'a [[u8; N]],
        high: &'a [[u8; N]],
        kernel: &'a [[u8; N]],
    ) -> Self {
        match Self::checked(crc, crc_name, alphabet, tag_len, low, high, kernel) {
            Ok(table) => table,
            Err(reason) => panic!("{}", reason),
        }
    }

    /// As [`new`](Self::new), at run time, with an error instead of a panic.
    ///
    /// # Errors
    ///
    /// [`Error::InconsistentTable`] with the reason, for the inconsistencies listed at
    /// [`new`](Self::new).
    ///
    /// # Examples
    ///
    /// ```
    /// use slotgen_tables::{catalog, Error, SlotTable};
    ///
    /// let (good, swapped) = ([*b"@", *b"A"], [*b"A", *b"@"]);
    /// let crc = &catalog::CRC_16_XMODEM;
    /// assert!(SlotTable::try_new(crc, "", b"@A", 1, &good, &[[0]], &[]).is_ok());
    /// assert_eq!(
    ///     SlotTable::try_new(crc, "", b"@A", 1, &swapped, &[[0]], &[]).unwrap_err(),
    ///     Error::InconsistentTable { reason: "the tag of slot 0 does not land on slot 0" },
    /// );
    /// ```
    pub fn try_new(
        crc: &'a Crc16,
        crc_name: &'a str,
        alphabet: &'a [u8],
        tag_len: usize,
        low: &'a [[u8; N]],
        high: &'a [[u8; N]],
        kernel: &'a [[u8; N]],
    ) -> Result<Self, Error> {
        Self::checked(crc, crc_name, alphabet, tag_len, low, high, kernel)
            .map_err(|reason| Error::InconsistentTable { reason })
    }

    const fn checked(
        crc: &'a Crc16,
        crc_name: &'a str,
        alphabet: &'a [u8],
        tag_len: usize,
        low: &'a [[u8; N]],
        high: &'a [[u8; N]],
        kernel: &'a [[u8; N]],
    ) -> Result<Self, &'static str> {
        let (slots, symbol_bits, low_bits) =
            match check_shape::<N>(alphabet, tag_len, low.len(), high.len()) {
                Ok(shape) => shape,
                Err(reason) => return Err(reason),
            };
        let base_slot =
            match check_content(crc, slots, alphabet, tag_len, low_bits, low, high, kernel) {
                Ok(base) => base,
                Err(reason) => return Err(reason),
            };
        Ok(Self {
            crc,
            crc_name,
            slots,
            alphabet,
            symbol_bits,
            tag_len: tag_len as u8,
            base_slot,
            low_bits,
            low_mask: low.len() - 1,
            low,
            high,
            kernel,
        })
    }

    /// A table whose shape is checked but not its content: its lookups never panic, but
    /// their tags may be wrong. For slotgen's verifier, which checks the content itself tag
    /// by tag (and reports what [`try_new`](Self::try_new) says), and for the `slot_table!`
    /// macro's placeholder beside a compile error. Not for tables that are used.
    ///
    /// # Panics
    ///
    /// When the shape is wrong (see [`new`](Self::new)).
    #[doc(hidden)]
    #[must_use]
    pub const fn new_unverified(
        crc: &'a Crc16,
        crc_name: &'a str,
        alphabet: &'a [u8],
        tag_len: usize,
        low: &'a [[u8; N]],
        high: &'a [[u8; N]],
        kernel: &'a [[u8; N]],
    ) -> Self {
        let (slots, symbol_bits, low_bits) =
            match check_shape::<N>(alphabet, tag_len, low.len(), high.len()) {
                Ok(shape) => shape,
                Err(reason) => panic!("{}", reason),
            };
        let mut base = [0u8; N];
        let mut i = 0;
        while i < tag_len {
            base[i] = alphabet[0];
            i += 1;
        }
        Self {
            crc,
            crc_name,
            slots,
            alphabet,
            symbol_bits,
            tag_len: tag_len as u8,
            base_slot: crc.const_checksum(base.split_at(tag_len).0) & (slots - 1) as u16,
            low_bits,
            low_mask: low.len() - 1,
            low,
            high,
            kernel,
        }
    }

    /// The CRC engine of the slot function.
    #[must_use]
    pub const fn crc(&self) -> &'a Crc16 {
        self.crc
    }

    /// The CRC's catalogue name (`CRC-16/XMODEM`), or `custom`.
    #[must_use]
    pub const fn crc_name(&self) -> &'a str {
        self.crc_name
    }

    /// The number of hash slots: a power of two in `2..=65536`. A slot is in `0..slots`.
    #[must_use]
    pub const fn slots(&self) -> u32 {
        self.slots
    }

    /// The alphabet in index order (ascending byte order): symbol `i` is `alphabet[i]`.
    #[must_use]
    pub const fn alphabet(&self) -> &'a [u8] {
        self.alphabet
    }

    /// Bits per symbol: `log2(alphabet().len())`, in `1..=7`.
    #[must_use]
    pub const fn symbol_bits(&self) -> u32 {
        self.symbol_bits
    }

    /// Symbols (bytes) per tag, in `1..=N`.
    #[must_use]
    pub const fn tag_len(&self) -> usize {
        self.tag_len as usize
    }

    /// The slot of the tag whose every symbol is `alphabet[0]` (mask 0): the slot map's
    /// offset.
    #[must_use]
    pub const fn base_slot(&self) -> u16 {
        self.base_slot
    }

    /// The `low` table (see [`SlotTable`]): `2^ceil(log2(slots) / 2)` tags of `N` bytes,
    /// indexed by the slot's low bits.
    #[must_use]
    pub const fn low(&self) -> &'a [[u8; N]] {
        self.low
    }

    /// The `high` table (see [`SlotTable`]): `2^floor(log2(slots) / 2)` byte differences of
    /// `N` bytes, indexed by the slot's high bits.
    #[must_use]
    pub const fn high(&self) -> &'a [[u8; N]] {
        self.high
    }

    /// The kernel (see [`SlotTable`]): `tag_len * symbol_bits - log2(slots)` independent
    /// byte differences of `N` bytes that keep the slot.
    #[must_use]
    pub const fn kernel(&self) -> &'a [[u8; N]] {
        self.kernel
    }

    /// The hash slot of `key`: the CRC of its [`hashtag`](crate::hashtag) (by
    /// [`Crc16::key_checksum`]), masked to `slots - 1`. For
    /// [`REDIS_CLUSTER`](crate::REDIS_CLUSTER) this is what `CLUSTER KEYSLOT` answers.
    ///
    /// # Examples
    ///
    /// ```
    /// use slotgen_tables::REDIS_CLUSTER;
    ///
    /// assert_eq!(REDIS_CLUSTER.key_slot(b"emq:{orders}:pending"), 105);
    /// assert_eq!(REDIS_CLUSTER.key_slot(b"emq:{}:pending"), 7387);
    /// ```
    #[must_use]
    #[inline]
    pub fn key_slot(&self, key: &[u8]) -> u16 {
        // `slots` is at most 65536, so the mask fits 16 bits.
        self.crc.key_checksum(key) & ((self.slots - 1) as u16)
    }

    /// The hash slots of many keys at once: `out[i]` becomes
    /// [`key_slot`](Self::key_slot)`(keys[i])` for every `i` below `keys.len()`; `out`'s
    /// entries past that are left as they are. One pass of [`key_slot`](Self::key_slot):
    /// the CPU overlaps the table loads of consecutive keys, which are independent, and
    /// running four CRCs in lockstep measured no faster (x86-64, 8 to 64-byte keys).
    ///
    /// # Panics
    ///
    /// When `out` is shorter than `keys`.
    ///
    /// # Examples
    ///
    /// ```
    /// use slotgen_tables::REDIS_CLUSTER;
    ///
    /// let keys: [&[u8]; 3] = [b"user:{42}:name", b"user:{42}:mail", b"foo"];
    /// let mut slots = [0u16; 3];
    /// REDIS_CLUSTER.key_slots(&keys, &mut slots);
    /// assert_eq!(slots, [8000, 8000, 12182]);
    /// ```
    #[track_caller]
    pub fn key_slots<K: AsRef<[u8]>>(&self, keys: &[K], out: &mut [u16]) {
        crate::engine::check_out(out.len(), keys.len());
        for (key, slot) in keys.iter().zip(out) {
            *slot = self.key_slot(key.as_ref());
        }
    }

    /// A tag that lands on `slot`, in O(1): two table loads and an `N`-byte xor. The tag is
    /// the canonical one: the first of [`tags_for_slot`](Self::tags_for_slot).
    ///
    /// # Errors
    ///
    /// [`Error::SlotOutOfRange`] when `slot >= slots`.
    ///
    /// # Examples
    ///
    /// ```
    /// use slotgen_tables::REDIS_CLUSTER;
    ///
    /// assert_eq!(REDIS_CLUSTER.tag_for_slot(5461).unwrap().to_string(), "IDKA");
    /// assert!(REDIS_CLUSTER.tag_for_slot(16384).is_err());
    /// ```
    #[inline]
    pub fn tag_for_slot(&self, slot: u16) -> Result<Tag<N>, Error> {
        let slot = usize::from(slot);
        // `high` has `slots >> low_bits` entries, so this is the range check.
        let Some(high) = self.high.get(slot >> self.low_bits) else {
            return Err(self.out_of_range(slot));
        };
        let low = &self.low[slot & self.low_mask];
        Ok(Tag {
            bytes: xor(low, high),
            len: self.tag_len,
        })
    }

    /// The canonical tag mask of `slot`: bit `symbol_bits * k + j` is bit `j` of the index
    /// in the alphabet of the tag's symbol `k`, counting symbols from the tag's first byte
    /// (for 4-symbol tags over 16 symbols, bits 0..4 give the first symbol and bits 12..16
    /// the last). [`tag_from_mask`](Self::tag_from_mask) is its inverse.
    ///
    /// # Errors
    ///
    /// [`Error::SlotOutOfRange`] when `slot >= slots`.
    ///
    /// # Examples
    ///
    /// ```
    /// use slotgen_tables::REDIS_CLUSTER;
    ///
    /// // "DLH@": indices 4, 12, 8, 0 in `@ABCDEFGHIJKLMNO`
    /// assert_eq!(REDIS_CLUSTER.mask_for_slot(0).unwrap(), 0x08c4);
    /// ```
    pub fn mask_for_slot(&self, slot: u16) -> Result<u64, Error> {
        let tag = self.tag_for_slot(slot)?;
        let mut mask = 0;
        for (k, b) in tag.as_ref().iter().enumerate() {
            // Every byte of a tag is in the alphabet (checked when the table was made).
            let index = self.alphabet.binary_search(b).unwrap_or(0) as u64;
            mask |= index << (self.symbol_bits as usize * k);
        }
        Ok(mask)
    }

    /// Every tag of the alphabet and length that lands on `slot`: `2^kernel.len()` of them,
    /// the canonical one ([`tag_for_slot`](Self::tag_for_slot)) first, then the canonical
    /// tag xor each nonzero combination of kernel entries, in binary counting order.
    ///
    /// # Errors
    ///
    /// [`Error::SlotOutOfRange`] when `slot >= slots`.
    ///
    /// # Examples
    ///
    /// ```
    /// use slotgen_tables::REDIS_CLUSTER;
    ///
    /// let tags = REDIS_CLUSTER.tags_for_slot(0).unwrap();
    /// assert_eq!(tags.len(), 4);
    /// for tag in tags {
    ///     assert_eq!(REDIS_CLUSTER.key_slot(tag.as_ref()), 0);
    /// }
    /// ```
    pub fn tags_for_slot(&self, slot: u16) -> Result<Tags<'_, 'a, N>, Error> {
        let tag = self.tag_for_slot(slot)?;
        Ok(Tags {
            table: self,
            tag: tag.bytes,
            next: 0,
            // `kernel.len() < 64`: the map has rank at least 1.
            end: 1u64 << self.kernel.len(),
        })
    }

    /// Writes the key `prefix {tag} suffix` for `slot` into `out` and returns its length.
    /// The key's hashtag is the tag, so the key lands on `slot` whatever the suffix holds.
    ///
    /// # Errors
    ///
    /// - [`Error::SlotOutOfRange`] when `slot >= slots`.
    /// - [`Error::PrefixHasDelimiter`] when `prefix` contains `{`: the key's hashtag would
    ///   start there, not at the tag.
    /// - [`Error::BufferTooSmall`] when `out` is shorter than the key.
    ///
    /// # Examples
    ///
    /// ```
    /// use slotgen_tables::REDIS_CLUSTER;
    ///
    /// let mut buf = [0u8; 64];
    /// let len = REDIS_CLUSTER.write_key_for_slot(b"ms_health:", 0, b":write", &mut buf).unwrap();
    /// assert_eq!(&buf[..len], b"ms_health:{DLH@}:write");
    /// ```
    pub fn write_key_for_slot(
        &self,
        prefix: &[u8],
        slot: u16,
        suffix: &[u8],
        out: &mut [u8],
    ) -> Result<usize, Error> {
        let tag = self.tag_for_slot(slot)?;
        Self::write_key(prefix, tag.as_ref(), suffix, out)
    }

    /// Writes the key `prefix {tag} suffix` into `out` and returns its length, for a tag of
    /// [`tags_for_slot`](Self::tags_for_slot).
    ///
    /// # Errors
    ///
    /// As [`write_key_for_slot`](Self::write_key_for_slot), less the slot's.
    pub fn write_key(
        prefix: &[u8],
        tag: &[u8],
        suffix: &[u8],
        out: &mut [u8],
    ) -> Result<usize, Error> {
        check_prefix(prefix)?;
        concat_into(out, [prefix, b"{", tag, b"}", suffix])
    }

    /// The key `prefix {tag} suffix` for `slot`, as a new vector.
    ///
    /// # Errors
    ///
    /// As [`write_key_for_slot`](Self::write_key_for_slot), less `BufferTooSmall`.
    ///
    /// # Examples
    ///
    /// ```
    /// use slotgen_tables::REDIS_CLUSTER;
    ///
    /// let key = REDIS_CLUSTER.key_for_slot(b"ms_health:", 16383, b":write").unwrap();
    /// assert_eq!(key, b"ms_health:{EKCA}:write");
    /// assert!(REDIS_CLUSTER.key_for_slot(b"a{b", 0, b"").is_err());
    /// ```
    #[cfg(feature = "alloc")]
    pub fn key_for_slot(
        &self,
        prefix: &[u8],
        slot: u16,
        suffix: &[u8],
    ) -> Result<alloc::vec::Vec<u8>, Error> {
        let tag = self.tag_for_slot(slot)?;
        check_prefix(prefix)?;
        let mut key = alloc::vec::Vec::with_capacity(prefix.len() + tag.len() + 2 + suffix.len());
        key.extend_from_slice(prefix);
        key.push(b'{');
        key.extend_from_slice(tag.as_ref());
        key.push(b'}');
        key.extend_from_slice(suffix);
        Ok(key)
    }

    /// The tag whose symbol indices are the bits of `mask` (numbered as for
    /// [`mask_for_slot`](Self::mask_for_slot)). Bits at or above `tag_len * symbol_bits` are
    /// ignored.
    ///
    /// # Examples
    ///
    /// ```
    /// use slotgen_tables::REDIS_CLUSTER;
    ///
    /// assert_eq!(REDIS_CLUSTER.tag_from_mask(0x08c4).as_ref(), b"DLH@");
    /// assert_eq!(REDIS_CLUSTER.tag_from_mask(0).as_ref(), b"@@@@");
    /// ```
    #[must_use]
    pub fn tag_from_mask(&self, mask: u64) -> Tag<N> {
        let symbol_mask = (1u64 << self.symbol_bits) - 1;
        let mut bytes = [0; N];
        for (k, byte) in bytes.iter_mut().take(self.tag_len()).enumerate() {
            // `tag_len * symbol_bits <= 64`, so the shift is below 64.
            let index = (mask >> (self.symbol_bits as usize * k)) & symbol_mask;
            *byte = self.alphabet[index as usize];
        }
        Tag {
            bytes,
            len: self.tag_len,
        }
    }

    /// How many tags land on each slot: `2^kernel.len()`.
    #[must_use]
    pub fn tags_per_slot(&self) -> u64 {
        1u64 << self.kernel.len()
    }

    #[cold]
    fn out_of_range(&self, slot: usize) -> Error {
        Error::SlotOutOfRange {
            slot: slot as u32,
            first: 0,
            last: self.slots - 1,
        }
    }
}

/// `a ^ b`, in the widest words that fit (one `u32` xor for `N = 4`): a byte-by-byte xor
/// compiles to byte operations whose results are reassembled, which cost the dependent
/// chain more than twice the time of one word.
#[inline(always)]
pub(crate) fn xor<const N: usize>(a: &[u8; N], b: &[u8; N]) -> [u8; N] {
    macro_rules! word {
        ($t:ty, $out:ident, $i:ident) => {{
            const W: usize = core::mem::size_of::<$t>();
            let mut x = [0u8; W];
            let mut y = [0u8; W];
            x.copy_from_slice(&a[$i..$i + W]);
            y.copy_from_slice(&b[$i..$i + W]);
            let z = <$t>::from_ne_bytes(x) ^ <$t>::from_ne_bytes(y);
            $out[$i..$i + W].copy_from_slice(&z.to_ne_bytes());
            $i += W;
        }};
    }
    let mut out = [0u8; N];
    let mut i = 0;
    while i + 8 <= N {
        word!(u64, out, i);
    }
    if i + 4 <= N {
        word!(u32, out, i);
    }
    if i + 2 <= N {
        word!(u16, out, i);
    }
    if i < N {
        out[i] = a[i] ^ b[i];
    }
    out
}

/// Writes `parts` one after the other into `out` and returns their length.
///
/// # Errors
///
/// [`Error::BufferTooSmall`] when `out` cannot hold them; nothing is written then.
pub(crate) fn concat_into(out: &mut [u8], parts: [&[u8]; 5]) -> Result<usize, Error> {
    let needed = parts.iter().map(|p| p.len()).sum();
    if out.len() < needed {
        return Err(Error::BufferTooSmall {
            needed,
            available: out.len(),
        });
    }
    let mut at = 0;
    for part in parts {
        out[at..at + part.len()].copy_from_slice(part);
        at += part.len();
    }
    Ok(at)
}

fn check_prefix(prefix: &[u8]) -> Result<(), Error> {
    match prefix.iter().position(|&b| b == b'{') {
        Some(position) => Err(Error::PrefixHasDelimiter {
            position,
            open: '{',
        }),
        None => Ok(()),
    }
}

/// One tag of a [`SlotTable<N>`]: up to `N` bytes of the alphabet, by value (`N + 1` bytes;
/// generated tables have `N` equal to their tag length). Bytes past the tag's length are
/// zero.
///
/// `Display` writes printable ASCII as is and any other byte as `\xNN`.
///
/// # Examples
///
/// ```
/// use slotgen_tables::REDIS_CLUSTER;
///
/// let tag = REDIS_CLUSTER.tag_for_slot(0).unwrap();
/// assert_eq!((tag.as_ref(), tag.len()), (&b"DLH@"[..], 4));
/// assert_eq!(tag.to_string(), "DLH@");
/// assert_eq!(core::mem::size_of_val(&tag), 5);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Tag<const N: usize> {
    bytes: [u8; N],
    len: u8,
}

impl<const N: usize> Tag<N> {
    /// A tag of the first `len` bytes of `bytes` (the rest zero).
    pub(crate) const fn from_parts(bytes: [u8; N], len: u8) -> Self {
        Self { bytes, len }
    }

    /// The number of symbols (bytes) in the tag.
    #[must_use]
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// Whether the tag has no symbols (never, for a tag from a [`SlotTable`]).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The tag's `N` bytes, zero past its length.
    #[must_use]
    pub fn to_array(&self) -> [u8; N] {
        self.bytes
    }
}

impl<const N: usize> AsRef<[u8]> for Tag<N> {
    #[inline]
    fn as_ref(&self) -> &[u8] {
        &self.bytes[..usize::from(self.len)]
    }
}

impl<const N: usize> fmt::Display for Tag<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use fmt::Write;
        for &b in self.as_ref() {
            if b.is_ascii_graphic() || b == b' ' {
                f.write_char(char::from(b))?;
            } else {
                write!(f, "\\x{b:02x}")?;
            }
        }
        Ok(())
    }
}

impl<const N: usize> fmt::Debug for Tag<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Tag(\"{self}\")")
    }
}

/// The tags of one slot, from [`SlotTable::tags_for_slot`].
#[derive(Clone, Debug)]
pub struct Tags<'t, 'a, const N: usize> {
    table: &'t SlotTable<'a, N>,
    tag: [u8; N],
    next: u64,
    end: u64,
}

impl<const N: usize> Iterator for Tags<'_, '_, N> {
    type Item = Tag<N>;

    fn next(&mut self) -> Option<Tag<N>> {
        if self.next == self.end {
            return None;
        }
        let mut tag = self.tag;
        let mut bits = self.next;
        let mut i = 0;
        while bits != 0 {
            if bits & 1 != 0 {
                tag = xor(&tag, &self.table.kernel[i]);
            }
            bits >>= 1;
            i += 1;
        }
        self.next += 1;
        Some(Tag {
            bytes: tag,
            len: self.table.tag_len,
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = usize::try_from(self.end - self.next).unwrap_or(usize::MAX);
        (left, Some(left))
    }
}

impl<const N: usize> ExactSizeIterator for Tags<'_, '_, N> {}
