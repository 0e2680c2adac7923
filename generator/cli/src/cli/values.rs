//! Parsers of option and argument values that need nothing but `std` and
//! `slotgen::text` (which escapes the value in a message): a 16-bit CRC parameter, a slot
//! range, a time limit and a count. On their own so that the fuzz targets (`tests/fuzz/`)
//! include this very file.

use slotgen::text::escape_cut;

/// A 16-bit CRC parameter: `0x`-prefixed hex or decimal.
pub fn parse_u16(text: &str) -> Result<u16, String> {
    let parsed = match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        Some(hex) => u16::from_str_radix(hex, 16),
        None => text.parse(),
    };
    parsed.map_err(|_| {
        format!(
            "`{}` is not a 16-bit value: give hex such as 0x1021 or decimal such as 4129",
            escape_cut(text.as_bytes())
        )
    })
}

/// A slot or an inclusive range `A-B` of slots, as given on the command line.
#[derive(Debug, Clone, Copy)]
pub struct SlotRange {
    /// The first slot.
    pub first: u32,
    /// The last slot, at least `first`.
    pub last: u32,
}

impl std::str::FromStr for SlotRange {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let number = |t: &str| {
            let t = t.trim();
            t.parse::<u32>().map_err(|_| {
                if !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) {
                    // digits, but more than any slot count: the command says which slots are
                    // valid when the number fits; this one does not
                    format!("`{}` is out of range: a slot is below 4294967296, and each command's slots are far fewer (16384 for Redis Cluster)", escape_cut(s.as_bytes()))
                } else {
                    format!(
                        "`{}` is not a slot: give a number such as 42 or a range such as 0-99",
                        escape_cut(s.as_bytes())
                    )
                }
            })
        };
        let (first, last) = match s.split_once('-') {
            Some((a, b)) => (number(a)?, number(b)?),
            None => (number(s)?, number(s)?),
        };
        if first > last {
            return Err(format!(
                "range `{}` runs backwards: write the lower slot first, as {last}-{first}",
                escape_cut(s.as_bytes())
            ));
        }
        Ok(Self { first, last })
    }
}

/// A time limit (`--timeout` of every command that talks to a server): seconds (`10`,
/// `0.5`), or a number with `ms` or `s` (`500ms`, `2s`); above 0 and at most a day.
pub fn parse_timeout(text: &str) -> Result<std::time::Duration, String> {
    let (number, scale) = match text.strip_suffix("ms") {
        Some(n) => (n, 0.001),
        None => (text.strip_suffix('s').unwrap_or(text), 1.0),
    };
    number
        .trim()
        .parse::<f64>()
        .ok()
        .map(|n| n * scale)
        .filter(|s| s.is_finite() && *s > 0.0 && *s <= 86_400.0)
        .map(std::time::Duration::from_secs_f64)
        // `1e-300` is above 0 but no time at all: a socket refuses a zero timeout
        .filter(|d| d.as_micros() > 0)
        .ok_or_else(|| {
            format!(
                "`{}` is not a timeout: give seconds such as 30 or 0.5, or 500ms, above 0 and at most a day",
                escape_cut(text.as_bytes())
            )
        })
}

/// Bytes given as hex digits on the command line (`--prefix-hex`, `--alphabet-hex`), for
/// bytes a shell cannot pass (NUL) or that are not text.
#[derive(Debug, Clone)]
pub struct HexBytes(pub Vec<u8>);

/// Pairs of hex digits, as [`HexBytes`].
pub fn parse_hex_bytes(text: &str) -> Result<HexBytes, String> {
    hex::decode(text).map(HexBytes).map_err(|_| {
        format!(
            "`{}` is not hex bytes: give pairs of hex digits, such as `7b00ff`",
            escape_cut(text.as_bytes())
        )
    })
}

/// A count of keys (`--count`, `--per-node`): a whole number from 1 to `max` (`None`: no
/// bound but the type's).
pub fn parse_count(text: &str, max: Option<u64>) -> Result<u64, String> {
    text.parse::<u64>()
        .ok()
        .filter(|&n| n >= 1 && max.is_none_or(|max| n <= max))
        .ok_or_else(|| {
            let range = match max {
                Some(max) => format!("from 1 to {max}"),
                None => "of 1 or more".to_owned(),
            };
            format!(
                "`{}` is not a count of keys: give a whole number {range}",
                escape_cut(text.as_bytes())
            )
        })
}
