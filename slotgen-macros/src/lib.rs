#![doc = include_str!("../README.md")]

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
