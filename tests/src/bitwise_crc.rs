//! CRCs one bit at a time, from their definitions: references for the scheme tables that
//! share nothing with the runtime's table-driven engine or its parameters.
//!
//! The CRC-32s are reflected (the register shifts right, the polynomial is written
//! bit-reversed) with an all-ones start, as zlib and Tarantool compute them; nutcracker's
//! `crc16` is CRC-16/XMODEM's steps in a register it never masks.

/// A reflected CRC-32 of `bytes`: `poly` bit-reversed, the register started at all ones,
/// `xorout` xored in at the end.
fn reflected(poly: u32, xorout: u32, bytes: &[u8]) -> u32 {
    let mut crc = u32::MAX;
    for &byte in bytes {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ poly
            } else {
                crc >> 1
            };
        }
    }
    crc ^ xorout
}

/// CRC-32/ISO-HDLC (zlib's `crc32`, Go's `crc32.ChecksumIEEE`): poly 0x04c11db7 (reflected
/// 0xedb88320), init and xorout 0xffffffff. The CRC of Codis, Couchbase, librdkafka and
/// twemproxy.
///
/// ```
/// assert_eq!(slotgen_tests::bitwise_crc::crc32_iso_hdlc(b"123456789"), 0xcbf4_3926);
/// ```
#[must_use]
pub fn crc32_iso_hdlc(bytes: &[u8]) -> u32 {
    reflected(0xedb8_8320, u32::MAX, bytes)
}

/// Tarantool's `digest.crc32`: the CRC-32C polynomial 0x1edc6f41 (reflected 0x82f63b78),
/// init 0xffffffff, and no final xor, so it is CRC-32/ISCSI without its xorout
/// (`!0xe3069283` for "123456789"). The CRC of Tarantool vshard's `bucket_id_strcrc32`.
///
/// ```
/// assert_eq!(slotgen_tests::bitwise_crc::tarantool_crc32(b"123456789"), !0xe306_9283);
/// ```
#[must_use]
pub fn tarantool_crc32(bytes: &[u8]) -> u32 {
    reflected(0x82f6_3b78, 0, bytes)
}

/// twemproxy's `hash_crc16` (`src/hashkit/nc_crc16.c`): for each byte, the CRC-16/XMODEM
/// step `reg = (reg << 8) ^ table[((reg >> 8) ^ byte) & 0xff]`, the table entry computed
/// here by shifting the polynomial 0x1021 through 16 bits, in a 32-bit register that is
/// never masked back to 16 bits (0x869031c3 for "123456789", whose low 16 bits are
/// XMODEM's check value).
///
/// ```
/// assert_eq!(slotgen_tests::bitwise_crc::nutcracker_crc16(b"123456789"), 0x8690_31c3);
/// ```
#[must_use]
pub fn nutcracker_crc16(bytes: &[u8]) -> u32 {
    let mut reg = 0u32;
    for &byte in bytes {
        let mut entry = u16::from((reg >> 8) as u8 ^ byte) << 8;
        for _ in 0..8 {
            entry = if entry & 0x8000 != 0 {
                (entry << 1) ^ 0x1021
            } else {
                entry << 1
            };
        }
        reg = (reg << 8) ^ u32::from(entry);
    }
    reg
}
