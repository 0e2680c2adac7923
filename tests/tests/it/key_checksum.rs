//! `Crc16::key_checksum` (the one-pass hashtag + CRC of short keys) against the `crc`
//! crate over the hashtag (`hashtag`, checked against a real Redis server in `core` and
//! `redis`), for every catalogue CRC and every key of up to
//! 6 bytes over `{`, `}`, `a` and `b` (5,461 keys), and longer keys around the 16-byte
//! switch to the two-pass path.

use slotgen::catalog::{reference_crc, CATALOG};
use slotgen_tables::{catalog, hashtag};

/// Every key of `len` bytes over `symbols`.
fn keys(symbols: &[u8], len: usize) -> Vec<Vec<u8>> {
    (0..symbols.len().pow(len as u32))
        .map(|mut i| {
            (0..len)
                .map(|_| {
                    let b = symbols[i % symbols.len()];
                    i /= symbols.len();
                    b
                })
                .collect()
        })
        .collect()
}

#[test]
fn every_short_key_of_every_catalogue_crc() {
    let mut all: Vec<Vec<u8>> = (0..=6).flat_map(|len| keys(b"{}ab", len)).collect();
    assert_eq!(all.len(), 5461);
    for len in 10..=20 {
        for open in [0, 3, len - 4] {
            let mut key = vec![b'x'; len];
            key[open] = b'{';
            key[open + 2] = b'}';
            all.push(key);
        }
    }
    for entry in CATALOG {
        let reference = reference_crc(entry.algorithm);
        let engine = catalog::find(entry.algorithm).expect("a catalogue engine");
        assert_eq!(engine.algorithm(), entry.algorithm, "{}", entry.name);
        for key in &all {
            assert_eq!(
                engine.key_checksum(key),
                reference.checksum(hashtag(key)),
                "{} on {:?}",
                entry.name,
                String::from_utf8_lossy(key)
            );
        }
    }
}
