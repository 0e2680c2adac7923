//! Expand: a validated table is resolved and derived by slotgen's request layer and
//! emitted by the one Rust emitter,
//! [`slotgen::emit::rust::table_item`] (or `shortest_static`); a table
//! that fails becomes
//! its errors and a [`fallback`](crate::fallback) of the same name and type.

use proc_macro2::TokenStream;
use quote::quote;

use crate::fallback;
use crate::parse::{Input, Table};
use crate::validate::{self, ShortestDecl};

/// The expansion of a whole invocation: each table's `static`, or for a table with errors
/// its `compile_error!`s and a placeholder `static` of the same name.
pub fn expand(input: TokenStream) -> TokenStream {
    match syn::parse2::<Input>(input) {
        Ok(input) => input.tables.iter().map(expand_table).collect(),
        Err(error) => error.to_compile_error(),
    }
}

/// [`expand`], formatted as a source file with prettyplease.
pub fn expand_source(input: TokenStream) -> String {
    let tokens = expand(input);
    slotgen::emit::rust::format(tokens.clone()).unwrap_or_else(|_| tokens.to_string())
}

/// What a table declares, by its fields: a `shortest` field makes a shortest-tag table (a
/// scheme's with a `scheme` field), else a `scheme` field a scheme table, else a CRC-16
/// slot table.
enum Kind {
    Scheme,
    Shortest,
    SchemeShortest,
    Slot,
}

fn expand_table(table: &Table) -> TokenStream {
    let (attrs, vis, name) = (&table.attrs, &table.vis, &table.name);
    let kind = match (table.fields.get("scheme"), table.fields.get("shortest")) {
        (Some(_), Some(_)) => Kind::SchemeShortest,
        (None, Some(_)) => Kind::Shortest,
        (Some(_), None) => Kind::Scheme,
        (None, None) => Kind::Slot,
    };
    let built = match kind {
        Kind::Scheme | Kind::Slot => validate::request(table)
            .and_then(|(request, located)| {
                request
                    .derive()
                    .map_err(|refusal| vec![located.error(&refusal)])
            })
            .map(|d| slotgen::emit::rust::table_item(&d, attrs, vis, table.item, name)),
        Kind::Shortest | Kind::SchemeShortest => validate::shortest(table)
            .and_then(build_shortest)
            .map(|s| slotgen::emit::shortest::shortest_static(&s, attrs, vis, name)),
    };
    match built {
        Ok(tokens) => tokens,
        Err(errors) => {
            let errors = errors.into_iter().map(|e| e.to_compile_error());
            let placeholder = match kind {
                Kind::Scheme => fallback::scheme_table(table),
                Kind::Shortest => fallback::shortest_table(table),
                Kind::SchemeShortest => fallback::scheme_shortest_table(table),
                Kind::Slot => fallback::slot_table(table),
            };
            quote!(#(#errors)* #placeholder)
        }
    }
}

/// Runs a declared shortest-tag search; its gaps are an error unless the table allows them.
fn build_shortest(decl: ShortestDecl) -> Result<slotgen::shortest::Shortest, Vec<syn::Error>> {
    let ShortestDecl {
        table: shortest,
        allow_gaps,
        at,
    } = decl;
    let (slots, max_len) = (shortest.scheme.slots(), shortest.max_len);
    let gaps = shortest.gaps();
    if !gaps.is_empty() && !allow_gaps {
        let listed: Vec<String> = gaps.iter().take(8).map(ToString::to_string).collect();
        let more = if gaps.len() > 8 { ", ..." } else { "" };
        return Err(vec![syn::Error::new_spanned(
            &at,
            format!(
                "{} of {slots} slots have no tag of at most {max_len} symbols over this charset (slots {}{more}): raise `max_len`, use a larger charset, or add `allow_gaps: true` to accept them",
                gaps.len(),
                listed.join(", ")
            ),
        )]);
    }
    Ok(shortest)
}
