//! Validate: each parsed table becomes a [`Request`] of slotgen's request layer (the one
//! that `slotgen`'s options and the build.rs API resolve through), or a shortest-tag
//! search, with every mistake in the fields found at once, each a `syn::Error` on its
//! token; and [`Located::error`] puts a refusal of the request on the token of the field
//! it names, with the macro's own spelling of the way out.

use std::collections::HashMap;

use proc_macro2::TokenStream;
use quote::ToTokens;
use slotgen::request::{alphabet_of_text, CustomCrc, Field as Option_, Refusal, Request, WayOut};
use slotgen::Error;
use syn::{LitBool, LitStr};

use crate::parse::{
    AlphabetLiteral, AlphabetValue, CrcValue, Field, Fields, Int, Table, CRC_FIELDS,
    SCHEME_SHORTEST_TABLE_FIELDS, SCHEME_TABLE_FIELDS, SHORTEST_FIELDS, SHORTEST_TABLE_FIELDS,
    TABLE_FIELDS,
};

/// The tokens of each field of a request, for errors, and the token an error of a field
/// that was not written goes on (the `scheme` of a scheme table, else the table's name).
pub struct Located {
    fields: HashMap<Option_, TokenStream>,
    anchor: TokenStream,
}

/// The request a CRC-16 table (no `scheme` or `shortest` field) or a scheme table (a
/// `scheme` field) declares, with where each field was written. The fields of the two
/// kinds are the command line's options of the same names, passed on as given: what is not
/// given is the request layer's default, and the rules between fields (`alphabet` or
/// `charset`, a CRC or a `scheme`, `hash_tag` with a scheme) are the request layer's. A
/// scheme table is a `SchemeTable` by its declaration, `redis-cluster` too.
pub fn request(table: &Table) -> Result<(Request, Located), Vec<syn::Error>> {
    let fields = &table.fields;
    let is_scheme = fields.get("scheme").is_some();
    let mut errors = Errors::default();
    if is_scheme {
        fields.check_table(SCHEME_TABLE_FIELDS, &mut errors.0);
        static_only(table, "a scheme table", &mut errors);
        if let Some(f) = fields.get("allow_gaps") {
            errors.0.push(syn::Error::new(
                f.name.span(),
                "`allow_gaps` does not apply with `scheme`, which reaches every slot: `allow_gaps` is for shortest-tag tables; remove it",
            ));
        }
    } else {
        fields.check_table(TABLE_FIELDS, &mut errors.0);
    }
    let mut request = Request {
        scheme_table: is_scheme,
        ..Request::default()
    };
    if let Some(f) = fields.get("crc") {
        if let Some((crc, custom)) = errors.take(crc_of(f)) {
            (request.crc, request.custom) = (crc, custom);
            // checked now, by the request layer, so that its error is reported together
            // with the errors of the other fields
            let checked = request
                .crc_algorithm()
                .map_err(|refusal| syn::Error::new_spanned(&f.value, spelled(&refusal.error)));
            errors.take(checked);
        }
    }
    if let Some(f) = fields.get("scheme") {
        request.scheme = errors.take(f.value::<LitStr>()).map(|lit| lit.value());
    }
    if let Some(f) = fields.get("hash_tag") {
        request.hash_tag = errors.take(f.value::<LitStr>()).map(|lit| lit.value());
    }
    request.tag_len = tag_len_of(fields, &mut errors).flatten();
    if let Some(f) = fields.get("slots") {
        request.slots = errors.take(slot_count(f, is_scheme));
    }
    if let Some(f) = fields.get("alphabet") {
        let alphabet = f.value::<AlphabetValue>().and_then(|a| alphabet_of(&a));
        request.alphabet = errors.take(alphabet);
    }
    if let Some(f) = fields.get("charset") {
        let parsed = f.value::<LitStr>().and_then(|lit| {
            slotgen::charset::Charset::parse(&lit.value())
                .map_err(|e| syn::Error::new(lit.span(), e))
        });
        request.charset = errors.take(parsed);
    }
    if !errors.0.is_empty() {
        return Err(errors.0);
    }
    let mut located = HashMap::new();
    for (field, name) in [
        (Option_::Crc, "crc"),
        (Option_::Custom, "crc"),
        (Option_::Scheme, "scheme"),
        (Option_::Slots, "slots"),
        (Option_::HashTag, "hash_tag"),
        (Option_::Alphabet, "alphabet"),
        (Option_::Charset, "charset"),
        (Option_::TagLen, "tag_len"),
    ] {
        if let Some(f) = fields.get(name) {
            located.insert(field, f.value.clone());
        }
    }
    let anchor = match fields.get("scheme") {
        Some(f) => f.value.clone(),
        None => table.name.to_token_stream(),
    };
    Ok((
        request,
        Located {
            fields: located,
            anchor,
        },
    ))
}

impl Located {
    /// A refusal of the request as a compile error on the token of the field it names
    /// (a hashtag's delimiter in the default alphabet on `hash_tag`; a field not written
    /// on the anchor), with the macro's spelling of the way out.
    pub fn error(&self, refusal: &Refusal) -> syn::Error {
        let Refusal { field, error } = refusal;
        let tokens = match (self.fields.get(field), error) {
            (Some(tokens), _) => tokens,
            (None, Error::DelimiterInAlphabet { .. }) => {
                self.fields.get(&Option_::HashTag).unwrap_or(&self.anchor)
            }
            (None, _) => &self.anchor,
        };
        syn::Error::new_spanned(tokens, spelled(error))
    }
}

/// A library error's message with the macro's spelling of the way out
/// ([`WayOut`]): the field that applies it.
fn spelled(error: &Error) -> String {
    match WayOut::of(error) {
        Some(WayOut::Give { field, value }) => {
            format!(
                "{error} (`{}:{}`)",
                name(field),
                value.map_or(String::new(), |v| format!(" {v}"))
            )
        }
        Some(WayOut::Remove { field, reason }) => {
            format!("{error} (remove `{}`: {reason})", name(field))
        }
        Some(WayOut::Either { field, other }) => {
            format!("{error} (remove `{}` or `{}`)", name(field), name(other))
        }
        // the library's message shows the subset; the macro names the other way out
        Some(WayOut::GiveBytes { other, .. }) => format!("{error} (`{}:`)", name(other)),
        Some(WayOut::AsBytes { field }) => {
            format!(
                "{error} (write `{}` as a byte string, `b\"...\"`, for bytes above 0x7f)",
                name(field)
            )
        }
        None => error.to_string(),
    }
}

/// The macro's field of a field of the request: a custom CRC is the `crc` field too.
fn name(field: Option_) -> &'static str {
    match field {
        Option_::Custom => "crc",
        _ => field.name(),
    }
}

/// The `tag_len` field: `Some(None)` when it is not given, `None` when it is wrong (its
/// error kept).
fn tag_len_of(fields: &Fields, errors: &mut Errors) -> Option<Option<usize>> {
    match fields.get("tag_len") {
        Some(f) => errors
            .take(integer::<usize>(
                f,
                "a tag length: the symbols per tag, from 1 to 32",
            ))
            .map(Some),
        None => Some(None),
    }
}

/// The bytes of the `alphabet` field, checked now (by the request layer's rule for a text
/// alphabet, and [`slotgen::Alphabet::new`]), not only in the derivation, so that its error
/// is reported together with the errors of the other fields.
fn alphabet_of(alphabet: &AlphabetValue) -> syn::Result<Vec<u8>> {
    let error = |error: &Error| syn::Error::new_spanned(&alphabet.literal, spelled(error));
    let bytes = match &alphabet.value {
        AlphabetLiteral::Text(text) => alphabet_of_text(text).map_err(|r| error(&r.error))?,
        AlphabetLiteral::Bytes(bytes) => bytes.clone(),
    };
    slotgen::Alphabet::new(&bytes).map_err(|e| error(&e))?;
    Ok(bytes)
}

/// The `crc` field: a catalogue CRC by name, or a custom one from its parameters, as the
/// request takes them (checked by the request layer).
fn crc_of(field: &Field) -> syn::Result<(Option<String>, Option<CustomCrc>)> {
    let fields = match field.value::<CrcValue>()? {
        CrcValue::Name(name) => return Ok((Some(name.value()), None)),
        CrcValue::Custom(fields) => fields,
    };
    let mut errors = Errors::default();
    fields.check(CRC_FIELDS, &mut errors.0);
    let mut u16_of = |name: &str| fields.get(name).and_then(|f| errors.take(parameter(f)));
    let (poly, init, xorout) = (u16_of("poly"), u16_of("init"), u16_of("xorout"));
    let mut bool_of = |name: &str| {
        let value = fields.get(name).map(|f| f.value::<LitBool>());
        value.and_then(|v| errors.take(v)).map(|b| b.value)
    };
    let (refin, refout) = (bool_of("refin"), bool_of("refout"));
    match poly {
        // what is not given is the request layer's default
        Some(poly) if errors.0.is_empty() => {
            let custom = CustomCrc {
                poly,
                init,
                refin,
                refout,
                xorout,
            };
            Ok((None, Some(custom)))
        }
        _ => Err(combine(errors.0)),
    }
}

/// The errors found so far.
#[derive(Default)]
struct Errors(Vec<syn::Error>);

/// The rule that only a CRC-16 slot table may be a `const` (the one whose `key_slot` gains
/// from constants its callers see): an error on the `const` of any other.
fn static_only(table: &Table, what: &str, errors: &mut Errors) {
    if table.item == slotgen::emit::rust::Item::Const {
        errors.0.push(syn::Error::new(
            table.item_span,
            format!("{what} is declared `static`, not `const`: only a CRC-16 slot table (no `scheme` or `shortest` field) can be a `const`; write `static`"),
        ));
    }
}

impl Errors {
    /// The value, or `None` with its error kept.
    fn take<T>(&mut self, result: syn::Result<T>) -> Option<T> {
        result.map_err(|e| self.0.push(e)).ok()
    }
}

/// A 16-bit CRC parameter (`poly`, `init`, `xorout`).
fn parameter(field: &Field) -> syn::Result<u16> {
    let int = field.value::<Int>()?.0;
    int.base10_parse::<u16>().map_err(|_| {
        syn::Error::new(
            int.span(),
            format!(
                "`{}` is a 16-bit CRC parameter: `{int}` does not fit in 16 bits (0x0000 to 0xffff)",
                field.name
            ),
        )
    })
}

/// A field's integer; one that does not fit `T` is refused naming the field and `rule`
/// (not with the parser's "number too large to fit in target type").
fn integer<T>(field: &Field, rule: &str) -> syn::Result<T>
where
    T: std::str::FromStr,
    T::Err: std::fmt::Display,
{
    let int = field.value::<Int>()?.0;
    int.base10_parse::<T>().map_err(|_| {
        syn::Error::new(
            int.span(),
            format!("`{}` is {rule}: `{int}` is out of range", field.name),
        )
    })
}

/// The `slots` field: a scheme's count in `u32`, a CRC-16 table's in `u64` (the request
/// layer holds it to its rule).
fn slot_count(field: &Field, is_scheme: bool) -> syn::Result<u64> {
    if is_scheme {
        integer::<u32>(
            field,
            "the scheme's slot count (vBuckets, buckets, partitions or servers), from 1 to 4294967295",
        )
        .map(u64::from)
    } else {
        integer(field, "a slot count: a power of two from 2 to 65536")
    }
}

fn combine(errors: Vec<syn::Error>) -> syn::Error {
    let mut errors = errors.into_iter();
    let mut first = errors.next().expect("a failed field has an error");
    first.extend(errors);
    first
}

/// What a table with a `shortest` field declares: the search's table, whether gaps are
/// allowed, and the tokens of the `shortest` field for errors.
pub struct ShortestDecl {
    pub table: slotgen::shortest::Shortest,
    pub allow_gaps: bool,
    pub at: TokenStream,
}

/// The shortest-tag search a table with a `shortest` field declares, run: over a CRC-16
/// spec's slots (a `ShortestTable`), or with a `scheme` field over the named scheme's (a
/// `SchemeShortestTable`, `redis-cluster` too), as `slotgen shortest [--scheme]` runs it.
pub fn shortest(table: &Table) -> Result<ShortestDecl, Vec<syn::Error>> {
    use slotgen::shortest::{Charset, ShortestSpec};

    let fields = &table.fields;
    let is_scheme = fields.get("scheme").is_some();
    let mut errors = Errors::default();
    if is_scheme {
        fields.check_table(SCHEME_SHORTEST_TABLE_FIELDS, &mut errors.0);
    } else {
        fields.check_table(SHORTEST_TABLE_FIELDS, &mut errors.0);
    }
    static_only(table, "a shortest-tag table", &mut errors);
    if let Some(f) = fields.get("charset") {
        errors.0.push(syn::Error::new(
            f.name.span(),
            "in a shortest-tag table the charset goes inside the `shortest` block: write `shortest: { charset: \"...\", max_len: 3 }` and remove this field",
        ));
    }
    for name in ["alphabet", "tag_len"] {
        if let Some(f) = fields.get(name) {
            errors.0.push(syn::Error::new(
                f.name.span(),
                format!("`{name}` is for fixed-length tag tables, and this table has `shortest`: a shortest-tag table takes its symbols from `shortest: {{ charset, order, max_len }}`; remove `{name}` or `shortest`"),
            ));
        }
    }
    // The CRC or scheme and the slot count as the request layer resolves them for every
    // table.
    let mut request = Request {
        scheme_table: is_scheme,
        ..Request::default()
    };
    if let Some((crc, custom)) = fields.get("crc").and_then(|f| errors.take(crc_of(f))) {
        (request.crc, request.custom) = (crc, custom);
    }
    if let Some(f) = fields.get("scheme") {
        request.scheme = errors.take(f.value::<LitStr>()).map(|lit| lit.value());
    }
    if let Some(f) = fields.get("hash_tag") {
        request.hash_tag = errors.take(f.value::<LitStr>()).map(|lit| lit.value());
    }
    if let Some(f) = fields.get("slots") {
        request.slots = errors.take(slot_count(f, is_scheme));
    }
    let located = |refusal: Refusal| {
        let name = match refusal.field {
            Option_::Slots => "slots",
            Option_::Scheme => "scheme",
            Option_::HashTag => "hash_tag",
            _ => "crc",
        };
        let at = fields
            .get(name)
            .map(|f| f.value.clone())
            .unwrap_or_default();
        syn::Error::new_spanned(at, spelled(&refusal.error))
    };
    // What is searched, checked field by field so that each refusal is reported: the named
    // scheme, or the CRC-16 spec's CRC and slot count (`None` when a field was refused).
    let searched = if is_scheme {
        errors
            .take(request.named_scheme().map_err(located))
            .map(drop)
    } else {
        let crc = errors.take(request.crc_algorithm().map_err(located));
        let slots = errors.take(request.slot_count().map_err(located));
        crc.zip(slots).map(drop)
    };
    let allow_gaps = match fields.get("allow_gaps") {
        Some(f) => errors.take(f.value::<LitBool>()).map(|b| b.value),
        None => Some(false),
    };
    let block = fields
        .get("shortest")
        .and_then(|f| errors.take(f.value::<Fields>()));
    let mut charset = None;
    let mut max_len = Some(ShortestSpec::default().max_len);
    if let Some(block) = &block {
        block.check(SHORTEST_FIELDS, &mut errors.0);
        if let Some(f) = block.get("charset") {
            let parsed = f.value::<syn::LitStr>().and_then(|lit| {
                let mut set = Charset::parse(&lit.value());
                if let Some(order) = block.get("order") {
                    let order = order.value::<syn::LitStr>()?;
                    set = set.and_then(|c| c.with_order(&order.value()));
                    return set.map_err(|e| syn::Error::new(order.span(), e));
                }
                set.map_err(|e| syn::Error::new(lit.span(), e))
            });
            charset = errors.take(parsed);
        }
        if let Some(f) = block.get("max_len") {
            max_len = errors.take(integer::<usize>(
                f,
                "the longest tag searched, from 1 to 32 symbols",
            ));
        }
    }
    let (Some(()), Some(allow_gaps), Some(charset), Some(max_len)) =
        (searched, allow_gaps, charset, max_len)
    else {
        return Err(errors.0);
    };
    if !errors.0.is_empty() {
        return Err(errors.0);
    }
    let at = fields
        .get("shortest")
        .map(|f| f.value.clone())
        .unwrap_or_default();
    // the slot function of what the request resolves to (a `scheme` field, `redis-cluster`
    // too, searches the scheme: a `SchemeShortestTable`)
    let table = request
        .resolve()
        .map_err(|refusal| refusal.error)
        .and_then(|resolved| resolved.spec.slot_function())
        .and_then(|function| {
            slotgen::shortest::shortest(&ShortestSpec {
                function,
                charset,
                max_len,
            })
        })
        .map_err(|error| vec![syn::Error::new_spanned(&at, error)])?;
    Ok(ShortestDecl {
        table,
        allow_gaps,
        at,
    })
}
