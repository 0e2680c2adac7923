//! `--tags` files: lines, C sources and Lua sources, then the tag-table check. Never a
//! panic; every tag read is checked.
#![no_main]

use libfuzzer_sys::fuzz_target;
use slotgen::scheme::SlotFunction;
use slotgen::verify::{tag_table, tags_from_lines, tags_from_source, Language};

fuzz_target!(|data: &[u8]| {
    let slots = SlotFunction::try_from(&slotgen::Spec {
        slots: 64,
        ..slotgen::Spec::default()
    })
    .expect("64 slots: a power of two");
    let lines = tags_from_lines(data);
    let report = tag_table(&lines, &slots);
    assert_eq!(report.entries_checked, lines.len().min(64) as u64);
    for language in [Language::C, Language::Lua] {
        if let Ok(tags) = tags_from_source(data, language) {
            let report = tag_table(&tags, &slots);
            assert!(report.misplaced.len() <= slotgen::verify::MAX_LISTED);
        }
    }
});
