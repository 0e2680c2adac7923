//! Fallback: for a table that cannot be built, a `static` of the same name and type, so that
//! the user sees the table's own errors and not a cascade from every use of it (as thiserror
//! does for a failed derive). Each is made by the one Rust emitter from a small table that
//! always derives, so a placeholder has exactly the shape of a real table.

use proc_macro2::TokenStream;
use slotgen::scheme::invert::SchemeSpec;
use slotgen::scheme::SlotFunction;
use slotgen::shortest::{Charset, ShortestSpec};
use slotgen::Spec;
use slotgen_tables::SchemeName;

use crate::parse::{Int, Table};

/// A placeholder [`slotgen_tables::SlotTable`] of the table's name and type
/// (`SlotTable<'static, N>`, `N` the tag length): two slots over the alphabet `@A`, at the
/// table's own tag length when its fields tell it, else 4. It goes through the runtime's
/// checked `const` constructor like any generated table.
pub fn slot_table(table: &Table) -> TokenStream {
    let spec = Spec {
        alphabet: b"@A".to_vec(),
        tag_len: Some(tag_len(table)),
        slots: 2,
        ..Spec::default()
    };
    let derivation = slotgen::derive(&spec)
        .expect("two slots over `@A` derive at every tag length up to the maximum");
    slotgen::emit::rust::table_item(
        &derivation,
        &table.attrs,
        &table.vis,
        table.item,
        &table.name,
    )
}

/// A placeholder [`slotgen_tables::SchemeTable`] of the table's name and type
/// (`SchemeTable<'static, N>`, `N` as for [`slot_table`]): Redis Cluster's scheme with two
/// slots over the alphabet `@A`, through the runtime's checked `const` constructor like any
/// generated table.
pub fn scheme_table(table: &Table) -> TokenStream {
    let spec = SchemeSpec {
        slots: Some(2),
        alphabet: b"@A".to_vec(),
        tag_len: Some(tag_len(table)),
        ..SchemeSpec::new(SchemeName::RedisCluster)
    };
    let derivation = slotgen::derive(&spec)
        .expect("two slots over `@A` derive at every tag length up to the maximum");
    slotgen::emit::rust::table_item(
        &derivation,
        &table.attrs,
        &table.vis,
        table.item,
        &table.name,
    )
}

/// The tag length the table would have had, as far as its fields tell (the type's `N`): its
/// `tag_len` field when that is in `1..=MAX_TAG_LEN`, else 4 (the Redis Cluster length).
fn tag_len(table: &Table) -> usize {
    table
        .fields
        .get("tag_len")
        .and_then(|f| f.value::<Int>().ok())
        .and_then(|n| n.0.base10_parse::<usize>().ok())
        .filter(|n| (1..=slotgen::derive::MAX_TAG_LEN).contains(n))
        .unwrap_or(4)
}

/// A placeholder [`slotgen_tables::ShortestTable`] of the table's name: two slots over the
/// digits.
pub fn shortest_table(table: &Table) -> TokenStream {
    let two = Spec {
        slots: 2,
        ..Spec::default()
    };
    let spec = ShortestSpec {
        function: SlotFunction::try_from(&two).expect("two slots: a power of two"),
        charset: Charset::parse("digits").expect("a named charset"),
        max_len: 1,
    };
    let shortest = slotgen::shortest::shortest(&spec)
        .expect("two slots over the digits have tags of one symbol");
    slotgen::emit::shortest::shortest_static(&shortest, &table.attrs, &table.vis, &table.name)
}

/// A placeholder [`slotgen_tables::SchemeShortestTable`] of the table's name: Redis
/// Cluster's scheme with two slots over the digits.
pub fn scheme_shortest_table(table: &Table) -> TokenStream {
    let spec = ShortestSpec {
        function: SlotFunction::scheme(SchemeName::RedisCluster, Some(2), None)
            .expect("two slots are a Redis Cluster slot count"),
        charset: Charset::parse("digits").expect("a named charset"),
        max_len: 1,
    };
    let shortest = slotgen::shortest::shortest(&spec)
        .expect("two slots over the digits have tags of one symbol");
    slotgen::emit::shortest::shortest_static(&shortest, &table.attrs, &table.vis, &table.name)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every tag length a table's type can have gives a scheme placeholder of that `N`, and
    /// a table without `tag_len` one of 4.
    #[test]
    fn scheme_placeholder_at_every_tag_length() {
        let table: Table = syn::parse_quote!(static T = { scheme: "codis" };);
        assert!(scheme_table(&table)
            .to_string()
            .contains("SchemeTable < 'static , 4 >"));
        for tag_len in 1..=slotgen::derive::MAX_TAG_LEN {
            let table: Table = syn::parse_str(&format!(
                "static T = {{ scheme: \"codis\", tag_len: {tag_len} }};"
            ))
            .unwrap();
            let tokens = scheme_table(&table).to_string();
            assert!(
                tokens.contains(&format!("SchemeTable < 'static , {tag_len} >")),
                "{tokens}"
            );
        }
    }
}
