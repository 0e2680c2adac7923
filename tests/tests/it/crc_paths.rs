//! Every path of the runtime's CRC-16 (byte table, slice-by-16, and with the `simd` feature
//! the `crc-fast` folding) against the `crc` crate, on every catalogue CRC and every length
//! from 0 to 300 bytes; and the memchr hashtag scan against a byte-by-byte reading of the
//! Redis Cluster rule.

use slotgen::catalog::{self, CATALOG};
use slotgen_tables::{hashtag, Crc16};

/// Deterministic bytes covering all 256 values (a 32-bit LCG, high byte).
fn message(len: usize, seed: u32) -> Vec<u8> {
    let mut state = seed.wrapping_mul(2_654_435_761).wrapping_add(1);
    (0..len)
        .map(|_| {
            state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (state >> 24) as u8
        })
        .collect()
}

#[test]
fn every_path_gives_the_catalogue_check_value() {
    for e in CATALOG {
        let crc = Crc16::new(e.algorithm);
        let check = e.algorithm.check;
        assert_eq!(crc.checksum(b"123456789"), check, "{}", e.name);
        assert_eq!(crc.checksum_bytewise(b"123456789"), check, "{}", e.name);
        assert_eq!(crc.checksum_portable(b"123456789"), check, "{}", e.name);
        // "123456789" repeated puts the check string's CRC through the slice path too.
        let long = b"123456789".repeat(40);
        let reference = crc::Crc::<u16>::new(e.algorithm).checksum(&long);
        assert_eq!(crc.checksum_portable(&long), reference, "{}", e.name);
    }
}

#[test]
fn every_path_agrees_with_the_crc_crate_on_lengths_0_to_300() {
    let data = message(300 + 16, 7);
    for e in CATALOG {
        let ours = Crc16::new(e.algorithm);
        let reference = crc::Crc::<u16>::new(e.algorithm);
        for len in 0..=300 {
            // Start at every offset modulo 16 over the lengths, so that the slice and SIMD
            // paths also see unaligned input.
            let bytes = &data[len % 16..len % 16 + len];
            let expected = reference.checksum(bytes);
            assert_eq!(ours.checksum(bytes), expected, "{} len {len}", e.name);
            assert_eq!(
                ours.checksum_bytewise(bytes),
                expected,
                "{} bytewise len {len}",
                e.name
            );
            assert_eq!(
                ours.checksum_portable(bytes),
                expected,
                "{} slice-by-16 len {len}",
                e.name
            );
            #[cfg(feature = "simd")]
            assert_eq!(
                ours.checksum_simd(bytes),
                Some(expected),
                "{} simd len {len}",
                e.name
            );
        }
    }
}

#[test]
fn long_keys_agree_with_the_crc_crate() {
    for len in [1024, 4096 + 7, 16384] {
        let bytes = message(len, len as u32);
        for e in CATALOG {
            let expected = crc::Crc::<u16>::new(e.algorithm).checksum(&bytes);
            let ours = Crc16::new(e.algorithm);
            assert_eq!(ours.checksum(&bytes), expected, "{} len {len}", e.name);
            assert_eq!(
                ours.checksum_portable(&bytes),
                expected,
                "{} len {len}",
                e.name
            );
            #[cfg(feature = "simd")]
            assert_eq!(
                ours.checksum_simd(&bytes),
                Some(expected),
                "{} len {len}",
                e.name
            );
        }
    }
}

#[test]
fn parameters_outside_the_catalogue_take_the_portable_paths() {
    // refin != refout, and a polynomial no catalogue CRC-16 uses.
    let data = message(300, 11);
    for (poly, init, refin, refout, xorout) in [
        (0x1021, 0x1d0f, true, false, 0x0000),
        (0x8005, 0xffff, false, true, 0x00ff),
        (0x2f15, 0x1234, false, false, 0x5555),
        (0x2f15, 0x1234, true, true, 0x5555),
    ] {
        let algorithm = catalog::custom(poly, init, refin, refout, xorout);
        let reference = catalog::reference_crc(&algorithm);
        let ours = Crc16::new(&algorithm);
        #[cfg(feature = "simd")]
        assert_eq!(ours.checksum_simd(b"123456789"), None);
        for len in 0..=300 {
            let expected = reference.checksum(&data[..len]);
            assert_eq!(
                ours.checksum(&data[..len]),
                expected,
                "{poly:#06x} len {len}"
            );
            assert_eq!(ours.checksum_bytewise(&data[..len]), expected);
        }
    }
}

/// The rule read byte by byte, as the Redis Cluster specification states it.
fn hashtag_by_hand(key: &[u8]) -> &[u8] {
    let mut open = None;
    for (i, &b) in key.iter().enumerate() {
        if b == b'{' {
            open = Some(i);
            break;
        }
    }
    let Some(open) = open else { return key };
    for (i, &b) in key.iter().enumerate().skip(open + 1) {
        if b == b'}' {
            return if i > open + 1 { &key[open + 1..i] } else { key };
        }
    }
    key
}

#[test]
fn hashtag_scan_agrees_with_the_rule_on_every_short_key() {
    // Every key of up to 7 bytes over `{`, `}`, `a`: 3280 keys.
    let symbols = [b'{', b'}', b'a'];
    let mut checked = 0;
    for len in 0..=7u32 {
        for n in 0..3usize.pow(len) {
            let key: Vec<u8> = (0..len).map(|k| symbols[n / 3usize.pow(k) % 3]).collect();
            assert_eq!(hashtag(&key), hashtag_by_hand(&key), "{key:?}");
            checked += 1;
        }
    }
    assert_eq!(checked, 3280);
}

#[test]
fn hashtag_scan_agrees_with_the_rule_on_keys_of_the_word_scan() {
    // Keys of 8 to 40 bytes (the eight-byte words below 32, memchr from there), with a `{`
    // and a `}` at every pair of positions or absent, over fillers that differ from a brace
    // by one bit or carry a borrow through the word trick (0x7a, 0x7c, 0xfb, 0xfd, 0x00,
    // 0x80, 0xff), each filler alone and all of them in turn.
    let fillers: [&[u8]; 9] = [
        b"x",
        b"\x7a",
        b"\x7c",
        b"\xfb",
        b"\xfd",
        b"\x00",
        b"\x80",
        b"\xff",
        b"\x7a\x7c\xfb\xfd\x00\x80\xffx",
    ];
    for len in 8..=40 {
        for filler in fillers {
            let base: Vec<u8> = (0..len).map(|i| filler[i % filler.len()]).collect();
            for open in 0..=len {
                for close in 0..=len {
                    let mut key = base.clone();
                    if open < len {
                        key[open] = b'{';
                    }
                    if close < len && close != open {
                        key[close] = b'}';
                    }
                    assert_eq!(hashtag(&key), hashtag_by_hand(&key), "{key:?}");
                }
            }
        }
    }
}

#[test]
fn hashtag_scan_agrees_with_the_rule_on_long_keys() {
    // Braces at every pair of positions of a 100-byte key, past memchr's vector width.
    let mut key = vec![b'x'; 100];
    for open in 0..100 {
        for close in 0..100 {
            key.fill(b'x');
            key[open] = b'{';
            key[close] = b'}';
            assert_eq!(hashtag(&key), hashtag_by_hand(&key), "{open} {close}");
        }
    }
}
