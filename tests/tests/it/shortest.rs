//! Shortest-tag tables: redis-benchmark's table reproduced entry for entry, every entry on
//! its slot by an independent CRC, every entry the first in order by a plain enumeration,
//! gaps reported, and the runtime's lookups.

use sha2::{Digest, Sha256};
use slotgen::catalog;
use slotgen::scheme::SlotFunction;
use slotgen::shortest::{shortest, Charset, Shortest, ShortestSpec};
use slotgen::Spec;
use slotgen_tables::Error;

/// redis-benchmark's table: redis's `src/crc16_slottable.h` (`crc16_slot_table`, 16384
/// entries; read at redis/redis commit 27416ab2202682280643df11a2b178eed9ca5e37). Not copied
/// here: the SHA-256 of its entries joined by "\n" in slot order (no trailing newline),
/// computed from the table as compiled into Debian's redis-benchmark 7.0.15 (package
/// redis-tools 5:7.0.15-1~deb12u10) and checked against the source file's first and last
/// entries, with its length counts and a few entries quoted from the source file.
const REDIS_BENCHMARK_SHA256: &str =
    "b996b8af018600ab723626508d622ecccf5e83cc1f38e8497b250f165219a53a";
/// Entries of each length 1, 2, 3 in redis-benchmark's table.
const REDIS_BENCHMARK_LENGTHS: [usize; 3] = [62, 3448, 12874];
/// (slot, entry) quoted from `src/crc16_slottable.h`.
const REDIS_BENCHMARK_SPOTS: &[(u32, &str)] = &[
    (0, "06S"),
    (1, "Qi"),
    (2, "5L5"),
    (15, "I8"),
    (1000, "19w"),
    (1584, "3"),
    (16380, "wu"),
    (16381, "0TG"),
    (16382, "4oi"),
    (16383, "6ZJ"),
];

/// The table `slotgen shortest --charset alnum --order 0-9a-zA-Z --max-len 3` computes.
fn redis_benchmark() -> Shortest {
    let charset = Charset::parse("alnum")
        .and_then(|c| c.with_order("0-9a-zA-Z"))
        .unwrap();
    let spec = ShortestSpec {
        function: crc16(crc::CRC_16_XMODEM, 16384),
        charset,
        max_len: 3,
    };
    shortest(&spec).unwrap()
}

/// The slot function of a CRC-16 spec: `crc`, `slots` slots.
fn crc16(crc: crc::Algorithm<u16>, slots: u32) -> SlotFunction {
    SlotFunction::try_from(&Spec {
        crc,
        slots,
        ..Spec::default()
    })
    .unwrap()
}

/// The CRC-16 spec a search's slot function is of: its CRC by the `crc` crate, and its slot
/// count.
fn crc16_of(spec: &ShortestSpec) -> (crc::Crc<u16>, usize) {
    let crc16 = spec.function.spec().expect("a CRC-16 spec");
    let crc = crc::Crc::<u16>::new(catalog::find(crc16.crc_name()).unwrap().algorithm);
    (crc, crc16.slots as usize)
}

fn digest(table: &Shortest) -> String {
    let joined: Vec<&[u8]> = table.tags().map(Option::unwrap_or_default).collect();
    hex::encode(Sha256::digest(joined.join(&b'\n')))
}

/// Every string of length 1, 2, ..., `max_len` over the charset in order (the first symbol
/// most significant), each CRC computed from scratch by the `crc` crate: the first one of
/// each slot.
fn plain_enumeration(spec: &ShortestSpec) -> Vec<Option<Vec<u8>>> {
    let (crc, slots) = crc16_of(spec);
    let symbols = spec.charset.symbols();
    let mut first = vec![None; slots];
    let mut tag = Vec::new();
    for len in 1..=spec.max_len {
        let count = symbols.len().pow(len as u32);
        for number in 0..count {
            tag.clear();
            let mut rest = number;
            for _ in 0..len {
                tag.push(symbols[rest % symbols.len()]);
                rest /= symbols.len();
            }
            tag.reverse();
            let slot = usize::from(crc.checksum(&tag)) & (slots - 1);
            first[slot].get_or_insert_with(|| tag.clone());
        }
    }
    first
}

#[test]
fn catalogue_check_value_first() {
    let crc = crc::Crc::<u16>::new(&crc::CRC_16_XMODEM);
    assert_eq!(crc.checksum(b"123456789"), 0x31c3);
    assert_eq!(
        redis_benchmark()
            .shortest_table()
            .unwrap()
            .crc
            .checksum(b"123456789"),
        0x31c3
    );
}

#[test]
fn reproduces_redis_benchmark_table() {
    let table = redis_benchmark();
    assert!(table.gaps().is_empty());
    assert_eq!(table.tags().count(), 16384);
    for &(slot, entry) in REDIS_BENCHMARK_SPOTS {
        assert_eq!(table.tag(slot), Some(entry.as_bytes()), "slot {slot}");
    }
    let mut lengths = [0; 3];
    for tag in table.tags() {
        lengths[tag.unwrap().len() - 1] += 1;
    }
    assert_eq!(lengths, REDIS_BENCHMARK_LENGTHS);
    assert_eq!(digest(&table), REDIS_BENCHMARK_SHA256);
}

#[test]
fn redis_benchmark_digest_snapshot() {
    let table = redis_benchmark();
    insta::assert_snapshot!(
        "redis_benchmark_digest",
        format!(
            "{}\nsha256 of the tags joined by \\n: {}\n",
            slotgen::emit::shortest::describe(&table),
            digest(&table)
        )
    );
}

/// The specs of the differential tests: several CRCs, slot counts and charsets.
fn specs() -> Vec<ShortestSpec> {
    let spec = |crc: &str, slots: u32, charset: &str, order: Option<&str>, max_len: usize| {
        let mut c = Charset::parse(charset).unwrap();
        if let Some(order) = order {
            c = c.with_order(order).unwrap();
        }
        ShortestSpec {
            function: crc16(*catalog::find(crc).unwrap().algorithm, slots),
            charset: c,
            max_len,
        }
    };
    vec![
        spec("XMODEM", 16384, "alnum", Some("0-9a-zA-Z"), 3),
        spec("XMODEM", 16384, "alnum", None, 3),
        spec(
            "MODBUS",
            16384,
            "alnum",
            Some("zyxwvutsrqponmlkjihgfedcba9876543210A-Z"),
            3,
        ),
        spec("CRC-16/ARC", 65536, "[a-z0-9_.:-]", None, 4),
        spec("CRC-16/KERMIT", 1024, "lower", None, 3),
        spec("CRC-16/IBM-3740", 128, "digits", None, 2),
        spec("CRC-16/GENIBUS", 4096, "[a-d]", None, 8),
    ]
}

#[test]
fn every_entry_lands_on_its_slot_by_an_independent_crc() {
    for spec in specs() {
        let (crc, slots) = crc16_of(&spec);
        let table = shortest(&spec).unwrap();
        for (slot, tag) in table.tags().enumerate() {
            if let Some(tag) = tag {
                assert!(tag.len() <= spec.max_len);
                assert!(tag.iter().all(|b| spec.charset.symbols().contains(b)));
                let landed = usize::from(crc.checksum(tag)) & (slots - 1);
                assert_eq!(landed, slot, "{} {:?}", spec.function.options(), tag);
            }
        }
    }
}

#[test]
fn every_entry_is_the_first_in_order() {
    for spec in specs() {
        let table = shortest(&spec).unwrap();
        let got: Vec<Option<Vec<u8>>> = table.tags().map(|t| t.map(<[u8]>::to_vec)).collect();
        assert_eq!(got, plain_enumeration(&spec), "{}", spec.function.options());
    }
}

#[test]
fn gaps_of_a_charset_too_small() {
    // Three symbols, at most 6 of them: 1092 strings for 16384 slots.
    let spec = ShortestSpec {
        charset: Charset::parse("xyz").unwrap(),
        max_len: 6,
        ..ShortestSpec::default()
    };
    let table = shortest(&spec).unwrap();
    let plain = plain_enumeration(&spec);
    let expected: Vec<u32> = (0..16384)
        .filter(|&s| plain[s as usize].is_none())
        .collect();
    assert!(expected.len() >= 16384 - 1092);
    assert_eq!(table.gaps(), expected);
    let runtime = table.shortest_table().unwrap();
    assert_eq!(runtime.gaps(), expected.len());
    for &slot in &expected {
        assert_eq!(
            runtime.tag_for_slot(slot as u16),
            Err(Error::NoShortTag {
                slot: slot as u16,
                max_len: 6
            })
        );
    }
}

#[test]
fn runtime_lookup_agrees_for_every_slot() {
    let table = redis_benchmark();
    let runtime = table.shortest_table().unwrap();
    let crc = crc::Crc::<u16>::new(&crc::CRC_16_XMODEM);
    assert_eq!(runtime.gaps(), 0);
    for slot in 0..16384u16 {
        let tag = runtime.tag_for_slot(slot).unwrap();
        assert_eq!(Some(tag), table.tag(u32::from(slot)));
        let key = [b"bench:{".as_slice(), tag, b"}:counter"].concat();
        assert_eq!(runtime.key_slot(&key), slot);
        assert_eq!(crc.checksum(tag) & 0x3fff, slot);
    }
    assert_eq!(
        runtime.tag_for_slot(16384),
        Err(Error::SlotOutOfRange {
            slot: 16384,
            first: 0,
            last: 16383
        })
    );
}

#[test]
fn emitted_rust_snapshot() {
    let spec = ShortestSpec {
        function: crc16(crc::CRC_16_XMODEM, 16),
        charset: Charset::parse("[a-c]").unwrap(),
        max_len: 2,
    };
    let table = shortest(&spec).unwrap();
    insta::assert_snapshot!(
        "shortest_abc_16_rust",
        slotgen::emit::shortest::shortest_file(&table, "ABC_16").unwrap()
    );
}

#[test]
fn committed_generated_table_is_fresh_and_compiles() {
    let committed = include_str!("../../src/shortest_digits.rs");
    let command = committed.lines().next().unwrap();
    assert_eq!(
        command,
        "// @generated by slotgen shortest --crc CRC-16/XMODEM --slots 256 --charset '[0-9]' \
         --order '0-9' --max-len 3 --format rust --name DIGITS_256"
    );
    let spec = ShortestSpec {
        function: crc16(crc::CRC_16_XMODEM, 256),
        charset: Charset::parse("digits").unwrap(),
        max_len: 3,
    };
    let table = shortest(&spec).unwrap();
    let fresh = slotgen::emit::shortest::shortest_file(&table, "DIGITS_256").unwrap();
    assert!(
        fresh == committed,
        "tests/src/shortest_digits.rs is stale: rerun the command on its first line"
    );
    // The compiled static answers as the generator's table and as an independent CRC.
    let compiled = &slotgen_tests::shortest_digits::DIGITS_256;
    let crc = crc::Crc::<u16>::new(&crc::CRC_16_XMODEM);
    for slot in 0..256u16 {
        let tag = compiled.tag_for_slot(slot).unwrap();
        assert_eq!(Some(tag), table.tag(u32::from(slot)));
        assert_eq!(crc.checksum(tag) & 0xff, slot);
    }
}

/// The committed scheme table: regenerated by the command on its first line it is the
/// same file, and compiled it answers every bucket as the generator's table does and as
/// Tarantool's `digest.crc32` (bit by bit) puts the tag, `% 30 + 1`.
#[test]
fn committed_scheme_table_is_fresh_and_compiles() {
    use slotgen_tables::SchemeName;

    let committed = include_str!("../../src/shortest_buckets.rs");
    let command = committed.lines().next().unwrap();
    assert_eq!(
        command,
        "// @generated by slotgen shortest --scheme tarantool-vshard --slots 30 --charset '[0-9]' \
         --order '0-9' --max-len 3 --format rust --name BUCKETS_30"
    );
    let spec = ShortestSpec {
        function: SlotFunction::scheme(SchemeName::TarantoolVshard, Some(30), None).unwrap(),
        charset: Charset::parse("digits").unwrap(),
        max_len: 3,
    };
    let table = shortest(&spec).unwrap();
    let fresh = slotgen::emit::shortest::shortest_file(&table, "BUCKETS_30").unwrap();
    assert!(
        fresh == committed,
        "tests/src/shortest_buckets.rs is stale: rerun the command on its first line"
    );
    let compiled = &slotgen_tests::shortest_buckets::BUCKETS_30;
    assert_eq!(compiled.gaps(), 0);
    for bucket in 1..=30u32 {
        let tag = compiled.tag_for_slot(bucket).unwrap();
        assert_eq!(Some(tag), table.tag(bucket));
        assert_eq!(
            slotgen_tests::bitwise_crc::tarantool_crc32(tag) % 30 + 1,
            bucket
        );
        assert_eq!(compiled.key_slot(tag), bucket);
    }
    assert_eq!(
        compiled.tag_for_slot(0),
        Err(Error::SlotOutOfRange {
            slot: 0,
            first: 1,
            last: 30
        })
    );
}
