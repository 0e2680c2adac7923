//! [`SchemeTable`]: slot -> tag for any [`Scheme`], from the columns of the inverse.

use crate::scheme::{Reduction, Scheme};
use crate::table::{xor, Tag};
use crate::Error;

/// Tags for the slots of any [`Scheme`] (CRC-8 to CRC-64, a mask or a modulus, an offset),
/// from tables that slotgen derives: `tag(slot) = base ^ columns[i]` over the set bits `i`
/// of `(slot - offset) ^ base_value`, and a key made of the tag alone (or, for a scheme with
/// a hashtag rule, a key whose hashtag is the tag) lands on `slot`.
///
/// The tag's value `(crc(tag) >> shift) & mask` is affine over GF(2) in the tag's bytes for
/// a fixed length, and an affine alphabet's bytes are affine in the symbols' index bits, so
/// flipping bit `i` of the value is one xor of bytes, `columns[i]`, whatever the other bits.
/// What the columns solve for is the scheme's reduction:
///
/// - a mask, or a modulus by a power of two `2^b`: the low `b` bits of the value, which are
///   the slot (`columns.len() == b`);
/// - a modulus by any other `N`: the whole value, set to `slot - offset` itself, the
///   smallest value of the slot's residue class (`columns.len()` is the value's width), so
///   the tag must be long enough for the CRC's every value bit (9 symbols of 16 for CRC-32).
///
/// A lookup is `columns.len()` xors of `N` bytes at most: 32 for a CRC-32 scheme.
///
/// ## Size
///
/// On a 64-bit target, `size_of::<SchemeTable<'_, N>>()` is `97 + N` bytes rounded up to a
/// multiple of 8: 104 for Codis' 3-symbol tags, 112 for Tarantool vshard's 10. That is the
/// scheme (40 bytes), three slices (the alphabet, the columns and the kernel, 16 bytes
/// each), the base tag's value (8), the base tag (`N`) and the tag length (1). The tables it
/// borrows add `(columns.len() + kernel.len()) * N` bytes, statics in generated code: 400
/// for Tarantool vshard's 3000 buckets (32 columns and 8 kernel entries of 10 bytes), 36 for
/// Codis' 1024 slots (10 and 2 of 3 bytes). The struct is `repr(Rust)`, so the compiler
/// does not promise this layout; a test pins it for the compiler the project is built with.
///
/// ```
/// # #[cfg(target_pointer_width = "64")] {
/// use slotgen_tables::SchemeTable;
///
/// assert_eq!(core::mem::size_of::<SchemeTable<'static, 3>>(), 104);
/// assert_eq!(core::mem::size_of::<SchemeTable<'static, 10>>(), 112);
/// # }
/// ```
///
/// ## Note
///
/// The fields are private: generated code fills them through [`new`](Self::new), which
/// checks them at compile time, so that their shape can change without breaking users.
///
/// # Examples
///
/// ```
/// use slotgen_tables::{Scheme, SchemeTable};
///
/// // librdkafka with 2 partitions: partition = CRC-32/ISO-HDLC(key) % 2, the CRC's low bit.
/// // For one-byte keys, bit 2 of the byte flips it (zlib.crc32(b"@") and b"D" differ
/// // there), so the one-symbol tags `@` and `D` reach both partitions.
/// static COLUMNS: [[u8; 1]; 1] = [[0x04]];
/// let kafka = Scheme::librdkafka(2)?;
/// let table = SchemeTable::try_new(kafka, b"@D", 1, &COLUMNS, &[])?;
/// for partition in 0..2 {
///     let tag = table.tag_for_slot(partition)?;
///     assert_eq!(kafka.slot(tag.as_ref()), partition);
/// }
/// // a column of zeros flips nothing
/// assert!(SchemeTable::try_new(kafka, b"@D", 1, &[[0]], &[]).is_err());
/// # Ok::<(), slotgen_tables::Error>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct SchemeTable<'a, const N: usize> {
    scheme: Scheme<'a>,
    alphabet: &'a [u8],
    tag_len: u8,
    base: [u8; N],
    base_value: u64,
    columns: &'a [[u8; N]],
    kernel: &'a [[u8; N]],
}

impl<'a, const N: usize> SchemeTable<'a, N> {
    /// A table from its parts, checked; in a `static`, at compile time. Generated code calls
    /// this:
    ///
    /// - `scheme`: the scheme, with its slot count.
    /// - `alphabet`: `2^symbol_bits` symbols (2 to 128) in ascending byte order, an affine
    ///   subspace of GF(2)^8. The base tag is `tag_len` copies of its first symbol.
    /// - `tag_len`: symbols per tag, in `1..=N`.
    /// - `columns`: one byte difference per solved bit of the value (see [`SchemeTable`]).
    /// - `kernel`: byte differences that keep the solved bits, for the other tags of a slot.
    ///
    /// Bytes of an entry at or past `tag_len` are zero.
    ///
    /// # Panics
    ///
    /// When the parts are inconsistent, with the reason [`try_new`](Self::try_new) gives (at
    /// compile time, in a `const` or `static`).
    #[must_use]
    pub const fn new(
        scheme: Scheme<'a>,
        alphabet: &'a [u8],
        tag_len: usize,
        columns: &'a [[u8; N]],
        kernel: &'a [[u8; N]],
    ) -> Self {
        match Self::checked(scheme, alphabet, tag_len, columns, kernel) {
            Ok(table) => table,
            Err(reason) => panic!("{}", reason),
        }
    }

    /// As [`new`](Self::new), at run time, with an error instead of a panic.
    ///
    /// # Errors
    ///
    /// [`Error::InconsistentTable`] with the reason: a wrong shape (a tag length of 0 or
    /// above `N`, an alphabet that is not `2^k` ascending bytes with `k` in 1..=7, a column
    /// count that is neither the slot bits nor the value's width, more slots than values),
    /// a byte outside the alphabet, a column that does not flip exactly its bit of the
    /// value, or a kernel entry that moves it. Checking the base tag and each column decides
    /// every slot, because the lookup and the CRC are both affine.
    pub fn try_new(
        scheme: Scheme<'a>,
        alphabet: &'a [u8],
        tag_len: usize,
        columns: &'a [[u8; N]],
        kernel: &'a [[u8; N]],
    ) -> Result<Self, Error> {
        Self::checked(scheme, alphabet, tag_len, columns, kernel)
            .map_err(|reason| Error::InconsistentTable { reason })
    }

    const fn checked(
        scheme: Scheme<'a>,
        alphabet: &'a [u8],
        tag_len: usize,
        columns: &'a [[u8; N]],
        kernel: &'a [[u8; N]],
    ) -> Result<Self, &'static str> {
        if tag_len == 0 || tag_len > N || tag_len > 255 {
            return Err("the tag length is 0 or above the table's entry size");
        }
        let size = alphabet.len();
        if size < 2 || size > 128 || !size.is_power_of_two() {
            return Err("the alphabet is not 2 to 128 symbols, a power of two");
        }
        let mut i = 1;
        while i < size {
            if alphabet[i] <= alphabet[i - 1] {
                return Err("the alphabet is not in ascending byte order");
            }
            i += 1;
        }
        let value_bits = match scheme.value_bits() {
            Some(bits) => bits,
            None => return Err("the scheme's value mask is not a run of low bits"),
        };
        let solved = columns.len();
        if solved > 64 {
            return Err("more columns than a value has bits");
        }
        let slots = scheme.slots() as u64;
        let low_bits = slots.is_power_of_two() && slots == 1u64 << solved;
        let whole =
            matches!(scheme.reduction(), Reduction::Modulus) && solved == value_bits as usize;
        if !(low_bits || whole) {
            return Err("the column count is neither the slot bits nor the value's width");
        }
        if value_bits < 64 && slots > 1u64 << value_bits {
            return Err("the scheme has more slots than values");
        }
        let mut base = [0u8; N];
        let mut i = 0;
        while i < tag_len {
            base[i] = alphabet[0];
            i += 1;
        }
        let solved_mask = if solved == 64 {
            u64::MAX
        } else {
            (1u64 << solved) - 1
        };
        let base_value = scheme.const_value(base.split_at(tag_len).0) & solved_mask;
        let mut c = 0;
        while c < columns.len() {
            if !differences_in_alphabet(alphabet, tag_len, &columns[c]) {
                return Err("a column has a byte outside the alphabet's differences");
            }
            let tag = crate::table::xor_const(base, columns[c]);
            let value = scheme.const_value(tag.split_at(tag_len).0) & solved_mask;
            if value ^ base_value != 1u64 << c {
                return Err("a column does not flip exactly its bit of the value");
            }
            c += 1;
        }
        let mut k = 0;
        while k < kernel.len() {
            if !differences_in_alphabet(alphabet, tag_len, &kernel[k]) {
                return Err("a kernel entry has a byte outside the alphabet's differences");
            }
            let tag = crate::table::xor_const(base, kernel[k]);
            if scheme.const_value(tag.split_at(tag_len).0) & solved_mask != base_value {
                return Err("a kernel entry moves the value");
            }
            k += 1;
        }
        Ok(Self {
            scheme,
            alphabet,
            tag_len: tag_len as u8,
            base,
            base_value,
            columns,
            kernel,
        })
    }

    /// The scheme, with its slot count.
    #[must_use]
    pub const fn scheme(&self) -> &Scheme<'a> {
        &self.scheme
    }

    /// The alphabet, in index order.
    #[must_use]
    pub const fn alphabet(&self) -> &'a [u8] {
        self.alphabet
    }

    /// Symbols per tag.
    #[must_use]
    pub const fn tag_len(&self) -> usize {
        self.tag_len as usize
    }

    /// How many low bits of the value a tag is solved for: the slot bits (a mask, or a
    /// modulus by a power of two) or the value's width (any other modulus).
    #[must_use]
    pub const fn solved_bits(&self) -> u32 {
        self.columns.len() as u32
    }

    /// The solved bits of the base tag's value (`tag_len` copies of the alphabet's first
    /// symbol).
    #[must_use]
    pub const fn base_value(&self) -> u64 {
        self.base_value
    }

    /// The column table: `columns()[i]` flips bit `i` of the value.
    #[must_use]
    pub const fn columns(&self) -> &'a [[u8; N]] {
        self.columns
    }

    /// The kernel: byte differences that keep the solved bits.
    #[must_use]
    pub const fn kernel(&self) -> &'a [[u8; N]] {
        self.kernel
    }

    /// The slot of `key` under the table's scheme ([`Scheme::slot`]).
    #[must_use]
    #[inline]
    pub fn key_slot(&self, key: &[u8]) -> u32 {
        self.scheme.slot(key)
    }

    /// The tag for `slot`, in `offset..offset + slots` (1..=N for Tarantool vshard): the
    /// tag whose value is `slot - offset` (in its solved bits).
    ///
    /// # Errors
    ///
    /// [`Error::SlotOutOfRange`] when `slot` is not one of the scheme's slots.
    pub fn tag_for_slot(&self, slot: u32) -> Result<Tag<N>, Error> {
        let value = self.value_of_slot(slot)?;
        Ok(self.tag_for_value(value))
    }

    /// The tags of `slot`: every tag of this length and alphabet whose value lands on it,
    /// each once, lazily; the first is [`tag_for_slot`](Self::tag_for_slot)'s.
    ///
    /// # Errors
    ///
    /// As [`tag_for_slot`](Self::tag_for_slot).
    pub fn tags_for_slot(&self, slot: u32) -> Result<SchemeTags<'_, 'a, N>, Error> {
        let value = self.value_of_slot(slot)?;
        let step = self.value_step();
        Ok(SchemeTags {
            table: self,
            value,
            step,
            next_kernel: 0,
        })
    }

    /// How many tags of this length land on each slot whose value is `slot - offset`, at
    /// most: `2^kernel` for each value of the slot's residue class below `2^solved_bits`.
    /// Saturates at `u64::MAX`.
    #[must_use]
    pub fn tags_per_slot(&self, slot: u32) -> u64 {
        let Ok(value) = self.value_of_slot(slot) else {
            return 0;
        };
        let values = match self.value_step() {
            Some(step) => (self.value_limit() - 1 - value) / step + 1,
            None => 1,
        };
        let kernel = 1u64
            .checked_shl(self.kernel.len() as u32)
            .unwrap_or(u64::MAX);
        values.saturating_mul(kernel)
    }

    /// Writes a key for `slot` into `out` and returns its length: `prefix`, the tag between
    /// the scheme's hashtag delimiters (`{tag}` for Redis Cluster and Codis, the pool's pair
    /// for twemproxy with a `hash_tag`), then `suffix`; for a scheme that hashes the whole
    /// key, the tag alone.
    ///
    /// # Errors
    ///
    /// - [`Error::SlotOutOfRange`] as [`tag_for_slot`](Self::tag_for_slot).
    /// - [`Error::PrefixHasDelimiter`] when `prefix` contains the opening delimiter, and
    ///   [`Error::WholeKeyHashed`] when a prefix or suffix is given to a whole-key scheme.
    /// - [`Error::BufferTooSmall`] when `out` is shorter than the key.
    pub fn write_key_for_slot(
        &self,
        prefix: &[u8],
        slot: u32,
        suffix: &[u8],
        out: &mut [u8],
    ) -> Result<usize, Error> {
        let tag = self.tag_for_slot(slot)?;
        self.write_key(prefix, tag.as_ref(), suffix, out)
    }

    /// Writes the key of `tag` as [`write_key_for_slot`](Self::write_key_for_slot) does, for
    /// a tag of [`tags_for_slot`](Self::tags_for_slot).
    ///
    /// # Errors
    ///
    /// As [`write_key_for_slot`](Self::write_key_for_slot), less the slot's.
    pub fn write_key(
        &self,
        prefix: &[u8],
        tag: &[u8],
        suffix: &[u8],
        out: &mut [u8],
    ) -> Result<usize, Error> {
        let delimiters = match self.scheme.hashtag().delimiters() {
            None if prefix.is_empty() && suffix.is_empty() => None,
            None => return Err(Error::WholeKeyHashed),
            Some([open, close]) => match prefix.iter().position(|&b| b == open) {
                Some(position) => {
                    return Err(Error::PrefixHasDelimiter {
                        position,
                        open: char::from(open),
                    })
                }
                None => Some([open, close]),
            },
        };
        let pair = delimiters.unwrap_or_default();
        let (open, close) = match delimiters {
            Some(_) => (&pair[..1], &pair[1..]),
            None => (&pair[..0], &pair[..0]),
        };
        crate::table::concat_into(out, [prefix, open, tag, close, suffix])
    }

    /// The key of [`write_key_for_slot`](Self::write_key_for_slot), as a new vector.
    ///
    /// # Errors
    ///
    /// As [`write_key_for_slot`](Self::write_key_for_slot), less `BufferTooSmall`.
    #[cfg(feature = "alloc")]
    pub fn key_for_slot(
        &self,
        prefix: &[u8],
        slot: u32,
        suffix: &[u8],
    ) -> Result<alloc::vec::Vec<u8>, Error> {
        let mut key = alloc::vec![0u8; prefix.len() + self.tag_len() + 2 + suffix.len()];
        let len = self.write_key_for_slot(prefix, slot, suffix, &mut key)?;
        key.truncate(len);
        Ok(key)
    }

    fn value_of_slot(&self, slot: u32) -> Result<u64, Error> {
        let first = self.scheme.offset();
        let slots = self.scheme.slots();
        match slot.checked_sub(first) {
            Some(value) if value < slots => Ok(u64::from(value)),
            _ => Err(Error::SlotOutOfRange {
                slot,
                first,
                last: self.scheme.last(),
            }),
        }
    }

    /// Whether the whole value is solved for (a modulus that is not a power of two): a slot
    /// is then reached by the values `slot - offset + k * slots` below `2^solved_bits`.
    #[must_use]
    pub fn solves_whole_value(&self) -> bool {
        self.value_step().is_some()
    }

    /// The values above the first that keep the slot, as a step, when the whole value is
    /// solved for: `slots`. `None` when the low bits are (the other bits are kernel).
    fn value_step(&self) -> Option<u64> {
        let slots = u64::from(self.scheme.slots());
        let low_bits = 1u64.checked_shl(self.columns.len() as u32) == Some(slots);
        (slots < self.value_limit() && !low_bits).then_some(slots)
    }

    /// `2^solved_bits`, saturating.
    fn value_limit(&self) -> u64 {
        1u64.checked_shl(self.columns.len() as u32)
            .unwrap_or(u64::MAX)
    }

    /// The tag whose value has `value` in its solved bits (bits above them are ignored):
    /// for a whole-value scheme, any value of a slot's residue class, such as
    /// `slot - offset + slots`.
    #[must_use]
    pub fn tag_for_value(&self, value: u64) -> Tag<N> {
        let solved = self.columns.len() as u32;
        let value = value & u64::MAX.checked_shr(64 - solved).unwrap_or(0);
        let mut tag = self.base;
        let mut delta = value ^ self.base_value;
        let mut i = 0;
        while delta != 0 {
            if delta & 1 != 0 {
                tag = xor(&tag, &self.columns[i]);
            }
            delta >>= 1;
            i += 1;
        }
        Tag::from_parts(tag, self.tag_len)
    }
}

/// The tags of one slot of a [`SchemeTable`], from [`SchemeTable::tags_for_slot`]: for each
/// value of the slot's residue class, ascending, every kernel combination.
#[derive(Clone, Debug)]
pub struct SchemeTags<'t, 'a, const N: usize> {
    table: &'t SchemeTable<'a, N>,
    value: u64,
    step: Option<u64>,
    next_kernel: u64,
}

impl<const N: usize> Iterator for SchemeTags<'_, '_, N> {
    type Item = Tag<N>;

    fn next(&mut self) -> Option<Tag<N>> {
        let kernel_len = self.table.kernel.len() as u32;
        if kernel_len < 64 && self.next_kernel == 1u64 << kernel_len {
            let step = self.step?;
            self.value = self
                .value
                .checked_add(step)
                .filter(|&v| v < self.table.value_limit())?;
            self.next_kernel = 0;
        }
        let mut tag = self.table.tag_for_value(self.value).to_array();
        let mut bits = self.next_kernel;
        let mut i = 0;
        while bits != 0 {
            if bits & 1 != 0 {
                tag = xor(&tag, &self.table.kernel[i]);
            }
            bits >>= 1;
            i += 1;
        }
        self.next_kernel = self.next_kernel.wrapping_add(1);
        Some(Tag::from_parts(tag, self.table.tag_len))
    }
}

/// Whether every byte of `entry` below `tag_len` keeps a symbol in the alphabet (the
/// alphabet's first symbol xor it is a symbol), and every byte past it is zero.
const fn differences_in_alphabet<const N: usize>(
    alphabet: &[u8],
    tag_len: usize,
    entry: &[u8; N],
) -> bool {
    let mut p = 0;
    while p < N {
        if p >= tag_len {
            if entry[p] != 0 {
                return false;
            }
        } else {
            let wanted = alphabet[0] ^ entry[p];
            let mut found = false;
            let mut s = 0;
            while s < alphabet.len() {
                if alphabet[s] == wanted {
                    found = true;
                }
                s += 1;
            }
            if !found {
                return false;
            }
        }
        p += 1;
    }
    true
}
