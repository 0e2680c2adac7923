//! The tables that `tests/build.rs` writes with slotgen's build.rs API, included and
//! checked over every slot: the CRC-16 table against the `crc` crate, the Couchbase scheme
//! table against a bitwise CRC-32/ISO-HDLC.

include!(concat!(env!("OUT_DIR"), "/built.rs"));
include!(concat!(env!("OUT_DIR"), "/vbuckets.rs"));

use crc::{Crc, CRC_16_IBM_3740};

const ALPHABET: &[u8] = b"@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_";

/// The reference CRC: the `crc` crate's, not the runtime's.
static REFERENCE: Crc<u16> = Crc::<u16>::new(&CRC_16_IBM_3740);

/// The slot of `tag`, by the `crc` crate.
fn slot_of(tag: &[u8]) -> u16 {
    REFERENCE.checksum(tag) % 16384
}

/// Marks `tag` seen in `seen`, indexed by its symbols' alphabet indices (5 bits each), and
/// fails when it was seen before.
fn see_once(seen: &mut [bool], tag: &[u8]) {
    let index = tag
        .iter()
        .fold(0, |acc, &b| acc << 5 | usize::from(b - b'@'));
    assert!(
        !std::mem::replace(&mut seen[index], true),
        "tag {tag:?} twice"
    );
}

#[test]
fn included_table_has_the_spec_of_build_rs() {
    assert_eq!(BUILT.crc_name(), "CRC-16/IBM-3740");
    assert_eq!(BUILT.slots(), 16384);
    assert_eq!(BUILT.alphabet(), ALPHABET);
    assert_eq!(BUILT.symbol_bits(), 5);
}

#[test]
fn tag_len_is_the_shortest_that_reaches_every_slot() {
    // build.rs leaves `tag_len` to slotgen. Every 3-symbol tag, by brute force: they miss
    // some slots, so 4 is the shortest length that can work.
    let mut reached = vec![false; 16384];
    for a in ALPHABET {
        for b in ALPHABET {
            for c in ALPHABET {
                reached[usize::from(slot_of(&[*a, *b, *c]))] = true;
            }
        }
    }
    assert!(reached.iter().any(|&r| !r));
    assert_eq!(BUILT.tag_len(), 4);
}

#[test]
fn every_tag_lands_on_its_slot_by_the_crc_crate() {
    let mut seen = vec![false; 1 << 20];
    for slot in 0..16384u16 {
        let mut tags = 0;
        for tag in BUILT.tags_for_slot(slot).unwrap() {
            let tag = tag.as_ref();
            assert_eq!(tag.len(), 4);
            assert!(tag.iter().all(|b| ALPHABET.contains(b)), "{tag:?}");
            assert_eq!(slot_of(tag), slot, "tag {tag:?}");
            see_once(&mut seen, tag);
            tags += 1;
        }
        assert_eq!(tags, BUILT.tags_per_slot());
    }
    // 20 input bits onto 14 slot bits: 64 tags per slot, every 4-symbol tag once.
    assert_eq!(BUILT.tags_per_slot(), 64);
    assert!(seen.iter().all(|&s| s));
}

#[test]
fn keys_from_the_included_table_land_on_their_slot() {
    for slot in [0, 1, 105, 8191, 16383] {
        let key = BUILT.key_for_slot(b"orders:", slot, b":pending").unwrap();
        let tag = &key[b"orders:{".len()..key.len() - b"}:pending".len()];
        assert_eq!(slot_of(tag), slot);
        assert_eq!(BUILT.key_slot(&key), slot);
    }
}

/// Couchbase's vBucket of `key`, as libcouchbase's `lcbvb_k2vb` computes it, by a bitwise
/// CRC-32/ISO-HDLC.
fn vbucket_of(key: &[u8]) -> u32 {
    let crc = slotgen_tests::bitwise_crc::crc32_iso_hdlc(key);
    ((crc >> 16) & 0x7fff) % 1024
}

#[test]
fn included_scheme_table_has_the_spec_of_build_rs() {
    assert_eq!(VBUCKETS.scheme().slots(), 1024);
    assert_eq!(VBUCKETS.scheme().offset(), 0);
    assert_eq!(VBUCKETS.alphabet(), ALPHABET);
    // 1024 is a power of two: the value's low 10 bits are solved, by 3 symbols of 5 bits
    assert_eq!((VBUCKETS.tag_len(), VBUCKETS.solved_bits()), (3, 10));
    assert!(!VBUCKETS.solves_whole_value());
}

/// Every 3-symbol tag over the 32 symbols, 32768 of them, is listed for exactly one vBucket,
/// the one the bitwise CRC-32 puts it on; a vBucket's first tag is its `tag_for_slot`.
#[test]
fn every_scheme_tag_lands_on_its_vbucket_by_a_bitwise_crc() {
    let mut seen = vec![false; 1 << 15];
    for vbucket in 0..1024 {
        let first = VBUCKETS.tag_for_slot(vbucket).unwrap();
        let mut tags = 0;
        for tag in VBUCKETS.tags_for_slot(vbucket).unwrap() {
            let tag = tag.as_ref();
            if tags == 0 {
                assert_eq!(tag, first.as_ref());
            }
            assert!(tag.iter().all(|b| ALPHABET.contains(b)), "{tag:?}");
            assert_eq!(vbucket_of(tag), vbucket, "tag {tag:?}");
            see_once(&mut seen, tag);
            tags += 1;
        }
        assert_eq!(tags, VBUCKETS.tags_per_slot(vbucket));
        assert_eq!(tags, 32);
    }
    assert!(seen.iter().all(|&s| s));
    assert!(VBUCKETS.tag_for_slot(1024).is_err());
}
