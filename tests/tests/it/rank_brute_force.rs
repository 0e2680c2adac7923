//! The rank verdict of `derive`, checked by brute force: enumerate every tag, compute its
//! slot with the `crc` crate, and count the slots reached. No elimination involved.

use proptest::prelude::*;
use slotgen::catalog::{custom, reference_crc, CATALOG};
use slotgen::{derive, verify, Error, Spec};

/// The number of distinct slots that the tags of `tag_len` symbols over `alphabet` reach.
fn slots_reached(crc: &crc::Algorithm<u16>, alphabet: &[u8], tag_len: usize, slots: u32) -> u64 {
    let crc = reference_crc(crc);
    let mask = (slots - 1) as u16;
    let mut reached = vec![false; slots as usize];
    let mut digits = vec![0usize; tag_len];
    let mut tag = vec![alphabet[0]; tag_len];
    loop {
        reached[usize::from(crc.checksum(&tag) & mask)] = true;
        // next tag, as a base-`alphabet.len()` counter
        let mut k = 0;
        loop {
            if k == tag_len {
                return reached.iter().filter(|&&r| r).count() as u64;
            }
            digits[k] += 1;
            if digits[k] < alphabet.len() {
                tag[k] = alphabet[digits[k]];
                break;
            }
            digits[k] = 0;
            tag[k] = alphabet[0];
            k += 1;
        }
    }
}

/// `derive` with `tag_len` agrees with the brute-force count: a table exactly when every
/// slot is reached, else a rank error with the reached count. Returns whether it derived.
fn check_verdict(crc: &crc::Algorithm<u16>, alphabet: &[u8], tag_len: usize, slots: u32) -> bool {
    let reached = slots_reached(crc, alphabet, tag_len, slots);
    let spec = Spec {
        crc: *crc,
        alphabet: alphabet.to_vec(),
        tag_len: Some(tag_len),
        slots,
    };
    let what = format!(
        "poly {:#06x} init {:#06x} refin {} refout {} xorout {:#06x}, alphabet {:?}, {tag_len} symbols, {slots} slots",
        crc.poly, crc.init, crc.refin, crc.refout, crc.xorout, String::from_utf8_lossy(alphabet)
    );
    match derive(&spec) {
        Ok(d) => {
            assert_eq!(
                reached,
                u64::from(slots),
                "{what}: derived, but tags miss slots"
            );
            let report = verify(&d);
            assert!(report.passed(), "{what}: {:?}", report.failures);
            true
        }
        Err(Error::RankDeficient {
            rank,
            reachable,
            shortest,
            ..
        }) => {
            assert_eq!(reachable, reached, "{what}: reachable count");
            assert_eq!(reachable, 1 << rank, "{what}");
            assert!(reachable < u64::from(slots), "{what}");
            if let Some(n) = shortest {
                assert!(n > tag_len, "{what}: shortest {n}");
                let longer = Spec {
                    tag_len: Some(n),
                    ..spec
                };
                assert!(
                    derive(&longer).is_ok(),
                    "{what}: shortest {n} does not derive"
                );
            }
            false
        }
        Err(Error::EvenPoly { poly }) => {
            // refused for its constant low bits: the brute force reaches at most half the
            // slots
            assert_eq!(poly, crc.poly, "{what}");
            assert!(poly % 2 == 0 && !crc.refout, "{what}");
            assert!(reached <= u64::from(slots / 2), "{what}: reached {reached}");
            false
        }
        Err(e) => panic!("{what}: {e}"),
    }
}

/// Every catalogue CRC, alphabets of 2 to 32 symbols, slot counts 2 to 1024, every tag
/// length up to 2^14 tags: both verdicts occur, and each agrees with the count.
#[test]
fn rank_verdicts_of_catalogue_crcs_match_brute_force() {
    let alphabets: [&[u8]; 5] = [
        b"01",
        b"`abc",
        b"01234567",
        b"@ABCDEFGHIJKLMNO",
        b"@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_",
    ];
    let (mut derived, mut refused) = (0, 0);
    for entry in CATALOG {
        for alphabet in alphabets {
            for slots in [2, 16, 256, 1024] {
                let bits = alphabet.len().trailing_zeros() as usize;
                for tag_len in 1..=14 / bits {
                    if check_verdict(entry.algorithm, alphabet, tag_len, slots) {
                        derived += 1;
                    } else {
                        refused += 1;
                    }
                }
            }
        }
    }
    assert!(
        derived > 0 && refused > 0,
        "{derived} derived, {refused} refused"
    );
}

/// An affine alphabet: `offset ^ span(basis)`, from a random offset and `dim` random
/// directions made independent by elimination.
fn affine_alphabet() -> impl Strategy<Value = Vec<u8>> {
    (1u32..=5, any::<u8>(), prop::collection::vec(1u8..=255, 5)).prop_filter_map(
        "dependent directions",
        |(dim, offset, directions)| {
            let mut basis: Vec<u8> = Vec::new();
            for mut v in directions {
                for &b in &basis {
                    v = v.min(v ^ b);
                }
                if v != 0 && basis.len() < dim as usize {
                    basis.push(v);
                }
            }
            (basis.len() == dim as usize).then(|| {
                (0..1usize << dim)
                    .map(|i| {
                        (0..dim as usize)
                            .filter(|j| i >> j & 1 == 1)
                            .fold(offset, |acc, j| acc ^ basis[j])
                    })
                    .collect()
            })
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Random custom CRC-16s and random affine alphabets: every result is a verified table
    /// or a rank error whose reachable count the brute force confirms.
    #[test]
    fn custom_crcs_and_random_affine_alphabets(
        poly in any::<u16>(),
        init in any::<u16>(),
        refin in any::<bool>(),
        refout in any::<bool>(),
        xorout in any::<u16>(),
        alphabet in affine_alphabet(),
        slot_bits in 1u32..=10,
        extra in 0usize..=2,
    ) {
        prop_assume!(!alphabet.contains(&b'{') && !alphabet.contains(&b'}'));
        let crc = custom(poly, init, refin, refout, xorout);
        let bits = alphabet.len().trailing_zeros() as usize;
        // around the length where tags first have enough bits, at most 2^16 tags
        let tag_len = ((slot_bits as usize).div_ceil(bits) + extra - 1).clamp(1, 16 / bits);
        check_verdict(&crc, &alphabet, tag_len, 1 << slot_bits);
    }
}
