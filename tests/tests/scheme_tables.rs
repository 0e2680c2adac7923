//! Tables for the named schemes: `slot_table!` with `scheme`, and the file of `slotgen emit
//! rust --scheme`. Every named scheme's table is compiled into this crate and checked over
//! all its slots against independent bitwise CRC-32s (`slotgen_tests::bitwise_crc`) and
//! hashtag rules written out here; the Tarantool vshard file is pinned by a snapshot of
//! exactly the table checked; a static `SchemeTable` is the size its docs give. With
//! `shortest`, `slot_table!` makes a scheme's shortest-tag table, checked against a plain
//! enumeration over the same independent CRCs. The file
//! denies warnings and missing docs, so the expansion must compile clean under them.
#![deny(warnings, missing_docs)]

use std::ops::RangeInclusive;

use slotgen::derive;
use slotgen::scheme::invert::SchemeSpec;
use slotgen_macros::slot_table;
use slotgen_tables::{SchemeName, SchemeTable};
use slotgen_tests::bitwise_crc::{crc32_iso_hdlc, nutcracker_crc16, tarantool_crc32};

slot_table! {
    pub static VSHARD = { scheme: "tarantool-vshard" };
}

/// The expansion of `VSHARD`'s tokens, formatted: the snapshot's file holds exactly it.
const VSHARD_SOURCE: &str = slotgen_macros::slot_table_source! {
    pub static VSHARD = { scheme: "tarantool-vshard" };
};

slot_table! {
    /// Codis's 1024 slots; the name in another case.
    static CODIS = { scheme: "Codis" };
    /// librdkafka with 12 partitions.
    static KAFKA = { scheme: "librdkafka", slots: 12 };
    /// Couchbase with 1000 vBuckets: not a power of two, so the whole 15-bit value.
    static COUCHBASE = { scheme: "couchbase", slots: 1000 };
    /// Redis Cluster through the scheme path, `_` for `-`.
    static REDIS = { scheme: "REDIS_CLUSTER", alphabet: b"@ABCDEFGHIJKLMNO", tag_len: 4 };
    /// A twemproxy pool of 3 servers, `hash: crc32a`, `hash_tag: "{}"`.
    static POOL_CRC32A = { scheme: "twemproxy-crc32a", slots: 3, hash_tag: "{}" };
    /// A twemproxy pool of 5 servers, `hash: crc32`, `hash_tag: "::"`, over lower case.
    static POOL_CRC32 = {
        scheme: "twemproxy-crc32",
        slots: 5,
        hash_tag: "::",
        alphabet: "`abcdefgpqrstuvw",
    };
    /// A twemproxy pool of 8 servers, `hash: crc16` (nutcracker's unmasked register), whose
    /// low 3 bits are CRC-16/XMODEM's, `hash_tag: "{}"`.
    static POOL_CRC16 = { scheme: "twemproxy-crc16", slots: 8, hash_tag: "{}" };
}

slot_table! {
    /// Tarantool vshard's 3000 buckets: the shortest alphanumeric tag of each.
    static VSHARD_SHORT = {
        scheme: "tarantool-vshard",
        shortest: { charset: "alnum", order: "0-9a-zA-Z", max_len: 3 },
    };
    /// A twemproxy pool of 5 servers, `hash: crc32a`, `hash_tag: "{}"`: the shortest tag of
    /// digits of each server, inside the hashtag.
    static POOL_SHORT = {
        scheme: "twemproxy-crc32a",
        slots: 5,
        hash_tag: "{}",
        shortest: { charset: "digits", max_len: 2 },
    };
}

/// The bytes between the first `open` and the first `close` after it, if both are there.
fn between(key: &[u8], open: u8, close: u8) -> Option<&[u8]> {
    let start = key.iter().position(|&b| b == open)? + 1;
    let len = key[start..].iter().position(|&b| b == close)?;
    Some(&key[start..start + len])
}

/// What Redis Cluster and twemproxy hash: the bytes between the delimiters when there are
/// some, else the whole key.
fn nonempty_tag(key: &[u8], open: u8, close: u8) -> &[u8] {
    match between(key, open, close) {
        Some(tag) if !tag.is_empty() => tag,
        _ => key,
    }
}

/// Couchbase's and twemproxy `crc32`'s value: `(crc >> 16) & 0x7fff`.
fn high_15(key: &[u8]) -> u32 {
    (crc32_iso_hdlc(key) >> 16) & 0x7fff
}

/// Checks every slot of `table`: the key of `prefix`, its tag and `suffix` lands on the slot
/// by `slot_of` (the real system's formula over an independent CRC), and so do the slot's
/// first `tags` tags, each distinct, of `tag_len` symbols of `alphabet`, the first being
/// `tag_for_slot`'s. The slots next to the range are refused.
fn check_every_slot<const N: usize>(
    table: &SchemeTable<'_, N>,
    slots: RangeInclusive<u32>,
    (prefix, suffix): (&[u8], &[u8]),
    tags: usize,
    slot_of: impl Fn(&[u8]) -> u32,
) {
    let alphabet = table.alphabet();
    for slot in slots.clone() {
        let key = table.key_for_slot(prefix, slot, suffix).unwrap();
        assert_eq!(slot_of(&key), slot, "slot {slot}: key {key:?}");
        let first = table.tag_for_slot(slot).unwrap();
        let mut seen = std::collections::HashSet::new();
        for (i, tag) in table.tags_for_slot(slot).unwrap().take(tags).enumerate() {
            if i == 0 {
                assert_eq!(tag, first);
            }
            let mut key = vec![0; prefix.len() + N + 2 + suffix.len()];
            let len = table
                .write_key(prefix, tag.as_ref(), suffix, &mut key)
                .unwrap();
            assert_eq!(slot_of(&key[..len]), slot, "slot {slot}: tag {tag}");
            assert_eq!(tag.len(), table.tag_len());
            assert!(tag.as_ref().iter().all(|b| alphabet.contains(b)), "{tag}");
            assert!(seen.insert(tag), "slot {slot}: tag {tag} twice");
        }
        assert_eq!(
            seen.len() as u64,
            table.tags_per_slot(slot).min(tags as u64)
        );
    }
    let outside = [slots.start().checked_sub(1), slots.end().checked_add(1)];
    for slot in outside.into_iter().flatten() {
        assert!(table.tag_for_slot(slot).is_err(), "slot {slot}");
    }
}

/// The first test of any CRC path: the catalogue's check values of "123456789".
#[test]
fn the_reference_crcs_give_the_check_values() {
    assert_eq!(crc32_iso_hdlc(b"123456789"), 0xcbf4_3926);
    // CRC-32/ISCSI's check value 0xe3069283, without its final xor
    assert_eq!(tarantool_crc32(b"123456789"), 0x1cf9_6d7c);
}

/// Every bucket 1..=3000: the tag lands on its bucket by `digest.crc32(key) % 3000 + 1`
/// (vshard's `bucket_id_strcrc32`), the key being the tag alone.
#[test]
fn tarantool_vshard_every_bucket() {
    assert_eq!(VSHARD.tag_len(), 10);
    assert!(VSHARD.solves_whole_value());
    check_every_slot(&VSHARD, 1..=3000, (b"", b""), 300, |key| {
        tarantool_crc32(key) % 3000 + 1
    });
    // Solved for the whole value: the CRC of a bucket's tag is `bucket - 1` itself.
    for bucket in 1..=3000 {
        let tag = VSHARD.tag_for_slot(bucket).unwrap();
        assert_eq!(tarantool_crc32(tag.as_ref()), bucket - 1, "{tag}");
    }
    assert!(VSHARD.key_for_slot(b"user:", 1, b"").is_err());
}

/// Every Codis slot, by `crc32(tag) % 1024` with Codis's rule (`{}` hashes the empty
/// string), with every tag of each slot.
#[test]
fn codis_every_slot() {
    assert_eq!(CODIS.scheme().slots(), 1024);
    check_every_slot(&CODIS, 0..=1023, (b"user:", b":cart{x}"), 64, |key| {
        crc32_iso_hdlc(between(key, b'{', b'}').unwrap_or(key)) % 1024
    });
}

/// Every partition of 12, by `crc32(key) % 12` (librdkafka's `consistent` partitioner).
#[test]
fn librdkafka_every_partition() {
    check_every_slot(&KAFKA, 0..=11, (b"", b""), 1000, |key| {
        crc32_iso_hdlc(key) % 12
    });
}

/// Every vBucket of 1000, by `((crc32(key) >> 16) & 0x7fff) % 1000` (libcouchbase's
/// `lcbvb_k2vb`).
#[test]
fn couchbase_every_vbucket() {
    check_every_slot(&COUCHBASE, 0..=999, (b"", b""), 1000, |key| {
        high_15(key) % 1000
    });
}

/// Every hash slot, by `CRC-16/XMODEM(hashtag) % 16384` (the `crc` crate's), and the tags
/// of the CRC-16 table for the same spec.
#[test]
fn redis_cluster_every_slot() {
    let xmodem = crc::Crc::<u16>::new(&crc::CRC_16_XMODEM);
    check_every_slot(&REDIS, 0..=16383, (b"user:", b":profile"), 4, |key| {
        u32::from(xmodem.checksum(nonempty_tag(key, b'{', b'}'))) % 16384
    });
    assert_eq!(REDIS.tag_for_slot(0).unwrap().as_ref(), b"DLH@");
}

/// Every server of the twemproxy pools, by `crc32a`, `crc32` and nutcracker's `crc16` of the
/// pool's hashtag.
#[test]
fn twemproxy_every_server() {
    check_every_slot(&POOL_CRC16, 0..=7, (b"user:", b":cart"), 1000, |key| {
        nutcracker_crc16(nonempty_tag(key, b'{', b'}')) % 8
    });
    check_every_slot(&POOL_CRC32A, 0..=2, (b"user:", b":cart"), 1000, |key| {
        crc32_iso_hdlc(nonempty_tag(key, b'{', b'}')) % 3
    });
    // `user:` holds the opening `:`, so the key is `user` `:tag:` `cart`
    assert!(POOL_CRC32.key_for_slot(b"user:", 0, b"").is_err());
    check_every_slot(&POOL_CRC32, 0..=4, (b"user", b"cart"), 1000, |key| {
        high_15(nonempty_tag(key, b':', b':')) % 5
    });
}

/// The first string over `symbols` in order of length (at most `max_len`), then of the
/// symbols' order (the first most significant), that lands on each of `slots` slots from
/// `first` by `slot_of`: a plain enumeration, none of slotgen's algebra.
fn plain_shortest(
    symbols: &[u8],
    max_len: u32,
    first: u32,
    slots: u32,
    slot_of: impl Fn(&[u8]) -> u32,
) -> Vec<Option<Vec<u8>>> {
    let n = symbols.len();
    let mut found = vec![None; slots as usize];
    for len in 1..=max_len {
        for i in 0..n.pow(len) {
            let tag: Vec<u8> = (0..len)
                .map(|k| symbols[i / n.pow(len - 1 - k) % n])
                .collect();
            let slot = slot_of(&tag);
            found[(slot - first) as usize].get_or_insert(tag);
        }
    }
    found
}

/// `slot_table!` with `scheme` and `shortest`: every bucket's (server's) tag is the first
/// in the plain enumeration over the independent CRC and the system's published reduction
/// (vshard's `crc32c % 3000 + 1`, twemproxy `crc32a`'s `crc32 % servers` of the hashtag);
/// the runtime's key functions agree; a slot outside the scheme is refused.
#[test]
fn scheme_shortest_tables_by_the_macro() {
    let alnum = b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    let expected = plain_shortest(alnum, 3, 1, 3000, |tag| tarantool_crc32(tag) % 3000 + 1);
    assert_eq!(VSHARD_SHORT.gaps(), 0);
    for bucket in 1..=3000u32 {
        let tag = VSHARD_SHORT.tag_for_slot(bucket).unwrap();
        assert_eq!(
            Some(tag),
            expected[bucket as usize - 1].as_deref(),
            "bucket {bucket}"
        );
        assert_eq!(VSHARD_SHORT.key_slot(tag), bucket);
    }
    assert!(VSHARD_SHORT.tag_for_slot(0).is_err());
    assert!(VSHARD_SHORT.tag_for_slot(3001).is_err());

    let expected = plain_shortest(b"0123456789", 2, 0, 5, |tag| crc32_iso_hdlc(tag) % 5);
    assert_eq!(POOL_SHORT.gaps(), 0);
    for server in 0..5u32 {
        let tag = POOL_SHORT.tag_for_slot(server).unwrap();
        assert_eq!(
            Some(tag),
            expected[server as usize].as_deref(),
            "server {server}"
        );
        let key = [&b"user:{"[..], tag, b"}:cart"].concat();
        assert_eq!(crc32_iso_hdlc(nonempty_tag(&key, b'{', b'}')) % 5, server);
        assert_eq!(POOL_SHORT.key_slot(&key), server);
    }
    assert!(POOL_SHORT.tag_for_slot(5).is_err());
}

/// The file `slotgen emit rust --scheme tarantool-vshard --name VSHARD` writes (the CLI's
/// test checks it is this library call's output), pinned; its items are exactly the
/// expansion of the table `tarantool_vshard_every_bucket` checks.
#[test]
fn tarantool_vshard_file() {
    let d = derive(&SchemeSpec::new(SchemeName::TarantoolVshard)).unwrap();
    let file = slotgen::emit::rust::file(&d, "VSHARD").unwrap();
    insta::assert_snapshot!("emit_rust_tarantool_vshard", file);
    let (_, items) = file.split_once("\n\n").unwrap();
    assert_eq!(items, VSHARD_SOURCE);
}

/// A static `SchemeTable<'static, N>` is `97 + N` bytes rounded up to 8 on a 64-bit target,
/// and borrows `(columns + kernel) * N` bytes, as `SchemeTable`'s docs say: 112 and 400 for
/// Tarantool vshard, 104 and 36 for Codis.
#[test]
fn a_static_scheme_table_is_the_size_its_docs_give() {
    fn sizes<const N: usize>(table: &SchemeTable<'_, N>) -> (usize, usize) {
        let borrowed = (table.columns().len() + table.kernel().len()) * N;
        (std::mem::size_of_val(table), borrowed)
    }
    if cfg!(target_pointer_width = "64") {
        assert_eq!(sizes(&VSHARD), (112, 400));
        assert_eq!(sizes(&CODIS), (104, 36));
        assert_eq!(
            sizes(&KAFKA).0,
            (97usize + KAFKA.tag_len()).next_multiple_of(8)
        );
    }
}

/// `slot_table!`'s fields, as one request of the request layer.
const CODIS_ALNUM_SOURCE: &str = slotgen_macros::slot_table_source! {
    pub static CODIS_ALNUM = { scheme: "codis", charset: "alnum", tag_len: 3 };
};

/// The macro and the build.rs API resolve one request alike: the request of the same
/// options (what `slotgen --scheme codis --charset alnum --tag-len 3` builds) gives, through
/// `build::Table`, exactly the items of the macro's expansion.
#[test]
fn the_macro_and_build_rs_resolve_one_request_alike() {
    let request = slotgen::request::Request {
        scheme: Some("codis".to_owned()),
        charset: Some(slotgen::charset::Charset::parse("alnum").unwrap()),
        tag_len: Some(3),
        ..slotgen::request::Request::default()
    };
    let file = slotgen::build::Table::new("CODIS_ALNUM")
        .table_spec(request.resolve().unwrap().spec)
        .render()
        .unwrap();
    let (_, items) = file.split_once("\n\n").unwrap();
    assert_eq!(items, CODIS_ALNUM_SOURCE);
}
