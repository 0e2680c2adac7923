//! The runtime's CRC engine of any width ([`CrcEngine`]) against the `crc` crate: every
//! catalogue CRC of width 8 to 64 (97 algorithms), the catalogue check value of
//! "123456789" first, then every path (byte table, slice-by-16, and with the `simd` feature
//! the `crc-fast` folding, which covers exactly the catalogue's CRC-16, CRC-32 and CRC-64
//! algorithms) at every length from 0 to 300 bytes and every start offset modulo 16.

use slotgen::crc_catalog::{self, AnyAlgorithm};
use slotgen_tables::{AnyCrc, CrcEngine};

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

/// The engine's paths on `bytes`, widened: (dispatching, bytewise, portable).
fn paths(algorithm: AnyAlgorithm, bytes: &[u8]) -> [u64; 3] {
    macro_rules! all3 {
        ($w:ty, $a:expr) => {{
            let e = CrcEngine::<$w>::new($a);
            [
                u64::from(e.checksum(bytes)),
                u64::from(e.checksum_bytewise(bytes)),
                u64::from(e.checksum_portable(bytes)),
            ]
        }};
    }
    match algorithm {
        AnyAlgorithm::W8(a) => all3!(u8, a),
        AnyAlgorithm::W16(a) => all3!(u16, a),
        AnyAlgorithm::W32(a) => all3!(u32, a),
        AnyAlgorithm::W64(a) => all3!(u64, a),
    }
}

/// The engine's `crc-fast` path on `bytes`, widened, `None` where it has none.
#[cfg(feature = "simd")]
fn simd_path(algorithm: AnyAlgorithm, bytes: &[u8]) -> Option<u64> {
    match algorithm {
        AnyAlgorithm::W8(a) => CrcEngine::<u8>::new(a).checksum_simd(bytes).map(u64::from),
        AnyAlgorithm::W16(a) => CrcEngine::<u16>::new(a).checksum_simd(bytes).map(u64::from),
        AnyAlgorithm::W32(a) => CrcEngine::<u32>::new(a).checksum_simd(bytes).map(u64::from),
        AnyAlgorithm::W64(a) => CrcEngine::<u64>::new(a).checksum_simd(bytes),
    }
}

/// Every catalogue CRC of width 16, 32 or 64 has a `crc-fast` counterpart (49 of the 97),
/// and no other width has one; a CRC that differs from one of them only in `xorout`
/// (Tarantool's) has it too.
#[cfg(feature = "simd")]
#[test]
fn the_simd_path_covers_the_catalogue_widths_16_32_64() {
    let mut covered = 0;
    for e in crc_catalog::all() {
        let width = e.algorithm.parameters().width;
        let simd = simd_path(e.algorithm, b"123456789");
        if matches!(width, 16 | 32 | 64) {
            assert_eq!(simd, Some(e.algorithm.parameters().check), "{}", e.name);
            covered += 1;
        } else {
            assert_eq!(simd, None, "{}", e.name);
        }
    }
    assert_eq!(covered, 31 + 12 + 7);
    // Tarantool's CRC is CRC-32/ISCSI but for `xorout`: crc-fast's CRC-32/ISCSI, xored
    // with 0xffffffff, on every length to 300 and at 16 KiB, against the crc crate
    let tarantool = CrcEngine::<u32>::new(&slotgen_tables::CRC_32_TARANTOOL);
    assert_eq!(tarantool.checksum_simd(b"123456789"), Some(0x1cf9_6d7c));
    let reference = crc::Crc::<u32>::new(&slotgen_tables::CRC_32_TARANTOOL);
    let data = message(16384 + 16, 5);
    for len in (0..=300).chain([16384]) {
        let bytes = &data[len % 16..len % 16 + len];
        assert_eq!(
            tarantool.checksum_simd(bytes),
            Some(reference.checksum(bytes)),
            "len {len}"
        );
        assert_eq!(
            tarantool.checksum(bytes),
            reference.checksum(bytes),
            "len {len}"
        );
    }
}

#[test]
fn every_width_gives_the_catalogue_check_value() {
    let all = crc_catalog::all();
    assert_eq!(all.len(), 97);
    for e in &all {
        let check = e.algorithm.parameters().check;
        assert_eq!(
            e.algorithm.reference_checksum(b"123456789"),
            check,
            "crc crate: {}",
            e.name
        );
        assert_eq!(paths(e.algorithm, b"123456789"), [check; 3], "{}", e.name);
        let any: AnyCrc<'static> = e.algorithm.engine();
        assert_eq!(any.checksum(b"123456789"), check, "AnyCrc {}", e.name);
        assert_eq!(any.check(), check, "{}", e.name);
        assert_eq!(any.width(), e.algorithm.parameters().width, "{}", e.name);
    }
}

#[test]
fn every_width_agrees_with_the_crc_crate_on_lengths_0_to_300() {
    let data = message(300 + 16, 11);
    for e in crc_catalog::all() {
        for len in 0..=300 {
            let bytes = &data[len % 16..len % 16 + len];
            let expected = e.algorithm.reference_checksum(bytes);
            assert_eq!(
                paths(e.algorithm, bytes),
                [expected; 3],
                "{} len {len}",
                e.name
            );
            #[cfg(feature = "simd")]
            if let Some(simd) = simd_path(e.algorithm, bytes) {
                assert_eq!(simd, expected, "{} simd len {len}", e.name);
            }
        }
    }
}

/// Tarantool's CRC (CRC-32C without its final xor) is CRC-32/ISCSI with every bit of the
/// output flipped, so the `crc` crate checks it too.
#[test]
fn tarantool_crc_is_iscsi_without_the_final_xor() {
    let engine = CrcEngine::<u32>::new(&slotgen_tables::CRC_32_TARANTOOL);
    let iscsi = crc::Crc::<u32>::new(&crc::CRC_32_ISCSI);
    assert_eq!(engine.checksum(b"123456789"), 0x1cf9_6d7c);
    let data = message(300, 5);
    for len in 0..=300 {
        assert_eq!(
            engine.checksum(&data[..len]),
            !iscsi.checksum(&data[..len]),
            "len {len}"
        );
    }
}
