//! The syntax of `slot_table!`: tables of `name: value` fields, and the value of each field.
//!
//! Parsing is in two steps so that one bad field does not hide the others: a table's brace
//! block is first split into fields (a name, a colon, the tokens up to the next top-level
//! comma), then each known field's tokens are read by its own parser. A new field is one
//! entry in [`TABLE_FIELDS`] (or [`SCHEME_TABLE_FIELDS`], [`SHORTEST_TABLE_FIELDS`],
//! [`SCHEME_SHORTEST_TABLE_FIELDS`]) and one
//! `value` call in `validate`.

use proc_macro2::{Delimiter, Span, TokenStream, TokenTree};
use quote::ToTokens;
use syn::parse::{Parse, ParseStream};
use syn::{braced, Attribute, Ident, LitBool, LitInt, LitStr, Token, Visibility};

/// The fields of a table, and whether each is required: none is, what is not given is the
/// request layer's default (`slotgen::request::Request::default()`, Redis Cluster), as on
/// the command line.
pub const TABLE_FIELDS: &[(&str, Required)] = &[
    ("crc", Required::No),
    // `alphabet`, or `charset` to let slotgen choose one (the request layer refuses both)
    ("alphabet", Required::No),
    ("charset", Required::No),
    ("tag_len", Required::No),
    ("slots", Required::No),
    // refused by the request layer: a CRC-16 table has Redis's hashtag rule
    ("hash_tag", Required::No),
];

/// The fields of a shortest-tag table: one with a `shortest` field.
pub const SHORTEST_TABLE_FIELDS: &[(&str, Required)] = &[
    ("crc", Required::No),
    ("slots", Required::No),
    (
        "shortest",
        Required::Yes("shortest: { charset: \"alnum\", max_len: 3 }"),
    ),
    ("allow_gaps", Required::No),
    // refused by the request layer: a CRC-16 table has Redis's hashtag rule
    ("hash_tag", Required::No),
    // Fields of the other kind of table, refused with a message of their own.
    ("alphabet", Required::No),
    ("tag_len", Required::No),
    ("charset", Required::No),
];

/// The fields of a scheme's shortest-tag table: one with `scheme` and `shortest` fields.
pub const SCHEME_SHORTEST_TABLE_FIELDS: &[(&str, Required)] = &[
    ("scheme", Required::Yes("scheme: \"tarantool-vshard\"")),
    ("slots", Required::No),
    ("hash_tag", Required::No),
    (
        "shortest",
        Required::Yes("shortest: { charset: \"alnum\", max_len: 3 }"),
    ),
    ("allow_gaps", Required::No),
    // refused by the request layer beside `scheme`
    ("crc", Required::No),
    // Fields of the other kinds of table, refused with a message of their own.
    ("alphabet", Required::No),
    ("tag_len", Required::No),
    ("charset", Required::No),
];

/// The fields of a scheme table: one with a `scheme` field.
pub const SCHEME_TABLE_FIELDS: &[(&str, Required)] = &[
    ("scheme", Required::Yes("scheme: \"tarantool-vshard\"")),
    ("slots", Required::No),
    ("hash_tag", Required::No),
    ("alphabet", Required::No),
    ("tag_len", Required::No),
    ("charset", Required::No),
    // refused by the request layer beside `scheme`
    ("crc", Required::No),
    // a field of the other kinds of table, refused with a message of its own
    ("allow_gaps", Required::No),
];

/// Every kind of table, by its fields: which one a table is follows from its `scheme` and
/// `shortest` fields, so an unknown field is answered with the fields of them all
/// ([`Fields::check_table`]).
pub const TABLE_KINDS: [&[(&str, Required)]; 4] = [
    TABLE_FIELDS,
    SHORTEST_TABLE_FIELDS,
    SCHEME_TABLE_FIELDS,
    SCHEME_SHORTEST_TABLE_FIELDS,
];

/// The fields a table may have, of any kind ([`TABLE_KINDS`]), each once, in the order of
/// their first appearance: `crc`, `alphabet`, ..., `scheme`.
fn table_field_names() -> Vec<&'static str> {
    let mut names: Vec<&'static str> = Vec::new();
    for (name, _) in TABLE_KINDS.iter().flat_map(|kind| kind.iter()) {
        if !names.contains(name) {
            names.push(name);
        }
    }
    names
}

/// The fields of a `shortest` block.
pub const SHORTEST_FIELDS: &[(&str, Required)] = &[
    ("charset", Required::Yes("charset: \"alnum\"")),
    ("order", Required::No),
    ("max_len", Required::No),
];

/// The fields of a custom CRC: `poly` is required; the others have the request layer's
/// defaults ([`slotgen::request::CustomCrc`]), as `--poly` alone on the command line.
pub const CRC_FIELDS: &[(&str, Required)] = &[
    ("poly", Required::Yes("poly: 0x1021")),
    ("init", Required::No),
    ("refin", Required::No),
    ("refout", Required::No),
    ("xorout", Required::No),
];

/// Whether a field must be given, and if so an example to put in the error.
#[derive(Clone, Copy, Debug)]
pub enum Required {
    /// The field must be given; the text is an example of it.
    Yes(&'static str),
    /// The field has a default.
    No,
}

/// The whole input: any number of tables.
pub struct Input {
    pub tables: Vec<Table>,
}

impl Parse for Input {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let mut tables = Vec::new();
        while !input.is_empty() {
            tables.push(input.parse()?);
        }
        Ok(Self { tables })
    }
}

/// `#[attrs] vis static NAME = { fields };` (or `const NAME`, for a CRC-16 slot table)
pub struct Table {
    pub attrs: Vec<Attribute>,
    pub vis: Visibility,
    /// `const` or `static`, as declared.
    pub item: slotgen::emit::rust::Item,
    /// The span of the `const` or `static` keyword.
    pub item_span: Span,
    pub name: Ident,
    pub fields: Fields,
}

impl Parse for Table {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let attrs = input.call(Attribute::parse_outer)?;
        let vis = input.parse()?;
        let (item, item_span) = if input.peek(Token![const]) {
            let keyword = input.parse::<Token![const]>()?;
            (slotgen::emit::rust::Item::Const, keyword.span)
        } else {
            let keyword = input.parse::<Token![static]>().map_err(|e| {
                syn::Error::new(
                    e.span(),
                    "expected `static` or `const`: a table is declared as `static NAME = { crc: .., alphabet: .. };`",
                )
            })?;
            (slotgen::emit::rust::Item::Static, keyword.span)
        };
        let name = input.parse()?;
        input.parse::<Token![=]>()?;
        let fields = input.parse()?;
        input.parse::<Token![;]>()?;
        Ok(Self {
            attrs,
            vis,
            item,
            item_span,
            name,
            fields,
        })
    }
}

/// One `name: value` field; `value` is every token up to the next top-level comma.
pub struct Field {
    pub name: Ident,
    pub value: TokenStream,
}

/// A brace block of fields, `{ name: value, ... }`.
pub struct Fields {
    /// The span of the braces, for errors about the block as a whole.
    pub span: Span,
    pub list: Vec<Field>,
}

impl Parse for Fields {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let content;
        let brace = braced!(content in input);
        let mut list = Vec::new();
        while !content.is_empty() {
            let name: Ident = content.parse()?;
            content.parse::<Token![:]>()?;
            let mut value = TokenStream::new();
            while !content.is_empty() && !content.peek(Token![,]) {
                value.extend([content.parse::<TokenTree>()?]);
            }
            if value.is_empty() {
                return Err(syn::Error::new(
                    name.span(),
                    format!("field `{name}` has no value: write `{name}: VALUE`"),
                ));
            }
            list.push(Field { name, value });
            if !content.is_empty() {
                content.parse::<Token![,]>()?;
            }
        }
        Ok(Self {
            span: brace.span.join(),
            list,
        })
    }
}

impl Fields {
    /// Checks the names against `known`: an error for each unknown or repeated field and
    /// each missing required one.
    pub fn check(&self, known: &[(&str, Required)], errors: &mut Vec<syn::Error>) {
        let names: Vec<&str> = known.iter().map(|(name, _)| *name).collect();
        self.check_listing(known, &names, "here", errors);
    }

    /// [`check`](Self::check) of a table's fields against those of its kind (`known`, one
    /// of [`TABLE_KINDS`]), an unknown field answered with the fields of every kind
    /// (`scheme` and `shortest` make another kind of table, not an unknown field).
    pub fn check_table(&self, known: &[(&str, Required)], errors: &mut Vec<syn::Error>) {
        self.check_listing(known, &table_field_names(), "of a table", errors);
    }

    /// [`check`](Self::check), an unknown field answered with `listed` (the fields
    /// `whose`: `here`, `of a table`) and the nearest of them.
    fn check_listing(
        &self,
        known: &[(&str, Required)],
        listed: &[&str],
        whose: &str,
        errors: &mut Vec<syn::Error>,
    ) {
        let names: Vec<&str> = known.iter().map(|(name, _)| *name).collect();
        for (i, field) in self.list.iter().enumerate() {
            let name = field.name.to_string();
            if !names.contains(&name.as_str()) {
                let shown: Vec<String> = listed.iter().map(|n| format!("`{n}`")).collect();
                let nearest = slotgen::text::nearest(&name, listed.iter().map(|&n| (n, n)))
                    .first()
                    .map(|n| format!("; did you mean `{n}`?"))
                    .unwrap_or_default();
                errors.push(syn::Error::new(
                    field.name.span(),
                    format!(
                        "unknown field `{name}`: the fields {whose} are {}{nearest}",
                        shown.join(", ")
                    ),
                ));
            } else if self.list[..i].iter().any(|f| f.name == name) {
                errors.push(syn::Error::new(
                    field.name.span(),
                    format!("duplicate field `{name}`: give each field once; remove this one"),
                ));
            }
        }
        for (name, required) in known {
            if let (Required::Yes(example), None) = (required, self.get(name)) {
                errors.push(syn::Error::new(
                    self.span,
                    format!("missing field `{name}`: add it, as in `{example}`"),
                ));
            }
        }
    }

    /// The first field named `name`.
    pub fn get(&self, name: &str) -> Option<&Field> {
        self.list.iter().find(|f| f.name == name)
    }
}

impl Field {
    /// The value read by `T`'s parser. When the value has the wrong form, the error is on
    /// the value and names the field and what it takes; other errors are `T`'s own.
    pub fn value<T: Value>(&self) -> syn::Result<T> {
        syn::parse2::<T>(self.value.clone()).map_err(|e| {
            if e.to_string().starts_with("expected") {
                let expected = format!("`{}` takes {}", self.name, T::EXPECTED);
                syn::Error::new_spanned(&self.value, expected)
            } else {
                e
            }
        })
    }
}

/// A field value with its own syntax.
pub trait Value: Parse {
    /// What the field takes, for errors: "a string literal such as ...".
    const EXPECTED: &'static str;
}

/// The `crc` field: a catalogue name, or the parameters of a custom CRC.
pub enum CrcValue {
    Name(LitStr),
    Custom(Fields),
}

impl Parse for CrcValue {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let braces = input.cursor().group(Delimiter::Brace).is_some();
        if braces {
            Ok(Self::Custom(input.parse()?))
        } else {
            Ok(Self::Name(input.parse()?))
        }
    }
}

impl Value for CrcValue {
    const EXPECTED: &'static str = "a CRC catalogue name or alias such as \"CRC-16/XMODEM\", or the parameters `{ poly: 0x1021, init: 0x0000, refin: false, refout: false, xorout: 0x0000 }` (only `poly` required)";
}

/// The `alphabet` field: a string (its characters, which the request layer holds to ASCII)
/// or a byte string.
pub struct AlphabetValue {
    pub literal: TokenStream,
    pub value: AlphabetLiteral,
}

/// What an `alphabet` literal holds.
pub enum AlphabetLiteral {
    /// A string: one symbol a character.
    Text(String),
    /// A byte string: one symbol a byte.
    Bytes(Vec<u8>),
}

impl Parse for AlphabetValue {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let literal: syn::Lit = input.parse()?;
        let value = match &literal {
            syn::Lit::Str(s) => AlphabetLiteral::Text(s.value()),
            syn::Lit::ByteStr(b) => AlphabetLiteral::Bytes(b.value()),
            other => return Err(syn::Error::new(other.span(), "expected")),
        };
        Ok(Self {
            literal: literal.into_token_stream(),
            value,
        })
    }
}

impl Value for AlphabetValue {
    const EXPECTED: &'static str =
        "a string or byte string of the tag symbols, such as \"@ABCDEFGHIJKLMNO\"";
}

/// An integer literal field: `tag_len`, `slots`, and the custom CRC's 16-bit parameters.
pub struct Int(pub LitInt);

impl Parse for Int {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        input.parse().map(Self)
    }
}

impl Value for Int {
    const EXPECTED: &'static str = "an integer literal";
}

impl Value for LitBool {
    const EXPECTED: &'static str = "`true` or `false`";
}

impl Value for LitStr {
    const EXPECTED: &'static str = "a string literal";
}

impl Value for Fields {
    const EXPECTED: &'static str =
        "a block of fields such as `{ charset: \"alnum\", order: \"0-9a-zA-Z\", max_len: 3 }`";
}
