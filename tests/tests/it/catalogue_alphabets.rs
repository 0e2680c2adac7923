//! Every CRC-16 of the catalogue x several alphabets x several slot counts: derive with the
//! shortest tag length and verify exhaustively (every slot, every tag).

use slotgen::catalog::{reference_crc, CATALOG};
use slotgen::charset::{choose, Charset};
use slotgen::{derive, verify, Error, Spec};

/// The seed's alphabet, a 32-symbol one (0x30..=0x3f and 0x50..=0x5f) and an 8-symbol
/// one (0x41 ^ span(2, 4, 8)); the alnum choice is per CRC and slot count.
const FIXED_ALPHABETS: [&[u8]; 3] = [
    b"@ABCDEFGHIJKLMNO",
    b"0123456789:;<=>?PQRSTUVWXYZ[\\]^_",
    b"ACEGIKMO",
];

/// Tag spaces up to this size are verified tag by tag with [`verify`]; larger ones (up to
/// 2^25 tags, with the kernel of a 5-symbol tag over 32 symbols) slot by slot with
/// [`verify_by_kernel_basis`].
const FULL_VERIFY_TAGS: u64 = 1 << 18;

#[test]
fn every_catalogue_crc_gives_its_check_value() {
    for entry in CATALOG {
        let check = entry.algorithm.check;
        assert_eq!(
            reference_crc(entry.algorithm).checksum(b"123456789"),
            check,
            "{}",
            entry.name
        );
        let runtime = slotgen_tables::Crc16::new(entry.algorithm);
        assert_eq!(runtime.checksum(b"123456789"), check, "{}", entry.name);
    }
}

/// Derives `crc` x `alphabet` x `slots` with the shortest tags, checks that one symbol
/// fewer is refused as rank deficient, and verifies every slot and every tag.
fn derive_and_verify(name: &str, alphabet: &[u8], slots: u32) {
    let spec = Spec {
        tag_len: None,
        alphabet: alphabet.to_vec(),
        slots,
        ..Spec::default().with_crc(name).unwrap()
    };
    let what = format!(
        "{name}, alphabet {}, {slots} slots",
        String::from_utf8_lossy(alphabet)
    );
    let d = derive(&spec).unwrap_or_else(|e| panic!("{what}: {e}"));
    let slot_bits = slots.trailing_zeros() as usize;
    let symbol_bits = d.alphabet.symbol_bits() as usize;
    assert!(d.tag_len * symbol_bits >= slot_bits, "{what}");
    if d.tag_len * symbol_bits - symbol_bits >= slot_bits {
        let shorter = Spec {
            tag_len: Some(d.tag_len - 1),
            ..spec.clone()
        };
        match derive(&shorter) {
            Err(Error::RankDeficient {
                rank,
                reachable,
                shortest,
                ..
            }) => {
                assert!(rank < slot_bits, "{what}");
                assert_eq!(reachable, 1 << rank, "{what}");
                assert_eq!(shortest, Some(d.tag_len), "{what}");
            }
            other => panic!("{what}: {} symbols: {other:?}", d.tag_len - 1),
        }
    }
    let tags = 1u64 << (d.tag_len * symbol_bits);
    if tags > FULL_VERIFY_TAGS {
        verify_by_kernel_basis(&d, &what);
        return;
    }
    let report = verify(&d);
    assert!(report.passed(), "{what}: {:?}", report.failures);
    assert_eq!(report.slots_checked, u64::from(slots), "{what}");
    assert_eq!(
        report.tags_checked, tags,
        "{what}: every tag of the alphabet and length"
    );
}

/// Every slot, checked with the `crc` crate as the independent reference: the canonical
/// tag lands on the slot (also through the runtime's `key_slot` on a key carrying it), and
/// so does the canonical tag moved by each kernel basis vector. Since the tag -> slot map
/// is affine (the brute-force tests check that), the `2^kernel` tags of each slot are the
/// canonical one moved by the kernel's span, so every tag lands where the table says.
fn verify_by_kernel_basis(d: &slotgen::Derivation, what: &str) {
    let table = d.slot_table().unwrap();
    let spec = d.crc16_spec().unwrap();
    let reference = slotgen::catalog::reference_crc(&spec.crc);
    let mask_bits = (spec.slots - 1) as u16;
    let slot_of = |mask: u64| {
        let tag = table.tag_from_mask(mask);
        reference.checksum(tag.as_ref()) & mask_bits
    };
    for slot in 0..spec.slots {
        let slot = slot as u16;
        let mask = table.mask_for_slot(slot).unwrap();
        assert_eq!(slot_of(mask), slot, "{what}: slot {slot}");
        let key = table.key_for_slot(b"slotgen:", slot, b":verify").unwrap();
        assert_eq!(table.key_slot(&key), slot, "{what}: slot {slot}");
        for &k in &d.kernel {
            assert_eq!(
                slot_of(mask ^ k),
                slot,
                "{what}: slot {slot}, kernel {k:#x}"
            );
        }
    }
}

fn every_crc_and_alphabet(slots: u32) {
    let alnum = Charset::parse("alnum").unwrap();
    for entry in CATALOG {
        let choice = choose(
            &alnum,
            &Spec {
                crc: *entry.algorithm,
                slots,
                ..Spec::default()
            }
            .into(),
        )
        .unwrap();
        assert!(choice
            .alphabet
            .symbols()
            .iter()
            .all(u8::is_ascii_alphanumeric));
        for alphabet in FIXED_ALPHABETS
            .into_iter()
            .chain([choice.alphabet.symbols()])
        {
            derive_and_verify(entry.name, alphabet, slots);
        }
    }
}

#[test]
fn every_crc_and_alphabet_16384_slots() {
    every_crc_and_alphabet(16384);
}

#[test]
fn every_crc_and_alphabet_1024_slots() {
    every_crc_and_alphabet(1024);
}

#[test]
fn every_crc_and_alphabet_65536_slots() {
    every_crc_and_alphabet(65536);
}

/// The promise: with `--charset alnum`, every catalogue CRC reaches all 16384 slots
/// with at most 4 symbols, while the seed's alphabet needs 5 for some of them.
#[test]
fn alnum_gives_every_crc_tags_of_at_most_4_symbols() {
    let alnum = Charset::parse("alnum").unwrap();
    let mut seed_needs_5 = Vec::new();
    for entry in CATALOG {
        let choice = choose(
            &alnum,
            &Spec {
                crc: *entry.algorithm,
                slots: 16384,
                ..Spec::default()
            }
            .into(),
        )
        .unwrap();
        assert!(choice.tag_len <= 4, "{}: {choice}", entry.name);
        let seed = Spec {
            tag_len: None,
            ..Spec::default().with_crc(entry.name).unwrap()
        };
        if derive(&seed).unwrap().tag_len == 5 {
            seed_needs_5.push(entry.name);
        }
    }
    assert!(seed_needs_5.contains(&"CRC-16/MODBUS"), "{seed_needs_5:?}");
}
