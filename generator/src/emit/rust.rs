//! The Rust emitter: a `const` (or `static`) of [`slotgen_tables::SlotTable`] for a derivation, of
//! [`slotgen_tables::SchemeTable`] for a scheme's, of [`slotgen_tables::ShortestTable`] for
//! shortest tags.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote};

use crate::request::TableSpec;
use crate::scheme::invert::SchemeSpec;
use crate::{catalog, Derivation, Spec};

fn hex_lit(value: u64, digits: usize) -> syn::LitInt {
    syn::LitInt::new(
        &format!("{value:#0width$x}", width = digits + 2),
        Span::call_site(),
    )
}

/// Byte differences of a tag as rows of hex bytes, `[0x05, 0x07, ...]`: the first `tag_len`
/// bytes of each word.
fn byte_rows(words: &[[u8; slotgen_tables::MAX_TAG_LEN]], tag_len: usize) -> Vec<TokenStream> {
    words
        .iter()
        .map(|w| {
            let bytes = w[..tag_len].iter().map(|&b| hex_lit(b.into(), 2));
            quote!([#(#bytes),*])
        })
        .collect()
}

/// The doc comment of `lines` (one `///` line each), unless `attrs` hold a doc comment
/// already: a static's own doc replaces the generated one.
pub(super) fn doc_unless_given(
    attrs: &[syn::Attribute],
    lines: impl FnOnce() -> Vec<String>,
) -> TokenStream {
    if attrs.iter().any(|a| a.path().is_ident("doc")) {
        return quote!();
    }
    let lines = lines().into_iter().map(|line| match line.as_str() {
        "" => line,
        _ => format!(" {line}"),
    });
    quote!(#(#[doc = #lines])*)
}

/// `name` as the identifier of a `pub` static of a file.
pub(super) fn public(name: &str) -> Result<(syn::Ident, syn::Visibility), syn::Error> {
    Ok((syn::parse_str(name)?, syn::parse_quote!(pub)))
}

/// Which item a generated [`slotgen_tables::SlotTable`] is: what [`table_item`] emits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Item {
    /// `const NAME: SlotTable<'static, N>` with its own `const` CRC engine: every caller
    /// sees the table's parameters and the engine's (`refin`, `xorout`, the slot mask, the
    /// tables' address) as constants, so that `key_slot` of a short key compiles to a few
    /// table loads, as fast as a `crc` crate `static` in the caller's own crate. The 8 KiB
    /// engine is emitted (once) in each code-generation unit that uses the table; its
    /// `low`, `high` and `kernel` tables stay `static` (one copy). What `slotgen emit rust`
    /// and the build.rs API write.
    Const,
    /// `static NAME: SlotTable<'static, N>` borrowing the runtime's shared engine of a
    /// catalogue CRC ([`slotgen_tables::catalog`]): one address, and no copy of the engine;
    /// a caller in another crate reads the parameters through the static. What
    /// `slot_table! { static NAME = .. }` declares.
    Static,
}

/// The table item of `derivation`: a [`SlotTable`](slotgen_tables::SlotTable) for a
/// CRC-16 spec, a [`SchemeTable`](slotgen_tables::SchemeTable) (always a `static`, see
/// below) for a scheme.
///
/// For a CRC-16 spec, the item `#attrs #vis const #name: SlotTable<'static, N> = { ... };`
/// (or `static`, as `item` says), `N` its tag length, with its tables of tag bytes
/// ([`crate::TagWords`], `tag_len` bytes per entry, as byte strings) as statics inside the
/// initializer's block, passed to the checked `const` constructor `SlotTable::new`. The CRC
/// engine is `const CRC` in the block for [`Item::Const`]; for [`Item::Static`], the
/// runtime's shared static for a catalogue CRC (`::slotgen_tables::catalog::CRC_16_*`), or
/// a static in the block for a custom one. Every path is absolute (`::slotgen_tables::...`),
/// so the tokens compile in any crate that depends on `slotgen-tables`. `attrs` are emitted
/// as given (doc comments included); when they hold no doc comment, one describing the spec
/// is added.
///
/// For a scheme, the item `#attrs #vis static #name: SchemeTable<'static, N> = { ... };`,
/// `N` its tag length exactly. Inside the initializer's block:
///
/// - `const SCHEME`: the scheme, `::slotgen_tables::SchemeName::X.scheme(Some(slots),
///   hash_tag)` unwrapped by a `match` (a `const fn` returning `Result`), so that a slot
///   count or hashtag the runtime refuses is a compile error, not a panic at run time;
/// - `static COLUMNS: [[u8; N]; solved_bits]` and `static KERNEL: [[u8; N]; kernel]`: the
///   byte differences of [`Derivation::columns`] and
///   [`kernel_words`](Derivation::kernel_words), as hex bytes;
///
/// then the checked `const` constructor `SchemeTable::new(SCHEME, alphabet, N, &COLUMNS,
/// &KERNEL)`, which verifies every column against the scheme's CRC as the crate compiles.
/// Every path is absolute (`::slotgen_tables::...`, `::core::...`), so the tokens compile
/// in any crate that depends on `slotgen-tables`, `no_std` ones included. The added doc
/// comment has an example (the first slot's tag and key).
///
/// # Examples
///
/// ```
/// use slotgen::emit::rust::{format, table_item, Item};
/// use slotgen::scheme::invert::SchemeSpec;
/// use slotgen_tables::SchemeName;
///
/// let d = slotgen::derive(&slotgen::Spec::default())?;
/// let tokens = table_item(&d, &[], &syn::parse_quote!(pub), Item::Const, &syn::parse_quote!(T));
/// let source = format(tokens).unwrap();
/// assert!(source.contains("pub const T: ::slotgen_tables::SlotTable<'static, 4> = {"));
/// assert!(source.contains("const CRC: ::slotgen_tables::Crc16 = ::slotgen_tables::Crc16::new("));
///
/// let d = slotgen::derive(&SchemeSpec::new(SchemeName::Codis))?;
/// let tokens = table_item(&d, &[], &syn::parse_quote!(pub), Item::Static, &syn::parse_quote!(CODIS));
/// let source = format(tokens).unwrap();
/// assert!(source.contains("pub static CODIS: ::slotgen_tables::SchemeTable<'static, 3> = {"));
/// assert!(source.contains("::slotgen_tables::SchemeName::Codis"));
/// assert!(source.contains("static COLUMNS: [[u8; 3]; 10] = ["));
/// # Ok::<(), slotgen::Error>(())
/// ```
#[must_use]
pub fn table_item(
    derivation: &Derivation,
    attrs: &[syn::Attribute],
    vis: &syn::Visibility,
    item: Item,
    name: &syn::Ident,
) -> TokenStream {
    match &derivation.spec {
        TableSpec::Crc16(spec) => slot_table_item(derivation, spec, attrs, vis, item, name),
        TableSpec::Scheme(spec) => scheme_item(derivation, spec, attrs, vis, name),
    }
}

fn slot_table_item(
    derivation: &Derivation,
    spec: &Spec,
    attrs: &[syn::Attribute],
    vis: &syn::Visibility,
    item: Item,
    name: &syn::Ident,
) -> TokenStream {
    let tag_len = derivation.tag_len;
    // Tags (`low`) as byte strings, byte differences (`high`, `kernel`) as hex bytes.
    let tags = |words: &[[u8; slotgen_tables::MAX_TAG_LEN]]| -> Vec<TokenStream> {
        words
            .iter()
            .map(|w| {
                let bytes = syn::LitByteStr::new(&w[..tag_len], Span::call_site());
                quote!(*#bytes)
            })
            .collect()
    };
    let words = &derivation
        .slot_tables
        .as_ref()
        .expect("a CRC-16 spec's derivation has its slot tables")
        .words;
    let (low, high, kernel) = (
        tags(&words.low),
        byte_rows(&words.high, tag_len),
        byte_rows(&words.kernel, tag_len),
    );
    let [low_len, high_len, kernel_len, n] =
        [low.len(), high.len(), kernel.len(), tag_len].map(proc_macro2::Literal::usize_unsuffixed);
    let (crc_item, crc) = engine_tokens(&spec.crc, item);
    let keyword = match item {
        Item::Const => quote!(const),
        Item::Static => quote!(static),
    };
    let crc_name = spec.crc_name();
    let alphabet = syn::LitByteStr::new(derivation.alphabet.symbols(), Span::call_site());
    let doc = doc_unless_given(attrs, || {
        vec![format!("Slot table: {}.", super::describe(derivation))]
    });
    quote! {
        #doc
        #(#attrs)*
        #vis #keyword #name: ::slotgen_tables::SlotTable<'static, #n> = {
            #crc_item
            static LOW: [[u8; #n]; #low_len] = [#(#low),*];
            static HIGH: [[u8; #n]; #high_len] = [#(#high),*];
            static KERNEL: [[u8; #n]; #kernel_len] = [#(#kernel),*];
            ::slotgen_tables::SlotTable::new(
                #crc,
                #crc_name,
                #alphabet,
                #n,
                &LOW,
                &HIGH,
                &KERNEL,
            )
        };
    }
}

fn scheme_item(
    derivation: &Derivation,
    spec: &SchemeSpec,
    attrs: &[syn::Attribute],
    vis: &syn::Visibility,
    name: &syn::Ident,
) -> TokenStream {
    let tag_len = derivation.tag_len;
    let (columns, kernel) = (
        byte_rows(&derivation.columns, tag_len),
        byte_rows(&derivation.kernel_words, tag_len),
    );
    let [columns_len, kernel_len, n] =
        [columns.len(), kernel.len(), tag_len].map(proc_macro2::Literal::usize_unsuffixed);
    // The variant's name: `SchemeName`'s derived `Debug` of a unit variant is exactly it.
    let variant = format_ident!("{}", format!("{:?}", spec.name));
    let slots = proc_macro2::Literal::u32_unsuffixed(derivation.scheme.slots());
    let hash_tag = match spec.hash_tag {
        Some(pair) => {
            let pair = syn::LitByteStr::new(&pair, Span::call_site());
            quote!(::core::option::Option::Some(*#pair))
        }
        None => quote!(::core::option::Option::None),
    };
    let alphabet = syn::LitByteStr::new(derivation.alphabet.symbols(), Span::call_site());
    let doc = doc_unless_given(attrs, || {
        vec![
            format!("Scheme table: {}.", super::describe(derivation)),
            String::new(),
            scheme_example(derivation),
        ]
    });
    quote! {
        #doc
        #(#attrs)*
        #vis static #name: ::slotgen_tables::SchemeTable<'static, #n> = {
            const SCHEME: ::slotgen_tables::Scheme<'static> =
                match ::slotgen_tables::SchemeName::#variant.scheme(::core::option::Option::Some(#slots), #hash_tag) {
                    ::core::result::Result::Ok(scheme) => scheme,
                    ::core::result::Result::Err(_) => ::core::panic!(
                        "the runtime refuses this scheme's slot count or hash_tag: regenerate the table with slotgen"
                    ),
                };
            static COLUMNS: [[u8; #n]; #columns_len] = [#(#columns),*];
            static KERNEL: [[u8; #n]; #kernel_len] = [#(#kernel),*];
            ::slotgen_tables::SchemeTable::new(SCHEME, #alphabet, #n, &COLUMNS, &KERNEL)
        };
    }
}

/// The doc comment's example, from the runtime's own table: the first slot's tag and a key
/// of it (`user:{tag}:profile` with the scheme's delimiters; `user{tag}profile` when `:` is
/// the opening one, `{tag}` when `u`, `s`, `e` or `r` is; or the tag alone for a scheme that
/// hashes the whole key).
fn scheme_example(derivation: &Derivation) -> String {
    let table = derivation.table();
    let first = derivation.scheme.offset();
    let tag = table
        .tag_for_slot(first)
        .expect("the first slot is in range of every table");
    let (prefix, suffix) =
        super::model::example_affixes(super::model::KeyRule::of(derivation.scheme.hashtag()));
    let how = match derivation.scheme.hashtag().delimiters() {
        Some(_) => "",
        None => " (the tag alone: this scheme hashes the whole key)",
    };
    let key = table
        .key_for_slot(prefix, first, suffix)
        .expect("a prefix without the opening delimiter, or none for a whole-key scheme");
    format!(
        "Example: the tag of slot {first} is `{}`, and the key `{}`{how} lands on slot {first}.",
        super::common::comment_text(tag.as_ref()),
        super::common::comment_text(&key),
    )
}

/// The CRC engine a generated table borrows: `(item, expression)`. A `const` table gets
/// `const CRC: Crc16` in its block, so that its users see the engine; a `static` one of a
/// catalogue CRC names the runtime's shared static (no item), of a custom CRC gets `static
/// CRC: Crc16` in the block.
fn engine_tokens(alg: &crc::Algorithm<u16>, item: Item) -> (TokenStream, TokenStream) {
    let shared = catalog::CATALOG
        .iter()
        .find(|e| catalog::same_parameters(e.algorithm, alg));
    match (item, shared) {
        (Item::Static, Some(entry)) => {
            let konst = format_ident!("{}", entry.constant);
            (quote!(), quote!(&::slotgen_tables::catalog::#konst))
        }
        (Item::Static, None) => {
            let algorithm = algorithm_tokens(alg);
            (
                quote!(static CRC: ::slotgen_tables::Crc16 = ::slotgen_tables::Crc16::new(&#algorithm);),
                quote!(&CRC),
            )
        }
        (Item::Const, _) => {
            let algorithm = algorithm_tokens(alg);
            (
                quote!(const CRC: ::slotgen_tables::Crc16 = ::slotgen_tables::Crc16::new(&#algorithm);),
                quote!(&CRC),
            )
        }
    }
}

/// The `slotgen` command line that emits this table: every spec option spelled out
/// ([`spec_options`](super::spec_options)), so that the line regenerates the same file
/// wherever it runs.
///
/// # Examples
///
/// ```
/// use slotgen::scheme::invert::SchemeSpec;
/// use slotgen_tables::SchemeName;
///
/// let d = slotgen::derive(&slotgen::Spec::default())?;
/// assert_eq!(
///     slotgen::emit::rust::command(&d, "rust", "REDIS_CLUSTER"),
///     "slotgen emit rust --crc CRC-16/XMODEM --alphabet '@ABCDEFGHIJKLMNO' --tag-len 4 --slots 16384 --name REDIS_CLUSTER",
/// );
/// let d = slotgen::derive(&SchemeSpec::new(SchemeName::TarantoolVshard))?;
/// assert_eq!(
///     slotgen::emit::rust::command(&d, "rust", "VSHARD"),
///     "slotgen emit rust --scheme tarantool-vshard --slots 3000 --alphabet '@ABCDEFGHIJKLMNO' --tag-len 10 --name VSHARD",
/// );
/// # Ok::<(), slotgen::Error>(())
/// ```
#[must_use]
pub fn command(derivation: &Derivation, language: &str, name: &str) -> String {
    format!(
        "slotgen emit {language} {} --name {name}",
        super::spec_options(derivation)
    )
}

/// A complete Rust source file holding one table `pub const NAME` ([`Item::Const`]; a
/// scheme's is a `pub static`), formatted with `prettyplease`. Its first line is
/// `// @generated by` the [`command`] that emits it, its second the spec. The output
/// depends only on the derivation and the name.
///
/// # Errors
///
/// [`syn::Error`] when `name` is not a Rust identifier.
///
/// # Examples
///
/// ```
/// use slotgen::scheme::invert::SchemeSpec;
/// use slotgen_tables::SchemeName;
///
/// let d = slotgen::derive(&slotgen::Spec::default())?;
/// let source = slotgen::emit::rust::file(&d, "REDIS_CLUSTER").unwrap();
/// assert!(source.starts_with("// @generated by slotgen emit rust --crc CRC-16/XMODEM"));
/// assert!(source.contains("SlotTable<'static, 4>"));
/// assert!(source.contains("static KERNEL: [[u8; 4]; 2] = [[0x05, 0x07, 0x07, 0x02], [0x0a, 0x0e, 0x0e, 0x05]];"));
///
/// let d = slotgen::derive(&SchemeSpec::new(SchemeName::TarantoolVshard))?;
/// let source = slotgen::emit::rust::file(&d, "VSHARD").unwrap();
/// assert!(source.starts_with("// @generated by slotgen emit rust --scheme tarantool-vshard --slots 3000"));
/// assert!(source.contains("pub static VSHARD: ::slotgen_tables::SchemeTable<'static, 10>"));
/// assert!(source.contains("static KERNEL: [[u8; 10]; 8] = ["));
/// # Ok::<(), slotgen::Error>(())
/// ```
pub fn file(derivation: &Derivation, name: &str) -> Result<String, syn::Error> {
    let (ident, vis) = public(name)?;
    file_with(derivation, &[], &vis, &ident)
}

/// As [`file()`], with the table's attributes and visibility as [`table_item`] takes them.
///
/// # Errors
///
/// [`syn::Error`] when the attributes do not make an item with the table.
pub fn file_with(
    derivation: &Derivation,
    attrs: &[syn::Attribute],
    vis: &syn::Visibility,
    name: &syn::Ident,
) -> Result<String, syn::Error> {
    generated_file(
        &command(derivation, "rust", &name.to_string()),
        &super::describe(derivation),
        table_item(derivation, attrs, vis, Item::Const, name),
    )
}

/// A generated file: the `@generated` line naming `command`, a line describing the spec,
/// then `items` formatted by [`format`].
pub(super) fn generated_file(
    command: &str,
    spec: &str,
    items: TokenStream,
) -> Result<String, syn::Error> {
    let [generated, edit, spec] = super::common::generated_lines(command, spec);
    Ok(format!(
        "// {generated}\n// {edit} {spec}\n\n{}",
        format(items)?
    ))
}

/// The expression for `alg`: the `crc` crate's catalogue constant when its parameters are a
/// catalogue algorithm's, else an `Algorithm` literal, by absolute path.
pub(super) fn algorithm_tokens(alg: &crc::Algorithm<u16>) -> TokenStream {
    match catalog::CATALOG
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
    }
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
