//! `slot_table!`: slotgen tables emitted into the invoking crate at compile time.
//!
//! Each table of an invocation becomes a `static` of
//! [`slotgen_tables::SlotTable`](https://docs.rs/slotgen-tables) (or, for a named scheme,
//! `SchemeTable`: see [Scheme tables](#scheme-tables)), or a `const` when declared `const
//! NAME = { .. }` (CRC-16 slot tables only: the table's own `const` CRC engine, whose
//! parameters every caller sees, so that `key_slot` of a short key inlines to a few table
//! loads; a `static` borrows the runtime's shared engine of its CRC), with its `low`, `high`
//! and `kernel` tables of tag bytes as statics in the invoking crate, checked by the
//! runtime's `const` constructor as the crate compiles. The macro parses the
//! fields, derives the table with [`slotgen::derive()`] (Gaussian elimination over GF(2))
//! while the crate compiles, and returns the tokens of slotgen's one Rust emitter,
//! [`slotgen::emit::rust::table_item`], so its tables are the ones the build.rs API
//! ([`slotgen::build`]) and `slotgen emit rust` write.
//!
//! ```
//! use slotgen_macros::slot_table;
//!
//! slot_table! {
//!     /// Tags for the orders queue: MODBUS CRC, 16 symbols.
//!     pub static ORDERS = {
//!         crc: "CRC-16/MODBUS",         // catalogue name or alias
//!         alphabet: "01234567PQRSTUVW", // 2^d symbols forming an affine subspace
//!         tag_len: 4,                   // optional: default the shortest that works
//!         slots: 16384,                 // optional: default 16384
//!     };
//!
//!     /// The same CRC, given by its parameters in the RevEng model.
//!     static BY_PARAMETERS = {
//!         crc: { poly: 0x8005, init: 0xffff, refin: true, refout: true, xorout: 0x0000 },
//!         alphabet: b"@ABCDEFGHIJKLMNO",
//!     };
//! }
//!
//! let tag = ORDERS.tag_for_slot(105)?;
//! assert_eq!(ORDERS.key_slot(tag.as_ref()), 105);
//! assert_eq!(ORDERS.crc_name(), "CRC-16/MODBUS");
//! assert_eq!(BY_PARAMETERS.crc_name(), "CRC-16/MODBUS");
//! // Left out, `tag_len` is the shortest length that reaches every slot: for this CRC and
//! // alphabet, 4-symbol tags reach only 8192 slots.
//! assert_eq!(BY_PARAMETERS.tag_len(), 5);
//! # Ok::<(), slotgen_tables::Error>(())
//! ```
//!
//! The invoking crate depends on `slotgen-tables`: the expansion names its items by
//! absolute paths (`::slotgen_tables::SlotTable`).
//!
//! # Fields
//!
//! | field      | value                                                              | default |
//! |------------|--------------------------------------------------------------------|---------|
//! | `crc`      | a catalogue name or alias (`"CRC-16/KERMIT"`, `"MODBUS"`), or `{ poly, init, refin, refout, xorout }` | required |
//! | `alphabet` | a string or byte string: `2^d` distinct bytes (`d` in `1..=7`), an affine subspace of GF(2)^8, no `{` or `}` | required, or `charset` |
//! | `charset`  | instead of `alphabet`: a charset (`"alnum"`, `"[0-9a-z_]"`, ...) inside which slotgen chooses the affine alphabet with the shortest tags (`slotgen::charset::choose`) | |
//! | `tag_len`  | symbols per tag                                                    | the shortest length that reaches every slot |
//! | `slots`    | the slot count: a power of two from 2 to 65536                     | 16384 |
//!
//! # Scheme tables
//!
//! A table with a `scheme` field is a `slotgen_tables::SchemeTable` for one of the named
//! sharding schemes (`redis-cluster`, `codis`, `couchbase`, `tarantool-vshard`,
//! `librdkafka`, `twemproxy-crc32a`, `twemproxy-crc32`, `twemproxy-crc16`; any case, `_`
//! for `-`, as `slotgen --scheme` reads them), whose CRC, hashtag rule and reduction are
//! fixed. It takes
//! `slots` (the scheme's default when left out; required for librdkafka's partitions and
//! twemproxy's servers), `hash_tag` (two delimiter bytes, twemproxy only), `alphabet`
//! (default `@ABCDEFGHIJKLMNO`) or `charset` (slotgen chooses the alphabet, as `slotgen
//! --scheme ... --charset` does) and `tag_len` (default the shortest that reaches every
//! slot). `crc` and `shortest` do not go with it.
//!
//! Both kinds of table are resolved by the library's request layer
//! (`slotgen::request::Request`), the one that `slotgen`'s options and the build.rs API
//! resolve through, so a field and the option of the same name take the same values and
//! are refused in the same words; an error goes on the token of the field it names.
//!
//! ```
//! slotgen_macros::slot_table! {
//!     /// Tarantool vshard's 3000 buckets, ids 1 to 3000.
//!     static VSHARD = { scheme: "tarantool-vshard" };
//!     /// A twemproxy pool of 3 servers with `hash_tag: "{}"`.
//!     static POOL = { scheme: "twemproxy-crc32a", slots: 3, hash_tag: "{}", tag_len: 9 };
//! }
//!
//! // 3000 is no power of two, so the tag is solved for the whole 32-bit CRC: 10 symbols
//! let tag = VSHARD.tag_for_slot(1)?;
//! assert_eq!(tag.to_string(), "@LEADJFCC@");
//! assert_eq!(VSHARD.key_slot(tag.as_ref()), 1);
//! let mut key = [0u8; 32];
//! let len = POOL.write_key_for_slot(b"user:", 2, b":cart", &mut key)?;
//! assert_eq!(POOL.key_slot(&key[..len]), 2);
//! # Ok::<(), slotgen_tables::Error>(())
//! ```
//!
//! # Shortest-tag tables
//!
//! A table with a `shortest` field is a `slotgen_tables::ShortestTable` instead: for each
//! slot, the first string over a charset, shortest first and then in the charset's order,
//! that lands on it (what redis-benchmark ships). It takes `crc`, `slots`, `shortest: {
//! charset, order, max_len }` (`order` and `max_len` optional, `max_len` 3 by default) and
//! `allow_gaps: true` to accept slots that no string of at most `max_len` symbols reaches;
//! without it, such gaps are a compile error.
//!
//! ```
//! slotgen_macros::slot_table! {
//!     /// redis-benchmark's table.
//!     static BENCHMARK = {
//!         crc: "CRC-16/XMODEM",
//!         shortest: { charset: "alnum", order: "0-9a-zA-Z", max_len: 3 },
//!     };
//! }
//!
//! assert_eq!(BENCHMARK.tag_for_slot(0)?, b"06S");
//! # Ok::<(), slotgen_tables::Error>(())
//! ```
//!
//! Attributes and doc comments on a table pass through to its `static`; a table without a
//! doc comment gets one describing its spec. The visibility is the one written.
//!
//! # Errors
//!
//! A bad spec is a compile error on the offending token, stating the rule and the fix; the
//! macro still emits a `static` of the right type, so the error is the only one:
//!
//! ```text
//! error: alphabet has 15 symbols: it needs 2, 4, 8, 16, 32, 64 or 128 (a power of two, so that each symbol carries whole bits)
//!  --> src/main.rs:5:19
//!   |
//! 5 |         alphabet: "@ABCDEFGHIJKLMN",
//!   |                   ^^^^^^^^^^^^^^^^^
//! ```
//!
//! ```compile_fail
//! slotgen_macros::slot_table! {
//!     static BAD = { crc: "CRC-16/XMODEN", alphabet: "@ABCDEFGHIJKLMNO" };
//! }
//! # fn main() {}
//! ```

use proc_macro::TokenStream;

mod expand;
mod fallback;
mod parse;
mod validate;

/// Declares one or more hash slot tables, derived while the crate compiles.
///
/// ```
/// slotgen_macros::slot_table! {
///     /// Redis Cluster tags from the letters `@` to `O`.
///     pub static CLUSTER = { crc: "CRC-16/XMODEM", alphabet: "@ABCDEFGHIJKLMNO", tag_len: 4 };
/// }
///
/// assert_eq!(CLUSTER.base_slot(), 13881); // the slot of "@@@@"
/// assert_eq!(CLUSTER.tag_for_slot(0).unwrap().to_string(), "DLH@");
/// ```
///
/// See the [crate documentation](crate) for the fields and the errors.
#[proc_macro]
pub fn slot_table(input: TokenStream) -> TokenStream {
    expand::expand(input.into()).into()
}

/// The prettyplease-formatted expansion of `slot_table!` for the same input, as a string
/// literal. For snapshot tests of the expansion; not a stable interface.
#[doc(hidden)]
#[proc_macro]
pub fn slot_table_source(input: TokenStream) -> TokenStream {
    let source = expand::expand_source(input.into());
    quote::quote!(#source).into()
}

/// The Rust examples of the guide's Rust page (docs/rust.md), run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../docs/rust.md")]
struct RustPage;

/// The examples of this crate's README (its registry page), run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct CrateReadme;
