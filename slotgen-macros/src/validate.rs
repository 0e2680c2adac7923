//! Validate: each parsed table becomes what slotgen needs to build it (a [`Spec`], a
//! [`SchemeSpec`], or a shortest-tag search), with every mistake in the fields found at
//! once, each a `syn::Error` on its token; and [`Located::error`] (and
//! [`SchemeLocated::error`]) puts a library error of the build on the token it is about,
//! with the macro's own spelling of the way out.

use proc_macro2::TokenStream;
use quote::ToTokens;
use slotgen::scheme::invert::SchemeSpec;
use slotgen::{catalog, Error, Spec};
use syn::{LitBool, LitStr};

use crate::parse::{
    AlphabetValue, CrcValue, Field, Fields, Int, Table, CRC_FIELDS, SCHEME_TABLE_FIELDS,
    SHORTEST_FIELDS, SHORTEST_TABLE_FIELDS, TABLE_FIELDS,
};

/// The tokens of each field of a spec, for errors.
pub struct Located {
    crc: TokenStream,
    alphabet: TokenStream,
    tag_len: Option<TokenStream>,
    slots: Option<TokenStream>,
}

/// The spec a table declares, with where each field was written.
pub fn spec(table: &Table) -> Result<(Spec, Located), Vec<syn::Error>> {
    let fields = &table.fields;
    let mut errors = Errors::default();
    fields.check(TABLE_FIELDS, &mut errors.0);
    let crc = fields.get("crc").and_then(|f| errors.take(crc_of(f)));
    let alphabet = match (fields.get("alphabet"), fields.get("charset")) {
        (Some(f), None) => errors.take(f.value::<AlphabetValue>()),
        (None, Some(_)) => None, // chosen below, once the CRC and slot count are known
        (Some(_), Some(c)) => {
            errors.0.push(syn::Error::new(
                c.name.span(),
                "give `alphabet` or `charset`, not both: `charset` lets slotgen choose the alphabet",
            ));
            None
        }
        // A misspelled field has its own error already ("did you mean `alphabet`?").
        (None, None) if !errors.0.is_empty() => None,
        (None, None) => {
            errors.0.push(syn::Error::new(
                fields.span,
                "missing field `alphabet`: add it, as in `alphabet: \"@ABCDEFGHIJKLMNO\"`, or give `charset: \"alnum\"` to let slotgen choose one",
            ));
            None
        }
    };
    let tag_len = tag_len_of(fields, &mut errors);
    let slots = match fields.get("slots") {
        Some(f) => errors.take(slot_count(f)).map(Some),
        None => Some(None),
    };
    check_alphabet(alphabet.as_ref(), true, &mut errors);
    let alphabet = match (alphabet, fields.get("charset"), &crc, &tag_len, &slots) {
        (Some(a), ..) => Some(a),
        (None, Some(f), Some(crc), Some(tag_len), Some(slots)) if errors.0.is_empty() => errors
            .take(chosen_alphabet(
                f,
                crc,
                slots.unwrap_or(Spec::default().slots),
                *tag_len,
                fields,
            )),
        _ => None,
    };
    match (crc, alphabet, tag_len, slots) {
        (Some(crc), Some(alphabet), Some(tag_len), Some(slots)) if errors.0.is_empty() => {
            let spec = Spec {
                crc,
                alphabet: alphabet.bytes,
                tag_len,
                slots: slots.unwrap_or(Spec::default().slots),
            };
            let located = Located {
                crc: fields
                    .get("crc")
                    .map(|f| f.value.clone())
                    .unwrap_or_default(),
                alphabet: alphabet.literal,
                tag_len: fields.get("tag_len").map(|f| f.value.clone()),
                slots: fields.get("slots").map(|f| f.value.clone()),
            };
            Ok((spec, located))
        }
        _ => Err(errors.0),
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

/// Checks the alphabet now, not only in the derivation, so that its error is reported
/// together with the errors of the other fields; the way out names the `charset` field
/// only where the table takes one.
fn check_alphabet(alphabet: Option<&AlphabetValue>, takes_charset: bool, errors: &mut Errors) {
    if let Some(a) = alphabet {
        if let Err(error) = slotgen::Alphabet::new(&a.bytes) {
            let message = if takes_charset {
                spelled(&error)
            } else {
                error.to_string()
            };
            errors.0.push(syn::Error::new_spanned(&a.literal, message));
        }
    }
}

/// Whether `error` is about the alphabet's own bytes.
fn is_alphabet_error(error: &Error) -> bool {
    matches!(
        error,
        Error::BraceInAlphabet { .. }
            | Error::DuplicateSymbol { .. }
            | Error::AlphabetSize { .. }
            | Error::NotAffine { .. }
    )
}

/// The alphabet `charset` chooses for scheme `name` (as `slotgen --scheme --charset` does,
/// through [`slotgen::charset::choose_for_scheme`]), or the error on the `charset` token.
fn scheme_charset_alphabet(
    field: &Field,
    name: slotgen_tables::SchemeName,
    slots: Option<u32>,
    hash_tag: Option<[u8; 2]>,
    tag_len: Option<usize>,
) -> Result<AlphabetValue, Vec<syn::Error>> {
    let spec = field.value::<LitStr>().map_err(|e| vec![e])?;
    let at = |error: Error| vec![syn::Error::new(spec.span(), error)];
    let charset = slotgen::charset::Charset::parse(&spec.value()).map_err(at)?;
    let scheme = name
        .scheme(slots, hash_tag)
        .map_err(|e| at(Error::Scheme(e)))?;
    let choice =
        slotgen::charset::choose_for_scheme(&charset, name, &scheme, tag_len).map_err(at)?;
    Ok(AlphabetValue {
        literal: spec.into_token_stream(),
        bytes: choice.alphabet.symbols().to_vec(),
    })
}

/// The tokens of each field of a scheme table, for errors.
pub struct SchemeLocated {
    scheme: TokenStream,
    alphabet: Option<TokenStream>,
    tag_len: Option<TokenStream>,
    slots: Option<TokenStream>,
    hash_tag: Option<TokenStream>,
}

/// The scheme spec a table with a `scheme` field declares, with where each field was
/// written: the scheme by name (as `slotgen --scheme` reads it: any case, `_` for `-`), its
/// slot count and hashtag delimiters checked by the runtime's own rule
/// ([`SchemeName::scheme`](slotgen_tables::SchemeName::scheme)).
pub fn scheme(table: &Table) -> Result<(SchemeSpec, SchemeLocated), Vec<syn::Error>> {
    let fields = &table.fields;
    let mut errors = Errors::default();
    fields.check(SCHEME_TABLE_FIELDS, &mut errors.0);
    static_only(table, "a scheme table", &mut errors);
    for (name, why) in [
        ("crc", ", whose CRC is fixed: remove `crc` (or `scheme`, for a CRC-16 table of your own)"),
        ("shortest", ": shortest-tag tables are for CRC-16 so far; remove `shortest` for a table of fixed-length tags"),
        ("allow_gaps", ", which reaches every slot: `allow_gaps` is for shortest-tag tables; remove it"),
    ] {
        if let Some(f) = fields.get(name) {
            errors.0.push(syn::Error::new(
                f.name.span(),
                format!("`{name}` does not apply with `scheme`{why}"),
            ));
        }
    }
    let name = fields.get("scheme").and_then(|f| {
        let parsed = f.value::<LitStr>().and_then(|lit| {
            slotgen::scheme::find(&lit.value()).map_err(|e| syn::Error::new(lit.span(), e))
        });
        errors.take(parsed)
    });
    let slots = match fields.get("slots") {
        Some(f) => errors
            .take(integer::<u32>(
                f,
                "the scheme's slot count (vBuckets, buckets, partitions or servers), from 1 to 4294967295",
            ))
            .map(Some),
        None => Some(None),
    };
    let hash_tag = match fields.get("hash_tag") {
        Some(f) => {
            let parsed = f.value::<LitStr>().and_then(|lit| {
                slotgen::scheme::hash_tag(&lit.value()).map_err(|e| syn::Error::new(lit.span(), e))
            });
            errors.take(parsed).map(Some)
        }
        None => Some(None),
    };
    let alphabet = match (fields.get("alphabet"), fields.get("charset")) {
        (Some(f), None) => errors.take(f.value::<AlphabetValue>()).map(Some),
        (Some(_), Some(c)) => {
            errors.0.push(syn::Error::new(
                c.name.span(),
                "give `alphabet` or `charset`, not both: `charset` lets slotgen choose the alphabet",
            ));
            None
        }
        // `charset`: chosen below, once the scheme is known
        (None, _) => Some(None),
    };
    check_alphabet(
        alphabet.as_ref().and_then(Option::as_ref),
        true,
        &mut errors,
    );
    let tag_len = tag_len_of(fields, &mut errors);
    let (Some(name), Some(slots), Some(hash_tag), Some(alphabet), Some(tag_len)) =
        (name, slots, hash_tag, alphabet, tag_len)
    else {
        return Err(errors.0);
    };
    if !errors.0.is_empty() {
        return Err(errors.0);
    }
    // As `slotgen --scheme ... --charset`: the alphabet with the shortest tags inside the
    // charset; the tag length stays the one given, or the shortest that reaches every slot.
    let alphabet = match (alphabet, fields.get("charset")) {
        (None, Some(f)) => Some(scheme_charset_alphabet(f, name, slots, hash_tag, tag_len)?),
        (alphabet, _) => alphabet,
    };
    let at = |name: &str| fields.get(name).map(|f| f.value.clone());
    let located = SchemeLocated {
        scheme: at("scheme").unwrap_or_default(),
        alphabet: alphabet.as_ref().map(|a| a.literal.clone()),
        tag_len: at("tag_len"),
        slots: at("slots"),
        hash_tag: at("hash_tag"),
    };
    let default = SchemeSpec::new(name);
    let spec = SchemeSpec {
        slots,
        hash_tag,
        alphabet: alphabet.map_or(default.alphabet.clone(), |a| a.bytes),
        tag_len,
        ..default
    };
    Ok((spec, located))
}

impl SchemeLocated {
    /// `error` (of the scheme's rules or of its derivation) as a compile error on the token
    /// it is about, with the macro's spelling of the way out.
    pub fn error(&self, error: &Error, table: &Table) -> syn::Error {
        use slotgen_tables::Error as Runtime;

        let name = table.name.to_token_stream();
        let or_scheme =
            |tokens: &Option<TokenStream>| tokens.clone().unwrap_or_else(|| self.scheme.clone());
        let (tokens, message) = match error {
            Error::Scheme(Runtime::SlotsRequired { .. }) => {
                (self.scheme.clone(), format!("{error} (`slots: N`)"))
            }
            Error::Scheme(Runtime::HashTagNotTaken { .. }) => (
                or_scheme(&self.hash_tag),
                format!("{error} (remove `hash_tag`: only the twemproxy schemes take one)"),
            ),
            Error::Scheme(_) | Error::SlotsAboveValues { .. } => {
                (or_scheme(&self.slots), error.to_string())
            }
            e if is_alphabet_error(e) => (or_scheme(&self.alphabet), error.to_string()),
            // A delimiter of the default alphabet is one of `hash_tag`'s bytes.
            Error::DelimiterInAlphabet { .. } => (
                self.alphabet
                    .clone()
                    .or(self.hash_tag.clone())
                    .unwrap_or(name),
                error.to_string(),
            ),
            Error::TagLen { .. } => (or_scheme(&self.tag_len), error.to_string()),
            // Without a `tag_len` field, no length works: the alphabet is the problem.
            Error::SchemeRankDeficient { shortest, .. } => (
                self.tag_len
                    .clone()
                    .or(self.alphabet.clone())
                    .unwrap_or(self.scheme.clone()),
                match shortest {
                    Some(n) => format!("{error} (`tag_len: {n}`)"),
                    None => error.to_string(),
                },
            ),
            _ => (self.scheme.clone(), error.to_string()),
        };
        syn::Error::new_spanned(tokens, message)
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

impl Located {
    /// `error` as a compile error on the token it is about.
    pub fn error(&self, error: &Error, table: &Table) -> syn::Error {
        let name = table.name.to_token_stream();
        let (tokens, message) = match error {
            Error::UnknownCrc { .. }
            | Error::UnsupportedWidth { .. }
            | Error::CheckMismatch { .. } => (&self.crc, error.to_string()),
            e if is_alphabet_error(e) => (&self.alphabet, spelled(error)),
            Error::SlotCount { .. } => (self.slots.as_ref().unwrap_or(&name), error.to_string()),
            Error::TagLen { .. } => (self.tag_len.as_ref().unwrap_or(&name), error.to_string()),
            // Without a `tag_len` field, no length works: the alphabet is the problem.
            Error::RankDeficient { .. } => (
                self.tag_len.as_ref().unwrap_or(&self.alphabet),
                spelled(error),
            ),
            _ => (&name, error.to_string()),
        };
        syn::Error::new_spanned(tokens, message)
    }
}

/// A library error's message with the macro's spelling of the way out: the field that
/// applies it.
fn spelled(error: &Error) -> String {
    match error {
        Error::RankDeficient {
            shortest: Some(n), ..
        } => format!("{error} (`tag_len: {n}`)"),
        Error::NotAffine { .. } => format!("{error} (`charset:`)"),
        _ => error.to_string(),
    }
}

/// The `crc` field: a catalogue CRC, or a custom one from its parameters.
fn crc_of(field: &Field) -> syn::Result<crc::Algorithm<u16>> {
    let fields = match field.value::<CrcValue>()? {
        CrcValue::Name(name) => {
            return catalog::find(&name.value())
                .map(|entry| *entry.algorithm)
                .map_err(|error| syn::Error::new(name.span(), error))
        }
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
    match (poly, init, refin, refout, xorout) {
        (Some(poly), Some(init), Some(refin), Some(refout), Some(xorout))
            if errors.0.is_empty() =>
        {
            Ok(catalog::custom(poly, init, refin, refout, xorout))
        }
        _ => Err(combine(errors.0)),
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

/// The `slots` field; a count above `u32` is reported as [`Error::SlotCount`].
fn slot_count(field: &Field) -> syn::Result<u32> {
    let int = field.value::<Int>()?.0;
    let slots: u64 = integer(field, "a slot count: a power of two from 2 to 65536")?;
    u32::try_from(slots).map_err(|_| syn::Error::new(int.span(), Error::SlotCount { slots }))
}

fn combine(errors: Vec<syn::Error>) -> syn::Error {
    let mut errors = errors.into_iter();
    let mut first = errors.next().expect("a failed field has an error");
    first.extend(errors);
    first
}

/// What a table with a `shortest` field declares: the search, whether gaps are allowed, and
/// the tokens of the `shortest` field for errors.
pub struct ShortestDecl {
    pub spec: slotgen::shortest::ShortestSpec,
    pub allow_gaps: bool,
    pub at: TokenStream,
}

/// The shortest-tag search a table with a `shortest` field declares.
pub fn shortest(table: &Table) -> Result<ShortestDecl, Vec<syn::Error>> {
    use slotgen::shortest::{Charset, ShortestSpec};

    let fields = &table.fields;
    let mut errors = Errors::default();
    fields.check(SHORTEST_TABLE_FIELDS, &mut errors.0);
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
    let crc = fields.get("crc").and_then(|f| errors.take(crc_of(f)));
    let slots = match fields.get("slots") {
        Some(f) => errors.take(slot_count(f)),
        None => Some(Spec::default().slots),
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
    let (Some(crc), Some(slots), Some(allow_gaps), Some(charset), Some(max_len)) =
        (crc, slots, allow_gaps, charset, max_len)
    else {
        return Err(errors.0);
    };
    if !errors.0.is_empty() {
        return Err(errors.0);
    }
    let spec = ShortestSpec {
        crc,
        slots,
        charset,
        max_len,
    };
    let at = |name: &str| {
        fields
            .get(name)
            .map(|f| f.value.clone())
            .unwrap_or_default()
    };
    Ok(ShortestDecl {
        spec,
        allow_gaps,
        at: at("shortest"),
    })
}

/// The alphabet [`slotgen::charset::choose`] picks inside the `charset` field's charset, as
/// if it had been written as the `alphabet` field.
fn chosen_alphabet(
    field: &Field,
    crc: &crc::Algorithm<u16>,
    slots: u32,
    tag_len: Option<usize>,
    fields: &Fields,
) -> syn::Result<AlphabetValue> {
    let spec = field.value::<syn::LitStr>()?;
    let at = |error: Error| {
        let about = match &error {
            Error::SlotCount { .. } => fields.get("slots"),
            Error::NoAlphabetInCharset {
                tag_len: Some(_), ..
            } => fields.get("tag_len"),
            _ => None,
        };
        match about {
            Some(f) => syn::Error::new_spanned(&f.value, error),
            None => syn::Error::new(spec.span(), error),
        }
    };
    let charset = slotgen::charset::Charset::parse(&spec.value()).map_err(at)?;
    let choice = slotgen::charset::choose(&charset, crc, slots, tag_len).map_err(at)?;
    Ok(AlphabetValue {
        literal: spec.into_token_stream(),
        bytes: choice.alphabet.symbols().to_vec(),
    })
}
