//! JSON derivations (`slotgen verify TABLE.json`): never a panic, bounded work; a report
//! that passes is of a file equal to the re-derivation.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    if let Ok(report) = slotgen::verify::json_derivation(text) {
        if report.passed() {
            assert_eq!(report.mismatch_count, 0);
        }
        for m in &report.mismatches {
            assert!(m.to_string().chars().count() < 1000);
        }
    }
});
