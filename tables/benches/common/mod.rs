//! What the key benches share: the keys they time, and the `crc` crate's CRC-16/XMODEM
//! engines they compare against.

#![allow(dead_code)] // each bench takes what it needs

use crc::{Crc, Table, CRC_16_XMODEM};

/// The 14 bits of a CRC-16 that are a Redis Cluster slot.
pub const SLOT_MASK: u16 = 0x3fff;

/// The `crc` crate's CRC-16/XMODEM with its default byte table.
pub static CRC_TABLE1: Crc<u16, Table<1>> = Crc::<u16, Table<1>>::new(&CRC_16_XMODEM);
/// The `crc` crate's CRC-16/XMODEM, slice-by-16.
pub static CRC_TABLE16: Crc<u16, Table<16>> = Crc::<u16, Table<16>>::new(&CRC_16_XMODEM);

/// A key of `len` bytes with no brace: lowercase letters from a fixed LCG.
pub fn plain_key(len: usize) -> Vec<u8> {
    let mut state = 0x2545_f491u32;
    (0..len)
        .map(|_| {
            state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            b'a' + ((state >> 24) % 26) as u8
        })
        .collect()
}

/// A key of `len` bytes (at least 3) whose middle holds `{tag}`, the tag `min(len - 2, 8)`
/// bytes: the scan reads half the key, the CRC reads the tag.
pub fn tagged_key(len: usize) -> Vec<u8> {
    let mut key = plain_key(len);
    let tag_len = (len - 2).min(8);
    let open = (len - tag_len - 2) / 2;
    key[open] = b'{';
    key[open + tag_len + 1] = b'}';
    key
}
