//! [`SlotTable`]: the static data of one derivation, and its lookups.

use core::fmt;

use crate::{hashtag, Crc16, Error};

/// The longest tag a [`Tag`] holds, in symbols.
pub const MAX_TAG_LEN: usize = 32;

// `tag_from_mask` fills a tag in 8-byte words.
const _: () = assert!(MAX_TAG_LEN % 8 == 0);

mod sealed {
    pub trait Sealed {}
    impl Sealed for u16 {}
    impl Sealed for u32 {}
    impl Sealed for u64 {}
}

/// The unsigned integer that holds one tag as a bit mask of symbol indices: `u16`, `u32` or
/// `u64`, the narrowest that holds `tag_len * symbol_bits` bits.
///
/// Bit `symbol_bits * k + j` is bit `j` of the index (in the alphabet) of the tag's symbol
/// `k`, counting symbols from the tag's first byte: for 4-symbol tags over 16 symbols, bits
/// 0..4 give the first symbol and bits 12..16 the last.
pub trait Mask: Copy + Eq + fmt::Debug + core::ops::BitXor<Output = Self> + sealed::Sealed {
    /// The mask, widened.
    fn to_u64(self) -> u64;
}

impl Mask for u16 {
    fn to_u64(self) -> u64 {
        u64::from(self)
    }
}
impl Mask for u32 {
    fn to_u64(self) -> u64 {
        u64::from(self)
    }
}
impl Mask for u64 {
    fn to_u64(self) -> u64 {
        self
    }
}

/// The inverse of a hash slot function for one alphabet and tag length: what slotgen derives,
/// as static data, with O(1) slot -> tag lookups.
///
/// The slot of a tag is `crc(tag) & (slots - 1)`. For tags of `tag_len` symbols over an
/// alphabet of `2^symbol_bits` symbols that is an affine subspace of GF(2)^8, this is an
/// affine map over GF(2) from the tag's [`Mask`] (`tag_len * symbol_bits` bits) to the slot
/// (`log2(slots)` bits): `slot(x) = base_slot ^ M x`. The tables hold a right inverse of `M`:
/// the tag for `slot` is the mask `low[d & low_mask] ^ high[d >> low_bits]` with
/// `d = slot ^ base_slot`, and every other tag of that slot differs from it by an element
/// of the kernel of `M`.
///
/// Values of this type are generated (by `slotgen emit rust`, `slot_table!` or the build.rs
/// API) and checked exhaustively by slotgen; do not write one by hand. The fields are public
/// so that generated code can fill them in a `static`.
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
/// ```
#[derive(Clone, Debug)]
pub struct SlotTable<'a, M: Mask = u16> {
    /// The CRC of the slot function.
    pub crc: Crc16,
    /// The CRC's catalogue name (`CRC-16/XMODEM`), or `custom`.
    pub crc_name: &'a str,
    /// The number of hash slots: a power of two in `2..=65536`. A slot is in `0..slots`.
    pub slots: u32,
    /// The alphabet in index order (ascending byte order): symbol `i` is `alphabet[i]`.
    /// `2^symbol_bits` bytes, none of them `{` or `}`.
    pub alphabet: &'a [u8],
    /// Bits per symbol: `log2(alphabet.len())`, in `1..=7`.
    pub symbol_bits: u32,
    /// Symbols per tag, in `1..=MAX_TAG_LEN`.
    pub tag_len: usize,
    /// The slot of the tag whose every symbol is `alphabet[0]` (mask 0): the affine map's
    /// offset.
    pub base_slot: u16,
    /// How many low bits of the slot delta index `low`: `ceil(log2(slots) / 2)`.
    pub low_bits: u32,
    /// `2^low_bits` masks: entry `v` is the tag mask whose slot delta is `v`.
    pub low: &'a [M],
    /// `2^(log2(slots) - low_bits)` masks: entry `v` is the tag mask whose slot delta is
    /// `v << low_bits`.
    pub high: &'a [M],
    /// A basis of the kernel of the linear part: masks whose tags do not move the slot.
    /// Each slot has `2^kernel.len()` tags.
    pub kernel: &'a [M],
}

impl<M: Mask> SlotTable<'_, M> {
    /// The hash slot of `key`: the CRC of its [`hashtag`], masked to `slots - 1`. For
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
    pub fn key_slot(&self, key: &[u8]) -> u16 {
        // `slots` is at most 65536, so the mask fits 16 bits.
        self.crc.checksum(hashtag(key)) & ((self.slots - 1) as u16)
    }

    /// A tag that lands on `slot`, in O(1): two table loads and an xor, then one alphabet
    /// load per symbol. The tag is the canonical one: the mask with its kernel (free)
    /// coordinates zero.
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
    pub fn tag_for_slot(&self, slot: u16) -> Result<Tag, Error> {
        Ok(self.tag_from_mask(self.mask_for_slot(slot)?.to_u64()))
    }

    /// The canonical tag mask of `slot` (see [`Mask`] for its bit numbering).
    ///
    /// # Errors
    ///
    /// [`Error::SlotOutOfRange`] when `slot >= slots`.
    pub fn mask_for_slot(&self, slot: u16) -> Result<M, Error> {
        self.check_slot(slot)?;
        let delta = usize::from(slot ^ self.base_slot);
        let low_mask = (1usize << self.low_bits) - 1;
        Ok(self.low[delta & low_mask] ^ self.high[delta >> self.low_bits])
    }

    /// Every tag of the alphabet and length that lands on `slot`: `2^kernel.len()` of them,
    /// the canonical one ([`tag_for_slot`](Self::tag_for_slot)) first, then the canonical
    /// mask xor each nonzero combination of kernel vectors, in binary counting order.
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
    pub fn tags_for_slot(&self, slot: u16) -> Result<Tags<'_, '_, M>, Error> {
        let mask = self.mask_for_slot(slot)?.to_u64();
        Ok(Tags {
            table: self,
            mask,
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
    /// - [`Error::PrefixHasBrace`] when `prefix` contains `{`: the key's hashtag would start
    ///   there, not at the tag.
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
        check_prefix(prefix)?;
        let tag = tag.as_ref();
        let needed = prefix.len() + tag.len() + 2 + suffix.len();
        if out.len() < needed {
            return Err(Error::BufferTooSmall {
                needed,
                available: out.len(),
            });
        }
        let mut at = 0;
        for part in [prefix, b"{", tag, b"}", suffix] {
            out[at..at + part.len()].copy_from_slice(part);
            at += part.len();
        }
        Ok(at)
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

    /// The tag whose symbol indices are the bits of `mask` (see [`Mask`]). Bits at or above
    /// `tag_len * symbol_bits` are ignored.
    #[must_use]
    pub fn tag_from_mask(&self, mask: u64) -> Tag {
        // Symbols are gathered in 8-byte words and stored whole: byte stores that are read
        // back as a wider `Tag` stall the CPU (no store-to-load forwarding), which cost a
        // third of the lookup's time.
        let symbol_mask = (1u64 << self.symbol_bits) - 1;
        let tag_len = self.tag_len.min(MAX_TAG_LEN);
        let mut rest = mask;
        let mut bytes = [0; MAX_TAG_LEN];
        let mut done = 0;
        for chunk in bytes.chunks_exact_mut(8) {
            if done == tag_len {
                break;
            }
            let symbols = (tag_len - done).min(8);
            let mut word = 0u64;
            for k in 0..symbols {
                word |= u64::from(self.alphabet[(rest & symbol_mask) as usize]) << (8 * k);
                rest >>= self.symbol_bits;
            }
            chunk.copy_from_slice(&word.to_le_bytes());
            done += symbols;
        }
        Tag {
            bytes,
            len: tag_len as u8,
        }
    }

    /// How many tags land on each slot: `2^kernel.len()`.
    #[must_use]
    pub fn tags_per_slot(&self) -> u64 {
        1u64 << self.kernel.len()
    }

    fn check_slot(&self, slot: u16) -> Result<(), Error> {
        if u32::from(slot) < self.slots {
            Ok(())
        } else {
            Err(Error::SlotOutOfRange {
                slot: u32::from(slot),
                slots: self.slots,
            })
        }
    }
}

fn check_prefix(prefix: &[u8]) -> Result<(), Error> {
    match prefix.iter().position(|&b| b == b'{') {
        Some(position) => Err(Error::PrefixHasBrace { position }),
        None => Ok(()),
    }
}

/// One tag: up to [`MAX_TAG_LEN`] bytes of the alphabet, by value.
///
/// `Display` writes printable ASCII as is and any other byte as `\xNN`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Tag {
    bytes: [u8; MAX_TAG_LEN],
    len: u8,
}

impl Tag {
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
}

impl AsRef<[u8]> for Tag {
    fn as_ref(&self) -> &[u8] {
        &self.bytes[..usize::from(self.len)]
    }
}

impl fmt::Display for Tag {
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

impl fmt::Debug for Tag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Tag(\"{self}\")")
    }
}

/// The tags of one slot, from [`SlotTable::tags_for_slot`].
#[derive(Clone, Debug)]
pub struct Tags<'t, 'a, M: Mask> {
    table: &'t SlotTable<'a, M>,
    mask: u64,
    next: u64,
    end: u64,
}

impl<M: Mask> Iterator for Tags<'_, '_, M> {
    type Item = Tag;

    fn next(&mut self) -> Option<Tag> {
        if self.next == self.end {
            return None;
        }
        let mut mask = self.mask;
        let mut bits = self.next;
        let mut i = 0;
        while bits != 0 {
            if bits & 1 != 0 {
                mask ^= self.table.kernel[i].to_u64();
            }
            bits >>= 1;
            i += 1;
        }
        self.next += 1;
        Some(self.table.tag_from_mask(mask))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = usize::try_from(self.end - self.next).unwrap_or(usize::MAX);
        (left, Some(left))
    }
}

impl<M: Mask> ExactSizeIterator for Tags<'_, '_, M> {}
