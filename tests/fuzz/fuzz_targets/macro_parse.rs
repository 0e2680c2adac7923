//! The `slot_table!` parser (the macro crate's own `parse.rs`, included by path: the macro
//! crate is proc-macro only), through `syn::parse_str` on any text, then each field's value
//! by every value parser. Never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../../../slotgen-macros/src/parse.rs"]
#[allow(dead_code)]
mod parse;

fuzz_target!(|text: &str| {
    let Ok(input) = syn::parse_str::<parse::Input>(text) else {
        return;
    };
    for table in &input.tables {
        for field in &table.fields.list {
            let _ = field.value::<parse::Int>();
            let _ = field.value::<parse::CrcValue>();
            let _ = field.value::<parse::AlphabetValue>();
            let _ = field.value::<syn::LitStr>();
            let _ = field.value::<syn::LitBool>();
            let _ = field.value::<parse::Fields>();
        }
    }
});
