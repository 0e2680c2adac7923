//! A shortest-tag table ([`Shortest`], of a CRC-16 spec or of a named scheme) as text: one
//! tag per line, C, Lua and JSON, and as Rust through the Rust emitter's formatting:
//! [`shortest_static`], the runtime's [`slotgen_tables::ShortestTable`] of a CRC-16 table
//! or [`slotgen_tables::SchemeShortestTable`] of a scheme's.
//!
//! Tags are printable ASCII without braces (see [`Charset`](crate::shortest::Charset)), so
//! each format quotes them with at most a backslash before `"`, `\` and (in C, against
//! trigraphs) `?`.

use std::fmt::Write;

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote};
use serde_json::{json, Value};

use super::rust;
use crate::scheme::SlotFunction;
use crate::shortest::Shortest;

const C_TEMPLATE: &str = include_str!("template/c/shortest.h");
const LUA_TEMPLATE: &str = include_str!("template/lua/shortest.lua");

/// The JSON schema name and version written to `"format"`.
pub const FORMAT: &str = "slotgen-shortest/1";

/// A one-line description of the table: slot function, charset, tags per length, gaps.
///
/// # Examples
///
/// ```
/// let table = slotgen::shortest::shortest(&Default::default())?;
/// assert_eq!(
///     slotgen::emit::shortest::describe(&table),
///     "CRC-16/XMODEM, 16384 slots, charset `0-9a-zA-Z` in this order, tags of at most 3 \
///      symbols: 62 of length 1, 3448 of length 2, 12874 of length 3, 0 gaps",
/// );
/// # Ok::<(), slotgen::Error>(())
/// ```
#[must_use]
pub fn describe(table: &Shortest) -> String {
    let mut per_len = vec![0usize; table.width() + 1];
    for tag in table.tags() {
        per_len[tag.map_or(0, <[u8]>::len)] += 1;
    }
    let mut out = format!(
        "{}, charset `{}` in this order, tags of at most {} symbols:",
        table.function(),
        table.charset.ranges(),
        table.max_len,
    );
    for (len, count) in per_len.iter().enumerate().skip(1) {
        write!(out, " {count} of length {len},").expect("writing to a String");
    }
    write!(out, " {} gaps", per_len[0]).expect("writing to a String");
    out
}

/// The `slotgen shortest` command line that writes this table in `format` (`lines`, `c`,
/// `lua`, `json`, `rust`), every option spelled out: the slot function's options
/// ([`SlotFunction::options`]), the charset as a bracket expression and its order as
/// ranges, `--allow-gaps` when the table has gaps.
///
/// # Examples
///
/// ```
/// let table = slotgen::shortest::shortest(&Default::default())?;
/// assert_eq!(
///     slotgen::emit::shortest::command(&table, "c", Some("crc16_slot_table")),
///     "slotgen shortest --crc CRC-16/XMODEM --slots 16384 --charset '[0-9A-Za-z]' \
///      --order '0-9a-zA-Z' --max-len 3 --format c --name crc16_slot_table",
/// );
/// # Ok::<(), slotgen::Error>(())
/// ```
#[must_use]
pub fn command(table: &Shortest, format: &str, name: Option<&str>) -> String {
    let quote = |s: &str| super::common::shell_quote(s.as_bytes());
    let charset = &table.charset;
    let mut out = format!(
        "slotgen shortest {} --charset {} --order {} --max-len {} --format {format}",
        table.function().options(),
        quote(&format!("[{}]", charset.set_ranges())),
        quote(&charset.ranges()),
        table.max_len,
    );
    if let Some(name) = name {
        write!(out, " --name {name}").expect("writing to a String");
    }
    if !table.gaps().is_empty() {
        out += " --allow-gaps";
    }
    out
}

/// One tag per line in slot order from the first slot, an empty line for a gap: `slots`
/// lines.
#[must_use]
pub fn lines(table: &Shortest) -> String {
    let mut out = String::new();
    for tag in table.tags() {
        out += &String::from_utf8_lossy(tag.unwrap_or_default());
        out.push('\n');
    }
    out
}

/// A C file: `const char NAME[slots][width + 1]`, redis-benchmark's `crc16_slot_table` in
/// form, entry `slot - first` the tag of that slot (the first slot is 0, or 1 for Tarantool
/// vshard's buckets), `""` for a gap; 16 entries to a line, so the line of entry `i` is
/// `i / 16` after the opening one.
///
/// # Examples
///
/// ```
/// let table = slotgen::shortest::shortest(&Default::default())?;
/// let c = slotgen::emit::shortest::c(&table, "crc16_slot_table");
/// assert!(c.contains("const char crc16_slot_table[16384][4] = {\n\"06S\", \"Qi\", \"5L5\","));
/// # Ok::<(), slotgen::Error>(())
/// ```
#[must_use]
pub fn c(table: &Shortest, name: &str) -> String {
    let context = minijinja::context! {
        name,
        ..template_values(table, &command(table, "c", Some(name)))
    };
    super::engine::render_source("c/shortest.h", C_TEMPLATE, &context)
}

/// A Lua chunk that returns the table as a sequence: `tags[slot + 1]` is the tag of `slot`
/// (Lua sequences start at 1; `tags[slot]` for Tarantool vshard's buckets, which do too),
/// `false` for a gap.
///
/// # Examples
///
/// ```
/// let table = slotgen::shortest::shortest(&Default::default())?;
/// let lua = slotgen::emit::shortest::lua(&table);
/// assert!(lua.contains("return {\n\"06S\", \"Qi\", \"5L5\","));
/// # Ok::<(), slotgen::Error>(())
/// ```
#[must_use]
pub fn lua(table: &Shortest) -> String {
    let context = template_values(table, &command(table, "lua", None));
    super::engine::render_source("lua/shortest.lua", LUA_TEMPLATE, &context)
}

/// What the C and Lua templates read of `table`, written by `command`: `generated`, `edit`
/// and `spec` (the header lines), `tags` (bytes, or none for a gap, from the first slot),
/// `first` (the first slot), `slots`, `width` and `max_len`.
fn template_values(table: &Shortest, command: &str) -> minijinja::Value {
    let [generated, edit, spec] = super::common::generated_lines(
        command,
        &super::common::comment_text(describe(table).as_bytes()),
    );
    let tags: Vec<Option<Vec<u8>>> = table.tags().map(|tag| tag.map(<[u8]>::to_vec)).collect();
    minijinja::context! {
        generated,
        edit,
        spec,
        tags,
        first => table.scheme.offset(),
        slots => table.scheme.slots(),
        width => table.width(),
        max_len => table.max_len,
    }
}

/// The table as JSON (`"format": "slotgen-shortest/1"`): the slot function
/// ([`SlotFunction::json_fields`]: `crc`, the RevEng model and `name`, and `slots`; or
/// `scheme`, an object of `name`, `hash_tag` and `first_slot`, and `slots`), `charset` (the
/// symbols in search order), `max_len`, `width`, `tags` (one string per slot in slot order
/// from the first, `null` for a gap) and `gaps` (the slots without a tag, ascending).
#[must_use]
pub fn to_value(table: &Shortest) -> Value {
    let tags: Vec<Value> = table
        .tags()
        .map(|tag| tag.map_or(Value::Null, |t| Value::from(String::from_utf8_lossy(t))))
        .collect();
    let mut value = json!({
        "format": FORMAT,
        "generator": concat!("slotgen ", env!("CARGO_PKG_VERSION")),
        "charset": String::from_utf8_lossy(table.charset.symbols()),
        "max_len": table.max_len,
        "width": table.width(),
        "tags": tags,
        "gaps": table.gaps(),
    });
    value
        .as_object_mut()
        .expect("an object")
        .extend(table.function().json_fields());
    value
}

/// The item of a shortest-tag table, its tags one byte string of `slots * width` bytes:
/// for a CRC-16 spec's table `#attrs #vis static #name: ShortestTable<'static> =
/// ShortestTable { ... };`, the runtime's [`slotgen_tables::ShortestTable`]; for a named
/// scheme's `#attrs #vis static #name: SchemeShortestTable<'static> = ...`, the runtime's
/// [`slotgen_tables::SchemeShortestTable`], its scheme made by the runtime's
/// `SchemeName::scheme` in the initializer (a compile error if the runtime refuses the slot
/// count). Every path is absolute (`::slotgen_tables::...`), so the tokens compile in any
/// crate that depends on `slotgen-tables`. `attrs` are emitted as given; when they hold no
/// doc comment, one describing the table is added.
///
/// # Examples
///
/// ```
/// use slotgen::scheme::SlotFunction;
/// use slotgen::shortest::{shortest, Charset, ShortestSpec};
/// use slotgen_tables::SchemeName;
///
/// let vshard = SlotFunction::scheme(SchemeName::TarantoolVshard, Some(4), None)?;
/// let spec = ShortestSpec { function: vshard, charset: Charset::parse("digits")?, max_len: 3 };
/// let table = shortest(&spec)?;
/// assert_eq!(table.packed(), b"1\x0020210\x00"); // buckets 1 to 4, NUL-padded to 2 bytes
/// let tokens = slotgen::emit::shortest::shortest_static(&table, &[], &syn::parse_quote!(pub), &syn::parse_quote!(BUCKETS_4));
/// let source = slotgen::emit::rust::format(tokens).unwrap();
/// assert!(source.contains("pub static BUCKETS_4: ::slotgen_tables::SchemeShortestTable<'static>"));
/// assert!(source.contains("width: 2,"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// ```
/// use slotgen::shortest::{shortest, Charset, ShortestSpec};
/// use slotgen::{scheme::SlotFunction, Spec};
///
/// let function = SlotFunction::try_from(&Spec { slots: 4, ..Spec::default() })?;
/// let spec = ShortestSpec { function, charset: Charset::parse("digits")?, ..Default::default() };
/// let table = shortest(&spec)?;
/// let tokens = slotgen::emit::shortest::shortest_static(
///     &table,
///     &[],
///     &syn::parse_quote!(pub),
///     &syn::parse_quote!(DIGITS_4),
/// );
/// assert!(tokens.to_string().contains(r#"tags : b"3210""#));
/// # Ok::<(), slotgen::Error>(())
/// ```
#[must_use]
pub fn shortest_static(
    table: &Shortest,
    attrs: &[syn::Attribute],
    vis: &syn::Visibility,
    name: &syn::Ident,
) -> TokenStream {
    let doc = rust::doc_unless_given(attrs, || {
        vec![format!("Shortest tags: {}.", describe(table))]
    });
    let charset = syn::LitByteStr::new(table.charset.symbols(), Span::call_site());
    let [max_len, width] =
        [table.max_len, table.width()].map(proc_macro2::Literal::usize_unsuffixed);
    let tags = syn::LitByteStr::new(table.packed(), Span::call_site());
    let slots = proc_macro2::Literal::u32_unsuffixed(table.scheme.slots());
    let Some(crc) = &table.crc16 else {
        // The variant's name: `SchemeName`'s derived `Debug` of a unit variant is exactly it.
        let variant = format_ident!("{}", format!("{:?}", table.name));
        let hash_tag = match table.hash_tag() {
            Some(pair) => {
                let pair = syn::LitByteStr::new(&pair, Span::call_site());
                quote!(::core::option::Option::Some(*#pair))
            }
            None => quote!(::core::option::Option::None),
        };
        return quote! {
            #doc
            #(#attrs)*
            #vis static #name: ::slotgen_tables::SchemeShortestTable<'static> = ::slotgen_tables::SchemeShortestTable {
                scheme: match ::slotgen_tables::SchemeName::#variant.scheme(::core::option::Option::Some(#slots), #hash_tag) {
                    ::core::result::Result::Ok(scheme) => scheme,
                    ::core::result::Result::Err(_) => ::core::panic!(
                        "the runtime refuses this scheme's slot count or hash_tag: regenerate the table with slotgen"
                    ),
                },
                charset: #charset,
                max_len: #max_len,
                width: #width,
                tags: #tags,
            };
        };
    };
    let algorithm = rust::algorithm_tokens(crc);
    let crc_name = crate::catalog::name_of(crc).unwrap_or("custom");
    quote! {
        #doc
        #(#attrs)*
        #vis static #name: ::slotgen_tables::ShortestTable<'static> = ::slotgen_tables::ShortestTable {
            crc: ::slotgen_tables::Crc16::new(&#algorithm),
            crc_name: #crc_name,
            slots: #slots,
            charset: #charset,
            max_len: #max_len,
            width: #width,
            tags: #tags,
        };
    }
}

/// A complete Rust source file holding one shortest-tag table `pub static NAME`
/// ([`shortest_static`]), formatted with `prettyplease`, its first line `// @generated by`
/// the command that emits it.
///
/// # Errors
///
/// [`syn::Error`] when `name` is not a Rust identifier.
///
/// # Examples
///
/// ```
/// let table = slotgen::shortest::shortest(&Default::default())?;
/// let source = slotgen::emit::shortest::shortest_file(&table, "REDIS_BENCHMARK").unwrap();
/// assert!(source.starts_with("// @generated by slotgen shortest --crc CRC-16/XMODEM"));
/// assert!(source.contains("width: 3"));
/// # Ok::<(), slotgen::Error>(())
/// ```
pub fn shortest_file(table: &Shortest, name: &str) -> Result<String, syn::Error> {
    let (ident, vis) = rust::public(name)?;
    rust::generated_file(
        &command(table, "rust", Some(name)),
        &describe(table),
        shortest_static(table, &[], &vis, &ident),
    )
}

/// A shortest-tag table read back from its JSON form ([`to_value`]): what `slotgen verify`
/// checks.
#[derive(Debug, Clone)]
pub struct ShortestJson {
    /// The slot function the file names (`crc` and `slots`, or `scheme` and `slots`).
    pub function: SlotFunction,
    /// The tags in slot order from the first (`tags`), `None` for a gap.
    pub tags: Vec<Option<Vec<u8>>>,
}

/// Reads the JSON form of a shortest-tag table (schema `slotgen-shortest/1`): its slot
/// function and tags. Nothing is checked against the slot function here; that is
/// [`verify::tag_table`](crate::verify::tag_table)'s work.
///
/// # Errors
///
/// - [`Error::ShortestJson`](crate::Error::ShortestJson): not JSON, `format` is not
///   [`FORMAT`], or `crc` (or `scheme`), `slots` or `tags` are missing or of the wrong type.
/// - [`Error::UnsupportedWidth`](crate::Error::UnsupportedWidth),
///   [`Error::UnknownCrc`](crate::Error::UnknownCrc), [`Error::SlotCount`](crate::Error::SlotCount):
///   the CRC or the slot count the file names; [`Error::UnknownScheme`](crate::Error::UnknownScheme),
///   [`Error::HashTagDelimiters`](crate::Error::HashTagDelimiters),
///   [`Error::Scheme`](crate::Error::Scheme): the scheme, as
///   [`scheme::resolve`](crate::scheme::resolve).
///
/// # Examples
///
/// ```
/// let table = slotgen::shortest::shortest(&Default::default())?;
/// let text = slotgen::emit::shortest::to_value(&table).to_string();
/// let read = slotgen::emit::shortest::from_json(&text)?;
/// assert_eq!(read.function.spec().unwrap().crc, crc::CRC_16_XMODEM);
/// assert_eq!(read.function.slots(), 16384);
/// assert_eq!(read.tags[12739].as_deref(), table.tag(12739));
/// # Ok::<(), slotgen::Error>(())
/// ```
pub fn from_json(text: &str) -> Result<ShortestJson, crate::Error> {
    #[derive(serde::Deserialize)]
    struct File {
        format: Option<String>,
        crc: Option<super::json::CrcHeader>,
        scheme: Option<SchemeHeader>,
        slots: u64,
        tags: Vec<Option<String>>,
    }
    #[derive(serde::Deserialize)]
    struct SchemeHeader {
        name: String,
        hash_tag: Option<String>,
    }
    let bad = |reason: String| crate::Error::ShortestJson { reason };
    let value: Value = serde_json::from_str(text).map_err(|e| bad(e.to_string()))?;
    let format = value.get("format").and_then(Value::as_str);
    if format != Some(FORMAT) {
        return Err(bad(format!(
            "`format` is `{}`, not `{FORMAT}`",
            format.unwrap_or("(none)")
        )));
    }
    let file: File = serde_json::from_value(value).map_err(|e| bad(e.to_string()))?;
    debug_assert_eq!(file.format.as_deref(), Some(FORMAT));
    let function = match (file.crc, file.scheme) {
        (Some(crc), None) => SlotFunction::try_from(&crate::Spec {
            crc: crc.algorithm()?,
            slots: crate::spec::SlotCount::new(file.slots)?.get(),
            ..crate::Spec::default()
        })?,
        (None, Some(scheme)) => {
            let resolved =
                crate::scheme::resolve(&scheme.name, Some(file.slots), scheme.hash_tag.as_deref())?;
            SlotFunction::scheme(
                crate::scheme::find(&scheme.name)?,
                Some(resolved.slots()),
                scheme
                    .hash_tag
                    .as_deref()
                    .map(crate::scheme::hash_tag)
                    .transpose()?,
            )?
        }
        _ => {
            return Err(bad(
                "give one of `crc` (a CRC-16 table) and `scheme` (a named scheme's)".to_owned(),
            ))
        }
    };
    Ok(ShortestJson {
        function,
        tags: file
            .tags
            .into_iter()
            .map(|t| t.map(String::into_bytes))
            .collect(),
    })
}
