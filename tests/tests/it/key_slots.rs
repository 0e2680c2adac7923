//! The batch paths (`SlotTable::key_slots`, `Scheme::key_slots`, `CrcEngine::checksums`
//! and `key_checksums`) against one key at a time: the `crc` crate over the key's hashtag for CRC-16 tables (REDIS_CLUSTER's
//! CRC-16/XMODEM and the reflected CRC-16/MODBUS) and for the engines of every width, and
//! `Scheme::slot` (checked against the `crc` crate and each system's own code in
//! `scheme_oracles`) for schemes. Keys: every key of up to 3 bytes over `{`, `}`, `a` and
//! `b`, with long keys (16-byte steps, the SIMD crates' lengths) among them, in
//! every batch of 0 to 9 keys at every offset; and random keys of 0 to 300 bytes with
//! braces injected.

use crc::{Crc, CRC_16_MODBUS, CRC_16_XMODEM, CRC_32_ISO_HDLC, CRC_64_XZ, CRC_8_SMBUS};
use proptest::prelude::*;
use slotgen_macros::slot_table;
use slotgen_tables::{
    hashtag, AnyCrc, CrcEngine, HashtagRule, Reduction, Scheme, SlotTable, REDIS_CLUSTER,
};

slot_table! {
    static MODBUS = {
        crc: "CRC-16/MODBUS",
        alphabet: b"@ABCDEFGHIJKLMNO",
        tag_len: 5,
        slots: 16384,
    };
}

static XMODEM: Crc<u16> = Crc::<u16>::new(&CRC_16_XMODEM);
static MODBUS_CRC: Crc<u16> = Crc::<u16>::new(&CRC_16_MODBUS);
static SMBUS: CrcEngine<u8> = CrcEngine::<u8>::new(&CRC_8_SMBUS);
static XZ: CrcEngine<u64> = CrcEngine::<u64>::new(&CRC_64_XZ);

/// Every key of up to 3 bytes over `{`, `}`, `a`, `b` (85 keys), then keys around the
/// 16-byte step, the SIMD crates' lengths (64 and 256) and past them, with and without a
/// hashtag, so that a batch mixes short, long and SIMD keys.
fn corpus() -> Vec<Vec<u8>> {
    let symbols = b"{}ab";
    let mut keys = Vec::new();
    for len in 0..=3u32 {
        for mut i in 0..symbols.len().pow(len) {
            keys.push(
                (0..len)
                    .map(|_| {
                        let b = symbols[i % symbols.len()];
                        i /= symbols.len();
                        b
                    })
                    .collect(),
            );
        }
    }
    assert_eq!(keys.len(), 85);
    for len in [15, 16, 17, 31, 32, 33, 47, 64, 100, 255, 256, 300] {
        let plain: Vec<u8> = (0..len).map(|i| b'a' + (i * 7 % 26) as u8).collect();
        let mut tagged = plain.clone();
        tagged[len / 3] = b'{';
        tagged[len / 3 + 5] = b'}';
        let mut long_tag = plain.clone();
        long_tag[0] = b'{';
        long_tag[len - 1] = b'}';
        keys.extend([plain, tagged, long_tag]);
    }
    keys
}

/// The schemes checked: Codis (CRC-32, its own rule), Couchbase (shift and mask), Tarantool
/// (offset 1), twemproxy's `crc16` (a register the lockstep does not run), a CRC-64 and a
/// CRC-8 over the Redis rule, Redis Cluster's.
fn schemes() -> Vec<(&'static str, Scheme<'static>)> {
    vec![
        ("redis-cluster", Scheme::redis_cluster()),
        ("codis", Scheme::codis()),
        ("couchbase", Scheme::couchbase(1024).unwrap()),
        ("tarantool", Scheme::tarantool_vshard(3000).unwrap()),
        (
            "twemproxy-crc16",
            Scheme::twemproxy_crc16(5, Some(*b"{}")).unwrap(),
        ),
        (
            "crc-64/xz",
            Scheme::new(
                HashtagRule::Redis,
                AnyCrc::W64(&XZ),
                3,
                u64::MAX,
                Reduction::Modulus,
                1000,
                0,
            )
            .unwrap(),
        ),
        (
            "crc-8/smbus",
            Scheme::new(
                HashtagRule::Redis,
                AnyCrc::W8(&SMBUS),
                0,
                0xff,
                Reduction::Mask,
                64,
                0,
            )
            .unwrap(),
        ),
    ]
}

/// A table's batch paths over `keys`, against the `crc` crate one key at a time.
fn check_table<const N: usize>(
    name: &str,
    table: &SlotTable<'_, N>,
    crc: &Crc<u16>,
    keys: &[Vec<u8>],
) {
    let n = keys.len();
    // One more entry than keys, which must be left as it is.
    let mut out = vec![0xbeef_u16; n + 1];
    table.key_slots(keys, &mut out);
    for (i, key) in keys.iter().enumerate() {
        let expected = crc.checksum(hashtag(key)) & 0x3fff;
        assert_eq!(out[i], expected, "{name} key {i} of {n}: {key:?}");
        assert_eq!(out[i], table.key_slot(key));
    }
    assert_eq!(out[n], 0xbeef, "{name}: past the keys");

    let mut crcs = vec![0u16; n];
    table.crc().checksums(keys, &mut crcs);
    for (key, got) in keys.iter().zip(&crcs) {
        assert_eq!(*got, crc.checksum(key), "{name} checksums of {key:?}");
    }
    table.crc().key_checksums(keys, &mut crcs);
    for (key, got) in keys.iter().zip(&crcs) {
        assert_eq!(*got, crc.checksum(hashtag(key)), "{name} key_checksums");
    }
}

/// Every batch path over `keys`, each against one key at a time from an independent CRC.
fn check_batch(keys: &[Vec<u8>]) {
    let n = keys.len();
    check_table("REDIS_CLUSTER", &REDIS_CLUSTER, &XMODEM, keys);
    check_table("MODBUS", &MODBUS, &MODBUS_CRC, keys);

    let iso_hdlc = Crc::<u32>::new(&CRC_32_ISO_HDLC);
    let codis = Scheme::codis();
    let AnyCrc::W32(codis_crc) = codis.crc() else {
        panic!("Codis is a CRC-32")
    };
    let mut crcs = vec![0u32; n];
    codis_crc.checksums(keys, &mut crcs);
    for (key, got) in keys.iter().zip(&crcs) {
        assert_eq!(*got, iso_hdlc.checksum(key), "CRC-32/ISO-HDLC of {key:?}");
    }
    let xz = Crc::<u64>::new(&CRC_64_XZ);
    let mut crcs = vec![0u64; n];
    XZ.key_checksums(keys, &mut crcs);
    for (key, got) in keys.iter().zip(&crcs) {
        assert_eq!(*got, xz.checksum(hashtag(key)), "CRC-64/XZ of {key:?}");
    }
    let smbus = Crc::<u8>::new(&CRC_8_SMBUS);
    let mut crcs = vec![0u8; n];
    SMBUS.checksums(keys, &mut crcs);
    for (key, got) in keys.iter().zip(&crcs) {
        assert_eq!(*got, smbus.checksum(key), "CRC-8/SMBUS of {key:?}");
    }

    for (name, scheme) in schemes() {
        let mut out = vec![u32::MAX; n + 1];
        scheme.key_slots(keys, &mut out);
        for (i, key) in keys.iter().enumerate() {
            assert_eq!(out[i], scheme.slot(key), "{name} key {i} of {n}: {key:?}");
        }
        assert_eq!(out[n], u32::MAX, "{name}: past the keys");
    }
}

#[test]
fn every_batch_of_0_to_9_keys_at_every_offset() {
    let keys = corpus();
    for size in 0..=9 {
        for at in 0..=keys.len() - size {
            check_batch(&keys[at..at + size]);
        }
    }
}

#[test]
fn the_scheme_slots_of_the_corpus_match_the_crc_crate() {
    // Scheme::slot, the expected value above, against the `crc` crate itself.
    let keys = corpus();
    let iso_hdlc = Crc::<u32>::new(&CRC_32_ISO_HDLC);
    let codis = Scheme::codis();
    let mut out = vec![0u32; keys.len()];
    codis.key_slots(&keys, &mut out);
    for (key, &slot) in keys.iter().zip(&out) {
        let hashed = HashtagRule::Codis.apply(key);
        assert_eq!(slot, iso_hdlc.checksum(hashed) % 1024, "{key:?}");
    }
    Scheme::redis_cluster().key_slots(&keys, &mut out);
    for (key, &slot) in keys.iter().zip(&out) {
        assert_eq!(slot, u32::from(XMODEM.checksum(hashtag(key)) & 0x3fff));
    }
}

#[test]
#[should_panic(expected = "the output holds 1 entry for 2 keys: give at least 2")]
fn a_short_out_is_refused() {
    REDIS_CLUSTER.key_slots(&["a", "b"], &mut [0u16; 1]);
}

/// A key of random bytes with `{` and `}` made common.
fn key() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(
        prop_oneof![3 => any::<u8>(), 1 => Just(b'{'), 1 => Just(b'}')],
        0..300,
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Random batches of random keys of 0 to 300 bytes.
    #[test]
    fn random_batches_match_one_key_at_a_time(keys in prop::collection::vec(key(), 0..12)) {
        check_batch(&keys);
    }
}
