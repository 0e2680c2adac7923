//! [`ShortestTable`]: the shortest tag of each slot over a charset, as static data.

use crate::{hashtag, Crc16, Error, Scheme};

/// For each hash slot, the first tag in order of length, then of a charset's order, that
/// lands on it: the table redis-benchmark ships (`crc16_slot_table`), for any CRC-16, slot
/// count and charset.
///
/// Entries are stored fixed-width: `tags` holds `slots * width` bytes, the tag of slot `s`
/// left-aligned in `tags[s * width..(s + 1) * width]` and padded with NUL bytes (no charset
/// holds NUL). An all-NUL entry is a gap: no tag of at most `max_len` symbols lands on that
/// slot. For Redis Cluster over the 62 letters and digits, `width` is 3 and the table is
/// 48 KiB.
///
/// Values of this type are generated (by `slotgen shortest --format rust` or the generator's
/// `slotgen::emit::shortest::shortest_static`) and checked by slotgen; do not write one by hand.
/// The fields are public so that generated code can fill them in a `static`.
///
/// # Examples
///
/// A table for 4 slots of CRC-16/XMODEM over the charset `0-9`, as slotgen generates it:
///
/// ```
/// use slotgen_tables::{crc::CRC_16_XMODEM, Crc16, ShortestTable};
///
/// static DIGITS_4: ShortestTable<'static> = ShortestTable {
///     crc: Crc16::new(&CRC_16_XMODEM),
///     crc_name: "CRC-16/XMODEM",
///     slots: 4,
///     charset: b"0123456789",
///     max_len: 3,
///     width: 1,
///     tags: b"3210",
/// };
/// assert_eq!(DIGITS_4.tag_for_slot(1).unwrap(), b"2");
/// assert_eq!(DIGITS_4.key_slot(b"user:{2}:name"), 1);
/// assert!(DIGITS_4.tag_for_slot(4).is_err());
/// ```
#[derive(Clone, Debug)]
pub struct ShortestTable<'a> {
    /// The CRC of the slot function: the slot of a tag is `crc(tag) & (slots - 1)`.
    pub crc: Crc16,
    /// The CRC's catalogue name (`CRC-16/XMODEM`), or `custom`.
    pub crc_name: &'a str,
    /// The number of hash slots: a power of two in `2..=65536`. A slot is in `0..slots`.
    pub slots: u32,
    /// The charset in search order: among tags of one length, the one whose symbols come
    /// first in this order (the first symbol most significant) wins.
    pub charset: &'a [u8],
    /// The longest tag searched, in symbols.
    pub max_len: usize,
    /// Bytes per entry of `tags`: the length of the longest tag in the table.
    pub width: usize,
    /// `slots * width` bytes: the tag of each slot in slot order, NUL-padded to `width`.
    pub tags: &'a [u8],
}

impl<'a> ShortestTable<'a> {
    /// The hash slot of `key`: the CRC of its [`hashtag`], masked to `slots - 1`.
    ///
    /// # Examples
    ///
    /// See [`ShortestTable`].
    #[must_use]
    pub fn key_slot(&self, key: &[u8]) -> u16 {
        // `slots` is at most 65536, so the mask fits 16 bits.
        self.crc.checksum(hashtag(key)) & ((self.slots - 1) as u16)
    }

    /// The shortest tag that lands on `slot`, in O(1): one slice of `tags` and a scan of at
    /// most `width` bytes for its end.
    ///
    /// # Errors
    ///
    /// - [`Error::SlotOutOfRange`] when `slot >= slots`.
    /// - [`Error::NoShortTag`] when no tag of at most `max_len` symbols lands on `slot` (a
    ///   gap of the table).
    ///
    /// # Examples
    ///
    /// See [`ShortestTable`].
    pub fn tag_for_slot(&self, slot: u16) -> Result<&'a [u8], Error> {
        if u32::from(slot) >= self.slots {
            return Err(Error::SlotOutOfRange {
                slot: u32::from(slot),
                first: 0,
                last: self.slots - 1,
            });
        }
        entry(self.tags, self.width, usize::from(slot)).ok_or(Error::NoShortTag {
            slot,
            max_len: self.max_len,
        })
    }

    /// The number of slots that no tag of at most `max_len` symbols reaches.
    #[must_use]
    pub fn gaps(&self) -> usize {
        gaps(self.tags, self.width, self.slots as usize)
    }
}

/// Entry `index` of `tags` (`width` bytes each, NUL-padded) without its padding; `None` for
/// an empty entry (a gap). The one reading of both tables' entries.
fn entry(tags: &[u8], width: usize, index: usize) -> Option<&[u8]> {
    let start = index * width;
    let entry = &tags[start..start + width];
    let len = entry.iter().position(|&b| b == 0).unwrap_or(width);
    (len > 0).then(|| &entry[..len])
}

/// How many of the `slots` entries of `tags` (`width` bytes each) are empty: every one when
/// `width` is 0 (no slot has a tag).
fn gaps(tags: &[u8], width: usize, slots: usize) -> usize {
    if width == 0 {
        return slots;
    }
    tags.chunks_exact(width).filter(|e| e[0] == 0).count()
}

/// For each slot of a named [`Scheme`], the first tag in order of length, then of a
/// charset's order, whose key lands on it (the tag hashed alone: the key itself for a
/// scheme that hashes the whole key, its hashtag otherwise): [`ShortestTable`] for any
/// scheme, such as the 3000 buckets of Tarantool vshard over letters and digits, where the
/// exact inversion needs 7 symbols of 32.
///
/// Entries are stored as in [`ShortestTable`], fixed-width and NUL-padded, in slot order
/// from the scheme's first slot: the tag of slot `s` in `tags[(s - first) * width..]`, with
/// `first` the scheme's [`offset`](Scheme::offset). Values of this type are generated (by
/// `slotgen shortest --scheme NAME --format rust`) and checked by slotgen; do not write one
/// by hand. The fields are public so that generated code can fill them in a `static`.
///
/// # Examples
///
/// A table for Tarantool vshard with 4 buckets over the charset `0-9`, as slotgen generates
/// it:
///
/// ```
/// use slotgen_tables::{SchemeName, SchemeShortestTable};
///
/// static BUCKETS_4: SchemeShortestTable<'static> = SchemeShortestTable {
///     scheme: match SchemeName::TarantoolVshard.scheme(Some(4), None) {
///         Ok(scheme) => scheme,
///         Err(_) => panic!("4 buckets"),
///     },
///     charset: b"0123456789",
///     max_len: 3,
///     width: 2,
///     tags: b"1\x0020210\x00",
/// };
/// // buckets are 1 to 4: digest.crc32("20") % 4 + 1 is 2
/// assert_eq!(BUCKETS_4.tag_for_slot(2)?, b"20");
/// assert_eq!(BUCKETS_4.key_slot(b"20"), 2);
/// assert_eq!(BUCKETS_4.tag_for_slot(4)?, b"0");
/// assert!(BUCKETS_4.tag_for_slot(0).is_err());
/// # Ok::<(), slotgen_tables::Error>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct SchemeShortestTable<'a> {
    /// The scheme, with its slot count: the slot of a tag is `scheme.slot(tag)`.
    pub scheme: Scheme<'a>,
    /// The charset in search order.
    pub charset: &'a [u8],
    /// The longest tag searched, in symbols.
    pub max_len: usize,
    /// Bytes per entry of `tags`: the length of the longest tag in the table.
    pub width: usize,
    /// `slots * width` bytes: the tag of each slot in slot order from the first, NUL-padded
    /// to `width`.
    pub tags: &'a [u8],
}

impl<'a> SchemeShortestTable<'a> {
    /// The slot of `key` under the scheme ([`Scheme::slot`]).
    #[must_use]
    pub fn key_slot(&self, key: &[u8]) -> u32 {
        self.scheme.slot(key)
    }

    /// The shortest tag that lands on `slot`, in O(1).
    ///
    /// # Errors
    ///
    /// - [`Error::SlotOutOfRange`] when `slot` is not one of the scheme's.
    /// - [`Error::NoShortSchemeTag`] when no tag of at most `max_len` symbols lands on
    ///   `slot` (a gap of the table).
    pub fn tag_for_slot(&self, slot: u32) -> Result<&'a [u8], Error> {
        let (first, last) = (self.scheme.offset(), self.scheme.last());
        if !(first..=last).contains(&slot) {
            return Err(Error::SlotOutOfRange { slot, first, last });
        }
        entry(self.tags, self.width, (slot - first) as usize).ok_or(Error::NoShortSchemeTag {
            slot,
            max_len: self.max_len,
        })
    }

    /// The number of slots that no tag of at most `max_len` symbols reaches.
    #[must_use]
    pub fn gaps(&self) -> usize {
        gaps(self.tags, self.width, self.scheme.slots() as usize)
    }
}
