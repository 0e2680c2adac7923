//! CRC parameters (`--poly --init --refin --refout --xorout`, the macro's `crc: { ... }`,
//! a JSON derivation's `crc`) -> `check_crc` -> `derive`: never a panic; a derivation that
//! succeeds puts its tags on their slots (checked on a few slots with the `crc` crate).
#![no_main]

use libfuzzer_sys::fuzz_target;
use slotgen::{derive, Spec};

fuzz_target!(|input: (u16, u16, bool, bool, u16, u16, u8)| {
    let (poly, init, refin, refout, xorout, check, slot_bits) = input;
    let mut crc = slotgen::catalog::custom(poly, init, refin, refout, xorout);
    if check & 1 == 1 {
        crc.check = check; // usually a wrong check value
    }
    if slotgen::spec::check_crc(&crc).is_err() {
        return;
    }
    let spec = Spec {
        crc,
        slots: 1 << (1 + u32::from(slot_bits) % 16),
        ..Spec::default()
    };
    let Ok(d) = derive(&spec) else { return };
    let leaked: &'static _ = Box::leak(Box::new(crc));
    let reference = crc::Crc::<u16>::new(leaked);
    let table = d.slot_table().expect("a CRC-16 spec has its slot table");
    for slot in [0u32, 1, spec.slots / 2, spec.slots - 1] {
        let tag = table.tag_for_slot(slot as u16).unwrap();
        assert_eq!(
            u32::from(reference.checksum(tag.as_ref())) & (spec.slots - 1),
            slot
        );
    }
});
