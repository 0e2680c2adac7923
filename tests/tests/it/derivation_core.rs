//! The core acceptance tests: the catalogue check value, Redis's own answers, the seed's
//! hand-derived constants and sample answers, and an exhaustive round trip of every slot.

use crc::{Crc, CRC_16_XMODEM};
use slotgen::{derive, emit, verify, Spec};
use slotgen_tables::{hashtag, Error, REDIS_CLUSTER};
use slotgen_tests::{redis_vectors, workspace_root};

/// The reference CRC for every check below: the `crc` crate, not slotgen's code.
const XMODEM: Crc<u16> = Crc::<u16>::new(&CRC_16_XMODEM);

/// The seed document's constants (`../shared/seeds/001_*`): derived there by hand.
const SEED_BASE_SLOT: u16 = 13881;
const SEED_INVERSE: [u64; 14] = [
    0x88d4, 0x808a, 0x9007, 0x9efb, 0x19a2, 0x0c93, 0x1184, 0x8eed, 0x1efb, 0x8022, 0x89c4, 0x82aa,
    0x9447, 0x967b,
];
/// The seed's sample answers (its "实测输出").
const SEED_SAMPLES: [(u16, &str); 6] = [
    (0, "DLH@"),
    (1, "@A@H"),
    (5461, "IDKA"),
    (8192, "OKNI"),
    (10922, "HC@@"),
    (16383, "EKCA"),
];

#[test]
fn check_value_of_123456789() {
    assert_eq!(XMODEM.checksum(b"123456789"), 0x31c3);
    assert_eq!(REDIS_CLUSTER.crc().checksum(b"123456789"), 0x31c3);
    assert_eq!(REDIS_CLUSTER.key_slot(b"123456789"), 12739);
}

#[test]
fn every_redis_vector_matches() {
    let vectors = redis_vectors();
    assert!(vectors.len() > 400, "only {} vectors read", vectors.len());
    for v in &vectors {
        assert_eq!(
            REDIS_CLUSTER.key_slot(&v.key),
            v.slot,
            "key {} ({})",
            hex::encode(&v.key),
            v.note
        );
    }
}

/// The seed document's examples of the empty-hashtag trap.
#[test]
fn hashtag_examples_of_the_seed() {
    assert_eq!(REDIS_CLUSTER.key_slot(b"emq:{}:pending"), 7387);
    assert_eq!(REDIS_CLUSTER.key_slot(b"emq:{}:active"), 5857);
    assert_eq!(REDIS_CLUSTER.key_slot(b"emq:{orders}:pending"), 105);
    assert_eq!(hashtag(b"ms_health:{DLH@}:write"), b"DLH@");
}

#[test]
fn default_derivation_reproduces_the_seed() {
    let d = derive(&Spec::default()).expect("the default spec derives");
    assert_eq!(d.base_slot(), u32::from(SEED_BASE_SLOT));
    assert_eq!(d.inverse, SEED_INVERSE);
    assert_eq!(XMODEM.checksum(b"@@@@") & 0x3fff, SEED_BASE_SLOT);
    for (slot, tag) in SEED_SAMPLES {
        assert_eq!(
            d.slot_table()
                .unwrap()
                .tag_for_slot(slot)
                .unwrap()
                .to_string(),
            tag
        );
        assert_eq!(REDIS_CLUSTER.tag_for_slot(slot).unwrap().to_string(), tag);
    }
    let mut buf = [0u8; 64];
    let len = REDIS_CLUSTER
        .write_key_for_slot(b"ms_health:", 0, b":write", &mut buf)
        .unwrap();
    assert_eq!(&buf[..len], b"ms_health:{DLH@}:write");
}

/// The static table is the derivation, entry for entry: its tag bytes are the derivation's
/// masks read through the alphabet (`TagWords`), cut to the tag length.
#[test]
fn static_table_is_the_derivation() {
    let d = derive(&Spec::default()).unwrap();
    let cut = |words: &[[u8; 32]]| words.iter().map(|w| w[..4].to_vec()).collect::<Vec<_>>();
    let flat = |words: &[[u8; 4]]| words.iter().map(|w| w.to_vec()).collect::<Vec<_>>();
    let (low, high, kernel) = (
        REDIS_CLUSTER.low(),
        REDIS_CLUSTER.high(),
        REDIS_CLUSTER.kernel(),
    );
    let words = &d.slot_tables.as_ref().unwrap().words;
    assert_eq!(flat(low), cut(&words.low));
    assert_eq!(flat(high), cut(&words.high));
    assert_eq!(flat(kernel), cut(&words.kernel));
    assert_eq!((low.len(), high.len(), kernel.len()), (128, 128, 2));
    assert_eq!(u32::from(REDIS_CLUSTER.base_slot()), d.base_slot());
    assert_eq!(REDIS_CLUSTER.alphabet(), b"@ABCDEFGHIJKLMNO");
    assert_eq!((REDIS_CLUSTER.tag_len(), REDIS_CLUSTER.slots()), (4, 16384));
    assert_eq!(REDIS_CLUSTER.crc_name(), "CRC-16/XMODEM");
    // The engine is the table's own `const` (so that callers see its parameters), with the
    // algorithm and tables of the catalogue's shared static.
    let (own, shared) = (REDIS_CLUSTER.crc(), &slotgen_tables::catalog::CRC_16_XMODEM);
    assert!(!std::ptr::eq(own, shared));
    assert_eq!(
        format!("{:?}", own.algorithm()),
        format!("{:?}", shared.algorithm())
    );
    assert_eq!(own.table(), shared.table());
    // A `const`: usable where a constant is required.
    const COPY: slotgen_tables::SlotTable<'static, 4> = REDIS_CLUSTER;
    assert_eq!(COPY.key_slot(b"123456789"), 12739);
    // Each entry of `low` and `high` is the derivation's mask through the alphabet: `low`
    // a whole tag, `high` the tag's difference from the base tag `@@@@`, base slot folded
    // into the index (13881 = 57 + (108 << 7)).
    let table = d.slot_table().unwrap();
    let tables = d.slot_tables.as_ref().unwrap();
    for v in 0..128 {
        let low_tag = table.tag_from_mask(tables.low[v ^ 57]);
        assert_eq!(low[v], low_tag.as_ref());
        let high_tag = table.tag_from_mask(tables.high[v ^ 108]);
        let difference: Vec<u8> = high_tag.as_ref().iter().map(|b| b ^ b'@').collect();
        assert_eq!(high[v].to_vec(), difference);
    }
}

/// Each inverse constant moves the slot by exactly its own bit, and each kernel vector by
/// nothing: checked by the `crc` crate over the tags' bytes, not by slotgen's algebra.
#[test]
fn inverse_constants_and_kernel_act_as_claimed() {
    let d = derive(&Spec::default()).unwrap();
    let table = d.slot_table().unwrap();
    let slot = |mask: u64| XMODEM.checksum(table.tag_from_mask(mask).as_ref()) & 0x3fff;
    for (i, &r) in d.inverse.iter().enumerate() {
        assert_eq!(
            slot(r) ^ SEED_BASE_SLOT,
            1 << i,
            "inverse constant {i} = {r:#06x}"
        );
    }
    assert_eq!(d.kernel.len(), 2);
    for &k in &d.kernel {
        assert_eq!(slot(k), SEED_BASE_SLOT, "kernel vector {k:#06x}");
    }
}

/// All 16384 slots: every tag of every slot lands there (by the `crc` crate and by
/// `key_slot` on the built key), and the 4 x 16384 tags are all 65536 tags, once each.
#[test]
fn exhaustive_round_trip_of_every_slot() {
    let mut seen = vec![false; 1 << 16];
    for slot in 0..16384u16 {
        let tag = REDIS_CLUSTER.tag_for_slot(slot).unwrap();
        let key = REDIS_CLUSTER
            .key_for_slot(b"user:", slot, b":profile")
            .unwrap();
        assert_eq!(key.len(), 4 + 2 + 5 + 8);
        assert_eq!(REDIS_CLUSTER.key_slot(&key), slot);
        let tags: Vec<_> = REDIS_CLUSTER.tags_for_slot(slot).unwrap().collect();
        assert_eq!(tags.len(), 4);
        assert_eq!(tags[0], tag, "the canonical tag comes first");
        for t in tags {
            let bytes = t.as_ref();
            assert_eq!(
                XMODEM.checksum(bytes) & 0x3fff,
                slot,
                "tag {t} of slot {slot}"
            );
            // The tag's index as a number in base 16, the first symbol lowest.
            let index = bytes.iter().rev().fold(0usize, |acc, &b| {
                assert!((b'@'..=b'O').contains(&b), "{t} has a byte outside @..O");
                acc * 16 + usize::from(b - b'@')
            });
            assert!(
                !std::mem::replace(&mut seen[index], true),
                "tag {t} seen twice"
            );
        }
    }
    assert!(seen.iter().all(|&s| s));
}

#[test]
fn refusals() {
    assert_eq!(
        REDIS_CLUSTER.tag_for_slot(16384),
        Err(Error::SlotOutOfRange {
            slot: 16384,
            first: 0,
            last: 16383
        })
    );
    assert!(REDIS_CLUSTER.tags_for_slot(u16::MAX).is_err());
    assert_eq!(
        REDIS_CLUSTER.key_for_slot(b"a{b", 0, b""),
        Err(Error::PrefixHasDelimiter {
            position: 1,
            open: '{'
        })
    );
    // a `{` after the tag is harmless: the tag's braces come first
    let key = REDIS_CLUSTER.key_for_slot(b"a}", 7, b"{x}").unwrap();
    assert_eq!(REDIS_CLUSTER.key_slot(&key), 7);
    let mut small = [0u8; 5];
    assert_eq!(
        REDIS_CLUSTER.write_key_for_slot(b"", 0, b"", &mut small),
        Err(Error::BufferTooSmall {
            needed: 6,
            available: 5
        })
    );
    let message = REDIS_CLUSTER
        .key_for_slot(b"a{b", 0, b"")
        .unwrap_err()
        .to_string();
    assert!(
        message.starts_with("prefix contains `{` at byte 1, the byte that opens the key's hashtag")
            && message.contains("remove it from the prefix"),
        "{message}"
    );
    // a byte from outside is escaped in the message (twemproxy's `hash_tag` may be any)
    let control = Error::PrefixHasDelimiter {
        position: 0,
        open: '\u{1b}',
    };
    assert!(control.to_string().contains("`\\x1b`"), "{control}");
}

#[test]
fn verification_report_of_the_default_spec() {
    let report = verify(&derive(&Spec::default()).unwrap());
    assert!(report.passed(), "{:?}", report.failures);
    assert_eq!((report.slots_checked, report.tags_checked), (16384, 65536));
}

/// `tables/src/redis_cluster.rs` is what the emitter writes today.
#[test]
fn committed_redis_cluster_table_is_fresh() {
    let path = workspace_root().join("tables/src/redis_cluster.rs");
    let committed = std::fs::read_to_string(&path).unwrap();
    let fresh = emit::rust::file(&derive(&Spec::default()).unwrap(), "REDIS_CLUSTER").unwrap();
    let command = fresh
        .lines()
        .next()
        .unwrap()
        .trim_start_matches("// @generated by ");
    assert!(
        committed == fresh,
        "{} is stale: regenerate it with `cargo run -p slotgen-cli -- {} -o tables/src/redis_cluster.rs`",
        path.display(),
        command.trim_start_matches("slotgen ")
    );
}

/// Pins every constant and both tables of the default derivation.
#[test]
fn snapshot_of_the_default_derivation() {
    let mut value = emit::json::to_value(&derive(&Spec::default()).unwrap(), None);
    value["generator"] = "slotgen".into(); // not the version: the numbers are what is pinned
    insta::assert_json_snapshot!("redis_cluster_derivation", value);
}

/// A tag space too large to walk (2^64 tags) is checked by kernel directions, and that
/// check still catches a broken table: here a kernel vector that moves the slot.
#[test]
fn verification_of_a_huge_tag_space_by_kernel_directions() {
    let spec = Spec {
        tag_len: Some(16),
        ..Spec::default()
    };
    let mut d = derive(&spec).unwrap();
    assert_eq!((d.mask_bits(), d.kernel.len()), (64, 50));
    let report = verify(&d);
    assert!(report.passed(), "{:?}", report.failures);
    assert!(!report.exhaustive);
    assert_eq!(report.tags_checked, 16384 * 51);
    assert!(verify(&derive(&Spec::default()).unwrap()).exhaustive);

    // Kernel entry 7 replaced by the tag difference of mask `kernel[7] ^ 1`: made of
    // alphabet differences, but no longer in the kernel, so it moves the slot.
    let table = d.slot_table().unwrap();
    let moved = table.tag_from_mask(d.kernel[7] ^ 1).to_array();
    let base = table.tag_from_mask(0).to_array();
    for (i, byte) in d.slot_tables.as_mut().unwrap().words.kernel[7]
        .iter_mut()
        .enumerate()
    {
        *byte = moved[i] ^ base[i];
    }
    let broken = verify(&d);
    assert_eq!(
        broken.failure_count,
        1 + 16384,
        "the checked constructor once, the moved tag of every slot"
    );
    assert!(
        broken.failures[0].reason.contains(
            "refuses the table: inconsistent slot table: a `kernel` entry moves the slot"
        ),
        "{:?}",
        broken.failures[0]
    );
    assert!(
        broken.failures[1]
            .reason
            .contains("the crc crate puts it on slot"),
        "{:?}",
        broken.failures[1]
    );
}

/// A tag byte outside the alphabet is named, at the slot and position it is at, in both
/// ways of checking: one by one (the default spec) and by kernel directions.
#[test]
fn verification_names_a_byte_outside_the_alphabet() {
    for tag_len in [None, Some(16)] {
        let spec = Spec {
            tag_len,
            ..Spec::default()
        };
        let mut d = derive(&spec).unwrap();
        // `low[0]` is a whole tag: its last symbol becomes `z`, which no tag may hold
        let last = d.tag_len - 1;
        d.slot_tables.as_mut().unwrap().words.low[0][last] = b'z';
        let broken = verify(&d);
        assert!(!broken.passed());
        let named = broken
            .failures
            .iter()
            .find(|f| f.reason.contains("byte 0x7a is not in the alphabet"))
            .unwrap_or_else(|| panic!("{:?}", broken.failures));
        assert_eq!(named.tag[last], b'z', "{named:?}");
    }
}

/// A lookup word whose bytes past the tag's length are not zero (a tag of 5 symbols is
/// looked up in 8-byte words) is reported, though every symbol of the tag is in the
/// alphabet and the tag lands on its slot.
#[test]
fn verification_names_bytes_past_the_tag_length() {
    let spec = Spec {
        tag_len: Some(5),
        ..Spec::default()
    };
    let mut d = derive(&spec).unwrap();
    assert!(verify(&d).passed());
    d.slot_tables.as_mut().unwrap().words.low[0][6] = b'A';
    let broken = verify(&d);
    assert!(
        broken
            .failures
            .iter()
            .any(|f| f.reason == "the lookup's bytes past the tag's length are not zero"),
        "{:?}",
        broken.failures
    );
}
