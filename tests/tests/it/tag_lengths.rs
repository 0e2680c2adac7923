//! Generated tables of every tag length from 1 to `MAX_TAG_LEN` (32), each with `N` equal to
//! its tag length (the shape `slot_table!` emits), checked against the `crc` crate: every
//! tag of every slot where the tag space is at most 2^16 tags, else every slot's canonical
//! tag and that tag moved by each kernel entry (the tag -> slot map being affine, these
//! decide every tag of the slot). Also the hand-built table that `SlotTable::new` accepts.

use crc::{Crc, CRC_16_XMODEM};
use slotgen_macros::slot_table;
use slotgen_tables::{catalog, SlotTable, MAX_TAG_LEN};

static XMODEM: Crc<u16> = Crc::<u16>::new(&CRC_16_XMODEM);

/// Every check of the file docs on `table`, whose tags are `tag_len` symbols of `alphabet`.
fn check<const N: usize>(table: &SlotTable<'_, N>, alphabet: &[u8], tag_len: usize) -> u64 {
    assert_eq!((N, table.tag_len()), (tag_len, tag_len));
    assert_eq!(core::mem::size_of::<slotgen_tables::Tag<N>>(), N + 1);
    let slots = table.slots();
    let mask = (slots - 1) as u16;
    let bits = tag_len * alphabet.len().trailing_zeros() as usize;
    let all = bits <= 16;
    let mut seen = vec![false; if all { 1 << bits } else { 0 }];
    let mut checked = 0;
    for slot in 0..slots as u16 {
        let canonical = table.tag_for_slot(slot).unwrap();
        let tags: Vec<[u8; N]> = if all {
            table
                .tags_for_slot(slot)
                .unwrap()
                .map(|t| t.to_array())
                .collect()
        } else {
            let kernel = table.kernel();
            std::iter::once(canonical.to_array())
                .chain(kernel.iter().map(|k| {
                    let mut moved = canonical.to_array();
                    moved.iter_mut().zip(k).for_each(|(b, d)| *b ^= d);
                    moved
                }))
                .collect()
        };
        assert_eq!(tags[0], canonical.to_array());
        for tag in tags {
            assert!(tag.iter().all(|b| alphabet.contains(b)), "{tag:?}");
            assert_eq!(XMODEM.checksum(&tag) & mask, slot, "{tag:?}");
            if all {
                let index = tag.iter().rev().fold(0, |acc, b| {
                    acc * alphabet.len() + alphabet.iter().position(|a| a == b).unwrap()
                });
                assert!(!std::mem::replace(&mut seen[index], true), "{tag:?} twice");
            }
            checked += 1;
        }
        let key = table.key_for_slot(b"k:", slot, b":v").unwrap();
        assert_eq!(XMODEM.checksum(&key[3..3 + tag_len]) & mask, slot);
        assert_eq!(table.key_slot(&key), slot);
    }
    assert!(seen.iter().all(|&s| s), "a tag lands on no slot");
    assert!(table.tag_for_slot(slots as u16).is_err() || slots == 65536);
    checked
}

macro_rules! lengths {
    ($($name:ident $len:literal $alphabet:literal $slots:literal;)*) => {
        slot_table! {
            $(static $name = {
                crc: "CRC-16/XMODEM",
                alphabet: $alphabet,
                tag_len: $len,
                slots: $slots,
            };)*
        }

        #[test]
        fn every_tag_length_with_its_own_width() {
            let mut lengths = Vec::new();
            $(
                assert!(check(&$name, $alphabet, $len) > 0, "{}", stringify!($name));
                lengths.push($len);
            )*
            assert_eq!(lengths, (1..=MAX_TAG_LEN).collect::<Vec<_>>());
        }
    };
}

// 2 symbols (1 bit) from length 16 on, so that the mask fits 64 bits up to 32 symbols;
// slot counts as large as the tags allow, up to 16384.
lengths! {
    L1 1 b"@ABCDEFGHIJKLMNO" 16;
    L2 2 b"@ABCDEFGHIJKLMNO" 256;
    L3 3 b"@ABCDEFGHIJKLMNO" 4096;
    L4 4 b"@ABCDEFGHIJKLMNO" 16384;
    L5 5 b"@ABCDEFGHIJKLMNO" 16384;
    L6 6 b"@ABCDEFGHIJKLMNO" 16384;
    L7 7 b"@ABCDEFGHIJKLMNO" 16384;
    L8 8 b"@ABCDEFGHIJKLMNO" 16384;
    L9 9 b"@ABCDEFGHIJKLMNO" 16384;
    L10 10 b"@ABCDEFGHIJKLMNO" 16384;
    L11 11 b"@ABCDEFGHIJKLMNO" 16384;
    L12 12 b"@ABCDEFGHIJKLMNO" 16384;
    L13 13 b"@ABCDEFGHIJKLMNO" 16384;
    L14 14 b"@ABCDEFGHIJKLMNO" 16384;
    L15 15 b"@ABCDEFGHIJKLMNO" 16384;
    L16 16 b"@ABCDEFGHIJKLMNO" 16384;
    L17 17 b"@A" 16384;
    L18 18 b"@A" 16384;
    L19 19 b"@A" 16384;
    L20 20 b"@A" 16384;
    L21 21 b"@A" 16384;
    L22 22 b"@A" 16384;
    L23 23 b"@A" 16384;
    L24 24 b"@A" 16384;
    L25 25 b"@A" 16384;
    L26 26 b"@A" 16384;
    L27 27 b"@A" 16384;
    L28 28 b"@A" 16384;
    L29 29 b"@A" 16384;
    L30 30 b"@A" 16384;
    L31 31 b"@A" 16384;
    L32 32 b"@A" 16384;
}

/// The table of `SlotTable::new`'s example, and its kernel-carrying sibling, built by hand:
/// the checked constructor accepts them at compile time, and their tags are right.
#[test]
fn consistent_hand_built_tables_compile() {
    static LOW1: [[u8; 1]; 2] = [*b"@", *b"A"];
    static ONE: SlotTable<'static, 1> = SlotTable::new(
        &catalog::CRC_16_XMODEM,
        "CRC-16/XMODEM",
        b"@A",
        1,
        &LOW1,
        &[[0]],
        &[],
    );
    static LOW2: [[u8; 2]; 2] = [*b"@@", *b"A@"];
    static KERNEL2: [[u8; 2]; 1] = [[0x01, 0x01]];
    static TWO: SlotTable<'static, 2> = SlotTable::new(
        &catalog::CRC_16_XMODEM,
        "CRC-16/XMODEM",
        b"@A",
        2,
        &LOW2,
        &[[0, 0]],
        &KERNEL2,
    );
    assert_eq!(check(&ONE, b"@A", 1), 2);
    assert_eq!(check(&TWO, b"@A", 2), 4);
    let tags: Vec<String> = TWO
        .tags_for_slot(0)
        .unwrap()
        .map(|t| t.to_string())
        .collect();
    assert_eq!(tags, ["@@", "AA"]);
}

/// A scheme table takes `charset` as `slotgen --scheme ... --charset` does: every tag of
/// Codis's 1024 slots is alphanumeric and lands on its slot by Codis's rule, CRC-32/ISO-HDLC
/// (the `crc` crate's) of the tag modulo 1024.
#[test]
fn a_scheme_table_takes_a_charset() {
    slot_table! {
        static CODIS_ALNUM = { scheme: "codis", charset: "alnum" };
    }
    let crc = crc::Crc::<u32>::new(&crc::CRC_32_ISO_HDLC);
    for slot in 0..1024 {
        let tag = CODIS_ALNUM.tag_for_slot(slot).expect("a Codis slot");
        let tag = tag.as_ref();
        assert!(tag.iter().all(u8::is_ascii_alphanumeric), "{tag:?}");
        assert_eq!(crc.checksum(tag) % 1024, slot, "{tag:?}");
    }
}
