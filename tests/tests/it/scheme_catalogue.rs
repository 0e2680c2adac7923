//! Every CRC of the catalogue, of every width from 8 to 64, as the CRC of a whole-key
//! scheme with a modulus: its check value by slotgen's engine and by the `crc` crate, then
//! the derivation and its verification for small slot counts and for counts up to 16384,
//! powers of two and not. What cannot be done is refused with the rule: more slots than
//! values (a CRC-8 has 256), and a whole 64-bit value (a tag holds at most 64 input bits).

use slotgen::derive::derive_with;
use slotgen::scheme::invert::SchemeSpec;
use slotgen::Error;
use slotgen_tables::{HashtagRule, Reduction, Scheme, SchemeName};

/// The slot counts of every CRC; the first CRC of each width also gets 16384 (the
/// verification of a count is linear in it, and this runs unoptimized).
const SLOT_COUNTS: [u32; 6] = [1, 2, 3, 7, 16, 1000];

#[test]
fn every_catalogue_crc_derives_and_verifies() {
    let entries = slotgen::crc_catalog::all();
    assert_eq!(entries.len(), 97, "the catalogue's CRCs of width 8 to 64");
    let mut derived = 0;
    let mut widths_seen = Vec::new();
    for entry in &entries {
        let parameters = entry.algorithm.parameters();
        let engine = entry.algorithm.engine();
        assert_eq!(
            engine.checksum(b"123456789"),
            parameters.check,
            "{}",
            entry.name
        );
        assert_eq!(
            entry.algorithm.reference_checksum(b"123456789"),
            parameters.check,
            "{}",
            entry.name
        );
        let first_of_width = !widths_seen.contains(&parameters.width);
        widths_seen.push(parameters.width);
        let large = first_of_width.then_some(16384);
        for slots in SLOT_COUNTS.into_iter().chain(large) {
            let scheme = Scheme::new(
                HashtagRule::WholeKey,
                engine,
                0,
                u64::MAX,
                Reduction::Modulus,
                slots,
                0,
            )
            .unwrap();
            let spec = SchemeSpec::new(SchemeName::Librdkafka);
            let width = u32::from(parameters.width);
            match derive_with(&spec, scheme) {
                Ok(d) => {
                    let report = slotgen::verify(&d);
                    assert!(
                        report.passed(),
                        "{} % {slots}: {:?}",
                        entry.name,
                        report.failures
                    );
                    assert_eq!(report.slots_checked, u64::from(slots));
                    derived += 1;
                }
                Err(Error::SlotsAboveValues { value_bits, .. }) => {
                    assert_eq!(value_bits, width);
                    assert!(u64::from(slots) > 1u64 << width, "{} % {slots}", entry.name);
                }
                Err(Error::SchemeRankDeficient {
                    needed,
                    shortest: None,
                    ..
                }) => {
                    // only a whole 64-bit value is out of reach of 64 input bits
                    assert_eq!((width, needed), (64, 64), "{} % {slots}", entry.name);
                    assert!(!slots.is_power_of_two());
                }
                Err(e) => panic!("{} % {slots}: {e}", entry.name),
            }
        }
    }
    assert!(derived > 450, "{derived}");
}
