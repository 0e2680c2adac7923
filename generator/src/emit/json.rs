//! The JSON form of a derivation: the whole derivation, for other tools and for
//! `slotgen verify`.
//!
//! Schema (`"format": "slotgen-derivation/1"`); integers are JSON numbers, masks are
//! strings of hex digits (`"0x88d4"`) since they may exceed 2^53:
//!
//! - `crc`: `{ name, width, poly, init, refin, refout, xorout, check, residue }`, the RevEng
//!   model, `name` the catalogue name or `custom`.
//! - `slots`, `slot_bits`; `alphabet` (the symbols in index order, as a string of hex byte
//!   pairs under `alphabet_hex` and as text under `alphabet` when all are printable ASCII);
//!   `symbol_bits`; `tag_len`; `mask_bits`.
//! - `base_slot`; `rank`; `pivots` (input bits); `offset` and `columns` (the affine map:
//!   `columns[v]` is the slot delta of input bit `v`).
//! - `inverse` (one mask per slot bit), `low_bits`, `low`, `high`, `kernel`.
//! - `verification`, when given: the [`Report`](crate::Report).

use serde_json::{json, Value};

use crate::{Derivation, Report};

/// The schema name and version written to `"format"`.
pub const FORMAT: &str = "slotgen-derivation/1";

fn masks(values: &[u64]) -> Vec<String> {
    values.iter().map(|v| format!("{v:#06x}")).collect()
}

/// The derivation as a JSON value (schema above).
#[must_use]
pub fn to_value(derivation: &Derivation, verification: Option<&Report>) -> Value {
    let alg = &derivation.spec.crc;
    let symbols = derivation.alphabet.symbols();
    let mut value = json!({
        "format": FORMAT,
        "generator": concat!("slotgen ", env!("CARGO_PKG_VERSION")),
        "crc": {
            "name": derivation.crc_name(),
            "width": alg.width,
            "poly": alg.poly,
            "init": alg.init,
            "refin": alg.refin,
            "refout": alg.refout,
            "xorout": alg.xorout,
            "check": alg.check,
            "residue": alg.residue,
        },
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
        "inverse": masks(&derivation.inverse),
        "low_bits": derivation.low_bits,
        "low": masks(&derivation.low),
        "high": masks(&derivation.high),
        "kernel": masks(&derivation.kernel),
    });
    if let Some(report) = verification {
        value["verification"] = serde_json::to_value(report).expect("a report serializes");
    }
    value
}
