//! The Rust emitter: a `static` of [`slotgen_tables::SlotTable`] for a derivation.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote};

use crate::{catalog, Derivation};

/// The narrowest mask type for a derivation: `u16`, `u32` or `u64`, by the number of input
/// bits (`tag_len * symbol_bits`).
#[must_use]
pub fn mask_type(derivation: &Derivation) -> &'static str {
    match derivation.mask_bits() {
        0..=16 => "u16",
        17..=32 => "u32",
        _ => "u64",
    }
}

/// A one-paragraph description of the table's spec, for doc comments and file headers.
///
/// # Examples
///
/// ```
/// let d = slotgen::derive(&slotgen::Spec::default()).unwrap();
/// assert_eq!(
///     slotgen::emit::rust::describe(&d),
///     "CRC-16/XMODEM, 16384 slots, alphabet `@ABCDEFGHIJKLMNO`, 4-symbol tags (base slot 13881, 4 tags per slot)",
/// );
/// ```
#[must_use]
pub fn describe(derivation: &Derivation) -> String {
    format!(
        "{}, {} slots, alphabet `{}`, {}-symbol tags (base slot {}, {} tags per slot)",
        derivation.crc_name(),
        derivation.spec.slots,
        crate::error::show_bytes(derivation.alphabet.symbols()),
        derivation.tag_len,
        derivation.base_slot(),
        1u64 << derivation.kernel.len(),
    )
}

fn hex_lit(value: u64, digits: usize) -> syn::LitInt {
    syn::LitInt::new(
        &format!("{value:#0width$x}", width = digits + 2),
        Span::call_site(),
    )
}

/// The item `#attrs #vis static #name: SlotTable<'static, M> = { ... };` for `derivation`,
/// with its lookup tables as statics inside the initializer's block. Every path is absolute
/// (`::slotgen_tables::...`), so the tokens compile in any crate that depends on
/// `slotgen-tables`. `attrs` are emitted as given (doc comments included); when they hold
/// no doc comment, one describing the spec is added.
#[must_use]
pub fn table_static(
    derivation: &Derivation,
    attrs: &[syn::Attribute],
    vis: &syn::Visibility,
    name: &syn::Ident,
) -> TokenStream {
    let mask = format_ident!("{}", mask_type(derivation));
    let digits = match mask_type(derivation) {
        "u16" => 4,
        "u32" => 8,
        _ => 16,
    };
    let masks = |values: &[u64]| -> Vec<syn::LitInt> {
        values.iter().map(|&v| hex_lit(v, digits)).collect()
    };
    let (low, high, kernel) = (
        masks(&derivation.low),
        masks(&derivation.high),
        masks(&derivation.kernel),
    );
    let [low_len, high_len, kernel_len] =
        [low.len(), high.len(), kernel.len()].map(proc_macro2::Literal::usize_unsuffixed);
    let alg = &derivation.spec.crc;
    let algorithm = match catalog::CATALOG
        .iter()
        .find(|e| catalog::same_parameters(e.algorithm, alg))
    {
        Some(entry) => {
            let konst = format_ident!("{}", entry.constant);
            quote!(::slotgen_tables::crc::#konst)
        }
        None => {
            let (poly, init, xorout, check, residue) = (
                hex_lit(alg.poly.into(), 4),
                hex_lit(alg.init.into(), 4),
                hex_lit(alg.xorout.into(), 4),
                hex_lit(alg.check.into(), 4),
                hex_lit(alg.residue.into(), 4),
            );
            let (refin, refout) = (alg.refin, alg.refout);
            quote! {
                ::slotgen_tables::crc::Algorithm {
                    width: 16,
                    poly: #poly,
                    init: #init,
                    refin: #refin,
                    refout: #refout,
                    xorout: #xorout,
                    check: #check,
                    residue: #residue,
                }
            }
        }
    };
    let crc_name = derivation.crc_name();
    let slots = derivation.spec.slots;
    let alphabet = syn::LitByteStr::new(derivation.alphabet.symbols(), Span::call_site());
    let symbol_bits = derivation.alphabet.symbol_bits();
    let tag_len = derivation.tag_len;
    let base_slot = derivation.base_slot();
    let low_bits = derivation.low_bits;
    let doc = if attrs.iter().any(|a| a.path().is_ident("doc")) {
        quote!()
    } else {
        let text = format!(" Slot table: {}.", describe(derivation));
        quote!(#[doc = #text])
    };
    quote! {
        #doc
        #(#attrs)*
        #vis static #name: ::slotgen_tables::SlotTable<'static, #mask> = {
            static LOW: [#mask; #low_len] = [#(#low),*];
            static HIGH: [#mask; #high_len] = [#(#high),*];
            static KERNEL: [#mask; #kernel_len] = [#(#kernel),*];
            ::slotgen_tables::SlotTable {
                crc: ::slotgen_tables::Crc16::new(&#algorithm),
                crc_name: #crc_name,
                slots: #slots,
                alphabet: #alphabet,
                symbol_bits: #symbol_bits,
                tag_len: #tag_len,
                base_slot: #base_slot,
                low_bits: #low_bits,
                low: &LOW,
                high: &HIGH,
                kernel: &KERNEL,
            }
        };
    }
}

/// The `slotgen` command line that emits this table: every spec option spelled out, so that
/// the line regenerates the same file wherever it runs.
///
/// # Examples
///
/// ```
/// let d = slotgen::derive(&slotgen::Spec::default()).unwrap();
/// assert_eq!(
///     slotgen::emit::rust::command(&d, "rust", "REDIS_CLUSTER"),
///     "slotgen emit rust --crc CRC-16/XMODEM --alphabet '@ABCDEFGHIJKLMNO' --tag-len 4 --slots 16384 --name REDIS_CLUSTER",
/// );
/// ```
#[must_use]
pub fn command(derivation: &Derivation, language: &str, name: &str) -> String {
    let alg = &derivation.spec.crc;
    let crc = match catalog::name_of(alg) {
        Some(name) => format!("--crc {name}"),
        None => format!(
            "--poly {:#06x} --init {:#06x} --refin {} --refout {} --xorout {:#06x}",
            alg.poly, alg.init, alg.refin, alg.refout, alg.xorout
        ),
    };
    let alphabet = String::from_utf8_lossy(derivation.alphabet.symbols()).replace('\'', "'\\''");
    format!(
        "slotgen emit {language} {crc} --alphabet '{alphabet}' --tag-len {} --slots {} --name {name}",
        derivation.tag_len, derivation.spec.slots
    )
}

/// A complete Rust source file holding one table `pub static NAME`, formatted with
/// `prettyplease`. Its first line is `// @generated by` the [`command`] that emits it. The
/// output depends only on the derivation and the name.
///
/// # Errors
///
/// [`syn::Error`] when `name` is not a Rust identifier.
///
/// # Examples
///
/// ```
/// let d = slotgen::derive(&slotgen::Spec::default()).unwrap();
/// let source = slotgen::emit::rust::file(&d, "REDIS_CLUSTER").unwrap();
/// assert!(source.starts_with("// @generated by slotgen emit rust --crc CRC-16/XMODEM"));
/// assert!(source.contains("base_slot: 13881"));
/// ```
pub fn file(derivation: &Derivation, name: &str) -> Result<String, syn::Error> {
    let ident: syn::Ident = syn::parse_str(name)?;
    let vis: syn::Visibility = syn::parse_quote!(pub);
    file_with(derivation, &[], &vis, &ident)
}

/// As [`file()`], with the static's attributes and visibility as [`table_static`] takes them.
///
/// # Errors
///
/// [`syn::Error`] when the attributes do not make an item with the static.
pub fn file_with(
    derivation: &Derivation,
    attrs: &[syn::Attribute],
    vis: &syn::Visibility,
    name: &syn::Ident,
) -> Result<String, syn::Error> {
    let item = table_static(derivation, attrs, vis, name);
    Ok(format!(
        "// @generated by {}\n// Do not edit: rerun that command. Spec: {}.\n\n{}",
        command(derivation, "rust", &name.to_string()),
        describe(derivation),
        format(item)?
    ))
}

/// Items as Rust source, formatted with `prettyplease`.
///
/// # Errors
///
/// [`syn::Error`] when the tokens are not a sequence of items.
///
/// # Examples
///
/// ```
/// let source = slotgen::emit::rust::format(quote::quote!(static A: u16 = 0x31c3;)).unwrap();
/// assert_eq!(source, "static A: u16 = 0x31c3;\n");
/// ```
pub fn format(items: TokenStream) -> Result<String, syn::Error> {
    let parsed: syn::File = syn::parse2(items)?;
    Ok(prettyplease::unparse(&parsed))
}
