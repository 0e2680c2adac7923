//! Fallback: for a table that cannot be built, a `static` of the same name and type, so that
//! the user sees the table's own errors and not a cascade from every use of it (as thiserror
//! does for a failed derive). Each is made by the one Rust emitter from a small table that
//! always derives, so a placeholder has exactly the shape of a real table.

use proc_macro2::TokenStream;
use slotgen::shortest::{Charset, ShortestSpec};
use slotgen::Spec;

use crate::parse::{AlphabetValue, Int, Table};

/// A placeholder [`slotgen_tables::SlotTable`] of the table's name and mask type: the Redis
/// Cluster alphabet at a tag length whose masks have the width the table's fields imply.
pub fn slot_table(table: &Table) -> TokenStream {
    // 16 symbols of 4 bits: 4 symbols fill 16 bits, 5 need 32 and 9 need 64
    let tag_len = match mask_bits(table) {
        0..=16 => 4,
        17..=32 => 5,
        _ => 9,
    };
    let spec = Spec {
        tag_len: Some(tag_len),
        ..Spec::default()
    };
    let derivation =
        slotgen::derive(&spec).expect("the Redis Cluster alphabet derives at 4, 5 and 9 symbols");
    slotgen::emit::rust::table_static(&derivation, &table.attrs, &table.vis, &table.name)
}

/// The mask bits the table would have had, as far as its fields tell: 16 unless the
/// alphabet's size and the tag length say more.
fn mask_bits(table: &Table) -> usize {
    let symbols = table
        .fields
        .get("alphabet")
        .and_then(|f| f.value::<AlphabetValue>().ok())
        .map(|a| a.bytes.len());
    let tag_len = table
        .fields
        .get("tag_len")
        .and_then(|f| f.value::<Int>().ok())
        .and_then(|n| n.0.base10_parse::<usize>().ok());
    match (symbols, tag_len) {
        (Some(symbols), Some(tag_len)) if symbols.is_power_of_two() => {
            tag_len.saturating_mul(symbols.trailing_zeros() as usize)
        }
        _ => 16,
    }
}

/// A placeholder [`slotgen_tables::ShortestTable`] of the table's name: two slots over the
/// digits.
pub fn shortest_table(table: &Table) -> TokenStream {
    let spec = ShortestSpec {
        slots: 2,
        charset: Charset::parse("digits").expect("a named charset"),
        max_len: 1,
        ..ShortestSpec::default()
    };
    let shortest = slotgen::shortest::shortest(&spec)
        .expect("two slots over the digits have tags of one symbol");
    slotgen::emit::rust::shortest_static(&shortest, &table.attrs, &table.vis, &table.name)
}
