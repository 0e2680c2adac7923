//! The conformance corpus (`slotgen::vectors`): its expected slots against a real
//! redis-server's `CLUSTER KEYSLOT` on every key of the default corpus, against the `crc`
//! crate for other specs, its classes against their definitions, and its two written forms.

use std::time::{Duration, Instant};

use slotgen::scheme::SlotFunction;
use slotgen::vectors::{corpus, write_json, write_tsv, Class, DEFAULT_COUNT, DEFAULT_SEED};
use slotgen::Spec;
use slotgen_tests::redis_server::RedisServer;
use slotgen_tests::require_tool;

/// The whole CLUSTER KEYSLOT exchange may take this long.
const DEADLINE: Duration = Duration::from_secs(120);

/// The hashed bytes of `key`, from the Redis Cluster specification's wording (written here
/// apart from the runtime's `hashtag`).
fn reference_hashtag(key: &[u8]) -> &[u8] {
    if let Some(open) = key.iter().position(|&b| b == b'{') {
        if let Some(len) = key[open + 1..].iter().position(|&b| b == b'}') {
            if len > 0 {
                return &key[open + 1..open + 1 + len];
            }
        }
    }
    key
}

#[test]
fn every_key_of_the_default_corpus_has_the_slot_cluster_keyslot_gives() {
    if !require_tool("redis-server") {
        return;
    }
    let server = RedisServer::start(true).unwrap_or_else(|e| panic!("starting redis-server: {e}"));
    let vectors: Vec<_> = corpus(SlotFunction::default(), DEFAULT_COUNT, DEFAULT_SEED).collect();
    assert_eq!(vectors.len(), 50_000);
    let start = Instant::now();
    let mut wrong = Vec::new();
    // pipelines of 5000 keys: each answer is bounded by the connection's 30 s timeouts,
    // and the whole exchange by DEADLINE
    for chunk in vectors.chunks(5000) {
        assert!(
            start.elapsed() < DEADLINE,
            "CLUSTER KEYSLOT took over {DEADLINE:?}"
        );
        let keys: Vec<&[u8]> = chunk.iter().map(|v| &v.key[..]).collect();
        for (v, answer) in chunk.iter().zip(server.keyslots(&keys)) {
            if v.slot != u32::from(answer) {
                wrong.push((hex::encode(&v.key), v.slot, answer));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} keys differ, first: {:?}",
        wrong.len(),
        &wrong[..wrong.len().min(5)]
    );
}

#[test]
fn other_specs_get_the_slots_of_their_crc_by_the_crc_crate() {
    let specs = [
        (
            Spec::default().with_crc("CRC-16/MODBUS").unwrap(),
            4096u32,
            &crc::CRC_16_MODBUS,
        ),
        (
            Spec::default().with_crc("CRC-16/ARC").unwrap(),
            65536,
            &crc::CRC_16_ARC,
        ),
        (Spec::default(), 2, &crc::CRC_16_XMODEM),
    ];
    for (mut spec, slots, algorithm) in specs {
        spec.slots = slots;
        let crc = crc::Crc::<u16>::new(algorithm);
        for v in corpus(SlotFunction::try_from(&spec).unwrap(), 20_000, 3) {
            let expected = u32::from(crc.checksum(reference_hashtag(&v.key))) % slots;
            assert_eq!(
                v.slot,
                expected,
                "{} {}",
                spec.crc_name(),
                hex::encode(&v.key)
            );
        }
    }
}

#[test]
fn classes_hold_their_keys_and_only_them() {
    let mut seen = std::collections::HashSet::new();
    for v in corpus(SlotFunction::default(), DEFAULT_COUNT, DEFAULT_SEED) {
        seen.insert(v.class);
        let open = v.key.iter().position(|&b| b == b'{');
        let empty_pair = open.is_some_and(|o| v.key.get(o + 1) == Some(&b'}'));
        // the class a client fault shows up in holds every key of that fault
        assert_eq!(
            v.class == Class::EmptyHashtag,
            empty_pair,
            "{}",
            hex::encode(&v.key)
        );
        let text = std::str::from_utf8(&v.key);
        match v.class {
            Class::Empty => assert!(v.key.is_empty()),
            Class::Nul => assert!(v.key.contains(&0)),
            Class::InvalidUtf8 => assert!(text.is_err()),
            Class::Utf8FourByte => assert!(text.unwrap().chars().any(|c| c.len_utf8() == 4)),
            Class::Utf8Multibyte => assert!(!text.unwrap().is_ascii()),
            Class::Long => assert!(v.key.len() >= 32 && v.key.is_ascii()),
            Class::Tagged => assert_ne!(reference_hashtag(&v.key), &v.key[..]),
            Class::Plain => assert_eq!(reference_hashtag(&v.key), &v.key[..]),
            Class::BinaryBrace => assert!(text.is_err()),
            _ => {}
        }
        // "a few KiB": at most five parts of up to 4 KiB
        assert!(v.key.len() <= 5 * 4097 + 16, "{}", v.key.len());
    }
    // every class of the Redis rule: all but `hashtag-ignored`, a rule without braces's
    assert_eq!(
        seen.len(),
        Class::for_rule(slotgen_tables::HashtagRule::Redis).len()
    );
    assert!(!seen.contains(&Class::HashtagIgnored));
}

#[test]
fn lengths_cover_the_path_switches() {
    let lengths: std::collections::HashSet<usize> =
        corpus(SlotFunction::default(), DEFAULT_COUNT, DEFAULT_SEED)
            .map(|v| v.key.len())
            .collect();
    for len in [
        0, 1, 15, 16, 17, 31, 32, 33, 63, 64, 65, 255, 256, 257, 1024, 4096,
    ] {
        assert!(lengths.contains(&len), "no key of {len} bytes");
    }
}

#[test]
fn tsv_and_json_forms_hold_the_same_rows() {
    let spec = Spec::default();
    let mut tsv = Vec::new();
    write_tsv(&mut tsv, SlotFunction::try_from(&spec).unwrap(), 3000, 9).unwrap();
    let mut json = Vec::new();
    write_json(&mut json, SlotFunction::try_from(&spec).unwrap(), 3000, 9).unwrap();
    let value: serde_json::Value = serde_json::from_slice(&json).unwrap();
    assert_eq!(value["format"], "slotgen-vectors/1");
    assert_eq!(value["crc"]["name"], "CRC-16/XMODEM");
    assert_eq!(value["crc"]["check"], 0x31c3);
    assert_eq!(value["slots"], 16384);
    assert_eq!(value["seed"], 9);
    assert_eq!(value["count"], 3000);
    // the Redis rule's 14 classes, as before `hashtag-ignored` was added for other rules
    assert_eq!(value["classes"].as_array().unwrap().len(), 14);
    let rows = value["vectors"].as_array().unwrap();
    let text = String::from_utf8(tsv).unwrap();
    let mut lines = text.lines();
    assert!(lines
        .next()
        .unwrap()
        .starts_with("# slotgen vectors 1: CRC-16/XMODEM, 16384 slots, seed 9, 3000 keys"));
    let lines: Vec<&str> = lines.collect();
    assert_eq!(lines.len(), 3000);
    assert_eq!(rows.len(), 3000);
    for (line, row) in lines.iter().zip(rows) {
        let expected = format!(
            "{}\t{}\t{}",
            row["key_hex"].as_str().unwrap(),
            row["slot"],
            row["class"].as_str().unwrap()
        );
        assert_eq!(*line, expected);
    }
    // the seed layouts come first, for every seed
    assert_eq!(rows[1]["key_hex"], hex::encode("emq:{orders}:pending"));
    assert_eq!(rows[1]["slot"], 105);
    assert_eq!(rows[3]["slot"], 7387);
    assert_eq!(rows[4]["slot"], 5857);
}
