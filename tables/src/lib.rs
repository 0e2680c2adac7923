//! The no_std runtime of [slotgen](https://docs.rs/slotgen): the Redis Cluster hashtag rule,
//! key -> hash slot, and O(1) hash slot -> tag lookups from tables that slotgen derives.
//!
//! A Redis Cluster key lands on hash slot `CRC-16/XMODEM(hashtag(key)) mod 16384` (the
//! Redis Cluster specification, "Keys distribution model"). [`REDIS_CLUSTER`] answers the
//! reverse question, which tag lands on a chosen slot, with two table loads and a 4-byte
//! xor from 1 KiB of tables, because the CRC is affine over GF(2) for tags of a fixed length
//! and so are the bytes of an affine alphabet.
//!
//! ```
//! use slotgen_tables::REDIS_CLUSTER;
//!
//! // key -> slot, as `CLUSTER KEYSLOT` answers
//! assert_eq!(REDIS_CLUSTER.key_slot(b"123456789"), 12739);
//!
//! // slot -> tag, and the key that carries it
//! let mut buf = [0u8; 64];
//! let len = REDIS_CLUSTER.write_key_for_slot(b"ms_health:", 0, b":write", &mut buf)?;
//! assert_eq!(&buf[..len], b"ms_health:{DLH@}:write");
//! assert_eq!(REDIS_CLUSTER.key_slot(&buf[..len]), 0);
//! # Ok::<(), slotgen_tables::Error>(())
//! ```
//!
//! Tables for other CRCs, alphabets, tag lengths and slot counts come from the `slotgen`
//! generator: its `slot_table!` macro, its build.rs API, or `slotgen emit rust`.
//!
//! # For client authors
//!
//! A cluster client (redis-rs, fred, glide-core, a load generator of one's own) needs three
//! things of this crate, none of which allocates:
//!
//! - **The slot of a key**: [`REDIS_CLUSTER`]`.key_slot(key)` (`u16`, `0..16384`), what
//!   `CLUSTER KEYSLOT` answers. Keys shorter than 16 bytes take a path inlined into the
//!   caller with no call and no loop: the hashtag scan (a byte at a time below 8 bytes,
//!   eight bytes a step from 8 to 31, `memchr` from 32), then the CRC in steps of 8, 4, 2
//!   and 1 bytes. `REDIS_CLUSTER` is a `const` with its own `const` engine, so the
//!   CRC's parameters are constants in the caller, as a `crc` crate `static` of the
//!   caller's crate has them. At 3, 8, 16 and 64 bytes, with and without a hashtag, it
//!   measured as fast as every CRC-16 crate behind the same scan or faster (1.0x to 8x),
//!   but for a 1-byte hashtag (`{x}`): 0.92x the `crc` crate's `Table<1>` in one build,
//!   1.00x with both loops' blocks aligned (where the loop falls in the binary).
//! - **The slots of a batch**: [`SlotTable::key_slots`]`(&keys, &mut slots)`, `slots[i]`
//!   for `keys[i]`, into the caller's buffer; [`CrcEngine::checksums`] when the caller has
//!   picked the hashed bytes itself.
//! - **A multi-key command split by node and slot**: Redis Cluster refuses a command whose
//!   keys hash to two slots (`CROSSSLOT`) even on one node, so an `MGET` becomes one `MGET`
//!   a slot, pipelined per node, and the replies go back in the caller's order.
//!   [`SlotTable::group_keys`]`(&keys, &node_of_slot, &mut placed)` sorts the keys by node,
//!   slot and index into `placed` (8 bytes a key, [`Placed`]) in one pass and one sort;
//!   [`SlotGroups::nodes`] gives one run a node (a pipeline), [`NodeGroup::slots`] one run
//!   a slot (a command), [`SlotGroup::indices`] where each reply goes. `node_of_slot` is
//!   the client's own map from `CLUSTER SLOTS` or `CLUSTER SHARDS`: 16384 node indices.
//!
//! ```
//! use slotgen_tables::{Placed, REDIS_CLUSTER};
//!
//! let mut node_of_slot = [0u16; 16384]; // three primaries, as redis-cli creates them
//! node_of_slot[5461..=10922].fill(1);
//! node_of_slot[10923..].fill(2);
//!
//! let keys = ["user:{42}:name", "foo", "user:{42}:mail", "bar"];
//! let mut placed = [Placed::default(); 4];
//! let groups = REDIS_CLUSTER.group_keys(&keys, &node_of_slot, &mut placed)?;
//! for node in groups.nodes() {
//!     // one pipeline on node `node.node`'s connection
//!     for group in node.slots() {
//!         // MGET of keys[i] for i in group.indices(); reply j goes to the j-th index
//!         assert!(group.indices().all(|i| REDIS_CLUSTER.key_slot(keys[i].as_bytes()) == group.slot));
//!     }
//! }
//! let slots: Vec<u16> = groups.slots().map(|g| g.slot).collect();
//! assert_eq!(slots, [5061, 8000, 12182]);
//! # Ok::<(), slotgen_tables::Error>(())
//! ```
//!
//! `examples/mget_split.rs` prints such a split; slotgen's own tests send one to a
//! three-primary `redis-server` cluster (no `MOVED`, no `CROSSSLOT`, every value in the
//! caller's order).
//!
//! Features: `alloc` adds `SlotTable::key_for_slot` and `SchemeTable::key_for_slot`, which
//! return a `Vec<u8>`, and `SlotTable::group_keys_in`, which groups into a `Vec`.
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

/// The errors of the runtime's lookups.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The slot is not below the table's slot count.
    #[error(
        "slot {slot} is out of range: this table has {slots} slots, so a slot is in 0 to {}",
        .slots.saturating_sub(1)
    )]
    SlotOutOfRange {
        /// The slot asked for.
        slot: u32,
        /// The table's slot count.
        slots: u32,
    },
    /// The slot is not one of a scheme's slots.
    #[error("slot {slot} is out of range: this scheme's slots are {first} to {last}")]
    SchemeSlotOutOfRange {
        /// The slot asked for.
        slot: u32,
        /// The scheme's first slot (its offset: 1 for Tarantool vshard, else 0).
        first: u32,
        /// The scheme's last slot.
        last: u32,
    },
    /// The key's prefix contains `{`, so the key's hashtag would not be the tag.
    #[error(
        "prefix contains `{{` at byte {position}: the key's hashtag would start there instead of at the tag; \
         remove the `{{` from the prefix or move that part into the suffix"
    )]
    PrefixHasBrace {
        /// The byte offset of the first `{` in the prefix.
        position: usize,
    },
    /// The key's prefix contains the byte that opens a scheme's hashtag.
    #[error(
        "prefix contains the hashtag's opening byte {open:?} at byte {position}: the key's hashtag would start there instead of at the tag; \
         remove it from the prefix or move that part into the suffix"
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

/// The examples of this crate's README (its registry page), run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct CrateReadme;
