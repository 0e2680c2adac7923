//! The JSON forms of derivations, in one place for the writer and the reader: the schema
//! ids, the field names (the writer [`to_value`]), the reading of a
//! file's text within a bound ([`MAX_JSON_BYTES`], `format` checked), and of the spec it names
//! ([`spec_of`]). `slotgen emit json` and `slotgen derive --json` write
//! through [`crate::emit::json`]; `slotgen verify` reads back through
//! [`crate::verify::json_derivation`], which derives the named spec again and compares every
//! field but [`FILE_FIELDS`].
//!
//! # Schema `slotgen-derivation/2`
//!
//! One JSON object. Every integer is a JSON integer, masks (tags as bit masks) included
//! (`inverse[0]` is `35028`, that is 0x88d4); the only hex is `alphabet_hex`, a byte string.
//! A mask has `mask_bits` bits, at most 64: a reader that holds JSON numbers as doubles
//! (JavaScript's `JSON.parse`, jq before 1.7) is exact only below 2^53, so for a spec with
//! `mask_bits` above 53 read the file with an integer-preserving parser (Python's `json`,
//! serde_json). Schema `slotgen-derivation/1` wrote masks as `"0x88d4"` strings; it is no
//! longer written or read. Objects are
//! written with their keys in ascending order; a reader must not rely on the order. Values
//! below are those of the default spec (Redis Cluster).
//!
//! | key | type | meaning |
//! |-----|------|---------|
//! | `format` | string | `"slotgen-derivation/2"`: this schema. A reader refuses other values. |
//! | `generator` | string | `"slotgen 0.1.0"`: the version that wrote the file. |
//! | `crc` | object | The CRC in the RevEng model (the CRC catalogue's fields): `name` (catalogue name such as `"CRC-16/XMODEM"`, or `"custom"`), `width` (16), `poly`, `init`, `xorout`, `check` (the CRC of `"123456789"`, 12739 = 0x31c3), `residue`, all numbers below 65536; `refin`, `refout` booleans. |
//! | `slots` | number | The hash slot count, a power of two in 2..=65536 (16384). A slot is in `0..slots`. |
//! | `slot_bits` | number | `log2(slots)` (14). |
//! | `alphabet` | string or null | The symbols in index order (ascending bytes) as text, when all are printable ASCII (`"@ABCDEFGHIJKLMNO"`); `null` otherwise. |
//! | `alphabet_hex` | string | The same symbols as hex byte pairs, always present (`"404142...4f"`): the authoritative form. |
//! | `symbol_bits` | number | `d = log2` of the alphabet's size (4): the bits of a symbol's index. |
//! | `tag_len` | number | Symbols per tag (4). |
//! | `mask_bits` | number | `tag_len * symbol_bits` (16): the bits of a tag mask. Bit `d * k + j` of a mask is bit `j` of the index of the tag's symbol `k`, counting from the tag's first byte (see [`AffineMap`](crate::AffineMap)). |
//! | `offset` | number | The affine map's offset: the slot of mask 0, the tag of `tag_len` copies of `alphabet[0]` (13881, the slot of `"@@@@"`). |
//! | `base_slot` | number | The same value as `offset`, under the runtime's name. |
//! | `columns` | array of `mask_bits` numbers | The linear part by columns: `columns[v]` is the slot delta (xor) of flipping mask bit `v`. So `slot(x) = offset ^ xor of columns[v] over the set bits v of x`. |
//! | `rank` | number | The rank of the linear part over GF(2): `slot_bits` for a derivation (14). |
//! | `pivots` | array of `rank` numbers | The pivot columns (mask bits) of the reduced row echelon form, ascending: the lowest-indexed independent mask bits. |
//! | `inverse` | array of `slot_bits` masks | `inverse[i]` is the mask whose slot delta is `1 << i`, supported on the pivot columns (`inverse[0]` = `35028` = 0x88d4). |
//! | `low_bits` | number | How many low bits of a slot delta index `low`: `ceil(slot_bits / 2)` (7). |
//! | `low` | array of `2^low_bits` masks | `low[v]` = xor of `inverse[i]` over the set bits `i` of `v`. |
//! | `high` | array of `2^(slot_bits - low_bits)` masks | `high[v]` = xor of `inverse[low_bits + i]` over the set bits `i` of `v`. |
//! | `kernel` | array of masks | A basis of the kernel of the linear part (one per free mask bit, `mask_bits - rank` of them): masks whose tags do not move the slot. Each slot has `2^len` tags. |
//! | `verification` | object, optional | The [`Report`] of [`verify`](crate::verify()) when the writer ran it (`slotgen emit json` does): `slots_checked`, `tags_checked`, `failure_count`, `failures` (at most 20 of `{ slot, tag (array of bytes), reason }`). |
//!
//! The tag of slot `s`: `d = s ^ base_slot`, mask `m = low[d & (2^low_bits - 1)] ^
//! high[d >> low_bits]`, and symbol `k` is `alphabet[(m >> (symbol_bits * k)) & (2^symbol_bits -
//! 1)]`. For the default spec, slot 0 gives `"DLH@"`.
//!
//! # Examples
//!
//! ```
//! let d = slotgen::derive(&slotgen::Spec::default()).unwrap();
//! let value = slotgen::json_schema::to_value(&d, None);
//! assert_eq!(value["format"], "slotgen-derivation/2");
//! assert_eq!(value["base_slot"], 13881);
//! assert_eq!(value["inverse"][0], 0x88d4);
//! assert_eq!(value["alphabet_hex"], "404142434445464748494a4b4c4d4e4f");
//! assert!(value.get("verification").is_none());
//! ```

use serde_json::{json, Value};

use crc::Algorithm;
use serde::Deserialize;

use crate::crc_catalog;
use crate::request::TableSpec;
use crate::{catalog, Derivation, Error, Report, SlotTables, Spec};

/// The fields that describe the file rather than the table: the writer's version and the
/// verification report. A reader does not compare them.
pub const FILE_FIELDS: &[&str] = &["generator", "verification"];

/// The largest JSON derivation read: 1 MiB. The largest derivation slotgen writes (128
/// symbols, 16-symbol tags, 65536 slots) has under 20 KiB.
pub const MAX_JSON_BYTES: usize = 1 << 20;

/// The schema name and version written to `"format"`.
pub const FORMAT: &str = "slotgen-derivation/2";

/// The derivation as a JSON value, with `verification` when a report is given: schema
/// `slotgen-derivation/2` (in the module documentation) for a CRC-16 spec, with its
/// two-load tables; `slotgen-scheme-derivation/1` ([`SCHEME_FORMAT`]) for a scheme.
///
/// # Examples
///
/// ```
/// use slotgen::scheme::invert::SchemeSpec;
/// use slotgen_tables::SchemeName;
///
/// let d = slotgen::derive(&slotgen::Spec::default())?;
/// let value = slotgen::json_schema::to_value(&d, None);
/// assert_eq!(value["format"], "slotgen-derivation/2");
/// assert_eq!(value["low_bits"], 7);
///
/// let d = slotgen::derive(&SchemeSpec::new(SchemeName::TarantoolVshard))?;
/// let value = slotgen::json_schema::to_value(&d, None);
/// assert_eq!(value["format"], "slotgen-scheme-derivation/1");
/// assert_eq!(value["scheme"]["first_slot"], 1);
/// assert_eq!(value["solved"]["kind"], "whole-value");
/// assert_eq!(value["tag_len"], 10);
/// # Ok::<(), slotgen::Error>(())
/// ```
#[must_use]
pub fn to_value(derivation: &Derivation, verification: Option<&Report>) -> Value {
    let mut value = match (&derivation.spec, &derivation.slot_tables) {
        (TableSpec::Crc16(spec), Some(tables)) => crc16_value(derivation, spec, tables),
        (TableSpec::Scheme(spec), _) => scheme_value(derivation, spec),
        (TableSpec::Crc16(_), None) => unreachable!("a CRC-16 spec's derivation has its tables"),
    };
    if let Some(report) = verification {
        value["verification"] = serde_json::to_value(report).expect("a report serializes");
    }
    value
}

fn crc16_value(derivation: &Derivation, spec: &Spec, tables: &SlotTables) -> Value {
    let alg = &spec.crc;
    let symbols = derivation.alphabet.symbols();
    json!({
        "format": FORMAT,
        "generator": concat!("slotgen ", env!("CARGO_PKG_VERSION")),
        "crc": crc_catalog::crc_value(spec.crc_name(), alg),
        "slots": spec.slots,
        "slot_bits": derivation.slot_bits(),
        "alphabet": symbols.iter().all(u8::is_ascii_graphic).then(|| String::from_utf8_lossy(symbols).into_owned()),
        "alphabet_hex": hex::encode(symbols),
        "symbol_bits": derivation.alphabet.symbol_bits(),
        "tag_len": derivation.tag_len,
        "mask_bits": derivation.mask_bits(),
        "base_slot": derivation.base_slot(),
        "rank": derivation.pivots.len(),
        "pivots": derivation.pivots,
        "offset": tables.map.offset,
        "columns": tables.map.columns,
        "inverse": derivation.inverse,
        "low_bits": tables.low_bits,
        "low": tables.low,
        "high": tables.high,
        "kernel": derivation.kernel,
    })
}

/// The fields of a JSON derivation that name its spec.
#[derive(Debug, Deserialize)]
struct Header {
    crc: CrcHeader,
    slots: u32,
    alphabet_hex: String,
    tag_len: usize,
}

/// The `crc` object of the JSON forms, as [`crc_value`] writes it.
#[derive(Debug, Deserialize)]
pub(crate) struct CrcHeader {
    name: String,
    width: u8,
    poly: u16,
    init: u16,
    refin: bool,
    refout: bool,
    xorout: u16,
}

impl CrcHeader {
    /// The CRC the object names: the catalogue's entry by `name`, or the parameters when
    /// `name` is `custom`.
    pub(crate) fn algorithm(&self) -> Result<Algorithm<u16>, Error> {
        if self.width != 16 {
            return Err(Error::UnsupportedWidth { width: self.width });
        }
        Ok(if self.name == "custom" {
            catalog::custom(self.poly, self.init, self.refin, self.refout, self.xorout)
        } else {
            *catalog::find(&self.name)?.algorithm
        })
    }
}

/// The spec a JSON derivation names, by its `format` (the caller checks it first): the
/// reader of the fields [`to_value`] writes for it. For [`FORMAT`] (a CRC-16 spec): `crc`,
/// `slots`, `alphabet_hex`, `tag_len`; for [`SCHEME_FORMAT`]: `scheme.name`,
/// `scheme.slots`, `scheme.hash_tag`, `alphabet_hex` and `tag_len`.
///
/// # Errors
///
/// - [`Error::TableJson`]: a field that names the spec is missing or of the wrong type.
/// - [`Error::TableSpec`]: `alphabet_hex` is not hex.
/// - [`Error::UnsupportedWidth`]: `crc.width` is not 16.
/// - [`Error::UnknownCrc`]: `crc.name` is neither a catalogue name nor `custom`.
/// - The errors of [`crate::scheme::resolve`] for the scheme fields.
///
/// # Examples
///
/// ```
/// use slotgen::json_schema::{spec_of, to_value};
/// use slotgen::request::TableSpec;
/// use slotgen::scheme::invert::SchemeSpec;
/// use slotgen_tables::SchemeName;
///
/// let d = slotgen::derive(&slotgen::Spec::default())?;
/// assert_eq!(spec_of(&to_value(&d, None))?, d.spec);
/// let d = slotgen::derive(&SchemeSpec::new(SchemeName::Codis))?;
/// assert!(matches!(spec_of(&to_value(&d, None))?, TableSpec::Scheme(_)));
/// assert_eq!(spec_of(&to_value(&d, None))?, d.spec);
/// # Ok::<(), slotgen::Error>(())
/// ```
pub fn spec_of(value: &Value) -> Result<TableSpec, Error> {
    match value.get("format").and_then(Value::as_str) {
        Some(SCHEME_FORMAT) => Ok(TableSpec::Scheme(scheme_spec_of(value)?)),
        _ => Ok(TableSpec::Crc16(crc16_spec_of(value)?)),
    }
}

fn crc16_spec_of(value: &Value) -> Result<Spec, Error> {
    let header: Header = serde_json::from_value(value.clone()).map_err(|e| Error::TableJson {
        message: e.to_string(),
    })?;
    let crc = header.crc.algorithm()?;
    let alphabet = hex::decode(&header.alphabet_hex).map_err(|e| Error::TableSpec {
        field: "alphabet_hex",
        reason: e.to_string(),
    })?;
    Ok(Spec {
        crc,
        alphabet,
        tag_len: Some(header.tag_len),
        slots: header.slots,
    })
}

/// The schema name and version of a scheme derivation's JSON form ([`to_value`]).
pub const SCHEME_FORMAT: &str = "slotgen-scheme-derivation/1";

/// A scheme derivation as a JSON value, schema `slotgen-scheme-derivation/1`. One object, keys in ascending order; every
/// integer a JSON integer (a value of a CRC wider than 53 bits needs an integer-preserving
/// reader, as for `slotgen-derivation/2`):
///
/// | key | type | meaning |
/// |-----|------|---------|
/// | `format` | string | `"slotgen-scheme-derivation/1"`. |
/// | `generator` | string | The version that wrote the file; not compared by `verify`. |
/// | `scheme` | object | `name` (`"tarantool-vshard"`), `slots` (3000), `first_slot` (the offset: 1 for Tarantool vshard, else 0), `hash_tag` (twemproxy's two delimiters as text, or null), `hashtag_rule` (`"whole-key"`, `"redis"`, `"codis"` or `"delimited"`), `shift` and `mask` (the value is `(crc >> shift) & mask`), `reduction` (`"mask"` or `"modulus"`), `value_bits`, and `crc`: `name` (catalogue name or `"custom"`), `width`, `poly`, `init`, `refin`, `refout`, `xorout`, `check`, `residue`. |
/// | `alphabet`, `alphabet_hex`, `symbol_bits`, `tag_len`, `mask_bits` | | As in `slotgen-derivation/2`. |
/// | `solved` | object | `kind` (`"low-bits"`: the value's low `bits` bits are the slot; `"whole-value"`: the tag is solved for the value `slot - first_slot` itself) and `bits`. |
/// | `base_value` | number | The solved bits of the base tag's value (`tag_len` copies of `alphabet[0]`). |
/// | `rank`, `pivots` | | The rank (`solved.bits`) and the pivot columns (mask bits), ascending. |
/// | `inverse` | array of `solved.bits` masks | `inverse[i]` flips solved bit `i` alone. |
/// | `kernel` | array of masks | A basis of the masks that keep the solved bits. |
/// | `columns`, `kernel_bytes` | arrays of hex strings | `inverse` and `kernel` as byte differences of a tag, `tag_len` bytes each: the runtime's tables. |
/// | `verification` | object, optional | The report of [`verify`](crate::verify()). |
///
/// The tag of slot `s`: `delta = (s - first_slot) ^ base_value`, and the tag is `tag_len`
/// copies of `alphabet[0]` xored with `columns[i]` for every set bit `i` of `delta`.
fn scheme_value(derivation: &Derivation, spec: &crate::scheme::invert::SchemeSpec) -> Value {
    use crate::scheme::invert::Solved;
    use slotgen_tables::Reduction;
    let scheme = &derivation.scheme;
    let (crc_name, crc) = crate::scheme::crc_of(scheme);
    let (shift, mask) = scheme.transform();
    let symbols = derivation.alphabet.symbols();
    let (kind, bits) = match derivation.solved {
        Solved::LowBits(bits) => ("low-bits", bits),
        Solved::WholeValue(bits) => ("whole-value", bits),
    };
    let bytes = |words: &[[u8; slotgen_tables::MAX_TAG_LEN]]| -> Vec<String> {
        words
            .iter()
            .map(|w| hex::encode(&w[..derivation.tag_len]))
            .collect()
    };
    json!({
        "format": SCHEME_FORMAT,
        "generator": concat!("slotgen ", env!("CARGO_PKG_VERSION")),
        "scheme": {
            "name": spec.name.name(),
            "slots": scheme.slots(),
            "first_slot": scheme.offset(),
            "hash_tag": spec.hash_tag.map(|d| String::from_utf8_lossy(&d).into_owned()),
            "hashtag_rule": scheme.hashtag().name(),
            "shift": shift,
            "mask": mask,
            "reduction": match scheme.reduction() {
                Reduction::Mask => "mask",
                Reduction::Modulus => "modulus",
            },
            "value_bits": scheme.value_bits(),
            "crc": crc_catalog::parameters_value(crc_name, &crc),
        },
        "alphabet": symbols.iter().all(u8::is_ascii_graphic).then(|| String::from_utf8_lossy(symbols).into_owned()),
        "alphabet_hex": hex::encode(symbols),
        "symbol_bits": derivation.alphabet.symbol_bits(),
        "tag_len": derivation.tag_len,
        "mask_bits": derivation.tag_len * derivation.alphabet.symbol_bits() as usize,
        "solved": { "kind": kind, "bits": bits },
        "base_value": derivation.base_value,
        "rank": derivation.pivots.len(),
        "pivots": derivation.pivots,
        "inverse": derivation.inverse,
        "kernel": derivation.kernel,
        "columns": bytes(&derivation.columns),
        "kernel_bytes": bytes(&derivation.kernel_words),
    })
}

/// The fields of a scheme derivation's JSON form that name its spec.
#[derive(Debug, Deserialize)]
struct SchemeHeader {
    scheme: SchemeFields,
    alphabet_hex: String,
    tag_len: usize,
}

#[derive(Debug, Deserialize)]
struct SchemeFields {
    name: String,
    slots: u64,
    hash_tag: Option<String>,
}

fn scheme_spec_of(value: &Value) -> Result<crate::scheme::invert::SchemeSpec, Error> {
    let header: SchemeHeader =
        serde_json::from_value(value.clone()).map_err(|e| Error::TableJson {
            message: e.to_string(),
        })?;
    let fields = &header.scheme;
    let scheme =
        crate::scheme::resolve(&fields.name, Some(fields.slots), fields.hash_tag.as_deref())?;
    let alphabet = hex::decode(&header.alphabet_hex).map_err(|e| Error::TableSpec {
        field: "alphabet_hex",
        reason: e.to_string(),
    })?;
    Ok(crate::scheme::invert::SchemeSpec {
        name: crate::scheme::find(&fields.name)?,
        slots: Some(scheme.slots()),
        hash_tag: fields
            .hash_tag
            .as_deref()
            .map(crate::scheme::hash_tag)
            .transpose()?,
        alphabet,
        tag_len: Some(header.tag_len),
    })
}

/// The text as JSON, checked for its size and its `format` ([`FORMAT`] or
/// [`SCHEME_FORMAT`]).
///
/// # Errors
///
/// - [`Error::TableTooLarge`]: the text has more than [`MAX_JSON_BYTES`].
/// - [`Error::TableJson`]: the text is not JSON, or is truncated.
/// - [`Error::TableFormat`]: `format` is not the one given.
pub(crate) fn read(text: &str, format: &'static str) -> Result<Value, Error> {
    if text.len() > MAX_JSON_BYTES {
        return Err(Error::TableTooLarge {
            bytes: text.len() as u64,
            limit: MAX_JSON_BYTES as u64,
        });
    }
    let found: Value = serde_json::from_str(text).map_err(|e| Error::TableJson {
        message: e.to_string(),
    })?;
    let found_format = found.get("format").and_then(Value::as_str);
    if found_format != Some(format) {
        return Err(Error::TableFormat {
            found: found_format.map_or_else(|| "(none)".to_owned(), str::to_owned),
            expected: format,
        });
    }
    Ok(found)
}

/// The `format` of a JSON derivation's text, if it is a JSON object with one.
#[must_use]
pub fn format_of(text: &str) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct Format {
        format: String,
    }
    serde_json::from_str::<Format>(text).ok().map(|f| f.format)
}
