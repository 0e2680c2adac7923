#![doc = include_str!("../README.md")]
#![no_std]
#![warn(missing_docs)]

#[cfg(feature = "alloc")]
extern crate alloc;

// Generated tables name this crate by its absolute path, also from inside it.
extern crate self as slotgen_tables;

/// The `crc` crate, whose [`Algorithm`](crc::Algorithm) names a CRC's parameters in the
/// RevEng model, and whose `CRC_16_*` constants are the CRC catalogue.
pub use crc;

pub mod catalog;
mod engine;
pub mod group;
mod hashtag;
mod layout;
#[rustfmt::skip] // generated: formatted by prettyplease, compared byte for byte by a test
mod redis_cluster;
mod scheme;
mod scheme_table;
mod shortest;
mod table;

pub use engine::{AnyCrc, Crc16, CrcEngine};
pub use group::{NodeGroup, Placed, SlotGroup, SlotGroups};
pub use hashtag::hashtag;
pub use layout::{
    explicit_hashtag, same_slot, shared_hashtag, warnings, Warning, Warnings, WarningsIter,
};
pub use redis_cluster::REDIS_CLUSTER;
pub use scheme::{
    HashtagRule, Reduction, Register, Scheme, SchemeName, CRC_32_TARANTOOL, REDIS_CLUSTER_SLOTS,
};
pub use scheme_table::{SchemeTable, SchemeTags};
pub use shortest::{SchemeShortestTable, ShortestTable};
pub use table::{SlotTable, Tag, Tags, MAX_MASK_BITS, MAX_TAG_LEN};

/// A byte held as a character (`open` of [`Error::PrefixHasDelimiter`]) as a message shows
/// it: printable ASCII as is, any other byte as `\xNN` (`\x1b`), as `slotgen::text` shows
/// bytes from outside.
struct ShownByte(char);

impl core::fmt::Display for ShownByte {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let c = self.0;
        if c == ' ' || c.is_ascii_graphic() {
            write!(f, "{c}")
        } else if let Ok(b) = u8::try_from(c) {
            write!(f, "\\x{b:02x}")
        } else {
            // not a byte: each byte of its UTF-8
            for b in c.encode_utf8(&mut [0; 4]).bytes() {
                write!(f, "\\x{b:02x}")?;
            }
            Ok(())
        }
    }
}

/// The errors of the runtime's lookups.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The slot is not one of the table's slots: `first..=last` (`0..slots`, or `1..=slots`
    /// for Tarantool vshard's buckets).
    #[error("slot {slot} is out of range: the slots are {first} to {last}")]
    SlotOutOfRange {
        /// The slot asked for.
        slot: u32,
        /// The first slot (a scheme's offset: 1 for Tarantool vshard, else 0).
        first: u32,
        /// The last slot.
        last: u32,
    },
    /// The key's prefix contains the byte that opens the key's hashtag (`{` for Redis
    /// Cluster), so the key's hashtag would not be the tag.
    #[error(
        "prefix contains `{}` at byte {position}, the byte that opens the key's hashtag: the hashtag would start there instead of at the tag; \
         remove it from the prefix or move that part into the suffix",
        ShownByte(*.open)
    )]
    PrefixHasDelimiter {
        /// The byte offset of its first occurrence in the prefix.
        position: usize,
        /// The opening byte, as a character.
        open: char,
    },
    /// A key with a prefix or suffix was asked for under a scheme that hashes the whole key.
    #[error("this scheme hashes the whole key, so a key that lands on a slot is the tag alone: give no prefix or suffix")]
    WholeKeyHashed,
    /// The output buffer cannot hold the key.
    #[error("the key needs {needed} bytes but the buffer holds {available}: pass a buffer of at least {needed} bytes")]
    BufferTooSmall {
        /// The key's length in bytes.
        needed: usize,
        /// The buffer's length in bytes.
        available: usize,
    },
    /// The parts given to [`SlotTable::try_new`] do not make a consistent table.
    #[error("inconsistent slot table: {reason}; generate the table with slotgen instead of writing it by hand")]
    InconsistentTable {
        /// What is inconsistent.
        reason: &'static str,
    },
    /// No tag of at most `max_len` symbols of a [`ShortestTable`]'s charset lands on the slot.
    #[error(
        "no tag of at most {max_len} symbols of this table's charset lands on slot {slot}: \
         regenerate the table with a larger max length or a larger charset"
    )]
    NoShortTag {
        /// The slot asked for.
        slot: u16,
        /// The longest tag the table's search tried.
        max_len: usize,
    },
    /// No tag of at most `max_len` symbols of a [`SchemeShortestTable`]'s charset lands on
    /// the slot.
    #[error(
        "no tag of at most {max_len} symbols of this table's charset lands on slot {slot}: \
         regenerate the table with a larger max length or a larger charset"
    )]
    NoShortSchemeTag {
        /// The slot asked for.
        slot: u32,
        /// The longest tag the table's search tried.
        max_len: usize,
    },
    /// A scheme was given no slots.
    #[error("a scheme needs at least one slot: give a slot count of 1 or more")]
    ZeroSlots,
    /// A scheme that reduces by a mask was given a slot count that is not a power of two.
    #[error("{slots} slots is not a power of two, and this scheme keeps a slot's bits by a mask: give a power of two such as 16384")]
    SlotsNotPowerOfTwo {
        /// The slot count given.
        slots: u32,
    },
    /// A scheme's output shift is not below its CRC's width.
    #[error("a right shift of {shift} bits leaves nothing of a {width}-bit CRC: give a shift below {width}")]
    ShiftTooWide {
        /// The shift given.
        shift: u32,
        /// The CRC's width.
        width: u8,
    },
    /// A scheme's last slot does not fit a `u32`.
    #[error(
        "offset {offset} with {slots} slots passes 2^32 - 1: give a smaller offset or fewer slots"
    )]
    OffsetOverflow {
        /// The offset given.
        offset: u32,
        /// The slot count given.
        slots: u32,
    },
    /// A scheme without a default slot count was given none.
    #[error(
        "scheme `{scheme}` has no default slot count: give the number of partitions or servers"
    )]
    SlotsRequired {
        /// The scheme's name.
        scheme: &'static str,
    },
    /// A slot -> node map does not have one entry a slot.
    #[error(
        "the slot -> node map has {entries} entries for {slots} slots: give one node index a slot, \
         in slot order"
    )]
    NodeMapLength {
        /// The map's entries.
        entries: usize,
        /// The table's slot count.
        slots: u32,
    },
    /// An output buffer has fewer entries than the keys.
    #[error(
        "the output holds {} for {}: give at least {needed}",
        Count(*available, "entry", "entries"),
        Count(*needed, "key", "keys")
    )]
    OutTooShort {
        /// The number of keys.
        needed: usize,
        /// The buffer's entries.
        available: usize,
    },
    /// More keys than a `u32` index counts.
    #[error("{keys} keys is more than 2^32 in one batch: split the batch")]
    TooManyKeys {
        /// The number of keys given.
        keys: usize,
    },
    /// Hashtag delimiters were given to a scheme whose hashtag rule is fixed.
    #[error("scheme `{scheme}` has a fixed hashtag rule and takes no hashtag delimiters: leave them out")]
    HashTagNotTaken {
        /// The scheme's name.
        scheme: &'static str,
    },
}

/// `n` and its noun, singular for one: "1 entry", "2 entries".
struct Count(usize, &'static str, &'static str);

impl core::fmt::Display for Count {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let Self(n, one, many) = *self;
        write!(f, "{n} {}", if n == 1 { one } else { many })
    }
}
