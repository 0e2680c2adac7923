//! Scheme inversion from outside bytes: `slotgen::derive` of a `SchemeSpec` over an arbitrary
//! named scheme, slot count, hashtag delimiters, alphabet and tag length never panics (it
//! derives or says why not), and on a derivation every lookup of an arbitrary slot never
//! panics: a tag lands on its slot, and a key built with arbitrary affixes, when accepted,
//! lands there too. `SchemeTable::try_new` over arbitrary columns never panics either.
#![no_main]

use libfuzzer_sys::fuzz_target;
use slotgen::derive;
use slotgen::scheme::invert::SchemeSpec;
use slotgen_tables::{SchemeName, SchemeTable};

fuzz_target!(|input: (u8, u32, Option<[u8; 2]>, Vec<u8>, Option<u8>, u32, &[u8], &[u8], Vec<[u8; 4]>)| {
    let (name, slots, hash_tag, alphabet, tag_len, slot, prefix, suffix, columns) = input;
    let name = SchemeName::ALL[usize::from(name) % SchemeName::ALL.len()];
    let spec = SchemeSpec {
        name,
        slots: Some(slots),
        hash_tag,
        alphabet,
        tag_len: tag_len.map(usize::from),
    };
    if let Ok(scheme) = spec.scheme() {
        if let Ok(table) = SchemeTable::<'_, 4>::try_new(scheme, &spec.alphabet, 4, &columns, &[]) {
            let _ = table.tag_for_slot(slot);
        }
    }
    let Ok(d) = derive(&spec) else {
        return;
    };
    let table = d.table();
    if let Ok(tag) = table.tag_for_slot(slot) {
        assert_eq!(d.scheme.slot(tag.as_ref()), slot);
        let mut key = vec![0u8; prefix.len() + tag.len() + 2 + suffix.len()];
        if let Ok(len) = table.write_key_for_slot(prefix, slot, suffix, &mut key) {
            assert_eq!(d.scheme.slot(&key[..len]), slot);
        }
        for t in table.tags_for_slot(slot).unwrap().take(4) {
            assert_eq!(d.scheme.slot(t.as_ref()), slot);
        }
    }
});
