//! The JSON form of a derivation: the whole derivation, for other tools and for
//! `slotgen verify`, which reads it back and checks it.
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
//! let value = slotgen::emit::json::to_value(&d, None);
//! assert_eq!(value["format"], "slotgen-derivation/2");
//! assert_eq!(value["base_slot"], 13881);
//! assert_eq!(value["inverse"][0], 0x88d4);
//! assert_eq!(value["alphabet_hex"], "404142434445464748494a4b4c4d4e4f");
//! assert!(value.get("verification").is_none());
//! ```

use serde_json::{json, Value};

use crc::Algorithm;
use serde::Deserialize;

use crate::{catalog, Derivation, Error, Report, Spec};

/// The schema name and version written to `"format"`.
pub const FORMAT: &str = "slotgen-derivation/2";

/// The derivation as a JSON value (schema `slotgen-derivation/2`, in the module
/// documentation), with `verification` when a report is given.
#[must_use]
pub fn to_value(derivation: &Derivation, verification: Option<&Report>) -> Value {
    let alg = &derivation.spec.crc;
    let symbols = derivation.alphabet.symbols();
    let mut value = json!({
        "format": FORMAT,
        "generator": concat!("slotgen ", env!("CARGO_PKG_VERSION")),
        "crc": crc_value(derivation.crc_name(), alg),
        "slots": derivation.spec.slots,
        "slot_bits": derivation.slot_bits(),
        "alphabet": symbols.iter().all(u8::is_ascii_graphic).then(|| String::from_utf8_lossy(symbols).into_owned()),
        "alphabet_hex": hex::encode(symbols),
        "symbol_bits": derivation.alphabet.symbol_bits(),
        "tag_len": derivation.tag_len,
        "mask_bits": derivation.mask_bits(),
        "base_slot": derivation.base_slot(),
        "rank": derivation.pivots.len(),
        "pivots": derivation.pivots,
        "offset": derivation.map.offset,
        "columns": derivation.map.columns,
        "inverse": derivation.inverse,
        "low_bits": derivation.low_bits,
        "low": derivation.low,
        "high": derivation.high,
        "kernel": derivation.kernel,
    });
    if let Some(report) = verification {
        value["verification"] = serde_json::to_value(report).expect("a report serializes");
    }
    value
}

/// The `crc` object of the JSON forms: `{ name, width, poly, init, refin, refout, xorout,
/// check, residue }`, the RevEng model, `name` the catalogue name or `custom`.
pub(crate) fn crc_value(name: &str, alg: &crc::Algorithm<u16>) -> Value {
    json!({
        "name": name,
        "width": alg.width,
        "poly": alg.poly,
        "init": alg.init,
        "refin": alg.refin,
        "refout": alg.refout,
        "xorout": alg.xorout,
        "check": alg.check,
        "residue": alg.residue,
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

/// The spec a JSON derivation names: the reader of the fields [`to_value`] writes for it
/// (`crc`, `slots`, `alphabet_hex`, `tag_len`). The caller checks `format` first.
///
/// # Errors
///
/// - [`Error::TableJson`]: a field that names the spec is missing or of the wrong type.
/// - [`Error::TableSpec`]: `alphabet_hex` is not hex.
/// - [`Error::UnsupportedWidth`]: `crc.width` is not 16.
/// - [`Error::UnknownCrc`]: `crc.name` is neither a catalogue name nor `custom`.
pub fn spec_of(value: &Value) -> Result<Spec, Error> {
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
